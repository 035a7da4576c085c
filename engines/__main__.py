"""Replay a move list and print the position: ``python -m engines GAME [options] MOVE ...``.

Examples::

    python -m engines pond -o variant=mini "place b2" "place c2"
    python -m engines pond --moves-file game.txt
    python -m engines --moves-file match-12.txt
    python -m engines --list

It prints the position as text, the scores, whose turn it is and the legal
moves, or the readable error for the first bad move (exit status 2).  A moves
file may be a match record (:mod:`engines.record`): its header sets the game,
options, seed and players, so the replay is the recorded game; options given
on the command line too must agree with it.  A recorded result that the replay
does not reach is an error.
"""

from __future__ import annotations

import argparse
import json
import sys

from engines import GAMES, GameError
from engines.cli import add_game_arguments, new_game, player_count
from engines.record import GameRecord, RecordError, apply_ply, merge_settings, parse_record, ply_text, result_of
from i18n import result_text, summary_text  # the command line speaks like the bot (i18n is pure)


def main(argv: list[str] | None = None) -> int:
    """Run the command-line tool; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engines", description="Replay a game and show the position.")
    parser.add_argument("game", nargs="?", help=f"one of: {', '.join(sorted(GAMES))}")
    parser.add_argument("moves", nargs="*", help="moves in the game's notation, each quoted")
    add_game_arguments(parser)
    parser.add_argument(
        "--moves-file", help="read further moves from this file, one per line ('#' comments), or a match record"
    )
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    parser.add_argument("--list", action="store_true", help="list the games and their options")
    # No defaults of their own: a record file's header fills in what the command line leaves out.
    parser.set_defaults(seed=None, option=None)
    args = parser.parse_intermixed_args(argv)
    record = read_moves_file(args)
    if record is None:
        return 2
    args.seed = 0 if args.seed is None else args.seed
    args.option = args.option or []

    if args.list or not args.game:
        for name, spec in sorted(GAMES.items()):
            print(f"{name}: {spec.title}, {player_count(spec)}")
            for option in spec.options:
                print(f"  {option.name} (default {option.default!r}): {option.description}")
        return 0 if args.list else 2
    found = GAMES.get(args.game.lower())
    if found is None:
        print(f"Unknown game {args.game!r}; choose one of: {', '.join(sorted(GAMES))}.", file=sys.stderr)
        return 2
    spec = found
    moves = [*args.moves, *record.plies]
    try:
        state = new_game(spec, args)
    except GameError as error:
        print(f"Cannot start the game: {error}", file=sys.stderr)
        return 2
    for number, ply in enumerate(moves, 1):
        text = ply_text(ply)
        try:
            state = apply_ply(state, ply)
        except GameError as error:
            print(state.board_text())
            print(f"Move {number} ({text!r}) was refused: {error}", file=sys.stderr)
            return 2
        print(f"{number:>3}. {text:<14} {summary_text(state)}")
    if record.result is not None and not args.moves:
        reached = result_of(state)
        if reached is None or (reached.winners, reached.scores) != (record.result.winners, record.result.scores):
            print(f"{args.moves_file}: the replay does not end with the recorded result.", file=sys.stderr)
            return 2
    if args.json:
        print(json.dumps(state.to_json(), indent=2))
        return 0
    print(state.board_text())
    names = spec.seat_names(state.players)
    print("scores: " + ", ".join(f"{names[i]} {score}" for i, score in enumerate(state.scores())))
    outcome = state.outcome()
    if outcome is not None or state.to_move is None:
        print(f"game over: {result_text(state) if outcome else 'no move left'}")
    else:
        print(f"to move: {names[state.to_move]}")
        legal = state.legal_moves()
        print(f"legal moves ({len(legal)}): " + ", ".join(state.move_text(m) for m in legal))
    return 0


def read_moves_file(args: argparse.Namespace) -> GameRecord | None:
    """Read ``args.moves_file`` (if any) and fill ``args`` from its header; ``None`` after printing why not."""
    if not args.moves_file:
        return GameRecord()
    try:
        with open(args.moves_file, encoding="utf-8") as handle:
            record = parse_record(handle.read())
    except OSError as error:
        print(f"Cannot read {args.moves_file}: {error.strerror}.", file=sys.stderr)
        return None
    except RecordError as error:
        print(f"{args.moves_file}: {error}", file=sys.stderr)
        return None
    problem = settings_from_record(args, record)
    if problem:
        print(f"{args.moves_file}: {problem}", file=sys.stderr)
        return None
    return record


def settings_from_record(args: argparse.Namespace, record: GameRecord) -> str | None:
    """Fill the game, seed, players and options in ``args`` from ``record``'s header; say what disagrees."""
    try:
        settings = merge_settings(
            record, game=args.game, seed=args.seed, players=args.players, options=dict(args.option or [])
        )
    except RecordError as error:
        return str(error)
    args.game, args.seed, args.players = settings.game, settings.seed, settings.players
    args.option = list(settings.options.items())
    return None


if __name__ == "__main__":
    sys.exit(main())
