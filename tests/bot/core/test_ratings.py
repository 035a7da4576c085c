"""Ratings, ladders, stats and history: the maths against OpenSkill, and the commands end to end."""

from __future__ import annotations

import random
import re

import pytest
from openskill.models import PlackettLuce

from bot.core import ratings
from bot.core.refusals import Refusal
from bot.core.service import MatchService
from bot.storage import MatchStore, Seat
from tests.bot_world import ANA, BO, CY, Clock, World, only
from tests.harness import GUILD_ID

SEATS = [Seat(i, f"P{i}") for i in range(1, 9)]


def test_two_player_win_matches_openskill() -> None:
    model = PlackettLuce()
    expected = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    got = ratings.rate([None, None], [1, 2])
    assert got == [(team[0].mu, team[0].sigma) for team in expected]
    assert got[0][0] > 25 > got[1][0]


def test_a_draw_moves_equal_players_equally() -> None:
    (mu_a, sigma_a), (mu_b, sigma_b) = ratings.rate([None, None], [1, 1])
    assert mu_a == pytest.approx(mu_b) and sigma_a == pytest.approx(sigma_b)
    assert mu_a == pytest.approx(25.0)
    assert sigma_a < 25 / 3


def test_multiplayer_placements_with_a_tie_match_openskill() -> None:
    model = PlackettLuce()
    start = [(30.0, 5.0), None, (20.0, 7.0), (25.0, 3.0)]
    places = [2, 1, 2, 4]
    teams = [[model.rating(*(pair or (25.0, 25 / 3)))] for pair in start]
    expected = model.rate(teams, ranks=places)
    got = ratings.rate(start, places)
    assert len(got) == len(expected)
    for (mu, sigma), team in zip(got, expected, strict=True):
        assert mu == pytest.approx(team[0].mu) and sigma == pytest.approx(team[0].sigma)


def test_display_is_conservative_and_friendly() -> None:
    assert ratings.display(*ratings.initial()) == 1000
    assert ratings.display(30.0, 2.0) > ratings.display(30.0, 5.0)
    assert ratings.result_of([1, 1], 0) == "draw" and ratings.result_of([1, 2], 1) == "loss"
    change = ratings.Change(1, "Ana", None, (27.0, 8.0), 1)
    assert change.text().startswith("Ana 1000 → ") and "provisional" in change.text()


async def finish_random_game(service: MatchService, channel: int, players: list[Seat], rng: random.Random) -> None:
    challenge = await service.challenge(
        guild_id=GUILD_ID, channel_id=channel, game="pond", challenger=players[0], opponents=players[1:], options={}
    )
    answer = await service.answer(challenge.record.id, players[1], True)
    record, state = answer.record, answer.state
    if rng.random() < 0.1:
        await service.cancel(channel, players[0].user_id, can_manage=True)
        return
    while state.outcome() is None:
        mover = record.players[state.to_move].user_id
        if rng.random() < 0.01:
            turn = await service.resign(channel, mover)
        else:
            turn = await service.play(channel, mover, state.move_text(rng.choice(state.legal_moves())))
        record, state = turn.record, turn.state


async def test_recomputing_every_rating_from_the_log_gives_the_stored_values(database: str) -> None:
    clock = Clock()
    store = await MatchStore.open(database, rating=ratings)
    service = MatchService(store.matches, rng=random.Random(4), clock=clock)
    rng = random.Random(8)
    try:
        for game_number in range(30):
            clock.advance(60)
            pair = rng.sample(SEATS[:5], 2)
            await finish_random_game(service, 1000 + game_number % 3, pair, rng)
        stored = await store.ratings.all_ratings()
        assert len(stored) >= 4
        history = await store.ratings.rated_history()
        assert 15 <= len(history) < 30  # cancelled games are not rated
        recomputed = ratings.recompute(history)
        assert recomputed.keys() == stored.keys()
        for key, (mu, sigma) in stored.items():
            assert recomputed[key][0] == pytest.approx(mu) and recomputed[key][1] == pytest.approx(sigma), key
        # Every player's record adds up to their rated games.
        for user in SEATS[:5]:
            row = await store.ratings.rating(GUILD_ID, "pond", user.user_id)
            if row is not None:
                assert row.wins + row.losses + row.draws == row.games
    finally:
        await store.close()


async def test_a_resignation_is_a_rated_loss_and_a_cancel_is_not_rated(database: str) -> None:
    store = await MatchStore.open(database, rating=ratings)
    service = MatchService(store.matches, rng=random.Random(1), clock=Clock())
    try:
        challenge = await service.challenge(
            guild_id=GUILD_ID, channel_id=1, game="pond", challenger=SEATS[0], opponents=[SEATS[1]], options={}
        )
        await service.answer(challenge.record.id, SEATS[1], True)
        await service.resign(1, SEATS[0].user_id)
        loser = await store.ratings.rating(GUILD_ID, "pond", SEATS[0].user_id)
        winner = await store.ratings.rating(GUILD_ID, "pond", SEATS[1].user_id)
        assert (loser.losses, loser.wins, winner.wins) == (1, 0, 1)
        assert ratings.display(winner.mu, winner.sigma) > ratings.display(loser.mu, loser.sigma)
        challenge = await service.challenge(
            guild_id=GUILD_ID, channel_id=2, game="pond", challenger=SEATS[2], opponents=[SEATS[3]], options={}
        )
        await service.answer(challenge.record.id, SEATS[3], True)
        await service.cancel(2, SEATS[2].user_id, can_manage=True)
        assert await store.ratings.rating(GUILD_ID, "pond", SEATS[2].user_id) is None
        with pytest.raises(Refusal):
            await service.running(2)
    finally:
        await store.close()


