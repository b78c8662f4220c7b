"""Fuzzing the JSON-lines commands: random and mutated input lines; every answer is a
clear error or a correct result — never a crash, a hang, or a line without an answer.

The number of lines tried is printed (``pytest -s``) and recorded in RELIABILITY.md.
"""

from __future__ import annotations

import io
import json
import os
import time
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from meldtour.cli import check, score, solve
from meldtour.cli.jsonlines import serve
from meldtour.core.rules import find_rules
from meldtour.core.tiles import TILES

RULES = find_rules("krc-2015")
GOOD_TILES = [str(t) for t in TILES]
tile_text = st.one_of(
    st.sampled_from(GOOD_TILES),
    st.sampled_from(["", "r0", "r14", "x5", "R5", "j", "JJ", "b-1", "r 5", "🀄", "k١"]),
    st.text(max_size=4),
)
junk: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)
tiles_list = st.lists(tile_text, max_size=16) | junk
meld = st.lists(tile_text, max_size=6) | st.fixed_dictionaries(
    {"kind": st.sampled_from(["run", "group", "set", 3]), "tiles": st.lists(tile_text, max_size=5)}
)
board = st.lists(meld, max_size=8) | junk
flag = st.booleans() | junk

check_line = st.fixed_dictionaries(
    {"board": board, "rack": tiles_list, "play": board}, optional={"melded": flag, "extra": junk}
)
score_line = st.fixed_dictionaries(
    {"racks": st.lists(tiles_list, max_size=5) | junk},
    optional={
        "winner": st.none() | st.integers(-2, 5) | junk,
        "melded": st.lists(flag, max_size=5),
        "could_meld": st.lists(flag, max_size=5),
        "first": st.integers(-1, 5) | junk,
    },
)
solve_line = st.fixed_dictionaries({"board": board, "rack": tiles_list}, optional={"melded": flag})

TRIED = {"check": 0, "score": 0, "solve": 0}


def run_lines(
    handle: Callable[[dict[str, Any]], dict[str, Any]], lines: list[str]
) -> list[dict[str, Any]]:
    out = io.StringIO()
    started = time.perf_counter()
    assert serve(handle, io.StringIO("\n".join(lines) + "\n"), out) == 0
    assert time.perf_counter() - started < 10 * max(1, len(lines)), "too slow: a hang?"
    # splitlines() also breaks at NEL and U+2028: an answer must survive that reader too.
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    text = "\n".join(lines) + "\n"
    assert len(answers) == sum(1 for line in text.split("\n") if line.strip())
    for a in answers:
        assert isinstance(a, dict)
        if "error" in a:
            assert isinstance(a["error"], str) and a["error"].startswith("line ")
    return answers


def as_lines(objs: list[Any], garbage: list[str]) -> list[str]:
    lines = [json.dumps(o, allow_nan=True) for o in objs]
    return lines + [g for g in garbage if g.strip()]


