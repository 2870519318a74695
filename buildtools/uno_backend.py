"""The project's build backend: setuptools', asking for mypy when a compiled engine is wanted.

``UNO_ENGINE_MYPYC=1`` asks for the engine compiled with mypyc (see setup.py). Only a
wheel build compiles, so only it asks pip for mypy; an editable install never does.
"""

from __future__ import annotations

import os
from typing import Any

from setuptools import build_meta as _setuptools

# Every other hook is setuptools' own, unchanged.
from setuptools.build_meta import *

#: The mypy release the compiled build is tested with (tests/engine/test_compiled.py).
MYPY = "mypy>=2.4.1,<2.5"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    requires = list(_setuptools.get_requires_for_build_wheel(config_settings))
    if os.environ.get("UNO_ENGINE_MYPYC") == "1":
        requires.append(MYPY)
    return requires
