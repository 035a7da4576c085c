"""Two bot processes, shards 0 and 1 of 2, sharing one PostgreSQL under load; one killed with SIGKILL and restarted.

Each process is a real bot (``TABULA_SHARDS`` = ``0/2`` or ``1/2``) with Discord's HTTP edge
replaced, as in :mod:`bench.load`: its players, in servers on its own shard, send moves as
Discord-shaped interactions through the command tree, and every move whose board came back is
written to a journal (the player saw it: it must never be lost).  Half-way through, shard 0's
process is killed with SIGKILL — in the middle of its moves, transactions and posts — and started
again; it picks up its matches and the announcements the dead process left pending.  At the end
every match must replay from its move log to its stored state, with one log row per move played
(no move doubled), and every journalled move must be in its match's log (no move lost).

    python -m bench.shards [--seconds 20] [--matches 40] [--database URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SHARDS = 2


def channel_of(shard: int, index: int) -> int:
    return 500_000 + shard * 10_000 + index


def guild_of(channel: int) -> int:
    """The server of a channel: on the shard the channel was made for (Discord: ``(id >> 22) % count``)."""
    shard, index = divmod(channel - 500_000, 10_000)
    return ((index * SHARDS + shard) << 22) + 12345


# -- one bot process -------------------------------------------------------------------------------------------


async def worker(shard: int, database: str, matches: int, seconds: float, journal: Path) -> dict[str, Any]:
    """Run one shard's bot for ``seconds`` once started, journalling every move whose board arrived."""
    from bench.load import Load, Patch
    from bot.shards import Shards

    patch = Patch()
    load = Load(
        journal.parent, matches, seed=shard + int(time.time()), render_processes=0, database=database,
        shards=Shards((shard,), SHARDS), guild_of=guild_of,
    )  # fmt: skip
    fd = os.open(journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    moves = refused = 0
    try:
        await load.start(patch)
        resumed = await load.bot.announcer.resume(everything=True)  # what a killed predecessor left pending
        resumed_computers = await load.bot.computer.resume_all()
        print("ready", flush=True)  # the conductor times the kill from here
        until = time.time() + seconds

        async def player(index: int) -> None:
            nonlocal moves, refused
            channel = channel_of(shard, index)
            while time.time() < until:
                match_id, ply, outcome = await load.one_move(channel)
                if outcome == "followup":
                    os.write(fd, f"{match_id} {ply}\n".encode())  # the player saw this move played
                    moves += 1
                else:
                    refused += 1

        await asyncio.gather(*(player(index) for index in range(matches)))
        # The matches opened here announced their start in the outbox (the benchmark opens them through
        # the service, without posting): post what is pending on this shard, as a restart would.
        flushed = await load.bot.announcer.resume(everything=True)
        return {"shard": shard, "moves": moves, "refused": refused, "resumed_posts": resumed,
                "resumed_computers": resumed_computers, "posted_at_end": flushed}  # fmt: skip
    finally:
        os.close(fd)
        await load.stop()
        patch.undo()


# -- the conductor ---------------------------------------------------------------------------------------------


def _start(shard: int, database: str, matches: int, seconds: float, journal: Path) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "bench.shards", "--worker", str(shard), "--database", database]
    argv += ["--matches", str(matches), "--seconds", repr(seconds), "--journal", str(journal)]
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=root)


def _ready(process: subprocess.Popen[str]) -> None:
    """Wait until the process has opened the database and wired the bot."""
    assert process.stdout is not None
    said = process.stdout.readline()
    if said.strip() != "ready":
        _, err = process.communicate()
        raise RuntimeError(f"a shard process did not start ({process.returncode}):\n{err[-3000:]}")


