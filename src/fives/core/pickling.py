"""Pickling of the core's frozen dataclasses, compiled or not.

Compiled by mypyc, a frozen dataclass cannot be unpickled: its attributes are restored by
assignment, which the frozen class refuses. Tournaments send configurations, views and records
between processes, so these value types are pickled as a call of their constructor instead
(the same in the pure build, so both pickle alike).
"""

from __future__ import annotations

import copyreg
from dataclasses import fields
from typing import Any

__all__ = ["pickle_by_constructor"]


def _by_constructor(value: Any) -> tuple[type, tuple[Any, ...]]:
    return type(value), tuple(getattr(value, f.name) for f in fields(value) if f.init)


def pickle_by_constructor(*classes: type) -> None:
    """Pickle instances of these dataclasses as a call of their constructor."""
    for cls in classes:
        copyreg.pickle(cls, _by_constructor)
