"""The bot protocol (BOT-PROTOCOL.md), both directions, and the host that plays matches.

* An outside Python program plays through ``cmd:python script.py``; it sees ``start``, ``act``
  and ``end`` lines, and its views never hold another seat's tiles.
* ``fives bot easy`` is driven by our host through the protocol, and answers exactly what the
  in-process ``easy`` bot would (its values survive the JSON round trip of the view).
* A broken outside bot (garbage, an illegal action, too slow, exits) forfeits those decisions
  only: the match completes and every fault is reported.
* Same seed, same match.
"""

from __future__ import annotations

import json
import random
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from clikit import FIVES
from fives.bots import Bot, make_bot
from fives.bots.host import MatchStats, Seeds, decide, play_match
from fives.bots.ladder import CheatBot, EasyBot
from fives.bots.protocol import BotFault, ProcessBot
from fives.core.games import Config
from fives.core.record import Record, record_of, replay_state
from fives.core.state import State
from fives.core.tiles import Action
from fives.core.view import View, view_of

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["all-fives", "fives-and-threes", "muggins", "draw", "block"]

#: An outside bot. argv: MODE LOG STATE_DIR. It logs every message it receives to LOG (one JSON
#: line each). MODE "good" answers the last legal action; "mixed" misbehaves once in each way
#: (marker files in STATE_DIR make each fault happen once, even across restarts).
OUTSIDE_BOT = r'''
import json, os, sys, time
mode, log_path, state_dir = sys.argv[1], sys.argv[2], sys.argv[3]
faults = ["garbage", "illegal", "sleep", "exit"]
n = 0
def once(kind):
    marker = os.path.join(state_dir, kind)
    if os.path.exists(marker):
        return False
    open(marker, "w").close()
    return True
for line in sys.stdin:
    msg = json.loads(line)
    with open(log_path, "a") as fh:
        fh.write(json.dumps(msg) + "\n")
    if msg.get("type") != "act":
        continue
    n += 1
    legal = msg["legal"]
    if mode == "mixed" and n % 2 == 0:
        kind = next((k for k in faults if not os.path.exists(os.path.join(state_dir, k))), None)
        if kind is not None and once(kind):
            if kind == "garbage":
                print("this is not JSON", flush=True)
                continue
            if kind == "illegal":
                bad = next(a for a in ["6-6@N", "0-0@S", "draw", "pass", "1-1@N"] if a not in legal)
                print(json.dumps({"action": bad}), flush=True)
                continue
            if kind == "sleep":
                time.sleep(5)
            if kind == "exit":
                sys.exit(3)
    print(json.dumps({"action": legal[-1]}), flush=True)
'''


@pytest.fixture
def outside(tmp_path: Path):
    script = tmp_path / "outside_bot.py"
    script.write_text(OUTSIDE_BOT, encoding="utf-8")
    log = tmp_path / "received.jsonl"
    state_dir = tmp_path / "state"
    state_dir.mkdir()

    def command(mode: str) -> str:
        return " ".join(
            shlex.quote(str(x)) for x in (sys.executable, script, mode, log, state_dir)
        )

    def received() -> list[dict[str, Any]]:
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]

    return command, received


# -- an outside program through cmd: -------------------------------------------------------------


def test_outside_program_plays_a_whole_match_and_sees_start_act_end(outside) -> None:
    command, received = outside
    bot = make_bot("cmd:" + command("good"))
    assert isinstance(bot, ProcessBot)
    config = Config.make("all-fives", 2, target=100)
    stats = MatchStats(2)
    try:
        state = play_match(config, [bot, make_bot("random")], 11, stats=stats)
    finally:
        bot.close()
    assert state.over
    assert stats.faults == []
    msgs = received()
    types = [m["type"] for m in msgs]
    assert types[0] == "start"
    assert types.count("start") == len(state.rounds())
    assert types.count("end") == len(state.rounds())
    assert types.count("act") == len(stats.times[0]) > 0
    assert msgs[-1]["type"] == "end" and msgs[-1]["over"] is True
    required = {"game", "players", "teams", "target", "rules", "seat", "leader", "hand",
                "hand_sizes", "stock", "scores", "history"}
    for m in msgs:
        if m["type"] != "act":
            continue
        view = m["view"]
        assert required <= set(view)
        assert view["seat"] == 0
        assert m["legal"] and set(m["legal"]) == set(view["legal"])
        assert len(view["hand"]) == view["hand_sizes"][0]
        # a draw shows its tile only to the drawer
        for item in view["history"]:
            if item[1] == "draw" and item[0] != 0:
                assert len(item) == 2


