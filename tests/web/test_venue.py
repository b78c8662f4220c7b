"""The venue (issue 16): the public address the QR codes carry, the loopback warning,
seat lists by name in Korean, Japanese and alphabetical order, PDFs that fit long names
and show missing characters, certificates with their body text, and exports whose
numbers are numbers and whose column names are in the reader's language."""

from __future__ import annotations

import functools
import io
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from meldtour import application as usecases
from meldtour.application import accounts as account_uc
from meldtour.application.venue import is_loopback, normalise_address, set_public_address
from meldtour.tournament import seat_round
from meldtour.tournament.collation import by_name
from meldtour.web import pdf
from meldtour.web.address import network_addresses
from meldtour.web.app import create_app
from meldtour.web.config import Settings
from meldtour.web.director.deps import Web

from .test_director import csrf, sign_up
from .test_pdf import club, text_of

# ---------------------------------------------------------------- seat orders


def test_korean_order_is_ga_na_da() -> None:
    names = [
        "최하은",
        "김민지",
        "Alice",
        "이서준",
        "강수정",
        "박지우",
        "김민수",
        "정우진",
        "山田太郎",
        "하늘",
        "나영",
    ]
    # 가나다순 by hand: 강 < 김민수 < 김민지 < 나 < 박 < 이 < 정 < 최 < 하, then Latin, kanji.
    assert by_name(names, "ko") == [
        "강수정",
        "김민수",
        "김민지",
        "나영",
        "박지우",
        "이서준",
        "정우진",
        "최하은",
        "하늘",
        "Alice",
        "山田太郎",
    ]


def test_japanese_order_kana_by_gojuon_then_kanji() -> None:
    names = [
        "たなか",
        "サトウ",
        "あべ",
        "ｲﾄｳ",
        "がもう",
        "かとう",
        "鈴木一郎",
        "佐藤花子",
        "Bob",
        "김민지",
    ]
    # By hand: あべ, いとう (half-width katakana), かとう, がもう (voiced after plain),
    # さとう (katakana read as hiragana), たなか; kanji in code-point order (佐 U+4F50 <
    # 鈴 U+9234); then Latin, Hangul.
    assert by_name(names, "ja") == [
        "あべ",
        "ｲﾄｳ",
        "かとう",
        "がもう",
        "サトウ",
        "たなか",
        "佐藤花子",
        "鈴木一郎",
        "Bob",
        "김민지",
    ]


def test_alphabetical_order_ignores_case_and_accents() -> None:
    names = ["carol", "Émile", "Bob", "alice", "Zoë", "Eve", "김민지", "Ángel"]
    assert by_name(names, "en") == [
        "alice",
        "Ángel",
        "Bob",
        "carol",
        "Émile",
        "Eve",
        "Zoë",
        "김민지",
    ]


# ---------------------------------------------------------------- the public address


def test_addresses_normalised_and_loopback_told() -> None:
    assert normalise_address("192.168.0.12:8000") == "http://192.168.0.12:8000"
    assert normalise_address("https://[fd00::2]:8443/") == "https://[fd00::2]:8443"
    for bad, code in (
        ("ftp://x", "usecase.address_scheme"),
        ("http://", "usecase.address_host"),
        ("http://x.test/score", "usecase.address_extra"),
    ):
        with pytest.raises(usecases.UseCaseError) as e:
            normalise_address(bad)
        assert e.value.code == code
    assert is_loopback("http://localhost:8000") and is_loopback("http://[::1]")
    assert not is_loopback("http://192.0.2.2:8000")
    assert all(not is_loopback(a.ip) for a in network_addresses())


@pytest.fixture()
def local(tmp_path: Path) -> Iterator[TestClient]:
    """The app opened as the director on the laptop opens it: at 127.0.0.1."""
    settings = Settings(env="test")
    app = create_app(settings)
    app.state.director = Web(settings, url=f"sqlite:///{tmp_path / 'm.db'}")
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        sign_up(c)
        c.post("/director/demo", data={"csrf": csrf(c)})
        yield c


