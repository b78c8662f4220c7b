"""Worked examples: the rules' initial melds, jokers anywhere, wrapping runs, the CLI."""

from __future__ import annotations

import io
import json
import random
from collections import Counter

import pytest
from solver_reference import ilp_solve, random_state

from meldtour.cli import main
from meldtour.core.melds import Kind, Meld, parse_board
from meldtour.core.moves import check_play
from meldtour.core.rules import RuleSet, find_rules
from meldtour.core.search import default_finder
from meldtour.core.tiles import parse_tiles
from meldtour.solver import solve

RULES = find_rules("krc-2015")


def tiles(*texts: str) -> tuple:
    return parse_tiles(texts)


def board(*melds: list[str]) -> tuple[Meld, ...]:
    return parse_board(list(melds))


@pytest.mark.parametrize(
    ("rack", "placed", "value"),
    [
        (["k8", "r8", "o8", "b8"], 4, 32),
        (["b6", "b7", "b8", "b9"], 4, 30),
        (["k7", "r7", "b7", "r4", "r5", "r6"], 6, 36),
        (["k8", "r8", "o8"], 0, 0),  # 24
        (["b6", "r7", "o8", "k9"], 0, 0),  # not a meld
        (["k4", "r4", "b4", "r1", "r2", "r3"], 0, 0),  # 18
        (["k9", "k10", "J"], 3, 30),  # the run 9-10-11 (001's example)
        (["k9", "J", "J"], 3, 30),  # [k9,J,J] is 9-10-11
    ],
)
def test_initial_meld_examples(rack: list[str], placed: int, value: int) -> None:
    s = solve((), parse_tiles(rack), RULES, False)
    assert (s.placed, s.value) == (placed, value)


def test_initial_meld_is_most_tiles_then_value() -> None:
    # All six tiles (value 33) beat the single group of 12s (36): most tiles first.
    s = solve((), tiles("k1", "k2", "k3", "k12", "r12", "o12", "b12"), RULES, False)
    assert s.placed == 7 and s.value == 6 + 48


def test_initial_meld_leaves_the_board_alone() -> None:
    b = board(["r4", "r5", "r6"])
    s = solve(b, tiles("r7", "r8", "r9", "r10", "k13", "r13", "o13"), RULES, False)
    assert s.board[:1] == b
    assert s.placed == 7  # r7-r10 and the 13s: not r7 onto the board's run


def test_board_jokers_stay_and_may_move() -> None:
    b = board(["r4", "J", "r6"])
    s = solve(b, tiles("r5"), RULES, True)
    # r5 goes in; the joker moves to the end of the run, as a 7.
    assert s.placed == 1
    assert Counter(t for m in s.board for t in m.tiles)[parse_tiles(["J"])[0]] == 1
    assert check_play(b, tiles("r5"), s.board, True, RULES).legal


def test_runs_that_start_or_end_with_a_joker_and_groups_of_four_with_one() -> None:
    s = solve((), tiles("J", "o12", "o13"), RULES, False)
    assert (s.placed, s.value) == (3, 36)  # [J,o12,o13]: 11-12-13
    s = solve(board(["k10", "r10", "o10"]), tiles("J"), RULES, True)
    assert s.placed == 1  # a group of four with a joker
    s = solve(board(["b1", "b2", "b3"]), tiles("J", "J"), RULES, True)
    assert s.placed == 2 and s.value == 4 + 5  # [b1,b2,b3,J,J]


def test_a_third_run_through_a_number_for_the_best_value() -> None:
    """Two open runs per colour are not enough: the joker must be a third 11."""
    b = board(["k11", "k12", "k13"], ["k11", "k12", "k13"])
    rack = tiles("k9", "k10", "J")
    s = solve(b, rack, RULES, True)
    assert (s.placed, s.value) == (3, 30)
    r = ilp_solve(b, rack, True)
    assert r is not None and (r.placed, r.value) == (3, 30)
    # With at most two runs through each number, the joker could be a 10 at best (29).


def test_declared_kind_when_the_smaller_reading_counts() -> None:
    # [J,J,k13] as a group (39) beats the run 11-12-13 (36) — no kind needed; a group
    # of 13s with jokers and the run [k1,J,J] each read as meant.
    s = solve((), tiles("J", "J", "k13", "r2", "r3", "r4"), RULES, False)
    assert s.placed == 6
    for m in s.board:
        assert m.value() == (m.reading().value if m.reading() else -1)
    assert s.value == sum(m.value() for m in s.board)


def test_nothing_to_play_keeps_the_board() -> None:
    b = board(["r4", "r5", "r6"])
    s = solve(b, tiles("k1", "b9"), RULES, True)
    assert s.placed == 0 and s.board == b and s.rack_left == tiles("k1", "b9")


def test_a_declared_kind_on_the_board_is_honoured() -> None:
    b = (Meld(parse_tiles(["J", "J", "k7"]), Kind.RUN),)  # the run 5-6-7 (18)
    s = solve(b, tiles("k8"), RULES, True)
    assert s.placed == 1
    assert s.value == sum(m.value() for m in s.board) - 18


