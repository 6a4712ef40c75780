"""Correspondence play: a move a day, the table kept in the database between moves (issue 36)."""
