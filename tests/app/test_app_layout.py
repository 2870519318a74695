"""The app's layout keeps its rules (README, "Project layout"), read from the source itself:
no import cycle, SQL only in the store, no view importing a view, no private name used
across modules."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "companion"

#: The views: the modules that each define a blueprint. Only the app factory imports them.
VIEWS = {"companion.games", "companion.story", "companion.hands", "companion.jackpot", "companion.referee",
         "companion.rules", "companion.sharing"}

#: Where SQL may be written: the store, the connections and the schema's migrations.
SQL_HOMES = ("companion.store", "companion.db", "companion.schema")

#: A string that is SQL: a statement's opening words.
SQL = re.compile(
    r"^\s*(select\s.+\sfrom\s|insert\s+(or\s+\w+\s+)?into\s|update\s+\w+\s+set\s|delete\s+from\s"
    r"|create\s+(unique\s+)?(table|index|trigger|view)\s|drop\s+(table|index|trigger|view)\s"
    r"|alter\s+table\s|pragma\s|begin(\s+immediate)?\s*$|commit\s*$|rollback\s*$)",
    re.IGNORECASE | re.DOTALL)

#: Calls that run SQL or reach a table (sqlite3's and sqlite-utils').
SQL_CALLS = {"execute", "executemany", "executescript", "table", "rows_where", "delete_where",
             "insert_all", "upsert"}


@cache
def modules() -> dict[str, Path]:
    """Every module of the app, by dotted name."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


@cache
def tree(name: str) -> ast.Module:
    return ast.parse(modules()[name].read_text(encoding="utf-8"))


def is_package(name: str) -> bool:
    return name in modules() and modules()[name].name == "__init__.py"


def resolve(importer: str, node: ast.ImportFrom) -> str:
    """The absolute module a ``from ... import`` names."""
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    if not is_package(importer):
        base.pop()
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def imports(importer: str) -> dict[str, set[str]]:
    """The app's modules ``importer`` imports (anywhere: at the top, in a function, under
    TYPE_CHECKING), each with the names it takes from it."""
    found: dict[str, set[str]] = {}
    known = modules()
    for node in ast.walk(tree(importer)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in known:
                    found.setdefault(alias.name, set())
        elif isinstance(node, ast.ImportFrom):
            source = resolve(importer, node)
            if source not in known:
                continue
            ancestor = importer.startswith(source + ".")
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    found.setdefault(f"{source}.{alias.name}", set())
                    if not ancestor:  # importing from a package runs its __init__ first
                        found.setdefault(source, set())
                else:
                    found.setdefault(source, set()).add(alias.name)
    found.pop(importer, None)
    return found


def cycles(names: Iterable[str], imports: Callable[[str], Iterable[str]]) -> list[list[str]]:
    """The import cycles among ``names`` (each once, as a path)."""
    found: list[list[str]] = []
    seen: set[frozenset[str]] = set()

    def visit(name: str, path: list[str]) -> None:
        for target in sorted(imports(name)):
            if target in path:
                cycle = path[path.index(target):]
                if frozenset(cycle) not in seen:
                    seen.add(frozenset(cycle))
                    found.append([*cycle, target])
            elif target not in done:
                visit(target, [*path, target])
        done.add(name)

    done: set[str] = set()
    for name in sorted(names):
        if name not in done:
            visit(name, [name])
    return found


def test_the_app_has_no_import_cycle():
    assert cycles(modules(), imports) == []


def test_the_cycle_check_finds_a_cycle():
    graph = {"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}
    assert cycles(graph, graph.__getitem__) == [["a", "b", "c", "a"]]


def test_the_cycle_check_sees_function_level_and_type_checking_imports():
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import x\n"
              "def f():\n    from . import c\n")
    node = ast.parse(source)
    froms = [n for n in ast.walk(node) if isinstance(n, ast.ImportFrom) and n.level]
    assert [resolve("companion.a", n) for n in froms] == ["companion.b", "companion"]


def test_the_views_are_the_modules_with_a_blueprint():
    with_blueprint = {name for name in modules()
                      if re.search(r"^bp = Blueprint\(", modules()[name].read_text(), re.MULTILINE)}
    assert with_blueprint == VIEWS


@pytest.mark.parametrize("name", sorted(set(modules()) - {"companion"}))
def test_no_module_but_the_app_factory_imports_a_view(name):
    assert not set(imports(name)) & VIEWS


def docstrings(module: ast.Module) -> set[int]:
    """The ids of the module's docstring nodes (prose, not SQL)."""
    found = set()
    for node in ast.walk(module):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def sql_in(name: str) -> list[str]:
    """What in the module looks like SQL: a string that is a statement, or a call that runs
    one or reaches a table."""
    module = tree(name)
    prose = docstrings(module)
    found = []
    for node in ast.walk(module):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in prose and SQL.match(node.value)):
            found.append(f"line {node.lineno}: {node.value[:40]!r}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and (node.func.attr in SQL_CALLS
                   or (node.func.attr == "query" and node.args
                       and isinstance(node.args[0], (ast.Constant, ast.JoinedStr))))):
            found.append(f"line {node.lineno}: .{node.func.attr}()")
    return found


@pytest.mark.parametrize("name", sorted(n for n in modules() if not n.startswith(SQL_HOMES)))
def test_no_sql_outside_the_store(name):
    assert sql_in(name) == []


