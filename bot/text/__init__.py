"""The words the bot sends: message texts, escaping, the command translator and the catalogs tool.

:mod:`bot.text.formatting` composes texts from records whose names are escaped; :mod:`bot.text.messages`
escapes and composes (what the rest of the bot calls); :mod:`bot.text.translator` translates the command
tree; ``python -m bot catalogs`` rebuilds the gettext template.
"""
