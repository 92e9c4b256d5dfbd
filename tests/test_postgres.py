"""The PostgreSQL backend: same tools, tasks and checks as SQLite; isolated, cleaned up."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys

import pytest

import tb_env
from tb_env.backends.postgres import DEFAULT_DSN, PostgresBackend, dsn_from_env, pg_clean
from tb_env.domain.registry import BUILTIN_DOMAINS


def _pg_reachable() -> bool:
    host, port = "127.0.0.1", 5432
    dsn = dsn_from_env()
    if "@" in dsn:
        hostpart = dsn.split("@", 1)[1].split("/", 1)[0]
        host, _, p = hostpart.partition(":")
        port = int(p or 5432)
    try:
        socket.create_connection((host, port), timeout=1).close()
    except OSError:
        return False
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        return False
    return True


pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not _pg_reachable(), reason=f"no PostgreSQL at {os.environ.get('TB_PG_DSN', DEFAULT_DSN)} (or asyncpg missing)"),
]


async def _schemas(prefix: str = "tbenv_") -> set[str]:
    import asyncpg

    conn = await asyncpg.connect(dsn_from_env())
    try:
        return {r[0] for r in await conn.fetch("SELECT nspname FROM pg_namespace WHERE nspname LIKE $1", prefix + "%")}
    finally:
        await conn.close()


def test_every_built_in_task_validates_on_postgres():
    """The oracle, doing nothing and every wrong path of every task, graded on PostgreSQL. The probes
    (other wordings of the reply) grade text the same way on every backend and run on SQLite in
    test_validate; with them this run took over 25 minutes (`tb-env validate --backend postgres`)."""
    out = subprocess.run(
        [sys.executable, "-m", "tb_env.cli.commands", "validate", "--backend", "postgres", "--json", "--workers", "2", "--no-probes"],
        capture_output=True, text=True, timeout=1800,
    )
    report = json.loads(out.stdout)
    assert out.returncode == 0, json.dumps(report["failures"][:5], indent=1)
    # the built-in packs only: other tests register test packs in this process
    built_in = sum(len(tb_env.list_tasks(d)) for d in BUILTIN_DOMAINS)
    assert report["backend"] == "postgres" and report["tasks"] == built_in


def test_episode_schema_exists_during_the_episode_and_vanishes_at_close(mini):
    import gymnasium as gym

    env = gym.make("tb_env/Mini-v0", backend="postgres")
    _, info = env.reset(options={"task_id": "mini/deposit-001"})
    assert info["backend"] == "postgres" and info["db"].startswith("tbenv_")
    assert info["db"] in asyncio.run(_schemas())
    _, _, _, _, step = env.step('<tool_call>{"name": "deposit", "arguments": {"account_id": "A-001", "amount": 100}}</tool_call>')
    assert json.loads(step["messages"][-1]["content"])["balance"] == 350.0
    env.close()
    assert info["db"] not in asyncio.run(_schemas())


def test_oracle_and_wrong_paths_agree_with_sqlite(mini):
    from tb_env.kit.validate import validate_task

    async def main():
        backend = PostgresBackend(warm=2)
        try:
            reps = [await validate_task(t, backend) for t in tb_env.list_tasks("mini")]
        finally:
            await backend.drain()
            await backend.aclose()
        return reps

    assert all(r.ok for r in asyncio.run(main()))


def test_concurrent_episodes_writing_the_same_rows_are_isolated_and_recycled_clean(mini):
    from tb_env.core.episode import make_episode
    from tb_env.parties.interpret import render_tool_call

    def deposit(amount: float) -> str:
        return render_tool_call(tb_env.ToolCall(name="deposit", arguments={"account_id": "A-001", "amount": amount}))

    async def main():
        backend = PostgresBackend(warm=4, pool_size=40)
        task = tb_env.get_task("mini/deposit-001")

        async def one(i: int):
            ep = make_episode(task, backend=backend)
            await ep.start()
            try:
                await ep.step(deposit(float(i + 1)))
                await asyncio.sleep(0.01)
                obs, *_ = await ep.step(deposit(float(i + 1)))
                audit = await ep.db.all("SELECT id FROM audit_log ORDER BY id DESC LIMIT 2")
                return json.loads(obs.split(": ", 1)[1])["balance"], [r["id"] for r in audit]
            finally:
                await ep.close()

        try:
            first = await asyncio.gather(*(one(i) for i in range(24)))
            await backend.drain()
            second = await asyncio.gather(*(one(i) for i in range(24)))
            await backend.drain()
            left = backend._names_left()
        finally:
            await backend.aclose()
        return first, second, left

    first, second, left = asyncio.run(main())
    for i, (balance, _) in enumerate(first):
        assert balance == 250 + 2 * (i + 1)  # own writes only, on every reused schema too
    assert [b for b, _ in second] == [b for b, _ in first]
    ids = {tuple(a) for _, a in first + second}
    assert len(ids) == 1, f"generated ids differ between episodes: sequences were not reset ({ids})"
    assert left and all(n.startswith("tbenv_") for n in left)


def test_a_bursts_schemas_are_kept_for_the_next_burst_of_that_size(mini, monkeypatch):
    # the first episodes of a burst all arrive before the domain's pool exists; each used to
    # make its own, so the burst's size was never seen, its schemas were dropped at the end
    # and the next burst made them all again (~100 ms each instead of a few ms)
    from tb_env.backends import postgres

    made = []
    new_slot = postgres._LoopState.new_slot

    async def counting(self, *args, **kwargs):
        made.append(1)
        return await new_slot(self, *args, **kwargs)

    monkeypatch.setattr(postgres._LoopState, "new_slot", counting)

    async def main():
        backend = PostgresBackend(warm=2, pool_size=30)
        task = tb_env.get_task("mini/deposit-001")

        async def burst():
            dbs = await asyncio.gather(*(backend.open(mini, task) for _ in range(12)))
            pools = {id(backend._open[id(db)][1]) for db in dbs}
            for db in dbs:
                await backend.close(db)
            await backend.drain()
            return pools

        try:
            pools = await burst()
            first = len(made)
            await burst()
            return pools, first, len(made) - first
        finally:
            await backend.aclose()

    pools, first, second = asyncio.run(main())
    assert len(pools) == 1, "one schema pool per domain"
    assert first >= 12
    assert second <= 2, f"the second burst made {second} new schemas (the warm reserve is 2)"


def test_a_recycled_schema_forgets_the_previous_tasks_patch(mini):
    # patches are written as a replica (not logged), so recycling must restore their rows
    # from the task itself: the next task on that schema starts from the template, not from
    # the previous task's starting point
    async def main():
        backend = PostgresBackend(warm=1, pool_size=10)
        deposit, refuse = tb_env.get_task("mini/deposit-001"), tb_env.get_task("mini/refuse-close-001")
        try:
            first = await asyncio.gather(*(backend.open(mini, deposit) for _ in range(3)))
            patched = [(await db.get("accounts", "A-001"))["balance"] for db in first]
            for db in first:
                await backend.close(db)
            await backend.drain()
            state = await backend._state()
            schemas = set(next(iter(state.domains.values())).ready._queue)
            second = await asyncio.gather(*(backend.open(mini, refuse) for _ in range(3)))
            reused = {db.name for db in second}
            seen = [((await db.get("accounts", "A-001"))["balance"], await db.changed_keys()) for db in second]
            for db in second:
                await backend.close(db)
            await backend.drain()
            return patched, schemas, reused, seen
        finally:
            await backend.aclose()

    patched, schemas, reused, seen = asyncio.run(main())
    assert patched == [250, 250, 250]
    assert reused <= schemas and len(reused) == 3, "the second episodes run on the recycled schemas"
    base = next(a["balance"] for a in mini.seed()["accounts"] if a["id"] == "A-001")
    assert base != 250
    assert seen == [(base, {})] * 3, "the patch of the task before, or this task's patch, leaked into the start"


def test_without_the_replica_privilege_the_patch_is_logged_and_left_out_of_the_changes(mini, monkeypatch):
    # a role that may not set session_replication_role: the patch fires the change log,
    # and the episode's changes are counted from after it
    from tb_env.backends import postgres
    from tb_env.core.episode import run_episode
    from tb_env.parties.policy import OraclePolicy

    start = postgres._LoopState.start

    async def no_replica(self):
        await start(self)
        self.replica = False

    monkeypatch.setattr(postgres._LoopState, "start", no_replica)

    async def main():
        backend = PostgresBackend(warm=1, pool_size=6)
        task = tb_env.get_task("mini/deposit-001")
        try:
            db = await backend.open(mini, task)
            at_start = (await db.changed_keys(), db.mark, (await db.get("accounts", "A-001"))["balance"])
            await backend.close(db)
            result = await run_episode(task, OraclePolicy(), backend=backend)
            await backend.drain()
            return at_start, result
        finally:
            await backend.aclose()

    (changes, mark, balance), result = asyncio.run(main())
    assert (changes, balance) == ({}, 250) and mark > 0
    assert result.reward == 1.0, result.check


def test_more_episodes_than_connections_never_wait_forever_for_the_checks_copies(mini):
    # 3 connections, 8 episodes at once: the first three hold every connection when their
    # checks need scratch copies (golden replay, initial rows). Drawn from the same pool,
    # those waited forever; they have a pool of their own.
    from tb_env.core.episode import run_episode
    from tb_env.parties.policy import OraclePolicy

    async def main():
        backend = PostgresBackend(warm=1, pool_size=3)
        task = tb_env.get_task("mini/deposit-001")
        try:
            results = await asyncio.wait_for(
                asyncio.gather(*(run_episode(task, OraclePolicy(), backend=backend, seed=i) for i in range(8))),
                timeout=180,
            )
            await backend.drain()
        finally:
            await backend.aclose()
        return results

    results = asyncio.run(main())
    assert [r.reward for r in results] == [1.0] * 8, [r.infra_error for r in results]


def test_aclose_leaves_no_schema_and_pg_clean_sweeps_orphans(mini):
    import asyncpg

    async def main():
        backend = PostgresBackend(warm=2)
        result = await tb_env.run_episode("mini/deposit-001", tb_env.OraclePolicy(), backend=backend)
        await backend.drain()
        made = backend._names_left()
        await backend.aclose()
        after = await _schemas()
        conn = await asyncpg.connect(dsn_from_env())
        await conn.execute("CREATE SCHEMA tbenv_deadbeef_1")  # an orphan: no process holds its owner lock
        await conn.close()
        swept = await pg_clean()
        return result.reward, made, after, swept

    reward, made, after, swept = asyncio.run(main())
    assert reward == 1.0 and made
    assert not set(made) & after
    assert "tbenv_deadbeef_1" in swept and "tbenv_deadbeef_1" not in asyncio.run(_schemas())


def test_unreachable_postgres_is_an_infra_error_not_a_zero(mini):
    async def main():
        backend = PostgresBackend(dsn="postgresql://postgres@127.0.0.1:1/postgres")
        with pytest.raises(tb_env.errors.DatabaseError, match="cannot reach PostgreSQL"):
            await backend.open(tb_env.get_domain("mini"), tb_env.get_task("mini/deposit-001"))

    asyncio.run(main())


def test_values_before_a_change_are_the_same_on_postgres():
    """The `grounded` check's old values (tb_env.core.check.Checker.stale_values) come from the
    golden path's changes; PostgreSQL keeps no change log, so they are read on the embedded
    copy of the same data: the reward must not depend on the backend."""
    from tb_env.backends.sqlite import SQLiteBackend
    from tb_env.core.check import Checker

    async def main():
        task = tb_env.get_task("travel/ask-new-dates-test-01")
        domain = tb_env.get_domain("travel")
        backend = PostgresBackend(warm=1, pool_size=4)
        try:
            on_pg = await Checker(backend).stale_values(domain, task)
        finally:
            await backend.aclose()
        return on_pg, await Checker(SQLiteBackend()).stale_values(domain, task)

    on_pg, on_sqlite = asyncio.run(main())
    assert on_pg == on_sqlite and "987" in on_sqlite, (on_pg, on_sqlite)
