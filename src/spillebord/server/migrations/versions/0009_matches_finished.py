"""An index on matches.finished: the rater's sweep looks only at recently finished
matches (server/ratings/service.py), so its cost does not grow with every match ever played.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_matches_finished", "matches", ["finished"])


def downgrade() -> None:
    op.drop_index("ix_matches_finished", "matches")
