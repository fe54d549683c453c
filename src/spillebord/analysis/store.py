"""A Parquet result file that grows chunk by chunk and survives a kill.

A Parquet file cannot be appended to in place (its footer is written last), so each
finished chunk is first written, atomically (a temporary name, then a rename), as a
small part file in ``FILE.parquet.parts/``; ``merge()`` folds the parts into
``FILE.parquet`` (again written aside and renamed over it) and removes them.  A run
killed at any moment loses at most the chunks in flight: the next run reads the file
and the parts that are there, skips their keys and merges.  Rows are unique by the
kind's key (a duplicate — a part merged just before a kill removed it — is dropped)
and the merged file is sorted by key.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from spillebord.analysis.schema import KINDS, Kind

META_KIND = b"spillebord.kind"


class ResultFileError(ValueError):
    """A result file that cannot be used (unreadable, or of another kind)."""


def read_table(path: Path, kind: Kind | None = None,
               columns: Sequence[str] | None = None) -> pa.Table:
    """The rows of a merged result file (and its parts, if a run left some), checked to
    be of ``kind`` (any kind when None); only ``columns`` (and the key) when given."""
    files = [p for p in [path, *_parts(path)] if p.exists()]
    if not files:
        raise ResultFileError(f"no such result file: {path}")
    found = kind or _check(files[0], None)
    for f in files:
        _check(f, found)
    wanted = None if columns is None else list(dict.fromkeys([*found.key, *columns]))
    schema = found.schema if wanted is None else pa.schema(
        [found.schema.field(c) for c in wanted])
    try:
        tables = [pq.read_table(f, columns=wanted).cast(schema) for f in files]
    except (OSError, pa.ArrowException) as exc:
        raise ResultFileError(f"{path} is not a readable Parquet file ({exc})") from None
    return _unique(pa.concat_tables(tables), found)


def kind_of(path: Path) -> Kind:
    """The kind of rows a result file holds."""
    return _check(path, None)


def _check(path: Path, kind: Kind | None) -> Kind:
    """The kind of the file at ``path`` (its footer read), which must be ``kind``."""
    try:
        schema = pq.read_schema(path)
    except (OSError, pa.ArrowException) as exc:
        raise ResultFileError(f"{path} is not a readable Parquet file ({exc})") from None
    found = (schema.metadata or {}).get(META_KIND, b"").decode()
    if found not in KINDS:
        raise ResultFileError(f"{path} is not a spillebord analysis file")
    if kind is not None and found != kind.name:
        raise ResultFileError(f"{path} holds {found} results, not {kind.name} results")
    if schema.remove_metadata() != KINDS[found].schema:
        raise ResultFileError(f"{path} has other columns than the {found} schema")
    return KINDS[found]


class ResultFile:
    """The result file ``path`` for rows of ``kind``.  Opening checks what is already
    there (ResultFileError, nothing written, when it is unusable)."""

    def __init__(self, path: Path, kind: Kind) -> None:
        self.path = path
        self.kind = kind
        self.parts = _parts_dir(path)
        for existing in [p for p in [path, *_parts(path)] if p.exists()]:
            _check(existing, kind)
        if not path.exists() and not path.parent.is_dir():
            raise ResultFileError(f"no such directory: {path.parent}")

    def done(self, run: dict[str, Any]) -> set[Any]:
        """The last key column's values already stored for the run ``run`` (values of
        the kind's ``run_columns``)."""
        if not self.path.exists() and not _parts(self.path):
            return set()
        table = read_table(self.path, self.kind, self.kind.key)
        mask = None
        for column in self.kind.run_columns:
            match = pc.equal(table[column], pa.scalar(run[column],
                                                              table.schema.field(column).type))
            mask = match if mask is None else pc.and_(mask, match)
        last = self.kind.key[-1]
        return set(table.filter(mask)[last].to_pylist()) if mask is not None else set()

    def append(self, rows: Sequence[dict[str, Any]]) -> None:
        """Store ``rows`` durably now (one part file, written aside and renamed)."""
        if not rows:
            return
        self.parts.mkdir(exist_ok=True)
        name = f"{time.time_ns():020d}-{os.getpid()}"
        tmp = self.parts / f".{name}.tmp"
        pq.write_table(self._table(rows), tmp)
        _fsync(tmp)
        os.replace(tmp, self.parts / f"{name}.parquet")

    def merge(self) -> int:
        """Fold the parts into the file; the number of rows in the file."""
        parts = _parts(self.path)
        if not parts and self.path.exists():
            return int(pq.read_metadata(self.path).num_rows)
        if not parts:
            return 0
        table = read_table(self.path, self.kind)
        table = table.sort_by([(c, "ascending") for c in self.kind.key])
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        pq.write_table(table.replace_schema_metadata(_meta(self.kind)), tmp)
        _fsync(tmp)
        os.replace(tmp, self.path)
        for part in parts:
            part.unlink()
        for stale in self.parts.glob(".*.tmp"):
            stale.unlink()
        self.parts.rmdir()
        return int(table.num_rows)

    def _table(self, rows: Iterable[dict[str, Any]]) -> pa.Table:
        return pa.Table.from_pylist(list(rows), schema=self.kind.schema.with_metadata(
            _meta(self.kind)))


def _meta(kind: Kind) -> dict[bytes, bytes]:
    return {META_KIND: kind.name.encode()}


def _parts_dir(path: Path) -> Path:
    return path.with_name(path.name + ".parts")


def _parts(path: Path) -> list[Path]:
    d = _parts_dir(path)
    return sorted(d.glob("*.parquet")) if d.is_dir() else []


def _unique(table: pa.Table, kind: Kind) -> pa.Table:
    """The first row of each key."""
    if table.num_rows == 0:
        return table
    indexed = table.append_column("_row", pa.array(range(table.num_rows), pa.int64()))
    first = indexed.group_by(list(kind.key), use_threads=False).aggregate([("_row", "min")])
    keep = pc.sort_indices(first["_row_min"])
    return table.take(pc.take(first["_row_min"], keep))


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
