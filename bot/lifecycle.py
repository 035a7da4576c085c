"""Stopping like a service: SIGTERM and SIGINT end the bot gracefully, after the work in flight.

When a stop signal arrives (``systemctl stop``, ``docker stop``, a supervisor, Ctrl-C), the bot
(:meth:`bot.client.TabulaBot.close`):

1. stops taking new work: an interaction arriving now is answered "Tabula is restarting; try again in
   a moment" (only its sender sees it), and the sweeper ends after the kind of work it is doing;
2. lets the commands and buttons in flight, and the computer moves being played, finish — for up to
   :data:`DRAIN_SECONDS`; what is cut short was saved with its announcement or not at all;
3. stops retrying posts (anything undelivered stays in the outbox, posted at the next start), stops its
   worker processes, closes the connection to Discord and the database (releasing ``<db>.lock``);
4. logs one line saying what it did, and the process exits with status 0.

:class:`Drain` follows the interactions in flight: every task discord.py starts for an interaction is
noted (and timed, for the metrics) when the gateway hands it over.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

import discord

from bot.logs import log_context
from i18n.catalog import gettext, locale_for

log = logging.getLogger(__name__)

DRAIN_SECONDS = 10.0  # how long a stopping bot lets the work in flight finish
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE = 2, 3, 4

# Observes one interaction's handling: (what it was, its game if it was a game's command, seconds taken).
Timing = Callable[[str, str | None, float], None]


def restarting_text(language: str) -> str:
    """What a player who acts while Tabula stops is told."""
    return gettext(language, "🔄 Tabula is restarting; try again in a moment.")


def describe(data: dict[str, Any]) -> tuple[str, str | None]:
    """What an interaction is, for the metrics: ``("command", game)``, ``("button", None)``, …

    ``game`` is the command's name when it is a game's group (``/pond move``), else None; the caller
    checks it against the games it knows.
    """
    kind = data.get("type")
    if kind == APPLICATION_COMMAND:
        return "command", str((data.get("data") or {}).get("name") or "") or None
    if kind == COMPONENT:
        return "button", None
    if kind == AUTOCOMPLETE:
        return "autocomplete", None
    return "other", None


@contextlib.contextmanager
def _created_tasks() -> Iterator[list[asyncio.Task[Any]]]:
    """Collect the tasks the loop creates inside the ``with`` block (by a task factory installed for its span).

    Comparing ``asyncio.all_tasks()`` before and after cost a walk over every task alive, twice per
    interaction: with a thousand matches playing, a tenth of the bot's time.
    """
    created: list[asyncio.Task[Any]] = []
    loop = asyncio.get_running_loop()
    previous = loop.get_task_factory()

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **options: Any) -> asyncio.Task[Any]:
        made = previous(loop, coro, **options) if previous is not None else asyncio.Task(coro, loop=loop, **options)
        created.append(made)  # type: ignore[arg-type]
        return made  # type: ignore[return-value]

    loop.set_task_factory(factory)
    try:
        yield created
    finally:
        loop.set_task_factory(previous)


class Drain:
    """The interactions in flight, and the polite refusal of new ones once the bot is stopping."""

    def __init__(self, timing: Timing | None = None) -> None:
        self.stopping = False
        self.refused = 0
        self.timing = timing
        self._tasks: set[asyncio.Task[Any]] = set()

    def watch(self, state: Any) -> None:
        """Follow every interaction discord.py's ``state`` receives from the gateway."""
        original = state.parse_interaction_create

        def parse_interaction_create(data: dict[str, Any]) -> None:
            if self.stopping:
                self._refuse(state, data)
                return
            started = time.perf_counter()
            guild = data.get("guild_id")
            with log_context(guild_id=int(guild) if guild else None), _created_tasks() as created:
                original(data)  # starts the tasks that run the command or button (they copy the log context)
            what, game = describe(data)
            for task in created:
                self._follow(task, what, game, started)

        state.parse_interaction_create = parse_interaction_create
        state.parsers["INTERACTION_CREATE"] = parse_interaction_create

    def _follow(self, task: asyncio.Task[Any], what: str, game: str | None, started: float) -> None:
        self._tasks.add(task)

        def done(finished: asyncio.Task[Any]) -> None:
            self._tasks.discard(finished)
            if self.timing is not None:
                self.timing(what, game, time.perf_counter() - started)

        task.add_done_callback(done)

    @property
    def in_flight(self) -> int:
        return len(self._tasks)

    def _refuse(self, state: Any, data: dict[str, Any]) -> None:
        """Answer an interaction that arrived while stopping, if Discord still lets us."""
        self.refused += 1
        interaction = discord.Interaction(data=data, state=state)  # type: ignore[arg-type]

        async def answer() -> None:
            with contextlib.suppress(Exception):
                if data.get("type") == AUTOCOMPLETE:
                    await interaction.response.autocomplete([])
                else:
                    text = restarting_text(locale_for(interaction.locale))
                    await interaction.response.send_message(text, ephemeral=True)

        task = asyncio.get_running_loop().create_task(answer(), name="tabula-restarting")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def wait(self, timeout: float, *others: asyncio.Task[Any]) -> tuple[int, int]:
        """Wait up to ``timeout`` for the interactions in flight (and ``others``); cancel what is left.

        Return how many finished and how many were cut short.
        """
        waiting = {task for task in (*self._tasks, *others) if not task.done()}
        if not waiting:
            return 0, 0
        done, left = await asyncio.wait(waiting, timeout=timeout)
        for task in left:
            task.cancel()
        if left:
            await asyncio.wait(left, timeout=1.0)
        return len(done), len(left)


def on_stop_signals(stop: Callable[[str], None]) -> Callable[[], None]:
    """Call ``stop(name)`` on SIGTERM or SIGINT (in the running event loop); return what undoes it."""
    loop = asyncio.get_running_loop()
    installed = []
    for number in STOP_SIGNALS:
        try:
            loop.add_signal_handler(number, stop, signal.Signals(number).name)
        except (NotImplementedError, RuntimeError):  # pragma: no cover - not on this platform or thread
            continue
        installed.append(number)

    def undo() -> None:
        for number in installed:
            loop.remove_signal_handler(number)

    return undo
