"""The bot end to end: Pond through discord.py's real command tree, buttons and a recorder at the HTTP edge."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.client import TabulaBot
from bot.settings import Settings
from engines import GAMES
from engines.pond import PondMove
from tests.bot_world import ANA, BO, CY, MOD, ROBOT, World, only

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def move_options(state, move: PondMove) -> tuple[str, dict[str, str]]:
    parts = state.move_text(move).split()
    if parts[0] == "place":
        return "place", {"cell": parts[1]}
    return "move", {"from_": parts[1], "to": parts[2]}


async def play(world: World, person, channel: int, state, move: PondMove):
    sub, options = move_options(state, move)
    return await world.command(person, channel, "pond", sub, **options)


async def test_a_whole_match_from_challenge_to_result(world: World) -> None:
    channel = 501
    reply = await world.challenge(ANA, BO, channel, variant="mini")
    assert not reply.ephemeral
    assert f"<@{BO.id}>" in reply.content and "Pond" in reply.content and "expires" in reply.content
    assert len(reply.custom_ids) == 2 and all(len(cid) <= 100 for cid in reply.custom_ids)

    calls = await world.discord.press(BO, channel, reply.custom_ids[0])
    assert only(calls, "edit").content.endswith("accepted: the game is on!")
    first = only(calls, "message")
    assert first.files["board.png"].startswith(PNG_MAGIC)
    assert "plays light" in first.content and "plays dark" in first.content

    rng = random.Random(3)
    people = {ANA.id: ANA, BO.id: BO}
    turns = 0
    while True:
        record, state = await world.bot.service.running(channel, "pond")
        if state.outcome() is not None:
            break
        mover = people[record.players[state.to_move].user_id]
        calls = await play(world, mover, channel, state, rng.choice(state.legal_moves()))
        assert [c.kind for c in calls] == ["defer", "followup"], [c.kind for c in calls]
        posted = calls[-1]
        assert posted.files["board.png"].startswith(PNG_MAGIC)
        assert len(posted.content) <= 2000 and "Score:" in posted.content
        turns += 1
        if (await world.bot.service.store.open_match(channel)) is None:
            break
    assert turns > 5
    assert "wins" in posted.content or "draw" in posted.content
    finished = await world.bot.service.store.get(record.id)
    assert finished.status == "finished" and finished.result is not None
    replayed = await world.bot.service.replay(finished)
    assert replayed.to_json() == finished.state
    # The channel is free again.
    again = await world.challenge(BO, ANA, channel)
    assert "challenges" in again.content


async def test_every_refusal_is_ephemeral_and_changes_nothing(world: World) -> None:
    channel = 502
    # No match in the channel yet.
    for sub, opts in [("place", {"cell": "b2"}), ("board", {}), ("resign", {}), ("claim", {})]:
        call = only(await world.command(ANA, channel, "pond", sub, **opts), "reply")
        assert call.ephemeral and "no running" in call.content
    # Bad challenges.
    call = only(await world.command(ANA, channel, "pond", "start", opponent=ANA), "reply")
    assert call.ephemeral and "yourself" in call.content
    call = only(await world.command(ANA, channel, "pond", "start", opponent=ROBOT), "reply")
    assert call.ephemeral and "bot" in call.content
    reply = await world.challenge(ANA, BO, channel)
    call = only(await world.command(CY, channel, "pond", "start", opponent=ANA), "reply")
    assert call.ephemeral and "already has a game" in call.content and "thread" in call.content
    # Only the challenged player can accept.
    accept = reply.custom_ids[0]
    call = only(await world.discord.press(CY, channel, accept), "reply")
    assert call.ephemeral and "not addressed to you" in call.content
    call = only(await world.command(ANA, channel, "pond", "place", cell="b2"), "reply")
    assert call.ephemeral and "not started" in call.content

    await world.discord.press(BO, channel, accept)
    light, dark = await world.seats(channel)
    version = (await world.bot.service.store.open_match(channel)).version
    refusals = [
        (dark, "place", {"cell": "b2"}, "not your turn"),
        (CY, "place", {"cell": "b2"}, "not playing"),
        (light, "place", {"cell": "z9"}, "not on this 4x4 board"),
        (light, "place", {"cell": "hello"}, "can't read"),
        (light, "move", {"from_": "a1", "to": "a2"}, "no piece on a1"),
        (light, "claim", {}, "your turn"),
        (dark, "claim", {}, "still has time"),
        (CY, "cancel", {}, "Manage Server"),
    ]
    for person, sub, opts, message in refusals:
        call = only(await world.command(person, channel, "pond", sub, **opts), "reply")
        assert call.ephemeral, (sub, call.content)
        assert message in call.content, (sub, call.content)
    await world.command(light, channel, "pond", "place", cell="b2")
    call = only(await world.command(light, channel, "pond", "place", cell="c2"), "reply")
    assert "not your turn" in call.content
    call = only(await world.command(dark, channel, "pond", "place", cell="b2"), "reply")
    assert call.ephemeral and "b2 is occupied" in call.content
    record = await world.bot.service.store.open_match(channel)
    assert record.version == version + 1
    assert [e.text for e in await world.bot.service.store.log(record.id)] == ["place b2"]


async def test_a_game_commanded_in_another_games_channel_is_refused(world: World) -> None:
    channel = 503
    await world.start_pond(channel)
    record = await world.bot.service.store.open_match(channel)
    assert record.game == "pond"
    with pytest.raises(Exception, match="Pond"):
        await world.bot.service.play(channel, ANA.id, "place b2", game="azul-not-here")


async def test_two_moves_at_the_same_moment_apply_once(world: World) -> None:
    channel = 504
    light, dark = await world.start_pond(channel)
    # The same player presses twice, and the opponent presses too, all at once.
    payloads = [
        world.discord.command_payload(light, channel, "pond", "place", [{"name": "cell", "type": 3, "value": "b2"}]),
        world.discord.command_payload(light, channel, "pond", "place", [{"name": "cell", "type": 3, "value": "b2"}]),
        world.discord.command_payload(light, channel, "pond", "place", [{"name": "cell", "type": 3, "value": "c3"}]),
        world.discord.command_payload(dark, channel, "pond", "place", [{"name": "cell", "type": 3, "value": "a1"}]),
    ]
    start = len(world.recorder.calls)
    for payload in payloads:
        world.bot._connection.parse_interaction_create(payload)
    from tests.harness import settle

    await settle()
    calls = world.recorder.calls[start:]
    record = await world.bot.service.store.open_match(channel)
    log = [e.text for e in await world.bot.service.store.log(record.id)]
    # Presses at the same moment have no order: on SQLite they queue as they came (b2, then dark's a1; the
    # second b2 and c3 are refused); on PostgreSQL they may be taken in any order (light's c3 before b2, dark's
    # a1 between light's presses, or before light's first move and so out of turn).  Whatever the order, turns
    # alternate from light, no move is applied twice, and every press is answered once: a board or a refusal.
    entries = await world.bot.service.store.log(record.id)
    assert 1 <= len(log) <= 3 and len(set(log)) == len(log)
    assert [e.seat for e in entries] == [0, 1, 0][: len(log)]
    assert log[0] in ("place b2", "place c3") and log[1:2] in ([], ["place a1"])
    assert len([c for c in calls if c.kind == "followup"]) == len(log)
    refusals = [c for c in calls if c.kind == "reply"]
    assert len(refusals) == 4 - len(log) and all(c.ephemeral for c in refusals)
    assert (await world.bot.service.replay(record)).to_json() == record.state


async def test_concurrent_service_calls_never_apply_a_move_twice(world: World) -> None:
    channel = 505
    light, _ = await world.start_pond(channel)
    service = world.bot.service
    results = await asyncio.gather(
        *(service.play(channel, light.id, "place b2", game="pond") for _ in range(8)), return_exceptions=True
    )
    assert sum(1 for r in results if not isinstance(r, Exception)) == 1
    assert all("not your turn" in str(r) for r in results if isinstance(r, Exception))


async def test_a_restart_in_the_middle_of_a_match_loses_nothing(world: World) -> None:
    channel = 506
    light, dark = await world.start_pond(channel)
    await world.command(light, channel, "pond", "place", cell="b2")
    await world.command(dark, channel, "pond", "place", cell="c2")
    # A second channel has a pending challenge whose button must still work after the restart.
    pending = await world.challenge(CY, ANA, 507)
    restarted = await world.restart()
    try:
        record, state = await restarted.bot.service.running(channel, "pond")
        assert state.ply == 2
        calls = await restarted.command(light, channel, "pond", "move", from_="b2", to="b1")
        assert only(calls, "followup").files["board.png"].startswith(PNG_MAGIC)
        calls = await restarted.discord.press(ANA, 507, pending.custom_ids[0])
        assert only(calls, "edit").content.endswith("accepted: the game is on!")
        record = await restarted.bot.service.store.open_match(channel)
        assert [e.text for e in await restarted.bot.service.store.log(record.id)] == [
            "place b2",
            "place c2",
            "move b2 b1",
        ]
        assert (await restarted.bot.service.replay(record)).to_json() == record.state
    finally:
        world.bot = restarted.bot  # the fixture stops whichever bot is running


async def test_an_expired_challenge_is_closed_and_its_buttons_refuse(world: World) -> None:
    channel = 508
    reply = await world.challenge(ANA, BO, channel)
    world.clock.advance(15 * 60 + 1)
    assert await world.bot.sweep() == 1
    edits = world.recorder.of_kind("edit-message")
    assert edits and "expired" in edits[-1].content and edits[-1].data.get("components") == []
    calls = await world.discord.press(BO, channel, reply.custom_ids[0])
    # A late press answers why, and closes the pressed message again (it may have kept its buttons).
    assert only(calls, "edit").data.get("components") == [] and "expired" in only(calls, "edit").content
    call = only(calls, "followup")
    assert call.ephemeral and "no longer open" in call.content
    # The channel is free for a new challenge.
    await world.challenge(BO, ANA, channel)


async def test_a_late_press_on_an_expired_challenge_is_refused_even_before_the_sweeper(world: World) -> None:
    channel = 509
    reply = await world.challenge(ANA, BO, channel)
    world.clock.advance(16 * 60)
    calls = await world.discord.press(BO, channel, reply.custom_ids[0])
    call = only(calls, "followup")
    assert call.ephemeral and "expired" in call.content
    # The pressed message loses its live buttons at once (the sweeper only sees pending challenges).
    closed = only(calls, "edit")
    assert closed.data.get("components") == [] and "expired" in closed.content
    assert (await world.bot.service.store.open_match(channel)) is None


async def test_decline_and_withdraw(world: World) -> None:
    reply = await world.challenge(ANA, BO, 510)
    calls = await world.discord.press(BO, 510, reply.custom_ids[1])
    assert "declined by Bo" in only(calls, "edit").content
    reply = await world.challenge(ANA, BO, 510)
    calls = await world.discord.press(ANA, 510, reply.custom_ids[1])
    assert "withdrawn" in only(calls, "edit").content


async def test_a_claimed_deadline_wins_the_game(world: World) -> None:
    channel = 511
    light, dark = await world.start_pond(channel)
    await world.command(light, channel, "pond", "place", cell="b2")
    world.clock.advance(24 * 3600 + 5)
    call = only(await world.command(dark, channel, "pond", "claim"), "reply")
    assert "your turn" in call.content  # dark is the one who is late
    calls = await world.command(light, channel, "pond", "claim")
    posted = only(calls, "followup")
    assert "ran out of time" in posted.content and f"**{light.name}** wins" in posted.content
    assert (await world.bot.service.store.open_match(channel)) is None


async def test_resign_and_cancel(world: World) -> None:
    light, dark = await world.start_pond(512)
    posted = only(await world.command(dark, 512, "pond", "resign"), "followup")
    assert "resigned" in posted.content and f"**{light.name}** wins" in posted.content
    await world.start_pond(513)
    reply = only(await world.command(MOD, 513, "pond", "cancel"), "reply")
    assert not reply.ephemeral and "cancelled" in reply.content
    assert (await world.bot.service.store.open_match(513)) is None


async def test_board_and_rules(world: World) -> None:
    light, _ = await world.start_pond(514, variant="large")
    await world.command(light, 514, "pond", "place", cell="e5")
    posted = only(await world.command(ANA, 514, "pond", "board"), "followup")
    assert posted.files["board.png"].startswith(PNG_MAGIC) and "Score:" in posted.content
    rules = only(await world.command(CY, 514, "pond", "rules"), "reply")
    assert rules.ephemeral and "Develop" in rules.content and len(rules.content) <= 2000


async def test_autocomplete_offers_only_legal_choices_for_the_asker(world: World) -> None:
    channel = 515
    light, dark = await world.start_pond(channel)
    cells = await world.discord.autocomplete(light, channel, "pond", "place", [focused("cell", "")])
    assert len(cells) == 16
    assert await world.discord.autocomplete(dark, channel, "pond", "place", [focused("cell", "")]) == []
    assert await world.discord.autocomplete(light, channel, "pond", "place", [focused("cell", "b")]) == [
        "b1",
        "b2",
        "b3",
        "b4",
    ]
    await world.command(light, channel, "pond", "place", cell="b2")
    await world.command(dark, channel, "pond", "place", cell="c2")  # b2 becomes a tadpole
    sources = await world.discord.autocomplete(light, channel, "pond", "move", [focused("from", "")])
    assert sources == ["b2"]
    targets = await world.discord.autocomplete(
        light, channel, "pond", "move", [{"name": "from", "type": 3, "value": "b2"}, focused("to", "")]
    )
    assert sorted(targets) == ["a2", "b1", "b3"]
    # Elsewhere in the server a player's only running game is the one meant; someone without one gets nothing.
    here = await world.discord.autocomplete(light, channel, "pond", "place", [focused("cell", "")])
    assert here and await world.discord.autocomplete(light, 999, "pond", "place", [focused("cell", "")]) == here
    assert len(await world.discord.autocomplete(CY, 999, "pond", "place", [focused("cell", "")])) == 0


def focused(name: str, value: str) -> dict:
    return {"name": name, "type": 3, "value": value, "focused": True}


async def test_unexpected_errors_are_logged_and_answered_politely(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    channel = 516
    light, _ = await world.start_pond(channel)

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(world.bot.service, "play", broken)
    call = only(await world.command(light, channel, "pond", "place", cell="b2"), "reply")
    assert call.ephemeral and "went wrong" in call.content and "disk" not in call.content
    assert "disk on fire" in caplog.text


async def test_commands_sync_only_when_they_changed(world: World) -> None:
    assert await world.bot.sync_commands() is True
    assert len(world.recorder.of_kind("sync")) == 1
    assert await world.bot.sync_commands() is False
    assert len(world.recorder.of_kind("sync")) == 1


def test_pond_start_offers_exactly_the_engines_variants() -> None:
    variant = next(option for option in GAMES["pond"].options if option.name == "variant")
    pond = next(c for c in TabulaBot(Settings()).command_payload() if c["name"] == "pond")
    start = next(sub for sub in pond["options"] if sub["name"] == "start")
    offered = next(option for option in start["options"] if option["name"] == "variant")
    assert variant.choices is not None
    assert [choice["value"] for choice in offered["choices"]] == list(variant.choices)
