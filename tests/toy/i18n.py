"""Toy's texts (context ``game:toy``): result, chat line, status line, alt text and the bot's words.

Toy has no translations in the catalogs, so every language reads these English texts.
"""

from __future__ import annotations

from collections.abc import Sequence

from i18n.catalog import npgettext, pgettext
from i18n.common import agreed_sentence, agreed_status, is_agreed, is_forfeit, two_player_forfeit, two_player_reason
from tests.toy.engine import ToyState


def seat_label(locale: str, number: int) -> str:
    """Return seat ``number``'s name as a player's default name (``First``)."""
    return pgettext(locale, "game:toy", "First") if number == 0 else pgettext(locale, "game:toy", "Second")


def result(state: ToyState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence (see :func:`i18n.result_text`)."""
    outcome = state.outcome()
    assert outcome is not None
    if is_agreed(outcome.termination):
        return agreed_sentence(locale)
    if is_forfeit(outcome.termination):
        return two_player_forfeit(outcome.termination, outcome.winners[0], names, locale)
    return pgettext(locale, "game:toy", "{name} took the last stone and wins.", name=names[outcome.winners[0]])


def summary(state: ToyState, names: Sequence[str], locale: str) -> str:
    """Return the chat line of the last ply: ``Ana took 2 stones.``"""
    event = state.last
    if event is None:
        return ""
    return npgettext(
        locale, "game:toy", "{name} took {n} stone.", "{name} took {n} stones.", event.took, name=names[event.player]
    )


def status(state: ToyState, names: Sequence[str], locale: str) -> str:
    """Return the board's status line: whose turn and what is left, or who won."""
    outcome = state.outcome()
    if outcome is None:
        mover = state.to_move if state.to_move is not None else 0
        return npgettext(
            locale, "game:toy", "{name} to move · {n} stone left", "{name} to move · {n} stones left", state.stones,
            name=names[mover],
        )  # fmt: skip
    if is_agreed(outcome.termination):
        return agreed_status(locale)
    winner = outcome.winners[0]
    if is_forfeit(outcome.termination):
        why = two_player_reason(outcome.termination, winner, names, locale)
        return pgettext(locale, "game:toy", "{name} wins · {why}", name=names[winner], why=why)
    return pgettext(locale, "game:toy", "{name} wins · took the last stone", name=names[winner])


def caption(state: ToyState, names: Sequence[str], locale: str) -> str:
    """Toy's picture has no caption line."""
    return ""


def position(state: ToyState, names: Sequence[str], language: str) -> str:
    """Alt text: the pile, and what each player took."""
    return pgettext(
        language, "alt", "Pile: {stones}. Taken: {first} {a}, {second} {b}.",
        stones=state.stones, first=names[0], a=state.taken[0], second=names[1], b=state.taken[1],
    )  # fmt: skip


def seat_words(language: str) -> dict[str, str]:
    """Name the engine's seats as the bot's messages do ("Ana plays first")."""
    return {"first": pgettext(language, "seat", "first"), "second": pgettext(language, "seat", "second")}


def option_words(language: str) -> dict[str, str]:
    """The words of Toy's start options."""
    return {"stones": pgettext(language, "start option", "stones"), "most": pgettext(language, "start option", "most")}


def error_param(language: str, name: str, value: object) -> str | None:
    """Toy's refusals carry only numbers: nothing of its own to translate."""
    return None


def choice(state: ToyState, kind: str, fields: dict[str, str], language: str) -> str:
    """A move picked by taps, in words: ``take 2``."""
    return pgettext(language, "game:toy", "take {count}", count=fields["count"])


def puzzle_goal(language: str, solver: int, goal: str, gain: int) -> str:
    """What a toy puzzle asks: ``First to move and win the game``."""
    side = seat_label(language, solver)
    if goal == "win":
        return pgettext(language, "game:toy", "{side} to move and win the game", side=side)
    return pgettext(language, "game:toy", "{side} to move: find the only move that keeps the win", side=side)
