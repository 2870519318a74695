"""The Wild Jackpot unit (R17, R18) as rows: the rule cards the table wrote, the dispenser
they are dealt from, every pull of the lever and which card went to whom."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlite_utils

import engine

from .conflicts import ConflictError
from .decoding import inserted_id
from .records import GameRecord, now

#: Pulls listed per page of a game's lever history.
SPINS_PAGE = 20



@dataclass(frozen=True)
class RuleCard:
    """A rule card a player wrote, and where it is: in the unit or on the used pile."""

    id: int
    seat: int
    text: str
    loaded: bool
    #: Its place in its pile (the unit deals from the end).
    place: int
    #: The phone (device) it was written on; None for the shared scorekeeper's phone
    #: (cards written before phones were told apart).
    written_by: str | None = None

    def readable_by(self, device: str | None, passed_round: bool) -> bool:
        """Whether a phone may read the text: only the one it was written on (a card of
        the shared phone's days: the phone passed round). Nobody else sees a rule until
        the lever deals it (R17)."""
        return self.written_by == device if self.written_by else passed_round



@dataclass(frozen=True)
class DealtCard:
    """A rule card the lever dealt: to whom, in which turn, and whether its player has
    seen it yet (until then only they may read it: docs/rulings.md)."""

    turn: int
    seat: int
    #: The text as it was when dealt; None where the phone asking may not read it.
    text: str | None
    revealed: bool



@dataclass(frozen=True)
class Spin:
    """One pull of the lever (or a Jackpot turned up first), as recorded."""

    id: int
    call: engine.LeverCall
    #: The rule cards dealt, in the order they are performed.
    cards: tuple[DealtCard, ...]
    created_at: str


def rule_cards(db: sqlite_utils.Database, game_id: int) -> list[RuleCard]:
    """The game's written rule cards, by writer's seat in the order written."""
    rows = db.table("rule_cards").rows_where("game_id = ?", [game_id], order_by="seat, id")
    return [RuleCard(r["id"], r["seat"], r["text"], r["pile"] == "loaded", r["place"],
                     r["written_by"]) for r in rows]


def write_rule_cards(db: sqlite_utils.Database, game: GameRecord, seat: int,
                     texts: list[str], rng: random.Random, *, device: str | None,
                     passed_round: bool) -> None:
    """Set the cards this phone wrote for ``seat`` to ``texts`` (inside :func:`changing`):
    a blank text is a card not written (or torn up). Cards of the seat this phone may
    not read (written on another phone) are left alone. New cards are shuffled into the
    unit, torn-up ones leave their pile, rewritten ones stay where they are
    (docs/rulings.md)."""
    cards = rule_cards(db, game.id)
    mine = [c for c in cards if c.seat == seat and c.readable_by(device, passed_round)]
    unit = _dispenser(cards)
    stamp = now()
    added: list[str] = []
    removed: list[str] = []
    table = db.table("rule_cards")
    for k in range(max(len(mine), len(texts))):
        old = mine[k] if k < len(mine) else None
        text = texts[k] if k < len(texts) else ""
        if old is not None and not text:
            table.delete(old.id)
            removed.append(str(old.id))
        elif old is not None and text != old.text:
            table.update(old.id, {"text": text, "updated_at": stamp, "written_by": device})
        elif old is None and text:
            added.append(str(inserted_id(table.insert({
                "game_id": game.id, "seat": seat, "text": text, "pile": "loaded", "place": -1,
                "created_at": stamp, "updated_at": stamp, "written_by": device}))))
    unit.remove(removed)
    unit.add(added, rng)
    _keep_dispenser(db, unit)


def carry_rule_cards(db: sqlite_utils.Database, old_id: int, new_id: int,
                     rng: random.Random) -> None:
    """A rematch keeps the table's rule cards (inside the rematch's transaction): each
    written card, on the phone it was written on, shuffled into the new game's unit."""
    stamp = now()
    table = db.table("rule_cards")
    added = [str(inserted_id(table.insert({
        "game_id": new_id, "seat": c.seat, "text": c.text, "pile": "loaded", "place": -1,
        "created_at": stamp, "updated_at": stamp, "written_by": c.written_by})))
        for c in rule_cards(db, old_id)]
    _keep_dispenser(db, engine.RuleDispenser.load(added, rng))


