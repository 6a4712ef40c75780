"""Accounts and what hangs on them: sessions, sealed seats, ratings, profiles, replays and the
master's reviews. They reach the database only through the named functions of
:mod:`scopa.server.store` (``account_queries``, ``rating_queries``, ``review_queries``), which
hold their SQL: these modules hold the HTTP and the rules of accounts."""
