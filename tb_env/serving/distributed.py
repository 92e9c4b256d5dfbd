"""`RayEnvPool`: env workers as Ray actors, for episodes beyond one process or machine.

Ray is the engine verl and SkyRL already run on, so tb-env places its env workers
there instead of shipping a cluster manager. Each worker is an async actor holding many
episodes (the async core, in-process MCP and SQLite, or PostgreSQL); an episode lives on
one worker, chosen least-loaded (or round-robin). A worker that dies is replaced, and
the episodes it held end as infrastructure errors (`info["infra_error"] = "ray: ..."`),
which evaluation reports apart and the GRPO helpers re-run, never a reward of 0.

    pool = RayEnvPool(num_workers=8)                 # ray.init() if not connected
    env = pool.env()                                  # the TBEnv async interface
    result = await pool.run_episode(task, policy)     # or a whole episode
"""

from __future__ import annotations

import itertools
import secrets
from typing import Any

from tb_env.core.env import MAX_ACTION_CHARS, MAX_OBSERVATION_CHARS, UnicodeText
from tb_env.core.episode import DEFAULT_MAX_TURNS, EpisodeResult, drive
from tb_env.domain.task import Task
from tb_env.errors import ConfigError, InfraError
from tb_env.parties.policy import Policy


class RayWorkerError(InfraError):
    cause = "ray"


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ConfigError("RayEnvPool needs Ray: pip install 'tb-env[ray]'") from None
    return ray


class EnvWorker:
    """A Ray actor (async): many episodes at once, each addressed by a key."""

    def __init__(self, backend: str = "sqlite", packs: list[str] | None = None, user: dict[str, Any] | None = None):
        from tb_env.domain.registry import register_domain

        for p in packs or []:
            register_domain(p, replace=True)
        self.backend = backend
        self.user_spec = user
        self.episodes: dict[str, Any] = {}

    def _user(self) -> Any:
        from tb_env.parties.user import LLMUser, ScriptedUser

        return LLMUser(**self.user_spec) if self.user_spec else ScriptedUser()

    async def reset(self, key: str, task_id: str, seed: int | None, max_turns: int, format: str) -> tuple[str, dict[str, Any]]:
        from tb_env.backends import get_backend
        from tb_env.core.episode import checker_for, episode_class
        from tb_env.domain.registry import get_domain, get_task

        task = get_task(task_id)
        backend = get_backend(self.backend)
        domain = get_domain(task.domain)
        ep = episode_class(domain)(domain=domain, task=task, backend=backend, user=self._user(),
                     checker=checker_for(backend), max_turns=max_turns, seed=seed, format=format)
        self.episodes[key] = ep
        return await ep.start()

    async def step(self, key: str, action: Any) -> tuple[str, float | None, bool, bool, dict[str, Any]]:
        return await self.episodes[key].step(action)

    async def close(self, key: str) -> None:
        ep = self.episodes.pop(key, None)
        if ep is not None:
            await ep.close()

    def load(self) -> int:
        return len(self.episodes)

    def pid(self) -> int:
        import os

        return os.getpid()


class RayEnv:
    """The TBEnv async interface for one episode at a time, placed on a pool worker."""

    def __init__(self, pool: RayEnvPool, max_turns: int = DEFAULT_MAX_TURNS, format: str = "hermes"):
        self.pool = pool
        self.max_turns = max_turns
        self.format = format
        self.observation_space = UnicodeText(MAX_OBSERVATION_CHARS)
        self.action_space = UnicodeText(MAX_ACTION_CHARS)
        self.slot: int | None = None
        self.key: str | None = None

    async def _call(self, method: str, *args: Any) -> Any:
        ray = _ray()
        assert self.slot is not None
        worker = self.pool.workers[self.slot]
        try:
            return await getattr(worker, method).remote(*args)
        except (ray.exceptions.RayActorError, ray.exceptions.WorkerCrashedError, ray.exceptions.ActorDiedError) as exc:
            self.pool.replace(self.slot, worker)
            raise RayWorkerError(f"env worker died: {type(exc).__name__}") from exc

    async def areset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        await self.aclose()
        task_id = (options or {}).get("task_id")
        if not task_id:
            raise ConfigError("RayEnv.areset needs options={'task_id': ...}")
        self.slot = self.pool.place()
        self.key = secrets.token_hex(8)
        self.pool.inflight[self.slot] += 1
        return await self._call("reset", self.key, task_id, seed, self.max_turns, self.format)

    async def astep(self, action: Any) -> tuple[str, float | None, bool, bool, dict[str, Any]]:
        if self.key is None:
            raise ConfigError("Call areset() before astep().")
        try:
            return await self._call("step", self.key, action)
        except RayWorkerError as exc:
            return "", None, True, False, {"infra_error": f"{exc.cause}: {exc}", "end_reason": "infra_error"}

    async def aclose(self) -> None:
        if self.key is not None and self.slot is not None:
            key, slot, self.key = self.key, self.slot, None
            self.pool.inflight[slot] = max(0, self.pool.inflight[slot] - 1)
            try:
                await self._call("close", key)
            except RayWorkerError:
                pass


class RayEnvPool:
    def __init__(
        self,
        num_workers: int = 2,
        backend: str = "sqlite",
        address: str | None = None,
        placement: str = "least_loaded",
        packs: list[str] | None = None,
        user: dict[str, Any] | None = None,
        max_concurrency: int = 2048,
        num_cpus: float = 0.25,  # env workers wait on I/O mostly; a small claim fits small clusters
    ):
        if placement not in ("least_loaded", "round_robin"):
            raise ConfigError("placement must be 'least_loaded' or 'round_robin'")
        ray = _ray()
        if not ray.is_initialized():
            ray.init(address=address, ignore_reinit_error=True, include_dashboard=False, log_to_driver=False)
        self._actor = ray.remote(EnvWorker).options(max_concurrency=max_concurrency, num_cpus=num_cpus)
        self._args = (backend, packs, user)
        self.placement = placement
        self.workers = [self._actor.remote(*self._args) for _ in range(num_workers)]
        self.inflight = [0] * num_workers
        self.replaced = 0
        self._rr = itertools.count()

    def place(self) -> int:
        if self.placement == "round_robin":
            return next(self._rr) % len(self.workers)
        return min(range(len(self.workers)), key=lambda i: self.inflight[i])

    def replace(self, slot: int, dead: Any) -> None:
        """Start a new worker in a dead one's place (once, however many episodes noticed)."""
        if self.workers[slot] is dead:
            self.workers[slot] = self._actor.remote(*self._args)
            self.inflight[slot] = 0
            self.replaced += 1

    def env(self, max_turns: int = DEFAULT_MAX_TURNS, format: str = "hermes") -> RayEnv:
        return RayEnv(self, max_turns, format)

    async def run_episode(
        self, task: Task, policy: Policy, seed: int | None = None, max_turns: int = DEFAULT_MAX_TURNS, format: str = "hermes"
    ) -> EpisodeResult:
        return await drive(self.env(max_turns, format), task, policy, seed)

    def shutdown(self) -> None:
        ray = _ray()
        for w in self.workers:
            ray.kill(w)
        self.workers = []
