"""Querni: race to clear your 16 numbered pieces off a 10x7 board in chains.

Rules in brief (``docs/querni.md`` gives them in full).  Two players,
blue (moves first) and red, each own 16 pieces numbered 1 to 16.  Blue starts on
files b-i of ranks 1-2, red on files b-i of ranks 6-7; the numbers on those
squares are shuffled from the game's seed, each side independently (the
``layout`` option places pieces by hand instead).  A turn is one of:

* a *move* of one of your pieces, either a *step* to an empty king-adjacent
  square, or a *jump* sequence: over one adjacent piece of either colour, in a
  straight orthogonal or diagonal line, onto the empty square right behind it,
  repeated as often as wished, changing direction freely, but never landing on
  a square twice in one turn (the start counts as visited);
* the *removal* of a chain of your own colour: three or more consecutive
  numbers ``a..b`` each king-adjacent to the previous number (any part of a
  longer chain that is itself three or more numbers may go);
* a move, then a removal judged on the position after the move;
* a *pass* (always allowed).

Removing your last piece wins.  A removal that leaves one of your numbers in a
run of fewer than three consecutive remaining numbers loses at once (option
``isolation="no_triple_left"``: lose only when no three consecutive numbers are
left).  After ``draw_plies`` (30) plies in a row without a removal the game is a
draw (``draw_count="moves"`` counts full moves of both players instead).

Notation: squares ``a1`` (bottom left, blue's side) to ``j7``; turns ``c3-e5``
(move: start and end square only, the engine finds the steps or jumps),
``x4-7`` (remove the chain of numbers 4 to 7), ``c3-e5 x4-7`` (both, the move
first) and ``pass``.

>>> state = new(layout={"c3": "B1", "d4": "B2", "e4": "B3", "j7": "R1"})
>>> state.move_text(state.parse_move(" C3 E5  X1..3 "))
'c3-e5 x1-3'
>>> [state.cell_name(c) for c in state.path("c3-e5")]
['c3', 'e5']
>>> after = state.play("c3-e5 x1-3")
>>> after.outcome().termination, after.outcome().winners
(<Termination.CLEARED: 'cleared'>, (0,))
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import pairwise
from typing import Any, NamedTuple

from engines.base import (
    ABANDONED,
    AGREED,
    FORFEIT,
    SAVE_FORMAT,
    TIMEOUT,
    GameError,
    GameSpec,
    IllegalMove,
    InvalidMoveText,
    InvalidOption,
    InvalidState,
    OptionSpec,
    Outcome,
    check_forfeit,
    check_players,
    check_seed,
    draw_of_two,
    forfeit_of_two,
    int_list,
    keyword_replace,
    legacy_forfeit_code,
    load_saved,
    positional_replace,
    resolve_options,
    saved_options,
    slot_constructor,
    win_for,
)
from engines.rng import Rng

SEATS = ("blue", "red")
LETTERS = "BR"
FILES = "abcdefghij"
WIDTH = 10
HEIGHT = 7
CELLS = WIDTH * HEIGHT
PIECES = 16  # numbered pieces per side
MIN_CHAIN = 3  # a chain, and a removal, is at least this many consecutive numbers

# DECIDED start squares: blue on files b-i of ranks 1-2, red on files b-i of ranks 6-7.
START_SQUARES = (
    tuple(r * WIDTH + f for r in (0, 1) for f in range(1, 9)),
    tuple(r * WIDTH + f for r in (5, 6) for f in range(1, 9)),
)

ISOLATION_RULES = ("any_stranded", "no_triple_left")
DRAW_COUNTS = ("plies", "moves")
DEFAULT_DRAW_PLIES = 30

OPTIONS = (
    OptionSpec(
        "layout",
        None,
        "Custom start, squares to pieces such as {'d2': 'B4', 'e3': 'R5'}; pieces left out count as removed.",
    ),
    OptionSpec(
        "isolation",
        "any_stranded",
        "When a removal loses: any_stranded (a number left in a run under 3) or no_triple_left.",
        ISOLATION_RULES,
    ),
    OptionSpec("draw_plies", DEFAULT_DRAW_PLIES, "Turns in a row without a removal that draw the game.", None, 1, 1000),
    OptionSpec("draw_count", "plies", "Count draw_plies in plies (one player's turn) or full moves.", DRAW_COUNTS),
)


class Termination(StrEnum):
    """How a game of Querni ends."""

    CLEARED = "cleared"  # the mover removed their last piece and wins
    STRANDED = "stranded"  # (any_stranded) the mover's removal left a number in a run under three: they lose
    NO_TRIPLE = "no_triple"  # (no_triple_left) the mover's removal left no three consecutive numbers: they lose
    NO_REMOVAL = "no_removal"  # draw_plies turns (or full moves) without a removal: a draw
    FORFEIT = FORFEIT  # a player resigned
    TIMEOUT = TIMEOUT  # a player let the deadline pass
    ABANDONED = ABANDONED  # a player let the deadline pass twice over: the game ended on time by itself
    AGREED = AGREED  # the players agreed to a draw


def _legacy_termination(reason: str) -> Termination:
    """Return the code of a format-1 result sentence."""
    if "removed all their pieces" in reason:
        return Termination.CLEARED
    if "'s removal stranded" in reason:
        return Termination.STRANDED
    if "'s removal left no three consecutive numbers" in reason:
        return Termination.NO_TRIPLE
    if reason.startswith("No chain was removed"):
        return Termination.NO_REMOVAL
    return Termination(legacy_forfeit_code(reason))


# Verdicts of :func:`judge_removal`.
STRANDS, SAFE, WINS = -1, 0, 1


# -- the board ------------------------------------------------------------------
#
# A cell holds 0 (empty) or a piece value 16 * colour + number: blue 1..16, red 17..32.
# Cells are numbered rank-major from a1 = 0 to j7 = 69, so moves sort by square.

EMPTY = 0
COLOUR = (-1, *(v // PIECES for v in range(PIECES * 2)))
NUMBER = (0, *(v % PIECES + 1 for v in range(PIECES * 2)))
NAMES = tuple(f"{FILES[c % WIDTH]}{c // WIDTH + 1}" for c in range(CELLS))
INDEX = {name: c for c, name in enumerate(NAMES)}
DIRECTIONS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def _tables() -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...]]:
    """Build the king-neighbour and jump tables of the 10x7 board."""
    near: list[tuple[int, ...]] = []
    jumps: list[tuple[tuple[int, int], ...]] = []
    for c in range(CELLS):
        f, r = c % WIDTH, c // WIDTH
        one, two = [], []
        for df, dr in DIRECTIONS:
            if 0 <= f + df < WIDTH and 0 <= r + dr < HEIGHT:
                one.append((r + dr) * WIDTH + f + df)
                if 0 <= f + 2 * df < WIDTH and 0 <= r + 2 * dr < HEIGHT:
                    two.append(((r + dr) * WIDTH + f + df, (r + 2 * dr) * WIDTH + f + 2 * df))
        near.append(tuple(sorted(one)))
        jumps.append(tuple(two))
    return tuple(near), tuple(jumps)


# NEAR[c]: king neighbours of c, sorted; JUMPS[c]: (jumped square, landing square) pairs.
NEAR, JUMPS = _tables()
NEAR_SET = tuple(frozenset(n) for n in NEAR)
NO_CELLS: frozenset[int] = frozenset()

# Link bit n - 1 (n = 1..15) says numbers n and n + 1 of one colour stand king-adjacent.
LINK_BITS = (1 << (PIECES - 1)) - 1


def piece_code(value: int) -> str:
    """Return the text of a cell's content: ``B4``, ``R12`` or ``..`` for empty."""
    if value == EMPTY:
        return ".."
    return f"{LETTERS[COLOUR[value]]}{NUMBER[value]}"


