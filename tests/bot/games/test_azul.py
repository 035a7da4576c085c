"""``/azul`` end to end: through discord.py's real command tree, with a recorder at the HTTP edge."""

from __future__ import annotations

import random
from typing import Any

from bot.client import TabulaBot
from bot.games.azul import (
    RULES,
    colour_choices,
    line_choices,
    source_choices,
    wall_column_choices,
    wall_line_choices,
)
from bot.games.common import labelled
from bot.settings import DOCS_URL, Settings
from engines import azul
from engines.azul import CENTRE, FLOOR, WALL, AzulMove, AzulState
from i18n import summary_text
from i18n.phrases import rules_link
from tests.bot_world import ANA, BO, CY, DEE, ROBOT, World, only
from tests.harness import Call, Person

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PEOPLE = {p.id: p for p in (ANA, BO, CY, DEE)}


def focused(name: str, value: str) -> dict[str, Any]:
    return {"name": name, "type": 3, "value": value, "focused": True}


def given(name: str, value: str) -> dict[str, Any]:
    return {"name": name, "type": 3, "value": value}


def values(choices: list[Any]) -> list[str]:
    return [choice.value for choice in choices]


def names(choices: list[Any]) -> list[str]:
    return [choice.name for choice in choices]


async def challenge(world: World, channel: int, challenger: Person, *opponents: Person, **options: Any) -> Call:
    """Post an Azul challenge to ``opponents`` and return the challenge message."""
    invited = dict(zip(("opponent", "opponent2", "opponent3"), opponents, strict=False))
    reply = only(await world.command(challenger, channel, "azul", "start", **invited, **options), "reply")
    assert not reply.ephemeral and "Azul" in reply.content, reply.content
    assert all(f"<@{o.id}>" in reply.content for o in opponents)
    return reply


async def start_azul(world: World, channel: int, *opponents: Person, **options: Any) -> list[Person]:
    """Ana challenges ``opponents``; each accepts in turn; return the players in seat order."""
    reply = await challenge(world, channel, ANA, *opponents, **options)
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    for i, person in enumerate(opponents):
        calls = await world.discord.press(person, channel, accept)
        edit = only(calls, "edit")
        if i < len(opponents) - 1:
            # Not everyone has accepted: the message says who did, keeps its buttons, and no game starts yet.
            assert f"Accepted so far: {', '.join(p.name for p in opponents[: i + 1])}." in edit.content
            assert len(edit.custom_ids) == 2 and not [c for c in calls if c.kind in ("followup", "message")]
            assert (await world.bot.service.store.open_match(channel)).status == "challenge"  # type: ignore[union-attr]
        else:
            assert edit.content.endswith("accepted: the game is on!")
            first = only(calls, "message")
            assert first.files["board.png"].startswith(PNG_MAGIC)
            assert "order of play: " in first.content and first.content.count("**") >= 2 * (len(opponents) + 2)
    return list(await world.seats(channel))


def command_for(state: AzulState, move: AzulMove) -> tuple[str, dict[str, str]]:
    """Return the subcommand and options a player would use for ``move``."""
    if move.source == WALL:
        return "wall", {"line": str(move.line), "column": str(move.column)}
    source, colour, line = state.move_text(move).split()
    return "take", {"source": source, "color": colour, "line": line}


async def play(world: World, channel: int, move: AzulMove | None = None, rng: random.Random | None = None) -> Call:
    """Play ``move`` (or a random legal move) through the command tree as the player to move; return the post."""
    record, state = await world.bot.service.running(channel, "azul")
    assert isinstance(state, AzulState) and state.to_move is not None
    if move is None:
        move = (rng or random.Random(0)).choice(state.legal_moves())
    sub, options = command_for(state, move)
    calls = await world.command(PEOPLE[record.players[state.to_move].user_id], channel, "azul", sub, **options)
    assert [c.kind for c in calls] == ["defer", "followup"], [c.content for c in calls]
    posted = calls[-1]
    assert posted.files["board.png"].startswith(PNG_MAGIC)
    assert len(posted.content) <= 2000 and "Score:" in posted.content
    return posted


async def running_state(world: World, channel: int) -> AzulState:
    _, state = await world.bot.service.running(channel, "azul")
    assert isinstance(state, AzulState)
    return state


# -- challenges -----------------------------------------------------------------------------------------------------


