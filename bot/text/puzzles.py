"""The words of puzzles: what a puzzle asks, where it came from, each answer's verdict, and the daily post.

Pure functions of the stored puzzle and the service's verdict, in a language; the commands
(:mod:`bot.commands.puzzles`) and the daily post (:mod:`bot.delivery.daily_puzzles`) send them.  What a puzzle
asks is said in its game's words by the game's text module (``puzzle_goal``: ``Light to move and win 2 frogs``).
"""

from __future__ import annotations

from collections.abc import Sequence

import i18n
from ai.puzzles import Puzzle
from bot import limits
from bot.core.puzzle_ratings import shown
from bot.core.puzzles import SOLVED, WRONG, Verdict
from bot.storage.puzzle_store import Finished, StoredPuzzle
from bot.text.escaping import escape_name
from engines import GAMES
from i18n.catalog import gettext, ngettext
from i18n.review import move_words as review_words


def names_of(stored: StoredPuzzle, language: str) -> list[str]:
    """The players' names the board shows: those of the game it came from, else the seats' own."""
    puzzle = Puzzle.from_json(stored.data)
    seats = i18n.seat_labels(puzzle.state(), language)
    given = list(stored.players or ())
    return given + seats[len(given) :] if given else seats


def goal_text(puzzle: Puzzle, language: str) -> str:
    """What the puzzle asks, in its game's words: ``Light to move and win 2 frogs``."""
    return i18n.texts_for(puzzle.game).puzzle_goal(i18n.supported(language), puzzle.solver, puzzle.goal, puzzle.gain)


def source_text(stored: StoredPuzzle, language: str) -> str:
    """Where the puzzle came from: ``From Ana vs Bo, game #12, move 23.``"""
    if stored.match_id is None:
        return gettext(language, "From a game the computer played against itself.")
    players = " vs ".join(escape_name(name) for name in stored.players or ())
    return gettext(
        language,
        "From {players}, game #{number}, move {move}.",
        players=players or "?",
        number=stored.match_id,
        move=(stored.ply or 0) + 1,
    )


def prompt_text(stored: StoredPuzzle, rating: float, language: str, step: int = 0) -> str:
    """The head of a puzzle's private message: the game and what to find, its source, the asker's rating."""
    puzzle = Puzzle.from_json(stored.data)
    lines = [
        gettext(
            language, "🧩 **{game} puzzle**: {goal}.", game=GAMES[stored.game].title, goal=goal_text(puzzle, language)
        )
    ]
    moves = len(puzzle.solver_moves)
    if moves > 1:
        lines.append(gettext(language, "Move {step} of {moves}.", step=step + 1, moves=moves))
    lines.append(source_text(stored, language))
    lines.append(gettext(language, "Your puzzle rating: **{rating}**", rating=shown(rating)))
    return "\n".join(lines)


def move_words(puzzle: Puzzle, step: int, move: str, names: Sequence[str], language: str) -> str:
    """The solver's ``move`` at ``step`` in words (``Ana placed an egg on b2.``)."""
    state = puzzle.state_at(step)
    return i18n.summary_text(state.play(move), names, language)


def right_text(verdict: Verdict, names: Sequence[str], language: str) -> str:
    """A right move that is not the last: what the defender replied, and the next move to find."""
    puzzle = verdict.opened.puzzle
    after = puzzle.state_at(verdict.step).play(verdict.move)
    reply = puzzle.line[2 * verdict.step + 1]
    said = i18n.summary_text(after.play(reply), names, language)
    return gettext(language, "✅ Right! {reply} Now find the next move.", reply=said)


def rating_change_text(finished: Finished | None, language: str) -> str:
    """The player's rating before and after a first try, or why the try was not rated."""
    if finished is None or finished.after is None:
        return gettext(language, "Not rated: you had tried this puzzle before.")
    before = finished.before.rating if finished.before is not None else 1500.0
    after = finished.after.rating if finished.after is not None else before
    delta = shown(after) - shown(before)
    return gettext(
        language,
        "Puzzle rating: {before} → **{after}** ({change})",
        before=shown(before),
        after=shown(after),
        change=f"{delta:+d}".replace("-", "−"),
    )


def streak_text(finished: Finished | None, language: str) -> str:
    """The solver's streak after a rated try ("" when it was not rated)."""
    if finished is None or finished.after is None:
        return ""
    row = finished.after
    return ngettext(
        language,
        "Streak: {n} puzzle solved in a row (best {best}).",
        "Streak: {n} puzzles solved in a row (best {best}).",
        row.streak,
        best=row.best_streak,
    )


def chance(value: float) -> int:
    """A chance as a whole percentage."""
    return round(100 * value)


