"""The organisers' role (``/tabula organiser``): its members run events as Manage Server members can, through the
real command tree; the member's roles arrive in the interaction payload, as Discord sends them."""

from __future__ import annotations

from typing import Any

from bot.core import tournament_formats as f
from bot.storage.tournament_store import EventStatus
from tests.bot_world import ANA, BO, CY, MOD, World
from tests.harness import GUILD_ID, Call, Person, option, settle

CHANNEL = 903
ROLE = 300000000000000042


def role_payload(role_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "hoist": False,
        "position": 1,
        "permissions": "0",
        "managed": False,
        "mentionable": True,
        "flags": 0,
    }


async def as_member(
    world: World, person: Person, group: str, sub: str, options: list[dict[str, Any]], roles: list[int]
) -> list[Call]:
    """A command from ``person`` holding ``roles`` (IDs in the interaction's member payload)."""
    payload = world.discord.command_payload(person, CHANNEL, group, sub, options)
    payload["member"]["roles"] = [str(r) for r in roles]
    return await world.discord.send(payload)


async def name_role(world: World, person: Person, role: int | None) -> list[Call]:
    options = [option("role", str(role), kind=8)] if role is not None else []
    payload = world.discord.command_payload(person, CHANNEL, "tabula", "organiser", options)
    if role is not None:
        payload["data"]["resolved"] = {"roles": {str(role): role_payload(role, "Organisers")}}
    return await world.discord.send(payload)


def texts(calls: list[Call]) -> list[str]:
    return [c.content for c in calls if c.content]


async def test_members_of_the_organisers_role_create_start_remove_and_cancel_events(world: World) -> None:
    create = [option("game", "pond"), option("format", f.SWISS), option("name", "Club Night")]
    refused = await as_member(world, ANA, "tournament", "create", create, [ROLE])
    assert any("Manage Server" in t for t in texts(refused))  # no role named yet: Manage Server only
    assert not await world.bot.store.tournaments.of_guild(GUILD_ID)

    refused = await name_role(world, ANA, ROLE)  # only Manage Server names the role
    assert any("Manage Server" in t for t in texts(refused))
    done = await name_role(world, MOD, ROLE)
    assert any(f"<@&{ROLE}>" in t for t in texts(done))
    assert (await world.bot.store.settings.get(GUILD_ID)).organiser_role == ROLE
    shown = await world.command(BO, CHANNEL, "tabula", "settings")
    assert any(f"Who runs events: members with Manage Server or the role <@&{ROLE}>" in t for t in texts(shown))

    calls = await as_member(world, ANA, "tournament", "create", create, [ROLE])
    assert any(c.kind == "reply" and "Club Night" in c.content for c in calls)
    event = (await world.bot.store.tournaments.of_guild(GUILD_ID))[0]
    for person in (ANA, BO, CY):
        await world.command(person, CHANNEL, "tournament", "join")

    refused = await as_member(world, BO, "tournament", "start", [], [ROLE + 1])  # another role: refused
    assert any(f"Manage Server or the role <@&{ROLE}>" in t for t in texts(refused))
    assert (await world.bot.store.tournaments.get(event.id)).status == EventStatus.OPEN  # type: ignore[union-attr]

    calls = await as_member(world, ANA, "tournament", "start", [], [ROLE])
    await settle()
    assert any("round 1 of" in t for t in texts(calls))
    payload = world.discord.command_payload(
        ANA, CHANNEL, "tournament", "remove", [option("player", str(CY.id), kind=6)], users=[CY]
    )
    payload["member"]["roles"] = [str(ROLE)]
    calls = await world.discord.send(payload)
    assert any("Cy is no longer in" in t for t in texts(calls))

    refused = await as_member(world, BO, "tournament", "cancel", [], [])
    assert any("Manage Server or the role" in t for t in texts(refused))
    calls = await as_member(world, ANA, "tournament", "cancel", [], [ROLE])
    assert any("was cancelled" in t for t in texts(calls))
    assert (await world.bot.store.tournaments.get(event.id)).status == EventStatus.CANCELLED  # type: ignore[union-attr]


async def test_the_organisers_role_is_cleared_and_said_in_each_language(world: World) -> None:
    await name_role(world, MOD, ROLE)
    cleared = await name_role(world, MOD, None)
    assert any("Who runs events: members with Manage Server (default)" in t for t in texts(cleared))
    assert (await world.bot.store.settings.get(GUILD_ID)).organiser_role is None
    create = [option("game", "pond"), option("format", f.SWISS)]
    refused = await as_member(world, ANA, "tournament", "create", create, [ROLE])
    assert any("Manage Server" in t for t in texts(refused))

    await name_role(world, MOD, ROLE)
    for locale, words in (("ru", "Проводят турниры"), ("fr", "Qui organise les tournois")):
        reader = Person(ANA.id, "Ana", locale=locale)
        shown = await world.command(reader, CHANNEL, "tabula", "settings")
        assert any(words in t and f"<@&{ROLE}>" in t for t in texts(shown)), texts(shown)
        refused = await as_member(world, reader, "tournament", "create", create, [])
        assert any(f"<@&{ROLE}>" in t and "Manage Server" not in t for t in texts(refused)), texts(refused)
