"""Events: what an applied action did, in plain words with the rule it follows.

Events are immutable and cheap to make; the sentence is only written when
:attr:`Event.text` is read.

>>> from engine.cards import Card
>>> e = Event(EventKind.DRAW, 1, "R10", "classic sheet, Wild Draw 4 Card", ("Ann", "Bea"),
...           6, note="their challenge failed")
>>> e.text
'Bea draws 6 cards: their challenge failed (R10; classic sheet, Wild Draw 4 Card)'
>>> card_name(Card.parse("wd4")), card_name(Card.parse("b-skip"))
('Wild Draw 4', 'blue Skip')
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from .card_facts import card_name
from .cards import Card, Color

__all__ = ["Event", "EventKind", "card_name"]


class EventKind(str, enum.Enum):
    """What happened; the value is a short stable name for logs and statistics.

    A ``str`` enum, so counting events by kind hashes at C speed.
    """

    DEAL = "deal"
    FIRST_CARD = "first-card"
    RETURNED = "returned"
    START = "start"
    PLAY = "play"
    COLOR = "color"
    DRAW = "draw"
    LOSE_TURN = "lose-turn"
    REVERSE = "reverse"
    AGAIN = "again"
    TAKES_TURN = "takes-turn"
    KEEP = "keep"
    PASS = "pass"
    RESHUFFLE = "reshuffle"
    SHORT = "short"
    STACK = "stack"
    CHALLENGE = "challenge"
    GUILTY = "guilty"
    INNOCENT = "innocent"
    UNO = "uno"
    CATCH = "catch"
    OUT = "out"
    SWAP = "swap"
    ROTATE = "rotate"
    GIVE = "give"
    LEVER = "lever"
    CHOOSE = "choose"
    RULE_CARD = "rule-card"
    NO_RULE_CARD = "no-rule-card"
    RULES_RESHUFFLE = "rules-reshuffle"
    DISCARD = "discard"
    LAY = "lay"
    DROID_FAIL = "droid-fail"
    DROID_RETURN = "droid-return"
    JUMP = "jump"


_TEMPLATES: dict[EventKind, str] = {
    EventKind.DEAL: "{who} deals {n} cards to each player",
    EventKind.FIRST_CARD: "The first card turned up is {card}",
    EventKind.RETURNED: "{card} turned up first goes back into the deck and another card "
                        "is turned",
    EventKind.START: "{who} plays first, {note}",
    EventKind.PLAY: "{who} plays {card}",
    EventKind.COLOR: "{who} names {color}",
    EventKind.DRAW: "{who} draws {cards_n}",
    EventKind.LOSE_TURN: "{who} loses their turn",
    EventKind.REVERSE: "Play now goes {note}",
    EventKind.AGAIN: "{who} plays again",
    EventKind.TAKES_TURN: "{who} takes their turn",
    EventKind.KEEP: "{who} keeps the drawn card",
    EventKind.PASS: "{who} passes",
    EventKind.RESHUFFLE: "The discard pile except its top card is shuffled into a new draw pile",
    EventKind.SHORT: "Both piles are exhausted: {who} draws only {n}",
    EventKind.STACK: "{whom} must draw {cards_n} or pass the draw on",
    EventKind.CHALLENGE: "{who} challenges {whom}'s {card}",
    EventKind.GUILTY: "The challenge succeeds: {whom} {note}",
    EventKind.INNOCENT: "The challenge fails: {whom} {note}",
    EventKind.UNO: "{who} calls UNO",
    EventKind.CATCH: "{who} catches {whom} holding one card without calling UNO",
    EventKind.OUT: "{who} goes out and wins the hand",
    EventKind.SWAP: "{who} swaps hands with {whom}",
    EventKind.ROTATE: "Every hand passes to the next player {note}",
    EventKind.GIVE: "{who} gives a card to {whom}",
    EventKind.LEVER: "{who} pulls the lever: {note}",
    EventKind.CHOOSE: "{who} chooses {whom} to perform a rule card",
    EventKind.RULE_CARD: "{who} must perform the rule card \u201c{note}\u201d",
    EventKind.NO_RULE_CARD: "There is no rule card to dispense",
    EventKind.RULES_RESHUFFLE: "The unit is empty: the used rule cards are shuffled back in",
    EventKind.DISCARD: "{who} discards {card}",
    EventKind.LAY: "{who} lays {card} for the droid",
    EventKind.DROID_FAIL: "{who} cannot lay a card of a different color",
    EventKind.DROID_RETURN: "Every card laid for the droid goes back to its owner",
    EventKind.JUMP: "{who} jumps in with {card}",
}

class Event(NamedTuple):
    """One thing that happened, citing the rule it follows.

    ``rule`` is a ruling number ("R10"), ``"house"`` for a table's house rule, or
    ``""`` where the sheet alone decides; ``source`` names the sheet and section
    (or the house rule). ``seat`` is who acted or was hit, ``target`` the other
    player involved; ``amount`` (cards drawn and the like), ``cards`` and ``color`` carry the details.
    """

    kind: EventKind
    seat: int | None
    rule: str
    source: str
    #: Player names, to write the sentence.
    names: tuple[str, ...]
    amount: int = 0
    cards: tuple[Card, ...] = ()
    color: Color | None = None
    target: int | None = None
    note: str = ""

    @property
    def text(self) -> str:
        """The event in plain words, ending with its source in brackets."""
        cite = f"{self.rule}; {self.source}" if self.rule.startswith("R") else self.source
        return f"{self._body()} ({cite})"

    @property
    def plain(self) -> str:
        """The event as a sentence of its own, without its source (a page lists the
        sources once, under the steps): "The player plays Wild Draw 4"."""
        body = self._body()
        who = self.names[self.seat] if self.seat is not None else ""
        if who and body.startswith(who) and not who.startswith("the "):
            return body  # a player's name as they typed it
        return body[:1].upper() + body[1:]

    def _body(self) -> str:
        template = _TEMPLATES[self.kind]
        names = self.names
        n = self.amount
        body = template.format(
            who=names[self.seat] if self.seat is not None else "",
            # No target: the player is not known ("Bea chooses a player ...").
            whom=names[self.target] if self.target is not None else "a player",
            n=n,
            cards_n=f"{n} card{'' if n == 1 else 's'}",
            card=card_name(self.cards[0]) if self.cards else "",
            color=self.color.value if self.color is not None else "",
            note=self.note,
        )
        if self.note and "{note}" not in template:
            body = f"{body}: {self.note}"
        if self.kind is EventKind.PLAY and self.color is not None:
            body = f"{body} and names {self.color.value}"
        return body

    def __str__(self) -> str:
        return self.text
