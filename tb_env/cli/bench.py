"""`tb-env bench`: what an episode costs, each figure beside a baseline from the same run.

For the retail domain: p50/p99 of `reset`, one tool call through the env (interpreter,
MCP, tool, transaction), the state check, and a whole oracle episode (reset + golden
calls + check). Baselines: a raw copy of the same template (`sqlite3` backup into a
fresh `:memory:` connection) and a direct Python call of the same tool function on
that copy. The aiosqlite driver is measured on the same tool call for comparison.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from mcp import Client

from tb_env.backends import get_backend
from tb_env.core.episode import checker_for, make_episode, run_episode
from tb_env.core.toolserver import tool_server
from tb_env.domain.database import SQLiteDatabase
from tb_env.domain.registry import get_domain, list_tasks
from tb_env.domain.task import Task, ToolCall
from tb_env.parties.interpret import render_tool_call
from tb_env.parties.policy import OraclePolicy, with_questions

BENCH_DOMAIN = "retail"


def _pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, int(q * len(s)))] * 1000.0


async def _time(fn: Callable[[], Awaitable[Any]], n: int, warmup: int = 20) -> list[float]:
    for _ in range(warmup):
        await fn()
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        await fn()
        out.append(time.perf_counter() - t0)
    return out


def _read_call(task: Task) -> ToolCall:
    """A read tool call from the task's golden path (the first one), to time one call."""
    domain = get_domain(task.domain)
    for call in task.golden_actions:
        if not domain.tools_by_name[call.name].writes:
            return call
    return task.golden_actions[0]


async def measure(samples: int = 300, domain_name: str = BENCH_DOMAIN) -> dict[str, Any]:
    domain = get_domain(domain_name)
    tasks = [t for t in list_tasks(domain_name) if t.golden_actions]
    task = max(tasks, key=lambda t: len(t.golden_actions))
    call = _read_call(task)
    backend = get_backend("sqlite")
    image = backend.image(domain, task)
    template = sqlite3.connect(":memory:", check_same_thread=False)
    template.deserialize(image)

    async def raw_copy() -> None:
        conn = sqlite3.connect(":memory:", isolation_level=None)
        template.backup(conn)
        conn.close()

    async def fresh_copy() -> None:
        # what a reset would cost without the connection pool: a new copy pays for parsing
        # the schema (tables, indexes, change-log triggers) on its first statement
        conn = backend.connect(domain, task)
        conn.execute("SELECT 1 FROM sqlite_master WHERE 0").fetchall()
        conn.close()

    # reset: a new episode on the same env set-up (private copy + MCP binding + messages)
    async def reset() -> None:
        ep = make_episode(task)
        await ep.start()
        await ep.close()

    ep = make_episode(task, max_turns=10**9)
    await ep.start()
    text = render_tool_call(call, "hermes")

    async def tool_call() -> None:
        await ep.step(text)

    db = SQLiteDatabase(backend.connect(domain, task), domain.metadata, domain.now)
    tool = domain.tools_by_name[call.name]

    async def direct_call() -> None:
        await tool.fn(db, **tool.validate(call.arguments))

    aio = make_episode(task, backend="aiosqlite", max_turns=10**9)
    await aio.start()

    async def aio_tool_call() -> None:
        await aio.step(text)

    server = tool_server(domain)

    async def mcp_session() -> None:
        # what binding episodes to one long-lived session saves: a session (and its
        # discovery round trip) per episode, as a server-per-episode design would pay
        async with Client(server.server, cache=None) as client:
            await client.list_tools()

    checker = checker_for(backend)
    final = await _final_db(task)

    async def check() -> None:
        await checker.check(domain, task, final, [])

    oracle = OraclePolicy()

    async def episode() -> None:
        result = await run_episode(task, oracle)
        assert result.reward == 1.0, result.check

    figures: dict[str, list[float]] = {}
    for name, fn in [
        ("raw_copy", raw_copy),
        ("fresh_copy", fresh_copy),
        ("reset", reset),
        ("direct_call", direct_call),
        ("tool_call", tool_call),
        ("aiosqlite_tool_call", aio_tool_call),
        ("mcp_session", mcp_session),
        ("check", check),
        ("episode", episode),
    ]:
        figures[name] = await _time(fn, samples)
    for e in (ep, aio):
        await e.close()
    await db.close()
    out: dict[str, Any] = {
        "domain": domain_name,
        "task_id": task.id,
        "golden_calls": len(task.golden_actions),
        "samples": samples,
    }
    for name, values in figures.items():
        out[f"{name}_ms_p50"] = round(_pct(values, 0.5), 4)
        out[f"{name}_ms_p99"] = round(_pct(values, 0.99), 4)
    out["reset_vs_raw_copy"] = round(out["reset_ms_p50"] / out["raw_copy_ms_p50"], 2)
    out["reset_vs_fresh_copy"] = round(out["reset_ms_p50"] / out["fresh_copy_ms_p50"], 2)
    out["tool_call_vs_direct_call"] = round(out["tool_call_ms_p50"] / out["direct_call_ms_p50"], 2)
    out["aiosqlite_vs_inline_tool_call"] = round(out["aiosqlite_tool_call_ms_p50"] / out["tool_call_ms_p50"], 2)
    out["episodes_per_s_serial"] = round(1000.0 / statistics.median(v * 1000 for v in figures["episode"]), 1)
    return out


