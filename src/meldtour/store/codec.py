"""The tournament engine's values as plain JSON data, and back, exactly.

The store keeps :class:`~meldtour.tournament.Tournament` values in rows; these
functions turn each part (division, registration, stage, round, score sheet) into a
dict of JSON types and back. ``decode(encode(x)) == x`` for every part; the tests
check it on whole tournaments.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from meldtour.core.rules import RuleSet
from meldtour.tournament import (
    Division,
    Registration,
    Round,
    ScoreSheet,
    Seating,
    Stage,
    StageFormat,
    StandingRules,
    Table,
)
from meldtour.tournament.sheets import Cell, Correction, GameLine

Data = dict[str, Any]


def rules_data(rules: RuleSet) -> Data:
    return rules.to_dict()


def rules_value(data: Data) -> RuleSet:
    return RuleSet(**data)


def format_data(f: StageFormat) -> Data:
    return asdict(f)


def format_value(data: Data) -> StageFormat:
    return StageFormat(**data)


def ranking_data(r: StandingRules | None) -> Data | None:
    if r is None:
        return None
    return {
        "mode": r.mode,
        "chain": list(r.chain),
        "three_table": r.three_table,
        "win_points": r.win_points,
    }


def ranking_value(data: Data | None) -> StandingRules | None:
    if data is None:
        return None
    return StandingRules(
        mode=data["mode"],
        chain=tuple(data["chain"]),
        three_table=data["three_table"],
        win_points=data["win_points"],
    )


def division_data(d: Division) -> Data:
    """A division without its stages (they are rows of their own)."""
    return {
        "key": d.key,
        "name": d.name,
        "cap": d.cap,
        "eligibility": d.eligibility,
        "rules": rules_data(d.rules),
        "formats": [format_data(f) for f in d.formats],
        "ranking": ranking_data(d.ranking),
        "keep_apart": list(d.keep_apart),
        "groups_hard": d.groups_hard,
        "late_entry": d.late_entry,
        "prizes": d.prizes,
        "started": d.started,
    }


def division_value(data: Data, stages: tuple[Stage, ...] = ()) -> Division:
    return Division(
        key=data["key"],
        name=data["name"],
        cap=data["cap"],
        rules=rules_value(data["rules"]),
        formats=tuple(format_value(f) for f in data["formats"]),
        eligibility=data["eligibility"],
        ranking=ranking_value(data["ranking"]),
        keep_apart=tuple(data["keep_apart"]),
        groups_hard=data["groups_hard"],
        late_entry=data["late_entry"],
        prizes=data["prizes"],
        started=data["started"],
        stages=stages,
    )


def registration_data(r: Registration) -> Data:
    return {
        "number": r.player,
        "name": r.name,
        "division": r.division,
        "tags": sorted(r.tags),
        "generation": r.generation,
        "status": r.status,
        "late": r.late,
    }


def registration_value(data: Data) -> Registration:
    return Registration(
        data["number"],
        data["name"],
        data["division"],
        frozenset(data["tags"]),
        data["generation"],
        data["status"],
        data["late"],
    )


def stage_data(s: Stage) -> Data:
    """A stage without its rounds."""
    return {
        "format": format_data(s.format),
        "entrants": list(s.entrants),
        "plan": [[list(t) for t in seating.tables] for seating in s.plan],
        "dropped": sorted(s.dropped),
        "lots": [list(x) for x in s.lots],
        "finished": s.finished,
    }


def stage_value(data: Data, rounds: tuple[Round, ...] = ()) -> Stage:
    return Stage(
        format=format_value(data["format"]),
        entrants=tuple(data["entrants"]),
        rounds=rounds,
        plan=tuple(Seating(tuple(tuple(t) for t in seating)) for seating in data["plan"]),
        dropped=frozenset(data["dropped"]),
        lots=tuple((a, b) for a, b in data["lots"]),
        finished=data["finished"],
    )


def round_data(r: Round) -> Data:
    """A round without its tables."""
    return {"number": r.number, "closed": r.closed, "advanced": list(r.advanced)}


def round_value(data: Data, tables: tuple[Table, ...] = ()) -> Round:
    return Round(data["number"], tables, data["closed"], tuple(data["advanced"]))


def line_data(g: GameLine) -> Data:
    return {"points": list(g.points), "penalties": list(g.penalties), "winner": g.winner}


def line_value(data: Data) -> GameLine:
    return GameLine(tuple(data["points"]), tuple(data["penalties"]), data["winner"])


def correction_data(c: Correction) -> Data:
    return {
        "game": c.cell.game,
        "seat": c.cell.seat,
        "field": c.cell.field,
        "player": c.cell.player,
        "old": c.old,
        "new": c.new,
        "who": c.who,
        "why": c.why,
        "at": c.at,
    }


def correction_value(table: int, data: Data) -> Correction:
    cell = Cell(table, data["game"], data["seat"], data["field"], data["player"])
    return Correction(cell, data["old"], data["new"], data["who"], data["why"], data["at"])


def sheet_data(s: ScoreSheet) -> Data:
    """A whole score sheet: its draft games, the counted games, who and when, and the
    corrections."""
    return {
        "round": s.round,
        "table": s.table,
        "players": list(s.players),
        "games": [line_data(g) for g in s.games],
        "counted": None if s.counted is None else [line_data(g) for g in s.counted],
        "status": s.status,
        "entered_by": s.entered_by,
        "entered_at": s.entered_at,
        "submitted_by": s.submitted_by,
        "submitted_at": s.submitted_at,
        "corrections": [correction_data(c) for c in s.corrections],
    }


def sheet_value(data: Data) -> ScoreSheet:
    counted = data["counted"]
    return ScoreSheet(
        round=data["round"],
        table=data["table"],
        players=tuple(data["players"]),
        games=tuple(line_value(g) for g in data["games"]),
        counted=None if counted is None else tuple(line_value(g) for g in counted),
        entered_by=data["entered_by"],
        entered_at=data["entered_at"],
        submitted_by=data["submitted_by"],
        submitted_at=data["submitted_at"],
        corrections=tuple(correction_value(data["table"], c) for c in data["corrections"]),
    )
