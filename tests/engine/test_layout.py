"""The engine's layout: every module imports, none is too long to read, and no two
modules import each other, however indirectly (a ``TYPE_CHECKING`` import counts)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"
#: Longer than this, a module holds more than one part of the rules: split it.
MAX_LINES = 800


def module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: Every module of the engine, its packages' modules (engine/referee/...) included.
MODULES = {module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}


def engine_imports(name: str) -> set[str]:
    """The engine modules that module ``name`` imports, anywhere in its source."""
    path = MODULES[name]
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(parts + [node.module] if node.module else parts)
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)  # `from . import x`
    return {m for m in found if m in MODULES and m != name}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a list of modules (the first repeated last), if any."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        if node in path:
            return path[path.index(node):] + [node]
        if node in done:
            return None
        path.append(node)
        for after in sorted(graph[node]):
            cycle = visit(after)
            if cycle:
                return cycle
        path.pop()
        done.add(node)
        return None

    for node in sorted(graph):
        cycle = visit(node)
        if cycle:
            return cycle
    return None


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_engine_module_imports(name: str) -> None:
    importlib.import_module(name)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_engine_module_is_too_long(name: str) -> None:
    lines = len(MODULES[name].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{name} has {lines} lines: split it along its seams"


def test_the_engine_imports_form_no_cycle() -> None:
    graph = {name: engine_imports(name) for name in MODULES}
    assert graph["engine.game"] >= {"engine.phases", "engine.state"}  # the walk sees imports
    assert graph["engine.referee.scene"] >= {"engine", "engine.referee.verdict"}  # and packages
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_a_cycle_is_found() -> None:
    # The check above could pass by never finding anything: it does find one.
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
