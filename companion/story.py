"""The table's story: a game's score grid and race chart (live, like the scoreboard), its
result to share (text, and a picture), and the records of this phone's games.

The race is an SVG drawn here, on the server: no script is needed to see it, and its
colours come from classes the stylesheet sets for light and dark (docs/decisions.md,
"The race: an SVG of our own"). Every figure is the engine's: the app never adds points.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import Blueprint, current_app, render_template, request
from markupsafe import Markup
from werkzeug.wrappers import Response

import engine

from . import live, store
from .db import get_db
from .errors import row_id
from .gate import device, get_game_or_404

bp = Blueprint("story", __name__)
T = TypeVar("T")
_KEPT = threading.Lock()

#: The chart's drawing box (SVG units; it scales to the screen's width).
WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 34, 88, 20, 26
#: Markers and line dashes, so that each line is told apart without its colour; the
#: colours (Okabe and Ito's, safe for colour-blind eyes) are the stylesheet's, per class.
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "circle", "square", "triangle",
           "diamond", "cross")
DASHES = ("", "", "", "", "", "6 3", "6 3", "6 3", "6 3", "6 3")
#: Light-mode colours written on the picture itself (the shared SVG has no stylesheet).
COLOURS = ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#56b4e9", "#e69f00", "#000000",
           "#8c6d00", "#5e3c99", "#b2182b")
#: A race of at most this many hands has a marker on every point; a longer one at its end.
MARKED_HANDS = 20
#: End labels this far apart at least (SVG units), so close totals stay readable.
LABEL_GAP = 13


#: A marker's shape at (x, y), as SVG (the class gives its colour in the page).
SHAPES = {
    "circle": '<circle cx="{x}" cy="{y}" r="4"',
    "square": '<rect x="{x0}" y="{y0}" width="7" height="7"',
    "triangle": '<polygon points="{x},{top} {right},{low} {left},{low}"',
    "diamond": '<polygon points="{x},{top} {right5},{y} {x},{bottom} {left5},{y}"',
    "cross": '<path d="M{l4} {t4}L{r4} {b4}M{l4} {b4}L{r4} {t4}" stroke-width="2.5" fill="none"',
}


def _marker(kind: str, x: float, y: float, seat: int, colour: str) -> str:
    """One marker, its colour an attribute (the picture's) that the page's class overrides."""
    shape = SHAPES[kind].format(
        x=x, y=y, x0=round(x - 3.5, 1), y0=round(y - 3.5, 1), top=round(y - 5, 1),
        low=round(y + 3.5, 1), left=round(x - 4.5, 1), right=round(x + 4.5, 1),
        left5=round(x - 5, 1), right5=round(x + 5, 1), bottom=round(y + 5, 1),
        l4=round(x - 4, 1), r4=round(x + 4, 1), t4=round(y - 4, 1), b4=round(y + 4, 1))
    paint = f'stroke="{colour}"' if kind == "cross" else f'fill="{colour}"'
    cross = " cross" if kind == "cross" else ""
    return f'{shape} class="mark{cross} series-{seat}" {paint}/>'


@dataclass(frozen=True)
class Line:
    """One player's line: its points, the end label and how it is told apart."""

    seat: int
    name: str
    totals: list[int]
    points: str
    end: tuple[float, float]
    label_y: float
    dash: str
    colour: str
    #: Its markers (SVG): on every point of a short race, at the end of a long one.
    marks: Markup


@dataclass(frozen=True)
class Chart:
    """The race, laid out: lines, the target line, the axes' ticks."""

    lines: list[Line]
    target_y: float | None
    target: int | None
    y_ticks: list[tuple[float, int]]
    x_ticks: list[tuple[float, int]]
    hands: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = RIGHT
    top: int = TOP
    bottom: int = BOTTOM


def _ticks(top: int, count: int = 4) -> list[int]:
    """Round values from 0 to about ``top``."""
    step = max(1, top // count)
    magnitude = 10 ** (len(str(step)) - 1)
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= step)
    return list(range(0, top + 1, step))


def race_chart(told: store.stats.Story, players: tuple[str, ...],
               target: int | None) -> Chart:
    """Each player's running total after every hand, scaled into the drawing box."""
    hands = len(told.hands)
    series = [told.series(seat) for seat in range(len(players))]
    top = max([target or 0, 1] + [max(s) for s in series])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(hand: int) -> float:
        return round(LEFT + plot_w * hand / max(hands, 1), 1)

    def y(value: int) -> float:
        return round(TOP + plot_h * (1 - value / top), 1)

    ends = sorted(range(len(players)), key=lambda seat: y(series[seat][-1]))
    label_y: dict[int, float] = {}
    for seat in ends:  # pushed down past the label above, then kept inside the box
        label_y[seat] = max(y(series[seat][-1]), max(label_y.values(), default=-99) + LABEL_GAP)
    overflow = max(label_y.values(), default=0) - (HEIGHT - BOTTOM)
    if overflow > 0:
        label_y = {s: v - overflow for s, v in label_y.items()}
    lines = []
    for seat, name in enumerate(players):
        kind, colour = MARKERS[seat % len(MARKERS)], COLOURS[seat % len(COLOURS)]
        points = [(x(i), y(v)) for i, v in enumerate(series[seat])]
        marked = points if hands <= MARKED_HANDS else points[-1:]
        lines.append(Line(seat, name, series[seat], " ".join(f"{a},{b}" for a, b in points),
                          points[-1], round(label_y[seat] + 4, 1), DASHES[seat % len(DASHES)],
                          colour, Markup("".join(_marker(kind, a, b, seat, colour)
                                                 for a, b in marked))))
    step = max(1, -(-hands // 8))
    # Hands numbered as the table counts them: a later page of a long game starts on one.
    return Chart(lines, y(target) if target else None, target,
                 [(y(v), v) for v in _ticks(top)],
                 [(x(h), told.first - 1 + h) for h in range(0, hands + 1, step)], hands)


#: Pages of the grid one process keeps drawn (each for one version of its game).
CACHED_STORIES = 64


def _story(game_id: int, page: int | None
           ) -> tuple[store.GameRecord, store.stats.Story, Chart, list[Markup]]:
    """The game, a page of its hands (the last unless asked), the race and the grid's
    cells: kept per version of the game, as the games are (every change bumps it), so the
    phones following a game draw each change once."""
    game = get_game_or_404(game_id)
    pages = max(1, -(-game.hand_count // store.stats.GRID_HANDS))
    key = (game.id, game.version, min(page or pages, pages))
    kept: OrderedDict[tuple[int, int, int], Any] = current_app.extensions.setdefault(
        "uno_stories", OrderedDict())
    with _KEPT:
        found = kept.get(key)
        if found is not None:
            kept.move_to_end(key)
            return game, *found
    told = store.stats.story(get_db(), game, key[2])
    found = (told, race_chart(told, game.players, game.target), _cells(game, told))
    with _KEPT:
        kept[key] = found
        while len(kept) > CACHED_STORIES:
            kept.popitem(last=False)
    return game, *found


def _cells(game: store.GameRecord, told: store.stats.Story) -> list[Markup]:
    """Each hand's row of cells: a player's points that hand and the total under them, who
    went out (★) and who dealt (◆) marked, a player knocked out said so, then "out".

    Built here, not in the template: a page of the grid is hands x players cells, and
    only numbers go in them (the names are in the header, escaped there)."""
    out_at = dict(game.standings.out_at)
    plus = not game.mode.charges_holder  # scored points read +N; charged ones N (+0 none)
    rows = []
    for hand, score in told.hands:
        cells = []
        for seat in range(len(game.players)):
            if out_at.get(seat, hand.number) < hand.number:
                cells.append('<td class="gone"><span class="muted">out</span></td>')
                continue
            marks = ('<span aria-label="went out">★</span> ' if seat == hand.went_out else "")
            marks += ('<span aria-label="dealt">◆</span> '
                      if told.dealers.get(hand.number) == seat else "")
            points = score.points.get(seat)
            shown = "–" if points is None else f"{'+' if points or plus else ''}{points}"
            knocked = ('<span class="small eliminated">out of the game</span>'
                       if seat in score.eliminated else "")
            opened = '<td class="out">' if seat == hand.went_out else "<td>"
            cells.append(f'{opened}'
                         f'<span class="pts">{marks}{shown}</span>'
                         f' <span class="total">{score.totals[seat]}</span>{knocked}</td>')
        rows.append(Markup("".join(cells)))
    return rows


def _together(game: store.GameRecord, seats: tuple[int, ...]) -> str:
    """Players' names as plain text ("Ann & Cy"): for a message or a picture, where the
    template escapes them."""
    return " & ".join(game.players[s] for s in seats)


@bp.get("/games/<id:game_id>/story")
@live.page
def grid(game_id: int) -> str:
    """The race chart and the score grid (the last GRID_HANDS hands, or an earlier page);
    once the game is over, its result to share."""
    game, told, chart, cells = _story(game_id, row_id(request.args.get("page")))
    st = game.standings
    return render_template(
        "story.html", game=game, told=told, chart=chart, st=st, cells=cells,
        biggest=store.stats.biggest_hand(get_db(), game.id) if game.finished else None,
        winners=_together(game, st.winners),
        teams=[_together(game, st.team_of(s)) if st.teams else ""
               for s in range(len(game.players))])


@bp.get("/games/<id:game_id>/result.svg")
def picture(game_id: int) -> Response:
    """The race as a picture to send (standalone SVG: its own colours, no stylesheet)."""
    game, _, chart, _ = _story(game_id, None)
    body = render_template("_race.svg", game=game, chart=chart, standalone=True,
                           standings=game.standings,
                           winners=_together(game, game.standings.winners))
    response = Response(body, mimetype="image/svg+xml")
    response.headers["Content-Disposition"] = f'inline; filename="uno-game-{game.id}.svg"'
    return response


@bp.get("/records")
def records() -> str:
    """This phone's records: per player (over all its games, or one variant's), the
    table's records, two players head to head, the Jackpot's outcomes."""
    db, mine = get_db(), device()
    stats = store.stats

    def kept(key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        return stats.remembered(db, mine, key, compute)

    variants = [engine.find_variant(v)
                for v in kept(("variants",), lambda: stats.variants_played(db, mine))]
    chosen = next((v for v in variants if v.name == request.args.get("variant")), None)
    first, second = (request.args.get(k, "")[:200] for k in ("first", "second"))
    variant = chosen.name if chosen else None
    return render_template(
        "records.html", variants=variants, chosen=chosen,
        players=kept(("players", variant), lambda: stats.player_records(db, mine, variant)),
        table=kept(("table",), lambda: stats.table_records(db, mine)),
        regulars=kept(("regulars",), lambda: stats.regulars(db, mine)),
        first=first, second=second,
        versus=kept(("versus", first, second),
                    lambda: stats.head_to_head(db, mine, first, second))
        if first and second else None,
        jackpot=kept(("lever outcomes",), lambda: stats.jackpot_outcomes(db, mine)),
        outcomes=list(engine.LeverOutcome),
        variant_title={v.name: v.title for v in engine.VARIANTS},
    )
