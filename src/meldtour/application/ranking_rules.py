"""A division's ranking rules and table sizes, set by the director: the ranking mode,
the tie-break chain, how tables of 3 count, and the table size of the stages still to
come. A change that would alter what is already decided (a stage's order that chose
who went on, a knockout's advancement, the final ranking) is refused; otherwise the
standings are computed again with the new rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Final

from meldtour.core.refusal import Refused, register
from meldtour.store.db import Store
from meldtour.tournament import Notice, Progress, StandingRules, Tournament, TournamentError
from meldtour.tournament.stages import stage_ranking

from .acting import Who
from .divisions import division_key
from .unit import Outcome, act

TEMPLATES: Final = {
    "settings.would_change": "%(div)s: with these rules the order of %(stage)s, already "
    "decided, would change: the rules are kept as they were",
    "settings.stage_started": "%(div)s: %(stage)s has started: its table size is fixed",
    "settings.bad_rules": "%(div)s: %(reason)s",
}
register(TEMPLATES)


def decided(t: Tournament, key: str) -> dict[int, tuple[int, ...]]:
    """The orders already decided in a division: each stage that is finished or has a
    closed knockout round, by index."""
    div = t.division(key)
    out = {}
    for i, stage in enumerate(div.stages):
        closed = any(r.closed for r in stage.rounds)
        if stage.finished or (stage.format.kind == "knockout" and closed):
            out[i] = stage_ranking(t, key, i)
    return out


def set_ranking(
    store: Store,
    slug: str | None,
    division: str,
    *,
    mode: str,
    chain: Sequence[str],
    three_table: str,
    table_sizes: Mapping[int, int] | None = None,
    who: Who,
) -> Outcome:
    """Set the division's ranking mode, tie-break chain and tables-of-3 rule, and the
    table size of stages not started (by index from 0)."""

    def step(t: Tournament) -> Progress:
        key = division_key(t, division)
        div = t.division(key)
        try:
            rules = StandingRules(
                mode=mode,  # type: ignore[arg-type]
                chain=tuple(chain),  # type: ignore[arg-type]
                three_table=three_table,  # type: ignore[arg-type]
                win_points=div.standing_rules.win_points,
            )
        except Refused as exc:
            raise TournamentError("settings.bad_rules", div=div.name, reason=exc.refusal) from None
        formats = list(div.formats)
        for i, size in (table_sizes or {}).items():
            if not 0 <= i < len(formats) or formats[i].table_size == size:
                continue
            if i < len(div.stages):
                raise TournamentError(
                    "settings.stage_started", div=div.name, stage=formats[i].title
                )
            formats[i] = replace(formats[i], table_size=size)
        new = t.with_division(replace(div, ranking=rules, formats=tuple(formats)))
        before, after = decided(t, key), decided(new, key)
        for i, order in before.items():
            if after[i] != order:
                raise TournamentError(
                    "settings.would_change", div=div.name, stage=div.stages[i].format.title
                )
        return Progress(new, (Notice("division", f"{div.name}: ranking rules saved", key),))

    return act(store, slug, who, "set_ranking", step)


__all__ = ["TEMPLATES", "decided", "set_ranking"]
