"""``meldtour replay RECORD.json``: replay a game record and print where it stands."""

from __future__ import annotations

import argparse

from meldtour.core.record import read_record, replay
from meldtour.solver import finder

from .jsonlines import RecordFailure, dumps, with_record

HELP = "replay a game record (JSON): prints board, racks, pool_left, penalties, scores, winner, end"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="the game record, a JSON file ('-' for standard input)")


def run(args: argparse.Namespace) -> int:
    try:
        state = with_record(
            args.record,
            lambda data, resolve: replay(read_record(data, resolve=resolve), finder=finder),
        )
    except RecordFailure as exc:
        return exc.report("replay")
    print(dumps(state.summary()))
    return 0
