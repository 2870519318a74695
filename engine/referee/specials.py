"""The special cards, step by step: :func:`wild_dip`, :func:`swap_hands`,
:func:`seven_zero`, :func:`jump_in` and :func:`build_droid`, each a question asked of a
:class:`Scene`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from .. import Action, ActionKind, Card, Color, EventKind, Phase, Rank, card_name
from .branch import Branch, make_branch, play_branch, refusal
from .checks import by_color, play_verdict
from .resolve import cut_short, resolve_branch, undecided_visit
from .scene import Cards, HandLike, Scene, SeatRef, TableSetup, hand_arg
from .verdict import (
    IllegalMoveError,
    ImpossibleSituationError,
    TooOpenError,
    UnknownCardError,
    Verdict,
)
from .wording import cap

# -- special cards, step by step ------------------------------------------------------------


#: The special cards the questions below are about.
_DIP, _SWAP, _DROID = (Card.parse(text) for text in ("wild-dip", "wild-swap", "wild-droid"))


def _special(t: TableSetup, c: Card) -> Card:
    """The deck's one ``c`` (a Wild Dip, a Wild Swap Hands, a Droid)."""
    if t.holds.get(c, 0) == 0:
        raise UnknownCardError(f"{card_name(c)} is not in this {t.variant.name} deck")
    return c


def wild_dip(scene: Scene, player: SeatRef, *, named: Color | str | None = None,
             drawn: Card | str | None = None, give: Card | str | None = None,
             hand: HandLike | None = None) -> Verdict:
    """Wild Dip Into The Deck (R24): ``player`` names a color (``named``), draws one card
    (``drawn``), gives one card (``give``) to the next player, who still takes their turn.
    Without ``named`` the color is the player's choice: the answer claims none where it
    does not hang on it, else it is a case for each color.

    ``hand``: the player's hand before the play (the Dip added if missing), or its size;
    without it, the scene's hands may give it.

    >>> v = wild_dip(Scene("pizza-pizza", ["Ann", "Bea", "Cy"]), "Ann", named="blue")
    >>> v.outcome
    'Ann draws 1, Ann gives a card of their choice to Bea, then Bea plays'
    """
    t = scene.seated()
    p = t.seat(player, "the player")
    dip = _special(t, _DIP)
    draw_top = [t.card(drawn, "the card drawn")] if drawn is not None else []
    gift = t.card(give, "the card given") if give is not None else None
    others = scene.hands
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
    branch, plays = play_branch(t, p, dip, others=others, hand=(known, size),
                                direction=scene.direction, top=scene.top, color=scene.color,
                                named=named, draw_top=draw_top)
    then = [Action(ActionKind.GIVE, gift)] if gift is not None else []

    def answer(ps: list[Action]) -> Verdict:
        return play_verdict(t, branch, ps, sizes=True, then=then)

    return answer(plays) if named is not None else by_color(t, branch, dip, plays, answer)


def swap_hands(scene: Scene, player: SeatRef, *, target: SeatRef | None = None,
               named: Color | str | None = None) -> Verdict:
    """Wild Swap Hands (R14): ``player`` names a color (``named``) and swaps hands with
    ``target`` (without it, a case for each seat); played as the last card it ends the
    hand with no swap. ``hand_sizes`` are afterwards; the scene's hands are before.
    Without ``named`` the color is the player's choice (as in :func:`wild_dip`).

    >>> scene = Scene("classic", ["Ann", "Bea", "Cy"], hands={"Ann": 4, "Cy": 2})
    >>> v = swap_hands(scene, "Ann", target="Cy", named="red")
    >>> v.outcome, v.hand_sizes
    ('Ann swaps hands with Cy, then Bea plays', {'Ann': 2, 'Bea': 7, 'Cy': 3})
    """
    t = scene.seated()
    p = t.seat(player, "the player")
    swap = _special(t, _SWAP)
    branch, plays = play_branch(t, p, swap, others=scene.hands, direction=scene.direction,
                                top=scene.top, color=scene.color, named=named, target=target)
    if named is not None:
        return play_verdict(t, branch, plays, sizes=True)
    target_seat = t.seat(target, "the seat to swap with") if target is not None else None
    return by_color(t, branch, swap, plays, lambda ps: play_verdict(t, branch, ps, sizes=True),
                    target_seat)


