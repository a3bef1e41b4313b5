"""``fives db upgrade --db URL``: create or migrate the database (SQLite file or
PostgreSQL) to the newest schema; ``fives serve`` does the same when it starts.
``fives db archive --db URL --older-than DAYS``: drop the deals and actions of matches
finished before then (their records keep them); ``fives serve`` does it as it goes."""

from __future__ import annotations

import argparse
import time
from typing import Any

from fives.cli.errors import UsageError, keyed_text
from fives.cli.options import add_lang_option, lang_of
from fives.i18n import default_language, plural, t

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    from fives.server.settings import Settings

    lang = default_language()
    days, db = Settings().archive_after / 86400, Settings().db
    p = sub.add_parser("db", help=t("cli.db.help", lang), description=t("cli.db.description", lang))
    p.add_argument("action", choices=["upgrade", "archive"], help=t("cli.db.action", lang))
    p.add_argument("--older-than", type=float, default=days, metavar="DAYS",
                   help=t("cli.db.older_than", lang, days=f"{days:g}"))
    p.add_argument("--db", default=db, metavar="URL", help=t("cli.db.db", lang, db=db))
    add_lang_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from fives.store import StoreError
    from fives.store.open import archive, upgrade

    lang = lang_of(args)
    if args.action == "archive":
        if args.older_than < 0:
            raise UsageError(t("cli.err.negative", lang, option="--older-than"), lang)
        try:
            count = archive(args.db, time.time() - args.older_than * 86400)
        except StoreError as exc:
            raise UsageError(keyed_text("store", exc, lang), lang) from None
        print(plural("cli.db.archived", count, lang))
        return 0
    try:
        applied = upgrade(args.db)
    except StoreError as exc:
        raise UsageError(keyed_text("store", exc, lang), lang) from None
    for label in applied:
        print(t("cli.db.applied", lang, label=label))
    print(plural("cli.db.up_to_date", len(applied), lang))
    return 0
