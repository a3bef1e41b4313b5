"""What a person reads about a match, in their language, for every interface that tells one:
the terminal game (:mod:`fives.tui`) and ``fives replay``'s text account
(:mod:`fives.cli.replay_cmd`). Names of seats and sides, the scoring sentence of each play,
draws, passes and knocks, leaders and lots, round-end summaries with their arithmetic (the
payment kinds of :class:`~fives.core.state.RoundEnd`, the Fives and Threes discards), the match
result, and why a record is refused.

Every sentence comes from the one catalogue (:mod:`fives.i18n`), so it exists in English and
Hindi. Only public information is used: a view, or a round that has ended (its hands are shown
at the end, as at a real table), or a whole record (which is complete information).

>>> from fives.core.layout import Layout
>>> lay = Layout(spinner_rules=True)
>>> for text in ("1-4", "1-1@W", "4-4@E"):
...     _ = lay.place_text(text)
>>> cfg = Config.make("all-fives", 2)
>>> play_sentence(Tr("en"), cfg, lay, 10), play_sentence(Tr("hi"), cfg, lay, 10)
('2 + 8 = 10: 10 points', '2 + 8 = 10: 10 अंक')
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence
from fractions import Fraction

from fives.core.games import Config
from fives.core.layout import Layout
from fives.core.record import RecordError, score_json
from fives.core.state import RoundEnd, Score
from fives.core.tiles import END_NAMES, Action, Tile, round_to_five
from fives.i18n import catalogue, reason_text, t

__all__ = [
    "HUMAN",
    "Names",
    "Tr",
    "action_text",
    "draw_line",
    "ends_text",
    "fmt_score",
    "fmt_scores",
    "leader_reason",
    "pass_line",
    "payment_text",
    "play_line",
    "play_sentence",
    "record_error_text",
    "result_line",
    "round_end_lines",
    "short_command",
    "sits_out_line",
]


def fmt_score(x: Score | float) -> str:
    """A score as text: whole numbers plainly, a half point as ``.5``."""
    if isinstance(x, float):
        return str(int(x)) if x.is_integer() else str(x)
    return str(score_json(x if isinstance(x, (int, Fraction)) else int(x)))


class Tr:
    """``tr("key", n=1)`` is ``t("tui.key", lang, n=1)``: the play phrasing's keys live under
    ``tui.`` (the terminal gave them first); another ``prefix`` names another area's keys."""

    def __init__(self, lang: str, prefix: str = "tui.") -> None:
        self.lang = lang
        self.prefix = prefix

    def __call__(self, key: str, /, **params: object) -> str:
        return t(self.prefix + key, self.lang, **params)

    def points(self, n: Score | float) -> str:
        """``1 point`` / ``10 points`` / ``2.5 points``."""
        key = "tui.point" if n == 1 else "tui.points"
        return t(key, self.lang, n=fmt_score(n))

    def tiles(self, n: int) -> str:
        return t("tui.tile_count_one" if n == 1 else "tui.tile_count", self.lang, n=n)

    def game(self, name: str) -> str:
        """A game's name: one translation of it everywhere (the browser's too)."""
        return t(f"common.game.{name}", self.lang)


#: the seat name of a person at the keyboard (in records and ``--bots``)
HUMAN = "human"


def short_command(command: str, limit: int = 28) -> str:
    """An outside bot's command line as a short name: its program's file name and arguments.

    >>> short_command("/usr/local/bin/fives bot easy")
    'fives bot easy'
    """
    try:
        argv = shlex.split(command)
    except ValueError:
        argv = command.split()
    if not argv:
        return command
    text = " ".join([os.path.basename(argv[0]), *argv[1:]])
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fmt_scores(scores: Sequence[Score]) -> str:
    return "–".join(fmt_score(s) for s in scores)


def ends_text(layout: Layout) -> str:
    """The open ends as ``W 2, E 4`` (end letters are language-neutral)."""
    return ", ".join(f"{END_NAMES[e]} {v}" for e, v in layout.ends)


