"""Qualifications and the seats kept for them: an award grants a qualification
(:func:`grant_qualification`: places 1 to N, passing down past whoever declines,
:func:`decline`; the lists are :func:`holders`); a division keeps seats for its
holders (:func:`set_quota`, :func:`seats`) — the whole division by qualification
only, or N of its M seats reserved inside an open division until a day, then
released.

A seat is held by a **person** and claimed by that person, never by a name: the
registration is the holder when the director chose so or the evidence says so (the
identity rule of :mod:`.registering`), or by the holder's **claim code**
(:func:`claim_code`: issued with the qualification, shown to the directors of the
awarding tournament, printed for the holder). :class:`SeatBook` checks each new
registration of a division against its seats (every path: the web's forms and lists,
the desk's late entry, the public form, the command line's import).

Who acts: granting, declining and the seats are the directors' of the tournaments
concerned (:mod:`.acting`): a decline the awarding tournament's, a grant of a key
the tournaments' that grant it already, a quota the division's own."""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from typing import Any

from meldtour.core.refusal import register as register_codes
from meldtour.store import circuit as rows
from meldtour.store.db import Store
from meldtour.store.repository import now
from meldtour.tournament import Tournament
from meldtour.tournament.entries import name_key

from ..errors import UseCaseError
from .acting import Acting, Seer, require_directs, require_qualification
from .common import _division

register_codes(
    {
        "circuit.seats": "the number of seats must be 1 or more (not %(seats)s)",
        "circuit.no_qualification": "no award qualifies for %(key)s",
        "circuit.not_holder": "%(name)s does not hold %(label)s",
        "circuit.not_qualified": "%(division)s is by qualification only, and %(name)s holds "
        "none of its seats (%(sources)s)",
        "circuit.quota_full": "the seats of %(label)s in %(division)s are all taken (%(seats)s)",
        "circuit.registered_already": "%(name)s is registered in this tournament already",
        "circuit.declined": "%(name)s declined %(label)s: the seat passed to the next place",
        "circuit.needs_claim": "a name alone never takes a seat of %(label)s: give the claim "
        "code that came with the qualification, or the director "
        "chooses the person",
        "circuit.bad_claim": "%(code)s is not the claim code of a holder of %(division)s's seats",
        "circuit.claim_other": "the claim code is %(holder)s's, not %(person)s's",
        "circuit.seats_held": "the open seats of %(division)s are all taken: %(held)s of its "
        "%(cap)s seats are kept for %(labels)s",
        "circuit.bad_until": "give the day the seats are kept until as YYYY-MM-DD (not %(value)s)",
    }
)

#: The letters of a claim code (no 0/O, 1/I/L: read aloud or copied from paper).
CLAIM_LETTERS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


@dataclass(frozen=True, slots=True)
class Holder:
    """A place on a qualification's list: who, from which award, and whether they hold
    it, declined it, or wait below the seats. ``claim`` is the holder's claim code,
    given only to those who may see it (the directors of the awarding tournament)."""

    key: str
    label: str
    person: int
    name: str
    tournament: str
    division: str
    place: int
    status: str  # "holds", "declined", "next"
    number: int = 0  # the registration's number in the awarding tournament
    tournament_name: str = ""
    claim: str = ""
    why: str = ""  # a decline's reason


def claim_code(secret: str, registration_id: int) -> str:
    """The claim code of the holder whose awarding registration is ``registration_id``:
    eight letters of :data:`CLAIM_LETTERS` made from the grant's secret (``ABCD-EFGH``).

    >>> code = claim_code("s3cret", 12)
    >>> len(code), code[4], code == claim_code("s3cret", 12) != claim_code("s3cret", 13)
    (9, '-', True)
    """
    digest = hmac.new(secret.encode(), f"claim:{registration_id}".encode(), hashlib.sha256).digest()
    n = int.from_bytes(digest[:8], "big")
    out = []
    for _ in range(8):
        n, r = divmod(n, len(CLAIM_LETTERS))
        out.append(CLAIM_LETTERS[r])
    return "".join(out[:4]) + "-" + "".join(out[4:])


