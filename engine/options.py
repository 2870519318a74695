"""Table options: what a table agrees before the first deal.

One frozen object per game. Every field defaults to the rule sheets (and
RULINGS.md); ``None`` means "the variant's own default". The house rules are
all off by default and each is described to players in plain sentences:

>>> from engine import find_variant
>>> TableOptions(jump_in=True).describe(find_variant("classic"))[-1]
'Jump-in (house rule): a player holding a card identical to the top card may play it out of turn; play carries on from them.'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal, Protocol

from .results import CLASSIC_SECTIONS

#: The most cards a missed UNO call may cost: R6 makes the count a table option.
MAX_UNO_PENALTY = 20
#: The most points a blank card may be set to score (R14: the table sets it).
MAX_BLANK_VALUE = 10_000


class VariantDefaults(Protocol):
    """What :meth:`TableOptions.describe` and :func:`table_options` read of a variant: any
    :class:`engine.Game` class.

    A protocol rather than the class itself, so that this module, which the game
    imports, imports nothing of the game back.
    """

    name: str
    default_uno_penalty: int
    two_player_reverse_skips: bool
    max_table_cards: int
    may_play_drawn_card: bool


@dataclass(frozen=True)
class TableOptions:
    """House rules and setup choices for one game."""

    #: Blank cards shuffled in (classic only, R7: 0-4 table cards in all).
    blank_cards: int = 0
    #: Points a blank card scores when caught in a hand (R14).
    blank_value: int = 50
    #: The one Wild Swap Hands card is in the deck (classic only, R7).
    wild_swap: bool = True
    #: Cards drawn for a missed UNO call; None is the variant's default (R6).
    uno_penalty: int | None = None
    #: House rule: a draw card may answer a draw card of the same or a smaller draw
    #: (Draw Two on Draw Two, Wild Draw 4 on either); the total passes on. R11 forbids it.
    stacking: bool = False
    #: House rule "progressive UNO": only the *same* draw card may answer a draw card
    #: (Draw Two on Draw Two, Wild Draw 4 on Wild Draw 4); the total passes on.
    progressive_uno: bool = False
    #: House rule 7-0: a 7 swaps hands with a chosen player, a 0 passes every hand on.
    seven_o: bool = False
    #: House rule: a player holding a card identical to the top card may play it out of turn.
    jump_in: bool = False
    #: House rule: a player who draws keeps drawing until a card can be played.
    draw_until_playable: bool = False
    #: House rule: a drawn card that can be played must be played.
    forced_play: bool = False
    #: R13: with two players a Reverse acts like a Skip (classic's two-player rules);
    #: None is the variant's default (on in classic, off elsewhere).
    two_player_reverse_skips: bool | None = None
    #: wild-jackpot only (R17): the rules the players wrote on the rule cards, at most 8.
    #: Empty means the engine labels the cards "rule card 1 (Ann)" and so on.
    rule_cards: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain values, for JSON."""
        data = {f.name: getattr(self, f.name) for f in fields(self)}
        data["rule_cards"] = list(self.rule_cards)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> TableOptions:
        """Inverse of :meth:`to_dict`; unknown keys are an error, missing ones default."""
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown table options: {', '.join(sorted(unknown))}")
        if "rule_cards" in data:
            rules = data["rule_cards"]
            if isinstance(rules, str) or not all(isinstance(r, str) for r in rules):
                raise ValueError("rule_cards must be a list of texts")
            data["rule_cards"] = tuple(rules)
        return cls(**data)

    def replace(self, **changes: Any) -> TableOptions:
        """A copy with some fields changed."""
        return replace(self, **changes)

    @property
    def stack_rule(self) -> str | None:
        """"any" (stacking), "same" (progressive UNO only) or None (R11: no stacking)."""
        if self.stacking:
            return "any"
        return "same" if self.progressive_uno else None

    def describe(self, variant: VariantDefaults | None = None) -> list[str]:
        """The table's setup and house rules as plain sentences for the players.

        With ``variant`` the sentences use that variant's defaults (its UNO
        penalty, its two-player rule) and leave out cards it does not have.
        """
        name = variant.name if variant else ""
        lines: list[str] = []
        if name == "classic" or variant is None:
            lines.append("The Wild Swap Hands card is in the deck." if self.wild_swap
                         else "The Wild Swap Hands card is left out.")
            if self.blank_cards:
                lines.append(
                    f"{self.blank_cards} blank card{'s' if self.blank_cards > 1 else ''} "
                    "carry the table's own rules: a blank is played like a Wild (on anything, "
                    "naming a color) and the table carries out what is written on it; "
                    f"one caught in a hand scores {self.blank_value}.")
            else:
                lines.append("No blank cards are in the deck.")
        if name == "wild-jackpot":
            count = len(self.rule_cards)
            lines.append(f"The players wrote {count} rule card{'s' if count != 1 else ''}."
                         if count else "Each player writes an equal share of the 8 rule cards.")
        penalty = self.uno_penalty
        if penalty is None:
            penalty = variant.default_uno_penalty if variant else None
        if penalty == 0:
            lines.append("Nobody needs to call UNO.")
        elif penalty is None:
            lines.append("A player caught not calling UNO draws the variant's penalty.")
        else:
            lines.append(f"A player caught not calling UNO at one card draws {penalty} "
                         f"card{'s' if penalty != 1 else ''}.")
        rule = self.stack_rule
        if rule == "any":
            lines.append("Stacking (house rule): a player hit by a draw card may pass it on "
                         "with a draw card of the same or a bigger draw; the totals add up.")
        elif rule == "same":
            lines.append("Progressive UNO (house rule): a player hit by a draw card may pass "
                         "it on with the same draw card; the totals add up.")
        else:
            lines.append("No stacking: a player hit by a draw card draws and misses their turn.")
        reverse = self.two_player_reverse_skips
        if reverse is None and variant is not None:
            reverse = variant.two_player_reverse_skips
        if reverse:
            lines.append("With two players a Reverse works like a Skip.")
        elif reverse is not None:
            lines.append("With two players a Reverse only changes direction.")
        if self.seven_o:
            lines.append("7-0 (house rule): playing a 7 swaps hands with a player of your "
                         "choice; playing a 0 passes every hand to the next player in the "
                         "direction of play.")
        if self.draw_until_playable:
            lines.append("Draw until playable (house rule): a player who draws keeps drawing "
                         "until they get a card they can play.")
        if self.forced_play:
            lines.append("Forced play (house rule): a drawn card that can be played must be "
                         "played.")
        if self.jump_in:
            lines.append("Jump-in (house rule): a player holding a card identical to the top "
                         "card may play it out of turn; play carries on from them.")
        return lines


