"""The repository stands alone: the README and docs/ describe every game, option and command it has."""

from __future__ import annotations

import re

import pytest

from bot.client import TabulaBot
from bot.settings import Settings
from engines import GAMES
from tests import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_rules_page_naming_all_its_options(game: str) -> None:
    page = ROOT / "docs" / f"{game}.md"
    text = page.read_text(encoding="utf-8")
    assert text.startswith(f"# {GAMES[game].title}\n")
    for option in GAMES[game].options:
        assert f"`{option.name}" in text, f"{page.name} does not explain the option {option.name}"
    assert f"({game}.md)" in (ROOT / "docs" / "README.md").read_text(encoding="utf-8")


def test_the_readme_points_into_the_repository_and_lists_every_command_group() -> None:
    assert "shared/rules" not in README and "as they land" not in README
    for link in re.findall(r"\]\(([^)#]+)\)", README):
        assert (ROOT / link).exists(), link
    for command in TabulaBot(Settings()).command_payload():
        assert f"/{command['name']}" in README, command["name"]


def test_ci_runs_the_readmes_test_command_in_a_new_environment() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = re.findall(r"^python3 -m pip install -e '\.\[test\]' && (.+?)\s+#", README, re.MULTILINE)
    assert commands == ["python3 -m pytest -q"]
    assert f"\n{commands[0]}\n" in script
    assert "mktemp -d" in script and "python3 -m venv" in script
    for check in ("ruff check .", "ruff format --check .", "\nmypy\n"):
        assert check in script, check
