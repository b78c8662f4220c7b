"""The README's command-line examples work as written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def examples() -> list[tuple[str, str | None]]:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    out: list[tuple[str, str | None]] = []
    for i, line in enumerate(lines):
        text = line.strip()
        if text.startswith("$ "):
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            out.append((text[2:], nxt if nxt.startswith("{") or nxt.startswith("[") else None))
    return out


def _without_timing(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_timing(v) for k, v in value.items() if k != "ms"}
    return value


def test_readme_opens_with_make_run_and_make_test() -> None:
    head = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:5]
    assert any("make run" in line for line in head) and any("make test" in line for line in head)


def test_readme_examples_run_as_written() -> None:
    cases = examples()
    assert len(cases) >= 6
    env = dict(os.environ)
    bindir = str(Path(sys.executable).parent)
    for command, expected in cases:
        cmd = command.replace(".venv/bin/meldtour", f"{bindir}/meldtour")
        result = subprocess.run(
            ["bash", "-c", cmd], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env
        )
        assert result.returncode == 0, f"{command}\n{result.stderr}"
        if expected is not None:
            assert _without_timing(json.loads(result.stdout)) == _without_timing(
                json.loads(expected)
            ), command
