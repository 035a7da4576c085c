"""Tournament formats, pure: who plays whom each round, what a result is worth, and the standings.

Swiss rounds are paired by :mod:`bot.core.swiss`: the FIDE Dutch system (``py4swiss``, a port of the
FIDE-endorsed bbpPairings with its compiled matching) up to 512 players a round, and the Fast Swiss system
Lichess uses for big fields beyond (:data:`bot.core.swiss.DUTCH_MOST_PLAYERS` is the switch; that module
says why and what each takes).  Round robins follow the FIDE Berger tables from ``caissify-pairings``.  The
first seat of a two-player game is the systems' white, so it is balanced like colours.  Games for three or
four (Azul) are played at tables grouped by standing, split without byes into tables of 4 and 3.

Everything here is computed from the stored pairings and results, so the standings after a restart are
those before it, and an independent recomputation gives the same numbers.

>>> table_sizes(10)
[4, 3, 3]
>>> place_points([1, 2], 0), place_points([1, 1], 1), place_points([1, 2, 3, 4], 1, TABLE_WIN_POINTS)
(1.0, 0.5, 2.0)
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from caissify_pairings import MissingFloatHistoryWarning, generate_pairings

from bot.core import swiss

SWISS = "swiss"
ROUND_ROBIN = "round_robin"
DOUBLE_ROUND_ROBIN = "double_round_robin"
TABLES = "tables"
ARENA = "arena"  # a set time, not rounds: bot.core.arena
FORMATS = (SWISS, ROUND_ROBIN, DOUBLE_ROUND_ROBIN, TABLES, ARENA)

#: What a bye is worth in a two-player event (a full point, as on Lichess).
BYE_POINTS = 1.0
#: What first place at a table of 3 or 4 is worth (last is worth 0, the others in between, evenly).
TABLE_WIN_POINTS = 3.0


def default_rounds(format: str, players: int) -> int:
    """The rounds an event of ``players`` plays when the organiser names none.

    Swiss: ⌈log2 n⌉ + 1, at most n - 1 (no repeat pairing is then always possible); round robin:
    everyone meets everyone (n - 1 rounds, n with an odd field; twice that for a double); tables:
    ⌈log2 n⌉ + 1 as well.

    >>> default_rounds("swiss", 64), default_rounds("round_robin", 5), default_rounds("double_round_robin", 4)
    (7, 5, 6)
    """
    n = max(players, 2)
    if format in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN):
        single = n - 1 if n % 2 == 0 else n
        return single * (2 if format == DOUBLE_ROUND_ROBIN else 1)
    rounds = math.ceil(math.log2(n)) + 1
    return max(1, min(rounds, n - 1)) if format == SWISS else rounds


def most_rounds(format: str, players: int) -> int:
    """The most rounds the format allows for ``players`` (a round robin has exactly its schedule)."""
    if format in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN):
        return default_rounds(format, players)
    return max(1, players - 1) if format == SWISS else 50


def place_points(places: Sequence[int], seat: int, win: float = 1.0) -> float:
    """What ``seat``'s place is worth: the share of the other players it beat (a tie counts half).

    Scaled to ``win``: 1 in a two-player event (win 1, draw ½, loss 0); :data:`TABLE_WIN_POINTS` at the
    tables of a multi-player event (first 3, last 0), so tables of different sizes weigh the same.
    """
    others = len(places) - 1
    if others <= 0:
        return 0.0
    mine = places[seat]
    beaten = sum(1 for other, place in enumerate(places) if other != seat and place > mine)
    tied = sum(1 for other, place in enumerate(places) if other != seat and place == mine)
    return win * (beaten + 0.5 * tied) / others


# -- tables of 3 and 4 ---------------------------------------------------------------------------


def table_sizes(players: int) -> list[int]:
    """Split a field into tables of 4 and 3 without byes, larger tables first.

    Five players cannot be split into 3s and 4s: they play a table of 3 and a table of 2 (the game must
    take two players, as Azul does), so nobody sits out.  Two to four players play one table.

    >>> [table_sizes(n) for n in (5, 6, 7, 9, 10)]
    [[3, 2], [3, 3], [4, 3], [3, 3, 3], [4, 3, 3]]
    """
    if players < 2:
        return []
    if players <= 4:
        return [players]
    if players == 5:
        return [3, 2]
    threes = (4 - players % 4) % 4
    fours = (players - 3 * threes) // 4
    return [4] * fours + [3] * threes


def pair_tables(ranked: Sequence[int], first_seats: Mapping[int, int]) -> list[tuple[int, ...]]:
    """Seat ``ranked`` (best standing first) at tables of 4 and 3, the leaders together at table 1.

    Within a table, whoever has sat first least often sits first (then by standing), so the first seat
    goes round like colours.
    """
    tables = []
    at = 0
    for size in table_sizes(len(ranked)):
        group = list(ranked[at : at + size])
        at += size
        order = {user: index for index, user in enumerate(group)}
        group.sort(key=lambda user: (first_seats.get(user, 0), order[user]))
        tables.append(tuple(group))
    return tables


# -- two-player pairings (the library) -------------------------------------------------------------


@dataclass
class History:
    """What the pairing libraries must be told about each player, rebuilt from the stored rounds.

    ``rounds`` is the whole history the Swiss systems read; the other fields are what the round-robin
    library reads.
    """

    score: float = 0.0
    colours: list[str] = field(default_factory=list)
    floats: list[str] = field(default_factory=list)
    byes: int = 0
    rounds: list[swiss.Outing] = field(default_factory=list)


def two_player_history(
    numbers: Mapping[int, int], rounds: Sequence[Sequence[tuple[tuple[int, ...], Sequence[float] | None]]]
) -> tuple[dict[int, History], set[tuple[int, int]]]:
    """Each player's score, colours, floats and byes, and the pairs already met, from played rounds.

    ``rounds[r]`` lists that round's tables (user IDs in seat order) with each seat's points.
    """
    history = {user: History() for user in numbers}
    met: set[tuple[int, int]] = set()
    for games in rounds:
        before = {user: h.score for user, h in history.items()}
        seen: set[int] = set()
        for table, points in games:
            seen.update(table)
            if len(table) == 1:
                h = history.setdefault(table[0], History())
                h.byes += 1
                h.colours.append("none")
                h.floats.append("none")
                h.score += points[0] if points else 0.0
                h.rounds.append(swiss.Outing(points=points[0] if points else 0.0, bye=True))
                continue
            white, black = table
            met.add((white, black))
            void = not points or not any(points)  # cancelled: nobody scored
            for seat, (user, other) in enumerate(((white, black), (black, white))):
                h = history.setdefault(user, History())
                h.colours.append("white" if seat == 0 else "black")
                mine, theirs = before.get(user, 0.0), before.get(other, 0.0)
                h.floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
                earned = points[seat] if points else 0.0
                h.score += earned
                h.rounds.append(swiss.Outing(other, first=seat == 0, points=earned, void=void))
        for user, h in history.items():
            if user not in seen:  # withdrawn, or not yet entered: an unplayed round
                h.colours.append("none")
                h.floats.append("none")
                h.rounds.append(swiss.Outing())
    return history, met


def pair_two_player(
    format: str,
    numbers: Mapping[int, int],
    playing: Sequence[int],
    history: Mapping[int, History],
    met: set[tuple[int, int]],
    round_number: int,
    total_rounds: int,
) -> list[tuple[int, ...]]:
    """Pair one round of a Swiss or round-robin event: games (white first) and byes (one-player tables).

    ``numbers`` are the starting numbers of every entrant; ``playing`` those still in.  A round robin
    keeps its schedule over every entrant: a game against one who withdrew becomes a bye (the point
    is the forfeit's).
    """
    if format == SWISS:
        return pair_swiss(numbers, playing, history, round_number, total_rounds).tables
    cycles = 2 if format == DOUBLE_ROUND_ROBIN else 1
    system, options, field_ids = "round_robin", {"cycles": cycles}, sorted(numbers, key=numbers.__getitem__)
    if len(field_ids) == 1:
        return [(field_ids[0],)]
    if not field_ids:
        return []
    players: list[dict[str, Any]] = []
    for user in field_ids:
        h = history.get(user, History())
        players.append(
            {
                "id": user,
                "name": str(numbers[user]),
                "score": h.score,
                "rating": 100_000 - numbers[user],  # the initial order is the starting order
                "starting_number": numbers[user],
                "color_hist": list(h.colours),
                "float_history": list(h.floats),
                "bye_count": h.byes,
            }
        )
    with warnings.catch_warnings():  # round 2 may rightly have no floats at all (everyone met an equal)
        warnings.simplefilter("ignore", MissingFloatHistoryWarning)
        found = generate_pairings(system, players, met, round_number, total_rounds, **options)
    still = set(playing)
    games: list[tuple[int, ...]] = []
    byes: list[tuple[int, ...]] = []
    for row in sorted(found, key=lambda r: int(r["table"])):
        seated = [u for u in (row["white_id"], row.get("black_id")) if u is not None and u in still]
        if len(seated) == 2:
            games.append((int(seated[0]), int(seated[1])))
        elif len(seated) == 1:
            byes.append((int(seated[0]),))
    return games + byes


def pair_round(
    format: str,
    numbers: Mapping[int, int],
    playing: Sequence[int],
    rounds: Sequence[Sequence[tuple[tuple[int, ...], Sequence[float] | None]]],
    round_number: int,
    total_rounds: int,
) -> list[tuple[int, ...]]:
    """Pair a two-player event's next round from its played ``rounds`` (as :func:`two_player_history` reads them)."""
    history, met = two_player_history(numbers, rounds)
    return pair_two_player(format, numbers, playing, history, met, round_number, total_rounds)


def pair_swiss(
    numbers: Mapping[int, int],
    playing: Sequence[int],
    history: Mapping[int, History],
    round_number: int,
    total_rounds: int,
    system: str | None = None,
) -> swiss.Paired:
    """Pair a Swiss round by the system for its size (or ``system``), and say which system paired it."""
    players = []
    for user, number in numbers.items():
        rounds = history[user].rounds if user in history else []
        # Every entrant needs a line for every earlier round; one who entered later has unplayed rounds first.
        missing = [swiss.Outing()] * (round_number - 1 - len(rounds))
        players.append(swiss.Player(user, number, (*missing, *rounds)))
    return swiss.pair(players, total_rounds=total_rounds, playing=playing, system=system)


# -- standings ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Line:
    """One entrant's line in the standings."""

    rank: int
    user_id: int
    name: str
    number: int
    points: float
    tiebreaks: tuple[float, ...]  # two-player: Buchholz, Sonneborn–Berger; tables: game points, opponents' points
    results: tuple[str, ...]  # per round: "W", "D", "L", "B" (bye), "-" (not played), or a place "1".."4"
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Played:
    """One stored table of a round with each seat's place and game points (``None``: not over yet)."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...] | None
    scores: tuple[int, ...] | None = None
    void: bool = False  # a cancelled game: nobody scores


def seat_points(format: str, game: Played) -> list[float] | None:
    """Each seat's points for a finished table (a bye: :data:`BYE_POINTS`), or ``None`` while it runs."""
    if len(game.players) == 1:
        return [BYE_POINTS if format != TABLES else 0.0] if game.places is not None else None
    if game.places is None:
        return None
    if game.void:
        return [0.0] * len(game.players)
    win = TABLE_WIN_POINTS if format == TABLES else 1.0
    return [place_points(game.places, seat, win) for seat in range(len(game.players))]


def standings(
    format: str,
    entrants: Sequence[tuple[int, str, int, bool]],
    games: Sequence[Played],
    rounds: int,
) -> list[Line]:
    """The standings from the stored tables: rank, points, tie-breaks and each round's result.

    ``entrants`` are ``(user ID, name, starting number, withdrawn)``.  Ties are broken by the
    tie-breaks in order, then by starting number; entrants equal on points and tie-breaks share a rank.
    """
    points = {user: 0.0 for user, *_ in entrants}
    game_points = {user: 0 for user, *_ in entrants}
    cells: dict[int, list[str]] = {user: ["-"] * rounds for user, *_ in entrants}
    opponents: dict[int, list[tuple[int, float]]] = {user: [] for user, *_ in entrants}  # (opponent, my points)
    for game in games:
        earned = seat_points(format, game)
        if earned is None:
            continue
        for seat, user in enumerate(game.players):
            if user not in points:
                continue
            points[user] += earned[seat]
            if game.scores is not None and seat < len(game.scores):
                game_points[user] += int(game.scores[seat])
            if 0 < game.round <= rounds:
                cells[user][game.round - 1] = _cell(format, game, seat, earned[seat])
            for other in game.players:
                if other != user:
                    opponents[user].append((other, earned[seat]))
    lines = []
    for user, name, number, withdrawn in entrants:
        met = opponents[user]
        buchholz = sum(points.get(other, 0.0) for other, _ in met)
        if format == TABLES:
            breaks: tuple[float, ...] = (float(game_points[user]), buchholz)
        else:
            berger = sum(points.get(other, 0.0) * mine for other, mine in met)
            breaks = (buchholz, berger)
        lines.append((user, name, number, withdrawn, points[user], breaks))
    lines.sort(key=lambda line: (-line[4], tuple(-b for b in line[5]), line[2]))
    ranked: list[Line] = []
    for index, (user, name, number, withdrawn, total, breaks) in enumerate(lines):
        rank = index + 1
        if ranked and (ranked[-1].points, ranked[-1].tiebreaks) == (total, breaks):
            rank = ranked[-1].rank
        ranked.append(Line(rank, user, name, number, total, breaks, tuple(cells[user]), withdrawn))
    return ranked


def _cell(format: str, game: Played, seat: int, earned: float) -> str:
    if len(game.players) == 1:
        return "B"
    if game.void:
        return "-"
    if len(game.players) == 2 and format != TABLES:
        return "W" if earned == 1.0 else "D" if earned == 0.5 else "L"
    assert game.places is not None
    return str(game.places[seat])


def number_text(value: float) -> str:
    """A point total as people write it: 3, 2.5, ½ (no trailing zeros)."""
    if value == int(value):
        return str(int(value))
    whole = int(value)
    if abs(value - whole - 0.5) < 1e-9:
        return f"{whole}½" if whole else "½"
    return f"{value:.2f}".rstrip("0").rstrip(".")
