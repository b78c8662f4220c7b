"""``meldtour restore FILE``: load a backup into an empty database.

The schema is created first if the database has none; a database that holds any row
is refused, so a restore never mixes two databases.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from meldtour.cli.db import add_db_argument

HELP = "Load a `meldtour backup` JSON file into an empty database."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the backup file, - for stdin")
    add_db_argument(parser)


def run(args: argparse.Namespace) -> int:
    from meldtour.application.maintenance import open_site, restore
    from meldtour.store.errors import StoreError

    try:
        raw = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        data = json.loads(raw)
    except (OSError, json.JSONDecodeError) as exc:
        print(f"meldtour restore: cannot read {args.file}: {exc}", file=sys.stderr)
        return 1
    store = open_site(args.db, check=False)
    try:
        counts = restore(store, data)
    except StoreError as exc:
        print(f"meldtour restore: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    total = sum(counts.values())
    print(
        f"restored {total:,} rows in {sum(1 for n in counts.values() if n)} tables", file=sys.stderr
    )
    return 0
