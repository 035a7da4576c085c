"""Reminders and automatic endings, through the command tree and the HTTP edge.

A reminder mentions the player to move once, when a quarter of the turn is left, in the match's
channel with the deadline as a relative time; never a player who turned reminders off, never after
the move, never twice (even across a restart), and its post fails and retries like every other.
A turn whose deadline passed twice over ends by itself as lost on time, rated as a loss; in Azul
for three the late player leaves and the others play on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import storage
from bot.delivery.failures import backoff
from bot.storage import match_base, match_store, opening, outbox_store, places_store
from bot.storage.records import Delivery, MatchStatus, Notice, NoticeKind, Seat
from tests.bot_world import ANA, BO, CY, World, only
from tests.harness import (
    GUILD_ID,
    MISSING_PERMISSIONS,
    SERVER_ERROR,
    TIMEOUT,
    UNKNOWN_CHANNEL,
    Call,
    Failure,
    Person,
    settle,
)

DAY = 24 * 3600


def reminders(world: World, channel: int) -> list[Call]:
    """The reminders posted in ``channel`` (channel messages with the reminder clock)."""
    return [c for c in world.recorder.created if c.kind == "message" and "⏰" in c.content and f"/{channel}/" in c.path]


def pinged(call: Call) -> list[int]:
    allowed = (call.data or {}).get("allowed_mentions") or {}
    return [int(user) for user in allowed.get("users", [])]


async def sweep(world: World) -> None:
    await world.bot.sweep()
    await settle()


async def test_the_player_to_move_is_reminded_once_at_three_quarters_of_the_turn(world: World) -> None:
    channel = 1701
    light, dark = await world.start_pond(channel)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.deadline is not None
    world.clock.advance(0.75 * DAY - 60)
    await sweep(world)
    assert reminders(world, channel) == []  # a minute too early
    world.clock.advance(61)
    await sweep(world)
    posted = reminders(world, channel)
    assert len(posted) == 1
    assert f"<@{light.id}>" in posted[0].content and pinged(posted[0]) == [light.id]
    assert f"<t:{int(record.deadline)}:R>" in posted[0].content and "Pond" in posted[0].content
    assert posted[0].board is None
    world.clock.advance(3600)
    await sweep(world)
    assert len(reminders(world, channel)) == 1  # once per turn
    # After the move, the other player's new turn is reminded in its own time, not at once.
    await world.command(light, channel, "pond", "place", cell="b2")
    await sweep(world)
    assert len(reminders(world, channel)) == 1
    world.clock.advance(0.75 * DAY)
    await sweep(world)
    posted = reminders(world, channel)
    assert len(posted) == 2 and pinged(posted[1]) == [dark.id]


async def test_no_reminder_after_the_move_or_for_a_player_who_turned_them_off(world: World) -> None:
    channel = 1702
    light, dark = await world.start_pond(channel)
    refused = only(await world.command(dark, channel, "reminders", "", setting="maybe"), "reply")
    assert refused.ephemeral and "Choose `on` or `off`" in refused.content
    assert await world.bot.store.extras.reminders_enabled(dark.id)
    reply = only(await world.command(dark, channel, "reminders", "", setting="off"), "reply")
    assert reply.ephemeral and "off" in reply.content
    world.clock.advance(0.5 * DAY)
    await world.command(light, channel, "pond", "place", cell="b2")  # moved before the reminder was due
    world.clock.advance(0.8 * DAY)
    await sweep(world)
    assert reminders(world, channel) == []  # dark's turn is due, but dark said no
    reply = only(await world.command(dark, channel, "reminders", "", setting="on"), "reply")
    assert reply.ephemeral and "on" in reply.content
    await sweep(world)
    assert reminders(world, channel) == []  # this turn was already handled (skipped), once and for all
    await world.command(dark, channel, "pond", "place", cell="d4")
    world.clock.advance(0.8 * DAY)
    await sweep(world)
    assert [pinged(c) for c in reminders(world, channel)] == [[light.id]]


async def test_reminder_written_but_not_posted_before_a_restart_is_posted_after_it(world: World) -> None:
    channel = 1703
    light, _ = await world.start_pond(channel)
    world.clock.advance(0.8 * DAY)
    world.recorder.fail("message", SERVER_ERROR, times=1)
    world.sleeper.hold = True  # the retry waits: the bot stops before it runs
    await sweep(world)
    assert reminders(world, channel) == []
    pending = [a for a in await world.bot.service.store.pending_announcements() if a.kind == NoticeKind.REMIND]
    assert len(pending) == 1
    world = await world.restart()
    try:
        await world.bot.announcer.resume(everything=True)
        await sweep(world)
        posted = reminders(world, channel)
        assert len(posted) == 1 and pinged(posted[0]) == [light.id]
    finally:
        await world.stop()


async def test_a_restart_neither_loses_nor_repeats_a_reminder(world: World) -> None:
    channel = 1704
    await world.start_pond(channel)
    world = await world.restart()
    world.clock.advance(0.8 * DAY)
    await sweep(world)
    world = await world.restart()
    try:
        await sweep(world)
        await world.bot.announcer.resume(everything=True)
        assert len(reminders(world, channel)) == 1
    finally:
        await world.stop()


@pytest.mark.parametrize(
    "failure",
    [Failure(429, via=True, retry_after=3), Failure(429, via=False), SERVER_ERROR, TIMEOUT, Failure(0, landed=True)],
    ids=["429-via", "429-cloudflare", "500", "timeout", "timeout-after-it-landed"],
)
async def test_a_reminder_that_fails_for_a_while_is_retried_and_posted_once(world: World, failure: Failure) -> None:
    channel = 1705
    light, _ = await world.start_pond(channel)
    world.recorder.fail("message", failure, times=2)
    world.clock.advance(0.8 * DAY)
    await sweep(world)
    posted = reminders(world, channel)
    assert len(posted) == 1 and pinged(posted[0]) == [light.id]
    assert not await world.bot.service.store.pending_announcements()
    assert len(world.sleeper.delays) == 2
    if failure.retry_after is not None:
        assert world.sleeper.delays[0] == failure.retry_after
    elif failure.status != 429:
        assert world.sleeper.delays == [backoff(1), backoff(2)]


@pytest.mark.parametrize("failure", [MISSING_PERMISSIONS, UNKNOWN_CHANNEL], ids=["403", "404"])
async def test_a_reminder_discord_refuses_for_good_is_given_up_with_the_reason(world: World, failure: Failure) -> None:
    channel = 1706
    light, _ = await world.start_pond(channel)
    world.recorder.fail("message", failure, times=5)
    world.clock.advance(0.8 * DAY)
    await sweep(world)
    assert reminders(world, channel) == []
    record = await world.bot.service.store.open_match(channel)
    assert record is not None
    failed = await world.bot.service.store.failed_announcements(record.id)
    if failure is UNKNOWN_CHANNEL:
        # The channel no longer exists: the game goes on in the replies to its players' commands.
        assert record.followups and failed and all(a.status == Delivery.FAILED and a.error for a in failed)
    else:
        assert [a.kind for a in failed] == [NoticeKind.REMIND] and failed[0].status == Delivery.FAILED
        assert failed[0].error
    await sweep(world)
    assert len(world.recorder.of_kind("message")) == 1 + 1  # the first board, one reminder attempt: no retry
    # The game goes on: the move is accepted and its board posted.
    calls = await world.command(light, channel, "pond", "place", cell="b2")
    assert only(calls, "followup").board is not None


async def test_the_computer_is_never_reminded(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    channel = 1707
    await world.command(ANA, channel, "pond", "start", difficulty="easy")
    await settle()
    service = world.bot.service
    record = await service.store.open_match(channel)
    assert record is not None
    state = service.state_of(record)
    if state.to_move == record.seat_of(ANA.id):  # Ana moves first: play one move (its board is not the point)
        await service.play(channel, ANA.id, state.move_text(state.legal_moves()[0]))
    # The computer is stuck (its worker is down): its turn runs late, and nobody is mentioned for it.
    monkeypatch.setattr(world.bot.computer, "wake", lambda record, state: None)

    async def nothing() -> int:
        return 0

    monkeypatch.setattr(world.bot.computer, "resume_all", nothing)
    record = await service.store.open_match(channel)
    assert record is not None and service.state_of(record).to_move != record.seat_of(ANA.id)
    world.clock.advance(0.8 * DAY)
    before = len(world.recorder.of_kind("message"))
    swept = await world.bot.reminders.sweep()
    assert (swept.reminded, swept.skipped) == (0, 1) and reminders(world, channel) == []
    assert len(world.recorder.of_kind("message")) == before
    # Nor does the computer's turn ever end by abandonment: only a person can leave a game on time.
    world.clock.advance(3 * DAY)
    await sweep(world)
    assert (await service.store.open_match(channel)) is not None


async def test_a_server_that_turned_reminders_off_gets_none(world: World) -> None:
    channel = 1708
    await world.start_pond(channel)
    await world.bot.store.settings.change(GUILD_ID, reminders=False)  # what /tabula reminders off stores
    world.clock.advance(0.8 * DAY)
    await sweep(world)
    assert reminders(world, channel) == []


async def test_a_match_in_its_own_thread_is_reminded_in_that_thread(world: World) -> None:
    channel = 1709
    await world.bot.store.settings.change(GUILD_ID, threads=True)
    reply = await world.challenge(ANA, BO, channel)
    match_id = int(next(cid for cid in reply.custom_ids if ":accept:" in cid).rsplit(":", 1)[1])
    await world.discord.press(BO, channel, f"tabula:challenge:accept:{match_id}")
    await settle()
    record = await world.bot.service.store.get(match_id)
    assert record is not None and record.thread_id is not None
    world.clock.advance(0.8 * DAY)
    await sweep(world)
    assert reminders(world, channel) == []  # not in the channel the challenge was posted in
    posted = reminders(world, record.thread_id)
    assert len(posted) == 1 and "⏰" in posted[0].content


# -- abandonment ---------------------------------------------------------------------


async def test_a_turn_left_twice_its_time_ends_on_time_and_is_rated_as_a_loss(world: World) -> None:
    channel = 1711
    light, dark = await world.start_pond(channel)
    await world.command(light, channel, "pond", "place", cell="b2")
    world.clock.advance(2 * DAY - 60)  # the deadline passed a day ago, but not yet twice over
    await sweep(world)
    assert (await world.bot.service.store.open_match(channel)) is not None
    world.clock.advance(61)
    await sweep(world)
    assert (await world.bot.service.store.open_match(channel)) is None
    boards = world.recorder.boards(channel)
    last = boards[-1]
    assert f"{dark.name} ran out of time; the game ended on time." in last.content, last.content
    assert f"**{light.name}** wins" in last.content and "claimed" not in last.content
    assert "Ratings:" in last.content
    ratings = world.bot.store.ratings
    winner = await ratings.rating(GUILD_ID, "pond", light.id)
    loser = await ratings.rating(GUILD_ID, "pond", dark.id)
    assert winner is not None and loser is not None
    assert winner.wins == 1 and loser.losses == 1 and winner.mu > loser.mu
    # A claim afterwards finds no game; a second sweep changes nothing.
    await sweep(world)
    assert len(world.recorder.boards(channel)) == len(boards)


async def test_a_move_in_time_prevents_the_automatic_end(world: World) -> None:
    channel = 1712
    light, _ = await world.start_pond(channel)
    world.clock.advance(1.5 * DAY)  # past the deadline, not yet abandoned: the late player may still move
    await world.command(light, channel, "pond", "place", cell="b2")
    world.clock.advance(1.9 * DAY)
    await sweep(world)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.status == MatchStatus.ACTIVE
    world.clock.advance(0.2 * DAY)
    await sweep(world)
    assert (await world.bot.service.store.open_match(channel)) is None


async def test_in_azul_for_three_the_abandoning_player_leaves_and_the_others_play_on(world: World) -> None:
    channel = 1713
    reply = only(await world.command(ANA, channel, "azul", "start", opponent=BO, opponent2=CY), "reply")
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    await world.discord.press(BO, channel, accept)
    await world.discord.press(CY, channel, accept)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.status == MatchStatus.ACTIVE
    late = world.bot.service.state_of(record).to_move
    assert late is not None
    world.clock.advance(2 * DAY + 1)
    await sweep(world)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.status == MatchStatus.ACTIVE  # the other two play on
    state = world.bot.service.state_of(record)
    assert late in state.left and state.to_move not in (None, late)  # type: ignore[attr-defined]
    last = world.recorder.boards(channel)[-1]
    assert "ran out of time and leaves the game" in last.content
    assert f"<@{record.players[state.to_move].user_id}>" in last.content  # the next player is told
    # Abandoned again: the last but one leaves, and the game ends with the one who stayed.
    world.clock.advance(2 * DAY + 1)
    await sweep(world)
    assert (await world.bot.service.store.open_match(channel)) is None
    finished = await world.bot.service.store.get(record.id)
    assert finished is not None and finished.status == MatchStatus.FINISHED and finished.result is not None
    stayed = [seat for seat, place in enumerate(finished.result["places"]) if place == 1]
    assert len(stayed) == 1 and stayed[0] not in (late, state.to_move)
    # Rated like any finished game of three: the one who stayed wins, the two who left lose.
    rows = {p.user_id: await world.bot.store.ratings.rating(GUILD_ID, "azul", p.user_id) for p in finished.players}
    winner = finished.players[stayed[0]].user_id
    assert all(row is not None for row in rows.values())
    won = rows[winner]
    assert won is not None and (won.wins, won.losses) == (1, 0)
    assert sorted((row.wins, row.losses) for row in rows.values() if row is not None) == [(0, 1), (0, 1), (1, 0)]


async def test_abandonment_after_a_restart(world: World) -> None:
    channel = 1714
    light, _ = await world.start_pond(channel)
    world = await world.restart()
    try:
        world.clock.advance(2 * DAY + 1)
        await sweep(world)
        assert (await world.bot.service.store.open_match(channel)) is None
        finished = await world.bot.service.store.finished_matches(GUILD_ID, channel_id=channel)
        log = await world.bot.service.store.log(finished[0].id)
        assert [(entry.kind, entry.text) for entry in log] == [("forfeit", "abandoned")]
        assert finished[0].players[log[0].seat].user_id == light.id and finished[0].result is not None
        assert finished[0].result["places"] == [2, 1]  # light, to move first, never moved
    finally:
        await world.stop()


# -- migration 006 ------------------------------------------------------------------------


async def test_migration_006_keeps_the_outbox_and_never_reuses_its_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The outbox is rebuilt (a new kind): its rows stay, and IDs (part of message nonces) keep counting up."""
    path = str(tmp_path / "old.sqlite3")
    everything = storage.migrations()
    monkeypatch.setattr(opening, "migrations", lambda *dialect: [m for m in everything if m[0] <= 5])
    # The match columns as they were before migration 007 (which recorded where a game moved and how it ended).
    decode = match_store._decode
    for part in (match_base, match_store, outbox_store, places_store):  # the store's modules that read matches
        if hasattr(part, "_COLUMNS"):
            monkeypatch.setattr(part, "_COLUMNS", match_store._COLUMNS.split(", moved")[0])
        if hasattr(part, "_decode"):
            monkeypatch.setattr(part, "_decode", lambda row: decode((*row, None, None, 0, None)))
    store = await storage.MatchStore.open(path)
    matches = store.matches
    record = await matches.create_challenge(
        guild_id=1, channel_id=5, game="pond", options={}, seed=1, players=[Seat(1, "A"), Seat(2, "B")],
        invited=[2], expires_at=100.0, now=1.0,
    )  # fmt: skip
    close = Notice(NoticeKind.CLOSE, board=False, detail={"how": "expired", "by": ""})
    record, first = await matches.update_announcing(record, [close], status=MatchStatus.EXPIRED, deadline=None)
    record, second = await matches.update_announcing(record, [close])
    await matches.mark_delivered(second[0].id)  # the newest ID is gone from the table, not from the counter
    await store.close()
    monkeypatch.undo()  # every migration, and today's columns
    store = await storage.MatchStore.open(path)
    try:
        assert await store.schema_version() == max(number for number, _ in everything)
        kept = await store.matches.pending_announcements()
        assert [(a.id, a.kind) for a in kept] == [(first[0].id, NoticeKind.CLOSE)]
        _, made = await store.matches.update_announcing(record, [Notice(NoticeKind.REMIND, mentions=(1,))])
        assert made[0].id > second[0].id and made[0].kind == NoticeKind.REMIND
    finally:
        await store.close()


