"""What every game's commands share: ``start``, the move commands, and board, resign, claim, rules, cancel.

:func:`add_start_command` gives every game the same ``start``: its opponent(s)
(naming Tabula plays the computer), ``difficulty`` for computer seats, for games
of more than two players the number of extra computer seats, and the game's own
rule options (a :class:`StartOption` each, built from the engine's option spec
with :meth:`StartOption.from_spec`, so its default, choices and bounds live only in the engine).

:func:`add_move_command` makes a move command from one kind of move the engine describes
(:class:`engines.moves.MoveKind`): an option per field, in the engine's order, each with its autocomplete
(the values :meth:`~engines.moves.MoveForm.complete` offers after the other options, or the game's own
labels for them), and the move text the engine composes from the options; the engine reads it.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import limits
from bot.commands.ui import choices, user_language, within
from bot.core.service import AI_LEVELS, Refusal, level_list
from engines import GAMES
from engines.base import OptionSpec
from engines.moves import MoveForm

if TYPE_CHECKING:
    from bot.commands.ui import MatchUI

OPPONENT_NAMES = ("opponent", "opponent2", "opponent3", "opponent4", "opponent5")


DIFFICULTIES = [
    app_commands.Choice(name="Easy: quick and forgiving", value="easy"),
    app_commands.Choice(name="Medium: a steady, quick player", value="medium"),
    app_commands.Choice(name="Hard: thinks about three seconds", value="hard"),
]


def opponents_or_computer(
    interaction: discord.Interaction,
    opponents: Sequence[discord.abc.User],
    difficulty: str | None,
    extra_computers: int = 0,
) -> tuple[list[discord.abc.User], list[str]]:
    """Split a start command's opponents into people and computer seats.

    Naming Tabula itself as an opponent, or giving a difficulty without naming a person, seats the
    computer; with no difficulty it plays at medium.  ``extra_computers`` adds more computer seats
    (Azul), at the given difficulty.
    """
    me = interaction.client.user
    people = [o for o in opponents if me is None or o.id != me.id]
    level = difficulty or "medium"
    named_me = len(opponents) - len(people)
    count = named_me + extra_computers
    if difficulty is not None and not named_me:
        if people and not extra_computers:
            raise Refusal("Pick either a person to challenge or a difficulty to play me, not both.")
        if not people:
            count += 1  # a difficulty alone is a challenge to me
    computers = [level] * count
    if not people and not computers:
        raise Refusal("Name an opponent, or pick a difficulty to play against me.")
    return people, computers


@dataclass(frozen=True)
class StartOption:
    """One rule option of a game's ``start`` command.

    ``annotation`` is the parameter's type as discord.py reads it (``str``, or
    ``app_commands.Range[int, 3, 12]`` for a bounded number); ``bounds`` repeats a
    number's range so the value is checked again in code (clients may ignore the schema).
    """

    name: str
    annotation: Any
    default: Any
    description: str
    choices: Sequence[app_commands.Choice[Any]] = ()
    bounds: tuple[int, int] | None = None

    @classmethod
    def from_spec(cls, game: str, name: str, description: str, labels: Mapping[Any, str] | None = None) -> StartOption:
        """Build the option from the engine's :class:`~engines.base.OptionSpec` ``name``, repeating none of its numbers.

        The default comes from the engine; an option with choices offers every one of them, in the
        engine's order, each named by ``labels`` (which must label exactly the engine's choices); a
        bounded number becomes ``Range[int, minimum, maximum]``, checked again in code.  ``description``
        may name ``{minimum}``, ``{maximum}`` and ``{default}``.
        """
        spec = option_spec(game, name)
        text = description.format(minimum=spec.minimum, maximum=spec.maximum, default=spec.default)
        if spec.choices is not None:
            if labels is None or set(labels) != set(spec.choices):
                raise ValueError(f"{game}'s option {name!r} needs a label for each of {spec.choices}, no more.")
            offered = [app_commands.Choice(name=labels[value], value=value) for value in spec.choices]
            return cls(name, type(spec.default), spec.default, text, offered)
        if spec.minimum is not None and spec.maximum is not None:
            ranged = app_commands.Range[int, spec.minimum, spec.maximum]
            return cls(name, ranged, spec.default, text, bounds=(spec.minimum, spec.maximum))
        raise ValueError(f"{game}'s option {name!r} has neither choices nor bounds to offer.")


def option_spec(game: str, name: str) -> OptionSpec:
    """Return the engine's spec of ``game``'s option ``name`` (``KeyError`` if the engine has none)."""
    for spec in GAMES[game].options:
        if spec.name == name:
            return spec
    raise KeyError(f"{game} has no option {name!r}")


def add_start_command(
    group: app_commands.Group,
    game: str,
    ui: MatchUI,
    *,
    description: str,
    opponent_help: str,
    options: Sequence[StartOption] = (),
    to_options: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> app_commands.Command[Any, ..., None]:
    """Add ``start`` to a game's group: opponents, ``difficulty``, extra computer seats and ``options``.

    ``to_options`` turns the chosen rule options into the engine's options (by default: those
    that differ from their defaults), so a challenge names only the choices made.
    """
    spec = GAMES[game]
    seats = spec.max_players - 1
    extra = seats if spec.max_players > 2 else 0  # computer seats the challenger may add beyond the opponents
    member = discord.Member | None
    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    ]
    described = {}
    for index, name in enumerate(OPPONENT_NAMES[:seats]):
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=member))
        described[name] = (
            opponent_help if index == 0 else f"Opponent number {index + 1}, for {index + 2} players (optional)"
        )
    for option in options:
        parameters.append(
            inspect.Parameter(
                option.name, inspect.Parameter.KEYWORD_ONLY, default=option.default, annotation=option.annotation
            )
        )
        described[option.name] = option.description
    parameters.append(
        inspect.Parameter("difficulty", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str | None)
    )
    described["difficulty"] = "The computer's level: play me at it (or name me as the opponent)"
    if extra:
        counted = app_commands.Range[int, 0, extra]
        parameters.append(inspect.Parameter("computers", inspect.Parameter.KEYWORD_ONLY, default=0, annotation=counted))
        described["computers"] = f"How many more seats the computer fills (0 to {extra})"
    # With several computer seats, each after the first may have its own level ("Tabula B (hard)").
    more_levels = [f"difficulty{n}" for n in range(2, extra + 1)] if extra > 1 else []
    for number, name in enumerate(more_levels, start=2):
        parameters.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=str | None))
        described[name] = f"The level of computer seat number {number} (default: difficulty)"

    async def start(interaction: discord.Interaction, **values: Any) -> None:
        named = [values.get(name) for name in OPPONENT_NAMES[:seats]]
        chosen = {}
        for option in options:
            value = values.get(option.name, option.default)
            if option.bounds is not None and value is not None:
                within(value, *option.bounds, f"`{option.name}`")
            chosen[option.name] = value
        computers = within(int(values.get("computers") or 0), 0, extra, "`computers`") if extra else 0
        difficulty = values.get("difficulty")
        levels = [difficulty, *(values.get(name) for name in more_levels)]
        if any(level is not None and level not in AI_LEVELS for level in levels):
            raise Refusal("Difficulty must be one of: {levels}.", levels=level_list)
        people, computer_levels = opponents_or_computer(interaction, [o for o in named if o], difficulty, computers)
        computer_levels = [levels[i] or level if i < len(levels) else level for i, level in enumerate(computer_levels)]
        if to_options is not None:
            engine_options = to_options(chosen)
        else:
            engine_options = {k: v for k, v in chosen.items() if v != next(o.default for o in options if o.name == k)}
        await ui.challenge(interaction, game, people, engine_options, computer_levels)

    start.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    start.__discord_app_commands_param_description__ = described  # type: ignore[attr-defined]
    choices: dict[str, Sequence[app_commands.Choice[Any]]] = {"difficulty": DIFFICULTIES}
    choices.update({name: DIFFICULTIES for name in more_levels})
    choices.update({o.name: o.choices for o in options if o.choices})
    start.__discord_app_commands_param_choices__ = {k: list(v) for k, v in choices.items()}  # type: ignore[attr-defined]
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="start", description=description, callback=start, parent=group
    )
    group.add_command(command)
    return command


def typed_option(interaction: discord.Interaction, name: str) -> str:
    """Return what the player has typed so far in another option of the command (for autocomplete)."""
    return str(getattr(interaction.namespace, name, "") or "")


def new_group(game: str, description: str) -> app_commands.Group:
    """Create a game's command group, usable only in servers."""
    return app_commands.Group(name=game, description=description, guild_only=True)


