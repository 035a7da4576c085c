"""Operations tools run from the command line beside the bot, never inside it.

``python -m bot backup FILE`` (:mod:`bot.ops.backup`) and ``python -m bot migrate --to URL``
(:mod:`bot.ops.transfer`).  They sit above both storage and the domain: they open the database through
:mod:`bot.storage` and check what they copied by replaying matches with the match service, which storage
itself may not import.
"""
