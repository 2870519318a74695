"""The direction of play: its value in a game (1 clockwise, -1 counter-clockwise, R1), its
words, and how a table may give it."""

from __future__ import annotations

import enum


class Direction(enum.IntEnum):
    """The direction of play. An int, as a game keeps it (the next seat is
    ``(seat + direction) % n``), with its words for events, answers and forms.

    >>> Direction.parse("Counter-Clockwise"), Direction.parse(1).words
    (<Direction.COUNTER_CLOCKWISE: -1>, 'clockwise')
    >>> Direction.parse("sideways")
    Traceback (most recent call last):
    ...
    ValueError: direction is 1 or 'clockwise', -1 or 'counter-clockwise', not 'sideways'
    """

    CLOCKWISE = 1
    COUNTER_CLOCKWISE = -1

    @property
    def words(self) -> str:
        """"clockwise" or "counter-clockwise", as events and answers say it."""
        return _WORDS[self]

    @classmethod
    def parse(cls, value: object) -> Direction:
        """The direction ``value`` gives: 1 or -1, or its words (also "counterclockwise",
        "anticlockwise", "cw", "ccw"; "left" is clockwise and "right" counter-clockwise, as
        the cards pass, R1), in any case. ValueError for anything else."""
        if isinstance(value, int) and not isinstance(value, bool) and value in (1, -1):
            return cls(value)
        if isinstance(value, str) and value.strip().lower() in _READ:
            return _READ[value.strip().lower()]
        raise ValueError(
            f"direction is 1 or 'clockwise', -1 or 'counter-clockwise', not {value!r}")


_WORDS = {Direction.CLOCKWISE: "clockwise", Direction.COUNTER_CLOCKWISE: "counter-clockwise"}
_READ = {"clockwise": Direction.CLOCKWISE, "cw": Direction.CLOCKWISE,
         "left": Direction.CLOCKWISE, "counter-clockwise": Direction.COUNTER_CLOCKWISE,
         "counterclockwise": Direction.COUNTER_CLOCKWISE,
         "anticlockwise": Direction.COUNTER_CLOCKWISE, "ccw": Direction.COUNTER_CLOCKWISE,
         "right": Direction.COUNTER_CLOCKWISE}
