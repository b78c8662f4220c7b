"""The examples in the modules' docstrings run one way: pytest's ``--doctest-modules``
over the whole of ``src/meldtour`` (pyproject.toml), not a test per package."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_module_s_doctests_are_collected() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_options = options["tool"]["pytest"]["ini_options"]
    assert "--doctest-modules" in pytest_options["addopts"].split()
    assert "src/meldtour" in pytest_options["testpaths"]


def test_only_alembic_s_environment_is_left_out() -> None:
    namespace: dict[str, object] = {}
    exec((ROOT / "conftest.py").read_text(encoding="utf-8"), namespace)
    ignored = namespace["collect_ignore"]
    assert isinstance(ignored, list) and ignored == ["src/meldtour/store/migrations/env.py"]
    assert ">>>" not in (ROOT / ignored[0]).read_text(encoding="utf-8")


def test_no_test_runs_them_a_second_way() -> None:
    second = "doctest." + "testmod"
    for path in (ROOT / "tests").rglob("*.py"):
        assert second not in path.read_text(encoding="utf-8"), path
