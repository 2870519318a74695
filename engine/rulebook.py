"""Each variant's rules by topic, in the project's own words: what the rules pages show.

A variant's rulebook is a tuple of :class:`Section`, each with a stable anchor (the
``#anchor`` other pages link to), a title, a few plain sentences (and sometimes a list),
and where it comes from: the sections of the variant's rule sheet and the rulings R1-R37
(docs/rulings.md restates them). Facts the engine already holds (the player range, the
hand size, the deck's cards, the points, the target, the UNO penalty, whether a draw wild
can be challenged, the lever's outcomes, the house rules' sentences) are read from the
variant class and the modules that state them, so each is written once.

>>> section("pizza-pizza", "setup").text[0]
'UNO Pocket Pizza Pizza is for 2 to 5 players.'
>>> section("classic", "wild-draw-4").citation
'classic sheet, Wild Draw 4 Card; R10, R4'
>>> [s.anchor for s in rulebook("one")][:4]
['setup', 'first-card', 'turn', 'number-cards']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from .card_facts import DRAW_OF, DRAW_WILDS, RANK_FACTS
from .cards import COLORS, Card, Rank, card
from .game import (
    RETURNED_FIRST,  # the first cards that go back (R8, R19, R23)
    Game,
)
from .jackpot import LEVER_OUTCOMES
from .options import TableOptions, table_options
from .variants import find_variant

__all__ = ["Section", "UnknownSectionError", "rulebook", "section"]


class UnknownSectionError(ValueError):
    """A variant's rulebook has no section with this anchor."""


@dataclass(frozen=True)
class Section:
    """One topic of a variant's rules, as its rules page shows it."""

    #: The id on the page (``/rules/<variant>#<anchor>``): stable, other pages link to it.
    anchor: str
    title: str
    #: A few plain sentences, read in order.
    text: tuple[str, ...]
    #: Points shown as a list after the text (the first card's cases, the points...).
    items: tuple[str, ...] = ()
    #: Where the variant's rule sheet says it: "classic sheet, Wild Draw 4 Card".
    sources: tuple[str, ...] = ()
    #: The rulings that settle it: "R10".
    rulings: tuple[str, ...] = ()

    @property
    def citation(self) -> str:
        """Sources, then rulings: ``"classic sheet, Wild Draw 4 Card; R10, R4"``."""
        parts = list(self.sources)
        if self.rulings:
            parts.append(", ".join(self.rulings))
        return "; ".join(parts)


Variant = type[Game]


def rulebook(variant: Variant | str) -> tuple[Section, ...]:
    """Every section of a variant's rules (a class or a name), in reading order.

    Raises ValueError for an unknown variant name.
    """
    return _book((find_variant(variant) if isinstance(variant, str) else variant).name)


def section(variant: Variant | str, anchor: str) -> Section:
    """The section of a variant's rules with this anchor; UnknownSectionError if none."""
    for found in rulebook(variant):
        if found.anchor == anchor:
            return found
    name = variant if isinstance(variant, str) else variant.name
    raise UnknownSectionError(f"the {name} rules have no section {anchor!r}")


@cache
def _book(name: str) -> tuple[Section, ...]:
    v = find_variant(name)
    sections: list[Section | None] = [_setup(v), _first_card(v), _turn(v)]
    sections += [_CARDS[rank](v, rank) for rank in _kinds(v)]
    sections += [_lever(v), _uno(v), _challenges(v), _two_players(v), _going_out(v),
                 _scoring(v), _house_rules(v)]
    return tuple(s for s in sections if s is not None)


# -- what the sheets say where the engine's topics do not ------------------------------------


@dataclass(frozen=True)
class _Sheet:
    """Where a variant's sheet lists its deck and its points, and the rulings on them."""

    deck: str
    deck_rulings: tuple[str, ...]
    scoring: str | None
    scoring_rulings: tuple[str, ...]
    setup_note: str = ""
    scoring_note: str = ""


