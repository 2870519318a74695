"""The referee's forms: the table a dispute is about, and each check's fields, read into
the :class:`engine.referee.Scene` they describe and the question a check asks of it.

Nothing here decides a rule. A field is read as the table typed or tapped it (a seat's
name, card text, a color) and handed to the referee, which checks it against the
variant and says what is wrong; this module only says when something needed is missing
or a number is not a number.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from werkzeug.datastructures import MultiDict

import engine
from engine import Card, TableOptions, card_name, referee
from engine.card_facts import DRAW_WILDS
from engine.referee import Scene, TooOpenError, Verdict
from engine.referee.specials import JUMP_IN_OFF, SEVEN_ZERO_OFF
from engine.rulebook import rulebook

from .forms import MAX_CARDS_TEXT, MAX_NAME, FormErrors, clean_name
from .store import GameRecord
from .urls import rule_url, rules_page_url

#: The house rules a table can tick: the engine's own list (engine.table_options), named
#: for people. Every variant's are among these.
HOUSE_RULES: tuple[tuple[str, str], ...] = tuple(
    (o.name, o.label) for o in engine.table_options() if o.house_rule)
#: What a table's on-off option reads as on, and as off (a query's "1", a select's "0").
ON, OFF = frozenset({"1", "on", "yes", "true"}), frozenset({"0", "off", "no", "false"})
#: The longest text read from any one field that is not a list of cards.
MAX_TEXT = 200
#: The longest list of seats read (the most players a variant seats, names of MAX_NAME,
#: and their commas).
MAX_SEATS_TEXT = max(v.max_players for v in engine.VARIANTS) * (MAX_NAME + 2)
#: The most cards read from one list (every deck holds fewer, blanks and all): the referee
#: plays each card turned up at the first card, each laid for a droid...
MAX_CARDS = 120
#: The most values read for a repeated field (the house rules ticked).
MAX_REPEATS = 2 * len(HOUSE_RULES)


@dataclass(frozen=True)
class TableForm:
    """Who sits where, with which variant and options: from a game, or as typed."""

    variant: type[engine.Game]
    #: Seat names, clockwise (R1). Empty until the table names its players.
    seats: tuple[str, ...]
    options: TableOptions
    #: The dealer's name (a game's next dealer), if known.
    dealer: str | None = None
    game: GameRecord | None = None
    #: The house rules ticked (their TableOptions field names), for links.
    house: tuple[str, ...] = ()
    #: What is wrong with the seats as typed (too many, a name too long), as a game's
    #: form says it; a check refuses to answer until it is put right.
    seats_problem: str | None = None
    #: What is wrong with the options as given (a number out of bounds, more table cards
    #: than the box holds), by field: no page is answered until it is put right.
    options_problems: tuple[tuple[str, str], ...] = ()

    @property
    def game_id(self) -> int | None:
        """The game the dispute is in, if any."""
        return self.game.id if self.game else None

    @property
    def settings(self) -> tuple[engine.TableOption, ...]:
        """Every option this variant's table can set (the engine's list)."""
        return engine.table_options(self.variant)

    @property
    def own_rules(self) -> bool:
        """Whether the table plays any option otherwise than its variant's rules have it."""
        return any(o.value_in(self.options) != o.default for o in self.settings)

    def query(self) -> dict[str, Any]:
        """The table as a link's query: the game, or the variant, seats, each option that
        is not the variant's own, and the house rules."""
        if self.game is not None:
            return {"game": self.game.id}
        out: dict[str, Any] = {"variant": self.variant.name}
        if self.seats:
            out["seats"] = ", ".join(self.seats)
        for o in self.settings:
            value = o.value_in(self.options)
            if not o.house_rule and value != o.default:
                out[o.name] = ("1" if value else "0") if o.kind == "bool" else str(value)
        if self.house:
            out["house"] = list(self.house)
        return out

    def fields(self) -> list[tuple[str, str]]:
        """The table as hidden form fields (name, value), in the order a form sends them."""
        out: list[tuple[str, str]] = []
        for name, value in self.query().items():
            for item in value if isinstance(value, list) else [value]:
                out.append((name, str(item)))
        return out

    @property
    def deck(self) -> Mapping[Card, int]:
        """Copies of each card in this table's deck."""
        return _deck(self.variant.name, self.options)

    def holds(self, card: Card | None) -> bool:
        """Whether the deck holds ``card`` (None: no card needed)."""
        return card is None or card in self.deck

    @property
    def draw_wilds(self) -> list[str]:
        """The names of the deck's draw wilds (what a challenge is about)."""
        return [card_name(c) for c in self.deck if c in DRAW_WILDS]

    def house_rules(self) -> list[str]:
        """The table's setup and house rules in plain sentences (the engine's words)."""
        return self.options.describe(self.variant)


