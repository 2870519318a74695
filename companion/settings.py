"""The app's settings that hold before it is built: where its data and resources are, the
largest request it takes, the host names it answers to, the htmx it ships."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

#: htmx ships as a static file (see docs/decisions.md for why 2.0).
HTMX_VERSION = "2.0.11"

#: Host names always served: this machine's own, which no web page can rebind.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")

#: The largest request body accepted. The largest real form, the card picker of a
#: ten-player classic game with every field filled, is 506 fields and about 7 KB.
MAX_BODY = 256 * 1024


def default_data_dir() -> Path:
    """Where the database lives unless told otherwise: the user's data folder."""
    return Path(os.environ.get("UNO_COMPANION_HOME") or platformdirs.user_data_dir("uno-companion"))


def default_database() -> str:
    """The database file unless told otherwise: UNO_COMPANION_DB, or the data folder's."""
    return os.environ.get("UNO_COMPANION_DB") or str(default_data_dir() / "companion.sqlite3")


def allowed_hosts() -> list[str]:
    """Host names served besides this machine's: UNO_COMPANION_ALLOWED_HOSTS (comma-separated)."""
    return os.environ.get("UNO_COMPANION_ALLOWED_HOSTS", "").replace(",", " ").split()


def resource_folder(name: str) -> str:
    """Where the app's ``templates`` or ``static`` folder is.

    An installed wheel carries them inside the package (pyproject.toml maps them
    there); a checkout, or an editable install of one, has them at the top of the
    repository, beside the package.
    """
    packaged = Path(__file__).resolve().parent / name
    if packaged.is_dir():
        return str(packaged)
    return str(Path(__file__).resolve().parent.parent / name)