def decode_qr(png: Path) -> list[str]:
    out = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True, timeout=30
    )
    return out.stdout.split()


def test_loopback_warning_until_the_public_address_is_set(
    local: TestClient, tmp_path: Path
) -> None:
    page = local.get("/director/t/demo/print?lang=en").text
    assert 'id="loopback"' in page and "http://127.0.0.1:8000" in page
    address = local.get("/director/address?lang=ko").text
    assert "이 컴퓨터에서만 열리므로" in address
    for a in network_addresses():
        assert a.ip in address
    # A wrong address is refused with words, and nothing changes.
    r = local.post("/director/address?lang=en", data={"csrf": csrf(local), "address": "ftp://x"})
    assert "must start with http:// or https://" in r.text and 'id="loopback"' in r.text
    # An address of the venue's network (set by the use case: choosing it on the page
    # checks that it answers, and a test sends nothing beyond loopback; that check is
    # tests/web/test_venue_network.py's).
    store = local.app.state.director.store()  # type: ignore[attr-defined]
    boss = account_uc.find(store, "boss")
    assert boss is not None
    assert set_public_address(store, "192.0.2.2:8000/", actor=boss[0]) == "http://192.0.2.2:8000"
    assert 'id="loopback"' not in local.get("/director/t/demo/print").text
    # The score sheets' QR codes carry the public address, decoded from the printed page.
    sheets = local.get("/director/t/demo/d/general/pdf/sheets?table=1")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(sheets.content)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "150", "-f", "1", "-l", "1", str(path), str(tmp_path / "p")],
        check=True,
        timeout=60,
    )
    (png,) = tmp_path.glob("p*.png")
    (url,) = decode_qr(png)
    assert url.startswith("http://192.0.2.2:8000/score/")
    # The round page's QR codes too.
    assert "http://127.0.0.1" not in local.get("/director/t/demo/d/general/round").text
    # Cleared (from the page: nothing to check): back to the request's address, and the
    # warning is back.
    local.post("/director/address", data={"csrf": csrf(local), "address": ""})
    assert 'id="loopback"' in local.get("/director/t/demo/print").text


def test_the_check_page_says_the_phone_reached_meldtour(local: TestClient) -> None:
    r = local.get("/address/check?n=1&lang=ja")
    assert r.status_code == 200 and "スマートフォンが meldtour につながりました" in r.text


def test_public_url_from_the_environment() -> None:
    s = Settings.from_env({"MELDTOUR_PUBLIC_URL": "https://rk.example.org/"})
    assert s.public_url == "https://rk.example.org"


# ---------------------------------------------------------------- PDFs


LONG = "Maximiliana Alexandrovna Konstantinopolskaya-Wolkenstein"


def words_inside(data: bytes, tmp_path: Path) -> tuple[str, float]:
    """The PDF's text (pdftotext) and the right edge of its rightmost word, in points."""
    path = tmp_path / "x.pdf"
    path.write_bytes(data)
    html = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    right = max(float(x) for x in re.findall(r'xMax="([\d.]+)"', html))
    return re.sub(r"<[^>]+>", " ", html), right


