"""A phone's first load on Fast 3G: how long each page takes to be drawn, cold and warm.

The app is served on a free local port (Werkzeug, as the browser tests serve it), a phone
(headless Chromium at 360x640, through Playwright) starts a classic game, and each page is
loaded on Fast 3G as Chrome's DevTools define it (150 ms latency, 1.6 Mbps down): twice by
a phone with an empty cache (cold), then three times again (warm: the stylesheet and app.js
from the phone's cache). It prints, per page, the best of the tries: ms to the load event,
to the first paint and to htmx arrived, against the goals (cold within 500 ms, warm within
250 ms). tests/browser/test_second_look.py checks what does not depend on the machine's
speed (compressed, inline, one round trip); the times are only printed here, since the
machine's other work adds to them.

    python bench/first_load.py

Needs a Chromium: the system's (Debian's ``chromium``) or Playwright's own
(``python -m playwright install chromium``).
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The browser tests' steps (starting a game, the loads), so the bench loads what they check.
# Run as a script, this folder must not shadow the engine package.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from browser_steps import a_game_and_its_keeper, first_loads
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from companion import create_app

COLD_MS, WARM_MS = 500, 250
SMOKE = os.environ.get("UNO_BENCH_SMOKE") == "1"
CHROMIUMS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def main() -> None:
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    with tempfile.TemporaryDirectory(prefix="uno-bench-") as folder:
        app = create_app({"DATABASE": str(Path(folder) / "bench.sqlite3"),
                          "SECRET_KEY": "bench"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                                  daemon=True)
        thread.start()
        base_url = f"http://127.0.0.1:{server.server_port}"
        executable = next(filter(None, map(shutil.which, CHROMIUMS)), None)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=executable, headless=True,
                                             args=["--no-sandbox", "--disable-gpu"])
                game, storage = a_game_and_its_keeper(browser, base_url)
                pages = ["/", "/rules/classic", "/games/new", game, f"{game}/hands/new?out=0"]
                # UNO_BENCH_SMOKE=1 (tests/test_bench.py): one try of each, to see it run.
                tries = {"phones": 1, "warm_tries": 1} if SMOKE else {}
                found = first_loads(browser, base_url, pages, storage, **tries)
                browser.close()
        finally:
            server.shutdown()
            thread.join(timeout=5)
    print(f"Fast 3G, best of the tries, ms (goals: cold within {COLD_MS}, warm within "
          f"{WARM_MS})")
    print(f"{'page':32} {'cold':>6} {'paint':>6} {'htmx':>6} {'warm':>6}")
    for path, load in found.items():
        print(f"{path:32} {load['cold']:6} {load['cold paint']:6} {load['cold htmx']:6} "
              f"{load['warm']:6}")
    worst_cold = max(load["cold"] for load in found.values())
    worst_warm = max(load["warm"] for load in found.values())
    print(f"slowest: cold {worst_cold} ms (goal {COLD_MS}), warm {worst_warm} ms (goal {WARM_MS})")


if __name__ == "__main__":
    main()
