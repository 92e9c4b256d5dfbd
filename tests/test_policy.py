"""Policies: the oracle, the noisy oracle, and a chat model over real HTTP."""

from __future__ import annotations

import asyncio
import json

import tb_env
from tb_env.parties.policy import EpisodeContext, NoisyOraclePolicy, OpenAIPolicy

from .openai_server import FakeOpenAI


def _tool_msg(name: str, **args: object) -> dict:
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}],
    }


def test_openai_policy_drives_an_episode_with_tools_over_http(mini):
    with FakeOpenAI() as server:
        server.replies.extend(
            [
                _tool_msg("deposit", account_id="A-001", amount=100),
                {"role": "assistant", "content": "Deposited. Your balance is $350.00."},  # the customer then leaves
            ]
        )
        policy = OpenAIPolicy("agent-1", base_url=server.url, price_in=1.0, price_out=2.0)
        result = asyncio.run(tb_env.run_episode("mini/deposit-001", policy, seed=7))
    assert result.reward == 1.0 and result.infra_error is None
    assert result.usage.tokens_in == 22 and result.usage.tokens_out == 14 and result.end_reason == "user_stop"
    assert abs(result.usage.cost_usd - (22 * 1.0 + 14 * 2.0) / 1e6) < 1e-12
    first = server.requests[0]
    assert first["model"] == "agent-1" and first["seed"] == 7
    assert {t["function"]["name"] for t in first["tools"]} >= {"deposit", "end_conversation"}
    assert first["messages"][0]["role"] == "system"
    # the tool result went back to the model in OpenAI format, tied to its call id
    assert server.requests[1]["messages"][-1]["role"] == "tool"
    assert server.requests[1]["messages"][-1]["tool_call_id"] == "c1"


def test_model_endpoint_failure_is_an_infra_error_never_a_zero(mini):
    with FakeOpenAI() as server:
        server.replies.extend([500, 502, 503, 500])
        policy = OpenAIPolicy("m", base_url=server.url, max_retries=3)
        result = asyncio.run(tb_env.run_episode("mini/deposit-001", policy))
    assert result.reward is None and result.infra_error.startswith("policy_endpoint:")
    assert len(server.requests) == 4


def test_model_endpoint_recovers_after_transient_errors(mini):
    with FakeOpenAI() as server:
        server.replies.extend([429, 500, _tool_msg("end_conversation")])
        result = asyncio.run(tb_env.run_episode("mini/deposit-001", OpenAIPolicy("m", base_url=server.url)))
    assert result.infra_error is None and result.reward == 0.0  # ended without doing the deposit


def test_bad_request_is_not_retried(mini):
    with FakeOpenAI() as server:
        server.replies.extend([400, 400])
        result = asyncio.run(tb_env.run_episode("mini/deposit-001", OpenAIPolicy("m", base_url=server.url)))
    assert result.infra_error is not None and len(server.requests) == 1


def test_noisy_oracle_is_deterministic_per_seed_and_varies_across_trials(mini):
    task = tb_env.get_task("mini/refuse-close-001")
    noisy = NoisyOraclePolicy(p=0.5, seed=1)
    plans = {s: noisy.script(EpisodeContext(task, [], s, 0)) for s in range(30)}
    assert plans[3] == noisy.script(EpisodeContext(task, [], 3, 0))
    assert len({json.dumps([str(x) for x in p]) for p in plans.values()}) > 1
    rewards = [asyncio.run(tb_env.run_episode(task, noisy, seed=s)).reward for s in range(12)]
    assert 0.0 in rewards and 1.0 in rewards


def test_oracle_in_openai_format_scores_one(mini):
    result = asyncio.run(tb_env.run_episode("mini/refuse-close-001", tb_env.OraclePolicy(format="openai")))
    assert result.reward == 1.0 and result.parse_errors == 0
