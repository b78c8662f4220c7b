"""No request handler does the store's work on the event loop (issue 26, finding 2).

FastAPI runs a ``def`` route in a worker thread and an ``async def`` route on the event
loop, where a database query, a use case or a parse stalls every live standings stream
and game socket of the process (the players' preview parsed a workbook there: 2.1 s to
99.7 s of a frozen ``/healthz``). So: every ``async def`` route and every ``async def``
dependency of a route is read (its syntax tree), and a call made on the loop that
passes the store, calls a use case (``usecases.…``, ``circuit.…``) or loads a
tournament fails the test — unless it is handed to a worker thread
(``run_in_threadpool``, ``asyncio.to_thread``) or awaited (a coroutine that does its own
waiting). A new ``async def`` route that does store work fails here; the loop-lag test
on the real server (``tests/reliability/test_loop_lag.py``) measures it.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute, _IncludedRouter

from meldtour.web.app import create_app
from meldtour.web.config import Settings

#: Calls that hand work to a worker thread: their arguments are passed, not called.
TO_THREAD = frozenset({"run_in_threadpool", "to_thread", "run_sync"})
#: Modules whose functions are use cases (the store's work).
USE_CASES = frozenset({"usecases", "uc", "circuit", "online", "clock_uc", "application"})
#: Functions that read the store.
STORE_READERS = frozenset({"load_tournament"})


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _store_params(fn: ast.AsyncFunctionDef) -> set[str]:
    out = set()
    for arg in fn.args.args + fn.args.kwonlyargs:
        note = ast.unparse(arg.annotation) if arg.annotation else ""
        if arg.arg == "store" or "StoreDep" in note:
            out.add(arg.arg)
    return out


def blocking_calls(source: str) -> list[str]:
    """The calls an ``async def`` (the first in ``source``) makes on the event loop
    that do the store's work, as ``line: call``."""
    tree = ast.parse(textwrap.dedent(source))
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef))
    stores = _store_params(fn) | {"store"}
    found: list[str] = []

    def visit(node: ast.AST, awaited: bool = False) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) and node is not fn:
            return  # a closure: handed to a thread (or awaited) where it is used
        if isinstance(node, ast.Await):
            visit(node.value, awaited=True)
            return
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name not in TO_THREAD and not awaited:
                owner = node.func.value if isinstance(node.func, ast.Attribute) else None
                passes_store = any(
                    isinstance(a, ast.Name) and a.id in stores
                    for a in [*node.args, *(k.value for k in node.keywords)]
                )
                use_case = isinstance(owner, ast.Name) and owner.id in USE_CASES
                if passes_store or use_case or name in STORE_READERS:
                    found.append(f"{node.lineno}: {ast.unparse(node)[:80]}")
            visit(node.func)
            for child in [*node.args, *(k.value for k in node.keywords)]:
                visit(child)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    for stmt in fn.body:
        visit(stmt)
    return found


def _dependencies(dependant: Dependant) -> Iterator[Callable[..., Any]]:
    for sub in dependant.dependencies:
        if sub.call is not None:
            yield sub.call
        yield from _dependencies(sub)


def coroutine_handlers(app: FastAPI) -> dict[str, Callable[..., Any]]:
    """Every ``async def`` route and dependency of a route, by where it is."""
    out: dict[str, Callable[..., Any]] = {}

    def walk(routes: Any) -> None:
        for route in routes:
            if isinstance(route, _IncludedRouter):
                walk(route.original_router.routes)
            if not isinstance(route, APIRoute | APIWebSocketRoute):
                continue
            for call in [route.endpoint, *_dependencies(route.dependant)]:
                if inspect.iscoroutinefunction(call):
                    out[f"{call.__module__}.{call.__qualname__}"] = call

    walk(app.routes)
    return out


def test_no_async_route_does_store_work_on_the_loop() -> None:
    app = create_app(Settings(env="test"))
    handlers = coroutine_handlers(app)
    assert len(handlers) > 10  # the walk sees the routes (play, score, streams, ...)
    problems = {
        where: calls
        for where, fn in handlers.items()
        if (calls := blocking_calls(inspect.getsource(fn)))
    }
    assert problems == {}


def test_the_check_fails_on_store_work_in_an_async_route() -> None:
    """The finding's routes as they were: each is caught."""
    preview = """
async def preview(request: Request, store: StoreDep, slug: str) -> Response:
    t = load_tournament(store, slug)
    form = await request.form()
    rows = usecases.read_roster(raw, "xlsx")
    return _preview(request, t, slug, rows)
"""
    assert [c.split(":")[0] for c in blocking_calls(preview)] == ["3", "5"]
    ranking = """
async def ranking_post(request: Request, store: StoreDep, director: DirectorDep,
                       key: str) -> Response:
    _rankings_admin(request, store, director)
    return _ranking_save(request, store, director, _form_of(await request.form(), key))
"""
    assert len(blocking_calls(ranking)) == 2
    handed = """
async def save(request: Request, web: WebDep, store: StoreDep, token: str) -> Response:
    body = await _body(request)
    t = await asyncio.to_thread(load_tournament, store, "x")
    return await run_in_threadpool(_save, request, store, body)
"""
    assert blocking_calls(handed) == []
