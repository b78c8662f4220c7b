"""The docs in the code: the examples in the modules' docstrings run one way (pytest's
``--doctest-modules`` over the whole of ``src/meldtour``, pyproject.toml), and comments
and docstrings cite sections of ``docs/`` that exist, never internal documents."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "src" / "meldtour").rglob("*.py"))


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


def headings(doc: Path) -> set[str]:
    return {
        line.lstrip("#").strip()
        for line in doc.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }


def test_citations_name_sections_of_docs_that_exist() -> None:
    wrong = []
    for path in SOURCES:
        # One line of text: comment markers and line breaks gone.
        text = re.sub(r"\s*\n\s*(?:#:?\s*)?", " ", path.read_text(encoding="utf-8"))
        quoted = r'(?:[,:;]?\s*(?:from|to|and)?\s*"[^"]+")'
        for doc, cited in re.findall(rf"(docs/[\w-]+\.md)({quoted}*)", text):
            if not (ROOT / doc).exists():
                wrong.append(f"{path.relative_to(ROOT)}: {doc} does not exist")
                continue
            for section in re.findall(r'"([^"]+)"', cited):
                if section not in headings(ROOT / doc):
                    wrong.append(f"{path.relative_to(ROOT)}: {doc} has no section {section!r}")
    assert not wrong, "\n".join(wrong)


def test_no_citation_of_internal_documents() -> None:
    internal = re.compile(r"RULES\.md|TOURNAMENT\.md|§|\bissue \d|\bissue #\d")
    found = [
        f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
        for path in SOURCES
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if internal.search(line)
    ]
    assert not found, "cite docs/ (users have no internal documents):\n" + "\n".join(found)
