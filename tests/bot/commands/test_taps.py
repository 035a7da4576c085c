"""Moves by taps from the board post, through discord.py's real command tree, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random

import pytest

from bench.discord_fake import MISSING_PERMISSIONS, UNKNOWN_INTERACTION, Call, settle
from bench.taps import MOST_TAPS, PEOPLE, SETUPS, Setup, TapPlayer
from bot.commands.taps import BACK, PICK, PLAY, TAKEBACK
from bot.core.computer_seats import computer_level
from tests.bot_world import World
from tests.harness import option

CHANNEL = 4200
ANA, BO, CY, DEE = PEOPLE


def player(world: World, seed: int = 1) -> TapPlayer:
    return TapPlayer(world.bot, world.discord, world.recorder, random.Random(seed))


async def current(world: World, match_id: int):  # type: ignore[no-untyped-def]
    record = await world.bot.service.store.get(match_id)
    assert record is not None
    return record, world.bot.service.state_of(record)


def by_kind(calls: list[Call], *kinds: str) -> list[Call]:
    return [c for c in calls if c.kind in kinds]


# -- whole games ----------------------------------------------------------------------------------------------------


QUICK = {0, 1, 8, 10}  # one game of each kind stays in the quick run; the rest are marked slow


@pytest.mark.parametrize(
    "setup",
    [pytest.param(s, id=s.label, marks=() if i in QUICK else pytest.mark.slow) for i, s in enumerate(SETUPS)],
)
async def test_whole_games_are_played_by_taps_alone(world: World, setup: Setup) -> None:
    taps = player(world, seed=len(setup.label))
    match_id = await taps.start(setup, CHANNEL)
    counts = await taps.play_out(match_id)
    record, state = await current(world, match_id)
    assert record.status == "finished" and state.outcome() is not None
    assert counts and max(counts) <= MOST_TAPS[setup.game]
    # The log is the game: replaying it gives the final state.
    assert (await world.bot.service.replay(record)).to_json() == record.state


async def test_confirmation_off_plays_at_the_last_choice(world: World) -> None:
    taps = player(world)
    await taps.set_confirm(False, CHANNEL)
    match_id = await taps.start(Setup("summer", {"board": "square"}), CHANNEL)
    counts = [await taps.move(match_id) for _ in range(6)]
    assert max(counts) <= MOST_TAPS["summer"] - 1
    shown = await world.discord.command(ANA, CHANNEL, "settings", "", [])
    text = by_kind(shown, "reply")[0]
    assert text.ephemeral and "Confirm moves made by taps: **off**" in text.content


# -- one move, step by step -----------------------------------------------------------------------------------------


async def start_summer(world: World) -> tuple[TapPlayer, int]:
    taps = player(world)
    return taps, await taps.start(Setup("summer", {"board": "square"}), CHANNEL)


async def test_a_move_step_by_step_with_preview_back_and_play(world: World) -> None:
    taps, match_id = await start_summer(world)
    record, state = await current(world, match_id)
    mover = PEOPLE[[p.id for p in PEOPLE].index(record.players[state.to_move].user_id)]
    post = taps.board_post(match_id, record.version)
    (menu, options), *_ = post.menus.items()
    assert all(len(opts) <= 25 for opts in post.menus.values()) and len(post.menus) <= 4
    label, value = options[0]
    assert " on " in label  # words a player reads: "7 on a1"
    step = await world.discord.pick(mover, CHANNEL, menu, value)
    reply = by_kind(step, "reply")[0]
    assert reply.ephemeral and reply.menus and "now choose" in reply.content
    (menu2, options2), *_ = reply.menus.items()
    assert all("→" in label for label, _ in options2)
    back = next(cid for cid in reply.custom_ids if cid.startswith("tabula:back:"))
    preview = await world.discord.pick(mover, CHANNEL, menu2, options2[0][1], ephemeral=True)
    shown = by_kind(preview, "edit-original")[0]
    assert shown.board is not None and "Play it?" in shown.content
    play = next(cid for cid in shown.custom_ids if cid.startswith("tabula:play:"))
    back_from_preview = next(cid for cid in shown.custom_ids if cid.startswith("tabula:back:"))
    # Back: the step before again, without the picture; nothing is played.
    again = by_kind(await world.discord.press(mover, CHANNEL, back_from_preview, ephemeral=True), "edit")[0]
    assert again.menus and not again.board
    assert (await current(world, match_id))[0].version == record.version
    # Back once more: the first step, privately.
    first = by_kind(await world.discord.press(mover, CHANNEL, back, ephemeral=True), "edit")[0]
    assert first.menus
    # Play: the move counts once, and the board goes to the game's channel with the next player's controls.
    played = await world.discord.press(mover, CHANNEL, play, ephemeral=True)
    assert "You played" in by_kind(played, "edit")[0].content
    after, _ = await current(world, match_id)
    assert after.version == record.version + 1
    assert taps.board_post(match_id, after.version).board is not None


async def test_someone_else_is_told_whose_turn_it_is(world: World) -> None:
    taps, match_id = await start_summer(world)
    record, state = await current(world, match_id)
    waiting = next(p for p in PEOPLE[:2] if p.id != record.players[state.to_move].user_id)
    (menu, options), *_ = taps.board_post(match_id, record.version).menus.items()
    for who in (waiting, CY):
        answer = by_kind(await world.discord.pick(who, CHANNEL, menu, options[0][1]), "reply")[0]
        assert answer.ephemeral and "turn" in answer.content and not answer.menus
    assert (await current(world, match_id))[0].version == record.version


async def test_an_old_board_is_refused_and_the_current_one_shown(world: World) -> None:
    taps, match_id = await start_summer(world)
    record, _ = await current(world, match_id)
    old = taps.board_post(match_id, record.version)
    await taps.move(match_id)
    (menu, options), *_ = old.menus.items()
    mover_now = (await current(world, match_id))[1].to_move
    someone = PEOPLE[0]
    calls = await world.discord.pick(someone, CHANNEL, menu, options[0][1])
    shown = by_kind(calls, "followup")[0]
    assert shown.ephemeral and "no longer the game's current one" in shown.content and shown.board is not None
    newer, _ = await current(world, match_id)
    assert newer.version == record.version + 1 and mover_now is not None
    assert any(f":{match_id}:{newer.version}:" in cid for cid in shown.custom_ids)  # its controls are current


async def test_two_presses_of_play_at_once_play_once(world: World) -> None:
    _, match_id = await start_summer(world)
    record, state = await current(world, match_id)
    mover = PEOPLE[[p.id for p in PEOPLE].index(record.players[state.to_move].user_id)]
    move = state.legal_moves()[0]
    fields = world.bot.service.state_of(record)
    from bot.core.taps import joined, walk
    from engines import GAMES

    kind, named = GAMES["summer"].moves.describe(fields, move)
    path = joined((f"{kind},{named['from']}", named["to"]))
    assert walk(state, GAMES["summer"].moves, path.split("/")).move == move
    play = PLAY.build(match=match_id, version=record.version, path=path)
    payloads = [world.discord.button_payload(mover, CHANNEL, play, 7) for _ in range(2)]
    for payload in payloads:
        payload["message"]["flags"] = 64
        world.bot._connection.parse_interaction_create(payload)  # both arrive before either is answered
    await settle()
    after, _ = await current(world, match_id)
    assert after.version == record.version + 1
    log = await world.bot.service.store.log(match_id)
    assert len(log) == 1


async def test_the_controls_work_after_a_restart_mid_choice(world: World) -> None:
    taps, match_id = await start_summer(world)
    record, state = await current(world, match_id)
    mover = PEOPLE[[p.id for p in PEOPLE].index(record.players[state.to_move].user_id)]
    (menu, options), *_ = taps.board_post(match_id, record.version).menus.items()
    step = by_kind(await world.discord.pick(mover, CHANNEL, menu, options[0][1]), "reply")[0]
    restarted = await world.restart()
    (menu2, options2), *_ = step.menus.items()
    preview = await restarted.discord.pick(mover, CHANNEL, menu2, options2[0][1], ephemeral=True)
    play = next(cid for c in preview for cid in c.custom_ids if cid.startswith("tabula:play:"))
    await restarted.discord.press(mover, CHANNEL, play, ephemeral=True)
    after = await restarted.bot.service.store.get(match_id)
    assert after is not None and after.version == record.version + 1
    world.bot = restarted.bot  # the fixture stops the bot that runs now
    world.discord = restarted.discord


async def test_made_up_custom_ids_change_nothing(world: World) -> None:
    _, match_id = await start_summer(world)
    record, state = await current(world, match_id)
    mover = PEOPLE[[p.id for p in PEOPLE].index(record.players[state.to_move].user_id)]
    bad = PICK.build(part=0, match=match_id, version=record.version, path="move,z9")
    calls = await world.discord.pick(mover, CHANNEL, bad, "z1")
    assert any(c.ephemeral for c in calls)
    back = BACK.build(match=match_id, version=record.version, path="nonsense")
    await world.discord.press(mover, CHANNEL, back, ephemeral=True)
    assert (await current(world, match_id))[0].version == record.version


async def test_a_refused_private_answer_changes_nothing(world: World) -> None:
    taps, match_id = await start_summer(world)
    record, state = await current(world, match_id)
    mover = PEOPLE[[p.id for p in PEOPLE].index(record.players[state.to_move].user_id)]
    (menu, options), *_ = taps.board_post(match_id, record.version).menus.items()
    for failure in (UNKNOWN_INTERACTION, MISSING_PERMISSIONS):
        world.recorder.fail("reply", failure)
        await world.discord.pick(mover, CHANNEL, menu, options[0][1])
        assert (await current(world, match_id))[0].version == record.version
    # And the next try works.
    assert await taps.move(match_id) <= MOST_TAPS["summer"]


async def test_a_move_played_when_its_private_step_cannot_be_updated_still_reaches_the_board(world: World) -> None:
    taps, match_id = await start_summer(world)
    await taps.set_confirm(False, CHANNEL)
    record, state = await current(world, match_id)
    mover = PEOPLE[[p.id for p in PEOPLE].index(record.players[state.to_move].user_id)]
    (menu, options), *_ = taps.board_post(match_id, record.version).menus.items()
    step = by_kind(await world.discord.pick(mover, CHANNEL, menu, options[0][1]), "reply")[0]
    (menu2, options2), *_ = step.menus.items()
    world.recorder.fail("edit", UNKNOWN_INTERACTION)
    await world.discord.pick(mover, CHANNEL, menu2, options2[0][1], ephemeral=True)
    after, _ = await current(world, match_id)
    assert after.version == record.version + 1
    assert taps.board_post(match_id, after.version).board is not None


# -- taking a move back ------------------------------------------------------------------------------------------


async def test_a_move_is_taken_back_when_the_opponent_agrees(world: World) -> None:
    taps, match_id = await start_summer(world)
    await taps.move(match_id)
    record, state = await current(world, match_id)
    asker = PEOPLE[[p.id for p in PEOPLE].index(record.players[1 - state.to_move].user_id)]
    other = PEOPLE[[p.id for p in PEOPLE].index(record.players[state.to_move].user_id)]
    ask = TAKEBACK.build(action="ask", match=match_id, version=record.version)
    assert ask in taps.board_post(match_id, record.version).custom_ids
    # The one to move cannot ask to take back the opponent's move.
    refused = by_kind(await world.discord.press(other, CHANNEL, ask), "reply")[0]
    assert refused.ephemeral
    request = by_kind(await world.discord.press(asker, CHANNEL, ask), "reply")[0]
    assert not request.ephemeral and f"<@{other.id}>" in request.content
    accept = next(cid for cid in request.custom_ids if ":accept:" in cid)
    # The asker cannot accept their own request.
    assert by_kind(await world.discord.press(asker, CHANNEL, accept), "reply")[0].ephemeral
    await world.discord.press(other, CHANNEL, accept)
    after, back = await current(world, match_id)
    assert back.ply == 0 and back.to_move == state.to_move ^ 1 and after.version > record.version
    assert await world.bot.service.store.log(match_id) == []
    assert "took their move back" in world.recorder.boards(CHANNEL)[-1].content
    # The game goes on from there, by taps.
    assert await taps.move(match_id) <= MOST_TAPS["summer"]


async def test_a_declined_or_lapsed_takeback_changes_nothing(world: World) -> None:
    taps, match_id = await start_summer(world)
    await taps.move(match_id)
    record, state = await current(world, match_id)
    asker = PEOPLE[[p.id for p in PEOPLE].index(record.players[1 - state.to_move].user_id)]
    other = PEOPLE[[p.id for p in PEOPLE].index(record.players[state.to_move].user_id)]
    ask = TAKEBACK.build(action="ask", match=match_id, version=record.version)
    request = by_kind(await world.discord.press(asker, CHANNEL, ask), "reply")[0]
    decline = next(cid for cid in request.custom_ids if ":decline:" in cid)
    declined = by_kind(await world.discord.press(other, CHANNEL, decline), "edit")[0]
    assert "declined" in declined.content and not declined.custom_ids
    assert (await current(world, match_id))[0].version == record.version
    request = by_kind(await world.discord.press(asker, CHANNEL, ask), "reply")[0]
    accept = next(cid for cid in request.custom_ids if ":accept:" in cid)
    await taps.move(match_id)  # the next player moves: too late
    late = by_kind(await world.discord.press(other, CHANNEL, accept), "reply")[0]
    assert late.ephemeral
    assert len(await world.bot.service.store.log(match_id)) == 2


async def test_against_the_computer_a_takeback_is_granted_with_its_reply(world: World) -> None:
    taps = player(world)
    match_id = await taps.start(Setup("pond", {"variant": "mini"}, people=1, computers=1), CHANNEL)
    record, state = await current(world, match_id)
    if computer_level(record.players[state.to_move].user_id) is not None:
        pytest.fail("the computer should have moved already")
    await taps.move(match_id)
    record, state = await current(world, match_id)
    assert state.ply >= 2 and computer_level(record.players[state.to_move].user_id) is None
    ask = TAKEBACK.build(action="ask", match=match_id, version=record.version)
    await world.discord.press(ANA, CHANNEL, ask)
    after, back = await current(world, match_id)
    assert back.ply == state.ply - 2 and computer_level(after.players[back.to_move].user_id) is None
    assert len(await world.bot.service.store.log(match_id)) == back.ply


async def test_no_takeback_across_a_round_end_in_azul(world: World) -> None:
    taps = player(world, seed=3)
    match_id = await taps.start(Setup("azul", {}, people=2), CHANNEL)
    while True:
        await taps.move(match_id)
        record, state = await current(world, match_id)
        if state.last_event.round_ended:
            break
    ask = TAKEBACK.build(action="ask", match=match_id, version=record.version)
    assert ask not in taps.board_post(match_id, record.version).custom_ids  # no button offered
    mover = PEOPLE[[p.id for p in PEOPLE].index(record.players[state.last_event.player].user_id)]
    refused = by_kind(await world.discord.press(mover, CHANNEL, ask), "reply")[0]
    assert refused.ephemeral and "round" in refused.content
    assert (await current(world, match_id))[0].version == record.version


async def test_the_settings_command_shows_and_changes_ones_own_settings(world: World) -> None:
    shown = by_kind(await world.discord.command(ANA, CHANNEL, "settings", "", [option("reminders", "off")]), "reply")
    assert shown[0].ephemeral and "Reminders: **off**" in shown[0].content
    assert "Confirm moves made by taps: **on**" in shown[0].content
    assert not await world.bot.store.extras.reminders_enabled(ANA.id)


async def test_hint_and_takeback_wording_is_translated(world: World) -> None:
    await asyncio.sleep(0)
    from i18n.catalog import gettext

    for language in ("ru", "fr"):
        assert gettext(language, "Take back") != "Take back"
        assert gettext(language, "Play") != "Play"


# -- what Discord and moderators do ---------------------------------------------------------------------------------


async def test_a_doubled_delivery_of_a_choice_is_answered_once(world: World) -> None:
    taps, match_id = await start_summer(world)
    record, state = await current(world, match_id)
    mover = PEOPLE[[p.id for p in PEOPLE].index(record.players[state.to_move].user_id)]
    (menu, options), *_ = taps.board_post(match_id, record.version).menus.items()
    payload = world.discord.select_payload(mover, CHANNEL, menu, options[0][1], 9, ephemeral=False)
    await world.discord.send(payload)
    again = await world.discord.send(payload)  # the gateway resumed and sent it again: Discord says 40060
    assert not [c for c in again if c.kind in ("followup", "message")]
    assert (await current(world, match_id))[0].version == record.version


async def test_a_move_by_taps_in_a_silently_locked_thread_reaches_the_channel(world: World) -> None:
    from tests.bot.delivery.test_threads import accept, challenge, mover, threads_on

    channel = 2950
    await threads_on(world)
    await world.discord.guild_create([channel])
    from tests.bot_world import ANA as ana
    from tests.bot_world import BO as bo

    match_id, _ = await challenge(world, ana, bo, channel)
    await accept(world, bo, match_id, channel)
    record, _ = await current(world, match_id)
    assert record.thread_id is not None
    world.recorder.threads[record.thread_id].update(archived=True, locked=True)  # locked while the bot was away
    world = await world.restart()
    person = await mover(world, match_id)
    board = by_kind(await world.command(person, channel, "pond", "board"), "followup")[0]
    assert board.menus  # the board shown again carries the controls
    (menu, options), *_ = board.menus.items()
    since = len(world.recorder.created)
    calls = await world.discord.pick(person, channel, menu, options[0][1])
    play = next(cid for c in calls for cid in c.custom_ids if cid.startswith("tabula:play:"))
    await world.discord.press(person, channel, play, ephemeral=True)
    after, _ = await current(world, match_id)
    assert after.version == record.version + 1 and after.place_id == channel
    boards = [c for c in world.recorder.created[since:] if c.board is not None and not c.ephemeral]
    assert len(boards) == 1 and world.recorder.channel_of(boards[0]) == channel
    assert "locked by a moderator" in boards[0].content
    await world.stop()


async def test_an_event_games_board_offers_no_take_back_and_a_press_is_refused(world: World) -> None:
    taps, match_id = await start_summer(world)
    in_event = world.bot.parts.taps.takebacks.in_event
    assert await in_event(match_id) is False  # an ordinary game, asked once and remembered
    in_event._known[match_id] = True  # as the tournaments' store answers for an event's game
    await taps.move(match_id)
    record, state = await current(world, match_id)
    post = taps.board_post(match_id, record.version)
    assert post.menus and not [cid for cid in post.custom_ids if cid.startswith("tabula:takeback:")]
    asker = PEOPLE[[p.id for p in PEOPLE].index(record.players[1 - state.to_move].user_id)]
    ask = TAKEBACK.build(action="ask", match=match_id, version=record.version)
    refused = by_kind(await world.discord.press(asker, CHANNEL, ask), "reply")[0]
    assert refused.ephemeral and "event games" in refused.content
    assert (await current(world, match_id))[0].version == record.version


async def test_event_games_are_looked_up_once_per_match() -> None:
    from bot.core.takebacks import EventGames

    asked: list[int] = []

    async def pairing_of_match(match_id: int) -> object | None:
        asked.append(match_id)
        return object() if match_id == 2 else None

    events = EventGames(pairing_of_match, kept=2)
    assert [await events(1), await events(2), await events(1), await events(2)] == [False, True, False, True]
    assert asked == [1, 2]
    await events(3)  # beyond what is kept: the answers start afresh
    assert await events(1) is False and asked == [1, 2, 3, 1]
