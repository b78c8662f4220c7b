"""The live layer imports the core, the solver and the players — no web framework,
and not the web or cli adapters (the store may back its log later)."""

from __future__ import annotations

import ast
from pathlib import Path

LIVE = Path(__file__).resolve().parents[2] / "src" / "meldtour" / "live"
ALLOWED = {"core", "solver", "players", "live", "store"}


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
                    assert parts[1] in ALLOWED, f"{path.name} imports {name}"
