"""The bot's layers hold: the import contracts of ``[tool.importlinter]`` in pyproject.toml are kept.

The contracts are checked here as well as by ``lint-imports`` in CI, so the contributors' test command fails on
an import against the direction.  A checker that could not fail would prove nothing: the second test copies
the bot, adds the imports the contracts forbid, and expects each contract to break on exactly those lines.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import importlinter.api  # noqa: F401 (sets the checker up, as its command line does)
import pytest
from importlinter.application.use_cases import lint_imports

from tests import ROOT


def check(capsys: pytest.CaptureFixture[str]) -> tuple[bool, str]:
    """Check the contracts of pyproject.toml over the ``bot`` package found first on the path: kept?, and the report.

    The checker is called below its command line, which would configure logging for the whole process.
    """
    capsys.readouterr()
    kept = lint_imports(str(ROOT / "pyproject.toml"), cache_dir=None, no_logo=True)
    return kept, capsys.readouterr().out


def test_the_bots_layers_hold(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.syspath_prepend(str(ROOT))
    kept_all, report = check(capsys)
    assert kept_all, report
    kept = re.search(r"Contracts: (\d+) kept, 0 broken\.", report)
    assert kept is not None and int(kept[1]) >= 2, report  # the layers, and no discord.py below the text


def test_an_upward_import_breaks_the_contracts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(ROOT / "bot", tmp_path / "bot", ignore=shutil.ignore_patterns("__pycache__"))
    with (tmp_path / "bot" / "core" / "ladders.py").open("a") as module:
        module.write("\nimport bot.client\nimport discord\n")
    with (tmp_path / "bot" / "delivery" / "members.py").open("a") as module:
        module.write("\nfrom bot.commands import ui\n")
    # The copy is the bot the checker finds: it looks packages up by name, as imports do.
    for name in [name for name in sys.modules if name == "bot" or name.startswith("bot.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.syspath_prepend(str(tmp_path))
    kept_all, report = check(capsys)
    assert not kept_all
    assert re.search(r"Contracts: \d+ kept, 2 broken\.", report), report
    broken = report.split("Broken contracts", 1)[1]
    layers, discord_free = broken.split("The domain and storage import no discord.py", 1)
    assert "bot.core is not allowed to import bot.client" in layers and "bot.core.ladders -> bot.client" in layers
    assert "bot.delivery.members -> bot.commands.ui" in layers
    assert "bot.core is not allowed to import discord" in discord_free and "bot.core.ladders -> discord" in discord_free
