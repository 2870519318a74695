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

:class:`Game` stands on two layers: :mod:`engine.state`
(:class:`~engine.state.GameState`: the seats, piles and phase, the variant's settings
and hooks, what the app reads, and the moves every rule is made of) and
:mod:`engine.positions` (building a game, saving it as JSON and replaying it). This
module holds the rest: legality, the special cards' phases and the turn machine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .actions import (
    ACCEPT,
    CALLING_PLAYS,
    CHALLENGE,
    COLOR_PLAYS,
    DONE,
    DRAW,
    LEVER,
    PASS,
    PLAIN_PLAYS,
    Action,
    ActionKind,
    BadChoiceError,
    CardNotHeldError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    UnplayableCardError,
)
from .cards import COLORS, Card, Color, Rank
from .events import Event, EventKind, card_name
from .jackpot import LEVER_OUTCOMES, LeverOutcome, spin
from .positions import Positions
from .state import (
    CLASSIC_SECTIONS,
    DIRECTION_WORDS,
    DRAW_OF,
    DRAW_WILDS,
    EFFECT_OF,
    WILD_JACKPOT,
    WILD_SWAP,
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


class Game(Positions):
    """Standard UNO rules (the classic sheet); subclasses are the variants.

    Make a game with :meth:`new` (a shuffled or stacked deck), :meth:`from_position`
    (any moment of a hand) or :meth:`from_json`; then :meth:`legal_actions`,
    :meth:`is_legal` / :meth:`why_illegal` and :meth:`apply` until :attr:`is_over`.
    """

    __slots__ = ()

    def legal_actions(self) -> list[Action]:
        """Every legal action now: the decision of :attr:`to_act`, then UNO calls and
        catches (each naming its actor) and jump-ins (house rule)."""
        phase = self._phase
        out: list[Action] = []
        seat = self._to_act
        if seat is None:  # the hand is over
            return out
        if phase is _P_TURN:
            color = self._color
            rank = self._discard[-1].rank
            # R3: the color in play or the top card's symbol; colorless cards (wilds,
            # blanks) go on anything, naming a color.
            playable: list[Card] = []
            for c in self._hands[seat]:
                if c.color is color or c.rank is rank or c.color is None:
                    playable.append(c)
            seven_o = self._seven_o
            # One action per distinct card; most hands offer one play or none, so the
            # copies are only looked for when there are two.
            for c in dict.fromkeys(playable) if len(playable) > 1 else playable:
                if c.color is None:
                    if c is WILD_SWAP:
                        self._add_plays(seat, c, out)
                    else:
                        out.extend(COLOR_PLAYS[c])
                elif seven_o:
                    self._add_plays(seat, c, out)
                else:
                    out.append(PLAIN_PLAYS[c])
            if self._draw or len(self._discard) > 1:
                out.append(DRAW)
            elif not out:
                out.append(PASS)  # R2: nothing to draw and nothing to play
            if self._jump_in:
                self._add_jumps(seat, out)
        elif phase is _P_DRAWN:
            drawn = self._drawn
            assert drawn is not None
            matches = self._matches(drawn)
            if matches:
                self._add_plays(seat, drawn, out)
            if not (matches and self._forced_play):
                out.append(PASS)
        elif phase is _P_PENDING:
            out.append(ACCEPT)
            top = self._discard[-1]
            if self.challenges and top in DRAW_WILDS:
                out.append(CHALLENGE)
            if self._stack_rule is not None and not self._final:
                for c in dict.fromkeys(self._hands[seat]):
                    if self._stacks_on(c, top):
                        self._add_plays(seat, c, out)
        elif phase is _P_NAME_COLOR:
            out.extend(_COLOR_NAMES)
            if self._discard[-1] is WILD_SWAP:
                out.extend(Action(ActionKind.COLOR, color=col, target=t)
                           for col in COLORS for t in range(self._n) if t != seat)
        elif phase is _P_CHOOSE:
            out.extend(Action(ActionKind.CHOOSE, target=t) for t in range(self._n))
        elif phase is _P_LEVER:
            out.extend(_LEVERS)
        elif phase is _P_DISCARD:
            used = self._jp_colors
            out.extend(Action(ActionKind.DISCARD, c) for c in _distinct(self._hands[seat])
                       if c.color is not None and c.color not in used)
            out.append(DONE)
        elif phase is _P_GIVE:
            out.extend(Action(ActionKind.GIVE, c) for c in _distinct(self._hands[seat]))
        elif phase is _P_DROID:
            last = self._droid_last
            out.extend(Action(ActionKind.LAY, c) for c in _distinct(self._hands[seat])
                       if c.color is not None and c.color is not last)
        if (phase is _P_TURN or phase is _P_DRAWN or phase is _P_PENDING) and self._penalty \
                and len(self._hands[seat]) == 2:
            # R6: the play that leaves one card may call UNO with it (no swap: a swap moves
            # hands, so that call is made on its own afterwards).
            out.extend([c for c in map(CALLING_PLAYS.get, map(id, out)) if c is not None])
        if self._exposed:
            self._add_calls(out)
        self._legal = tuple(out)
        return out

    def _matches(self, c: Card) -> bool:
        # R3: the color in play (named after a wild) or the top card's symbol; wilds anywhere.
        return c.color is self._color or c.rank is self._discard[-1].rank or c.color is None

    def _needs_target(self, seat: int, c: Card) -> bool:
        # Wild Swap Hands (R14: not as the last card) and 7s under 7-0 name a seat.
        return ((c is WILD_SWAP or (self._seven_o and c.rank is Rank.SEVEN))
                and len(self._hands[seat]) > 1)

    def _add_plays(self, seat: int, c: Card, out: list[Action],
                   kind: ActionKind = ActionKind.PLAY, actor: int | None = None) -> None:
        targeted = self._needs_target(seat, c)
        if kind is _K_PLAY and not targeted:
            out.extend(COLOR_PLAYS[c] if c.color is None else (PLAIN_PLAYS[c],))
            return
        key = (kind, c, seat, self._n if targeted else 0, actor)
        actions = _PLAYS_WITH_SEATS.get(key)
        if actions is None:  # the same few actions every time: made once
            others = [t for t in range(self._n) if t != seat] if targeted else [None]
            colors: Sequence[Color | None] = COLORS if c.color is None else (None,)
            actions = _PLAYS_WITH_SEATS[key] = tuple(
                Action(kind, c, col, t, actor) for col in colors for t in others)
        out.extend(actions)

    def _add_jumps(self, seat: int, out: list[Action]) -> None:
        top = self._discard[-1]
        if top.color is None:
            return
        for s in range(self._n):
            if s != seat and top in self._hands[s]:
                self._add_plays(s, top, out, ActionKind.JUMP, s)

    def _add_calls(self, out: list[Action]) -> None:
        n = self._n
        for s in self._exposed:
            if len(self._hands[s]) == 1:
                calls = _CALLS.get((n, s))
                if calls is None:  # the same few actions every time: made once
                    calls = _CALLS[(n, s)] = (Action(ActionKind.UNO, seat=s),) + tuple(
                        Action(ActionKind.CATCH, seat=c, target=s) for c in range(n) if c != s)
                out.extend(calls)

    def _stacks_on(self, c: Card, top: Card) -> bool:
        if self._stack_rule == "same":  # progressive UNO: the same card only
            return c.rank is top.rank
        mine = DRAW_OF.get(c)  # stacking: a draw at least as big
        return mine is not None and mine >= DRAW_OF[top]

    # -- checking an action ----------------------------------------------------------------

    def is_legal(self, action: Action | str) -> bool:
        """True if ``action`` may be applied now."""
        return self._check(_action(action)) is None

    def why_illegal(self, action: Action | str) -> str | None:
        """Why ``action`` may not be applied now, citing the rule; None if it may."""
        error = self._check(_action(action))
        return None if error is None else str(error)

    def _check(self, a: Action) -> IllegalActionError | None:
        if not isinstance(a, Action):  # a caller's bug, not a move: the same in both builds
            raise TypeError(f"an action is an Action or its text, not {a!r}")
        error = self._check_action(a)
        if error is None and a.uno:
            return self._check_calling_play(a)
        return error

    def _check_calling_play(self, a: Action) -> IllegalActionError | None:
        # ``play CARD uno``: the call made as the next-to-last card goes down (R6).
        if a.kind is not _K_PLAY:
            return BadChoiceError(f"'{a.kind.value}' cannot call UNO: only a play can")
        seat = self._to_act
        assert seat is not None
        if self._penalty == 0:
            return UnplayableCardError("no UNO call is needed at this table", "R6")
        if a.target is not None:
            return BadChoiceError("a play that swaps hands cannot call UNO with it: call "
                                  "afterwards with 'uno SEAT'", "R6")
        if len(self._hands[seat]) != 2:
            return UnplayableCardError(
                f"{self.players[seat]} cannot call UNO with this play: only the play that "
                "leaves one card calls with it", "R6")
        return None

    def _check_action(self, a: Action) -> IllegalActionError | None:
        phase = self._phase
        if phase is Phase.OVER:
            return GameOverError("the hand is over")
        kind = a.kind
        carried = _FIELDS_OF[kind]
        for field in _FIELDS:
            if field not in carried and getattr(a, field) is not None:
                return BadChoiceError(f"'{kind.value}' takes no {field}")
        if kind is ActionKind.UNO or kind is ActionKind.CATCH:
            return self._check_call(a)
        if kind is ActionKind.JUMP:
            return self._check_jump(a)
        seat = self._to_act
        assert seat is not None
        who = self.players[seat]
        if phase is Phase.TURN:
            if kind is ActionKind.PLAY:
                return self._check_play(seat, a)
            if kind is ActionKind.DRAW:
                if self._draw or len(self._discard) > 1:
                    return None
                return UnplayableCardError("both piles are exhausted: nothing can be drawn", "R2")
            if kind is ActionKind.PASS:
                if self._draw or len(self._discard) > 1:
                    return UnplayableCardError(
                        f"{who} cannot pass: a player who does not play draws a card", "R2")
                if any(self._matches(c) for c in self._hands[seat]):
                    return UnplayableCardError(
                        f"{who} cannot pass: nothing can be drawn, so a playable card must be "
                        "played", "R2")
                return None
        elif phase is Phase.DRAWN:
            drawn = self._drawn
            assert drawn is not None
            if kind is ActionKind.PLAY:
                if a.card is not drawn:
                    return UnplayableCardError(
                        f"after drawing only the drawn card ({card_name(drawn)}) may be played",
                        "R12")
                return self._check_play(seat, a)
            if kind is ActionKind.PASS:
                if self._forced_play and self._matches(drawn):
                    return UnplayableCardError(
                        "forced play (house rule): the drawn card can be played, so it must be")
                return None
        elif phase is Phase.PENDING:
            if kind is ActionKind.ACCEPT:
                return None
            if kind is ActionKind.CHALLENGE:
                top = self._discard[-1]
                if not self.challenges:
                    return UnplayableCardError(
                        f"a {card_name(top)} cannot be challenged in {self.name}", "R31")
                if top not in DRAW_WILDS:
                    return UnplayableCardError(
                        f"only a draw wild can be challenged, not a {card_name(top)}", "R10")
                return None
            if kind is ActionKind.PLAY:
                top = self._discard[-1]
                if self._stack_rule is None:
                    return UnplayableCardError(
                        f"{who} must draw: draw cards cannot be stacked", "R11")
                if self._final:
                    return UnplayableCardError("the hand is over: the last draw is only taken",
                                               "R5")
                if a.card is None or not self._stacks_on(a.card, top):
                    rule = ("only the same draw card passes the draw on (progressive UNO)"
                            if self._stack_rule == "same" else
                            "only a draw card of the same or a bigger draw passes it on")
                    return UnplayableCardError(f"{who} must draw: {rule}")
                return self._check_play(seat, a)
        elif phase is Phase.NAME_COLOR:
            if kind is ActionKind.COLOR:
                if a.color is None:
                    return BadChoiceError("name a color")
                if a.target is not None:
                    if self._discard[-1] is not WILD_SWAP:
                        return BadChoiceError("only a Wild Swap Hands turned up lets the first "
                                              "player swap hands", "R8")
                    return self._check_seat(a.target, seat, "swap hands with")
                return None
        elif phase is Phase.CHOOSE:
            if kind is ActionKind.CHOOSE:
                return self._check_seat(a.target, None, "perform the rule card")
        elif phase is Phase.LEVER:
            if kind is ActionKind.LEVER:
                return None
        elif phase is Phase.DISCARD:
            if kind is ActionKind.DONE:
                return None
            if kind is ActionKind.DISCARD:
                held = self._check_held(seat, a.card)
                if held is not None:
                    return held
                assert a.card is not None
                if a.card.color is None:
                    return UnplayableCardError("only colored cards can be discarded", "R18")
                if a.card.color in self._jp_colors:
                    return UnplayableCardError(
                        f"a {a.card.color.value} card was already discarded: one per color",
                        "R18")
                return None
        elif phase is Phase.GIVE:
            if kind is ActionKind.GIVE:
                return self._check_held(seat, a.card)
        elif phase is Phase.DROID:  # noqa: SIM102 - one branch per phase, then per kind
            if kind is ActionKind.LAY:
                held = self._check_held(seat, a.card)
                if held is not None:
                    return held
                assert a.card is not None
                if a.card.color is None:
                    return UnplayableCardError("wild cards cannot be laid for a droid", "R36")
                if a.card.color is self._droid_last:
                    return UnplayableCardError(
                        "the droid needs a card of a different color from the last one", "R36")
                return None
        return NotYourTurnError(self._waiting_for(kind))

    def _waiting_for(self, kind: ActionKind) -> str:
        seat = self._to_act
        assert seat is not None
        who = self.players[seat]
        wants = {
            Phase.TURN: f"{who} to play a card or draw",
            Phase.DRAWN: f"{who} to play the drawn card or keep it",
            Phase.PENDING: f"{who} to take the draw" + (
                ", challenge it" if self.challenges and self._discard[-1] in DRAW_WILDS
                else "") + (" or pass it on" if self._stack_rule else ""),
            Phase.NAME_COLOR: f"{who} to name the color",
            Phase.CHOOSE: f"{who} to choose who performs the rule card",
            Phase.LEVER: f"{who} to pull the lever",
            Phase.DISCARD: f"{who} to discard up to one card of each color, or be done",
            Phase.GIVE: f"{who} to give a card to the next player",
            Phase.DROID: f"{who} to lay a card for the droid",
        }[self._phase]
        return f"cannot '{kind.value}' now: the game waits for {wants}"

    def _check_held(self, seat: int, c: Card | None) -> IllegalActionError | None:
        if c is None:
            return BadChoiceError("name a card")
        if c not in self._hands[seat]:
            return CardNotHeldError(f"{self.players[seat]} does not hold {card_name(c)}")
        return None

    def _check_seat(self, target: int | None, not_seat: int | None,
                    what: str) -> IllegalActionError | None:
        if target is None:
            return BadChoiceError(f"name the seat to {what}")
        if not 0 <= target < self._n:
            return BadChoiceError(f"seat {target} is not at this table")
        if target == not_seat:
            return BadChoiceError(f"choose another player to {what}")
        return None

    def _check_play(self, seat: int, a: Action) -> IllegalActionError | None:
        c = a.card
        held = self._check_held(seat, c)
        if held is not None:
            return held
        assert c is not None
        if not self._matches(c):
            top = self._discard[-1]
            color = self._color.value if self._color is not None else "none"
            return UnplayableCardError(
                f"{card_name(c)} matches neither the color in play ({color}) nor the "
                f"{card_name(top)} on top", "R3")
        return self._check_choices(seat, c, a.color, a.target)

    def _check_choices(self, seat: int, c: Card, color: Color | None,
                       target: int | None) -> IllegalActionError | None:
        if c.color is None:
            if color is None:
                return BadChoiceError(f"name a color for the {card_name(c)}")
        elif color is not None:
            return BadChoiceError(f"only a wild names a color, not {card_name(c)}")
        if self._needs_target(seat, c):
            return self._check_seat(target, seat, "swap hands with")
        if target is not None:
            if c is WILD_SWAP:
                return BadChoiceError("a Wild Swap Hands played as the last card ends the hand "
                                      "without a swap", "R14")
            return BadChoiceError(f"{card_name(c)} does not name a seat")
        return None

    def _check_call(self, a: Action) -> IllegalActionError | None:
        s = a.seat if a.kind is ActionKind.UNO else a.target
        bad = self._check_seat(s, None, "call UNO")
        if bad is not None:
            return bad
        assert s is not None
        if self._penalty == 0:
            return UnplayableCardError("no UNO call is needed at this table", "R6")
        if s not in self._exposed or len(self._hands[s]) != 1:
            return UnplayableCardError(
                f"{self.players[s]} does not owe an UNO call now: only a player who got down "
                "to one card, until the next player begins their turn", "R6")
        if a.kind is ActionKind.CATCH:
            bad = self._check_seat(a.seat, s, "catch")
            if bad is not None:
                return bad
        return None

    def _check_jump(self, a: Action) -> IllegalActionError | None:
        if not self._jump_in:
            return UnplayableCardError("jump-in is a house rule this table does not play")
        if self._phase is not _P_TURN:
            return NotYourTurnError("jump-in is only allowed before a player begins their turn")
        bad = self._check_seat(a.seat, self._to_act, "jump in")
        if bad is not None:
            return bad
        assert a.seat is not None
        held = self._check_held(a.seat, a.card)
        if held is not None:
            return held
        top = self._discard[-1]
        if a.card is not top or top.color is None:
            return UnplayableCardError("jump in only with a card identical to the top card "
                                       "(same color and symbol)")
        return self._check_choices(a.seat, top, a.color, a.target)

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
        elif outcome is LeverOutcome.LEFT:  # R1: left is the next seat clockwise
            self._perform(((seat + 1) % n,))
        elif outcome is LeverOutcome.RIGHT:
            self._perform(((seat - 1) % n,))
        else:  # everyone, starting with the lever's player, in the direction of play
            self._perform([(seat + self._direction * k) % n for k in range(n)])
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
        elif kind is _K_COLOR:
            self._do_color(a)
        elif kind is _K_CHOOSE:
            assert a.target is not None
            self._do_choose(a.target)
        elif kind is _K_LEVER:
            self._do_lever(a.lever if a.lever is not None else spin(self._rng))
        elif kind is _K_DISCARD:
            assert a.card is not None
            self._do_discard(a.card)
        elif kind is _K_DONE:
            self._end_discard()
        elif kind is _K_GIVE:
            assert a.card is not None
            self._do_give(a.card)
        elif kind is _K_LAY:
            assert a.card is not None
            self._do_lay(a.card)
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
            self._swap(seat, target, "seven-o")
            self._turn(self._next(seat))
        elif effect is _E_ZERO and self._seven_o:
            self._rotate_hands()
            self._turn(self._next(seat))
        elif effect is _E_SWAP:
            assert target is not None
            self._swap(seat, target, "swap")
            self._turn(self._next(seat))
        elif effect is _E_DIP:
            self._start_dip(seat)
        elif effect is _E_JACKPOT:
            self._start_lever(seat)
        elif effect is _E_DROID:
            self._start_droid(seat)
        else:  # a 7 or 0 without the 7-0 house rule
            self._turn(self._next(seat))

    def _draw_topic(self, c: Card) -> str:
        if self._stack_rule is not None:
            return "stacking" if self._stack_rule == "any" else "progressive"
        return _DRAW_TOPIC[c]

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


#: The optional fields of an action, in the order a misplaced one is reported.
_FIELDS = ("card", "color", "target", "seat", "lever")
#: The fields each kind of action may carry; the others must be None.
_FIELDS_OF: dict[ActionKind, frozenset[str]] = {
    ActionKind.PLAY: frozenset({"card", "color", "target"}),
    ActionKind.DRAW: frozenset(),
    ActionKind.PASS: frozenset(),
    ActionKind.ACCEPT: frozenset(),
    ActionKind.CHALLENGE: frozenset(),
    ActionKind.DONE: frozenset(),
    ActionKind.UNO: frozenset({"seat"}),
    ActionKind.CATCH: frozenset({"target", "seat"}),
    ActionKind.COLOR: frozenset({"color", "target"}),
    ActionKind.GIVE: frozenset({"card"}),
    ActionKind.DISCARD: frozenset({"card"}),
    ActionKind.LAY: frozenset({"card"}),
    ActionKind.LEVER: frozenset({"lever"}),
    ActionKind.CHOOSE: frozenset({"target"}),
    ActionKind.JUMP: frozenset({"card", "color", "target", "seat"}),
}
_COLOR_NAMES: tuple[Action, ...] = tuple(Action(ActionKind.COLOR, color=c) for c in COLORS)
_LEVERS: tuple[Action, ...] = (LEVER,) + tuple(Action(ActionKind.LEVER, lever=o)
                                                for o in LEVER_OUTCOMES)
#: (players, seat) -> "uno seat" and every "catch other seat".
_CALLS: dict[tuple[int, int], tuple[Action, ...]] = {}
#: Plays naming a seat (swaps, 7-0) and jump-ins, by (kind, card, seat, players, actor).
_PLAYS_WITH_SEATS: dict[tuple[ActionKind, Card, int, int, int | None], tuple[Action, ...]] = {}
#: The sheet topic each draw card's events cite.
_DRAW_TOPIC: dict[Card, str] = {
    c: {Rank.DRAW1: "draw1", Rank.DRAW2: "draw2", Rank.WILD_DRAW2: "wd2",
        Rank.WILD_DRAW4: "wd4"}[c.rank] for c in DRAW_OF}
#: Makes an Event without the NamedTuple's Python-level __new__ (see GameState._ev).
_make_event: Any = tuple.__new__

# Enum members are read through a Python-level descriptor on Python 3.11 (about a
# quarter of a microsecond a read): the hot path reads these module-level names instead.
_P_TURN = Phase.TURN
_P_DRAWN = Phase.DRAWN
_P_PENDING = Phase.PENDING
_P_NAME_COLOR = Phase.NAME_COLOR
_P_CHOOSE = Phase.CHOOSE
_P_LEVER = Phase.LEVER
_P_DISCARD = Phase.DISCARD
_P_GIVE = Phase.GIVE
_P_DROID = Phase.DROID
_K_PLAY = ActionKind.PLAY
_K_DRAW = ActionKind.DRAW
_K_PASS = ActionKind.PASS
_K_ACCEPT = ActionKind.ACCEPT
_K_CHALLENGE = ActionKind.CHALLENGE
_K_UNO = ActionKind.UNO
_K_CATCH = ActionKind.CATCH
_K_JUMP = ActionKind.JUMP
_K_COLOR = ActionKind.COLOR
_K_CHOOSE = ActionKind.CHOOSE
_K_LEVER = ActionKind.LEVER
_K_DISCARD = ActionKind.DISCARD
_K_DONE = ActionKind.DONE
_K_GIVE = ActionKind.GIVE
_K_LAY = ActionKind.LAY
_E_SKIP = Effect.SKIP
_E_DRAW = Effect.DRAW
_E_REVERSE = Effect.REVERSE
_E_NUMBER = Effect.NUMBER
_E_WILD = Effect.WILD
_E_SEVEN = Effect.SEVEN
_E_ZERO = Effect.ZERO
_E_SWAP = Effect.SWAP
_E_DIP = Effect.DIP
_E_JACKPOT = Effect.JACKPOT
_E_DROID = Effect.DROID
_V_PLAY = EventKind.PLAY
_V_DRAW = EventKind.DRAW
_V_KEEP = EventKind.KEEP
_V_LOSE_TURN = EventKind.LOSE_TURN
_V_AGAIN = EventKind.AGAIN
_V_REVERSE = EventKind.REVERSE
_V_UNO = EventKind.UNO


def _distinct(cards: Iterable[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _action(action: Action | str) -> Action:
    return Action.parse(action) if isinstance(action, str) else action
