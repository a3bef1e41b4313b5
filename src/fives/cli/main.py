"""The ``fives`` command line."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from fives.core.record import Record, RecordError, replay_state, report_of


def cmd_replay(args: argparse.Namespace) -> int:
    for path in args.files:
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            print(f"error: {path}: cannot read: {exc}", file=sys.stderr)
            return 2
        try:
            state = replay_state(Record.from_json(text))
        except RecordError as exc:
            print(f"error: {path}: {exc}", file=sys.stderr)
            return 2
        report = report_of(state)
        print(json.dumps(report))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="fives")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay")
    p.add_argument("files", nargs="+")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_replay)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
