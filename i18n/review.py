"""The computer's review in words: the graph's labels and alt text, the costliest moves, the players' summaries.

A review (:class:`ai.review.Review`) is numbers and move texts; this module says them in the player's
language, through the catalogs (context ``review``).  With two players each value is a chance to win (a draw
counts half); with three or four (Azul) it is the player's *expected standing*, the share of opponents they are
expected to beat (100 % first, 0 % last), and every line says so.  A move is numbered by how many moves were
played before it, plus one (the graph's x axis); it is described in words by the game's own chat line for a ply
(:func:`i18n.summary_text`, its first clause: what was done, not what followed).

>>> from ai.review import Judgement, Review
>>> judged = Judgement(0, 0, "place b2", "place c2", (0.62, 0.38), (0.41, 0.59), 0.62, 0.41, 12)
>>> review = Review("pond", 2, 40, (judged,), None)
>>> summary_line(review, 0, "Ana")
'Ana: average loss 21\\xa0% per move · 0 inaccuracies, 1 mistake, 0 blunders'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import i18n
from ai.review import BLUNDER, INACCURACY, MISTAKE, Judgement, Review
from i18n.catalog import npgettext, pgettext
from i18n.common import clauses, sentence

ALT_LIMIT = 1000  # below Discord's 1,024 characters for an attachment's description
LEVEL = 0.02  # two values closer than this: nobody leads
MOST_SEGMENTS = 6  # more changes of the lead than this are counted, not listed


def percent(value: float) -> str:
    """Say a 0–1 value as a whole percentage, with a no-break space before the sign: ``62 %``."""
    return f"{round(value * 100)}\u00a0%"


def move_number(judgement: Judgement) -> int:
    """Return the number a move has in the review: the moves played before it, plus one."""
    return judgement.ply + 1


def verdict_word(verdict: str, locale: str = "en") -> str:
    """Name a verdict: ``blunder``, ``mistake`` or ``inaccuracy``."""
    if verdict == "blunder":
        return pgettext(locale, "review", "blunder")
    if verdict == "mistake":
        return pgettext(locale, "review", "mistake")
    return pgettext(locale, "review", "inaccuracy")


def _names(review: Review, players: Sequence[str]) -> list[str]:
    given = list(players)[: review.players]
    return given + [f"#{seat + 1}" for seat in range(len(given), review.players)]


# -- the graph's words (drawn by render.review) -----------------------------------------------------------------------


def graph_title(locale: str = "en") -> str:
    """The graph's title."""
    return pgettext(locale, "review", "How the game went")


def value_axis(players: int, locale: str = "en") -> str:
    """What the graph's y axis shows, for a game of ``players``."""
    if players == 2:
        return pgettext(locale, "review", "Chance to win")
    return pgettext(locale, "review", "Expected standing: share of opponents beaten")


def move_axis(locale: str = "en") -> str:
    """What the graph's x axis shows."""
    return pgettext(locale, "review", "Move")


def marks_note(locale: str = "en") -> str:
    """The line under the graph saying what its numbered marks are."""
    return pgettext(locale, "review", "Numbered marks: the turning points (move number)")


# -- the graph in words ---------------------------------------------------------------------------------------------


def _leader(point: Sequence[float]) -> int | None:
    """The seat ahead at a point of the curve, or None when the top two are level."""
    ranked = sorted(range(len(point)), key=lambda seat: -point[seat])
    if point[ranked[0]] - point[ranked[1]] < LEVEL:
        return None
    return ranked[0]


def lead_segments(review: Review) -> list[tuple[int | None, int, int]]:
    """Who led after each move: ``(seat or None for level, first move, last move)``, in order."""
    segments: list[tuple[int | None, int, int]] = []
    for moves, point in enumerate(review.curve()[1:], start=1):
        leader = _leader(point)
        if segments and segments[-1][0] == leader:
            segments[-1] = (leader, segments[-1][1], moves)
        else:
            segments.append((leader, moves, moves))
    return segments


