"""TRL adapter: `GRPOTrainer` on tb-env episodes, rewarded by the state check.

Two ways in, both refusing evaluation-only tasks (`tb_env.training.grpo.check_trainable`):

- `environment_factory(tasks)`: for `GRPOTrainer(environment_factory=...)`. TRL runs its
  own tool loop; each rollout gets one instance, `reset(**row)` opens the episode of the
  row's `task_id`, the domain's MCP tools are methods, and `get_reward()` returns the
  state check (None, which TRL excludes, when the episode failed for infrastructure
  reasons). TRL ends a rollout at the first turn without a tool call, so in this mode the
  customer is reached through the `respond_to_user` tool, whose result is the reply. TRL
  owns this loop: no infra re-run, no dynamic sampling, and an episode rewarded None keeps
  its tokens in TRL's loss normaliser (its advantage is 0); the recipes use `RolloutFunc`.
- `RolloutFunc(...)`: for `GRPOTrainer(rollout_func=..., reward_funcs=[tb_env_reward])`.
  Episodes run token-in/token-out with `tb_env.training.rollout` (the evaluation protocol: plain
  text goes to the user), the G episodes of each prompt concurrently, generation batched
  across episodes onto TRL's vLLM engine (colocate) or server. It returns `env_mask` and
  `env_reward`; an episode that failed for infrastructure reasons is re-run
  (`tb_env.training.grpo.refill`) and, if still failing, gets reward None so TRL excludes it.
  DAPO dynamic sampling replaces a zero-variance group by a task of the pool the batch lacks.

`prompt_dataset(...)` builds the `datasets.Dataset` of prompts for either mode.

TRL calls tools and reward functions from its own thread; all MCP and database work runs
on tb-env's one background event loop (`tb_env.core.loop`), never on TRL's.
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import queue
import random
import threading
import typing
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, Literal

from tb_env.backends import Backend
from tb_env.core.episode import DEFAULT_MAX_TURNS, Episode, make_episode
from tb_env.core.loop import run_sync
from tb_env.core.toolserver import session, tool_server
from tb_env.domain.registry import get_domain, get_task
from tb_env.errors import ConfigError, InfraError, PolicyError
from tb_env.parties.user import UserSimulator
from tb_env.training.export import read_pool, rows
from tb_env.training.grpo import Accounting, check_trainable, is_zero_variance, refill
from tb_env.training.rollout import Generate, RolloutResult, rollout

TASK_KEY = "tb_env_task_id"  # on each prompt's first message: TRL hands `rollout_func` the prompts only
RESPOND_TOOL = "respond_to_user"

__all__ = [
    "RESPOND_TOOL",
    "TASK_KEY",
    "RolloutFunc",
    "TBEnvironment",
    "environment_class",
    "environment_factory",
    "prompt_dataset",
    "spare_tasks",
    "task_ids_of",
    "tb_env_reward",
]


# --- the dataset ---------------------------------------------------------------------------------


def task_ids_of(source: str | Path | Sequence[str]) -> list[str]:
    """Task ids from a list, a `tb-env filter` pool file, or a `tb-env export` file or folder."""
    if not isinstance(source, str | Path):
        return list(source)
    path = Path(source)
    if path.is_dir():
        found = [p for p in (path / "train.parquet", path / "train.jsonl") if p.exists()]
        if not found:
            raise ConfigError(f"{path} has no train.parquet or train.jsonl (write one with `tb-env export`)")
        path = found[0]
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return [str(t) for t in pq.read_table(path, columns=["task_id"]).column("task_id").to_pylist()]
    if path.suffix in (".jsonl", ".json"):
        return [json.loads(line)["task_id"] for line in path.read_text().splitlines() if line.strip()]
    return read_pool(path)


def prompt_dataset(source: str | Path | Sequence[str], allow_eval_only: bool = False) -> Any:
    """The `datasets.Dataset` of prompts: one row per task with `prompt` (the domain policy as
    system message, the user's first message), `task_id`, `environment` (the domain, which
    routes a multi-domain `environment_factory`) and `data_source`."""
    from datasets import Dataset

    ids = task_ids_of(source)
    if not ids:
        raise ConfigError(f"no tasks in {source!r}")
    check_trainable(ids, allow_eval_only)
    data = rows(ids, "trl")
    for row in data:
        row["prompt"][0][TASK_KEY] = row["task_id"]
        row["environment"] = get_task(row["task_id"]).domain
    return Dataset.from_list(data)


# --- (a) environment_factory: TRL's tool loop -------------------------------------------------------


class TBEnvironment:
    """One tb-env episode per TRL rollout; subclasses made by `environment_class` add the
    domain's tools as methods (TRL exposes every public method but `reset` and `get_reward`)."""

    domain: ClassVar[str]
    user: ClassVar[str | UserSimulator] = "scripted"
    backend: ClassVar[str | Backend] = "sqlite"
    max_turns: ClassVar[int] = DEFAULT_MAX_TURNS
    allow_eval_only: ClassVar[bool] = False

    def __init__(self) -> None:
        self._episode: Episode | None = None
        self._reward: float | None = None

    def reset(self, task_id: str, **row: Any) -> None:
        """Open the episode of the row's task (TRL passes every dataset column)."""
        check_trainable([task_id], self.allow_eval_only)
        task = get_task(task_id)
        if task.domain != self.domain:
            raise ConfigError(
                f"task {task_id} is in domain {task.domain!r}, this environment serves {self.domain!r}: "
                "pass environment_factory(task_ids) (one environment per domain) and a dataset with the "
                "`environment` column from prompt_dataset()"
            )
        run_sync(self._reset(task_id))

    async def _reset(self, task_id: str) -> None:
        await self._close()
        self._reward = None
        self._episode = make_episode(task_id, user=self.user, backend=self.backend, max_turns=self.max_turns)
        try:
            await self._episode.start()
        except InfraError as exc:
            self._episode.done, self._episode.end_reason = True, "infra_error"
            self._episode.infra_error = f"{exc.cause}: {exc}"

    def get_reward(self) -> float | None:
        """The state check of the finished episode: 1.0 or 0.0; None if it cannot be scored
        (an infrastructure failure, or a rubric task without a judge), which TRL excludes."""
        return run_sync(self._grade())

    async def _grade(self) -> float | None:
        ep = self._episode
        if ep is None:
            return None
        try:
            if not ep.done:  # the rollout ended on a reply without a tool call
                self._reward, _ = await ep.truncate("rollout_ended")
        finally:
            await self._close()
        return None if ep.infra_error else self._reward

    def respond_to_user(self, message: str) -> str:
        """Send a message to the customer and return the customer's reply.

        Everything the customer should read goes through this tool: a turn without a tool
        call ends the conversation.

        Args:
            message: The text the customer reads.
        """
        return run_sync(self._step({"role": "assistant", "content": message}))

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        call = {"id": f"call_{name}", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}
        return run_sync(self._step({"role": "assistant", "content": None, "tool_calls": [call]}))

    async def _step(self, message: dict[str, Any]) -> str:
        ep = self._episode
        if ep is None:
            raise ConfigError("reset() must be called before the tools")
        if ep.done:
            return "The conversation has ended."
        start = len(ep.messages)
        _, reward, _, _, _ = await ep.step(message)
        if ep.infra_error:
            return f"The environment failed ({ep.infra_error}); this conversation will not be scored."
        replies = [m.get("content") or "" for m in ep.messages[start + 1 :]]
        if ep.done:
            self._reward = reward
            replies.append("The conversation has ended.")
        return "\n\n".join(r for r in replies if r)

    async def _close(self) -> None:
        if self._episode is not None:
            ep, self._episode = self._episode, None
            await ep.close()


