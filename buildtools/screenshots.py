"""Screenshots of three screens at 360x640, light and dark, for docs/screenshots/.

    .venv/bin/python buildtools/screenshots.py before   # or: after

Each is the whole page (scrolled length included), at a device scale of 1, so the PNGs stay
small: the card picker for one opponent, a Wild Jackpot scoreboard and its rule-card screen,
and the new-game form for four players.
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import expect, sync_playwright
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from browser_steps import start_game
from conftest import CHROMIUM_ARGS, system_chromium

from companion import create_app

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


def main(label: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATABASE": str(Path(tmp) / "shots.sqlite3"), "SECRET_KEY": "shots"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=system_chromium(), args=CHROMIUM_ARGS)
            for scheme in ("light", "dark"):
                context = browser.new_context(viewport={"width": 360, "height": 640},
                                              has_touch=True, is_mobile=True,
                                              device_scale_factor=1, base_url=base,
                                              color_scheme=scheme)
                page = context.new_page()

                def shot(name: str, page=page, scheme=scheme) -> None:
                    page.wait_for_load_state()
                    page.screenshot(path=OUT / f"{name}-{scheme}-{label}.png", full_page=True)

                page.goto("/games/new")
                for i in range(4):
                    box = page.get_by_label(f"Player {i + 1}", exact=True)
                    if not box.is_visible():
                        page.get_by_role("button", name="Add a player").click()
                    box.fill(["Ana", "Ben", "Cy", "Dee"][i])
                shot("new-game")
                start_game(page, "classic", ["Ana", "Ben", "Cy", "Dee"])
                page.get_by_role("link", name="Record hand 1").click()
                page.get_by_role("button", name="Ana", exact=True).click()
                expect(page.locator(".grid-slot .cell").first).to_be_visible()
                for card in ("wild-draw4", "red-7", "red-7"):
                    page.locator(f"#seat-1 .cell[data-card='{card}']").tap()
                expect(page.locator("#pts-1")).to_have_text("64")
                shot("picker")
                start_game(page, "wild-jackpot", ["Ana", "Ben", "Cy"])
                shot("jackpot-scoreboard")
                page.goto(page.url.split("?")[0] + "/jackpot/cards/0")
                shot("rule-cards")
                context.close()
            browser.close()
        server.shutdown()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "after")
