"""The one announcer: it posts what the outbox holds, whatever Discord answers, exactly once.

Every change worth announcing (a game began, a move, a forfeit, a claim, the
computer's move, a challenge closed, a reminder that a turn is nearly up) is written to the outbox in the transaction
that saved it (:mod:`bot.match_store`).  :meth:`Announcer.deliver` then posts it
and marks it delivered.  Human and computer moves go through the same code.

Where a board goes:

* **The interaction's loading message**, when the action was deferred: the first
  follow-up after a deferral completes the "Tabula is thinking…" message, and it
  needs no permission in the channel.  If its outcome is unknown (a timeout or a
  5xx after the request may have landed), reading the original response tells
  whether it landed, so it is never posted twice.
* **A channel message** otherwise, and for every retry: channel messages carry a
  nonce with ``enforce_nonce``, so Discord keeps one message however often a
  retry with an unknown outcome is repeated.  A webhook follow-up takes no nonce,
  which is why retries do not use one.
* **A follow-up after all** when the channel refuses for good (no permission) and
  the interaction's token (15 minutes) is still alive: it carries the board and
  says what a server admin must fix.

Threads: a match challenged in a text channel is played in a public thread opened
from its challenge message when its first board is delivered (:meth:`Announcer.open_thread`):
the thread's ID is saved the moment Discord answers, a retry after an unseen success
adopts the thread Discord already made (its ID is the message's), and a refusal for
good plays the match in the channel, saying why once.  Boards go to the match's
thread whatever channel the command came from; a finished match's result is also
posted in the channel (one line and the final board), and the sweeper archives the
thread an hour later (:meth:`Announcer.archive_threads`, from a column, so it
survives a restart).

Failures: 429 (with or without ``Via``) waits for ``Retry-After``; 5xx and
timeouts back off exponentially; both retry until Discord takes the post, and a
restart resumes what was pending (:meth:`Announcer.resume`).  A permanent refusal
(403 missing permission or access, 404 unknown channel) ends retrying for that
announcement: it is marked failed with the reason, the player who acted is told
what to fix, and ``/… board`` shows the game and the reason at any time.

Interaction tokens are kept in memory only, never stored or logged: they are
bearer secrets, and after a restart they would be of little use anyway (they
expire 15 minutes after the interaction), so a restart delivers as channel messages.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

import discord

from bot import messages
from bot.computer_seats import computer_level
from bot.formatting import MESSAGE_LIMIT
from bot.match_store import (
    Announcement,
    LogEntry,
    Matches,
    MatchRecord,
    MatchStatus,
    NoticeKind,
    TurnKind,
)
from bot.ratings import Change
from bot.replays import board_alt
from bot.service import Turn
from bot.shared import BOARD_FILE, NO_MENTIONS, English, Languages, Renderer
from bot.views import rematch_view
from engines import GAMES, GameState
from i18n.catalog import gettext

log = logging.getLogger(__name__)

TOKEN_SECONDS = 14 * 60  # an interaction token lives 15 minutes; keep a margin
FIRST_DELAY = 2.0
MAX_DELAY = 300.0
LOADING = 128  # the message flag of a deferred response still "thinking"
UNKNOWN_MESSAGE = 10008  # Discord's code for a message that no longer exists
THREAD_EXISTS = 160004  # Discord's code for "a thread has already been created for this message"
THREAD_NAME_LIMIT = 100  # Discord's limit on a channel's (and a thread's) name
THREAD_ARCHIVE_MINUTES = 10080  # a match's thread stays open through a week without messages


class Result(StrEnum):
    """What became of an announcement when :meth:`Announcer.deliver` returned."""

    POSTED = "posted"
    DELAYED = "delayed"  # saved in the outbox; being retried
    FAILED = "failed"  # Discord will not take it; the reason is stored


class Boards(Protocol):
    """Where states come from: the match service."""

    def state_of(self, record: MatchRecord) -> GameState: ...

    async def replay(self, record: MatchRecord, upto: int | None = None) -> GameState: ...


class RatingChanges(Protocol):
    async def changes(self, record: MatchRecord) -> list[Change]: ...


class Channels(Protocol):
    """What the client offers to reach a channel by its ID (``discord.Client`` has it)."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...


