"""What a rated match is (issue 39): a real match between different people, as far as the site
can tell. ``docs/players.md`` states the rule and its reasons; in short:

- **A real match.** Rated tables play the game's standard target with a turn clock; a rated
  table asked for with a shorter target or no clock is refused at creation (a farmed match of
  target 1 took seconds).
- **Different people.** A rated match whose people (or online bots) sit at one address, or in
  one browser, is played casual: two browser profiles of one person share an address. A
  family or strangers behind one carrier address (CGNAT) still play, unrated, and the table
  says so from its first moment; the rated queue never pairs two tickets of one address.
- **Not the same two, again and again.** The same two identities move each other's ratings
  at most :data:`SAME_PAIR_PER_DAY` times in 24 hours; further matches are played casual.
- **Not one's own bot.** A rated challenge of one's own online bot is refused.

The reason a match asked for rated is played casual is decided once, when its seats are all
taken, kept in the table's meta (so a restart or a takeover keeps it), and shown on the table.
"""

from __future__ import annotations

import itertools
import time

from fives.core.games import Config
from fives.server.messages import ClientError
from fives.server.meta import TableMeta
from fives.store.base import Store

__all__ = ["RATED_TURN_TIME", "SAME_PAIR_PER_DAY", "casual_reason", "check_rated_spec", "same_pair_reason"]

#: rated matches the same two identities may play each other in 24 hours (lichess counts
#: repeated results between two accounts as a boosting sign; three a day lets friends play an
#: evening's rematches rated and caps what two accounts of one person can trade)
SAME_PAIR_PER_DAY = 3
DAY = 86400.0
#: a rated table's turn clock when none is asked for on a site whose tables have none
RATED_TURN_TIME = 15.0
#: the rated matches of each identity read back to count the same pair's (a day's worth: more
#: than this in 24 hours is far beyond the per-pair cap anyway)
_LOOKBACK = 200


def check_rated_spec(cfg: Config, turn_time: float) -> None:
    """A rated table plays the standard target with a turn clock: else a :class:`ClientError`
    naming what to change."""
    standard = cfg.game.targets[cfg.players]
    if cfg.target < standard:
        raise ClientError("rated_target", {"n": standard})
    if turn_time <= 0:
        raise ClientError("rated_clock")


def casual_reason(meta: TableMeta) -> str | None:
    """Why the rated match of a table whose seats are all taken is played casual, as far as
    its seats tell: two identified seats from one address, or one browser."""
    who = [s for s in meta.seats if s.player and not s.player.startswith("bot-")]
    addrs = [s.addr for s in who if s.addr and s.addr != "?"]
    if len(set(addrs)) < len(addrs):
        return "same_address"
    browsers = [s.browser for s in who if s.browser]
    if len(set(browsers)) < len(browsers):
        return "same_browser"
    return None


async def same_pair_reason(store: Store, meta: TableMeta, now: float | None = None) -> str | None:
    """``"same_pair"`` when two of the table's identities have already moved each other's
    ratings :data:`SAME_PAIR_PER_DAY` times in the last 24 hours."""
    since = (time.time() if now is None else now) - DAY
    ids = sorted({s.player for s in meta.seats if s.player and not s.player.startswith("bot-")})
    if len(ids) < 2:
        return None
    tables: dict[str, set[str]] = {}
    for player_id in ids:
        rows = await store.matches_of(player_id, _LOOKBACK)
        tables[player_id] = {r.table_id for r in rows if r.rated and r.ts >= since}
    for a, b in itertools.combinations(ids, 2):
        if len(tables[a] & tables[b]) >= SAME_PAIR_PER_DAY:
            return "same_pair"
    return None
