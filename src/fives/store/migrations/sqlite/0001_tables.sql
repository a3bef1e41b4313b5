-- Tables (one per match), their deals (rounds) and accepted actions. IF NOT EXISTS: a
-- database made before migrations were recorded already has them.
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    status TEXT NOT NULL,
    meta TEXT NOT NULL,
    record TEXT,
    finished REAL
);
CREATE TABLE IF NOT EXISTS rounds (
    table_id TEXT NOT NULL,
    round_no INTEGER NOT NULL,
    leader INTEGER NOT NULL,
    hands TEXT NOT NULL,
    stock TEXT NOT NULL,
    ts REAL NOT NULL,
    PRIMARY KEY (table_id, round_no)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    how TEXT NOT NULL,
    ts REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX IF NOT EXISTS tables_status ON tables (status, finished);