async def _final_db(task: Task) -> SQLiteDatabase:
    """A database in the oracle's final state, to time the check on a passing episode."""
    from tb_env.core.check import replay

    domain = get_domain(task.domain)
    return await replay(domain, get_backend("sqlite"), task, task.golden_actions)  # type: ignore[return-value]


def main(as_json: bool = False, samples: int = 300) -> int:
    out = asyncio.run(measure(samples))
    if as_json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"tb-env bench: domain {out['domain']}, task {out['task_id']} ({out['golden_calls']} golden calls), "
          f"{samples} samples each\n")
    rows = [
        ("reset", "reset"),
        ("one tool call (env step, MCP)", "tool_call"),
        ("state check", "check"),
        ("oracle episode", "episode"),
        ("baseline: raw template copy", "raw_copy"),
        ("baseline: fresh copy, schema parsed", "fresh_copy"),
        ("baseline: direct tool call", "direct_call"),
        ("tool call on aiosqlite", "aiosqlite_tool_call"),
        ("new MCP session (not paid per episode)", "mcp_session"),
    ]
    print(f"{'':40}{'p50 ms':>10}{'p99 ms':>10}")
    for label, key in rows:
        print(f"{label:40}{out[key + '_ms_p50']:>10.3f}{out[key + '_ms_p99']:>10.3f}")
    print(f"\nreset / raw copy: {out['reset_vs_raw_copy']}x   reset / fresh copy: {out['reset_vs_fresh_copy']}x   tool call / direct call: "
          f"{out['tool_call_vs_direct_call']}x   aiosqlite / inline: {out['aiosqlite_vs_inline_tool_call']}x")
    print(f"oracle episodes per second (one at a time): {out['episodes_per_s_serial']}")
    return 0


# --- tb-env bench --scale ----------------------------------------------------------------------------


def _oracle_script(task: Task) -> list[str]:
    from tb_env.domain.tool import END_CONVERSATION

    # the questions the policy requires before a call (which address) are asked, as the oracle does
    steps = [s if isinstance(s, str) else render_tool_call(s, "hermes") for s in with_questions(task, list(task.golden_actions))]
    if task.golden_reply:
        steps.append(task.golden_reply)
    steps.append(render_tool_call(ToolCall(name=END_CONVERSATION), "hermes"))
    return steps


async def _level(tasks: list[Task], n: int, play: Callable[[Task, list[float]], Awaitable[float | None]],
                 total: int | None = None, cpu: bool = True) -> dict[str, Any]:
    """Oracle episodes, n at a time on this loop, at least one per task (so that every level
    runs the same task mix): throughput, step latency, rewards. `play` runs one episode."""
    lat: list[float] = []
    rewards: list[float | None] = []
    slots = asyncio.Semaphore(n)

    async def one(i: int) -> None:
        async with slots:
            rewards.append(await play(tasks[i % len(tasks)], lat))

    t0, c0 = time.perf_counter(), time.process_time()
    total = total or max(n, len(tasks))
    await asyncio.gather(*(one(i) for i in range(total)))
    wall, used = time.perf_counter() - t0, time.process_time() - c0
    out: dict[str, Any] = {"concurrency": n, "episodes": total, "episodes_per_s": round(total / wall, 1)}
    if cpu:
        # CPU seconds this process spent per episode: the ceiling of one core, whatever else
        # the machine is running while the wall-clock figure is taken
        out["cpu_ms_per_episode"] = round(1000 * used / total, 2)
    out.update({
        "step_ms_p50": round(_pct(lat, 0.5), 3),
        "step_ms_p99": round(_pct(lat, 0.99), 3),
        "all_rewards_1": all(r == 1.0 for r in rewards),
    })
    return out


