"""The checks a table asks about a play: :func:`can_play`, :func:`challenge`,
:func:`first_card`, :func:`whos_next`, :func:`uno_catch` and :func:`end_of_hand`. Each is
a question asked of a :class:`Scene` (what the table knows), and answers a
:class:`Verdict`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from .. import (
    COLORS,
    Action,
    ActionKind,
    Card,
    Color,
    Event,
    EventKind,
    Game,
    LeverOutcome,
    Phase,
    ScoringError,
    ScoringMode,
    SetupError,
    card_name,
    new_standings,
    score_hand,
)
from .branch import (
    COLOR_BUDGET,
    Branch,
    BranchHand,
    legal_plays,
    make_branch,
    neutral_order,
    play_branch,
    plays_of,
    refusal,
)
from .questions import after_draw, caught_reason, chosen_action, first_catch, with_piles
from .resolve import (
    ACCEPT_ACTION,
    CHALLENGE_ACTION,
    catches,
    challenge_tops,
    challenged_cards,
    colorless,
    cut_short,
    first_case,
    resolve_branch,
    tops_of,
)
from .scene import (
    Cards,
    HandLike,
    KnownHand,
    Scene,
    SeatRef,
    TableSetup,
    color_arg,
    hand_arg,
    make_table,
)
from .verdict import (
    UNNAMED_SEATS,
    Case,
    ImpossibleSituationError,
    TooOpenError,
    Verdict,
    answer_key,
    choice_of,
)
from .wording import (
    and_list,
    as_sentence,
    cap,
    cite,
    depends_clause,
    end_clause,
    join_clauses,
    leaf,
    or_list,
)

# -- the checks -----------------------------------------------------------------------------

def _since_play(events: Sequence[Event]) -> int:
    """Where the events after the (first) play begin."""
    return min(first_case(events, EventKind.PLAY) + 1, len(events))


def can_play(scene: Scene, card: Card | str, *, hand: HandLike | None = None,
             player: str | None = None, named: Color | str | None = None,
             drawn: Card | str | None = None) -> Verdict:
    """Can ``card`` be played on the scene's top card with its color in play (R3)? For a
    draw wild (Wild Draw 4, Wild Draw 2) also: is it legal or a bluff, given ``hand``
    (R10, R20, R25, R35)? The scene's seats are not needed (nor read).

    ``hand`` is the player's whole hand before the play, the card included (added if
    missing), or only its size; without it, a draw wild's verdict says what a bluff
    hangs on. ``player`` names the player in the answer; ``named`` is the color a wild
    names (without it, the answer, which does not hang on it, claims no color).
    ``drawn``: the player has just drawn this card on their turn (``hand`` is then before
    the draw): may ``card`` follow (R12, R29, the draw house rules; the scene's
    ``draw_pile`` counts the drawn card)?

    >>> can_play(Scene("classic", top="blue-7"), "red-7").outcome
    'Yes, the player can play red 7 on blue 7'
    >>> v = can_play(Scene("classic", top="red-5"), "wild-draw4", hand="wild-draw4 red-1")
    >>> v.playable, v.guilty
    (True, True)
    """
    unnamed = [*UNNAMED, "another player"]  # the JSON gives these by number
    who = (str(player).strip() if player is not None else "") or unnamed[0]
    # Three seats, so that no two-player rule (R13) colors the hypothetical challenge.
    t = make_table(scene.variant, [who, *(n for n in unnamed[1:] if n != who)][:3],
                   scene.options)
    top_card, col = scene.top, scene.color
    if top_card is None:
        raise ImpossibleSituationError("give the card on top of the pile (R3)")
    c = t.card(card, "the card")
    known, size = hand_arg(t, hand, f"{who}'s hand", 2)
    named_color = color_arg(named, "the color named") if named is not None else None
    if drawn is not None:
        drew = after_draw(scene, t, who, c, drawn, hand, named_color)
        if drew.refused is not None:
            return drew.refused
        return drew.lead(can_play(scene, c, hand=drew.hand, player=player, named=named), c)
    branch = make_branch(t, 0, ([*known] if c in known else [c, *known],
                                max(size, len(known) + (c not in known))), {},
                         discard=[top_card], color=col, direction=1, avoid=[c])
    game = branch.build()
    plays = plays_of(game, c, named_color, None)
    if not plays:
        reason, rule = refusal(game, Action.play(c, (named_color or col)
                                                  if c.color is None else None))
        return Verdict(cap(f"no: {reason}"), citations=(rule,) if rule else (),
                       playable=False)
    v = _can_play(t, branch, plays[0], who, c, top_card, col)
    # A wild with no color named: the answer is the same whichever (the color names none).
    return colorless(v, c) if c.color is None and named_color is None else v


#: The seats "Can I play this?" names when the question names none (the JSON numbers them).
UNNAMED = tuple(UNNAMED_SEATS)


def _can_play(t: TableSetup, branch: Branch, play: Action, who: str, c: Card, top_card: Card,
              col: Color | None) -> Verdict:
    played = branch.then(play)
    after, events = played.run()
    lead = f"yes, {who} can play {card_name(c)}"
    if after.phase is Phase.PENDING and after.is_legal(CHALLENGE_ACTION):
        return _bluff_words(t, challenged_cards(played.then(CHALLENGE_ACTION), 0, since=0), who, c)
    if c.color is None and any(e.kind is EventKind.DRAW for e in events):
        return Verdict(cap(f"{lead} here, and nobody can challenge it"), tuple(events),
                       cite(events), playable=True, color=after.current_color)
    on = f"on {card_name(top_card)}"
    if top_card.color is None and col is not None:
        on += f" with {col.value} in play"
    shown = events[:_since_play(events)]
    return Verdict(cap(f"{lead} {on}"), tuple(shown), cite(shown), playable=True,
                   color=after.current_color)


def _bluff_words(t: TableSetup, v: Verdict, who: str, c: Card) -> Verdict:
    # A challenge's verdict said as the answer to "may I play this?".
    lead = f"Yes, {who} can play {card_name(c)}"
    if not v.settled:
        cases = tuple(replace(x, verdict=_bluff_words(t, x.verdict, who, c)) for x in v.cases)
        # As a referee says it: the condition first, and what a bluff risks.
        held = (v.depends_on or "").removeprefix(f"whether {who} holds ")
        parts = held.replace(" or ", ", ").split(", ")
        none = (and_list([f"no {p.split(' ', 1)[1]}" for p in parts])
                if all(p.startswith(("a ", "an ")) for p in parts) else f"none of {held}")
        subject = "you hold" if who == UNNAMED[0] else f"{who} holds"
        return replace(v, cases=cases, playable=True,
                       outcome=f"Only if {subject} {none} (else it is a bluff: it may be "
                               "challenged)")
    if v.guilty:
        note = next((e.note for e in v.steps if e.kind is EventKind.GUILTY), "")
        text = (f"{lead}, but it is a bluff: they {note}, so a challenge would make them "
                f"draw {v.draws.get(t.names[0], 0)}")
    else:
        text = (f"{lead}, and it is no bluff: a challenge would fail and make the challenger "
                f"draw {v.draws.get(t.names[1], 0)}")
    return replace(v, outcome=text, playable=True)


@lru_cache(maxsize=64)
def _draw_wilds(t: TableSetup) -> tuple[Card, ...]:
    """The deck's wilds whose play makes the next player draw, as the engine plays them."""
    found = []
    number = next(x for x, _ in t.deck if x.is_number)
    for c, _ in t.deck:
        if c.color is not None:
            continue
        branch = Branch(t, tuple(BranchHand((c,) if s == 0 else (), 3) for s in range(t.n)),
                        (number,), number.color)
        game = branch.build()
        plays = plays_of(game, c, None, None)
        if not plays:
            continue
        game.apply(plays[0])
        if game.phase is Phase.PENDING or any(len(h) > 3 for h in game.hands[1:]):
            found.append(c)
    return tuple(found)


