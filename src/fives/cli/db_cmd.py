"""``fives db upgrade --db URL``: create or migrate the database (SQLite file or
PostgreSQL) to the newest schema; ``fives serve`` does the same when it starts.
``fives db archive --db URL --older-than DAYS``: drop the deals and actions of matches
finished before then (their records keep them); ``fives serve`` does it as it goes."""

from __future__ import annotations

import argparse
import time
from typing import Any

from fives.cli.errors import UsageError

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    from fives.server.settings import Settings

    p = sub.add_parser(
        "db",
        help="manage the server's database (upgrade: apply the schema migrations; archive: "
             "drop long finished matches' action rows)",
        description="Manage the server's database.",
    )
    p.add_argument("action", choices=["upgrade", "archive"],
                   help="upgrade: apply every schema migration not yet applied; archive: drop "
                        "the deals and actions of matches finished more than --older-than "
                        "days ago (each match's record keeps them all)")
    p.add_argument("--older-than", type=float, default=Settings().archive_after / 86400,
                   metavar="DAYS", help="with archive: matches finished this many days ago "
                                        f"(default {Settings().archive_after / 86400:g})")
    p.add_argument("--db", default=Settings().db, metavar="URL",
                   help="a SQLite file (a path or sqlite:///path) or postgresql://user:pass@host"
                        f":port/name (default {Settings().db})")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from fives.store import StoreError
    from fives.store.open import archive, upgrade

    if args.action == "archive":
        if args.older_than < 0:
            raise UsageError("--older-than cannot be negative")
        try:
            count = archive(args.db, time.time() - args.older_than * 86400)
        except StoreError as exc:
            raise UsageError(str(exc)) from None
        print(f"{count} finished match{'es' if count != 1 else ''} archived (deals and actions "
              "dropped; the records keep them)")
        return 0
    try:
        applied = upgrade(args.db)
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    for label in applied:
        print(f"applied {label}")
    print(f"database up to date ({len(applied)} migration{'s' if len(applied) != 1 else ''} "
          "applied now)")
    return 0
