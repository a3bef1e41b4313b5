"""Server settings: the defaults of ``fives serve`` (tests and the benchmark change them).

Every limit in force is here, with its default; docs/server-limits.md lists them with what
each one answers.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

__all__ = ["Settings"]


@dataclass
class Settings:
    #: the store: a SQLite file (a path or sqlite:///path) or postgresql://... (a cluster)
    db: str = "fives.sqlite3"
    #: Redis between the processes of a cluster (redis://host:port/db); empty: one process
    redis: str = ""
    #: a cluster process is believed alive this long after it last renewed its lease; a dead
    #: owner's tables are taken over after at most this long (and a janitor round)
    lease: float = 3.0

    # -- the pace of play ----------------------------------------------------------------
    #: the turn clock offered by default when a table is created (seconds; 0 = off)
    turn_time: float = 15.0
    #: the shortest turn clock a table may ask for (tests lower it)
    min_turn_time: float = 3.0
    #: a bot's "natural" thinking time, on average (seconds; 0 = instant)
    bot_delay: float = 1.0
    #: the pause before a forced draw or pass is made for a player (so it can be seen)
    forced_delay: float = 0.6
    #: with a clock running, the longest wait for players to continue after a round
    round_pause: float = 30.0
    #: without a turn clock, the longest a connected player may keep a turn (or the table
    #: between rounds) before a bot plays for them; for a player who left, ``absent_turn``
    idle_turn: float = 300.0
    absent_turn: float = 30.0

    # -- bots ----------------------------------------------------------------------------
    #: processes the heavier bot levels think in, shared fairly by the tables (default: one
    #: per core); 0: every level thinks inline (tests)
    bot_workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    #: a heavier bot's decision not back in this many seconds (waiting for a worker included)
    #: is made by the medium bot instead
    bot_deadline: float = 5.0

    # -- analyses ------------------------------------------------------------------------
    #: processes that compute analyses of finished matches, at a lower priority than the
    #: tables' bots (0: a thread, for tests); the bot whose values they use (fixed counts)
    analysis_workers: int = 1
    analysis_bot: str = "hard"
    #: how long a process holds an analysis it claimed before another may take it over
    analysis_lease: float = 600.0
    #: analyses waiting in all (beyond that, asking is refused until the queue drains)
    max_analyses_waiting: int = 200
    #: mine puzzles from finished matches of people at open tables (their seats analysed
    #: when the queue is short, behind what people ask for)
    mine_puzzles: bool = True

    # -- tables --------------------------------------------------------------------------
    #: live tables in all, created by one address, and bots-only ones (whose target is at
    #: most the game's usual one)
    max_tables: int = 2000
    tables_per_address: int = 10
    max_bot_tables: int = 50
    bot_tables_per_address: int = 2
    #: tables one address may create per minute (bursts up to create_burst); 0: no limit
    create_rate: float = 30.0
    create_burst: int = 30
    #: new identities, device links and their uses per address and minute (bursts up to
    #: identity_burst)
    identity_rate: float = 6.0
    identity_burst: int = 10
    #: connections of bot programs (``/ws/bot``) per address and minute, bursts up to
    #: bot_login_burst: every try costs a store look-up, a wrong token included
    bot_login_rate: float = 30.0
    bot_login_burst: int = 30
    #: joins of the pairing queue per address and minute (bursts up to pairing_burst)
    pairing_rate: float = 20.0
    pairing_burst: int = 20
    #: seconds in the pairing queue before bots are offered for the remaining seats
    bot_offer: float = 20.0
    #: seconds a bot online may take to answer (then it is disconnected, easy takes its seat)
    bot_move_time: float = 10.0
    #: a table waiting for players expires after waiting_ttl seconds with nobody there; a
    #: bots' match nobody watches is stopped after unwatched_ttl (a match of people, bots
    #: playing for all of them, pauses then until someone comes back)
    waiting_ttl: float = 1800.0
    unwatched_ttl: float = 600.0
    #: how long a finished table stays in memory without anyone connected (seconds)
    finished_ttl: float = 600.0
    #: how often expired and forgotten tables are looked for (seconds)
    sweep_every: float = 30.0
    #: how often each process moves the events on and pairs the arenas it holds (seconds;
    #: sooner when someone joins or a match of an event ends)
    event_every: float = 2.0
    #: how long a process that pairs an event holds it without renewing (then another may;
    #: fives serve makes it three of the processes' leases: an event moves as tables do)
    event_lease: float = 9.0
    #: the site's own arenas on a schedule (a JSON file: fives.contests.schedule); empty: none
    events_file: str = ""
    #: a finished match's deals and actions are archived (their rows dropped: its record
    #: keeps them all) this long after it ended (seconds); 0: never
    archive_after: float = 30 * 86400.0
    #: open tables one address may show in the lobby at once
    lobby_per_address: int = 3

    # -- seats and watchers --------------------------------------------------------------
    #: seats one address may hold at once over all tables, and at one open (listed) table
    seats_per_address: int = 8
    open_seats_per_address: int = 1
    #: a table still waiting for players frees a seat whose holder left this long ago
    seat_release: float = 120.0
    #: people watching one table at most
    max_spectators: int = 200
    #: comings and goings at a table are told to the others at most this often (seconds)
    presence_delay: float = 0.25

    # -- messages ------------------------------------------------------------------------
    #: per connection: messages per second, and the burst allowed
    rate: float = 8.0
    burst: int = 25
    #: per client address over all its WebSockets: connections opened per minute, and
    #: messages per second (bursts up to address_burst); 0: no limit
    connects_per_minute: float = 60.0
    address_rate: float = 30.0
    address_burst: int = 120
    #: the largest client message accepted (bytes)
    max_message: int = 2048
    #: messages waiting for one connection at most; a reader that falls that far behind is
    #: closed (4008) and, if the close does not get through in close_grace seconds, cut off
    outbox: int = 1000
    close_grace: float = 2.0

    # -- connections and requests --------------------------------------------------------
    #: open connections in all (never more than the descriptor limit allows) and per address
    max_connections: int = 4096
    connections_per_address: int = 64
    #: requests: the largest body, request head (line and headers) and header count, how long
    #: a head or each part of a body may take, and how long an idle keep-alive connection stays
    max_body: int = 8192
    max_head: int = 16384
    max_headers: int = 64
    head_timeout: float = 10.0
    body_timeout: float = 10.0
    keep_alive: int = 5
    #: a WebSocket must say hello within this many seconds; pings every ``ws_ping`` seconds
    #: (a peer that does not answer one in as long is gone)
    hello_timeout: float = 10.0
    ws_ping: float = 20.0

    # -- who is believed -----------------------------------------------------------------
    #: addresses of reverse proxies whose X-Forwarded-For / -Proto headers are believed
    #: (comma-separated; empty: none, every client is its TCP peer)
    trusted_proxies: str = ""
    #: origins (scheme://host[:port], comma-separated) besides the server's own whose pages
    #: may post to it and open its WebSockets (a proxy that changes the Host header)
    allowed_origins: str = ""
    #: development and tests only: accept a client's ``seed`` for the deals and the bots, so
    #: a test can predict every hand. Off, every table's randomness comes from ``secrets``.
    dev_seeds: bool = False

    @property
    def origins(self) -> frozenset[str]:
        """Origins other than the server's own whose pages may use it."""
        return frozenset(a.strip() for a in self.allowed_origins.split(",") if a.strip())

    @property
    def proxies(self) -> frozenset[str]:
        """The trusted proxies' addresses."""
        return frozenset(a.strip() for a in self.trusted_proxies.split(",") if a.strip())
