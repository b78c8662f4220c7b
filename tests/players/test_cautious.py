"""The former expert (``cautious``, the baseline of the strength guard), on hand-made
positions: what fits the table alone, and the melds it keeps back when asked to
(``hold_players``; off by default)."""

from __future__ import annotations

import dataclasses

from meldtour.core.game import apply, new_game
from meldtour.core.melds import parse_board
from meldtour.core.moves import Play
from meldtour.core.rules import find_rules
from meldtour.core.state import GameState
from meldtour.core.tiles import Tile, parse_tiles
from meldtour.core.views import player_view
from meldtour.players.cautious import CautiousPlayer, _fits_alone
from meldtour.solver import finder

KRC = find_rules("krc-2015")
HOLD = CautiousPlayer(hold_players=2)


def test_fits_alone_ends_groups_and_splits() -> None:
    board = parse_board([["r3", "r4", "r5", "r6", "r7", "r8"], ["k9", "r9", "b9"]])
    fits = {
        t: _fits_alone(board, Tile.parse(t), False)
        for t in ("r2", "r9", "r5", "r6", "r4", "r1", "o9", "k9", "b5")
    }
    # Ends and a group's missing colour; r5 and r6 split the run in two (r3-r5 r5-r8,
    # r3-r6 r6-r8); r4 would leave a run of two; r1, a second k9 and b5 fit nowhere.
    assert fits == {
        "r2": True,
        "r9": True,
        "r5": True,
        "r6": True,
        "r4": False,
        "r1": False,
        "o9": True,
        "k9": False,
        "b5": False,
    }


def _position(rack: list[str]) -> tuple[GameState, int]:
    state = new_game(KRC, ["cautious", "other"], 0).state
    state = dataclasses.replace(
        state,
        board=parse_board([["r4", "r5", "r6"]]),
        melded=(True, True),
        turn=state.order.index(0),
        racks=(parse_tiles(rack), state.racks[1]),
    )
    return state, 0


def test_keeps_the_melds_its_rack_makes_alone() -> None:
    state, seat = _position(["k1", "k2", "k3", "r7", "b13"])
    move = HOLD.decide(player_view(state, seat))
    assert isinstance(move, Play)
    apply(state, move, finder=finder)
    # r7 needs the table and goes down; k1-k3 can go down any later turn: kept.
    assert [str(m) for m in move.board] == ["[r4,r5,r6,r7]"]
    # By default (and as greedy) it lays all four.
    greedy = CautiousPlayer().decide(player_view(state, seat))
    assert isinstance(greedy, Play) and len(greedy.board) == 2


def test_lays_its_own_melds_rather_than_draw_and_goes_out_at_once() -> None:
    state, seat = _position(["k1", "k2", "k3", "b13"])
    move = HOLD.decide(player_view(state, seat))
    assert isinstance(move, Play) and "[k1,k2,k3]" in [str(m) for m in move.board]
    state, seat = _position(["k1", "k2", "k3", "r7"])
    move = HOLD.decide(player_view(state, seat))
    assert isinstance(move, Play) and len(move.board) == 2  # all four: out


def test_goes_out_whenever_it_can_even_with_an_opponent_about_to() -> None:
    # The opponent holds one tile (as close as can be); a play that empties the rack is
    # played, never weighed against a draw (issue 19; BENCHMARKS.md, "Players").
    state, seat = _position(["k1", "k2", "k3", "r7", "r8", "o9", "b9", "k9"])
    state = dataclasses.replace(state, racks=(state.racks[0], parse_tiles(["b5"])))
    move = CautiousPlayer(samples=32, budget=64).decide(player_view(state, seat))
    assert isinstance(move, Play)
    assert apply(state, move, finder=finder).state.winner == seat