@dataclass(frozen=True)
class TableOption:
    """One of :class:`TableOptions`' fields as a table sets it before the first deal:
    what to call it, what kind of value it takes and within which bounds, the variant's
    own value, and the ruling it follows (for a house rule, how verdicts cite it)."""

    #: The :class:`TableOptions` field.
    name: str
    #: What the players call it.
    label: str
    #: "bool" (on or off) or "int" (a whole number from ``low`` to ``high``).
    kind: Literal["bool", "int"]
    #: The value a table of this variant has unless it agrees otherwise.
    default: bool | int
    #: The ruling that makes it a table option ("R6"), or the citation of a house rule.
    ruling: str
    #: A house rule: no part of any sheet, off unless the table agrees on it.
    house_rule: bool = False
    low: int = 0
    high: int = 1

    def value_in(self, options: TableOptions) -> bool | int:
        """This option's value at a table of these options (the variant's own for a field
        left at None).

        >>> from engine import find_variant
        >>> penalty = {o.name: o for o in table_options(find_variant("one"))}["uno_penalty"]
        >>> penalty.value_in(TableOptions()), penalty.value_in(TableOptions(uno_penalty=2))
        (0, 2)
        """
        value: bool | int | None = getattr(options, self.name)
        return self.default if value is None else value

    def check(self, value: object) -> bool | int:
        """``value`` if this option can take it; ValueError saying what it can take.

        >>> blanks = {o.name: o for o in table_options()}["blank_cards"]
        >>> blanks.check(5)
        Traceback (most recent call last):
        ...
        ValueError: Blank cards shuffled in: a whole number from 0 to 4 (R7)
        """
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            raise ValueError(f"{self.label}: on or off ({self.ruling})")
        if isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high:
            return value
        raise ValueError(f"{self.label}: a whole number from {self.low} to {self.high} "
                         f"({self.ruling})")


