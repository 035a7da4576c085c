"""Replay a move list and print the position: ``python -m engines GAME [options] MOVE ...``.

Examples::

    python -m engines pond -o variant=mini "place b2" "place c2"
    python -m engines pond --moves-file game.txt
    python -m engines --list

It prints the position as text, the scores, whose turn it is and the legal
moves, or the readable error for the first bad move (exit status 2).
"""

from __future__ import annotations

import argparse
import json
import sys

from engines import GAMES, GameError
from engines.cli import add_game_arguments, new_game, player_count
from i18n import result_text, summary_text  # the command line speaks like the bot (i18n is pure)


def main(argv: list[str] | None = None) -> int:
    """Run the command-line tool; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m engines", description="Replay a game and show the position.")
    parser.add_argument("game", nargs="?", help=f"one of: {', '.join(sorted(GAMES))}")
    parser.add_argument("moves", nargs="*", help="moves in the game's notation, each quoted")
    add_game_arguments(parser)
    parser.add_argument("--moves-file", help="read further moves from this file, one per line ('#' comments)")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    parser.add_argument("--list", action="store_true", help="list the games and their options")
    args = parser.parse_intermixed_args(argv)

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
    moves = list(args.moves)
    if args.moves_file:
        with open(args.moves_file, encoding="utf-8") as handle:
            moves += [line.split("#")[0].strip() for line in handle if line.split("#")[0].strip()]
    try:
        state = new_game(spec, args)
    except GameError as error:
        print(f"Cannot start the game: {error}", file=sys.stderr)
        return 2
    for number, text in enumerate(moves, 1):
        try:
            state = state.play(text)
        except GameError as error:
            print(state.board_text())
            print(f"Move {number} ({text!r}) was refused: {error}", file=sys.stderr)
            return 2
        print(f"{number:>3}. {text:<14} {summary_text(state)}")
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


if __name__ == "__main__":
    sys.exit(main())
