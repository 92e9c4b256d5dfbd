"""tb_env.parties.interpret: one reading of model output for training and evaluation alike."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tb_env.domain.task import ToolCall
from tb_env.errors import ConfigError
from tb_env.parties.interpret import (
    FORMATS,
    Parsed,
    UnknownFormatError,
    coerce_arguments,
    parse,
    render_tool_call,
)

TEXT_FORMATS = ("hermes", "qwen3_coder", "mistral")
SAFETY_NET = "could not interpret model output"  # parse's catch-all: a bug if a test meets it


def hermes(name: str, arguments: object, key: str = "arguments") -> str:
    return f"<tool_call>\n{json.dumps({'name': name, key: arguments})}\n</tool_call>"


def qwen(name: str, **params: str) -> str:
    body = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in params.items())
    return f"<tool_call>\n<function={name}>\n{body}</function>\n</tool_call>"


# --- formats ---------------------------------------------------------------------------------


def test_format_names_are_the_contract():
    assert FORMATS == ("hermes", "qwen3_coder", "openai", "mistral")


def test_hermes_single_call_is_parsed_with_its_arguments():
    parsed = parse(hermes("lookup_order", {"order_id": 42}))
    assert parsed.tool_calls == [ToolCall(name="lookup_order", arguments={"order_id": 42})]
    assert parsed.content == ""
    assert parsed.errors == []
    assert parsed.thinking is None


def test_hermes_several_calls_keep_their_order_and_content_around_them_is_kept():
    text = f"Let me check.\n{hermes('a', {'x': 1})}\nand\n{hermes('b', {})}{hermes('c', {'y': [1]})}\nDone."
    parsed = parse(text, "hermes")
    assert [c.name for c in parsed.tool_calls] == ["a", "b", "c"]
    assert parsed.tool_calls[2].arguments == {"y": [1]}
    assert parsed.content == "Let me check.\n\nand\n\nDone."


def test_hermes_accepts_parameters_alias_and_arguments_as_json_string():
    text = hermes("a", {"x": 1}, key="parameters") + hermes("b", json.dumps({"y": "z"}))
    assert parse(text).tool_calls == [
        ToolCall(name="a", arguments={"x": 1}),
        ToolCall(name="b", arguments={"y": "z"}),
    ]


def test_hermes_missing_arguments_means_no_arguments():
    assert parse('<tool_call>{"name": "list_all"}</tool_call>').tool_calls == [ToolCall(name="list_all")]


def test_hermes_tolerates_whitespace_and_raw_newlines_inside_json_strings():
    text = '<tool_call>\n\n  {\n "name" : "note",\n "arguments": {"text": "line1\nline2"}}  \n\n</tool_call>'
    assert parse(text).tool_calls == [ToolCall(name="note", arguments={"text": "line1\nline2"})]


def test_hermes_unterminated_final_call_with_complete_json_is_parsed():
    text = 'Sure. <tool_call>{"name": "refund", "arguments": {"amount": 5}}'
    parsed = parse(text)
    assert parsed.tool_calls == [ToolCall(name="refund", arguments={"amount": 5})]
    assert parsed.content == "Sure."
    assert parsed.errors == []


def test_hermes_unterminated_final_call_with_incomplete_json_is_an_error():
    parsed = parse('<tool_call>{"name": "refund", "arguments": {"amount": 5')
    assert parsed.tool_calls == []
    assert len(parsed.errors) == 1 and "invalid JSON" in parsed.errors[0]


def test_hermes_string_values_may_contain_the_tool_call_tags():
    call = ToolCall(name="write", arguments={"text": "use </tool_call> and <tool_call> tags"})
    parsed = parse(f"before {render_tool_call(call)} after")
    assert parsed.tool_calls == [call]
    assert parsed.content == "before  after"


def test_hermes_accepts_a_json_list_of_calls_and_the_openai_function_wrapper():
    text = (
        '<tool_call>[{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"k": 1}}]</tool_call>'
        '<tool_call>{"type": "function", "function": {"name": "c", "arguments": "{\\"z\\": true}"}}</tool_call>'
    )
    assert parse(text).tool_calls == [
        ToolCall(name="a"),
        ToolCall(name="b", arguments={"k": 1}),
        ToolCall(name="c", arguments={"z": True}),
    ]


def test_qwen3_coder_single_call_values_stay_strings():
    parsed = parse(qwen("set_limit", account="A-1", amount="250", flag="true"), "qwen3_coder")
    assert parsed.tool_calls == [
        ToolCall(name="set_limit", arguments={"account": "A-1", "amount": "250", "flag": "true"})
    ]
    assert parsed.errors == []


def test_qwen3_coder_strips_exactly_one_newline_around_values():
    text = (
        "<tool_call>\n<function=f>\n<parameter=body>\n\n  indented\n\n</parameter>\n</function>\n</tool_call>"
    )
    assert parse(text, "qwen3_coder").tool_calls[0].arguments == {"body": "\n  indented\n"}


def test_qwen3_coder_several_calls_in_order_with_content_around():
    text = f"I'll do two things.\n{qwen('first', a='1')}\n{qwen('second')}\nThen report."
    parsed = parse(text, "qwen3_coder")
    assert parsed.tool_calls == [ToolCall(name="first", arguments={"a": "1"}), ToolCall(name="second")]
    assert parsed.content == "I'll do two things.\n\n\nThen report."


def test_qwen3_coder_without_function_tag_is_an_error():
    parsed = parse("<tool_call>\nlookup(order=1)\n</tool_call>", "qwen3_coder")
    assert parsed.tool_calls == []
    assert parsed.errors == ["tool call 1: no <function=NAME> tag in tool call"]


def test_qwen3_coder_unclosed_parameter_is_an_error_and_the_call_is_not_made():
    text = "<tool_call>\n<function=f>\n<parameter=a>\n1\n<parameter=b>\n2\n</parameter>\n</function>\n</tool_call>"
    parsed = parse(text, "qwen3_coder")
    assert parsed.tool_calls == []
    assert len(parsed.errors) == 1 and "unclosed <parameter" in parsed.errors[0]


def test_qwen3_coder_unterminated_final_call_is_parsed():
    text = "Checking.\n<tool_call>\n<function=f>\n<parameter=a>\nx\n</parameter>\n</function>"
    parsed = parse(text, "qwen3_coder")
    assert parsed.tool_calls == [ToolCall(name="f", arguments={"a": "x"})]
    assert parsed.content == "Checking."


def test_tool_call_formats_accept_each_others_body():
    assert parse(hermes("a", {"x": 1}), "qwen3_coder").tool_calls == [ToolCall(name="a", arguments={"x": 1})]
    assert parse(qwen("b", y="2"), "hermes").tool_calls == [ToolCall(name="b", arguments={"y": "2"})]


def test_mistral_json_list_form_with_content_before():
    text = 'Looking it up.[TOOL_CALLS][{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]'
    parsed = parse(text, "mistral")
    assert parsed.tool_calls == [ToolCall(name="a", arguments={"x": 1}), ToolCall(name="b")]
    assert parsed.content == "Looking it up."


def test_mistral_name_args_form_repeated_and_call_ids_ignored():
    text = '[TOOL_CALLS]a[ARGS]{"x": 1}[TOOL_CALLS]b[CALL_ID]abc123XYZ[ARGS]{"y": "z"}'
    assert parse(text, "mistral").tool_calls == [
        ToolCall(name="a", arguments={"x": 1}),
        ToolCall(name="b", arguments={"y": "z"}),
    ]


def test_mistral_without_args_marker_or_with_bad_json_is_an_error():
    parsed = parse("[TOOL_CALLS]just talking[TOOL_CALLS][{oops}]", "mistral")
    assert parsed.tool_calls == []
    assert len(parsed.errors) == 2
    assert "[ARGS]" in parsed.errors[0] and "invalid JSON" in parsed.errors[1]


def test_openai_text_is_plain_content_and_markup_is_not_executed():
    parsed = parse(f"<think>plan</think>Hello {hermes('a', {})}", "openai")
    assert parsed.tool_calls == []
    assert parsed.thinking == "plan"
    assert parsed.content.startswith("Hello <tool_call>")


def test_openai_message_dict_with_json_string_arguments():
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "a", "arguments": '{"x": 1}'}},
            {"id": "c2", "type": "function", "function": {"name": "b", "arguments": {"y": 2}}},
        ],
    }
    parsed = parse(message, "openai")
    assert parsed.tool_calls == [
        ToolCall(name="a", arguments={"x": 1}),
        ToolCall(name="b", arguments={"y": 2}),
    ]
    assert parsed.content == ""


def test_openai_message_as_json_text_is_read_as_the_dict():
    message = {
        "role": "assistant",
        "content": "ok",
        "tool_calls": [{"function": {"name": "a", "arguments": "{}"}}],
    }
    parsed = parse(json.dumps(message), "openai")
    assert parsed.tool_calls == [ToolCall(name="a")]
    assert parsed.content == "ok"


def test_message_dict_content_parts_are_joined_and_format_only_affects_text_calls():
    message = {
        "role": "assistant",
        "content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}],
    }
    for format in FORMATS:
        assert parse(message, format).content == "one\ntwo"
    with_markup = {"role": "assistant", "content": "Hi " + hermes("a", {"x": 1})}
    assert parse(with_markup, "hermes").tool_calls == [ToolCall(name="a", arguments={"x": 1})]
    assert parse(with_markup, "hermes").content == "Hi"
    assert parse(with_markup, "openai").tool_calls == []


def test_message_dict_structured_calls_come_before_calls_in_content():
    message = {
        "content": hermes("second", {}),
        "tool_calls": [{"function": {"name": "first", "arguments": ""}}],
    }
    assert [c.name for c in parse(message).tool_calls] == ["first", "second"]


def test_unknown_format_raises_a_config_error_for_parse_and_render():
    with pytest.raises(UnknownFormatError, match="Known formats"):
        parse("hi", "llama")
    with pytest.raises(ConfigError):
        parse({"content": "hi"}, "llama")
    with pytest.raises(UnknownFormatError):
        render_tool_call(ToolCall(name="a"), "llama")


# --- thinking ----------------------------------------------------------------------------


def test_closed_think_block_is_thinking_not_content():
    parsed = parse("<think>\n  I should look up the order.\n</think>\n\nYour order shipped.")
    assert parsed.thinking == "I should look up the order."
    assert parsed.content == "Your order shipped."


def test_several_think_blocks_are_joined_with_newlines():
    parsed = parse("<think>one</think>A<think> two </think>B")
    assert parsed.thinking == "one\ntwo"
    assert parsed.content == "AB"


def test_empty_think_block_is_empty_thinking_not_none():
    parsed = parse("<think>\n\n</think>\n\nHello")
    assert parsed.thinking == ""
    assert parsed.content == "Hello"


def test_think_block_opened_by_the_prompt_ends_at_the_closing_tag():
    parsed = parse("the prompt opened this block\n</think>\n\nAnswer " + hermes("a", {}))
    assert parsed.thinking == "the prompt opened this block"
    assert parsed.content == "Answer"
    assert parsed.tool_calls == [ToolCall(name="a")]


def test_unterminated_think_makes_the_rest_thinking_and_its_calls_are_not_executed():
    parsed = parse("Intro <think>maybe call " + hermes("refund", {"amount": 100}))
    assert parsed.thinking is not None and parsed.thinking.startswith("maybe call <tool_call>")
    assert parsed.content == "Intro"
    assert parsed.tool_calls == []
    assert parsed.errors == []


@pytest.mark.parametrize("format", TEXT_FORMATS)
def test_tool_call_inside_a_closed_think_block_is_not_executed(format: str):
    call = render_tool_call(ToolCall(name="delete_all", arguments={"x": "1"}), format)
    parsed = parse(f"<think>I could {call} but no</think>OK", format)
    assert parsed.tool_calls == []
    assert parsed.content == "OK"
    assert "delete_all" in (parsed.thinking or "")


def test_reasoning_content_or_reasoning_in_a_dict_is_the_thinking():
    parsed = parse({"role": "assistant", "content": "Done.", "reasoning_content": "  I checked.  "})
    assert parsed.thinking == "I checked."
    assert parsed.content == "Done."
    assert parse({"role": "assistant", "content": "x", "reasoning": "why"}).thinking == "why"


def test_dict_without_reasoning_field_takes_thinking_from_tags_in_content():
    parsed = parse({"role": "assistant", "content": "<think>hmm</think>Answer"})
    assert (parsed.thinking, parsed.content) == ("hmm", "Answer")


# --- malformed output ---------------------------------------------------------------------


def test_broken_json_is_an_error_numbered_by_position_and_other_calls_survive():
    text = hermes("ok1", {}) + '<tool_call>{"name": "bad", "arguments": {</tool_call>' + hermes("ok2", {})
    parsed = parse(text)
    assert [c.name for c in parsed.tool_calls] == ["ok1", "ok2"]
    assert len(parsed.errors) == 1 and parsed.errors[0].startswith("tool call 2: invalid JSON: ")


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ('{"arguments": {}}', 'missing "name"'),
        ('{"name": 7, "arguments": {}}', '"name" must be a string'),
        ('{"name": "  ", "arguments": {}}', 'empty "name"'),
        ('{"name": "a", "arguments": [1, 2]}', "must be a JSON object, got array"),
        ('{"name": "a", "arguments": "not json"}', "not valid JSON"),
        ('{"name": "a", "arguments": "[1]"}', "must be a JSON object, got array"),
        ('"just a string"', "expected a JSON object"),
        ("", "empty tool call"),
    ],
)
def test_malformed_hermes_call_is_reported_and_not_made(body: str, fragment: str):
    parsed = parse(f"<tool_call>{body}</tool_call>")
    assert parsed.tool_calls == []
    assert len(parsed.errors) == 1 and fragment in parsed.errors[0]


def test_stray_and_nested_tool_call_tags_do_not_leak_into_content():
    parsed = parse(
        "a</tool_call>b<tool_call><tool_call>" + '{"name": "x", "arguments": {}}</tool_call></tool_call>c'
    )
    assert parsed.tool_calls == [ToolCall(name="x")]
    assert parsed.content == "abc"
    assert parsed.errors == []


def test_non_text_input_is_an_error_not_an_exception():
    for value in (None, 42, b"<tool_call>", ["content"]):
        parsed = parse(value)  # type: ignore[arg-type]
        assert isinstance(parsed, Parsed)
        assert parsed.tool_calls == [] and parsed.content == ""
        assert len(parsed.errors) == 1 and "expected model output as str or dict" in parsed.errors[0]


def test_dict_with_none_or_odd_fields_never_raises():
    assert parse({"role": "assistant", "content": None}).content == ""
    odd = parse({"content": 5, "tool_calls": "nope", "reasoning_content": None})
    assert odd.tool_calls == [] and len(odd.errors) == 2
    bad_items = parse({"tool_calls": [None, {"function": {"arguments": "{}"}}, {"function": {"name": "a"}}]})
    assert bad_items.tool_calls == [ToolCall(name="a")]
    assert [e.split(":")[0] for e in bad_items.errors] == ["tool call 1", "tool call 2"]


def test_non_string_keys_in_dict_arguments_are_an_error():
    parsed = parse({"tool_calls": [{"function": {"name": "a", "arguments": {1: "x"}}}]})
    assert parsed.tool_calls == [] and len(parsed.errors) == 1


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize(
    "text",
    [
        '\ud800<tool_call>{"name": "a\\ud800", "arguments": {"k": "\ud800"}}</tool_call>\udfff',
        "<tool_call><tool_call><tool_call></tool_call>",
        "<think><think></think></think></think><think>",
        "[TOOL_CALLS][TOOL_CALLS][ARGS][ARGS]{",
        "<tool_call>\n<function=\n<parameter=\n</parameter></function></tool_call>",
        '<tool_call>{"name": "a", "arguments": ' + "[" * 5000 + "</tool_call>",
        "[TOOL_CALLS]" + "[" * 5000,
        bytes(range(256)).decode("latin-1"),
        "\x00\x1b[31m<tool_call>\x00{}</tool_call>",
    ],
)
def test_garbage_never_raises(text: str, format: str):
    parsed = parse(text, format)
    assert isinstance(parsed, Parsed) and isinstance(parsed.content, str)
    assert all(isinstance(c, ToolCall) for c in parsed.tool_calls)
    assert not any(e.startswith(SAFETY_NET) for e in parsed.errors)


def test_lone_surrogates_survive_in_names_and_values():
    parsed = parse('<tool_call>{"name": "a\ud800", "arguments": {"k": "\\ud800"}}</tool_call>')
    assert parsed.tool_calls == [ToolCall(name="a\ud800", arguments={"k": "\ud800"})]


@pytest.mark.parametrize("format", FORMATS)
def test_megabyte_of_adversarial_markup_is_handled(format: str):
    unit = '<tool_call>{"name": "x", "arguments": {' + "{" * 40 + '"<tool_call>[TOOL_CALLS]<parameter=' + "\n"
    text = unit * (1_000_000 // len(unit)) + hermes("last", {"ok": True})
    parsed = parse(text, format)
    assert isinstance(parsed.content, str)
    if format == "hermes":
        assert parsed.tool_calls == [ToolCall(name="last", arguments={"ok": True})]
        assert len(parsed.errors) == 2 * (1_000_000 // len(unit))  # two openings per unit


@pytest.mark.parametrize("format", FORMATS)
def test_megabyte_of_repeated_open_tags_is_handled(format: str):
    for text in ("<tool_call>{" * 80_000, '[TOOL_CALLS]{"' * 80_000, "<think>" * 150_000, "[" * 1_000_000):
        parsed = parse(text, format)
        assert parsed.tool_calls == []
        assert isinstance(parsed.content, str)


_FRAGMENTS = st.sampled_from(
    [
        "<think>", "</think>", "<tool_call>", "</tool_call>", "<function=", "</function>",
        "<parameter=", "</parameter>", "[TOOL_CALLS]", "[ARGS]", "[CALL_ID]", "{", "}", "[", "]",
        '"name"', '"arguments"', ":", ",", '"', "\\", "\n", ">", "f", "\ud800", "null", "1",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_FRAGMENTS, st.text(max_size=8)), max_size=40).map("".join))
def test_parse_never_raises_on_arbitrary_text(text: str):
    for format in FORMATS:
        parsed = parse(text, format)
        assert isinstance(parsed, Parsed)
        assert isinstance(parsed.content, str)
        assert isinstance(parsed.errors, list)
        assert parsed.thinking is None or isinstance(parsed.thinking, str)
        assert not any(e.startswith(SAFETY_NET) for e in parsed.errors)


# --- coerce_arguments ------------------------------------------------------------------------


def props(**schemas: dict) -> dict:
    return {"type": "object", "properties": schemas}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("5", 5), (" -12 ", -12), ("5.0", 5), ("1e3", 1000), ("12345678901234567890.0", 12345678901234567890)],
)
def test_integer_text_becomes_int(raw: str, expected: int):
    result = coerce_arguments({"n": raw}, props(n={"type": "integer"}))
    assert result == {"n": expected} and type(result["n"]) is int


@pytest.mark.parametrize("raw", ["5.5", "five", "1_000", "nan", "inf", "", "1e999999999"])
def test_integer_text_that_is_not_an_integer_stays_raw(raw: str):
    assert coerce_arguments({"n": raw}, props(n={"type": "integer"})) == {"n": raw}


@pytest.mark.parametrize(
    ("raw", "expected", "kind"), [("2.50", 2.5, float), ("3", 3, int), ("-1e-2", -0.01, float)]
)
def test_number_text_becomes_int_for_integer_literals_else_float(raw: str, expected: float, kind: type):
    result = coerce_arguments({"x": raw}, props(x={"type": "number"}))
    assert result == {"x": expected} and type(result["x"]) is kind


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("true", True),
        ("True", True),
        ("YES", True),
        ("1", True),
        ("false", False),
        ("False", False),
        ("no", False),
        ("0", False),
    ],
)
def test_boolean_text_variants(raw: str, expected: bool):
    assert coerce_arguments({"b": raw}, props(b={"type": "boolean"})) == {"b": expected}


def test_boolean_text_that_is_not_a_boolean_stays_raw():
    assert coerce_arguments({"b": "maybe"}, props(b={"type": "boolean"})) == {"b": "maybe"}


@pytest.mark.parametrize("raw", ["null", "None", ""])
def test_null_text_becomes_none(raw: str):
    assert coerce_arguments({"v": raw}, props(v={"type": "null"})) == {"v": None}


def test_array_and_object_text_is_decoded_when_it_has_the_declared_type():
    schema = props(items={"type": "array"}, filters={"type": "object"})
    assert coerce_arguments({"items": '["a", "b"]', "filters": '{"k": 1}'}, schema) == {
        "items": ["a", "b"],
        "filters": {"k": 1},
    }
    wrong = {"items": '{"k": 1}', "filters": "[1]"}
    assert coerce_arguments(wrong, schema) == wrong


def test_lossless_number_to_string_where_a_string_is_declared():
    schema = props(zip={"type": "string"}, price={"type": "string"}, flag={"type": "string"})
    assert coerce_arguments({"zip": 1001, "price": 2.5, "flag": True}, schema) == {
        "zip": "1001",
        "price": "2.5",
        "flag": True,  # a boolean is not a number: left for the tool to reject
    }


def test_any_of_with_null_tries_each_alternative():
    schema = props(n={"anyOf": [{"type": "integer"}, {"type": "null"}]})
    assert coerce_arguments({"n": "7"}, schema) == {"n": 7}
    assert coerce_arguments({"n": "null"}, schema) == {"n": None}
    assert coerce_arguments({"n": "seven"}, schema) == {"n": "seven"}


def test_union_keeps_a_string_that_a_string_alternative_allows():
    assert coerce_arguments({"id": "7"}, props(id={"type": ["integer", "string"]})) == {"id": "7"}
    assert coerce_arguments({"id": "7"}, props(id={"oneOf": [{"type": "string"}, {"type": "integer"}]})) == {
        "id": "7"
    }
    assert coerce_arguments({"id": "7"}, props(id={"type": "integer", "nullable": True})) == {"id": 7}


def test_nested_array_items_and_object_properties_are_coerced():
    line = props(qty={"type": "integer"}, gift={"type": "boolean"})
    schema = props(
        lines={"type": "array", "items": line},
        meta=props(ids={"type": "array", "items": {"type": "number"}}),
    )
    arguments = {"lines": '[{"qty": "2", "gift": "no"}]', "meta": {"ids": ["1.5", "2"]}}
    assert coerce_arguments(arguments, schema) == {
        "lines": [{"qty": 2, "gift": False}],
        "meta": {"ids": [1.5, 2]},
    }


def test_failed_coercion_keeps_raw_value_and_unknown_keys_are_kept():
    schema = props(n={"type": "integer"})
    assert coerce_arguments({"n": "many", "extra": "5", "obj": {"a": "1"}}, schema) == {
        "n": "many",
        "extra": "5",
        "obj": {"a": "1"},
    }


def test_coercion_does_not_mutate_the_input():
    arguments = {"n": "5", "nested": {"ids": ["1"]}, "free": {"deep": ["x"]}}
    before = copy.deepcopy(arguments)
    schema = props(n={"type": "integer"}, nested=props(ids={"type": "array", "items": {"type": "integer"}}))
    result = coerce_arguments(arguments, schema)
    assert arguments == before
    assert result == {"n": 5, "nested": {"ids": [1]}, "free": {"deep": ["x"]}}
    result["free"]["deep"].append("y")
    assert arguments == before


def test_coercion_never_raises_on_odd_input():
    assert coerce_arguments(["not", "a", "dict"], props()) == ["not", "a", "dict"]  # type: ignore[arg-type]
    assert coerce_arguments({"a": "1"}, None) == {"a": "1"}  # type: ignore[arg-type]
    assert coerce_arguments({"a": "1"}, {"properties": "nope"}) == {"a": "1"}
    assert coerce_arguments({"a": "1"}, props(a={"type": "weird"})) == {"a": "1"}
    assert coerce_arguments({"a": "9" * 5000}, props(a={"type": "integer"})) == {"a": "9" * 5000}
    deep: object = "x"
    for _ in range(5000):
        deep = [deep]
    assert coerce_arguments({"a": deep}, props(a={"type": "array"}))["a"] is not None


# --- render_tool_call ------------------------------------------------------------------------


def test_render_hermes_is_json_between_tags_without_ascii_escapes():
    text = render_tool_call(ToolCall(name="greet", arguments={"who": "Zoë"}))
    assert text == '<tool_call>\n{"name": "greet", "arguments": {"who": "Zoë"}}\n</tool_call>'


def test_render_qwen3_coder_writes_non_string_values_as_json():
    text = render_tool_call(ToolCall(name="f", arguments={"s": "hi", "n": 3, "l": [1, True]}), "qwen3_coder")
    assert text == (
        "<tool_call>\n<function=f>\n<parameter=s>\nhi\n</parameter>\n<parameter=n>\n3\n</parameter>\n"
        "<parameter=l>\n[1, true]\n</parameter>\n</function>\n</tool_call>"
    )


def test_render_mistral_and_openai():
    call = ToolCall(name="f", arguments={"a": 1})
    assert render_tool_call(call, "mistral") == '[TOOL_CALLS][{"name": "f", "arguments": {"a": 1}}]'
    assert json.loads(render_tool_call(call, "openai")) == {"name": "f", "arguments": {"a": 1}}


@pytest.mark.parametrize("format", ["hermes", "mistral"])
def test_render_then_parse_roundtrips_json_formats(format: str):
    call = ToolCall(
        name="book", arguments={"n": 2, "x": 1.5, "ok": False, "none": None, "l": [{"k": "v"}], "s": "a\nb"}
    )
    assert parse(render_tool_call(call, format), format).tool_calls == [call]


def test_render_then_parse_roundtrips_qwen3_coder_with_strings_and_after_coercion():
    strings = ToolCall(name="note", arguments={"text": "multi\nline\n", "empty": "", "tag": "<b>"})
    assert parse(render_tool_call(strings, "qwen3_coder"), "qwen3_coder").tool_calls == [strings]

    typed = ToolCall(name="book", arguments={"n": 2, "ok": True, "l": [1, 2], "m": {"a": None}})
    schema = props(n={"type": "integer"}, ok={"type": "boolean"}, l={"type": "array"}, m={"type": "object"})
    (parsed,) = parse(render_tool_call(typed, "qwen3_coder"), "qwen3_coder").tool_calls
    assert coerce_arguments(parsed.arguments, schema) == typed.arguments


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None)
@given(
    name=st.from_regex(r"[A-Za-z_][A-Za-z0-9_.-]{0,20}", fullmatch=True),
    arguments=st.dictionaries(st.text(), _JSON_VALUES, max_size=4),
    format=st.sampled_from(["hermes", "mistral"]),
)
def test_render_parse_roundtrip_property(name: str, arguments: dict, format: str):
    call = ToolCall(name=name, arguments=arguments)
    text = render_tool_call(call, format)
    if "think>" in text:  # a think tag in a value reads as thinking, by design
        return
    assert parse(text, format).tool_calls == [call]
