"""The referee's answers: the errors it refuses a situation with, and the
:class:`Verdict` it gives (with a :class:`Case` for each way an unknown can turn out)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .. import Card, Color, Event

# -- errors ---------------------------------------------------------------------------------


class RefereeError(ValueError):
    """The referee cannot judge this: the situation cannot happen as described."""


class UnknownVariantError(RefereeError):
    """No variant has this name."""


class UnknownCardError(RefereeError):
    """Text that is not a card, or a card the variant's deck does not hold."""


class TooManyCopiesError(RefereeError):
    """More copies of a card are named (counting every card named) than the deck holds."""


class NoSuchSeatError(RefereeError):
    """A seat that is not at this table."""


class BadCountError(RefereeError):
    """A hand count below zero, or more cards than the deck holds."""


class ImpossibleSituationError(RefereeError):
    """Anything else the engine refuses to set up: a player count, a card that could
    not have been played there, a color missing after a wild..."""


class TooOpenError(RefereeError):
    """The question branches over more unknown cards and choices than the referee follows
    (:data:`~engine.referee.scene.SEARCH_BUDGET`); ``narrow`` says what to tell it."""

    def __init__(self, narrow: str) -> None:
        super().__init__(f"this question is too open to settle: tell the referee {narrow}")
        self.narrow = narrow


class IllegalMoveError(RefereeError):
    """An action the rules do not allow at that moment (``rule`` names the ruling)."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


# -- verdicts -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One way an unknown card or a player's choice can turn out, and the verdict if it does.

    ``when`` says it in words; ``choice`` says it as data, for a page or a program to
    read: its ``"kind"`` and the ``"seat"`` whose hand or choice it is (None where nobody
    is named), then the option taken, by kind:

    - ``"holds"``: an unknown hand holds one of ``"cards"`` (``"yes"`` True) or none of
      them (False);
    - ``"under"``: the card under a draw wild was one of ``"cards"``;
    - ``"lever"``: the lever showed ``"outcome"`` (R18);
    - ``"discard"``: after the lever, the seat discards ``"cards"`` (in that order; ``[]``
      for nothing), or any of ``"options"``, each giving the same answer (R18);
    - ``"color"``: the seat names ``"color"``;
    - ``"challenge"``: the seat challenges a draw wild (``"yes"`` True) or takes the
      cards (False); ``"stack"``: it passes the draw on with ``"cards"``;
    - ``"catch"``: the seat catches ``"target"``, who owed an UNO call (``"yes"`` True),
      or nobody does (seat None, False), R6; where a play leaves two seats owing it, the
      second is a choice inside each case of the first;
    - ``"jump_in"``: the seat jumps in with ``"cards"`` (``"yes"`` True), or nobody does
      (seat None, False);
    - ``"target"``: the seat swaps hands with ``"target"``;
    - ``"lay"``: the seat lays a card of ``"color"`` for a droid (None: it cannot lay), R36.

    Cards are given as text ("red-skip"), colors and seats as the table names them.
    """

    when: str
    verdict: Verdict
    choice: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain values, for JSON: ``when``, ``choice`` and the case's ``verdict``."""
        choice = {k: seat_ref(v) if k in ("seat", "target") else v
                  for k, v in self.choice.items()}
        return {"when": self.when, "choice": choice, "verdict": self.verdict.to_dict()}


def choice_of(kind: str, seat: str | None, **option: Any) -> dict[str, Any]:
    """A :attr:`Case.choice`: its kind, the seat, and the option taken (cards as text)."""
    out: dict[str, Any] = {"kind": kind, "seat": seat}
    for key, value in option.items():
        if isinstance(value, Card):
            value = value.text
        elif isinstance(value, Color):
            value = value.value
        elif isinstance(value, (list, tuple)):
            value = [[x.text for x in v] if isinstance(v, (list, tuple)) else
                     v.text if isinstance(v, Card) else v for v in value]
        out[key] = value
    return out