_JSON_TYPES: dict[str, Any] = {
    "string": str, "integer": int, "number": float, "boolean": bool, "object": dict, "null": type(None),
}


def _hint(schema: dict[str, Any]) -> Any:
    """The Python type hint whose `get_json_schema` rendering matches a JSON schema."""
    if "enum" in schema:
        return Literal[tuple(schema["enum"])]
    alternatives = schema.get("anyOf") or schema.get("oneOf")
    kind = schema.get("type")
    if alternatives or isinstance(kind, list):
        hints = [_hint(s) for s in alternatives] if alternatives else [_hint({"type": k}) for k in kind]
        return typing.Union[tuple(hints)]  # noqa: UP007 (built at run time)
    if kind == "array":
        return list[_hint(schema["items"])] if isinstance(schema.get("items"), dict) else list
    return _JSON_TYPES.get(kind, Any)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _tool_method(tool: dict[str, Any]) -> Callable[..., str]:
    """A method named after an MCP tool, with a typed signature and a Google-style docstring
    (what `transformers.utils.get_json_schema` reads), that runs the tool in the episode."""
    fn = tool["function"]
    name = fn["name"]
    params = fn.get("parameters") or {}
    required = set(params.get("required") or [])
    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    arg_docs = []
    for pname, pschema in (params.get("properties") or {}).items():
        if not pname.isidentifier() or pname == "self":
            raise ConfigError(f"tool {name!r}: parameter {pname!r} is not a Python identifier; TRL needs one")
        hint = _hint(pschema)
        if pname in required:
            default = inspect.Parameter.empty
        else:
            default = pschema.get("default")
            hint = hint | None if default is None and type(None) not in typing.get_args(hint) else hint
        annotations[pname] = hint
        signature.append(inspect.Parameter(pname, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint))
        arg_docs.append(f"    {pname}: {_one_line(pschema.get('description') or pname.replace('_', ' '))}")
    # "Args:" inside the description would end it early for the docstring parser
    description = (fn.get("description") or name).replace("Args:", "Arguments:").replace("Returns:", "Result:")
    doc = description.strip() + ("\n\nArgs:\n" + "\n".join(arg_docs) if arg_docs else "")

    def method(self: TBEnvironment, **arguments: Any) -> str:
        return self._call(name, arguments)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = doc
    method.__signature__ = inspect.Signature(signature, return_annotation=str)  # type: ignore[attr-defined]
    method.__annotations__ = {**annotations, "return": str}
    return method


