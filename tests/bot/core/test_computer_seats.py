"""Playing against Tabula: computer seats start at once, move by themselves, survive restarts, stay unrated."""

from __future__ import annotations

import random

from bot.core.computer_seats import AI_LEVELS, computer_level, computer_seat
from tests.bot_world import ANA, BO, TABULA, World, only
from tests.harness import GUILD_ID, install

PNG = b"\x89PNG\r\n\x1a\n"


def channel_posts(calls) -> list:
    return [c for c in calls if c.method == "POST" and c.path.startswith("/channels/") and c.path.endswith("/messages")]


def test_computer_seats_have_their_own_ids_and_levels() -> None:
    ids = {computer_seat(level, i).user_id for level in AI_LEVELS for i in range(3)}
    assert len(ids) == 9 and all(computer_level(i) in AI_LEVELS for i in ids)
    assert computer_level(ANA.id) is None and computer_seat("hard").name == "Tabula (hard)"


async def play_human_moves(world: World, channel: int, person, rng: random.Random, limit: int = 400) -> list:
    """Move for ``person`` whenever it is their turn, until the game ends; return every call."""
    calls = []
    for _ in range(limit):
        current = await world.bot.service.current(channel)
        if current is None:
            break
        record, state = current
        if state.outcome() is not None:
            break
        assert record.players[state.to_move].user_id == person.id, "the computer must have moved by now"
        parts = state.move_text(rng.choice(state.legal_moves())).split()
        if parts[0] == "place":
            calls += await world.command(person, channel, "pond", "place", cell=parts[1])
        else:
            calls += await world.command(person, channel, "pond", "move", from_=parts[1], to=parts[2])
    return calls


async def test_a_whole_game_against_the_computer(world: World) -> None:
    channel = 801
    calls = await world.command(ANA, channel, "pond", "start", difficulty="easy", variant="mini")
    first = only(calls, "followup")
    assert "Tabula (easy)" in first.content and first.files["board.png"].startswith(PNG)
    record = await world.bot.service.store.open_match(channel)
    assert record.status == "active" and not record.rated
    assert {seat.name for seat in record.players} == {"Ana", "Tabula (easy)"}
    calls += await play_human_moves(world, channel, ANA, random.Random(2))
    posts = channel_posts(calls)
    assert posts, "the computer posts its moves in the channel"
    assert all(post.files["board.png"].startswith(PNG) for post in posts)
    assert all("Tabula (easy)" in post.content.split("\n")[0] for post in posts)
    finished = await world.bot.service.store.get(record.id)
    assert finished.status == "finished"
    assert (await world.bot.service.replay(finished)).to_json() == finished.state
    everything = [c.content for c in calls]
    assert any("This game was not rated." in text for text in everything)
    assert await world.bot.store.ratings.rating(GUILD_ID, "pond", ANA.id) is None
    stats = only(await world.command(ANA, channel, "stats", ""), "reply")
    assert "unrated" in stats.data["embeds"][0]["fields"][0]["value"]


async def test_naming_tabula_as_the_opponent_plays_the_computer_at_medium(world: World) -> None:
    only(await world.command(ANA, 802, "pond", "start", opponent=TABULA), "followup")
    record = await world.bot.service.store.open_match(802)
    assert "Tabula (medium)" in [seat.name for seat in record.players]


async def test_a_person_and_a_difficulty_together_are_refused(world: World) -> None:
    reply = only(await world.command(ANA, 803, "pond", "start", opponent=BO, difficulty="hard"), "reply")
    assert reply.ephemeral and "either a person" in reply.content
    assert await world.bot.service.store.open_match(803) is None