def test_outside_answers_are_the_actions_played(outside) -> None:
    """The outside bot answers the last legal action: the record shows exactly that."""
    command, received = outside
    bot = ProcessBot(command("good"))
    config = Config.make("fives-and-threes", 2)
    try:
        state = play_match(config, [make_bot("easy"), bot], 5)
    finally:
        bot.close()
    acts = [m for m in received() if m["type"] == "act"]
    answers = [m["legal"][-1] for m in acts]
    played = [
        str(Action.from_code(code))
        for r in state.rounds()
        for (seat, code, *_rest) in r.log
        if seat == 1
    ]
    # every answer was played (forced actions in between are the host's)
    it = iter(played)
    assert all(any(a == p for p in it) for a in answers)


def test_a_broken_outside_bot_forfeits_and_the_match_completes(outside) -> None:
    command, _ = outside
    bot = ProcessBot(command("mixed"), move_time=0.5)
    config = Config.make("all-fives", 2, target=150)
    stats = MatchStats(2)
    try:
        state = play_match(config, [bot, make_bot("easy")], 3, stats=stats)
    finally:
        bot.close()
    assert state.over
    kinds = [f.kind for f in stats.faults]
    assert kinds == ["garbage", "illegal", "timeout", "exit"], stats.faults
    assert all(f.seat == 0 for f in stats.faults)
    assert bot.starts == 3  # restarted after the timeout and after the exit
    assert bot.faults == {"garbage": 1, "illegal": 1, "timeout": 1, "exit": 1}
    # the forfeits were legal random moves: the record replays
    replay_state(Record.from_json(record_of(state).to_json()))
    for f in stats.faults:
        assert f.played and f.detail


def test_a_program_that_cannot_start_forfeits_every_decision() -> None:
    bot = ProcessBot("/nonexistent/bot --x")
    stats = MatchStats(2)
    state = play_match(Config.make("block", 2, target=20), [bot, make_bot("easy")], 1, stats=stats)
    bot.close()
    assert state.over
    assert stats.faults
    assert {f.kind for f in stats.faults} == {"start"}
    assert "cannot start" in stats.faults[0].detail


def test_a_program_that_dies_for_good_is_not_restarted_forever(tmp_path: Path) -> None:
    script = tmp_path / "dies.py"
    script.write_text("import sys\nsys.exit(1)\n", encoding="utf-8")
    bot = ProcessBot(f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}")
    stats = MatchStats(2)
    state = play_match(Config.make("all-fives", 2, target=60), [bot, make_bot("random")], 2, stats=stats)
    bot.close()
    assert state.over
    assert all(f.kind == "exit" for f in stats.faults)
    assert bot.starts == ProcessBot.max_restarts + 1


# -- our bots as protocol programs: fives bot NAME ----------------------------------------------


def test_fives_bot_easy_is_driven_by_our_host() -> None:
    bot = ProcessBot(f"{shlex.quote(FIVES)} bot easy --seed 4")
    stats = MatchStats(2)
    config = Config.make("all-fives", 2, target=120)
    try:
        state = play_match(config, [bot, make_bot("random")], 9, stats=stats)
    finally:
        bot.close()
    assert state.over
    assert stats.faults == []
    assert len(stats.times[0]) > 0