def normal_code(typed: str) -> str:
    """A claim code as typed (full width, lower case, spaces or no dash) in its form.

    >>> normal_code(" abcd efgh "), normal_code("ＡＢＣＤ－ＥＦＧＨ")
    ('ABCD-EFGH', 'ABCD-EFGH')
    """
    s = "".join(c for c in unicodedata.normalize("NFKC", typed).upper() if c.isalnum())
    return f"{s[:4]}-{s[4:]}" if len(s) == 8 else s[:40]


def grant_qualification(
    store: Store, slug: str, division: str, key: str, *, label: str, seats: int, who: Acting
) -> None:
    """Places 1 to ``seats`` of the division qualify for ``key`` (shown as ``label``):
    the actor directs ``slug`` and, when ``key`` is granted already, a tournament that
    grants it."""
    if seats < 1:
        raise UseCaseError("circuit.seats", seats=seats)
    with store.transaction() as s:
        require_directs(s, who, slug)
        require_qualification(s, who, key)
        did = _division(s, slug, division)
        rows.set_grant(s, did, key, label or key, seats)
        rows.audit(
            s,
            at=now(),
            who=who.name,
            action="qualification",
            entity="qualification",
            key=key,
            before=None,
            after={"tournament": slug, "division": division, "seats": seats, "label": label},
            why="",
        )


def qualifications(store: Store) -> list[tuple[str, str]]:
    """Every qualification an award grants: (key, label), by key."""
    with store.reading() as s:
        return sorted({g.key: g.label for g, *_ in rows.grants(s)}.items())


def _holders(s: Any, key: str | None = None) -> list[Holder]:
    out = []
    for g, slug, dkey, _dname, tname in rows.grants(s, key):
        declined = rows.decline_lines(s, g.id)
        left = g.seats
        for place, reg_id, pid, name, number in rows.results_of_division(s, g.division_id):
            why = ""
            if reg_id in declined:
                status, why = "declined", declined[reg_id][1]
            elif left > 0:
                status, left = "holds", left - 1
            else:
                status = "next"
            out.append(
                Holder(
                    g.key,
                    g.label,
                    pid,
                    name,
                    slug,
                    dkey,
                    place,
                    status,
                    number,
                    tname,
                    claim_code(g.claim_secret, reg_id)
                    if g.claim_secret and status == "holds"
                    else "",
                    why,
                )
            )
            if status == "next":
                break
    return out


def _shown(s: Any, hs: Sequence[Holder], who: Acting | None) -> list[Holder]:
    """The holders with the claim codes only the awarding tournaments' directors see."""
    seer = Seer(s, who) if who is not None else None
    return [
        h if seer is not None and seer.sees([h.tournament]) else replace(h, claim="") for h in hs
    ]


def holders(store: Store, key: str | None = None, *, who: Acting | None = None) -> list[Holder]:
    """Every qualification's list (or ``key``'s): holders, declines and who is next;
    the claim codes for ``who`` where they direct the awarding tournament."""
    with store.reading() as s:
        return _shown(s, _holders(s, key), who)


def decline(
    store: Store, key: str, slug: str, number: int, *, who: Acting, why: str = ""
) -> list[Holder]:
    """The holder (registration ``number`` of the awarding tournament ``slug``)
    declines: the qualification passes to the next place. Only a director of ``slug``
    (or the administrator) records it."""
    with store.transaction() as s:
        require_directs(s, who, slug)
        reg = rows.registration(s, slug, number)
        if reg is None:
            raise UseCaseError(
                "circuit.no_registration", tournament=repr(slug), number=f"#{number}"
            )
        if not rows.grants(s, key):
            raise UseCaseError("circuit.no_qualification", key=repr(key))
        found = [g for g, gslug, *_ in rows.grants(s, key) if gslug == slug]
        grant = next(
            (
                g
                for g in found
                if any(h.person == reg.player_id and h.status == "holds" for h in _holders(s, key))
            ),
            None,
        )
        if grant is None:
            raise UseCaseError(
                "circuit.not_holder", name=reg.name, label=found[0].label if found else key
            )
        rows.add_decline(s, grant.id, reg.id, who=who.name, why=why, at=now())
        rows.audit(
            s,
            at=now(),
            who=who.name,
            action="decline",
            entity="qualification",
            key=key,
            before={"holder": reg.player_id},
            after=None,
            why=why,
        )
        return _shown(s, _holders(s, key), who)


