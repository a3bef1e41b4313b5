-- The fencing token of each table's owner: a write with an older token is refused.
ALTER TABLE tables ADD COLUMN fence INTEGER NOT NULL DEFAULT 0;
