"""Questions a table asks that turn on more than the play itself: the piles (how many
cards are left on the draw pile, R2; how many rule cards the Wild Jackpot unit still
holds, R17), a player who was caught already (R6), whom a lever's "choose" picked (R18),
and what may be played after a draw (R12, R29, the draw house rules). Each sets the
position up for the engine and lets it decide; the checks in :mod:`.checks` ask them.

>>> from engine.referee import Scene, whos_next
>>> scene = Scene("classic", ["Ann", "Bea", "Cy"], top="red-5", draw_pile=1)
>>> whos_next(scene, "Ann", "red-draw2").outcome
'The discard pile but its top card is shuffled into a new draw pile, Bea draws 2 and misses a turn, then Cy plays'
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import Action, ActionKind, Card, Color, Event, EventKind, Phase, card_name
from .branch import Branch, make_branch, plays_of, refusal
from .scene import HandLike, Scene, TableSetup, hand_arg
from .verdict import BadCountError, IllegalMoveError, ImpossibleSituationError, Verdict
from .wording import cap, cite

_DRAW = Action(ActionKind.DRAW)
_PASS = Action(ActionKind.PASS)


def with_piles(scene: Scene, branch: Branch) -> Branch:
    """``branch`` with the scene's draw pile and rule-card unit, where the table gave them:
    the draw pile's cards counted with the hands and the discard pile's top against the
    deck (the rest of the deck is under that top card, R2)."""
    if scene.draw_pile is None and scene.rule_cards is None:
        return branch
    n = scene.draw_pile
    if n is not None:
        if len(branch.draw_top) > n:
            raise ImpossibleSituationError(
                f"{len(branch.draw_top)} cards drawn are given, but the draw pile holds only {n}")
        t = branch.table
        held = sum(h.size for h in branch.hands) + len(branch.discard) + n
        deck = sum(k for _, k in t.deck)
        if held > deck:
            raise BadCountError(f"these hands and a draw pile of {n} need {held} cards; the "
                                f"{t.variant.name} deck has {deck}")
    return replace(branch, draw_pile=n, rule_cards=scene.rule_cards)


def chosen_action(t: TableSetup, chosen: object) -> Action:
    """Whom the chooser picked to perform a rule card (R18, R19), as the engine takes it."""
    return Action(ActionKind.CHOOSE, target=t.seat(chosen, "whom they chose"))


def first_catch(t: TableSetup, branch: Branch, player: int, caught_by: object) -> Branch:
    """``branch`` with ``player`` caught already by ``caught_by`` (R6): refused where the
    engine says nobody could have caught them."""
    by = t.seat(caught_by, "who caught them")
    caught = branch.then(Action(ActionKind.CATCH, seat=by, target=player))
    try:
        caught.run()
    except IllegalMoveError as exc:
        raise ImpossibleSituationError(
            f"{t.name(player)} cannot have been caught by {t.name(by)}: {exc}") from None
    return caught


def caught_reason(t: TableSetup, player: int, caught_by: object, reason: str) -> str:
    """Why a player caught already cannot be caught again, as the engine refuses it."""
    by = t.seat(caught_by, "who caught them")
    return f"{t.name(by)} has caught {t.name(player)} already, so {reason}"


@dataclass(frozen=True)
class Drew:
    """A player drew ``drawn`` and asks to play a card: the engine's answer. ``refused``
    is the verdict where the card cannot be played; else ``hand`` is their hand with the
    card drawn, to judge the play itself, and ``must`` says why they must play it (forced
    play), if they must."""

    steps: tuple[Event, ...]
    refused: Verdict | None = None
    hand: HandLike | None = None
    must: str = ""

    def lead(self, v: Verdict, drawn: Card) -> Verdict:
        """The play's verdict ``v``, after the draw: its steps and citations first."""
        outcome = f"After drawing {card_name(drawn)}: {v.outcome[:1].lower()}{v.outcome[1:]}"
        if self.must:
            outcome += f". Keeping it is not allowed: {self.must}"
        return replace(v, outcome=outcome, steps=(*self.steps, *v.steps),
                       citations=cite(self.steps, v.citations))


def after_draw(scene: Scene, t: TableSetup, who: str, c: Card, drawn: Card | str,
               hand: HandLike | None, named: Color | None) -> Drew:
    """Seat 0 (``who``) has drawn ``drawn`` on their turn and asks to play ``c``: the engine
    plays the draw and says whether ``c`` may follow (R12: only the drawn card; R29: no
    card at all in ``one``; the draw-until-playable and forced-play house rules).

    ``hand`` is their hand before the draw (a copy of the drawn card in it is taken as the
    one drawn), or only its size."""
    top_card, col = scene.top, scene.color
    assert top_card is not None
    d = t.card(drawn, "the card drawn")
    known, size = hand_arg(t, hand, f"{who}'s hand", 2)
    known = list(known)
    if d in known:
        known.remove(d)
        size -= 1
    if c is not d and c not in known:  # the card asked about is in the hand (as can_play)
        known, size = [c, *known], max(size, len(known) + 1)
    branch = make_branch(t, 0, (known, size), {}, discard=[top_card], color=col, direction=1,
                         draw_top=[d], avoid=[c])
    if scene.draw_pile is not None:
        branch = with_piles(scene, branch)
    game, events = branch.then(_DRAW).run()
    steps = tuple(events)
    if game.phase is Phase.DRAWN and game.drawn_card is not d:
        raise ImpossibleSituationError(
            f"{who} would draw on past {card_name(d)}: give the card they drew last")
    if game.phase is not Phase.DRAWN or game.to_act != 0:
        keep = next((e for e in events if e.kind is EventKind.KEEP), None)
        nxt = t.name(game.to_act) if game.to_act is not None else "nobody"
        text = f"No: {who} keeps {card_name(d)} and the turn passes to {nxt}"
        return Drew(steps, Verdict(text, steps, cite(steps), playable=False,
                                   next_player=nxt if keep is not None else None))
    if not plays_of(game, c, named, None):
        reason, rule = refusal(game, Action.play(
            c, (named or game.current_color) if c.color is None else None))
        return Drew(steps, Verdict(cap(f"no: {reason}"), steps, cite(steps, [rule]),
                                   playable=False))
    must = "" if game.is_legal(_PASS) else refusal(game, _PASS)[0]
    with_card: HandLike | None = None
    if isinstance(hand, int):
        with_card = size + 1
    elif hand is not None:
        with_card = [*known, d]
    return Drew(steps, hand=with_card, must=must)
