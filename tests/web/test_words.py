"""Words and errors (issue 16): errors are pages in the visitor's language (JSON for
the APIs), the audit log reads as sentences at the tournament's local time, templates
name their divisions and stages in the director's language, readable slugs, and
Korean particles that never need a "이(가)"."""

from __future__ import annotations

import html as html_lib
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.tournament.templates import TEMPLATES, WORDS, from_template
from meldtour.web.director import audit_words
from meldtour.web.director.audit_words import ACTIONS, audit_lines, local_time, zone_of
from meldtour.web.i18n import catalog_paths, translations
from meldtour.web.limits import BODY_MAX_BYTES

from .test_director import PASSWORD, csrf, make_client, sign_up, web

PAGE = {"accept": "text/html,application/xhtml+xml"}
SRC = Path(__file__).resolve().parents[2] / "src" / "meldtour"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with make_client(tmp_path_factory.mktemp("words")) as c:
        sign_up(c)
        r = c.post("/director/demo?lang=ko", data={"csrf": csrf(c, "/director")})
        assert r.url.path == "/t/demo"
        yield c


def main(html: str) -> str:
    found = re.search(r"<main>(.*)</main>", html, re.S)
    assert found, html[:300]
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", found.group(1))))


# ---------------------------------------------------------------- errors as pages


@pytest.mark.parametrize(
    ("path", "status", "ko", "ja"),
    [
        ("/t/unknown", 404, "없는 대회입니다: 'unknown'", "'unknown'"),
        (
            "/score/not-a-token",
            404,
            "점수 입력 링크는 올바르지 않습니다",
            "スコア入力リンクは正しくありません",
        ),
        ("/no/such/page", 404, "페이지를 찾을 수 없습니다", "ページが見つかりません"),
        ("/t/demo/p/999", 404, "페이지를 찾을 수 없습니다", "ページが見つかりません"),
        ("/t/demo/p/abc", 400, "비어 있거나 올바르지 않습니다: 선수", "正しくありません: 選手"),
        ("/rules/nope", 404, "그런 이름의 규칙은 없습니다", "その名前のルールはありません"),
    ],
)
def test_errors_are_pages_in_the_visitors_language(
    client: TestClient, path: str, status: int, ko: str, ja: str
) -> None:
    for lang, words in (("ko", ko), ("ja", ja)):
        r = client.get(f"{path}?lang={lang}", headers=PAGE)
        assert r.status_code == status
        assert r.headers["content-type"].startswith("text/html")
        assert r.headers["content-language"] == lang
        assert words in main(r.text), (lang, main(r.text))
        assert "{" not in main(r.text) and "detail" not in r.text


def test_json_clients_keep_json(client: TestClient) -> None:
    r = client.get("/t/unknown")
    assert r.status_code == 404
    # an unknown address does not list the other tournaments' (issue #27)
    assert r.json()["detail"] == "no tournament 'unknown'"
    page = client.get("/t/unknown?lang=ko", headers=PAGE).text
    assert "demo" not in main(page) and "없는 대회입니다: 'unknown'" in main(page)
    r = client.get("/score/not-a-token")
    assert r.status_code == 404 and "score-entry link is not valid" in r.json()["detail"]
    r = client.post("/director/login", data={"name": "a\x00b", "password": "x"})
    assert r.status_code == 400 and "'name'" in r.json()["detail"]


def test_wrong_method_too_large_and_control_characters(client: TestClient) -> None:
    r = client.put("/tournaments?lang=ja", headers=PAGE)
    assert r.status_code == 405 and "この方法では使えません" in main(r.text)
    r = client.post(
        "/director/login?lang=ko",
        headers={**PAGE, "content-type": "application/x-www-form-urlencoded"},
        content=b"name=" + b"x" * (BODY_MAX_BYTES + 10),
    )
    assert r.status_code == 413 and "보낸 내용이 너무 큽니다" in main(r.text)
    # A control character in a form field: the page names the field by its label.
    for lang, label, words in (
        ("ko", "‘이름’ 항목에 제어 문자", "제어 문자 없이 다시 입력하세요"),
        ("ja", "「名前」欄に制御文字", "入力し直してください"),
    ):
        r = client.post(
            f"/t/demo/register?lang={lang}",
            headers=PAGE,
            data={"name": "김\x00민지", "division": "general"},
        )
        assert r.status_code == 400 and label in main(r.text) and words in main(r.text)
    r = client.get("/t/demo?lang=ko&q=a%00b", headers=PAGE)
    assert r.status_code == 400 and "‘검색’ 항목에 제어 문자" in main(r.text)
    # Nothing was registered.
    assert "김\x00민지" not in {
        x.name for x in usecases.read(web(client).store(), "demo").registrations
    }


