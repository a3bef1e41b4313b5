-- What each player's name looks like (its Unicode skeleton, fives.store.looks), so that a name
-- that looks like another player's ("Аѕһа" in Cyrillic for "Asha") is refused. The rows from
-- before this migration are filled in by the store as it starts (the skeleton is Python's).
ALTER TABLE players ADD COLUMN look TEXT;
CREATE INDEX players_look ON players (look);
