"""The games as last loaded, each valid for one version of its game; and the app's cache."""

from __future__ import annotations

import threading
from collections import OrderedDict

from flask import Flask, current_app

from .records import GameRecord


class GameCache:
    """Games as last loaded, each valid for one version of its game.

    Every change bumps a game's version, so an entry is used only while the stored
    game is exactly what it was loaded from: a game's pages then cost the same
    whatever its history.
    """

    def __init__(self, size: int = 128):
        self._size = size
        self._games: OrderedDict[int, GameRecord] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int) -> GameRecord | None:
        """The game at this version, if it was loaded (or written) by this process."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None or game.version != version:
                return None
            self._games.move_to_end(game_id)
            return game

    def put(self, game: GameRecord) -> None:
        """Keep ``game`` (as read from a committed state), forgetting the least used."""
        with self._lock:
            self._games[game.id] = game
            self._games.move_to_end(game.id)
            while len(self._games) > self._size:
                self._games.popitem(last=False)


def get_cache() -> GameCache:
    """The app's cache of loaded games (made by :func:`init_app`)."""
    return current_app.extensions["uno_games"]  # type: ignore[no-any-return]


def init_app(app: Flask) -> None:
    """Give the app its cache of loaded games, shared by its requests."""
    app.extensions["uno_games"] = GameCache()
