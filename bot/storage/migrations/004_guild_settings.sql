-- Per-server settings: one row per server, one column per setting; NULL means "the bot's default".
-- Later settings (turn time, challenge expiry, reminders, threads) arrive as more nullable columns.
CREATE TABLE guild_settings (
    guild_id     INTEGER PRIMARY KEY,
    language     TEXT,              -- the language of the server's public messages; NULL: follow guild_locale
    guild_locale TEXT,              -- the server's Discord locale, as last seen in an interaction ("ru", "en-US")
    updated_at   REAL NOT NULL      -- unix seconds of the last change
);
