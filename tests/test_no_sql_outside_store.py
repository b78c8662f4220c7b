"""SQL stays in the store: no module outside ``meldtour.store`` imports the SQL toolkit
or the migrations (every import: at the top, inside functions, under
``if TYPE_CHECKING:``). The application layer, the live games, the web app and the
command line reach the database through the store's functions."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "meldtour"
STORE = PACKAGE / "store"
SQL = frozenset({"sqlalchemy", "alembic"})


def sql_imports(path: Path) -> list[str]:
    """The imports of the SQL libraries in the file, as ``line: name``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [node.module]
        found += [f"{node.lineno}: {n}" for n in names if n.split(".")[0] in SQL]
    return found


def test_the_check_sees_an_import_in_a_function(tmp_path: Path) -> None:
    source = tmp_path / "x.py"
    source.write_text(
        "def f() -> None:\n    from sqlalchemy import select\n    import alembic.command\n",
        encoding="utf-8",
    )
    assert sql_imports(source) == ["2: sqlalchemy", "3: alembic.command"]
    assert sql_imports(STORE / "db.py")  # the store does import them


def test_no_module_outside_the_store_imports_sql() -> None:
    bad = [
        f"{path.relative_to(SRC)}:{hit}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if STORE not in path.parents
        for hit in sql_imports(path)
    ]
    assert not bad, (
        "SQL outside the store (move the query into a function of "
        "src/meldtour/store/):\n" + "\n".join("    " + b for b in bad)
    )
