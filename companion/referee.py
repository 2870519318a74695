"""The rules referee's pages: a table's disputes put to :mod:`engine.referee`, its verdicts
shown (or given as JSON), and the rulings a game's table chose to keep.

The app never decides a rule: each check page turns its fields into the scene they
describe and the question asked of it (:func:`companion.referee_checks.ask`), and shows the
Verdict as the referee wrote it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any
from urllib.parse import quote_plus, urlencode

import sqlite_utils
from flask import (
    Blueprint,
    abort,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

import engine
from engine import LeverOutcome
from engine.referee import Position, RefereeError, Replay, TooOpenError, Verdict

from . import htmx, live, store
from .csrf import token as csrf_token
from .db import get_db
from .decks import deck_grid
from .errors import row_id
from .forms import MAX_CARDS_TEXT, FormErrors
from .gate import get_game_or_404, require_change
from .referee_checks import (
    BY_SLUG,
    MAIN,
    SPECIAL,
    Check,
    TableForm,
    ask,
    citation_path,
    offered,
    question_pairs,
    read_fields,
    read_table,
)
from .referee_checks import Field as FormField
from .referee_checks import sentence as _sentence
from .urls import fixed_url

bp = Blueprint("referee", __name__)
bp.add_app_template_global(citation_path, "citation_url")


# -- the table ------------------------------------------------------------------------------


def current_table(values: Mapping[str, Any]) -> TableForm:
    """The table a request is about: its ``game`` (404 if there is none such), else the
    variant, seats and options it names (400, saying what is wrong, for an option out of
    its bounds)."""
    raw = values.get("game")
    game = None
    if raw not in (None, ""):
        game_id = row_id(raw)
        if game_id is None:
            abort(404, description="There is no such game. It may have been deleted.")
        game = get_game_or_404(game_id)
    table = read_table(values, game)
    if table.options_problems:
        problems = dict(table.options_problems)
        message = " ".join(problems.values())
        if htmx.answer_format() == "json":
            abort(make_response(jsonify({"error": message, "fields": problems}), 400))
        abort(400, description=message)
    return table


def _links(table: TableForm) -> dict[str, str]:
    """The addresses a referee page links to, for this table."""
    query = table.query()
    out = {"index": fixed_url("referee.index", **query),
           "special": fixed_url("referee.specials", **query),
           "replay": fixed_url("referee.replay", **query)}
    if table.game is not None:
        out["rulings"] = fixed_url("referee.rulings", game_id=table.game.id)
        out["scoreboard"] = fixed_url("games.scoreboard", game_id=table.game.id)
    return out


def check_url(check: Check, table: TableForm) -> str:
    """A check's page, for this table."""
    return fixed_url("referee.check", slug=check.slug, **table.query())


# -- the list of checks -----------------------------------------------------------------------


@bp.get("/referee")
def index() -> Any:
    """The checks, for a game's table (?game=<id>) or any table named here."""
    table = current_table(request.args)
    checks = offered(MAIN, table)
    if htmx.answer_format() == "json":
        return _checks_json(table, [*checks, *offered(SPECIAL, table)])
    return _checks_page(table, checks, offered(SPECIAL, table), here="referee.index")


@bp.get("/referee/special")
def specials() -> Any:
    """The special cards' checks this table's deck holds, and the house rules'."""
    table = current_table(request.args)
    if htmx.answer_format() == "json":
        return _checks_json(table, offered(SPECIAL, table))
    return _checks_page(table, offered(SPECIAL, table), [], here="referee.specials",
                        special_page=True)


def _checks_json(table: TableForm, checks: list[Check]) -> Any:
    """A list of checks as JSON, with the replay's address and the session's CSRF token."""
    return jsonify({
        "variant": table.variant.name, "seats": list(table.seats),
        "checks": [{"check": c.slug, "title": c.title, "question": c.asks(table),
                    "url": check_url(c, table)} for c in checks],
        "replay": fixed_url("referee.replay", **table.query()), "csrf_token": csrf_token()})


def _checks_page(table: TableForm, checks: list[Check], specials: list[Check], *, here: str,
                 special_page: bool = False) -> str:
    """A list of checks to ask (and the special cards' to open), for this table; ``here``
    names the page's own view, where the table's fields send the form."""
    return render_template("referee.html", table=table, checks=checks, specials=specials,
                           links=_links(table), variants=_variants(),
                           check_url=check_url, here=fixed_url(here), special_page=special_page)