def test_a_refused_director_and_an_expired_form(client: TestClient, tmp_path: Path) -> None:
    r = client.post(
        "/director/accounts",
        data={"csrf": csrf(client, "/director"), "name": "other", "password": PASSWORD},
    )
    assert r.status_code == 200
    with make_client(tmp_path) as other:
        other.app.state.director = client.app.state.director  # type: ignore[attr-defined]
        token = csrf(other, "/director/login")
        other.post("/director/login", data={"csrf": token, "name": "other", "password": PASSWORD})
        r = other.get("/director/t/demo?lang=ko", headers=PAGE)
        assert r.status_code == 403
        assert "이 대회의 운영자가 아닙니다" in main(r.text) and "허용되지 않습니다" in main(r.text)
        r = other.get("/director/t/demo?lang=ja", headers=PAGE)
        assert r.status_code == 403 and "許可されていません" in main(r.text)
    r = client.post(
        "/director/t/demo/edit?lang=ja", headers=PAGE, data={"csrf": "expired", "name": "x"}
    )
    assert r.status_code == 403 and "ページを再読み込み" in main(r.text)


# ---------------------------------------------------------------- the audit log


def action_codes() -> set[str]:
    """Every audit action code the source writes."""
    found: set[str] = set()
    for path in SRC.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(re.findall(r'\baction="([a-z_ ]+)"', text))
        found |= set(re.findall(r'\bact\(\s*store,\s*\w+,\s*\w+,\s*"([a-z_]+)"', text))
    found |= {"enter_sheet_conflict", "correct_sheet_conflict"}
    return found - {"store_true", "version", "append", "count", "store"}


def test_every_audit_action_has_a_sentence_in_each_language() -> None:
    codes = action_codes()
    assert {"check_in", "seat", "enter_sheet", "create_tournament", "award"} <= codes
    missing = sorted(codes - set(ACTIONS))
    assert not missing, f"audit actions with no sentence (web/director/audit_words.py): {missing}"
    for lang in ("ko", "ja"):
        said = translations(lang).messages
        for code, template in ACTIONS.items():
            assert said.get(template) and said[template] != template, (lang, code)


def test_the_audit_log_reads_as_sentences_at_local_time(client: TestClient) -> None:
    usecases.enter_sheet(
        web(client).store(),
        "demo",
        "general",
        1,
        1,
        [usecases.GameEntry(1, (-10, -20, -5, 35), None, 4)],
        who="scorer:table 1",
    )
    lines = usecases.audit_log(web(client).store(), "demo")
    ko = client.get("/director/t/demo/audit?lang=ko")
    text = main(ko.text)
    assert "시각은 한국 시간 기준입니다" in text
    assert "boss 님이 대회를 만들었습니다: 데모 — KRC 2015 부산." in text
    assert "boss 님이 라운드 자리를 배정했습니다: 일반부 예선 1라운드." in text
    assert "boss 님이 선수의 출석을 확인했습니다: #1 김민준, #2 김서연, #3 김하준 외 9건." in text
    # a draft (one game of four) says it is not counted yet, and what it wrote
    assert (
        "1번 테이블 기록원이 점수 기록지를 임시 저장했습니다 (아직 집계 전): "
        "일반부 예선 1라운드 1번 테이블."
    ) in text
    assert ": — → +35" not in text  # typed in for the first time: no cell "changed"
    assert "UTC" not in text and "scorer:" not in text and "check_in" not in text
    # Local time: the store's UTC plus nine hours in Seoul.
    last = lines[-1]["at"]
    assert local_time(last, ZoneInfo("Asia/Seoul")) in text
    ja = main(client.get("/director/t/demo/audit?lang=ja").text)
    assert (
        "1番卓の記録係が記録用紙を下書き保存しました（まだ集計されていません）: "
        "일반부 예선 第1ラウンド 1番卓。"
    ) in ja
    assert "bossさんが選手の出席を確認しました" in ja and "時刻は韓国時間です" in ja
    # The round page says when the seating was locked, in local time too.
    usecases.lock_seating(web(client).store(), "demo", "general", who="boss")
    page = main(client.get("/director/t/demo/d/general/round?lang=ko").text)
    assert re.search(r"1번 테이블 기록원이 \d\d:\d\d에 자리 배정을 잠갔습니다", page), page
    assert "UTC" not in page and "scorer:" not in page


