"""A match's thread: opened from its challenge message once the game begins, archived an hour after it ends.

The thread's ID is saved the moment Discord answers, a retry after an unseen success adopts the thread
Discord already made (its ID is the message's), and a refusal for good plays the match in the channel,
saying why once (with the match's first board: :meth:`Threads.take_note`).  The sweeper archives a
finished match's thread an hour later (:meth:`Threads.archive_threads`, from a column, so it survives
a restart).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from bot.delivery.failures import UNKNOWN_MESSAGE, Failure, backoff, classify
from bot.shared import Channels, Languages
from bot.storage.match_store import Matches
from bot.storage.records import MatchRecord, MatchStatus
from bot.text import messages
from engines import GAMES

log = logging.getLogger(__name__)

THREAD_EXISTS = 160004  # Discord's code for "a thread has already been created for this message"
THREAD_NAME_LIMIT = 100  # Discord's limit on a channel's (and a thread's) name
THREAD_ARCHIVE_MINUTES = 10080  # a match's thread stays open through a week without messages


class Threads:
    """Open, adopt and archive the matches' threads, and remember why one was refused until it is said."""

    def __init__(
        self, matches: Matches, channels: Channels, languages: Languages, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.matches = matches
        self.channels = channels
        self.languages = languages
        self.clock = clock
        self._notes: dict[int, str] = {}  # match -> why its thread was refused, said with its first board
        # An event game's thread is named after its event and round: match ID -> "Spring Pond · R2".
        self.titles: Callable[[int], Awaitable[str | None]] | None = None

    def take_note(self, match_id: int) -> str | None:
        """Why the match's thread was refused, once (its first board says it), or ``None``."""
        return self._notes.pop(match_id, None)

    async def open_thread(self, match_id: int) -> Failure | None:
        """Open the match's thread from its challenge message, if it wants one and has none yet.

        The thread's ID is recorded the moment Discord answers.  If an earlier try landed unseen (a
        timeout, a crash), Discord says the message has a thread already: a thread started from a
        message has the message's ID, so that one is adopted, never a second made.  A refusal for good
        (no permission, the message gone) plays the match in the channel instead, saying why once.
        Returns the failure when Discord is busy and the caller should try again later.
        """
        record = await self.matches.get(match_id)
        if record is None or not record.wants_thread or record.status == MatchStatus.CHALLENGE:
            return None
        http = getattr(self.channels, "http", None)
        if record.message_id is None or http is None:
            await self._refuse_thread(record, 404, UNKNOWN_MESSAGE)
            return None
        try:
            data = await http.start_thread_with_message(
                record.channel_id,
                record.message_id,
                name=thread_name(record, await self.titles(record.id) if self.titles else None),
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
            thread_id = int(data["id"])
        except Exception as error:
            failure = classify(error)
            if failure is None:
                raise
            if failure.code == THREAD_EXISTS:
                thread_id = record.message_id
            elif failure.transient:
                log.info("opening the thread of match %s failed: %s", record.id, failure.text)
                return failure
            else:
                log.info("no thread for match %s: %s", record.id, failure.text)
                await self._refuse_thread(record, failure.status, failure.code)
                return None
        await self.matches.set_thread(record.id, thread_id)
        return None

    async def _refuse_thread(self, record: MatchRecord, status: int, code: int) -> None:
        await self.matches.play_in_channel(record.id)
        if await self.matches.note_once(record.channel_id, "thread-refused", self.clock()):
            language = await self.languages.language(record.guild_id)
            self._notes[record.id] = messages.thread_refused_text(status, code, language)

    async def archive_threads(self) -> int:
        """Archive the threads of matches finished an hour ago (the sweeper calls this); return how many."""
        http = getattr(self.channels, "http", None)
        done = 0
        for record in await self.matches.threads_to_archive(self.clock()):
            if record.thread_id is None or http is None:
                await self.matches.archived(record.id)
                continue
            try:
                await http.edit_channel(record.thread_id, archived=True)
            except Exception as error:
                failure = classify(error)
                if failure is None:
                    raise
                if failure.transient:
                    delay = failure.retry_after if failure.retry_after is not None else backoff(2)
                    await self.matches.archived(record.id, retry_at=self.clock() + delay)
                    continue
                log.info("could not archive the thread of match %s: %s", record.id, failure.text)
            await self.matches.archived(record.id)
            done += 1
        return done


def thread_name(record: MatchRecord, title: str | None = None) -> str:
    """Name a match's thread: ``Pond · Ana vs Bo`` (an event's game: ``Spring Pond · R2 · Ana vs Bo``), within
    Discord's 100 characters.

    Names are shown as typed (a thread's name is not Markdown), with line breaks and control
    characters removed; long names are shortened evenly, each ending in an ellipsis.
    """
    title = title or GAMES[record.game].title
    names = [
        " ".join("".join(c if c.isprintable() else " " for c in seat.name).split()) or "?" for seat in record.players
    ]
    head = f"{title} · "
    joiner = " vs "

    def build(parts: Sequence[str]) -> str:
        return head + joiner.join(parts)

    if len(build(names)) <= THREAD_NAME_LIMIT:
        return build(names)
    room = (THREAD_NAME_LIMIT - len(head) - len(joiner) * (len(names) - 1)) // len(names)
    short = [name if len(name) <= room else name[: max(1, room - 1)] + "…" for name in names]
    return build(short)[:THREAD_NAME_LIMIT]
