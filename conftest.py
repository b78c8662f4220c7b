"""pytest collects the tests and the doctests of every module under ``src/meldtour``
(``testpaths`` in pyproject.toml) but Alembic's environment script, which runs only
inside Alembic (``meldtour db upgrade``), never imported on its own."""

collect_ignore = ["src/meldtour/store/migrations/env.py"]
