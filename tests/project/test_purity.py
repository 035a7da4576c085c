"""Engines, the AI, the text layer and renderers import nothing they should not; engines use no global random."""

from __future__ import annotations

import ast
import pathlib

import pytest

from tests import ROOT

# Pure, seeded, no clock: what neither the rules nor the computer's search may import.
PURE = {
    "discord",
    "PIL",
    "random",
    "aiosqlite",
    "sqlite3",
    "asyncio",
    "time",
    "datetime",
    "os",
    "socket",
    "requests",
    "aiohttp",
    "threading",
    "subprocess",
    "bot",
    "render",
}
FORBIDDEN = {
    # engines report data; the text layer reads them, never the reverse
    "engines": PURE | {"i18n"},
    # The computer's search keeps the engines' rules: pure, seeded, clock injected by the caller.
    "ai": PURE,
    "render": {"discord", "aiosqlite", "sqlite3", "asyncio", "random", "socket", "requests", "aiohttp", "bot"},
    # The text layer: render's rules, and it draws nothing (render uses it, never the reverse).
    "i18n": {
        "discord",
        "aiosqlite",
        "sqlite3",
        "asyncio",
        "random",
        "socket",
        "requests",
        "aiohttp",
        "bot",
        "render",
        "PIL",
    },
}


def imported_modules(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_nothing_impure(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    for path in files:
        if path.name == "__main__.py":
            continue  # the command-line tools may read files and arguments
        bad = imported_modules(path) & FORBIDDEN[package]
        assert not bad, f"{path.relative_to(ROOT)} imports {sorted(bad)}"


def test_engine_randomness_is_reproducible() -> None:
    from engines.rng import Rng

    first, second = Rng(2026), Rng(2026)
    assert [first.below(100) for _ in range(50)] == [second.below(100) for _ in range(50)]
    # Fixed values: a saved game must replay identically on every Python version.
    assert Rng(7).shuffled(range(6)) == [1, 5, 0, 2, 4, 3]
    assert Rng(7).between(1, 6) == 4
    third = Rng(2026)
    assert [third.below(100) for _ in range(8)] == [51, 1, 34, 86, 41, 19, 6, 97]
    assert Rng(0).bits() == 0xE220A8397B1DCDAF
