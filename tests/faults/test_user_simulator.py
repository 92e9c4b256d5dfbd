"""A user simulator that breaks the task is detected and counted apart from the agent:
one that stops before the agent answered is an infra error (re-run, never a 0); one that
stops before the agent acted, or reveals facts outside its scenario, is flagged on the
trial and counted apart in the report."""

from __future__ import annotations

import asyncio

import pytest

import tb_env
from tb_env.evaluation.campaign import Campaign
from tb_env.evaluation.report import build_report
from tb_env.evaluation.results import read_lines
from tb_env.parties.user import STOP, user_anomalies

from ..openai_server import FakeOpenAI
from ..test_campaign import _mini_config, _oracle_responder


def _messages(*turns):
    task = tb_env.get_task("mini/deposit-001")
    out = [{"role": "system", "content": "policy"}, {"role": "user", "content": task.user.first_message}]
    out += [dict(t) for t in turns]
    return task, out


@pytest.mark.usefixtures("mini")
@pytest.mark.parametrize(
    ("turns", "end", "expected"),
    [
        ([{"role": "assistant", "content": None}], "user_stop", ["stopped_before_agent_answered"]),
        ([{"role": "assistant", "content": "Which account?"}, {"role": "user", "content": "bye"}], "user_stop",
         ["stopped_before_agent_acted"]),
        ([{"role": "assistant", "content": "Sure.", "tool_calls": [{"id": "1"}]},
          {"role": "tool", "content": '{"balance": 350.0}'}, {"role": "assistant", "content": "Done: 350."},
          {"role": "user", "content": "Great, and move 350 to B-99123 too"}], "user_stop", ["unscripted_fact"]),
        ([{"role": "assistant", "content": "Sure.", "tool_calls": [{"id": "1"}]},
          {"role": "tool", "content": '{"id": "A-001", "balance": 350.0}'},
          {"role": "assistant", "content": "Done: A-001 now holds 350."},
          {"role": "user", "content": "Thanks, A-001 it is"}], "user_stop", []),
        ([{"role": "assistant", "content": "Which account?"}], "agent_ended", []),
    ],
    ids=["silent-agent", "no-action", "invented-fact", "facts-from-the-tools", "agent-ended"],
)
def test_user_anomalies_are_detected(turns, end, expected):
    task, messages = _messages(*turns)
    assert user_anomalies(task, messages, end) == expected


def _campaign(tmp_path, url, sim):
    oracle = _oracle_responder()

    def respond(body):
        return {"role": "assistant", "content": sim(body)} if body["model"] == "sim" else oracle(body)

    cfg = _mini_config(tmp_path, url, trials=2, retries=1, user_model="sim")
    return Campaign(cfg, progress=False), respond


def test_a_user_that_stops_before_the_agent_answered_is_an_infra_error_never_a_zero(tmp_path, mini):
    with FakeOpenAI() as server:
        def policy_says_nothing_first(body):
            return {"role": "assistant", "content": ""}

        campaign, respond = _campaign(tmp_path, server.url, lambda body: f"never mind {STOP}")
        server.responder = lambda body: respond(body) if body["model"] == "sim" else policy_says_nothing_first(body)
        stats = asyncio.run(campaign.run())
    lines = read_lines(campaign.cfg.out, strict=True)
    assert stats.graded == 0 and len(lines) == 2
    for ln in lines:
        assert ln["reward"] is None and ln["infra_error"].startswith("user_simulator")
        assert ln["user_anomalies"] == ["stopped_before_agent_answered"] and ln["attempts"] == 2


def test_failures_with_user_anomalies_are_counted_apart_in_the_report(tmp_path, mini):
    with FakeOpenAI() as server:
        campaign, respond = _campaign(tmp_path, server.url, lambda body: f"Forget it, cancel order Q-55555. {STOP}")
        # the agent asks a question first: the simulator then quits, inventing an order
        asked = {"n": 0}

        def agent_asks_first(body):
            if body["model"] != "sim" and body["messages"][-1]["role"] == "user" and asked["n"] < 2:
                asked["n"] += 1
                return {"role": "assistant", "content": "Which account do you mean?"}
            return respond(body)

        server.responder = agent_asks_first
        asyncio.run(campaign.run())
    lines = read_lines(campaign.cfg.out, strict=True)
    assert all(ln["reward"] == 0.0 for ln in lines)
    assert all(set(ln["user_anomalies"]) == {"stopped_before_agent_acted", "unscripted_fact"} for ln in lines)
    summary = build_report(lines)["models"]["fake-model"]
    assert summary["failures_with_user_anomalies"] == 2
    assert summary["user_anomalies"] == {"stopped_before_agent_acted": 2, "unscripted_fact": 2}
