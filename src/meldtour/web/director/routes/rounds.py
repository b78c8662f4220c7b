"""The director's steps back and the division's ranking rules: reopen a closed round,
undo an advancement, set the ranking mode, tie-break chain, tables-of-3 rule and the
table size of stages to come; and the knockout bracket (public: players and
spectators follow it too).

Every change goes through a use case of :mod:`meldtour.application` (audited there);
a refusal is shown in the reader's language by its code."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from meldtour import application as usecases
from meldtour.tournament.board import bracket
from meldtour.tournament.standings import TIE_BREAKS

from ...deps import FormDep, load_tournament
from ...views import refusal_text
from ..deps import (
    StoreDep,
    TournamentDirectorDep,
    acting,
    csrf_protect,
    gettext_of,
    redirect,
    render,
)
from .common import division_or_404

router = APIRouter(dependencies=[Depends(csrf_protect)])


@router.post("/director/t/{slug}/d/{key}/reopen")
def reopen(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    """Reopen the division's last closed round (to correct a sheet)."""
    _ = gettext_of(request)
    back = f"/director/t/{slug}/d/{key}/round"
    try:
        out = usecases.reopen(store, slug, key, who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    n = out.tournament.division(key).stages[-1].rounds[-1].number
    return redirect(
        request,
        back,
        _("Round %(n)s is open again: correct its sheets, then close it again.") % {"n": n},
    )


@router.post("/director/t/{slug}/d/{key}/undo-advance")
def undo_advance(
    request: Request, store: StoreDep, director: TournamentDirectorDep, slug: str, key: str
) -> Response:
    """Undo the start of the current stage while it has no result."""
    _ = gettext_of(request)
    back = f"/director/t/{slug}#{key}"
    try:
        out = usecases.undo_advance(store, slug, key, who=acting(director))
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    stage = out.tournament.division(key).stages[-1].format.title
    return redirect(
        request,
        back,
        _("The advancement is undone: %(stage)s is the current stage again.") % {"stage": stage},
    )


@router.post("/director/t/{slug}/d/{key}/ranking")
def ranking(
    request: Request,
    store: StoreDep,
    director: TournamentDirectorDep,
    slug: str,
    key: str,
    form: FormDep,
) -> Response:
    """The ranking mode, the tie-break chain, how tables of 3 count, and the table size
    of the stages that have not started."""
    _ = gettext_of(request)
    t = load_tournament(store, slug)
    key = division_or_404(t, key)
    back = f"/director/t/{slug}#{key}-ranking"

    def text(name: str) -> str:
        value = form.get(name)
        return value.strip()[:40] if isinstance(value, str) else ""

    chain = [c for c in (text(f"chain{i}") for i in range(len(TIE_BREAKS))) if c]
    sizes = {}
    for i in range(len(t.division(key).formats)):
        size = text(f"table_size{i}")
        if size in ("3", "4"):
            sizes[i] = int(size)
    try:
        usecases.set_ranking(
            store,
            slug,
            key,
            mode=text("mode"),
            chain=chain,
            three_table=text("three_table"),
            table_sizes=sizes,
            who=acting(director),
        )
    except usecases.UseCaseError as exc:
        return redirect(request, back, refusal_text(exc, _), "error")
    return redirect(
        request, back, _("Ranking rules saved: the standings are computed with them from now on.")
    )


@router.get("/t/{slug}/bracket", response_class=HTMLResponse)
def bracket_page(
    request: Request, store: StoreDep, slug: str, division: str | None = None
) -> Response:
    """The knockout bracket: each round's tables, the players in the order they
    finished, who went on."""
    t = load_tournament(store, slug)
    keys = [d.key for d in t.divisions if any(f.kind == "knockout" for f in d.formats)]
    if not keys:
        return render(
            request, "public/bracket.html", t=t, slug=slug, key=None, keys=keys, stages=()
        )
    key = division if division in keys else keys[0]
    return render(
        request, "public/bracket.html", t=t, slug=slug, key=key, keys=keys, stages=bracket(t, key)
    )