async def test_a_whole_two_player_game_through_the_commands(world: World) -> None:
    channel = 801
    seats = await start_azul(world, channel, BO)
    assert {p.id for p in seats} == {ANA.id, BO.id}
    match = await world.bot.service.store.open_match(channel)
    assert match is not None
    rng = random.Random(5)
    plies = 0
    while (await world.bot.service.store.open_match(channel)) is not None:
        state = await running_state(world, channel)
        move = rng.choice(state.legal_moves())
        posted = await play(world, channel, move)
        names = [seat.name for seat in match.players]
        assert summary_text(state.play(move), names) in posted.content
        plies += 1
    assert plies > 20
    assert "wins" in posted.content or "Shared victory" in posted.content
    assert "Ratings:" in posted.content
    record = await world.bot.service.store.get(match.id)
    assert record is not None and record.status == "finished"
    assert (await world.bot.service.replay(record)).to_json() == record.state


async def test_a_three_player_challenge_needs_everyone_and_the_game_starts_after_the_last(world: World) -> None:
    seats = await start_azul(world, 802, BO, CY)
    assert sorted(p.id for p in seats) == [ANA.id, BO.id, CY.id]
    state = await running_state(world, 802)
    assert state.players == 3 and len(state.factories) == 7 and not state.grey_wall


async def test_a_four_player_grey_wall_challenge(world: World) -> None:
    seats = await start_azul(world, 803, BO, CY, DEE, wall="grey")
    assert sorted(p.id for p in seats) == [ANA.id, BO.id, CY.id, DEE.id]
    state = await running_state(world, 803)
    assert state.players == 4 and len(state.factories) == 9 and state.grey_wall
    record = await world.bot.service.store.open_match(803)
    assert record is not None and record.options == {"wall": "grey"}


async def test_seat_order_is_drawn_at_random(world: World) -> None:
    firsts = set()
    for channel in range(804, 810):
        seats = await start_azul(world, channel, BO, CY)
        firsts.add(seats[0].id)
    assert len(firsts) > 1


async def test_anyones_decline_cancels_a_challenge_even_after_others_accepted(world: World) -> None:
    channel = 811
    reply = await challenge(world, channel, ANA, BO, CY, DEE)
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    decline = next(cid for cid in reply.custom_ids if ":decline:" in cid)
    assert "Accepted so far: Bo." in only(await world.discord.press(BO, channel, accept), "edit").content
    call = only(await world.discord.press(BO, channel, accept), "reply")
    assert call.ephemeral and "already accepted" in call.content
    edit = only(await world.discord.press(DEE, channel, decline), "edit")
    assert "declined by Dee" in edit.content and edit.custom_ids == []
    assert (await world.bot.service.store.open_match(channel)) is None
    calls = await world.discord.press(CY, channel, accept)
    call = only(calls, "followup")
    assert call.ephemeral and "no longer open" in call.content
    assert only(calls, "edit").custom_ids == []  # the late press closes the message again


async def test_bad_challenges_are_refused_politely(world: World) -> None:
    channel = 812
    refusals = [
        ({"opponent": ANA}, "yourself"),
        ({"opponent": BO, "opponent2": ANA}, "yourself"),
        ({"opponent": ROBOT}, "bot"),
        ({"opponent": BO, "opponent2": BO}, "only once"),
        ({"opponent": BO, "opponent3": BO}, "only once"),
    ]
    for options, words in refusals:
        call = only(await world.command(ANA, channel, "azul", "start", **options), "reply")
        assert call.ephemeral and words in call.content, (options, call.content)
    assert (await world.bot.service.store.open_match(channel)) is None
    # An opponent given only in the third slot still makes a two-player game.
    reply = await challenge(world, channel, ANA, BO)
    assert "Azul" in reply.content


# -- playing --------------------------------------------------------------------------------------------------------


