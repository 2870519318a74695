"""A position: one moment of a hand, whole, as a value (:class:`Position`).

python-chess keeps a board's position as FEN on the board itself: ``Board(fen)`` sets it
up and ``board.fen()`` writes it. Here a game takes a position up with
:meth:`engine.Game.from_position` and gives its own with :meth:`engine.Game.position`;
the position has two written forms, its text (:attr:`Position.text`, one line that a
link can hold) and its JSON (:meth:`Position.to_json`, the ``state`` of a saved game).

A position is either *taken* from a game (every field: the phase, the pending draw, the
special cards' state, the random generator's exact state), so the game it sets up goes
on exactly as the one it was taken from; or *set out* by hand, with only what a table
sees (hands, piles, whose turn): then what is left out is worked out as a table would,
the phase from the fields (a card just drawn, a draw pending, a hand gone out) and the
random generator from :attr:`Position.seed`.

>>> p = Position("classic", ("Ann", "Bea"), (("red-7", "red-2"), ("blue-3",)), ("red-5",),
...              ("yellow-1", "yellow-2"))
>>> p.text
'variant=classic;players=Ann,Bea;hands=red-7.red-2/blue-3;discard=red-5;draw=yellow-1.yellow-2'
>>> Position.parse(p.text) == p, p.phase.value, p.to_act
(True, 'turn', 0)

This module knows no variant (the game imports it): whether a variant can be in a
position is the game's to check, as it sets the position up.
"""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any, Final
from urllib.parse import quote, unquote

from .card_facts import DRAW_OF
from .cards import Card, CardError, Color
from .chance import rng_from_json
from .options import TableOptions
from .phases import SPECIAL_PHASES, Phase, SpecialPhase
from .results import SetupError

_OPTION_DEFAULTS: Final = TableOptions()
#: The state a Mersenne Twister generator holds, as ``random.Random.getstate`` gives it.
RngState = tuple[Any, ...]


