"""The audit log as sentences in the director's language, at the tournament's local time.

Every audit line carries an action code (``check_in``, ``seat``, ``enter_sheet`` …),
who did it (an account's name, ``scorer:table 3``, ``web:registration@1a2b3c4d``,
``online play``) and what it touched (an entity and its key: ``registration`` ``#5
김민지``, ``round`` ``general/stage 1/round 2``). As with refusals
(:mod:`meldtour.core.refusal`), each code has one English sentence here
(:data:`ACTIONS`, the catalogs' message id) and each language its words in the
catalogs, one place per language; the pieces are filled in after translation:

- ``%(who)s`` is a subject *with its particle* (``boss 님이``, ``3번 테이블 기록원이``,
  ``bossさんが``): the sentence never needs a "이(가)";
- ``%(what)s`` is what was touched, always after a colon, so it needs no particle.

Consecutive lines of one change (a seating writes its stage, its round and each
table's sheet) read as one sentence. Times are the tournament's local time
(:func:`zone_of`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from meldtour.tournament import Tournament, TournamentError

from ..i18n import N_, tag_text
from ..times import local_time, zone_name, zone_of

Gettext = Callable[[str], str]

#: Each action code's sentence (English; the catalogs' message ids).
ACTIONS: Mapping[str, str] = {
    "create_tournament": N_("%(who)s created the tournament: %(what)s."),
    "edit_tournament": N_("%(who)s changed the tournament's details: %(what)s."),
    "add director": N_("%(who)s added a director: %(what)s."),
    "add_division": N_("%(who)s added a division: %(what)s."),
    "edit_division": N_("%(who)s changed a division's settings: %(what)s."),
    "register": N_("%(who)s registered a player: %(what)s."),
    "check_in": N_("%(who)s marked a player present: %(what)s."),
    "close_check_in": N_("%(who)s closed check-in: %(what)s."),
    "withdraw": N_("%(who)s recorded a withdrawal before the start: %(what)s."),
    "drop": N_("%(who)s took a player out of the next rounds: %(what)s."),
    "late_entry": N_("%(who)s entered a late player: %(what)s."),
    "seat": N_("%(who)s seated a round: %(what)s."),
    "reseat": N_("%(who)s seated the round again: %(what)s."),
    "lock_seating": N_("%(who)s locked the seating: %(what)s."),
    "close_round": N_("%(who)s closed a round: %(what)s."),
    "advance": N_("%(who)s started the next stage: %(what)s."),
    "enter_sheet": N_("%(who)s saved a score sheet: %(what)s."),
    "enter_sheet_draft": N_("%(who)s saved a draft of a score sheet (not counted yet): %(what)s."),
    "enter_sheet_counted": N_("%(who)s saved a score sheet and it was counted: %(what)s."),
    "correct_sheet": N_("%(who)s corrected a counted score sheet: %(what)s."),
    "enter_sheet_conflict": N_(
        "%(who)s tried to save a score sheet another device had "
        "just saved; nothing was changed: %(what)s."
    ),
    "correct_sheet_conflict": N_(
        "%(who)s tried to correct a score sheet another device "
        "had just saved; nothing was changed: %(what)s."
    ),
    "refused_dismissed": N_(
        "%(who)s set aside what a refused device had entered; the sheet stands: %(what)s."
    ),
    "award": N_("%(who)s recorded the prizes: %(what)s."),
    "rate": N_("%(who)s updated the players' ratings: %(what)s."),
    "reaward": N_("%(who)s corrected an awarded division and awarded it again: %(what)s."),
    "seat_holder_changed": N_(
        "%(who)s corrected another event's results, which changed "
        "who holds a seat of this tournament: %(what)s."
    ),
    "discriminator": N_("%(who)s chose what tells namesakes apart on the public lists: %(what)s."),
    "print_certificates": N_("%(who)s printed the award certificates: %(what)s."),
    "open_vote": N_("%(who)s opened the winner-guess vote: %(what)s."),
    "close_vote": N_("%(who)s closed the winner-guess vote: %(what)s."),
    "decline": N_("%(who)s recorded that a qualification was declined: %(what)s."),
    "draw_prizes": N_("%(who)s drew the winner-guess prizes: %(what)s."),
    "edit_player": N_("%(who)s changed a player's details: %(what)s."),
    "person": N_("%(who)s changed a person's details: %(what)s."),
    "people_link": N_(
        "%(who)s recorded that a registration is a person who played before: %(what)s."
    ),
    "people_new": N_("%(who)s recorded a new person over others of the same name: %(what)s."),
    "people_merge": N_("%(who)s merged two people into one: %(what)s."),
    "people_split": N_("%(who)s split a person's registrations off to a new person: %(what)s."),
    "qualification": N_("%(who)s granted a qualification: %(what)s."),
    "quota": N_("%(who)s set a division's seats by qualification: %(what)s."),
    "ranking": N_("%(who)s set up a ranking: %(what)s."),
    "ranking_counts": N_("%(who)s chose what counts for a ranking: %(what)s."),
    "rating_pool": N_("%(who)s chose the rating pool a division counts in: %(what)s."),
    "reinstate": N_("%(who)s reinstated a player who arrived late: %(what)s."),
    "reopen_round": N_("%(who)s reopened a round: %(what)s."),
    "set_ranking": N_("%(who)s changed a division's ranking rules: %(what)s."),
    "undo_advance": N_("%(who)s undid the start of the next stage: %(what)s."),
    "undo_check_in": N_("%(who)s undid a check-in: %(what)s."),
    "void_votes": N_("%(who)s voided the votes of one source: %(what)s."),
    "vote_codes": N_("%(who)s made vote codes: %(what)s."),
    "set_prizes": N_("%(who)s set a division's prizes per place: %(what)s."),
    "set_signers": N_("%(who)s set the certificates' signer lines: %(what)s."),
    "public_address": N_(
        "%(who)s changed the public address that every QR code carries: %(what)s."
    ),
    "network_opened": N_(
        "%(who)s signed in on the computer that runs meldtour: from then on "
        "the director's pages answer the venue's network too: %(what)s."
    ),
    "withdraw_source": N_("%(who)s withdrew the registrations of one source: %(what)s."),
    # the site's accounts
    "change_password": N_(
        "%(who)s changed the password of an account and signed out its other sessions: %(what)s."
    ),
    "end_sessions": N_("%(who)s signed out the other sessions of an account: %(what)s."),
    "disable_account": N_("%(who)s disabled an account and signed out its sessions: %(what)s."),
    "enable_account": N_("%(who)s enabled an account: %(what)s."),
    # the online players' accounts
    "disable_player": N_(
        "%(who)s disabled a player account and signed out its sessions: %(what)s."
    ),
    "enable_player": N_("%(who)s enabled a player account: %(what)s."),
    # moderation: players' reports, hidden names
    "hide_player_name": N_(
        "%(who)s hid a player's name on the public pages and closed its reports: %(what)s."
    ),
    "show_player_name": N_("%(who)s showed a hidden player's name again: %(what)s."),
    "dismiss_reports": N_("%(who)s dismissed the reports of a player: %(what)s."),
}
#: An action with no sentence yet (a newer code): still a sentence, with its code.
UNKNOWN_ACTION = N_("%(who)s made a change (%(action)s): %(what)s.")

#: Who did it, as the subject of a sentence (with its particle in Korean and Japanese).
DIRECTOR = N_("%(name)s")
SCORER = N_("The scorer of table %(table)s")
REGISTRATION_FORM = N_("The public registration form (source %(source)s)")
ONLINE = N_("Online play")
IMPORT = N_("An import (%(source)s)")

#: What was touched.
STAGE = N_("%(division)s, %(stage)s")
ROUND = N_("%(division)s, %(stage)s, round %(round)s")
TABLE = N_("%(division)s, %(stage)s, round %(round)s, table %(table)s")
STAGE_N = N_("stage %(n)s")
MORE = N_("%(what)s and %(n)s more")

#: What changed, old → new (the audit line's before and after).
CHANGED = N_("%(what)s: %(before)s → %(after)s")
GAME_SEAT = N_("game %(game)s %(name)s")
GAME_PENALTY = N_("game %(game)s %(name)s ×")
GAME_WINNER = N_("game %(game)s winner")
VOTE_CODES = N_("%(n)s vote codes")
#: The fields of a registration, a division and the tournament a change names.
FIELDS: Mapping[str, str] = {
    "name": N_("name"),
    "division": N_("division"),
    "tags": N_("groups"),
    "generation": N_("generation"),
    "cap": N_("cap"),
    "eligibility": N_("who may enter"),
    "date": N_("date"),
    "venue": N_("venue"),
}
#: How many changes a line lists before "and N more".
MAX_CHANGES = 6

#: Reasons the app itself writes (stored as these English words): said in the reader's
#: language; a person's reason is shown as typed.
REASONS: frozenset[str] = frozenset({N_("a score sheet was saved")})

_PATH = re.compile(
    r"^(?P<div>[^/]+)/stage (?P<stage>\d+)"
    r"(?:/round (?P<round>\d+))?(?:/table (?P<table>\d+))?$"
)


def who_text(who: str, gettext: Gettext) -> str:
    """The subject of the sentence: who made the change."""
    if who.startswith("scorer:table "):
        return gettext(SCORER) % {"table": who.removeprefix("scorer:table ")}
    if who.startswith("web:registration@"):
        return gettext(REGISTRATION_FORM) % {"source": who.split("@", 1)[1]}
    if who == "online play":
        return gettext(ONLINE)
    if who in ("csv", "xlsx", "import"):
        return gettext(IMPORT) % {"source": who.upper()}
    return gettext(DIRECTOR) % {"name": who}


def _stage_name(t: Tournament | None, div: str, n: int, gettext: Gettext) -> tuple[str, str]:
    if t is None:
        return div, gettext(STAGE_N) % {"n": n}
    try:
        d = t.division(div)
    except TournamentError:
        return div, gettext(STAGE_N) % {"n": n}
    formats = d.formats
    name = formats[n - 1].name if 0 < n <= len(formats) and formats[n - 1].name else ""
    return d.name, name or gettext(STAGE_N) % {"n": n}


def what_text(entity: str, key: str, t: Tournament | None, gettext: Gettext) -> str:
    """What the line touched, by its entity and key, with the tournament's names."""
    found = _PATH.match(key)
    if found and entity in ("stage", "round", "sheet", "vote", "rating"):
        division, stage = _stage_name(t, found["div"], int(found["stage"]), gettext)
        args = {
            "division": division,
            "stage": stage,
            "round": found["round"],
            "table": found["table"],
        }
        if found["table"]:
            return gettext(TABLE) % args
        if found["round"]:
            return gettext(ROUND) % args
        return gettext(STAGE) % args
    if entity in ("division", "award", "rating") and t is not None:
        try:
            return t.division(key).name
        except TournamentError:
            return key
    if entity == "tournament" and t is not None:
        return t.name
    return key


