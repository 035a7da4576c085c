"""Arenas, the pure part: points with streaks, the standings, and whom to pair among those waiting.

An arena runs for a set time.  Players join whenever they like; whoever finishes a game is paired again at
once with someone free of a similar standing, and the leader is whoever has most points when time is up.
Everything here is a function of the stored games, so the standings after a restart are those before it, and
an independent recomputation gives the same numbers.

**Outcomes and points.**  Every finished game gives each seat an outcome: a win (``W``) for a player alone in
first place, a loss (``L``) for a player in the last place (shared or not, unless the whole table shares it),
and a draw (``D``) for everyone else.  At two players that is simply win, loss and draw; at a table of three
it gives 2/1/0 points, at four 2/1/1/0.  A win is worth :data:`WIN_POINTS` (2), a draw 1, a loss 0, and, as on
Lichess, a player on a streak (their two previous games both won) has every further point doubled: a win is
worth 4 and a draw 2, until a game that is not a win ends the streak.  A void game (cancelled by a moderator,
or still running when the arena ended) counts for nothing: no points, and the streak neither grows nor ends.

**Standings.**  Points, then points per game (the same points from fewer games rank higher: a performance,
where Lichess uses a performance rating), then wins, then who joined first.

**Pairing.**  Those waiting are ranked by the standings.  A two-player game pairs each, best ranked first,
with the nearest-ranked player still unpaired who was not their last opponent (their last opponent only when
nobody else is free).  With an odd number waiting, whoever became free last waits for the next one.  A game
for three or four (Azul) seats whoever waits at tables of four and three by rank (five: one table of four, the
one freed last waits); two alone make a table of two only once both have waited :data:`TWO_AFTER` seconds, or
at once when nobody else is playing (no one else can come).  A table that would repeat exactly its players'
last table swaps a player with the next table.  Within a game, whoever has sat first least often sits first.

>>> outcomes([1, 2]), outcomes([1, 1]), outcomes([2, 1, 3, 3])
(['W', 'L'], ['D', 'D'], ['D', 'W', 'L', 'L'])
>>> outcomes([1, 2, 3, 4]), outcomes([1, 1, 3])
(['W', 'D', 'D', 'L'], ['D', 'D', 'L'])
>>> streak_points(["W", "W", "W", "D", "W", "L", "W", "W", "W", "W"])
[2, 2, 4, 2, 2, 0, 2, 2, 4, 4]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.core import tournament_formats as formats

WIN, DRAW, LOSS = "W", "D", "L"
WIN_POINTS, DRAW_POINTS = 2, 1
#: How many wins in a row put a player on a streak (the next win and draw count double), as on Lichess.
STREAK = 2
#: Two players waiting alone for a game of three or four play each other after this long (seconds): long enough
#: for a third to finish a game nearby, short enough that nobody sits idle.
TWO_AFTER = 20.0


def outcomes(places: Sequence[int]) -> list[str]:
    """Each seat's outcome from its place (1 is first): alone first wins, last loses, the rest draw."""
    if not places:
        return []
    best, worst = min(places), max(places)
    if best == worst:  # everyone shares the same place: a draw all round
        return [DRAW] * len(places)
    alone = places.count(best) == 1
    return [WIN if p == best and alone else LOSS if p == worst else DRAW for p in places]


def streak_points(results: Sequence[str]) -> list[int]:
    """The points of a player's games in the order played: 2/1/0, doubled while on a streak of wins."""
    points = []
    wins = 0  # wins in a row before this game
    for outcome in results:
        doubled = 2 if wins >= STREAK else 1
        if outcome == WIN:
            points.append(WIN_POINTS * doubled)
            wins += 1
        else:
            points.append(DRAW_POINTS * doubled if outcome == DRAW else 0)
            wins = 0
    return points


def on_fire(results: Sequence[str]) -> bool:
    """Whether the player's next win counts double (their last :data:`STREAK` games were all wins)."""
    return len(results) >= STREAK and all(outcome == WIN for outcome in results[-STREAK:])


@dataclass(frozen=True, slots=True)
class Game:
    """One arena game in the order games were paired: its players in seat order and their places once over.

    ``places`` is ``None`` while the game is played; a ``void`` game counts for nothing.
    """

    players: tuple[int, ...]
    places: tuple[int, ...] | None
    void: bool = False


def sheets(games: Sequence[Game]) -> dict[int, list[str]]:
    """Each player's outcomes, in the order of their games (``games`` in the order they were paired).

    A player is in one game at a time, so the order games were paired in is each player's order of play.
    """
    found: dict[int, list[str]] = {}
    for game in games:
        if game.places is None or game.void or len(game.places) != len(game.players):
            continue
        for user, outcome in zip(game.players, outcomes(game.places), strict=True):
            found.setdefault(user, []).append(outcome)
    return found


def standings(entrants: Sequence[tuple[int, str, int, bool]], games: Sequence[Game]) -> list[formats.Line]:
    """The standings: ``entrants`` are ``(user ID, name, starting number, paused)``, ``games`` in pairing order.

    Each line's ``results`` are its games as ``W4``, ``D1``, ``L0`` (outcome and the points it earned);
    ``tiebreaks`` are the games played and the wins; ``withdrawn`` says the player is paused.
    """
    played = sheets(games)
    rows = []
    for user, name, number, paused in entrants:
        results = played.get(user, [])
        points = streak_points(results)
        marks = tuple(f"{outcome}{earned}" for outcome, earned in zip(results, points, strict=True))
        wins = sum(1 for outcome in results if outcome == WIN)
        rows.append((user, name, number, paused, float(sum(points)), len(results), wins, marks))
    # Points, then points per game (fewer games for the same points), then wins, then who joined first.
    rows.sort(key=lambda row: (-row[4], row[5], -row[6], row[2]))
    lines: list[formats.Line] = []
    for index, (user, name, number, paused, total, count, wins, marks) in enumerate(rows):
        breaks = (float(count), float(wins))
        rank = index + 1
        if lines and (lines[-1].points, lines[-1].tiebreaks) == (total, breaks):
            rank = lines[-1].rank
        lines.append(formats.Line(rank, user, name, number, total, breaks, marks, paused))
    return lines


