"""Replaying a position: :class:`Position` holds a whole state as one line of text and
:class:`Replay` the actions played from it, so a link can hold both."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any
from urllib.parse import quote, unquote

from .. import (
    Action,
    ActionKind,
    Card,
    CardError,
    Direction,
    Event,
    Game,
    IllegalActionError,
    Phase,
    SetupError,
    TableOptions,
    card_name,
    find_variant,
    new_standings,
    score_hand,
)
from .verdict import (
    IllegalMoveError,
    ImpossibleSituationError,
    UnknownCardError,
    UnknownVariantError,
    event_dict,
)

# -- replaying a position: one link holds the whole state ----------------------------------

_OPTION_DEFAULTS = TableOptions()


@dataclass(frozen=True)
class Position:
    """A full position as :meth:`Game.from_position` takes it, with a compact text form that
    round-trips (``Position.parse(p.text) == p``), so a link can hold it.

    >>> p = Position("classic", ("Ann", "Bea"), (("red-7", "red-2"), ("blue-3",)), ("red-5",),
    ...              ("yellow-1", "yellow-2"))
    >>> p.text
    'variant=classic;players=Ann,Bea;hands=red-7.red-2/blue-3;discard=red-5;draw=yellow-1.yellow-2'
    >>> Position.parse(p.text) == p
    True
    >>> p.game().to_act
    0
    """

    variant: str
    players: tuple[str, ...]
    #: Each seat's cards, as card text.
    hands: tuple[tuple[str, ...], ...]
    #: Bottom first: the last card is the top card.
    discard: tuple[str, ...]
    #: Top first.
    draw: tuple[str, ...] = ()
    color: str | None = None
    direction: int = 1
    to_act: int = 0
    dealer: int | None = None
    drawn: str | None = None
    pending_draw: int = 0
    pending_from: int | None = None
    previous_color: str | None = None
    uno_owed: tuple[int, ...] = ()
    options: TableOptions = _OPTION_DEFAULTS
    seed: int = 0

    def __post_init__(self) -> None:
        # Cards in their canonical text, so equal positions have equal texts.
        def canon(cards: Iterable[str]) -> tuple[str, ...]:
            try:
                return tuple(Card.parse(c).text for c in cards)
            except CardError as exc:
                raise UnknownCardError(str(exc)) from None

        object.__setattr__(self, "hands", tuple(canon(h) for h in self.hands))
        object.__setattr__(self, "discard", canon(self.discard))
        object.__setattr__(self, "draw", canon(self.draw))
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "uno_owed", tuple(self.uno_owed))
        if self.drawn is not None:
            object.__setattr__(self, "drawn", canon([self.drawn])[0])

    @cached_property
    def text(self) -> str:
        """The compact text form: ``key=value`` fields joined by ``;``, defaults left out.
        (Worked out once: a replay's page links its position a dozen times.)"""
        parts = [f"variant={self.variant}",
                 "players=" + ",".join(quote(p, safe="") for p in self.players),
                 "hands=" + "/".join(".".join(h) for h in self.hands),
                 "discard=" + ".".join(self.discard)]
        if self.draw:
            parts.append("draw=" + ".".join(self.draw))
        for name in ("color", "direction", "to_act", "dealer", "drawn", "pending_draw",
                     "pending_from", "previous_color"):
            value = getattr(self, name)
            if value != getattr(_POSITION_DEFAULTS, name):
                parts.append(f"{name}={value}")
        if self.uno_owed:
            parts.append("uno_owed=" + ".".join(str(s) for s in self.uno_owed))
        opts = _options_text(self.options)
        if opts:
            parts.append(f"options={opts}")
        if self.seed:
            parts.append(f"seed={self.seed}")
        return ";".join(parts)

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read :attr:`text`; raises :class:`RefereeError` for anything else."""
        fields_ = _fields(text)
        fields_.pop("actions", None)
        return _position(fields_)

    @classmethod
    def from_game(cls, game: Game, seed: int = 0) -> Position:
        """The position ``game`` is in (a turn, a drawn card or the end of the hand).

        A pending draw cannot be taken: who played it and the color before it are not
        part of the engine's public state.
        """
        if game.phase not in (Phase.TURN, Phase.DRAWN, Phase.OVER):
            raise ImpossibleSituationError(
                f"a position can be taken at a turn, not while the game waits for "
                f"'{game.phase.value}'")
        drawn = game.drawn_card
        color = game.current_color
        top = game.top_card
        return cls(game.name, game.players, tuple(tuple(c.text for c in h) for h in game.hands),
                   tuple(c.text for c in game.discard_pile),
                   tuple(c.text for c in game.draw_pile),
                   color.value if color is not None and top.color is None else None,
                   game.direction, game.to_act if game.to_act is not None else 0, game.dealer,
                   drawn.text if drawn is not None else None,
                   uno_owed=game.uno_owed, options=game.options, seed=seed)

    def filled(self) -> Position:
        """The position with the cards of the deck nobody named (in no hand nor pile)
        shuffled by the position's seed under the draw pile: a position set out with only
        the cards that matter, made whole.

        >>> p = Position("classic", ("Ann", "Bea"), (("red-7",), ("blue-3",)), ("red-5",))
        >>> len(p.filled().draw), p.filled().draw == p.filled().draw  # 109 cards less 3
        (106, True)
        """
        deck = _variant_of(self.variant).deck_counts(self.options)
        left = Counter(deck)
        left.subtract(Card.parse(c) for c in (*(c for h in self.hands for c in h),
                                              *self.discard, *self.draw))
        order = {c: i for i, c in enumerate(deck)}
        rest = [c.text for c in sorted((+left).elements(), key=order.__getitem__)]
        random.Random(self.seed).shuffle(rest)
        return replace(self, draw=(*self.draw, *rest))

    def game(self) -> Game:
        """The position, set up by the engine (:meth:`Game.from_position`)."""
        cls = _variant_of(self.variant)
        try:
            return cls.from_position(
                [list(h) for h in self.hands], list(self.discard), list(self.draw),
                players=self.players, current_color=self.color, direction=self.direction,
                to_act=self.to_act, dealer=self.dealer, drawn=self.drawn,
                pending_draw=self.pending_draw, pending_from=self.pending_from,
                previous_color=self.previous_color, uno_owed=self.uno_owed,
                options=self.options, seed=self.seed)
        except CardError as exc:
            raise UnknownCardError(str(exc)) from None
        except SetupError as exc:
            raise ImpossibleSituationError(str(exc)) from None


def _variant_of(name: str) -> type[Game]:
    try:
        return find_variant(name)
    except ValueError as exc:
        raise UnknownVariantError(str(exc)) from None


_POSITION_DEFAULTS = Position("classic", (), (), ())
_POSITION_KEYS = {"variant", "players", "hands", "discard", "draw", "color", "direction",
                  "to_act", "dealer", "drawn", "pending_draw", "pending_from", "previous_color",
                  "uno_owed", "options", "seed"}


def _position(f: dict[str, str]) -> Position:
    """The position written in the fields of :attr:`Position.text`."""
    def cards(value: str) -> tuple[str, ...]:
        return tuple(x for x in value.split(".") if x)

    def number(name: str) -> int | None:
        if name not in f:
            return None
        try:
            return int(f[name])
        except ValueError:
            raise ImpossibleSituationError(f"{name} must be a number") from None

    unknown = set(f) - _POSITION_KEYS
    if unknown:
        raise ImpossibleSituationError(f"unknown fields: {', '.join(sorted(unknown))}")
    for key in ("variant", "players", "hands", "discard"):
        if key not in f:
            raise ImpossibleSituationError(f"a position needs its {key}")
    owed = tuple(int(x) for x in f.get("uno_owed", "").split(".") if x.isdigit())
    return Position(
        variant=f["variant"], players=tuple(unquote(p) for p in f["players"].split(",")),
        hands=tuple(cards(h) for h in f["hands"].split("/")), discard=cards(f["discard"]),
        draw=cards(f.get("draw", "")), color=f.get("color"),
        direction=number("direction") or 1, to_act=number("to_act") or 0,
        dealer=number("dealer"), drawn=f.get("drawn"),
        pending_draw=number("pending_draw") or 0, pending_from=number("pending_from"),
        previous_color=f.get("previous_color"), uno_owed=owed,
        options=_options_parse(f.get("options", "")), seed=number("seed") or 0)


def _fields(text: str) -> dict[str, str]:
    if not isinstance(text, str):
        raise ImpossibleSituationError(f"a position is text, not {text!r}")
    out: dict[str, str] = {}
    for part in text.strip().split(";"):
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep or key in out:
            raise ImpossibleSituationError(f"{part!r} is not a key=value field (or repeats one)")
        out[key.strip()] = value.strip()
    return out


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
            raise ImpossibleSituationError(f"option {name}: {value!r} is not a value")
    try:
        return TableOptions.from_dict(data)
    except (ValueError, TypeError) as exc:
        raise ImpossibleSituationError(str(exc)) from None


@dataclass(frozen=True)
class Choice:
    """A legal action and what it means at the table."""

    action: str
    label: str


@dataclass(frozen=True)
class Step:
    """An action replayed, its label, and the engine's events."""

    action: str
    label: str
    events: tuple[Event, ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain values, for JSON: each event with its sentence and its parts
        (:func:`~engine.referee.verdict.event_dict`)."""
        return {"action": self.action, "label": self.label,
                "events": [event_dict(e) for e in self.events]}


@dataclass(frozen=True)
class HandEnd:
    """How a replayed hand ended: who went out, the points each other seat holds (None in a
    variant without points, R32), and the hand's score in the variant's own scoring mode
    (its first: R15a's standard count, or one win where there are no points)."""

    winner: str
    points: dict[str, int] | None
    scores: dict[str, int]

    @classmethod
    def of(cls, game: Game) -> HandEnd | None:
        """The end of ``game``'s hand, as the engine scores it; None while it goes on."""
        if not game.is_over:
            return None
        result = game.hand_result()
        names = game.players
        standings = new_standings(type(game).scoring_modes[0], len(names),
                                  type(game).default_target or 1)
        score = score_hand(standings, result.outcome).hands[-1]
        return cls(names[result.went_out],
                   None if result.points is None
                   else {names[s]: pts for s, pts in result.points.items()},
                   {names[s]: pts for s, pts in score.points.items()})


@dataclass(frozen=True)
class Replay:
    """A position and the actions played from it; its text is the whole state, for a link.

    Every step is the engine's: :meth:`game` sets the position up and applies the actions
    (as :meth:`Game.replay` does from the position's setup); :meth:`undo` replays one fewer.

    >>> r = Replay.parse("variant=classic;players=Ann,Bea;hands=red-7.red-2/blue-3.green-5;"
    ...                  "discard=red-5;draw=yellow-1.yellow-2")
    >>> [c.label for c in r.choices()][:3]
    ['Ann plays red 7', 'Ann plays red 2', 'Ann draws a card']
    >>> r = r.play("play red-7")
    >>> r.text.endswith(";actions=play_red-7")
    True
    >>> [e.text for e in r.steps()[-1].events]
    ['Ann plays red 7 (R3; classic sheet, Gameplay)']
    >>> r.undo() == Replay.parse(r.undo().text)
    True
    """

    position: Position
    actions: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The position's text, then ``;actions=`` with the actions (spaces as ``_``)."""
        if not self.actions:
            return self.position.text
        return self.position.text + ";actions=" + ",".join(a.replace(" ", "_")
                                                          for a in self.actions)

    @classmethod
    def parse(cls, text: str) -> Replay:
        """Read :attr:`text`, replaying it: a position or action that cannot be is refused."""
        f = _fields(text)
        actions = tuple(a.replace("_", " ") for a in f.pop("actions", "").split(",") if a)
        replay = cls(_position(f), actions)
        steps = replay.steps()  # the engine checks every action; kept in canonical text
        return replace(replay, actions=tuple(step.action for step in steps))

    def game(self) -> Game:
        """The game after every action: the position set up by the engine, then each action
        applied (the game :meth:`Game.replay` gives from the position's setup, without
        the two copies of the setup it makes)."""
        game = self.position.game()
        for text in self.actions:
            with _refused():
                game.apply(text)
        return game

    def steps(self) -> tuple[Step, ...]:
        """Each action with its label and the events it gave."""
        game = self.position.game()
        out = []
        for text in self.actions:
            with _refused():
                action = Action.parse(text)
                out.append(Step(action.text, _label(game, action), tuple(game.apply(action))))
        return tuple(out)

    def choices(self) -> tuple[Choice, ...]:
        """The legal actions now, each with a label for a button."""
        return _choices(self.game())

    def to_dict(self) -> dict[str, Any]:
        """The replay as plain values, for JSON: the whole state as text (``replay``), where
        the game stands, each step with its events, the legal actions (``choices``), and
        once the hand is over its ``winner``, ``points`` and ``scores`` (:class:`HandEnd`;
        ``None`` until then). Seats are named; every key is always there.

        >>> r = Replay.parse("variant=classic;players=Ann,Bea;hands=red-7/blue-3.green-5;"
        ...                  "discard=red-5;draw=yellow-1")
        >>> r.to_dict()["winner"] is None
        True
        >>> d = r.play("play red-7").to_dict()
        >>> d["phase"], d["winner"], d["points"], d["scores"]
        ('over', 'Ann', {'Bea': 8}, {'Ann': 8})
        >>> d["steps"][0]["events"][0]["kind"], d["steps"][0]["events"][0]["seat"]
        ('play', 'Ann')
        """
        game = self.game()
        names = game.players
        color = game.current_color
        end = HandEnd.of(game)
        return {
            "replay": self.text, "players": list(names), "phase": game.phase.value,
            "to_act": names[game.to_act] if game.to_act is not None else None,
            "top": game.top_card.text, "color": color.value if color is not None else None,
            "direction": Direction(game.direction).words,
            "hands": {name: [c.text for c in hand]
                      for name, hand in zip(names, game.hands, strict=True)},
            "draw_pile": len(game.draw_pile),
            "steps": [step.to_dict() for step in self.steps()],
            "choices": [{"action": c.action, "label": c.label} for c in _choices(game)],
            "winner": end.winner if end else None,
            "points": end.points if end else None,
            "scores": end.scores if end else None,
        }

    def play(self, action: Action | str) -> Replay:
        """This replay with one more action; an illegal one raises :class:`IllegalMoveError`."""
        game = self.game()
        try:
            a = Action.parse(action) if isinstance(action, str) else action
            reason = game.why_illegal(a)
        except (ValueError, TypeError) as exc:
            raise IllegalMoveError(str(exc)) from None
        if reason is not None:
            raise IllegalMoveError(reason)
        return replace(self, actions=(*self.actions, a.text))

    def undo(self) -> Replay:
        """This replay without its last action."""
        if not self.actions:
            raise IllegalMoveError("nothing to undo: this is the position itself")
        return replace(self, actions=self.actions[:-1])


def _choices(game: Game) -> tuple[Choice, ...]:
    return tuple(Choice(a.text, _label(game, a)) for a in game.legal_actions())


@contextmanager
def _refused() -> Iterator[None]:
    """An action the engine refuses, as an :class:`IllegalMoveError` naming the rule."""
    try:
        yield
    except (IllegalActionError, ValueError) as exc:
        raise IllegalMoveError(str(exc), getattr(exc, "rule", "")) from None


#: How a button says an action of each kind: {who} takes it, {whom} it names, the {card}
#: it moves; a play, a pass, a color and the lever are said in :func:`_label` itself.
_SAID = {
    ActionKind.DRAW: "{who} draws a card",
    ActionKind.ACCEPT: "{who} takes the {pending} cards",
    ActionKind.CHALLENGE: "{who} challenges the {top}",
    ActionKind.UNO: "{who} calls UNO",
    ActionKind.CATCH: "{who} catches {whom} not calling UNO",
    ActionKind.GIVE: "{who} gives away {card}",
    ActionKind.CHOOSE: "{who} chooses {whom}",
    ActionKind.DISCARD: "{who} discards {card}",
    ActionKind.DONE: "{who} stops discarding",
    ActionKind.LAY: "{who} lays {card} for the droid",
}


def _label(game: Game, a: Action) -> str:
    """An action as a button says it: "Ann plays Wild and names blue"."""
    names = game.players
    actor = a.seat if a.seat is not None else game.to_act

    def name(seat: int | None) -> str:
        # An action read from a link may name a seat the table does not have: it is labelled
        # before the engine refuses it, so it must not fail here.
        return names[seat] if seat is not None and 0 <= seat < len(names) else ""

    who, whom = name(actor), name(a.target)
    k = a.kind
    if k is ActionKind.PLAY or k is ActionKind.JUMP:
        assert a.card is not None
        text = f"{who} {'jumps in with' if k is ActionKind.JUMP else 'plays'} {card_name(a.card)}"
        if a.color is not None:
            text += f" and names {a.color.value}"
        if a.target is not None:
            text += f", swapping hands with {whom}"
        if a.uno:
            text += " and calls UNO"
        return text
    if k is ActionKind.PASS:
        return f"{who} keeps the card" if game.phase is Phase.DRAWN else f"{who} passes"
    if k is ActionKind.COLOR:
        text = f"{who} names {a.color.value if a.color else ''}"
        return text + (f" and swaps hands with {whom}" if a.target is not None else "")
    if k is ActionKind.LEVER:
        return (f"{who} pulls the lever: {a.lever.words}" if a.lever is not None
                else f"{who} pulls the lever")
    said = _SAID.get(k)
    if said is None:  # pragma: no cover - every kind is said above or in _SAID
        return a.text
    return said.format(who=who, whom=whom, card=card_name(a.card) if a.card else "",
                       pending=game.pending_draw, top=card_name(game.top_card))
