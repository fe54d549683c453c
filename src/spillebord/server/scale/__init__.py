"""Scale-out (issues 9, 20): several worker processes sharing one PostgreSQL database and
one Redis.  ``owners.Owners`` gives each live game one owner worker under a lease (its
writes fenced by the lease token), ``forward.Forwarder`` sends the events of a socket on
another worker to the owner, ``redis_bus.RedisBus`` fans announcements out to every
worker, ``catchup`` brings a worker's replica of a game up to date from the database,
``factory.build`` picks them from the settings, ``wiring`` hooks them into the rooms
(server/services.py calls both), and
``nginx`` renders the reverse-proxy configuration (game sockets hashed on the match id).
Everything here imports ``redis`` and ``psycopg`` lazily, so a single SQLite worker runs
without the ``scale`` extra."""
