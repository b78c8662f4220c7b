"""The tournament engine: divisions, stages, seating, score sheets, standings, ranking.

Pure: no I/O, no database, no clock (times are passed in as text), deterministic
given the tournament's seed. It imports only :mod:`meldtour.core` and ``openskill``.

- :mod:`.model`: Tournament → Division → Stage → Round → Table, registrations, notices;
- :mod:`.registration`: register, waitlist, check-in, no-shows, drops, late entry;
- :mod:`.stages`: the stage flow (seatings, knockout, final), standings, awards;
- :mod:`.seating`: the seating methods' registry (random, balanced, swiss, snake) and
  their measures;
- :mod:`.sheets`: score sheets checked cell by cell, drafts, audited corrections;
- :mod:`.standings`: wins, points, the tie-break chain and ``decided_by``;
- :mod:`.side`: the winner-guess poll and draw, family prizes;
- :mod:`.ranking`: national ranking points and the openskill rating;
- :mod:`.simulate`: plausible results made from real tiles, for rehearsals and tests.
"""

from . import numbering as _numbering  # noqa: F401  (its codes)
from . import undo as _undo  # noqa: F401  (its codes)
from .model import (
    Division,
    Notice,
    Progress,
    Registration,
    Round,
    Stage,
    StageFormat,
    Table,
    Tournament,
    TournamentError,
)
from .registration import (
    check_in,
    drop,
    late_entry,
    register,
    set_cap,
    start_division,
    withdraw,
)
from .seating import (
    SEATERS,
    Seater,
    Seating,
    SeatingError,
    SeatingTask,
    find_seater,
    plan_seatings,
    random_seating,
    repeats,
    snake_seating,
    table_sizes,
)
from .sheets import Cell, GameResult, Problem, ScoreSheet, check_sheet, new_sheet
from .stages import (
    Award,
    Placing,
    awards,
    close_round,
    correct_table,
    enter_table_game,
    final_ranking,
    seat_round,
    stage_standings,
    start_stage,
    submit_table,
)
from .standings import DEFAULT_CHAIN, Standing, StandingRules, Standings, rank_players

__all__ = [
    "DEFAULT_CHAIN",
    "SEATERS",
    "Award",
    "Cell",
    "Division",
    "GameResult",
    "Notice",
    "Placing",
    "Problem",
    "Progress",
    "Registration",
    "Round",
    "ScoreSheet",
    "Seater",
    "Seating",
    "SeatingError",
    "SeatingTask",
    "Stage",
    "StageFormat",
    "Standing",
    "StandingRules",
    "Standings",
    "Table",
    "Tournament",
    "TournamentError",
    "awards",
    "check_in",
    "check_sheet",
    "close_round",
    "correct_table",
    "drop",
    "enter_table_game",
    "final_ranking",
    "find_seater",
    "late_entry",
    "new_sheet",
    "plan_seatings",
    "random_seating",
    "rank_players",
    "register",
    "repeats",
    "seat_round",
    "set_cap",
    "snake_seating",
    "stage_standings",
    "start_division",
    "start_stage",
    "submit_table",
    "table_sizes",
    "withdraw",
]
