"""The circuit's rows (migration 0010): people's details, merges, the organisations'
rankings and the divisions they count, the divisions' final places, and
qualifications (what an award grants, who declined, the seats of a division that is
by qualification only).

A person is a :class:`~.models.Player` row; a registration points to one. The details
that tell two people of one name apart (a member number, a birth year, a contact) are
:class:`PersonRow`, one per person who has any; the contact is never shown in public.

Functions of a session (a unit of work the caller runs); the application layer
(:mod:`meldtour.application.circuit`) runs them.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import (
    Boolean,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    false,
    func,
    select,
)
from sqlalchemy.orm import Mapped, mapped_column

from .models import (
    Account,
    AuditRow,
    AwardRow,
    Base,
    DivisionRow,
    Json,
    Player,
    RegistrationRow,
    TournamentRow,
)
from .owners import TournamentDirectorRow
from .site import SiteSettingRow


class PersonRow(Base):
    """What tells a person apart from others of the same name."""

    __tablename__ = "person"
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id"), primary_key=True, autoincrement=False
    )
    #: The organisation's member number (optional, unique when given).
    member_number: Mapped[str | None] = mapped_column(String(40), nullable=True, unique=True)
    birth_year: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: A telephone number or an e-mail address: for the director only, never public.
    contact: Mapped[str | None] = mapped_column(String(200), nullable=True)
    #: Whether the public pages may show this person (by name) at all.
    public: Mapped[bool] = mapped_column(Boolean, default=True)


class MergeRow(Base):
    """A merge (two people are one), a link (a registration is someone's: "the same
    person as …", also at registration) or a split (some registrations are another
    person): which registrations moved from whom to whom, who did it and why. A ``new``
    line records the director's "a new person" over people of the same name (source
    and target are that person)."""

    __tablename__ = "person_merge"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    source_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    target_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    registrations: Mapped[list[int]] = mapped_column(Json)
    who: Mapped[str] = mapped_column(String(200))
    why: Mapped[str] = mapped_column(Text)
    at: Mapped[str] = mapped_column(String(40))


class RankingRow(Base):
    """An organisation's ranking: its numbers (``config``: base, weights, half-life,
    best, table, season) and whether every awarded division counts (at
    ``default_level``) or only those of :class:`RankingEventRow`."""

    __tablename__ = "ranking_def"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(100), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    organisation: Mapped[str] = mapped_column(String(200))
    config: Mapped[dict[str, Any]] = mapped_column(Json)
    counts_all: Mapped[bool] = mapped_column(Boolean)
    default_level: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[str] = mapped_column(String(40))


class RankingEventRow(Base):
    """A division that counts for a ranking, at a level (its weight)."""

    __tablename__ = "ranking_event"
    __table_args__ = (UniqueConstraint("ranking_id", "division_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    ranking_id: Mapped[int] = mapped_column(ForeignKey("ranking_def.id"), index=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("division.id"), index=True)
    level: Mapped[str] = mapped_column(String(40))


class ResultRow(Base):
    """A registration's final place in its division (written at the awards): what the
    rankings and the qualifications read, without loading the tournament."""

    __tablename__ = "division_result"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("division.id"), index=True)
    registration_id: Mapped[int] = mapped_column(ForeignKey("registration.id"), unique=True)
    place: Mapped[int] = mapped_column(Integer)
    field: Mapped[int] = mapped_column(Integer)


class GrantRow(Base):
    """An award that grants a qualification: places 1 to ``seats`` of a division (the
    list passing down past whoever declines) qualify for ``key``."""

    __tablename__ = "qualification_grant"
    __table_args__ = (UniqueConstraint("division_id", "key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("division.id"), index=True)
    key: Mapped[str] = mapped_column(String(100), index=True)
    label: Mapped[str] = mapped_column(String(200))
    seats: Mapped[int] = mapped_column(Integer)
    #: The secret the holders' claim codes are made from (migration 0016): a holder
    #: claims a seat with their code, never by typing a name.
    claim_secret: Mapped[str] = mapped_column(String(64), default="", server_default="")


class DeclineRow(Base):
    """A holder declined a qualification (recorded by the director): it passes down."""

    __tablename__ = "qualification_decline"
    __table_args__ = (UniqueConstraint("grant_id", "registration_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    grant_id: Mapped[int] = mapped_column(ForeignKey("qualification_grant.id"), index=True)
    registration_id: Mapped[int] = mapped_column(ForeignKey("registration.id"))
    who: Mapped[str] = mapped_column(String(200))
    why: Mapped[str] = mapped_column(Text)
    at: Mapped[str] = mapped_column(String(40))


class QuotaRow(Base):
    """Seats of a division kept for the holders of a qualification. A division with a
    quota that is not ``open`` is by qualification only; an ``open`` quota reserves its
    seats inside an open division, until the day ``until`` (none: until the start),
    after which they are released to everyone (migration 0016)."""

    __tablename__ = "division_quota"
    __table_args__ = (UniqueConstraint("division_id", "key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    division_id: Mapped[int] = mapped_column(ForeignKey("division.id"), index=True)
    key: Mapped[str] = mapped_column(String(100))
    seats: Mapped[int] = mapped_column(Integer)
    open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    until: Mapped[str | None] = mapped_column(String(10), nullable=True)


# ---------------------------------------------------------------------------
# Who acts (the application's gates ask these)


def administrator(s: Any) -> int | None:
    """The site's administrator: the first account (``None`` while there is none)."""
    found = s.scalar(select(func.min(Account.id)))
    return None if found is None else int(found)