def _finish(process: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    out, err = process.communicate(timeout=timeout)
    if process.returncode != 0:
        raise RuntimeError(f"a shard process failed ({process.returncode}):\n{err[-3000:]}")
    return dict(json.loads(out.strip().splitlines()[-1]))


async def verify(database: str, journal: Path) -> dict[str, Any]:
    """Every match replays to its state, one log row per move; every journalled move is in its log."""
    from bot.core import ratings
    from bot.core.service import MatchService
    from bot.storage import MatchStore

    seen: dict[int, set[int]] = {}
    lines = journal.read_text().split()
    for match_id, ply in zip(lines[::2], lines[1::2], strict=True):
        plies = seen.setdefault(int(match_id), set())
        assert int(ply) not in plies, f"match {match_id}: the move at ply {ply} was confirmed twice"
        plies.add(int(ply))
    store = await MatchStore.open(database, rating=ratings)
    try:
        service = MatchService(store.matches)
        rows = await store.database.rows("SELECT id FROM matches ORDER BY id")
        logged = finished = 0
        for (match_id,) in rows:
            record = await store.matches.get(match_id)
            assert record is not None
            if record.state is None:
                continue
            replayed = await service.replay(record)
            assert replayed.to_json() == record.state, f"match {match_id} does not replay to its state"
            log = await store.matches.log(match_id)
            assert [entry.seq for entry in log] == list(range(1, len(log) + 1)), f"match {match_id}: gaps in its log"
            played = sum(1 for entry in log if entry.kind == "move")
            assert played == replayed.ply, f"match {match_id}: {played} logged moves for {replayed.ply} plies"
            lost = [ply for ply in seen.get(match_id, ()) if ply >= played]
            assert not lost, f"match {match_id}: moves at plies {lost} were confirmed but are not in the log"
            logged += played
            finished += record.status == "finished"
        pending = await store.database.rows("SELECT COUNT(*) FROM outbox WHERE status = 'pending'")
        unknown = set(seen) - {int(row[0]) for row in rows}
        assert not unknown, f"journalled matches missing from the database: {sorted(unknown)}"
        return {
            "matches": len(rows),
            "finished_matches": finished,
            "logged_moves": logged,
            "confirmed_moves": len(lines) // 2,
            "pending_posts_left": int(pending[0][0]),
        }
    finally:
        await store.close()


def run(seconds: float = 20.0, matches: int = 40, database: str | None = None) -> dict[str, Any]:
    """Run the scenario on ``database`` (an empty PostgreSQL database's URL) or on a throwaway server."""
    from bench.pgserver import create_database, throwaway_server

    if database is not None:
        return _conduct(seconds, matches, database)
    with throwaway_server() as url:
        return _conduct(seconds, matches, asyncio.run(create_database(url, "tabula_shards")))


def _conduct(seconds: float, matches: int, database: str) -> dict[str, Any]:
    from bot.core import ratings
    from bot.storage import MatchStore

    async def migrate() -> None:  # once, before the processes race to start
        store = await MatchStore.open(database, rating=ratings)
        await store.close()

    asyncio.run(migrate())
    with tempfile.TemporaryDirectory() as folder:
        journal = Path(folder) / "journal.txt"
        first = [_start(shard, database, matches, seconds, journal) for shard in range(SHARDS)]
        for process in first:
            _ready(process)
        started = time.time()
        time.sleep(seconds / 2)
        os.kill(first[0].pid, signal.SIGKILL)  # mid-way: moves, transactions and posts in flight
        first[0].wait()
        before_kill = len(journal.read_text().split()) // 2
        restarted = _start(0, database, matches, seconds / 2, journal)
        _ready(restarted)
        results = [_finish(restarted, seconds + 120), _finish(first[1], seconds + 120)]
        elapsed = time.time() - started
        checked = asyncio.run(verify(database, journal))
    return {
        "seconds": round(elapsed, 1),
        "matches_per_shard": matches,
        "killed_after_confirmed_moves": before_kill,
        "moves_per_second": round(checked["confirmed_moves"] / elapsed, 1),
        "processes": results,
        **checked,
    }


def line(row: dict[str, Any]) -> str:
    """The result in one line."""
    resumed = sum(p["resumed_posts"] for p in row["processes"])
    return (
        f"2 processes x {row['matches_per_shard']} matches, {row['seconds']} s: {row['confirmed_moves']} moves "
        f"confirmed ({row['moves_per_second']}/s), shard 0 SIGKILLed after {row['killed_after_confirmed_moves']}; "
        f"{resumed} pending posts resumed on restart, {row['pending_posts_left']} left; "
        f"{row['matches']} matches replay exactly; {row['logged_moves']} logged moves "
        f"({row['logged_moves'] - row['confirmed_moves']} committed but unconfirmed when killed), none lost or doubled"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--matches", type=int, default=40, help="matches per shard process")
    parser.add_argument("--database", help="an empty PostgreSQL database's URL (default: a throwaway server)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--journal", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        summary = asyncio.run(worker(args.worker, args.database, args.matches, args.seconds, args.journal))
        print(json.dumps(summary))
        return
    row = run(args.seconds, args.matches, args.database)
    print(json.dumps(row, indent=2) if args.json else line(row))


if __name__ == "__main__":
    main()
