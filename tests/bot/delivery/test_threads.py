"""A thread per match: opening it (restart-safe, whatever Discord answers), finding the match from a
command, the fallback without thread permissions, and the tidy end (a result in the channel, archiving)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import discord
import pytest

from bench.load import Patch, ThreadLoad
from bot.delivery.threads import THREAD_NAME_LIMIT, thread_name
from bot.storage.records import MatchRecord, MatchStatus, Seat, ThreadMode
from tests.bot_world import ANA, BO, CY, DEE, MOD, World, only
from tests.harness import (
    GUILD_ID,
    MISSING_PERMISSIONS,
    SERVER_ERROR,
    TIMEOUT,
    Call,
    Failure,
    Person,
    settle,
)

CHANNEL = 901


async def threads_on(world: World) -> None:
    await world.bot.store.settings.change(GUILD_ID, threads=True)


async def challenge(world: World, challenger: Person, opponent: Person, channel: int = CHANNEL) -> tuple[int, Call]:
    """Post a challenge; return its match ID and the reply that posted it."""
    reply = await world.challenge(challenger, opponent, channel)
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    return int(accept.rsplit(":", 1)[1]), reply


async def accept(world: World, opponent: Person, match_id: int, channel: int = CHANNEL) -> list[Call]:
    return await world.discord.press(opponent, channel, f"tabula:challenge:accept:{match_id}")


async def record_of(world: World, match_id: int) -> MatchRecord:
    record = await world.bot.service.store.get(match_id)
    assert record is not None
    return record


async def mover(world: World, match_id: int) -> Person:
    """The person to move in a running match."""
    record = await record_of(world, match_id)
    state = world.bot.service.state_of(record)
    assert state.to_move is not None
    by_id = {p.id: p for p in (ANA, BO, CY, DEE, MOD)}
    return by_id[record.players[state.to_move].user_id]


def mentioned(call: Call) -> set[int]:
    return {int(u) for u in (call.data.get("allowed_mentions") or {}).get("users", [])}


async def test_two_matches_from_one_channel_each_play_in_their_own_thread(world: World) -> None:
    await threads_on(world)
    first, _ = await challenge(world, ANA, BO)
    second, _ = await challenge(world, CY, DEE)  # the channel is not "busy": many challenges wait at once
    await accept(world, BO, first)
    await accept(world, DEE, second)
    one, two = await record_of(world, first), await record_of(world, second)
    assert one.thread_id and two.thread_id and one.thread_id != two.thread_id
    assert one.thread_id == one.message_id  # a thread opened from the challenge message bears its ID
    threads = world.recorder.threads
    assert {threads[one.thread_id]["parent"], threads[two.thread_id]["parent"]} == {CHANNEL}
    assert threads[one.thread_id]["name"] in ("Pond · Ana vs Bo", "Pond · Bo vs Ana")
    assert threads[two.thread_id]["name"] in ("Pond · Cy vs Dee", "Pond · Dee vs Cy")
    # The opening board is in each thread, naming both players so both join it; none in the channel.
    for record, people in ((one, {ANA.id, BO.id}), (two, {CY.id, DEE.id})):
        boards = world.recorder.boards(record.thread_id)
        assert len(boards) == 1 and "begins" in boards[0].content
        assert mentioned(boards[0]) == people
    assert world.recorder.boards(CHANNEL) == []
    # Every turn goes to its own thread.
    player = await mover(world, first)
    calls = await world.command(player, one.thread_id, "pond", "place", cell="b2")
    assert only(calls, "followup").board is not None
    assert len(world.recorder.boards(one.thread_id)) == 2 and len(world.recorder.boards(two.thread_id)) == 1
    player = await mover(world, second)
    await world.command(player, two.thread_id, "pond", "place", cell="c3")
    assert len(world.recorder.boards(two.thread_id)) == 2
    # In a match's thread, commands act on that match only: an outsider is refused there.
    refused = only(await world.command(CY, one.thread_id, "pond", "place", cell="a1"), "reply")
    assert refused.ephemeral and "not playing" in refused.content


async def test_commands_outside_a_thread_find_the_players_only_match(world: World) -> None:
    await threads_on(world)
    match_id, _ = await challenge(world, ANA, BO)
    await accept(world, BO, match_id)
    record = await record_of(world, match_id)
    assert record.thread_id is not None
    player = await mover(world, match_id)
    # From the channel (or anywhere in the server) the player's only Pond game is the one meant.
    calls = await world.command(player, CHANNEL, "pond", "place", cell="b2")
    told = only(calls, "edit-original")
    assert f"<#{record.thread_id}>" in told.content and "saved" in told.content
    boards = world.recorder.boards(record.thread_id)
    assert len(boards) == 2 and boards[-1].kind == "message"
    assert not [c for c in world.recorder.boards(CHANNEL)]
    cells = await world.discord.autocomplete(
        await mover(world, match_id), 777, "pond", "place", [{"name": "cell", "type": 3, "value": "", "focused": True}]
    )
    assert cells and "b2" not in cells
    # Someone with no game of that kind is told so, politely and privately.
    nothing = only(await world.command(CY, CHANNEL, "pond", "board"), "reply")
    assert nothing.ephemeral and "no running Pond game" in nothing.content
    # With two games, a command outside their threads lists them and changes nothing.
    second, _ = await challenge(world, ANA, CY)
    await accept(world, CY, second)
    other = await record_of(world, second)
    before = (await record_of(world, match_id)).version, other.version
    several = only(await world.command(ANA, CHANNEL, "pond", "resign"), "reply")
    assert several.ephemeral and f"<#{record.thread_id}>" in several.content
    assert f"<#{other.thread_id}>" in several.content and "thread" in several.content
    assert ((await record_of(world, match_id)).version, (await record_of(world, second)).version) == before
    # In a thread, the same command acts on that thread's match.
    resigned = await world.command(ANA, other.thread_id or 0, "pond", "resign")
    assert only(resigned, "followup").board is not None
    assert (await record_of(world, second)).status == MatchStatus.FINISHED
    assert (await record_of(world, match_id)).status == MatchStatus.ACTIVE


async def test_a_refusal_in_another_language_lists_the_threads(world: World) -> None:
    await threads_on(world)
    ids = []
    for opponent in (BO, CY):
        match_id, _ = await challenge(world, ANA, opponent)
        await accept(world, opponent, match_id)
        ids.append(match_id)
    ana_ru = Person(ANA.id, "Ana", locale="ru")
    refused = only(await world.command(ana_ru, CHANNEL, "pond", "board"), "reply")
    assert refused.ephemeral and "несколько партий" in refused.content
    for match_id in ids:
        assert f"<#{(await record_of(world, match_id)).thread_id}>" in refused.content


async def test_a_challenge_made_in_a_thread_is_played_in_that_thread(world: World) -> None:
    await threads_on(world)
    thread = 950
    world.recorder.threads[thread] = {"parent": CHANNEL, "name": "games chat", "archived": False}
    match_id, _ = await challenge(world, ANA, BO, thread)
    await accept(world, BO, match_id, thread)
    record = await record_of(world, match_id)
    assert record.thread_mode is None and record.thread_id is None and record.channel_id == thread
    assert not world.recorder.of_kind("thread")  # no thread inside a thread
    assert len(world.recorder.boards(thread)) == 1
    # One running match per thread.
    busy = only(await world.command(CY, thread, "pond", "start", opponent=DEE), "reply")
    assert busy.ephemeral and "already has a game" in busy.content
    player = await mover(world, match_id)
    await world.command(player, thread, "pond", "place", cell="b2")
    assert len(world.recorder.boards(thread)) == 2


async def test_without_thread_permissions_games_are_played_in_the_channel_and_it_says_why_once(
    world: World,
) -> None:
    await threads_on(world)
    allowed = discord.Permissions.all()
    allowed.create_public_threads = False
    world.discord.app_permissions = str(allowed.value)
    match_id, reply = await challenge(world, ANA, BO)
    assert "Create Public Threads" in reply.content and "one at a time" in reply.content
    # As before: one open match in the channel.
    busy = only(await world.command(CY, CHANNEL, "pond", "start", opponent=DEE), "reply")
    assert busy.ephemeral and "already has a game" in busy.content
    await accept(world, BO, match_id)
    record = await record_of(world, match_id)
    assert record.thread_mode is None and not world.recorder.of_kind("thread")
    assert len(world.recorder.boards(CHANNEL)) == 1
    await world.command(MOD, CHANNEL, "pond", "cancel")
    _, again = await challenge(world, CY, DEE)
    assert "Create Public Threads" not in again.content  # said once in this channel
    # Turning threads off in the server is a choice: nothing to explain.
    await world.bot.store.settings.change(GUILD_ID, threads=False)
    world.discord.app_permissions = str(discord.Permissions.all().value)
    _, quiet = await challenge(world, ANA, BO, 902)
    assert "Create Public Threads" not in quiet.content and "one at a time" not in quiet.content


@pytest.mark.parametrize(
    "failure",
    [
        Failure(429, via=True, retry_after=3),
        Failure(429, via=False, retry_after=5),
        Failure(429, via=False),
        SERVER_ERROR,
        Failure(500, landed=True),
        TIMEOUT,
        Failure(0, landed=True),
    ],
    ids=["429-via", "429-cloudflare", "429-no-retry-after", "500", "500-after-it-landed", "timeout", "timeout-landed"],
)
async def test_a_thread_that_fails_to_open_for_a_while_is_opened_once(world: World, failure: Failure) -> None:
    await threads_on(world)
    match_id, _ = await challenge(world, ANA, BO)
    world.recorder.fail("thread", failure)
    await accept(world, BO, match_id)
    await settle()
    record = await record_of(world, match_id)
    assert record.status == MatchStatus.ACTIVE  # the game was never in doubt
    assert list(world.recorder.threads) == [record.thread_id] == [record.message_id]
    boards = world.recorder.boards(record.thread_id)
    assert len(boards) == 1 and "begins" in boards[0].content
    assert world.recorder.boards(CHANNEL) == []
    assert not await world.bot.service.store.pending_announcements()
    assert len(world.recorder.of_kind("thread")) == 2


async def test_a_thread_refused_for_good_plays_the_match_in_the_channel(world: World) -> None:
    await threads_on(world)
    match_id, _ = await challenge(world, ANA, BO)
    world.recorder.fail("thread", MISSING_PERMISSIONS)
    await accept(world, BO, match_id)
    record = await record_of(world, match_id)
    assert record.status == MatchStatus.ACTIVE and record.thread_mode == ThreadMode.CHANNEL
    assert record.thread_id is None and not world.recorder.threads
    start = only([c for c in world.recorder.boards(CHANNEL)], "message")
    assert "begins" in start.content and "did not let me open a thread" in start.content
    player = await mover(world, match_id)
    await world.command(player, CHANNEL, "pond", "place", cell="b2")
    assert len(world.recorder.boards(CHANNEL)) == 2
    # Other challenges of the channel still get their threads; the explanation is not repeated.
    second, _ = await challenge(world, CY, DEE)
    world.recorder.fail("thread", MISSING_PERMISSIONS)
    await accept(world, DEE, second)
    last = world.recorder.boards(CHANNEL)[-1]
    assert "begins" in last.content and "did not let me open a thread" not in last.content


@pytest.mark.parametrize("landed", [False, True], ids=["not-made", "made-but-unseen"])
async def test_a_restart_between_accept_and_thread_loses_nothing_and_makes_one_thread(
    world: World, landed: bool
) -> None:
    await threads_on(world)
    match_id, _ = await challenge(world, ANA, BO)
    world.sleeper.hold = True  # Discord is down: the retry waits…
    world.recorder.fail("thread", Failure(0, landed=landed))
    await accept(world, BO, match_id)
    assert (await record_of(world, match_id)).status == MatchStatus.ACTIVE
    assert world.recorder.boards() == []
    # …and the bot goes down before it tries again.
    restarted = await world.restart()
    world.bot = restarted.bot
    world.recorder.heal()
    assert await restarted.bot.announcer.resume(everything=True) >= 1  # what setup_hook does at start
    await settle()
    record = await record_of(world, match_id)
    assert list(world.recorder.threads) == [record.thread_id]
    boards = world.recorder.boards(record.thread_id)
    assert len(boards) == 1 and "begins" in boards[0].content
    assert not await restarted.bot.service.store.pending_announcements()


async def test_a_finished_match_posts_its_result_in_the_channel_and_its_thread_is_archived_an_hour_later(
    world: World,
) -> None:
    await threads_on(world)
    match_id, _ = await challenge(world, ANA, BO)
    await accept(world, BO, match_id)
    record = await record_of(world, match_id)
    thread = record.thread_id
    assert thread is not None
    calls = await world.command(BO, thread, "pond", "resign")
    assert "wins" in only(calls, "followup").content
    parent = world.recorder.boards(CHANNEL)
    assert len(parent) == 1 and parent[0].kind == "message"
    line = parent[0].content
    assert "\n" not in line and f"<#{thread}>" in line and "**Ana** wins" in line and "Pond" in line
    assert mentioned(parent[0]) == set()
    # Not before the hour is up…
    world.clock.advance(3000)
    await world.bot.sweep()
    assert not world.recorder.of_kind("edit-channel")
    # …and a restart meanwhile forgets nothing.
    restarted = await world.restart()
    world.bot = restarted.bot
    world.recorder.fail("edit-channel", SERVER_ERROR)  # Discord has a hiccup: tried again later
    world.clock.advance(700)
    await restarted.bot.sweep()
    assert not world.recorder.threads[thread]["archived"]
    world.clock.advance(60)
    await restarted.bot.sweep()
    edits = world.recorder.of_kind("edit-channel")
    assert len(edits) == 2 and all(e.path == f"/channels/{thread}" for e in edits)
    assert edits[-1].payload == {"archived": True} and world.recorder.threads[thread]["archived"]
    world.clock.advance(7200)
    await restarted.bot.sweep()
    assert len(world.recorder.of_kind("edit-channel")) == 2  # archived once


async def test_a_move_made_in_the_channel_ending_the_game_posts_the_result_in_the_thread_and_the_channel(
    world: World,
) -> None:
    await threads_on(world)
    match_id, _ = await challenge(world, ANA, BO)
    await accept(world, BO, match_id)
    thread = (await record_of(world, match_id)).thread_id
    calls = await world.command(ANA, CHANNEL, "pond", "resign")
    assert f"<#{thread}>" in only(calls, "edit-original").content
    assert "resigned" in world.recorder.boards(thread)[-1].content
    assert len(world.recorder.boards(CHANNEL)) == 1 and "**Bo** wins" in world.recorder.boards(CHANNEL)[0].content


def test_thread_names_fit_discord_and_show_names_plainly() -> None:
    record = MatchRecord(
        1, GUILD_ID, CHANNEL, "azul", {}, 1, (Seat(1, "Ana"), Seat(2, "Bo"), Seat(3, "Cy")), (), MatchStatus.ACTIVE,
        None, 1, None, None, None, 0.0, 0.0, None,
    )  # fmt: skip
    assert thread_name(record) == "Azul · Ana vs Bo vs Cy"
    odd = dataclasses.replace(record, players=(Seat(1, "**Ana**\nthe\tgreat"), Seat(2, "  "), Seat(3, "Cy\x00")))
    assert thread_name(odd) == "Azul · **Ana** the great vs ? vs Cy"
    long = dataclasses.replace(record, players=tuple(Seat(i, "W" * 64) for i in range(4)))
    name = thread_name(long)
    assert len(name) <= THREAD_NAME_LIMIT and name.startswith("Azul · W") and name.count("…") == 4
    assert name.count(" vs ") == 3


async def test_computer_seats_of_a_threaded_match_move_in_its_thread(world: World) -> None:
    await threads_on(world)
    reply = only(
        await world.command(ANA, CHANNEL, "azul", "start", opponent=BO, computers=2, difficulty="easy"), "reply"
    )
    await world.discord.press(BO, CHANNEL, reply.custom_ids[0])
    await settle()
    record = await world.bot.service.store.get(int(reply.custom_ids[0].rsplit(":", 1)[1]))
    assert record is not None and record.thread_id is not None
    state = world.bot.service.state_of(record)
    assert record.players[state.to_move or 0].user_id in (ANA.id, BO.id)  # the computers moved till a person is due
    boards = world.recorder.boards(record.thread_id)
    assert len(boards) == 1 + state.ply and world.recorder.boards(CHANNEL) == []


async def test_many_matches_in_two_channels_under_load_each_get_one_thread(tmp_path: Path) -> None:
    patch = Patch()
    load = ThreadLoad(tmp_path, 12, 2, seed=4, render_processes=0)
    try:
        await load.start(patch)
        row = await load.run_threads(1.0, 40.0)
        verified = await load.verify_threads()
    finally:
        await load.stop()
        patch.undo()
    assert row["moves"] > 12 and row["refused"] == 0
    assert verified["distinct_threads"] == row["threads_opened"] >= 12


FAILURES = {
    "429-via": Failure(429, via=True, retry_after=3),
    "429-cloudflare": Failure(429, via=False),
    "500": SERVER_ERROR,
    "500-after-it-landed": Failure(500, landed=True),
    "timeout": TIMEOUT,
    "timeout-after-it-landed": Failure(0, landed=True),
    "403-missing-permissions": MISSING_PERMISSIONS,
    "403-missing-access": Failure(403, 50001),
    "404-unknown-channel": Failure(404, 10003),
}
PERMANENT = {"403-missing-permissions", "403-missing-access", "404-unknown-channel"}


async def finished_in_thread(world: World) -> int:
    """Ana and Bo play in a thread until Bo resigns; return the thread."""
    await threads_on(world)
    match_id, _ = await challenge(world, ANA, BO)
    await accept(world, BO, match_id)
    thread = (await record_of(world, match_id)).thread_id
    assert thread is not None
    return thread


@pytest.mark.parametrize("name", list(FAILURES))
async def test_the_channels_result_line_reaches_it_once_whatever_discord_answers(world: World, name: str) -> None:
    thread = await finished_in_thread(world)
    world.recorder.fail("message", FAILURES[name])
    calls = await world.command(BO, thread, "pond", "resign")
    await settle()
    assert "wins" in only(calls, "followup").content  # the thread's board came through the interaction
    posted = world.recorder.boards(CHANNEL)
    if name in PERMANENT:
        assert posted == []
        failed = await world.bot.service.store.failed_announcements(
            (await world.bot.service.store.finished_matches(GUILD_ID, channel_id=CHANNEL))[0].id
        )
        assert len(failed) == 1 and failed[0].error
    else:
        assert len(posted) == 1 and f"<#{thread}>" in posted[0].content
    assert not await world.bot.service.store.pending_announcements()


@pytest.mark.parametrize("name", list(FAILURES))
async def test_archiving_a_thread_is_retried_while_discord_is_busy_and_given_up_when_refused(
    world: World, name: str
) -> None:
    thread = await finished_in_thread(world)
    await world.command(BO, thread, "pond", "resign")
    world.recorder.fail("edit-channel", FAILURES[name])
    world.clock.advance(3601)
    await world.bot.sweep()
    match = (await world.bot.service.store.finished_matches(GUILD_ID, channel_id=CHANNEL))[0]
    landed = FAILURES[name].landed
    if name in PERMANENT:
        assert match.archive_at is None and not world.recorder.threads[thread]["archived"]
    else:
        assert match.archive_at is not None and world.recorder.threads[thread]["archived"] == landed
        world.clock.advance(600)
        await world.bot.sweep()
        assert world.recorder.threads[thread]["archived"]
        match = (await world.bot.service.store.finished_matches(GUILD_ID, channel_id=CHANNEL))[0]
        assert match.archive_at is None
    calls = len(world.recorder.of_kind("edit-channel"))
    world.clock.advance(7200)
    await world.bot.sweep()
    assert len(world.recorder.of_kind("edit-channel")) == calls  # never again


async def test_games_against_the_computer_get_a_thread_each_from_the_reply(world: World) -> None:
    await threads_on(world)
    calls = await world.command(ANA, CHANNEL, "pond", "start", difficulty="easy")
    assert only(calls, "defer") and only(calls, "thread")
    record = (await world.bot.service.store.running_matches_of(GUILD_ID, ANA.id, "pond"))[0]
    assert record.thread_id is not None and record.thread_id == record.message_id
    assert world.recorder.threads[record.thread_id]["name"] in (
        "Pond · Ana vs Tabula (easy)",
        "Pond · Tabula (easy) vs Ana",
    )
    told = only(calls, "edit-original")
    assert f"<#{record.thread_id}>" in told.content and "game is on" in told.content
    await settle()
    boards = world.recorder.boards(record.thread_id)
    assert boards and "begins" in boards[0].content and mentioned(boards[0]) == {ANA.id}
    assert world.recorder.boards(CHANNEL) == []
    # A second game against the computer in the same channel gets its own thread too.
    more = await world.command(BO, CHANNEL, "pond", "start", difficulty="medium")
    assert only(more, "thread") and len(world.recorder.threads) == 2
    # Ana plays in her thread; the computer answers there.
    await settle()
    state = world.bot.service.state_of(await record_of(world, record.id))
    if (await record_of(world, record.id)).players[state.to_move or 0].user_id == ANA.id:
        move = state.move_text(state.legal_moves()[0]).split()
        options = {"cell": move[1]} if move[0] == "place" else {"from_": move[1], "to": move[2]}
        await world.command(ANA, record.thread_id, "pond", move[0], **options)
        await settle()
    assert len(world.recorder.boards(record.thread_id)) >= 3
    assert world.recorder.boards(CHANNEL) == []
