"""How much of its time the hard level uses: its mean share of the budget per move, per game.

For each game, one game is played from a fixed seed: seat 0 is the hard level thinking for ``--budgets`` seconds
a move (with a clock and its kept tree, as in the bot), the other seats play easy.  Reported per game and
budget: the mean and median share of the budget hard's search used, how many moves its search solved (a root
whose value more search cannot change: stopping early is then right), and the mean share over the moves it did
not solve.

    python -m bench.budget_share [--budgets 0.3 1.0] [--moves 20]
"""

from __future__ import annotations

import argparse
import statistics
import time

from ai import SearchMemory, analyse, choose_move
from engines import GAMES


def shares(game: str, budget: float, moves: int, seed: int = 7) -> dict[str, float | int | str]:
    """Play ``moves`` of hard's moves in one game of ``game``; return the shares of ``budget`` they used."""
    state = GAMES[game].new(seed=seed)
    memory = SearchMemory()
    used: list[float] = []
    unsolved: list[float] = []
    solved = ply = 0
    while state.outcome() is None and len(used) < moves:
        if state.to_move == 0 and len(state.legal_moves()) > 1:
            started = time.perf_counter()
            found = analyse(
                state, level="hard", seed=ply, time_limit=budget, clock=time.perf_counter, memory=memory, key=game
            )
            share = (time.perf_counter() - started) / budget
            used.append(share)
            solved += found.solved
            if not found.solved:
                unsolved.append(share)
            move = found.move
        else:
            move = choose_move(state, level="easy", seed=ply)
        state = state.play(move)
        ply += 1
    return {
        "game": game,
        "budget_s": budget,
        "moves": len(used),
        "mean_share": round(statistics.mean(used), 2),
        "median_share": round(statistics.median(used), 2),
        "solved": solved,
        "unsolved_mean_share": round(statistics.mean(unsolved), 2) if unsolved else 0.0,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budgets", type=float, nargs="+", default=[0.3, 1.0])
    parser.add_argument("--moves", type=int, default=20, help="hard's moves measured per game and budget")
    args = parser.parse_args(argv)
    for game in sorted(GAMES):
        for budget in args.budgets:
            row = shares(game, budget, args.moves)
            print(
                f"{game:7s} {budget:.1f} s: mean share {row['mean_share']:.2f}, median {row['median_share']:.2f}, "
                f"solved {row['solved']}/{row['moves']}, unsolved mean {row['unsolved_mean_share']:.2f}"
            )


if __name__ == "__main__":
    main()
