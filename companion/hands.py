"""Hands: recording one by tapping cards or typing totals, reviewing, editing, undoing."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from markupsafe import Markup
from werkzeug.wrappers import Response

import engine
from engine import Standings

from . import htmx, live, store
from .db import get_db
from .decks import deck_grid
from .errors import row_id
from .forms import FormErrors, HandReading, hand_form_data, parse_went_out, read_hand
from .gate import device, get_game_or_404, keepers_only
from .labels import bdi
from .store import get_cache

bp = Blueprint("hands", __name__, url_prefix="/games/<id:game_id>/hands")

NEW = 0  # drafts of a hand not yet saved are kept under hand id 0

#: Fields of a hand's entry besides the cards and totals: who went out, the entry's
#: one-time key (so a resent Save has no second effect), the game version it was
#: made from (so a change made meanwhile on another phone is never overwritten) and
#: the number a new hand was going to be (so a clash can say which hand came first).
ENTRY_FIELDS = ("out", "entry", "version", "number")
#: The most fields a hand form may carry (a 10-player picker has about 20).
MAX_FIELDS = 100


def _form_data(source: Mapping[str, Any]) -> dict[str, str]:
    """The hand's own fields from a submitted form (no token, no buttons)."""
    data = {k: str(v) for k, v in source.items()
            if k in ENTRY_FIELDS or k.startswith(("cards-", "pts-"))}
    if len(data) > MAX_FIELDS:
        abort(400, description="That hand form is not one this app sent: nothing was saved.")
    if source.get("new_out"):  # "someone else went out", keeping what was entered
        data["out"] = str(source["new_out"])
    return data


def _entered(data: Mapping[str, str]) -> bool:
    """True when the entry holds anything typed or tapped (more than who went out)."""
    return any(k not in ENTRY_FIELDS for k in data)


def _filled(data: Mapping[str, Any]) -> bool:
    """True when an entry holds a card or a total (not just empty fields)."""
    return any(str(v).strip() for k, v in data.items() if k.startswith(("cards-", "pts-")))


def _phone() -> str:
    """The phone whose entry this is (drafts are kept per phone)."""
    return device() or ""


def _digest(data: Mapping[str, str], hand_id: int | None) -> str:
    """What a hand form says, for telling the same Save sent again from a page out of date."""
    said = [(k, v) for k, v in data.items() if k not in ("entry", "version")]
    return store.digest([*said, ("hand", hand_id or NEW)])


