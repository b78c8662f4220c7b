"""Where a game's randomness comes from: the seat-order draw and the deals.

A game is reproducible from its seed (replays, analysis, takeover by another server
process), so the shuffle is a function of the seed. Two kinds of seed:

- A **secret seed** (:data:`SECRET_SEED_FLOOR` or more) is what online games get:
  ``2**256`` plus 256 bits from the operating system's secret source (the adapters
  draw it, see ``meldtour.live.table.secret_seed``). Its shuffles come from SHAKE-256
  of the seed and the purpose, read as a stream: a cryptographic generator, so no
  number of racks seen tells anything of the seed, of the other racks or of the pool.
- A **lab seed** (any smaller whole number: tests, simulations, the command line,
  every game stored before secret seeds) keeps the shuffles it always had (Python's
  Mersenne Twister seeded by a string), so old records replay as they were played.

A lab seed is not secret: from one rack a search over 2**32 seeds finds it
(docs/rules.md, "What each player may see").

>>> a = deal_random(SECRET_SEED_FLOOR + 12345, "deal", 0)
>>> b = deal_random(SECRET_SEED_FLOOR + 12345, "deal", 0)
>>> x, y = list(range(20)), list(range(20))
>>> a.shuffle(x); b.shuffle(y)
>>> x == y, sorted(x) == list(range(20))
(True, True)
>>> type(deal_random(7, "deal", 0)).__name__
'Random'
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

#: The smallest secret seed: seeds at or above it are shuffled by :class:`StreamRandom`.
SECRET_SEED_FLOOR = 1 << 256
#: Secret bits in a secret seed.
SECRET_BITS = 256


class StreamRandom(random.Random):
    """A ``random.Random`` whose bits are the SHAKE-256 stream of a key.

    Only ``getrandbits`` draws bits (``shuffle``, ``randrange`` and ``choice`` go
    through it, with Python's own rejection sampling, so there is no modulo bias);
    the stream is read in order and never repeats.
    """

    _BLOCK = 1024

    def __init__(self, key: bytes) -> None:
        self._key = bytes(key)
        self._buffer = b""
        self._used = 0
        super().__init__(0)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """The key is fixed at construction; ``seed`` (called by ``Random``) restarts
        the stream."""
        self._used = 0

    def _take(self, n: int) -> bytes:
        end = self._used + n
        if end > len(self._buffer):
            size = max(self._BLOCK, 2 * len(self._buffer))
            while size < end:
                size *= 2
            # SHAKE is an extendable-output function: a longer read begins with the
            # shorter one, so the stream is the same however it is read.
            self._buffer = hashlib.shake_256(self._key).digest(size)
        out = self._buffer[self._used : end]
        self._used = end
        return out

    def getrandbits(self, k: int, /) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        value = int.from_bytes(self._take((k + 7) // 8), "little")
        return value & ((1 << k) - 1)

    def random(self) -> float:
        return self.getrandbits(53) * (2.0**-53)

    def getstate(self) -> tuple[Any, ...]:
        return (self._key, self._used)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key, self._used = bytes(state[0]), int(state[1])
        self._buffer = b""


def is_secret(seed: int) -> bool:
    """Whether ``seed`` is a secret seed (shuffled by the cryptographic stream)."""
    return seed >= SECRET_SEED_FLOOR


def deal_random(seed: int, purpose: str, n: int = 0) -> random.Random:
    """The generator of one shuffle of a game: ``purpose`` is ``"seat-draw"`` or
    ``"deal"``, ``n`` the deal's number (0, then one more per redeal)."""
    label = f"meldtour/{seed}/{purpose}/{n}"
    if is_secret(seed):
        return StreamRandom(b"meldtour-shuffle-v2\x00" + label.encode())
    return random.Random(label)


__all__ = ["SECRET_BITS", "SECRET_SEED_FLOOR", "StreamRandom", "deal_random", "is_secret"]