def environment_class(
    domain: str,
    *,
    user: str | UserSimulator = "scripted",
    backend: str | Backend = "sqlite",
    max_turns: int = DEFAULT_MAX_TURNS,
    allow_eval_only: bool = False,
) -> type[TBEnvironment]:
    """The `TBEnvironment` subclass of one domain, with one method per MCP tool."""
    get_domain(domain)
    tools = run_sync(session(tool_server(get_domain(domain)))).tools
    reserved = {"reset", "get_reward", RESPOND_TOOL}
    methods: dict[str, Any] = {}
    for tool in tools:
        name = tool["function"]["name"]
        if name in reserved or name.startswith("_") or hasattr(TBEnvironment, name):
            raise ConfigError(f"domain {domain!r} has a tool named {name!r}, which TRL's environment API reserves")
        methods[name] = _tool_method(tool)
    attrs = dict(
        domain=domain, user=user, backend=backend, max_turns=max_turns, allow_eval_only=allow_eval_only, **methods
    )
    cls_name = "TBEnv" + "".join(part.title() for part in domain.replace("-", "_").split("_"))
    return type(cls_name, (TBEnvironment,), attrs)


def environment_factory(
    tasks: str | Path | Sequence[str], **options: Any
) -> type[TBEnvironment] | dict[str, type[TBEnvironment]]:
    """What `GRPOTrainer(environment_factory=...)` takes for these tasks: one class for one
    domain, a `{domain: class}` dict for several (routed by the `environment` column)."""
    ids = task_ids_of(tasks)
    check_trainable(ids, options.get("allow_eval_only", False))
    domains = list(dict.fromkeys(get_task(t).domain for t in ids))
    if not domains:
        raise ConfigError("environment_factory needs at least one task")
    classes = {d: environment_class(d, **options) for d in domains}
    return classes[domains[0]] if len(classes) == 1 else classes


# --- (b) rollout_func: tb_env.training.rollout, groups concurrently ---------------------------------------------


def tb_env_reward(
    completions: list[Any],
    env_reward: list[float | None],
    tb_env_metrics: list[dict[str, float]] | None = None,
    log_metric: Callable[[str, float], None] | None = None,
    **kwargs: Any,
) -> list[float | None]:
    """The reward function paired with `RolloutFunc`: the state check each episode got
    (None for an episode that could not be scored; TRL leaves it out of the baseline)."""
    if log_metric is not None and tb_env_metrics:
        for name, value in tb_env_metrics[0].items():
            log_metric(name, value)
    return list(env_reward)


