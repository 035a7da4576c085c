"""Tabula in the players' languages, through the real command tree.

A Russian server (``guild_locale`` ``ru``) where Ana's client is French: what the channel sees is Russian,
what only Ana sees is French.  An English server reads as before; ``/tabula language`` (Manage Server)
switches a server's public language, and ``/tabula settings`` shows it.
"""

from __future__ import annotations

import random

import pytest

from bot.games.pond import RULES as POND_RULES
from bot.games.querni import RULES as QUERNI_RULES
from bot.storage.settings_store import GuildSettings
from bot.text.translator import CatalogTranslator
from i18n.phrases import rules_text
from tests.bot_world import ANA, BO, MOD, World, only
from tests.harness import GUILD_ID, Call, Person, option

ANA_FR = Person(ANA.id, "Ana", locale="fr")
BO_RU = Person(BO.id, "Bo", locale="ru")
MOD_RU = Person(MOD.id, "Mod", admin=True, locale="ru")
MEMBER_FR = Person(100000000000000005, "Eve", locale="fr")


def russian_server(world: World) -> World:
    world.discord.guild_locale = "ru"
    return world


async def start(world: World, game: str, channel: int, challenger: Person, opponent: Person) -> tuple[Call, Call]:
    """Challenge and accept; return the challenge reply and the first board."""
    reply = only(await world.command(challenger, channel, game, "start", opponent=opponent), "reply")
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    calls = await world.discord.press(opponent, channel, accept)
    return reply, calls


async def labels(world: World, person: Person, channel: int, game: str, sub: str, name: str) -> list[str]:
    """The names (labels) of the autocomplete choices ``person`` is offered for option ``name``."""
    payload = world.discord.command_payload(
        person, channel, game, sub, [option(name, "", focused=True)], autocomplete=True
    )
    answer = only(await world.discord.send(payload), "autocomplete")
    return [choice["name"] for choice in answer.data.get("choices", [])]


async def test_a_russian_server_sees_russian_and_its_french_player_reads_french(world: World) -> None:
    russian_server(world)
    channel = 701
    reply, calls = await start(world, "pond", channel, ANA_FR, BO_RU)
    # The challenge is public: Russian, though the challenger's client is French.
    assert "**Ana** вызывает" in reply.content and "Вызов истекает" in reply.content, reply.content
    buttons = [item["label"] for row in reply.data["components"] for item in row["components"]]
    assert buttons == ["Принять", "Отклонить"]
    assert only(calls, "edit").content.endswith("принят: партия началась!")
    first = only(calls, "message")
    assert "Партия в **Pond** начинается" in first.content and "светлые" in first.content, first.content
    assert "ваш ход" in first.content

    # Ana's private replies are French: a refused claim, and the rules.
    claim = only(await world.command(ANA_FR, channel, "pond", "claim"), "reply")
    assert claim.ephemeral
    assert "C'est votre tour" in claim.content or "a encore le temps de jouer" in claim.content, claim.content
    rules = only(await world.command(ANA_FR, channel, "pond", "rules"), "reply")
    assert rules.ephemeral and rules.content.startswith(rules_text("fr", "pond", POND_RULES) + "\n")
    assert rules_text("fr", "pond", POND_RULES) != POND_RULES and rules.content.endswith("/docs/fr/pond.md>")
    # Bo's are Russian.
    claim = only(await world.command(BO_RU, channel, "pond", "claim"), "reply")
    assert "Сейчас ваш ход" in claim.content or "ещё есть время" in claim.content, claim.content

    # Whoever waits is refused in their own language when they try to move.
    record, state = await world.bot.service.running(channel, "pond")
    waiting = ANA_FR if record.players[state.to_move].user_id == BO.id else BO_RU
    refused = only(await world.command(waiting, channel, "pond", "place", cell="a1"), "reply")
    expected = "Ce n'est pas votre tour" if waiting is ANA_FR else "Сейчас не ваш ход"
    assert refused.ephemeral and expected in refused.content, refused.content

    # The whole match: every turn line and the result in Russian.
    people = {ANA.id: ANA_FR, BO.id: BO_RU}
    rng = random.Random(5)
    while True:
        record, state = await world.bot.service.running(channel, "pond")
        move = rng.choice(state.legal_moves())
        parts = state.move_text(move).split()
        mover = people[record.players[state.to_move].user_id]
        if parts[0] == "place":
            calls = await world.command(mover, channel, "pond", "place", cell=parts[1])
        else:
            calls = await world.command(mover, channel, "pond", "move", from_=parts[1], to=parts[2])
        posted = only(calls, "followup")
        assert "Счёт:" in posted.content and "Score:" not in posted.content, posted.content
        if (await world.bot.service.store.open_match(channel)) is None:
            break
        assert "ваш ход" in posted.content, posted.content
    assert "побеждает" in posted.content or "вничью" in posted.content, posted.content
    assert "Рейтинги:" in posted.content and "предварительный" in posted.content
    # (The game's own sentences, what a move did and why the game ended, come from i18n's game texts.)


