"""Texts shared by every game: lists of names, plurals, players leaving."""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import FORFEIT, TIMEOUT, forfeit_kind

# Whole sentences, one per situation, so a catalog can translate each as a unit.
RESIGNED = "{name} resigned."
TIMED_OUT = "{name} ran out of time; {claimer} claimed the win."
TIMED_OUT_LEAVES = "{name} ran out of time and leaves the game ({claimer} claimed it)."
TIMED_OUT_LEAVES_UNCLAIMED = "{name} ran out of time and leaves the game."


def join_names(names: Sequence[str], locale: str = "en") -> str:
    """Join names for a sentence: ``A``, ``A and B``, ``A, B and C``."""
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" and {names[-1]}"


def plural(n: int, one: str, many: str, locale: str = "en") -> str:
    """Return ``n`` with the word for one or for many (a catalog will use the locale's plural rules)."""
    return f"{n} {one if n == 1 else many}"


def forfeit_sentence(how: str, name: str, claimer: str | None, *, players: int = 2, locale: str = "en") -> str:
    """Return the sentence for ``name`` resigning or running out of time (see :func:`i18n.forfeit_text`)."""
    kind = forfeit_kind(how)
    if kind == FORFEIT:
        return RESIGNED.format(name=name)
    assert kind == TIMEOUT
    if players == 2 and claimer is not None:
        return TIMED_OUT.format(name=name, claimer=claimer)
    if claimer is not None:
        return TIMED_OUT_LEAVES.format(name=name, claimer=claimer)
    return TIMED_OUT_LEAVES_UNCLAIMED.format(name=name)


def two_player_forfeit(termination: str, winner: int, names: Sequence[str], locale: str = "en") -> str:
    """Return the result sentence of a two-player game the loser left: ``Bo resigned.``"""
    loser = 1 - winner
    return forfeit_sentence(termination, names[loser], names[winner], players=2, locale=locale)


def is_forfeit(termination: str) -> bool:
    """Tell whether a termination code means a player left (resigned or lost on time)."""
    return termination in (FORFEIT, TIMEOUT)


def ordinal(n: int, locale: str = "en") -> str:
    """Return a finishing place as an ordinal: ``1st``, ``2nd``, ``3rd``, ``4th``."""
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"
