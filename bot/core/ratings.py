"""Ratings with OpenSkill's Plackett–Luce model, from finishing places.

Each server has one ladder per game.  A player's skill is ``mu`` with an
uncertainty ``sigma``; the ladder shows the conservative estimate ``mu - 3σ``
on a friendlier scale (a new player shows 1000), marked provisional until a few
rated games have been played.  Ties share a place, so draws and Azul's shared
victories rate correctly, and three- or four-player games rate everyone at once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from openskill.models import PlackettLuce

from i18n.catalog import DEFAULT, gettext

PROVISIONAL_GAMES = 5
SCALE = 40.0
BASE = 1000.0


@cache
def model() -> PlackettLuce:
    """The one rating model (OpenSkill's defaults: mu 25, sigma 25/3)."""
    return PlackettLuce()


def initial() -> tuple[float, float]:
    """A new player's (mu, sigma)."""
    fresh = model().rating()
    return fresh.mu, fresh.sigma


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate the ladder sorts by."""
    return mu - 3.0 * sigma


def display(mu: float, sigma: float) -> int:
    """The friendly number players see: 1000 for a newcomer, higher is better."""
    return round(BASE + SCALE * ordinal(mu, sigma))


def rate(current: Sequence[tuple[float, float] | None], places: Sequence[int]) -> list[tuple[float, float]]:
    """Return each player's new (mu, sigma) after a game with these finishing places (1 is first)."""
    if len(current) != len(places) or len(current) < 2:
        raise ValueError("a rated game needs two or more players, each with a place")
    mdl = model()
    teams = [[mdl.rating(*(pair or initial()))] for pair in current]
    updated = mdl.rate(teams, ranks=[float(place) for place in places])
    return [(team[0].mu, team[0].sigma) for team in updated]


def result_of(places: Sequence[int], seat: int) -> str:
    """Classify a finish for the record: "win", "loss" or "draw" (everyone sharing first)."""
    if all(place == 1 for place in places):
        return "draw"
    return "win" if places[seat] == 1 else "loss"


@dataclass(frozen=True, slots=True)
class Change:
    """One player's rating before and after a rated game."""

    user_id: int
    name: str
    before: tuple[float, float] | None
    after: tuple[float, float]
    games: int

    @property
    def shown_before(self) -> int:
        return display(*(self.before or initial()))

    @property
    def shown_after(self) -> int:
        return display(*self.after)

    def text(self, language: str = DEFAULT) -> str:
        """E.g. "Ana 1000 → 1087 (+87, provisional)"."""
        delta = f"{self.shown_after - self.shown_before:+d}"
        provisional = self.games < PROVISIONAL_GAMES
        change = gettext(language, "{delta}, provisional", delta=delta) if provisional else delta
        return f"{self.name} {self.shown_before} → {self.shown_after} ({change})"


def recompute(
    history: Iterable[tuple[int, str, Sequence[tuple[int, int]]]],
) -> dict[tuple[int, str, int], tuple[float, float]]:
    """Replay rated results ``(guild, game, [(user, place), …])`` in order; return every final (mu, sigma)."""
    ratings: dict[tuple[int, str, int], tuple[float, float]] = {}
    for guild_id, game, seats in history:
        keys = [(guild_id, game, user_id) for user_id, _ in seats]
        new = rate([ratings.get(key) for key in keys], [place for _, place in seats])
        ratings.update(zip(keys, new, strict=True))
    return ratings
