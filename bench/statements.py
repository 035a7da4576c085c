"""Which statements a move sends, and how long each waits, on SQLite and PostgreSQL (bench.load's 100 matches).

``bench.load`` counts round trips per move; this says which they are.  Every statement the stores send
through :class:`bot.storage.database.Database` is tallied by its SQL (its first 80 characters) during
the timed part of :class:`bench.load.Load`'s run: how many per move, and the mean time from sending it to its
answer (on a busy machine most of that is waiting for the loop and the server to be scheduled).  A batch
(:meth:`~bot.storage.database.Database.batch`) counts as one, named by its first statement.

    python -m bench.statements [--database sqlite|postgresql|URL] [--matches 100] [--seconds 8]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import re
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from bench.load import Load, Patch
from bench.pgserver import create_database, drop_database, throwaway_server
from bot.storage import database as backends

OFFERED = 100.0  # moves per second offered, as bench.load's 100-match scenario


class Tally:
    """Statements sent and seconds waited, by SQL."""

    def __init__(self) -> None:
        self.sent: Counter[str] = Counter()
        self.waited: defaultdict[str, float] = defaultdict(float)
        self.on = False

    def wrap(self, patch: Patch, owner: Any, name: str, sql_of: Callable[[Any], str]) -> None:
        """Count every call of ``owner.name`` (a coroutine method whose first argument gives the SQL)."""
        original = getattr(owner, name)
        tally = self

        async def counted(self: Any, first: Any, *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await original(self, first, *args, **kwargs)
            finally:
                if tally.on:
                    sql = re.sub(r"\s+", " ", sql_of(first)).strip()
                    key = f"{name}: {sql[:80]}"
                    tally.sent[key] += 1
                    tally.waited[key] += time.perf_counter() - started

        patch.setattr(owner, name, counted)


def _install(patch: Patch, tally: Tally) -> None:
    handles: list[Any] = [backends._SQLiteHandle]
    databases: list[Any] = [backends.SQLiteDatabase]
    with contextlib.suppress(ImportError):  # asyncpg is an optional extra
        from bot.storage import postgres

        handles.append(postgres._PostgresHandle)
        databases.append(postgres.PostgresDatabase)
    for handle in handles:
        for name in ("execute_fetchall", "execute", "executemany"):
            tally.wrap(patch, handle, name, str)
    for database in databases:
        for name in ("rows", "write"):
            tally.wrap(patch, database, name, str)
        tally.wrap(patch, database, "batch", lambda steps: steps[0].sql)


class _Timed(list[float]):
    """The run's latencies: cleared once when the timed part starts, which starts the tally."""

    def __init__(self, tally: Tally) -> None:
        super().__init__()
        self.tally = tally

    def clear(self) -> None:
        super().clear()
        self.tally.sent.clear()
        self.tally.waited.clear()
        self.tally.on = True


async def one(folder: Path, matches: int, seconds: float, server: str | None) -> list[str]:
    """One run on a fresh database; the report's lines."""
    name = "tabula_statements"
    url = await create_database(server, name) if server else None
    patch, tally = Patch(), Tally()
    load = Load(folder, matches, seed=matches, label=f"-statements-{bool(server)}", database=url)
    try:
        await load.start(patch)
        _install(patch, tally)
        load.latencies = _Timed(tally)
        row = await load.run(seconds, OFFERED)
        tally.on = False
    finally:
        await load.stop()
        patch.undo()
        if server:
            await drop_database(server, name)
    moves = max(1, row["moves"])
    lines = [
        f"{'postgresql' if server else 'sqlite'}: {row['moves']} moves, median {row['median_ms']} ms, p99 "
        f"{row['p99_ms']} ms, {row['round_trips_per_move']} round trips a move (the bench's own look left out)"
    ]
    for key, count in tally.sent.most_common():
        mean = 1000 * tally.waited[key] / count
        lines.append(f"  {count / moves:6.3f} a move  {mean:7.2f} ms each  {key}")
    return lines


@contextlib.contextmanager
def _server(database: str) -> Iterator[str | None]:
    if database == "sqlite":
        yield None
    elif database == "postgresql":
        with throwaway_server() as url:
            yield url
    else:
        yield database


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="postgresql", help="sqlite, postgresql (throwaway server, and SQLite "
                        "beside it) or a postgresql:// server URL")  # fmt: skip
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args(argv)

    async def both(server: str | None) -> list[str]:
        with tempfile.TemporaryDirectory() as folder:
            lines = await one(Path(folder), args.matches, args.seconds, None)
            if server:
                lines += await one(Path(folder), args.matches, args.seconds, server)
            return lines

    with _server(args.database) as server:
        print("\n".join(asyncio.run(both(server))))


if __name__ == "__main__":
    main()
