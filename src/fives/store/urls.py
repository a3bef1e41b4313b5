"""What a ``--db`` says: PostgreSQL (``postgresql://…``) or a SQLite file (a path or
``sqlite:///path``), and how it may be shown (without its password)."""

from __future__ import annotations

__all__ = ["is_postgres", "sqlite_path", "where"]


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def sqlite_path(url: str) -> str:
    """The file of a SQLite ``--db``: ``sqlite:///rel/path``, ``sqlite:////abs/path`` or a
    plain path."""
    return url[len("sqlite:///"):] if url.startswith("sqlite:///") else url


def where(url: str) -> str:
    """The database's address as it may be shown (a password left out)."""
    if not is_postgres(url) or "@" not in url:
        return url
    head, _, tail = url.partition("@")
    scheme, _, user = head.partition("://")
    return f"{scheme}://{user.split(':')[0]}@{tail}"
