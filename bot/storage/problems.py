"""Why the database cannot be used, said in one line: which file or server, which setting, what to do.

Every refusal to open the database is a :class:`DatabaseUnavailable` whose message an operator reads in the log
or on the command line (with a server URL's password left out).
"""

from __future__ import annotations

import os
import sqlite3

from bot.storage.database import StorageError, redact


class DatabaseUnavailable(StorageError):
    """The database cannot be used at all; the message names the file, the setting and what to do."""


SETTING = "TABULA_DATABASE"


def unusable(path: str, problem: str, advice: str = "") -> str:
    """The one-line refusal: which file, which setting, what is wrong and what to do."""
    where = os.path.abspath(path)
    todo = advice or f"fix it, or set {SETTING} to a file the bot can use"
    return f"cannot use the database {where} ({SETTING}): {problem}; {todo}."


def path_problem(path: str) -> tuple[str, str] | None:
    """Say why ``path`` cannot hold a database and what to do, judged before touching it, or ``None``."""
    if path == ":memory:" or path.startswith("file:"):
        return None
    folder = os.path.dirname(os.path.abspath(path))
    access = f"give the bot's user read and write access to it and its folder, or set {SETTING} elsewhere"
    if os.path.isdir(path):
        inside = os.path.join(os.path.abspath(path), "tabula.sqlite3")
        return "it is a folder, not a file", f"set {SETTING} to a file such as {inside}"
    if not os.path.isdir(folder):
        return f"the folder {folder} does not exist", f"create it, or set {SETTING} to a file in an existing folder"
    if os.path.exists(path) and not os.access(path, os.R_OK | os.W_OK):
        return "permission denied: the bot's user cannot read and write the file", access
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"permission denied: the bot's user cannot create files in {folder}", access
    return None


def explain(path: str, error: sqlite3.Error) -> str:
    """Turn SQLite's refusal to open ``path`` into the one-line message."""
    text = str(error)
    if "not a database" in text or "malformed" in text:
        return unusable(
            path,
            "the file is damaged or is not a Tabula database",
            f"restore it from a backup, or set {SETTING} to another file",
        )
    if "readonly" in text or "permission" in text or "unable to open" in text:
        access = f"give the bot's user read and write access to it and its folder, or set {SETTING} elsewhere"
        return unusable(path, f"permission denied ({text})", access)
    return unusable(path, text)


def postgres_problem(url: str, error: BaseException) -> str:
    """The one-line refusal for a PostgreSQL server the bot cannot use (without the URL's password)."""

    text = str(error).strip() or type(error).__name__
    if isinstance(error, OSError):
        problem = f"cannot reach the server ({text})"
        advice = f"start PostgreSQL or correct the host and port in {SETTING}"
    elif "password" in text or "authentication" in text or "role" in text:
        problem = f"the server refused the login ({text})"
        advice = f"correct the user and password in {SETTING}"
    elif "database" in text and "does not exist" in text:
        problem = f"no such database ({text})"
        advice = f"create it (createdb), or correct the database name in {SETTING}"
    else:
        problem = f"{type(error).__name__}: {text}"
        advice = f"fix it, or set {SETTING} to a database the bot can use"
    return f"cannot use the database {redact(url)} ({SETTING}): {problem}; {advice}."


def too_new(found: int, latest: int) -> tuple[str, str]:
    return (
        f"its schema is version {found}, newer than this release knows (up to {latest})",
        "run the newer Tabula that wrote it, or a backup made for this release",
    )