async def test_refusals_are_ephemeral_and_change_nothing(world: World) -> None:
    channel = 820
    seats = await start_azul(world, channel, BO)
    state = await running_state(world, channel)
    first, second = seats[state.turn], seats[1 - state.turn]  # who starts is drawn from the game's seed
    empty = next(i + 1 for i, tiles in enumerate(state.factories) if tiles[azul.RED] == 0)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None
    version = record.version
    refusals = [
        (second, {"source": "f1", "color": "blue", "line": "1"}, "not your turn"),
        (CY, {"source": "f1", "color": "blue", "line": "1"}, "not playing"),
        (first, {"source": f"f{empty}", "color": "red", "line": "1"}, f"Factory {empty} has no red"),
        (first, {"source": "f12", "color": "red", "line": "1"}, "no factory 12"),
        (first, {"source": "c", "color": "red", "line": "1"}, "centre has no red"),
        (first, {"source": "f1", "color": "purple", "line": "1"}, "not a tile colour"),
        (first, {"source": "f1", "color": "red", "line": "9"}, "numbered 1 to 5"),
        (first, {"source": "x", "color": "red", "line": "1"}, "factory like 'f3'"),
    ]
    for person, options, words in refusals:
        call = only(await world.command(person, channel, "azul", "take", **options), "reply")
        assert call.ephemeral and words in call.content, (options, call.content)
        assert len(call.content) <= 2000
    call = only(await world.command(first, channel, "azul", "wall", line="1", column="1"), "reply")
    assert call.ephemeral and "coloured wall, tiling is automatic" in call.content
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.version == version
    assert await world.bot.service.store.log(record.id) == []


async def test_a_line_holding_another_colour_is_refused(world: World) -> None:
    channel = 821
    await start_azul(world, channel, BO)
    state = await running_state(world, channel)
    first = next(m for m in state.legal_moves() if m.line == 1)
    await play(world, channel, first)
    other = await running_state(world, channel)
    await play(world, channel, next(m for m in other.legal_moves() if m.line == FLOOR))
    state = await running_state(world, channel)
    # The first mover's line 1 is full now: neither its colour nor another fits there.
    wrong = next(m for m in state.legal_moves() if m.colour != first.colour and m.line == FLOOR)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None
    mover = PEOPLE[record.players[state.turn].user_id]
    _, options = command_for(state, wrong)
    call = only(await world.command(mover, channel, "azul", "take", **{**options, "line": "1"}), "reply")
    assert call.ephemeral and ("Line 1 already holds" in call.content or "already full" in call.content)


async def test_a_bare_factory_number_is_read_as_that_factory(world: World) -> None:
    channel = 822
    await start_azul(world, channel, BO)
    state = await running_state(world, channel)
    move = next(m for m in state.legal_moves() if m.source != CENTRE)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None
    mover = PEOPLE[record.players[state.turn].user_id]
    colour = azul.COLOURS[move.colour]
    calls = await world.command(mover, channel, "azul", "take", source=str(move.source), color=colour[0], line="floor")
    assert only(calls, "followup").files["board.png"].startswith(PNG_MAGIC)
    log = await world.bot.service.store.log(record.id)
    assert [entry.text for entry in log] == [f"f{move.source} {colour} floor"]


async def test_the_grey_wall_asks_for_a_column_through_the_wall_command(world: World) -> None:
    channel = 823
    await start_azul(world, channel, BO, wall="grey")
    rng = random.Random(2)
    state = await running_state(world, channel)
    while state.phase != azul.TILING:
        await play(world, channel, rng=rng)
        state = await running_state(world, channel)
        assert state.outcome() is None
    record = await world.bot.service.store.open_match(channel)
    assert record is not None
    chooser = PEOPLE[record.players[state.turn].user_id]
    waiting = PEOPLE[record.players[1 - state.turn].user_id]
    line = state.pending_line()
    columns = [str(m.column) for m in state.legal_moves()]
    assert await world.discord.autocomplete(chooser, channel, "azul", "wall", [focused("line", "")]) == [str(line)]
    offered = await world.discord.autocomplete(
        chooser, channel, "azul", "wall", [given("line", str(line)), focused("column", "")]
    )
    assert offered == columns
    assert await world.discord.autocomplete(waiting, channel, "azul", "wall", [focused("column", "")]) == []
    assert await world.discord.autocomplete(chooser, channel, "azul", "take", [focused("source", "")]) == []
    # A column the line may not go to is refused by the engine, politely.
    taken = next((str(c) for c in range(1, 6) if str(c) not in columns), None)
    if taken is not None:
        call = only(await world.command(chooser, channel, "azul", "wall", line=str(line), column=taken), "reply")
        assert call.ephemeral and "column" in call.content.lower()
    call = only(await world.command(chooser, channel, "azul", "take", source="f1", color="red", line="1"), "reply")
    assert call.ephemeral and "factory offer is over" in call.content
    posted = only(
        await world.command(chooser, channel, "azul", "wall", line=f"line {line}", column=f"c{columns[-1]}"),
        "followup",
    )
    assert f"tiled line {line}" in posted.content
    log = await world.bot.service.store.log(record.id)
    assert log[-1].text == f"wall {line} c{columns[-1]}"


