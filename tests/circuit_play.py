"""Tournaments played out by computer players (greedy), for the circuit's tests and
benchmark: every table's games are real games of the core, their scores entered as
score sheets."""

from __future__ import annotations

from meldtour import application as uc
from meldtour.core.rules import RuleSet
from meldtour.players.levels import make_player
from meldtour.players.runner import play_game
from meldtour.store.db import Store

#: Games played by computer players, by table size (made once per process, dealt to
#: the tables in turn: the scores of real games, at a fraction of the time).
_GAMES: dict[tuple[str, int], list[tuple[tuple[int, ...], int]]] = {}
POOL = 8


def computer_games(rules: RuleSet, seats: int) -> list[tuple[tuple[int, ...], int]]:
    """``POOL`` games of ``seats`` greedy computer players: (scores, winning seat from 1)."""
    key = (rules.name, seats)
    if key not in _GAMES:
        out = []
        for seed in range(POOL):
            state = play_game(rules, [make_player("greedy", f"p{i}") for i in range(seats)], seed)
            scores = tuple(state.scores or ())
            winner = state.winner if state.winner is not None else scores.index(max(scores))
            out.append((scores, winner + 1))
        _GAMES[key] = out
    return _GAMES[key]


def play_table(rules: RuleSet, seats: int, seed: int, ngames: int) -> list[uc.GameEntry]:
    pool = computer_games(rules, seats)
    out = []
    for g in range(1, ngames + 1):
        scores, winner = pool[(seed * 7 + g) % len(pool)]
        out.append(uc.GameEntry(g, scores, (0,) * seats, winner))
    return out


def play_out(store: Store, slug: str, division: str, *, seed: int = 0) -> None:
    """Seat, play and close every round of every stage of the division, then award it."""
    while True:
        t = uc.read(store, slug)
        div = t.division(division)
        index, number, _closed = uc.current_round(t, division)
        if index >= 0 and div.stages[index].finished:
            if index + 1 >= len(div.formats):
                break
            uc.advance(store, slug, division, who="d")
            continue
        out = uc.seat(store, slug, division, number + 1, who="d")
        t = out.tournament
        div = t.division(division)
        rnd = div.stages[-1].rounds[-1]
        for x in rnd.tables:
            if not x.counted:
                uc.enter_sheet(
                    store,
                    slug,
                    division,
                    rnd.number,
                    x.number,
                    play_table(
                        div.rules,
                        len(x.players),
                        seed * 1000 + rnd.number * 50 + x.number,
                        len(x.sheet.games),
                    ),
                    who="ref",
                )
        uc.close(store, slug, division, who="d")
    uc.award(store, slug, division, who="d")
