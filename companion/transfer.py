"""A game as a file: its export as JSON (and its standings as CSV), and the import of such
an export back as a new game.

The export holds what the game is made of: the settings and seats, the start totals,
every hand's cards or typed totals, the rulings kept, the Wild Jackpot's rule cards and
every pull with the cards it dealt. A rule card's text goes only where the exporting
phone may read it (the Wild Jackpot's :class:`~companion.rule_card_readers.Phone` decides, as on
every page): any other card is exported with ``"text": null``, and the file says so.

An import trusts nothing in the file: the engine reads the variant, the scoring, the
options and every card; each list and text has a bound; and the game it makes is
stored in one transaction, or not at all (:class:`ImportRefused` says why).
"""

from __future__ import annotations

import csv
import io
import json
import typing
from datetime import datetime
from typing import Any

import sqlite_utils

import engine
from engine import LeverCall, LeverOutcome, Rank, ScoringMode, TableOptions
from engine.jackpot import OPENING_RANKS

from . import store
from .forms import (
    MAX_POINTS,
    MAX_TARGET,
    FormErrors,
    clean_name,
    players_problem,
    read_hand,
)
from .rule_card_readers import MAX_RULE, Phone

#: What an export says it is, and the version of its layout.
FORMAT, VERSION = "uno-companion-game", 1
#: What an export says of the cards it carries without their text.
WITHHELD_NOTE = ("A rule card whose text the exporting phone may not read (written on "
                 "another phone, or dealt to a player and not yet revealed) is exported "
                 "with \"text\": null.")
#: The text such a card has once imported.
WITHHELD_TEXT = "(Not in the export: only its own phone could read this card.)"

#: Bounds on what an import reads (the request itself is bounded by the app's MAX_BODY).
MAX_HANDS = store.MAX_GAME_HANDS
MAX_RULINGS = store.RULINGS_SHOWN
MAX_SPINS = 2_000
MAX_TEXT = 1_000
MAX_VERDICT = 16_000
MAX_DISPUTE = 60


class ImportRefused(ValueError):
    """An export that cannot be imported, saying what is wrong with it."""


# -- export ---------------------------------------------------------------------------


def export_game(db: sqlite_utils.Database, game: store.GameRecord, phone: Phone) -> dict[str, Any]:
    """The game as plain values for JSON, rule cards as ``phone`` may read them."""
    cards = store.rule_cards(db, game.id)
    spins: list[store.Spin] = []
    page, more = 1, True
    while more:
        found, more = store.list_spins(db, game, page)
        spins += found
        page += 1
    rulings = store.all_rulings(db, game.id)
    shown_spins = [phone.sees(s) for s in reversed(spins)]
    withheld = (any(not phone.reads(c) for c in cards)
                or any(c.text is None for s in shown_spins for c in s.cards))
    return {
        "format": FORMAT, "version": VERSION, "exported_at": store.now(),
        "withheld": WITHHELD_NOTE if withheld else None,
        "game": {
            "variant": game.variant.name, "mode": game.mode.value, "target": game.target,
            "options": game.options.to_dict(), "players": list(game.players),
            "dealer": game.dealer, "start_totals": list(game.start_totals or []) or None,
            "play_on": game.play_on, "ended": game.ended, "created_at": game.created_at,
        },
        "hands": [{"went_out": h.went_out, "created_at": h.created_at,
                   "holdings": [{"seat": s, "points": x.points} if x.typed
                                else {"seat": s, "cards": engine.cards_text(x.cards)}
                                for s, x in h.holdings.items()]}
                  for h in store.all_hands(db, game)],
        "rulings": [{"check": r["check_name"], "title": r["title"], "outcome": r["outcome"],
                     "verdict": json.loads(r["verdict"]),
                     "dispute": json.loads(r["dispute"] or "[]"), "created_at": r["created_at"]}
                    for r in rulings],
        "rule_cards": [{"seat": c.seat, "text": c.text if phone.reads(c) else None,
                        "pile": "loaded" if c.loaded else "used", "place": c.place}
                       for c in cards],
        "spins": [{"puller": s.call.puller, "outcome": s.call.outcome.value,
                   "direction": s.call.direction, "chosen": s.call.chosen,
                   "opening": s.call.opening.value if s.call.opening else None,
                   "out": sorted(s.call.out), "created_at": s.created_at,
                   "cards": [{"seat": c.seat, "text": c.text, "revealed": c.revealed}
                             for c in s.cards]}
                  for s in shown_spins],
    }