class Names:
    """How seats and sides are called at this table.

    ``seats`` holds ``human`` or a bot name per seat (or None: plain ``seat N``, as a record
    without seat names is told); ``me`` is the one person at the keyboard (called *you*), or
    None when several people share it (hot seat), nobody plays, or a record is told.
    """

    def __init__(
        self, tr: Tr, config: Config, seats: Sequence[str] | None, me: int | None
    ) -> None:
        self.tr = tr
        self.config = config
        self.seats = list(seats) if seats is not None else None
        self.me = me

    def bot(self, name: str) -> str:
        key = f"tui.bot.{name}"
        if key in catalogue(self.tr.lang):
            return t(key, self.tr.lang)
        if name.startswith("cmd:"):
            return short_command(name[4:])
        return name

    def seat(self, seat: int) -> str:
        """``you``, ``seat 1 (hard)``, or plainly ``seat 1``."""
        if seat == self.me:
            return self.tr("who.you")
        if self.seats is None:
            return t("common.seat", self.tr.lang, n=seat)
        return self.tr("who.seat", n=seat, name=self.bot(self.seats[seat]))

    def seat_long(self, seat: int) -> str:
        """``you (seat 0)`` or ``seat 1 (hard)``."""
        if seat == self.me:
            return self.tr("who.you_seat", n=seat)
        return self.seat(seat)

    def side(self, side: int) -> str:
        cfg = self.config
        if not cfg.teams:
            return self.seat_long(side)
        if self.me is not None and cfg.side_of(self.me) == side:
            return self.tr("who.your_team", a=side, b=side + 2)
        return self.tr("who.team", a=side, b=side + 2)

    def game(self) -> str:
        return self.tr.game(self.config.game.name)


def action_text(tr: Tr, action: Action, game_name: str) -> str:
    """An action in words: ``lead 3-5``, ``3-5 on E``, ``draw from the stock``, ``knock``."""
    tile = action.tile
    if action.kind == "lead":
        return tr("act.lead", tile=tile)
    if action.kind == "play":
        assert action.end is not None
        return tr("act.play", tile=tile, end=END_NAMES[action.end])
    if action.kind == "draw":
        return tr("act.draw")
    return tr("act.knock") if game_name == "fives-and-threes" else tr("act.pass")


def play_sentence(tr: Tr, config: Config, layout: Layout, points: int) -> str:
    """The seeds' sentence for a play: ``2 + 8 = 10: 10 points`` (Fives and Threes adds how
    the points were found: ``3 + 12 = 15: 8 points (15 ÷ 3 = 5 + 15 ÷ 5 = 3)``)."""
    game = config.game
    if game.play_scoring == "none":
        return tr("log.open_ends", ends=ends_text(layout))
    total = layout.ends_total()
    text = tr("sentence", sum=layout.sentence(), points=tr.points(points))
    if game.play_scoring == "fives-and-threes" and points:
        parts = []
        if total % 3 == 0:
            parts.append(f"{total} ÷ 3 = {total // 3}")
        if total % 5 == 0:
            parts.append(f"{total} ÷ 5 = {total // 5}")
        text += f" ({' + '.join(parts)})"
    return text


def _said(layout: Layout) -> str:
    return layout.sentence()


def play_line(
    names: Names,
    action: Action,
    seat: int,
    layout: Layout,
    points: int,
    scores: Sequence[Score],
    end: RoundEnd | None,
    became_spinner: bool,
) -> str:
    """One play as the log tells it, with its scoring sentence (layout and scores after it)."""
    tr = names.tr
    cfg = names.config
    game = cfg.game
    who = names.seat(seat)
    tile = action.tile
    if action.kind == "lead":
        what = tr("log.lead", who=who, tile=tile)
    else:
        assert action.end is not None
        what = tr("log.play", who=who, tile=tile, end=END_NAMES[action.end])
    if became_spinner:
        what += tr("log.spinner")
    if game.play_scoring == "none":
        return f"{what} · {tr('log.open_ends', ends=ends_text(layout))}"
    ends = layout.ends_total()
    sentence = play_sentence(tr, cfg, layout, points)
    scored = points > 0
    if end is not None and end.reason == "domino" and end.payment == "bonus":
        bonus = end.points[end.winner] if end.winner is not None else 0
        sentence += tr("log.bonus", points=tr.points(bonus))
        scored = True
    elif end is not None and end.reason == "domino" and end.payment == "discarded":
        sentence = tr(
            "log.discarded_end",
            sum=_said(layout),
            play=tr.points(game.play_points[ends]),
            bonus=tr.points(game.domino_bonus),
            target=cfg.target,
        )
        scored = True
    elif points == 0 and game.play_points[ends] and game.exact_target:
        sentence = tr(
            "log.discarded",
            sum=_said(layout),
            play=tr.points(game.play_points[ends]),
            target=cfg.target,
        )
    line = f"{what} · {sentence}"
    if scored:
        line += tr("log.scores", scores=fmt_scores(scores))
    return line


