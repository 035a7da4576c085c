"""Swiss pairings of any size: the FIDE Dutch system up to 512 players, the Fast Swiss system beyond.

Which system pairs a round depends only on the number of players paired in it (:func:`system_for`):

* **Up to** :data:`DUTCH_MOST_PLAYERS` **(512): the FIDE Dutch system** (C.04.3, the rules in force until
  2026), from ``py4swiss``: a port of bbpPairings, the FIDE-endorsed engine Lichess runs, tested by its
  author to give bbpPairings' pairings, whose maximum-weight matching is bbpPairings' own C++ code with its
  arbitrarily wide integer weights.  Measured on this project's two-core machine (the bench,
  ``python -m bench.tournament_event --pairing-only``), its worst round (round 1, one score group) takes
  0.1 s of CPU for 64 players, 0.3 s for 128 and 6.1 to 6.4 s for 512 (7.7 s wall with other jobs loading
  the two cores nine deep), growing as n²: 600 players would pass 8 s.
  ``caissify-pairings``, which paired Swiss rounds before, took 18 s for 128 players and did not finish
  512 in 19 minutes: its engine rebuilds the whole field's graph for networkx's pure-Python matching about
  n/2 times a round, with 170-bit weights, past the 128 bits rustworkx's compiled matching holds (and were
  they made to fit, rustworkx takes 0.4 s per matching of 512 players: about 100 s a round).
* **Beyond: the Fast Swiss system**, the one the bbpPairings fork Lichess uses for big fields adds beside
  Dutch and Burstein, written here from its published description because no package offers it.  Top to
  bottom, each player takes the first opponent they have not met, searching in passes: their score group
  with both colour preferences granted, then with a colour allowed, then the groups below the same two
  ways, then either place whatever the colours (a pass gives up after ten players refused only for
  colour).  Within a score group the search starts half the group down, so that, as in Dutch, the top half
  meets the bottom half.  The few players left without an opponent (at most one per round played) are
  paired with the last players paired before them by a maximum-weight matching (rustworkx's, compiled),
  which closes the scores first and grants colours second; the matching doubles its reach until everyone
  is paired.  It takes O(n·r) for n players after r rounds: 2,000 players in at most 0.15 s of CPU a round.

Both systems never pair two players twice, give the pairing-allocated bye to a player who has not had one
(Dutch's absolute criterion C.2; the Fast system gives it, as Burstein does, to the lowest-ranked such
player) and balance colours; "white" is the first seat.  A round that no pairing can satisfy raises
:class:`SwissError`.

>>> players = [Player(user, number, ()) for number, user in enumerate((11, 12, 13, 14), 1)]
>>> pair(players, total_rounds=3)
Paired(system='dutch', tables=[(11, 13), (14, 12)])
>>> pair(players, total_rounds=3, system=FAST).tables
[(11, 13), (14, 12)]
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import rustworkx
from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf
from py4swiss.trf.codes import PlayerCode
from py4swiss.trf.results import ColorToken, ResultToken, RoundResult
from py4swiss.trf.sections import PlayerSection, XSection

DUTCH = "dutch"
FAST = "fast"
#: The most players a round paired by the Dutch system has; bigger rounds are paired by the Fast system.
DUTCH_MOST_PLAYERS = 512
#: Players a Fast Swiss pass may refuse for colour alone before it gives up (the published system's ten).
COLOUR_REFUSALS = 10


class SwissError(ValueError):
    """No pairing of the round keeps every absolute rule (no repeat pairing, no second bye)."""


@dataclass(frozen=True, slots=True)
class Outing:
    """One round of a player's history: a game (``opponent``, the seat and the points), a bye, or no game.

    A ``void`` game was cancelled (nobody scored): its players have met, but it gives neither a colour nor a
    float.
    """

    opponent: int | None = None
    first: bool = False
    points: float = 0.0
    bye: bool = False
    void: bool = False

    @property
    def played(self) -> bool:
        return self.opponent is not None and not self.void


@dataclass(frozen=True, slots=True)
class Player:
    """One entrant: user ID, starting number and every earlier round of theirs (played or not)."""

    user: int
    number: int
    rounds: tuple[Outing, ...]

    @property
    def score(self) -> float:
        return sum(outing.points for outing in self.rounds)


@dataclass(frozen=True, slots=True)
class Paired:
    """A round's pairing: the system that made it and its tables (games first seat first, then the bye)."""

    system: str
    tables: list[tuple[int, ...]]