async def _oracle_steps(step: Callable[[str], Awaitable[tuple[Any, ...]]], task: Task, lat: list[float]) -> float | None:
    """The task's golden script through `step`, each step timed into `lat`; the last reward."""
    reward = None
    for action in _oracle_script(task):
        t0 = time.perf_counter()
        _, reward, term, trunc, _ = await step(action)
        lat.append(time.perf_counter() - t0)
        if term or trunc:
            break
    return reward


async def _concurrent_local(tasks: list[Task], n: int, backend: str = "sqlite", total: int | None = None) -> dict[str, Any]:
    async def play(task: Task, lat: list[float]) -> float | None:
        ep = make_episode(task, backend=backend, max_turns=10**6)
        await ep.start()
        try:
            return await _oracle_steps(ep.step, task, lat)
        finally:
            await ep.close()

    return await _level(tasks, n, play, total)


async def _concurrent_remote(url: str, tasks: list[Task], n: int) -> dict[str, Any]:
    """As `_concurrent_local`, through `RemoteEnv` against a running `tb-env serve` (whose CPU
    is spent in another process, so none is reported)."""
    from tb_env.serving.remote import RemoteEnv

    async def play(task: Task, lat: list[float]) -> float | None:
        env = RemoteEnv(url, task_ids=[task.id], max_turns=10**3)
        await env.areset(options={"task_id": task.id})
        try:
            return await _oracle_steps(env.astep, task, lat)
        finally:
            await env.aclose()

    return await _level(tasks, n, play, cpu=False)


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def _idle_memory(task: Task, n: int) -> float:
    import gc

    gc.collect()
    before = _rss_mb()
    eps = [make_episode(task) for _ in range(n)]
    for ep in eps:
        await ep.start()
    gc.collect()
    per = (_rss_mb() - before) / n
    for ep in eps:
        await ep.close()
    return round(per, 3)


def _worker(ids: list[str], k: int, total: int, ready: Any, go: Any, out: Any) -> None:
    """One of several processes: warms up, waits for the others, then runs `total` oracle
    episodes k at a time and reports when it started and ended."""
    import tb_env.domain.registry as reg

    tasks = [reg.get_task(i) for i in ids]

    async def main() -> None:
        await _concurrent_local(tasks, 16)  # imports, templates, golden digests
        ready.put(1)
        go.wait()
        t0 = time.monotonic()  # one clock for all processes
        await _concurrent_local(tasks, k, total=total)
        out.put((t0, time.monotonic()))

    asyncio.run(main())


