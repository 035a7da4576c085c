"""``/tournament``: a server's events, from sign-up to the winner.

``create`` (Manage Server, or the server's organisers' role: ``/tabula organiser``) posts the sign-up message
with Join / Leave buttons that work after restarts;
``join`` and ``leave`` do the same as the buttons; ``start`` (the organisers, or by itself at ``starts``)
pairs round 1; ``standings``, ``list``, and ``cancel`` and ``remove`` (the organisers).  The rounds then run themselves
(:mod:`bot.delivery.event_posts`).  A command names its event with ``event:`` (autocompleted), or means
the server's only open or running one.  Replies to the asker are private and in their language; the
sign-up message is public, in the server's.

``create`` checks everything before it makes anything, and refuses with what is allowed: ``turn_time`` within
the range a server may set with ``/tabula turn_time`` (the same parsing and limits), ``starts`` at most
:data:`STARTS_RANGE` (90 days) ahead, an arena's ``duration`` within :data:`ARENA_RANGE` (10 minutes to 24
hours), and each game option given once.

An arena (``format:arena``) runs for its duration: ``join`` works while it runs, and ``leave`` then pauses (the
player is not paired again until they join again; their points stay).  Either looks at the arena at once, so a
player who joins is paired within seconds.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord import app_commands

from bot import limits
from bot.commands.components import Choice, CustomId, Number, persistent_button
from bot.commands.server_commands import TURN_RANGE, duration_text, parse_duration, within
from bot.commands.ui import user_language
from bot.core import tournament_formats as formats
from bot.core.ports import Languages
from bot.core.refusals import Refusal
from bot.core.tournaments import TournamentService
from bot.delivery.event_posts import EventPosts, standings_text
from bot.storage.database import N_
from bot.storage.settings_store import GuildSettings
from bot.storage.tournament_store import Event, EventStatus
from bot.text.escaping import escape_name
from engines import GAMES
from i18n.catalog import DEFAULT, gettext, ngettext


class ServerSettings(Languages, Protocol):
    """What the commands read of a server's settings: its language, and its organisers' role."""

    async def get(self, guild_id: int) -> GuildSettings: ...


# (interaction, event ID, join?) -> the work of joining or leaving
SignUpHandler = Callable[[discord.Interaction[Any], int, bool], Awaitable[None]]
SIGN_UP = CustomId("event", Choice("action", ("join", "leave")), Number("event", 19))
SIGN_UP_TEMPLATE = SIGN_UP.template

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss", value=formats.SWISS),
    app_commands.Choice(name="Round robin", value=formats.ROUND_ROBIN),
    app_commands.Choice(name="Double round robin", value=formats.DOUBLE_ROUND_ROBIN),
    app_commands.Choice(name="Tables of 3 and 4", value=formats.TABLES),
    app_commands.Choice(name="Arena (a set time, join any time)", value=formats.ARENA),
]
STARTS = re.compile(r"^\s*(in|dans|через)\s+", re.IGNORECASE)
#: How far ahead an event may be set to start by itself (seconds): a minute to 90 days, a season's planning
#: (the sweeper starts it; further ahead is more likely a typo than a plan).
STARTS_RANGE = (60, 90 * 86400)
#: How long an arena may run (seconds): ten minutes (a few games) to a day (beyond, nobody plays it live).
ARENA_RANGE = (10 * 60, 24 * 3600)


def sign_up_button(event_id: int, join: bool, language: str = DEFAULT) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=gettext(language, "Join") if join else gettext(language, "Leave"),
        style=discord.ButtonStyle.success if join else discord.ButtonStyle.secondary,
        custom_id=SIGN_UP.build(action="join" if join else "leave", event=event_id),
    )


def sign_up_view(event_id: int, language: str = DEFAULT) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(sign_up_button(event_id, True, language))
    view.add_item(sign_up_button(event_id, False, language))
    return view


def sign_up_buttons(handler: SignUpHandler) -> type[discord.ui.DynamicItem[Any]]:
    """The dynamic item that routes every press of Join or Leave, on any sign-up message, to ``handler``."""
    return persistent_button(
        SIGN_UP,
        "SignUpButton",
        lambda values: sign_up_button(values["event"], values["action"] == "join"),
        lambda interaction, values: handler(interaction, values["event"], values["action"] == "join"),
    )


def format_name(language: str, format: str) -> str:
    names = {
        formats.SWISS: gettext(language, "Swiss"),
        formats.ROUND_ROBIN: gettext(language, "round robin"),
        formats.DOUBLE_ROUND_ROBIN: gettext(language, "double round robin"),
        formats.TABLES: gettext(language, "tables of 3 and 4"),
        formats.ARENA: gettext(language, "arena"),
    }
    return names[format]


def sign_up_text(event: Event, entrants: list[str], language: str) -> str:
    """The sign-up message: the event, its format, who has joined."""
    text = gettext(
        language,
        "🏁 **{event}**: a {game} event ({format}). Press Join to enter.",
        event=escape_name(event.name),
        game=GAMES[event.game].title,
        format=format_name(language, event.format),
    )
    if event.format == formats.ARENA:
        text += "\n" + gettext(
            language,
            "It runs for {duration}: join whenever you like, even once it runs; leaving pauses you, your points stay. "
            "A win is worth 2, a draw 1, and after two wins in a row they count double until a game is not won.",
            duration=duration_text(language, event.duration or 0),
        )
    if event.starts_at:
        text += "\n" + gettext(language, "It starts <t:{time}:R>.", time=int(event.starts_at))
    names = [escape_name(name) for name in entrants]

    def with_names(shown: int) -> str:
        listed = ", ".join(names[:shown]) or "—"
        if shown < len(names):
            hidden = len(names) - shown
            listed = ngettext(language, "{names} and {n} more", "{names} and {n} more", hidden, names=listed)
        return text + "\n" + gettext(language, "Entrants ({count}): {names}", count=len(entrants), names=listed)

    # A long list of long names shows as many as fit, then counts the rest (the most that fit, by bisection).
    fits, over = 0, len(names) + 1
    while over - fits > 1:
        middle = (fits + over) // 2
        if len(with_names(middle)) <= limits.MESSAGE_CONTENT_MAX:
            fits = middle
        else:
            over = middle
    return limits.clip(with_names(fits), limits.MESSAGE_CONTENT_MAX)


def game_options(game: str, text: str) -> dict[str, Any]:
    """Read the game's own options for every game of the event: ``variant=mini``, ``wall=grey size=7``."""
    spec = GAMES[game]
    known = {option.name: option for option in spec.options}
    chosen: dict[str, Any] = {}
    for part in text.replace(",", " ").split():
        name, _, raw = part.replace(":", "=").partition("=")
        found = known.get(name.strip().lower())
        if found is None or not raw:
            names = ", ".join(f"`{o.name}`" for o in spec.options) or "—"
            raise Refusal(
                "Write the {title} options as name=value; its options are {names}.", title=spec.title, names=names
            )
        if found.name in chosen:  # which of the two was meant is a guess: ask
            raise Refusal("{name} is given twice: give each option once.", name=found.name)
        value: Any = raw.strip()
        if isinstance(found.default, bool):
            value = value.lower() in ("on", "yes", "true", "1")
        elif isinstance(found.default, int) or found.minimum is not None or found.maximum is not None:
            if not value.lstrip("-").isdigit():
                raise Refusal("{name} takes a whole number.", name=found.name)
            value = int(value)
        if found.choices is not None:
            match = [c for c in found.choices if str(c).lower() == str(value).lower()]
            if not match:
                allowed = ", ".join(f"`{c}`" for c in found.choices)
                raise Refusal("{name} is one of {allowed}.", name=found.name, allowed=allowed)
            value = match[0]
        if (found.minimum is not None and value < found.minimum) or (
            found.maximum is not None and value > found.maximum
        ):
            raise Refusal("{name} is from {low} to {high}.", name=found.name, low=found.minimum, high=found.maximum)
        chosen[found.name] = value
    return chosen


