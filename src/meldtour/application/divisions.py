"""A tournament's divisions: adding one, editing its settings, and finding one by
key or name."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from meldtour.core.rules import PRESETS, RuleSet, find_rules
from meldtour.store.db import Store
from meldtour.tournament import (
    Division,
    Notice,
    Progress,
    StageFormat,
    Tournament,
    TournamentError,
    set_cap,
)
from meldtour.tournament.division_names import match_division
from meldtour.tournament.registration import refuse_invisible

from .acting import Who
from .errors import UseCaseError, engine_error
from .unit import Outcome, act


@dataclass(frozen=True, slots=True)
class DivisionSpec:
    """A division as the director describes it: ``rules`` names a rules preset;
    ``formats`` are the stages in order."""

    key: str
    name: str
    cap: int
    rules: str
    formats: tuple[StageFormat, ...]
    eligibility: str = ""
    late_entry: bool = False
    keep_apart: tuple[str, ...] = ()
    groups_hard: bool = True
    prizes: int = 4

    def division(self) -> Division:
        if not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,39}", self.key):
            raise TournamentError("usecase.bad_division_key", key=repr(self.key))
        if not self.name.strip():
            raise TournamentError("usecase.division_needs_name")
        refuse_invisible(self.name)
        return Division(
            self.key,
            self.name.strip(),
            self.cap,
            _rules(self.rules),
            self.formats,
            eligibility=self.eligibility.strip(),
            keep_apart=self.keep_apart,
            groups_hard=self.groups_hard,
            late_entry=self.late_entry,
            prizes=self.prizes,
        )


def _rules(preset: str) -> RuleSet:
    if preset not in PRESETS:
        raise TournamentError("usecase.no_preset", preset=repr(preset), presets=", ".join(PRESETS))
    return find_rules(preset)


def add_division(store: Store, slug: str | None, spec: DivisionSpec, *, who: Who) -> Outcome:
    """Add a division to a tournament."""

    def step(t: Tournament) -> Progress:
        div = spec.division()
        if any(d.key == div.key for d in t.divisions):
            raise TournamentError("usecase.division_exists", key=repr(div.key))
        return Progress(
            replace(t, divisions=(*t.divisions, div)),
            (Notice("division", f"{div.name} added", div.key),),
        )

    return act(store, slug, who, "add_division", step)


@dataclass(frozen=True, slots=True)
class DivisionEdit:
    """The settings of a division the director changes (``None``: unchanged). All but
    the name are fixed once check-in has closed."""

    name: str | None = None
    cap: int | None = None
    rules: str | None = None
    formats: tuple[StageFormat, ...] | None = None
    eligibility: str | None = None
    keep_apart: tuple[str, ...] | None = None
    groups_hard: bool | None = None
    late_entry: bool | None = None


def edit_division(
    store: Store, slug: str | None, division: str, edit: DivisionEdit, *, who: Who
) -> Outcome:
    """Change a division's settings: its name at any time; its cap, rules preset,
    stages, eligibility, seating groups and late entry until check-in closes. A larger
    cap moves players up from the waitlist."""

    def step(t: Tournament) -> Progress:
        div = t.division(division_key(t, division))
        name = div.name if edit.name is None else edit.name.strip()
        if not name:
            raise TournamentError("usecase.division_needs_name")
        refuse_invisible(name)
        structural = {
            "rules": edit.rules is not None and _rules(edit.rules) != div.rules,
            "formats": edit.formats is not None and edit.formats != div.formats,
            "eligibility": edit.eligibility is not None
            and edit.eligibility.strip() != div.eligibility,
            "keep_apart": edit.keep_apart is not None and edit.keep_apart != div.keep_apart,
            "groups_hard": edit.groups_hard is not None and edit.groups_hard != div.groups_hard,
            "late_entry": edit.late_entry is not None and edit.late_entry != div.late_entry,
            "cap": edit.cap is not None and edit.cap != div.cap,
        }
        if div.started and any(structural.values()):
            raise TournamentError("usecase.settings_fixed", div=div.name)
        new = replace(
            div,
            name=name,
            rules=_rules(edit.rules) if structural["rules"] and edit.rules else div.rules,
            formats=edit.formats if edit.formats is not None else div.formats,
            eligibility=(
                edit.eligibility.strip()[:200] if edit.eligibility is not None else div.eligibility
            ),
            keep_apart=edit.keep_apart if edit.keep_apart is not None else div.keep_apart,
            groups_hard=edit.groups_hard if edit.groups_hard is not None else div.groups_hard,
            late_entry=edit.late_entry if edit.late_entry is not None else div.late_entry,
        )
        t = t.with_division(new)
        if structural["cap"] and edit.cap is not None:
            return set_cap(t, div.key, edit.cap)
        return Progress(t, (Notice("division", f"{name}: settings saved", div.key),))

    return act(store, slug, who, "edit_division", step)


def resolve_division(t: Tournament, key: str | None, *, for_import: bool = False) -> str:
    """The division ``key`` names (by key or name); without one, the only division,
    or the only one with players."""
    if key:
        # As a person types it: key or title, width and spaces aside, without the
        # title's bracket, a word or the start of it — if only one division fits.
        found = match_division([(d.key, d.name) for d in t.divisions], key)
        if found is not None:
            return found
        raise UseCaseError(
            "usecase.no_division", key=repr(key), keys=", ".join(d.name for d in t.divisions)
        )
    if len(t.divisions) == 1:
        return t.divisions[0].key
    used = list(dict.fromkeys(r.division for r in t.registrations))
    if len(used) == 1 and not for_import:
        return used[0]
    raise UseCaseError("usecase.name_division", keys=", ".join(d.name for d in t.divisions))


def division_key(t: Tournament, key: str | None) -> str:
    """:func:`resolve_division` inside an engine step (its refusal as the engine's)."""
    try:
        return resolve_division(t, key)
    except UseCaseError as exc:
        raise engine_error(exc) from None


__all__ = [
    "DivisionEdit",
    "DivisionSpec",
    "add_division",
    "division_key",
    "edit_division",
    "resolve_division",
]