def challenge(scene: Scene, wild_by: SeatRef, *, hand: HandLike | None = None,
              named: Color | str | None = None, wild: Card | str | None = None) -> Verdict:
    """The next player challenges the draw wild ``wild_by`` played on the scene's top card
    (the card under the wild) with its color in play before the wild: guilty or innocent,
    who draws how many, who plays next (R4, R10, R20, R25, R35; R31: ``one`` has no
    challenge).

    ``hand`` is what the challenged player shows: the cards left after the wild (a count,
    or None, when it was not shown); the scene's hands give the others' sizes. Without
    the card under the wild (pizza-pizza's Wild Draw 2 is judged by it too), the verdict
    says when it matters. ``wild`` is the variant's draw wild unless given; ``named`` the
    color it named.

    >>> scene = Scene("classic", ["Ann", "Bea", "Cy"], color="red")
    >>> challenge(scene, "Ann", hand="blue-1 green-2").outcome
    "Ann's Wild Draw 4 was legal: Bea draws 6 and misses a turn, then Cy plays"
    >>> challenge(scene, "Ann", hand="red-1").guilty
    True
    """
    t = scene.seated()
    by = t.seat(wild_by, "who played the wild")
    if wild is not None:
        w = t.card(wild, "the wild")
    else:
        wilds = _draw_wilds(t)
        if not wilds:
            raise ImpossibleSituationError(f"the {t.variant.name} deck has no draw wild")
        w = wilds[0]
    top_card, col = scene.top, scene.color
    if col is None:
        raise ImpossibleSituationError("give the color in play before the wild (R10)")
    known, size = hand_arg(t, hand, f"{t.name(by)}'s hand", 1)
    named_color = color_arg(named, "the color named") if named is not None else col
    others = {s: h for s, h in scene.hands.items() if s != by}
    base = make_branch(t, by, ([w, *known], size + 1), others,
                       discard=[top_card] if top_card is not None else [], color=col,
                       direction=scene.direction, avoid=[w])
    base = with_piles(scene, base)
    tops = [top_card] if top_card is not None else tops_of(base, w)
    branch = replace(base, discard=(tops[0],))
    game = branch.build()
    play = legal_plays(t, branch, game, w, named_color, None)[0]
    events = game.apply(play)
    v = challenge_tops(branch.then(play), by, tops, w, since=_since_play(events),
                       played=(game, events))
    return replace(v, color=named_color if named is not None else None)