_SHEETS = {
    "classic": _Sheet("Contents", ("R7",), "Scoring", ("R15",)),
    "wild-jackpot": _Sheet("Components", ("R16", "R17"), "Scoring", ("R21",)),
    "pizza-pizza": _Sheet(
        "contents", ("R22",), "scoring", ("R26",),
        setup_note="The sheet counts 52 cards but only describes 51: those 51 are the deck."),
    "one": _Sheet("One Rules", ("R27",), None, ("R32",)),
    "star-wars": _Sheet(
        "Contents", ("R33",), "Keeping Score (Optional Victory Method)", ("R37",),
        setup_note=("The box has a second, shiny Droid card: play with one Droid card or "
                    "the other, never both."),
        scoring_note="Points are optional: a table may simply count who wins each hand."),
}


# -- small helpers ---------------------------------------------------------------------------

_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                 "ten")


def _words(n: int) -> str:
    """A small count in words ("two"), a larger one in figures."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def _plural(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _listed(names: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


def _unique(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))


def _sample(rank: Rank) -> Card:
    """One card of this rank: colored ranks in the first color."""
    return card(rank, COLORS[0] if rank.is_colored else None)


def _name(rank: Rank) -> str:
    """A kind of card as people say it, without a color: "Skip", "Wild Draw 4"."""
    return RANK_FACTS[rank].name


def _full_deck(v: Variant) -> dict[Card, int]:
    """Every card the box can put in the deck: classic's table cards included."""
    options = TableOptions(blank_cards=1) if v.max_table_cards else None
    return v.deck_counts(options)


def _kinds(v: Variant) -> list[Rank]:
    """The kinds of card in the deck, in the deck's order, the numbers as one kind (0)."""
    ranks = (Rank.ZERO if c.rank.is_number else c.rank for c in _full_deck(v))
    return list(dict.fromkeys(ranks))


def _in_deck(v: Variant, ranks: Iterable[Rank]) -> list[Rank]:
    deck = {c.rank for c in _full_deck(v)}
    return [r for r in ranks if r in deck]


def _draw_ranks(v: Variant) -> list[Rank]:
    """Kinds of card in the deck that make the next player draw, colored ones first."""
    return [r for r in _kinds(v) if _sample(r) in DRAW_OF]


def _draws(rank: Rank) -> int:
    return RANK_FACTS[rank].draws


def _make(v: Variant, anchor: str, title: str, text: Iterable[str], *,
          items: Iterable[str] = (), topics: Iterable[str] = (), sources: Iterable[str] = (),
          rulings: Iterable[str] = ()) -> Section:
    """A section citing the sheet sections and rulings the engine gives its ``topics``
    (``Game.sections``, what the events cite too), after ``sources``, before ``rulings``."""
    found_sources = [f"{v.sheet}, {where}" for where in sources]
    found_rulings: list[str] = []
    for topic in topics:
        where, ruling = v.sections[topic]
        if where is not None and not where.startswith("house rule"):
            found_sources.append(f"{v.sheet}, {where}")
        if ruling.startswith("R"):
            found_rulings.append(ruling)
    found_rulings += rulings
    return Section(anchor, title, tuple(text), tuple(items), _unique(found_sources),
                   _unique(found_rulings))


# -- setting up and playing a turn -----------------------------------------------------------


def _setup(v: Variant) -> Section:
    sheet = _SHEETS[v.name]
    text = [f"{v.title} is for {v.min_players} to {v.max_players} players."]
    if v.max_table_cards:
        defaults = v.default_options()
        standard = len(v.deck(defaults.replace(wild_swap=False, blank_cards=0)))
        swap = ("in unless the table takes it out" if defaults.wild_swap
                else "out unless the table adds it")
        blanks = ("none unless the table adds some" if not defaults.blank_cards
                  else f"{defaults.blank_cards} unless the table changes that")
        text += [f"The deck has {standard} standard cards.",
                 (f"Before the first deal the table may add up to {v.max_table_cards} table "
                 f"cards: the Wild Swap Hands card ({swap}) and blank cards ({blanks}).")]
    else:
        text.append(f"The deck has {len(v.deck())} cards.")
    rule_cards = v.rule_cards
    if rule_cards:
        text.append(f"The box also has {rule_cards} rule cards, which are never dealt. Share "
                    "them out equally and put any left over aside. Everyone writes a rule of "
                    "their own on each of theirs; then shuffle the written cards and load "
                    "them into the Wild Jackpot machine. With more players than cards, "
                    f"the first {_words(rule_cards)} players write one each.")
    if sheet.setup_note:
        text.append(sheet.setup_note)
    text += [(f"Pick a dealer and shuffle. The dealer gives each player {v.hand_size} cards, "
             "one at a time, starting on their left."),
             "The other cards go face down in the middle: they are the draw pile."]
    return _make(v, "setup", "Setting up", text, topics=["setup"], sources=[sheet.deck],
                 rulings=[*sheet.deck_rulings, "R1"])


