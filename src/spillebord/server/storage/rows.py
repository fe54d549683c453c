"""How the group writer (writer.py) puts a batch's event rows into the actions table:
on PostgreSQL one statement per batch with the lease fence folded in (``PgRows``), on
any other database one driver-level ``executemany`` (``RowInserter``)."""

from __future__ import annotations

import json
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection, Engine

from spillebord.server.storage.models import actions, owners

# shared mode: (the matches of a batch) -> this worker's lease token of those it holds
Fence = Callable[[Iterable[str]], dict[str, str]]


class PgRows:
    """PostgreSQL: a batch's event rows in one statement, with the lease fence in the
    same statement when there is one:

    - ``f``: ``SELECT … FOR SHARE`` of the batch's ``owners`` rows — a takeover's
      ``UPDATE`` of such a row waits for this statement's transaction, and a row that a
      takeover updated and committed first is read in its new version;
    - ``ok``: of those, the matches whose row carries the token this worker holds;
    - only their rows are inserted, and ``ok`` is returned: the requests of the other
      matches write nothing and fail with ``LeaseLost``.

    One row (most batches) goes as plain parameters; several as one JSON parameter
    (``json_populate_recordset``) — psycopg adapts both in C, where one array per
    column cost about 3× the client CPU and 2× the round trip.  Either text is the same
    for every batch, so psycopg prepares it once.  A batch of rows only is that one
    statement in autocommit (its own transaction): one round trip, on the event loop's
    own asynchronous connection (writer.py).  With other ops it runs first in their
    transaction."""

    def __init__(self, engine: Engine) -> None:
        from psycopg import pq  # (the "scale" extra: only PostgreSQL needs it)

        self.idle = pq.TransactionStatus.IDLE
        quote = engine.dialect.identifier_preparer.quote
        columns = list(actions.c)
        self.keys = [c.key for c in columns]
        names = ", ".join(quote(c.name) for c in columns)
        table = quote(actions.name)
        marks = ", ".join(["%s"] * len(columns))
        from_json = (f"SELECT {', '.join('r.' + quote(c.name) for c in columns)} "
                     f"FROM json_populate_recordset(NULL::{table}, %s::json) AS r")
        self.one = f"INSERT INTO {table} ({names}) VALUES ({marks})"
        self.many = f"INSERT INTO {table} ({names}) {from_json}"
        lease = quote(owners.name)
        self.fenced_one = (  # (match, token, the row's values)
            f"WITH f AS MATERIALIZED (SELECT match_id, token FROM {lease} "
            f"WHERE match_id = %s FOR SHARE), "
            f"ok AS (SELECT match_id FROM f WHERE token = %s), "
            f"ins AS (INSERT INTO {table} ({names}) SELECT {marks} "
            f"WHERE EXISTS (SELECT FROM ok)) "
            f"SELECT match_id FROM ok")
        self.fenced_many = (  # (JSON list of matches, JSON {match: token}, JSON rows)
            f"WITH f AS MATERIALIZED (SELECT match_id, token FROM {lease} WHERE match_id "
            f"IN (SELECT json_array_elements_text(%s::json)) FOR SHARE), "
            f"ok AS (SELECT f.match_id FROM f JOIN json_each_text(%s::json) AS w "
            f"ON f.match_id = w.key AND f.token = w.value), "
            f"ins AS (INSERT INTO {table} ({names}) SELECT * FROM ({from_json}) AS r "
            f"WHERE r.match_id IN (SELECT match_id FROM ok)) "
            f"SELECT match_id FROM ok")

    @classmethod
    def for_engine(cls, engine: Engine) -> PgRows | None:
        if engine.dialect.name != "postgresql" or engine.dialect.driver != "psycopg":
            return None
        return cls(engine)

    def plan(self, requests: Sequence[Sequence[Any]], fence: Fence | None) -> Plan:
        """The statement that writes the event rows of ``requests`` (each a list of ops:
        row dicts and functions of a connection)."""
        rows: list[dict[str, Any]] = []
        matches: list[str | None] = []
        other_ops = False
        for ops in requests:
            match: str | None = None
            for op in ops:
                if not isinstance(op, dict):
                    other_ops = True
                    continue
                if match is None:
                    match = op["match_id"]
                elif op["match_id"] != match:  # the fence takes or refuses a request whole
                    raise ValueError("a write request's event rows are of one match")
                rows.append(op)
            matches.append(match)
        sql, params = self._statement(rows, fence)
        fenced = sql is self.fenced_one or sql is self.fenced_many
        return Plan(sql, params, matches, other_ops, fence is not None, fenced)

    def run(self, driver: Any, plan: Plan) -> set[str]:
        """Run ``plan`` on a psycopg connection in its present transaction state; with
        the fence, the matches whose rows it let by (and the statement wrote)."""
        if not plan.sql:
            return set()
        cur = driver.execute(plan.sql, plan.params)
        return {str(r[0]) for r in cur.fetchall()} if plan.returns else set()

    def run_alone(self, driver: Any, plan: Plan) -> set[str]:
        """``run`` as a transaction of its own (autocommit): one round trip."""
        if driver.info.transaction_status != self.idle:
            driver.rollback()  # (nothing of ours: e.g. a pool ping's implicit BEGIN)
        driver.autocommit = True
        try:
            return self.run(driver, plan)
        finally:
            driver.autocommit = False

    @staticmethod
    async def run_async(aconn: Any, plan: Plan) -> set[str]:
        """``run`` on an autocommit ``psycopg.AsyncConnection`` (the event loop's)."""
        if not plan.sql:
            return set()
        cur = await aconn.execute(plan.sql, plan.params)
        return {str(r[0]) for r in await cur.fetchall()} if plan.returns else set()

    def _statement(self, rows: list[dict[str, Any]], fence: Fence | None
                   ) -> tuple[str, tuple[Any, ...]]:
        """The statement that writes ``rows`` ("": nothing to run) and its parameters."""
        if not rows:
            return "", ()
        keys = self.keys
        if fence is None:
            if len(rows) == 1:
                return self.one, tuple(rows[0][k] for k in keys)
            return self.many, (json.dumps(rows, default=_iso),)
        tokens = fence({row["match_id"] for row in rows})
        if not tokens:  # none of them is this worker's: nothing to ask
            return "", ()
        if len(rows) == 1:
            row = rows[0]
            return self.fenced_one, (row["match_id"], tokens[row["match_id"]],
                                     *(row[k] for k in keys))
        return self.fenced_many, (json.dumps(list(tokens)), json.dumps(tokens),
                                  json.dumps(rows, default=_iso))


