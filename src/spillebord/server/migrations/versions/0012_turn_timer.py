"""The table's turn timer and seats given up (issue 27).

``matches.turn_seconds``: the time a human seat has for its turn before a bot of the
table's level plays it (null: no timer).  ``seats.left``: when the seat's player gave up
and left the table; a bot plays the seat from then on (its events are ``by_bot``).
``matches.hints``: the hints a solitaire's player was given ("vundet med 4 tip").
Both are nullable additions: older code reads and writes the tables as before.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("turn_seconds", sa.Integer, nullable=True))
    op.add_column("seats", sa.Column("left", sa.DateTime(timezone=True), nullable=True))
    op.add_column("matches", sa.Column("hints", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("hints")
        batch.drop_column("turn_seconds")
