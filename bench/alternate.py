"""Run a benchmark in another commit's checkout and in this one, taking turns, on a shared noisy machine."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent  # this checkout


def alternate(argv: list[str], root: str | Path, rounds: int) -> tuple[list[Any], list[Any]]:
    """Run ``argv`` (a benchmark printing JSON) in the checkout at ``root`` and in this one, ``rounds`` times each.

    Each run is a fresh process with that checkout first on the path; who goes first changes every round, so a
    busy moment of the machine weighs on both alike.  Return the parsed outputs: ``root``'s runs, then this one's.
    """
    runs: dict[str, list[Any]] = {"before": [], "after": []}
    for number in range(rounds):
        order = [("before", Path(root)), ("after", HERE)]
        for side, checkout in order if number % 2 == 0 else order[::-1]:
            env = {**os.environ, "PYTHONPATH": str(checkout)}
            done = subprocess.run(argv, cwd=checkout, env=env, capture_output=True, text=True, check=True)
            runs[side].append(json.loads(done.stdout))
    return runs["before"], runs["after"]
