"""Accounts and what hangs on them: sessions, sealed seats, ratings, profiles, replays and the
master's reviews. They reach the database through :mod:`scopa.server.store`."""
