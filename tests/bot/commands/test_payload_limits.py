"""Posts at their longest, held against Discord's limits at the HTTP edge, in every language.

The fake Discord (``bench.discord_fake``) refuses any request outside :mod:`bot.limits` as Discord does, and
the ``world`` fixture fails a test that made one; so each test here drives the longest texts a server can make
through the real command tree: the longest names Discord allows in every seat (made of the characters the
bot must escape, so each doubles), the longest reason an admin may type, a stored reason longer than any
command takes, the longest translations, and full leaderboards, and then checks the posts arrived.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot import limits
from bot.core import ratings
from bot.core.tournaments import NAME_LIMIT as EVENT_NAME_MAX
from bot.storage.records import MatchStatus
from bot.text.messages import END_REASON_MAX
from engines.azul import AzulState
from tests.bot_world import MOD, World, only
from tests.harness import GUILD_ID, Call, Person, option, settle

#: Discord's display names (a global name or a server nickname) hold 1-32 characters.
NAME_MAX = 32
#: Characters Markdown reads, each escaped with a backslash: a name of them is twice as long in a post.
MARKDOWN = "*_~`|>\\"


def longest_name(index: int) -> str:
    name = (MARKDOWN * 5)[: NAME_MAX - 2] + f"{index:02d}"
    assert len(name) == NAME_MAX
    return name


PLAYERS = [Person(100000000000000101 + i, longest_name(i)) for i in range(4)]
BY_ID = {p.id: p for p in PLAYERS}


async def set_language(world: World, channel: int, language: str) -> None:
    if language != "en":
        only(await world.command(MOD, channel, "tabula", "language", language=language), "reply")


async def start_four_player_azul(world: World, channel: int) -> int:
    """The first longest-named player challenges the other three, who accept: the game gets a thread."""
    await world.bot.store.settings.change(GUILD_ID, threads=True)
    await world.discord.guild_create([channel])
    invited = dict(zip(("opponent", "opponent2", "opponent3"), PLAYERS[1:], strict=True))
    reply = only(await world.command(PLAYERS[0], channel, "azul", "start", **invited), "reply")
    assert len(reply.content) <= limits.MESSAGE_CONTENT_MAX
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    for person in PLAYERS[1:]:
        await world.discord.press(person, channel, accept)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.status == MatchStatus.ACTIVE and record.thread_id is not None
    return record.id


async def play_azul(world: World, match_id: int, plies: int, rng: random.Random) -> list[Call]:
    """Play ``plies`` random legal moves through the commands, each from the game's thread; return the posts."""
    posts: list[Call] = []
    for _ in range(plies):
        record = await world.bot.service.store.get(match_id)
        assert record is not None
        if record.status != MatchStatus.ACTIVE:
            break
        state = world.bot.service.state_of(record)
        assert isinstance(state, AzulState) and state.to_move is not None
        move = rng.choice(state.legal_moves())
        sub, options = command_for(state, move)
        person = BY_ID[record.players[state.to_move].user_id]
        assert record.thread_id is not None
        calls = await world.command(person, record.thread_id, "azul", sub, **options)
        posts += [c for c in calls if c.kind in ("followup", "message")]
    return posts


