"""What Tabula posts about an event: each game's opening line (its thread starts from it), the standings after
every round, and the winner with the podium at the end, in the server's language.

The games themselves are announced like every match (their START announcements, through the one announcer);
this module posts the event's own messages in the event's channel and drives the rounds: a finished match
reaches :meth:`EventPosts.match_finished`, which closes the round when it was the last, pairs the next one
and opens its games.  After a restart :meth:`EventPosts.resume` continues whatever was left half done.

An arena has one live standings message instead of a post per round: posted when it starts and edited as
games end, players join or pause.  Changes are coalesced: the message is written at most once every
:data:`STANDINGS_EDIT_SECONDS` (by the events' clock), with whatever changed meanwhile, so a busy arena costs
Discord one edit per ten seconds however many games end; a failed write is tried again after as long (or
Discord's ``retry_after``, if longer), and a deleted message is posted anew.  The end posts the winner with the
standings image, as the other formats do.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable, Sequence

import discord

from bot import limits
from bot.core import arena
from bot.core import tournament_formats as formats
from bot.core.ports import Languages
from bot.core.signals import MatchFinished
from bot.core.tournaments import Progress, TournamentService
from bot.delivery.failures import UNKNOWN_MESSAGE, classify
from bot.delivery.ports import NO_MENTIONS, Channels, Deliverer
from bot.storage.match_store import Matches
from bot.storage.records import Announcement, MatchRecord
from bot.storage.tournament_store import Event, EventFormat, EventStatus, Tournaments
from bot.text.escaping import escape_name
from engines import GAMES
from i18n.catalog import gettext, pgettext
from render.standings import StandingRow, render_standings

log = logging.getLogger(__name__)

#: An arena's live standings message is written at most this often (seconds): Discord allows a few edits per
#: channel every few seconds, and the event's channel also takes every new game's line.
STANDINGS_EDIT_SECONDS = 10.0
#: The most games of a player the text standings show (the latest; the points count them all).
ARENA_RESULTS_SHOWN = 12


def event_title(event: Event, round_number: int) -> str:
    """The head of an event game's thread name: ``Spring Pond · R2`` (an arena has no rounds: its name)."""
    if event.format == EventFormat.ARENA:
        return event.name
    return f"{event.name} · R{round_number}"


def standings_text(
    event: Event, lines: Sequence[formats.Line], language: str, *, final: bool = False, after: int | None = None
) -> str:
    """The standings as text (the image's alt text and ``/tournament standings``): one line per entrant.

    ``after``: the round they follow (default: the event's round, or the one before it while it is played).
    """
    if event.format == EventFormat.ARENA:
        return arena_text(event, lines, language, final=final)
    if after is None:
        after = event.round if final or event.status != "running" else max(event.round - 1, 0)
    if final:
        head = gettext(
            language,
            "**{event}**: final standings after round {round}",
            event=escape_name(event.name),
            round=after,
        )
    elif after:
        head = gettext(
            language,
            "**{event}**: standings after round {round} of {rounds}",
            event=escape_name(event.name),
            round=after,
            rounds=event.rounds,
        )
    else:
        head = gettext(language, "**{event}**: no round has finished yet", event=escape_name(event.name))
    if event.format == formats.TABLES:
        breaks = gettext(language, "game points")
    else:
        breaks = gettext(language, "Buchholz, Sonneborn–Berger")
    rows = [head, gettext(language, "Rank. Name: points (tie-breaks: {breaks}), each round's result", breaks=breaks)]
    for line in lines:
        marker = "👑 " if line.rank == 1 and after else ""
        gone = gettext(language, " (withdrew)") if line.withdrawn else ""
        tiebreaks = " · ".join(
            formats.number_text(b) for b in line.tiebreaks[: 1 if event.format == formats.TABLES else 2]
        )
        rounds = " ".join(result_letters(language, line.results[:after]))
        rows.append(
            f"{line.rank}. {marker}{escape_name(line.name)}{gone}: {formats.number_text(line.points)} "
            f"({tiebreaks}){'  ' + rounds if rounds else ''}"
        )
    return "\n".join(rows)[:1900]


