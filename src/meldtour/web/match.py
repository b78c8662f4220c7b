"""A table's match: the games one table plays together (1, 2 or 4, as a tournament's
seating plays 4), the running total after each game, and the standing by the rule
set's match ranking (most wins, then points, for KRC and Japan) — the tournament's own
rule (:func:`meldtour.tournament.standings.rank_players`), not a second copy of it.

The match's earlier games are named in the table's set-up (``TableConfig.match_before``)
and their results are read from the game log, so a restart keeps the total."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any
from weakref import WeakKeyDictionary

from meldtour.core.rules import RuleSet
from meldtour.live import LiveServer
from meldtour.live.game import LiveGame
from meldtour.live.handle import GameHandle
from meldtour.live.table import TableConfig
from meldtour.tournament.sheets import GameResult
from meldtour.tournament.standings import StandingRules, TieBreak, rank_players

#: Results of games over read from the log, per live server (the most recent ``KEPT``).
_FINISHED: WeakKeyDictionary[LiveServer, OrderedDict[str, dict[str, Any]]] = WeakKeyDictionary()
KEPT = 2000

#: The tie-breaks a table's match uses after its ranking: no lot (a tie is shown as one).
CHAIN: tuple[TieBreak, ...] = ("best_game", "second_best", "head_to_head")


async def _result(live: LiveServer, game_id: str) -> dict[str, Any] | None:
    """A game's result (``scores``, ``penalties`` as positive points, ``winner``): the
    live game's own once it is over (the log's may be a moment behind), else the log's."""
    game = live.get(game_id)
    if isinstance(game, LiveGame) and game.state is not None and game.state.end is not None:
        state = game.state
        return {
            "scores": list(state.scores or ()),
            "penalties": list(state.penalties),
            "winner": state.winner,
        }
    kept = _FINISHED.setdefault(live, OrderedDict())
    if game_id in kept:
        return kept[game_id]
    logged = await live.log.load(game_id)
    if logged is None or logged.result is None:
        return None
    # A game over never changes: its result is read from the log once (a match's page
    # asks for its earlier games each time it opens).
    kept[game_id] = result = dict(logged.result)
    while len(kept) > KEPT:
        kept.popitem(last=False)
    return result


def standing(rules: RuleSet, seats: int, results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each seat's line after ``results`` (in seat order): its points per game (game
    points less penalties), wins, total and rank by the rules' match ranking.

    >>> from meldtour.core.rules import find_rules
    >>> games = [{"scores": [30, -10, -20], "penalties": [0, 0, 0], "winner": 0},
    ...          {"scores": [-5, 25, -20], "penalties": [0, 10, 0], "winner": 1}]
    >>> [(r["seat"], r["wins"], r["points"], r["rank"]) for r in standing(
    ...     find_rules("krc-2015"), 3, games)]
    [(0, 1, 25, 1), (1, 1, 5, 2), (2, 0, -40, 3)]
    """
    players = tuple(range(seats))
    counted = [
        GameResult(
            1,
            1,
            k + 1,
            players,
            tuple(int(x) for x in r["scores"]),
            tuple(abs(int(x)) for x in r.get("penalties") or [0] * seats),
            -1 if r.get("winner") is None else int(r["winner"]),
        )
        for k, r in enumerate(results)
    ]
    ranked = rank_players(
        counted,
        StandingRules(mode=rules.match_ranking, chain=CHAIN, win_points=rules.league_win_points),
        players=players,
    )
    return sorted(
        (
            {
                "seat": s.player,
                "games": [g.total(s.player) for g in counted],
                "wins": s.wins,
                "points": s.points,
                "rank": s.rank,
            }
            for s in ranked
        ),
        key=lambda line: int(line["seat"]),
    )


async def match_json(live: LiveServer, game: GameHandle) -> dict[str, Any] | None:
    """The match ``game`` belongs to, for its page (None: a single game's table): how
    many games, which one this is, and the standing after the games over so far."""
    return await match_of(live, game.id, game.config)


async def match_of(live: LiveServer, game_id: str, config: TableConfig) -> dict[str, Any] | None:
    """The same for a game known by its id and set-up (a game over, from its log)."""
    if config.match_games == 1:
        return None
    ids = [*config.match_before, game_id]
    results = []
    for gid in ids:
        r = await _result(live, gid)
        if r is None or not r.get("scores"):
            break  # this game (the last) is not over yet
        results.append(r)
    return {
        "games": config.match_games,
        "no": len(ids),
        "played": len(results),
        "over": len(results) == config.match_games,
        "ranking": config.rules.match_ranking,
        "lines": standing(config.rules, len(config.seats), results),
    }
