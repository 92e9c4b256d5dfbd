"""User simulators: the scripted one, and LLMUser over real HTTP with the real client."""

from __future__ import annotations

import asyncio
import json

import gymnasium as gym
import pytest

import tb_env
from tb_env.errors import ConfigError, SimulatorError
from tb_env.parties.user import STOP, LLMUser, ScriptedUser

from .openai_server import FakeOpenAI


def test_scripted_user_says_its_turns_in_order_then_stops(mini):
    task = tb_env.get_task("mini/deposit-001")
    user = ScriptedUser()
    msgs = [{"role": "system", "content": "p"}, {"role": "user", "content": task.user.first_message}]
    first = asyncio.run(user.reply(task, msgs))
    assert first == "Thanks!"
    msgs += [{"role": "assistant", "content": "a"}, {"role": "user", "content": first}]
    assert asyncio.run(user.reply(task, msgs)) == STOP


def test_llm_user_plays_the_persona_over_http_and_can_end_the_episode(mini):
    with FakeOpenAI() as server:
        server.replies.extend(
            [
                {"role": "assistant", "content": "My account is A-001."},
                {"role": "assistant", "content": "Great, thanks. ###STOP###"},
            ]
        )
        user = LLMUser(model="sim-1", base_url=server.url, api_key="k")
        env = gym.make("tb_env/Mini-v0", user=user)
        env.reset(seed=0, options={"task_id": "mini/deposit-001"})
        obs, _, term, _, _ = env.step("Which account?")
        assert obs == "user: My account is A-001." and not term
        env.step('<tool_call>{"name": "deposit", "arguments": {"account_id": "A-001", "amount": 100}}</tool_call>')
        obs, reward, term, _, info = env.step("Done, your balance is 350.")
        assert term and info["end_reason"] == "user_stop" and reward == 1.0
        assert info["messages"][-1] == {"role": "user", "content": "Great, thanks."}
        env.close()
        first, second = server.requests
        assert first["model"] == "sim-1" and first["temperature"] == 0.0
        system = first["messages"][0]["content"]
        assert "Owner of A-001" in system and "account_id: A-001" in system and STOP in system
        # roles are swapped: the agent speaks as "user" to the simulator, tool traffic is hidden
        assert [m["role"] for m in second["messages"]] == ["system", "assistant", "user", "assistant", "user"]
        assert all("tool_call" not in json.dumps(m) for m in second["messages"])
        assert isinstance(first.get("seed"), int)


def test_llm_user_retries_server_errors_then_succeeds(mini):
    with FakeOpenAI() as server:
        server.replies.extend([500, 429, {"role": "assistant", "content": "Hello again"}])
        user = LLMUser(model="m", base_url=server.url, max_retries=3)
        task = tb_env.get_task("mini/deposit-001")
        text = asyncio.run(user.reply(task, [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "?"}]))
        assert text == "Hello again" and len(server.requests) == 3


def test_llm_user_failure_is_an_infra_error_not_a_zero(mini):
    with FakeOpenAI() as server:
        server.replies.extend([503] * 10)
        user = LLMUser(model="m", base_url=server.url, max_retries=2)
        env = gym.make("tb_env/Mini-v0", user=user)
        env.reset(options={"task_id": "mini/deposit-001"})
        _, reward, term, _, info = env.step("How can I help?")
        assert term and reward is None
        assert info["infra_error"].startswith("user_simulator:") and "check" not in info
        assert len(server.requests) == 3
        env.close()


def test_llm_user_timeout_is_an_infra_error(mini):
    with FakeOpenAI() as server:
        server.replies.extend([("stall", 2.0)] * 3)
        user = LLMUser(model="m", base_url=server.url, max_retries=1, timeout_s=0.3)
        with pytest.raises(SimulatorError, match="failed after 2 attempts"):
            asyncio.run(user.reply(tb_env.get_task("mini/deposit-001"), [{"role": "user", "content": "hi"}]))


def test_llm_user_needs_a_model(monkeypatch):
    monkeypatch.delenv("TB_USER_MODEL", raising=False)
    with pytest.raises(ConfigError, match="TB_USER_MODEL"):
        LLMUser()
