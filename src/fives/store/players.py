"""The player store's values and its part of the :class:`~fives.store.base.Store` interface:
identities without sign-up (only the SHA-256 of a secret is kept), device links, ratings per
game family and every player's matches (a rated one with the rating it left: the history).

Kept in the store, not in a process, so that every process of a cluster sees them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["NameLooksTaken", "NameTaken", "PlayerMatch", "PlayerStore", "Rate", "StoredPlayer", "StoredRating"]


@dataclass
class StoredPlayer:
    id: str
    name: str
    tag: str  # four digits: "Asha" and "Asha" are told apart as Asha#4821 and Asha#0307
    kind: str  # "person", "bot" (one of our levels) or "outside" (an owner's bot account)
    created: float

    @property
    def label(self) -> str:
        return f"{self.name}#{self.tag}"


@dataclass
class StoredRating:
    player_id: str
    game: str
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    updated: float = 0.0


@dataclass
class PlayerMatch:
    """One player's part in one finished match (rated or not)."""

    table_id: str
    player_id: str
    seat: int
    game: str
    players: int
    rated: bool
    private: bool  # at a private table: shown to the player only
    won: bool
    points: int  # the player's (or their side's) final score
    rounds: int
    ts: float
    mu: float | None = None  # the rating after a rated match
    sigma: float | None = None


class NameTaken(RuntimeError):
    """That name and tag belong to another player already."""


class NameLooksTaken(RuntimeError):
    """That name is written differently from another player's but looks the same (the same
    :func:`~fives.store.looks.name_look`): an impersonation, whatever the tag."""


#: the rating step of a rated match: given each player's rating now (None: none yet), the
#: new ones; called inside the store's transaction, so two matches never lose an update
Rate = Callable[[dict[str, StoredRating | None]], dict[str, StoredRating]]


class PlayerStore(ABC):
    """What the server keeps of players (mixed into :class:`~fives.store.base.Store`)."""

    @abstractmethod
    async def create_player(self, player: StoredPlayer, secret_hash: str | None) -> None:
        """A new player and its first secret (none for a bot level); :class:`NameTaken` if
        its name and tag are another's, :class:`NameLooksTaken` if its name looks like
        another's (checked in the same transaction)."""

    @abstractmethod
    async def player(self, player_id: str) -> StoredPlayer | None: ...

    @abstractmethod
    async def player_by_secret(self, secret_hash: str) -> StoredPlayer | None: ...

    @abstractmethod
    async def rename_player(self, player_id: str, name: str, tag: str) -> None:
        """:class:`NameTaken` if that name and tag are another's, :class:`NameLooksTaken` if
        the name looks like another's."""

    @abstractmethod
    async def add_device_link(self, player_id: str, link_hash: str, ts: float,
                              expires: float) -> None: ...

    @abstractmethod
    async def redeem_device_link(self, link_hash: str, secret_hash: str,
                                 ts: float) -> str | None:
        """Spend a link (once, before it expires): the new device's secret opens the link's
        player from now on. The player's id, or None if the link is unknown, spent, revoked or
        expired."""

    @abstractmethod
    async def revoke_devices(self, player_id: str, keep_secret_hash: str) -> int:
        """Revoke every unspent link and every other device's secret (a stolen link or
        device; the secrets are kept as spent); the number of secrets and links revoked."""

    @abstractmethod
    async def forget_player(self, player_id: str, anonymous: str) -> list[str]:
        """Delete the player, their secrets (kept as spent, tied to nobody), links, ratings,
        match rows and bot accounts; their name in the stored tables and records becomes ``anonymous``. The tables changed."""

    @abstractmethod
    async def record_match(self, rows: list[PlayerMatch], rate: Rate | None) -> bool:
        """Store the players' parts in a finished match and, for a rated one, their new ratings
        (``rate``: the step, given the current ones). False if the match was stored already
        (a restart finishing it again changes nothing)."""

    @abstractmethod
    async def ratings_of(self, player_id: str) -> list[StoredRating]: ...

    @abstractmethod
    async def leaderboard(self, game: str, limit: int = 50,
                          kind: str | None = None) -> list[tuple[StoredPlayer, StoredRating]]:
        """The best of a game by rating (mu less three sigma, the conservative estimate)."""

    @abstractmethod
    async def matches_of(self, player_id: str, limit: int = 50) -> list[PlayerMatch]:
        """A player's matches, newest first."""

    @abstractmethod
    async def players_at(self, table_ids: Sequence[str]) -> list[tuple[str, int, StoredPlayer]]:
        """The identified players of these finished matches: (table, seat, player) each."""

    @abstractmethod
    async def create_bot_account(self, bot: StoredPlayer, owner_id: str,
                                 token_hash: str) -> None:
        """A bot account (kind "outside") of ``owner_id``, opened by its token's hash;
        :class:`NameTaken` if its name and tag are another's."""

    @abstractmethod
    async def bot_accounts_of(self, owner_id: str) -> list[StoredPlayer]: ...

    @abstractmethod
    async def new_bot_token(self, bot_id: str, owner_id: str, token_hash: str) -> bool:
        """Replace the bot's token (the old one stops working); False if ``owner_id`` does
        not own that bot."""