def _house(topic: str) -> str:
    """How verdicts cite a house rule (engine.results): "house rule: 7-0"."""
    section = CLASSIC_SECTIONS[topic][0]
    assert section is not None
    return section


def table_options(variant: VariantDefaults | None = None) -> tuple[TableOption, ...]:
    """Every option a table of ``variant`` can set, in the order a form asks them, with
    that variant's defaults; those that cannot matter to it are left out (blank cards and
    the Wild Swap Hands are classic's table cards, R7; forcing the play of a drawn card
    means nothing where a drawn card is never played that turn, R29). Without a variant:
    every option, with the defaults :class:`TableOptions` has. (The rules Wild Jackpot's
    players write on its rule cards, R17, are texts written for a game, not set here.)

    >>> from engine import find_variant
    >>> [(o.name, o.default) for o in table_options(find_variant("classic"))][:5]
    [('uno_penalty', 4), ('two_player_reverse_skips', True), ('wild_swap', True), ('blank_cards', 0), ('blank_value', 50)]
    >>> [o.name for o in table_options(find_variant("one")) if o.house_rule]
    ['stacking', 'progressive_uno', 'seven_o', 'jump_in', 'draw_until_playable']
    """
    key = variant.name if variant is not None else None
    if key not in _LISTED:  # made once a variant: every link on a referee page asks
        _LISTED[key] = _list_options(variant)
    return _LISTED[key]


#: table_options' answers, by variant name (None: without a variant).
_LISTED: dict[str | None, tuple[TableOption, ...]] = {}


def _list_options(variant: VariantDefaults | None) -> tuple[TableOption, ...]:
    base = TableOptions()
    table_cards = variant.max_table_cards if variant is not None else 4
    out = [
        TableOption("uno_penalty", "Cards drawn for a missed UNO call", "int",
                    variant.default_uno_penalty if variant is not None else 2, "R6",
                    high=MAX_UNO_PENALTY),
        TableOption("two_player_reverse_skips", "With two players a Reverse works like a Skip",
                    "bool", variant.two_player_reverse_skips if variant is not None else True,
                    "R13"),
    ]
    if table_cards:
        out += [
            TableOption("wild_swap", "The Wild Swap Hands card is in the deck", "bool",
                        base.wild_swap, "R7"),
            TableOption("blank_cards", "Blank cards shuffled in", "int", base.blank_cards,
                        "R7", high=table_cards),
            TableOption("blank_value", "Points a blank card scores", "int", base.blank_value,
                        "R14", high=MAX_BLANK_VALUE),
        ]
    out += [
        TableOption("stacking", "Stacking draw cards", "bool", False, _house("stacking"),
                    house_rule=True),
        TableOption("progressive_uno", "Progressive UNO (same draw card only)", "bool", False,
                    _house("progressive"), house_rule=True),
        TableOption("seven_o", "7-0 (a 7 swaps hands, a 0 passes them on)", "bool", False,
                    _house("seven-o"), house_rule=True),
        TableOption("jump_in", "Jump-in", "bool", False, _house("jump-in"), house_rule=True),
        TableOption("draw_until_playable", "Draw until playable", "bool", False,
                    _house("draw-until"), house_rule=True),
    ]
    if variant is None or variant.may_play_drawn_card:
        out.append(TableOption("forced_play", "Forced play of a drawn card", "bool", False,
                               _house("forced"), house_rule=True))
    return tuple(out)


#: Why a house rule can do nothing in a variant that leaves it out of its
#: :func:`table_options` (the only such rule today: R29).
_NO_EFFECT = {"forced_play": "a card drawn is never played the turn it is drawn (R29)"}


def no_effect(variant: VariantDefaults, name: str) -> str | None:
    """Why the house rule ``name`` has no effect at a table of ``variant``; None where it
    may have one (or where ``name`` is no house rule at all).

    >>> from engine import find_variant
    >>> no_effect(find_variant("one"), "forced_play")
    'Forced play of a drawn card has no effect in one: a card drawn is never played the turn it is drawn (R29)'
    >>> no_effect(find_variant("classic"), "forced_play") is None
    True
    """
    if any(o.name == name for o in table_options(variant)):
        return None
    label = next((o.label for o in table_options() if o.name == name and o.house_rule), None)
    if label is None:
        return None
    return f"{label} has no effect in {variant.name}: {_NO_EFFECT.get(name, 'it is not played there')}"
