"""`TBEnv`: the gymnasium face of an episode.

Observations and actions are text. An action is the model's raw completion (or an
OpenAI assistant message dict); the observation is the text of what came back (tool
results, or the user's reply), with the structured conversation in `info["messages"]`
and the OpenAI tool schemas in `info["tools"]`. The reward is 0 until the episode ends,
then the state check (1 or 0); it is `None` when the episode could not be graded
(`info["infra_error"]` or `info["skipped"]` say why).

The async methods (`areset`, `astep`, `aclose`) are the implementation; `reset`, `step`
and `close` run them on tb-env's private loop thread (see `tb_env.core.loop`).
"""

from __future__ import annotations

import string
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from tb_env.backends import Backend, get_backend
from tb_env.core.check import Judge
from tb_env.core.episode import DEFAULT_MAX_TURNS, Episode, checker_for, episode_class, render
from tb_env.core.loop import run_sync
from tb_env.domain.registry import get_domain, list_tasks
from tb_env.domain.task import Task
from tb_env.errors import ConfigError
from tb_env.parties.user import UserSimulator, make_user

MAX_ACTION_CHARS = 1 << 17
MAX_OBSERVATION_CHARS = 1 << 24
_SAMPLE_CHARSET = string.printable + "<>{}[]/\"'éü€中—"


class UnicodeText(spaces.Text):
    """A `Text` space over any Unicode string: model output is not alphanumeric.

    `sample()` draws from printable ASCII plus markup and a few non-ASCII characters,
    enough to exercise the parser; `contains()` accepts every string up to the length."""

    def __init__(self, max_length: int, seed: int | None = None):
        super().__init__(max_length=max_length, min_length=0, charset=_SAMPLE_CHARSET, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and len(x) <= self.max_length

    def sample(self, mask: Any = None, probability: Any = None) -> str:
        if mask is not None or probability is not None:
            return super().sample(mask=mask, probability=probability)
        length = int(self.np_random.integers(0, 200))  # short: a long random text only slows tests
        chars = self.np_random.choice(np.array(list(_SAMPLE_CHARSET)), size=length)
        return "".join(chars.tolist())


class TBEnv(gym.Env):
    """An episode of a tb-env domain: an agent, a simulated user, MCP tools, a database."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        domain: str | None = "retail",
        split: str | None = None,
        backend: str | Backend = "sqlite",
        user: str | UserSimulator = "scripted",
        max_turns: int = DEFAULT_MAX_TURNS,
        task_ids: list[str] | None = None,
        format: str = "hermes",
        judge: Judge | None = None,
        render_mode: str | None = None,
        tool_timeout_s: float = 30.0,
    ):
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if max_turns < 1:
            raise ConfigError(f"max_turns must be at least 1, got {max_turns}")
        self.render_mode = render_mode
        self.domain_name = domain
        if domain is not None:
            get_domain(domain)  # an unknown domain fails here, not at reset
        if task_ids is not None and domain is None:
            # only the domains the ids name: loading every registered domain can take long
            names = sorted({i.split("/", 1)[0] for i in task_ids if "/" in i})
            tasks = [t for name in names for t in list_tasks(name, split)]
        else:
            tasks = list_tasks(domain, split)
        if task_ids is not None:
            wanted = set(task_ids)
            tasks = [t for t in tasks if t.id in wanted]
            missing = wanted - {t.id for t in tasks}
            if missing:
                raise ConfigError(f"task_ids not found in domain={domain!r}, split={split!r}: {sorted(missing)}")
        if not tasks:
            raise ConfigError(f"No tasks for domain={domain!r}, split={split!r}.")
        self.tasks: list[Task] = tasks
        self._task_index = {t.id: t for t in tasks}
        self.split = split
        self.backend = get_backend(backend)
        self.user = make_user(user)
        self.max_turns = max_turns
        self.format = format
        self.judge = judge
        self.tool_timeout_s = tool_timeout_s
        self.observation_space = UnicodeText(MAX_OBSERVATION_CHARS)
        self.action_space = UnicodeText(MAX_ACTION_CHARS)
        self.episode: Episode | None = None

    # -- async core -------------------------------------------------------------------------
    async def areset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        options = options or {}
        task_id = options.get("task_id")
        if task_id is not None:
            task = self._task_index.get(task_id)
            if task is None:
                from tb_env.domain.registry import get_task

                task = get_task(task_id)  # a task outside the env's set is allowed if it exists
        else:
            task = self.tasks[int(self.np_random.integers(len(self.tasks)))]
        await self.aclose()
        ep_seed = int(self.np_random.integers(2**31 - 1))
        domain = get_domain(task.domain)
        self.episode = episode_class(domain)(
            domain=domain,
            task=task,
            backend=self.backend,
            user=self.user,
            checker=checker_for(self.backend, self.judge),
            max_turns=self.max_turns,
            seed=ep_seed,
            format=self.format,
            tool_timeout_s=self.tool_timeout_s,
        )
        return await self.episode.start()

    async def astep(self, action: str | dict[str, Any]) -> tuple[str, float | None, bool, bool, dict[str, Any]]:
        if self.episode is None:
            raise ConfigError("Call reset() before step().")
        return await self.episode.step(action)

    async def aclose(self) -> None:
        if self.episode is not None:
            ep, self.episode = self.episode, None
            await ep.close()

    # -- sync wrappers ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        return run_sync(self.areset(seed=seed, options=options))

    def step(self, action: str | dict[str, Any]) -> tuple[str, float | None, bool, bool, dict[str, Any]]:
        return run_sync(self.astep(action))

    def close(self) -> None:
        if self.episode is not None:
            run_sync(self.aclose())

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.episode is not None:
            return render(self.episode.messages)
        return None
