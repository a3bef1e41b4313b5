-- The analyses of finished matches' seats (issue 28): asked for once, computed once by whichever
-- process claims them (a lease, so a process that dies mid-way hands the work on), kept.
CREATE TABLE analyses (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    status TEXT NOT NULL,
    requester TEXT NOT NULL,
    requested REAL NOT NULL,
    owner TEXT,
    lease_until REAL,
    attempts INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    done REAL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX analyses_waiting ON analyses (status, requested);
CREATE INDEX analyses_requester ON analyses (requester, status);
