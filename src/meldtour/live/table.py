"""A table's set-up: the rules (a preset, perhaps with its own turn time), the seats
(people or computer players of a level) and whether the others watch drafts live."""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from meldtour.core.rules import PRESETS, RuleSet, find_rules
from meldtour.core.shuffle import SECRET_BITS, SECRET_SEED_FLOOR
from meldtour.core.state import Deal
from meldtour.core.tiles import format_tiles, parse_tiles
from meldtour.players.levels import LEVELS

#: Seconds a computer player waits before it moves, so that people can follow: the
#: one default of every table, quick play, arena and online round (the site's
#: ``MELDTOUR_BOT_SECONDS`` sets it, :class:`meldtour.web.config.Settings`).
BOT_DELAY: Final = 0.8

SeatKind = Literal["human", "computer"]
MIN_TURN_SECONDS = 5
MAX_TURN_SECONDS = 600
#: How many games a table's match may have (the tournament's seatings play 4).
MATCH_GAMES = (1, 2, 4)


def secret_seed() -> int:
    """A new game's seed: 256 secret bits above ``SECRET_SEED_FLOOR``, so that its
    shuffles come from the cryptographic stream (``meldtour.core.shuffle``). It stays on
    the server until the game is over: never in a frame, a page or the lobby."""
    return SECRET_SEED_FLOOR | secrets.randbits(SECRET_BITS)


@dataclass(frozen=True, slots=True)
class SeatConfig:
    kind: SeatKind = "human"
    #: A computer player's level (``players.levels.LEVELS``).
    level: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("human", "computer"):
            raise ValueError(f"a seat is human or computer, not {self.kind!r}")
        if self.kind == "computer" and self.level not in LEVELS:
            raise ValueError(
                f"unknown player level {self.level!r}: choose one of {', '.join(LEVELS)}"
            )


@dataclass(frozen=True, slots=True)
class TableConfig:
    rules: RuleSet
    seats: tuple[SeatConfig, ...]
    seed: int = 0
    #: Whether the others see the player's draft as it changes (as at a real table).
    watch_drafts: bool = False
    #: A given deal (teaching positions, tests) instead of the shuffle.
    deal: Deal | None = None
    #: Seconds a computer player waits before it moves, so that people can follow.
    bot_delay: float = BOT_DELAY
    #: Under rules whose redeal is demanded before the game starts, a computer player
    #: to move first waits this long, so that a person holding enough doubles has time
    #: to demand the redeal (it waits whoever holds what: the wait tells nobody anything).
    redeal_grace: float = 5.0
    #: Whether a person at the table may ask for a hint (the solver's best play): the
    #: lobby's tables offer it unless the host turns it off.
    hints: bool = False
    #: A tournament's table: never a hint, whatever ``hints`` says.
    tournament: bool = False
    #: The games of the table's match (1, 2 or 4: the tournament's "seating"), and the
    #: match's games played before this one (their ids in the log, which keeps their
    #: results: the running total survives a restart).
    match_games: int = 1
    match_before: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not 2 <= len(self.seats) <= 4:
            raise ValueError(f"a table has 2 to 4 seats, not {len(self.seats)}")
        if self.match_games not in MATCH_GAMES:
            raise ValueError(f"a match is 1, 2 or 4 games, not {self.match_games}")
        if len(self.match_before) >= self.match_games:
            raise ValueError(f"no game {len(self.match_before) + 1} in {self.match_games}")

    @staticmethod
    def make(
        preset: str,
        seats: list[SeatConfig],
        *,
        turn_seconds: int | None = None,
        seed: int = 0,
        **options: Any,
    ) -> TableConfig:
        rules = find_rules(preset)
        if turn_seconds is not None:
            if not MIN_TURN_SECONDS <= turn_seconds <= MAX_TURN_SECONDS:
                raise ValueError(
                    f"the turn time is {MIN_TURN_SECONDS} to "
                    f"{MAX_TURN_SECONDS} seconds, not {turn_seconds}"
                )
            rules = dataclasses.replace(rules, turn_seconds=turn_seconds)
        return TableConfig(rules, tuple(seats), seed, **options)

    @property
    def humans(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.kind == "human"]

    def free_seats(self, keys: Sequence[str | None]) -> list[int]:
        """The person seats nobody has taken, given each seat's token hash."""
        return [i for i in self.humans if keys[i] is None]

    def rules_json(self) -> Any:
        return (
            self.rules.name if PRESETS.get(self.rules.name) == self.rules else self.rules.to_dict()
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules_json(),
            "seats": [{"kind": s.kind, "level": s.level} for s in self.seats],
            "seed": self.seed,
            "watch_drafts": self.watch_drafts,
            "bot_delay": self.bot_delay,
            "redeal_grace": self.redeal_grace,
            "hints": self.hints,
            "tournament": self.tournament,
        }
        if self.match_games != 1:
            out["match"] = {"games": self.match_games, "before": list(self.match_before)}
        if self.deal is not None:
            out["deal"] = {
                "racks": [format_tiles(r) for r in self.deal.racks],
                "pool": format_tiles(self.deal.pool),
                "first": self.deal.first,
            }
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> TableConfig:
        spec = data["rules"]
        rules = find_rules(spec) if isinstance(spec, str) else RuleSet.from_dict(dict(spec))
        deal = None
        if data.get("deal") is not None:
            d = data["deal"]
            deal = Deal(
                tuple(parse_tiles(r) for r in d["racks"]), parse_tiles(d["pool"]), int(d["first"])
            )
        return TableConfig(
            rules,
            tuple(SeatConfig(s["kind"], s.get("level")) for s in data["seats"]),
            int(data.get("seed", 0)),
            bool(data.get("watch_drafts", False)),
            deal,
            float(data.get("bot_delay", BOT_DELAY)),
            float(data.get("redeal_grace", 5.0)),
            bool(data.get("hints", False)),
            bool(data.get("tournament", False)),
            int(data.get("match", {}).get("games", 1)),
            tuple(str(g) for g in data.get("match", {}).get("before", ())),
        )
