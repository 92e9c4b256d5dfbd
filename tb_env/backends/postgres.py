"""PostgreSQL: each episode gets its own schema, recycled from a warm pool.

Measured on this project's machines (PostgreSQL 15, a retail-sized domain, see
`tb-env bench --scale`): `CREATE DATABASE ... TEMPLATE` costs 20-65 ms (WAL_LOG) to
40-85 ms (FILE_COPY) on an idle server, much more under load, and each database needs
connections of its own; a fresh schema copy costs about 100-170 ms and dropping it
about 100 ms; one transaction per episode, rolled back at
the end, costs 1 ms but is not isolation: two episodes of one task (a GRPO group) write
the same rows and block each other on row locks. So an episode gets a schema of its
own, taken from a pool of ready schemas, and a closed episode's schema is recycled
instead of dropped: triggers log the key of every row written (the same change log the
state check reads), and recycling copies back just those rows from the domain's
template schema, resets sequences and renames the schema. Reset is then a pool
checkout plus the task's patch, written as a replica (no change-log triggers, no FK
checks: the patch is the starting point, and recycling restores its keys from the task
itself), about 2 ms; recycling costs about as much again, off the episode's path.
Pooled connections commit without waiting for the WAL flush: episode schemas are
thrown away, so durability would buy nothing.

Names: templates are `tbenvtpl_<domain>_<content hash>` (shared by all processes);
episode schemas are `tbenv_<owner>_<n>`, where the owner token is held as a session
advisory lock by the process that made them. A schema whose owner holds no lock is an
orphan of a dead process: swept when a backend starts, and by `tb-env pg-clean`. An
episode's schema name vanishes at `close` (it is renamed on its way back to the pool);
the pool itself is dropped by `PostgresBackend.aclose()`, at interpreter exit, or by the
next sweep.
"""

from __future__ import annotations

import asyncio
import atexit
import contextvars
import datetime as dt
import decimal
import hashlib
import json
import os
import re
import secrets
import weakref
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateIndex, CreateTable

from tb_env.backends.base import Backend, full_row, patch_statements, seed_rows
from tb_env.domain.database import CHANGE_LOG, Database
from tb_env.domain.pack import Domain
from tb_env.domain.task import Task
from tb_env.errors import ConfigError, DatabaseError, TaskFileError

DEFAULT_DSN = "postgresql://postgres@127.0.0.1:5432/postgres"
_DIALECT = postgresql.dialect()
_PARAM = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"])*\"|::|:([A-Za-z_]\w*)")
_LOCK_NS = 0x7B5E  # high bits of advisory-lock keys: tb-env's namespace


def dsn_from_env() -> str:
    return os.environ.get("TB_PG_DSN", DEFAULT_DSN)


def _import_asyncpg() -> Any:
    try:
        import asyncpg
    except ImportError:
        raise ConfigError("backend='postgres' needs asyncpg: pip install 'tb-env[postgres]'") from None
    return asyncpg


# --- SQL and values -------------------------------------------------------------------------------

_sql_cache: dict[str, tuple[str, list[str]]] = {}
_param_types: dict[tuple[int, str], list[str]] = {}
# which domain's tables a pooled connection last saw: its statement cache is only valid there
_conn_domain: weakref.WeakKeyDictionary[Any, str] = weakref.WeakKeyDictionary()


def to_positional(sql: str) -> tuple[str, list[str]]:
    """`:name` parameters (skipping quoted text and `::` casts) to `$n`, with the name order."""
    cached = _sql_cache.get(sql)
    if cached is not None:
        return cached
    names: list[str] = []

    def sub(m: re.Match[str]) -> str:
        name = m.group(1)
        if name is None:
            return m.group(0)
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    out = (_PARAM.sub(sub, sql), names)
    if len(_sql_cache) < 4096:
        _sql_cache[sql] = out
    return out


