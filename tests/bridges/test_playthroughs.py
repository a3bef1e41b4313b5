"""OpenSpiel's playthroughs of our games (issue 41): OpenSpiel's own generator runs over the
bridge (it stopped at ``make_py_observer``, which refused the public-only and private-only
observer types instead of answering None), and each kept playthrough (two players, one round;
four, a whole match) is replayed as OpenSpiel replays its own, so a change of the bridge's
behaviour shows as a diff. ``make playthroughs`` writes them again."""

from __future__ import annotations

import difflib
import gzip
import importlib.util
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
generate_playthrough = pytest.importorskip("open_spiel.python.algorithms.generate_playthrough")

from absl import flags  # noqa: E402

import fives.bridges.openspiel as fo  # noqa: E402

# OpenSpiel's replay reads an absl flag, parsed by absltest in its own tests: here its default
if not flags.FLAGS.is_parsed():
    flags.FLAGS.mark_as_parsed()


def _generator() -> Any:
    """tests/bridges/playthroughs/generate.py (a script, and this folder is no package)."""
    path = Path(__file__).parent / "playthroughs" / "generate.py"
    spec = importlib.util.spec_from_file_location("fives_playthroughs", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GAMES, file_of = _generator().GAMES, _generator().file_of


@pytest.mark.parametrize(("game_string", "seed"), GAMES, ids=[g for g, _ in GAMES])
def test_a_kept_playthrough_replays_identically(game_string: str, seed: int,
                                                tmp_path: Path) -> None:
    kept = file_of(game_string)
    path = tmp_path / "playthrough.txt"
    path.write_bytes(gzip.decompress(kept.read_bytes()))
    original, again = generate_playthrough.replay(str(path))
    assert f"game: {game_string}\n" in original
    if original != again:  # the first lines that differ, not two megabytes
        diff = difflib.unified_diff(original.splitlines(), again.splitlines(), lineterm="", n=2)
        pytest.fail("\n".join(list(diff)[:40]))


@pytest.mark.parametrize("name", sorted(fo.SHORT_NAMES))
def test_every_observer_type_is_answered_as_openspiels_contract_says(name: str) -> None:
    game = fo.load(name)
    one_seat = {(True, pyspiel.PrivateInfoType.SINGLE_PLAYER)}
    for recall in (False, True):
        for public in (False, True):
            for private in (pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER,
                            pyspiel.PrivateInfoType.ALL_PLAYERS):
                kind = pyspiel.IIGObservationType(perfect_recall=recall, public_info=public,
                                                  private_info=private)
                observer = game.make_py_observer(kind)
                if (public, private) in one_seat:
                    assert observer is not None and observer.perfect_recall == recall
                else:
                    assert observer is None, (recall, public, private)
    assert game.make_py_observer() is not None  # the default: a seat's observation
    with pytest.raises(ValueError, match="parameters"):
        game.make_py_observer(None, {"x": 1})
