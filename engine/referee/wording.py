"""Telling what happened: the engine's events in short clauses with the seats' names,
and the verdicts said from them (at a settled point, or hanging on an unknown)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from .. import COLORS, ActionKind, Card, Direction, Event, EventKind, Game, Phase, card_name
from .scene import TableSetup
from .verdict import Case, Verdict, answer_key

# -- telling what happened --------------------------------------------------------------------


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def article(phrase: str) -> str:
    return f"an {phrase}" if phrase[:1].lower() in "aeiou8" else f"a {phrase}"


def bare(c: Card) -> str:
    """A card's name without its color ("7", "Skip")."""
    name = card_name(c)
    return name.split(" ", 1)[1] if c.color is not None else name


def or_list(parts: Sequence[str], word: str = "or") -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {word} {parts[-1]}"


def and_list(parts: Sequence[str]) -> str:
    return or_list(parts, "and")


@lru_cache(maxsize=256)
def describe_case(chosen: tuple[Card, ...], universe: tuple[Card, ...]) -> str:
    """Some cards, in as few words as the universe allows: "a red card, a 7 or a wild card".
    (Cached: a challenge words the same cards again for each card that may be under it.)"""
    picked = set(chosen)
    everything = list(dict.fromkeys(universe))
    parts: list[str] = []
    covered: set[Card] = set()
    for color in COLORS:
        group = [c for c in everything if c.color is color]
        if len(group) > 1 and all(c in picked for c in group):
            parts.append(f"a {color.value} card")
            covered.update(group)
    for c in everything:
        if c not in picked or c in covered or c.color is None:
            continue
        group = [x for x in everything if x.rank is c.rank and x.color is not None]
        if len(group) > 1 and all(x in picked for x in group):
            parts.append(article(bare(c)))
            covered.update(group)
    wilds = [c for c in everything if c.color is None]
    if len(wilds) > 1 and all(c in picked for c in wilds):
        parts.append("a wild card")
        covered.update(wilds)
    parts.extend(article(card_name(c)) for c in everything if c in picked and c not in covered)
    return or_list(parts)


def cite(events: Iterable[Event], extra: Iterable[str] = ()) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for e in events:
        if e.rule.startswith("R"):
            seen.setdefault(e.rule)
        if e.source:
            seen.setdefault(e.source)
    for x in extra:
        if x:
            seen.setdefault(x)
    return tuple(seen)


def join_clauses(t: TableSetup, events: Sequence[Event]) -> list[str]:
    """What the events did, in short clauses ("Bea draws 2 and misses a turn")."""
    out: list[str] = []
    last_draw: str | None = None
    for e in events:
        who = t.name(e.seat) if e.seat is not None else ""
        whom = t.name(e.target) if e.target is not None else ""
        k = e.kind
        said = ""
        if k is EventKind.DRAW:
            said = f"{who} draws {e.amount}"
        elif k is EventKind.LOSE_TURN:
            if last_draw == who and out:
                out[-1] += " and misses a turn"
            else:
                said = f"{who} misses a turn"
        elif k is EventKind.SHORT:
            said = f"the piles are empty, so {who} gets only {e.amount}"
        elif k is EventKind.REVERSE:
            said = f"play now goes {e.note}"
        elif k is EventKind.START:
            said = f"{who} plays first, going {e.note}"
        elif k is EventKind.RETURNED:
            said = f"{card_name(e.cards[0])} goes back into the deck"
        elif k is EventKind.SWAP:
            said = f"{who} swaps hands with {whom}"
        elif k is EventKind.ROTATE:
            said = f"every hand moves one seat {e.note}"
        elif k is EventKind.GIVE:
            said = f"{who} gives {card_name(e.cards[0])} to {whom}"
        elif k is EventKind.OUT:
            said = f"{who} goes out"
        elif k is EventKind.UNO:
            said = f"{who} calls UNO"
        elif k is EventKind.CATCH:
            said = f"{who} catches {whom}"
        elif k is EventKind.JUMP:
            said = f"{who} jumps in with {card_name(e.cards[0])}"
        elif k is EventKind.LEVER:
            said = f"the lever says: {e.note}"
        elif k is EventKind.CHOOSE and whom:
            said = f"{who} chooses {whom}"
        elif k is EventKind.RULE_CARD:
            said = f"{who} performs a rule card"
        elif k is EventKind.NO_RULE_CARD:
            said = "no rule card is left to perform"
        elif k is EventKind.RULES_RESHUFFLE:
            said = "the used rule cards are shuffled back into the empty unit"
        elif k is EventKind.RESHUFFLE:
            said = "the discard pile but its top card is shuffled into a new draw pile"
        elif k is EventKind.DISCARD:
            said = f"{who} discards {card_name(e.cards[0])}"
        elif k is EventKind.DROID_FAIL:
            said = f"{who} cannot lay a card of a different color"
        elif k is EventKind.DROID_RETURN:
            said = "every card laid goes back to its owner"
        elif k is EventKind.COLOR:
            said = f"{who} names {e.color.value if e.color else 'a color'}"
        if said:
            out.append(said)
        last_draw = who if k is EventKind.DRAW else None
    return out


