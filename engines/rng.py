"""A tiny deterministic random generator (SplitMix64) for engines.

Engines never touch Python's global ``random``; and because a saved game must
replay identically on every Python version, they do not rely on ``random.Random``
either, whose helper methods may change between releases.  The generator is a
pure function of its 64-bit state, so a state can keep it as a plain int.

>>> rng = Rng(7)
>>> [rng.below(6) for _ in range(5)]
[3, 0, 0, 3, 4]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

_T = TypeVar("_T")

MASK = (1 << 64) - 1


def splitmix64(state: int) -> tuple[int, int]:
    """Advance ``state`` once; return ``(new_state, 64 random bits)``."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


class Rng:
    """A seeded generator; ``state`` can be stored and a new ``Rng(state)`` continues exactly."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def bits(self) -> int:
        """Return 64 random bits."""
        self.state, out = splitmix64(self.state)
        return out

    def below(self, n: int) -> int:
        """Return a uniform int in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.bits()
            if value < limit:
                return value % n

    def between(self, low: int, high: int) -> int:
        """Return a uniform int from ``low`` to ``high`` inclusive."""
        return low + self.below(high - low + 1)

    def shuffled(self, items: Sequence[_T]) -> list[_T]:
        """Return a new list with ``items`` in a uniformly random order (Fisher–Yates)."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out
