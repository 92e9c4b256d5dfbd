"""Reading an episode's messages (OpenAI chat format): the tool trace and the agent's answer.

The check (reply facts, must-not-disclose, call-order assertions) and the deterministic
user (has my request been handled?) read a conversation the same way, from the messages
alone: an assistant message's `tool_calls` paired with the `tool` messages that answer
them, a result starting with `Error:` being a failed call.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tb_env.domain.tool import END_CONVERSATION

ENV_NAME = "environment"  # user-role messages the environment itself adds (parse-error feedback)
STOP = "###STOP###"  # a user simulator ends the conversation by saying this


NOT_JSON = object()  # what `json_value` gives for a text result


@functools.lru_cache(maxsize=512)
def json_value(result: str) -> object:
    """A tool result's JSON value (`NOT_JSON` for a text result), parsed once however many checks of a
    reply read it (the figures, the waits, the approvals)."""
    try:
        return json.loads(result)
    except (ValueError, TypeError):
        return NOT_JSON


def json_dicts(value: object) -> Iterator[dict[str, object]]:
    """Every JSON object in a parsed value, itself and those nested in it (records, their items, ...)."""
    if isinstance(value, dict):
        yield value
        value = list(value.values())
    if isinstance(value, list):
        for v in value:
            yield from json_dicts(v)


@dataclass(frozen=True)
class TracedCall:
    name: str
    arguments: dict[str, Any]
    ok: bool  # the tool answered without an error
    result: str
    index: int  # position of the calling assistant message in `messages`


def tool_trace(messages: list[dict[str, Any]]) -> list[TracedCall]:
    """Every tool call the agent made, in order, with whether it succeeded."""
    results = {m.get("tool_call_id"): m.get("content") or "" for m in messages if m.get("role") == "tool"}
    out = []
    for i, m in enumerate(messages):
        if m.get("role") != "assistant":
            continue
        for tc in m.get("tool_calls") or []:
            fn = tc.get("function") or {}
            args = fn.get("arguments")
            if isinstance(args, str):
                try:
                    args = json.loads(args)
                except ValueError:
                    args = {}
            result = results.get(tc.get("id"), "")
            out.append(TracedCall(str(fn.get("name")), args if isinstance(args, dict) else {}, not result.startswith("Error"), result, i))
    return out


def _acts(message: dict[str, Any]) -> bool:
    """An assistant message that calls a tool other than the end tool."""
    return any((tc.get("function") or {}).get("name") != END_CONVERSATION for tc in message.get("tool_calls") or [])


# a question asking leave to act: "Shall I go ahead?", "Do you want me to proceed?", "Is that OK?"
_GO_AHEAD = re.compile(
    r"\b(?:shall|should|can|may) (?:i|we)\b|\b(?:do|would) you (?:like|want) (?:me|us) to\b|\bgo ahead\b|\bproceed\b"
    r"|\b(?:is|does|would) (?:that|this) (?:be )?(?:ok|okay|alright|all right|fine|work|sound)\b|\bconfirm\b"
    r"|\b(?:ok|okay|happy) (?:to|for me to)\b", re.IGNORECASE)


def proposals(messages: list[dict[str, Any]]) -> set[int]:
    """The assistant messages that put an action to the customer before taking it: they end asking
    leave ("... and refund 849.00 once a manager approves it. Shall I go ahead?") and the agent acts
    after them. What they say is what would happen, not what did: no stance on the outcome."""
    out = set()
    for i, m in enumerate(messages):
        if m.get("role") != "assistant" or not m.get("content") or _acts(m):
            continue
        last = next((s for s in reversed(sentences(m["content"])) if s.strip()), "")
        if last.rstrip().endswith("?") and _GO_AHEAD.search(last) and any(
                n.get("role") == "assistant" and _acts(n) for n in messages[i + 1:]):
            out.add(i)
    return out


def agent_texts(messages: list[dict[str, Any]], scope: str = "any", proposed: bool = True) -> list[str]:
    """What the agent said in words, within `scope`:
    - `any`: every assistant message;
    - `final`: the last one;
    - `answer`: what it stated once it had started working (from its first tool call on,
      or everything if it called none), its questions left out. An early "can you verify
      your email?" is not an answer; a result reported along the way is.
    `proposed=False` leaves out the messages that ask leave before an action (`proposals`)."""
    skip = set() if proposed else proposals(messages)
    said = [(i, m) for i, m in enumerate(messages) if m.get("role") == "assistant" and m.get("content") and i not in skip]
    if scope == "final":
        return [m["content"] for _, m in said[-1:]]
    if scope != "answer":
        return [m["content"] for _, m in said]
    first_act = min((i for i, m in enumerate(messages) if m.get("role") == "assistant" and _acts(m)), default=None)
    out = []
    for i, m in said:
        if first_act is not None and i < first_act:
            continue
        statements = [s for s in (_statement(x) for x in sentences(m["content"])) if s.strip()]
        if statements:  # one per line, so a list's lines stay apart
            out.append("\n".join(statements))
    return out


# sentence ends: ".", "!" or "?" (or one closed by a bracket or quote: ".)") before a space, or a line break
# (not the abbreviations "i.e." and "e.g.")
_SENTENCE = re.compile(r"(?<=[.!?])(?<!\bi\.e\.)(?<!\be\.g\.)(?<!\bI\.e\.)(?<!\bE\.g\.)\s+|(?<=[.!?][\"')\]])\s+|\n+")
_ASKING = (
    r"(would|will|could|can|shall|should|do|does|did|is|are|was|were|have|has|may|might|what|which|when|where|who|"
    r"whom|why|how|anything|any|is there|okay|ok|right)\b"
)
# where a question tacked onto a statement begins: "10 days left - would you like to book some?"
_TAIL = re.compile(rf"(?:\s[-\u2013\u2014]\s|[,;:]\s*|\s(?:and|so|but)\s)(?={_ASKING})", re.IGNORECASE)


# a question quoted or in brackets is a name, not one put to the customer: 'T-2542 ("Where is my Yoga Mat?") is closed'
_ASIDE = re.compile(r"\((?:[^()]|\([^()]*\))*\)|\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d")


def sentences(text: str) -> list[str]:
    """The sentences of `text`; a quoted or bracketed one stays inside its own (its "?" or "!" dropped)."""
    return _SENTENCE.split(_ASIDE.sub(lambda m: re.sub(r"[?!]", "", m.group(0)), text))


def questions(text: str) -> list[str]:
    """The sentences of `text` that are questions."""
    return [q for q in sentences(text) if q.rstrip().endswith("?")]


# a request for information said as a statement: "To add it I need its VIN, the start date and the mileage."
_REQUEST = re.compile(r"\b(?:please|kindly)\s+(?:provide|give|share|send|tell|confirm|let me know)\b|\blet me know\b"
                      r"|\bi(?:'ll| will| would)? need\b|\bi'd need\b", re.IGNORECASE)


def requests(text: str) -> list[str]:
    """The sentences of `text` that ask the customer for something: its questions and its requests."""
    return [q for q in sentences(text) if q.rstrip().endswith("?") or _REQUEST.search(q)]


def _statement(sentence: str) -> str:
    """A sentence as a statement: a question drops out; a question tacked onto a statement
    ("You have 10 days left - would you like to book some?") leaves the statement."""
    if not sentence.rstrip().endswith("?"):
        return sentence
    cuts = [m.start() for m in _TAIL.finditer(sentence)]
    return sentence[: cuts[-1]] if cuts else ""


def customer_lines(messages: list[dict[str, Any]]) -> list[str]:
    """What the customer said (the environment's own notes left out)."""
    return [m.get("content") or "" for m in messages if m.get("role") == "user" and m.get("name") != ENV_NAME]


def matches(call: TracedCall, name: str | None, arguments: dict[str, Any], mentions: list[str] | tuple[str, ...] = ()) -> bool:
    """`call` is a call of `name` (any, if None) whose arguments include `arguments` and,
    among their values, each of `mentions` (all trimmed and case-folded)."""
    if name is not None and call.name != name:
        return False
    values = [v for item in call.arguments.values() for v in (item if isinstance(item, list) else [item])]
    return all(_same(call.arguments.get(k), v) for k, v in arguments.items()) and all(
        any(_same(v, m) for v in values) for m in mentions
    )


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, int | float) and isinstance(b, int | float) and not isinstance(a, bool):
        return abs(float(a) - float(b)) < 1e-9
    return str(a).strip().casefold() == str(b).strip().casefold()