async def test_autocomplete_labels_and_refusals_follow_the_askers_language(world: World) -> None:
    russian_server(world)
    channel = 702
    _, calls = await start(world, "querni", channel, ANA_FR, BO_RU)
    assert "**Ana** — " in only(calls, "message").content  # "Ana — синие" / "Ana — красные"
    record, state = await world.bot.service.running(channel, "querni")
    mover = ANA_FR if record.players[state.to_move].user_id == ANA.id else BO_RU
    offered = await labels(world, mover, channel, "querni", "move", "from")
    word = "pièce" if mover is ANA_FR else "фишка"
    assert offered and all(word in label for label in offered), offered
    rules = only(await world.command(BO_RU, channel, "querni", "rules"), "reply")
    assert rules.content.startswith(rules_text("ru", "querni", QUERNI_RULES) + "\n")
    assert rules.content.endswith("/docs/ru/querni.md>")
    assert rules_text("ru", "querni", QUERNI_RULES) != QUERNI_RULES
    # A refusal before any game exists, in another channel: French for Ana.
    nothing = only(await world.command(ANA_FR, 799, "pond", "resign"), "reply")
    assert (
        nothing.ephemeral
        and nothing.content
        == "Vous n'avez pas de partie de Pond en cours sur ce serveur. Lancez-en une avec `/pond start`."
    )
    missing = only(await world.command(BO_RU, 799, "history", "", match=4242), "reply")
    assert missing.ephemeral and missing.content == "На этом сервере нет завершённой партии № 4242."


async def test_an_english_server_reads_as_before(world: World) -> None:
    channel = 703
    reply, calls = await start(world, "pond", channel, ANA, BO)
    assert "**Ana** challenges" in reply.content and "The challenge expires" in reply.content
    assert only(calls, "edit").content.endswith("accepted: the game is on!")
    first = only(calls, "message")
    assert first.content.startswith("**Pond** begins: **") and "plays light" in first.content, first.content
    settings = only(await world.command(ANA, channel, "tabula", "settings"), "reply")
    assert settings.ephemeral and "English (automatic: the server's Discord language)" in settings.content


async def test_tabula_language_needs_manage_server_and_switches_the_public_language(world: World) -> None:
    channel = 704
    refused = only(await world.command(MEMBER_FR, channel, "tabula", "language", language="ru"), "reply")
    assert refused.ephemeral and refused.content.startswith("Seul un membre ayant la permission Gérer le serveur")
    assert await world.bot.store.settings.language(GUILD_ID) == "en"

    done = only(await world.command(MOD_RU, channel, "tabula", "language", language="fr"), "reply")
    assert done.ephemeral and "Français" in done.content and done.content.startswith("Готово")
    reply, calls = await start(world, "pond", channel, ANA, BO)
    assert "**Ana** défie" in reply.content and "Le défi expire" in reply.content, reply.content
    assert only(calls, "edit").content.endswith("accepté : la partie commence !")

    shown = only(await world.command(ANA, channel, "tabula", "settings"), "reply")
    assert "Français (chosen with `/tabula language`)" in shown.content
    assert "Time for a turn: 24 hours" in shown.content and "15 minutes" in shown.content

    # The setting outlives a restart, and "auto" follows the server's Discord language again.
    restarted = await world.restart()
    try:
        assert await restarted.bot.store.settings.language(GUILD_ID) == "fr"
        restarted.discord.guild_locale = "ru"
        only(await restarted.command(MOD, channel, "tabula", "language", language="auto"), "reply")
        assert await restarted.bot.store.settings.language(GUILD_ID) == "ru"
    finally:
        await restarted.stop()


async def test_background_posts_use_the_servers_language(world: World) -> None:
    russian_server(world)
    channel = 705
    reply = only(await world.command(ANA_FR, channel, "pond", "start", opponent=BO_RU), "reply")
    assert "вызывает" in reply.content
    world.recorder.clear()
    world.clock.advance(16 * 60)
    assert await world.bot.sweep() == 1  # no interaction here: the language comes from the stored setting
    edits = [c for c in world.recorder.calls if c.kind == "edit-message"]
    assert edits and edits[-1].content.endswith("истёк: никто не ответил вовремя."), edits


@pytest.mark.parametrize(
    ("chosen", "guild_locale", "expected"),
    [
        (None, None, "en"),
        (None, "ru", "ru"),
        (None, "fr", "fr"),
        (None, "en-GB", "en"),
        (None, "de", "en"),  # a language Tabula does not speak: English
        ("fr", "ru", "fr"),  # the server's choice wins over its Discord language
        ("en", "ru", "en"),
    ],
)
def test_the_public_language_is_the_choice_else_the_servers_discord_language_else_english(
    chosen: str | None, guild_locale: str | None, expected: str
) -> None:
    assert GuildSettings(GUILD_ID, chosen, guild_locale).effective_language == expected


async def test_the_bot_syncs_with_the_catalog_translator(world: World) -> None:
    assert isinstance(world.bot.tree.translator, CatalogTranslator)
    payload = world.bot.command_payload()
    tabula = next(command for command in payload if command["name"] == "tabula")
    assert tabula["description_localizations"]["ru"] == "Настройки Tabula для этого сервера."
    language = next(o for o in tabula["options"] if o["name"] == "language")["options"][0]
    assert [c["name"] for c in language["choices"]][1:] == ["English", "Русский", "Français"]
    assert language["choices"][0]["name_localizations"]["fr"] == "Auto : la langue Discord du serveur"


async def test_a_challenge_names_its_options_in_the_servers_language(world: World) -> None:
    russian_server(world)
    reply = only(await world.command(ANA_FR, 706, "pond", "start", opponent=BO_RU, variant="mini"), "reply")
    assert "**Pond** (вариант мини)." in reply.content, reply.content
