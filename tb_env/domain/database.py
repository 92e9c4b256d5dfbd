"""The database handle that tools receive: parameterised SQL over the episode's copy.

Tools write SQL text themselves, with named parameters (`:order_id`); values from the
agent only ever travel as bound parameters, never as SQL text. The schema (table and
column names) comes from the domain's SQLAlchemy models, which `insert`/`update`
check against, so identifiers cannot come from the agent either.

Why not SQLAlchemy Core statements in tools: measured on this project's machines, a
Core `select(...)` costs about 0.17 ms to build, key and execute, against 0.01 ms for
the same parameterised SQL on the sqlite3 driver; a tool call's budget is 0.5 ms.

Two implementations share the async API:
- `SQLiteDatabase` drives an in-memory sqlite3 connection inline. The calls are
  `async def` (the API is async so that PostgreSQL can share it) but never yield: an
  in-memory statement is faster than a hop to a driver thread.
- `AioSQLiteDatabase` drives an `aiosqlite` connection (a thread per connection); kept
  so `tb-env bench` can report both figures.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import sqlalchemy as sa

from tb_env.errors import DatabaseError

CHANGE_LOG = "_tb_changes"  # backend-internal table of changed (table, key) pairs


class Database:
    """Async API over one episode's private database. Subclasses implement the primitives.

    Results are plain Python values on every backend (numbers as int/float, never
    Decimal), so a tool computes the same way on SQLite and PostgreSQL."""

    dialect = "sqlite"

    def __init__(self, metadata: sa.MetaData, now: str, name: str = "", tracks_changes: bool = False):
        self.metadata = metadata
        self.now = now  # the domain's clock: tools stamp rows with it, so replays agree
        self.name = name
        self.tracks_changes = tracks_changes  # the backend logs changed keys in CHANGE_LOG
        self._closed = False

    # -- primitives ----------------------------------------------------------------------
    async def all(self, sql: str, **params: Any) -> list[dict[str, Any]]:
        """All rows of a query, as dicts."""
        raise NotImplementedError

    async def execute(self, sql: str, **params: Any) -> int:
        """Run a statement; returns the number of rows changed."""
        raise NotImplementedError

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """All rows of a parameterless query, as tuples (used by the state check)."""
        raise NotImplementedError

    def transaction(self) -> Any:
        """Async context manager: one tool call is atomic (a refused call leaves no write)."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

    async def changed_keys(self) -> dict[str, set[Any]] | None:
        """Primary keys of the rows changed since the episode began, per table.

        None when the backend keeps no change log (the check then compares everything)."""
        if not self.tracks_changes:
            return None
        out: dict[str, set[Any]] = {}
        for table, key in await self.rows(f"SELECT tbl, pk FROM {CHANGE_LOG}"):
            out.setdefault(table, set()).add(key)
        return out

    # -- conveniences built on the primitives -------------------------------------------
    async def one(self, sql: str, **params: Any) -> dict[str, Any] | None:
        """The first row of a query, or None."""
        rows = await self.all(sql, **params)
        return rows[0] if rows else None

    async def scalar(self, sql: str, **params: Any) -> Any:
        """The first column of the first row, or None."""
        row = await self.one(sql, **params)
        return next(iter(row.values())) if row else None

    def table(self, name: str) -> sa.Table:
        try:
            return self.metadata.tables[name]
        except KeyError:
            raise KeyError(f"no table {name!r} in this domain's schema") from None

    def _columns(self, table: str, names: Any) -> sa.Table:
        t = self.table(table)
        unknown = set(names) - set(t.c.keys())
        if unknown:
            raise KeyError(f"table {table!r} has no column(s) {sorted(unknown)}")
        return t

    async def get(self, table: str, key: Any) -> dict[str, Any] | None:
        """The row of `table` whose (single-column) primary key equals `key`."""
        pk = primary_key(self.table(table))
        return await self.one(f"SELECT * FROM {table} WHERE {pk} = :key", key=key)

    async def insert(self, table: str, **values: Any) -> dict[str, Any]:
        """Insert one row; returns it as stored (defaults and generated key included)."""
        t = self._columns(table, values)
        cols = ", ".join(values)
        marks = ", ".join(f":{c}" for c in values)
        rows = await self.all(f"INSERT INTO {table} ({cols}) VALUES ({marks}) RETURNING *", **values)
        if not rows:  # pragma: no cover - RETURNING always yields the row
            raise DatabaseError(f"insert into {t.name} returned no row")
        return rows[0]

    async def update(self, table: str, key: Any, **values: Any) -> int:
        """Update columns of the row whose primary key equals `key`; returns rows changed."""
        t = self._columns(table, values)
        pk = primary_key(t)
        sets = ", ".join(f"{c} = :{c}" for c in values)
        return await self.execute(f"UPDATE {table} SET {sets} WHERE {pk} = :_key", _key=key, **values)

    async def next_id(self, table: str, prefix: str, width: int = 4, start: int = 1) -> str:
        """The next `PREFIX-NNNN` id for a table whose ids follow that pattern.

        Deterministic (it depends only on the rows present), so a golden replay and an
        agent that create the same records get the same ids."""
        pk = primary_key(self.table(table))
        n = await self.scalar(
            f"SELECT MAX(CAST(SUBSTR({pk}, :skip) AS INTEGER)) FROM {table} WHERE {pk} LIKE :pattern",
            skip=len(prefix) + 2,
            pattern=f"{prefix}-%",
        )
        return f"{prefix}-{max(int(n or 0) + 1, start):0{width}d}"


