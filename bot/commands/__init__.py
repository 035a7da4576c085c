"""The Discord-facing side: slash commands, buttons and their views, and the one error handler.

The game commands (``bot.games``) call :class:`bot.commands.ui.MatchUI`; the other command groups are
here too (help, ladder and history, server settings, draws, rematches, reminders).  Each is handed the
services it uses by the composition root (:mod:`bot.client`).
"""
