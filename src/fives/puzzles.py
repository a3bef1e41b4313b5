"""Puzzles: positions from matches where one play is clearly best over the round (issue 28).

A puzzle is a decision of a seat in a match the engine played (bots against each other), shown
from that seat's view only (the per-seat view: the other hands stay hidden, as they were), where
a search valued one class of identical plays ahead of every other by at least the game's
"mistake" margin (:attr:`~fives.core.games.Game.loss_marks`), and a deeper search (more worlds,
other seeds) agreed on the same best play and margin. Its answer is that class; any member of
it (a mirror end) is right.

``fives puzzles make --seed S --count N`` writes a set (the package ships ``puzzles.json.gz``
beside this module): the same arguments write the same file with the same bots. The shipped set
was written with seed 2026 and count 500 by the bots of 2026-12-06's morning (commit 32c32ca);
the bots' matches have changed since (``medium``, and ``hard``'s prior with it), so the command
finds other positions today, and the set is kept: players' tries and ratings name its puzzles.
"""

from __future__ import annotations

import datetime
import functools
import gzip
import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from typing import Any

from fives.bots.search import halving_values
from fives.bots.transpose import action_classes
from fives.core.games import Config
from fives.core.record import Record
from fives.core.state import State
from fives.core.tiles import Action
from fives.core.view import View, view_of

__all__ = ["PUZZLE_FILE", "Puzzle", "daily", "load", "make_puzzles", "mine", "puzzle_by_id",
           "puzzles_of"]

PUZZLE_FILE = "puzzles.json.gz"
#: where the shipped puzzles come from: (game, players, teams), each a share of the set
SOURCES: tuple[tuple[str, int, bool], ...] = (
    ("all-fives", 2, False), ("fives-and-threes", 2, False), ("muggins", 2, False),
    ("all-fives", 4, True), ("block", 2, False),
)
#: the searches: a screen over every decision, and a deeper one to confirm
SCREEN_WORLDS, CONFIRM_WORLDS = 300, 1200


@dataclass(frozen=True)
class Puzzle:
    id: str
    game: str
    players: int
    teams: bool
    view: dict[str, Any]  # the mover's view (View.to_json): never another seat's tiles
    answer: list[str]  # the best class of identical plays: any of them is right
    values: dict[str, float]  # each class's first play and its value (expected points)
    margin: float  # the best value less the second best
    source: dict[str, int]  # the match (seed, number), round and action it came from

    def public(self) -> dict[str, Any]:
        """What a player is shown before answering: no answer, no values."""
        return {"id": self.id, "game": self.game, "players": self.players, "teams": self.teams,
                "view": self.view}

    def right(self, text: str) -> bool:
        return text in self.answer


def _candidates(view: View) -> list[list[Action]] | None:
    """The classes of a decision worth a puzzle: a real choice among three or more."""
    if view.seat is None or len(view.legal) < 3 or len(view.layout.tiles()) < 3:
        return None
    if any(not a.is_play for a in view.legal):
        return None
    classes = action_classes(view.layout, list(view.legal))
    return classes if len(classes) >= 3 else None


def judge(view: View, seed: int, screen: dict[str, float | None] | None = None,
          ) -> tuple[list[str], dict[str, float], float] | None:
    """The decision's answer, values and margin if one class is clearly best under both
    searches; None otherwise. ``screen``: values already found for this decision (an
    analysis's), used as the first search."""
    classes = _candidates(view)
    if classes is None:
        return None
    need = view.config.game.loss_marks[1]
    found = []
    for worlds, salt in ((SCREEN_WORLDS, 1), (CONFIRM_WORLDS, 2)):
        if salt == 1 and screen is not None:
            if any(screen.get(str(g[0])) is None for g in classes):
                return None
            values = {g[0]: float(screen[str(g[0])] or 0.0) for g in classes}
        else:
            values = halving_values(view, random.Random(seed * 7 + salt), worlds=worlds,
                                    eps=0.05, endgame_tiles=6, halving=False)
        ranked = sorted(((values[g[0]], i) for i, g in enumerate(classes)), reverse=True)
        (best, at), (second, _) = ranked[0], ranked[1]
        if best - second < need:
            return None
        found.append((at, best - second, values))
    if found[0][0] != found[1][0]:
        return None
    at, margin, values = found[1]
    return ([str(a) for a in classes[at]],
            {str(g[0]): round(values[g[0]], 2) for g in classes}, round(min(found[0][1], margin), 2))


#: at most this many puzzles from one match of people, and this many deeper searches for them
MINED_PER_MATCH, MINE_CONFIRMS = 2, 6
#: how a mined puzzle's id begins (the shipped ones begin with their game and players)
MINED_PREFIX = "m-"


