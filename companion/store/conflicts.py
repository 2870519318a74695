"""What a write refuses: each refusal a ValueError (or LookupError) saying why, and naming
the game whose fresh state is shown beside it."""

from __future__ import annotations


class ConflictError(ValueError):
    """A write that the game's state does not allow (finished game, duplicate form...).

    ``game_id`` names the game whose fresh state should be shown beside the message.
    """

    def __init__(self, message: str, game_id: int | None = None):
        super().__init__(message)
        self.game_id = game_id


class StaleError(ConflictError):
    """The form was made from an older version of the game: someone changed it meanwhile."""


class AlreadySaved(ConflictError):
    """The very same form was submitted before (a double tap, Back and resend, a retry)."""


class OutOfDate(ConflictError):
    """A spent one-time key came back with something else in its form: a page kept by the
    browser (Back, a cache) used again for a new change. Never a replay, never "saved"."""


#: What a page out of date is told (the page shown with it carries fresh keys).
OUT_OF_DATE = ("This page was already used for another change, so nothing was saved now. "
               "Here it is again, up to date: tap again.")


class NoSuchGame(LookupError):
    """No game (or no live hand) with that id."""