@dataclass(frozen=True)
class Position:
    """One moment of a hand: the seats, the piles, whose decision and which, the special
    cards' state and the random generator. Cards may be given as their text.

    Fields left out of a set-out position are worked out here: the color in play is the
    top card's; the dealer sits before ``to_act``; the phase follows from ``drawn`` (a
    card ``to_act`` just drew, R12), ``pending_draw`` (a draw ``to_act`` must take or
    challenge, played by ``pending_from``, by default the previous player) or a hand left
    empty (that player has gone out, R5); ``winner`` is that player. ``previous_color``
    (the color in play before a draw wild) lets the game work out whether it was a bluff
    (R10) where ``guilty`` is not given; ``rule_cards_left`` is how many written rule
    cards the Wild Jackpot unit still holds (R17; by default all).
    """

    variant: str
    #: Names by seat; empty: "Player 1", "Player 2"...
    players: tuple[str, ...]
    #: Each seat's cards.
    hands: tuple[tuple[Card, ...], ...]
    #: Bottom first: the last card is the top card.
    discard: tuple[Card, ...]
    #: Top first.
    draw: tuple[Card, ...] = ()
    #: The color in play: the top card's unless a wild named it (None: the top card's).
    color: Color | None = None
    #: 1 clockwise, -1 counter-clockwise.
    direction: int = 1
    #: The seat whose decision the game waits for; None once the hand is over.
    to_act: int | None = 0
    dealer: int | None = None
    #: The card ``to_act`` just drew and may play (phase ``drawn``).
    drawn: Card | None = None
    #: The cards ``to_act`` must draw (phase ``pending``).
    pending_draw: int = 0
    #: Who played the pending draw card.
    pending_from: int | None = None
    #: The color in play before a pending draw wild (for a set-out position's challenge).
    previous_color: Color | None = None
    #: Seats that have not called UNO and may still be caught, in the order they came to
    #: owe it (R6; a seat counts while it holds one card).
    uno_owed: tuple[int, ...] = ()
    options: TableOptions = _OPTION_DEFAULTS
    #: Seeds the random generator where :attr:`rng` is not given.
    seed: int = 0
    #: What the game waits for (None: worked out from the fields, see above).
    phase: Phase | None = None
    #: The seat that has gone out (a pending draw may still follow, R5).
    winner: int | None = None
    #: Whether the pending draw wild was a bluff (None: worked out by the game, R10).
    guilty: bool | None = None
    #: Rule cards left in the Wild Jackpot unit, of those written (None: all, R17).
    rule_cards_left: int | None = None
    #: The special cards' state as their phases save it (engine.phases): each key with
    #: its value as JSON text, by key; only what differs from a fresh game's.
    specials: tuple[tuple[str, str], ...] = ()
    #: The random generator's exact state (None: a generator seeded with :attr:`seed`).
    rng: RngState | None = None

    def __post_init__(self) -> None:
        # Canonical values, so that equal positions are equal and have equal texts.
        put = object.__setattr__
        hands = tuple(_cards(h) for h in self.hands)
        put(self, "hands", hands)
        discard = _cards(self.discard)
        put(self, "discard", discard)
        put(self, "draw", _cards(self.draw))
        n = len(hands)
        put(self, "players", tuple(self.players) if self.players
            else tuple(f"Player {i + 1}" for i in range(n)))
        color = _color(self.color)
        put(self, "color", color if color is not None or not discard else discard[-1].color)
        if self.drawn is not None:
            put(self, "drawn", _card(self.drawn))
        put(self, "previous_color", _color(self.previous_color))
        put(self, "uno_owed", tuple(self.uno_owed))
        if self.dealer is None and n:
            put(self, "dealer", ((self.to_act or 0) - self.direction) % n)
        phase = self.phase
        empty = [s for s in range(n) if not hands[s]]
        if phase is None:  # set out: the phase follows from the fields
            phase = (Phase.PENDING if self.pending_draw else Phase.OVER if empty
                     else Phase.DRAWN if self.drawn is not None else Phase.TURN)
        put(self, "phase", phase)
        if phase is Phase.PENDING and self.pending_from is None and self.to_act is not None and n:
            put(self, "pending_from", (self.to_act - self.direction) % n)
        if self.winner is None and phase in (Phase.OVER, Phase.PENDING) and len(empty) == 1:
            put(self, "winner", empty[0])  # R5: the hand left empty went out
        if phase is Phase.OVER:
            put(self, "to_act", None)
        if self.specials:
            put(self, "specials", tuple(sorted(self.specials)))
        if self.rng is not None:
            version, internal, gauss = self.rng
            put(self, "rng", (version, tuple(internal), gauss))

    @property
    def final(self) -> bool:
        """Whether the pending draw card was its player's last: the hand ends once it is
        taken (R5)."""
        return self.phase is Phase.PENDING and self.winner is not None

    def reseeded(self, seed: int) -> Position:
        """This position with a generator seeded by ``seed`` instead of its own state: the
        same moment, its chance started afresh (a shorter text, for a link)."""
        return replace(self, seed=seed, rng=None)

    # -- checking ------------------------------------------------------------------------

    def check(self) -> None:
        """Raise :class:`SetupError` if no hand can be at this moment, whatever the variant
        (whether this variant can be is the game's to check, see ``Game.from_position``)."""
        n, hands, discard, phase = len(self.hands), self.hands, self.discard, self.phase
        assert phase is not None  # worked out on construction
        if len(self.players) != n:
            raise SetupError("give one name per hand")
        if not discard:
            raise SetupError("the discard pile needs at least its top card")
        if self.direction not in (1, -1):
            raise SetupError("direction is 1 (clockwise) or -1 (counter-clockwise)")
        if phase is not Phase.OVER and (self.to_act is None or not 0 <= self.to_act < n):
            raise SetupError(f"to_act must be a seat from 0 to {n - 1}")
        if self.dealer is None or not 0 <= self.dealer < n:
            raise SetupError(f"the dealer must be a seat from 0 to {n - 1}")
        for s in (*self.uno_owed, *((self.winner,) if self.winner is not None else ())):
            if not 0 <= s < n:
                raise SetupError(f"seat {s} is not at this table")
        if any(len(hands[s]) > 1 for s in self.uno_owed):
            raise SetupError("only a player holding one card can owe an UNO call")
        top = discard[-1]
        if self.color is None and phase not in (Phase.NAME_COLOR, Phase.CHOOSE):
            raise SetupError("the top card is a wild: give the current color")
        empty = [s for s in range(n) if not hands[s]]
        if phase is Phase.PENDING:
            self._check_pending(top, empty)
        elif self.pending_draw:
            raise SetupError("a draw is pending only while its player decides (phase "
                             "'pending')")
        if phase is Phase.OVER:
            if len(empty) > 1 or self.drawn is not None:
                raise SetupError("only one player can have gone out")
            if self.winner is None or self.hands[self.winner]:
                raise SetupError("the hand is over only once a player has gone out (R5)")
        elif phase is Phase.DRAWN:
            assert self.to_act is not None
            if self.drawn is None or self.drawn not in hands[self.to_act]:
                raise SetupError("the drawn card must be in the hand of the player to act")
        elif phase is not Phase.PENDING and self.winner is not None:
            raise SetupError("a player has gone out only once the hand is over or its last "
                             "draw is pending (R5)")

    def _check_pending(self, top: Card, empty: list[int]) -> None:
        if top not in DRAW_OF:
            raise SetupError("a pending draw needs a draw card on top of the discard pile")
        if self.pending_draw <= 0:
            raise SetupError("a pending draw is of one card or more")
        if self.drawn is not None:
            raise SetupError("a player facing a draw has not drawn a card yet")
        source = self.pending_from
        if source is None or not 0 <= source < len(self.hands) or source == self.to_act:
            raise SetupError("pending_from must be another seat")
        if empty and empty != [source] or self.winner not in (None, source):
            raise SetupError("only the player who played the draw card can have gone out")

    # -- the text form ---------------------------------------------------------------------

    @cached_property
    def text(self) -> str:
        """The compact text form: ``key=value`` fields joined by ``;``, what can be worked
        out left out (``Position.parse(p.text) == p``). Worked out once: a replay's page
        links its position a dozen times."""
        parts = [f"variant={self.variant}",
                 "players=" + ",".join(quote(p, safe="") for p in self.players),
                 "hands=" + "/".join(".".join(c.text for c in h) for h in self.hands),
                 "discard=" + ".".join(c.text for c in self.discard)]
        if self.draw:
            parts.append("draw=" + ".".join(c.text for c in self.draw))
        implied = self._implied()
        for name in ("color", "direction", "to_act", "dealer", "drawn", "pending_draw",
                     "pending_from", "previous_color"):
            value = getattr(self, name)
            if name not in implied:
                parts.append(f"{name}={_field_text(value)}")
        if self.uno_owed:
            parts.append("uno_owed=" + ".".join(str(s) for s in self.uno_owed))
        opts = _options_text(self.options)
        if opts:
            parts.append(f"options={opts}")
        if self.seed:
            parts.append(f"seed={self.seed}")
        for name in ("phase", "winner", "guilty", "rule_cards_left"):
            if name not in implied:
                parts.append(f"{name}={_field_text(getattr(self, name))}")
        parts.extend(f"{key}={quote(value, safe=_JSON_SAFE)}" for key, value in self.specials)
        if self.rng is not None:
            parts.append(f"rng={_rng_text(self.rng)}")
        return ";".join(parts)

    def _implied(self) -> set[str]:
        """The fields the text leaves out: each the value a position without it works out."""
        implied = {name for name in _DEFAULT_WHEN if getattr(self, name) == _DEFAULT_WHEN[name]}
        blanks: dict[str, Any] = {"color": None, "dealer": None, "to_act": 0, "phase": None,
                                  "pending_from": None, "winner": None}
        for name, blank in blanks.items():
            if name not in implied and getattr(replace(self, **{name: blank}), name) == getattr(
                    self, name):
                implied.add(name)
        return implied

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read :attr:`text` (links written before phases were added read the same);
        :class:`SetupError` or :class:`engine.CardError` for anything else."""
        f = _text_fields(text)
        unknown = set(f) - _TEXT_KEYS - _SPECIAL_KEYS
        if unknown:
            raise SetupError(f"unknown fields: {', '.join(sorted(unknown))}")
        for key in ("variant", "players", "hands", "discard"):
            if key not in f:
                raise SetupError(f"a position needs its {key}")

        def number(name: str) -> int | None:
            value = f.get(name)
            if value is None or value == "none":
                return None
            try:
                return int(value)
            except ValueError:
                raise SetupError(f"{name} must be a number") from None

        def cards(value: str) -> tuple[Card, ...]:
            return tuple(Card.parse(x) for x in value.split(".") if x)

        phase, drawn = f.get("phase"), f.get("drawn")
        try:
            return Position(
                variant=f["variant"], players=tuple(unquote(p) for p in f["players"].split(",")),
                hands=tuple(cards(h) for h in f["hands"].split("/")),
                discard=cards(f["discard"]), draw=cards(f.get("draw", "")),
                color=_color(f.get("color")), direction=number("direction") or 1,
                to_act=number("to_act") or 0, dealer=number("dealer"),
                drawn=Card.parse(drawn) if drawn is not None else None,
                pending_draw=number("pending_draw") or 0, pending_from=number("pending_from"),
                previous_color=_color(f.get("previous_color")),
                uno_owed=tuple(int(x) for x in f.get("uno_owed", "").split(".") if x.isdigit()),
                options=_options_parse(f.get("options", "")), seed=number("seed") or 0,
                phase=Phase(phase) if phase is not None else None, winner=number("winner"),
                guilty=bool(number("guilty")) if "guilty" in f else None,
                rule_cards_left=number("rule_cards_left"),
                specials=tuple((k, _json_text(unquote(v))) for k, v in f.items()
                               if k in _SPECIAL_KEYS),
                rng=_rng_parse(f["rng"]) if "rng" in f else None)
        except CardError:
            raise
        except (ValueError, TypeError) as exc:  # a phase or JSON that is not one
            if isinstance(exc, SetupError):
                raise
            raise SetupError(str(exc)) from None

    # -- the JSON form: a saved game's state ---------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The position as plain JSON values: the ``state`` of a saved game (every key of a
        taken position; a set-out one adds what it was set out with)."""
        state: dict[str, Any] = {
            "players": list(self.players),
            "options": self.options.to_dict(),
            "dealer": self.dealer,
            "hands": [[c.text for c in h] for h in self.hands],
            "draw_pile": [c.text for c in self.draw],
            "discard_pile": [c.text for c in self.discard],
            "color": self.color.value if self.color is not None else None,
            "direction": self.direction,
            "to_act": self.to_act,
            "phase": self.phase.value if self.phase is not None else None,
            "winner": self.winner,
            "drawn": self.drawn.text if self.drawn is not None else None,
            "pending": self.pending_draw,
            "pending_from": self.pending_from if self.phase is Phase.PENDING else None,
            "guilty": bool(self.guilty),
            "final": self.final,
            "uno_owed": list(self.uno_owed),
        }
        # Every special phase's state, a fresh game's where this position has none: the
        # saved format is the same for every variant.
        state.update(_fresh_specials(len(self.hands)))
        state.update((key, json.loads(value)) for key, value in self.specials)
        state["rng"] = _rng_json(self.rng) if self.rng is not None else None
        if self.rng is None:
            state["seed"] = self.seed
        if self.guilty is None and self.phase is Phase.PENDING:
            state["guilty"] = None
        if self.previous_color is not None:
            state["previous_color"] = self.previous_color.value
        if self.rule_cards_left is not None:
            state["rule_cards_left"] = self.rule_cards_left
        return state

    @classmethod
    def from_json(cls, state: dict[str, Any], variant: str) -> Position:
        """The position saved by :meth:`to_json` (and by every earlier version of the
        engine) for a game of ``variant``."""
        try:
            defaults = _fresh_specials(len(state["hands"]))
            phase = state.get("phase")
            return Position(
                variant, tuple(state["players"]), tuple(tuple(h) for h in state["hands"]),
                tuple(state["discard_pile"]), tuple(state["draw_pile"]),
                state["color"], state["direction"], state["to_act"], state["dealer"],
                state.get("drawn") if phase == Phase.DRAWN.value else None,
                state.get("pending", 0) if phase == Phase.PENDING.value else 0,
                state.get("pending_from") if phase == Phase.PENDING.value else None,
                state.get("previous_color"), owing(state["hands"], state.get("uno_owed", ())),
                TableOptions.from_dict(state.get("options")), state.get("seed", 0),
                Phase(phase) if phase is not None else None, state.get("winner"),
                state.get("guilty") if phase in (Phase.PENDING.value, None) else None,
                state.get("rule_cards_left"),
                tuple((key, _json_text(state[key])) for key in defaults
                      if key in state and state[key] != defaults[key]),
                rng_from_json(state["rng"]) if state.get("rng") is not None else None)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            if isinstance(exc, SetupError):
                raise
            raise SetupError(f"not a saved position: {exc}") from None

    def special_state(self, special_type: type[SpecialPhase],
                      players: int) -> dict[str, Any] | None:
        """The saved state ``special_type`` reads (``SpecialPhase.read_json``) at this
        position; None where the position holds none of it (a fresh game's)."""
        if not self.specials:  # (most positions: the referee's, every turn of most games)
            return None
        keys: dict[str, Any] = {}
        special_type.write_default(keys, 0)
        given = {key: value for key, value in self.specials if key in keys}
        if not given:
            return None
        state = _fresh_specials(players)
        state.update((key, json.loads(value)) for key, value in given.items())
        return state


