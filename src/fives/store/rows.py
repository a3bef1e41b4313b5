"""Rows read back into stored values, the same for every database: JSON checked, a damaged
row named (:class:`DamagedRow`) instead of failing whatever read it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from fives.store.base import DamagedRow, StoredAction, StoredRound, StoredTable

__all__ = ["TABLE_COLUMNS", "parse_json", "rounds_of", "table_of"]

#: the columns of a table's row, in the order :func:`table_of` reads them
TABLE_COLUMNS = "id, created, status, meta, record, finished, fence"


def parse_json(table_id: str, what: str, text: Any, kind: type) -> Any:
    """Stored JSON, or :class:`DamagedRow` naming the table and the part that is damaged."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise DamagedRow(f"table {table_id}: its {what} is damaged (not JSON)") from None
    if not isinstance(value, kind):
        raise DamagedRow(f"table {table_id}: its {what} is damaged (not a JSON {kind.__name__})")
    return value


def table_of(row: Iterable[Any]) -> StoredTable:
    """A table's row (TABLE_COLUMNS) without its rounds."""
    table_id, created, status, meta, record, finished, fence = row
    return StoredTable(
        id=table_id,
        created=created,
        status=status,
        meta=parse_json(table_id, "meta", meta, dict),
        record=parse_json(table_id, "record", record, dict) if record else None,
        finished=finished,
        fence=int(fence or 0),
    )


def rounds_of(table_id: str, rounds: Iterable[Iterable[Any]],
              actions: Iterable[Iterable[Any]]) -> list[StoredRound]:
    """A table's rounds (round_no, leader, hands, stock, ts) with their actions (seq,
    round_no, seat, action, how, ts), both in order."""
    by_no: dict[int, StoredRound] = {}
    for round_no, leader, hands, stock, ts in rounds:
        by_no[round_no] = StoredRound(
            round_no, leader, parse_json(table_id, f"round {round_no}", hands, list),
            parse_json(table_id, f"round {round_no}", stock, list), ts,
        )
    for seq, round_no, seat, action, how, ts in actions:
        if round_no in by_no:
            by_no[round_no].actions.append(StoredAction(seq, seat, action, how, ts))
    return [by_no[k] for k in sorted(by_no)]
