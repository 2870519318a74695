"""Games and hands as records: what a table chose (:class:`GameSetup`), a game as stored
with its standings (:class:`GameRecord`), its hands and what each opponent held."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property

import engine
from engine import Card, HandOutcome, ScoringMode, Standings, TableOptions


def now() -> str:
    """Timestamp stored in rows (UTC, ISO 8601)."""
    return datetime.now(UTC).isoformat(timespec="seconds")



#: Only the latest this many live hands can be changed, deleted or restored: a change
#: scores again every hand after it, so this bounds a write's cost in a long game
#: (issue 18). A table fixes a hand within minutes, not a hundred hands later.
CHANGEABLE_HANDS = 100
#: The most hands one game keeps (an import reads no more): about fifty hours of play.
#: Every page and export of a game is then bounded, and nobody can pad one for ever.
MAX_GAME_HANDS = 1_000


@dataclass(frozen=True)
class Holding:
    """What one opponent was caught holding: the cards, or a typed total."""

    seat: int
    cards: tuple[Card, ...]
    points: int
    typed: bool



@dataclass(frozen=True)
class Hand:
    """One recorded hand."""

    id: int
    number: int
    went_out: int
    holdings: dict[int, Holding]
    created_at: str
    #: Why the stored hand cannot be read as entered (a manual edit, an older bug), if so.
    problem: str | None = None
    game_id: int = 0

    def outcome(self) -> HandOutcome:
        """The hand as the scoring layer reads it."""
        return HandOutcome(self.went_out, {s: h.points for s, h in self.holdings.items()})



@dataclass(frozen=True, kw_only=True)
class GameSetup:
    """What a table chooses before the first hand: a new-game form, checked."""

    variant: type[engine.Game]
    mode: ScoringMode
    target: int | None
    options: TableOptions
    players: tuple[str, ...]
    dealer: int
    #: Each seat's score when the game was taken over from a score sheet; None from zero.
    start_totals: tuple[int, ...] | None = None



@dataclass(frozen=True, kw_only=True)
class GameRecord(GameSetup):
    """A game with its seats and standings, as stored: its hands are read apart, only
    those a page shows (:func:`load_hand`, :func:`history_page`)."""

    id: int
    play_on: bool
    ended_at: str | None
    created_at: str
    deleted_at: str | None
    rematch_of: int | None
    #: Bumped by every change; a form names the version it was made from.
    version: int = 0
    #: The standings of the live hands as scored (an ended tally's winners aside), up to
    #: the first hand that cannot be scored.
    scored: Standings
    #: What stops the history from being scored, if anything: the table must fix it first.
    problem: str | None = None
    #: How many live hands the game has, and the latest (the one "undo" takes back).
    hand_count: int = 0
    last_hand: Hand | None = None
    #: When anything in the game last changed (a hand, a setting), for telling games apart.
    updated_at: str | None = None

    @property
    def standings(self) -> Standings:
        """Totals, eliminations and winners of the hands (up to a broken one)."""
        if self.ended and not self.problem and not self.scored.finished:
            return engine.end_game(self.scored)
        return self.scored

    @property
    def ended(self) -> bool:
        """True when the table ended an open tally (and it still has hands to decide it)."""
        return self.ended_at is not None and self.hand_count > 0

    @property
    def finished(self) -> bool:
        """True once the game has its winner."""
        return self.standings.finished

    @property
    def accepts_hands(self) -> bool:
        """False once the game is over, unless the table chose to play on."""
        return self.no_more_hands is None

    @property
    def no_more_hands(self) -> str | None:
        """Why no more hands can be recorded, if so."""
        if self.problem:
            return self.problem
        if self.hand_count >= MAX_GAME_HANDS:
            return (f"This game has {MAX_GAME_HANDS:,} hands, the most one game keeps: start "
                    "a rematch to play on.")
        if self.deleted_at or self.ended or (
                self.finished and not (self.play_on and self.mode.plays_on)):
            return ("This game is over: no more hands can be recorded. Start a rematch, or "
                    "choose to keep playing from the scoreboard where the rules allow it.")
        return None

    @property
    def can_play_on(self) -> bool:
        """True when a finished game may go on past its target (the sheets' "play again")."""
        return (self.finished and not self.play_on and not self.ended and not self.problem
                and self.mode.plays_on)

    def can_change(self, hand: Hand) -> bool:
        """Whether ``hand`` (numbered) is recent enough to be changed or deleted, for the
        history page's links; any hand can be while the history cannot be scored, so the
        table can fix it. A change is refused by ``writes.require_changeable``."""
        return self.problem is not None or self.hand_count - hand.number < CHANGEABLE_HANDS

    @cached_property
    def next_dealer(self) -> int:
        """Seat dealing the next hand (the engine's rule: clockwise, skipping the eliminated)."""
        return self.standings.next_dealer(self.dealer)
