"""The referee: settles a table's disputes from what the table knows.

At a real table everyone sees the top card, the color in play, the seats and the
direction, and at most one hand is shown. A :class:`Scene` holds that partial knowledge
(unknown hands as card counts), read and checked once; each check is a question asked of
it, and answers a :class:`Verdict`. The referee fills in the rest with cards the deck
still holds, sets the position up with :meth:`Game.from_position` (or deals it with
:meth:`Game.new`) and lets the engine play it. It never decides a rule itself: it turns
the engine's events into the verdict, and where the answer hangs on something nobody
knows it plays every case that matters and says so.

>>> scene = Scene("classic", ["Ann", "Bea", "Cy", "Dan"], color="red")
>>> v = challenge(scene, "Bea", hand="red-3 blue-7")
>>> v.outcome
"Bea's Wild Draw 4 was illegal: Bea draws 4, then Cy plays"
>>> v.guilty, v.draws, v.next_player
(True, {'Bea': 4}, 'Cy')
>>> v.citations[:2]
('R10', 'classic sheet, Wild Draw 4 Card')

Without the hand, the referee says what the answer hangs on:

>>> v = challenge(Scene("classic", ["Ann", "Bea", "Cy"], color="red"), "Bea", hand=3)
>>> v.depends_on
'whether Bea holds a red card'
>>> [(case.when, case.verdict.guilty) for case in v.cases]
[('Bea holds a red card', True), ('Bea holds none of these', False)]

Impossible situations are refused with a :class:`RefereeError`:

>>> can_play(Scene("pizza-pizza", top="red-5"), "red-0")
Traceback (most recent call last):
...
engine.referee.verdict.UnknownCardError: red 0 is not in the pizza-pizza deck

The same checks with every part of the scene as an argument, as they were first written,
are in :mod:`engine.referee.keywords`.
"""

from __future__ import annotations

from .. import Position
from .checks import can_play, challenge, end_of_hand, first_card, uno_catch, whos_next
from .replay import Choice, Replay, Step, filled
from .scene import Cards as Cards
from .scene import HandLike as HandLike
from .scene import Scene, TableSetup
from .scene import SeatRef as SeatRef
from .scene import VariantLike as VariantLike
from .specials import QUESTION_CARD, build_droid, jump_in, seven_zero, swap_hands, wild_dip
from .verdict import (
    BadCountError,
    Case,
    IllegalMoveError,
    ImpossibleSituationError,
    NoSuchSeatError,
    RefereeError,
    TooManyCopiesError,
    TooOpenError,
    UnknownCardError,
    UnknownVariantError,
    Verdict,
)

# The types the checks take (Cards, HandLike, SeatRef, VariantLike) are imported from
# here as before: re-exported by name, outside __all__ as they always were.
__all__ = [
    "QUESTION_CARD",
    "BadCountError",
    "Case",
    "Choice",
    "IllegalMoveError",
    "ImpossibleSituationError",
    "NoSuchSeatError",
    "Position",
    "RefereeError",
    "Replay",
    "Scene",
    "Step",
    "TableSetup",
    "TooManyCopiesError",
    "TooOpenError",
    "UnknownCardError",
    "UnknownVariantError",
    "Verdict",
    "build_droid",
    "can_play",
    "challenge",
    "end_of_hand",
    "filled",
    "first_card",
    "jump_in",
    "seven_zero",
    "swap_hands",
    "uno_catch",
    "whos_next",
    "wild_dip",
]
