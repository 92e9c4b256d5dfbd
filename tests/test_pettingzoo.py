"""The PettingZoo AEC env: passes the API test; the dialogue takes turns; the check is the assistant's reward."""

from __future__ import annotations

from pettingzoo.test import api_test

from tb_env.core.pettingzoo import ASSISTANT, USER, env


def test_aec_env_passes_pettingzoo_api_test(mini):
    api_test(env(task_id="mini/deposit-001", max_turns=6), num_cycles=30)


def test_retail_dialogue_passes_api_test():
    api_test(env(domain="retail", max_turns=4), num_cycles=20)


def test_turns_alternate_and_the_state_check_is_the_assistants_reward(mini):
    aec = env(task_id="mini/deposit-001")
    aec.reset(seed=0)
    assert aec.agent_selection == ASSISTANT
    assert "Mini bank policy" in aec.observe(ASSISTANT) and "Owner of A-001" in aec.observe(USER)
    aec.step('<tool_call>{"name": "deposit", "arguments": {"account_id": "A-001", "amount": 100}}</tool_call>')
    assert aec.agent_selection == ASSISTANT  # tool calls: the assistant acts again
    aec.step("Done, your balance is $350.")
    assert aec.agent_selection == USER
    assert "agent: Done, your balance is $350." in aec.observe(USER)
    aec.step("Thanks, bye! ###STOP###")
    _, _, term, _, info = aec.last()
    assert term and aec._cumulative_rewards[ASSISTANT] == 1.0 and aec._cumulative_rewards[USER] == 0.0
    assert info["end_reason"] == "user_stop"
    aec.close()


def test_a_wrong_dialogue_scores_zero(mini):
    aec = env(task_id="mini/deposit-001")
    aec.reset(seed=1)
    aec.step("Sorry, I cannot help.")
    aec.step("###STOP###")
    assert all(aec.terminations.values()) and aec._cumulative_rewards[ASSISTANT] == 0.0
    aec.close()