def _coerce(value: Any, pg_type: str) -> Any:
    """A Python value as asyncpg wants it for a parameter of type `pg_type`.

    SQLite accepts anything anywhere; asyncpg is strict. Tools written against either
    pass ints for text ids, 0/1 for booleans, floats for numerics: convert losslessly."""
    if value is None:
        return None
    try:
        if pg_type in ("int2", "int4", "int8"):
            return int(value) if not isinstance(value, str) else int(value.strip())
        if pg_type in ("float4", "float8"):
            return float(value)
        if pg_type == "numeric":
            return value if isinstance(value, decimal.Decimal) else decimal.Decimal(str(value))
        if pg_type == "bool":
            return value if isinstance(value, bool) else bool(int(value)) if not isinstance(value, str) else value.lower() in ("1", "true", "t", "yes")
        if pg_type in ("text", "varchar", "bpchar", "name"):
            return value if isinstance(value, str) else str(value)
    except (TypeError, ValueError, decimal.InvalidOperation):
        return value  # let the database report it
    return value


def _plain(value: Any) -> Any:
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def _row_converter(table: sa.Table) -> dict[str, Any]:
    """Per column, the Python type COPY and parameters need for seed and patch values."""
    out: dict[str, Any] = {}
    for col in table.c:
        t = col.type
        if isinstance(t, sa.Boolean):
            out[col.name] = lambda v: v if v is None or isinstance(v, bool) else bool(v)
        elif isinstance(t, sa.Integer):
            out[col.name] = lambda v: v if v is None else int(v)
        elif isinstance(t, sa.Numeric) and not isinstance(t, sa.Float):
            out[col.name] = lambda v: v if v is None else decimal.Decimal(str(v))
        elif isinstance(t, sa.Float):
            out[col.name] = lambda v: v if v is None else float(v)
        elif isinstance(t, sa.String | sa.Text):
            out[col.name] = lambda v: v if v is None or isinstance(v, str) else str(v)
        else:
            out[col.name] = lambda v: v
    return out


# --- the episode's database handle ------------------------------------------------------------------


class PostgresDatabase(Database):
    """One episode's schema, on a connection pinned to the episode (search_path set)."""

    dialect = "postgresql"

    def __init__(self, conn: Any, schema: str, metadata: sa.MetaData, now: str, mark: int):
        super().__init__(metadata, now, schema, tracks_changes=True)
        self.conn = conn
        self.mark = mark  # change-log rows up to here are the task's patch, not the episode's
        self._tx: Any = None
        self._key_types = {t.name: next(iter(t.primary_key.columns)).type for t in metadata.sorted_tables}

    async def _args(self, text: str, names: list[str], params: dict[str, Any]) -> list[Any]:
        # once per statement text per domain: the types depend on the domain's tables only
        key = (id(self.metadata), text)
        types = _param_types.get(key)
        if types is None:
            types = _param_types[key] = [p.name for p in (await self.conn.prepare(text)).get_parameters()]
        try:
            return [_coerce(params[n], t) for n, t in zip(names, types, strict=True)]
        except KeyError as exc:
            raise DatabaseError(f"SQL parameter {exc.args[0]!r} was not given") from None

    async def _run(self, method: str, sql: str, params: dict[str, Any]) -> Any:
        if self._closed:
            raise DatabaseError(f"database {self.name!r} is closed")
        asyncpg = _import_asyncpg()
        text, names = to_positional(sql)
        try:
            args = await self._args(text, names, params) if names else []
            return await getattr(self.conn, method)(text, *args)
        except (asyncpg.PostgresConnectionError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError) as exc:
            # InternalClientError: a connection the server dropped mid-protocol ("another operation in progress")
            raise DatabaseError(f"postgres: {type(exc).__name__}: {exc}") from exc
        except asyncpg.PostgresError as exc:
            raise DatabaseError(f"postgres: {exc.sqlstate}: {exc}") from exc

    async def _fetch(self, sql: str, params: dict[str, Any]) -> list[Any]:
        return await self._run("fetch", sql, params)

    async def all(self, sql: str, **params: Any) -> list[dict[str, Any]]:
        return [{k: _plain(v) for k, v in r.items()} for r in await self._fetch(sql, params)]

    async def execute(self, sql: str, **params: Any) -> int:
        status = await self._run("execute", sql, params)
        tail = (status or "").rsplit(" ", 1)[-1]
        return int(tail) if tail.isdigit() else 0

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        return [tuple(_plain(v) for v in r) for r in await self._fetch(sql, {})]

    async def changed_keys(self) -> dict[str, set[Any]] | None:
        out: dict[str, set[Any]] = {}
        for table, key in await self.rows(f"SELECT tbl, pk FROM {CHANGE_LOG} WHERE id > {int(self.mark)}"):
            kt = self._key_types.get(table)
            out.setdefault(table, set()).add(int(key) if isinstance(kt, sa.Integer) else key)
        return out

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[None]:
        if self._tx is not None:
            yield
            return
        try:
            # inside the try: a connection the server dropped may already be detached from
            # its pool proxy, and then even making the transaction object fails
            tx = self.conn.transaction()
            await tx.start()
        except Exception as exc:
            raise DatabaseError(f"postgres: cannot begin: {exc}") from exc
        self._tx = tx
        try:
            yield
        except BaseException:
            self._tx = None
            if not self._closed:
                try:
                    await tx.rollback()
                except Exception:  # the connection is gone: nothing to roll back
                    pass
            raise
        else:
            self._tx = None
            try:
                await tx.commit()
            except Exception as exc:
                raise DatabaseError(f"postgres: commit failed: {exc}") from exc

    async def close(self) -> None:
        self._closed = True


