"""Turn model output into (thinking, content, tool calls), and type tool arguments.

This is the one place where tb-env reads what a model wrote. Training adapters (which
score rollouts) and evaluation (which scores benchmark runs) both call `parse`, so a
given completion yields the same actions, and hence the same reward, in both. Anything
that decides what counts as a tool call belongs here, not in an adapter.

`parse` never raises on model output: a malformed call becomes a message in
`Parsed.errors` (which the environment can show to the agent) and is not executed. The
only exception is `UnknownFormatError`, for a `format` name that does not exist: that is
a configuration mistake by the caller, not something the model did.

Formats (`FORMATS`)
-------------------
``hermes``
    ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``, any number per message.
    "parameters" is accepted for "arguments"; arguments given as a JSON string are
    decoded; a JSON list of such objects, or an OpenAI-style ``{"function": {...}}``
    wrapper, is accepted too. A final ``<tool_call>`` with no closing tag (generation
    stopped at the stop token) still counts if its JSON is complete. The end of the
    JSON, not the next tag, ends a call, so string values may contain the tags.
``qwen3_coder``
    ``<tool_call><function=NAME><parameter=P>VALUE</parameter>...</function></tool_call>``.
    Values are raw text (one leading and one trailing newline removed) and stay strings:
    `coerce_arguments` types them from the tool's schema. Values cannot contain
    ``</parameter>`` or ``<tool_call>`` tags (the format has no escaping).
    The two ``<tool_call>`` formats accept each other's body (a body that starts with
    ``{`` is JSON, one that starts with ``<function=`` is XML): models fine-tuned on one
    often emit the other, and both readings are unambiguous.
``openai``
    Structured output: an assistant message dict (or its JSON text) with ``tool_calls``.
    Plain text has no call markup in this format; it is content (after thinking).
``mistral``
    ``[TOOL_CALLS][{"name": ..., "arguments": {...}}, ...]`` or the newer
    ``[TOOL_CALLS]NAME[ARGS]{...}`` (optionally ``NAME[CALL_ID]ID[ARGS]{...}``), repeated.

A dict is always read as an OpenAI assistant message, whatever the format; text-format
calls in its content are parsed too, with the given format (servers without a tool
parser leave them there).

Thinking
--------
``<think>...</think>`` blocks are removed from the content and returned as `thinking`
(several blocks joined by a newline). A leading ``...</think>`` with no ``<think>``
(the chat template opened the block in the prompt) is thinking too. An unterminated
``<think>`` makes the rest of the text thinking. Call markup inside thinking is never
executed: the model was deliberating, not acting. A ``reasoning_content``/``reasoning``
field of a message dict is the thinking of that message.

Cost
----
Tags are found with literal searches and JSON is read by the standard library's decoder
on bounded pieces of the text, so the cost grows linearly with the length of the output
(no backtracking regexes, no re-scanning from the start): a megabyte of adversarial
markup takes well under a second, most of it spent on the decoder's error messages.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from tb_env.domain.task import ToolCall
from tb_env.errors import ConfigError

__all__ = ["FORMATS", "Parsed", "UnknownFormatError", "coerce_arguments", "parse", "render_tool_call"]

FORMATS = ("hermes", "qwen3_coder", "openai", "mistral")


class UnknownFormatError(ConfigError):
    """A `format` name that is not in `FORMATS` (a caller's configuration mistake)."""

    def __init__(self, format: str):
        self.format = format
        super().__init__(f"Unknown tool-call format {format!r}. Known formats: {', '.join(FORMATS)}.")


@dataclass
class Parsed:
    """What a model output means: its reasoning, what it says, and what it does."""

    thinking: str | None  # text of the think block(s), stripped; None if there was none
    content: str  # user-visible text: thinking and call markup removed, stripped
    tool_calls: list[ToolCall] = field(default_factory=list)  # in the order written
    errors: list[str] = field(default_factory=list)  # one message per malformed call


# --- markup ------------------------------------------------------------------------------

_THINK_OPEN = "<think>"
_THINK_TAGS = re.compile(r"<think>|</think>")
_CALL_OPEN = "<tool_call>"
_CALL_CLOSE = "</tool_call>"
_CALL_TAGS = re.compile(r"<tool_call>|</tool_call>")
_FUNCTION_OPEN = "<function="
_XML_TAGS = re.compile(r"<function=|</function>|<parameter=|</parameter>")
_MISTRAL_CALLS = "[TOOL_CALLS]"
_MISTRAL_ARGS = "[ARGS]"
_MISTRAL_CALL_ID = "[CALL_ID]"
_WHITESPACE = re.compile(r"\s*")
_DECODE_WINDOW = 512

# strict=False: models put raw newlines and tabs inside JSON strings (code, addresses).
_JSON = json.JSONDecoder(strict=False)


class _Calls:
    """Collects the outcome of each call the model attempted, numbering them 1, 2, ..."""

    def __init__(self) -> None:
        self.calls: list[ToolCall] = []
        self.errors: list[str] = []
        self.attempts = 0

    def add(self, outcome: ToolCall | str) -> None:
        """One attempted call: a `ToolCall`, or a message saying why it is malformed."""
        self.attempts += 1
        if isinstance(outcome, ToolCall):
            self.calls.append(outcome)
        else:
            self.errors.append(f"tool call {self.attempts}: {outcome}")

    def note(self, message: str) -> None:
        """A problem with the output that is not one particular call."""
        self.errors.append(message)


# --- parse -------------------------------------------------------------------------------


def parse(text: str | dict, format: str = "hermes") -> Parsed:
    """Read one model output: a completion string, or an OpenAI assistant message dict.

    Never raises because of the output (see the module docstring); raises
    `UnknownFormatError` only when `format` is not one of `FORMATS`.
    """
    _check_format(format)
    try:
        if isinstance(text, dict):
            return _parse_message(text, format)
        if isinstance(text, str):
            if format == "openai":
                message = _message_from_json(text)
                if message is not None:
                    return _parse_message(message, format)
            calls = _Calls()
            thinking, content = _parse_text(text, format, calls)
            return Parsed(thinking, content, calls.calls, calls.errors)
        return Parsed(None, "", [], [f"expected model output as str or dict, got {type(text).__name__}"])
    except Exception as exc:
        # Safety net for the never-raise contract: an episode must not crash on output
        # this module failed to foresee. The message says what happened.
        return Parsed(None, "", [], [f"could not interpret model output ({type(exc).__name__})"])


def _check_format(format: str) -> None:
    if not isinstance(format, str) or format not in FORMATS:
        raise UnknownFormatError(format)


def _parse_text(text: str, format: str, calls: _Calls) -> tuple[str | None, str]:
    """Thinking and content of a text; calls found in it are added to `calls`."""
    thinking, visible = _split_thinking(text)
    if format == "openai":
        content = visible
    elif format == "mistral":
        content = _extract_mistral(visible, calls)
    else:
        content = _extract_tagged(visible, format, calls)
    return thinking, content.strip()


def _parse_message(message: dict, format: str) -> Parsed:
    """An OpenAI assistant message: structured `tool_calls` first, then calls in content."""
    calls = _Calls()
    raw_calls = message.get("tool_calls")
    if isinstance(raw_calls, list):
        for item in raw_calls:
            calls.add(_call_from_object(item))
    elif raw_calls is not None:
        calls.note(f"tool_calls must be a list, got {_json_type(raw_calls)}")
    legacy = message.get("function_call")  # the pre-tools API: one call, same shape
    if isinstance(legacy, dict) and not raw_calls:
        calls.add(_call_from_object(legacy))

    text = _content_text(message.get("content"), calls)
    tag_thinking, content = _parse_text(text, format, calls)

    reasoning = message.get("reasoning_content")
    if not isinstance(reasoning, str):
        reasoning = message.get("reasoning")
    if isinstance(reasoning, str):
        # Both present only if a server split part of the thinking off: keep all of it.
        parts = [reasoning.strip(), tag_thinking or ""]
        thinking: str | None = "\n".join(p for p in parts if p)
    else:
        thinking = tag_thinking
    return Parsed(thinking, content, calls.calls, calls.errors)


def _content_text(content: Any, calls: _Calls) -> str:
    """The text of a message's content: a string, None, or a list of content parts."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                texts.append(part["text"])
        return "\n".join(texts)
    calls.note(f"message content must be a string or a list of parts, got {_json_type(content)}")
    return ""


def _message_from_json(text: str) -> dict | None:
    """The assistant message dict that `text` is the JSON of, if it is one."""
    stripped = text.strip()
    if not stripped.startswith("{"):
        return None
    try:
        value = _JSON.decode(stripped)
    except (ValueError, RecursionError):
        return None
    if isinstance(value, dict) and value.keys() & {"role", "tool_calls", "content"}:
        return value
    return None


def _split_thinking(text: str) -> tuple[str | None, str]:
    """(thinking, the rest): think blocks cut out, first-come closing tags win (no nesting)."""
    thoughts: list[str] = []
    visible: list[str] = []
    pos = 0
    inside_from: int | None = None  # where the open block's text starts
    first = True
    for tag in _THINK_TAGS.finditer(text):
        opening = tag.group() == _THINK_OPEN
        if inside_from is not None:
            if not opening:  # a nested <think> is just text of the block
                thoughts.append(text[inside_from : tag.start()])
                inside_from = None
                pos = tag.end()
        elif opening:
            visible.append(text[pos : tag.start()])
            inside_from = tag.end()
        else:
            # The first tag closes a block: the prompt opened it, so all before is thinking.
            # A later stray closing tag is dropped as markup.
            (thoughts if first else visible).append(text[pos : tag.start()])
            pos = tag.end()
        first = False
    if inside_from is not None:  # unterminated: the rest is thinking, never acted on
        thoughts.append(text[inside_from:])
    else:
        visible.append(text[pos:])
    thinking = "\n".join(s for s in (t.strip() for t in thoughts) if s) if thoughts else None
    return thinking, "".join(visible)


def _decode_at(text: str, begin: int) -> tuple[Any, int]:
    """Decode the JSON value that starts at `text[begin]`: (value, index after it).

    Raises ValueError or RecursionError like `json`. It reads a window of the text that
    doubles while the value may go on past it, instead of decoding in place: the
    decoder's error counts lines from the start of the string it is given, which would
    make many failed calls in a long output quadratic. Positions in error messages are
    therefore relative to the start of the value, which is what a reader wants anyway.
    """
    size = _DECODE_WINDOW
    while True:
        stop = begin + size
        window = text[begin:stop]
        try:
            value, end = _JSON.raw_decode(window)
        except json.JSONDecodeError as exc:
            cut = exc.msg.startswith("Unterminated string") or exc.pos >= len(window) - 8
            if stop >= len(text) or not cut:
                raise
        else:
            # An object or array cannot look complete when cut; a scalar at the edge can.
            if stop >= len(text) or end < len(window) or isinstance(value, dict | list):
                return value, begin + end
        size *= 2


def _skip_whitespace(text: str, pos: int) -> int:
    match = _WHITESPACE.match(text, pos)
    return match.end() if match else pos


# --- <tool_call> formats (hermes, qwen3_coder) ------------------------------------------


def _extract_tagged(text: str, format: str, calls: _Calls) -> str:
    """Add the calls in `<tool_call>` markup to `calls`; return the text around them."""
    content: list[str] = []
    pos = 0
    while True:
        tag = _CALL_TAGS.search(text, pos)
        if tag is None:
            content.append(text[pos:])
            return "".join(content)
        content.append(text[pos : tag.start()])
        pos = start = tag.end()
        if tag.group() == _CALL_CLOSE:  # a stray closing tag: markup, dropped
            continue
        # The body runs to the next tag, or to the end (generation stopped at the stop token).
        after = _CALL_TAGS.search(text, start)
        if after is None:
            body, pos = text[start:], len(text)
        elif after.group() == _CALL_CLOSE:
            body, pos = text[start : after.start()], after.end()
        else:
            body, pos = text[start : after.start()], after.start()
            if not body.strip():  # '<tool_call><tool_call>...': the inner tag opens the call
                continue
        body = body.strip()
        if not body:
            calls.add("empty tool call")
        elif body.startswith(_FUNCTION_OPEN) or (format == "qwen3_coder" and body[0] not in "{["):
            _add_xml_calls(body, calls)
        else:
            try:
                value = _JSON.decode(body)
            except (ValueError, RecursionError) as exc:
                # A tag inside a JSON string cut the body short: the JSON, not the tag, ends it.
                extent = _json_call(text, start) if after is not None and _cut_string(exc) else None
                if extent is None:
                    calls.add(f"invalid JSON: {_json_error(exc)}")
                    continue
                value, pos = extent
            _add_json_calls(value, calls)


def _cut_string(exc: BaseException) -> bool:
    return isinstance(exc, json.JSONDecodeError) and exc.msg.startswith("Unterminated string")


def _json_call(text: str, start: int) -> tuple[Any, int] | None:
    """The JSON value that opens a call body at `start`, and where the call ends.

    The value must be followed only by whitespace and then the closing tag, another
    opening tag or the end of the text; otherwise None.
    """
    begin = _skip_whitespace(text, start)
    try:
        value, end = _decode_at(text, begin)
    except (ValueError, RecursionError):
        return None
    after = _skip_whitespace(text, end)
    if text.startswith(_CALL_CLOSE, after):
        return value, after + len(_CALL_CLOSE)
    if after == len(text) or text.startswith(_CALL_OPEN, after):
        return value, after
    return None


def _add_json_calls(value: Any, calls: _Calls) -> None:
    """A decoded call object, or a list of them."""
    if isinstance(value, list):
        if not value:
            calls.add("empty list of tool calls")
        for item in value:
            calls.add(_call_from_object(item))
    else:
        calls.add(_call_from_object(value))


def _add_xml_calls(body: str, calls: _Calls) -> None:
    """qwen3_coder: each `<function=NAME>` with its `<parameter=P>V</parameter>` children."""
    tags = list(_XML_TAGS.finditer(body))
    if not any(tag.group() == _FUNCTION_OPEN for tag in tags):
        calls.add("no <function=NAME> tag in tool call")
        return
    i = 0
    while i < len(tags):
        if tags[i].group() != _FUNCTION_OPEN:  # stray tags outside a function are ignored
            i += 1
            continue
        opening = tags[i]
        i += 1
        limit = tags[i].start() if i < len(tags) else len(body)
        name_end = body.find(">", opening.end(), limit)
        name = body[opening.end() : name_end].strip() if name_end != -1 else ""
        problem = None if name else "<function=NAME> tag without a name or closing '>'"
        arguments: dict[str, Any] = {}
        # The function's children, up to </function> or (tolerated) the next function.
        while i < len(tags) and tags[i].group() != _FUNCTION_OPEN:
            tag = tags[i]
            i += 1
            if tag.group() == "</function>":
                break
            if tag.group() != "<parameter=":  # a stray </parameter>
                continue
            closing = tags[i] if i < len(tags) else None
            if closing is None or closing.group() != "</parameter>":
                problem = problem or f"unclosed <parameter=...> in function {name!r}"
                continue
            i += 1
            key_end = body.find(">", tag.end(), closing.start())
            key = body[tag.end() : key_end].strip() if key_end != -1 else ""
            if not key:
                problem = problem or f"<parameter=NAME> tag without a name or closing '>' in {name!r}"
                continue
            value = body[key_end + 1 : closing.start()]
            value = value.removeprefix("\n").removesuffix("\n")
            arguments[key] = value
        calls.add(problem or _make_call(name, arguments))


# --- mistral -----------------------------------------------------------------------------


def _extract_mistral(text: str, calls: _Calls) -> str:
    """Add the calls after each `[TOOL_CALLS]` to `calls`; return the text around them."""
    content: list[str] = []
    pos = 0
    size = len(text)
    while True:
        at = text.find(_MISTRAL_CALLS, pos)
        if at == -1:
            content.append(text[pos:])
            return "".join(content)
        content.append(text[pos:at])
        start = _skip_whitespace(text, at + len(_MISTRAL_CALLS))
        if start < size and text[start] in "[{":  # [TOOL_CALLS][{"name": ..., "arguments": ...}]
            try:
                value, pos = _decode_at(text, start)
            except (ValueError, RecursionError) as exc:
                calls.add(f"invalid JSON: {_json_error(exc)}")
                pos = _next_or_end(text, _MISTRAL_CALLS, start)
                continue
            _add_json_calls(value, calls)
            continue
        # [TOOL_CALLS]NAME[ARGS]{...}, NAME possibly followed by [CALL_ID]ID
        bound = _next_or_end(text, _MISTRAL_CALLS, start)
        args_at = text.find(_MISTRAL_ARGS, start, bound)
        if args_at == -1:
            calls.add("expected a JSON list or NAME[ARGS]{...} after [TOOL_CALLS]")
            pos = bound
            continue
        name = text[start:args_at]
        call_id = name.find(_MISTRAL_CALL_ID)
        name = (name[:call_id] if call_id != -1 else name).strip()
        try:
            arguments, pos = _decode_at(text, _skip_whitespace(text, args_at + len(_MISTRAL_ARGS)))
        except (ValueError, RecursionError) as exc:
            calls.add(f"invalid JSON in the arguments of {name!r}: {_json_error(exc)}")
            pos = bound
            continue
        calls.add(_make_call(name, arguments) if name else "missing tool name before [ARGS]")


def _next_or_end(text: str, needle: str, start: int) -> int:
    at = text.find(needle, start)
    return at if at != -1 else len(text)


# --- one call ------------------------------------------------------------------------------


def _call_from_object(value: Any) -> ToolCall | str:
    """A call from `{"name", "arguments"|"parameters"}` or `{"function": {...}}`."""
    if not isinstance(value, dict):
        return f'expected a JSON object with "name" and "arguments", got {_json_type(value)}'
    function = value.get("function")
    if "name" not in value and isinstance(function, dict):
        value = function
    name = value.get("name")
    if name is None:
        return 'missing "name"'
    if not isinstance(name, str):
        return f'"name" must be a string, got {_json_type(name)}'
    if not name.strip():
        return 'empty "name"'
    arguments = value.get("arguments")
    if arguments is None:
        arguments = value.get("parameters")
    return _make_call(name.strip(), arguments)


def _make_call(name: str, arguments: Any) -> ToolCall | str:
    """A `ToolCall`, with arguments given as an object, a JSON string of one, or nothing."""
    if arguments is None:
        arguments = {}
    for _ in range(2):  # a JSON string, or (double-encoded by some servers) a string of one
        if not isinstance(arguments, str):
            break
        if not arguments.strip():
            arguments = {}
            break
        try:
            arguments = _JSON.decode(arguments)
        except (ValueError, RecursionError) as exc:
            return f"the arguments of {name!r} are not valid JSON: {_json_error(exc)}"
    if not isinstance(arguments, dict):
        return f"the arguments of {name!r} must be a JSON object, got {_json_type(arguments)}"
    try:
        return ToolCall(name=name, arguments=arguments)
    except ValueError as exc:  # pydantic's ValidationError, e.g. non-string keys in a dict
        return f"invalid call of {name!r}: {exc}"


def _json_error(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return str(exc)


def _json_type(value: Any) -> str:
    """The JSON name of a value's type, for messages the agent may read."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


# --- coerce_arguments ------------------------------------------------------------------------

_FAIL: Any = object()  # a conversion that does not apply
_TRUE = frozenset({"true", "1", "yes"})
_FALSE = frozenset({"false", "0", "no"})
_NULL = frozenset({"null", "none", ""})
_INTEGER_TEXT = re.compile(r"[+-]?\d+", re.ASCII)
_NUMBER_TEXT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_MAX_NUMBER_TEXT = 4000  # below Python's int-from-text digit limit; longer is not a number here


def coerce_arguments(arguments: dict, input_schema: dict) -> dict:
    """Type the values of `arguments` after the tool's JSON schema, where text says a value.

    Models often write numbers, booleans and lists as strings (qwen3_coder always does).
    Coercing them here, once, means every caller passes the tool the same values.

    For each property of the schema, a string value becomes:
    - integer: an int ("5", "5.0", "1e3"); "5.5" stays a string.
    - number: an int for an integer literal ("3"), else a float ("2.50" -> 2.5).
    - boolean: True for "true"/"1"/"yes", False for "false"/"0"/"no" (any case).
    - null: None for "null"/"None"/"".
    - array / object: the decoded JSON text, if it is a list / an object.
    A number (not a boolean) where a string is declared becomes its text, which is
    lossless: an int's decimal digits (1001 -> "1001"), a finite float's shortest
    round-tripping text (2.5 -> "2.5").
    Unions (`anyOf`, `oneOf`, `type: [...]`, `nullable`): a value that already has one
    of the allowed types keeps it (so "7" stays "7" if strings are allowed); otherwise
    each alternative is tried in order. Arrays (`items`, `prefixItems`) and objects
    (`properties`, `additionalProperties`) are coerced recursively.

    A value that cannot be converted is kept as it is: the tool's validation reports it
    to the agent. Keys the schema does not declare are kept. The input is not mutated
    (containers are copied) and nothing raises; a non-dict `arguments` is returned as is.
    """
    if not isinstance(arguments, dict):
        return arguments
    try:
        value, _ = _coerce(arguments, input_schema)
    except RecursionError:  # arguments nested deeper than the interpreter's stack
        return dict(arguments)
    return value if isinstance(value, dict) else dict(arguments)


def _coerce(value: Any, schema: Any) -> tuple[Any, bool]:
    """(the coerced value, whether it now has a type the schema allows)."""
    if not isinstance(schema, dict):
        return _copy(value), True
    alternatives = _alternatives(schema)
    if alternatives is not None:
        for alternative in alternatives:  # first, one the value already satisfies
            kind = _type_of(alternative)
            if _alternatives(alternative) is None and (kind is None or _has_type(value, kind)):
                return _coerce(value, alternative)
        for alternative in alternatives:  # then, the first conversion that works
            result, ok = _coerce(value, alternative)
            if ok:
                return result, True
        return _copy(value), False
    kind = _type_of(schema)
    result, ok = _convert(value, kind) if kind is not None else (value, True)
    if ok and isinstance(result, dict):
        return _coerce_object(result, schema), True
    if ok and isinstance(result, list):
        return _coerce_array(result, schema), True
    return _copy(result), ok


def _alternatives(schema: dict) -> list[dict] | None:
    """The branches of a union schema, each with the schema's other keywords; else None."""
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and branches:
            rest = {k: v for k, v in schema.items() if k != keyword}
            return [{**rest, **b} for b in branches if isinstance(b, dict)]
    kind = schema.get("type")
    if isinstance(kind, list):
        return [{**schema, "type": k} for k in kind if isinstance(k, str)]
    if schema.get("nullable") is True and isinstance(kind, str) and kind != "null":
        rest = {k: v for k, v in schema.items() if k != "nullable"}
        return [rest, {"type": "null"}]
    return None


def _type_of(schema: dict) -> str | None:
    """The declared type, or the one implied by `properties` / `items`."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind
    if "properties" in schema:
        return "object"
    if "items" in schema or "prefixItems" in schema:
        return "array"
    return None


def _has_type(value: Any, kind: str) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "null":
        return value is None
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    return True  # a type this module does not know: leave the value to the tool


def _convert(value: Any, kind: str) -> tuple[Any, bool]:
    if _has_type(value, kind):
        return value, True
    if isinstance(value, str):
        converted = _from_text(value, kind)
        if converted is not _FAIL:
            return converted, True
    elif kind == "string" and isinstance(value, int | float) and not isinstance(value, bool):
        text = _number_text(value)
        if text is not None:
            return text, True
    return value, False


def _from_text(text: str, kind: str) -> Any:
    stripped = text.strip()
    if kind == "integer":
        return _integer(stripped)
    if kind == "number":
        return _number(stripped)
    if kind == "boolean":
        lowered = stripped.lower()
        return True if lowered in _TRUE else False if lowered in _FALSE else _FAIL
    if kind == "null":
        return None if stripped.lower() in _NULL else _FAIL
    if kind in ("array", "object"):
        try:
            value = _JSON.decode(stripped)
        except (ValueError, RecursionError):
            return _FAIL
        return value if _has_type(value, kind) else _FAIL
    return _FAIL


def _integer(text: str) -> Any:
    if len(text) > _MAX_NUMBER_TEXT or not _NUMBER_TEXT.fullmatch(text):
        return _FAIL
    if _INTEGER_TEXT.fullmatch(text):
        return int(text)
    try:
        number = Decimal(text)  # exact: "12345678901234567890.0" must not lose digits
    except InvalidOperation:
        return _FAIL
    if number.adjusted() > _MAX_NUMBER_TEXT or number != number.to_integral_value():
        return _FAIL
    return int(number)


def _number(text: str) -> Any:
    if len(text) > _MAX_NUMBER_TEXT or not _NUMBER_TEXT.fullmatch(text):
        return _FAIL
    if _INTEGER_TEXT.fullmatch(text):
        return int(text)
    number = float(text)
    return number if math.isfinite(number) else _FAIL


def _number_text(value: int | float) -> str | None:
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else None
    try:
        return str(value)
    except ValueError:  # more digits than Python will print
        return None


def _coerce_object(value: dict, schema: dict) -> dict:
    properties = schema.get("properties")
    properties = properties if isinstance(properties, dict) else {}
    extra = schema.get("additionalProperties")
    result = {}
    for key, item in value.items():
        sub = properties.get(key, extra)
        result[key] = _coerce(item, sub)[0] if isinstance(sub, dict) else _copy(item)
    return result


def _coerce_array(value: list, schema: dict) -> list:
    items = schema.get("items")
    prefix = schema.get("prefixItems")
    if isinstance(items, list):  # the older tuple form of `items`
        prefix, items = items, schema.get("additionalItems")
    result = []
    for index, item in enumerate(value):
        sub = prefix[index] if isinstance(prefix, list) and index < len(prefix) else items
        result.append(_coerce(item, sub)[0] if isinstance(sub, dict) else _copy(item))
    return result


def _copy(value: Any) -> Any:
    """A copy of the JSON containers in `value`, so the caller's arguments stay untouched."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


# --- render_tool_call ----------------------------------------------------------------------


def render_tool_call(call: ToolCall, format: str = "hermes") -> str:
    """The text a model would write to make `call`, in `format` (the oracle policy's voice).

    Inverse of `parse` for one call in the text formats:
    ``parse(render_tool_call(c, f), f).tool_calls == [c]`` for hermes and mistral; for
    qwen3_coder, values come back as text, so it holds for string values or after
    `coerce_arguments` with the tool's schema. For "openai", which has no text markup,
    this returns the JSON of ``{"name": ..., "arguments": {...}}`` (the function part of
    an OpenAI tool call, with the arguments as an object rather than a JSON string).
    Values JSON cannot encode (dates from YAML task files) are written as their text.
    """
    _check_format(format)
    payload = {"name": call.name, "arguments": call.arguments}
    if format == "hermes":
        return f"{_CALL_OPEN}\n{_dumps(payload)}\n{_CALL_CLOSE}"
    if format == "mistral":
        return f"{_MISTRAL_CALLS}{_dumps([payload])}"
    if format == "openai":
        return _dumps(payload)
    lines = [_CALL_OPEN, f"{_FUNCTION_OPEN}{call.name}>"]
    for key, value in call.arguments.items():
        lines += [f"<parameter={key}>", value if isinstance(value, str) else _dumps(value), "</parameter>"]
    lines += ["</function>", _CALL_CLOSE]
    return "\n".join(lines)


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)