def first_card(scene: Scene, dealer: SeatRef, cards: Card | Cards, *,
               named: Color | str | None = None, chosen: SeatRef | None = None) -> Verdict:
    """The first card turned up after ``dealer`` dealt: what happens, who names the color,
    who plays first, the direction, and what goes back into the deck (R8, R9, R19, R23,
    R28, R34). Only the scene's table is read (a new hand has no top card yet).

    ``cards`` may be several cards, in the order they were turned up: every one but the
    last must have gone back. ``named`` is the color named for a Wild turned up;
    ``chosen`` whom the player left of the dealer chose to perform a rule card, for a
    Jackpot turned up (R19).

    >>> scene = Scene("classic", ["Ann", "Bea", "Cy", "Dan"])
    >>> first_card(scene, "Ann", "red-reverse").outcome
    'Red Reverse turned up first: Dan plays first, going counter-clockwise'
    >>> first_card(scene, "Ann", "wild").color_chooser
    'Bea'
    """
    t = scene.seated()
    d = t.seat(dealer, "the dealer")
    turned = t.cards([cards] if isinstance(cards, Card) else cards, "the card turned up")
    if not turned:
        raise ImpossibleSituationError("give the card turned up")
    steps: list[Event] = []
    returned: list[Card] = []
    for c in turned[:-1]:
        events = [e for e in _opening(t, d, c).opening_events if e.kind is not EventKind.DEAL]
        if events[0].kind is not EventKind.RETURNED:
            raise ImpossibleSituationError(
                f"{card_name(c)} stays on the discard pile: no card is turned up after it")
        steps.append(events[0])
        returned.append(c)
    last = turned[-1]
    game = _opening(t, d, last)
    events = [e for e in game.opening_events if e.kind is not EventKind.DEAL]
    lead = f"{card_name(last)} turned up first"
    if events[0].kind is EventKind.RETURNED:
        steps.append(events[0])
        return Verdict(as_sentence(lead, [*join_clauses(t, events[:1]), "turn up another card"]),
                       tuple(steps), cite(steps), returned=(*returned, last))
    said = join_clauses(t, events)
    if game.phase is Phase.CHOOSE and game.to_act is not None:
        # Whoever performs the rule card, the opening goes on the same way: the step (R19)
        # names nobody, and the rule card dispensed is left out.
        seat = game.to_act
        if chosen is not None:
            picked = game.apply(chosen_action(t, chosen))
            events += picked
            said += join_clauses(t, picked)
        else:
            picked = game.apply(Action(ActionKind.CHOOSE, target=seat))
            events += [Event(e.kind, e.seat, e.rule, e.source, e.names)
                       for e in picked if e.kind is EventKind.CHOOSE]
            said.append(f"{t.name(seat)} chooses a player to perform a rule card")
    if named is not None and game.phase is Phase.NAME_COLOR:
        # After the choice: a Wild Jackpot's color is named once the rule card is out (R19).
        colored = game.apply(Action(ActionKind.COLOR, color=color_arg(named, "the color named")))
        events += colored
        said += join_clauses(t, colored)
    end = end_clause(t, game, events)
    chooser = t.name(game.to_act) if (game.phase is Phase.NAME_COLOR
                                      and game.to_act is not None) else None
    return leaf(t, game, [*steps, *events], lead, clauses=said, end=end,
                 color_chooser=chooser, returned=tuple(returned))


