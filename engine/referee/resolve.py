"""Resolving the decisions that follow a play: a pending draw (take it, challenge it,
pass it on), the lever, a discard, a rule card, a gift, and Let's Build a Droid walked
round by round. Where the answer hangs on an unknown, each way it can turn out is a
:class:`Case`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .. import (
    COLORS,
    DRAW_OF,
    Action,
    ActionKind,
    Card,
    Color,
    Event,
    EventKind,
    Game,
    LeverOutcome,
    Phase,
    Rank,
    card_name,
)
from .branch import Branch, narrowed, neutral_order, rule_hooks
from .scene import TableSetup
from .verdict import (
    BadCountError,
    Case,
    IllegalMoveError,
    RefereeError,
    TooOpenError,
    Verdict,
    choice_of,
)
from .wording import (
    and_list,
    article,
    bare,
    case_key,
    depends_clause,
    describe_case,
    end_clause,
    fold_actors,
    guilt,
    join_clauses,
    leaf,
    or_list,
)

# -- resolving the decisions that follow a play ---------------------------------------------

#: A branch already run: its game and the events that got there.
Ran = tuple[Game, list[Event]]

ACCEPT_ACTION = Action(ActionKind.ACCEPT)
CHALLENGE_ACTION = Action(ActionKind.CHALLENGE)
_DONE = Action(ActionKind.DONE)


def cut_short(narrow: str) -> Verdict:
    """A case the referee stops following: its search budget is spent (SEARCH_BUDGET)."""
    return Verdict(f"Too open to follow further: tell the referee {narrow}",
                   depends_on=narrow, too_open=narrow)


def resolve_branch(branch: Branch, *, lead: str = "", since: int = 0, sizes: bool = False,
             played: tuple[Game, list[Event]] | None = None) -> Verdict:
    """Play ``branch`` and settle what follows: a pending draw, the lever, a droid...
    ``played``: ``branch`` already run, where the caller has it. Where the question's
    budget runs out on the way, this case says it is too open (the others stand)."""
    try:
        return _settle(branch, lead=lead, since=since, sizes=sizes, played=played)
    except TooOpenError as exc:
        return cut_short(exc.narrow)


def _settle(branch: Branch, *, lead: str, since: int, sizes: bool,
            played: tuple[Game, list[Event]] | None) -> Verdict:
    t = branch.table
    game, events = played or branch.run()
    shown = events[since:]
    phase = game.phase
    seat = game.to_act
    if phase is Phase.PENDING and seat is not None:
        return _pending(branch, game, events, since=since, lead=lead, sizes=sizes)
    if phase is Phase.LEVER and seat is not None:
        cases = [Case(f"the lever shows: {o.words}",
                      resolve_branch(branch.then(Action(ActionKind.LEVER, lever=o)), since=since,
                               sizes=sizes),
                      choice_of("lever", t.name(seat), outcome=o.value))
                 for o in LeverOutcome]
        return depends_clause(t, shown, "what the lever shows", cases)
    if phase is Phase.DISCARD and seat is not None:
        return _discards(branch, game, events, since=since, lead=lead, sizes=sizes)
    if phase is Phase.CHOOSE and seat is not None:
        # Whoever is chosen, the rule card changes no cards: play goes on the same way.
        chose = branch.then(Action(ActionKind.CHOOSE, target=seat))
        after, later = chose.run()
        said = join_clauses(t, shown) + [f"{t.name(seat)} chooses a player to perform a rule card"]
        return jump_ins(chose, leaf(t, after, shown, lead, clauses=said,
                                    end=end_clause(t, after, later),
                                    next_player=_playing(t, after), sizes=sizes),
                        (after, later), since=since, sizes=sizes)
    if phase is Phase.GIVE and seat is not None:
        gave = branch.then(Action(ActionKind.GIVE, game.hands[seat][0]))
        after, later = gave.run()
        at = first_case(later, EventKind.GIVE, len(events))
        # The card given is the player's choice: no step names it (the filler's card).
        unnamed = (after, [*later[:at], *later[at + 1:]])

        def gift(b: Branch, ran: tuple[Game, list[Event]] | None = None) -> Verdict:
            g, ev = ran or b.run()
            given = ev[at]
            receiver = t.name(given.target) if given.target is not None else ""
            rest = ev[at + 1:]
            said = [*join_clauses(t, shown),
                    f"{t.name(seat)} gives a card of their choice to {receiver}",
                    *join_clauses(t, rest)]
            return leaf(t, g, [*shown, *rest], lead, clauses=said, end=end_clause(t, g, ev),
                        next_player=_playing(t, g), sizes=sizes)

        # Down to one card after the gift: it may be caught (R6).
        return catches(gave, gift(gave, (after, later)), played=unnamed, since=since,
                       sizes=sizes, resolve=gift)
    if phase is Phase.DROID:
        return _droid(branch, since=since, played=(game, events))
    return jump_ins(branch, leaf(t, game, shown, lead, sizes=sizes), (game, events),
                    since=since, sizes=sizes)


# -- jump-ins (house rule): before the next player begins their turn --------------------------


def jump_ins(branch: Branch, v: Verdict, played: Ran, *, since: int = 0,
             sizes: bool = False) -> Verdict:
    """``v``, the answer where ``branch`` has reached a player's turn (``played``: run,
    read and not played on), with a case for each seat that may jump in with a copy of
    the top card first (house rule; the engine says who and when): a seat shown to hold
    one, or one whose unknown cards may, where the deck has a copy nobody named."""
    t = branch.table
    game, events = played
    if not t.options.jump_in or game.phase is not Phase.TURN:
        return v
    top = game.top_card
    # An unknown hand may hold a copy only where the deck has one nobody named (the one
    # Wild Swap Hands has none): counted, not played.
    unseen = top is not None and branch.remaining()[top] > 0
    legal = game.legal_actions()
    if top is None or not any(a.kind is ActionKind.JUMP for a in legal) and (
            not unseen or all(branch.hands[s].unknown < 1 for s in range(t.n))):
        return v
    cases = [Case("nobody jumps in", v, choice_of("jump_in", None, cards=[top], yes=False))]
    for s in range(t.n):
        held = [a for a in legal if a.kind is ActionKind.JUMP and a.seat == s]
        if held:  # a copy the table knows they hold: played on from a copy of the game
            cases.append(Case(f"{t.name(s)} jumps in with another {card_name(top)}",
                              _targets(branch, game, events, held, since=since, sizes=sizes),
                              choice_of("jump_in", t.name(s), cards=[top], yes=True)))
            continue
        if branch.hands[s].unknown < 1 or not unseen:
            continue
        try:
            tried = branch.with_hand(s, [top])
            g, ev = tried.run()
        except TooOpenError as exc:  # the rest are not tried: said as one case
            cases.append(Case(f"someone else jumps in with another {card_name(top)}",
                              cut_short(exc.narrow),
                              choice_of("jump_in", None, cards=[top], yes=True)))
            break
        except RefereeError:
            continue
        jumps = [a for a in g.legal_actions() if a.kind is ActionKind.JUMP and a.seat == s]
        if jumps:  # played on from the game just set up
            cases.append(Case(f"{t.name(s)} jumps in with another {card_name(top)}",
                              _targets(tried, g, ev, jumps, since=since, sizes=sizes),
                              choice_of("jump_in", t.name(s), cards=[top], yes=True)))
    if len(cases) == 1:
        return v
    # Jumpers to the same effect (only the step naming them differs) are one case.
    cases = fold_actors(cases, "{who} jumps in with", "someone jumps in with")
    return depends_clause(t, events[since:],
                          f"whether someone jumps in with another {card_name(top)}", cases)


def _targets(branch: Branch, game: Game, events: list[Event], jumps: Sequence[Action], *,
             since: int, sizes: bool) -> Verdict:
    """A seat's jump-in, each from a copy of ``game``: one way, or, for a card that names a
    seat (a 7 under 7-0), a case for each seat it may swap with."""
    t = branch.table

    def one(a: Action, paid: bool = True) -> Verdict:
        fork = game.copy()
        if paid:  # another target: paid as a position set up (its steps are as long)
            try:
                branch.budget.pay(len(branch.prelude), lambda: narrowed(branch))
            except TooOpenError as exc:
                return cut_short(exc.narrow)
        return _jumped(branch.then(a), since=since, sizes=sizes,
                       played=(fork, [*events, *fork.apply(a)]))

    if len(jumps) == 1 or jumps[0].target is None:
        return one(jumps[0], paid=False)
    who = t.name(jumps[0].seat if jumps[0].seat is not None else branch.to_act)
    cases = [Case(f"{who} swaps with {t.name(a.target)}", one(a),
                  choice_of("target", who, target=t.name(a.target)))
             for a in jumps if a.target is not None]
    # Whom they swap with, where it changes nothing else the answer says: one case.
    cases = fold_actors(cases, f"{who} swaps hands with {{who}}",
                        f"{who} swaps hands with another player",
                        f"{who} swaps with anyone", by="target")
    return depends_clause(t, (), f"whom {who} swaps hands with", cases)


def _jumped(branch: Branch, *, since: int, sizes: bool, played: Ran | None = None) -> Verdict:
    """After a jump-in: what follows, and the jumper, left on one card, may be caught (R6).
    ``played``: ``branch`` run already."""
    try:
        if played is not None:  # a position played on costs one
            branch.budget.pay(1, lambda: narrowed(branch))
        ran = played or branch.run()
    except TooOpenError as exc:
        return cut_short(exc.narrow)
    kept = (ran[0].copy(), list(ran[1])) if ran[0].uno_owed else None
    v = resolve_branch(branch, since=since, sizes=sizes, played=ran)
    return catches(branch, v, played=kept, since=since, sizes=sizes) if kept is not None else v


# -- the lever's discard (R18): which cards, and in which order -------------------------------


def _discards(branch: Branch, game: Game, events: Sequence[Event], *, since: int, lead: str,
              sizes: bool) -> Verdict:
    """After the lever's "discard" (R18) the seat to act throws up to one card of each
    color, in the order it likes. Every set of cards it may throw is played out: each card
    it holds, or, where its hand is not known, each card the deck still holds. Only action
    cards act on the next player (R18), so one number card of a color stands for all of
    them, and the order only decides which card ends on top: a set of two colors or more
    leaves the color in play open. The sets that end alike (who plays next, who draws, who
    is skipped, the direction) are one case; where they may leave different colors in
    play, that case names none."""
    t = branch.table
    seat = game.to_act
    assert seat is not None
    who = t.name(seat)
    known, unknown = _held(branch, game, events, seat)
    if not known and unknown > 0:
        return _discard_kinds(branch, game, events, seat, unknown, since=since, lead=lead,
                              sizes=sizes)
    order = neutral_order(t, frozenset())
    pool = sorted(branch.remaining(), key=order.__getitem__) if unknown > 0 else []
    per_color: list[list[tuple[Card, bool]]] = []
    for color in COLORS:
        options: list[tuple[Card, bool]] = []
        held = sorted({c for c in known if c.color is color}, key=order.__getitem__)
        for c, unseen in [*((c, False) for c in held), *((c, True) for c in pool)]:
            if c.color is color and not any(c is o or (c.is_number and o.is_number)
                                            for o, _ in options):
                options.append((c, unseen))
        per_color.append(options)
    narrow = f"{who}'s hand" if unknown > 0 else f"which cards {who} discards"
    ways: list[list[tuple[Card, bool]]] = [[]]
    for options in per_color:
        ways += [[*w, o] for w in ways for o in options if sum(x for _, x in w) + o[1] <= unknown]
        if len(ways) > branch.budget.left:  # each way is one position at least
            raise TooOpenError(narrow)
    # A position set up again for each set of unknown cards thrown; a copy of it for each way.
    extras = {tuple(c for c, x in w if x) for w in ways}
    branch.budget.afford(len(ways) + sum(1 + len(branch.prelude) for e in extras if e), narrow)
    set_up: dict[tuple[Card, ...], tuple[Branch, Game, list[Event]]] = {
        (): (branch, game, list(events))}
    groups: dict[tuple[Any, ...], list[tuple[list[Card], Verdict]]] = {}
    for way in ways:
        cards = [c for c, _ in way]
        extra = tuple(c for c, x in way if x)
        if extra not in set_up:
            b = branch.with_hand(seat, extra)
            g, ev = b.run()
            set_up[extra] = (b, g, ev)
        b, g, ev = set_up[extra]
        fork = g.copy()
        done = [Action(ActionKind.DISCARD, c) for c in cards]
        later = list(ev)
        for a in done:
            later += fork.apply(a)
        if fork.phase is Phase.DISCARD and fork.to_act == seat:
            done.append(_DONE)
            later += fork.apply(_DONE)
        thrown = b.then(*done)
        # Down to one card: it may be caught (R6), on the game as the discard left it (the
        # answer goes on with this one).
        owed = (fork.copy(), list(later)) if fork.uno_owed else None
        v = resolve_branch(thrown, since=since, lead=lead, sizes=sizes, played=(fork, later))
        if owed is not None:
            v = catches(thrown, v, played=owed, since=since, sizes=sizes)
        groups.setdefault(effect_key(v), []).append((cards, v))
    cases = []
    for group in groups.values():
        v = group[0][1]
        if len({x.color for _, x in group}) > 1 or any(len(c) > 1 for c, _ in group):
            v = colorless(v)
        said = [and_list([card_name(c) for c in cards]) if cards else "nothing"
                for cards, _ in group]
        when = (f"{who} discards {or_list(said)}" if len(said) <= 3 else
                f"{who} discards {said[0]}, or one of {len(said) - 1} other sets of cards "
                "to the same effect")
        sets = [cards for cards, _ in group]
        cases.append(Case(when, v, choice_of("discard", who, cards=sets[0], options=sets)))
    return depends_clause(t, events[since:], f"what {who} discards (up to one card of each "
                          "color, in any order: R18)", cases)


def _discard_kinds(branch: Branch, game: Game, events: Sequence[Event], seat: int,
                   unknown: int, *, since: int, lead: str, sizes: bool) -> Verdict:
    """The lever's discard (R18) from a hand nobody knows: what the answer turns on is
    which kinds of card are thrown (a Skip, a Reverse, a draw card, another card), not
    their colors or order, which only decide the color left in play. Each set of kinds up
    to one card a color is a way; the ways alike in what the discard phase counts (a Skip
    among them, the Reverses, the cards to draw, the cards left in the hand) are played
    once, each on the engine, and the ways that end alike are one case (naming no color)."""
    t = branch.table
    who = t.name(seat)
    order = neutral_order(t, frozenset())
    left = branch.remaining()
    # One card of each kind, by color: a number card stands for them all (it acts on nobody).
    kinds: dict[object, dict[Color, Card]] = {}
    for c in sorted(left, key=order.__getitem__):
        if c.color is None:
            continue
        kind = "number" if c.is_number else c.rank
        kinds.setdefault(kind, {}).setdefault(c.color, c)
    names = list(kinds)
    most = min(unknown, len(COLORS))
    sets: list[tuple[object, ...]] = [()]
    for _ in range(most):
        sets += [s + (k,) for s in sets if len(s) == len(sets[-1]) for k in names
                 if not s or names.index(k) >= names.index(s[-1])]
    sets = list(dict.fromkeys(sets))
    seen: dict[tuple[Any, ...], tuple[object, ...]] = {}
    for s in sets:  # ways alike in what the phase counts are played once
        draws = sum(DRAW_OF.get(kinds[k][next(iter(kinds[k]))], 0) for k in s)
        reverses = sum(1 for k in s if k is Rank.REVERSE)
        skips = any(k is Rank.SKIP for k in s) or (reverses > 0 and game.reverse_skips)
        # Fewer than two cards left decides going out and owing UNO (R5, R6).
        sig = (skips, reverses % 2, draws, min(unknown - len(s), 2))
        if sig not in seen or len(s) < len(seen[sig]):
            seen[sig] = s
    narrow = f"{who}'s hand"
    groups: dict[tuple[Any, ...], list[tuple[tuple[object, ...], Verdict]]] = {}
    for s in seen.values():
        cards: list[Card] = []
        for i, k in enumerate(s):
            found = kinds[k].get(COLORS[i])
            if found is None:
                break
            cards.append(found)
        if len(cards) != len(s):
            continue
        try:
            b = branch.with_hand(seat, cards)
            done = [Action(ActionKind.DISCARD, c) for c in cards]
            g, ev = b.then(*done).run()
            if g.phase is Phase.DISCARD and g.to_act == seat:
                done.append(_DONE)
                ev += g.apply(_DONE)
            thrown = b.then(*done)
            owed = (g.copy(), list(ev)) if g.uno_owed else None
            v = resolve_branch(thrown, since=since, lead=lead, sizes=sizes, played=(g, ev))
            if owed is not None:
                v = catches(thrown, v, played=owed, since=since, sizes=sizes)
        except TooOpenError:
            return cut_short(narrow)
        except RefereeError:
            continue
        groups.setdefault(effect_key(v), []).append((s, colorless(v) if s else v))

    def said(s: tuple[object, ...]) -> str:
        if not s:
            return "nothing"
        counted = Counter(s)
        return and_list([
            (article(name) if n == 1 else f"{_COUNT_WORDS[n]} {name}s")
            for k, n in counted.items()
            for name in ["number card" if k == "number" else bare(next(iter(kinds[k].values())))]])

    cases = []
    for group in groups.values():
        v = group[0][1]
        told = [said(s) for s, _ in group]
        when = (f"{who} discards {or_list(told)}" if len(told) <= 3 else
                f"{who} discards {told[0]}, or one of {len(told) - 1} other sets of cards "
                "to the same effect")
        sets_of = [[kinds[k][COLORS[i]] for i, k in enumerate(s)] for s, _ in group]
        cases.append(Case(when, v, choice_of("discard", who, cards=sets_of[0],
                                             options=sets_of)))
    return depends_clause(t, events[since:], f"what {who} discards (up to one card of each "
                          "color, in any order: R18)", cases)


_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}


def _held(branch: Branch, game: Game, events: Sequence[Event], seat: int) -> tuple[list[Card], int]:
    """The cards ``seat`` is known to hold in ``game`` (the rest are filler: unknown), and
    how many it holds that nobody knows."""
    known = Counter(branch.hands[seat].known)
    for e in events:
        if e.seat == seat and e.kind in (EventKind.PLAY, EventKind.DISCARD, EventKind.GIVE):
            known.subtract(e.cards)
    if any(e.kind in (EventKind.SWAP, EventKind.ROTATE) for e in events):
        known = Counter()  # hands moved: what is held now is not what was known
    held = Counter(game.hands[seat]) & +known
    if branch.hands[seat].unknown <= 0 and not any(
            e.kind in (EventKind.SWAP, EventKind.ROTATE) for e in events):
        held = Counter(game.hands[seat])
    return list(held.elements()), len(game.hands[seat]) - sum(held.values())


def catches(branch: Branch, v: Verdict, *, played: Ran | None = None, since: int = 0,
            sizes: bool = False, resolve: Callable[[Branch, Ran], Verdict] | None = None,
            done: tuple[int, ...] = ()) -> Verdict:
    """``v``, the answer once ``branch`` is played, with a case for each player who may
    catch a seat left on one card without calling UNO there (R6): the caught seat draws.
    Each seat that owes the call is a choice of its own (a swap or a 7-0 may leave two).
    ``played``: ``branch`` already run (read, not played on); ``resolve``: how a caught
    branch is answered (by default :func:`resolve_branch`, which goes on to the jump-ins);
    ``done``: seats whose catch is decided already."""
    try:
        game, events = played or branch.run()
    except TooOpenError as exc:
        return replace(v, too_open=exc.narrow)
    owed = [s for s in game.uno_owed if s not in done]
    if not owed:
        return v
    player = owed[0]
    found = [a for a in game.legal_actions()
             if a.kind is ActionKind.CATCH and a.target == player and a.seat is not None]
    if not found:
        return v
    t = branch.table

    def rest(b: Branch, w: Verdict, ran: Ran | None) -> Verdict:
        # The other seats that owe the call, caught or not, in this branch.
        if len(owed) == 1:
            return w
        return catches(b, w, played=ran, since=since, sizes=sizes, resolve=resolve,
                       done=(*done, player))

    who = t.name(player)
    cases = [Case(f"nobody catches {who} (or {who} calls UNO first)",
                  rest(branch, v, (game, events)),
                  choice_of("catch", None, target=who, yes=False))]
    for a in found:
        assert a.seat is not None
        caught = branch.then(a)
        # Played on from a copy of the game as it stands: paid as a position set up (its
        # steps are as long), for the size of the answer more than the work.
        fork = game.copy()
        ran = (fork, [*events, *fork.apply(a)])
        # Read by the other seats' catches once the answer has played on.
        kept = (fork.copy(), list(ran[1])) if len(owed) > 1 else None
        try:
            branch.budget.pay(1 + len(caught.prelude), lambda: narrowed(branch))
            w = (resolve(caught, ran) if resolve is not None else
                 resolve_branch(caught, since=since, sizes=sizes, played=ran))
        except TooOpenError as exc:  # the rest are not tried: said as one case
            anyone = "someone else" if len(cases) > 1 else "someone"
            cases.append(Case(f"{anyone} catches {who}", cut_short(exc.narrow),
                              choice_of("catch", None, target=who, yes=True)))
            break
        cases.append(Case(f"{t.name(a.seat)} catches {who}", rest(caught, w, kept),
                          choice_of("catch", t.name(a.seat), target=who, yes=True)))
    # Who catches changes nothing but the step that names them: one case, "anyone".
    cases = fold_actors(cases, "{who} catches " + who, f"someone catches {who}",
                        f"anyone catches {who}")
    out = depends_clause(t, events[since:], f"whether someone catches {who} not calling UNO",
                         cases)
    if out.settled or len(cases) != 2 or not all(c.verdict.settled for c in cases):
        return out
    # Caught or not, the same player plays next: the answer first, the catch after it.
    free, hit = cases[0].verdict, cases[1].verdict
    if free.next_player != hit.next_player or free.too_open or hit.too_open:
        return out
    drawn = hit.draws.get(who, 0) - free.draws.get(who, 0)
    return replace(out, outcome=f"{free.outcome}. (If {who} did not call UNO, whoever "
                                f"catches them first makes them draw {drawn}.)")


def effect_key(v: Verdict) -> tuple[Any, ...]:
    """What an answer says of the play that follows (not of the color in play)."""
    return (v.next_player, tuple(sorted(v.draws.items())), v.skipped, v.direction,
            tuple(sorted(v.hand_sizes.items())), v.depends_on, v.too_open,
            tuple((c.when, case_key(c.verdict)) for c in v.cases))


def colorless(v: Verdict, wild: Card | None = None) -> Verdict:
    """``v`` claiming no color in play (its cases neither); ``wild``: a wild whose play
    names no color in the steps either (its color was a choice the answer does not
    hang on)."""
    steps = v.steps
    if wild is not None:
        steps = tuple(Event(e.kind, e.seat, e.rule, e.source, e.names, e.amount, e.cards,
                            None, e.target, e.note)
                      if e.kind is EventKind.PLAY and e.cards and e.cards[0] is wild else e
                      for e in steps)
    return replace(v, color=None, steps=steps,
                   cases=tuple(replace(c, verdict=colorless(c.verdict, wild)) for c in v.cases))


def _playing(t: TableSetup, game: Game) -> str | None:
    seat = game.to_act
    if seat is None or game.phase not in (Phase.TURN, Phase.DRAWN, Phase.NAME_COLOR):
        return None
    return t.name(seat)


def _last_player(events: Sequence[Event]) -> int | None:
    for e in reversed(events):
        if e.kind is EventKind.PLAY:
            return e.seat
    return None


def _pending(branch: Branch, game: Game, events: Sequence[Event], *, since: int, lead: str,
             sizes: bool) -> Verdict:
    """A draw waits for its victim: take it, challenge a draw wild, or pass it on (each
    pass followed to the end of the stack, within the question's budget)."""
    t = branch.table
    seat = game.to_act
    assert seat is not None
    victim = t.name(seat)
    n = game.pending_draw
    challenges = game.is_legal(CHALLENGE_ACTION)
    # Taking the cards first, on a copy (the passes play on from this game). Where nobody
    # may challenge, taking the cards is no "challenge" declined (R10, R31).
    fork = game.copy()
    branch.budget.pay(1, lambda: narrowed(branch))
    taken = (fork, [*events, *fork.apply(ACCEPT_ACTION)])
    cases = [Case(f"{victim} takes the {n} cards",
                  resolve_branch(branch.then(ACCEPT_ACTION), since=since, lead=lead,
                                 sizes=sizes, played=taken),
                  choice_of("challenge", victim, yes=False) if challenges
                  else choice_of("take", victim, amount=n))]
    choices = ["take the cards"]
    if challenges:
        accused = _last_player(events)
        assert accused is not None
        try:
            challenged = _challenge_case(branch, game, accused, since=since, sizes=sizes)
        except TooOpenError as exc:
            challenged = cut_short(exc.narrow)
        cases.append(Case(f"{victim} challenges", challenged,
                          choice_of("challenge", victim, yes=True)))
        choices.append("challenge")
    stacks = _stack_cases(branch, game, events, seat, since=since, sizes=sizes)
    if stacks:
        cases.extend(stacks)
        choices.append("pass the draw on")
    if len(cases) == 1:
        return cases[0].verdict
    return depends_clause(t, events[since:], f"what {victim} does: {or_list(choices)}", cases)


def _stack_cases(branch: Branch, game: Game, events: Sequence[Event], seat: int, *,
                 since: int, sizes: bool) -> list[Case]:
    """House rules (stacking, progressive UNO): each draw card the victim may pass the draw
    on with, the engine saying which may: a card the table knows they hold, else, in
    place of one of their unknown cards, each draw card the deck still holds. What follows
    is followed to the end of the stack (the next victim decides again), each pass with
    an even share of the budget left, so that a long stack down one pass leaves the others
    their turn."""
    t = branch.table
    if t.options.stack_rule is None:
        return []
    who = t.name(seat)
    known, unknown = _held(branch, game, events, seat)
    order = neutral_order(t, frozenset())
    # Only a draw card passes a draw on (the engine's Pending says which, in play).
    tries: list[tuple[Card, bool]] = []  # (card, held already)
    for c in sorted(set(known), key=order.__getitem__):
        if c in DRAW_OF and all(c.rank is not x.rank for x, _ in tries):
            tries.append((c, True))
    if unknown > 0:
        for c in sorted(branch.remaining(), key=order.__getitem__):
            if c in DRAW_OF and all(c.rank is not x.rank for x, _ in tries):
                tries.append((c, False))
    cases: list[Case] = []
    budget = branch.budget
    for i, (c, held) in enumerate(tries):
        share = budget.left // (len(tries) - i)
        kept, budget.left = budget.left - share, share
        try:
            if held:
                b, g, ev = branch, game.copy(), list(events)
                budget.pay(1, lambda: narrowed(branch))
            else:  # in place of one of the victim's unknown cards
                b = branch.with_hand(seat, [c])
                g, ev = b.run()
            plays = [a for a in g.legal_actions()
                     if a.kind is ActionKind.PLAY and a.card is c and not a.uno]
            if not plays:
                continue
            v = resolve_branch(b.then(plays[0]), since=since, sizes=sizes,
                               played=(g, [*ev, *g.apply(plays[0])]))
        except TooOpenError as exc:
            v = cut_short(exc.narrow)
        except RefereeError:
            continue
        finally:
            budget.left += kept
        if c.color is None:  # the color it names is its player's choice: none is claimed
            v = colorless(v, c)
        cases.append(Case(f"{who} passes it on with {article(bare(c))}", v,
                          choice_of("stack", who, cards=[c])))
    return cases


def _challenge_leaf(t: TableSetup, game: Game, events: Sequence[Event], *, sizes: bool) -> Verdict:
    guilty = guilt(events)
    lead = ""
    for e in events:
        if e.kind is EventKind.CHALLENGE and e.target is not None:
            lead = (f"{t.name(e.target)}'s {card_name(e.cards[0])} was "
                    f"{'illegal' if guilty else 'legal'}")
            break
    said = [c for c in join_clauses(t, events) if c]
    return leaf(t, game, events, lead, clauses=said, guilty=guilty, sizes=sizes)


def challenged_cards(branch: Branch, accused: int, *, since: int, sizes: bool = False,
                played: tuple[Game, list[Event]] | None = None) -> Verdict:
    """The challenge, played out for every kind of hand the accused may hold. ``played``:
    ``branch`` already run, where the caller has it."""
    t = branch.table
    test = _bluff_test(branch, accused)
    if test.guilty is not None:
        game, events = played or branch.run()
        return _challenge_leaf(t, game, events[since:], sizes=sizes)
    g, ev = branch.with_hand(accused, [test.bluffs[0]]).run()
    # The steps before the challenge are the same whatever the accused holds.
    events = played[1] if played is not None else ev
    guilty = _challenge_leaf(t, g, ev[since:], sizes=sizes)
    try:
        g, ev = branch.with_hand(accused, deny=frozenset(test.bluffs)).run()
    except BadCountError:  # every card left would make it a bluff
        return guilty
    innocent = _challenge_leaf(t, g, ev[since:], sizes=sizes)
    who = t.name(accused)
    return depends_clause(t, events[since:first_case(events, EventKind.CHALLENGE, since)],
                    f"whether {who} holds {test.held}",
                    [Case(f"{who} holds {test.held}", guilty,
                          choice_of("holds", who, cards=test.bluffs, yes=True)),
                     Case(f"{who} holds none of these", innocent,
                          choice_of("holds", who, cards=test.bluffs, yes=False))])


def _universe(left: Counter[Card], t: TableSetup) -> list[Card]:
    """Each card of ``left`` once, in the filler's order: what an unknown card may be."""
    return sorted(left, key=neutral_order(t, frozenset()).__getitem__)


@dataclass(frozen=True)
class BluffTest:
    """What the engine's challenge test says of a draw wild: a bluff or not (``guilty``),
    or, where the player's hand is not known, a bluff if they hold one of ``bluffs``
    (``held`` says which, as the verdict words it)."""

    guilty: bool | None
    held: str = ""
    bluffs: tuple[Card, ...] = field(default=(), compare=False)


def _bluff_test(branch: Branch, accused: int,
                universe: Sequence[Card] | None = None, on: Card | None = None) -> BluffTest:
    """The challenge test, for the draw wild the accused plays first in ``branch``.
    ``universe``: each card the deck still holds there, where the caller has them;
    ``on``: the card the wild went on, where it is not the branch's (each card that may
    have been under it is tested without a branch for each).

    It is the engine's own, the variant's ``bluff_card`` hook (what ``bluffed`` asks of each
    card held when the wild is played), asked of the hand after the play, the color in
    play and the card under it: the same answer as playing out a game for each card the
    hand may hold, at a fraction of the cost.
    """
    # The wild challenged is the last card played; a stacked one went on the draw card
    # played before it, with the color that card left in play.
    placed = [a for a in branch.prelude
              if a.kind in (ActionKind.PLAY, ActionKind.JUMP) and a.card is not None]
    assert placed and (len(placed) > 1 or branch.to_act == accused)
    held = Counter(branch.hands[accused].known)
    for a in placed:  # the cards the accused has played by then (all known: set up so)
        assert a.card is not None
        if held[a.card] > 0 and (a is not placed[0] or branch.to_act == accused):
            held[a.card] -= 1
    rest = list(held.elements())
    if len(placed) > 1:
        under = placed[-2].card
        assert under is not None
        top = under
        color = under.color if under.color is not None else placed[-2].color
    else:
        top = on if on is not None else branch.discard[-1]
        color = branch.color if branch.color is not None else top.color  # as from_position has it
    bluff_card = rule_hooks(branch.table).bluff_card
    known_guilty = any(bluff_card(c, color, top) for c in rest)
    if known_guilty or branch.hands[accused].unknown <= 0:
        return BluffTest(known_guilty)
    # Which single card, held beside the innocent known ones, makes the draw wild illegal?
    if universe is None:
        universe = _universe(branch.remaining(), branch.table)
    bluffs = tuple(c for c in universe if bluff_card(c, color, top))
    if not bluffs or len(bluffs) == len(universe):
        return BluffTest(bool(bluffs))
    return BluffTest(None, describe_case(bluffs, tuple(universe)), bluffs)


def _challenge_case(branch: Branch, game: Game, accused: int, *, since: int,
                    sizes: bool) -> Verdict:
    # A challenge is judged on the color in play and the card under the draw wild: where
    # the table did not give them, the referee does not pick them.
    t = branch.table
    wild = game.top_card
    if branch.under_given:
        return challenged_cards(branch.then(CHALLENGE_ACTION), accused, since=since, sizes=sizes)
    if not branch.color_given:
        what = (f"the color in play before the {card_name(wild)} and "
                f"{t.name(accused)}'s other cards")
        return Verdict(f"It depends on {what}: give them to the challenge check",
                       depends_on=what)
    return challenge_tops(branch, accused, tops_of(branch, wild), wild, since=since, sizes=sizes)


def tops_of(branch: Branch, wild: Card) -> list[Card]:
    """Every card that could have been under the play, with the branch's color in play."""
    free = replace(branch, discard=()).remaining()
    order = neutral_order(branch.table, frozenset([wild]))
    return sorted((c for c in free if c.color is branch.color or c.color is None),
                  key=order.__getitem__)


def challenge_tops(branch: Branch, accused: int, tops: Sequence[Card], wild: Card, *,
                    since: int, sizes: bool = False,
                    played: tuple[Game, list[Event]] | None = None) -> Verdict:
    """The challenge of the draw wild played in ``branch``, for each card that may have been
    under it; the cards that give the same verdict are one case. ``played``: ``branch``
    already run, with the first of ``tops`` under the wild, where the caller has it.

    The card under the wild counts only in the engine's challenge test, so the cards the
    test says the same of give the same verdict: each such group is played out once.
    """
    t = branch.table
    found: dict[tuple[Any, ...], Verdict] = {}
    groups: dict[tuple[Any, ...], list[Card]] = {}
    tested: dict[BluffTest, tuple[Verdict, tuple[Any, ...]]] = {}
    free = replace(branch, discard=()).remaining()
    cards = _universe(free, t)
    for top in tops:
        # The cards left with ``top`` on the pile: ``top`` itself only if it has a copy left.
        test = _bluff_test(branch, accused, [c for c in cards if c is not top or free[c] > 1],
                           on=top)
        if test not in tested:
            v = _challenge_under(replace(branch, discard=(top,)), accused, wild, since=since,
                                 sizes=sizes, played=played if top is tops[0] else None)
            tested[test] = v, case_key(v)
        v, key = tested[test]
        found.setdefault(key, v)
        groups.setdefault(key, []).append(top)
    if len(groups) == 1:
        return next(iter(found.values()))
    ranked = sorted(groups, key=lambda k: len(groups[k]))
    cases = [Case(f"the card under it was {describe_case(tuple(groups[k]), tuple(tops))}",
                  found[k], choice_of("under", None, cards=groups[k]))
             for k in ranked[:-1]]
    cases.append(Case("the card under it was any other card", found[ranked[-1]],
                      choice_of("under", None, cards=groups[ranked[-1]])))
    return depends_clause(t, (), f"which card was under the {card_name(wild)}", cases)


def _challenge_under(branch: Branch, accused: int, wild: Card, *, since: int, sizes: bool,
                     played: tuple[Game, list[Event]] | None = None) -> Verdict:
    """The challenge of the draw wild played in ``branch``, on the card under it there."""
    if played is None and _bluff_test(branch, accused).guilty is None:
        # Played out only for the hands the accused may hold (nothing is played twice).
        try:
            return challenged_cards(branch.then(CHALLENGE_ACTION), accused, since=since,
                                    sizes=sizes)
        except IllegalMoveError:  # no challenge here: said below
            pass
    game, events = played or branch.run()
    if game.phase is Phase.PENDING and game.is_legal(CHALLENGE_ACTION):
        events += game.apply(CHALLENGE_ACTION)
        return challenged_cards(branch.then(CHALLENGE_ACTION), accused, since=since, sizes=sizes,
                           played=(game, events))
    # R31: no challenge in this variant; the draw is taken
    v = resolve_branch(branch.then(ACCEPT_ACTION) if game.phase is Phase.PENDING else branch, since=since,
                 sizes=sizes)
    return replace(v, outcome=f"Nobody can challenge a {card_name(wild)} in "
                              f"{branch.table.variant.title}: {v.outcome}")


def first_case(events: Sequence[Event], kind: EventKind, start: int = 0) -> int:
    for i in range(start, len(events)):
        if events[i].kind is kind:
            return i
    return len(events)


# -- Let's Build a Droid (R36): walking the table round by round ----------------------------


def _droid(branch: Branch, *, since: int,
           played: tuple[Game, list[Event]] | None = None) -> Verdict:
    """Walk the droid: forced lays are laid; a real choice, or a seat whose hand is unknown,
    splits the walk into cases. ``played``: ``branch`` already run, where the caller has it
    (it goes on from there). Where the question's budget runs out, the case says so."""
    try:
        return _walk(branch, since=since, played=played)
    except TooOpenError:
        return cut_short(narrowed(branch, "the cards laid so far"))


def _walk(branch: Branch, *, since: int, played: tuple[Game, list[Event]] | None) -> Verdict:
    t = branch.table
    game, events = played or branch.run()
    while True:
        visit = undecided_visit(branch, game, events)
        if visit is not None:
            return _droid_branch(branch, events, visit, since=since)
        seat = game.to_act
        if game.phase is not Phase.DROID or seat is None:
            return leaf(t, game, events[since:])
        lays = [a for a in game.legal_actions() if a.kind is ActionKind.LAY]
        colors = list(dict.fromkeys(a.card.color for a in lays if a.card is not None))
        if len(colors) == 1:  # laid on the game as it stands: the same as setting it up again
            branch = branch.then(lays[0])
            events += game.apply(lays[0])
            continue
        cases = []
        for color in colors:
            a = next(x for x in lays if x.card is not None and x.card.color is color)
            assert color is not None
            # The last color goes on with this game; the others with a copy of it.
            fork = game if color is colors[-1] else game.copy()
            played = (fork, [*events, *fork.apply(a)])
            cases.append(Case(f"{t.name(seat)} lays {article(color.value + ' card')}",
                              _droid(branch.then(a), since=since, played=played),
                              choice_of("lay", t.name(seat), color=color)))
        return depends_clause(t, events[since:], f"which color {t.name(seat)} lays", cases)


def _last_laid(events: Sequence[Event], upto: int) -> Color | None:
    last: Color | None = None
    for e in events[:upto]:
        if e.kind is EventKind.LAY:
            last = e.cards[0].color
        elif e.kind is EventKind.PLAY:
            last = None
    return last


def undecided_visit(branch: Branch, game: Game,
                     events: Sequence[Event]) -> tuple[int, int] | None:
    """The first time the droid reaches a seat whose unknown cards would decide whether
    and what it lays: (seat, index of that moment in the events)."""
    start = max((i for i, e in enumerate(events) if e.kind is EventKind.PLAY), default=0)
    for i in range(start, len(events)):
        e = events[i]
        if e.kind is EventKind.DROID_FAIL and e.seat is not None and _open(branch, e.seat):
            return e.seat, i
        if e.kind is EventKind.DROID_RETURN:
            return None
    seat = game.to_act
    if game.phase is Phase.DROID and seat is not None and _open(branch, seat):
        return seat, len(events)
    return None


def _open(branch: Branch, seat: int) -> bool:
    h = branch.hands[seat]
    return h.unknown > 0 and h.only is None


def _droid_branch(branch: Branch, events: Sequence[Event], visit: tuple[int, int], *,
                  since: int) -> Verdict:
    t = branch.table
    seat, at = visit
    who = t.name(seat)
    last = _last_laid(events, at)
    cases: list[Case] = []
    # The seat cannot lay: its unknown cards are all of the last color, or wild.
    stuck = frozenset(c for c, _ in t.deck if c.color is None or c.color is last)
    when = (f"{who} cannot lay a card that is not {last.value}" if last is not None
            else f"{who} holds no colored card")
    try:
        tried = branch.with_hand(seat, only=stuck)
        g, ev = tried.run()
        if any(e.kind is EventKind.DROID_FAIL and e.seat == seat for e in ev[at:]):
            cases.append(Case(when, _droid(tried, since=since, played=(g, ev)),
                              choice_of("lay", who, color=None)))
    except TooOpenError as exc:
        cases.append(Case(when, cut_short(exc.narrow), choice_of("lay", who, color=None)))
    except RefereeError:
        pass
    left = branch.remaining()
    order = neutral_order(t, frozenset())
    for color in COLORS:
        if color is last:
            continue
        spare = sorted((c for c in left if c.color is color), key=order.__getitem__)
        if not spare:
            continue
        tried = branch.with_hand(seat, [spare[0]])
        cases.append(Case(f"{who} lays {article(color.value + ' card')}",
                          _droid(tried.then(Action(ActionKind.LAY, spare[0])), since=since),
                          choice_of("lay", who, color=color)))
    what = (f"whether {who} can lay a card that is not {last.value}, and which"
            if last is not None else f"whether {who} holds a colored card, and which")
    return depends_clause(t, events[since:at], what, cases)

