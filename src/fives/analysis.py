"""The analysis of a match: one code for ``fives analyse``, the replay and the site.

The record is replayed; at every decision of the analysed seats (a turn with more than one
legal action) the bot is shown that seat's view, and only that (:func:`~fives.core.view.view_of`:
the other hands are never seen, so the analysis of a seat is the same whatever they were), and
values every legal action (``Bot.values``: expected points over the rest of the round, as the
bot's search finds them). Each decision gets the bot's choice, the loss of the action played
(the best value minus its own), and a mark where the loss reaches the game's thresholds
(:attr:`~fives.core.games.Game.loss_marks`): an inaccuracy, a mistake, a blunder. Identical
actions (:mod:`fives.bots.transpose`) are one choice.

:func:`document` is the analysis as JSON (seats, rounds and decisions counted from 1, as
people count them): the command's ``--json`` and the site's ``/api/matches/<id>/analysis``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from fives.bots.base import Bot
from fives.bots.host import Seeds
from fives.bots.transpose import action_classes
from fives.core.games import Game
from fives.core.outcome import Score
from fives.core.record import Record
from fives.core.state import State
from fives.core.tiles import Action
from fives.core.view import view_of

__all__ = ["MARKS", "analyse", "document", "mark_of", "summary"]

#: the marks of a costly decision, least first
MARKS = ("inaccuracy", "mistake", "blunder")


def mark_of(game: Game, loss: float | None) -> str | None:
    """The mark a loss earns in ``game`` (None below an inaccuracy)."""
    if loss is None:
        return None
    found = None
    for name, threshold in zip(MARKS, game.loss_marks, strict=True):
        if loss >= threshold - 1e-9:
            found = name
    return found


def analyse(
    record: Record,
    bot: Bot,
    *,
    seats: Sequence[int],
    round_no: int | None = None,
    seed: int = 0,
    top: int = 3,
    peek: Callable[[State], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """The decisions of ``seats`` (in ``round_no`` only, 0-based, if given), each with the
    bot's values, loss and mark; the ``top`` costliest get ``flag`` 1, 2, 3... Each decision
    also carries the seat's side's score margin over the best other side at that moment.
    ``peek`` is shown the full state before each decision (the measuring ``cheat`` bot only);
    ``progress`` is told the number of decisions valued so far."""
    state = State(record.config)
    decisions: list[dict[str, Any]] = []
    for i, rnd in enumerate(record.rounds):
        if round_no is not None and i > round_no:
            break
        state.start_round(rnd.hands, rnd.stock, rnd.leader)
        for k, text in enumerate(rnd.actions):
            seat = state.turn
            action = Action.parse(text)
            legal = state.legal_actions()
            if seat in seats and len(legal) > 1 and (round_no is None or i == round_no):
                if peek is not None:
                    peek(state.copy())
                decisions.append(_decision(state, bot, seat, action, legal, i, k, seed))
                if progress is not None:
                    progress(len(decisions))
            state.play(action)
    costly = sorted(
        (d for d in decisions if d["loss"] is not None and d["loss"] > 1e-9),
        key=lambda d: (-d["loss"], d["round"], d["action_no"]),
    )
    for rank, d in enumerate(costly[: max(0, top)], 1):
        d["flag"] = rank
    return decisions


def _margin(state: State, seat: int) -> float:
    """The seat's side's score less the best other side's."""
    scores: list[Score] = state.scores
    side = state.config.side_of(seat)
    others = [float(s) for k, s in enumerate(scores) if k != side]
    return float(scores[side]) - max(others)


def _decision(
    state: State, bot: Bot, seat: int, played: Action, legal: list[Action], i: int, k: int,
    seed: int,
) -> dict[str, Any]:
    view = view_of(state, seat)
    rng = Seeds(seed).of("analyse").decision(seat, i, k)
    stats = getattr(bot, "last_stats", None)
    if isinstance(stats, dict):
        stats.clear()  # what this decision's search saw, not the last one's
    raw = bot.values(view, rng)
    values: dict[str, float | None] = {}
    for a in legal:
        v = raw.get(a)
        values[str(a)] = None if v is None else float(v)
    known = {a: v for a, v in values.items() if v is not None}
    choice = max(known, key=lambda a: known[a]) if known else None  # first of the best
    best = known[choice] if choice is not None else None
    mine = values.get(str(played))
    loss = best - mine if best is not None and mine is not None else None
    same = [[str(a) for a in g] for g in action_classes(view.layout, legal) if len(g) > 1]
    twins = next((g for g in same if str(played) in g), [str(played)])
    agrees = choice in twins
    out: dict[str, Any] = {
        "round": i,
        "action_no": k,
        "seat": seat,
        "played": str(played),
        "choice": choice,
        "agrees": agrees,
        "same": same,
        "loss": loss,
        "mark": None if agrees else mark_of(state.config.game, loss),
        "margin": _margin(state, seat),
        "values": values,
        "flag": None,
    }
    if getattr(bot, "infer", False) and isinstance(stats, dict) and "ess_share" in stats:
        # worlds drawn by how well they explain the others' plays: how many candidates were
        # worth one world each, as a share (issue 27)
        out["effective_share"] = round(float(stats["ess_share"]), 4)
    return out


def summary(decisions: Sequence[dict[str, Any]], seats: Sequence[int]) -> list[dict[str, Any]]:
    """Per seat: decisions, agreements with the bot, total and mean loss, marks of each kind."""
    out = []
    for seat in seats:
        mine = [d for d in decisions if d["seat"] == seat]
        losses = [d["loss"] for d in mine if d["loss"] is not None]
        out.append(
            {
                "seat": seat,
                "decisions": len(mine),
                "agrees": sum(1 for d in mine if d["agrees"]),
                "total_loss": sum(losses),
                "mean_loss": sum(losses) / len(losses) if losses else None,
                "marks": {m: sum(1 for d in mine if d.get("mark") == m) for m in MARKS},
            }
        )
        shares = [d["effective_share"] for d in mine if "effective_share" in d]
        if shares:
            out[-1]["effective_share"] = round(sum(shares) / len(shares), 4)
    return out


def document(record: Record, bot_name: str, decisions: Sequence[dict[str, Any]],
             seats: Sequence[int], round_no: int | None = None) -> dict[str, Any]:
    """The analysis as JSON: seats, rounds and decisions counted from 1."""
    game = record.config.game
    return {
        "game": game.name,
        "players": record.config.players,
        "names": record.seats,
        "bot": bot_name,
        "seats": [s + 1 for s in seats],
        "round": None if round_no is None else round_no + 1,
        "thresholds": dict(zip(MARKS, game.loss_marks, strict=True)),
        "decisions": [
            {**d, "round": d["round"] + 1, "action_no": d["action_no"] + 1,
             "seat": d["seat"] + 1}
            for d in decisions
        ],
        "summary": [{**s, "seat": s["seat"] + 1} for s in summary(decisions, seats)],
    }
