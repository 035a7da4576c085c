"""``python -m bench.tournament_event`` in miniature: a Swiss Pond event through the command tree, restarted in the
middle, checked against a recomputation from the matches' own results; and the pairing timer."""

from __future__ import annotations

from bench.tournament_event import pairing_time, run_event


def test_the_pairing_timer_pairs_everyone() -> None:
    result = pairing_time(16)
    assert result["players"] == 16 and result["round_2_seconds"] >= 0


async def test_a_small_event_runs_through_the_command_tree_with_a_restart() -> None:
    result = await run_event(6, 3, 6, seed=3)
    assert result["rounds"] == 3 and result["games"] == 9 and len(result["seconds_per_round"]) == 3
