"""Getting things to Discord: the outbox's announcements, boards drawn off the event loop, the computer's turns.

:mod:`bot.delivery.announcer` posts and retries, :mod:`bot.delivery.composer` composes what is posted,
:mod:`bot.delivery.threads` opens and archives the matches' threads, :mod:`bot.delivery.failures` sorts
Discord's answers; :mod:`bot.delivery.rendering` and :mod:`bot.delivery.workers` draw in worker processes,
and :mod:`bot.delivery.computer` plays the computer's seats.
"""