def owing(hands: Sequence[Sized], owed: Iterable[int]) -> tuple[int, ...]:
    """The seats of ``owed`` (a game's, in order) that can still be caught not calling UNO
    (R6): those at one card, or none while it is laid for a droid. A seat that has drawn
    since can never be caught on that call: the next turn forgets it before it could."""
    return tuple(s for s in owed if len(hands[s]) <= 1)


def specials_of(written: dict[str, Any], players: int) -> tuple[tuple[str, str], ...]:
    """What special phases wrote of their state (``written``), each key as JSON text,
    keeping only what differs from a fresh game's (see :attr:`Position.specials`)."""
    fresh = _fresh_specials(players)
    return tuple((key, _json_text(value)) for key, value in written.items()
                 if value != fresh.get(key))


def _rng_json(rng: RngState) -> list[Any]:
    """A generator's state as JSON (the saved games' form)."""
    version, internal, gauss = rng
    return [version, list(internal), gauss]


def _text_fields(text: str) -> dict[str, str]:
    """The ``key=value`` fields of a position's text."""
    if not isinstance(text, str):
        raise SetupError(f"a position is text, not {text!r}")
    out: dict[str, str] = {}
    for part in text.strip().split(";"):
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep or key in out:
            raise SetupError(f"{part!r} is not a key=value field (or repeats one)")
        out[key.strip()] = value.strip()
    return out


