"""Reminders and automatic endings: what the sweeper does about turns that run late.

* **Reminders.**  With a quarter of a turn's time left, the player to move is mentioned once in the
  match's channel with the deadline as a relative time.  Which matches are due is computed from their
  rows (:meth:`~bot.storage.extras_store.MatchExtras.due_reminders`), so a restart loses nothing; marking the
  turn reminded and writing the announcement are one transaction, so a reminder is never sent twice,
  and the one announcer posts it (and retries it) like every other announcement.  Nobody is reminded
  who turned reminders off (``/reminders off``), no computer seat, and nobody on a server whose
  reminders are off.
* **Abandonment.**  Once a turn's deadline has passed by a whole turn time again (48 hours by
  default), the match ends by itself as lost on time by the player who did not move, through the
  service's forfeit path (:meth:`~bot.core.service.MatchService.abandon`): rated as a loss, and in a game of
  three or four the late player leaves and the others play on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.computer_seats import computer_level
from bot.core.ports import ServerSettings
from bot.core.refusals import Refusal
from bot.core.service import MatchService
from bot.delivery.ports import Computers, Deliverer
from bot.storage.extras_store import MatchExtras
from bot.storage.records import MatchRecord, Notice, NoticeKind
from i18n.catalog import gettext, locale_for

log = logging.getLogger(__name__)
BATCH = 100  # due matches read and handled at a time


@dataclass(frozen=True, slots=True)
class Swept:
    """What one sweep did."""

    reminded: int  # reminders written to the outbox
    skipped: int  # turns due but not to be reminded (computer, reminders off)
    ended: int  # turns ended by abandonment


class Reminders:
    """Find the turns due a reminder or an automatic ending, and act on each once."""

    def __init__(
        self,
        service: MatchService,
        extras: MatchExtras,
        settings: ServerSettings,
        announcer: Deliverer,
        computers: Computers | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.service = service
        self.extras = extras
        self.settings = settings
        self.announcer = announcer
        self.computers = computers
        self.clock = clock

    async def server_reminds(self, guild_id: int) -> bool:
        """Whether the server lets Tabula remind its players (on unless a server setting turned it off)."""
        settings = await self.settings.get(guild_id)
        return settings.effective_reminders()

    async def sweep(self) -> Swept:
        """Send the reminders due and end the abandoned turns; each at most once, whatever happens.

        Due matches are taken in batches of :data:`BATCH`, so a crowd falling due at once (after a
        restart, say) is worked through in small steps between which moves and commands run.
        """
        reminded = skipped = ended = 0
        while True:
            batch = await self.extras.due_reminders(self.clock(), BATCH)
            progress = 0
            for record in batch:
                try:
                    sent = await self._remind(record)
                except Exception:
                    log.exception("reminding match %s failed; the next sweep tries again", record.id)
                    continue
                if sent is True:
                    reminded += 1
                elif sent is False:
                    skipped += 1
                progress += sent is not None
            if len(batch) < BATCH or not progress:
                break
        after = 0
        while True:
            batch = await self.extras.due_abandoned(self.clock(), after, BATCH)
            for record in batch:
                after = record.id
                try:
                    turn = await self.service.abandon(record)
                except Exception:
                    log.exception("ending abandoned match %s failed; the next sweep tries again", record.id)
                    continue
                if turn is None:
                    continue
                ended += 1
                await self.announcer.deliver(turn.announcements, state=turn.state, turn=turn)
                if self.computers is not None:
                    self.computers.wake(turn.record, turn.state)
            if len(batch) < BATCH:
                break
        return Swept(reminded, skipped, ended)

    async def _remind(self, record: MatchRecord) -> bool | None:
        """Remind the player to move in ``record``: True if sent, False if skipped, None if not done at all."""
        state = self.service.state_of(record)
        if state.to_move is None:
            return None
        user_id = record.players[state.to_move].user_id
        wanted = (
            computer_level(user_id) is None
            and await self.server_reminds(record.guild_id)
            and await self.extras.reminders_enabled(user_id)
        )
        notice = Notice(NoticeKind.REMIND, mentions=(user_id,), board=False) if wanted else None
        announced = await self.extras.remind(record, user_id, notice, self.clock())
        if announced is None:
            return None  # the match moved on, or another sweep handled this turn
        if announced:
            await self.announcer.deliver(announced, record=record)
        return bool(announced)

    # -- the /reminders command ---------------------------------------------------------

    async def choose(self, interaction: discord.Interaction, setting: str) -> None:
        """Turn the asking player's own reminders on or off (only they see the answer)."""
        if setting not in ("on", "off"):
            raise Refusal("Choose `on` or `off`.")
        enabled = setting == "on"
        await self.extras.set_reminders(interaction.user.id, enabled)
        language = locale_for(interaction.locale)
        if enabled:
            text = gettext(
                language, "⏰ Reminders are on: I'll mention you when a quarter of your turn's time is left."
            )
        else:
            text = gettext(language, "🔕 Reminders are off: I won't mention you before your deadlines.")
        await interaction.response.send_message(text, ephemeral=True)


def add_reminder_command(tree: discord.app_commands.CommandTree[Any], reminders: Reminders) -> None:
    """Add the top-level ``/reminders on|off`` command."""

    @tree.command(name="reminders", description="Turn your own turn reminders on or off (only you see the answer).")
    @discord.app_commands.describe(setting="on: mention me when a quarter of my turn is left; off: don't")
    @discord.app_commands.choices(
        setting=[
            discord.app_commands.Choice(name="on", value="on"),
            discord.app_commands.Choice(name="off", value="off"),
        ]
    )
    async def reminders_command(interaction: discord.Interaction, setting: str) -> None:
        await reminders.choose(interaction, setting)