@pytest.mark.parametrize("seed", range(40))
def test_wrapping_runs(seed: int) -> None:
    """With wrap_runs, 12-13-1 is a run: legal, and the plain search agrees on a play."""
    wrap = RuleSet(wrap_runs=True)
    rng = random.Random(seed)
    colour = rng.choice("krob")
    extras = [t for t in ("J", "k1", "r13", "o2", "b12") if t[0] != colour]
    rack = parse_tiles(
        [f"{colour}{n}" for n in rng.sample(range(1, 14), 5)] + rng.sample(extras, 2)
    )
    b = board([f"{colour}12", f"{colour}13", f"{colour}1"]) if seed % 2 else ()
    s = solve(b, rack, wrap, bool(b))
    if s.placed:
        assert check_play(b, rack, s.board, bool(b), wrap).legal
    found = default_finder(b, rack, bool(b), True, 30)
    assert (found is None) == (s.placed == 0)


def test_wrapping_run_found() -> None:
    wrap = RuleSet(wrap_runs=True)
    s = solve((), tiles("k12", "k13", "k1", "k2", "J"), wrap, False)
    assert (
        s.placed == 5
        and check_play((), tiles("k12", "k13", "k1", "k2", "J"), s.board, False, wrap).legal
    )
    # Without wrapping, only [J,k12,k13] (36): k1 and k2 stay on the rack.
    assert solve((), tiles("k12", "k13", "k1", "k2", "J"), RULES, False).placed == 3


@pytest.mark.parametrize("rack", ["o13 J o2 k6 r6 o6", "o13 J o2 o3 k6 r6 o6"])
def test_a_joker_standing_for_the_1_of_a_wrapping_run(rack: str) -> None:
    """13-J-2 wraps through a joker for the 1 (the solver's lookahead once counted
    that joker twice, at the 13 and in the runs guessed to enter 1, and found only
    the group: the core and the solver disagreed on "could it have melded?")."""
    wrap = RuleSet(wrap_runs=True)
    tiles_ = parse_tiles(rack.split())
    s = solve((), tiles_, wrap, False)
    assert s.placed == len(tiles_) and check_play((), tiles_, s.board, False, wrap).legal


def test_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [
        {"board": [["r4", "r5", "r6"]], "rack": ["r7", "k2"], "melded": True},
        {"board": [], "rack": ["k8", "r8", "o8"], "melded": False},
        "not json",
        {"board": [["r4", "r5"]], "rack": ["r7"], "melded": True},
    ]
    text = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["solve", "--rules", "krc-2015"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[0]["placed"] == 1 and out[0]["value"] == 7
    assert out[0]["board"] == [["r4", "r5", "r6", "r7"]] and out[0]["rack_left"] == ["k2"]
    assert isinstance(out[0]["ms"], float)
    assert (out[1]["placed"], out[1]["value"], out[1]["board"]) == (0, 0, [])
    assert out[1]["rack_left"] == ["k8", "r8", "o8"]
    assert "error" in out[2] and "error" in out[3]
    assert set(out[0]) == {"placed", "value", "board", "rack_left", "ms"}


def test_joker_retrieval_replace_gives_a_legal_play() -> None:
    replace = RuleSet(joker_retrieval="replace")
    b = board(["r4", "J", "r6"], ["k9", "k10", "k11"])
    rack = tiles("r5", "k12", "b2")
    free = solve(b, rack, RULES, True)
    assert free.placed == 2
    s = solve(b, rack, replace, True)
    assert s.placed >= 1
    assert check_play(b, rack, s.board, True, replace).legal
    rng = random.Random(9)
    for _ in range(30):
        state = random_state(rng)
        s = solve(state.board, state.rack, replace, state.melded)
        if s.placed:
            verdict = check_play(state.board, state.rack, s.board, state.melded, replace)
            assert verdict.legal, verdict.reason


def test_initial_meld_when_the_most_tiles_fall_short_of_the_threshold() -> None:
    """Before the initial meld the solver first ignores the threshold; when the play
    with the most tiles is worth less than 30, the threshold decides: against the ILP
    on racks built for that (low runs and groups, a few high tiles, jokers)."""
    from meldtour.core.tiles import TILES
    from meldtour.solver.dp import BIG, solve_problem
    from meldtour.solver.exact import _problem

    rng = random.Random(30)
    fallbacks = 0
    tried = 0
    while fallbacks < 25:
        tried += 1
        assert tried < 5000
        codes = [c * 13 + rng.randrange(5) for c in rng.choices(range(4), k=rng.randint(5, 9))]
        codes += [c * 13 + rng.randrange(7, 13) for c in rng.choices(range(4), k=rng.randint(1, 4))]
        rack = tuple(sorted(TILES[c] for c in codes)) + parse_tiles(["J"] * rng.randrange(3))
        if any(rack.count(t) > 2 for t in rack):
            continue
        free = solve_problem(_problem((), rack, None, False), BIG * 3)
        if free is None or free.score % BIG >= RULES.initial_meld:
            continue
        fallbacks += 1
        s = solve((), rack, RULES, False)
        r = ilp_solve((), rack, False, RULES.initial_meld)
        assert (s.placed, s.value) == ((r.placed, r.value) if r else (0, 0)), rack
        if s.placed:
            assert s.value >= RULES.initial_meld
            assert check_play((), rack, s.board, False, RULES).legal
