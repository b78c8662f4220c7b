"""Printable material: score sheets with a QR code, seat lists, standings and
certificates, in Korean, Japanese and English — PDFs that open and say the right things."""

from __future__ import annotations

import io
import random
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from meldtour.core.rules import find_rules
from meldtour.tournament import (
    Division,
    StageFormat,
    Tournament,
    check_in,
    close_round,
    enter_table_game,
    register,
    seat_round,
    start_division,
    start_stage,
    submit_table,
)
from meldtour.tournament.simulate import plausible_game, play_round
from meldtour.web import pdf

KRC = find_rules("krc-2015")
JAPAN = find_rules("japan")


def club(rules_name: str = "krc-2015") -> Tournament:
    rules = find_rules(rules_name)
    div = Division(
        "open",
        "오픈부 Open",
        16,
        rules,
        (
            StageFormat("seatings", games=2, seatings=1, name="예선"),
            StageFormat("final", games=1, entrants=4, name="결승"),
        ),
    )
    t = Tournament("부산 클럽 대회", "2026-12-05", (div,), seed=7)
    names = [
        "김민지",
        "이서준",
        "박지우",
        "최하은",
        "山田太郎",
        "佐藤花子",
        "Alice",
        "Bob",
        "정우진",
        "강수정",
        "鈴木一郎",
        "Carol",
    ]
    for name in names:
        t = register(t, "open", name).tournament
    for r in t.registrations:
        t = check_in(t, r.player).tournament
    t = start_division(t, "open").tournament
    t = start_stage(t, "open").tournament
    return t


def text_of(data: bytes) -> str:
    reader = PdfReader(io.BytesIO(data))
    # pypdf reads this font's two-byte code points with a NUL before each character
    # (pdftotext reads them cleanly): drop the NULs.
    return "\n".join(page.extract_text() for page in reader.pages).replace("\x00", "")


def test_blank_score_sheets_one_page_a_table_with_qr_and_names() -> None:
    t = seat_round(club(), "open").tournament
    data = pdf.score_sheets(t, "open", 0, 1, "ko", table_url=lambda n: f"https://x.test/t/{n}")
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 3  # 12 players, 3 tables
    text = text_of(data)
    assert "김민지" in text and "山田太郎" in text and "Alice" in text
    assert "예선 · 1라운드 · 3번 테이블" in text
    assert "점수 입력" in text  # the QR code's caption
    assert all(page.images for page in reader.pages)  # one QR code a page


def test_entered_points_and_japan_penalties_are_printed() -> None:
    t = seat_round(club("japan"), "open").tournament
    table = t.division("open").stages[0].rounds[0].tables[0]
    rng = random.Random(3)
    game = plausible_game(rng, len(table.players), JAPAN)
    penalties = (50,) + (0,) * (len(table.players) - 1)
    t, _, problems = enter_table_game(
        t,
        "open",
        1,
        table.number,
        1,
        game.points,
        winner=game.winner,
        penalties=penalties,
        who="ref",
    )
    assert not problems
    text = text_of(pdf.score_sheets(t, "open", 0, 1, "ja", tables=[table.number]))
    assert "×" in text and "ペナルティ" in text
    winner_points = game.points[game.winner - 1]
    assert f"+{winner_points}" in text


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("ko", ["순위", "승수", "컷 라인"]),
        ("ja", ["順位", "勝ち数", "カットライン"]),
        ("en", ["Rank", "Wins", "cut line"]),
    ],
)
def test_standings_with_the_cut_line(locale: str, words: list[str]) -> None:
    t = club()
    while not t.division("open").stages[-1].finished:
        t = play_round(t, "open", 5).tournament
    text = text_of(pdf.standings_pdf(t, "open", locale, cut=4))
    for word in words:
        assert word in text, word


def test_seat_list_and_table_cards() -> None:
    t = seat_round(club(), "open").tournament
    data = pdf.seat_list(t, "open", 0, 1, "en")
    assert len(PdfReader(io.BytesIO(data)).pages) == 1 + 3
    text = text_of(data)
    assert "Table 3" in text and "Seat 1" in text and "박지우" in text


def test_certificates_after_the_final() -> None:
    t = club()
    while not t.division("open").stages[-1].finished:
        t = play_round(t, "open", 9).tournament
    t = start_stage(t, "open").tournament
    t = seat_round(t, "open").tournament
    game = plausible_game(random.Random(1), 4, KRC)
    t = enter_table_game(t, "open", 1, 1, 1, game.points, winner=game.winner, who="ref").tournament
    t = submit_table(t, "open", 1, 1, who="ref").tournament
    t = close_round(t, "open").tournament
    data = pdf.certificates(t, "open", "ko")
    assert len(PdfReader(io.BytesIO(data)).pages) == 4
    text = text_of(data)
    assert "상장" in text and "1위" in text and "부산 클럽 대회" in text


def test_a_score_sheet_renders(tmp_path: Path) -> None:
    t = seat_round(club(), "open").tournament
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf.score_sheets(t, "open", 0, 1, "ko", lambda n: f"https://x.test/{n}"))
    subprocess.run(
        ["pdftoppm", "-png", "-r", "40", "-f", "1", "-l", "1", str(path), str(tmp_path / "page")],
        check=True,
        timeout=60,
    )
    assert list(tmp_path.glob("page*.png"))
