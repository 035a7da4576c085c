"""``/help``: a short private overview of Tabula, in the asker's language, made from the command tree.

It fits a phone's screen: what games there are, how to challenge, move, see the board and the rules,
play the computer, and where the ladders, puzzles, events and the server's settings are.  Every command,
option and choice it names is read from the tree the bot syncs (each game's move commands are the kinds
of move its engine describes), so it cannot name a command that does not exist or miss one a game has;
``tests/bot/commands/test_help_settings.py`` checks it in every language.  Every sentence is a catalog
entry of its own, so translators see short sentences.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import discord
from discord import app_commands

from bot import limits
from bot.commands.ui import user_language
from bot.settings import DOCS_URL
from bot.text.formatting import and_list, clip
from bot.text.translator import COMMAND_CONTEXT
from engines import GAMES
from i18n.catalog import gettext, pgettext
from i18n.phrases import rules_page

Command = app_commands.Command[Any, ..., Any]
Group = app_commands.Group


def find(tree: app_commands.CommandTree[Any], path: str) -> Command | Group | None:
    """The command or group at ``path`` (``"pond start"``) in ``tree``, or ``None``."""
    first, *rest = path.split()
    found: Command | Group | None = tree.get_command(first)
    for name in rest:
        found = found.get_command(name) if isinstance(found, Group) else None
    return found


def usage(command: Command | Group | None, optional: bool = False, **values: str) -> str:
    """``/pond move from: to:`` in code: the command's required options in order (with ``optional``, the
    optional ones too, in brackets), or only ``values``, each after the option it names
    (``opponent="@someone"``: ``opponent:@someone``); empty if there is no such command."""
    if command is None:
        return ""
    if isinstance(command, Group) or values:
        options = [f"{name}:{value}" for name, value in values.items()]
    else:
        options = [
            f"{p.display_name}:" if p.required else f"[{p.display_name}:]"
            for p in command.parameters
            if p.required or optional
        ]
    return "`" + " ".join([f"/{command.qualified_name}", *options]) + "`"


def game_groups(tree: app_commands.CommandTree[Any]) -> list[Group]:
    """The games' command groups in the tree, in the registry's order."""
    return [group for name in GAMES if isinstance(group := tree.get_command(name), Group)]


def move_commands(group: Group) -> list[Command]:
    """A game's move commands: one per kind of move its engine describes, in the engine's order."""
    form = GAMES[group.name].moves
    kinds = [kind.name for kind in form.kinds] if form is not None else []
    found = {command.name: command for command in group.commands if isinstance(command, app_commands.Command)}
    return [found[kind] for kind in kinds if kind in found]


def shared_commands(groups: Sequence[Group]) -> tuple[list[str], dict[str, list[Group]]]:
    """The subcommands every game has besides its moves, and those only some have, with the
    games' groups that have them; in the order the first game that has one lists it."""
    others: dict[str, list[Group]] = {}
    for group in groups:
        moves = {command.name for command in move_commands(group)}
        for command in group.commands:
            if command.name not in moves:
                others.setdefault(command.name, []).append(group)
    every = [name for name, having in others.items() if len(having) == len(groups)]
    return every, {name: having for name, having in others.items() if len(having) < len(groups)}


def help_lines(language: str, tree: app_commands.CommandTree[Any], docs_url: str = DOCS_URL) -> Iterator[str]:
    """The overview's lines, in ``language``; a line naming a command the tree lacks is left out."""
    groups = game_groups(tree)
    if not groups:
        return
    first = groups[0].name
    start = find(tree, f"{first} start")
    opponent = start.parameters[0].name if isinstance(start, app_commands.Command) and start.parameters else ""
    games = ", ".join(f"**{GAMES[group.name].title}** (`/{group.name}`)" for group in groups)
    yield gettext(language, "**Tabula** plays board games here: {games}.", games=games)
    yield gettext(
        language,
        "• **Challenge**: {command}. They press Accept, and the game gets a thread of its own.",
        command=usage(start, False, **{opponent: "@someone"}),
    )
    yield gettext(
        language,
        "• **Move**: tap the menus under the board (you see your move before it counts, with Play and Back), "
        "or type it:",
    )
    for group in groups:
        yield f"  **{GAMES[group.name].title}**: " + " · ".join(
            usage(command, optional=True) for command in move_commands(group)
        )
    every, some = shared_commands(groups)
    if every:
        yield gettext(
            language,
            "• **In every game**: {commands} after its name, like {example} (your game again) or {rules} (its rules).",
            commands=" · ".join(f"`{name}`" for name in every),
            example=usage(find(tree, f"{first} board")),
            rules=usage(find(tree, f"{first} rules")),
        )
    for name, having in some.items():
        command = having[0].get_command(name)
        described = pgettext(language, COMMAND_CONTEXT, command.description) if command is not None else ""
        yield gettext(
            language,
            "• **Only in {games}**: `{command}`. {description}",
            games=and_list([GAMES[group.name].title for group in having], language),
            command=name,
            description=described,
        )
    levels = [
        str(choice.value)
        for parameter in (start.parameters if isinstance(start, app_commands.Command) else [])
        if parameter.name == "difficulty"
        for choice in parameter.choices
    ]
    if levels:
        yield gettext(
            language,
            "• **The computer**: {command} (or {levels}).",
            command=usage(start, difficulty=levels[0]),
            levels=", ".join(levels[1:]),
        )
    reminders = usage(find(tree, "reminders"), setting="off")
    if reminders:
        yield gettext(
            language,
            "• **Turn reminders**: you are pinged when a quarter of your turn is left; {command} stops them.",
            command=reminders,
        )
    ladders = [usage(find(tree, name)) for name in ("leaderboard", "stats", "history")]
    if all(ladders):
        yield gettext(
            language,
            "• **Ladders**: {leaderboard}, {stats} and {history} (replays), for this server.",
            leaderboard=ladders[0],
            stats=ladders[1],
            history=ladders[2],
        )
    learn = [usage(find(tree, path)) for path in ("analyse", f"{first} hint", "puzzle")]
    if all(learn):
        yield gettext(
            language,
            "• **Learn**: {analyse} reviews a finished game; {hint} suggests a move against the computer; "
            "{puzzle} gives you a puzzle.",
            analyse=learn[0],
            hint=learn[1],
            puzzle=learn[2],
        )
    events = [usage(find(tree, path)) for path in ("tournament join", "tournament list")]
    if all(events):
        yield gettext(
            language, "• **Events**: {join} enters one; {list} shows this server's.", join=events[0], list=events[1]
        )
    settings = [usage(find(tree, path)) for path in ("settings", "tabula settings")]
    if all(settings):
        yield gettext(
            language,
            "• **Settings**: {personal} for your own, {server} for the server's.",
            personal=settings[0],
            server=settings[1],
        )
    yield gettext(language, "📖 Everything, with pictures: <{link}>", link=rules_page(docs_url, "players", language))


def help_text(language: str, tree: app_commands.CommandTree[Any], docs_url: str = DOCS_URL) -> str:
    """The overview, in ``language``, made from ``tree``."""
    return clip("\n".join(help_lines(language, tree, docs_url)), limits.MESSAGE_CONTENT_MAX)


def add_help_command(tree: app_commands.CommandTree[Any], docs_url: str = DOCS_URL) -> None:
    """Add ``/help`` to the bot's tree; it describes the tree as it is when asked (every command added)."""

    @tree.command(name="help", description="How to play with Tabula, briefly (only you see it).")
    async def help_command(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(help_text(user_language(interaction), tree, docs_url), ephemeral=True)
