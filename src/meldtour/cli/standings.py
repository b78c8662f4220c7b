"""``meldtour standings``: rank players from a CSV of game results.

The CSV's header is ``round,table,game,player,points,penalty`` (``penalty``
optional; an optional ``winner`` column marks the winner with 1, otherwise the one
player with the most points won). Rows of one round and table form a score sheet,
its players in the order of their first row. A sheet's games are numbered from 1 at
every seating, or across the stage as a spreadsheet kept over the day numbers them
(two-game seatings: round 3 plays games 5 and 6); a sheet that follows neither
numbering is refused, naming its line, round and table. ``penalty`` is penalty points (``50``
or ``-50``) or ``×`` marks (``××`` = two failed turns under the rule set).

Every sheet is checked as the score-entry screens check it; a failed check exits 1
with messages naming the CSV line. With ``--json`` the output is a list of
``{"rank", "player", "wins", "points", "score", "decided_by"}`` in rank order.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from meldtour.cli.jsonlines import rules_argument
from meldtour.core.refusal import Refused
from meldtour.core.rules import RuleSet, find_rules
from meldtour.tournament.numbering import games_before, sheet_games
from meldtour.tournament.sheets import (
    GameResult,
    Problem,
    enter_game,
    new_sheet,
    penalty_of_marks,
    results,
    submit,
)
from meldtour.tournament.standings import (
    DEFAULT_CHAIN,
    StandingRules,
    ThreeTable,
    rank_players,
    score_json,
    score_text,
)

HELP = "Rank players from a CSV of game results (checked like score sheets)."

HEADER = ("round", "table", "game", "player", "points")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("results", type=Path, metavar="RESULTS.csv")
    parser.add_argument(
        "--mode",
        choices=("wins", "league", "points"),
        help="ranking: wins then points, league (100 a win + points) or "
        "points (default: the rule set's)",
    )
    parser.add_argument(
        "--rules",
        type=rules_argument,
        default=find_rules("krc-2015"),
        help="rules preset or house-rules TOML (default krc-2015)",
    )
    parser.add_argument(
        "--three-table",
        choices=("as-is", "scale"),
        default="as-is",
        help="points at a table of 3: as written, or scaled by 4/3",
    )
    parser.add_argument(
        "--chain",
        default=",".join(DEFAULT_CHAIN),
        help=f"tie-break chain after wins and points (default {','.join(DEFAULT_CHAIN)})",
    )
    parser.add_argument("--seed", default="0", help="seed of the lot, when one is needed")
    parser.add_argument("--json", action="store_true", help="print JSON")


@dataclass(frozen=True, slots=True)
class _Row:
    line: int
    round: int
    table: int
    game: int
    player: str
    points: int
    penalty: int
    winner: bool | None


class CsvError(ValueError):
    pass


def _int(value: str, what: str, line: int) -> int:
    try:
        return int(value.strip().replace("+", "").replace("−", "-"))
    except ValueError:
        raise CsvError(f"line {line}: {what} {value!r} is not a whole number") from None


def _penalty(value: str, line: int, rules: RuleSet) -> int:
    v = value.strip()
    if not v:
        return 0
    marks = penalty_of_marks(v, rules)  # the rules' penalty policy (core/penalties.py)
    if marks is not None:
        return marks
    return abs(_int(v, "penalty", line))


def read_rows(text: str, rules: RuleSet) -> list[_Row]:
    reader = csv.DictReader(text.splitlines())
    fields = [f.strip().lower() for f in reader.fieldnames or []]
    missing = [h for h in HEADER if h not in fields]
    if missing:
        raise CsvError(
            f"line 1: the header must be round,table,game,player,points,penalty "
            f"(missing {', '.join(missing)})"
        )
    rows = []
    for line, raw in enumerate(reader, 2):
        row = {k.strip().lower(): (v or "").strip() for k, v in raw.items() if k}
        if not any(row.values()):
            continue
        if not row["player"]:
            raise CsvError(f"line {line}: no player")
        winner = None
        if "winner" in row and row["winner"] != "":
            winner = row["winner"].lower() in ("1", "yes", "true", "w", "y", "winner")
        rows.append(
            _Row(
                line,
                _int(row["round"], "round", line),
                _int(row["table"], "table", line),
                _int(row["game"], "game", line),
                row["player"],
                _int(row["points"], "points", line),
                _penalty(row.get("penalty", ""), line, rules),
                winner,
            )
        )
    return rows


def build_results(
    rows: list[_Row], rules: RuleSet
) -> tuple[list[GameResult], dict[int, str], list[str]]:
    """Check the rows sheet by sheet; the games of the sheets that pass, the player
    names by id, and the messages of those that fail."""
    ids: dict[str, int] = {}
    numeric = all(r.player.lstrip("-").isdigit() for r in rows)
    for r in rows:
        if r.player not in ids:
            ids[r.player] = int(r.player) if numeric else len(ids) + 1
    names = {i: p for p, i in ids.items()}
    errors: list[str] = []
    sheets: dict[tuple[int, int], list[_Row]] = {}
    for r in rows:
        sheets.setdefault((r.round, r.table), []).append(r)
    seen_in_round: dict[tuple[int, str], tuple[int, int]] = {}
    games: list[GameResult] = []
    # games numbered across the stage (round 3 plays games 5 and 6): a round's games
    # start after those of the rounds before it
    per_round: dict[int, int] = {}
    for (rnd, _table), srows in sheets.items():
        per_round[rnd] = max(per_round.get(rnd, 0), len({r.game for r in srows}))
    for (rnd, table), srows in sorted(sheets.items()):
        players = list(dict.fromkeys(r.player for r in srows))
        by_cell: dict[tuple[int, str], _Row] = {}
        bad = False
        for r in srows:
            key = (r.game, r.player)
            if key in by_cell:
                errors.append(
                    f"line {r.line}: player {r.player} has a second row for round "
                    f"{rnd}, table {table}, game {r.game} (first on line "
                    f"{by_cell[key].line})"
                )
                bad = True
            by_cell[key] = r
            other = seen_in_round.get((rnd, r.player))
            if other is not None and other[0] != table:
                errors.append(
                    f"line {r.line}: player {r.player} also sits at table "
                    f"{other[0]} in round {rnd} (line {other[1]})"
                )
                bad = True
            seen_in_round.setdefault((rnd, r.player), (table, r.line))
        if not 2 <= len(players) <= 4:
            errors.append(
                f"line {srows[0].line}: round {rnd}, table {table} has {len(players)} players"
            )
            continue
        found = sorted({r.game for r in srows})
        try:
            numbers = list(sheet_games(found, before=games_before(per_round, rnd)))
        except Refused as exc:
            errors.append(f"line {srows[0].line}: round {rnd}, table {table}: {exc}")
            continue
        # the sheet's game (from 1) and the file's number for it (across the stage, or
        # the same); messages name the file's
        csv_game = dict(zip(numbers, found, strict=True))
        for g in numbers:
            for p in players:
                if (csv_game[g], p) not in by_cell:
                    first = min(r.line for r in srows if r.game == csv_game[g])
                    errors.append(
                        f"line {first}: round {rnd}, table {table}, game "
                        f"{csv_game[g]} has no row for player {p}"
                    )
                    bad = True
        if bad:
            continue
        sheet = new_sheet(rnd, table, [ids[p] for p in players], len(numbers))
        for g in numbers:
            cells = [by_cell[csv_game[g], p] for p in players]
            marked = [i for i, c in enumerate(cells, 1) if c.winner]
            if any(c.winner is not None for c in cells) and len(marked) != 1:
                errors.append(
                    f"line {cells[0].line}: round {rnd}, table {table}, game "
                    f"{csv_game[g]} marks {len(marked)} winners, not one"
                )
                bad = True
                continue
            sheet, _ = enter_game(
                sheet,
                g,
                [c.points for c in cells],
                winner=marked[0] if marked else None,
                penalties=[c.penalty for c in cells],
                rules=rules,
                who="csv",
            )
        if bad:
            continue
        sheet, problems = submit(sheet, rules=rules, who="csv")
        for prob in problems:
            errors.append(_name_row(prob, rnd, by_cell, players, csv_game))
        games.extend(results(sheet))
    return games, names, errors


def _name_row(
    prob: Problem,
    rnd: int,
    by_cell: dict[tuple[int, str], _Row],
    players: list[str],
    csv_game: dict[int, int],
) -> str:
    c = prob.cell
    game = csv_game[c.game]
    if c.seat:
        row = by_cell[game, players[c.seat - 1]]
        where = (
            f"line {row.line} (round {rnd}, table {c.table}, game {game}, "
            f"player {players[c.seat - 1]}) {c.field}"
        )
    else:
        lines = sorted(by_cell[game, p].line for p in players)
        where = f"lines {lines[0]}-{lines[-1]} (round {rnd}, table {c.table}, game {game})"
    return f"{where}: {prob.message}"


def run(args: argparse.Namespace) -> int:
    rules: RuleSet = args.rules
    try:
        text = args.results.read_text(encoding="utf-8-sig")
    except OSError as exc:
        print(f"meldtour standings: cannot read {args.results}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        chain = tuple(x.strip() for x in args.chain.split(",") if x.strip())
        mode = args.mode or rules.match_ranking
        three: ThreeTable = "scale" if args.three_table == "scale" else "as_is"
        srules = StandingRules(
            mode=mode, chain=chain, three_table=three, win_points=rules.league_win_points
        )
        rows = read_rows(text, rules)
        games, names, errors = build_results(rows, rules)
    except (CsvError, ValueError) as exc:
        print(f"meldtour standings: {args.results}: {exc}", file=sys.stderr)
        return 1
    if errors:
        for e in errors:
            print(f"meldtour standings: {args.results}: {e}", file=sys.stderr)
        return 1
    seed: int | str = int(args.seed) if str(args.seed).lstrip("-").isdigit() else args.seed
    table = rank_players(games, srules, seed=seed)

    def who(p: int) -> int | str:
        name = names[p]
        return int(name) if name.lstrip("-").isdigit() else name

    if args.json:
        print(
            json.dumps(
                [
                    {
                        "rank": s.rank,
                        "player": who(s.player),
                        "wins": s.wins,
                        "points": s.points,
                        "score": score_json(s.score),
                        "decided_by": s.decided_by,
                    }
                    for s in table
                ],
                ensure_ascii=False,
            )
        )
        return 0
    print(f"{'rank':>4}  {'player':<12} {'wins':>4} {'points':>7} {'score':>8}  decided by")
    for s in table:
        print(
            f"{s.rank:>4}  {names[s.player]:<12} {s.wins:>4} {s.points:>7} "
            f"{score_text(s.score):>8}  {s.decided_by}"
        )
    if table.lots:
        print("lots drawn: " + ", ".join(f"{names[p]}={n}" for p, n in sorted(table.lots.items())))
    return 0