def parse_until(text: str | None) -> str | None:
    if not text or not text.strip():
        return None
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise UseCaseError("circuit.bad_until", value=repr(text.strip()[:20])) from None


def set_quota(
    store: Store,
    slug: str,
    division: str,
    key: str,
    seats: int,
    *,
    who: Acting,
    open: bool = False,
    until: str | None = None,
) -> None:
    """Keep ``seats`` of the division for the holders of ``key`` (0 removes it): the
    whole division by qualification only, or (``open``) reserved inside an open
    division until the day ``until`` (then released to everyone)."""
    if seats < 0:
        raise UseCaseError("circuit.seats", seats=seats)
    day = parse_until(until)
    with store.transaction() as s:
        require_directs(s, who, slug)
        did = _division(s, slug, division)
        rows.set_quota(s, did, key, seats, open=open, until=day if open else None)
        rows.audit(
            s,
            at=now(),
            who=who.name,
            action="quota",
            entity="quota",
            key=f"{slug}/{division}/{key}",
            before=None,
            after={"seats": seats, "open": open, "until": day},
            why="",
        )


@dataclass(frozen=True, slots=True)
class SeatView:
    """A quota of a division: its seats and, for each holder, whether registered;
    ``open`` seats are reserved inside an open division until ``until`` (``released``
    once that day is past); the declines of the qualification are listed too."""

    key: str
    label: str
    seats: int
    holders: tuple[tuple[Holder, int | None], ...]
    taken: int
    open: bool = False
    until: str | None = None
    released: bool = False
    declined: tuple[Holder, ...] = ()


def seats(store: Store, slug: str, division: str, *, who: Acting | None = None) -> list[SeatView]:
    """Who holds which seat of a division kept for qualifications (the director's
    view; the claim codes for ``who`` where they direct the awarding tournament)."""
    with store.reading() as s:
        views = _seats(s, _division(s, slug, division))
        out = []
        for v in views:
            shown = _shown(s, [h for h, _n in v.holders], who)
            out.append(
                replace(
                    v,
                    holders=tuple(zip(shown, (n for _h, n in v.holders), strict=True)),
                    declined=tuple(_shown(s, v.declined, who)),
                )
            )
        return out


def seat_divisions(store: Store, slug: str) -> dict[str, bool]:
    """The divisions of ``slug`` that keep seats for qualifications: key → whether by
    qualification only (the public form asks for a claim code there)."""
    from meldtour.store.repository import find_tournament

    with store.reading() as s:
        tid = find_tournament(s, slug).id
        return {
            key: any(not q.open for q in rows.quota_rows(s, did))
            for key, did in rows.quota_divisions(s, tid).items()
        }


def _today() -> str:
    return datetime.now(UTC).date().isoformat()


def _seats(s: Any, did: int) -> list[SeatView]:
    regs = {
        r.player_id: r
        for r in rows.division_registrations(s, did)
        if r.status not in ("withdrawn",)
    }
    out = []
    today = _today()
    for q in rows.quota_rows(s, did):
        every = _holders(s, q.key)
        hs = [h for h in every if h.status == "holds"]
        label = hs[0].label if hs else next((g.label for g, *_ in rows.grants(s, q.key)), q.key)
        lines = tuple((h, regs[h.person].number if h.person in regs else None) for h in hs)
        out.append(
            SeatView(
                q.key,
                label,
                q.seats,
                lines,
                sum(1 for _, x in lines if x is not None),
                q.open,
                q.until,
                bool(q.open and q.until and q.until < today),
                tuple(h for h in every if h.status == "declined"),
            )
        )
    return out