@lru_cache(maxsize=64)
def _deck(variant_name: str, options: TableOptions) -> Mapping[Card, int]:
    # Read once per deck: every page asks it, some once per check.
    return engine.find_variant(variant_name).deck_counts(options)


def read_table(values: Mapping[str, Any], game: GameRecord | None) -> TableForm:
    """The table from a game (its variant, options, seats still in, next dealer), or
    from the fields ``variant``, ``seats`` (names, comma-separated), ``house`` (the house
    rules ticked) and each other option by its name (empty: the variant's own)."""
    if game is not None:
        active = game.standings.active
        dealer = game.next_dealer
        return TableForm(game.variant, tuple(game.players[s] for s in active), game.options,
                     game.players[dealer] if dealer in active else None, game)
    try:
        variant = engine.find_variant(str(values.get("variant") or engine.VARIANTS[0].name)[:MAX_TEXT])
    except ValueError:
        variant = engine.VARIANTS[0]
    typed = str(values.get("seats") or "")
    names = [n for n in (clean_name(s) for s in typed[:MAX_SEATS_TEXT].split(",")) if n]
    problem = _seats_problem(variant, names, len(typed) > MAX_SEATS_TEXT)
    options, house, problems = read_options(variant, values)
    # Shown as typed, but never more seats than the variant has, nor longer names than a
    # game's: the pages stay small whatever is typed.
    seats = tuple(n[:MAX_NAME] for n in names[:variant.max_players])
    return TableForm(variant, seats, options, None, None, house, problem, tuple(problems.items()))


def read_options(variant: type[engine.Game], values: Mapping[str, Any]
                 ) -> tuple[TableOptions, tuple[str, ...], dict[str, str]]:
    """The options a table's fields set, every one the engine lists for the variant (an
    option it does not list is not read: a form left from another variant's table); the
    house rules ticked; and what is wrong, by field (the variant's own options then)."""
    ticked = set(_all(values, "house")[:MAX_REPEATS])
    changes: dict[str, bool | int] = {}
    problems: dict[str, str] = {}
    for name in sorted(ticked):
        # A house rule this variant does not play is no silent no-op: the engine says why.
        why = engine.no_effect(variant, name)
        if why is not None:
            problems["house"] = sentence(why)
    for o in engine.table_options(variant):
        if o.house_rule:
            if o.name in ticked:
                changes[o.name] = True
            continue
        given = _all(values, o.name)[-1:]  # a form's hidden default, then what was chosen
        text = given[0].strip().lower()[:MAX_TEXT] if given else ""
        if not text:
            continue
        value: bool | int | None = None
        if o.kind == "bool" and text in ON | OFF:
            value = text in ON
        elif o.kind == "int" and re.fullmatch(r"[0-9]{1,6}", text):
            value = int(text)
        try:
            changes[o.name] = o.check(value)
        except ValueError as exc:
            problems[o.name] = sentence(str(exc))
    house = tuple(name for name, _ in HOUSE_RULES if changes.get(name))
    options = variant.default_options().replace(**changes)
    if not problems:
        try:
            variant.check_options(options)
        except ValueError as exc:
            problems["options"] = sentence(str(exc))
    if problems:
        return variant.default_options(), (), problems
    return options, house, problems


def sentence(text: str) -> str:
    """An engine's or the referee's message as a sentence for the page."""
    text = text.strip()
    return f"{text[:1].upper()}{text[1:]}" + ("" if text.endswith((".", "!", "?")) else ".")


def _seats_problem(variant: type[engine.Game], names: list[str], cut: bool) -> str | None:
    """What a game's new-game form would say of these seats (companion/forms.py): the same
    caps on names and players."""
    if not any(len(n) > engine.MAX_NAME for n in names) and (
            cut or len(names) > variant.max_players):
        return (f"{variant.title} is for {variant.min_players} to {variant.max_players} "
                f"players{'' if cut else f'; you entered {len(names)}'}.")
    return engine.names_problem(names)  # the games' rule for names (engine.names)