def test_long_name_is_fitted_and_missing_glyph_replaced(tmp_path: Path) -> None:
    from meldtour.core.rules import find_rules
    from meldtour.tournament import (
        Division,
        StageFormat,
        Tournament,
        check_in,
        register,
        start_division,
        start_stage,
    )

    div = Division(
        "open",
        "오픈부",
        16,
        find_rules("krc-2015"),
        (StageFormat("seatings", games=2, seatings=1, name="예선"),),
    )
    t = Tournament("부산 클럽 대회", "2026-12-05", (div,), seed=7)
    for name in (LONG, "김🀄민", "Alice", "Bob", "박지우", "이서준", "최하은", "정우진"):
        t = register(t, "open", name).tournament
    for r in t.registrations:
        t = check_in(t, r.player).tournament
    t = start_stage(start_division(t, "open").tournament, "open").tournament
    t = seat_round(t, "open").tournament
    data = pdf.score_sheets(t, "open", 0, 1, "ko")
    text, right = words_inside(data, tmp_path)
    # The long name is printed whole (wrapped over lines), never past the grid's edge.
    assert "".join(LONG.split()) in "".join(text.split())
    assert right <= 595.3 - 15 * 72 / 25.4 + 1
    # The mahjong tile is not in the font: a visible □ and the page's note.
    flat = text_of(data)
    assert "김□민" in flat and "U+1F004" in flat
    names = pdf.seat_names(t, "open", 0, 1, "ko")
    assert "김□민" in text_of(names)


def test_seat_list_by_name_pdf_in_ga_na_da_order() -> None:
    t = seat_round(club(), "open").tournament
    text = text_of(pdf.seat_names(t, "open", 0, 1, "ko"))
    order = [n for n in ("강수정", "김민지", "박지우", "이서준", "정우진", "최하은", "Alice")]
    positions = [text.index(n) for n in order]
    assert positions == sorted(positions) and "가나다순" in text


@functools.cache
def finished_club():  # type: ignore[no-untyped-def]
    import random

    from meldtour.core.rules import find_rules
    from meldtour.tournament import (
        close_round,
        enter_table_game,
        start_stage,
        submit_table,
    )
    from meldtour.tournament.simulate import plausible_game, play_round

    t = club()
    while not t.division("open").stages[-1].finished:
        t = play_round(t, "open", 9).tournament
    t = start_stage(t, "open").tournament
    t = seat_round(t, "open").tournament
    game = plausible_game(random.Random(1), 4, find_rules("krc-2015"))
    t = enter_table_game(t, "open", 1, 1, 1, game.points, winner=game.winner, who="ref").tournament
    t = submit_table(t, "open", 1, 1, who="ref").tournament
    return close_round(t, "open").tournament


@pytest.mark.parametrize(
    ("locale", "words"),
    [
        ("ko", ["상장", "위 사람은", "이 상장을 수여합니다", "2026년 12월 5일", "대회장", "(인)"]),
        ("ja", ["賞状", "あなたは", "ここにその栄誉をたたえ賞します", "2026年12月5日", "審判長"]),
        (
            "en",
            [
                "Certificate of award",
                "This certificate is awarded for taking place 1",
                "5 December 2026",
                "Chief referee",
            ],
        ),
    ],
)
def test_certificates_have_a_body_and_signatures(
    locale: str, words: list[str], tmp_path: Path
) -> None:
    from meldtour.tournament import final_ranking

    t = finished_club()
    data = pdf.certificates(t, "open", locale)
    text = text_of(data)
    winner = final_ranking(t, "open")[0].name
    assert winner in text
    for w in words:
        assert w in text.replace("\n", " "), w
    path = tmp_path / "c.pdf"
    path.write_bytes(data)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "30", "-f", "1", "-l", "1", str(path), str(tmp_path / "c")],
        check=True,
        timeout=60,
    )
    assert list(tmp_path.glob("c*.png"))
    if locale == "ko":
        ranking = text_of(pdf.ranking_pdf(t, "open", "ko"))
        assert "최종 순위" in ranking and winner in ranking


def test_no_place_prints_before_it_is_decided() -> None:
    from meldtour.tournament import TournamentError

    t = seat_round(club(), "open").tournament
    for make in (pdf.certificates, pdf.ranking_pdf):
        with pytest.raises(TournamentError) as e:
            make(t, "open", "ko")
        assert e.value.code == "division.not_finished"


def test_family_certificates() -> None:
    from meldtour.tournament.side import FamilyPrize

    t = club()
    prize = FamilyPrize("kim", "three_generations", (1, 2, 3))
    text = text_of(pdf.family_certificates(t, [prize], "ko"))
    assert "3대 가족상" in text and "kim 가족" in text and "김민지" in text
    assert "3대가 함께 참가하여" in text.replace("\n", " ")


