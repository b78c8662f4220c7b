"""The live layer imports the core, the solver, the players, the store (and the
application layer, as :mod:`meldtour.layers` declares) — no web framework, and not the
web or cli adapters."""

from __future__ import annotations

import ast
from pathlib import Path

from meldtour.layers import may_import

LIVE = Path(__file__).resolve().parents[2] / "src" / "meldtour" / "live"


def test_live_imports_no_web_framework() -> None:
    for path in LIVE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                parts = name.split(".")
                assert parts[0] not in {"fastapi", "starlette", "uvicorn", "websockets"}, path
                if parts[0] == "meldtour":
                    module = f"meldtour.live.{path.stem}"
                    assert may_import(module, name), f"{path.name} imports {name}"
