"""Offline play's files: the pinned Pyodide and the pure ``scopa`` wheel that
``scripts/pyodide.py`` fetches and builds, served to a page that asks for offline play
(issue 37). Without them the room works as before and says offline play is not installed.
"""
