"""Where a match is played when its place stops taking posts: what moderators and Discord do to a thread.

Discord says what happened to a match's thread in two ways: the gateway (THREAD_UPDATE with
``thread_metadata.locked``, THREAD_DELETE, CHANNEL_DELETE for its parent) and the answers to posts (400
code 50083 "thread is archived", 404 code 10003 "unknown channel", 403 in the thread).  Both are facts
about the thread, not passing delivery failures, and lead here:

* **archived, not locked**: the bot unarchives it (a bot may unarchive a thread it can send in) and posts;
* **locked, or refused for good**: the match moves to the parent channel (when no other match is played
  right there: one at a time, as in a channel without threads);
* **deleted**: the match moves to a new thread opened from a new message in the parent channel;
* **the parent channel deleted**, or nothing else takes posts: the match is played through the replies to
  the players' own commands (follow-ups need no channel at all).

Each move is stored with the announcement that says it (:meth:`bot.storage.match_store.Matches.relocate`):
the board, the next player's mention and one line saying why the game moved, posted once at the new place.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.core.computer_seats import computer_level, mentions_for
from bot.core.ports import Languages
from bot.delivery.composer import Composed
from bot.delivery.failures import THREAD_ARCHIVED, UNKNOWN_CHANNEL, Failure, classify
from bot.delivery.ports import NO_MENTIONS, Channels
from bot.delivery.replies import Reply, Result
from bot.storage.match_store import Matches
from bot.storage.records import Announcement, MatchRecord, MatchStatus, Moved, Notice, NoticeKind, ThreadMode
from bot.text import messages
from engines import GAMES

log = logging.getLogger(__name__)


def fact_about(record: MatchRecord, target: int, failure: Failure) -> Moved | None:
    """What a refused post to ``target`` says about the match's place, or ``None`` (a plain refusal).

    50083 here means the thread is archived and could not be unarchived (so it is locked).
    """
    if target != record.place_id or record.followups:
        return None
    if record.thread_id == target:
        if failure.code == THREAD_ARCHIVED:
            return Moved.LOCKED
        if failure.status == 404 and failure.code == UNKNOWN_CHANNEL:
            return Moved.DELETED
        if failure.status == 403:
            return Moved.REFUSED
        return None
    if failure.status == 404 and failure.code == UNKNOWN_CHANNEL:
        return Moved.GONE
    return None


class Places:
    """Unarchive a match's thread, or move the match to a place that takes its posts."""

    def __init__(self, matches: Matches, channels: Channels, languages: Languages, clock: Callable[[], float]) -> None:
        self.matches = matches
        self.channels = channels
        self.languages = languages
        self.clock = clock

    async def unarchive(self, thread_id: int) -> bool:
        """Reopen an archived thread (``PATCH {"archived": false}``); ``False`` when Discord refuses (locked)."""
        http = getattr(self.channels, "http", None)
        if http is None:
            return False
        try:
            await http.edit_channel(thread_id, archived=False)
        except Exception as error:
            failure = classify(error)
            if failure is None:
                raise
            log.info("could not unarchive thread %s: %s", thread_id, failure.text)
            return False
        return True

    async def move(self, match_id: int, why: Moved, away_from: int) -> Announcement | None:
        """Move the match away from ``away_from`` (its place, which will not take posts); return the announcement
        saying where it went, or ``None`` (it is not played there, or it moved already)."""
        record = await self.matches.get(match_id)
        if record is None or record.status not in (MatchStatus.ACTIVE, MatchStatus.FINISHED) or record.followups:
            return None
        if away_from not in (record.place_id, record.channel_id):
            return None
        parent_gone = why == Moved.GONE or away_from == record.channel_id
        if not parent_gone and why == Moved.DELETED:
            starter = await self._starter(record)
            if starter is not None:
                return await self._relocate(record, why, ThreadMode.THREAD, None, starter)
            why = Moved.GONE
        elif not parent_gone and await self._parent_is_free(record):
            return await self._relocate(record, why, ThreadMode.CHANNEL, None, record.message_id)
        return await self._relocate(record, Moved.GONE if parent_gone else why, ThreadMode.CHANNEL, None, None, True)

    async def place_changed(self, place_id: int, *, locked: bool = False, deleted: bool = False) -> list[Announcement]:
        """A thread was locked or deleted, or a channel deleted (the gateway says so): move the running
        matches played there; return the announcements saying where each went.

        An archived thread that is not locked is left alone: it is reopened when its match next posts there.
        """
        moves = []
        for record in await self.matches.matches_in(place_id):
            if record.thread_id == place_id and place_id != record.channel_id:
                why = Moved.DELETED if deleted else Moved.LOCKED if locked else None
            else:
                why = Moved.GONE if deleted else None
            if why is None:
                continue
            announcement = await self.move(record.id, why, place_id)
            if announcement is not None:
                moves.append(announcement)
        return moves

    async def followup_only(self, announcement: Announcement, composed: Composed, reply: Reply | None) -> Result:
        """Nothing in the server takes the match's posts: the reply to the command that acted is the one way."""
        if reply is not None and reply.can_follow_up(self.clock()):
            try:
                await reply.interaction.followup.send(
                    composed.content, file=composed.file(), allowed_mentions=composed.allowed(), view=composed.buttons()
                )
            except Exception as error:
                if classify(error) is None:
                    raise
                log.info("the follow-up for announcement %s failed: %s", announcement.id, error)
            else:
                reply.loading = False
                await self.matches.mark_delivered(announcement.id)
                if composed.says_move:  # the line saying where the game went is said now
                    await self.matches.settle_failed(announcement.match_id)
                return Result.POSTED
        # Nobody's command to answer (the computer's turn, a reminder): `/… board` shows the game anywhere.
        language = await self.languages.language(announcement.guild_id)
        await self.matches.mark_failed(announcement.id, messages.followups_place_text(language), self.clock())
        log.info("announcement %s of match %s has no place to go", announcement.id, announcement.match_id)
        return Result.FAILED

    async def _parent_is_free(self, record: MatchRecord) -> bool:
        """No other match is played right in the parent channel (one at a time there, as without threads)."""
        here = await self.matches.open_matches_at(record.channel_id)
        return not [r for r in here if r.id != record.id and r.thread_mode != ThreadMode.THREAD]

    async def _starter(self, record: MatchRecord) -> int | None:
        """Post the message a match's new thread opens from, in its parent channel; its ID, or ``None``."""
        language = await self.languages.language(record.guild_id)
        channel = self.channels.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        text = messages.new_thread_text(GAMES[record.game].title, language)
        try:
            message = await channel.send(
                text, allowed_mentions=NO_MENTIONS, nonce=f"tabula-moved{record.id}.{record.version}"
            )
        except Exception as error:
            failure = classify(error)
            if failure is None:
                raise
            log.info("no new thread for match %s: %s", record.id, failure.text)
            return None
        return message.id

    async def _relocate(
        self,
        record: MatchRecord,
        why: Moved,
        thread_mode: ThreadMode,
        thread_id: int | None,
        message_id: int | None,
        followups: bool = False,
    ) -> Announcement | None:
        state_players = record.players
        mentions: tuple[int, ...] = ()
        if record.status == MatchStatus.ACTIVE and record.state is not None:
            state = GAMES[record.game].from_json(record.state)
            mentions = mentions_for(state_players, state)
        if thread_mode == ThreadMode.THREAD:  # a new thread: its first post brings every player into it
            humans = tuple(s.user_id for s in state_players if computer_level(s.user_id) is None)
            mentions = tuple(dict.fromkeys((*mentions, *humans)))
        notice = Notice(NoticeKind.TURN, mentions=mentions, detail={"moved": str(why)})
        moved = await self.matches.relocate(
            record,
            str(why),
            notice,
            thread_mode=thread_mode,
            thread_id=thread_id,
            message_id=message_id,
            followups=followups,
            now=self.clock(),
        )
        if moved is not None:
            where = "the replies to commands" if followups else thread_mode
            log.info("match %s moved (%s) from %s to %s", record.id, why, record.place_id, where)
        return moved


def thread_state(data: dict[str, object]) -> tuple[bool, bool]:
    """``(archived, locked)`` from a THREAD_UPDATE payload's ``thread_metadata``."""
    metadata = data.get("thread_metadata")
    if not isinstance(metadata, dict):
        return False, False
    return bool(metadata.get("archived")), bool(metadata.get("locked"))
