"""Errors as pages: a page request (a browser asking for HTML) that fails gets a page
in the visitor's language — an unknown tournament, a bad score link, a director of
another tournament, an expired form, an unknown address (404), a wrong method (405), a
body too large (413), a control character in a field (400) — never raw JSON. A client
of the JSON APIs (``fetch`` asks for ``*/*`` or JSON) keeps its JSON answer.

What an error says comes, in this order, from a :class:`~meldtour.core.refusal.Refusal`
carried as the ``HTTPException``'s detail (said by its code), a detail that is a
message id of the catalogs (``N_("...")`` where it is raised) or already in the
visitor's language, else the status's own words: an English-only detail is never
shown on a Korean or Japanese page.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from meldtour.core.refusal import Refusal, Refused, english, render

from .deps import locale_of
from .deps import render_template as render_page
from .i18n import N_, translations

#: The words of each status on its page: a title and what to do.
STATUS_WORDS: Mapping[int, tuple[str, str]] = {
    400: (
        N_("Something in this request is not right"),
        N_("Go back, check what you typed, and try again."),
    ),
    403: (
        N_("Not allowed"),
        N_("This page is not for this account, or the form came from elsewhere."),
    ),
    404: (
        N_("Page not found"),
        N_("There is no page at this address: check it, or start from the list of tournaments."),
    ),
    405: (
        N_("This page cannot be used this way"),
        N_("Open the page from its link or its form, not by typing its address."),
    ),
    409: (N_("Not possible just now"), N_("The tournament is not at the step this needs yet.")),
    413: (
        N_("Too much was sent"),
        N_("What was sent is larger than this site accepts: send a smaller file or less text."),
    ),
    422: (
        N_("Something in this request is not right"),
        N_("Go back, check what you typed, and try again."),
    ),
    429: (N_("Too many requests"), N_("Wait a few minutes and try again.")),
    500: (
        N_("Something went wrong"),
        N_("Nothing was changed by this request: try again in a moment."),
    ),
    503: (
        N_("Not available just now"),
        N_("Nothing was changed by this request: try again in a moment."),
    ),
}

#: A form field's name as the visitor reads it, for a refusal that names the field.
FIELD_LABELS: Mapping[str, str] = {
    "name": N_("name"),
    "password": N_("password"),
    "again": N_("password (again)"),
    "division": N_("division"),
    "family": N_("family"),
    "generation": N_("generation"),
    "venue": N_("venue"),
    "date": N_("date"),
    "why": N_("reason"),
    "q": N_("search"),
    "finalist": N_("player"),
    "player": N_("player"),
    "preset": N_("rules"),
    "rules": N_("rules"),
    "eligibility": N_("who may enter"),
    "next": N_("next page"),
}


def field_label(key: str, gettext: Any) -> str:
    """A field named for the visitor: its label, or its own name when it has none."""
    label = FIELD_LABELS.get(key)
    if label is None:
        base = key.rstrip("0123456789")
        label = FIELD_LABELS.get(base)
    return str(gettext(label)) if label is not None else key[:40]


def wants_page(headers: Mapping[str, str]) -> bool:
    """Whether the client asked for a page (a browser's navigation or form post sends
    ``Accept: text/html``), not for JSON."""
    accept = headers.get("accept", "")
    kind = headers.get("content-type", "")
    return "text/html" in accept and "json" not in kind


@cache
def _said(locale: str) -> frozenset[str]:
    """Every sentence of a language's catalogs (a detail already translated)."""
    return frozenset(translations(locale).messages.values())


def for_visitors(refusal: Refusal) -> Refusal:
    """A refusal as a visitor may read it: an unknown tournament's address does not
    list the other tournaments' (the command line's refusal does, for its operator)."""
    if refusal.code == "store.no_tournament_known":
        return Refusal("store.no_tournament", {"slug": refusal.params.get("slug", "")})
    return refusal


def detail_text(detail: Any, locale: str) -> str | None:
    """What a detail says in ``locale``, or ``None`` when it has no words there."""
    gettext = translations(locale).gettext
    if isinstance(detail, Refusal):
        return render(for_visitors(detail), gettext)
    if not isinstance(detail, str) or not detail:
        return None
    if detail in {s.phrase for s in HTTPStatus}:
        return None  # Starlette's own "Not Found": the page's title says it better
    said = gettext(detail)
    if said != detail or locale == "en" or detail in _said(locale):
        return said
    return None


def english_detail(detail: Any) -> Any:
    return english(for_visitors(detail)) if isinstance(detail, Refusal) else detail


def error_page(
    request: Request,
    status: int,
    message: str | None = None,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """The error page of ``status`` in the visitor's language, with ``message``."""
    title, hint = STATUS_WORDS.get(status, STATUS_WORDS[500 if status >= 500 else 400])
    response = render_page(
        request,
        "public/error.html",
        status_code=status,
        status=status,
        title=title,
        hint=hint,
        message=message,
    )
    response.headers["Cache-Control"] = "no-store"
    for k, v in (headers or {}).items():
        response.headers[k] = v
    return response


def install(app: FastAPI) -> None:
    """The app's error handlers: a page for a page request, JSON for the APIs."""

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        headers = dict(exc.headers or {})
        if wants_page(request.headers):
            return error_page(
                request, exc.status_code, detail_text(exc.detail, locale_of(request)), headers
            )
        if exc.status_code in (204, 304):
            return Response(status_code=exc.status_code, headers=headers)
        return JSONResponse(
            {"detail": english_detail(exc.detail)}, status_code=exc.status_code, headers=headers
        )

    async def invalid(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        if not wants_page(request.headers):
            return JSONResponse({"detail": _jsonable(exc.errors())}, status_code=422)
        _ = translations(locale_of(request)).gettext
        names = []
        for error in exc.errors():
            where = [
                str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path", "form")
            ]
            if where:
                names.append(field_label(where[-1], _))
        message = (
            _("These are missing or not valid: %(fields)s.")
            % {"fields": ", ".join(dict.fromkeys(names))}
            if names
            else None
        )
        return error_page(request, 400, message)

    async def refused(request: Request, exc: Exception) -> Response:
        # A refusal no route caught (a tournament or part of one that is not there,
        # a use case's refusal): said by its code, never a traceback.
        assert isinstance(exc, Refused)
        status = 404 if type(exc).__name__ == "NotFound" else 400
        if wants_page(request.headers):
            return error_page(
                request,
                status,
                render(for_visitors(exc.refusal), translations(locale_of(request)).gettext),
            )
        said = for_visitors(exc.refusal)
        return JSONResponse({"detail": english(said), "code": said.code}, status_code=status)

    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(Refused, refused)


def _jsonable(errors: Any) -> Any:
    from fastapi.encoders import jsonable_encoder

    return jsonable_encoder(errors)


__all__ = [
    "FIELD_LABELS",
    "STATUS_WORDS",
    "detail_text",
    "error_page",
    "field_label",
    "install",
    "wants_page",
]