def directs(s: Any, account_id: int, slug: str) -> bool:
    """Whether the account is one of the recorded directors of ``slug``."""
    return (
        s.scalar(
            select(TournamentDirectorRow.account_id)
            .join(TournamentRow, TournamentRow.id == TournamentDirectorRow.tournament_id)
            .where(TournamentRow.slug == slug, TournamentDirectorRow.account_id == account_id)
        )
        is not None
    )


def directed(s: Any, account_id: int) -> set[str]:
    """The slugs of the tournaments the account directs."""
    return set(
        s.scalars(
            select(TournamentRow.slug)
            .join(TournamentDirectorRow, TournamentRow.id == TournamentDirectorRow.tournament_id)
            .where(TournamentDirectorRow.account_id == account_id)
        )
    )


# ---------------------------------------------------------------------------
# People


def person(s: Any, player_id: int) -> Player | None:
    return s.get(Player, player_id)  # type: ignore[no-any-return]


def details(s: Any, player_ids: Iterable[int]) -> dict[int, PersonRow]:
    ids = list(player_ids)
    if not ids:
        return {}
    return {
        r.player_id: r for r in s.scalars(select(PersonRow).where(PersonRow.player_id.in_(ids)))
    }


def set_details(s: Any, player_id: int, **values: Any) -> PersonRow:
    row: PersonRow | None = s.get(PersonRow, player_id)
    if row is None:
        row = PersonRow(player_id=player_id, public=True)
        s.add(row)
    for k, v in values.items():
        setattr(row, k, v)
    s.flush()
    return row


def by_member_number(s: Any, number: str) -> int | None:
    pid: int | None = s.scalar(select(PersonRow.player_id).where(PersonRow.member_number == number))
    return pid


def people_named(s: Any, name: str) -> list[Player]:
    return list(s.scalars(select(Player).where(Player.name == name).order_by(Player.id)))


def all_people(s: Any) -> list[Player]:
    return list(s.scalars(select(Player).order_by(Player.id)))


def new_person(s: Any, name: str, *, at: str) -> Player:
    p = Player(name=name, created_at=at)
    s.add(p)
    s.flush()
    return p


def registrations_of(s: Any, player_id: int) -> list[tuple[RegistrationRow, str, str, str]]:
    """A person's registrations with the tournament's slug, name and date, oldest
    first."""
    return [
        (r, slug, name, day)
        for r, slug, name, day in s.execute(
            select(RegistrationRow, TournamentRow.slug, TournamentRow.name, TournamentRow.date)
            .join(TournamentRow, RegistrationRow.tournament_id == TournamentRow.id)
            .where(RegistrationRow.player_id == player_id)
            .order_by(TournamentRow.date, TournamentRow.id)
        ).all()
    ]


def registration(s: Any, slug: str, number: int) -> RegistrationRow | None:
    row: RegistrationRow | None = s.scalars(
        select(RegistrationRow)
        .join(TournamentRow, RegistrationRow.tournament_id == TournamentRow.id)
        .where(TournamentRow.slug == slug, RegistrationRow.number == number)
    ).first()
    return row


