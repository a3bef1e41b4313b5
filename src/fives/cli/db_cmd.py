"""``fives db upgrade --db URL``: create or migrate the database (SQLite file or
PostgreSQL) to the newest schema; ``fives serve`` does the same when it starts."""

from __future__ import annotations

import argparse
from typing import Any

from fives.cli.errors import UsageError

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    from fives.server.settings import Settings

    p = sub.add_parser(
        "db",
        help="manage the server's database (upgrade: apply the schema migrations)",
        description="Manage the server's database.",
    )
    p.add_argument("action", choices=["upgrade"],
                   help="upgrade: apply every schema migration not yet applied")
    p.add_argument("--db", default=Settings().db, metavar="URL",
                   help="a SQLite file (a path or sqlite:///path) or postgresql://user:pass@host"
                        f":port/name (default {Settings().db})")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from fives.store import StoreError
    from fives.store.open import upgrade

    try:
        applied = upgrade(args.db)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    for label in applied:
        print(f"applied {label}")
    print(f"database up to date ({len(applied)} migration{'s' if len(applied) != 1 else ''} "
          "applied now)")
    return 0