def command_for(state: AzulState, move: Any) -> tuple[str, dict[str, str]]:
    words = state.move_text(move).split()
    if len(words) == 3:
        return "take", dict(zip(("source", "color", "line"), words, strict=True))
    return "wall", {"line": str(move.line), "column": str(move.column)}


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
async def test_the_longest_names_in_every_seat_and_the_longest_reason_fit_every_post(
    world: World, language: str
) -> None:
    channel = 3701
    await set_language(world, channel, language)
    match_id = await start_four_player_azul(world, channel)
    record = await world.bot.service.store.get(match_id)
    assert record is not None and record.thread_id is not None
    thread = world.recorder.threads[record.thread_id]
    assert 1 <= len(thread["name"]) <= limits.THREAD_NAME_MAX

    posts = await play_azul(world, match_id, 12, random.Random(language))
    assert len(posts) == 12 and all(p.board for p in posts)
    for post in posts:
        assert len(post.content) <= limits.MESSAGE_CONTENT_MAX
        assert all(len(d or "") <= limits.ATTACHMENT_DESCRIPTION_MAX for d in post.descriptions.values())
    board = await world.command(PLAYERS[0], record.thread_id, "azul", "board")
    assert any(c.board for c in board)

    # An admin ends it with the longest reason the option takes, every character one Markdown escapes.
    reason = (MARKDOWN * 40)[:END_REASON_MAX]
    since = len(world.recorder.created)
    reply = only(await world.command(MOD, channel, "tabula", "end", match=match_id, reason=reason), "reply")
    assert reply.ephemeral
    told = [c for c in world.recorder.created[since:] if world.recorder.channel_of(c) == record.thread_id]
    assert len(told) == 1 and len(told[0].content) <= limits.MESSAGE_CONTENT_MAX
    assert all(f"<@{p.id}>" in told[0].content for p in PLAYERS)
    assert "\\*\\_\\~" in told[0].content  # the reason, escaped, whole


async def test_a_stored_reason_longer_than_a_post_is_shortened_and_the_players_are_told(world: World) -> None:
    """An end reason of 6,000 characters (what Discord lets a string option carry when it declares no length)
    once made a post of 6,141 characters, which Discord refuses: the players were never told."""
    channel = 3702
    match_id = await start_four_player_azul(world, channel)
    record = await world.bot.service.store.get(match_id)
    assert record is not None and record.thread_id is not None
    answer = await world.bot.service.end_match(GUILD_ID, match_id, by=longest_name(9), reason="why " * 1500)
    since = len(world.recorder.created)
    await world.bot.announcer.deliver(answer.announcements, record=answer.record)
    told = [c for c in world.recorder.created[since:] if world.recorder.channel_of(c) == record.thread_id]
    assert len(told) == 1, [c.kind for c in world.recorder.calls[-5:]]
    assert len(told[0].content) <= limits.MESSAGE_CONTENT_MAX and told[0].content.count("why") <= END_REASON_MAX
    assert not await world.bot.service.store.failed_announcements(match_id)


async def test_a_reason_past_the_declared_length_still_makes_a_post_that_fits(world: World) -> None:
    """Discord itself refuses a longer value than ``max_length``; should one arrive anyway, the post is shortened."""
    channel = 3703
    match_id = await start_four_player_azul(world, channel)
    record = await world.bot.service.store.get(match_id)
    assert record is not None and record.thread_id is not None
    since = len(world.recorder.created)
    calls = await world.command(MOD, channel, "tabula", "end", match=match_id, reason="\u00a7" * 5000)
    assert only(calls, "reply").ephemeral
    told = [c for c in world.recorder.created[since:] if world.recorder.channel_of(c) == record.thread_id]
    assert len(told) == 1 and len(told[0].content) <= limits.MESSAGE_CONTENT_MAX
    assert told[0].content.count("\u00a7") == END_REASON_MAX - 1  # shortened, marked with an ellipsis


