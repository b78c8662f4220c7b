"""Which implementation of the solver runs: the compiled core or the Python source.

The Python modules (:mod:`.tables`, :mod:`.dp`, :mod:`.build`, :mod:`.exact`) are the
source of truth. ``make install`` (``tools/build_solver.py``) compiles copies of them
unchanged with mypyc as the package ``meldtour.solver._native``, whose ``DIGEST`` is
the digest of the sources it was built from. Compiled, :mod:`.dp` keeps the layers of
plain problems in vectors of machine integers (``dp.COMPILED``); the Python modules
keep them in dicts: the same states in the same order, so the same plans. At import
the compiled core is used when it is there and was built from the sources as they are
now; else the Python modules run, with the same answers. ``MELDTOUR_PURE_SOLVER=1``
forces the Python modules.

>>> sorted(implementations())[-1]
'pure'
>>> active()[0] in implementations()
True
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from importlib import import_module
from pathlib import Path
from types import ModuleType
from typing import Final

from . import exact

#: The modules compiled, in the order of the digest.
SOURCES: Final = ("tables.py", "dp.py", "build.py", "exact.py")
NATIVE: Final = "meldtour.solver._native"
#: Set to ``1`` to run the Python modules even when the compiled core is built.
PURE_SWITCH: Final = "MELDTOUR_PURE_SOLVER"


def source_digest() -> str:
    """The digest of the solver's Python sources (what a build records)."""
    folder = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for name in SOURCES:
        h.update(name.encode() + b"\0" + (folder / name).read_bytes() + b"\0")
    return h.hexdigest()


@cache
def load_native() -> tuple[ModuleType | None, str]:
    """The compiled ``exact`` module, or None and why it cannot be used."""
    try:
        package = import_module(NATIVE)
        compiled = import_module(NATIVE + ".exact")
    except ImportError as e:
        return None, f"not built ({e}); make install builds it"
    if getattr(package, "DIGEST", None) != source_digest():
        return None, "built from other sources than these; make install rebuilds it"
    return compiled, "built from these sources"


def implementations() -> dict[str, ModuleType]:
    """Every implementation that can run here, by name: its ``exact`` module."""
    out = {"pure": exact}
    compiled, _ = load_native()
    if compiled is not None:
        out["compiled"] = compiled
    return out


def active() -> tuple[str, ModuleType, str]:
    """The implementation to use: its name, its ``exact`` module and why it was chosen."""
    if os.environ.get(PURE_SWITCH) == "1":
        return "pure", exact, f"{PURE_SWITCH}=1"
    compiled, why = load_native()
    if compiled is None:
        return "pure", exact, why
    return "compiled", compiled, why


__all__ = [
    "NATIVE",
    "PURE_SWITCH",
    "SOURCES",
    "active",
    "implementations",
    "load_native",
    "source_digest",
]
