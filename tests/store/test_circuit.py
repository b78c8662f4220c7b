"""The circuit on SQLite and PostgreSQL: three tournaments over two seasons, made from
templates and played by computer players, feed one ranking equal to the pure
function's on the same places; decay, best-k and the season by hand; two 김민지 stay
two people, and a merge moves the history and computes the ranking and the ratings
again; qualifications pass down and fill the seats of a division."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from datetime import date

import pytest

from meldtour import application as uc
from meldtour.application import circuit as c
from meldtour.cli import main
from meldtour.store.db import Store
from meldtour.tournament.ranking import RankingConfig, TournamentResult, national_ranking
from meldtour.tournament.rating import rate_pool

from ..circuit_play import play_out
from .backends import BACKENDS, database, upgraded

C1 = ["김민지", "김민지", "이서준", "박지호", "최하은", "정도윤", "강서연", "조민준"]
C2 = ["김민지", "이 서준", "박지호", "최하은", "정도윤", "강서연", "조민준", "윤지우"]
B3 = ["박지호", "최하은", "정도윤", "강서연", "조민준", "윤지우", "김민지", "한유진"]
EVENTS = (
    ("c1", "club-night", "2025-10-04", C1, "club", "monthly"),
    ("c2", "busan-2015", "2026-02-07", C2, "general", "monthly"),
    ("b3", "busan-2015", "2026-05-02", B3, "general", "national"),
)
AS_OF = date(2026, 6, 1)
#: The birth years the lists give (the evidence that finds a person again: a name alone
#: never does); the second 김민지 of c1 and "이 서준" give none.
BORN = {n: 1980 + i for i, n in enumerate(dict.fromkeys(C1 + C2 + B3))}

OP = c.Acting.operator("d")


def _entries(names: list[str], div: str) -> list[uc.PlayerEntry]:
    out = []
    for n in names:
        unknown = n == "이 서준" or (n == "김민지" and any(e.name == n for e in out))
        out.append(uc.PlayerEntry(n, div, birth_year=None if unknown else BORN[n]))
    return out


def _play(store: Store) -> None:
    for i, (slug, template, day, names, div, _level) in enumerate(EVENTS, 1):
        uc.create_tournament(store, template, who="d", seed=i, slug=slug, date=day)
        uc.register_players(store, slug, _entries(names, div), who="d")
        uc.check_in_players(store, slug, [], who="d", everyone_but=True, division=div)
        play_out(store, slug, div, seed=i)
    c.define_ranking(
        store,
        "krf",
        who="d",
        name="KRF",
        organisation="KRF",
        config={"best": 2, "half_life_days": 365},
        counts_all=False,
    )
    for slug, _t, _d, _n, div, level in EVENTS:
        c.count_division(store, "krf", slug, div, who="d", level=level)
    # a Korean club night: the federation rates it with the Korean adults (a club
    # night's template rates in the Japanese pool)
    c.set_pool(store, "c1", "club", "korea", who=c.Acting.operator("d"), why="a Korean club")


def _ratings(store: Store) -> list[c.RatingLine]:
    """The Korean pool's lines, established and provisional, best first."""
    table = c.rating_table(store, "korea")
    return sorted((*table.lines, *table.provisional), key=lambda r: (-r.ordinal, r.person))


@pytest.fixture(scope="module", params=BACKENDS)
def played(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Store]]:
    """One database per backend with the three tournaments played and awarded (the
    tests below read it in order; the last one merges)."""
    with database(request.param, tmp_path_factory.mktemp("circuit")) as url, upgraded(url) as store:
        _play(store)
        yield url, store


def _pure(store: Store, as_of: date, config: RankingConfig) -> tuple:  # type: ignore[type-arg]
    """The pure function's ranking on the same places, read the engine's way."""
    results = []
    for slug, _t, day, _n, div, level in EVENTS:
        _tv, _key, placings = uc.ranking(store, slug, div)
        person = {n: r.player_id for n, r in uc.registrations_by_number(store, slug).items()}
        results.append(
            TournamentResult(
                f"{slug}/{div}",
                date.fromisoformat(day),
                level,
                {person[p.player]: p.place for p in placings},
            )
        )
    return national_ranking(results, as_of, config)


def _lines(table: c.RankingTable) -> list[tuple[int, int, float, list[str]]]:
    return [
        (
            x.rank,
            x.person,
            round(x.points, 6),
            [f"{e.tournament}/{e.division}" for e in x.events if e.counted],
        )
        for x in table.lines
    ]


