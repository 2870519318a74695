"""The engine's layout, over every module (engine/phases and engine/referee included):
every module imports; no module reaches into another module's private names (neither
``from x import _y`` nor ``obj._attr`` of an attribute its own module does not define);
and no two modules import each other, however indirectly (a ``TYPE_CHECKING`` import
counts)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ENGINE = Path(__file__).resolve().parents[2] / "engine"


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


def is_private(name: str) -> bool:
    """``_name``, but not ``__dunder__``."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def own_names(tree: ast.Module) -> set[str]:
    """The names a module defines itself: its functions, classes and variables (any
    scope), its classes' slots and attributes, and what its methods assign to ``self``
    or ``cls``. An attribute of one of these names belongs to the module."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
              and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            names.add(node.attr)
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                    names.add(stmt.target.id)
                elif isinstance(stmt, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == "__slots__" for t in stmt.targets):
                    names.update(ast.literal_eval(stmt.value))
    return names


def private_crossings(name: str) -> list[str]:
    """Where module ``name`` uses another module's private names: each as "line: what"."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    own = own_names(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [f"{node.lineno}: imports {alias.name} from {node.module or '.'}"
                      for alias in node.names if is_private(alias.name)]
        elif isinstance(node, ast.Attribute) and is_private(node.attr) and node.attr not in own:
            found.append(f"{node.lineno}: reads .{node.attr}, which {name} does not define")
    return found


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_reaches_into_another_modules_private_names(name: str) -> None:
    assert private_crossings(name) == []


def test_a_private_crossing_is_found(tmp_path: Path) -> None:
    # The check above could pass by never finding anything: it does find both kinds.
    source = "from .results import _P_TURN\n\ndef f(game):\n    return game._hands\n"
    tree = ast.parse(source)
    assert "_hands" not in own_names(tree)
    MODULES["engine._probe"] = tmp_path / "probe.py"
    MODULES["engine._probe"].write_text(source)
    try:
        assert private_crossings("engine._probe") == [
            "1: imports _P_TURN from results", "4: reads ._hands, which engine._probe does not define"]
    finally:
        del MODULES["engine._probe"]


def test_the_engine_imports_form_no_cycle() -> None:
    graph = {name: engine_imports(name) for name in MODULES}
    assert graph["engine.game"] >= {"engine.phases", "engine.results"}  # the walk sees imports
    assert graph["engine.referee.scene"] >= {"engine", "engine.referee.verdict"}  # and packages
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_a_cycle_is_found() -> None:
    # The check above could pass by never finding anything: it does find one.
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
