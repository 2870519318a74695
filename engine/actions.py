"""Actions: what a player does, as small frozen values with a text form like UCI.

``Action.parse(a.text) == a`` always holds. Seats are numbers from 0 (R1).

>>> Action.parse("play wild-draw4 blue").text
'play wild-draw4 blue'
>>> Action.parse("play r7").card
Card.parse('red-7')
>>> Action.parse("catch 1 2") == Action(ActionKind.CATCH, seat=1, target=2)
True

The forms, one per kind:

==========================  ====================================================
``play CARD [COLOR] [SEAT]``  play a card; a wild names a COLOR; a Wild Swap Hands
                              (or a 7 under 7-0) names the SEAT to swap with
``play CARD [COLOR] uno``     play the next-to-last card and call UNO with it (R6)
``draw``                      draw instead of playing
``pass``                      keep the drawn card, or pass when nothing can be
                              drawn or played (R2)
``accept`` / ``challenge``    take a pending draw, or challenge the draw wild
``uno SEAT``                  SEAT calls UNO (R6)
``catch SEAT TARGET``         SEAT catches TARGET not having called UNO (R6)
``color COLOR [SEAT]``        name the color of a Wild turned up first (R8, R19,
                              R23); after a Wild Swap Hands, optionally swap
``give CARD``                 Wild Dip Into The Deck: the card for the next player
``lever [OUTCOME]``           pull the Wild Jackpot lever (random, or the outcome
                              a real table's spinner showed)
``choose SEAT``               the player who performs a rule card
``discard CARD`` / ``done``   the lever's discard outcome
``lay CARD``                  Let's Build a Droid: lay a card
``jump SEAT CARD [SEAT]``     jump-in (house rule)
==========================  ====================================================
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .cards import COLORS, Card, CardError, Color
from .jackpot import LeverOutcome


class ActionParseError(ValueError):
    """Raised for text that is not an action."""


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the game is left unchanged.

    ``rule`` names the ruling or sheet rule that forbids it, when there is one.
    """

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(f"{message} ({rule})" if rule else message)
        self.rule = rule


class GameOverError(IllegalActionError):
    """The hand is over: nothing more can be played."""


class NotYourTurnError(IllegalActionError):
    """The action belongs to another player, or to another moment of the turn."""


class CardNotHeldError(IllegalActionError):
    """The player does not hold that card."""


class UnplayableCardError(IllegalActionError):
    """The card cannot be played now (R3 matching, R12/R29 after a draw, R11 stacking...)."""


class BadChoiceError(IllegalActionError):
    """A color or seat that must be named is missing, not allowed, or not a seat."""


class ActionKind(str, enum.Enum):
    """The kinds of action; the value is the first word of the text form."""

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    ACCEPT = "accept"
    CHALLENGE = "challenge"
    UNO = "uno"
    CATCH = "catch"
    COLOR = "color"
    GIVE = "give"
    LEVER = "lever"
    CHOOSE = "choose"
    DISCARD = "discard"
    DONE = "done"
    LAY = "lay"
    JUMP = "jump"


_BY_WORD = {k.value: k for k in ActionKind}
_BARE = frozenset({ActionKind.DRAW, ActionKind.PASS, ActionKind.ACCEPT, ActionKind.CHALLENGE,
                   ActionKind.DONE})
