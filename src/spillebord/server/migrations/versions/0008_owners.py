"""Game owners (shared mode): which worker owns each live game, under a lease.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "owners",
        sa.Column("match_id", sa.String(32), primary_key=True),
        sa.Column("worker", sa.String(64), nullable=False),
        sa.Column("token", sa.String(64), nullable=False),
        sa.Column("epoch", sa.BigInteger, nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_owners_worker", "owners", ["worker"])


def downgrade() -> None:
    op.drop_index("ix_owners_worker", "owners")
    op.drop_table("owners")
