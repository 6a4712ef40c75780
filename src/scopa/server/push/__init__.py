"""Web Push (RFC 8030, 8291, 8292): the room calls a person back when their browser is closed.

An account's browsers subscribe from the account page; other features push through the part's
public functions (:mod:`.feature`), and the service worker shows each push in its reader's
language. :mod:`.sender` says how a push goes out, :mod:`.addresses` where it may go.
"""