async def fill_ladder(world: World, players: int, language_names: bool) -> None:
    """A full ladder of players with the longest names (straight into the database: faster than games)."""
    rng = random.Random(players)
    rows = []
    for i in range(players):
        mu, sigma, games = rng.uniform(10, 40), rng.uniform(1, 8), rng.randint(1, 40)
        name = ("Ёжик" * 8 if language_names else MARKDOWN * 5)[: NAME_MAX - 3] + f"{i:03d}"
        ordinal = ratings.ordinal(mu, sigma)
        rows.append((GUILD_ID, "azul", 7000 + i, name, mu, sigma, ordinal, games, games // 2, games - games // 2, 0))
    async with world.bot.store.database.transaction() as db:
        await db.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, wins, losses, draws, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            rows,
        )


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
async def test_a_full_leaderboard_and_stats_of_the_longest_names_fit(world: World, language: str) -> None:
    channel = 3704
    await set_language(world, channel, language)
    await fill_ladder(world, 60, language_names=language == "ru")
    asker = Person(7000, longest_name(0), locale={"en": "en-US", "ru": "ru", "fr": "fr"}[language])
    for page in (1, 2, 3):
        board = only(await world.command(asker, channel, "leaderboard", "", game="azul", page=page), "reply")
        assert board.content or board.data.get("embeds")
    stats = only(await world.command(asker, channel, "stats", ""), "reply")
    assert stats.content or stats.data.get("embeds")
    history = [c for c in await world.command(asker, channel, "history", "") if c.kind == "reply"]
    assert history


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
async def test_the_largest_event_of_the_longest_names_fits_every_post_and_thread_name(
    world: World, language: str
) -> None:
    """An event with the longest name a server may give, and sixty entrants with the longest names Discord
    allows: the sign-up list, the pairings, every game's thread name, the standings and /stats all fit."""
    channel = 3705
    await set_language(world, channel, language)
    await world.bot.store.settings.change(GUILD_ID, threads=True)
    await world.discord.guild_create([channel])
    name = ("Ёлка " * 10)[:EVENT_NAME_MAX]
    calls = await world.discord.command(
        MOD,
        channel,
        "tournament",
        "create",
        [option("game", "pond"), option("format", "swiss"), option("name", name), option("rounds", 2, kind=4)],
    )
    assert only(calls, "reply")
    entrants = [Person(100000000000000300 + i, longest_name(i % 100)) for i in range(60)]
    event = (await world.bot.store.tournaments.of_guild(GUILD_ID))[0]
    for person in entrants:
        await world.discord.press(person, channel, f"tabula:event:join:{event.id}")
    await world.command(MOD, channel, "tournament", "start")
    await settle()
    names = [t["name"] for t in world.recorder.threads.values()]
    assert len(names) == 30 and all(1 <= len(n) <= limits.THREAD_NAME_MAX for n in names)

    # Every game of round 1 ends (the player to move resigns): the standings of sixty are posted.
    by_id = {p.id: p for p in entrants}
    for pairing in await world.bot.store.tournaments.pairings(event.id, 1):
        assert pairing.match_id is not None
        record = await world.bot.service.store.get(pairing.match_id)
        assert record is not None
        state = world.bot.service.state_of(record)
        await world.command(by_id[record.players[state.to_move or 0].user_id], record.place_id, "pond", "resign")
        await settle()
    standings = [c for c in world.recorder.created if c.files.get("standings.png")]
    assert standings, "the standings after round 1 were posted"
    shown = await world.command(entrants[0], channel, "tournament", "standings")
    assert any(c.kind == "reply" for c in shown)
    stats = only(await world.command(entrants[0], channel, "stats", ""), "reply")
    assert stats.data.get("embeds")


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
async def test_a_puzzle_of_the_longest_names_fits_every_post(world: World, language: str) -> None:
    from tests.puzzle_samples import sample

    channel = 3706
    await set_language(world, channel, language)
    locale = {"en": "en-US", "ru": "ru", "fr": "fr"}[language]
    asker = Person(7001, longest_name(0), locale=locale)
    made = sample("azul")
    names = [p.name for p in PLAYERS[:2]]
    await world.bot.store.puzzles.add(
        GUILD_ID, made.to_json(), key=made.key, match_id=limits.INTEGER_OPTION_MAX, ply=10**6, players=names
    )
    shown = only(await world.command(asker, channel, "puzzle", ""), "followup")
    assert shown.board is not None and shown.menus
    wrong = only(await world.command(asker, channel, "puzzle", "", move=made.alternatives[0][0]), "followup")
    assert wrong.board is not None
    board = only(await world.command(asker, channel, "leaderboard", "", game="azul", board="puzzles"), "reply")
    assert board.data.get("embeds")
    await world.bot.parts.daily.set_channel(GUILD_ID, channel)
    assert await world.bot.parts.daily.run() == 1
