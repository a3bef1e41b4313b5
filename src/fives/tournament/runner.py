"""Tournaments on duplicate deals: plan, play in parallel, and summarise honestly.

A *deal set* is the sequence of round deals that one seed produces (:func:`fives.bots.host.
deal_rng`). Each deal set is played once per *seating*: the bots rotated through the seats (for
two bots at two seats, both ways round; for N seats, every rotation; with partnerships, bot A at
seats 0+2 and bot B at 1+3, then the other way). Round k of every seating of a deal set is dealt
the same tiles, so the luck of the deal cancels. Matches are the unit of work (one per task, in
``jobs`` processes); statistics count complete deal sets only.
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import multiprocessing.util
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from fives.bots import Bot, BotName, make_bot
from fives.bots.host import MatchStats, derive_seed, play_match
from fives.bots.protocol import DEFAULT_MOVE_TIME, ProcessBot
from fives.core.games import Config
from fives.core.record import record_of, score_json
from fives.tournament.chart import standings_svg
from fives.tournament.stats import elo_of, mean_interval, percentile, wilson

__all__ = [
    "Plan",
    "Progress",
    "Tournament",
    "labels_of",
    "play_one",
    "run_tournament",
    "seatings",
    "summarise",
]

RECORD_DIR = "records"
FAULT_LOG = "faults.log"
BOT_LOG = "bots.log"


def seatings(players: int, entries: int) -> list[tuple[int, ...]]:
    """The distinct rotations of the bots through the seats, as an entry index per seat.

    >>> seatings(2, 2)
    [(0, 1), (1, 0)]
    >>> seatings(4, 2)
    [(0, 1, 0, 1), (1, 0, 1, 0)]
    >>> seatings(3, 3)
    [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    """
    if entries != players and not (players == 4 and entries == 2):
        raise ValueError(f"{players} players need {players} bots (or 2 for 4 players), not {entries}")
    base = [s % entries for s in range(players)]
    out: list[tuple[int, ...]] = []
    for r in range(players):
        seating = tuple(base[(s - r) % players] for s in range(players))
        if seating not in out:
            out.append(seating)
    return out


def labels_of(names: Sequence[str]) -> list[str]:
    """Names made distinct for the report: ``easy, easy`` -> ``easy, easy#2``."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return out


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs to play one match of the tournament (picklable)."""

    config: Config
    bots: tuple[str, ...]  # the entries' bot names
    deal_sets: int
    seed: int
    move_time: float = DEFAULT_MOVE_TIME
    bot_log: str | None = None  # where outside bots' standard error goes
    seats: tuple[tuple[int, ...], ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.seats:
            object.__setattr__(self, "seats", tuple(seatings(self.config.players, len(self.bots))))

    @property
    def matches(self) -> int:
        return self.deal_sets * len(self.seats)

    def tasks(self) -> list[tuple[int, int]]:
        return [(k, r) for k in range(self.deal_sets) for r in range(len(self.seats))]


class _Programs:
    """Outside bots kept running between the matches a process plays (as chess engines are), so
    that starting a program is not counted in its move times; closed when the process ends."""

    def __init__(self) -> None:
        self.bots: dict[tuple[str, int], ProcessBot] = {}
        self.log_path: str | None = None
        self.log_file: Any = None

    def get(self, name: str, seat: int, plan: Plan) -> ProcessBot:
        if plan.bot_log != self.log_path:
            self.close()
            self.log_path = plan.bot_log
            if plan.bot_log:
                self.log_file = open(plan.bot_log, "a", encoding="utf-8")  # noqa: SIM115
        bot = self.bots.get((name, seat))
        if bot is None:
            made = make_bot(name)
            assert isinstance(made, ProcessBot)
            bot = self.bots[(name, seat)] = made
            if self.log_file is not None:
                bot.stderr = self.log_file
        bot.move_time = plan.move_time
        return bot

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()
        self.bots.clear()
        if self.log_file is not None:
            self.log_file.close()
        self.log_file = None
        self.log_path = None


_PROGRAMS = _Programs()


def play_one(plan: Plan, deal_set: int, seating: int) -> dict[str, Any]:
    """Play one match of the tournament and return its result (with its record)."""
    config = plan.config
    entries = plan.seats[seating]
    names = [plan.bots[e] for e in entries]
    seed = derive_seed(plan.seed, "deal-set", deal_set)
    bots: list[Bot] = []
    stats = MatchStats(config.players)
    started = time.perf_counter()
    try:
        for seat, name in enumerate(names):
            if BotName.parse(name).outside:
                bots.append(_PROGRAMS.get(name, seat, plan))
            else:
                bots.append(make_bot(name))
        state = play_match(config, bots, seed, stats=stats, names=names, peek=True)
    finally:
        for bot in bots:
            if not isinstance(bot, ProcessBot):
                bot.close()
    record = record_of(
        state,
        seats=names,
        tournament={"seed": plan.seed, "deal_set": deal_set, "seating": seating},
    )
    return {
        "deal_set": deal_set,
        "seating": seating,
        "entries": list(entries),
        "seats": names,
        "scores": [score_json(s) for s in state.scores_out()],
        "winner": state.winner,
        "over": state.over,
        "rounds": len(state.rounds()),
        "faults": [f.to_json() for f in stats.faults],
        "times": stats.times,
        "seconds": time.perf_counter() - started,
        "record": record.to_data(),
    }


# -- summary --------------------------------------------------------------------------------------


def _entry_sides(config: Config, entries: Sequence[int], entry: int) -> set[int]:
    return {config.side_of(s) for s, e in enumerate(entries) if e == entry}


def summarise(
    plan: Plan, matches: Sequence[dict[str, Any]], *, interrupted: bool = False, seconds: float = 0.0
) -> dict[str, Any]:
    """The results document (``results.json``) of the finished matches."""
    config = plan.config
    per_set: dict[int, list[dict[str, Any]]] = {}
    for m in matches:
        per_set.setdefault(m["deal_set"], []).append(m)
    complete = sorted(k for k, ms in per_set.items() if len(ms) == len(plan.seats))
    counted = [m for k in complete for m in sorted(per_set[k], key=lambda m: m["seating"])]
    labels = labels_of(plan.bots)
    bots_out = []
    for entry, name in enumerate(plan.bots):
        wins = draws = losses = unfinished = 0
        points = 0.0
        rounds = 0
        diffs_by_set: dict[int, list[float]] = {}
        rounds_by_set: dict[int, int] = {}
        for m in counted:
            sides = _entry_sides(config, m["entries"], entry)
            others = set(range(config.sides)) - sides
            scores = [float(s) for s in m["scores"]]
            mine = sum(scores[s] for s in sides) / len(sides)
            theirs = sum(scores[s] for s in others) / len(others) if others else 0.0
            if not m["over"]:
                unfinished += 1
                draws += 1
            elif m["winner"] is None:
                draws += 1
            elif m["winner"] in sides:
                wins += 1
            else:
                losses += 1
            points += mine
            rounds += m["rounds"]
            diffs_by_set.setdefault(m["deal_set"], []).append(mine - theirs)
            rounds_by_set[m["deal_set"]] = rounds_by_set.get(m["deal_set"], 0) + m["rounds"]
        n = len(counted)
        score = wins + draws / 2
        rate = score / n if n else 0.0
        lo, hi = wilson(score, n)
        set_diffs = [
            sum(diffs_by_set[k]) / rounds_by_set[k] for k in sorted(diffs_by_set) if rounds_by_set[k]
        ]
        diff_mean, diff_half = mean_interval(set_diffs)
        times: list[float] = []
        faults: dict[str, int] = {}
        examples: list[str] = []
        for m in matches:  # every finished match counts for speed and faults
            for seat, e in enumerate(m["entries"]):
                if e == entry:
                    times.extend(m["times"][seat])
            for f in m["faults"]:
                if m["entries"][f["seat"]] == entry:
                    faults[f["kind"]] = faults.get(f["kind"], 0) + 1
                    if len(examples) < 5:
                        examples.append(
                            f"deal set {m['deal_set'] + 1}, seating {m['seating'] + 1}, round "
                            f"{f['round'] + 1}, action {f['action_no'] + 1}: {f['kind']}: "
                            f"{f['detail']}"
                        )
        p95 = percentile(times, 95)
        bots_out.append(
            {
                "bot": name,
                "label": labels[entry],
                "entry": entry,
                "matches": n,
                "wins": wins,
                "draws": draws,
                "losses": losses,
                "unfinished": unfinished,
                "win_rate": wins / n if n else None,
                "win_interval": list(wilson(wins, n)),
                "score_rate": rate,
                "score_interval": [lo, hi],
                "elo": {
                    "estimate": elo_of(rate, n) if n else None,
                    "low": elo_of(lo, n) if n else None,
                    "high": elo_of(hi, n) if n else None,
                    "against": "the other bots (their average)",
                },
                "points_per_round": points / rounds if rounds else None,
                "diff_per_round": {
                    "mean": diff_mean,
                    "low": None if diff_half is None or diff_mean is None else diff_mean - diff_half,
                    "high": None if diff_half is None or diff_mean is None else diff_mean + diff_half,
                    "deal_sets": len(set_diffs),
                },
                "move_time": {
                    "decisions": len(times),
                    "p95": p95,
                    "mean": sum(times) / len(times) if times else None,
                    "max": max(times) if times else None,
                },
                "faults": {"count": sum(faults.values()), "kinds": faults, "examples": examples},
            }
        )
    return {
        "game": config.game.name,
        "players": config.players,
        "teams": config.teams,
        "target": config.target,
        "rules": config.house_rules(),
        "seed": plan.seed,
        "bots": bots_out,
        "seatings": [[plan.bots[e] for e in s] for s in plan.seats],
        "matches_planned": plan.matches,
        "matches_played": len(matches),
        "matches_counted": len(counted),
        "deal_sets_planned": plan.deal_sets,
        "deal_sets_counted": len(complete),
        "complete": not interrupted and len(matches) == plan.matches,
        "interrupted": interrupted,
        "seconds": round(seconds, 3),
        "notes": (
            "Statistics count complete deal sets only (every seating played). Score rate: wins "
            "plus half the draws (an unfinished match counts as a draw), with a 95% Wilson "
            "interval; Elo: 400 log10(p / (1 - p)) of the score rate and of its interval's ends, "
            "against the other bots, clipped half a match from 0% and 100%; diff_per_round: "
            "points per round over the opponents' average, its 95% normal interval over deal "
            "sets; move_time in seconds per decision (forced actions are not asked of the bot)."
        ),
        "matches": [
            {
                "deal_set": m["deal_set"],
                "seating": m["seating"],
                "seats": m["seats"],
                "record": f"{RECORD_DIR}/{record_name(m['deal_set'], m['seating'])}",
                "scores": m["scores"],
                "winner": m["winner"],
                "winners": []
                if m["winner"] is None
                else [n for s, n in enumerate(m["seats"]) if config.side_of(s) == m["winner"]],
                "over": m["over"],
                "rounds": m["rounds"],
                "faults": len(m["faults"]),
            }
            for m in sorted(matches, key=lambda m: (m["deal_set"], m["seating"]))
        ],
    }


def record_name(deal_set: int, seating: int) -> str:
    return f"deal{deal_set + 1:05d}-seating{seating + 1}.json"


# -- progress -------------------------------------------------------------------------------------


class Progress:
    """A progress bar with an ETA on a terminal; occasional plain lines otherwise."""

    def __init__(self, total: int, stream: TextIO | None, label: str = "matches") -> None:
        self.total = total
        self.stream = stream
        self.label = label
        self.started = time.monotonic()
        self.tty = bool(stream is not None and hasattr(stream, "isatty") and stream.isatty())
        self._last_step = -1
        self._last_draw = 0.0

    def update(self, done: int) -> None:
        if self.stream is None:
            return
        now = time.monotonic()
        elapsed = now - self.started
        eta = elapsed / done * (self.total - done) if done else None
        frac = done / self.total if self.total else 1.0
        text = (
            f"{done}/{self.total} {self.label} {frac:4.0%}  elapsed {_clock(elapsed)}"
            f"  ETA {_clock(eta) if eta is not None else '?'}"
        )
        if self.tty:
            if done < self.total and now - self._last_draw < 0.1:
                return
            self._last_draw = now
            width = 28
            fill = int(frac * width)
            bar = "#" * fill + "." * (width - fill)
            self.stream.write(f"\r[{bar}] {text}\x1b[K")
            self.stream.flush()
            return
        step = int(frac * 10)
        if step != self._last_step or done == self.total:
            self._last_step = step
            self.stream.write(f"progress: {text}\n")
            self.stream.flush()

    def finish(self) -> None:
        if self.stream is not None and self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    s = round(seconds)
    h, rem = divmod(s, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


# -- running --------------------------------------------------------------------------------------


def _log_faults_to(path: str | None) -> logging.Handler | None:
    """Send the host's forfeit warnings to a file (not to stderr, where the bar is)."""
    if path is None:
        return None
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s pid %(process)d: %(message)s"))
    logger = logging.getLogger("fives.bots")
    logger.addHandler(handler)
    logger.propagate = False
    return handler


def _worker_init(fault_log: str | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _log_faults_to(fault_log)
    # close the outside bots when the worker ends normally (after terminate(), they see EOF)
    multiprocessing.util.Finalize(None, _PROGRAMS.close, exitpriority=10)


def _worker(args: tuple[Plan, int, int]) -> dict[str, Any]:
    plan, deal_set, seating = args
    return play_one(plan, deal_set, seating)


@dataclass
class Tournament:
    """A finished (or interrupted) tournament: its results document and where it was written."""

    results: dict[str, Any]
    out: Path | None
    interrupted: bool


def run_tournament(
    plan: Plan,
    *,
    jobs: int = 1,
    out: Path | None = None,
    progress: TextIO | None = None,
    on_match: Callable[[dict[str, Any]], None] | None = None,
) -> Tournament:
    """Play every match of ``plan`` in ``jobs`` processes; write records, results and chart to
    ``out`` (when given); return the results. Ctrl-C stops cleanly: the finished matches are
    summarised and written, and ``interrupted`` is set."""
    fault_log: str | None = None
    if out is not None:
        records = out / RECORD_DIR
        records.mkdir(parents=True, exist_ok=True)
        for old in records.glob("deal*-seating*.json"):
            old.unlink()
        fault_log = str(out / FAULT_LOG)
        for name in (FAULT_LOG, BOT_LOG):
            (out / name).write_text("", encoding="utf-8")
    tasks = [(plan, k, r) for k, r in plan.tasks()]
    bar = Progress(len(tasks), progress)
    finished: list[dict[str, Any]] = []
    interrupted = False
    started = time.perf_counter()

    def take(result: dict[str, Any]) -> None:
        if out is not None:
            path = out / RECORD_DIR / record_name(result["deal_set"], result["seating"])
            _write_json(path, result["record"])
        finished.append(result)
        if on_match is not None:
            on_match(result)
        bar.update(len(finished))

    bar.update(0)
    jobs = max(1, min(jobs, len(tasks)))
    if jobs == 1:
        handler = _log_faults_to(fault_log)
        logger = logging.getLogger("fives.bots")
        try:
            for task in tasks:
                take(_worker(task))
        except KeyboardInterrupt:
            interrupted = True
        finally:
            _PROGRAMS.close()
            if handler is not None:
                logger.removeHandler(handler)
                logger.propagate = True
                handler.close()
    else:
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        pool = ctx.Pool(jobs, initializer=_worker_init, initargs=(fault_log,))
        try:
            for result in pool.imap_unordered(_worker, tasks, chunksize=1):
                take(result)
            pool.close()
        except KeyboardInterrupt:
            interrupted = True
            pool.terminate()
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
    bar.finish()
    results = summarise(
        plan, finished, interrupted=interrupted, seconds=time.perf_counter() - started
    )
    if out is not None:
        _write_json(out / "results.json", results)
        (out / "standings.svg").write_text(standings_svg(results), encoding="utf-8")
    return Tournament(results, out, interrupted)


def _write_json(path: Path, data: Any) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def default_jobs() -> int:
    return os.cpu_count() or 1
