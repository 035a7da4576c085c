-- Where a match went when its place stopped taking posts (a thread locked or deleted by a moderator, its
-- channel deleted), and why an admin ended it.
-- moved: why the match left the place it was played in ('locked', 'deleted', 'refused', 'gone'); NULL: never.
-- moved_version: the match version it moved at; the announcement saying so shows that version's board.
-- followups: 1 when nothing in the server takes its posts: it is played through the replies to commands.
ALTER TABLE matches ADD COLUMN moved TEXT CHECK (moved IN ('locked', 'deleted', 'refused', 'gone'));
ALTER TABLE matches ADD COLUMN moved_version BIGINT;
ALTER TABLE matches ADD COLUMN followups BIGINT NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN end_reason TEXT;              -- why an admin ended the match (/tabula end)