_PIECE_RE = re.compile(r"^(b|blue|r|red)\s*(\d{1,2})$")


def piece_value(colour: int, number: int) -> int:
    """Return the cell value of ``colour``'s piece ``number``."""
    return colour * PIECES + number


def _parse_piece(text: Any, error: type[GameError]) -> int:
    """Return the value of a piece written like ``B4`` or ``red 12``; raise ``error`` otherwise."""
    match = _PIECE_RE.match(" ".join(text.lower().split())) if isinstance(text, str) else None
    if not match or not 1 <= int(match.group(2)) <= PIECES:
        if error is InvalidOption:
            raise InvalidOption("{text!r} is not a Querni piece; write B1 to B16 or R1 to R16.", text=str(text)[:20])
        raise InvalidState("{text!r} is not a Querni piece; write B1 to B16 or R1 to R16.", text=str(text)[:20])
    return piece_value(0 if match.group(1)[0] == "b" else 1, int(match.group(2)))


class QuerniMove(NamedTuple):
    """One turn: a move ``frm`` -> ``to`` and/or a removal ``lo``..``hi``; absent parts are -1."""

    frm: int
    to: int
    lo: int
    hi: int


PASS = QuerniMove(-1, -1, -1, -1)
_new_tuple = tuple.__new__
# Every plain move object, built once: legal-move lists reuse them instead of allocating.
_PLAIN = tuple(_new_tuple(QuerniMove, (frm, to, -1, -1)) for frm in range(CELLS) for to in range(CELLS))


# _PLAIN_FROM[start][end]: the plain move from ``start`` to ``end``.
_PLAIN_FROM = tuple(_PLAIN[start * CELLS : (start + 1) * CELLS] for start in range(CELLS))
# _AROUND[n]: the link bits of piece n, to n - 1 and to n + 1 (the only links moving it can change).
_AROUND = (0, *(((1 << (n - 2)) if n > 1 else 0) | ((1 << (n - 1)) if n < PIECES else 0) for n in range(1, PIECES + 1)))


# _BEFORE_PREV[n]: the link bit of n - 2 and n - 1; _AFTER_NEXT[n]: that of n + 1 and n + 2 (0 if off the ends).
_BEFORE_PREV = (0, *((1 << (n - 3)) if n > 2 else 0 for n in range(1, PIECES + 1)))
_AFTER_NEXT = (0, *((1 << n) if n < PIECES - 1 else 0 for n in range(1, PIECES + 1)))
# NEAR_BOTH[a * CELLS + b]: the squares next to both a and b.
NEAR_BOTH = tuple(NEAR_SET[a] & NEAR_SET[b] or NO_CELLS for a in range(CELLS) for b in range(CELLS))


def _runs_to_ranges(mask: int) -> tuple[tuple[int, int], ...]:
    """List every ``(lo, hi)`` with ``hi - lo >= 2`` whose links are all set in ``mask``, sorted."""
    ranges = []
    for lo in range(1, PIECES - 1):
        hi = lo
        while hi < PIECES and mask >> (hi - 1) & 1:
            hi += 1
            if hi - lo >= MIN_CHAIN - 1:
                ranges.append((lo, hi))
    return tuple(ranges)


# Removable ranges and removal-only moves for each 15-bit link mask, filled on first use.
_RANGES: list[tuple[tuple[int, int], ...] | None] = [None] * (LINK_BITS + 1)
_REMOVE_ONLY: dict[int, tuple[QuerniMove, ...]] = {}


def _ranges(mask: int) -> tuple[tuple[int, int], ...]:
    """Return the removable ranges of a link mask, computing them once."""
    found = _RANGES[mask]
    if found is None:
        found = _RANGES[mask] = _runs_to_ranges(mask)
    return found


def _link_mask(where: tuple[int, ...] | list[int], base: int) -> int:
    """Return the link bits of the colour whose values start after ``base``."""
    mask = 0
    here = where[base + 1]
    for n in range(1, PIECES):
        there = where[base + n + 1]
        if here >= 0 and there >= 0 and there in NEAR_SET[here]:
            mask |= 1 << (n - 1)
        here = there
    return mask


# STEP_JUMP[c]: for each king neighbour of c, sorted, (neighbour, the square behind it or -1 off the board).
STEP_JUMP = tuple(tuple((n, dict(JUMPS[c]).get(n, -1)) for n in NEAR[c]) for c in range(CELLS))


# _generate's area marks: an area's number (below 254), an empty square of no area yet, an occupied square.
_OPEN, _BLOCKED = 255, 254
_AREA_MARKS = bytes((_OPEN, *[_BLOCKED] * 255))  # a board's bytes translated: 0 (empty) -> _OPEN, a piece -> _BLOCKED
# _STEP_JUMP_MARKED[c]: STEP_JUMP[c] with a landing off the board at CELLS, which the marks hold as occupied.
_STEP_JUMP_MARKED = tuple(tuple((mid, CELLS if land < 0 else land) for mid, land in pairs) for pairs in STEP_JUMP)


