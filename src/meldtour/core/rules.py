"""The rule set: every option of docs/rules.md as one frozen dataclass, and the presets.

>>> find_rules("korea-official").turn_seconds
40
>>> find_rules("japan").pool_out
'immediate'
>>> house = RuleSet.from_toml('preset = "krc-2015"\\njoker_penalty = 30\\n')
>>> house.joker_penalty, house.turn_seconds
(30, 60)
>>> RULE_PRESETS["japan"].title
'Japanese championship and monthly events (2009)'
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args, get_origin, get_type_hints

from .penalties import PENALTIES, PenaltyPolicy
from .refusal import Refused, register

FailedTurn = Literal["keep_completed", "revert"]
IllegalEnd = Literal["refuse", "penalise"]
PoolOut = Literal["continue", "one_more_round", "immediate"]
TieRule = Literal["nearest_start", "fewest_tiles"]
RedealWindow = Literal["none", "before_game", "first_turn"]
SeatDraw = Literal["highest_starts", "order_by_draw"]
DrawnJoker = Literal["best", "redraw"]
JokerRetrieval = Literal["free", "replace"]
MatchRanking = Literal["wins", "league", "points"]


register(
    {
        "rules.not_a_choice": "rule %(name)s = %(value)r is not one of: %(choices)s",
        "rules.not_whole": "rule %(name)s must be a whole number, got %(value)r",
        "rules.not_bool": "rule %(name)s must be true or false, got %(value)r",
        "rules.not_text": "rule %(name)s must be text, got %(value)r",
        "rules.turn_seconds": "rule turn_seconds must be positive",
        "rules.restart_seconds": "rule restart_seconds must be positive",
        "rules.hand_size": "rule hand_size must be between 1 and 26",
        "rules.negative": "rule %(name)s cannot be negative",
        "rules.unknown_options": "unknown rule option(s): %(names)s",
        "rules.bad_toml": "house rules are not valid TOML: %(error)s",
        "rules.unknown_preset": "unknown rules preset %(name)r: choose one of %(presets)s or give "
        "a house-rules TOML file",
    }
)


class RulesError(Refused):
    """A rule set that cannot be built: unknown preset, unknown key, bad value."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Every rule option. Field comments name the seed each default comes from."""

    name: str = "standard"
    #: Seconds per turn (000/002/003/004: 60; 001: 40).
    turn_seconds: int = 60
    #: Seconds before the end of a turn at which the clock warns (the online table's
    #: warning sound, the table clock's last seconds).
    turn_warning_seconds: int = 10
    #: Seconds a player who forgot to start the timer gets from the moment it is
    #: noticed (004: 30).
    restart_seconds: int = 30
    #: What a failed turn does to the board (docs/rules.md, "The clock and failed turns").
    failed_turn: FailedTurn = "revert"
    #: Tiles drawn after a failed turn (3; 004: 1).
    failed_turn_draw: int = 3
    #: Penalty points for a failed turn (004: 50, written as × on the sheet).
    failed_turn_points: int = 0
    #: How the points of a player's 1st, 2nd, … failed turn in a game are counted from
    #: ``failed_turn_points`` (a name in :data:`meldtour.core.penalties.PENALTIES`:
    #: ``flat``, each the same; ``rising``, the n-th n times as many).
    penalty: str = "flat"
    #: Whether ending a turn with an illegal board is refused or penalised (004).
    illegal_end: IllegalEnd = "refuse"
    #: Points a joker left on the rack adds to the rack's total (30/50/100).
    joker_penalty: int = 30
    #: Flat score of a player who never made the initial meld.
    no_meld_penalty: int = 100
    #: Flat score of a player who could have melded and chose not to.
    could_meld_penalty: int = 200
    #: What happens when the pool runs out (docs/rules.md, "The end of the game").
    pool_out: PoolOut = "continue"
    #: Who wins a tie for the lowest rack (docs/rules.md, "The end of the game"; 004:
    #: nearest the starting player).
    tie_rule: TieRule = "nearest_start"
    #: When a hand with enough doubles may demand a new deal (docs/rules.md, "Setting up
    #: a game").
    redeal: RedealWindow = "none"
    #: How many doubles give the redeal right.
    redeal_doubles: int = 3
    #: Highest draw starts and play goes clockwise, or the whole order follows the draw.
    seat_draw: SeatDraw = "highest_starts"
    #: A joker drawn for seat order is the best draw, or is drawn again.
    drawn_joker: DrawnJoker = "redraw"
    #: Whether a joker may leave its meld freely or only when replaced (docs/rules.md,
    #: "A turn").
    joker_retrieval: JokerRetrieval = "free"
    #: Value the initial meld must reach (docs/rules.md, "A turn").
    initial_meld: int = 30
    #: Allow runs that wrap 13-1 ("American" rule of 002).
    wrap_runs: bool = False
    #: Add other players' penalty points to the winner's score (004: no).
    penalty_to_winner: bool = False
    #: How a match across several games is ranked (docs/rules.md, "A match over several
    #: games").
    match_ranking: MatchRanking = "wins"
    #: Points a win is worth in league ranking (004: 100).
    league_win_points: int = 100
    #: Tiles dealt to each player.
    hand_size: int = 14

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            v = getattr(self, name)
            if v not in choices:
                raise RulesError(
                    "rules.not_a_choice", name=name, value=v, choices=", ".join(map(repr, choices))
                )
        for name, typ in _SCALARS.items():
            v = getattr(self, name)
            if typ is int and (not isinstance(v, int) or isinstance(v, bool)):
                raise RulesError("rules.not_whole", name=name, value=v)
            if typ is bool and not isinstance(v, bool):
                raise RulesError("rules.not_bool", name=name, value=v)
            if typ is str and not isinstance(v, str):
                raise RulesError("rules.not_text", name=name, value=v)
        if self.penalty not in PENALTIES:
            raise RulesError(
                "rules.not_a_choice",
                name="penalty",
                value=self.penalty,
                choices=", ".join(map(repr, PENALTIES)),
            )
        if self.turn_seconds <= 0:
            raise RulesError("rules.turn_seconds")
        if self.restart_seconds <= 0:
            raise RulesError("rules.restart_seconds")
        if not 1 <= self.hand_size <= 26:
            raise RulesError("rules.hand_size")
        for name in (
            "turn_warning_seconds",
            "failed_turn_draw",
            "failed_turn_points",
            "joker_penalty",
            "no_meld_penalty",
            "could_meld_penalty",
            "initial_meld",
            "league_win_points",
            "redeal_doubles",
        ):
            if getattr(self, name) < 0:
                raise RulesError("rules.negative", name=name)

    @property
    def penalty_policy(self) -> PenaltyPolicy:
        """The penalty policy this rule set names (core/penalties.py)."""
        return PENALTIES[self.penalty]

    def failed_turn_penalty(self, n: int) -> int:
        """The points of a player's n-th failed turn in a game (n from 1)."""
        return self.penalty_policy.points(n, self.failed_turn_points)

    def replace(self, **changes: Any) -> RuleSet:
        unknown = set(changes) - FIELD_NAMES
        if unknown:
            raise RulesError("rules.unknown_options", names=", ".join(sorted(unknown)))
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> RuleSet:
        """A preset named by ``preset`` (default ``standard``) with the options given."""
        data = dict(data)
        base = find_rules(str(data.pop("preset", "standard")))
        if "name" not in data:
            data["name"] = f"{base.name} (house)"
        return base.replace(**data)

    @staticmethod
    def from_toml(text: str) -> RuleSet:
        """A house rule set: ``preset = "krc-2015"`` then the options it changes."""
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RulesError("rules.bad_toml", error=str(exc)) from None
        return RuleSet.from_dict(data)