async def test_board_rules_and_claim(world: World) -> None:
    channel = 824
    seats = await start_azul(world, channel, BO, CY)
    await play(world, channel, rng=random.Random(1))
    posted = only(await world.command(DEE, channel, "azul", "board"), "followup")
    assert posted.files["board.png"].startswith(PNG_MAGIC) and "Azul" in posted.content
    rules = only(await world.command(DEE, channel, "azul", "rules"), "reply")
    assert rules.ephemeral and rules.content == f"{RULES}\n{rules_link(DOCS_URL, 'azul', 'en')}"
    assert len(rules.content) <= 2000 and rules.content.endswith("/docs/azul.md>")
    state = await running_state(world, channel)
    late, waiting = state.turn, (state.turn + 1) % 3
    call = only(await world.command(seats[waiting], channel, "azul", "claim"), "reply")
    assert call.ephemeral and "still has time" in call.content
    world.clock.advance(24 * 3600 + 5)
    # The late player leaves a three-player game; the other two play on.
    posted = only(await world.command(seats[waiting], channel, "azul", "claim"), "followup")
    assert "ran out of time" in posted.content and f"<@{seats[waiting].id}>, your move" in posted.content
    state = await running_state(world, channel)
    assert state.left == (late,) and state.turn == waiting and state.outcome() is None


# -- leaving ----------------------------------------------------------------------------------------------------------


async def test_a_resigning_player_leaves_and_the_others_play_on_to_the_end(world: World) -> None:
    channel = 830
    seats = await start_azul(world, channel, BO, CY, DEE)
    match = await world.bot.service.store.open_match(channel)
    assert match is not None
    rng = random.Random(8)
    for _ in range(3):
        await play(world, channel, rng=rng)
    state = await running_state(world, channel)
    leaver = seats[state.turn]
    posted = only(await world.command(leaver, channel, "azul", "resign"), "followup")
    assert f"{leaver.name} resigned." in posted.content and "your move" in posted.content
    assert "wins" not in posted.content
    state = await running_state(world, channel)
    gone = seats.index(leaver)
    assert state.left == (gone,) and state.turn != gone and state.outcome() is None
    # The leaver can no longer move, nor resign again; the others play the game out.
    call = only(await world.command(leaver, channel, "azul", "take", source="c", color="red", line="1"), "reply")
    assert call.ephemeral
    call = only(await world.command(leaver, channel, "azul", "resign"), "reply")
    assert call.ephemeral and "already left" in call.content
    while (await world.bot.service.store.open_match(channel)) is not None:
        state = await running_state(world, channel)
        assert state.turn != gone
        posted = await play(world, channel, rng=rng)
    record = await world.bot.service.store.get(match.id)
    assert record is not None and record.status == "finished" and record.result is not None
    places = record.result["places"]
    assert places[gone] == 4 and sorted(places)[-1] == 4 and places.count(4) == 1
    assert "Ratings:" in posted.content
    assert (await world.bot.service.replay(record)).to_json() == record.state


async def test_when_all_but_one_resign_the_last_player_wins_and_leavers_rank_in_reverse_order(world: World) -> None:
    channel = 831
    seats = await start_azul(world, channel, BO, CY)
    first, second, third = seats
    match = await world.bot.service.store.open_match(channel)
    assert match is not None
    posted = only(await world.command(second, channel, "azul", "resign"), "followup")
    assert "resigned" in posted.content and "your move" in posted.content
    posted = only(await world.command(first, channel, "azul", "resign"), "followup")
    assert f"**{third.name}** wins" in posted.content
    record = await world.bot.service.store.get(match.id)
    assert record is not None and record.result is not None
    assert record.result["places"] == [2, 3, 1] and record.result["winners"] == [2]


# -- autocomplete ---------------------------------------------------------------------------------------------------