def _all(values: Mapping[str, Any], name: str) -> list[str]:
    """Every value sent for ``name`` (a form's repeated field), or the one."""
    getlist = getattr(values, "getlist", None)
    if getlist is not None:
        return [str(v) for v in getlist(name)]
    value = values.get(name)
    return [] if value is None else [str(value)]


# -- fields -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Field:
    """One question a check's form asks.

    ``kind`` says how it is asked and read: ``seat`` (a seat's name), ``color``,
    ``direction``, ``card`` (one card), ``cards`` (a list of cards), ``hand`` (a list of
    cards, or only how many), ``hands`` (a ``hand`` per seat), ``count`` (how many cards
    a pile holds), ``flag`` (a tick box), ``lever`` (a Wild Jackpot lever outcome) or
    ``mode`` (a scoring mode).
    """

    name: str
    kind: str
    label: str
    hint: str = ""
    #: What to say when it is left empty; empty for an optional field.
    required: str = ""
    #: Asked under "More about the situation": the referee fills it in when not given.
    more: bool = False
    #: For an optional seat or color: what the "not given" choice says.
    blank: str = "Not given"
    #: The check's keyword argument the field answers (its own name if empty); a tick box
    #: with ``negate`` answers the opposite ("not yet" for ``played``). The fields that
    #: describe the scene (SCENE_FIELDS) give the Scene instead.
    keyword: str = ""
    negate: bool = False
    #: Asked only where the variant has a Wild Jackpot lever (as a ``lever`` field is).
    lever_only: bool = False

    def offered(self, table: TableForm) -> bool:
        """Whether this table is asked it: the lever's outcome, whom its "choose" picked
        and the rule-card unit only where the variant has a lever (the engine says which)."""
        return (self.kind != "lever" and not self.lever_only) or table.variant.has_lever()

    def names(self, table: TableForm) -> list[str]:
        """The form fields this question sends."""
        if self.kind == "hand":
            return [self.name, f"{self.name}_count"]
        if self.kind == "hands":
            return [n for i in range(len(table.seats))
                    for n in (f"{self.name}-{i}", f"{self.name}-{i}_count")]
        return [self.name]

    def describe(self, table: TableForm) -> dict[str, Any]:
        """The field as the JSON description of a check lists it; a count with its bounds
        (``low``, ``high``: the engine's deck and rule-card unit, R2, R17)."""
        out = {"name": self.name, "kind": self.kind, "label": self.label,
               "required": bool(self.required), "sends": self.names(table)}
        if self.kind == "count":
            most = (table.variant.rule_cards if self.name == "rule_cards"
                    else sum(table.deck.values()))
            out.update(low=0, high=most)
        return out


def _text(values: Mapping[str, Any], name: str, limit: int = MAX_TEXT) -> str | None:
    text = " ".join(str(values.get(name) or "").split())
    if len(text) > limit:
        raise FormErrors({name: "That is far too long for this field."})
    return text or None


def _count(values: Mapping[str, Any], name: str, label: str) -> int | None:
    text = (str(values.get(name) or "")).strip()
    if not text:
        return None
    # ASCII digits only: str.isdigit() also passes "²", which int() refuses.
    if not re.fullmatch(r"[0-9]{1,4}", text):
        raise FormErrors({name: f"{label}: give a number of cards, like 3."})
    return int(text)


def _card_list(values: Mapping[str, Any], name: str) -> str | None:
    """A list of cards as typed, no longer than a deck."""
    text = _text(values, name, MAX_CARDS_TEXT)
    if text is not None and len(_cards(text)) > MAX_CARDS:
        raise FormErrors({name: "That is more cards than a deck holds."})
    return text


def _hand(values: Mapping[str, Any], name: str, label: str) -> str | int | None:
    """A hand: its cards as text, else only how many cards it holds, else unknown (None)."""
    cards = _card_list(values, name)
    if cards is not None:
        return cards
    return _count(values, f"{name}_count", label)