#: Fields the text leaves out at these values.
_DEFAULT_WHEN: dict[str, Any] = {"direction": 1, "drawn": None, "pending_draw": 0,
                                 "previous_color": None, "guilty": None,
                                 "rule_cards_left": None}
_TEXT_KEYS = {f.name for f in fields(Position)} - {"specials"}
#: JSON's punctuation stays as it is in the text; ";", "=", spaces and "%" are quoted.
_JSON_SAFE = '{}[]":,-_.|'


def _fresh_specials(players: int) -> dict[str, Any]:
    # A fresh game's special phases' state: what each writes without a game of its own.
    state: dict[str, Any] = {}
    for special_type in SPECIAL_PHASES:
        special_type.write_default(state, players)
    return state


#: The keys the special phases save their state under.
_SPECIAL_KEYS: frozenset[str] = frozenset(_fresh_specials(0))


def _card(c: Card | str) -> Card:
    return c if type(c) is Card else Card.parse(c)


def _cards(cards: tuple[Card, ...] | tuple[str, ...]) -> tuple[Card, ...]:
    for c in cards:
        if type(c) is not Card:
            return tuple(_card(x) for x in cards)
    return tuple(cards)  # type: ignore[arg-type]


def _color(color: Color | str | None) -> Color | None:
    if color is None or isinstance(color, Color):
        return color
    try:
        return Color(color.strip().lower())
    except (ValueError, AttributeError):
        raise SetupError(f"{color!r} is not a color (red, yellow, green, blue)") from None


