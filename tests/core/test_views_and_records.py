"""What a player may see, and the game record that replays a game."""

from __future__ import annotations

import json

import pytest

from meldtour.core.game import apply, new_game
from meldtour.core.moves import Draft, Draw, Play
from meldtour.core.record import RecordError, read_record, record_of, replay
from meldtour.core.rules import find_rules
from meldtour.core.tiles import format_tiles
from meldtour.core.views import event_for, player_view

from .helpers import board, dealt


def test_a_player_view_holds_no_other_rack_and_no_pool_order() -> None:
    progress = new_game(find_rules("krc-2015"), ["A", "B", "C", "D"], seed=3)
    state = progress.state
    for seat in range(4):
        view = player_view(state, seat)
        text = json.dumps(view.to_json())
        assert view.rack == state.racks[seat]
        assert view.rack_sizes == (14, 14, 14, 14) and view.pool_left == 50
        assert "pool" not in {k for k in view.to_json() if k != "pool_left"}
        for other in range(4):
            if other != seat:
                # Not one of another player's racks appears as that rack.
                assert json.dumps(format_tiles(state.racks[other])) not in text
        for event in progress.events:
            seen = event_for(event, seat)
            if seen is not None and seen.private is not None:
                assert seen.seat == seat
    spectator = player_view(state, None)
    assert spectator.rack == () and spectator.draft is None


def test_a_draft_is_shown_to_its_owner_only() -> None:
    state = dealt(
        "krc-2015", "r7 k1", "k3", pool="o1 o2", board_melds=board("r4 r5 r6"), melded=(True, True)
    )
    progress = apply(state, Draft(0, board("r4 r5 r6 r7")))
    assert player_view(progress.state, 0).draft == board("r4 r5 r6 r7")
    assert player_view(progress.state, 1).draft is None
    assert event_for(progress.events[0], 1) is None


def test_a_drawn_tile_is_private_to_the_drawer() -> None:
    state = dealt("krc-2015", "k1", "k2", pool="o1 o2")
    event = next(e for e in apply(state, Draw(0)).events if e.kind == "draw")
    assert event_for(event, 0) == event
    hidden = event_for(event, 1)
    assert hidden is not None and hidden.private is None and hidden.data["count"] == 1


def test_a_hand_written_record_with_a_deal_replays() -> None:
    record = {
        "rules": "krc-2015",
        "players": ["A", "B"],
        "seed": 1,
        "deal": {
            "racks": [["k10", "k11", "k12", "r1"], ["b1", "b2"]],
            "pool": ["o5", "o6", "o7"],
            "first": 0,
        },
        "moves": [
            {"seat": 0, "action": "play", "board": [["k10", "k11", "k12"]]},
            {"seat": 1, "action": "draw"},
            {"seat": 0, "action": "draw"},
        ],
    }
    state = replay(read_record(record))
    summary = state.summary()
    assert summary["board"] == [["k10", "k11", "k12"]]
    assert summary["racks"] == [["r1", "o6"], ["b1", "b2", "o5"]]
    assert summary["pool_left"] == 1 and summary["end"] is None and summary["scores"] is None
    assert replay(read_record(record_of(state))) == state


def test_a_refused_move_names_its_index_and_why() -> None:
    record = {
        "rules": "krc-2015",
        "players": ["A", "B"],
        "seed": 1,
        "deal": {"racks": [["k8", "r8", "o8"], ["b1"]], "pool": ["o5"], "first": 0},
        "moves": [{"seat": 0, "action": "play", "board": [["k8", "r8", "o8"]]}],
    }
    with pytest.raises(RecordError, match=r"move 0 \(play by seat 0\): the initial meld is wor"):
        replay(read_record(record))
    after_end = {
        "rules": "japan",
        "players": ["A", "B"],
        "seed": 1,
        "deal": {"racks": [["k1"], ["b1"]], "pool": ["o5"], "first": 0},
        "moves": [{"seat": 0, "action": "draw"}, {"seat": 1, "action": "draw"}],
    }
    with pytest.raises(RecordError, match=r"move 1 .*game is over"):
        replay(read_record(after_end))


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"players": ["A"]}, "2 to 4 players"),
        ({"players": ["A", "B"], "moves": [{"seat": 0, "action": "fly"}]}, "unknown action 'fly'"),
        (
            {"players": ["A", "B"], "moves": [{"seat": 0, "action": "play"}]},
            "needs the whole board",
        ),
        ({"players": ["A", "B"], "moves": [{"seat": "0", "action": "draw"}]}, "seat must be"),
        ({"players": ["A", "B"], "rules": "nope"}, "unknown rules preset"),
        ({"players": ["A", "B"], "colour": 1}, "unknown record field"),
        ({"players": ["A", "B"], "deal": {"racks": [["x1"], []]}}, "bad tile 'x1'"),
    ],
)
def test_bad_records_are_refused_clearly(record: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        replay(read_record(record))


def test_house_rules_travel_inside_the_record() -> None:
    rules = find_rules("standard").replace(joker_penalty=42, name="club")
    state = new_game(rules, ["A", "B"], 9).state
    state = apply(state, Draw(state.current)).state
    data = record_of(state)
    assert isinstance(data["rules"], dict) and data["rules"]["joker_penalty"] == 42
    assert replay(read_record(json.loads(json.dumps(data)))) == state


def test_play_event_carries_the_board() -> None:
    state = dealt("krc-2015", "k10 k11 k12 r1", "b1", pool="o1")
    events = apply(state, Play(0, board("k10 k11 k12"))).events
    assert any(e.kind == "play" and e.data["board"] == [["k10", "k11", "k12"]] for e in events)


def test_a_view_round_trips_through_json() -> None:
    from meldtour.core.views import view_from_json

    state = new_game(find_rules("japan"), ["A", "B", "C"], seed=5).state
    state = apply(state, Draw(state.current)).state
    for seat in (0, 1, 2, None):
        view = player_view(state, seat)
        assert view_from_json(json.loads(json.dumps(view.to_json())), state.rules) == view


def test_the_views_parts_make_every_seats_view() -> None:
    """A move's views are made from the part every seat sees alike and each seat's own
    (the live games encode the first once): together they are the seat's view, for
    every seat and a spectator, at every state of random games."""
    import random

    from meldtour.core.game import IllegalMove
    from meldtour.core.views import own_view_json, public_view_json
    from meldtour.solver import finder

    from .randomplay import random_move

    for seed in range(4):
        rng = random.Random(seed)
        state = new_game(find_rules("standard"), ["A", "B", "C", "D"][: 2 + seed % 3], seed).state
        for _ in range(400):
            for seat in (None, *range(state.seats)):
                whole = player_view(state, seat).to_json()
                assert {**public_view_json(state), **own_view_json(state, seat)} == whole
            if state.end is not None:
                break
            try:
                # The live games' finder (the compiled solver): the core's own search
                # answers "could this pass have played?" on a large board in minutes.
                state = apply(state, random_move(state, rng), finder=finder).state
            except IllegalMove:
                continue
