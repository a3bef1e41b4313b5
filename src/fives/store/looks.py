"""What a name looks like: its skeleton, in the sense of Unicode's confusable detection (UTS #39,
section 4), so that two names a reader cannot tell apart ("Asha" and an all-Cyrillic "Аѕһа")
have the same one and different names ("Asha", "Aisha", "आशा") have different ones.

The table of look-alikes is Unicode's ``confusables.txt`` as the maintained
``confusable_homoglyphs`` package ships it (each character with the characters it may pass
for). Each group of characters joined there is written as one of them: the group's prototype
(the character the most others pass for: "o" for the Cyrillic "о" and the Greek "ο"; "rn" for
"m"), so "Аѕһа" and "Asha" both read "Asha". Case is kept: "ASHA" is not a look-alike of "Asha".
"""

from __future__ import annotations

import functools
import unicodedata

__all__ = ["name_look"]


def name_look(name: str) -> str:
    """The skeleton of a name: the same for names that look the same."""
    prototypes = _prototypes()
    text = unicodedata.normalize("NFD", name)
    return unicodedata.normalize("NFD", "".join(prototypes.get(ch, ch) for ch in text))


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character and the prototype of its group (a string: "m" is "rn")."""
    from confusable_homoglyphs import utils

    table: dict[str, list[dict[str, str]]] = utils.load("confusables.json")
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def bare(s: str) -> str:  # the table wraps right-to-left letters in direction marks
        return s.replace("\u200e", "")

    for key, others in table.items():
        for other in others:
            a, b = root(bare(key)), root(bare(other["c"]))
            if a != b:
                parent[a] = b
    # the prototype: the member the most others are listed for, then the longest (the
    # spelled-out "अा" for "आ", as Unicode's table writes it), then the first in code order
    weight = {bare(key): len(others) for key, others in table.items()}
    best: dict[str, str] = {}
    for member in parent:
        group = root(member)
        rival = best.get(group)
        if rival is None or _rank(member, weight) < _rank(rival, weight):
            best[group] = member
    return {m: best[root(m)] for m in parent if len(m) == 1 and best[root(m)] != m}


def _rank(member: str, weight: dict[str, int]) -> tuple[int, int, str]:
    return (-weight.get(member, 0), -len(member), member)
