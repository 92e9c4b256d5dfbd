"""`tb-env eval`: every task k times, one results line per trial, resumable at any point.

The campaign runs (task, trial) pairs with bounded concurrency on one event loop. Each
finished trial is appended to the results file at once (see `tb_env.evaluation.results`), so an
interrupted campaign resumes by running only the missing pairs: nothing is lost and no
pair is written twice. Infrastructure failures are retried with backoff; a trial that
still fails is written with `infra_error` and `reward: null` and never counts as a
failure of the model.

Determinism: the seed of trial k of task t is derived from (campaign seed, t, k) and is
passed to the user simulator and the policy; the order of pairs is fixed by the seed.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import os
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel
from tqdm import tqdm

from tb_env.core.episode import EpisodeResult, run_episode
from tb_env.domain.registry import get_domain, get_task, list_tasks
from tb_env.domain.task import Task
from tb_env.errors import ConfigError
from tb_env.evaluation.pricing import cost_usd, load_prices, price_for
from tb_env.evaluation.results import ResultsWriter, Sampling, Trial, read_lines
from tb_env.parties.endpoint import make_client
from tb_env.parties.judge import Judge
from tb_env.parties.policy import CompletionsPolicy, NoisyOraclePolicy, OpenAIPolicy, OraclePolicy, Policy
from tb_env.parties.user import CachedUser, LLMUser, ScriptedUser, UserSimulator, user_anomalies
from tb_env.version import __version__

PolicyKind = Literal["chat", "completions", "oracle", "noisy-oracle"]


class EvalConfig(BaseModel):
    """Everything that defines a campaign (the CLI flags of `tb-env eval`)."""

    out: str
    policy: PolicyKind = "chat"
    model: str | None = None
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    user_model: str | None = None
    user_base_url: str | None = None
    domains: list[str] | None = None
    split: Literal["train", "test"] | None = "test"
    tasks_file: str | None = None
    trials: int = 20
    concurrency: int = 64
    seed: int = 0
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None
    max_turns: int = 50
    format: str = "hermes"
    tokenizer: str | None = None
    noise: float = 0.2
    retries: int = 3
    max_infra_errors: int | None = None
    max_cost_usd: float | None = None
    price_in: float | None = None
    price_out: float | None = None
    prices_file: str | None = None
    save_trajectories: str | None = None
    user_cache: str | None = None
    judge_model: str | None = None
    judge_base_url: str | None = None
    judge_cache: str | None = None
    ray: str | None = None  # Ray address ("auto", "ray://host:10001") to place env workers on
    ray_workers: int = 4
    packs: list[str] | None = None  # extra domain packs the Ray workers must register

    @property
    def model_name(self) -> str:
        if self.policy in ("oracle", "noisy-oracle"):
            return self.model or (self.policy if self.policy == "oracle" else f"noisy-oracle(p={self.noise})")
        if not self.model:
            raise ConfigError(f"--policy {self.policy} needs --model (the endpoint's model name).")
        return self.model


# --- what a campaign is: its tasks and its fingerprint -------------------------------------------


def select_tasks(cfg: EvalConfig) -> list[Task]:
    if cfg.tasks_file:
        path = Path(cfg.tasks_file)
        if not path.exists():
            raise ConfigError(f"--tasks {path}: no such file")
        ids = [line.split("#", 1)[0].strip() for line in path.read_text().splitlines()]
        tasks = [get_task(i) for i in ids if i]
        if cfg.domains:
            tasks = [t for t in tasks if t.domain in cfg.domains]
    else:
        names = cfg.domains or [None]
        tasks = [t for name in names for t in list_tasks(name, cfg.split)]
    if not tasks:
        raise ConfigError("No tasks selected: check --domains, --split and --tasks.")
    return tasks


def fingerprint(cfg: EvalConfig, tasks: list[Task]) -> dict[str, Any]:
    """What must not change between the runs of one campaign (resume refuses otherwise).

    Trials, concurrency, endpoints and spending caps may change: they do not change what
    a trial measures."""
    task_digest = hashlib.sha256()
    for t in sorted(tasks, key=lambda t: t.id):
        task_digest.update(t.model_dump_json(exclude={"source"}).encode())
    prompts = hashlib.sha256()
    for name in sorted({t.domain for t in tasks}):
        prompts.update(get_domain(name).policy.encode())
    return {
        "policy": cfg.policy,
        "model": cfg.model_name,
        "user_model": cfg.user_model,
        "seed": cfg.seed,
        "sampling": Sampling(temperature=cfg.temperature, top_p=cfg.top_p, max_tokens=cfg.max_tokens).model_dump(),
        "max_turns": cfg.max_turns,
        "format": cfg.format,
        "noise": cfg.noise if cfg.policy == "noisy-oracle" else None,
        "tokenizer": cfg.tokenizer,
        "judge_model": cfg.judge_model,
        "tasks": len(tasks),
        "task_set": task_digest.hexdigest()[:16],
        "policy_prompts": prompts.hexdigest()[:16],
    }


def config_hash(fp: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(fp, sort_keys=True).encode()).hexdigest()[:16]


def trial_seed(seed: int, task_id: str, trial: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed}:{task_id}:{trial}".encode()).digest()[:4], "big") & 0x7FFFFFFF


def schedule(tasks: list[Task], trials: int, seed: int) -> list[tuple[Task, int]]:
    """Trial-major order (every task once before any twice), tasks shuffled by the seed."""
    order = list(tasks)
    random.Random(seed).shuffle(order)
    return [(t, k) for k in range(trials) for t in order]


# --- building the pieces ------------------------------------------------------------------------


def build_policy(cfg: EvalConfig) -> Policy:
    api_key = os.environ.get(cfg.api_key_env)
    if cfg.policy == "oracle":
        return OraclePolicy(format=cfg.format)
    if cfg.policy == "noisy-oracle":
        return NoisyOraclePolicy(p=cfg.noise, seed=cfg.seed, format=cfg.format)
    if cfg.policy == "completions":
        if not cfg.tokenizer:
            raise ConfigError("--policy completions needs --tokenizer PATH (a local tokenizer with a chat template).")
        return CompletionsPolicy(
            cfg.model_name, cfg.tokenizer, base_url=cfg.base_url, api_key=api_key,
            temperature=cfg.temperature or 0.0, top_p=cfg.top_p, max_tokens=cfg.max_tokens or 2048,
        )
    return OpenAIPolicy(
        cfg.model_name, base_url=cfg.base_url, api_key=api_key,
        temperature=cfg.temperature or 0.0, top_p=cfg.top_p, max_tokens=cfg.max_tokens,
    )


@dataclass
class Stats:
    done: int = 0
    passed: int = 0
    graded: int = 0
    infra: int = 0
    spend: float = 0.0
    last_infra: str | None = None
    stop_reason: str | None = None
    unknown_price: bool = False
    infra_tasks: set[str] = field(default_factory=set)


class Campaign:
    def __init__(self, cfg: EvalConfig, progress: bool = True):
        self.cfg = cfg
        self.progress = progress
        self.tasks = select_tasks(cfg)
        self.fp = fingerprint(cfg, self.tasks)
        self.hash = config_hash(self.fp)
        self.out = Path(cfg.out)
        self.sidecar = self.out.with_name(self.out.name + ".config.json")
        self.stats = Stats()
        prices = load_prices(cfg.prices_file)
        self.price_in, self.price_out, known = price_for(cfg.model_name, cfg.price_in, cfg.price_out, prices)
        self.stats.unknown_price = not known
        self.policy = build_policy(cfg)
        self._user_client = None
        self.pool = None
        if cfg.ray:
            if cfg.judge_model:
                raise ConfigError("--judge-model is not supported with --ray yet: run rubric tasks without --ray.")
            from tb_env.serving.distributed import RayEnvPool

            user = None
            if cfg.user_model:
                user = {"model": cfg.user_model, "base_url": cfg.user_base_url or cfg.base_url,
                        "api_key": os.environ.get(cfg.api_key_env)}
            self.pool = RayEnvPool(cfg.ray_workers, address=None if cfg.ray == "local" else cfg.ray,
                                   packs=cfg.packs, user=user)
        self.judge = (
            Judge(
                cfg.judge_model, base_url=cfg.judge_base_url or cfg.base_url,
                api_key=os.environ.get(cfg.api_key_env), cache_path=cfg.judge_cache,
            )
            if cfg.judge_model
            else None
        )

    # -- resume -------------------------------------------------------------------------------
    def done_pairs(self) -> set[tuple[str, int]]:
        if not self.out.exists() or self.out.stat().st_size == 0:
            return set()
        lines = read_lines(self.out)
        hashes = {ln.get("config_hash") for ln in lines}
        if hashes - {self.hash}:
            raise ConfigError(self._mismatch_message(hashes - {self.hash}))
        return {(ln["task_id"], int(ln["trial"])) for ln in lines}

    def _mismatch_message(self, other: set[Any]) -> str:
        head = (
            f"{self.out} holds trials of a different campaign (config_hash {sorted(map(str, other))} "
            f"!= {self.hash}); refusing to mix them. Use another --out, or rerun with the original settings."
        )
        if self.sidecar.exists():
            old = json.loads(self.sidecar.read_text())
            diffs = [f"{k}: {old.get(k)!r} -> {self.fp.get(k)!r}" for k in sorted(set(old) | set(self.fp)) if old.get(k) != self.fp.get(k)]
            if diffs:
                head += " Differences: " + "; ".join(diffs) + "."
        return head

    # -- one trial ----------------------------------------------------------------------------
    def make_user(self) -> UserSimulator:
        if not self.cfg.user_model:
            return ScriptedUser()
        if self._user_client is None:
            self._user_client = make_client(
                self.cfg.user_base_url or self.cfg.base_url, os.environ.get(self.cfg.api_key_env), 120.0
            )
        user = LLMUser(model=self.cfg.user_model, client=self._user_client)
        return CachedUser(user, self.cfg.user_cache) if self.cfg.user_cache else user

    async def run_trial(self, task: Task, trial: int) -> tuple[Trial, EpisodeResult]:
        seed = trial_seed(self.cfg.seed, task.id, trial)
        started = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        attempts = 0
        while True:
            attempts += 1
            user = self.make_user()
            if self.pool is not None:
                result = await self.pool.run_episode(task, self.policy, seed, self.cfg.max_turns, self.cfg.format)
            else:
                result = await run_episode(
                    task, self.policy, user=user, seed=seed, max_turns=self.cfg.max_turns, format=self.cfg.format,
                    judge=self.judge,
                )
            anomalies = user_anomalies(task, result.messages, result.end_reason) if self.cfg.user_model else []
            if "stopped_before_agent_answered" in anomalies and not result.infra_error:
                # the simulator broke the task before the agent could act: not the agent's 0
                result.infra_error = "user_simulator: the simulated user ended the conversation before the agent answered"
                result.reward = None
            if not result.infra_error or attempts > self.cfg.retries:
                break
            await asyncio.sleep(min(0.5 * 2 ** (attempts - 1), 30.0))
        cost = cost_usd(result.usage.tokens_in, result.usage.tokens_out, self.price_in, self.price_out)
        check = result.check or {}
        record = Trial(
            task_id=task.id,
            domain=task.domain,
            split=task.split,
            trial=trial,
            reward=None if result.infra_error else result.reward,
            infra_error=result.infra_error,
            skipped=result.skipped,
            check={"state_match": check.get("state_match"), "failed": check.get("failed", [])} if check else None,
            turns=result.turns,
            tool_calls=result.tool_calls,
            parse_errors=result.parse_errors,
            tokens_in=result.usage.tokens_in,
            tokens_out=result.usage.tokens_out,
            cost_usd=round(cost, 8),
            latency_s=round(result.latency_s, 4),
            model=self.cfg.model_name,
            user_model=self.cfg.user_model,
            seed=seed,
            sampling=Sampling(temperature=self.cfg.temperature, top_p=self.cfg.top_p, max_tokens=self.cfg.max_tokens),
            config_hash=self.hash,
            tb_env_version=__version__,
            started_at=started,
            end_reason=result.end_reason,
            user_tokens_in=getattr(user, "tokens_in", 0),
            user_tokens_out=getattr(user, "tokens_out", 0),
            user_anomalies=anomalies,
            attempts=attempts,
        )
        return record, result

    def save_trajectory(self, record: Trial, result: EpisodeResult) -> None:
        folder = Path(self.cfg.save_trajectories or ".")
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{record.task_id.replace('/', '__')}__{record.trial}.json"
        tmp = path.with_suffix(".json.tmp")
        tmp.write_text(
            json.dumps(
                {"record": record.model_dump(mode="json"), "check": result.check, "messages": result.messages},
                ensure_ascii=False,
                indent=1,
                default=str,
            )
        )
        os.replace(tmp, path)

    # -- the campaign -------------------------------------------------------------------------
    async def run(self) -> Stats:
        done = self.done_pairs()
        todo = [(t, k) for t, k in schedule(self.tasks, self.cfg.trials, self.cfg.seed) if (t.id, k) not in done]
        if not self.sidecar.exists():
            self.sidecar.parent.mkdir(parents=True, exist_ok=True)
            self.sidecar.write_text(json.dumps(self.fp, indent=1, sort_keys=True))
        s = self.stats
        bar = tqdm(
            total=len(todo), desc=f"eval {self.cfg.model_name}", unit="trial", file=sys.stderr,
            disable=None if self.progress else True, dynamic_ncols=True,
        )
        sem = asyncio.Semaphore(max(1, self.cfg.concurrency))
        with ResultsWriter(self.out) as writer:

            async def one(task: Task, trial: int) -> None:
                async with sem:
                    if s.stop_reason:
                        return
                    record, result = await self.run_trial(task, trial)
                    writer.write(record)
                    if self.cfg.save_trajectories:
                        self.save_trajectory(record, result)
                s.done += 1
                s.spend += record.cost_usd
                if record.infra_error:
                    s.infra += 1
                    s.last_infra = record.infra_error
                    s.infra_tasks.add(record.task_id)
                elif record.reward is not None:
                    s.graded += 1
                    s.passed += record.reward == 1.0
                bar.update()
                bar.set_postfix(
                    pass_rate=f"{s.passed / s.graded:.3f}" if s.graded else "-", infra=s.infra, usd=f"{s.spend:.2f}"
                )
                if self.cfg.max_infra_errors is not None and s.infra > self.cfg.max_infra_errors and not s.stop_reason:
                    s.stop_reason = (
                        f"aborted: {s.infra} infrastructure errors (more than --max-infra-errors "
                        f"{self.cfg.max_infra_errors}); last: {s.last_infra}"
                    )
                if self.cfg.max_cost_usd is not None and s.spend >= self.cfg.max_cost_usd and not s.stop_reason:
                    s.stop_reason = f"stopped at the spending cap: ${s.spend:.2f} >= --max-cost-usd {self.cfg.max_cost_usd}"

            await asyncio.gather(*(one(t, k) for t, k in todo))
        bar.close()
        return s
