"""A PettingZoo AEC env: the dialogue as a two-agent game, both agents driven from outside.

`assistant` sees the domain policy, the tools and the conversation; it acts with model
text (tool calls run at once and it acts again; a plain message hands the turn to the
user). `user` sees its scenario and the conversation from the customer's side; it acts
with its reply (`###STOP###` ends the dialogue). The assistant's reward at the end is
the state check; the user's is 0, so a user-simulator policy can be trained or swapped
without touching the assistant's reward.

    from tb_env.core.pettingzoo import env
    aec = env(task_id="retail/ticket-close-open-exception-001")
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from tb_env.backends import get_backend
from tb_env.core.env import MAX_ACTION_CHARS, MAX_OBSERVATION_CHARS, UnicodeText
from tb_env.core.episode import DEFAULT_MAX_TURNS, Episode, checker_for, episode_class, render
from tb_env.core.loop import run_sync
from tb_env.domain.registry import get_domain, get_task, list_tasks
from tb_env.parties.user import ENV_NAME, user_system_prompt

ASSISTANT, USER = "assistant", "user"


class Utterance(str):
    """An observation: a plain `str` that also carries the numpy dtype of its `Text` space.

    PettingZoo's API test compares `observation.dtype` with the space's dtype, which a
    bare `str` does not have; text is the natural observation of a dialogue."""

    dtype = UnicodeText(1).dtype


class TBDialogueEnv(AECEnv):
    metadata = {"name": "tb_env_dialogue_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        task_id: str | None = None,
        domain: str | None = "retail",
        backend: str = "sqlite",
        max_turns: int = DEFAULT_MAX_TURNS,
        render_mode: str | None = None,
    ):
        super().__init__()
        self.tasks = [get_task(task_id)] if task_id else list_tasks(domain)
        self.backend = get_backend(backend)
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.possible_agents = [ASSISTANT, USER]
        self._obs_space = UnicodeText(MAX_OBSERVATION_CHARS)
        self._act_space = UnicodeText(MAX_ACTION_CHARS)
        self.episode: Episode | None = None

    def observation_space(self, agent: str) -> UnicodeText:
        return self._obs_space

    def action_space(self, agent: str) -> UnicodeText:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        import numpy as np

        rng = np.random.default_rng(seed)
        options = options or {}
        task = get_task(options["task_id"]) if options.get("task_id") else self.tasks[int(rng.integers(len(self.tasks)))]
        self._close_episode()
        domain = get_domain(task.domain)
        self.episode = episode_class(domain)(
            domain=domain,
            task=task,
            backend=self.backend,
            user=None,
            checker=checker_for(self.backend),
            max_turns=self.max_turns,
            seed=seed,
        )
        run_sync(self.episode.start())
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {"task_id": task.id} for a in self.agents}
        self.agent_selection = ASSISTANT

    def observe(self, agent: str) -> Utterance:
        ep = self.episode
        if ep is None:
            return Utterance("")
        if agent == ASSISTANT:
            return Utterance(render(ep.messages))
        lines = [user_system_prompt(ep.task)]
        for m in ep.messages[1:]:
            if m["role"] == "user" and m.get("name") != ENV_NAME:
                lines.append(f"you: {m['content']}")
            elif m["role"] == "assistant" and m.get("content"):
                lines.append(f"agent: {m['content']}")
        return Utterance("\n\n".join(lines))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        ep = self.episode
        assert ep is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if agent == ASSISTANT:
            _, reward, terminated, truncated, info = run_sync(ep.step(action if action is not None else ""))
            if terminated or truncated:
                self._finish(reward, terminated, truncated, info)
            elif ep.awaiting_user:
                self.agent_selection = USER
        else:
            reward, done, info = run_sync(ep.user_says(str(action or "")))
            if done:
                self._finish(reward, True, False, info)
            else:
                self.agent_selection = ASSISTANT
        self._accumulate_rewards()

    def _finish(self, reward: float | None, terminated: bool, truncated: bool, info: dict[str, Any]) -> None:
        self.rewards[ASSISTANT] = float(reward) if reward is not None else 0.0
        for a in self.agents:
            self.terminations[a] = terminated
            self.truncations[a] = truncated
            self.infos[a] = {
                "task_id": info["task_id"],
                "reward": reward,
                "check": info.get("check"),
                "infra_error": info.get("infra_error"),
                "end_reason": info.get("end_reason"),
            }

    def render(self) -> str | None:
        return render(self.episode.messages) if self.render_mode == "ansi" and self.episode else None

    def _close_episode(self) -> None:
        if self.episode is not None:
            ep, self.episode = self.episode, None
            run_sync(ep.close())

    def close(self) -> None:
        self._close_episode()


def env(**kwargs: Any) -> TBDialogueEnv:
    """The AEC env (PettingZoo's convention: `module.env(...)`)."""
    return TBDialogueEnv(**kwargs)
