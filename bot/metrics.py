"""What an operator watches: Prometheus metrics at ``/metrics`` and a health check at ``/healthz``.

Served only when ``TABULA_METRICS_PORT`` is set, on ``TABULA_METRICS_HOST`` (127.0.0.1 by default: put
a reverse proxy or the Prometheus agent on the same machine, or set ``0.0.0.0`` deliberately), by a
small aiohttp server in the bot's event loop.  The text format is ``prometheus-client``'s.

``/metrics``:

* ``tabula_moves_total{game}`` — moves applied (forfeits and claims not counted);
* ``tabula_turn_seconds{game}`` — the turn path: a game's command, from its arrival to the end of its
  handling (the board posted);  ``tabula_interaction_seconds{kind}`` — every interaction so handled;
* ``tabula_announcements{status}`` — the outbox: ``pending`` and ``failed`` announcements;
* ``tabula_discord_errors_total{status,route}`` — Discord HTTP errors the bot saw (after discord.py's
  own retries), by status (``0``: a timeout) and kind of route (``message``, ``interaction``, ``thread``,
  ``command``, ``other``);
* ``tabula_worker_queue{pool}`` — calls waiting for or running in the ``render`` and ``computer`` workers;
  ``tabula_computer_think_seconds{level}`` — the computer's thinking time per move;
* ``tabula_matches{status}`` — open matches (``challenge``, ``active``) on this process's shards;
* ``tabula_gateway_latency_seconds{shard}``, ``tabula_shards`` and ``tabula_connected``.

``/healthz``: ``200 ok`` when the bot is connected to Discord and its database answers within
:data:`HEALTH_TIMEOUT`; ``503`` with the reason otherwise.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import discord
from aiohttp import web
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

log = logging.getLogger(__name__)

HEALTH_TIMEOUT = 2.0  # seconds the database has to answer the health check
LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)


def route_kind(path: str) -> str:
    """The kind of Discord route a request went to, for the error counts.

    >>> route_kind("/channels/{channel_id}/messages"), route_kind("/webhooks/{webhook_id}/{webhook_token}")
    ('message', 'interaction')
    """
    if "/interactions/" in path or path.startswith("/webhooks/"):
        return "interaction"
    if "thread" in path:
        return "thread"
    if "/messages" in path:
        return "message"
    if "/commands" in path:
        return "command"
    return "other"


class Metrics:
    """The bot's metrics, in a registry of their own (several bots may share a test process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter("tabula_moves", "Moves applied, by game.", ["game"], registry=r)
        self.turns = Histogram(
            "tabula_turn_seconds",
            "A game's command from its arrival to the end of its handling (the board posted).",
            ["game"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.interactions = Histogram(
            "tabula_interaction_seconds",
            "Every interaction from its arrival to the end of its handling, by kind.",
            ["kind"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.announcements = Gauge(
            "tabula_announcements", "Announcements in the outbox, by status (pending, failed).", ["status"], registry=r
        )
        self.discord_errors = Counter(
            "tabula_discord_errors",
            "Discord HTTP errors, by status (0: a timeout) and kind of route.",
            ["status", "route"],
            registry=r,
        )
        self.worker_queue = Gauge(
            "tabula_worker_queue", "Calls waiting for or running in a worker pool.", ["pool"], registry=r
        )
        self.think = Histogram(
            "tabula_computer_think_seconds",
            "The computer's thinking time per move, by level.",
            ["level"],
            buckets=THINK_BUCKETS,
            registry=r,
        )
        self.matches = Gauge(
            "tabula_matches", "Open matches on this process's shards, by status.", ["status"], registry=r
        )
        self.gateway_latency = Gauge(
            "tabula_gateway_latency_seconds", "The gateway's heartbeat latency, by shard.", ["shard"], registry=r
        )
        self.shards = Gauge("tabula_shards", "Discord shards this process runs.", registry=r)
        self.connected = Gauge("tabula_connected", "1 when connected to Discord, else 0.", registry=r)

    # -- observations, called by the parts -----------------------------------------------

    def moved(self, game: str) -> None:
        self.moves.labels(game).inc()

    def handled(self, kind: str, game: str | None, seconds: float) -> None:
        self.interactions.labels(kind).observe(seconds)
        if game is not None:
            self.turns.labels(game).observe(seconds)

    def thought(self, level: str, seconds: float) -> None:
        self.think.labels(level).observe(seconds)

    def discord_error(self, status: int, path: str) -> None:
        self.discord_errors.labels(str(status), route_kind(path)).inc()

    def watch_http(self, http: HTTPClient) -> None:
        """Count the errors of this client's REST requests and of interaction responses (webhooks)."""
        count = self.discord_error

        async def request(route: Any, **kwargs: Any) -> Any:
            try:
                return await HTTPClient.request(http, route, **kwargs)  # the class's, looked up now
            except discord.HTTPException as error:
                count(error.status, getattr(route, "path", ""))
                raise
            except TimeoutError:
                count(0, getattr(route, "path", ""))
                raise

        http.request = request  # type: ignore[method-assign]
        _WEBHOOK_LISTENERS.append(count)
        _watch_webhooks()

    def unwatch(self) -> None:
        if self.discord_error in _WEBHOOK_LISTENERS:
            _WEBHOOK_LISTENERS.remove(self.discord_error)


# Interaction responses and follow-ups go through discord.py's one webhook adapter of the process.
_WEBHOOK_LISTENERS: list[Callable[[int, str], None]] = []


def _watch_webhooks() -> None:
    adapter = async_context.get()
    if getattr(adapter, "_tabula_watched", False):
        return

    async def request(route: Any, session: Any, **kwargs: Any) -> Any:
        try:
            return await AsyncWebhookAdapter.request(adapter, route, session, **kwargs)
        except discord.HTTPException as error:
            for listener in list(_WEBHOOK_LISTENERS):
                listener(error.status, getattr(route, "path", "/webhooks/"))
            raise

    adapter.request = request  # type: ignore[method-assign]
    adapter._tabula_watched = True  # type: ignore[attr-defined]


class Probe:
    """What the endpoints read from the running bot, handed in by the client."""

    def __init__(
        self,
        *,
        connected: Callable[[], bool],
        latencies: Callable[[], Iterable[tuple[int, float]]],
        shards: Callable[[], int],
        queues: Callable[[], dict[str, int]],
        counts: Callable[[], Awaitable[dict[str, dict[str, int]]]],
        ping: Callable[[], Awaitable[object]],
    ) -> None:
        self.connected = connected
        self.latencies = latencies
        self.shards = shards
        self.queues = queues
        self.counts = counts
        self.ping = ping


class MetricsServer:
    """``/metrics`` and ``/healthz`` on ``host:port`` (port 0: any free port, see :attr:`port`)."""

    def __init__(self, metrics: Metrics, probe: Probe, host: str, port: int) -> None:
        self.metrics = metrics
        self.probe = probe
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self.serve_metrics)
        app.router.add_get("/healthz", self.serve_health)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or []
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        log.info("metrics at http://%s:%d/metrics, health at /healthz", self.host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def refresh(self) -> None:
        """Read the gauges that come from the database and the running bot."""
        m, probe = self.metrics, self.probe
        m.connected.set(1 if probe.connected() else 0)
        m.shards.set(probe.shards())
        for shard, latency in probe.latencies():
            if math.isfinite(latency):
                m.gateway_latency.labels(str(shard)).set(latency)
        for pool, waiting in probe.queues().items():
            m.worker_queue.labels(pool).set(waiting)
        try:
            counts = await asyncio.wait_for(probe.counts(), HEALTH_TIMEOUT)
        except Exception as error:  # the database is away: the other metrics still answer
            log.warning("metrics: the database did not answer (%s)", error)
            return
        for status, count in counts.get("announcements", {}).items():
            m.announcements.labels(status).set(count)
        for status, count in counts.get("matches", {}).items():
            m.matches.labels(status).set(count)

    async def serve_metrics(self, request: web.Request) -> web.Response:
        await self.refresh()
        body = generate_latest(self.metrics.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def serve_health(self, request: web.Request) -> web.Response:
        problem = await self.health()
        if problem is None:
            return web.Response(text="ok\n")
        return web.Response(status=503, text=f"{problem}\n")

    async def health(self) -> str | None:
        """None when healthy, else the reason."""
        if not self.probe.connected():
            return "not connected to Discord"
        try:
            await asyncio.wait_for(self.probe.ping(), HEALTH_TIMEOUT)
        except Exception as error:
            return f"the database does not answer ({type(error).__name__})"
        return None
