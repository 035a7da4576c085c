"""Every game survives what moderators and Discord do to its thread.

Moderators' actions arrive as Discord sends them: gateway events (THREAD_UPDATE with
``thread_metadata.archived``/``locked``, THREAD_DELETE, CHANNEL_DELETE) and the answers to later requests
(400 code 50083 in an archived thread, 403 on reopening a locked one, 404 code 10003 where a channel is
gone), all from the fake Discord edge (:mod:`bench.discord_fake`).  Each test checks what players see:
every saved move's board and the next player's mention exist exactly once at a place they can see,
each message names the place where the game really is, the game can be played to its end (or ended by
an admin), and nothing is logged as an error.
"""

from __future__ import annotations

import logging

import pytest

from bot.storage.records import MatchRecord, MatchStatus, Moved, ThreadMode
from tests.bot.delivery.test_threads import accept, challenge, mentioned, mover, record_of, threads_on
from tests.bot_world import ANA, BO, MOD, World, only
from tests.harness import GUILD_ID, MISSING_PERMISSIONS, Call, option, settle

CHANNEL = 2801
ELSEWHERE = 2899  # another channel of the server


@pytest.fixture(autouse=True)
def no_errors(caplog: pytest.LogCaptureFixture) -> object:
    """Nothing that happens here is an error: fail on any ERROR logged (and on a traceback at WARNING)."""
    caplog.set_level(logging.INFO)
    yield
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR or (r.levelno >= logging.WARNING and r.exc_info)]
    assert not bad, [r.getMessage() for r in bad]


async def thread_match(world: World) -> tuple[int, int]:
    """Ana challenges Bo in CHANNEL, Bo accepts: the match is played in its thread; (match, thread)."""
    await threads_on(world)
    await world.discord.guild_create([CHANNEL, ELSEWHERE])
    match_id, _ = await challenge(world, ANA, BO, CHANNEL)
    await accept(world, BO, match_id, CHANNEL)
    thread = (await record_of(world, match_id)).thread_id
    assert thread is not None
    return match_id, thread


def new_boards(world: World, since: int) -> list[Call]:
    """The boards that exist among the messages made since ``since`` (an index into ``created``)."""
    return [c for c in world.recorder.created[since:] if c.board is not None]


async def play(world: World, match_id: int, channel: int) -> tuple[list[Call], int, list[Call]]:
    """The player to move places an egg from ``channel``; return the calls, who moves next, and the boards
    made, after checking the move was saved and its board pings the next player exactly once."""
    record = await record_of(world, match_id)
    state = world.bot.service.state_of(record)
    player = await mover(world, match_id)
    since = len(world.recorder.created)
    cell = state.move_text(next(m for m in state.legal_moves() if m.frm < 0)).split()[1]
    calls = await world.command(player, channel, "pond", "place", cell=cell)
    after = await record_of(world, match_id)
    assert after.version == record.version + 1, [c.content for c in calls]  # saved once
    following = next(s.user_id for s in after.players if s.user_id != player.id)
    boards = new_boards(world, since)
    pinging = [b for b in boards if following in mentioned(b)]
    assert len(pinging) == 1 and f"<@{following}>" in pinging[0].content, [b.content for b in boards]
    return calls, following, boards


def visible(world: World, call: Call) -> bool:
    """A message players can see: it exists, and its channel was not deleted."""
    return world.recorder.channel_of(call) not in world.recorder.deleted


async def finish(world: World, match_id: int, channel: int) -> MatchRecord:
    player = await mover(world, match_id)
    calls = await world.command(player, channel, "pond", "resign")
    assert any("resigned" in c.content for c in calls + world.recorder.created[-3:])
    record = await record_of(world, match_id)
    assert record.status == MatchStatus.FINISHED
    return record