def _signed(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"+{value}" if value > 0 else str(value).replace("-", "−")
    return str(value)


def _sheet_changes(
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    t: Tournament | None,
    gettext: Gettext,
    *,
    typed_over: bool = False,
) -> list[str]:
    """The cells a save changed; with ``typed_over``, only those that held a value
    before (a sheet typed in for the first time lists no "— → −7" for every cell)."""
    players = list(after.get("players") or before.get("players") or [])

    def name(seat: int) -> str:
        p = players[seat] if seat < len(players) else None
        if t is None or p is None:
            return f"#{p}" if p is not None else str(seat + 1)
        try:
            return t.name_of(p)
        except (TournamentError, KeyError):
            return f"#{p}"

    old_games = list(before.get("games") or [])
    new_games = list(after.get("games") or [])
    out: list[str] = []
    for g, new in enumerate(new_games, 1):
        old = old_games[g - 1] if g <= len(old_games) else {}
        for field, label in (("points", GAME_SEAT), ("penalties", GAME_PENALTY)):
            a = list(old.get(field) or [])
            b = list(new.get(field) or [])
            for seat in range(max(len(a), len(b))):
                x = a[seat] if seat < len(a) else None
                y = b[seat] if seat < len(b) else None
                if field == "penalties":
                    x, y = x or None, y or None
                if x != y and not (typed_over and x is None):
                    what = gettext(label) % {"game": g, "name": name(seat)}
                    out.append(
                        gettext(CHANGED) % {"what": what, "before": _signed(x), "after": _signed(y)}
                    )
        x, y = old.get("winner"), new.get("winner")
        if x != y and not (typed_over and x is None):
            out.append(
                gettext(CHANGED)
                % {
                    "what": gettext(GAME_WINNER) % {"game": g},
                    "before": name(x - 1) if isinstance(x, int) else "—",
                    "after": name(y - 1) if isinstance(y, int) else "—",
                }
            )
    return out


def _field_text(field: str, value: Any, t: Tournament | None, gettext: Gettext) -> str:
    if field == "tags":
        return ", ".join(tag_text(str(v), gettext) for v in value or ()) or "—"
    if field == "division" and t is not None and isinstance(value, str):
        try:
            return t.division(value).name
        except TournamentError:
            return value
    return _signed(value) if value not in (None, "") else "—"


def changes_text(line: Mapping[str, Any], t: Tournament | None, gettext: Gettext) -> list[str]:
    """What one audit line changed, old → new, in the reader's words: a sheet's cells
    (``1게임 이영수 −5 → −6``), a player's name, a division's cap; nothing for a line
    that only records (a seating's new round)."""
    before, after = line.get("before"), line.get("after")
    if not isinstance(before, Mapping) or not isinstance(after, Mapping):
        return []
    entity = line.get("entity")
    if entity == "sheet":
        typed_over = line.get("action") == "enter_sheet"  # a correction lists every cell
        return _sheet_changes(before, after, t, gettext, typed_over=typed_over)
    if entity == "vote" and line.get("action") == "vote_codes":
        return []
    out = []
    for field, label in FIELDS.items():
        if field in before and field in after and before[field] != after[field]:
            out.append(
                gettext(CHANGED)
                % {
                    "what": gettext(label),
                    "before": _field_text(field, before[field], t, gettext),
                    "after": _field_text(field, after[field], t, gettext),
                }
            )
    return out


def _action_of(group: Sequence[Mapping[str, Any]]) -> str:
    """The sentence's action: a saved sheet says whether it was a draft or counted."""
    action = str(group[0].get("action", ""))
    if action == "enter_sheet":
        sheets = [g for g in group if g.get("entity") == "sheet"]
        after = sheets[-1].get("after") if sheets else None
        if isinstance(after, Mapping) and "counted" in after:
            return "enter_sheet_counted" if after.get("counted") else "enter_sheet_draft"
    return action


@dataclass(frozen=True, slots=True)
class AuditLine:
    """One change as the page shows it: its local day and time, its sentence and
    reason, and how many audit lines it stands for."""

    day: str
    time: str
    sentence: str
    why: str
    lines: int
    changes: tuple[str, ...] = ()

    @property
    def when(self) -> str:
        return f"{self.day} {self.time}".strip()


#: What a change names of the parts it wrote: a seating names its round (not its
#: stage, or each table's sheet); a check-in its players.
SHOWN: Mapping[str, tuple[str, ...]] = {
    **dict.fromkeys(("seat", "reseat", "lock_seating", "close_round"), ("round",)),
    "advance": ("stage",),
    **dict.fromkeys(
        (
            "enter_sheet",
            "correct_sheet",
            "enter_sheet_conflict",
            "correct_sheet_conflict",
            "refused_dismissed",
        ),
        ("sheet",),
    ),
    **dict.fromkeys(("register", "check_in", "withdraw", "drop", "late_entry"), ("registration",)),
    **dict.fromkeys(("add_division", "edit_division", "close_check_in"), ("division",)),
    **dict.fromkeys(("create_tournament", "edit_tournament"), ("tournament",)),
}


def _same_change(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Lines of one change, or of one run of the same change by the same person in the
    same minute (a check-in desk marking players present)."""
    return (a.get("who"), a.get("action")) == (b.get("who"), b.get("action")) and str(
        a.get("at", "")
    )[:16] == str(b.get("at", ""))[:16]


def sentence(action: str, who: str, whats: Sequence[str], gettext: Gettext) -> str:
    shown = list(dict.fromkeys(w for w in whats if w))
    what = ", ".join(shown[:3])
    if len(shown) > 3:
        what = gettext(MORE) % {"what": what, "n": len(shown) - 3}
    template = ACTIONS.get(action)
    args: dict[str, Any] = {"who": who_text(who, gettext), "what": what or "—", "action": action}
    return gettext(template or UNKNOWN_ACTION) % args


def audit_lines(
    lines: Sequence[Mapping[str, Any]], t: Tournament | None, zone: ZoneInfo, gettext: Gettext
) -> list[AuditLine]:
    """The lines (in the order given) as sentences, consecutive lines of one change
    (same time, who and action) as one."""
    groups: list[list[Mapping[str, Any]]] = []
    for line in lines:
        if groups and _same_change(groups[-1][0], line):
            groups[-1].append(line)
        else:
            groups.append([line])
    out = []
    for group in groups:
        first = group[0]
        wanted = SHOWN.get(str(first.get("action", "")))
        shown = [g for g in group if g.get("entity") in wanted] if wanted else []
        whats = [
            what_text(str(g.get("entity", "")), str(g.get("key", "")), t, gettext)
            for g in shown or group
        ]
        why = next((str(g["why"]) for g in group if g.get("why")), "")
        if why in REASONS:
            why = gettext(why)
        day, _, hour = local_time(first.get("at"), zone).partition(" ")
        action = _action_of(group)
        if action == "vote_codes":
            whats = [
                gettext(VOTE_CODES) % {"n": _count(g.get("after")) - _count(g.get("before"))}
                for g in group
            ]
        changes = [c for g in (shown or group) for c in changes_text(g, t, gettext)]
        if len(changes) > MAX_CHANGES:
            more = gettext(MORE) % {
                "what": changes[MAX_CHANGES - 1],
                "n": len(changes) - MAX_CHANGES,
            }
            changes = [*changes[: MAX_CHANGES - 1], more]
        out.append(
            AuditLine(
                day,
                hour,
                sentence(action, str(first.get("who", "")), whats, gettext),
                why,
                len(group),
                tuple(changes),
            )
        )
    return out


def _count(value: Any) -> int:
    n = value.get("codes") if isinstance(value, Mapping) else None
    return n if isinstance(n, int) else 0


__all__ = [
    "ACTIONS",
    "AuditLine",
    "audit_lines",
    "changes_text",
    "local_time",
    "sentence",
    "who_text",
    "zone_name",
    "zone_of",
]
