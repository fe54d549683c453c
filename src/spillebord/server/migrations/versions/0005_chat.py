"""Table chat.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("name", sa.String(20), nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("time", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_match", "chat", ["match_id"])
    op.create_index("ix_chat_time", "chat", ["time"])


def downgrade() -> None:
    op.drop_index("ix_chat_time", "chat")
    op.drop_index("ix_chat_match", "chat")
    op.drop_table("chat")
