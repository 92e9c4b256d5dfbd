"""Database faults end as `infra_error`, never as a 0 or a 1: a lock held by another
connection, a full disk, a connection the server drops."""

from __future__ import annotations

import asyncio
import json
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

import tb_env
from tb_env.core.episode import Episode, checker_for, run_episode
from tb_env.evaluation.results import read_lines
from tb_env.parties.interpret import render_tool_call

from .conftest import FAULTY, MINI, ROOT, cli, env
from .filebackend import FileSQLiteBackend
from .pg import needs_postgres


def call(name: str, **arguments) -> str:
    return render_tool_call(tb_env.ToolCall(name=name, arguments=arguments))


def _episode(backend, task_id: str = "faulty/deposit-001") -> Episode:
    task = tb_env.get_task(task_id)
    return Episode(domain=tb_env.get_domain(task.domain), task=task, backend=backend,
                   user=tb_env.ScriptedUser(), checker=checker_for(backend))


@pytest.mark.parametrize("when", ["before_the_write", "before_the_check"])
def test_a_locked_episode_file_is_an_infra_error(faulty, tmp_path, when):
    backend = FileSQLiteBackend(str(tmp_path))

    async def main():
        ep = _episode(backend)
        await ep.start()
        other = sqlite3.connect(ep.db.name, isolation_level=None)
        try:
            if when == "before_the_check":
                await ep.step(call("deposit", account_id="F-001", amount=50))
                await ep.step("One moment, let me check.")  # not the answer yet: the customer waits
            other.execute("BEGIN EXCLUSIVE")  # a second connection holds the file
            if when == "before_the_write":
                out = await ep.step(call("deposit", account_id="F-001", amount=50))
            else:
                out = await ep.step(call("end_conversation"))
            other.execute("ROLLBACK")
            balance = await ep.db.scalar("SELECT balance FROM accounts WHERE id = 'F-001'")
            return out, balance
        finally:
            other.close()
            await ep.close()

    (_, reward, terminated, _, info), balance = asyncio.run(main())
    assert reward is None and terminated and "check" not in info
    assert info["end_reason"] == "infra_error"  # also when the check itself could not run
    assert "database is locked" in info["infra_error"]
    assert balance == (150.0 if when == "before_the_check" else 100.0)
    assert not list(tmp_path.iterdir()), "the episode's file outlived close"


def test_a_locked_user_cache_is_an_infra_error(tmp_path, mini):
    from tb_env.parties.user import CachedUser, LLMUser

    from ..openai_server import FakeOpenAI

    cache = tmp_path / "users.sqlite"
    with FakeOpenAI() as server:
        user = CachedUser(LLMUser(model="sim", base_url=server.url, api_key="k"), str(cache))
        user.conn.execute("PRAGMA busy_timeout = 50")
        holder = sqlite3.connect(cache, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            result = asyncio.run(run_episode("mini/deposit-001", tb_env.OraclePolicy(), user=user))
        finally:
            holder.close()
    assert result.reward is None and result.infra_error.startswith("user_simulator") and "locked" in result.infra_error


_DISK_FULL = textwrap.dedent("""
    import asyncio, json, resource, signal, sys
    sys.path[:0] = [{root!r}, {here!r}]
    import tb_env
    from tests.faults.filebackend import FileSQLiteBackend
    from tb_env.core.episode import Episode, checker_for
    from tb_env.parties.interpret import render_tool_call
    tb_env.register_domain({faulty!r})
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # a full disk answers EFBIG, it does not kill

    async def main():
        backend = FileSQLiteBackend({folder!r})
        task = tb_env.get_task("faulty/deposit-001")
        ep = Episode(domain=tb_env.get_domain("faulty"), task=task, backend=backend,
                     user=tb_env.ScriptedUser(), checker=checker_for(backend))
        await ep.start()
        import os
        limit = os.path.getsize(ep.db.name) + 1024  # the copy fits; a memo of several pages does not
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        big = render_tool_call(tb_env.ToolCall(name="add_memo", arguments={{"account_id": "F-001", "text": "x" * 19000}}))
        _, reward, terminated, _, info = await ep.step(big)
        rows = await ep.db.scalar("SELECT COUNT(*) FROM memos")
        await ep.close()
        print(json.dumps({{"reward": reward, "terminated": terminated, "infra": info["infra_error"], "memos": rows}}))

    asyncio.run(main())
""")


def test_disk_full_on_the_episode_file_is_an_infra_error(tmp_path):
    script = _DISK_FULL.format(root=str(ROOT), here=str(ROOT), faulty=str(FAULTY), folder=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env())
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.strip().splitlines()[-1])
    assert out["reward"] is None and out["terminated"]
    assert out["infra"].startswith("tool_server: database: sqlite:"), out["infra"]  # EFBIG: "disk I/O error"
    assert out["memos"] == 1  # the seeded memo only: the failed write left nothing


