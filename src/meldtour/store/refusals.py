"""The store's and the use cases' refusals: every code and its English template.

:class:`~.db.StoreError` and its subclasses are :class:`~meldtour.core.refusal.Refused`
with one of these codes. A use case that refuses because the engine did keeps the
engine's code and arguments. The sentences name no command-line syntax (the command
line adds its own hints by code); the schema's, read by whoever runs the server,
name the command that mends it.

>>> from meldtour.core.refusal import Refusal, english
>>> english(Refusal("usecase.slug_taken", {"slug": "'club'"}))
"there is already a tournament 'club'"
"""

from __future__ import annotations

from typing import Final

from meldtour.core.refusal import register

#: The codes' English templates (the catalogs' message ids).
TEMPLATES: Final = {
    # the database and its schema
    "store.not_meldtour_database": "the database %(where)s is not a meldtour database: run "
    "`meldtour db upgrade` (with --db or "
    "MELDTOUR_DATABASE_URL naming it)",
    "store.no_schema": "the database %(where)s has no meldtour schema yet: run `meldtour db "
    "upgrade` (with --db or MELDTOUR_DATABASE_URL naming it)",
    "store.schema_newer": "the database %(where)s has schema %(current)s, newer than this "
    "meldtour (%(head)s): install the newer meldtour",
    "store.schema_old": "the database %(where)s has the old schema %(current)s (this "
    "meldtour needs %(head)s): run `meldtour db upgrade`",
    # backups
    "store.not_a_backup": "this file is not a meldtour backup",
    "store.backup_format": "backup format %(version)s is not supported",
    "store.backup_schema": "the backup has schema %(schema)s, this meldtour %(head)s: "
    "restore it with the meldtour that made it, or upgrade that "
    "database first",
    "store.restore_not_empty": "the database is not empty: restore into an empty database",
    "store.backup_columns": "table %(table)s: unknown columns %(columns)s",
    # finding a tournament and its sheets
    "store.no_tournament_yet": "there is no tournament yet",
    "store.several_tournaments": "there are several tournaments (%(slugs)s)",
    "store.several_tournaments_unnamed": "several tournaments: name one",
    "store.no_tournament": "no tournament %(slug)s",
    "store.no_tournament_known": "no tournament %(slug)s: there are %(slugs)s",
    "store.no_sheet": "no sheet %(key)s",
    "sheet.conflict": "round %(round)s, table %(table)s (%(division)s, stage %(stage)s) was "
    "saved by another device: you read version %(expected)s, it is now at "
    "version %(current)s; nothing was saved and what you entered is kept — "
    "check the sheet and enter it again",
    "sheet.counted": "round %(round)s, table %(table)s: the sheet is counted; only the "
    "director can correct it",
    # the game log and online rounds
    "gamelog.exists": "game %(game)s is already in the log",
    "gamelog.missing": "game %(game)s is not in the log",
    "gamelog.move_order": "game %(game)s: move %(index)s appended after %(have)s moves",
    "gamelog.started": "game %(game)s has started",
    "online.played": "game %(game)s of table %(table)s, round %(round)s is already played "
    "online (%(id)s)",
    "online.no_game": "no online game %(game)s",
    "online.refused": "%(reason)s",
    # directors of a tournament
    "owner.no_account": "no account %(name)s",
    # accounts
    "account.new_password": "the new password must have at least %(n)s characters, typed "
    "twice the same",
    "account.wrong_password": "the current password is not right",
    "account.disabled": "the account %(name)s is disabled: ask the site's administrator",
    "account.no_account": "there is no account %(name)s",
    "account.administrator_only": "only the site's administrator disables or enables accounts",
    "account.not_yourself": "the administrator's own account cannot be disabled",
    # the use cases
    "usecase.bad_slug": "a slug is letters, digits, '-', '_' and '.', not %(slug)s",
    "usecase.slug_taken": "there is already a tournament %(slug)s",
    "usecase.bad_division_key": "a division key is lower-case letters, digits, '-' and "
    "'_', not %(key)s",
    "usecase.division_needs_name": "a division needs a name",
    "usecase.no_preset": "no rules preset %(preset)s: choose one of %(presets)s",
    "usecase.tournament_needs_name": "a tournament needs a name",
    "usecase.needs_division": "a tournament needs at least one division",
    "usecase.same_division_key": "two divisions have the same key",
    "usecase.division_exists": "there is already a division %(key)s",
    "usecase.settings_fixed": "%(div)s has started: its settings are fixed",
    "usecase.row": "row %(line)s: %(reason)s",
    "usecase.no_division": "no division %(key)s: the divisions are %(keys)s",
    "usecase.name_division": "name the division (one of %(keys)s)",
    "usecase.same_name": "%(n)s players are called %(name)s: use their numbers (%(numbers)s)",
    "usecase.no_player": "no player %(who)s",
    "usecase.stage_finished": "the %(stage)s is finished",
    "usecase.round_seated": "round %(n)s of the %(stage)s is already seated",
    "usecase.next_round": "the next round of the %(stage)s is %(wanted)s, not %(n)s",
    "usecase.no_round_seated": "%(div)s: no round is seated",
    "usecase.no_round_seated_yet": "no round is seated yet",
    "usecase.seating_locked": "%(div)s: the seating of round %(n)s is locked",
    "usecase.no_stage_started": "no stage has started",
    "usecase.no_stage": "there is no stage %(n)s (stages 1-%(started)s have started)",
    "usecase.table_seats": "table %(table)s has seats 1-%(seats)s",
    "usecase.vote_before_start": "%(div)s: the vote opens once the first stage has started",
    "usecase.vote_too_late": "%(div)s is finished: too late to vote",
    "usecase.vote_open": "%(div)s: the vote is already open",
    "usecase.no_vote_open": "%(div)s: no vote is open",
    "usecase.voter_key": "a vote needs the voter's key",
    "usecase.vote_not_open": "the vote is not open",
    "usecase.vote_no_codes": "make the vote codes first: this vote takes only votes with a code",
    "usecase.vote_code_needed": "this vote needs the vote code from your card",
    "usecase.vote_code_unknown": "%(code)s is not a vote code of this tournament: check the card",
    "usecase.vote_code_count": "make between 1 and %(most)s vote codes",
    "usecase.vote_no_source": "no vote of this vote came from source %(source)s",
    "usecase.vote_drawn": "the prizes of this vote are drawn already",
    "usecase.signers": "a certificate has at most %(most)s signer lines of %(length)s "
    "characters each",
    "usecase.vote_card_used": "card %(card)s has already voted on another phone: its "
    "vote changes only when you confirm",
    "usecase.vote_draw_undecided": "%(div)s: the prizes are drawn once the winner is known",
    "usecase.vote_prizes": "draw 1 to %(most)s prizes",
    "usecase.no_source_registrations": "no registration from source %(source)s is "
    "still registered or waitlisted",
}

register(TEMPLATES)

__all__ = ["TEMPLATES"]
