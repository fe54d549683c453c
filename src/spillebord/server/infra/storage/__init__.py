"""Storage behind SQLAlchemy 2 (any URL; SQLite file by default) with Alembic migrations."""
