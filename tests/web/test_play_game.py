"""The acceptance game (issue 8): Playwright with Debian's Chromium plays a complete
game — two people in two browser contexts (Ann in English, 보라 in Korean) and two
computer players — from the deal to the score, every move of the people made by drag
and drop; one refused move is shown with its reason, one time-out with its penalty.

The people play what the test computes with the solver from what their page shows
(:func:`person_play`: the initial meld as soon as there is one, then new melds from the
rack and tiles added to the ends of melds on the table — the ``beginner`` way, so that
every play is a handful of drags). The deal is the seed's (krc-2015, seed 296), the
computer players are ``greedy``: everything is determined, so the test first plays the
same game with the engine alone and then checks that the browsers played exactly it.
The turn lasts 10 s, a real clock: 보라's first turn runs out with a lone tile on the
table (the tile goes back, three penalty tiles are drawn).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")

from meldtour.core.game import apply, new_game  # noqa: E402
from meldtour.core.melds import Meld, parse_board  # noqa: E402
from meldtour.core.moves import Draw, Move, Pass, Play, Timeout  # noqa: E402
from meldtour.core.rules import find_rules  # noqa: E402
from meldtour.core.state import GameState  # noqa: E402
from meldtour.core.tiles import format_tiles, parse_tiles  # noqa: E402
from meldtour.core.views import player_view  # noqa: E402
from meldtour.live import LiveServer, SeatConfig, TableConfig  # noqa: E402
from meldtour.players.beginner import extend_melds  # noqa: E402
from meldtour.players.levels import make_player  # noqa: E402
from meldtour.solver import finder, solve  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402

from .browser import ARGS, CHROMIUM, drag, serve  # noqa: E402

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is missing")

RULES = find_rules("krc-2015")
SEED = 296
TURN = 10
PEOPLE = (0, 1)
NAMES = ("Ann", "보라")
LANGS = ("en", "ko")
#: 보라 (seat 1) starts under this seed; her first turn is the one that runs out.
TIMEOUT_SEAT = 1


def person_play(board: list[list[str]], rack: list[str], melded: bool) -> list[list[str]] | None:
    """The whole table after the person's play, or None to draw."""
    melds = parse_board(board)
    tiles = parse_tiles(rack)
    if not melded:
        found = solve(melds, tiles, RULES, False)
        return [list(format_tiles(m.tiles)) for m in found.board] if found.placed else None
    own = solve((), tiles, RULES, True)
    new, left = extend_melds((*melds, *own.board), list(own.rack_left), RULES.wrap_runs)
    if len(left) == len(tiles):
        return None
    return [list(format_tiles(m.tiles)) for m in new]


def expected_game() -> GameState:
    """The same game played by the engine alone: the people by :func:`person_play`,
    the time-out as the browser makes it, the computer players as the server runs them."""
    state = new_game(RULES, ["a", "b", "c", "d"], SEED).state
    bots = {s: make_player("greedy", "", SEED + s) for s in (2, 3)}
    timed_out = False
    while state.end is None:
        seat = state.current
        move: Move
        if seat == TIMEOUT_SEAT and not timed_out:
            timed_out = True
            move = Timeout(seat, (*state.board, Meld((state.racks[seat][0],))))
        elif seat in PEOPLE:
            after = person_play(
                [list(format_tiles(m.tiles)) for m in state.board],
                list(format_tiles(state.racks[seat])),
                state.melded[seat],
            )
            move = (
                Play(seat, parse_board(after))
                if after is not None
                else Draw(seat)
                if state.pool
                else Pass(seat)
            )
        else:
            move = bots[seat].decide(player_view(state, seat))
        state = apply(state, move, finder=finder).state
    return state


# ---------------------------------------------------------------- the page, read and played


def table_of(page: Any) -> tuple[list[list[str]], list[str]]:
    board = page.eval_on_selector_all(
        "#board .meld",
        "ms => ms.map(m => [...m.querySelectorAll('.tile')].map(t => t.dataset.tile))",
    )
    rack = page.eval_on_selector_all("#rack .tile", "ts => ts.map(t => t.dataset.tile)")
    return board, rack