def _variants() -> list[tuple[str, str]]:
    return [(v.name, v.title) for v in engine.VARIANTS]


# -- a check --------------------------------------------------------------------------------


def _check_or_404(slug: str) -> Check:
    chosen = BY_SLUG.get(slug)
    if chosen is None:
        abort(404, description="The referee has no such check.")
    return chosen


@bp.get("/referee/<path:slug>")
def check(slug: str) -> Any:
    """One check's form, filled from the query; with ``ask=1`` the query is the question,
    answered (:func:`answer`): the address holds the verdict, for Back, a reload or a link
    shared."""
    chosen = _check_or_404(slug)
    if request.args.get("ask"):
        return answer(chosen, request.args)
    table = current_table(request.args)
    if htmx.answer_format() == "json":
        return jsonify({**chosen.describe(table), "csrf_token": csrf_token()})
    return _check_page(chosen, table, request.args)


@bp.post("/referee/<path:slug>")
def check_posted(slug: str) -> Any:
    """A check's question sent as a form (CSRF-checked): answered, or with ``save``, its
    ruling kept (:func:`keep`)."""
    chosen = _check_or_404(slug)
    if request.form.get("save"):
        return keep(chosen, request.form)
    return answer(chosen, request.form)


def answer(chosen: Check, values: Mapping[str, Any]) -> Any:
    """The verdict on the question ``values`` ask: as JSON, as the answer alone (htmx, with
    the question's address to show), or as the check's page."""
    table = current_table(values)
    return _verdict(chosen, table, values, *_ask(chosen, table, values), push=True)


def keep(chosen: Check, values: Mapping[str, Any]) -> Any:
    """Keep the verdict on the question ``values`` ask on its game's rulings, once per
    one-time ``submission`` key (a resent save keeps one ruling); a viewer may ask but not
    keep (403), a key used for another question is out of date (409). Without htmx, then
    to the rulings (303). A question refused, or about no game, is only answered."""
    table = current_table(values)
    verdict, errors, too_open = _ask(chosen, table, values)
    if verdict is None or table.game is None:
        return _verdict(chosen, table, values, verdict, errors, too_open, push=False)
    answered_as = htmx.answer_format("answer")
    require_change(table.game.id)  # a viewer may ask the referee, not keep its rulings
    try:
        ruling, saved = save_ruling(get_db(), table, chosen, verdict, values)
    except store.OutOfDate as exc:  # the answer again, with a fresh key: tap again
        if answered_as == "json":
            return _json_refusal({"": str(exc)}, 409)
        return _answered(chosen, table, values, verdict, {}, 409, stale=str(exc))
    if answered_as == "json":
        return jsonify(ruling), 201 if saved else 200
    if answered_as == "page":
        return redirect(url_for("referee.rulings", game_id=table.game.id), 303)
    return _answered(chosen, table, values, verdict, {}, 200, saved=saved)


def _ask(chosen: Check, table: TableForm, values: Mapping[str, Any]
         ) -> tuple[Verdict | None, dict[str, str], str | None]:
    """The referee's verdict on the question, or what keeps it from judging (by field)
    and, for a question too open to settle, what to tell it (api.md's ``too_open``)."""
    try:
        return ask(chosen, table, values), {}, None
    except FormErrors as exc:
        return None, exc.errors, None
    except RefereeError as exc:
        too_open = exc.narrow if isinstance(exc, TooOpenError) else None
        return None, {"": _sentence(str(exc))}, too_open


def _verdict(chosen: Check, table: TableForm, values: Mapping[str, Any],
             verdict: Verdict | None, errors: Mapping[str, str], too_open: str | None, *,
             push: bool) -> Any:
    """The verdict, or why the referee cannot judge: as JSON, or as :func:`_answered`."""
    if htmx.answer_format("answer") == "json":
        if verdict is None:
            return _json_refusal(errors, 400, too_open=too_open)
        return jsonify(verdict.to_dict())
    return _answered(chosen, table, values, verdict, errors, 400 if verdict is None else 200,
                     push=push)