def _first_card(v: Variant) -> Section:
    text = ["Flip the draw pile's top card face up: it starts the discard pile.",
            ("The player on the dealer's left goes first, and play moves clockwise (to the "
            "left).")]
    if v.first_card_numbers_only:
        text.append("If the card is not a number card, put it back into the deck and turn "
                    "over the next one, until a number card shows.")
        return _make(v, "first-card", "The first card", text, topics=["first", "first-return"])
    text.append("If the first card is a special card:")
    items: list[str] = []
    topics = ["first"]
    left = "the player on the dealer's left"
    for rank in _kinds(v):
        c = _sample(rank)
        if c in RETURNED_FIRST:
            continue  # listed together at the end
        name = _name(rank)
        if rank is Rank.SKIP:
            items.append(f"{name}: {left} misses their turn, so the next player starts.")
            topics.append("first-skip")
        elif c in DRAW_OF:
            items.append(f"{name}: {left} draws {_plural(_draws(rank), 'card')} and misses "
                         "their turn, so the next player starts.")
            topics.append("first-draw")
        elif rank is Rank.REVERSE:
            if v.first_reverse_right_of_dealer:
                items.append(f"{name}: the player on the dealer's right starts, and play moves "
                             "counter-clockwise. With two players, that is the player who did "
                             "not deal.")
            else:
                items.append(f"{name}: the dealer starts, and play moves counter-clockwise.")
            topics.append("first-reverse")
        elif rank is Rank.WILD:
            items.append(f"{name}: {left} picks the color, then plays.")
            topics.append("first-wild")
        elif rank is Rank.WILD_SWAP:
            items.append(f"{name}: {left} picks the color, may swap hands with another "
                         "player, then plays.")
            topics.append("first-swap")
        elif rank is Rank.JACKPOT:
            items.append(f"{name} or Wild Jackpot: {left} picks any player, who does what "
                         "a rule card from the machine says. Then the player on the dealer's "
                         "left plays (for a Wild Jackpot, after picking the color).")
            topics.append("first-jackpot")
    returned = [_name(r) for r in _kinds(v) if _sample(r) in RETURNED_FIRST]
    if returned:
        items.append(f"{_listed(returned, 'or')}: put it back into the deck and turn over the "
                     "next card.")
        topics.append("first-return")
    return _make(v, "first-card", "The first card", text, items=items, topics=topics)


def _turn(v: Variant) -> Section:
    text = [("On your turn, play one card that matches the top card of the discard pile: the "
            "same color, or the same number or symbol."),
            ("Wild cards go on anything. After a wild, only the color its player named "
            "matches (or another wild)."),
            "If you cannot play, or would rather not, take one card from the draw pile."]
    if v.may_play_drawn_card:
        text.append("If that card can be played, you may play it straight away; no other "
                    "card. If not, your turn is over.")
    else:
        text.append("Your turn is then over: a card you draw is never played on the same "
                    "turn.")
    text.append("When the draw pile runs out, shuffle the discard pile, all but its top card, "
                "into a new draw pile. If there is still nothing to draw and you cannot play, "
                "you pass.")
    return _make(v, "turn", "Your turn", text,
                 topics=["play", "draw", "after-draw", "reshuffle", "pass"])


# -- the cards -------------------------------------------------------------------------------


def _how_many(v: Variant, rank: Rank) -> str:
    name = _name(rank)
    if rank.is_colored:
        per = v.colored_counts[rank]
        return (f"There are {per * len(COLORS)} {name} cards: {_words(per)} in each color.")
    n = _full_deck(v)[card(rank)]
    return f"There is one {name} card." if n == 1 else f"There are {n} {name} cards."


