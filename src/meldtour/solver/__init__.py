"""The exact solver: the best play for any board and rack.

:func:`solve` gives a :class:`Solution`; :func:`finder` is a
:data:`meldtour.core.search.PlayFinder` for the engine. The algorithm is in
:mod:`meldtour.solver.dp`. These names come from the compiled core when it is built
and current, else from the Python modules (:mod:`meldtour.solver.native`):
``IMPLEMENTATION`` says which, ``IMPLEMENTATION_REASON`` why.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .native import active

IMPLEMENTATION, _exact, IMPLEMENTATION_REASON = active()

if TYPE_CHECKING:
    from .exact import Solution, finder, goes_out, solve, solve_tiles
else:
    Solution = _exact.Solution
    finder = _exact.finder
    goes_out = _exact.goes_out
    solve = _exact.solve
    solve_tiles = _exact.solve_tiles

__all__ = [
    "IMPLEMENTATION",
    "IMPLEMENTATION_REASON",
    "Solution",
    "finder",
    "goes_out",
    "solve",
    "solve_tiles",
]
