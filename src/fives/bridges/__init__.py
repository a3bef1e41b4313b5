"""Our games inside other frameworks: OpenSpiel (:mod:`fives.bridges.openspiel`) and
PettingZoo (:mod:`fives.bridges.pettingzoo`), installed as the extras ``fives[openspiel]``
and ``fives[pettingzoo]`` (docs/bridges.md).

:mod:`fives.bridges.table` is the shared part: a round or a match of our engine as a sequence of
decisions and chance events, and what one seat may know of it as text and tensors. It needs
only the standard library and numpy; each bridge module imports its framework itself.
"""
