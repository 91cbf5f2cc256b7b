-- The key of the players' export ids: a player without a stored export id
-- (export_pseudonyms, made by exports before this) is exported under the keyed hash
-- of their id (HMAC-SHA256), so that an export reads the database without writing
-- to it and still gives each player one id in every export. Only someone holding the
-- database (and so the key) can link an export id to a player.
CREATE TABLE export_key (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    key TEXT NOT NULL
);
INSERT INTO export_key (id, key) VALUES (1, lower(hex(randomblob(32))));
