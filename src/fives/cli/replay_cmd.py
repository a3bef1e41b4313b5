"""``fives replay FILE... [--json] [--layout]``: check and replay records (RECORD.md).

``--json`` prints the contract's report, one document per line. Without it, each record is told
move by move: the header, then per round the deal, the leader and why, every play with its
scoring sentence, every draw (with its tile: a record is complete information), pass or knock,
the round's end with the remaining pips and how they were paid, and the match result.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from fives.core.games import Config
from fives.core.record import Record, RecordError, replay_state, report_of, score_json
from fives.core.render import points_word, render_layout, scoring_sentence
from fives.core.state import RoundEnd, Score, State
from fives.core.tiles import ACTIONS, ALL_TILES, END_NAMES, Action, Tile, round_to_five


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay",
        help="check and replay game records",
        description="Check records (RECORD.md) and tell them move by move, or report them "
        "as JSON with --json.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="record files (RECORD.md)")
    p.add_argument("--json", action="store_true", help="one JSON report per record (JSON Lines)")
    p.add_argument(
        "--layout",
        action="store_true",
        help="draw the final layout of each round (text account only)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.json and args.layout:
        print("error: --layout goes with the text account, not with --json", file=sys.stderr)
        return 2
    for number, path in enumerate(args.files):
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            print(f"error: {path}: cannot read: {exc}", file=sys.stderr)
            return 2
        try:
            record = Record.from_json(text)
            state = replay_state(record)
        except RecordError as exc:
            print(f"error: {path}: {exc}", file=sys.stderr)
            return 2
        if args.json:
            print(json.dumps(report_of(state)))
            continue
        if number:
            print()
        if len(args.files) > 1:
            print(f"== {path}")
        # The record has just been checked whole, so telling it cannot fail.
        print("\n".join(account(record, layout=args.layout)))
    return 0


# -- names and numbers -----------------------------------------------------------------------


def fmt_score(x: Score) -> str:
    """A score as text: whole numbers plainly, a half point as ``.5``."""
    return str(score_json(x))


def fmt_scores(scores: Sequence[Score]) -> str:
    return "-".join(fmt_score(s) for s in scores)


def side_name(config: Config, side: int) -> str:
    """``seats 0+2`` / ``seats 1+3`` in a partnership game, else ``seat N``."""
    if config.teams:
        return f"seats {side}+{side + 2}"
    return f"seat {side}"


def _verb(config: Config, singular: str, plural: str) -> str:
    return plural if config.teams else singular


def _seat_label(record: Record, seat: int) -> str:
    if record.seats is not None:
        return f"seat {seat} ({record.seats[seat]})"
    return f"seat {seat}"


def _tiles(tiles: Sequence[Tile]) -> str:
    return " ".join(str(t) for t in tiles) or "-"


# -- the header --------------------------------------------------------------------------


def header(record: Record) -> list[str]:
    cfg = record.config
    game = cfg.game
    lines = [f"{game.title} ({game.name}), {cfg.players} players"]
    if record.seats is not None:
        lines.append(
            "players: " + ", ".join(f"seat {i} {name}" for i, name in enumerate(record.seats))
        )
    if cfg.teams:
        lines.append("teams: seats 0+2 against seats 1+3")
    else:
        lines.append("teams: none, each plays for themselves")
    default = game.targets[cfg.players]
    lines.append(f"target: {cfg.target}" + ("" if cfg.target == default else f" (rules: {default})"))
    rules = cfg.house_rules()
    if rules:
        shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in rules.items())
        lines.append(f"house rules: {shown}")
    else:
        lines.append("house rules: none (RULES.md as written)")
    return lines


# -- the leader --------------------------------------------------------------------------


def leader_reason(
    state: State, hands: Sequence[Sequence[Tile]], leader: int, previous: RoundEnd | None,
    round_no: int,
) -> str:
    """Why ``leader`` leads the round about to be dealt into ``state``."""
    game = state.config.game
    rule = game.first_lead if round_no == 0 else game.next_lead
    if rule == "highest-double":
        tiles = [t for hand in hands for t in hand]
        if any(t.is_double for t in tiles):
            best = max(t for t in hands[leader] if t.is_double)
            return f"holds the highest double, {best}"
        heaviest = max(hands[leader], key=lambda t: (t.pips, t.high))
        return f"holds the heaviest tile, {heaviest} (no doubles dealt)"
    if rule == "rotate":
        return "the lead passes one seat clockwise each round"
    if rule == "last-tile" and previous is not None:
        if previous.reason == "domino" and previous.went_out is not None:
            return f"played the last tile of round {round_no}"
        return f"by lot (round {round_no} was blocked)"
    return "by lot"


# -- one action --------------------------------------------------------------------------


def _play_line(
    state: State,
    action: Action,
    ends: int,
    points: int,
    became_spinner: bool,
    label: str,
) -> str:
    cfg = state.config
    game = cfg.game
    tile = action.tile
    assert tile is not None
    if action.kind == "lead":
        what = f"{label} leads {tile}"
    else:
        assert action.end is not None
        what = f"{label} plays {tile} on {END_NAMES[action.end]}"
    if became_spinner:
        what += " (the spinner)"
    lay = state.layout
    if game.play_scoring == "none":
        ends_text = ", ".join(f"{END_NAMES[e]}={v}" for e, v in lay.ends)
        return f"{what}; open ends {ends_text}"
    end = state.round_end
    if lay.count == 1:
        # C-5: a lone tile counts both its halves (the engine's sentence says only "5 = 5").
        lone = lay.center_tile
        assert lone is not None
        said = f"{lone.low} + {lone.high} = {ends}"
        sentence = f"{said} -> {points_word(points)}"
    else:
        said = lay.sentence()
        sentence = scoring_sentence(lay, points)
    scored = points > 0
    if end is not None and end.reason == "domino" and end.payment == "bonus":
        bonus = end.points[end.winner] if end.winner is not None else 0
        sentence += f" + {points_word(int(bonus))} for going out"
        scored = True
    elif end is not None and end.reason == "domino" and end.payment == "discarded":
        sentence = (
            f"{said} -> {points_word(game.play_points[ends])} + "
            f"{points_word(game.domino_bonus)} for going out, all discarded: "
            f"it would pass {cfg.target}"
        )
        scored = True
    elif points == 0 and game.play_points[ends] and game.exact_target:
        sentence = (
            f"{said} -> {points_word(game.play_points[ends])}, discarded: "
            f"it would pass {cfg.target}"
        )
        scored = True
    if not scored:
        return f"{what}: {sentence}"
    return f"{what}: {sentence} (scores {fmt_scores(state.scores_out())})"


# -- the round's end -----------------------------------------------------------------------


def round_end_lines(config: Config, end: RoundEnd, round_no: int) -> list[str]:
    game = config.game
    n = config.players
    lines: list[str] = []
    if end.reason == "domino":
        seat = end.went_out
        who = side_name(config, end.winner) if end.winner is not None else "nobody"
        out = f"seat {seat} went out" if seat is not None else "a hand went out"
        if config.teams and game.partners_play_on:
            out = f"seat {seat} went out after their partner"
        lines.append(
            f"round {round_no} ends: domino, {out}; "
            f"{who} {_verb(config, 'wins', 'win')} the round"
        )
    elif end.reason == "blocked":
        if end.winner is None and end.payment in ("split", "tie"):
            lines.append(f"round {round_no} ends: blocked, with a tie for the fewest pips")
        elif end.winner is None:
            lines.append(f"round {round_no} ends: blocked, nobody wins the round")
        else:
            lines.append(
                f"round {round_no} ends: blocked; {side_name(config, end.winner)} "
                f"{_verb(config, 'wins', 'win')} the round"
            )
    else:
        lines.append(
            f"round {round_no} ends: the match target ({config.target}) is reached in the "
            "middle of the round"
        )
    pips = end.pips
    lines.append(
        "  remaining pips: " + ", ".join(f"seat {s} {pips[s]}" for s in range(n))
    )
    side_pips = [0] * config.sides
    for s in range(n):
        side_pips[config.side_of(s)] += pips[s]
    if config.teams:
        lines.append(
            "  per side: "
            + ", ".join(f"{side_name(config, d)} {side_pips[d]}" for d in range(config.sides))
        )
    lines.append("  " + payment_text(config, end, side_pips))
    added = ", ".join(
        f"{side_name(config, d)} +{fmt_score(end.points[d])}" for d in range(config.sides)
    )
    lines.append(f"  points: {added}")
    return lines


def payment_text(config: Config, end: RoundEnd, side_pips: Sequence[int]) -> str:
    """How the round's end was paid (RoundEnd.payment), with the arithmetic behind it."""
    pay = end.payment
    n = config.players
    winner = end.winner
    if pay in ("pool", "each", "plain") and winner is not None:
        to = side_name(config, winner)
        opponents = [s for s in range(n) if config.side_of(s) != winner]
        got = fmt_score(end.points[winner])
        if end.reason == "blocked":
            rule = "fewest pips" if config.game.block_rule == "lowest-side" else None
            if rule is None:
                low = side_pips[winner]
                tied = [d for d in range(config.sides) if side_pips[d] == low and d != winner]
                rule = "fewest pips, ties broken by fewer tiles" if tied else "fewest pips"
            prefix = f"{to} {_verb(config, 'has', 'have')} the {rule}; "
        else:
            prefix = ""
        parts = [f"seat {s} {end.pips[s]}" for s in opponents]
        total = sum(end.pips[s] for s in opponents)
        if pay == "pool":
            return (
                f"{prefix}the opponents' pips pooled ({' + '.join(parts)} = {total}) and "
                f"rounded to five once: {got} to {to}"
            )
        if pay == "each":
            each = [f"seat {s} {end.pips[s]} -> {round_to_five(end.pips[s])}" for s in opponents]
            return f"{prefix}each opponent rounded to five ({', '.join(each)}): {got} to {to}"
        return f"{prefix}the opponents' pips, plain ({' + '.join(parts)}): {got} to {to}"
    if pay == "split":
        tied = [d for d in range(config.sides) if end.points[d]]
        third = next(d for d in range(config.sides) if d not in tied)
        half = fmt_score(end.points[tied[0]])
        return (
            f"seats {tied[0]} and {tied[1]} tie for the fewest pips ({side_pips[tied[0]]}); "
            f"seat {third}'s {side_pips[third]} pips rounded to five "
            f"({round_to_five(side_pips[third])}) and split in half: {half} each"
        )
    if pay == "tie":
        return "tie for the fewest pips: nobody scores the remaining tiles"
    if pay == "bonus" and winner is not None:
        return (
            f"{points_word(int(end.points[winner]))} for going out to {side_name(config, winner)} "
            "(counted with the last play); remaining tiles never score"
        )
    if pay == "discarded" and winner is not None:
        return (
            f"the last play and the point for going out ({points_word(end.discarded)}) are "
            f"discarded: {side_name(config, winner)} would pass {config.target}"
        )
    if end.reason == "target":
        return "the match is decided: remaining tiles are not counted"
    if config.game.remaining == "none":
        return f"remaining tiles never score in {config.game.title}"
    return "nobody scores the remaining tiles"


