"""Prizes per place on the awards page and the certificates (issue #27, 8): a title
per place or range of places, the places with their wins and points, and the
certificates' signer lines as the director writes them."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from meldtour import application as usecases
from meldtour.tournament.stages import final_ranking

from .test_director import csrf, make_client, sign_up, web
from .test_director_pages import flash
from .test_votes import finish, seated_club


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        sign_up(c)
        yield c


def post(c: TestClient, path: str, data: list[tuple[str, str]], page: str) -> str:
    fields: dict[str, list[str]] = {}
    for name, value in data:
        fields.setdefault(name, []).append(value)
    r = c.post(f"{path}?lang=en", data={"csrf": csrf(c, page), **fields})
    assert r.status_code == 200
    return flash(r.text)


def pdf_text(tmp_path: Path, data: bytes) -> str:
    path = tmp_path / "x.pdf"
    path.write_bytes(data)
    return subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


def test_prizes_per_place_on_the_awards_and_certificates(
    tmp_path: Path, client: TestClient
) -> None:
    store = web(client).store()
    slug = seated_club(store)
    page = f"/director/t/{slug}/d/club/awards"
    # Set before the division is finished: the page says when the places show.
    text = client.get(f"{page}?lang=ko").text
    assert "부문이 끝나면 여기에 순위가 나옵니다" in text and 'id="prizes"' in text
    prizes = [
        ("first", "1"),
        ("last", ""),
        ("title", "부산시장상 + WRC 선발전 출전권 + 트로피"),
        ("first", "2"),
        ("last", "3"),
        ("title", "WRC 선발전 출전권 + 보드게임"),
        ("first", ""),
        ("last", ""),
        ("title", ""),
    ]
    assert post(client, f"/director/t/{slug}/d/club/prizes", prizes, page) == (
        "ok: The prizes are saved."
    )
    # A place with two prizes is refused, and nothing changes.
    bad = [
        ("first", "1"),
        ("last", "2"),
        ("title", "a"),
        ("first", "2"),
        ("last", ""),
        ("title", "b"),
    ]
    assert post(client, f"/director/t/{slug}/d/club/prizes", bad, page) == (
        "error: place 2 has two prizes: give each place one line"
    )
    said = usecases.award_settings(store, slug, "club")
    assert [(p.first, p.last) for p in said.prizes] == [(1, 1), (2, 3)]
    signers = [("signer", "부산광역시장"), ("signer", "한국보드게임협회장"), ("signer", "심판장")]
    assert post(client, f"/director/t/{slug}/d/club/signers", signers, page) == (
        "ok: The signer lines are saved."
    )
    audit = [a["action"] for a in usecases.audit_log(store, slug)]
    assert "set_prizes" in audit and "set_signers" in audit
    finish(store, slug)
    usecases.award(store, slug, "club", who="d")
    t = usecases.read(store, slug)
    ranking = final_ranking(t, "club")
    text = client.get(f"{page}?lang=ko").text
    assert text.count('<td class="num place">') == 3
    first = ranking[0].standing
    assert first is not None
    row = text[text.index("1위") : text.index("2위")]
    assert f'<td class="num">{first.wins}</td><td class="num">{first.points}</td>' in row
    assert "부산시장상 + WRC 선발전 출전권 + 트로피" in row
    assert text.count("WRC 선발전 출전권 + 보드게임") >= 2  # places 2 and 3 (and the form)
    # The certificates carry the place's prize and the signer lines as written.
    r = client.get(f"/director/t/{slug}/d/club/pdf/certificates?lang=ko")
    assert r.status_code == 200
    pdf = pdf_text(tmp_path, r.content)
    assert "부산시장상 + WRC 선발전 출전권 + 트로피" in pdf
    assert "부산광역시장" in pdf and "한국보드게임협회장" in pdf and "심판장" in pdf
    assert "대회장" not in pdf.replace("한국보드게임협회장", "")
    # Cleared, the signers are the default two again.
    assert post(client, f"/director/t/{slug}/d/club/signers", [("signer", "")], page) == (
        "ok: The signer lines are saved."
    )
    assert usecases.award_settings(store, slug, "club").signers == ()
    # A signer line with an invisible character is refused.
    assert post(
        client, f"/director/t/{slug}/d/club/signers", [("signer", "심판\u202e장")], page
    ).startswith("error: a name cannot hold the invisible character")