def primary_key(table: sa.Table) -> str:
    cols = list(table.primary_key.columns)
    if len(cols) != 1:
        raise KeyError(f"table {table.name!r} needs a single-column primary key for this operation")
    return cols[0].name


class SQLiteDatabase(Database):
    """An in-memory sqlite3 connection driven inline (see the module docstring).

    With `release`, the connection is lent by a pool: the episode runs inside one outer
    transaction the pool opened, each tool call is a savepoint within it, and `close`
    hands the connection back to `release`, which rolls the episode away. Closing this
    handle ends its use of the connection: a late call through it is refused."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        metadata: sa.MetaData,
        now: str,
        name: str = "",
        tracks_changes: bool = False,
        release: Callable[[sqlite3.Connection], None] | None = None,
    ):
        super().__init__(metadata, now, name, tracks_changes)
        self.conn = conn
        self._depth = 0
        self._release = release

    def _cursor(self, sql: str, params: dict[str, Any]) -> sqlite3.Cursor:
        if self._closed:
            raise DatabaseError(f"database {self.name!r} is closed")
        try:
            return self.conn.execute(sql, params)
        except sqlite3.OperationalError as exc:
            # locked, busy, disk I/O, out of memory: the environment failed, not the agent
            raise DatabaseError(f"sqlite: {exc}") from exc

    async def all(self, sql: str, **params: Any) -> list[dict[str, Any]]:
        cur = self._cursor(sql, params)
        cols = [d[0] for d in cur.description or ()]
        return [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]

    async def execute(self, sql: str, **params: Any) -> int:
        return self._cursor(sql, params).rowcount

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        return self._cursor(sql, {}).fetchall()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._depth:  # nested: the outer transaction decides
            yield
            return
        if self._release is not None:  # inside the pool's episode transaction: a savepoint
            begin, commit, rollback = "SAVEPOINT tb_call", "RELEASE tb_call", ("ROLLBACK TO tb_call", "RELEASE tb_call")
        else:
            begin, commit, rollback = "BEGIN", "COMMIT", ("ROLLBACK",)
        self._cursor(begin, {})
        self._depth = 1
        try:
            yield
        except BaseException:
            # some errors (full, I/O, interrupt) roll the whole transaction back themselves:
            # then there is nothing left to undo, and trying would mask the error
            if not self._closed and self.conn.in_transaction:
                for stmt in rollback:
                    self.conn.execute(stmt)
            raise
        else:
            try:
                self._cursor(commit, {})
            except DatabaseError:
                if self._release is None and self.conn.in_transaction:  # a failed COMMIT (busy, disk full) leaves it open
                    self.conn.execute("ROLLBACK")
                raise
        finally:
            self._depth = 0

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self._release is not None:
                self._release(self.conn)
            else:
                self.conn.close()


class AioSQLiteDatabase(Database):
    """The same API over `aiosqlite` (one driver thread per connection)."""

    def __init__(self, conn: Any, metadata: sa.MetaData, now: str, name: str = "", tracks_changes: bool = False):
        super().__init__(metadata, now, name, tracks_changes)
        self.conn = conn
        self._depth = 0

    async def _cursor(self, sql: str, params: dict[str, Any]) -> Any:
        if self._closed:
            raise DatabaseError(f"database {self.name!r} is closed")
        try:
            return await self.conn.execute(sql, params)
        except sqlite3.OperationalError as exc:
            raise DatabaseError(f"sqlite: {exc}") from exc

    async def all(self, sql: str, **params: Any) -> list[dict[str, Any]]:
        cur = await self._cursor(sql, params)
        cols = [d[0] for d in cur.description or ()]
        return [dict(zip(cols, r, strict=True)) for r in await cur.fetchall()]

    async def execute(self, sql: str, **params: Any) -> int:
        return (await self._cursor(sql, params)).rowcount

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        return list(await (await self._cursor(sql, {})).fetchall())

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._depth:
            yield
            return
        await self._cursor("BEGIN", {})
        self._depth = 1
        try:
            yield
        except BaseException:
            if not self._closed:
                await self.conn.execute("ROLLBACK")
            raise
        else:
            await self._cursor("COMMIT", {})
        finally:
            self._depth = 0

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self.conn.close()