class Reply:
    """The interaction an announcement answers, while its token is alive (kept in memory only)."""

    def __init__(self, interaction: discord.Interaction, now: float) -> None:
        self.interaction = interaction
        self.arrived = now
        self.loading = False  # a deferred "thinking" message waits for the board
        self.broken = False  # Discord refused this interaction (or it was never acknowledged): use the channel
        self.no_followup = False  # Discord refused a follow-up for good
        self.message_id: int | None = None  # the deferred response's message, once Discord made it

    def alive(self, now: float) -> bool:
        return not self.broken and now - self.arrived < TOKEN_SECONDS


@dataclass(frozen=True, slots=True)
class Composed:
    """An announcement made ready to post."""

    content: str
    mentions: tuple[int, ...]
    png: bytes | None
    edit_message_id: int | None = None  # for a closed challenge: the message to edit
    alt: str | None = None  # the board's description for screen readers
    channel_id: int | None = None  # where it goes when not the announcement's channel (the match's thread)
    view: discord.ui.View | None = None  # buttons under the post (a finished game's Rematch)

    def buttons(self) -> Any:
        return self.view if self.view is not None else discord.utils.MISSING

    def allowed(self) -> discord.AllowedMentions:
        return discord.AllowedMentions(
            users=[discord.Object(i) for i in self.mentions], roles=False, everyone=False, replied_user=False
        )

    def file(self) -> Any:
        return (
            discord.File(io.BytesIO(self.png), filename=BOARD_FILE, description=self.alt)
            if self.png is not None
            else discord.utils.MISSING
        )


