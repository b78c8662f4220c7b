"""The solver's two implementations: the compiled core (``make install`` builds it) and
the Python modules it is compiled from. Both must give the same solutions, to the
board; the compiled one must be in use wherever it is built from the current sources."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest
from solver_reference import random_state

import meldtour.solver as solver
from meldtour.core.rules import find_rules
from meldtour.core.tiles import JOKER
from meldtour.solver import native

BUILT = any((Path(native.__file__).parent / "_native").glob("*.so"))
IMPLS = native.implementations()
RULES = find_rules("krc-2015")


def test_which_implementation_runs() -> None:
    """Says which one is active; once built, the compiled core must load and be current."""
    print(f"solver implementation: {solver.IMPLEMENTATION} ({solver.IMPLEMENTATION_REASON})")
    if os.environ.get(native.PURE_SWITCH) == "1":
        assert solver.IMPLEMENTATION == "pure"
    elif not BUILT:
        pytest.skip(
            f"the compiled core is not built: the pure solver runs ({solver.IMPLEMENTATION_REASON})"
        )
    else:
        assert solver.IMPLEMENTATION == "compiled", (
            f"the compiled core is built but not used: {solver.IMPLEMENTATION_REASON}"
        )
        assert "compiled" in IMPLS and solver.solve is IMPLS["compiled"].solve


def test_the_switch_forces_the_python_modules() -> None:
    code = "import meldtour.solver as s; print(s.IMPLEMENTATION, s.solve.__module__)"
    env = {**os.environ, native.PURE_SWITCH: "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout.split()
    assert out == ["pure", "meldtour.solver.exact"]


@pytest.mark.skipif("compiled" not in IMPLS, reason="the compiled core is not built")
def test_the_compiled_core_keeps_its_layers_in_vectors() -> None:
    """Compiled, the programme takes its vector path on plain problems; the Python
    modules never do (nor import librt)."""
    from importlib import import_module

    from meldtour.solver import dp

    assert import_module(native.NATIVE + ".dp").COMPILED is True
    assert dp.COMPILED is False
    code = (
        "import sys, meldtour.solver.dp as dp; "
        "print(dp.COMPILED, any(m.startswith('librt') for m in sys.modules))"
    )
    env = {**os.environ, native.PURE_SWITCH: "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout.split()
    assert out == ["False", "False"]


def _answer(impl: ModuleType, *args: object) -> tuple[object, ...]:
    s = impl.solve(*args)
    return (s.placed, s.value, s.board, s.tiles, s.rack_left)


@pytest.mark.skipif("compiled" not in IMPLS, reason="the compiled core is not built")
def test_same_solutions_to_the_board() -> None:
    """A few hundred realistic states (jokers on the board and the rack, before and
    after the initial meld, wrapping runs on small racks): identical solutions."""
    pure, compiled = IMPLS["pure"], IMPLS["compiled"]
    rng = random.Random(19)
    jokers = 0
    for i in range(300):
        # Wrapping runs on small racks only: the programme is much slower with them.
        wrap = i % 10 == 1
        state = random_state(rng, 0 if wrap else None if i % 3 else rng.randint(40, 80))
        rules = replace(RULES, wrap_runs=True) if wrap else RULES
        rack = state.rack[-7:] if wrap else state.rack
        jokers += JOKER in rack or any(JOKER in m.tiles for m in state.board)
        args = (state.board, rack, rules, state.melded)
        assert _answer(pure, *args) == _answer(compiled, *args), state
    assert jokers > 100
