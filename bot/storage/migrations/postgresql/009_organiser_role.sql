-- PostgreSQL version of ../009_organiser_role.sql.
ALTER TABLE guild_settings ADD COLUMN organiser_role BIGINT;  -- the role that may run events; NULL: Manage Server only