def _answered(chosen: Check, table: TableForm, values: Mapping[str, Any],
              verdict: Verdict | None, errors: Mapping[str, str], status: int, *,
              push: bool = False, saved: bool | None = None, stale: str | None = None) -> Any:
    """An answer as htmx asks for it (the part in #answer; refusals in place; with
    ``push``, the question's address for the address bar), or the check's page."""
    question = question_pairs(chosen, table, values)
    if htmx.answer_format("answer") == "page":
        return _check_page(chosen, table, values, verdict=verdict, errors=errors,
                           status=status, stale=stale, saved=saved, question=question)
    html = render_template("_referee_answer.html", check=chosen, table=table,
                           verdict=verdict, errors=errors, saved=saved, stale=stale,
                           submission=secrets.token_urlsafe(16), links=_links(table),
                           question=question, here=fixed_url("referee.check", slug=chosen.slug))
    # The address bar shows the question asked (keeping a ruling asks no new question).
    pushed = {"HX-Push-Url": ask_url(chosen, question)} if push else {}
    return html, status, {**htmx.IN_PLACE, **pushed}


def ask_url(check: Check, question: list[tuple[str, str]]) -> str:
    """The address of a check's verdict: its question in the query, with ``ask=1``, opened
    at the answer (as the form without JavaScript lands)."""
    return (url_for("referee.check", slug=check.slug) + "?"
            + urlencode([*question, ("ask", "1")]) + "#answer")


def _json_refusal(errors: Mapping[str, str], status: int, *, too_open: str | None = None) -> Any:
    """A refusal as JSON: every message in ``error``; in ``fields``, those about a field,
    by the field's name (``{}`` when none is); a question too open to settle adds
    ``too_open``, what to tell the referee (as an answer's ``too_open``)."""
    body = {"error": " ".join(errors.values()),
            "fields": {k: v for k, v in errors.items() if k}}
    if too_open is not None:
        body["too_open"] = too_open
    return jsonify(body), status


def _check_page(check: Check, table: TableForm, values: Mapping[str, Any], *,
                verdict: Verdict | None = None, errors: Mapping[str, str] | None = None,
                status: int = 200, stale: str | None = None, saved: bool | None = None,
                question: list[tuple[str, str]] | None = None) -> tuple[str, int]:
    values = dict(values)  # the first of each field (a MultiDict's misses cost an exception)
    html = render_template(
        "referee_check.html", check=check, table=table, values=values, verdict=verdict,
        errors=errors or {}, saved=saved, stale=stale,
        deck=deck_grid(table.variant.name, table.options),
        links=_links(table), variants=_variants(),
        here=fixed_url("referee.check", slug=check.slug), question=question or [],
        submission=secrets.token_urlsafe(16), choices=_choices(table),
    )
    return html, status


def _choices(table: TableForm) -> dict[str, list[tuple[str, str]]]:
    """What a select field offers, by the field's kind."""
    return {"lever": [(o.value, o.words) for o in LeverOutcome],
            "mode": [(m.value, m.label) for m in table.variant.scoring_modes]}


# -- the rulings log ------------------------------------------------------------------------


