"""The table clocks' rows on SQLite and PostgreSQL: a game's record kept, replaced or
left as it is, read back by table and by round, the confirmed penalties kept; a
backup carries them."""

from __future__ import annotations

from meldtour import application as uc
from meldtour.store import clocks
from meldtour.store.backup import dumps
from meldtour.store.clocks import ClockRecord
from meldtour.store.db import Store


def record(game: int, taps: tuple[tuple[str, int], ...], table: int = 1) -> ClockRecord:
    return ClockRecord(
        "general",
        0,
        1,
        table,
        game,
        (1, 2, 3, 4),
        "phoneA123",
        (2, 1, 3, 4),
        taps,
        "running",
        (),
        taps[-1][1] if taps else 0,
        "2026-12-01T10:00:00+00:00",
    )


def test_a_game_s_clock_is_kept_replaced_or_left(store: Store) -> None:
    uc.create_tournament(store, "busan-2015", who="d", seed=1, slug="t")
    first, wrote = clocks.put(store, "t", record(1, (("start", 0),)))
    assert wrote and first.taps == (("start", 0),)
    kept, wrote = clocks.put(
        store, "t", record(1, (("start", 0), ("next", 9))), keep=lambda old: True
    )
    assert not wrote and kept == first
    clocks.put(store, "t", record(1, (("start", 0), ("next", 9))))
    clocks.put(store, "t", record(1, (("start", 0),), table=2))
    clocks.confirm(store, "t", "general", 0, 1, 1, 1, (0, 50, 0, 0))
    got = clocks.get(store, "t", "general", 0, 1, 1, 1)
    assert got is not None and got.taps[-1] == ("next", 9) and got.confirmed == (0, 50, 0, 0)
    assert [(r.table, r.game) for r in clocks.of_round(store, "t", "general", 0, 1)] == [
        (1, 1),
        (2, 1),
    ]
    assert clocks.of_round(store, "nowhere", "general", 0, 1) == []
    assert '"table_clock"' in dumps(store)