class TournamentCommands:
    """The work behind ``/tournament`` and the sign-up buttons."""

    def __init__(
        self, events: TournamentService, posts: EventPosts, languages: ServerSettings, clock: Callable[[], float]
    ):
        self.events = events
        self.posts = posts
        self.languages = languages
        self.clock = clock

    async def pick(self, interaction: discord.Interaction[Any], event_id: int | None) -> Event:
        """The event a command means: the one named, or the server's only open or running one."""
        guild_id = interaction.guild_id or 0
        if event_id is not None:
            return await self.events.event(event_id, guild_id)
        live = await self.events.store.of_guild(guild_id, [EventStatus.OPEN, EventStatus.RUNNING])
        if len(live) == 1:
            return live[0]
        if not live:
            raise Refusal("This server has no open or running event.")
        raise Refusal("This server has several events: name one with `event:`.")

    async def may_organise(self, interaction: discord.Interaction[Any], refusal: str | None = None) -> bool:
        """Whether the asker may run events: Manage Server, or the role the server named with ``/tabula organiser``.

        With ``refusal``, a member who may not is refused: with it as said, or (when the server named a role) with
        a reply that names the role.  The member's role IDs come with the interaction.
        """
        if interaction.permissions.manage_guild:
            return True
        role = (await self.languages.get(interaction.guild_id)).organiser_role if interaction.guild_id else None
        held = getattr(interaction.user, "_roles", ())  # the role IDs in the interaction's member payload
        if role is not None and role in held:
            return True
        if refusal is None:
            return False
        if role is None:
            raise Refusal(refusal)
        raise Refusal("Only a member with Manage Server or the role {role} can do this.", role=f"<@&{role}>")

    async def create(self, interaction: discord.Interaction[Any], **options: Any) -> None:
        await self.may_organise(interaction, N_("Only a member with the Manage Server permission can create an event."))
        # Everything is checked before anything is made: a refusal leaves no event behind.
        turn = None
        if options.get("turn_time"):
            turn = within(parse_duration(options["turn_time"]), *TURN_RANGE, N_("The time for a turn"))
        starts = None
        if options.get("starts"):
            wait = parse_duration(STARTS.sub("", options["starts"]))
            wait = within(wait, *STARTS_RANGE, N_("The wait before the event starts"))
            starts = None if wait is None else self.clock() + wait
        duration = None
        if options.get("duration"):
            duration = within(parse_duration(options["duration"]), *ARENA_RANGE, N_("An arena's duration"))
        game_settings = game_options(options["game"], options.get("options") or "")
        event = await self.events.create(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            organiser_id=interaction.user.id,
            name=options.get("name") or "",
            game=options["game"],
            format=options["format"],
            rounds=options.get("rounds") or 0,
            turn_seconds=turn,
            starts_at=starts,
            options=game_settings,
            duration=duration,
        )
        language = await self.languages.language(event.guild_id)
        await interaction.response.send_message(
            sign_up_text(event, [], language), view=sign_up_view(event.id, language)
        )
        message = await interaction.original_response()
        await self.events.store.set_message(event.id, message.id)

    async def sign_up(self, interaction: discord.Interaction[Any], event_id: int | None, join: bool) -> None:
        """Join or leave (withdraw, once running); a button press also refreshes the sign-up message."""
        event = await self.pick(interaction, event_id)
        language = user_language(interaction)
        if join:
            event = await self.events.join(event.id, interaction.user.id, interaction.user.display_name)
            text = gettext(language, "You are in **{event}**. Good luck!", event=escape_name(event.name))
        else:
            event, forfeited = await self.events.leave(event.id, interaction.user.id)
            text = gettext(language, "You have left **{event}**.", event=escape_name(event.name))
            for turn in forfeited:
                await self.posts.announcer.deliver(turn.announcements, state=turn.state, turn=turn)
        if event.format == formats.ARENA and event.status == EventStatus.RUNNING:
            if not join:
                text = gettext(
                    language,
                    "You are paused in **{event}**: you are not paired again until you join again; your points stay.",
                    event=escape_name(event.name),
                )
            await interaction.response.send_message(text, ephemeral=True)
            await self.posts.look(event.id)  # a player who joins is paired at once; a pause shows in the standings
            return
        if interaction.type is discord.InteractionType.component and event.status == EventStatus.OPEN:
            names = [e.name for e in await self.events.store.entrants(event.id)]
            server = await self.languages.language(event.guild_id)
            await interaction.response.edit_message(content=sign_up_text(event, names, server))
            await interaction.followup.send(text, ephemeral=True)
            return
        await interaction.response.send_message(text, ephemeral=True)

    async def start(self, interaction: discord.Interaction[Any], event_id: int | None) -> None:
        event = await self.pick(interaction, event_id)
        await interaction.response.defer(ephemeral=True)
        progress = await self.events.start(
            event.id,
            interaction.user.id,
            can_manage=await self.may_organise(
                interaction, N_("Only a member with the Manage Server permission can start an event.")
            ),
        )
        language = user_language(interaction)
        if progress.event.format == formats.ARENA:
            said = gettext(
                language,
                "**{event}** has started: it ends <t:{time}:t>, and players may join until then.",
                event=escape_name(event.name),
                time=int(progress.event.ends_at or 0),
            )
        else:
            said = gettext(
                language,
                "**{event}** has started: round 1 of {rounds} is paired.",
                event=escape_name(event.name),
                rounds=progress.event.rounds,
            )
        await interaction.followup.send(said, ephemeral=True)
        await self.posts.publish(progress)

    async def cancel(self, interaction: discord.Interaction[Any], event_id: int | None) -> None:
        event = await self.pick(interaction, event_id)
        may = await self.may_organise(
            interaction, N_("Only a member with the Manage Server permission can cancel an event.")
        )
        event = await self.events.cancel(event.id, can_manage=may)
        language = await self.languages.language(event.guild_id)
        await interaction.response.send_message(
            gettext(language, "**{event}** was cancelled.", event=escape_name(event.name))
        )

    async def remove(self, interaction: discord.Interaction[Any], event_id: int | None, player: discord.User) -> None:
        """The organiser takes a player out of a running event (or off an open one's list)."""
        await self.may_organise(
            interaction, N_("Only a member with the Manage Server permission can remove a player from an event.")
        )
        event = await self.pick(interaction, event_id)
        event, forfeited = await self.events.leave(event.id, player.id, forfeit=True)
        for turn in forfeited:
            await self.posts.announcer.deliver(turn.announcements, state=turn.state, turn=turn)
        text = gettext(
            user_language(interaction),
            "{player} is no longer in **{event}**.",
            player=escape_name(player.display_name),
            event=escape_name(event.name),
        )
        await interaction.response.send_message(text, ephemeral=True)

    async def standings(self, interaction: discord.Interaction[Any], event_id: int | None) -> None:
        event = await self.pick(interaction, event_id) if event_id is not None else await self._latest(interaction)
        lines = await self.events.standings(event)
        final = event.status == EventStatus.FINISHED
        text = standings_text(event, lines, user_language(interaction), final=final)
        await interaction.response.send_message(text, ephemeral=True)

    async def _latest(self, interaction: discord.Interaction[Any]) -> Event:
        try:
            return await self.pick(interaction, None)
        except Refusal:
            done = await self.events.store.of_guild(interaction.guild_id or 0, limit=1)
            if not done:
                raise
            return done[0]

    async def list_events(self, interaction: discord.Interaction[Any]) -> None:
        language = user_language(interaction)
        found = await self.events.store.of_guild(interaction.guild_id or 0)
        if not found:
            raise Refusal("This server has no events yet. Create one with `/tournament create`.")
        status = {
            EventStatus.OPEN: gettext(language, "open"),
            EventStatus.RUNNING: gettext(language, "running"),
            EventStatus.FINISHED: gettext(language, "finished"),
            EventStatus.CANCELLED: gettext(language, "cancelled"),
        }
        rows = [
            f"#{e.id} **{escape_name(e.name)}** · {GAMES[e.game].title} · {format_name(language, e.format)} · "
            f"{status[e.status]}" + _progress(e)
            for e in found
        ]
        await interaction.response.send_message("\n".join(rows)[:1900], ephemeral=True)

    async def autocomplete(self, interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[int]]:
        found = await self.events.store.of_guild(interaction.guild_id or 0)
        return [
            app_commands.Choice(name=limits.clip(f"#{e.id} {e.name}", limits.CHOICE_NAME_MAX), value=e.id)
            for e in found
            if current.lower() in f"#{e.id} {e.name}".lower()
        ][: limits.AUTOCOMPLETE_CHOICES_MAX]


