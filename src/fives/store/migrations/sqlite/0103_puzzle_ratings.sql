-- Puzzle ratings (issue 28): a player's (kind 'player') and a puzzle's own (kind 'puzzle'),
-- with the player's streak, and each player's first try at each puzzle (only that one is rated).
CREATE TABLE puzzle_ratings (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0,
    streak INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    updated REAL NOT NULL,
    PRIMARY KEY (kind, id)
);
CREATE TABLE puzzle_tries (
    player_id TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    correct INTEGER NOT NULL,
    ts REAL NOT NULL,
    PRIMARY KEY (player_id, puzzle_id)
);
