"""Puzzle ratings in the store, the same tests on SQLite and PostgreSQL (issue 28): the first
try at a puzzle moves the player's rating, the puzzle's and the streak; a second try moves
nothing; answers at once from many players each count once; "forget me" takes them away."""

from __future__ import annotations

import asyncio

from fives.server.puzzle_api import START, rate_puzzle
from fives.store import Store
from fives.store.players import StoredPlayer

from .test_store_suite import run


def test_the_first_try_is_rated_and_a_second_is_not(store_url: str) -> None:
    async def body(store: Store) -> None:
        assert await store.puzzle_rating("p-asha") is None
        solved = await store.try_puzzle("p-asha", "z1", True, 10.0, rate_puzzle, START)
        assert solved.rated and solved.player_before is None and solved.puzzle_before is None
        assert solved.player.mu > START[0] > solved.puzzle.mu  # she won, the puzzle lost
        assert (solved.player.tries, solved.player.solved, solved.player.streak) == (1, 1, 1)
        again = await store.try_puzzle("p-asha", "z1", False, 11.0, rate_puzzle, START)
        assert not again.rated and again.player == solved.player and again.puzzle == solved.puzzle
        assert await store.puzzle_rating("p-asha") == solved.player
        assert await store.puzzle_strength("z1") == solved.puzzle
        assert await store.puzzles_tried("p-asha", ["z1", "z2"]) == {"z1"}

    run(store_url, body)


def test_a_wrong_answer_breaks_the_streak_and_keeps_the_best(store_url: str) -> None:
    async def body(store: Store) -> None:
        for k in range(3):
            await store.try_puzzle("p-ravi", f"z{k}", True, float(k), rate_puzzle, START)
        high = await store.puzzle_rating("p-ravi")
        assert high is not None and (high.streak, high.best_streak, high.solved) == (3, 3, 3)
        missed = await store.try_puzzle("p-ravi", "z9", False, 9.0, rate_puzzle, START)
        assert missed.rated and missed.player.mu < high.mu
        assert (missed.player.streak, missed.player.best_streak) == (0, 3)
        assert (missed.player.tries, missed.player.solved) == (4, 3)
        assert missed.puzzle.mu > START[0] and missed.puzzle.solved == 0

    run(store_url, body)


def test_answers_at_once_each_count_once(store_url: str) -> None:
    async def body(store: Store) -> None:
        tries = await asyncio.gather(
            *(store.try_puzzle(f"p{n}", "z1", n % 2 == 0, 5.0, rate_puzzle, START)
              for n in range(8)),
            *(store.try_puzzle("p0", "z1", True, 6.0, rate_puzzle, START) for _ in range(4)))
        assert sum(t.rated for t in tries) == 8
        strength = await store.puzzle_strength("z1")
        assert strength is not None and (strength.tries, strength.solved) == (8, 4)

    run(store_url, body)


def test_forgetting_a_player_takes_their_puzzle_rating_and_tries(store_url: str) -> None:
    async def body(store: Store) -> None:
        await store.create_player(StoredPlayer("p-asha", "Asha", "0001", "person", 1.0), "h" * 64)
        await store.try_puzzle("p-asha", "z1", True, 10.0, rate_puzzle, START)
        await store.forget_player("p-asha", "someone")
        assert await store.puzzle_rating("p-asha") is None
        assert await store.puzzles_tried("p-asha", ["z1"]) == set()
        assert await store.puzzle_strength("z1") is not None  # the puzzle keeps its rating

    run(store_url, body)


def test_mined_puzzles_are_kept_once_in_the_order_found(store_url: str) -> None:
    async def body(store: Store) -> None:
        first = {"id": "m-t1-1-4", "game": "all-fives", "view": {"hand": ["5-5"]}, "names": "आशा"}
        assert await store.add_mined_puzzles("t1", [first], 10.0) == 1
        assert await store.add_mined_puzzles("t1", [first, {"id": "m-t1-2-9", "x": 1}], 11.0) == 1
        await store.add_mined_puzzles("t0", [{"id": "m-t0-1-1", "x": 2}], 12.0)
        assert [p["id"] for p in await store.mined_puzzles()] == ["m-t1-1-4", "m-t1-2-9",
                                                                  "m-t0-1-1"]
        assert await store.mined_puzzle("m-t1-1-4") == first
        assert await store.mined_puzzle("m-nope") is None

    run(store_url, body)


def test_an_analysis_queued_by_the_miner_becomes_the_askers(store_url: str) -> None:
    async def body(store: Store) -> None:
        from fives.store.analyses import MINER

        mined = await store.request_analysis("t1", 0, MINER, 5000.0)
        assert mined.requester == MINER and await store.queued_before(100.0) == 0
        asked = await store.request_analysis("t1", 0, "p-asha", 20.0)
        assert (asked.requester, asked.requested) == ("p-asha", 20.0)
        assert [a.table_id for a in await store.analyses_pending("p-asha")] == ["t1"]
        # the miner asking again changes nothing
        again = await store.request_analysis("t1", 0, MINER, 9000.0)
        assert (again.requester, again.requested) == ("p-asha", 20.0)

    run(store_url, body)