def arena_text(
    event: Event, lines: Sequence[formats.Line], language: str, *, final: bool = False, room: int = 1900
) -> str:
    """An arena's standings as text (the live message, ``/tournament standings``, the final post's alt text).

    One line per player: rank, name, points, games played, and the points of their latest games; 🔥 marks a
    player whose next win counts double, and a paused player is said to be.  As many players as fit in ``room``
    characters are listed."""
    name = escape_name(event.name)
    if final or event.status == EventStatus.FINISHED:
        head = gettext(language, "**{event}**: final standings of the arena", event=name)
    elif event.status == EventStatus.RUNNING and event.ends_at is not None:
        head = gettext(language, "🏟️ **{event}**: arena standings, it ends <t:{time}:R>", event=name,
                       time=int(event.ends_at))  # fmt: skip
    else:
        head = gettext(language, "**{event}**: the arena has not started yet", event=name)
    rows = [head, gettext(language, "Rank. Name: points (games), the latest games' points; 🔥 on a streak")]
    for line in lines:
        outcomes = [mark[:1] for mark in line.results]
        fire = "🔥 " if arena.on_fire(outcomes) and not final else ""
        paused = gettext(language, " (paused)") if line.withdrawn and not final else ""
        latest = " ".join(mark[1:] for mark in line.results[-ARENA_RESULTS_SHOWN:])
        row = (
            f"{line.rank}. {fire}{escape_name(line.name)}{paused}: {formats.number_text(line.points)} "
            f"({int(line.tiebreaks[0]) if line.tiebreaks else 0}){'  ' + latest if latest else ''}"
        )
        if sum(len(r) + 1 for r in rows) + len(row) + 2 > room:  # as many as fit in one message
            rows.append("…")
            break
        rows.append(row)
    return "\n".join(rows)


def result_letters(language: str, results: Sequence[str]) -> tuple[str, ...]:
    """Each round's result mark as the letter chess players of ``language`` write (``-``, not played, and a place
    at a table, ``1``–``4``, read the same everywhere)."""
    letters = {
        # TRANSLATORS: one letter for a won game in an event's standings (ru В for выигрыш, fr G for gain).
        "W": pgettext(language, "result mark", "W"),
        # TRANSLATORS: one letter for a drawn game in an event's standings (ru Н for ничья, fr N for nulle).
        "D": pgettext(language, "result mark", "D"),
        # TRANSLATORS: one letter for a lost game in an event's standings (ru П for поражение, fr P for perte).
        "L": pgettext(language, "result mark", "L"),
        # TRANSLATORS: one letter for a round without a game (a bye) in an event's standings (ru С for свободен,
        # fr E for exempt); not "-", which marks a round not played.
        "B": pgettext(language, "result mark", "B"),
    }
    return tuple(letters.get(mark, mark) for mark in results)


def standings_png(event: Event, lines: Sequence[formats.Line], language: str, after: int) -> bytes:
    """The standings image (drawn by :mod:`render.standings`), its words in ``language``.

    An arena's chips are its players' latest games, coloured by outcome and labelled with the points earned."""
    if event.format == EventFormat.ARENA:
        return render_standings(
            event.name,
            gettext(language, "arena, final standings"),
            (gettext(language, "Pts"), gettext(language, "Games")),
            [
                StandingRow(
                    line.rank,
                    line.name,
                    formats.number_text(line.points),
                    (str(int(line.tiebreaks[0])),),
                    tuple(mark[:1] for mark in line.results),
                    leader=line.rank == 1 and line.points > 0,
                    labels=tuple(mark[1:] for mark in line.results),
                )
                for line in lines
            ],
        )
    if event.format == formats.TABLES:
        heads: tuple[str, ...] = (gettext(language, "Pts"), gettext(language, "Game"))
    else:
        heads = (gettext(language, "Pts"), gettext(language, "BH"), gettext(language, "SB"))
    rows = [
        StandingRow(
            line.rank,
            line.name,
            formats.number_text(line.points),
            tuple(formats.number_text(b) for b in line.tiebreaks[: len(heads) - 1]),
            line.results[:after],
            leader=line.rank == 1 and after > 0,
            withdrawn=line.withdrawn,
            labels=result_letters(language, line.results[:after]),
        )
        for line in lines
    ]
    subtitle = gettext(language, "after round {round} of {rounds}", round=after, rounds=event.rounds)
    return render_standings(event.name, subtitle, heads, rows)


