"""Sharing a game with the other phones at the table: its links and their QR codes,
joining by a link, a player's own phone choosing its seat, renewing a link, and
forgetting a game on this phone."""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache
from io import BytesIO

import segno
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
from markupsafe import Markup, escape
from werkzeug.test import run_wsgi_app
from werkzeug.wrappers import Response

from . import csrf, store
from .db import get_db, writing
from .errors import host_name
from .forms import parse_seat
from .gate import current_access, device, get_game_or_404, keepers_only, viewers_may_post
from .htmx import answer_format
from .labels import bdi
from .rule_card_readers import for_this_phone
from .store import access, get_cache

bp = Blueprint("sharing", __name__)

#: What a link that opens nothing is told (a typo, or a link renewed since).
OLD_LINK = ("This link opens no game: it was mistyped, or the scorekeeper made new links "
            "since. Ask for the game's link (or QR code) again.")


@bp.get("/join/<token>")
def join(token: str) -> Response:
    """Open a share link: this phone gets its role for the game, and the link is answered
    with the page it leads to (the scoreboard), not a redirect to it: on a slow phone
    network a redirect costs a whole round trip before the first paint. The page's address
    is set on its <body> (data-address) and static/phone.js puts it in the address bar in
    place of the link (history.replaceState): the token leaves the bar, and a reload asks
    for the page itself."""
    db = get_db()
    with writing(db):
        found = access.game_for_token(db, token)
        if found is None:
            abort(404, description=OLD_LINK)
        game_id, role = found
        given = access.grant(db, str(device(create=True)), game_id, role)
        game = store.load_game(db, game_id, get_cache())
    scoreboard = url_for("games.scoreboard", game_id=game_id)
    wanted = request.args.get("next", "")
    if (not wanted and game is not None and game.variant.rule_cards and role == access.VIEWER
            and given.seat is None):
        # Players with their own phones write and see their own rule cards: ask who this is.
        return _answer_with(url_for("sharing.seat", game_id=game_id))
    return _answer_with(_within(scoreboard, wanted))


def _answer_with(path: str) -> Response:
    """The page at ``path`` (a GET of this app), answered to this request as a redirect's
    second request would be, with this request's session (the role just given); a redirect
    to it when that page is not a plain 200."""
    csrf.token()  # in the session now, so that the inner request leaves the session alone
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    name = app.config["SESSION_COOKIE_NAME"]
    signed = app.session_interface.get_signing_serializer(app).dumps(dict(session))
    cookies = [part for part in request.environ.get("HTTP_COOKIE", "").split(";")
               if part.strip() and part.strip().split("=", 1)[0] != name]
    environ = {key: value for key, value in request.environ.items()
               if not key.startswith("werkzeug.") and key != "HTTP_ACCEPT_ENCODING"}
    path_only, _, query = path.partition("?")
    environ.update({"REQUEST_METHOD": "GET", "PATH_INFO": path_only, "QUERY_STRING": query,
                    "wsgi.input": BytesIO(), "CONTENT_LENGTH": "0",
                    "HTTP_COOKIE": ";".join([*cookies, f"{name}={signed}"])})
    body, status, headers = run_wsgi_app(app.wsgi_app, environ, buffered=True)
    page = Response(body, status, [(k, v) for k, v in headers if k.lower() != "set-cookie"])
    if page.status_code != 200 or page.mimetype != "text/html":
        return redirect(path, 303)
    address = escape(path).encode()
    page.set_data(page.get_data().replace(b"<body ", b'<body data-address="' + address + b'" ', 1))
    return page


def _within(scoreboard: str, wanted: str) -> str:
    """``wanted`` if it is a page of the same game (a link may open the lever, say), else
    the scoreboard: a link never sends a phone anywhere else."""
    path, _, query = wanted.partition("?")
    if (path == scoreboard or path.startswith(scoreboard + "/")) and len(wanted) <= 200 \
            and re.fullmatch(r"[\w/-]*", path) and re.fullmatch(r"[\w=&%.-]*", query):
        return wanted
    return scoreboard


def link_url(token: str) -> str:
    """A share link as another phone opens it (the address this phone used)."""
    return url_for("sharing.join", token=token, _external=True)


@lru_cache(maxsize=256)
def qr_svg(text: str) -> Markup:
    """``text`` as a QR code, an inline SVG drawn here (segno): no outside service sees it."""
    code = segno.make(text, error="m")
    return Markup(code.svg_inline(scale=1, omitsize=True, svgclass="qr", lineclass="qr-line",
                                  dark="#000"))


def _local_only() -> bool:
    """Whether this phone opened the app by an address no other phone can reach."""
    name = host_name(request.host).strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@bp.get("/games/<id:game_id>/share")
