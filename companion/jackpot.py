"""The Wild Jackpot unit on the phone: a game's rule cards (R17), its lever with every
pull recorded (R18, and R19 for a Jackpot turned up first), and a spinner for any table.

The engine says what a pull means (:class:`engine.LeverCall`: who performs, in what
order, in words); this module draws the outcome from the operating system's random
source, records it with the game, and shows it.
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flask import Blueprint, abort, current_app, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

import engine
from engine import LeverCall, LeverOutcome
from engine.card_facts import RANK_FACTS
from engine.jackpot import LEVER_OUTCOMES, OPENING_RANKS, lever_fairness, spin

from . import htmx, live, store
from .db import get_db
from .errors import row_id
from .forms import FormErrors, clean_name, parse_seat
from .gate import access_to, get_game_or_404, viewers_may_post
from .rule_card_readers import MAX_RULE, Phone, for_this_phone, lever_random, this_phone
from .store import access, get_cache

bp = Blueprint("jackpot", __name__)


#: Outcome suggestions for tables short of ideas (our own words, R17 leaves it open).
SUGGESTIONS = (
    "Talk like a robot until your next turn.",
    "Swap seats with the player of your choice.",
    "Give one card from your hand to the player on your left.",
    "Everyone else must clap once before they play, until your next turn.",
    "Sing your next card's name instead of saying it.",
    "Play your next card without looking at it first.",
    "Name an animal for every card you hold.",
    "Hold your cards behind your back until your next turn.",
)



def jackpot_game_or_404(game_id: int) -> store.GameRecord:
    """A game whose variant has a Wild Jackpot unit (the engine says which do)."""
    game = get_game_or_404(game_id)
    if not game.variant.rule_cards:
        abort(404, description=f"{game.variant.title} has no Wild Jackpot unit.")
    return game


def _seat(values: Mapping[str, Any], name: str, players: int, label: str) -> int:
    seat = parse_seat(values.get(name), players)
    if seat is None:
        raise FormErrors({name: f"Choose {label}."})
    return seat


def _direction(values: Mapping[str, Any]) -> int:
    try:  # the engine's one reading of a direction
        return int(engine.Direction.parse(values.get("direction") or "clockwise"))
    except ValueError:
        raise FormErrors({"direction": "Play goes clockwise or counter-clockwise."}) from None


def _submission(values: Mapping[str, Any]) -> str | None:
    return (str(values.get("submission") or ""))[:64] or None


# -- the lever of a game ----------------------------------------------------------------


@bp.get("/games/<id:game_id>/jackpot")
@live.page
def lever(game_id: int) -> str:
    """The lever: who pulls, the direction of play, and the first-card case."""
    game = jackpot_game_or_404(game_id)
    if access_to(game_id).can_change:
        return _lever_page(game)
    # A watching phone cannot pull: it shows the table's last pull (live, as it is made).
    spins, _ = store.list_spins(get_db(), game)
    return _lever_page(game, spins[0] if spins else None)


@bp.get("/games/<id:game_id>/jackpot/spins/<id:spin_id>")
@live.page
def spin_result(game_id: int, spin_id: int) -> str:
    """One pull's result: what to do now, with the table's names."""
    game = jackpot_game_or_404(game_id)
    spin = store.load_spin(get_db(), game, spin_id)
    if spin is None:
        abort(404, description="This game has no such pull of the lever.")
    return _lever_page(game, spin, fresh=request.args.get("new") == "1")


@bp.post("/games/<id:game_id>/jackpot/spins")
def pull(game_id: int) -> Response | tuple[str, int]:
    """Pull the lever (or settle a Jackpot turned up first): decided here, recorded once."""
    game = jackpot_game_or_404(game_id)
    form, n = request.form, len(game.players)
    opening = form.get("opening") or None
    first_cards = {r.value: r for r in OPENING_RANKS}
    try:
        if opening is not None and opening not in first_cards:
            raise FormErrors({"opening": "A Jackpot or a Wild Jackpot can be turned up first."})
        direction = _direction(form)
        puller = None if opening else _seat(form, "puller", n, "who pulls the lever")
        if puller in game.standings.eliminated:
            raise FormErrors({"puller": f"{game.players[puller]} is out of the game."})
    except FormErrors as exc:
        return _lever_page(game, errors=exc.errors), 400
    db, rng, submission = get_db(), lever_random(), _submission(form)
    # What the pull asked: the same key with the same ask is the same pull sent again.
    said = store.digest([("puller", puller), ("direction", direction), ("opening", opening)])
    try:
        with store.changing(db, game_id, submission=submission, digest=said,
                            cache=get_cache()) as game:
            out = frozenset(game.standings.eliminated)
            if opening:  # R19: the dealer of the hand being played is the next dealer
                call = LeverCall.first_card(first_cards[opening], dealer=game.next_dealer,
                                            players=n, out=out)
            else:
                assert puller is not None
                call = LeverCall(spin(rng), puller, n, direction, out=out)
            spin_id = store.pull_lever(db, game, call, rng, submission)
    except store.AlreadySaved:
        # A double tap, a retry or Back-and-resend: show the pull that form made.
        made = store.spin_for_submission(db, game, submission or "")
        if made is None:
            raise
        return _show_spin(game, made, fresh=False)
    except store.OutOfDate as exc:
        # A used lever (a page kept by Back or a cache) asked for another pull: never a
        # replay of the old one; a fresh lever, to pull again.
        return _lever_page(jackpot_game_or_404(game_id), errors={"submission": str(exc)}), 409
    return _show_spin(game, spin_id, fresh=True)


@bp.post("/games/<id:game_id>/jackpot/spins/<id:spin_id>/choose")
def choose(game_id: int, spin_id: int) -> Response | tuple[str, int]:
    """The puller chooses who performs (the "choose any player" outcome, R18/R19)."""
    game = jackpot_game_or_404(game_id)
    db = get_db()
    try:
        seat = _seat(request.form, "seat", len(game.players), "who performs the rule card")
        if seat in game.standings.eliminated:
            raise FormErrors({"seat": f"{game.players[seat]} is out of the game."})
    except FormErrors as exc:
        spin = store.load_spin(db, game, spin_id)
        if spin is None:
            abort(404, description="This game has no such pull of the lever.")
        return _lever_page(game, spin, errors=exc.errors), 400
    try:
        with store.changing(db, game_id, cache=get_cache()) as game:
            spin = store.load_spin(db, game, spin_id)
            if spin is None:
                abort(404, description="This game has no such pull of the lever.")
            store.choose_performer(db, game, spin, seat, lever_random())
    except store.ConflictError as exc:  # another phone chose first: show whom
        return _lever_page(game, store.load_spin(db, game, spin_id),
                           errors={"seat": str(exc)}), 409
    return _show_spin(game, spin_id, fresh=False)


@bp.after_request
def _refusals_in_place(response: Response) -> Response:
    """A refused htmx request is shown in place of the result, as a page would be."""
    return htmx.mark_in_place(response)


@bp.get("/games/<id:game_id>/jackpot/spins/<id:spin_id>/cards/<small:turn>")
def reveal(game_id: int, spin_id: int, turn: int) -> str:
    """A dealt rule card in large type, for its player: on their own phone, or on the
    shared phone passed to them. Showing it there is the reveal: it is recorded (once),
    and from then on every phone may read it (the player performs it aloud)."""
    game = jackpot_game_or_404(game_id)
    db = get_db()
    found = store.load_spin(db, game, spin_id)
    if found is None or not 1 <= turn <= len(found.cards):
        abort(404, description="There is no such rule card in this pull.")
    phone = this_phone(game)
    card = found.cards[turn - 1]
    if not card.revealed and not phone.reveals(card.seat):
        name = game.players[card.seat]
        abort(403, description=(
            f"This rule card is {name}'s, and shows on {name}'s own phone first."
            if card.seat in phone.claimed else
            f"This rule card is {name}'s: it shows on the phone passed round the table, "
            f"handed to {name}, first."))
    if not card.revealed and not current_app.config.get("DATABASE_READONLY"):
        # A GET that records a fact, once: opening the card on the phone it is for is
        # what showing it to its player means (the one-phone flow's links stay links).
        with store.changing(db, game_id, cache=get_cache()):
            store.reveal_rule_card(db, spin_id, turn)
    spin = phone.sees(found)
    later = [c for c in phone.shown_here(spin.cards) if c.turn > turn]
    return render_template("jackpot_card.html", game=game, spin=spin, card=spin.cards[turn - 1],
                           next_card=later[0] if later else None,
                           call_then=spin.call.then(game.players))


# -- what the game has for this phone alone, on any of its pages -------------------------


@bp.app_template_global("for_this_phone")
def _for_this_phone_here() -> dict[str, Any] | None:
    """For base.html: what waits for this phone, on a page of a game with rule cards."""
    game = g.get("shown_game")
    if game is None or not game.variant.rule_cards or game.deleted_at:
        return None
    return for_this_phone(game)


@bp.get("/games/<id:game_id>/for-you")
@live.page
def for_you(game_id: int) -> str:
    """What waits for this phone: a page, and the banner alone (#for-you) when htmx asks
    for it, as every page of the game polls it (its live ETag: a 304 until the game
    changes)."""
    game = jackpot_game_or_404(game_id)
    return htmx.page_or_part("for_you.html", "_for_you.html", "for-you", game=game,
                             fy=for_this_phone(game))


def _show_spin(game: store.GameRecord, spin_id: int, *, fresh: bool) -> Response:
    """After a write: to the pull's page (htmx swaps the result in and keeps the URL)."""
    target = url_for("jackpot.spin_result", game_id=game.id, spin_id=spin_id)
    if htmx.answer_format("spin-result") == "part":
        fresh_game = get_game_or_404(game.id)
        spin = store.load_spin(get_db(), fresh_game, spin_id)
        response = current_app.make_response(_lever_page(fresh_game, spin, fresh=fresh))
        response.headers["HX-Push-Url"] = target
        return response
    return redirect(target + ("?new=1" if fresh else ""), 303)


def _lever_page(game: store.GameRecord, spin: store.Spin | None = None, *, fresh: bool = False,
                errors: Mapping[str, str] | None = None) -> str:
    db = get_db()
    cards = store.rule_cards(db, game.id)
    phone = this_phone(game)
    return htmx.page_or_part(
        "jackpot.html", "_lever_answer.html", "spin-result",
        game=game, spin=None if spin is None else phone.sees(spin), phone=phone,
        fresh=fresh, errors=errors or {}, wheel=wheel(), stop=_stop(spin), submission=secrets.token_urlsafe(16),
        direction=store.last_direction(db, game.id), loaded=sum(c.loaded for c in cards),
        written=len(cards), dealer=game.next_dealer,
        openings=[(r.value, RANK_FACTS[r].name) for r in OPENING_RANKS])


def _stop(spin: store.Spin | None) -> int | None:
    """Where the wheel stops: the outcome's place on it (a first card spins no wheel)."""
    if spin is None or spin.call.opening:
        return None
    return LEVER_OUTCOMES.index(spin.call.outcome)


@bp.get("/games/<id:game_id>/jackpot/history")
@live.page
def history(game_id: int) -> str:
    """Every pull of the game's lever, and a chart of how often each outcome came up."""
    game = jackpot_game_or_404(game_id)
    db = get_db()
    counts = store.lever_counts(db, game.id)
    chi, p = lever_fairness(counts)
    page = row_id(request.args.get("page")) or 1
    spins, older = store.list_spins(db, game, page)
    phone = this_phone(game)
    return render_template("jackpot_history.html", game=game,
                           spins=[phone.sees(s) for s in spins], phone=phone, older=older,
                           page=page, chart=chart(counts), chi=chi, p=p,
                           pulls=sum(counts.values()))


# -- the rule cards ----------------------------------------------------------------------


@bp.get("/games/<id:game_id>/jackpot/cards")
def rule_cards(game_id: int) -> str:
    """Who writes how many rule cards, how many are written, and what the unit holds."""
    game = jackpot_game_or_404(game_id)
    return _cards_page(game, parse_seat(request.args.get("saved"), len(game.players)))


def _cards_page(game: store.GameRecord, saved: int | None = None) -> str:
    cards = store.rule_cards(get_db(), game.id)
    shares = engine.rule_card_shares(len(game.players), game.variant.rule_cards)
    written = [sum(1 for c in cards if c.seat == s) for s in range(len(game.players))]
    phone = this_phone(game)
    after = None
    if saved is not None and phone.passed_round:  # the shared phone goes on to the next writer
        later = [s for s, share in enumerate(shares)
                 if s > saved and written[s] < share and phone.writes(s)]
        after = later[0] if later else None
    return render_template(
        "rule_cards.html", game=game, shares=shares, written=written, saved=saved,
        next_writer=after, loaded=sum(c.loaded for c in cards), total=len(cards),
        suggestions=SUGGESTIONS, set_aside=game.variant.rule_cards - sum(shares), phone=phone)


@bp.route("/games/<id:game_id>/jackpot/cards/<small:seat>", methods=["GET", "POST"])
@viewers_may_post
def write_cards(game_id: int, seat: int) -> Response | str | tuple[str, int]:
    """One player writes (or rewrites) their share of the rule cards, on the phone that
    writes that seat's cards: a write changes only the cards written on this phone."""
    game = jackpot_game_or_404(game_id)
    if not 0 <= seat < len(game.players):
        abort(404, description="There is no such seat at this table.")
    phone = this_phone(game)
    if not phone.keeper and not phone.writes(seat):  # a viewer's POST reaches here too
        abort(403, description=f"Only {game.players[seat]}'s own phone writes "
                               f"{game.players[seat]}'s rule cards. Nothing was changed.")
    share = engine.rule_card_shares(len(game.players), game.variant.rule_cards)[seat]
    cards = [c for c in store.rule_cards(get_db(), game.id) if c.seat == seat]
    mine = [c.text for c in cards if phone.reads(c)]
    room = share - (len(cards) - len(mine))  # cards written elsewhere keep their place
    # The phone passed round the table never sends a written card back (issue 26): whoever
    # holds it next must not read it. A box left blank over a written card keeps it.
    sealed = len(mine) if phone.keeper else 0
    if request.method == "GET":
        return _write_page(game, seat, phone, room,
                           ([""] * sealed or mine) + [""] * (room - len(mine)), sealed=sealed)
    if not phone.writes(seat):  # a scorekeeper's phone, for a player with their own
        return _write_page(game, seat, phone, room, [], {"card": _own_phone(game, seat, phone)}), 409
    texts = [clean_name(t) for t in request.form.getlist("card")]
    torn = set(request.form.getlist("tear"))
    texts = [mine[k] if k < sealed and not text and str(k) not in torn else text
             for k, text in enumerate(texts)]
    errors = {}
    if len(texts) > room:
        errors["card"] = (f"{game.players[seat]} writes {share} card{'s' if share != 1 else ''}"
                          + (f", {share - room} of them on another phone." if room < share
                             else "."))
    elif any(len(t) > MAX_RULE for t in texts):
        errors["card"] = f"A rule card holds at most {MAX_RULE} characters."
    if errors:
        return _write_page(game, seat, phone, room, (texts + [""] * room)[:room], errors), 400
    db = get_db()
    with store.changing(db, game_id, cache=get_cache()) as game:
        store.write_rule_cards(db, game, seat, texts, lever_random(), device=phone.device,
                               passed_round=phone.passed_round)
    return redirect(url_for("jackpot.rule_cards", game_id=game_id, saved=seat), 303)


@bp.post("/games/<id:game_id>/jackpot/cards/<small:seat>/tear-up")
@viewers_may_post
def tear_up(game_id: int, seat: int) -> Response:
    """Tear up the seat's cards that this phone cannot read (written on another phone,
    perhaps one that is gone): a scorekeeper's phone, or the seat's own phone."""
    game = jackpot_game_or_404(game_id)
    phone = this_phone(game)
    if not 0 <= seat < len(game.players):
        abort(404, description="There is no such seat at this table.")
    if not (phone.keeper or phone.seat == seat):
        abort(403, description=f"Only the scorekeeper's phone or {game.players[seat]}'s own "
                               "phone can tear up these cards. Nothing was changed.")
    db = get_db()
    with store.changing(db, game_id, cache=get_cache()) as game:
        store.tear_up_rule_cards(db, game, [c for c in store.rule_cards(db, game.id)
                                            if c.seat == seat and not phone.reads(c)])
    return redirect(url_for("jackpot.write_cards", game_id=game_id, seat=seat, torn=1), 303)


def _own_phone(game: store.GameRecord, seat: int, phone: Phone) -> str:
    """Where the seat's cards are written, said to a scorekeeper's phone that does not."""
    name = game.players[seat]
    if seat not in phone.claimed:
        return (f"{name} writes {name}'s rule cards on the phone passed round the table (or "
                f"on {name}'s own phone, once it says it is {name}'s).")
    return (f"{name} writes {name}'s rule cards on {name}'s own phone. To write them here, "
            "free the seat first (on the rule cards page).")


def _write_page(game: store.GameRecord, seat: int, phone: Phone, room: int,
                texts: Sequence[str], errors: Mapping[str, str] | None = None,
                sealed: int = 0) -> str:
    """The write page: this phone's cards as inputs, the others' only as a count."""
    share = engine.rule_card_shares(len(game.players), game.variant.rule_cards)[seat]
    hidden = [c for c in store.rule_cards(get_db(), game.id)
              if c.seat == seat and not phone.reads(c)]
    return render_template("rule_cards_write.html", game=game, seat=seat, share=share,
                           texts=texts if phone.writes(seat) else [], errors=errors or {},
                           suggestions=SUGGESTIONS, max_rule=MAX_RULE, phone=phone,
                           hidden=_written_where(game, phone, hidden),
                           own_phone=_own_phone(game, seat, phone), torn=bool(request.args.get("torn")),
                           sealed=sealed)


def _written_where(game: store.GameRecord, phone: Phone,
                   cards: Iterable[store.RuleCard]) -> list[tuple[int, str]]:
    """How many of ``cards`` were written on which phone, in words ("Bea's phone")."""
    counts: dict[str, int] = {}
    for card in cards:
        if card.written_by is not None and phone.claimed.get(card.seat) == card.written_by:
            where = f"{game.players[card.seat]}'s phone"
        elif (card.written_by is None
              or access.role_of(get_db(), card.written_by, game.id).can_change):
            where = "a scorekeeper's phone"
        else:
            where = "another phone"
        counts[where] = counts.get(where, 0) + 1
    return [(n, where) for where, n in counts.items()]


# -- a spinner for any table -------------------------------------------------------------

#: The variant whose rules page explains the lever, for a table with no game here.
LEVER_VARIANT = next(v for v in engine.VARIANTS if v.has_lever())
#: Players a standalone spinner seats (as many as any variant).
MAX_SPINNER_SEATS = max(v.max_players for v in engine.VARIANTS)


@bp.route("/jackpot", methods=["GET", "POST"])
def spinner() -> str | tuple[str, int]:
    """The lever for a table with no game here: names typed (or taken from a game); the
    pull is decided the same way but not recorded."""
    values = request.values
    game_id = row_id(values.get("game"))
    names: list[str]
    if game_id and not values.get("players"):
        names = list(get_game_or_404(game_id).players)
    else:
        names = [clean_name(n) for n in (values.get("players") or "").split(",")]
        names = [n for n in names if n][:MAX_SPINNER_SEATS]
    errors: dict[str, str] = {}
    call = None
    try:
        if values.get("players") is not None or request.method == "POST":
            if len(names) < 2:
                raise FormErrors({"players": "Type at least two players' names, separated by "
                                             "commas, in seat order (clockwise)."})
            problem = engine.names_problem(names)  # the games' rule (engine.names)
            if problem is not None:
                raise FormErrors({"players": problem})
        if request.method == "POST":
            call = LeverCall(spin(lever_random()), _seat(values, "puller", len(names),
                             "who pulls the lever"), len(names), _direction(values))
    except FormErrors as exc:
        errors = exc.errors
    html = htmx.page_or_part("spinner.html", "_spinner_answer.html", "spin-result",
                             names=names, call=call, errors=errors,
                             seated=len(names) >= 2 and "players" not in errors,
                             wheel=wheel(), stop=None if call is None else
                             LEVER_OUTCOMES.index(call.outcome),
                             direction=values.get("direction") or "clockwise", game_id=game_id,
                             lever_variant=LEVER_VARIANT)
    return (html, 400) if errors else html


# -- drawings ----------------------------------------------------------------------------

#: The wheel's size in SVG units, and its radius.
WHEEL_SIZE = 200
_R = 96


def wheel() -> list[dict[str, Any]]:
    """The spinner's six wedges (outcome, SVG path, label position), the first at the top."""
    wedges = []
    step = 2 * math.pi / len(LEVER_OUTCOMES)
    centre = WHEEL_SIZE / 2
    for k, outcome in enumerate(LEVER_OUTCOMES):
        start, end = (k - 0.5) * step, (k + 0.5) * step
        x1, y1 = centre + _R * math.sin(start), centre - _R * math.cos(start)
        x2, y2 = centre + _R * math.sin(end), centre - _R * math.cos(end)
        # Labels run across their wedge: this far out, the widest ("Everyone") fits in it.
        lx, ly = centre + _R * 0.72 * math.sin(k * step), centre - _R * 0.72 * math.cos(k * step)
        wedges.append({
            "outcome": outcome, "index": k,
            "path": f"M{centre:g},{centre:g} L{x1:.2f},{y1:.2f} A{_R},{_R} 0 0 1 {x2:.2f},{y2:.2f} Z",
            "x": f"{lx:.2f}", "y": f"{ly:.2f}", "angle": round(k * 360 / len(LEVER_OUTCOMES)),
        })
    return wedges


#: The chart's width in SVG units, the bars' height and the room for labels.
CHART_WIDTH, BAR, LABEL = 320, 28, 90


def chart(counts: Mapping[LeverOutcome, int]) -> dict[str, Any]:
    """Horizontal bars of how often each outcome came up, and where a fair lever's
    share (one in six) falls."""
    total = sum(counts.values())
    expected = total / len(LEVER_OUTCOMES)
    room = CHART_WIDTH - LABEL - 40
    top = max([expected, *counts.values()]) or 1
    bars = [{"outcome": o, "count": counts.get(o, 0), "y": k * BAR,
             "width": round(room * counts.get(o, 0) / top, 1)}
            for k, o in enumerate(LEVER_OUTCOMES)]
    return {"bars": bars, "width": CHART_WIDTH, "height": BAR * len(bars), "label": LABEL,
            "expected": expected, "expected_x": round(LABEL + room * expected / top, 1),
            "bar": BAR}