async def test_a_reminder_due_before_the_move_but_posted_after_it_is_not_posted(world: World) -> None:
    channel = 1715
    light, _ = await world.start_pond(channel)
    world.clock.advance(0.8 * DAY)
    world.recorder.fail("message", SERVER_ERROR, times=1)
    world.sleeper.hold = True  # Discord is down; the retry waits, and the bot stops before it runs
    await sweep(world)
    world = await world.restart()
    try:
        await world.command(light, channel, "pond", "place", cell="b2")  # the move comes first after the restart
        await world.bot.announcer.resume(everything=True)
        await settle()
        assert reminders(world, channel) == []  # the turn it was about is over: nothing to say
        assert not await world.bot.service.store.pending_announcements()
    finally:
        await world.stop()


async def test_reminders_speak_the_servers_language_and_the_answer_the_users(world: World) -> None:
    channel = 1716
    moderator = Person(100000000000000009, "Mod", admin=True, locale="ru")
    only(await world.command(moderator, channel, "tabula", "language", language="fr"), "reply")
    light, _ = await world.start_pond(channel)
    world.clock.advance(0.8 * DAY)
    await sweep(world)
    [posted] = reminders(world, channel)
    assert posted.content.startswith(f"⏰ <@{light.id}>, votre coup de Pond est attendu <t:"), posted.content
    answer = only(await world.command(moderator, channel, "reminders", "", setting="off"), "reply")
    assert answer.ephemeral and answer.content.startswith("🔕 Напоминания выключены")