def verdict_text(verdict: Verdict, names: Sequence[str], language: str) -> str:
    """What an answer did, with the rating change once the try ends."""
    stored = verdict.opened.stored
    puzzle = verdict.opened.puzzle
    head = prompt_text(stored, verdict.opened.rating, language, verdict.step)
    if verdict.result not in (SOLVED, WRONG):
        return head + "\n\n" + right_text(verdict, names, language)
    lines = [head, ""]
    if verdict.result == SOLVED:
        lines.append(
            gettext(language, "🎉 Solved! {move}", move=move_words(puzzle, verdict.step, verdict.move, names, language))
        )
    else:
        # The moves in words, as the game's chat lines say them ("placed an egg on d4"), not in notation.
        state = puzzle.state_at(verdict.step)
        lines.append(
            gettext(
                language,
                "❌ Not this one. The solution: **{solution}**, in blue on the board "
                "(your move, in amber: **{move}**).",
                solution=review_words(state, puzzle.solver_moves[verdict.step], names, language, named=False),
                move=review_words(state, verdict.move, names, language, named=False),
            )
        )
        left = dict(puzzle.alternatives).get(verdict.move) if verdict.step == 0 else None
        if left is not None:
            lines.append(
                gettext(
                    language,
                    "The solution kept a {best} % chance of winning; your move left {mine} %.",
                    best=chance(puzzle.value),
                    mine=chance(left),
                )
            )
        elif verdict.step == 0:
            lines.append(
                gettext(language, "The solution kept a {best} % chance of winning.", best=chance(puzzle.value))
            )
    lines.append(rating_change_text(verdict.finished, language))
    streak = streak_text(verdict.finished, language)
    if streak:
        lines.append(streak)
    lines.append(gettext(language, "Ask for another with `/puzzle`."))
    return limits.clip("\n".join(lines), limits.MESSAGE_CONTENT_MAX)


def step_prompt(stored: StoredPuzzle, rating: float, step: int, so_far: str, language: str) -> str:
    """The private message while a move is chosen by taps: the puzzle's head and the move so far."""
    head = prompt_text(stored, rating, language, step)
    if not so_far:
        return head + "\n\n" + gettext(language, "Choose your move.")
    return head + "\n\n" + gettext(language, "**{move}** — now choose what comes next.", move=so_far)


def board_alt(alt: str | None, language: str, *, marked: bool = False) -> str:
    """A puzzle board's alt text: the position, and on a wrong answer's board what the colours mark."""
    text = alt or ""
    if marked:
        text = gettext(language, "The solution is marked in blue, your move in amber.") + " " + text
    return limits.clip(text.strip(), limits.ATTACHMENT_DESCRIPTION_MAX)


def solution_words(stored: StoredPuzzle, language: str, names: Sequence[str] | None = None) -> str:
    """The puzzle's line in words, move by move (the daily post's answer to yesterday's)."""
    puzzle = Puzzle.from_json(stored.data)
    shown_names = list(names) if names is not None else names_of(stored, language)
    state = puzzle.state()
    said = []
    for move in puzzle.line:
        state = state.play(move)
        said.append(i18n.summary_text(state, shown_names, language))
    return " ".join(said)


def daily_text(stored: StoredPuzzle, language: str, yesterday: tuple[StoredPuzzle, int] | None = None) -> str:
    """The daily puzzle's post: what to find, the game it came from (with its number, for ``/history``), how to
    try it, and yesterday's: how many solved it, and its solution."""
    puzzle = Puzzle.from_json(stored.data)
    lines = [
        gettext(
            language,
            "🧩 **Daily puzzle** ({game}): {goal}.",
            game=GAMES[stored.game].title,
            goal=goal_text(puzzle, language),
        ),
        source_text(stored, language),
    ]
    if stored.match_id is not None:
        lines.append(gettext(language, "Replay that game with `/history match:{number}`.", number=stored.match_id))
    lines.append(gettext(language, "Press **Solve** to try it: only you see your answers."))
    if yesterday is not None:
        before, solvers = yesterday
        lines.append("")
        lines.append(
            ngettext(
                language,
                "Yesterday's puzzle was solved by {n} player. Its solution: ||{solution}||",
                "Yesterday's puzzle was solved by {n} players. Its solution: ||{solution}||",
                solvers,
                solution=solution_words(before, language),
            )
        )
    return limits.clip("\n".join(lines), limits.MESSAGE_CONTENT_MAX)


__all__ = [
    "board_alt",
    "daily_text",
    "goal_text",
    "names_of",
    "prompt_text",
    "rating_change_text",
    "solution_words",
    "source_text",
    "step_prompt",
    "streak_text",
    "verdict_text",
]
