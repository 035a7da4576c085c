"""Rematch buttons and draw offers, through the command tree and the HTTP edge.

A finished game's result carries a Rematch button: a press by one of its players challenges the others
to the same game with the same options (a game against the computer starts at once, at the same level);
presses by anybody else, or again while the rematch is pending or running, are refused politely.
``/<game> draw`` offers a draw in a two-player game; the opponent accepts or declines with buttons; a
move makes the offer lapse; an accepted offer is a draw, rated as one.  Buttons and offers survive restarts.
"""

from __future__ import annotations

import pytest

import i18n
from bot.core import ratings
from bot.storage.records import MatchStatus
from engines import GAMES, GameError
from engines.base import ABANDONED, AGREED
from tests.bot_world import ANA, BO, CY, World, only
from tests.harness import GUILD_ID, MISSING_PERMISSIONS, SERVER_ERROR, TIMEOUT, Call, Failure, Person, settle

# Draws are offered in two-player games only.
TWO_PLAYER = [name for name, spec in GAMES.items() if spec.max_players == 2]


def rematch_id(call: Call) -> str:
    found = [cid for cid in call.custom_ids if cid.startswith("tabula:rematch:")]
    assert len(found) == 1, call.custom_ids
    return found[0]


async def start_game(world: World, game: str, channel: int, **options: object) -> tuple[Person, ...]:
    """Ana challenges Bo to ``game`` and Bo accepts; return the players in seat order."""
    reply = only(await world.command(ANA, channel, game, "start", opponent=BO, **options), "reply")
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    await world.discord.press(BO, channel, accept)
    return await world.seats(channel)


async def offer(world: World, person: Person, channel: int, game: str = "pond") -> Call:
    reply = only(await world.command(person, channel, game, "draw"), "reply")
    assert not reply.ephemeral, reply.content
    return reply


# -- draw offers -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", TWO_PLAYER)
async def test_an_accepted_draw_offer_ends_the_game_as_a_draw_rated_as_one(world: World, game: str) -> None:
    channel = 1801
    first, second = await start_game(world, game, channel)
    reply = await offer(world, second, channel, game)  # an offer may be made on the opponent's turn
    allowed = [int(user) for user in (reply.data.get("allowed_mentions") or {}).get("users", [])]
    assert f"<@{first.id}>" in reply.content and allowed == [first.id]
    accept, decline = reply.custom_ids
    assert accept.startswith("tabula:draw:accept:") and decline.startswith("tabula:draw:decline:")
    calls = await world.discord.press(first, channel, accept)
    edit = only(calls, "edit")
    assert edit.data.get("components") == [] and "accepted" in edit.content
    result = only(calls, "message")
    assert result.board is not None
    assert "The game is a draw" in result.content and "agreed to a draw" in result.content, result.content
    assert f"{first.name} accepted {second.name}'s draw offer." in result.content
    assert "Ratings:" in result.content
    rematch_id(result)  # the result carries the Rematch button
    assert (await world.bot.service.store.open_match(channel)) is None
    for person in (first, second):
        row = await world.bot.store.ratings.rating(GUILD_ID, game, person.id)
        assert row is not None and (row.wins, row.losses, row.draws) == (0, 0, 1)
    # The log rebuilds the draw: a forfeit of kind "agreed".
    finished = (await world.bot.store.matches.finished_matches(GUILD_ID, channel_id=channel))[0]
    assert (await world.bot.service.replay(finished)).to_json() == finished.state
    assert finished.result is not None and finished.result["places"] == [1, 1]


async def test_a_declined_offer_changes_nothing_and_a_new_one_may_follow(world: World) -> None:
    channel = 1802
    light, dark = await start_game(world, "pond", channel)
    reply = await offer(world, light, channel)
    refused = only(await world.command(light, channel, "pond", "draw"), "reply")
    assert refused.ephemeral and "already offered" in refused.content
    refused = only(await world.command(dark, channel, "pond", "draw"), "reply")
    assert refused.ephemeral and "already offered you a draw" in refused.content
    stranger = only(await world.discord.press(CY, channel, reply.custom_ids[0]), "reply")
    assert stranger.ephemeral and "players of this game" in stranger.content
    own = only(await world.discord.press(light, channel, reply.custom_ids[0]), "reply")
    assert own.ephemeral and "your own draw offer" in own.content
    calls = await world.discord.press(dark, channel, reply.custom_ids[1])
    edit = only(calls, "edit")
    assert edit.data.get("components") == [] and "declined by" in edit.content
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.status == MatchStatus.ACTIVE
    await offer(world, light, channel)  # a new offer after a declined one


