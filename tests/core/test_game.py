"""The engine under every preset: setup, turns, the clock, failed turns, game ends."""

import dataclasses
import itertools
from collections import Counter

import pytest

from meldtour.core.game import IllegalMove, apply, doubles, new_game, seat_draw
from meldtour.core.melds import parse_board
from meldtour.core.moves import Draft, Draw, Pass, Play, Redeal, Timeout
from meldtour.core.rules import PRESETS, find_rules
from meldtour.core.tiles import JOKER_CODE, full_set, parse_tiles

from .helpers import board, dealt, rack

NAMES = ["Ann", "Bo", "Cy", "Di"]


# ---------------------------------------------------------------- setup


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_deals_14_each_from_the_106(preset: str, players: int) -> None:
    state = new_game(find_rules(preset), NAMES[:players], seed=11).state
    assert [len(r) for r in state.racks] == [14] * players
    assert len(state.pool) == 106 - 14 * players
    everything = [t for r in state.racks for t in r] + list(state.pool)
    assert Counter(everything) == Counter(full_set())
    assert sorted(state.order) == list(range(players))


def test_the_same_seed_gives_the_same_game_and_another_seed_another() -> None:
    rules = find_rules("krc-2015")
    assert new_game(rules, NAMES, 5).state == new_game(rules, NAMES, 5).state
    assert new_game(rules, NAMES, 5).state.pool != new_game(rules, NAMES, 6).state.pool


def test_only_2_to_4_players() -> None:
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(find_rules("standard"), ["solo"], 1)
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(find_rules("standard"), [*NAMES, "Ed"], 1)


def _rank(tile: int, joker_best: bool) -> int | None:
    if tile == JOKER_CODE:
        return 14 if joker_best else None
    return tile % 13 + 1


@pytest.mark.parametrize("seed", range(60))
def test_seat_draw_highest_starts_clockwise_joker_best(seed: int) -> None:
    rules = find_rules("krc-2015")
    order, rounds = seat_draw(4, rules, seed)
    first = order[0]
    assert order == tuple((first + i) % 4 for i in range(4))
    # Replay the draws: ties are drawn again by the tied players only.
    contenders = set(range(4))
    for draws in rounds:
        seats = {s for s, _ in draws}
        assert seats <= contenders
        ranks = {s: _rank(t, True) for s, t in draws}
        best = max(r for r in ranks.values() if r is not None)
        contenders = {s for s, r in ranks.items() if r == best}
    assert contenders == {first}


@pytest.mark.parametrize("seed", range(60))
def test_seat_draw_under_standard_redraws_a_joker(seed: int) -> None:
    _order, rounds = seat_draw(4, find_rules("standard"), seed)
    for draws in rounds:
        jokers = [s for s, t in draws if t == JOKER_CODE]
        if jokers:
            # A joker is drawn again: that seat appears in a later round.
            later = {s for r in rounds[rounds.index(draws) + 1 :] for s, _ in r}
            assert set(jokers) <= later


@pytest.mark.parametrize("seed", range(40))
def test_seat_draw_japan_orders_everyone_by_their_draw(seed: int) -> None:
    order, rounds = seat_draw(4, find_rules("japan"), seed)
    first_round = {s: _rank(t, True) for s, t in rounds[0]}
    for a, b in itertools.pairwise(order):
        assert (first_round[a] or 0) >= (first_round[b] or 0)
    assert sorted(order) == [0, 1, 2, 3]


# ---------------------------------------------------------------- turns


def test_draw_takes_the_front_of_the_pool_and_passes_the_turn() -> None:
    state = dealt("krc-2015", "k1", "k2", pool="r5 r6 r7")
    after = apply(state, Draw(0)).state
    assert after.racks[0] == rack("k1 r5") and after.pool == rack("r6 r7")
    assert after.current == 1


def test_moves_out_of_turn_are_refused_and_change_nothing() -> None:
    state = dealt("krc-2015", "k1", "k2", pool="r5 r6 r7")
    with pytest.raises(IllegalMove, match="seat 0's turn"):
        apply(state, Draw(1))
    with pytest.raises(IllegalMove, match="not a seat"):
        apply(state, Draw(7))


