"""Storage sits at the bottom of the bot: it imports no domain, delivery, command or client module.

The domain (``bot.core``) hands storage what it needs of it, such as the rating model
(:class:`bot.storage.rating_store.RatingModel`); the operations tools that need both live in ``bot.ops``.
"""

from __future__ import annotations

import ast
import sys

from tests import ROOT

STORAGE = ROOT / "bot" / "storage"
# What storage may import besides the standard library and itself: its driver, the pure engines, and the
# catalog's language codes (a leaf module that imports nothing of the bot).
ALLOWED = ("asyncpg", "engines", "i18n.catalog", "bot.settings", "bot.logs", "bot.metrics", "bot.storage")


def imported(source: str, package: str) -> set[str]:
    """Every module ``source`` imports, at any depth (relative imports resolved against ``package``)."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                found.add(f"{base}.{node.module}" if node.module else base)
            elif node.module is not None:
                found.add(node.module)
    return found


def upward(source: str, package: str) -> list[str]:
    """The imports of ``source`` that storage may not make."""
    return sorted(
        module
        for module in imported(source, package)
        if module != "__future__"
        and module.split(".", 1)[0] not in sys.stdlib_module_names
        and not any(module == name or module.startswith(name + ".") for name in ALLOWED)
    )


def test_storage_imports_nothing_above_it() -> None:
    files = sorted(STORAGE.rglob("*.py"))
    assert len(files) > 10
    found = {}
    for path in files:
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
        leaks = upward(path.read_text(encoding="utf-8"), package)
        if leaks:
            found[str(path.relative_to(ROOT))] = leaks
    assert found == {}


def test_the_check_finds_an_upward_import_however_it_is_written() -> None:
    source = (
        "from __future__ import annotations\n"
        "import sqlite3\n"
        "from typing import TYPE_CHECKING\n"
        "from bot.storage.records import MatchRecord\n"
        "from .database import Database\n"
        "from ..core import ratings\n"
        "if TYPE_CHECKING:\n"
        "    from bot.delivery.announcer import Announcer\n"
        "def late():\n"
        "    import bot.client\n"
    )
    assert upward(source, "bot.storage") == ["bot.client", "bot.core", "bot.delivery.announcer"]
