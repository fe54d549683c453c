""""Spil igen" kept in the database (issue 27): table ``rematches`` — a finished table
game's rematch, the new match it opened.  Every worker reads the same offer (two seats
on two workers land at the same new table, server/tables/rematch.py).  Additive: older
code never reads it (it kept the offer in memory).

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rematches",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("new_match", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rematches")
