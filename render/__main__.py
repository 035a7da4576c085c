"""Replay a game from its moves and write its picture to a PNG file.

    python -m render GAME [--players 2] [--seed 7] [--option key=value ...]
                          [--names Ana Bo] [--out board.png] [--no-last] MOVE ...

Moves are the engine's texts, each one argument (quote them: ``"place b2"``).
``--names`` takes one name per player; anything after those is read as moves.
A bad game, option or move prints a readable message and exits with code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from engines import GAMES, GameError
from i18n import summary_text
from render import has_renderer, render


def parse_option(text: str) -> tuple[str, Any]:
    """Split ``key=value``; whole numbers become ints (the engines also accept their texts)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"options look like key=value, not {text!r}")
    value = value.strip()
    return key.strip(), int(value) if value.lstrip("-").isdigit() else value


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__.splitlines()[0])
    parser.add_argument("game", help=f"one of: {', '.join(sorted(GAMES))}")
    parser.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the engine's notation, e.g. 'place b2'")
    parser.add_argument("--players", type=int, default=None, help="number of players (default: the game's minimum)")
    parser.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    parser.add_argument("--option", type=parse_option, action="append", default=[], help="a game option, key=value")
    parser.add_argument("--names", nargs="+", default=None, help="players' display names, in seat order")
    parser.add_argument("--out", default="board.png", help="the PNG file to write (default board.png)")
    parser.add_argument("--no-last", action="store_true", help="do not mark the last move")
    # Intermixed parsing lets the moves follow the options, as in the usage line.
    args = parser.parse_intermixed_args(argv)

    spec = GAMES.get(args.game.lower())
    if spec is None:
        print(f"Unknown game {args.game!r}; the games are: {', '.join(sorted(GAMES))}.", file=sys.stderr)
        return 2
    if not has_renderer(spec.name):
        print(f"{spec.title} has no picture yet.", file=sys.stderr)
        return 2
    players = args.players if args.players is not None else spec.min_players
    if args.names and len(args.names) > players:
        # ``--names Ana Bo "place b2"``: --names takes one name per player; the rest are moves.
        args.moves = args.names[players:] + args.moves
        args.names = args.names[:players]
    try:
        state = spec.new(players=players, seed=args.seed, **dict(args.option))
    except GameError as error:
        print(f"Cannot start {spec.title}: {error}", file=sys.stderr)
        return 2
    for number, text in enumerate(args.moves, start=1):
        try:
            state = state.play(text)
        except GameError as error:
            print(f"Move {number} ({text!r}): {error}", file=sys.stderr)
            return 2
    png = render(state, players=args.names, last_move=not args.no_last)
    try:
        with open(args.out, "wb") as out:
            out.write(png)
    except OSError as error:
        print(f"Cannot write {args.out}: {error.strerror}.", file=sys.stderr)
        return 2
    print(f"{args.out}: {len(png):,} bytes after {len(args.moves)} moves. {summary_text(state)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