# --- templates, slots, and the per-loop state ---------------------------------------------------


def template_name(domain: Domain) -> str:
    """`tbenvtpl_<domain>_<hash of schema and seed>`: a changed domain gets a new template."""
    h = hashlib.sha256()
    for table in domain.metadata.sorted_tables:
        h.update(str(CreateTable(table).compile(dialect=_DIALECT)).encode())
        for index in sorted(table.indexes, key=lambda i: i.name or ""):
            h.update(str(CreateIndex(index).compile(dialect=_DIALECT)).encode())
    for table, rows in seed_rows(domain):
        h.update(table.name.encode())
        h.update(json.dumps(rows, sort_keys=True, default=str).encode())
    return f"tbenvtpl_{domain.name}_{h.hexdigest()[:10]}"[:63]


def _lock_key(text: str) -> int:
    return (_LOCK_NS << 48) | int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


def _ddl(domain: Domain) -> list[str]:
    out = []
    for table in domain.metadata.sorted_tables:
        out.append(str(CreateTable(table).compile(dialect=_DIALECT)))
        out += [str(CreateIndex(ix).compile(dialect=_DIALECT)) for ix in table.indexes]
    return out


def _serial_columns(domain: Domain) -> list[tuple[str, str]]:
    return [
        (t.name, c.name)
        for t in domain.metadata.sorted_tables
        for c in t.c
        if c.primary_key and isinstance(c.type, sa.Integer) and c.autoincrement in (True, "auto")
    ]


CHANGE_LOG_DDL = f"""
CREATE TABLE {CHANGE_LOG} (id BIGSERIAL PRIMARY KEY, tbl TEXT NOT NULL, pk TEXT NOT NULL);
CREATE FUNCTION _tb_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO {CHANGE_LOG} (tbl, pk) VALUES (TG_TABLE_NAME, to_jsonb(OLD) ->> TG_ARGV[0]);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO {CHANGE_LOG} (tbl, pk) VALUES (TG_TABLE_NAME, to_jsonb(NEW) ->> TG_ARGV[0]);
  END IF;
  RETURN NULL;
END $$;
"""


@dataclass
class _DomainPool:
    """One domain's schemas: ready ones, and how many are on their way back."""

    template: str
    ready: asyncio.Queue[str] = field(default_factory=asyncio.Queue)
    sequences: dict[tuple[str, str], tuple[int, bool]] = field(default_factory=dict)
    filling: asyncio.Task[None] | None = None
    recycling: int = 0  # closed episodes' schemas being restored (they come back to `ready`)
    in_use: int = 0  # episodes open or opening now
    peak: int = 0  # the most episodes open at once: the reserve a burst like the last one needs


SCRATCH_CHECKS = 2  # checks that may hold scratch copies at once (each holds at most two)
# scratch copies the current task holds: the first takes a `scratch` slot, the last gives it back
_scratch_depth: contextvars.ContextVar[int] = contextvars.ContextVar("tb_env_pg_scratch", default=0)


