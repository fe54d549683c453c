"""People: display names on players; accounts, sign-in sessions and failed sign-ins.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tz = sa.DateTime(timezone=True)
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name", sa.String(20), nullable=True))
        batch.add_column(sa.Column("name_key", sa.String(80), nullable=True))
    op.create_index("ux_players_name_key", "players", ["name_key"], unique=True)
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("created", tz, nullable=False),
        sa.Column("password_changed", tz, nullable=False),
    )
    op.create_table(
        "auth_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created", tz, nullable=False),
        sa.Column("expires", tz, nullable=False),
    )
    op.create_index("ix_auth_sessions_player", "auth_sessions", ["player_id"])
    op.create_table(
        "sign_in_failures",
        sa.Column("key_hash", sa.String(64), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("last", tz, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("sign_in_failures")
    op.drop_index("ix_auth_sessions_player", "auth_sessions")
    op.drop_table("auth_sessions")
    op.drop_table("accounts")
    op.drop_index("ux_players_name_key", "players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("name_key")
        batch.drop_column("name")