def system_for(players: int) -> str:
    """The system that pairs a round of ``players``: :data:`DUTCH` up to :data:`DUTCH_MOST_PLAYERS`, else :data:`FAST`.

    >>> system_for(512), system_for(513)
    ('dutch', 'fast')
    """
    return DUTCH if players <= DUTCH_MOST_PLAYERS else FAST


def pair(
    players: Sequence[Player],
    *,
    total_rounds: int,
    playing: Sequence[int] | None = None,
    system: str | None = None,
) -> Paired:
    """Pair the next round of every ``playing`` player (all by default) by ``system`` (by size by default).

    ``players`` are every entrant, withdrawn ones too: their games still count for their opponents' floats
    and for who has met whom.  Every entrant has the same number of earlier rounds.
    """
    still = {p.user for p in players} if playing is None else set(playing)
    field_size = sum(1 for p in players if p.user in still)
    chosen = system or system_for(field_size)
    if field_size < 2:
        return Paired(chosen, [(p.user,) for p in players if p.user in still])
    fast = _FastSwiss([p for p in players if p.user in still])
    if chosen == DUTCH:
        try:
            return Paired(DUTCH, _pair_dutch(players, still, total_rounds))
        except SwissError:
            # Dutch's absolute colour rule (C.3) can leave a small field without a pairing where one without
            # a repeat exists; the Fast system's last resort ignores colours and finds it (or raises too).
            return Paired(FAST, fast.pair())
    if chosen == FAST:
        return Paired(FAST, fast.pair())
    raise ValueError(f"unknown Swiss system {chosen!r}")


# -- Dutch, by py4swiss ------------------------------------------------------------------------------

_RESULTS = {1.0: ResultToken.WIN, 0.5: ResultToken.DRAW, 0.0: ResultToken.LOSS}


def _trf_round(outing: Outing, ids: dict[int, int]) -> RoundResult:
    """One round of a player's line in the tournament report (TRF) that py4swiss reads."""
    if outing.bye:
        return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.PAIRING_ALLOCATED_BYE)
    if outing.opponent is None:  # not paired (joined later, or away): a zero-point bye, which is no bye
        return RoundResult(id=0, color=ColorToken.BYE_OR_NOT_PAIRED, result=ResultToken.ZERO_POINT_BYE)
    colour = ColorToken.WHITE if outing.first else ColorToken.BLACK
    # A cancelled game is a double forfeit: not played, so it gives neither colour nor float; the pair is still
    # forbidden below.
    result = ResultToken.FORFEIT_LOSS if outing.void else _RESULTS[outing.points]
    return RoundResult(id=ids[outing.opponent], color=colour, result=result)


def _pair_dutch(players: Sequence[Player], playing: set[int], total_rounds: int) -> list[tuple[int, ...]]:
    ordered = sorted(players, key=lambda p: p.number)
    ids = {p.user: index for index, p in enumerate(ordered, 1)}  # TRF starting numbers: 1..n, in entry order
    users = {index: user for user, index in ids.items()}
    sections = []
    forbidden: set[tuple[int, int]] = set()
    for p in ordered:
        results = [_trf_round(outing, ids) for outing in p.rounds]
        points = round(10 * p.score)  # TRF points are tenths
        sections.append(
            PlayerSection(
                code=PlayerCode.PLAYER,
                starting_number=ids[p.user],
                points_times_ten=points,
                rank=ids[p.user],
                results=results,
            )
        )
        forbidden.update((ids[p.user], ids[o.opponent]) for o in p.rounds if o.opponent is not None)
    rounds = len(ordered[0].rounds) + 1
    x_section = XSection(
        number_of_rounds=max(total_rounds, rounds),
        zeroed_ids={ids[p.user] for p in ordered if p.user not in playing},
        forbidden_pairs=forbidden,
    )
    try:
        found = DutchEngine.generate_pairings(ParsedTrf(player_sections=sections, x_section=x_section))
    except PairingError as error:
        raise SwissError(str(error)) from error
    games = [(users[g.white], users[g.black]) for g in found if g.black]
    return [*games, *((users[g.white],) for g in found if not g.black)]