_CARD_ONLY = frozenset({ActionKind.GIVE, ActionKind.DISCARD, ActionKind.LAY})
_COLOR_WORDS = {c.value: c for c in COLORS} | {c.value[0]: c for c in COLORS}
_LEVER_WORDS = {o.value: o for o in LeverOutcome}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision. ``seat`` is the actor for out-of-turn actions (``uno``, ``catch``,
    ``jump``); every other action is taken by :attr:`Game.to_act`."""

    kind: ActionKind
    card: Card | None = None
    color: Color | None = None
    #: The seat chosen: swapped with, performing a rule card, caught.
    target: int | None = None
    #: The actor of an out-of-turn action.
    seat: int | None = None
    #: The lever outcome given as input; None lets the game's generator spin.
    lever: LeverOutcome | None = None
    #: A play that calls UNO as the next-to-last card goes down (R6): ``play CARD uno``.
    uno: bool = False

    @property
    def text(self) -> str:
        """The canonical text form (inverse of :meth:`parse`)."""
        kind = self.kind
        parts = [kind.value]
        if kind is ActionKind.JUMP or kind is ActionKind.UNO or kind is ActionKind.CATCH:
            parts.append(str(self.seat))
        if self.card is not None:
            parts.append(self.card.text)
        if self.color is not None:
            parts.append(self.color.value)
        if self.target is not None:
            parts.append(str(self.target))
        if self.lever is not None:
            parts.append(self.lever.value)
        if self.uno:
            parts.append("uno")
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text

    @classmethod
    def parse(cls, text: object) -> Action:
        """Read an action from its text form; short card names are accepted.

        Raises :class:`ActionParseError` for anything else.
        """
        words = text.split() if isinstance(text, str) else []
        if not words or words[0].lower() not in _BY_WORD:
            kinds = ", ".join(_BY_WORD)
            raise ActionParseError(f"{text!r} is not an action (start with one of: {kinds})")
        kind = _BY_WORD[words[0].lower()]
        rest = words[1:]
        try:
            return _parse_rest(kind, rest)
        except CardError as exc:
            raise ActionParseError(f"{text!r}: {exc}") from None

    @staticmethod
    def play(card: Card | str, color: Color | str | None = None,
             target: int | None = None, uno: bool = False) -> Action:
        """A play, from a card and the color named (for wilds) and seat chosen (swaps);
        ``uno`` calls UNO with it (the next-to-last card, R6)."""
        c = Card.parse(card) if isinstance(card, str) else card
        col = _color(color) if isinstance(color, str) else color
        if uno:
            return Action(ActionKind.PLAY, c, col, target, uno=True)
        if target is None and col is None:
            cached = PLAIN_PLAYS.get(c)
            if cached is not None:
                return cached
        return Action(ActionKind.PLAY, c, col, target)


def _color(word: str) -> Color:
    try:
        return _COLOR_WORDS[word.lower()]
    except KeyError:
        raise ActionParseError(f"{word!r} is not a color (red, yellow, green, blue)") from None


def _seat(word: str) -> int:
    if not word.isdigit():
        raise ActionParseError(f"{word!r} is not a seat number")
    return int(word)


def _parse_rest(kind: ActionKind, rest: list[str]) -> Action:
    if kind in _BARE:
        if rest:
            raise ActionParseError(f"'{kind.value}' takes nothing after it")
        return Action(kind)
    if kind is ActionKind.UNO or kind is ActionKind.CHOOSE:
        if len(rest) != 1:
            raise ActionParseError(f"'{kind.value}' takes one seat number")
        who = _seat(rest[0])
        return Action(kind, seat=who) if kind is ActionKind.UNO else Action(kind, target=who)
    if kind is ActionKind.CATCH:
        if len(rest) != 2:
            raise ActionParseError("'catch' takes two seats: who catches, who is caught")
        return Action(kind, seat=_seat(rest[0]), target=_seat(rest[1]))
    if kind in _CARD_ONLY:
        if len(rest) != 1:
            raise ActionParseError(f"'{kind.value}' takes one card")
        return Action(kind, Card.parse(rest[0]))
    if kind is ActionKind.LEVER:
        if len(rest) > 1:
            raise ActionParseError("'lever' takes at most one outcome")
        if not rest:
            return Action(kind)
        if rest[0].lower() not in _LEVER_WORDS:
            raise ActionParseError(f"{rest[0]!r} is not a lever outcome ({', '.join(_LEVER_WORDS)})")
        return Action(kind, lever=_LEVER_WORDS[rest[0].lower()])
    if kind is ActionKind.COLOR:
        if not 1 <= len(rest) <= 2:
            raise ActionParseError("'color' takes a color and maybe a seat to swap with")
        swap_with = _seat(rest[1]) if len(rest) == 2 else None
        return Action(kind, color=_color(rest[0]), target=swap_with)
    # play and jump
    seat: int | None = None
    if kind is ActionKind.JUMP:
        if not rest:
            raise ActionParseError("'jump' takes a seat and a card")
        seat = _seat(rest[0])
        rest = rest[1:]
    if not rest:
        raise ActionParseError(f"'{kind.value}' needs a card")
    card = Card.parse(rest[0])
    color: Color | None = None
    target = None
    extra = rest[1:]
    calls = kind is ActionKind.PLAY and bool(extra) and extra[-1].lower() == "uno"
    if calls:
        extra = extra[:-1]
    if extra and not extra[0].isdigit():
        color = _color(extra[0])
        extra = extra[1:]
    if extra:
        target = _seat(extra[0])
        extra = extra[1:]
    if extra:
        raise ActionParseError(f"unexpected {' '.join(extra)!r}")
    return Action(kind, card, color, target, seat, uno=calls)


# Interned actions for the hot path: legal_actions hands these out, so a random
# player's choice is recognised by identity.
DRAW = Action(ActionKind.DRAW)
PASS = Action(ActionKind.PASS)
ACCEPT = Action(ActionKind.ACCEPT)
CHALLENGE = Action(ActionKind.CHALLENGE)
DONE = Action(ActionKind.DONE)
LEVER = Action(ActionKind.LEVER)

#: ``play CARD`` for every card, without color or seat.
PLAIN_PLAYS: dict[Card, Action] = {}
#: ``play CARD COLOR`` for every card and color (used for wilds and blanks).
COLOR_PLAYS: dict[Card, tuple[Action, ...]] = {}
#: ``play CARD [COLOR] uno`` for each of the plays above, by ``id()`` of that play: the
#: same play calling UNO. Keyed by identity because hashing an Action runs Python code
#: (its fields include enums), and the interned plays live as long as the module.
#: (Issue 28: keyed by the Action itself, the compiled build played 4% fewer hands/s.)
CALLING_PLAYS: dict[int, Action] = {}


def _intern() -> None:
    from .cards import ALL_CARDS

    for c in ALL_CARDS:
        PLAIN_PLAYS[c] = Action(ActionKind.PLAY, c)
        COLOR_PLAYS[c] = tuple(Action(ActionKind.PLAY, c, col) for col in COLORS)
        for a in (PLAIN_PLAYS[c],) + COLOR_PLAYS[c]:
            CALLING_PLAYS[id(a)] = Action(ActionKind.PLAY, c, a.color, uno=True)


_intern()
