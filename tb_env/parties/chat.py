"""A chat template as a model sees it over a whole episode: one context that grows.

The model's own output is kept exactly as it produced it (its thinking included), and
each environment turn (tool results, the user's reply) is appended as the text the chat
template gives for those messages alone. Training (`tb_env.training.rollout`) builds its
token context this way; `CompletionsPolicy` builds its prompt text the same way, so a
model is evaluated on the very context it was trained on. (Rendering the whole history
with the template each turn instead would differ: Qwen3's template, for one, drops the
thinking of earlier turns, which training keeps.)

How environment text is found: the chat template is rendered for a fixed short
conversation ending with an assistant turn, then for the same conversation plus the new
messages and the generation prompt; the second text extends the first, and the extension
is the new messages' text. Templates that are not prefix-stable this way are rejected
with a `ConfigError`.
"""

from __future__ import annotations

import itertools
from typing import Any

from tb_env.errors import ConfigError

_BASE = [
    {"role": "system", "content": "You are a helpful agent."},
    {"role": "user", "content": "Hello."},
    {"role": "assistant", "content": "Hello! How can I help?"},
]
_TOOL_CALLER = {
    "role": "assistant",
    "content": "",
    "reasoning_content": "Calling a tool.",
    "tool_calls": [{"id": "call_0", "type": "function", "function": {"name": "tool", "arguments": "{}"}}],
}


class ChatTokens:
    """Renders a conversation into token ids (or text) with a tokenizer's chat template, incrementally."""

    def __init__(self, tokenizer: Any, tools: list[dict[str, Any]]):
        if not getattr(tokenizer, "chat_template", None):
            raise ConfigError("the tokenizer has no chat template; rollouts need one to render turns")
        self.tokenizer = tokenizer
        self.tools = tools
        eos = tokenizer.eos_token_id
        eos_list = [e for e in (eos if isinstance(eos, list) else [eos]) if e is not None]
        if not eos_list:
            raise ConfigError("the tokenizer has no eos_token_id: rollouts need the end-of-turn token")
        self.eos_id = eos_list[0]
        self.eos_ids = set(eos_list)
        base = self._text(_BASE, generation_prompt=False)
        base_ids = self.encode(base)
        # what the template puts after the end-of-turn token of an assistant message ("\n")
        last_eos = max((i for i, t in enumerate(base_ids) if t in self.eos_ids), default=None)
        self.turn_suffix = base_ids[last_eos + 1 :] if last_eos is not None else []

    def _text(self, messages: list[dict[str, Any]], generation_prompt: bool) -> str:
        return self.tokenizer.apply_chat_template(
            messages, tools=self.tools or None, add_generation_prompt=generation_prompt, tokenize=False
        )

    def encode(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    def prompt(self, messages: list[dict[str, Any]]) -> list[int]:
        return self.encode(self._text(messages, generation_prompt=True))

    def env_turn(self, messages: list[dict[str, Any]]) -> list[int]:
        """Tokens of environment messages that follow an assistant turn, plus the next
        generation prompt (the model's end-of-turn suffix is added by the caller)."""
        return self.encode(self.env_text(messages))

    def env_text(self, messages: list[dict[str, Any]]) -> str:
        """The text of environment messages that follow an assistant turn, plus the next
        generation prompt.

        Each run of tool results is rendered after a synthetic tool-calling assistant
        turn, and each other message after the opening system+user pair, never after
        the real history: templates such as Qwen3's render the *last* assistant turn
        differently (an empty think block) from earlier ones, so a prefix that ends with
        an assistant turn is not stable, while one that ends with a user turn is."""
        groups: list[list[dict[str, Any]]] = []
        for is_tool, run in itertools.groupby(messages, key=lambda m: m["role"] == "tool"):
            items = list(run)
            groups += [items] if is_tool else [[m] for m in items]
        text = ""
        for i, group in enumerate(groups):
            prefix = [*_BASE[:2], _TOOL_CALLER] if group[0]["role"] == "tool" else _BASE[:2]
            base = self._text(prefix, generation_prompt=False)
            full = self._text([*prefix, *group], generation_prompt=i == len(groups) - 1)
            if not full.startswith(base):
                raise ConfigError(
                    "the chat template is not prefix-stable (rendering more messages changes earlier text); "
                    "tb-env cannot append environment turns without re-tokenising"
                )
            text += full[len(base) :]
        if not groups:
            text = self._text(_BASE[:2], True)[len(self._text(_BASE[:2], False)) :]
        return text

    def context(self, messages: list[dict[str, Any]]) -> str:
        """The prompt text for the next assistant turn, built as training builds its context:
        the opening messages rendered, then each assistant turn as the model wrote it (its
        `raw` text, thinking included) and each run of environment messages after it. Where
        an assistant turn has no raw text (a model on a chat endpoint), the whole history is
        rendered by the template instead."""
        turns = [i for i, m in enumerate(messages) if m["role"] == "assistant"]
        if not turns or any(not isinstance(messages[i].get("raw"), str) for i in turns):
            return self._text(messages, generation_prompt=True)
        eos = self.tokenizer.decode([self.eos_id], skip_special_tokens=False)
        suffix = self.tokenizer.decode(self.turn_suffix, skip_special_tokens=False)
        text = self._text(messages[: turns[0]], generation_prompt=True)
        for n, i in enumerate(turns):
            after = messages[i + 1 : turns[n + 1] if n + 1 < len(turns) else len(messages)]
            text += messages[i]["raw"] + eos + suffix + self.env_text(after)
        return text

    def decode(self, ids: list[int]) -> str:
        ids = ids[:-1] if ids and ids[-1] in self.eos_ids else ids
        return self.tokenizer.decode(ids, skip_special_tokens=False)
