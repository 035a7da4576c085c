"""Every saved move reaches the players, whatever Discord answers.

Each test injects the errors Discord really answers at the HTTP edge (see
:meth:`tests.harness.Recorder.fail`) on one kind of post, then checks what
players would see: the move is saved once, its board and the next player's
mention exist exactly once when Discord recovers, the reply to the player who
acted is true ("saved, the board follows", never "try again"), and a restart in
the middle delivers what was pending.
"""

from __future__ import annotations

import pytest

from bot.core.computer_seats import computer_level
from bot.delivery.failures import backoff
from bot.storage.records import Delivery
from tests.bot_world import ANA, BO, World, only
from tests.harness import (
    MISSING_ACCESS,
    MISSING_PERMISSIONS,
    SERVER_ERROR,
    TIMEOUT,
    UNKNOWN_CHANNEL,
    UNKNOWN_INTERACTION,
    Call,
    Failure,
    settle,
)

TRANSIENT = {
    "429-with-via-and-retry-after": Failure(429, via=True, retry_after=3),
    "429-with-via-no-retry-after": Failure(429, via=True),
    "429-cloudflare-with-retry-after": Failure(429, via=False, retry_after=7),
    "429-cloudflare-no-retry-after": Failure(429, via=False),
    "500": SERVER_ERROR,
    "500-after-it-landed": Failure(500, landed=True),
    "timeout": TIMEOUT,
    "timeout-after-it-landed": Failure(0, landed=True),
}
PERMANENT = {
    "403-missing-permissions": MISSING_PERMISSIONS,
    "403-missing-access": MISSING_ACCESS,
    "404-unknown-interaction": UNKNOWN_INTERACTION,
    "404-unknown-channel": UNKNOWN_CHANNEL,
}
EVERY_FAILURE = {**TRANSIENT, **PERMANENT}


def mentioned(call: Call) -> list[int]:
    """The users a post may ping."""
    allowed = (call.data or {}).get("allowed_mentions") or {}
    return [int(user) for user in allowed.get("users", [])]


def assert_truthful(calls: list[Call]) -> None:
    """Nothing the bot said asks to retry an action that succeeded, or claims it failed."""
    for call in calls:
        assert "try again" not in call.content and "went wrong" not in call.content, call.content


async def move_with(world: World, channel: int) -> tuple[list[Call], int, int]:
    """The player to move places an egg; return the calls, the log length before, and who moves next."""
    record, state = await world.bot.service.running(channel, "pond")
    mover = {ANA.id: ANA, BO.id: BO}[record.players[state.to_move].user_id]
    other = next(seat.user_id for seat in record.players if seat.user_id != mover.id)
    before = len(await world.bot.service.store.log(record.id))
    cell = state.move_text(next(m for m in state.legal_moves() if m.frm < 0)).split()[1]
    calls = await world.command(mover, channel, "pond", "place", cell=cell)
    return calls, before, other


async def logged(world: World, channel: int) -> int:
    record = await world.bot.service.store.open_match(channel)
    return len(await world.bot.service.store.log(record.id))


@pytest.mark.parametrize("name", list(EVERY_FAILURE))
async def test_a_move_whose_board_follow_up_fails_reaches_the_channel_once(world: World, name: str) -> None:
    channel = 1100
    await world.start_pond(channel)
    boards_before = len(world.recorder.boards(channel))
    world.recorder.fail("followup", EVERY_FAILURE[name])
    calls, before, following = await move_with(world, channel)
    assert await logged(world, channel) == before + 1  # saved once
    boards = world.recorder.boards(channel)[boards_before:]
    assert len(boards) == 1, [b.kind for b in boards]  # posted once, whether the first try landed or not
    assert f"<@{following}>" in boards[0].content and mentioned(boards[0]) == [following]
    assert_truthful(calls)
    if boards[0].kind == "message":  # the board went to the channel: the mover was told their move is saved
        assert "is saved" in only(calls, "edit-original").content


