"""Bad input is refused politely and changes nothing; names are shown as typed; the computer plays every game."""

from __future__ import annotations

import importlib.util

import discord
import pytest

from bot.games import builder
from bot.text.escaping import escape_name
from engines import GAMES, GameError
from tests.bot_world import ANA, BO, TABULA, World, only
from tests.harness import Person

PNG = b"\x89PNG\r\n\x1a\n"


def refusal(calls: list, *words: str) -> str:
    reply = only(calls, "reply")
    assert reply.ephemeral, reply.content
    for word in words:
        assert word in reply.content, reply.content
    return reply.content


# -- cells and numbers ---------------------------------------------------------------


async def test_a_cell_with_a_non_ascii_digit_is_refused_and_changes_nothing(world: World) -> None:
    light, _ = await world.start_pond(2001)
    record = await world.bot.service.store.open_match(2001)
    refusal(await world.command(light, 2001, "pond", "place", cell="b\u0662"), "digits 0-9")
    assert (await world.bot.service.store.open_match(2001)).version == record.version


@pytest.mark.parametrize(
    ("game", "text"),
    [("pond", "place b\u0662"), ("summer", "c\u0661-c\u0662"), ("querni", "c\u0663-d\u0663"), ("querni", "\u0663c-d3")],
)
def test_the_engines_read_only_ascii_digits_in_cells(game: str, text: str) -> None:
    with pytest.raises(GameError):
        GAMES[game].new().parse_move(text)


@pytest.mark.parametrize("computers", [-1, 4, 2**53])
async def test_an_out_of_range_number_of_computers_is_refused(world: World, computers: int) -> None:
    calls = await world.command(ANA, 2002, "azul", "start", opponent=BO, computers=computers)
    refusal(calls, "`computers` must be a whole number from 0 to 3")
    assert await world.bot.service.store.open_match(2002) is None


@pytest.mark.parametrize(
    ("group", "options", "words"),
    [
        ("summer", {"size": 99}, "`size` must be a whole number from 3 to 12"),
        ("querni", {"draw_plies": 0}, "`draw_plies` must be a whole number from 1 to 1000"),
    ],
)
async def test_rule_numbers_beyond_the_schema_are_refused(world: World, group: str, options: dict, words: str) -> None:
    refusal(await world.command(ANA, 2003, group, "start", opponent=BO, **options), words)
    assert await world.bot.service.store.open_match(2003) is None


def test_every_integer_option_is_bounded_in_the_schema() -> None:
    from bot.client import TabulaBot
    from bot.settings import Settings

    def walk(options: list) -> list:
        found = []
        for option in options:
            found.append(option)
            found.extend(walk(option.get("options", [])))
        return found

    integers = [
        o for c in TabulaBot(Settings()).command_payload() for o in walk(c.get("options", [])) if o["type"] == 4
    ]
    assert {o["name"] for o in integers} >= {"computers", "size", "draw_plies", "page", "match"}
    for option in integers:
        assert "min_value" in option and "max_value" in option, option["name"]
        assert -(2**53) <= option["min_value"] <= option["max_value"] <= 2**53


@pytest.mark.parametrize("number", [2**63, 2**53, -5, 0])
async def test_a_match_number_nobody_has_is_no_such_match(world: World, number: int) -> None:
    refusal(await world.command(ANA, 2004, "history", "", match=number), "There is no finished game")


@pytest.mark.parametrize("page", [0, -1, 2**53])
async def test_a_ladder_page_beyond_the_schema_is_refused(world: World, page: int) -> None:
    refusal(await world.command(ANA, 2005, "leaderboard", "", game="pond", page=page), "The page must be")


# -- names ------------------------------------------------------------------------------


def test_names_are_escaped_for_markdown_and_mentions() -> None:
    shown = escape_name("<@&123> ||spoiler|| @everyone **bold**")
    assert "<@&" not in shown and "||" not in shown.replace("\\|", "") and "@everyone" not in shown
    assert "**" not in shown.replace("\\*", "")
    assert escape_name("Ana") == "Ana"


async def test_a_tricky_display_name_is_shown_as_typed_not_as_markup(world: World) -> None:
    trickster = Person(100000000000000077, "<@&123> ||spoiler||")
    reply = only(await world.command(trickster, 2006, "pond", "start", opponent=BO), "reply")
    assert "<@&123>" not in reply.content and "||spoiler||" not in reply.content
    assert escape_name(trickster.name) in reply.content
    calls = await world.discord.press(BO, 2006, reply.custom_ids[0])
    for call in calls:
        assert "<@&123>" not in call.content and "||spoiler||" not in call.content


# -- permissions ------------------------------------------------------------------------


async def test_a_challenge_is_refused_where_the_bot_could_not_post_its_boards(world: World) -> None:
    granted = discord.Permissions(view_channel=True, send_messages=True, read_message_history=True)
    world.discord.app_permissions = str(granted.value)
    content = refusal(
        await world.command(ANA, 2007, "pond", "start", opponent=BO), "I need Attach Files and Embed Links"
    )
    assert "server admin" in content
    assert await world.bot.service.store.open_match(2007) is None


# -- the computer in every game -----------------------------------------------------------


def test_every_registered_game_has_its_bot_module_and_start_offers_the_computer() -> None:
    from bot.client import TabulaBot
    from bot.settings import Settings

    payload = {c["name"]: c for c in TabulaBot(Settings()).command_payload()}
    for name in GAMES:
        module = GAMES[name].module("bot.games")
        assert importlib.util.find_spec(module) is not None, f"{module} is missing"
        assert callable(builder(name))
        start = next(o for o in payload[name]["options"] if o["name"] == "start")
        options = {o["name"]: o for o in start["options"]}
        assert {c["value"] for c in options["difficulty"]["choices"]} == {"easy", "medium", "hard"}
        assert "opponent" in options and not options["opponent"].get("required")


@pytest.mark.parametrize(("game", "how"), [("querni", {"difficulty": "easy"}), ("summer", {"opponent": TABULA})])
async def test_querni_and_summer_can_be_played_against_the_computer(world: World, game: str, how: dict) -> None:
    channel = 2008
    calls = await world.command(ANA, channel, game, "start", **how)
    first = only(calls, "followup")
    assert first.board is not None and first.board.startswith(PNG)
    record = await world.bot.service.store.open_match(channel)
    assert record.status == "active" and not record.rated
    assert sorted(seat.name for seat in record.players)[0] == "Ana"
    state = world.bot.service.state_of(record)
    assert record.players[state.to_move].user_id == ANA.id  # the computer moved if it was first
    for call in world.recorder.calls:
        assert "<@100" not in call.content.replace(f"<@{ANA.id}>", "")  # no computer seat is ever mentioned


async def test_the_computer_to_move_is_thinking_never_mentioned(world: World) -> None:
    for channel in range(2010, 2030):
        calls = await world.command(ANA, channel, "pond", "start", difficulty="easy")
        record = await world.bot.service.store.open_match(channel)
        state = world.bot.service.state_of(record)
        if record.players[0].user_id != ANA.id:  # the computer moved first: its turn line said so
            opening = only(calls, "followup")
            assert "Tabula (easy)** is thinking…" in opening.content and "<@1" not in opening.content
            assert only(calls, "message").content.count(f"<@{ANA.id}>") == 1
            assert record.players[state.to_move].user_id == ANA.id
            return
        await world.command(ANA, channel, "pond", "resign")
    raise AssertionError("the computer never drew the first move")
