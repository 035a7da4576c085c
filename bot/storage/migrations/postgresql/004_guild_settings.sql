-- PostgreSQL version of ../004_guild_settings.sql.
CREATE TABLE guild_settings (
    guild_id     BIGINT PRIMARY KEY,
    language     TEXT,              -- the language of the server's public messages; NULL: follow guild_locale
    guild_locale TEXT,              -- the server's Discord locale, as last seen in an interaction ("ru", "en-US")
    updated_at   DOUBLE PRECISION NOT NULL -- unix seconds of the last change
);
