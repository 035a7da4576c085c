"""What follows a take: the next turn, the end of the factory offer, wall tiling, the next round."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any

from engines.azul.state import AzulState, _replace
from engines.azul.tables import (
    _COLOUR_ROW_BITS,
    _COLUMN_BITS,
    _COLUMN_SPACES,
    _COMPLETE_LINES,
    _LIMITS,
    _MAX_BAG,
    _ROW_SPACES,
    _RUN_LENGTH,
    _TWO64,
    ALL_FREE,
    AUTO_TILE_FORCED,
    EMPTY5,
    FACTORY_SIZE,
    FLOOR,
    FLOOR_LOSS,
    FLOOR_SPACES,
    MARKER,
    OFFER,
    OVER,
    ROW_BITS,
    TILING,
    WALL_COLUMN,
    AzulEvent,
    Board,
    Discard,
    Placement,
    Termination,
    _tuple_new,
    bonus_points,
)
from engines.base import (
    Outcome,
    outcome_by_keys,
)
from engines.rng import MASK


class _Draft:
    """A state under construction: :class:`AzulState`'s slots without the frozen guard.

    Every ply builds a state of 21 fields.  Set through the frozen dataclass's slot descriptors each field costs a
    call; here they are plain attribute stores.  Once every slot is filled, assigning ``__class__`` (which Python
    allows between classes with the same slots) makes the object the immutable :class:`AzulState` it was built as.
    Nothing else ever sees a draft.
    """

    __slots__ = AzulState.__slots__


_new_object = object.__new__
_SCORE = operator.attrgetter("score")  # a board's score
_RUNS = tuple(tuple((colour,) * n for n in range(FLOOR_SPACES + 1)) for colour in range(5))  # (colour,) * n


def _after_take(
    state: AzulState,
    turn: int,
    lid: tuple[int, ...],
    factories: tuple[tuple[int, ...], ...],
    centre: tuple[int, ...],
    marker: int,
    boards: tuple[Board, ...],
    last: AzulEvent,
    ply: int,
) -> AzulState:
    """Return ``state`` after a take that leaves tiles on the table: the table, a board, the turn and the event."""
    new: Any = _new_object(_Draft)
    new.players = state.players
    new.seed = state.seed
    new.grey_wall = state.grey_wall
    new.first_player = state.first_player
    new.max_rounds = state.max_rounds
    new.round = state.round
    new.phase = state.phase
    new.turn = turn
    new.starter = state.starter
    new.rng = state.rng
    new.bag = state.bag
    new.lid = lid
    new.factories = factories
    new.centre = centre
    new.marker = marker
    new.boards = boards
    new.left = state.left
    new.result = state.result
    new.last = last
    new.ply = ply
    new._legal = None
    new.__class__ = AzulState
    return new  # type: ignore[no-any-return]


def _next_round(
    state: AzulState,
    starter: int,
    rng: int,
    bag: tuple[int, ...],
    lid: tuple[int, ...],
    factories: tuple[tuple[int, ...], ...],
    boards: tuple[Board, ...],
    last: AzulEvent,
    ply: int,
) -> AzulState:
    """Return ``state`` at the start of its next round's factory offer, ``starter`` to move."""
    new: Any = _new_object(_Draft)
    new.players = state.players
    new.seed = state.seed
    new.grey_wall = state.grey_wall
    new.first_player = state.first_player
    new.max_rounds = state.max_rounds
    new.round = state.round + 1
    new.phase = OFFER
    new.turn = starter
    new.starter = starter
    new.rng = rng
    new.bag = bag
    new.lid = lid
    new.factories = factories
    new.centre = EMPTY5
    new.marker = -1
    new.boards = boards
    new.left = state.left
    new.result = state.result
    new.last = last
    new.ply = ply
    new._legal = None
    new.__class__ = AzulState
    return new  # type: ignore[no-any-return]


def board_after_take(board: Board, colour: int, line: int, taken: int, took_marker: bool) -> tuple[Board, int, int]:
    """Return the mover's board after taking ``taken`` tiles of ``colour`` into ``line`` (or the floor), with
    the first-player marker when ``took_marker``; and how many tiles went to the line and to the floor (the rest
    go to the lid).  The marker goes to the floor unless it is full; tiles past the floor's spaces go to the lid.
    """
    score, line_colours, line_counts, wall, floor, free = board  # one unpacking: cheaper than six attributes
    if took_marker and len(floor) < FLOOR_SPACES:
        floor += (MARKER,)
    to_line = 0
    if line != FLOOR:
        row = line - 1
        line_start = line_counts[row]
        to_line = line - line_start
        if taken < to_line:
            to_line = taken
        if to_line:
            if not line_start:  # a part-filled line already holds this colour
                colours = list(line_colours)
                colours[row] = colour
                line_colours = tuple(colours)
            counts = list(line_counts)
            counts[row] = line_start + to_line
            line_counts = tuple(counts)
    dropped = taken - to_line
    to_floor = FLOOR_SPACES - len(floor)
    if dropped < to_floor:
        to_floor = dropped
    if to_floor:
        floor += _RUNS[colour][to_floor]
    return _tuple_new(Board, (score, line_colours, line_counts, wall, floor, free)), to_line, to_floor