# one batched generation: the prompts and each one's own token cap (an episode near its
# budget asks for fewer tokens; vLLM rejects a whole request if any prompt + cap is too long)
EngineCall = Callable[[list[list[int]], list[int]], list[tuple[list[int], list[float]]]]


class _Batcher:
    """Collects the generate calls of concurrent episodes (on tb-env's loop) into batches that
    the trainer's thread runs on vLLM: one engine call per wave instead of one per turn.

    A batch leaves when every live episode is waiting for tokens, or `max_wait_s` after its
    first request, so an episode busy with a slow user simulator does not hold the GPU."""

    def __init__(self, requests: queue.Queue, max_wait_s: float = 0.05):
        self.requests = requests
        self.max_wait_s = max_wait_s
        self.pending: list[tuple[list[int], int, asyncio.Future]] = []
        self.live = 0
        self.busy = False
        self.timer: asyncio.TimerHandle | None = None

    async def generate(self, prompt_ids: list[int], sampling: dict[str, Any]) -> tuple[list[int], list[float]]:
        fut = asyncio.get_running_loop().create_future()
        self.pending.append((prompt_ids, int(sampling["max_tokens"]), fut))
        self._maybe_flush()
        return await fut

    def episode_started(self) -> None:
        self.live += 1

    def episode_ended(self) -> None:
        self.live -= 1
        self._maybe_flush()

    def _maybe_flush(self, timed_out: bool = False) -> None:
        if timed_out:
            self.timer = None
        if self.busy or not self.pending:
            return
        if len(self.pending) < self.live and not timed_out:
            if self.timer is None:
                self.timer = asyncio.get_running_loop().call_later(self.max_wait_s, self._maybe_flush, True)
            return
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        batch, self.pending = self.pending, []
        self.busy = True
        loop = asyncio.get_running_loop()

        def deliver(outputs: list[tuple[list[int], list[float]]] | BaseException) -> None:
            self.busy = False
            for i, (_, cap, fut) in enumerate(batch):
                if isinstance(outputs, BaseException):
                    fut.set_exception(PolicyError(f"generation failed: {outputs!r}"))
                else:
                    ids, lps = outputs[i]
                    fut.set_result((list(ids[:cap]), list(lps[:cap])))
            self._maybe_flush()

        self.requests.put(([p for p, _, _ in batch], [c for _, c, _ in batch], loop, deliver))


_DONE = object()


def _vllm_backend(trainer: Any) -> EngineCall:
    """One batched generation call on TRL's vLLM: the colocated engine or the server."""
    vg = getattr(trainer, "vllm_generation", None)
    if not getattr(trainer, "use_vllm", False) or vg is None:
        raise ConfigError("RolloutFunc generates with vLLM: set use_vllm=True (vllm_mode 'server' or 'colocate')")
    sampling = dict(
        temperature=vg.temperature, top_p=vg.top_p, top_k=vg.top_k, min_p=vg.min_p or 0.0,
        repetition_penalty=vg.repetition_penalty,
    )
    if vg.mode == "colocate":
        if vg.tensor_parallel_size > 1 or vg.enable_sleep_mode:
            raise ConfigError(
                "RolloutFunc runs each process's episodes on its own colocated engine: use "
                "vllm_tensor_parallel_size=1 and vllm_enable_sleep_mode=False, or vllm_mode='server'"
            )
        from vllm import SamplingParams

        def colocate(prompts: list[list[int]], max_tokens: list[int]) -> list[tuple[list[int], list[float]]]:
            params = [
                SamplingParams(**{**sampling, **vg.generation_kwargs, "n": 1, "max_tokens": cap, "logprobs": 0})
                for cap in max_tokens
            ]
            outs = vg.llm.generate([{"prompt_token_ids": p} for p in prompts], sampling_params=params, use_tqdm=False)
            return [
                (list(o.outputs[0].token_ids), [lp[t].logprob for lp, t in zip(o.outputs[0].logprobs, o.outputs[0].token_ids, strict=True)])
                for o in outs
            ]

        return colocate

    client = getattr(vg, "vllm_client", None)
    if client is None:  # only the main process holds TRL's client (it syncs the weights); the others ask over HTTP
        from trl.generation.vllm_client import VLLMClient

        base = vg.server_base_url or f"http://{vg.server_host}:{vg.server_port}"
        client = VLLMClient(base_url=base, connection_timeout=vg.server_timeout)

    def server(prompts: list[list[int]], max_tokens: list[int]) -> list[tuple[list[int], list[float]]]:
        # TRL's server takes one max_tokens per request: one request per distinct cap
        results: list[tuple[list[int], list[float]]] = [([], [])] * len(prompts)
        for cap in sorted(set(max_tokens)):
            idx = [i for i, c in enumerate(max_tokens) if c == cap]
            out = client.generate(
                prompts=[prompts[i] for i in idx], n=1, max_tokens=cap, logprobs=0,
                generation_kwargs=vg.generation_kwargs, **sampling,
            )
            for i, ids, lps in zip(idx, out["completion_ids"], out["logprobs"], strict=True):
                results[i] = (ids, [lp[0] for lp in lps])
        return results

    return server


