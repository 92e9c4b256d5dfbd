"""Episodes never see each other's writes, even hundreds at once on one loop."""

from __future__ import annotations

import asyncio
import json

import tb_env
from tb_env.core.episode import make_episode
from tb_env.core.toolserver import tool_server
from tb_env.parties.interpret import render_tool_call

N = 500


def _deposit(account: str, amount: float) -> str:
    return render_tool_call(tb_env.ToolCall(name="deposit", arguments={"account_id": account, "amount": amount}))


def test_500_concurrent_writing_episodes_are_isolated_and_in_flight_together(mini):
    server = tool_server(mini)
    task = tb_env.get_task("mini/deposit-001")
    in_flight = 0
    peak = 0
    ids: list[str] = []

    async def one(i: int) -> tuple[float, float | None, float]:
        nonlocal in_flight, peak
        ep = make_episode(task)
        await ep.start()
        ids.append(ep.id)
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            amount = float(1 + i % 7)
            # every episode writes the same row by a different amount, twice, yielding between
            obs, *_ = await ep.step(_deposit("A-001", amount))
            await asyncio.sleep(0)
            obs, *_ = await ep.step(_deposit("A-001", amount))
            balance = json.loads(obs.split(": ", 1)[1])["balance"]
            # the oracle's deposit after two private ones: the state check must say 0 for all
            await ep.step(_deposit("A-001", 100))
            _, reward, *_ = await ep.step("Done, 350.")  # the customer thinks it is done and leaves
            return amount, reward, balance
        finally:
            in_flight -= 1
            await ep.close()

    async def main() -> list[tuple[float, float | None, float]]:
        return await asyncio.gather(*(one(i) for i in range(N)))

    results = asyncio.run(main())
    assert len(results) == N
    for amount, reward, balance in results:
        assert balance == 250 + 2 * amount  # its own two writes and nobody else's
        assert reward == 0.0  # its state (350 + 2*amount) is not the golden 350
    assert peak >= N // 2, f"only {peak} episodes were in flight at once: something serialises them"
    assert len(set(ids)) == N
    assert not set(ids) & set(server.bindings), "episodes left bound after close"


def test_concurrent_oracle_and_wrong_episodes_get_their_own_rewards(mini):
    task = tb_env.get_task("mini/deposit-001")
    from tb_env.kit.validate import WrongPathPolicy

    async def main() -> list[float | None]:
        policies = [tb_env.OraclePolicy() if i % 2 == 0 else WrongPathPolicy(task.wrong_paths[i % 3]) for i in range(N)]
        results = await asyncio.gather(*(tb_env.run_episode(task, p) for p in policies))
        return [r.reward for r in results]

    rewards = asyncio.run(main())
    assert rewards == [1.0 if i % 2 == 0 else 0.0 for i in range(N)]
