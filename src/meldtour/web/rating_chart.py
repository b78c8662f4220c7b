"""A person's rating history as a small inline SVG chart (no script): the rating
``μ − 3σ`` after each event as a line, ``μ ± 2σ`` as a band around ``μ``, dates along
the bottom. The numbers only; the template draws them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from meldtour.tournament.rating import HistoryPoint

WIDTH, HEIGHT, PAD = 320, 120, 24


@dataclass(frozen=True, slots=True)
class Dot:
    x: float
    y: float
    day: date
    event: str
    ordinal: float


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    line: str  # the rating's polyline points
    mean: str  # μ's polyline points
    band: str  # the μ ± 2σ polygon's points
    dots: tuple[Dot, ...]
    top: float
    bottom: float
    first: date
    last: date


def chart(history: Sequence[HistoryPoint]) -> Chart | None:
    """The chart of a history (``None`` without one)."""
    if not history:
        return None
    lows = [min(h.ordinal, h.mu - 2 * h.sigma) for h in history]
    highs = [h.mu + 2 * h.sigma for h in history]
    bottom, top = min(lows), max(highs)
    if top - bottom < 1:
        top += 0.5
        bottom -= 0.5
    first, last = history[0].day, history[-1].day
    span = max(1, (last - first).days)

    def x(i: int, h: HistoryPoint) -> float:
        if len(history) == 1:
            return WIDTH / 2
        # by date, so that a long gap shows; events of one day spread a little
        return round(PAD + (WIDTH - 2 * PAD) * (h.day - first).days / span, 1)

    def y(v: float) -> float:
        return round(HEIGHT - PAD - (HEIGHT - 2 * PAD) * (v - bottom) / (top - bottom), 1)

    xs = [x(i, h) for i, h in enumerate(history)]
    dots = tuple(Dot(xs[i], y(h.ordinal), h.day, h.event, h.ordinal) for i, h in enumerate(history))
    line = " ".join(f"{d.x},{d.y}" for d in dots)
    mean = " ".join(f"{xs[i]},{y(h.mu)}" for i, h in enumerate(history))
    upper = [f"{xs[i]},{y(h.mu + 2 * h.sigma)}" for i, h in enumerate(history)]
    lower = [f"{xs[i]},{y(h.mu - 2 * h.sigma)}" for i, h in enumerate(history)]
    return Chart(
        WIDTH,
        HEIGHT,
        line,
        mean,
        " ".join(upper + lower[::-1]),
        dots,
        round(top, 1),
        round(bottom, 1),
        first,
        last,
    )
