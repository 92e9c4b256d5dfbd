"""No cross-talk: N concurrent episodes with random interleavings of random writes each
end in the state of their own sequential replay, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tb_env
from tb_env.backends import get_backend
from tb_env.core.episode import make_episode
from tb_env.parties.interpret import render_tool_call

from .pg import needs_postgres

ACCOUNTS = ["A-001", "A-002", "A-003"]
op = st.one_of(
    st.tuples(st.just("deposit"), st.sampled_from(ACCOUNTS), st.integers(1, 1200)),  # > 1000 is refused
    st.tuples(st.just("set_status"), st.sampled_from(ACCOUNTS), st.sampled_from(["open", "frozen", "closed"])),
    st.tuples(st.just("add_note"), st.sampled_from(ACCOUNTS), st.text(max_size=12)),
)
plans = st.lists(st.lists(op, min_size=1, max_size=6), min_size=2, max_size=6)


def action(o) -> str:
    name, account, value = o
    key = {"deposit": "amount", "set_status": "status", "add_note": "text"}[name]
    return render_tool_call(tb_env.ToolCall(name=name, arguments={"account_id": account, key: value}))


async def state(ep) -> dict:
    return {t: await ep.db.rows(f"SELECT * FROM {t} ORDER BY 1") for t in ("accounts", "notes", "audit_log")}


async def replay(plan, backend) -> dict:
    ep = make_episode("mini/deposit-001", backend=backend, max_turns=100)
    await ep.start()
    try:
        for o in plan:
            await ep.step(action(o))
        return await state(ep)
    finally:
        await ep.close()


async def interleaved(plans, order, batches, backend) -> list[dict]:
    eps = [make_episode("mini/deposit-001", backend=backend, max_turns=100) for _ in plans]
    await asyncio.gather(*(ep.start() for ep in eps))
    try:
        cursor = [0] * len(plans)
        pending = list(order)
        while pending:
            size = batches.pop(0) if batches else 1
            batch, rest = [], []
            for i in pending:  # a batch holds at most one step per episode, run concurrently
                (batch if len(batch) < size and i not in batch else rest).append(i)
            pending = rest

            async def one(i: int) -> None:
                o = plans[i][cursor[i]]
                cursor[i] += 1
                await asyncio.sleep(0)
                *_, info = await eps[i].step(action(o))
                assert info["infra_error"] is None

            done = await asyncio.gather(*(one(i) for i in batch), return_exceptions=True)
            for outcome in done:
                if isinstance(outcome, BaseException):
                    raise outcome
        return [await state(ep) for ep in eps]
    finally:
        await asyncio.gather(*(ep.close() for ep in eps))


@st.composite
def scenarios(draw):
    p = draw(plans)
    order = [i for i, plan in enumerate(p) for _ in plan]
    order = draw(st.permutations(order))
    batches = draw(st.lists(st.integers(1, len(p)), max_size=len(order)))
    return p, list(order), batches


def check(scenario, make_backend) -> None:
    p, order, batches = scenario

    async def main():
        backend = make_backend()
        try:
            together = await interleaved(p, order, list(batches), backend)
            alone = [await replay(plan, backend) for plan in p]
        finally:
            if hasattr(backend, "aclose"):  # in the loop that opened its pool
                await backend.drain()
                await backend.aclose()
        return together, alone

    together, alone = asyncio.run(main())
    for i, (t, a) in enumerate(zip(together, alone, strict=True)):
        assert t == a, f"episode {i} saw another episode's writes"


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenario=scenarios())
def test_interleaved_episodes_match_their_sequential_replays_on_sqlite(mini, scenario):
    check(scenario, lambda: get_backend("sqlite"))


@needs_postgres[0]
@needs_postgres[1]
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(scenario=scenarios())
def test_interleaved_episodes_match_their_sequential_replays_on_postgres(mini, scenario):
    from tb_env.backends.postgres import PostgresBackend

    check(scenario, lambda: PostgresBackend(warm=2, pool_size=8))
