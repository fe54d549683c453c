"""The daily deal: the deal of each solitaire and day, and each player's attempt.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tz = sa.DateTime(timezone=True)
    op.create_table(
        "daily_deals",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("start", sa.BigInteger, nullable=False),
        sa.Column("deal", sa.BigInteger, nullable=False),
        sa.Column("created", tz, nullable=False),
    )
    op.create_table(
        "daily_attempts",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("created", tz, nullable=False),
    )
    op.create_index("ix_daily_attempts_player", "daily_attempts", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_daily_attempts_player", "daily_attempts")
    op.drop_table("daily_attempts")
    op.drop_table("daily_deals")
