"""The rubric judge: a real OpenAI client against a local server; verdicts cached; failures are infra."""

from __future__ import annotations

import asyncio

import tb_env
from tb_env.parties.judge import Judge

from .openai_server import FakeOpenAI


def _rubric_task():
    task = tb_env.get_task("mini/deposit-001")
    return task.model_copy(update={"id": "mini/rubric-judge", "rubrics": ["Did the agent state the new balance?"]})


def test_judge_grades_rubrics_and_caches_its_verdicts(mini, tmp_path):
    task = _rubric_task()
    with FakeOpenAI() as server:
        server.responder = lambda body: {"role": "assistant", "content": "Yes."}
        judge = Judge("judge-1", base_url=server.url, cache_path=str(tmp_path / "j.sqlite"))
        r1 = asyncio.run(tb_env.run_episode(task, tb_env.OraclePolicy(), judge=judge))
        r2 = asyncio.run(tb_env.run_episode(task, tb_env.OraclePolicy(), judge=judge))
        assert r1.reward == 1.0 and r2.reward == 1.0 and r1.skipped is None
        assert len(server.requests) == 1  # the second episode's identical transcript hit the cache
        body = server.requests[0]
        assert body["temperature"] == 0.0 and body["model"] == "judge-1"
        assert "QUESTION: Did the agent state the new balance?" in body["messages"][1]["content"]
        assert "AGENT CALLS deposit" in body["messages"][1]["content"]
        # a new Judge on the same cache file does not ask again
        again = Judge("judge-1", base_url=server.url, cache_path=str(tmp_path / "j.sqlite"))
        asyncio.run(tb_env.run_episode(task, tb_env.OraclePolicy(), judge=again))
        assert len(server.requests) == 1


def test_a_no_from_the_judge_fails_the_task_even_when_the_state_is_right(mini):
    with FakeOpenAI() as server:
        server.responder = lambda body: {"role": "assistant", "content": "no"}
        result = asyncio.run(tb_env.run_episode(_rubric_task(), tb_env.OraclePolicy(), judge=Judge("j", base_url=server.url)))
    assert result.reward == 0.0 and result.check["state_match"] is True
    assert any(a["kind"] == "rubric" and not a["passed"] for a in result.check["assertions"])


def test_judge_failure_is_an_infra_error_and_gibberish_is_retried(mini):
    with FakeOpenAI() as server:
        server.responder = lambda body: 500
        result = asyncio.run(tb_env.run_episode(_rubric_task(), tb_env.OraclePolicy(), judge=Judge("j", base_url=server.url, max_retries=1)))
        assert result.reward is None and result.infra_error.startswith("judge:")
    with FakeOpenAI() as server:
        server.replies.extend([{"role": "assistant", "content": "maybe"}, {"role": "assistant", "content": "YES"}])
        result = asyncio.run(tb_env.run_episode(_rubric_task(), tb_env.OraclePolicy(), judge=Judge("j", base_url=server.url)))
        assert result.reward == 1.0 and len(server.requests) == 2


def test_without_a_judge_a_rubric_task_is_skipped_in_the_env(mini):
    import gymnasium as gym

    env = gym.make("tb_env/Mini-v0")
    env.unwrapped._task_index["mini/rubric-judge"] = _rubric_task()
    env.reset(options={"task_id": "mini/rubric-judge"})
    _, reward, term, _, info = env.step('<tool_call>{"name": "end_conversation", "arguments": {}}</tool_call>')
    assert term and reward is None and info["skipped"] == "no_judge"
    env.close()