def registrations_in(s: Any, slug: str) -> list[tuple[int, int, int, str]]:
    """(registration id, number, person, name) of every registration of ``slug``."""
    return [
        tuple(r)
        for r in s.execute(
            select(
                RegistrationRow.id,
                RegistrationRow.number,
                RegistrationRow.player_id,
                RegistrationRow.name,
            )
            .join(TournamentRow, RegistrationRow.tournament_id == TournamentRow.id)
            .where(TournamentRow.slug == slug)
            .order_by(RegistrationRow.number)
        ).all()
    ]


def people_elsewhere(s: Any, slug: str) -> dict[int, str]:
    """Every person with a registration in a tournament other than ``slug``: id → name."""
    return dict(
        s.execute(
            select(Player.id, Player.name)
            .distinct()
            .join(RegistrationRow, RegistrationRow.player_id == Player.id)
            .join(TournamentRow, RegistrationRow.tournament_id == TournamentRow.id)
            .where(TournamentRow.slug != slug)
        ).all()
    )


def chosen_new(s: Any, player_ids: Iterable[int]) -> set[int]:
    """The registrations (ids) of these people that the director chose to be a new
    person over others of the same name (a ``new`` line of the people's log)."""
    ids = list(player_ids)
    if not ids:
        return set()
    out: set[int] = set()
    for regs in s.scalars(
        select(MergeRow.registrations).where(MergeRow.kind == "new", MergeRow.target_id.in_(ids))
    ):
        out.update(regs)
    return out


def move_registrations(s: Any, ids: Sequence[int], target: int) -> None:
    for r in s.scalars(select(RegistrationRow).where(RegistrationRow.id.in_(list(ids)))):
        r.player_id = target
    s.flush()


def record_merge(
    s: Any,
    *,
    kind: str,
    source: int,
    target: int,
    registrations: list[int],
    who: str,
    why: str,
    at: str,
) -> None:
    s.add(
        MergeRow(
            kind=kind,
            source_id=source,
            target_id=target,
            registrations=registrations,
            who=who,
            why=why,
            at=at,
        )
    )
    s.add(
        AuditRow(
            at=at,
            who=who,
            action=f"people_{kind}",
            tournament_id=None,
            entity="person",
            key=f"{source}->{target}",
            before={"person": source},
            after={"person": target, "registrations": registrations},
            why=why,
        )
    )


def merges(s: Any, player_id: int) -> list[MergeRow]:
    return list(
        s.scalars(
            select(MergeRow)
            .where((MergeRow.source_id == player_id) | (MergeRow.target_id == player_id))
            .order_by(MergeRow.id)
        )
    )


def forget_person(s: Any, player_id: int) -> None:
    """Remove a person with no registration left (after a merge), with its details."""
    s.execute(delete(PersonRow).where(PersonRow.player_id == player_id))


# ---------------------------------------------------------------------------
# Results and ratings


def store_results(s: Any, division_id: int, places: Iterable[tuple[int, int]], field: int) -> None:
    """The division's final places (registration id, place), instead of any before."""
    s.execute(delete(ResultRow).where(ResultRow.division_id == division_id))
    for reg_id, place in places:
        s.add(ResultRow(division_id=division_id, registration_id=reg_id, place=place, field=field))
    s.flush()


def stored_places(s: Any, division_id: int) -> dict[int, int]:
    """The division's stored places: registration id -> place."""
    return dict(
        s.execute(
            select(ResultRow.registration_id, ResultRow.place).where(
                ResultRow.division_id == division_id
            )
        ).all()
    )


def quota_tournaments(s: Any, key: str) -> list[tuple[int, str, str]]:
    """The divisions a qualification leads to (those with a quota of ``key``):
    (tournament id, tournament slug, division key)."""
    return [
        tuple(r)
        for r in s.execute(
            select(TournamentRow.id, TournamentRow.slug, DivisionRow.key)
            .join(DivisionRow, DivisionRow.tournament_id == TournamentRow.id)
            .join(QuotaRow, QuotaRow.division_id == DivisionRow.id)
            .where(QuotaRow.key == key)
            .order_by(TournamentRow.id, DivisionRow.position)
        ).all()
    ]


def awarded_without_results(s: Any) -> list[tuple[str, str]]:
    """Awarded divisions (tournament slug, division key) with no stored results."""
    has = select(ResultRow.division_id).distinct()
    awarded = select(AwardRow.division_id).distinct()
    return [
        (slug, key)
        for slug, key in s.execute(
            select(TournamentRow.slug, DivisionRow.key)
            .join(TournamentRow, DivisionRow.tournament_id == TournamentRow.id)
            .where(DivisionRow.id.in_(awarded), DivisionRow.id.not_in(has))
            .order_by(TournamentRow.id, DivisionRow.position)
        ).all()
    ]


