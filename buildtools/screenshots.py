"""Screenshots of three screens at 360x640, light and dark, for docs/screenshots/.

    .venv/bin/python buildtools/screenshots.py before   # or: after

Each is the whole page (scrolled length included), at a device scale of 1, so the PNGs stay
small: the card picker for one opponent, a Wild Jackpot scoreboard and its rule-card screen,
and the new-game form for four players.
"""

from __future__ import annotations

import sys

from playwright.sync_api import expect
from studio import OUT, Studio  # first: it puts tests/browser on the path

# isort: split
from browser_steps import start_game


def main(label: str) -> None:
    with Studio() as studio:
        for scheme in ("light", "dark"):
            context = studio.phone(scheme)
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


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "after")