def test_a_refused_play_changes_nothing() -> None:
    state = dealt("krc-2015", "k8 r8 o8 k1", "k2", pool="r5 r6 r7")
    before = repr(state)
    with pytest.raises(IllegalMove, match="worth 24"):
        apply(state, Play(0, board("k8 r8 o8")))
    assert repr(state) == before


def test_initial_meld_then_later_plays_of_any_value() -> None:
    state = dealt("krc-2015", "k10 k11 k12 r3 k9", "b1 b2 b9 J", pool="o1 o2 o3 o4 o5")
    state = apply(state, Play(0, board("k10 k11 k12"))).state
    assert state.melded == (True, False) and state.racks[0] == rack("r3 k9")
    state = apply(state, Draw(1)).state
    with pytest.raises(IllegalMove, match="meld 2"):
        apply(state, Play(0, board("k10 k11 k12", "r3")))
    state = apply(state, Play(0, board("k9 k10 k11 k12"))).state
    assert state.racks[0] == rack("r3") and state.end is None


def test_going_out_ends_the_game_and_scores_it() -> None:
    state = dealt("krc-2015", "k10 k11 k12", "b1 b2 J", pool="o1 o2 o3", melded=None)
    progress = apply(state, Play(0, board("k10 k11 k12")))
    state = progress.state
    assert state.end == "out" and state.winner == 0
    # b1 + b2 + joker (50), but seat 1 never melded: a flat 100.
    assert state.scores == (100, -100)
    assert progress.events[-1].kind == "game_end"


def test_a_voluntary_draw_with_a_meld_on_the_rack_costs_200() -> None:
    # RULES.md §6: the engine decides "could have melded" itself.
    state = dealt("krc-2015", "k1 k2", "k13 r13 o13 b5", pool="o1 o2 o3 o4")
    state = apply(state, Draw(0)).state
    assert state.could_meld == (False, False)
    state = apply(state, Draw(1)).state
    assert state.could_meld == (False, True)
    # Seat 0 then goes out: seat 1 never melded although it could have — −200.
    state = apply(
        dataclasses.replace(state, racks=(rack("k3 k4 k5"), state.racks[1]), melded=(True, False)),
        Play(0, board("k3 k4 k5")),
    ).state
    assert state.end == "out" and state.scores == (200, -200)


# ---------------------------------------------------------------- redeal


def _seed_with_doubles(preset: str, need: int = 3) -> tuple[int, int]:
    rules = find_rules(preset)
    for seed in range(2000):
        state = new_game(rules, NAMES, seed).state
        for seat in state.order:
            if doubles(state.racks[seat]) >= need:
                return seed, seat
    raise AssertionError("no seed with enough doubles")


def test_redeal_before_the_game_starts() -> None:
    rules = find_rules("krc-2015")
    seed, seat = _seed_with_doubles("krc-2015")
    state = new_game(rules, NAMES, seed).state
    redealt = apply(state, Redeal(seat)).state
    assert redealt.racks != state.racks and redealt.deal_no == 1
    assert redealt.tile_count() == 106 and redealt.order == state.order
    # Once the first turn is played the window is closed.
    moved = apply(state, Draw(state.current)).state
    with pytest.raises(IllegalMove, match="before the game starts"):
        apply(moved, Redeal(seat))


def test_redeal_needs_three_doubles_and_a_rule_that_allows_it() -> None:
    seed, seat = _seed_with_doubles("krc-2015")
    state = new_game(find_rules("standard"), NAMES, seed).state
    with pytest.raises(IllegalMove, match="no redeal"):
        apply(state, Redeal(seat))
    krc = new_game(find_rules("krc-2015"), NAMES, seed).state
    poor = next(s for s in range(4) if doubles(krc.racks[s]) < 3)
    with pytest.raises(IllegalMove, match="needs 3 doubles"):
        apply(krc, Redeal(poor))


