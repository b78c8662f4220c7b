"""A deal cannot be recovered from one's own rack.

Online games were shuffled from a 32-bit seed through Python's Mersenne Twister: a
seat's own view (its 14 tiles and the public turn order) was enough for a search over
the seeds to find the seed and so every other rack and the pool's order. Here the same
search (``seedsearch.c``, compiled with the system's C compiler) runs over 2**22 lab
seeds (the suite's time; 2**32 is the same search 1,024 times over): it recovers a 22-bit
seed from one rack and predicts the rest of the deal exactly, and it finds nothing for a
game dealt from a secret seed (256 bits through SHAKE-256, ``meldtour.core.shuffle``),
which is what every online game gets.
"""

from __future__ import annotations

import json
import random
import secrets
import shutil
import subprocess
from pathlib import Path

import pytest

from meldtour.core.game import new_game
from meldtour.core.record import read_record, record_of
from meldtour.core.rules import find_rules
from meldtour.core.shuffle import SECRET_SEED_FLOOR, is_secret
from meldtour.core.state import GameState
from meldtour.core.tiles import full_set
from meldtour.core.views import player_view
from meldtour.live.table import secret_seed

HERE = Path(__file__).parent
RULES = find_rules("krc-2015")
PLAYERS = ["Ann", "Bo", "Cy", "Di"]
SPACE = 1 << 22


@pytest.fixture(scope="module")
def seedsearch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cc = shutil.which("cc") or shutil.which("gcc")
    assert cc, "a C compiler is needed (make install installs gcc and libssl-dev)"
    out = tmp_path_factory.mktemp("seedsearch") / "seedsearch"
    subprocess.run(
        [
            cc,
            "-O3",
            "-march=native",
            "-Wall",
            "-Wno-deprecated-declarations",
            "-o",
            str(out),
            str(HERE / "seedsearch.c"),
            "-lcrypto",
        ],
        check=True,
    )
    return out


def test_the_search_deals_as_python_did(seedsearch: Path) -> None:
    """The C search's shuffle is Python's, seed for seed (else finding nothing would
    prove nothing)."""
    codes = [int(t) for t in full_set()]
    for seed in (0, 7, 99, 100, 4321, 65535, SPACE - 1):
        expected = list(codes)
        random.Random(f"meldtour/{seed}/deal/0").shuffle(expected)
        got = subprocess.run(
            [str(seedsearch), "deal", str(seed)], capture_output=True, text=True, check=True
        ).stdout.split()
        assert [int(c) for c in got] == expected, seed


def target(state: GameState, seat: int) -> str:
    """What a seat knows: its rack and where it was dealt (the public turn order)."""
    view = player_view(state, seat)
    offset = view.order.index(seat) * RULES.hand_size
    return " ".join(str(x) for x in (offset, *(int(t) for t in view.rack)))


def search(seedsearch: Path, targets: list[str]) -> dict[int, list[int]]:
    """Every seed of the 2**22 whose deal matches each target, on two processes."""
    half = SPACE // 2
    runs = [
        subprocess.Popen(
            [str(seedsearch), "search", str(lo), str(lo + half)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for lo in (0, half)
    ]
    for run in runs:
        assert run.stdin is not None
        run.stdin.write("\n".join(targets) + "\n")
        run.stdin.close()
    found: dict[int, list[int]] = {i: [] for i in range(len(targets))}
    for run in runs:
        assert run.stdout is not None
        out = run.stdout.read()
        assert run.wait(timeout=600) == 0
        for line in out.splitlines():
            which, seed = line.split()
            found[int(which)].append(int(seed))
    return found


def test_a_lab_seed_is_found_from_one_rack_and_a_secret_seed_is_not(seedsearch: Path) -> None:
    lab = secrets.randbelow(SPACE)
    old = new_game(RULES, PLAYERS, lab).state
    new = new_game(RULES, PLAYERS, secret_seed()).state
    # The attacker sits where the deal ends (any seat would do).
    found = search(seedsearch, [target(old, old.order[-1]), target(new, new.order[-1])])
    assert lab in found[0]
    predicted = new_game(RULES, PLAYERS, lab).state
    assert predicted.racks == old.racks and predicted.pool == old.pool
    for seed in found[1]:  # a chance match of one rack would still predict nothing
        guess = new_game(RULES, PLAYERS, seed).state
        assert guess.racks != new.racks
    assert len(found[1]) <= 1


def test_a_secret_seed_is_256_secret_bits_and_replays() -> None:
    seeds = {secret_seed() for _ in range(64)}
    assert len(seeds) == 64
    assert all(is_secret(s) and SECRET_SEED_FLOOR <= s < 2 * SECRET_SEED_FLOOR for s in seeds)
    # Every bit below the floor varies across seeds.
    assert all(
        any(s >> b & 1 for s in seeds) and not all(s >> b & 1 for s in seeds)
        for b in (0, 31, 32, 128, 255)
    )
    seed = seeds.pop()
    first = new_game(RULES, PLAYERS, seed).state
    again = read_record(json.loads(json.dumps(record_of(first))))
    assert again.seed == seed
    replayed = new_game(again.rules, again.players, again.seed).state
    assert replayed.racks == first.racks and replayed.pool == first.pool
    assert replayed.seat_draws == first.seat_draws and replayed.order == first.order


def test_lab_seeds_deal_as_before() -> None:
    """Games stored before secret seeds (and every simulation) replay as they were
    played: a lab seed still goes through the Mersenne Twister."""
    tiles = list(full_set())
    random.Random("meldtour/7/deal/0").shuffle(tiles)
    state = new_game(RULES, PLAYERS, 7).state
    h = RULES.hand_size
    for i, seat in enumerate(state.order):
        assert state.racks[seat] == tuple(tiles[i * h : (i + 1) * h])
    assert state.pool == tuple(tiles[len(PLAYERS) * h :])