def _ends(board: tuple[int, ...], start: int) -> list[int]:
    """Return, sorted, every square the piece on ``start`` can end on by a step or a jump sequence."""
    steps = []
    todo = []
    for mid, land in STEP_JUMP[start]:
        if not board[mid]:
            steps.append(mid)
        elif land >= 0 and not board[land]:
            todo.append(land)
    if not todo:
        return steps
    # Any square the jump graph connects to the start is reachable without landing twice
    # (a shortest sequence never repeats a square), so a flood fill finds every end.
    # The mover has left its start, so nothing can be jumped there.
    seen = {start, *todo}
    while todo:
        here = todo.pop()
        for mid, land in JUMPS[here]:
            if board[mid] and not board[land] and land not in seen and mid != start:
                seen.add(land)
                todo.append(land)
    seen.discard(start)
    seen.update(steps)
    return sorted(seen)


def _path(board: tuple[int, ...], start: int, end: int) -> tuple[int, ...]:
    """Return the landings from ``start`` to ``end`` (a step if one does), or () if unreachable."""
    if end in NEAR_SET[start] and not board[end]:
        return (start, end)
    came = {start: -1}
    todo = [start]
    for here in todo:  # breadth first, so the sequence found is a shortest one
        for mid, land in JUMPS[here]:
            if board[mid] and not board[land] and mid != start and land not in came:
                came[land] = here
                if land == end:
                    path = [end]
                    while path[-1] != start:
                        path.append(came[path[-1]])
                    return tuple(reversed(path))
                todo.append(land)
    return ()


def _area_ends(board: tuple[int, ...], start: int, area: list[int], members: list[list[int]]) -> list[int]:
    """Return what :func:`_ends` returns for ``start``, through the jump areas ``area`` and ``members`` of ``board``.

    An area is a connected part of the graph of the jumps open on ``board`` (every piece in place): ``area``
    numbers each empty square's area once found (-1 until then), ``members`` lists each area's squares, and
    :func:`_generate` shares them between the pieces it moves.  A jump goes over an adjacent piece onto the empty
    square right behind it, so it keeps both coordinates' parities: a piece's landings all have its own square's
    parities and its neighbours never do.  Hence what a piece reaches by jumps is exactly the union of the areas
    holding its first landings: the only difference leaving its start makes is the jumps over that start, which
    join two of its neighbours, squares of other parities.  No area holds the start (occupied here).
    """
    steps = []
    firsts = []
    for mid, land in STEP_JUMP[start]:
        if not board[mid]:
            steps.append(mid)
        elif land >= 0 and not board[land]:
            firsts.append(land)
    if not firsts:
        return steps
    # Areas are disjoint, and hold none of the steps (squares of other parities): a list needs no set.
    reached = steps
    found: list[int] = []
    for first in firsts:
        number = area[first]
        if number < 0:
            number = area[first] = len(members)
            group = [first]
            for here in group:  # grows as it goes: a flood fill of the area
                for mid, land in JUMPS[here]:
                    if board[mid] and not board[land] and area[land] < 0:
                        area[land] = number
                        group.append(land)
            members.append(group)
        if number not in found:
            reached += members[number]
            found.append(number)
    reached.sort()
    return reached


def _generate(board: tuple[int, ...], where: tuple[int, ...], player: int) -> tuple[QuerniMove, ...]:
    """Return every legal turn of ``player``, sorted: pass, removals, then moves with their removals.

    A piece's ends are found as :func:`_area_ends` finds them, inline, with ``area`` also marking the occupied
    squares (one test per jump instead of two).  Globals used in the loops are bound to locals.

    Moving piece n changes only its links to n - 1 and n + 1: after a move to ``end`` the removable ranges are
    those of the links it keeps plus the ones ``end`` makes.  Two links in a row make a chain, so when the kept
    links hold none, an end adds removals only if it touches n - 1 and the link n - 2, n - 1 is kept, or
    touches n + 1 and the link n + 1, n + 2 is kept, or touches both.  Most pieces have no such end: only
    their plain moves go in.
    """
    base = player * PIECES
    mask = _link_mask(where, base)
    remove_only = _REMOVE_ONLY.get(mask)
    if remove_only is None:
        remove_only = _REMOVE_ONLY[mask] = tuple(_new_tuple(QuerniMove, (-1, -1, lo, hi)) for lo, hi in _ranges(mask))
    out = [PASS, *remove_only]
    append = out.append
    extend = out.extend
    area = list(bytes(board).translate(_AREA_MARKS))
    area.append(_BLOCKED)  # square CELLS: off the board
    members: list[list[int]] = []
    rows = _PLAIN_FROM
    ranges = _RANGES
    tnew = _new_tuple
    open_mark = _OPEN
    blocked = _BLOCKED
    step_jump = _STEP_JUMP_MARKED
    jumps = JUMPS
    near = NEAR_SET
    around = _AROUND
    for start in sorted([c for c in where[base + 1 : base + PIECES + 1] if c >= 0]):
        ends = []
        firsts = []
        for mid, land in step_jump[start]:
            if not board[mid]:
                ends.append(mid)
            elif area[land] != blocked:
                firsts.append(land)
        if firsts:
            # Areas are disjoint, and hold none of the steps (squares of other parities): a list needs no set.
            found: list[int] = []
            for first in firsts:
                number = area[first]
                if number == open_mark:
                    number = area[first] = len(members)
                    group = [first]
                    for here in group:  # grows as it goes: a flood fill of the area
                        for mid, land in jumps[here]:
                            if area[land] == open_mark and board[mid]:
                                area[land] = number
                                group.append(land)
                    members.append(group)
                if number not in found:
                    ends += members[number]
                    found.append(number)
            ends.sort()
        elif not ends:
            continue
        n = board[start] - base
        keep = mask & ~around[n]
        prev = where[base + n - 1] if n > 1 else -1
        after = where[base + n + 1] if n < PIECES else -1
        plain_from = rows[start]
        if not keep & keep >> 1:
            # The kept links hold no chain: find the ends whose new links make one.
            if prev >= 0 and keep & _BEFORE_PREV[n]:
                linking = near[prev] | near[after] if after >= 0 and keep & _AFTER_NEXT[n] else near[prev]
            elif after >= 0 and keep & _AFTER_NEXT[n]:
                linking = near[after]
            elif prev >= 0 and after >= 0:
                linking = NEAR_BOTH[prev * CELLS + after]
            else:
                linking = NO_CELLS
            if linking.isdisjoint(ends):
                for end in ends:
                    append(plain_from[end])
                continue
        # Each end's plain move, then its removals: those of the links it keeps and of those it makes.
        alone = ranges[keep]
        if alone is None:
            alone = _ranges(keep)
        near_prev = near_next = NO_CELLS
        with_prev = with_next = with_both = alone
        if prev >= 0 and not near[prev].isdisjoint(ends):
            near_prev = near[prev]
            with_both = with_prev = _ranges(keep | 1 << (n - 2))
        if after >= 0 and not near[after].isdisjoint(ends):
            near_next = near[after]
            with_next = _ranges(keep | 1 << (n - 1))
            with_both = _ranges(keep | 3 << (n - 2)) if near_prev else with_next
        for end in ends:
            append(plain_from[end])
            if end in near_prev:
                chosen = with_both if end in near_next else with_prev
            else:
                chosen = with_next if end in near_next else alone
            if chosen:
                extend([tnew(QuerniMove, (start, end, lo, hi)) for lo, hi in chosen])
    return tuple(out)


