"""Tiles, ends and actions, with their notation (RECORD.md).

Tiles and actions are interned value objects: ``Tile.parse("4-1") is Tile.parse("1-4")``.
Both carry a small integer ``id`` so that the engine's inner loops work on ints and bit masks.

>>> Tile.parse("4-1")
Tile.parse('1-4')
>>> str(Tile.parse("6-6")), Tile.parse("6-6").pips, Tile.parse("6-6").is_double
('6-6', 12, True)
>>> str(Action.parse("5-3@n")), str(Action.parse("draw")), str(Action.lead(Tile.parse("4-1")))
('3-5@N', 'draw', '1-4')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Literal, TypeVar

from fives.core.errors import InputError

__all__ = [
    "ALL_TILES",
    "ActionKind",
    "DRAW",
    "END_NAMES",
    "PASS",
    "Action",
    "E",
    "N",
    "NotationError",
    "S",
    "SUIT_MASK",
    "Tile",
    "W",
    "mask_of",
    "parse_end",
    "pips_of_mask",
    "round_to_five",
    "tiles_of_mask",
]

W: Final = 0
E: Final = 1
N: Final = 2
S: Final = 3
END_NAMES: Final = "WENS"


class NotationError(InputError):
    """A tile, end or action written wrongly; the message quotes the input."""


class Tile:
    """One domino of the double-six set; ``low <= high`` always."""

    __slots__ = ("high", "id", "is_double", "low", "mask", "pips")

    low: int
    high: int
    id: int
    is_double: bool
    pips: int
    mask: int

    def __new__(cls, low: int, high: int) -> Tile:
        if low > high:
            low, high = high, low
        if not (0 <= low and high <= 6):
            raise NotationError("no_such_tile", text=f"{low}-{high}")
        found = _TILE_BY_HALVES[low * 7 + high]
        if found is not None:
            return found
        # Interned: each tile is made once, when this module builds the set in order.
        tile = super().__new__(cls)
        tile.low = low
        tile.high = high
        tile.id = len(_tiles)
        tile.is_double = low == high
        tile.pips = low + high
        tile.mask = 1 << tile.id
        _tiles.append(tile)
        _TILE_BY_HALVES[low * 7 + high] = _TILE_BY_HALVES[high * 7 + low] = tile
        return tile

    @classmethod
    def parse(cls, text: str | object) -> Tile:
        """Read ``a-b`` (either order); anything else, a string or not, is a NotationError."""
        if not isinstance(text, str):
            raise NotationError("tile_form", text=repr(text))
        parts = text.strip().split("-")
        if len(parts) != 2 or not all(len(p) == 1 and p in "0123456789" for p in parts):
            raise NotationError("tile_form", text=repr(text))
        a, b = int(parts[0]), int(parts[1])
        if a > 6 or b > 6:
            raise NotationError("no_such_tile", text=repr(text))
        return cls(a, b)

    @staticmethod
    def from_id(tile_id: int) -> Tile:
        return ALL_TILES[tile_id]

    def other(self, half: int) -> int:
        """The half facing away when ``half`` is joined to an end."""
        return self.high if half == self.low else self.low

    def has(self, value: int) -> bool:
        return value == self.low or value == self.high

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile.parse('{self}')"

    def __lt__(self, other: Tile) -> bool:
        return self.id < other.id

    def __hash__(self) -> int:
        # Said outright: a compiled class that orders its instances is otherwise unhashable.
        # Tiles are interned, so equality is identity and the id is a fine hash.
        return self.id

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.low, self.high))


_TILE_BY_HALVES: Final[list[Tile | None]] = [None] * 49
_tiles: Final[list[Tile]] = []
for _low in range(7):
    for _high in range(_low, 7):
        Tile(_low, _high)
ALL_TILES: Final[tuple[Tile, ...]] = tuple(_tiles)
FULL_SET_MASK: Final = (1 << len(ALL_TILES)) - 1

#: SUIT_MASK[v]: the bit mask of the tiles that show the number v.
SUIT_MASK: Final[tuple[int, ...]] = tuple(
    sum(t.mask for t in ALL_TILES if t.has(v)) for v in range(7)
)


def mask_of(tiles: Iterable[Tile]) -> int:
    mask = 0
    for t in tiles:
        mask |= t.mask
    return mask


def tiles_of_mask(mask: int) -> list[Tile]:
    """The tiles of a bit mask, in set order (0-0 first)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(ALL_TILES[low.bit_length() - 1])
        mask ^= low
    return out