def draw_line(names: Names, seat: int, tile: Tile | None) -> str:
    """A draw; ``tile`` is None when the reader may not see it."""
    if tile is None:
        return names.tr("log.draw_hidden", who=names.seat(seat))
    return names.tr("log.draw_seen", who=names.seat(seat), tile=tile)


def sits_out_line(names: Names, seat: int) -> str:
    """A partner who went out in Fives and Threes sits out until the other goes out too."""
    return names.tr("log.sits_out", who=names.seat(seat))


def pass_line(names: Names, seat: int) -> str:
    """A pass, or a knock in Fives and Threes."""
    game = names.config.game
    who = names.seat(seat)
    if game.name == "fives-and-threes":
        return names.tr("log.knock", who=who)
    if game.drawing:
        return names.tr("log.pass", who=who)
    return names.tr("log.pass_nostock", who=who)


# -- leaders and lots ------------------------------------------------------------------------


def leader_reason(
    tr: Tr,
    config: Config,
    hands: Sequence[Sequence[Tile]],
    leader: int,
    previous: RoundEnd | None,
    round_no: int,
    by_lot: bool,
) -> str:
    """Why ``leader`` leads round ``round_no`` (0-based)."""
    game = config.game
    rule = game.first_lead if round_no == 0 else game.next_lead
    if rule == "highest-double":
        tiles = [t for hand in hands for t in hand]
        if any(t.is_double for t in tiles):
            best = max(t for t in hands[leader] if t.is_double)
            return tr("lead.highest_double", tile=best)
        heaviest = max(hands[leader], key=lambda t: (t.pips, t.high))
        return tr("lead.heaviest", tile=heaviest)
    if rule == "rotate":
        return tr("lead.rotate")
    if rule == "last-tile" and previous is not None and not by_lot:
        return tr("lead.last_tile", n=round_no)
    if rule == "last-tile" and previous is not None:
        return tr("lead.after_block", n=round_no)
    return tr("lead.lot")


# -- round ends ------------------------------------------------------------------------------


def round_end_lines(
    names: Names, end: RoundEnd, round_no: int, hands: Sequence[Sequence[Tile]]
) -> list[str]:
    """The summary of a round that has ended (``round_no`` 1-based; ``hands``: what each seat
    still holds, shown now that the round is over)."""
    tr = names.tr
    cfg = names.config
    game = cfg.game
    n = cfg.players
    lines: list[str] = []
    if end.reason == "domino":
        who = names.seat(end.went_out) if end.went_out is not None else "?"
        key = "end.domino_partner" if cfg.teams and game.partners_play_on else "end.domino"
        lines.append(tr(key, n=round_no, who=who))
        if end.winner is not None:
            lines.append(tr("end.winner", side=names.side(end.winner)))
    elif end.reason == "blocked":
        lines.append(tr("end.blocked", n=round_no))
        if end.winner is not None:
            lines.append(tr("end.winner", side=names.side(end.winner)))
        elif end.payment in ("split", "tie"):
            lines.append(tr("end.blocked_tie"))
        else:
            lines.append(tr("end.no_winner"))
    else:
        lines.append(tr("end.target", n=round_no, target=cfg.target))
    lines.append(tr("end.remaining"))
    for s in range(n):
        tiles = " ".join(str(t) for t in hands[s]) or tr("end.empty")
        lines.append("  " + tr("end.hand", who=names.seat_long(s), tiles=tiles, pips=end.pips[s]))
    side_pips = [0] * cfg.sides
    for s in range(n):
        side_pips[cfg.side_of(s)] += end.pips[s]
    if cfg.teams:
        for d in range(cfg.sides):
            lines.append("  " + tr("end.side_pips", side=names.side(d), pips=side_pips[d]))
    lines.append(payment_text(names, end, side_pips))
    added = ", ".join(
        f"{names.side(d)} +{fmt_score(end.points[d])}" for d in range(cfg.sides)
    )
    lines.append(tr("end.points", parts=added))
    return lines


