"""Open tables: public tables for the lobby and bot filling after a wait.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tz = sa.DateTime(timezone=True)
    op.create_table(
        "open_tables",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("public", sa.Boolean, nullable=False),
        sa.Column("fill_after", sa.Integer, nullable=True),
        sa.Column("fill_level", sa.Integer, nullable=True),
        sa.Column("created", tz, nullable=False),
        sa.Column("changed", tz, nullable=False),
        sa.Column("filled", tz, nullable=True),
    )
    op.create_index("ix_open_tables_changed", "open_tables", ["changed"])


def downgrade() -> None:
    op.drop_index("ix_open_tables_changed", "open_tables")
    op.drop_table("open_tables")
