"""Play a person now: the pools (issue 23, item 1).

A person asks to play a game and format (scopa or escoba for two, scopone for four in teams;
rated or casual) and waits on the socket ``/ws/pools``; the room pairs people whose ratings are
close, widening the window as they wait, makes their table with everyone seated and dealt, and
tells each their seat. :mod:`.matching` chooses who plays whom, :mod:`.store` keeps the pools
(in memory, or in Redis for many processes), :mod:`.matchmaker` runs the waves and makes the
tables, :mod:`.sockets` is the endpoint, :mod:`.formats` the pools there are.
"""
