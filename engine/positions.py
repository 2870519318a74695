"""Building and saving positions: a layer of :class:`engine.game.Game`.

A hand starts from a shuffled or stacked deck (:meth:`Positions.new`, dealt and
its first card turned up, R8, R9, R19, R23, R28, R34) or from any moment of a
hand set up by hand (:meth:`Positions.from_position`, for a dispute); it is saved
as JSON (:meth:`Positions.to_json`, :meth:`Positions.from_json`) and replayed
from its start and its actions (:meth:`Positions.replay`).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, Self, cast

from .actions import Action
from .cards import Card, Color, Rank, card, parse_cards
from .chance import rng_from_json, rng_to_json, shuffle
from .events import EventKind, card_name
from .options import TableOptions
from .phases import SPECIAL_PHASES
from .state import (
    DIRECTION_WORDS,
    DRAW_OF,
    DRAW_WILDS,
    EFFECT_OF,
    Effect,
    GameState,
    Phase,
    SetupError,
)


class Positions(GameState):
    """Making a game (:meth:`new`, :meth:`stack_deck`, :meth:`from_position`),
    saving it (:meth:`to_json`, :meth:`from_json`) and replaying it (:meth:`replay`)."""

    __slots__ = ()

    @classmethod
    def new(cls, players: int | Sequence[str], *, seed: int | None = None,
            options: TableOptions | None = None, dealer: int = 0,
            deck: Sequence[Card | str] | None = None,
            rng: random.Random | None = None) -> Self:
        """Shuffle (or take a stacked ``deck``, top card first), deal and turn the first card.

        Randomness comes from ``rng``, else from ``random.Random(seed)``; without
        either a seed is drawn from the system and recorded, so the game can be replayed.
        A stacked deck is dealt as given, one card at a time clockwise from the
        dealer's left (see :meth:`stack_deck`).
        """
        names = cls._seat_names(players)
        options = cls._resolve_options(options)
        if not 0 <= dealer < len(names):
            raise SetupError(f"the dealer must be a seat from 0 to {len(names) - 1}")
        start: dict[str, Any]
        if rng is not None:
            if seed is not None:
                raise SetupError("give a seed or a random generator, not both")
            start = {"rng": rng_to_json(rng)}
        else:
            if seed is None:
                seed = secrets.randbits(63)
            rng = random.Random(seed)
            start = {"seed": seed}
        if deck is None:
            cards = list(cls._full_deck(options))
            shuffle(cards, rng)
            stacked = None
        else:
            cards = [Card.parse(c) if isinstance(c, str) else c for c in deck]
            cls._check_cards(cards, options)
            stacked = cards[:]
        game = cls(names, options, dealer, rng)
        game._start_of_hand = (start, stacked)
        cards.reverse()
        game._draw = cards
        game._prepare_specials()
        game._events = game.opening_events
        game._deal()
        game._turn_up_first_card()
        return game

    @classmethod
    def stack_deck(cls, hands: Sequence[Sequence[Card | str] | str], first: Card | str,
                   draw_pile: Sequence[Card | str] | str = (), *, dealer: int = 0) -> list[Card]:
        """A stacked deck (top card first) that :meth:`new` deals into exactly ``hands``
        (by seat), turns up ``first`` and leaves ``draw_pile`` (top first) to draw from.

        >>> from engine import find_variant
        >>> classic = find_variant("classic")
        >>> hands = ["red-1 red-2 red-3 red-4 red-5 red-6 red-7",
        ...          "blue-1 blue-2 blue-3 blue-4 blue-5 blue-6 blue-7"]
        >>> deck = classic.stack_deck(hands, "red-9", "green-2 green-3")
        >>> game = classic.new(2, deck=deck)
        >>> game.top_card.text, [c.text for c in game.draw_pile]
        ('red-9', ['green-2', 'green-3'])
        """
        seat_hands = [_cards(h) for h in hands]
        n = len(seat_hands)
        if any(len(h) != cls.hand_size for h in seat_hands):
            raise SetupError(f"each hand of {cls.name} has {cls.hand_size} cards")
        order = [(dealer + k) % n for k in range(1, n + 1)]
        deck = [seat_hands[s][i] for i in range(cls.hand_size) for s in order]
        return deck + [_cards([first])[0]] + _cards(draw_pile)

    @classmethod
    def from_position(cls, hands: Sequence[Sequence[Card | str] | str],
                      discard_pile: Sequence[Card | str] | str,
                      draw_pile: Sequence[Card | str] | str = (), *,
                      players: Sequence[str] | None = None,
                      current_color: Color | str | None = None, direction: int = 1,
                      to_act: int = 0, dealer: int | None = None,
                      drawn: Card | str | None = None, pending_draw: int = 0,
                      pending_from: int | None = None,
                      previous_color: Color | str | None = None,
                      uno_owed: Sequence[int] = (), options: TableOptions | None = None,
                      seed: int | None = None, rng: random.Random | None = None) -> Self:
        """Any moment of a hand, for settling a dispute.

        ``hands`` by seat; ``discard_pile`` bottom first (its last card is the top);
        ``draw_pile`` top first. The phase follows from the arguments: ``drawn`` (a
        card ``to_act`` just drew) gives the after-draw decision, ``pending_draw`` a
        draw ``to_act`` must take or challenge (``pending_from`` played it, by default
        the previous player; ``previous_color`` was the color in play before a draw
        wild, by default the color of the card under it). A hand left empty with no
        draw pending means that player has gone out. ``uno_owed`` lists players at one
        card who have not called UNO and can still be caught.
        """
        seat_hands = [_cards(h) for h in hands]
        discard = _cards(discard_pile)
        draw = _cards(draw_pile)
        names = list(players) if players is not None else cls._seat_names(len(seat_hands))
        if len(names) != len(seat_hands):
            raise SetupError("give one name per hand")
        names = cls._seat_names(names)
        n = len(names)
        options = cls._resolve_options(options)
        cls._check_cards([c for h in seat_hands for c in h] + discard + draw, options)
        if not discard:
            raise SetupError("the discard pile needs at least its top card")
        if direction not in (1, -1):
            raise SetupError("direction is 1 (clockwise) or -1 (counter-clockwise)")
        if not 0 <= to_act < n:
            raise SetupError(f"to_act must be a seat from 0 to {n - 1}")
        dealer = (to_act - direction) % n if dealer is None else dealer
        if not 0 <= dealer < n:
            raise SetupError(f"the dealer must be a seat from 0 to {n - 1}")
        if rng is None:
            rng = random.Random(secrets.randbits(63) if seed is None else seed)
        elif seed is not None:
            raise SetupError("give a seed or a random generator, not both")
        game = cls(names, options, dealer, rng)
        game._hands = seat_hands
        game._draw = draw[::-1]
        game._discard = discard
        game._direction = direction
        top = discard[-1]
        color = _color(current_color) if current_color is not None else top.color
        if color is None:
            raise SetupError("the top card is a wild: give the current color")
        game._color = color
        game._prepare_specials()
        game._to_act = to_act
        empty = [s for s in range(n) if not seat_hands[s]]
        if pending_draw:
            if top not in DRAW_OF:
                raise SetupError("a pending draw needs a draw card on top of the discard pile")
            if drawn is not None:
                raise SetupError("a player facing a draw has not drawn a card yet")
            source = (to_act - direction) % n if pending_from is None else pending_from
            if not 0 <= source < n or source == to_act:
                raise SetupError("pending_from must be another seat")
            game._pending, game._pending_from = pending_draw, source
            game._phase = Phase.PENDING
            if empty and empty != [source]:
                raise SetupError("only the player who played the draw card can have gone out")
            if empty:
                game._final = True
                game._winner = source
            elif top in DRAW_WILDS and game.challenges:
                before = _color(previous_color) if previous_color is not None else (
                    discard[-2].color if len(discard) > 1 else None)
                if before is None:
                    raise SetupError("give previous_color: the color in play before the "
                                     f"{card_name(top)}")
                under = discard[-2] if len(discard) > 1 else top
                game._guilty = game.bluffed(seat_hands[source], before, under)
            if top not in DRAW_WILDS and game._stack_rule is None:
                raise SetupError("without stacking only a draw wild leaves a draw pending")
        elif empty:
            if len(empty) > 1 or drawn is not None:
                raise SetupError("only one player can have gone out")
            game._winner = empty[0]
            game._phase = Phase.OVER
            game._to_act = None
        elif drawn is not None:
            got = _cards([drawn])[0]
            if got not in seat_hands[to_act]:
                raise SetupError("the drawn card must be in the hand of the player to act")
            if not game.may_play_drawn_card:
                raise SetupError(f"in {cls.name} a drawn card is never played that turn (R29)")
            game._drawn = got
            game._phase = Phase.DRAWN
        for s in uno_owed:
            if not 0 <= s < n or len(seat_hands[s]) != 1:
                raise SetupError("only a player holding one card can owe an UNO call")
            game._expose(s)
        game._setup = {"variant": cls.name, "position": game._state_json()}
        return game

    @classmethod
    def _seat_names(cls, players: int | Sequence[str]) -> list[str]:
        if isinstance(players, int):
            names = [f"Player {i + 1}" for i in range(players)]
        else:
            names = [str(p).strip() for p in players]
            if any(not p for p in names) or len(set(names)) != len(names):
                raise SetupError("every player needs a name of their own")
        if not cls.min_players <= len(names) <= cls.max_players:
            raise SetupError(f"{cls.name} is for {cls.min_players}-{cls.max_players} players,"
                             f" not {len(names)}")
        return names

    @classmethod
    def _resolve_options(cls, options: TableOptions | None) -> TableOptions:
        if options is None:
            cached = _DEFAULTS.get(cls)
            if cached is None:
                cached = _DEFAULTS[cls] = cls._resolve_options(cls.default_options())
            return cached
        try:
            cls.check_options(options)
        except SetupError:
            raise
        except ValueError as exc:
            raise SetupError(str(exc)) from None
        return options

    @classmethod
    def _full_deck(cls, options: TableOptions) -> list[Card]:
        key = (cls, options.wild_swap, options.blank_cards)
        cached = _DECKS.get(key)
        if cached is None:
            cached = _DECKS[key] = cls.deck(options)
        return cached

    @classmethod
    def _check_cards(cls, cards: Sequence[Card], options: TableOptions) -> None:
        # Cached: the referee sets a position up many times over for one dispute.
        key = (cls, options.wild_swap, options.blank_cards)
        counts = _DECK_COUNTS.get(key)
        if counts is None:
            counts = _DECK_COUNTS[key] = cls.deck_counts(options)
        seen: dict[Card, int] = {}
        for c in cards:
            seen[c] = seen.get(c, 0) + 1
        for c, k in seen.items():
            if k > counts.get(c, 0):
                have = counts.get(c, 0)
                raise SetupError(f"{c.text} appears {k} times; the {cls.name} deck has {have}")

    def _prepare_specials(self) -> None:
        for special in dict.fromkeys(self._specials.values()):
            special.prepare(self)

    # -- the deal and the first card -------------------------------------------------

    def _deal(self) -> None:
        n, draw, hands = self._n, self._draw, self._hands
        if len(draw) < self.hand_size * n + 1:
            raise SetupError(f"the deck has {len(draw)} cards: too few to deal {self.hand_size}"
                             f" to {n} players and turn one up")
        # One card at a time clockwise from the dealer's left; the top card is draw[-1],
        # so the seat k-th in line gets every n-th card counting down from draw[-1 - k].
        dealt = self.hand_size * n
        top = len(draw) - 1
        for k in range(n):
            hands[(self.dealer + 1 + k) % n][:] = draw[top - k:top - dealt:-n]
        del draw[top + 1 - dealt:]
        self._ev(EventKind.DEAL, self.dealer, "setup", amount=self.hand_size)

    def _turn_up_first_card(self) -> None:
        draw, rng = self._draw, self._rng
        while True:
            first = draw.pop()
            if not self._first_card_returned(first):
                break
            if not any(not self._first_card_returned(c) for c in draw):
                raise SetupError("no card in the deck may start the discard pile")
            # Back into the deck at a random place: the same as shuffling it in.
            topic = "first-return"
            self._ev(EventKind.RETURNED, None, topic, cards=(first,))
            draw.insert(rng.randrange(len(draw) + 1), first)
        self._discard.append(first)
        self._color = first.color
        self._ev(EventKind.FIRST_CARD, None, "first", cards=(first,))
        n, dealer = self._n, self.dealer
        left = (dealer + 1) % n
        effect = EFFECT_OF[first]
        if effect is _E_SKIP:
            self._ev(_V_LOSE_TURN, left, "first-skip")
            self._start((left + 1) % n)
        elif effect is _E_DRAW:
            self._draw_cards(left, DRAW_OF[first], "first-draw")
            self._ev(_V_LOSE_TURN, left, "first-draw")
            self._start((left + 1) % n)
        elif effect is _E_REVERSE:
            self._direction = -1
            self._start((dealer - 1) % n if self.first_reverse_right_of_dealer else dealer,
                        "first-reverse")
        else:
            special = self._special_on_first.get(effect)
            if special is not None:  # a Wild to name, a Jackpot's rule card (R8, R19)
                special.on_first_card(self, left)
            else:
                self._start(left)

    def _first_card_returned(self, c: Card) -> bool:
        # R8, R19, R23 (draw wilds, Dip); R28, R34 (anything but a number); blanks: rulings.md
        if self.first_card_numbers_only:
            return not c.rank.is_number
        return c in RETURNED_FIRST

    def _start(self, seat: int, topic: str = "first") -> None:
        self._ev(_V_START, seat, topic, note=DIRECTION_WORDS[self._direction])
        self._turn(seat)

    # -- saving and replaying ------------------------------------------------------------------

    @property
    def setup(self) -> dict[str, Any]:
        """How this hand started, as JSON: :meth:`replay` takes it with the actions."""
        if self._start_of_hand is not None:
            start, stacked = self._start_of_hand
            return {"variant": self.name, "players": list(self.players), "dealer": self.dealer,
                    "options": self.options.to_dict(), **_copy_json(start),
                    "deck": [c.text for c in stacked] if stacked is not None else None}
        copied: dict[str, Any] = _copy_json(self._setup)
        return copied

    def _state_json(self) -> dict[str, Any]:
        state: dict[str, Any] = {
            "players": list(self.players),
            "options": self.options.to_dict(),
            "dealer": self.dealer,
            "hands": [[c.text for c in h] for h in self._hands],
            "draw_pile": [c.text for c in reversed(self._draw)],
            "discard_pile": [c.text for c in self._discard],
            "color": self._color.value if self._color is not None else None,
            "direction": self._direction,
            "to_act": self._to_act,
            "phase": self._phase.value,
            "winner": self._winner,
            "drawn": self._drawn.text if self._drawn is not None else None,
            "pending": self._pending,
            "pending_from": self._pending_from,
            "guilty": self._guilty,
            "final": self._final,
            "uno_owed": list(self._exposed),
        }
        # Every variant saves every special phase's state (a default where it has none),
        # so the saved format is the same for all: old saves and golden files load.
        specials = self._specials
        for special_type in SPECIAL_PHASES:
            special = specials.get(special_type.phases[0])
            if isinstance(special, special_type):
                special.write_json(state)
            else:
                special_type.write_default(state, self._n)
        state["rng"] = rng_to_json(self._rng)
        return state

    def to_json(self) -> dict[str, Any]:
        """Everything about the game as plain JSON values; :meth:`from_json` restores it
        exactly, random generator included."""
        return {
            "variant": self.name,
            "setup": self.setup,
            "state": self._state_json(),
            "history": [a.text for a in self.history],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """The game saved by :meth:`to_json`."""
        variant = cls._variant_of(data)
        game = variant._from_state(data["state"])
        game._setup = _copy_json(dict(data.get("setup") or {}))
        game._start_of_hand = None
        game.history = [Action.parse(t) for t in data.get("history", [])]
        return game

    @classmethod
    def _variant_of(cls, data: Mapping[str, Any]) -> type[Self]:
        name = data.get("variant") or cls.name
        try:
            variant = GameState._registry[name]
        except KeyError:
            raise SetupError(f"unknown variant {name!r}") from None
        # The saved game's own variant, as ever: called on Game (as the app does), a Game.
        return cast("type[Self]", variant)

    @classmethod
    def _from_state(cls, s: Mapping[str, Any]) -> Self:
        options = TableOptions.from_dict(s["options"])
        rng = random.Random()
        rng.setstate(rng_from_json(s["rng"]))
        game = cls(s["players"], options, s["dealer"], rng)
        game._hands = [parse_cards(h) for h in s["hands"]]
        game._draw = parse_cards(s["draw_pile"])[::-1]
        game._discard = parse_cards(s["discard_pile"])
        game._color = Color(s["color"]) if s["color"] is not None else None
        game._direction = s["direction"]
        game._to_act = s["to_act"]
        game._phase = Phase(s["phase"])
        game._winner = s["winner"]
        game._drawn = Card.parse(s["drawn"]) if s["drawn"] is not None else None
        game._pending = s["pending"]
        game._pending_from = s["pending_from"]
        game._guilty = s["guilty"]
        game._final = s["final"]
        game._exposed = list(s["uno_owed"])
        for special in dict.fromkeys(game._specials.values()):
            special.read_json(dict(s))
        return game

    @classmethod
    def _replay_start(cls, setup: Mapping[str, Any] | int, *,
               players: int | Sequence[str] | None = None,
               options: TableOptions | None = None, dealer: int = 0) -> Self:
        """The game a replay starts from (see :meth:`engine.game.Game.replay`)."""
        if isinstance(setup, int):
            if players is None or not cls.name:
                raise SetupError("replay from a seed needs a variant class and the players")
            game = cls.new(players, seed=setup, options=options, dealer=dealer)
        else:
            start = setup.get("setup", setup)
            variant = cls._variant_of(start)
            if "position" in start:
                game = variant._from_state(start["position"])
                game._setup = _copy_json(dict(start))
            else:
                opts = TableOptions.from_dict(start.get("options"))
                rng = None
                if "rng" in start:
                    rng = random.Random()
                    rng.setstate(rng_from_json(start["rng"]))
                game = variant.new(start["players"], seed=start.get("seed"), options=opts,
                                   dealer=start.get("dealer", 0), deck=start.get("deck"),
                                   rng=rng)
        return game


#: Turned up first, these go back into the deck (R8, R19, R23; blanks: docs/rulings.md).
RETURNED_FIRST: frozenset[Card] = frozenset(
    card(r) for r in (Rank.WILD_DRAW4, Rank.WILD_DRAW2, Rank.WILD_DIP, Rank.BLANK))
#: Each variant's default options, checked once.
_DEFAULTS: dict[type[Positions], TableOptions] = {}
#: Each variant's unshuffled deck, by (variant, wild swap, blanks).
_DECKS: dict[tuple[type[Positions], bool, int], list[Card]] = {}
#: The same decks' copies of each card.
_DECK_COUNTS: dict[tuple[type[Positions], bool, int], dict[Card, int]] = {}

# Enum members are read through a Python-level descriptor on Python 3.11 (about a
# quarter of a microsecond a read): the deal of every hand reads these names instead.
_E_SKIP = Effect.SKIP
_E_DRAW = Effect.DRAW
_E_REVERSE = Effect.REVERSE
_V_LOSE_TURN = EventKind.LOSE_TURN
_V_START = EventKind.START


def _cards(cards: Sequence[Card | str] | str) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards)
    return [Card.parse(c) if isinstance(c, str) else c for c in cards]


def _color(color: Color | str) -> Color:
    if isinstance(color, Color):
        return color
    try:
        return Color(color.strip().lower())
    except ValueError:
        raise SetupError(f"{color!r} is not a color (red, yellow, green, blue)") from None


def _copy_json(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _copy_json(v) for k, v in data.items()}
    if isinstance(data, list):
        # No call per plain value: the generator's state alone is 625 numbers.
        return [_copy_json(v) if isinstance(v, (dict, list)) else v for v in data]
    return data