@dataclass(frozen=True, slots=True)
class Plan:
    """One batch's statement: its text ("" when there is nothing to run), parameters,
    the match of each request's rows (None: no rows), and whether the batch also holds
    other ops, is fenced, and reads back the matches the fence let by."""

    sql: str
    params: tuple[Any, ...]
    matches: list[str | None]
    other_ops: bool
    fenced: bool
    returns: bool

    def written(self, let_by: set[str]) -> list[bool]:
        """Per request, whether it was written (without a fence: all of them)."""
        if not self.fenced:
            return [True] * len(self.matches)
        return [m is None or m in let_by for m in self.matches]


def _iso(value: Any) -> str:
    """JSON for the event rows' times (json_populate_recordset reads ISO 8601)."""
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} in an event row")


class RowInserter:
    """The actions-table insert as one driver-level ``executemany`` with positional
    parameters: the same SQL and the same bound values as ``conn.execute(insert(actions),
    rows)`` (the column types' own bind processors convert booleans and times), without
    the statement compilation and per-row parameter processing of SQLAlchemy Core,
    which was most of the writer thread's time — and it holds the GIL the event loop
    needs."""

    def __init__(self, sql: str, keys: list[str],
                 processors: list[tuple[int, Callable[[Any], Any]]]) -> None:
        self.sql = sql
        self.get = operator.itemgetter(*keys)
        self.processors = processors

    @classmethod
    def for_engine(cls, engine: Engine) -> RowInserter | None:
        dialect = engine.dialect
        marks = {"qmark": "?", "format": "%s", "pyformat": "%s"}
        if dialect.paramstyle not in marks:
            return None
        quote = dialect.identifier_preparer.quote
        columns = list(actions.c)
        sql = (f"INSERT INTO {quote(actions.name)} "
               f"({', '.join(quote(c.name) for c in columns)}) "
               f"VALUES ({', '.join([marks[dialect.paramstyle]] * len(columns))})")
        processors: list[tuple[int, Callable[[Any], Any]]] = []
        for i, column in enumerate(columns):
            process = column.type.dialect_impl(dialect).bind_processor(dialect)
            if process is not None:
                processors.append((i, process))
        return cls(sql, [c.key for c in columns], processors)

    def __call__(self, conn: Connection, rows: list[dict[str, Any]]) -> None:
        get, processors = self.get, self.processors
        params: list[tuple[Any, ...]] = []
        for row in rows:
            values = list(get(row))
            for i, process in processors:
                values[i] = process(values[i])
            params.append(tuple(values))
        conn.exec_driver_sql(self.sql, params)