def _numbers(v: Variant, _: Rank) -> Section:
    counts = [(r.number or 0, n) for r, n in v.colored_counts.items() if r.is_number]
    runs: list[list[int]] = []  # [first, last, copies] for numbers in a row with equal copies
    for number, n in counts:
        if runs and runs[-1][2] == n and runs[-1][1] == number - 1:
            runs[-1][1] = number
        else:
            runs.append([number, number, n])
    parts = [f"{_words(n)} {a}" if a == b else f"{_words(n)} of each number from {a} to {b}"
             for a, b, n in runs]
    total = sum(n for _, n in counts) * len(COLORS)
    text = [f"There are {total} number cards. In each color: {_listed(parts)}.",
            "Play a number card on the same color or on the same number."]
    if v.has_points():
        text.append("Left in a hand, a number card scores its number.")
    return _make(v, "number-cards", "Number cards", text, topics=["play"])


def _colored_action(v: Variant, rank: Rank) -> Section:
    name = _name(rank)
    text = [_how_many(v, rank)]
    if rank is Rank.SKIP:
        text.append("The next player misses their turn.")
        topic = "skip"
    elif rank is Rank.REVERSE:
        text.append("The direction of play turns round: clockwise becomes counter-clockwise, "
                    "and back again.")
        topic = "reverse"
    else:
        text.append(f"The next player draws {_plural(_draws(rank), 'card')} and misses their "
                    "turn. They cannot pass it on by playing a draw card of their own.")
        topic = "draw1" if rank is Rank.DRAW1 else "draw2"
    text.append(f"Play it on a card of the same color, or on another {name}.")
    rulings = ["R11"] if topic.startswith("draw") else []
    return _make(v, RANK_FACTS[rank].anchor, name, text, topics=[topic], rulings=rulings)


def _jackpot(v: Variant, rank: Rank) -> Section:
    text = [_how_many(v, rank)]
    if rank.is_wild:
        text.append("It is a wild: play it on any card, even when you could play another, "
                    "and pick the color.")
        where = "Wild Jackpot Card"
    else:
        text.append("Play it on a card of the same color, or on another Jackpot.")
        where = "Jackpot Card"
    text.append("Then pull the lever of the Wild Jackpot machine and do what it shows (see "
                "\"The Jackpot lever\"). After that, the next player takes their turn.")
    return _make(v, RANK_FACTS[rank].anchor, _name(rank), text, sources=[where], topics=["jackpot"])


def _wild(v: Variant, rank: Rank) -> Section:
    text = [_how_many(v, rank),
            "Play it on any card and pick the color that comes next (the same color is fine).",
            "You may play it even when you hold other cards you could play."]
    return _make(v, RANK_FACTS[rank].anchor, _name(rank), text, topics=["wild"])


def _draw_wild(v: Variant, rank: Rank) -> Section:
    name, k = _name(rank), _draws(rank)
    text = [_how_many(v, rank), "It is a wild: play it on any card and pick the color."]
    topic = "wd4" if rank is Rank.WILD_DRAW4 else "wd2"
    topics = [topic]
    if not v.challenges:
        text += [f"The next player draws {k} cards and misses their turn.",
                 "You may play it whenever you like, and nobody can challenge it."]
        return _make(v, RANK_FACTS[rank].anchor, name, text, topics=topics)
    rest = v.bluff_words.removeprefix("held ")
    text += [(f"The next player draws {k} cards and misses their turn, unless they challenge "
             "you (see \"Challenges\")."),
             f"You may not play it while you hold {rest}."]
    if v.bluff_words == Game.bluff_words:  # the standard test (R10, R20), not R25's or R35's
        text.append("A card of another color does not count, even one with the same number "
                    "or symbol, and neither does another wild.")
    return _make(v, RANK_FACTS[rank].anchor, name, text, topics=[*topics, "challenge-won"])


def _wild_swap(v: Variant, rank: Rank) -> Section:
    text = [_how_many(v, rank),
            ("It is a wild: play it on any card and pick the color. Then swap your whole hand "
            "with the hand of any other player you choose."),
            "Played as your last card, it just ends the hand: there is no swap."]
    return _make(v, RANK_FACTS[rank].anchor, _name(rank), text, topics=["swap"], rulings=["R7"])


