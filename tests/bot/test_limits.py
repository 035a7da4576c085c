"""Discord's published limits (:mod:`bot.limits`): the checks themselves, the whole command payload in every
locale, and what the bot says when Discord refuses a sync anyway.

Every request the tests' fake Discord receives is held against the same checks (``bench.discord_fake``):
a post that crosses a limit is refused there as Discord refuses it, and the ``world`` fixture fails the test.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from discord import app_commands

from bot import limits
from bot.__main__ import fatal
from bot.client import TabulaBot
from bot.settings import Settings
from tests.bot_world import World
from tests.harness import Failure

# -- the checks, at each limit and one past it ------------------------------------------------------------


def command(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"type": 1, "name": "pond", "description": "Play Pond."}
    base.update(fields)
    return base


def integer_option(**fields: Any) -> dict[str, Any]:
    return {"type": 4, "name": "match", "description": "A number.", **fields}


def test_integer_bounds_are_the_safe_integer_range() -> None:
    assert limits.INTEGER_OPTION_MAX == 9007199254740991 == -limits.INTEGER_OPTION_MIN
    fits = command(options=[integer_option(min_value=limits.INTEGER_OPTION_MIN, max_value=limits.INTEGER_OPTION_MAX)])
    assert limits.command_problems(fits) == []
    # The bound /history and /analyse declared until Discord's sync refused it.
    refused = limits.command_problems(command(options=[integer_option(min_value=1, max_value=2**53)]))
    assert refused and "max_value" in refused[0]
    assert limits.command_problems(command(options=[integer_option(min_value=-(2**53))]))


@pytest.mark.parametrize(
    ("name", "fits"),
    [
        ("pond", True),
        ("a" * 32, True),
        ("a" * 33, False),
        ("", False),
        ("Pond", False),  # a letter with a lowercase variant must be lowercase
        ("ход", True),
        ("joueur-2_it's", True),
        ("two words", False),
        ("क्रम", True),  # Devanagari's vowel signs are marks, allowed by the script class
        ("สวัสดี", True),
        ("a.b", False),
    ],
)
def test_command_names_follow_the_documented_pattern(name: str, fits: bool) -> None:
    assert (limits.command_name_problem(name) is None) is fits


def test_descriptions_are_checked_in_every_locale() -> None:
    at_limit = command(description="d" * 100, description_localizations={"fr": "é" * 100, "ru": "я" * 100})
    assert limits.command_problems(at_limit) == []
    one_too_long = copy.deepcopy(at_limit)
    one_too_long["description_localizations"]["ru"] = "я" * 101
    assert any("[ru]" in p for p in limits.command_problems(one_too_long))
    assert limits.command_problems(command(description=""))
    assert limits.command_problems(command(name_localizations={"fr": "Partie"}))


def test_options_choices_and_lengths() -> None:
    many = [{"type": 5, "name": f"o{i}", "description": "x"} for i in range(26)]
    assert limits.command_problems(command(options=many))
    assert limits.command_problems(command(options=many[:25])) == []
    choices = [{"name": f"c{i}", "value": f"v{i}"} for i in range(26)]
    string = {"type": 3, "name": "game", "description": "x"}
    assert limits.command_problems(command(options=[{**string, "choices": choices}]))
    assert limits.command_problems(command(options=[{**string, "choices": choices[:25]}])) == []
    long_value = [{"name": "c", "value": "v" * 101}]
    assert limits.command_problems(command(options=[{**string, "choices": long_value}]))
    assert limits.command_problems(command(options=[{**string, "max_length": 6001}]))
    assert limits.command_problems(command(options=[{**string, "max_length": 6000, "min_length": 0}])) == []
    assert limits.command_problems(command(options=[{**string, "choices": choices[:2], "autocomplete": True}]))


def test_a_command_counts_its_longest_localization_of_each_field() -> None:
    options = [
        {"type": 3, "name": f"o{i}", "description": "d" * 90, "description_localizations": {"ru": "я" * 100}}
        for i in range(25)
    ]
    sub = [{"type": 1, "name": f"s{i}", "description": "x", "options": options} for i in range(4)]
    big = command(options=sub)
    assert limits.command_characters(big) > limits.COMMAND_CHARACTERS_MAX
    assert any("in all" in p for p in limits.command_problems(big))
    assert limits.command_characters(command(options=sub[:3])) < limits.COMMAND_CHARACTERS_MAX


def test_messages_embeds_and_attachments() -> None:
    assert limits.message_problems({"content": "x" * 2000}) == []
    assert limits.message_problems({"content": "x" * 2001})
    field = {"name": "n" * 256, "value": "v" * 1024}
    assert limits.message_problems({"embeds": [{"title": "t" * 256, "fields": [field]}]}) == []
    assert limits.message_problems({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]})
    assert limits.message_problems({"embeds": [{"title": "t" * 257}]})
    assert limits.message_problems({"embeds": [{"description": "d" * 4097}]})
    assert limits.message_problems({"embeds": [{"footer": {"text": "f" * 2049}}]})
    # Six embeds of 1,000 characters each fit one by one, and are one character too many together.
    six = [{"description": "d" * 1000} for _ in range(6)]
    assert limits.message_problems({"embeds": six}) == []
    six[0]["title"] = "t"
    assert any("in all" in p for p in limits.message_problems({"embeds": six}))
    assert limits.message_problems({"embeds": [{"title": "t"}] * 11})
    attachment = {"id": 0, "filename": "board.png", "description": "a" * 1024}
    assert limits.message_problems({"attachments": [attachment]}) == []
    assert limits.message_problems({"attachments": [{**attachment, "description": "a" * 1025}]})
    assert limits.message_problems({}, {"board.png": b"x" * (limits.ATTACHMENT_SIZE_MAX + 1)})


def button(custom_id: str, label: str = "Play") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def test_components_in_both_layouts() -> None:
    row = {"type": 1, "components": [button(f"b{i}") for i in range(5)]}
    assert limits.message_problems({"components": [row]}) == []
    assert limits.message_problems({"components": [{"type": 1, "components": [button(f"b{i}") for i in range(6)]}]})
    rows = [{"type": 1, "components": [button(f"r{r}b{i}") for i in range(5)]} for r in range(6)]
    assert limits.message_problems({"components": rows})
    assert limits.message_problems({"components": rows[:5]}) == []
    assert limits.message_problems({"components": [{"type": 1, "components": [button("x" * 101)]}]})
    assert limits.message_problems({"components": [{"type": 1, "components": [button("a", "l" * 81)]}]})
    assert limits.message_problems({"components": [{"type": 1, "components": [button("a"), button("a")]}]})
    options = [{"label": f"option {i}", "value": str(i)} for i in range(25)]
    select = {"type": 3, "custom_id": "pick", "options": options, "placeholder": "p" * 150}
    assert limits.message_problems({"components": [{"type": 1, "components": [select]}]}) == []
    too_many = {**select, "options": [*options, {"label": "one more", "value": "25"}]}
    assert limits.message_problems({"components": [{"type": 1, "components": [too_many]}]})
    long_label = {**select, "options": [{"label": "l" * 101, "value": "0"}]}
    assert limits.message_problems({"components": [{"type": 1, "components": [long_label]}]})
    assert limits.message_problems({"components": [{"type": 1, "components": [select, button("b")]}]})
    # Components V2: 40 in all, nested ones counted; no content beside them.
    texts = [{"type": 10, "content": "t"} for _ in range(39)]
    v2 = {"flags": limits.IS_COMPONENTS_V2, "components": [{"type": 17, "components": texts}]}
    assert limits.message_problems(v2) == []
    v2["components"][0]["components"].append({"type": 10, "content": "t"})
    assert any("40" in p for p in limits.message_problems(v2))
    assert limits.message_problems({"flags": limits.IS_COMPONENTS_V2, "content": "x", "components": []})
    assert limits.message_problems(
        {"flags": limits.IS_COMPONENTS_V2, "components": [{"type": 10, "content": "t" * 4001}]}
    )


def test_autocomplete_and_channel_names() -> None:
    choices = [{"name": "n" * 100, "value": "v" * 100} for _ in range(25)]
    assert limits.autocomplete_problems(choices) == []
    assert limits.autocomplete_problems([*choices, {"name": "x", "value": "x"}])
    assert limits.autocomplete_problems([{"name": "n" * 101, "value": 1}])
    assert limits.autocomplete_problems([{"name": "n", "value": 2**53}])
    assert limits.channel_name_problem("c" * 100) is None
    assert limits.channel_name_problem("c" * 101) and limits.channel_name_problem("")


def test_clip_marks_a_cut_and_keeps_the_limit() -> None:
    assert limits.clip("short", 10) == "short"
    assert limits.clip("x" * 11, 10) == "x" * 9 + "…"
    assert len(limits.clip("x" * 6000, limits.MESSAGE_CONTENT_MAX)) == limits.MESSAGE_CONTENT_MAX


# -- the command payload, as synced, in every locale --------------------------------------------------------


@pytest.fixture(scope="module")
def payload() -> list[dict[str, Any]]:
    return TabulaBot.create(Settings()).command_payload()


def walk_options(options: list[dict[str, Any]], path: str) -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    for option in options:
        where = f"{path} {option['name']}"
        if option["type"] in (limits.SUB_COMMAND, limits.SUB_COMMAND_GROUP):
            found += walk_options(option.get("options") or [], where)
        else:
            found.append((where, option))
    return found


def test_the_whole_command_payload_is_within_discords_limits_in_every_locale(payload: list[dict[str, Any]]) -> None:
    assert limits.commands_problems(payload) == []
    # Every locale the catalogs translate is in the payload (so the check above read each of them).
    described = {locale for command in payload for locale in command.get("description_localizations") or {}}
    assert {"ru", "fr"} <= described


def test_a_translation_one_character_too_long_fails(payload: list[dict[str, Any]]) -> None:
    changed = copy.deepcopy(payload)
    option = walk_options(changed[0]["options"], "")[0][1]
    option.setdefault("description_localizations", {})["fr"] = "é" * (limits.COMMAND_DESCRIPTION_MAX + 1)
    assert limits.commands_problems(changed)


def test_every_free_text_option_declares_its_length_and_every_number_its_bounds(
    payload: list[dict[str, Any]],
) -> None:
    options = [found for command in payload for found in walk_options(command.get("options") or [], command["name"])]
    free_text = [(where, o) for where, o in options if o["type"] == limits.STRING and not o.get("choices")]
    assert free_text, "the payload has free-text options"
    for where, option in free_text:
        assert 1 <= option.get("max_length", 0) <= limits.OPTION_MAX_LENGTH_MAX, where
    numbers = [(where, o) for where, o in options if o["type"] in (limits.INTEGER, limits.NUMBER)]
    for where, option in numbers:
        assert option.get("min_value") is not None and option.get("max_value") is not None, where
        assert limits.INTEGER_OPTION_MIN <= option["min_value"] <= option["max_value"] <= limits.INTEGER_OPTION_MAX
    # The match and event numbers reach the largest integer Discord takes, and no further.
    ids = [o["max_value"] for where, o in numbers if where.endswith((" match", " event"))]
    assert ids and set(ids) == {limits.INTEGER_OPTION_MAX}


def test_print_commands_prints_the_payload_that_is_checked(
    payload: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    assert main(["--print-commands"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert limits.commands_problems(printed) == []
    assert [c["name"] for c in printed] == [c["name"] for c in payload]


# -- a sync Discord refuses ----------------------------------------------------------------------------------


async def test_a_refused_sync_stops_the_bot_with_one_line_naming_command_option_and_reason(
    world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    commands = world.bot.command_payload()
    index = next(i for i, c in enumerate(commands) if c["name"] == "history")
    option = next(i for i, o in enumerate(commands[index]["options"]) if o["name"] == "match")
    reason = "int value should be less than or equal to 9007199254740991."
    errors = {str(index): {"options": {str(option): {"max_value": {"_errors": [{"code": "X", "message": reason}]}}}}}
    world.recorder.fail("sync", Failure(400, limits.INVALID_FORM_BODY, errors=errors))
    with pytest.raises(app_commands.CommandSyncFailure) as refused:
        await world.bot.sync_commands()
    assert fatal(refused.value, debug=False) == 1
    said = capsys.readouterr().err.strip()
    assert said.count("\n") == 0, said
    assert "history" in said and "match" in said and reason in said and said.startswith("tabula: ")
