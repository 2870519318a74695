"""Every benchmark in bench/ runs with its defaults and leaves nothing behind.

Each script is run as a user runs it (``python bench/<name>.py``, no arguments), with
``UNO_BENCH_SMOKE=1``: the bench then measures everything its defaults name (every size,
variant, page, request and phase) but each only once or for a second, so the suite stays
quick (bench/README.md, "Smoke test"). Its temporary databases go under this test's own
TMPDIR, which must be empty afterwards. A bench's figures are never asserted here: they
are the machine's, not the code's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

# The longest file of the run after the compiled build: handed to a worker first.
pytestmark = [pytest.mark.starts_first, pytest.mark.bench]

ROOT = Path(__file__).resolve().parent.parent
BENCHES = sorted(p.name for p in (ROOT / "bench").glob("*.py"))


def test_every_bench_script_is_here():
    assert BENCHES == ["app.py", "bounds.py", "engine.py", "first_load.py", "load.py", "slow3g.py", "write.py"]


@pytest.mark.parametrize("script", BENCHES)
def test_a_bench_runs_with_its_defaults_and_cleans_up(script):
    # A short TMPDIR of its own: Chromium's socket path must fit in 108 bytes.
    scratch = Path(tempfile.mkdtemp(prefix="bench-smoke-"))
    try:
        env = {**os.environ, "UNO_BENCH_SMOKE": "1", "TMPDIR": str(scratch)}
        before = shm_folders()
        result = subprocess.run([sys.executable, f"bench/{script}"], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=300, check=False)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
        assert result.stdout.strip()
        assert list(scratch.iterdir()) == []
        assert shm_folders() - before == set()  # nor in memory, where TMPDIR does not reach
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def shm_folders() -> set[str]:
    """The temporary folders in /dev/shm a bench could leave (tempfile's names)."""
    shm = Path("/dev/shm")
    return {p.name for p in shm.glob("tmp*")} | {p.name for p in shm.glob("uno-bench-*")}
