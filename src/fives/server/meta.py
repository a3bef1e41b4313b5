"""A table's metadata as a typed value: its configuration (read from the record header it is
stored with, by :meth:`Config.from_header`), its seats and who holds them, its clock, privacy
and links. Stored as JSON beside the table's deals and actions; never sent out as it is (the
seed, the invite, seat tokens and addresses are the server's)."""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from fives.core.games import Config

if TYPE_CHECKING:
    from fives.server.conn import Conn

__all__ = ["Seat", "TableMeta"]


#: timeouts in a row that hand a seat to a bot
AWAY_AFTER = 3


@dataclass
class Seat:
    """A seat: who holds it (stored) and how they are there now (not stored)."""

    kind: str  # "human" or "bot"
    level: str | None = None  # the bot's level
    name: str | None = None  # a person's display name
    token_hash: str | None = None  # the holder's secret token, hashed
    addr: str | None = None  # the address that took the seat (seat caps; never sent out)
    player: str | None = None  # the identity of the person holding it (fives.server.identity)
    browser: str | None = None  # the hash of their browser's cookie (never sent out)
    hints: bool = False  # its holder lets every person here ask for hints (issue 28)
    conns: set[Conn] = field(default_factory=set)
    timeouts: int = 0  # timeouts in a row
    away: bool = False  # a bot plays for the absent player
    #: monotonic time the last connection of the seat's holder went away (None: here)
    left_at: float | None = None

    @property
    def claimed(self) -> bool:
        return self.kind == "bot" or self.token_hash is not None

    @property
    def held_by_person(self) -> bool:
        return self.kind == "human" and self.token_hash is not None

    def timed_out(self) -> None:
        """The clock ran out on the seat's holder once more: the third time in a row, a bot
        keeps the seat until they come back (live, and again when a table is restored)."""
        self.timeouts += 1
        if self.timeouts >= AWAY_AFTER:
            self.away = True

    def release(self) -> None:
        """Free the seat for someone else (its holder was gone too long)."""
        self.name = self.token_hash = self.addr = self.player = self.browser = None
        self.hints = False
        self.left_at = None
        self.timeouts = 0
        self.away = False

    def record_name(self) -> str:
        if self.kind == "bot":
            return self.level or "easy"
        return self.name or "player"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "level": self.level, "name": self.name,
                "token": self.token_hash, "addr": self.addr, "player": self.player,
                "browser": self.browser, "hints": self.hints}

    @staticmethod
    def from_json(data: Any) -> Seat:
        if not isinstance(data, dict) or data.get("kind") not in ("human", "bot"):
            raise ValueError(f"a seat is an object with a kind, not {data!r}")
        return Seat(data["kind"], data.get("level"), data.get("name"), data.get("token"),
                    data.get("addr"), data.get("player"), data.get("browser"),
                    bool(data.get("hints")))


def hash_token(token: str) -> str:
    """What the store keeps of a seat's token (the token itself is never stored)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass
class TableMeta:
    config: Config
    seats: list[Seat]
    seed: int  # the deals' and bots' secret (RECORD.md's deals say whose)
    deals: str = "server-random"  # or "fixed-seed" (a test's), "unknown" (older tables)
    turn_time: float = 0.0
    host: int | None = None  # the seat that may start early with bots
    private: bool = False  # reached by its invite, never listed
    invite: str | None = None
    by: str = "?"  # the address that made it (quotas, lobby)
    rematch: str | None = None  # the next match at this table
    rematch_of: str | None = None
    #: rated (only between identified players, each having agreed) or casual
    rated: bool = False
    #: why a match asked for rated is played casual (decided once its seats are all taken:
    #: ``fives.server.rated``), e.g. "same_address"; None: it counts as asked
    casual: str | None = None
    #: the event (arena or Swiss) this match is played in, if any: its result counts there,
    #: and its players go back to the event rather than to a rematch
    event: str | None = None

    @property
    def counts(self) -> bool:
        """Whether the match moves ratings."""
        return self.rated and self.casual is None

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens, if any."""
        digest = hash_token(token)
        return next((i for i, seat in enumerate(self.seats)
                     if seat.token_hash and hmac.compare_digest(seat.token_hash, digest)), None)

    @property
    def hints_open(self) -> bool:
        """Whether a seated person may ask for a hint: never in a rated match; in a casual
        one where they are the only person (the others bots), or where every person seated
        has turned hints on (friends who agree to it)."""
        if self.rated:
            return False
        people = [s for s in self.seats if s.held_by_person]
        return len(people) <= 1 or all(s.hints for s in people)

    @property
    def bot_only(self) -> bool:
        return all(seat.kind == "bot" for seat in self.seats)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.config.header(),
            "seed": self.seed,
            "deals": self.deals,
            "turn_time": self.turn_time,
            "seats": [seat.to_json() for seat in self.seats],
            "host": self.host,
            "private": self.private,
            "invite": self.invite,
            "by": self.by,
            "rematch": self.rematch,
            "rematch_of": self.rematch_of,
            "rated": self.rated,
            "casual": self.casual,
            "event": self.event,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> TableMeta:
        """Read back what :meth:`to_json` stored (older tables lack the newer fields).
        ValueError (RulesError included) if it cannot be a table."""
        config = Config.from_header(data)
        seats = [Seat.from_json(s) for s in data.get("seats") or []]
        if len(seats) != config.players:
            raise ValueError(f"{config.players} players need {config.players} seats")
        host = data.get("host")
        if host is not None and not (isinstance(host, int) and 0 <= host < config.players):
            raise ValueError(f"the host must be a seat, not {host!r}")
        return TableMeta(
            config=config,
            seats=seats,
            seed=int(data["seed"]),
            deals=str(data.get("deals", "unknown")),
            turn_time=float(data.get("turn_time") or 0),
            host=host,
            private=bool(data.get("private")),
            invite=data.get("invite"),
            by=str(data.get("by") or "?"),
            rematch=data.get("rematch"),
            rematch_of=data.get("rematch_of"),
            rated=bool(data.get("rated")),
            casual=str(data["casual"]) if data.get("casual") else None,
            event=str(data["event"]) if data.get("event") else None,
        )