def _rollout_tokenizer(tokenizer: Any) -> Any:
    """The tokenizer with a prefix-preserving chat template, as TRL's own multi-turn loop uses
    (e.g. Qwen3's template drops earlier thinking; TRL ships a training variant)."""
    from trl.chat_template_utils import get_training_chat_template, is_chat_template_prefix_preserving

    if is_chat_template_prefix_preserving(tokenizer):
        return tokenizer
    tok = copy.copy(tokenizer)
    tok.chat_template = get_training_chat_template(tokenizer)
    return tok


class RolloutFunc:
    """`GRPOTrainer(rollout_func=RolloutFunc(...), reward_funcs=[tb_env_reward])`.

    Per call: the prompts of all processes are gathered into their GRPO groups; each process
    runs whole groups (group k on process k mod P), the G episodes of a group concurrently,
    every episode refilled on infrastructure errors; with `dynamic_sampling` (training only) a
    group whose rewards are all equal is replaced by a group of a task of the pool that no group
    of the batch, on any process, has (`spare_tasks`), up to `max_resamples` times; a group still
    equal after them is returned with no trainable token. The results are gathered back and each process returns its
    own slice: `prompt_ids`, `completion_ids`, `logprobs`, `env_mask` (0 on tool and user
    tokens), `env_reward`, `task_id` (the task actually run) and `tb_env_metrics`.

    `generate` replaces vLLM (a `tb_env.training.rollout.Generate` coroutine, e.g. a scripted policy
    in tests); `pool` defaults to the tasks of the trainer's train dataset."""

    def __init__(
        self,
        pool: str | Path | Sequence[str] | None = None,
        *,
        generate: Generate | None = None,
        user: str | UserSimulator = "scripted",
        backend: str | Backend = "sqlite",
        max_turns: int = DEFAULT_MAX_TURNS,
        max_tokens_per_turn: int = 2048,
        max_total_tokens: int = 32768,
        max_reruns: int = 3,
        dynamic_sampling: bool = True,
        max_resamples: int = 3,
        allow_eval_only: bool = False,
        seed: int = 0,
    ):
        self.pool = task_ids_of(pool) if pool is not None else None
        if self.pool is not None:
            check_trainable(self.pool, allow_eval_only)
        self.generate = generate
        self.episode_options = dict(
            user=user, backend=backend, max_turns=max_turns,
            max_tokens_per_turn=max_tokens_per_turn, max_total_tokens=max_total_tokens,
        )
        self.max_reruns = max_reruns
        self.dynamic_sampling = dynamic_sampling
        self.max_resamples = max_resamples
        self.allow_eval_only = allow_eval_only
        self.seed = seed
        self._calls = 0
        self._backend: EngineCall | None = None
        self._tokenizer: Any = None

    def __call__(self, prompts: list[Any], trainer: Any) -> dict[str, Any]:
        from accelerate.utils import gather_object

        acc = trainer.accelerator
        rank, world = acc.process_index, acc.num_processes
        training = trainer.model.training
        size = trainer.num_generations if training else trainer.num_generations_eval
        everyone = gather_object(list(prompts)) if world > 1 else list(prompts)
        if len(everyone) % size:
            raise ConfigError(f"{len(everyone)} prompts do not form groups of {size}")
        slots = [_task_of(everyone[k]) for k in range(0, len(everyone), size)]
        check_trainable(slots, self.allow_eval_only)
        if self._tokenizer is None:
            self._tokenizer = _rollout_tokenizer(trainer.processing_class)
        pool = self.pool if self.pool is not None else _dataset_tasks(trainer)
        check_trainable(pool, self.allow_eval_only)
        self._calls += 1
        mine = [k for k in range(len(slots)) if k % world == rank]
        acct = Accounting()
        groups = self._run(
            [(k, slots[k]) for k in mine], size, spare_tasks(pool, slots, rank, world),
            training and self.dynamic_sampling, acct, trainer,
        )
        local = []
        for k, rs in groups:
            prompt_ids = next((r.prompt_ids for r in rs if r.prompt_ids), None) or _render(everyone[k * size], self._tokenizer)
            local += [(k * size + j, _row(r, prompt_ids, self._tokenizer.eos_token_id)) for j, r in enumerate(rs)]
        episodes = [r for _, rs in groups for r in rs]
        stats = [(acct, [_episode_stats(r) for r in episodes])]
        if world > 1:
            local, stats = gather_object(local), gather_object(stats)
        metrics = _metrics(stats)
        if metrics["tb_env/scored_episodes"] == 0:
            raise InfraError(
                f"no episode of this batch could be scored ({metrics}); check the generation server, the user "
                "simulator endpoint, the database backend, and the judge if the tasks have rubrics"
            )
        by_index = dict(local)
        out: dict[str, list[Any]] = {k: [] for k in ("prompt_ids", "completion_ids", "logprobs", "env_mask", "env_reward", "task_id")}
        for i in range(rank * len(prompts), (rank + 1) * len(prompts)):
            for key, value in by_index[i].items():
                out[key].append(value)
        return {**out, "tb_env_metrics": metrics}

    # -- running groups ------------------------------------------------------------------------------
    def _run(
        self, slots: list[tuple[int, str]], size: int, spare: list[str], dynamic: bool, acct: Accounting, trainer: Any
    ) -> list[tuple[int, list[RolloutResult]]]:
        """Run the groups on tb-env's loop; with vLLM, this thread serves the batched generation."""
        if self.generate is not None:
            return run_sync(self._groups(slots, size, spare, dynamic, acct, self.generate, None))
        if self._backend is None:
            self._backend = _vllm_backend(trainer)
        requests: queue.Queue = queue.Queue()
        batcher = _Batcher(requests)

        result: list[Any] = []

        def episodes() -> None:  # blocks on tb-env's loop while this thread serves the engine
            try:
                result.append(run_sync(self._groups(slots, size, spare, dynamic, acct, batcher.generate, batcher)))
            except BaseException as exc:
                result.append(exc)
            finally:
                requests.put(_DONE)

        worker = threading.Thread(target=episodes, name="tb-env-rollouts", daemon=True)
        worker.start()
        while (item := requests.get()) is not _DONE:
            prompts, max_tokens, loop, deliver = item
            try:
                outputs: Any = self._backend(prompts, max_tokens)
            except Exception as exc:  # the engine failed: these episodes are infra failures, re-run by refill
                outputs = exc
            loop.call_soon_threadsafe(deliver, outputs)
        worker.join()
        if isinstance(result[0], BaseException):
            raise result[0]
        return result[0]

    async def _groups(
        self,
        slots: list[tuple[int, str]],
        size: int,
        spare: list[str],
        dynamic: bool,
        acct: Accounting,
        generate: Generate,
        batcher: _Batcher | None,
    ) -> list[tuple[int, list[RolloutResult]]]:
        async def episode(task_id: str) -> RolloutResult:
            if batcher is not None:
                batcher.episode_started()
            try:
                return await rollout(task_id, generate, self._tokenizer, **self.episode_options)
            finally:
                if batcher is not None:
                    batcher.episode_ended()

        used: set[str] = set()  # the spare tasks this process's groups already took

        async def group(k: int, task_id: str) -> tuple[int, list[RolloutResult]]:
            rng = random.Random(f"{self.seed}:{self._calls}:{k}")
            for attempt in range(1 + (self.max_resamples if dynamic else 0)):
                results = await asyncio.gather(
                    *(refill(lambda t=task_id: episode(t), self.max_reruns, acct) for _ in range(size))
                )
                scored = [r.reward for r in results if r.reward is not None]
                if not dynamic or (len(scored) > 1 and not is_zero_variance(scored)):
                    acct.groups_kept += 1
                    return k, list(results)
                acct.groups_zero_variance += 1
                others = [t for t in spare if t not in used]
                if not others or attempt == self.max_resamples:
                    break
                task_id = rng.choice(others)
                used.add(task_id)
            # nothing better found: its advantage is zero, and its tokens would only dilute the
            # loss normaliser of the groups that teach something, so none of them is trained
            acct.groups_untrained += 1
            return k, [replace(r, untrained=True) for r in results]

        return list(await asyncio.gather(*(group(k, t) for k, t in slots)))


