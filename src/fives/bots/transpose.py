"""Identical actions: plays that leave the same game, searched once and shown as one.

Two legal plays are *transpositions* of each other when they place the same tile and leave
layouts that no later rule can tell apart: the same ends total (so the same points), and the
same arms up to the layout's symmetries. The rules treat the two line arms (W and E) alike
and the two side arms (N and S) alike: what an arm contributes is its outer number, whether its
outer tile is a double, and whether it holds any tile (an empty arm joins on the spinner and
keeps the side arms' gate closed). The length of an arm beyond that, and which of the two
mirror arms got the tile, never change a legal action, a score or an outcome.

So a fresh spinner's N and S arms are one action, and so are two line ends showing the same
number with the same doubleness.

>>> from fives.core.layout import Layout
>>> from fives.core.tiles import Action
>>> lay = Layout(spinner_rules=False)
>>> _ = lay.place(Action.parse("3-3").tile.id, 0)
>>> [str(a) for a in canonical_actions(lay, [Action.parse("3-5@W"), Action.parse("3-5@E")])]
['3-5@W']
"""

from __future__ import annotations

from collections.abc import Sequence

from fives.core.layout import Layout
from fives.core.tiles import Action

__all__ = ["action_classes", "canonical_actions", "play_key"]

ArmKey = tuple[int, bool, bool]


def _arm(lay: Layout, end: int) -> ArmKey:
    return (lay.value[end], lay.double[end], lay.length[end] > 0)


def play_key(lay: Layout, action: Action) -> tuple[object, ...]:
    """What the game after ``action`` on ``lay`` depends on (the layout is not changed).

    Draws, passes and leads key on themselves: a lead has no end to mirror.
    """
    tile = action.tile
    end = action.end
    if tile is None or end is None:
        return (int(action),)
    after = lay.copy()
    total = after.place(tile.id, end)
    line = tuple(sorted((_arm(after, 0), _arm(after, 1))))
    side = tuple(sorted((_arm(after, 2), _arm(after, 3))))
    opened = tuple(sorted(v for _, v in after.ends))
    return (tile.id, total, line, side, opened, after.spinner)


def action_classes(lay: Layout, legal: Sequence[Action]) -> list[list[Action]]:
    """The legal actions grouped into transpositions, each group in the given order, the
    groups in the order of their first member."""
    groups: dict[tuple[object, ...], list[Action]] = {}
    for action in legal:
        groups.setdefault(play_key(lay, action), []).append(action)
    return list(groups.values())


def canonical_actions(lay: Layout, legal: Sequence[Action]) -> list[Action]:
    """One action (the first) of each transposition class."""
    return [group[0] for group in action_classes(lay, legal)]
