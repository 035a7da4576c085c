"""The real bot as a process of its own, under load, with the fake Discord edge: for stop and orphan tests.

``python -m bench.served DATABASE STATE [--matches 20] [--rate 40] [--stop-seconds 10]``

Starts :class:`bot.client.TabulaBot` as ``python -m bot`` does after login (its real ``setup_hook``,
the sweeper, its worker processes: one renderer and one computer, and the stop signals of
:mod:`bot.lifecycle`), with Discord's HTTP edge replaced by the recorder of :mod:`bench.discord_fake`.
Players then move in ``--matches`` Pond matches through the real command tree, offering ``--rate``
moves per second, and one match is played against the computer.  Once boards have been drawn and the
computer has moved, the process writes ``STATE`` (JSON: its pid, its worker processes' pids and the port
of its ``/metrics`` and ``/healthz``, served on 127.0.0.1 at a free port) and
keeps playing until it is stopped.  On SIGTERM or SIGINT the bot stops gracefully; the process then adds
to ``STATE`` every move whose board the player saw (match id and ply), and exits with the bot's status.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
from pathlib import Path

from bench.discord_fake import APP_ID, GUILD_ID, Discord, Person, install, option
from bench.load import Load, LoadRecorder, Patch, _client_user
from bot.client import TabulaBot
from bot.core import ratings
from bot.lifecycle import on_stop_signals
from bot.settings import Settings
from bot.storage import MatchStore

COMPUTER_CHANNEL = 9_999


class Served(Load):
    """The load of :mod:`bench.load`, on a bot started as ``python -m bot`` starts it."""

    def __init__(self, database: str, matches: int, stop_seconds: float) -> None:
        super().__init__(Path(database).parent, matches, seed=29, render_processes=1, database=database)
        self.stop_seconds = stop_seconds
        self.seen: list[tuple[int, int]] = []  # (match id, ply before the move) of every move whose board arrived

    async def start(self, patch: Patch) -> None:
        self.recorder = LoadRecorder()
        install(patch, self.recorder)
        store = await MatchStore.open(self.database, rating=ratings)
        await store.settings.change(GUILD_ID, threads=False)  # the computer's match is played in its channel
        # /metrics and /healthz on a free port (the fake gateway counts as connected: see below).
        settings = Settings(database=self.database, render_processes=1, ai_processes=1, metrics_port=0)
        self.bot = TabulaBot(
            settings, store=store, rng=random.Random(1), computer_iterations=300, stop_seconds=self.stop_seconds
        )
        await self.bot._async_setup_hook()
        self.bot._connection.application_id = APP_ID
        self.bot._connection.user = _client_user(self.bot)
        await self.bot.setup_hook()  # as at login: resume the outbox and computers, start the sweeper and metrics
        self.bot._ready.set()  # what READY does: the health check counts the bot as connected
        self.discord = Discord(self.bot, self.recorder)
        self.people = [Person(10**17 + i, f"Player{i}") for i in range(400)]

    async def play_computer(self) -> None:
        """Play against the computer (its worker process thinks while the others move), game after game."""
        person = self.people[0]
        service = self.bot.service
        while not self.bot.drain.stopping:
            current = await service.current(COMPUTER_CHANNEL)
            if current is None:
                sub, options = "start", [option("difficulty", "easy")]
            elif current[1] is None or current[0].players[current[1].to_move or 0].user_id != person.id:
                await asyncio.sleep(0.05)  # the computer is thinking
                continue
            else:
                parts = current[1].move_text(self.rng.choice(current[1].legal_moves())).split()
                if parts[0] == "place":
                    sub, options = "place", [option("cell", parts[1])]
                else:
                    sub, options = "move", [option("from", parts[1]), option("to", parts[2])]
            await self.send(person, COMPUTER_CHANNEL, sub, options)

    async def moving(self, channel: int, think: float) -> None:
        rng = random.Random(channel)
        while not self.bot.drain.stopping:
            try:
                match_id, ply, outcome = await self.one_move(channel)
            except Exception:
                if self.bot.drain.stopping:
                    return
                raise
            if outcome == "followup":  # the board arrived: the move was played
                self.seen.append((match_id, ply))
            await asyncio.sleep(rng.expovariate(1 / think))


async def serve(database: str, state: Path, matches: int, rate: float, stop_seconds: float) -> int:
    patch = Patch()
    load = Served(database, matches, stop_seconds)
    await load.start(patch)
    bot = load.bot
    undo = on_stop_signals(bot.request_stop)
    channels = list(range(10_000, 10_000 + matches))
    for channel in channels:
        await load.open_match(channel)
    players = [asyncio.create_task(load.moving(channel, matches / rate)) for channel in channels]
    players.append(asyncio.create_task(load.play_computer()))
    while not (bot.renderer.workers.pids() and bot.computer.workers.pids()) or len(load.seen) < matches:
        await asyncio.sleep(0.05)
    server = bot._metrics_server
    pids = {
        "bot": os.getpid(),
        "workers": bot.renderer.workers.pids() + bot.computer.workers.pids(),
        "metrics_port": server.port if server is not None else None,
    }
    state.write_text(json.dumps(pids))
    await bot.stopped()
    undo()
    for player in players:
        player.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    state.write_text(json.dumps({**pids, "seen": load.seen, "refused": load.refused}))
    patch.undo()
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("database")
    parser.add_argument("state", type=Path)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--rate", type=float, default=40.0)
    parser.add_argument("--stop-seconds", type=float, default=10.0)
    args = parser.parse_args(argv)
    from bot.logs import configure_logging

    configure_logging("INFO")
    return asyncio.run(serve(args.database, args.state, args.matches, args.rate, args.stop_seconds))


if __name__ == "__main__":
    sys.exit(main())
