"""``meldtour seat``: seat N players for R seatings, balanced, random or swiss.

Players are numbered from 1. With ``--json`` the output is
``{"seatings": [[[players of table 1 in seat order], ...], ...], "repeats": int}``,
where ``repeats`` counts, over all pairs, the meetings beyond their first.
A method that seats by the standings (``swiss``) needs results between seatings: the
command plays ``--games`` plausible games at every table after each seating (seeded
by ``--seed``, so the output is repeatable), and adds ``points`` (each player's points
before each seating, player 1 first) and ``standings_gap`` (the mean, over the tables
of every seating after the first, of the spread of their players' ranks).
``--groups FILE.csv`` (header ``player,group``, one row per player and group) keeps
players of one group apart: a hard constraint unless ``--soft-groups``.
Exit codes: 0 seated, 1 the players cannot be seated as asked, 2 usage.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

from meldtour.tournament.seating import (
    SeatingError,
    find_seater,
    group_clashes,
    plan_seatings,
    repeats,
    seat_counts,
    seaters_for,
)
from meldtour.tournament.simulate import simulate_seatings

HELP = "Seat players for several seatings (balanced, random or swiss) and count repeated meetings."
METHODS = tuple(s.name for s in seaters_for("seatings"))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players", type=int, required=True, metavar="N", help="number of players (numbered 1..N)"
    )
    parser.add_argument(
        "--seatings",
        type=int,
        required=True,
        metavar="R",
        help="number of seatings (rounds with new tables)",
    )
    parser.add_argument(
        "--table-size",
        type=int,
        default=4,
        choices=(3, 4),
        help="players a table (the other size fills in; default 4)",
    )
    parser.add_argument(
        "--method",
        choices=METHODS,
        default="balanced",
        help="balanced (default), random, or swiss (by the standings, from simulated games)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=2,
        metavar="G",
        help="games simulated at each table between seatings, for a "
        "method by the standings (default 2)",
    )
    parser.add_argument("--seed", default="0", help="seed of every draw (default 0)")
    parser.add_argument(
        "--groups",
        type=Path,
        metavar="FILE.csv",
        help="CSV with header player,group: groups kept apart",
    )
    parser.add_argument(
        "--soft-groups",
        action="store_true",
        help="groups apart only where possible (default: always)",
    )
    parser.add_argument(
        "--effort",
        type=float,
        default=1.0,
        help="scale the optimiser's number of moves (default 1)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")


def read_groups(path: Path, players: int) -> dict[int, set[str]]:
    """Read ``player,group`` rows; errors name the line."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    rows = csv.DictReader(text.splitlines())
    fields = [f.strip().lower() for f in rows.fieldnames or []]
    if "player" not in fields or "group" not in fields:
        raise ValueError(f"{path}: the header must be player,group")
    out: dict[int, set[str]] = {}
    for line, row in enumerate(rows, 2):
        row = {k.strip().lower(): (v or "").strip() for k, v in row.items() if k}
        try:
            p = int(row["player"])
        except ValueError:
            raise ValueError(
                f"{path} line {line}: player {row['player']!r} is not a number"
            ) from None
        if not 1 <= p <= players:
            raise ValueError(f"{path} line {line}: player {p} is not one of 1-{players}")
        if row["group"]:
            out.setdefault(p, set()).add(row["group"])
    return out


def run(args: argparse.Namespace) -> int:
    if args.players < 1 or args.seatings < 0:
        print(
            "meldtour seat: --players must be positive and --seatings not negative", file=sys.stderr
        )
        return 2
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    try:
        groups = read_groups(args.groups, args.players) if args.groups else {}
        start = time.perf_counter()
        event = None
        if find_seater(args.method).ahead:
            plan = plan_seatings(
                range(1, args.players + 1),
                args.seatings,
                method=args.method,
                table_size=args.table_size,
                seed=seed,
                groups=groups or None,
                groups_hard=not args.soft_groups,
                effort=args.effort,
            )
        else:
            event = simulate_seatings(
                args.players,
                args.seatings,
                args.method,
                seed=seed,
                table_size=args.table_size,
                games=max(1, args.games),
                groups=groups or None,
                groups_hard=not args.soft_groups,
                effort=args.effort,
            )
            plan = event.seatings
        elapsed = time.perf_counter() - start
    except (SeatingError, ValueError) as exc:
        print(f"meldtour seat: {exc}", file=sys.stderr)
        return 1
    reps = repeats(plan)
    if args.json:
        out: dict[str, object] = {"seatings": [s.to_lists() for s in plan], "repeats": reps}
        if groups:
            out["group_clashes"] = group_clashes(plan, groups)
        if event is not None:
            out["points"] = [list(p) for p in event.points]
            out["standings_gap"] = round(event.gap(), 3)
        print(json.dumps(out, separators=(",", ":")))
        return 0
    for r, s in enumerate(plan, 1):
        print(f"Seating {r}")
        for k, table in enumerate(s.tables, 1):
            print(f"  table {k:>3}: " + " ".join(f"{p:>4}" for p in table))
    firsts = [c[1] for c in seat_counts(plan).values()]
    print(f"repeats: {reps}")
    if firsts:
        print(f"first seats per player: {min(firsts)}-{max(firsts)}")
    if groups:
        print(f"group clashes: {group_clashes(plan, groups)}")
    if event is not None:
        print(f"mean standings gap at a table: {event.gap():.2f}")
    print(f"time: {elapsed:.2f} s")
    return 0