async def test_a_locked_thread_moves_the_game_to_its_channel_and_says_so_once(world: World) -> None:
    match_id, thread = await thread_match(world)
    since = len(world.recorder.created)
    await world.discord.thread_update(thread, archived=True, locked=True)  # a moderator archives and locks it
    record = await record_of(world, match_id)
    assert record.moved == Moved.LOCKED and record.thread_id is None and record.thread_mode == ThreadMode.CHANNEL
    moved = new_boards(world, since)
    assert len(moved) == 1 and world.recorder.channel_of(moved[0]) == CHANNEL
    to_move = (await mover(world, match_id)).id
    assert mentioned(moved[0]) == {to_move} and f"<@{to_move}>" in moved[0].content
    assert "locked by a moderator" in moved[0].content and f"<#{CHANNEL}>" in moved[0].content
    # A second event about the same thread changes nothing; a restart loses nothing.
    await world.discord.thread_update(thread, archived=True, locked=True)
    world = await world.restart()
    assert len(new_boards(world, since)) == 1
    calls, _, boards = await play(world, match_id, CHANNEL)
    assert [world.recorder.channel_of(b) for b in boards] == [CHANNEL] and only(calls, "followup").board
    board = only(await world.command(ANA, CHANNEL, "pond", "board"), "followup")
    assert "is played in" not in board.content  # it is played right here
    await play(world, match_id, CHANNEL)
    await finish(world, match_id, CHANNEL)
    assert "locked" not in world.recorder.created[-1].content  # said once
    await world.stop()


@pytest.mark.parametrize("from_thread", [True, False], ids=["moved-in-the-thread", "moved-in-the-channel"])
async def test_a_move_in_a_locked_thread_nobody_told_the_bot_about_reaches_the_channel(
    world: World, from_thread: bool
) -> None:
    match_id, thread = await thread_match(world)
    # Locked while the bot was away: it learns it from Discord's answers, not an event.
    world.recorder.threads[thread].update(archived=True, locked=True)
    world = await world.restart()
    calls, _, boards = await play(world, match_id, thread if from_thread else CHANNEL)
    if from_thread:  # (a moderator's client still shows it) Discord refuses the interaction's answers there
        assert not [c for c in calls if c.kind in ("followup", "edit-original")]
    else:  # the board, the next player and the line come as the answer to the mover's command
        assert only(calls, "followup") is boards[0]
    patch = only(calls, "edit-channel")  # the bot tried to reopen it first
    assert patch.payload == {"archived": False} and patch.path == f"/channels/{thread}"
    assert len(boards) == 1 and world.recorder.channel_of(boards[0]) == CHANNEL and visible(world, boards[0])
    assert "locked by a moderator" in boards[0].content and f"<#{CHANNEL}>" in boards[0].content
    record = await record_of(world, match_id)
    assert record.place_id == CHANNEL and not await world.bot.service.store.pending_announcements()
    calls, _, boards = await play(world, match_id, CHANNEL)  # and the game goes on, said once
    assert "locked" not in boards[0].content
    await finish(world, match_id, CHANNEL)
    await world.stop()


async def test_an_archived_thread_is_reopened_and_the_board_posted_there(world: World) -> None:
    match_id, thread = await thread_match(world)
    await world.discord.thread_update(thread, archived=True)  # archived (by hand, or inactivity), not locked
    assert (await record_of(world, match_id)).thread_id == thread  # nothing moves
    calls, _, boards = await play(world, match_id, CHANNEL)
    assert only(calls, "edit-channel").payload == {"archived": False}
    assert [world.recorder.channel_of(b) for b in boards] == [thread]
    assert not world.recorder.threads[thread]["archived"]
    told = only(calls, "edit-original")
    assert f"<#{thread}>" in told.content and "saved" in told.content
    await finish(world, match_id, thread)
    world.clock.advance(3601)
    await world.bot.sweep()  # a finished match's thread is still archived by the bot an hour later
    assert world.recorder.threads[thread]["archived"]
    assert world.recorder.of_kind("edit-channel")[-1].payload == {"archived": True}


@pytest.mark.parametrize("told", [True, False], ids=["thread-delete-event", "found-by-404"])
async def test_a_deleted_thread_gets_a_new_one_from_the_channel(world: World, told: bool) -> None:
    match_id, thread = await thread_match(world)
    since = len(world.recorder.created)
    if told:
        await world.discord.thread_delete(thread)
        world = await world.restart()
    else:  # deleted while the bot was away: a move from the channel finds out
        world.recorder.deleted.add(thread)
        world = await world.restart()
        calls, _, boards = await play(world, match_id, CHANNEL)
    record = await record_of(world, match_id)
    new = record.thread_id
    assert record.moved == Moved.DELETED and new is not None and new != thread and new in world.recorder.threads
    assert world.recorder.threads[new]["parent"] == CHANNEL
    starter = [c for c in world.recorder.created[since:] if world.recorder.channel_of(c) == CHANNEL]
    assert len(starter) == 1 and "was deleted" in starter[0].content and starter[0].board is None
    boards = new_boards(world, since)
    assert len(boards) == 1 and world.recorder.channel_of(boards[0]) == new
    assert mentioned(boards[0]) == {ANA.id, BO.id}  # the first post in the new thread brings both in
    assert "thread was deleted" in boards[0].content and f"<#{new}>" in boards[0].content
    if not told:
        assert f"<#{new}>" in only(calls, "edit-original").content  # the mover is told where the game is
    calls, _, boards = await play(world, match_id, CHANNEL)
    assert [world.recorder.channel_of(b) for b in boards] == [new]
    assert f"<#{new}>" in only(calls, "edit-original").content
    board = only(await world.command(ANA, CHANNEL, "pond", "board"), "followup")
    assert f"<#{new}>" in board.content and f"<#{thread}>" not in board.content
    await finish(world, match_id, new)
    parent = world.recorder.boards(CHANNEL)[-1]
    assert f"<#{new}>" in parent.content and "wins" in parent.content
    await world.stop()