def add_common_commands(group: app_commands.Group, game: str, ui: MatchUI, *, rules_text: str) -> None:
    """Add the subcommands that work the same way in every game; ``rules_text`` answers ``rules``."""
    title = GAMES[game].title

    @group.command(name="board", description=f"Show your {title} game's board again (in a game's thread: that game).")
    async def board(interaction: discord.Interaction) -> None:
        await ui.board(interaction, game)

    @group.command(name="resign", description=f"Resign your {title} game (in a game's thread: that game).")
    async def resign(interaction: discord.Interaction) -> None:
        await ui.resign(interaction, game)

    @group.command(name="claim", description="Claim the win when your opponent let their turn deadline pass.")
    async def claim(interaction: discord.Interaction) -> None:
        await ui.claim(interaction, game)

    @group.command(name="rules", description=f"How to play {title}, briefly (only you see it).")
    async def rules(interaction: discord.Interaction) -> None:
        await ui.rules(interaction, game, rules_text)

    @group.command(name="cancel", description="Withdraw your challenge, or cancel this thread's game (Manage Server).")
    async def cancel(interaction: discord.Interaction) -> None:
        await ui.cancel(interaction)


def labelled(items: Iterable[tuple[str, str]], typed: str) -> list[app_commands.Choice[str]]:
    """Return at most 25 choices of ``(value, label)``: values starting with what was typed, then labels holding it."""
    needle = typed.strip().lower()
    unique = dict(items)  # first label wins; order kept
    starting = [value for value in unique if value.startswith(needle)]
    containing = [value for value, label in unique.items() if value not in starting and needle in label.lower()]
    return [
        app_commands.Choice(name=unique[value][: limits.CHOICE_NAME_MAX], value=value)
        for value in (starting + containing)[: limits.AUTOCOMPLETE_CHOICES_MAX]
    ]


