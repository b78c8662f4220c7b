"""``meldtour tournament``: the director's commands, on the database.

Every command acts on one database (``--db URL``, else ``MELDTOUR_DATABASE_URL``,
else ``var/meldtour.db``) and one tournament (``-t SLUG``, else
``MELDTOUR_TOURNAMENT``, else the only tournament there is), and, where it matters,
one division (``-d KEY``; by default the only division, or the only one with
players). Output is a table for people, or JSON with ``--json``. Exit codes: 0 done,
1 refused (the message says why), 2 usage.

    meldtour db upgrade
    meldtour tournament new --template busan-2015 --slug busan --seed 2015
    meldtour tournament players import players.csv      # name,division,tags,generation
    meldtour tournament players import club.csv --link  # returning players by the evidence
    meldtour tournament checkin --all-but "Kim Minji" "Lee Jun"
    meldtour tournament seat 1                          # closes check-in first
    meldtour tournament sheet enter 1 3 table3.csv      # game,player,points[,penalty]
    meldtour tournament standings
    meldtour tournament seat 2
    meldtour tournament advance                         # the top 4 to the final
    meldtour tournament awards
    meldtour tournament export --csv results/
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from meldtour.cli.db import add_db_argument
from meldtour.cli.db import print_json as _print_json
from meldtour.cli.db import who_of as _who
from meldtour.tournament.templates import TEMPLATES

HELP = "Run a tournament from the terminal: players, check-in, seating, sheets, standings."

ENV_TOURNAMENT = "MELDTOUR_TOURNAMENT"


def _common(parser: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    add_db_argument(parser, default)
    parser.add_argument(
        "-t",
        "--tournament",
        metavar="SLUG",
        default=default,
        help=f"the tournament (default ${ENV_TOURNAMENT}, else the only one)",
    )
    parser.add_argument(
        "-d",
        "--division",
        metavar="KEY",
        default=default,
        help="the division (default: the only one, or the only one with players)",
    )
    parser.add_argument(
        "--json", action="store_true", default=default, help="print JSON for scripts"
    )
    parser.add_argument(
        "--who",
        metavar="NAME",
        default=default,
        help="who acts, for the audit log (default $MELDTOUR_USER or the login name)",
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser, None)
    sub = parser.add_subparsers(dest="action", metavar="ACTION")

    def add(name: str, help: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help, description=help)
        _common(p)
        return p

    p = add("new", "create a tournament from a template")
    p.add_argument("--template", required=True, choices=tuple(TEMPLATES))
    p.add_argument("--name", default="", help="the tournament's name")
    p.add_argument("--date", default="", help="its date, YYYY-MM-DD")
    p.add_argument("--seed", type=int, default=0, help="seed of every draw (default 0)")
    p.add_argument("--slug", help="its short name for -t (default: from the name)")
    p.add_argument(
        "--locale",
        choices=("ko", "ja", "en"),
        default="en",
        help="the language of its divisions' and stages' names (default en)",
    )

    add("list", "the tournaments in the database")
    add("show", "the tournament: divisions, players, stages and rounds")

    p = add("players", "register players from a CSV file, or list them")
    psub = p.add_subparsers(dest="players_action", metavar="ACTION")
    imp = psub.add_parser(
        "import",
        help="register players from FILE.csv or .xlsx "
        "(header name,division,tags,generation, and "
        "member,birth year to find people again)",
    )
    _common(imp)
    imp.add_argument("file", type=Path, metavar="FILE.csv")
    who = imp.add_mutually_exclusive_group()
    who.add_argument(
        "--link",
        action="store_true",
        help="a line whose name is of people who played before is the one "
        "the evidence names (the same member number, else the only "
        "one with the same birth year), else a new person",
    )
    who.add_argument(
        "--new",
        action="store_true",
        help="every such line is a new person (unless its person column says who)",
    )
    ls = psub.add_parser("list", help="the registrations")
    _common(ls)

    p = add("checkin", "check players in (names or numbers); --close starts the division")
    p.add_argument("players", nargs="*", metavar="NAME")
    p.add_argument(
        "--all-but", action="store_true", help="check in every registered player except those named"
    )
    p.add_argument(
        "--close", action="store_true", help="close check-in: who has not checked in is a no-show"
    )

    p = add("seat", "seat ROUND of the current stage (closing check-in or the round before)")
    p.add_argument("round", type=int, nargs="?", metavar="ROUND")

    add("close", "close the current round (every sheet counted)")

    p = add("sheet", "enter, show or correct a table's score sheet")
    ssub = p.add_subparsers(dest="sheet_action", metavar="ACTION")
    en = ssub.add_parser(
        "enter",
        help="enter ROUND TABLE from FILE.csv "
        "(game,player,points[,penalty][,winner]) or at prompts",
    )
    _common(en)
    en.add_argument("round", type=int, metavar="ROUND")
    en.add_argument("table", type=int, metavar="TABLE")
    en.add_argument("file", type=Path, nargs="?", metavar="FILE.csv")
    en.add_argument("--why", default="", help="the reason, to change a counted sheet")
    en.add_argument("--version", type=int, help="the sheet version you read (conflict check)")
    en.add_argument("--stage", type=int, help="the stage, from 1 (default: the current)")
    en.add_argument("--draft", action="store_true", help="save without submitting")
    en.add_argument(
        "--reaward",
        action="store_true",
        help="confirm a correction to an awarded division: award it again",
    )
    sh = ssub.add_parser("show", help="show ROUND TABLE's sheet and its version")
    _common(sh)
    sh.add_argument("round", type=int, metavar="ROUND")
    sh.add_argument("table", type=int, metavar="TABLE")
    sh.add_argument("--stage", type=int)
    co = ssub.add_parser("correct", help="correct one cell of a counted sheet")
    _common(co)
    co.add_argument("round", type=int, metavar="ROUND")
    co.add_argument("table", type=int, metavar="TABLE")
    co.add_argument("--game", type=int, required=True)
    co.add_argument("--player", required=True, help="name or number")
    co.add_argument("--points", type=int)
    co.add_argument("--penalty", type=int)
    co.add_argument("--winner", action="store_true", help="make this player the winner")
    co.add_argument("--why", required=True)
    co.add_argument("--version", type=int)
    co.add_argument("--stage", type=int)
    co.add_argument(
        "--reaward",
        action="store_true",
        help="confirm a correction to an awarded division: award it again",
    )

    p = add("simulate", "fill ROUND's open sheets with plausible computer-made results")
    p.add_argument("round", type=int, metavar="ROUND")
    p.add_argument("--seed", default="0")

    p = add("standings", "the current stage's standings (or --stage N)")
    p.add_argument("--stage", type=int)
    add("ranking", "the division's final ranking")
    add("advance", "start the next stage with the players above the cut")
    add("awards", "record and show the awards (the division must be finished)")
    p = add("export", "write players, results, standings and awards as CSV files")
    p.add_argument("--csv", type=Path, required=True, metavar="DIR")
    add("audit", "the audit log: who changed what, when, and why")


# ---------------------------------------------------------------------------
# plumbing


class Refused(Exception):
    """A refusal of the command line itself (its files and arguments), in English."""


#: What the command line says for a store refusal, in its own words: the store's
#: sentences name no command-line syntax, the command line's hints do (by code).
HINTS: dict[str, str] = {
    "store.no_tournament_yet": "there is no tournament yet: `meldtour tournament new "
    "--template ...`",
    "store.several_tournaments": "there are several tournaments: name one with -t SLUG (%(slugs)s)",
    "usecase.slug_taken": "there is already a tournament %(slug)s: choose another --slug",
    "usecase.stage_finished": "the %(stage)s is finished: `meldtour tournament advance` "
    "starts the next stage",
    "usecase.no_stage_started": "no stage has started: `meldtour tournament seat 1`",
}


def said(exc: BaseException) -> str:
    """An error as the command line says it: a refusal's English sentence, with the
    command line's own hint where :data:`HINTS` has one for its code (or a nested
    refusal's code)."""
    from meldtour.core.refusal import Refused as CoreRefused

    if isinstance(exc, CoreRefused):
        return _hinted(exc.refusal)
    return str(exc)


