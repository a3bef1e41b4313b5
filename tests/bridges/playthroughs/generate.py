"""Write the OpenSpiel playthrough of each game (``make playthroughs``): OpenSpiel's own
generator (``open_spiel.python.algorithms.generate_playthrough``) over the bridge, as OpenSpiel
keeps one for every game it ships. Two players, one round; four players, a whole match to a
short target (a match to the rules' target is a 1.6 MB file). Kept gzipped; the test
(tests/bridges/test_playthroughs.py) replays each and compares, so a change of the bridge's
behaviour shows as a diff: after a change meant to alter it, run this and read the diff."""

from __future__ import annotations

import gzip
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: (game string, seed): every game; four players play a whole match to a short target
GAMES = [
    (f"{short}{params}", 1)
    for short, target in [("fives_all_fives", 50), ("fives_fives_and_threes", 21),
                          ("fives_muggins", 50), ("fives_draw", 30), ("fives_block", 30)]
    for params in ("", f"(players=4,match=True,target={target})")
]


def file_of(game_string: str) -> Path:
    stem = game_string.replace("(", "-").replace(")", "").replace(",", "-").replace("=", "")
    return HERE / f"{stem}.txt.gz"


def main() -> None:
    from open_spiel.python.algorithms import generate_playthrough

    import fives.bridges.openspiel  # noqa: F401 (registers the games)

    for game_string, seed in GAMES:
        text = generate_playthrough.playthrough(game_string, None, seed=seed)
        # mtime 0: the same playthrough makes the same bytes
        file_of(game_string).write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
        print(file_of(game_string).name, len(text.splitlines()), "lines")


if __name__ == "__main__":
    main()
