"""Tournaments: creating one (from a template or from scratch), its details, the list
of them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from meldtour.core.refusal import Refused
from meldtour.store import audit, owners
from meldtour.store import tournaments as rows
from meldtour.store.db import Store
from meldtour.store.repository import Loaded, find_tournament, load, now, save, touch
from meldtour.tournament import Tournament, TournamentError
from meldtour.tournament.registration import refuse_invisible
from meldtour.tournament.templates import from_template

from .acting import Who, name_of, require_tournament
from .divisions import DivisionSpec
from .errors import UseCaseError


def make_slug(name: str) -> str:
    """A tournament's slug from its name: its letters and digits in any script, lower
    case, joined by hyphens, at most 60 characters; else ``tournament``. A Korean or
    Japanese name stays readable in the address bar (browsers show it, and send it
    percent-encoded); old ASCII slugs are unchanged.

    >>> make_slug("KRC 2015 Busan!")
    'krc-2015-busan'
    >>> make_slug("2015 부산 오픈")
    '2015-부산-오픈'
    >>> make_slug("ラミィキューブ日本選手権 ２０２６")
    'ラミィキューブ日本選手権-2026'
    >>> make_slug("!!!")
    'tournament'
    """
    text = unicodedata.normalize("NFKC", name).lower()
    s = re.sub(r"[\W_]+", "-", text).strip("-")[:60].strip("-")
    return s or "tournament"


def make_key(name: str) -> str:
    """A division's key from its name: Latin letters and digits only (it names files
    and command-line arguments), else ``tournament`` (the caller picks another).

    >>> make_key("Open A"), make_key("일반부")
    ('open-a', 'tournament')
    """
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return s or "tournament"


def create_tournament(
    store: Store,
    template: str,
    *,
    who: Who,
    name: str = "",
    date: str = "",
    seed: int = 0,
    slug: str | None = None,
    venue: str = "",
    locale: str = "en",
    owner: int | None = None,
) -> tuple[str, Tournament]:
    """A new tournament from a template, named in ``locale`` (its divisions and
    stages); returns its slug and value. ``owner``: the account that creates it, its
    director from the same transaction (a failure leaves neither)."""
    try:
        value = from_template(template, name=name, date=date, seed=seed, locale=locale)
    except Refused as exc:
        raise UseCaseError.of(exc) from None
    return _insert(store, value, template, who=who, name=name, slug=slug, venue=venue, owner=owner)


def _insert(
    store: Store,
    value: Tournament,
    template: str,
    *,
    who: Who,
    name: str,
    slug: str | None,
    venue: str,
    owner: int | None,
) -> tuple[str, Tournament]:
    chosen = slug is not None
    slug = slug or make_slug(name or value.name)
    slug = unicodedata.normalize("NFC", slug)
    if not re.fullmatch(r"[^\W_][\w.-]*", slug) or len(slug) > 100:
        raise UseCaseError("usecase.bad_slug", slug=repr(slug))
    at = now()
    with store.transaction() as s:

        def taken(candidate: str) -> bool:
            return rows.slug_taken(s, candidate)

        if taken(slug):
            if chosen:
                raise UseCaseError("usecase.slug_taken", slug=repr(slug))
            # A made-up slug that is taken (a second "Club night") gets a number.
            base, n = slug, 2
            while taken(f"{base}-{n}"):
                n += 1
            slug = f"{base}-{n}"
        row = rows.add(
            s,
            slug=slug,
            name=value.name,
            date=value.date,
            seed=value.seed,
            template=template,
            venue=venue.strip(),
            at=at,
        )
        loaded = Loaded(row, Tournament(value.name, value.date, (), value.seed))
        audit.record(
            s,
            at=at,
            who=name_of(who),
            action="create_tournament",
            tournament_id=row.id,
            entity="tournament",
            key=slug,
            before=None,
            after={
                "name": value.name,
                "date": value.date,
                "seed": value.seed,
                "template": template,
                "venue": row.venue,
            },
            why="",
        )
        save(s, loaded, value, who=name_of(who), action="create_tournament")
        if owner is not None:
            if not owners.account_exists(s, owner):
                raise UseCaseError("owner.no_account", name=f"#{owner}")
            owners.add(s, row.id, owner, added_by="", at=at)
    return slug, value


def _visible(name: str) -> None:
    try:
        refuse_invisible(name)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None


def create_blank_tournament(
    store: Store,
    *,
    who: Who,
    name: str,
    date: str = "",
    venue: str = "",
    divisions: Sequence[DivisionSpec],
    seed: int = 0,
    slug: str | None = None,
    owner: int | None = None,
) -> tuple[str, Tournament]:
    """A new tournament from scratch (no template): its name, date, venue and at
    least one division; ``owner`` as for :func:`create_tournament`."""
    if not name.strip():
        raise UseCaseError("usecase.tournament_needs_name")
    _visible(name)
    if not divisions:
        raise UseCaseError("usecase.needs_division")
    try:
        divs = tuple(d.division() for d in divisions)
    except TournamentError as exc:
        raise UseCaseError.of(exc) from None
    keys = [d.key for d in divs]
    if len(set(keys)) != len(keys):
        raise UseCaseError("usecase.same_division_key")
    value = Tournament(name.strip(), date.strip(), divs, seed=seed)
    return _insert(store, value, "scratch", who=who, name=name, slug=slug, venue=venue, owner=owner)


@dataclass(frozen=True, slots=True)
class TournamentInfo:
    """What the store keeps of a tournament beside the engine's value."""

    slug: str
    name: str
    date: str
    venue: str
    template: str


