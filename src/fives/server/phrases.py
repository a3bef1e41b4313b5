"""Quick phrases instead of free chat: a seated player may say one of a fixed set, named by
key and translated by each reader's page. A key cannot carry abuse or hidden information (no
free text, and at most one phrase every few seconds, so timing says little either)."""

from __future__ import annotations

__all__ = ["PHRASES", "PHRASE_GAP"]

#: the keys of what may be said (web.phrase.<key> in the catalogues)
PHRASES = ("gg", "wp", "thanks", "oops", "hello", "good_luck")
#: seconds between two phrases of one seat
PHRASE_GAP = 3.0