def awarded_division_ids(s: Any) -> list[int]:
    """Every awarded division's id."""
    return list(s.scalars(select(AwardRow.division_id).distinct()))


def awarded_divisions(s: Any) -> list[tuple[str, str, str, str]]:
    """Every awarded division (slug, key, tournament date, first award time), oldest
    first: the order the ratings are computed in."""
    first = (
        select(AwardRow.division_id, func.min(AwardRow.awarded_at).label("at"))
        .group_by(AwardRow.division_id)
        .subquery()
    )
    rows = s.execute(
        select(TournamentRow.slug, DivisionRow.key, TournamentRow.date, first.c.at)
        .join(TournamentRow, DivisionRow.tournament_id == TournamentRow.id)
        .join(first, first.c.division_id == DivisionRow.id)
    ).all()
    return sorted(
        ((a, b, c or "", d) for a, b, c, d in rows), key=lambda r: ((r[2] or r[3][:10]), r[3])
    )


ResultLine = tuple[int, str, str, str, str, str, int, int, int, str]


def result_lines(s: Any, division_ids: Iterable[int] | None = None) -> list[ResultLine]:
    """Stored results: (division id, slug, tournament name, date, division key,
    division name, person, place, field, award time)."""
    first = (
        select(AwardRow.division_id, func.min(AwardRow.awarded_at).label("at"))
        .group_by(AwardRow.division_id)
        .subquery()
    )
    q = (
        select(
            ResultRow.division_id,
            TournamentRow.slug,
            TournamentRow.name,
            TournamentRow.date,
            DivisionRow.key,
            DivisionRow.name,
            RegistrationRow.player_id,
            ResultRow.place,
            ResultRow.field,
            first.c.at,
        )
        .join(DivisionRow, ResultRow.division_id == DivisionRow.id)
        .join(TournamentRow, DivisionRow.tournament_id == TournamentRow.id)
        .join(RegistrationRow, ResultRow.registration_id == RegistrationRow.id)
        .outerjoin(first, first.c.division_id == DivisionRow.id)
    )
    if division_ids is not None:
        q = q.where(ResultRow.division_id.in_(list(division_ids)))
    # Plain rows through the connection (no ORM loading: 20,000 rows in a ranking).
    return [tuple(r) for r in s.connection().execute(q).all()]


def division_origins(s: Any, division_ids: Iterable[int]) -> dict[int, tuple[str, str, str]]:
    """(tournament template, division key, rules name) of these divisions, by id: what
    their default circuit is read from."""
    ids = list(division_ids)
    if not ids:
        return {}
    return {
        did: (template or "", key, str((rules or {}).get("name") or ""))
        for did, template, key, rules in s.connection()
        .execute(
            select(DivisionRow.id, TournamentRow.template, DivisionRow.key, DivisionRow.rules)
            .join(TournamentRow, DivisionRow.tournament_id == TournamentRow.id)
            .where(DivisionRow.id.in_(ids))
        )
        .all()
    }


def clubs(s: Any, player_ids: Iterable[int]) -> dict[int, str]:
    """Each person's club (a ``club:`` tag) at their latest registration that has one."""
    ids = list(player_ids)
    if not ids:
        return {}
    out: dict[int, str] = {}
    for pid, tags in (
        s.connection()
        .execute(
            select(RegistrationRow.player_id, RegistrationRow.tags)
            .join(TournamentRow, RegistrationRow.tournament_id == TournamentRow.id)
            .where(RegistrationRow.player_id.in_(ids))
            .order_by(TournamentRow.date, TournamentRow.id)
        )
        .all()
    ):
        club = next((t.split(":", 1)[1] for t in tags or () if t.startswith("club:")), None)
        if club:
            out[pid] = club
    return out


def site_value(s: Any, key: str) -> str | None:
    """An installation setting (:mod:`.site`), in the caller's session."""
    value: str | None = s.scalar(select(SiteSettingRow.value).where(SiteSettingRow.key == key))
    return value


def names(s: Any) -> dict[int, str]:
    """Every person's name, by id."""
    return dict(s.connection().execute(select(Player.id, Player.name)).all())