def tear_up_rule_cards(db: sqlite_utils.Database, game: GameRecord,
                       cards: Iterable[RuleCard]) -> None:
    """Take ``cards`` out of the game, from whichever pile holds them (inside
    :func:`changing`)."""
    unit = _dispenser(rule_cards(db, game.id))
    removed = [str(c.id) for c in cards]
    for card in removed:
        db.table("rule_cards").delete(int(card))
    unit.remove(removed)
    _keep_dispenser(db, unit)


#: How many of a game's latest pulls are searched for cards nobody has seen yet (every
#: page of the game asks, so it is bounded: a card left unread for longer is in the history).
UNREAD_PULLS = SPINS_PAGE


def unrevealed_cards(db: sqlite_utils.Database, game_id: int) -> list[tuple[int, int, int]]:
    """The cards the game's latest pulls dealt that nobody has seen yet, oldest first:
    (pull, turn counted from 1, seat)."""
    return [(int(r[0]), int(r[1]) + 1, int(r[2])) for r in db.execute(
        "select spin_id, turn, seat from spin_cards where revealed_at is null and spin_id in "
        "(select id from spins where game_id = ? order by id desc limit ?) "
        "order by spin_id, turn", [game_id, UNREAD_PULLS]).fetchall()]


def reveal_rule_card(db: sqlite_utils.Database, spin_id: int, turn: int) -> None:
    """Record that a dealt card's player has seen it (once: the first time counts);
    ``turn`` counts from 1, as :class:`DealtCard` does."""
    db.execute("update spin_cards set revealed_at = ? where spin_id = ? and turn = ? and "
               "revealed_at is null", [now(), spin_id, turn - 1])


def pull_lever(db: sqlite_utils.Database, game: GameRecord, call: engine.LeverCall,
               rng: random.Random, submission: str | None) -> int:
    """Record a pull whose outcome is decided (inside :func:`changing`), dealing the
    rule cards it calls for; return its id."""
    spin_id = inserted_id(db.table("spins").insert({
        "game_id": game.id, "puller": call.puller, "outcome": call.outcome.value,
        "direction": call.direction, "chosen": call.chosen,
        "opening": call.opening.value if call.opening else None,
        "out_seats": json.dumps(sorted(call.out)), "submission": submission,
        "created_at": now()}))
    _deal(db, game.id, spin_id, call.performers, rng)
    return spin_id


def choose_performer(db: sqlite_utils.Database, game: GameRecord, spin: Spin, seat: int,
                     rng: random.Random) -> None:
    """The puller's choice for "choose any player" (inside :func:`changing`); the same
    choice sent again changes nothing, another one is refused."""
    if not spin.call.awaits_choice:
        if spin.call.chosen == seat:
            return
        raise ConflictError("That choice was already made: nothing was changed.", game.id)
    call = spin.call.choose(seat)
    db.table("spins").update(spin.id, {"chosen": seat})
    _deal(db, game.id, spin.id, call.performers, rng)


def load_spin(db: sqlite_utils.Database, game: GameRecord, spin_id: int) -> Spin | None:
    """One recorded pull of this game's lever."""
    spins = _spins(db, game, "game_id = ? and id = ?", [game.id, spin_id])
    return spins[0] if spins else None


def spin_for_submission(db: sqlite_utils.Database, game: GameRecord, submission: str) -> int | None:
    """The pull a form's one-time key made, if it made one."""
    rows = db.table("spins").rows_where("game_id = ? and submission = ?", [game.id, submission],
                                        select="id")
    return next((int(r["id"]) for r in rows), None)


