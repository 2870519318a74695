"""The special cards, step by step: :func:`wild_dip`, :func:`swap_hands`,
:func:`seven_zero`, :func:`jump_in` and :func:`build_droid`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from .. import Action, ActionKind, Card, Color, EventKind, Phase, Rank, TableOptions, card_name
from .checks import play_verdict
from .resolve import resolve_scene, undecided_visit
from .scene import (
    Cards,
    HandLike,
    SeatRef,
    Table,
    VariantLike,
    counts_arg,
    direction_arg,
    hand_arg,
    make_scene,
    make_table,
    play_scene,
    refusal,
)
from .verdict import IllegalMoveError, ImpossibleSituationError, UnknownCardError, Verdict
from .wording import cap

# -- special cards, step by step ------------------------------------------------------------


def _special(t: Table, text: str) -> Card:
    """The deck's one card of this text (a Wild Dip, a Wild Swap Hands, a Droid)."""
    c = Card.parse(text)
    if t.holds.get(c, 0) == 0:
        raise UnknownCardError(f"{card_name(c)} is not in this {t.variant.name} deck")
    return c


def wild_dip(variant: VariantLike, seats: Sequence[str] | int, player: SeatRef,
             named: Color | str | None = None, *, drawn: Card | str | None = None,
             give: Card | str | None = None, hand: HandLike | None = None,
             direction: int | str = 1, top: Card | str | None = None,
             color: Color | str | None = None, counts: Mapping[SeatRef, HandLike] | None = None,
             options: TableOptions | None = None) -> Verdict:
    """Wild Dip Into The Deck (R24): ``player`` names a color, draws one card (``drawn``),
    gives one card (``give``) to the next player, who still takes their turn.

    ``hand``: the player's hand before the play (the Dip added if missing), or its size.

    >>> v = wild_dip("pizza-pizza", ["Ann", "Bea", "Cy"], "Ann", "blue")
    >>> v.outcome
    'Ann draws 1, Ann gives a card of their choice to Bea, then Bea plays'
    >>> wild_dip("pizza-pizza", ["Ann", "Bea", "Cy"], "Ann", "blue", drawn="red-9",
    ...          give="red-9").hand_sizes
    {'Ann': 4, 'Bea': 6, 'Cy': 5}
    """
    t = make_table(variant, seats, options)
    p = t.seat(player, "the player")
    dip = _special(t, "wild-dip")
    draw_top = [t.card(drawn, "the card drawn")] if drawn is not None else []
    gift = t.card(give, "the card given") if give is not None else None
    others = counts_arg(t, counts, "counts")
    known, size = (hand_arg(t, hand, f"{t.name(p)}'s hand", t.variant.hand_size)
                   if hand is not None else others.get(p, ([], t.variant.hand_size)))
    if dip not in known:
        known, size = [dip, *known], max(size, len(known) + 1)
    if gift is not None and gift not in known and gift not in draw_top:
        # Every card of the hand is known: the gift cannot come from an unknown card.
        if len(known) >= size:
            raise ImpossibleSituationError(
                f"{t.name(p)} cannot give {card_name(gift)}: it is neither in "
                f"{t.name(p)}'s hand nor the card drawn")
        known, size = [*known, gift], max(size, len(known) + 1)
    scene, plays = play_scene(t, p, dip, others=others, hand=(known, size),
                               direction=direction_arg(direction), top=top, color=color,
                               named=named, draw_top=draw_top)
    then = [Action(ActionKind.GIVE, gift)] if gift is not None else []
    return play_verdict(t, scene, plays, sizes=True, then=then)