def _blank(v: Variant, rank: Rank) -> Section:
    value = v.points_for(card(rank)) if v.has_points() else None
    text = [("The box has blank cards. A table can write a rule of its own on each one and "
            "shuffle some into the deck, agreed before the first deal (see \"Setting up\")."),
            ("A blank is played like a Wild: on any card, picking the color. Then the table "
            "does what is written on it.")]
    if value is not None:
        text.append(f"Left in a hand, a blank scores {value} points, or what the table chose.")
    text.append("A blank used in place of a lost card is simply the card it replaces.")
    return _make(v, RANK_FACTS[rank].anchor, "Blank cards", text, topics=["blank"],
                 rulings=["R7", "R14"])


def _dip(v: Variant, rank: Rank) -> Section:
    text = [_how_many(v, rank),
            "It is a wild: play it on any card and pick the color.",
            ("Then pick up one card. Next, choose any card in your hand (the new one too) and "
            "hand it to the player after you. They still take their turn.")]
    return _make(v, RANK_FACTS[rank].anchor, _name(rank), text, topics=["dip"])


def _droid(v: Variant, rank: Rank) -> Section:
    text = [_how_many(v, rank),
            "It is a wild: play it on any card and pick the color.",
            ("Then put one colored card from your hand face up in front of you. If you have "
            "none, you fail straight away."),
            ("Going round in the direction of play, each next player puts down a card whose "
             "color differs from the one put down just before. Wild cards cannot be used."),
            ("The first player who cannot do it draws 3 cards. Then everyone takes back the "
            "cards they put down, and play goes on with the player after you.")]
    return _make(v, RANK_FACTS[rank].anchor, _name(rank), text, topics=["droid"])


_CARDS: dict[Rank, Callable[[Variant, Rank], Section]] = {
    Rank.ZERO: _numbers,
    Rank.SKIP: _colored_action, Rank.REVERSE: _colored_action, Rank.DRAW1: _colored_action,
    Rank.DRAW2: _colored_action, Rank.JACKPOT: _jackpot, Rank.WILD_JACKPOT: _jackpot,
    Rank.WILD: _wild, Rank.WILD_DRAW4: _draw_wild, Rank.WILD_DRAW2: _draw_wild,
    Rank.WILD_SWAP: _wild_swap, Rank.BLANK: _blank, Rank.WILD_DIP: _dip,
    Rank.WILD_DROID: _droid,
}


def _lever(v: Variant) -> Section | None:
    if not _in_deck(v, [Rank.JACKPOT, Rank.WILD_JACKPOT]):
        return None
    text = [("Rule cards come out of the machine. Right and left mean the seats next to you, "
            "whichever way play is going. Action cards thrown away with the discard picture "
            "hit the next player."),
            ("When the lever is done, the next player takes their turn. Used rule cards go on a "
            "pile; when the machine is empty, shuffle that pile and load it back in."),
            (f"Pulling the lever spins the machine. It stops on one of "
            f"{_words(len(LEVER_OUTCOMES))} pictures, each as likely as the others:")]
    items = [o.words[:1].upper() + o.words[1:] + "." for o in LEVER_OUTCOMES]
    return _make(v, "jackpot-lever", "The Jackpot lever", text, items=items,
                 topics=["jackpot", "rules"])


# -- UNO, challenges, two players ------------------------------------------------------------


def _uno(v: Variant) -> Section:
    penalty = v.default_uno_penalty
    if not penalty:
        text = [f"In {v.title} nobody needs to call UNO, and nobody can be caught.",
                "Everyone can still see how many cards the others hold."]
    else:
        text = ["When you are down to one card, say \"UNO!\".",
                ("If another player catches you first, before the next player starts their turn "
                f"(by drawing or playing), you draw {_plural(penalty, 'card')}."),
                ("If you remember before anyone catches you, you are safe. Nobody can catch you "
                "while you still hold two cards."),
                "You must say it again every time you get down to one card."]
    return _make(v, "uno", "Calling UNO", text, topics=["uno"])


