-- Tables (one per match), their deals (rounds) and accepted actions. JSON is kept as jsonb
-- (a row can never hold damaged JSON); times are Unix seconds.
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    created DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL,
    meta JSONB NOT NULL,
    record JSONB,
    finished DOUBLE PRECISION
);
CREATE TABLE rounds (
    table_id TEXT NOT NULL REFERENCES tables (id),
    round_no INTEGER NOT NULL,
    leader INTEGER NOT NULL,
    hands JSONB NOT NULL,
    stock JSONB NOT NULL,
    ts DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, round_no)
);
CREATE TABLE actions (
    table_id TEXT NOT NULL REFERENCES tables (id),
    seq INTEGER NOT NULL,
    round_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    how TEXT NOT NULL,
    ts DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, seq)
);
CREATE INDEX tables_status ON tables (status, finished);
