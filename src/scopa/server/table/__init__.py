"""Table play: the wire protocol, sockets, commands, tables, the room, its bots, tokens and limits.

A table is one writer: moves are applied one at a time by :class:`~.tables.Table`, stored
before they are acknowledged, then sent as per-seat views.
"""
