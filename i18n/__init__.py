"""Tabula's player-facing text: English sentences from engine data, and their translations."""