@pytest.mark.parametrize("name", ["500-five-times", *TRANSIENT])
async def test_the_computers_board_is_retried_until_discord_takes_it(world: World, name: str) -> None:
    channel = 1200
    await world.command(ANA, channel, "pond", "start", difficulty="easy")
    failure, times = (SERVER_ERROR, 5) if name == "500-five-times" else (TRANSIENT[name], 1)
    world.recorder.fail("message", failure, times)
    boards_before = len(world.recorder.boards(channel))
    _, before, _ = await move_with(world, channel)
    await settle()
    record = await world.bot.service.store.open_match(channel)
    state = world.bot.service.state_of(record)
    assert await logged(world, channel) == before + 2  # Ana's move and the computer's, each saved once
    boards = world.recorder.boards(channel)[boards_before:]
    assert [b.kind for b in boards] == ["followup", "message"]  # Ana's board, then the computer's, once each
    assert f"<@{ANA.id}>" in boards[1].content and mentioned(boards[1]) == [ANA.id]
    assert computer_level(record.players[state.to_move].user_id) is None
    if failure.retry_after is not None:
        assert world.sleeper.delays[0] == failure.retry_after  # Retry-After honoured, with or without Via
    elif times == 5:
        assert world.sleeper.delays == [backoff(n) for n in range(1, 6)]
    assert not await world.bot.service.store.pending_announcements()


@pytest.mark.parametrize("name", ["403-missing-permissions", "403-missing-access", "404-unknown-channel"])
async def test_a_permanent_refusal_stops_retrying_and_the_game_stays_playable(world: World, name: str) -> None:
    channel = 1300
    await world.command(ANA, channel, "pond", "start", difficulty="easy")
    world.recorder.fail("message", PERMANENT[name], times=100)
    posts_before = len(world.recorder.of_kind("message"))
    await move_with(world, channel)
    await settle()
    assert len(world.recorder.of_kind("message")) == posts_before + 1  # tried once, not retried
    record = await world.bot.service.store.open_match(channel)
    # The computer's answer reached Ana all the same, as a follow-up to her move.
    answer = world.recorder.of_kind("followup")[-1]
    assert answer.board is not None and f"<@{ANA.id}>" in answer.content
    assert not await world.bot.service.store.failed_announcements(record.id)
    if name == "404-unknown-channel":
        # The channel is gone: the game goes on in the replies to the players' commands, and says so.
        assert record.followups and "replies to your commands" in answer.content
        board = only(await world.command(ANA, channel, "pond", "board"), "followup")
        assert board.board is not None and "replies to your commands" in board.content
        return
    assert "could not post" in answer.content
    # With the follow-ups refused too, nothing reaches anyone: the announcements are given up, with the reason.
    world.recorder.fail("followup", UNKNOWN_INTERACTION, times=100)
    await move_with(world, channel)
    await settle()
    failed = await world.bot.service.store.failed_announcements(record.id)
    assert failed and all(f.status == Delivery.FAILED for f in failed)
    world.recorder.heal()
    # /pond board always works: a follow-up needs no permission in the channel, and it says what to fix.
    board = only(await world.command(ANA, channel, "pond", "board"), "followup")
    assert board.board is not None and "could not post" in board.content
    if name == "403-missing-permissions":
        assert "Send Messages and Attach Files" in board.content and "server admin" in board.content
    if name == "403-missing-access":
        assert "View Channel" in board.content
    assert not await world.bot.service.store.failed_announcements(record.id)  # explained once
    _, before, _ = await move_with(world, channel)  # and the game goes on
    assert await logged(world, channel) >= before + 1


@pytest.mark.parametrize("name", list(EVERY_FAILURE))
async def test_a_move_whose_deferral_fails_is_saved_and_its_board_posted_in_the_channel(
    world: World, name: str
) -> None:
    channel = 1400
    await world.start_pond(channel)
    boards_before = len(world.recorder.boards(channel))
    world.recorder.fail("defer", EVERY_FAILURE[name])
    calls, before, following = await move_with(world, channel)
    assert await logged(world, channel) == before + 1
    boards = world.recorder.boards(channel)[boards_before:]
    assert [b.kind for b in boards] == ["message"] and mentioned(boards[0]) == [following]
    assert_truthful(calls)