class _LoopState:
    """Connections, the owner lock and the schema pools of one event loop."""

    def __init__(self, backend: PostgresBackend):
        self.backend = backend
        self.owner = secrets.token_hex(4)
        self.pool: Any = None
        self.lock_conn: Any = None
        self.domains: dict[int, _DomainPool] = {}
        self._domain_locks: dict[int, asyncio.Lock] = {}
        self.counter = 0
        self.schemas: set[str] = set()  # every schema this state made and has not dropped
        self.background: set[asyncio.Task[Any]] = set()
        self._started = asyncio.Lock()
        # Episodes hold a pooled connection for their whole life; a check may then need two
        # scratch copies (golden replay, initial rows) at once. Were those drawn from the same
        # pool, a full pool of episodes waiting for them would wait forever: scratch copies
        # get a small pool of their own, SCRATCH_CHECKS checks at a time.
        self.scratch_pool: Any = None
        self.scratch = asyncio.Semaphore(SCRATCH_CHECKS)
        self.replica = False  # may set session_replication_role (see `start`)

    async def start(self) -> None:
        async with self._started:
            if self.pool is not None:
                return
            asyncpg = _import_asyncpg()
            try:
                self.lock_conn = await asyncpg.connect(self.backend.dsn)
                await self.lock_conn.execute(f"SELECT pg_advisory_lock({_lock_key('owner:' + self.owner)})")
                await sweep(self.lock_conn)
                try:  # superusers (or a GRANT SET) may turn triggers and FK checks off
                    await self.lock_conn.execute("SET session_replication_role = replica; RESET session_replication_role")
                    self.replica = True
                except asyncpg.PostgresError:
                    self.replica = False
                # episode schemas are thrown away: a commit need not wait for its WAL to
                # reach the disk (a crash loses only episodes that die with the process)
                settings = {"synchronous_commit": "off"}
                self.pool = await asyncpg.create_pool(
                    self.backend.dsn, min_size=1, max_size=self.backend.pool_size, statement_cache_size=256,
                    server_settings=settings,
                )
                # two copies held and one being made, per check
                self.scratch_pool = await asyncpg.create_pool(
                    self.backend.dsn, min_size=0, max_size=3 * SCRATCH_CHECKS, statement_cache_size=256,
                    server_settings=settings,
                )
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                raise DatabaseError(f"cannot reach PostgreSQL at {_redact(self.backend.dsn)}: {exc}") from exc

    def pool_for(self, kind: str) -> Any:
        """The connection pool of an "episode" or of a "scratch" copy (see `scratch_pool`)."""
        return self.pool if kind == "episode" else self.scratch_pool

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        """A background task that leaves `background` when done (else `drain` spins forever)."""
        task = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        return task

    def name(self) -> str:
        self.counter += 1
        return f"tbenv_{self.owner}_{self.counter}"

    async def domain_pool(self, domain: Domain) -> _DomainPool:
        dp = self.domains.get(id(domain))
        if dp is not None:
            return dp
        # one pool per domain even when a burst's first episodes all arrive before it
        # exists: each making its own would scatter the burst's schemas and its peak
        async with self._domain_locks.setdefault(id(domain), asyncio.Lock()):
            dp = self.domains.get(id(domain))
            if dp is not None:
                return dp
            tpl = template_name(domain)
            await ensure_template(self.pool, domain, tpl)
            dp = _DomainPool(tpl)
            async with self.pool.acquire() as conn:
                for table, col in _serial_columns(domain):
                    row = await conn.fetchrow(f"SELECT last_value, is_called FROM {tpl}.{table}_{col}_seq")
                    dp.sequences[(table, col)] = (row["last_value"], row["is_called"])
            self.domains[id(domain)] = dp
            return dp

    async def new_slot(self, domain: Domain, dp: _DomainPool, pool: Any = None) -> str:
        """A schema with the domain's tables and base rows, triggers, and its own sequences."""
        name = self.name()
        self.schemas.add(name)
        async with (pool or self.pool).acquire() as conn, conn.transaction():
            await conn.execute(f"CREATE SCHEMA {name}")
            await conn.execute(f"SET LOCAL search_path TO {name}")
            for stmt in _ddl(domain):
                await conn.execute(stmt)
            for table in domain.metadata.sorted_tables:
                await conn.execute(f"INSERT INTO {table.name} SELECT * FROM {dp.template}.{table.name}")
            for (table, col), (value, called) in dp.sequences.items():
                await conn.execute(f"SELECT setval('{table}_{col}_seq', {int(value)}, {str(called).lower()})")
            await conn.execute(CHANGE_LOG_DDL)
            for table in domain.metadata.sorted_tables:
                pk = next(iter(table.primary_key.columns)).name
                await conn.execute(
                    f"CREATE TRIGGER _tb_log_{table.name} AFTER INSERT OR UPDATE OR DELETE ON {table.name} "
                    f"FOR EACH ROW EXECUTE FUNCTION _tb_log('{pk}')"
                )
        return name

    async def recycle(self, domain: Domain, dp: _DomainPool, schema: str, patched: dict[str, set[Any]]) -> None:
        """Put the rows an episode and its patch (`patched`, not logged) touched back as the
        template has them."""
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(f"SET LOCAL search_path TO {schema}")
            # restore as a replica: foreign-key checks and the change-log triggers are off
            # (rows come back in any order; the result is the template's consistent state)
            await conn.execute("SET LOCAL session_replication_role = replica")
            logged = await conn.fetch(f"SELECT tbl, array_agg(DISTINCT pk) AS keys FROM {CHANGE_LOG} GROUP BY tbl")
            touched_keys = {name: set(keys) for name, keys in patched.items()}
            for r in logged:
                touched_keys.setdefault(r["tbl"], set()).update(r["keys"])
            tables = domain.metadata.tables
            for name, raw_keys in touched_keys.items():
                table = tables[name]
                key = next(iter(table.primary_key.columns))
                # compare in the key's own type, so the primary-key index is used
                if isinstance(key.type, sa.Integer):
                    keys, cast = sorted({int(k) for k in raw_keys}), "bigint[]"
                else:
                    keys, cast = sorted({str(k) for k in raw_keys}), "text[]"
                await conn.execute(f"DELETE FROM {table.name} WHERE {key.name} = ANY($1::{cast})", keys)
                await conn.execute(
                    f"INSERT INTO {table.name} SELECT * FROM {dp.template}.{table.name} "
                    f"WHERE {key.name} = ANY($1::{cast})",
                    keys,
                )
            for (table, col), (value, called) in dp.sequences.items():
                if table in touched_keys:
                    await conn.execute(f"SELECT setval('{table}_{col}_seq', {int(value)}, {str(called).lower()})")
            await conn.execute(f"TRUNCATE {CHANGE_LOG} RESTART IDENTITY")

    def fill(self, domain: Domain, dp: _DomainPool) -> None:
        if dp.filling is None or dp.filling.done():
            dp.filling = asyncio.get_running_loop().create_task(self._fill(domain, dp))

    async def _fill(self, domain: Domain, dp: _DomainPool) -> None:
        # schemas on their way back count: creating one costs far more than restoring one
        try:
            while dp.ready.qsize() + dp.recycling < self.backend.warm:
                await dp.ready.put(await self.new_slot(domain, dp))
        except Exception:  # best effort: `take` makes a slot itself and reports the failure there
            return

    async def take(self, domain: Domain, dp: _DomainPool, pool: Any = None) -> str:
        """A ready schema: from the pool, else one being recycled, else a new one."""
        if dp.ready.empty() and dp.recycling:
            try:
                return await asyncio.wait_for(dp.ready.get(), timeout=5.0)
            except TimeoutError:
                pass
        if not dp.ready.empty():
            return dp.ready.get_nowait()
        return await self.new_slot(domain, dp, pool)

    async def drop_all(self) -> None:
        for t in list(self.background):
            t.cancel()
        for dp in self.domains.values():
            if dp.filling is not None:
                dp.filling.cancel()
        if self.pool is not None:
            async with self.pool.acquire() as conn:
                for name in sorted(self.schemas):
                    await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
            self.schemas.clear()
            await self.pool.close()
            self.pool = None
        if self.scratch_pool is not None:
            await self.scratch_pool.close()
            self.scratch_pool = None
        if self.lock_conn is not None:
            await self.lock_conn.close()
            self.lock_conn = None