async def test_the_one_who_offered_may_withdraw_it(world: World) -> None:
    channel = 1803
    light, _ = await start_game(world, "pond", channel)
    reply = await offer(world, light, channel)
    edit = only(await world.discord.press(light, channel, reply.custom_ids[1]), "edit")
    assert "withdrawn" in edit.content and edit.data.get("components") == []


async def test_an_offer_lapses_when_either_player_moves(world: World) -> None:
    channel = 1804
    light, dark = await start_game(world, "pond", channel)
    reply = await offer(world, dark, channel)
    await world.command(light, channel, "pond", "place", cell="b2")
    calls = await world.discord.press(light, channel, reply.custom_ids[0])
    edit = only(calls, "edit")
    assert "lapsed" in edit.content and edit.data.get("components") == []
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.status == MatchStatus.ACTIVE and record.result is None
    assert not [c for c in calls if c.board is not None]


async def test_an_offer_survives_a_restart(world: World) -> None:
    channel = 1805
    light, dark = await start_game(world, "pond", channel)
    reply = await offer(world, light, channel)
    world = await world.restart()
    try:
        calls = await world.discord.press(dark, channel, reply.custom_ids[0])
        assert "accepted" in only(calls, "edit").content
        assert "agreed to a draw" in only(calls, "message").content
    finally:
        await world.stop()


@pytest.mark.parametrize(
    "failure",
    [SERVER_ERROR, MISSING_PERMISSIONS, TIMEOUT, Failure(0, landed=True)],
    ids=["500", "403", "timeout", "landed"],
)
async def test_an_offer_discord_did_not_take_is_withdrawn(world: World, failure: Failure) -> None:
    channel = 1807
    light, dark = await start_game(world, "pond", channel)
    world.recorder.fail("reply", failure)
    calls = await world.command(light, channel, "pond", "draw")
    told = [c for c in calls if c.kind in ("reply", "followup") and c.ephemeral]
    assert told and "there is none" in told[-1].content, [c.content for c in calls]
    landed = [c for c in world.recorder.created if c.custom_ids and c.custom_ids[0].startswith("tabula:draw:")]
    # Whatever Discord kept, no offer is pending: a button of the message that landed says it is closed,
    # and a new offer may be made.
    if landed:
        edit = only(await world.discord.press(dark, channel, landed[0].custom_ids[0]), "edit")
        assert "no longer open" in edit.content and edit.data.get("components") == []
    reply = await offer(world, light, channel)
    calls = await world.discord.press(dark, channel, reply.custom_ids[0])
    assert "agreed to a draw" in only(calls, "message").content


async def test_the_computer_declines_draw_offers_and_azul_has_none(world: World) -> None:
    channel = 1806
    await world.command(ANA, channel, "pond", "start", difficulty="easy")
    await settle()
    refused = only(await world.command(ANA, channel, "pond", "draw"), "reply")
    assert refused.ephemeral and "declines the draw" in refused.content
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.status == MatchStatus.ACTIVE
    groups = {command.name: command for command in world.bot.tree.get_commands()}
    for game, spec in GAMES.items():  # only two-player games offer draws
        has_draw = "draw" in {sub.name for sub in groups[game].commands}  # type: ignore[union-attr]
        assert has_draw == (spec.max_players == 2), game


# -- rematch -----------------------------------------------------------------------------------


