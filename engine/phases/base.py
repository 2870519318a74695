"""What a phase's object is: :class:`Phase`, :class:`PhaseRules` (the questions every
phase's object answers, the turn's own in ``engine.game`` included),
:class:`SpecialPhase` and the :class:`PhaseHost` a special card's phase plays on.

A special card (a Wild turned up first, Wild Jackpot's lever, Dip's give, the
droid) opens a decision of its own before play goes on. Each is an object, in a
module of this package, holding its own state and answering its own questions
side by side: which actions are legal (:meth:`SpecialPhase.legal`), why one is
not (:meth:`SpecialPhase.check`), what applying it does
(:meth:`SpecialPhase.apply`) and its part of a position (``engine.Position``)
(:meth:`SpecialPhase.write_json`, :meth:`SpecialPhase.read_json`). A variant
declares the phases it uses (``Game.special_phases``), as python-chess's
``CrazyhouseBoard`` owns its pockets; the base game knows none of their state.

A phase plays on the game through :class:`PhaseHost`, the game's public moves: it
never reads the game's private state, and the game never reads a phase's.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from ..actions import Action, ActionKind, IllegalActionError, NotYourTurnError
from ..card_facts import Effect
from ..cards import Card, Color
from ..events import EventKind
from ..options import TableOptions


class Phase(enum.Enum):
    """What the game waits for."""

    #: ``to_act`` plays a card or draws (or passes when neither is possible, R2).
    TURN = "turn"
    #: ``to_act`` drew a playable card: play it or keep it (R12).
    DRAWN = "drawn"
    #: ``to_act`` must draw: accept, challenge a draw wild, or stack (house rule).
    PENDING = "pending"
    #: A Wild (or Wild Swap Hands, Wild Jackpot) was turned up first: ``to_act`` names the color.
    NAME_COLOR = "name-color"
    #: Wild Jackpot: ``to_act`` chooses who performs a rule card (R18, R19).
    CHOOSE = "choose"
    #: Wild Jackpot: ``to_act`` pulls the lever (R18).
    LEVER = "lever"
    #: Wild Jackpot lever: ``to_act`` discards up to one card of each color (R18).
    DISCARD = "discard"
    #: Wild Dip Into The Deck: ``to_act`` gives a card to the next player (R24).
    GIVE = "give"
    #: Let's Build a Droid: ``to_act`` lays a card of a new color (R36).
    DROID = "droid"
    #: The hand is over.
    OVER = "over"

    # The game finds a phase's object by the phase, in a dict, on the hot path: hash by
    # identity in C (members are singletons compared by identity anyway), not by Enum's
    # Python-level hash of the name (issue 28: 11% more hands/s compiled, 5% interpreted).
    __hash__ = object.__hash__


class PhaseHost(Protocol):
    """The game as a special phase sees it: what it reads and the moves it makes."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def options(self) -> TableOptions: ...
    @property
    def player_count(self) -> int: ...
    @property
    def direction(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def top_card(self) -> Card: ...
    @property
    def reverse_skips(self) -> bool: ...
    @property
    def rng(self) -> random.Random: ...

    def hand_of(self, seat: int) -> list[Card]: ...
    def event(self, kind: EventKind, seat: int | None, topic: str, amount: int = 0,
              cards: tuple[Card, ...] = (), color: Color | None = None,
              target: int | None = None, note: str = "") -> None: ...
    def next_seat(self, seat: int, skip: int = 0) -> int: ...
    def give_turn(self, seat: int) -> None: ...
    def wait_for(self, seat: int, phase: Phase) -> None: ...
    def draw_cards(self, seat: int, k: int, topic: str, note: str = "") -> list[Card]: ...
    def owe_uno(self, seat: int) -> None: ...
    def go_out(self, seat: int) -> None: ...
    def end_hand(self) -> None: ...
    def name_color(self, color: Color | None) -> None: ...
    def put_on_discard(self, c: Card) -> None: ...
    def reverse_direction(self) -> int: ...
    def swap_hands(self, seat: int, other: int, topic: str) -> None: ...
    def check_held(self, seat: int, c: Card | None) -> IllegalActionError | None: ...
    def check_seat(self, target: int | None, not_seat: int | None,
                   what: str) -> IllegalActionError | None: ...
    def not_now(self, kind: ActionKind) -> NotYourTurnError: ...
    def start_phase(self, phase: Phase, seat: int) -> None: ...


#: The game a phase's object plays on: :class:`PhaseHost` for a special card's phase; the
#: turn's own phases (in ``engine.game``) take the game itself. Contravariant: an object
#: written for any :class:`PhaseHost` answers for the game too.
TableT_contra = TypeVar("TableT_contra", contravariant=True)


class PhaseRules(Generic[TableT_contra]):
    """What every phase's object answers, side by side: the legal actions, why an action
    is not legal, what applying one does, and what the game waits for. The game holds one
    object per phase and hands each question to it in one place (``Game.legal_actions``,
    the checks, ``Game.apply``). The turn's own phases (``TURN``, ``DRAWN``, ``PENDING``)
    are in ``engine.game``; the special cards' are :class:`SpecialPhase` objects."""

    __slots__ = ()

    #: The phases this object answers for.
    phases: ClassVar[tuple[Phase, ...]] = ()
    #: Whether the decision here is a play that may call UNO as it goes down (R6): the
    #: turn's own phases.
    plays: ClassVar[bool] = False
    #: Whether the others may jump in now (house rule): ``TURN``, before it begins.
    jumps: ClassVar[bool] = False

    def legal(self, table: TableT_contra, phase: Phase, seat: int, out: list[Action]) -> None:
        """Add every legal action of ``seat`` in ``phase`` to ``out``."""
        raise NotImplementedError

    def check(self, table: TableT_contra, phase: Phase, seat: int,
              a: Action) -> IllegalActionError | None:
        """Why ``a`` may not be taken by ``seat`` in ``phase`` (None if it may)."""
        raise NotImplementedError

    def apply(self, table: TableT_contra, phase: Phase, a: Action) -> None:
        """Carry out ``a``, already checked."""
        raise NotImplementedError

    def waiting_for(self, table: TableT_contra, phase: Phase, who: str) -> str:
        """What the game waits for ``who`` to do in ``phase``."""
        raise NotImplementedError


class SpecialPhase(PhaseRules[PhaseHost]):
    """One special card's phase (or a few that share state): its state, its legal
    actions, its checks, its moves and its JSON. Subclasses override what they need."""

    __slots__ = ()

    #: Effects of a card played that start this phase (see :meth:`on_play`).
    played_effects: ClassVar[tuple[Effect, ...]] = ()
    #: Effects of the first card turned up that start this phase (see :meth:`on_first_card`).
    first_effects: ClassVar[tuple[Effect, ...]] = ()

    def __init__(self, players: int) -> None:
        """A phase for a table of ``players`` seats, before the deal."""

    def copy(self) -> SpecialPhase:
        """An independent copy (see ``Game.copy``)."""
        return type(self)(0)

    # -- starting ----------------------------------------------------------------------

    def prepare(self, table: PhaseHost) -> None:
        """Called once the table is set, before the deal (the lever loads its rule cards)."""

    def on_play(self, table: PhaseHost, seat: int) -> None:
        """``seat`` has just played a card with one of :attr:`played_effects`."""
        raise NotImplementedError

    def on_first_card(self, table: PhaseHost, seat: int) -> None:
        """The first card turned up has one of :attr:`first_effects`; ``seat`` decides."""
        raise NotImplementedError

    def start(self, table: PhaseHost, phase: Phase, seat: int) -> None:
        """Another phase hands ``seat`` over to ``phase`` (the lever to its discard)."""
        raise NotImplementedError

    # (legal, check, apply and waiting_for: see PhaseRules)

    # -- what it holds -------------------------------------------------------------------

    def laid_aside(self) -> list[list[Card]] | None:
        """Cards this phase holds off the table, by seat (None: none ever)."""
        return None

    # -- saving ---------------------------------------------------------------------------

    def write_json(self, state: dict[str, Any]) -> None:
        """Add this phase's state to the game's saved ``state``."""
        type(self).write_default(state, 0)

    @classmethod
    def write_default(cls, state: dict[str, Any], players: int) -> None:
        """Add the state of a game without this phase (the saved format is the same for
        every variant, so old saves and golden files load)."""

    def read_json(self, state: dict[str, Any]) -> None:
        """Restore this phase's state from a saved game's ``state``."""

    def problem(self, phase: Phase) -> str | None:
        """Why the game cannot be waiting for ``phase`` with this state (a position set out
        by hand may hold any); None where it can."""
        return None


def distinct(cards: Sequence[Card]) -> list[Card]:
    """The cards without repeats, in order: one action per distinct card."""
    return list(dict.fromkeys(cards))
