-- Events (issue 30): arenas and duplicate Swiss. The store keeps what was played; pairing and
-- standings are computed again from these rows (fives.contests), never kept a second time.
CREATE TABLE events (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    meta JSONB NOT NULL,
    creator TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    starts DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    listed BOOLEAN NOT NULL,
    owner TEXT,
    lease_until DOUBLE PRECISION,
    ended DOUBLE PRECISION
);
CREATE INDEX events_by_status ON events (status, starts);
CREATE INDEX events_by_creator ON events (creator, created);
CREATE TABLE event_entrants (
    event_id TEXT NOT NULL REFERENCES events (id),
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    joined DOUBLE PRECISION NOT NULL,
    paused BOOLEAN NOT NULL DEFAULT FALSE,
    bot BOOLEAN NOT NULL DEFAULT FALSE,
    browser TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (event_id, player)
);
-- one match per table; a table belongs to one event at most
CREATE TABLE event_games (
    event_id TEXT NOT NULL REFERENCES events (id),
    table_id TEXT NOT NULL UNIQUE,
    round INTEGER NOT NULL,
    players JSONB NOT NULL,
    -- each entrant's seat token until the match ends, so that whichever process serves the
    -- event's page hands it to its player (as the quick queue keeps it in Redis)
    tokens JSONB NOT NULL,
    started DOUBLE PRECISION NOT NULL,
    result JSONB,
    finished DOUBLE PRECISION,
    PRIMARY KEY (event_id, table_id)
);
CREATE INDEX event_games_by_start ON event_games (event_id, started);
