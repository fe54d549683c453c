"""Scale-out (issue 9): several worker processes sharing one PostgreSQL database and one
Redis.  ``redis_bus.RedisBus`` fans events out to every worker, ``pg_lock.PgSerializer``
serialises the events of one game across workers, ``catchup`` brings a worker's copy of a
game up to date from the database, ``factory.build`` picks them from the settings, and
``nginx`` renders the reverse-proxy configuration.  Everything here imports ``redis`` and
``psycopg`` lazily, so a single SQLite worker runs without the ``scale`` extra."""
