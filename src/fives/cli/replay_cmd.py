"""``fives replay FILE... [--json]``: check and replay records (RECORD.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from fives.core.record import Record, RecordError, replay_state, report_of


def register(sub: Any) -> None:
    p = sub.add_parser("replay", help="check and replay game records")
    p.add_argument("files", nargs="+", metavar="FILE", help="record files (RECORD.md)")
    p.add_argument("--json", action="store_true", help="one JSON report per record (JSON Lines)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
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
        if args.json:
            print(json.dumps(report))
        else:
            print(json.dumps(report, indent=1))
    return 0
