"""``/leaderboard``, ``/stats`` and ``/history``: a server's ladders, a player's record, past games.

They answer in public, in the server's language, as every public post does: ladders, records and replays are
what players show each other (anyone may turn a ladder's pages or step through a replay), and a page turned by
someone else keeps its language.  Their refusals are private, in the asker's language.

Puzzles have ratings of their own (:mod:`bot.core.puzzle_ratings`): ``/stats`` shows each game's puzzle rating,
puzzles solved and tried and the streak, and ``/leaderboard board:puzzles`` a game's puzzle ratings.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord
from discord import app_commands

from bot import limits
from bot.commands.components import Choice, CustomId, Letters, Number, persistent_button
from bot.commands.replays import Replays
from bot.commands.ui import MatchUI, user_language, within
from bot.commands.views import routed_view
from bot.core import ratings
from bot.core.ladders import Ladders
from bot.core.refusals import Refusal
from bot.core.service import MatchService
from bot.storage.puzzle_store import PuzzlePlayer
from bot.storage.rating_store import RatingRow
from bot.storage.records import MatchRecord
from bot.text import formatting
from bot.text.escaping import escape_name
from engines import GAMES
from i18n.catalog import DEFAULT, gettext, ngettext

# (interaction, game, page) -> the work of showing that ladder page in place of the pressed one
PageHandler = Callable[[discord.Interaction[Any], str, int], Awaitable[None]]
PAGE_MAX = 100_000
PAGE_SIZE = 10
NAME_WIDTH = 16
GAME_CHOICES = [app_commands.Choice(name=spec.title, value=name) for name, spec in sorted(GAMES.items())]
BOARD_CHOICES = [
    app_commands.Choice(name="Games", value="games"),
    app_commands.Choice(name="Puzzles", value="puzzles"),
]


class PuzzleRecords(Protocol):
    """Players' puzzle ratings (:class:`bot.storage.puzzle_store.Puzzles`)."""

    async def players_of(self, guild_id: int, user_id: int) -> list[PuzzlePlayer]: ...

    async def ladder(self, guild_id: int, game: str, *, offset: int, limit: int) -> tuple[int, list[PuzzlePlayer]]: ...


def puzzle_line(row: PuzzlePlayer, language: str) -> str:
    """A player's puzzles in one game, for ``/stats``."""
    return gettext(
        language,
        "Puzzles: rating **{rating}** · solved {solved} of {tried} · streak {streak} (best {best})",
        rating=round(row.rating),
        solved=row.solved,
        tried=row.attempts,
        streak=row.streak,
        best=row.best_streak,
    )