def rack_tile(page: Any, t: str) -> Any:
    return page.locator(f'#rack .tile[data-tile="{t}"]').first


def lay_down(page: Any, board: list[list[str]], target: list[list[str]]) -> None:
    """Drag rack tiles until the page's table is ``target``: tiles added at either end
    of the melds already there, then each new meld started on the drop zone and built
    tile by tile at its end."""
    for i, (old, new) in enumerate(zip(board, target, strict=False)):
        at = next((k for k in range(len(new) - len(old) + 1) if new[k : k + len(old)] == old), None)
        assert at is not None, f"meld {i} {old} is not kept in {new}: not a beginner's play"
        for t in reversed(new[:at]):
            drag(page, rack_tile(page, t), page.locator("#board .meld").nth(i), at="start")
        for t in new[at + len(old) :]:
            drag(page, rack_tile(page, t), page.locator("#board .meld").nth(i), at="end")
    for meld in target[len(board) :]:
        drag(page, rack_tile(page, meld[0]), page.locator("#board .new-meld"))
        for t in meld[1:]:
            drag(page, rack_tile(page, t), page.locator("#board .meld").last, at="end")
    shown, _ = table_of(page)
    assert shown == target, f"the page shows {shown}, the play is {target}"


def wait_until(check: Any, timeout: float, what: str) -> Any:
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.03)


