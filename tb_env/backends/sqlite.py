"""SQLite: each episode gets a private in-memory database holding its task's image.

A template is built once per domain (schema + seed) and once per task (the patch applied
on top), and kept as a serialized image: bytes are immutable, so threads and event
loops share them without locks, and `Connection.deserialize` into a new `:memory:`
connection is measured at or below the cost of the `backup` API. Task images are kept
in a bounded LRU cache.

A new connection costs little to fill (~0.04 ms) but its first statement parses the
whole schema, tables, indexes and change-log triggers (~0.35 ms for retail): as much
as the rest of a reset and a check together. So connections are pooled per image: an
episode runs inside one transaction on a connection that already holds the image, and
closing it rolls that transaction back, which returns the database to the image
exactly (rows, rowids, sequences, the change log), ready for the next episode of the
same task. A connection whose transaction was ended from inside is never reused.
"""

from __future__ import annotations

import functools
import itertools
import os
import sqlite3
import threading
import weakref
from collections import OrderedDict
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import sqlite as sqlite_dialect
from sqlalchemy.schema import CreateIndex, CreateTable

from tb_env.backends.base import Backend, full_row, patch_statements, seed_rows
from tb_env.domain.database import CHANGE_LOG, AioSQLiteDatabase, Database, SQLiteDatabase
from tb_env.domain.pack import Domain
from tb_env.domain.task import Task
from tb_env.errors import DomainError, TaskFileError

_DIALECT = sqlite_dialect.dialect()


def _connect() -> sqlite3.Connection:
    # autocommit mode: tb-env issues BEGIN/COMMIT itself, one transaction per tool call
    return sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)


def _copy(image: bytes) -> sqlite3.Connection:
    """A new in-memory database holding `image`."""
    conn = _connect()
    conn.deserialize(image)
    return conn


def create_schema(conn: sqlite3.Connection, metadata: sa.MetaData) -> None:
    for table in metadata.sorted_tables:
        conn.execute(str(CreateTable(table).compile(dialect=_DIALECT)))
        for index in table.indexes:
            conn.execute(str(CreateIndex(index).compile(dialect=_DIALECT)))


def install_change_log(conn: sqlite3.Connection, domain: Domain) -> None:
    """Triggers that record the key of every row inserted, updated or deleted in a
    checked table, so the check reads only what an episode touched."""
    conn.execute(f"CREATE TABLE {CHANGE_LOG} (tbl TEXT NOT NULL, pk NOT NULL, PRIMARY KEY (tbl, pk))")
    log = f"INSERT OR IGNORE INTO {CHANGE_LOG} (tbl, pk) VALUES"
    for table in domain.checked_tables():
        t, pk = table.name, next(iter(table.primary_key.columns)).name
        conn.execute(f"CREATE TRIGGER _tb_ins_{t} AFTER INSERT ON {t} BEGIN {log} ('{t}', NEW.{pk}); END")
        conn.execute(f"CREATE TRIGGER _tb_del_{t} AFTER DELETE ON {t} BEGIN {log} ('{t}', OLD.{pk}); END")
        conn.execute(
            f"CREATE TRIGGER _tb_upd_{t} AFTER UPDATE ON {t} "
            f"BEGIN {log} ('{t}', OLD.{pk}); {log} ('{t}', NEW.{pk}); END"
        )


def _insert_sql(table: str, cols: list[str]) -> str:
    return f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join(':' + c for c in cols)})"


def build_base(domain: Domain) -> sqlite3.Connection:
    conn = _connect()
    create_schema(conn, domain.metadata)
    conn.execute("BEGIN")
    for table, rows in seed_rows(domain):
        by_cols: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for r in rows:
            by_cols.setdefault(tuple(r), []).append(r)
        for cols, group in by_cols.items():
            try:
                conn.executemany(_insert_sql(table.name, list(cols)), group)
            except sqlite3.Error as exc:
                raise DomainError(f"domain {domain.name!r}: seed rows for {table.name!r} rejected: {exc}") from exc
    conn.execute("COMMIT")
    install_change_log(conn, domain)
    return conn


def apply_patch(conn: sqlite3.Connection, domain: Domain, task: Task) -> None:
    conn.execute("BEGIN")
    try:
        for table, pk, row in patch_statements(domain, task):
            cols = [c for c in row if c != pk]
            changed = 0
            if cols:
                sets = ", ".join(f"{c} = :{c}" for c in cols)
                changed = conn.execute(f"UPDATE {table} SET {sets} WHERE {pk} = :{pk}", row).rowcount
            elif conn.execute(f"SELECT 1 FROM {table} WHERE {pk} = :{pk}", row).fetchone():
                changed = 1
            if not changed:
                full = full_row(domain.metadata.tables[table], row)
                conn.execute(_insert_sql(table, list(full)), full)
    except sqlite3.Error as exc:
        conn.execute("ROLLBACK")
        raise TaskFileError(task.source or "?", task.id, "initial_patch", f"the database rejected it: {exc}") from exc
    conn.execute(f"DELETE FROM {CHANGE_LOG}")  # the patch is the starting point, not a change
    conn.execute("COMMIT")