async def puzzle_ladder_embed(
    puzzles: PuzzleRecords, guild_id: int, game: str, page: int, language: str = DEFAULT
) -> discord.Embed:
    """One page of a game's puzzle ratings on a server."""
    title = GAMES[game].title
    total, rows = await puzzles.ladder(guild_id, game, offset=page * PAGE_SIZE, limit=PAGE_SIZE)
    embed = discord.Embed(title=gettext(language, "{game} puzzle ratings", game=title), colour=discord.Colour.blurple())
    if not rows:
        embed.description = gettext(
            language, "Nobody has solved a {game} puzzle on this server yet. Try one with `/puzzle`!", game=title
        )
        return embed
    lines = [
        gettext(
            language,
            "`{rank:>3}.` <@{user}> **{rating}** · solved {solved} of {tried}",
            rank=page * PAGE_SIZE + offset + 1,
            user=row.user_id,
            rating=round(row.rating),
            solved=row.solved,
            tried=row.attempts,
        )
        for offset, row in enumerate(rows)
    ]
    embed.description = formatting.clip("\n".join(lines), limits.EMBED_DESCRIPTION_MAX)
    pages = max(1, -(-total // PAGE_SIZE))
    embed.set_footer(
        text=gettext(
            language,
            "Page {page} of {pages} · {players}",
            page=page + 1,
            pages=pages,
            players=players_phrase(language, total),
        )
    )
    return embed


def shown(row: RatingRow) -> str:
    """The rating as players see it, with ``?`` while provisional."""
    value = ratings.display(row.mu, row.sigma)
    return f"{value}?" if row.games < ratings.PROVISIONAL_GAMES else str(value)


def ladder_line(rank: int, row: RatingRow, *, me: bool) -> str:
    plain = row.name.replace("`", "'")  # the ladder is a code block: a backtick in a name must not end it
    name = plain if len(plain) <= NAME_WIDTH else plain[: NAME_WIDTH - 1] + "…"
    marker = "▶" if me else " "
    record = f"{row.wins}-{row.losses}-{row.draws}"
    return f"{marker}{rank:>5} {name:<{NAME_WIDTH}} {shown(row):>6} {row.games:>5} {record:>9}"


async def ladder_embed(
    ladders: Ladders, guild_id: int, game: str, page: int, viewer: int, language: str = DEFAULT
) -> tuple[discord.Embed, int, int]:
    """Build one page of a ladder; return the embed, the page shown and the number of pages."""
    title = GAMES[game].title
    total, page, rows = await ladders.page(guild_id, game, page, PAGE_SIZE)
    pages = max(1, -(-total // PAGE_SIZE))
    embed = discord.Embed(title=gettext(language, "{game} ladder", game=title), colour=discord.Colour.blurple())
    if not rows:
        embed.description = gettext(
            language, "Nobody has finished a rated game of {game} on this server yet. Be the first!", game=title
        )
        return embed, 0, 1
    player, rating = gettext(language, "Player")[:NAME_WIDTH], gettext(language, "Rating")[:6]
    played, record = gettext(language, "Games")[:5], gettext(language, "W-L-D")[:9]
    header = f" {'#':>5} {player:<{NAME_WIDTH}} {rating:>6} {played:>5} {record:>9}"
    lines = [header]
    on_page = False
    for offset, row in enumerate(rows):
        me = row.user_id == viewer
        on_page = on_page or me
        lines.append(ladder_line(page * PAGE_SIZE + offset + 1, row, me=me))
    if not on_page:
        mine = await ladders.standing(guild_id, game, viewer)
        if mine is not None:
            lines.append(" " + "·" * 5)
            lines.append(ladder_line(mine[0], mine[1], me=True))
    embed.description = "```\n" + "\n".join(lines) + "\n```"
    embed.set_footer(
        text=gettext(
            language,
            "Page {page} of {pages} · {players} · rating = skill − 3×uncertainty; ? = provisional",
            page=page + 1,
            pages=pages,
            players=players_phrase(language, total),
        )
    )
    return embed, page, pages


def players_phrase(language: str, n: int) -> str:
    """Say ``n`` players: ``12 players``."""
    return ngettext(language, "{n} player", "{n} players", n)


LADDER = CustomId("ladder", Letters("game", 16), Number("page", 7), Choice("dir", ("prev", "next")))
LADDER_TEMPLATE = LADDER.template


def page_button(
    game: str, page: int, direction: str, *, disabled: bool = False, language: str = DEFAULT
) -> discord.ui.Button[Any]:
    """Previous or Next on a leaderboard; the page it leads to is in its custom ID."""
    return discord.ui.Button(
        label=gettext(language, "◀ Previous") if direction == "prev" else gettext(language, "Next ▶"),
        style=discord.ButtonStyle.secondary,
        custom_id=LADDER.build(game=game, page=page, dir=direction),
        disabled=disabled,
    )


def ladder_buttons(handler: PageHandler) -> type[discord.ui.DynamicItem[Any]]:
    """The dynamic item that routes every Previous / Next press to ``handler``; it works after restarts."""
    return persistent_button(
        LADDER,
        "LadderPageButton",
        lambda values: page_button(values["game"], values["page"], values["dir"]),
        lambda interaction, values: handler(interaction, values["game"], values["page"]),
    )


def pager(game: str, page: int, pages: int, language: str = DEFAULT) -> discord.ui.View | None:
    """Previous and Next buttons, or nothing for a single page."""
    if pages <= 1:
        return None
    view = routed_view()
    view.add_item(page_button(game, max(0, page - 1), "prev", disabled=page == 0, language=language))
    last = page >= pages - 1
    view.add_item(page_button(game, min(pages - 1, page + 1), "next", disabled=last, language=language))
    return view


class PublicLanguage(Protocol):
    """The language of a server's public messages (:meth:`bot.commands.ui.MatchUI.server_language`)."""

    async def server_language(self, interaction: discord.Interaction[Any]) -> str: ...


async def show_ladder(
    ladders: Ladders,
    interaction: discord.Interaction[Any],
    game: str,
    page: int,
    *,
    edit: bool,
    languages: PublicLanguage,
) -> None:
    """Answer with a ladder page, as a new message or by editing the one whose button was pressed.

    The page is public, so it is in the server's language, whoever asked or turned the page.
    """
    if interaction.guild_id is None:
        raise Refusal("Ladders belong to servers; use this command in a server.")
    if game not in GAMES:
        raise Refusal("There is no such game.")
    language = await languages.server_language(interaction)
    embed, page, pages = await ladder_embed(ladders, interaction.guild_id, game, page, interaction.user.id, language)
    view = pager(game, page, pages, language)
    if edit:
        await interaction.response.edit_message(embed=embed, view=view)
    elif view is None:
        await interaction.response.send_message(embed=embed)
    else:
        await interaction.response.send_message(embed=embed, view=view)


def outcome_line(record: MatchRecord, user_id: int | None = None, language: str = DEFAULT) -> str:
    """One line about a finished match, e.g. "#12 Pond · Ana beat Bo · 10–7 · 3 days ago"."""
    title = GAMES[record.game].title
    result = record.result or {}
    winners = set(result.get("winners", []))
    scores = result.get("scores", [])
    names = [escape_name(seat.name) for seat in record.players]
    if len(winners) == len(names):
        what = gettext(language, "{names} drew", names=formatting.and_list(names, language))
    else:
        won = [n for i, n in enumerate(names) if i in winners]
        lost = [n for i, n in enumerate(names) if i not in winners]
        what = gettext(
            language, "{winners} beat {losers}", winners=formatting.and_list(won, language), losers=", ".join(lost)
        )
    if user_id is not None:
        seat = record.seat_of(user_id)
        if seat is not None:
            if len(winners) == len(names):
                tag = gettext(language, "D")
            else:
                tag = gettext(language, "W") if seat in winners else gettext(language, "L")
            what = f"**{tag}** · {what}"
    score = "–".join(str(s) for s in scores)
    when = formatting.relative_time(record.finished_at or record.updated_at)
    unrated = "" if record.rated else " · " + gettext(language, "unrated")
    return f"`#{record.id}` {title} · {what} · {score} · {when}{unrated}"


class EventRecords(Protocol):
    """Events, as ``/stats`` and ``/history`` show them (:class:`bot.commands.tournaments.EventRecords`)."""

    async def results(self, guild_id: int, user_id: int, language: str) -> list[str]: ...

    async def labels(self, match_ids: list[int]) -> dict[int, str]: ...


def add_ladder_commands(
    tree: app_commands.CommandTree[Any],
    service: MatchService,
    ladders: Ladders,
    ui: MatchUI,
    replays: Replays,
    events: EventRecords | None = None,
    puzzles: PuzzleRecords | None = None,
) -> None:
    """Add ``/leaderboard``, ``/stats`` and ``/history`` to the bot's tree (with ``events``: event results too;
    with ``puzzles``: puzzle ratings too)."""

    @tree.command(name="leaderboard", description="Show this server's rating ladder for a game.")
    @app_commands.describe(
        game="Which game's ladder",
        page="Page number (default 1)",
        board="Ratings from games (default) or from puzzles",
    )
    @app_commands.choices(game=GAME_CHOICES, board=BOARD_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        interaction: discord.Interaction,
        game: str,
        page: app_commands.Range[int, 1, PAGE_MAX] = 1,
        board: str = "games",
    ) -> None:
        within(page, 1, PAGE_MAX, gettext(user_language(interaction), "The page"))
        if board != "puzzles" or puzzles is None:
            await show_ladder(ladders, interaction, game, page - 1, edit=False, languages=ui)
            return
        if interaction.guild_id is None:
            raise Refusal("Ladders belong to servers; use this command in a server.")
        if game not in GAMES:
            raise Refusal("There is no such game.")
        language = await ui.server_language(interaction)
        embed = await puzzle_ladder_embed(puzzles, interaction.guild_id, game, page - 1, language)
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @tree.command(name="stats", description="A player's ratings, ranks and recent results on this server.")
    @app_commands.describe(player="Whose stats (default: yours)")
    @app_commands.guild_only()
    async def stats(interaction: discord.Interaction, player: discord.User | None = None) -> None:
        who = player or interaction.user
        guild_id = interaction.guild_id or 0
        language = await ui.server_language(interaction)  # a public answer: the server's language
        heading = gettext(language, "{player}'s games", player=escape_name(who.display_name))
        embed = discord.Embed(title=heading, colour=discord.Colour.blurple())
        recent = await service.store.finished_matches(guild_id, user_id=who.id, limit=50)
        solving = {row.game: row for row in await puzzles.players_of(guild_id, who.id)} if puzzles else {}
        for name, spec in sorted(GAMES.items()):
            standing = await ladders.standing(guild_id, name, who.id)
            games = [m for m in recent if m.game == name][:5]
            if standing is None and not games and name not in solving:
                continue
            lines = []
            if standing is not None:
                rank, row = standing
                size = await ladders.store.ladder_size(guild_id, name)
                lines.append(
                    gettext(
                        language,
                        "Rating **{rating}** · rank {rank} of {size} · {wins} W, {losses} L, {draws} D",
                        rating=shown(row),
                        rank=rank,
                        size=size,
                        wins=row.wins,
                        losses=row.losses,
                        draws=row.draws,
                    )
                )
            else:
                lines.append(gettext(language, "No rated games yet."))
            if name in solving:
                lines.append(puzzle_line(solving[name], language))
            lines.extend(outcome_line(m, who.id, language) for m in games)
            embed.add_field(
                name=spec.title, value=formatting.clip("\n".join(lines), limits.EMBED_FIELD_VALUE_MAX), inline=False
            )
        entered = await events.results(guild_id, who.id, language) if events is not None else []
        if entered:
            embed.add_field(
                name=gettext(language, "Events"),
                value=formatting.clip("\n".join(entered), limits.EMBED_FIELD_VALUE_MAX),
            )
        if not embed.fields:
            embed.description = gettext(
                language, "{player} has not finished a game on this server yet.", player=escape_name(who.display_name)
            )
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @tree.command(name="history", description="Recent finished games in this channel or of a player.")
    @app_commands.describe(
        player="Only this player's games", match="Replay this game number, move by move, with its move list"
    )
    @app_commands.guild_only()
    async def history(
        interaction: discord.Interaction,
        player: discord.User | None = None,
        match: app_commands.Range[int, 1, limits.INTEGER_OPTION_MAX] | None = None,
    ) -> None:
        guild_id = interaction.guild_id or 0
        if match is not None:
            await replays.post(interaction, match)  # the animated replay, the record file and the step buttons
            return
        language = await ui.server_language(interaction)  # a public answer: the server's language
        if player is not None:
            records = await service.store.finished_matches(guild_id, user_id=player.id, limit=10)
            title = gettext(language, "{player}'s recent games", player=escape_name(player.display_name))
        else:
            records = await service.store.finished_matches(guild_id, channel_id=interaction.channel_id, limit=10)
            title = gettext(language, "Recent games in this channel")
        embed = discord.Embed(title=title, colour=discord.Colour.blurple())
        if records:
            lines = [outcome_line(r, player.id if player else None, language) for r in records]
            labels = await events.labels([r.id for r in records]) if events is not None else {}
            lines = [
                f"{line} · {escape_name(labels[r.id])}" if r.id in labels else line
                for r, line in zip(records, lines, strict=True)
            ]
            embed.description = formatting.clip("\n".join(lines), limits.EMBED_DESCRIPTION_MAX)
            embed.set_footer(text=gettext(language, "Replay a game with /history match:<number>"))
        else:
            embed.description = gettext(language, "No finished games yet.")
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())
