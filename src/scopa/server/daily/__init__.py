"""The daily deal: one deck a day for everyone, a match to 11 against the master (issue 24)."""