def _hinted(refusal: Any) -> str:
    from meldtour.core.refusal import TEMPLATES, Refusal

    args = {k: _hinted(v) if isinstance(v, Refusal) else v for k, v in refusal.params.items()}
    return (HINTS.get(refusal.code) or TEMPLATES[refusal.code]) % args


def _opt(args: argparse.Namespace, name: str) -> Any:
    return getattr(args, name, None)


def _console() -> Any:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=False, width=None if sys.stdout.isatty() else 120)


@contextmanager
def _progress(total: int, what: str, enabled: bool) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr while the work lasts (not with --json or off a tty)."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    show = enabled and sys.stderr.isatty()
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        disable=not show,
        transient=True,
    ) as bar:
        task = bar.add_task(what, total=total)
        yield lambda: bar.advance(task)


def run(args: argparse.Namespace) -> int:
    from meldtour.application.maintenance import open_site
    from meldtour.store.errors import StoreError

    action = args.action
    if not action:
        print("meldtour tournament: give an action (see --help)", file=sys.stderr)
        return 2
    try:
        store = open_site(_opt(args, "db"))
    except StoreError as exc:
        print(f"meldtour tournament: {said(exc)}", file=sys.stderr)
        return 1
    except Exception as exc:  # the database does not answer
        print(f"meldtour tournament: cannot open the database: {exc}", file=sys.stderr)
        return 1
    try:
        handler = HANDLERS[action]
        return handler(store, args)
    except (StoreError, Refused) as exc:
        print(f"meldtour tournament {action}: {said(exc)}", file=sys.stderr)
        return 1
    finally:
        store.close()


def _slug(args: argparse.Namespace) -> str | None:
    return _opt(args, "tournament") or os.environ.get(ENV_TOURNAMENT) or None


def _notices(args: argparse.Namespace, notices: Sequence[Any], extra: dict[str, Any]) -> None:
    if _opt(args, "json"):
        _print_json({**extra, "notices": [{"what": n.what, "text": n.text} for n in notices]})
        return
    con = _console()
    for n in notices:
        con.print(f"• {n.text}")


# ---------------------------------------------------------------------------
# commands


