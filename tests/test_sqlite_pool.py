"""Pooled SQLite connections: an episode's database is rolled away on close and the
connection serves the next episode of the same task, which must start exactly where a
fresh copy would; the checker's cached initial rows must grade exactly as a fresh
copy of the start would."""

from __future__ import annotations

import asyncio

import pytest

import tb_env
from tb_env.backends.sqlite import SQLiteBackend
from tb_env.core import check
from tb_env.core.check import Checker, snapshot
from tb_env.core.toolserver import invoke_tool
from tb_env.errors import DatabaseError


async def _deposit(domain, db, account: str = "A-001", amount: float = 100) -> None:
    outcome = await invoke_tool(domain, db, "deposit", {"account_id": account, "amount": amount})
    assert not outcome.is_error, outcome.text


def test_a_reused_connection_starts_as_a_fresh_copy(mini):
    task = tb_env.get_task("mini/deposit-001")
    backend = SQLiteBackend(idle_connections=4)
    fresh = SQLiteBackend(idle_connections=0)

    async def main():
        first = await backend.open(mini, task)
        conn = first.conn
        await _deposit(mini, first)
        await _deposit(mini, first, "A-002", 5)
        assert await first.changed_keys()
        await first.close()

        second = await backend.open(mini, task)
        assert second.conn is conn, "the closed episode's connection is reused"
        reference = await fresh.open(mini, task)
        try:
            assert await snapshot(mini, second) == await snapshot(mini, reference)
            assert await second.changed_keys() == {}
            # generated keys and rowids continue from the image, not from the rolled-back episode
            await _deposit(mini, second)
            await _deposit(mini, reference)
            assert await second.rows("SELECT * FROM audit_log") == await reference.rows("SELECT * FROM audit_log")
        finally:
            await second.close()
            await reference.close()

    asyncio.run(main())


def test_a_tool_call_that_fails_rolls_back_only_itself(mini):
    task = tb_env.get_task("mini/deposit-001")
    backend = SQLiteBackend(idle_connections=2)

    async def main():
        db = await backend.open(mini, task)
        try:
            await _deposit(mini, db)
            with pytest.raises(RuntimeError):
                async with db.transaction():
                    await db.update("accounts", "A-001", balance=0)
                    raise RuntimeError("the tool failed half-way")
            # the failed call left nothing; the earlier call's write stands
            assert (await db.get("accounts", "A-001"))["balance"] == 350
        finally:
            await db.close()

    asyncio.run(main())


async def _next_start(domain, backend, task, dropped) -> float:
    """A-001's balance at the start of the next episode, which must not get `dropped`."""
    again = await backend.open(domain, task)
    try:
        assert again.conn is not dropped
        return (await again.get("accounts", "A-001"))["balance"]
    finally:
        await again.close()


def test_a_connection_whose_transaction_ended_inside_is_not_reused(mini):
    task = tb_env.get_task("mini/deposit-001")
    backend = SQLiteBackend(idle_connections=4)

    async def main():
        db = await backend.open(mini, task)
        conn = db.conn
        await _deposit(mini, db)
        conn.execute("COMMIT")  # a buggy tool ends the episode's transaction: its writes are now permanent
        await db.close()
        assert backend._idle_count == 0
        assert await _next_start(mini, backend, task, conn) == 250

    asyncio.run(main())


def test_a_closed_handle_cannot_reach_the_reused_connection(mini):
    task = tb_env.get_task("mini/deposit-001")
    backend = SQLiteBackend(idle_connections=4)

    async def main():
        late = await backend.open(mini, task)
        await late.close()
        current = await backend.open(mini, task)
        assert current.conn is late.conn
        try:
            with pytest.raises(DatabaseError, match="closed"):
                await _write_through(late)
            assert (await current.get("accounts", "A-001"))["balance"] == 250
            assert await current.changed_keys() == {}
        finally:
            await current.close()

    asyncio.run(main())


async def _write_through(db) -> None:
    async with db.transaction():
        await db.update("accounts", "A-001", balance=0)


def test_the_pool_is_bounded_and_a_burst_of_one_task_keeps_the_others(mini):
    deposit, refuse = tb_env.get_task("mini/deposit-001"), tb_env.get_task("mini/refuse-close-001")
    backend = SQLiteBackend(idle_connections=3)

    async def main():
        kept = await backend.open(mini, refuse)
        await kept.close()
        burst = [await backend.open(mini, deposit) for _ in range(6)]
        for db in burst:
            await db.close()
        assert backend._idle_count == 3
        again = await backend.open(mini, refuse)
        assert again.conn is kept.conn, "the other task's connection survived the burst"
        await again.close()

    asyncio.run(main())