def results_of_division(s: Any, division_id: int) -> list[tuple[int, int, int, str, int]]:
    """(place, registration id, person, name, number) of a division, by place."""
    return [
        tuple(r)
        for r in s.execute(
            select(
                ResultRow.place,
                RegistrationRow.id,
                RegistrationRow.player_id,
                RegistrationRow.name,
                RegistrationRow.number,
            )
            .join(RegistrationRow, ResultRow.registration_id == RegistrationRow.id)
            .where(ResultRow.division_id == division_id)
            .order_by(ResultRow.place, RegistrationRow.number)
        ).all()
    ]


# ---------------------------------------------------------------------------
# Rankings


def rankings(s: Any) -> list[RankingRow]:
    return list(s.scalars(select(RankingRow).order_by(RankingRow.id)))


def ranking_by_key(s: Any, key: str) -> RankingRow | None:
    row: RankingRow | None = s.scalars(select(RankingRow).where(RankingRow.key == key)).first()
    return row


def add_ranking(s: Any, **values: Any) -> RankingRow:
    row = RankingRow(**values)
    s.add(row)
    s.flush()
    return row


def ranking_events(s: Any, ranking_id: int) -> dict[int, str]:
    """The divisions that count for the ranking: division id → level."""
    return {
        e.division_id: e.level
        for e in s.scalars(select(RankingEventRow).where(RankingEventRow.ranking_id == ranking_id))
    }


def set_ranking_event(s: Any, ranking_id: int, division_id: int, level: str) -> None:
    row = s.scalars(
        select(RankingEventRow).where(
            RankingEventRow.ranking_id == ranking_id, RankingEventRow.division_id == division_id
        )
    ).first()
    if row is None:
        s.add(RankingEventRow(ranking_id=ranking_id, division_id=division_id, level=level))
    else:
        row.level = level
    s.flush()


def unset_ranking_event(s: Any, ranking_id: int, division_id: int) -> None:
    s.execute(
        delete(RankingEventRow).where(
            RankingEventRow.ranking_id == ranking_id, RankingEventRow.division_id == division_id
        )
    )
    s.flush()


def every_division(s: Any) -> list[tuple[str, str, str, str, str, bool, int]]:
    """(slug, tournament name, date, division key, division name, awarded, division id)
    of every division, the newest tournament first."""
    awarded = set(s.scalars(select(AwardRow.division_id).distinct()))
    return [
        (slug, tname, day or "", key, dname, did in awarded, did)
        for slug, tname, day, key, dname, did in s.execute(
            select(
                TournamentRow.slug,
                TournamentRow.name,
                TournamentRow.date,
                DivisionRow.key,
                DivisionRow.name,
                DivisionRow.id,
            )
            .join(TournamentRow, DivisionRow.tournament_id == TournamentRow.id)
            .order_by(TournamentRow.date.desc(), TournamentRow.id.desc(), DivisionRow.position)
        ).all()
    ]


def division_id(s: Any, slug: str, key: str) -> int | None:
    did: int | None = s.scalar(
        select(DivisionRow.id)
        .join(TournamentRow, DivisionRow.tournament_id == TournamentRow.id)
        .where(TournamentRow.slug == slug, DivisionRow.key == key)
    )
    return did


def audit(
    s: Any,
    *,
    at: str,
    who: str,
    action: str,
    entity: str,
    key: str,
    before: Any,
    after: Any,
    why: str,
    tournament_id: int | None = None,
) -> None:
    s.add(
        AuditRow(
            at=at,
            who=who,
            action=action,
            tournament_id=tournament_id,
            entity=entity,
            key=key,
            before=before,
            after=after,
            why=why,
        )
    )


# ---------------------------------------------------------------------------
# Qualifications


def grants(s: Any, key: str | None = None) -> list[tuple[GrantRow, str, str, str, str]]:
    """Grants (with their tournament's slug, their division's key and name, and the
    tournament's name)."""
    q = (
        select(GrantRow, TournamentRow.slug, DivisionRow.key, DivisionRow.name, TournamentRow.name)
        .join(DivisionRow, GrantRow.division_id == DivisionRow.id)
        .join(TournamentRow, DivisionRow.tournament_id == TournamentRow.id)
        .order_by(GrantRow.id)
    )
    if key is not None:
        q = q.where(GrantRow.key == key)
    return [tuple(r) for r in s.execute(q).all()]


