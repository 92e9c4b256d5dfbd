"""`RemoteEnv`: the `TBEnv` interface over a `tb-env serve` service.

Adapters and evaluation code written against `TBEnv` work unchanged against a remote
pool of environments: reset creates an episode on the server, step sends the action,
close deletes it. A failure of the network or the server is an infrastructure error:
a step that cannot reach the server ends the episode with `reward=None` and
`info["infra_error"]`, as a local infrastructure failure does.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

import gymnasium as gym

from tb_env.core.env import MAX_ACTION_CHARS, MAX_OBSERVATION_CHARS, UnicodeText
from tb_env.core.loop import run_sync
from tb_env.domain.registry import list_tasks
from tb_env.errors import ConfigError, InfraError, UnknownTaskError

# One HTTP client per (event loop, service): creating one costs ~20 ms of CPU (its TLS context),
# which would dominate an episode if every RemoteEnv made its own; sharing also pools connections
# (all kept alive: at high concurrency, reconnecting per request costs more than the request).
_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[Any, ...], Any]] = weakref.WeakKeyDictionary()


class RemoteError(InfraError):
    cause = "remote"


class RemoteEnv(gym.Env):
    metadata = {"render_modes": [], "render_fps": 1}

    def __init__(
        self,
        url: str,
        token: str | None = None,
        domain: str | None = "retail",
        split: str | None = None,
        task_ids: list[str] | None = None,
        max_turns: int = 50,
        backend: str = "sqlite",
        format: str = "hermes",
        timeout_s: float = 120.0,
    ):
        self.url = url.rstrip("/")
        self.token = token
        self.task_ids = task_ids or [t.id for t in list_tasks(domain, split)]
        if not self.task_ids:
            raise ConfigError(f"No tasks for domain={domain!r}, split={split!r}; pass task_ids=[...].")
        self.max_turns = max_turns
        self.backend = backend
        self.format = format
        self.timeout_s = timeout_s
        self.observation_space = UnicodeText(MAX_OBSERVATION_CHARS)
        self.action_space = UnicodeText(MAX_ACTION_CHARS)
        self.episode_id: str | None = None

    def _client(self) -> Any:
        import httpx2

        loop = asyncio.get_running_loop()
        clients = _clients.setdefault(loop, {})
        key = (self.url, self.token, self.timeout_s)
        client = clients.get(key)
        if client is None:
            headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
            client = clients[key] = httpx2.AsyncClient(
                base_url=self.url, headers=headers, timeout=self.timeout_s,
                limits=httpx2.Limits(max_connections=None, max_keepalive_connections=None),
            )
        return client

    async def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        import httpx2

        try:
            resp = await self._client().request(method, path, json=body)
        except httpx2.HTTPError as exc:
            raise RemoteError(f"{method} {path}: {type(exc).__name__}: {exc}") from exc
        if resp.status_code >= 500:
            raise RemoteError(f"{method} {path}: HTTP {resp.status_code}: {resp.text[:500]}")
        try:
            data = resp.json() if resp.content else None
        except ValueError as exc:  # a truncated or garbled body: the server or the network failed
            raise RemoteError(f"{method} {path}: HTTP {resp.status_code}: the body is not JSON ({exc})") from None
        return resp.status_code, data

    async def areset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        await self.aclose()
        options = options or {}
        task_id = options.get("task_id") or self.task_ids[int(self.np_random.integers(len(self.task_ids)))]
        body = {"task_id": task_id, "seed": int(self.np_random.integers(2**31 - 1)), "max_turns": self.max_turns,
                "backend": self.backend, "format": self.format}
        status, data = await self._call("POST", "/episodes", body)
        if status == 404:
            raise UnknownTaskError(task_id, data.get("detail", "") if isinstance(data, dict) else "")
        if status != 201:
            raise ConfigError(f"the service refused the episode (HTTP {status}): {data}")
        try:
            self.episode_id, obs, info = data["episode_id"], data["observation"], dict(data["info"])
        except (KeyError, TypeError, ValueError) as exc:
            raise RemoteError(f"POST /episodes: malformed answer ({type(exc).__name__}: {exc})") from None
        info["episode_id"] = self.episode_id
        return obs, info

    async def astep(self, action: str | dict[str, Any]) -> tuple[str, float | None, bool, bool, dict[str, Any]]:
        if self.episode_id is None:
            raise ConfigError("Call reset() before step().")
        try:
            status, data = await self._call("POST", f"/episodes/{self.episode_id}/step", {"action": action})
        except RemoteError as exc:
            return "", None, True, False, {"infra_error": f"{exc.cause}: {exc}", "end_reason": "infra_error"}
        if status == 409:
            from tb_env.core.episode import EpisodeEndedError

            raise EpisodeEndedError(data.get("detail", "the episode has ended"))
        if status != 200:
            raise ConfigError(f"step refused (HTTP {status}): {data}")
        try:
            return data["observation"], data["reward"], data["terminated"], data["truncated"], dict(data["info"])
        except (KeyError, TypeError, ValueError) as exc:
            infra = f"remote: POST /episodes/{{id}}/step: malformed answer ({type(exc).__name__}: {exc})"
            return "", None, True, False, {"infra_error": infra, "end_reason": "infra_error"}

    async def aclose(self) -> None:
        if self.episode_id is not None:
            eid, self.episode_id = self.episode_id, None
            try:
                await self._call("DELETE", f"/episodes/{eid}")
            except RemoteError:
                pass  # the server's idle reaper closes what we could not

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        return run_sync(self.areset(seed=seed, options=options))

    def step(self, action: str | dict[str, Any]) -> tuple[str, float | None, bool, bool, dict[str, Any]]:
        return run_sync(self.astep(action))

    def close(self) -> None:
        if self.episode_id is not None:
            run_sync(self.aclose())
