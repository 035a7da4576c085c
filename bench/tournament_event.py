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

    python -m bench.tournament_event [--sizes 64,128,512,2000] [--pairing-only | --event-only]
                                     [--event-players 64] [--rounds 6] [--plies 60] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
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
from bot.settings import Settings
from bot.storage import MatchStore
from bot.storage.tournament_store import EventStatus

CHANNEL = 4242
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


class Event:
    """One bot on a database, with a fake Discord and the event's players."""

    def __init__(self, database: str, players: int, seed: int) -> None:
        self.database = database
        self.rng = random.Random(seed)
        self.recorder = Recorder()
        self.people = [Person(10**17 + n, f"P{n}") for n in range(1, players + 1)]
        self.by_id = {p.id: p for p in self.people}

    async def start(self) -> None:
        store = await MatchStore.open(self.database, rating=ratings)
        await store.settings.change(GUILD_ID, threads=True)
        self.bot = TabulaBot(Settings(database=self.database, render_processes=0, ai_processes=0), store=store)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="64,128,512,2000", help="Swiss fields to pair, comma-separated")
    parser.add_argument("--event-players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--plies", type=int, default=60)
    only = parser.add_mutually_exclusive_group()
    only.add_argument("--pairing-only", action="store_true", help="time the pairings, skip the event")
    only.add_argument("--event-only", action="store_true", help="run the event, skip the pairings")
    parser.add_argument("--quick", action="store_true", help="16 players, fields of 32 and 600, 3 rounds, short games")
    args = parser.parse_args()
    if args.quick:
        args.sizes, args.event_players, args.rounds, args.plies = "32,600", 16, 3, 10
    if not args.event_only:
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores", flush=True)
        for size in (int(text) for text in args.sizes.split(",")):
            print(json.dumps({"pairing": pairing_times(size)}), flush=True)
    if not args.pairing_only:
        print(json.dumps({"event": asyncio.run(run_event(args.event_players, args.rounds, args.plies))}), flush=True)


if __name__ == "__main__":
    main()