def test_japan_redeal_on_own_first_turn_even_after_others_played() -> None:
    rules = find_rules("japan")
    seed, seat = _seed_with_doubles("japan")
    state = new_game(rules, NAMES, seed).state
    if state.current != seat:
        with pytest.raises(IllegalMove, match="own first turn"):
            apply(state, Redeal(seat))
    while state.current != seat:
        state = apply(state, Draw(state.current)).state
    redealt = apply(state, Redeal(seat)).state
    assert redealt.turn == 0 and redealt.board == () and redealt.order == state.order
    assert redealt.tile_count() == 106


# ---------------------------------------------------------------- clock and failed turns


def test_the_clock_is_the_engine_s() -> None:
    state = dealt("krc-2015", "k1 k2", "k3", pool="o1 o2 o3")
    state = dataclasses.replace(state, turn_started=100.0)
    assert state.deadline == 160.0
    with pytest.raises(IllegalMove, match="s left"):
        apply(state, Timeout(0, at=130.0))
    with pytest.raises(IllegalMove, match="time ran out"):
        apply(state, Draw(0, at=161.0))
    after = apply(state, Timeout(0, at=160.0)).state
    assert after.racks[0] == rack("k1 k2 o1") and after.deadline == 220.0


def test_timeout_with_a_legal_draft_stands_as_the_play() -> None:
    state = dealt(
        "korea-official",
        "r7 k1",
        "k3",
        pool="o1 o2 o3",
        board_melds=board("r4 r5 r6"),
        melded=(True, True),
    )
    state = apply(state, Draft(0, board("r4 r5 r6 r7"))).state
    after = apply(state, Timeout(0)).state
    assert after.board == board("r4 r5 r6 r7") and after.racks[0] == rack("k1")


def test_001_keep_completed_example() -> None:
    # 4 tiles put down, 2 of them in a completed meld, 2 not: the 2 go back, draw 3.
    state = dealt(
        "korea-official",
        "r7 r8 k1 k2 b9",
        "k3",
        pool="o1 o2 o3 o4",
        board_melds=board("r4 r5 r6"),
        melded=(True, True),
    )
    after = apply(state, Timeout(0, board("r4 r5 r6 r7 r8", "k1 k2"))).state
    assert after.board == board("r4 r5 r6 r7 r8")
    assert sorted(after.racks[0]) == sorted(rack("k1 k2 b9 o1 o2 o3"))
    assert after.penalties == (0, 0) and after.tile_count() == state.tile_count()


def test_keep_completed_reverts_when_a_board_tile_is_not_in_a_complete_meld() -> None:
    state = dealt(
        "krc-2015",
        "r7 k1",
        "k3",
        pool="o1 o2 o3 o4",
        board_melds=board("r4 r5 r6"),
        melded=(True, True),
    )
    after = apply(state, Timeout(0, board("r4 r5", "r6 r7"))).state
    assert after.board == board("r4 r5 r6")
    assert sorted(after.racks[0]) == sorted(rack("r7 k1 o1 o2 o3"))


def test_keep_completed_before_the_initial_meld_needs_30_of_your_own() -> None:
    state = dealt("krc-2015", "k10 k11 k12 r1 r2", "k3", pool="o1 o2 o3 o4")
    after = apply(state, Timeout(0, board("k10 k11 k12", "r1 r2"))).state
    assert after.board == board("k10 k11 k12") and after.melded[0]
    assert sorted(after.racks[0]) == sorted(rack("r1 r2 o1 o2 o3"))
    small = dealt("krc-2015", "k1 k2 k3 r1 r2", "k3", pool="o1 o2 o3 o4")
    after = apply(small, Timeout(0, board("k1 k2 k3", "r1 r2"))).state
    assert after.board == () and not after.melded[0] and len(after.racks[0]) == 8


def test_standard_revert_draws_3() -> None:
    state = dealt(
        "standard",
        "r7 r8 k1",
        "k3",
        pool="o1 o2 o3 o4",
        board_melds=board("r4 r5 r6"),
        melded=(True, True),
    )
    after = apply(state, Timeout(0, board("r4 r5 r6 r7 r8", "k1"))).state
    assert after.board == board("r4 r5 r6")
    assert sorted(after.racks[0]) == sorted(rack("r7 r8 k1 o1 o2 o3"))