def standings_csv(game: store.GameRecord) -> str:
    """The standings as the scoreboard shows them, best first, as CSV."""
    st = game.standings
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["place", "player", "points" if game.mode.uses_points else "wins",
                     "to go", "status"])
    for place, seat in st.ranking():
        status = ("winner" if seat in st.winners else "out" if seat in st.eliminated
                  else "leads" if seat in st.leaders else "")
        to_go = st.to_go(seat)
        writer.writerow([place, _cell(game.players[seat]), st.totals[seat],
                         "" if to_go is None else to_go, status])
    return out.getvalue()


def _cell(text: str) -> str:
    # A name starting like a formula would be run by a spreadsheet: a quote keeps it text.
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


# -- import ---------------------------------------------------------------------------


def read_export(text: str | bytes) -> store.CarriedGame:
    """An export's text, checked through and through, as a game to store."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ImportRefused(f"This is not a game exported from the UNO companion (not JSON: "
                            f"{exc}).") from None
    top = _object(data, "the file")
    if top.get("format") != FORMAT:
        raise ImportRefused("This is not a game exported from the UNO companion.")
    if top.get("version") != VERSION:
        raise ImportRefused("This export was made by another version of the UNO companion.")
    setup, extra = _setup(_object(top.get("game"), "game"))
    carried = store.CarriedGame(
        setup=setup, created_at=_stamp(extra.get("created_at"), "game.created_at"),
        play_on=_bool(extra.get("play_on"), "game.play_on"),
        ended=_bool(extra.get("ended"), "game.ended"),
        hands=_hands(setup, _list(top.get("hands"), "hands", MAX_HANDS)),
        rulings=tuple(_ruling(r, f"rulings[{i}]") for i, r in
                      enumerate(_list(top.get("rulings"), "rulings", MAX_RULINGS))),
        rule_cards=_rule_cards(setup, _list(top.get("rule_cards"), "rule_cards",
                                            setup.variant.rule_cards)),
        spins=tuple(_spin(setup, s, f"spins[{i}]") for i, s in
                    enumerate(_list(top.get("spins"), "spins", MAX_SPINS))),
    )
    if carried.spins and not setup.variant.rule_cards:
        raise ImportRefused(f"{setup.variant.title} has no Wild Jackpot lever to pull.")
    return carried


def import_game(db: sqlite_utils.Database, text: str | bytes, keeper: str,
                submission: str | None = None) -> int:
    """Store the export ``text`` as a new game kept by ``keeper``; its id. ImportRefused
    (nothing stored) when anything in it is wrong; the same form sent twice (its one-time
    ``submission`` key) is store.AlreadySaved, a key reused for another file OutOfDate."""
    carried = read_export(text)
    said = store.digest([("export", text.decode(errors="replace") if isinstance(text, bytes)
                          else text)])
    try:
        return store.store_carried(db, carried, keeper, submission, said)
    except (store.AlreadySaved, store.OutOfDate):
        raise
    except store.ConflictError as exc:
        raise ImportRefused(f"This game cannot be imported: {exc}") from None


def _setup(data: dict[str, Any]) -> tuple[store.GameSetup, dict[str, Any]]:
    """The game's settings and seats, checked by the engine as a new game's are."""
    try:
        variant = engine.find_variant(_text(data.get("variant"), "game.variant", 40))
        mode = ScoringMode(_text(data.get("mode"), "game.mode", 40))
    except ValueError as exc:
        raise ImportRefused(f"game: {exc}") from None
    if mode not in variant.scoring_modes:
        raise ImportRefused(f"game.mode: {variant.title} is not kept as {mode.label}.")
    players = tuple(_text(n, "game.players", MAX_TEXT) for n in
                    _list(data.get("players"), "game.players", variant.max_players))
    problem = players_problem(variant, mode, players)
    if problem or any(clean_name(n) != n for n in players):
        raise ImportRefused(f"game.players: {problem or 'a name holds invisible characters.'}")
    target = (None if data.get("target") is None
              else _int(data.get("target"), "game.target", 1, MAX_TARGET))
    if target is None and mode is not ScoringMode.WIN_TALLY:
        raise ImportRefused("game.target: a scored game needs a target.")
    dealer = _int(data.get("dealer"), "game.dealer", 0, len(players) - 1)
    start = data.get("start_totals")
    totals = None if start is None else tuple(
        _int(t, "game.start_totals", 0, MAX_TARGET)
        for t in _list(start, "game.start_totals", len(players)))
    options = _options(variant, data.get("options"))
    try:
        engine.new_standings(mode, len(players), target, totals=totals)
    except (engine.ScoringError, ValueError) as exc:
        raise ImportRefused(f"game.start_totals: {exc}") from None
    return store.GameSetup(variant=variant, mode=mode, target=target, options=options,
                           players=players, dealer=dealer, start_totals=totals or None), data


def _options(variant: type[engine.Game], data: object) -> TableOptions:
    """The table options, each of the type the engine declares, as the variant allows."""
    given = _object(data, "game.options")
    hints = typing.get_type_hints(TableOptions)
    for name, value in given.items():
        if name == "rule_cards":
            texts = _list(value, "game.options.rule_cards", variant.rule_cards)
            given[name] = [_text(t, "game.options.rule_cards", MAX_RULE) for t in texts]
            continue
        # Exactly the declared kinds ("int | None": a number or null; never true for 1).
        kinds = typing.get_args(hints[name]) or (hints[name],) if name in hints else ()
        if not any(type(value) is kind for kind in kinds):
            raise ImportRefused(f"game.options.{name[:40]}: not an option of this app, or "
                                "not of its kind.")
        if type(value) is int and not 0 <= value <= MAX_POINTS:
            raise ImportRefused(f"game.options.{name}: out of range.")
    try:
        options = TableOptions.from_dict(given)
        variant.check_options(options)
    except (ValueError, TypeError) as exc:
        raise ImportRefused(f"game.options: {exc}") from None
    return options


def _hands(setup: store.GameSetup,
           hands: list[Any]) -> tuple[tuple[int, tuple[store.Holding, ...], str], ...]:
    """Every hand, read as its form would be (the engine parses the cards) and scored in
    turn from the start totals."""
    standings = engine.new_standings(setup.mode, len(setup.players), setup.target,
                                     totals=setup.start_totals)
    game = store.GameRecord(**vars(setup), id=0, play_on=False, ended_at=None, created_at="",
                            deleted_at=None, rematch_of=None, scored=standings)
    read = []
    for number, raw in enumerate(hands, 1):
        where = f"hands[{number - 1}]"
        hand = _object(raw, where)
        went_out = _int(hand.get("went_out"), f"{where}.went_out", 0, len(setup.players) - 1)
        form: dict[str, str] = {"out": str(went_out)}
        seats = set()
        for held in _list(hand.get("holdings"), f"{where}.holdings", len(setup.players)):
            holding = _object(held, f"{where}.holdings")
            seat = _int(holding.get("seat"), f"{where}.holdings.seat", 0, len(setup.players) - 1)
            if seat in seats:
                raise ImportRefused(f"{where}: seat {seat + 1} is there twice.")
            seats.add(seat)
            if "points" in holding:
                form[f"pts-{seat}"] = str(_int(holding["points"], f"{where}.holdings.points",
                                               0, MAX_POINTS))
            else:
                form[f"cards-{seat}"] = _text(holding.get("cards"), f"{where}.holdings.cards",
                                              MAX_TEXT * 2)
        try:
            reading = read_hand(game, form, standings)
        except FormErrors as exc:
            raise ImportRefused(f"{where}: {exc}") from None
        if reading.errors or seats != set(reading.points):
            problem = "; ".join(reading.errors.values()) or "holdings for seats not scored."
            raise ImportRefused(f"Hand {number}: {problem}")
        try:
            standings = engine.score_hand(standings, engine.HandOutcome(went_out, reading.points))
        except engine.ScoringError as exc:
            raise ImportRefused(f"Hand {number} cannot be scored: {exc}") from None
        read.append((went_out, tuple(reading.holdings),
                     _stamp(hand.get("created_at"), f"{where}.created_at")))
    return tuple(read)


def _ruling(raw: object, where: str) -> dict[str, str]:
    ruling = _object(raw, where)
    verdict = _object(ruling.get("verdict"), f"{where}.verdict")
    dispute = [[_text(k, f"{where}.dispute", MAX_TEXT), _text(v, f"{where}.dispute", MAX_TEXT)]
               for k, v in (_pair(p, f"{where}.dispute") for p in
                            _list(ruling.get("dispute"), f"{where}.dispute", MAX_DISPUTE))]
    verdict_text = json.dumps(verdict)
    if len(verdict_text) > MAX_VERDICT:
        raise ImportRefused(f"{where}.verdict: too long.")
    return {"check_name": _text(ruling.get("check"), f"{where}.check", 80),
            "title": _text(ruling.get("title"), f"{where}.title", MAX_TEXT),
            "outcome": _text(ruling.get("outcome"), f"{where}.outcome", MAX_TEXT),
            "verdict": verdict_text, "dispute": json.dumps(dispute),
            "created_at": _stamp(ruling.get("created_at"), f"{where}.created_at")}


def _rule_cards(setup: store.GameSetup, cards: list[Any]) -> tuple[store.CarriedCard, ...]:
    """The unit's cards: no seat past its share, each pile's places in order."""
    shares = (engine.rule_card_shares(len(setup.players), setup.variant.rule_cards)
              if setup.variant.rule_cards else ())
    read = []
    for i, raw in enumerate(cards):
        card = _object(raw, f"rule_cards[{i}]")
        seat = _int(card.get("seat"), f"rule_cards[{i}].seat", 0, len(setup.players) - 1)
        text = card.get("text")
        if text is not None:
            text = _text(text, f"rule_cards[{i}].text", MAX_RULE)
        pile = card.get("pile")
        if pile not in ("loaded", "used"):
            raise ImportRefused(f"rule_cards[{i}].pile: loaded or used.")
        read.append(store.CarriedCard(seat, text, pile == "loaded",
                                      _int(card.get("place"), f"rule_cards[{i}].place", 0,
                                           len(cards))))
    for seat, share in enumerate(shares):
        if sum(c.seat == seat for c in read) > share:
            raise ImportRefused(f"rule_cards: {setup.players[seat]} writes {share} cards.")
    for loaded in (True, False):
        if sorted(c.place for c in read if c.loaded == loaded) != list(
                range(sum(c.loaded == loaded for c in read))):
            raise ImportRefused("rule_cards: each pile's places must count from 0.")
    return tuple(read)


def _spin(setup: store.GameSetup, raw: object,
          where: str) -> tuple[LeverCall, str, tuple[tuple[int, str, bool], ...]]:
    """A pull, its call checked by the engine, its dealt cards those the call deals."""
    spin = _object(raw, where)
    n = len(setup.players)
    opening = spin.get("opening")
    try:
        call = LeverCall(
            LeverOutcome(_text(spin.get("outcome"), f"{where}.outcome", 40)),
            _int(spin.get("puller"), f"{where}.puller", 0, n - 1), n,
            _int(spin.get("direction"), f"{where}.direction", -1, 1),
            chosen=None if spin.get("chosen") is None else _int(spin.get("chosen"),
                                                               f"{where}.chosen", 0, n - 1),
            opening=None if opening is None else Rank(_text(opening, f"{where}.opening", 40)),
            out=frozenset(_int(s, f"{where}.out", 0, n - 1)
                          for s in _list(spin.get("out"), f"{where}.out", n)))
    except ValueError as exc:
        raise ImportRefused(f"{where}: {exc}") from None
    if call.opening is not None and call.opening not in OPENING_RANKS:
        raise ImportRefused(f"{where}.opening: a Jackpot or a Wild Jackpot.")
    dealt = []
    for raw_card in _list(spin.get("cards"), f"{where}.cards", n):
        card = _object(raw_card, f"{where}.cards")
        text = card.get("text")
        dealt.append((_int(card.get("seat"), f"{where}.cards.seat", 0, n - 1),
                      WITHHELD_TEXT if text is None else _text(text, f"{where}.cards.text",
                                                                 MAX_RULE),
                      _bool(card.get("revealed"), f"{where}.cards.revealed")))
    performers = () if call.awaits_choice else call.performers
    if tuple(seat for seat, _, _ in dealt) != performers[:len(dealt)]:
        raise ImportRefused(f"{where}.cards: not dealt to the players the lever called.")
    return call, _stamp(spin.get("created_at"), f"{where}.created_at"), tuple(dealt)


# -- the small checks every value goes through ----------------------------------------------


def _object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ImportRefused(f"{where}: expected an object.")
    return dict(value)


def _list(value: object, where: str, limit: int) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ImportRefused(f"{where}: expected a list.")
    if len(value) > limit:
        raise ImportRefused(f"{where}: at most {limit}.")
    return value


def _pair(value: object, where: str) -> tuple[Any, Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise ImportRefused(f"{where}: expected pairs.")
    return value[0], value[1]


def _int(value: object, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ImportRefused(f"{where}: expected a whole number from {low} to {high}.")
    return value


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise ImportRefused(f"{where}: expected true or false.")
    return value


def _text(value: object, where: str, limit: int) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise ImportRefused(f"{where}: expected a text of at most {limit} characters.")
    return value


def _stamp(value: object, where: str) -> str:
    """A stored timestamp (ISO 8601, as the app writes them); now when there is none."""
    if value is None:
        return store.now()
    text = _text(value, where, 40)
    try:
        datetime.fromisoformat(text)
    except ValueError:
        raise ImportRefused(f"{where}: expected a date and time (ISO 8601).") from None
    return text