@pytest.mark.parametrize("name", list(EVERY_FAILURE))
async def test_a_challenge_whose_message_fails_never_blocks_the_channel(world: World, name: str) -> None:
    channel = 1500
    world.recorder.fail("reply", EVERY_FAILURE[name])
    await world.command(ANA, channel, "pond", "start", opponent=BO)
    record = await world.bot.service.store.open_match(channel)
    if EVERY_FAILURE[name].landed:
        # The message exists after all (the original response says so): the challenge stands, with its message.
        assert record is not None and record.status == "challenge" and record.message_id is not None
        return
    assert record is None  # nothing half-made
    reply = await world.challenge(BO, ANA, channel)  # the channel is free at once
    assert "challenges" in reply.content


@pytest.mark.parametrize("name", list(EVERY_FAILURE))
async def test_an_accept_whose_edit_fails_still_starts_the_game_visibly(world: World, name: str) -> None:
    channel = 1600
    reply = await world.challenge(ANA, BO, channel)
    world.recorder.fail("edit", EVERY_FAILURE[name])
    calls = await world.discord.press(BO, channel, reply.custom_ids[0])
    record = await world.bot.service.store.open_match(channel)
    assert record.status == "active"
    state = world.bot.service.state_of(record)
    opening = only(calls, "message")  # the opening board, as a new message
    assert opening.board is not None and mentioned(opening) == [record.players[state.to_move].user_id]
    closed = only(calls, "edit-message")  # and the challenge message loses its buttons all the same
    assert closed.data.get("components") == [] and "accepted" in closed.content
    assert_truthful(calls)


async def test_a_restart_in_the_middle_of_an_outage_delivers_what_was_pending(world: World) -> None:
    channel = 1700
    await world.start_pond(channel)
    boards_before = len(world.recorder.boards(channel))
    world.sleeper.hold = True  # Discord stays down: the retry waits…
    world.recorder.fail("followup", SERVER_ERROR)
    world.recorder.fail("message", SERVER_ERROR)
    calls, before, following = await move_with(world, channel)
    assert await logged(world, channel) == before + 1
    assert len(world.recorder.boards(channel)) == boards_before
    assert "is saved" in only(calls, "edit-original").content  # the mover knows
    assert_truthful(calls)
    # …and the bot goes down before Discord recovers.
    restarted = await world.restart()
    world.bot = restarted.bot
    world.recorder.heal()
    assert await restarted.bot.announcer.resume(everything=True) == 1  # what setup_hook does at start
    await settle()
    boards = world.recorder.boards(channel)[boards_before:]
    assert len(boards) == 1 and boards[0].kind == "message" and mentioned(boards[0]) == [following]
    assert not await restarted.bot.service.store.pending_announcements()


async def test_an_expired_challenge_is_closed_even_through_an_outage(world: World) -> None:
    await world.challenge(ANA, BO, 1800)
    world.recorder.fail("edit-message", SERVER_ERROR, times=3)
    world.clock.advance(16 * 60)
    assert await world.bot.sweep() == 1
    await settle()
    edits = world.recorder.of_kind("edit-message")
    assert len(edits) == 4 and edits[-1].data.get("components") == [] and "expired" in edits[-1].content
    assert not await world.bot.service.store.pending_announcements()
    assert world.sleeper.delays == [backoff(1), backoff(2), backoff(3)]


async def test_closing_a_challenge_message_that_was_deleted_is_not_retried(world: World) -> None:
    await world.challenge(ANA, BO, 1801)
    world.recorder.fail("edit-message", Failure(404, 10008), times=10)
    world.clock.advance(16 * 60)
    assert await world.bot.sweep() == 1
    await settle()
    assert len(world.recorder.of_kind("edit-message")) == 1
    assert not await world.bot.service.store.pending_announcements()
