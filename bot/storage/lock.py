"""One bot process per SQLite file: an exclusive advisory lock on ``<file>.lock``, held while the bot runs.

The lock file holds the process ID of the bot holding it, so that a second bot's refusal can name it.
"""

from __future__ import annotations

import os
import sys

from bot.storage.problems import SETTING, DatabaseUnavailable, unusable

if sys.platform == "win32":  # pragma: no cover - no advisory locks there; one bot per file is up to the user

    def lock_file(path: str) -> int | None:
        return None

    def unlock_file(lock: int | None) -> None:
        return None

else:
    import fcntl

    def lock_file(path: str) -> int | None:
        """Hold an exclusive lock on ``<path>.lock`` so that only one bot uses the file."""
        if path == ":memory:" or path.startswith("file:"):
            return None
        lock_path = f"{path}.lock"
        try:
            fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            problem = f"cannot open its lock file {lock_path} ({error.strerror})"
            raise DatabaseUnavailable(unusable(path, problem)) from error
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            holder = os.read(fd, 32).decode("ascii", "replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise DatabaseUnavailable(
                unusable(
                    path,
                    f"another running Tabula{who} is using it, and a SQLite file serves one bot process",
                    f"stop that bot first, or give this one its own {SETTING}; to run several bot processes "
                    "(shards), share a PostgreSQL database instead (TABULA_DATABASE=postgresql://…)",
                )
            ) from error
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        return fd

    def unlock_file(lock: int | None) -> None:
        """Release the lock taken by :func:`lock_file` (closing the file releases it)."""
        if lock is not None:
            os.close(lock)
