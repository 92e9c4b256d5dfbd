"""The opening prompt's size: what every episode of a domain pays before its first token.

A trainer drops (verl) or refuses (vLLM) a prompt longer than its configured budget, and
the opening prompt (the policy, the tool schemas, the first message) is the same for a
whole domain, so its size is checked once, at export, instead of discovered as failed
groups in a log.

Tokens are counted with a real tokenizer where one is on disk (`--tokenizer PATH`, any
Hugging Face tokenizer folder). Without one (no download ever happens here) they are
estimated: the text is split with Qwen2's pre-tokenizer pattern, each piece at least one
token, times `ESTIMATE_FACTOR`. On the built-in domains' verbose schemas that estimate
came within 2% either way of the counts Qwen's BPE vocabulary gave when the prompt budget
was first measured (7.1k to 13.6k tokens).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import regex

from tb_env.domain.pack import Domain

# Qwen2's pre-tokenizer split (single digits, letters with one leading mark, punctuation runs)
_PIECES = regex.compile(
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
ESTIMATE_FACTOR = 1.07  # BPE tokens per pre-token piece on policy prose and tool JSON (1.05-1.07 measured)
# what Qwen's chat template puts around the tool list (the same order of size for other templates)
_TOOLS_HEADER = (
    "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
)
_TOOLS_FOOTER = (
    "\n</tools>\n\nFor each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call>"
)


def opening_prompt(domain: Domain, first_message: str = "", schemas: list[dict[str, Any]] | None = None) -> str:
    """The system turn (policy and tool list, as a Qwen-style template renders them) and
    the first user message: the prompt a trainer's dataset row expands to."""
    tools = schemas if schemas is not None else [t.openai_schema() for t in domain.tools]
    listed = "\n".join(json.dumps(s, ensure_ascii=False) for s in tools)
    return domain.policy + _TOOLS_HEADER + listed + _TOOLS_FOOTER + "\n" + first_message


class TokenCounter:
    """Counts tokens with a tokenizer folder if given, else estimates (see the module)."""

    def __init__(self, tokenizer: str | None = None):
        self.exact = tokenizer is not None
        self._tok = None
        if tokenizer is not None:
            from transformers import AutoTokenizer

            self._tok = AutoTokenizer.from_pretrained(tokenizer, local_files_only=True)

    @property
    def unit(self) -> str:
        return "tokens" if self.exact else "tokens (estimated)"

    def __call__(self, text: str) -> int:
        if self._tok is not None:
            return len(self._tok.encode(text, add_special_tokens=False))
        return math.ceil(len(_PIECES.findall(text)) * ESTIMATE_FACTOR)


@dataclass
class PromptSize:
    domain: str
    chars: int
    tokens: int
    verbose_tokens: int  # the same prompt with the schemas pydantic writes, for the ratio

    def to_dict(self) -> dict[str, Any]:
        return {"domain": self.domain, "chars": self.chars, "tokens": self.tokens, "verbose_tokens": self.verbose_tokens,
                "saved": round(1 - self.tokens / self.verbose_tokens, 3) if self.verbose_tokens else 0.0}


def verbose_schemas(domain: Domain) -> list[dict[str, Any]]:
    """The tool list as pydantic writes it (titles aside): the baseline the cleaned
    schemas are measured against."""
    out = []
    for t in domain.tools:
        schema = t.args_model.model_json_schema()
        schema.pop("title", None)
        for prop in schema.get("properties", {}).values():
            prop.pop("title", None)
            for alt in prop.get("anyOf", []):
                alt.pop("title", None)
        out.append({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": schema}})
    return out


def measure(domain: Domain, count: TokenCounter, first_message: str = "") -> PromptSize:
    text = opening_prompt(domain, first_message)
    return PromptSize(domain.name, len(text), count(text), count(opening_prompt(domain, first_message, verbose_schemas(domain))))
