"""Stopping like a service, with real processes: the bot under load and its workers.

``bench.served`` runs the real bot (its setup, sweeper, one render and one computer worker process and the
stop signals of ``python -m bot``) with the fake Discord edge, players moving meanwhile.  SIGTERM must end
it with status 0 within 15 s, every move a player saw answered in the database, the lock released and no
worker left; SIGKILL must leave no worker alive after 5 s.  The polite answer to a command arriving while
the bot stops is tested in-process.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bot.client import TabulaBot
from bot.core.service import MatchService
from bot.storage import MatchStore
from tests import ROOT
from tests.bot_world import ANA, BO, World
from tests.harness import settle


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie waiting to be reaped counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def gone(pids: set[int], within: float) -> bool:
    """Wait up to ``within`` seconds for every process of ``pids`` to end; say which are left if any."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    left = {pid: Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:100] for pid in pids if alive(pid)}
    raise AssertionError(f"still alive after {within} s: {left}")


def start_served(tmp_path: Path, **options: str) -> tuple[subprocess.Popen[str], Path, Path, dict]:
    database, state = tmp_path / "tabula.sqlite3", tmp_path / "state.json"
    extra = [f"--{name.replace('_', '-')}={value}" for name, value in options.items()]
    process = subprocess.Popen(
        [sys.executable, "-m", "bench.served", str(database), str(state), *extra],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not state.exists() or not state.read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"the served bot never got going:\n{process.communicate()[0]}")
        time.sleep(0.05)
    return process, database, state, json.loads(state.read_text())


@pytest.mark.subprocess
async def test_sigterm_under_load_finishes_the_work_in_flight_and_exits_0_leaving_nothing(tmp_path: Path) -> None:
    process, database, state, ready = start_served(tmp_path, matches="20", rate="40")
    below = descendants(process.pid)
    assert set(ready["workers"]) <= below and len(ready["workers"]) == 2  # a renderer and the computer
    time.sleep(0.5)  # moves keep arriving
    # A scrape during the load shows the moves made, and the bot is healthy.
    port = ready["metrics_port"]
    metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    moves = next(line for line in metrics.splitlines() if line.startswith('tabula_moves_total{game="pond"}'))
    assert float(moves.split()[-1]) > 20
    assert urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).status == 200
    # A backup taken now, while moves are written, opens and replays every running match.
    backup = tmp_path / "backup.sqlite3"
    made = subprocess.run(
        [sys.executable, "-m", "bot", "backup", str(backup)],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT), "TABULA_DATABASE": str(database)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0 and "integrity ok" in made.stdout, made.stderr
    assert "running matches replay exactly" in made.stdout
    sent = time.monotonic()
    process.send_signal(signal.SIGTERM)
    output, _ = process.communicate(timeout=30)
    took = time.monotonic() - sent
    assert process.returncode == 0, output
    assert took < 15, f"stopping took {took:.1f} s"
    assert "Tabula stopped on SIGTERM" in output and output.count("Tabula stopped") == 1
    # Multiprocessing's resource tracker ends when it sees the bot's end of its pipe close: a moment after.
    assert gone(below, within=2.0), "a worker outlived the bot"
    # The lock is released: another process can take it at once.
    fd = os.open(f"{database}.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(fd)
    # No lost move: every board a player saw is a move in the log, and every match replays to its state.
    seen = json.loads(state.read_text())["seen"]
    assert len(seen) > 20
    store = await MatchStore.open(str(database))
    try:
        service = MatchService(store.matches)
        for match_id, ply in seen:
            log = await store.matches.log(match_id)
            assert sum(entry.kind == "move" for entry in log) > ply, f"match {match_id} lost its move {ply + 1}"
        for match_id in {match_id for match_id, _ in seen}:
            record = await store.matches.get(match_id)
            assert record is not None and (await service.replay(record)).to_json() == record.state
    finally:
        await store.close()
    copy = await MatchStore.open(str(backup))
    try:
        service = MatchService(copy.matches)
        running = await copy.database.rows("SELECT id FROM matches WHERE status = 'active'")
        assert len(running) >= 20
        for (match_id,) in running:
            record = await copy.matches.get(match_id)
            assert record is not None and (await service.replay(record)).to_json() == record.state
    finally:
        await copy.close()


@pytest.mark.subprocess
def test_a_killed_bot_leaves_no_worker_alive_after_5_seconds(tmp_path: Path) -> None:
    process, _, _, ready = start_served(tmp_path, matches="4", rate="10")
    below = descendants(process.pid)
    assert set(ready["workers"]) <= below
    process.kill()  # SIGKILL: no handler runs
    process.communicate(timeout=10)
    assert gone(below, within=5.0)


async def test_a_command_arriving_while_the_bot_stops_hears_it_is_restarting(world: World) -> None:
    await world.start_pond(2901)
    world.bot.drain.stopping = True  # what a stop signal does first
    calls = await world.command(ANA, 2901, "pond", "place", cell="b2")
    await settle()
    replies = [c for c in calls if c.kind == "reply"]
    assert len(replies) == 1 and "restarting" in replies[0].content and replies[0].ephemeral
    record = await world.bot.store.matches.open_match(2901)
    assert record is not None and await world.bot.store.matches.log(record.id) == []  # nothing was played
    world.bot.drain.stopping = False


async def test_close_waits_for_a_command_in_flight_and_is_done_once(world: World) -> None:
    light, _ = await world.start_pond(2902)
    person = ANA if light == ANA else BO
    payload = world.discord.command_payload(person, 2902, "pond", "place", [{"name": "cell", "type": 3, "value": "b2"}])
    world.bot._connection.parse_interaction_create(payload)  # in flight: not awaited
    assert world.bot.drain.in_flight >= 1
    bot: TabulaBot = world.bot
    await bot.close()
    await bot.close()  # a second call waits for the same stop
    assert bot.drain.in_flight == 0
    assert any(c.kind == "followup" and c.board for c in world.recorder.calls)


RUN_BOT = """
import asyncio, sys
import discord

async def login(self, token):  # no network: as if Discord took the token
    return None

async def connect(self, *, reconnect=True):  # connected until closed
    print("running", flush=True)
    while not self.is_closed():
        await asyncio.sleep(0.05)

discord.Client.login = login
discord.Client.connect = connect
from bot.__main__ import main
sys.exit(main([]))
"""


@pytest.mark.subprocess
@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGINT])
def test_python_m_bot_stops_on_a_signal_with_status_0_and_one_line(tmp_path: Path, signal_number: int) -> None:
    database = tmp_path / "tabula.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-c", RUN_BOT],
        cwd=tmp_path,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": "x",
            "TABULA_DATABASE": str(database),
            "TABULA_LOG_FORMAT": "json",
        },
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "running"  # connected
    process.send_signal(signal_number)
    _, errors = process.communicate(timeout=30)
    assert process.returncode == 0, errors
    lines = [json.loads(line) for line in errors.splitlines() if line.startswith("{")]
    assert lines and len(lines) == len(errors.splitlines())  # every log line is one JSON object
    stopped = [line for line in lines if line["message"].startswith("Tabula stopped")]
    assert len(stopped) == 1 and signal.Signals(signal_number).name in stopped[0]["message"]
    fd = os.open(f"{database}.lock", os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # released
    finally:
        os.close(fd)