def _segment_text(segment: tuple[int | None, int, int], names: Sequence[str], locale: str) -> str:
    seat, first, last = segment
    who = pgettext(locale, "review", "level") if seat is None else names[seat]
    if first == last:
        return pgettext(locale, "review", "{who} (move {move})", who=who, move=first)
    return pgettext(locale, "review", "{who} (moves {first}–{last})", who=who, first=first, last=last)


def _lead_text(review: Review, names: Sequence[str], locale: str) -> str:
    segments = lead_segments(review)
    if not segments:
        return ""
    if len(segments) <= MOST_SEGMENTS:
        listed = pgettext(locale, "game:common", ", ").join(_segment_text(s, names, locale) for s in segments)
        return pgettext(locale, "review", "Ahead: {list}.", list=listed)
    changes = len(segments) - 1
    return npgettext(
        locale,
        "review",
        "The lead changed hands {n} time; at the end: {last}.",
        "The lead changed hands {n} times; at the end: {last}.",
        changes,
        last=_segment_text(segments[-1], names, locale),
    )


def _values_text(point: Sequence[float], names: Sequence[str]) -> str:
    return ", ".join(f"{name} {percent(value)}" for name, value in zip(names, point, strict=False))


def graph_alt_text(review: Review, players: Sequence[str], locale: str = "en") -> str:
    """Say the evaluation graph in words for a screen reader: who led when, the turning points, the final values.

    At most :data:`ALT_LIMIT` characters.
    """
    names = _names(review, players)
    moves = len(review.judgements)
    if review.players == 2:
        lead = npgettext(
            locale,
            "review",
            "Graph of each player's chance to win over the game's {n} move.",
            "Graph of each player's chance to win over the game's {n} moves.",
            moves,
        )
    else:
        lead = npgettext(
            locale,
            "review",
            "Graph of each player's expected standing (the share of opponents they would beat) over the game's "
            "{n} move.",
            "Graph of each player's expected standing (the share of opponents they would beat) over the game's "
            "{n} moves.",
            moves,
        )
    by_ply = {judged.ply: judged for judged in review.judgements}
    turning = [by_ply[ply] for ply in review.turning_points() if ply in by_ply]
    if turning:
        items = [
            pgettext(
                locale,
                "review",
                "move {move} ({name}, {verdict}: {before} → {after})",
                move=move_number(judged),
                name=names[judged.player],
                verdict=verdict_word(judged.verdict or "inaccuracy", locale),
                before=percent(judged.best_value),
                after=percent(judged.played_value),
            )
            for judged in turning
        ]
        points = pgettext(
            locale, "review", "Turning points: {list}.", list=pgettext(locale, "game:common", ", ").join(items)
        )
    else:
        points = pgettext(
            locale, "review", "No turning points: no move gave up {percent} or more.", percent=percent(MISTAKE)
        )
    curve = review.curve()
    if not curve:
        return lead
    if review.final is not None:
        end = pgettext(locale, "review", "Result: {values}.", values=_values_text(curve[-1], names))
    else:
        end = pgettext(locale, "review", "At the end: {values}.", values=_values_text(curve[-1], names))
    parts = [lead, _lead_text(review, names, locale), points, end]
    text = " ".join(part for part in parts if part)
    if len(text) > ALT_LIMIT:  # long names: the turning points go first, then the lead
        text = " ".join(part for part in (lead, points, end) if part)
    if len(text) > ALT_LIMIT:
        text = " ".join(part for part in (lead, end) if part)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1].rstrip() + "…"


# -- the costliest moves, the summaries, the thresholds -------------------------------------------------------------


def _first_clause(text: str, locale: str) -> str:
    """The first clause of a chat line (what the move did): cut at its first sentence's end, then at its first
    clause's end (a line may be sentences, ``… line 4. Round 1 ended: …``, or clauses, ``… on b2; developed c3``)."""
    marker = "\x00"
    ending = sentence(marker, locale).split(marker)[1]
    separator = clauses([marker, marker], locale).split(marker)[1]
    first = text.split(ending + " ")[0] if ending else text
    first = first.split(separator)[0] if separator else first
    if ending and first.endswith(ending):
        first = first[: -len(ending)]
    return first.strip()