def _next_active(player: int, players: int, left: tuple[int, ...]) -> int:
    """Return the next seat after ``player`` that still takes part."""
    for step in range(1, players + 1):
        seat = (player + step) % players
        if seat not in left:
            return seat
    raise AssertionError("no player left")  # callers end the game before this can happen


def _first_active_from(seat: int, players: int, left: tuple[int, ...]) -> int:
    """Return ``seat`` if it still takes part, else the next seat that does."""
    return seat if seat not in left else _next_active(seat, players, left)


def grey_columns(wall: Sequence[int], row: int, colour: int) -> list[int]:
    """Return the columns (0..4) where the grey wall's ``row`` may take ``colour``: free, and lacking it."""
    return [c for c in range(5) if wall[5 * row + c] < 0 and colour not in wall[c::5]]


def tile_points(wall: Sequence[int], row: int, column: int) -> int:
    """Score a tile just placed at ``row``, ``column`` (from 0) of ``wall`` (which already holds it)."""
    # Count the run through the tile across (left, then right) and down (up, then down), by space index.
    here = 5 * row + column
    start = here - column
    across = 1
    i = here - 1
    while i >= start and wall[i] >= 0:
        across += 1
        i -= 1
    i = here + 1
    end = start + 5
    while i < end and wall[i] >= 0:
        across += 1
        i += 1
    down = 1
    i = here - 5
    while i >= 0 and wall[i] >= 0:
        down += 1
        i -= 5
    i = here + 5
    while i < 25 and wall[i] >= 0:
        down += 1
        i += 5
    # Alone: 1.  Otherwise each run of 2 or more counts its length.
    if across == 1:
        return down
    return across if down == 1 else across + down


def fill_factories(
    bag: tuple[int, ...], lid: tuple[int, ...], rng: int, factories: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...], int]:
    """Fill ``factories`` displays in order, 4 random tiles each, from the bag (counts by colour).

    When the bag runs out the lid is poured into it and filling goes on; when
    both are empty the remaining displays stay empty.  Return the displays, the
    bag, the lid and the generator's new state.
    """
    # Rng.below inlined (the same SplitMix64 stream and rejection rule): a round draws up to 36 tiles.  The bag's
    # counts and the display's tiles are kept in locals, one per colour: no list to index on every draw.
    state = rng & MASK
    nb, ny, nr, nk, nw = bag
    in_bag = nb + ny + nr + nk + nw
    filled: list[tuple[int, ...]] = []
    for _ in range(factories):
        tb = ty = tr = tk = tw = 0
        for _ in range(FACTORY_SIZE):
            if not in_bag:
                lb, ly, lr, lk, lw = lid
                in_bag = lb + ly + lr + lk + lw
                if not in_bag:
                    break
                nb, ny, nr, nk, nw = lid  # the lid is poured into the bag
                lid = EMPTY5
            state = (state + 0x9E3779B97F4A7C15) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            z ^= z >> 31
            limit = _LIMITS[in_bag] if in_bag <= _MAX_BAG else _TWO64 - _TWO64 % in_bag
            while z >= limit:  # rejected (for a bag of at most 100 tiles, about once in 10 ** 17 draws): draw again
                state = (state + 0x9E3779B97F4A7C15) & MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
                z ^= z >> 31
            # The pick-th tile of the bag, counting through the colours in order.
            pick = z % in_bag
            in_bag -= 1
            if pick < nb:
                nb -= 1
                tb += 1
            elif pick < nb + ny:
                ny -= 1
                ty += 1
            elif pick < nb + ny + nr:
                nr -= 1
                tr += 1
            elif pick < nb + ny + nr + nk:
                nk -= 1
                tk += 1
            else:
                nw -= 1
                tw += 1
        filled.append((tb, ty, tr, tk, tw))
    return tuple(filled), (nb, ny, nr, nk, nw), tuple(lid), state


