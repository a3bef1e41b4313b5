-- The player store (0100 and up): identities without sign-up, their secrets (SHA-256 only),
-- device links, ratings per game family, and each player's matches (the rating history).
CREATE TABLE players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    tag TEXT NOT NULL,
    kind TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE UNIQUE INDEX players_name_tag ON players (name, tag);
CREATE TABLE player_secrets (
    secret_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    via TEXT NOT NULL
);
CREATE INDEX player_secrets_player ON player_secrets (player_id);
CREATE TABLE device_links (
    link_hash TEXT PRIMARY KEY,
    player_id TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    expires DOUBLE PRECISION NOT NULL
);
CREATE INDEX device_links_player ON device_links (player_id);
CREATE TABLE ratings (
    player_id TEXT NOT NULL,
    game TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    matches INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    updated DOUBLE PRECISION NOT NULL,
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
    ts DOUBLE PRECISION NOT NULL,
    mu DOUBLE PRECISION,
    sigma DOUBLE PRECISION,
    PRIMARY KEY (table_id, player_id)
);
CREATE INDEX player_matches_player ON player_matches (player_id, ts);
-- Bot accounts: an outside program playing on the site, owned by a person (its token is a
-- secret of player_secrets, kept hashed like any other).
CREATE TABLE bot_accounts (
    player_id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE INDEX bot_accounts_owner ON bot_accounts (owner_id);
