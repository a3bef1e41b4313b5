"""One rules model for the five games: a :class:`Game` is a value, a :class:`Config` picks one
game with its player count and house rules.

>>> cfg = Config.make("all-fives", 4)
>>> cfg.teams, cfg.target, cfg.hand_size, cfg.sides
(True, 200, 5, 2)
>>> Config.make("muggins", 3).hand_size
6
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, Literal

from fives.core.errors import InputError
from fives.core.pickling import pickle_by_constructor

__all__ = ["GAMES", "Config", "Game", "RulesError", "find_game"]


class RulesError(InputError):
    """A game, player count or house rule that does not exist or does not fit."""


PlayScoring = Literal["fives", "fives-and-threes", "none"]
Remaining = Literal["pool-rounded", "each-rounded", "plain", "none"]
BlockRule = Literal["lowest-side", "lowest-pips-then-tiles", "none"]
FirstLead = Literal["lot", "highest-double"]
NextLead = Literal["last-tile", "rotate", "highest-double"]
#: what a player with no play and nothing to draw does: pass, or knock (FT-5)
NoPlay = Literal["pass", "knock"]
#: how scores are best shown: AF-13's paper tally, the 61 track of cribbage-style pegs, or plain
ScoreSheet = Literal["tally", "track", "plain"]


#: the tiles of the double-six set, all a deal may hand out
SET_SIZE: Final = 28


def _points_table(kind: PlayScoring) -> tuple[int, ...]:
    """Points of a play indexed by the ends total (0..36): AF-6 and FT-6 as data (a total of
    0 scores 0 by either rule's arithmetic)."""
    table = []
    for total in range(37):
        points = 0
        if kind == "fives" and total % 5 == 0:
            points = total
        elif kind == "fives-and-threes":
            points = (total // 3 if total % 3 == 0 else 0) + (total // 5 if total % 5 == 0 else 0)
        table.append(points)
    return tuple(table)


@dataclass(frozen=True)
class Game:
    """Everything that makes one game of the family what it is (RULES.md)."""

    name: str
    title: str
    hand_sizes: Mapping[int, int]
    targets: Mapping[int, int]
    teams_for_four: bool  # the default for four players
    teams_allowed: bool
    drawing: bool
    spinner: bool
    play_scoring: PlayScoring
    remaining: Remaining  # how the round's winner is paid for the others' tiles
    block_rule: BlockRule  # who wins a blocked round
    split_ties_three: bool  # AF-11: two tied lowest of three share the third's pips
    domino_bonus: int  # FT-7/FT-8: the extra point for going out
    exact_target: bool  # FT-10: events that pass the target are discarded
    partners_play_on: bool  # FT-8: a partner who goes out sits out
    first_lead: FirstLead
    next_lead: NextLead
    no_play: NoPlay = "pass"
    score_sheet: ScoreSheet = "plain"
    play_points: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.partners_play_on and not self.exact_target:
            # the engine plays a partner's going out on (FT-8) where it plays an exact target
            raise ValueError(f"{self.name}: partners play on only with an exact target")
        object.__setattr__(self, "play_points", _points_table(self.play_scoring))

    @property
    def ends_score(self) -> bool:
        """Whether the ends total of a play scores (AF-6, FT-6); in Draw and Block it never does."""
        return self.play_scoring != "none"

    def division(self, total: int) -> str:
        """How a play's points are found from its ends total where they are not the total
        itself (FT-6): ``12 ÷ 3``, ``15 ÷ 3 + 15 ÷ 5``; empty where the total is the points
        (AF-6) or scores nothing. Every interface writes this one step after the sum.

        >>> FIVES_AND_THREES.division(15), FIVES_AND_THREES.division(7), ALL_FIVES.division(10)
        ('15 ÷ 3 + 15 ÷ 5', '', '')
        """
        if self.play_scoring != "fives-and-threes" or total <= 0:
            return ""
        return " + ".join(f"{total} ÷ {d}" for d in (3, 5) if total % d == 0)

    @property
    def loss_marks(self) -> tuple[float, float, float]:
        """The losses (expected points over the round, as the search values actions) from
        which an analysis marks a decision an inaccuracy, a mistake and a blunder: half a
        scoring play, one, two, in this game's points (5 in All Fives and Muggins, 1 to 8 a
        play in Fives and Threes); in Draw and Block, where the round's pips are the points, 2,
        5 and 10 pips.

        >>> ALL_FIVES.loss_marks, FIVES_AND_THREES.loss_marks
        ((2.5, 5.0, 10.0), (1.0, 2.0, 4.0))
        """
        if self.play_scoring == "fives":
            return (2.5, 5.0, 10.0)
        if self.play_scoring == "fives-and-threes":
            return (1.0, 2.0, 4.0)
        return (2.0, 5.0, 10.0)

    def properties(self) -> dict[str, Any]:
        """What an interface needs to know to show this game, without testing its name."""
        return {
            "game": self.name,
            "scoring": self.play_scoring,
            "ends_score": self.ends_score,
            "spinner": self.spinner,
            "drawing": self.drawing,
            "no_play": self.no_play,
            "score_sheet": self.score_sheet,
            "exact_target": self.exact_target,
            "partners_play_on": self.partners_play_on,
        }


ALL_FIVES: Final = Game(
    name="all-fives",
    title="All Fives",
    hand_sizes={2: 9, 3: 7, 4: 5},
    targets={2: 250, 3: 200, 4: 200},
    teams_for_four=True,
    teams_allowed=True,
    drawing=True,
    spinner=True,
    play_scoring="fives",
    remaining="pool-rounded",
    block_rule="lowest-side",
    split_ties_three=True,
    domino_bonus=0,
    exact_target=False,
    partners_play_on=False,
    first_lead="lot",
    next_lead="last-tile",
    no_play="pass",
    score_sheet="tally",
)

FIVES_AND_THREES: Final = Game(
    name="fives-and-threes",
    title="Fives and Threes",
    hand_sizes={2: 7, 3: 5, 4: 5},
    targets={2: 61, 3: 61, 4: 61},
    teams_for_four=True,
    teams_allowed=True,
    drawing=False,
    spinner=False,
    play_scoring="fives-and-threes",
    remaining="none",
    block_rule="none",
    split_ties_three=False,
    domino_bonus=1,
    exact_target=True,
    partners_play_on=True,
    first_lead="lot",
    next_lead="rotate",
    no_play="knock",
    score_sheet="track",
)

MUGGINS: Final = Game(
    name="muggins",
    title="Muggins",
    hand_sizes={2: 7, 3: 6, 4: 5},
    targets={2: 150, 3: 150, 4: 150},
    teams_for_four=False,
    teams_allowed=True,
    drawing=True,
    spinner=True,
    play_scoring="fives",
    remaining="each-rounded",
    block_rule="lowest-pips-then-tiles",
    split_ties_three=False,
    domino_bonus=0,
    exact_target=False,
    partners_play_on=False,
    first_lead="highest-double",
    next_lead="highest-double",
    no_play="pass",
    score_sheet="plain",
)

DRAW_GAME: Final = Game(
    name="draw",
    title="Draw",
    hand_sizes={2: 7, 3: 6, 4: 5},
    targets={2: 100, 3: 100, 4: 100},
    teams_for_four=False,
    teams_allowed=True,
    drawing=True,
    spinner=False,
    play_scoring="none",
    remaining="plain",
    block_rule="lowest-pips-then-tiles",
    split_ties_three=False,
    domino_bonus=0,
    exact_target=False,
    partners_play_on=False,
    first_lead="highest-double",
    next_lead="highest-double",
    no_play="pass",
    score_sheet="plain",
)

BLOCK_GAME: Final = Game(
    name="block",
    title="Block",
    hand_sizes={2: 7, 3: 6, 4: 5},
    targets={2: 100, 3: 100, 4: 100},
    teams_for_four=False,
    teams_allowed=True,
    drawing=False,
    spinner=False,
    play_scoring="none",
    remaining="plain",
    block_rule="lowest-pips-then-tiles",
    split_ties_three=False,
    domino_bonus=0,
    exact_target=False,
    partners_play_on=False,
    first_lead="highest-double",
    next_lead="highest-double",
    no_play="pass",
    score_sheet="plain",
)

GAMES: Final[dict[str, Game]] = {
    g.name: g for g in (ALL_FIVES, FIVES_AND_THREES, MUGGINS, DRAW_GAME, BLOCK_GAME)
}


def find_game(name: str | object) -> Game:
    """The game called ``name``; anything else (a record's JSON may hold anything) is a
    RulesError."""
    game = GAMES.get(name) if isinstance(name, str) else None
    if game is None:
        raise RulesError("unknown_game", name=repr(name), known=", ".join(GAMES))
    return game


#: House rules a record's ``"rules"`` object may carry, with their types.
HOUSE_RULES: Final[dict[str, type]] = {"hand_size": int, "side_arm_gate": bool}


@dataclass(frozen=True)
class Config:
    """A game with its player count, teams, target and house rules: what a match is played by."""

    game: Game
    players: int
    teams: bool
    target: int
    hand_size: int
    side_arm_gate: bool = True  # SP-3: side arms open once both straight arms hold a tile

    @property
    def sides(self) -> int:
        return 2 if self.teams else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat

    @staticmethod
    def make(
        game: str | Game | object,
        players: int | object,
        *,
        teams: bool | object | None = None,
        target: int | object | None = None,
        rules: Mapping[str, Any] | None = None,
    ) -> Config:
        """Validate and complete a configuration; RULES.md's defaults fill what is missing.

        The values may come straight from a record's JSON: anything is accepted and checked
        here (typed ``object`` so that compiled code does not refuse them first).
        """
        g = game if isinstance(game, Game) else find_game(game)
        if isinstance(players, bool) or not isinstance(players, int) or players not in (2, 3, 4):
            raise RulesError("players_count", value=repr(players))
        if teams is None:
            teams = players == 4 and g.teams_for_four
        if not isinstance(teams, bool):
            raise RulesError("teams_bool", value=repr(teams))
        if teams and players != 4:
            raise RulesError("teams_players", players=players)
        if teams and not g.teams_allowed:
            raise RulesError("no_partnerships", game=g.name)
        if target is None:
            target = g.targets[players]
        if isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= 10000:
            raise RulesError("target_range", value=repr(target))
        rules = dict(rules or {})
        for key, value in rules.items():
            if key not in HOUSE_RULES:
                raise RulesError("unknown_house_rule", rule=repr(key), known=", ".join(HOUSE_RULES))
            kind = HOUSE_RULES[key]
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise RulesError(
                    "house_rule_type", rule=repr(key), kind=kind.__name__, value=repr(value)
                )
        hand_size = rules.get("hand_size", g.hand_sizes[players])
        if hand_size < 1 or hand_size * players > SET_SIZE:
            raise RulesError("hand_size_fit", size=hand_size, players=players)
        side_arm_gate = rules.get("side_arm_gate", True)
        return Config(g, players, teams, target, hand_size, side_arm_gate)

    @staticmethod
    def from_header(data: Mapping[str, Any] | object) -> Config:
        """The configuration a header names (``game``, ``players``, and optionally ``teams``,
        ``target``, ``rules``): the one reader of :meth:`header` for records, bots' views and
        the server's tables. Other keys are left to the caller. RulesError says what is
        wrong."""
        if not isinstance(data, Mapping):
            raise RulesError("header_object", kind=type(data).__name__)
        for key in ("game", "players"):
            if key not in data:
                raise RulesError("missing_field", field=key)
        rules = data.get("rules")
        if rules is not None and not isinstance(rules, Mapping):
            raise RulesError("rules_object", value=repr(rules))
        return Config.make(
            data["game"],
            data["players"],
            teams=data.get("teams"),
            target=data.get("target"),
            rules=rules or None,
        )

    def counted_points(self, total: int, side_score: float | Fraction) -> int:
        """What a play making this ends total adds to a side now at ``side_score``: AF-6/FT-6,
        and nothing where Fives and Threes would discard the event for passing the target."""
        points = self.game.play_points[total]
        if points and self.game.exact_target and side_score + points > self.target:
            return 0
        return points

    def header(self) -> dict[str, Any]:
        """The fields a record and a report start with: game, players, teams, target, rules."""
        out: dict[str, Any] = {
            "game": self.game.name,
            "players": self.players,
            "teams": self.teams,
            "target": self.target,
        }
        rules = self.house_rules()
        if rules:
            out["rules"] = rules
        return out

    def house_rules(self) -> dict[str, Any]:
        """The house rules that differ from RULES.md (a record's ``"rules"`` object)."""
        out: dict[str, Any] = {}
        if self.hand_size != self.game.hand_sizes[self.players]:
            out["hand_size"] = self.hand_size
        if not self.side_arm_gate:
            out["side_arm_gate"] = False
        return out

pickle_by_constructor(Game, Config)
