"""verl (0.9.x) integration: tb-env episodes as a verl agent loop named `tb_env`.

verl runs one `AgentLoopBase.run` per trajectory inside its rollout workers. This loop
plays a tb-env episode there, token in / token out:

- the model's turns come from verl's server manager (`generate(request_id, prompt_ids=,
  sampling_params=) -> TokenOutput`), and the context grows with verl's continuous-token
  helpers (the builder's `build_initial_tokens`, `ct_merge_assistant_token`,
  `ct_merge_context_msg`), whose model-family builders (Qwen3, GLM, GPT-OSS, DeepSeek...)
  know each chat template's turn boundaries; the model's own tokens are never re-encoded;
- tool calls run on the episode's private database and the simulated user answers plain
  messages, inside the loop (verl 0.9 removed its interaction API): `tb_env.core.episode` does
  both, with `tb_env.parties.interpret` parsing the model's text as in evaluation;
- tool results and the user's replies are context tokens: `response_mask` 0, logprob 0;
- `reward_score` is the state check (1 or 0), so verl's reward workers are not called;
- an episode that fails for infrastructure reasons is re-run here (`tb_env.training.grpo.refill`);
  if it still fails, `run` raises, which marks the prompt's group failed in verl's v1
  trainer (`trainer.use_v1`, the 0.9 default): the trajectory is never scored 0, and with
  `trainer.v1.sampler.sync_refill_failed_groups=true` a group left without trajectories is
  replaced by a fresh prompt.

Register it with verl through the agent-loop YAML (`examples/verl/agent_loop.yaml`): its
keys beyond `name` and `_target_` are this class's keyword arguments. Importing this
module also registers it under `tb_env` in the running process, unless the YAML's entry
is there already: verl's worker loads the YAML first and imports this module only when it
builds the first loop, so registering unconditionally would replace the YAML's settings
(user endpoint, turns, caps) with a bare entry for every later trajectory.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import sys
import time
from typing import Any
from uuid import uuid4

from verl.experimental.agent_loop.agent_loop import (
    AgentLoopBase,
    AgentLoopMetrics,
    AgentLoopOutput,
    _agent_loop_registry,
    register,
)

from tb_env.core.episode import DEFAULT_MAX_TURNS, make_episode
from tb_env.errors import ConfigError, InfraError, PolicyError
from tb_env.parties.judge import Judge
from tb_env.parties.user import LLMUser, UserSimulator, make_user
from tb_env.training.export import AGENT_NAME
from tb_env.training.grpo import Accounting, check_trainable, refill
from tb_env.training.rollout import RolloutResult

__all__ = ["TBEnvAgentLoop", "task_id_of"]

logger = logging.getLogger(__name__)
EXIT_CONFIG = 78  # sysexits' EX_CONFIG: what a rollout worker stopped by a wrong setting exits with


def task_id_of(row: dict[str, Any]) -> str:
    """The task of a dataset row written by `tb-env export --format verl` (`extra_info.task_id`,
    or the `reward_model.ground_truth` it mirrors)."""
    for key, field in (("extra_info", "task_id"), ("reward_model", "ground_truth")):
        value = (row.get(key) or {}).get(field)
        if value:
            return str(value)
    raise ConfigError(
        "a verl row for the tb_env agent loop needs extra_info.task_id; write the dataset with "
        "`tb-env export --pool FILE --format verl --out DIR`"
    )


@functools.cache
def _llm_user(model: str | None, base_url: str | None, api_key: str | None, temperature: float,
              loop: asyncio.AbstractEventLoop) -> LLMUser:
    # verl builds one agent loop per trajectory: share one client per worker event loop
    return LLMUser(model=model, base_url=base_url, api_key=api_key, temperature=temperature)


@functools.cache
def _judge(model: str, base_url: str | None, api_key: str | None, loop: asyncio.AbstractEventLoop) -> Judge:
    return Judge(model, base_url=base_url, api_key=api_key)


class TBEnvAgentLoop(AgentLoopBase):
    """One tb-env episode per `run` (see the module docstring).

    Keyword arguments (the agent-loop YAML sets them): `user` ("llm", "scripted" or "lines") and, for
    "llm", `user_model` / `user_base_url` / `user_api_key` / `user_temperature` (defaults:
    `TB_USER_MODEL`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`, 0.0); `judge_model` (+ `_base_url`,
    `_api_key`) for rubric tasks; `backend`, `format`, `max_turns`; `max_tokens_per_turn`
    (default: no cap beyond the response budget); `max_reruns` for infra faults;
    `allow_eval_only` (never for benchmark tasks); `stop_on_config_error` (default true: a
    configuration error, such as a benchmark task in the pool, a rubric task without a
    judge or a prompt over the budget, ends the rollout worker's process with its message
    and exit code 78, which stops the run: verl's v1 trainer would otherwise log it and drop
    the group, every step, and train on whatever is left)."""

    def __init__(
        self,
        *args: Any,
        user: str | UserSimulator = "llm",
        user_model: str | None = None,
        user_base_url: str | None = None,
        user_api_key: str | None = None,
        user_temperature: float = 0.0,
        judge_model: str | None = None,
        judge_base_url: str | None = None,
        judge_api_key: str | None = None,
        backend: str = "sqlite",
        format: str = "hermes",
        max_turns: int = DEFAULT_MAX_TURNS,
        max_tokens_per_turn: int | None = None,
        max_reruns: int = 3,
        allow_eval_only: bool = False,
        stop_on_config_error: bool = True,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.user = (
            _llm_user(user_model, user_base_url, user_api_key, float(user_temperature), self.loop)
            if user == "llm"
            else make_user(user)
        )
        self.judge = _judge(judge_model, judge_base_url, judge_api_key, self.loop) if judge_model else None
        self.backend, self.format, self.max_turns = backend, format, int(max_turns)
        self.max_tokens_per_turn = int(max_tokens_per_turn) if max_tokens_per_turn else None
        self.max_reruns, self.allow_eval_only = int(max_reruns), bool(allow_eval_only)
        self.stop_on_config_error = bool(stop_on_config_error)
        self.prompt_length = int(self.rollout_config.prompt_length)
        self.response_length = int(self.rollout_config.response_length)
        self.end_ids = set(self.tokenizer.all_special_ids)
        self.eos_id = self.tokenizer.eos_token_id

    async def run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        try:
            return await self._run(sampling_params, **kwargs)
        except ConfigError as exc:
            if self.stop_on_config_error:
                _stop_run(exc)
            raise

    async def _run(self, sampling_params: dict[str, Any], **kwargs: Any) -> AgentLoopOutput:
        task_id = task_id_of(kwargs)
        check_trainable([task_id], self.allow_eval_only)
        acct = Accounting()
        r = await refill(lambda: self._episode(task_id, sampling_params), self.max_reruns, acct)
        if r.infra_error:
            raise InfraError(
                f"tb_env episode of {task_id} failed for infrastructure reasons {acct.episodes} times "
                f"(last: {r.infra_error}); raised so that verl drops this trajectory (its group is marked "
                "failed) instead of scoring it 0"
            )
        if r.reward is None:
            raise ConfigError(
                f"{task_id} has a rubric and no judge is configured: set judge_model in the agent-loop "
                "YAML, or leave the task out of the training pool"
            )
        m = r.metrics
        return AgentLoopOutput(
            prompt_ids=r.prompt_ids,
            response_ids=r.completion_ids,
            response_mask=r.env_mask,
            response_logprobs=r.logprobs or None,
            reward_score=float(r.reward),
            # verl's count (as in its ToolAgentLoop): the prompt, each model turn, each environment turn
            num_turns=1 + r.num_turns + m["env_turns"],
            metrics=AgentLoopMetrics(generate_sequences=m["generate_s"], tool_calls=m["env_s"]),
            extra_fields={
                **m["server_fields"],
                "reward_extra_info": {
                    "tb_env_infra_reruns": acct.infra_reruns,
                    "tb_env_truncated": int(r.truncated),
                    "tb_env_tool_calls": m["tool_calls"],
                    "tb_env_parse_errors": m["parse_errors"],
                },
                "tb_env": {"task_id": task_id, "end_reason": m["end_reason"], "truncated_by": m["truncated_by"]},
            },
        )

    async def _episode(self, task_id: str, sampling_params: dict[str, Any]) -> RolloutResult:
        ep = make_episode(task_id, user=self.user, backend=self.backend, max_turns=self.max_turns,
                          judge=self.judge, format=self.format)
        request_id = uuid4().hex  # one sticky session per episode, for the server's prefix cache
        prompt_ids: list[int] = []
        ids: list[int] = []  # the whole context, as the server saw and produced it
        mask: list[int] = []
        logprobs: list[float] = []
        reward: float | None = None
        truncated_by: str | None = None
        env_turns, generate_s, env_s = 0, 0.0, 0.0
        server_fields: dict[str, Any] = {}
        try:
            try:
                await ep.start()
                # the builder itself, not `ct_build_initial_tokens`, which would silently cut
                # the head (the domain's policy) off a prompt that does not fit
                prompt_ids = await asyncio.to_thread(
                    self.continuous_token_builder.build_initial_tokens, ep.messages, tools=ep.tools
                )
                if len(prompt_ids) > self.prompt_length:
                    raise ConfigError(
                        f"the opening prompt of {task_id} is {len(prompt_ids)} tokens, over "
                        f"rollout.prompt_length={self.prompt_length}: raise data.max_prompt_length"
                    )
                ids = list(prompt_ids)
                while True:
                    room = self.response_length - len(mask)
                    if room <= 0:
                        truncated_by = "response_length"
                        break
                    cap = min(room, self.max_tokens_per_turn or room)
                    t0 = time.perf_counter()
                    out = await self.server_manager.generate(
                        request_id=request_id, prompt_ids=ids, sampling_params={**sampling_params, "max_tokens": cap}
                    )
                    generate_s += time.perf_counter() - t0
                    if out.stop_reason == "aborted" and not out.token_ids:
                        raise PolicyError("the rollout server aborted the generation")
                    _merge_server_fields(server_fields, out.extra_fields)
                    gen = list(out.token_ids)
                    merged, mask, lps = await self.ct_merge_assistant_token(
                        ids, gen, mask, logprobs if (logprobs or out.log_probs) else None,
                        assistant_logprobs=out.log_probs or None,
                    )
                    ids, logprobs = merged.token_ids, lps or []
                    before = len(ep.messages)
                    t0 = time.perf_counter()
                    _, reward, terminated, truncated, _ = await ep.step(self._text(gen))
                    env_s += time.perf_counter() - t0
                    if terminated or truncated:
                        break
                    ended_turn = bool(gen) and gen[-1] in self.end_ids
                    if not ended_turn and len(gen) >= cap:  # the turn hit its token cap mid-sentence
                        truncated_by = "max_tokens_per_turn"
                        break
                    if not ended_turn:  # a server that strips the end-of-turn token: close the turn
                        ids, mask = [*ids, self.eos_id], [*mask, 0]
                        logprobs = [*logprobs, 0.0] if logprobs else logprobs
                    merged, new_mask, lps = await self.ct_merge_context_msg(
                        ep.messages[: before + 1], ep.messages, ids, mask, logprobs or None, tools=ep.tools
                    )
                    if len(new_mask) >= self.response_length:  # the environment's turn does not fit
                        truncated_by = "response_length"
                        break
                    ids, mask, logprobs = merged.token_ids, new_mask, lps or []
                    env_turns += 1
                if truncated_by is not None:
                    reward, _ = await ep.truncate(truncated_by)
            except InfraError as exc:
                ep.infra_error = f"{exc.cause}: {exc}"
        finally:
            await ep.close()
        return RolloutResult(
            task_id=task_id,
            prompt_ids=prompt_ids,
            completion_ids=ids[len(prompt_ids):],
            logprobs=logprobs,
            env_mask=mask,
            reward=None if ep.infra_error else reward,
            infra_error=ep.infra_error,
            num_turns=ep.turn,
            truncated=truncated_by is not None or ep.end_reason == "max_turns",
            metrics={
                "env_turns": env_turns,
                "generate_s": generate_s,
                "env_s": env_s,
                "end_reason": ep.end_reason,
                "truncated_by": truncated_by or ("max_turns" if ep.end_reason == "max_turns" else None),
                "tool_calls": ep.tool_calls,
                "parse_errors": ep.parse_errors,
                "server_fields": server_fields,
            },
            messages=ep.messages,
        )

    def _text(self, ids: list[int]) -> str:
        """The model's turn as text for the interpreter, without its end-of-turn token."""
        while ids and ids[-1] in self.end_ids:
            ids = ids[:-1]
        return self.tokenizer.decode(ids, skip_special_tokens=False)


def _stop_run(exc: ConfigError) -> None:
    """End this process: a wrong setting is the same for every trajectory, so each would fail
    the same way while verl logs and drops them. Ray forwards the message to the driver's
    console and the trainer stops on the dead worker."""
    message = f"tb_env: stopping the run: {type(exc).__name__}: {exc}"
    logger.critical(message)
    print(message, file=sys.stderr, flush=True)
    os._exit(EXIT_CONFIG)


def _merge_server_fields(acc: dict[str, Any], fields: dict[str, Any]) -> None:
    """Keep the server's per-trajectory fields as verl's ToolAgentLoop does: the first turn's,
    with `max_global_steps` (the weights version, read by the v1 off-policy control) updated."""
    if not acc:
        acc.update(fields)
    elif fields.get("max_global_steps") is not None:
        acc["max_global_steps"] = fields["max_global_steps"]


if AGENT_NAME not in _agent_loop_registry:  # the agent-loop YAML's entry, with its settings, wins
    register(AGENT_NAME)(TBEnvAgentLoop)
