"""The positions a question sets up: a :class:`Branch` is a position built from what the
scene knows, filled with cards the deck still holds, and the actions played in it; each
way an unknown can turn out is a branch of its own, paid from the question's budget
(:data:`SEARCH_BUDGET`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .. import (
    Action,
    ActionKind,
    Card,
    Color,
    Event,
    Game,
    IllegalActionError,
    Position,
    SetupError,
    card_name,
)
from .scene import KnownHand, SeatRef, TableSetup, color_arg
from .verdict import (
    BadCountError,
    IllegalMoveError,
    ImpossibleSituationError,
    TooManyCopiesError,
    TooOpenError,
)

# -- branches: a position built from what is known, filled with cards the deck still holds --


@dataclass(frozen=True)
class BranchHand:
    known: tuple[Card, ...]
    size: int
    #: Strict limits on the unknown cards: only these, never these.
    only: frozenset[Card] | None = None
    deny: frozenset[Card] = frozenset()

    @property
    def unknown(self) -> int:
        return self.size - len(self.known)


@lru_cache(maxsize=256)
def neutral_order(t: TableSetup, avoid: frozenset[Card]) -> dict[Card, tuple[int, int]]:
    # Filler cards that cannot change a verdict come first: plain numbers (a 7 or a 0
    # only acts when played under 7-0), then colored symbols, then wilds.
    order: dict[Card, tuple[int, int]] = {}
    for i, (c, _) in enumerate(t.deck):
        if c.is_number:
            klass = 1 if c.rank.number in (0, 7) else 0
        else:
            klass = 2 if c.color is not None else 3
        order[c] = (klass + (10 if c in avoid else 0), i)
    return order


@lru_cache(maxsize=256)
def _filler_order(t: TableSetup, avoid: frozenset[Card]) -> tuple[Card, ...]:
    """Each card of the deck once, in the order filler is taken (see :func:`neutral_order`)."""
    order = neutral_order(t, avoid)
    return tuple(sorted(order, key=order.__getitem__))


@lru_cache(maxsize=64)
def rule_hooks(t: TableSetup) -> Game:
    """A hand of this table's game, dealt once and never played: only the variant's rule
    hooks (``bluff_card``) are asked of it."""
    return t.variant.new(list(t.names), options=t.options, seed=0)


#: Filler cards left on the draw pile: more than any one dispute draws, few enough that
#: setting a position up stays cheap (the rest of the deck is deeper in the discard pile).
_DRAW_PILE = 40


#: The work one question may do: each position it sets up counts one, and each action
#: played in it one more (what a position costs, and how long its verdict's steps are).
#: Each way an unknown card or a choice can turn out is another position, and ten unknown
#: hands at a droid are millions of ways: past the budget the referee says what it
#: settled and what to tell it (``Verdict.too_open``). Counted, not timed, so the same
#: question always gets the same answer. The most a dispute of the tests needs is 88 (a
#: Wild Draw 2 challenged on an unknown card under it); the most open question costs
#: about 15 ms and 120 KB of JSON.
SEARCH_BUDGET = 200

#: The most work a question may do on top of :data:`SEARCH_BUDGET` when a wild is played
#: with no color named: the color is its player's choice, and the three colors after the
#: first are played out too, each at most what the first cost (a Wild Draw 2 challenged
#: on an unknown card under it, the most a dispute of the tests needs, costs 88 for each
#: color); where the first is past the budget, the others are not followed. About 40 ms
#: at the most.
COLOR_BUDGET = 270


class Budget:
    """The work a question may still do (one budget for all the scenes of one question:
    a branch derived from another shares it)."""

    def __init__(self) -> None:
        self.left = SEARCH_BUDGET

    def spend(self, scene: Branch) -> None:
        self.pay(1 + len(scene.prelude), lambda: narrowed(scene))

    def pay(self, cost: int, narrow: str | Callable[[], str]) -> None:
        """Pay ``cost`` (a position played on from a copy of a game already set up costs
        one); past the budget, :class:`TooOpenError` says to tell the referee ``narrow``
        (worded only then, where it is a function)."""
        self.left -= cost
        if self.left < 0:
            raise TooOpenError(narrow if isinstance(narrow, str) else narrow())

    def afford(self, cost: int, narrow: str) -> None:
        """Pay ``cost`` for work counted before it is done; where it is more than is left,
        nothing is paid (what else the question asks may still be settled) and
        :class:`TooOpenError` says to tell the referee ``narrow``."""
        if cost > self.left:
            raise TooOpenError(narrow)
        self.pay(cost, narrow)


def narrowed(scene: Branch, fallback: str = "more of what happened") -> str:
    """What to tell the referee to narrow an open question: the first hands it does not
    know, from the seat acting, in the direction of play."""
    t = scene.table
    order = [(scene.to_act + scene.direction * i) % t.n for i in range(t.n)]
    unknown = [t.name(s) for s in order if scene.hands[s].unknown > 0][:2]
    if not unknown:
        return fallback
    if len(unknown) == 1:
        return f"{unknown[0]}'s hand"
    return f"{unknown[0]}'s and {unknown[1]}'s hands"


@dataclass(frozen=True)
class Branch:
    """A position (hands known or counted, the discard pile, the known top of the draw
    pile) and the actions applied to it; :meth:`run` builds and plays it."""

    table: TableSetup
    hands: tuple[BranchHand, ...]
    discard: tuple[Card, ...]
    color: Color | None
    direction: int = 1
    to_act: int = 0
    draw_top: tuple[Card, ...] = ()
    prelude: tuple[Action, ...] = ()
    #: Cards filler should avoid where it can (a copy of the card just played...).
    avoid: frozenset[Card] = frozenset()
    #: Whether the table gave the card under the play and the color in play, or the
    #: referee chose them (a draw wild's challenge may hang on them).
    under_given: bool = True
    color_given: bool = True
    #: Cards on the draw pile, where the table said (the rest of the deck is then under
    #: the top card of the discard pile, R2); else :data:`_DRAW_PILE` filler cards.
    draw_pile: int | None = None
    #: Rule cards still in the Wild Jackpot unit, where the table said (R17).
    rule_cards: int | None = None
    budget: Budget = field(default_factory=Budget, compare=False, repr=False)

    def then(self, *actions: Action) -> Branch:
        return replace(self, prelude=self.prelude + actions)

    def with_hand(self, seat: int, extra: Sequence[Card] = (), *, size: int | None = None,
                  only: frozenset[Card] | None = None,
                  deny: frozenset[Card] | None = None) -> Branch:
        h = self.hands[seat]
        new = BranchHand(h.known + tuple(extra), h.size if size is None else size,
                    h.only if only is None else only, h.deny if deny is None else deny)
        if new.unknown < 0:
            raise BadCountError(f"{self.table.name(seat)} cannot hold that many cards")
        return replace(self, hands=self.hands[:seat] + (new,) + self.hands[seat + 1:])

    def remaining(self) -> Counter[Card]:
        """Cards of the deck nobody has named (the pool the filler comes from)."""
        left = dict(self.table.holds)  # (every position a dispute sets up asks this)
        for cards in (self.discard, self.draw_top, *(h.known for h in self.hands)):
            for c in cards:
                copies = left.get(c, 0) - 1
                if copies < 0:
                    raise TooManyCopiesError("more copies of a card are named than the deck "
                                             "holds")
                left[c] = copies
        return Counter({c: k for c, k in left.items() if k})

    def build(self) -> Game:
        t = self.table
        left = self.remaining()
        pool = [c for c in _filler_order(t, self.avoid) for _ in range(left[c])]
        hands: list[list[Card]] = [list(h.known) for h in self.hands]
        # Hands with strict limits are filled first, so they find the cards they need.
        for seat in sorted(range(t.n), key=lambda s: self.hands[s].only is None):
            h = self.hands[seat]
            unknown = h.unknown
            if unknown < 0:
                raise BadCountError(f"{t.name(seat)} holds more cards than counted")
            if h.only is None and not h.deny:
                # No limits: the first cards of the pool (most hands; every position a
                # question sets up fills them), taken as the loop below takes them.
                taken = list(range(min(unknown, len(pool))))
            else:
                taken = []
                for i, c in enumerate(pool):
                    if len(taken) == unknown:
                        break
                    if (h.only is None or c in h.only) and c not in h.deny:
                        taken.append(i)
            if len(taken) < unknown:
                raise BadCountError(
                    f"the {t.variant.name} deck has too few cards left for "
                    f"{t.name(seat)}'s {h.size} cards")
            for i in reversed(taken):
                hands[seat].append(pool.pop(i))
        discard, draw = list(self.discard), [*self.draw_top, *pool[:_DRAW_PILE]]
        if self.draw_pile is not None:
            extra = self.draw_pile - len(self.draw_top)
            draw = [*self.draw_top, *pool[:extra]]
            discard = [*pool[extra:], *self.discard]  # under the top card (R2)
        try:
            return t.variant.from_position(Position(
                t.variant.name, t.names, tuple(map(tuple, hands)), tuple(discard), tuple(draw),
                self.color, self.direction, self.to_act, options=t.options,
                rule_cards_left=self.rule_cards))
        except SetupError as exc:
            raise ImpossibleSituationError(str(exc)) from None

    def run(self) -> tuple[Game, list[Event]]:
        """The position built and the prelude played, paid from the question's budget
        (:class:`TooOpenError` past it)."""
        self.budget.spend(self)
        game = self.build()
        events: list[Event] = []
        for a in self.prelude:
            try:
                events.extend(game.apply(a))
            except IllegalActionError as exc:
                raise IllegalMoveError(str(exc), exc.rule) from None
        return game, events




def check_copies(t: TableSetup, named: Iterable[tuple[str, Card]]) -> None:
    """Refuse more copies of a card than the deck holds, counting every card named."""
    where: dict[Card, list[str]] = {}
    for place, c in named:
        where.setdefault(c, []).append(place)
    deck = t.holds
    for c, places in where.items():
        if len(places) > deck.get(c, 0):
            spots = ", ".join(dict.fromkeys(places))
            raise TooManyCopiesError(
                f"{card_name(c)} is named {len(places)} times ({spots}), but the "
                f"{t.variant.name} deck has {deck.get(c, 0)}")


def make_branch(t: TableSetup, player: int, mine: KnownHand, others: Mapping[int, KnownHand], *,
           discard: Sequence[Card], color: Color | None, direction: int,
           draw_top: Sequence[Card] = (), avoid: Iterable[Card] = ()) -> Branch:
    """A branch with ``player`` to act; seats not in ``others`` hold a deal's worth of
    unknown cards."""
    hands = []
    for s in range(t.n):
        k, n = mine if s == player else others.get(s, ([], t.variant.hand_size))
        if n < len(k):
            raise BadCountError(f"{t.name(s)} cannot hold {n} cards and show {len(k)}")
        if n == 0 and s != player:
            raise ImpossibleSituationError(
                f"{t.name(s)} holds no cards: the hand would be over already")
        hands.append(BranchHand(tuple(k), n))
    check_copies(t, [*((f"{t.name(s)}'s hand", c) for s, h in enumerate(hands)
                        for c in h.known),
                      *(("the discard pile", c) for c in discard),
                      *(("the cards drawn", c) for c in draw_top)])
    total = sum(h.size for h in hands) + len(discard) + len(draw_top)
    deck = sum(n for _, n in t.deck)
    if total > deck:
        raise BadCountError(f"these hands need {total} cards; the {t.variant.name} deck has "
                            f"{deck}")
    return Branch(t, tuple(hands), tuple(discard), color, direction, player, tuple(draw_top),
                  avoid=frozenset(avoid))


def play_branch(t: TableSetup, player: int, card: Card, *, others: Mapping[int, KnownHand],
                hand: KnownHand | None = None, direction: int, top: Card | None,
                color: Color | None, named: Color | str | None = None,
                target: SeatRef | None = None, draw_top: Sequence[Card] = ()
                ) -> tuple[Branch, list[Action]]:
    """The branch just before ``player`` plays ``card``, and the engine's legal plays of it.

    ``hand`` is the player's hand (the card added if missing); without it, ``others``
    may give it, else a deal's worth of cards. Without ``top`` the card is played on a
    card it can go on (the engine says which). ``top`` and ``color`` are the scene's,
    checked already.
    """
    top_card, col = top, color
    rest = {s: h for s, h in others.items() if s != player}
    known, size = hand if hand is not None else others.get(player, ([], t.variant.hand_size))
    mine = list(known) if card in known else [card, *known]
    # A hand given card by card gains the card if it was left out; a count includes it.
    size = len(mine) if len(known) == size and card not in known else max(size, len(mine))
    named_color = color_arg(named, "the color named") if named is not None else None
    target_seat = t.seat(target, "the seat to swap with") if target is not None else None
    if top_card is not None:
        scene = make_branch(t, player, (mine, size), rest, discard=[top_card], color=col,
                       direction=direction, draw_top=draw_top, avoid=[card])
        return scene, legal_plays(t, scene, scene.build(), card, named_color, target_seat)
    base = make_branch(t, player, (mine, size), rest, discard=[], color=col, direction=direction,
                  draw_top=draw_top, avoid=[card])
    order = neutral_order(t, frozenset([card]))
    want = col or card.color

    def rank(c: Card) -> tuple[int, tuple[int, int]]:
        return (0 if c.color is want and c.rank is not card.rank else
                1 if c.color is want else 2 if c.rank is card.rank else 3, order[c])

    candidates = [c for c in base.remaining()
                  if c.color is not None and (col is None or c.color is col)]
    for candidate in sorted(candidates, key=rank):
        scene = replace(base, discard=(candidate,), color=candidate.color)
        game = scene.build()
        if any(a.kind is ActionKind.PLAY and a.card is card for a in game.legal_actions()):
            scene = replace(scene, under_given=False, color_given=col is not None)
            return scene, legal_plays(t, scene, game, card, named_color, target_seat)
    raise ImpossibleSituationError(
        f"{card_name(card)} cannot be played on any card with "
        f"{col.value if col else 'any color'} in play (R3)")


def legal_plays(t: TableSetup, scene: Branch, game: Game, card: Card, named: Color | None,
                 target: int | None) -> list[Action]:
    plays = plays_of(game, card, named, target)
    if not plays:
        who = t.name(scene.to_act)
        reason, _ = refusal(game, Action.play(
            card, (named or game.current_color) if card.color is None else None, target))
        raise ImpossibleSituationError(f"{who} cannot play {card_name(card)} here: {reason}")
    return plays


def plays_of(game: Game, card: Card, named: Color | None, target: int | None) -> list[Action]:
    """The engine's legal plays of ``card`` (one per seat it may name), naming ``named``
    (for a wild; by default the color in play)."""
    out = []
    for a in game.legal_actions():
        if a.kind is not ActionKind.PLAY or a.card is not card or a.uno:
            continue
        if card.color is None and a.color is not (named or game.current_color):
            continue
        if target is not None and a.target != target:
            continue
        out.append(a)
    return out


def refusal(game: Game, action: Action) -> tuple[str, str]:
    """Why the engine refuses ``action``: its reason (without the ruling) and the ruling."""
    try:
        game.apply(action)
    except IllegalActionError as exc:
        text = str(exc)
        if exc.rule and text.endswith(f" ({exc.rule})"):
            text = text[: -len(exc.rule) - 3]
        return text, exc.rule
    raise ImpossibleSituationError("the referee expected the engine to refuse this")

