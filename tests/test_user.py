"""User simulators: the scripted one, and LLMUser over real HTTP with the real client."""

from __future__ import annotations

import asyncio
import json

import gymnasium as gym
import pytest

import tb_env
from tb_env.errors import ConfigError, SimulatorError
from tb_env.parties.scripted import _LINES
from tb_env.parties.user import STOP, LLMUser, ScriptedUser, make_user

from .openai_server import FakeOpenAI

_UNKNOWN = _LINES["unknown"]


def test_lines_user_says_its_turns_in_order_then_stops(mini):
    task = tb_env.get_task("mini/deposit-001")
    user = make_user("lines")
    msgs = [{"role": "system", "content": "p"}, {"role": "user", "content": task.user.first_message}]
    first = asyncio.run(user.reply(task, msgs))
    assert first == "Thanks!"
    msgs += [{"role": "assistant", "content": "a"}, {"role": "user", "content": first}]
    assert asyncio.run(user.reply(task, msgs)) == STOP


def _talk(task, *agent, seed=0):
    """The scripted user's replies to the agent's turns (strings: words; tuples: a tool call)."""
    user = ScriptedUser()
    msgs = [{"role": "system", "content": "p"}, {"role": "user", "content": task.user.first_message}]
    replies = []
    for i, turn in enumerate(agent):
        if isinstance(turn, tuple):
            name, args, result = turn
            msgs.append({"role": "assistant", "content": None, "tool_calls": [
                {"id": f"c{i}", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]})
            msgs.append({"role": "tool", "tool_call_id": f"c{i}", "name": name, "content": result})
            continue
        msgs.append({"role": "assistant", "content": turn})
        said = asyncio.run(user.reply(task, msgs, seed))
        replies.append(said)
        msgs.append({"role": "user", "content": said.replace(STOP, "").strip()})
        if STOP in said:
            break
    return replies


DEPOSIT = ("deposit", {"account_id": "A-001", "amount": 100}, '{"balance": 350}')


def test_scripted_user_answers_what_was_asked_from_its_facts(mini):
    task = tb_env.get_task("mini/deposit-001")
    (said,) = _talk(task, "Sure. Which account number should I use?")
    assert "A-001" in said and STOP not in said
    (unknown,) = _talk(task, "What is your mother's maiden name?")
    assert unknown in _UNKNOWN and "A-001" not in unknown


def test_scripted_user_confirms_what_it_wants_and_declines_the_rest(mini):
    task = tb_env.get_task("mini/deposit-001")
    (yes,) = _talk(task, "I'm about to deposit 100 into A-001. Shall I go ahead?")
    (no,) = _talk(task, "Shall I deposit it into A-002 instead?")  # the wrong path's account
    (offer,) = _talk(task, "Would you like me to sign you up for our premium newsletter?")
    assert yes.lower().startswith("yes") and no.lower().startswith("no") and offer.lower().startswith("no")


def test_scripted_user_reads_proposals_as_a_person_would(mini):
    task = tb_env.get_task("mini/deposit-001")
    # the action it asked for, in other words; a distractor named only to rule it out
    assert _talk(task, "Would you like me to make that deposit for you?")[0].lower().startswith("yes")
    assert _talk(task, "I'll deposit 100 into A-001 (not A-002). Is that all right?")[0].lower().startswith("yes")
    # a question about a detail is not an offer; a proposal naming its own facts needs no answer of them
    (where,) = _talk(task, "Which account should I put it in?")
    assert "A-001" in where and not where.lower().startswith("no")
    (both,) = _talk(task, "Shall I deposit 100 into account A-001 now?")
    assert both.lower().startswith("yes") and "account id:" not in both.lower()


def test_a_clarifying_question_gets_the_tasks_own_facts_not_yet_said(mini):
    task = tb_env.get_task("mini/deposit-001")
    choosy = task.model_copy(update={"id": "mini/choosy", "user": task.user.model_copy(
        update={"known_facts": {"account_id": "A-001", "email": "o@example.com", "deposit_source": "cash"}})})
    (said,) = _talk(choosy, "And is this coming from a cheque or from cash?")
    assert "cash" in said and "o@example.com" not in said  # identity details are given only when asked
    (unknown,) = _talk(choosy, "What is your mother's maiden name?")
    assert unknown in _UNKNOWN


@pytest.mark.parametrize("ask", [
    "Would you like me to do that?", "Should I do that now?", "Are you happy for me to do that?",
    "Just to confirm, is that what you'd like me to do?", "Do I have your go-ahead?", "Shall I start?",
])
def test_a_bare_confirmation_of_the_plan_gets_a_yes(mini, ask):
    task = tb_env.get_task("mini/deposit-001")
    assert _talk(task, ask)[0].lower().startswith("yes")


def test_an_offer_of_something_extra_gets_a_no_thanks(mini):
    task = tb_env.get_task("mini/deposit-001")
    assert _talk(task, "Would you also like to sign up for our newsletter?")[0] in _LINES["no_thanks"]
    assert _talk(task, "Shall I also make the deposit into A-001?")[0].lower().startswith("yes")  # what it asked for


def test_a_proposal_that_gets_the_customers_own_facts_wrong_is_corrected(mini):
    task = tb_env.get_task("mini/deposit-001")
    own = task.model_copy(update={"id": "mini/own-facts", "user": task.user.model_copy(update={"known_facts": {
        "account_id": "A-001", "deposit_date": "2026-12-04", "cash_or_cheque": "cheque",
        "deliver_to_address": "12 Elm St (my work address)"}})})
    for wrong in ("I'll date the deposit today, 2026-11-30. Shall I go ahead?", "Shall I record it as cash?",
                  "Shall I send the receipt to your home address, 9 Oak Rd?"):
        said = _talk(own, wrong)[0]
        assert said.startswith("No, that's not right") and STOP not in said, (wrong, said)
    assert _talk(own, "I'll date it December 4th and record the cheque. Shall I go ahead?")[0].lower().startswith("yes")


def test_scripted_user_waits_when_a_refusal_comes_with_a_next_step(mini):
    task = tb_env.get_task("mini/deposit-001")
    (said,) = _talk(task, "Unfortunately I can't do that right away, so I'm escalating it to a specialist now.")
    assert STOP not in said


def test_scripted_user_stays_until_its_request_is_handled_then_ends(mini):
    task = tb_env.get_task("mini/deposit-001")
    replies = _talk(task, "Hello! Let me have a look.", DEPOSIT, "Working on it.", "Done, your balance is now $350.")
    assert all(STOP not in r for r in replies[:-1]) and STOP in replies[-1]
    assert task.user.first_message in replies[0]  # no tool call yet: it restates its request
    # the write made but the amount it asked about not told: not handled yet
    assert STOP not in _talk(task, DEPOSIT, "All done!")[0]
    # a holding line is not an answer, even once the work is done
    faulty_free = task.model_copy(update={"id": "mini/no-facts", "assertions": []})
    assert STOP not in _talk(faulty_free, DEPOSIT, "One moment, let me check.")[0]
    assert STOP in _talk(faulty_free, DEPOSIT, "Your deposit went through.")[0]


def test_scripted_user_accepts_a_refusal_and_gives_up_on_an_idle_agent(mini):
    task = tb_env.get_task("mini/deposit-001")
    assert STOP in _talk(task, "I'm sorry, but I can't make deposits today.")[0]
    idle = _talk(task, "Hmm.", "Let me think.", "Still thinking.", "Almost.")
    assert STOP in idle[-1] and len(idle) == 3


def test_scripted_user_is_deterministic_per_seed_and_varies_across_seeds(mini):
    task = tb_env.get_task("mini/deposit-001")
    turns = ("Hello!", DEPOSIT, "Done, your balance is now $350. Anything else?")
    assert _talk(task, *turns, seed=3) == _talk(task, *turns, seed=3)
    assert len({tuple(_talk(task, *turns, seed=s)) for s in range(12)}) > 1


def test_a_cautious_agent_finishes_with_the_default_user(mini):
    env = gym.make("tb_env/Mini-v0")
    env.reset(seed=1, options={"task_id": "mini/deposit-001"})
    obs, *_ = env.step("Happy to help. Could you confirm the account id?")
    assert "A-001" in obs
    obs, *_ = env.step("I will deposit 100 into A-001. Shall I go ahead?")
    assert "yes" in obs.lower()
    env.step('<tool_call>{"name": "deposit", "arguments": {"account_id": "A-001", "amount": 100}}</tool_call>')
    env.step('<tool_call>{"name": "get_account", "arguments": {"account_id": "A-001"}}</tool_call>')
    _, reward, terminated, _, info = env.step("Done: your new balance is three hundred and fifty dollars.")
    assert terminated and info["end_reason"] == "user_stop" and reward == 1.0
    env.close()


def test_llm_user_plays_the_persona_over_http_and_can_end_the_episode(mini):
    with FakeOpenAI() as server:
        server.replies.extend(
            [
                {"role": "assistant", "content": "My account is A-001."},
                {"role": "assistant", "content": "Great, thanks. ###STOP###"},
            ]
        )
        user = LLMUser(model="sim-1", base_url=server.url, api_key="k")
        env = gym.make("tb_env/Mini-v0", user=user)
        env.reset(seed=0, options={"task_id": "mini/deposit-001"})
        obs, _, term, _, _ = env.step("Which account?")
        assert obs == "user: My account is A-001." and not term
        env.step('<tool_call>{"name": "deposit", "arguments": {"account_id": "A-001", "amount": 100}}</tool_call>')
        obs, reward, term, _, info = env.step("Done, your balance is 350.")
        assert term and info["end_reason"] == "user_stop" and reward == 1.0
        assert info["messages"][-1] == {"role": "user", "content": "Great, thanks."}
        env.close()
        first, second = server.requests
        assert first["model"] == "sim-1" and first["temperature"] == 0.0
        system = first["messages"][0]["content"]
        assert "Owner of A-001" in system and "account_id: A-001" in system and STOP in system
        # roles are swapped: the agent speaks as "user" to the simulator, tool traffic is hidden
        assert [m["role"] for m in second["messages"]] == ["system", "assistant", "user", "assistant", "user"]
        assert all("tool_call" not in json.dumps(m) for m in second["messages"])
        assert isinstance(first.get("seed"), int)


def test_llm_user_retries_server_errors_then_succeeds(mini):
    with FakeOpenAI() as server:
        server.replies.extend([500, 429, {"role": "assistant", "content": "Hello again"}])
        user = LLMUser(model="m", base_url=server.url, max_retries=3)
        task = tb_env.get_task("mini/deposit-001")
        text = asyncio.run(user.reply(task, [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "?"}]))
        assert text == "Hello again" and len(server.requests) == 3


