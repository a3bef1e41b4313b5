"""Everything the engine and the bots decide on a fixed workload, as one line per item.

Run as a script (``python tests/results_digest.py RECORDS DECISIONS``) by
``tests/test_compiled.py``, once on the compiled core and once with ``FIVES_PURE=1``: the two
outputs must be identical. Each line is ``kind index sha256``; the last line says which build
ran (it is the only line allowed to differ).

* ``record``: a whole match of random legal actions (every game, player count and partnership
  setting in turn, one seed each), its record as JSON and the ``fives replay --json`` report of
  reading that record back;
* ``decision``: each bot's choice and every action's value on views from seeded matches
  (``hard`` and ``expert`` through the world sampler, the playouts and the endgame search;
  a likelihood-weighted search too).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

from fives.bots.ladder import HARD_WORLDS, HalvingBot, SearchBot
from fives.bots.registry import BotName, make_bot
from fives.cli.random_cmd import play_random
from fives.compiled import build
from fives.core.games import GAMES, Config
from fives.core.record import Record, record_of, replay
from fives.core.state import State
from fives.core.view import View, view_of


def _configs() -> list[Config]:
    out = []
    for name, game in GAMES.items():
        for players in (2, 3, 4):
            out.append(Config.make(name, players))
            if players == 4 and game.teams_allowed:
                out.append(Config.make(name, 4, teams=not Config.make(name, 4).teams))
    return out


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:16]


def records(count: int) -> list[str]:
    configs = _configs()
    lines = []
    for i in range(count):
        # short targets keep each match to a few rounds
        config = configs[i % len(configs)]
        target = 61 if config.game.exact_target else 60
        config = Config.make(config.game, config.players, teams=config.teams, target=target)
        text = record_of(play_random(config, seed=i)).to_json()
        report = replay(Record.from_json(text))
        lines.append(f"record {i} {_digest([text, report])}")
    return lines


def decision_views(config: Config, seed: int, count: int) -> list[View]:
    """Views with a choice to make, every seat's in turn, from one seeded match of easy bots
    (also the positions ``tests/bots/test_search_pinned.py`` pins)."""
    easy = make_bot("easy")
    rng = random.Random(seed)
    state = State(config)
    views: list[View] = []
    while not state.over and len(views) < count:
        if state.needs_deal():
            state.deal_next(rng)
            continue
        view = view_of(state, state.turn)
        if len(view.legal) > 1:
            views.append(view)
        state.apply(easy.choose(view, rng))
    return views


def decisions(count: int) -> list[str]:
    bots = [make_bot(name) for name in ("random", "easy", "medium")]
    # hard's search as the ladder sets it, on a tenth of its worlds and without its clock:
    # the same paths (halving, the exact endgame, the prior), in a tenth of the pure build's
    # time
    bots.append(HalvingBot("hard", worlds=HARD_WORLDS // 10, eps=0.0, endgame_tiles=6,
                           prior=0.5, playouts="medium"))
    bots.append(SearchBot("weighted", worlds=6, budget=120, eps=0.1, beta=1.0, prior=0.5))
    lines = []
    k = 0
    for config in (Config.make("all-fives", 2), Config.make("fives-and-threes", 4),
                   Config.make("muggins", 3), Config.make("block", 2)):
        for view in decision_views(config, seed=k, count=count):
            for bot in bots:
                values = bot.values(view, random.Random(k))
                choice = bot.choose(view, random.Random(k))
                lines.append(f"decision {k} {bot.name} "
                             f"{_digest([str(choice), sorted((str(a), repr(v)) for a, v in values.items())])}")
            k += 1
    # the expert's exact endgame: late decisions of a Block match (no stock to draw)
    # counts only (no CPU budget): the pure build is slower and would search less
    expert = BotName.parse("expert").make_by_counts()
    for view in decision_views(Config.make("block", 2), seed=99, count=count * 3)[-2:]:
        choice = expert.choose(view, random.Random(k))
        lines.append(f"decision {k} expert {_digest(str(choice))}")
        k += 1
    return lines


def main(argv: list[str]) -> int:
    count, per_game = int(argv[0]), int(argv[1])
    for line in records(count) + decisions(per_game):
        print(line)
    info = build()
    print(f"build {'compiled' if info.compiled else info.reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