def _challenges(v: Variant) -> Section | None:
    wilds = [r for r in _draw_ranks(v) if _sample(r) in DRAW_WILDS]
    if not wilds:
        return None
    names = _listed([_name(r) for r in wilds], "or")
    topics = ["wd4" if r is Rank.WILD_DRAW4 else "wd2" for r in wilds]
    if not v.challenges:
        text = [(f"Nobody can challenge in {v.title}: a {names} can go down whenever its "
                "player likes.")]
        return _make(v, "challenges", "Challenges", text, topics=topics)
    text = [(f"Only the player who has to draw from a {names} may challenge it. They either "
            "take the cards or say \"challenge\"."),
            "Then the player who played the card shows the challenger their hand."]
    for rank in wilds:
        k = _draws(rank)
        text += [(f"If they {v.bluff_words}, they were bluffing: they draw the {k} cards "
                 "instead, and the challenger takes their turn as usual, with the color that "
                 "was named."),
                 f"If not, the challenger draws {k + 2} cards and misses their turn."]
    text.append("A challenge of a player's last card always fails: they held nothing else.")
    return _make(v, "challenges", "Challenges", text, topics=[*topics, "challenge-won"],
                 rulings=["R5"])


def _two_players(v: Variant) -> Section:
    text = ["With two players, a Skip lets you play again straight away."]
    draws = [_name(r) for r in _draw_ranks(v)]
    if draws:
        text.append(f"After a {_listed(draws, 'or a')}, your opponent draws and you play again.")
    topics = ["two"]
    if v.two_player_reverse_skips:
        text.append("A Reverse works like a Skip: you play again.")
    else:
        text.append("A Reverse only changes direction, so your opponent plays next. A table "
                    "may agree before playing that a Reverse works like a Skip instead.")
        topics.append("reverse")
    return _make(v, "two-players", "Two players", text, topics=topics)


# -- the end of a hand and of the game -------------------------------------------------------


def _going_out(v: Variant) -> Section:
    topics = ["out"]
    if v.has_points():
        text = ["When you play your last card, the hand is over and the cards are counted."]
        draws = [_name(r) for r in _draw_ranks(v)]
        text.append(f"If your last card was a {_listed(draws, 'or a')}, the next player still "
                    "draws those cards first, and they count in the score.")
        topics.append("final")
    else:
        text = ["When you play your last card, you win the game."]
    text.append("No other card does anything when it is the last one: the hand just ends.")
    if _in_deck(v, [Rank.WILD_SWAP]):
        text.append("So a Wild Swap Hands played last swaps nothing.")
        topics.append("swap")
    return _make(v, "going-out", "Going out", text, topics=topics)


def _scoring(v: Variant) -> Section:
    sheet = _SHEETS[v.name]
    sources = [sheet.scoring] if sheet.scoring else []
    if not v.has_points() or v.default_target is None:
        text = [f"There are no points in {v.title}: the first player to go out wins.",
                "The companion counts each player's wins."]
        return _make(v, "scoring", "Winning", text, topics=["out"], sources=sources,
                     rulings=sheet.scoring_rulings)
    text = [(f"Whoever reaches {v.default_target} points first wins the game. The table may "
             "agree on another target before starting.")]
    if sheet.scoring_note:
        text.append(sheet.scoring_note)
    others = [m.label for m in v.scoring_modes[1:]]
    if others:
        text.append(f"The companion can also keep score another way: {_listed(others, 'or')}.")
    text.append("The player who goes out scores points for every card still in the other "
                "players' hands:")
    worth: dict[int, list[str]] = {}
    for rank in _kinds(v):
        if rank is not Rank.ZERO and rank is not Rank.BLANK:
            worth.setdefault(v.points_for(_sample(rank)), []).append(_name(rank))
    items = ["Number cards: the number on the card."]
    items += [f"{_listed(names)}: {points} points each." for points, names in worth.items()]
    if _in_deck(v, [Rank.BLANK]):
        items.append(f"Blank cards: {v.points_for(card(Rank.BLANK))} points each, or what the "
                     "table chose.")
    return _make(v, "scoring", "Scoring", text, items=items, sources=sources,
                 rulings=sheet.scoring_rulings)


def _house_rules(v: Variant) -> Section:
    base = set(v.default_options().describe(v))
    items: list[str] = []
    # The engine's own list says which house rules can matter to this variant (R29).
    for rule in (o.name for o in table_options(v) if o.house_rule):
        with_rule = v.default_options().replace(**{rule: True}).describe(v)
        items += [line for line in with_rule if line not in base and line not in items]
    text = [("Without a house rule, nobody can pass a draw card on: the player hit draws and "
            "misses their turn."),
            ("Some tables play with extra rules of their own. They are all off unless the "
            "table agrees on them before the first deal:")]
    return _make(v, "house-rules", "House rules", text, items=items, rulings=["R11"])
