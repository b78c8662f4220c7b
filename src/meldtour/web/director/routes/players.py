"""The director's players: the list (search by ``#5`` or a part of a name; a mark on
who may be someone who played before), one player added, many added from a pasted
list or a CSV/XLSX file through a preview that marks each line's errors and likely
duplicates, and offers for each line the people of the same name who played before
with the evidence ("a new person" or "the same person as #N"), before anything is
saved (then all are saved in one transaction), a player mended (name, division before
the start, family and club, generation), a check-in undone, a no-show reinstated.

The list is read by the one reader of players' lists (:mod:`meldtour.application.roster`,
which ``meldtour tournament players import`` uses too); every change is a use case of
:mod:`meldtour.application` with its audit line; refusals are shown by code in the
reader's language."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.formparsers import MultiPartException

from meldtour import application as usecases
from meldtour.application import circuit
from meldtour.application.players import same_name, tags_of
from meldtour.application.roster import RosterRow, check_roster
from meldtour.core.refusal import render
from meldtour.tournament import Registration, Tournament, TournamentError

from ...deps import FormDep, load_tournament
from ...i18n import N_
from ...uploads import read_list
from ...views import STATUS, refusal_text
from ..deps import StoreDep, TournamentDirectorDep, acting, csrf_protect, gettext_of, redirect
from ..deps import render as render_page

router = APIRouter(prefix="/director")

#: A pasted list: 200 KB of text (a day of 128 players is about 4 KB).
MAX_PASTE = 200 * 1024
#: An uploaded CSV or XLSX file: 2 MB.
MAX_FILE = 2 * 1024 * 1024
#: Players in one list from the pages (the preview shows them all).
MAX_ROWS = 1000
#: The form fields of a preview: nine a line, and a few more.
MAX_FIELDS = 9 * MAX_ROWS + 20


async def _big_form(request: Request) -> None:
    """The CSRF check of a list's form, read first with the list's own bounds (a
    preview sends nine fields a line; Starlette keeps the first reading, and the check
    would read it with its default of 1,000 fields). A pasted list over its bound is
    not read: the route says so and changes nothing."""
    try:
        await request.form(max_fields=MAX_FIELDS, max_files=1, max_part_size=MAX_PASTE + 1)
    except (MultiPartException, StarletteHTTPException):
        # Starlette says 400 for a part over its bound; a body that big is the paste.
        size = request.headers.get("content-length", "")
        if not (size.isdigit() and int(size) > MAX_PASTE):
            raise
        request.state.list_too_big = True
        return
    await csrf_protect(request)


FIELD_WORDS = {
    "name": N_("Name"),
    "division": N_("Division"),
    "tags": N_("Tags"),
    "generation": N_("Generation"),
    "member": N_("Member number"),
    "birth_year": N_("Birth year"),
    "person": N_("Who this is"),
    "claim": N_("Claim code"),
    "": "",
}


@dataclass(frozen=True)
class Line:
    """One line of the preview: the row, what the director chose for a likely duplicate
    (``keep``, ``drop`` or ``""``), its problems in the reader's words, and who it is:
    the people of the same name who played before, with the evidence, and the choice
    (``person``: ``"new"`` or a person's id)."""

    row: RosterRow
    choice: str
    errors: dict[str, list[str]]
    same: list[str]
    who: circuit.Identity | None = None
    person: str = "new"

    @property
    def dropped(self) -> bool:
        return self.choice == "drop"

    @property
    def undecided(self) -> bool:
        return bool(self.same) and not self.choice

    @property
    def known(self) -> bool:
        """Whether people of the same name played before (the line offers them)."""
        return bool(self.who and self.who.candidates)

    def entry(self) -> usecases.PlayerEntry:
        """The registration, as the person chosen."""
        person: circuit.PersonChoice = (
            int(self.person) if self.person.isdigit() else circuit.NEW if self.known else None
        )
        return replace(self.row.entry(), line=self.row.line, person=person)


def _text(form: FormData, name: str, limit: int = 200) -> str:
    value = form.get(name)
    return value.strip()[:limit] if isinstance(value, str) else ""


def _page(path: str, slug: str) -> str:
    return f"/director/t/{slug}{path}"


def _back(form: FormData, slug: str, default: str) -> str:
    """Where to go after an action: the page it came from, if it is this tournament's."""
    back = _text(form, "back", 300)
    return back if back.startswith(f"/director/t/{slug}/") and "//" not in back[1:] else default


def _said(row: RosterRow, person: str) -> usecases.PlayerEntry:
    """What a checked row says about who the player is (a member number or a birth
    year in error says nothing: its error is the row's own)."""
    wrong = {p.field for p in row.problems}
    year = "" if "birth_year" in wrong else row.birth_year
    member = "" if "member" in wrong else row.member
    choice: circuit.PersonChoice = (
        int(person) if person.isdigit() else circuit.NEW if person == "new" else None
    )
    return usecases.PlayerEntry(
        row.name,
        line=row.line,
        member_number=member or None,
        birth_year=int(year) if year else None,
        person=choice,
    )


def _lines(
    request: Request,
    store: Any,
    slug: str,
    t: Tournament,
    rows: list[RosterRow],
    choices: dict[int, str],
    default: str | None,
    people: dict[int, str] | None = None,
    *,
    director: Any,
) -> list[Line]:
    """The preview's lines: the kept rows checked against the tournament (a dropped
    row is no one's duplicate) and against the people who played before (``people``:
    the choice sent back for each line, by line; none the first time: the evidence's
    suggestion), the dropped ones as they are."""
    _ = gettext_of(request)
    kept = check_roster(t, [r for r in rows if choices.get(r.line) != "drop"], default)
    by_line = {r.line: r for r in kept}
    asked = dict(people or {})
    who = circuit.Acting(director.name, director.id)
    found_all = circuit.identify(
        store, slug, [_said(r, asked.get(r.line, "")) for r in kept], who=who
    )
    # a choice of someone the line no longer offers (its name was mended): the evidence's
    stale = {
        r.line
        for r, f in zip(kept, found_all, strict=True)
        if f.chosen is not None
        and asked.get(r.line, "").isdigit()
        and f.chosen not in {c.person.person for c in f.candidates}
    }
    if stale:
        asked.update(dict.fromkeys(stale, ""))
        found_all = circuit.identify(
            store, slug, [_said(r, asked.get(r.line, "")) for r in kept], who=who
        )
    identities = dict(zip(by_line, found_all, strict=True))
    out = []
    for r in rows:
        checked = by_line.get(r.line, r)
        errors: dict[str, list[str]] = {}
        for p in checked.problems if r.line in by_line else ():
            errors.setdefault(p.field, []).append(render(p.refusal, _))
        found = identities.get(r.line)
        for field, refusal in found.problems if found else ():
            errors.setdefault(field, []).append(render(refusal, _))
        same = [render(s, _) for s in checked.same_as] if r.line in by_line else []
        choice = choices.get(r.line, "")
        if choice == "keep" and not same and r.line in by_line:
            choice = ""
        person = str(found.chosen) if found and found.chosen is not None else "new"
        out.append(Line(checked, choice, errors, same, found, person))
    return out


def _preview(
    request: Request,
    t: Tournament,
    slug: str,
    director: Any,
    lines: list[Line],
    default: str | None,
    *,
    error: str = "",
    status_code: int = 200,
) -> Response:
    return render_page(
        request,
        "director/players_preview.html",
        status_code,
        account=director,
        t=t,
        slug=slug,
        lines=lines,
        default=default or "",
        error=error,
        field_words=FIELD_WORDS,
        bad=[x.row.line for x in lines if x.errors and not x.dropped],
        unmatched=unmatched_divisions(lines),
        undecided=[x.row.line for x in lines if x.undecided and not x.dropped],
        known=[x.row.line for x in lines if x.known and not x.dropped],
    )


@dataclass(frozen=True)
class Unmatched:
    """A division as the list wrote it that matches none of the tournament's (``""``:
    no division given), and its lines: one control sets a division for them all."""

    value: str
    lines: tuple[int, ...]


#: The most distinct unmatched division values the preview offers a control for.
MAX_UNMATCHED = 40


def unmatched_divisions(lines: list[Line]) -> list[Unmatched]:
    """The distinct division values of the kept lines that match no division, in the
    order they first appear."""
    found: dict[str, list[int]] = {}
    for x in lines:
        if "division" in x.errors and not x.dropped:
            found.setdefault(x.row.division, []).append(x.row.line)
    return [Unmatched(v, tuple(n)) for v, n in list(found.items())[:MAX_UNMATCHED]]


def apply_divisions(t: Tournament, form: FormData, rows: list[RosterRow]) -> list[RosterRow]:
    """The rows with each "apply to every line with this value" the director chose:
    every row whose division is the value gets the chosen division."""
    count = _text(form, "apply_count", 4)
    chosen: dict[str, str] = {}
    keys = {d.key for d in t.divisions}
    for j in range(min(int(count) if count.isdigit() else 0, MAX_UNMATCHED)):
        key = _text(form, f"apply_div{j}", 80)
        if key in keys:
            chosen[_text(form, f"apply_val{j}", 80)] = key
    if not chosen:
        return rows
    return [replace(r, division=chosen[r.division]) if r.division in chosen else r for r in rows]


def _default_division(t: Tournament, form: FormData) -> str | None:
    key = _text(form, "default", 80)
    return key if any(d.key == key for d in t.divisions) else None


# ---------------------------------------------------------------- the list


@router.get("/t/{slug}/players", response_class=HTMLResponse)
def players_page(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    q: str = "",
    division: str = "",
) -> Response:
    t = load_tournament(store, slug)
    regs: tuple[Registration, ...] = t.registrations
    if division:
        regs = tuple(r for r in regs if r.division == division)
    found = usecases.search_players(regs, q[:80])
    return render_page(
        request,
        "director/players.html",
        account=director,
        t=t,
        slug=slug,
        regs=found,
        total=len(t.registrations),
        q=q[:80],
        division=division,
        status=STATUS,
        max_rows=MAX_ROWS,
        max_paste=MAX_PASTE,
        names={d.key: d.name for d in t.divisions},
        maybe=circuit.possible_same(store, slug),
    )


@router.post("/t/{slug}/players/add", dependencies=[Depends(csrf_protect)])
def add_player(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, form: FormDep
) -> Response:
    """One player: registered at once, unless the line has an error or the name is
    already registered — then the preview shows it and the director decides."""
    _ = gettext_of(request)
    t = load_tournament(store, slug)
    row = RosterRow(
        1,
        _text(form, "name", 200),
        _text(form, "division", 80),
        " ".join(tags_of(_text(form, "family", 60), _text(form, "club", 60), ())),
        _text(form, "generation", 20),
        member=_text(form, "member", 60),
        birth_year=_text(form, "birth_year", 20),
    )
    lines = _lines(request, store, slug, t, [row], {}, None, director=director)
    if lines[0].errors or lines[0].same or lines[0].known:
        return _preview(request, t, slug, director, lines, None)
    return _register(request, store, slug, director, lines)


@router.post("/t/{slug}/players/preview", dependencies=[Depends(_big_form)])
def preview(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, form: FormDep
) -> Response:
    """A pasted list or a CSV/XLSX file, read and checked, shown line by line: nothing
    is saved yet."""
    _ = gettext_of(request)
    t = load_tournament(store, slug)
    back = _page("/players#many", slug)
    if getattr(request.state, "list_too_big", False):
        return redirect(
            request,
            back,
            _("The pasted list is too long: at most %(n)s KB. Upload it as a file instead.")
            % {"n": MAX_PASTE // 1024},
            "error",
        )
    upload = form.get("file")
    paste = form.get("paste")
    try:
        if isinstance(upload, UploadFile) and upload.filename:
            raw = upload.file.read(MAX_FILE + 1)
            xlsx = raw[:2] == b"PK" or (upload.filename or "").lower().endswith(".xlsx")
            rows = read_list(raw, "xlsx" if xlsx else "text", limit=MAX_FILE, max_rows=MAX_ROWS)
        elif isinstance(paste, str) and paste.strip():
            rows = usecases.read_roster(paste, limit=MAX_PASTE, max_rows=MAX_ROWS)
        else:
            return redirect(request, back, _("Paste a list or choose a file first."), "error")
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    default = _default_division(t, form)
    return _preview(
        request,
        t,
        slug,
        director,
        _lines(request, store, slug, t, rows, {}, default, director=director),
        default,
    )


@router.post("/t/{slug}/players/import", dependencies=[Depends(_big_form)])
def import_players(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, form: FormDep
) -> Response:
    """The preview sent back, mended: checked again, or — with ``go=save``, no error left
    and every likely duplicate decided — registered, all in one transaction."""
    _ = gettext_of(request)
    t = load_tournament(store, slug)
    if getattr(request.state, "list_too_big", False):
        return redirect(
            request,
            _page("/players#many", slug),
            _("Paste a list or choose a file first."),
            "error",
        )
    count = form.get("count")
    n = int(count) if isinstance(count, str) and count.isdigit() else 0
    if not 0 < n <= MAX_ROWS:
        return redirect(
            request,
            _page("/players#many", slug),
            _("Paste a list or choose a file first."),
            "error",
        )
    rows, choices, people = [], {}, {}
    for i in range(n):
        line = _text(form, f"line{i}", 10)
        number = int(line) if line.isdigit() else i + 1
        rows.append(
            RosterRow(
                number,
                _text(form, f"name{i}"),
                _text(form, f"division{i}", 80),
                _text(form, f"tags{i}"),
                _text(form, f"generation{i}", 20),
                member=_text(form, f"member{i}", 60),
                birth_year=_text(form, f"birth_year{i}", 20),
                claim=_text(form, f"claim{i}", 40),
            )
        )
        choices[number] = _text(form, f"keep{i}", 10)
        people[number] = _text(form, f"person{i}", 12)
    default = _default_division(t, form)
    rows = apply_divisions(t, form, rows)
    lines = _lines(request, store, slug, t, rows, choices, default, people, director=director)
    if form.get("go") != "save":
        return _preview(request, t, slug, director, lines, default)
    kept = [x for x in lines if not x.dropped]
    if any(x.errors for x in kept):
        return _preview(
            request,
            t,
            slug,
            director,
            lines,
            default,
            status_code=422,
            error=_("Nothing is saved yet: mend the lines marked in red, or drop them."),
        )
    if any(x.undecided for x in kept):
        return _preview(
            request,
            t,
            slug,
            director,
            lines,
            default,
            status_code=422,
            error=_(
                "Nothing is saved yet: for each likely duplicate, choose "
                "whether it is a different person or drop the line."
            ),
        )
    if not kept:
        return redirect(request, _page("/players", slug), _("No player was added."))
    return _register(request, store, slug, director, kept, lines=lines, default=default)


def _register(
    request: Request,
    store: Any,
    slug: str,
    director: Any,
    kept: list[Line],
    lines: list[Line] | None = None,
    default: str | None = None,
) -> Response:
    _ = gettext_of(request)
    entries = [replace(x.entry(), line=None if lines is None else x.row.line) for x in kept]
    try:
        out = usecases.register_players(store, slug, entries, who=acting(director))
    except usecases.UseCaseError as exc:
        t = load_tournament(store, slug)
        return _preview(
            request,
            t,
            slug,
            director,
            lines or kept,
            default,
            status_code=422,
            error=refusal_text(exc, _),
        )
    waiting = sum(1 for x in out.notices if x.what == "waitlisted")
    if len(entries) == 1:
        reg = out.tournament.registrations[-1]
        text = _("%(name)s is registered as number %(n)s.") % {"name": reg.name, "n": reg.player}
    else:
        text = _("%(n)s players are registered.") % {"n": len(entries)}
    if waiting:
        text += " " + _("%(n)s of them wait on the waitlist (the division is full).") % {
            "n": waiting
        }
    return redirect(request, _page("/players", slug), text)


# ---------------------------------------------------------------- one player


def _registration(t: Tournament, player: int) -> Registration:
    try:
        return t.registration(player)
    except TournamentError:
        raise HTTPException(404, f"no player {player}") from None


@router.get("/t/{slug}/p/{player}", response_class=HTMLResponse)
def player_page(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, player: int
) -> Response:
    t = load_tournament(store, slug)
    reg = _registration(t, player)
    div = t.division(reg.division)
    family = next((x.split(":", 1)[1] for x in sorted(reg.tag_values("family"))), "")
    club = next((x.split(":", 1)[1] for x in sorted(reg.tag_values("club"))), "")
    others = sorted(x for x in reg.tags if x.split(":", 1)[0] not in ("family", "club"))
    movable = not div.started and reg.status in ("registered", "waitlisted", "checked_in")
    return render_page(
        request,
        "director/player.html",
        account=director,
        t=t,
        slug=slug,
        reg=reg,
        div=div,
        family=family,
        club=club,
        others=" ".join(others),
        movable=movable,
        status=STATUS,
        targets=[d for d in t.divisions if not d.started or d.key == div.key],
        same=same_name(t, reg.name, besides=reg.player),
    )


@router.post("/t/{slug}/p/{player}", dependencies=[Depends(csrf_protect)])
def edit_player(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    player: int,
    form: FormDep,
) -> Response:
    _ = gettext_of(request)
    t = load_tournament(store, slug)
    reg = _registration(t, player)
    here = _page(f"/p/{player}", slug)
    generation = _text(form, "generation", 20)
    others = [x for x in _text(form, "tags").replace(";", " ").split() if x]
    try:
        if generation and not (generation.isascii() and generation.isdigit()):
            raise usecases.UseCaseError("players.generation_not_number", value=repr(generation))
        edit = usecases.PlayerEdit(
            name=_text(form, "name"),
            tags=tags_of(_text(form, "family", 60), _text(form, "club", 60), others),
            generation=int(generation) if generation else None,
            division=_text(form, "division", 80) or None,
        )
        out = usecases.edit_player(store, slug, player, edit, who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, here, refusal_text(exc, _), "error")
    if not out.notices:
        return redirect(request, here, _("Nothing was changed."))
    new = out.tournament.registration(player)
    text = _("Saved: %(name)s, number %(n)s.") % {"name": new.name, "n": player}
    if new.division != reg.division:
        text += " " + _("Now in %(div)s.") % {"div": out.tournament.division(new.division).name}
        if new.status == "waitlisted" and reg.status != "waitlisted":
            text += " " + _("The division is full: the player waits on its waitlist.")
    return redirect(request, here, text)


@router.post("/t/{slug}/p/{player}/undo-check-in", dependencies=[Depends(csrf_protect)])
def undo_check_in(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    player: int,
    form: FormDep,
) -> Response:
    _ = gettext_of(request)
    back = _back(form, slug, _page(f"/p/{player}", slug))
    try:
        out = usecases.undo_check_in_player(store, slug, player, who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(
        request,
        back,
        _("%(name)s is not checked in any more.") % {"name": out.tournament.name_of(player)},
    )


@router.post("/t/{slug}/p/{player}/reinstate", dependencies=[Depends(csrf_protect)])
def reinstate(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    player: int,
    form: FormDep,
) -> Response:
    _ = gettext_of(request)
    back = _back(form, slug, _page(f"/p/{player}", slug))
    try:
        out = usecases.reinstate_player(store, slug, player, who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    reg = out.tournament.registration(player)
    text = _("%(name)s is present again under number %(n)s.") % {"name": reg.name, "n": player}
    if reg.late:
        text += " " + _("Seated from the next round of the first stage.")
    return redirect(request, back, text)


__all__ = ["router"]
