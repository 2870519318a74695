"""Checks on the project itself: pinned static files, the set-up commands, typing."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from companion import HTMX_VERSION

# A long file: handed to a worker first (tests/engine/conftest.py).
pytestmark = pytest.mark.starts_first

ROOT = Path(__file__).resolve().parent.parent
HTMX_SHA256 = "d6fdc75f204e6bdefa99b69bf1e6d4ac69b8a364f77929f45c13476b4000f717"


def test_htmx_is_the_pinned_release():
    path = ROOT / "static" / "vendor" / f"htmx-{HTMX_VERSION}.min.js"
    assert HTMX_VERSION == "2.0.11"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == HTMX_SHA256


def test_readme_gives_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    commands = [c.strip() for c in re.findall(r"```sh\n(.+?)\n\s*```", readme)]
    venv = "python3 -m venv --without-pip .venv && python3 -m pip --python .venv/bin/python"
    assert commands == [
        f"{venv} install -e . && .venv/bin/uno-companion serve",
        f"{venv} install -e '.[test]' && .venv/bin/python -m pytest",
    ]
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[1] in ci


def test_nothing_reads_the_shared_folder():
    # A user's clone has no ../shared: the project carries what it needs in its own words.
    for folder in ("engine", "companion", "templates", "static", "tests", "bench"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".html", ".js", ".json"} and path != Path(__file__):
                assert "shared/rules" not in path.read_text(errors="ignore"), path


def test_engine_and_app_are_strictly_typed():
    # One mypy run for both packages: its start-up is most of the cost.
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "engine", "companion"], check=False,
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_variant_is_named_outside_the_engine():
    # The engine decides, the app asks: a variant's differences are stated in its class,
    # never by comparing its name in the app or its pages.
    names = "|".join(re.escape(v.name) for v in engine.VARIANTS)
    pattern = re.compile(rf"""==\s*["']({names})["']|["']({names})["']\s*==""")
    for folder in ("companion", "templates", "static"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in {".py", ".html", ".js"}:
                assert not pattern.search(path.read_text()), path


@pytest.mark.parametrize("folder", ["engine", "buildtools"])
def test_the_readme_layout_names_every_module(folder):
    # As tests/app/test_app_layout.py does for companion/: the map names every module.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = "\n".join(line for line in readme.splitlines() if line.startswith(f"| `{folder}/"))
    named = set(re.findall(r"`(\w+)`", rows))
    modules = {p.stem for p in (ROOT / folder).rglob("*.py") if p.stem != "__init__"}
    assert modules - named == set()


def test_no_class_name_is_defined_twice():
    # One name, one thing: engine/ and companion/ together (a Table was three classes).
    import ast

    where: dict[str, list[str]] = {}
    for folder in ("engine", "companion"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    where.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