async def ensure_template(pool: Any, domain: Domain, name: str) -> None:
    """Build the domain's template schema once (every process agrees via an advisory lock)."""
    async with pool.acquire() as conn:
        if await conn.fetchval("SELECT 1 FROM pg_namespace WHERE nspname = $1", name):
            ready = await conn.fetchval(
                "SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = '_tb_ready'", name
            )
            if ready:
                return
        async with conn.transaction():
            await conn.execute(f"SELECT pg_advisory_xact_lock({_lock_key('template:' + name)})")
            if await conn.fetchval(
                "SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = '_tb_ready'", name
            ):
                return
            await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
            await conn.execute(f"CREATE SCHEMA {name}")
            await conn.execute(f"SET LOCAL search_path TO {name}")
            for stmt in _ddl(domain):
                await conn.execute(stmt)
            for table, rows in seed_rows(domain):
                if not rows:
                    continue
                conv = _row_converter(table)
                by_cols: dict[tuple[str, ...], list[dict[str, Any]]] = {}
                for r in rows:
                    by_cols.setdefault(tuple(r), []).append(r)
                for cols, group in by_cols.items():
                    records = [tuple(conv[c](r[c]) for c in cols) for r in group]
                    await conn.copy_records_to_table(table.name, records=records, columns=list(cols), schema_name=name)
            for table, col in _serial_columns(domain):
                await conn.execute(
                    f"SELECT setval('{table}_{col}_seq', COALESCE((SELECT MAX({col}) FROM {table}), 0) + 1, false)"
                )
            await conn.execute("CREATE TABLE _tb_ready (built_at TEXT)")