async def test_autocomplete_through_discord_narrows_on_what_was_typed(world: World) -> None:
    channel = 840
    seats = await start_azul(world, channel, BO)
    state = await running_state(world, channel)
    mover, waiting = seats[state.turn], seats[1 - state.turn]
    legal = [state.move_text(m).split() for m in state.legal_moves()]
    sources = await world.discord.autocomplete(mover, channel, "azul", "take", [focused("source", "")])
    assert sources == [f"f{n}" for n in range(1, 6)]  # the centre is empty at the start
    assert await world.discord.autocomplete(waiting, channel, "azul", "take", [focused("source", "")]) == []
    assert await world.discord.autocomplete(DEE, channel, "azul", "take", [focused("source", "")]) == []
    colours = await world.discord.autocomplete(
        mover, channel, "azul", "take", [given("source", "f2"), focused("color", "")]
    )
    assert colours == sorted({c for s, c, _ in legal if s == "f2"}, key=azul.COLOURS.index)
    colour = colours[0]
    lines = await world.discord.autocomplete(
        mover, channel, "azul", "take", [given("source", "f2"), given("color", colour), focused("line", "")]
    )
    assert lines == ["1", "2", "3", "4", "5", "floor"]
    only_with = await world.discord.autocomplete(
        mover, channel, "azul", "take", [given("color", colour), focused("source", "")]
    )
    assert only_with == sorted({s for s, c, _ in legal if c == colour}, key=lambda s: int(s[1:]))
    # After a take, the centre holds the rest, with the marker.
    await play(world, channel, next(m for m in state.legal_moves() if m.source == 1 and m.line == FLOOR))
    state = await running_state(world, channel)
    sources = await world.discord.autocomplete(seats[state.turn], channel, "azul", "take", [focused("source", "")])
    assert sources == [f"f{n}" for n in range(2, 6)] + (["c"] if any(state.centre) else [])


def test_source_colour_and_line_labels_say_what_is_there_and_what_would_happen() -> None:
    state = azul.new(players=2, seed=16, first_player=0)  # f1 holds b y y r
    assert state.factory_text(1) == "byyr"
    sources = source_choices(state, {}, "")
    assert values(sources) == ["f1", "f2", "f3", "f4", "f5"]
    assert names(sources)[0] == "f1 · 2 yellow, 1 blue, 1 red"
    colours = colour_choices(state, {"source": "f1", "line": ""}, "")
    assert values(colours) == ["blue", "yellow", "red"]
    assert names(colours)[1] == "yellow (Y) · 2 in f1"
    lines = line_choices(state, {"source": "f1", "colour": "yellow"}, "")
    assert values(lines) == ["1", "2", "3", "4", "5", "floor"]
    assert names(lines)[0] == "line 1 (1 of 1 free): 1 to the floor"
    assert names(lines)[1] == "line 2 (2 of 2 free)"
    assert names(lines)[-1] == "floor (7 of 7 free)"
    # Typed values are read leniently, as the engine reads moves.
    assert values(line_choices(state, {"source": "Factory 1", "colour": "Y"}, "")) == values(lines)
    state = state.play("f1 y 2").play("c b floor")  # the second player takes the centre's blue with the marker
    assert values(source_choices(state, {}, "")) == ["f2", "f3", "f4", "f5", "c"]
    assert names(source_choices(state, {}, "c"))[0] == "c · centre: 1 red"
    lines = line_choices(state, {"source": "c", "colour": "red"}, "")
    assert names(lines)[0] == "line 1 (1 of 1 free)"
    # Line 2 holds two yellow: only yellow may go there, and it is full, so it is not offered at all.
    assert "2" not in values(line_choices(state, {"source": "", "colour": ""}, ""))
    assert values(colour_choices(state, {"source": "c", "line": ""}, "")) == ["red"]
    assert values(colour_choices(state, {"source": "", "line": "3"}, "")) == sorted(
        {azul.COLOURS[m.colour] for m in state.legal_moves() if m.line == 3}, key=azul.COLOURS.index
    )


def test_the_marker_and_the_lid_are_announced_in_labels() -> None:
    state = azul.new(players=2, seed=16, first_player=0).play("f1 y 2")
    labels = names(line_choices(state, {"source": "c", "colour": "blue"}, ""))
    assert labels[0] == "line 1 (1 of 1 free): with the marker"
    assert names(source_choices(state, {}, "c"))[0] == "c · centre: 1 blue, 1 red + first-player marker"


def test_wall_choices_offer_the_waiting_line_and_its_columns_with_points() -> None:
    state = azul.new(players=2, seed=16, first_player=0, wall="grey")
    assert wall_line_choices(state, {}, "") == []
    rng = random.Random(4)
    while state.phase != azul.TILING:
        state = state.play(rng.choice(state.legal_moves()))
    line = state.pending_line()
    lines = wall_line_choices(state, {}, "")
    colour = azul.COLOURS[state.boards[state.turn].line_colours[line - 1]]
    assert values(lines) == [str(line)] and names(lines) == [f"line {line} · {line} {colour}"]
    columns = wall_column_choices(state, {"line": str(line)}, "")
    assert values(columns) == [str(m.column) for m in state.legal_moves()]
    for choice, move in zip(columns, state.legal_moves(), strict=True):
        points = state.play(move).last.placements[0].points  # type: ignore[union-attr]
        assert choice.name == f"column {move.column} (+{points})"
    assert values(wall_column_choices(state, {"line": str(line)}, f"c{columns[0].value}"))[0] == columns[0].value
    assert wall_column_choices(state, {"line": "9"}, "") == []


