"""The puzzles the package ships (issue 28): at least 500, from every source, each a position
seen by its mover alone with a legal answer clearly best by the game's mistake margin; the
set is what ``fives puzzles make`` writes from its seed."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from fives.cli.main import main
from fives.core.games import GAMES
from fives.core.view import View
from fives.puzzles import SOURCES, daily, judge, load

SHIPPED = Path(__file__).resolve().parents[1] / "src" / "fives" / "puzzles.json.gz"


def test_the_shipped_set_is_large_varied_and_sound() -> None:
    puzzles = load()
    assert len(puzzles) >= 500
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert {(p.game, p.players, p.teams) for p in puzzles} == set(SOURCES)
    for p in puzzles:
        view = p.view
        assert view["seat"] is not None and view["turn"] == view["seat"]
        assert "hands" not in view and view["end"] is None  # nothing of another seat's hand
        assert len(view["hand"]) == view["hand_sizes"][view["seat"]]
        assert p.answer and set(p.answer) <= set(view["legal"])
        assert p.margin >= GAMES[p.game].loss_marks[1] - 1e-9
        assert max(p.values.values()) == p.values[p.answer[0]]
    meta = json.loads(gzip.decompress(SHIPPED.read_bytes()))
    assert meta["seed"] == 2026 and meta["count"] >= 500


def test_each_sources_first_puzzle_is_judged_again_the_same_from_its_view() -> None:
    # the shipped set was made by older bots' matches (docs/analysis.md): its answers must
    # still be today's searches' answers
    puzzles = load()
    firsts = {}
    for p in puzzles:
        firsts.setdefault((p.game, p.players, p.teams), p)
    assert len(firsts) == len(SOURCES)
    for p in firsts.values():
        view = View.from_json(p.view)
        seed = p.source["seed"] * 100003 + p.source["match"] * 101 + p.source["action"] - 1
        judged = judge(view, seed)
        assert judged is not None and judged[0] == p.answer, p.id


@pytest.mark.slow  # two searches through bots' matches: seconds
def test_making_puzzles_is_the_same_from_the_same_seed(tmp_path: Path) -> None:
    """The command twice with the same arguments: the same file, byte for byte (the function
    and the command are one search: the file holds what the function finds)."""
    out = tmp_path / "p.json.gz"
    assert main(["puzzles", "make", "--seed", "3", "--count", "2", "--out", str(out)]) == 0
    first = out.read_bytes()
    assert main(["puzzles", "make", "--seed", "3", "--count", "2", "--out", str(out)]) == 0
    assert out.read_bytes() == first
    made = json.loads(gzip.decompress(first))
    assert made["seed"] == 3 and made["count"] == 2


def test_the_daily_puzzle_is_one_a_day() -> None:
    import datetime

    day = datetime.date(2026, 12, 6)
    assert daily(day) == daily(day)
    assert daily(day) != daily(day + datetime.timedelta(days=1))


@pytest.mark.parametrize("count", ["0", "x"])
def test_a_bad_count_is_one_line(count: str, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["puzzles", "make", "--count", count, "--out", str(tmp_path / "p.gz")])
    assert code == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1


def test_the_terminal_plays_a_puzzle_wrong_then_right() -> None:
    import subprocess
    import sys

    first = load()[0]
    wrong = next(a for a in first.view["legal"] if a not in first.answer)
    typed = first.answer[0].replace("@", " ").lower() if "@" in first.answer[0] \
        else first.answer[0]
    proc = subprocess.run([sys.executable, "-m", "fives.cli.main", "puzzles", "play", "--id",
                           first.id, "--lang", "en"],
                          input=f"{wrong}\n{typed}\nq\n", capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert f"Not {wrong}" in out and f"Right: {first.answer[0]} is the best" in out
    assert "Your hand: " + " ".join(first.view["hand"]) in out
