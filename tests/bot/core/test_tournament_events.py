"""Events run by the tournament service on the real stores (SQLite and PostgreSQL): rounds, byes, withdrawals,
two events at once, restarts mid-round and between rounds, and two organisers pressing start together."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.core import tournament_formats as f
from bot.core.refusals import Refusal
from bot.core.service import MatchService
from bot.core.swiss import SwissError
from bot.core.tournaments import TournamentService
from bot.delivery.workers import WorkerPool
from bot.storage import MatchStatus, MatchStore
from bot.storage.tournament_store import EventStatus

GUILD, CHANNEL, ORGANISER = 1 << 22, 555, 100000000000000009
BASE = 100000000000000000  # real snowflakes: small IDs are the computer's seats


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


class Bot:
    """The parts of one bot process an event needs, over one database."""

    def __init__(self, store: MatchStore, clock: Clock) -> None:
        self.store = store
        self.matches = MatchService(store.matches, extras=store.extras, clock=clock, rng=random.Random(3))
        self.events = TournamentService(
            store.tournaments, forfeit=self.matches.withdraw, clock=clock, rng=random.Random(4)
        )

    @classmethod
    async def open(cls, database: str, clock: Clock) -> Bot:
        return cls(await MatchStore.open(database), clock)

    async def running(self, event_id: int) -> list[int]:
        """The running matches of the event's current round."""
        event = await self.events.event(event_id)
        ids = [p.match_id for p in await self.store.tournaments.pairings(event_id, event.round) if p.match_id]
        return [r.id for r in await self.store.tournaments.match_records(ids) if r.status == MatchStatus.ACTIVE]

    async def finish(self, match_id: int, rng: random.Random, *, advance: bool = True) -> None:
        """Play a few random legal moves, then let players resign until the game is over."""
        for _ in range(rng.randrange(4)):
            found = await self.matches.match_state(match_id)
            if found is None or found[1].to_move is None:
                break
            record, state = found
            move = rng.choice(state.legal_moves())
            await self.matches.play_match(match_id, record.players[state.to_move].user_id, state.move_text(move))
        while (found := await self.matches.match_state(match_id)) is not None:
            record, state = found
            assert state.to_move is not None
            await self.matches.withdraw(match_id, record.players[state.to_move].user_id)
        if advance:
            await self.events.after_match(match_id)


@pytest.fixture
async def bot(database: str):
    opened = await Bot.open(database, Clock())
    yield opened
    await opened.store.close()


async def new_event(bot: Bot, players: int, *, game: str = "pond", format: str = f.SWISS, **options: Any) -> int:
    event = await bot.events.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organiser_id=ORGANISER,
        name="Spring Pond",
        game=game,
        format=format,
        **options,
    )
    for n in range(1, players + 1):
        await bot.events.join(event.id, BASE + 1000 + n, f"P{n}")
    return event.id


def recompute(format: str, entrants, pairings, rounds: int) -> list[tuple[int, float]]:
    """The standings' points from the stored rows, counted by hand (not through the formats module)."""
    points = {e.user_id: 0.0 for e in entrants}
    for p in pairings:
        assert p.result is not None
        if len(p.players) == 1:
            points[p.players[0]] += 1.0
        elif p.result.get("void"):
            continue
        else:
            places = p.result["places"]
            win = 3.0 if format == f.TABLES else 1.0
            for seat, user in enumerate(p.players):
                beaten = sum(1 for q in places if q > places[seat])
                tied = sum(1 for q in places if q == places[seat]) - 1
                points[user] += win * (beaten + tied / 2) / (len(places) - 1)
    return sorted(points.items())


async def play_out(bot: Bot, event_id: int, rng: random.Random) -> None:
    """Play every round to the end, checking that a round is paired only once the last one ended."""
    while (event := await bot.events.event(event_id)).status == EventStatus.RUNNING:
        running = await bot.running(event_id)
        assert running, "a running event with nothing to play"
        for index, match_id in enumerate(running):
            await bot.finish(match_id, rng)
            after = await bot.events.event(event_id)
            if index < len(running) - 1:
                assert after.round == event.round, "paired before the round's last game ended"


