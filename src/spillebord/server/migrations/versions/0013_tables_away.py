"""Tables expire (issue 29): ``open_tables.away`` — when a public table left the lobby
because its creator was not present (or nobody joined it in time); null while listed.
Additive: older code never reads it and keeps listing every public table.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("open_tables", sa.Column("away", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("open_tables") as batch:
        batch.drop_column("away")
