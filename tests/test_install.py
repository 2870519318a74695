"""Every install works: a plain wheel serves every page, as an editable install does.

The wheel is built as a user would (``pip wheel``, in pip's isolated build environment)
from a copy of the sources, unpacked into a folder, and a fresh interpreter started
there (where the folder leads sys.path, ahead of any editable install) builds the app
and fetches every page. ``tests/engine/test_compiled.py`` runs the same check on the
compiled wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

# A long file: handed to a worker first (tests/engine/conftest.py).
pytestmark = pytest.mark.starts_first

ROOT = Path(__file__).resolve().parent.parent

#: Run inside the unpacked wheel: start the app on a fresh database, play a hand through
#: the forms, and fetch every page; print where the templates came from.
SERVE_EVERY_PAGE = r"""
import re, sys, tempfile
from pathlib import Path
import companion
from companion import create_app

site = Path(sys.argv[1]).resolve()
assert Path(companion.__file__).resolve().is_relative_to(site), companion.__file__
app = create_app({"DATABASE": tempfile.mkdtemp() + "/wheel.sqlite3", "SECRET_KEY": "wheel"})
assert Path(app.template_folder).resolve().is_relative_to(site), app.template_folder
assert Path(app.static_folder).resolve().is_relative_to(site), app.static_folder
client = app.test_client()

def ok(response):
    assert response.status_code in (200, 303), (response.request.path, response.status_code)
    return response.get_data(as_text=True)

home = ok(client.get("/"))
token = re.search(r'"X-CSRF-Token": "([^"]+)"', home).group(1)
form = ok(client.get("/games/new"))
submission = re.search(r'name="submission" value="([^"]+)"', form).group(1)
made = client.post("/games", data={"csrf_token": token, "submission": submission,
                                   "variant": "classic", "player": ["Ann", "Bob"],
                                   "wild_swap": "1"})
game = made.headers["Location"]
picker = ok(client.get(game + "/hands/new?out=0"))
fields = dict(re.findall(r'name="(entry|version)" value="([^"]+)"', picker))
review = ok(client.post(game + "/hands/review", data={
    "csrf_token": token, "out": "0", "pts-1": "12", "hand_id": "0", **fields}))
ok(client.post(game + "/hands", data={"csrf_token": token, "out": "0", "pts-1": "12",
                                      **fields}))
jackpot = client.post("/games", data={"csrf_token": token, "submission": submission + "j",
                                      "variant": "wild-jackpot", "player": ["Ann", "Bob"]})
lever = jackpot.headers["Location"] + "/jackpot"
ok(client.post(lever + "/spins", data={"csrf_token": token, "puller": "0", "submission": "w"}))
for page in ("/", "/games/new", game, game + "/hands", game + "/hands/new",
             game + "/hands/new?out=1", game + "/delete", game + "/hands/1/edit",
             "/referee", "/referee/challenge", "/rules/classic", "/jackpot?players=Ann,Bob",
             lever, lever + "/spins/1", lever + "/cards", lever + "/cards/0", lever + "/history",
             "/static/app.css", "/static/app.js",
             "/static/vendor/htmx-" + companion.HTMX_VERSION + ".min.js"):
    ok(client.get(page))
print("every page served from", app.template_folder)
"""


def build_wheel(work: Path, env: dict[str, str] | None = None) -> Path:
    """Build a wheel from a copy of the sources; return the folder it is unpacked in."""
    source = work / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis",
        "test-artifacts", "*.so", ".venv"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--quiet",
         "--wheel-dir", str(work / "wheels")],
        env={**os.environ, **(env or {})}, capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (work / "wheels").glob("uno_companion-*.whl")
    site = work / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def serves_every_page(site: Path) -> str:
    """Run the page check in a fresh interpreter started in the unpacked wheel."""
    result = subprocess.run([sys.executable, "-c", SERVE_EVERY_PAGE, str(site)], cwd=site,
                            capture_output=True, text=True, check=False,
                            env={**os.environ, "UNO_COMPANION_HOME": str(site.parent / "home")})
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def wheel_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plain wheel (no compiled engine), unpacked."""
    return build_wheel(tmp_path_factory.mktemp("wheel"))


def test_the_wheel_carries_the_templates_and_static_files(wheel_site: Path) -> None:
    packaged = {p.relative_to(wheel_site / "companion").as_posix()
                for p in (wheel_site / "companion").rglob("*") if p.is_file()}
    for folder in ("templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file():
                assert path.relative_to(ROOT).as_posix() in packaged, path


def test_the_wheel_serves_every_page(wheel_site: Path) -> None:
    assert "every page served from" in serves_every_page(wheel_site)
