"""The store's errors: with :class:`meldtour.store.db.Store` the only names of the
store that the adapters (web, command line) may take (``meldtour.layers``, tested in
``tests/test_layers.py``); everything else they reach through :mod:`meldtour.application`.

- :class:`StoreError`: an operation that cannot be done (a refusal: a code and its
  arguments); :class:`SchemaError`: the schema is missing, old or newer;
- :class:`NotFound`: no such tournament (or part of one);
- :class:`SheetConflict`: another device saved the sheet since this one read it;
- :data:`DATABASE_DOWN`: the driver's exceptions of a database that does not answer.
"""

from __future__ import annotations

from .db import DATABASE_DOWN, SchemaError, StoreError
from .repository import NotFound, SheetConflict

__all__ = ["DATABASE_DOWN", "NotFound", "SchemaError", "SheetConflict", "StoreError"]