async def sweep(conn: Any, everything: bool = False) -> list[str]:
    """Drop episode schemas whose owning process is gone (or all tb-env schemas)."""
    names = [r["nspname"] for r in await conn.fetch("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'tbenv%'")]
    dropped = []
    for name in names:
        if name.startswith("tbenvtpl_"):
            if not everything:
                continue
        else:
            owner = name.split("_")[1] if name.count("_") >= 2 else ""
            key = _lock_key("owner:" + owner)
            if not everything:
                free = await conn.fetchval(f"SELECT pg_try_advisory_lock({key})")
                if not free:
                    continue  # a live process holds it
                await conn.fetchval(f"SELECT pg_advisory_unlock({key})")
        await conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
        dropped.append(name)
    return dropped


def _redact(dsn: str) -> str:
    return re.sub(r"//([^:@/]+):[^@/]+@", r"//\1:***@", dsn)


class PostgresBackend(Backend):
    """Episodes in schemas of a PostgreSQL database (DSN: `TB_PG_DSN`)."""

    name = "postgres"

    def __init__(self, dsn: str | None = None, pool_size: int | None = None, warm: int | None = None):
        self.dsn = dsn or dsn_from_env()
        self.pool_size = pool_size or int(os.environ.get("TB_PG_POOL", "48"))
        self.warm = warm if warm is not None else int(os.environ.get("TB_PG_WARM", "4"))
        self._states: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopState] = weakref.WeakKeyDictionary()
        self._open: dict[int, tuple[_LoopState, _DomainPool, Domain, str, Task | None]] = {}
        _live.add(self)

    async def _state(self) -> _LoopState:
        loop = asyncio.get_running_loop()
        state = self._states.get(loop)
        if state is None:
            state = self._states[loop] = _LoopState(self)
        await state.start()
        return state

    async def open(self, domain: Domain, task: Task | None) -> Database:
        return await self._open_slot(await self._state(), domain, task, "episode")

    async def open_scratch(self, domain: Domain, task: Task | None) -> Database:
        state = await self._state()
        depth = _scratch_depth.get()
        if depth == 0:
            await state.scratch.acquire()
        _scratch_depth.set(depth + 1)
        try:
            return await self._open_slot(state, domain, task, "scratch")
        except BaseException:
            self._scratch_done(state)
            raise

    def _scratch_done(self, state: _LoopState) -> None:
        depth = _scratch_depth.get() - 1
        _scratch_depth.set(depth)
        if depth == 0:
            state.scratch.release()

    async def _open_slot(self, state: _LoopState, domain: Domain, task: Task | None, kind: str) -> Database:
        asyncpg = _import_asyncpg()
        try:
            return await self._claim(state, domain, task, kind)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError) as exc:
            # too many clients, a dropped connection: the environment failed
            raise DatabaseError(f"postgres: cannot open an episode: {type(exc).__name__}: {exc}") from exc

    async def _claim(self, state: _LoopState, domain: Domain, task: Task | None, kind: str) -> PostgresDatabase:
        """A schema and a connection for a new episode (or scratch copy), the task's patch applied."""
        pool = state.pool_for(kind)
        dp = await state.domain_pool(domain)
        # counted from the request, not from the schema's arrival: a burst whose episodes
        # wait for new schemas must still be remembered at its full size, or the schemas it
        # made are dropped when it ends and the next burst of that size makes them again
        dp.in_use += 1
        dp.peak = max(dp.peak, dp.in_use)
        try:
            schema = await state.take(domain, dp, pool)
            state.fill(domain, dp)
            conn = await pool.acquire()
        except BaseException:
            dp.in_use -= 1
            raise
        try:
            raw = getattr(conn, "_con", conn)  # the connection behind the pool's proxy
            if _conn_domain.get(raw) != domain.name:
                # statements cached for another domain's tables of the same name (tickets, ...)
                # would fail with "cached plan is invalid": start this domain afresh
                await conn.reload_schema_state()
                _conn_domain[raw] = domain.name
            await conn.execute(f"SET search_path TO {schema}")
            db = PostgresDatabase(conn, schema, domain.metadata, domain.now, 0)
            if task is not None and task.initial_patch:
                async with db.transaction():
                    if state.replica:
                        # the patch is the starting point: written as a replica, it fires neither
                        # the change log nor FK checks (~2x faster); recycling restores its keys
                        await conn.execute("SET LOCAL session_replication_role = replica")
                    await _apply_patch(db, domain, task)
                if not state.replica:  # the patch was logged: the episode's changes start after it
                    db.mark = int(await conn.fetchval(f"SELECT COALESCE(MAX(id), 0) FROM {CHANGE_LOG}"))
        except BaseException:
            dp.in_use -= 1
            await pool.release(conn)
            state.spawn(self._discard(state, schema))
            raise
        self._open[id(db)] = (state, dp, domain, kind, task)
        return db

    async def close(self, db: Database) -> None:
        assert isinstance(db, PostgresDatabase)
        entry = self._open.pop(id(db), None)
        if entry is None:
            return
        state, dp, domain, kind, task = entry
        dp.in_use -= 1
        conn, db.conn = db.conn, None
        pool = state.pool_for(kind)
        try:
            if conn is None:
                return
            await db.close()
            await pool.release(conn)
            # the episode's name goes at once; the rows are restored off the episode's path
            fresh = state.name()
            try:
                async with pool.acquire() as c:
                    await c.execute(f"ALTER SCHEMA {db.name} RENAME TO {fresh}")
            except Exception:
                state.spawn(self._discard(state, db.name))
                return
        finally:
            if kind == "scratch":
                self._scratch_done(state)
        state.schemas.discard(db.name)
        state.schemas.add(fresh)
        dp.recycling += 1
        state.spawn(self._recycle(state, dp, domain, fresh, task))

    async def _recycle(self, state: _LoopState, dp: _DomainPool, domain: Domain, schema: str, task: Task | None) -> None:
        try:
            await state.recycle(domain, dp, schema, _patch_keys(domain, task))
        except Exception:
            await self._discard(state, schema)
            return
        finally:
            dp.recycling -= 1
        # keep enough for a burst like the largest yet (a GRPO step, an eval wave), at most
        # one per pooled connection: creating a schema costs ~100x restoring one
        if dp.ready.qsize() < max(dp.peak, self.warm):
            await dp.ready.put(schema)
        else:  # more than any burst has needed
            await self._discard(state, schema)

    async def _discard(self, state: _LoopState, schema: str) -> None:
        try:
            async with state.pool.acquire() as conn:
                await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            state.schemas.discard(schema)
        except Exception:  # left for the next sweep
            pass

    async def drain(self) -> None:
        """Wait for the background recycling of closed episodes (tests, benchmarks)."""
        state = await self._state()
        while state.background:
            await asyncio.gather(*list(state.background), return_exceptions=True)

    async def aclose(self) -> None:
        """Drop every schema this backend made on the running loop and close its connections."""
        loop = asyncio.get_running_loop()
        state = self._states.pop(loop, None)
        if state is not None:
            await state.drop_all()

    def _names_left(self) -> list[str]:
        return sorted({n for s in list(self._states.values()) for n in s.schemas})


