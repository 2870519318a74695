"""The compiled engine (setup.py, ``UNO_ENGINE_MYPYC=1``) passes the same engine tests.

The wheel is built as a user would build it (``pip wheel`` with the variable set,
in pip's isolated build environment), from a copy of the sources so the checkout
stays clean, and unpacked into a folder. The engine tests then run in a fresh
interpreter started in that folder, where ``engine`` is the compiled copy.

This takes about a minute (mostly the C compiler), so it runs once per suite; it
is skipped only where there is no C compiler to build with.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from test_simulate import load_bench

#: The longest file of the suite: handed to a worker first, it runs beside all the others
#: (tests/engine/conftest.py) instead of alone at the end.
pytestmark = pytest.mark.starts_first(rank=0)  # the longest: first of all

ROOT = Path(__file__).resolve().parents[2]
#: Set in the inner run, so that it does not build again.
INNER = "UNO_COMPILED_ENGINE_TEST"


def setup_constant(name: str) -> Any:
    """A constant assigned at the top of setup.py (which cannot be imported: it builds)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise AssertionError(f"setup.py assigns no {name}")


def compiled_modules() -> list[str]:
    """The modules setup.py compiles, as module names."""
    return [p.removesuffix(".py").replace("/", ".") for p in setup_constant("COMPILED_MODULES")]


def can_compile() -> bool:
    """A C compiler and Python's headers, which mypyc's extensions are built with."""
    command = shlex.split(sysconfig.get_config_var("CC") or "cc")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return bool(command) and shutil.which(command[0]) is not None and headers.exists()


EXT_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")
#: What an earlier build might have left in ./build: it must not reach the wheel.
STALE = "engine/scoring" + EXT_SUFFIX


@pytest.fixture(scope="module")
def compiled_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the unpacked compiled wheel."""
    if os.environ.get(INNER):
        pytest.skip("already inside the compiled run")
    if not can_compile():
        pytest.skip("no C compiler or Python headers: the compiled build cannot be made here")
    work = tmp_path_factory.mktemp("compiled")
    source = work / "src"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis",
        "test-artifacts", "*.so", ".venv"))
    for old_build in ("lib", f"lib.{sysconfig.get_platform()}-{sys.implementation.cache_tag}"):
        stale = source / "build" / old_build / STALE
        stale.parent.mkdir(parents=True)
        stale.write_bytes(b"left over from an earlier build")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--quiet",
         "--wheel-dir", str(work / "wheels")],
        env={**os.environ, "UNO_ENGINE_MYPYC": "1"}, capture_output=True, text=True,
        check=False)
    assert built.returncode == 0, built.stdout + built.stderr
    (wheel,) = (work / "wheels").glob("uno_companion-*.whl")
    site = work / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    return site


def run_in(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # Started in ``site``, the interpreter finds the compiled ``engine`` first (the
    # current folder leads sys.path; an editable install's finder comes after it).
    return subprocess.run([sys.executable, *args], cwd=site, capture_output=True, text=True,
                          env={**os.environ, INNER: "1"}, check=False)


def test_the_wheel_holds_the_listed_modules_compiled_and_nothing_stale(
        compiled_site: Path) -> None:
    modules = compiled_modules()
    assert "engine.game" in modules
    extensions = {p.relative_to(compiled_site).as_posix()
                  for p in compiled_site.rglob("*" + EXT_SUFFIX)}
    assert extensions == {m.replace(".", "/") + EXT_SUFFIX for m in modules} | {
        setup_constant("GROUP") + "__mypyc" + EXT_SUFFIX}
    assert STALE not in extensions and (compiled_site / "engine" / "scoring.py").exists()
    shown = run_in(compiled_site, "-c", "import importlib, sys\n"
                   "for name in sys.argv[1:]: print(importlib.import_module(name).__file__)",
                   *(m.removesuffix(".__init__") for m in modules))
    assert shown.returncode == 0, shown.stderr
    files = shown.stdout.split()
    assert len(files) == len(modules)
    for name, file in zip(modules, files, strict=True):
        # Each module (a package's __init__ too) loads from its own place in the wheel.
        assert Path(file) == compiled_site / (name.replace(".", "/") + EXT_SUFFIX), (name, file)


def test_the_compiled_engine_passes_the_engine_tests(compiled_site: Path) -> None:
    report = compiled_site.parent / "report.xml"
    result = run_in(compiled_site, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                    "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"),
                    str(ROOT / "tests" / "engine"), f"--junitxml={report}")
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]
    cases = {case.get("name"): case for case in ElementTree.parse(report).iter("testcase")}
    assert len(cases) > 1000
    # The run really played the compiled engine: the check below passed inside it.
    check = cases["test_inside_the_compiled_run_the_engine_is_compiled"]
    assert not list(check), ElementTree.tostring(check)


@pytest.mark.skipif(not os.environ.get(INNER), reason="runs inside the compiled run only")
def test_inside_the_compiled_run_the_engine_is_compiled() -> None:
    for name in compiled_modules():
        file = importlib.import_module(name).__file__
        assert file is not None and file.endswith(EXT_SUFFIX)
    assert load_bench().engine_build()[0] == "compiled with mypyc"


def test_the_compiled_wheel_serves_every_page(compiled_site: Path) -> None:
    # The compiled build installs the whole app, not only a faster engine.
    spec = importlib.util.spec_from_file_location("test_install", ROOT / "tests" / "test_install.py")
    assert spec is not None and spec.loader is not None
    install = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(install)
    assert "every page served from" in install.serves_every_page(compiled_site)