def read_field(f: Field, table: TableForm, values: Mapping[str, Any]) -> Any:
    """The value the referee gets for one field; :class:`FormErrors` if it cannot be read."""
    if f.kind == "flag":
        return bool(values.get(f.name))
    if f.kind == "hand":
        value: Any = _hand(values, f.name, f.label)
    elif f.kind == "count":
        value = _count(values, f.name, f.label)
    elif f.kind == "hands":
        value = {}
        for i, name in enumerate(table.seats):
            held = _hand(values, f"{f.name}-{i}", f"{name}'s cards")
            if held is not None:
                value[name] = held
        return value
    elif f.kind in ("cards",):
        value = _card_list(values, f.name)
    else:
        value = _text(values, f.name)
    if value is None and f.kind == "direction":
        value = engine.Direction.CLOCKWISE.words
    if value is None and f.name == "dealer" and table.dealer:
        value = table.dealer
    if value is None and f.required:
        raise FormErrors({f.name: f.required})
    return value


def read_fields(fields: Iterable[Field], table: TableForm, values: Mapping[str, Any], *,
                seated: bool = True) -> dict[str, Any]:
    """Every one of ``fields``, read; :class:`FormErrors` with each problem by field, and
    the seats' where the fields need them (``seated``)."""
    errors: dict[str, str] = {}
    if not table.seats and seated:
        errors["seats"] = "Name the players first, in clockwise order."
    elif table.seats_problem and seated:
        errors["seats"] = table.seats_problem
    out: dict[str, Any] = {}
    for f in fields:
        try:
            out[f.name] = read_field(f, table, values)
        except FormErrors as exc:
            errors.update(exc.errors)
    if errors:
        raise FormErrors(errors)
    return out


# -- the checks -------------------------------------------------------------------------------

#: A check of :mod:`engine.referee`: the scene, then the question as keyword arguments.
Ask = Callable[..., Verdict]
#: The fields that describe the scene (what the table knows) rather than the question:
#: the Scene's argument each gives.
SCENE_FIELDS = {"direction": "direction", "top": "top", "color": "color", "counts": "hands",
                "hands": "hands", "draw_pile": "draw_pile", "rule_cards": "rule_cards"}


@dataclass(frozen=True)
class Check:
    """One question the referee answers: its page, its fields, and the referee's check."""

    #: Its address under /referee/.
    slug: str
    title: str
    question: str
    fields: tuple[Field, ...]
    ask: Ask
    #: Whether the check needs the seats (every check but "Can I play this?").
    seated: bool = True
    #: A house rule the check is about (a TableOptions switch), and what to say up front
    #: at a table that does not play it.
    house_rule: tuple[str, str] | None = None
    #: How the referee's refusals name the top field's card.
    top_is: str = "the top card"

    @property
    def card(self) -> Card | None:
        """The special card the check is about, as the engine's question says: offered
        only where the deck holds it."""
        return referee.QUESTION_CARD.get(self.ask)

    def fields_at(self, table: TableForm) -> list[Field]:
        """The fields this table is asked (the lever's only where there is one)."""
        return [f for f in self.fields if f.offered(table)]

    def more_given(self, table: TableForm, values: Mapping[str, Any]) -> bool:
        """Whether any optional detail was given (so the page shows them open)."""
        for f in self.fields_at(table):
            for name in f.names(table) if f.more else ():
                value = str(values.get(name) or "")
                if value and not (f.kind == "direction" and value == engine.Direction.CLOCKWISE.words):
                    return True
        return False

    def asks(self, table: TableForm) -> str:
        """The question, with the table's draw wild named where it says {wild}; at a table
        without the check's house rule, the referee's word on that follows."""
        question = self.question.format(wild=" or ".join(table.draw_wilds) or "draw wild")
        if self.house_rule is not None and not getattr(table.options, self.house_rule[0]):
            off = self.house_rule[1]
            question += f" {off[:1].upper()}{off[1:]}."
        return question

    def describe(self, table: TableForm) -> dict[str, Any]:
        """The check as JSON: what it asks and the fields it reads."""
        return {"check": self.slug, "title": self.title, "question": self.asks(table),
                "fields": [f.describe(table) for f in self.fields_at(table)],
                "options": {o.name: o.value_in(table.options) for o in table.settings},
                "table_options": [describe_option(o) for o in table.settings]}


