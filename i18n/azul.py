"""Azul's texts: the result, the chat line of a ply, the board's status line and caption."""

from __future__ import annotations

from collections.abc import Sequence

from engines.azul import (
    CENTRE,
    FLOOR,
    WALL,
    AzulEvent,
    AzulState,
    Placement,
    ScoreStep,
    Termination,
    bonus_points,
)
from i18n.catalog import npgettext, pgettext
from i18n.common import clauses, forfeit_sentence, is_forfeit, join_names, sentence


def score_change(state: AzulState, player: int) -> ScoreStep | None:
    """Return how the last ply changed ``player``'s score (the engine's :class:`ScoreStep`), or ``None``.

    A player who left shows no change.

    >>> from engines import GAMES
    >>> score_change(GAMES["azul"].new(seed=1), 0) is None
    True
    """
    event = state.last_event
    if event is None or player in state.left:
        return None
    return event.score_step(player)


def colour_name(locale: str, colour: int) -> str:
    """Name a tile colour on its own: ``blue`` (a line's colour, a wall's)."""
    return (
        pgettext(locale, "game:azul", "blue"),
        pgettext(locale, "game:azul", "yellow"),
        pgettext(locale, "game:azul", "red"),
        pgettext(locale, "game:azul", "black"),
        pgettext(locale, "game:azul", "white"),
    )[colour]


def tiles(locale: str, n: int, colour: int) -> str:
    """Count tiles of one colour: ``3 blue`` (Russian and French agree the colour with the number)."""
    if colour == 0:
        return npgettext(locale, "game:azul", "{n} blue", "{n} blue", n)
    if colour == 1:
        return npgettext(locale, "game:azul", "{n} yellow", "{n} yellow", n)
    if colour == 2:
        return npgettext(locale, "game:azul", "{n} red", "{n} red", n)
    if colour == 3:
        return npgettext(locale, "game:azul", "{n} black", "{n} black", n)
    return npgettext(locale, "game:azul", "{n} white", "{n} white", n)


def seat(locale: str, seat: int) -> str:
    """Name a seat: ``Player 1``."""
    return pgettext(locale, "game:azul", "Player {number}", number=seat + 1)


def _seats(state: AzulState, locale: str) -> list[str]:
    return [seat(locale, p) for p in range(state.players)]


def _ending(state: AzulState, code: Termination, locale: str) -> str:
    if code == Termination.WALL_ROW:
        return pgettext(locale, "game:azul", "A wall row is complete")
    if code == Termination.ROUND_LIMIT:
        return npgettext(
            locale,
            "game:azul",
            "Ended by the round limit ({n} round, a safety rule)",
            "Ended by the round limit ({n} rounds, a safety rule)",
            state.max_rounds,
        )
    return pgettext(locale, "game:azul", "Ended as no tile is left to fill the factories (a safety rule)")