def end_clause(t: TableSetup, game: Game, events: Sequence[Event]) -> str:
    """Where the game stands after the events: who plays next, or that the hand is over."""
    seat = game.to_act
    if game.is_over or seat is None:
        return "the hand is over"
    who = t.name(seat)
    if game.phase is Phase.NAME_COLOR:
        swaps = any(a.kind is ActionKind.COLOR and a.target is not None
                    for a in game.legal_actions())
        return (f"{who} names the color, may swap hands with another player, and plays first"
                if swaps else f"{who} names the color and plays first")
    if any(e.kind is EventKind.START and e.seat == seat for e in events):
        return ""
    if events and events[-1].kind is EventKind.AGAIN and events[-1].seat == seat:
        return f"then {who} plays again"
    return f"then {who} plays"


def as_sentence(lead: str, clauses: Sequence[str]) -> str:
    said = [c for c in clauses if c]
    if not lead and len(said) > 1 and said[-1].startswith("then ") and said[-1].endswith(
            " plays again"):
        # The point first: with two players, who plays again, then why (R13).
        return cap(f"{said[-1][len('then '):]}: {', '.join(said[:-1])}")
    if said and not lead and said[0].startswith("then "):
        first = said[0][len("then "):]
        said[0] = f"{first} next" if first.endswith(" plays") else first
    body = ", ".join(said)
    if lead and body:
        return cap(f"{lead}: {body}")
    return cap(lead or body)


def guilt(events: Sequence[Event]) -> bool | None:
    for e in events:
        if e.kind is EventKind.GUILTY:
            return True
        if e.kind is EventKind.INNOCENT:
            return False
    return None


def leaf(t: TableSetup, game: Game, events: Sequence[Event], lead: str = "", *,
          clauses: Sequence[str] | None = None, end: str | None = None,
          extra_cites: Iterable[str] = (), sizes: bool = False, **facts: Any) -> Verdict:
    """A verdict for a game that has reached a settled point."""
    draws: dict[str, int] = {}
    skipped: list[str] = []
    laid: list[tuple[str, Card]] = []
    for e in events:
        if e.kind is EventKind.DRAW and e.seat is not None and e.amount:
            draws[t.name(e.seat)] = draws.get(t.name(e.seat), 0) + e.amount
        elif e.kind is EventKind.LOSE_TURN and e.seat is not None:
            skipped.append(t.name(e.seat))
        elif e.kind is EventKind.LAY and e.seat is not None:
            laid.append((t.name(e.seat), e.cards[0]))
    said = list(join_clauses(t, events) if clauses is None else clauses)
    said.append(end_clause(t, game, events) if end is None else end)
    seat = game.to_act
    playing = seat is not None and game.phase in (Phase.TURN, Phase.DRAWN, Phase.NAME_COLOR)
    facts.setdefault("next_player", t.name(seat) if playing and seat is not None else None)
    facts.setdefault("color", game.current_color)
    facts.setdefault("direction", Direction(game.direction).words)
    if laid:
        facts.setdefault("laid", tuple(laid))
        facts.setdefault("last_color", laid[-1][1].color)
    if sizes:
        facts.setdefault("hand_sizes", {t.name(s): len(h) for s, h in enumerate(game.hands)})
    return Verdict(as_sentence(lead, said), tuple(events), cite(events, extra_cites),
                   draws=draws, skipped=tuple(skipped), **facts)


def case_key(v: Verdict) -> tuple[Any, ...]:
    # Every fact the verdict carries, not only its sentence: two cases that read the same
    # but lay different cards (a droid) or leave different hands are not one answer.
    return answer_key(v)


