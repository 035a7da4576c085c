"""The repository stands alone: the README and docs/ describe every game, option and command it has."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.client import TabulaBot
from bot.settings import Settings
from bot.text.messages import GAME_PERMISSIONS, THREAD_PERMISSIONS, invite_permissions
from engines import GAMES
from render.__main__ import main as render_main
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


def test_the_readme_points_into_the_repository_and_the_players_page_lists_every_command() -> None:
    assert "shared/rules" not in README and "as they land" not in README
    for link in re.findall(r"\]\(([^)#]+)\)", README):
        assert link.startswith("https://") or (ROOT / link).exists(), link
    players = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    for command in TabulaBot(Settings()).command_payload():
        assert f"/{command['name']}" in players, command["name"]


def test_the_readmes_first_screen_says_what_tabula_is_and_where_each_reader_goes() -> None:
    first_screen = "\n".join(README.splitlines()[:25])
    assert "board games for Discord" in first_screen and "self-hosted" in first_screen
    for page in ("docs/admins.md", "docs/operators.md", "docs/players.md", "CONTRIBUTING.md"):
        assert f"]({page})" in first_screen, page
    assert "/pond start opponent:" in first_screen and "/pond start @" not in README


def test_the_invite_link_asks_for_exactly_the_permissions_the_code_checks() -> None:
    admins = (ROOT / "docs" / "admins.md").read_text(encoding="utf-8")
    with_threads, without = invite_permissions(), invite_permissions(threads=False)
    assert with_threads == 309237763072 and without == 117760  # the seven permissions, then the first five
    for text in (admins, README):
        assert re.findall(r"permissions=(\d+)", text)[0] == str(with_threads)
    assert f"permissions={without}" in admins
    for _flag, label in GAME_PERMISSIONS + THREAD_PERMISSIONS:
        assert f"**{label}**" in admins, label


def test_every_setting_the_systemd_units_use_is_documented_and_read() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    source = (ROOT / "bot" / "settings.py").read_text(encoding="utf-8")
    units = sorted((ROOT / "docs" / "deploy").glob("tabula*"))
    assert {unit.name for unit in units} >= {"tabula.service", "tabula@.service", "tabula-backup.service"}
    for unit in units:
        for name in set(re.findall(r"\b((?:DISCORD|TABULA)_[A-Z_]+)", unit.read_text(encoding="utf-8"))):
            assert f"\n{name}=" in example and f'"{name}"' in source, (unit.name, name)
        if unit.suffix == ".service":
            assert "EnvironmentFile=/etc/tabula/tabula.env" in unit.read_text(encoding="utf-8"), unit.name


def test_ci_runs_the_readmes_test_command_in_a_new_environment() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for guide in ((ROOT / "README.md").read_text(encoding="utf-8"), (ROOT / "CONTRIBUTING.md").read_text("utf-8")):
        commands = re.findall(r"^python3 -m pip install -e '\.\[test\]' && (.+?)\s+#", guide, re.MULTILINE)
        assert commands == ["python3 -m pytest -q"]
        assert re.search(r"^python3 -m pip install -e \. && python3 -m bot\s+#", guide, re.MULTILINE)
    assert f"\n{commands[0]}\n" in script
    assert "mktemp -d" in script and "python3 -m venv" in script
    for check in ("ruff check .", "ruff format --check .", "\nmypy\n"):
        assert check in script, check


PICTURE = re.compile(r"^python -m render .*--out (docs/pictures/\w+\.png).*$", re.MULTILINE)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_players_picture_of_each_game_is_what_the_renderer_draws(game: str, tmp_path: Path) -> None:
    players = (ROOT / "docs" / "players.md").read_text(encoding="utf-8")
    lines = {match[1]: match[0] for match in PICTURE.finditer(players)}
    picture = f"docs/pictures/{game}.png"
    assert picture in lines and f"](pictures/{game}.png)" in players, picture
    drawn = tmp_path / "drawn.png"
    arguments = shlex.split(lines[picture])[3:]
    arguments[arguments.index("--out") + 1] = str(drawn)
    assert render_main(arguments) == 0
    committed = Image.open(ROOT / picture).convert("RGB")
    again = Image.open(drawn).convert("RGB")
    assert committed.size == again.size, "the picture changed size: run its command in docs/players.md again"
    changed = ImageChops.difference(committed, again).convert("L").point(lambda value: 255 if value > 48 else 0)
    differing = changed.histogram()[255]
    # The same pixels, give or take a font renderer's antialiasing on another machine.
    assert differing <= committed.width * committed.height // 200, "run the picture's command in docs/players.md"


def start_options(game: str) -> set[str]:
    """The options of ``/<game> start`` that are the engine's own (not opponents, difficulty or computers)."""
    for command in TabulaBot(Settings()).command_payload():
        if command["name"] == game:
            start = next(o for o in command["options"] if o["name"] == "start")
            return {o["name"] for o in start["options"]} & {option.name for option in GAMES[game].options}
    raise AssertionError(game)


@pytest.mark.parametrize("language", ["", "ru/", "fr/"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_rules_page_says_which_options_players_choose_and_which_are_the_engines(game: str, language: str) -> None:
    text = (ROOT / "docs" / f"{language}{game}.md").read_text(encoding="utf-8")
    section = next(part for part in text.split("\n## ") if "python -m engines -o key=value" in part)
    rows = dict(re.findall(r"^\| `(\w+)` \| (.+?) \|", section, re.MULTILINE))
    assert set(rows) == {option.name for option in GAMES[game].options}
    chosen = {name for name, who in rows.items() if f"`/{game} start {name}:`" in who}
    assert chosen == start_options(game) and chosen