async def check_final(bot: Bot, event_id: int) -> None:
    event = await bot.events.event(event_id)
    assert event.status == EventStatus.FINISHED
    pairings = await bot.store.tournaments.pairings(event_id)
    assert {p.round for p in pairings} == set(range(1, event.rounds + 1))
    for number in range(1, event.rounds + 1):
        seated = [u for p in pairings if p.round == number for u in p.players]
        assert len(seated) == len(set(seated)), "a player twice in a round"
    lines = await bot.events.standings(event)
    entrants = await bot.store.tournaments.entrants(event_id)
    assert sorted((line.user_id, line.points) for line in lines) == recompute(
        event.format, entrants, pairings, event.rounds
    )


@pytest.mark.parametrize("players", [5, 8])
async def test_a_swiss_event_runs_from_sign_up_to_the_winner(bot: Bot, players: int) -> None:
    event_id = await new_event(bot, players)
    with pytest.raises(Refusal, match="Manage Server"):
        await bot.events.start(event_id, BASE + 1001, can_manage=False)
    progress = await bot.events.start(event_id, ORGANISER, can_manage=True)
    assert progress.event.rounds == f.default_rounds(f.SWISS, players)
    assert len(progress.opened) == players // 2
    record = progress.opened[0][0]
    assert record.status == MatchStatus.ACTIVE and record.rated and record.thread_mode == "thread"
    byes = [p for p in await bot.store.tournaments.pairings(event_id, 1) if p.bye]
    assert len(byes) == players % 2 and all(p.result for p in byes)
    await play_out(bot, event_id, random.Random(players))
    await check_final(bot, event_id)
    pairs = [frozenset(p.players) for p in await bot.store.tournaments.pairings(event_id) if not p.bye]
    assert len(pairs) == len(set(pairs)), "a repeat pairing"


def as_played(pairing: Any) -> f.Played:
    result = pairing.result or {}
    places = tuple(result["places"]) if "places" in result else None
    return f.Played(pairing.round, pairing.players, places, tuple(result.get("scores", ())), bool(result.get("void")))


class Recording:
    """Workers that run each call in a real worker process and note how it was asked for."""

    def __init__(self, pool: WorkerPool) -> None:
        self.pool = pool
        self.calls: list[tuple[str, bool]] = []

    async def run(self, function: Any, *args: Any, urgent: bool = False, background: bool = False) -> Any:
        self.calls.append((getattr(function, "func", function).__name__, background))
        return await self.pool.run(function, *args, urgent=urgent, background=background)


@pytest.mark.subprocess
async def test_swiss_rounds_are_paired_in_a_worker_process_as_they_would_be_in_the_bot(database: str) -> None:
    """Pairing a big field is seconds, much of it Python: the bot pairs in its workers' background process,
    never in its own interpreter, and the pairings are the same as in a thread."""
    pool = WorkerPool("test", 1)
    workers = Recording(pool)
    store = await MatchStore.open(database)
    try:
        clock = Clock()
        matches = MatchService(store.matches, extras=store.extras, clock=clock, rng=random.Random(3))
        events = TournamentService(
            store.tournaments, forfeit=matches.withdraw, clock=clock, rng=random.Random(4), workers=workers
        )
        bot = Bot(store, clock)
        bot.matches, bot.events = matches, events
        event_id = await new_event(bot, 7)
        await events.start(event_id, ORGANISER, can_manage=True)
        await play_out(bot, event_id, random.Random(7))
        await check_final(bot, event_id)
        rounds = (await events.event(event_id)).rounds
        assert workers.calls == [("pair_round", True)] * rounds
        assert pool.pids(), "no worker process paired"
        # The same field and results paired in a thread: the same tables, round by round.
        entrants = await store.tournaments.entrants(event_id)
        numbers = {e.user_id: e.number for e in entrants}
        played = await store.tournaments.pairings(event_id)
        for number in range(2, rounds + 1):
            by_round = [
                [(p.players, f.seat_points(f.SWISS, as_played(p))) for p in played if p.round == earlier]
                for earlier in range(1, number)
            ]
            history, met = f.two_player_history(numbers, by_round)
            tables = f.pair_two_player(f.SWISS, numbers, list(numbers), history, met, number, rounds)
            assert sorted(tables) == sorted(p.players for p in played if p.round == number)
    finally:
        pool.stop()
        await store.close()