# The saved match, its state and the turn, as the code that saved them holds them.
Known = tuple[MatchRecord, GameState | None, Turn | None]


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed post, classified."""

    transient: bool  # worth retrying
    unknown: bool  # the request may have landed
    retry_after: float | None
    status: int
    code: int
    text: str


def classify(error: BaseException) -> Failure | None:
    """Sort an error from a post into transient or permanent; ``None`` if it is not a delivery error."""
    if isinstance(error, discord.RateLimited):
        return Failure(True, False, error.retry_after, 429, 0, f"rate limited for {error.retry_after:.1f} s")
    if isinstance(error, discord.HTTPException):
        status, code = error.status, error.code
        if status == 429:
            return Failure(True, False, retry_after(error), 429, code, "rate limited (429)")
        if status >= 500:
            return Failure(True, True, None, status, code, f"Discord server error {status}")
        return Failure(False, False, None, status, code, f"HTTP {status} code {code}: {error.text}"[:200])
    if isinstance(error, TimeoutError | OSError):
        return Failure(True, True, None, 0, 0, f"no answer from Discord ({type(error).__name__})")
    try:
        import aiohttp
    except ImportError:  # pragma: no cover - discord.py depends on aiohttp
        return None
    if isinstance(error, aiohttp.ClientError):
        return Failure(True, True, None, 0, 0, f"connection trouble ({type(error).__name__})")
    return None


def retry_after(error: discord.HTTPException) -> float | None:
    """The seconds a 429 asks to wait: its ``Retry-After`` header (Cloudflare's 429s carry no JSON body)."""
    headers = getattr(error.response, "headers", None) or {}
    raw = headers.get("Retry-After") or headers.get("retry-after")
    try:
        return max(0.0, float(raw)) if raw is not None else None
    except (TypeError, ValueError):
        return None


def backoff(attempt: int) -> float:
    """Seconds to wait before retry number ``attempt`` (1, 2, …): 2, 4, 8 … up to five minutes."""
    return min(MAX_DELAY, FIRST_DELAY * 2 ** max(0, attempt - 1))


class Announcer:
    """Compose, post and retry the outbox's announcements."""

    def __init__(
        self,
        matches: Matches,
        boards: Boards,
        renderer: Renderer,
        ratings: RatingChanges,
        channels: Channels,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        languages: Languages | None = None,
    ) -> None:
        self.matches = matches
        self.languages: Languages = languages or English()
        self.boards = boards
        self.renderer = renderer
        self.ratings = ratings
        self.channels = channels
        self.clock = clock
        self.sleep = sleep
        self._retrying: dict[int, asyncio.Task[None]] = {}
        self._thread_notes: dict[int, str] = {}  # match -> why its thread was refused, said with its first board
        self._posting: set[int] = set()  # announcements being posted right now, outside a retry task

    def reply(self, interaction: discord.Interaction) -> Reply:
        """Wrap the interaction that asked, noting when it arrived (its token's age)."""
        return Reply(interaction, self.clock())

    async def acknowledge(self, reply: Reply) -> None:
        """Defer the interaction with a "thinking" message; if Discord refuses, the board goes to the channel."""
        try:
            response = await reply.interaction.response.defer(thinking=True)
        except Exception as error:
            if classify(error) is None:
                raise
            log.info("could not defer interaction %s: %s", reply.interaction.id, error)
            reply.broken = True
            return
        reply.loading = True
        reply.message_id = getattr(response, "message_id", None)

    # -- delivering ----------------------------------------------------------------

    async def deliver(
        self,
        announcements: Sequence[Announcement],
        reply: Reply | None = None,
        *,
        state: GameState | None = None,
        turn: Turn | None = None,
        record: MatchRecord | None = None,
    ) -> Result:
        """Post ``announcements`` in order; return the worst result (the mover is told if it is not posted).

        ``state``, ``turn`` and ``record`` are what the caller already holds (the saved match), sparing reads.
        """
        worst = Result.POSTED
        if record is None and turn is not None:
            record = turn.record
        for announcement in announcements:
            known = (record, state, turn) if record is not None and record.version == announcement.version else None
            try:
                result = await self._deliver_one(announcement, reply, known)
            except Exception:
                # A fault of ours, not Discord's: the announcement stays in the outbox for the sweeper to
                # post, and the player who acted hears the truth (saved), never "try again".
                log.exception("delivering announcement %s failed; the sweeper will retry it", announcement.id)
                if reply is not None:
                    await self._note(reply, announcement, Result.DELAYED)
                result = Result.DELAYED
            if result == Result.FAILED or (result == Result.DELAYED and worst == Result.POSTED):
                worst = result
        return worst

    async def _deliver_one(self, announcement: Announcement, reply: Reply | None, known: Known | None) -> Result:
        self._posting.add(announcement.id)
        try:
            return await self._first_try(announcement, reply, known)
        finally:
            self._posting.discard(announcement.id)

    async def _first_try(self, announcement: Announcement, reply: Reply | None, known: Known | None) -> Result:
        if announcement.kind == NoticeKind.START:
            failure = await self.open_thread(announcement.match_id)
            if failure is not None:  # Discord is busy: the match waits (saved) and the thread is made later
                delay = failure.retry_after if failure.retry_after is not None else backoff(1)
                await self.matches.reschedule(announcement.id, failure.text, self.clock() + delay)
                self._spawn(announcement, None, reply, delay, attempt=1)
                return Result.DELAYED
        composed = await self._compose(announcement, known)
        if composed is None:
            await self.matches.mark_delivered(announcement.id)
            return Result.POSTED
        if announcement.kind == NoticeKind.CLOSE:
            return await self._close(announcement, composed, reply)
        if (
            reply is not None
            and composed.channel_id is not None
            and composed.channel_id != reply.interaction.channel_id
        ):
            # The match is played in its thread, the command came from elsewhere: the board goes to the
            # thread, and the one who asked is told where it is.
            result = await self._post_or_retry(announcement, composed, None, check_original=False)
            await self._note(reply, announcement, result, where=composed.channel_id)
            return result
        if reply is not None and reply.loading and reply.alive(self.clock()):
            try:
                await reply.interaction.followup.send(
                    composed.content, file=composed.file(), allowed_mentions=composed.allowed(), view=composed.buttons()
                )
            except Exception as error:
                failure = classify(error)
                if failure is None:
                    raise
                log.info("follow-up for announcement %s failed: %s", announcement.id, failure.text)
                landed = await self._landed(reply) if failure.unknown else False
                if landed:
                    reply.loading = False
                    await self.matches.mark_delivered(announcement.id)
                    return Result.POSTED
                if not failure.transient:
                    reply.no_followup = True
                if landed is None:  # Discord can't say yet: the retry asks again before posting anything
                    return await self._post_or_retry(announcement, composed, reply, check_original=True)
                result = await self._post_or_retry(announcement, composed, reply, check_original=False)
                await self._note(reply, announcement, result)
                return result
            reply.loading = False
            await self.matches.mark_delivered(announcement.id)
            return Result.POSTED
        return await self._post_or_retry(announcement, composed, reply, check_original=False)

    async def _post_or_retry(
        self, announcement: Announcement, composed: Composed, reply: Reply | None, *, check_original: bool
    ) -> Result:
        """Post in the channel now; on a transient failure keep retrying in the background."""
        if not check_original:
            failure = await self._channel_post(announcement, composed)
            if failure is None:
                return Result.POSTED
            if not failure.transient:
                return await self._give_up(announcement, composed, reply, failure)
            delay = failure.retry_after if failure.retry_after is not None else backoff(1)
            await self.matches.reschedule(announcement.id, failure.text, self.clock() + delay)
        else:
            delay = backoff(1)
        self._spawn(announcement, composed, reply, delay, attempt=1, check_original=check_original)
        return Result.DELAYED

    def _spawn(
        self,
        announcement: Announcement,
        composed: Composed | None,
        reply: Reply | None,
        delay: float,
        *,
        attempt: int,
        check_original: bool = False,
    ) -> None:
        running = self._retrying.get(announcement.id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(
            self._retry(announcement, composed, reply, delay, attempt, check_original),
            name=f"tabula-delivery-{announcement.id}",
        )
        self._retrying[announcement.id] = task
        task.add_done_callback(lambda done: self._forget(announcement.id, done))

    def _forget(self, announcement_id: int, task: asyncio.Task[None]) -> None:
        if self._retrying.get(announcement_id) is task:
            del self._retrying[announcement_id]
        if not task.cancelled() and task.exception() is not None:
            log.error("delivering announcement %s failed", announcement_id, exc_info=task.exception())

    async def _retry(
        self,
        announcement: Announcement,
        composed: Composed | None,
        reply: Reply | None,
        delay: float,
        attempt: int,
        check_original: bool,
    ) -> None:
        while True:
            await self.sleep(delay)
            fresh = await self.matches.announcement(announcement.id)
            if fresh is None or fresh.status != "pending":
                return
            if check_original and reply is not None:
                landed = await self._landed(reply)
                if landed:
                    await self.matches.mark_delivered(announcement.id)
                    return
                if landed is False:
                    check_original = False
                    await self._note(reply, announcement, Result.DELAYED)
                else:
                    attempt += 1
                    delay = backoff(attempt)
                    continue
            if composed is None and announcement.kind == NoticeKind.START:
                opening = await self.open_thread(announcement.match_id)
                if opening is not None:
                    attempt += 1
                    delay = opening.retry_after if opening.retry_after is not None else backoff(attempt)
                    await self.matches.reschedule(announcement.id, opening.text, self.clock() + delay)
                    continue
            if composed is None:
                composed = await self._compose(announcement, None)
                if composed is None:
                    await self.matches.mark_delivered(announcement.id)
                    return
            if announcement.kind == NoticeKind.CLOSE:
                failure = await self._edit(announcement, composed)
            else:
                failure = await self._channel_post(announcement, composed)
            if failure is None:
                return
            if not failure.transient:
                await self._give_up(announcement, composed, reply, failure)
                return
            attempt += 1
            delay = failure.retry_after if failure.retry_after is not None else backoff(attempt)
            await self.matches.reschedule(announcement.id, failure.text, self.clock() + delay)

    async def _channel_post(self, announcement: Announcement, composed: Composed) -> Failure | None:
        """Post in the channel with the announcement's nonce; ``None`` when it was posted (and marked so)."""
        where = composed.channel_id or announcement.channel_id
        channel = self.channels.get_partial_messageable(where, guild_id=announcement.guild_id)
        try:
            await channel.send(
                composed.content,
                file=composed.file(),
                allowed_mentions=composed.allowed(),
                nonce=announcement.nonce,
                view=composed.buttons(),
            )
        except Exception as error:
            failure = classify(error)
            if failure is None:
                raise
            log.info("posting announcement %s failed: %s", announcement.id, failure.text)
            return failure
        await self.matches.mark_delivered(announcement.id)
        return None

    async def _edit(self, announcement: Announcement, composed: Composed) -> Failure | None:
        """Edit a challenge message (idempotent); ``None`` when done (and marked so)."""
        if composed.edit_message_id is None:
            await self.matches.mark_delivered(announcement.id)
            return None
        channel = self.channels.get_partial_messageable(announcement.channel_id, guild_id=announcement.guild_id)
        try:
            await channel.get_partial_message(composed.edit_message_id).edit(
                content=composed.content, view=None, allowed_mentions=NO_MENTIONS
            )
        except Exception as error:
            failure = classify(error)
            if failure is None:
                raise
            if failure.status == 404 and failure.code == UNKNOWN_MESSAGE:
                await self.matches.mark_delivered(announcement.id)  # the message is gone: nothing left to close
                return None
            log.info("closing challenge message for announcement %s failed: %s", announcement.id, failure.text)
            return failure
        await self.matches.mark_delivered(announcement.id)
        return None

    async def _close(self, announcement: Announcement, composed: Composed, reply: Reply | None) -> Result:
        """Close a challenge message: through the pressed button's response if possible, else by editing it."""
        interaction = reply.interaction if reply is not None else None
        if (
            interaction is not None
            and interaction.type == discord.InteractionType.component
            and not interaction.response.is_done()
            and not reply.broken  # type: ignore[union-attr]
        ):
            try:
                await interaction.response.edit_message(
                    content=composed.content, view=None, allowed_mentions=NO_MENTIONS
                )
            except Exception as error:
                if classify(error) is None:
                    raise
                log.info("closing challenge %s through the interaction failed: %s", announcement.match_id, error)
                reply.broken = True  # type: ignore[union-attr]
            else:
                await self.matches.mark_delivered(announcement.id)
                return Result.POSTED
        failure = await self._edit(announcement, composed)
        if failure is None:
            return Result.POSTED
        if not failure.transient:
            await self.matches.mark_failed(announcement.id, failure.text, self.clock())
            return Result.FAILED
        delay = failure.retry_after if failure.retry_after is not None else backoff(1)
        await self.matches.reschedule(announcement.id, failure.text, self.clock() + delay)
        self._spawn(announcement, composed, None, delay, attempt=1)
        return Result.DELAYED

    async def _give_up(
        self, announcement: Announcement, composed: Composed, reply: Reply | None, failure: Failure
    ) -> Result:
        """Discord will never take this post in the channel: try the interaction once, else record why."""
        language = await self.languages.language(announcement.guild_id)
        problem = messages.why_refused(failure.status, failure.code, board=composed.png is not None, language=language)
        trouble = messages.trouble_text(composed.channel_id or announcement.channel_id, problem, language)
        if reply is not None and not reply.broken and not reply.no_followup and reply.alive(self.clock()):
            # Follow-ups need no permission in the channel: the board reaches the players after all.
            try:
                await reply.interaction.followup.send(
                    f"{composed.content}\n{trouble}"[:MESSAGE_LIMIT],
                    file=composed.file(),
                    allowed_mentions=composed.allowed(),
                    view=composed.buttons(),
                )
            except Exception as error:
                if classify(error) is None:
                    raise
                log.info("the fallback follow-up for announcement %s failed: %s", announcement.id, error)
            else:
                reply.loading = False
                await self.matches.mark_delivered(announcement.id)
                return Result.POSTED
        log.warning("announcement %s of match %s given up: %s", announcement.id, announcement.match_id, failure.text)
        await self.matches.mark_failed(announcement.id, problem, self.clock())
        return Result.FAILED

    async def _landed(self, reply: Reply) -> bool | None:
        """Did the follow-up complete the loading message?  ``None`` when Discord can't say right now."""
        try:
            original = await reply.interaction.original_response()
        except Exception as error:
            if classify(error) is None:
                raise
            return None
        return not original.flags.value & LOADING

    async def _note(
        self, reply: Reply, announcement: Announcement, result: Result, *, where: int | None = None
    ) -> None:
        """Replace the "thinking" message with the truth: saved, and the board follows (or why it can't).

        ``where``: the board went to that channel (the match's thread), not the one the command came from.
        """
        if not reply.loading or not reply.alive(self.clock()):
            return
        entry = await self._entry(announcement, None)
        language = await self.languages.language(announcement.guild_id)
        what = messages.saved_what(entry if announcement.kind == NoticeKind.TURN else None, language)
        if result == Result.POSTED and where is not None and announcement.kind == NoticeKind.START:
            text = messages.started_there_text(where, language)
        elif result == Result.POSTED and where is not None:
            text = messages.saved_there_text(what, where, language)
        elif result == Result.POSTED:
            text = messages.saved_text(what, language)
        elif result == Result.FAILED:
            fresh = await self.matches.announcement(announcement.id)
            trouble = messages.trouble_text(announcement.channel_id, (fresh and fresh.error) or "", language)
            text = messages.saved_but_text(what, trouble, language)
        else:
            text = messages.delayed_text(what, language)
        try:
            await reply.interaction.edit_original_response(content=text, allowed_mentions=NO_MENTIONS)
        except Exception as error:
            if classify(error) is None:
                raise
            log.info("could not tell interaction %s that its board is late: %s", reply.interaction.id, error)
            return
        reply.loading = False

    # -- composing ------------------------------------------------------------------

    async def _entry(self, announcement: Announcement, turn: Turn | None) -> LogEntry | None:
        if turn is not None:
            return LogEntry(announcement.seq, TurnKind(turn.kind), turn.seat, 0, turn.text, 0.0)
        if announcement.seq <= 0:
            return None
        entries = await self.matches.log(announcement.match_id, announcement.seq)
        return entries[-1] if entries else None

    async def _compose(self, announcement: Announcement, known: Known | None) -> Composed | None:
        """Build the text, pings and board of an announcement from the stored match (``None``: nothing to post).

        ``known`` is the saved match, its state and turn when the caller holds them (the version announced).
        """
        found, state, turn = known if known is not None else (None, None, None)
        record = found if found is not None else await self.matches.get(announcement.match_id)
        if record is not None and record.wants_thread and announcement.kind != NoticeKind.CLOSE:
            # Its thread may have been opened (or refused) since the caller read it: where to post is fresh.
            fresh = await self.matches.get(announcement.match_id)
            if fresh is not None:
                record = dataclasses.replace(record, thread_mode=fresh.thread_mode, thread_id=fresh.thread_id)
        if record is None:
            return None
        if announcement.detail.get("where") == "parent":
            language = await self.languages.language(record.guild_id)
            return await self._compose_parent(announcement, record, language=language)
        # Public posts speak the server's language, as set when they are posted (not when saved).
        language = await self.languages.language(record.guild_id)
        if announcement.kind == NoticeKind.CLOSE:
            if record.message_id is None:
                return None
            detail = announcement.detail
            return Composed(
                messages.closed_text(record, str(detail.get("how", "")), str(detail.get("by", "")), language),
                (),
                None,
                record.message_id,
            )
        current = record.version == announcement.version
        if announcement.kind == NoticeKind.REMIND:
            # A reminder is about one turn: once that turn is over (a move, a claim), there is nothing to say.
            if not current or record.status != MatchStatus.ACTIVE or not announcement.mentions:
                return None
            return Composed(
                messages.reminder_text(record, announcement.mentions[0], language),
                announcement.mentions,
                None,
                channel_id=record.place_id if record.place_id != announcement.channel_id else None,
            )
        if state is None or not current:
            state = self.boards.state_of(record) if current else await self.boards.replay(record, announcement.seq)
        mentions = announcement.mentions if current else ()
        if announcement.kind == NoticeKind.START:
            content = messages.start_text(record, state, language)
            if record.thread_id is not None:
                # The first post in the match's own thread names every player: it brings them all into it.
                people = tuple(seat.user_id for seat in record.players if computer_level(seat.user_id) is None)
                content = formatting_mentions(people) + "\n" + content
                mentions = tuple(dict.fromkeys((*mentions, *people)))
            note = self._thread_notes.pop(record.id, None)
            if note is not None:
                content += "\n" + note
        else:
            entry = await self._entry(announcement, turn)
            if entry is None:
                return None
            extra = await self._extras(record, language) if state.outcome() is not None else []
            content = messages.turn_text(record, state, entry, extra, language)
        # An old board (the game moved on while it waited) is history: it pings nobody.
        png = await self._board(announcement, record, state, language)
        # A finished game's result carries the Rematch button (restart-proof: see bot.views).
        view = rematch_view(record.id, language) if state.outcome() is not None and current else None
        return Composed(
            content,
            mentions,
            png,
            alt=board_alt(record, state, language) if png is not None else None,
            channel_id=record.place_id if record.place_id != announcement.channel_id else None,
            view=view,
        )

    async def _board(
        self, announcement: Announcement, record: MatchRecord, state: GameState, language: str
    ) -> bytes | None:
        """The announcement's board image, or ``None`` (none asked for, or rendering failed: the text still goes)."""
        if not announcement.board:
            return None
        try:
            return await self.renderer.png(state, [seat.name for seat in record.players], language)
        except Exception:
            log.exception("rendering %s match %s failed", record.game, record.id)
            return None

    async def _compose_parent(
        self, announcement: Announcement, record: MatchRecord, *, language: str
    ) -> Composed | None:
        """The one-line result, with the final board, for the channel a match's thread came from."""
        if record.thread_id is None:
            return None  # the match was played in the channel itself: its result is there already
        state = self.boards.state_of(record) if record.version == announcement.version else None
        if state is None:
            state = await self.boards.replay(record, announcement.seq)
        content = messages.parent_result_text(record, state, language)
        png = await self._board(announcement, record, state, language)
        alt = board_alt(record, state, language) if png is not None else None
        return Composed(content, (), png, alt=alt, channel_id=record.channel_id)

    # -- threads ----------------------------------------------------------------------

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
                name=thread_name(record),
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
            self._thread_notes[record.id] = messages.thread_refused_text(status, code, language)

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

    async def _extras(self, record: MatchRecord, language: str) -> list[str]:
        changes = await self.ratings.changes(record)
        if changes:
            listed = " · ".join(change.text(language) for change in changes)
            return [gettext(language, "Ratings: {changes}", changes=listed)]
        return [] if record.rated else [gettext(language, "This game was not rated.")]

    # -- after a restart, and on every sweep ------------------------------------------

    async def resume(self, *, everything: bool = False) -> int:
        """Post the pending announcements whose time has come (``everything`` pending after a restart).

        Each gets one try now, in order; what fails for a while goes on in the background.
        """
        due = await self.matches.pending_announcements(None if everything else self.clock())
        count = 0
        for announcement in due:
            busy = self._retrying.get(announcement.id)
            if announcement.id in self._posting or (busy is not None and not busy.done()):
                continue
            await self._deliver_one(announcement, None, None)
            count += 1
        return count

    async def explain(self, record: MatchRecord) -> list[str]:
        """Why earlier boards of ``record`` never reached the channel (shown with ``/… board``)."""
        failed = await self.matches.failed_announcements(record.id)
        return [a.error for a in failed if a.error and a.kind != NoticeKind.CLOSE]

    async def settle_failed(self, record: MatchRecord) -> None:
        """A fresh board reached the players: the failed announcements before it need no repair."""
        await self.matches.settle_failed(record.id)

    def close(self) -> None:
        """Stop retrying (what is pending stays in the outbox for the next start)."""
        for task in list(self._retrying.values()):
            task.cancel()


def formatting_mentions(user_ids: Sequence[int]) -> str:
    """Mention each of ``user_ids``: ``<@1> <@2>``."""
    return " ".join(f"<@{user_id}>" for user_id in user_ids)


def thread_name(record: MatchRecord) -> str:
    """Name a match's thread: ``Pond · Ana vs Bo``, within Discord's 100 characters.

    Names are shown as typed (a thread's name is not Markdown), with line breaks and control
    characters removed; long names are shortened evenly, each ending in an ellipsis.
    """
    title = GAMES[record.game].title
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


def closed_how(status: MatchStatus) -> str:
    """The word for how a challenge that is no longer open ended."""
    return {
        MatchStatus.ACTIVE: "accepted",
        MatchStatus.FINISHED: "accepted",
        MatchStatus.DECLINED: "declined",
        MatchStatus.EXPIRED: "expired",
        MatchStatus.CANCELLED: "cancelled",
    }.get(status, str(status))
