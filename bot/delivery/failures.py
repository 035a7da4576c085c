"""What Discord answered when a post failed, sorted: retry (and when), or give up (and why).

Used by every part that talks to Discord on the outbox's behalf: the announcer's posts and edits
(:mod:`bot.delivery.announcer`) and the matches' threads (:mod:`bot.delivery.threads`).
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

FIRST_DELAY = 2.0
MAX_DELAY = 300.0
UNKNOWN_MESSAGE = 10008  # Discord's code for a message that no longer exists
UNKNOWN_CHANNEL = 10003  # a channel (or thread) that no longer exists: a fact about the place, not the post
THREAD_ARCHIVED = 50083  # "Thread is archived": unarchive it, or (locked) the game moves
ALREADY_ACKNOWLEDGED = 40060  # an interaction answered before: a doubled delivery, dropped quietly


def already_acknowledged(error: BaseException) -> bool:
    """Whether Discord refused an interaction's answer because it was answered already (a doubled delivery)."""
    return isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED


@dataclass(frozen=True, slots=True)
class Failure:
    """One failed post, classified."""

    transient: bool  # worth retrying
    unknown: bool  # the request may have landed
    retry_after: float | None
    status: int
    code: int
    text: str


def classify(error: BaseException) -> Failure | None:
    """Sort an error from a post into transient or permanent; ``None`` if it is not a delivery error."""
    if isinstance(error, discord.RateLimited):
        return Failure(True, False, error.retry_after, 429, 0, f"rate limited for {error.retry_after:.1f} s")
    if isinstance(error, discord.HTTPException):
        status, code = error.status, error.code
        if status == 429:
            return Failure(True, False, retry_after(error), 429, code, "rate limited (429)")
        if status >= 500:
            return Failure(True, True, None, status, code, f"Discord server error {status}")
        return Failure(False, False, None, status, code, f"HTTP {status} code {code}: {error.text}"[:200])
    if isinstance(error, TimeoutError | OSError):
        return Failure(True, True, None, 0, 0, f"no answer from Discord ({type(error).__name__})")
    try:
        import aiohttp
    except ImportError:  # pragma: no cover - discord.py depends on aiohttp
        return None
    if isinstance(error, aiohttp.ClientError):
        return Failure(True, True, None, 0, 0, f"connection trouble ({type(error).__name__})")
    return None


def retry_after(error: discord.HTTPException) -> float | None:
    """The seconds a 429 asks to wait: its ``Retry-After`` header (Cloudflare's 429s carry no JSON body)."""
    headers = getattr(error.response, "headers", None) or {}
    raw = headers.get("Retry-After") or headers.get("retry-after")
    try:
        return max(0.0, float(raw)) if raw is not None else None
    except (TypeError, ValueError):
        return None


def backoff(attempt: int) -> float:
    """Seconds to wait before retry number ``attempt`` (1, 2, …): 2, 4, 8 … up to five minutes."""
    return float(min(MAX_DELAY, FIRST_DELAY * 2 ** max(0, attempt - 1)))
