"""Ratings: current ratings, their history, and the matches the rater has done.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tz = sa.DateTime(timezone=True)
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("seat_class", sa.String(8), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated", tz, nullable=False),
    )
    op.create_table(
        "rating_history",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("seat_class", sa.String(8), nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("time", tz, nullable=False),
    )
    op.create_index("ix_rating_history_player", "rating_history", ["player_id"])
    op.create_table(
        "rated_matches",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("time", tz, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rated_matches")
    op.drop_index("ix_rating_history_player", "rating_history")
    op.drop_table("rating_history")
    op.drop_table("ratings")
