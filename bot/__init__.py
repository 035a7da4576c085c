"""Tabula's Discord bot (``python -m bot`` runs it), by concern.

``bot.core`` (the match service and its domain), ``bot.storage`` (all SQL), ``bot.delivery`` (posting to
Discord: the announcer, threads, boards drawn in workers, the computer's turns), ``bot.text`` (the words),
``bot.commands`` and ``bot.games`` (slash commands and buttons); :mod:`bot.app` wires them.
"""