def present_numbers(where: tuple[int, ...] | list[int], colour: int) -> int:
    """Return a mask of ``colour``'s numbers still on the board: bit ``n - 1`` for number ``n``."""
    base = colour * PIECES
    mask = 0
    for n in range(1, PIECES + 1):
        if where[base + n] >= 0:
            mask |= 1 << (n - 1)
    return mask


def short_runs(present: int) -> tuple[int, ...]:
    """Return the numbers of ``present`` (a mask) standing in a run of consecutive numbers shorter than a chain."""
    short: list[int] = []
    run: list[int] = []
    for n in range(1, PIECES + 2):
        if n <= PIECES and present >> (n - 1) & 1:
            run.append(n)
            continue
        if 0 < len(run) < MIN_CHAIN:
            short.extend(run)
        run = []
    return tuple(short)


def has_chain_left(present: int) -> bool:
    """Tell whether ``present`` (a mask) still holds three consecutive numbers."""
    return bool(present & present >> 1 & present >> 2)


def judge_removal(present: int, lo: int, hi: int, isolation: str) -> int:
    """Judge removing ``lo..hi`` from the numbers in ``present``: :data:`WINS`, :data:`SAFE` or :data:`STRANDS`.

    Clearing the board wins (checked first); otherwise, under ``any_stranded`` a number left
    in a run shorter than a chain loses, under ``no_triple_left`` having no chain left loses.
    """
    left = present & ~(((1 << (hi - lo + 1)) - 1) << (lo - 1))
    if not left:
        return WINS
    if isolation == "any_stranded":
        return STRANDS if short_runs(left) else SAFE
    return SAFE if has_chain_left(left) else STRANDS


