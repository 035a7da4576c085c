"""Querni's move generation: where a piece can go, by steps and jumps, and which removals a turn allows."""

from __future__ import annotations

from engines.querni.board import (
    _AFTER_NEXT,
    _AREA_MARKS,
    _AROUND,
    _BEFORE_PREV,
    _BLOCKED,
    _OPEN,
    _PLAIN_FROM,
    _RANGES,
    _REMOVE_ONLY,
    _STEP_JUMP_MARKED,
    CELLS,
    JUMPS,
    MIN_CHAIN,
    NEAR_BOTH,
    NEAR_SET,
    NO_CELLS,
    PASS,
    PIECES,
    SAFE,
    STEP_JUMP,
    STRANDS,
    WINS,
    QuerniMove,
    _link_mask,
    _new_tuple,
    _ranges,
)


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
