"""Tool arguments carrying SQL injection, path traversal and format strings are plain
data: stored as given or refused, never executed; every other table is unchanged."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import tb_env
from tb_env.core.loop import run_sync
from tb_env.parties.interpret import render_tool_call

from .pg import needs_postgres

PAYLOADS = [
    "'; DROP TABLE accounts; --",
    "x' OR '1'='1",
    "F-001' --",
    "1; UPDATE accounts SET balance = 0",
    "Robert'); DELETE FROM memos; --",
    "\"; ATTACH DATABASE '/tmp/evil.db' AS e; --",
    "' UNION SELECT id, owner, balance FROM accounts --",
    "$1); DROP SCHEMA public CASCADE; --",
    ":text",
    "../../../../etc/passwd",
    "..\\..\\windows\\system32",
    "file:///etc/shadow",
    "%s%s%s%n%x",
    "{0.__class__.__mro__}",
    "{text}",
    "${jndi:ldap://127.0.0.1/a}",
    "\\x00\\u0000",
    "nul\x00byte",
]
payloads = st.one_of(
    st.sampled_from(PAYLOADS),
    st.lists(st.sampled_from(PAYLOADS) | st.text(max_size=8), min_size=1, max_size=4).map("".join),
    st.text(st.characters(exclude_categories=["Cs"]), max_size=60),
)


def call(name: str, **arguments) -> str:
    return render_tool_call(tb_env.ToolCall(name=name, arguments=arguments))


def snapshot(db, tables) -> dict[str, list]:
    async def read():
        return {t: sorted(map(repr, await db.rows(f"SELECT * FROM {t}"))) for t in tables}

    return run_sync(read())


class Bench:
    def __init__(self, backend):
        self.backend = backend
        self.env = tb_env.TBEnv(domain="faulty", backend=backend, max_turns=1000)
        self.examples = 0

    def fresh(self):
        if self.env.episode is None or self.env.episode.done or self.env.episode.turn > 40:
            self.env.reset(options={"task_id": "faulty/deposit-001"})
        return self.env.episode.db

    def close(self):
        self.env.close()
        if hasattr(self.backend, "aclose"):  # on the env's loop, which opened the pool
            run_sync(self.backend.drain())
            run_sync(self.backend.aclose())


def _store_and_find(bench: Bench, payload: str) -> None:
    bench.examples += 1
    db = bench.fresh()
    before = snapshot(db, ["accounts", "memos"])
    _, _, _, _, info = bench.env.step(call("add_memo", account_id="F-001", text=payload))
    if "\x00" in payload:  # refused alike on every backend (PostgreSQL cannot store it)
        assert info["infra_error"] is None and "NUL" in info["messages"][-1]["content"]
        assert snapshot(db, ["accounts", "memos"]) == before
        return
    stored = json.loads(info["messages"][-1]["content"])
    assert stored["text"] == payload  # stored as given
    after = snapshot(db, ["accounts", "memos"])
    assert after["accounts"] == before["accounts"], "a memo changed the accounts"
    added = sorted(set(after["memos"]) - set(before["memos"]))
    assert len(added) == 1 and len(after["memos"]) == len(before["memos"]) + 1
    _, _, _, _, info = bench.env.step(call("find_memos", text=payload))
    found = json.loads(info["messages"][-1]["content"])
    assert found and all(m["text"] == payload for m in found)
    assert snapshot(db, ["accounts", "memos"]) == after
    # as a key: refused as a missing record, nothing written
    _, _, _, _, info = bench.env.step(call("deposit", account_id=payload, amount=1))
    assert info["infra_error"] is None
    assert info["messages"][-1]["content"].startswith("Error: No account")
    assert snapshot(db, ["accounts", "memos"]) == after


@pytest.fixture(scope="module")
def sqlite_bench(faulty):
    bench = Bench("sqlite")
    yield bench
    bench.close()


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(payload=payloads)
@example(payload=PAYLOADS[0])
def test_hostile_arguments_are_data_on_sqlite(sqlite_bench, payload):
    _store_and_find(sqlite_bench, payload)


@pytest.fixture(scope="module")
def pg_bench(faulty):
    from tb_env.backends.postgres import PostgresBackend

    bench = Bench(PostgresBackend(warm=1, pool_size=4))  # a small pool of its own: the server is shared
    yield bench
    bench.close()


@needs_postgres[0]
@needs_postgres[1]
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(payload=payloads)
@example(payload="$1); DROP SCHEMA public CASCADE; --")
def test_hostile_arguments_are_data_on_postgres(pg_bench, payload):
    _store_and_find(pg_bench, payload)