def _progress(event: Event) -> str:
    """How far an event is, for its line in ``/tournament list``: its round, or when an arena ends."""
    if event.format == formats.ARENA:
        return f" · <t:{int(event.ends_at)}:t>" if event.ends_at else ""
    return f" · R{event.round}/{event.rounds}" if event.round else ""


class EventRecords:
    """What ``/stats`` and ``/history`` show of events: a player's event results, and each game's event and round."""

    def __init__(self, events: TournamentService) -> None:
        self.events = events

    async def results(self, guild_id: int, user_id: int, language: str) -> list[str]:
        """One line per event the player entered (newest first): its rank, points and state."""
        found = await self.events.store.events_of(guild_id, user_id, [EventStatus.RUNNING, EventStatus.FINISHED])
        lines = []
        for event in found[:5]:
            standings = await self.events.standings(event)
            mine = next((line for line in standings if line.user_id == user_id), None)
            if mine is None:
                continue
            fields = {
                "event": escape_name(event.name),
                "game": GAMES[event.game].title,
                "rank": mine.rank,
                "size": len(standings),
                "points": formats.number_text(mine.points),
            }
            if event.status == EventStatus.FINISHED:
                lines.append(
                    gettext(language, "**{event}** ({game}): rank {rank} of {size}, {points} points", **fields)
                )
            else:
                lines.append(
                    gettext(language, "**{event}** ({game}): rank {rank} of {size}, {points} points, running", **fields)
                )
        return lines

    async def labels(self, match_ids: list[int]) -> dict[int, str]:
        """``Spring Pond · R2`` for each of these matches played in an event (an arena's: its name alone)."""
        return {
            match: name if format == formats.ARENA else f"{name} · R{number}"
            for match, (name, number, format) in (await self.events.store.labels(match_ids)).items()
        }


