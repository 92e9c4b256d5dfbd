"""SkyRL: tb-env as a `skyrl_gym` text environment, registered as ``tb_env``.

    import skyrl_gym
    import tb_env.adapters.skyrl  # registers "tb_env" with skyrl_gym

    env = skyrl_gym.make("tb_env", env_config={"user": "llm"}, extras={"extra_info": {"task_id": "retail/..."}})
    chat, _ = env.init(prompt)        # system (policy + tool schemas) and the user's first message
    out = env.step(model_text)        # BaseTextEnvStepOutput: observations, reward, done, metadata

SkyRL's generator (`SkyRLGymGenerator.agent_loop`) makes one env per trajectory, calls
`init(prompt)`, applies the chat template to what `init` returns (without `tools=`,
which is why the tool schemas are written into the system message here, in the text the
Qwen chat template gives them), then alternates generation and `step(text)` until
`done`. Each step parses the text with `tb_env.parties.interpret` (inside the episode), runs
the tool calls or asks the user simulator, and returns the new messages as
observations; SkyRL tokenises those and masks them out of the loss. The reward is 0.0
on every step but the last, and the state check (1.0 or 0.0) when the episode ends.

Row fields: `task_id` (required), `max_turns` and `allow_eval_only` are read from
`extras`, then from `extras["extra_info"]` (where `tb-env export --format skyrl` puts
them); `allow_eval_only` also from `env_config`. SkyRL's generator writes `extras["max_turns"]` from
`generator.max_turns` (default 1!), so set that to the episode's turn limit.

Infrastructure errors (a tool server crash or time-out, the user simulator's endpoint
down, a database fault) are raised from `init`/`step` as `tb_env.errors.InfraError`
subclasses, after the episode's resources are released; they are never returned as a
reward. SkyRL's stock generator then fails the batch (nothing is trained on it); the
generator in `examples/skyrl/main_tb_env.py` re-runs the whole trajectory instead
(`rerun_on_infra_error`, built on `tb_env.training.grpo.refill`). An episode SkyRL stopped early
(context length reached) is graded on its final state too: see `get_metrics`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

import skyrl_gym
from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput

from tb_env.core.episode import DEFAULT_MAX_TURNS, Episode, make_episode
from tb_env.core.loop import run_sync
from tb_env.domain.registry import get_task
from tb_env.domain.task import ToolCall
from tb_env.errors import ConfigError, InfraError
from tb_env.parties.interpret import render_tool_call
from tb_env.parties.judge import Judge
from tb_env.parties.user import LLMUser, UserSimulator
from tb_env.training.grpo import Accounting, check_trainable, refill

ENV_ID = "tb_env"
TEXT_FORMATS = ("hermes", "qwen3_coder", "mistral")
T = TypeVar("T")


@dataclass(frozen=True)
class SkyRLEnvConfig:
    """What SkyRL passes as `env_config` (`environment.skyrl_gym.tb_env` in the config)."""

    user: str = "scripted"  # "scripted" (the deterministic customer, answers from the task's facts) or "llm" (LLMUser)
    user_model: str | None = None  # default: $TB_USER_MODEL
    user_base_url: str | None = None  # OpenAI-compatible endpoint; default: $OPENAI_BASE_URL
    user_temperature: float = 0.0
    judge_model: str | None = None  # rubric judge; rubric tasks are refused without one
    judge_base_url: str | None = None
    backend: str = "sqlite"
    format: str = "hermes"  # tool-call format the policy writes (tb_env.parties.interpret.FORMATS)
    tool_timeout_s: float = 30.0
    allow_eval_only: bool = False

    def __post_init__(self) -> None:
        if self.user not in ("scripted", "llm"):
            raise ConfigError(f"tb_env env_config user must be 'scripted' or 'llm', not {self.user!r}")
        if self.format not in TEXT_FORMATS:  # SkyRL's actions are text: "openai" has no call markup
            raise ConfigError(f"tb_env env_config format must be one of {TEXT_FORMATS}, not {self.format!r}")

    @classmethod
    def of(cls, env_config: Any) -> SkyRLEnvConfig:
        if env_config is None:
            return cls()
        if isinstance(env_config, cls):
            return env_config
        if dataclasses.is_dataclass(env_config):
            env_config = dataclasses.asdict(env_config)  # type: ignore[arg-type]
        if not isinstance(env_config, Mapping):  # OmegaConf's DictConfig is a Mapping
            raise ConfigError(f"env_config must be a mapping, got {type(env_config).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(env_config) - known)
        if unknown:
            raise ConfigError(f"unknown tb_env env_config key(s) {unknown}; known: {sorted(known)}")
        return cls(**{k: env_config[k] for k in env_config})


# One simulator / judge per setting, shared by every env of the process: they are
# stateless per episode, and sharing them keeps one HTTP connection pool and lets the
# checker cache golden states per judge (`tb_env.core.episode.checker_for`).
_users: dict[tuple[Any, ...], UserSimulator] = {}
_judges: dict[tuple[Any, ...], Judge] = {}


def _user(cfg: SkyRLEnvConfig) -> str | UserSimulator:
    if cfg.user == "scripted":
        return "scripted"
    key = (cfg.user_model, cfg.user_base_url, cfg.user_temperature)
    if key not in _users:
        _users[key] = LLMUser(model=cfg.user_model, base_url=cfg.user_base_url, temperature=cfg.user_temperature)
    return _users[key]


def _judge(cfg: SkyRLEnvConfig) -> Judge | None:
    if not cfg.judge_model:
        return None
    key = (cfg.judge_model, cfg.judge_base_url)
    if key not in _judges:
        _judges[key] = Judge(cfg.judge_model, base_url=cfg.judge_base_url)
    return _judges[key]


def _field(extras: Mapping[str, Any], name: str, default: Any = None) -> Any:
    if extras.get(name) is not None:
        return extras[name]
    info = extras.get("extra_info")
    if isinstance(info, Mapping) and info.get(name) is not None:
        return info[name]
    return default


def tools_prompt(policy: str, tools: list[dict[str, Any]], format: str = "hermes") -> str:
    """The system message: the domain policy followed by the tool schemas.

    SkyRL applies the chat template without `tools=`, so the schemas must be in the text.
    For "hermes" this is exactly what the Qwen2.5/Qwen3 chat templates write for
    `tools=` (the policy model sees the prompt it was tuned on); for the other formats,
    the same schemas with an example call written by `tb_env.parties.interpret.render_tool_call`,
    so the instructions always match what the interpreter parses."""
    schemas = "\n".join(json.dumps(t, ensure_ascii=False) for t in tools)
    if format == "hermes":
        how = (
            "For each function call, return a json object with function name and arguments within "
            "<tool_call></tool_call> XML tags:\n<tool_call>\n"
            '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
        )
    else:
        example = render_tool_call(ToolCall(name="function_name", arguments={"argument": "value"}), format)
        how = f"To call a function, write the call in this format:\n{example}"
    return (
        f"{policy}\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
        f"You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n{schemas}\n</tools>\n\n"
        f"{how}"
    )


def _infra(cause: str) -> InfraError:
    """The typed `InfraError` for an episode's `infra_error` text ("tool_server: ...")."""
    kind, _, message = cause.partition(": ")
    classes = {cls.cause: cls for cls in _subclasses(InfraError)}
    return classes.get(kind, InfraError)(message or cause)


