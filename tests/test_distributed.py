"""RayEnvPool on a local Ray instance: placement, and a worker killed mid-episode."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import tb_env
from tb_env.parties.interpret import render_tool_call

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'tb-env[ray]')")
MINI = str(Path(__file__).resolve().parent / "packs" / "mini")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def pool():
    from tb_env.serving.distributed import RayEnvPool

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    p = RayEnvPool(num_workers=2, packs=[MINI], num_cpus=0.5)
    yield p
    p.shutdown()
    ray.shutdown()


def test_episodes_run_on_both_workers_with_correct_rewards(pool, mini):
    task = tb_env.get_task("mini/deposit-001")
    from tb_env.kit.validate import WrongPathPolicy

    async def main():
        policies = [tb_env.OraclePolicy() if i % 2 == 0 else WrongPathPolicy(task.wrong_paths[0]) for i in range(20)]
        return await asyncio.gather(*(pool.run_episode(task, p, seed=i) for i, p in enumerate(policies)))

    results = asyncio.run(main())
    assert [r.reward for r in results] == [1.0, 0.0] * 10
    assert all(r.infra_error is None and r.turns >= 2 for r in results)
    pids = {ray.get(w.pid.remote()) for w in pool.workers}
    assert len(pids) == 2


def test_a_killed_worker_ends_its_episode_as_an_infra_error_and_is_replaced(pool, mini):
    deposit = render_tool_call(tb_env.ToolCall(name="deposit", arguments={"account_id": "A-001", "amount": 100}))

    async def main():
        env = pool.env()
        await env.areset(options={"task_id": "mini/deposit-001"})
        await env.astep(deposit)
        victim = pool.workers[env.slot]
        ray.kill(victim, no_restart=True)
        for _ in range(200):  # ray.kill is asynchronous: wait until the actor is really gone
            try:
                await victim.load.remote()
            except ray.exceptions.RayActorError:
                break
            await asyncio.sleep(0.05)
        out = await env.astep("Your balance is 350.")
        await env.aclose()
        again = await pool.run_episode(tb_env.get_task("mini/deposit-001"), tb_env.OraclePolicy())
        return out, again

    before = pool.replaced
    (_, reward, term, _, info), again = asyncio.run(main())
    assert term and reward is None and info["infra_error"].startswith("ray: env worker died")
    assert pool.replaced == before + 1
    assert again.reward == 1.0


def test_eval_campaign_runs_on_ray(tmp_path, pool, mini):
    from tb_env.evaluation.campaign import Campaign, EvalConfig
    from tb_env.evaluation.results import read_lines

    ids = tmp_path / "ids.txt"
    ids.write_text("mini/deposit-001\nmini/refuse-close-001\n")
    cfg = EvalConfig(out=str(tmp_path / "r.jsonl"), policy="oracle", tasks_file=str(ids), trials=3, ray="local",
                     ray_workers=2, packs=[MINI])
    asyncio.run(Campaign(cfg, progress=False).run())
    lines = read_lines(cfg.out)
    assert len(lines) == 6 and all(ln["reward"] == 1.0 for ln in lines)