def _stranding(where: tuple[int, ...] | list[int], base: int, isolation: str) -> tuple[int, ...] | None:
    """Return the numbers that doom a removal under ``isolation`` (empty if none single out), or None if safe."""
    present = present_numbers(where, base // PIECES)
    if isolation == "any_stranded":
        return short_runs(present) or None
    return None if has_chain_left(present) else ()


def jumped_squares(path: tuple[int, ...]) -> tuple[int, ...]:
    """Return the squares a path of landings jumped over, one per jump (empty for a step)."""
    out = []
    for a, b in pairwise(path):
        if b not in NEAR_SET[a]:
            out.append(((a // WIDTH + b // WIDTH) // 2) * WIDTH + (a % WIDTH + b % WIDTH) // 2)
    return tuple(out)


def is_step(path: tuple[int, ...]) -> bool:
    """Tell whether a path of landings is one step (a jump always lands two squares away)."""
    return len(path) == 2 and path[1] in NEAR_SET[path[0]]


class Route(NamedTuple):
    """How a move's piece gets to its square: every landing, start first, and the squares it jumped over."""

    path: tuple[int, ...]
    jumped: tuple[int, ...]

    @property
    def stepped(self) -> bool:
        """Tell whether the piece gets there by one step rather than by jumps."""
        return is_step(self.path)

    @property
    def jumps(self) -> int:
        """Return how many jumps it takes (0 for a step)."""
        return len(self.jumped)


@dataclass(frozen=True, slots=True)
class QuerniEvent:
    """What one ply did, kept in the state for the summary line and the picture.

    ``path`` is every landing of the moved piece from its start to its end
    (``()`` if nothing moved); ``removed`` the removed chain as ``(number,
    square)`` pairs, the square being where that piece stood when it left;
    ``counter`` the plies without a removal after this ply.
    """

    player: int
    move: QuerniMove
    piece: int  # number of the moved piece, 0 if nothing moved
    path: tuple[int, ...]
    removed: tuple[tuple[int, int], ...]
    counter: int

    @property
    def jumped(self) -> tuple[int, ...]:
        """Return the squares jumped over, one per jump (empty for a step)."""
        return jumped_squares(self.path)

    @property
    def stepped(self) -> bool:
        """Tell whether the piece moved by one step (``False`` for jumps, or when no piece moved)."""
        return is_step(self.path)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict of this event."""
        return {
            "player": self.player,
            "move": list(self.move),
            "piece": self.piece,
            "path": list(self.path),
            "removed": [list(pair) for pair in self.removed],
            "counter": self.counter,
        }

    @classmethod
    def from_json(cls, data: Any) -> QuerniEvent:
        """Rebuild an event saved by :meth:`to_json`; raise :class:`InvalidState` if malformed."""
        return _event_from_json(data)


_SQUARE = r"([a-z])\s*([0-9]{1,2})"  # ASCII digits only: \d would read "c٣" as c3
_NUMBER_SEP = r"(?:\s*(?:-+|\.{2,3}|…|to)\s*|\s+)"
_TURN_RE = re.compile(
    rf"^(?:(?:move\s+)?{_SQUARE}\s*(?:-+>?|>|to|\s)?\s*{_SQUARE})?"
    rf"\s*(?:,|;|\+|and|then)?\s*"
    rf"(?:(?:x|remove)\s*(\d{{1,2}}){_NUMBER_SEP}(\d{{1,2}}))?$"
)
_REVERSED_RE = re.compile(rf"^(?:x|remove)\s*\d.*{_SQUARE}\s*(?:-+>?|>|to|\s)?\s*{_SQUARE}$")


@dataclass(frozen=True, slots=True)
class QuerniState:
    """An immutable Querni position.  Build one with :func:`new` or :func:`from_json`.

    ``board`` has 70 cells, a1 = 0 to j7 = 69 rank by rank, each 0 (empty) or a
    piece value ``16 * colour + number`` (see :meth:`piece`); ``removed`` counts
    each side's pieces off the board; ``counter`` the plies since the last removal.
    """

    seed: int
    layout: tuple[tuple[str, str], ...] | None
    isolation: str
    draw_plies: int
    draw_count: str
    board: tuple[int, ...]
    removed: tuple[int, int]
    counter: int
    turn: int
    ply: int
    result: Outcome | None = None
    last: QuerniEvent | None = None
    _legal: tuple[QuerniMove, ...] | None = field(default=None, compare=False, repr=False)
    # Square of each piece value (index 1..32), -1 once removed: derived from the board.
    _where: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    game = "querni"
    players = 2

    # -- reading the position -------------------------------------------------

    @property
    def last_event(self) -> QuerniEvent | None:
        """Return what the last ply did (``None`` before the first)."""
        return self.last

    def short_runs(self, colour: int) -> tuple[int, ...]:
        """Return ``colour``'s remaining numbers that stand in a run of consecutive numbers shorter than a chain."""
        return short_runs(present_numbers(self.where(), colour))

    def has_chain_left(self, colour: int) -> bool:
        """Tell whether ``colour`` still has three consecutive numbers on the board."""
        return has_chain_left(present_numbers(self.where(), colour))

    def stranded(self, colour: int) -> tuple[int, ...]:
        """Return the numbers whose stranding lost ``colour`` the game (a ``stranded`` ending), else ``()``."""
        result = self.result
        if result is None or result.termination != Termination.STRANDED or colour in result.winners:
            return ()
        return self.short_runs(colour)

    @property
    def to_move(self) -> int | None:
        """Index of the player to move (0 blue, 1 red); ``None`` once the game is over."""
        return None if self.result is not None else self.turn

    @property
    def draw_limit(self) -> int:
        """Return the plies without a removal that draw the game."""
        return self.draw_plies * (2 if self.draw_count == "moves" else 1)

    def cell_name(self, cell: int) -> str:
        """Return the name of square ``cell``, e.g. ``c3``."""
        return NAMES[cell]

    def piece(self, cell: int) -> tuple[int, int] | None:
        """Return ``(colour, number)`` of the piece on ``cell``, or ``None`` if it is empty."""
        value = self.board[cell]
        return None if value == EMPTY else (COLOUR[value], NUMBER[value])

    def square_of(self, colour: int, number: int) -> int:
        """Return the square of ``colour``'s piece ``number``, or -1 if it was removed."""
        return self.where()[piece_value(colour, number)]

    def where(self) -> tuple[int, ...]:
        """Return the square of every piece value (index 1..32; index 0 unused), -1 if removed."""
        where = self._where
        if where is None:
            table = [-1] * (2 * PIECES + 1)
            for cell, value in enumerate(self.board):
                if value:
                    table[value] = cell
            where = tuple(table)
            object.__setattr__(self, "_where", where)
        return where

    def scores(self) -> tuple[int, ...]:
        """Return each side's removed pieces."""
        return self.removed

    def outcome(self) -> Outcome | None:
        """Return ``None`` while the game runs, how it ended otherwise."""
        return self.result

    def options(self) -> dict[str, Any]:
        """Return the game's options as given to :func:`new`."""
        return {
            "layout": None if self.layout is None else dict(self.layout),
            "isolation": self.isolation,
            "draw_plies": self.draw_plies,
            "draw_count": self.draw_count,
        }

    def legal_moves(self) -> tuple[QuerniMove, ...]:
        """Return every legal turn, sorted: pass, removals alone, then each move alone and with each removal."""
        legal = self._legal
        if legal is None:
            legal = () if self.result is not None else _generate(self.board, self.where(), self.turn)
            object.__setattr__(self, "_legal", legal)
        return legal

    def reachable(self, cell: int) -> tuple[int, ...]:
        """Return every square the piece on ``cell`` can move to, whoever owns it."""
        if not 0 <= cell < CELLS or not self.board[cell]:
            return ()
        return tuple(_ends(self.board, cell))

    def chains(self, colour: int | None = None) -> tuple[tuple[int, int], ...]:
        """Return every removable range ``(lo, hi)`` of ``colour`` (default: the player to move)."""
        colour = self.turn if colour is None else colour
        return _ranges(_link_mask(self.where(), colour * PIECES))

    def path(self, move: QuerniMove | str) -> tuple[int, ...]:
        """Return every landing of ``move``'s piece, start first (one step, or each jump); () if none moves.

        Raise :class:`IllegalMove` if the piece cannot get there.
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        if move.frm < 0:
            return ()
        self._check_piece_move(move)
        return _path(self.board, move.frm, move.to)

    def route(self, move: QuerniMove | str) -> Route:
        """Return how ``move``'s piece gets there: its landings and the squares it jumps (a step, or jumps).

        Raise :class:`IllegalMove` if the piece cannot get there; an empty route if no piece moves.
        """
        path = self.path(move)
        return Route(path, jumped_squares(path))

    def removal_squares(self, move: QuerniMove | str) -> tuple[int, ...]:
        """Return the squares of ``move``'s chain, lowest number first, as they stand once its piece has moved.

        Empty if the turn removes nothing; -1 stands for a number no longer on the board.
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        if move.lo < 0:
            return ()
        where = self.where()
        base = self.turn * PIECES
        squares = []
        for number in range(move.lo, move.hi + 1):
            square = where[base + number]
            squares.append(move.to if move.frm >= 0 and square == move.frm else square)
        return tuple(squares)

    # -- notation -------------------------------------------------------------

    def move_text(self, move: QuerniMove) -> str:
        """Return the canonical text of ``move``: ``c3-e5``, ``x4-7``, ``c3-e5 x4-7`` or ``pass``."""
        parts = []
        if move.frm >= 0:
            parts.append(f"{NAMES[move.frm]}-{NAMES[move.to]}")
        if move.lo >= 0:
            parts.append(f"x{move.lo}-{move.hi}")
        return " ".join(parts) or "pass"

    def parse_move(self, text: str) -> QuerniMove:
        """Read a turn leniently (case, spaces, ``c3 e5``, ``x4..7``, ``x 4-7``); raise :class:`GameError`."""
        if not isinstance(text, str):
            raise InvalidMoveText("A turn must be text; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'.")
        clean = " ".join(text.lower().replace("–", "-").replace("—", "-").replace("→", "-").split())
        if len(clean) > 40:
            raise InvalidMoveText("That turn is too long; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'.")
        if clean in ("pass", "p", "skip"):
            return PASS
        match = _TURN_RE.match(clean)
        if not clean or not match:
            if _REVERSED_RE.match(clean):
                raise InvalidMoveText("Move first, then remove: write the move before the chain, like 'c3-e5 x4-7'.")
            if re.fullmatch(r"[a-j]\s*\d{1,2}", clean):
                raise InvalidMoveText("Name both the start and the end square of a move, like 'c3-e5'.")
            raise InvalidMoveText(
                "I can't read {text!r}; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'.",
                text=text.strip()[:40],
            )
        f1, r1, f2, r2, lo_text, hi_text = match.groups()
        if f1 is None and lo_text is None:
            raise InvalidMoveText(
                "I can't read {text!r}; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'.",
                text=text.strip()[:40],
            )
        frm = to = lo = hi = -1
        if f1 is not None:
            frm = _square(f1, r1)
            to = _square(f2, r2)
        if lo_text is not None:
            lo, hi = sorted((int(lo_text), int(hi_text)))
            if lo < 1 or hi > PIECES:
                raise InvalidMoveText(
                    "Pieces are numbered 1 to {pieces}, so x{lo}-{hi} cannot be removed.", pieces=PIECES, lo=lo, hi=hi
                )
        return QuerniMove(frm, to, lo, hi)

    def parse_square(self, text: str) -> int:
        """Return the square named by ``text`` (e.g. ``"C3"``); raise :class:`GameError`."""
        match = re.fullmatch(_SQUARE, " ".join(str(text).lower().split()))
        if not match:
            raise InvalidMoveText("{text!r} is not a square; squares look like 'c3'.", text=str(text).strip()[:20])
        return _square(match.group(1), match.group(2))

    # -- playing --------------------------------------------------------------

    def play(self, move: QuerniMove | str) -> QuerniState:
        """Return the state after ``move`` (a move value or its text); raise :class:`GameError` if illegal."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif type(move) is not QuerniMove or not (
            type(move[0]) is int and type(move[1]) is int and type(move[2]) is int and type(move[3]) is int
        ):
            raise InvalidMoveText("That is not a Querni turn.")
        if self.result is not None:
            raise IllegalMove("The game is over.")
        legal = self.legal_moves()
        i = bisect_left(legal, move)
        if i == len(legal) or legal[i] != move:
            raise self._refusal(move)

        player = self.turn
        base = player * PIECES
        old = self.board
        board = list(old)
        where = list(self.where())
        frm, to, lo, hi = move
        path: tuple[int, ...] = ()
        number = 0
        if frm >= 0:
            path = _path(old, frm, to)
            value = old[frm]
            board[frm] = EMPTY
            board[to] = value
            where[value] = to
            number = value - base
        gone: tuple[tuple[int, int], ...] = ()
        removed = self.removed
        result: Outcome | None = None
        if lo >= 0:
            pairs = []
            for n in range(lo, hi + 1):
                cell = where[base + n]
                pairs.append((n, cell))
                board[cell] = EMPTY
                where[base + n] = -1
            gone = tuple(pairs)
            removed = (removed[0] + len(pairs), removed[1]) if player == 0 else (removed[0], removed[1] + len(pairs))
            counter = 0
            result = self._after_removal(where, removed, player)
        else:
            counter = self.counter + 1
            if counter >= self.draw_limit:
                result = draw_of_two(removed, Termination.NO_REMOVAL)
        event = _make_event(player, move, number, path, gone, counter)
        return _after_play(
            self,
            tuple(board),
            removed,
            counter,
            1 - player,
            self.ply + 1,
            result,
            event,
            None if result is None else (),
            tuple(where),
        )

    def _after_removal(self, where: list[int], removed: tuple[int, int], player: int) -> Outcome | None:
        """Judge a removal by ``player``: clearing wins (checked first), stranding loses."""
        if removed[player] == PIECES:
            return win_for(player, removed, Termination.CLEARED)
        doomed = _stranding(where, player * PIECES, self.isolation)
        if doomed is None:
            return None
        return win_for(1 - player, removed, Termination.STRANDED if doomed else Termination.NO_TRIPLE)

    def _check_piece_move(self, move: QuerniMove) -> None:
        """Raise :class:`IllegalMove` unless the player to move can move ``move.frm`` to ``move.to``."""
        frm, to = move.frm, move.to
        if not (0 <= frm < CELLS and 0 <= to < CELLS):
            raise IllegalMove("That move leaves the board.")
        value = self.board[frm]
        if value == EMPTY:
            raise IllegalMove("There is no piece on {cell}.", cell=NAMES[frm])
        if COLOUR[value] != self.turn:
            raise IllegalMove(
                "The piece on {cell} is {side}'s; you move only your own ({own}).",
                cell=NAMES[frm],
                side=SEATS[COLOUR[value]],
                own=SEATS[self.turn],
            )
        if frm == to:
            raise IllegalMove("A move must end on another square than it starts.")
        if self.board[to] != EMPTY:
            raise IllegalMove("{cell} is occupied.", cell=NAMES[to])
        if to not in _ends(self.board, frm):
            raise IllegalMove(
                "The piece on {cell} cannot reach {to}: it steps to a neighbouring empty square "
                "or jumps over adjacent pieces onto empty squares.",
                cell=NAMES[frm],
                to=NAMES[to],
            )

    def _refusal(self, move: QuerniMove) -> GameError:
        """Explain why ``move`` (not in the legal list) is refused."""
        frm, to, lo, hi = move
        if (frm < 0) != (to < 0) or (lo < 0) != (hi < 0) or min(move) < -1:
            return InvalidMoveText(
                "That is not a Querni turn; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'."
            )
        try:
            if frm >= 0:
                self._check_piece_move(move)
        except IllegalMove as error:
            return error
        if lo < 0:
            return IllegalMove("That turn is not allowed here.")
        if lo > hi or lo < 1 or hi > PIECES:
            return IllegalMove("Pieces are numbered 1 to {pieces}; name a removal like x4-7.", pieces=PIECES)
        if hi - lo < MIN_CHAIN - 1:
            return IllegalMove(
                "A removal takes at least {n} consecutive numbers; {lo}-{hi} is too few.", n=MIN_CHAIN, lo=lo, hi=hi
            )
        where = list(self.where())
        base = self.turn * PIECES
        moved = False
        if frm >= 0:
            where[self.board[frm]] = to
            moved = True
        for n in range(lo, hi + 1):
            if where[base + n] < 0:
                return IllegalMove("Your piece {n} is no longer on the board.", n=n)
        for n in range(lo, hi):
            if where[base + n + 1] not in NEAR_SET[where[base + n]]:
                if moved:
                    return IllegalMove(
                        "Your {next} does not touch your {n} after your move, so {lo}-{hi} is not a chain.",
                        next=n + 1,
                        n=n,
                        lo=lo,
                        hi=hi,
                    )
                return IllegalMove(
                    "Your {next} does not touch your {n}, so {lo}-{hi} is not a chain.", next=n + 1, n=n, lo=lo, hi=hi
                )
        return IllegalMove("That turn is not allowed here.")

    def forfeit(self, player: int, how: str = FORFEIT) -> QuerniState:
        """Return the state after ``player`` resigns (``forfeit``) or loses on time (``timeout``): the other wins.

        ``agreed`` ends the game as a draw by agreement instead.
        """
        check_forfeit(self.result, player, 2)
        result = forfeit_of_two(player, self.removed, how, Termination)
        return _replace(self, result=result, _legal=(), _where=self._where)

    # -- text -----------------------------------------------------------------

    def _counter_text(self) -> str:
        """Say how close the draw is, in English, for the command line and the logs."""
        if self.draw_count == "moves":
            return f"{self.counter} plies without a removal (a draw after {self.draw_plies} full moves)"
        return f"{self.counter} of {self.draw_plies} plies without a removal"

    def board_text(self) -> str:
        """Return the position as text, rank 7 at the top."""
        lines = []
        for r in range(HEIGHT - 1, -1, -1):
            row = "".join(f"{piece_code(v) if v else '.':>4}" for v in self.board[r * WIDTH : (r + 1) * WIDTH])
            lines.append(f"{r + 1}{row}")
        lines.append(" " + "".join(f"{f:>4}" for f in FILES))
        whose = "game over" if self.result is not None else f"{SEATS[self.turn]} to move"
        lines.append(
            f"removed: blue {self.removed[0]}, red {self.removed[1]} of {PIECES}; {self._counter_text()}; {whose}"
        )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict from which :func:`from_json` rebuilds this state exactly."""
        return {
            "game": "querni",
            "format": SAVE_FORMAT,
            "seed": self.seed,
            "options": self.options(),
            "board": [[piece_code(v) for v in self.board[r * WIDTH : (r + 1) * WIDTH]] for r in range(HEIGHT)],
            "removed": list(self.removed),
            "counter": self.counter,
            "turn": self.turn,
            "ply": self.ply,
            "result": None if self.result is None else self.result.to_json(),
            "last": None if self.last is None else self.last.to_json(),
        }


def _square(letter: str, number: str) -> int:
    """Return the index of a square from its letter and number; raise :class:`InvalidMoveText` if off the board."""
    name = f"{letter}{int(number)}"
    cell = INDEX.get(name)
    if cell is None:
        raise InvalidMoveText("There is no square {cell}; the board runs from a1 to j7.", cell=name)
    return cell


# -- starting and restoring -----------------------------------------------------

_LAYOUT_ITEM_RE = re.compile(r"([a-z])\s*(\d{1,2})\s*[:=]\s*([a-z]+\s*\d{1,2})")


def _layout_items(layout: Any) -> Iterable[tuple[Any, Any]]:
    """Return a layout's ``(square, piece)`` pairs, from a mapping or from text like ``d2=B4, e3=R5``."""
    if isinstance(layout, Mapping):
        return layout.items()
    if isinstance(layout, str):
        text = " ".join(layout.lower().split())
        items = [(f + r, piece) for f, r, piece in _LAYOUT_ITEM_RE.findall(text)]
        if _LAYOUT_ITEM_RE.sub("", text).strip(" ,;{}") or not items:
            raise InvalidOption("Write a layout like 'd2=B4, e3=R5'.")
        return items
    raise InvalidOption("The layout must map squares to pieces, like {{'d2': 'B4', 'e3': 'R5'}}.")


def normalise_layout(layout: Any) -> tuple[tuple[str, str], ...]:
    """Check a layout (a mapping or text like ``d2=B4 e3=R5``) and return it as sorted ``(square, piece)`` pairs."""
    placed: dict[int, int] = {}
    seen: set[int] = set()
    for square, piece in _layout_items(layout):
        if not isinstance(square, str) or INDEX.get(" ".join(square.lower().split()).replace(" ", "")) is None:
            raise InvalidOption("{text!r} is not a square of the board (a1 to j7).", text=str(square)[:20])
        cell = INDEX[square.lower().replace(" ", "")]
        value = _parse_piece(piece, InvalidOption)
        if cell in placed:
            raise InvalidOption("The layout names {cell} twice.", cell=NAMES[cell])
        if value in seen:
            raise InvalidOption("The layout places {piece} twice.", piece=piece_code(value))
        placed[cell] = value
        seen.add(value)
    for colour in (0, 1):
        if not any(COLOUR[v] == colour for v in seen):
            raise InvalidOption("The layout must give {side} at least one piece.", side=SEATS[colour])
    return tuple((NAMES[cell], piece_code(placed[cell])) for cell in sorted(placed))


def start_board(seed: int) -> tuple[int, ...]:
    """Return the fixed start squares numbered from ``seed``: one shuffle for blue, then one for red."""
    rng = Rng(seed)
    board = [EMPTY] * CELLS
    for colour in (0, 1):
        numbers = rng.shuffled(tuple(range(1, PIECES + 1)))
        for cell, number in zip(START_SQUARES[colour], numbers, strict=True):
            board[cell] = piece_value(colour, number)
    return tuple(board)


def new(players: int = 2, seed: int = 0, **options: Any) -> QuerniState:
    """Start a game of Querni; options: ``layout``, ``isolation``, ``draw_plies``, ``draw_count``."""
    check_players(players, 2, 2)
    check_seed(seed)
    opts = resolve_options(OPTIONS, options)
    layout = None if opts["layout"] is None else normalise_layout(opts["layout"])
    if layout is None:
        board = start_board(seed)
    else:
        cells = [EMPTY] * CELLS
        for name, code in layout:
            cells[INDEX[name]] = _parse_piece(code, InvalidOption)
        board = tuple(cells)
    on_board = [0, 0]
    for value in board:
        if value:
            on_board[COLOUR[value]] += 1
    removed = (PIECES - on_board[0], PIECES - on_board[1])
    return QuerniState(
        seed=seed,
        layout=layout,
        isolation=opts["isolation"],
        draw_plies=opts["draw_plies"],
        draw_count=opts["draw_count"],
        board=board,
        removed=removed,
        counter=0,
        turn=0,
        ply=0,
    )


def from_json(data: Mapping[str, Any]) -> QuerniState:
    """Rebuild a state saved by :meth:`QuerniState.to_json`, rejecting anything impossible."""
    return load_saved("Querni", _from_json, data)


def _from_json(data: Mapping[str, Any]) -> QuerniState:
    """Rebuild a state, raising :class:`GameError` (or a lookup error) on anything wrong."""
    options = saved_options(data, "querni", "Querni")
    start = new(2, data["seed"], **options)
    rows = data["board"]
    if (
        not isinstance(rows, list)
        or len(rows) != HEIGHT
        or any(not isinstance(r, list) or len(r) != WIDTH for r in rows)
    ):
        raise InvalidState("The saved board is not {width}x{height}.", width=WIDTH, height=HEIGHT)
    board = tuple(EMPTY if code == ".." else _parse_piece(code, InvalidState) for row in rows for code in row)
    if any(piece_code(v) != code for v, code in zip(board, (c for row in rows for c in row), strict=True)):
        raise InvalidState("The saved board has a piece written in a non-canonical way.")
    values = [v for v in board if v]
    if len(set(values)) != len(values):
        raise InvalidState("The saved board holds the same piece twice.")
    removed_list = int_list(data["removed"], "removed counts")
    counter, turn, ply = data["counter"], data["turn"], data["ply"]
    if len(removed_list) != 2 or any(type(x) is not int for x in (counter, turn, ply)):
        raise InvalidState("The saved counts, turn or ply are malformed.")
    removed = (removed_list[0], removed_list[1])
    for colour in (0, 1):
        if removed[colour] != PIECES - sum(1 for v in values if COLOUR[v] == colour):
            raise InvalidState("{side}'s pieces do not add up to {n}.", side=SEATS[colour].capitalize(), n=PIECES)
    if not set(values) <= {v for v in start.board if v}:
        raise InvalidState("The saved board holds a piece the game never had.")
    if ply < 0 or turn != ply % 2:
        raise InvalidState("The saved turn and ply count disagree.")
    if ply == 0 and board != start.board:
        raise InvalidState("The saved board is not this game's start.")
    if not 0 <= counter <= min(ply, start.draw_limit):
        raise InvalidState("The saved draw counter is out of range.")
    legacy = _legacy_termination if data["format"] == 1 else None
    result = None if data["result"] is None else Outcome.from_json(data["result"], 2, Termination, legacy)
    last = None if data["last"] is None else _check_event(_event_from_json(data["last"]), board)
    if (last is None) != (ply == 0):
        raise InvalidState("The saved last move does not match the ply count.")
    if last is not None and (last.player != 1 - turn or last.counter != counter):
        raise InvalidState("The saved last move does not match the turn or the draw counter.")
    state = _replace(start, board=board, removed=removed, counter=counter, turn=turn, ply=ply, result=result, last=last)
    if result is None:
        over = counter >= state.draw_limit or PIECES in removed
        if last is not None and last.removed:
            over = over or _stranding(state.where(), last.player * PIECES, state.isolation) is not None
        if over:
            raise InvalidState("The saved game should already be over.")
    elif result.scores != removed or len(result.places) != 2:
        raise InvalidState("The saved result does not match the removed pieces.")
    return state


def _event_from_json(data: Any) -> QuerniEvent:
    """Rebuild a saved event, checking its shape and ranges (the board is checked by :func:`_check_event`)."""
    if not isinstance(data, Mapping):
        raise InvalidState("The saved last move is not an object.")
    player, piece, counter = data["player"], data["piece"], data["counter"]
    move = int_list(data["move"], "last move")
    path = int_list(data["path"], "path")
    pairs = data["removed"]
    if not isinstance(pairs, list) or any(not isinstance(p, list) or len(p) != 2 for p in pairs):
        raise InvalidState("The saved removed chain is malformed.")
    removed = tuple((p[0], p[1]) for p in (int_list(p, "removed piece") for p in pairs))
    if player not in (0, 1) or type(piece) is not int or type(counter) is not int or len(move) != 4:
        raise InvalidState("The saved last move is impossible.")
    frm, to, lo, hi = move
    return QuerniEvent(player, QuerniMove(frm, to, lo, hi), piece, tuple(path), removed, counter)


def _check_event(event: QuerniEvent, board: tuple[int, ...]) -> QuerniEvent:
    """Check the last ply's event against the board it produced; return it."""
    bad = InvalidState("The saved last move is impossible.")
    player, piece, counter, path, removed = event.player, event.piece, event.counter, event.path, event.removed
    frm, to, lo, hi = event.move
    if frm >= 0:
        if not (frm < CELLS and 0 <= to < CELLS and 1 <= piece <= PIECES and len(path) >= 2):
            raise bad
        if path[0] != frm or path[-1] != to or any(not 0 <= c < CELLS for c in path) or len(set(path)) != len(path):
            raise bad
        for a, b in pairwise(path):
            if b not in NEAR_SET[a] and all(land != b for _, land in JUMPS[a]):
                raise bad
        moved_still_there = all(n != piece for n, _ in removed)
        if moved_still_there and board[to] != piece_value(player, piece):
            raise bad
        if board[frm] != EMPTY:
            raise bad
    elif frm != -1 or to != -1 or piece != 0 or path:
        raise bad
    if lo >= 0:
        numbers = [n for n, _ in removed]
        if hi - lo < MIN_CHAIN - 1 or not 1 <= lo <= hi <= PIECES or numbers != list(range(lo, hi + 1)):
            raise bad
        if any(not 0 <= c < CELLS or board[c] != EMPTY for _, c in removed) or counter != 0:
            raise bad
        if any(piece_value(player, n) in board for n in numbers):
            raise bad
    elif lo != -1 or hi != -1 or removed or counter < 1:
        raise bad
    return event


_replace = keyword_replace(QuerniState)
_after_play = positional_replace(QuerniState, "board removed counter turn ply result last _legal _where")
_make_event = slot_constructor(QuerniEvent)


def seat_names(players: int) -> tuple[str, ...]:
    """Name the seats: blue moves first."""
    return SEATS


SPEC = GameSpec(
    name="querni",
    title="Querni",
    min_players=2,
    max_players=2,
    new=new,
    from_json=from_json,
    seat_names=seat_names,
    options=OPTIONS,
    test_configs=(
        {},
        {"isolation": "no_triple_left"},
        {"draw_count": "moves"},
        {"draw_plies": 6},
        {"draw_plies": 4, "draw_count": "moves", "isolation": "no_triple_left"},
    ),
    bench_configs=((2, {}),),
)