def test_sentences_zones_and_unknown_codes() -> None:
    assert local_time("2015-12-05T07:06:00+00:00", ZoneInfo("Asia/Seoul")) == "2015-12-05 16:06"
    assert local_time("2015-12-05T07:06:00", ZoneInfo("Asia/Tokyo"), with_date=False) == "16:06"
    assert zone_of("busan-2015", None, "en").key == "Asia/Seoul"
    assert zone_of("japan-championship", "Asia/Seoul", "ko").key == "Asia/Tokyo"
    assert zone_of("scratch", "Europe/Berlin", "ko").key == "Europe/Berlin"
    assert zone_of("scratch", None, "ja").key == "Asia/Tokyo"
    ko = translations("ko").gettext
    t = from_template("busan-2015", locale="ko")
    lines = [
        {
            "at": "2015-12-05T07:06:00+00:00",
            "who": "web:registration@1a2b3c4d",
            "action": "register",
            "entity": "registration",
            "key": "#5 김민지",
            "why": "",
        },
        {
            "at": "2015-12-05T07:09:00+00:00",
            "who": "boss",
            "action": "a_code_from_next_year",
            "entity": "round",
            "key": "general/stage 1/round 2",
            "why": "오타",
        },
    ]
    said = audit_lines(lines, t, ZoneInfo("Asia/Seoul"), ko)
    assert said[0].sentence == (
        "공개 참가 신청 양식(출처 1a2b3c4d)이 선수를 등록했습니다: #5 김민지."
    )
    assert said[0].when == "2015-12-05 16:06"
    # A code with no sentence yet (a newer change) still reads as one.
    assert said[1].sentence == (
        "boss 님이 내용을 바꿨습니다(a_code_from_next_year): 일반부 예선 2라운드."
    )
    assert said[1].why == "오타"
    assert audit_words.who_text("online play", translations("ja").gettext) == "オンライン対局が"


# ---------------------------------------------------------------- templates and slugs


@pytest.mark.parametrize("template", sorted(TEMPLATES))
def test_templates_name_things_in_each_language(template: str) -> None:
    assert set(WORDS["ko"]) == set(WORDS["ja"]) == set(WORDS["en"])
    for locale in ("ko", "ja", "en"):
        t = from_template(template, locale=locale)
        names = [t.name] + [
            n
            for d in t.divisions
            for n in (d.name, d.eligibility, *(f.name for f in d.formats))
            if n
        ]
        assert names
        text = " ".join(names).replace("KRC", "")
        if locale == "ko":
            assert not re.search(r"[A-Za-z\u3040-\u30ff]", text), names
        elif locale == "ja":
            assert not re.search(r"[A-Za-z\uac00-\ud7a3]", text), names
        else:
            assert not re.search(r"[\uac00-\ud7a3\u3040-\u30ff\u4e00-\u9fff]", text), names
    # The keys stay the same in every language (commands and files name them).
    assert [d.key for d in from_template(template, locale="ko").divisions] == [
        d.key for d in from_template(template, locale="en").divisions
    ]


