"""Model and simulator endpoint faults, from a real HTTP server: `tb-env eval` retries
within its limits and reports what is left as infra errors, never as a 0."""

from __future__ import annotations

import asyncio
import time

import pytest

from tb_env.evaluation.campaign import Campaign
from tb_env.evaluation.results import read_lines
from tb_env.parties.endpoint import make_client

from ..openai_server import FakeOpenAI
from ..test_campaign import _mini_config, _oracle_responder

FAULTS = {
    "429-retry-after": ("status", 429, {"Retry-After": "0"}),
    "500": 500,
    "502": 502,
    "503": 503,
    "timeout": ("stall", 3.0),
    "truncated": "truncated",
    "invalid-json": "garbage",
    "no-choices": {"__empty__": True},
}


def _with_fault(fault, first_only: bool):
    """The oracle model; the fault answers the first request only, or every request."""
    oracle = _oracle_responder()
    state = {"n": 0}

    def respond(body):
        state["n"] += 1
        if first_only and state["n"] > 1:
            return oracle(body)
        return fault

    return respond


def _campaign(tmp_path, url, **kw) -> Campaign:
    campaign = Campaign(_mini_config(tmp_path, url, **kw), progress=False)
    campaign.policy.client = make_client(url, "k", 1.0)  # a 1 s time-out: the stall is a time-out
    return campaign


@pytest.fixture(autouse=True)
def _no_choices(monkeypatch):
    """`{"__empty__": True}` in FAULTS: a 200 answer without choices (a broken proxy)."""
    import tests.openai_server as fake

    real = fake.json.dumps

    def dumps(obj, *a, **k):
        if isinstance(obj, dict) and obj.get("choices") and obj["choices"][0].get("message") == {"__empty__": True}:
            obj = {**obj, "choices": []}
        return real(obj, *a, **k)

    monkeypatch.setattr(fake.json, "dumps", dumps)


@pytest.mark.parametrize("kind", list(FAULTS))
def test_one_endpoint_fault_is_retried_and_the_trial_scores_normally(tmp_path, mini, kind):
    with FakeOpenAI() as server:
        server.responder = _with_fault(FAULTS[kind], first_only=True)
        campaign = _campaign(tmp_path, server.url, trials=1, retries=0)
        asyncio.run(campaign.run())
        requests = len(server.requests)
    (line,) = read_lines(campaign.cfg.out, strict=True)
    assert line["reward"] == 1.0 and line["infra_error"] is None, line
    assert requests == 3  # the failed call and its retry, then the reply (after which the customer leaves)


@pytest.mark.parametrize("kind", list(FAULTS))
def test_a_persistent_endpoint_fault_is_an_infra_error_never_a_zero(tmp_path, mini, kind):
    with FakeOpenAI() as server:
        server.responder = _with_fault(FAULTS[kind], first_only=False)
        campaign = _campaign(tmp_path, server.url, trials=2, retries=1)
        campaign.policy.max_retries = 1
        stats = asyncio.run(campaign.run())
        requests = len(server.requests)
    lines = read_lines(campaign.cfg.out, strict=True)
    assert len(lines) == 2 and stats.infra == 2 and stats.graded == 0
    for ln in lines:
        assert ln["reward"] is None and ln["infra_error"].startswith("policy_endpoint"), ln
        assert ln["attempts"] == 2  # the campaign's own retry of the trial, within --retries
    assert requests == 2 * 2 * 2  # trials x campaign attempts x endpoint attempts: no more


def test_retry_after_is_honoured(tmp_path, mini):
    oracle = _oracle_responder()
    seen: list[float] = []

    def respond(body):
        seen.append(time.monotonic())
        return ("status", 429, {"Retry-After": "2"}) if len(seen) == 1 else oracle(body)

    with FakeOpenAI() as server:
        server.responder = respond
        campaign = _campaign(tmp_path, server.url, trials=1, retries=0)
        asyncio.run(campaign.run())
    (line,) = read_lines(campaign.cfg.out)
    assert line["reward"] == 1.0
    assert seen[1] - seen[0] >= 1.9, "the retry came before the server's Retry-After"


@pytest.mark.parametrize("kind", ["500", "invalid-json", "truncated", "no-choices"])
def test_user_simulator_endpoint_faults_are_infra_errors(tmp_path, mini, kind):
    oracle = _oracle_responder()

    def respond(body):
        return FAULTS[kind] if body["model"] == "sim" else oracle(body)

    with FakeOpenAI() as server:
        server.responder = respond
        campaign = _campaign(tmp_path, server.url, trials=1, retries=0, user_model="sim")
        campaign._user_client = make_client(server.url, "k", 1.0)
        asyncio.run(campaign.run())
    (line,) = read_lines(campaign.cfg.out, strict=True)
    assert line["reward"] is None and line["infra_error"].startswith("user_simulator"), line
