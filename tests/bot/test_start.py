"""Starting the bot: a database it cannot use stops ``python -m bot`` at once, clearly, before any login.

Every test runs the real command line as a subprocess with a dummy token.  The database is
opened before the client logs in, so none of these ever reaches the network; if that order
broke, the bot would try to log in and the expected message would not come.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

from bot.__main__ import NoVoiceWarnings
from bot.client import TabulaBot
from bot.settings import Settings, SettingsError
from bot.storage import DatabaseUnavailable, MatchStore, migrations
from tests import ROOT

SECONDS = 30  # a refusal takes well under a second; a hang would hit this
NOBODY = 65534


def run_bot(database: Path | str, *, cwd: Path, prefix: tuple[str, ...] = (), **extra: str) -> tuple[int, str]:
    """Run ``python -m bot`` on ``database``; return its exit status and stderr."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "not-a-real-token"}
    env.update({"TABULA_DATABASE": str(database), **extra})
    result = subprocess.run(
        [*prefix, sys.executable, "-m", "bot"],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=SECONDS,
        stdin=subprocess.DEVNULL,
    )
    return result.returncode, result.stderr


def assert_refused(status: int, stderr: str, database: Path | str, *words: str) -> None:
    """One line naming the file and the setting, saying what is wrong; a failure status; no traceback."""
    assert status == 1, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    line = lines[0]
    assert line.startswith("tabula: ") and "Traceback" not in stderr
    assert os.path.abspath(database) in line and "TABULA_DATABASE" in line
    assert "TABULA_LOG_LEVEL=DEBUG" in line
    for word in words:
        assert word in line, line


