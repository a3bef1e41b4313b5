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

import errno
from collections.abc import Sequence
from fractions import Fraction

from fives.bots import BotError, BotName
from fives.core.account import (
    Bonus,
    Discarded,
    Each,
    Line,
    Lowest,
    NoScore,
    Plain,
    Pool,
    RoundAccount,
    Split,
    TargetReached,
    Tie,
    TilesNeverScore,
)
from fives.core.games import Config, Game
from fives.core.layout import Layout
from fives.core.outcome import RoundEnd, Score
from fives.core.record import RecordError, score_json
from fives.core.tiles import END_NAMES, Action, Tile
from fives.i18n import catalogue, plural, reason_text, t

__all__ = [
    "HUMAN",
    "Names",
    "Tr",
    "action_text",
    "draw_line",
    "ends_text",
    "fmt_score",
    "fmt_scores",
    "os_error_text",
    "leader_reason",
    "pass_line",
    "account_line",
    "play_line",
    "play_sentence",
    "record_error_text",
    "result_line",
    "round_end_lines",
    "seat_number",
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

    def plural(self, key: str, n: object, /, **params: object) -> str:
        """``key`` (under this prefix) in the plural form for the count ``n``."""
        return plural(self.prefix + key, n, self.lang, **params)

    def points(self, n: Score | float) -> str:
        """``1 point`` / ``10 points`` / ``2.5 points``."""
        return plural("common.points", n, self.lang, n=fmt_score(n))

    def pips(self, n: int) -> str:
        """``1 pip`` / ``13 pips``."""
        return plural("common.pips", n, self.lang)

    def tiles(self, n: int) -> str:
        """``1 tile`` / ``5 tiles``."""
        return plural("common.tiles", n, self.lang)

    def game(self, name: str) -> str:
        """A game's name: one translation of it everywhere (the browser's too)."""
        return t(f"common.game.{name}", self.lang)

    def end(self, end: int) -> str:
        """An end in a sentence: its letter in English (``E``, as the layout marks it), its
        name in Hindi (पूर्व), as the browser names it."""
        return t(f"common.end.{END_NAMES[end]}", self.lang)

    def end_key(self, end: int) -> str:
        """An end with the letter that is typed for it (``3-5 e``) and marks it on the board:
        ``E`` in English, ``पूर्व (E)`` in Hindi."""
        name, letter = self.end(end), END_NAMES[end]
        return letter if name == letter else f"{name} ({letter})"


def seat_number(seat: int) -> int:
    """A seat as people number it: from 1, as every screen shows it (the browser's seats,
    the terminal's, the rules' partnerships of seats 1+3 and 2+4). Records and the bot
    protocol number seats from 0 (RECORD.md); only what a person reads goes through here."""
    return seat + 1


#: the seat name of a person at the keyboard (in records and ``--bots``)
HUMAN = "human"


def fmt_scores(scores: Sequence[Score]) -> str:
    return "–".join(fmt_score(s) for s in scores)


def ends_text(layout: Layout, tr: Tr) -> str:
    """The open ends as a sentence names them: ``W 2, E 4``; ``पश्चिम 2, पूर्व 4`` in Hindi."""
    return ", ".join(f"{tr.end(e)} {v}" for e, v in layout.ends)


class Names:
    """How seats and sides are called at this table.

    ``seats`` holds ``human`` or a bot name per seat (or None: plain ``seat N``, as a record
    without seat names is told); ``me`` is the one person at the keyboard (called *you*), or
    None when several people share it (hot seat), nobody plays, or a record is told;
    ``people`` names the people at the keyboard by seat (None where a seat has no name).
    """

    def __init__(
        self,
        tr: Tr,
        config: Config,
        seats: Sequence[str] | None,
        me: int | None,
        people: Sequence[str | None] | None = None,
    ) -> None:
        self.tr = tr
        self.config = config
        self.seats = list(seats) if seats is not None else None
        self.me = me
        self.people = list(people) if people is not None else [None] * config.players

    def person(self, seat: int) -> str | None:
        """The name of the person in ``seat``, if they gave one."""
        return self.people[seat] if seat < len(self.people) else None

    def bot(self, name: str) -> str:
        key = f"tui.bot.{name}"
        if key in catalogue(self.tr.lang):
            return t(key, self.tr.lang)
        try:
            return BotName.parse(name).short()
        except BotError:  # a person's name
            return name

    def seat(self, seat: int) -> str:
        """``you``, ``seat 2 (hard)``, or plainly ``seat 2`` (for the record's seat 1)."""
        if seat == self.me:
            return self.tr("who.you")
        name = self.person(seat)
        if name:
            return name
        if self.seats is None:
            return t("common.seat", self.tr.lang, n=seat_number(seat))
        return self.tr("who.seat", n=seat_number(seat), name=self.bot(self.seats[seat]))

    def seat_long(self, seat: int) -> str:
        """``you (seat 1)`` or ``seat 2 (hard)``."""
        if seat == self.me:
            return self.tr("who.you_seat", n=seat_number(seat))
        name = self.person(seat)
        if name:
            return self.tr("who.person_seat", name=name, n=seat_number(seat))
        return self.seat(seat)

    def side(self, side: int) -> str:
        cfg = self.config
        if not cfg.teams:
            return self.seat_long(side)
        if self.me is not None and cfg.side_of(self.me) == side:
            return self.tr("who.your_team", a=seat_number(side), b=seat_number(side + 2))
        return self.tr("who.team", a=seat_number(side), b=seat_number(side + 2))

    def game(self) -> str:
        return self.tr.game(self.config.game.name)


def action_text(tr: Tr, action: Action, game: Game) -> str:
    """An action in words: ``lead 3-5``, ``3-5 on E``, ``draw from the stock``, ``knock``."""
    tile = action.tile
    if action.kind == "lead":
        return tr("act.lead", tile=tile)
    if action.kind == "play":
        assert action.end is not None
        return tr("act.play", tile=tile, end=tr.end(action.end))
    if action.kind == "draw":
        return tr("act.draw")
    return tr("act.knock") if game.no_play == "knock" else tr("act.pass")


def play_sentence(tr: Tr, config: Config, layout: Layout, points: int) -> str:
    """The seeds' sentence for a play: ``2 + 8 = 10: 10 points``; where the points are not the
    total, the step that finds them (:meth:`Game.division`, the one every interface writes):
    ``6 + 6 = 12, 12 ÷ 3 = 4 points``, ``3 + 12 = 15, 15 ÷ 3 + 15 ÷ 5 = 8 points``."""
    game = config.game
    if game.play_scoring == "none":
        return tr("log.open_ends", ends=ends_text(layout, tr))
    total = layout.ends_total()
    division = game.division(total)
    if division and points == game.play_points[total]:
        return tr("sentence_divided", sum=layout.sentence(), division=division,
                  points=tr.points(points))
    return tr("sentence", sum=layout.sentence(), points=tr.points(points))


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
    """One play as the log tells it, with its scoring sentence (``layout`` after the play;
    ``scores`` after it, or after the round's end that it caused: the end's payment is then
    told by :func:`round_end_lines`, so the play shows the scores before it)."""
    tr = names.tr
    cfg = names.config
    game = cfg.game
    who = names.seat(seat)
    tile = action.tile
    if action.kind == "lead":
        what = tr("log.lead", who=who, tile=tile)
    else:
        assert action.end is not None
        what = tr("log.play", who=who, tile=tile, end=tr.end(action.end))
    if became_spinner:
        what += tr("log.spinner")
    if game.play_scoring == "none":
        return f"{what} · {tr('log.open_ends', ends=ends_text(layout, tr))}"
    ends = layout.ends_total()
    sentence = play_sentence(tr, cfg, layout, points)
    scored = points > 0
    if end is not None and end.reason == "domino" and end.payment == "bonus":
        bonus = end.points[end.winner] if end.winner is not None else 0
        sentence += tr.plural("log.bonus", bonus, points=tr.points(bonus))
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
        sentence = tr.plural(
            "log.discarded",
            game.play_points[ends],
            sum=_said(layout),
            play=tr.points(game.play_points[ends]),
            target=cfg.target,
        )
    line = f"{what} · {sentence}"
    if scored:
        if end is not None and end.payment != "bonus":
            # the scores after this play; the round's end pays the remaining tiles after it
            scores = [s - p for s, p in zip(scores, end.points)]
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
    if game.no_play == "knock":
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


def round_end_lines(names: Names, account: RoundAccount, round_no: int) -> list[str]:
    """The summary of a round that has ended (``round_no`` 1-based), rendered from its
    :class:`~fives.core.account.RoundAccount`: how it ended, the hands left, the arithmetic."""
    tr = names.tr
    cfg = names.config
    lines: list[str] = []
    if account.reason == "domino":
        who = names.seat(account.went_out) if account.went_out is not None else "?"
        key = "end.domino_partner" if cfg.teams and cfg.game.partners_play_on else "end.domino"
        lines.append(tr(key, n=round_no, who=who))
    elif account.reason == "blocked":
        lines.append(tr("end.blocked", n=round_no))
    else:
        lines.append(tr("end.target", n=round_no, target=cfg.target))
    if account.winner is not None:
        lines.append(tr("end.winner", side=names.side(account.winner)))
    lines.append(tr("end.remaining"))
    for seat, hand in enumerate(account.hands):
        tiles = " ".join(str(t) for t in hand) or tr("end.empty")
        lines.append(
            "  " + tr("end.hand", who=names.seat_long(seat), tiles=tiles,
                      pips=tr.pips(account.pips[seat]))
        )
    if cfg.teams:
        for side, pips in enumerate(account.side_pips):
            lines.append("  " + tr("end.side_pips", side=names.side(side), pips=tr.pips(pips)))
    lines.extend(account_line(names, line) for line in account.lines)
    added = ", ".join(
        f"{names.side(d)} +{fmt_score(account.points[d])}" for d in range(cfg.sides)
    )
    lines.append(tr("end.points", parts=added))
    return lines


def account_line(names: Names, line: Line) -> str:
    """One line of a round's account, with the arithmetic behind it."""
    tr = names.tr
    match line:
        case Lowest(side=side, by=by):
            return tr("pay.fewest_tiles" if by == "tiles" else "pay.fewest", side=names.side(side))
        case Pool(side=side, seats=seats, pips=pips, total=total, points=points):
            parts = " + ".join(f"{names.seat(s)} {p}" for s, p in zip(seats, pips))
            return tr("pay.pool", parts=parts, total=total, got=tr.points(points),
                      side=names.side(side))
        case Each(side=side, seats=seats, pips=pips, rounded=rounded, points=points):
            parts = ", ".join(
                f"{names.seat(s)} {p} → {r}" for s, p, r in zip(seats, pips, rounded)
            )
            return tr("pay.each", parts=parts, got=tr.points(points), side=names.side(side))
        case Plain(side=side, seats=seats, pips=pips, total=total, points=points):
            parts = " + ".join(f"{names.seat(s)} {p}" for s, p in zip(seats, pips))
            return tr("pay.plain", parts=parts, total=total, got=tr.points(points),
                      side=names.side(side))
        case Split(sides=(a, b), low=low, third=third, pips=pips, rounded=rounded, half=half):
            return tr("pay.split", a=names.side(a), b=names.side(b), pips=low,
                      c=names.side(third), third=pips, rounded=rounded, half=tr.points(half))
        case Tie(by=by):
            return tr("pay.tie_tiles" if by == "tiles" else "pay.tie")
        case Bonus(side=side, points=points):
            return tr.plural("pay.bonus", points, points=tr.points(points), side=names.side(side))
        case Discarded(side=side, points=points, target=target):
            return tr("pay.discarded", points=tr.points(points), side=names.side(side),
                      target=target)
        case NoScore():
            return tr("end.no_winner")
        case TargetReached():
            return tr("pay.target")
        case TilesNeverScore():
            return tr("pay.never", game=names.game())
    raise AssertionError(line)


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
        # a record's seat, numbered as the record numbers it (RECORD.md): the line points
        # into the file
        parts.append(t("engine.record.seat", lang, n=exc.seat))
    if exc.action is not None:
        parts.append(repr(exc.action))
    why = reason_text(exc, None, lang)
    text = t("engine.record.where", lang, where=", ".join(parts), why=why) if parts else why
    if exc.legal is not None:
        shown = ", ".join(str(a) for a in exc.legal) or t("engine.record.none", lang)
        text += t("engine.record.legal", lang, actions=shown)
    return text


def os_error_text(exc: OSError, lang: str) -> str:
    """Why a file could not be read or written, in ``lang`` (never the system's English)."""
    name = errno.errorcode.get(exc.errno or 0, "")
    key = f"common.os.{name}"
    if name and key in catalogue(lang):
        return t(key, lang)
    return t("common.os.other", lang, code=name or exc.errno or "?")
