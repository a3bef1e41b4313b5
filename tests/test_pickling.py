"""How the core's values are pickled and deep-copied (``fives.core.pickling``), tested on
classes of the test's own so that both builds run the same code: a frozen dataclass as a call
of its constructor with the fields it takes; a class listing its attributes as mypyc does
(``__mypyc_attrs__``) as a call with the ones its constructor takes, then the rest set; a class
that lists none left to Python's own pickling. Each test registers its classes itself (the
registration is what is tested: each starts from none)."""

from __future__ import annotations

import copy
import copyreg
import pickle
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from fives.core.pickling import pickle_by_attributes, pickle_by_constructor


@dataclass(frozen=True)
class Pair:
    left: int
    right: str
    seen: int = field(default=7, init=False)


@dataclass(frozen=True)
class Single:
    only: tuple[int, ...]


class Native:
    """A stand-in for a compiled class: its constructor takes two of its three attributes."""

    __mypyc_attrs__ = ("top", "bottom", "count")
    made: ClassVar[list[tuple[Any, ...]]] = []

    def __init__(self, top: int, bottom: list[int]) -> None:
        Native.made.append((top, bottom))
        self.top = top
        self.bottom = bottom
        self.count = 0


class Plain:
    def __init__(self, value: int) -> None:
        self.value = value



@pytest.fixture(autouse=True)
def _unregistered() -> None:
    for cls in (Pair, Single, Native, Plain):
        copyreg.dispatch_table.pop(cls, None)


def test_a_frozen_dataclass_is_pickled_as_a_call_of_its_constructor_with_its_init_fields() -> None:
    pickle_by_constructor(Pair, Single)
    pair = Pair(3, "x")
    reduce = copyreg.dispatch_table[Pair]
    assert reduce(pair) == (Pair, (3, "x"))  # ``seen`` is not the constructor's
    assert reduce(Single((1, 2))) == (Single, ((1, 2),))
    for again in (pickle.loads(pickle.dumps(pair)), copy.deepcopy(pair)):
        assert again == pair and again.seen == 7


def test_a_native_class_is_rebuilt_from_its_constructor_then_the_rest_of_its_attributes() -> None:
    pickle_by_attributes(Native, ("top", "bottom"))
    value = Native(4, [1, 2])
    value.count = 9
    Native.made.clear()
    for again in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value)):
        assert (again.top, again.bottom, again.count) == (4, [1, 2], 9)
    assert Native.made == [(4, [1, 2]), (4, [1, 2])]  # the constructor called, with its two
    rebuild, args = copyreg.dispatch_table[Native](value)
    assert args == (Native, (4, [1, 2]), {"count": 9})
    assert rebuild(*args).count == 9


def test_a_class_that_lists_no_attributes_is_left_to_pythons_own_pickling() -> None:
    pickle_by_attributes(Plain, ("value",))
    assert Plain not in copyreg.dispatch_table
    assert pickle.loads(pickle.dumps(Plain(5))).value == 5