def test_the_director_makes_a_korean_tournament_with_a_readable_slug(client: TestClient) -> None:
    r = client.post(
        "/director/new?lang=ko",
        data={
            "csrf": csrf(client, "/director"),
            "template": "busan-2015",
            "name": "2015 부산 오픈",
        },
    )
    assert r.status_code == 200
    assert unicodedata.normalize("NFC", r.url.path) == "/director/t/2015-부산-오픈"
    t = usecases.read(web(client).store(), "2015-부산-오픈")
    assert [d.name for d in t.divisions] == [
        "일반부",
        "초등 저학년부 (1~3학년)",
        "초등 고학년부 (4~6학년)",
    ]
    assert [f.name for f in t.division("general").formats] == ["예선", "결승"]
    assert t.division("lower").formats[0].name == "토너먼트"
    # The address percent-encoded, and typed decomposed (NFD) on another device.
    assert client.get("/t/2015-%EB%B6%80%EC%82%B0-%EC%98%A4%ED%94%88").status_code == 200
    nfd = unicodedata.normalize("NFD", "/t/2015-부산-오픈")
    assert client.get(nfd).status_code == 200
    # Files named after the tournament, in words, download (an ASCII fallback and the
    # UTF-8 name).
    r = client.get("/director/t/2015-부산-오픈/export/players.csv?lang=ko")
    assert r.status_code == 200
    assert "filename*=UTF-8''2015%20%EB%B6%80%EC%82%B0" in r.headers["content-disposition"]
    # Japanese, with no name: the template's Japanese name, and its slug.
    r = client.post(
        "/director/new?lang=ja",
        data={"csrf": csrf(client, "/director"), "template": "japan-championship"},
    )
    assert unicodedata.normalize("NFC", r.url.path) == "/director/t/ラミィキューブ日本選手権"
    t = usecases.read(web(client).store(), "ラミィキューブ日本選手権")
    assert t.divisions[0].name == "日本選手権"
    assert [f.name for f in t.divisions[0].formats] == ["予選", "決勝"]
    # An old ASCII slug keeps working.
    assert client.get("/t/demo").status_code == 200
    assert usecases.make_slug("KRC 2015 Busan") == "krc-2015-busan"


# ---------------------------------------------------------------- particles


PARENTHESISED = re.compile(r"이\(가\)|을\(를\)|은\(는\)|와\(과\)|\(으\)로|\(이\)|\(가\)|\(를\)")


def test_no_korean_string_needs_a_parenthesised_particle() -> None:
    from babel.messages.pofile import read_po

    for path in catalog_paths("ko"):
        with path.open("rb") as f:
            for m in read_po(f, locale="ko"):
                if m.id:
                    assert not PARENTHESISED.search(str(m.string)), (path.name, m.id)
    ko, ja = translations("ko").gettext, translations("ja").gettext
    assert ko("second-best game") == "두 번째로 좋은 게임 점수"
    assert ja("second-best game") == "2番目に良いゲームのスコア"  # 得点: 100 × wins + スコア
    assert ko("no tournament %(slug)s") % {"slug": "'x'"} == "없는 대회입니다: 'x'"


def test_no_shows_are_not_counted_as_zero(client: TestClient) -> None:
    store = web(client).store()
    usecases.create_tournament(store, "club-night", who="boss", slug="zero", locale="ko")
    usecases.register_players(
        store, "zero", [usecases.PlayerEntry("김민지", "club", (), None)], who="boss"
    )
    usecases.check_in_players(store, "zero", [], who="boss", everyone_but=True)
    r = client.post(
        "/director/t/zero/d/club/start?lang=ko", data={"csrf": csrf(client, "/director/t/zero")}
    )
    assert "모든 선수가 출석했습니다" in r.text and "0명" not in r.text


def test_the_command_line_names_a_template_in_a_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from meldtour.cli import main as cli_main

    monkeypatch.setenv("MELDTOUR_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.db'}")
    monkeypatch.delenv("MELDTOUR_TOURNAMENT", raising=False)
    monkeypatch.chdir(tmp_path)
    assert cli_main(["db", "upgrade"]) == 0
    capsys.readouterr()
    assert (
        cli_main(["tournament", "new", "--template", "busan-2015", "--locale", "ko", "--json"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["name"] == "KRC 2015 부산" and out["slug"] == "krc-2015-부산"
