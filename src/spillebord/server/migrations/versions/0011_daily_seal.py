"""The sealed daily deal (issue 28): the server's own secrets (``server_secrets``: the
daily-deal secret when the operator sets none, generated once), each day's commitment
salt (``daily_deals.salt``; null for days chosen before deals were sealed) and the time
until which a match's deal is sealed (``matches.sealed_until``: a ranked daily attempt
hides its deal until its day is over).  Additive: older code ignores all three.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("daily_deals") as batch:
        batch.add_column(sa.Column("salt", sa.String(64), nullable=True))
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("sealed_until", sa.DateTime(timezone=True),
                                   nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("sealed_until")
    with op.batch_alter_table("daily_deals") as batch:
        batch.drop_column("salt")
    op.drop_table("server_secrets")
