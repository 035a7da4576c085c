"""What one part tells the others: small typed events, published once and heard by whoever subscribed.

The match service publishes :class:`MoveApplied` and :class:`MatchFinished` after a turn is committed; the
metrics and the events (tournaments) subscribe when the wiring builds them.  A part that publishes knows
nobody who listens, and nothing is patched into an object after it is built.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.storage.records import MatchRecord

log = logging.getLogger(__name__)

E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class MoveApplied:
    """A move was committed in a match of ``game``."""

    game: str


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """A move or a forfeit finished ``record``'s match; it is committed as finished."""

    record: MatchRecord


class Signals:
    """Subscribers by event type; :meth:`publish` calls each of the event's subscribers, in order.

    Subscribers run at once, on the publisher's path, so they must be quick (count, or start a task).  What
    they raise is logged, never raised into the publisher: the change they hear about is already committed.
    """

    def __init__(self) -> None:
        self._handlers: dict[type[Any], list[Callable[[Any], None]]] = {}

    def subscribe(self, kind: type[E], handler: Callable[[E], None]) -> None:
        """Call ``handler`` with every ``kind`` event published from now on."""
        self._handlers.setdefault(kind, []).append(handler)

    def publish(self, event: object) -> None:
        """Tell every subscriber of ``event``'s type."""
        for handler in self._handlers.get(type(event), ()):
            try:
                handler(event)
            except Exception:
                log.exception("a subscriber to %s failed", type(event).__name__)
