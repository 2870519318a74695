"""Turning submitted forms into engine values, with messages a table can act on.

Each parser returns the values or a dict of errors keyed by the field (or
seat) they belong to, so a page can show every problem where the user is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import engine
from engine import ALL_CARDS, Card, CardError, ScoringMode, Standings

# Names are kept and compared as the referee finds seats: one function for both, given
# on from here to the app's other forms.
from engine.names import clean_name as clean_name  # noqa: PLC0414

from .store import GameRecord, GameSetup, Holding

MAX_NAME = engine.MAX_NAME
MAX_TARGET = 100_000
MAX_POINTS = 10_000
#: The longest card list read for one player (a whole deck, written out, is under 1,500).
MAX_CARDS_TEXT = 2_000


class FormErrors(ValueError):
    """Raised with a field-to-message dict when a form cannot be accepted."""

    def __init__(self, errors: dict[str, str]):
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def _int(text: str | None, *, field: str, errors: dict[str, str], label: str,
         low: int = 0, high: int = MAX_TARGET) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    # ASCII digits only: str.isdigit() also passes "²", which int() then refuses.
    if not re.fullmatch(r"-?[0-9]+", text):
        errors[field] = f"{label} must be a whole number."
        return None
    # int() refuses thousands of digits; anything that long is out of range anyway.
    value = int(text) if len(text) <= 18 else (low - 1 if text.startswith("-") else high + 1)
    if not low <= value <= high:
        errors[field] = f"{label} must be between {low} and {high}."
        return None
    return value


# -- a new game ------------------------------------------------------------

def parse_new_game(form: Mapping[str, Any], names: Sequence[str]) -> GameSetup:
    """Check a new-game form; ``names`` are the submitted seats in order (blanks included)."""
    errors: dict[str, str] = {}
    try:
        variant = engine.find_variant(form.get("variant", ""))
    except ValueError:
        raise FormErrors({"variant": "Choose one of the five variants."}) from None

    try:
        mode = ScoringMode(form.get("mode") or variant.scoring_modes[0].value)
    except ValueError:
        mode = variant.scoring_modes[0]
        errors["mode"] = "Choose a scoring mode from the list."
    if mode not in variant.scoring_modes:
        errors["mode"] = f"{variant.title} is kept as: " + ", ".join(
            m.label for m in variant.scoring_modes)

    players = tuple(clean_name(str(n)) for n in names)
    while players and not players[-1]:
        players = players[:-1]
    problem = players_problem(variant, mode, players)
    if problem:
        errors["players"] = problem

    dealer = _int(form.get("dealer"), field="dealer", errors=errors, label="The dealer",
                  high=max(len(players) - 1, 0))
    if dealer is None:
        dealer = 0

    target: int | None
    raw_target = (form.get("target") or "").strip()
    if raw_target:
        target = _int(raw_target, field="target", errors=errors, label="The target", low=1)
    else:
        target = variant.default_target
    if target is None and mode is not ScoringMode.WIN_TALLY and "target" not in errors:
        errors["target"] = "A scored game needs a target."

    options = variant.default_options()
    if variant.max_table_cards:
        blanks = _int(form.get("blank_cards"), field="blank_cards", errors=errors,
                      label="Blank cards", high=4) or 0
        value = _int(form.get("blank_value"), field="blank_value", errors=errors,
                     label="A blank card's value", high=MAX_POINTS)
        options = options.replace(
            blank_cards=blanks, wild_swap=bool(form.get("wild_swap")),
            blank_value=options.blank_value if value is None else value,
        )
        try:
            variant.check_options(options)
        except ValueError as exc:
            errors["blank_cards"] = str(exc)

    start = _start_totals(form, len(players), errors)
    if start is not None and not errors:
        try:
            engine.new_standings(mode, len(players), target, totals=start)
        except engine.ScoringError as exc:
            errors["start"] = _sentence(exc)

    if errors:
        raise FormErrors(errors)
    return GameSetup(variant=variant, mode=mode, target=target, options=options,
                     players=players, dealer=dealer, start_totals=start)


def players_problem(variant: type[engine.Game], mode: ScoringMode,
                    players: Sequence[str]) -> str | None:
    """What is wrong with these seats' names (cleaned) for the variant and mode, if anything."""
    problem = engine.names_problem(players)  # the one rule for names (engine.names)
    if problem is not None:
        return problem
    if not variant.min_players <= len(players) <= variant.max_players:
        return (f"{variant.title} is for {variant.min_players} to "
                f"{variant.max_players} players; you entered {len(players)}.")
    try:  # the scoring mode's own setup rules (partners: four players)
        engine.new_standings(mode, len(players), 1)
    except engine.ScoringError as exc:
        return _sentence(exc)
    return None