def share(game_id: int) -> str:
    """The game's links and QR codes: a viewer sees the viewer's link, a scorekeeper both."""
    game = get_game_or_404(game_id)
    found = access.links(get_db(), game.id)
    assert found is not None
    # The viewer's first: every phone at the table gets it; the scorekeeper's is for few.
    shown = [(role, link_url(found.token(role))) for role in (access.VIEWER, access.KEEPER)]
    return render_template("share.html", game=game, shown=shown, qr=qr_svg,
                           local_only=_local_only(),
                           keepers=access.keepers(get_db(), game.id),
                           claimed=access.seat_phones(get_db(), game.id))


@bp.route("/games/<id:game_id>/seat", methods=["GET", "POST"])
@viewers_may_post
def seat(game_id: int) -> Response | str | tuple[str, int]:
    """"Which player are you?": a phone becomes one player's own phone (a scorekeeper's
    too: a scorekeeper may be a player), or, with ``release``, nobody's again (a wrong tap
    is undone). A seat another phone holds is not taken from it; a seat whose cards the
    phone passed round reads today is asked for, and that phone says yes or no
    (:func:`answer_seat`). Only where the game has rule cards to keep private."""
    game = get_game_or_404(game_id)
    if not game.variant.rule_cards:
        abort(404, description=f"{game.variant.title} has no rule cards: no seat to choose.")
    if request.method == "GET":
        return _seat_page(game)
    here = str(device())
    db = get_db()
    if request.form.get("release"):
        with writing(db):
            access.set_seat(db, here, game_id, None)
        return redirect(url_for("sharing.seat", game_id=game_id), 303)
    chosen = parse_seat(request.form.get("seat"), len(game.players))
    if chosen is None:
        return _seat_page(game, "Choose which player you are."), 400
    with writing(db):  # read again, inside the transaction
        holder = access.seat_phones(db, game_id).get(chosen)
        asker = access.seat_asks(db, game_id).get(chosen)
        passed = access.passed_round(db, game_id)
        name = game.players[chosen]
        refused = None
        if holder is not None and holder != here:
            refused = (f"{name} is already chosen on another phone. If that is not {name}'s, "
                       f"that phone can let it go (on its “Which player are you?”), or a "
                       f"scorekeeper frees {name}'s seat on the share page. Nothing was changed.")
        elif asker is not None and asker != here:
            refused = (f"Another phone is asking to be {name}'s: the phone passed round the "
                       "table answers it first. Nothing was changed.")
        elif holder is None and passed is not None and passed != here:
            # The seat's cards show on the phone passed round today: it says yes or no.
            access.ask_seat(db, here, game_id, chosen)
        elif holder is None:
            access.set_seat(db, here, game_id, chosen)
    if refused:
        return _seat_page(game, refused), 409
    return redirect(url_for("games.scoreboard", game_id=game_id), 303)


def _seat_page(game: store.GameRecord, refused: str | None = None) -> str:
    db = get_db()
    asks = access.seat_asks(db, game.id)
    return render_template("seat.html", game=game, refused=refused, mine=current_access(),
                           claimed=access.seat_phones(db, game.id),
                           asking=next((s for s, d in asks.items() if d == device()), None),
                           passed_round=access.passed_round(db, game.id), device=device())


@bp.post("/games/<id:game_id>/passed-round")
def pass_round(game_id: int) -> Response:
    """The table names the phone it passes round: the one passed round stops (``leave``),
    then a scorekeeper's phone takes it (``take``) while no phone is. Never taken from
    the phone that has it: it reads the cards of the players without their own."""
    get_game_or_404(game_id)
    db = get_db()
    here = str(device())
    with writing(db):
        now = access.passed_round(db, game_id)
        if request.form.get("leave") and now == here:
            access.pass_round(db, game_id, None)
        elif request.form.get("take") and now is None:
            access.pass_round(db, game_id, here)
        elif request.form.get("take") and now != here:
            abort(409, description="Another phone is passed round this table: it stops being "
                                   "passed round first (on its “Which player are you?”). "
                                   "Nothing was changed.")
    return redirect(url_for("sharing.seat", game_id=game_id), 303)


@bp.post("/games/<id:game_id>/seats/<small:seat>/answer")
def answer_seat(game_id: int, seat: int) -> Response:
    """The phone passed round answers a phone asking to be ``seat``'s own: yes, and the
    seat's cards show there from now on; no, and nothing changes. Sent again, nothing
    more happens (the ask is answered)."""
    game = get_game_or_404(game_id)
    db = get_db()
    with writing(db):
        if access.passed_round(db, game_id) != device():
            abort(403, description="Only the phone passed round the table says whose a "
                                   "phone is. Nothing was changed.")
        asker = access.seat_asks(db, game_id).get(seat)
        if asker is not None and request.form.get("answer") == "yes" \
                and seat not in access.seat_phones(db, game_id):
            access.set_seat(db, asker, game_id, seat)
        elif asker is not None:
            access.ask_seat(db, asker, game_id, None)
    # Answered from the banner, in place: the page being used stays.
    if answer_format("for-you") == "part":
        return Response(render_template("_for_you.html", fy=for_this_phone(game), as_part=True))
    return redirect(url_for("games.scoreboard", game_id=game_id), 303)