def _opening(t: TableSetup, dealer: int, first: Card) -> Game:
    """A new hand dealt from a stacked deck that turns ``first`` up; the rest is filler."""
    order = neutral_order(t, frozenset([first]))
    left = t.counts()
    left[first] -= 1
    pool = sorted((+left).elements(), key=order.__getitem__)
    size = t.variant.hand_size
    reserve, pool = pool[:4], pool[4:]  # number cards to turn up if ``first`` goes back
    hands = [pool[i * size:(i + 1) * size] for i in range(t.n)]
    rest = reserve + pool[t.n * size:]
    try:
        deck = t.variant.stack_deck(hands, first, rest, dealer=dealer)
        return t.variant.new(list(t.names), deck=deck, dealer=dealer, options=t.options, seed=0)
    except SetupError as exc:
        raise ImpossibleSituationError(str(exc)) from None


def play_verdict(t: TableSetup, branch: Branch, plays: Sequence[Action], *, sizes: bool = False,
                 then: Sequence[Action] = ()) -> Verdict:
    """The verdict on a play: one way to play it, or a case for each seat it may name.
    Each seat it leaves on one card may be caught not calling UNO (R6: a case for each
    catcher)."""

    def played(a: Action) -> Verdict:
        b = branch.then(a, *then)
        try:
            ran = b.run()
        except TooOpenError as exc:
            return cut_short(exc.narrow)
        # Read by the catches once the answer has played on.
        kept = (ran[0].copy(), list(ran[1])) if ran[0].uno_owed else None
        v = resolve_branch(b, sizes=sizes, played=ran)
        return catches(b, v, played=kept, sizes=sizes) if kept is not None else v

    if len(plays) == 1:
        return played(plays[0])
    actor = plays[0].seat if plays[0].seat is not None else branch.to_act
    who = t.name(actor)
    cases = [Case(f"{who} swaps with {t.name(a.target)}" if a.target is not None else a.text,
                  played(a),
                  choice_of("target", who,
                            target=t.name(a.target) if a.target is not None else None))
             for a in plays]
    whom = f"whom {who} swaps hands with"
    if not cases[0].verdict.too_open:
        # A seat the budget could not follow further: naming the seat settles it.
        cases = [replace(c, verdict=cut_short(whom)) if c.verdict.too_open else c
                 for c in cases]
    return depends_clause(t, (), whom, cases)


