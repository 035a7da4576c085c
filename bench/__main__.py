"""Run every benchmark and print one table: ``python -m bench [--quick] [--skip load]``.

Per game: random-play plies per second and render time (median, p95) with PNG
size; animated replays' build time and size (and the longest games'); the
leaderboard page time; the full turn path under load (latency,
moves per second, event-loop stalls, memory per match, database bytes per
finished match); many matches in few channels, each opening its own thread while moves
arrive; the same turn path on SQLite and PostgreSQL side by side, and two shard
processes sharing one PostgreSQL, one killed and restarted; the replay step buttons' answer
time while 100 matches are played; Swiss pairing time by field size and a whole simulated Swiss
event with a restart in the middle (``bench.tournament_event``); the computer's review of a
game of each (``bench.analysis``);
and, where present, the AI tournament.  Results are also
written as JSON under ``bench/results/`` so runs can be compared.
``--quick`` runs a reduced version in under a minute on two cores: it leaves out the
tournament and the heavy scenarios (PostgreSQL, shards, replay buttons, reviews), which
``python -m bench --only postgres --only shards --only buttons --only analysis`` runs alone.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import time
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"


def section(title: str) -> None:
    print(f"\n== {title} " + "=" * max(0, 70 - len(title)))


def engines(quick: bool) -> list[dict[str, Any]]:
    from bench import engine_speed

    rows = engine_speed.run(seconds=0.3 if quick else 3.0)
    section("engines: random play, one core (a ply = legal_moves() + play())")
    for row in rows:
        config = " ".join(f"{k}={v}" for k, v in row["config"].items()) or "default"
        print(f"{row['game']:<8} {row['players']}p {config:<24} {row['plies_per_second']:>10,} plies/s")
    return rows


def renders(quick: bool) -> list[dict[str, Any]]:
    from bench import render_speed

    rows = render_speed.run(count=30 if quick else 200)
    section("rendering: draw + encode one board")
    for row in rows:
        config = " ".join(f"{k}={v}" for k, v in row.get("config", {}).items()) or "default"
        print(
            f"{row['game']:<8} {row['players']}p {config:<24} median {row['median_ms']:>6} ms  "
            f"p95 {row['p95_ms']:>6} ms  PNG median {row['median_kb']:>5} KB  max {row['max_kb']:>5} KB"
        )
    return rows


def replays(quick: bool) -> list[dict[str, Any]]:
    from bench import replay_speed

    rows = replay_speed.run(quick=quick)
    section("replays: one animated GIF per game (goals: < 2 s on one core, < 3 MB; longest games < 10 MiB)")
    for row in rows:
        print(replay_speed.line(row))
    print(replay_speed.summary(rows))
    return rows


def leaderboard(quick: bool) -> list[dict[str, Any]]:
    from bench import leaderboard as board

    rows = board.run(players=20_000 if quick else 100_000, repeat=5 if quick else 30)
    section("leaderboard: one page")
    for row in rows:
        print(
            f"{row['players']:,} players, {row['page']:<6} page: median {row['median_ms']} ms, p95 {row['p95_ms']} ms"
        )
    return rows


def load(quick: bool) -> list[dict[str, Any]]:
    from bench import load as turn_path

    rows = turn_path.run([1, 100, 1000], seconds=2.0 if quick else 10.0, quick=quick)
    section("full turn path: interaction -> tree -> service -> SQLite -> engine -> render -> HTTP")
    for row in rows[:-1]:
        offered = f"offered {row['offered_moves_per_second']:g}/s" if row["offered_moves_per_second"] else "flat out"
        print(
            f"{row['matches']:>5} matches, {offered:>14}: {row['moves_per_second']:>6} moves/s, median "
            f"{row['median_ms']} ms, p99 {row['p99_ms']} ms, longest loop stall {row['max_loop_stall_ms']} ms, "
            f"{row['replayed_matches']} matches replayed exactly"
        )
    extra = rows[-1]
    print(
        f"memory per active match {extra['memory_per_active_match_bytes'] / 1024:.1f} KB; "
        f"database bytes per finished match {extra['db_bytes_per_finished_match'] / 1024:.1f} KB"
    )
    return rows


def threads(quick: bool) -> list[dict[str, Any]]:
    from bench import load as turn_path

    row = turn_path.run_threads(100 if quick else 400, 4, seconds=2.0 if quick else 10.0)
    section("many matches in few channels, each in its own thread")
    turn_path.print_threads(row)
    return [row]


def postgres(quick: bool) -> list[dict[str, Any]]:
    from bench import load as turn_path
    from bench.pgserver import find_binaries

    section("the turn path on SQLite and PostgreSQL side by side (goal: PostgreSQL p99 at 100 within 1.5x)")
    if find_binaries() is None:
        print("skipped: no PostgreSQL server binaries (initdb, postgres) on this machine")
        return []
    rows = turn_path.run(
        [100] if quick else [100, 1000], seconds=3.0 if quick else 10.0, database="postgresql", repeat=1 if quick else 3
    )
    for row in rows[:-1]:
        offered = f"offered {row['offered_moves_per_second']:g}/s" if row["offered_moves_per_second"] else "flat out"
        print(
            f"{row['backend']:>10} {row['matches']:>5} matches, {offered:>14}: {row['moves_per_second']:>6} moves/s, "
            f"median {row['median_ms']} ms, p99 {row['p99_ms']} ms, {row['replayed_matches']} replayed exactly"
        )
    for line in turn_path.ratio_lines(rows[-1].get("postgresql_vs_sqlite", {})):
        print(line)
    return rows


def shards(quick: bool) -> list[dict[str, Any]]:
    from bench import shards as two_processes
    from bench.pgserver import find_binaries

    section("two shard processes on one PostgreSQL, one killed with SIGKILL and restarted")
    if find_binaries() is None:
        print("skipped: no PostgreSQL server binaries (initdb, postgres) on this machine")
        return []
    row = two_processes.run(seconds=4.0 if quick else 20.0, matches=10 if quick else 40)
    print(two_processes.line(row))
    return [row]


def replay_buttons(quick: bool) -> list[dict[str, Any]]:
    from bench import replay_buttons as buttons

    row = buttons.run(seconds=3.0 if quick else 10.0)
    section("replay step buttons: answer time while 100 matches are played (goal: p99 < 100 ms)")
    print(buttons.line(row))
    return [row]


def events(quick: bool) -> list[dict[str, Any]]:
    """Swiss pairing time by field size, and a whole event through the command tree."""
    import asyncio

    from bench import tournament_event

    section(
        "Swiss pairing, the worst round of each field (goal: 512 players by Dutch in 8 s, 2,000 in 5 s) "
        "and a whole Swiss Pond event with a restart in the middle"
    )
    rows: list[dict[str, Any]] = []
    for players in (64, 600) if quick else (64, 128, 512, 2000):
        row = tournament_event.pairing_times(players)
        print(f"{players:>5} players ({row['system']}): worst round {row['worst_round_seconds']} s")
        rows.append(row)
    field, rounds, plies = (16, 3, 10) if quick else (64, 6, 60)
    event = asyncio.run(tournament_event.run_event(field, rounds, plies))
    print(
        f"{field} players, {event['rounds']} rounds, {event['games']} games: {event['seconds']} s, "
        f"per round {event['seconds_per_round']} s; standings recomputed and equal"
    )
    return [*rows, event]


def analysis(quick: bool) -> list[dict[str, Any]]:
    """The computer's review of one game of each (``bench.analysis``); ``--quick`` reviews Querni only."""
    from bench import analysis as review

    section("the computer's review of a game, one worker at the default budget (goal: < 60 s a game)")
    rows = review.speed(["querni"] if quick else None)
    for row in rows:
        print(review.speed_line(row))
    return rows