def test_pooling_off_closes_every_connection(mini):
    backend = SQLiteBackend(idle_connections=0)

    async def main():
        db = await backend.open(mini, tb_env.get_task("mini/deposit-001"))
        conn = db.conn
        await db.close()
        assert backend._idle_count == 0
        with pytest.raises(Exception, match="closed"):
            conn.execute("SELECT 1")

    asyncio.run(main())


class CountingBackend(SQLiteBackend):
    def __init__(self) -> None:
        super().__init__(idle_connections=8)
        self.scratch = 0

    async def open_scratch(self, domain, task):
        self.scratch += 1
        return await super().open_scratch(domain, task)


@pytest.mark.parametrize("limit", [check.INITIAL_CACHE_ENTRIES, 1], ids=["cached", "cache-overflowing"])
def test_cached_initial_rows_grade_as_a_fresh_start_would(mini, monkeypatch, limit):
    """An agent that writes rows the golden path does not touch is compared with those
    rows' initial values: from the cache after the first check, and exactly as before."""
    monkeypatch.setattr(check, "INITIAL_CACHE_ENTRIES", limit)
    task = tb_env.get_task("mini/deposit-001")
    backend = CountingBackend()
    checker = Checker(backend)

    async def episode(extra: float | None) -> list[str]:
        db = await backend.open(mini, task)
        try:
            await _deposit(mini, db)
            if extra is not None:
                await _deposit(mini, db, "A-002", extra)
            return await checker.state_diff(mini, task, db)
        finally:
            await db.close()

    async def main():
        assert await episode(None) == []
        wrong = await episode(7)
        assert any("accounts[A-002]" in line and "balance" in line for line in wrong), wrong
        opened = backend.scratch
        assert await episode(7) == wrong
        assert await episode(None) == []
        if limit > 1:
            assert backend.scratch == opened, "the second identical check opened a copy of the start"

    asyncio.run(main())


def test_a_forked_child_does_not_use_the_parents_connections(mini):
    import os

    task = tb_env.get_task("mini/deposit-001")
    backend = SQLiteBackend(idle_connections=4)

    async def warm():
        db = await backend.open(mini, task)
        await db.close()

    asyncio.run(warm())
    assert backend._idle_count == 1
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report its pool size, then open and grade an episode of its own
        try:
            async def child():
                before = backend._idle_count
                db = await backend.open(mini, task)
                await _deposit(mini, db)
                ok = (await db.get("accounts", "A-001"))["balance"] == 350
                await db.close()
                return f"{before} {ok}"

            os.write(write, asyncio.run(child()).encode())
        finally:
            os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    assert os.read(read, 100).decode() == "0 True"
    assert backend._idle_count == 1, "the parent keeps its own"


def test_an_error_that_already_rolled_everything_back_surfaces_and_the_connection_is_dropped(mini):
    task = tb_env.get_task("mini/deposit-001")
    backend = SQLiteBackend(idle_connections=4)

    async def main():
        db = await backend.open(mini, task)
        conn = db.conn
        with pytest.raises(RuntimeError, match="disk full"):
            async with db.transaction():
                await db.update("accounts", "A-001", balance=0)
                conn.execute("ROLLBACK")  # what SQLite does itself on SQLITE_FULL, IOERR, INTERRUPT
                raise RuntimeError("disk full")
        await db.close()
        assert backend._idle_count == 0, "a connection outside its episode transaction is not reused"
        assert await _next_start(mini, backend, task, conn) == 250

    asyncio.run(main())


def test_initial_rows_asked_partly_from_the_cache_survive_the_cache_overflowing(mini, monkeypatch):
    """A check asking for keys of which some are cached and the rest overflow the cache gets
    every one of them, with the values a fresh copy of the start has."""
    monkeypatch.setattr(check, "INITIAL_CACHE_ENTRIES", 2)
    task = tb_env.get_task("mini/deposit-001")
    checker = Checker(SQLiteBackend(idle_connections=2))
    plan = next(p for p in check._plans(mini) if p.name == "accounts")

    async def main():
        first = await checker.initial_rows(mini, task, plan, {"A-001"})
        both = await checker.initial_rows(mini, task, plan, {"A-001", "A-002", "A-404"})
        fresh = await SQLiteBackend(idle_connections=0).open(mini, task)
        try:
            expected = await check._rows_by_key(fresh, plan, {"A-001", "A-002"})
        finally:
            await fresh.close()
        return first, both, expected

    first, both, expected = asyncio.run(main())
    assert first == {"A-001": expected["A-001"]}
    assert both == {"A-001": expected["A-001"], "A-002": expected["A-002"], "A-404": None}