def swap_hands(variant: VariantLike, seats: Sequence[str] | int, player: SeatRef,
               target: SeatRef | None, named: Color | str | None = None, *,
               direction: int | str = 1, top: Card | str | None = None,
               color: Color | str | None = None, counts: Mapping[SeatRef, HandLike] | None = None,
               options: TableOptions | None = None) -> Verdict:
    """Wild Swap Hands (R14): ``player`` names a color and swaps hands with ``target``;
    played as the last card it ends the hand with no swap. ``hand_sizes`` are afterwards.

    >>> v = swap_hands("classic", ["Ann", "Bea", "Cy"], "Ann", "Cy", "red",
    ...                counts={"Ann": 4, "Cy": 2})
    >>> v.outcome, v.hand_sizes
    ('Ann swaps hands with Cy, then Bea plays', {'Ann': 2, 'Bea': 7, 'Cy': 3})
    >>> swap_hands("classic", ["Ann", "Bea"], "Ann", None, "red", counts={"Ann": 1}).outcome
    'Ann goes out, the hand is over'
    """
    t = make_table(variant, seats, options)
    p = t.seat(player, "the player")
    swap = _special(t, "wild-swap")
    scene, plays = play_scene(t, p, swap, others=counts_arg(t, counts, "counts"),
                               direction=direction_arg(direction), top=top, color=color,
                               named=named, target=target)
    return play_verdict(t, scene, plays, sizes=True)


#: What a 7 or a 0 is at a table without the 7-0 house rule (the referee's page says it up
#: front, and a 7 or 0 said to swap hands is refused with it).
SEVEN_ZERO_OFF = ("the 7-0 house rule is not on at this table, so a 7 or a 0 is an ordinary "
                  "number card")


def seven_zero(variant: VariantLike, seats: Sequence[str] | int, player: SeatRef,
               card: Card | str, *, target: SeatRef | None = None, direction: int | str = 1,
               top: Card | str | None = None, color: Color | str | None = None,
               counts: Mapping[SeatRef, HandLike] | None = None,
               options: TableOptions | None = None) -> Verdict:
    """The 7-0 house rule (``options.seven_o``): a 7 swaps hands with ``target``, a 0
    passes every hand one seat on in the direction of play. ``hand_sizes`` afterwards.
    Without the house rule the card is only a number.

    >>> from engine import TableOptions
    >>> v = seven_zero("classic", ["Ann", "Bea", "Cy"], "Ann", "red-0",
    ...                counts={"Ann": 2, "Bea": 5, "Cy": 6}, options=TableOptions(seven_o=True))
    >>> v.outcome, v.hand_sizes
    ('Every hand moves one seat clockwise, then Bea plays', {'Ann': 6, 'Bea': 1, 'Cy': 5})
    """
    t = make_table(variant, seats, options)
    p = t.seat(player, "the player")
    c = t.card(card, "the card played")
    if target is not None and not t.options.seven_o and c.rank in (Rank.SEVEN, Rank.ZERO):
        # Said so, rather than the engine's "does not name a seat", which hides why.
        raise ImpossibleSituationError(
            f"{card_name(c)} swaps no hands: {SEVEN_ZERO_OFF}")
    scene, plays = play_scene(t, p, c, others=counts_arg(t, counts, "counts"),
                               direction=direction_arg(direction), top=top, color=color,
                               target=target)
    return play_verdict(t, scene, plays, sizes=True)


#: What a jump-in is at a table without that house rule (the referee's page says it up front).
JUMP_IN_OFF = ("the jump-in house rule is not on at this table, so nobody may play a card "
               "out of turn")


def jump_in(variant: VariantLike, seats: Sequence[str] | int, turn: SeatRef,
            top: Card | str, jumper: SeatRef, *, direction: int | str = 1,
            target: SeatRef | None = None, counts: Mapping[SeatRef, HandLike] | None = None,
            options: TableOptions | None = None) -> Verdict:
    """Jump-in (house rule, ``options.jump_in``): ``top`` is on the pile and ``turn`` is
    about to play; ``jumper`` plays a card identical to it first. May they, and who plays
    next?

    >>> from engine import TableOptions
    >>> seats = ["Ann", "Bea", "Cy", "Dan"]
    >>> jump_in("classic", seats, "Bea", "red-5", "Dan", options=TableOptions(jump_in=True)).outcome
    'Dan jumps in with red 5, then Ann plays'
    >>> jump_in("classic", seats, "Bea", "red-5", "Dan").outcome
    'No: jump-in is a house rule this table does not play'
    """
    t = make_table(variant, seats, options)
    b = t.seat(turn, "whose turn")
    j = t.seat(jumper, "the jumper")
    top_card = t.card(top, "the top card")
    target_seat = t.seat(target, "the seat to swap with") if target is not None else None
    others = counts_arg(t, counts, "counts")
    known, size = others.get(j, ([], t.variant.hand_size))
    mine = known if top_card in known else [top_card, *known]
    others[j] = (mine, max(size, len(mine)))
    scene = make_scene(t, b, others.get(b, ([], t.variant.hand_size)), others,
                   discard=[top_card], color=top_card.color, direction=direction_arg(direction))
    game = scene.build()
    jumps = [a for a in game.legal_actions() if a.kind is ActionKind.JUMP and a.seat == j
             and (target_seat is None or a.target == target_seat)]
    if not jumps:
        reason, rule = refusal(game, Action(ActionKind.JUMP, top_card, None, target_seat, j))
        return Verdict(cap(f"no: {reason}"), citations=(rule,) if rule else (),
                       playable=False)
    return replace(play_verdict(t, scene, jumps), playable=True)


