-- The role whose members may run events (/tournament create, start, cancel, remove) as Manage Server members
-- can; NULL: Manage Server only.  Chosen with /tabula organiser.
ALTER TABLE guild_settings ADD COLUMN organiser_role INTEGER;
