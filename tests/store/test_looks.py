"""A name's look (its Unicode skeleton): the same for names a reader cannot tell apart,
different for different names."""

from __future__ import annotations

import pytest

from fives.store.looks import name_look


@pytest.mark.parametrize(("name", "like"), [
    ("Asha", "\u0410\u0455\u04bb\u0430"),  # all Cyrillic
    ("Asha", "\u0410sha"),  # one Cyrillic letter
    ("Priya", "Pri\u0443a"),
    ("Rahul", "Rahu1"),  # a digit for a letter
    ("Sam", "Sarn"),  # "rn" for "m"
    ("Om", "0m"),
    ("\u0906\u0930\u0924\u0940", "\u0905\u093e\u0930\u0924\u0940"),  # आ and अ + ा
    ("Asha", "\uff21sha"),  # a fullwidth A
])
def test_look_alikes_have_one_look(name: str, like: str) -> None:
    assert name != like and name_look(name) == name_look(like)


@pytest.mark.parametrize(("name", "other"), [
    ("Asha", "Aisha"), ("Asha", "ASHA"), ("Asha", "\u0906\u0936\u093e"), ("Ravi", "Ravu"),
    ("\u0930\u093e\u091c", "\u0930\u093e\u092e"),  # राज, राम
])
def test_different_names_have_different_looks(name: str, other: str) -> None:
    assert name_look(name) != name_look(other)