class Exhausted:
    """Workers for an event whose rounds after the first have no pairing left (everyone met all they could)."""

    async def run(self, function: Any, *args: Any, urgent: bool = False, background: bool = False) -> Any:
        if function.args[4] > 1:  # pair_round's round number
            raise SwissError("no pairing of this round avoids a repeat pairing")
        return function(*args)


async def test_a_swiss_event_whose_next_round_cannot_be_paired_ends_early(bot: Bot) -> None:
    """Rather than repeat a pairing or give a second bye, the event ends with the rounds it played (as on Lichess)."""
    events = bot.events
    bot.events = TournamentService(
        bot.store.tournaments,
        forfeit=bot.matches.withdraw,
        clock=events.clock,
        rng=random.Random(4),
        workers=Exhausted(),
    )
    event_id = await new_event(bot, 4, rounds=3)
    await bot.events.start(event_id, ORGANISER, can_manage=True)
    await play_out(bot, event_id, random.Random(5))
    event = await bot.events.event(event_id)
    assert event.status == EventStatus.FINISHED and event.rounds == 1
    await check_final(bot, event_id)


async def test_a_double_round_robin_meets_everyone_twice(bot: Bot) -> None:
    event_id = await new_event(bot, 3, format=f.DOUBLE_ROUND_ROBIN)
    await bot.events.start(event_id, ORGANISER, can_manage=True)
    await play_out(bot, event_id, random.Random(2))
    await check_final(bot, event_id)
    pairings = await bot.store.tournaments.pairings(event_id)
    assert len(pairings) == 6 * 2 and sum(1 for p in pairings if p.bye) == 6


@pytest.mark.parametrize(("players", "sizes"), [(5, [3, 2]), (6, [3, 3]), (7, [4, 3]), (9, [3, 3, 3]), (10, [4, 3, 3])])
async def test_azul_tables_of_three_and_four(bot: Bot, players: int, sizes: list[int]) -> None:
    event_id = await new_event(bot, players, game="azul", format=f.TABLES, rounds=2)
    await bot.events.start(event_id, ORGANISER, can_manage=True)
    first = await bot.store.tournaments.pairings(event_id, 1)
    assert [len(p.players) for p in first] == sizes and not any(p.bye for p in first)
    await play_out(bot, event_id, random.Random(players))
    await check_final(bot, event_id)


async def test_a_game_for_two_refuses_tables_and_azul_needs_three_for_a_table(bot: Bot) -> None:
    with pytest.raises(Refusal, match="choose swiss or round robin"):
        await new_event(bot, 0, game="pond", format=f.TABLES)


async def test_a_withdrawal_mid_round_forfeits_the_game_and_the_player_is_not_paired_again(bot: Bot) -> None:
    event_id = await new_event(bot, 4, rounds=3)
    await bot.events.start(event_id, ORGANISER, can_manage=True)
    running = await bot.running(event_id)
    leaver = BASE + 1001
    mine = [m for m in running if (await bot.store.matches.get(m)).seat_of(leaver) is not None]  # type: ignore[union-attr]
    _, forfeited = await bot.events.leave(event_id, leaver)
    assert [turn.record.id for turn in forfeited] == mine
    record = await bot.store.matches.get(mine[0])
    assert record is not None and record.status == MatchStatus.FINISHED and record.rated
    await bot.events.after_match(mine[0])
    await play_out(bot, event_id, random.Random(1))
    pairings = await bot.store.tournaments.pairings(event_id)
    assert all(leaver not in p.players for p in pairings if p.round > 1)
    assert sum(1 for p in pairings if p.round == 2 and p.bye) == 1  # three left: one sits out
    lines = await bot.events.standings(await bot.events.event(event_id))
    assert [line.withdrawn for line in lines if line.user_id == leaver] == [True]
    await check_final(bot, event_id)