def set_grant(s: Any, division_id: int, key: str, label: str, seats: int) -> GrantRow:
    row: GrantRow | None = s.scalars(
        select(GrantRow).where(GrantRow.division_id == division_id, GrantRow.key == key)
    ).first()
    if row is None:
        row = GrantRow(
            division_id=division_id,
            key=key,
            label=label,
            seats=seats,
            claim_secret=secrets.token_hex(16),
        )
        s.add(row)
    else:
        row.label, row.seats = label, seats
        row.claim_secret = row.claim_secret or secrets.token_hex(16)
    s.flush()
    return row


def declines(s: Any, grant_id: int) -> set[int]:
    return set(s.scalars(select(DeclineRow.registration_id).where(DeclineRow.grant_id == grant_id)))


def add_decline(
    s: Any, grant_id: int, registration_id: int, *, who: str, why: str, at: str
) -> None:
    s.add(DeclineRow(grant_id=grant_id, registration_id=registration_id, who=who, why=why, at=at))
    s.flush()


def quotas(s: Any, division_id: int) -> dict[str, int]:
    return {q.key: q.seats for q in quota_rows(s, division_id)}


def quota_rows(s: Any, division_id: int) -> list[QuotaRow]:
    return list(
        s.scalars(select(QuotaRow).where(QuotaRow.division_id == division_id).order_by(QuotaRow.id))
    )


def quota_divisions(s: Any, tournament_id: int) -> dict[str, int]:
    """The tournament's divisions with seats kept for holders (by qualification only,
    or reserved inside an open division): key → division id."""
    return {
        key: did
        for key, did in s.execute(
            select(DivisionRow.key, DivisionRow.id).where(
                DivisionRow.tournament_id == tournament_id,
                DivisionRow.id.in_(select(QuotaRow.division_id)),
            )
        ).all()
    }


def set_quota(
    s: Any, division_id: int, key: str, seats: int, *, open: bool = False, until: str | None = None
) -> None:
    row = s.scalars(
        select(QuotaRow).where(QuotaRow.division_id == division_id, QuotaRow.key == key)
    ).first()
    if seats <= 0:
        if row is not None:
            s.delete(row)
    elif row is None:
        s.add(QuotaRow(division_id=division_id, key=key, seats=seats, open=open, until=until))
    else:
        row.seats, row.open, row.until = seats, open, until
    s.flush()


def grant_secrets(s: Any, key: str) -> dict[int, str]:
    """The claim secrets of the grants of ``key``, by grant id."""
    return {g.id: g.claim_secret for g in s.scalars(select(GrantRow).where(GrantRow.key == key))}


def decline_lines(s: Any, grant_id: int) -> dict[int, tuple[str, str, str]]:
    """The declines of a grant: registration id → (who, why, when)."""
    return {
        d.registration_id: (d.who, d.why, d.at)
        for d in s.scalars(select(DeclineRow).where(DeclineRow.grant_id == grant_id))
    }


def division_registrations(s: Any, division_id: int) -> list[RegistrationRow]:
    return list(
        s.scalars(
            select(RegistrationRow)
            .where(RegistrationRow.division_id == division_id)
            .order_by(RegistrationRow.number)
        )
    )


__all__ = [
    "DeclineRow",
    "GrantRow",
    "MergeRow",
    "PersonRow",
    "QuotaRow",
    "RankingEventRow",
    "RankingRow",
    "ResultRow",
    "add_decline",
    "add_ranking",
    "administrator",
    "all_people",
    "audit",
    "awarded_division_ids",
    "awarded_divisions",
    "awarded_without_results",
    "by_member_number",
    "chosen_new",
    "clubs",
    "decline_lines",
    "declines",
    "details",
    "directed",
    "directs",
    "division_id",
    "division_origins",
    "division_registrations",
    "forget_person",
    "grant_secrets",
    "grants",
    "merges",
    "move_registrations",
    "names",
    "new_person",
    "people_elsewhere",
    "people_named",
    "person",
    "quota_divisions",
    "quota_rows",
    "quota_tournaments",
    "quotas",
    "ranking_by_key",
    "ranking_events",
    "rankings",
    "record_merge",
    "registration",
    "registrations_in",
    "registrations_of",
    "result_lines",
    "results_of_division",
    "set_details",
    "set_grant",
    "set_quota",
    "set_ranking_event",
    "site_value",
    "store_results",
    "stored_places",
    "unset_ranking_event",
]
