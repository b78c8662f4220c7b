"""The layers of meldtour, lowest first, and the imports allowed between them.

This is the one place the layer order is declared. ``tests/test_layers.py`` builds the
import graph of ``src/`` (every ``import``, also those inside functions and under
``if TYPE_CHECKING:``) and fails on an import that goes against this order and on any
cycle between modules. Nothing imports this module: it is data for that test and for
a reader.

The rules referee (``core``) is at the bottom; the exact solver and the computer
players build on it, the tournament engine beside them; the store keeps tournaments
and games; the application layer runs the use cases over the store; the live games
run on all of these; the web app and the command line are the adapters at the top,
and neither imports the other. A module belongs to the layer of its longest prefix:

>>> layer_of("meldtour.live.server")
'meldtour.live'
>>> layer_of("meldtour.__main__")
'meldtour.cli'
>>> may_import("meldtour.live.online", "meldtour.application.online")
True
>>> may_import("meldtour.store.games", "meldtour.live.log")
False
>>> may_import("meldtour.core.game", "meldtour")  # the package itself: its version
True
"""

from __future__ import annotations

#: The package itself (its ``__init__``: the version, and this module): any layer may
#: import it, and it imports no layer.
BASE = "meldtour"

CORE = "meldtour.core"
SOLVER = "meldtour.solver"
PLAYERS = "meldtour.players"
TOURNAMENT = "meldtour.tournament"
STORE = "meldtour.store"
APPLICATION = "meldtour.application"
LIVE = "meldtour.live"
WEB = "meldtour.web"
CLI = "meldtour.cli"

#: Each layer and the layers below it that it may import (besides itself and BASE).
LAYERS: dict[str, frozenset[str]] = {
    BASE: frozenset(),
    CORE: frozenset(),
    SOLVER: frozenset({CORE}),
    PLAYERS: frozenset({CORE, SOLVER}),
    TOURNAMENT: frozenset({CORE}),
    STORE: frozenset({CORE, TOURNAMENT}),
    APPLICATION: frozenset({CORE, TOURNAMENT, STORE}),
    LIVE: frozenset({CORE, SOLVER, PLAYERS, STORE, APPLICATION}),
    WEB: frozenset({CORE, SOLVER, PLAYERS, TOURNAMENT, STORE, APPLICATION, LIVE}),
    CLI: frozenset({CORE, SOLVER, PLAYERS, TOURNAMENT, STORE, APPLICATION, LIVE}),
}

#: Modules that belong to a layer other than their package's.
MODULES: dict[str, str] = {
    "meldtour.__main__": CLI,  # ``python -m meldtour`` is the command line
}

#: The pure layers: the standard library only, and these few libraries each.
PURE: dict[str, frozenset[str]] = {
    CORE: frozenset(),
    # librt: the compiled core's vectors of machine integers (mypyc's runtime, imported
    # only when compiled); mypy_extensions: their integer types, for type checking.
    SOLVER: frozenset({"librt", "mypy_extensions"}),
    PLAYERS: frozenset(),
    TOURNAMENT: frozenset({"openskill"}),
}

#: The adapters: no layer below them imports them.
ADAPTERS = frozenset({STORE, APPLICATION, LIVE, WEB, CLI})


#: What the outer adapters (web, command line) may take of the store: its ``Store`` type
#: and its errors (``None``: any name of the module). Everything else they reach through
#: the application's use cases, which decide who may do what.
STORE_FACE: dict[str, frozenset[str] | None] = {
    "meldtour.store.db": frozenset({"Store"}),
    "meldtour.store.errors": None,
}

#: The layers held to :data:`STORE_FACE`.
OUTER = frozenset({WEB, CLI})

#: Packages of one layer that never import each other: the public pages and the
#: director's (what both need is the web's shared base, ``meldtour.web.deps``,
#: ``.views``, ``.address``).
APART: tuple[tuple[str, str], ...] = (("meldtour.web.routes", "meldtour.web.director"),)


def may_take_of_store(module: str, name: str | None) -> bool:
    """Whether an outer adapter may import ``name`` from the store's ``module`` (``name``
    None: the module itself, as in ``import meldtour.store.db``).

    >>> may_take_of_store("meldtour.store.db", "Store")
    True
    >>> may_take_of_store("meldtour.store.db", "open_store")
    False
    >>> may_take_of_store("meldtour.store.owners", "may_direct")
    False
    """
    if module not in STORE_FACE:
        return False
    names = STORE_FACE[module]
    return names is None or (name is not None and name in names)


def layer_of(module: str) -> str:
    """The layer a module (a dotted name under ``meldtour``) belongs to."""
    if module in MODULES:
        return MODULES[module]
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in LAYERS:
            return prefix
    raise ValueError(f"{module} is not a meldtour module")


def may_import(importer: str, imported: str) -> bool:
    """Whether module ``importer`` may import module ``imported`` (both meldtour's)."""
    mine, theirs = layer_of(importer), layer_of(imported)
    return theirs in (mine, BASE) or theirs in LAYERS[mine]


__all__ = [
    "ADAPTERS",
    "APART",
    "BASE",
    "LAYERS",
    "MODULES",
    "OUTER",
    "PURE",
    "STORE_FACE",
    "layer_of",
    "may_import",
    "may_take_of_store",
]
