"""The Discord client: wires the command tree, the buttons, the match service and the sweeper."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import os
from collections.abc import Awaitable
from typing import Any

import discord
from discord import app_commands

from bot.computer import ComputerPlayers
from bot.games import build_groups
from bot.ladder import LadderPageButton, add_ladder_commands
from bot.rendering import BoardRenderer
from bot.service import MatchService, describe_error
from bot.settings import Settings
from bot.storage import MatchStore
from bot.ui import MatchUI
from bot.views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)


def settle_memory() -> None:
    """Keep garbage-collection pauses short once the bot has started.

    Everything loaded at start (modules, discord.py's caches, the command tree) lives for
    the whole run; freezing it takes it out of every later collection, and a larger
    first-generation threshold makes collections rarer.  Without this, full collections
    of a busy bot paused the event loop for up to ~100 ms in the load benchmark.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 50)


SOMETHING_WENT_WRONG = "Something went wrong on my side. Your game is safe; please try again in a moment."
SWEEP_SECONDS = 30.0


def intents() -> discord.Intents:
    """The gateway intents Tabula needs: servers and channels only, nothing privileged."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class TabulaTree(app_commands.CommandTree):
    """The command tree with one error handler for every slash command and autocomplete."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        client: TabulaBot = interaction.client  # type: ignore[assignment]
        await client.report(interaction, cause)


class TabulaBot(discord.Client):
    """Tabula's client.  ``store`` may be given (tests); otherwise it is opened from the settings."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: MatchStore | None = None,
        computer_iterations: int | None = None,
        **service_options: Any,
    ) -> None:
        super().__init__(intents=intents(), allowed_mentions=discord.AllowedMentions.none())
        self.settings = settings
        self.tree = TabulaTree(self)
        self.ui = MatchUI(self)
        self.renderer = BoardRenderer(settings.render_processes)
        self.computer = ComputerPlayers(self, processes=settings.ai_processes, iterations=computer_iterations)
        self._store = store
        self._service_options = service_options
        self._service: MatchService | None = None
        self._sweeper: asyncio.Task[None] | None = None
        for group in build_groups(self.ui):
            self.tree.add_command(group)
        add_ladder_commands(self)
        self.add_dynamic_items(*DYNAMIC_ITEMS, LadderPageButton)

    @property
    def service(self) -> MatchService:
        if self._service is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._service

    async def prepare(self) -> None:
        """Open the database and build the match service (called by ``setup_hook``, or by tests)."""
        if self._service is not None:
            return
        if self._store is None:
            self._store = await MatchStore.open(self.settings.database)
        options = {
            "challenge_seconds": self.settings.challenge_minutes * 60,
            "turn_seconds": self.settings.turn_hours * 3600,
            **self._service_options,
        }
        self._service = MatchService(self._store, **options)

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Open the database first, so a file the bot cannot use stops it before it logs in."""
        await self.prepare()
        await super().start(token, reconnect=reconnect)

    async def setup_hook(self) -> None:
        await self.prepare()
        await self.sync_commands()
        await self.computer.resume_all()
        settle_memory()
        self._sweeper = asyncio.create_task(self._sweep_forever(), name="tabula-sweeper")

    async def on_ready(self) -> None:
        log.info(
            "Tabula is ready as %s in %d servers; database %s",
            self.user,
            len(self.guilds),
            os.path.abspath(self.settings.database),
        )

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        self.renderer.close()
        self.computer.close()
        await super().close()
        if self._store is not None:
            await self._store.close()

    # -- commands -------------------------------------------------------------------

    def command_payload(self) -> list[dict[str, Any]]:
        """The exact application-command payload this bot syncs to Discord."""
        return [command.to_dict(self.tree) for command in self.tree.get_commands()]

    def command_hash(self) -> str:
        """A stable hash of :meth:`command_payload`, to sync only when commands changed."""
        text = json.dumps(self.command_payload(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_commands(self) -> bool:
        """Sync the commands to the development server, or globally, if they changed since the last sync."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        key = f"commands-hash:{guild.id if guild else 'global'}"
        digest = self.command_hash()
        if await self.service.store.get_meta(key) == digest:
            log.info("application commands unchanged; not syncing")
            return False
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        await self.service.store.set_meta(key, digest)
        log.info(
            "synced %d application commands to %s", len(self.command_payload()), guild.id if guild else "all servers"
        )
        return True

    # -- errors ----------------------------------------------------------------------

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Tell the user what went wrong (ephemeral); log anything unexpected with its traceback."""
        message = describe_error(error)
        if message is None:
            log.error("unexpected error in %s", _describe(interaction), exc_info=error)
            message = SOMETHING_WENT_WRONG
        if interaction.type is discord.InteractionType.autocomplete:
            return
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not deliver an error message for %s", _describe(interaction), exc_info=True)

    async def guarded(self, interaction: discord.Interaction, work: Awaitable[None]) -> None:
        """Run a button's work with the same error handling as slash commands."""
        try:
            await work
        except Exception as error:
            await self.report(interaction, error)

    # -- background work --------------------------------------------------------------

    async def sweep(self) -> int:
        """Expire overdue challenges and edit their messages; return how many expired."""
        expired = await self.service.expire_challenges()
        for record in expired:
            await self.ui.close_challenge_message(record, "expired: nobody answered in time.")
        await self.computer.resume_all()  # a computer turn that failed is tried again
        return len(expired)

    async def _sweep_forever(self) -> None:
        while True:
            try:
                await self.sweep()
            except Exception:
                log.exception("the challenge sweeper failed; trying again later")
            await asyncio.sleep(SWEEP_SECONDS)


def _describe(interaction: discord.Interaction) -> str:
    command = (
        interaction.command.qualified_name
        if interaction.command
        else interaction.data and interaction.data.get("custom_id")
    )
    return f"interaction {interaction.id} ({command}) in channel {interaction.channel_id}"
