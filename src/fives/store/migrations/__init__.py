"""Versioned schema migrations: plain SQL files, one folder per database.

``<dialect>/NNNN_name.sql``, applied in the order of their numbers, each once, each in its own
transaction, and recorded in the ``schema_migrations`` table (``fives db upgrade`` applies
them; so does every start of a store). Numbers 0001-0099 belong to the tables and matches;
0100 and up to the player store. A number is never reused or changed once released.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

__all__ = ["SCHEMA_TABLE", "Migration", "migrations"]

#: where applied migrations are recorded (version, name, when)
SCHEMA_TABLE = "schema_migrations"

_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str

    @property
    def label(self) -> str:
        return f"{self.version:04d}_{self.name}"


def migrations(dialect: str) -> list[Migration]:
    """Every migration of ``dialect`` ("sqlite" or "postgresql"), in order; ValueError for a
    misnamed file or a number used twice (a packaging mistake, caught by the tests)."""
    folder = resources.files(__name__) / dialect
    found: dict[int, Migration] = {}
    for entry in folder.iterdir():
        if not entry.name.endswith(".sql"):
            continue
        match = _NAME.match(entry.name)
        if match is None:
            raise ValueError(f"migration {dialect}/{entry.name}: not named NNNN_name.sql")
        version = int(match.group(1))
        if version in found:
            raise ValueError(f"migration {dialect}/{entry.name}: number {version} used twice")
        found[version] = Migration(version, match.group(2), entry.read_text("utf-8"))
    return [found[v] for v in sorted(found)]
