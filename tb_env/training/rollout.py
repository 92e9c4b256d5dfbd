"""Token-in/token-out episodes for training: what every trainer adapter runs.

`rollout` plays one episode with a `generate(prompt_ids, sampling) -> (token_ids,
logprobs)` coroutine. The context is built incrementally: the model's own tokens are
kept exactly as generated (never decoded and re-encoded), and each environment turn
(tool results, the user's reply) is appended as the tokens the chat template gives for
those messages alone. Training therefore scores the very tokens the policy produced,
and `env_mask` marks which are the model's (1) and which the environment's (0).

How environment tokens are found, and why evaluation sees the same context:
`tb_env.parties.chat`.

Context limits are first-class: `max_tokens_per_turn` caps each generation and
`max_total_tokens` the whole episode. An episode that reaches either ends `truncated`,
keeps its tokens and is graded on its final state, like a `max_turns` truncation; it is
counted in `metrics`, never reported as an infrastructure error.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from tb_env.backends import Backend
from tb_env.core.check import Judge
from tb_env.core.episode import DEFAULT_MAX_TURNS, make_episode
from tb_env.domain.registry import get_task
from tb_env.domain.task import Task
from tb_env.errors import InfraError
from tb_env.parties.chat import ChatTokens
from tb_env.parties.user import UserSimulator

Generate = Callable[[list[int], dict[str, Any]], Awaitable[tuple[list[int], list[float] | None]]]

@dataclass
class RolloutResult:
    task_id: str
    prompt_ids: list[int]
    completion_ids: list[int]
    logprobs: list[float]
    env_mask: list[int]
    reward: float | None
    infra_error: str | None
    num_turns: int
    truncated: bool
    metrics: dict[str, Any] = field(default_factory=dict)
    messages: list[dict[str, Any]] = field(default_factory=list)
    untrained: bool = False  # scored and logged, but none of its tokens is trained (a hopeless group)


async def rollout(
    task: str | Task,
    generate: Generate,
    tokenizer: Any,
    *,
    sampling: dict[str, Any] | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_tokens_per_turn: int = 2048,
    max_total_tokens: int = 32768,
    user: str | UserSimulator = "scripted",
    backend: str | Backend = "sqlite",
    format: str = "hermes",
    seed: int | None = None,
    judge: Judge | None = None,
) -> RolloutResult:
    """One episode, token in / token out (see the module docstring)."""
    task = get_task(task) if isinstance(task, str) else task
    ep = make_episode(task, user=user, backend=backend, max_turns=max_turns, seed=seed, judge=judge, format=format)
    sampling = dict(sampling or {})
    prompt_ids: list[int] = []
    completion: list[int] = []
    logprobs: list[float] = []
    mask: list[int] = []
    truncated_by: str | None = None
    reward: float | None = None
    info: dict[str, Any] = {}
    try:
        try:
            _, info = await ep.start()
            chat = ChatTokens(tokenizer, ep.tools)
            prompt_ids = chat.prompt(ep.messages)
            while True:
                room = max_total_tokens - len(prompt_ids) - len(completion)
                if room <= 0:
                    truncated_by = "max_total_tokens"
                    break
                cap = min(max_tokens_per_turn, room)
                ids, lps = await generate(prompt_ids + completion, {**sampling, "max_tokens": cap})
                ids = list(ids)
                completion += ids
                logprobs += list(lps) if lps is not None else [0.0] * len(ids)
                mask += [1] * len(ids)
                ended_turn = bool(ids) and ids[-1] in chat.eos_ids
                before = len(ep.messages)
                _, reward, terminated, truncated, info = await ep.step(chat.decode(ids))
                if terminated or truncated:
                    break
                if not ended_turn and len(ids) >= cap:  # the turn hit its token cap mid-sentence
                    truncated_by = "max_tokens_per_turn"
                    break
                # a server that strips the end-of-turn token: the environment closes the turn
                close = [] if ended_turn else [chat.eos_id]
                env_ids = close + chat.turn_suffix + chat.env_turn(ep.messages[before + 1 :])
                completion += env_ids
                logprobs += [0.0] * len(env_ids)
                mask += [0] * len(env_ids)
            if truncated_by is not None:
                reward, info = await ep.truncate(truncated_by)
        except InfraError as exc:
            ep.infra_error = f"{exc.cause}: {exc}"
            reward = None
    finally:
        await ep.close()
    if ep.infra_error:
        reward = None
    return RolloutResult(
        task_id=task.id,
        prompt_ids=prompt_ids,
        completion_ids=completion,
        logprobs=logprobs,
        env_mask=mask,
        reward=reward,
        infra_error=ep.infra_error,
        num_turns=ep.turn,
        truncated=truncated_by is not None or ep.end_reason == "max_turns",
        metrics={
            "end_reason": ep.end_reason,
            "truncated_by": truncated_by or ("max_turns" if ep.end_reason == "max_turns" else None),
            "tool_calls": ep.tool_calls,
            "tool_errors": ep.tool_errors,
            "parse_errors": ep.parse_errors,
            "model_tokens": sum(mask),
            "env_tokens": len(mask) - sum(mask),
            "skipped": (info.get("check") or {}).get("skipped"),
        },
        messages=ep.messages,
    )


async def rollout_many(tasks: list[str | Task], generate: Generate, tokenizer: Any, **kwargs: Any) -> list[RolloutResult]:
    """Several episodes concurrently on the running loop (e.g. the G samples of one prompt)."""
    return await asyncio.gather(*(rollout(t, generate, tokenizer, **kwargs) for t in tasks))
