"""A throwaway PostgreSQL server for the tests and benchmarks, started from the binaries on this machine.

:func:`find_binaries` looks for ``initdb`` and ``postgres`` on ``PATH`` and in Debian's
``/usr/lib/postgresql/<version>/bin``.  :class:`Throwaway` creates a cluster in a temporary
folder (as an unprivileged user when running as root: PostgreSQL refuses to run as root),
starts it on a free localhost port with durability switched off (``fsync=off``: it is thrown
away anyway), and removes everything on :meth:`Throwaway.stop`.  Nothing here is used by the bot.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# The user the server runs as when we are root (nobody/nogroup on Debian).
UNPRIVILEGED = 65534


def find_binaries() -> Path | None:
    """The folder holding ``initdb`` and ``postgres``, newest Debian version first, or ``None``."""
    candidates = [Path(p).parent for p in (shutil.which("initdb"), shutil.which("postgres")) if p]
    candidates += [Path(p) for p in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)]
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "postgres").is_file():
            return folder
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Throwaway:
    """One PostgreSQL cluster in a temporary folder; :attr:`url` reaches its ``postgres`` database."""

    def __init__(self, binaries: Path) -> None:
        self.binaries = binaries
        self.folder = Path(tempfile.mkdtemp(prefix="tabula-pg-"))
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self._as_root = hasattr(os, "geteuid") and os.geteuid() == 0

    @property
    def url(self) -> str:
        return self.url_for("postgres")

    def url_for(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _command(self, *argv: str) -> list[str]:
        if not self._as_root:
            return list(argv)
        drop = ["setpriv", f"--reuid={UNPRIVILEGED}", f"--regid={UNPRIVILEGED}", "--clear-groups"]
        return [*drop, *argv]

    def start(self, timeout: float = 30.0) -> None:
        """Create the cluster and start the server; raise ``RuntimeError`` with its log if it will not start."""
        data = self.folder / "data"
        if self._as_root:
            os.chown(self.folder, UNPRIVILEGED, UNPRIVILEGED)
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        initdb = self._command(
            str(self.binaries / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"
        )
        done = subprocess.run(initdb, capture_output=True, env=env, cwd=self.folder, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.decode(errors='replace').strip()}")
        options = {
            "listen_addresses": "127.0.0.1",
            "port": str(self.port),
            "unix_socket_directories": str(self.folder),
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "max_connections": "200",
            "shared_buffers": "64MB",
        }
        argv = [str(self.binaries / "postgres"), "-D", str(data)]
        for name, value in options.items():
            argv += ["-c", f"{name}={value}"]
        log = open(self.folder / "server.log", "wb")  # noqa: SIM115 - the server writes to it until stopped
        self.process = subprocess.Popen(
            self._command(*argv), stdout=log, stderr=subprocess.STDOUT, env=env, cwd=self.folder
        )
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                if (self.folder / "data" / "postmaster.pid").is_file():
                    time.sleep(0.1)  # the port answers a moment before the server accepts logins
                    return
            time.sleep(0.05)
        text = (self.folder / "server.log").read_text(errors="replace")[-2000:]
        self.stop()
        raise RuntimeError(f"the throwaway PostgreSQL did not start: {text.strip()}")

    def stop(self) -> None:
        """Stop the server (fast shutdown) and delete its folder."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)  # PostgreSQL's "fast" shutdown: sessions are ended
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(10)
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        self.process = None
        shutil.rmtree(self.folder, ignore_errors=True)


def with_database(url: str, name: str) -> str:
    """``url`` pointing at database ``name`` instead.

    >>> with_database("postgresql://u:p@h:5/postgres?sslmode=disable", "t1")
    'postgresql://u:p@h:5/t1?sslmode=disable'
    """
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


async def create_database(server_url: str, name: str) -> str:
    """Create the empty database ``name`` (dropping any old one) on the server; return its URL."""
    import asyncpg

    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.execute(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'")
    finally:
        await admin.close()
    return with_database(server_url, name)


async def drop_database(server_url: str, name: str) -> None:
    import asyncpg

    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@contextlib.contextmanager
def throwaway_server() -> Iterator[str]:
    """A benchmark's throwaway PostgreSQL server: its URL, the server stopped on leaving (exits if there is none)."""
    binaries = find_binaries()
    if binaries is None:
        raise SystemExit("no PostgreSQL server binaries (initdb, postgres) found; give --database URL instead")
    server = Throwaway(binaries)
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