class SeatBook:
    """The seats of one tournament's divisions kept for qualifications, as the
    registrations of a unit of work take them: :meth:`take` checks one new
    registration (its person as the identity rule decided, its claim code) and says
    which person and which qualification's seat it is, or refuses with the reason."""

    def __init__(
        self, s: Any, division_ids: Mapping[str, int], t: Tournament, known: set[int]
    ) -> None:
        self.s = s
        self.t = t
        self.ids = dict(division_ids)
        self.views: dict[str, list[SeatView]] = {}
        self.count: dict[str, dict[str, int]] = {}  # division → quota key → seats taken
        self.others: dict[str, int] = {}  # division → registrations on open seats
        self.known = known  # registration numbers before the unit

    def _load(self, division: str) -> list[SeatView]:
        if division not in self.views:
            did = self.ids.get(division)
            views = _seats(self.s, did) if did is not None else []
            self.views[division] = views
            self.count[division] = {v.key: v.taken for v in views}
            held = {h.person for v in views for h, n in v.holders if n is not None}
            pids = (
                {
                    r.player_id: r
                    for r in rows.division_registrations(self.s, did)
                    if r.status != "withdrawn"
                }
                if did is not None
                else {}
            )
            self.others[division] = sum(1 for p in pids if p not in held)
        return self.views[division]

    def take(
        self, division: str, person: int | None, name: str, claim: str | None
    ) -> tuple[int | None, str | None, str]:
        """(the person, the qualification whose seat is taken or ``None``, how: "claim",
        "person" or "") for a new registration of ``division``."""
        views = self._load(division)
        if not views:
            if claim:
                raise UseCaseError(
                    "circuit.bad_claim",
                    code=repr(normal_code(claim)),
                    division=self.t.division(division).name,
                )
            return person, None, ""
        div = self.t.division(division)
        how = "person" if person is not None else ""
        if claim:
            code = normal_code(claim)
            found = [
                (v, h)
                for v in views
                for h, _n in v.holders
                if h.claim and hmac.compare_digest(h.claim, code)
            ]
            if not found:
                raise UseCaseError("circuit.bad_claim", code=repr(code), division=div.name)
            holder = found[0][1]
            if person is not None and person != holder.person:
                raise UseCaseError(
                    "circuit.claim_other",
                    holder=f"#{holder.person} {holder.name}",
                    person=f"#{person}",
                )
            person, how = holder.person, "claim"
        active = [v for v in views if not v.released]
        closed = any(not v.open for v in views)
        mine = (
            [v for v in active for h, _n in v.holders if h.person == person]
            if person is not None
            else []
        )
        free = [v for v in mine if self.count[division][v.key] < v.seats]
        if free:
            self.count[division][free[0].key] += 1
            return person, free[0].key, how
        if closed:
            if mine:
                v = mine[0]
                raise UseCaseError(
                    "circuit.quota_full", label=v.label, division=div.name, seats=v.seats
                )
            gone = [
                (v, h)
                for v in views
                for h in v.declined
                if person is not None and h.person == person
            ]
            if gone:
                raise UseCaseError("circuit.declined", name=name, label=gone[0][0].label)
            by_name = [
                v
                for v in views
                for h, _n in v.holders
                if person is None and name_key(h.name) == name_key(name)
            ]
            if by_name:
                raise UseCaseError("circuit.needs_claim", label=by_name[0].label)
            raise UseCaseError(
                "circuit.not_qualified",
                division=div.name,
                name=name,
                sources=", ".join(f"{v.label}: {v.seats}" for v in views),
            )
        held = sum(v.seats for v in active if v.open)
        if active and self.others[division] + held >= div.cap:
            raise UseCaseError(
                "circuit.seats_held",
                division=div.name,
                held=held,
                cap=div.cap,
                labels=", ".join(v.label + (f" ({v.until})" if v.until else "") for v in active),
            )
        self.others[division] += 1
        return person, None, how


__all__ = [
    "CLAIM_LETTERS",
    "Holder",
    "SeatBook",
    "SeatView",
    "claim_code",
    "decline",
    "grant_qualification",
    "holders",
    "normal_code",
    "parse_until",
    "qualifications",
    "seat_divisions",
    "seats",
    "set_quota",
]
