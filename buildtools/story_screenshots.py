"""Screenshots of the table's story at 360x640, light and dark, for docs/screenshots/:

    .venv/bin/python buildtools/story_screenshots.py

the score grid and the race of a game of 20 hands with 2 players and with 10 (the first
screen, and the whole page), a finished game's result, and the records page.
"""

from __future__ import annotations

from studio import OUT, Studio  # first: it puts tests/browser on the path

# isort: split
from browser_steps import start_game
from story_steps import phone_key, seeded_game

from engine import ScoringMode


def main() -> None:
    with Studio() as studio:
        app = studio.app
        page = studio.phone().new_page()
        start_game(page, "classic", ["Ana", "Ben"], target="500")
        device = phone_key(app)
        games = {"2-players": seeded_game(app, device, 2, 20, game_id=1, seed=3),
                 "10-players": seeded_game(app, device, 10, 20, seed=1)}
        finished = seeded_game(app, device, 4, 60, target=300, seed=5)
        seeded_game(app, device, 3, 60, target=200, seed=7,
                    mode=ScoringMode.LOWEST_WINS)
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            for name, game in games.items():
                page.goto(f"/games/{game}/story")
                page.locator("#race-heading").scroll_into_view_if_needed()
                page.screenshot(path=OUT / f"story-race-{name}-{scheme}.png")
                page.locator("#grid-heading").evaluate("el => el.scrollIntoView()")
                page.screenshot(path=OUT / f"story-grid-{name}-{scheme}.png")
            page.goto(f"/games/{finished}/story")
            page.screenshot(path=OUT / f"story-result-{scheme}.png")
            page.goto("/records")
            page.screenshot(path=OUT / f"records-{scheme}.png", full_page=True)


if __name__ == "__main__":
    main()