def test_the_sql_check_finds_sql():
    module = ast.parse('"""Select the games from the shelf."""\n'
                       'db.execute("select id from games where id = ?", [1])\n'
                       'db.table("games").rows_where("id = ?", [1])\n'
                       'x = f"update games set version = {v}"\n')
    found = [n for n in ast.walk(module) if isinstance(n, ast.Constant)
             and isinstance(n.value, str) and id(n) not in docstrings(module)
             and SQL.match(n.value)]
    assert [n.value for n in found] == ["select id from games where id = ?",
                                        "update games set version = "]
    assert not SQL.match("Update the app first.") and not SQL.match("Select a card")


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_private_name_is_used_across_modules(name):
    module = tree(name)
    taken = [f"{source}.{n}" for source, names in imports(name).items() for n in names
             if private(n)]
    # A module imported whole (from . import store): none of its private names either.
    bound = set()
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom):
            source = resolve(name, node)
            bound |= {a.asname or a.name for a in node.names
                      if f"{source}.{a.name}" in modules()}
        elif isinstance(node, ast.Import):
            bound |= {(a.asname or a.name).split(".")[0] for a in node.names
                      if a.name in modules()}
    used = [f"{node.value.id}.{node.attr}" for node in ast.walk(module)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id in bound and private(node.attr)]
    assert taken + used == []


def test_the_readme_layout_names_every_module():
    readme = (PACKAGE.parent / "README.md").read_text(encoding="utf-8")
    rows = "\n".join(line for line in readme.splitlines() if line.startswith("| `companion"))
    named = set(re.findall(r"`(\w+)`", rows))
    missing = {name for name in modules() if name.rsplit(".", 1)[-1] not in named
               and name not in ("companion", "companion.store")}
    assert missing == set()


def test_a_transaction_is_rolled_back_in_one_place():
    # One way to open, commit and roll back (db.transaction), not a copy per module.
    found = [name for name in modules()
             if re.search(r"""["']ROLLBACK["']""", modules()[name].read_text(), re.IGNORECASE)]
    assert found == ["companion.db"]


@cache
def rule_names() -> frozenset[str]:
    """How a rule fact is written as a string: every card's text (``wild-dip``,
    ``red-skip``), every kind of card's but a number's (``jackpot``: a digit is a digit),
    and every variant's name (not the aliases: "uno" is a check too)."""
    import engine
    from engine.cards import ALL_CARDS

    return frozenset({c.text for c in ALL_CARDS}
                     | {r.value for r in engine.Rank if not r.is_number}
                     | {v.name for v in engine.VARIANTS})


def rule_facts_in(source: str) -> list[str]:
    """What in a module's source states a rule fact the engine owns: a card's rank, effect
    or color named as a member (``Rank.JACKPOT``), or a card, a kind of card or a variant
    named by its name (a blueprint's own name, an address's word, is no card)."""
    tree = ast.parse(source)
    blueprint_names = {id(node.args[0]) for node in ast.walk(tree)
                       if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Blueprint"
                       and node.args}
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.isupper()
                and isinstance(node.value, (ast.Name, ast.Attribute))
                and getattr(node.value, "id", getattr(node.value, "attr", "")) in
                ("Rank", "Effect", "Color", "LeverOutcome")):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif (isinstance(node, ast.Constant) and node.value in rule_names()
              and id(node) not in blueprint_names):
            found.append(f"line {node.lineno}: {node.value!r}")
    return found


#: A value a template's form sends, written out (``value="wild-dip"``).
FORM_VALUE = re.compile(r"""\bvalue=(["'])([^"'{}]*)\1""")


def template_rule_facts(source: str) -> list[str]:
    """What in a template names a card, a kind of card or a variant: a string in its
    Jinja code (``rule_url('wild-jackpot', ...)``), or a value its form sends. Ids and
    classes (``id="jackpot"``) are the page's own names, not the engine's."""
    import jinja2
    from jinja2 import nodes

    tree = jinja2.Environment().parse(source)
    found = [f"line {n.lineno}: {n.value!r}" for n in tree.find_all(nodes.Const)
             if isinstance(n.value, str) and n.value in rule_names()]
    found += [f"line {source.count(chr(10), 0, m.start()) + 1}: value={m.group(2)!r}"
              for m in FORM_VALUE.finditer(source) if m.group(2) in rule_names()]
    return found


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_rule_fact_in_the_app(name):
    # The engine decides, the app asks: which cards open the lever's first-card pull, which
    # wilds draw, which variant a form starts on, which card a referee check is about are
    # the engine's (engine.jackpot, engine.card_facts, engine.VARIANTS,
    # engine.referee.QUESTION_CARD), never a literal here.
    assert rule_facts_in(modules()[name].read_text(encoding="utf-8")) == []


TEMPLATES = PACKAGE.parent / "templates"


@pytest.mark.parametrize("name", sorted(p.name for p in TEMPLATES.glob("*.*")))
def test_no_rule_fact_in_the_templates(name):
    assert template_rule_facts((TEMPLATES / name).read_text(encoding="utf-8")) == []


def test_the_rule_fact_check_finds_them():
    source = ('first = {r.value: r for r in (engine.Rank.JACKPOT, engine.Rank.WILD_JACKPOT)}\n'
              'DRAW_WILDS = (Rank.WILD_DRAW4, Rank.WILD_DRAW2)\n'
              'variant = find_variant(form.get("variant") or "classic")\n'
              'name = Rank("wild")\n'
              'Check("special/wild-dip", "Wild Dip", "...", (), referee.wild_dip, card="wild-dip")\n'
              'bp = Blueprint("jackpot", __name__)\n')
    assert len(rule_facts_in(source)) == 7
    template = ('<a href="{{ rule_url(\'wild-jackpot\', \'jackpot-lever\') }}">'
                '<button name="opening" value="jackpot">'
                '<section id="jackpot" class="skip">{{ "Wild Swap Hands" if deck }}</section>')
    assert template_rule_facts(template) == ["line 1: 'wild-jackpot'", "line 1: value='jackpot'"]
