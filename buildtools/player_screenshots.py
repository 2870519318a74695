"""Screenshots of a Wild Jackpot scoreboard on a player's own phone, at 360x640, light and
dark, for docs/screenshots/ (issue 26):

    .venv/bin/python buildtools/player_screenshots.py before   # or: after

Ana's phone starts a game for Ana, Ben, Cleo and Dev and writes the rule cards; Cleo's
phone opens the viewer's link and takes her seat; Ben pulls the lever, which deals Cleo a
card. Cleo's phone, on the scoreboard, is shot (the first screen, as a phone shows it).
"""

from __future__ import annotations

import random
import sys
from typing import Any

from playwright.sync_api import expect
from studio import OUT, Studio  # first: it puts tests/browser on the path

# isort: split
from browser_steps import share_link, start_game, wait_for_htmx

from engine import LeverOutcome
from engine.jackpot import LEVER_OUTCOMES

NAMES = ["Ana", "Ben", "Cleo", "Dev"]


class Left(random.Random):
    """Every pull stops on "the player on your left"."""

    def __init__(self) -> None:
        super().__init__(7)

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        return LEVER_OUTCOMES.index(LeverOutcome.LEFT)


def main(label: str) -> None:
    with Studio(JACKPOT_RANDOM=Left()) as studio:
        base = studio.base
        for scheme in ("light", "dark"):
            phones = [studio.phone(scheme, reduced_motion="reduce") for _ in range(2)]
            ana, cleo = (p.new_page() for p in phones)
            start_game(ana, "wild-jackpot", NAMES)
            game = ana.url.split("?")[0].removeprefix(base)
            cleo.goto(share_link(ana, game))
            cleo.get_by_role("button", name="Cleo", exact=True).tap()
            cleo.wait_for_load_state()
            yes = ana.get_by_role("button", name="Yes, Cleo's")
            if label != "before":  # the phone passed round says yes (issue 26)
                yes.tap()
                expect(yes).to_have_count(0)
            for seat in (0, 1, 3):
                ana.goto(f"{game}/jackpot/cards/{seat}")
                for k, box in enumerate(ana.locator(".rule-text").all()):
                    box.fill(f"{NAMES[seat]}'s rule number {k + 1}.")
                ana.locator("form.card-writer button[type=submit]").click()
                ana.wait_for_load_state()
            cleo.goto(f"{game}/jackpot/cards/2")
            for k, box in enumerate(cleo.locator(".rule-text").all()):
                box.fill(f"Cleo's secret rule number {k + 1}.")
            cleo.get_by_role("button", name="Save my cards").click()
            cleo.goto(game)
            wait_for_htmx(cleo)
            ana.goto(game)
            ana.locator("#jackpot").get_by_role("button", name="Ben pulls").tap()
            expect(ana.locator("#spin-outcome")).to_contain_text("Cleo")
            cleo.wait_for_timeout(3000)  # a live poll or two
            cleo.screenshot(path=OUT / f"jackpot-player-{scheme}-{label}.png")
            for p in phones:
                p.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "after")
