"""An uploaded XLSX workbook, bounded before anything parses it.

An XLSX file is a ZIP archive of XML parts, and a limit on the upload counts the
*compressed* bytes: a 9 KiB workbook whose shared strings inflate to 3 MiB kept
openpyxl busy 2.1 s, and 151 KiB inflating to gigabytes took 99.7 s and 1.19 GiB.
:func:`bounded_workbook` reads the archive's directory first and refuses a workbook
with too many parts, a part whose inflated size is over :data:`MAX_PART` or parts over
:data:`MAX_TOTAL` in all — before a byte is inflated — and then inflates each part
counting what comes out, so that a header that lies about a size is caught too (and
Python's ``zipfile`` checks each part's CRC). What it hands on is the same workbook,
stored without compression: the parser inflates nothing.

(The XML itself is parsed by openpyxl through ``defusedxml``, a dependency, so an
entity that expands is refused; the web parses in a worker process with a time and
memory limit: :mod:`meldtour.web.uploads`.)

>>> import io, zipfile
>>> buf = io.BytesIO()
>>> with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
...     z.writestr("xl/sharedStrings.xml", "<sst>" + "x" * 5_000_000 + "</sst>")
>>> len(buf.getvalue()) < 10_000
True
>>> try:
...     bounded_workbook(buf.getvalue(), part_limit=1_000_000)
... except UseCaseError as exc:
...     print(exc.code, exc.params["size"])
players.xlsx_part_too_big 5,000,011
"""

from __future__ import annotations

import io
import zipfile

from meldtour.core.refusal import register

from .errors import UseCaseError

register(
    {
        "players.xlsx_parts": "the workbook has %(n)s parts: at most %(limit)s (save only the "
        "players' sheet)",
        "players.xlsx_part_too_big": "the workbook's part %(part)s is %(size)s bytes unpacked: "
        "at most %(limit)s",
        "players.xlsx_too_big": "the workbook is %(size)s bytes unpacked: at most %(limit)s",
        "players.xlsx_slow": "the workbook took more than %(seconds)s seconds to read: save the "
        "players' sheet alone, or as CSV UTF-8",
        "players.xlsx_busy": "other lists are being read just now: try again in a moment",
    }
)

#: One part of a workbook, inflated: 4 MiB (a sheet of 5,000 players is under 2 MiB;
#: openpyxl reads 4 MiB of shared strings in about 4 s on a busy core).
MAX_PART = 4 * 1024 * 1024
#: All the parts, inflated: 16 MiB.
MAX_TOTAL = 16 * 1024 * 1024
#: Parts in one workbook (a workbook saved by a spreadsheet program has a dozen or two).
MAX_PARTS = 200
_CHUNK = 64 * 1024


def bounded_workbook(
    raw: bytes,
    *,
    part_limit: int = MAX_PART,
    total_limit: int = MAX_TOTAL,
    parts_limit: int = MAX_PARTS,
) -> bytes:
    """The workbook ``raw`` as an uncompressed ZIP archive, or the refusal that says
    which bound it is over (``players.not_xlsx`` when it is no ZIP archive at all)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        infos = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise UseCaseError("players.not_xlsx") from None
    if len(infos) > parts_limit:
        raise UseCaseError("players.xlsx_parts", n=len(infos), limit=parts_limit)
    declared = 0
    for info in infos:
        if info.file_size > part_limit:
            raise UseCaseError(
                "players.xlsx_part_too_big",
                part=info.filename[:80],
                size=f"{info.file_size:,}",
                limit=f"{part_limit:,}",
            )
        declared += info.file_size
    if declared > total_limit:
        raise UseCaseError("players.xlsx_too_big", size=f"{declared:,}", limit=f"{total_limit:,}")
    out = io.BytesIO()
    seen = 0
    try:
        with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as stored:
            for info in infos:
                if info.is_dir():
                    continue
                parts: list[bytes] = []
                size = 0
                with archive.open(info) as part:
                    while chunk := part.read(_CHUNK):
                        size += len(chunk)
                        seen += len(chunk)
                        if size > part_limit:  # a header that lied about its size
                            raise UseCaseError(
                                "players.xlsx_part_too_big",
                                part=info.filename[:80],
                                size=f"over {part_limit:,}",
                                limit=f"{part_limit:,}",
                            )
                        if seen > total_limit:
                            raise UseCaseError(
                                "players.xlsx_too_big",
                                size=f"over {total_limit:,}",
                                limit=f"{total_limit:,}",
                            )
                        parts.append(chunk)
                stored.writestr(info.filename, b"".join(parts))
    except (zipfile.BadZipFile, NotImplementedError, RuntimeError, ValueError, OSError, EOFError):
        # a bad CRC (a size that lied), an unknown compression, an encrypted part
        raise UseCaseError("players.not_xlsx") from None
    return out.getvalue()


__all__ = ["MAX_PART", "MAX_PARTS", "MAX_TOTAL", "bounded_workbook"]