def by_color(t: TableSetup, branch: Branch, card: Card, plays: Sequence[Action],
             answer: Callable[[list[Action]], Verdict], target: int | None = None) -> Verdict:
    """The answer to ``plays`` of ``card``; for a wild played without a color named, the
    color is its player's choice: each color is played out, and either the answer does
    not hang on it (then it claims no color) or it is a case for each color."""
    if card.color is not None or not plays or plays[0].color is None:
        return answer(list(plays))
    game = branch.build()
    who = t.name(branch.to_act)
    before = branch.budget.left
    per: list[tuple[Color, Verdict]] = [(plays[0].color, answer(list(plays)))]
    narrow = per[0][1].too_open
    branch.budget.left += min(COLOR_BUDGET, 3 * (before - branch.budget.left))
    for color in COLORS:
        ps = [] if color is plays[0].color else plays_of(game, card, color, target)
        if ps:
            # Past the budget with the first color, the others are not followed at all (as
            # open as it, they would only be cut shorter): each says what to tell.
            per.append((color, cut_short(narrow) if narrow else answer(ps)))
    first = per[0][1]
    said = answer_key(first, color=False)
    if all(answer_key(v, color=False) == said for _, v in per[1:]):
        return colorless(first, card)
    per.sort(key=lambda x: COLORS.index(x[0]))
    if not first.too_open:
        # A color the budget could not follow further: naming the color settles it.
        per = [(color, cut_short(f"the color {who} names") if v.too_open else v)
               for color, v in per]
    cases = [Case(f"{who} names {color.value}", v, choice_of("color", who, color=color))
             for color, v in per]
    return depends_clause(t, (), f"which color {who} names", cases)


def whos_next(scene: Scene, turn: SeatRef, card: Card | str, *,
              named: Color | str | None = None, target: SeatRef | None = None,
              lever: LeverOutcome | str | None = None,
              chosen: SeatRef | None = None) -> Verdict:
    """``turn`` plays ``card`` on the scene's top card (default: a card it can go on):
    who plays next, who draws, who is skipped, with the table's house rules and the
    two-player rules (R13).

    ``named``: the color named with a wild (without it, the color is the player's choice:
    the answer claims no color where it does not hang on it, else it is a case for each
    color). ``target``: the
    seat a Wild Swap Hands (or a 7 under 7-0) names. ``lever``: what a Wild Jackpot lever
    showed; ``chosen``: whom its player chose to perform a rule card when it showed
    "choose" (R18; given alone, the lever showed that). The scene's hands are before the
    play; its ``draw_pile`` and ``rule_cards`` are the piles then (R2, R17).

    >>> whos_next(Scene("classic", ["Ann", "Bea", "Cy"]), "Ann", "red-draw2").outcome
    'Bea draws 2 and misses a turn, then Cy plays'
    >>> whos_next(Scene("classic", ["Ann", "Bea"]), "Ann", "red-reverse").outcome
    'Ann plays again: play now goes counter-clockwise'
    """
    t = scene.seated()
    p = t.seat(turn, "whose turn")
    c = t.card(card, "the card played")
    branch, plays = play_branch(t, p, c, others=scene.hands, direction=scene.direction,
                                top=scene.top, color=scene.color, named=named, target=target)
    branch = with_piles(scene, branch)
    then: list[Action] = []
    if lever is None and chosen is not None:
        lever = LeverOutcome.CHOOSE
    if lever is not None:
        try:
            then.append(Action(ActionKind.LEVER, lever=LeverOutcome(lever)))
        except ValueError:
            raise ImpossibleSituationError(f"{lever!r} is not a lever outcome") from None
    if chosen is not None:
        if then[0].lever is not LeverOutcome.CHOOSE:
            raise ImpossibleSituationError(
                "only a lever that shows 'choose' lets its player choose who performs a rule card")
        then.append(chosen_action(t, chosen))
    target_seat = t.seat(target, "the seat to swap with") if target is not None else None

    def answer(ps: list[Action]) -> Verdict:
        return play_verdict(t, branch, ps, then=then)

    return answer(plays) if named is not None else by_color(t, branch, c, plays, answer,
                                                            target_seat)


