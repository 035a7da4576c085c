"""Replay a game from its moves and write its picture to a PNG file.

    python -m render GAME [--players 2] [--seed 7] [-o key=value ...]
                          [--names Ana Bo] [--out board.png] [--no-last] [--locale ru] MOVE ...

Moves are the engine's texts, each one argument (quote them: ``"place b2"``).  The game
options are those of ``python -m engines`` (``--list`` there shows them).  ``--names`` takes
exactly one name per seat; end the names with another option, or with ``--`` before the moves.
A bad game, option, name list or move prints a readable message and exits with code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from engines import GAMES, GameError
from engines.cli import add_game_arguments, new_game, players
from i18n import seat_labels, summary_text
from i18n.catalog import SUPPORTED, pgettext
from render import has_renderer, render


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__.splitlines()[0])
    parser.add_argument("game", help=f"one of: {', '.join(sorted(GAMES))}")
    parser.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the engine's notation, e.g. 'place b2'")
    add_game_arguments(parser)
    parser.add_argument("--names", nargs="+", default=None, help="players' display names, one per seat in order")
    parser.add_argument("--out", default="board.png", help="the PNG file to write (default board.png)")
    parser.add_argument("--no-last", action="store_true", help="do not mark the last move")
    parser.add_argument("--locale", default="en", choices=SUPPORTED, help="the language of the picture (default en)")
    # Intermixed parsing lets the moves follow the options, as in the usage line.
    args = parser.parse_intermixed_args(argv)

    spec = GAMES.get(args.game.lower())
    if spec is None:
        print(f"Unknown game {args.game!r}; the games are: {', '.join(sorted(GAMES))}.", file=sys.stderr)
        return 2
    if not has_renderer(spec.name):
        print(f"{spec.title} has no picture yet.", file=sys.stderr)
        return 2
    seats = players(spec, args)
    if args.names is not None and len(args.names) != seats:
        given = ", ".join(repr(name) for name in args.names)
        print(
            f"--names needs one name per seat ({seats} players), but got {len(args.names)}: {given}. "
            "End the names with another option, or with -- before the moves.",
            file=sys.stderr,
        )
        return 2
    try:
        state = new_game(spec, args)
    except GameError as error:
        print(f"Cannot start {spec.title}: {error}", file=sys.stderr)
        return 2
    names = list(args.names) if args.names is not None else seat_labels(state, args.locale)
    for number, text in enumerate(args.moves, start=1):
        try:
            state = state.play(text)
        except GameError as error:
            print(f"Move {number} ({text!r}): {error}", file=sys.stderr)
            return 2
    png = render(state, players=args.names, last_move=not args.no_last, locale=args.locale)
    try:
        with open(args.out, "wb") as out:
            out.write(png)
    except OSError as error:
        print(f"Cannot write {args.out}: {error.strerror}.", file=sys.stderr)
        return 2
    moves = f"{len(args.moves)} move{'' if len(args.moves) == 1 else 's'}"
    summary = f" {summary_text(state, names, args.locale)}" if args.moves else ""
    if state.outcome() is None and state.to_move is not None:
        summary += " " + pgettext(args.locale, "board", "{name} to move.", name=names[state.to_move])
    print(f"{args.out}: {len(png):,} bytes after {moves}.{summary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
