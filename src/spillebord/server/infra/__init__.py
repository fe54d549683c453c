"""Infrastructure: storage (engine, group writer, repository, tables, migrations,
backups, health), scale-out (Redis bus, leases), the in-process bus, compute workers,
metrics, logs, settings and background tasks."""
