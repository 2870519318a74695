"""The standard game model. Each variant in :mod:`engine.variants` subclasses
:class:`Game`, sets a few class-level settings and overrides a few hooks.

The base class plays the classic sheet; a variant changes only what its sheet
changes. A hand runs as a small state machine: :attr:`Game.phase` says what the
game waits for and :attr:`Game.to_act` who decides it.

>>> from engine import find_variant
>>> game = find_variant("classic").from_position(
...     ["red-7 red-2", "blue-3 green-5"], discard_pile="red-5", draw_pile="yellow-1 yellow-2")
>>> [a.text for a in game.legal_actions()]
['play red-7', 'play red-2', 'draw', 'play red-7 uno', 'play red-2 uno']
>>> [e.text for e in game.apply("play red-7")]
['Player 1 plays red 7 (R3; classic sheet, Gameplay)']
>>> [a.text for a in game.legal_actions()]
['draw', 'uno 0', 'catch 1 0']

:class:`Game` is built in layers, one module each, every layer a subclass of the
one before; a layer uses only what the layers under it define:

1. :mod:`engine.state`: :class:`~engine.state.GameState`, the seats, piles and
   phase, the variant's settings and hooks, what the app reads, and the moves
   every rule is made of (events, drawing, passing the turn, the end of the hand);
2. :mod:`engine.positions`: building a game (the deal, the first card, any
   position), saving it as JSON and replaying it;
3. :mod:`engine.legality`: the legal actions, and why an action is illegal;
4. :mod:`engine.specials`: the phases the special cards open (the Wild Jackpot
   lever, Dip's give, the droid) and the swaps;
5. this module: the turn machine, :meth:`Game.apply` and its ordinary cards.

They stack in one line rather than mix in because mypyc, which compiles the
engine (setup.py), compiles single inheritance only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Self

from .actions import Action, ActionKind
from .card_facts import DRAW_TOPIC
from .cards import Card, Color, Rank
from .events import Event, EventKind, card_name
from .legality import Legality
from .options import TableOptions
from .phases import NameColor, SpecialPhase
from .state import (
    CLASSIC_SECTIONS,
    DIRECTION_WORDS,
    DRAW_OF,
    DRAW_WILDS,
    EFFECT_OF,
    Effect,
    HandNotOverError,
    HandResult,
    NoPointsError,
    Phase,
    SetupError,
)

# Importable from here as before the split: the variants, the app and the tests use them.
__all__ = ["CLASSIC_SECTIONS", "Game", "HandNotOverError", "HandResult", "NoPointsError",
           "Phase", "SetupError"]


class Game(Legality):
    """Standard UNO rules (the classic sheet); subclasses are the variants.

    Make a game with :meth:`new` (a shuffled or stacked deck), :meth:`from_position`
    (any moment of a hand) or :meth:`from_json`; then :meth:`legal_actions`,
    :meth:`is_legal` / :meth:`why_illegal` and :meth:`apply` until :attr:`is_over`.
    """

    __slots__ = ()

    #: Classic's deck has one special phase: a Wild turned up first (R8).
    special_phases: ClassVar[tuple[type[SpecialPhase], ...]] = (NameColor,)

    @classmethod
    def replay(cls, setup: Mapping[str, Any] | int, actions: Iterable[Action | str], *,
               players: int | Sequence[str] | None = None,
               options: TableOptions | None = None, dealer: int = 0) -> Self:
        """The game reached from a start and a list of actions.

        ``setup`` is :attr:`setup`, a :meth:`to_json` dict (its start is used, not
        its current state) or, called on a variant, just a seed with ``players``.
        Same start and same actions always give the same game.
        """
        game = cls._replay_start(setup, players=players, options=options, dealer=dealer)
        for a in actions:
            game.apply(a)
        return game

    def apply(self, action: Action | str) -> list[Event]:
        """Apply a legal action and return what happened.

        Raises :class:`~engine.actions.IllegalActionError` (a subclass per cause) for an
        illegal action, leaving the game unchanged.
        """
        a = Action.parse(action) if isinstance(action, str) else action
        legal = self._legal
        for x in legal or ():  # handed out by legal_actions() since the last change: legal
            if x is a:
                break
        else:
            error = self._check(a)
            if error is not None:
                raise error
        self._legal = None
        events: list[Event] = []
        self._events = events
        kind = a.kind
        if kind is _K_PLAY:
            seat = self._to_act
            assert seat is not None and a.card is not None
            if self._exposed and self._phase is _P_TURN:
                self._exposed.clear()  # R6: this player begins their turn
            self._play(seat, a.card, a.color, a.target, a.uno)
        elif kind is _K_DRAW:
            self._do_draw()
        elif kind is _K_PASS:
            self._do_pass()
        elif kind is _K_ACCEPT:
            self._do_accept()
        elif kind is _K_CHALLENGE:
            self._do_challenge()
        elif kind is _K_UNO:
            assert a.seat is not None
            self._exposed.remove(a.seat)
            self._ev(_V_UNO, a.seat, "uno")
        elif kind is _K_CATCH:
            assert a.seat is not None and a.target is not None
            self._exposed.remove(a.target)
            self._ev(EventKind.CATCH, a.seat, "uno", target=a.target)
            self._draw_cards(a.target, self._penalty, "uno", "the penalty for not calling UNO")
        elif kind is _K_JUMP:
            assert a.seat is not None and a.card is not None
            self._exposed.clear()
            self._ev(EventKind.JUMP, a.seat, "jump-in", cards=(a.card,))
            self._to_act = a.seat
            self._play(a.seat, a.card, a.color, a.target)
        else:  # a special card's phase carries out its own actions
            phase = self._phase
            self._specials[phase].apply(self, phase, a)
        self.history.append(a)
        return events

    # -- playing a card ----------------------------------------------------------------------

    def _play(self, seat: int, c: Card, color: Color | None, target: int | None,
              calls: bool = False) -> None:
        hand = self._hands[seat]
        hand.remove(c)
        guilty = False
        if c in DRAW_WILDS and self.challenges:
            guilty = self.bluffed(hand, self._color, self._discard[-1])
        self._discard.append(c)
        self._color = c.color if c.color is not None else color
        rule, source = self._play_cite
        self._events.append(_make_event(Event, (_V_PLAY, seat, rule, source, self.players, 0,
                                                (c,), color, None, "")))
        if len(hand) < 2:
            if not hand:
                self._go_out(seat, c)
                return
            if calls:  # R6: called as the card went down, so nobody can catch it
                if seat in self._exposed:
                    self._exposed.remove(seat)
                self._ev(_V_UNO, seat, "uno")
            else:
                self._expose(seat)
        effect = EFFECT_OF[c]
        if effect is _E_NUMBER:
            self._to_act = (seat + self._direction) % self._n
            self._phase = _P_TURN
        elif effect is _E_DRAW:
            self._draw_card_played(seat, c, guilty)
        elif effect is _E_SKIP:
            self._ev(_V_LOSE_TURN, self._next(seat), "skip")
            self._turn(self._next(seat, 1))
            if self._n == 2:
                self._ev(_V_AGAIN, seat, "two")
        elif effect is _E_REVERSE:
            self._direction = -self._direction
            self._ev(_V_REVERSE, seat, "reverse", note=DIRECTION_WORDS[self._direction])
            if self._reverse_skips:  # R13
                self._ev(_V_AGAIN, seat, "two")
                self._turn(seat)
            else:
                self._turn(self._next(seat))
        elif effect is _E_WILD:
            self._turn(self._next(seat))
        elif effect is _E_SEVEN and self._seven_o:
            assert target is not None
            self.swap_hands(seat, target, "seven-o")
            self._turn(self._next(seat))
        elif effect is _E_ZERO and self._seven_o:
            self._rotate_hands()
            self._turn(self._next(seat))
        elif effect is _E_SWAP:
            assert target is not None
            self.swap_hands(seat, target, "swap")
            self._turn(self._next(seat))
        elif effect is _E_SEVEN or effect is _E_ZERO:  # a 7 or 0 without the 7-0 house rule
            self._turn(self._next(seat))
        else:  # Dip, Jackpot, the droid: the card's phase starts
            self._special_on_play[effect].on_play(self, seat)

    def _draw_topic(self, c: Card) -> str:
        if self._stack_rule is not None:
            return "stacking" if self._stack_rule == "any" else "progressive"
        return DRAW_TOPIC[c]

    def _draw_card_played(self, seat: int, c: Card, guilty: bool) -> None:
        k = DRAW_OF[c]
        victim = self._next(seat)
        if self._stack_rule is not None or (c in DRAW_WILDS and self.challenges):
            # The next player decides: take it, challenge a draw wild, or stack (house rule).
            self._pending += k
            self._pending_from = seat
            self._guilty = guilty
            self._to_act = victim
            self._phase = _P_PENDING
            if self._stack_rule is not None:
                self._ev(EventKind.STACK, seat, self._draw_topic(c), self._pending,
                         target=victim)
            return
        topic = self._draw_topic(c)
        self._draw_cards(victim, k, topic)
        self._ev(_V_LOSE_TURN, victim, topic)
        self._turn(self._next(seat, 1))
        if self._n == 2:
            self._ev(_V_AGAIN, seat, "two")

    def _go_out(self, seat: int, c: Card) -> None:
        self._went_out(seat)
        k = DRAW_OF.get(c)
        if k is not None:
            # R5: a draw card played last still makes the next player draw.
            victim = self._next(seat)
            total = self._pending + k
            if c in DRAW_WILDS and self.challenges:
                # The challenge is allowed but always fails: no other card was held.
                self._pending, self._pending_from = total, seat
                self._guilty, self._final = False, True
                self._to_act, self._phase = victim, _P_PENDING
                return
            self._draw_cards(victim, total, "final")
        self._finish()

    # -- drawing, passing, and a draw card's victim ---------------------------------------------

    def _do_draw(self) -> None:
        seat = self._to_act
        assert seat is not None
        if self._exposed:
            self._exposed.clear()  # R6: drawing begins this player's turn
        if self._until_playable:
            got: list[Card] = []
            while True:
                c = self._take(seat)
                if c is None:
                    break
                got.append(c)
                if self._matches(c):
                    break
            self._ev(_V_DRAW, seat, "draw-until", len(got), tuple(got))
            last = got[-1] if got else None
        else:
            draw = self._draw
            if not draw:  # drawing is legal, so the reshuffle refills this same list (R2)
                self._reshuffle()
            last = draw.pop()
            self._hands[seat].append(last)
            self._ev(_V_DRAW, seat, "draw", 1, (last,))
        if (last is None or not self.may_play_drawn_card
                or not (last.color is self._color or last.rank is self._discard[-1].rank
                        or last.color is None)):
            # R12: only the drawn card could be played, and it cannot; R29: never that turn.
            self._ev(_V_KEEP, seat, "after-draw")
            self._to_act = (seat + self._direction) % self._n
            self._phase = _P_TURN
            return
        self._drawn = last
        self._phase = _P_DRAWN

    def _do_pass(self) -> None:
        seat = self._to_act
        assert seat is not None
        if self._phase is _P_DRAWN:
            self._ev(_V_KEEP, seat, "after-draw")
            self._drawn = None
        else:
            self._exposed.clear()
            self._ev(EventKind.PASS, seat, "pass", note="nothing can be drawn or played")
        self._turn(self._next(seat))

    def _do_accept(self) -> None:
        seat = self._to_act
        assert seat is not None
        topic = "final" if self._final else self._draw_topic(self._discard[-1])
        self._draw_cards(seat, self._pending, topic)
        if self._final:
            self._finish()
            return
        source = self._pending_from
        self._pending, self._pending_from, self._guilty = 0, None, False
        self._ev(_V_LOSE_TURN, seat, topic)
        self._turn(self._next(seat))
        if self._n == 2 and source == self._to_act:
            self._ev(_V_AGAIN, source, "two")

    def _do_challenge(self) -> None:
        seat = self._to_act
        accused = self._pending_from
        assert seat is not None and accused is not None
        top = self._discard[-1]
        topic = "wd2" if top.rank is Rank.WILD_DRAW2 else "wd4"
        total = self._pending
        self._ev(EventKind.CHALLENGE, seat, topic, cards=(top,), target=accused)
        self._pending, self._pending_from = 0, None
        if self._guilty and not self._final:
            self._guilty = False
            self._ev(EventKind.GUILTY, seat, topic, target=accused, note=self.bluff_words)
            self._draw_cards(accused, total, topic, f"their {card_name(top)} was illegal")
            # R4: the challenger takes their turn, with the color the wild's player named.
            self._ev(EventKind.TAKES_TURN, seat, "challenge-won",
                     note="a successful challenge does not cost it")
            self._turn(seat)
            return
        self._guilty = False
        self._ev(EventKind.INNOCENT, seat, "final" if self._final else topic, target=accused,
                 note="held no card that would have made it illegal")
        self._draw_cards(seat, total + 2, "final" if self._final else topic,
                         "their challenge failed")
        if self._final:
            self._finish()
            return
        self._ev(_V_LOSE_TURN, seat, topic)
        self._turn(self._next(seat))
        if self._n == 2:
            self._ev(_V_AGAIN, accused, "two")

    # -- the end of the hand ---------------------------------------------------------------

    def hand_result(self) -> HandResult:
        """Who went out, the cards everyone else holds and their points (R5 draws included).

        Raises :class:`HandNotOverError` while the hand goes on.
        """
        if self._phase is not Phase.OVER or self._winner is None:
            raise HandNotOverError("the hand is not over yet")
        out = self._winner
        held = {s: tuple(h) for s, h in enumerate(self._hands) if s != out}
        points = ({s: self.hand_points(h, self.options) for s, h in held.items()}
                  if self.has_points() else None)
        return HandResult(out, held, points)



# Enum members are read through a Python-level descriptor on Python 3.11 (about a
# quarter of a microsecond a read): the hot path reads these module-level names instead.
_P_TURN = Phase.TURN
_P_DRAWN = Phase.DRAWN
_P_PENDING = Phase.PENDING
_K_PLAY = ActionKind.PLAY
_K_DRAW = ActionKind.DRAW
_K_PASS = ActionKind.PASS
_K_ACCEPT = ActionKind.ACCEPT
_K_CHALLENGE = ActionKind.CHALLENGE
_K_UNO = ActionKind.UNO
_K_CATCH = ActionKind.CATCH
_K_JUMP = ActionKind.JUMP
_E_NUMBER = Effect.NUMBER
_E_DRAW = Effect.DRAW
_E_SKIP = Effect.SKIP
_E_REVERSE = Effect.REVERSE
_E_WILD = Effect.WILD
_E_SEVEN = Effect.SEVEN
_E_ZERO = Effect.ZERO
_E_SWAP = Effect.SWAP
_V_PLAY = EventKind.PLAY
_V_DRAW = EventKind.DRAW
_V_KEEP = EventKind.KEEP
_V_LOSE_TURN = EventKind.LOSE_TURN
_V_AGAIN = EventKind.AGAIN
_V_REVERSE = EventKind.REVERSE
_V_UNO = EventKind.UNO
#: Makes an Event without the NamedTuple's Python-level __new__ (see GameState._ev).
_make_event: Any = tuple.__new__