# -- the commands --------------------------------------------------------------------


async def seed_ladder(world: World, players: int, *, guild: int = GUILD_ID, game: str = "pond") -> None:
    """Fill a ladder directly in the database (faster than playing thousands of games)."""
    rng = random.Random(players)
    async with world.bot.store.database.transaction() as db:
        await db.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, wins, losses, draws, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
            [
                (
                    guild,
                    game,
                    5000 + i,
                    f"Player {i}",
                    mu,
                    sigma,
                    ratings.ordinal(mu, sigma),
                    games,
                    games // 2,
                    games - games // 2,
                    0,
                )
                for i in range(players)
                for mu, sigma, games in [(rng.uniform(10, 40), rng.uniform(1, 8), rng.randint(1, 40))]
            ],
        )


async def leaderboard(world: World, person, page: int | None = None):
    options = {"game": "pond"} if page is None else {"game": "pond", "page": page}
    return only(await world.command(person, 700, "leaderboard", "", **options), "reply")


async def test_an_empty_ladder_says_so(world: World) -> None:
    reply = await leaderboard(world, ANA)
    assert "Nobody has finished" in reply.data["embeds"][0]["description"]
    assert not reply.custom_ids


async def test_exactly_one_page_has_no_buttons(world: World) -> None:
    await seed_ladder(world, 10)
    reply = await leaderboard(world, ANA)
    description = reply.data["embeds"][0]["description"]
    assert len(re.findall(r"Player \d", description)) == 10 and not reply.custom_ids
    assert "Page 1 of 1" in reply.data["embeds"][0]["footer"]["text"]


async def test_pages_buttons_and_the_last_page(world: World) -> None:
    await seed_ladder(world, 25)
    reply = await leaderboard(world, ANA)
    assert len(reply.custom_ids) == 2 and all(len(c) <= 100 for c in reply.custom_ids)
    next_id = next(c for c in reply.custom_ids if c.endswith(":next"))
    edit = only(await world.discord.press(BO, 700, next_id), "edit")
    assert "Page 2 of 3" in edit.data["embeds"][0]["footer"]["text"]
    last = await leaderboard(world, ANA, page=99)  # past the end shows the last page
    embed = last.data["embeds"][0]
    assert "Page 3 of 3" in embed["footer"]["text"] and len(re.findall(r"Player \d", embed["description"])) == 5
    ranks = [int(line.split()[0].lstrip("▶")) for line in embed["description"].splitlines()[2:-1]]
    assert ranks == [21, 22, 23, 24, 25]


async def test_the_asking_players_row_is_highlighted_or_appended(world: World) -> None:
    await seed_ladder(world, 30)
    light, dark = await world.start_pond(701)
    await world.command(dark, 701, "pond", "resign")
    for person in (light, dark):
        embed = (await leaderboard(world, person)).data["embeds"][0]
        mine = [line for line in embed["description"].splitlines() if line.startswith("▶")]
        assert len(mine) == 1 and person.name in mine[0]


async def test_a_ladder_of_thousands_stays_within_discords_limits(world: World) -> None:
    await seed_ladder(world, 5000)
    for page in (1, 2, 250, 500, 501):
        reply = await leaderboard(world, ANA, page=page)
        embed = reply.data["embeds"][0]
        assert len(embed["description"]) <= 4096
        assert len(embed["title"]) + len(embed["description"]) + len(embed["footer"]["text"]) <= 6000
        assert len(re.findall(r"Player \d", embed["description"])) == 10


async def test_other_servers_players_stay_off_the_ladder(world: World) -> None:
    await seed_ladder(world, 3, guild=GUILD_ID + 1)
    reply = await leaderboard(world, ANA)
    assert "Nobody has finished" in reply.data["embeds"][0]["description"]


async def test_the_result_shows_rating_changes_and_stats_and_history_follow(world: World) -> None:
    light, dark = await world.start_pond(702)
    await world.command(light, 702, "pond", "place", cell="a1")
    posted = only(await world.command(dark, 702, "pond", "resign"), "followup")
    assert "Ratings:" in posted.content and "1000 →" in posted.content and "provisional" in posted.content
    stats = only(await world.command(CY, 702, "stats", "", player=light), "reply")
    field = stats.data["embeds"][0]["fields"][0]
    assert field["name"] == "Pond" and "rank 1 of 2" in field["value"] and "**W**" in field["value"]
    own = only(await world.command(CY, 702, "stats", ""), "reply")
    assert "not finished a game" in own.data["embeds"][0]["description"]
    history = only(await world.command(CY, 702, "history", ""), "reply")
    lines = history.data["embeds"][0]["description"].splitlines()
    assert len(lines) == 1 and f"{light.name} beat {dark.name}" in lines[0]
    match_id = int(lines[0].split("`#")[1].split("`")[0])
    board = only(await world.command(CY, 702, "history", "", match=match_id), "followup")
    assert board.files[f"replay-{match_id}.gif"].startswith(b"GIF89a")
    refusal = only(await world.command(CY, 702, "history", "", match=match_id + 50), "reply")
    assert refusal.ephemeral and "no finished game" in refusal.content
    mine = only(await world.command(CY, 702, "history", "", player=ANA), "reply")
    assert "beat" in mine.data["embeds"][0]["description"]
