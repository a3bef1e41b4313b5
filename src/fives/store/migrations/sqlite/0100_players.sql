-- The player store (0100 and up): identities without sign-up, their secrets (SHA-256 only),
-- device links, ratings per game family, and each player's matches (the rating history).
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    tag TEXT NOT NULL,
    kind TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE UNIQUE INDEX players_name_tag ON players (name, tag);
CREATE TABLE player_secrets (
    secret_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    created REAL NOT NULL,
    via TEXT NOT NULL
);
CREATE INDEX player_secrets_player ON player_secrets (player_id);
CREATE TABLE device_links (
    link_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX device_links_player ON device_links (player_id);
CREATE TABLE ratings (
    player_id TEXT NOT NULL,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    matches INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    updated REAL NOT NULL,
    PRIMARY KEY (player_id, game)
);
CREATE INDEX ratings_board ON ratings (game, mu);
CREATE TABLE player_matches (
    table_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    rated INTEGER NOT NULL,
    private INTEGER NOT NULL,
    won INTEGER NOT NULL,
    points INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    ts REAL NOT NULL,
    mu REAL,
    sigma REAL,
    PRIMARY KEY (table_id, player_id)
);
CREATE INDEX player_matches_player ON player_matches (player_id, ts);
-- Bot accounts: an outside program playing on the site, owned by a person (its token is a
-- secret of player_secrets, kept hashed like any other).
CREATE TABLE bot_accounts (
    player_id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX bot_accounts_owner ON bot_accounts (owner_id);
