"""What every backend shares: the interface, and turning seed rows and patches into rows."""

from __future__ import annotations

import abc
from typing import Any

import sqlalchemy as sa

from tb_env.domain.database import Database
from tb_env.domain.pack import Domain, Rows
from tb_env.domain.task import Task
from tb_env.errors import DomainError, TaskFileError


class Backend(abc.ABC):
    name: str

    @abc.abstractmethod
    async def open(self, domain: Domain, task: Task | None) -> Database:
        """A fresh private database: base data plus the task's patch (None: base only)."""

    async def open_scratch(self, domain: Domain, task: Task | None) -> Database:
        """A copy the checker reads beside an open episode (golden replay, initial rows).

        Apart from `open` so that a backend with a bounded connection pool can keep some for
        these: an episode that waits for a scratch copy while every connection is held by
        episodes doing the same would wait forever."""
        return await self.open(domain, task)

    async def close(self, db: Database) -> None:
        await db.close()


def full_row(table: sa.Table, row: dict[str, Any]) -> dict[str, Any]:
    """A seed row with every column present: missing ones take the column's scalar default."""
    unknown = set(row) - set(table.c.keys())
    if unknown:
        raise KeyError(f"table {table.name!r} has no column(s) {sorted(unknown)}")
    out = {}
    for col in table.c:
        if col.name in row:
            out[col.name] = row[col.name]
        elif col.default is not None and getattr(col.default, "is_scalar", False):
            out[col.name] = col.default.arg
        elif col.server_default is not None:
            continue  # let the database apply it
        else:
            out[col.name] = None
    return out


def seed_rows(domain: Domain) -> list[tuple[sa.Table, list[dict[str, Any]]]]:
    """The domain's seed, table by table in dependency order, each row completed."""
    data: Rows = domain.seed()
    tables = domain.metadata.tables
    unknown = set(data) - set(tables)
    if unknown:
        raise DomainError(f"domain {domain.name!r}: seed() returns rows for unknown table(s) {sorted(unknown)}")
    out = []
    for table in domain.metadata.sorted_tables:
        rows = data.get(table.name) or []
        try:
            out.append((table, [full_row(table, r) for r in rows]))
        except KeyError as exc:
            raise DomainError(f"domain {domain.name!r}: seed(): {exc.args[0]}") from None
    return out


def patch_statements(domain: Domain, task: Task) -> list[tuple[str, str, dict[str, Any]]]:
    """The task's `initial_patch` as upserts: (table, primary key column, row) in table order.

    Upsert by primary key: an existing row gets the listed columns; a new row is
    inserted with defaults for the rest."""
    tables = domain.metadata.tables
    out = []
    order = {t.name: i for i, t in enumerate(domain.metadata.sorted_tables)}
    for name in sorted(task.initial_patch, key=lambda n: order.get(n, -1)):
        if name not in tables:
            raise TaskFileError(
                task.source or "?", task.id, f"initial_patch.{name}", f"no table {name!r} in domain {domain.name!r}"
            )
        table = tables[name]
        pk = next(iter(table.primary_key.columns)).name
        for i, row in enumerate(task.initial_patch[name]):
            unknown = set(row) - set(table.c.keys())
            if unknown:
                raise TaskFileError(
                    task.source or "?", task.id, f"initial_patch.{name}[{i}]", f"unknown column(s) {sorted(unknown)}"
                )
            if pk not in row:
                raise TaskFileError(
                    task.source or "?", task.id, f"initial_patch.{name}[{i}]", f"a patch row needs its key {pk!r}"
                )
            out.append((name, pk, row))
    return out