def _field_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, (Card,)):
        return value.text
    if isinstance(value, (Color, Phase)):
        return str(value.value)
    return str(value)


def _json_text(value: Any) -> str:
    if isinstance(value, str):  # already JSON text: read it, so it is written canonically
        value = json.loads(value)
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def _rng_text(rng: RngState) -> str:
    # The generator's 624 words as base64 (3,328 characters), then its index and version.
    version, internal, gauss = rng
    words = base64.urlsafe_b64encode(_WORDS.pack(*internal[:-1])).decode()
    text = f"{version}:{internal[-1]}:{words}"
    return text if gauss is None else f"{text}:{gauss!r}"


def _rng_parse(text: str) -> RngState:
    try:
        version, index, words, *gauss = text.split(":")
        if len(gauss) > 1:
            raise ValueError
        internal = (*_WORDS.unpack(base64.urlsafe_b64decode(words)), int(index))
        return (int(version), internal, float(gauss[0]) if gauss else None)
    except (ValueError, struct.error):
        raise SetupError("rng is not a random generator's state") from None


#: A Mersenne Twister's 624 words of 32 bits.
_WORDS = struct.Struct(">624I")


def _options_text(options: TableOptions) -> str:
    parts = []
    for f in fields(TableOptions):
        value = getattr(options, f.name)
        if value == getattr(_OPTION_DEFAULTS, f.name):
            continue
        if f.name == "rule_cards":
            parts.append("rule_cards:" + "|".join(quote(r, safe="") for r in value))
        elif value is True:
            parts.append(f.name)
        else:
            parts.append(f"{f.name}:{str(value).lower()}")
    return ",".join(parts)


def _options_parse(text: str) -> TableOptions:
    data: dict[str, Any] = {}
    for part in (p for p in text.split(",") if p):
        name, _, value = part.partition(":")
        if name == "rule_cards":
            data[name] = [unquote(r) for r in value.split("|")]
        elif not value or value == "true":
            data[name] = True
        elif value == "false":
            data[name] = False
        elif value == "none":
            data[name] = None
        elif value.lstrip("-").isdigit():
            data[name] = int(value)
        else:
            raise SetupError(f"option {name}: {value!r} is not a value")
    try:
        return TableOptions.from_dict(data)
    except (ValueError, TypeError) as exc:
        raise SetupError(str(exc)) from None