_HINTS: Final = get_type_hints(RuleSet)
_CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    name: get_args(hint) for name, hint in _HINTS.items() if get_origin(hint) is Literal
}
_SCALARS: Final[dict[str, type]] = {
    name: hint for name, hint in _HINTS.items() if hint in (int, bool, str)
}
FIELD_NAMES: Final = frozenset(_HINTS)


@dataclass(frozen=True, slots=True)
class Preset:
    """A rule preset: its rules and its words, a title and a description, in English
    (the web's catalogs translate them; a preset without a title shows its name)."""

    rules: RuleSet
    title: str = ""
    description: str = ""

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def heading(self) -> str:
        """The title, or the name when the preset has no title."""
        return self.title or self.name


#: The four presets (docs/rules.md, "Presets"). Each number is a field, so a house preset
#: can change it.
#: A fifth preset is one more entry here (and its title in the catalogs).
RULE_PRESETS: Final[dict[str, Preset]] = {
    p.name: p
    for p in (
        Preset(
            RuleSet(
                name="krc-2015",
                turn_seconds=60,
                failed_turn="keep_completed",
                failed_turn_draw=3,
                illegal_end="refuse",
                joker_penalty=50,
                pool_out="continue",
                redeal="before_game",
                seat_draw="highest_starts",
                drawn_joker="best",
                match_ranking="wins",
            ),
            "Korea Rummikub Championship, Busan 2015",
        ),
        Preset(
            RuleSet(
                name="korea-official",
                turn_seconds=40,
                failed_turn="keep_completed",
                failed_turn_draw=3,
                illegal_end="refuse",
                joker_penalty=100,
                pool_out="one_more_round",
                redeal="before_game",
                seat_draw="highest_starts",
                drawn_joker="best",
                match_ranking="wins",
            ),
            "Korean official tournament rules",
        ),
        Preset(
            RuleSet(
                name="standard",
                turn_seconds=60,
                failed_turn="revert",
                failed_turn_draw=3,
                illegal_end="refuse",
                joker_penalty=30,
                pool_out="continue",
                redeal="none",
                seat_draw="highest_starts",
                drawn_joker="redraw",
                match_ranking="points",
            ),
            "General home rules (Sabra)",
        ),
        Preset(
            RuleSet(
                name="japan",
                turn_seconds=60,
                failed_turn="revert",
                failed_turn_draw=1,
                failed_turn_points=50,
                illegal_end="penalise",
                joker_penalty=50,
                pool_out="immediate",
                redeal="first_turn",
                seat_draw="order_by_draw",
                drawn_joker="best",
                match_ranking="wins",
            ),
            "Japanese championship and monthly events (2009)",
        ),
    )
}
#: The presets' rule sets by name.
PRESETS: Final[dict[str, RuleSet]] = {name: p.rules for name, p in RULE_PRESETS.items()}


def find_rules(name: str) -> RuleSet:
    """A preset by name; the error lists the names there are."""
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError("rules.unknown_preset", name=name, presets=", ".join(PRESETS)) from None
