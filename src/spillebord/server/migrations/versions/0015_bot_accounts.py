"""Declared bot accounts and the bot ladder (issue 32): three new tables, nothing
existing changes (expand only; older code ignores them).

Revision ID: 0015
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tz = sa.DateTime(timezone=True)
    op.create_table(
        "bot_accounts",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("about", sa.String(200), nullable=True),
        sa.Column("declared", tz, nullable=False),
    )
    op.create_table(
        "bot_ladder",
        sa.Column("entry", sa.String(80), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("seat_class", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", tz, nullable=False),
    )
    op.create_table(
        "bot_ladder_matches",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("time", tz, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_ladder_matches")
    op.drop_table("bot_ladder")
    op.drop_table("bot_accounts")
