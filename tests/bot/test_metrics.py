"""Metrics, health, settings and machine-readable logs.

A running bot is scraped over HTTP on a free port: ``/metrics`` shows the moves that were made and
``/healthz`` answers 200 while the bot is connected and its database answers, 503 otherwise.
"""

from __future__ import annotations

import json
import logging
import sys

import aiohttp
import discord
import pytest

from bot.logs import JsonFormatter, configure_logging, log_context
from bot.metrics import route_kind
from bot.settings import Settings, SettingsError
from tests.bot_world import World
from tests.harness import GUILD_ID, SERVER_ERROR


async def play(world: World, channel: int, moves: int) -> None:
    """Play ``moves`` moves of a Pond match in ``channel`` through the commands."""
    people = await world.start_pond(channel)
    for _ in range(moves):
        _, state = await world.bot.service.running(channel)
        person = people[state.to_move or 0]
        parts = state.move_text(state.legal_moves()[0]).split()
        if parts[0] == "place":
            await world.command(person, channel, "pond", "place", cell=parts[1])
        else:
            await world.command(person, channel, "pond", "move", from_=parts[1], to=parts[2])


async def scrape(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, await response.text()


def sample(text: str, name: str, **labels: str) -> float | None:
    """The value of one sample in the Prometheus text format."""
    wanted = ",".join(f'{key}="{value}"' for key, value in labels.items())
    for line in text.splitlines():
        if line.startswith(f"{name}{{{wanted}}} ") or (not labels and line.startswith(f"{name} ")):
            return float(line.rsplit(" ", 1)[1])
    return None


@pytest.fixture
def metered(world: World) -> World:
    """The world's bot with ``TABULA_METRICS_PORT=0`` (any free port) and marked connected, as after READY."""
    world.bot.settings = Settings(database=world.database, metrics_port=0, render_processes=0, ai_processes=0)
    world.bot._ready.set()
    return world


async def test_metrics_show_the_moves_made_and_the_turn_path(metered: World) -> None:
    server = await metered.bot.start_metrics()
    assert server is not None and server.host == "127.0.0.1" and server.port > 0
    try:
        await play(metered, 2951, 4)
        status, text = await scrape(server.port, "/metrics")
        assert status == 200
        assert sample(text, "tabula_moves_total", game="pond") == 4
        assert sample(text, "tabula_turn_seconds_count", game="pond") >= 4  # type: ignore[operator]
        assert sample(text, "tabula_matches", status="active") == 1
        assert sample(text, "tabula_announcements", status="pending") == 0
        assert sample(text, "tabula_announcements", status="failed") == 0
        assert sample(text, "tabula_worker_queue", pool="render") == 0
        assert sample(text, "tabula_connected") == 1 and sample(text, "tabula_shards") == 1
    finally:
        await metered.bot.stop_metrics()


async def test_discord_errors_are_counted_by_status_and_route(metered: World) -> None:
    server = await metered.bot.start_metrics()
    assert server is not None
    try:
        await metered.start_pond(2952)
        metered.recorder.fail("message", SERVER_ERROR)
        channel = metered.bot.get_partial_messageable(2952, guild_id=GUILD_ID)
        with pytest.raises(discord.DiscordServerError):
            await channel.send("hello")
        _, text = await scrape(server.port, "/metrics")
        assert sample(text, "tabula_discord_errors_total", route="message", status="500") == 1
    finally:
        await metered.bot.stop_metrics()


async def test_health_is_200_when_connected_with_a_database_and_503_otherwise(metered: World) -> None:
    server = await metered.bot.start_metrics()
    assert server is not None
    try:
        assert await scrape(server.port, "/healthz") == (200, "ok\n")
        metered.bot._ready.clear()  # the gateway went away
        status, text = await scrape(server.port, "/healthz")
        assert status == 503 and "not connected" in text
        metered.bot._ready.set()
        await metered.bot.store.database.close()  # the database went away
        status, text = await scrape(server.port, "/healthz")
        assert status == 503 and "database" in text
        status, text = await scrape(server.port, "/metrics")  # the other metrics still answer
        assert status == 200 and sample(text, "tabula_connected") == 1
    finally:
        await metered.bot.stop_metrics()


async def test_no_port_is_opened_without_the_setting(world: World) -> None:
    assert world.bot.settings.metrics_port is None
    assert await world.bot.start_metrics() is None


def test_the_settings_read_the_metrics_port_host_and_log_format() -> None:
    plain = Settings.load({}, env_file=None)
    assert (plain.metrics_port, plain.metrics_host, plain.log_format) == (None, "127.0.0.1", "text")
    chosen = Settings.load(
        {"TABULA_METRICS_PORT": "9105", "TABULA_METRICS_HOST": "0.0.0.0", "TABULA_LOG_FORMAT": "JSON"}, env_file=None
    )
    assert (chosen.metrics_port, chosen.metrics_host, chosen.log_format) == (9105, "0.0.0.0", "json")
    for name, value in (("TABULA_METRICS_PORT", "web"), ("TABULA_METRICS_PORT", "70000"), ("TABULA_LOG_FORMAT", "xml")):
        with pytest.raises(SettingsError, match=name):
            Settings.load({name: value}, env_file=None)


def test_route_kinds() -> None:
    assert route_kind("/channels/{channel_id}/messages") == "message"
    assert route_kind("/channels/{channel_id}/messages/{message_id}/threads") == "thread"
    assert route_kind("/interactions/{interaction_id}/{interaction_token}/callback") == "interaction"
    assert route_kind("/applications/{application_id}/commands") == "command"


def test_json_logs_are_one_object_per_line_with_the_ids_known() -> None:
    formatter = JsonFormatter()
    record = logging.LogRecord("bot.delivery", logging.WARNING, __file__, 1, "posting %s failed", (7,), None)
    with log_context(match_id=42, guild_id=GUILD_ID):
        line = formatter.format(record)
    entry = json.loads(line)
    assert "\n" not in line
    assert entry["level"] == "WARNING" and entry["logger"] == "bot.delivery"
    assert entry["message"] == "posting 7 failed" and entry["match_id"] == 42 and entry["guild_id"] == GUILD_ID
    assert entry["time"].endswith("+00:00")
    try:
        raise ValueError("boom")
    except ValueError:
        failed = logging.LogRecord("bot", logging.ERROR, __file__, 1, "it broke", (), sys.exc_info())
    broken = json.loads(formatter.format(failed))
    assert "ValueError: boom" in broken["error"] and "match_id" not in broken


def test_text_logs_stay_the_default(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    saved = root.handlers[:]
    root.handlers = []
    try:
        configure_logging("INFO")
        logging.getLogger("bot.test").info("hello %s", "there")
    finally:
        root.handlers = saved
    assert " INFO bot.test: hello there" in capsys.readouterr().err


async def test_json_lines_name_the_match_and_server_a_delivery_is_about(world: World) -> None:
    lines: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(self.format(record))

    handler = Collect()
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("bot.delivery.announcer")
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        people = await world.start_pond(2953)
        world.recorder.fail("followup", SERVER_ERROR)
        world.recorder.fail("message", SERVER_ERROR)
        record, state = await world.bot.service.running(2953)
        cell = state.move_text(state.legal_moves()[0]).split()[1]
        await world.command(people[state.to_move or 0], 2953, "pond", "place", cell=cell)
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    entries = [json.loads(line) for line in lines]
    assert entries, "nothing was logged"
    assert all(entry["match_id"] == record.id and entry["guild_id"] == GUILD_ID for entry in entries)