@bp.get("/games/<id:game_id>/seats/<small:seat>/free")
@keepers_only
def confirm_free_seat(game_id: int, seat: int) -> str:
    """Ask before freeing a seat: say what it does to that player's phone."""
    game = get_game_or_404(game_id)
    if not 0 <= seat < len(game.players):
        abort(404, description="There is no such seat in this game.")
    name = bdi(game.players[seat])
    back = request.args.get("back") == "cards"
    return render_template(
        "confirm.html", title=Markup("Free {}'s seat?").format(name),
        message=Markup("{}'s phone stops being {}'s own: it only watches, and another phone "
                       "(this one included) can write {}'s rule cards. That phone can choose "
                       "the seat again.").format(name, name, name),
        action=url_for("sharing.free_seat", game_id=game.id, seat=seat),
        fields={"back": "cards"} if back else {}, button="Free the seat",
        back=url_for("jackpot.rule_cards" if back else "sharing.share", game_id=game.id))


@bp.post("/games/<id:game_id>/seats/<small:seat>/free")
def free_seat(game_id: int, seat: int) -> Response:
    """The scorekeeper frees a seat: no phone is that player's own until one claims it.
    The cards written on that phone stay hidden (and counted) until torn up."""
    if not 0 <= seat < len(get_game_or_404(game_id).players):
        abort(404, description="There is no such seat in this game.")
    db = get_db()
    with writing(db):
        access.free_seat(db, game_id, seat)
    back = ("jackpot.rule_cards" if request.form.get("back") == "cards" else "sharing.share")
    return redirect(url_for(back, game_id=game_id), 303)


#: Each link, as its confirmation names it.
LINK_NAMES = {access.KEEPER: "scorekeeper's link", access.VIEWER: "viewer's link"}


@bp.get("/games/<id:game_id>/share/renew")
@keepers_only
def confirm_renew(game_id: int) -> str:
    """Ask before making a link new: the phones the old one opened are locked out."""
    game = get_game_or_404(game_id)
    role = request.args.get("role")
    if role not in access.ROLES:
        abort(400, description="Choose which link to renew: nothing was changed.")
    name = LINK_NAMES[role]
    locked = ("every phone it opened but this one loses the game" if role == access.KEEPER
              else "every phone it opened loses the game, and the players' own phones "
                   "lose their seats")
    return render_template(
        "confirm.html", title=f"Lock out the {name}?",
        message=f"A new {name} replaces it: the old one opens nothing any more, {locked} "
                "until it scans the new one.",
        action=url_for("sharing.renew", game_id=game.id), fields={"role": role},
        button=f"Lock it out: new {name}", back=url_for("sharing.share", game_id=game.id))


@bp.post("/games/<id:game_id>/share/renew")
def renew(game_id: int) -> Response:
    """New link for a role: the old one stops working, and the phones it opened lose it."""
    role = request.form.get("role")
    if role not in access.ROLES:
        abort(400, description="Choose which link to renew: nothing was changed.")
    db = get_db()
    with writing(db):
        access.renew(db, game_id, role, keep=str(device()))
    return redirect(url_for("sharing.share", game_id=game_id, renewed=role), 303)


@bp.post("/games/<id:game_id>/rematch/follow")
@viewers_may_post
def follow_rematch(game_id: int) -> Response:
    """Go on to this game's rematch, with the role this phone has here (the same table)."""
    db = get_db()
    with writing(db):
        new_id = store.rematch_of(db, game_id)
        if new_id is None:
            abort(404, description="This game has no rematch yet.")
        role = access.role_of(db, device(), game_id).role
        assert role is not None  # (the gate let this phone in)
        access.grant(db, str(device()), new_id, role)
        access.carry_over(db, str(device()), game_id, new_id)  # its seat, as it was
    return redirect(url_for("games.scoreboard", game_id=new_id), 303)


@bp.get("/games/<id:game_id>/forget")
def confirm_forget(game_id: int) -> str:
    """Ask before taking a game off this phone's list."""
    game = get_game_or_404(game_id, allow_deleted=True)
    db = get_db()
    found = access.links(db, game.id)
    assert found is not None
    mine = access.role_of(db, device(), game.id)
    last_keeper = mine.can_change and access.keepers(db, game.id) == 1
    return render_template("forget.html", game=game, last_keeper=last_keeper,
                           link=link_url(found.token(mine.role or access.VIEWER)))


@bp.post("/games/<id:game_id>/forget")
@viewers_may_post
def forget(game_id: int) -> Response:
    """Take the game off this phone's list (its link brings it back)."""
    db = get_db()
    with writing(db):
        access.forget(db, str(device()), game_id)
    return redirect(url_for("games.index", forgot=1), 303)