def _subclasses(cls: type) -> list[type]:
    out = []
    for sub in cls.__subclasses__():
        out += [sub, *_subclasses(sub)]
    return out


class TBTextEnv(BaseTextEnv):
    """One tb-env episode behind SkyRL's `BaseTextEnv` (`init` / `step` / `close`).

    The sync methods run tb-env's async episode on its private loop thread
    (`tb_env.core.loop.run_sync`), so they work from SkyRL's env thread pool
    (`environment.skyrl_gym.max_env_workers`) and never block another episode."""

    def __init__(self, env_config: Any = None, extras: Mapping[str, Any] | None = None):
        super().__init__()
        extras = extras or {}
        self.cfg = SkyRLEnvConfig.of(env_config)
        task_id = _field(extras, "task_id")
        if not task_id:
            raise ConfigError(
                "tb_env needs a task id: put `task_id` in the row's extra_info "
                "(`tb-env export --format skyrl` does) or in extras"
            )
        self.task = get_task(str(task_id))
        allow = _field(extras, "allow_eval_only", self.cfg.allow_eval_only)
        check_trainable([self.task.id], allow is True or str(allow).lower() == "true")  # never bool("false")
        self.max_turns = int(_field(extras, "max_turns", DEFAULT_MAX_TURNS))
        if self.task.rubrics and not self.cfg.judge_model:
            raise ConfigError(
                f"task {self.task.id} is graded partly by rubrics and no judge is configured: "
                "set judge_model in env_config, or leave rubric tasks out of the pool"
            )
        self.episode: Episode | None = None  # kept after it ends, for its counters
        self.final_reward: float | None = None
        self.stopped_early = False
        self._open = False  # whether the episode holds a database copy and a tool binding

    # -- SkyRL's interface --------------------------------------------------------------------
    def init(self, prompt: list[dict[str, Any]] | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Open the episode; return its opening conversation, which replaces the dataset's
        `prompt` (a stale export cannot change what the model sees)."""
        if self.episode is not None:
            raise ConfigError("init() was already called on this env; SkyRL makes one env per trajectory")
        try:
            run_sync(self._start())  # on tb-env's loop thread, like every use of the core's shared state
        except BaseException:
            self._release()
            raise
        ep = self.episode
        system = tools_prompt(ep.domain.policy, ep.tools, self.cfg.format)
        chat = [{"role": "system", "content": system}, *(dict(m) for m in ep.messages[1:])]
        return chat, {"task_id": self.task.id, "tools": ep.tools}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        ep = self.episode
        if ep is None:
            raise ConfigError("call init() before step()")
        before = len(ep.messages)
        try:
            _, reward, terminated, truncated, info = run_sync(ep.step(action))
        except BaseException:
            self._release()
            raise
        self.turns = ep.turn
        observations = [dict(m) for m in ep.messages[before + 1 :]]  # after the agent's own message
        done = terminated or truncated
        if done:
            self._finish(reward)
        return BaseTextEnvStepOutput(
            observations=observations,
            reward=float(reward) if done and reward is not None else 0.0,
            done=done,
            metadata={
                "task_id": self.task.id,
                "turn": ep.turn,
                "end_reason": ep.end_reason,
                "parse_errors": ep.parse_errors,
                "check": info.get("check"),
            },
        )

    def get_metrics(self) -> dict[str, Any]:
        """Per-episode numbers SkyRL averages over the batch (`environment/tb_env/*`).

        SkyRL ends a trajectory whose context reached `generator.max_input_length` without
        a last `step`, so its reward is the 0.0 of the earlier steps. Here such an episode
        is graded on its final state, as tb-env grades every truncation: the check is
        `context_truncated_reward`, which `TBEnvGenerator` (examples/skyrl) puts on the
        trajectory's last token."""
        ep = self.episode
        if ep is not None and self._open and not ep.done:
            self.stopped_early = True
            try:
                reward, _ = run_sync(ep.truncate("context_length"))
            except BaseException:
                self._release()
                raise
            self._finish(reward)
        metrics: dict[str, Any] = {"context_truncated": float(self.stopped_early)}
        if ep is not None:
            metrics.update(
                turns=ep.turn,
                tool_calls=ep.tool_calls,
                tool_errors=ep.tool_errors,
                parse_errors=ep.parse_errors,
                max_turns_truncated=float(ep.end_reason == "max_turns"),
            )
        if self.stopped_early and self.final_reward is not None:
            metrics["context_truncated_reward"] = self.final_reward
        return metrics

    def close(self) -> None:
        self._release()

    # -- internals ------------------------------------------------------------------------------
    async def _start(self) -> None:
        self.episode = make_episode(
            self.task,
            user=_user(self.cfg),
            backend=self.cfg.backend,
            max_turns=self.max_turns,
            judge=_judge(self.cfg),
            format=self.cfg.format,
        )
        self.episode.tool_timeout_s = self.cfg.tool_timeout_s
        self._open = True
        await self.episode.start()

    def _finish(self, reward: float | None) -> None:
        """The episode ended: release its database now, and refuse to score what could not be graded."""
        ep = self.episode
        assert ep is not None
        infra = ep.infra_error
        skipped = ep.check.skipped if ep.check is not None else None
        self._release()
        if infra:
            raise _infra(infra)
        if reward is None:
            raise ConfigError(f"task {self.task.id} could not be graded ({skipped or 'no check'})")
        self.final_reward = float(reward)

    def _release(self) -> None:
        if self._open and self.episode is not None:
            self._open = False
            run_sync(self.episode.close())


def rerun_on_infra_error(
    run: Callable[[], Awaitable[T]], max_reruns: int = 3, acct: Accounting | None = None
) -> Awaitable[T]:
    """Run one whole trajectory (`run` makes a fresh env and generates anew) and re-run it
    while it fails with an `InfraError`, at most `max_reruns` times (`tb_env.training.grpo.refill`,
    which also counts causes in `acct`). The last error is raised if every attempt failed:
    an infra fault is never turned into a reward."""

    @dataclass
    class Attempt:
        value: Any = None
        error: InfraError | None = None
        reward: float | None = None

        @property
        def infra_error(self) -> str | None:
            return f"{self.error.cause}: {self.error}" if self.error is not None else None

    async def attempt() -> Attempt:
        try:
            return Attempt(value=await run())
        except InfraError as exc:
            return Attempt(error=exc)

    async def main() -> T:
        result = await refill(attempt, max_reruns, acct)
        if result.error is not None:
            raise result.error
        return result.value

    return main()


if ENV_ID not in skyrl_gym.registry:
    skyrl_gym.register(id=ENV_ID, entry_point=TBTextEnv)

__all__ = ["ENV_ID", "SkyRLEnvConfig", "TBTextEnv", "rerun_on_infra_error", "tools_prompt"]
