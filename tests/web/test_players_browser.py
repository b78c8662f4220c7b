"""Acceptance of issue 16, "Players", in Debian's Chromium, in Korean: a director pastes a
list with two errors and a duplicate, mends them in the preview and saves; edits a
name; undoes a check-in; reinstates a no-show — at desktop and phone widths, and the
pages again in Japanese. Screenshots go to ``shots/`` (not committed) for a look by
eye."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .browser import serve
from .test_e2e_tournament import CHROMIUM, context

playwright_api = pytest.importorskip("playwright.sync_api")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium is not installed", allow_module_level=True)

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

from meldtour import application as usecases  # noqa: E402
from meldtour.web.app import create_app  # noqa: E402
from meldtour.web.config import Settings  # noqa: E402
from meldtour.web.director import accounts  # noqa: E402
from meldtour.web.director.deps import SESSION_COOKIE, Web  # noqa: E402

from .test_e2e_tournament import browser  # noqa: E402,F401  (the module's browser)

SHOTS = Path(__file__).resolve().parents[2] / "shots"
NAMES = [
    "김민지",
    "이서준",
    "박지호",
    "최하은",
    "정도윤",
    "강서연",
    "조민준",
    "윤지우",
    "장하늘",
    "임바다",
    "한유진",
    "오세훈",
    "서지민",
    "신동현",
    "권나래",
    "황보라",
]


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Web, str]]:
    settings = Settings(env="test")
    app = create_app(settings)
    db = tmp_path_factory.mktemp("players") / "meldtour.db"
    web = Web(settings, url=f"sqlite:///{db}")
    app.state.director = web
    account = accounts.create(web.store(), "boss", "a long secret 1")  # the administrator
    session = web.session.sign({"a": account.id, "exp": int(time.time()) + 3600, "n": "b"})
    with serve(app) as base:
        yield base, web, session


def signed_in(
    browser: Browser,
    site: tuple[str, Web, str],
    lang: str,
    phone: bool = False,
) -> BrowserContext:
    base, _web, session = site
    ctx = context(browser, base, lang, phone=phone)
    ctx.add_cookies([{"name": SESSION_COOKIE, "value": session, "url": base}])
    return ctx


def pasted(slug: str) -> str:
    lines = ["이름,부,가족,세대"]
    lines += [f"{n},general,{'김' if n.startswith('김') else ''}," for n in NAMES[:8]]
    lines += [",general,,"]  # line 10: a name left out
    lines += [f"{n},general,," for n in NAMES[8:12]]
    lines += ["최 하은,general,,"]  # line 15: 최하은 again (line 5)
    lines += ["오민석,general,,둘"]  # line 16: a generation in words
    lines += [f"{n},general,," for n in NAMES[12:]]
    return "\n".join(lines)


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_players_of_a_day_in_korean(
    site: tuple[str, Web, str],
    browser: Browser,
    phone: bool,
) -> None:
    _base, web, _s = site
    slug = "phone" if phone else "desk"
    width = "390" if phone else "1280"
    store = web.store()
    usecases.create_tournament(store, "busan-2015", who="boss", slug=slug, locale="ko")
    usecases.register_players(
        store, slug, [usecases.PlayerEntry("황보라", "lower")], who="boss"
    )  # already registered: 황보라 in the list is marked
    ctx = signed_in(browser, site, "ko", phone=phone)
    page = ctx.new_page()
    page.on("dialog", lambda d: d.accept())
    page.goto(f"/director/t/{slug}")
    page.get_by_role("link", name="선수", exact=True).click()
    expect(page.get_by_role("heading", name="선수 여러 명 추가")).to_be_visible()
    page.get_by_label("목록 붙여 넣기").fill(pasted(slug))
    page.get_by_role("button", name="목록 확인").click()

    # The preview: nothing saved; two lines in error (field named), two likely duplicates.
    summary = page.locator("#summary")
    expect(summary).to_contain_text("오류가 있는 줄: 10, 16")
    expect(summary).to_contain_text("중복 여부를 정할 줄: 15, 20")
    expect(page.locator("#line10 .err")).to_contain_text("10번째 줄 · 이름: ")
    expect(page.locator("#line16 .err")).to_contain_text("세대")
    expect(page.locator("#line15 .same")).to_contain_text("5번째 줄과 같은 이름")
    expect(page.locator("#line20 .same")).to_contain_text(
        "이미 등록됨: 초등 저학년부 (1~3학년), 1번"
    )
    shot(page, f"players-preview-errors-ko-{width}")
    assert len(usecases.read(store, slug).registrations) == 1
    # Saving now is refused, nothing is saved.
    page.get_by_role("button", name="선수 19명 저장").click()
    expect(page.locator("p.flash.error")).to_contain_text("아직 저장되지 않았습니다")
    assert len(usecases.read(store, slug).registrations) == 1
    # Mend: a name for line 10, the generation of line 16; line 15 is the same person
    # (dropped), 황보라 of line 20 another one (kept).
    page.locator("#line10 input[name^=name]").fill("문가영")
    page.locator("#line16 input[name^=generation]").fill("2")
    page.locator("#line15").get_by_label("같은 사람입니다: 이 줄 빼기").check()
    page.locator("#line20").get_by_label("다른 사람입니다: 둘 다 등록").check()
    page.get_by_role("button", name="다시 확인").click()
    expect(summary).to_contain_text("오류 없음")
    expect(page.locator("#line15")).to_have_class("line dropped")
    page.get_by_role("button", name="선수 18명 저장").click()
    expect(page.locator("p.flash.ok")).to_contain_text("선수 18명을 등록했습니다.")
    shot(page, f"players-list-ko-{width}")
    t = usecases.read(store, slug)
    names = [r.name for r in t.registrations]
    assert len(names) == 19 and names.count("황보라") == 2 and "최 하은" not in names
    assert "문가영" in names and t.registration(names.index("오민석") + 1).generation == 2

    # A name edited from the list (search by number).
    page.get_by_placeholder("이름 또는 번호").fill("#3")
    page.get_by_role("button", name="검색").click()
    expect(page.locator("ul.roster li")).to_have_count(1)
    page.locator("ul.roster li").get_by_role("link", name="수정").click()
    page.get_by_label("이름", exact=True).fill("이서진")
    page.get_by_role("button", name="선수 정보 저장").click()
    expect(page.locator("p.flash.ok")).to_contain_text("저장했습니다: 3번 이서진")
    shot(page, f"player-edit-ko-{width}")
    assert usecases.read(store, slug).name_of(3) == "이서진"
    assert any(a["action"] == "edit_player" for a in usecases.audit_log(store, slug))

    # The desk: everyone checks in; one check-in by mistake is undone.
    usecases.check_in_players(store, slug, [str(n) for n in range(2, 20)], who="boss")
    page.goto(f"/director/t/{slug}/d/general/checkin?q=%2319")
    row = page.locator("ul.desk li")
    expect(row).to_have_count(1)
    row.get_by_role("button", name="체크인 취소").click()
    expect(page.locator("p.flash.ok")).to_contain_text("체크인을 취소했습니다")
    expect(page.locator("ul.desk li.registered")).to_have_count(1)  # still searched: #19
    assert usecases.read(store, slug).registration(19).status == "registered"
    # Check-in closes: #19 is a no-show, arrives, and is reinstated under number 19.
    page.goto(f"/director/t/{slug}/d/general/checkin")
    page.get_by_role("button", name="체크인 마감").click()
    page.goto(f"/director/t/{slug}/d/general/checkin?q=19")
    page.get_by_role("button", name="선수 복귀").click()
    expect(page.locator("p.flash.ok")).to_contain_text("19번 그대로 복귀했습니다")
    shot(page, f"checkin-reinstated-ko-{width}")
    t = usecases.read(store, slug)
    assert t.registration(19).status == "checked_in" and len(t.registrations) == 19
    ctx.close()


def test_the_pages_in_japanese(site: tuple[str, Web, str], browser: Browser) -> None:
    _base, web, _s = site
    store = web.store()
    usecases.create_tournament(store, "busan-2015", who="boss", slug="jp", locale="ja")
    usecases.register_players(
        store, "jp", [usecases.PlayerEntry("山田花子", "general")], who="boss"
    )
    for phone in (False, True):
        ctx = signed_in(browser, site, "ja", phone=phone)
        page = ctx.new_page()
        width = "390" if phone else "1280"
        page.goto("/director/t/jp/players")
        expect(page.get_by_role("heading", name="選手をまとめて追加")).to_be_visible()
        shot(page, f"players-list-ja-{width}")
        page.get_by_label("一覧を貼り付け").fill(
            "名前\t部門\t世代\n山田花子\tgeneral\t1\n\tgeneral\t\n佐藤一郎\tseniors\t\n"
        )
        page.get_by_role("button", name="一覧を確認").click()
        expect(page.locator("#summary")).to_contain_text("エラーのある行:3, 4")
        expect(page.locator("#line2 .same")).to_contain_text("登録済み:一般の部、1番")
        shot(page, f"players-preview-ja-{width}")
        page.goto("/director/t/jp/p/1")
        expect(page.get_by_role("button", name="選手情報を保存")).to_be_visible()
        shot(page, f"player-edit-ja-{width}")
        ctx.close()
