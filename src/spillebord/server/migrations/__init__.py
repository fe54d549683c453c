"""Alembic migration scripts for the server database (run by storage/migrate.py)."""
