"""Build hook for the optional compiled engine; the metadata lives in pyproject.toml.

With ``UNO_ENGINE_MYPYC=1`` set, building a wheel (``pip install .``, ``pip wheel .``)
also compiles the engine's modules with mypyc, from the same source, into C
extensions that play about 1.7 times as fast (bench/README.md). Without it, and
always for an editable install (``pip install -e .``, where a compiled module
would shadow the source you edit), the engine stays plain Python.

Asked for, the compiled build must succeed (it needs a C compiler): a failure
stops the build rather than leave a half-compiled engine.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup

#: The modules a hand is played with, compiled by mypyc. The others (scoring, options,
#: the jackpot's rule cards) check the app's input and gain nothing from compiling.
COMPILED_MODULES = [
    "engine/actions.py",
    "engine/cards.py",
    "engine/chance.py",
    "engine/events.py",
    "engine/game.py",
    "engine/simulate.py",
    "engine/variants.py",
]
#: The mypy release the compiled build is tested with (tests/engine/test_compiled.py).
MYPY = "mypy>=2.4.1,<2.5"


def wants_compiled() -> bool:
    """True when asked for, and the build is not an editable install."""
    return os.environ.get("UNO_ENGINE_MYPYC") == "1" and "editable_wheel" not in sys.argv


def compiled_extensions() -> list[object]:
    try:
        from mypyc.build import mypycify
    except ImportError:  # pip first asks what the build needs (setup_requires) and installs it
        return []
    return list(mypycify(COMPILED_MODULES, opt_level="3", group_name="engine_mypyc"))


if wants_compiled():
    setup(setup_requires=[MYPY], ext_modules=compiled_extensions())
else:
    setup()
