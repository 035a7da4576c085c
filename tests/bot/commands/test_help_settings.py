"""``/help`` in each language, and the server settings of ``/tabula``: shown, set, refused, applied."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import limits
from bot.client import TabulaBot
from bot.commands.server_commands import parse_duration
from bot.core.refusals import Refusal
from bot.settings import Settings
from engines import GAMES
from tests.bot_world import ANA, BO, MOD, World, only
from tests.harness import GUILD_ID, Person


def payload_commands() -> dict[str, set[str]]:
    """Every command path of the synced payload (``pond move``, ``tabula settings``) with its options' names."""
    found: dict[str, set[str]] = {}

    def walk(entry: dict[str, Any], prefix: str) -> None:
        path = f"{prefix}{entry['name']}"
        subs = [o for o in entry.get("options", []) if o["type"] in (1, 2)]
        for sub in subs:
            walk(sub, path + " ")
        found[path] = set() if subs else {o["name"] for o in entry.get("options", [])}

    for command in TabulaBot(Settings()).command_payload():
        walk(command, "")
    return found


@pytest.mark.parametrize("locale", ["en-US", "ru", "fr", "de"])
async def test_help_names_only_commands_and_options_the_tree_has_and_every_games_commands(
    world: World, locale: str
) -> None:
    shown = only(await world.command(Person(ANA.id, "Ana", locale=locale), 301, "help", ""), "reply")
    text = shown.content
    assert shown.ephemeral and len(text) <= limits.MESSAGE_CONTENT_MAX and text.count("\n") <= 20
    commands = payload_commands()
    named = re.findall(r"`/([a-z_ ]+?)((?: \[?[a-z_0-9]+:[^` \]]*\]?)*)`", text)
    assert named
    for path, options in named:
        assert path in commands, path
        for option in re.findall(r"([a-z_0-9]+):", options):
            assert option in commands[path], (path, option)
    listed = set(re.findall(r"`([a-z_]+)`", text))  # the subcommands said once for every game, or for some
    for game in GAMES:
        for path in (p for p in commands if p.startswith(f"{game} ")):
            sub = path.split()[1]
            assert f"`/{path}" in text or sub in listed, path
    # Each game's move commands, with every option the engine's fields make (an optional one bracketed).
    assert "`/querni move from: to: [remove:]`" in text and "`/azul wall line: column:`" in text
    assert "/reminders setting:off" in text and "`/pond start opponent:@someone`" in text
    assert "draw" in listed and "Azul" not in text.split("`draw`")[0].rsplit("\n", 1)[-1]


async def test_help_is_in_the_askers_language(world: World) -> None:
    english = only(await world.command(ANA, 301, "help", ""), "reply").content
    russian = only(await world.command(Person(ANA.id, "Ana", locale="ru"), 301, "help", ""), "reply").content
    french = only(await world.command(Person(ANA.id, "Ana", locale="fr"), 301, "help", ""), "reply").content
    german = only(await world.command(Person(ANA.id, "Ana", locale="de"), 301, "help", ""), "reply").content
    assert german == english  # a language Tabula does not speak: English
    assert "Вызов" in russian and "Рейтинги" in russian and "/docs/ru/players.md>" in russian
    assert "Défier" in french and "Classements" in french and "/docs/fr/players.md>" in french
    assert english.endswith("/docs/players.md>") and len({english, russian, french}) == 3
    # Every sentence is translated: no English line is left in the Russian or French overview.
    for line in english.splitlines():
        if not line.startswith("  **"):  # a game's move commands, the same in every language
            assert line not in russian and line not in french, line


async def test_settings_show_the_defaults_to_anyone(world: World) -> None:
    shown = only(await world.command(ANA, 302, "tabula", "settings"), "reply")
    assert shown.ephemeral
    assert "Time for a turn: 24 hours (default)" in shown.content
    assert "A challenge expires after: 15 minutes (default)" in shown.content
    assert "Turn reminders: on (default)" in shown.content and "A thread for each game: off (set here)" in shown.content


