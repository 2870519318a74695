"""Screenshots of the table's story at 360x640, light and dark, for docs/screenshots/:

    .venv/bin/python buildtools/story_screenshots.py

the score grid and the race of a game of 20 hands with 2 players and with 10 (the first
screen, and the whole page), a finished game's result, and the records page.
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from browser_steps import start_game
from conftest import CHROMIUM_ARGS, system_chromium
from story_steps import phone_key, seeded_game

from companion import create_app
from engine import ScoringMode

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "shots.sqlite3"), "SECRET_KEY": "shots"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=system_chromium(), args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 360, "height": 640},
                                          has_touch=True, is_mobile=True,
                                          device_scale_factor=1, base_url=base)
            page = context.new_page()
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
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main()
