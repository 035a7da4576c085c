"""Tabula's Discord bot: commands, the match service and storage (``python -m bot`` runs it)."""