def mine(record: Record, decisions: Sequence[dict[str, Any]], source: str,
         seed: int = 0) -> list[Puzzle]:
    """Puzzles from a finished match of people, from the decisions an analysis valued
    (:func:`fives.analysis.analyse`: the seat's view alone): a decision whose best play the
    analysis put a mistake's margin ahead of every other is searched again, deeper, and kept if
    that search agrees. The costliest misses first (a position somebody got wrong); at most
    :data:`MINED_PER_MATCH` puzzles, :data:`MINE_CONFIRMS` deeper searches."""
    need = record.config.game.loss_marks[1]

    def gap(d: dict[str, Any]) -> float:
        known = sorted((v for v in d["values"].values() if v is not None), reverse=True)
        return known[0] - known[1] if len(known) >= 2 else 0.0

    chosen = sorted((d for d in decisions if len(d["values"]) >= 3 and gap(d) >= need),
                    key=lambda d: (-(d["loss"] or 0.0), -gap(d), d["round"], d["action_no"]))
    wanted = {(d["round"], d["action_no"]): d for d in chosen[:MINE_CONFIRMS]}
    found: list[Puzzle] = []
    state = State(record.config)
    for i, rnd in enumerate(record.rounds):
        state.start_round(rnd.hands, rnd.stock, rnd.leader)
        for k, text in enumerate(rnd.actions):
            d = wanted.get((i, k))
            if d is not None and len(found) < MINED_PER_MATCH:
                view = view_of(state, state.turn)
                judged = judge(view, seed * 100003 + i * 1009 + k, screen=d["values"])
                if judged is not None:
                    answer, values, margin = judged
                    found.append(Puzzle(
                        f"{MINED_PREFIX}{source}-{i + 1}-{k + 1}", record.config.game.name,
                        record.config.players, record.config.teams, view.to_json(), answer,
                        values, margin, {"round": i + 1, "action": k + 1}))
            state.play(Action.parse(text))
    return found


def puzzles_of(game: str, players: int, teams: bool, seed: int, matches: int,
               bots: Sequence[str] = ("hard", "medium"),
               per_match: int = 4) -> Iterator[Puzzle]:
    """The puzzles found in ``matches`` matches the ``bots`` play (seats rotating), at most
    ``per_match`` from one match (so one match never fills a set)."""
    from fives.bots.training import self_play

    config = Config.make(game, players, teams=teams if players == 4 else None)
    taken: dict[int, int] = {}
    for d in self_play(config, bots, matches, lambda m: seed * 10007 + m, 30):
        m, view = d.match, d.view
        if len(view.legal) >= 3 and taken.get(m, 0) < per_match:
            n = len(d.state.log)
            judged = judge(view, seed * 100003 + m * 101 + n)
            if judged is not None:
                taken[m] = taken.get(m, 0) + 1
                answer, values, margin = judged
                yield Puzzle(f"{game[:2]}{players}-{seed}-{m}-{d.round}-{n}", game, players,
                             config.teams, view.to_json(), answer, values, margin,
                             {"seed": seed, "match": m, "round": d.round, "action": n + 1})


def _source(args: tuple[int, int, int]) -> list[Puzzle]:
    """The puzzles of one source of :data:`SOURCES` (in a process of its own)."""
    k, seed, share = args
    game, players, teams = SOURCES[k]
    found: list[Puzzle] = []
    for puzzle in puzzles_of(game, players, teams, seed + k, 10_000):
        found.append(puzzle)
        if len(found) >= share:
            break
    return found


def make_puzzles(seed: int, count: int, jobs: int = 1,
                 progress: Callable[[str], None] | None = None) -> list[Puzzle]:
    """``count`` puzzles, shared among :data:`SOURCES`, each source's from its own matches
    (``jobs`` processes: the result is the same for any number)."""
    share = -(-count // len(SOURCES))
    wanted = [(k, seed, share) for k in range(min(len(SOURCES), count))]
    if jobs > 1:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = []
            for k, part in enumerate(pool.imap(_source, wanted)):
                parts.append(part)
                if progress is not None:
                    progress(f"{SOURCES[k][0]} {SOURCES[k][1]}p: {len(part)}")
    else:
        parts = [_source(w) for w in wanted]
    return [p for part in parts for p in part][:count]


def write(puzzles: Sequence[Puzzle], path: str, meta: dict[str, Any]) -> None:
    doc = {**meta, "puzzles": [asdict(p) for p in puzzles]}
    text = json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    # mtime 0: the same puzzles write the same bytes
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as fh:
        fh.write(text.encode("utf-8"))


@functools.cache
def load() -> tuple[Puzzle, ...]:
    """The shipped puzzles (none if the file is missing)."""
    try:
        raw = resources.files(__package__).joinpath(PUZZLE_FILE).read_bytes()
    except (OSError, ValueError):
        return ()
    doc = json.loads(gzip.decompress(raw).decode("utf-8"))
    return tuple(Puzzle(**p) for p in doc.get("puzzles", []))


@functools.cache
def _index() -> dict[str, Puzzle]:
    return {p.id: p for p in load()}


def puzzle_by_id(puzzle_id: str) -> Puzzle | None:
    return _index().get(puzzle_id)


def daily(day: datetime.date) -> Puzzle | None:
    """The puzzle of the day: the same for everyone on a date (UTC)."""
    puzzles = load()
    if not puzzles:
        return None
    return puzzles[(day.toordinal() * 7919) % len(puzzles)]