def move_words(state: Any, move: str, players: Sequence[str], locale: str = "en", *, named: bool = True) -> str:
    """Describe ``move`` played in ``state`` as the game's chat line does: ``Ana placed an egg on b3``.

    ``named=False`` leaves out the mover's name where the line starts with it (``placed an egg on c2``, ``яйцо
    на c2``): the better move of a line that already named the player.
    """
    after = state.play(state.parse_move(move))
    language = i18n.supported(locale)
    words = _first_clause(i18n.summary_text(after, list(players), language), language)
    if named:
        return words
    marker = "\x01"
    names = [marker if seat == state.to_move else name for seat, name in enumerate(players)]
    nameless = _first_clause(i18n.summary_text(after, names, language), language)
    if not nameless.startswith(marker) or marker in nameless[1:]:
        return words  # the name is inside the sentence: keep it whole
    return nameless[1:].lstrip(" :,").strip()


def costly_move_line(
    review: Review, judgement: Judgement, state_before: Any, players: Sequence[str], locale: str = "en"
) -> str:
    """Say one costly move: ``Move 14, mistake: Ana placed an egg on b3 — better: … (chance to win 62 % → 41 %)``.

    ``state_before`` is the position the move was played in.  The two values are the mover's with the
    search's preferred move and with the move played (their difference is the move's loss).
    """
    names = _names(review, players)
    played = move_words(state_before, judgement.played, names, locale)
    better = move_words(state_before, judgement.best, names, locale, named=False)
    values = {"before": percent(judgement.best_value), "after": percent(judgement.played_value)}
    if review.players == 2:
        change = pgettext(locale, "review", "chance to win {before} → {after}", **values)
    else:
        change = pgettext(locale, "review", "expected standing {before} → {after}", **values)
    return pgettext(
        locale,
        "review",
        "Move {move}, {verdict}: {played} — better: {better} ({change})",
        move=move_number(judgement),
        verdict=verdict_word(judgement.verdict or "inaccuracy", locale),
        played=played,
        better=better,
        change=change,
    )


def summary_line(review: Review, player: int, name: str, locale: str = "en") -> str:
    """Say one player's review in a line: average loss per move and the count of each verdict."""
    summary = review.summary(player)
    counts = pgettext(locale, "game:common", ", ").join(
        (
            npgettext(locale, "review", "{n} inaccuracy", "{n} inaccuracies", summary.inaccuracies),
            npgettext(locale, "review", "{n} mistake", "{n} mistakes", summary.mistakes),
            npgettext(locale, "review", "{n} blunder", "{n} blunders", summary.blunders),
        )
    )
    return pgettext(
        locale,
        "review",
        "{name}: average loss {loss} per move · {counts}",
        name=name,
        loss=percent(summary.average_loss),
        counts=counts,
    )


def thresholds_text(locale: str = "en") -> str:
    """Say in one line what the verdicts mean (the thresholds of :mod:`ai.review`)."""
    return pgettext(
        locale,
        "review",
        "A move's loss is how much of the mover's chance to win (with 3–4 players, expected standing) it gave up "
        "against the computer's choice: an inaccuracy loses {inaccuracy} or more, a mistake {mistake}, "
        "a blunder {blunder}.",
        inaccuracy=percent(INACCURACY),
        mistake=percent(MISTAKE),
        blunder=percent(BLUNDER),
    )


__all__ = [
    "costly_move_line",
    "graph_alt_text",
    "graph_title",
    "lead_segments",
    "marks_note",
    "move_axis",
    "move_words",
    "percent",
    "summary_line",
    "thresholds_text",
    "value_axis",
    "verdict_word",
]
