"""Browser tests: a live app on a free local port, driven by Playwright in headless Chromium.

The browser is found or installed by the test run itself: a system Chromium
first (Debian's ``chromium`` package, installed with apt-get when we are root on
a Debian-like machine), else Playwright's own download (``playwright install``).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
from browser_steps import phone_context, phone_page
from werkzeug.serving import make_server

from companion import create_app

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]
SYSTEM_CHROMIUMS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def system_chromium() -> str | None:
    """A Chromium already on this machine, if any."""
    for name in SYSTEM_CHROMIUMS:
        path = shutil.which(name)
        if path:
            return path
    return None


def install_chromium() -> str | None:
    """Install a browser; return its path, or None when Playwright's own build is used.

    The test workers run side by side: one installs while the others wait for it.
    """
    with open(Path(tempfile.gettempdir()) / "uno-companion-chromium.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return system_chromium() or _install_chromium()


def _install_chromium() -> str | None:
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env)
        found = system_chromium()
        if found:
            return found
    subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"], check=True)
    return None


@pytest.fixture(scope="session")
def browser():
    """One headless Chromium for the whole run."""
    from playwright.sync_api import sync_playwright

    executable = system_chromium() or install_chromium()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture()
def app_config() -> dict[str, Any]:
    """Settings added to the live app's: none here. A test module overrides this fixture
    to give its app more (the Wild Jackpot's tests seed the lever's generator)."""
    return {}


@pytest.fixture(scope="session")
def compiled_templates(tmp_path_factory: pytest.TempPathFactory) -> jinja2.BytecodeCache:
    """The templates compiled once per worker, not again for every test's new app."""
    return jinja2.FileSystemBytecodeCache(str(tmp_path_factory.mktemp("templates")))


@pytest.fixture()
def live_app(tmp_path: Path, app_config: dict[str, Any],
             compiled_templates: jinja2.BytecodeCache):
    """The app on a fresh database, served on a free port of 127.0.0.1."""
    app = create_app({"DATABASE": str(tmp_path / "browser.sqlite3"), "SECRET_KEY": "browser-tests",
                      **app_config})
    app.jinja_env.bytecode_cache = compiled_templates
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # Polled for shutdown every 20 ms, not every 0.5 s: each test's teardown waited for it.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02},
                              daemon=True)
    thread.start()
    app.config["BASE_URL"] = f"http://127.0.0.1:{server.server_port}"
    yield app
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture()
def base_url(live_app) -> str:
    """Root URL of the live app."""
    return str(live_app.config["BASE_URL"])


@pytest.fixture()
def page(browser, base_url) -> Iterator:
    """A phone-sized page (360x640, touch) on the live app."""
    yield from phone_page(browser, base_url, "the page")


@pytest.fixture()
def other_phone(browser, base_url) -> Iterator:
    """A second phone at the table: a browser of its own (share links let it in)."""
    yield from phone_page(browser, base_url, "the other phone")


@pytest.fixture()
def third_phone(browser, base_url) -> Iterator:
    """A third phone at the table."""
    yield from phone_page(browser, base_url, "the third phone")


@pytest.fixture()
def page_without_js(browser, base_url) -> Iterator:
    """The same phone, with JavaScript turned off."""
    context = phone_context(browser, base_url=base_url, java_script_enabled=False)
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


def pytest_collection_modifyitems(items):
    """Everything in this folder drives a real browser."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)
