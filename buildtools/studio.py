"""What every screenshot script here sets up: the app on a throwaway database, served on a
free port, and Debian's Chromium (as the browser tests find it) making phones of it, at
360x640 and a device scale of 1, so the PNGs stay small.

    with Studio() as studio:
        page = studio.phone("dark").new_page()
"""

from __future__ import annotations

import sys
import tempfile
import threading
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright
from werkzeug.serving import make_server

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from conftest import CHROMIUM_ARGS, system_chromium

from companion import create_app

#: Where the screenshots go.
OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


class Studio:
    """The app served (``app``, at ``base``) and a browser; ``config`` is added to the
    app's (a seeded Jackpot, say)."""

    def __init__(self, **config: Any):
        self.config = config

    def __enter__(self) -> Self:
        self._folder = tempfile.TemporaryDirectory()
        self.app = create_app({"DATABASE": str(Path(self._folder.name) / "shots.sqlite3"),
                               "SECRET_KEY": "shots", **self.config})
        self._server = make_server("127.0.0.1", 0, self.app, threaded=True)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self._server.server_port}"
        self._playwright: Playwright = sync_playwright().start()
        self.browser: Browser = self._playwright.chromium.launch(
            executable_path=system_chromium(), args=CHROMIUM_ARGS)
        return self

    def phone(self, scheme: str = "light", **options: Any) -> BrowserContext:
        """A new phone (a browser context: its own cookies) in ``scheme``."""
        return self.browser.new_context(viewport={"width": 360, "height": 640},
                                        has_touch=True, is_mobile=True, device_scale_factor=1,
                                        base_url=self.base, color_scheme=scheme, **options)

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.browser.close()
        self._playwright.stop()
        self._server.shutdown()
        self._folder.cleanup()
