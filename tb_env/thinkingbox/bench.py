"""`tb-env bench --thinkingbox DIR`: faithfulness and speed of ThinkingBox-Bench in tb-env.

Faithfulness (`--faithfulness`): every task of the release is run twice through the env,
once by the oracle (the task's golden tool calls, sent as an agent would send them) and
once doing nothing (the agent ends the conversation at once). The oracle must pass every
task without rubrics; rubric tasks are skipped without a judge (their state check is
still counted); doing nothing must fail on every task whose golden calls change state
(a no-op that passes is a task that changes nothing, reported apart).

Speed: the same N oracle episodes, one after another, with a forked server per episode
(the fork server) and with a new server process per episode (what the reference harness
does), in the same run; episodes/s of each and the ratio.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from typing import Any

from tb_env.core.episode import EpisodeResult, run_episode
from tb_env.domain.registry import get_domain
from tb_env.parties.policy import OraclePolicy
from tb_env.thinkingbox.importer import Release, register_thinkingbox
from tb_env.thinkingbox.servers import ServerLauncher, close_forkservers, default_python


async def _run_all(tasks: list[Any], concurrency: int) -> list[EpisodeResult]:
    sem = asyncio.Semaphore(concurrency)
    policy = OraclePolicy()

    done = 0

    async def one(task: Any) -> EpisodeResult:
        nonlocal done
        async with sem:
            result = await run_episode(task, policy)
        done += 1
        if done % 100 == 0:
            print(f"  {done}/{len(tasks)} episodes", file=sys.stderr, flush=True)
        return result

    return list(await asyncio.gather(*(one(t) for t in tasks)))


async def faithfulness(release: Release, concurrency: int = 2) -> dict[str, Any]:
    tasks = [it.task for it in release.tasks]
    t0 = time.perf_counter()
    oracle = await _run_all(tasks, concurrency)
    noop = await _run_all([t.model_copy(update={"golden_actions": []}) for t in tasks], concurrency)
    wall = time.perf_counter() - t0
    rubric = {t.id for t in tasks if t.rubrics}
    out: dict[str, Any] = {
        "tasks": len(tasks),
        "rubric_tasks": len(rubric),
        "oracle_pass": sum(r.reward == 1.0 for r in oracle),
        "oracle_fail": [r.task_id for r in oracle if r.reward == 0.0],
        "oracle_infra": {r.task_id: r.infra_error for r in oracle if r.infra_error},
        "oracle_skipped_no_judge": sum(r.skipped == "no_judge" for r in oracle),
        "rubric_tasks_state_match": sum(bool(r.check and r.check["state_match"]) for r in oracle if r.task_id in rubric),
        "noop_fail": sum(bool(r.reward == 0.0 or (r.skipped and r.check and not r.check["state_match"])) for r in noop),
        "noop_pass_or_state_unchanged": [r.task_id for r in noop if r.check and r.check["state_match"]],
        "noop_infra": {r.task_id: r.infra_error for r in noop if r.infra_error},
        "episodes": 2 * len(tasks),
        "wall_s": round(wall, 1),
        "per_domain_oracle_pass": dict(Counter(r.task_id.split("/")[0] for r in oracle if r.reward == 1.0)),
    }
    return out


async def speed(release: Release, python: str, episodes: int) -> dict[str, Any]:
    """N oracle episodes with each server mode, interleaved task by task (fork, then
    spawn) so that both see the same machine load; fork-server start-up is timed apart."""
    by_domain: dict[str, list[Any]] = {}
    for it in release.tasks:
        by_domain.setdefault(it.task.domain, []).append(it.task)
    pick: list[Any] = []
    while len(pick) < episodes and any(by_domain.values()):  # round-robin over scenarios
        for lst in by_domain.values():
            if lst and len(pick) < episodes:
                pick.append(lst.pop(0))
    launchers = {mode: ServerLauncher(python=python, mode=mode) for mode in ("fork", "spawn")}
    domains = {t.domain: get_domain(t.domain) for t in pick}
    close_forkservers()
    t0 = time.perf_counter()
    for name in domains:  # start each scenario's fork server (a one-off cost, shown apart)
        await launchers["fork"].prepare(domains[name].server)  # type: ignore[attr-defined]
    out: dict[str, Any] = {"episodes": len(pick), "fork_server_start_s": round(time.perf_counter() - t0, 2)}
    walls = {"fork": 0.0, "spawn": 0.0}
    results: dict[str, list[EpisodeResult]] = {"fork": [], "spawn": []}
    policy = OraclePolicy()
    for task in pick:
        for mode in ("fork", "spawn"):
            domains[task.domain].launcher = launchers[mode]  # type: ignore[attr-defined]
            t = time.perf_counter()
            results[mode].append(await run_episode(task, policy))
            walls[mode] += time.perf_counter() - t
    for dom in domains.values():
        dom.launcher = launchers["fork"]  # type: ignore[attr-defined]
    for mode in ("fork", "spawn"):
        out[mode] = {
            "wall_s": round(walls[mode], 2),
            "episodes_per_s": round(len(pick) / walls[mode], 2),
            "ms_per_episode": round(1000 * walls[mode] / len(pick), 1),
            "passed": sum(r.reward == 1.0 for r in results[mode]),
            "infra_errors": sum(bool(r.infra_error) for r in results[mode]),
        }
    out["speedup"] = round(walls["spawn"] / walls["fork"], 1)
    return out


def main(data_dir: str, server_python: str | None = None, episodes: int = 40, check_all: bool = False,
         concurrency: int = 2, as_json: bool = False, out_path: str | None = None) -> int:
    python = server_python or default_python()
    release = register_thinkingbox(data_dir, python)
    report: dict[str, Any] = {"data_dir": str(release.data_dir), "server_python": python, "tasks": len(release.tasks)}

    async def run() -> None:
        try:
            if check_all:
                report["faithfulness"] = await faithfulness(release, concurrency)
            if episodes:
                report["speed"] = await speed(release, python, episodes)
        finally:
            close_forkservers()

    asyncio.run(run())
    text = json.dumps(report, indent=2)
    if out_path:
        with open(out_path, "w") as f:
            f.write(text + "\n")
    if as_json:
        print(text)
    else:
        print(render(report), end="")
    f = report.get("faithfulness")
    return 1 if f and (f["oracle_fail"] or f["oracle_infra"] or f["noop_infra"]) else 0


def render(report: dict[str, Any]) -> str:
    lines = [f"ThinkingBox-Bench: {report['tasks']} tasks from {report['data_dir']}"]
    f = report.get("faithfulness")
    if f:
        graded = f["tasks"] - f["rubric_tasks"]
        lines += [
            f"oracle: {f['oracle_pass']}/{graded} tasks without rubrics pass; {len(f['oracle_fail'])} fail, "
            f"{len(f['oracle_infra'])} infra errors; {f['oracle_skipped_no_judge']} rubric tasks skipped "
            f"(no judge), state matches on {f['rubric_tasks_state_match']} of them",
            f"no-op: fails on {f['noop_fail']}/{f['tasks']} tasks; leaves the golden state on "
            f"{len(f['noop_pass_or_state_unchanged'])} (tasks whose golden calls change nothing)",
            f"({f['episodes']} episodes in {f['wall_s']} s)",
        ]
        for tid in f["oracle_fail"][:10]:
            lines.append(f"  oracle FAIL {tid}")
    s = report.get("speed")
    if s:
        lines += [
            f"speed, {s['episodes']} oracle episodes one at a time:",
            f"  forked server per episode:  {s['fork']['episodes_per_s']:.2f} episodes/s "
            f"({s['fork']['ms_per_episode']} ms each; fork servers started once in {s['fork_server_start_s']} s)",
            f"  new process per episode:    {s['spawn']['episodes_per_s']:.2f} episodes/s "
            f"({s['spawn']['ms_per_episode']} ms each)",
            f"  speed-up: {s['speedup']}x",
        ]
    return "\n".join(lines) + "\n"
