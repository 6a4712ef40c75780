"""Many processes, one room: leases on tables, the Redis hub that relays their events, and the
worker processes that think for bots and reviews."""
