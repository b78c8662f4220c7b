"""RULES.md §8: the presets match the table exactly; house rules load from TOML."""

import pytest

from meldtour.core.rules import PRESETS, RulesError, RuleSet, find_rules

# The table of RULES.md §8, column by column.
TABLE = {
    "krc-2015": dict(
        turn_seconds=60,
        failed_turn="keep_completed",
        failed_turn_draw=3,
        failed_turn_points=0,
        illegal_end="refuse",
        joker_penalty=50,
        no_meld_penalty=100,
        could_meld_penalty=200,
        pool_out="continue",
        redeal="before_game",
        seat_draw="highest_starts",
        drawn_joker="best",
        joker_retrieval="free",
        match_ranking="wins",
    ),
    "korea-official": dict(
        turn_seconds=40,
        failed_turn="keep_completed",
        failed_turn_draw=3,
        failed_turn_points=0,
        illegal_end="refuse",
        joker_penalty=100,
        no_meld_penalty=100,
        could_meld_penalty=200,
        pool_out="one_more_round",
        redeal="before_game",
        seat_draw="highest_starts",
        drawn_joker="best",
        joker_retrieval="free",
        match_ranking="wins",
    ),
    "standard": dict(
        turn_seconds=60,
        failed_turn="revert",
        failed_turn_draw=3,
        failed_turn_points=0,
        illegal_end="refuse",
        joker_penalty=30,
        no_meld_penalty=100,
        could_meld_penalty=200,
        pool_out="continue",
        redeal="none",
        seat_draw="highest_starts",
        drawn_joker="redraw",
        joker_retrieval="free",
        match_ranking="points",
    ),
    "japan": dict(
        turn_seconds=60,
        failed_turn="revert",
        failed_turn_draw=1,
        failed_turn_points=50,
        illegal_end="penalise",
        joker_penalty=50,
        no_meld_penalty=100,
        could_meld_penalty=200,
        pool_out="immediate",
        redeal="first_turn",
        seat_draw="order_by_draw",
        drawn_joker="best",
        joker_retrieval="free",
        match_ranking="wins",
    ),
}


@pytest.mark.parametrize("name", list(TABLE))
def test_presets_match_the_table(name: str) -> None:
    rules = find_rules(name)
    assert rules.name == name
    for option, expected in TABLE[name].items():
        assert getattr(rules, option) == expected, option
    # Common to every preset.
    assert rules.initial_meld == 30 and rules.wrap_runs is False
    assert rules.tie_rule == "nearest_start" and rules.hand_size == 14
    assert rules.penalty_to_winner is False


def test_there_are_exactly_four_presets() -> None:
    assert set(PRESETS) == set(TABLE)


def test_unknown_preset_lists_the_choices() -> None:
    with pytest.raises(RulesError, match="krc-2015, korea-official, standard, japan"):
        find_rules("wrc")


def test_house_rules_start_from_a_preset_and_change_options() -> None:
    rules = RuleSet.from_toml('preset = "korea-official"\nturn_seconds = 90\njoker_penalty = 25\n')
    assert rules.turn_seconds == 90 and rules.joker_penalty == 25
    assert rules.pool_out == "one_more_round"  # the rest comes from the preset
    assert rules.name == "korea-official (house)"
    named = RuleSet.from_toml('preset = "japan"\nname = "Tohoku"\nmatch_ranking = "league"\n')
    assert named.name == "Tohoku" and named.match_ranking == "league"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('preset = "krc-2015"\njokerpenalty = 30', "unknown rule option(s): jokerpenalty"),
        ('pool_out = "sometimes"', "pool_out = 'sometimes' is not one of"),
        ("turn_seconds = 0", "turn_seconds must be positive"),
        ("turn_seconds = 1.5", "turn_seconds must be a whole number"),
        ("wrap_runs = 1", "wrap_runs must be true or false"),
        ("joker_penalty = -5", "joker_penalty cannot be negative"),
        ('preset = "nope"', "unknown rules preset 'nope'"),
        ("this is not toml", "not valid TOML"),
    ],
)
def test_bad_house_rules_are_refused_with_the_key_named(text: str, message: str) -> None:
    with pytest.raises(RulesError) as exc:
        RuleSet.from_toml(text)
    assert message in str(exc.value)