def test_japan_failed_turn_reverts_draws_1_and_costs_50() -> None:
    state = dealt(
        "japan", "r7 k1", "k3", pool="o1 o2 o3", board_melds=board("r4 r5 r6"), melded=(True, True)
    )
    after = apply(state, Timeout(0, board("r4 r5 r6 r7", "k1"))).state
    assert after.board == board("r4 r5 r6") and after.racks[0] == rack("r7 k1 o1")
    assert after.penalties == (50, 0) and after.penalty_marks == (1, 0)


def test_japan_penalises_an_illegal_end_of_turn_others_refuse_it() -> None:
    japan = dealt(
        "japan", "r7 k1", "k3", pool="o1 o2 o3", board_melds=board("r4 r5 r6"), melded=(True, True)
    )
    after = apply(japan, Play(0, board("r4 r5 r6", "r7 k1"))).state
    assert after.penalties == (50, 0) and after.current == 1
    krc = dealt(
        "krc-2015",
        "r7 k1",
        "k3",
        pool="o1 o2 o3",
        board_melds=board("r4 r5 r6"),
        melded=(True, True),
    )
    with pytest.raises(IllegalMove, match="meld 2"):
        apply(krc, Play(0, board("r4 r5 r6", "r7 k1")))
    # A play that could not exist at a real table is refused under japan too.
    with pytest.raises(IllegalMove, match="not on your rack"):
        apply(japan, Play(0, board("r4 r5 r6 b7")))


def test_a_penalty_larger_than_the_pool_takes_what_is_left() -> None:
    state = dealt(
        "standard", "r7 k1", "k3", pool="o1", board_melds=board("r4 r5 r6"), melded=(True, True)
    )
    after = apply(state, Timeout(0, board("r4 r5 r6", "r7"))).state
    assert after.pool == () and after.last_taker == 0 and "o1" in map(str, after.racks[0])


def test_a_draft_must_hold_only_board_and_rack_tiles() -> None:
    state = dealt(
        "krc-2015",
        "r7 k1",
        "k3",
        pool="o1 o2 o3",
        board_melds=board("r4 r5 r6"),
        melded=(True, True),
    )
    with pytest.raises(IllegalMove, match="not on your rack"):
        apply(state, Draft(0, board("r4 r5 r6 r8")))
    with pytest.raises(IllegalMove, match="missing"):
        apply(state, Draft(0, board("r4 r5")))


# ---------------------------------------------------------------- the pool runs out


def test_immediate_ends_when_the_last_tile_is_drawn() -> None:
    state = dealt("japan", "k1 k2", "k10 r10", "b5", pool="o1", melded=(True, True, True))
    after = apply(state, Draw(0)).state
    assert after.end == "pool"
    # Totals 1+2+1=4, 20, 5: seat 0 wins by 16 and 1.
    assert after.winner == 0 and after.scores == (17, -16, -1)


def test_one_more_round_ends_with_the_player_who_took_the_last_tile() -> None:
    state = dealt("korea-official", "k1 k2", "k10 r10", "b5", pool="o1", melded=(True, True, True))
    state = apply(state, Draw(0)).state  # seat 0 takes the last tile
    assert state.end is None and state.current == 1
    state = apply(state, Pass(1)).state
    state = apply(state, Pass(2)).state
    assert state.end is None and state.current == 0
    with pytest.raises(IllegalMove, match="pool is empty"):
        apply(state, Draw(0))
    state = apply(state, Pass(0)).state
    assert state.end == "pool" and state.winner == 0


def test_continue_refuses_a_pass_while_a_play_exists_then_ends_blocked() -> None:
    state = dealt(
        "krc-2015", "r7 k1", "k3 b1", pool="o1", board_melds=board("r4 r5 r6"), melded=(True, True)
    )
    state = apply(state, Draw(0)).state  # pool empty now
    with pytest.raises(IllegalMove, match="pool is not empty"):
        apply(dealt("krc-2015", "k1", "k2", pool="o1"), Pass(0))
    state = apply(state, Pass(1)).state  # seat 1 truly cannot play: game over
    assert state.end == "blocked"
    # totals: seat 0 = 7 + 1 + 1 = 9, seat 1 = 3 + 1 = 4 → seat 1 wins by 5.
    assert state.winner == 1 and state.scores == (-5, 5)