def payment_text(names: Names, end: RoundEnd, side_pips: Sequence[int]) -> str:
    """How the round's end was paid, with the arithmetic behind it."""
    tr = names.tr
    cfg = names.config
    pay = end.payment
    n = cfg.players
    winner = end.winner
    if pay in ("pool", "each", "plain") and winner is not None:
        to = names.side(winner)
        opponents = [s for s in range(n) if cfg.side_of(s) != winner]
        got = tr.points(end.points[winner])
        prefix = ""
        if end.reason == "blocked":
            low = side_pips[winner]
            tied = [d for d in range(cfg.sides) if side_pips[d] == low and d != winner]
            if cfg.game.block_rule != "lowest-side" and tied:
                prefix = tr("pay.fewest_tiles", side=to) + " "
            else:
                prefix = tr("pay.fewest", side=to) + " "
        parts = " + ".join(f"{names.seat(s)} {end.pips[s]}" for s in opponents)
        total = sum(end.pips[s] for s in opponents)
        if pay == "pool":
            return prefix + tr("pay.pool", parts=parts, total=total, got=got, side=to)
        if pay == "each":
            each = ", ".join(
                f"{names.seat(s)} {end.pips[s]} → {round_to_five(end.pips[s])}" for s in opponents
            )
            return prefix + tr("pay.each", parts=each, got=got, side=to)
        return prefix + tr("pay.plain", parts=parts, total=total, got=got, side=to)
    if pay == "split":
        tied = [d for d in range(cfg.sides) if end.points[d]]
        third = next(d for d in range(cfg.sides) if d not in tied)
        return tr(
            "pay.split",
            a=names.side(tied[0]),
            b=names.side(tied[1]),
            pips=side_pips[tied[0]],
            c=names.side(third),
            third=side_pips[third],
            rounded=round_to_five(side_pips[third]),
            half=tr.points(end.points[tied[0]]),
        )
    if pay == "tie":
        return tr("pay.tie")
    if pay == "bonus" and winner is not None:
        return tr("pay.bonus", points=tr.points(end.points[winner]), side=names.side(winner))
    if pay == "discarded" and winner is not None:
        return tr(
            "pay.discarded",
            points=tr.points(end.discarded),
            side=names.side(winner),
            target=cfg.target,
        )
    if pay == "target":
        return tr("pay.target")
    if cfg.game.remaining == "none":
        return tr("pay.never", game=names.game())
    return tr("pay.nobody")


def result_line(names: Names, over: bool, winner: int | None, scores: Sequence[Score]) -> str:
    """The match's result: its winner, a drawn match, or the scores of an unfinished one."""
    tr = names.tr
    if over and winner is not None:
        return tr("match.winner", side=names.side(winner), scores=fmt_scores(scores))
    if over:
        return tr("match.drawn", scores=fmt_scores(scores))
    return tr("match.unfinished", scores=fmt_scores(scores))


# -- refused records -------------------------------------------------------------------------


def record_error_text(exc: RecordError, lang: str) -> str:
    """Why a record is refused, in ``lang``: where (round, action, seat, the action as written),
    why (the engine's reason by its key when it has one, else the record's English reason) and
    the legal actions. In English it is ``str(exc)`` (bar the game's name in ``no_drawing``,
    which reads as the game's title)."""
    parts = []
    if exc.round_no is not None:
        parts.append(t("engine.record.round", lang, n=exc.round_no + 1))
    if exc.action_no is not None:
        parts.append(t("engine.record.action", lang, n=exc.action_no + 1))
    if exc.seat is not None:
        parts.append(t("engine.record.seat", lang, n=exc.seat))
    if exc.action is not None:
        parts.append(repr(exc.action))
    why = reason_text(exc, None, lang)
    text = t("engine.record.where", lang, where=", ".join(parts), why=why) if parts else why
    if exc.legal is not None:
        shown = ", ".join(str(a) for a in exc.legal) or t("engine.record.none", lang)
        text += t("engine.record.legal", lang, actions=shown)
    return text
