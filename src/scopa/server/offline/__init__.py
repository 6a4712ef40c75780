"""Offline play (issue 37): its files, the pinned Pyodide and the pure ``scopa`` wheel that
``scripts/pyodide.py`` fetches and builds, served to a page that asks for offline play
(without them the room works as before and says offline play is not installed); and the
matches played offline that come home to an account's history, unrated (:mod:`.uploads`).
"""
