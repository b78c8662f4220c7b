"""The public pages in three languages, and settings that refuse unsafe defaults."""

from __future__ import annotations

import secrets

import pytest
from fastapi.testclient import TestClient

from meldtour.web.app import create_app
from meldtour.web.config import DEV_SECRET, ConfigError, Settings


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(Settings(env="test")))


def test_health(client: TestClient) -> None:
    assert client.get("/healthz").json()["ok"] is True


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("ko", ["공식 게임룰", "게임룰 프리셋", "한국 루미큐브 챔피언십, 부산 2015"]),
        ("ja", ["公式ルール", "ルールのプリセット", "日本選手権・月例会ルール"]),
        ("en", ["official rules", "Rule presets", "Korea Rummikub Championship"]),
    ],
)
def test_home_in_each_language(client: TestClient, lang: str, words: list[str]) -> None:
    page = client.get(f"/?lang={lang}")
    assert page.status_code == 200
    assert f'<html lang="{lang}">' in page.text
    for word in words:
        assert word in page.text


def test_the_browser_language_is_used_and_a_switch_is_remembered() -> None:
    client = TestClient(create_app(Settings(env="test")))
    page = client.get("/rules", headers={"Accept-Language": "ja-JP,ja;q=0.9"})
    assert page.headers["content-language"] == "ja"
    page = client.get("/rules?lang=en")
    assert page.cookies.get("lang") == "en"
    assert client.get("/rules").headers["content-language"] == "en"


@pytest.mark.parametrize(
    ("preset", "lang", "facts"),
    [
        ("korea-official", "ko", ["40초", "100점", "마지막 타일을 가져간 다음 사람부터"]),
        ("krc-2015", "ko", ["60초", "50점", "완성된 세트는 남기고"]),
        ("japan", "ja", ["60秒", "1枚引く", "ペナルティ50点", "山の最後の1枚を引いたら終了"]),
        ("standard", "en", ["60 seconds", "30 points", "draw 3", "Points only"]),
    ],
)
def test_rules_page_states_the_preset(
    client: TestClient, preset: str, lang: str, facts: list[str]
) -> None:
    page = client.get(f"/rules/{preset}?lang={lang}")
    assert page.status_code == 200
    for fact in facts:
        assert fact in page.text, fact


def test_unknown_preset_is_a_404(client: TestClient) -> None:
    assert client.get("/rules/wrc").status_code == 404


def test_no_default_secret_outside_development() -> None:
    with pytest.raises(ConfigError, match="MELDTOUR_SECRET_KEY"):
        Settings.from_env({"MELDTOUR_ENV": "production"})
    with pytest.raises(ConfigError, match="MELDTOUR_SECRET_KEY"):
        Settings.from_env({"MELDTOUR_ENV": "production", "MELDTOUR_SECRET_KEY": "short"})
    # A key of one repeated character was accepted before and let a session be forged.
    for weak in (
        "x" * 40,
        "a" * 36,
        " " * 40,
        DEV_SECRET + "!",
        "abcdefghijklmnopqrstuvwxyz0123456789",
    ):
        with pytest.raises(ConfigError, match="MELDTOUR_SECRET_KEY"):
            Settings.from_env({"MELDTOUR_ENV": "production", "MELDTOUR_SECRET_KEY": weak})
    ok = Settings.from_env(
        {"MELDTOUR_ENV": "production", "MELDTOUR_SECRET_KEY": "q3F9zK1vR7mX2cW8pL5tN0bY4hJ6dSe2Ua"}
    )
    assert ok.secret_key != DEV_SECRET
    for _ in range(20):  # what the message tells the operator to use always passes
        Settings.from_env(
            {"MELDTOUR_ENV": "production", "MELDTOUR_SECRET_KEY": secrets.token_urlsafe(32)}
        )
        Settings.from_env(
            {"MELDTOUR_ENV": "production", "MELDTOUR_SECRET_KEY": secrets.token_hex(16)}
        )
    assert Settings.from_env({}).is_development


def test_the_computer_players_pause_is_a_setting_of_seconds() -> None:
    assert Settings.from_env({}).bot_seconds == 0.8
    assert Settings.from_env({"MELDTOUR_BOT_SECONDS": " 0.05 "}).bot_seconds == 0.05
    assert Settings.from_env({"MELDTOUR_BOT_SECONDS": "0"}).bot_seconds == 0.0
    for bad in ("soon", "-1", "10.5", "nan", "inf", "1e400", "0.5\x00"):
        with pytest.raises(ConfigError, match="MELDTOUR_BOT_SECONDS"):
            Settings.from_env({"MELDTOUR_BOT_SECONDS": bad})


def test_a_lobby_table_s_computers_wait_the_set_pause() -> None:
    """A table opened from the lobby takes the site's pause for its computer players."""
    quick = TestClient(create_app(Settings(env="test", bot_seconds=0.0)))
    made = quick.post(
        "/play/tables",
        data={"preset": "standard", "seat_count": "2", "seat0": "human", "seat1": "greedy"},
        follow_redirects=False,
    )
    assert made.status_code == 303, made.text
    game_id = made.headers["location"].rsplit("/", 1)[1]
    live = quick.app.state.live  # type: ignore[attr-defined]
    assert live.games[game_id].config.bot_delay == 0.0