def _limited(limit: int):
    def pre() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return pre


def test_disk_full_on_the_results_file_loses_nothing_and_resumes(tmp_path, mini):
    out = tmp_path / "r.jsonl"
    args = cli("--pack", str(MINI), "eval", "--policy", "oracle", "--domains", "mini", "--split", "all",
               "--trials", "12", "--concurrency", "2", "--quiet", "--out", str(out))
    full = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env(), preexec_fn=_limited(3000))
    assert full.returncode != 0, "the campaign did not notice the full disk"
    assert "tb-env: error:" in full.stderr and "Traceback" not in full.stderr, full.stderr[-2000:]
    raw = out.read_bytes()
    assert 0 < len(raw) <= 3000 and raw.endswith(b"\n"), "a torn line was left behind"
    before = read_lines(out, strict=True)
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env())
    assert done.returncode == 0, done.stderr[-2000:]
    lines = read_lines(out, strict=True)
    pairs = {(ln["task_id"], ln["trial"]) for ln in lines}
    assert len(lines) == len(pairs) == 2 * 12 and lines[: len(before)] == before
    assert all(ln["reward"] == 1.0 for ln in lines)


@needs_postgres[0]
@needs_postgres[1]
@pytest.mark.parametrize("when", ["before_the_write", "before_the_check"])
@pytest.mark.usefixtures("mini")
def test_postgres_connection_dropped_is_an_infra_error(when):
    import asyncpg

    from tb_env.backends.postgres import PostgresBackend, dsn_from_env

    async def main():
        backend = PostgresBackend(warm=1, pool_size=4)
        try:
            ep = _episode(backend, "mini/deposit-001")
            await ep.start()
            pid = ep.db.conn.get_server_pid()
            if when == "before_the_check":
                await ep.step(call("deposit", account_id="A-001", amount=100))
                await ep.step("One moment, let me check.")  # not the answer yet: the customer waits
            admin = await asyncpg.connect(dsn_from_env())
            assert await admin.fetchval("SELECT pg_terminate_backend($1)", pid)
            await admin.close()
            if when == "before_the_write":
                out = await ep.step(call("deposit", account_id="A-001", amount=100))
            else:
                out = await ep.step(call("end_conversation"))
            await ep.close()
            after = await run_episode("mini/deposit-001", tb_env.OraclePolicy(), backend=backend)
            await backend.drain()
            return out, after
        finally:
            await backend.aclose()

    (_, reward, terminated, _, info), after = asyncio.run(main())
    assert reward is None and terminated and "check" not in info and info["end_reason"] == "infra_error"
    assert info["infra_error"].startswith(("tool_server: database: postgres", "database: postgres")), info["infra_error"]
    assert after.reward == 1.0  # the backend recovered: the next episode gets a live connection


@needs_postgres[0]
@needs_postgres[1]
@pytest.mark.usefixtures("mini")
def test_postgres_connections_all_dropped_between_episodes_is_infra_error_or_recovery():
    import uuid

    import asyncpg

    from tb_env.backends.postgres import PostgresBackend, dsn_from_env

    app = f"tbenv_fault_{uuid.uuid4().hex[:8]}"
    base = dsn_from_env()
    dsn = base + ("&" if "?" in base else "?") + f"application_name={app}"

    async def main():
        backend = PostgresBackend(dsn=dsn, warm=2, pool_size=4)
        try:
            first = await run_episode("mini/deposit-001", tb_env.OraclePolicy(), backend=backend)
            await backend.drain()
            admin = await asyncpg.connect(base)
            killed = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1", app)
            await admin.close()
            later = [await run_episode("mini/deposit-001", tb_env.OraclePolicy(), backend=backend) for _ in range(3)]
            await backend.drain()
            return first, killed, later
        finally:
            await backend.aclose()

    first, killed, later = asyncio.run(main())
    assert first.reward == 1.0 and killed >= 2
    for r in later:  # never a raw driver exception, never a 0
        assert r.reward == 1.0 or (r.reward is None and r.infra_error.startswith("database")), (r.reward, r.infra_error)
