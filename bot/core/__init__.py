"""The bot's domain: the match service and what it decides, with no Discord in it.

:mod:`bot.core.service` (challenges, moves, endings, draw offers), :mod:`bot.core.refusals` (what a player
is told when nothing was done), :mod:`bot.core.computer_seats` (the computer's seats and their IDs),
:mod:`bot.core.ratings` (the rating model) and :mod:`bot.core.ladders` (read-only views of the ratings).
"""
