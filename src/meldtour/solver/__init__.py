"""The exact solver: the best play for any board and rack.

:func:`solve` gives a :class:`Solution`; :func:`finder` is a
:data:`meldtour.core.search.PlayFinder` for the engine. The algorithm is in
:mod:`meldtour.solver.dp`.
"""

from __future__ import annotations

from .exact import Solution, finder, solve, solve_tiles

__all__ = ["Solution", "finder", "solve", "solve_tiles"]