def uno_catch(scene: Scene, player: SeatRef, *, card: Card | str | None = None,
              played: bool = True, called: bool = False, next_began: bool = False,
              catcher: SeatRef | None = None, target: SeatRef | None = None,
              named: Color | str | None = None, caught_by: SeatRef | None = None) -> Verdict:
    """Can ``player``, down to one card, still be caught not calling UNO: by whom, until
    when, and what it costs (R6 and the table's ``uno_penalty``)?

    ``card`` is the next-to-last card ``player`` played on the scene's top card
    (``played=False``: not played yet); ``called``: they called UNO since;
    ``next_began``: the next player has begun their turn; ``catcher``: who catches them
    (the catch then happens); ``target``: the seat a Wild Swap Hands (or a 7 under 7-0)
    swapped with; ``named``: the color named, where that card was a wild; ``caught_by``:
    who caught ``player`` already, after the play (a call made after that changes
    nothing, so ``called`` is not asked then). The scene's ``draw_pile`` is the draw pile
    a penalty is drawn from (R2).

    >>> scene = Scene("classic", ["Ann", "Bea", "Cy"])
    >>> uno_catch(scene, "Ann").outcome
    'Yes: Bea or Cy can catch Ann until Bea begins their turn (plays or draws); a caught Ann draws 4'
    >>> uno_catch(scene, "Ann", card="red-skip").until
    'Cy'
    """
    t = scene.seated()
    p = t.seat(player, "the player")
    if card is not None:
        c = t.card(card, "the card played")
    else:
        top_card, col = scene.top, scene.color
        left = t.counts()
        if top_card is not None:
            left[top_card] -= 1
        order = neutral_order(t, frozenset([top_card] if top_card else []))
        c = min((x for x in +left if x.is_number),
                key=lambda x: (col is not None and x.color is not col, order[x]))
    v = _uno_verdict(scene, t, p, c, given=card is not None, played=played, called=called,
                     next_began=next_began, catcher=catcher, target=target, named=named,
                     caught_by=caught_by)
    # A wild played: unless the table said which color it named, nobody named it here,
    # and the answer does not hang on it.
    return colorless(v, c) if c.color is None and named is None else v


def _uno_verdict(scene: Scene, t: TableSetup, p: int, c: Card, *, given: bool, played: bool,
                 called: bool, next_began: bool, catcher: SeatRef | None,
                 target: SeatRef | None, named: Color | str | None = None,
                 caught_by: SeatRef | None = None) -> Verdict:
    who = t.name(p)
    branch, plays = play_branch(t, p, c, others=scene.hands, hand=([c], 2),
                                direction=scene.direction, top=scene.top, color=scene.color,
                                target=target, named=named)
    branch = with_piles(scene, branch)
    if len(plays) > 1:
        raise ImpossibleSituationError(
            f"give the seat {who} swapped hands with: the UNO call follows the cards")
    catcher_seat = t.seat(catcher, "the catcher") if catcher is not None else (p + 1) % t.n
    catch = Action(ActionKind.CATCH, seat=catcher_seat, target=p)
    if not played:
        game = branch.build()
        reason, rule = refusal(game, catch)
        return Verdict(cap(f"no: {reason}"), citations=(rule,) if rule else (),
                       catchable=False, penalty=game.uno_penalty)
    branch = branch.then(plays[0])
    if caught_by is not None:
        branch = first_catch(t, branch, p, caught_by)
    game, events = branch.run()
    call = Action(ActionKind.UNO, seat=p)
    # A call nobody owes is not made (R6); caught already, the call no longer counts.
    made = called and caught_by is None and game.is_legal(call)
    if made:
        branch = branch.then(call)
        events += game.apply(call)
    if not given:
        # The card played was not given: the one picked to play it is no step to show.
        events = [e for e in events if not (e.kind is EventKind.PLAY and e.seat == p)]
    penalty = game.uno_penalty
    if called and caught_by is None and p not in game.uno_owed and len(game.hands[p]) != 1:
        # No call was owed (a swap left them more cards): nothing to call, nothing to catch.
        held = len(game.hands[p])
        return Verdict(f"No: no UNO call is owed, {who} holds {held} card{'s' * (held != 1)}",
                       tuple(events), cite(events, ["R6"]), catchable=False, penalty=penalty)
    closer = _close_window(game, p) if next_began else None
    catchers = tuple(t.name(a.seat) for a in game.legal_actions()
                     if a.kind is ActionKind.CATCH and a.target == p and a.seat is not None)
    if not game.is_legal(catch) and (catcher is not None or not catchers):
        reason, rule = refusal(game, catch)
        if closer is not None:
            reason = f"it is too late: {t.name(closer)} has begun their turn"
        elif caught_by is not None:
            reason = caught_reason(t, p, caught_by, reason)
        elif made:
            # The call was owed and made (the engine took it), so that is why (R6).
            reason = f"{who} has called UNO: a late call, made before anyone catches you, is safe"
        return Verdict(cap(f"no: {reason}"), tuple(events), cite(events, [rule]),
                       catchable=False, penalty=penalty, color=game.current_color)
    probe, _ = branch.run()
    until = _close_window(probe, p)
    until_name = t.name(until) if until is not None else None
    if catcher is not None:
        caught = game.apply(catch)
        return leaf(t, game, [*events, *caught], "yes", catchable=True, catchers=catchers,
                     until=until_name, penalty=penalty)
    # The catch is tried on the game as played, unless the next turn was played on it.
    probe = branch.run()[0] if next_began else game
    text = (f"Yes: {or_list(list(catchers))} can catch {who} until {until_name} begins their turn "
            f"(plays or draws); a caught {who} draws {penalty}")
    return Verdict(text, tuple(events), cite(events, cite(probe.apply(catch))),
                   catchable=True, catchers=catchers, until=until_name, penalty=penalty,
                   color=game.current_color)


