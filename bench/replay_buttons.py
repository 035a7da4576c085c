"""The replay's step buttons (⏮ ◀ ▶ ⏭) answered while 100 matches are being played.

The bot of :mod:`bench.load` plays 100 Pond matches offering 100 moves/s (each player moves about
once a second); meanwhile viewers step through finished matches' replays, each pressing a button
about every 0.2 s.  A press goes through discord.py's real gateway handler and dynamic-item routing
to :meth:`bot.commands.replays.Replays.step`: positions rebuilt in a worker on the first press of a match (then
cached), the board drawn in a worker, alt text, and the message edit handed to the HTTP layer.
Reported: presses, median and p99 answer time (the interaction's final answer: the edited message),
cold presses (a match's positions rebuilt), and the turn path's own p99 meanwhile.

    python -m bench.replay_buttons [--seconds 10] [--viewers 5] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.discord_fake import GUILD_ID, Person
from bench.load import Load, LoadRecorder, Patch
from bot.storage import Seat

MATCHES = 100  # being played meanwhile
OFFERED = 100.0  # their moves per second
FINISHED = 20  # finished matches whose replays are stepped through
GOAL_P99_MS = 100.0


class ButtonRecorder(LoadRecorder):
    """Also wakes whoever waits for a button press's final answer: the message edited."""

    async def webhook_request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        path = route.path_for_recording
        body, _ = self._decode(kwargs.get("payload"), kwargs.get("multipart"), None, None)
        token = path.split("/")[3] if path.startswith(("/interactions/", "/webhooks/")) else ""
        final = None
        if path.endswith("/callback") and isinstance(body, dict) and body.get("type") == 7:
            final = "edit"  # answered at once with the new board
        elif "/messages/@original" in path and route.method == "PATCH":
            final = "edit"  # deferred, then edited
        if final is not None and token in self.waiters:
            waiter = self.waiters.pop(token)
            if not waiter.done():
                waiter.set_result(final)
            return self._respond(route.method, path, body)
        return await super().webhook_request(route, session, **kwargs)


class Viewers:
    """People stepping through finished matches' replays."""

    def __init__(self, load: Load, seed: int) -> None:
        self.load = load
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.cold_latencies: list[float] = []
        self.warm_latencies: list[float] = []
        self.finished: list[tuple[int, int, int]] = []  # (match, channel, plies)

    async def finish_matches(self, count: int) -> None:
        """Play ``count`` mini Pond matches to their end, straight through the service."""
        service = self.load.bot.service
        for index in range(count):
            channel = 50_000 + index
            a, b = self.rng.sample(self.load.people, 2)
            answer = await service.challenge(
                guild_id=GUILD_ID, channel_id=channel, game="pond", challenger=Seat(a.id, a.name),
                opponents=[Seat(b.id, b.name)], options={"variant": "mini"},
            )  # fmt: skip
            match_id = answer.record.id
            await service.answer(match_id, Seat(b.id, b.name), True)
            while True:
                record, state = await service.running(channel)
                assert state.to_move is not None
                move = state.move_text(self.rng.choice(state.legal_moves()))
                turn = await service.play(channel, record.players[state.to_move].user_id, move)
                if turn.record.status == "finished":
                    break
            plies = len(await service.store.log(match_id))
            self.finished.append((match_id, channel, plies))

    async def press(self, match_id: int, channel: int, ply: int, step: str) -> None:
        viewer = self.rng.choice(self.load.people)
        custom_id = f"tabula:replay:{match_id}:{ply}:{step}"
        payload = self.load.discord.button_payload(Person(viewer.id, viewer.name), channel, custom_id, 1)
        recorder = self.load.recorder
        done = recorder.expect(payload["token"])
        cold = match_id not in self.load.bot.replays._cache
        started = time.perf_counter()
        self.load.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        await asyncio.wait_for(done, 30)
        took = time.perf_counter() - started
        self.latencies.append(took)
        (self.cold_latencies if cold else self.warm_latencies).append(took)

    async def viewer(self, until: float, think: float) -> None:
        """Open a replay, then step back and forth through it, pressing about every ``think`` seconds."""
        rng = random.Random(self.rng.random())
        await asyncio.sleep(rng.uniform(0, think))
        while time.perf_counter() < until:
            match_id, channel, plies = rng.choice(self.finished)
            ply = plies
            for _ in range(rng.randint(3, 12)):
                if time.perf_counter() >= until:
                    return
                step = rng.choice(("prev", "prev", "next", "first", "last"))
                ply = {"first": 0, "prev": max(0, ply - 1), "next": min(plies, ply + 1), "last": plies}[step]
                await self.press(match_id, channel, ply, step)
                await asyncio.sleep(rng.expovariate(1 / think))


async def measure(seconds: float, viewers: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        patch = Patch()
        load = Load(Path(folder), MATCHES, seed=MATCHES, label="-buttons")
        load.recorder = ButtonRecorder()
        try:
            await load.start(patch)
            watchers = Viewers(load, seed=5)
            await watchers.finish_matches(FINISHED)
            await watchers.press(*watchers.finished[0][:2], 0, "first")  # warm the workers up
            watchers.latencies.clear()
            watchers.cold_latencies.clear()
            watchers.warm_latencies.clear()
            until = time.perf_counter() + seconds
            playing = asyncio.create_task(load.run(seconds, OFFERED))
            await asyncio.sleep(0.5)  # the matches are opened and moving
            await asyncio.gather(*(watchers.viewer(until + 0.5, 0.2) for _ in range(viewers)))
            turns = await playing
        finally:
            await load.stop()
            patch.undo()
    ordered = sorted(watchers.latencies)
    warm = sorted(watchers.warm_latencies)
    count = len(ordered)
    return {
        "matches_playing": MATCHES,
        "offered_moves_per_second": OFFERED,
        "viewers": viewers,
        "presses": count,
        "cold_presses": len(watchers.cold_latencies),
        "cold_median_ms": round(statistics.median(watchers.cold_latencies) * 1000, 1)
        if watchers.cold_latencies
        else None,
        "median_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[min(count - 1, int(count * 0.99))] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
        "warm_p99_ms": round(warm[min(len(warm) - 1, int(len(warm) * 0.99))] * 1000, 1) if warm else None,
        "turn_p99_ms": turns["p99_ms"],
        "goal_p99_ms": GOAL_P99_MS,
    }


def run(seconds: float = 10.0, viewers: int = 5) -> dict[str, Any]:
    return asyncio.run(measure(seconds, viewers))


def line(row: dict[str, Any]) -> str:
    met = "met" if row["p99_ms"] < row["goal_p99_ms"] else "MISSED"
    return (
        f"step buttons with {row['matches_playing']} matches playing ({row['offered_moves_per_second']:g} moves/s): "
        f"{row['presses']} presses ({row['cold_presses']} cold: median {row['cold_median_ms']} ms), "
        f"median {row['median_ms']} ms, "
        f"p99 {row['p99_ms']} ms (goal < {row['goal_p99_ms']:g} ms: {met}), max {row['max_ms']} ms, "
        f"p99 of presses on a match already opened {row['warm_p99_ms']} ms; "
        f"turn path p99 meanwhile {row['turn_p99_ms']} ms"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--viewers", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    row = run(args.seconds, args.viewers)
    print(json.dumps(row, indent=2) if args.json else line(row))


if __name__ == "__main__":
    main()
