"""Sharing a game with the other phones at the table: its links and their QR codes,
joining by a link, a player's own phone choosing its seat, renewing a link, and
forgetting a game on this phone."""

from __future__ import annotations

import ipaddress
import re
from functools import lru_cache

import segno
from flask import Blueprint, abort, redirect, render_template, request, url_for
from markupsafe import Markup
from werkzeug.wrappers import Response

from . import store
from .db import get_db, writing
from .errors import host_name
from .forms import parse_seat
from .gate import current_access, device, get_game_or_404, keepers_only, viewers_may_post
from .labels import bdi
from .store import access, get_cache

bp = Blueprint("sharing", __name__)

#: What a link that opens nothing is told (a typo, or a link renewed since).
OLD_LINK = ("This link opens no game: it was mistyped, or the scorekeeper made new links "
            "since. Ask for the game's link (or QR code) again.")


@bp.get("/join/<token>")
def join(token: str) -> Response:
    """Open a share link: this phone gets its role for the game, then the scoreboard."""
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
        return redirect(url_for("sharing.seat", game_id=game_id), 303)
    return redirect(_within(scoreboard, wanted), 303)


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
    """"Which player are you?": a viewer's phone becomes one player's own phone, once
    (the scorekeeper can free the seat again). Only where the game has rule cards to
    keep private; the scorekeeper's phone is the shared one, nobody's own."""
    game = get_game_or_404(game_id)
    if not game.variant.rule_cards:
        abort(404, description=f"{game.variant.title} has no rule cards: no seat to choose.")
    if request.method == "GET":
        return _seat_page(game)
    chosen = parse_seat(request.form.get("seat"), len(game.players))
    if chosen is None:
        return _seat_page(game, "Choose which player you are."), 400
    db = get_db()
    with writing(db):
        mine = access.role_of(db, device(), game_id)  # read again, inside the transaction
        taken = access.seat_phones(db, game_id).get(chosen)
        name = game.players[chosen]
        if mine.can_change:
            refused, status = ("This is a scorekeeper's phone: it is passed round the table, "
                               "so it cannot be one player's own. Nothing was changed."), 403
        elif mine.seat is not None and mine.seat != chosen:
            refused, status = (f"This phone is already {game.players[mine.seat]}'s. Ask the "
                               "scorekeeper to free that seat first. Nothing was changed."), 409
        elif taken is not None and taken != device():
            refused, status = (f"{name} is already chosen on another phone. If that is wrong, "
                               f"ask the scorekeeper to free {name}'s seat."), 409
        else:
            refused, status = None, 303
            access.set_seat(db, str(device()), game_id, chosen)
    if refused:
        return _seat_page(game, refused), status
    return redirect(url_for("games.scoreboard", game_id=game_id), 303)


def _seat_page(game: store.GameRecord, refused: str | None = None) -> str:
    return render_template("seat.html", game=game, refused=refused, mine=current_access(),
                           claimed=access.seat_phones(get_db(), game.id))


@bp.get("/games/<id:game_id>/seats/<int:seat>/free")
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


@bp.post("/games/<id:game_id>/seats/<int:seat>/free")
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
