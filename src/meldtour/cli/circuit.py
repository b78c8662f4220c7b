"""The circuit's commands: ``meldtour ranking``, ``meldtour rating``, ``meldtour people``
and ``meldtour qualify`` (each a module of its own that calls into this one).

    meldtour ranking --json                            # the ranking today
    meldtour ranking --ranking krf --as-of 2016-01-01 --json
    meldtour ranking define krf --name "KRF ranking" --best 4 --half-life 365
    meldtour ranking count krf -t busan -d general --level national
    meldtour rating --pool japan --as-of 2026-09-01     # a pool's list on a date
    meldtour rating pool korea -t club-2026-02 -d club  # a Korean club night
    meldtour people list 김민지                          # who is who, with the evidence
    meldtour people merge 3 17 --why "same member number 1042"
    meldtour people split 3 --tournament club-2026-02 --why "a different 김민지"
    meldtour qualify grant wrc-2018 -t busan -d general --seats 4 --label "2018 Korean selection"
    meldtour qualify decline wrc-2018 -t busan 12 --why "cannot travel"
    meldtour qualify quota tohoku-seat -t japan -d open --seats 1 --open --until 2026-08-01

Exit codes: 0 done, 1 refused (the message says why), 2 usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from meldtour.cli.db import add_db_argument
from meldtour.cli.db import print_json as _json
from meldtour.cli.db import who_of as _who


def _common(p: argparse.ArgumentParser, default: Any = argparse.SUPPRESS) -> None:
    add_db_argument(p, default)
    p.add_argument("--json", action="store_true", default=default, help="print JSON")
    p.add_argument(
        "--who",
        metavar="NAME",
        default=default,
        help="who acts, for the audit log (default $MELDTOUR_USER or the login)",
    )


def _person(token: str) -> int:
    from meldtour.application.errors import UseCaseError

    s = token.strip().lstrip("#")
    if not s.isdigit():
        raise UseCaseError("circuit.bad_number", what="a person", value=repr(token))
    return int(s)


def _run(
    prog: str, args: argparse.Namespace, handler: Callable[[Any, argparse.Namespace], int]
) -> int:
    from meldtour.application.maintenance import open_site
    from meldtour.core.refusal import Refused

    try:
        store = open_site(getattr(args, "db", None))
    except Refused as exc:
        print(f"meldtour {prog}: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # the database does not answer
        print(f"meldtour {prog}: cannot open the database: {exc}", file=sys.stderr)
        return 1
    try:
        return handler(store, args)
    except Refused as exc:
        print(f"meldtour {prog}: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()


def _table(*columns: str) -> Any:
    from rich.table import Table

    return Table(*columns)


def _print(table: Any) -> None:
    from rich.console import Console

    Console(highlight=False, width=None if sys.stdout.isatty() else 120).print(table)


# ---------------------------------------------------------------------------
# meldtour ranking

RANKING_HELP = "The ranking of the circuit (each line with the tournaments behind it)."


def ranking_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser, None)
    parser.add_argument(
        "--ranking",
        metavar="KEY",
        help="which ranking (default: the only one; 'national' when none is defined)",
    )
    parser.add_argument(
        "--as-of", metavar="DATE", help="the ranking on DATE (YYYY-MM-DD, default today)"
    )
    sub = parser.add_subparsers(dest="ranking_action", metavar="ACTION")
    d = sub.add_parser("define", help="create a ranking or change its numbers")
    _common(d)
    d.add_argument("key", metavar="KEY")
    d.add_argument("--name", default="")
    d.add_argument("--organisation", default="")
    d.add_argument("--base", help="points for a win at weight 1 (default 1000)")
    d.add_argument(
        "--weight",
        action="append",
        default=[],
        metavar="LEVEL=W",
        help="a level's weight (default world=2 national=1 regional=0.5 monthly=0.25)",
    )
    d.add_argument(
        "--half-life", metavar="DAYS", help="points halve every DAYS (0: no decay; default 365)"
    )
    d.add_argument("--best", help="how many best results count (default 4)")
    d.add_argument(
        "--table",
        metavar="P1,P2,...",
        help="points by place instead of the percentile (times the weight)",
    )
    d.add_argument("--season-start", metavar="DATE")
    d.add_argument("--season-end", metavar="DATE")
    d.add_argument(
        "--only-listed",
        action="store_true",
        help="only the divisions named with `count` (default: every awarded one)",
    )
    d.add_argument(
        "--level",
        default="national",
        help="the level of a division counted without one (default national)",
    )
    c = sub.add_parser("count", help="a division counts for a ranking, at a level")
    _common(c)
    c.add_argument("key", metavar="KEY")
    c.add_argument("-t", "--tournament", required=True, metavar="SLUG")
    c.add_argument("-d", "--division", required=True, metavar="KEY")
    c.add_argument("--level")
    ls = sub.add_parser("list", help="the rankings and their numbers")
    _common(ls)
    ta = sub.add_parser(
        "tell-apart",
        help="what tells namesakes apart on the public lists: "
        "letter, club, birth_year or member_number",
    )
    _common(ta)
    ta.add_argument("choice", metavar="CHOICE")


def ranking_run(args: argparse.Namespace) -> int:
    return _run("ranking", args, _ranking)


#: A ranking's fields by the options of ``meldtour ranking define``.
OPTIONS = {
    "key": "KEY",
    "name": "--name",
    "organisation": "--organisation",
    "base": "--base",
    "table": "--table",
    "weights": "--weight",
    "half_life": "--half-life",
    "best": "--best",
    "season_start": "--season-start",
    "season_end": "--season-end",
    "level": "--level",
}


def _ranking(store: Any, args: argparse.Namespace) -> int:
    from meldtour.application import circuit as c
    from meldtour.application.errors import UseCaseError
    from meldtour.core.refusal import english

    action = getattr(args, "ranking_action", None)
    if action == "define":
        weights = []
        for item in args.weight:
            level, eq, w = item.partition("=")
            if not eq:
                raise UseCaseError("circuit.weight_item", item=repr(item))
            weights.append((level, w))
        form = c.RankingForm(
            args.key,
            args.name,
            args.organisation,
            "table" if args.table else "percentile",
            args.base or "",
            args.table or "",
            tuple(weights),
            args.half_life or "",
            args.best or "",
            args.season_start or "",
            args.season_end or "",
            args.only_listed,
            args.level,
        )
        try:
            info = c.save_ranking(store, form, who=_who(args))
        except c.RankingRefused as exc:
            for field, refusal in exc.fields.items():
                print(
                    f"meldtour ranking define: {OPTIONS.get(field, field)}: {english(refusal)}",
                    file=sys.stderr,
                )
            return 1
        _say_info(args, info)
        return 0
    if action == "count":
        info = c.count_division(
            store, args.key, args.tournament, args.division, who=_who(args), level=args.level
        )
        _say_info(args, info)
        return 0
    if action == "tell-apart":
        c.set_discriminator(store, args.choice, who=_who(args))
        print(f"namesakes are told apart by {args.choice} on the public lists")
        return 0
    if action == "list":
        infos = c.rankings(store)
        if args.json:
            _json([_info_json(i) for i in infos])
        else:
            for i in infos:
                _say_info(args, i)
        return 0
    c.backfill(store)
    table = c.ranking_table(store, args.ranking, c.parse_day(args.as_of))
    if args.json:
        _json([line.as_json() for line in table.lines])
        return 0
    out = _table("rank", "person", "name", "points", "counted")
    for line in table.lines:
        out.add_row(
            str(line.rank),
            f"#{line.person}",
            line.name,
            f"{line.points:.1f}",
            "; ".join(
                f"{e.tournament}/{e.division} {e.place}. {e.points:.1f}"
                for e in line.events
                if e.counted
            ),
        )
    out.title = f"{table.info.name} · {table.as_of.isoformat()}"
    _print(out)
    return 0


def _info_json(info: Any) -> dict[str, Any]:
    from meldtour.application import circuit as c

    return {
        "key": info.key,
        "name": info.name,
        "organisation": info.organisation,
        "config": c.config_data(info.config),
        "counts_all": info.counts_all,
        "default_level": info.default_level,
    }


def _say_info(args: argparse.Namespace, info: Any) -> None:
    if getattr(args, "json", False):
        _json(_info_json(info))
        return
    cfg = info.config
    how = f"points by place {list(cfg.table)}" if cfg.table else f"{cfg.base:g} × percentile"
    print(
        f"{info.key}: {info.name} — {how} × weight "
        f"({', '.join(f'{k} {v:g}' for k, v in cfg.weights.items())}), half-life "
        f"{cfg.half_life_days:g} days, best {cfg.best}"
        + (
            f", season {cfg.season_start or '…'} – {cfg.season_end or '…'}"
            if cfg.season_start or cfg.season_end
            else ""
        )
        + (
            "; every awarded division counts"
            if info.counts_all
            else f"; {len(info.events)} divisions count"
        )
    )


# ---------------------------------------------------------------------------
# meldtour rating

RATING_HELP = (
    "A rating pool's list on a date (derived from the awarded divisions), the "
    "provisional players apart; a person's history; a division's pool."
)


def rating_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser, None)
    parser.add_argument(
        "--pool",
        metavar="POOL",
        help="which pool (korea, korea-children, japan, or the federation's; "
        "default the first with events)",
    )
    parser.add_argument(
        "--as-of", metavar="DATE", help="the rating on DATE (YYYY-MM-DD, default today)"
    )
    parser.add_argument(
        "--person", metavar="ID", help="one person's rating and history in every pool"
    )
    sub = parser.add_subparsers(dest="rating_action", metavar="ACTION")
    p = sub.add_parser(
        "pool", help="the pool a division counts in (instead of its template's; 'none': not rated)"
    )
    _common(p)
    p.add_argument("pool", metavar="POOL", nargs="?")
    p.add_argument("-t", "--tournament", required=True, metavar="SLUG")
    p.add_argument("-d", "--division", required=True, metavar="KEY")
    p.add_argument("--default", action="store_true", help="the template's pool again")
    p.add_argument("--why", default="")


def rating_run(args: argparse.Namespace) -> int:
    return _run("rating", args, _rating)


def _rating(store: Any, args: argparse.Namespace) -> int:
    from meldtour.application import circuit as c
    from meldtour.application.errors import UseCaseError

    if getattr(args, "rating_action", None) == "pool":
        if args.default == bool(args.pool):
            raise UseCaseError("rating.pool_key", key=repr(args.pool or ""))
        now_in = c.set_pool(
            store,
            args.tournament,
            args.division,
            None if args.default else args.pool,
            who=c.Acting.operator(_who(args)),
            why=args.why,
        )
        if args.json:
            _json({"tournament": args.tournament, "division": args.division, "pool": now_in})
        else:
            print(f"{args.tournament}/{args.division}: pool {now_in}")
        return 0
    day = c.parse_day(args.as_of)
    if args.person:
        rated = c.person_ratings(store, _person(args.person), day)
        if args.json:
            _json(
                [
                    {
                        "pool": r.pool,
                        **r.line.as_json(),
                        "history": [
                            {
                                "date": h.day.isoformat(),
                                "event": h.event,
                                "mu": round(h.mu, 4),
                                "sigma": round(h.sigma, 4),
                                "ordinal": round(h.ordinal, 4),
                            }
                            for h in r.history
                        ],
                    }
                    for r in rated
                ]
            )
            return 0
        for r in rated:
            out = _table("date", "event", "mu", "sigma", "ordinal")
            for h in r.history:
                out.add_row(
                    h.day.isoformat(), h.event, f"{h.mu:.2f}", f"{h.sigma:.2f}", f"{h.ordinal:.2f}"
                )
            out.title = (
                f"{r.pool}: {r.line.ordinal:.2f} (mu {r.line.mu:.2f}, sigma "
                f"{r.line.sigma:.2f}{', provisional' if r.line.provisional else ''})"
            )
            _print(out)
        return 0
    table = c.rating_table(store, args.pool, day)
    if args.json:
        _json(
            {
                "pool": table.pool,
                "as_of": table.as_of.isoformat(),
                "pools": list(table.pools),
                "events": table.events,
                "lines": [r.as_json() for r in table.lines],
                "provisional": [r.as_json() for r in table.provisional],
            }
        )
        return 0
    for title, lines in (
        (f"{table.pool} · {table.as_of.isoformat()}", table.lines),
        ("provisional", table.provisional),
    ):
        out = _table("rank", "person", "name", "rating", "mu", "sigma", "games", "last")
        for i, x in enumerate(lines, 1):
            out.add_row(
                str(i),
                f"#{x.person}",
                x.name,
                f"{x.ordinal:.2f}",
                f"{x.mu:.2f}",
                f"{x.sigma:.2f}",
                str(x.games),
                x.last.isoformat(),
            )
        out.title = title
        _print(out)
    return 0


# ---------------------------------------------------------------------------
# meldtour people

PEOPLE_HELP = "People across tournaments: list, show, set details, merge, split."


def people_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser, None)
    sub = parser.add_subparsers(dest="people_action", metavar="ACTION")

    def add(name: str, text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=text, description=text)
        _common(p)
        return p

    p = add("list", "everyone (or everyone of NAME), with what tells them apart")
    p.add_argument("name", nargs="?")
    p = add("show", "a person's details and tournaments")
    p.add_argument("person", metavar="PERSON")
    p = add("set", "record a person's member number, birth year, contact, privacy")
    p.add_argument("person", metavar="PERSON")
    p.add_argument("--member", metavar="NUMBER")
    p.add_argument("--birth-year", type=int)
    p.add_argument("--contact", help="telephone or e-mail (never shown in public)")
    p.add_argument("--private", action="store_true", help="keep off the public pages")
    p.add_argument("--public", action="store_true", help="show on the public pages")
    p = add("merge", "B is the same person as A: B's registrations move to A")
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    p.add_argument("--why", required=True)
    p.add_argument(
        "--keep",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="the value that stands where the two differ: member=KRF-3001, "
        "birth-year=1980 (the other is recorded in the people's log)",
    )
    p = add("split", "PERSON's registrations in these tournaments are someone else")
    p.add_argument("person", metavar="PERSON")
    p.add_argument("--tournament", action="append", required=True, metavar="SLUG")
    p.add_argument("--why", required=True)
    p = add("same", "registration NUMBER of tournament SLUG is PERSON")
    p.add_argument("-t", "--tournament", required=True, metavar="SLUG")
    p.add_argument("number", type=int, metavar="NUMBER")
    p.add_argument("person", metavar="PERSON")
    p.add_argument("--why", required=True)
    p = add("candidates", "who registration NUMBER of SLUG may be, with the evidence")
    p.add_argument("-t", "--tournament", required=True, metavar="SLUG")
    p.add_argument("number", type=int, metavar="NUMBER")


def people_run(args: argparse.Namespace) -> int:
    if not getattr(args, "people_action", None):
        print("meldtour people: give an action (see --help)", file=sys.stderr)
        return 2
    return _run("people", args, _people)


def _view_json(v: Any, *, contact: bool = True) -> dict[str, Any]:
    return {
        "person": v.person,
        "name": v.name,
        "member_number": v.member_number,
        "birth_year": v.birth_year,
        **({"contact": v.contact} if contact else {}),
        "public": v.public,
        "tournaments": [
            {
                "tournament": e.tournament,
                "date": e.date,
                "division": e.division,
                "number": e.number,
                "place": e.place,
                "field": e.field,
            }
            for e in v.entries
        ],
    }


def _show(args: argparse.Namespace, views: list[Any]) -> None:
    if args.json:
        _json([_view_json(v) for v in views])
        return
    out = _table("person", "name", "member", "born", "tournaments")
    for v in views:
        out.add_row(
            f"#{v.person}",
            v.name,
            v.member_number or "",
            str(v.birth_year or ""),
            ", ".join(
                f"{e.tournament} #{e.number}" + (f" ({e.place}.)" if e.place else "")
                for e in v.entries
            ),
        )
    _print(out)


def _people(store: Any, args: argparse.Namespace) -> int:
    from meldtour.application import circuit as c
    from meldtour.application.errors import UseCaseError

    action, who = args.people_action, _who(args)
    acting = c.Acting.operator(who)
    if action == "list":
        _show(args, c.people(store, args.name))
    elif action == "show":
        _show(args, [c.person(store, _person(args.person))])
    elif action == "set":
        public = False if args.private else True if args.public else None
        _show(
            args,
            [
                c.set_person(
                    store,
                    _person(args.person),
                    who=acting,
                    member_number=args.member,
                    birth_year=args.birth_year,
                    contact=args.contact,
                    public=public,
                )
            ],
        )
    elif action == "merge":
        chosen = {}
        for item in args.keep:
            field, eq, value = item.partition("=")
            if not eq:
                raise UseCaseError(
                    "circuit.keep_field", field=repr(item), fields=", ".join(c.KEEP_FIELDS)
                )
            chosen[field.strip()] = value.strip()
        out = c.merge(
            store, _person(args.a), _person(args.b), who=acting, why=args.why, keep_values=chosen
        )
        _moved(args, out, "merged")
    elif action == "split":
        out = c.split(store, _person(args.person), args.tournament, who=acting, why=args.why)
        _moved(args, out, "split")
    elif action == "same":
        out = c.same_person(
            store, args.tournament, args.number, _person(args.person), who=acting, why=args.why
        )
        _moved(args, out, "linked")
    elif action == "candidates":
        mine, found = c.candidates(store, args.tournament, args.number, who=acting)
        if args.json:
            _json(
                {
                    "registration": _view_json(mine, contact=False),
                    "candidates": [
                        {
                            **_view_json(x.person, contact=False),
                            "same_member_number": x.same_member,
                            "same_birth_year": x.same_birth_year,
                            "played_together": x.shared_tournament,
                        }
                        for x in found
                    ],
                }
            )
        else:
            _show(args, [mine, *[x.person for x in found]])
    return 0


def _moved(args: argparse.Namespace, out: Any, what: str) -> None:
    from meldtour.core.refusal import english

    if args.json:
        _json(
            {
                "person": _view_json(out.kept),
                "moved": list(out.moved),
                "warnings": [english(w) for w in out.warnings],
            }
        )
    else:
        print(
            f"{what}: {len(out.moved)} registrations now #{out.kept.person} {out.kept.name}; "
            "ratings computed again"
        )
        for w in out.warnings:
            print(f"warning: {english(w)}", file=sys.stderr)


# ---------------------------------------------------------------------------
# meldtour qualify

QUALIFY_HELP = "Qualifications: what an award grants, declines, the seats of a division."


def qualify_arguments(parser: argparse.ArgumentParser) -> None:
    _common(parser, None)
    sub = parser.add_subparsers(dest="qualify_action", metavar="ACTION")

    def add(name: str, text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=text, description=text)
        _common(p)
        return p

    p = add("grant", "places 1 to SEATS of a division qualify for KEY")
    p.add_argument("key", metavar="KEY")
    p.add_argument("-t", "--tournament", required=True, metavar="SLUG")
    p.add_argument("-d", "--division", required=True)
    p.add_argument("--seats", type=int, required=True)
    p.add_argument("--label", default="")
    p = add("decline", "the holder NUMBER of tournament SLUG declines KEY: it passes down")
    p.add_argument("key", metavar="KEY")
    p.add_argument("-t", "--tournament", required=True, metavar="SLUG")
    p.add_argument("number", type=int, metavar="NUMBER")
    p.add_argument("--why", default="")
    p = add("quota", "keep SEATS of a division for the holders of KEY (0 removes it)")
    p.add_argument("key", metavar="KEY")
    p.add_argument("-t", "--tournament", required=True, metavar="SLUG")
    p.add_argument("-d", "--division", required=True)
    p.add_argument("--seats", type=int, required=True)
    p.add_argument(
        "--open",
        action="store_true",
        help="reserve the seats inside an open division (the others are "
        "everyone's) instead of making it by qualification only",
    )
    p.add_argument(
        "--until",
        metavar="DATE",
        help="with --open: the seats are kept until DATE (YYYY-MM-DD), then released to everyone",
    )
    p = add("list", "the qualifications' lists: holders, declines, who is next")
    p.add_argument("key", nargs="?", metavar="KEY")
    p = add("seats", "who holds which seat of a division by qualification")
    p.add_argument("-t", "--tournament", required=True, metavar="SLUG")
    p.add_argument("-d", "--division", required=True)


def qualify_run(args: argparse.Namespace) -> int:
    if not getattr(args, "qualify_action", None):
        print("meldtour qualify: give an action (see --help)", file=sys.stderr)
        return 2
    return _run("qualify", args, _qualify)


def _holders_out(args: argparse.Namespace, hs: list[Any]) -> None:
    if args.json:
        _json(
            [
                {
                    "qualification": h.key,
                    "label": h.label,
                    "person": h.person,
                    "name": h.name,
                    "tournament": h.tournament,
                    "division": h.division,
                    "place": h.place,
                    "status": h.status,
                    "claim": h.claim,
                    "why": h.why,
                }
                for h in hs
            ]
        )
        return
    out = _table("qualification", "person", "name", "from", "place", "status", "claim code")
    for h in hs:
        out.add_row(
            h.label,
            f"#{h.person}",
            h.name,
            f"{h.tournament}/{h.division}",
            str(h.place),
            h.status + (f" ({h.why})" if h.why else ""),
            h.claim,
        )
    _print(out)


def _qualify(store: Any, args: argparse.Namespace) -> int:
    from meldtour.application import circuit as c

    action, who = args.qualify_action, c.Acting.operator(_who(args))
    if action == "grant":
        c.backfill(store)
        c.grant_qualification(
            store,
            args.tournament,
            args.division,
            args.key,
            label=args.label,
            seats=args.seats,
            who=who,
        )
        _holders_out(args, c.holders(store, args.key, who=who))
    elif action == "decline":
        _holders_out(
            args, c.decline(store, args.key, args.tournament, args.number, who=who, why=args.why)
        )
    elif action == "quota":
        c.set_quota(
            store,
            args.tournament,
            args.division,
            args.key,
            args.seats,
            who=who,
            open=args.open,
            until=args.until,
        )
        action = "seats"
    elif action == "list":
        _holders_out(args, c.holders(store, args.key, who=who))
    if action == "seats":
        views = c.seats(store, args.tournament, args.division, who=who)
        if args.json:
            _json(
                [
                    {
                        "qualification": v.key,
                        "label": v.label,
                        "seats": v.seats,
                        "taken": v.taken,
                        "open": v.open,
                        "until": v.until,
                        "released": v.released,
                        "holders": [
                            {"person": h.person, "name": h.name, "registered": n, "claim": h.claim}
                            for h, n in v.holders
                        ],
                        "declined": [
                            {"person": h.person, "name": h.name, "why": h.why} for h in v.declined
                        ],
                    }
                    for v in views
                ]
            )
        else:
            out = _table("qualification", "seats", "holder", "registered", "claim code")
            for v in views:
                kept = (
                    " (reserved"
                    + (f" until {v.until}" if v.until else "")
                    + (", released" if v.released else "")
                    + ")"
                    if v.open
                    else ""
                )
                for h, n in v.holders or ((None, None),):
                    out.add_row(
                        f"{v.label}{kept}",
                        f"{v.taken}/{v.seats}",
                        f"#{h.person} {h.name}" if h else "—",
                        f"#{n}" if n else "",
                        h.claim if h else "",
                    )
                for h in v.declined:
                    out.add_row(
                        f"{v.label}",
                        "",
                        f"#{h.person} {h.name}",
                        "declined" + (f": {h.why}" if h.why else ""),
                        "",
                    )
            _print(out)
    return 0
