-- Puzzles mined from finished matches of people at open tables (issue 28): each kept as the
-- mover's view with its answer and values (fives.puzzles.Puzzle as JSON), served after the
-- shipped set in the order they were found.
CREATE TABLE mined_puzzles (
    id TEXT PRIMARY KEY,
    table_id TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE INDEX mined_puzzles_created ON mined_puzzles (created, id);
