"""Scale-out (issues 9, 20, 26): several worker processes sharing one PostgreSQL database
and one Redis.  ``owners.Owners`` gives each live game one owner worker under a lease
(its writes fenced by the lease token), ``forward.Forwarder`` sends the events of a
socket on another worker to the owner, ``redis_bus.RedisBus`` fans the committed events
out to every worker (``shipped``: the event as stored), ``replica.Replica`` keeps this
worker's copies of the games others own (applying the shipped events; ``catchup``
reads the database for a gap or a take-over), ``factory`` picks and builds them from the
settings with everything each uses (server/services.py calls it), and ``nginx`` renders
the reverse-proxy configuration (game sockets hashed on the match id).  Everything here
imports ``redis`` and ``psycopg`` lazily, so a single SQLite worker runs without the
``scale`` extra."""