@pytest.fixture
def folder() -> Iterator[Path]:
    """A folder that other users may enter (tmp_path is private to its owner)."""
    path = Path(tempfile.mkdtemp(prefix="tabula-start-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.subprocess
def test_a_corrupt_file_is_refused(folder: Path) -> None:
    database = folder / "tabula.sqlite3"
    database.write_bytes(b"this is not a database, just some text\n" * 100)
    status, stderr = run_bot(database, cwd=folder)
    assert_refused(status, stderr, database, "damaged", "backup")
    assert database.read_bytes().startswith(b"this is not a database")  # left as it was


@pytest.mark.subprocess
def test_a_folder_is_refused(folder: Path) -> None:
    status, stderr = run_bot(folder, cwd=folder)
    assert_refused(status, stderr, folder, "is a folder", str(folder / "tabula.sqlite3"))


@pytest.mark.subprocess
def test_a_missing_folder_is_refused(folder: Path) -> None:
    database = folder / "no" / "such" / "tabula.sqlite3"
    status, stderr = run_bot(database, cwd=folder)
    assert_refused(status, stderr, database, f"folder {folder / 'no' / 'such'} does not exist", "create it")
    assert not (folder / "no").exists()


@pytest.mark.subprocess
def test_a_relative_path_is_named_in_full(folder: Path) -> None:
    (folder / "data").mkdir()
    status, stderr = run_bot("data", cwd=folder)
    assert_refused(status, stderr, folder / "data", "is a folder")


@pytest.mark.subprocess
def test_a_newer_schema_is_refused_and_left_alone(folder: Path) -> None:
    database = folder / "tabula.sqlite3"
    newer = max(number for number, _ in migrations()) + 5
    with sqlite3.connect(database) as raw:
        raw.execute("CREATE TABLE from_the_future (x)")
        raw.execute(f"PRAGMA user_version = {newer}")
    status, stderr = run_bot(database, cwd=folder)
    assert_refused(status, stderr, database, f"version {newer}", "newer Tabula")
    with sqlite3.connect(database) as raw:
        assert raw.execute("PRAGMA user_version").fetchone()[0] == newer
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] != "wal"  # not even the journal mode changed


@pytest.mark.subprocess
async def test_a_database_in_use_by_another_running_bot_is_refused(folder: Path) -> None:
    database = folder / "tabula.sqlite3"
    running = await MatchStore.open(str(database))  # the other bot, holding the file
    try:
        status, stderr = await asyncio.to_thread(run_bot, database, cwd=folder)
        assert_refused(
            status,
            stderr,
            database,
            "another running Tabula",
            f"process {os.getpid()}",
            "stop that bot",
            "a SQLite file serves one bot process",
            "share a PostgreSQL database",
        )
        with pytest.raises(DatabaseUnavailable, match="another running Tabula"):
            await MatchStore.open(str(database))  # in this process too
        assert await running.schema_version() == max(number for number, _ in migrations())  # still working
    finally:
        await running.close()
    again = await MatchStore.open(str(database))  # free once the first one closed
    await again.close()


@pytest.mark.subprocess
async def test_a_postgresql_server_it_cannot_reach_stops_the_bot_in_one_line(folder: Path) -> None:
    url = "postgresql://tabula:hunter2@127.0.0.1:1/tabula"
    status, stderr = await asyncio.to_thread(run_bot, url, cwd=folder)
    assert status == 1 and len(stderr.strip().splitlines()) == 1, stderr
    line = stderr.strip()
    assert "postgresql://tabula:***@127.0.0.1:1/tabula" in line and "TABULA_DATABASE" in line
    assert "cannot reach the server" in line and "hunter2" not in line and "Traceback" not in line


def test_shards_make_an_auto_sharded_client_and_nothing_else_changes() -> None:
    plain = TabulaBot.create(Settings())
    assert not isinstance(plain, discord.AutoShardedClient) and plain.shard_count is None
    sharded = TabulaBot.create(Settings.load({"TABULA_SHARDS": "2-3/8"}, env_file=None))
    assert isinstance(sharded, discord.AutoShardedClient) and isinstance(sharded, TabulaBot)
    assert (sharded.shard_ids, sharded.shard_count) == ([2, 3], 8)
    assert sharded.command_payload() == plain.command_payload()
    with pytest.raises(SettingsError, match="TABULA_SHARDS must look like 0-3/8"):
        Settings.load({"TABULA_SHARDS": "3 of 8"}, env_file=None)


def unprivileged() -> tuple[str, ...]:
    """A command prefix under which file modes apply (root ignores them), or skip saying why."""
    if os.geteuid() != 0:
        return ()
    # The probe must import this checkout's bot (not another copy installed in the venv).
    probe = [sys.executable, "-c", f"import bot.storage as s; assert s.__file__.startswith({str(ROOT)!r})"]
    tried = []
    candidates = [
        # Another user, as the brief of a real deployment would be.
        ("setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"),
        ("runuser", "-u", "nobody", "--"),
        # Root without the capabilities that bypass file modes (when the repository is private to root).
        ("setpriv", "--bounding-set=-all", "--inh-caps=-all"),
    ]
    for candidate in candidates:
        found = shutil.which(candidate[0], path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin:/usr/bin:/bin")
        if found is None:
            tried.append(f"{candidate[0]} not found")
            continue
        prefix = (found, *candidate[1:])
        result = subprocess.run(
            [*prefix, *probe],
            capture_output=True,
            text=True,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
            cwd="/",
            timeout=SECONDS,
        )
        if result.returncode == 0:
            return prefix
        tried.append(f"{' '.join(prefix)}: {result.stderr.strip().splitlines()[-1:]}")
    pytest.skip("running as root and no way to run without root's file access: " + "; ".join(tried))


@pytest.mark.subprocess
@pytest.mark.parametrize("exists", [True, False], ids=["file", "new-file"])
def test_no_permission_is_refused(folder: Path, exists: bool) -> None:
    prefix = unprivileged()
    database = folder / "tabula.sqlite3"
    if exists:
        with sqlite3.connect(database) as raw:
            raw.execute("CREATE TABLE t (x)")
        database.chmod(0o000)  # nobody may read it, not even its owner
        words = ["permission denied", "cannot read and write the file", "read and write access"]
    else:
        folder.chmod(0o555)  # the bot cannot create a file here
        words = ["permission denied", f"cannot create files in {folder}", "read and write access"]
    try:
        status, stderr = run_bot(database, cwd=folder, prefix=prefix)
    finally:
        folder.chmod(0o755)
    assert_refused(status, stderr, database, *words)
    assert exists == database.exists()


@pytest.mark.subprocess
def test_debug_shows_the_traceback_and_the_line(folder: Path) -> None:
    database = folder / "tabula.sqlite3"
    database.write_bytes(b"garbage" * 200)
    status, stderr = run_bot(database, cwd=folder, TABULA_LOG_LEVEL="DEBUG")
    assert status == 1
    assert "Traceback (most recent call last)" in stderr and "DatabaseUnavailable" in stderr
    last = stderr.strip().splitlines()[-1]
    assert last.startswith("tabula: cannot use the database") and str(database) in last
    assert "TABULA_LOG_LEVEL=DEBUG" not in last  # it is already shown


def test_voice_warnings_are_filtered_and_nothing_else() -> None:
    voice = logging.LogRecord(
        "discord.client", logging.WARNING, "", 0, "PyNaCl is not installed, voice will NOT be supported", None, None
    )
    davey = logging.LogRecord(
        "discord.client", logging.WARNING, "", 0, "davey is not installed, voice will NOT be supported", None, None
    )
    other = logging.LogRecord(
        "discord.client", logging.WARNING, "", 0, "Shard ID %s has stopped responding", (None,), None
    )
    quiet = NoVoiceWarnings()
    assert not quiet.filter(voice) and not quiet.filter(davey) and quiet.filter(other)


@pytest.mark.subprocess
def test_a_start_prints_no_voice_warnings() -> None:
    """Build the client as ``python -m bot`` does; without the filter discord.py warns (unless voice is installed)."""
    code = (
        "import sys; from bot.__main__ import configure_logging; "
        "from bot.client import TabulaBot; from bot.settings import Settings\n"
        "if sys.argv[1] == 'quiet': configure_logging('INFO')\n"
        "else: import logging; logging.basicConfig(level='INFO')\n"
        "TabulaBot(Settings())"
    )

    def start(mode: str) -> str:
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
        result = subprocess.run([sys.executable, "-c", code, mode], capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode == 0, result.stderr
        return result.stderr

    loud = start("loud")
    if "voice will NOT be supported" not in loud:
        pytest.skip("the voice libraries are installed here, so discord.py has nothing to warn about")
    assert start("quiet") == ""


async def test_ready_says_servers_and_database(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    bot = TabulaBot(Settings(database="games/tabula.sqlite3", render_processes=0, ai_processes=0))
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await bot.on_ready()
    ready = [record for record in caplog.records if record.name == "bot.client"]
    assert len(ready) == 1 and ready[0].levelno == logging.INFO
    text = ready[0].getMessage()
    assert "ready" in text and "0 servers" in text and os.path.abspath("games/tabula.sqlite3") in text


def test_help_lists_every_tool_python_m_bot_runs(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.__main__ import TOOLS, main

    with pytest.raises(SystemExit) as stopped:
        main(["--help"])
    said = capsys.readouterr().out
    assert stopped.value.code == 0 and "--print-commands" in said and "DISCORD_TOKEN" in said
    assert set(TOOLS) == {"backup", "migrate", "worker", "catalogs"}
    for name, ((usage, _what), _run) in TOOLS.items():
        assert f"python -m bot {usage}" in said, name
        with pytest.raises(SystemExit):
            main([name, "--help"])
        assert f"python -m bot {name}" in capsys.readouterr().out
