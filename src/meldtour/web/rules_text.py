"""The rule set in words a player understands, in the reader's language."""

from __future__ import annotations

from collections.abc import Callable

from meldtour.core.rules import RULE_PRESETS, RuleSet

from .i18n import N_

#: Each preset's own title (its name when it has none), to translate where shown.
PRESET_TITLES: dict[str, str] = {name: p.heading for name, p in RULE_PRESETS.items()}

_FAILED = {
    "keep_completed": N_("Completed melds stay, the other tiles go back; draw %(n)d"),
    "revert": N_("The board goes back as it was; draw %(n)d"),
}
_ILLEGAL = {
    "refuse": N_("Refused: the clock runs on"),
    "penalise": N_("A failed turn"),
}
_POOL = {
    "continue": N_(
        "Play goes on: every player must put down a tile, and the first who cannot ends the game"
    ),
    "one_more_round": N_(
        "Everyone has one more turn, ending with the player who took the last tile"
    ),
    "immediate": N_("The game ends when the last tile is drawn"),
}
_TIE = {
    "nearest_start": N_("The tied player nearest the starting player wins"),
    "fewest_tiles": N_("Fewer tiles wins, then the player nearest the starting player"),
}
_REDEAL = {
    "none": N_("No"),
    "before_game": N_("May be demanded before the game starts"),
    "first_turn": N_("May be demanded on the player's own first turn"),
}
_SEATS = {
    "highest_starts": N_("The highest draw starts, then clockwise"),
    "order_by_draw": N_("The whole turn order follows the draw, highest first"),
}
_DRAWN_JOKER = {
    "best": N_("A drawn joker is the best draw"),
    "redraw": N_("A drawn joker is drawn again"),
}
_RETRIEVAL = {
    "free": N_("Freely, as long as every meld stays valid"),
    "replace": N_("Only when the tile it stands for takes its place"),
}
_RANKING = {
    "wins": N_("Most wins, then points"),
    "league": N_("%(n)d points a win, plus points"),
    "points": N_("Points only"),
}


def describe(rules: RuleSet, _: Callable[[str], str]) -> list[tuple[str, str]]:
    """(option, setting) rows for a rule set, translated with ``_``."""
    failed = _(_FAILED[rules.failed_turn]) % {"n": rules.failed_turn_draw}
    if rules.failed_turn_points:  # the words of the rule set's penalty policy
        failed += _(rules.penalty_policy.description) % {"p": rules.failed_turn_points}
    return [
        (_("Time per turn"), _("%(n)d seconds") % {"n": rules.turn_seconds}),
        (
            _("Initial meld"),
            _("%(n)d points or more, from your own tiles") % {"n": rules.initial_meld},
        ),
        (
            _("Runs"),
            _("Runs may wrap from 13 to 1")
            if rules.wrap_runs
            else _("1 is the lowest; nothing follows 13"),
        ),
        (_("Turn order"), _(_SEATS[rules.seat_draw])),
        (_("Seat draw with a joker"), _(_DRAWN_JOKER[rules.drawn_joker])),
        (_("New deal with three doubles"), _(_REDEAL[rules.redeal])),
        (_("Taking a joker from the table"), _(_RETRIEVAL[rules.joker_retrieval])),
        (_("Time runs out with an unfinished board"), failed),
        (_("Ending a turn with an illegal board"), _(_ILLEGAL[rules.illegal_end])),
        (_("The pool runs out"), _(_POOL[rules.pool_out])),
        (_("Tie for the lowest rack"), _(_TIE[rules.tie_rule])),
        (_("Joker left on a rack"), _("%(n)d points") % {"n": rules.joker_penalty}),
        (
            _("Never made the initial meld"),
            _("−%(a)d, or −%(b)d if the player could have and did not")
            % {"a": rules.no_meld_penalty, "b": rules.could_meld_penalty},
        ),
        (
            _("Ranking over several games"),
            _(_RANKING[rules.match_ranking]) % {"n": rules.league_win_points}
            if rules.match_ranking == "league"
            else _(_RANKING[rules.match_ranking]),
        ),
    ]
