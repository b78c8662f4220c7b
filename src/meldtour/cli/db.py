"""``meldtour db``: the database's schema.

``meldtour db upgrade`` applies the migrations (creating the database on first use);
``meldtour db status`` says where the database is and whether its schema is current.
The database is ``--db URL``, else ``MELDTOUR_DATABASE_URL``, else the SQLite file
``var/meldtour.db``.
"""

from __future__ import annotations

import argparse
import sys

HELP = "The database: `upgrade` applies the schema migrations, `status` shows the schema."


def add_db_argument(parser: argparse.ArgumentParser, default: object = None) -> None:
    parser.add_argument(
        "--db",
        metavar="URL",
        default=default,
        help="database URL (default: $MELDTOUR_DATABASE_URL, else sqlite:///var/meldtour.db);"
        " postgresql://user@host/db or a path to an SQLite file",
    )


def who_of(args: argparse.Namespace) -> str:
    """Who acts, for the audit log: ``--who``, else ``$MELDTOUR_USER``, else the login
    name (the commands that change a tournament share this)."""
    import getpass
    import os

    who = getattr(args, "who", None) or os.environ.get("MELDTOUR_USER")
    if who:
        return str(who)
    try:
        return getpass.getuser()
    except Exception:
        return "director"


def print_json(obj: object) -> None:
    """A command's answer for scripts: JSON, not ASCII-escaped, on one stdout write."""
    import json

    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=1) + "\n")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_db_argument(parser)
    sub = parser.add_subparsers(dest="db_command", metavar="ACTION")
    up = sub.add_parser("upgrade", help="apply the schema migrations")
    add_db_argument(up, argparse.SUPPRESS)
    st = sub.add_parser("status", help="the database and its schema revision")
    add_db_argument(st, argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    from meldtour.application import maintenance

    where = maintenance.where(args.db)
    try:
        if args.db_command == "upgrade":
            schema = maintenance.upgrade_schema(args.db)
            before, after = schema.before, schema.current
            if before == after:
                print(f"{where}: schema {after} is current")
            else:
                print(f"{where}: schema {before or '(none)'} → {after}")
            return 0
        if args.db_command == "status":
            status = maintenance.schema_status(args.db)
            current, head = status.current, status.head
            state = "current" if current == head else "run `meldtour db upgrade`"
            print(f"{where}: schema {current or '(none)'}, this meldtour needs {head} ({state})")
            return 0 if current == head else 1
    except Exception as exc:  # a database that does not answer, a bad URL
        print(f"meldtour db: {where}: {exc}", file=sys.stderr)
        return 1
    print("meldtour db: give an action: upgrade or status", file=sys.stderr)
    return 2