# ---------------------------------------------------------------- exports


def test_exports_numbers_are_numbers_and_columns_in_the_language(local: TestClient) -> None:
    store = local.app.state.director.store()  # type: ignore[attr-defined]
    t = usecases.read(store, "demo")
    table = t.division("general").stages[0].rounds[0].tables[0]
    points = [-12, -7, -3, 22][: len(table.players)]
    points[-1] = -sum(points[:-1])
    usecases.enter_sheet(
        store,
        "demo",
        "general",
        1,
        table.number,
        [usecases.GameEntry(1, tuple(points), winner=len(points))],
        who="boss",
        submit=False,
    )
    r = local.get("/director/t/demo/export/sheets.xlsx?lang=ko")
    sheet = load_workbook(io.BytesIO(r.content)).active
    assert sheet is not None
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:5] == ("부문", "단계", "라운드", "테이블", "게임")
    values = [row[8] for row in rows[1:] if row[8] is not None]
    assert -12 in values and all(isinstance(v, int) for v in values)
    r = local.get("/director/t/demo/export/standings.csv?lang=ja")
    assert r.text.lstrip("\ufeff").startswith("部門,ステージ,順位")
    assert ",'-" not in r.text  # no apostrophe before a negative number
    r = local.get("/director/t/demo/export/players.csv?lang=en")
    assert r.text.lstrip("\ufeff").startswith("Number,Name,Division")
    # The final ranking: a division still playing has no places yet.
    r = local.get("/director/t/demo/export/ranking.csv?lang=en")
    assert r.text.lstrip("\ufeff").strip() == "Division,Place,Number,Name,Decided in,Wins,Points"
    r = local.get("/director/t/demo/d/general/pdf/certificates?lang=en")
    assert r.status_code == 409


def test_print_page_lists_the_printables(local: TestClient) -> None:
    page = local.get("/director/t/demo/print?lang=ko").text
    assert "/pdf/names" not in page or "이름별 자리표" in page
    assert "export/ranking.xlsx" in page and "가족상 상장" in page  # the demo's Kims
    r = local.get("/director/t/demo/d/general/pdf/family")
    assert r.status_code == 200 and "김민준" in text_of(r.content)


def test_ranking_export_of_a_finished_division() -> None:
    from meldtour.tournament import final_ranking
    from meldtour.web.director.routes.printing import TABLES
    from meldtour.web.i18n import translations

    t = finished_club()
    rows = list(TABLES["ranking"](t, translations("ko").gettext))
    assert rows[0][:3] == ["division", "place", "number"]  # named per language on export
    ranking = final_ranking(t, "open")
    assert [r[1] for r in rows[1:]] == list(range(1, len(ranking) + 1))
    assert rows[1][3] == ranking[0].name
    assert all(isinstance(r[6], int) for r in rows[1:] if r[6] is not None)
    assert any(isinstance(r[6], int) and r[6] < 0 for r in rows[1:])  # minus points: numbers


def test_a_reading_sorts_a_kanji_name_by_its_sound() -> None:
    from meldtour.tournament.collation import seats_by_name

    t = seat_round(club(), "open").tournament
    rnd = t.division("open").stages[0].rounds[0]
    number = {t.name_of(r.player): r.player for r in t.registrations}
    plain = [x.name for x in seats_by_name(t, rnd, "ja")]
    assert plain.index("佐藤花子") < plain.index("山田太郎") < plain.index("鈴木一郎")
    read = [
        x.name
        for x in seats_by_name(
            t, rnd, "ja", {number["山田太郎"]: "やまだたろう", number["鈴木一郎"]: "すずきいちろう"}
        )
    ]
    assert read.index("鈴木一郎") < read.index("山田太郎") < read.index("佐藤花子")
