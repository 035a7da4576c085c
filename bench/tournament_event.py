"""Tournaments under load: pairing one big Swiss round, and a whole event through the real command tree.

1. **Pairing.**  A Swiss field of each size in ``--sizes`` (64, 128, 512 and 2,000 by default) plays its
   default rounds (⌈log2 n⌉ + 1) with random results, and the pairing of every round is timed as the bot's
   worker runs it (rebuilding the history from the rounds, then pairing): wall and CPU seconds per round,
   the worst round, and the system that paired it (``bot/core/swiss.py``: FIDE Dutch by py4swiss up to 512
   players, the Fast Swiss system beyond).  Goals: 512 players by Dutch in at most 8 s a round, 2,000 in
   under 5 s.  Measured on the two-core machine shared with other jobs (load 6 to 9): worst rounds of CPU
   (Dutch: round 1, one score group of everyone; later rounds are faster) 64: 0.08 s, 128: 0.3 s, 512: 6.1
   to 6.4 s (7.7 s wall at load 9, 9.6 s while this project's tests also ran), 2,000 (Fast): 0.15 s (0.3 s
   wall at most).  Before, caissify-pairings' Dutch engine took 0.9 s for
   64, 18 s for 128, and did not finish 512 in 19 minutes: it runs about n/2 + 6 maximum-weight matchings
   (networkx, pure Python, O(n³)) over the whole field a round, with edge weights of 170+ bits, so a
   compiled machine-integer matcher (rustworkx: 0.4 s per 512-player matching) could not stand in, nor
   make ~260 matchings a round fast enough if the weights had fitted.
2. **An event.**  ``--event-players`` (64) players join a Swiss Pond event of ``--rounds`` (6) rounds with the
   sign-up button, the organiser starts it with ``/tournament start``, and every game is played in its
   thread with random legal ``/pond`` moves through discord.py's real command tree (a game still running after
   ``--plies`` moves is resigned).  After half the rounds the bot is stopped and a new one started on the same
   database.  Checked: every round paired only after the last one ended, no player twice in a round, no repeat
   pairing, and the final standings equal a recomputation from the matches' own stored results.  Reported:
   the time per round.
3. **An arena** (``--arena``, alone).  ``--arena-players`` (200) players play a Pond arena of ``--arena-minutes``
   (60) on a simulated clock, through the real command tree: all but nine join with the sign-up button before
   the start, nine join a quarter of the way in with ``/tournament join`` (an odd field: one always waits for
   the next game's end), five pause (``/tournament leave``) at a third and come back at the half.  Each game
   ends by a resignation in its thread after 1½ to 5½ simulated minutes (before the turn timer would end it), a
   random seat resigning; the clock jumps from one thing due (a game's end, the sweeper's next wake) to the
   next, and the bot's own sweeper runs whatever is due (the arena's looks, the standings' writes, reminders).
   Half way, the process "dies" right after three games end (their results committed, their looks never run)
   and a new bot starts on the same database ten simulated seconds later.  Checked: every finished game counted
   exactly once (the standings equal a recomputation from the matches' own results, the finished games before
   the end), nobody in two games at once, nothing paired after the end, the games still running at the end
   void, the standings message written at most once per ten seconds.  Reported: games played, the longest wait
   of a free player for a game (and the longest once another free player was there to meet; the waits across
   the restart apart), the standings writes, and the wall time.  Measured (load 8 on two cores): 1,658 games
   counted and 100 still running at the end (void), every one scored once; nobody waited a moment once another
   free player was there (0.0 s); 99 % of waits 6 s or less, the longest 92 s (the odd player out at the start,
   until the first game ended: games last 1½ minutes at least), 10 s across the restart (the downtime); 359
   standings writes in 67 simulated minutes; 203 s of wall time.

    python -m bench.tournament_event [--sizes 64,128,512,2000] [--pairing-only | --event-only | --arena]
                                     [--event-players 64] [--rounds 6] [--plies 60]
                                     [--arena-players 200] [--arena-minutes 60] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.discord_fake import APP_ID, GUILD_ID, Discord, Person, Recorder, install, option, settle
from bench.load import Patch, _client_user
from bot.client import TabulaBot
from bot.core import ratings
from bot.core import tournament_formats as formats
from bot.core.tournaments import LOOK_SECONDS
from bot.delivery.event_posts import STANDINGS_EDIT_SECONDS
from bot.settings import Settings
from bot.storage import MatchStore
from bot.storage.records import MatchStatus
from bot.storage.tournament_store import EventStatus

CHANNEL = 4242
DOWNTIME = 10.0  # how long the arena's bot is down at its restart (simulated seconds)
LATE = 9  # the players who join the arena a quarter of the way in (odd: someone is always left to wait)
ORGANISER = Person(10**17 + 999_999, "Organiser", admin=True)


def pairing_times(players: int, seed: int = 1) -> dict[str, Any]:
    """Play a Swiss field's default rounds with random results, timing each round's pairing."""
    rng = random.Random(seed)
    numbers = {10**17 + i: i for i in range(1, players + 1)}
    rounds = formats.default_rounds(formats.SWISS, players)
    played: list[list[tuple[tuple[int, ...], list[float]]]] = []
    wall: list[float] = []
    cpu: list[float] = []
    systems: set[str] = set()
    for number in range(1, rounds + 1):
        started, used = time.perf_counter(), time.process_time()
        history, _ = formats.two_player_history(numbers, played)  # as the worker does: the history, then the pairing
        paired = formats.pair_swiss(numbers, list(numbers), history, number, rounds)
        wall.append(round(time.perf_counter() - started, 3))
        cpu.append(round(time.process_time() - used, 3))
        systems.add(paired.system)
        seated = [user for table in paired.tables for user in table]
        assert sorted(seated) == sorted(numbers), "a player missing or twice"
        games = []
        for table in paired.tables:
            won = rng.choice([1.0, 0.5, 0.0])
            games.append((table, [formats.BYE_POINTS] if len(table) == 1 else [won, 1.0 - won]))
        played.append(games)
    pairs = [frozenset(table) for games in played for table, _ in games if len(table) == 2]
    assert len(pairs) == len(set(pairs)), "a repeat pairing"
    goal = 8.0 if players <= 512 else 5.0
    return {
        "players": players,
        "system": "+".join(sorted(systems)),
        "seconds_per_round": wall,
        "cpu_seconds_per_round": cpu,
        "worst_round_seconds": max(wall),
        "goal_seconds": goal,
        "goal_met": max(wall) <= goal,
    }


class Clock:
    """A simulated clock the arena moves by hand (the bot's every part reads it)."""

    def __init__(self, now: float = 1_900_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def _no_wait(seconds: float) -> None:
    await asyncio.sleep(0)


class Event:
    """One bot on a database, with a fake Discord and the event's players (on ``clock``, if given)."""

    def __init__(self, database: str, players: int, seed: int, clock: Clock | None = None) -> None:
        self.database = database
        self.rng = random.Random(seed)
        self.recorder = Recorder()
        self.people = [Person(10**17 + n, f"P{n}") for n in range(1, players + 1)]
        self.by_id = {p.id: p for p in self.people}
        self.clock = clock

    async def start(self) -> None:
        store = await MatchStore.open(self.database, rating=ratings)
        await store.settings.change(GUILD_ID, threads=True)
        timing: dict[str, Any] = {} if self.clock is None else {"clock": self.clock, "sleep": _no_wait}
        self.bot = TabulaBot(
            Settings(database=self.database, render_processes=0, ai_processes=0), store=store, **timing
        )
        await self.bot._async_setup_hook()
        self.bot._connection.application_id = APP_ID
        self.bot._connection.user = _client_user(self.bot)
        await self.bot.prepare()
        await self.bot.event_posts.resume()  # what setup_hook does for events after a restart
        await settle()
        self.discord = Discord(self.bot, self.recorder)

    async def stop(self) -> None:
        await settle()
        await self.bot.close()

    async def sign_up(self, rounds: int) -> int:
        opts = [option("game", "pond"), option("format", formats.SWISS), option("name", "Bench Pond")]
        opts.append(option("rounds", rounds, kind=4))
        await self.discord.command(ORGANISER, CHANNEL, "tournament", "create", opts)
        event = (await self.bot.store.tournaments.of_guild(GUILD_ID))[0]
        for person in self.people:
            await self.discord.press(person, CHANNEL, f"tabula:event:join:{event.id}")
        await self.discord.command(ORGANISER, CHANNEL, "tournament", "start", [])
        await settle()
        return event.id

    async def play_round(self, event_id: int, plies: int) -> None:
        """Play every game of the event's current round to its end with random legal moves."""
        event = await self.bot.store.tournaments.get(event_id)
        assert event is not None
        ids = [p.match_id for p in await self.bot.store.tournaments.pairings(event_id, event.round) if p.match_id]
        for match_id in ids:
            await self.play_game(match_id, plies)

    async def play_game(self, match_id: int, plies: int) -> None:
        for ply in range(plies + 1):
            found = await self.bot.service.match_state(match_id)
            if found is None:
                return
            record, state = found
            assert state.to_move is not None
            person = self.by_id[record.players[state.to_move].user_id]
            if ply == plies:
                await self.discord.command(person, record.place_id, "pond", "resign", [])
            else:
                parts = state.move_text(self.rng.choice(state.legal_moves())).split()
                if parts[0] == "place":
                    sub, opts = "place", [option("cell", parts[1])]
                else:
                    sub, opts = "move", [option("from", parts[1]), option("to", parts[2])]
                await self.discord.command(person, record.place_id, "pond", sub, opts)
            await settle()


async def check(bot: TabulaBot, event_id: int) -> dict[str, Any]:
    """The checks of an event that ended: pairing order, rounds, repeats, standings against a recomputation."""
    tournaments = bot.store.tournaments
    event = await tournaments.get(event_id)
    assert event is not None and event.status == EventStatus.FINISHED, event
    pairings = await tournaments.pairings(event_id)
    records = {r.id: r for r in await tournaments.match_records([p.match_id for p in pairings if p.match_id])}
    pairs: list[frozenset[int]] = []
    points: dict[int, float] = {e.user_id: 0.0 for e in await tournaments.entrants(event_id)}
    for number in range(1, event.rounds + 1):
        games = [p for p in pairings if p.round == number]
        seated = [u for p in games for u in p.players]
        assert len(seated) == len(set(seated)), f"a player twice in round {number}"
        if number > 1:
            before = [records[p.match_id] for p in pairings if p.round == number - 1 and p.match_id]
            now = [records[p.match_id] for p in games if p.match_id]
            assert min(r.created_at for r in now) >= max(r.finished_at or 0.0 for r in before), "paired early"
        for p in games:
            if p.match_id is None:
                points[p.players[0]] += 1.0  # a bye
                continue
            pairs.append(frozenset(p.players))
            record = records[p.match_id]  # the match's own result, not the pairing's copy
            places = (record.result or {})["places"]
            for seat, seat_record in enumerate(record.players):
                other = places[1 - seat]
                points[seat_record.user_id] += 1.0 if places[seat] < other else 0.5 if places[seat] == other else 0.0
    assert len(pairs) == len(set(pairs)), "a repeat pairing"
    lines = await bot.events.standings(event)
    assert sorted((line.user_id, line.points) for line in lines) == sorted(points.items()), "standings differ"
    return {"rounds": event.rounds, "games": len(pairs), "winner_points": lines[0].points}


async def run_event(players: int, rounds: int, plies: int, seed: int = 5) -> dict[str, Any]:
    patch = Patch()
    folder = Path(tempfile.mkdtemp(prefix="tabula-event-"))
    database = str(folder / "event.sqlite3")
    world = Event(database, players, seed)
    install(patch, world.recorder)
    try:
        await world.start()
        started = time.perf_counter()
        event_id = await world.sign_up(rounds)
        per_round = []
        for number in range(1, rounds + 1):
            began = time.perf_counter()
            await world.play_round(event_id, plies)
            per_round.append(round(time.perf_counter() - began, 2))
            if number == rounds // 2:  # a restart in the middle: the event goes on from the database
                await world.stop()
                restarted = Event(database, players, seed + 1)
                restarted.recorder = world.recorder  # the same Discord: the threads still exist
                world = restarted
                await world.start()
        await settle()
        result = await check(world.bot, event_id)
        result.update(players=players, seconds=round(time.perf_counter() - started, 1), seconds_per_round=per_round)
        return result
    finally:
        await world.stop()
        patch.undo()


class Arena:
    """A Pond arena on a simulated clock: the players, the plan of each game's end, and what the bench measures."""

    def __init__(self, database: str, players: int, minutes: int, seed: int) -> None:
        self.clock = Clock()
        self.world = Event(database, players, seed, self.clock)
        self.minutes = minutes
        self.rng = random.Random(seed)
        self.ends: dict[int, tuple[float, int]] = {}  # match -> (when it ends, the seat that resigns)
        self.done: set[int] = set()
        self.joined: dict[int, float] = {}  # player -> when they joined (or came back)
        self.paused: dict[int, float] = {}  # player -> when they paused
        self.writes: list[float] = []  # when the standings message was written
        self.down = (0.0, 0.0)  # when the bot was down (the restart)

    @property
    def bot(self) -> TabulaBot:
        return self.world.bot

    async def command(self, person: Person, sub: str) -> None:
        await self.world.discord.command(person, CHANNEL, "tournament", sub, [])
        await settle()

    async def open(self) -> int:
        """Create the arena, have all but the late ten join with the button, start it."""
        opts = [option("game", "pond"), option("format", formats.ARENA), option("name", "Bench Arena")]
        opts.append(option("duration", f"{self.minutes}m"))
        await self.world.discord.command(ORGANISER, CHANNEL, "tournament", "create", opts)
        event = (await self.bot.store.tournaments.of_guild(GUILD_ID))[0]
        for person in self.world.people[:-LATE]:
            await self.world.discord.press(person, CHANNEL, f"tabula:event:join:{event.id}")
            self.joined[person.id] = self.clock()
        await self.world.discord.command(ORGANISER, CHANNEL, "tournament", "start", [])
        await settle()
        return event.id

    async def plan(self, event_id: int) -> None:
        """Give every newly opened game its end: 1½ to 5½ minutes from now, a random seat resigning."""
        for pairing in await self.bot.store.tournaments.open_pairings(event_id):
            if pairing.match_id is not None and pairing.match_id not in self.ends:
                self.ends[pairing.match_id] = (self.clock() + self.rng.uniform(90, 330), self.rng.randrange(2))

    async def end_due(self, limit: int | None = None) -> int:
        """End the games whose time has come (at most ``limit``); return how many."""
        ended = 0
        for match_id, (when, seat) in sorted(self.ends.items(), key=lambda item: item[1][0]):
            if when > self.clock() or match_id in self.done or (limit is not None and ended >= limit):
                continue
            self.done.add(match_id)
            record = await self.bot.store.matches.get(match_id)
            if record is None or record.status != MatchStatus.ACTIVE:
                continue
            person = self.world.by_id[record.players[seat].user_id]
            await self.world.discord.command(person, record.place_id, "pond", "resign", [])
            await settle()
            ended += 1
        return ended

    async def sweep(self) -> float:
        """Run the sweeper's kinds that are due (as its loop would); return when it wants to wake next."""
        for _ in range(20):
            delay = await self.bot.sweeper.step()
            await settle()
            if delay > 0:
                break
        return self.clock() + delay

    def note_writes(self, before: int) -> None:
        if self.bot.event_posts.standings_writes > before:
            self.writes.append(self.clock())

    async def restart(self) -> None:
        """The process dies right after three games end (results committed, their looks never run); a new bot starts."""

        async def lost(event_id: int) -> None:
            return None

        self.bot.events.look = lost  # type: ignore[method-assign]
        self.bot.event_posts.look = lost  # type: ignore[method-assign]
        soonest = sorted(when for match, (when, _) in self.ends.items() if match not in self.done)[:3]
        if soonest:
            self.clock.now = max(self.clock.now, soonest[-1])
        await self.end_due(limit=3)
        await self.world.stop()
        self.down = (self.clock(), self.clock() + DOWNTIME)
        self.clock.now += DOWNTIME  # the bot is down a while: nobody is paired meanwhile
        restarted = Event(self.world.database, len(self.world.people), self.rng.randrange(1000), self.clock)
        restarted.recorder = self.world.recorder  # the same Discord: the threads and messages still exist
        self.world = restarted
        writes = 0
        await self.world.start()  # runs event_posts.resume(), as setup_hook does
        self.note_writes(writes)


async def arena_check(bot: TabulaBot, event_id: int) -> dict[str, Any]:
    """Every finished game counted once, nobody in two games at once, nothing paired after the end."""
    tournaments = bot.store.tournaments
    event = await tournaments.get(event_id)
    assert event is not None and event.status == EventStatus.FINISHED and event.ends_at is not None, event
    pairings = await tournaments.pairings(event_id)
    records = {r.id: r for r in await tournaments.match_records([p.match_id for p in pairings if p.match_id])}
    assert all(p.match_id is not None for p in pairings), "a pairing never opened"
    assert len({p.match_id for p in pairings}) == len(pairings), "a match in two pairings"
    sheets: dict[int, list[str]] = {e.user_id: [] for e in await tournaments.entrants(event_id)}
    spans: dict[int, list[tuple[float, float]]] = {user: [] for user in sheets}
    counted = late = 0
    for pairing in pairings:
        record = records[pairing.match_id or 0]
        assert record.created_at <= event.ends_at, "paired after the end"
        for player in record.players:
            spans[player.user_id].append((record.created_at, record.finished_at or float("inf")))
        if record.status != MatchStatus.FINISHED or (record.finished_at or 0.0) > event.ends_at:
            late += 1
            assert pairing.result is not None and pairing.result.get("void"), "a late game not void"
            continue
        counted += 1
        places = (record.result or {})["places"]  # the match's own result, not the pairing's copy
        for seat, seat_record in enumerate(record.players):
            won = places[seat] < places[1 - seat]
            sheets[seat_record.user_id].append("W" if won else "D" if places[seat] == places[1 - seat] else "L")
    for user, games in spans.items():
        games.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(games)), f"{user} in two games at once"
    expected: dict[int, float] = {}
    for user, results in sheets.items():  # 2/1/0, doubled after two wins in a row, recounted here
        total = 0
        for i, outcome in enumerate(results):
            base = {"W": 2, "D": 1, "L": 0}[outcome]
            total += base * 2 if i >= 2 and results[i - 2 : i] == ["W", "W"] else base
        expected[user] = float(total)
    lines = await bot.events.standings(event)
    assert {line.user_id: line.points for line in lines} == expected, "standings differ from the recount"
    return {"games": counted, "void_at_end": late, "winner_points": lines[0].points, "records": records}


def waits(
    pairings: list[tuple[tuple[int, ...], float, float | None]],
    joined: dict[int, float],
    paused: dict[int, float],
    came_back: dict[int, float],
    down: tuple[float, float],
) -> dict[str, float]:
    """How long free players waited for a game: the longest, and the longest once another free player was there.

    ``pairings`` are (players, created, finished) in pairing order.  A wait begins at a player's join, return
    from a pause, or last game's end, and ends when their next game opens; the waits still running at the end
    are left out, and those across the restart (``down``: the bot was not running) are reported apart."""
    free_from = dict(joined)
    last_created: dict[int, float] = {}
    intervals: list[tuple[int, float, float]] = []
    for players, created, finished in pairings:
        for user in players:
            start = free_from.get(user)
            if user in came_back and last_created.get(user, float("-inf")) <= paused[user] < created:
                # Paused while playing or waiting: the wait begins on coming back (or at the game's end, if later).
                start = max(came_back[user], start if start is not None else came_back[user])
            if start is not None:
                intervals.append((user, start, created))
            free_from[user] = finished if finished is not None else float("inf")
            last_created[user] = created
    across = [b - a for _, a, b in intervals if a <= down[1] and b >= down[0]]
    intervals = [(user, a, b) for user, a, b in intervals if not (a <= down[1] and b >= down[0])]
    lengths = sorted(b - a for _, a, b in intervals)
    longest = lengths[-1] if lengths else 0.0
    # The wait once a partner was free: from the first moment another player's wait overlapped this one.
    intervals.sort(key=lambda item: item[1])
    pairable = 0.0
    for user, a, b in intervals:
        partner = min((max(a, qa) for other, qa, qb in intervals if other != user and qa < b and qb > a), default=b)
        pairable = max(pairable, b - partner)
    return {
        "longest_wait_seconds": round(longest, 1),
        "longest_wait_with_a_partner_free_seconds": round(pairable, 1),
        "wait_p99_seconds": round(lengths[int(0.99 * (len(lengths) - 1))], 1) if lengths else 0.0,
        "waits_over_5_seconds": sum(1 for length in lengths if length > 5.0),
        "longest_wait_across_the_restart_seconds": round(max(across, default=0.0), 1),
        "waits": len(intervals),
    }


async def run_arena(players: int, minutes: int, seed: int = 11) -> dict[str, Any]:
    patch = Patch()
    folder = Path(tempfile.mkdtemp(prefix="tabula-arena-"))
    run = Arena(str(folder / "arena.sqlite3"), players, minutes, seed)
    install(patch, run.world.recorder)
    started = time.perf_counter()
    try:
        await run.world.start()
        event_id = await run.open()
        event = await run.bot.store.tournaments.get(event_id)
        assert event is not None and event.ends_at is not None
        begin, ends_at = run.clock(), event.ends_at
        late_join: float | None = begin + minutes * 15
        pause_at: float | None = begin + minutes * 20
        back_at: float | None = begin + minutes * 30
        restart_at = begin + minutes * 30 + 7
        pausers = run.world.people[:5]
        came_back: dict[int, float] = {}
        restarted = False
        while run.clock() < ends_at + 400:  # on past the end: the games then still running end too
            writes = run.bot.event_posts.standings_writes
            await run.plan(event_id)
            await run.end_due()
            now = run.clock()
            if late_join is not None and now >= late_join:
                for person in run.world.people[-LATE:]:
                    await run.command(person, "join")
                    run.joined[person.id] = run.clock()
                late_join = None
            if pause_at is not None and now >= pause_at:
                for person in pausers:
                    await run.command(person, "leave")
                    run.paused[person.id] = run.clock()
                pause_at = None
            if back_at is not None and now >= back_at:
                for person in pausers:
                    await run.command(person, "join")
                    came_back[person.id] = run.clock()
                back_at = None
            if not restarted and now >= restart_at:
                await run.restart()
                restarted = True
                continue
            await run.plan(event_id)
            wake = await run.sweep()
            run.note_writes(writes)
            upcoming = [when for match, (when, _) in run.ends.items() if match not in run.done and when > now]
            moments = [m for m in (late_join, pause_at, back_at, restart_at) if m is not None and m > now]
            if not restarted:
                moments.append(restart_at)
            run.clock.now = max(now + 0.01, min([wake, *upcoming, *moments, now + 60.0]))
        await settle()
        checked = await arena_check(run.bot, event_id)
        records = checked.pop("records")
        pairings = await run.bot.store.tournaments.pairings(event_id)
        timeline = [
            (p.players, records[p.match_id].created_at, records[p.match_id].finished_at)
            for p in pairings
            if p.match_id is not None
        ]
        gaps = [b - a for a, b in itertools.pairwise(run.writes)]
        assert not gaps or min(gaps) >= STANDINGS_EDIT_SECONDS, "standings written too often"
        return {
            "players": players,
            "simulated_minutes": minutes,
            **checked,
            "scored_once": True,
            **waits(timeline, run.joined, run.paused, came_back, run.down),
            "downtime_seconds": DOWNTIME,
            "look_every_seconds_while_waiting": LOOK_SECONDS,
            "standings_writes": len(run.writes),
            "restart": restarted,
            "wall_seconds": round(time.perf_counter() - started, 1),
        }
    finally:
        await run.world.stop()
        patch.undo()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="64,128,512,2000", help="Swiss fields to pair, comma-separated")
    parser.add_argument("--event-players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--plies", type=int, default=60)
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--pairing-only", action="store_true", help="time the pairings, skip the event")
    only.add_argument("--event-only", action="store_true", help="run the event, skip the pairings")
    only.add_argument("--arena", action="store_true", help="play an arena on a simulated clock, alone")
    parser.add_argument("--arena-players", type=int, default=200)
    parser.add_argument("--arena-minutes", type=int, default=60)
    parser.add_argument(
        "--quick", action="store_true", help="16 players, fields of 32 and 600, 3 rounds, short games; arena: 30, 20m"
    )
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.event_players, args.rounds, args.plies = "32,600", 16, 3, 10
        args.arena_players, args.arena_minutes = 30, 20
    if args.arena:
        result = asyncio.run(run_arena(args.arena_players, args.arena_minutes))
        print(json.dumps({"arena": result}), flush=True)
        return
    if not args.event_only:
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores", flush=True)
        for size in (int(text) for text in args.sizes.split(",")):
            print(json.dumps({"pairing": pairing_times(size)}), flush=True)
    if not args.pairing_only:
        print(json.dumps({"event": asyncio.run(run_event(args.event_players, args.rounds, args.plies))}), flush=True)


if __name__ == "__main__":
    main()