# the statements of each task's patch: which of its rows exist in the template never changes,
# so the existence queries and row conversions run once per task, not once per episode
_patch_plans: dict[int, tuple[Task, list[tuple[str, list[tuple[Any, ...]]]]]] = {}


def _patch_keys(domain: Domain, task: Task | None) -> dict[str, set[Any]]:
    """The keys of the rows a task's patch writes, per table (what recycling must restore)."""
    keys: dict[str, set[Any]] = {}
    if task is not None and task.initial_patch:
        for table, pk, row in patch_statements(domain, task):
            keys.setdefault(table, set()).add(row[pk])
    return keys


async def _apply_patch(db: PostgresDatabase, domain: Domain, task: Task) -> None:
    """Upsert the patch rows, batched per table and column set (a few round trips)."""
    asyncpg = _import_asyncpg()
    try:
        cached = _patch_plans.get(id(task))
        if cached is None or cached[0] is not task:
            cached = _patch_plans[id(task)] = (task, await _patch_plan(db, domain, task))
        for sql, args in cached[1]:
            await db.conn.executemany(sql, args)
    except (asyncpg.PostgresError, TypeError, ValueError) as exc:
        _patch_plans.pop(id(task), None)
        raise TaskFileError(task.source or "?", task.id, "initial_patch", f"PostgreSQL rejected it: {exc}") from exc