async def test_a_rematch_challenges_the_other_player_to_the_same_game_with_the_same_options(world: World) -> None:
    channel = 1811
    light, dark = await start_game(world, "pond", channel, variant="large")
    old = await world.bot.service.store.open_match(channel)
    assert old is not None
    result = only(await world.command(dark, channel, "pond", "resign"), "followup")
    button = rematch_id(result)
    assert button == f"tabula:rematch:{old.id}"
    stranger = only(await world.discord.press(CY, channel, button), "reply")
    assert stranger.ephemeral and "Only the players" in stranger.content
    challenge = only(await world.discord.press(dark, channel, button), "reply")
    assert not challenge.ephemeral and f"<@{light.id}>" in challenge.content and "variant large" in challenge.content
    again = only(await world.discord.press(light, channel, button), "reply")
    assert again.ephemeral and "already waiting for an answer" in again.content
    accept = next(cid for cid in challenge.custom_ids if ":accept:" in cid)
    calls = await world.discord.press(light, channel, accept)
    assert any(c.kind == "message" and c.board for c in calls)
    new = await world.bot.service.store.open_match(channel)
    assert new is not None and new.id != old.id and new.status == MatchStatus.ACTIVE
    assert new.game == "pond" and new.options == old.options == {"variant": "large"} and new.rated
    assert {s.user_id for s in new.players} == {light.id, dark.id} and new.seed != old.seed
    late = only(await world.discord.press(dark, channel, button), "reply")
    assert late.ephemeral and "already been played again" in late.content


async def test_a_declined_rematch_may_be_asked_again(world: World) -> None:
    channel = 1812
    _, dark = await start_game(world, "pond", channel)
    result = only(await world.command(dark, channel, "pond", "resign"), "followup")
    challenge = only(await world.discord.press(dark, channel, rematch_id(result)), "reply")
    decline = next(cid for cid in challenge.custom_ids if ":decline:" in cid)
    await world.discord.press(ANA if dark != ANA else BO, channel, decline)
    challenge = only(await world.discord.press(dark, channel, rematch_id(result)), "reply")
    assert not challenge.ephemeral and "challenges" in challenge.content


async def test_a_rematch_button_works_after_a_restart(world: World) -> None:
    channel = 1813
    light, dark = await start_game(world, "pond", channel)
    result = only(await world.command(light, channel, "pond", "resign"), "followup")
    world = await world.restart()
    try:
        challenge = only(await world.discord.press(light, channel, rematch_id(result)), "reply")
        assert f"<@{dark.id}>" in challenge.content
        accept = next(cid for cid in challenge.custom_ids if ":accept:" in cid)
        world = await world.restart()
        await world.discord.press(dark, channel, accept)
        record = await world.bot.service.store.open_match(channel)
        assert record is not None and record.status == MatchStatus.ACTIVE
    finally:
        await world.stop()


async def test_a_rematch_against_the_computer_starts_at_once_at_the_same_level(world: World) -> None:
    channel = 1814
    await world.command(ANA, channel, "pond", "start", difficulty="hard", variant="mini")
    await settle()
    result = only(await world.command(ANA, channel, "pond", "resign"), "followup")
    assert "This game was not rated." in result.content
    button = rematch_id(result)
    calls = await world.discord.press(ANA, channel, button)
    await settle()
    assert only(calls, "defer") and any(c.board is not None for c in calls)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.status == MatchStatus.ACTIVE and record.options == {"variant": "mini"}
    assert {s.name for s in record.players} == {"Ana", "Tabula (hard)"}
    refused = only(await world.discord.press(ANA, channel, button), "reply")
    assert refused.ephemeral and "already been played again" in refused.content


# -- the engines and the text layer ------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_ends_on_time_by_itself_and_two_player_games_by_agreement(name: str) -> None:
    spec = GAMES[name]
    state = spec.new(players=2, seed=3)
    names = ["Ana", "Bo"]
    abandoned = state.forfeit(0, ABANDONED)
    outcome = abandoned.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.termination == ABANDONED
    assert spec.from_json(abandoned.to_json()).outcome() == outcome
    texts = {language: i18n.result_text(abandoned, names, locale=language) for language in ("en", "ru", "fr")}
    assert "claimed" not in texts["en"] and "Ana ran out of time" in texts["en"]
    assert len(set(texts.values())) == 3  # said in each language
    if spec.max_players != 2:
        with pytest.raises(GameError):
            state.forfeit(0, AGREED)
        return
    agreed = state.forfeit(1, AGREED)
    outcome = agreed.outcome()
    assert outcome is not None and outcome.is_draw and outcome.places == (1, 1) and outcome.termination == AGREED
    assert spec.from_json(agreed.to_json()).outcome() == outcome
    assert ratings.result_of(outcome.places, 0) == ratings.result_of(outcome.places, 1) == "draw"
    assert i18n.result_text(agreed, names) == "The players agreed to a draw."
    assert i18n.status_text(agreed, names, locale="fr") == "Nulle par accord"
    assert i18n.status_text(agreed, names, locale="ru") == "Ничья по соглашению"