def _start_totals(form: Mapping[str, Any], seats: int,
                  errors: dict[str, str]) -> tuple[int, ...] | None:
    """The scores so far typed per seat (blank is 0); None when none was typed."""
    typed = form.getlist("start") if hasattr(form, "getlist") else []
    values = []
    for i, text in enumerate(typed):
        value = _int(text, field="start", errors=errors,
                     label=f"The starting score of player {i + 1}", high=MAX_TARGET)
        if value and i >= seats:
            errors["start"] = "A starting score was typed for a seat with no player."
        values.append(value or 0)
    if not any(values):
        return None
    return tuple((values + [0] * seats)[:seats])


def _sentence(exc: Exception) -> str:
    """An engine message as a sentence for the page."""
    text = str(exc)
    return f"{text[:1].upper()}{text[1:]}."


# -- a hand ----------------------------------------------------------------


def cards_field(seat: int) -> str:
    """Form field holding the cards the player at ``seat`` held, as text ("red-7 wild")."""
    return f"cards-{seat}"


def points_field(seat: int) -> str:
    """Form field holding a typed total for the player at ``seat``."""
    return f"pts-{seat}"


def parse_seat(raw: object, players: int) -> int | None:
    """A seat from a form or query (0 is the first seat), or None for anything else."""
    text = str(raw).strip() if raw is not None else ""
    if not re.fullmatch(r"[0-9]{1,2}", text):
        return None
    seat = int(text)
    return seat if seat < players else None


def parse_went_out(game: GameRecord, raw: str | None, standings: Standings | None = None) -> int:
    """The seat that went out, checked against the players still in (``standings``: the
    game's as it stands before the hand, when not its current ones)."""
    errors: dict[str, str] = {}
    seat = _int(raw, field="out", errors=errors, label="Who went out", high=len(game.players) - 1)
    if seat is None or seat not in (standings or game.standings).active:
        raise FormErrors({"out": "Choose who went out."})
    return seat


@dataclass
class HandReading:
    """What a hand form says, problems included (the live preview shows both)."""

    went_out: int
    holdings: list[Holding]
    points: dict[int, int]
    errors: dict[str, str]


def read_hand(game: GameRecord, form: Mapping[str, Any],
              standings: Standings | None = None) -> HandReading:
    """Read a hand form: who went out, what each scored opponent held, and any problems
    (``standings``: the game's before the hand, when not its current ones)."""
    standings = standings or game.standings
    went_out = parse_went_out(game, form.get("out"), standings)
    deck = game.variant.deck_counts(game.options)
    errors: dict[str, str] = {}
    reading = HandReading(went_out, [], {}, errors)
    used: dict[Card, int] = {}
    for seat in standings.scored_seats(went_out):
        holding = _read_holding(game, form, seat, deck, errors)
        if holding is not None:
            reading.holdings.append(holding)
            reading.points[seat] = holding.points
            for card in holding.cards:
                used[card] = used.get(card, 0) + 1
    for card, n in used.items():
        if n > deck[card]:
            errors["cards"] = (f"The deck has only {deck[card]} {card.text}; "
                               f"{n} were entered in all.")
    return reading


def _read_cards(text: str, deck: Mapping[Card, int], title: str) -> tuple[list[Card], str | None]:
    """The cards typed or tapped for one player, and what is wrong with them if anything."""
    if len(text) > MAX_CARDS_TEXT:
        return [], "That is more cards than a deck holds."
    cards: list[Card] = []
    for word in text.replace(",", " ").split():
        try:
            card = Card.parse(word)
        except CardError:
            return [], (f"{word!r} is not a card (write them like red-7, r7, b-skip, "
                        "g+2, wild or wd4).")
        if card not in deck:
            return [], f"{card.text} is not in the {title} deck."
        cards.append(card)
    for card in set(cards):
        if cards.count(card) > deck[card]:
            return [], f"The deck has only {deck[card]} {card.text}."
    return cards, None


def _read_holding(game: GameRecord, form: Mapping[str, Any], seat: int,
                  deck: Mapping[Card, int], errors: dict[str, str]) -> Holding | None:
    name = game.players[seat]
    field = f"seat-{seat}"
    cards, problem = _read_cards(str(form.get(cards_field(seat)) or ""), deck,
                                 game.variant.title)
    if problem:
        errors[field] = f"{name}: {problem}"
    typed = _int(form.get(points_field(seat)), field=field, errors=errors,
                 label=f"Points for {name}", high=MAX_POINTS)
    if field in errors:
        return None
    if typed is not None and cards:
        errors[field] = f"For {name}, tap cards or type a total, not both."
        return None
    if typed is not None:
        return Holding(seat, (), typed, True)
    if cards:
        return Holding(seat, tuple(sorted(cards, key=ALL_CARDS.index)),
                       game.variant.hand_points(cards, game.options), False)
    errors[field] = f"Enter {name}'s cards, or type their total (0 is fine)."
    return None


def hand_form_data(went_out: int, holdings: Sequence[Holding]) -> dict[str, str]:
    """The form fields that describe a stored hand (to edit it)."""
    data = {"out": str(went_out)}
    for h in holdings:
        if h.typed:
            data[points_field(h.seat)] = str(h.points)
        if h.cards:
            data[cards_field(h.seat)] = engine.cards_text(h.cards)
    return data
