"""The bot's command payload fits Discord's rules, and its command line behaves."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot import limits
from bot.client import TabulaBot, intents
from bot.settings import Settings, SettingsError
from tests import ROOT


def payload() -> list[dict]:
    return TabulaBot(Settings()).command_payload()


def walk(options: list[dict], depth: int = 0):
    for option in options:
        yield option, depth
        yield from walk(option.get("options", []), depth + 1)


def test_every_command_and_option_fits_discords_limits() -> None:
    """Discord's own limits (:mod:`bot.limits`), and the shape discord.py and Discord expect besides."""
    commands = payload()
    assert commands and limits.commands_problems(commands) == []
    for command in commands:
        for option, depth in walk(command.get("options", [])):
            assert depth <= 2
            names = [o["name"] for o in option.get("options", [])]
            assert len(names) == len(set(names))
            required_seen_optional = False
            for sub in option.get("options", []):
                if sub["type"] not in (1, 2):
                    if not sub.get("required"):
                        required_seen_optional = True
                    else:
                        assert not required_seen_optional, "required options must come first"


def test_pond_has_the_commands_players_expect() -> None:
    pond = next(c for c in payload() if c["name"] == "pond")
    subs = {o["name"]: o for o in pond["options"]}
    assert set(subs) >= {"start", "place", "move", "board", "resign", "rules", "claim", "cancel"}
    assert {o["name"] for o in subs["move"]["options"]} == {"from", "to"}
    assert all(o.get("autocomplete") for o in subs["move"]["options"])
    assert pond["dm_permission"] is False


def test_no_privileged_intents() -> None:
    wanted = intents()
    assert not wanted.members and not wanted.presences and not wanted.message_content
    assert wanted.guilds


@pytest.mark.subprocess
def test_the_command_hash_is_the_same_in_another_process_and_follows_the_commands(tmp_path: Path) -> None:
    bot = TabulaBot(Settings())
    digest = bot.command_hash()
    assert re.fullmatch(r"[0-9a-f]{64}", digest)
    # A restart is a new process with other string hashing: the hash must not depend on it.
    code = "from bot.client import TabulaBot as B; from bot.settings import Settings as S; print(B(S()).command_hash())"
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "12345"},
        cwd=tmp_path,
        timeout=60,
    )
    assert other.returncode == 0, other.stderr
    assert other.stdout.strip() == digest
    bot.tree.remove_command("pond")
    assert bot.command_hash() != digest


def run_bot(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **env},
        cwd=cwd,
        timeout=60,
    )


@pytest.mark.subprocess
def test_print_commands_needs_no_token(tmp_path: Path) -> None:
    result = run_bot("--print-commands", env={}, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed == json.loads(json.dumps(payload(), sort_keys=True))
    # The payload is the localised one the bot syncs: every command reads in Russian and French too.
    for command in printed:
        assert {"ru", "fr"} <= set(command["description_localizations"]), command["name"]
        for option, _ in walk(command.get("options", [])):
            assert {"ru", "fr"} <= set(option["description_localizations"]), option["name"]


def test_the_command_hash_follows_the_translations(monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.text import translator

    bot = TabulaBot(Settings())
    digest = bot.command_hash()
    monkeypatch.setattr(translator.catalog, "lookup", lambda language, message, context=None: f"[{message}]")
    assert TabulaBot(Settings()).command_hash() != digest


@pytest.mark.subprocess
def test_without_a_token_it_exits_with_one_line(tmp_path: Path) -> None:
    result = run_bot(env={}, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "DISCORD_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr


def test_settings_come_from_the_environment_over_dotenv(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nTABULA_TURN_HOURS=2\nTABULA_DATABASE=file.db\n")
    settings = Settings.load({"TABULA_DATABASE": "env.db"}, env_file)
    assert settings.token == "from-file" and settings.turn_hours == 2.0 and settings.database == "env.db"
    assert "from-file" not in repr(settings)
    with pytest.raises(SettingsError, match="TABULA_TURN_HOURS"):
        Settings.load({"TABULA_TURN_HOURS": "soon"}, None)
    with pytest.raises(SettingsError, match="TABULA_DEV_GUILD_ID"):
        Settings.load({"TABULA_DEV_GUILD_ID": "my server"}, None)
    assert Settings.load({}, None).dev_guild_id is None


def test_env_example_lists_every_setting() -> None:
    example = (ROOT / ".env.example").read_text()
    source = (ROOT / "bot" / "settings.py").read_text()
    for name in set(re.findall(r'"((?:DISCORD|TABULA)_[A-Z_]+)"', source)):
        assert f"{name}=" in example, name


def test_the_dataclass_defaults_are_the_defaults_load_gives() -> None:
    assert Settings() == Settings.load({}, None)
    assert Settings().render_processes == 2 and Settings().ai_processes == 1  # as .env.example says


@pytest.mark.parametrize("name", ["TABULA_RENDER_PROCESSES", "TABULA_AI_PROCESSES"])
@pytest.mark.parametrize("raw", ["1.7", "two", "2e0", "-1"])
def test_process_counts_must_be_whole_numbers(name: str, raw: str) -> None:
    with pytest.raises(SettingsError, match=f"^{name} must be (a whole number, not '{re.escape(raw)}'|at least 0)\\.$"):
        Settings.load({name: raw}, None)
    assert getattr(Settings.load({name: " 3 "}, None), name.removeprefix("TABULA_").lower()) == 3