async def test_a_deleted_channel_leaves_the_game_to_the_replies_to_commands(world: World) -> None:
    match_id, _ = await thread_match(world)
    since = len(world.recorder.created)
    await world.discord.channel_delete(CHANNEL)  # its threads go with it
    record = await record_of(world, match_id)
    assert record.followups and record.moved == Moved.GONE
    assert not [c for c in world.recorder.created[since:] if visible(world, c)]  # nowhere to post
    world = await world.restart()
    _, _, boards = await play(world, match_id, ELSEWHERE)
    assert [b.kind for b in boards] == ["followup"] and world.recorder.channel_of(boards[0]) == ELSEWHERE
    assert "replies to your commands" in boards[0].content
    _, _, boards = await play(world, match_id, ELSEWHERE)
    assert "replies to your commands" not in boards[0].content  # said once
    board = only(await world.command(BO, ELSEWHERE, "pond", "board"), "followup")
    assert "replies to your commands" in board.content and f"<#{CHANNEL}>" not in board.content
    # An admin can end it from anywhere.
    reply = only(await world.command(MOD, ELSEWHERE, "tabula", "end", match=match_id, reason="channel gone"), "reply")
    assert reply.ephemeral and f"{match_id}" in reply.content
    ended = await record_of(world, match_id)
    assert ended.status == MatchStatus.CANCELLED and ended.end_reason == "channel gone"
    await world.stop()


async def test_an_admin_ends_any_running_match_from_any_channel(world: World) -> None:
    match_id, thread = await thread_match(world)
    choices = await world.discord.autocomplete(
        MOD, ELSEWHERE, "tabula", "end", [{"name": "match", "type": 4, "value": "", "focused": True}]
    )
    assert choices == [match_id]
    assert (
        await world.discord.autocomplete(
            ANA, ELSEWHERE, "tabula", "end", [{"name": "match", "type": 4, "value": "", "focused": True}]
        )
        == []
    )
    refused = only(await world.command(ANA, ELSEWHERE, "tabula", "end", match=match_id), "reply")
    assert refused.ephemeral and "Manage Server" in refused.content
    assert (await record_of(world, match_id)).status == MatchStatus.ACTIVE
    calls = await world.command(MOD, ELSEWHERE, "tabula", "end", match=match_id, reason="abusive names")
    reply = only(calls, "reply")
    assert reply.ephemeral and f"<#{thread}>" in reply.content
    said = [c for c in world.recorder.created if world.recorder.channel_of(c) == thread][-1]
    assert "Mod ended" in said.content and "abusive names" in said.content and mentioned(said) == {ANA.id, BO.id}
    record = await record_of(world, match_id)
    assert record.status == MatchStatus.CANCELLED and record.end_reason == "abusive names"
    again = only(await world.command(MOD, ELSEWHERE, "tabula", "end", match=match_id), "reply")
    assert "no running game" in again.content
    # The server's own settings say nothing of it; the thread is archived an hour later as usual.
    world.clock.advance(3601)
    await world.bot.sweep()
    assert world.recorder.threads[thread]["archived"]