class _Tiling:
    """Mutable scratch for the end of a round; it never escapes the ply that made it."""

    __slots__ = ("boards", "discards", "lid", "marker", "placements", "ply", "state")

    def __init__(
        self, state: AzulState, boards: tuple[Board, ...], lid: tuple[int, ...], marker: int, ply: int
    ) -> None:
        self.state = state
        self.ply = ply  # the ply count of the state being made
        self.boards = list(boards)
        self.lid = list(lid)
        self.marker = marker
        self.placements: list[Placement] = []
        self.discards: list[Discard] = []

    def place(self, player: int, row: int, column: int) -> None:
        """Move the tile of ``player``'s complete line ``row`` to the wall and score it."""
        board = self.boards[player]
        colour = board.line_colours[row]
        wall = list(board.wall)
        wall[5 * row + column] = colour
        points = tile_points(wall, row, column)
        self.lid[colour] += row  # the line held row + 1 tiles; one went to the wall
        self.boards[player] = Board(
            board.score + points,
            (*board.line_colours[:row], -1, *board.line_colours[row + 1 :]),
            (*board.line_counts[:row], 0, *board.line_counts[row + 1 :]),
            tuple(wall),
            board.floor,
            board.free & ~(1 << (5 * colour + row)),
        )
        self.placements.append(Placement(player, row + 1, column + 1, colour, points))

    def place_all(self, player: int) -> None:
        """On the coloured wall, tile every complete line of ``player``, top to bottom (as :meth:`place` would)."""
        board = self.boards[player]
        rows, counts = _COMPLETE_LINES[board.line_counts]
        if not rows:
            return
        wall = list(board.wall)
        colours = list(board.line_colours)
        score, free, lid, placements = board.score, board.free, self.lid, self.placements
        for row in rows:
            colour = colours[row]
            column = WALL_COLUMN[row][colour]
            wall[5 * row + column] = colour
            free &= ~(1 << (5 * colour + row))
            # tile_points(wall, row, column), read from ``free`` (on this wall a colour's row fixes its column).
            placed = ALL_FREE ^ free
            across = _RUN_LENGTH[_ROW_SPACES[row][placed >> row & _COLOUR_ROW_BITS]][column]
            down = _RUN_LENGTH[_COLUMN_SPACES[column][placed & _COLUMN_BITS[column]]][row]
            points = down if across == 1 else across if down == 1 else across + down
            lid[colour] += row  # the line held row + 1 tiles; one went to the wall
            score += points
            colours[row] = -1
            placements.append(_tuple_new(Placement, (player, row + 1, column + 1, colour, points)))
        self.boards[player] = _tuple_new(Board, (score, tuple(colours), counts, tuple(wall), board.floor, free))

    def discard(self, player: int, row: int) -> None:
        """Send a complete line with no legal wall space to the floor (overflow to the lid)."""
        board = self.boards[player]
        colour = board.line_colours[row]
        count = row + 1
        to_floor = min(count, FLOOR_SPACES - len(board.floor))
        self.lid[colour] += count - to_floor
        self.boards[player] = board._replace(
            line_colours=(*board.line_colours[:row], -1, *board.line_colours[row + 1 :]),
            line_counts=(*board.line_counts[:row], 0, *board.line_counts[row + 1 :]),
            floor=board.floor + (colour,) * to_floor,
        )
        self.discards.append(Discard(player, row + 1, colour, count))

    def waiting(self) -> int:
        """Tile every line that needs no decision; return the seat that must choose, or -1."""
        state = self.state
        players, left = state.players, state.left
        grey = state.grey_wall
        start = _first_active_from(state.starter, players, left)
        for step in range(players):
            player = (start + step) % players
            if player in left:
                continue
            if not grey:
                self.place_all(player)
                continue
            for row in range(5):
                board = self.boards[player]
                if board.line_counts[row] != row + 1:
                    continue
                colour = board.line_colours[row]
                if grey:
                    columns = grey_columns(board.wall, row, colour)
                    if len(columns) > 1 or (columns and not AUTO_TILE_FORCED):
                        return player
                    if not columns:
                        self.discard(player, row)
                        continue
                    column = columns[0]
                else:
                    column = WALL_COLUMN[row][colour]
                self.place(player, row, column)
        return -1

    def run(self, event: AzulEvent) -> AzulState:
        """Tile what needs no decision, then wait for a choice or finish the round; return the new state."""
        state = self.state
        chooser = self.waiting()
        placements = event.placements + tuple(self.placements)
        discards = (*event.discards, *self.discards)
        before = tuple(map(_SCORE, state.boards))
        if chooser >= 0:
            after = tuple(board.score for board in self.boards)
            event = _with(event, placements=placements, discards=discards, before=before, after=after)
            return _replace(
                state,
                phase=TILING,
                turn=chooser,
                lid=tuple(self.lid),
                factories=(EMPTY5,) * len(state.factories),
                centre=EMPTY5,
                marker=self.marker,
                boards=tuple(self.boards),
                last=event,
                ply=self.ply,
            )
        return self._finish(event, placements, discards, before)

    def _finish(
        self,
        event: AzulEvent,
        placements: tuple[Placement, ...],
        discards: tuple[Discard, ...],
        before: tuple[int, ...],
    ) -> AzulState:
        """Charge the floors, then end the game or refill the factories for the next round."""
        state = self.state
        players, left = state.players, state.left
        lid = self.lid
        boards = self.boards
        penalties = [0] * players
        clipped = [False] * players
        row0, row1, row2, row3, row4 = ROW_BITS
        wall_row = False
        for player in range(players):
            board = boards[player]
            if player in left:
                continue
            floor = board.floor
            if floor:
                penalty = penalties[player] = FLOOR_LOSS[len(floor)]
                for tile in floor:
                    if tile != MARKER:
                        lid[tile] += 1
                score = board.score
                clipped[player] = score < penalty
                board = boards[player] = _tuple_new(
                    Board, (max(0, score - penalty), board.line_colours, board.line_counts, board.wall, (), board.free)
                )
            free = board.free
            if not (free & row0 and free & row1 and free & row2 and free & row3 and free & row4):
                wall_row = True  # a complete wall row: some row lacks no colour
        ending: Termination | None = None
        # Tiling only happens once the table is empty.
        factories: tuple[tuple[int, ...], ...] = (EMPTY5,) * len(state.factories)
        bag, rng = state.bag, state.rng
        lid_t = tuple(lid)
        if wall_row:
            ending = Termination.WALL_ROW
        elif state.round >= state.max_rounds:
            ending = Termination.ROUND_LIMIT
        else:
            factories, bag, lid_t, rng = fill_factories(bag, lid_t, rng, len(factories))
            if factories.count(EMPTY5) == len(factories):
                ending = Termination.NO_TILES
        holder = self.marker if self.marker >= 0 else state.starter
        starter = _first_active_from(holder, players, left)
        if ending is None:
            event = _with_round(
                event,
                placements,
                discards,
                state.round,
                tuple(penalties),
                event.bonuses,
                before,
                tuple(map(_SCORE, boards)),
                tuple(clipped),
            )
            return _next_round(state, starter, rng, bag, lid_t, factories, tuple(boards), event, self.ply)
        bonuses = [(0, 0, 0)] * players
        for p in range(players):
            if p in left:
                continue
            board = boards[p]
            counts = bonuses[p] = board.bonuses()
            boards[p] = _tuple_new(Board, (board.score + bonus_points(counts), *board[1:]))
        final = tuple(boards)
        after = tuple(map(_SCORE, final))
        event = _with_round(
            event, placements, discards, state.round, tuple(penalties), tuple(bonuses), before, after, tuple(clipped)
        )
        result = final_outcome(final, left, players, ending)
        return _replace(
            state,
            phase=OVER,
            turn=starter,
            rng=rng,
            bag=bag,
            lid=lid_t,
            factories=factories,
            centre=EMPTY5,
            marker=self.marker,
            boards=final,
            result=result,
            last=event,
            ply=self.ply,
            _legal=(),
        )


