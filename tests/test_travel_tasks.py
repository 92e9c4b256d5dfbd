"""The travel tasks grade what the policy asks, in any words a competent agent uses: a reply that
gives the reason or the changed value in its own words scores 1, one that leaves it out or
gives a wrong one scores 0, and no record is read before the caller is verified (a namesake's
never)."""

from __future__ import annotations

import asyncio

import pytest

import tb_env
from tb_env.core.episode import run_episode
from tb_env.domain.normalize import normalize
from tb_env.domain.task import Task, ToolCall
from tb_env.kit.probes import ScriptPolicy

RECORD_READS = {"get_traveller", "list_traveller_bookings", "get_booking", "get_cancellation_quote", "list_approvals",
                "get_loyalty_account", "list_traveller_invoices", "get_ticket"}


def _tasks(template: str) -> list[Task]:
    return [t for t in tb_env.list_tasks("travel") if t.tags.get("template") == template]


def _first_of_each_template() -> list[Task]:
    seen: dict[str, Task] = {}
    for t in tb_env.list_tasks("travel"):
        seen.setdefault(str(t.tags.get("template")), t)
    return list(seen.values())


def _run(task: Task, plan: list[ToolCall | str]) -> float | None:
    return asyncio.run(run_episode(task, ScriptPolicy(plan), max_turns=len(plan) + 12)).reward


def _call(name: str, **arguments: str) -> ToolCall:
    return ToolCall(name=name, arguments=arguments)


def _golden_with(task: Task, reply: str) -> list[ToolCall | str]:
    return [*task.golden_actions, reply]


def test_no_two_reply_facts_of_a_task_share_a_value():
    """A fee equal to its refund (or a nightly rate to its total) lets one stand in for the other."""
    for task in tb_env.list_tasks("travel"):
        values = [normalize(f.fact) for a in task.assertions if a.kind == "response_contains" for f in a.body.facts]
        assert len(values) == len(set(values)), (task.id, values)


def _verify_then_read(task: Task) -> tuple[int, ToolCall] | None:
    """The golden path's identity check and the first record it reads afterwards."""
    g = list(task.golden_actions)
    k = next((i for i, c in enumerate(g) if c.name == "verify_traveller"), None)
    read = next((c for c in g[k + 1:] if c.name in RECORD_READS), None) if k is not None else None
    return (k, read) if read else None


@pytest.mark.parametrize("task", [t for t in _first_of_each_template() if _verify_then_read(t)], ids=lambda t: t.id)
def test_reading_the_callers_records_before_verifying_them_scores_0(task):
    k, read = _verify_then_read(task)
    g = list(task.golden_actions)
    assert _run(task, [*g[:k], read, *g[k:], task.golden_reply]) == 0


def test_a_namesakes_bookings_are_never_read():
    for task in _tasks("same_name_traveller")[:2]:
        people = task.initial_patch["travellers"]
        me = next(r for r in people if r["id"] == task.golden_actions[1].arguments["traveller_id"])
        twin = next(r for r in people if r["id"] != me["id"] and (r["first_name"], r["last_name"]) ==
                    (me["first_name"], me["last_name"]))
        g = list(task.golden_actions)
        peek = _call("list_traveller_bookings", traveller_id=twin["id"])
        assert _run(task, [*g[:2], peek, *g[2:], task.golden_reply]) == 0, task.id
        assert _run(task, _golden_with(task, task.golden_reply)) == 1, task.id


def test_a_failed_verification_is_explained_in_the_agents_own_words_and_a_wrong_reason_fails():
    task = _tasks("verification_fails_no_action")[0]
    good = ["I'm sorry, the details you gave aren't the ones on the profile, so I can't change anything.",
            "I couldn't confirm that you're the traveller, so I can't share or change any booking.",
            "Those details don't match our records, so I'm unable to help with this booking."]
    bad = ["You're verified, but I'm afraid I can't do that.", "I'm sorry, but I can't help with that request.",
           "I can't change that booking: it is on a non-refundable rate."]
    for reply in good:
        assert _run(task, _golden_with(task, reply)) == 1, reply
    for reply in bad:
        assert _run(task, _golden_with(task, reply)) == 0, reply


def test_an_out_of_policy_request_names_the_condition_the_stay_fails():
    tasks = _tasks("over_cap_booking_request")
    cap = next(t for t in tasks if any(f.fact == "cap" for a in t.assertions if a.kind == "response_contains"
                                       for f in a.body.facts))
    pref = next(t for t in tasks if t is not cap and any(f.fact == "preferred" for a in t.assertions
                                                         if a.kind == "response_contains" for f in a.body.facts))
    over = "the nightly rate exceeds your company's limit for that city"
    other = "this hotel is not on your company's approved hotel list for that city"
    for task, right, wrong in ((cap, over, other), (pref, other, over)):
        manager = next(f.fact for a in task.assertions if a.kind == "response_contains" for f in a.body.facts)
        asked = f" I've asked your manager, {manager}, to approve it; nothing is booked yet."
        assert _run(task, _golden_with(task, f"This needs approval: {right}.{asked}")) == 1, task.id
        assert _run(task, _golden_with(task, f"This needs approval: {wrong}.{asked}")) == 0, task.id
        assert _run(task, _golden_with(task, f"This is outside your company's travel policy.{asked}")) == 0, task.id


