"""The sweeper's cost with many open matches: ``python -m bench.idle [--matches 100000] [--seconds 30]``.

A SQLite database is filled with ``--matches`` running Pond matches (rows written directly, as many
servers' worth of games would leave them), then the bot's :class:`~bot.sweeper.Sweeper` runs over it for
``--seconds`` in two situations:

* **idle** — every turn began just now with a day to go: nothing falls due during the run.  Reported: the
  time of the one query a wake makes (:meth:`~bot.storage.extras_store.MatchExtras.next_due`), the wakes,
  and the CPU time the bot process spent (everything it did is the sweeper's);
* **steady turns** — the turns (a day each) began at times spread over the last 18 hours, so their
  reminders fall due one after another from now on (1.5 a second at 100,000 matches), none overdue:
  wakes, reminders sent and CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.discord_fake import install
from bench.load import LoadRecorder, Patch, _client_user
from bot.client import TabulaBot
from bot.settings import Settings
from bot.storage import MatchStore
from engines import GAMES

DAY = 24 * 3600.0


async def fill(path: Path, matches: int, spread: float) -> None:
    """Write ``matches`` running Pond matches whose turns began up to ``spread`` seconds ago (a day each)."""
    store = await MatchStore.open(str(path))
    await store.close()
    state = json.dumps(GAMES["pond"].new().to_json(), separators=(",", ":"), sort_keys=True)
    now = time.time()
    rng = random.Random(100)
    rows = []
    for number in range(matches):
        began = now - rng.uniform(0, spread)
        players = json.dumps([{"id": 10**17 + 2 * number, "name": "A"}, {"id": 10**17 + 2 * number + 1, "name": "B"}])
        rows.append((1 + number % 500, 10**6 + number, "pond", "{}", number, players, "active", state, 1, began + DAY,
                     began, began))  # fmt: skip
    with sqlite3.connect(path) as raw:
        raw.executemany(
            "INSERT INTO matches (guild_id, channel_id, game, options, seed, players, status, state, version, "
            "deadline, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


async def run(path: Path, seconds: float) -> dict[str, Any]:
    """Run the bot's sweeper over the database for ``seconds``; return what it cost."""
    patch = Patch()
    recorder = LoadRecorder()
    install(patch, recorder)
    store = await MatchStore.open(str(path))
    bot = TabulaBot(Settings(database=str(path), render_processes=0, ai_processes=0), store=store)
    try:
        await bot._async_setup_hook()
        bot._connection.user = _client_user(bot)
        await bot.prepare()
        queries = []
        for _ in range(5):
            started = time.perf_counter()
            await store.extras.next_due(time.time())
            queries.append(time.perf_counter() - started)
        sent_before = (await store.database.rows("SELECT COUNT(*) FROM match_reminders"))[0][0]
        cpu, wall = time.process_time(), time.perf_counter()
        bot.sweeper.start()
        await asyncio.sleep(seconds)
        await bot.sweeper.stop()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        reminded = (await store.database.rows("SELECT COUNT(*) FROM match_reminders"))[0][0] - sent_before
        return {
            "next_due_query_ms": round(statistics.median(queries) * 1000, 1),
            "seconds": round(wall, 1),
            "wakes": bot.sweeper.wakes,
            "reminders": reminded,
            "cpu_seconds": round(cpu, 2),
            "cpu_percent": round(100 * cpu / wall, 1),
        }
    finally:
        await bot.close()
        patch.undo()


async def measure(matches: int, seconds: float) -> dict[str, Any]:
    found: dict[str, Any] = {"matches": matches}
    with tempfile.TemporaryDirectory() as folder:
        for name, spread in (("idle", 0.0), ("steady_turns", 0.75 * DAY)):
            path = Path(folder) / f"{name}.sqlite3"
            await fill(path, matches, spread)
            found[name] = await run(path, seconds)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    found = asyncio.run(measure(args.matches, args.seconds))
    if args.json:
        print(json.dumps(found, indent=2))
        return
    for name in ("idle", "steady_turns"):
        row = found[name]
        print(
            f"{found['matches']:,} open matches, {name.replace('_', ' ')}: one wake = one query of "
            f"{row['next_due_query_ms']} ms; {row['wakes']} wakes in {row['seconds']} s, {row['reminders']} reminders; "
            f"CPU {row['cpu_seconds']} s ({row['cpu_percent']} % of one core)"
        )


if __name__ == "__main__":
    main()
