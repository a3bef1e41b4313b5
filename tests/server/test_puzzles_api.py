"""Puzzles on the site (issue 28): the daily puzzle and the next one are shown from their
mover's view without their answer; an answer is checked (a mirror end of the best play is right
too); a play that is not legal there is one translated line."""

from __future__ import annotations

import httpx

from fives.puzzles import load


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