def spare_tasks(pool: Sequence[str], batch: Sequence[str], rank: int, world: int) -> list[str]:
    """The tasks this process may run in place of a zero-variance group: those of the pool
    that no group of the whole batch (every process's) has, dealt out among the processes.

    Two groups of one task in a step would sample that prompt twice as often as the rest;
    each process sees only its own groups run, so the spare tasks are split beforehand
    (every process computes the same split from the gathered batch) instead of drawn from
    one shared set."""
    return sorted(set(pool) - set(batch))[rank::world]


def _task_of(prompt: Any) -> str:
    if isinstance(prompt, list) and prompt and isinstance(prompt[0], dict) and prompt[0].get(TASK_KEY):
        return str(prompt[0][TASK_KEY])
    raise ConfigError(
        "RolloutFunc cannot tell which task a prompt belongs to: build the train dataset with "
        "tb_env.adapters.trl.prompt_dataset(...), whose prompts carry the task id"
    )


def _dataset_tasks(trainer: Any) -> list[str]:
    dataset = getattr(trainer, "train_dataset", None)
    if dataset is None or "task_id" not in getattr(dataset, "column_names", []):
        raise ConfigError("RolloutFunc(pool=...) is needed when the train dataset has no task_id column")
    return list(dict.fromkeys(dataset["task_id"]))


