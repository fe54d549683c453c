"""Release N+1 for the rolling-upgrade tests: this checkout's package copied into a
release directory of its own (as a deploy unpacks a new release beside the running
one), plus one expand-style migration after this release's newest revision.

The migration is a test fixture, not a shipped one: it does what a real expand step
does to the tables the workers use while they play — a nullable column on ``matches``,
a new table that references it, an index built on ``actions`` (``CREATE INDEX`` blocks
inserts into ``actions`` while it runs; ``ALTER TABLE`` takes ``matches``' strongest
lock) — and N's code never reads any of it.  The copy keeps every file's modification
time, so numba's caches beside the code stay valid and N+1 starts as warm as N."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.services import ROOT

from spillebord.server.infra.storage import migrate

REVISION = "9901_expand_n1"
MIGRATION = '''"""Release N+1's expand step (tests/scale/release.py): additive only."""

import sqlalchemy as sa
from alembic import op

revision = "{revision}"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("n1_label", sa.Text(), nullable=True))
    op.create_table(
        "n1_notes",
        sa.Column("match_id", sa.String(32), sa.ForeignKey("matches.id"),
                  primary_key=True),
        sa.Column("note", sa.Text(), nullable=False))
    op.create_index("ix_actions_n1_time", "actions", ["time"])


def downgrade() -> None:
    op.drop_index("ix_actions_n1_time", table_name="actions")
    op.drop_table("n1_notes")
    op.drop_column("matches", "n1_label")
'''


def next_release(where: Path) -> Path:
    """Release N+1 under ``where``: its ``src`` folder (for ``PYTHONPATH``)."""
    src = where / "release-n1" / "src"
    shutil.copytree(ROOT / "src" / "spillebord", src / "spillebord", symlinks=True)
    (head,) = migrate.script_heads()
    versions = src / "spillebord" / "server" / "migrations" / "versions"
    (versions / f"{REVISION}.py").write_text(MIGRATION.format(revision=REVISION,
                                                              head=head))
    return src


def release_env(src: Path) -> dict[str, str]:
    """The environment that runs release ``src`` (before the venv's own copy)."""
    return {"PYTHONPATH": str(src)}


def db_upgrade(url: str, src: Path | None = None) -> str:
    """``spillebord db upgrade`` of release ``src`` (N's when None); its output."""
    env = {**os.environ, **(release_env(src) if src else {})}
    done = subprocess.run([sys.executable, "-m", "spillebord.cli.main", "db", "upgrade",
                           "--db", url], capture_output=True, text=True, timeout=180,
                          check=False, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr
