"""Build hook for the optional compiled engine; the metadata lives in pyproject.toml.

With ``UNO_ENGINE_MYPYC=1`` set, building a wheel (``pip install .``, ``pip wheel .``)
also compiles the engine's play modules with mypyc, from the same source, into C
extensions that play about 1.7 times as fast (bench/README.md); the build backend
(buildtools/uno_backend.py) has pip install mypy for it. Without the variable, and
always for an editable install (``pip install -e .``, where a compiled module would
shadow the source you edit), the engine stays plain Python.

Asked for, the compiled build must succeed (it needs a C compiler and mypy): a
failure stops the build rather than leave a plain or half-compiled engine.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile

from setuptools import setup

#: The modules a hand is played with, compiled by mypyc. The others (scoring, options,
#: the jackpot's rule cards) check the app's input and gain nothing from compiling.
COMPILED_MODULES = [
    "engine/actions.py",
    "engine/card_facts.py",
    "engine/cards.py",
    "engine/chance.py",
    "engine/events.py",
    "engine/game.py",
    "engine/phases/__init__.py",
    "engine/phases/base.py",
    "engine/phases/dip.py",
    "engine/phases/droid.py",
    "engine/phases/jackpot_discard.py",
    "engine/phases/jackpot_lever.py",
    "engine/phases/name_color.py",
    "engine/results.py",
    "engine/simulate.py",
    "engine/variants.py",
]
#: Names mypyc's shared library (GROUP__mypyc), which all the compiled modules load.
GROUP = "engine_mypyc"


def wants_compiled() -> bool:
    """True when asked for and this run builds the wheel itself: not while pip reads the
    metadata first, and never for an editable install (its command is editable_wheel)."""
    return os.environ.get("UNO_ENGINE_MYPYC") == "1" and "bdist_wheel" in sys.argv


def compiled_extensions(build_base: str) -> list[object]:
    try:
        from mypyc.build import mypycify
    except ImportError:
        raise SystemExit("UNO_ENGINE_MYPYC=1 needs mypy in the build environment; pip's "
                         "isolated build installs it (buildtools/uno_backend.py)") from None
    return list(mypycify(COMPILED_MODULES, opt_level="3", group_name=GROUP,
                         target_dir=os.path.join(build_base, "mypyc")))


# Every build starts from an empty folder: setuptools would otherwise pack whatever an
# earlier build left in ./build (a compiled module since dropped from the list, say).
build_base = tempfile.mkdtemp(prefix="uno-companion-build-")
atexit.register(shutil.rmtree, build_base, True)
setup(
    options={"build": {"build_base": build_base}},
    ext_modules=compiled_extensions(build_base) if wants_compiled() else [],
)