DEFAULT_IDLE_CONNECTIONS = 64


class SQLiteBackend(Backend):
    """The default backend: in-memory SQLite, driven inline (no thread hop per statement).

    `idle_connections` bounds the pool of connections kept between episodes (each holds
    its image, ~1 MB for the built-in domains); `TB_SQLITE_IDLE` sets the default, 0
    turns pooling off."""

    name = "sqlite"

    def __init__(self, cache_size: int = 512, idle_connections: int | None = None):
        self.cache_size = cache_size
        if idle_connections is None:
            idle_connections = int(os.environ.get("TB_SQLITE_IDLE", DEFAULT_IDLE_CONNECTIONS))
        self.idle_connections = idle_connections
        self._lock = threading.Lock()
        self._base: dict[int, bytes] = {}
        self._tasks: OrderedDict[tuple[int, str], bytes] = OrderedDict()
        self._ids = itertools.count(1)
        # idle connections by the image they hold, least recently used first. Keyed by the
        # image bytes themselves (hashed once, compared by identity first), so a connection
        # is only ever reused for a database that starts exactly as it does
        self._idle: OrderedDict[bytes, list[sqlite3.Connection]] = OrderedDict()
        self._idle_count = 0
        ref = weakref.ref(self)
        os.register_at_fork(after_in_child=lambda: (b := ref()) is not None and b._forget_pool())

    def _forget_pool(self) -> None:
        """In a forked child: the parent's connections (and maybe its held lock) are not
        the child's to use; start with an empty pool."""
        self._lock = threading.Lock()
        self._idle = OrderedDict()
        self._idle_count = 0

    def base_image(self, domain: Domain) -> bytes:
        key = id(domain)
        image = self._base.get(key)
        if image is None:
            with self._lock:
                image = self._base.get(key)
                if image is None:
                    conn = build_base(domain)
                    image = self._base[key] = conn.serialize()
                    conn.close()
        return image

    def image(self, domain: Domain, task: Task | None) -> bytes:
        """The serialized template for (domain, task): base data plus the task's patch."""
        base = self.base_image(domain)
        if task is None or not task.initial_patch:
            return base
        key = (id(domain), task.id)
        with self._lock:
            image = self._tasks.get(key)
            if image is not None:
                self._tasks.move_to_end(key)
                return image
        conn = _copy(base)
        apply_patch(conn, domain, task)
        image = conn.serialize()
        conn.close()
        with self._lock:
            self._tasks[key] = image
            while len(self._tasks) > self.cache_size:
                self._tasks.popitem(last=False)
        return image

    def connect(self, domain: Domain, task: Task | None) -> sqlite3.Connection:
        return _copy(self.image(domain, task))

    async def open(self, domain: Domain, task: Task | None) -> Database:
        image = self.image(domain, task)
        conn = self._take(image) or _copy(image)
        conn.execute("BEGIN")  # the episode's writes live in this transaction; `_give_back` rolls it back
        return SQLiteDatabase(
            conn, domain.metadata, domain.now, f"memory-{next(self._ids)}", tracks_changes=True,
            release=functools.partial(self._give_back, image),
        )

    def _take(self, image: bytes) -> sqlite3.Connection | None:
        with self._lock:
            return self._pop_idle(image, -1) if image in self._idle else None

    def _pop_idle(self, image: bytes, index: int) -> sqlite3.Connection:
        """Remove an idle connection of `image` (the lock is held)."""
        idle = self._idle[image]
        conn = idle.pop(index)
        self._idle_count -= 1
        if not idle:
            del self._idle[image]
        return conn

    def _give_back(self, image: bytes, conn: sqlite3.Connection) -> None:
        """Roll the episode away and keep the connection, or close it if it cannot be
        trusted to hold `image` (its transaction was ended from inside) or is not wanted."""
        if not (self.idle_connections > 0 and _rolled_back(conn)):
            conn.close()
            return
        evicted: list[sqlite3.Connection] = []
        with self._lock:
            self._idle.setdefault(image, []).append(conn)
            self._idle.move_to_end(image)
            self._idle_count += 1
            while self._idle_count > self.idle_connections:
                # from the image with the most spare connections, least recently used
                # first among equals: a burst of one task does not flush all the others
                spare = max(self._idle, key=lambda i: len(self._idle[i]))
                evicted.append(self._pop_idle(spare, 0))
        for c in evicted:
            c.close()


def _rolled_back(conn: sqlite3.Connection) -> bool:
    """Roll the episode's transaction back; False if there was none left to roll back."""
    if not conn.in_transaction:
        return False
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        return False
    return not conn.in_transaction


class AioSQLiteBackend(SQLiteBackend):
    """The same images served through `aiosqlite` (a driver thread per episode)."""

    name = "aiosqlite"

    async def open(self, domain: Domain, task: Task | None) -> Database:
        import aiosqlite

        conn = self.connect(domain, task)
        aconn = aiosqlite.Connection(lambda: conn, iter_chunk_size=256)
        await aconn
        return AioSQLiteDatabase(aconn, domain.metadata, domain.now, f"aiosqlite-{next(self._ids)}", tracks_changes=True)
