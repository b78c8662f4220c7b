"""A ranking's definition as typed (the director's form, ``meldtour ranking define``):
:class:`RankingForm`, every field checked at once (:func:`check_ranking`, nothing read
or written), saved with the divisions it lists in one transaction
(:func:`save_ranking`), and the divisions the form lists (:func:`ranking_divisions`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from functools import partial
from typing import Any, Final

from meldtour.core.jsontext import is_control
from meldtour.core.refusal import Refusal, Refused
from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.tournament.ranking import DEFAULT_WEIGHTS, RankingConfig

from ..errors import UseCaseError
from .ranking import DEFAULT_LEVEL, RankingInfo, _count, _define, _ranking_info, config_of

register_codes(
    {
        "circuit.weights_without_level": "the weights give the levels %(levels)s but not "
        "%(level)s, the level of a division counted without "
        "one: add a weight for %(level)s or choose the level",
        "circuit.level_not_weighed": "the level %(level)s has no weight: choose one of %(levels)s",
        "circuit.ranking_field": "%(field)s: %(reason)s",
        "circuit.ranking_exists": "there is a ranking %(key)s already: change it on its own page",
        "circuit.ranking_key_reserved": "%(key)s names a page of its own: choose another key",
        "circuit.ranking_method": "the points are by percentile or by a table (not %(method)s)",
        "circuit.not_a_number": "%(value)s is not a number",
        "circuit.not_whole": "%(value)s is not a whole number",
        "circuit.too_small": "%(value)s is less than %(least)s",
        "circuit.too_big": "%(value)s is more than %(most)s",
        "circuit.control_character": "the text holds a control character (%(char)s)",
        "circuit.table_empty": "give the points of each place from the first, such as 100, 60, 40",
        "circuit.too_many_places": "a points table has at most %(most)s places (not %(n)s)",
        "circuit.level_name": "a level's name is letters, digits, - and _ (not %(level)s)",
        "circuit.level_twice": "the level %(level)s is given twice",
        "circuit.not_a_date": "%(value)s is not a date YYYY-MM-DD",
        "circuit.season_order": "the season ends (%(end)s) before it starts (%(start)s)",
    }
)

#: How a tournament's points are given: ``base × weight × percentile``, or a points
#: table by place (times the weight).
RANKING_METHODS: Final = ("percentile", "table")
#: The largest number a ranking takes (points, weights, days) and the most places of a
#: points table or results that count.
MAX_NUMBER: Final = 1_000_000_000
MAX_PLACES: Final = 1000
#: Keys the director's pages use for a page of their own (``/director/rankings/new``).
RESERVED_KEYS: Final = frozenset({"new"})


@dataclass(frozen=True, slots=True)
class RankingForm:
    """A ranking's definition as typed, every number as text; an empty one is the
    default (docs/circuit.md, "Rankings"). ``weights``: (level, weight) pairs, none
    for the defaults; ``counts``: the divisions listed (tournament, division, level —
    ``""``: not listed), ``None`` to leave them as they are; ``new``: refused when the
    key is taken."""

    key: str
    name: str = ""
    organisation: str = ""
    method: str = "percentile"
    base: str = ""
    table: str = ""
    weights: tuple[tuple[str, str], ...] = ()
    half_life: str = ""
    best: str = ""
    season_start: str = ""
    season_end: str = ""
    only_listed: bool = False
    level: str = ""
    counts: tuple[tuple[str, str, str], ...] | None = None
    new: bool = False

    @classmethod
    def blank(cls) -> RankingForm:
        """A new ranking's form: every number its default."""
        return replace(
            cls.of(RankingInfo("", "", "", RankingConfig(), True, DEFAULT_LEVEL, {})),
            new=True,
            counts=None,
        )

    @classmethod
    def of(cls, info: RankingInfo, counts: Sequence[tuple[str, str, str]] = ()) -> RankingForm:
        """The form of a ranking as it is (to edit it)."""
        c = info.config
        return cls(
            info.key,
            info.name,
            info.organisation,
            "table" if c.table else "percentile",
            f"{c.base:g}",
            ", ".join(f"{x:g}" for x in c.table),
            tuple((k, f"{w:g}") for k, w in c.weights.items()),
            f"{c.half_life_days:g}",
            str(c.best),
            c.season_start.isoformat() if c.season_start else "",
            c.season_end.isoformat() if c.season_end else "",
            not info.counts_all,
            info.default_level,
            tuple(counts),
        )