def tournament(quick: bool) -> list[dict[str, Any]]:
    try:
        module = importlib.import_module("bench.tournament")
    except ImportError:
        return []
    section("AI tournament")
    rows: list[dict[str, Any]] = module.run(quick=quick) if "quick" in module.run.__code__.co_varnames else module.run()
    for row in rows:
        print("  " + ", ".join(f"{k}={v}" for k, v in row.items()))
    return rows


# Left out of ``--quick`` (each takes 15-40 s on two cores); ``--only NAME`` still runs them.
HEAVY = ("postgres", "shards", "buttons", "analysis", "tournament")

SUITES = {
    "engines": engines,
    "render": renders,
    "replay": replays,
    "leaderboard": leaderboard,
    "load": load,
    "threads": threads,
    "postgres": postgres,
    "shards": shards,
    "buttons": replay_buttons,
    "events": events,
    "analysis": analysis,
    "tournament": tournament,
}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="a reduced run in under a minute (without " + ", ".join(HEAVY) + ")"
    )
    parser.add_argument("--only", action="append", choices=sorted(SUITES), help="run only this part (repeatable)")
    parser.add_argument("--skip", action="append", choices=sorted(SUITES), default=[], help="skip this part")
    parser.add_argument("--out", type=Path, help="JSON file to write (default: bench/results/<time>.json)")
    args = parser.parse_args()
    chosen = args.only or [name for name in SUITES if not (args.quick and name in HEAVY)]
    results: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%dT%H:%M:%S"),
        "quick": args.quick,
        "machine": {"python": platform.python_version(), "cpus": __import__("os").cpu_count()},
    }
    started = time.perf_counter()
    timings: dict[str, float] = {}
    for name in chosen:
        if name not in args.skip:
            began = time.perf_counter()
            results[name] = SUITES[name](args.quick)
            timings[name] = round(time.perf_counter() - began, 1)
    results["section_seconds"] = timings
    results["seconds"] = round(time.perf_counter() - started, 1)
    left_out = [] if args.only else [name for name in SUITES if name not in chosen and name != "tournament"]
    if left_out:
        print(
            "\nleft out of --quick: "
            + ", ".join(left_out)
            + "; run them with `python -m bench"
            + "".join(f" --only {name}" for name in left_out)
            + "` (--quick for shorter runs)"
        )
    out = args.out or RESULTS / f"{time.strftime('%Y%m%d-%H%M%S')}{'-quick' if args.quick else ''}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=2))
    print(f"\nwrote {out} ({results['seconds']} s: " + ", ".join(f"{k} {v} s" for k, v in timings.items()) + ")")


if __name__ == "__main__":
    main()
