"""The rating derived from the records, on SQLite and PostgreSQL (finding 8 of issue
25): one pool per circuit (Korean adults, Korean children, Japan — or as the federation
chooses), events rated in their date order whatever the order of the awards, a
correction after the awards shown at once, and the published list always equal to a
recomputation from scratch (:func:`~meldtour.application.circuit.rating_book`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date

import pytest
from sqlalchemy import select

from meldtour import application as uc
from meldtour.application import circuit as c
from meldtour.cli import main
from meldtour.store.db import Store
from meldtour.store.models import AuditRow
from meldtour.tournament.rating import rate_pool

from ..circuit_play import play_out, play_table
from .backends import BACKENDS, database, upgraded

OP = c.Acting.operator("d")  # the command line's operator

ADULTS = ["김민지", "이서준", "박지호", "최하은", "정도윤", "강서연", "조민준", "윤지우"]
KIDS = ["김하늘", "이도윤", "박서아", "최지안", "정하린", "강시우", "조유나", "윤서진"]
JAPAN = [
    "佐藤 健",
    "鈴木 一郎",
    "高橋 美咲",
    "田中 翔",
    "伊藤 葵",
    "渡辺 蓮",
    "山本 陽菜",
    "中村 悠真",
]
AS_OF = date(2026, 12, 1)


def _event(
    store: Store,
    slug: str,
    template: str,
    day: str,
    divisions: dict[str, list[str]],
    seed: int,
    award: bool = True,
) -> None:
    uc.create_tournament(store, template, who="d", seed=seed, slug=slug, date=day)
    for div, names in divisions.items():
        uc.register_players(
            store,
            slug,
            [uc.PlayerEntry(n, div, birth_year=1990 + i) for i, n in enumerate(names)],
            who="d",
        )
        uc.check_in_players(store, slug, [], who="d", everyone_but=True, division=div)
        play_out(store, slug, div, seed=seed)


@pytest.fixture(scope="module", params=BACKENDS)
def season(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Store]]:
    """Busan (adults and children) in May, a Japanese championship in August, and a
    Korean club night held in March but awarded last."""
    with database(request.param, tmp_path_factory.mktemp("rating")) as url, upgraded(url) as store:
        _event(store, "busan", "busan-2015", "2026-05-02", {"general": ADULTS, "lower": KIDS}, 1)
        _event(store, "japan", "japan-championship", "2026-08-30", {"open": JAPAN}, 2)
        _event(store, "club", "club-night", "2026-03-07", {"club": ADULTS[:6]}, 3)
        yield url, store


def _people(lines: tuple[c.RatingLine, ...]) -> set[str]:
    return {r.name for r in lines}


def _fresh(store: Store, pool: str, as_of: date = AS_OF) -> dict[int, tuple[float, float]]:
    """A recomputation from scratch: the store's records read again, the pure model."""
    with store.reading() as s:
        book = rate_pool(c.pool_events(s).get(pool, ()), as_of)
    return {r.person: (r.mu, r.sigma) for r in (*book.lines, *book.provisional)}


def _published(store: Store, pool: str, as_of: date = AS_OF) -> dict[int, tuple[float, float]]:
    t = c.rating_table(store, pool, as_of)
    return {r.person: (r.mu, r.sigma) for r in (*t.lines, *t.provisional)}


def test_pools_keep_korean_adults_children_and_japan_apart(season: tuple[str, Store]) -> None:
    _url, store = season
    tables = {p: c.rating_table(store, p, AS_OF) for p in ("korea", "korea-children", "japan")}
    every = {p: _people((*t.lines, *t.provisional)) for p, t in tables.items()}
    assert every["korea"] == set(ADULTS)
    assert every["korea-children"] == set(KIDS)
    # the club-night template (Tokyo monthly) rates in the Japanese pool until the
    # federation says otherwise (below)
    assert every["japan"] == set(JAPAN) | set(ADULTS[:6])
    assert c.rating_table(store, None, AS_OF).pools == ("korea", "korea-children", "japan")
    assert tables["japan"].events == 2 and tables["korea"].events == 1
    for p in tables:
        assert _published(store, p) == _fresh(store, p)