# -- Fast Swiss ---------------------------------------------------------------------------------------

# Colour preferences (FIDE A.6): the side (+1 the first seat, -1 the second, 0 none) and its strength.
NONE, MILD, STRONG, ABSOLUTE = 0, 1, 2, 3


@dataclass(eq=False, slots=True)
class _Entrant:
    user: int
    number: int
    score: float
    met: set[int]
    side: int
    strength: int
    byes: int
    rank: int = 0


def _entrant(player: Player) -> _Entrant:
    seats = [o.first for o in player.rounds if o.played]
    firsts = sum(seats)
    difference = firsts - (len(seats) - firsts)
    double = len(seats) >= 2 and seats[-1] == seats[-2]
    side = -1 if difference > 0 else 1 if difference < 0 else (-1 if seats[-1] else 1) if seats else 0
    strength = ABSOLUTE if abs(difference) > 1 or double else STRONG if difference else MILD if seats else NONE
    return _Entrant(
        user=player.user,
        number=player.number,
        score=player.score,
        met={o.opponent for o in player.rounds if o.opponent is not None},
        side=side,
        strength=strength,
        byes=sum(1 for o in player.rounds if o.bye),
    )


@dataclass
class _FastSwiss:
    """One round of the Fast Swiss system over the players still in."""

    players: list[Player]
    pairs: list[tuple[_Entrant, _Entrant]] = field(default_factory=list)
    bye: _Entrant | None = None

    def pair(self) -> list[tuple[int, ...]]:
        entrants = [_entrant(p) for p in self.players]
        entrants.sort(key=lambda e: (-e.score, e.number))
        for rank, entrant in enumerate(entrants):
            entrant.rank = rank
        if len(entrants) % 2:
            # As in Burstein: the lowest-ranked player who has had no bye (if everyone has, who had fewest).
            self.bye = max((e for e in entrants if e.byes == min(e.byes for e in entrants)), key=lambda e: e.rank)
            entrants.remove(self.bye)
        groups: list[list[_Entrant]] = []
        for entrant in entrants:
            if groups and groups[-1][0].score == entrant.score:
                groups[-1].append(entrant)
            else:
                groups.append([entrant])
        left: list[_Entrant] = []
        for index, group in enumerate(groups):
            while group:
                player = group.pop(0)
                partner = self._partner(player, index, groups)
                if partner is None:
                    left.append(player)
                else:
                    self.pairs.append((player, partner))
        if left:
            self._complete(left)
        games = sorted((_seat(a, b) for a, b in self.pairs), key=_board)
        tables: list[tuple[int, ...]] = [(first.user, second.user) for first, second in games]
        return tables + ([(self.bye.user,)] if self.bye is not None else [])

    def _partner(self, player: _Entrant, index: int, groups: list[list[_Entrant]]) -> _Entrant | None:
        """Find, take out of its group and return the opponent of ``player`` (``None``: nobody unmet is left)."""
        own = groups[index]

        def in_group() -> Iterator[tuple[list[_Entrant], int]]:
            start = max(0, (len(own) + 1) // 2 - 1)  # the top of the bottom half, as Dutch's S1 meets S2
            for at in (*range(start, len(own)), *range(start)):
                yield own, at

        def below() -> Iterator[tuple[list[_Entrant], int]]:
            for group in groups[index + 1 :]:
                for at in range(len(group)):
                    yield group, at

        for places, least in ((in_group, 2), (in_group, 1), (below, 2), (below, 1), (in_group, 0), (below, 0)):
            refused = 0
            for group, at in places():
                other = group[at]
                if other.user in player.met:
                    continue
                if _colours(player, other) < least:
                    refused += 1
                    if refused == COLOUR_REFUSALS:
                        break
                    continue
                del group[at]
                return other
        return None

    def _complete(self, left: list[_Entrant]) -> None:
        """Pair ``left`` with the players paired last, reaching twice as far back each time it cannot.

        With every pair undone and still no pairing, the bye is chosen again with the rest, by the matching.
        """
        reach = len(left)
        pool = left
        while True:
            undone = self.pairs[len(self.pairs) - min(reach, len(self.pairs)) :]
            del self.pairs[len(self.pairs) - len(undone) :]
            pool = pool + [e for pair in undone for e in pair]
            matched = _best_matching(pool)
            if matched is not None:
                self.pairs.extend(matched)
                return
            if not self.pairs:
                break
            reach = 2 * len(pool)
        if self.bye is None:
            raise SwissError("no pairing of this round avoids a repeat pairing")
        pool.append(self.bye)
        fewest = min(e.byes for e in pool)
        matched, bye = _best_matching_with_bye(pool, [e for e in pool if e.byes == fewest])
        if matched is None:
            raise SwissError("no pairing of this round avoids a repeat pairing and a second bye")
        self.pairs.extend(matched)
        self.bye = bye


def _colours(a: _Entrant, b: _Entrant) -> int:
    """How well two players' colours go together: 2 both granted, 1 one refused but allowed, 0 forbidden."""
    if a.side == 0 or b.side == 0 or a.side != b.side:
        return 2
    return 0 if a.strength == b.strength == ABSOLUTE else 1


def _seat(a: _Entrant, b: _Entrant) -> tuple[_Entrant, _Entrant]:
    """Who sits first (FIDE E.1, E.2, E.4, E.5): both preferences, else the stronger, else the higher ranked."""
    higher, lower = (a, b) if a.rank < b.rank else (b, a)
    if higher.side == 0 and lower.side == 0:  # E.5: the initial colour (first) to an odd-numbered higher player
        return (higher, lower) if higher.number % 2 else (lower, higher)
    if higher.side != lower.side:
        wants = higher if higher.side == 1 or lower.side == -1 else lower
        return (wants, lower if wants is higher else higher)
    stronger = higher if higher.strength >= lower.strength else lower
    other = lower if stronger is higher else higher
    return (stronger, other) if stronger.side == 1 else (other, stronger)


def _board(pair: tuple[_Entrant, _Entrant]) -> tuple[float, float, int]:
    """The order of the boards: the higher score of the two, then their sum, then the higher one's rank."""
    a, b = pair
    return (-max(a.score, b.score), -(a.score + b.score), min(a.rank, b.rank))


def _best_matching(pool: list[_Entrant]) -> list[tuple[_Entrant, _Entrant]] | None:
    """Pair all of ``pool`` without a repeat, the scores as close and the colours as granted as can be.

    ``None`` if no such pairing exists.
    """
    matched, _ = _best_matching_with_bye(pool, [])
    return matched


def _best_matching_with_bye(
    pool: list[_Entrant], may_have_bye: list[_Entrant]
) -> tuple[list[tuple[_Entrant, _Entrant]] | None, _Entrant | None]:
    """Pair ``pool`` as :func:`_best_matching` does, one of ``may_have_bye`` (if any) taking the bye.

    The weights are small integers (score difference in half points, then one of three colour grades, or
    the bye's holder's rank), so a compiled matcher's machine integers hold them.
    """
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(len(pool) + 1))
    halves = [round(2 * e.score) for e in pool]
    spread = max(halves) - min(halves) + 1
    for i, a in enumerate(pool):
        for j in range(i + 1, len(pool)):
            b = pool[j]
            if b.user not in a.met:
                closeness = spread - abs(halves[i] - halves[j])
                graph.add_edge(i, j, closeness * 3 + _colours(a, b) + 1)
    bye_node = len(pool)
    for entrant in may_have_bye:
        graph.add_edge(pool.index(entrant), bye_node, 1 + entrant.rank)  # the lowest-ranked, as in Burstein
    matching = rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    if 2 * len(matching) < len(pool) - (1 if may_have_bye else 0):
        return None, None
    pairs = []
    bye = None
    for i, j in sorted(matching):
        if bye_node in (i, j):
            bye = pool[i + j - bye_node]
        else:
            pairs.append((pool[i], pool[j]))
    return pairs, bye
