"""Pickling (and deep copies) of the core's values, compiled or not.

Compiled by mypyc, a class is rebuilt on unpickling by calling it without arguments and then
setting its attributes; a frozen dataclass refuses the attributes, a class whose constructor
takes arguments refuses the call. Tournaments send configurations, views and records between
processes, and callers may deep-copy a state, so these classes are pickled as a call of their
constructor instead: frozen dataclasses with their fields (in both builds, so both pickle
alike), plain classes with the attributes the constructor takes, then the rest set.
"""

from __future__ import annotations

import copyreg
from collections.abc import Callable
from dataclasses import fields
from typing import Any

__all__ = ["pickle_by_attributes", "pickle_by_constructor"]


def _by_constructor(value: Any) -> tuple[type, tuple[Any, ...]]:
    return type(value), tuple(getattr(value, f.name) for f in fields(value) if f.init)


def pickle_by_constructor(*classes: type) -> None:
    """Pickle instances of these dataclasses as a call of their constructor."""
    for cls in classes:
        copyreg.pickle(cls, _by_constructor)


def _rebuilt(cls: Callable[..., Any], args: tuple[Any, ...], attrs: dict[str, Any]) -> Any:
    value = cls(*args)
    for name, attr in attrs.items():
        setattr(value, name, attr)
    return value


def pickle_by_attributes(cls: type, args: tuple[str, ...]) -> None:
    """Pickle instances of ``cls`` as a call of it with its attributes ``args``, then every
    other attribute set. Only where compiled: Python's own pickling does this for the pure
    class (mypyc lists a native class's attributes in ``__mypyc_attrs__``)."""
    attrs: tuple[str, ...] | None = getattr(cls, "__mypyc_attrs__", None)
    if attrs is None:
        return
    rest = tuple(a for a in attrs if a not in args)

    def reduce(value: Any) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        return _rebuilt, (
            cls, tuple(getattr(value, a) for a in args), {a: getattr(value, a) for a in rest}
        )

    copyreg.pickle(cls, reduce)