#: What a 7 or a 0 is at a table without the 7-0 house rule (the referee's page says it up
#: front, and a 7 or 0 said to swap hands is refused with it).
SEVEN_ZERO_OFF = ("the 7-0 house rule is not on at this table, so a 7 or a 0 is an ordinary "
                  "number card")


def seven_zero(scene: Scene, player: SeatRef, card: Card | str, *,
               target: SeatRef | None = None) -> Verdict:
    """The 7-0 house rule (``options.seven_o``): a 7 swaps hands with ``target``, a 0
    passes every hand one seat on in the direction of play. ``hand_sizes`` afterwards.
    Without the house rule the card is only a number.

    >>> from engine import TableOptions
    >>> scene = Scene("classic", ["Ann", "Bea", "Cy"], hands={"Ann": 3, "Bea": 5, "Cy": 6},
    ...               options=TableOptions(seven_o=True))
    >>> seven_zero(scene, "Ann", "red-0").hand_sizes
    {'Ann': 6, 'Bea': 2, 'Cy': 5}
    """
    t = scene.seated()
    p = t.seat(player, "the player")
    c = t.card(card, "the card played")
    if target is not None and not t.options.seven_o and c.rank in (Rank.SEVEN, Rank.ZERO):
        # Said so, rather than the engine's "does not name a seat", which hides why.
        raise ImpossibleSituationError(
            f"{card_name(c)} swaps no hands: {SEVEN_ZERO_OFF}")
    branch, plays = play_branch(t, p, c, others=scene.hands, direction=scene.direction,
                                top=scene.top, color=scene.color, target=target)
    return play_verdict(t, branch, plays, sizes=True)


#: What a jump-in is at a table without that house rule (the referee's page says it up front).
JUMP_IN_OFF = ("the jump-in house rule is not on at this table, so nobody may play a card "
               "out of turn")


def jump_in(scene: Scene, turn: SeatRef, jumper: SeatRef, *,
            target: SeatRef | None = None) -> Verdict:
    """Jump-in (house rule, ``options.jump_in``): the scene's top card is on the pile and
    ``turn`` is about to play; ``jumper`` plays a card identical to it first. May they,
    and who plays next?

    >>> from engine import TableOptions
    >>> scene = Scene("classic", ["Ann", "Bea", "Cy", "Dan"], top="red-5",
    ...               options=TableOptions(jump_in=True))
    >>> jump_in(scene, "Bea", "Dan").outcome
    'Dan jumps in with red 5, then Ann plays'
    """
    t = scene.seated()
    b = t.seat(turn, "whose turn")
    j = t.seat(jumper, "the jumper")
    top_card = scene.top
    if top_card is None:
        raise ImpossibleSituationError("give the card on top of the pile")
    target_seat = t.seat(target, "the seat to swap with") if target is not None else None
    others = dict(scene.hands)
    known, size = others.get(j, ([], t.variant.hand_size))
    mine = known if top_card in known else [top_card, *known]
    others[j] = (mine, max(size, len(mine)))
    branch = make_branch(t, b, others.get(b, ([], t.variant.hand_size)), others,
                         discard=[top_card], color=scene.color, direction=scene.direction)
    game = branch.build()
    jumps = [a for a in game.legal_actions() if a.kind is ActionKind.JUMP and a.seat == j
             and (target_seat is None or a.target == target_seat)]
    if not jumps:
        reason, rule = refusal(game, Action(ActionKind.JUMP, top_card, None, target_seat, j))
        return Verdict(cap(f"no: {reason}"), citations=(rule,) if rule else (),
                       playable=False)
    return replace(play_verdict(t, branch, jumps), playable=True)