def test_three_tournaments_feed_one_ranking_as_the_pure_function(
    played: tuple[str, Store], capsys: pytest.CaptureFixture[str]
) -> None:
    url, store = played
    table = c.ranking_table(store, "krf", AS_OF)
    expected = _pure(store, AS_OF, RankingConfig(best=2, half_life_days=365))
    assert _lines(table) == [
        (x.rank, x.player, round(x.points, 6), [k for k, _ in x.counted]) for x in expected
    ]
    assert len(table.lines) == len({n for _s, _t, _d, names, *_ in EVENTS for n in names}) + 1
    # the command line gives the same, in the shape
    assert (
        main(["ranking", "--ranking", "krf", "--as-of", "2026-06-01", "--json", "--db", url]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert [(x["rank"], x["person"], x["points"]) for x in out] == [
        (x.rank, x.person, round(x.points, 2)) for x in table.lines
    ]
    assert set(out[0]) == {"rank", "person", "name", "points", "events", "withheld"}
    assert set(out[0]["events"][0]) == {"tournament", "division", "place", "points"}
    # ratings: one pool (the Korean adults: the club night too, as the federation
    # chose), best first, the provisional players apart
    assert main(["rating", "--json", "--db", url]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pool"] == "korea" and out["pools"] == ["korea"] and out["events"] == 3
    for part, prov in (("lines", False), ("provisional", True)):
        rated = out[part]
        assert [r["ordinal"] for r in rated] == sorted((r["ordinal"] for r in rated), reverse=True)
        assert all(r["provisional"] is prov for r in rated)
    every = out["lines"] + out["provisional"]
    assert set(every[0]) == {
        "person",
        "name",
        "mu",
        "sigma",
        "ordinal",
        "games",
        "events",
        "last",
        "provisional",
    }
    assert all(
        r["provisional"] == (r["games"] < 10 or r["sigma"] > c.RATING.provisional_sigma)
        for r in every
    )


def test_decay_best_k_and_season_by_hand(played: tuple[str, Store]) -> None:
    _url, store = played
    table = c.ranking_table(store, "krf", AS_OF)
    days = {
        "c1": (AS_OF - date(2025, 10, 4)).days,
        "c2": (AS_OF - date(2026, 2, 7)).days,
        "b3": (AS_OF - date(2026, 5, 2)).days,
    }
    weight = {"c1": 0.25, "c2": 0.25, "b3": 1.0}
    for line in table.lines:
        every = []
        for e in line.events:
            hand = (
                1000
                * weight[e.tournament]
                * (e.field - e.place + 1)
                / e.field
                * 0.5 ** (days[e.tournament] / 365)
            )
            every.append(hand)
            if e.counted:
                assert e.points == pytest.approx(hand)
        # best two of what the person played
        assert line.points == pytest.approx(sum(sorted(every, reverse=True)[:2]))
        assert sum(e.counted for e in line.events) == min(2, len(line.events))
    # a ranking of the 2026 season alone, by a points table: c1 does not count
    c.define_ranking(
        store,
        "s2026",
        who="d",
        config={
            "season_start": "2026-01-01",
            "table": [100, 60, 40, 20],
            "half_life_days": 0,
            "best": 4,
        },
    )
    season = c.ranking_table(store, "s2026", AS_OF)
    for line in season.lines:
        assert {e.tournament for e in line.events} <= {"c2", "b3"}
        assert line.points == pytest.approx(
            sum(
                [100, 60, 40, 20][e.place - 1] * {"c2": 1.0, "b3": 1.0}[e.tournament]
                if e.place <= 4
                else 0
                for e in line.events
            )
        )


def test_a_stage_seeded_by_rating_keeps_the_strongest_apart(played: tuple[str, Store]) -> None:
    _url, store = played
    uc.create_tournament(store, "busan-2015", who="d", slug="seeded", seed=3)
    t = uc.read(store, "seeded")
    fmt = t.division("general").formats
    uc.edit_division(
        store,
        "seeded",
        "general",
        uc.DivisionEdit(formats=(replace(fmt[0], seating="by-rating"), *fmt[1:])),
        who="d",
    )
    best = _ratings(store)[:2]
    names = [r.name for r in _ratings(store)]
    # registered weakest first (the people the merge below changes are left out), each
    # as the person rated
    rated_people = {r.name: r.person for r in _ratings(store)}
    chosen = [n for n in dict.fromkeys(reversed(names)) if names.count(n) == 1 and "서준" not in n][
        :6
    ]
    uc.register_players(
        store,
        "seeded",
        [uc.PlayerEntry(n, "general", person=rated_people[n]) for n in chosen],
        who="d",
    )
    uc.check_in_players(store, "seeded", [], who="d", everyone_but=True, division="general")
    out = uc.seat(store, "seeded", "general", 1, who="d")
    stage = out.tournament.division("general").stages[0]
    person = {n: r.player_id for n, r in uc.registrations_by_number(store, "seeded").items()}
    order = [person[p] for p in stage.entrants]
    rated = {r.person: r.ordinal for r in _ratings(store)}
    assert order == sorted(order, key=lambda p: -rated[p])  # entrants in seed order
    first = stage.rounds[0].seating.tables
    table_of = {person[p]: i for i, tb in enumerate(first) for p in tb}
    if all(b.name in chosen for b in best):
        assert table_of[best[0].person] != table_of[best[1].person]


def test_a_stage_seeded_by_ranking_names_its_ranking(played: tuple[str, Store]) -> None:
    """Two rankings (krf first, then s2026): "by ranking" seeds by the first unless the
    stage names another, as the ranking page shows the first."""
    _url, store = played
    assert [r.key for r in c.rankings(store)][:2] == ["krf", "s2026"]
    uc.create_tournament(store, "busan-2015", who="d", slug="ranked", seed=4)
    fmt = uc.read(store, "ranked").division("general").formats

    def seed_by(key: str) -> None:
        uc.edit_division(
            store,
            "ranked",
            "general",
            uc.DivisionEdit(
                formats=(replace(fmt[0], seating="by-ranking", seed_ranking=key), *fmt[1:])
            ),
            who="d",
        )

    seed_by("")
    names = [x.name for x in c.ranking_table(store, "krf").lines]
    people = {x.name: x.person for x in c.ranking_table(store, "krf").lines}
    chosen = [n for n in names if names.count(n) == 1 and "서준" not in n]
    uc.register_players(
        store, "ranked", [uc.PlayerEntry(n, "general", person=people[n]) for n in chosen], who="d"
    )
    person = {n: r.player_id for n, r in uc.registrations_by_number(store, "ranked").items()}

    def expected(key: str) -> list[int]:
        points = {x.person: x.points for x in c.ranking_table(store, key).lines}
        return sorted(
            person, key=lambda n: (person[n] not in points, -points.get(person[n], 0.0), n)
        )

    assert c.seed_order(store, "ranked", "general") == expected("krf")  # the first
    seed_by("s2026")
    assert c.seed_order(store, "ranked", "general") == expected("s2026")
    assert expected("s2026") != expected("krf")  # c1 is not in the 2026 season
    uc.check_in_players(store, "ranked", [], who="d", everyone_but=True, division="general")
    out = uc.seat(store, "ranked", "general", 1, who="d")
    assert list(out.tournament.division("general").stages[0].entrants) == expected("s2026")
    assert out.tournament.division("general").formats[0].seed_ranking == "s2026"


def test_two_kim_minji_stay_two_and_a_merge_moves_the_history(
    played: tuple[str, Store], capsys: pytest.CaptureFixture[str]
) -> None:
    url, store = played
    kims = c.people(store, "김민지")
    assert len(kims) == 2  # two in c1; c2 and b3 found the first again by birth year
    a, b = kims
    assert [e.tournament for e in a.entries] == ["c1", "c2", "b3"]
    with pytest.raises(uc.UseCaseError) as refused:
        c.merge(store, a.person, b.person, who=OP, why="same name")
    assert refused.value.code == "circuit.played_together"
    # the ratings are those the pure model gives on the records as they are
    before = {r.person: (round(r.mu, 9), r.games) for r in _ratings(store)}
    with store.reading() as s:
        pure = rate_pool(c.pool_events(s)["korea"], date.today())
    assert {r.person: (round(r.mu, 9), r.games) for r in (*pure.lines, *pure.provisional)} == before
    # "이 서준" of c2 is 이서준 of c1: the director merges, with the reason
    # (the list matches as the preview does: spaces and width aside)
    lee, typo = c.people(store, "이서준")
    assert c.people(store, "이 서준") == c.people(store, "이서준")
    assert (lee.name, typo.name) == ("이서준", "이 서준")
    assert (
        main(
            [
                "people",
                "merge",
                str(lee.person),
                str(typo.person),
                "--why",
                "same member number",
                "--db",
                url,
                "--who",
                "director",
            ]
        )
        == 0
    )
    capsys.readouterr()
    merged = c.person(store, lee.person)
    assert [e.tournament for e in merged.entries] == ["c1", "c2"]
    assert [v.person for v in c.people(store, "이 서준")] == [lee.person]
    table = c.ranking_table(store, "krf", AS_OF)
    assert _lines(table) == [
        (x.rank, x.player, round(x.points, 6), [k for k, _ in x.counted])
        for x in _pure(store, AS_OF, RankingConfig(best=2))
    ]
    line = next(x for x in table.lines if x.person == lee.person)
    assert {e.tournament for e in line.events} == {"c1", "c2"}
    assert typo.person not in {x.person for x in table.lines}
    rated = {r.person: r for r in _ratings(store)}
    assert typo.person not in rated
    assert rated[lee.person].games == before[lee.person][1] + before[typo.person][1]
    # splitting it again gives the history back to a person of its own
    out = c.split(store, lee.person, ["c2"], who=OP, why="two people after all")
    assert [e.tournament for e in out.kept.entries] == ["c2"]
    assert c.person(store, lee.person).entries[0].tournament == "c1"
    rated = {r.person: r for r in _ratings(store)}
    assert rated[lee.person].games == before[lee.person][1]
    assert rated[out.kept.person].games == before[typo.person][1]
    # the second 김민지 was the one of c2: "the same person as …" with the evidence
    c.set_person(
        store, b.person, who=OP, member_number="KRF-1042", birth_year=2001, contact="010-0000-0000"
    )
    mine, found = c.candidates(store, "c2", 1, who=OP)
    assert mine.person == a.person and [x.person.person for x in found] == [b.person]
    assert found[0].shared_tournament  # both played c1: not a reason to join them
    c.same_person(store, "c2", 1, b.person, who=OP, why="member card KRF-1042")
    assert [e.tournament for e in c.person(store, b.person).entries] == ["c1", "c2"]
    assert _lines(c.ranking_table(store, "krf", AS_OF)) == [
        (x.rank, x.player, round(x.points, 6), [k for k, _ in x.counted])
        for x in _pure(store, AS_OF, RankingConfig(best=2))
    ]
    log = [a for a in uc.audit_log(store, "c1")]  # the people's lines have no tournament
    assert all(a["action"] not in ("people_merge",) for a in log)


def test_a_qualification_passes_down_and_fills_a_division(played: tuple[str, Store]) -> None:
    _url, store = played
    c.grant_qualification(
        store, "b3", "general", "selection", label="2026 selection", seats=2, who=OP
    )
    first = [h for h in c.holders(store, "selection")]
    assert [h.status for h in first] == ["holds", "holds", "next"]
    assert [h.place for h in first] == [1, 2, 3]
    _t, _k, placings = uc.ranking(store, "b3", "general")
    c.decline(store, "selection", "b3", placings[0].player, who=OP, why="abroad")
    after = c.holders(store, "selection")
    assert [(h.place, h.status) for h in after] == [
        (1, "declined"),
        (2, "holds"),
        (3, "holds"),
        (4, "next"),
    ]
    uc.create_tournament(store, "japan-championship", who="d", slug="sel", seed=9)
    c.set_quota(store, "sel", "open", "selection", 2, who=OP)
    with pytest.raises(uc.UseCaseError) as refused:
        uc.register_players(store, "sel", [uc.PlayerEntry(placings[0].name)], who="web")
    assert refused.value.code == "circuit.not_qualified"
    # the holder who declined, chosen by the director: refused, saying so
    with pytest.raises(uc.UseCaseError) as refused:
        uc.register_players(
            store, "sel", [uc.PlayerEntry(placings[0].name, person=after[0].person)], who="d"
        )
    assert refused.value.code == "circuit.declined"
    # a holder's name alone takes no seat; the director's choice or the claim code does
    with pytest.raises(uc.UseCaseError) as refused:
        uc.register_players(store, "sel", [uc.PlayerEntry(after[1].name)], who="web")
    assert refused.value.code == "circuit.needs_claim"
    codes = {h.person: h.claim for h in c.holders(store, "selection", who=OP)}
    for h, how in zip(after[1:3], ("person", "claim"), strict=True):
        entry = (
            uc.PlayerEntry(h.name, person=h.person)
            if how == "person"
            else uc.PlayerEntry(h.name, claim=codes[h.person].lower().replace("-", " "))
        )
        out = uc.register_players(store, "sel", [entry], who="web")
        number = out.notices[-1].player
        assert uc.registrations_by_number(store, "sel")[number].player_id == h.person
    views = c.seats(store, "sel", "open")
    assert views[0].taken == 2 and all(n is not None for _, n in views[0].holders)