def test_llm_user_failure_is_an_infra_error_not_a_zero(mini):
    with FakeOpenAI() as server:
        server.replies.extend([503] * 10)
        user = LLMUser(model="m", base_url=server.url, max_retries=2)
        env = gym.make("tb_env/Mini-v0", user=user)
        env.reset(options={"task_id": "mini/deposit-001"})
        _, reward, term, _, info = env.step("How can I help?")
        assert term and reward is None
        assert info["infra_error"].startswith("user_simulator:") and "check" not in info
        assert len(server.requests) == 3
        env.close()


def test_llm_user_timeout_is_an_infra_error(mini):
    with FakeOpenAI() as server:
        server.replies.extend([("stall", 2.0)] * 3)
        user = LLMUser(model="m", base_url=server.url, max_retries=1, timeout_s=0.3)
        with pytest.raises(SimulatorError, match="failed after 2 attempts"):
            asyncio.run(user.reply(tb_env.get_task("mini/deposit-001"), [{"role": "user", "content": "hi"}]))


def test_llm_user_needs_a_model(monkeypatch):
    monkeypatch.delenv("TB_USER_MODEL", raising=False)
    with pytest.raises(ConfigError, match="TB_USER_MODEL"):
        LLMUser()


def test_how_much_or_when_would_you_like_asks_for_a_detail_not_for_a_yes(mini):
    """Probing found "How much would you like to move?" answered "Yes, please go ahead." and "When ...?" unanswered."""
    task = tb_env.get_task("mini/deposit-001")
    dated = task.model_copy(update={"id": "mini/dated", "user": task.user.model_copy(update={"known_facts": {
        "account_id": "A-001", "amount": "100", "date": "2026-12-04"}})})
    (much,) = _talk(dated, "How much would you like to deposit?")
    assert "100" in much and not much.lower().startswith(("yes", "no"))
    (when,) = _talk(dated, "When would you like it to go in?")
    assert ("2026-12-04" in when or "December 4" in when) and not when.lower().startswith(("yes", "no")), when
    assert _talk(dated, "Would you like me to deposit 100 into A-001?")[0].lower().startswith("yes")


def test_a_confirmation_that_names_a_declined_figure_as_context_gets_a_yes(mini):
    """Audit 23: "charge 172.81 (the 157.81 instalment plus the late fee)?" drew "No, that's not what I want" where
    157.81 alone was what the customer declines: the wanted figure named beside it is the proposal."""
    task = tb_env.get_task("mini/deposit-001")
    assert _talk(task, "I'll deposit 100 into A-001; A-002 stays as it is. Shall I go ahead?")[0].lower().startswith("yes")
    assert _talk(task, "Shall I deposit 100 into both A-001 and A-002?")[0].lower().startswith("no")
