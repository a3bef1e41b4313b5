"""``fives replay FILE... [--json] [--layout] [--lang en|hi]``: check and replay records
(RECORD.md).

``--json`` prints the contract's report, one document per line, language-neutral. Without it,
each record is told move by move in the reader's language (``--lang``, else the locale's): the
header, then per round the deal, the leader and why, every play with its scoring sentence, every
draw (with its tile: a record is complete information), pass or knock, the round's end with the
remaining tiles and how they were paid, and the match result. The words are those of the
terminal game (:mod:`fives.phrasing`), so a match reads the same in ``fives play`` and here.
"""

from __future__ import annotations

import argparse
import json
import shutil
from collections.abc import Sequence
from typing import Any

from fives.cli.errors import print_error
from fives.core.account import account_of
from fives.core.outcome import RoundEnd
from fives.core.record import Record, RecordError, replay_state, report_of
from fives.core.state import State
from fives.core.tiles import ACTIONS, ALL_TILES, Action, Tile
from fives.i18n import LANGUAGES, default_language
from fives.phrasing import (
    Names,
    Tr,
    draw_line,
    ends_text,
    fmt_scores,
    leader_reason,
    os_error_text,
    pass_line,
    play_line,
    record_error_text,
    result_line,
    round_end_lines,
    sits_out_line,
)


def register(sub: Any) -> None:
    rt = Tr(default_language(), "replay.")
    p = sub.add_parser("replay", help=rt("cli.help"), description=rt("cli.description"))
    p.add_argument("files", nargs="+", metavar="FILE", help=rt("cli.files"))
    p.add_argument("--json", action="store_true", help=rt("cli.json"))
    p.add_argument("--layout", action="store_true", help=rt("cli.layout"))
    p.add_argument("--lang", choices=list(LANGUAGES), help=rt("cli.lang"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    lang = args.lang or default_language()
    rt = Tr(lang, "replay.")
    def fail(text: str) -> int:
        print_error(text)
        return 2

    if args.json and args.layout:
        return fail(rt("err.layout_json"))
    for number, path in enumerate(args.files):
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
        except FileNotFoundError:
            return fail(rt("err.missing", path=path))
        except UnicodeDecodeError:
            return fail(rt("err.not_utf8", path=path))
        except OSError as exc:
            return fail(rt("err.read", path=path, why=os_error_text(exc, lang)))
        try:
            record = Record.from_json(text)
            state = replay_state(record)
        except RecordError as exc:
            return fail(rt("err.record", path=path, why=record_error_text(exc, lang)))
        if args.json:
            print(json.dumps(report_of(state)))
            continue
        if number:
            print()
        if len(args.files) > 1:
            print(f"== {path}")
        # The record has just been checked whole, so telling it cannot fail.
        print("\n".join(account(record, layout=args.layout, lang=lang)))
    return 0


def _tiles(tr: Tr, tiles: Sequence[Tile]) -> str:
    return " ".join(str(t) for t in tiles) or tr("end.empty")


# -- the header --------------------------------------------------------------------------


def header(record: Record, names: Names, rt: Tr) -> list[str]:
    tr = names.tr
    cfg = record.config
    game = cfg.game
    lines = [rt("game", game=names.game(), name=game.name, players=cfg.players)]
    if record.seats is not None:
        seated = Names(tr, cfg, record.seats, None)
        players = ", ".join(seated.seat_long(s) for s in range(cfg.players))
        lines.append(tr("intro.players", players=players))
    if cfg.teams:
        lines.append(tr("intro.teams", a=names.side(0), b=names.side(1)))
    else:
        lines.append(rt("no_teams"))
    target = tr(
        "intro.target_exact" if game.exact_target else "intro.target", points=tr.points(cfg.target)
    )
    default = game.targets[cfg.players]
    if cfg.target != default:
        target += rt("target_changed", n=default)
    lines.append(target)
    rules = cfg.house_rules()
    if rules:
        shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in rules.items())
        lines.append(rt("house_rules", rules=shown))
    else:
        lines.append(rt("house_rules_none"))
    return lines


# -- the whole account -------------------------------------------------------------------


def account(record: Record, layout: bool = False, lang: str = "en") -> list[str]:
    """The move-by-move account of a record already checked by ``replay_state``."""
    tr = Tr(lang)
    rt = Tr(lang, "replay.")
    cfg = record.config
    game = cfg.game
    names = Names(tr, cfg, None, None)
    state = State(cfg)
    lines = header(record, names, rt)
    previous: RoundEnd | None = None
    for i, rnd in enumerate(record.rounds):
        by_lot = state.expected_leader(rnd.hands) is None
        reason = leader_reason(tr, cfg, rnd.hands, rnd.leader, previous, i, by_lot)
        state.start_round(rnd.hands, rnd.stock, rnd.leader)
        lines.append("")
        lines.append(tr("round.title", n=i + 1))
        for seat, hand in enumerate(rnd.hands):
            lines.append("  " + rt("dealt", who=names.seat(seat), tiles=_tiles(tr, sorted(hand))))
        if game.drawing:
            lines.append("  " + rt("stock", n=len(rnd.stock), tiles=_tiles(tr, rnd.stock)))
        elif rnd.stock:
            lines.append(
                "  " + rt("out_of_play", n=len(rnd.stock), tiles=_tiles(tr, sorted(rnd.stock)))
            )
        lines.append("  " + tr("round.leader", who=names.seat_long(rnd.leader), why=reason))
        for text in rnd.actions:
            spinner_before = state.layout.spinner
            seat, code, _ends, points, tile = state.play(Action.parse(text))
            action = ACTIONS[code]
            if action.is_play:
                became = spinner_before < 0 <= state.layout.spinner
                lines.append(
                    "  "
                    + play_line(
                        names, action, seat, state.layout, points, state.scores_out(),
                        state.round_end, became,
                    )
                )
                if (
                    cfg.teams
                    and game.partners_play_on
                    and state.round_end is None
                    and state.out[seat]
                ):
                    lines.append("  " + sits_out_line(names, seat))
            elif action.kind == "draw":
                lines.append("  " + draw_line(names, seat, ALL_TILES[tile]))
            else:
                lines.append("  " + pass_line(names, seat))
        end = state.round_end
        if end is None:
            lines.append("  " + rt("unfinished", n=i + 1))
        else:
            account = account_of(cfg, end)
            lines.extend("  " + line for line in round_end_lines(names, account, i + 1))
        lines.append("  " + rt("scores", scores=fmt_scores(state.scores_out())))
        if layout:
            lines.append("  " + rt("layout"))
            lines.extend("    " + row for row in layout_rows(state, tr, rt))
        previous = end
    lines.append("")
    lines.append(result_line(names, state.over, state.winner, state.scores_out()))
    lines.append(tr("match.rounds", n=len(record.rounds)))
    return lines


def layout_rows(state: State, tr: Tr, rt: Tr, width: int | None = None) -> list[str]:
    """The final layout drawn as the terminal game draws it (tiles and end letters are
    language-neutral), its legend and its ends."""
    from fives.tui.drawing import draw, legend_key

    lay = state.layout
    if lay.count == 0:
        return [tr("table.empty")]
    game = state.config.game
    scoring = game.ends_score
    if width is None:
        width = max(40, shutil.get_terminal_size((100, 24)).columns - 4)
    rows = draw(lay, width=width, scoring=scoring).lines()
    if scoring:
        rows.append(rt("layout_ends", sum=lay.sentence()))
    else:
        rows.append(tr("table.open_ends", ends=ends_text(lay, tr)))
    rows.append(tr(legend_key(scoring, game.spinner)))
    return rows