class RankingRefused(UseCaseError):
    """A ranking's definition refused, with each field's refusal (``fields``, by the
    field's name: ``key``, ``base``, ``table``, ``weights``, ``half_life``, ``best``,
    ``season_start``, ``season_end``, ``level``, ``count:SLUG/DIVISION``); its message
    is the first one's."""

    def __init__(self, fields: Mapping[str, Refusal]) -> None:
        field, first = next(iter(fields.items()))
        super().__init__("circuit.ranking_field", field=field, reason=first)
        self.fields = dict(fields)


def _number(text: str, *, whole: bool = False, least: float = 0) -> float:
    t = text.strip()
    try:
        x = int(t) if whole else float(t)
    except ValueError:
        raise UseCaseError(
            "circuit.not_whole" if whole else "circuit.not_a_number", value=repr(text.strip()[:40])
        ) from None
    if x != x or x in (float("inf"), float("-inf")):
        raise UseCaseError("circuit.not_a_number", value=repr(text.strip()[:40]))
    if x < least:
        raise UseCaseError("circuit.too_small", value=f"{x:g}", least=f"{least:g}")
    if x > MAX_NUMBER:
        raise UseCaseError("circuit.too_big", value=f"{x:g}", most=f"{MAX_NUMBER:,}")
    return x


def _text(text: str, limit: int) -> str:
    bad = next((c for c in text if is_control(c)), None)
    if bad is not None:
        raise UseCaseError("circuit.control_character", char=repr(bad))
    return " ".join(text.split())[:limit]


def check_ranking(form: RankingForm) -> tuple[dict[str, Any], dict[str, Refusal]]:
    """The ranking's stored numbers from the form, and every field's refusal (none:
    it may be saved). Nothing is read or written."""
    errors: dict[str, Refusal] = {}
    config: dict[str, Any] = {}

    def field(name: str, f: Callable[[], Any]) -> Any:
        try:
            return f()
        except Refused as exc:
            errors.setdefault(name, exc.refusal)
            return None

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,99}", form.key):
        errors["key"] = Refusal("circuit.ranking_key", {"key": repr(form.key[:100])})
    elif form.new and form.key in RESERVED_KEYS:
        errors["key"] = Refusal("circuit.ranking_key_reserved", {"key": repr(form.key)})
    field("name", lambda: _text(form.name, 200))
    field("organisation", lambda: _text(form.organisation, 200))
    if form.method not in RANKING_METHODS:
        errors["method"] = Refusal("circuit.ranking_method", {"method": repr(form.method[:20])})
    if form.base.strip():
        config["base"] = field("base", lambda: _number(form.base))
    if form.method == "table":

        def table() -> list[float]:
            items = [x for x in re.split(r"[\s,;]+", form.table.strip()) if x]
            if not items:
                raise UseCaseError("circuit.table_empty")
            if len(items) > MAX_PLACES:
                raise UseCaseError("circuit.too_many_places", n=len(items), most=MAX_PLACES)
            return [_number(x) for x in items]

        config["table"] = field("table", table)
    weights: dict[str, float] = {}
    for level, w in form.weights:
        level = level.strip()
        if not level and not w.strip():
            continue
        if not re.fullmatch(r"[\w-]{1,40}", level):
            errors.setdefault("weights", Refusal("circuit.level_name", {"level": repr(level[:40])}))
        elif level in weights:
            errors.setdefault("weights", Refusal("circuit.level_twice", {"level": repr(level)}))
        elif w.strip():
            value = field("weights", partial(_number, w))
            if value is not None:
                weights[level] = value
    if weights:
        config["weights"] = weights
    if form.half_life.strip():
        half = field("half_life", lambda: _number(form.half_life, least=-MAX_NUMBER))
        if half is not None and half < 0:
            errors["half_life"] = Refusal("ranking.half_life")
        config["half_life_days"] = half
    if form.best.strip():
        best = field("best", lambda: _number(form.best, whole=True, least=-MAX_NUMBER))
        if best is not None and best < 1:
            errors["best"] = Refusal("ranking.best")
        elif best is not None and best > MAX_PLACES:
            errors["best"] = Refusal(
                "circuit.too_big", {"value": str(best), "most": str(MAX_PLACES)}
            )
        config["best"] = best
    days: dict[str, date | None] = {}
    for name in ("season_start", "season_end"):
        text = getattr(form, name).strip()
        days[name] = None
        if text:
            try:
                days[name] = date.fromisoformat(text)
            except ValueError:
                errors[name] = Refusal("circuit.not_a_date", {"value": repr(text[:40])})
            config[name] = text
    start, end = days["season_start"], days["season_end"]
    if start and end and end < start:
        errors["season_end"] = Refusal(
            "circuit.season_order", {"start": start.isoformat(), "end": end.isoformat()}
        )
    levels = weights or dict(DEFAULT_WEIGHTS)
    level = form.level.strip() or DEFAULT_LEVEL
    if level not in levels and weights and level == DEFAULT_LEVEL:
        # the weights typed leave out the level a division counted without one takes
        errors.setdefault(
            "weights",
            Refusal(
                "circuit.weights_without_level",
                {"level": repr(level[:40]), "levels": ", ".join(levels)},
            ),
        )
    elif level not in levels:
        errors["level"] = Refusal(
            "circuit.level_not_weighed", {"level": repr(level[:40]), "levels": ", ".join(levels)}
        )
    for slug, division, lvl in form.counts or ():
        if lvl and lvl not in levels:
            errors[f"count:{slug}/{division}"] = Refusal(
                "ranking.unknown_level", {"level": repr(lvl[:40]), "levels": ", ".join(levels)}
            )
    return config, errors


