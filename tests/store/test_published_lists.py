"""Issue 25, findings 6, 7 and 9 (the rankings' part), on SQLite and PostgreSQL:

- 7: with no ranking defined, Busan's 저학년부 knockout winner does not tie the 일반부
  winner: the children's divisions count for no ranking by default (seed 000: only
  일반부 counts toward the Korean ranking), and the Japanese championship has a
  ranking of its own;
- 6: two 김민지 on a public list read differently, by the federation's choice;
- 9: a private person keeps the place, the name withheld (no gap 1, 3, 4)."""

from __future__ import annotations

from datetime import date

import pytest

from meldtour import application as uc
from meldtour.application import circuit as cc
from meldtour.application.errors import UseCaseError
from meldtour.store.db import Store
from meldtour.tournament.ranking import tell_apart

from ..circuit_play import play_out

ADULTS = ["김민지", "김민지", "이서준", "박지호", "최하은", "정도윤", "강서연", "조민준"]
CHILDREN = ["이하린", "박도현", "최서아", "정이안", "강유나", "조시우", "윤하율", "장은우"]
JAPAN = [
    "佐藤 健",
    "佐藤 健",
    "鈴木 一郎",
    "高橋 美咲",
    "田中 美咲",
    "伊藤 翔",
    "渡辺 結衣",
    "山本 大輝",
]
DAY = date(2026, 12, 31)


def _season(store: Store) -> None:
    uc.create_tournament(store, "busan-2015", who="d", seed=5, slug="busan26", date="2026-05-02")
    uc.register_players(
        store,
        "busan26",
        [
            *(
                uc.PlayerEntry(n, "general", birth_year=1980 + i, tags=(f"club:c{i}",))
                for i, n in enumerate(ADULTS)
            ),
            *(uc.PlayerEntry(n, "lower") for n in CHILDREN),
        ],
        who="d",
    )
    for division in ("general", "lower"):
        uc.check_in_players(store, "busan26", [], who="d", everyone_but=True, division=division)
    play_out(store, "busan26", "general", seed=5)
    play_out(store, "busan26", "lower", seed=6)
    uc.create_tournament(
        store, "japan-championship", who="d", seed=7, slug="jp26", date="2026-08-30"
    )
    uc.register_players(store, "jp26", [uc.PlayerEntry(n) for n in JAPAN], who="d")
    uc.check_in_players(store, "jp26", [], who="d", everyone_but=True)
    play_out(store, "jp26", "open", seed=7)


def test_default_rankings_per_circuit_without_the_children(store: Store) -> None:
    _season(store)
    assert [r.key for r in cc.rankings(store)] == ["korea", "japan"]
    korea = cc.ranking_table(store, "korea", DAY)
    t = uc.read(store, "busan26")
    children = {r.player for r in t.registrations if r.division == "lower"}
    with store.reading() as s:
        from meldtour.store import circuit as rows

        people = {n: pid for _r, n, pid, _name in rows.registrations_in(s, "busan26")}
    assert {people[n] for n in children}.isdisjoint(x.person for x in korea.lines)
    assert len(korea.lines) == len(ADULTS)
    assert [x.rank for x in korea.lines][:1] == [1] and korea.lines[1].rank == 2
    assert {e.tournament for x in korea.lines for e in x.events} == {"busan26"}
    japan = cc.ranking_table(store, "japan", DAY)
    assert len(japan.lines) == len(JAPAN)
    assert {e.tournament for x in japan.lines for e in x.events} == {"jp26"}
    # the old name of the one default ranking still answers (the first circuit's)
    assert cc.ranking_table(store, "national", DAY).info.key == "korea"
    with pytest.raises(UseCaseError):
        cc.ranking_table(store, "nope", DAY)
    # a defined ranking counts every awarded division but the children's too
    cc.define_ranking(store, "krf", who="d")
    krf = cc.ranking_table(store, "krf", DAY)
    assert len(krf.lines) == len(ADULTS) + len(JAPAN)


def test_namesakes_are_told_apart_and_a_private_person_keeps_the_place(store: Store) -> None:
    _season(store)
    public = cc.ranking_table(store, "korea", DAY, public_only=True)
    names = [x.name for x in public.lines]
    assert len(set(names)) == len(names)
    assert sorted(n for n in names if n.startswith("김민지")) == ["김민지 (A)", "김민지 (B)"]
    cc.set_discriminator(store, "birth_year", who="d")
    names = [x.name for x in cc.ranking_table(store, "korea", DAY, public_only=True).lines]
    assert sorted(n for n in names if n.startswith("김민지")) == ["김민지 (1980)", "김민지 (1981)"]
    cc.set_discriminator(store, "club", who="d")
    names = [x.name for x in cc.ranking_table(store, "korea", DAY, public_only=True).lines]
    assert sorted(n for n in names if n.startswith("김민지")) == ["김민지 (c0)", "김민지 (c1)"]
    with pytest.raises(UseCaseError) as bad:
        cc.set_discriminator(store, "shoe size", who="d")
    assert bad.value.refusal.code == "circuit.discriminator"
    # the private person's line stays, without the name
    second = public.lines[1]
    cc.set_person(store, second.person, who=cc.Acting.operator("d"), public=False)
    now = cc.ranking_table(store, "korea", DAY, public_only=True)
    assert [x.rank for x in now.lines] == [x.rank for x in public.lines]
    assert now.lines[1].withheld and now.lines[1].name == "" and now.lines[1].person == 0
    assert second.person not in {x.person for x in now.lines}
    assert not any(x.withheld for x in cc.ranking_table(store, "korea", DAY).lines)


def test_tell_apart_reads_no_two_lines_the_same() -> None:
    out = tell_apart([(3, "김민지", "1990"), (9, "김민지", "1990"), (4, "이준", None)])
    assert out == {3: "김민지 (A)", 9: "김민지 (B)", 4: "이준"}
    assert len(set(out.values())) == 3
