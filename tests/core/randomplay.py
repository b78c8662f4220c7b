"""A chaotic player for property tests: legal, illegal and odd moves at random."""

from __future__ import annotations

import random

from meldtour.core.melds import Meld
from meldtour.core.moves import Draft, Draw, Move, Pass, Play, Redeal, Timeout
from meldtour.core.search import best_rack_melds
from meldtour.core.state import GameState


def random_move(state: GameState, rng: random.Random) -> Move:
    seat = state.current
    rack = list(state.racks[seat])
    board = list(state.board)
    roll = rng.random()
    if roll < 0.03:
        return Redeal(rng.randrange(state.seats))
    if roll < 0.06:
        return Pass(seat)
    if roll < 0.10:
        return Draw(rng.randrange(state.seats))  # often out of turn
    if roll < 0.30 and rack:
        # Scatter some rack tiles into the board or a new meld: usually illegal.
        k = rng.randint(1, min(4, len(rack)))
        tiles = rng.sample(rack, k)
        if board and rng.random() < 0.5:
            i = rng.randrange(len(board))
            board[i] = Meld(board[i].tiles + tuple(tiles))
        else:
            board.append(Meld(tuple(tiles)))
        if rng.random() < 0.5:
            return Play(seat, tuple(board))
        return Timeout(seat, tuple(board))
    if roll < 0.35 and board:
        # Take a board tile away (never legal), or split a meld.
        i = rng.randrange(len(board))
        m = board[i]
        if rng.random() < 0.5:
            board[i] = Meld(m.tiles[1:])
        else:
            cut = rng.randint(1, max(1, len(m.tiles) - 1))
            board[i : i + 1] = [Meld(m.tiles[:cut]), Meld(m.tiles[cut:])]
        return Play(seat, tuple(board)) if rng.random() < 0.7 else Draft(seat, tuple(board))
    if roll < 0.40:
        return Timeout(seat, None)
    value, melds = best_rack_melds(rack, state.rules.wrap_runs)
    if melds and (state.melded[seat] or value >= state.rules.initial_meld):
        return Play(seat, (*state.board, *melds))
    return Draw(seat) if state.pool else Pass(seat)