def _render(prompt: list[dict[str, Any]], tokenizer: Any) -> list[int]:
    """Prompt ids for a group none of whose episodes got as far as rendering its own."""
    messages = [{k: v for k, v in m.items() if k != TASK_KEY and v is not None} for m in prompt]
    text = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    return list(tokenizer.encode(text, add_special_tokens=False))


def _row(r: RolloutResult, prompt_ids: list[int], eos_id: int) -> dict[str, Any]:
    """One completion for TRL. An episode that cannot be scored keeps no trainable token."""
    scorable = r.reward is not None and not r.infra_error
    completion, mask, logprobs = list(r.completion_ids), list(r.env_mask), list(r.logprobs)
    if not scorable or r.untrained:
        mask = [0] * len(completion)
    if not completion:  # failed before its first turn: TRL needs one token
        completion, mask, logprobs = [eos_id], [0], [0.0]
    return dict(
        prompt_ids=list(r.prompt_ids) or list(prompt_ids), completion_ids=completion, logprobs=logprobs,
        env_mask=mask, env_reward=r.reward if scorable else None, task_id=r.task_id,
    )


def _episode_stats(r: RolloutResult) -> dict[str, float]:
    return {
        "scored": float(r.reward is not None and not r.infra_error),
        "turns": float(r.num_turns),
        "truncated": float(r.truncated),
        "tool_calls": float(r.metrics.get("tool_calls", 0)),
        "parse_errors": float(r.metrics.get("parse_errors", 0)),
    }


def _metrics(stats: list[tuple[Accounting, list[dict[str, float]]]]) -> dict[str, float]:
    total = Accounting()
    episodes: list[dict[str, float]] = []
    for acct, eps in stats:
        for key, value in vars(acct).items():
            if isinstance(value, int):
                setattr(total, key, getattr(total, key) + value)
        episodes += eps
    out = total.as_metrics()
    n = max(len(episodes), 1)
    out["tb_env/scored_episodes"] = sum(e["scored"] for e in episodes)
    for key in ("turns", "truncated", "tool_calls", "parse_errors"):
        out[f"tb_env/mean_{key}"] = sum(e[key] for e in episodes) / n
    return out
