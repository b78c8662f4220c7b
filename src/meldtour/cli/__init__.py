"""The ``meldtour`` command line: one module per command, loaded on demand.

Each command module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from meldtour import __version__

#: Command name -> module under ``meldtour.cli``.
COMMANDS: dict[str, str] = {
    "check": "check",
    "score": "score",
    "replay": "replay",
    "solve": "solve",
    "seat": "seat",
    "standings": "standings",
    "simulate": "simulate",
    "analyse": "analyse",
    "db": "db",
    "backup": "backup",
    "restore": "restore",
    "tournament": "tournament",
    "ranking": "ranking",
    "rating": "rating",
    "people": "people",
    "qualify": "qualify",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="meldtour",
        description="Rummikub tournaments under the official rules.",
    )
    parser.add_argument("--version", action="version", version=f"meldtour {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        try:
            module = importlib.import_module(f"meldtour.cli.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"meldtour.cli.{module_name}":
                raise
            continue
        text = module.HELP.replace("%", "%%")  # argparse formats help with %
        p = sub.add_parser(name, help=text, description=text)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 0
    try:
        code: int = args._run(args)
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        sys.stderr.close()
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
