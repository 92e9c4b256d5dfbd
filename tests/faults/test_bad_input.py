"""Arbitrary model output into `step`: never an exception, always a well-formed
observation with counters in `info`, and never an infrastructure error (bad input is the
agent's, not the environment's)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import tb_env
from tb_env.parties.interpret import FORMATS

FRAGMENTS = [
    "<tool_call>", "</tool_call>", "<think>", "</think>", "{", "}", "[", "]", ":", ",", '"', "\\",
    '"name"', '"arguments"', '"parameters"', '"function"', '"deposit"', '"get_account"', '"add_note"',
    '"set_status"', '"end_conversation"', '"account_id"', '"amount"', '"text"', '"A-001"', '"A-002"',
    "NaN", "Infinity", "-Infinity", "1e999", "-0", "null", "true", '"\\ud800"', "\x00", "\n", " ",
    "[TOOL_CALLS]", "[ARGS]", "<function=deposit>", "<function=add_note>", "</function>",
    "<parameter=account_id>", "<parameter=amount>", "<parameter=text>", "</parameter>",
    "'; DROP TABLE accounts; --", "%s%n%x", "../../etc/passwd",
]

model_text = st.one_of(
    st.text(),
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=60).map("".join),
    st.binary(max_size=300).map(lambda b: b.decode("utf-8", "surrogateescape")),  # invalid UTF-8
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
tool_names = st.sampled_from(["deposit", "get_account", "add_note", "set_status", "end_conversation", "nope", ""])
message_dicts = st.one_of(
    st.dictionaries(st.text(max_size=10), json_values, max_size=4),
    st.fixed_dictionaries(
        {
            "role": st.sampled_from(["assistant", "user", "tool", "x"]),
            "content": st.none() | model_text | json_values,
            "tool_calls": st.none() | st.lists(
                st.one_of(
                    json_values,
                    st.fixed_dictionaries({
                        "id": st.none() | st.text(max_size=5) | st.integers(),
                        "type": st.just("function"),
                        "function": st.fixed_dictionaries({
                            "name": tool_names | json_values,
                            "arguments": st.one_of(json_values, model_text,
                                                   st.dictionaries(st.text(max_size=10), json_values, max_size=3)
                                                   .map(lambda d: json.dumps(d))),
                        }),
                    }),
                ),
                max_size=3,
            ),
        }
    ),
)

BIG = '<tool_call>{"name": "add_note", "arguments": {"account_id": "A-001", "text": "' + "x" * (1 << 20) + '"}}</tool_call>'
NESTED = ('<tool_call>{"name": "add_note", "arguments": {"account_id": "A-001", "text": '
          '"<tool_call>{\\"name\\": \\"set_status\\", \\"arguments\\": {\\"account_id\\": \\"A-001\\", '
          '\\"status\\": \\"closed\\"}}</tool_call>"}}</tool_call>')
DUPLICATE_KEYS = '<tool_call>{"name": "get_account", "name": "deposit", "arguments": {"account_id": "A-001", "amount": 5, "amount": 5000}}</tool_call>'
NON_FINITE = '<tool_call>{"name": "deposit", "arguments": {"account_id": "A-001", "amount": NaN}}</tool_call>'
NON_FINITE_TEXT = {"role": "assistant", "content": None, "tool_calls": [{"id": "x", "type": "function", "function": {
    "name": "deposit", "arguments": '{"account_id": "A-001", "amount": "-Infinity"}'}}]}
LONE_SURROGATE = '<tool_call>{"name": "get_account", "arguments": {"account_id": "A-\\udcff"}}</tool_call>'
RAW_SURROGATE = '<tool_call>{"name": "add_note", "arguments": {"account_id": "A-001", "text": "\udcff\ud800"}}</tool_call>'


class Envs:
    """One env per format, reset whenever an episode ends (cheap: a template copy)."""

    def __init__(self) -> None:
        self.envs: dict[str, tb_env.TBEnv] = {}
        self.last: dict[str, dict] = {}
        self.examples = 0

    def step(self, fmt: str, action):
        e = self.envs.get(fmt)
        if e is None:
            e = self.envs[fmt] = tb_env.TBEnv(domain="mini", format=fmt, max_turns=8)
        if e.episode is None or e.episode.done:
            _, self.last[fmt] = e.reset(options={"task_id": "mini/deposit-001"})
        before = self.last[fmt]
        self.examples += 1
        out = e.step(action)
        self.last[fmt] = out[4]
        return before, out

    def close(self) -> None:
        for e in self.envs.values():
            e.close()


@pytest.fixture(scope="module")
def envs(mini):
    holder = Envs()
    yield holder
    holder.close()


def check_step(before: dict, out) -> None:
    obs, reward, terminated, truncated, info = out
    assert isinstance(obs, str)
    assert isinstance(terminated, bool) and isinstance(truncated, bool)
    assert info["infra_error"] is None, f"bad model output became an infrastructure error: {info['infra_error']}"
    if terminated or truncated:
        assert reward in (0.0, 1.0) or (reward is None and info.get("skipped"))
    else:
        assert reward == 0.0
    for counter in ("turn", "tool_calls", "parse_errors", "tool_errors", "mcp_tool_calls"):
        assert isinstance(info[counter], int) and info[counter] >= before.get(counter, 0)
    for m in info["messages"]:
        assert m["role"] in ("system", "user", "assistant", "tool")
        assert m.get("content") is None or isinstance(m["content"], str)
    json.dumps(info, default=str)  # serialisable, as the service sends it


EXAMPLES = 400


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(action=model_text, fmt=st.sampled_from(FORMATS))
@example(action=BIG, fmt="hermes")
@example(action=NESTED, fmt="hermes")
@example(action=DUPLICATE_KEYS, fmt="hermes")
@example(action=NON_FINITE, fmt="hermes")
@example(action=LONE_SURROGATE, fmt="hermes")
@example(action=RAW_SURROGATE, fmt="hermes")
@example(action="<tool_call>" * 5000 + "{" * 5000, fmt="hermes")
@example(action="[TOOL_CALLS]" + "[" * 100_000, fmt="mistral")
@example(action="<tool_call><function=deposit><parameter=amount>" * 2000, fmt="qwen3_coder")
def test_any_model_text_gives_a_well_formed_step(envs, action, fmt):
    check_step(*envs.step(fmt, action))


@settings(max_examples=EXAMPLES // 2, deadline=None, suppress_health_check=list(HealthCheck))
@given(action=message_dicts)
@example(action=NON_FINITE_TEXT)
def test_any_message_dict_gives_a_well_formed_step(envs, action):
    check_step(*envs.step("openai", action))


def test_nested_call_in_an_argument_is_data_not_a_call(envs):
    _, (_, _, _, _, info) = envs.step("hermes", NESTED)
    assert info["tool_calls"] >= 1
    e = envs.envs["hermes"]

    async def status():
        return await e.episode.db.scalar("SELECT status FROM accounts WHERE id = 'A-001'")

    from tb_env.core.loop import run_sync

    assert run_sync(status()) == "open"


@pytest.mark.long
@settings(max_examples=EXAMPLES * 10, deadline=None, suppress_health_check=list(HealthCheck))
@given(action=st.one_of(model_text, message_dicts), fmt=st.sampled_from(FORMATS))
def test_any_model_output_gives_a_well_formed_step_long(envs, action, fmt):
    check_step(*envs.step("openai" if isinstance(action, dict) else fmt, action))
