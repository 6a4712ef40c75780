"""Tournaments in the card room: arenas and Swiss nights, paired, directed and scored here."""
