"""A settled answer holds in every branch of the position (issue 20), checked the long
way: on small positions, every hand the unknown seats may hold and every choice the
players have left (the color named, the lever, each card discarded in each order,
taking or challenging a draw, passing it on, each catch of each seat left on one card,
each jump-in where that house rule is on) are played out by the engine itself, with no
help from the referee; wherever the referee says "settled", every one of those games
must end as it says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from engine import (
    COLORS,
    Action,
    ActionKind,
    Card,
    Event,
    EventKind,
    Game,
    LeverOutcome,
    Phase,
    Position,
    TableOptions,
    find_variant,
)
from engine.referee import RefereeError, Scene, Verdict, whos_next

VARIANTS = ["classic", "wild-jackpot", "pizza-pizza", "one"]
NAMES = ["Ann", "Bea", "Cy"]
DIRECTIONS = {1: "clockwise", -1: "counter-clockwise"}
#: Out of turn: an UNO call ends as nobody catching does; catches and jump-ins are
#: followed on their own.
OUT_OF_TURN = {ActionKind.UNO, ActionKind.CATCH, ActionKind.JUMP}


def branches(game: Game, events: list[Event],
             caught: frozenset[int] = frozenset()) -> Iterator[tuple[Game, list[Event]]]:
    """Every way the position can go until the next player's turn begins (or the hand
    ends): each legal action of each decision, each lever outcome, each catch of each
    seat on one card (once a seat), and each jump-in before the turn begins."""
    actions = game.legal_actions()
    for a in actions:
        if a.kind is ActionKind.CATCH and a.target not in caught:
            assert a.target is not None
            g = game.copy()
            yield from branches(g, events + g.apply(a), caught | {a.target})
    for a in actions:
        if a.kind is ActionKind.JUMP:  # the house rule on: play goes on from the jumper
            g = game.copy()
            yield from branches(g, events + g.apply(a), caught)
    if game.is_over or game.to_act is None or game.phase in (Phase.TURN, Phase.NAME_COLOR):
        yield game, events
        return
    for a in actions:
        if a.kind in OUT_OF_TURN:
            continue
        spun = ([Action(ActionKind.LEVER, lever=o) for o in LeverOutcome]
                if a.kind is ActionKind.LEVER else [a])
        for b in spun:
            g = game.copy()
            yield from branches(g, events + g.apply(b), caught)


def facts(game: Game, events: list[Event]) -> dict[str, object]:
    draws: Counter[str] = Counter()
    skipped = []
    for e in events:
        if e.kind is EventKind.DRAW and e.seat is not None and e.amount:
            draws[e.names[e.seat]] += e.amount
        elif e.kind is EventKind.LOSE_TURN and e.seat is not None:
            skipped.append(e.names[e.seat])
    playing = (not game.is_over and game.to_act is not None
               and game.phase in (Phase.TURN, Phase.DRAWN, Phase.NAME_COLOR))
    return {"next_player": NAMES[game.to_act] if playing and game.to_act is not None
            else None, "draws": dict(draws), "skipped": tuple(skipped),
            "direction": DIRECTIONS[game.direction], "color": game.current_color}


def said(v: Verdict) -> dict[str, object]:
    return {"next_player": v.next_player, "draws": dict(v.draws), "skipped": v.skipped,
            "direction": v.direction, "color": v.color}


@st.composite
def positions(draw: st.DrawFn) -> dict[str, object]:
    variant = draw(st.sampled_from([*VARIANTS, "wild-jackpot"]))
    cls = find_variant(variant)
    options = cls.default_options()
    if variant == "classic" and draw(st.booleans()):
        options = TableOptions(stacking=True)
    if draw(st.booleans()):  # the jump-in house rule, one time in two
        options = replace(options, jump_in=True)
    if variant == "classic" and draw(st.booleans()):  # 7-0: hands move (and may be caught)
        options = replace(options, seven_o=True)
    deck = cls.deck_counts(options)
    cards = sorted((c for c in deck if c.rank.value != "wild-dip"), key=lambda c: c.text)
    seats = draw(st.sampled_from([2, 3]))
    # The cards dealt from a shuffled deck, so that no card is named more than it is held.
    pool = [c for c in cards for _ in range(deck[c])]
    shuffled = iter(draw(st.permutations(pool)))
    top = next(c for c in shuffled if c.color is not None)
    # Mostly a card that goes on the top card (the others are refused, and tell little).
    fits = [c for c in cards if c.color is None or c.color is top.color or c.rank is top.rank]
    # A lever's discard is the richest choice, and hands that move may leave a seat on one
    # card: a Jackpot, a Wild Swap Hands (or a 7 or a 0 under 7-0) is played one time in two.
    moving = ("jackpot", "wild-jackpot", "wild-swap", *(("7", "0") if options.seven_o else ()))
    specials = [c for c in fits if c.rank.value in moving]
    played = draw(st.sampled_from(specials) if specials and draw(st.booleans()) else
                  st.sampled_from(fits))
    assume(played is not top or deck[played] > 1)
    # One seat at most holds a card nobody knows: every card it may be is played out.
    unknown = draw(st.sampled_from([None, *range(seats)]))
    hands: list[list[Card]] = []
    for s in range(seats):
        size = 1 if s == unknown else draw(st.integers(1, 4 if s == 0 else 2))
        known = [] if s == unknown else [next(c for c in shuffled if c is not played)
                                        for _ in range(size)]
        hands.append(([played] if s == 0 else []) + known)
    if options.jump_in and draw(st.booleans()):
        # A seat shown to hold a copy of the card played, which it may jump in with.
        holder = draw(st.sampled_from([s for s in range(seats) if s != unknown]))
        hands[holder].append(played)
    named = draw(st.sampled_from([None, None, None, *COLORS])) if played.color is None else None
    lever = None
    if variant == "wild-jackpot" and played.rank.value in ("jackpot", "wild-jackpot"):
        lever = draw(st.sampled_from([None, LeverOutcome.DISCARD, *LeverOutcome]))
    named_cards = Counter([top, *(c for h in hands for c in h)])
    assume(all(n <= deck[c] for c, n in named_cards.items()))
    return {"variant": variant, "options": options, "seats": seats, "top": top,
            "played": played, "hands": hands, "unknown": unknown, "named": named,
            "lever": lever}


def every_game(p: dict[str, object]) -> Iterator[tuple[Game, list[Event]]]:
    """The position with every card the unknown seat may hold, played out every way."""
    cls = find_variant(str(p["variant"]))
    deck = cls.deck_counts(p["options"])  # type: ignore[arg-type]
    top, played = p["top"], p["played"]
    assert isinstance(top, Card)
    hands: list[list[Card]] = p["hands"]  # type: ignore[assignment]
    unknown = p["unknown"]
    left = Counter(deck)
    left.subtract([top, *(c for h in hands for c in h)])
    fills: list[Card | None] = sorted(+left, key=lambda c: c.text) if unknown is not None \
        else [None]
    for fill in fills:
        full = [list(h) for h in hands]
        if fill is not None:
            assert isinstance(unknown, int)
            full[unknown].append(fill)
        rest = Counter(left)
        if fill is not None:
            rest[fill] -= 1
        pile = sorted((+rest).elements(), key=lambda c: (not c.is_number, c.text))[:30]
        game = cls.from_position(Position(
            cls.name, NAMES[:p["seats"]], tuple(map(tuple, full)), (top,), tuple(pile),
            top.color, options=p["options"]))
        plays = [a for a in game.legal_actions() if a.kind is ActionKind.PLAY
                 and a.card is played and not a.uno
                 and (p["named"] is None or a.color is p["named"])]
        for play in plays:
            g = game.copy()
            events = g.apply(play)
            if p["lever"] is not None:
                if g.phase is not Phase.LEVER:
                    continue
                events += g.apply(Action(ActionKind.LEVER, lever=p["lever"]))
            yield from branches(g, events)


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(positions())
def test_a_settled_answer_holds_in_every_branch(p):
    hands = {NAMES[s]: (1 if s == p["unknown"] else [c.text for c in h])
             for s, h in enumerate(p["hands"])}
    if p["unknown"] == 0:
        hands["Ann"] = 2  # the card played and one nobody knows
    scene = Scene(p["variant"], NAMES[:p["seats"]], top=p["top"].text, hands=hands,
                  options=p["options"])
    try:
        v = whos_next(scene, "Ann", p["played"], named=p["named"], lever=p["lever"])
    except RefereeError:
        assume(False)
        return
    if not v.settled or v.too_open:
        event("not settled")
        return
    answer = said(v)
    seen = 0
    jumped = False
    for game, events in every_game(p):
        got = facts(game, events)
        if answer["color"] is None:
            got["color"] = None  # an answer that claims no color
        assert got == answer, (p, v.outcome)
        seen += 1
        jumped = jumped or any(e.kind is EventKind.JUMP for e in events)
    assert seen, "the referee settled a play the engine does not allow"
    event(f"settled, {'several branches' if seen > 1 else 'one branch'}")
    if p["options"].jump_in:
        event(f"settled with jump-in on{', a jump-in among the branches' if jumped else ''}")
    if p["played"].color is None and p["named"] is None:
        event("settled, a wild with no color named")


def test_the_long_way_finds_a_choice_the_answer_hangs_on():
    # The comparison above means something: on the position the branches differ,
    # and the referee does not settle it.
    p = {"variant": "wild-jackpot", "options": find_variant("wild-jackpot").default_options(),
         "seats": 3, "top": Card.parse("red-5"), "played": Card.parse("wild-jackpot"),
         "hands": [[Card.parse(c) for c in ("wild-jackpot", "red-skip", "blue-3", "wild")],
                   [Card.parse("green-1")], [Card.parse("green-2")]],
         "unknown": None, "named": COLORS[0], "lever": LeverOutcome("discard")}
    nexts = {facts(g, e)["next_player"] for g, e in every_game(p)}
    assert nexts == {"Bea", "Cy"}
    scene = Scene("wild-jackpot", NAMES, top="red-5",
                  hands={"Ann": "wild-jackpot red-skip blue-3 wild", "Bea": "green-1",
                         "Cy": "green-2"})
    assert not whos_next(scene, "Ann", "wild-jackpot", named="red", lever="discard").settled
