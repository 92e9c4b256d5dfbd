"""Agents to evaluate: the oracle, a noisy oracle, and any OpenAI-compatible chat model.

A policy turns the conversation so far into the agent's next action: raw model text
(parsed by `tb_env.parties.interpret`, as in training) or an OpenAI assistant message dict.
Policies are stateless across episodes; what they need about the episode comes in the
`EpisodeContext`.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from tb_env.domain.task import Task, ToolCall
from tb_env.domain.tool import END_CONVERSATION
from tb_env.domain.transcript import TracedCall, matches
from tb_env.errors import ConfigError, PolicyError
from tb_env.parties.chat import ChatTokens
from tb_env.parties.endpoint import call_with_retries, make_client
from tb_env.parties.interpret import render_tool_call

Action = str | dict[str, Any]


@dataclass
class Usage:
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0

    def add(self, other: Usage) -> None:
        self.tokens_in += other.tokens_in
        self.tokens_out += other.tokens_out
        self.cost_usd += other.cost_usd


@dataclass
class PolicyReply:
    action: Action
    usage: Usage = field(default_factory=Usage)


@dataclass(frozen=True)
class EpisodeContext:
    task: Task
    tools: list[dict[str, Any]]
    seed: int | None
    turn: int  # steps taken so far


class Policy(Protocol):
    async def act(self, messages: list[dict[str, Any]], ctx: EpisodeContext) -> Action | PolicyReply: ...


def with_questions(task: Task, plan: list[ToolCall | str]) -> list[ToolCall | str]:
    """`plan` with each question the task's policy requires (`no_call(until_asked=...)`:
    which address, which booking) asked just before the first call it guards."""
    pending = [a.body for a in task.assertions if a.kind == "no_call" and a.body.until_asked]
    if not pending:
        return plan
    out: list[ToolCall | str] = []
    for step in plan:
        if isinstance(step, ToolCall):
            traced = TracedCall(step.name, step.arguments, True, "", 0)
            for rule in [r for r in pending if matches(traced, r.call.name, r.call.arguments, r.call.mentions)]:
                out.append(rule.question())
                pending.remove(rule)
        out.append(step)
    return out


class OraclePolicy:
    """Replays the task's golden calls one per turn, then the golden reply, then ends;
    where the policy says to ask the customer before a call, it asks first.

    `format` picks how calls are written: raw text in an interpreter format ("hermes",
    the default, so the oracle exercises the same parsing path as a trained model) or
    "openai" message dicts. `asks=False` skips the required questions (a probe that
    guesses instead of asking)."""

    def __init__(self, format: str = "hermes", asks: bool = True):
        self.format = format
        self.asks = asks

    def script(self, ctx: EpisodeContext) -> list[ToolCall | str]:
        plan: list[ToolCall | str] = list(ctx.task.golden_actions)
        if ctx.task.golden_reply:
            plan.append(ctx.task.golden_reply)
        return plan

    async def act(self, messages: list[dict[str, Any]], ctx: EpisodeContext) -> Action | PolicyReply:
        plan = with_questions(ctx.task, self.script(ctx)) if self.asks else self.script(ctx)
        step = plan[ctx.turn] if ctx.turn < len(plan) else ToolCall(name=END_CONVERSATION)
        if isinstance(step, str):
            return step
        if self.format == "openai":
            return {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": f"call_{ctx.turn}",
                        "type": "function",
                        "function": {"name": step.name, "arguments": json.dumps(step.arguments)},
                    }
                ],
            }
        return render_tool_call(step, self.format)


class NoisyOraclePolicy(OraclePolicy):
    """The oracle with each golden call dropped or corrupted with probability `p`.

    Deterministic per (seed, task, episode seed), so reruns agree and k trials of one
    task differ: a cheap stand-in for a model that is right most of the time."""

    def __init__(self, p: float = 0.2, seed: int = 0, format: str = "hermes"):
        super().__init__(format)
        if not 0.0 <= p <= 1.0:
            raise ConfigError(f"NoisyOraclePolicy: p must be in [0, 1], got {p}")
        self.p = p
        self.seed = seed

    def script(self, ctx: EpisodeContext) -> list[ToolCall | str]:
        rng = random.Random(f"{self.seed}:{ctx.task.id}:{ctx.seed}")
        plan: list[ToolCall | str] = []
        for call in ctx.task.golden_actions:
            if rng.random() >= self.p:
                plan.append(call)
            elif rng.random() < 0.5 or not call.arguments:
                continue  # dropped
            else:
                plan.append(_corrupt(call, rng))
        if ctx.task.golden_reply:
            plan.append(ctx.task.golden_reply)
        return plan


def _corrupt(call: ToolCall, rng: random.Random) -> ToolCall:
    args = dict(call.arguments)
    key = rng.choice(sorted(args))
    v = args[key]
    if isinstance(v, bool):
        args[key] = not v
    elif isinstance(v, int | float):
        args[key] = v + max(1, abs(v) // 2)
    elif isinstance(v, str):
        args[key] = v[:-1] + ("9" if not v.endswith("9") else "8") if v else "x"
    else:
        args[key] = None
    return ToolCall(name=call.name, arguments=args)


class OpenAIPolicy:
    """A chat model with tools on any OpenAI-compatible endpoint (chat completions).

    The server's own tool parser produces `tool_calls`; API failures after retries are
    `PolicyError` (infra), never a wrong answer."""

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        top_p: float | None = None,
        max_tokens: int | None = None,
        max_retries: int = 3,
        timeout_s: float = 120.0,
        price_in: float = 0.0,
        price_out: float = 0.0,
        client: Any = None,
    ):
        self.model = model
        self.temperature = temperature
        self.top_p = top_p
        self.max_tokens = max_tokens
        self.max_retries = max_retries
        self.price_in = price_in  # USD per million input tokens
        self.price_out = price_out
        self.client = client or make_client(base_url, api_key, timeout_s)

    async def act(self, messages: list[dict[str, Any]], ctx: EpisodeContext) -> PolicyReply:
        request: dict[str, Any] = {
            "model": self.model,
            # (a turn's `raw` text is for a raw-text model's context; chat APIs take no such field)
            "messages": [{k: v for k, v in m.items() if k != "raw"} for m in messages],
            "tools": ctx.tools,
            "temperature": self.temperature,
        }
        if self.top_p is not None:
            request["top_p"] = self.top_p
        if self.max_tokens is not None:
            request["max_tokens"] = self.max_tokens
        if ctx.seed is not None:
            request["seed"] = ctx.seed

        async def attempt() -> PolicyReply:
            resp = await self.client.chat.completions.create(**request)
            if not resp.choices:
                raise PolicyError("the model endpoint returned no choices")
            usage = Usage()
            if resp.usage is not None:
                usage.tokens_in = resp.usage.prompt_tokens or 0
                usage.tokens_out = resp.usage.completion_tokens or 0
                usage.cost_usd = (usage.tokens_in * self.price_in + usage.tokens_out * self.price_out) / 1e6
            return PolicyReply(resp.choices[0].message.model_dump(exclude_none=True), usage)

        return await call_with_retries(attempt, PolicyError, "model endpoint", self.max_retries)


class CompletionsPolicy:
    """A raw-text model on an OpenAI-compatible `/v1/completions` endpoint (e.g. vLLM).

    The prompt is rendered here with the model's own chat template from a local
    tokenizer (`transformers`, loaded offline), and the completion is returned as raw
    text for `tb_env.parties.interpret` to parse: the same path training takes, so evaluation
    and training read the model identically, and the prompt is the context training builds
    (earlier turns as written, thinking kept). (`OpenAIPolicy` relies on the server's tool
    parser and chat template instead.)"""

    def __init__(
        self,
        model: str,
        tokenizer: str | Any,
        base_url: str | None = None,
        api_key: str | None = None,
        temperature: float = 0.0,
        top_p: float | None = None,
        max_tokens: int = 2048,
        max_retries: int = 3,
        timeout_s: float = 300.0,
        client: Any = None,
    ):
        if isinstance(tokenizer, str):
            try:
                from transformers import AutoTokenizer
            except ImportError:
                raise ConfigError(
                    "--policy completions needs `transformers` for the chat template: pip install 'tb-env[completions]'"
                ) from None
            tokenizer = AutoTokenizer.from_pretrained(tokenizer, local_files_only=True)
        if not getattr(tokenizer, "chat_template", None):
            raise ConfigError("the tokenizer has no chat template; pass a tokenizer folder that defines one")
        self.tokenizer = tokenizer
        self.model = model
        self.temperature = temperature
        self.top_p = top_p
        self.max_tokens = max_tokens
        self.max_retries = max_retries
        self.client = client or make_client(base_url, api_key, timeout_s)

    def prompt(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
        """The context training builds (`tb_env.parties.chat`): earlier turns as the model wrote
        them, thinking included, whatever the template would do with a re-rendered history."""
        return ChatTokens(self.tokenizer, tools).context(messages)

    async def act(self, messages: list[dict[str, Any]], ctx: EpisodeContext) -> PolicyReply:
        request: dict[str, Any] = {
            "model": self.model,
            "prompt": self.prompt(messages, ctx.tools),
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if self.top_p is not None:
            request["top_p"] = self.top_p
        if ctx.seed is not None:
            request["seed"] = ctx.seed

        async def attempt() -> PolicyReply:
            resp = await self.client.completions.create(**request)
            if not resp.choices:
                raise PolicyError("the completions endpoint returned no choices")
            usage = Usage()
            if resp.usage is not None:
                usage.tokens_in = resp.usage.prompt_tokens or 0
                usage.tokens_out = resp.usage.completion_tokens or 0
            return PolicyReply(resp.choices[0].text or "", usage)

        return await call_with_retries(attempt, PolicyError, "completions endpoint", self.max_retries)
