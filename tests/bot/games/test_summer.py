"""``/summer`` end to end: discord.py's real command tree, the match service and a recorder at the HTTP edge."""

from __future__ import annotations

import random
from typing import Any

from bot.client import TabulaBot
from bot.games.summer import RULES
from bot.settings import DOCS_URL, Settings
from engines.summer import SummerMove, SummerState
from i18n.phrases import rules_link
from tests.bot_world import ANA, BO, CY, World, only
from tests.harness import Call, Person, option

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


async def challenge(world: World, challenger: Person, opponent: Person, channel: int, **options: Any) -> Call:
    """Send ``/summer start``; integer options go as Discord sends them (type 4)."""
    opts = [option("opponent", str(opponent.id), kind=6)]
    opts += [option(name, value, kind=4 if isinstance(value, int) else 3) for name, value in options.items()]
    calls = await world.discord.command(challenger, channel, "summer", "start", opts, users=[opponent])
    return only(calls, "reply")


async def start(world: World, channel: int, **options: Any) -> tuple[Person, Person]:
    """Ana challenges Bo, Bo accepts; return (White, Black)."""
    reply = await challenge(world, ANA, BO, channel, **options)
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    calls = await world.discord.press(BO, channel, accept)
    assert only(calls, "message").files["board.png"].startswith(PNG_MAGIC)
    return await world.seats(channel)  # type: ignore[return-value]


async def running(world: World, channel: int) -> SummerState:
    _, state = await world.bot.service.running(channel, "summer")
    assert isinstance(state, SummerState)
    return state


async def move(world: World, person: Person, channel: int, state: SummerState, chosen: SummerMove) -> list[Call]:
    frm, to = state.move_text(chosen).split("-")
    return await world.command(person, channel, "summer", "move", from_=frm, to=to)


def focused(name: str, value: str) -> dict[str, Any]:
    return {"name": name, "type": 3, "value": value, "focused": True}


async def test_a_whole_match_from_challenge_to_result(world: World) -> None:
    channel = 601
    reply = await challenge(world, ANA, BO, channel, size=4, board="hex", mode="field")
    assert not reply.ephemeral and f"<@{BO.id}>" in reply.content and "**Summer**" in reply.content
    assert "board hex, mode field, size 4" in reply.content
    calls = await world.discord.press(BO, channel, reply.custom_ids[0])
    first = only(calls, "message")
    assert "plays white" in first.content and "plays black" in first.content
    white, _ = await world.seats(channel)
    assert f"<@{white.id}>, your move" in first.content  # White moves first

    state = await running(world, channel)
    assert (state.size, state.shape, state.mode) == (4, "hex", "field")
    rng = random.Random(5)
    people = {ANA.id: ANA, BO.id: BO}
    plies = 0
    while state.outcome() is None:
        record, _ = await world.bot.service.running(channel, "summer")
        mover = people[record.players[state.to_move].user_id]
        calls = await move(world, mover, channel, state, rng.choice(state.legal_moves()))
        assert [c.kind for c in calls] == ["defer", "followup"], [c.kind for c in calls]
        posted = calls[-1]
        assert posted.files["board.png"].startswith(PNG_MAGIC)
        assert len(posted.content) <= 2000 and "Score:" in posted.content
        finished = await world.bot.service.store.get(record.id)
        assert finished is not None
        state = world.bot.service.state_of(finished)  # type: ignore[assignment]
        # Once White has arrived, the message says that Black has one last move.
        assert state.black_last_move == ("Black has one last move" in posted.content)
        plies += 1
    assert plies > 4 and ("wins" in posted.content or "draw" in posted.content)
    assert finished is not None and finished.status == "finished"
    assert (await world.bot.service.replay(finished)).to_json() == finished.state
    assert (await world.bot.service.store.open_match(channel)) is None


async def test_who_plays_white_is_drawn_at_random(world: World) -> None:
    whites = set()
    for channel in range(611, 619):
        white, black = await start(world, channel, size=3)
        assert {white, black} == {ANA, BO}
        whites.add(white)
        # Whoever was drawn White is the one asked to move first.
        assert (await running(world, channel)).to_move == 0
    assert whites == {ANA, BO}


async def test_default_options_are_not_stored_and_others_reach_the_engine(world: World) -> None:
    await start(world, 621)
    record, state = await world.bot.service.running(621, "summer")
    assert record.options == {} and (state.size, state.shape, state.mode) == (8, "square", "classic")
    await start(world, 622, size=12, board="hex", mode="classic")
    record, state = await world.bot.service.running(622, "summer")
    assert record.options == {"size": 12, "board": "hex"} and (state.size, state.shape) == (12, "hex")


