"""Puzzles on the site (issue 28): the daily puzzle and the next one are shown from their
mover's view without their answer; an answer is checked (a mirror end of the best play is right
too); a play that is not legal there is one translated line."""

from __future__ import annotations

import httpx

from fives.puzzles import load

from .test_players_api import new_player


def test_a_puzzle_is_shown_without_its_answer_and_answers_are_checked(server: str) -> None:
    first = httpx.get(f"{server}/api/puzzles/next", timeout=10).json()
    assert {"id", "game", "view", "count"} <= set(first)
    assert "answer" not in first and "values" not in first
    view = first["view"]
    assert view["seat"] is not None and len(view["legal"]) >= 3
    # the mover's view only: no other seat's tiles anywhere in it
    assert "hands" not in view and (view["end"] is None)
    puzzle = next(p for p in load() if p.id == first["id"])
    for action in puzzle.answer:  # any member of the best class is right
        r = httpx.post(f"{server}/api/puzzles/{first['id']}/answer", json={"action": action},
                       timeout=10).json()
        assert r["correct"] is True and r["answer"] == puzzle.answer and r["values"]
    wrong = next(a for a in view["legal"] if a not in puzzle.answer)
    r = httpx.post(f"{server}/api/puzzles/{first['id']}/answer", json={"action": wrong},
                   timeout=10).json()
    assert r["correct"] is False and r["played"] == wrong
    second = httpx.get(f"{server}/api/puzzles/next?after={first['id']}", timeout=10).json()
    assert second["id"] != first["id"]
    daily = httpx.get(f"{server}/api/puzzles/daily", timeout=10).json()
    assert daily["daily"] is True and "answer" not in daily


def test_bad_answers_are_one_translated_line(server: str) -> None:
    pid = load()[0].id
    for lang in ("en", "hi"):
        for body in ({"action": "9-9@W"}, {"action": 5}, [], {"x": 1}):
            r = httpx.post(f"{server}/api/puzzles/{pid}/answer?lang={lang}", json=body,
                           timeout=10)
            assert r.status_code == 400 and r.json()["error"] == "puzzle_illegal"
            assert "\n" not in r.json()["message"]
        r = httpx.post(f"{server}/api/puzzles/nope/answer?lang={lang}",
                       json={"action": "0-0"}, timeout=10)
        assert r.status_code == 404


def test_puzzle_ratings_move_with_first_tries_only(server: str) -> None:
    """An identity's puzzle rating rises with a solved puzzle and falls with a missed one, the
    puzzle's own moves the other way, the streak counts first tries solved in a row, a second
    try is checked but not rated, and the next puzzle offered is one not tried yet."""
    asha = new_player(server, "Asha")
    first = asha.get("/api/puzzles/next").json()
    assert first["mine"]["rating"] == 1500 and first["mine"]["provisional"] is True
    assert first["tried"] is False and first["puzzle_rating"] == 1500
    puzzle = next(p for p in load() if p.id == first["id"])
    solved = asha.post(f"/api/puzzles/{puzzle.id}/answer", json={"action": puzzle.answer[0]}).json()
    assert solved["rated"] is True and solved["before"] == 1500
    assert solved["mine"]["rating"] > 1500 and solved["mine"]["streak"] == 1
    assert solved["puzzle_rating"] < 1500
    wrong = next(a for a in puzzle.view["legal"] if a not in puzzle.answer)
    again = asha.post(f"/api/puzzles/{puzzle.id}/answer", json={"action": wrong}).json()
    assert again["correct"] is False and again["rated"] is False
    assert again["mine"] == solved["mine"]  # a second try moves nothing
    # the next puzzle is one she has not tried, even asked for from the start again
    second = asha.get("/api/puzzles/next").json()
    assert second["id"] != puzzle.id and second["tried"] is False
    other = next(p for p in load() if p.id == second["id"])
    miss = next(a for a in other.view["legal"] if a not in other.answer)
    missed = asha.post(f"/api/puzzles/{other.id}/answer", json={"action": miss}).json()
    assert missed["rated"] is True and missed["mine"]["rating"] < solved["mine"]["rating"]
    assert (missed["mine"]["streak"], missed["mine"]["best_streak"]) == (0, 1)
    assert missed["puzzle_rating"] > 1500
    shown = asha.get(f"/api/puzzles/next?id={puzzle.id}").json()
    assert shown["tried"] is True and shown["puzzle_tries"] == 1
    # without an identity an answer is checked and nothing is rated
    anon = httpx.post(f"{server}/api/puzzles/{other.id}/answer", json={"action": miss},
                      timeout=10).json()
    assert anon["rated"] is False and "mine" not in anon