def describe_option(o: engine.TableOption) -> dict[str, Any]:
    """A table option as JSON lists it: what a query may set, and within which bounds."""
    out: dict[str, Any] = {"name": o.name, "label": o.label, "kind": o.kind,
                           "default": o.default, "ruling": o.ruling,
                           "house_rule": o.house_rule,
                           "sends": "house" if o.house_rule else o.name}
    if o.kind == "int":
        out.update(low=o.low, high=o.high)
    return out


def _cards(text: str | None) -> list[str]:
    return (text or "").replace(",", " ").split()


# The questions most checks share about the moment of the play.
_DIRECTION = Field("direction", "direction", "Direction of play", more=True)
_TOP = Field("top", "card", "The card it was played on", more=True,
             hint="Leave it out and the referee uses a card it could go on.")
_COLOR = Field("color", "color", "The color in play before it", more=True,
               hint="Needed when the card on top is a wild.")
_NAMED = Field("named", "color", "The color named with a wild", more=True,
               blank="The color in play")
_TARGET = Field("target", "seat", "The player a swap named", more=True)
_COUNTS = Field("counts", "hands", "How many cards each player held", more=True,
                hint="Cards or only how many; anyone left out holds a deal's worth.")
#: Direction, the card it went on, the color in play: asked together by most checks.
_MOMENT = (_DIRECTION, _TOP, _COLOR)
#: The piles, for a question where one may run out (R2, R17).
_DRAW_PILE = Field("draw_pile", "count", "Cards left on the draw pile", more=True,
                   hint="Leave it out unless the draw pile is running low or empty.")
_RULE_CARDS = Field("rule_cards", "count", "Rule cards left in the Jackpot unit", more=True,
                    hint="Leave it out unless the unit is running low or empty.",
                    lever_only=True)
_CHOSEN = Field("chosen", "seat", "Whom they chose to perform a rule card", more=True,
                blank="Not said yet", lever_only=True)
# The special cards' checks ask these up front.
_NAMED_BY_PLAYER = Field("named", "color", "The color they named", blank="The color in play")
_COUNTS_BEFORE = Field("counts", "hands", "How many cards each player held",
                       hint="Before the play; anyone left out holds a deal's worth.")


def scene_and_question(check: Check, table: TableForm,
                       values: Mapping[str, Any]) -> tuple[Scene, dict[str, Any]]:
    """A check's form, read: the scene its fields describe, built (and so checked) once,
    and the question the check asks of it, as its keyword arguments. :class:`FormErrors`
    for fields that cannot be read, a :class:`~engine.referee.RefereeError` for a scene
    that cannot be."""
    fields = check.fields_at(table)
    read = read_fields(fields, table, values, seated=check.seated)
    given: dict[str, Any] = {}
    question: dict[str, Any] = {}
    hands_are = "hands"
    for f in fields:
        value = read[f.name]
        if f.name in SCENE_FIELDS:
            given[SCENE_FIELDS[f.name]] = value
            hands_are = f.name if SCENE_FIELDS[f.name] == "hands" else hands_are
        else:
            question[f.keyword or f.name] = not value if f.negate else value
    for f in check.fields:
        # A pile this table does not have (the rule-card unit where there is no lever),
        # given anyway: passed on, for the engine to refuse, rather than dropped in silence.
        if f.name in SCENE_FIELDS and f not in fields and _text(values, f.name):
            given[SCENE_FIELDS[f.name]] = read_field(f, table, values)
    # A check that needs no seats ("Can I play this?") is asked without them: the table
    # may not have named its players, or named them wrong.
    scene = Scene(table.variant, table.seats if check.seated else (), options=table.options,
                  top_is=check.top_is, hands_are=hands_are, **given)
    return scene, question