@dataclass(frozen=True)
class Verdict:
    """The referee's answer: one sentence, the engine's events, and the facts behind them.

    Seats are named as the table names them. Fields a check does not answer stay
    ``None`` (or empty). When the answer hangs on something unknown, ``depends_on``
    says what, and ``cases`` holds the verdict for each way it can turn out (empty
    when the unknown is only a number of cards to count, as in :func:`end_of_hand`).
    """

    #: One line a child can read, with the seats' names.
    outcome: str
    #: The engine's events, in the order they happened.
    steps: tuple[Event, ...] = ()
    #: Ruling codes and sheet sections the steps follow, each once ("R10", "classic sheet, ...").
    citations: tuple[str, ...] = ()
    #: Who plays next (when that is settled).
    next_player: str | None = None
    #: Cards each seat draws.
    draws: Mapping[str, int] = field(default_factory=dict)
    #: Seats that lose their turn.
    skipped: tuple[str, ...] = ()
    #: For a challenged draw wild: True if its player was guilty (it was a bluff).
    guilty: bool | None = None
    #: :func:`can_play`, :func:`jump_in`: whether the card may be played.
    playable: bool | None = None
    #: :func:`uno_catch`: whether the player can be caught.
    catchable: bool | None = None
    #: The color in play afterwards.
    color: Color | None = None
    #: The direction of play afterwards: "clockwise" or "counter-clockwise".
    direction: str | None = None
    #: :func:`first_card`: who names the color.
    color_chooser: str | None = None
    #: :func:`first_card`: cards that went back into the deck.
    returned: tuple[Card, ...] = ()
    #: :func:`uno_catch`: who may catch; until whose turn begins; the cards drawn if caught.
    catchers: tuple[str, ...] = ()
    until: str | None = None
    penalty: int | None = None
    #: :func:`end_of_hand`: the points each other seat holds (None in a variant without
    #: points), the cards whose points are not known yet, and the hand's score.
    points: Mapping[str, int] | None = None
    uncounted: Mapping[str, int] = field(default_factory=dict)
    scores: Mapping[str, int] | None = None
    #: :func:`end_of_hand` with partners (R15c): the team that scores, the seat that went
    #: out first (``scores`` credits it; the team shares that total).
    team: tuple[str, ...] = ()
    #: Cards each seat holds afterwards (swaps, 7-0, Wild Dip).
    hand_sizes: Mapping[str, int] = field(default_factory=dict)
    #: Let's Build a Droid: the cards laid, in order, and the color of the last one.
    laid: tuple[tuple[str, Card], ...] = ()
    last_color: Color | None = None
    #: What the answer hangs on, and the verdict for each case.
    depends_on: str | None = None
    cases: tuple[Case, ...] = ()
    #: Where the question was too open to follow every case (the referee's search has a
    #: budget): what to tell the referee to settle the rest ("Bea's hand"). The cases it
    #: could settle are given; each one it could not says so.
    too_open: str | None = None

    @property
    def settled(self) -> bool:
        """True when the answer does not hang on anything unknown."""
        return self.depends_on is None

    @property
    def followed(self) -> bool:
        """False when no case at all could be followed within the budget (every way it
        can turn out was cut short): then the question is refused as too open."""
        if not self.cases:
            return not self.too_open  # a case cut short says what to tell, and no more
        return any(c.verdict.followed for c in self.cases)

    def to_dict(self) -> dict[str, Any]:
        """Plain values, for a JSON API: cards and colors as text, every field (None,
        empty or not), each step with its sentence and its parts (:func:`event_dict`).
        A seat is its name, or its number where the question named none (:func:`seat_ref`).

        >>> from engine.referee import Scene, whos_next
        >>> v = whos_next(Scene("classic", ["Ann", "Bea", "Cy"]), "Ann", "red-skip")
        >>> d = v.to_dict()
        >>> d["outcome"], d["next_player"], d["skipped"]
        ('Bea misses a turn, then Cy plays', 'Cy', ['Bea'])
        >>> step = d["steps"][1]
        >>> step["text"], step["kind"], step["seat"]
        ('Bea loses their turn (classic sheet, Skip Card)', 'lose-turn', 'Bea')
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "steps":
                value = [event_dict(e) for e in value]
            elif f.name == "cases":
                value = [c.to_dict() for c in value]
            elif f.name == "returned":
                value = [c.text for c in value]
            elif f.name == "laid":
                value = [[seat_ref(who), c.text] for who, c in value]
            elif f.name in _SEAT_FIELDS:
                value = seat_ref(value)
            elif f.name in _SEAT_LISTS:
                value = [seat_ref(who) for who in value]
            elif isinstance(value, Color):
                value = value.value
            elif isinstance(value, Mapping):  # by seat: a JSON key is text
                value = {str(seat_ref(who)): n for who, n in value.items()}
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


#: The fields of a :class:`Verdict` that say something (the others are how the engine got
#: there, where the steps of one case may differ in filler cards nobody knows, what it
#: cites, and its cases, compared one by one).
_SAID = tuple(f.name for f in fields(Verdict) if f.name not in ("steps", "citations", "cases"))
#: Those that map seats to numbers (compared as sorted pairs).
_BY_SEAT = frozenset(f.name for f in fields(Verdict) if str(f.type).startswith("Mapping"))


def answer_key(v: Verdict, *, color: bool = True) -> tuple[Any, ...]:
    """Everything ``v`` says, as one value to compare: its sentence, every fact it carries
    (who plays next, who draws, the color, the cards laid, the hand sizes, the points...),
    what it hangs on, and each case with its verdict. Two answers may be said as one only
    where their keys are equal (not where only their sentences are). ``color=False``:
    leave out the color in play, here and in every case (an answer that claims none).

    >>> from dataclasses import replace
    >>> from engine.referee import Scene, whos_next
    >>> a = whos_next(Scene("classic", ["Ann", "Bea"]), "Ann", "red-3")
    >>> answer_key(a) == answer_key(a), answer_key(a) == answer_key(replace(a, color=None))
    (True, False)
    >>> answer_key(a, color=False) == answer_key(replace(a, color=None), color=False)
    True
    """
    out: list[Any] = []
    for name in _SAID:
        if name == "color" and not color:
            continue
        value = getattr(v, name)
        out.append(tuple(sorted(value.items())) if name in _BY_SEAT and value is not None
                   else value)
    out.append(tuple((c.when, answer_key(c.verdict, color=color)) for c in v.cases))
    return tuple(out)


#: The fields of a :class:`Verdict` that hold a seat, or a list of seats.
_SEAT_FIELDS = frozenset({"next_player", "color_chooser", "until"})
_SEAT_LISTS = frozenset({"skipped", "catchers", "team"})

#: The seats "Can I play this?" sets out when it is told no names (it asks about no table),
#: as its sentences say them, and the number each one is in JSON: 0 is the player, 1 the
#: next player (clockwise), 2 the one after them.
UNNAMED_SEATS: Mapping[str, int] = {"the player": 0, "the next player": 1,
                                    "the player after them": 2}


def seat_ref(name: str | None) -> str | int | None:
    """A seat as the JSON gives it: its name, or its number for a seat nobody named
    (:data:`UNNAMED_SEATS`): never a phrase standing in for a name.

    >>> seat_ref("Bea"), seat_ref("the next player"), seat_ref(None)
    ('Bea', 1, None)
    """
    if name is None:
        return None
    return UNNAMED_SEATS.get(name, name)


def event_dict(e: Event) -> dict[str, Any]:
    """An engine event as plain values: its ``kind``, its sentence (``text``), the ruling
    and sheet it follows, the ``seat`` that acts and the ``target`` it names
    (:func:`seat_ref`), and its ``amount``, ``cards`` and ``color``."""
    return {
        "kind": e.kind.value,
        "text": e.text,
        "rule": e.rule,
        "source": e.source,
        "seat": seat_ref(e.names[e.seat]) if e.seat is not None else None,
        "target": seat_ref(e.names[e.target]) if e.target is not None else None,
        "amount": e.amount,
        "cards": [c.text for c in e.cards],
        "color": e.color.value if e.color is not None else None,
    }
