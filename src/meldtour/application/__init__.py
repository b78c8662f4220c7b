"""The application layer: the use cases the web app, the command line and the live
games share, between them and the store.

One module per job — :mod:`.tournaments` (create, edit, list), :mod:`.divisions`,
:mod:`.registration` (players, check-in, withdrawals, drops, late entries),
:mod:`.rounds` (seating, the seating lock, closing a round, the next stage),
:mod:`.sheets` (enter, correct, check), :mod:`.awards` (standings, awards),
:mod:`.votes` (the winner-guess vote and its prize draw), :mod:`.floods` (a flood of
the public form), :mod:`.audit`, :mod:`.accounts` (director accounts),
:mod:`.online` (the rounds played online) — and the process's snapshot cache in one
place, :mod:`.cache`.

Each use case runs in one transaction (:meth:`meldtour.store.db.Store.transaction`):
it reads the tournament, asks the pure engine (:mod:`meldtour.tournament`) to act —
the engine alone knows the rules of seating, sheets and standings — writes what
changed with an audit line each (through the store's functions: no SQL here), and
commits. An error anywhere rolls the whole unit back: nothing is half-written. A
score sheet that fails a check is the exception that proves the rule: it is *kept*
as a draft (never lost, never counted) and the problems come back.

The package gives every use case by its name too (``application.seat``,
``application.UseCaseError``), as the adapters call them.
"""

from __future__ import annotations

from meldtour.store.repository import NotFound, SheetConflict

from .audit import audit_log, audit_mark
from .awards import (
    AwardLine,
    AwardSettings,
    award,
    award_settings,
    awarded,
    ranking,
    set_prizes,
    set_signers,
    standings,
)
from .cache import Snapshot, read, slug_of, snapshot
from .divisions import DivisionEdit, DivisionSpec, add_division, edit_division, resolve_division
from .errors import CountedSheet, UseCaseError
from .floods import RegistrationSource, registration_sources, withdraw_source
from .players import (
    PlayerEdit,
    edit_player,
    reinstate_player,
    search_players,
    undo_check_in_player,
)
from .ranking_rules import set_ranking
from .registration import (
    PlayerEntry,
    check_in_players,
    close_check_in,
    drop_player,
    enter_late,
    find_player,
    register_players,
    registrations_by_number,
    withdraw_player,
)
from .roster import RosterRow, check_roster, read_roster
from .rounds import (
    RoundKey,
    RoundLock,
    advance,
    close,
    current_round,
    lock_seating,
    reopen,
    reseat,
    round_locks,
    round_state,
    seat,
    undo_advance,
)
from .sheets import GameEntry, SheetOutcome, correct_sheet, enter_sheet, get_sheet
from .tournaments import (
    TournamentInfo,
    add_director,
    all_tournaments,
    any_tournament,
    create_blank_tournament,
    create_tournament,
    edit_tournament,
    info,
    make_key,
    make_slug,
    slugs,
)
from .unit import Outcome
from .votes import (
    PollView,
    VoteSource,
    cast_vote,
    close_vote,
    draw_vote_prizes,
    make_vote_codes,
    my_vote,
    open_vote,
    polls,
    void_source,
    vote_codes,
    vote_sources,
)

__all__ = [
    "AwardLine",
    "AwardSettings",
    "CountedSheet",
    "DivisionEdit",
    "DivisionSpec",
    "GameEntry",
    "NotFound",
    "Outcome",
    "PlayerEdit",
    "PlayerEntry",
    "PollView",
    "RegistrationSource",
    "RosterRow",
    "RoundKey",
    "RoundLock",
    "SheetConflict",
    "SheetOutcome",
    "Snapshot",
    "TournamentInfo",
    "UseCaseError",
    "VoteSource",
    "add_director",
    "add_division",
    "advance",
    "all_tournaments",
    "any_tournament",
    "audit_log",
    "audit_mark",
    "award",
    "award_settings",
    "awarded",
    "cast_vote",
    "check_in_players",
    "check_roster",
    "close",
    "close_check_in",
    "close_vote",
    "correct_sheet",
    "create_blank_tournament",
    "create_tournament",
    "current_round",
    "draw_vote_prizes",
    "drop_player",
    "edit_division",
    "edit_player",
    "edit_tournament",
    "enter_late",
    "enter_sheet",
    "find_player",
    "get_sheet",
    "info",
    "lock_seating",
    "make_key",
    "make_slug",
    "make_vote_codes",
    "my_vote",
    "open_vote",
    "polls",
    "ranking",
    "read",
    "read_roster",
    "register_players",
    "registration_sources",
    "registrations_by_number",
    "reinstate_player",
    "reopen",
    "reseat",
    "resolve_division",
    "round_locks",
    "round_state",
    "search_players",
    "seat",
    "set_prizes",
    "set_ranking",
    "set_signers",
    "slug_of",
    "slugs",
    "snapshot",
    "standings",
    "undo_advance",
    "undo_check_in_player",
    "void_source",
    "vote_codes",
    "vote_sources",
    "withdraw_player",
    "withdraw_source",
]