def _victory(state: AzulState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence of a game that ended on the wall, naming players by ``names``.

    English has always said "1 points" here (the fixtures pin it): its singular is the plural form.
    """
    outcome = state.outcome()
    assert outcome is not None
    ending = _ending(state, Termination(outcome.termination), locale)
    points, rows, others = state.victory()
    winners = [names[p] for p in outcome.winners]
    if len(winners) > 1:
        return npgettext(
            locale,
            "game:azul",
            "{ending}: {winners} share the victory with {points} points and {n} complete row each.",
            "{ending}: {winners} share the victory with {points} points and {n} complete rows each.",
            rows,
            ending=ending,
            winners=join_names(winners, locale),
            points=points,
        )
    if others is not None:
        return npgettext(
            locale,
            "game:azul",
            "{ending}: {winner} wins the tie at {n} points with more complete rows ({rows} to {others}).",
            "{ending}: {winner} wins the tie at {n} points with more complete rows ({rows} to {others}).",
            points,
            ending=ending,
            winner=winners[0],
            rows=rows,
            others=others,
        )
    return npgettext(
        locale,
        "game:azul",
        "{ending}: {winner} wins with {n} points.",
        "{ending}: {winner} wins with {n} points.",
        points,
        ending=ending,
        winner=winners[0],
    )


def seat_label(locale: str, number: int) -> str:
    """Return seat ``number``'s name as a player's default name (``Player 1``)."""
    return seat(locale, number)


def result(state: AzulState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence (see :func:`i18n.result_text`).

    As the bot always said, it names the seats (``Player 1 wins with 56 points.``) except for
    who left, who is named by ``names``.
    """
    outcome = state.outcome()
    assert outcome is not None
    if not is_forfeit(outcome.termination):
        return _victory(state, _seats(state, locale), locale)
    winner = outcome.winners[0]
    leaver = state.left[-1]
    if state.players == 2:
        return forfeit_sentence(outcome.termination, names[leaver], names[winner], players=2, locale=locale)
    leaving = forfeit_sentence(outcome.termination, names[leaver], None, players=state.players, locale=locale)
    return pgettext(
        locale,
        "game:azul",
        "{leaving} {winner} is the last player left and wins.",
        leaving=leaving,
        winner=_seats(state, locale)[winner],
    )


def _take_sentence(event: AzulEvent, who: str, locale: str) -> str:
    move = event.move
    assert move is not None
    taken = tiles(locale, event.taken, move.colour)
    if move.source == CENTRE:
        if move.line == FLOOR:
            text = pgettext(
                locale, "game:azul", "{who} took {tiles} from the centre to the floor line", who=who, tiles=taken
            )
        else:
            text = pgettext(
                locale,
                "game:azul",
                "{who} took {tiles} from the centre into line {line}",
                who=who,
                tiles=taken,
                line=move.line,
            )
    elif move.line == FLOOR:
        text = pgettext(
            locale,
            "game:azul",
            "{who} took {tiles} from factory {factory} to the floor line",
            who=who,
            tiles=taken,
            factory=move.source,
        )
    else:
        text = pgettext(
            locale,
            "game:azul",
            "{who} took {tiles} from factory {factory} into line {line}",
            who=who,
            tiles=taken,
            factory=move.source,
            line=move.line,
        )
    extra = []
    if move.line != FLOOR and event.to_floor:
        extra.append(npgettext(locale, "game:azul", "{n} fell to the floor", "{n} fell to the floor", event.to_floor))
    if event.to_lid:
        extra.append(
            npgettext(
                locale,
                "game:azul",
                "{n} to the lid as the floor was full",
                "{n} to the lid as the floor was full",
                event.to_lid,
            )
        )
    text = _with_details(locale, text, extra)
    if event.marker:
        text = pgettext(locale, "game:azul", "{text}, with the first-player marker", text=text)
    return text


def _tiled(locale: str, row: int, colour: int, points: int) -> str:
    return pgettext(
        locale, "game:azul", "row {row} {colour} +{points}", row=row, colour=colour_name(locale, colour), points=points
    )


def _discarded(locale: str, row: int, colour: int) -> str:
    return pgettext(
        locale, "game:azul", "line {row} {colour} to the floor", row=row, colour=colour_name(locale, colour)
    )


def _bonus_counts(locale: str, counts: Sequence[int]) -> str:
    rows, columns, colours = counts
    found = []
    if rows:
        found.append(npgettext(locale, "game:azul", "{n} row", "{n} rows", rows))
    if columns:
        found.append(npgettext(locale, "game:azul", "{n} column", "{n} columns", columns))
    if colours:
        found.append(npgettext(locale, "game:azul", "{n} colour", "{n} colours", colours))
    return pgettext(locale, "game:common", ", ").join(found)


def _round_sentence(
    state: AzulState, event: AzulEvent, placements: Sequence[Placement], names: Sequence[str], locale: str
) -> str:
    comma = pgettext(locale, "game:common", ", ")
    parts = []
    for p in range(state.players):
        if p in state.left:
            continue
        mine = [pl for pl in placements if pl.player == p]
        gained = sum(pl.points for pl in mine)
        text = pgettext(locale, "game:azul", "{name} +{gained}", name=names[p], gained=gained)
        details = [_tiled(locale, pl.row, pl.colour, pl.points) for pl in mine]
        details += [_discarded(locale, d.row, d.colour) for d in event.discards if d.player == p]
        if details:
            text = pgettext(locale, "game:azul", "{text} ({details})", text=text, details=comma.join(details))
        if event.penalties and event.penalties[p]:
            text = pgettext(locale, "game:azul", "{text}, floor −{penalty}", text=text, penalty=event.penalties[p])
        if event.bonuses and any(event.bonuses[p]):
            text = pgettext(
                locale,
                "game:azul",
                "{text}, bonus +{bonus} ({counts})",
                text=text,
                bonus=bonus_points(event.bonuses[p]),
                counts=_bonus_counts(locale, event.bonuses[p]),
            )
        score = state.boards[p].score
        text = npgettext(locale, "game:azul", "{text}: {n} point", "{text}: {n} points", score, text=text)
        parts.append(text)
    return pgettext(
        locale, "game:azul", "Round {round} ended: {scores}", round=event.round_ended, scores=clauses(parts, locale)
    )


def _left_sentence(state: AzulState, event: AzulEvent, names: Sequence[str], locale: str) -> str:
    who = names[event.player]
    outcome = state.outcome()
    if outcome is None:
        if event.left == "forfeit":
            return pgettext(locale, "game:azul", "{who} left the game ({who} resigned); the others play on", who=who)
        return pgettext(locale, "game:azul", "{who} left the game ({who} ran out of time); the others play on", who=who)
    winners = join_names([names[p] for p in outcome.winners], locale)
    if event.left == "forfeit":
        return pgettext(
            locale, "game:azul", "{who} left the game ({who} resigned); {winners} wins", who=who, winners=winners
        )
    return pgettext(
        locale, "game:azul", "{who} left the game ({who} ran out of time); {winners} wins", who=who, winners=winners
    )


def summary(state: AzulState, names: Sequence[str], locale: str) -> str:
    """Return the chat line of the last ply (see :func:`i18n.summary_text`).

    The line is a series of sentences (what the player did, what was tiled or scored, what comes next), each one
    a translated unit; they are joined by ``{sentences}. {sentence}`` and closed by ``{text}.``.
    """
    event = state.last_event
    if event is None:
        return pgettext(locale, "game:azul", "Round 1 begins; {name} starts.", name=names[state.turn])
    who = names[event.player]
    outcome = state.outcome()
    sentences: list[str] = []
    move = event.move
    if move is None:
        sentences.append(_left_sentence(state, event, names, locale))
    elif move.source == WALL:
        points = next((p.points for p in event.placements if p.player == event.player), 0)
        sentences.append(
            pgettext(
                locale,
                "game:azul",
                "{who} tiled line {line}'s {colour} in column {column} (+{points})",
                who=who,
                line=move.line,
                colour=colour_name(locale, move.colour),
                column=move.column,
                points=points,
            )
        )
    else:
        sentences.append(_take_sentence(event, who, locale))
    placements = event.placements[1:] if move is not None and move.source == WALL else event.placements
    if event.round_ended:
        sentences.append(_round_sentence(state, event, placements, names, locale))
    elif placements or event.discards:
        bits = [
            pgettext(
                locale,
                "game:azul",
                "{name} {tiled}",
                name=names[pl.player],
                tiled=_tiled(locale, pl.row, pl.colour, pl.points),
            )
            for pl in placements
        ]
        bits += [
            pgettext(
                locale, "game:azul", "{name} {tiled}", name=names[d.player], tiled=_discarded(locale, d.row, d.colour)
            )
            for d in event.discards
        ]
        sentences.append(pgettext(locale, "game:azul", "Tiled: {tiles}", tiles=clauses(bits, locale)))
    if outcome is None:
        if event.round_ended:
            sentences.append(
                pgettext(
                    locale,
                    "game:azul",
                    "Round {round} begins; {name} starts",
                    round=state.round,
                    name=names[state.turn],
                )
            )
        elif state.pending_line():
            sentences.append(
                pgettext(
                    locale,
                    "game:azul",
                    "{name} chooses where line {line} goes on the wall",
                    name=names[state.turn],
                    line=state.pending_line(),
                )
            )
    elif move is not None:
        # Say the result again, naming the players.
        sentences.append(_victory(state, names, locale).rstrip("."))
    text = sentences[0]
    for more in sentences[1:]:
        text = pgettext(locale, "game:common", "{sentences}. {sentence}", sentences=text, sentence=more)
    return sentence(text, locale)


def status(state: AzulState, names: Sequence[str], locale: str) -> str:
    """Return the board's status line (see :func:`i18n.status_text`)."""
    outcome = state.outcome()
    if outcome is None:
        who = names[state.turn]
        if state.pending_line():
            return pgettext(
                locale,
                "game:azul",
                "Round {round} · {name}: choose the wall column for line {line}",
                round=state.round,
                name=who,
                line=state.pending_line(),
            )
        return pgettext(locale, "game:azul", "Round {round} · {name} to move", round=state.round, name=who)
    winners = [names[p] for p in outcome.winners]
    best = max(state.scores()[p] for p in outcome.winners)
    if is_forfeit(outcome.termination):
        why = pgettext(locale, "game:azul", "the last player left")
    else:
        code = Termination(outcome.termination)
        if code == Termination.WALL_ROW:
            why = pgettext(locale, "game:azul", "a wall row is complete")
        elif code == Termination.ROUND_LIMIT:
            why = pgettext(locale, "game:azul", "round limit {limit} (safety rule)", limit=state.max_rounds)
        else:
            why = pgettext(locale, "game:azul", "no tiles left (safety rule)")
    if len(winners) == 1:
        return pgettext(locale, "game:azul", "{name} wins with {points} · {why}", name=winners[0], points=best, why=why)
    return pgettext(
        locale,
        "game:azul",
        "{names} share the win with {points} · {why}",
        names=join_names(winners, locale),
        points=best,
        why=why,
    )


def caption(state: AzulState, names: Sequence[str], locale: str) -> str:
    """Return a short line saying what the last ply did (the chat message says it in full)."""
    event = state.last_event
    if event is None:
        return pgettext(locale, "game:azul", "A new game: take all tiles of one colour from a factory or the centre.")
    who = names[event.player]
    move = event.move
    if move is None:
        if state.outcome() is None:
            return pgettext(locale, "game:azul", "{who} left the game; the others play on.", who=who)
        return pgettext(locale, "game:azul", "{who} left the game.", who=who)
    if move.source == WALL:
        points = next((p.points for p in event.placements if p.player == event.player), 0)
        text = pgettext(
            locale,
            "game:azul",
            "{who} tiled line {line} in column {column} (+{points})",
            who=who,
            line=move.line,
            column=move.column,
            points=points,
        )
    else:
        source = (
            pgettext(locale, "game:azul", "c")
            if move.source == CENTRE
            else pgettext(locale, "game:azul", "f{n}", n=move.source)
        )
        where = (
            pgettext(locale, "game:azul", "floor")
            if move.line == FLOOR
            else pgettext(locale, "game:azul", "line {n}", n=move.line)
        )
        text = pgettext(
            locale,
            "game:azul",
            "{who} took {tiles} from {source} → {where}",
            who=who,
            tiles=tiles(locale, event.taken, move.colour),
            source=source,
            where=where,
        )
        extra = []
        if event.to_floor and move.line != FLOOR:
            extra.append(pgettext(locale, "game:azul", "{n} to floor", n=event.to_floor))
        if event.to_lid:
            extra.append(pgettext(locale, "game:azul", "{n} to lid", n=event.to_lid))
        if event.marker:
            extra.append(pgettext(locale, "game:azul", "+ marker"))
        text = _with_details(locale, text, extra)
    for discard in event.discards:
        text = pgettext(
            locale,
            "game:azul",
            "{text} · {name}'s line {row} {colour} → floor",
            text=text,
            name=names[discard.player],
            row=discard.row,
            colour=colour_name(locale, discard.colour),
        )
    if event.round_ended:
        if any(event.clipped):
            # The boards show "… −14 → 0": say why the sum stops there.
            text = pgettext(
                locale,
                "game:azul",
                "{text} · round {round} scored (scores stop at 0)",
                text=text,
                round=event.round_ended,
            )
        else:
            text = pgettext(locale, "game:azul", "{text} · round {round} scored", text=text, round=event.round_ended)
    return sentence(text, locale)


def _with_details(locale: str, text: str, extra: list[str]) -> str:
    """Add the ply's details in brackets ("… (2 to floor, + marker)"), or return ``text`` when there are none."""
    if not extra:
        return text
    details = pgettext(locale, "game:common", ", ").join(extra)
    return pgettext(locale, "game:azul", "{text} ({details})", text=text, details=details)


# -- the board's alt text, the bot's words and the refusals' params (found by name: i18n.texts_for) ------------------


def _alt_colours(language: str) -> tuple[str, ...]:
    return (
        pgettext(language, "alt", "blue"),
        pgettext(language, "alt", "yellow"),
        pgettext(language, "alt", "red"),
        pgettext(language, "alt", "black"),
        pgettext(language, "alt", "white"),
    )


def _alt_board(language: str, state: AzulState, seat: int, name: str, colours: Sequence[str], brief: bool) -> str:
    from engines.azul import MARKER
    from i18n.describe import list_text

    board = state.boards[seat]
    lines = []
    for row, (colour, count) in enumerate(zip(board.line_colours, board.line_counts, strict=True)):
        if count:
            lines.append(f"{row + 1} {count}/{row + 1} {colours[colour]}")
    if brief:  # how many tiles each wall row holds
        wall = [str(sum(1 for v in board.wall[row * 5 : row * 5 + 5] if v >= 0)) for row in range(5)]
        wall_text = pgettext(language, "alt", "wall tiles by row {rows}", rows=" ".join(wall))
    else:
        rows = []
        for row in range(5):
            placed = [colours[v] for v in board.wall[row * 5 : row * 5 + 5] if v >= 0]
            if placed:
                rows.append(f"{row + 1} {' '.join(placed)}")
        wall_text = pgettext(language, "alt", "wall {rows}", rows="; ".join(rows) or list_text(language, []))
    floor = [pgettext(language, "alt", "marker") if v == MARKER else colours[v] for v in board.floor]
    return pgettext(
        language,
        "alt",
        "{name}: lines {lines}; {wall}; floor {floor}.",
        name=name,
        lines=list_text(language, lines),
        wall=wall_text,
        floor=list_text(language, floor),
    )


def _alt_tiles(language: str, counts: Sequence[int], colours: Sequence[str]) -> list[str]:
    """Tile counts by colour: ``2 blue``."""
    return [
        pgettext(language, "alt", "{count} {colour}", count=count, colour=colours[colour])
        for colour, count in enumerate(counts)
        if count
    ]


def position(state: AzulState, names: Sequence[str], language: str, *, brief: bool = False) -> str:
    """Alt text: each player's pattern lines, wall and floor; then the factories and the centre.

    ``brief`` counts the wall's tiles by row instead of naming them (for the largest positions).
    """
    from i18n.describe import list_text

    colours = _alt_colours(language)
    parts = [_alt_board(language, state, seat, names[seat], colours, brief) for seat in range(len(state.boards))]
    factories = [
        f"{number} {' '.join(_alt_tiles(language, counts, colours))}"
        for number, counts in enumerate(state.factories, 1)
        if any(counts)
    ]
    centre = _alt_tiles(language, state.centre, colours)
    if state.marker < 0:
        centre.append(pgettext(language, "alt", "marker"))
    parts.append(pgettext(language, "alt", "Factories: {factories}.", factories=list_text(language, factories)))
    parts.append(pgettext(language, "alt", "Centre: {tiles}.", tiles=list_text(language, centre)))
    return " ".join(parts)


def shorter_positions(state: AzulState, names: Sequence[str], language: str) -> list[str]:
    """Alt text when the full position does not fit: the wall's tiles counted, then the players numbered too."""
    numbered = [pgettext(language, "alt", "Player {n}", n=seat + 1) for seat in range(len(names))]
    return [position(state, names, language, brief=True), position(state, numbered, language, brief=True)]


def seat_words(language: str) -> dict[str, str]:
    """Name the engine's seats as the bot's messages do: Azul's are numbered (``player 2``), said by the bot."""
    return {}


def option_words(language: str) -> dict[str, str]:
    """The words of Azul's start options and of their fixed values."""
    return {
        "wall": pgettext(language, "start option", "wall"),
        "colour": pgettext(language, "start option", "colour"),
        "grey": pgettext(language, "start option", "grey"),
    }


_ERROR_COLOURS = ("blue", "yellow", "red", "black", "white")


def error_param(language: str, name: str, value: object) -> str | None:
    """Translate a refusal's param that is one of Azul's words (a tile colour), or return ``None``."""
    if name == "colour" and value in _ERROR_COLOURS:
        return pgettext(language, "game:azul", str(value))
    return None


# -- a move picked by taps (bot.core.taps): each choice in words -------------------------------------------------------


def choice(state: AzulState, kind: str, fields: dict[str, str], language: str) -> str:
    """A move chosen so far, in words: ``3 blue from factory 4``, then ``… → line 2`` or ``… → floor``;
    a grey wall's ``line 2 → column 3``."""
    from engines.azul import COLOURS

    if kind == "wall":
        return pgettext(language, "tap", "line {line} → column {column}", line=fields["line"], column=fields["column"])
    colour = COLOURS.index(fields["colour"])
    source = fields["source"]
    if source == "c":
        taken = pgettext(
            language, "tap", "{tiles} from the centre", tiles=tiles(language, state.centre[colour], colour)
        )
    else:
        number = int(source[1:])
        taken = pgettext(
            language,
            "tap",
            "{tiles} from factory {number}",
            tiles=tiles(language, state.factories[number - 1][colour], colour),
            number=number,
        )
    line = fields.get("line")
    if line is None:
        return taken
    if line == "floor":
        return pgettext(language, "tap", "{taken} → floor", taken=taken)
    return pgettext(language, "tap", "{taken} → line {line}", taken=taken, line=line)


def puzzle_goal(language: str, solver: int, goal: str, gain: int) -> str:
    """What a puzzle asks of its solver, naming their side: to win the game, to gain ``gain`` on the score, or
    (``best``) to find the one move that keeps the win."""
    side = seat(language, solver)
    if goal == "win":
        return pgettext(language, "game:azul", "{side} to move and win the game", side=side)
    if goal == "gain" and gain > 0:
        return npgettext(
            language,
            "game:azul",
            "{side} to move and gain {n} point on every opponent",
            "{side} to move and gain {n} points on every opponent",
            gain,
            side=side,
        )
    return pgettext(language, "game:azul", "{side} to move: find the only move that keeps the win", side=side)
