"""One player, one seat per table: a unique index on seats (match_id, player_id), so two
takes at one instant cannot seat one player twice on any database (issue 28).  A table
that already has one player in several seats keeps the player in the lowest seat; the
others lose the player id (their games stay, unattributed).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    seats = sa.table("seats", sa.column("match_id", sa.String), sa.column("seat", sa.Integer),
                     sa.column("player_id", sa.String))
    conn = op.get_bind()
    kept: set[tuple[str, str]] = set()
    for row in conn.execute(sa.select(seats.c.match_id, seats.c.seat, seats.c.player_id)
                            .where(seats.c.player_id.is_not(None))
                            .order_by(seats.c.match_id, seats.c.seat)):
        key = (row.match_id, row.player_id)
        if key in kept:
            conn.execute(sa.update(seats).where(seats.c.match_id == row.match_id,
                                                seats.c.seat == row.seat)
                         .values(player_id=None))
        kept.add(key)
    op.create_index("ux_seats_match_player", "seats", ["match_id", "player_id"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_seats_match_player", "seats")
