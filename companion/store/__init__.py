"""The store: games, hands and everything a table keeps, as SQLite rows.

The only place that speaks SQL (besides the schema's migrations in companion/schema.py).
Standings are derived from the hands by the engine's scoring layer, so an edit or a
deletion anywhere in the history is simply a change of rows; checkpoints keep reading a
game cheap whatever its history, and every write is one transaction decided on the game
as it is then (docs/decisions.md). One module per job:

- :mod:`.records`: the records (a game, its setup, a hand, what was held)
- :mod:`.conflicts`: what a write refuses, and why
- :mod:`.decoding`: rows decoded into records, in one snapshot (and the store's row helpers)
- :mod:`.checkpoints`: the standings checkpointed, and hands scored on top of one
- :mod:`.cache`: games as last loaded, per version; the app's cache
- :mod:`.loading`: a game loaded from its checkpoint, a hand, a page of the history, every hand
- :mod:`.listing`: the home page's listing of a phone's games
- :mod:`.keys`: one-time form keys
- :mod:`.writes`: every change to a game, in one transaction (:func:`changing`)
- :mod:`.drafts`: the hand each phone is entering
- :mod:`.rulings`: the referee's rulings a table kept
- :mod:`.jackpot`: the Wild Jackpot unit: rule cards, the dispenser, the lever
- :mod:`.carried`: a game carried over from an export
- :mod:`.access`: share links and the phones given them
- :mod:`.revisions`: a game's revision, which a live page's ETag is made from
- :mod:`.stats`: a game hand by hand (the grid, the race), the records over a phone's games

The names below are the store's public API; the rest of the app imports them from here.
"""

from __future__ import annotations

from . import access, stats
from .cache import GameCache, get_cache, init_app
from .carried import CarriedCard, CarriedGame, store_carried
from .checkpoints import CHECKPOINT_EVERY, SCORED_BY, score_stale_games
from .conflicts import OUT_OF_DATE, AlreadySaved, ConflictError, NoSuchGame, OutOfDate, StaleError
from .drafts import (
    DRAFT_DAYS,
    ENTERING_MINUTES,
    MAX_DRAFT_BYTES,
    drop_draft,
    load_draft,
    others_entering,
    save_draft,
)
from .jackpot import (
    SPINS_PAGE,
    DealtCard,
    RuleCard,
    Spin,
    choose_performer,
    last_direction,
    lever_counts,
    list_spins,
    load_spin,
    pull_lever,
    reveal_rule_card,
    rule_cards,
    spin_for_submission,
    tear_up_rule_cards,
    unrevealed_cards,
    write_rule_cards,
)
from .keys import (
    SUBMISSION_DAYS,
    SUBMISSIONS_FORGOTTEN,
    check_unspent,
    digest,
    forget_old_submissions,
    is_spent,
)
from .listing import PAGE_SIZE, count_games, fill_listing_state, list_games
from .loading import (
    all_hands,
    before,
    deleted_hand_id,
    hand_numbered,
    history_page,
    load_game,
    load_hand,
    removed_hands,
    score_with,
)
from .records import CHANGEABLE_HANDS, MAX_GAME_HANDS, GameRecord, GameSetup, Hand, Holding, now
from .revisions import revision, revision_and_role
from .rulings import (
    RULINGS_SHOWN,
    RULINGS_TEXT,
    all_rulings,
    keep_ruling,
    list_rulings,
    ruling_record,
)
from .writes import (
    changing,
    create_game,
    create_rematch,
    end_open_game,
    record_hand,
    rematch_of,
    require_changeable,
    set_game_deleted,
    set_hand_deleted,
    set_play_on,
    update_hand,
)

__all__ = [
    "CHANGEABLE_HANDS", "CHECKPOINT_EVERY", "DRAFT_DAYS", "ENTERING_MINUTES", "MAX_DRAFT_BYTES",
    "MAX_GAME_HANDS", "OUT_OF_DATE",
    "PAGE_SIZE", "RULINGS_SHOWN", "RULINGS_TEXT", "SCORED_BY", "SPINS_PAGE", "SUBMISSIONS_FORGOTTEN",
    "SUBMISSION_DAYS", "AlreadySaved", "CarriedCard", "CarriedGame", "ConflictError", "DealtCard",
    "GameCache", "GameRecord", "GameSetup", "Hand", "Holding", "NoSuchGame", "OutOfDate",
    "RuleCard", "Spin", "StaleError", "access", "all_hands", "all_rulings", "before",
    "changing", "check_unspent", "choose_performer", "count_games", "create_game",
    "create_rematch", "deleted_hand_id", "digest", "drop_draft", "end_open_game",
    "fill_listing_state", "forget_old_submissions", "get_cache", "hand_numbered",
    "history_page", "init_app", "is_spent", "keep_ruling", "last_direction", "lever_counts",
    "list_games", "list_rulings", "list_spins", "load_draft", "load_game", "load_hand",
    "load_spin", "now", "others_entering", "pull_lever", "record_hand", "rematch_of", "removed_hands",
    "require_changeable", "reveal_rule_card", "revision", "revision_and_role", "rule_cards", "ruling_record",
    "save_draft", "score_stale_games", "score_with", "set_game_deleted", "set_hand_deleted", "set_play_on", "spin_for_submission", "stats",
    "store_carried", "tear_up_rule_cards", "unrevealed_cards", "update_hand", "write_rule_cards",
]