@pytest.mark.parametrize(("template", "own_words"), [
    ("set_arrival_time", "Noted: the hotel expects you at {twelve}, so it will hold the room."),
    ("update_invoice_reference", "Done, {value} is on that invoice now."),
    ("older_stay_invoice", "Done, {value} is on that invoice now."),
    ("verify_name_phone", "Your profile now has {value} as your mobile."),
])
def test_a_change_is_reported_with_its_new_value_and_all_done_scores_0(template, own_words):
    for task in _tasks(template)[:2]:
        write = task.golden_actions[-1].arguments
        value = write.get("arrival_time") or write.get("po_number") or write.get("cost_center") or write.get("phone")
        twelve = ""
        if template == "set_arrival_time":
            hour, minute = value.split(":")
            twelve = f"{int(hour) - 12}:{minute} pm"
        assert _run(task, _golden_with(task, "All done.")) == 0, task.id
        assert _run(task, _golden_with(task, own_words.format(value=value, twelve=twelve))) == 1, task.id


@pytest.mark.parametrize("template", ["change_and_cancel", "change_dates_flexible", "ask_new_dates"])
def test_new_dates_told_as_a_range_count(template):
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December"]
    for task in _tasks(template):
        move = next(c for c in task.golden_actions if c.name == "change_booking_dates").arguments
        (y1, m1, d1), (y2, m2, d2) = (map(int, move[k].split("-")) for k in ("check_in", "check_out"))
        if (y1, m1) != (y2, m2):
            continue
        span = f"{months[m1 - 1]} {d1}-{d2}, {y1}"
        reply = task.golden_reply.replace(f"from {move['check_in']} to {move['check_out']}", f"from {span}")
        assert span in reply
        assert _run(task, _golden_with(task, reply)) == 1, (task.id, reply)
        late = reply.replace(span, f"{months[m1 - 1]} {d1}-{d2 + 1}, {y1}")
        assert _run(task, _golden_with(task, late)) == 0, (task.id, late)



def _facts(task: Task) -> list:
    return [f for a in task.assertions if a.kind == "response_contains" for f in a.body.facts]


def _booking(task: Task, booking_id: str) -> dict:
    return next(r for r in task.initial_patch["bookings"] if r["id"] == booking_id)


def _money(x: float) -> str:
    return f"${x:,.2f}"


def test_a_free_cancellation_quote_says_it_costs_nothing_and_a_quoted_fee_fails():
    free = [t for t in _tasks("cancel_fee_quote") if any(f.fact == "free of charge" for f in _facts(t))]
    assert free
    for task in free:
        b = _booking(task, task.golden_actions[-1].arguments["booking_id"])
        total = _money(b["total_amount"])
        for reply in (f"There's no fee: you'd get the full {total} back. I haven't cancelled anything.",
                      f"Cancelling today wouldn't cost you anything; {total} would be refunded to your card.",
                      f"It's still free to cancel, so you would receive {total} back."):
            assert _run(task, _golden_with(task, reply)) == 1, (task.id, reply)
        for reply in (f"Cancelling today would cost a {_money(b['nightly_rate'])} fee; you'd get {total} back.",
                      f"If you cancel today, you'd get {total} back.",
                      f"Cancelling would not be free: you'd get {total} back."):
            assert _run(task, _golden_with(task, reply)) == 0, (task.id, reply)


def test_a_colleagues_booking_is_refused_with_or_without_verifying_the_caller():
    for task in _tasks("colleague_booking_refused"):
        first = task.user.known_facts["colleague"].split()[0]
        reasons = [f"I'm sorry, but only the traveller can act on their own booking, so {first} needs to contact us.",
                   f"I can't do that on a booking that isn't yours; {first} has to get in touch with us personally."]
        for reply in reasons:
            assert _run(task, [reply]) == 1, (task.id, reply)  # refused at once: no verification needed
            assert _run(task, _golden_with(task, reply)) == 1, (task.id, reply)
        assert _run(task, ["Sorry, I can't help with that."]) == 0, task.id
        assert _run(task, _golden_with(task, "Sorry, I can't help with that.")) == 0, task.id