def _for_how_long(since: datetime) -> str:
    """How long ago, in words that need no time zone ("for 3 minutes")."""
    minutes = int((datetime.now(UTC) - since).total_seconds() // 60)
    if minutes < 1:
        return "for less than a minute"
    if minutes >= 60:
        return "for over an hour"
    return f"for {minutes} minute{'s' if minutes != 1 else ''}"


def _someone_else_entering(game: store.GameRecord, hand: store.Hand | None) -> str | None:
    """What this phone is told when another phone is entering the same hand."""
    entries = store.others_entering(get_db(), game.id, hand.id if hand else NEW, _phone())
    number = hand.number if hand else game.hand_count + 1
    # Choosing who went out is entering too; an entry made for another hand number (one
    # saved since, by another phone) is not this hand's.
    started = next((since for data, since in entries
                    if (_filled(data) or str(data.get("out", "")).strip())
                    and (hand or str(data.get("number") or number) == str(number))), None)
    if started is None:
        return None
    return (f"Another phone is entering hand {number} ({_for_how_long(started)}). This "
            "entry is this phone's own: if both are saved, the second phone is asked what "
            "to do with its hand.")


def _require_version(version: int | None) -> None:
    """Every hand save names the game version it was made from: without it, a resent form
    could not be told from a new one. (Checked after the entry itself, so a hand that is
    wrong says what is wrong first.)"""
    if version is None:
        abort(400, description="This form is incomplete (it names no version of the game): "
                               "nothing was saved. Reload the page and try again.")


def _hand_id(source: Mapping[str, Any], field: str = "hand_id") -> int:
    """The hand a form acts on: a row id, or NEW (0) for a hand not yet saved."""
    raw = source.get(field)
    if raw in (None, "", "0"):
        return NEW
    hand_id = row_id(raw)
    if hand_id is None:
        abort(400, description="This form names no hand of this game: nothing was changed.")
    return hand_id


def _open_game(game_id: int) -> store.GameRecord:
    game = get_game_or_404(game_id)
    if game.no_more_hands:
        abort(409, description=game.no_more_hands)
    return game


def _live_hand(game: store.GameRecord, hand_id: int) -> store.Hand:
    hand = store.load_hand(get_db(), game, hand_id)
    if hand is None:
        raise store.NoSuchGame("There is no such hand in this game.")
    return hand


def _changeable_hand(game: store.GameRecord, hand_id: int) -> store.Hand:
    """A live hand the table may still change (the store refuses older ones too)."""
    hand = _live_hand(game, hand_id)
    store.require_changeable(get_db(), game, hand.id)
    return hand


def _fresh_entry(game: store.GameRecord, data: dict[str, str]) -> dict[str, str]:
    """An entry as the picker starts it: made from the game as it is now, with a new key
    unless it continues a kept draft whose key is still unused."""
    entry = data.get("entry", "")
    if not entry or store.is_spent(get_db(), entry):
        entry = secrets.token_urlsafe(16)
    return {**data, "entry": entry, "version": str(game.version),
            "number": str(game.hand_count + 1)}


def _said_at_once(reading: HandReading, data: Mapping[str, Any]) -> dict[str, str]:
    """The entry's problems the picker says as they are made: what is wrong with what was
    entered (cards and a total both, more of a card than the deck has), not what is still
    to enter (that waits for Review)."""
    def entered(key: str) -> bool:
        seat = key.removeprefix("seat-")
        return _filled({k: data.get(k, "") for k in (f"cards-{seat}", f"pts-{seat}")})
    return {k: v for k, v in reading.errors.items()
            if k == "cards" or (k.startswith("seat-") and entered(k))}


#: The most games a phone remembers entering by totals only (its session cookie).
TOTALS_GAMES = 20


def _totals_only(game_id: int) -> bool:
    """Whether this phone enters this game's hands by totals only (a table that counts its
    own cards): chosen on the picker (``?totals=1``, ``?totals=0``), remembered."""
    chosen = [g for g in session.get("totals_only", []) if isinstance(g, int)]
    wanted = request.args.get("totals")
    if wanted in ("0", "1"):
        chosen = [g for g in chosen if g != game_id] + ([game_id] if wanted == "1" else [])
        session["totals_only"] = chosen[-TOTALS_GAMES:]
    return game_id in chosen


def _picker(game: store.GameRecord, data: Mapping[str, Any], hand: store.Hand | None = None,
            errors: Mapping[str, str] | None = None, status: int = 200,
            restored: bool = False) -> tuple[str, int]:
    entering = _someone_else_entering(game, hand)
    try:
        went_out = parse_went_out(game, data.get("out"))
        if not game.mode.uses_points:
            raise FormErrors({})  # a tally only asks who went out
    except FormErrors:
        return (render_template("hand_out.html", game=game, hand=hand, data=data,
                                errors=errors or {}, entering=entering), status)
    reading = read_hand(game, data)
    totals_only = _totals_only(game.id)
    html = render_template(
        "hand_picker.html", game=game, hand=hand, data=data, went_out=went_out,
        seats=game.standings.scored_seats(went_out),
        deck="" if totals_only else deck_grid(game.variant.name, game.options),
        reading=reading, errors=errors or {}, restored=restored, entering=entering,
        totals_only=totals_only, said=_said_at_once(reading, data),
    )
    return html, status



def _then(game: store.GameRecord, hand: store.Hand | None) -> store.GameRecord:
    """The game as it stood when ``hand`` was played (None: a new hand, the game itself)."""
    return store.before(get_db(), game, hand)


def _checked(game: store.GameRecord, hand: store.Hand | None,
             data: Mapping[str, str]) -> tuple[HandReading, Standings]:
    """A complete hand entry read against ``game`` as it stood for ``hand`` (None: a new
    hand), and the standings it leads to; :class:`FormErrors` unless all of it is right."""
    reading = read_hand(_then(game, hand), data)
    if reading.errors:
        raise FormErrors(reading.errors)
    try:
        after = store.score_with(get_db(), game, hand,
                                 engine.HandOutcome(reading.went_out, reading.points))
    except engine.ScoringError as exc:
        raise FormErrors({"out": str(exc)}) from None
    return reading, after


#: Hands per page of the history, newest first.
HISTORY_PAGE = 20


@bp.get("")
@live.page
def history(game_id: int) -> str:
    """The hands, newest first, a page at a time: what each opponent held, the points."""
    game = get_game_or_404(game_id)
    pages = max(1, -(-game.hand_count // HISTORY_PAGE))
    page = min(row_id(request.args.get("page")) or 1, pages)
    shown = store.history_page(get_db(), game, page, HISTORY_PAGE)
    restore = row_id(request.args.get("restore"))
    # The referee's rulings the table kept, with the newest hands (the first page).
    kept = store.list_rulings(get_db(), game.id)[0] if page == 1 else []
    return render_template("history.html", game=game, shown=shown, page=page, pages=pages,
                           restorable=store.deleted_hand_id(get_db(), game, restore),
                           rulings=kept, saved=row_id(request.args.get("saved")),
                           removed=store.removed_hands(get_db(), game) if page == 1 else [],
                           changeable=store.CHANGEABLE_HANDS)


@bp.get("/new")
@keepers_only
def new_hand(game_id: int) -> tuple[str, int]:
    """Who went out, then the card picker; a kept draft comes back as it was."""
    game = _open_game(game_id)
    draft = store.load_draft(get_db(), game.id, NEW, _phone())
    if draft and store.is_spent(get_db(), draft.get("entry", "")):
        store.drop_draft(get_db(), game.id, NEW, _phone())  # that entry was saved: start afresh
        draft = None
    if draft and str(draft.get("number") or game.hand_count + 1) != str(game.hand_count + 1):
        # Made for a hand number another phone has saved (or taken back) since: a clash
        # still to settle, never a silent draft of the next hand. Nothing entered: dropped.
        if _filled(draft):
            return _clash(game.id, None, draft)
        store.drop_draft(get_db(), game.id, NEW, _phone())
        draft = None
    data = _form_data(request.args)
    restored = False
    if not _entered(data) and draft and _entered(draft):
        data = {**draft, **data}
        restored = True
    fresh = _fresh_entry(game, data)
    if "out" in request.args and not current_app.config["DATABASE_READONLY"]:
        # Who went out is chosen: kept, so that the other phones are told.
        store.save_draft(get_db(), game.id, NEW, _phone(), fresh)
    return _picker(game, fresh, restored=restored)


@bp.post("/preview")
def preview(game_id: int) -> str | tuple[str, int]:
    """Keeps the entry as a draft, and answers the picker with it: the running points
    alone (``_running.html``) when htmx asks for them, as each card is tapped."""
    game = get_game_or_404(game_id)
    hand_id = _hand_id(request.form)
    data = _form_data(request.form)
    store.save_draft(get_db(), game.id, hand_id, _phone(), data)
    hand = store.load_hand(get_db(), game, hand_id) if hand_id else None
    then = _then(game, hand)
    if htmx.answer_format("running") != "part":
        return _picker(then, data, hand)  # (no page of ours posts here without htmx)
    try:
        reading = read_hand(then, data)
    except FormErrors as exc:
        reading = HandReading(-1, [], {}, exc.errors)
    seats = then.standings.scored_seats(reading.went_out) if reading.went_out >= 0 else ()
    return render_template("_running.html", game=game, reading=reading, seats=seats,
                           said=_said_at_once(reading, data), as_part=True)


@bp.post("/switch")
def switch_out(game_id: int) -> Response:
    """"Someone else went out": keep what was entered as the draft, ask for the new opponents.

    A POST, so that the form's token and the tapped cards never ride in a URL.
    """
    hand_id = _hand_id(request.form)
    if hand_id == NEW:
        game = _open_game(game_id)
        target = url_for("hands.new_hand", game_id=game.id)
    else:
        game = get_game_or_404(game_id)
        _live_hand(game, hand_id)
        target = url_for("hands.edit_hand", game_id=game.id, hand_id=hand_id)
    store.save_draft(get_db(), game.id, hand_id, _phone(), _form_data(request.form))
    return redirect(target, 303)


@bp.post("/draft/discard")
def discard_draft(game_id: int) -> Response:
    """Throw away this phone's kept entry, on purpose (then back to the game, when asked
    from a clash with another phone's hand)."""
    game = get_game_or_404(game_id)
    hand_id = _hand_id(request.form)
    store.drop_draft(get_db(), game.id, hand_id, _phone())
    if request.form.get("then") == "game":
        return redirect(url_for("games.scoreboard", game_id=game.id), 303)
    if hand_id == NEW:
        return redirect(url_for("hands.new_hand", game_id=game.id), 303)
    return redirect(url_for("hands.edit_hand", game_id=game.id, hand_id=hand_id), 303)


def _review(game: store.GameRecord, hand: store.Hand | None) -> tuple[str, int]:
    data = _form_data(request.form)
    try:
        # Back to a review after its Save, and sent again: say so instead of offering it
        # twice; a used page sent with something else in it is out of date.
        store.check_unspent(get_db(), data.get("entry"), _digest(data, hand.id if hand else None),
                            game.id, "Already saved. This form was already submitted: this "
                            "hand was recorded once, and nothing was saved twice.")
    except store.OutOfDate:
        return _out_of_date(game.id, hand.id if hand else None, data)
    store.save_draft(get_db(), game.id, hand.id if hand else NEW, _phone(), data)
    try:
        reading, after = _checked(game, hand, data)
    except FormErrors as exc:
        return _picker(_then(game, hand), data, hand, exc.errors, 400)
    return render_template(
        "hand_review.html", game=game, hand=hand, data=data, reading=reading, after=after,
        number=hand.number if hand else game.hand_count + 1,
    ), 200


@bp.post("/review")
def review_new(game_id: int) -> tuple[str, int]:
    """Show the new hand and what it does to the standings before saving."""
    return _review(_open_game(game_id), None)


@bp.post("")
def save_new(game_id: int) -> Response | tuple[str, int]:
    """Save a reviewed hand and go back to the scoreboard."""
    return _save(game_id, None)


def _save(game_id: int, hand_id: int | None) -> Response | tuple[str, int]:
    """Save a new hand (``hand_id`` None) or a past hand's correction, decided inside the
    write transaction on the game as it is now; a wrong entry goes back to the picker."""
    data = _form_data(request.form)
    version = row_id(data.get("version"))
    db = get_db()
    try:
        with store.changing(db, game_id, version=version, submission=data.get("entry"),
                            digest=_digest(data, hand_id), cache=get_cache()) as game:
            hand = None if hand_id is None else _live_hand(game, hand_id)
            if hand is None and game.no_more_hands:
                raise store.ConflictError(game.no_more_hands, game.id)
            reading, _ = _checked(game, hand, data)
            _require_version(version)
            if hand is None:
                store.record_hand(db, game, reading.went_out, reading.holdings, _phone())
            else:
                store.update_hand(db, game, hand, reading.went_out, reading.holdings, _phone())
    except FormErrors as exc:
        game = get_game_or_404(game_id) if hand_id else _open_game(game_id)
        hand = None if hand_id is None else _live_hand(game, hand_id)
        return _picker(_then(game, hand), data, hand, exc.errors, 400)
    except store.OutOfDate:
        return _out_of_date(game_id, hand_id, data)
    except store.StaleError:
        return _clash(game_id, hand_id, data)
    if hand is None:
        return redirect(url_for("games.scoreboard", game_id=game_id, saved=game.hand_count + 1),
                        303)
    # The corrected hand, shown where it is in the history, saying it was saved.
    page = (game.hand_count - hand.number) // HISTORY_PAGE + 1
    return redirect(url_for("hands.history", game_id=game_id, page=page, saved=hand.id,
                            _anchor=f"hand-{hand.number}"), 303)


def _out_of_date(game_id: int, hand_id: int | None, data: dict[str, str]
                 ) -> tuple[str, int]:
    """A used page sent again with something new in it: the entry back in the picker, made
    afresh from the game as it is now (a new key), saying so; nothing was saved."""
    game = get_game_or_404(game_id)
    hand = None if hand_id is None else _live_hand(game, hand_id)
    fresh = _fresh_entry(game, {**data, "entry": ""})
    return _picker(_then(game, hand), fresh, hand, {"": store.OUT_OF_DATE}, 409)


def _clash(game_id: int, hand_id: int | None, data: dict[str, str]
           ) -> tuple[str, int]:
    """Another phone changed the game since this entry was made (it saved this hand's slot
    first, or changed this hand): both hands shown, and this phone chooses. Its draft
    stays until it does, so nothing is lost without being asked."""
    game = get_game_or_404(game_id)
    if hand_id is None:
        # A form that names no number: the hand saved first is taken to be the last one.
        number = row_id(data.get("number")) or game.hand_count or 1
        theirs = store.hand_numbered(get_db(), game, number)
    else:
        theirs = store.load_hand(get_db(), game, hand_id)
        if theirs is None:
            raise store.ConflictError("That hand was deleted on another phone meanwhile, so "
                                      "this change was not saved.", game.id)
        number = theirs.number
    then = _then(game, theirs)  # the game as this phone's entry was made for
    try:
        mine: HandReading | None = read_hand(then, data)
    except FormErrors:
        mine = None
    # "Keep mine": a form of its own, made from the game as it is now, with a fresh key.
    fresh = {**data, "entry": secrets.token_urlsafe(16), "version": str(game.version),
             "number": str(game.hand_count + 1)}
    html = render_template("hand_conflict.html", game=game, number=number, theirs=theirs,
                           mine=mine, data=fresh, edit=hand_id is not None,
                           next_number=game.hand_count + 1)
    return html, 409


@bp.get("/<id:hand_id>/edit")
@keepers_only
def edit_hand(game_id: int, hand_id: int) -> tuple[str, int]:
    """The picker filled with a past hand (or with the unsaved change to it)."""
    game = get_game_or_404(game_id)
    hand = _changeable_hand(game, hand_id)
    draft = store.load_draft(get_db(), game.id, hand.id, _phone())
    data = _form_data(request.args)
    restored = False
    if not _entered(data):
        base = draft or hand_form_data(hand.went_out, list(hand.holdings.values()))
        restored = draft is not None
        data = {**base, **data}
    return _picker(_then(game, hand), _fresh_entry(game, data), hand, restored=restored)


@bp.post("/<id:hand_id>/review")
def review_edit(game_id: int, hand_id: int) -> tuple[str, int]:
    """Show the changed hand and the standings it leads to before saving."""
    game = get_game_or_404(game_id)
    return _review(game, _changeable_hand(game, hand_id))


@bp.post("/<id:hand_id>")
def save_edit(game_id: int, hand_id: int) -> Response | tuple[str, int]:
    """Save a past hand's correction; totals, winner and dealer follow."""
    return _save(game_id, hand_id)


@bp.get("/<id:hand_id>/delete")
@keepers_only
def confirm_delete(game_id: int, hand_id: int) -> str:
    """Ask before deleting a hand."""
    game = get_game_or_404(game_id)
    hand = _changeable_hand(game, hand_id)
    return render_template(
        "confirm.html", title=f"Delete hand {hand.number}?",
        message=Markup("{} went out. The totals will be recomputed; you can undo this "
                       "straight after.").format(bdi(game.players[hand.went_out])),
        action=url_for("hands.delete_hand", game_id=game.id, hand_id=hand.id),
        button="Delete hand", back=url_for("hands.history", game_id=game.id),
    )


@bp.post("/<id:hand_id>/delete")
def delete_hand(game_id: int, hand_id: int) -> Response:
    """Delete a hand, keeping it so that the deletion can be undone."""
    db = get_db()
    with store.changing(db, game_id, cache=get_cache()) as game:
        store.set_hand_deleted(db, game, hand_id, True)
    return redirect(url_for("games.scoreboard", game_id=game_id, restore=hand_id), 303)


@bp.post("/undo")
def undo_last(game_id: int) -> Response:
    """Take back the last hand recorded (it can be restored).

    The form names the hand it takes back, and only that hand is undone: a double tap,
    or a page older than the last save, cannot undo a hand the table did not see.
    """
    named = _hand_id(request.form)
    db = get_db()
    with store.changing(db, game_id, cache=get_cache()) as game:
        last = game.last_hand
        if last is None:
            raise store.ConflictError("There is no hand to undo yet.", game.id)
        if named == NEW:
            abort(400, description="This form names no hand to undo: nothing was undone.")
        if named != last.id:
            raise store.ConflictError(
                "That hand was already taken back, or is not the last one any more: nothing "
                f"was undone. The last hand is now hand {last.number}.", game.id)
        store.set_hand_deleted(db, game, last.id, True)
    return redirect(url_for("games.scoreboard", game_id=game_id, restore=named), 303)


@bp.post("/<id:hand_id>/restore")
def restore_hand(game_id: int, hand_id: int) -> Response:
    """Put a deleted hand back where it was."""
    db = get_db()
    with store.changing(db, game_id, cache=get_cache()) as game:
        store.set_hand_deleted(db, game, hand_id, False)
    return redirect(url_for("games.scoreboard", game_id=game_id), 303)