# -- the whole account -------------------------------------------------------------------


def account(record: Record, layout: bool = False) -> list[str]:
    """The move-by-move account of a record already checked by ``replay_state``."""
    cfg = record.config
    game = cfg.game
    state = State(cfg)
    lines = header(record)
    previous: RoundEnd | None = None
    pass_word = "knocks" if game.name == "fives-and-threes" else "passes"
    for i, rnd in enumerate(record.rounds):
        reason = leader_reason(state, rnd.hands, rnd.leader, previous, i)
        state.start_round(rnd.hands, rnd.stock, rnd.leader)
        lines.append("")
        lines.append(f"round {i + 1}")
        for seat, hand in enumerate(rnd.hands):
            lines.append(f"  dealt to seat {seat}: {_tiles(sorted(hand))}")
        if game.drawing:
            lines.append(f"  stock ({len(rnd.stock)}, in draw order): {_tiles(rnd.stock)}")
        elif rnd.stock:
            lines.append(f"  out of play ({len(rnd.stock)}): {_tiles(sorted(rnd.stock))}")
        lines.append(f"  leader: {_seat_label(record, rnd.leader)}, {reason}")
        for text in rnd.actions:
            spinner_before = state.layout.spinner
            seat, code, ends, points, tile = state.play(Action.parse(text))
            action = ACTIONS[code]
            label = f"seat {seat}"
            if action.is_play:
                became = spinner_before < 0 <= state.layout.spinner
                lines.append(
                    "  " + _play_line(state, action, ends, points, became, label)
                )
                if (
                    cfg.teams
                    and game.partners_play_on
                    and state.round_end is None
                    and state.out[seat]
                ):
                    lines.append(f"  {label} has played their last tile and sits out")
            elif action.kind == "draw":
                lines.append(f"  {label} draws {ALL_TILES[tile]}")
            else:
                lines.append(f"  {label} {pass_word}")
        end = state.round_end
        if end is None:
            lines.append(f"round {i + 1} is unfinished: the record stops here")
        else:
            lines.extend(round_end_lines(cfg, end, i + 1))
        lines.append(f"  scores: {fmt_scores(state.scores_out())}")
        if layout:
            lines.append("  layout:")
            lines.extend("    " + row for row in render_layout(state.layout).splitlines())
        previous = end
    lines.append("")
    lines.append(result_line(state, len(record.rounds)))
    return lines


def result_line(state: State, rounds: int) -> str:
    cfg = state.config
    scores = fmt_scores(state.scores_out())
    played = f"{rounds} round{'s' if rounds != 1 else ''}"
    if state.over and state.winner is not None:
        who = side_name(cfg, state.winner)
        return f"result: {who} {_verb(cfg, 'wins', 'win')} the match, {scores}, in {played}"
    if state.over:
        return f"result: the match is drawn, {scores}, in {played}"
    return f"result: unfinished after {played}, scores {scores} (target {cfg.target})"
