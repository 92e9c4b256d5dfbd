"""The gymnasium contract: spaces, reset/step/close, sync and async, rewards, errors."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

import tb_env
from tb_env.errors import ConfigError, UnknownDomainError, UnknownTaskError

CALL = '<tool_call>{{"name": "{name}", "arguments": {args}}}</tool_call>'


def call(name: str, **args: object) -> str:
    return CALL.format(name=name, args=json.dumps(args))


def test_check_env_passes_on_the_raw_env(mini):
    env = gym.make("tb_env/Mini-v0")
    check_env(env.unwrapped)
    env.close()


def test_retail_env_passes_check_env_and_lists_mcp_tools():
    env = gym.make("tb_env/Retail-v0", split="test")
    check_env(env.unwrapped)
    _obs, info = env.reset(seed=0)
    names = {t["function"]["name"] for t in info["tools"]}
    assert {"get_order", "end_conversation"} <= names
    assert len(names) >= 21  # at least 20 domain tools plus the end tool
    assert info["messages"][0]["role"] == "system" and info["messages"][1]["role"] == "user"
    assert info["task_id"].startswith("retail/")
    env.close()


def test_reset_options_pick_the_task_and_seed_picks_deterministically(mini):
    env = gym.make("tb_env/Mini-v0")
    _, info = env.reset(options={"task_id": "mini/refuse-close-001"})
    assert info["task_id"] == "mini/refuse-close-001"
    picks = {env.reset(seed=s)[1]["task_id"] for s in range(20)}
    assert picks == {"mini/deposit-001", "mini/refuse-close-001"}
    assert [env.reset(seed=3)[1]["task_id"] for _ in range(3)] == [env.reset(seed=3)[1]["task_id"]] * 3
    env.close()


def test_tool_call_goes_to_the_database_and_result_comes_back(mini):
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/deposit-001"})
    obs, reward, term, trunc, info = env.step(call("deposit", account_id="A-001", amount="100"))
    assert json.loads(obs.split(": ", 1)[1])["balance"] == 350.0  # "100" coerced to a number
    assert (reward, term, trunc) == (0.0, False, False)
    assert info["messages"][-1]["role"] == "tool"
    env.close()


def test_oracle_path_scores_one_and_agent_end_terminates(mini):
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/deposit-001"})
    env.step(call("deposit", account_id="A-001", amount=100))
    # the reply and the end tool in one message: the agent ends before the user answers
    _, reward, term, trunc, info = env.step("Done: your balance is $350.00. " + call("end_conversation"))
    assert (reward, term, trunc, info["end_reason"]) == (1.0, True, False, "agent_ended")
    assert info["check"]["state_match"] and info["check"]["failed"] == []
    env.close()


def test_wrong_write_scores_zero_with_a_row_diff(mini):
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/deposit-001"})
    env.step(call("deposit", account_id="A-001", amount=10))
    _, reward, term, _, info = env.step("Your balance is 350.")  # the user thinks it is done: it stops
    assert term and reward == 0.0 and info["end_reason"] == "user_stop"
    assert any("accounts[A-001]: balance=260" in line for line in info["check"]["diff"])
    env.close()


def test_truncation_at_max_turns_is_graded_on_the_final_state(mini):
    env = gym.make("tb_env/Mini-v0", max_turns=2)
    env.reset(options={"task_id": "mini/deposit-001"})
    _, r1, _, t1, _ = env.step(call("get_account", account_id="A-001"))
    _, r2, term, trunc, info = env.step(call("deposit", account_id="A-001", amount=100))
    assert (r1, t1) == (0.0, False)
    assert trunc and not term and info["end_reason"] == "max_turns"
    assert info["check"]["state_match"] is True and r2 == 0.0  # state right, reply missing
    env.close()


def test_several_calls_in_one_message_run_in_order_and_errors_do_not_stop_the_rest(mini):
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/deposit-001"})
    action = "Working on it." + call("nope") + call("deposit", account_id="A-001", amount=5000) + call(
        "deposit", account_id="A-001", amount=100
    )
    _obs, _, _, _, info = env.step(action)
    tools = [m for m in info["messages"] if m["role"] == "tool"]
    assert [m["name"] for m in tools] == ["nope", "deposit", "deposit"]
    assert tools[0]["content"].startswith("Error: Unknown tool") and "between 0 and 1000" in tools[1]["content"]
    assert json.loads(tools[2]["content"])["balance"] == 350.0
    assert info["tool_errors"] == 2 and info["tool_calls"] == 3
    assert info["messages"][-4]["content"] == "Working on it."  # content kept for the user to see
    env.close()


def test_every_tool_call_reaches_the_mcp_handler(mini):
    from tb_env.core.toolserver import tool_server

    server = tool_server(mini)
    before = server.calls_handled
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/refuse-close-001"})
    env.step(call("get_account", account_id="A-003") + call("get_account", account_id="A-004"))
    env.step(call("add_note", account_id="A-003", text="x"))
    env.step(call("bogus_tool"))
    _, _, _, _, info = env.step(call("end_conversation"))
    in_transcript = sum(len(m.get("tool_calls") or []) for m in info["messages"] if m["role"] == "assistant")
    assert in_transcript == 5
    assert info["mcp_tool_calls"] == in_transcript
    assert server.calls_handled - before == in_transcript
    env.close()


@pytest.mark.parametrize(
    "action",
    [
        "",
        "\x00\x01\x02 garbage \ud800",
        "<tool_call>{not json</tool_call>",
        "<tool_call>",
        '<tool_call>{"name": "deposit", "arguments": {"account_id": "A-001", "amount": "lots"}}</tool_call>',
        '<tool_call>{"name": "deposit", "arguments": {}}</tool_call>',
        '<tool_call>{"name": "deposit", "arguments": [1, 2]}</tool_call>',
        '<tool_call>{"arguments": {}}</tool_call>',
        '<tool_call>{"name": "add_note", "arguments": {"account_id": "A-001", "text": "' + "x" * 1_000_000 + '"}}</tool_call>',
        "<think>unterminated " + "<tool_call>" * 1000,
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "function": {"name": "deposit", "arguments": "{bad"}}]},
        {"role": "assistant"},
    ],
)
def test_bad_actions_become_observations_not_crashes(mini, action):
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/deposit-001"})
    obs, _reward, _term, _trunc, info = env.step(action)
    assert isinstance(obs, str)
    assert info["infra_error"] is None
    assert info["parse_errors"] + info["tool_errors"] >= 1 or obs.startswith("user:")
    env.close()


def test_argument_errors_are_reported_to_the_agent(mini):
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/deposit-001"})
    obs, _, _, _, info = env.step(call("deposit", account_id="A-001", amount="lots"))
    assert "Invalid arguments for deposit" in obs and "amount" in obs
    obs, _, _, _, info = env.step(call("deposit", account_id="A-001"))
    assert "amount" in obs and "required" in obs.lower()
    obs, _, _, _, info = env.step(call("set_status", account_id="A-001", status="deleted"))
    assert "status" in obs and info["tool_errors"] == 3
    env.close()


def test_malformed_call_gets_environment_feedback_and_no_user_turn(mini):
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/deposit-001"})
    obs, _, term, _, info = env.step("<tool_call>{broken</tool_call>")
    assert obs.startswith("environment: ") and "malformed" in obs
    assert info["parse_errors"] == 1 and not term
    assert [m["role"] for m in info["messages"]].count("user") == 2  # first message + feedback only
    env.close()


def test_a_crashing_tool_is_an_infra_error_never_a_zero(mini):
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/deposit-001"})
    _, reward, term, _, info = env.step(call("crash"))
    assert term and reward is None
    assert info["infra_error"].startswith("tool_server: tool_crash") and info["end_reason"] == "infra_error"
    assert "check" not in info
    env.close()


def test_openai_message_dicts_are_accepted_as_actions(mini):
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/deposit-001"})
    msg = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "abc", "type": "function", "function": {"name": "deposit", "arguments": '{"account_id": "A-001", "amount": 100}'}}
        ],
    }
    _, _, _, _, info = env.step(msg)
    assert info["messages"][-1]["tool_call_id"] == "abc"
    assert json.loads(info["messages"][-1]["content"])["balance"] == 350.0
    env.close()


def test_step_after_the_end_raises_a_typed_error(mini):
    env = gym.make("tb_env/Mini-v0")
    env.reset(options={"task_id": "mini/deposit-001"})
    env.step(call("end_conversation"))
    with pytest.raises(tb_env.core.episode.EpisodeEndedError, match="reset"):
        env.unwrapped.step("hello")
    env.close()


def test_close_is_idempotent_and_releases_the_episode(mini):
    from tb_env.core.toolserver import tool_server

    env = gym.make("tb_env/Mini-v0")
    _, _info = env.reset(options={"task_id": "mini/deposit-001"})
    ep = env.unwrapped.episode
    assert ep.id in tool_server(mini).bindings
    env.close()
    env.close()
    assert ep.id not in tool_server(mini).bindings and ep.db is None
    gym.make("tb_env/Mini-v0").close()  # never reset: nothing to release


def test_async_api_runs_on_the_callers_loop(mini):
    async def main() -> tuple:
        env = gym.make("tb_env/Mini-v0")
        await env.unwrapped.areset(options={"task_id": "mini/deposit-001"})
        await env.unwrapped.astep(call("deposit", account_id="A-001", amount=100))
        out = await env.unwrapped.astep("Balance is 350.")  # the user's request is handled: it ends
        await env.unwrapped.aclose()
        await env.unwrapped.aclose()
        return out

    _, reward, term, _, _ = asyncio.run(main())
    assert reward == 1.0 and term


def test_sync_api_works_inside_a_running_loop(mini):
    async def main() -> float:
        env = gym.make("tb_env/Mini-v0")
        env.reset(options={"task_id": "mini/deposit-001"})  # would fail with asyncio.run inside
        env.step(call("deposit", account_id="A-001", amount=100))
        _, reward, *_ = env.step("Now 350.")
        env.close()
        return reward

    assert asyncio.run(main()) == 1.0


def test_constructing_an_env_starts_no_event_loop():
    code = (
        "import gymnasium as gym, tb_env, tb_env.core.loop as l, threading\n"
        "env = gym.make('tb_env/Retail-v0')\n"
        "assert not l.started(), 'loop started at construction'\n"
        "assert [t.name for t in threading.enumerate()] == ['MainThread'], threading.enumerate()\n"
        "env.reset(seed=0); assert l.started(); env.close()\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr


def test_bench_env_spans_all_domains_with_test_split_default():
    env = gym.make("tb_env/Bench-v0")
    assert env.unwrapped.split == "test"
    assert {t.split for t in env.unwrapped.tasks} == {"test"}
    assert {t.domain for t in env.unwrapped.tasks} >= {"retail"}
    env.close()


def test_configuration_errors_fail_fast_with_a_message():
    with pytest.raises(UnknownDomainError, match="Registered domains"):
        tb_env.TBEnv(domain="nope")
    with pytest.raises(ConfigError, match="task_ids not found"):
        tb_env.TBEnv(domain="retail", task_ids=["retail/does-not-exist"])
    with pytest.raises(UnknownTaskError):
        tb_env.get_task("retail/does-not-exist")
    env = tb_env.TBEnv(domain="retail")
    with pytest.raises(UnknownTaskError):
        env.reset(options={"task_id": "retail/does-not-exist"})
    env.close()
