"""The puzzle store on both backends: adding and loading puzzles once, choosing one for a player, tries that are
version-checked and rated once, and the daily puzzle's rows."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from bot.core.puzzle_ratings import rate
from bot.core.puzzles import PuzzleService
from bot.storage import MatchStore
from bot.storage.puzzle_store import OWN_BLUNDER_SECONDS, PLAYER_START, SHIPPED, Puzzles, day_start, utc_day
from tests.puzzle_samples import sample, samples

GUILD, OTHER = 5 << 22, 6 << 22
ANA, BO = 11, 12
NOW = 1_800_000_000.0


@pytest.fixture
async def store(database: str) -> AsyncIterator[MatchStore]:
    opened = await MatchStore.open(database)
    yield opened
    await opened.close()


async def add(puzzles: Puzzles, guild: int, game: str, seed: int, rating: float, **more: object) -> int:
    made = sample(game, seed, rating)
    found = await puzzles.add(guild, made.to_json(), key=made.key, now=NOW, **more)  # type: ignore[arg-type]
    assert found is not None
    return found


async def test_adding_is_idempotent_and_the_shipped_set_loads_once(store: MatchStore) -> None:
    puzzles = store.puzzles
    made = sample("pond")
    first = await puzzles.add(GUILD, made.to_json(), key=made.key, match_id=None, players=["Ana", "Bo"], now=NOW)
    assert first is not None
    assert await puzzles.add(GUILD, made.to_json(), key=made.key, now=NOW) is None  # the same key: nothing new
    assert await puzzles.add(OTHER, made.to_json(), key=made.key, now=NOW) is not None  # another server's own
    every = [(p.key, p.to_json()) for found in samples().values() for p in found]
    assert await puzzles.load_shipped(every) == len(every)
    assert await puzzles.load_shipped(every) == 0  # at the next start: nothing twice
    assert await puzzles.count(SHIPPED) == len(every)
    stored = await puzzles.get(first)
    assert stored is not None and stored.players == ("Ana", "Bo") and stored.data == made.to_json()
    assert stored.rating == made.rating and stored.plays == 0


async def test_choosing_keeps_to_the_server_the_game_and_the_untried(store: MatchStore) -> None:
    puzzles = store.puzzles
    mine = await add(puzzles, GUILD, "pond", 3, 1500.0)
    theirs = await add(puzzles, OTHER, "pond", 5, 1500.0)
    shipped = await add(puzzles, SHIPPED, "azul", 3, 1900.0)
    found = await puzzles.candidates(GUILD, ANA, None, 1500.0, now=NOW)
    assert [p.id for p in found] == [mine, shipped]  # nearest the rating first; never another server's
    assert theirs not in [p.id for p in await puzzles.candidates(GUILD, ANA, "pond", 1500.0, now=NOW)]
    assert [p.id for p in await puzzles.candidates(GUILD, ANA, "azul", 1500.0, now=NOW)] == [shipped]
    await puzzles.start(GUILD, ANA, mine, now=NOW)
    assert [p.id for p in await puzzles.candidates(GUILD, ANA, None, 1500.0, now=NOW)] == [shipped]
    assert [p.id for p in await puzzles.candidates(GUILD, BO, None, 1500.0, now=NOW)] == [mine, shipped]


async def test_a_player_never_gets_their_own_blunder_the_same_day(store: MatchStore) -> None:
    puzzles = store.puzzles
    made = sample("summer")
    own = await puzzles.add(GUILD, made.to_json(), key=made.key, match_id=3, ply=4, blunderer=ANA, now=NOW)
    assert [p.id for p in await puzzles.candidates(GUILD, ANA, None, 1500.0, now=NOW + 3600)] == []
    assert [p.id for p in await puzzles.candidates(GUILD, BO, None, 1500.0, now=NOW + 3600)] == [own]
    later = NOW + OWN_BLUNDER_SECONDS + 1
    assert [p.id for p in await puzzles.candidates(GUILD, ANA, None, 1500.0, now=later)] == [own]


async def test_the_service_picks_near_the_players_rating(store: MatchStore) -> None:
    puzzles = store.puzzles
    near = {await add(puzzles, SHIPPED, game, seed, 1500.0) for game in ("pond", "azul") for seed in (3, 5)}
    far = await add(puzzles, SHIPPED, "querni", 3, 2400.0)
    service = PuzzleService(puzzles, clock=lambda: NOW, rng=random.Random(4))
    chosen = set()
    for user in range(20, 32):
        opened = await service.next_for(GUILD, user, None)
        chosen.add(opened.stored.id)
        assert opened.rating == PLAYER_START[0] and opened.attempt.rated
    assert far not in chosen and len(chosen) > 1  # near the rating, and not always the same
    assert chosen <= near


async def test_a_first_try_is_rated_once_and_later_tries_not_at_all(store: MatchStore) -> None:
    puzzles = store.puzzles
    pid = await add(puzzles, GUILD, "pond", 3, 1500.0)
    attempt = await puzzles.start(GUILD, ANA, pid, now=NOW)
    assert attempt.rated and attempt.step == 0
    moved = await puzzles.advance(attempt, 1)
    assert moved is not None and moved.step == 1
    assert await puzzles.advance(attempt, 1) is None  # the same step again: a second press moves nothing
    both = await asyncio.gather(
        puzzles.finish(moved, "pond", solved=True, step=2, rate=rate, now=NOW),
        puzzles.finish(moved, "pond", solved=True, step=2, rate=rate, now=NOW),
    )
    done = [f for f in both if f is not None]
    assert len(done) == 1  # two presses at once: one rating
    finished = done[0]
    assert finished.before is None and finished.after is not None
    assert finished.after.rating > 1500 and finished.after.solved == 1 and finished.after.streak == 1
    assert finished.puzzle_before is not None and finished.puzzle_after is not None
    assert finished.puzzle_after[0] < finished.puzzle_before[0]
    stored = await puzzles.get(pid)
    assert stored is not None and (stored.plays, stored.solves) == (1, 1)
    again = await puzzles.start(GUILD, ANA, pid, now=NOW)
    assert not again.rated
    failed = await puzzles.finish(again, "pond", solved=False, step=0, rate=rate, now=NOW)
    assert failed is not None and failed.after is None and failed.attempt.status == "failed"
    player = await puzzles.player(GUILD, ANA, "pond")
    assert player is not None and player.attempts == 1 and player.streak == 1  # the second try changed nothing


async def test_a_failure_rates_down_and_ends_the_streak(store: MatchStore) -> None:
    puzzles = store.puzzles
    first, second = await add(puzzles, GUILD, "azul", 3, 1500.0), await add(puzzles, GUILD, "azul", 5, 1500.0)
    won = await puzzles.finish(
        await puzzles.start(GUILD, BO, first, now=NOW), "azul", solved=True, step=1, rate=rate, now=NOW
    )
    lost = await puzzles.finish(
        await puzzles.start(GUILD, BO, second, now=NOW), "azul", solved=False, step=0, rate=rate, now=NOW
    )
    assert won is not None and lost is not None and won.after is not None and lost.after is not None
    assert lost.after.rating < won.after.rating and lost.after.streak == 0 and lost.after.best_streak == 1
    assert (lost.after.attempts, lost.after.solved) == (2, 1)
    assert lost.puzzle_after is not None and lost.puzzle_after[0] > 1500
    total, page = await puzzles.ladder(GUILD, "azul", offset=0, limit=10)
    assert total == 1 and page[0].user_id == BO
    assert [row.game for row in await puzzles.players_of(GUILD, BO)] == ["azul"]


async def test_the_try_in_progress_survives_and_is_found_again(store: MatchStore) -> None:
    puzzles = store.puzzles
    pid = await add(puzzles, GUILD, "querni", 3, 1500.0)
    attempt = await puzzles.start(GUILD, ANA, pid, now=NOW)
    assert await puzzles.playing(GUILD, ANA) == attempt
    assert await puzzles.playing(GUILD, ANA, "querni") == attempt
    assert await puzzles.playing(GUILD, ANA, "pond") is None
    assert await puzzles.playing(OTHER, ANA) is None
    assert await puzzles.attempt(attempt.id) == attempt


async def test_daily_rows_are_chosen_once_and_retried_until_posted(store: MatchStore) -> None:
    puzzles = store.puzzles
    pid = await add(puzzles, SHIPPED, "pond", 3, 1500.0)
    today = utc_day(NOW)
    assert await puzzles.next_daily_due(NOW) is None  # no server has a puzzle channel
    await store.settings.change(GUILD, puzzle_channel=77)
    assert await puzzles.next_daily_due(NOW) == day_start(today)  # due since midnight: not chosen yet
    assert await puzzles.daily_channels(NOW) == [(GUILD, 77)]
    daily = await puzzles.choose_daily(GUILD, today, pid, 77, NOW)
    assert (await puzzles.choose_daily(GUILD, today, None, 77, NOW)).puzzle_id == pid  # the first choice stands
    assert await puzzles.next_daily_due(NOW) == NOW
    await puzzles.daily_retry(daily, "Discord server error 500", NOW + 4)
    assert await puzzles.next_daily_due(NOW) == NOW + 4
    assert await puzzles.daily_channels(NOW) == []
    assert await puzzles.daily_channels(NOW + 4) == [(GUILD, 77)]
    await puzzles.daily_posted(daily, 999)
    assert await puzzles.next_daily_due(NOW) == day_start(today) + 86400  # tomorrow's
    posted = await puzzles.daily(GUILD, today)
    assert posted is not None and posted.message_id == 999 and posted.attempts == 1
    assert [p.id for p in await puzzles.daily_candidates(GUILD)] == []  # never the same daily twice
    solved = await puzzles.finish(
        await puzzles.start(GUILD, ANA, pid, now=NOW), "pond", solved=True, step=2, rate=rate, now=NOW
    )
    assert solved is not None
    counted = await puzzles.daily(GUILD, today)
    assert counted is not None and counted.solvers == 1
    await store.settings.change(GUILD, puzzle_channel=None)
    assert await puzzles.next_daily_due(NOW) is None  # turned off