async def _patch_plan(db: PostgresDatabase, domain: Domain, task: Task) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """UPDATEs for the patch rows the template has, INSERTs (full rows) for the others."""
    by_table: dict[str, list[dict[str, Any]]] = {}
    for table, _pk, row in patch_statements(domain, task):
        by_table.setdefault(table, []).append(row)
    plan: list[tuple[str, list[tuple[Any, ...]]]] = []
    for table, rows in by_table.items():
        t = domain.metadata.tables[table]
        pk = next(iter(t.primary_key.columns)).name
        conv = _row_converter(t)
        rows = [{k: conv[k](v) for k, v in r.items()} for r in rows]
        existing = {r[0] for r in await db.conn.fetch(f"SELECT {pk} FROM {table} WHERE {pk} = ANY($1)", [r[pk] for r in rows])}
        updates: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
        inserts: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
        for r in rows:
            if r[pk] in existing:
                cols = tuple(c for c in r if c != pk)
                if cols:
                    updates.setdefault(cols, []).append((*(r[c] for c in cols), r[pk]))
            else:
                full = {k: conv[k](v) for k, v in full_row(t, r).items()}
                inserts.setdefault(tuple(full), []).append(tuple(full.values()))
                existing.add(r[pk])
        for cols, args in updates.items():
            sets = ", ".join(f"{c} = ${i + 1}" for i, c in enumerate(cols))
            plan.append((f"UPDATE {table} SET {sets} WHERE {pk} = ${len(cols) + 1}", args))
        for cols, args in inserts.items():
            marks = ", ".join(f"${i + 1}" for i in range(len(cols)))
            plan.append((f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})", args))
    return plan


# --- clean-up at exit ------------------------------------------------------------------------------

_live: weakref.WeakSet[PostgresBackend] = weakref.WeakSet()


def _drop_at_exit() -> None:
    names = [n for b in list(_live) for n in b._names_left()]
    if not names:
        return
    dsn = next(iter(_live)).dsn

    async def drop() -> None:
        asyncpg = _import_asyncpg()
        conn = await asyncpg.connect(dsn)
        try:
            for n in names:
                await conn.execute(f"DROP SCHEMA IF EXISTS {n} CASCADE")
        finally:
            await conn.close()

    try:
        asyncio.run(drop())
    except Exception:  # the next sweep removes what is left
        pass


atexit.register(_drop_at_exit)


async def pg_clean(dsn: str | None = None, everything: bool = False) -> list[str]:
    """`tb-env pg-clean`: drop orphaned episode schemas (with `everything`, templates too)."""
    asyncpg = _import_asyncpg()
    conn = await asyncpg.connect(dsn or dsn_from_env())
    try:
        return await sweep(conn, everything)
    finally:
        await conn.close()