def test_continue_pass_refused_when_the_solver_finds_a_play() -> None:
    state = dealt(
        "krc-2015", "k1", "r7 b1", pool="o1", board_melds=board("r4 r5 r6"), melded=(True, True)
    )
    state = apply(state, Draw(0)).state
    with pytest.raises(IllegalMove, match="you can still play"):
        apply(state, Pass(1))
    state = apply(state, Play(1, board("r4 r5 r6 r7"))).state
    assert state.end is None


def test_game_over_refuses_every_move() -> None:
    state = dealt("japan", "k1 k2", "k10 r10", pool="o1", melded=(True, True))
    state = apply(state, Draw(0)).state
    with pytest.raises(IllegalMove, match="game is over"):
        apply(state, Draw(1))


def test_a_group_read_in_another_order_is_the_same_meld_before_the_initial_meld() -> None:
    """Found by a differential run against an independent referee: [J,J,k1] is only a
    group where runs do not wrap, so [J,k1,J] leaves it untouched; [J,J,k7] read as
    [k7,J,J] is a run whose jokers stand for other tiles: still refused."""
    state = dealt(
        "krc-2015",
        "k10 k11 k12",
        "k3",
        pool="o1 o2 o3",
        board_melds=board("J J k1"),
        melded=(False, True),
    )
    after = apply(state, Play(0, board("J k1 J", "k10 k11 k12"))).state
    assert after.melded[0] and len(after.board) == 2
    moved = dealt(
        "krc-2015",
        "k10 k11 k12",
        "k3",
        pool="o1 o2 o3",
        board_melds=board("J J k7"),
        melded=(False, True),
    )
    with pytest.raises(IllegalMove, match="initial meld"):
        apply(moved, Play(0, board("k7 J J", "k10 k11 k12")))


def test_keep_completed_keeps_melds_rearranged_from_the_board() -> None:
    """A time-out draft [k5,k6,k7] [k8,k9,k10] [b1] from the board [k5..k10]: the two
    complete melds stay as rearranged, b1 goes back, three are drawn (the board was put
    back to [k5..k10])."""
    state = dealt(
        "krc-2015",
        "b1 r3",
        "k3",
        pool="o1 o2 o3 o4",
        board_melds=board("k5 k6 k7 k8 k9 k10"),
        melded=(True, True),
    )
    after = apply(state, Timeout(0, board("k5 k6 k7", "k8 k9 k10", "b1"))).state
    assert [str(m) for m in after.board] == ["[k5,k6,k7]", "[k8,k9,k10]"]
    assert sorted(map(str, after.racks[0])) == ["b1", "o1", "o2", "o3", "r3"]


def test_a_play_shares_the_melds_it_leaves_as_they_were() -> None:
    """A live game keeps every play's board in its history: the melds a play leaves
    unchanged are the previous board's own objects, not copies."""
    rules = find_rules("krc-2015")
    state = new_game(rules, ["A", "B"], 3).state
    seat = state.current
    state = dataclasses.replace(
        state,
        board=parse_board([["r4", "r5", "r6"], ["k9", "r9", "b9"]]),
        melded=(True, True),
        racks=tuple(
            parse_tiles(["r7", "o1"]) if s == seat else r for s, r in enumerate(state.racks)
        ),
    )
    after = apply(
        state, Play(seat, parse_board([["r4", "r5", "r6", "r7"], ["k9", "r9", "b9"]]))
    ).state
    assert after.board[1] is state.board[1] and after.board[0] is not state.board[0]
    recorded = after.history[-1]
    assert isinstance(recorded, Play) and recorded.board == after.board
    assert all(a is b for a, b in zip(recorded.board, after.board, strict=True))