def move_form(game: str) -> MoveForm:
    """Return the engine's description of ``game``'s moves."""
    form = GAMES[game].moves
    if form is None:
        raise LookupError(f"{game}'s engine does not describe its moves")
    return form


# A game's own autocomplete for one field: from the state, the other fields as typed (those that narrow this
# one), what was typed in this one and the asker's language, the choices with labels that say what each does.
Labels = Callable[[Any, Mapping[str, str], str, str], list[app_commands.Choice[str]]]


@dataclass(frozen=True)
class MoveOption:
    """How one field of a move shows as a slash option.

    ``longest`` bounds the text a player may type; ``name`` is the option's name when it is not the
    field's (the option ``color`` for Azul's field ``colour``); ``labels`` replaces the plain list of
    values with the game's own labelled choices.
    """

    description: str
    longest: int
    name: str | None = None
    labels: Labels | None = None


def add_move_command(
    group: app_commands.Group,
    game: str,
    ui: MatchUI,
    kind: str,
    *,
    description: str,
    options: Mapping[str, MoveOption],
    name: str | None = None,
) -> app_commands.Command[Any, ..., None]:
    """Add the command playing the engine's ``kind`` of move: one option per field, each autocompleted.

    The command is named ``name`` (default: the kind's), and plays the text the engine composes from
    the options as typed (:meth:`~engines.moves.MoveForm.text`), so the engine reads it and names any fault.
    """
    form = move_form(game)
    fields = form.kind(kind).fields
    shown = {field.name: options[field.name].name or field.name for field in fields}
    # A Python keyword cannot name a parameter ("from"): the parameter takes a trailing underscore and the
    # option keeps the name.
    params = {field: f"{option}_" if keyword.iskeyword(option) else option for field, option in shown.items()}
    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    ]
    for field in fields:
        text: Any = app_commands.Range[str, 1, options[field.name].longest]
        default: Any = inspect.Parameter.empty
        if field.optional:
            text, default = text | None, None
        parameters.append(
            inspect.Parameter(params[field.name], inspect.Parameter.KEYWORD_ONLY, default=default, annotation=text)
        )

    async def play(interaction: discord.Interaction, **values: Any) -> None:
        given = {field.name: values.get(params[field.name]) or "" for field in fields}
        await ui.play(interaction, game, form.text(kind, given))

    play.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    play.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        params[field.name]: options[field.name].description for field in fields
    }
    play.__discord_app_commands_param_rename__ = {  # type: ignore[attr-defined]
        param: shown[field] for field, param in params.items() if param != shown[field]
    }
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=name or kind, description=description, callback=play, parent=group
    )
    for field in fields:
        command.autocomplete(params[field.name])(
            _completer(ui, game, kind, field.name, shown, options[field.name].labels)
        )
    group.add_command(command)
    return command


def _completer(
    ui: MatchUI, game: str, kind: str, field: str, shown: Mapping[str, str], labels: Labels | None
) -> Callable[[discord.Interaction, str], Any]:
    """Return the autocomplete of one field: the asker's legal choices after what the other options say."""
    form = move_form(game)
    narrowing = form.kind(kind).narrowing(field)

    async def complete(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await ui.my_position(interaction, game)
        if state is None:
            return []
        given = {other: typed_option(interaction, shown[other]) for other in narrowing}
        if labels is not None:
            return labels(state, given, typed, user_language(interaction))
        return choices(list(form.complete(state, kind, given)[field]), typed)

    return complete
