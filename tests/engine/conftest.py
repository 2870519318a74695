"""The run's longest test files are handed to the workers first.

The suite runs on two workers that each take a whole file at a time, in the order
collected (``--dist loadfile --no-loadscope-reorder``, pyproject.toml). A file that
takes minutes, collected late, would start near the end and run alone while the other
worker waits; handed out first, it runs beside everything else. Such a file says so
with ``pytestmark = pytest.mark.starts_first``.

The hook orders every item of the run, not only this folder's (pytest calls a
conftest's collection hook with all of them); it lives here beside the file it was
made for, the compiled engine's build and run (test_compiled.py).

It also marks the quick subset, ``pytest -m quick``: a developer's loop, every test but
those that need a browser (tests/browser), the long files that start first (a built wheel,
the compiled engine, the fuzzers) and the benches' smoke test (marked ``bench``). CI runs
the whole suite.
"""

from __future__ import annotations

from pathlib import Path

import pytest

BROWSER = Path(__file__).resolve().parents[1] / "browser"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Files marked ``starts_first`` first (``rank=0`` before the other marked), each
    file's tests and the rest kept in order."""
    def order(item: pytest.Item) -> tuple[bool, int]:
        mark = item.get_closest_marker("starts_first")
        return mark is None, mark.kwargs.get("rank", 1) if mark else 1

    items.sort(key=order)
    for item in items:
        if not (item.get_closest_marker("starts_first") or item.get_closest_marker("bench")
                or BROWSER in Path(str(item.fspath)).parents):
            item.add_marker(pytest.mark.quick)
