"""``python -m bench.tournament_event`` in miniature: a Swiss Pond event through the command tree, restarted in the
middle, checked against a recomputation from the matches' own results; and the pairing timer."""

from __future__ import annotations

from bench.tournament_event import pairing_times, run_event


def test_the_pairing_timer_pairs_every_round_and_names_the_system() -> None:
    small, big = pairing_times(16), pairing_times(600)
    assert small["system"] == "dutch" and len(small["seconds_per_round"]) == 5
    assert big["system"] == "fast" and len(big["cpu_seconds_per_round"]) == 11 and big["goal_met"]


async def test_a_small_event_runs_through_the_command_tree_with_a_restart() -> None:
    result = await run_event(6, 3, 6, seed=3)
    assert result["rounds"] == 3 and result["games"] == 9 and len(result["seconds_per_round"]) == 3