async def test_a_manager_sets_each_setting_and_everyone_sees_it(world: World) -> None:
    done = only(await world.command(MOD, 303, "tabula", "turn_time", time="2d"), "reply")
    assert done.ephemeral and "Time for a turn: 2 days (set here)" in done.content
    await world.command(MOD, 303, "tabula", "challenge_time", time="1h 30m")
    await world.command(MOD, 303, "tabula", "reminders", value="off")
    await world.command(MOD, 303, "tabula", "threads", value="on")
    settings = await world.bot.store.settings.get(GUILD_ID)
    assert (settings.turn_seconds, settings.challenge_seconds, settings.reminders, settings.threads) == (
        2 * 86400,
        5400,
        False,
        True,
    )
    assert not settings.effective_reminders() and settings.effective_threads()
    assert settings.effective_turn_seconds(99.0) == 2 * 86400
    shown = only(await world.command(BO, 303, "tabula", "settings"), "reply").content
    assert "2 days (set here)" in shown and "90 minutes (set here)" in shown
    assert "Turn reminders: off (set here)" in shown and "A thread for each game: on (set here)" in shown
    # The settings survive a restart, and "default" goes back to the bot's.
    restarted = await world.restart()
    world.bot, world.discord = restarted.bot, restarted.discord
    assert (await restarted.bot.store.settings.get(GUILD_ID)).turn_seconds == 2 * 86400
    await world.command(MOD, 303, "tabula", "turn_time", time="default")
    await world.command(MOD, 303, "tabula", "reminders", value="default")
    settings = await restarted.bot.store.settings.get(GUILD_ID)
    assert settings.turn_seconds is None and settings.reminders is None and settings.effective_reminders()
    assert settings.effective_turn_seconds(99.0) == 99.0


async def test_russian_settings_read_in_russian(world: World) -> None:
    await world.command(MOD, 304, "tabula", "turn_time", time="3d")
    shown = only(await world.command(Person(BO.id, "Bo", locale="ru"), 304, "tabula", "settings"), "reply")
    assert "3 дня" in shown.content and "задано здесь" in shown.content


async def test_only_managers_change_settings_and_bad_values_change_nothing(world: World) -> None:
    for sub, value in (("turn_time", {"time": "2d"}), ("reminders", {"value": "off"}), ("threads", {"value": "on"})):
        refused = only(await world.command(ANA, 305, "tabula", sub, **value), "reply")
        assert refused.ephemeral and "Manage Server" in refused.content
    for bad, words in (
        ("0m", "from 1 minute to 14 days"),
        ("15d", "from 1 minute to 14 days"),
        ("soon", "like `30m`"),
        ("12", "like `30m`"),
        ("2d soon", "like `30m`"),
    ):
        refused = only(await world.command(MOD, 305, "tabula", "turn_time", time=bad), "reply")
        assert refused.ephemeral and words in refused.content, (bad, refused.content)
    refused = only(await world.command(MOD, 305, "tabula", "challenge_time", time="8d"), "reply")
    assert refused.ephemeral and "from 1 minute to 7 days" in refused.content
    french = only(
        await world.command(Person(MOD.id, "Mod", admin=True, locale="fr"), 305, "tabula", "turn_time", time="0m"),
        "reply",
    )
    assert "doit aller de 1 minute à 14 jours" in french.content
    settings = await world.bot.store.settings.get(GUILD_ID)
    assert settings.turn_seconds is None and settings.challenge_seconds is None and settings.reminders is None


async def test_a_servers_times_apply_to_its_new_challenges_and_turns(world: World) -> None:
    await world.command(MOD, 306, "tabula", "challenge_time", time="5m")
    await world.command(MOD, 306, "tabula", "turn_time", time="1h")
    now = world.clock.now
    reply = await world.challenge(ANA, BO, 306)
    match_id = int(next(c for c in reply.custom_ids if ":accept:" in c).rsplit(":", 1)[1])
    record = await world.bot.service.store.get(match_id)
    assert record is not None and record.deadline == now + 300
    await world.discord.press(BO, 306, f"tabula:challenge:accept:{match_id}")
    record = await world.bot.service.store.get(match_id)
    assert record is not None and record.deadline == now + 3600
    # The waiting player may claim after the server's hour, not the bot's day.
    _light, dark = await world.seats(306)
    world.clock.advance(3601)
    calls = await world.command(dark, 306, "pond", "claim")
    assert "ran out of time" in only(calls, "followup").content


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("30m", 1800), ("12h", 43200), ("2d", 172800), ("1d 12h", 129600), ("1,5h", 5400), ("2j", 172800),
     ("3ч", 10800), ("90 min", 5400), ("DEFAULT", None)],
)  # fmt: skip
def test_durations_are_read_in_every_language(text: str, seconds: int | None) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize("text", ["", "12", "h", "2x", "2d 3", "1d,,2h", "-1h"])
def test_unreadable_durations_are_refused(text: str) -> None:
    with pytest.raises(Refusal):
        parse_duration(text)
