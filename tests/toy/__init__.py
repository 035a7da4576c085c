"""Toy: a take-away game kept outside Tabula's packages, to prove a game needs only its own modules.

Its engine (:mod:`tests.toy.engine`, ``SPEC`` with ``parts="tests.toy"``) is registered by the tests
that need it, never in :data:`engines.GAMES` itself; every layer then finds its part here by name:
:mod:`tests.toy.render` (the picture and the gallery's boards), :mod:`tests.toy.i18n` (texts, alt text,
the bot's words), :mod:`tests.toy.ai` (the computer's knowledge and level settings) and
:mod:`tests.toy.games` (the ``/toy`` commands and the short rules).
"""
