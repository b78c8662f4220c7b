"""Dependency arrows point one way, and no module imports itself round a cycle.

The import graph of ``src/meldtour`` is read with :mod:`ast` (every import: at the top,
inside functions, under ``if TYPE_CHECKING:``), and checked against the layer order
declared in :mod:`meldtour.layers`. Importing ``a.b.c`` runs ``a/b/__init__.py``
first, so it is an arrow to the packages ``a.b`` too (unless the importer is inside
them: they are already being imported).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

from meldtour.layers import (
    ADAPTERS,
    APART,
    BASE,
    LAYERS,
    MODULES,
    OUTER,
    PURE,
    layer_of,
    may_import,
    may_take_of_store,
)

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "meldtour"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULE_FILES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported_names(path: Path, module: str) -> Iterator[tuple[str, int]]:
    """Every name imported by the file (absolute, dotted) with its line, whoever it is."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                # ``from a import b``: the module a.b if there is one, else a name in a.
                dotted = f"{source}.{alias.name}"
                yield (dotted if dotted in MODULE_FILES else source), node.lineno


def our_module(name: str) -> str | None:
    """The meldtour module a dotted name is (or is in), or None (not ours)."""
    while name and name not in MODULE_FILES:
        name = name.rpartition(".")[0]
    return name or None


def graph() -> dict[str, dict[str, int]]:
    """Module -> the meldtour modules it imports (with the line of one such import)."""
    edges: dict[str, dict[str, int]] = {}
    for module, path in MODULE_FILES.items():
        out = edges.setdefault(module, {})
        for name, line in imported_names(path, module):
            target = our_module(name) if name.split(".")[0] == "meldtour" else None
            if target is None:
                continue
            parts = target.split(".")
            for n in range(1, len(parts) + 1):
                step = ".".join(parts[:n])
                inside = module == step or module.startswith(step + ".")
                if step != module and (step == target or not inside):
                    out.setdefault(step, line)
    return edges


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in edges.get(v, {}):
                found.append(sorted(component))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges) + 100))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def arrow(edges: dict[str, dict[str, int]], a: str, b: str) -> str:
    return f"{a} -> {b} ({MODULE_FILES[a].relative_to(SRC)}:{edges[a][b]})"


def test_the_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from meldtour.live import server\n"
        "def f() -> None:\n"
        "    import meldtour.store.db\n"
        "    from ..core import tiles\n"
        "    from . import i18n\n",
        encoding="utf-8",
    )
    names = {name for name, _ in imported_names(source, "meldtour.web.x")}
    assert {
        "meldtour.live.server",
        "meldtour.store.db",
        "meldtour.core.tiles",
        "meldtour.web.i18n",
    } <= names
    edges = graph()
    assert "meldtour.application" in edges["meldtour.cli.tournament"]  # in a function
    assert "meldtour.store" in edges["meldtour.live.log"]  # the package's __init__ runs
    assert "meldtour.live" not in edges["meldtour.live.server"]  # its own: running


def test_no_cycles() -> None:
    edges = graph()
    found = cycles(edges)
    lines = []
    for component in found:
        lines.append("cycle: " + ", ".join(component))
        lines += [
            "    " + arrow(edges, a, b) for a in component for b in edges[a] if b in component
        ]
    assert not found, "import cycles between modules:\n" + "\n".join(lines)


def test_arrows_follow_the_layer_order() -> None:
    edges = graph()
    against = [
        arrow(edges, a, b) for a in sorted(edges) for b in sorted(edges[a]) if not may_import(a, b)
    ]
    assert not against, "imports against the layer order of src/meldtour/layers.py:\n" + "\n".join(
        "    " + line for line in against
    )


def test_every_module_has_a_declared_layer() -> None:
    for module in MODULE_FILES:
        assert layer_of(module) in LAYERS
    for module, layer in MODULES.items():
        assert module in MODULE_FILES and layer in LAYERS
    assert set(PURE) | ADAPTERS <= set(LAYERS)


def test_web_and_cli_are_imported_by_nobody() -> None:
    edges = graph()
    top = {"meldtour.web", "meldtour.cli"}
    bad = [
        arrow(edges, a, b)
        for a in sorted(edges)
        for b in edges[a]
        if layer_of(b) in top and layer_of(a) != layer_of(b)
    ]
    assert not bad, "the web app and the command line are imported by nothing:\n" + "\n".join(bad)


# The assertions of the first architecture test (the pure core), on the same graph.


def test_dependency_arrows() -> None:
    """The pure packages import only each other (as the layers allow), the standard
    library and their few declared libraries."""
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for module, path in MODULE_FILES.items():
        layer = layer_of(module)
        if layer not in PURE:
            continue
        for name, line in imported_names(path, module):
            top = name.split(".")[0]
            where = f"{path.relative_to(SRC)}:{line} imports {name}"
            if top == "meldtour":
                target = our_module(name)
                assert target is not None and layer_of(target) in {layer, BASE} | set(
                    LAYERS[layer]
                ) & set(PURE), where
            else:
                assert top in stdlib | PURE[layer], (
                    f"{where}: the pure packages use the standard library (and their few "
                    f"declared libraries) only"
                )


def test_nothing_imports_an_adapter() -> None:
    """No module outside the adapters (store, application, live, web, cli) imports one."""
    edges = graph()
    for module in sorted(edges):
        if layer_of(module) in ADAPTERS:
            continue
        for target in edges[module]:
            assert layer_of(target) not in ADAPTERS, (
                f"{arrow(edges, module, target)}: imports the adapter {target}"
            )


def store_imports(path: Path, module: str) -> Iterator[tuple[str, str | None, int]]:
    """Every import of a store module by the file: (the store module, the name taken
    from it or None for the module itself, the line)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "meldtour.store" or alias.name.startswith("meldtour.store."):
                    yield alias.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for alias in node.names:
                dotted = f"{source}.{alias.name}"
                if dotted in MODULE_FILES and dotted.startswith("meldtour.store"):
                    yield dotted, None, node.lineno  # ``from meldtour.store import owners``
                elif source == "meldtour.store" or source.startswith("meldtour.store."):
                    yield source, alias.name, node.lineno


def test_web_and_cli_take_only_the_stores_type_and_errors() -> None:
    """The web and the command line reach the store only through the application: of
    the store they take its ``Store`` type and its errors (``layers.STORE_FACE``)."""
    bad = [
        f"{MODULE_FILES[m].relative_to(SRC)}:{line}: {source}" + (f".{name}" if name else "")
        for m in MODULE_FILES
        if layer_of(m) in OUTER
        for source, name, line in store_imports(MODULE_FILES[m], m)
        if not may_take_of_store(source, name)
    ]
    assert bad == []


def test_the_store_face_check_sees_a_shortcut(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text(
        "from meldtour.store import owners\n"
        "from meldtour.store.db import Store, open_store\n"
        "from meldtour.store.errors import NotFound\n"
        "import meldtour.store.games\n"
    )
    found = list(store_imports(source, "meldtour.web.x"))
    assert [(s, n) for s, n, _ in found if not may_take_of_store(s, n)] == [
        ("meldtour.store.owners", None),
        ("meldtour.store.db", "open_store"),
        ("meldtour.store.games", None),
    ]


def test_public_and_director_pages_import_neither_the_other() -> None:
    edges = graph()

    def inside(module: str, package: str) -> bool:
        return module == package or module.startswith(package + ".")

    crossing = [
        arrow(edges, a, b)
        for one, other in APART
        for first, second in ((one, other), (other, one))
        for a in edges
        if inside(a, first)
        for b in edges[a]
        if inside(b, second)
    ]
    assert crossing == []
