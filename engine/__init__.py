"""Pure-Python rules engine for UNO and four of its variants.

No Flask, no SQLite: the app and the tests drive it through these names.
"""

from .actions import (
    Action,
    ActionKind,
    ActionParseError,
    BadChoiceError,
    CardNotHeldError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    UnplayableCardError,
)
from .card_facts import DRAW_OF
from .cards import ALL_CARDS, COLORS, Card, CardError, Color, Rank, card, cards_text, parse_cards
from .direction import Direction
from .events import Event, EventKind, card_name
from .game import Game, HandNotOverError, HandResult, NoPointsError, Phase, SetupError
from .jackpot import LeverCall, LeverOutcome, RuleDispenser, rule_card_shares
from .names import MAX_NAME, clean_name, name_key, names_problem, seat_of
from .options import TableOption, TableOptions, no_effect, table_options
from .position import Position
from .scoring import (
    PARTNER_TEAMS,
    SCORING_REVISION,
    HandOutcome,
    HandScore,
    ScoringError,
    ScoringMode,
    Standings,
    end_game,
    new_standings,
    score_game,
    score_hand,
    score_hands,
)
from .variants import VARIANTS, find_variant

__all__ = [
    "ALL_CARDS",
    "COLORS",
    "DRAW_OF",
    "MAX_NAME",
    "PARTNER_TEAMS",
    "SCORING_REVISION",
    "VARIANTS",
    "Action",
    "ActionKind",
    "ActionParseError",
    "BadChoiceError",
    "Card",
    "CardError",
    "CardNotHeldError",
    "Color",
    "Direction",
    "Event",
    "EventKind",
    "Game",
    "GameOverError",
    "HandNotOverError",
    "HandOutcome",
    "HandResult",
    "HandScore",
    "IllegalActionError",
    "LeverCall",
    "LeverOutcome",
    "NoPointsError",
    "NotYourTurnError",
    "Phase",
    "Position",
    "Rank",
    "RuleDispenser",
    "ScoringError",
    "ScoringMode",
    "SetupError",
    "Standings",
    "TableOption",
    "TableOptions",
    "UnplayableCardError",
    "card",
    "card_name",
    "cards_text",
    "clean_name",
    "end_game",
    "find_variant",
    "name_key",
    "names_problem",
    "new_standings",
    "no_effect",
    "parse_cards",
    "rule_card_shares",
    "score_game",
    "score_hand",
    "score_hands",
    "seat_of",
    "table_options",
]