async def test_a_player_in_two_events_at_once(bot: Bot) -> None:
    pond = await new_event(bot, 2, rounds=1)
    azul = await new_event(bot, 3, game="azul", format=f.TABLES, rounds=1)
    await bot.events.start(pond, ORGANISER, can_manage=True)
    await bot.events.start(azul, ORGANISER, can_manage=True)
    both = await bot.store.matches.running_matches_of(GUILD, BASE + 1001)
    assert len(both) == 2
    await bot.finish((await bot.running(pond))[0], random.Random(1))
    assert (await bot.events.event(pond)).status == EventStatus.FINISHED
    assert (await bot.events.event(azul)).status == EventStatus.RUNNING
    await play_out(bot, azul, random.Random(1))
    assert [e.id for e in await bot.store.tournaments.events_of(GUILD, BASE + 1001, [EventStatus.FINISHED])] == [
        azul,
        pond,
    ]


async def test_two_organisers_pressing_start_at_once_start_it_once(database: str) -> None:
    clock = Clock()
    one = await Bot.open(database, clock)
    two = Bot(one.store, clock)  # a second process: its own locks, the same database
    try:
        event_id = await new_event(one, 4)
        results = await asyncio.gather(
            one.events.start(event_id, ORGANISER, can_manage=True),
            two.events.start(event_id, ORGANISER + 1, can_manage=True),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["Progress", "Refusal"]
        assert len(await one.store.tournaments.pairings(event_id)) == 2
        assert len(await one.running(event_id)) == 2
    finally:
        await one.store.close()


async def test_a_restart_mid_round_and_between_rounds_continues_exactly(database: str) -> None:
    clock = Clock()
    rng = random.Random(5)
    bot = await Bot.open(database, clock)
    event_id = await new_event(bot, 6, rounds=3)

    async def crash(event: Any) -> Any:
        raise RuntimeError("the process died after pairing, before opening the games")

    bot.events._open_matches = crash  # type: ignore[method-assign]
    with pytest.raises(RuntimeError):
        await bot.events.start(event_id, ORGANISER, can_manage=True)
    await bot.store.close()

    bot = await Bot.open(database, clock)  # restart mid-round: the paired round's games open once
    assert await bot.running(event_id) == []
    await bot.events.resume()
    await bot.events.resume()
    running = await bot.running(event_id)
    assert len(running) == 3
    for match_id in running[:2]:
        await bot.finish(match_id, rng)
    await bot.finish(running[2], rng, advance=False)  # the last game ends; the bot stops before pairing
    await bot.store.close()

    bot = await Bot.open(database, clock)  # restart between rounds: round 2 is paired once, then played on
    assert (await bot.events.event(event_id)).round == 1
    await bot.events.resume()
    assert (await bot.events.event(event_id)).round == 2
    assert len(await bot.running(event_id)) == 3
    await play_out(bot, event_id, rng)
    await check_final(bot, event_id)
    await bot.store.close()


async def test_joining_and_leaving_are_refused_politely(bot: Bot) -> None:
    event_id = await new_event(bot, 1)
    with pytest.raises(Refusal, match="already entered"):
        await bot.events.join(event_id, BASE + 1001, "P1")
    with pytest.raises(Refusal, match="at least two"):
        await bot.events.start(event_id, ORGANISER, can_manage=True)
    await bot.events.leave(event_id, BASE + 1001)
    with pytest.raises(Refusal, match="not entered"):
        await bot.events.leave(event_id, BASE + 1001)
    await bot.events.cancel(event_id, can_manage=True)
    with pytest.raises(Refusal, match="no longer taking"):
        await bot.events.join(event_id, BASE + 1002, "P2")