def test_a_complete_game_in_two_browsers() -> None:
    expected = expected_game()
    assert expected.end == "out" and len(expected.history) <= 12
    app = create_app(Settings(env="test"))
    live = LiveServer()
    app.state.live = live
    live.create_table(
        TableConfig.make(
            "krc-2015",
            [
                SeatConfig("human"),
                SeatConfig("human"),
                SeatConfig("computer", "greedy"),
                SeatConfig("computer", "greedy"),
            ],
            seed=SEED,
            turn_seconds=TURN,
            bot_delay=0.2,
        ),
        "final",
    )
    game = live.get("final")
    assert game is not None
    expect = playwright_api.expect
    started = time.monotonic()
    with serve(app) as base, playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            pages = []
            for seat, (name, lang) in enumerate(zip(NAMES, LANGS, strict=True)):
                context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale=lang)
                page = context.new_page()
                page.set_default_timeout(15_000)
                page.goto(f"{base}/play/t/final?lang={lang}")
                form = page.locator("#seats li").nth(seat).locator("form")
                form.locator("input[name=name]").fill(name)
                form.locator("button").click()
                pages.append(page)
            ann, bora = pages
            expect(ann.locator("#game")).to_be_visible()
            expect(bora.locator("#turn")).to_have_text("내 차례")  # 보라 starts
            expect(ann.locator("#players li")).to_have_count(4)
            expect(ann.locator("#pool")).to_have_text("Pool: 50")

            refused = timed_out = False
            while not game.over:
                state = game.state
                assert state is not None
                seat, version = state.current, game.version
                if seat not in PEOPLE:
                    time.sleep(0.03)
                    continue
                page = pages[seat]
                expect(page.locator(f'#game[data-version="{version}"]')).to_have_count(1)
                expect(page.locator("#turn")).to_have_class("turn mine")
                board, rack = table_of(page)
                if seat == TIMEOUT_SEAT and not timed_out:
                    # A lone tile on the table, and the clock runs out.
                    timed_out = True
                    drag(page, page.locator("#rack .tile").first, page.locator(".new-meld"))
                    expect(page.locator("#board .meld")).to_have_count(len(board) + 1)
                    expect(page.locator("#clock.warning")).to_be_visible(timeout=TURN * 1000)
                    expect(page.locator("#events li[data-kind=timeout]")).to_have_text(
                        "보라의 시간이 다 되었습니다", timeout=(TURN + 5) * 1000
                    )
                    # ... and which three, drawn as tiles named in words, to her alone.
                    drew = page.locator("#events li[data-kind=draw]").last
                    expect(drew).to_contain_text("보라: 벌칙으로 가져온 타일")
                    expect(drew.locator(".tile")).to_have_count(3)
                    words = drew.locator(".tile").first.get_attribute("aria-label") or ""
                    assert re.fullmatch(r"(?:(?:검정|빨강|주황|파랑) \d+|조커)", words), words
                    expect(ann.locator("#events li[data-kind=draw]").first).to_have_text(
                        "보라 drew 3 penalty tiles"
                    )
                    expect(page.locator("#notice")).to_be_visible()
                    expect(page.locator("#events li[data-kind=failed_turn]")).to_have_count(1)
                    expect(page.locator("#rack .tile")).to_have_count(len(rack) + 3)
                    expect(ann.locator("#players li[data-seat='1'] .count")).to_have_text(
                        f"{len(rack) + 3} tiles"
                    )
                    continue
                melded = page.locator(f"#players li[data-seat='{seat}'] .melded").count() > 0
                if seat == 0 and not refused:
                    # One tile alone on the table and Done: refused, with the reason
                    # in words; Undo puts the tile back.
                    refused = True
                    drag(page, rack_tile(page, rack[-1]), page.locator(".new-meld"))
                    page.click("#b-done")
                    expect(page.locator("#notice")).to_contain_text(
                        "has fewer than 3 tiles: a meld needs at least 3"
                    )
                    page.click("#b-undo")
                    assert table_of(page) == (board, rack)
                    assert game.version == version
                target = person_play(board, rack, melded)
                if target is None:
                    page.click("#b-draw")
                else:
                    lay_down(page, board, target)
                    page.click("#b-done")
                wait_until(lambda v=version: game.version > v, TURN, "the move to be taken")
                move = game.state.history[version] if game.state else None
                assert move is not None and move.seat == seat
                assert move.action == ("draw" if target is None else "play"), page.locator(
                    "#notice"
                ).text_content()

            final = game.state
            assert final is not None and final.scores is not None
            # The end and the score, on both pages.
            winner = final.players[final.winner] if final.winner is not None else ""
            # A computer's name in the reader's words ("greedy 3": "Greedy 3", "욕심쟁이 3").
            en, ko = (winner.replace("greedy", "Greedy"), winner.replace("greedy", "욕심쟁이"))
            expect(ann.locator("#result h2")).to_have_text(f"Winner: {en}")
            expect(bora.locator("#result h2")).to_have_text(f"승자: {ko}")
            cells = ann.eval_on_selector_all(
                "#result table.scores tr", "rs => rs.slice(1).map(r => r.cells[1].textContent)"
            )
            assert [int(c) for c in cells] == list(final.scores)
            seconds = time.monotonic() - started
            print(f"the game, from the first page to the score: {seconds:.1f} s")

            # After the game: the score page, the replay stepped with the keyboard, and
            # the analysis.
            ann.click("#to-score")
            expect(ann.locator("#scores tbody tr")).to_have_count(4)
            # The score page names the computer as the table did (issue 28).
            expect(ann.locator("#end")).to_have_text(f"{en} went out")
            ann.click("text=Replay the game")
            moves = len(final.history)
            expect(ann.locator("#where")).to_have_text("The deal")
            expect(ann.locator(".rack-row")).to_have_count(1)  # her own rack
            ann.keyboard.press("ArrowRight")
            expect(ann.locator("#where")).to_have_text(f"Move 1 of {moves}")
            expect(ann.locator("#said")).to_contain_text("Time ran out for 보라")
            ann.click("#open-racks")
            expect(ann.locator(".rack-row")).to_have_count(4)
            ann.keyboard.press("End")
            expect(ann.locator("#where")).to_have_text(f"Move {moves} of {moves}")
            ann.click("text=Analysis")
            expect(ann.locator("#turns tbody tr")).to_have_count(moves)
        finally:
            browser.close()

    # The browsers played exactly the game the engine plays alone.
    assert [(m.seat, m.action) for m in final.history] == [
        (m.seat, m.action) for m in expected.history
    ]
    assert final.scores == expected.scores and final.end == expected.end
    actions = [(m.seat, m.action) for m in final.history]
    assert (1, "timeout") in actions and (0, "play") in actions and (1, "play") in actions
    assert seconds < 60, f"the game took {seconds:.0f} s"
