"""The checks with every part of the scene as an argument, as they were first written:
``challenge("classic", seats, "Bea", "red-3", "red")``. Each builds the :class:`Scene`
its arguments describe and asks the check of it (:mod:`engine.referee.checks`,
:mod:`engine.referee.specials`), so the answers and refusals are the same."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .. import Card, Color, LeverOutcome, ScoringMode, TableOptions
from . import checks, specials
from .scene import Cards, HandLike, Scene, SeatRef, VariantLike
from .verdict import Verdict


def can_play(variant: VariantLike, top: Card | str, color: Color | str | None,
             card: Card | str, hand: HandLike | None = None,
             options: TableOptions | None = None, *, player: str = "the player",
             named: Color | str | None = None) -> Verdict:
    """Can ``card`` be played on ``top`` with ``color`` in play (R3)? For a draw wild (Wild
    Draw 4, Wild Draw 2) also: is it legal or a bluff, given ``hand`` (R10, R20, R25, R35)?

    ``color`` is the color in play (None: the top card's own color; needed on a wild).
    ``hand`` is the player's whole hand before the play, the card included (added if
    missing), or only its size; without it, a draw wild's verdict says what a bluff
    hangs on. ``named`` is the color a wild names (default: the color in play).

    >>> can_play("classic", "blue-7", None, "red-2").outcome
    'No: red 2 matches neither the color in play (blue) nor the blue 7 on top'
    >>> can_play("classic", "blue-7", None, "red-7").outcome
    'Yes, the player can play red 7 on blue 7'
    >>> v = can_play("classic", "red-5", None, "wild-draw4", "wild-draw4 red-1 blue-2")
    >>> v.playable, v.guilty
    (True, True)
    >>> v.outcome
    'Yes, the player can play Wild Draw 4, but it is a bluff: they held a card of the color in play, so a challenge would make them draw 4'
    >>> can_play("pizza-pizza", "red-5", None, "wild-draw2", "wild-draw2 blue-5").guilty
    True
    >>> can_play("one", "red-5", None, "wild-draw4", "wild-draw4 red-1").outcome
    'Yes, the player can play Wild Draw 4 here, and nobody can challenge it'
    >>> can_play("star-wars", "red-5", None, "wild-draw4").depends_on
    'whether the player holds a red card or a wild card'
    """
    return checks.can_play(Scene(variant, top=top, color=color, options=options), card,
                           hand=hand, player=str(player), named=named)


def challenge(variant: VariantLike, seats: Sequence[str] | int, wild_by: SeatRef,
              hand: HandLike | None, color_before: Color | str | None,
              top_before: Card | str | None = None, direction: int | str = 1,
              options: TableOptions | None = None, *, named: Color | str | None = None,
              counts: Mapping[SeatRef, HandLike] | None = None,
              wild: Card | str | None = None) -> Verdict:
    """The next player challenges the draw wild ``wild_by`` played: guilty or innocent, who
    draws how many, who plays next (R4, R10, R20, R25, R35; R31: ``one`` has no challenge).

    ``hand`` is what the challenged player shows: the cards left after the wild (a count,
    or None, when it was not shown). ``color_before`` is the color in play before the
    wild, ``top_before`` the card under it (pizza-pizza's Wild Draw 2 is judged by it
    too: without it, the verdict says when it matters). ``wild`` is the variant's draw
    wild unless given; ``named`` the color it named; ``counts`` other hands' sizes.

    >>> seats = ["Ann", "Bea", "Cy"]
    >>> challenge("classic", seats, "Ann", "blue-1 green-2", "red").outcome
    "Ann's Wild Draw 4 was legal: Bea draws 6 and misses a turn, then Cy plays"
    >>> challenge("star-wars", seats, "Ann", "wild blue-1", "red").guilty
    True
    >>> challenge("pizza-pizza", seats, "Ann", "blue-5", "red", "red-5").outcome
    "Ann's Wild Draw 2 was illegal: Ann draws 2, then Bea plays"
    >>> challenge("one", seats, "Ann", "red-1", "red").outcome
    'Nobody can challenge a Wild Draw 4 in One: Bea draws 4 and misses a turn, then Cy plays'
    >>> challenge("classic", seats, "Ann", "", "red").outcome
    "Ann's Wild Draw 4 was legal: Ann goes out, Bea draws 6, the hand is over"
    """
    scene = Scene(variant, seats, top=top_before, color=color_before, direction=direction,
                  hands=counts, options=options, top_is="the card under the wild",
                  hands_are="counts")
    return checks.challenge(scene, wild_by, hand=hand, named=named, wild=wild)


def first_card(variant: VariantLike, seats: Sequence[str] | int, dealer: SeatRef,
               card: Card | str | Sequence[Card | str], options: TableOptions | None = None,
               *, named: Color | str | None = None) -> Verdict:
    """The first card turned up: what happens, who names the color, who plays first, the
    direction, and what goes back into the deck (R8, R9, R19, R23, R28, R34).

    ``card`` may be several cards, in the order they were turned up: every one but the
    last must have gone back. ``named`` is the color named for a Wild turned up.

    >>> seats = ["Ann", "Bea", "Cy", "Dan"]
    >>> first_card("classic", seats, "Ann", "red-reverse").outcome
    'Red Reverse turned up first: Dan plays first, going counter-clockwise'
    >>> first_card("wild-jackpot", seats, "Ann", "red-reverse").next_player
    'Ann'
    >>> v = first_card("classic", seats, "Ann", "wild")
    >>> v.outcome, v.color_chooser
    ('Wild turned up first: Bea names the color and plays first', 'Bea')
    >>> v = first_card("classic", seats, "Ann", "wild-draw4")
    >>> v.outcome, [c.text for c in v.returned]
    ('Wild Draw 4 turned up first: Wild Draw 4 goes back into the deck, turn up another card', ['wild-draw4'])
    >>> first_card("star-wars", seats, "Ann", ["red-skip", "blue-3"]).outcome
    'Blue 3 turned up first: Bea plays first, going clockwise'
    """
    turned = [card] if isinstance(card, (str, Card)) else list(card)
    return checks.first_card(Scene(variant, seats, options=options), dealer, turned, named=named)


def whos_next(variant: VariantLike, seats: Sequence[str] | int, turn: SeatRef,
              card: Card | str, direction: int | str = 1, options: TableOptions | None = None,
              *, top: Card | str | None = None, color: Color | str | None = None,
              named: Color | str | None = None, target: SeatRef | None = None,
              counts: Mapping[SeatRef, HandLike] | None = None,
              lever: LeverOutcome | str | None = None) -> Verdict:
    """``turn`` plays ``card``: who plays next, who draws, who is skipped, with the table's
    house rules and the two-player rules (R13).

    ``top``/``color``: what it was played on (default: a card it can go on). ``named``:
    the color named with a wild (default: the color in play). ``target``: the seat a
    Wild Swap Hands (or a 7 under 7-0) names. ``counts``: hand sizes (or cards) before
    the play. ``lever``: what a Wild Jackpot lever showed.

    >>> whos_next("classic", ["Ann", "Bea", "Cy"], "Ann", "red-draw2").outcome
    'Bea draws 2 and misses a turn, then Cy plays'
    >>> whos_next("classic", ["Ann", "Bea"], "Ann", "red-reverse").outcome
    'Ann plays again: play now goes counter-clockwise'
    >>> whos_next("star-wars", ["Ann", "Bea"], "Ann", "red-reverse").next_player
    'Bea'
    >>> whos_next("classic", ["Ann", "Bea", "Cy"], "Ann", "wild-draw4").depends_on
    'what Bea does: take the cards or challenge'
    """
    scene = Scene(variant, seats, top=top, color=color, direction=direction, hands=counts,
                  options=options, hands_are="counts")
    return checks.whos_next(scene, turn, card, named=named, target=target, lever=lever)


def uno_catch(variant: VariantLike, seats: Sequence[str] | int, player: SeatRef, *,
              card: Card | str | None = None, played: bool = True, called: bool = False,
              next_began: bool = False, catcher: SeatRef | None = None,
              target: SeatRef | None = None, direction: int | str = 1,
              top: Card | str | None = None,
              color: Color | str | None = None, counts: Mapping[SeatRef, HandLike] | None = None,
              options: TableOptions | None = None) -> Verdict:
    """Can ``player``, down to one card, still be caught not calling UNO: by whom, until
    when, and what it costs (R6 and the table's ``uno_penalty``)?

    ``card`` is the next-to-last card ``player`` played (``played=False``: not played
    yet); ``called``: they called UNO since; ``next_began``: the next player has begun
    their turn; ``catcher``: who catches them (the catch then happens); ``target``: the
    seat a Wild Swap Hands (or a 7 under 7-0) swapped with.

    >>> seats = ["Ann", "Bea", "Cy"]
    >>> uno_catch("classic", seats, "Ann").outcome
    'Yes: Bea or Cy can catch Ann until Bea begins their turn (plays or draws); a caught Ann draws 4'
    >>> uno_catch("classic", seats, "Ann", card="red-skip").until
    'Cy'
    >>> v = uno_catch("wild-jackpot", seats, "Ann", catcher="Cy")
    >>> v.outcome, v.draws
    ('Yes: Cy catches Ann, Ann draws 2, then Bea plays', {'Ann': 2})
    >>> uno_catch("classic", seats, "Ann", called=True).outcome
    'No: Ann has called UNO: a late call, made before anyone catches you, is safe'
    >>> uno_catch("one", seats, "Ann").outcome
    'No: no UNO call is needed at this table'
    """
    scene = Scene(variant, seats, top=top, color=color, direction=direction, hands=counts,
                  options=options, hands_are="counts")
    return checks.uno_catch(scene, player, card=card, played=played, called=called,
                            next_began=next_began, catcher=catcher, target=target)


def end_of_hand(variant: VariantLike, seats: Sequence[str] | int, went_out: SeatRef,
                last_card: Card | str, hands: Mapping[SeatRef, HandLike] | None = None, *,
                direction: int | str = 1, top: Card | str | None = None,
                color: Color | str | None = None, named: Color | str | None = None,
                drawn: Cards = (), mode: ScoringMode | str | None = None,
                options: TableOptions | None = None) -> Verdict:
    """``went_out`` plays their last card: who draws for a final draw card (R5), then the
    points each other player holds and the hand's score (the variant's points; none in
    ``one``, R32).

    ``hands``: each other seat's cards (a count where they are not known). ``drawn``:
    the cards drawn for a final draw card, top of the draw pile first (without them,
    the verdict says whose points still need counting). ``mode``: the scoring mode
    (default: the variant's own).

    >>> v = end_of_hand("classic", ["Ann", "Bea", "Cy"], "Ann", "blue-draw2",
    ...                 {"Bea": "red-7 wild", "Cy": "green-skip"}, drawn="blue-1 blue-2")
    >>> v.outcome
    'Ann goes out, Bea draws 2, the hand is over: Ann scores 80 (Bea 60, Cy 20)'
    >>> v.points, v.scores
    ({'Bea': 60, 'Cy': 20}, {'Ann': 80})
    >>> end_of_hand("one", ["Ann", "Bea"], "Ann", "red-3", {"Bea": "red-7"}).outcome
    'Ann goes out, the hand is over: Ann wins (One has no points)'
    """
    scene = Scene(variant, seats, top=top, color=color, direction=direction, hands=hands,
                  options=options)
    return checks.end_of_hand(scene, went_out, last_card, named=named, drawn=drawn, mode=mode)


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
    scene = Scene(variant, seats, top=top, color=color, direction=direction, hands=counts,
                  options=options, hands_are="counts")
    return specials.wild_dip(scene, player, named=named, drawn=drawn, give=give, hand=hand)


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
    scene = Scene(variant, seats, top=top, color=color, direction=direction, hands=counts,
                  options=options, hands_are="counts")
    return specials.swap_hands(scene, player, target=target, named=named)


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
    ...                counts={"Ann": 3, "Bea": 5, "Cy": 6}, options=TableOptions(seven_o=True))
    >>> v.outcome, v.hand_sizes
    ('Every hand moves one seat clockwise, then Bea plays', {'Ann': 6, 'Bea': 2, 'Cy': 5})
    """
    scene = Scene(variant, seats, top=top, color=color, direction=direction, hands=counts,
                  options=options, hands_are="counts")
    return specials.seven_zero(scene, player, card, target=target)


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
    scene = Scene(variant, seats, top=top, direction=direction, hands=counts, options=options,
                  hands_are="counts")
    return specials.jump_in(scene, turn, jumper, target=target)


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
    scene = Scene(variant, seats, top=top, color=color, direction=direction, hands=hands,
                  options=options)
    return specials.build_droid(scene, player, named=named, lays=lays)
