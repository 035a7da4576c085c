"""What ``python -m engines`` and ``python -m render`` share: the options that set up a game.

Both tools take a game name, ``--players``, ``--seed`` and ``-o/--option key=value``, and
start the game the same way, so a position replayed by one is the position drawn by the other.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from engines.base import GameSpec, GameState


def parse_option(text: str) -> tuple[str, Any]:
    """Split ``key=value``; values that read as JSON (numbers, lists, objects) are decoded.

    >>> parse_option("variant=mini")
    ('variant', 'mini')
    >>> parse_option("size = 6")
    ('size', 6)
    >>> parse_option("weights=[1, 2, 3]")
    ('weights', [1, 2, 3])
    """
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"options look like key=value, not {text!r}")
    try:
        decoded: Any = json.loads(value)
    except json.JSONDecodeError:
        decoded = value.strip()
    return key.strip(), decoded


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--players``, ``--seed`` and ``-o/--option`` to ``parser``."""
    parser.add_argument("--players", type=int, default=None, help="number of players (default: the game's minimum)")
    parser.add_argument("--seed", type=int, default=0, help="seed for the game's randomness (default 0)")
    parser.add_argument(
        "--option", "-o", action="append", type=parse_option, default=[], metavar="KEY=VALUE", help="a game option"
    )


def new_game(spec: GameSpec, args: argparse.Namespace) -> GameState:
    """Start ``spec``'s game from the parsed arguments; raises :class:`~engines.base.GameError` if they are bad."""
    return spec.new(players=players(spec, args), seed=args.seed, **dict(args.option))


def players(spec: GameSpec, args: argparse.Namespace) -> int:
    """The number of players asked for, or the game's minimum."""
    return args.players if args.players is not None else spec.min_players


def player_count(spec: GameSpec) -> str:
    """Say how many play ``spec``: "2 players" or "2-4 players"."""
    if spec.min_players == spec.max_players:
        return f"{spec.min_players} players"
    return f"{spec.min_players}-{spec.max_players} players"