def build_droid(variant: VariantLike, seats: Sequence[str] | int, player: SeatRef,
                named: Color | str | None = None,
                hands: Mapping[SeatRef, HandLike] | None = None, *, lays: Cards = (),
                direction: int | str = 1, top: Card | str | None = None,
                color: Color | str | None = None,
                options: TableOptions | None = None) -> Verdict:
    """Let's Build a Droid (R36): ``player`` names a color and lays a colored card; going
    round, each next player lays a card of a different color from the last one laid; the
    first who cannot draws 3; then play resumes after ``player``.

    ``hands``: each seat's cards (``player``'s without the Droid), or counts where
    unknown. ``lays``: the cards laid so far, in order. Where a seat's choice or its
    unknown cards decide the walk, the verdict splits into cases (collapsed when every
    case ends the same way).

    >>> seats = ["Ann", "Bea", "Cy"]
    >>> v = build_droid("star-wars", seats, "Ann", "red",
    ...                 {"Ann": "blue-1 wild", "Bea": "blue-2 blue-3", "Cy": "green-4"})
    >>> v.outcome
    'Bea cannot lay a card of a different color, Bea draws 3, every card laid goes back to its owner, then Bea plays'
    >>> [(who, c.text) for who, c in v.laid], v.last_color
    ([('Ann', 'blue-1')], <Color.BLUE: 'blue'>)
    >>> build_droid("star-wars", seats, "Ann", "red",
    ...             {"Ann": "red-1", "Bea": 2, "Cy": "green-4"}).depends_on
    'whether Bea can lay a card that is not red, and which'
    """
    t = make_table(variant, seats, options)
    p = t.seat(player, "the player")
    droid = _special(t, "wild-droid")
    known = counts_arg(t, hands, "hands")
    mine, size = known.pop(p, ([], t.variant.hand_size))
    scene, plays = play_scene(t, p, droid, others=known, hand=([droid, *mine], size + 1),
                               direction=direction_arg(direction), top=top, color=color,
                               named=named)
    scene = scene.then(plays[0])
    laid = t.cards(lays, "the cards laid")
    if len(laid) > MAX_LAYS:
        raise ImpossibleSituationError(
            f"{len(laid)} cards laid: the referee follows a droid up to {MAX_LAYS} cards")
    game, events = scene.run()
    for c in laid:
        # A seat whose cards are unknown lays this card: the filler must not decide for it.
        visit = undecided_visit(scene, game, events)
        seat = visit[0] if visit is not None else game.to_act
        if seat is None or (visit is None and game.phase is not Phase.DROID):
            raise ImpossibleSituationError(
                f"{card_name(c)} cannot be laid: the droid is over by then")
        free = Counter(scene.hands[seat].known)
        free.subtract(e.cards[0] for e in events if e.kind is EventKind.LAY and e.seat == seat)
        if free[c] <= 0 and scene.hands[seat].unknown > 0:
            scene = scene.with_hand(seat, [c])
        scene = scene.then(Action(ActionKind.LAY, c))
        try:
            game, events = scene.run()
        except IllegalMoveError as exc:
            raise ImpossibleSituationError(
                f"{t.name(seat)} cannot lay {card_name(c)}: {exc}") from None
    return resolve_scene(scene, played=(game, events))


#: The most cards laid for one droid the referee follows: each is a position set up
#: again, paid from the question's budget (SEARCH_BUDGET), and twelve leave it half for
#: what follows. More than a table of ten lays going once round.
MAX_LAYS = 12