def test_the_cheapest_hotel_is_named_as_such_by_a_short_name_and_a_list_does_not_answer():
    for task in _tasks("hotel_rate_info"):
        facts = _facts(task)
        if len(facts[0].aliases) < 3:  # the Deluxe King rates
            continue
        name, price = facts[0].fact, float(facts[1].fact)
        short = min((a for a in facts[0].aliases if not a.startswith("H-")), key=len)
        for reply in (f"The cheapest hotel is {name}, from ${price:.2f} per night.",
                      f"The most affordable option is the {short}: rooms start at ${price:.0f} a night.",
                      f"{name} has the lowest rates, starting at ${price:.2f} per night. Would you like me to check dates?",
                      f"That would be {name}, at ${price:.2f} per night."):
            assert _run(task, [*task.golden_actions, reply]) == 1, (task.id, reply)
        for reply in (f"Our hotels there: {name} from ${price + 7:.2f}, and another from ${price:.2f}.",
                      f"The cheapest is another hotel, from ${price:.2f}; {name} starts at ${price + 20:.2f}."):
            assert _run(task, [*task.golden_actions, reply]) == 0, (task.id, reply)


def test_the_two_rates_of_a_room_are_told_with_their_plans_and_swapped_they_fail():
    for task in _tasks("hotel_rate_info"):
        facts = _facts(task)
        if len(facts[0].aliases) >= 3:  # the cheapest hotel
            continue
        flex, nonref = facts[0].fact, facts[1].fact
        good = [f"A Deluxe King is ${flex} per night on the flexible rate and ${nonref} per night non-refundable.",
                f"It's ${nonref} a night with the non-refundable Advance Saver rate, or ${flex} a night flexible."]
        for reply in good:
            assert _run(task, [*task.golden_actions, reply]) == 1, (task.id, reply)
        swapped = f"A Deluxe King is ${nonref} per night on the flexible rate and ${flex} per night non-refundable."
        assert _run(task, [*task.golden_actions, swapped]) == 0, task.id


def test_a_non_refundable_booking_is_refused_with_its_rule_in_any_words():
    for task in _tasks("nonrefundable_change_refused"):
        good = ["I'm afraid I can't change a non-refundable booking, so it stays as it is.",
                "Your booking is on the Advance Saver rate, which doesn't allow any changes, so I've left it unchanged.",
                "Sorry, this booking isn't refundable or changeable under its rate, so nothing has been changed."]
        for reply in good:
            assert _run(task, _golden_with(task, reply)) == 1, (task.id, reply)
        for reply in ("Sorry, I can't make that change for you.", "I'm sorry, this booking cannot be changed."):
            assert _run(task, _golden_with(task, reply)) == 0, (task.id, reply)


def test_the_member_tier_is_named_as_a_tier_and_another_tier_fails():
    for task in _tasks("loyalty_balance"):
        tier = next(f.fact for f in _facts(task) if not f.fact.isdigit()).split()[0]
        points = next(int(f.fact) for f in _facts(task) if f.fact.isdigit())
        other = "gold" if tier != "gold" else "silver"
        assert _run(task, _golden_with(task, f"You have {points:,} points and you're in the {tier.title()} tier.")) == 1
        assert _run(task, _golden_with(task, f"Tier: {tier.title()}\nPoints: {points:,}")) == 1
        assert _run(task, _golden_with(task, f"You have {points:,} points and you're a {other.title()} member.")) == 0


@pytest.mark.parametrize("template", ["cancel_free_window", "ask_which_booking_cancel", "similar_hotel_cancel",
                                      "verify_retry_cancel", "fee_waiver_approved", "same_name_traveller"])
def test_a_cancellation_is_reported_as_done_and_a_negated_one_fails(template):
    for task in _tasks(template):
        if not any(c.name == "cancel_booking" for c in task.golden_actions):
            continue
        refund = next(f.fact for f in _facts(task) if f.fact[0].isdigit())
        for reply in (f"Done, I've canceled it and ${refund} will be refunded to your card.",
                      f"Your booking has been cancelled; you'll get ${refund} back."):
            assert _run(task, _golden_with(task, reply)) == 1, (task.id, reply)
        for reply in (f"I wasn't able to cancel the booking, but ${refund} would be refunded.",
                      f"The booking is not cancelled yet; the refund would be ${refund}."):
            assert _run(task, _golden_with(task, reply)) == 0, (task.id, reply)


@pytest.mark.parametrize("template", ["change_dates_flexible", "ask_new_dates"])
def test_the_amount_a_date_change_moved_is_told_with_its_direction(template):
    for task in _tasks(template):
        move = next(c for c in task.golden_actions if c.name == "change_booking_dates").arguments
        b = _booking(task, move["booking_id"])
        total = float(next(f.fact for f in _facts(task) if f.fact[0].isdigit() and "-" not in f.fact))
        delta = round(total - b["total_amount"], 2)
        if not delta:
            continue
        head = f"Your stay now runs from {move['check_in']} to {move['check_out']}, new total ${total:.2f}"
        right, wrong = ("charged to your card", "refunded to your card") if delta > 0 else ("refunded to your card",
                                                                                            "charged to your card")
        assert _run(task, _golden_with(task, f"{head}; ${abs(delta):.2f} has been {right}.")) == 1, task.id
        assert _run(task, _golden_with(task, f"{head}; ${abs(delta):.2f} has been {wrong}.")) == 0, task.id
