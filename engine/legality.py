"""Legality: a layer of :class:`engine.game.Game`.

:meth:`Legality.legal_actions` lists what may be done now; :meth:`Legality.is_legal`
and :meth:`Legality.why_illegal` judge one action, the reason citing its rule. Every
check of every phase is here, so :meth:`engine.game.Game.apply` only carries
actions out.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import (
    ACCEPT,
    CALLING_PLAYS,
    CHALLENGE,
    COLOR_PLAYS,
    DRAW,
    PASS,
    PLAIN_PLAYS,
    Action,
    ActionKind,
    BadChoiceError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    UnplayableCardError,
)
from .cards import COLORS, Card, Color, Rank
from .events import card_name
from .positions import Positions
from .state import DRAW_OF, DRAW_WILDS, WILD_SWAP, Phase


class Legality(Positions):
    """What may be done now: :meth:`legal_actions`, :meth:`is_legal`, :meth:`why_illegal`."""

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
        else:  # a special card's phase answers for itself
            self._specials[phase].legal(self, phase, seat, out)
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
        else:  # a special card's phase answers for itself
            return self._specials[phase].check(self, phase, seat, a)
        return self.not_now(kind)

    def _check_play(self, seat: int, a: Action) -> IllegalActionError | None:
        c = a.card
        held = self.check_held(seat, c)
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
            return self.check_seat(target, seat, "swap hands with")
        if target is not None:
            if c is WILD_SWAP:
                return BadChoiceError("a Wild Swap Hands played as the last card ends the hand "
                                      "without a swap", "R14")
            return BadChoiceError(f"{card_name(c)} does not name a seat")
        return None

    def _check_call(self, a: Action) -> IllegalActionError | None:
        s = a.seat if a.kind is ActionKind.UNO else a.target
        bad = self.check_seat(s, None, "call UNO")
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
            bad = self.check_seat(a.seat, s, "catch")
            if bad is not None:
                return bad
        return None

    def _check_jump(self, a: Action) -> IllegalActionError | None:
        if not self._jump_in:
            return UnplayableCardError("jump-in is a house rule this table does not play")
        if self._phase is not _P_TURN:
            return NotYourTurnError("jump-in is only allowed before a player begins their turn")
        bad = self.check_seat(a.seat, self._to_act, "jump in")
        if bad is not None:
            return bad
        assert a.seat is not None
        held = self.check_held(a.seat, a.card)
        if held is not None:
            return held
        top = self._discard[-1]
        if a.card is not top or top.color is None:
            return UnplayableCardError("jump in only with a card identical to the top card "
                                       "(same color and symbol)")
        return self._check_choices(a.seat, top, a.color, a.target)


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
#: (players, seat) -> "uno seat" and every "catch other seat".
_CALLS: dict[tuple[int, int], tuple[Action, ...]] = {}
#: Plays naming a seat (swaps, 7-0) and jump-ins, by (kind, card, seat, players, actor).
_PLAYS_WITH_SEATS: dict[tuple[ActionKind, Card, int, int, int | None], tuple[Action, ...]] = {}

# Enum members are read through a Python-level descriptor on Python 3.11 (about a
# quarter of a microsecond a read): the hot path reads these module-level names instead.
_P_TURN = Phase.TURN
_P_DRAWN = Phase.DRAWN
_P_PENDING = Phase.PENDING
_K_PLAY = ActionKind.PLAY


def _action(action: Action | str) -> Action:
    return Action.parse(action) if isinstance(action, str) else action