def test_reading_typed_options() -> None:
    """The options are read by the engine's readers (more of them in tests/engines/test_move_forms.py)."""
    read = azul.MOVES.read
    assert [read("take", {"source": t}) for t in ("f3", "F 3", "factory 3", "3", "c", "Centre", "", "x")] == [
        {"source": "f3"}, {"source": "f3"}, {"source": "f3"}, {"source": "f3"},
        {"source": "c"}, {"source": "c"}, {}, {},
    ]  # fmt: skip
    assert [read("take", {"colour": t}).get("colour") for t in ("red", "R", "k", "Blacks", "purple", "")] == [
        "red", "red", "black", "black", None, None,
    ]  # fmt: skip
    lines = [read("take", {"line": t}).get("line") for t in ("4", "line 4", "floor", "Floor", "", "top")]
    assert lines == ["4", "4", "floor", "floor", None, None]
    # A label picked by mistake still reads as its value.
    assert read("take", {"source": "f1 · 2 yellow, 1 blue", "line": "line 4 (2 of 4 free)"}) == {
        "source": "f1",
        "line": "4",
    }
    text = azul.MOVES.text
    assert text("take", {"source": " 3 ", "colour": "red", "line": "4"}) == "f3 red 4"
    assert text("take", {"source": "c", "colour": "b", "line": "floor"}) == "c b floor"


def test_labelled_choices_keep_discords_limits() -> None:
    items = [(f"v{i}", f"label {i} " + "x" * 200) for i in range(40)]
    choices = labelled(items, "")
    assert len(choices) == 25 and all(len(choice.name) <= 100 for choice in choices)


def test_azul_has_the_commands_players_expect() -> None:
    group = next(c for c in TabulaBot(Settings()).command_payload() if c["name"] == "azul")
    subs = {o["name"]: o for o in group["options"]}
    assert set(subs) == {"start", "take", "wall", "board", "resign", "rules", "claim", "cancel", "hint"}
    start = {o["name"]: o for o in subs["start"]["options"]}
    assert list(start) == [
        "opponent",
        "opponent2",
        "opponent3",
        "wall",
        "difficulty",
        "computers",
        "difficulty2",
        "difficulty3",
    ]
    assert not any(option.get("required") for option in start.values())  # a difficulty alone plays the computer
    assert all(start[name]["type"] == 6 for name in ("opponent", "opponent2", "opponent3"))
    assert [c["value"] for c in start["wall"]["choices"]] == ["colour", "grey"]
    take = {o["name"]: o for o in subs["take"]["options"]}
    assert list(take) == ["source", "color", "line"]
    assert all(o["required"] and o["autocomplete"] for o in take.values())
    wall = {o["name"]: o for o in subs["wall"]["options"]}
    assert list(wall) == ["line", "column"] and all(o["autocomplete"] for o in wall.values())
    assert group["dm_permission"] is False


def test_moves_and_autocomplete_values_agree_with_the_engine() -> None:
    """Every value autocomplete offers, put together, is a legal move's canonical text (and nothing is missed)."""
    rng = random.Random(3)
    for players, wall in ((2, "colour"), (4, "grey")):
        state = azul.new(players=players, seed=players, wall=wall)
        for _ in range(60):
            if state.outcome() is not None:
                break
            legal = {state.move_text(m) for m in state.legal_moves()}
            offered = set()
            if state.phase == azul.TILING:
                for line in values(wall_line_choices(state, {}, "")):
                    offered |= {f"wall {line} c{c}" for c in values(wall_column_choices(state, {"line": line}, ""))}
            else:
                for source in values(source_choices(state, {}, "")):
                    for colour in values(colour_choices(state, {"source": source}, "")):
                        offered |= {
                            f"{source} {colour} {line}"
                            for line in values(line_choices(state, {"source": source, "colour": colour}, ""))
                        }
            assert offered == legal
            state = state.play(rng.choice(state.legal_moves()))
