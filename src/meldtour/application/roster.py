"""A list of players read before anyone is registered: a CSV file, a list pasted from a
spreadsheet (tab- or comma-separated), or an XLSX workbook — the one reader of the
command line's ``players import`` and the director's import page.

Reading never registers: :func:`read_roster` gives one :class:`RosterRow` a line, each
with its problems (which field, which refusal), and :func:`check_roster` adds what
needs the tournament — an unknown division, and the likely duplicates (a name twice in
the list, or a name already registered). Only a list without problems is registered,
all at once (:func:`meldtour.application.register_players`, one transaction).

>>> rows = read_roster("name,division,generation\\n김민지,general,1\\n,general,\\n이서준,,x\\n")
>>> for r in rows:
...     print(r.line, r.name, [(p.field, p.refusal.code) for p in r.problems])
2 김민지 []
3  [('name', 'registration.needs_name')]
4 이서준 [('generation', 'players.generation_not_number')]
>>> [r.name for r in read_roster("김민지\\t일반부\\n이서준\\t일반부\\n")]
['김민지', '이서준']
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Literal

from meldtour.core.jsontext import is_control
from meldtour.core.refusal import Refusal, register
from meldtour.tournament import Tournament, TournamentError
from meldtour.tournament.entries import check_generation, check_name, check_tags, name_key

from .divisions import resolve_division
from .errors import UseCaseError
from .registration import PlayerEntry
from .workbook import bounded_workbook

register(
    {
        "players.too_big": "the list is %(size)s bytes: at most %(limit)s",
        "players.not_utf8": 'the list is not UTF-8 text (byte %(byte)s): save it as "CSV UTF-8"',
        "players.unreadable": "line %(line)s: the list cannot be read: a quote left open, or "
        "a field as long as a whole file?",
        "players.no_name_column": "the header must have a name column "
        "(name,division,tags,generation)",
        "players.too_many": "more than %(n)s players in one list",
        "players.not_xlsx": "the file is not an XLSX workbook (save it as .xlsx or CSV UTF-8)",
        "players.empty": "the list has no players",
        "players.control_character": "the name holds a control character (%(char)s); a quote "
        "left open runs the rows together",
        "players.generation_not_number": "generation %(value)s is not a whole number",
        "players.same_in_list": "the same name as line %(line)s",
        "players.same_registered": "already registered as #%(n)s in %(div)s",
        "players.bad_member": "a member number is at most %(limit)s characters, without "
        "control characters",
        "players.bad_person": 'the person column holds a person\'s number (#12) or "new", '
        "not %(value)s",
    }
)

Kind = Literal["text", "xlsx"]
Field = Literal[
    "name", "division", "tags", "generation", "member", "birth_year", "person", "claim", ""
]

#: A list registers at most this many (a day's divisions hold far fewer).
MAX_ROWS = 5000
#: A list's size: 10 MB.
MAX_BYTES = 10 * 1024 * 1024
#: A member number's length (as the people's details keep it).
MAX_MEMBER = 40

#: The header's words per column, in the three languages.
HEADERS: Mapping[str, str] = {
    "name": "name",
    "이름": "name",
    "성명": "name",
    "名前": "name",
    "氏名": "name",
    "division": "division",
    "부": "division",
    "부문": "division",
    "部": "division",
    "部門": "division",
    "tags": "tags",
    "tag": "tags",
    "태그": "tags",
    "タグ": "tags",
    "generation": "generation",
    "세대": "generation",
    "世代": "generation",
    "family": "family",
    "가족": "family",
    "家族": "family",
    "club": "club",
    "클럽": "club",
    "クラブ": "club",
    "member": "member",
    "member number": "member",
    "회원번호": "member",
    "회원 번호": "member",
    "会員番号": "member",
    "birth year": "birth_year",
    "born": "birth_year",
    "출생연도": "birth_year",
    "출생 연도": "birth_year",
    "생년": "birth_year",
    "生年": "birth_year",
    "生まれ年": "birth_year",
    "person": "person",
    "사람": "person",
    "사람 번호": "person",
    "人": "person",
    "人物番号": "person",
    "claim": "claim",
    "claim code": "claim",
    "확인 코드": "claim",
    "확인코드": "claim",
    "確認コード": "claim",
}
#: The person column's words for "a new person".
NEW_WORDS = frozenset({"new", "새 사람", "신규", "新規", "新しい人"})
#: The columns of a list without a header, in order.
POSITIONAL = ("name", "division", "tags", "generation", "member", "birth_year")


@dataclass(frozen=True, slots=True)
class RowProblem:
    """What is wrong with one field of a row."""

    field: Field
    refusal: Refusal


@dataclass(frozen=True, slots=True)
class RosterRow:
    """One line of a list, as written (``tags`` separated by ``;``, ``,`` or spaces),
    with its problems and the registrations or lines it likely repeats."""

    line: int
    name: str
    division: str = ""
    tags: str = ""
    generation: str = ""
    problems: tuple[RowProblem, ...] = ()
    same_as: tuple[Refusal, ...] = ()
    #: What tells the person apart: the organisation's member number, the birth year.
    member: str = ""
    birth_year: str = ""
    #: Who the line is, as the list says: a person's number (``#12``) or ``new``
    #: (empty: the evidence decides); a holder's claim code for a seat kept for them.
    person: str = ""
    claim: str = ""

    def tag_list(self) -> tuple[str, ...]:
        return tuple(x for x in self.tags.replace(";", " ").replace(",", " ").split() if x)

    def entry(self) -> PlayerEntry:
        """The registration it asks for (a row without problems)."""
        said = self.person.lstrip("#")
        person: int | Literal["new"] | None = (
            int(said) if said.isdigit() else "new" if said.casefold() in NEW_WORDS else None
        )
        return PlayerEntry(
            " ".join(self.name.split()),
            self.division or None,
            self.tag_list(),
            int(self.generation) if self.generation else None,
            self.line,
            self.member or None,
            int(self.birth_year) if self.birth_year else None,
            person,
            self.claim or None,
        )


def decode(raw: bytes | str, limit: int = MAX_BYTES) -> str:
    """A list's text: UTF-8 (with or without the BOM spreadsheets write), at most
    ``limit`` bytes."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > limit:
        raise UseCaseError("players.too_big", size=f"{size:,}", limit=f"{limit:,}")
    if isinstance(raw, str):
        return raw.removeprefix("\ufeff")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UseCaseError("players.not_utf8", byte=f"{exc.start:,}") from None