def depends_clause(t: TableSetup, events: Sequence[Event], depends_on: str, cases: Sequence[Case], *,
             partial: bool = False, **facts: Any) -> Verdict:
    """A verdict that hangs on ``depends_on``. Unless the cases are only some of the
    possibilities (``partial``), it collapses when every case ends the same way."""
    cases = list(cases)
    if (not partial and cases and len({c.verdict.outcome for c in cases}) == 1
            and len({case_key(c.verdict) for c in cases}) == 1):
        v = cases[0].verdict
        return replace(v, steps=tuple(events)) if len(cases) > 1 else v
    simple = len(cases) <= 3 and all(c.verdict.settled for c in cases)
    outcome = f"It depends on {depends_on}"
    nexts = {c.verdict.next_player for c in cases}
    if len(nexts) == 1:
        facts.setdefault("next_player", nexts.pop())
    if facts.get("next_player") and cases:
        # What every case agrees on comes first (who plays next), then what differs.
        outcome = (f"{facts['next_player']} plays next in every case; what else happens "
                   f"depends on {depends_on}")
    if simple:
        outcome += "".join(f". If {c.when}: {c.verdict.outcome}" for c in cases)
    facts.update((k, v) for k, v in agreed(cases).items() if k not in facts)
    cites = cite(events, [x for c in cases for x in c.verdict.citations])
    # A case cut short anywhere below makes the whole answer too open (said once, on top).
    facts.setdefault("too_open", next(
        (c.verdict.too_open for c in cases if c.verdict.too_open), None))
    return Verdict(outcome, tuple(events), cites, depends_on=depends_on, cases=tuple(cases),
                   **facts)



def _reworded(v: Verdict, old: str, new: str) -> Verdict:
    """``v`` with ``old`` said as ``new`` in its sentences and its cases' (not its steps)."""
    return replace(v, outcome=v.outcome.replace(old, new),
                   cases=tuple(replace(c, when=c.when.replace(old, new),
                                       verdict=_reworded(c.verdict, old, new))
                               for c in v.cases))


def fold_actors(cases: Sequence[Case], says: str, anyone: str,
                when: str | None = None, by: str = "seat") -> list[Case]:
    """The cases of a choice several seats may make (``yes``), where they differ only by
    who makes it, said as one: ``says`` is how a sentence words a seat making it, with
    ``{who}`` for the seat ("{who} catches Ana"); ``anyone`` words it folded in a sentence
    ("someone catches Ana"), ``when`` the folded case (by default ``anyone``). The folded case keeps the first seat's steps; its choice names no seat
    and lists the seats (``seats``). ``by``: the choice's key that differs (``"target"``:
    whom a swap names; the folded case lists them as ``targets``)."""
    groups: dict[Any, list[Case]] = {}
    for c in cases:
        actor = c.choice.get(by)
        if actor is None or (by == "seat" and not c.choice.get("yes")):
            groups[id(c)] = [c]
            continue
        mark = says.format(who="\0")
        key = answer_key(_reworded(c.verdict, says.format(who=actor), mark))
        groups.setdefault(("fold", key), []).append(c)
    out: list[Case] = []
    for group in groups.values():
        first = group[0]
        if len(group) == 1:
            out.append(first)
            continue
        seats = [c.choice[by] for c in group]
        verdict = _reworded(first.verdict, says.format(who=seats[0]), anyone)
        choice = {**first.choice, by: None, f"{by}s": seats}
        out.append(Case(when or anyone, verdict, choice))
    return out


def agreed(cases: Sequence[Case]) -> dict[str, Any]:
    """The facts every case agrees on, for the top of an answer that hangs on them: the
    color and direction afterwards, who is skipped, and the cards a seat draws in every
    case (the same number)."""
    if not cases or any(c.verdict.too_open for c in cases):
        return {}
    out: dict[str, Any] = {}
    for name in ("color", "direction", "skipped"):
        values = {getattr(c.verdict, name) for c in cases}
        if len(values) == 1 and (value := values.pop()) not in (None, ()):
            out[name] = value
    first = cases[0].verdict.draws
    draws = {who: n for who, n in first.items()
             if all(c.verdict.draws.get(who) == n for c in cases[1:])}
    if draws:
        out["draws"] = draws
    return out
