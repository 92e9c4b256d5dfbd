"""`tb-env eval`: resumable campaigns, infra errors that are never zeros, costs, caps."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

import tb_env
from tb_env.errors import ConfigError
from tb_env.evaluation.campaign import Campaign, EvalConfig
from tb_env.evaluation.results import read_lines

from .openai_server import FakeOpenAI
from .tiny_tokenizer import build_tokenizer

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "tests" / "packs" / "mini"


def _cli(*args: str, env: dict | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tb_env.cli.commands", *args], capture_output=True, text=True, timeout=timeout, env=env
    )


def test_sigkill_mid_campaign_then_resume_gives_every_pair_exactly_once(tmp_path):
    out = tmp_path / "r.jsonl"
    args = ["eval", "--policy", "noisy-oracle", "--domains", "retail", "--split", "all", "--trials", "6",
            "--concurrency", "4", "--quiet", "--out", str(out)]
    n_tasks = len(tb_env.list_tasks("retail"))
    for _ in range(2):  # two kills at different points, then a clean finish
        proc = subprocess.Popen([sys.executable, "-m", "tb_env.cli.commands", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        start = len(read_lines(out)) if out.exists() else 0
        deadline = time.time() + 120
        while time.time() < deadline and (not out.exists() or len(read_lines(out)) < start + 15):
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    assert len(read_lines(out)) < n_tasks * 6, "the campaign finished before it could be killed"
    done = _cli(*args)
    assert done.returncode == 0, done.stderr
    lines = read_lines(out, strict=True)
    pairs = Counter((ln["task_id"], ln["trial"]) for ln in lines)
    assert len(lines) == n_tasks * 6 == len(pairs)
    assert max(pairs.values()) == 1
    assert out.read_bytes().endswith(b"\n")
    for raw in out.read_text().splitlines():
        json.loads(raw)  # every line parses


def test_resume_refuses_a_different_configuration_and_names_the_difference(tmp_path):
    out = tmp_path / "r.jsonl"
    base = ["eval", "--policy", "noisy-oracle", "--domains", "retail", "--trials", "1", "--quiet", "--out", str(out)]
    assert _cli(*base).returncode == 0
    again = _cli(*base)
    assert again.returncode == 0 and "0 trials run" in again.stderr  # nothing missing
    more = _cli(*[a if a != "1" else "2" for a in base])  # more trials: the same campaign, extended
    assert more.returncode == 0 and f"{len(tb_env.list_tasks('retail', 'test'))} trials run" in more.stderr
    changed = _cli(*base, "--noise", "0.5", "--seed", "9")
    assert changed.returncode == 2
    assert "refusing to mix" in changed.stderr and "noise: 0.2 -> 0.5" in changed.stderr and "seed: 0 -> 9" in changed.stderr


def _oracle_responder(fail_every: int = 0, stall_every: int = 0):
    """A fake model that solves mini/deposit-001, with failures injected by request count."""
    count = {"n": 0}

    def respond(body: dict):
        count["n"] += 1
        if fail_every and count["n"] % fail_every == 0:
            return 500
        if stall_every and count["n"] % stall_every == 0:
            return ("stall", 3.0)
        last = body["messages"][-1]
        if last["role"] == "tool" and last.get("name") == "deposit":
            return {"role": "assistant", "content": "Done, your balance is $350.00."}
        if last["role"] == "user" and last["content"] == "Thanks!":
            return {"role": "assistant", "content": None, "tool_calls": [
                {"id": "e", "type": "function", "function": {"name": "end_conversation", "arguments": "{}"}}]}
        return {"role": "assistant", "content": None, "tool_calls": [
            {"id": "d", "type": "function", "function": {"name": "deposit", "arguments": '{"account_id": "A-001", "amount": 100}'}}]}

    return respond


def _mini_config(tmp_path: Path, url: str, **kw) -> EvalConfig:
    ids = tmp_path / "ids.txt"
    ids.write_text("mini/deposit-001\n")
    return EvalConfig(out=str(tmp_path / "r.jsonl"), model="fake-model", base_url=url, tasks_file=str(ids), **kw)


def test_openai_endpoint_errors_end_as_retries_or_infra_errors_never_zero(tmp_path, mini, monkeypatch):
    monkeypatch.setattr("tb_env.evaluation.campaign.make_client", _short_timeout_client)
    with FakeOpenAI() as server:
        server.responder = _oracle_responder(fail_every=4, stall_every=7)
        cfg = _mini_config(tmp_path, server.url, trials=12, concurrency=3, price_in=1.0, price_out=2.0, retries=1)
        policy_client = _short_timeout_client(server.url, "k", 1.0)
        campaign = Campaign(cfg, progress=False)
        campaign.policy.client = policy_client
        asyncio.run(campaign.run())
        requests = len(server.requests)
    lines = read_lines(cfg.out)
    assert requests > 12 * 3, "no failure was injected: a successful trial takes 3 model calls"
    assert len(lines) == 12
    rewards = Counter(ln["reward"] for ln in lines)
    assert 0.0 not in rewards, "an endpoint failure was scored as the model's failure"
    assert rewards[1.0] >= 8
    for ln in lines:
        assert (ln["reward"] is None) == (ln["infra_error"] is not None)
        assert ln["cost_usd"] == pytest.approx((ln["tokens_in"] * 1.0 + ln["tokens_out"] * 2.0) / 1e6)


def _short_timeout_client(base_url, api_key, timeout_s):
    from tb_env.parties.endpoint import make_client

    return make_client(base_url, api_key, 1.0)


def test_a_dead_endpoint_aborts_the_campaign_with_infra_errors_only(tmp_path, mini):
    with FakeOpenAI() as server:
        server.responder = lambda body: 503
        cfg = _mini_config(tmp_path, server.url, trials=30, concurrency=2, retries=0, max_infra_errors=3)
        campaign = Campaign(cfg, progress=False)
        campaign.policy.max_retries = 0
        stats = asyncio.run(campaign.run())
    lines = read_lines(cfg.out)
    assert stats.stop_reason and stats.stop_reason.startswith("aborted") and "503" in stats.stop_reason
    assert 4 <= len(lines) < 30
    assert all(ln["reward"] is None and ln["infra_error"].startswith("policy_endpoint") for ln in lines)


def test_spending_cap_stops_cleanly(tmp_path, mini):
    with FakeOpenAI() as server:
        server.responder = _oracle_responder()
        # 2 model calls per trial (the customer leaves after the answer) x 18 tokens x $10k/M = $0.36 a trial
        cfg = _mini_config(tmp_path, server.url, trials=20, concurrency=1, price_in=10_000, price_out=10_000, max_cost_usd=0.6)
        stats = asyncio.run(Campaign(cfg, progress=False).run())
    lines = read_lines(cfg.out)
    assert stats.stop_reason.startswith("stopped at the spending cap")
    assert len(lines) == 2 and all(ln["reward"] == 1.0 for ln in lines)


def test_trajectories_user_cache_and_llm_user_anomalies(tmp_path, mini):
    with FakeOpenAI() as server:
        def respond(body):
            if body["model"] == "sim":  # the user simulator: invents an order id once, then stops
                return {"role": "assistant", "content": "Also my order Q-77123 is late. ###STOP###"}
            return {"role": "assistant", "content": "Hello! How can I help?"}

        server.responder = respond
        cache = tmp_path / "users.sqlite"
        cfg = _mini_config(tmp_path, server.url, trials=2, user_model="sim", user_cache=str(cache),
                           save_trajectories=str(tmp_path / "traj"))
        asyncio.run(Campaign(cfg, progress=False).run())
        sim_calls = sum(1 for r in server.requests if r["model"] == "sim")
        lines = read_lines(cfg.out)
        assert all(ln["user_anomalies"] == ["stopped_before_agent_acted", "unscripted_fact"] for ln in lines)
        assert all(ln["user_model"] == "sim" and ln["user_tokens_in"] == 11 for ln in lines)
        traj = json.loads((tmp_path / "traj" / "mini__deposit-001__0.json").read_text())
        assert traj["messages"][-1]["content"].startswith("Also my order") and traj["check"]["reward"] == 0.0
        # a rerun of the same campaign into a new file replays the cached user
        cfg2 = cfg.model_copy(update={"out": str(tmp_path / "r2.jsonl")})
        asyncio.run(Campaign(cfg2, progress=False).run())
        assert sum(1 for r in server.requests if r["model"] == "sim") == sim_calls


def test_same_seed_same_order_and_same_results(tmp_path):
    def run(name: str, seed: int) -> list[tuple]:
        cfg = EvalConfig(out=str(tmp_path / name), policy="noisy-oracle", noise=0.4, domains=["retail"], trials=2,
                         seed=seed, concurrency=1)
        asyncio.run(Campaign(cfg, progress=False).run())
        return [(ln["task_id"], ln["trial"], ln["reward"], ln["seed"]) for ln in read_lines(cfg.out)]

    a, b, c = run("a.jsonl", 5), run("b.jsonl", 5), run("c.jsonl", 6)
    assert a == b
    assert [x[:2] for x in a] != [x[:2] for x in c]  # another seed, another order
    assert [x[1] for x in a[: len(a) // 2]] == [0] * (len(a) // 2)  # every task once before any twice


def test_completions_policy_renders_with_a_local_chat_template(tmp_path, mini):
    tokenizer_dir = tmp_path / "tok"
    build_tokenizer(tokenizer_dir)
    with FakeOpenAI() as server:
        server.replies.extend([
            {"content": '<think>deposit first</think><tool_call>{"name": "deposit", "arguments": {"account_id": "A-001", "amount": "100"}}</tool_call>'},
            {"content": "Your balance is now $350.00."},
            {"content": '<tool_call>{"name": "end_conversation", "arguments": {}}</tool_call>'},
        ])
        cfg = _mini_config(tmp_path, server.url, policy="completions", tokenizer=str(tokenizer_dir), trials=1)
        asyncio.run(Campaign(cfg, progress=False).run())
    (line,) = read_lines(cfg.out)
    assert line["reward"] == 1.0 and line["parse_errors"] == 0
    prompt = server.requests[1]["prompt"]
    assert prompt.startswith("<|im_start|>system") and "<tools>" in prompt and prompt.endswith("<|im_start|>assistant\n")
    # the call and its result went back into the next prompt as the model wrote it, its thinking kept
    # (as training keeps it: tests/test_rollout.py checks the two contexts are the same text)
    assert '<think>deposit first</think><tool_call>{"name": "deposit"' in prompt and '"balance": 350.0' in prompt


def test_unknown_task_file_and_missing_model_are_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="needs --model"):
        Campaign(EvalConfig(out=str(tmp_path / "x.jsonl"), policy="chat", domains=["retail"]))
    with pytest.raises(ConfigError, match="no such file"):
        Campaign(EvalConfig(out=str(tmp_path / "x.jsonl"), policy="oracle", tasks_file=str(tmp_path / "nope.txt")))


def test_demo_runs_eval_then_report_and_resumes(tmp_path):
    out = _cli("demo", "--trials", "2", "--split", "train", "--out-dir", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "$ tb-env eval --policy oracle" in out.stdout and "$ tb-env report" in out.stdout
    assert "== oracle:" in out.stdout and "== noisy-oracle(p=0.15):" in out.stdout and "pass^2" in out.stdout
    assert (tmp_path / "report.html").exists()
    again = _cli("demo", "--trials", "2", "--split", "train", "--out-dir", str(tmp_path))
    assert "0 trials run" in again.stderr  # everything was already there
