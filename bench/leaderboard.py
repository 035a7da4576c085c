"""Time to build one leaderboard page for a server with 100,000 rated players.

    python -m bench.leaderboard [--players 100000] [--repeat 30]

Fills a fresh SQLite file through the real schema, then times the whole page
build the bot does for ``/leaderboard`` (ladder size, the page's rows, the
asking player's rank when they are off the page, and the embed text) at the
first, a middle and the last page.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.commands.ladder import ladder_embed
from bot.core.ladders import Ladders
from bot.core.ratings import ordinal
from bot.storage import MatchStore

GUILD = 1


def fill(path: Path, players: int) -> None:
    rng = random.Random(players)
    with sqlite3.connect(path) as db:
        rows = []
        for i in range(players):
            mu, sigma, games = rng.uniform(5, 45), rng.uniform(0.8, 8.3), rng.randint(1, 200)
            rank = ordinal(mu, sigma)
            rows.append((GUILD, "pond", 10**17 + i, f"Player {i}", mu, sigma, rank, games, games, 0, 0, 0.0))
        db.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, name, mu, sigma, ordinal, games, wins, losses, draws, "
            "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            rows,
        )


async def measure(players: int, repeat: int) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ladder.sqlite3"
        store = await MatchStore.open(str(path))
        await store.close()
        fill(path, players)
        store = await MatchStore.open(str(path))
        ladders = Ladders(store.ratings)
        viewer = 10**17 + players // 2
        pages = max(1, players // 10)
        results = []
        try:
            for label, page in (("first", 0), ("middle", pages // 2), ("last", pages - 1)):
                times = []
                for _ in range(repeat):
                    start = time.perf_counter()
                    embed, _, _ = await ladder_embed(ladders, GUILD, "pond", page, viewer)
                    times.append((time.perf_counter() - start) * 1000)
                    assert embed.description and len(embed.description) <= 4096
                times.sort()
                results.append(
                    {
                        "players": players,
                        "page": label,
                        "median_ms": round(statistics.median(times), 2),
                        "p95_ms": round(times[int(len(times) * 0.95) - 1], 2),
                    }
                )
        finally:
            await store.close()
        return results


def run(players: int = 100_000, repeat: int = 30) -> list[dict[str, Any]]:
    """Measure and return one row per page position."""
    return asyncio.run(measure(players, repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    for row in run(args.players, args.repeat):
        where = f"{row['players']:,} players, {row['page']:<6} page"
        print(f"{where}: median {row['median_ms']} ms, p95 {row['p95_ms']} ms")


if __name__ == "__main__":
    main()
