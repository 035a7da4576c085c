"""The schema's numbered migrations, as shipped with the bot for each database."""

from __future__ import annotations

from importlib import resources

from bot.storage.database import POSTGRESQL, SQLITE


def migrations(dialect: str = SQLITE) -> list[tuple[int, str]]:
    """Return the numbered migration scripts shipped with the bot for ``dialect``, in order."""
    folder = resources.files("bot.storage") / "migrations"
    if dialect == POSTGRESQL:
        folder = folder / "postgresql"
    found = []
    for entry in folder.iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:3].isdigit():
            found.append((int(name[:3]), entry.read_text(encoding="utf-8")))
    return sorted(found)
