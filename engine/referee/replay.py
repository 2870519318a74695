"""Replaying a position: the engine's :class:`~engine.Position` holds a whole state as one
line of text and :class:`Replay` the actions played from it, so a link can hold both."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from .. import (
    Action,
    ActionKind,
    CardError,
    Direction,
    Event,
    Game,
    IllegalActionError,
    Phase,
    Position,
    SetupError,
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

# -- a position as the referee reads it: its errors, the cards nobody named --------------


def parse_position(text: str) -> Position:
    """The engine's :meth:`Position.parse`, its refusals as the referee's errors."""
    with _impossible():
        return Position.parse(text)


def position_game(position: Position) -> Game:
    """The position, set up by the engine (:meth:`Game.from_position`)."""
    try:
        variant = find_variant(position.variant)
    except ValueError as exc:
        raise UnknownVariantError(str(exc)) from None
    with _impossible():
        return variant.from_position(position)


def filled(position: Position) -> Position:
    """``position`` with the cards of the deck nobody named (in no hand nor pile) shuffled
    by the position's seed under the draw pile: a position set out with only the cards
    that matter, made whole.

    >>> p = Position("classic", ("Ann", "Bea"), (("red-7",), ("blue-3",)), ("red-5",))
    >>> len(filled(p).draw), filled(p).draw == filled(p).draw  # 109 cards less 3
    (106, True)
    """
    try:
        deck = find_variant(position.variant).deck_counts(position.options)
    except ValueError as exc:
        raise UnknownVariantError(str(exc)) from None
    left = Counter(deck)
    left.subtract((*(c for h in position.hands for c in h), *position.discard, *position.draw))
    order = {c: i for i, c in enumerate(deck)}
    rest = sorted((+left).elements(), key=order.__getitem__)
    random.Random(position.seed).shuffle(rest)
    return replace(position, draw=(*position.draw, *rest))


@contextmanager
def _impossible() -> Iterator[None]:
    """The engine's refusal of a position as the referee's: an unknown card, or a position
    no hand can be in."""
    try:
        yield
    except CardError as exc:
        raise UnknownCardError(str(exc)) from None
    except SetupError as exc:
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
        if not isinstance(text, str):
            raise ImpossibleSituationError(f"a replay is text, not {text!r}")
        fields, played = [], []  # the actions' field apart, the position's to the engine
        for part in text.split(";"):
            key, _, value = part.partition("=")
            if key.strip() == "actions":
                played.append(value.strip())
            else:
                fields.append(part)
        if len(played) > 1:
            raise ImpossibleSituationError("the actions are given twice")
        actions = tuple(a.replace("_", " ") for a in "".join(played).split(",") if a)
        replay = cls(parse_position(";".join(fields)), actions)
        steps = replay.steps()  # the engine checks every action; kept in canonical text
        return replace(replay, actions=tuple(step.action for step in steps))

    def game(self) -> Game:
        """The game after every action: the position set up by the engine, then each action
        applied (the game :meth:`Game.replay` gives from the position's setup, without
        the two copies of the setup it makes)."""
        game = position_game(self.position)
        for text in self.actions:
            with _refused():
                game.apply(text)
        return game

    def steps(self) -> tuple[Step, ...]:
        """Each action with its label and the events it gave."""
        game = position_game(self.position)
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