def _text_rows(text: str) -> list[tuple[int, list[str]]]:
    first = next((x for x in text.splitlines() if x.strip()), "")
    delimiter = "\t" if "\t" in first else ","
    reader = csv.reader(text.splitlines(), delimiter=delimiter, strict=True)
    rows: list[tuple[int, list[str]]] = []
    try:
        for cells in reader:
            rows.append((reader.line_num, cells))
            if len(rows) > MAX_ROWS + 1:
                raise UseCaseError("players.too_many", n=MAX_ROWS)
    except csv.Error:
        raise UseCaseError("players.unreadable", line=reader.line_num) from None
    return rows


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _xlsx_rows(raw: bytes) -> list[tuple[int, list[str]]]:
    from openpyxl import load_workbook  # only for a workbook

    raw = bounded_workbook(raw)  # its parts' sizes bounded before anything inflates
    try:
        book = load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError):
        raise UseCaseError("players.not_xlsx") from None
    try:
        sheet = book.worksheets[0] if book.worksheets else None
        rows: list[tuple[int, list[str]]] = []
        if sheet is None:
            return rows
        for i, values in enumerate(sheet.iter_rows(values_only=True, max_col=12), 1):
            rows.append((i, [_cell(v) for v in values]))
            if len(rows) > MAX_ROWS + 1:
                raise UseCaseError("players.too_many", n=MAX_ROWS)
        return rows
    finally:
        book.close()


def _columns(first: Sequence[str]) -> list[str] | None:
    """The header's columns (``""`` for one that is not ours), or ``None``: no header."""
    cols = [HEADERS.get(c.strip().casefold(), "") for c in first]
    return cols if "name" in cols else None


def read_roster(
    raw: bytes | str,
    kind: Kind = "text",
    *,
    header: bool = False,
    limit: int = MAX_BYTES,
    max_rows: int = MAX_ROWS,
) -> list[RosterRow]:
    """The rows of a list, each with the problems found in it alone. A list is a header
    row (``name,division,tags,generation`` or their Korean or Japanese words,
    ``family`` and ``club`` columns for those tags, ``member`` and ``birth year``
    columns for what tells the person apart) and its rows, or — unless ``header`` is
    required — rows of name, division, tags, generation, member number, birth year in
    that order.
    Blank lines are skipped; a list that cannot be read at all is refused whole."""
    if kind == "xlsx":
        if isinstance(raw, str):
            raise UseCaseError("players.not_xlsx")
        if len(raw) > limit:
            raise UseCaseError("players.too_big", size=f"{len(raw):,}", limit=f"{limit:,}")
        table = _xlsx_rows(raw)
    else:
        table = _text_rows(decode(raw, limit))
    table = [(n, cells) for n, cells in table if any(c.strip() for c in cells)]
    if not table:
        raise UseCaseError("players.empty")
    cols = _columns(table[0][1])
    if cols is None and header:
        raise UseCaseError("players.no_name_column")
    if cols is not None:
        table = table[1:]
    else:
        cols = list(POSITIONAL)
    if len(table) > max_rows:
        raise UseCaseError("players.too_many", n=max_rows)
    out = []
    for line, cells in table:
        fields: dict[str, str] = {}
        for col, value in zip(cols, cells, strict=False):
            if col:
                fields.setdefault(col, value.strip())
        tags = fields.get("tags", "")
        for kind_ in ("family", "club"):
            if fields.get(kind_):
                tags = f"{tags} {kind_}:{'_'.join(fields[kind_].split())}".strip()
        out.append(
            check_row(
                RosterRow(
                    line,
                    fields.get("name", ""),
                    fields.get("division", ""),
                    tags,
                    fields.get("generation", ""),
                    member=fields.get("member", ""),
                    birth_year=fields.get("birth_year", ""),
                    person=fields.get("person", ""),
                    claim=fields.get("claim", ""),
                )
            )
        )
    return out