class ThreadTitles:
    """The event and round heading an event game's thread name (the threads ask when they open one)."""

    def __init__(self, store: Tournaments) -> None:
        self.store = store

    async def __call__(self, match_id: int) -> str | None:
        """``Spring Pond · R2`` for an event game, ``None`` for an ordinary match."""
        pairing = await self.store.pairing_of_match(match_id)
        if pairing is None:
            return None
        event = await self.store.get(pairing.tournament_id)
        return None if event is None else event_title(event, pairing.round)


class EventPosts:
    """Post an event's messages and run its rounds as its games end."""

    def __init__(
        self,
        events: TournamentService,
        matches: Matches,
        announcer: Deliverer,
        channels: Channels,
        languages: Languages,
        on_due: Callable[[float], object] | None = None,
    ) -> None:
        """``on_due(when)`` tells the sweeper an arena's standings are due to be written at ``when``."""
        self.events = events
        self.matches = matches
        self.announcer = announcer
        self.channels = channels
        self.languages = languages
        self._on_due = on_due
        self._tasks: set[asyncio.Task[None]] = set()
        self._starting: set[int] = set()  # matches whose line is being posted right now
        self._written: dict[int, float] = {}  # arena -> when its live standings were last written
        self._stale: dict[int, float] = {}  # arena -> when its changed standings are due to be written
        self.standings_writes = 0  # how many times a live standings message was written (tests, benchmarks)

    def match_finished(self, finished: MatchFinished) -> None:
        """A match ended (the service says so after committing): run its event on, in the background."""
        record = finished.record
        task = asyncio.create_task(self._after(record.id), name=f"tabula-event-{record.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _after(self, match_id: int) -> None:
        try:
            progress = await self.events.after_match(match_id)
            if progress is not None:
                await self.publish(progress)
        except Exception:
            log.exception("running on the event of match %s failed; the sweeper tries again", match_id)

    async def resume(self) -> None:
        """Continue every running event (a restart, and each sweep): open missing games, close ended rounds.

        A game opened before a stop whose line in the event's channel was never posted gets it now, so its
        thread still starts from it (its START announcement waits in the outbox for the thread)."""
        for event in await self.events.store.running():
            if event.format == EventFormat.ARENA:  # an arena's games may come from any look
                pairings = await self.events.store.open_pairings(event.id)
            else:
                pairings = await self.events.store.pairings(event.id, event.round)
            ids = [p.match_id for p in pairings if p.match_id]
            for record in await self.events.store.match_records(ids):
                if record.wants_thread and record.message_id is None and record.id not in self._starting:
                    language = await self.languages.language(event.guild_id)
                    await self.open_game(event, record, (), language)
        for event in await self.events.store.running():
            if event.format == EventFormat.ARENA and event.id not in self._written:
                self.standings_changed(event.id)  # after a restart: written once, whatever changed while down
        for progress in await self.events.resume():
            await self.publish(progress)
        for progress in await self.events.due():
            await self.publish(progress)
        await self.write_standings()

    async def look(self, event_id: int) -> None:
        """Look at an arena now (someone joined or paused): seat whoever is free, and show the change."""
        progress = await self.events.look(event_id)
        if progress is not None:
            await self.publish(progress)
        else:
            self.standings_changed(event_id)
            await self.write_standings()

    def next_due(self) -> float | None:
        """When the events next want the sweeper: an arena's look, or its standings' next write."""
        times = [*self._stale.values()]
        look = self.events.next_look()
        if look is not None:
            times.append(look)
        return min(times, default=None)

    # -- an arena's live standings -------------------------------------------------------------------

    def standings_changed(self, event_id: int) -> None:
        """An arena's standings changed: write them when :data:`STANDINGS_EDIT_SECONDS` have passed since the
        last write (changes meanwhile are written together)."""
        due = max(self.events.clock(), self._written.get(event_id, float("-inf")) + STANDINGS_EDIT_SECONDS)
        if event_id in self._stale and self._stale[event_id] <= due:
            return
        self._stale[event_id] = due
        if self._on_due is not None:
            self._on_due(due)

    async def write_standings(self) -> None:
        """Write every arena's standings that are due (the sweeper, and whoever changed them, call this)."""
        now = self.events.clock()
        for event_id, due in sorted(self._stale.items()):
            if due > now:
                continue
            del self._stale[event_id]
            self._written[event_id] = now
            try:
                wait = await self._write_standings(event_id)
            except Exception:
                log.exception("writing the standings of arena %s failed", event_id)
                wait = STANDINGS_EDIT_SECONDS
            if wait is not None:  # tried again later, no sooner than the next write would be
                self._stale[event_id] = now + max(wait, STANDINGS_EDIT_SECONDS)
                if self._on_due is not None:
                    self._on_due(self._stale[event_id])

    async def _write_standings(self, event_id: int) -> float | None:
        """Edit (or post) an arena's live standings message; ``None`` when done, else seconds to wait."""
        event = await self.events.store.get(event_id)
        if event is None or event.format != EventFormat.ARENA or event.status == EventStatus.CANCELLED:
            return None
        language = await self.languages.language(event.guild_id)
        text = arena_text(event, await self.events.standings(event), language)
        channel = self.channels.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        self.standings_writes += 1
        try:
            if event.standings_id is not None:
                await channel.get_partial_message(event.standings_id).edit(content=text, allowed_mentions=NO_MENTIONS)
                return None
            message = await channel.send(text, allowed_mentions=NO_MENTIONS)
        except Exception as error:
            failure = classify(error)
            if failure is None:
                raise
            if failure.status == 404 and failure.code == UNKNOWN_MESSAGE:  # deleted: posted anew next time
                await self.events.store.set_standings_message(event.id, None)
                return 0.0
            log.info("writing the standings of arena %s failed: %s", event.id, failure.text)
            return (failure.retry_after or 0.0) if failure.transient else None
        await self.events.store.set_standings_message(event.id, message.id)
        return None

    async def publish(self, progress: Progress) -> None:
        """Post what one step of an event did: the closed round's standings (or the winner), the new games."""
        event = progress.event
        language = await self.languages.language(event.guild_id)
        if event.format == EventFormat.ARENA:
            await self._publish_arena(progress, language)
            return
        if progress.closed_round:
            lines = await self.events.standings(event)
            text = standings_text(event, lines, language, final=progress.finished, after=progress.closed_round)
            mentions: list[int] = []
            png = await asyncio.to_thread(standings_png, event, lines, language, progress.closed_round)
            image = discord.File(
                io.BytesIO(png),
                filename="standings.png",
                description=limits.clip(text, limits.ATTACHMENT_DESCRIPTION_MAX),
            )
            if progress.finished:
                text = winner_text(event, lines, language) + "\n\n" + text
                mentions = [line.user_id for line in lines]
            await self._post(event, text, mentions, image)
        for record, announcements in progress.opened:
            await self.open_game(event, record, announcements, language)

    async def _publish_arena(self, progress: Progress, language: str) -> None:
        """An arena's step: its new games opened, its standings written when due, and at the end the winner."""
        event = progress.event
        for record, announcements in progress.opened:
            await self.open_game(event, record, announcements, language)
        self.standings_changed(event.id)
        if progress.finished:
            lines = await self.events.standings(event)
            png = await asyncio.to_thread(standings_png, event, lines, language, 0)
            image = discord.File(
                io.BytesIO(png),
                filename="standings.png",
                description=limits.clip(
                    arena_text(event, lines, language, final=True), limits.ATTACHMENT_DESCRIPTION_MAX
                ),
            )
            said = gettext(language, "Games still running at the end do not count (as on Lichess).")
            head = winner_text(event, lines, language) if lines else ""
            if len(head) > 900:  # a big field: the winner and the podium, not a ping for everyone
                head = "\n".join(head.split("\n")[:2])
            room = limits.MESSAGE_CONTENT_MAX - len(head) - len(said) - 4
            text = f"{head}\n{said}\n\n{arena_text(event, lines, language, final=True, room=room)}".strip()
            mentions = [line.user_id for line in lines if f"<@{line.user_id}>" in head]
            await self._post(event, limits.clip(text, limits.MESSAGE_CONTENT_MAX), mentions, image)
        await self.write_standings()

    async def open_game(
        self, event: Event, record: MatchRecord, announcements: Sequence[Announcement], language: str
    ) -> None:
        """Post the game's line in the event's channel (its thread starts from it), then announce the game."""
        self._starting.add(record.id)
        try:
            await self._open_game(event, record, announcements, language)
        finally:
            self._starting.discard(record.id)

    async def _open_game(
        self, event: Event, record: MatchRecord, announcements: Sequence[Announcement], language: str
    ) -> None:
        names = " vs ".join(escape_name(seat.name) for seat in record.players)
        text = gettext(
            language,
            "**{title}**: {players} — {game}, played in the thread below.",
            title=escape_name(event_title(event, event.round)),
            players=names,
            game=GAMES[event.game].title,
        )
        message_id = await self._post(event, text, [])
        if message_id is not None:
            await self.matches.set_starter(record.id, message_id)
        if announcements:
            await self.announcer.deliver(announcements, record=record)

    async def _post(
        self, event: Event, text: str, mentions: Sequence[int], image: discord.File | None = None
    ) -> int | None:
        channel = self.channels.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        allowed = discord.AllowedMentions(users=[discord.Object(m) for m in mentions], roles=False, everyone=False)
        try:
            if image is not None:
                message = await channel.send(text, allowed_mentions=allowed, file=image)
            else:
                message = await channel.send(text, allowed_mentions=allowed)
        except Exception as error:
            failure = classify(error)
            if failure is None:
                raise
            log.info("posting for event %s failed: %s", event.id, failure.text)
            return None
        return message.id


# The most players the final post's head names (players sharing a rank share its medal; a field tied at the top
# is not listed whole).
PODIUM_MOST = 10


def winner_text(event: Event, lines: Sequence[formats.Line], language: str) -> str:
    """The final post's head: the winner (or those sharing first place), the podium by rank (a shared rank shares
    its medal), and one ping for each entrant."""
    medals = {1: "🥇", 2: "🥈", 3: "🥉"}
    podium = [line for line in lines if line.rank <= 3][:PODIUM_MOST]
    places = ", ".join(f"{medals[line.rank]} <@{line.user_id}>" for line in podium)
    winners = [line for line in lines if line.rank == 1]
    if len(winners) > 1:
        head = gettext(
            language,
            "🏆 **{event}** is over: {winners} share first place!",
            event=escape_name(event.name),
            winners=", ".join(f"<@{line.user_id}>" for line in winners[:PODIUM_MOST]),
        )
    else:
        head = gettext(
            language,
            "🏆 **{event}** is over: <@{winner}> wins!",
            event=escape_name(event.name),
            winner=winners[0].user_id if winners else 0,
        )
    others = " ".join(f"<@{line.user_id}>" for line in lines if line.rank > 3)
    return (
        head
        + "\n"
        + places
        + (("\n" + gettext(language, "Thanks for playing, {players}.", players=others)) if others else "")
    )