def _processes(ids: list[str], procs: int, k: int, total: int = 512) -> float:
    """Episodes/s of `procs` worker processes together, each warm before the clock starts."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    ready, out, go = ctx.Queue(), ctx.Queue(), ctx.Event()
    workers = [ctx.Process(target=_worker, args=(ids, k, total, ready, go, out)) for _ in range(procs)]
    for w in workers:
        w.start()
    try:
        for _ in workers:
            ready.get(timeout=600)
        go.set()
        spans = [out.get(timeout=1800) for _ in workers]
    finally:
        for w in workers:
            w.join(timeout=60)
            if w.is_alive():
                w.kill()
    wall = max(e for _, e in spans) - min(s for s, _ in spans)
    return round(procs * total / wall, 1)


async def _pg_transaction_isolation(state: Any, dp: Any, domain: Any, task: Task, dsn: str) -> dict[str, Any]:
    """The other candidate: one shared schema, each episode a transaction rolled back at its
    end. Its reset is timed, and then tested for isolation: a second episode of the same
    task (a GRPO group's sibling) writes the same rows and must wait for the first."""
    import asyncpg

    from tb_env.backends.postgres import PostgresDatabase, _apply_patch
    from tb_env.errors import TaskFileError

    shared = await state.new_slot(domain, dp)
    c1, c2 = await asyncpg.connect(dsn), await asyncpg.connect(dsn)
    try:
        dbs = []
        for c in (c1, c2):
            await c.execute(f"SET search_path TO {shared}")
            dbs.append(PostgresDatabase(c, shared, domain.metadata, domain.now, 0))
        ts = []
        for _ in range(30):
            t0 = time.perf_counter()
            tx = c1.transaction()
            await tx.start()
            await _apply_patch(dbs[0], domain, task)
            await tx.rollback()
            ts.append(time.perf_counter() - t0)
        first, second = c1.transaction(), c2.transaction()
        await first.start()
        await _apply_patch(dbs[0], domain, task)
        await second.start()
        await c2.execute("SET LOCAL lock_timeout = '200ms'")
        try:
            await _apply_patch(dbs[1], domain, task)
            blocked = False
        except TaskFileError as exc:
            if not isinstance(exc.__cause__, asyncpg.exceptions.LockNotAvailableError):
                raise
            blocked = True
        await second.rollback()
        await first.rollback()
    finally:
        await c1.close()
        await c2.close()
        await state.backend._discard(state, shared)
    return {"transaction_rollback_ms_p50": round(_pct(ts, 0.5), 2), "transaction_second_episode_blocked": blocked}


async def _pg_figures(tasks: list[Task], levels: list[int]) -> dict[str, Any]:
    import asyncpg

    from tb_env.backends.postgres import PostgresBackend, dsn_from_env

    out: dict[str, Any] = {}
    dsn = dsn_from_env()
    conn = await asyncpg.connect(dsn)
    max_conn = int(await conn.fetchval("SHOW max_connections"))
    domain = get_domain(tasks[0].domain)
    backend = PostgresBackend(warm=8, pool_size=max(8, min(max_conn - 10, 90)))
    db = await backend.open(domain, tasks[0])  # builds the template schema
    await backend.close(db)
    from tb_env.backends.postgres import template_name

    # the warm reset first: CREATE DATABASE forces checkpoints, whose writes would land on it
    state = await backend._state()
    dp = await state.domain_pool(domain)
    ts = []
    for _ in range(5):
        t0 = time.perf_counter()
        name = await state.new_slot(domain, dp)
        ts.append(time.perf_counter() - t0)
        await backend._discard(state, name)
    out["schema_copy_cold_ms"] = round(_pct(ts, 0.5), 1)
    await backend.drain()
    ts = []
    for _ in range(30):
        t0 = time.perf_counter()
        db = await backend.open(domain, tasks[0])
        ts.append(time.perf_counter() - t0)
        await backend.close(db)
        await backend.drain()
    out["reset_warm_pool_ms_p50"] = round(_pct(ts, 0.5), 2)
    out["reset_warm_pool_ms_p99"] = round(_pct(ts, 0.99), 2)
    out.update(await _pg_transaction_isolation(state, dp, domain, tasks[0], dsn))
    # baselines: a bare CREATE DATABASE, and copies of a template by both strategies
    tpl = template_name(domain)
    await conn.execute("DROP DATABASE IF EXISTS tbenv_bench_tpl")
    await conn.execute("CREATE DATABASE tbenv_bench_tpl")
    c2 = await asyncpg.connect(dsn.rsplit("/", 1)[0] + "/tbenv_bench_tpl")
    src = await asyncpg.connect(dsn)
    for table in domain.metadata.sorted_tables:
        from sqlalchemy.dialects import postgresql as pgd
        from sqlalchemy.schema import CreateTable

        await c2.execute(str(CreateTable(table).compile(dialect=pgd.dialect())))
        rows = await src.fetch(f"SELECT * FROM {tpl}.{table.name}")
        if rows:
            await c2.copy_records_to_table(table.name, records=[tuple(r) for r in rows])
    await c2.close()
    await src.close()
    for label, sql in [
        ("create_database_bare_ms", "CREATE DATABASE tbenv_bench_x"),
        ("create_database_template_wal_log_ms", "CREATE DATABASE tbenv_bench_x TEMPLATE tbenv_bench_tpl STRATEGY WAL_LOG"),
        ("create_database_template_file_copy_ms", "CREATE DATABASE tbenv_bench_x TEMPLATE tbenv_bench_tpl STRATEGY FILE_COPY"),
    ]:
        ts = []
        for _ in range(3):
            t0 = time.perf_counter()
            await conn.execute(sql)
            ts.append(time.perf_counter() - t0)
            await conn.execute("DROP DATABASE tbenv_bench_x")
        out[label] = round(_pct(ts, 0.5), 1)
    await conn.execute("DROP DATABASE IF EXISTS tbenv_bench_tpl")
    await conn.close()
    out["server_max_connections"] = max_conn
    out["levels"] = []
    from tb_env.backends import _shared

    _shared["postgres"] = backend
    for n in [*levels, backend.pool_size]:
        # the first burst of a size creates the schemas it lacks (golden digests too, at the
        # first level); the pool then keeps them: report the burst that finds them warm
        await _concurrent_local(tasks, n, backend="postgres")
        await backend.drain()
        out["levels"].append(await _concurrent_local(tasks, n, backend="postgres"))
        await backend.drain()
    await backend.aclose()
    _shared.pop("postgres", None)
    return out


def _serve(port: int) -> Any:
    import subprocess
    import sys

    import httpx2

    proc = subprocess.Popen([sys.executable, "-m", "tb_env.cli.commands", "serve", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            if httpx2.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return proc
        except httpx2.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("tb-env serve did not start")


def measure_scale(levels: list[int], pg: bool = True, service: bool = True,
                  save: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """All scale figures; `save` gets the figures so far after each phase, so a run cut short
    (a time-out, a PostgreSQL server gone) keeps what it measured."""
    import resource
    import socket
    import sys

    def phase(name: str) -> None:
        if save is not None:
            save(out)
        print(f"bench --scale: {name} ...", file=sys.stderr, flush=True)

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # thousands of sockets for the service run
    tasks = [t for t in list_tasks(BENCH_DOMAIN, "train") if t.golden_actions][:40]
    ids = [t.id for t in tasks]
    out: dict[str, Any] = {"domain": BENCH_DOMAIN, "tasks": len(tasks)}

    async def local() -> dict[str, Any]:
        await _concurrent_local(tasks, 8)  # warm-up: templates, golden digests, MCP session
        # memory first: after the big levels, freed arenas would hide what new episodes take
        idle_mb = await _idle_memory(tasks[0], 500)
        res = {"levels": [await _concurrent_local(tasks, n) for n in levels]}
        image = get_backend("sqlite").image(get_domain(BENCH_DOMAIN), tasks[0])
        template = sqlite3.connect(":memory:")
        template.deserialize(image)
        ts = []
        for _ in range(200):
            t0 = time.perf_counter()
            c = sqlite3.connect(":memory:")
            template.backup(c)
            c.close()
            ts.append(time.perf_counter() - t0)
        res["raw_copy_ms_p50"] = round(_pct(ts, 0.5), 4)
        res["idle_episode_mb"] = idle_mb
        return res

    phase("SQLite in-process")
    out["sqlite_inprocess"] = asyncio.run(local())
    phase("SQLite, two processes")
    out["sqlite_inprocess"]["two_processes_episodes_per_s"] = _processes(ids, 2, 64)
    if service:
        phase("env service over loopback")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        proc = _serve(port)
        try:
            url = f"http://127.0.0.1:{port}"
            asyncio.run(_concurrent_remote(url, tasks, 8))
            out["service_loopback"] = {"levels": [asyncio.run(_concurrent_remote(url, tasks, n)) for n in levels]}
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        one_local = out["sqlite_inprocess"]["levels"][0]["step_ms_p50"]
        one_remote = out["service_loopback"]["levels"][0]["step_ms_p50"]
        out["service_loopback"]["step_overhead_ms_at_1"] = round(one_remote - one_local, 3)
    if pg:
        phase("PostgreSQL")
        try:
            out["postgres"] = asyncio.run(_pg_figures(tasks, [n for n in levels if n <= 64]))
        except (OSError, ImportError) as exc:
            out["postgres"] = {"skipped": f"no PostgreSQL: {exc}"}
    phase("done")
    return out


def _level_row(lv: dict[str, Any]) -> str:
    cpu = lv.get("cpu_ms_per_episode", "-")  # the service's CPU is in another process
    return (f"  {lv['concurrency']:>10}{lv['episodes_per_s']:>12}{cpu!s:>11}{lv['step_ms_p50']:>13}"
            f"{lv['step_ms_p99']:>13}{lv['all_rewards_1']!s:>12}")


def main_scale(as_json: bool = False, levels: list[int] | None = None, out_path: str | None = None,
               pg: bool = True, service: bool = True) -> int:
    def save(partial: dict[str, Any]) -> None:
        if out_path:
            tmp = f"{out_path}.tmp"
            with open(tmp, "w") as f:
                json.dump(partial, f, indent=2)
            os.replace(tmp, out_path)

    out = measure_scale(levels or [1, 64, 512, 2048], pg=pg, service=service, save=save)
    text = json.dumps(out, indent=2)
    if as_json:
        print(text)
        return 0
    print(f"tb-env bench --scale: domain {out['domain']}, {out['tasks']} oracle tasks cycling\n")
    for face in ("sqlite_inprocess", "service_loopback"):
        if face not in out:
            continue
        print(f"{face}:")
        print(f"  {'concurrent':>10}{'episodes/s':>12}{'CPU ms/ep':>11}{'step p50 ms':>13}{'step p99 ms':>13}{'rewards ok':>12}")
        for lv in out[face]["levels"]:
            print(_level_row(lv))
    s = out["sqlite_inprocess"]
    print(f"\nSQLite: two processes {s['two_processes_episodes_per_s']} episodes/s; idle episode {s['idle_episode_mb']} MB; "
          f"baseline raw template copy {s['raw_copy_ms_p50']} ms")
    if "service_loopback" in out:
        print(f"service: step overhead at concurrency 1: {out['service_loopback']['step_overhead_ms_at_1']} ms above in-process")
    pgo = out.get("postgres", {})
    if "skipped" in pgo:
        print(f"PostgreSQL: {pgo['skipped']}")
    elif pgo:
        print("PostgreSQL:")
        print(f"  reset from the warm pool: p50 {pgo['reset_warm_pool_ms_p50']} ms, p99 {pgo['reset_warm_pool_ms_p99']} ms")
        print(f"  cold schema copy {pgo['schema_copy_cold_ms']} ms; CREATE DATABASE bare {pgo['create_database_bare_ms']} ms, "
              f"TEMPLATE WAL_LOG {pgo['create_database_template_wal_log_ms']} ms, FILE_COPY {pgo['create_database_template_file_copy_ms']} ms")
        print(f"  transaction per episode on one shared schema: reset p50 {pgo['transaction_rollback_ms_p50']} ms, but "
              + ("a second episode of the same task waited on the first's locks: not isolated"
                 if pgo["transaction_second_episode_blocked"] else "a second episode of the same task did not wait"))
        for lv in pgo["levels"]:
            print(_level_row(lv))
    return 0


def main_prompt(as_json: bool = False, tokenizer: str | None = None) -> int:
    """Each built-in domain's opening prompt (policy, tool list, its longest first
    message), against the same prompt with the schemas pydantic writes (the baseline)."""
    from tb_env.domain.registry import list_domains
    from tb_env.training.budget import TokenCounter, measure

    count = TokenCounter(tokenizer)
    sizes = []
    for name in list_domains():
        first = max((t.user.first_message for t in list_tasks(domain=name)), key=len, default="")
        sizes.append(measure(get_domain(name), count, first))
    if as_json:
        print(json.dumps({"unit": count.unit, "domains": [s.to_dict() for s in sizes]}, indent=2))
        return 0
    print(f"opening prompt per domain, in {count.unit}: policy + tool schemas + the longest first message")
    print(f"{'domain':<16}{'verbose schemas':>16}{'published':>11}{'saved':>8}{'chars':>9}")
    for s in sizes:
        print(f"{s.domain:<16}{s.verbose_tokens:>16}{s.tokens:>11}{1 - s.tokens / s.verbose_tokens:>8.1%}{s.chars:>9}")
    return 0
