"""``/leaderboard``, ``/stats`` and ``/history`` answer in public, in the server's language, as the players' page says.

Ladders, records and replays are what players show each other: anyone may turn a ladder's pages or step through a
replay, so the answer is posted for the channel, in the language of every other public post, whoever asked.
"""

from __future__ import annotations

from tests.bot.core.test_ratings import seed_ladder
from tests.bot_world import ANA, BO, MOD, World, only
from tests.harness import Person

CHANNEL = 760
ANA_RU = Person(ANA.id, ANA.name, locale="ru")


async def finished_game(world: World) -> None:
    """A finished, rated Pond game, in a French server."""
    await world.command(MOD, CHANNEL, "tabula", "language", language="fr")
    light, dark = await world.start_pond(CHANNEL)
    await world.command(light, CHANNEL, "pond", "place", cell="a1")
    await world.command(dark, CHANNEL, "pond", "resign")


async def test_stats_leaderboard_and_history_are_public_in_the_servers_language(world: World) -> None:
    await finished_game(world)
    stats = only(await world.command(ANA_RU, CHANNEL, "stats", ""), "reply")
    assert not stats.ephemeral and stats.data["embeds"][0]["title"] == f"Parties jouées par {ANA.name}"
    board = only(await world.command(ANA_RU, CHANNEL, "leaderboard", "", game="pond"), "reply")
    assert not board.ephemeral and board.data["embeds"][0]["title"] == "Classement de Pond"
    history = only(await world.command(ANA_RU, CHANNEL, "history", ""), "reply")
    assert not history.ephemeral and history.data["embeds"][0]["title"] == "Dernières parties de ce salon"
    mine = only(await world.command(ANA_RU, CHANNEL, "history", "", player=BO), "reply")
    # A page turned by someone else keeps the server's language.
    assert not mine.ephemeral and mine.data["embeds"][0]["title"] == f"Dernières parties jouées par {BO.name}"


async def test_a_refusal_stays_private_in_the_askers_language(world: World) -> None:
    await finished_game(world)
    refused = only(await world.command(ANA_RU, CHANNEL, "history", "", match=4242), "reply")
    assert refused.ephemeral and "4242" in refused.content and "There is no" not in refused.content


async def test_a_ladder_page_turned_by_someone_else_keeps_the_servers_language(world: World) -> None:
    await world.command(MOD, CHANNEL, "tabula", "language", language="fr")
    await seed_ladder(world, 25)
    board = only(await world.command(ANA_RU, CHANNEL, "leaderboard", "", game="pond"), "reply")
    turned = next(c for c in board.custom_ids if c.endswith(":next"))
    edit = only(await world.discord.press(Person(BO.id, BO.name, locale="ru"), CHANNEL, turned), "edit")
    assert edit.data["embeds"][0]["title"] == "Classement de Pond"
    assert edit.data["embeds"][0]["footer"]["text"].startswith("Page 2 sur 3")
