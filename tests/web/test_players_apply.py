"""Issue #27 (3): on the list's preview, one control per distinct division value that
matches no division ("apply this division to every line with this value"), not a
drop-down per line; the save button counts the lines that will be saved."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient

from meldtour import application as usecases

from .test_director import csrf, web
from .test_director_players import count, director

__all__ = ["director"]

LIST = "\n".join(
    ["이름,부"]
    + [f"어린이{i},어린이부" for i in range(1, 5)]  # four lines of one unknown value
    + ["강서연,일반", "오지훈,청소년부", "한유나,"]  # one matched, two others
)


def fields_of(page: str) -> dict[str, str]:
    """The preview form's fields as the browser would send them back (selects at their
    selected option, checkboxes and radios only when checked)."""
    form = page[page.index('action="/director/t/busan/players/import"') :]
    out: dict[str, str] = {}
    for m in re.finditer(r"<input ([^>]*)>", form):
        attrs = dict(re.findall(r'(\w+)="([^"]*)"', m.group(1)))
        if attrs.get("type") in ("checkbox", "radio") and "checked" not in m.group(1):
            continue
        if "name" in attrs:
            out[attrs["name"]] = attrs.get("value", "")
    for m in re.finditer(r'<select name="(\w+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected', m.group(2))
        out[m.group(1)] = chosen.group(1) if chosen else ""
    return out


def test_apply_a_division_to_every_line_with_a_value(director: TestClient) -> None:
    c = director
    token = csrf(c, "/director/t/busan/players")
    r = c.post("/director/t/busan/players/preview", data={"csrf": token, "paste": LIST})
    assert r.status_code == 200
    page = r.text
    # One control per distinct unmatched value, with its number of lines.
    assert page.count('class="apply-line"') == 3
    assert "“어린이부” · 4줄" in page and "“청소년부” · 1줄" in page and "(부문 없음) · 1줄" in page
    assert 'id="saveall"' in page and "선수 7명 저장" in page
    assert 'data-words="선수 {n}명 저장"' in page
    sent = fields_of(page)
    values = {sent[f"apply_val{j}"]: j for j in range(3)}
    sent |= {
        f"apply_div{values['어린이부']}": "lower",
        f"apply_div{values['청소년부']}": "upper",
        f"apply_div{values['']}": "general",
        "csrf": token,
        "go": "check",
    }
    r = c.post("/director/t/busan/players/import", data=sent)
    assert r.status_code == 200
    assert 'class="apply-line"' not in r.text and "오류 없음" in r.text
    # Saved as chosen (and a division applied right on "save" works as well).
    sent = fields_of(r.text) | {"csrf": token, "go": "save"}
    r = c.post("/director/t/busan/players/import", data=sent)
    assert r.url.path == "/director/t/busan/players" and count(c) == 12
    t = usecases.read(web(c).store(), "busan")
    by_name = {x.name: x.division for x in t.registrations}
    assert [by_name[f"어린이{i}"] for i in range(1, 5)] == ["lower"] * 4
    assert by_name["오지훈"] == "upper" and by_name["한유나"] == "general"
    assert by_name["강서연"] == "general"


def test_a_dropped_line_is_not_counted(director: TestClient) -> None:
    c = director
    token = csrf(c, "/director/t/busan/players")
    r = c.post("/director/t/busan/players/preview", data={"csrf": token, "paste": LIST})
    sent = fields_of(r.text) | {"csrf": token, "go": "check"}
    drop = next(k for k, v in sent.items() if k.startswith("name") and v == "오지훈")
    sent[drop.replace("name", "keep")] = "drop"
    r = c.post("/director/t/busan/players/import", data=sent)
    assert "선수 6명 저장" in r.text