async def test_every_refusal_is_ephemeral_and_changes_nothing(world: World) -> None:
    channel = 631
    call = only(await world.command(ANA, channel, "summer", "move", from_="a1", to="a2"), "reply")
    assert call.ephemeral and "no running" in call.content
    call = only(await world.command(ANA, channel, "summer", "start", opponent=ANA), "reply")
    assert call.ephemeral and "yourself" in call.content
    white, black = await start(world, channel, size=5)
    state = await running(world, channel)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None
    version = record.version
    refusals = [
        (black, {"from_": "a5", "to": "a4"}, "not your turn"),
        (CY, {"from_": "a1", "to": "a2"}, "not playing"),
        (white, {"from_": "a1", "to": "z9"}, "not on this 5x5 board"),
        (white, {"from_": "hello", "to": "a2"}, "can't read"),
        (white, {"from_": "a2", "to": "a3"}, "no piece on a2"),
        (white, {"from_": "a5", "to": "a4"}, "Black's; you move only your own"),
        (white, {"from_": "a1", "to": "a3"}, "not such a move"),
    ]
    for person, options, message in refusals:
        call = only(await world.command(person, channel, "summer", "move", **options), "reply")
        assert call.ephemeral and message in call.content, (options, call.content)
    # Pond's commands are refused politely in a Summer channel.
    call = only(await world.command(white, channel, "pond", "place", cell="b2"), "reply")
    assert call.ephemeral and "Summer" in call.content and "/summer" in call.content
    assert (await world.bot.service.store.open_match(channel)).version == version  # type: ignore[union-attr]
    # A piece that has moved up never moves back: move one that survives any cell, then try.
    up = next(m for m in state.legal_moves() if m.to == m.frm + 5 and state.board[m.frm] >= 2)
    await move(world, white, channel, state, up)
    state = await running(world, channel)
    await move(world, black, channel, state, state.legal_moves()[0])  # Black's pieces cannot reach rank 2 yet
    there, back = state.cell_name(up.to), state.cell_name(up.frm)
    call = only(await world.command(white, channel, "summer", "move", from_=there, to=back), "reply")
    assert call.ephemeral and "never move backward" in call.content


async def test_autocomplete_offers_the_askers_legal_moves_only(world: World) -> None:
    channel = 641
    white, black = await start(world, channel, size=12, board="hex")
    state = await running(world, channel)
    sources = await world.discord.autocomplete(white, channel, "summer", "move", [focused("from", "")])
    assert sources == [f"{letter}1" for letter in "abcdefghijkl"]
    assert await world.discord.autocomplete(black, channel, "summer", "move", [focused("from", "")]) == []
    assert await world.discord.autocomplete(CY, channel, "summer", "move", [focused("from", "")]) == []
    narrowed = await world.discord.autocomplete(white, channel, "summer", "move", [focused("from", "c")])
    assert narrowed == ["c1"]
    # Targets follow the chosen piece, as the engine lists them (hex: two beside, two ahead).
    for chosen in ("c1", " C1 "):
        targets = await world.discord.autocomplete(
            white, channel, "summer", "move", [{"name": "from", "type": 3, "value": chosen}, focused("to", "")]
        )
        expected = [state.move_text(m).split("-")[1] for m in state.legal_moves() if state.move_text(m)[:3] == "c1-"]
        assert targets == expected and len(targets) == 4
    # With no piece chosen yet, the targets of all pieces, never more than Discord's 25.
    anything = await world.discord.autocomplete(white, channel, "summer", "move", [focused("to", "")])
    assert 0 < len(anything) <= 25 and len(set(anything)) == len(anything)
    assert (
        await world.discord.autocomplete(
            white, channel, "summer", "move", [{"name": "from", "type": 3, "value": "c5"}, focused("to", "")]
        )
        == []
    )
    # A pick from the lists is a legal move.
    calls = await world.command(white, channel, "summer", "move", from_="c1", to=targets[-1])
    assert only(calls, "followup").files["board.png"].startswith(PNG_MAGIC)


async def test_board_rules_resign_and_claim(world: World) -> None:
    white, black = await start(world, 651, size=4)
    posted = only(await world.command(CY, 651, "summer", "board"), "followup")
    assert posted.files["board.png"].startswith(PNG_MAGIC) and "Score:" in posted.content
    rules = only(await world.command(CY, 651, "summer", "rules"), "reply")
    assert rules.ephemeral and rules.content == f"{RULES}\n{rules_link(DOCS_URL, 'summer', 'en')}"
    assert len(rules.content) <= 2000 and rules.content.endswith("/docs/summer.md>")
    for words in ("last move", "merge", "collision", "field", "Safety rule", "drawn at random"):
        assert words in RULES, words
    posted = only(await world.command(black, 651, "summer", "resign"), "followup")
    assert "resigned" in posted.content and f"**{white.name}** wins" in posted.content
    assert (await world.bot.service.store.open_match(651)) is None

    white, black = await start(world, 652, size=4)
    state = await running(world, 652)
    await move(world, white, 652, state, state.legal_moves()[0])
    world.clock.advance(24 * 3600 + 5)
    call = only(await world.command(black, 652, "summer", "claim"), "reply")
    assert call.ephemeral and "your turn" in call.content
    posted = only(await world.command(white, 652, "summer", "claim"), "followup")
    assert "ran out of time" in posted.content and f"**{white.name}** wins" in posted.content


def test_summer_has_the_commands_players_expect() -> None:
    summer = next(c for c in TabulaBot(Settings()).command_payload() if c["name"] == "summer")
    subs = {o["name"]: o for o in summer["options"]}
    assert set(subs) >= {"start", "move", "board", "resign", "rules", "claim", "cancel"}
    assert [o["name"] for o in subs["start"]["options"]] == ["opponent", "size", "board", "mode", "difficulty"]
    size = subs["start"]["options"][1]
    assert (size["type"], size["min_value"], size["max_value"], size["required"]) == (4, 3, 12, False)
    assert {o["name"] for o in subs["move"]["options"]} == {"from", "to"}
    assert all(o.get("autocomplete") for o in subs["move"]["options"])
    assert summer["dm_permission"] is False