def add_tournament_commands(tree: app_commands.CommandTree[Any], commands: TournamentCommands) -> app_commands.Group:
    """Add ``/tournament`` with its subcommands to ``tree``."""
    group = app_commands.Group(
        name="tournament", description="Events: Tabula pairs every round and crowns the winner.", guild_only=True
    )
    games = [app_commands.Choice(name=spec.title, value=name) for name, spec in GAMES.items()]
    event_option = app_commands.describe(event="The event (default: this server's only open or running one)")

    @group.command(
        name="create", description="Create an event that players join with a button (Manage Server or organisers)."
    )
    @app_commands.describe(
        game="The game every round plays",
        format="Swiss, round robin, tables of 3 and 4 (multi-player games), or an arena",
        name="The event's name, e.g. Spring Pond",
        rounds="How many rounds (default: enough for the field)",
        turn_time="The time for a turn, like 12h or 2d: 1 minute to 14 days (default: the server's; arena: 3m)",
        starts="Start by itself, e.g. in 2h, at most 90 days ahead (default: when /tournament start is used)",
        options="The game's own options for every game, e.g. variant=mini or wall=grey",
        duration="An arena's length, like 1h or 90m: 10 minutes to 24 hours (default: 1h)",
    )
    @app_commands.choices(game=games, format=FORMAT_CHOICES)
    async def create(
        interaction: discord.Interaction,
        game: str,
        format: str,
        name: app_commands.Range[str, 1, 40] | None = None,
        rounds: app_commands.Range[int, 1, 50] | None = None,
        turn_time: app_commands.Range[str, 1, 30] | None = None,
        starts: app_commands.Range[str, 1, 30] | None = None,
        options: app_commands.Range[str, 1, 100] | None = None,
        duration: app_commands.Range[str, 1, 30] | None = None,
    ) -> None:
        await commands.create(
            interaction,
            game=game,
            format=format,
            name=name,
            rounds=rounds,
            turn_time=turn_time,
            starts=starts,
            options=options,
            duration=duration,
        )

    @group.command(name="join", description="Enter an event.")
    @event_option
    async def join(
        interaction: discord.Interaction, event: app_commands.Range[int, 1, limits.INTEGER_OPTION_MAX] | None = None
    ) -> None:
        await commands.sign_up(interaction, event, True)

    @group.command(
        name="leave", description="Leave an event (once it runs: withdraw, forfeiting a running game; arena: pause)."
    )
    @event_option
    async def leave(
        interaction: discord.Interaction, event: app_commands.Range[int, 1, limits.INTEGER_OPTION_MAX] | None = None
    ) -> None:
        await commands.sign_up(interaction, event, False)

    @group.command(name="start", description="Start an event now: round 1 is paired (Manage Server or organisers).")
    @event_option
    async def start(
        interaction: discord.Interaction, event: app_commands.Range[int, 1, limits.INTEGER_OPTION_MAX] | None = None
    ) -> None:
        await commands.start(interaction, event)

    @group.command(
        name="remove",
        description="Take a player out of an event, forfeiting their running game (Manage Server or organisers).",
    )
    @app_commands.describe(player="Who is removed", event="The event (default: this server's only open or running one)")
    async def remove(
        interaction: discord.Interaction,
        player: discord.User,
        event: app_commands.Range[int, 1, limits.INTEGER_OPTION_MAX] | None = None,
    ) -> None:
        await commands.remove(interaction, event, player)

    @group.command(name="standings", description="Show an event's standings (only you see them).")
    @event_option
    async def standings(
        interaction: discord.Interaction, event: app_commands.Range[int, 1, limits.INTEGER_OPTION_MAX] | None = None
    ) -> None:
        await commands.standings(interaction, event)

    @group.command(name="list", description="List this server's events, open and finished.")
    async def list_events(interaction: discord.Interaction) -> None:
        await commands.list_events(interaction)

    @group.command(
        name="cancel", description="Cancel an event; its running games play on (Manage Server or organisers)."
    )
    @event_option
    async def cancel(
        interaction: discord.Interaction, event: app_commands.Range[int, 1, limits.INTEGER_OPTION_MAX] | None = None
    ) -> None:
        await commands.cancel(interaction, event)

    named: tuple[app_commands.Command[Any, Any, None], ...] = (join, leave, start, remove, standings, cancel)
    for command in named:
        command.autocomplete("event")(commands.autocomplete)
    tree.add_command(group)
    return group
