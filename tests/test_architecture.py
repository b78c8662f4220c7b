"""Dependency arrows point one way: the core imports nothing of ours outside it and
only the standard library; nothing imports an adapter (cli, and later store/live/web)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "meldtour"

# Package -> the meldtour packages it may import.
ALLOWED = {
    "core": {"core"},
    "solver": {"core", "solver"},
    "players": {"core", "solver", "players"},
    "tournament": {"core", "tournament"},
}
ADAPTERS = {"cli", "store", "live", "web"}
THIRD_PARTY_OK = {"solver": {"numpy", "numba"}, "tournament": {"openskill"}, "players": set(),
                  "core": set()}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_dependency_arrows() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    for package, allowed in ALLOWED.items():
        for path in (SRC / package).rglob("*.py"):
            for name in imports(path):
                top = name.split(".")[0]
                if top == "meldtour":
                    sub = name.split(".")[1] if "." in name else ""
                    assert sub in allowed, f"{path.relative_to(SRC)} imports {name}"
                else:
                    assert top in stdlib | THIRD_PARTY_OK[package], (
                        f"{path.relative_to(SRC)} imports {name}: the pure packages use the "
                        f"standard library (and their few declared libraries) only")


def test_nothing_imports_an_adapter() -> None:
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).parts
        if rel[0] in ADAPTERS or rel == ("__main__.py",):
            continue
        for name in imports(path):
            parts = name.split(".")
            assert not (parts[0] == "meldtour" and len(parts) > 1 and parts[1] in ADAPTERS), (
                f"{path.relative_to(SRC)} imports the adapter {name}")
