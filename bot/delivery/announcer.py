"""The one announcer: it posts what the outbox holds, whatever Discord answers, exactly once.

Every change worth announcing (a game began, a move, a forfeit, a claim, the
computer's move, a challenge closed, a reminder that a turn is nearly up) is written to the outbox in the transaction
that saved it (:mod:`bot.storage.match_store`).  :meth:`Announcer.deliver` then posts it
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
from its challenge message when its first board is delivered (:mod:`bot.delivery.threads`).
Boards go to the match's thread whatever channel the command came from; a finished
match's result is also posted in the channel (one line and the final board).  What a
post says and shows is composed from the stored match when it is posted
(:mod:`bot.delivery.composer`); Discord's answers are sorted by :mod:`bot.delivery.failures`.

Failures: 429 (with or without ``Via``) waits for ``Retry-After``; 5xx and
timeouts back off exponentially; both retry until Discord takes the post, and a
restart resumes what was pending (:meth:`Announcer.resume`).  A permanent refusal
(403 missing permission or access, 404 unknown channel) ends retrying for that
announcement: it is marked failed with the reason, the player who acted is told
what to fix, and ``/… board`` shows the game and the reason at any time.

What a moderator or Discord does to a match's place (its thread archived, locked or deleted, its channel
deleted) is a fact about the place, not a failed post: the thread is reopened, or the match moves and says
where (:mod:`bot.delivery.places`).  Interaction tokens live in memory only (:mod:`bot.delivery.replies`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence

import discord

from bot.core.ports import English, Languages
from bot.core.service import Turn
from bot.delivery.challenges import ChallengeMessages
from bot.delivery.composer import Boards, BoardView, Composed, Composer, Known, RatingChanges, ResultView
from bot.delivery.failures import THREAD_ARCHIVED, Failure, backoff, classify
from bot.delivery.places import Places, fact_about
from bot.delivery.ports import NO_MENTIONS, Channels, Renderer
from bot.delivery.replies import Reply, Result, loading_done, worse
from bot.delivery.threads import Threads
from bot.logs import log_context
from bot.storage.match_store import Matches
from bot.storage.records import Announcement, MatchRecord, NoticeKind
from bot.text import messages
from bot.text.formatting import MESSAGE_LIMIT
from engines import GameState

log = logging.getLogger(__name__)


class Announcer:
    """Post and retry the outbox's announcements (composed by :attr:`composer`, threads by :attr:`threads`)."""

    def __init__(
        self,
        matches: Matches,
        boards: Boards,
        renderer: Renderer,
        ratings: RatingChanges,
        channels: Channels,
        *,
        result_view: ResultView,
        board_view: BoardView | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        languages: Languages | None = None,
        thread_titles: Callable[[int], Awaitable[str | None]] | None = None,
    ) -> None:
        self.matches = matches
        self.languages: Languages = languages or English()
        self.channels = channels
        self.clock = clock
        self.sleep = sleep
        self.threads = Threads(matches, channels, self.languages, clock=clock, titles=thread_titles)
        self.composer = Composer(
            matches, boards, renderer, ratings, self.languages, self.threads, result_view, board_view
        )
        self.places = Places(matches, channels, self.languages, clock)
        self.challenges = ChallengeMessages(matches, channels)
        self._retrying: dict[int, asyncio.Task[None]] = {}
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
            with log_context(match_id=announcement.match_id, guild_id=announcement.guild_id):  # for JSON logs
                return await self._first_try(announcement, reply, known)
        finally:
            self._posting.discard(announcement.id)

    async def _first_try(self, announcement: Announcement, reply: Reply | None, known: Known | None) -> Result:
        if opens_thread(announcement):
            failure = await self.threads.open_thread(announcement.match_id)
            if failure is not None:  # Discord is busy: the match waits (saved) and the thread is made later
                delay = failure.retry_after if failure.retry_after is not None else backoff(1)
                await self.matches.reschedule(announcement.id, failure.text, self.clock() + delay)
                self._spawn(announcement, None, reply, delay, attempt=1)
                return Result.DELAYED
        composed = await self.composer.compose(announcement, known)
        if composed is None:
            await self.matches.mark_delivered(announcement.id)
            return Result.POSTED
        if announcement.kind == NoticeKind.CLOSE:
            return await self._close(announcement, composed, reply)
        if composed.followups:
            return await self.places.followup_only(announcement, composed, reply)
        if (
            reply is not None
            and composed.channel_id is not None
            and composed.channel_id != reply.interaction.channel_id
        ):
            # The match is played in its thread, the command came from elsewhere: the board goes to the
            # thread, and the one who asked is told where it is (or gets the board, if the thread refuses it).
            # (The result line for the channel a thread came from is a courtesy: it never takes the reply.)
            fallback = None if "where" in announcement.detail else reply
            result = await self._post_or_retry(announcement, composed, fallback, check_original=False)
            now = await self.matches.get(announcement.match_id)
            where = composed.channel_id if now is None or now.followups else now.place_id
            await self._note(reply, announcement, result, where=where)
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
                landed = await loading_done(reply) if failure.unknown else False
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
            if reply is not None and not check_original and not reply.alive(self.clock()):
                reply = None  # its token has expired: let the interaction go (a long outage keeps no memory)
            fresh = await self.matches.announcement(announcement.id)
            if fresh is None or fresh.status != "pending":
                return
            if check_original and reply is not None:
                landed = await loading_done(reply)
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
            if composed is None and opens_thread(announcement):
                opening = await self.threads.open_thread(announcement.match_id)
                if opening is not None:
                    attempt += 1
                    delay = opening.retry_after if opening.retry_after is not None else backoff(attempt)
                    await self.matches.reschedule(announcement.id, opening.text, self.clock() + delay)
                    continue
            if composed is None:
                composed = await self.composer.compose(announcement, None)
                if composed is None:
                    await self.matches.mark_delivered(announcement.id)
                    return
            if announcement.kind == NoticeKind.CLOSE:
                failure = await self.challenges.edit(announcement, composed)
            elif composed.followups:
                await self.places.followup_only(announcement, composed, reply)
                return
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

    async def _close(self, announcement: Announcement, composed: Composed, reply: Reply | None) -> Result:
        """Close a challenge message (:mod:`bot.delivery.challenges`); retry in the background while Discord is busy."""
        failure = await self.challenges.close(announcement, composed, reply)
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
        """Discord will never take this post in the channel: try the interaction once, else record why.

        A refusal that is a fact about the match's place (its thread archived, locked or deleted, its channel
        gone) moves the match instead (:mod:`bot.delivery.places`), and the post goes to its new place.
        """
        if "where" not in announcement.detail:
            placed = await self._after_refusal(announcement, composed, reply, failure)
            if placed is not None:
                return placed
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

    async def _after_refusal(
        self, announcement: Announcement, composed: Composed, reply: Reply | None, failure: Failure
    ) -> Result | None:
        """Unarchive the match's thread and post again, or move the match and post at its new place.

        ``None`` when the refusal says nothing about the match's place (a plain refusal).
        """
        target = composed.channel_id or announcement.channel_id
        record = await self.matches.get(announcement.match_id)
        if record is None:
            return None
        if failure.code == THREAD_ARCHIVED and record.thread_id == target and await self.places.unarchive(target):
            again = await self._channel_post(announcement, composed)
            if again is None:
                return Result.POSTED
            if again.transient:
                delay = again.retry_after if again.retry_after is not None else backoff(1)
                await self.matches.reschedule(announcement.id, again.text, self.clock() + delay)
                self._spawn(announcement, composed, reply, delay, attempt=1)
                return Result.DELAYED
            failure = again
        why = fact_about(record, target, failure)
        if why is None:
            return None
        moved = await self.places.move(record.id, why, target)
        fresh = await self.matches.get(record.id)
        if moved is None and (fresh is None or (fresh.place_id == record.place_id and not fresh.followups)):
            return None  # the match could not move: the refusal stands
        # This announcement goes to the new place as well (an older board, as history), unless the one
        # saying where the match moved shows its board; then the move is announced.
        result = Result.POSTED
        recomposed = await self.composer.compose(announcement, None)
        if recomposed is None:
            await self.matches.mark_delivered(announcement.id)
        elif recomposed.followups:
            result = await self.places.followup_only(announcement, recomposed, reply)
        else:
            result = await self._post_or_retry(announcement, recomposed, reply, check_original=False)
        if moved is not None:
            result = worse(result, await self._deliver_one(moved, reply, None))
        return result

    async def _note(
        self, reply: Reply, announcement: Announcement, result: Result, *, where: int | None = None
    ) -> None:
        """Replace the "thinking" message with the truth: saved, and the board follows (or why it can't).

        ``where``: the board went to that channel (the match's thread), not the one the command came from.
        """
        if not reply.loading or not reply.alive(self.clock()):
            return
        entry = await self.composer.entry(announcement, None)
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
            trouble = messages.trouble_text(where or announcement.channel_id, (fresh and fresh.error) or "", language)
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

    # -- what Discord's gateway says about the matches' places ------------------------------

    async def place_changed(self, place_id: int, *, locked: bool = False, deleted: bool = False) -> int:
        """A thread was locked or deleted, or a channel deleted: move its running matches, say where; how many."""
        moves = await self.places.place_changed(place_id, locked=locked, deleted=deleted)
        if moves:
            await self.deliver(moves)
        return len(moves)


def opens_thread(announcement: Announcement) -> bool:
    """Whether posting the announcement first opens the match's thread (its first board, or after a move)."""
    return announcement.kind == NoticeKind.START or "moved" in announcement.detail