def question_pairs(check: Check, table: TableForm,
                   values: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A check's question as a link's query, or as a ruling keeps its dispute: the table's
    fields, then each field the check reads at this table that was given, once (the value
    it reads, the first), in the order sent, spaces collapsed, no longer than the field
    reads. Anything else sent is no part of the question (and was once kept whole: 40
    saves made a 10 MB log)."""
    longest = {name: MAX_CARDS_TEXT if f.kind in ("cards", "hand", "hands") else MAX_TEXT
               for f in check.fields_at(table) for name in f.names(table)}
    out = table.fields()
    for name, value in _pairs(values):
        if name in longest:
            text = " ".join(str(value).split())[:longest.pop(name)]
            if text:
                out.append((name, text))
    return out


def _pairs(values: Mapping[str, Any]) -> list[tuple[str, Any]]:
    if isinstance(values, MultiDict):
        return list(values.items(multi=True))
    return list(values.items())


def ask(check: Check, table: TableForm, values: Mapping[str, Any]) -> Verdict:
    """The referee's verdict on a check's form (see :func:`scene_and_question`)."""
    scene, question = scene_and_question(check, table, values)
    verdict = check.ask(scene, **question)
    if not verdict.followed and verdict.too_open:  # no case at all: refused, saying what to tell
        raise TooOpenError(verdict.too_open)
    return verdict


CHECKS: tuple[Check, ...] = (
    Check("challenge", "Challenge!", "Was that {wild} legal, or a bluff?", (
        Field("by", "seat", "Who played the wild?", required="Tap who played the wild.",
              keyword="wild_by"),
        Field("color", "color", "The color in play before the wild",
              hint="The color on the pile just before the wild went down.",
              required="Tap the color in play before the wild."),
        Field("hand", "hand", "The hand they show after it",
              hint="Tap each card they still hold. Not shown? Give only how many."),
        Field("top", "card", "The card under the wild", more=True,
              hint="It matters where a wild may only go on no other playable card."),
        _DIRECTION, Field("named", "color", "The color the wild named", more=True,
                          blank="Not given"),
        _DRAW_PILE,
    ), referee.challenge, top_is="the card under the wild"),
    Check("play", "Can I play this?", "Can this card go on the pile now?", (
        Field("top", "card", "The card on top of the pile", required="Tap the card on top."),
        Field("card", "card", "The card to play", required="Tap the card to play."),
        Field("color", "color", "The color in play",
              hint="Only needed when the card on top is a wild."),
        Field("player", "seat", "Who wants to play it?", blank="Someone"),
        Field("hand", "hand", "Their whole hand", more=True,
              hint="For a draw wild: the referee says whether it would be a bluff."),
        _NAMED,
        Field("drawn", "card", "The card they just drew this turn", more=True,
              hint="Asks what they may play after drawing it; their hand is then before the "
                   "draw."),
    ), referee.can_play, seated=False),
    Check("first-card", "First card", "What does the first card turned up do?", (
        Field("dealer", "seat", "Who dealt?", required="Tap who dealt."),
        Field("cards", "cards", "The card turned up",
              hint="If cards went back into the deck first, tap them all, in order.",
              required="Tap the card turned up."),
        Field("named", "color", "The color named for a Wild turned up", more=True),
        Field("chosen", "seat", "Whom they chose to perform a rule card, for a Jackpot "
              "turned up", more=True, blank="Not said yet", lever_only=True),
    ), referee.first_card),
    Check("next", "Who's next?", "Who plays after this card, and who draws?", (
        Field("turn", "seat", "Who played?", required="Tap who played the card."),
        Field("card", "card", "The card they played", required="Tap the card played."),
        *_MOMENT, _NAMED, _TARGET,
        Field("lever", "lever", "What the Jackpot lever showed", more=True),
        _CHOSEN, _RULE_CARDS, _COUNTS, _DRAW_PILE,
    ), referee.whos_next),
    Check("uno", "UNO!", "Can they still be caught not calling UNO?", (
        Field("player", "seat", "Who is down to one card?", required="Tap who has one card."),
        Field("catcher", "seat", "Who caught them?", blank="Nobody yet"),
        Field("called", "flag", "They have called UNO since"),
        Field("next_began", "flag", "The next player has begun their turn (played or drew)"),
        Field("card", "card", "Their next-to-last card, the one they played", more=True),
        Field("not_yet", "flag", "They have not played that card yet", more=True,
              keyword="played", negate=True),
        Field("caught_by", "seat", "Who caught them already", more=True, blank="Nobody"),
        *_MOMENT, _NAMED, _TARGET, _DRAW_PILE,
    ), referee.uno_catch),
    Check("end", "End of hand", "Who went out, who draws, and the points.", (
        Field("went_out", "seat", "Who went out?", required="Tap who went out."),
        Field("last_card", "card", "Their last card", required="Tap their last card."),
        Field("hands", "hands", "What the others hold",
              hint="Tap each player's cards, or give only how many."),
        Field("drawn", "cards", "Cards drawn for a final draw card, top of the pile first",
              more=True),
        Field("mode", "mode", "How the game is scored", more=True),
        *_MOMENT, _NAMED, _DRAW_PILE,
    ), referee.end_of_hand),
    Check("special/wild-dip", "Wild Dip", "Wild Dip Into The Deck, step by step.", (
        Field("player", "seat", "Who played the Wild Dip?", required="Tap who played it."),
        _NAMED_BY_PLAYER,
        Field("drawn", "card", "The card they drew"),
        Field("give", "card", "The card they gave the next player"),
        Field("hand", "hand", "Their hand before the play", more=True),
        *_MOMENT, _COUNTS,
    ), referee.wild_dip),
    Check("special/swap-hands", "Swap Hands", "Wild Swap Hands: who ends up with what.", (
        Field("player", "seat", "Who played Swap Hands?", required="Tap who played it."),
        Field("swap_with", "seat", "Whom they swap with", blank="Not said yet",
              keyword="target"),
        _NAMED_BY_PLAYER, _COUNTS_BEFORE, *_MOMENT,
    ), referee.swap_hands),
    Check("special/seven-zero", "7-0", "A 7 or a 0 under the 7-0 house rule.", (
        Field("player", "seat", "Who played it?", required="Tap who played the card."),
        Field("card", "card", "The 7 or 0 they played", required="Tap the card played."),
        Field("swap_with", "seat", "Whom a 7 swaps with", blank="Not said yet",
              keyword="target"),
        _COUNTS_BEFORE, *_MOMENT,
    ), referee.seven_zero, house_rule=("seven_o", SEVEN_ZERO_OFF)),
    Check("special/jump-in", "Jump-in", "Can they jump in out of turn?", (
        Field("jumper", "seat", "Who jumps in?", required="Tap who jumps in."),
        Field("top", "card", "The card on top of the pile", required="Tap the card on top."),
        Field("turn", "seat", "Whose turn it was", required="Tap whose turn it was."),
        _DIRECTION, _TARGET,
    ), referee.jump_in, house_rule=("jump_in", JUMP_IN_OFF)),
    Check("special/droid", "Build a Droid", "Let's Build a Droid, round by round.", (
        Field("player", "seat", "Who played the Droid?", required="Tap who played it."),
        _NAMED_BY_PLAYER,
        Field("hands", "hands", "What each player holds",
              hint="The Droid's player without the Droid; only how many where unknown."),
        Field("lays", "cards", "The cards laid so far, in order", more=True),
        *_MOMENT,
    ), referee.build_droid),
)

BY_SLUG = {c.slug: c for c in CHECKS}
#: The first checks are asked for straight away; the special cards have a page of their own.
MAIN = tuple(c for c in CHECKS if not c.slug.startswith("special/"))
SPECIAL = tuple(c for c in CHECKS if c.slug.startswith("special/"))


def offered(checks: tuple[Check, ...], table: TableForm) -> list[Check]:
    """The checks a table can ask: a special card's only where the deck holds it."""
    return [c for c in checks if table.holds(c.card)]


# -- sources ----------------------------------------------------------------------------------


def citation_path(variant: str, citation: str) -> str:
    """Where a citation is explained: the section of the variant's "Rules at hand" that
    gives that ruling (R10) or quotes that part of the sheet, the house-rules section for
    a house rule; the rules' top otherwise."""
    found = engine.find_variant(variant)
    anchor = _citation_anchor(found.name, citation)
    if anchor is not None:
        return rule_url(found, anchor)
    return rules_page_url(found.name)


@lru_cache(maxsize=1024)
def _citation_anchor(variant: str, citation: str) -> str | None:
    """The anchor of the section that explains ``citation`` (looked up once: an answer
    cites a dozen times, and the rules never change while the app runs)."""

    # A house rule ("house rule: 7-0") is a table option, no part of the sheet: the rules
    # explain every one in their house-rules section.
    house = citation.startswith("house rule")

    def fit(section: Any) -> tuple[bool, bool, bool, bool, bool]:
        # The section a ruling or sheet part belongs to first, before those that mention it.
        return (section.rulings[:1] == (citation,), citation in section.rulings,
                section.sources[:1] == (citation,), citation in section.sources,
                house and section.anchor == "house-rules")

    best = max(rulebook(variant), key=fit)
    return best.anchor if any(fit(best)) else None