# MELDTOUR_FUZZ_EXAMPLES raises the count for a long campaign run by hand.
FUZZ = settings(
    max_examples=int(os.environ.get("MELDTOUR_FUZZ_EXAMPLES", "150")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(
    st.lists(check_line | junk, min_size=1, max_size=6), st.lists(st.text(max_size=30), max_size=2)
)
def test_check_never_crashes(objs: list[Any], garbage: list[str]) -> None:
    lines = as_lines(objs, garbage)
    TRIED["check"] += len(lines)
    for a in run_lines(lambda d: check.handle(d, RULES), lines):
        if "error" not in a:
            # A refused play names its reason's code beside the reason.
            assert set(a) == {"legal", "reason", "placed"} | (set() if a["legal"] else {"code"})
            assert isinstance(a["legal"], bool) and (a["reason"] is None) == a["legal"]


@FUZZ
@given(
    st.lists(score_line | junk, min_size=1, max_size=6), st.lists(st.text(max_size=30), max_size=2)
)
def test_score_never_crashes(objs: list[Any], garbage: list[str]) -> None:
    lines = as_lines(objs, garbage)
    TRIED["score"] += len(lines)
    for a in run_lines(lambda d: score.handle(d, RULES), lines):
        if "error" not in a:
            assert set(a) == {"scores", "winner"} and sum(a["scores"]) == 0


@FUZZ
@given(
    st.lists(solve_line | junk, min_size=1, max_size=4), st.lists(st.text(max_size=30), max_size=2)
)
def test_solve_never_crashes(objs: list[Any], garbage: list[str]) -> None:
    lines = as_lines(objs, garbage)
    TRIED["solve"] += len(lines)
    for a in run_lines(lambda d: solve.answer(d, RULES), lines):
        if "error" not in a:
            assert {"placed", "value", "board", "rack_left", "ms"} <= set(a)


def test_report_how_many_lines_were_tried() -> None:
    print(f"\nfuzzed JSON lines: {TRIED}")


move = st.fixed_dictionaries(
    {
        "seat": st.integers(-1, 4) | junk,
        "action": st.sampled_from(["draw", "play", "timeout", "pass", "redeal", "draft", "x"]),
    },
    optional={"board": board, "at": st.floats(allow_nan=True) | junk},
)
record = st.fixed_dictionaries(
    {"players": st.lists(st.text(max_size=3), min_size=0, max_size=5) | junk},
    optional={
        "rules": st.sampled_from(["krc-2015", "korea-official", "standard", "japan", "nope"])
        | st.fixed_dictionaries(
            {"preset": st.sampled_from(["japan", "zz"])},
            optional={"joker_penalty": st.integers(-5, 500) | junk},
        ),
        "seed": st.integers() | junk,
        "deal": st.fixed_dictionaries(
            {"racks": st.lists(tiles_list, max_size=5), "pool": tiles_list},
            optional={"first": st.integers(-1, 4) | junk},
        )
        | junk,
        "moves": st.lists(move, max_size=12) | junk,
    },
)


@FUZZ
@given(record | junk)
def test_replay_never_crashes(data: Any) -> None:
    from meldtour.core.record import RecordError, read_record, replay
    from meldtour.core.rules import RulesError
    from meldtour.solver import finder

    TRIED.setdefault("replay", 0)
    TRIED["replay"] += 1
    try:
        state = replay(read_record(data), finder=finder)
    except (RecordError, RulesError) as exc:
        assert str(exc)
        return
    assert state.tile_count() <= 106


def test_hostile_lines_get_an_error_and_the_run_goes_on(tmp_path: Any) -> None:
    """A line nested 1,000 deep, a number of 5,000 digits and a line that is not UTF-8
    each get ``{"error", "code"}``; the next line is still answered (they stopped the
    command with a traceback)."""
    import subprocess
    import sys

    good = json.dumps(
        {"board": [], "rack": ["k8", "r8", "o8"], "melded": False, "play": [["k8", "r8", "o8"]]}
    )
    lines = [
        b'{"a": ' + b"[" * 1000 + b"]" * 1000 + b"}",
        b'{"racks": ' + b"1" * 5000 + b"}",
        b"\xff\xfe{}",
        good.encode(),
    ]
    ran = subprocess.run(
        [sys.executable, "-m", "meldtour.cli", "check", "--rules", "krc-2015"],
        input=b"\n".join(lines) + b"\n",
        capture_output=True,
        timeout=60,
    )
    assert ran.returncode == 0 and b"Traceback" not in ran.stderr, ran.stderr
    answers = [json.loads(x) for x in ran.stdout.decode().splitlines()]
    assert [a.get("code") for a in answers] == [
        "input.too_deep",
        "input.huge_number",
        "input.not_utf8",
        "play.initial_meld_too_low",
    ]
    assert all(a["error"].startswith(f"line {i}:") for i, a in enumerate(answers[:3], 1))
    for command in ("replay", "analyse"):
        for name, content in (
            ("deep.json", b'{"moves": ' + b"[" * 2000 + b"]" * 2000 + b"}"),
            ("latin.json", b'{"rules": "standard", "players": ["\xe9"]}'),
        ):
            path = tmp_path / name
            path.write_bytes(content)
            ran = subprocess.run(
                [sys.executable, "-m", "meldtour.cli", command, str(path)],
                capture_output=True,
                timeout=60,
            )
            assert ran.returncode == 1 and b"Traceback" not in ran.stderr, ran.stderr
            assert json.loads(ran.stdout)["code"] in ("input.too_deep", "input.not_utf8")
