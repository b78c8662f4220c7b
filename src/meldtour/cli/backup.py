"""``meldtour backup FILE``: the whole database as one JSON file (``-`` for stdout).

``meldtour restore FILE`` loads it into an empty database; a backup of the restored
database is the same file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from meldtour.cli.db import add_db_argument

HELP = "Write the whole database to a JSON file (restore it with `meldtour restore`)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the JSON file to write, - for stdout")
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    from meldtour.application.maintenance import backup, open_site
    from meldtour.store.errors import StoreError

    try:
        store = open_site(args.db)
    except StoreError as exc:
        print(f"meldtour backup: {exc}", file=sys.stderr)
        return 1
    try:
        text = backup(store)
    finally:
        store.close()
    if args.file == "-":
        sys.stdout.write(text)
    else:
        path = Path(args.file)
        tmp = path.with_name(path.name + ".part")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
        print(f"backed up to {path} ({len(text.encode()):,} bytes)", file=sys.stderr)
    return 0