def list_spins(db: sqlite_utils.Database, game: GameRecord, page: int = 1) -> tuple[list[Spin], bool]:
    """One page of the game's pulls, newest first, and whether older ones follow."""
    spins = _spins(db, game, "game_id = ?", [game.id], limit=SPINS_PAGE + 1,
                   offset=(page - 1) * SPINS_PAGE)
    return spins[:SPINS_PAGE], len(spins) > SPINS_PAGE


def lever_counts(db: sqlite_utils.Database, game_id: int) -> dict[engine.LeverOutcome, int]:
    """How often the lever stopped on each outcome in this game (first cards left out)."""
    counts = dict.fromkeys(engine.LeverOutcome, 0)
    for row in db.execute("select outcome, count(*) from spins where game_id = ? and opening "
                          "is null group by outcome", [game_id]).fetchall():
        counts[engine.LeverOutcome(row[0])] = row[1]
    return counts


def last_direction(db: sqlite_utils.Database, game_id: int) -> int:
    """The direction of play the table gave with its last pull (clockwise at first)."""
    rows = db.table("spins").rows_where("game_id = ?", [game_id], order_by="id desc", limit=1,
                                        select="direction")
    return next((int(r["direction"]) for r in rows), 1)


def _spins(db: sqlite_utils.Database, game: GameRecord, where: str, args: list[Any],
           limit: int | None = None, offset: int | None = None) -> list[Spin]:
    rows = list(db.table("spins").rows_where(where, args, order_by="id desc", limit=limit,
                                             offset=offset))
    dealt: dict[int, list[DealtCard]] = {r["id"]: [] for r in rows}
    if rows:
        marks = ",".join("?" * len(rows))
        for c in db.table("spin_cards").rows_where(f"spin_id in ({marks})", list(dealt),
                                                   order_by="spin_id, turn"):
            # Turns are stored from 0; pages and addresses count them from 1.
            dealt[c["spin_id"]].append(DealtCard(c["turn"] + 1, c["seat"], c["text"],
                                                 c["revealed_at"] is not None))
    return [Spin(r["id"], engine.LeverCall(
        engine.LeverOutcome(r["outcome"]), r["puller"], len(game.players), r["direction"],
        chosen=r["chosen"], opening=engine.Rank(r["opening"]) if r["opening"] else None, out=frozenset(json.loads(r["out_seats"] or "[]"))),
        tuple(dealt[r["id"]]), r["created_at"])
        for r in rows]


def _deal(db: sqlite_utils.Database, game_id: int, spin_id: int, seats: tuple[int, ...],
          rng: random.Random) -> None:
    """Deal one rule card to each of ``seats`` out of the game's unit (R17)."""
    if not seats:
        return
    cards = rule_cards(db, game_id)
    unit = _dispenser(cards)
    dealt = unit.dispense(rng, len(seats))
    texts = {str(c.id): c.text for c in cards}
    db.table("spin_cards").insert_all(
        {"spin_id": spin_id, "turn": turn, "seat": seat, "card_id": int(card), "text": texts[card]}
        for turn, (seat, card) in enumerate(zip(seats, dealt)))
    _keep_dispenser(db, unit)


def _dispenser(cards: Iterable[RuleCard]) -> engine.RuleDispenser:
    """The unit as stored, holding card ids: each pile in its order."""
    ordered = sorted(cards, key=lambda c: (c.place, c.id))
    return engine.RuleDispenser([str(c.id) for c in ordered if c.loaded],
                                [str(c.id) for c in ordered if not c.loaded])


def _keep_dispenser(db: sqlite_utils.Database, unit: engine.RuleDispenser) -> None:
    for pile, ids in (("loaded", unit.loaded), ("used", unit.used)):
        for place, card in enumerate(ids):
            db.table("rule_cards").update(int(card), {"pile": pile, "place": place})