def info(store: Store, slug: str | None) -> TournamentInfo:
    with store.reading() as s:
        row = find_tournament(s, slug)
        return TournamentInfo(row.slug, row.name, row.date, row.venue, row.template)


def edit_tournament(
    store: Store, slug: str | None, *, who: Who, name: str, date: str, venue: str
) -> TournamentInfo:
    """Change the tournament's name, date and venue (audited)."""
    if not name.strip():
        raise UseCaseError("usecase.tournament_needs_name")
    _visible(name)
    with store.transaction() as s:
        loaded = load(s, slug, "update")
        require_tournament(s, who, loaded.row.slug)
        new = replace(loaded.value, name=name.strip(), date=date.strip())
        save(s, loaded, new, who=name_of(who), action="edit_tournament")
        row = loaded.row
        if row.venue != venue.strip():
            audit.record(
                s,
                at=now(),
                who=name_of(who),
                action="edit_tournament",
                tournament_id=row.id,
                entity="tournament",
                key=row.slug,
                before={"venue": row.venue},
                after={"venue": venue.strip()},
                why="",
            )
            row.venue = venue.strip()
        touch(loaded)
        return TournamentInfo(row.slug, row.name, row.date, row.venue, row.template)


def add_director(store: Store, slug: str, name: str, *, who: Who) -> bool:
    """Make the existing account ``name`` a co-director of ``slug``, with its audit
    line, in one transaction. ``False`` if it already was one."""
    with store.transaction() as s:
        tid = owners.tournament_id(s, slug)
        if tid is None:
            raise UseCaseError("store.no_tournament", slug=repr(slug))
        require_tournament(s, who, slug)
        aid = owners.account_id(s, name)
        if aid is None:
            raise UseCaseError("owner.no_account", name=repr(name))
        at = now()
        if not owners.add(s, tid, aid, added_by=name_of(who), at=at):
            return False
        audit.record(
            s,
            at=at,
            who=name_of(who),
            action="add director",
            tournament_id=tid,
            entity="director",
            key=name,
            before=None,
            after=name,
            why="",
        )
        return True


def all_tournaments(store: Store, *, newest_first: bool = False) -> list[tuple[str, str, str, str]]:
    """Every tournament's slug, name, date and template, oldest (or newest) first."""
    with store.transaction() as s:
        return rows.listing(s, newest_first=newest_first)


def slugs(store: Store) -> set[str]:
    """Every tournament's slug (those a new one cannot have)."""
    with store.transaction() as s:
        return rows.slugs(s)


def any_tournament(store: Store) -> bool:
    """Whether there is a tournament at all."""
    with store.transaction() as s:
        return rows.any_tournament(s)


__all__ = [
    "TournamentInfo",
    "add_director",
    "all_tournaments",
    "any_tournament",
    "create_blank_tournament",
    "create_tournament",
    "edit_tournament",
    "info",
    "make_key",
    "make_slug",
    "slugs",
]
