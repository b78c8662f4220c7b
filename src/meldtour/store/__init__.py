"""The store: tournaments in a database (SQLite or PostgreSQL), and every query run on
it (the application layer, :mod:`meldtour.application`, runs the use cases over it)."""

# The online-play tables (migration 0005) are on the same metadata as the models, so
# that every schema check and backup sees them.
from . import arena as _arena  # noqa: F401  (migration 0028)
from . import circuit as _circuit  # noqa: F401  (people, rankings, qualifications: 0010)
from . import clocks as _clocks  # noqa: F401  (table_clock, migration 0012)
from . import moderation as _moderation  # noqa: F401  (player_report, migration 0029)
from . import online as _online  # noqa: F401
from . import owners as _owners  # noqa: F401  (tournament_director, migration 0006)
from . import players_online as _players_online  # noqa: F401  (migration 0024)
from . import sessions as _sessions  # noqa: F401  (revoked_session, migration 0009)
from . import site as _site  # noqa: F401  (site_setting, migration 0013)