def cmd_new(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    slug, t = uc.create_tournament(
        store,
        args.template,
        who=_who(args),
        name=args.name,
        date=args.date,
        seed=args.seed,
        slug=args.slug,
        locale=getattr(args, "locale", "en"),
    )
    if _opt(args, "json"):
        _print_json(
            {
                "slug": slug,
                "name": t.name,
                "date": t.date,
                "seed": t.seed,
                "divisions": [d.key for d in t.divisions],
            }
        )
    else:
        _console().print(
            f"created [bold]{t.name}[/] ({t.date}) as [bold]{slug}[/]: "
            f"divisions {', '.join(d.key for d in t.divisions)}"
        )
    return 0


def cmd_list(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    rows = uc.all_tournaments(store)
    if _opt(args, "json"):
        _print_json([{"slug": a, "name": b, "date": c, "template": d} for a, b, c, d in rows])
        return 0
    from rich.table import Table

    table = Table("slug", "name", "date", "template")
    for r in rows:
        table.add_row(*r)
    _console().print(table)
    return 0


def cmd_show(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    t = uc.read(store, _slug(args))
    out: list[dict[str, Any]] = []
    for d in t.divisions:
        counts: dict[str, int] = {}
        for r in t.in_division(d.key):
            counts[r.status] = counts.get(r.status, 0) + 1
        stages = [
            {
                "stage": i + 1,
                "name": st.format.title,
                "entrants": len(st.entrants),
                "rounds": [
                    {
                        "round": r.number,
                        "closed": r.closed,
                        "tables": len(r.tables),
                        "counted": sum(1 for x in r.tables if x.counted),
                    }
                    for r in st.rounds
                ],
                "finished": st.finished,
            }
            for i, st in enumerate(d.stages)
        ]
        out.append(
            {
                "division": d.key,
                "name": d.name,
                "cap": d.cap,
                "started": d.started,
                "players": counts,
                "stages": stages,
            }
        )
    if _opt(args, "json"):
        _print_json({"name": t.name, "date": t.date, "divisions": out})
        return 0
    con = _console()
    con.print(f"[bold]{t.name}[/] {t.date}")
    for div in out:
        players = ", ".join(f"{v} {k}" for k, v in div["players"].items()) or "no players"
        con.print(f"  [bold]{div['division']}[/] {div['name']}: {players}")
        for st in div["stages"]:
            rounds = "; ".join(
                f"round {r['round']}: {r['counted']}/{r['tables']} sheets"
                + (" (closed)" if r["closed"] else "")
                for r in st["rounds"]
            )
            con.print(
                f"    stage {st['stage']} {st['name']} ({st['entrants']} players)"
                f"{' finished' if st['finished'] else ''}: {rounds or 'not seated'}"
            )
    return 0


#: A CSV file read by the tournament commands: 10 MB at most.
MAX_CSV_BYTES = 10 * 1024 * 1024


def _csv_text(path: Path) -> str:
    """A CSV file's text: UTF-8 (with or without the BOM spreadsheets write), not over
    :data:`MAX_CSV_BYTES`; a refusal that says what is wrong otherwise."""
    from meldtour.application.roster import decode
    from meldtour.core.refusal import Refused as CoreRefused

    raw = _file_bytes(path)
    try:
        return decode(raw, MAX_CSV_BYTES)
    except CoreRefused as exc:
        raise Refused(f"{path}: {said(exc)}") from None


def _file_bytes(path: Path) -> bytes:
    try:
        size = path.stat().st_size
        if size > MAX_CSV_BYTES:
            raise Refused(f"{path} is {size:,} bytes: at most {MAX_CSV_BYTES:,}")
        return path.read_bytes()
    except OSError as exc:
        raise Refused(f"cannot read {path}: {exc.strerror}") from None


def read_players_csv(path: Path) -> list[Any]:
    """Rows of ``name,division,tags,generation`` (and ``member``, ``birth year``: who
    played before is found again by them, never by the name alone) (a CSV file, or an
    XLSX workbook's first sheet) (only ``name`` is required; tags are separated by
    ``;`` or spaces), read by the one reader of players' lists
    (:mod:`meldtour.application.roster`, which the director's import page uses too).
    Errors name the row."""
    from meldtour.application.roster import read_roster
    from meldtour.core.refusal import Refused as CoreRefused
    from meldtour.core.refusal import english

    try:
        if path.suffix.lower() == ".xlsx":
            rows = read_roster(_file_bytes(path), "xlsx", header=True, limit=MAX_CSV_BYTES)
        else:
            rows = read_roster(_csv_text(path), header=True, limit=MAX_CSV_BYTES)
    except CoreRefused as exc:
        raise Refused(f"{path}: {said(exc)}") from None
    for row in rows:
        for problem in row.problems:
            raise Refused(f"{path} row {row.line}: {english(problem.refusal)}")
    return [row.entry() for row in rows]


def _evidence(c: Any) -> str:
    """A candidate's evidence as the web preview shows it (same / different / unknown,
    and every tournament played with its place)."""

    def said(same: bool, other: bool, value: Any) -> str:
        word = "the same" if same else "different" if other else "unknown"
        return f"{value} ({word})" if value is not None else word

    v = c.person
    played = "; ".join(
        f"{e.tournament} {e.date}" + (f" {e.place}/{e.field}" if e.place else "") for e in v.entries
    )
    return (
        f"#{v.person} {v.name}: member {said(c.same_member, c.other_member, v.member_number)}"
        f", born {said(c.same_birth_year, c.other_birth_year, v.birth_year)}; {played}"
        + ("; plays in this tournament: a different person" if c.shared_tournament else "")
    )


def _who_is_who(store: Any, args: argparse.Namespace, entries: list[Any]) -> list[Any]:
    """Every line whose name is of people who played before, reported with the evidence
    (as the web preview shows it), and the decision: the line's ``person`` column,
    ``--link`` (the evidence's choice), ``--new``, or asked line by line on a
    terminal; without any, nothing is registered."""
    from dataclasses import replace

    from meldtour import application as uc
    from meldtour.application import circuit

    slug = uc.slug_of(store, _slug(args))
    found = circuit.identify(store, slug, entries, who=circuit.Acting.operator(_who(args)))
    open_lines = [
        (e, f)
        for e, f in zip(entries, found, strict=True)
        if e.person is None and any(not c.shared_tournament for c in f.candidates)
    ]
    if not open_lines:
        return entries
    quiet = _opt(args, "json")
    err = sys.stderr
    if not quiet or not (args.link or args.new):
        for e, f in open_lines:
            then = (
                f"the same person as #{f.suggested} (the evidence)"
                if f.suggested is not None
                else "a new person (no evidence)"
            )
            print(
                f"line {e.line} {e.name}: people of this name played before — "
                f"{'; '.join(_evidence(c) for c in f.candidates)}; by the evidence: "
                f"{then}",
                file=err,
            )
    if args.link:
        return entries
    if args.new:
        ids = {id(e) for e, _f in open_lines}
        return [replace(e, person="new") if id(e) in ids else e for e in entries]
    if not sys.stdin.isatty():
        raise Refused(
            f"{len(open_lines)} lines name people who played before: say who "
            "each is (a person column: #N or new), or --link (the evidence "
            "decides) or --new; nothing is registered"
        )
    chosen: dict[int, Any] = {}
    for e, f in open_lines:
        offered = {c.person.person for c in f.candidates if not c.shared_tournament}
        default = f"#{f.suggested}" if f.suggested is not None else "new"
        while True:
            answer = input(
                f"line {e.line} {e.name}: new, or #N of "
                f"{', '.join(f'#{p}' for p in sorted(offered))} "
                f"[{default}]: "
            ).strip().lstrip("#") or default.lstrip("#")
            if answer == "new" or (answer.isdigit() and int(answer) in offered):
                chosen[id(e)] = "new" if answer == "new" else int(answer)
                break
    return [replace(e, person=chosen[id(e)]) if id(e) in chosen else e for e in entries]


def cmd_players(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    if args.players_action == "import":
        entries = _who_is_who(store, args, read_players_csv(args.file))
        with _progress(len(entries), "registering", not _opt(args, "json")) as tick:
            out = uc.register_players(store, _slug(args), entries, who=_who(args), tick=tick)
        waiting = [n for n in out.notices if n.what == "waitlisted"]
        again = [n for n in out.notices if n.what == "person"]
        if _opt(args, "json"):
            _print_json(
                {
                    "registered": len(entries) - len(waiting),
                    "waitlisted": len(waiting),
                    "found_again": len(again),
                    "notices": [n.text for n in out.notices],
                }
            )
        else:
            con = _console()
            con.print(
                f"registered {len(entries) - len(waiting)} players"
                + (f", {len(waiting)} on the waitlist" if waiting else "")
                + (f"; {len(again)} found again by member number or birth year" if again else "")
            )
            for n in waiting + again:
                con.print(f"• {n.text}")
        return 0
    if args.players_action == "list":
        t = uc.read(store, _slug(args))
        rows: list[dict[str, Any]] = [
            {
                "number": r.player,
                "name": r.name,
                "division": r.division,
                "tags": sorted(r.tags),
                "generation": r.generation,
                "status": r.status,
            }
            for r in t.registrations
            if not _opt(args, "division") or r.division == args.division
        ]
        if _opt(args, "json"):
            _print_json(rows)
            return 0
        from rich.table import Table

        table = Table("no.", "name", "division", "tags", "status")
        for r in rows:
            table.add_row(
                str(r["number"]), r["name"], r["division"], " ".join(r["tags"]), r["status"]
            )
        _console().print(table)
        return 0
    raise Refused("players: give an action: import or list")


def cmd_checkin(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    slug, who, div = _slug(args), _who(args), _opt(args, "division")
    notices: list[Any] = []
    if args.players or args.all_but:
        out = uc.check_in_players(
            store, slug, args.players, who=who, everyone_but=args.all_but, division=div
        )
        notices.extend(out.notices)
    if args.close:
        out = uc.close_check_in(store, slug, div, who=who)
        notices.extend(out.notices)
    if not (args.players or args.all_but or args.close):
        raise Refused("name the players to check in, or use --all-but or --close")
    t = out.tournament
    try:
        checked: int | None = len(t.in_division(uc.resolve_division(t, div), "checked_in"))
    except uc.UseCaseError:
        checked = None
    if _opt(args, "json"):
        _print_json({"checked_in": checked, "notices": [n.text for n in notices]})
        return 0
    con = _console()
    shown = [n for n in notices if n.what != "checked_in"]
    con.print(
        f"{sum(1 for n in notices if n.what == 'checked_in')} checked in now, {checked} in all"
    )
    for n in shown:
        con.print(f"• {n.text}")
    return 0


def _seating_rows(t: Any, key: str, stage_index: int, round_number: int) -> list[dict[str, Any]]:
    rnd = t.division(key).stages[stage_index].rounds[round_number - 1]
    return [
        {
            "table": x.number,
            "players": [
                {"seat": s, "number": p, "name": t.name_of(p)} for s, p in enumerate(x.players, 1)
            ],
        }
        for x in rnd.tables
    ]


def cmd_seat(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    out = uc.seat(store, _slug(args), _opt(args, "division"), args.round, who=_who(args))
    t = out.tournament
    key = uc.resolve_division(t, _opt(args, "division"))
    index, number, _ = uc.current_round(t, key)
    tables = _seating_rows(t, key, index, number)
    if _opt(args, "json"):
        _print_json(
            {
                "stage": index + 1,
                "round": number,
                "tables": tables,
                "notices": [n.text for n in out.notices],
            }
        )
        return 0
    from rich.table import Table

    con = _console()
    for n in out.notices:
        con.print(f"• {n.text}")
    table = Table(
        "table",
        "seat 1",
        "seat 2",
        "seat 3",
        "seat 4",
        title=f"{t.division(key).stages[index].format.title}, round {number}",
    )
    for x in tables:
        cells = [f"{p['name']} (#{p['number']})" for p in x["players"]]
        table.add_row(str(x["table"]), *cells, *([""] * (4 - len(cells))))
    con.print(table)
    return 0


def cmd_close(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    out = uc.close(store, _slug(args), _opt(args, "division"), who=_who(args))
    _notices(args, out.notices, {})
    return 0


def _penalty(value: str, rules: Any, where: str) -> int:
    v = value.strip()
    if not v:
        return 0
    # The rules' penalty policy (core/penalties.py) says what × marks are worth.
    marks: int | None = rules.penalty_policy.of_marks(v, rules.failed_turn_points)
    if marks is not None:
        return marks
    try:
        return abs(int(v.replace("−", "-")))
    except ValueError:
        raise Refused(f"{where}: penalty {value!r} is neither points nor × marks") from None


def read_sheet_csv(
    path: Path, t: Any, key: str, sheet: Any, round_number: int, *, stage: int | None = None
) -> tuple[list[Any], dict[tuple[int, int], int]]:
    """A table's games from ``game,player,points[,penalty][,winner]`` (optional
    ``round`` and ``table`` columns must match). Games are numbered from 1, or across
    the stage (round 3 of two-game seatings: games 5 and 6). Returns the games and,
    for each (game, seat), the CSV line."""
    from meldtour.application import GameEntry, UseCaseError, find_player
    from meldtour.application.sheets import stage_index
    from meldtour.core.refusal import Refused as CoreRefused
    from meldtour.tournament.numbering import sheet_games

    reader = csv.DictReader(_csv_text(path).splitlines())
    fields = {f.strip().lower() for f in reader.fieldnames or []}
    if not {"game", "player", "points"} <= fields:
        raise Refused(f"{path}: the header needs game,player,points (penalty, winner optional)")
    rules = t.division(key).rules
    seats = {p: s for s, p in enumerate(sheet.players, 1)}
    rows: dict[int, dict[int, tuple[int, int, bool | None, int]]] = {}
    for row in reader:
        line = reader.line_num
        r = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k is not None}
        if not any(r.values()):
            continue
        where = f"{path} line {line}"
        for col, want in (("round", round_number), ("table", sheet.table)):
            if r.get(col) and r[col] != str(want):
                raise Refused(f"{where}: {col} {r[col]} is not {want}")
        try:
            game = int(r["game"])
            points = int(r["points"].replace("+", "").replace("−", "-"))
        except ValueError:
            raise Refused(f"{where}: game and points must be whole numbers") from None
        try:
            player = find_player(t, r["player"], key)
        except UseCaseError as exc:
            raise Refused(f"{where}: {said(exc)}") from None
        if player not in seats:
            raise Refused(
                f"{where}: {t.name_of(player)} (#{player}) does not sit at table {sheet.table}"
            )
        if game < 1:
            raise Refused(f"{where}: game {game}: games are numbered from 1")
        seat = seats[player]
        if seat in rows.setdefault(game, {}):
            raise Refused(f"{where}: game {game} of {t.name_of(player)} appears twice")
        win = r.get("winner", "")
        rows[game][seat] = (
            points,
            _penalty(r.get("penalty", ""), rules, where),
            None if win == "" else win in ("1", "yes", "true", "x", "W"),
            line,
        )
    rnd_rows = t.division(key).stages[stage_index(t, key, stage)].rounds[: round_number - 1]
    before = sum(len(r.tables[0].sheet.games) for r in rnd_rows if r.tables)
    try:
        own = sheet_games(list(rows), games=len(sheet.games), before=before)
    except CoreRefused as exc:
        raise Refused(f"{path}: round {round_number}, table {sheet.table}: {exc}") from None
    rows = {g: rows[n] for g, n in zip(own, sorted(rows), strict=True)}
    games = []
    lines: dict[tuple[int, int], int] = {}
    for game in sorted(rows):
        got = rows[game]
        missing = [sheet.players[s - 1] for s in range(1, len(sheet.players) + 1) if s not in got]
        if missing:
            raise Refused(
                f"{path}: game {game} has no row for "
                + ", ".join(f"{t.name_of(p)} (#{p})" for p in missing)
            )
        order = range(1, len(sheet.players) + 1)
        marked = [s for s in order if got[s][2]]
        games.append(
            GameEntry(
                game,
                tuple(got[s][0] for s in order),
                tuple(got[s][1] for s in order),
                marked[0] if len(marked) == 1 else None,
            )
        )
        for s in order:
            lines[(game, s)] = got[s][3]
    if not games:
        raise Refused(f"{path}: no games")
    return games, lines


def _sheet_json(t: Any, sheet: Any, version: int) -> dict[str, Any]:
    return {
        "round": sheet.round,
        "table": sheet.table,
        "version": version,
        "status": sheet.status,
        "counted": sheet.counted is not None,
        "players": [
            {"seat": s, "number": p, "name": t.name_of(p)} for s, p in enumerate(sheet.players, 1)
        ],
        "games": [
            {
                "game": g,
                "points": list(line.points),
                "penalties": list(line.penalties),
                "winner": line.winner,
            }
            for g, line in enumerate(sheet.games, 1)
        ],
        "entered_by": sheet.entered_by,
        "submitted_by": sheet.submitted_by,
        "corrections": [
            {
                "cell": str(c.cell),
                "old": c.old,
                "new": c.new,
                "who": c.who,
                "why": c.why,
                "at": c.at,
            }
            for c in sheet.corrections
        ],
    }


def _show_sheet(t: Any, sheet: Any, version: int) -> None:
    from rich.table import Table

    table = Table(
        "game",
        *(f"{t.name_of(p)} (#{p})" for p in sheet.players),
        "winner",
        title=f"round {sheet.round}, table {sheet.table}: {sheet.status}, version {version}",
    )
    for g, line in enumerate(sheet.games, 1):
        cells = []
        for pts, pen in zip(line.points, line.penalties, strict=True):
            cell = "" if pts is None else f"{pts:+d}"
            cells.append(cell + (f" ({-pen})" if pen else ""))
        win = t.name_of(sheet.players[line.winner - 1]) if line.winner else ""
        table.add_row(str(g), *cells, win)
    con = _console()
    con.print(table)
    for c in sheet.corrections:
        con.print(f"  corrected {c.cell}: {c.old} → {c.new} by {c.who} ({c.why}) {c.at}")


def cmd_sheet(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    slug, div = _slug(args), _opt(args, "division")
    act = args.sheet_action
    if act is None:
        raise Refused("sheet: give an action: enter, show or correct")
    sheet, version, key = uc.get_sheet(store, slug, div, args.round, args.table, stage=args.stage)
    t = uc.read(store, slug)
    if act == "show":
        if _opt(args, "json"):
            _print_json(_sheet_json(t, sheet, version))
        else:
            _show_sheet(t, sheet, version)
        return 0
    if act == "correct":
        seat = (
            1 + sheet.players.index(uc.find_player(t, args.player, key))
            if uc.find_player(t, args.player, key) in sheet.players
            else None
        )
        if seat is None:
            raise Refused(f"{args.player} does not sit at table {args.table}")
        changes: dict[tuple[int, int, str], int | None] = {}
        if args.points is not None:
            changes[(args.game, seat, "points")] = args.points
        if args.penalty is not None:
            changes[(args.game, seat, "penalty")] = abs(args.penalty)
        if args.winner:
            changes[(args.game, 0, "winner")] = seat
        if not changes:
            raise Refused("give --points, --penalty or --winner")
        result = _guard(
            lambda: uc.correct_sheet(
                store,
                slug,
                key,
                args.round,
                args.table,
                changes,
                who=_who(args),
                why=args.why,
                version=args.version,
                stage=args.stage,
                reaward=args.reaward,
            ),
            args,
            None,
        )
        return _report_sheet(args, t, result, {})
    if args.file is not None:
        games, lines = read_sheet_csv(args.file, t, key, sheet, args.round, stage=args.stage)
    else:
        games, lines = _prompt_sheet(t, key, sheet, version), {}
    result = _guard(
        lambda: uc.enter_sheet(
            store,
            slug,
            key,
            args.round,
            args.table,
            games,
            who=_who(args),
            why=args.why,
            version=args.version if args.version is not None else version,
            stage=args.stage,
            submit=not args.draft,
            reaward=args.reaward,
        ),
        args,
        (t, sheet, games),
    )
    return _report_sheet(args, t, result, lines)


def _guard(call: Callable[[], Any], args: argparse.Namespace, typed: Any) -> Any:
    """Run a sheet save; on a conflict keep what was typed in a file and say so."""
    from meldtour.application.circuit.results import AwardsWouldChange
    from meldtour.store.errors import SheetConflict

    try:
        return call()
    except AwardsWouldChange as exc:
        if exc.reaward is not None:
            print_reaward(exc.reaward, sys.stderr)
        raise Refused(
            f"{said(exc)}: nothing was saved; to correct it and award again, "
            "run the same command with --reaward"
        ) from None
    except SheetConflict as exc:
        saved = ""
        if typed is not None:
            t, sheet, games = typed
            path = Path(f"unsaved-round{sheet.round}-table{sheet.table}.csv")
            _write_games_csv(path, t, sheet, games)
            saved = (
                f"; what you entered is in {path}: check the sheet (`meldtour tournament "
                f"sheet show {sheet.round} {sheet.table}`) and enter it again"
            )
        raise Refused(f"{said(exc)}{saved}") from None


def _place(n: int | None) -> str:
    if n is None:
        return "-"
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def print_reaward(r: Any, out: Any) -> None:
    """What a correction to an awarded division changes (or changed), line by line."""
    print(
        f"{r.tournament}/{r.division} ({r.division_name}) is awarded; the correction changes:",
        file=out,
    )
    for p in r.places:
        print(f"  place: {p.name} (#{p.number}) {_place(p.before)} → {_place(p.after)}", file=out)
    for z in r.prizes:
        print(f"  prize {z.place}: {z.before or '-'} → {z.after or '-'}", file=out)
    for q in r.seats:
        to = f" (for {', '.join(q.leads_to)})" if q.leads_to else ""
        print(
            f"  qualification {q.label}{to}: loses {', '.join(q.lost) or '-'}; gains "
            f"{', '.join(q.gained) or '-'}",
            file=out,
        )
    for x in r.points:
        print(f"  ranking {x.ranking}: {x.name} {x.before:.2f} → {x.after:.2f} points", file=out)
    for place, name in r.superseded:
        print(f"  certificate printed, now superseded: place {place}, {name}", file=out)
    if r.empty:
        print("  nothing published changes", file=out)


def _write_games_csv(path: Path, t: Any, sheet: Any, games: Sequence[Any]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["game", "player", "points", "penalty", "winner"])
        for g in games:
            for s, p in enumerate(sheet.players, 1):
                pen = g.penalties[s - 1] if g.penalties else 0
                w.writerow([g.game, p, g.points[s - 1], pen or "", 1 if g.winner == s else ""])


def _report_sheet(
    args: argparse.Namespace, t: Any, result: Any, lines: dict[tuple[int, int], int]
) -> int:
    problems = []
    for p in result.problems:
        line = lines.get((p.cell.game, p.cell.seat))
        rows = sorted(v for (g, _), v in lines.items() if g == p.cell.game)
        where = f"line {line}: " if line else f"lines {rows[0]}-{rows[-1]}: " if rows else ""
        problems.append(where + str(p))
    if _opt(args, "json"):
        _print_json(
            {
                **_sheet_json(t, result.sheet, result.version),
                "problems": problems,
                "reawarded": [r.as_json() for r in result.reawards],
            }
        )
    else:
        for r in result.reawards:
            print_reaward(r, sys.stdout)
            print(f"  awarded again: {r.tournament}/{r.division}")
        con = _console()
        if problems:
            con.print(
                f"round {result.sheet.round}, table {result.sheet.table}: kept as a "
                f"draft (version {result.version}), not counted:"
            )
            for p in problems:
                con.print(f"  • {p}")
        else:
            con.print(
                f"round {result.sheet.round}, table {result.sheet.table}: "
                f"{'counted' if result.sheet.counted else 'saved as a draft'} "
                f"(version {result.version})"
            )
            for n in result.notices:
                if n.what not in ("sheet_counted",):
                    con.print(f"  • {n.text}")
    return 1 if problems else 0


def _prompt_sheet(t: Any, key: str, sheet: Any, version: int) -> list[Any]:
    """Ask for every game at the terminal, checking each game as it is entered."""
    from meldtour.application import GameEntry
    from meldtour.tournament.sheets import enter_game

    rules = t.division(key).rules
    con = _console()
    con.print(
        f"round {sheet.round}, table {sheet.table} (version {version}); enter each "
        f"player's points, + for the winner, − for losers"
    )
    games = []
    draft = sheet
    for g in range(1, len(sheet.games) + 1):
        while True:
            points: list[int | None] = []
            pens: list[int] = []
            for s, p in enumerate(sheet.players, 1):
                points.append(_ask_int(f"game {g}, seat {s}, {t.name_of(p)} (#{p}) points: "))
                if rules.failed_turn_points:
                    raw = input("  penalty (× marks or points, Enter for none): ")
                    pens.append(_penalty(raw, rules, "penalty"))
                else:
                    pens.append(0)
            entry = GameEntry(g, tuple(points), tuple(pens), None)
            tops = [s for s, v in enumerate(points, 1) if v == max(x or 0 for x in points)]
            if len(tops) > 1:
                entry = GameEntry(
                    g,
                    tuple(points),
                    tuple(pens),
                    _ask_int(f"seats {tops} share the top: winner seat? "),
                )
            draft, problems = enter_game(
                draft,
                g,
                entry.points,
                winner=entry.winner,
                penalties=entry.penalties,
                rules=rules,
                who="check",
            )
            if not problems:
                games.append(entry)
                break
            for p in problems:
                con.print(f"  • {p}")
            con.print(f"  enter game {g} again")
    return games


def _ask_int(prompt: str) -> int:
    while True:
        raw = input(prompt).strip().replace("−", "-").replace("+", "")
        try:
            return int(raw)
        except ValueError:
            print("  a whole number, please")


def cmd_simulate(store: Any, args: argparse.Namespace) -> int:
    import random

    from meldtour import application as uc
    from meldtour.tournament.simulate import plausible_game

    slug, div = _slug(args), _opt(args, "division")
    t = uc.read(store, slug)
    key = uc.resolve_division(t, div)
    index, number, closed = uc.current_round(t, key)
    if args.round != number or closed:
        raise Refused(f"round {args.round} is not the open round (seat it first)")
    rnd = t.division(key).stages[index].rounds[number - 1]
    rules = t.division(key).rules
    todo = [x for x in rnd.tables if not x.counted]
    counted = 0
    with _progress(len(todo), "simulating", not _opt(args, "json")) as tick:
        for x in todo:
            rng = random.Random(f"{args.seed}:{key}:{index}:{number}:{x.number}")
            games = []
            for g in range(1, len(x.sheet.games) + 1):
                pg = plausible_game(rng, len(x.players), rules)
                games.append(uc.GameEntry(g, pg.points, pg.penalties, pg.winner))
            out = uc.enter_sheet(store, slug, key, number, x.number, games, who=_who(args))
            counted += out.counted
            tick()
    if _opt(args, "json"):
        _print_json({"round": number, "sheets": counted})
    else:
        _console().print(f"round {number}: {counted} sheets entered and counted")
    return 0


def _standing_rows(t: Any, table: Any) -> list[dict[str, Any]]:
    from meldtour.tournament.standings import score_json

    return [
        {
            "rank": s.rank,
            "player": s.player,
            "name": t.name_of(s.player),
            "wins": s.wins,
            "points": s.points,
            "score": score_json(s.score),
            "games": s.games,
            "decided_by": s.decided_by,
        }
        for s in table
    ]


def cmd_standings(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    t, key, table = uc.standings(store, _slug(args), _opt(args, "division"), args.stage)
    rows = _standing_rows(t, table)
    if _opt(args, "json"):
        _print_json(rows)
        return 0
    from rich.table import Table

    index = (args.stage or len(t.division(key).stages)) - 1
    out = Table(
        "rank",
        "no.",
        "name",
        "wins",
        "points",
        "score",
        "games",
        "decided by",
        title=f"{t.division(key).name}: {t.division(key).stages[index].format.title}",
    )
    for r in rows:
        out.add_row(
            str(r["rank"]),
            str(r["player"]),
            r["name"],
            str(r["wins"]),
            f"{r['points']:+d}",
            str(r["score"]),
            str(r["games"]),
            r["decided_by"],
        )
    _console().print(out)
    return 0


def _ranking_rows(ranking: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {
            "place": p.place,
            "player": p.player,
            "name": p.name,
            "stage": p.stage,
            "wins": p.standing.wins if p.standing else None,
            "points": p.standing.points if p.standing else None,
        }
        for p in ranking
    ]


def cmd_ranking(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    _, key, ranking = uc.ranking(store, _slug(args), _opt(args, "division"))
    rows = _ranking_rows(ranking)
    if _opt(args, "json"):
        _print_json(rows)
        return 0
    from rich.table import Table

    out = Table("place", "no.", "name", "stage", "wins", "points", title=f"{key}: ranking")
    for r in rows:
        out.add_row(
            str(r["place"]),
            str(r["player"]),
            r["name"],
            r["stage"],
            "" if r["wins"] is None else str(r["wins"]),
            "" if r["points"] is None else f"{r['points']:+d}",
        )
    _console().print(out)
    return 0


def cmd_advance(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    out = uc.advance(store, _slug(args), _opt(args, "division"), who=_who(args))
    t = out.tournament
    key = uc.resolve_division(t, _opt(args, "division"))
    stage = t.division(key).stages[-1]
    entrants = [
        {"seed": i, "number": p, "name": t.name_of(p)} for i, p in enumerate(stage.entrants, 1)
    ]
    if _opt(args, "json"):
        _print_json(
            {
                "stage": len(t.division(key).stages),
                "name": stage.format.title,
                "entrants": entrants,
                "notices": [n.text for n in out.notices],
            }
        )
        return 0
    con = _console()
    for n in out.notices:
        con.print(f"• {n.text}")
    if len(entrants) <= 16:
        for e in entrants:
            con.print(f"  {e['seed']}. {e['name']} (#{e['number']})")
    return 0


def cmd_awards(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    lines = uc.award(store, _slug(args), _opt(args, "division"), who=_who(args))
    rows: list[dict[str, Any]] = [
        {"place": a.place, "player": a.number, "name": a.name, "division": a.division}
        for a in lines
    ]
    if _opt(args, "json"):
        _print_json(rows)
        return 0
    from rich.table import Table

    out = Table("place", "no.", "name", title="awards")
    for r in rows:
        out.add_row(str(r["place"]), str(r["player"]), r["name"])
    _console().print(out)
    return 0


def cmd_export(store: Any, args: argparse.Namespace) -> int:
    """players.csv, results.csv (what `meldtour standings` reads), and per division
    standings and ranking; awards.csv when awarded."""
    from meldtour import application as uc
    from meldtour.application.spreadsheet import write_csv
    from meldtour.tournament import stage_standings
    from meldtour.tournament.stages import final_ranking
    from meldtour.tournament.standings import score_json

    slug = _slug(args)
    t = uc.read(store, slug)
    out: Path = args.csv
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def write(name: str, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        with (out / name).open("w", newline="", encoding="utf-8") as f:
            write_csv(f, [header, *rows])
        written.append(name)

    write(
        "players.csv",
        ["number", "name", "division", "tags", "generation", "status"],
        [
            [r.player, r.name, r.division, ";".join(sorted(r.tags)), r.generation or "", r.status]
            for r in t.registrations
        ],
    )
    for d in t.divisions:
        if not d.stages:
            continue
        rows = []
        for i, st in enumerate(d.stages, 1):
            for g in st.results():
                for p, pts, pen in zip(g.players, g.points, g.penalties, strict=True):
                    rows.append(
                        [i, g.round, g.table, g.game, p, pts, pen, 1 if g.winner == p else 0]
                    )
        write(
            f"results-{d.key}.csv",
            ["stage", "round", "table", "game", "player", "points", "penalty", "winner"],
            rows,
        )
        for i in range(len(d.stages)):
            standings = stage_standings(t, d.key, i)
            write(
                f"standings-{d.key}-stage{i + 1}.csv",
                ["rank", "player", "name", "wins", "points", "score", "decided_by"],
                [
                    [
                        s.rank,
                        s.player,
                        t.name_of(s.player),
                        s.wins,
                        s.points,
                        score_json(s.score),
                        s.decided_by,
                    ]
                    for s in standings
                ],
            )
        write(
            f"ranking-{d.key}.csv",
            ["place", "player", "name", "stage"],
            [[p.place, p.player, p.name, p.stage] for p in final_ranking(t, d.key)],
        )
    awarded = uc.awarded(store, slug)
    if awarded:
        write("awards.csv", ["division", "place", "player", "name"], [list(a) for a in awarded])
    if _opt(args, "json"):
        _print_json({"dir": str(out), "files": written})
    else:
        _console().print(f"wrote {len(written)} files to {out}: {', '.join(written)}")
    return 0


def cmd_audit(store: Any, args: argparse.Namespace) -> int:
    from meldtour import application as uc

    lines = uc.audit_log(store, _slug(args))
    if _opt(args, "json"):
        _print_json(lines)
        return 0
    from rich.table import Table

    out = Table("at", "who", "action", "what", "why")
    for a in lines:
        out.add_row(a["at"][:19], a["who"], a["action"], f"{a['entity']} {a['key']}", a["why"])
    _console().print(out)
    return 0


HANDLERS: dict[str, Callable[[Any, argparse.Namespace], int]] = {
    "new": cmd_new,
    "list": cmd_list,
    "show": cmd_show,
    "players": cmd_players,
    "checkin": cmd_checkin,
    "seat": cmd_seat,
    "close": cmd_close,
    "sheet": cmd_sheet,
    "simulate": cmd_simulate,
    "standings": cmd_standings,
    "ranking": cmd_ranking,
    "advance": cmd_advance,
    "awards": cmd_awards,
    "export": cmd_export,
    "audit": cmd_audit,
}
