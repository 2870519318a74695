"""The special cards' phases, side by side: a layer of :class:`engine.game.Game`.

A few cards open a decision of their own before play goes on, each a
:class:`~engine.state.Phase`: naming the color of a Wild turned up first (R8,
R19, R23), Wild Jackpot's lever, rule cards and discard (R17-R19), Wild Dip Into
The Deck's give (R24) and Let's Build a Droid (R36). The swaps are here too: Wild
Swap Hands (R14) and the 7-0 house rule. The turn machine
(:meth:`engine.game.Game.apply`) starts each and hands each its action.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action
from .cards import Card
from .events import EventKind
from .jackpot import LeverCall, LeverOutcome
from .legality import Legality
from .state import DIRECTION_WORDS, DRAW_OF, EFFECT_OF, WILD_JACKPOT, WILD_SWAP, Effect, Phase


class SpecialCards(Legality):
    """The phases the special cards open, and the swaps."""

    __slots__ = ()

    # -- a Wild turned up first (R8, R19, R23) -------------------------------------------

    def _do_color(self, a: Action) -> None:
        seat = self._to_act
        assert seat is not None
        top = self._discard[-1]
        topic = "first-swap" if top is WILD_SWAP else (
            "first-jackpot" if top is WILD_JACKPOT else "first-wild")
        self._color = a.color
        self._ev(EventKind.COLOR, seat, topic, color=a.color)
        if a.target is not None:
            self._swap(seat, a.target, "first-swap")
        self._turn(seat)

    # -- swapping hands: Wild Swap Hands (R14) and 7-0 (house rule) ------------------------

    def _swap(self, seat: int, other: int, topic: str) -> None:
        hands = self._hands
        before = (len(hands[seat]), len(hands[other]))
        hands[seat], hands[other] = hands[other], hands[seat]
        self._ev(EventKind.SWAP, seat, topic, target=other)
        for s, was in zip((seat, other), before):
            if len(hands[s]) == 1 and was != 1:
                self._expose(s)

    def _rotate_hands(self) -> None:
        # 7-0 (house rule): every hand passes one seat in the direction of play.
        n, d, hands = self._n, self._direction, self._hands
        before = [len(h) for h in hands]
        self._hands = hands = [hands[(s - d) % n] for s in range(n)]
        self._ev(EventKind.ROTATE, None, "seven-o", note=DIRECTION_WORDS[d])
        for s in range(n):
            if len(hands[s]) == 1 and before[s] != 1:
                self._expose(s)

    # -- Wild Jackpot: the lever, rule cards and the discard (R17-R19) ----------------------

    def _start_lever(self, seat: int) -> None:
        # R18: a Jackpot or Wild Jackpot played: its player pulls the lever.
        self._to_act = seat
        self._phase = _P_LEVER

    def _perform(self, seats: Sequence[int]) -> None:
        texts = self._rules.dispense(self._rng, len(seats))
        for s, text in zip(seats, texts):
            self._ev(EventKind.RULE_CARD, s, "jackpot", note=text)
        if len(texts) < len(seats):
            self._ev(EventKind.NO_RULE_CARD, None, "rules")

    def _do_choose(self, target: int) -> None:
        seat = self._to_act
        assert seat is not None
        topic = "first-jackpot" if self._opening else "jackpot"
        self._ev(EventKind.CHOOSE, seat, topic, target=target)
        self._perform((target,))
        if self._opening:  # R19: then the player left of the dealer plays first
            self._opening = False
            if self._discard[-1] is WILD_JACKPOT:
                self._phase = _P_NAME_COLOR
            else:
                self._turn(seat)
            return
        self._turn(self._next(seat))

    def _do_lever(self, outcome: LeverOutcome) -> None:
        seat = self._to_act
        assert seat is not None
        n = self._n
        self._ev(EventKind.LEVER, seat, "jackpot", note=outcome.words)
        if outcome is LeverOutcome.CHOOSE:
            self._phase = _P_CHOOSE
            return
        if outcome is LeverOutcome.DISCARD:
            self._jp_colors, self._jp_draws, self._jp_skip = [], 0, False
            self._phase = _P_DISCARD
            if not self._can_discard(seat):
                self._end_discard()
            return
        if outcome is LeverOutcome.DRAW4:
            self._draw_cards(seat, 4, "jackpot")
        else:  # left, right (R1: seats) or everyone (from the puller, in the direction of play)
            self._perform(LeverCall(outcome, seat, n, self._direction).performers)
        self._turn(self._next(seat))

    def _can_discard(self, seat: int) -> bool:
        used = self._jp_colors
        return any(c.color is not None and c.color not in used for c in self._hands[seat])

    def _do_discard(self, c: Card) -> None:
        # R18: up to one card of each color; each action card hits the next player.
        seat = self._to_act
        assert seat is not None and c.color is not None
        hand = self._hands[seat]
        hand.remove(c)
        self._discard.append(c)
        self._color = c.color
        self._jp_colors.append(c.color)
        self._ev(EventKind.DISCARD, seat, "jackpot", cards=(c,))
        effect = EFFECT_OF[c]
        if effect is _E_SKIP:
            self._jp_skip = True
        elif effect is _E_DRAW:
            self._jp_draws += DRAW_OF[c]
        elif effect is _E_REVERSE:
            self._direction = -self._direction
            self._ev(EventKind.REVERSE, seat, "reverse", note=DIRECTION_WORDS[self._direction])
            if self._reverse_skips:
                self._jp_skip = True
        if not hand:
            self._went_out(seat)
            if self._jp_draws:
                self._draw_cards(self._next(seat), self._jp_draws, "final")
            self._finish()
            return
        if len(hand) == 1:
            self._expose(seat)
        if not self._can_discard(seat):
            self._end_discard()

    def _end_discard(self) -> None:
        seat = self._to_act
        assert seat is not None
        victim = self._next(seat)
        draws, skip = self._jp_draws, self._jp_skip
        self._jp_colors, self._jp_draws, self._jp_skip = [], 0, False
        if draws:
            self._draw_cards(victim, draws, "jackpot")
        if draws or skip:
            self._ev(EventKind.LOSE_TURN, victim, "jackpot")
            self._turn(self._next(seat, 1))
        else:
            self._turn(victim)

    # -- Wild Dip Into The Deck (R24) ---------------------------------------------------------

    def _start_dip(self, seat: int) -> None:
        # R24: draw one, then give any one card to the next player.
        self._draw_cards(seat, 1, "dip")
        self._to_act = seat
        self._phase = _P_GIVE

    def _do_give(self, c: Card) -> None:
        seat = self._to_act
        assert seat is not None
        receiver = self._next(seat)
        hand = self._hands[seat]
        hand.remove(c)
        self._hands[receiver].append(c)
        self._ev(EventKind.GIVE, seat, "dip", cards=(c,), target=receiver)
        if not hand:
            self._went_out(seat)
            self._finish()
            return
        if len(hand) == 1:
            self._expose(seat)
        self._turn(receiver)  # R24: the next player does not lose their turn

    # -- Let's Build a Droid (R36) --------------------------------------------------------------

    def _start_droid(self, seat: int) -> None:
        self._droid_by = seat
        self._droid_last = None
        self._droid_turn(seat)

    def _droid_turn(self, seat: int) -> None:
        last = self._droid_last
        if any(c.color is not None and c.color is not last for c in self._hands[seat]):
            self._to_act = seat
            self._phase = _P_DROID
            return
        # R36: the first player who cannot lay a card of a new color draws 3.
        by = self._droid_by
        assert by is not None
        self._ev(EventKind.DROID_FAIL, seat, "droid")
        self._draw_cards(seat, 3, "droid")
        for s, laid in enumerate(self._laid):
            if laid:
                self._hands[s].extend(laid)
                laid.clear()
        self._ev(EventKind.DROID_RETURN, None, "droid")
        self._droid_by = None
        self._droid_last = None
        self._turn(self._next(by))

    def _do_lay(self, c: Card) -> None:
        seat = self._to_act
        assert seat is not None
        self._hands[seat].remove(c)
        self._laid[seat].append(c)
        self._droid_last = c.color
        self._ev(EventKind.LAY, seat, "droid", cards=(c,))
        self._droid_turn(self._next(seat))


# Enum members are read through a Python-level descriptor on Python 3.11 (about a
# quarter of a microsecond a read): the hot path reads these module-level names instead.
_P_NAME_COLOR = Phase.NAME_COLOR
_P_CHOOSE = Phase.CHOOSE
_P_LEVER = Phase.LEVER
_P_DISCARD = Phase.DISCARD
_P_GIVE = Phase.GIVE
_P_DROID = Phase.DROID
_E_SKIP = Effect.SKIP
_E_DRAW = Effect.DRAW
_E_REVERSE = Effect.REVERSE