def test_fives_bot_answers_act_lines_ignores_others_and_exits_on_eof() -> None:
    state = State(Config.make("all-fives", 2))
    state.deal_next(random.Random(1))
    view = view_of(state, state.turn)
    act = {"type": "act", "view": view.to_json(), "legal": [str(a) for a in view.legal]}
    lines = [
        json.dumps({"type": "start", "view": view.to_json()}),
        "this is not json",
        json.dumps({"type": "hello", "x": 1}),
        json.dumps(act),
        "",
        json.dumps(act),
    ]
    proc = subprocess.run(
        [FIVES, "bot", "easy", "--seed", "1"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(x) for x in proc.stdout.splitlines()]
    assert len(answers) == 2
    expected = EasyBot().values(view, random.Random(0))
    best = max(expected.values())
    for answer in answers:
        assert answer["action"] in act["legal"]
        assert expected[Action.parse(answer["action"])] == best
    assert "Traceback" not in proc.stderr


def test_fives_bot_with_an_unknown_name_is_a_usage_error() -> None:
    proc = subprocess.run(
        [FIVES, "bot", "nosuchbot"], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith("error: ") and len(proc.stderr.splitlines()) == 1


# -- the host -----------------------------------------------------------------------------------


class _Raises(Bot):
    name = "raises"

    def choose(self, view: View, rng: random.Random) -> Action:
        raise RuntimeError("boom")


class _Illegal(Bot):
    name = "illegal"

    def choose(self, view: View, rng: random.Random) -> Action:
        answer: Any = "6-6@N"  # a string, and not legal
        return answer


class _Watcher(Bot):
    """Records what it is given: views only, never a State."""

    name = "watcher"

    def __init__(self) -> None:
        self.seen: list[Any] = []

    def choose(self, view: View, rng: random.Random) -> Action:
        self.seen.append(view)
        return view.legal[0]


def test_host_forfeits_for_a_bot_that_raises_or_answers_illegally() -> None:
    stats = MatchStats(2)
    state = play_match(Config.make("draw", 2, target=40), [_Raises(), _Illegal()], 1, stats=stats)
    assert state.over
    kinds = {(f.seat, f.kind) for f in stats.faults}
    assert kinds == {(0, "error"), (1, "illegal")}
    assert "boom" in next(f.detail for f in stats.faults if f.kind == "error")


def test_host_gives_bots_views_only_and_makes_forced_actions_itself() -> None:
    watcher = _Watcher()
    state = play_match(Config.make("all-fives", 2, target=80), [watcher, make_bot("random")], 4)
    assert watcher.seen
    assert all(isinstance(v, View) for v in watcher.seen)
    assert all(len(v.legal) > 1 and v.seat == 0 and v.turn == 0 for v in watcher.seen)
    # the seat's forced draws and passes were played by the host
    forced = sum(
        1 for r in state.rounds() for (seat, code, *_r) in r.log if seat == 0 and code >= 140
    )
    assert forced > 0


def test_host_shows_the_state_only_to_the_cheat_and_only_when_asked() -> None:
    """``peek`` is off unless a bot is explicitly the cheat, and the table allows it."""

    class Peeker(_Watcher):
        def __init__(self) -> None:
            super().__init__()
            self.peeks = 0

        def peek(self, state: State) -> None:
            self.peeks += 1

    class Cheat(CheatBot):
        def __init__(self) -> None:
            super().__init__()
            self.peeks = 0

        def peek(self, state: State) -> None:
            assert isinstance(state, State)
            self.peeks += 1
            super().peek(state)

    config = Config.make("block", 2, target=30)
    for allowed in (False, True):
        p = Peeker()
        play_match(config, [p, make_bot("random")], 1, peek=allowed)
        assert p.peeks == 0 and p.seen  # a bot that is not the cheat never sees the state
    c = Cheat()
    play_match(config, [c, make_bot("random")], 1)
    assert c.peeks == 0  # player-facing tables: the default
    c = Cheat()
    play_match(config, [c, make_bot("random")], 1, peek=True)
    assert c.peeks > 0


def test_host_plays_fixed_deals_then_deals_from_the_seed() -> None:
    config = Config.make("fives-and-threes", 2)
    first = State.random_deal(config, seed=99)
    state = play_match(config, [make_bot("easy"), make_bot("easy")], 1, deals=[first])
    assert state.rounds()[0].hands == [list(h) for h in first[0]]
    assert state.rounds()[0].stock == list(first[1])


@pytest.mark.parametrize(("game", "players", "teams"), [
    ("all-fives", 2, None), ("fives-and-threes", 4, True), ("muggins", 3, None), ("block", 4, False),
])
def test_same_seed_same_match(game: str, players: int, teams: bool | None) -> None:
    config = Config.make(game, players, teams=teams, target=60 if game != "fives-and-threes" else None)

    def run(seed: int) -> str:
        bots = [make_bot("easy" if s % 2 else "random") for s in range(players)]
        return record_of(play_match(config, bots, seed)).to_json()

    assert run(8) == run(8)
    assert run(8) != run(9)


def test_decide_uses_the_bots_own_random_source() -> None:
    state = State(Config.make("all-fives", 2))
    state.deal_next(random.Random(3))
    a = decide(state, make_bot("random"), Seeds(1))
    b = decide(state, make_bot("random"), Seeds(1))
    c = [decide(state, make_bot("random"), Seeds(s)).action for s in range(2, 12)]
    assert a == b and a.fault is None and a.action in state.legal_actions()
    assert len(set(c)) > 1


def test_botfault_message() -> None:
    exc = BotFault("timeout", "no answer within 1 s")
    assert exc.kind == "timeout" and "no answer" in str(exc)
