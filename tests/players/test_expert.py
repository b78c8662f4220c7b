"""The expert on hand-made positions: it goes out whenever it can, holds its rack
otherwise, lays the smallest initial meld, and plays when the pool is empty; and over
whole games it never draws while it could meld (the −200 rule)."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from meldtour.core.game import apply, new_game
from meldtour.core.melds import Board, parse_board
from meldtour.core.moves import Draw, Play
from meldtour.core.rules import find_rules
from meldtour.core.state import GameState
from meldtour.core.tiles import parse_tiles
from meldtour.core.views import PlayerView, player_view
from meldtour.players.expert import ExpertPlayer, activity, window_holder
from meldtour.players.greedy import GreedyPlayer
from meldtour.players.runner import play_game
from meldtour.solver import finder, solve

KRC = find_rules("krc-2015")
EXPERT = ExpertPlayer()


def _position(
    rack: list[str], board: list[list[str]], melded: bool = True, other: list[str] | None = None
) -> GameState:
    state = new_game(KRC, ["expert", "other"], 0).state
    return dataclasses.replace(
        state,
        board=parse_board(board),
        melded=(melded, True),
        turn=state.order.index(0),
        racks=(parse_tiles(rack), parse_tiles(other) if other else state.racks[1]),
    )


def test_goes_out_with_a_fifteen_tile_play_even_with_an_opponent_about_to() -> None:
    # The game: a play of 15 tiles worth over 100 that empties the rack, the
    # opponent holding one tile. It is played, and wins.
    rack = [
        "k1",
        "k2",
        "k3",
        "k4",
        "r7",
        "r8",
        "r9",
        "b11",
        "o11",
        "k11",
        "b2",
        "b3",
        "b4",
        "o13",
        "r13",
    ]
    state = _position(rack, [["k13", "b13", "J"]], other=["b5"])
    move = EXPERT.decide(player_view(state, 0))
    assert isinstance(move, Play)
    after = apply(state, move, finder=finder).state
    assert after.winner == 0 and sum(t.number for t in parse_tiles(rack)) > 100


def test_holds_its_rack_when_it_cannot_go_out() -> None:
    # r7 and k1-k3 could go down (greedy lays all four); the expert keeps them and draws.
    state = _position(["k1", "k2", "k3", "r7", "b13"], [["r4", "r5", "r6"]])
    assert isinstance(EXPERT.decide(player_view(state, 0)), Draw)
    greedy = GreedyPlayer().decide(player_view(state, 0))
    assert isinstance(greedy, Play) and len(greedy.board) == 2


def test_lays_the_smallest_initial_meld() -> None:
    # Greedy would lay all nine tiles (33 + 6 + 15); k10-k12 alone make the 30.
    state = _position(
        ["k10", "k11", "k12", "r1", "r2", "r3", "b5", "o5", "k5", "o9"], [], melded=False
    )
    move = EXPERT.decide(player_view(state, 0))
    assert isinstance(move, Play)
    assert [str(m) for m in move.board] == ["[k10,k11,k12]"]
    assert apply(state, move, finder=finder).state.melded[0]


def test_the_smallest_initial_meld_keeps_the_joker() -> None:
    # Two melds of three tiles make 30 or more alone: the one without the joker goes.
    state = _position(["J", "b12", "b13", "r10", "o10", "k10", "k1"], [], melded=False)
    move = EXPERT.decide(player_view(state, 0))
    assert isinstance(move, Play)
    (meld,) = move.board
    assert sorted(str(t) for t in meld.tiles) == ["k10", "o10", "r10"]


def test_plays_when_the_pool_is_empty() -> None:
    # Under krc-2015 (continue) a player who can put down a tile must.
    state = _position(["k1", "k2", "k3", "r7", "b13"], [["r4", "r5", "r6"]])
    state = dataclasses.replace(state, pool=())
    move = EXPERT.decide(player_view(state, 0))
    assert isinstance(move, Play)
    after = apply(state, move, finder=finder).state
    assert [str(t) for t in after.racks[0]] == ["b13"]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 4))
def test_never_draws_while_it_could_meld(seed: int, players: int) -> None:
    team = [ExpertPlayer(f"expert {i}", seed + i) for i in range(players)]
    state = play_game(KRC, team, seed)
    assert state.is_over and not any(state.could_meld)


def _late(state: GameState, pool: int, sizes: tuple[int, int], turn_no: int) -> GameState:
    """``state`` with ``pool`` tiles left in the pool and the opponent's rack cut to
    ``sizes[1]`` tiles, ``turn_no`` turns into the game."""
    racks = (state.racks[0], state.racks[1][: sizes[1]])
    return dataclasses.replace(state, pool=state.pool[:pool], racks=racks, turn_no=turn_no)


def test_lays_its_best_play_when_an_opponent_is_close_and_the_pool_nearly_out() -> None:
    state = _position(["k1", "k2", "k3", "r7", "b13"], [["r4", "r5", "r6"]])
    # Early, with 20 tiles in the pool: it holds though the opponent holds 8.
    assert isinstance(EXPERT.decide(player_view(_late(state, 20, (5, 8), 40), 0)), Draw)
    # 12 tiles in the pool and the opponent at 8: it lays all it can.
    move = EXPERT.decide(player_view(_late(state, 12, (5, 8), 40), 0))
    assert isinstance(move, Play) and len(move.board) == 2
    # The opponent at 9 tiles is not close: it holds.
    assert isinstance(EXPERT.decide(player_view(_late(state, 12, (5, 9), 40), 0)), Draw)


def test_lays_at_the_very_end_when_everyone_else_holds_too() -> None:
    state = _position(["k1", "k2", "k3", "r7", "b13"], [["r4", "r5", "r6"]])
    # 40 turns: the opponent took 20 and holds 30 tiles — 14 + 20 - 30 = 4 laid: it
    # holds. In the last 4 tiles of the pool the expert lays first.
    held = dataclasses.replace(state, racks=(state.racks[0], state.racks[1] * 3))
    held = dataclasses.replace(held, racks=(held.racks[0], held.racks[1][:30]))
    assert activity(player_view(dataclasses.replace(held, turn_no=40), 0), 1) == 4
    assert isinstance(
        EXPERT.decide(player_view(dataclasses.replace(held, turn_no=40, pool=held.pool[:5]), 0)),
        Draw,
    )
    move = EXPERT.decide(player_view(dataclasses.replace(held, turn_no=40, pool=held.pool[:4]), 0))
    assert isinstance(move, Play)
    # An opponent that has been laying tiles (14 + 20 - 12 = 22) does not hold: the
    # expert keeps holding.
    fed = dataclasses.replace(
        held, turn_no=40, pool=held.pool[:4], racks=(held.racks[0], held.racks[1][:12])
    )
    assert isinstance(EXPERT.decide(player_view(fed, 0)), Draw)


def test_near_the_end_it_does_not_lay_a_play_that_feeds_a_close_player() -> None:
    # Three runs 9-10-11 would open the 8s and 12s of three colours to an opponent down
    # to one tile, 12 tiles in the pool: the risk test (racks sampled from the tiles
    # that fit nowhere now; seeded, so the answer is fixed) finds the play risky and
    # the expert draws; without the test it lays all nine tiles.
    rack = ["k9", "k10", "k11", "b9", "b10", "b11", "o9", "o10", "o11", "r1"]
    view = player_view(_late(_position(rack, [["r4", "r5", "r6"]]), 12, (10, 1), 40), 0)
    test = EXPERT.risk_test(view, 0)
    assert test is not None and test.risky(_best(view)) is True
    assert isinstance(EXPERT.decide(view), Draw)
    move = ExpertPlayer(samples=0).decide(view)
    assert isinstance(move, Play) and move.board == _best(view)
    # With nobody close (the opponent at 9 tiles) there is no test to run.
    far = player_view(_late(_position(rack, [["r4", "r5", "r6"]]), 12, (10, 9), 40), 0)
    assert EXPERT.risk_test(far, 0) is None


def test_one_risk_test_per_decision_on_a_budget_of_solver_calls() -> None:
    # The same position: the sampled racks are drawn once and judge every play; all
    # the plays judged spend at most ``budget`` solver calls together, and a play
    # judged once the budget is spent is not known safe (None), so the expert draws.
    rack = ["k9", "k10", "k11", "b9", "b10", "b11", "o9", "o10", "o11", "r1"]
    view = player_view(_late(_position(rack, [["r4", "r5", "r6"]]), 12, (10, 1), 40), 0)
    test = ExpertPlayer(budget=2).risk_test(view, 0)
    assert test is not None and len(test.racks) == 1 and len(test.racks[0]) == 8
    first = test.risky(_best(view))
    assert first is not False and test.calls <= 2
    while test.calls < 2:
        test.risky(view.board)
    assert test.risky(_best(view)) is None and test.calls == 2


def _best(view: PlayerView) -> Board:
    return solve(view.board, view.rack, view.rules, True).board


def test_the_look_ahead_is_deterministic_and_on_a_budget_of_solver_calls() -> None:
    # Near the end (8 tiles or fewer in the pool) the expert plays the game out on
    # sampled deals; the same view gives the same move, and no decision spends more
    # solver calls than its budget (a count, not a clock).
    from meldtour.players import endgame

    calls: list[int] = []
    real = endgame.Budget.solve

    def counted(self: endgame.Budget, *args: object) -> object:
        calls.append(1)
        return real(self, *args)  # type: ignore[arg-type]

    state = _position(["k1", "k2", "k3", "r7", "b13"], [["r4", "r5", "r6"]])
    held = dataclasses.replace(state, racks=(state.racks[0], state.racks[1] * 3))
    late = dataclasses.replace(held, racks=(held.racks[0], held.racks[1][:30]), turn_no=40)
    for pool in (8, 6, 4, 2, 0):
        view = player_view(dataclasses.replace(late, pool=late.pool[:pool]), 0)
        calls.clear()
        endgame.Budget.solve = counted  # type: ignore[method-assign]
        try:
            first = EXPERT.decide(view)
        finally:
            endgame.Budget.solve = real  # type: ignore[method-assign]
        assert len(calls) <= EXPERT.calls
        assert EXPERT.decide(view) == first
        assert EXPERT.decide(view) == ExpertPlayer().decide(view)


def _table(
    pool: int,
    sizes: tuple[int, int, int],
    rack: tuple[str, ...] = ("k9", "k10", "k11", "b9", "b10", "b11", "o9", "o10", "o11", "r1"),
) -> PlayerView:
    """Four players, the expert (seat 0) to move 40 turns in with ``pool`` tiles left
    and the others holding ``sizes`` tiles (in turn order after it): a player with 14
    or more has laid at most its initial meld (:func:`activity` 10 or less)."""
    state = new_game(KRC, ["expert", "a", "b", "c"], 0).state
    at = state.order.index(0)
    after = [state.order[(at + k) % 4] for k in (1, 2, 3)]
    spare = list(state.pool) + [t for r in state.racks[1:] for t in r]
    racks = [parse_tiles(list(rack))]
    racks += [()] * 3
    for s, n in zip(after, sizes, strict=True):
        racks[s] = tuple(spare[:n])
        spare = spare[n:]
    return player_view(
        dataclasses.replace(
            state,
            board=parse_board([["r4", "r5", "r6"]]),
            melded=(True,) * 4,
            turn=at,
            turn_no=40 + at,
            racks=tuple(racks),
            pool=tuple(spare[:pool]),
        ),
        0,
    )


def test_a_holder_is_seen_holding_in_the_window_only_once_its_turn_came_there() -> None:
    # The player just before the expert drew last turn: with 8 tiles left now its turn
    # began with 9 (before the window); with 7 left, with 8 at most (in it). The player
    # just after the expert moved three turns ago: seen only with 5 tiles left or fewer.
    view = _table(8, (16, 17, 18))
    at = view.order.index(0)
    before, after = view.order[(at - 1) % 4], view.order[(at + 1) % 4]
    assert not window_holder(view, before, 8)
    assert window_holder(_table(7, (16, 17, 18)), before, 8)
    assert not window_holder(_table(6, (16, 17, 18)), after, 8)
    assert window_holder(_table(5, (16, 17, 18)), after, 8)


def test_in_the_window_drawing_starves_only_a_player_nobody_else_feeds() -> None:
    # Against three shedders: one has laid down to 5 tiles as the pool reached 8, the
    # two others held all game and have not had their turn in the window — they may be
    # about to lay everything, so drawing would starve nobody: no risk test, and the
    # expert lays its best play (before, it drew and was caught with its rack).
    shed = _table(8, (5, 17, 18))
    assert activity(shed, shed.order[(shed.order.index(0) + 1) % 4]) > EXPERT.quiet
    assert EXPERT.judged_in_window(shed, 0) == []
    assert EXPERT.risk_test(shed, 0) is None
    move = EXPERT.decide(shed)
    assert isinstance(move, Play) and move.board == _best(shed)
    # Without the rule (the expert before), the close shedder and the holders are
    # judged and the play found risky.
    before = ExpertPlayer(starve=False, doubt=False)
    assert before.risk_test(shed, 0) is not None
    # Later in the window the two holders have been seen holding (they drew with 8
    # tiles or fewer in the pool): now drawing keeps the table closed to all three, and
    # each is judged.
    starve = _table(4, (5, 17, 18))
    assert sorted(EXPERT.judged_in_window(starve, 0)) == [5, 17, 18]


def test_unsure_whether_a_draw_starves_the_close_player_it_lays_the_smallest_play() -> None:
    # Seven tiles left: a close player laid down to 5 tiles, the player just before the
    # expert lays too (12 tiles: not close), and one who held all game (17) has not been
    # seen holding in the window — a starver or a shedder, nobody knows yet. The expert
    # lays one meld of three (its smallest play) rather than all nine tiles: against a
    # starver its rack stays ready, against a shedder it keeps only a little.
    view = _table(7, (5, 17, 12))
    assert EXPERT.unsure(view, 0) and EXPERT.judged_in_window(view, 0) == []
    move = EXPERT.policy(view, 0, solve(view.board, view.rack, view.rules, True))
    assert isinstance(move, Play) and len(move.board) == 2 and len(move.board[1].tiles) == 3
    # With eight tiles left it lays its best play (the smallest there cost 18 points a
    # game against three shedders), and so it does once the holder is seen holding.
    assert not ExpertPlayer().unsure(_table(5, (5, 17, 12)), 0)
    eight = _table(8, (5, 17, 12))
    assert EXPERT.policy(eight, 0, solve(eight.board, eight.rack, eight.rules, True)) == Play(
        0, _best(eight)
    )


def test_with_nine_tiles_in_the_pool_it_lays_one_tile_that_opens_nothing_to_come_in_later() -> None:
    # Everyone holds. With 9 tiles left a draw would leave 8, and the three others would
    # come into the window before the expert; it lays r7 on r4-r6 instead (r3 and r8
    # go on the table after it as r3 and r7 did before: it opens nothing), so the table
    # comes in one seat later. With 10 tiles left it draws, as it does with 9 when its
    # smallest play would open the table (a meld of its own, here) or with the rule off.
    rack = ("k9", "k10", "k11", "b9", "b10", "b11", "o9", "o10", "o11", "r1", "r7")
    nine = _table(9, (16, 17, 18), rack)
    move = EXPERT.decide(nine)
    assert isinstance(move, Play)
    laid = sorted(t for m in move.board for t in m.tiles)
    assert laid == sorted(parse_tiles(["r4", "r5", "r6", "r7"]))
    assert EXPERT.decide(_table(10, (16, 17, 18), rack)) == Draw(0)
    assert EXPERT.decide(_table(9, (16, 17, 18))) == Draw(0)
    assert ExpertPlayer(steer=0).decide(nine) == Draw(0)