# -- pairing those waiting -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Waiting:
    """A free player: their standing, since when they wait, whom they last played, and how often they sat first."""

    user_id: int
    rank: int
    since: float
    last: frozenset[int] = frozenset()  # the other players of their last game
    firsts: int = 0  # games they sat first in
    games: int = 0


def pair(
    waiting: Sequence[Waiting], *, seats: int, now: float, others_playing: bool
) -> tuple[list[tuple[int, ...]], float | None]:
    """Whom to seat now among ``waiting``, and when to look again if a wait runs out before anyone else comes.

    ``seats`` is the most players a game takes (2 for a two-player game, 4 for Azul); ``others_playing`` says
    whether anyone else is in a game now (who may come to wait soon).  The games come in seat order.
    """
    if seats <= 2:
        return pair_two(waiting), None
    return seat_tables(waiting, now=now, others_playing=others_playing)


def _by_rank(waiting: Sequence[Waiting]) -> list[Waiting]:
    return sorted(waiting, key=lambda w: (w.rank, w.since, w.user_id))


def _last_freed(waiting: Sequence[Waiting]) -> Waiting:
    """Who became free most recently (the lowest ranked of them on a tie): the one left to wait."""
    return max(waiting, key=lambda w: (w.since, w.rank, w.user_id))


def _seat_order(group: Sequence[Waiting]) -> tuple[int, ...]:
    """Whoever has sat first least often (against their games) sits first, then by standing."""
    ordered = sorted(group, key=lambda w: (2 * w.firsts - w.games, w.rank, w.user_id))
    return tuple(w.user_id for w in ordered)


def pair_two(waiting: Sequence[Waiting]) -> list[tuple[int, ...]]:
    """Pair a two-player game's waiting players, each with the nearest in rank who is not their last opponent.

    >>> w = [Waiting(1, 1, 0.0, frozenset({2})), Waiting(2, 2, 0.0, frozenset({1})), Waiting(3, 3, 5.0)]
    >>> pair_two(w)  # 3 came last and waits; 1 and 2 just met, but nobody else is free
    [(1, 2)]
    >>> pair_two([*w, Waiting(4, 4, 1.0)])
    [(1, 3), (2, 4)]
    """
    ranked = _by_rank(waiting)
    if len(ranked) % 2:
        ranked.remove(_last_freed(ranked))
    games = []
    while len(ranked) >= 2:
        first = ranked.pop(0)
        other = next((w for w in ranked if w.user_id not in first.last), ranked[0])
        ranked.remove(other)
        games.append(_seat_order((first, other)))
    return games


def table_sizes(waiting: int) -> list[int]:
    """Tables of four and three for ``waiting`` players (five: one table of four, one waits); none below three.

    >>> [table_sizes(n) for n in (2, 3, 5, 6, 7, 9)]
    [[], [3], [4], [3, 3], [4, 3], [3, 3, 3]]
    """
    if waiting < 3:
        return []
    if waiting == 5:
        return [4]
    return formats.table_sizes(waiting)


def seat_tables(
    waiting: Sequence[Waiting], *, now: float, others_playing: bool
) -> tuple[list[tuple[int, ...]], float | None]:
    """Seat those waiting for a game of three or four at tables by rank; two alone only after a wait.

    >>> w = [Waiting(u, u, 0.0) for u in (1, 2, 3, 4, 5, 6, 7)]
    >>> seat_tables(w, now=0.0, others_playing=True)[0]
    [(1, 2, 3, 4), (5, 6, 7)]
    >>> seat_tables(w[:2], now=5.0, others_playing=True)  # two wait: they get a table at 20 s unless a third comes
    ([], 20.0)
    >>> seat_tables(w[:2], now=20.0, others_playing=True)[0], seat_tables(w[:2], now=5.0, others_playing=False)[0]
    ([(1, 2)], [(1, 2)])
    """
    ranked = _by_rank(waiting)
    if len(ranked) == 2:
        ready = max(w.since for w in ranked) + TWO_AFTER
        if now >= ready or not others_playing:
            return [_seat_order(ranked)], None
        return [], ready
    sizes = table_sizes(len(ranked))
    if sum(sizes) < len(ranked):
        ranked.remove(_last_freed(ranked))
    groups: list[list[Waiting]] = []
    at = 0
    for size in sizes:
        groups.append(ranked[at : at + size])
        at += size
    for index, group in enumerate(groups):
        users = {w.user_id for w in group}
        if len(groups) > 1 and all(w.last == users - {w.user_id} for w in group):
            # The same table twice running while others are free to mix in: swap with a neighbouring table.
            if index + 1 < len(groups):
                after = groups[index + 1]
                group[-1], after[0] = after[0], group[-1]
            else:
                before = groups[index - 1]
                group[0], before[-1] = before[-1], group[0]
    return [_seat_order(group) for group in groups], None