def _close_window(game: Game, p: int) -> int | None:
    """Play on until nobody can catch ``p`` any more; the seat whose turn closed it."""
    def open_() -> bool:
        return any(a.kind is ActionKind.CATCH and a.target == p for a in game.legal_actions())

    for _ in range(4 * game.player_count):
        seat = game.to_act
        if not open_() or seat is None:
            return None
        if game.phase is Phase.PENDING:
            action = ACCEPT_ACTION
        elif game.phase is Phase.DRAWN:
            action = Action(ActionKind.PASS)
        else:
            action = Action(ActionKind.DRAW)
        if not game.is_legal(action):
            return None
        game.apply(action)
        if not open_():
            return seat
    return None


def end_of_hand(scene: Scene, went_out: SeatRef, last_card: Card | str, *,
                named: Color | str | None = None, drawn: Cards | None = None,
                mode: ScoringMode | str | None = None) -> Verdict:
    """``went_out`` plays their last card on the scene's top card: who draws for a final
    draw card (R5), then the points each other player holds and the hand's score (the
    variant's points; none in ``one``, R32).

    The scene's hands are the other seats' cards (a count where they are not known).
    ``drawn``: the cards drawn for a final draw card, top of the draw pile first (without
    them, the verdict says whose points still need counting). ``mode``: the scoring mode
    (default: the variant's own).

    >>> scene = Scene("classic", ["Ann", "Bea", "Cy"], hands={"Bea": "red-7 wild", "Cy": "green-skip"})
    >>> end_of_hand(scene, "Ann", "blue-draw2", drawn="blue-1 blue-2").points
    {'Bea': 60, 'Cy': 20}
    """
    t = scene.seated()
    p = t.seat(went_out, "who went out")
    c = t.card(last_card, "the last card")
    held = {s: h for s, h in scene.hands.items() if s != p}
    draw_top = t.cards(drawn or (), "the cards drawn")
    chosen = _mode(t, mode)
    branch, plays = play_branch(t, p, c, others=held, hand=([c], 1), direction=scene.direction,
                                top=scene.top, color=scene.color, named=named,
                                draw_top=draw_top)
    played = with_piles(scene, branch).then(plays[0])
    game, events = played.run()
    if game.phase is Phase.PENDING and game.to_act is not None:
        seat = game.to_act
        cases = [Case(f"{t.name(seat)} takes the {game.pending_draw} cards",
                      _points(t, played.then(ACCEPT_ACTION), chosen, len(draw_top), held),
                      choice_of("challenge", t.name(seat), yes=False))]
        if game.is_legal(CHALLENGE_ACTION):
            cases.append(Case(f"{t.name(seat)} challenges",
                              _points(t, played.then(CHALLENGE_ACTION), chosen, len(draw_top), held),
                              choice_of("challenge", t.name(seat), yes=True)))
        return depends_clause(t, events, f"what {t.name(seat)} does: "
                        f"{or_list(['take the cards', 'challenge'][:len(cases)])}", cases)
    v = _points(t, played, chosen, len(draw_top), held)
    return colorless(v, c) if c.color is None and named is None else v


