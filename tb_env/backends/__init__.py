"""Backends give each episode a private copy of its domain's database.

`Backend.open(domain, task)` returns a `Database` holding the domain's seeded base data
with the task's `initial_patch` applied; `Backend.close(db)` discards it. Episodes never
see each other's writes. SQLite (embedded, the default) lives here; PostgreSQL is the
backend for scale.

Imports `tb_env.domain` and `tb_env.errors` only: a backend knows a domain's schema and
a task's patch, never the episode that uses the copy.
"""

from __future__ import annotations

from tb_env.backends.base import Backend
from tb_env.backends.sqlite import AioSQLiteBackend, SQLiteBackend
from tb_env.errors import ConfigError

_shared: dict[str, Backend] = {}


def get_backend(name: str | Backend = "sqlite") -> Backend:
    """The process-wide backend of that name (templates are cached across envs)."""
    if isinstance(name, Backend):
        return name
    if name not in _shared:
        if name == "sqlite":
            _shared[name] = SQLiteBackend()
        elif name == "aiosqlite":
            _shared[name] = AioSQLiteBackend()
        elif name in ("postgres", "postgresql"):
            from tb_env.backends.postgres import PostgresBackend

            _shared[name] = _shared.get("postgres") or PostgresBackend()
        else:
            raise ConfigError(f"Unknown backend {name!r}: use 'sqlite' (default), 'aiosqlite' or 'postgres'.")
    return _shared[name]


__all__ = ["AioSQLiteBackend", "Backend", "SQLiteBackend", "get_backend"]