async def test_after_a_restart_the_computer_takes_its_pending_turn(world: World, monkeypatch) -> None:
    # The bot goes down right after the game started, before the computer could move.
    monkeypatch.setattr(type(world.bot.computer), "wake", lambda self, record, state: None)
    channel = None
    for candidate in range(804, 830):
        await world.command(ANA, candidate, "pond", "start", difficulty="hard")
        record = await world.bot.service.store.open_match(candidate)
        state = world.bot.service.state_of(record)
        if computer_level(record.players[state.to_move].user_id):
            channel = candidate
            break
        await world.command(ANA, candidate, "pond", "resign")
    assert channel is not None, "the computer never drew the first move"
    monkeypatch.undo()
    install(monkeypatch, world.recorder)
    restarted = await world.restart()
    world.bot = restarted.bot
    assert await restarted.bot.computer.resume_all() == 1  # what setup_hook does at start
    from tests.harness import settle

    await settle()
    record = await restarted.bot.service.store.open_match(channel)
    state = restarted.bot.service.state_of(record)
    assert state.ply == 1 and record.players[state.to_move].user_id == ANA.id
    assert channel_posts(world.recorder.calls)


async def test_the_computer_thinks_in_a_worker_process_within_its_budget() -> None:
    import time

    from bot.delivery.computer import think
    from engines import GAMES

    state = GAMES["pond"].new()
    started = time.perf_counter()
    text = think("pond", state.to_json(), "easy", 5, 0.2, None, (1, 0))
    assert time.perf_counter() - started < 0.2 * 1.2 + 0.15
    assert state.parse_move(text) in state.legal_moves()


async def test_a_worker_keeps_a_hard_seats_tree_for_its_next_move() -> None:
    import gc
    import time

    import ai
    from bot.delivery.computer import think
    from engines import GAMES

    ai.MEMORY.clear()
    state = GAMES["pond"].new(variant="mini")
    try:
        text = think("pond", state.to_json(), "hard", 5, 0.3, None, (7, 0))
        assert len(ai.MEMORY) == 1  # the seat's tree is kept for its next move ...
        assert gc.get_freeze_count() > 0  # ... out of the cyclic collector's sight, as in a worker
        after = state.play(text)
        after = after.play(after.legal_moves()[0])
        search_started = time.perf_counter()
        result = ai.analyse(
            after, level="hard", seed=6, time_limit=0.3, clock=time.perf_counter, memory=ai.MEMORY, key=(7, 0)
        )
        assert result.reused > 0 and time.perf_counter() - search_started < 0.3 * 2  # ... searched further, on time
        think("pond", state.to_json(), "medium", 5, 1.0, None, (8, 0))
        assert len(ai.MEMORY) == 1  # medium is a fixed amount of search, kept fresh every move
    finally:
        ai.MEMORY.clear()
        gc.unfreeze()  # this test's process is not a worker: give its heap back to the collector


async def test_azul_seats_can_be_filled_by_the_computer(world: World) -> None:
    channel = 840
    reply = only(
        await world.command(ANA, channel, "azul", "start", opponent=BO, computers=2, difficulty="easy"), "reply"
    )
    assert f"<@{BO.id}>" in reply.content
    calls = await world.discord.press(BO, channel, reply.custom_ids[0])
    assert only(calls, "edit").content.endswith("accepted: the game is on!")
    record = await world.bot.service.store.open_match(channel)
    names = sorted(seat.name for seat in record.players)
    # Several computer seats get distinct names.
    assert names == ["Ana", "Bo", "Tabula A (easy)", "Tabula B (easy)"] and not record.rated
    assert len({seat.user_id for seat in record.players}) == 4
    state = world.bot.service.state_of(record)
    assert computer_level(record.players[state.to_move].user_id) is None  # the computers moved until a person is due


async def test_several_computer_seats_may_play_at_different_levels(world: World) -> None:
    channel = 841
    calls = await world.command(ANA, channel, "azul", "start", computers=1, difficulty="medium", difficulty2="hard")
    only(calls, "followup")
    record = await world.bot.service.store.open_match(channel)
    names = sorted(seat.name for seat in record.players)
    assert names == ["Ana", "Tabula A (medium)", "Tabula B (hard)"]
    levels = sorted(computer_level(seat.user_id) or "" for seat in record.players if seat.name != "Ana")
    assert levels == ["hard", "medium"]


async def test_only_matches_with_a_computer_seat_are_looked_at_when_resuming(world: World) -> None:
    await world.start_pond(850)
    await world.command(ANA, 851, "pond", "start", difficulty="easy")
    from bot.core.computer_seats import computer_ids

    found = await world.bot.service.store.active_matches_seating(*computer_ids())
    assert [record.channel_id for record in found] == [851]