def check_row(row: RosterRow) -> RosterRow:
    """The row with the problems found in it alone (name, tags, generation)."""
    problems: list[RowProblem] = []
    bad = next((c for c in row.name if is_control(c, line_ends=False)), None)
    if bad is not None:
        problems.append(
            RowProblem("name", Refusal("players.control_character", {"char": repr(bad)}))
        )
    else:
        try:
            check_name(row.name)
        except TournamentError as exc:
            problems.append(RowProblem("name", exc.refusal))
    try:
        check_tags(row.tag_list())
    except TournamentError as exc:
        problems.append(RowProblem("tags", exc.refusal))
    gen = row.generation.strip()
    if gen and not (gen.isascii() and gen.isdigit()):
        problems.append(
            RowProblem(
                "generation", Refusal("players.generation_not_number", {"value": repr(gen[:20])})
            )
        )
    elif gen:
        try:
            check_generation(int(gen))
        except TournamentError as exc:
            problems.append(RowProblem("generation", exc.refusal))
    member = " ".join(row.member.split())
    if len(member) > MAX_MEMBER or any(is_control(c, line_ends=False) for c in member):
        problems.append(RowProblem("member", Refusal("players.bad_member", {"limit": MAX_MEMBER})))
    year = row.birth_year.strip()
    if year and not (year.isascii() and year.isdigit() and 1900 <= int(year) <= date.today().year):
        problems.append(
            RowProblem("birth_year", Refusal("circuit.birth_year", {"year": repr(year[:20])}))
        )
    person = row.person.strip()
    if (
        person
        and not (
            person.lstrip("#").isascii() and person.lstrip("#").isdigit() and len(person) <= 12
        )
        and person.casefold() not in NEW_WORDS
    ):
        problems.append(
            RowProblem("person", Refusal("players.bad_person", {"value": repr(person[:20])}))
        )
    claim = " ".join(row.claim.split())[:40]
    return replace(
        row,
        name=" ".join(row.name.split()),
        generation=gen,
        member=member,
        birth_year=year,
        person=person,
        claim=claim,
        problems=tuple(problems),
        same_as=(),
    )


def check_roster(
    t: Tournament, rows: Sequence[RosterRow], default: str | None = None
) -> list[RosterRow]:
    """The rows checked again and against the tournament: each row's division (as
    written, else ``default``) is resolved to its key or refused, and a name already
    in the list above or already registered is marked as a likely duplicate."""
    seen: dict[str, int] = {}
    registered: dict[str, list[tuple[int, str]]] = {}
    for r in t.registrations:
        if r.status != "withdrawn":
            registered.setdefault(name_key(r.name), []).append(
                (r.player, t.division(r.division).name)
            )
    out = []
    for row in rows:
        row = check_row(row)
        problems = list(row.problems)
        division = row.division
        try:
            division = resolve_division(t, row.division or default, for_import=True)
        except UseCaseError as exc:
            problems.append(RowProblem("division", exc.refusal))
        key = name_key(row.name)
        same: list[Refusal] = []
        if key:
            if key in seen:
                same.append(Refusal("players.same_in_list", {"line": seen[key]}))
            else:
                seen[key] = row.line
            same.extend(
                Refusal("players.same_registered", {"n": n, "div": div})
                for n, div in registered.get(key, ())
            )
        out.append(replace(row, division=division, problems=tuple(problems), same_as=tuple(same)))
    return out


__all__ = [
    "HEADERS",
    "MAX_BYTES",
    "MAX_ROWS",
    "RosterRow",
    "RowProblem",
    "check_roster",
    "check_row",
    "decode",
    "name_key",
    "read_roster",
]
