"""Offline pieces for the TRL adapter tests: a tiny Qwen3 model and tokenizer, scripted
policies that solve (or fail) the mini domain's trainable task, and a GRPOTrainer that
records what it trained on.

A random tiny model never emits a tool call, so generation is scripted: each episode is
given one script (a list of assistant turns) when it asks for its first turn, in the
order of `pattern`; later turns are told apart by the episode's first assistant turn.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import tb_env
from tb_env.parties.interpret import render_tool_call

from ..tiny_tokenizer import build_tokenizer

TASK = "mini/refuse-close-001"  # the mini pack's train-split task: refuse to close A-003 (balance 40)


def call(name: str, **args: Any) -> str:
    return render_tool_call(tb_env.ToolCall(name=name, arguments=args))


NOTE = call("add_note", account_id="A-003", text="Close requested; positive balance, refused.")
REFUSAL = "I can't close A-003 while it has a positive balance of 40."

# the evaluation protocol (RolloutFunc): plain text goes to the user (the fixed-lines user, `user="lines"`,
# so the transcript is known to the token), who answers "Fine."
ROLLOUT_SCRIPTS = {
    "solve": [call("get_account", account_id="A-003"), NOTE, REFUSAL, call("end_conversation")],
    "fail": [call("set_status", account_id="A-003", status="closed"), "A-003 is now closed.", call("end_conversation")],
    "crash": [call("crash")],  # the mini pack's buggy tool: an infrastructure failure
}
# TRL's own tool loop (environment_factory): the user is reached through respond_to_user
FACTORY_SCRIPTS = {
    "solve": [call("get_account", account_id="A-003"), NOTE, call("respond_to_user", message=REFUSAL), "Goodbye."],
    "fail": [call("set_status", account_id="A-003", status="closed"), call("respond_to_user", message="Closed."), "Bye."],
    "crash": [call("crash"), "Sorry."],
}
CHECK = {"solve": 1.0, "fail": 0.0, "crash": None}  # what the state check must say of each script

ASSISTANT = "<|im_start|>assistant\n"
# what the environment adds between two model turns: tool results and user messages, then the next turn's header
ENV_BLOCK = re.compile(
    r"\n?(<\|im_start\|>user\n(<tool_response>\n.*?\n</tool_response>\n?)+<\|im_end\|>\n"
    r"|<\|im_start\|>user\n[^<]*<\|im_end\|>\n)+" + re.escape(ASSISTANT),
    re.DOTALL,
)


def tokenizer():
    from trl.chat_template_utils import qwen3_chat_template

    tok = build_tokenizer()
    tok.chat_template = qwen3_chat_template  # the real Qwen3 template, which TRL knows how to parse
    return tok


def tiny_model(tok):
    import torch
    from transformers import Qwen3Config, Qwen3ForCausalLM

    torch.manual_seed(0)
    config = Qwen3Config(
        vocab_size=len(tok), hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=2,
        num_key_value_heads=1, head_dim=16, max_position_embeddings=16384, tie_word_embeddings=True,
        pad_token_id=tok.pad_token_id, eos_token_id=tok.eos_token_id, bos_token_id=None,
    )
    return Qwen3ForCausalLM(config)


class Scripted:
    """Hands out scripts in `pattern` order to episodes at their first turn."""

    def __init__(self, tok, scripts: dict[str, list[str]], pattern: list[str]):
        self.tok = tok
        self.scripts = scripts
        self.queue: Iterator[str] = iter(pattern)
        self.handed: list[str] = []

    def turn(self, context: list[int]) -> list[int]:
        text = self.tok.decode(context)
        turns = text.split(ASSISTANT)[1:]  # the last one is the open turn
        if len(turns) == 1:
            name = next(self.queue)
            self.handed.append(name)
        else:
            first = turns[0].split("<|im_end|>", 1)[0]
            name = next(n for n, s in self.scripts.items() if first.endswith(s[0]))
        script = self.scripts[name]
        reply = script[min(len(turns) - 1, len(script) - 1)]
        return [*self.tok.encode(reply, add_special_tokens=False), self.tok.eos_token_id]

    async def generate(self, prompt_ids: list[int], sampling: dict) -> tuple[list[int], list[float]]:
        ids = self.turn(prompt_ids)[: sampling["max_tokens"]]
        return ids, [-0.5] * len(ids)


def recording_trainer(script: Scripted | None = None):
    """A GRPOTrainer that keeps each generation batch; with `script`, TRL's own generation
    (used by its tool loop) is scripted too."""
    from trl import GRPOTrainer

    class Recording(GRPOTrainer):
        batches: list[dict[str, Any]]

        def _generate_single_turn(self, prompt_ids, *args, **kwargs):
            assert script is not None, "generation must be scripted"
            return [script.turn(list(p)) for p in prompt_ids], None

        def _generate_and_score_completions(self, inputs):
            out = super()._generate_and_score_completions(inputs)
            if not hasattr(self, "batches"):
                self.batches = []
            self.batches.append({k: v.detach().clone() for k, v in out.items() if hasattr(v, "detach")})
            return out

    return Recording


def runs(ids: list[int], mask: list[int]) -> list[tuple[int, list[int]]]:
    """Consecutive runs of equal mask value: [(value, token ids), ...]."""
    out: list[tuple[int, list[int]]] = []
    for t, m in zip(ids, mask, strict=True):
        if out and out[-1][0] == m:
            out[-1][1].append(t)
        else:
            out.append((m, [t]))
    return out
