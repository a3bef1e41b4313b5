-- Secrets that opened an identity once and no longer do (revoked devices, forgotten players):
-- only their SHA-256, tied to nobody, so that a browser still holding one is never given it
-- back as the secret of a new identity (whoever stole it could then open that one too).
CREATE TABLE spent_secrets (
    secret_hash TEXT PRIMARY KEY,
    spent REAL NOT NULL
);