def _with(event: AzulEvent, **changes: Any) -> AzulEvent:
    """Return a copy of ``event`` with some fields changed."""
    return event._replace(**changes)


def _with_round(
    event: AzulEvent,
    placements: tuple[Placement, ...],
    discards: tuple[Discard, ...],
    round_ended: int,
    penalties: tuple[int, ...],
    bonuses: tuple[tuple[int, int, int], ...],
    before: tuple[int, ...],
    after: tuple[int, ...],
    clipped: tuple[bool, ...],
) -> AzulEvent:
    """Return ``event`` with its wall-tiling fields set: :func:`_with` without the keywords, for every round's end."""
    player, move, taken, to_line, to_floor, to_lid, marker = event[:7]
    left, line_start, floor_start, marker_held = event[12:16]
    return _tuple_new(
        AzulEvent,
        (
            player,
            move,
            taken,
            to_line,
            to_floor,
            to_lid,
            marker,
            placements,
            discards,
            round_ended,
            penalties,
            bonuses,
            left,
            line_start,
            floor_start,
            marker_held,
            before,
            after,
            clipped,
        ),
    )


def final_outcome(boards: tuple[Board, ...], left: tuple[int, ...], players: int, ending: Termination) -> Outcome:
    """Rank the remaining players by (score, complete rows); leavers come last, the latest leaver first."""
    keys = []
    for p in range(players):
        board = boards[p]
        keys.append((0, left.index(p), 0) if p in left else (1, board.score, board.complete_rows()))
    return outcome_by_keys(tuple(keys), tuple(map(_SCORE, boards)), ending)
