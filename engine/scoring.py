"""Scoring modes as pure functions over hands.

A game's standings are always recomputed from its hands (:func:`score_game`),
so editing or deleting a past hand needs no bookkeeping: winners, eliminations
and totals follow from the hands alone.

Seats are numbered 0..n-1 clockwise (R1). A hand is described by who went out
and the points each other player was caught holding.

>>> s = score_game(ScoringMode.STANDARD, 3, [HandOutcome(0, {1: 30, 2: 12})], target=40)
>>> s.totals, s.finished
((42, 0, 0), True)
>>> s.winners
(0,)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

#: Changes whenever a stored game could score differently: a card's points, a mode's
#: rule, a target's test. The app keeps scored standings under it, so a new version of
#: the app scores old games again only when this says it must (tests/engine/test_scoring.py
#: pins what it covers, and fails until a change to scoring bumps it).
SCORING_REVISION = 1


class ScoringError(ValueError):
    """Raised for a hand that cannot be scored (unknown seat, negative points...)."""


class ScoringMode(enum.Enum):
    """How hands turn into a game result (R15, R32, R37)."""

    #: R15a: the player who goes out scores the cards left in opponents' hands.
    STANDARD = "standard"
    #: R15b: everyone is charged what they hold; at the target, the lowest total wins.
    LOWEST_WINS = "lowest-wins"
    #: R15c: four players, partners across; a team scores both opponents' hands.
    PARTNERS = "partners"
    #: R15d: charged like lowest-wins; reaching the target eliminates; last one standing wins.
    CHALLENGE = "challenge"
    #: R32, R37: no points; each hand's winner gets one win.
    WIN_TALLY = "win-tally"

    @property
    def label(self) -> str:
        """Short name for menus."""
        return _LABELS[self]

    @property
    def uses_points(self) -> bool:
        """False when only who went out matters."""
        return self is not ScoringMode.WIN_TALLY

    @property
    def plays_on(self) -> bool:
        """Whether a finished game may go on past its target (the sheets' "play again").

        Not in Challenge UNO (R15d): its winner is the last player left, so nobody is
        left to play against.
        """
        return self is not ScoringMode.CHALLENGE

    @property
    def charges_holder(self) -> bool:
        """True when points count against the player holding them."""
        return self in (ScoringMode.LOWEST_WINS, ScoringMode.CHALLENGE)


_LABELS = {
    ScoringMode.STANDARD: "Standard: winner scores opponents' cards",
    ScoringMode.LOWEST_WINS: "Lowest score wins",
    ScoringMode.PARTNERS: "Partners (4 players)",
    ScoringMode.CHALLENGE: "Challenge UNO (elimination)",
    ScoringMode.WIN_TALLY: "Count wins (no points)",
}

#: R15c: partners sit across the table.
PARTNER_TEAMS: tuple[tuple[int, int], ...] = ((0, 2), (1, 3))


@dataclass(frozen=True)
class HandOutcome:
    """One hand as the table reports it."""

    #: Seat of the player who went out.
    went_out: int
    #: Points each other player in the hand was caught holding, by seat.
    held: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class HandScore:
    """What one hand did to the standings."""

    number: int
    went_out: int
    #: Points scored (standard, partners), charged (lowest-wins, challenge) or wins (tally), by seat.
    points: Mapping[int, int]
    #: Everyone's totals after this hand.
    totals: tuple[int, ...]
    #: Seats eliminated by this hand (challenge mode).
    eliminated: frozenset[int]


@dataclass(frozen=True)
class Standings:
    """A game's state of play between hands."""

    mode: ScoringMode
    seats: int
    #: Points (or wins, in a tally) that end the game; None for an open-ended tally.
    target: int | None
    totals: tuple[int, ...]
    #: What each hand scored, the latest last: every hand when scored from the start;
    #: only those scored since, when carried on from a stored checkpoint (:meth:`from_dict`).
    hands: tuple[HandScore, ...] = ()
    eliminated: frozenset[int] = frozenset()
    #: Seats that won the game; empty while it goes on. Partners win together.
    winners: tuple[int, ...] = ()
    #: Number of the hand that decided the game.
    decided_at: int | None = None
    teams: tuple[tuple[int, ...], ...] = ()
    #: How many hands were scored (``hands`` may hold only the latest of them).
    played: int = 0
    #: (seat, number of the hand that eliminated it), in the order they went out.
    out_at: tuple[tuple[int, int], ...] = ()

    @property
    def finished(self) -> bool:
        """True once the game has a winner."""
        return bool(self.winners)

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the game (all but the eliminated)."""
        return tuple(s for s in range(self.seats) if s not in self.eliminated)

    @property
    def leaders(self) -> tuple[int, ...]:
        """Seats currently in front: most points, or fewest where points count against."""
        contenders = self.active
        if not self.played and not any(self.totals):
            return ()
        if self.mode.charges_holder:
            best = min(self.totals[s] for s in contenders)
        else:
            best = max(self.totals[s] for s in contenders)
        return tuple(s for s in contenders if self.totals[s] == best)

    def ranking(self) -> tuple[tuple[int, int], ...]:
        """Every seat with its place, best first: winners, then the players still in by
        their totals (most points first, or fewest where points count against), then the
        eliminated, the last one out first. Ties share a place (1, 1, 3).

        >>> score_game(ScoringMode.STANDARD, 3, [HandOutcome(1, {0: 20, 2: 20})], 500).ranking()
        ((1, 1), (2, 0), (2, 2))
        """
        out_at = dict(self.out_at)
        sign = 1 if self.mode.charges_holder else -1

        def key(seat: int) -> tuple[bool, bool, int, int]:
            return (seat not in self.winners, seat in out_at, -out_at.get(seat, 0),
                    sign * self.totals[seat])

        places: list[tuple[int, int]] = []
        for i, seat in enumerate(sorted(range(self.seats), key=lambda s: (key(s), s))):
            tied = bool(places) and key(places[-1][1]) == key(seat)
            places.append((places[-1][0] if tied else i + 1, seat))
        return tuple(places)

    def to_go(self, seat: int) -> int | None:
        """Points (or wins) this seat still needs to reach the target."""
        if self.target is None:
            return None
        return max(self.target - self.totals[seat], 0)

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats sharing a total with ``seat`` (just itself outside partners)."""
        for team in self.teams:
            if seat in team:
                return team
        return (seat,)

    def scored_seats(self, went_out: int) -> tuple[int, ...]:
        """Seats whose cards count when ``went_out`` goes out: the opponents still in, a
        partner's cards aside (R15c); none in a tally, which counts only who went out.

        >>> score_game(ScoringMode.PARTNERS, 4, [], 500).scored_seats(0)
        (1, 3)
        """
        if not self.mode.uses_points:
            return ()
        return _opponents(self, went_out)

    def next_dealer(self, first_dealer: int) -> int:
        """The seat dealing the next hand when ``first_dealer`` dealt the first: the deal
        passes clockwise after every hand (R1), skipping eliminated players (R15d).

        >>> s = score_game(ScoringMode.CHALLENGE, 3, [HandOutcome(0, {1: 600, 2: 0})], 500)
        >>> s.next_dealer(0)  # seat 1 would deal, but is out
        2
        """
        # Between two eliminations the deal goes round the same players: count those
        # hands' steps at once, so the cost does not grow with the number of hands.
        dealer, done = first_dealer, 0
        eliminated: frozenset[int] = frozenset()
        for number in sorted({n for _, n in self.out_at}) + [self.played + 1]:
            dealer = _pass_deal(dealer, self.seats, eliminated, number - 1 - done)
            if number > self.played:
                break
            eliminated = frozenset(s for s, n in self.out_at if n <= number)
            dealer = _pass_deal(dealer, self.seats, eliminated, 1)
            done = number
        if dealer in eliminated:
            dealer = _next_seat(dealer, self.seats, eliminated)
        return dealer

    def hand_value(self, hand: HandScore) -> int | None:
        """How big a hand was: every point it moved, scored by the player who went out
        (standard, partners) or charged to those caught holding cards (lowest-wins,
        Challenge UNO); None in a tally, which counts no points.

        >>> s = score_game(ScoringMode.LOWEST_WINS, 3, [HandOutcome(0, {1: 30, 2: 12})], 500)
        >>> s.hand_value(s.hands[0])
        42
        """
        if not self.mode.uses_points:
            return None
        return sum(hand.points.values())

    @property
    def margin(self) -> int | None:
        """How close a finished game was: the gap between the winner's total and the next
        place's (points, or wins in a tally); None while the game goes on.

        >>> score_game(ScoringMode.STANDARD, 3, [HandOutcome(1, {0: 20, 2: 30}),
        ...            HandOutcome(0, {1: 10, 2: 60})], 60).margin  # 70 to 50
        20
        """
        if not self.finished:
            return None
        first = self.totals[self.winners[0]]
        others = [self.totals[s] for _, s in self.ranking() if s not in self.winners]
        return abs(first - others[0]) if others else None

    def score_of(self, number: int) -> HandScore | None:
        """What hand ``number`` scored, if these standings hold it (see :attr:`hands`)."""
        index = number - 1 - (self.played - len(self.hands))
        return self.hands[index] if 0 <= index < len(self.hands) else None

    def to_dict(self) -> dict[str, Any]:
        """These standings as plain values (JSON), without the hand-by-hand scores:
        what :meth:`from_dict` needs to go on scoring where they stand."""
        return {"mode": self.mode.value, "seats": self.seats, "target": self.target,
                "totals": list(self.totals), "eliminated": sorted(self.eliminated),
                "winners": list(self.winners), "decided_at": self.decided_at,
                "teams": [list(t) for t in self.teams], "played": self.played,
                "out_at": [list(p) for p in self.out_at]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Standings:
        """Standings from :meth:`to_dict` (their :attr:`hands` empty)."""
        return cls(ScoringMode(data["mode"]), int(data["seats"]), data["target"],
                   tuple(int(t) for t in data["totals"]),
                   eliminated=frozenset(int(s) for s in data["eliminated"]),
                   winners=tuple(int(s) for s in data["winners"]),
                   decided_at=data["decided_at"],
                   teams=tuple(tuple(int(s) for s in t) for t in data["teams"]),
                   played=int(data["played"]),
                   out_at=tuple((int(s), int(n)) for s, n in data["out_at"]))


def new_standings(
    mode: ScoringMode,
    seats: int,
    target: int | None,
    teams: Sequence[Sequence[int]] | None = None,
    totals: Sequence[int] | None = None,
) -> Standings:
    """Standings before the first hand, after checking the setup fits the mode.

    ``totals`` continues a game already under way (a paper score sheet): each seat's
    points (or wins) so far. Nobody may have reached the target already, and partners
    share one total. In Challenge UNO they are the points charged so far.

    >>> new_standings(ScoringMode.STANDARD, 3, 500, totals=[120, 0, 45]).to_go(0)
    380
    """
    if seats < 2:
        raise ScoringError("a game needs at least 2 players")
    if target is not None and target <= 0:
        raise ScoringError("the target must be a positive number")
    if mode is not ScoringMode.WIN_TALLY and target is None:
        raise ScoringError("a scored game needs a target")
    chosen: tuple[tuple[int, ...], ...] = ()
    if mode is ScoringMode.PARTNERS:
        if seats != 4:
            raise ScoringError("partners is played by exactly 4 players (R15c)")
        chosen = tuple(tuple(t) for t in (teams or PARTNER_TEAMS))
        pairs = len(chosen) == 2 and all(len(t) == 2 for t in chosen)
        if not pairs or sorted(s for t in chosen for s in t) != [0, 1, 2, 3]:
            raise ScoringError("partners needs two teams of two covering all four seats")
    start = tuple(totals) if totals is not None else (0,) * seats
    if len(start) != seats:
        raise ScoringError(f"starting scores are needed for all {seats} seats")
    if any(not isinstance(t, int) or isinstance(t, bool) or t < 0 for t in start):
        raise ScoringError("starting scores must be whole numbers, 0 or more")
    if target is not None and any(t >= target for t in start):
        raise ScoringError("a starting score must be below the target: "
                           "that game would be over already")
    if any(len({start[s] for s in team}) > 1 for team in chosen):
        raise ScoringError("partners share one total: give both partners the same starting score")
    return Standings(mode, seats, target, start, teams=chosen)


def score_hand(standings: Standings, outcome: HandOutcome) -> Standings:
    """The standings after one more hand; raises :class:`ScoringError` for a bad hand."""
    s = standings
    if s.finished and s.mode is ScoringMode.CHALLENGE:
        raise ScoringError("this Challenge UNO game is over: only one player is left")
    out = outcome.went_out
    if out not in s.active:
        raise ScoringError(f"seat {out} is not playing in this game")
    opponents = _opponents(s, out)
    held = dict(outcome.held)
    if s.mode.uses_points:
        for seat, pts in held.items():
            if seat not in opponents and seat not in s.team_of(out):
                raise ScoringError(f"seat {seat} is not an opponent in this hand")
            if not isinstance(pts, int) or isinstance(pts, bool) or pts < 0:
                raise ScoringError("points must be whole numbers, 0 or more")
        missing = [seat for seat in opponents if seat not in held]
        if missing:
            raise ScoringError(f"points are missing for seat(s) {missing}")

    points = _hand_points(s, out, opponents, held)
    totals = list(s.totals)
    for seat, pts in points.items():
        for member in s.team_of(seat):
            totals[member] += pts
    new_totals = tuple(totals)
    number = s.played + 1

    knocked_out: frozenset[int] = frozenset()
    eliminated = s.eliminated
    winners, decided_at = s.winners, s.decided_at
    if s.mode is ScoringMode.CHALLENGE:
        assert s.target is not None
        knocked_out = frozenset(seat for seat in s.active if new_totals[seat] >= s.target)
        eliminated = s.eliminated | knocked_out
        left = [seat for seat in range(s.seats) if seat not in eliminated]
        if len(left) == 1:  # R15d: last one standing, including a head-to-head decider
            winners, decided_at = (left[0],), number
    elif not s.finished and s.target is not None:
        reached = [seat for seat in range(s.seats) if new_totals[seat] >= s.target]
        if reached:
            decided_at = number
            if s.mode is ScoringMode.LOWEST_WINS:  # R15b
                low = min(new_totals)
                winners = tuple(seat for seat in range(s.seats) if new_totals[seat] == low)
            else:
                winners = tuple(sorted({m for seat in reached for m in s.team_of(seat)}))

    hand = HandScore(number, out, points, new_totals, knocked_out)
    return replace(
        s, totals=new_totals, hands=s.hands + (hand,), eliminated=eliminated,
        winners=winners, decided_at=decided_at, played=number,
        out_at=s.out_at + tuple((seat, number) for seat in sorted(knocked_out)),
    )


def score_game(
    mode: ScoringMode,
    seats: int,
    hands: Iterable[HandOutcome],
    target: int | None,
    teams: Sequence[Sequence[int]] | None = None,
    totals: Sequence[int] | None = None,
) -> Standings:
    """Standings after all ``hands``, scored from scratch (or from the starting ``totals``)."""
    return score_hands(new_standings(mode, seats, target, teams, totals), hands)


def score_hands(standings: Standings, hands: Iterable[HandOutcome]) -> Standings:
    """The standings after these further ``hands``; :class:`ScoringError` for a bad one."""
    scores = list(standings.hands)
    for outcome in hands:
        # Each hand scored without the earlier ones' scores, gathered at the end: adding
        # to a tuple copies it, which would make a long game quadratic.
        standings = score_hand(replace(standings, hands=()), outcome)
        scores += standings.hands
    return replace(standings, hands=tuple(scores))


def end_game(standings: Standings) -> Standings:
    """Close a game that has no winner yet (an open tally): the leaders win."""
    if standings.finished:
        return standings
    if not standings.played:
        raise ScoringError("no hand has been played yet")
    return replace(standings, winners=standings.leaders, decided_at=standings.played)


def _next_seat(seat: int, seats: int, skip: frozenset[int]) -> int:
    for step in range(1, seats + 1):
        candidate = (seat + step) % seats
        if candidate not in skip:
            return candidate
    return seat


def _pass_deal(dealer: int, seats: int, skip: frozenset[int], hands: int) -> int:
    """The dealer after the deal passed ``hands`` times, none of them to ``skip`` (R1, R15d)."""
    if hands <= 0:
        return dealer
    dealer = _next_seat(dealer, seats, skip)
    active = [s for s in range(seats) if s not in skip]
    if dealer not in active:
        return dealer
    return active[(active.index(dealer) + hands - 1) % len(active)]


def _opponents(s: Standings, out: int) -> tuple[int, ...]:
    team = s.team_of(out)
    return tuple(seat for seat in s.active if seat not in team)


def _hand_points(
    s: Standings, out: int, opponents: Sequence[int], held: Mapping[int, int]
) -> dict[int, int]:
    if s.mode is ScoringMode.WIN_TALLY:
        return {out: 1}
    if s.mode.charges_holder:  # R15b, R15d: the player who went out holds nothing
        return {out: 0, **{seat: held[seat] for seat in opponents}}
    # R15a, R15c: the player (for partners, the team) who went out scores every
    # opponent's cards; a partner's own cards score nothing.
    return {out: sum(held[seat] for seat in opponents)}