def save_ranking(store: Store, form: RankingForm, *, who: str) -> RankingInfo:
    """Create or change a ranking from what was typed, with the divisions it lists, in
    one transaction (audited); every field's refusal at once
    (:class:`RankingRefused`), and then nothing is changed."""
    config, errors = check_ranking(form)
    if errors:
        raise RankingRefused(errors)
    cfg = config_of(config)
    level = form.level.strip() or DEFAULT_LEVEL
    with store.transaction() as s:
        row = rows.ranking_by_key(s, form.key)
        if row is not None and form.new:
            raise RankingRefused(
                {"key": Refusal("circuit.ranking_exists", {"key": repr(form.key)})}
            )
        listed: dict[int, str] = rows.ranking_events(s, row.id) if row is not None else {}
        changes: list[tuple[str, str, int, str | None]] = []
        for slug, division, lvl in form.counts or ():
            did = rows.division_id(s, slug, division)
            if did is None:
                errors[f"count:{slug}/{division}"] = Refusal(
                    "circuit.no_division", {"tournament": repr(slug), "division": repr(division)}
                )
            elif listed.get(did) != (lvl or None):
                changes.append((slug, division, did, lvl or None))
        after = dict(listed)
        for _slug, _div, did, now_at in changes:
            if now_at is None:
                after.pop(did, None)
            else:
                after[did] = now_at
        lost = sorted({x for x in after.values() if x not in cfg.weights})
        if lost:  # a division listed at a level the weights no longer have
            errors["weights"] = Refusal(
                "ranking.unknown_level",
                {"level": ", ".join(map(repr, lost)), "levels": ", ".join(cfg.weights)},
            )
        if errors:
            raise RankingRefused(errors)
        row = _define(
            s,
            form.key,
            who=who,
            name=_text(form.name, 200),
            organisation=_text(form.organisation, 200),
            cfg=cfg,
            counts_all=not form.only_listed,
            default_level=level,
        )
        for slug, division, did, now_at in changes:
            _count(s, row.id, form.key, slug, did, division, now_at, who=who)
        return _ranking_info(s, form.key)


@dataclass(frozen=True, slots=True)
class DivisionChoice:
    """A division a ranking may list: its tournament, and whether it is awarded."""

    tournament: str
    tournament_name: str
    date: str
    division: str
    division_name: str
    awarded: bool
    id: int


def ranking_divisions(store: Store) -> list[DivisionChoice]:
    """Every division of every tournament, newest tournament first (the ranking form's
    list)."""
    with store.reading() as s:
        return [DivisionChoice(*r) for r in rows.every_division(s)]