def test_the_federation_chooses_a_pool_audited(season: tuple[str, Store]) -> None:
    url, store = season
    assert (
        main(
            [
                "rating",
                "pool",
                "korea",
                "-t",
                "club",
                "-d",
                "club",
                "--why",
                "a Korean club",
                "--db",
                url,
                "--who",
                "director",
            ]
        )
        == 0
    )
    assert c.rating_table(store, "korea", AS_OF).events == 2
    assert _people(
        c.rating_table(store, "japan", AS_OF).provisional
        + c.rating_table(store, "japan", AS_OF).lines
    ) == set(JAPAN)
    with store.reading() as s:
        row = s.scalars(select(AuditRow).where(AuditRow.action == "rating_pool")).one()
        assert (row.key, row.before, row.after, row.why, row.who) == (
            "club/club",
            None,
            "korea",
            "a Korean club",
            "director",
        )
    for p in ("korea", "japan"):
        assert _published(store, p) == _fresh(store, p)


def test_events_are_rated_in_date_order_not_award_order(season: tuple[str, Store]) -> None:
    _url, store = season
    kim = next(
        r
        for r in c.rating_table(store, "korea", AS_OF).provisional
        + c.rating_table(store, "korea", AS_OF).lines
        if r.name == "김민지"
    )
    (mine,) = [r for r in c.person_ratings(store, kim.person, AS_OF) if r.pool == "korea"]
    # the club night (March) was awarded after Busan (May): rated first all the same
    assert [h.event for h in mine.history] == ["club/club", "busan/general"]
    assert [h.day for h in mine.history] == sorted(h.day for h in mine.history)
    # before Busan, only the club night counts; before March, nobody is rated
    assert c.rating_table(store, "korea", date(2026, 4, 1)).events == 1
    early = c.rating_table(store, "korea", date(2026, 3, 1))
    assert early.events == 0 and not early.lines and not early.provisional


def test_a_correction_after_the_awards_shows_at_once(season: tuple[str, Store]) -> None:
    _url, store = season
    before = _published(store, "japan")
    t = uc.read(store, "japan")
    table = t.division("open").stages[0].rounds[0].tables[0]
    games = play_table(t.division("open").rules, len(table.players), 99_999, len(table.sheet.games))
    uc.enter_sheet(
        store,
        "japan",
        "open",
        1,
        table.number,
        games,
        who="d",
        why="the scorer swapped two rows",
        stage=1,
        reaward=True,
    )
    after = _published(store, "japan")
    assert after != before  # no "--recompute": the rating is derived
    assert after == _fresh(store, "japan")


def test_a_merge_and_a_split_show_at_once(season: tuple[str, Store]) -> None:
    _url, store = season
    lines = c.rating_table(store, "japan", AS_OF)
    people = {r.name: r.person for r in (*lines.lines, *lines.provisional)}
    # a namesake who played another event: a new person until the director links
    _event(
        store, "tohoku", "japan-championship", "2026-10-10", {"open": ["佐藤 翔太", *JAPAN[1:8]]}, 4
    )
    sato = c.people(store, "佐藤 翔太")[0].person
    merged = c.merge(store, people["佐藤 健"], sato, who=OP, why="same member card")
    assert merged.kept.person == people["佐藤 健"]
    (line,) = [r for r in c.person_ratings(store, people["佐藤 健"], AS_OF) if r.pool == "japan"]
    assert [h.event for h in line.history] == ["japan/open", "tohoku/open"]
    assert _published(store, "japan") == _fresh(store, "japan")
    c.split(store, people["佐藤 健"], ["tohoku"], who=OP, why="two people after all")
    (line,) = [r for r in c.person_ratings(store, people["佐藤 健"], AS_OF) if r.pool == "japan"]
    assert [h.event for h in line.history] == ["japan/open"]
    assert _published(store, "japan") == _fresh(store, "japan")


def test_the_command_line_rating_on_a_date(
    season: tuple[str, Store], capsys: pytest.CaptureFixture[str]
) -> None:
    url, _store = season
    capsys.readouterr()
    assert (
        main(["rating", "--pool", "korea-children", "--as-of", "2026-06-01", "--json", "--db", url])
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["as_of"] == "2026-06-01" and out["pool"] == "korea-children"
    assert {r["name"] for r in out["lines"] + out["provisional"]} == set(KIDS)
    assert all(r["provisional"] for r in out["provisional"])