def _mode(t: TableSetup, mode: ScoringMode | str | None) -> ScoringMode:
    if mode is None:
        return t.variant.scoring_modes[0]
    try:
        chosen = mode if isinstance(mode, ScoringMode) else ScoringMode(mode)
    except ValueError:
        raise ImpossibleSituationError(f"{mode!r} is not a scoring mode") from None
    if chosen not in t.variant.scoring_modes:
        raise ImpossibleSituationError(f"{t.variant.name} is not scored {chosen.value}")
    return chosen


def _points(t: TableSetup, branch: Branch, mode: ScoringMode, known_draws: int,
            held: Mapping[int, KnownHand]) -> Verdict:
    game, events = branch.run()
    result = game.hand_result()
    out = t.name(result.went_out)
    said = join_clauses(t, events)
    end = end_clause(t, game, events)
    if result.points is None:
        return leaf(t, game, events, clauses=said,
                     end=f"{end}: {out} wins ({t.variant.title} has no points)",
                     scores={out: 1})
    if not mode.uses_points:  # a tally of wins counts no cards (R37): nothing to count
        return leaf(t, game, events, clauses=said,
                    end=f"{end}: {out} wins the hand (a tally of wins counts no points)",
                    scores={out: 1})
    # Cards whose points nobody gave: hands given as counts, and cards drawn beyond ``drawn``.
    unseen: dict[int, list[Card]] = {}
    seen = 0
    for e in events:
        if e.kind is EventKind.DRAW and e.seat is not None:
            for c in e.cards:
                if seen >= known_draws:
                    unseen.setdefault(e.seat, []).append(c)
                seen += 1
    points: dict[str, int] = {}
    uncounted: dict[str, int] = {}
    hidden: set[str] = set()
    for s, cards in result.held.items():
        rest = list(cards)
        k, n = held.get(s, ([], t.variant.hand_size))
        if len(k) != n:
            uncounted[t.name(s)] = len(rest)
            hidden.add(t.name(s))
            rest = []
        else:
            for c in unseen.get(s, []):
                rest.remove(c)
            if unseen.get(s):
                uncounted[t.name(s)] = len(unseen[s])
        points[t.name(s)] = t.variant.hand_points(rest, t.options)
    if uncounted:
        todo = [f"{name}'s {n} card{'s' if n != 1 else ''}" if name in hidden else
                f"the {n} card{'s' if n != 1 else ''} {name} drew"
                for name, n in uncounted.items()]
        so_far = ", ".join(f"{name} {pts}" for name, pts in points.items()
                           if name not in hidden)
        text = f"{end}: count {and_list(todo)}" + (f" (so far: {so_far})" if so_far else "")
        v = leaf(t, game, events, clauses=said, end=text, points=points, uncounted=uncounted)
        return replace(v, depends_on=f"the points of {and_list(todo)}")
    try:
        standings = new_standings(mode, t.n, t.variant.default_target or 1)
        hand_score = score_hand(standings, result.outcome).hands[-1]
    except ScoringError as exc:
        raise ImpossibleSituationError(str(exc)) from None
    scores = {t.name(s): pts for s, pts in hand_score.points.items()}
    # The cards that score: a partner's cards aside (R15c).
    scored = {t.name(s) for s in standings.scored_seats(result.went_out)}
    listed = ", ".join(f"{name} {pts}" for name, pts in points.items()
                       if mode.charges_holder or name in scored)
    team = tuple(t.name(s) for s in standings.team_of(result.went_out))
    if mode.charges_holder:
        text = f"each player is charged their cards ({listed})"
    elif len(team) > 1:
        text = f"{and_list(list(team))} score {scores[out]} as a team ({listed})"
    else:
        text = f"{out} scores {scores[out]} ({listed})"
    return leaf(t, game, events, clauses=said, end=f"{end}: {text}", points=points,
                 scores=scores, team=team if len(team) > 1 else ())

