"""Our bots on OpenSpiel's own ``python_block_dominoes`` (their rules, their state).

Their game: two players, seven tiles each, the other fourteen out of play; player 0 leads any
tile; a player who cannot play is skipped (no pass action); the round ends when a hand is empty
or nobody can play, and the player with fewer pips wins the other's pips (equal pips: 0).

The adapter reads only what the seat may know from their state (its hand, the hand sizes and
the public ``actions_history``), writes it as our :class:`~fives.core.view.View` of a game with
their rules (:data:`OPENSPIEL_BLOCK`: our Block with the lead free for player 0, as many points
as their scoring pays), with a ``pass`` wherever they skipped a seat, asks our bot, and maps its
choice back to their action id.

>>> import pyspiel
>>> from open_spiel.python.games import block_dominoes  # registers python_block_dominoes
>>> game = pyspiel.load_game("python_block_dominoes")
>>> state = game.new_initial_state()
>>> for tile in range(14):
...     state.apply_action(tile)
>>> bot = BlockDominoesBot("easy", 0, seed=1)
>>> state.action_to_string(bot.step(state))
'p0 tile:(0.0, 6.0) pip:None'
"""

from __future__ import annotations

import random
from typing import Any, Final

import pyspiel
from open_spiel.python.games import block_dominoes as _bd

from fives.bots import Bot, make_bot
from fives.core.games import Config, Game
from fives.core.layout import Layout
from fives.core.tiles import ACTIONS, PASS, SUIT_MASK, Action, Tile, mask_of, tiles_of_mask
from fives.core.view import HistoryItem, View

__all__ = ["OPENSPIEL_BLOCK", "BlockDominoesBot", "their_action", "view_of_block_dominoes"]

#: OpenSpiel's block dominoes in our rules model (one round; the target is never reached)
OPENSPIEL_BLOCK: Final = Game(
    name="block",
    title="OpenSpiel block dominoes",
    hand_sizes={2: 7},
    targets={2: 10000},
    teams_for_four=False,
    teams_allowed=False,
    drawing=False,
    spinner=False,
    play_scoring="none",
    remaining="plain",
    block_rule="lowest-pips-then-tiles",  # theirs: lowest pips, a tie pays nothing
    split_ties_three=False,
    domino_bonus=0,
    exact_target=False,
    partners_play_on=False,
    first_lead="lot",  # their player 0 leads whatever it likes
    next_lead="rotate",
)
CONFIG: Final = Config.make(OPENSPIEL_BLOCK, 2, target=10000)

_ACTION_INDEX: Final = {text: i for i, text in enumerate(_bd._ACTIONS_STR)}


def _tile(pair: tuple[float, float]) -> Tile:
    return Tile(int(pair[0]), int(pair[1]))


def view_of_block_dominoes(state: Any, player: int) -> View:
    """Our view of ``player`` in their state (at the player's turn)."""
    lay = Layout(spinner_rules=False)
    history: list[HistoryItem] = []
    last = None
    for act in state.actions_history:
        if last is not None and act.player == last:
            history.append(HistoryItem(1 - act.player, PASS))  # they skipped the other seat
        tile = _tile(act.tile)
        if act.edge is None:
            action = Action.lead(tile)
            total = lay.place(tile.id, 0)
        else:
            end = next(e for e, v in lay.ends if v == int(act.edge))
            action = Action.play(tile, end)
            total = lay.place(tile.id, end)
        history.append(HistoryItem(act.player, action, total, 0))
        last = act.player
    if last == player:
        history.append(HistoryItem(1 - player, PASS))
    hand = sorted(_tile(t) for t in state.hands[player])
    return View(
        config=CONFIG,
        seat=player,
        round=0,
        leader=0,
        hand=tuple(hand),
        hand_sizes=(len(state.hands[0]), len(state.hands[1])),
        stock=0,
        scores=(0, 0),
        history=tuple(history),
        layout=lay,
        turn=player,
        legal=tuple(_legal(lay, mask_of(hand))),
        end=None,
        over=False,
        winner=None,
        out=(False, False),
    )


def _legal(lay: Layout, hand: int) -> list[Action]:
    if lay.count == 0:
        return [Action.lead(t) for t in tiles_of_mask(hand)]
    codes = []
    for end, value in lay.ends:
        for t in tiles_of_mask(hand & SUIT_MASK[value]):
            codes.append(t.id * 4 + end)
    return [ACTIONS[c] for c in sorted(codes)] or [PASS]


def their_action(view: View, action: Action, player: int) -> int:
    """Their action id for our action in ``view``."""
    tile = action.tile
    if tile is None:
        raise ValueError(f"{action} has no counterpart in python_block_dominoes")
    if action.end is None:  # a lead
        edge = None
    else:
        edge = float(dict(view.layout.ends)[action.end])
    theirs = _bd.Action(player, (float(tile.low), float(tile.high)), edge)
    return _ACTION_INDEX[str(theirs)]


class BlockDominoesBot(pyspiel.Bot):
    """One of our bots playing a seat of ``python_block_dominoes`` through the adapter."""

    def __init__(self, bot: str | Bot, player_id: int, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = make_bot(bot) if isinstance(bot, str) else bot
        self.player_id = player_id
        self.rng = random.Random(seed)

    def restart_at(self, state: Any) -> None:
        pass

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        pass

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        view = view_of_block_dominoes(state, self.player_id)
        choice = self.bot.choose(view, self.rng)
        action = their_action(view, choice, self.player_id)
        if action not in legal:
            raise RuntimeError(f"the adapter mapped {choice} to {action}, not legal here: {legal}")
        return action