def build_droid(scene: Scene, player: SeatRef, *, named: Color | str | None = None,
                lays: Cards | None = None) -> Verdict:
    """Let's Build a Droid (R36): ``player`` names a color (``named``) and lays a colored
    card; going round, each next player lays a card of a different color from the last
    one laid; the first who cannot draws 3; then play resumes after ``player``. Without
    ``named`` the color is the player's choice (as in :func:`wild_dip`).

    The scene's hands are each seat's cards (``player``'s without the Droid), or counts
    where unknown. ``lays``: the cards laid so far, in order. Where a seat's choice or its
    unknown cards decide the walk, the verdict splits into cases (collapsed when every
    case ends the same way).

    >>> scene = Scene("star-wars", ["Ann", "Bea", "Cy"],
    ...               hands={"Ann": "red-1", "Bea": 2, "Cy": "green-4"})
    >>> build_droid(scene, "Ann", named="red").depends_on
    'whether Bea can lay a card that is not red, and which'
    """
    t = scene.seated()
    p = t.seat(player, "the player")
    droid = _special(t, _DROID)
    known = dict(scene.hands)
    mine, size = known.pop(p, ([], t.variant.hand_size))
    branch, plays = play_branch(t, p, droid, others=known, hand=([droid, *mine], size + 1),
                                direction=scene.direction, top=scene.top, color=scene.color,
                                named=named)
    laid = t.cards(lays or (), "the cards laid")
    if len(laid) > MAX_LAYS:
        raise ImpossibleSituationError(
            f"{len(laid)} cards laid: the referee follows a droid up to {MAX_LAYS} cards")

    def answer(ps: list[Action]) -> Verdict:
        return _walk_droid(t, branch.then(ps[0]), laid)

    # Without ``named`` the color is the player's choice (it is the color play resumes
    # in, R36): each is played out, as for any wild.
    return answer(plays) if named is not None else by_color(t, branch, droid, plays, answer)


#: The special card each question about one is about: a table is asked it only where its
#: deck holds that card (the 7-0 and jump-in are house rules, asked at any table).
QUESTION_CARD: dict[Callable[..., Verdict], Card] = {
    wild_dip: _DIP, swap_hands: _SWAP, build_droid: _DROID}


def _walk_droid(t: TableSetup, branch: Branch, laid: Sequence[Card]) -> Verdict:
    """The droid played in ``branch``, ``laid`` laid so far, walked on (R36). Where the
    question's budget runs out, the answer says so."""
    try:
        game, events = branch.run()
    except TooOpenError as exc:
        return cut_short(exc.narrow)
    for c in laid:
        # A seat whose cards are unknown lays this card: the filler must not decide for it.
        visit = undecided_visit(branch, game, events)
        seat = visit[0] if visit is not None else game.to_act
        if seat is None or (visit is None and game.phase is not Phase.DROID):
            raise ImpossibleSituationError(
                f"{card_name(c)} cannot be laid: the droid is over by then")
        free = Counter(branch.hands[seat].known)
        free.subtract(e.cards[0] for e in events if e.kind is EventKind.LAY and e.seat == seat)
        if free[c] <= 0 and branch.hands[seat].unknown > 0:
            branch = branch.with_hand(seat, [c])
        branch = branch.then(Action(ActionKind.LAY, c))
        try:
            game, events = branch.run()
        except IllegalMoveError as exc:
            raise ImpossibleSituationError(
                f"{t.name(seat)} cannot lay {card_name(c)}: {exc}") from None
        except TooOpenError as exc:
            return cut_short(exc.narrow)
    return resolve_branch(branch, played=(game, events))


#: The most cards laid for one droid the referee follows: each is a position set up
#: again, paid from the question's budget (SEARCH_BUDGET), and twelve leave it half for
#: what follows. More than a table of ten lays going once round.
MAX_LAYS = 12

