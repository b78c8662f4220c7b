"""The Japanese events of seed 004 as templates, ready to run: the championship's
regional qualifier, the Tokyo monthly and the Tohoku event, named in ko/ja/en; the
Tohoku event played from its template (tables of 3 among them) to its carried final."""

from __future__ import annotations

from fractions import Fraction

import pytest

from meldtour.tournament import (
    awards,
    check_in,
    register,
    stage_standings,
    start_division,
    start_stage,
)
from meldtour.tournament.model import Tournament
from meldtour.tournament.rating import default_pool
from meldtour.tournament.simulate import play_round
from meldtour.tournament.templates import (
    TEMPLATE_ZONES,
    TEMPLATES,
    WORDS,
    default_circuit,
    from_template,
)

JAPANESE = ("japan-qualifier", "tokyo-monthly", "tohoku")


@pytest.mark.parametrize("locale", ["ko", "ja", "en"])
def test_the_japanese_templates_are_named_in_each_language(locale: str) -> None:
    names = {key: from_template(key, locale=locale).name for key in JAPANESE}
    assert len(set(names.values())) == 3
    if locale == "ja":
        assert names == {
            "japan-qualifier": "ラミィキューブ日本選手権 地区予選会",
            "tokyo-monthly": "ラミィキューブ東京月例会",
            "tohoku": "ラミィキューブ東北大会",
        }
    for key in JAPANESE:
        t = from_template(key, locale=locale)
        assert TEMPLATE_ZONES[key] == "Asia/Tokyo"
        assert default_pool(key, t.divisions[0].key) == "japan"
        for stage in t.divisions[0].formats:
            assert stage.name in WORDS[locale].values()


def test_each_template_is_the_seeds_event() -> None:
    assert set(JAPANESE) <= set(TEMPLATES)
    q = from_template("japan-qualifier", locale="ja").divisions[0]
    m = from_template("tokyo-monthly", locale="ja").divisions[0]
    t = from_template("tohoku", locale="ja")
    h = t.divisions[0]
    assert t.date == "2009-08-01" and h.name == "東北大会"
    for div in (q, m, h):
        # league scoring: 100 a win plus the points; tables of 3 scaled by 4/3
        assert div.standing_rules.mode == "league" and div.standing_rules.win_points == 100
        assert div.standing_rules.three_table == "scale"
        first = div.formats[0]
        assert (first.kind, first.games, first.seating) == ("seatings", 2, "balanced")
    assert [f.kind for f in m.formats] == ["seatings"] and m.formats[0].seatings == 4
    assert m.late_entry
    for div, seatings in ((q, 4), (h, 3)):
        assert div.formats[0].seatings == seatings
        final = div.formats[1]
        assert (final.kind, final.games, final.entrants, final.carry) == ("final", 2, 4, True)
        assert final.name == "決勝"
    assert default_circuit("tohoku", "tohoku", h.rules.name) == ("japan", "regional")
    assert default_circuit("tokyo-monthly", "monthly", m.rules.name) == ("japan", "monthly")


def test_a_tohoku_event_from_its_template_to_its_carried_final() -> None:
    t: Tournament = from_template("tohoku", seed=801, locale="ja")
    for i in range(1, 16):  # 15 players: tables of 4, 4, 4 and 3
        t = register(t, "tohoku", f"選手{i}").tournament
        t = check_in(t, i).tournament
    t = start_division(t, "tohoku").tournament
    t = start_stage(t, "tohoku").tournament
    while not t.division("tohoku").stages[-1].finished:
        t = play_round(t, "tohoku", 4).tournament
    prelim = t.division("tohoku").stages[0]
    assert len(prelim.rounds) == 3
    assert all(sorted(len(x.players) for x in r.tables) == [3, 4, 4, 4] for r in prelim.rounds)
    table = stage_standings(t, "tohoku", 0)
    scaled = [s for s in table if s.score.denominator != 1]
    assert scaled  # some player's table of 3 scored a non-multiple of 3
    for s in table:
        assert s.score == 100 * s.wins + sum(
            g.total(s.player) * (Fraction(4, 3) if len(g.players) == 3 else 1)
            for g in prelim.results()
            if s.player in g.players
        )
    top4 = [s.player for s in table.standings[:4]]
    t = start_stage(t, "tohoku").tournament
    while not t.division("tohoku").stages[-1].finished:
        t = play_round(t, "tohoku", 5).tournament
    final = stage_standings(t, "tohoku", 1)
    assert sorted(s.player for s in final) == sorted(top4)
    assert all(s.games == 6 + 2 for s in final)  # the points carried: 8 games
    places = awards(t, "tohoku")
    assert [a.place for a in places] == [1, 2, 3, 4]
    assert places[0].player == final.standings[0].player