def pips_of_mask(mask: int) -> int:
    """C-9: the sum of both halves of every tile in a hand."""
    total = 0
    while mask:
        low = mask & -mask
        total += ALL_TILES[low.bit_length() - 1].pips
        mask ^= low
    return total


def round_to_five(pips: int) -> int:
    """C-10: remainder 1 or 2 rounds down, 3 or 4 rounds up.

    >>> [round_to_five(x) for x in (0, 12, 13, 2, 3)]
    [0, 10, 15, 0, 5]
    """
    return (pips + 2) // 5 * 5


def parse_end(text: str) -> int:
    letter = text.strip().upper()
    if len(letter) != 1 or letter not in END_NAMES:
        raise NotationError("end_form", text=repr(text))
    return END_NAMES.index(letter)


# Action codes: play = tile * 4 + end (0..111), lead = 112 + tile, draw = 140, pass = 141.
_LEAD_BASE: Final = 112
_DRAW_CODE: Final = 140
_PASS_CODE: Final = 141
#: what an action does: the opening lead, a play on an end, a draw, a pass (a knock)
ActionKind = Literal["lead", "play", "draw", "pass"]
NUM_ACTIONS: Final = 142


_C = TypeVar("_C")


def _python_class(cls: _C) -> _C:
    """Keeps ``cls`` an ordinary Python class when the core is compiled: mypyc makes native
    classes only of undecorated ones, and a subclass of ``int`` cannot be native."""
    return cls


@_python_class
class Action(int):
    """An action of RECORD.md: ``a-b`` (lead), ``a-b@X`` (play), ``draw``, ``pass``.

    An ``int`` underneath (its code, 0..141), interned, so the engine can index tables with it.
    """

    __slots__ = ()

    @property
    def kind(self) -> ActionKind:
        code = int(self)
        if code < _LEAD_BASE:
            return "play"
        if code < _DRAW_CODE:
            return "lead"
        return "draw" if code == _DRAW_CODE else "pass"

    @property
    def tile(self) -> Tile | None:
        code = int(self)
        if code < _LEAD_BASE:
            return ALL_TILES[code >> 2]
        if code < _DRAW_CODE:
            return ALL_TILES[code - _LEAD_BASE]
        return None

    @property
    def end(self) -> int | None:
        code = int(self)
        return code & 3 if code < _LEAD_BASE else None

    @property
    def is_play(self) -> bool:
        """A lead or a play: the action puts a tile on the table."""
        return int(self) < _DRAW_CODE

    @staticmethod
    def play(tile: Tile, end: int) -> Action:
        return ACTIONS[tile.id * 4 + end]

    @staticmethod
    def lead(tile: Tile) -> Action:
        return ACTIONS[_LEAD_BASE + tile.id]

    @staticmethod
    def from_code(code: int) -> Action:
        return ACTIONS[code]

    @classmethod
    def parse(cls, text: str | object) -> Action:
        """Read RECORD.md's notation; anything else, a string or not, is a NotationError."""
        if not isinstance(text, str):
            raise NotationError("action_form", text=repr(text))
        word = text.strip().lower()
        if word == "draw":
            return DRAW
        if word == "pass":
            return PASS
        if "@" in word:
            tile_text, _, end_text = word.partition("@")
            try:
                return cls.play(Tile.parse(tile_text), parse_end(end_text))
            except NotationError:
                raise NotationError("action_form", text=repr(text)) from None
        try:
            return cls.lead(Tile.parse(word))
        except NotationError:
            raise NotationError("action_form", text=repr(text)) from None

    def __str__(self) -> str:
        return _ACTION_TEXT[int(self)]

    def __repr__(self) -> str:
        return f"Action.parse('{self}')"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # a module-level function: compiled, a static method cannot be pickled by reference
        return (_action_of_code, (int(self),))


def _action_of_code(code: int) -> Action:
    return ACTIONS[code]


def _action_text(code: int) -> str:
    if code < _LEAD_BASE:
        return f"{ALL_TILES[code >> 2]}@{END_NAMES[code & 3]}"
    if code < _DRAW_CODE:
        return str(ALL_TILES[code - _LEAD_BASE])
    return "draw" if code == _DRAW_CODE else "pass"


_ACTION_TEXT: Final = tuple(_action_text(c) for c in range(NUM_ACTIONS))
ACTIONS: Final[tuple[Action, ...]] = tuple(int.__new__(Action, c) for c in range(NUM_ACTIONS))
DRAW: Final = ACTIONS[_DRAW_CODE]
PASS: Final = ACTIONS[_PASS_CODE]
LEAD_BASE: Final = _LEAD_BASE