@pytest.mark.parametrize("threads", [True, False], ids=["in-its-thread", "in-the-channel"])
async def test_the_computers_refused_move_still_reaches_the_player(world: World, threads: bool) -> None:
    await world.bot.store.settings.change(GUILD_ID, threads=threads)
    await world.discord.guild_create([CHANNEL])
    await world.command(ANA, CHANNEL, "pond", "start", difficulty="easy")
    await settle()
    record = (await world.bot.service.store.running_matches_of(GUILD_ID, ANA.id, "pond"))[0]
    place = record.place_id
    assert (place != CHANNEL) == threads
    # Discord refuses the computer's next post where the game is played (403 in the thread, or the channel).
    world.recorder.fail("message", MISSING_PERMISSIONS, times=1 if threads else 10)
    state = world.bot.service.state_of(record)
    assert record.players[state.to_move or 0].user_id == ANA.id
    cell = state.move_text(next(m for m in state.legal_moves() if m.frm < 0)).split()[1]
    since = len(world.recorder.created)
    await world.command(ANA, place, "pond", "place", cell=cell)
    await settle()
    after = await record_of(world, record.id)
    assert after.version == record.version + 2  # Ana's move and the computer's answer, each saved once
    boards = new_boards(world, since)
    assert boards[0].kind == "followup"  # Ana's own board
    answers = [b for b in boards if ANA.id in mentioned(b)]
    assert len(answers) == 1 and visible(world, answers[0])  # the computer's board, pinging Ana, once
    if threads:  # refused in the thread for good: the game moved to the channel, and says so there
        assert world.recorder.channel_of(answers[0]) == CHANNEL and after.place_id == CHANNEL
        assert "can no longer post in this game's thread" in answers[0].content
        assert f"<#{CHANNEL}>" in answers[0].content
    else:  # the channel refuses: the answer came as a follow-up to Ana's move, saying what to fix
        assert answers[0].kind == "followup" and "could not post" in answers[0].content
    assert not await world.bot.service.store.pending_announcements()


async def test_a_doubled_delivery_is_applied_once_and_dropped_quietly(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    match_id, thread = await thread_match(world)
    record = await record_of(world, match_id)
    state = world.bot.service.state_of(record)
    player = await mover(world, match_id)
    cell = state.move_text(next(m for m in state.legal_moves() if m.frm < 0)).split()[1]
    payload = world.discord.command_payload(player, thread, "pond", "place", [option("cell", cell)])
    since = len(world.recorder.created)
    first = await world.discord.send(payload)
    second = await world.discord.send(payload)  # Discord re-sends it after a gateway resume
    assert only(first, "followup").board is not None
    assert [c.kind for c in second] == ["reply"]  # the one answer tried was refused: 40060
    assert (await record_of(world, match_id)).version == record.version + 1
    assert len(new_boards(world, since)) == 1
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert any("doubled delivery" in r.getMessage() for r in caplog.records)


async def test_an_admin_who_gives_no_reason_ends_the_game_in_the_servers_language(world: World) -> None:
    match_id, thread = await thread_match(world)
    await world.bot.store.settings.set_language(GUILD_ID, "fr")
    reply = only(await world.command(MOD, ELSEWHERE, "tabula", "end", match=match_id), "reply")
    assert reply.ephemeral and f"{match_id}" in reply.content
    said = [c for c in world.recorder.created if world.recorder.channel_of(c) == thread][-1]
    line = said.content.splitlines()[-1]
    assert line.startswith("🛑 Mod a terminé cette partie de Pond") and line.endswith(
        "ne compte pas pour le classement."
    )
    assert " : " not in line  # no reason given, none made up
    assert (await record_of(world, match_id)).status == MatchStatus.CANCELLED


async def test_a_game_left_to_the_replies_is_found_from_anywhere_beside_a_game_in_its_thread(world: World) -> None:
    homeless, _ = await thread_match(world)
    await world.discord.channel_delete(CHANNEL)
    assert (await record_of(world, homeless)).followups
    other, _ = await challenge(world, ANA, BO, ELSEWHERE)
    await accept(world, BO, other, ELSEWHERE)
    other_thread = (await record_of(world, other)).thread_id
    assert other_thread is not None
    # From a channel that is neither game's place, a command means the game that has no place.
    board = only(await world.command(BO, ELSEWHERE, "pond", "board"), "followup")
    assert f"#{homeless}" in board.content or "replies to your commands" in board.content
    assert f"<#{CHANNEL}>" not in board.content
    _, _, boards = await play(world, homeless, ELSEWHERE)
    assert [b.kind for b in boards] == ["followup"]
    # In its thread, the other game is found as before, and a move there plays it.
    before = (await record_of(world, other)).version
    _, _, _ = await play(world, other, other_thread)
    assert (await record_of(world, other)).version == before + 1
    await world.stop()
