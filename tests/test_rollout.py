"""Token-in/token-out rollouts: exact model tokens, masked environment tokens, budgets."""

from __future__ import annotations

import asyncio
import itertools
import json

import pytest

import tb_env
from tb_env.parties.interpret import render_tool_call
from tb_env.training.rollout import ChatTokens, rollout, rollout_many

from .tiny_tokenizer import build_tokenizer

TOK = build_tokenizer()
EOS = TOK.eos_token_id


def scripted(turns: list[str], record: list | None = None):
    """A `generate` that says the given turns in order (each ended by the eos token)."""
    state = {"i": 0}

    async def generate(prompt_ids: list[int], sampling: dict) -> tuple[list[int], list[float]]:
        text = turns[min(state["i"], len(turns) - 1)]
        state["i"] += 1
        ids = [*TOK.encode(text, add_special_tokens=False)[:sampling["max_tokens"] - 1], EOS]
        if record is not None:
            record.append((list(prompt_ids), ids))
        return ids, [-0.5] * len(ids)

    return generate


def call(name: str, **args) -> str:
    return render_tool_call(tb_env.ToolCall(name=name, arguments=args))


GOLDEN = [call("deposit", account_id="A-001", amount=100), "Your balance is now $350.00.", call("end_conversation")]


def test_golden_text_scores_one_and_masks_exactly_the_environment_tokens(mini):
    calls: list = []
    # the fixed-lines user: its "Thanks!" opens one more turn, so the end tool's tokens are masked too
    r = asyncio.run(rollout("mini/deposit-001", scripted(GOLDEN, calls), TOK, user="lines"))
    assert r.reward == 1.0 and r.infra_error is None and r.num_turns == 3 and not r.truncated
    assert len(r.completion_ids) == len(r.env_mask) == len(r.logprobs)
    # model tokens are exactly what generate returned, in order
    model_tokens = [t for t, m in zip(r.completion_ids, r.env_mask, strict=True) if m == 1]
    assert model_tokens == [t for _, ids in calls for t in ids]
    assert all(lp == -0.5 for lp, m in zip(r.logprobs, r.env_mask, strict=True) if m == 1)
    # environment segments decode to the tool result and the user's reply, each opening the next turn
    segments, cur = [], []
    for t, m in zip(r.completion_ids, r.env_mask, strict=True):
        if m == 0:
            cur.append(t)
        elif cur:
            segments.append(TOK.decode(cur))
            cur = []
    assert len(segments) == 2
    assert segments[0].startswith("\n<|im_start|>user\n<tool_response>\n") and '"balance": 350.0' in segments[0]
    assert segments[0].endswith("<|im_start|>assistant\n")
    assert segments[1] == "\n<|im_start|>user\nThanks!<|im_end|>\n<|im_start|>assistant\n"
    # each generate call saw the whole context so far: no re-tokenisation between turns
    for (prompt, _), (next_prompt, _) in itertools.pairwise(calls):
        assert next_prompt[: len(prompt)] == prompt
    assert calls[0][0] == r.prompt_ids
    assert TOK.decode(r.prompt_ids).endswith("Please deposit 100 into account A-001.<|im_end|>\n<|im_start|>assistant\n")


def test_a_wrong_solution_scores_zero(mini):
    wrong = [call("deposit", account_id="A-002", amount=100), *GOLDEN[1:]]
    assert asyncio.run(rollout("mini/deposit-001", scripted(wrong), TOK)).reward == 0.0


def test_total_budget_truncates_keeps_tokens_and_grades_the_state(mini):
    r = asyncio.run(rollout("mini/deposit-001", scripted(GOLDEN), TOK, max_total_tokens=200))
    assert r.truncated and r.metrics["truncated_by"] == "max_total_tokens" and r.infra_error is None
    assert r.reward == 0.0  # graded: the reply with the balance was never given
    assert len(r.prompt_ids) + len(r.completion_ids) >= 200 - 1


def test_per_turn_cap_truncates_a_rambling_turn(mini):
    ramble = ["blah " * 500]

    async def generate(prompt_ids, sampling):
        ids = TOK.encode(ramble[0], add_special_tokens=False)[: sampling["max_tokens"]]
        return ids, None

    r = asyncio.run(rollout("mini/deposit-001", generate, TOK, max_tokens_per_turn=32))
    assert r.truncated and r.metrics["truncated_by"] == "max_tokens_per_turn"
    assert sum(r.env_mask) == 32 and r.logprobs == [0.0] * 32 and r.reward == 0.0


def test_infra_errors_are_reported_not_scored(mini):
    r = asyncio.run(rollout("mini/deposit-001", scripted([call("crash")]), TOK))
    assert r.reward is None and r.infra_error.startswith("tool_server")


def test_concurrent_rollouts_are_independent(mini):
    gens = [scripted(GOLDEN if i % 2 == 0 else [call("end_conversation")]) for i in range(16)]

    async def main():
        return await asyncio.gather(*(rollout("mini/deposit-001", g, TOK) for g in gens))

    rewards = [r.reward for r in asyncio.run(main())]
    assert rewards == [1.0, 0.0] * 8
    one = asyncio.run(rollout_many(["mini/deposit-001"], scripted(GOLDEN), TOK))
    assert one[0].reward == 1.0


def test_a_template_without_prefix_stability_is_rejected():
    tok = build_tokenizer()
    tok.chat_template = "{% for m in messages|reverse %}{{ m.content }}{% endfor %}"
    with pytest.raises(tb_env.errors.ConfigError, match="prefix-stable"):
        ChatTokens(tok, []).env_turn([{"role": "user", "content": "x"}])


def test_tool_schemas_reach_the_prompt(mini):
    r = asyncio.run(rollout("mini/deposit-001", scripted(GOLDEN), TOK))
    text = TOK.decode(r.prompt_ids)
    tools = [json.loads(line) for line in text.split("<tools>\n", 1)[1].split("</tools>", 1)[0].splitlines() if line]
    assert {t["function"]["name"] for t in tools} >= {"deposit", "end_conversation"}


def test_evaluation_prompts_are_the_training_context_thinking_included(mini):
    """`CompletionsPolicy` (evaluation on a raw-text endpoint) sends, at each turn, the very text training
    has as its context: earlier turns as the model wrote them, thinking kept, not re-rendered by the
    template (which, like Qwen3's, may drop it)."""
    from tb_env.core.episode import run_episode
    from tb_env.parties.policy import CompletionsPolicy

    turns = ["<think>Deposit first.</think>" + GOLDEN[0], "<think>Tell them.</think>" + GOLDEN[1], GOLDEN[2]]
    calls: list = []
    trained = asyncio.run(rollout("mini/deposit-001", scripted(turns, calls), TOK, user="lines"))
    assert trained.reward == 1.0

    prompts: list[str] = []

    class Completions:  # what an OpenAI client's `completions.create` returns, the texts of `turns` in order
        async def create(self, **request):
            prompts.append(request["prompt"])
            text = turns[len(prompts) - 1]
            return type("R", (), {"choices": [type("C", (), {"text": text})()], "usage": None})()

    client = type("Client", (), {"completions": Completions()})()
    result = asyncio.run(run_episode("mini/deposit-001", CompletionsPolicy("m", TOK, client=client), user="lines"))
    assert result.reward == 1.0 and len(prompts) == len(calls) == 3
    for prompt, (ids, _) in zip(prompts, calls, strict=True):
        assert prompt == TOK.decode(ids, skip_special_tokens=False)
    assert "<think>Deposit first.</think>" in prompts[2]