def save_ruling(db: sqlite_utils.Database, table: TableForm, check: Check, verdict: Verdict,
                values: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """Keep a verdict on the game's rulings log, in one write transaction; a form sent
    twice (the same ``submission`` key) is kept once. Returns the ruling and whether it
    is new."""
    submission = str(values.get("submission") or "")[:64] or None
    assert table.game is not None
    game_id = table.game.id
    dispute = question_pairs(check, table, values)
    return store.keep_ruling(db, game_id, check=check.slug, title=check.title,
                             outcome=verdict.outcome, verdict=verdict.to_dict(),
                             dispute=dispute, submission=submission)


@bp.get("/games/<id:game_id>/rulings")
@live.page
def rulings(game_id: int) -> Any:
    """The rulings a game's table kept, newest first."""
    game = get_game_or_404(game_id)
    kept, older = store.list_rulings(get_db(), game.id, row_id(request.args.get("before")))
    # The next page: the rulings before the oldest listed (a list is bounded in size).
    older_url = (url_for("referee.rulings", game_id=game.id, before=kept[-1]["id"])
                 if older and kept else None)
    if htmx.answer_format() == "json":
        return jsonify({"game": game.id, "rulings": kept, "older": bool(older),
                        "older_url": older_url})
    table = read_table({}, game)
    for ruling in kept:
        known = BY_SLUG.get(ruling["check"])
        # Asked again at once: the verdict for the question as it was kept, today's rules.
        ruling["again"] = (url_for("referee.check", slug=known.slug) + "?" + urlencode(
            [("game", str(game.id)), *((k, v) for k, v in ruling["dispute"] if k != "game"),
             ("ask", "1")]) + "#answer" if known else None)
    return render_template("referee_rulings.html", game=game, rulings=kept, older=older_url,
                           table=table, links=_links(table))



# -- replaying a position: the whole state in the link ------------------------------------------

#: The longest replay text read from a link (a whole deck and a long hand is under 4 KB).
MAX_REPLAY = 8_000
#: The most actions a replay link plays (each is replayed, and shown with its events).
MAX_ACTIONS = 150
#: The most text a replay's answer spends on its choices' links, each of which holds the
#: whole replay: a long link at a position of many moves would be megabytes.
MAX_CHOICE_LINKS = 120_000
#: The editor's fields: a hand per seat (``hand-<i>``), then these.
REPLAY_FIELDS = (
    FormField("to_act", "seat", "Whose turn is it?", required="Tap whose turn it is."),
    FormField("top", "card", "The card on top of the pile", required="Tap the card on top."),
    FormField("color", "color", "The color in play", hint="Only needed when a wild is on top."),
    FormField("direction", "direction", "Direction of play"),
    FormField("draw", "cards", "The draw pile, top card first",
              hint="Leave it empty and tick below to shuffle in the rest of the deck."),
    FormField("fill", "flag", "Shuffle the cards nobody named into the draw pile"),
)


@bp.route("/referee/replay", methods=["GET", "POST"])
def replay() -> Any:
    """A position kept whole in the link (?p=...): its legal actions to tap, undo, and the
    link to share. Without ``p``, the form that sets a position out; its POST starts it."""
    table = current_table(request.values)
    if request.method == "POST":
        try:
            started = Replay(_position(table, request.form))
            # The engine sets it up, or refuses.
            started = _answerable(Replay.parse(started.text), table)
        except (FormErrors, RefereeError) as exc:
            return _replay_refused(table, _refusal(exc), request.form)
        if htmx.answer_format() == "json":
            return jsonify(_replay_dict(started, table))
        return redirect(_replay_url(started, table), 303)
    text = request.args.get("p")
    if text is None:
        if htmx.answer_format() == "json":
            return jsonify(_replay_fields(table))
        return _replay_editor(table, request.args)
    try:
        if len(text) > MAX_REPLAY:
            raise FormErrors({"p": "That replay link is far too long to be one of ours."})
        if _action_count(text) > MAX_ACTIONS:
            raise FormErrors({"p": f"That replay plays more than {MAX_ACTIONS} actions: set "
                                   "the position out again from where the dispute begins."})
        shown = _answerable(Replay.parse(text), table)
    except (FormErrors, RefereeError) as exc:
        return _replay_refused(table, _refusal(exc), request.args)
    if htmx.answer_format() == "json":
        return jsonify(_replay_dict(shown, table))
    game = shown.game()
    return render_template("referee_replay.html", replay=shown, game_state=game,
                           steps=shown.steps(), choices=_choices_of(shown, table),
                           undo=_replay_url(shown.undo(), table) if shown.actions else None,
                           start=_replay_url(Replay(shown.position), table),
                           share=request.url_root.rstrip("/") + _replay_url(shown, table),
                           table=table, links=_links(table))


def _answerable(r: Replay, table: TableForm) -> Replay:
    """``r``, if its answer stays small: each of its choices links the whole replay."""
    if len(r.text) > MAX_REPLAY:
        raise FormErrors({"p": "That replay link is far too long to be one of ours."})
    if len(r.choices()) * len(_replay_url(r, table)) > MAX_CHOICE_LINKS:
        raise FormErrors({"p": "That replay link is too long for a position with this many "
                               "moves: set the position out again from here."})
    return r


def _action_count(text: str) -> int:
    """How many actions a replay link plays (counted before any is played)."""
    for part in text.split(";"):
        key, _, value = part.partition("=")
        if key.strip() == "actions":
            return sum(1 for a in value.split(",") if a)
    return 0


def _position(table: TableForm, values: Mapping[str, Any]) -> Position:
    """The position the editor's fields set out; :class:`FormErrors` for what is missing."""
    errors: dict[str, str] = {}
    read: dict[str, Any] = {}
    try:
        read = read_fields(REPLAY_FIELDS, table, values)
    except FormErrors as exc:
        errors.update(exc.errors)
    hands = []
    for i in range(len(table.seats)):
        text = str(values.get(f"hand-{i}") or "")
        if len(text) > MAX_CARDS_TEXT:
            errors[f"hand-{i}"] = "That is more cards than a deck holds."
        hands.append(tuple(text.replace(",", " ").split()))
    if errors:
        raise FormErrors(errors)
    to_act = engine.seat_of(table.seats, str(read["to_act"]))  # as the games match names
    if to_act is None:
        raise FormErrors({"to_act": f"Whose turn: {read['to_act']!r} is not at this table."})
    draw = str(read["draw"] or "").replace(",", " ").split()
    try:
        position = Position(
            table.variant.name, table.seats, tuple(tuple(engine.parse_cards(h)) for h in hands),
            (engine.Card.parse(str(read["top"])),), tuple(engine.parse_cards(draw)),
            color=read["color"], direction=int(engine.Direction.parse(read["direction"])),
            to_act=to_act, options=table.options)
    except engine.CardError as exc:
        raise engine.referee.UnknownCardError(str(exc)) from None
    except engine.SetupError as exc:
        raise engine.referee.ImpossibleSituationError(str(exc)) from None
    # The cards nobody named, shuffled under the draw pile: the engine knows which are left.
    return engine.referee.filled(position) if read["fill"] else position


def _replay_url(r: Replay, table: TableForm) -> str:
    """The link that is this replay (the game's id kept, for the way back)."""
    query: dict[str, Any] = {"game": table.game.id} if table.game is not None else {}
    # Written as url_for writes a query, but the position (most of the link, and the same
    # in every link on a replay's page) is encoded once.
    position = r.position.text
    actions = r.text.removeprefix(position)
    return (url_for("referee.replay", **query) + ("&p=" if query else "?p=")
            + _quoted(position) + quote_plus(actions, safe=URL_SAFE))


#: The characters url_for leaves as they are in a query (Werkzeug's choice).
URL_SAFE = "!$'()*,/:;?@"


@lru_cache(maxsize=256)
def _quoted(text: str) -> str:
    """``text`` encoded for a link's query, as url_for encodes it."""
    return quote_plus(text, safe=URL_SAFE)


def _choices_of(r: Replay, table: TableForm) -> list[dict[str, str]]:
    """Each legal action now, its label, and the link that plays it."""
    return [{"action": c.action, "label": c.label,
             "url": _replay_url(replace(r, actions=(*r.actions, c.action)), table)}
            for c in r.choices()]


def _replay_dict(r: Replay, table: TableForm) -> dict[str, Any]:
    """A replay as the engine gives it in plain values, each choice with its link."""
    out = r.to_dict()
    out["choices"] = [{**c, "url": _replay_url(replace(r, actions=(*r.actions, c["action"])),
                                               table)} for c in out["choices"]]
    return out


def _replay_fields(table: TableForm) -> dict[str, Any]:
    """The editor as JSON: the fields a POST sets a position out with (a hand per seat,
    then :data:`REPLAY_FIELDS`), and the session's CSRF token."""
    hands = [{"name": f"hand-{i}", "kind": "cards", "label": f"{name}'s hand",
              "required": False, "sends": [f"hand-{i}"]} for i, name in enumerate(table.seats)]
    return {"check": "replay", "title": "Replay a position",
            "question": "Set a position out, then play it through one action at a time.",
            "fields": [*hands, *(f.describe(table) for f in REPLAY_FIELDS)],
            "csrf_token": csrf_token()}


def _replay_editor(table: TableForm, values: Mapping[str, Any], errors: Mapping[str, str] | None = None,
                   status: int = 200) -> tuple[str, int]:
    html = render_template("referee_replay.html", replay=None, table=table, values=values,
                           errors=errors or {}, fields=REPLAY_FIELDS,
                           deck=deck_grid(table.variant.name, table.options),
                           links=_links(table), variants=_variants(),
                           here=fixed_url("referee.replay"), choices={})
    return html, status


def _refusal(exc: FormErrors | RefereeError) -> dict[str, str]:
    """What a refused replay says: the form's own errors, or the referee's sentence."""
    return exc.errors if isinstance(exc, FormErrors) else {"": _sentence(str(exc))}


def _replay_refused(table: TableForm, errors: Mapping[str, str], values: Mapping[str, Any]) -> Any:
    if htmx.answer_format() == "json":
        return _json_refusal(errors, 400)
    return _replay_editor(table, values, errors, 400)
