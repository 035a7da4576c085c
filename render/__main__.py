"""Replay a game from its moves and write its picture to a PNG file, or the whole game as an animated GIF.

    python -m render GAME [--players 2] [--seed 7] [-o key=value ...]
                          [--names Ana Bo] [--out board.png] [--no-last] [--locale ru] MOVE ...
    python -m render GAME --replay replay.gif MOVE ...
    python -m render --moves-file match.txt --replay replay.gif
    python -m render --gallery DIR [--quick]

``--gallery DIR`` writes every game's boards in the situations that matter, with an ``index.html`` that shows
them at phone width (:mod:`render.gallery`); ``--quick`` writes a handful.

``--replay FILE`` writes every position as one animated GIF (:mod:`render.replay`) instead of
the final board.  ``--moves-file`` reads moves, or a match record whose header sets the game,
options, seed, players and names (:mod:`engines.record`); options given here must agree with it.

Moves are the engine's texts, each one argument (quote them: ``"place b2"``).  The game
options are those of ``python -m engines`` (``--list`` there shows them).  ``--names`` takes
exactly one name per seat; end the names with another option, or with ``--`` before the moves.
A bad game, option, name list or move prints a readable message and exits with code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engines import GAMES, GameError, GameState
from engines.__main__ import read_moves_file
from engines.cli import add_game_arguments, new_game, players
from engines.record import apply_ply, ply_text
from i18n import seat_labels, summary_text
from i18n.catalog import SUPPORTED, pgettext
from render import has_renderer, render
from render.gallery import scenes, write_gallery
from render.replay import replay_gif


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = argparse.ArgumentParser(prog="python -m render", description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", help=f"one of: {', '.join(sorted(GAMES))} (or from --moves-file)")
    parser.add_argument("moves", nargs="*", metavar="MOVE", help="moves in the engine's notation, e.g. 'place b2'")
    add_game_arguments(parser)
    parser.add_argument("--names", nargs="+", default=None, help="players' display names, one per seat in order")
    parser.add_argument("--out", default="board.png", help="the PNG file to write (default board.png)")
    parser.add_argument("--no-last", action="store_true", help="do not mark the last move")
    parser.add_argument("--locale", default="en", choices=SUPPORTED, help="the language of the picture (default en)")
    parser.add_argument("--replay", metavar="GIF", help="write the whole game as an animated GIF to this file")
    parser.add_argument("--moves-file", help="read further moves from this file, or a match record with its header")
    parser.add_argument("--gallery", metavar="DIR", help="write every game's boards and an index.html to DIR")
    parser.add_argument("--quick", action="store_true", help="with --gallery: only a handful of boards")
    # No defaults of their own: a record file's header fills in what the command line leaves out.
    parser.set_defaults(seed=None, option=None)
    # Intermixed parsing lets the moves follow the options, as in the usage line.
    args = parser.parse_intermixed_args(argv)
    if args.gallery:
        return write_gallery_command(Path(args.gallery), quick=args.quick)
    record = read_moves_file(args)
    if record is None:
        return 2
    if args.names is None and record.names:
        args.names = list(record.names)
    args.seed = 0 if args.seed is None else args.seed
    args.option = args.option or []
    if args.game is None:
        parser.error("name the game, or give a --moves-file whose header names it")

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
    plies = [*args.moves, *record.plies]
    states: list[GameState] = [state]
    for number, ply in enumerate(plies, start=1):
        try:
            state = apply_ply(state, ply)
        except GameError as error:
            print(f"Move {number} ({ply_text(ply)!r}): {error}", file=sys.stderr)
            return 2
        states.append(state)
    if args.replay:
        path = args.replay
        data = replay_gif(states, players=args.names, moves=[ply_text(ply) for ply in plies], locale=args.locale)
    else:
        path = args.out
        data = render(state, players=args.names, last_move=not args.no_last, locale=args.locale)
    try:
        with open(path, "wb") as out:
            out.write(data)
    except OSError as error:
        print(f"Cannot write {path}: {error.strerror}.", file=sys.stderr)
        return 2
    moves = f"{len(plies)} move{'' if len(plies) == 1 else 's'}"
    summary = f" {summary_text(state, names, args.locale)}" if plies else ""
    if state.outcome() is None and state.to_move is not None:
        summary += " " + pgettext(args.locale, "board", "{name} to move.", name=names[state.to_move])
    print(f"{path}: {len(data):,} bytes after {moves}.{summary}")
    return 0


def write_gallery_command(directory: Path, *, quick: bool) -> int:
    """Write the gallery to ``directory``; return the exit code."""
    try:
        paths = write_gallery(directory, scenes(quick=quick))
    except OSError as error:
        print(f"Cannot write the gallery to {directory}: {error.strerror}.", file=sys.stderr)
        return 2
    size = sum(path.stat().st_size for path in paths)
    print(f"{directory / 'index.html'}: {len(paths)} boards, {size / 1024 / 1024:.1f} MB.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
