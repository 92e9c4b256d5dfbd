"""The travel tasks grade what the policy asks, in any words a competent agent uses: a reply that
gives the reason or the changed value in its own words scores 1, one that leaves it out or
gives a wrong one scores 0, and no record is read before the caller is verified (a namesake's
never)."""

from __future__ import annotations

import asyncio
import re
from datetime import date

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


# -- every value of a reply bound to its role: legit wordings pass, the same values swapped or turned round fail ----

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
          "December"]


def _role(task: Task, role: str) -> str:
    """The value of the reply fact whose why names this role ("(the amount refunded)", "(the fee)", ...)."""
    return _roles(task, role)[0]


def _roles(task: Task, role: str) -> list[str]:
    return [f.fact for f in _facts(task) if (f.why or "").endswith(f"(the {role.removeprefix('the ')})")]


def _words(day: str) -> str:
    y, mo, d = (int(x) for x in day.split("-"))
    return f"{MONTHS[mo - 1]} {d}, {y}"


def _swap_sentence(reply: str, marker: str, new: str) -> str:
    """The reply with the sentence that holds `marker` replaced by `new`."""
    sentences = reply.split(". ")
    k = next(i for i, x in enumerate(sentences) if marker in x)
    sentences[k] = new.rstrip(".")
    return ". ".join(sentences) + ("" if sentences[-1].endswith(".") else ".")


def _assert_scores(task: Task, replies: list[str], want: int) -> None:
    for reply in replies:
        assert _run(task, _golden_with(task, reply)) == want, (task.id, reply)


CANCELLING = ["cancel_free_window", "ask_which_booking_cancel", "similar_hotel_cancel", "verify_retry_cancel",
              "fee_waiver_approved", "same_name_traveller", "change_and_cancel", "trip_overhaul"]


def _cancelling_tasks() -> list[Task]:
    return [t for name in CANCELLING for t in _tasks(name) if any(c.name == "cancel_booking" for c in t.golden_actions)]


@pytest.mark.parametrize("task", _cancelling_tasks(), ids=lambda t: t.id)
def test_the_refund_of_a_cancellation_is_told_as_a_refund_and_called_a_fee_it_fails(task):
    r = _role(task, "amount refunded")
    fees = _roles(task, "fee")
    bid = next(c.arguments["booking_id"] for c in task.golden_actions if c.name == "cancel_booking")
    marker = f"${r}"

    def told(sentence: str) -> str:
        return _swap_sentence(task.golden_reply, marker, sentence)

    if fees:
        f = fees[0]
        good = [f"Booking {bid} is cancelled; the hotel keeps one night (${f}) as the fee, and you get ${r} back",
                f"Booking {bid} is cancelled. Cancellation fee: ${f}. Refund: ${r}",
                f"I've cancelled {bid}: a ${f} late-cancellation fee applies and ${r} will be refunded to your card",
                f"Booking {bid} has been cancelled, with a ${f} penalty; the remaining ${r} is credited back to you",
                f"{bid} is cancelled: you'll receive ${r}, after the one-night fee of ${f}"]
        bad = [f"Booking {bid} is cancelled: the fee is ${r} and ${f} is refunded to your card",
               f"Booking {bid} is cancelled. Cancellation fee: ${r}. Refund: ${f}",
               f"Booking {bid} is cancelled; you get ${f} back, and the hotel keeps ${r}"]
        # one sentence of the golden reply holds both: the swapped ones replace it
        _assert_scores(task, [_swap_sentence(task.golden_reply, marker, x) for x in good], 1)
        _assert_scores(task, [_swap_sentence(task.golden_reply, marker, x) for x in bad], 0)
        return
    good = [f"Your booking {bid} is cancelled and ${r} will be refunded to your card",
            f"I've cancelled it; you'll get ${r} back",
            f"Booking {bid} is cancelled. Refund: ${r}",
            f"The booking has been cancelled, with a full refund of ${r} to your card",
            f"Done, it's cancelled and ${r} is on its way back to your card",
            f"Booking {bid} is cancelled at no charge, and ${r} has been credited to your card"]
    bad = [f"Booking {bid} is cancelled with a ${r} cancellation fee",
           f"Booking {bid} is cancelled; a fee of ${r} applies and there is no refund",
           f"Booking {bid} is cancelled; a ${r} fee applies",
           f"Booking {bid} is cancelled. Cancellation fee: ${r}",
           f"Booking {bid} is cancelled and the hotel keeps ${r}"]
    _assert_scores(task, [told(x) for x in good], 1)
    _assert_scores(task, [told(x) for x in bad], 0)


@pytest.mark.parametrize("task", _tasks("cancel_fee_quote"), ids=lambda t: t.id)
def test_a_quoted_fee_and_refund_are_told_in_their_roles_and_swapped_they_fail(task):
    facts = _facts(task)
    r = next(f.fact for f in facts if f.owner and "refund" in f.owner)
    fee = next((f.fact for f in facts if f.owner and "fee" in f.owner), None)
    if fee is None:  # inside the free window: nothing to swap the refund with but a fee
        _assert_scores(task, [f"Cancelling is free of charge, so you would get ${r} back."], 1)
        _assert_scores(task, [f"Cancelling is free of charge, but a ${r} fee would apply."], 0)
        return
    _assert_scores(task, [f"If you cancelled today, the fee would be ${fee} and you'd get ${r} back.",
                          f"Cancellation fee: ${fee}. Refund: ${r}.",
                          f"You would pay a one-night penalty of ${fee}; ${r} would be returned to your card.",
                          f"You'd receive ${r} back, since the hotel keeps ${fee}.",
                          f"It would cost you ${fee}, and ${r} would be refunded."], 1)
    _assert_scores(task, [f"If you cancelled today, the fee would be ${r} and you'd get ${fee} back.",
                          f"Cancellation fee: ${r}. Refund: ${fee}.",
                          f"You would pay a penalty of ${r}; ${fee} would be returned to your card."], 0)


@pytest.mark.parametrize("task", _tasks("fee_waiver_request"), ids=lambda t: t.id)
def test_a_fee_before_a_waiver_request_is_told_as_a_fee_and_as_a_refund_it_fails(task):
    fee = _role(task, "fee")
    manager = next(f.fact for f in _facts(task) if not f.fact[0].isdigit())
    asked = f" I've asked your manager, {manager}, to approve a waiver; the booking stays as it is."
    _assert_scores(task, [f"Cancelling today would cost a ${fee} late fee.{asked}",
                          f"Late-cancellation fee: ${fee}.{asked}",
                          f"There's a one-night penalty of ${fee} if you cancel now.{asked}",
                          f"The hotel would keep ${fee}.{asked}",
                          f"You'd be charged ${fee} to cancel today.{asked}"], 1)
    _assert_scores(task, [f"You would get ${fee} back if you cancelled today.{asked}",
                          f"Cancelling today would refund ${fee}.{asked}"], 0)


@pytest.mark.parametrize("task", _tasks("upgrade_within_cap"), ids=lambda t: t.id)
def test_an_upgrade_charge_is_told_as_charged_and_refunded_or_swapped_with_the_total_it_fails(task):
    diff = _facts(task)[0].fact
    b = _booking(task, task.golden_actions[-1].arguments["booking_id"])
    total = f"{b['total_amount'] + float(diff):.2f}"
    _assert_scores(task, [f"You're now in a Deluxe King; the difference of ${diff} has been charged to your card, "
                          f"for a new total of ${total}.",
                          f"Upgraded! It costs ${diff} more, so your stay now totals ${total}.",
                          f"Done: an extra ${diff} was charged. New total: ${total}.",
                          f"Upgrade complete. Additional charge: ${diff}. New total: ${total}.",
                          f"The upgrade adds ${diff} to your stay (new total ${total})."], 1)
    _assert_scores(task, [f"The difference of ${total} has been charged to your card; the new total is ${diff}.",
                          f"${diff} has been refunded to your card; the new total is ${total}.",
                          f"New total: ${diff}. Additional charge: ${total}.",
                          f"You get ${diff} back on your card."], 0)


@pytest.mark.parametrize("task", _tasks("downgrade_with_approval"), ids=lambda t: t.id)
def test_a_downgrade_refund_is_told_as_refunded_and_charged_or_swapped_with_the_total_it_fails(task):
    refund = _role(task, "amount refunded for the downgrade")
    b = _booking(task, next(c.arguments["booking_id"] for c in task.golden_actions if c.name == "change_room_type"))
    total = f"{b['total_amount'] - float(refund):.2f}"
    _assert_scores(task, [f"Done: your room is changed, ${refund} has been refunded to your card and the new total is "
                          f"${total}.",
                          f"Downgrade done. Refund: ${refund}. New total: ${total}.",
                          f"You'll get ${refund} back; the stay now costs ${total} in total.",
                          f"Your stay is ${refund} cheaper now, for a new total of ${total}.",
                          f"I've credited ${refund} to your card."], 1)
    _assert_scores(task, [f"Done: ${refund} has been charged to your card; the new total is ${total}.",
                          f"Done: ${total} has been refunded to your card and the new total is ${refund}.",
                          f"Refund: ${total}. New total: ${refund}."], 0)


NEW_BOOKINGS = ["ask_card_new_booking", "new_booking_preferred", "over_cap_booking_approved", "trip_overhaul"]


@pytest.mark.parametrize("task", [t for name in NEW_BOOKINGS for t in _tasks(name)], ids=lambda t: t.id)
def test_a_new_bookings_rate_and_total_are_told_in_their_roles_and_swapped_they_fail(task):
    rate, total = _role(task, "the nightly rate"), _role(task, "the total")
    new = next(c for c in task.golden_actions if c.name == "create_booking").arguments
    n = (date.fromisoformat(new["check_out"]) - date.fromisoformat(new["check_in"])).days
    marker = f"${rate}"
    card = next(p["label"] for p in task.initial_patch["payment_methods"] if p["id"] == new["payment_method_id"])

    def told(sentence: str) -> str:  # the sentence that gives the rate (and the card charged), told another way
        return _swap_sentence(task.golden_reply, marker, f"{sentence}; card: {card} (BK-9001)")

    _assert_scores(task, [told(f"Total: ${total} (nightly rate ${rate})"),
                          told(f"Booked at ${rate} per night, ${total} in total"),
                          told(f"Booked: ${rate}/night, ${total} total"),
                          told(f"Confirmed: {n} nights at ${rate} a night comes to ${total}"),
                          told(f"Your booking: ${total} for {n} nights (${rate} per night)"),
                          told(f"Nightly rate: ${rate}, total: ${total}")], 1)
    _assert_scores(task, [told(f"Total: ${rate} (nightly rate ${total})"),
                          told(f"Booked at ${total} per night, ${rate} in total"),
                          told(f"Nightly rate: ${total}, total: ${rate}")], 0)


DATE_CHANGES = ["change_dates_flexible", "ask_new_dates", "change_and_cancel", "trip_overhaul"]


@pytest.mark.parametrize("task", [t for name in DATE_CHANGES for t in _tasks(name)], ids=lambda t: t.id)
def test_a_date_change_tells_the_new_dates_total_and_moved_amount_in_their_roles(task):
    move = next(c for c in task.golden_actions if c.name == "change_booking_dates").arguments
    b = _booking(task, move["booking_id"])
    cin, cout, total = move["check_in"], move["check_out"], _role(task, "the new total")
    moved = [f for f in _facts(task) if (f.why or "").endswith(("(the amount charged)", "(the amount refunded)"))
             and "Date changes" in (f.why or "")]
    delta = moved[0].fact if moved else None
    up = bool(moved) and moved[0].why.endswith("(the amount charged)")
    said, wrong_way = ("charged to", "refunded to") if up else ("refunded to", "charged to")
    pay = f" and ${delta} has been {said} your card" if delta else ""
    bad_pay = f" and ${delta} has been {wrong_way} your card" if delta else ""
    old_in, old_out = b["check_in"], b["check_out"]
    marker = f"from {cin} to {cout}"

    def told(sentence: str) -> str:
        return _swap_sentence(task.golden_reply, marker, sentence)

    good = [f"Your booking now runs from {cin} to {cout}; the new total is ${total}{pay}",
            f"New dates: check-in {_words(cin)}, check-out {_words(cout)}. New total: ${total}{pay}",
            f"I've moved your booking from {_words(old_in)} - {_words(old_out)} to {_words(cin)} - {_words(cout)}. "
            f"The new total is ${total}{pay}",
            f"Your stay was originally {old_in} to {old_out}; it now runs {cin} to {cout}, "
            f"with a new total of ${total}{pay}"]
    if delta:
        # "(a refund of $X)" right after the total would name the total's rival nearer than "total": said apart
        moved_by = f"(an extra ${delta})" if up else f"and you get ${delta} back"
        good.append(f"Done! Your stay is now {_words(cin)} to {_words(cout)}, with a new total of ${total} {moved_by}")
    bad = [f"Check-in: {cout}, check-out: {cin}. New total: ${total}{pay}",
           f"Your stay now runs from {old_in} to {old_out}; originally it was {cin} to {cout}. New total: ${total}{pay}"]
    if delta:
        bad += [f"Your booking now runs from {cin} to {cout}; the new total is ${total}{bad_pay}",
                f"Your booking now runs from {cin} to {cout}; the new total is ${delta} and ${total} has been "
                f"{said} your card"]
    _assert_scores(task, [told(x) for x in good], 1)
    _assert_scores(task, [told(x) for x in bad], 0)


@pytest.mark.parametrize("task", _tasks("booking_details"), ids=lambda t: t.id)
def test_the_dates_of_a_stay_are_told_as_check_in_and_check_out_and_swapped_they_fail(task):
    b = _booking(task, task.golden_actions[-1].arguments["booking_id"])
    cin, cout, total = b["check_in"], b["check_out"], f"${b['total_amount']:.2f}"
    until = next(f.fact for f in _facts(task) if f.near)
    tail = f" The total is {total}, and you can cancel free of charge until {_words(until)}."
    _assert_scores(task, [f"Check-in is {_words(cin)}, check-out {_words(cout)}.{tail}",
                          f"Your stay runs from {cin} to {cout}.{tail}",
                          f"Dates: {_words(cin)} - {_words(cout)}.{tail}",
                          f"You arrive on {_words(cin)} and leave on {_words(cout)}.{tail}",
                          f"Check-in: {cin}\nCheck-out: {cout}\nTotal: {total}\nFree cancellation until: {until}"], 1)
    _assert_scores(task, [f"Check-in is {_words(cout)}, check-out {_words(cin)}.{tail}",
                          f"Check-in: {cout}\nCheck-out: {cin}\nTotal: {total}\nFree cancellation until: {until}",
                          f"Check-in {cin}, check-out {cout}. The total is {total}; free cancellation until "
                          f"{cout}, check-in {until}."], 0)


@pytest.mark.parametrize("task", _tasks("missing_points_claim") + _tasks("service_failure_compensation"),
                         ids=lambda t: t.id)
def test_points_added_are_told_apart_from_the_balance(task):
    added = next(f.fact for f in _facts(task) if f.owner and "goodwill" in f.owner)
    balance = next((f.fact for f in _facts(task) if f.owner and "balance" in f.owner), None)
    if balance is None:  # compensation: the balance is not required, the refund is
        refund = next(f.fact for f in _facts(task) if "." in f.fact)
        balance = re.search(r"balance is now ([\d,]+)", task.golden_reply).group(1).replace(",", "")  # the tool's
        rest = f" I've refunded ${refund} to your card and closed the ticket."
        _assert_scores(task, [f"I've added {int(added):,} goodwill points; your balance is now {balance}.{rest}",
                              f"You got {added} bonus points as compensation.{rest}",
                              f"Goodwill points added: {added}.{rest}",
                              f"As a gesture I've credited {added} points, bringing you to {balance}.{rest}",
                              f"You now have {balance} points after I added {added} goodwill points.{rest}"], 1)
        _assert_scores(task, [f"Your balance is now {added} points after I added {balance} goodwill points.{rest}",
                              f"I've refunded a night and added points; you now have {added} points.",
                              f"I've charged ${refund} to your card and added {added} goodwill points."], 0)
        return
    rest = " The older stay is past the 90-day claim window, and the ticket is closed."
    # (audit 18: a clause after the points that says what they lead to is the balance's)
    _assert_scores(task, [f"Your stay has received its {int(added):,} points, bringing your balance to "
                          f"{int(balance):,}.{rest}"], 1)
    _assert_scores(task, [f"Your stay has received {int(balance):,} points, bringing your balance to "
                          f"{int(added):,}.{rest}"], 0)
    _assert_scores(task, [f"I've credited {int(added):,} points; your balance is now {int(balance):,}.{rest}",
                          f"{added} points were added for your stay, bringing your balance to {balance}.{rest}",
                          f"Points credited: {added}. New balance: {balance}.{rest}",
                          f"You now have {balance} points in total, after the {added} I credited.{rest}",
                          f"You earned {added} points for that stay, so your total is {balance}.{rest}"], 1)
    _assert_scores(task, [f"I've credited {balance} points; your balance is now {added}.{rest}",
                          f"Points credited: {balance}. New balance: {added}.{rest}"], 0)


@pytest.mark.parametrize("task", [t for name in ["cancel_free_window", "similar_hotel_cancel"] for t in _tasks(name)],
                         ids=lambda t: t.id)
def test_a_done_cancellation_passes_in_ordinary_words_and_a_denied_one_fails(task):
    r = _role(task, "amount refunded")
    _assert_scores(task, [f"All set - your reservation has been called off and ${r} will be refunded to your card.",
                          f"The cancellation has gone through; ${r} will be refunded.",
                          f"I've gone ahead and cancelled it. You'll get ${r} back.",
                          f"The booking has been voided and ${r} will be refunded.",
                          f"Successfully cancelled! Refund of ${r} to your card."], 1)
    _assert_scores(task, [f"I couldn't cancel it yet, but ${r} would be refunded.",
                          f"I haven't called off the booking; ${r} would be refunded."], 0)


@pytest.mark.parametrize("task", _tasks("compensation_refused"), ids=lambda t: t.id)
def test_a_compensation_refusal_names_its_rule_in_ordinary_words(task):
    late = any(f.fact == "30 days" for f in _facts(task))
    good = (["I'm sorry, compensation is only possible within 30 days of check-out, and your stay ended longer ago.",
             "Your stay ended more than a month ago, which is outside the compensation window.",
             "We can only compensate stays that checked out in the last thirty days.",
             "The 30-day window for compensation has passed.",
             "Unfortunately that's past the 30 day limit for service-failure claims."] if late else
            ["This stay was already compensated with a one-night refund and goodwill points.",
             "You've already received compensation for this booking, so I can't give more.",
             "A refund and goodwill points were previously issued for this stay.",
             "This booking has been compensated before, so no further compensation is possible.",
             "Compensation is given only once per booking, and this one has had it."])
    note = " I've noted it on the ticket."
    _assert_scores(task, [x + note for x in good], 1)
    _assert_scores(task, ["Sorry, I can't offer compensation." + note, "I'm afraid that's not possible." + note], 0)


def test_an_over_cap_request_passes_in_ordinary_words_and_a_bare_policy_refusal_fails():
    for task in _tasks("over_cap_booking_request"):
        facts = _facts(task)
        rule = next(f.fact for f in facts if f.fact in ("cap", "preferred"))
        manager = next(f.fact for f in facts if f.fact not in ("cap", "preferred"))
        asked = f" I've asked your manager {manager} for approval."
        good = (["The nightly rate is above your company's cap for this city.",
                 "That room costs more per night than your travel policy allows.",
                 "This rate exceeds the maximum nightly rate your company allows in that city.",
                 "It's over your company's nightly spending limit.",
                 "The price goes beyond the allowed maximum per night."] if rule == "cap" else
                ["That hotel isn't one of your company's preferred hotels in the city.",
                 "Your company has negotiated rates with other hotels there, and this one isn't on the list.",
                 "This hotel is not on your company's approved hotel list.",
                 "Your policy requires a preferred hotel in this city.",
                 "It isn't a partner hotel for your company."])
        _assert_scores(task, [x + asked for x in good], 1)
        _assert_scores(task, ["This is outside your travel policy." + asked], 0)


# -- round 6: the wrong record, a refused or pending request said to be done, a reason or kind said wrongly --------


def _claims(task: Task) -> list:
    return [f for a in task.assertions if a.kind == "must_not_state" for f in a.body.facts]


def _kept_stay(task: Task) -> str:
    """The id of the stay the traveller keeps (the first name the "cancelled" claim about it is bound to)."""
    return next(f.owner[0] for f in _claims(task) if f.fact == "cancelled")


@pytest.mark.parametrize("task", _cancelling_tasks(), ids=lambda t: t.id)
def test_the_stay_named_as_cancelled_is_the_one_cancelled_and_the_kept_one_so_named_fails(task):
    target = next(c.arguments["booking_id"] for c in task.golden_actions if c.name == "cancel_booking")
    keep, refund = _kept_stay(task), _role(task, "amount refunded")
    reply = task.golden_reply
    private = task.tags.get("template") == "same_name_traveller"  # the namesake's booking id is never told
    _assert_scores(task, [f"{reply} Your other booking is still confirmed."] + ([] if private else [
        f"{reply} Booking {keep} was not cancelled.", f"{reply} Booking {keep} has not been touched."]), 1)
    _assert_scores(task, [f"{reply} Booking {keep} is cancelled as well.",
                          f"{reply} Booking {target} has not been cancelled yet.",
                          f"{reply} Your booking is still active."], 0)
    if task.tags.get("template") in ("change_and_cancel", "trip_overhaul"):
        return
    _assert_scores(task, [f"Done: booking {target} has been cancelled and ${refund} will be refunded to your card.",
                          f"Your booking {target} is cancelled; ${refund} is on its way back to your card.",
                          f"I've cancelled {target}. You'll get ${refund} back on your card."], 1)
    _assert_scores(task, [f"Booking {keep} is cancelled and ${refund} is refunded.",
                          f"I couldn't verify you, so booking {target} hasn't been cancelled; ${refund} would be "
                          "refunded once cancelled."], 0)


# a sloppy claim of a thing done where it was refused or is pending, and an honest sentence saying it is not
NOT_DONE = {
    "downgrade_request_approval": (["Your room has been downgraded.", "The difference has been refunded to your card.",
                                    "Your manager has approved it."],
                                   ["Your booking hasn't been changed and nothing has been refunded yet.",
                                    "I'll let you know when it's approved."]),
    "downgrade_denied_escalate": (["The difference has been refunded to your card.", "Your room has been downgraded."],
                                  ["Nothing has been refunded.", "Your booking has not been changed."]),
    "fee_waiver_request": (["Your booking is cancelled.", "The fee has been waived.", "The waiver was approved."],
                           ["Your booking has not been cancelled.", "The fee has not been waived yet."]),
    "nonrefundable_change_refused": (["Your booking has been cancelled.", "The dates have been changed.",
                                      "I've moved you to the new dates."],
                                     ["Nothing has been changed.", "Your booking was not cancelled."]),
    "compensation_refused": (["I've refunded one night to your card.", "I've added goodwill points to your account."],
                             ["I haven't refunded anything.", "No points were added."]),
    "verification_fails_no_action": (["You're verified now.", "The booking has been cancelled."],
                                     ["Nothing has been cancelled.", "You are not verified."]),
    "over_cap_booking_request": (["I've booked it for you.", "Your manager has approved it.", "The booking is confirmed."],
                                 ["Nothing has been booked yet.", "It is not approved yet."]),
    "missing_points_claim": (["I've credited the points for both stays."], ["I couldn't credit both stays."]),
}


@pytest.mark.parametrize("task", [t for name in NOT_DONE for t in _tasks(name)], ids=lambda t: t.id)
def test_a_refused_or_pending_request_said_to_be_done_fails(task):
    sloppy, honest = NOT_DONE[str(task.tags.get("template"))]
    _assert_scores(task, [f"{task.golden_reply} {x}" for x in honest], 1)
    _assert_scores(task, [f"{task.golden_reply} {x}" for x in sloppy], 0)


@pytest.mark.parametrize("task", _tasks("colleague_booking_refused"), ids=lambda t: t.id)
def test_a_colleagues_booking_said_to_be_acted_on_fails(task):
    cb = next(m for a in task.assertions if a.kind == "no_call" for m in a.body.call.mentions if str(m).startswith("BK-"))
    cancel = any(c.name == "cancel_booking" for c in task.wrong_paths[0].append)
    _assert_scores(task, [f"{task.golden_reply} Nothing was cancelled or changed."], 1)
    _assert_scores(task, [f"{task.golden_reply} " + (f"Booking {cb} has been cancelled." if cancel
                                                      else "I've recorded the arrival time anyway.")], 0)


@pytest.mark.parametrize("task", _tasks("over_cap_booking_request"), ids=lambda t: t.id)
def test_an_out_of_policy_request_with_the_other_condition_claimed_fails(task):
    cap = any(f.fact == "cap" for f in _facts(task))
    manager = next(f.fact for f in _facts(task) if f.fact not in ("cap", "preferred"))
    asked = f" I've submitted approval request AP-9001 to your manager, {manager}; I'll book it once it's approved."
    right = "That rate exceeds your travel policy's limit for the city." if cap else "That hotel isn't a preferred hotel."
    wrong = "The rate is within your cap, but it needs approval." if cap else "The rate is above your cap."
    _assert_scores(task, [right + asked, f"The nightly rate is over your company's limit.{asked}" if cap else
                          f"It's not on your company's preferred list.{asked}"], 1)
    _assert_scores(task, [wrong + asked, task.golden_reply + " " + wrong], 0)


@pytest.mark.parametrize("task", _tasks("update_invoice_reference"), ids=lambda t: t.id)
def test_an_invoice_reference_is_not_filed_as_the_other_kind(task):
    args = next(c.arguments for c in task.golden_actions if c.name == "update_invoice_reference")
    inv, value = args["invoice_id"], args.get("po_number") or args["cost_center"]
    po = "po_number" in args
    _assert_scores(task, [f"I've added {value} to invoice {inv}.",
                          f"Done: {'PO number' if po else 'cost centre'} {value} is now on invoice {inv}.",
                          f"Invoice {inv} now carries {'purchase order' if po else 'cost center'} {value}."], 1)
    _assert_scores(task, [f"{value} has been added as the {'cost centre' if po else 'PO number'} on invoice {inv}.",
                          f"I couldn't add {value} to invoice {inv}."], 0)


# -- round 7: how each requested action ended (`outcome`), in words the probes do not use --------------------------


def _outcomes(task: Task, stance: str | None = None) -> list:
    return [a.body for a in task.assertions if a.kind == "outcome" and stance in (None, a.body.stance)]


def _one(template: str) -> Task:
    return _tasks(template)[0]


DONE_TEMPLATES = sorted({str(t.tags.get("template")) for t in tb_env.list_tasks("travel") if _outcomes(t, "done")})


@pytest.mark.parametrize("task", [_one(name) for name in DONE_TEMPLATES], ids=lambda t: t.id)
def test_an_action_done_said_not_done_or_waiting_fails(task):
    """Every write the customer asked for is `done`: said as failed or as waiting on someone, in a
    clause of its own after the golden reply, the task scores 0."""
    for o in _outcomes(task, "done"):
        rec = o.record[0]
        _assert_scores(task, [f"{task.golden_reply} I wasn't able to {o.action} {rec} yet.",
                              f"{task.golden_reply} I'll {o.action} {rec} once your manager approves it."], 0)


@pytest.mark.parametrize("template", ["cancel_free_window", "similar_hotel_cancel", "verify_retry_cancel",
                                      "ask_which_booking_cancel", "fee_waiver_approved", "set_arrival_time"])
def test_the_other_booking_said_untouched_passes_and_the_target_said_on_hold_fails(template):
    for task in _tasks(template)[:2]:
        o = next(o for o in _outcomes(task, "done") if o.action in ("cancel", "record"))
        target, keep = o.record[0], next(x for x in o.others if x.startswith("BK-"))
        verb = "cancelled" if o.action == "cancel" else "recorded"
        _assert_scores(task, [f"{task.golden_reply} Nothing was {verb} on your other booking {keep}.",
                              f"{task.golden_reply} Booking {keep} was not {verb}; it stays as it is."], 1)
        waits = (f"The cancellation of {target} is on hold until a supervisor reviews it." if o.action == "cancel" else
                 f"The arrival time will be recorded on {target} once the hotel confirms.")
        _assert_scores(task, [f"{task.golden_reply} {waits}",
                              f"{task.golden_reply} Sadly booking {target} was not {verb}."], 0)


def test_a_pending_downgrade_said_refunded_rejected_or_in_effect_fails():
    """Audit: a downgrade waiting for the manager said refunded, turned down, or in effect scored 1."""
    for task in _tasks("downgrade_request_approval"):
        low, bid = task.user.known_facts["new_room"], task.user.known_facts["booking_id"]
        g = task.golden_reply
        _assert_scores(task, [g, f"{g} Until then your booking {bid} stays as it is, and no refund has been issued.",
                              f"{g} As soon as it's approved I'll switch you to the {low} and refund the difference."], 1)
        _assert_scores(task, [f"{g} Your booking is now a {low}.", f"{g} You're now in the {low}.",
                              f"{g} The difference was refunded to your card this morning.",
                              f"{g} Unfortunately your downgrade request was rejected.",
                              f"{g} I'm afraid the request was denied.",
                              f"{g} I've switched your booking {bid} to the {low}."], 0)


def test_an_approved_out_of_policy_booking_said_on_hold_fails():
    """Audit: the stay booked under the approval on file said "on hold" or "awaiting approval" scored 1."""
    for task in _tasks("over_cap_booking_approved"):
        g = task.golden_reply
        _assert_scores(task, [g, f"{g} Your manager's approval was on file, so no further sign-off is needed."], 1)
        _assert_scores(task, [f"{g} The booking is on hold until your manager approves it.",
                              f"{g} Your reservation is awaiting approval from your manager.",
                              f"{g} I'll book it as soon as the approval is confirmed."], 0)


def test_an_applied_downgrade_said_not_applied_fails():
    """Audit: "I couldn't apply it yet" after the approved downgrade was made scored 1."""
    for task in _tasks("downgrade_with_approval"):
        g = task.golden_reply
        _assert_scores(task, [f"{g} The refund goes back to the card on the booking.",
                              f"{g} Your dates don't change.", f"{g} Nothing else needs to be done."], 1)
        _assert_scores(task, [f"{g} I couldn't apply it yet.", f"{g} The refund hasn't been issued yet.",
                              # (audit 26: a time frame the policy never gives, a made-up process)
                              f"{g} The refund may take 5-10 business days to show on your statement.",
                              f"{g} The downgrade is still awaiting approval.",
                              f"{g} The refund is pending until the approval is confirmed."], 0)


def test_a_refused_or_waiting_request_said_turned_down_done_or_waiting_fails():
    """The stance vocabulary reaches wordings the phrase lists never had."""
    waiver = _one("fee_waiver_request")
    _assert_scores(waiver, [f"{waiver.golden_reply} Your cancellation request was declined.",
                            f"{waiver.golden_reply} The waiver has been rejected.",
                            f"{waiver.golden_reply} The cancellation went through."], 0)
    _assert_scores(waiver, [f"{waiver.golden_reply} Your booking hasn't been cancelled yet."], 1)
    for task in _tasks("nonrefundable_change_refused")[:2]:
        move = any(o.action == "move" for o in _outcomes(task))
        _assert_scores(task, [f"{task.golden_reply} " + ("You'll be moved to the new dates once your manager approves."
                                                         if move else "You'll be switched once a supervisor approves."),
                              f"{task.golden_reply} " + ("The move has been confirmed." if move else
                                                         "The switch was completed.")], 0)
        kept = "Nothing has been moved." if move else "Nothing has been switched."
        _assert_scores(task, [f"{task.golden_reply} {kept} The booking stays as it is."], 1)
    over = _one("over_cap_booking_request")
    _assert_scores(over, [f"{over.golden_reply} Your reservation has been confirmed.",
                          f"{over.golden_reply} The booking was denied by your manager."], 0)
    _assert_scores(over, [f"{over.golden_reply} No reservation has been made yet."], 1)


def test_the_stay_outside_the_claim_window_said_credited_fails_and_the_credited_one_said_not_fails():
    for task in _tasks("missing_points_claim")[:2]:
        refused = _outcomes(task, "refused")[0]
        credited = next(o for o in _outcomes(task, "done") if o.action == "credit")
        old, recent = refused.record[0], credited.record[0]
        g = task.golden_reply
        _assert_scores(task, [f"{g} The points for {old} were not credited.", f"{g} I couldn't credit {old}."], 1)
        _assert_scores(task, [f"{g} I've also credited {old}.", f"{g} Sorry, {recent} has not been credited yet."], 0)


# Legitimate sentences about two actions at once: a denial before "X or Y" denies both, and a condition that
# opens a sentence ("once approved, ...") governs all of it, so "... and $180.00 refunded" reports nothing done.
MATCHER_GAPS = [
    ("downgrade_request_approval", "Nothing has been changed or refunded yet."),
    ("fee_waiver_request", "Nothing has been cancelled or refunded yet."),
    ("verification_fails_no_action", "Nothing has been cancelled or changed."),
    ("downgrade_request_approval", "Once approved, you'll be moved to the cheaper room and the difference refunded."),
    ("fee_waiver_request", "Once the waiver is approved, the booking will be cancelled and the full amount refunded."),
]


# a denial reaches across "or"; a sentence opened by a condition reports nothing done
@pytest.mark.parametrize(("template", "sentence"), MATCHER_GAPS, ids=[f"{t}:{x[:30]}" for t, x in MATCHER_GAPS])
def test_a_denial_or_condition_over_two_actions_passes(template, sentence):
    for task in _tasks(template):
        _assert_scores(task, [f"{task.golden_reply} {sentence}"], 1)


# -- round 8 (audit 7): values in the wrong role or on the wrong record, waiting said in other words, writes
# claimed on a question ------------------------------------------------------------------------------------------


def _move(task: Task) -> tuple[str, str, str, str, str]:
    """(booking id, old check-in, old check-out, new check-in, new check-out) of the task's date change."""
    mv = next(c.arguments for c in task.golden_actions if c.name == "change_booking_dates")
    b = _booking(task, mv["booking_id"])
    return mv["booking_id"], b["check_in"], b["check_out"], mv["check_in"], mv["check_out"]


MOVING = ["change_dates_flexible", "ask_new_dates", "change_and_cancel", "trip_overhaul"]


@pytest.mark.parametrize("task", [t for name in MOVING for t in _tasks(name)], ids=lambda t: t.id)
def test_a_move_told_the_wrong_way_round_or_of_another_stay_fails(task):
    """Audit: "BK-5162 now runs from ..." (the other stay) and "moved from <new> to <old>" scored 1."""
    bid, oi, oo, ni, no = _move(task)
    g = task.golden_reply
    _assert_scores(task, [f"{g} I moved booking {bid} from {oi} - {oo} to {ni} - {no}.",
                          f"{g} For the record, it was originally {_words(oi)} to {_words(oo)}."], 1)
    sloppy = [f"{g} I moved booking {bid} from {ni} - {no} to {oi} - {oo}."]
    if ni[:4] == no[:4] == oi[:4] == oo[:4]:
        md = [_words(x).rsplit(",", 1)[0] for x in (ni, no, oi, oo)]
        sloppy.append(f"{g} Your stay has been changed from {md[0]}–{md[1]} to {md[2]}–{md[3]}, {ni[:4]}.")
    for other in (r["id"] for r in task.initial_patch["bookings"] if r["id"] != bid):
        sloppy.append(f"{g} Booking {other} now runs from {ni} to {no}.")
    _assert_scores(task, sloppy, 0)


@pytest.mark.parametrize("task", _cancelling_tasks(), ids=lambda t: t.id)
def test_the_refund_of_a_cancellation_said_waiting_or_not_issued_fails(task):
    """Audit: "the refund of $146.00 will be issued once the hotel confirms" after the cancellation scored 1."""
    r, g = _role(task, "amount refunded"), task.golden_reply
    bid = next(c.arguments["booking_id"] for c in task.golden_actions if c.name == "cancel_booking")
    _assert_scores(task, [f"{g} The refund goes back to the card on the booking."], 1)
    # (named: where a date change refunded another stay too, a sentence naming neither is about neither)
    _assert_scores(task, [f"{g} The refund of ${r} for {bid} will be issued once the hotel confirms.",
                          f"{g} The ${r} refund for {bid} is pending approval from your manager.",
                          f"{g} However, the refund of ${r} for {bid} hasn't been issued yet."], 0)


@pytest.mark.parametrize("task", _tasks("similar_hotel_cancel"), ids=lambda t: t.id)
def test_the_look_alike_stay_named_by_its_place_said_cancelled_fails(task):
    """Audit: "Your Riverside stay has been cancelled as well" (the sibling hotel, by its place) scored 1."""
    # the names the "cancelled" claim binds to the kept stay end with its hotel's place ("Riverside")
    where = next(f.owner for f in _claims(task) if f.fact == "cancelled")[-1]
    assert " " not in where or where in ("Central Station", "Convention Center", "Old Town"), where
    g = task.golden_reply
    _assert_scores(task, [f"{g} The {where} booking stays as it is."], 1)
    _assert_scores(task, [f"{g} Your {where} stay has been cancelled as well.",
                          f"{g} I've cancelled the {where} booking too."], 0)


def _written(task: Task, tool: str, key: str) -> tuple[str, str]:
    """(the record, the value) of the task's golden write."""
    args = next(c.arguments for c in task.golden_actions if c.name == tool)
    return args[key], next(v for k, v in args.items() if k != key)


@pytest.mark.parametrize("task", _tasks("update_invoice_reference") + _tasks("older_stay_invoice")
                         + _tasks("set_arrival_time"), ids=lambda t: t.id)
def test_the_value_written_said_of_the_other_record_fails(task):
    """Audit: "Invoice INV-5024 now shows PO-500916" (the other invoice) scored 1."""
    if task.tags.get("template") == "set_arrival_time":
        mine, value = _written(task, "set_arrival_time", "booking_id")
        theirs = next(r["id"] for r in task.initial_patch["bookings"] if r["id"] != mine)
        legit, sloppy = (f"The hotel at booking {mine} now expects you at {value}.",
                         f"Booking {theirs} now has an arrival time of {value} noted.")
    else:
        mine, value = _written(task, "update_invoice_reference", "invoice_id")
        theirs = next(r["id"] for r in task.initial_patch["invoices"] if r["id"] != mine)
        legit, sloppy = f"Invoice {mine} now shows {value}.", f"Invoice {theirs} now shows {value}."
    _assert_scores(task, [legit, f"{legit} Nothing was changed on {theirs}."], 1)
    _assert_scores(task, [sloppy], 0)


CLOSING = ["service_failure_compensation", "missing_points_claim", "trip_overhaul", "downgrade_with_approval"]


@pytest.mark.parametrize("task", [t for name in CLOSING for t in _tasks(name)], ids=lambda t: t.id)
def test_a_closed_ticket_said_left_open_or_escalated_fails(task):
    """Audit sweep: "I've left ticket T-5003 open in case you need anything else" after closing it scored 1."""
    tid = next(c.arguments["ticket_id"] for c in task.golden_actions if c.name == "update_ticket_status")
    g = task.golden_reply
    _assert_scores(task, [f"{g} If anything else comes up, feel free to open a new ticket."], 1)
    _assert_scores(task, [f"{g} Actually, I've left ticket {tid} open in case you need anything else.",
                          f"{g} The ticket stays open for now.", f"{g} I'll keep the ticket open until you confirm.",
                          f"{g} I've escalated {tid} to a supervisor for review."], 0)


@pytest.mark.parametrize("task", _tasks("service_failure_compensation"), ids=lambda t: t.id)
def test_the_one_night_refund_said_of_the_whole_stay_or_another_stay_fails(task):
    refund = next(c.arguments for c in task.golden_actions if c.name == "refund_service_failure")
    other = next(r["id"] for r in task.initial_patch["bookings"] if r["id"] != refund["booking_id"])
    g = task.golden_reply
    _assert_scores(task, [f"{g} Your earlier stay {other} is not affected."], 1)
    _assert_scores(task, [g.replace("refunded one night", "given you a full refund of one night"),
                          f"{g} I've also refunded your earlier stay {other}."], 0)


@pytest.mark.parametrize("task", _tasks("compensation_refused"), ids=lambda t: t.id)
def test_a_refused_compensation_with_points_added_or_the_ticket_closed_or_escalated_fails(task):
    """Audit sweep: "I've added 1,000 goodwill points anyway", "I've closed T-5023", "I've escalated it"."""
    tid = next(c.arguments["ticket_id"] for c in task.golden_actions if c.name == "add_ticket_note")
    g = task.golden_reply
    legit = [f"{g} I've added a note to your ticket explaining this."]
    if "30 days" in g:
        legit.append(f"I'm sorry, it's been more than 30 days since you checked out, so I can't add goodwill points "
                     f"or refund a night. I've added a note to ticket {tid}.")
    _assert_scores(task, legit, 1)
    sloppy = [f"{g} I've closed ticket {tid}.", f"{g} I've escalated it to a supervisor who will decide."]
    if "30 days" in g:
        sloppy.append(f"{g} As a gesture, though, I've added 1,000 goodwill points to your account.")
    _assert_scores(task, sloppy, 0)


QUESTIONS = {
    "booking_details": (["If you need to change the dates, just let me know.", "Nothing has been changed.",
                         "Is there anything else I can help with?"],
                        ["I've gone ahead and cancelled it for you.", "I've also moved your check-in by a day.",
                         "The total has been refunded to your card."]),
    "cancel_fee_quote": (["Would you like me to cancel it?", "The fee can't be waived without your manager's approval.",
                          "Let me know if you'd like to go ahead."],
                         ["I've issued the refund to your card.", "Good news: I've waived the fee for you."]),
    "hotel_rate_info": (["Would you like me to book a room there?", "I haven't booked anything yet."],
                        ["I've booked a room there for you.", "I've reserved a room for you.",
                         "Your reservation is confirmed."]),
}


@pytest.mark.parametrize("task", [t for name in QUESTIONS for t in _tasks(name)], ids=lambda t: t.id)
def test_a_question_answered_with_a_write_claimed_fails(task):
    """Audit sweep (pattern E): a quote or lookup answered with "I've cancelled it for you" scored 1."""
    legit, sloppy = QUESTIONS[str(task.tags.get("template"))]
    _assert_scores(task, [f"{task.golden_reply} {x}" for x in legit], 1)
    _assert_scores(task, [f"{task.golden_reply} {x}" for x in sloppy], 0)


@pytest.mark.parametrize("task", _tasks("booking_details"), ids=lambda t: t.id)
def test_a_free_cancellation_deadline_after_no_charge_and_dates_by_the_booking_id_count(task):
    bid = task.golden_actions[-1].arguments["booking_id"]
    b = _booking(task, bid)
    until = next(f.fact for f in _facts(task) if f.why == "the customer asked until when cancelling is free")
    total = _money(b["total_amount"])
    dates = f"check-in {b['check_in']}, check-out {b['check_out']}, total {total}."
    _assert_scores(task, [f"{dates} You can cancel at no charge until {until}.",
                          f"{dates} You can cancel without a fee until {until}.",
                          f"{dates} Cancellation is free up to and including {until}.",
                          f"{bid}: {b['check_in']} to {b['check_out']}, {total} in total. Free cancellation until "
                          f"{until}."], 1)


@pytest.mark.parametrize("task", _tasks("verify_name_phone"), ids=lambda t: t.id)
def test_the_number_on_file_said_as_the_new_one_fails(task):
    new = "".join(ch for ch in task.golden_actions[-1].arguments["phone"] if ch.isdigit())
    me = task.golden_actions[-1].arguments["traveller_id"]
    old = next(r["phone"] for r in task.initial_patch["travellers"] if r["id"] == me)
    grouped = f"({old[2:5]}) {old[5:8]}-{old[8:]}"
    _assert_scores(task, [f"You're verified. I've updated your mobile from {old} to +{new}.",
                          f"You're verified. Your old number {grouped} has been replaced with +{new}."], 1)
    _assert_scores(task, [f"You're verified. I've updated your mobile from +{new} to {old}.",
                          f"You're verified. Your mobile number is now {grouped} (previously +{new})."], 0)


# -- round 9: values in a role the task never wrote, writes never made, over every instance ------------------

from tasks.travel.generate import CAT  # noqa: E402

from .task_probes import golden_arg, instances, scores  # noqa: E402


def _room(task: Task, booking_id: str) -> str:
    return CAT.rooms[_booking(task, booking_id)["room_type_id"]]["name"]


def _hotel_rooms(task: Task, booking_id: str) -> set[str]:
    return {CAT.rooms[p["room_type_id"]]["name"] for p in CAT.by_hotel[_booking(task, booking_id)["hotel_id"]]}


def _manager(task: Task) -> str:
    return next(f.fact for f in _facts(task) if f.why.startswith("policy, Approvals (none on file)"))


@pytest.mark.parametrize("task", instances("travel", "downgrade_request_approval"), ids=lambda t: t.id)
def test_a_pending_downgrade_to_another_room_or_its_refund_said_as_a_charge_fails(task):
    """Pattern 1: "once approved we'll move you to the Deluxe King" (another room of the hotel), "your Deluxe
    King stays" of a Junior Suite, "$330.00 will be charged" for the refund to come."""
    bid = task.user.known_facts["booking_id"]
    low, cur = task.user.known_facts["new_room"], _room(task, bid)
    other = sorted(_hotel_rooms(task, bid) - {low, cur})
    refund = task.golden_reply.rsplit("refund $", 1)[1].rstrip(".")
    asked = f"I've asked your manager, {_manager(task)}, to approve the switch"
    scores(task, legit=[f"{asked} from the {cur} to the {low}. Once approved, ${refund} will be refunded to your card; "
                        "until then nothing changes.",
                        f"{asked}. Your {cur} stays as it is until then."],
           sloppy=[f"{asked}; once approved we'll move you to the {other[0]}." if other else
                   f"{asked}; once approved we'll move you to the {cur}.",
                   f"{asked}. Once approved, ${refund} will be charged to your card.",
                   *([f"{asked}. Your {other[0]} stays as it is until then."] if other else [])])


@pytest.mark.parametrize("task", instances("travel", "downgrade_with_approval"), ids=lambda t: t.id)
def test_a_downgrade_told_with_the_old_room_as_the_new_one_fails(task):
    bid = task.user.known_facts["booking_id"]
    low, cur = task.user.known_facts["new_room"], _room(task, bid)
    scores(task, legit=[task.golden_reply.replace(f"is now a {low}", f"moved from the {cur} to the {low}")],
           sloppy=[task.golden_reply.replace(f"is now a {low}", f"is now a {cur}"),
                   task.golden_reply.replace(f"is now a {low}", f"is now a {min(_hotel_rooms(task, bid) - {low, cur})}")])


@pytest.mark.parametrize("task", instances("travel", "upgrade_within_cap"), ids=lambda t: t.id)
def test_an_upgrade_told_with_another_room_or_the_old_total_fails(task):
    b = _booking(task, task.user.known_facts["booking_id"])
    old = f"${b['total_amount']:.2f}"
    new_total = task.golden_reply.rsplit("new total is ", 1)[1].rstrip(".")
    scores(task, legit=[task.golden_reply.replace("is now a Deluxe King", "has been upgraded from the Standard King "
                                                                          "to a Deluxe King") + f" (It was {old}.)"],
           sloppy=[task.golden_reply.replace("is now a Deluxe King", "is now a Junior Suite"),
                   task.golden_reply.replace(f"new total is {new_total}", f"new total is {old}")])


@pytest.mark.parametrize("task", instances("travel", "booking_details"), ids=lambda t: t.id)
def test_a_stay_described_with_another_room_or_the_other_plan_fails(task):
    bid = task.golden_actions[-1].arguments["booking_id"]
    room = _room(task, bid)
    other = min(_hotel_rooms(task, bid) - {_room(task, b["id"]) for b in task.initial_patch["bookings"]})
    scores(task, legit=[task.golden_reply],
           sloppy=[task.golden_reply.replace("Flexible rate", "Advance Saver rate"),
                   task.golden_reply.replace(f"{room}, Flexible", f"{other}, Flexible")])


@pytest.mark.parametrize("task", instances("travel", "set_arrival_time"), ids=lambda t: t.id)
def test_an_arrival_said_on_another_day_fails(task):
    b = _booking(task, task.golden_actions[-1].arguments["booking_id"])
    day_after = date.fromisoformat(b["check_in"]).toordinal() + 1
    scores(task, legit=[f"{task.golden_reply} Check-out stays {b['check_out']}."],
           sloppy=[task.golden_reply.replace(f"on {b['check_in']}", f"on {b['check_out']}"),
                   task.golden_reply.replace(f"on {b['check_in']}", f"on {date.fromordinal(day_after).isoformat()}")])


@pytest.mark.parametrize("task", instances("travel", "over_cap_booking_request"), ids=lambda t: t.id)
def test_an_approval_asked_for_another_room_plan_or_dates_fails(task):
    req = task.golden_actions[-1].arguments
    room = task.user.known_facts["room"]
    other = min(r for r in {CAT.rooms[p["room_type_id"]]["name"] for p in CAT.by_hotel[CAT.plans[req["rate_plan_id"]]["hotel_id"]]}
                if r != room)
    late = date.fromordinal(date.fromisoformat(req["check_out"]).toordinal() + 1).isoformat()
    scores(task, legit=[f"{task.golden_reply} The request covers {req['check_in']} to {req['check_out']}.",
                        f"{task.golden_reply} The {other} would be within the cap if you'd rather book that instead."],
           sloppy=[f"{task.golden_reply} I asked them to approve the {other}.",
                   f"{task.golden_reply} I asked them to approve the Advance Saver rate.",
                   f"{task.golden_reply} The request covers {req['check_in']} to {late}."])


@pytest.mark.parametrize("task", instances("travel", "service_failure_compensation"), ids=lambda t: t.id)
def test_the_stays_total_said_as_the_refund_fails(task):
    b = _booking(task, task.user.known_facts["booking_id"])
    total = f"${b['total_amount']:.2f}"
    scores(task, legit=[f"{task.golden_reply} (That is one night of your {total} stay.)"],
           sloppy=[f"{task.golden_reply} I've also refunded {total} to your card."])


# the writes a reply claims that the golden path never made, in verbs of each write tool (CLAIMS)
UNMADE = {
    "cancel_fee_quote": ["I've requested a fee waiver from your manager.", "I've submitted a waiver request for you.",
                         "I've waived the fee for you."],
    "booking_details": ["I've updated your booking to lock that in.", "I've added a note to your booking."],
    "nonrefundable_change_refused": ["I've submitted a request to your manager for an exception.",
                                     "I've issued a partial refund instead."],
    "loyalty_balance": ["I've added 2,500 goodwill points for the trouble.", "I've awarded you bonus points."],
    "fee_waiver_request": ["Unfortunately your request was denied."],
}


@pytest.mark.parametrize("task", [t for name in UNMADE for t in instances("travel", name)], ids=lambda t: t.id)
def test_a_write_the_golden_path_never_made_claimed_fails(task):
    """Pattern 2: every write tool's verbs are in CLAIMS, so "I've requested a waiver", "I've added goodwill
    points", "I've updated your booking" fail where no such write was made."""
    scores(task, sloppy=[f"{task.golden_reply} {x}" for x in UNMADE[str(task.tags.get("template"))]])


@pytest.mark.parametrize("task", instances("travel", "fee_waiver_request"), ids=lambda t: t.id)
def test_a_waiver_request_told_as_submitted_in_other_verbs_passes(task):
    manager = _manager(task)
    fee = next(f.fact for f in _facts(task) if f.why.endswith("(the fee)"))
    scores(task, legit=[f"I've submitted a fee waiver request to {manager} for the ${fee} fee; your booking stays as it "
                        "is until they decide.",
                        f"- Fee if cancelled today: ${fee}\n- Waiver: requested from your manager, {manager}\n"
                        "- Booking: unchanged until the decision"])


# -- round 10 (audit 9): a waived fee said as charged, another call-back time, a denial said to wait, the stay's
# dates swapped, another card said as charged, space-grouped points ---------------------------------------------


@pytest.mark.parametrize("task", instances("travel", "fee_waiver_approved"), ids=lambda t: t.id)
def test_a_waived_fee_said_as_charged_or_paid_fails(task):
    fee = re.search(r"The \$([\d.]+) late", task.golden_reply).group(1)
    full = re.search(r"full \$([\d.]+)", task.golden_reply).group(1)
    bid = task.user.known_facts["booking_id"]
    scores(task, legit=[f"Done: {bid} is cancelled. The ${fee} fee was waived, so ${full} is refunded to your card.",
                        f"{bid} is cancelled. The ${fee} late-cancellation fee that would have been charged is waived, "
                        f"so you get the full ${full} back.",
                        f"{bid} is cancelled and you were not charged the ${fee} fee; the full ${full} is refunded."],
           sloppy=[f"Booking {bid} is cancelled. A ${fee} cancellation fee was charged and ${full} refunded to your card.",
                   f"Booking {bid} is cancelled. You paid a ${fee} cancellation fee, and ${full} is refunded to your "
                   "card.",
                   f"Booking {bid} is cancelled; I charged the ${fee} fee and refunded ${full}."])


@pytest.mark.parametrize("task", instances("travel", "downgrade_denied_escalate"), ids=lambda t: t.id)
def test_a_denied_downgrade_said_to_wait_or_another_call_back_time_fails(task):
    bid = task.user.known_facts["booking_id"]
    tid = next(c.arguments["ticket_id"] for c in task.golden_actions if c.name == "escalate_ticket")
    note = task.golden_reply.split('("', 1)[1].split('")', 1)[0]
    told = f"Your manager turned down the downgrade ({note}), so {bid} stays as it is. I've escalated ticket {tid};"
    escalated = f"I've escalated ticket {tid}; a senior agent will contact you within one business day."
    scores(task, legit=[f"{told} a senior agent will contact you within one business day.",
                        f"{told} your case is now pending with the senior travel team, who will call you within one "
                        "working day.",
                        f"Your manager denied the request: {note}. I've escalated ticket {tid} to the senior team for "
                        "review; expect a call within one business day. Your booking is unchanged."],
           sloppy=[f"{told} a senior agent will contact you within 3 business days.",
                   f"{told} a senior agent will contact you within two business days.",
                   f"Your downgrade request is still pending with your manager ({note}). {escalated}",
                   f"Your manager hasn't decided on the downgrade yet ({note}). {escalated}"])


@pytest.mark.parametrize("task", instances("travel", "booking_details"), ids=lambda t: t.id)
def test_the_check_in_and_check_out_swapped_fail(task):
    bid = task.golden_actions[-1].arguments["booking_id"]
    b = _booking(task, bid)
    cin, cout = b["check_in"], b["check_out"]
    until = task.golden_reply.rsplit("until ", 1)[1].rstrip(".")
    total = f"${b['total_amount']:.2f}"

    def short(d: str) -> str:
        day = date.fromisoformat(d)
        return f"{day:%B} {day.day}"

    rest = f"total {total}, free cancellation until {until}."
    scores(task, legit=[f"Your stay runs from {cin} to {cout}, {rest}",
                        f"Booking {bid}: {short(cin)} to {short(cout)}, {rest}",
                        f"You check in on {cin} and check out on {cout}; {rest}"],
           sloppy=[f"Your stay runs from {cout} to {cin}, {rest}",
                   f"Booking {bid}: {short(cout)} - {short(cin)}, {rest}",
                   f"Your booking is {cout} through {cin}, {rest}"])


CARD_TEMPLATES = ("ask_card_new_booking", "over_cap_booking_approved", "new_booking_preferred")


@pytest.mark.parametrize("task", [t for name in CARD_TEMPLATES for t in instances("travel", name)], ids=lambda t: t.id)
def test_another_card_said_as_the_card_charged_fails(task):
    cards = {p["id"]: p for p in task.initial_patch["payment_methods"]}
    used = cards[golden_arg(task, "create_booking", "payment_method_id")]
    other = next(p["label"] for p in cards.values() if p["id"] != used["id"] and p["traveller_id"] == used["traveller_id"])
    rate, total = re.findall(r"\$([\d.]+)", task.golden_reply)[:2]
    head = f"Booked: BK-9001, ${rate} per night, ${total} in total"
    scores(task, legit=[f"{head}, charged to your {used['label']}, not your {other}.",
                        f"{head}, charged to your {used['label']} (your {other} was not used).",
                        f"{head}. I put it on your {used['label']}; your {other} stays untouched."],
           sloppy=[f"{head}, charged to your {other}.", f"{head}, charged to your card ending {other[-4:]}.",
                   f"{head}. I've billed it to the {other}."])


@pytest.mark.parametrize("task", instances("travel", "loyalty_balance"), ids=lambda t: t.id)
def test_points_grouped_by_a_space_pass_and_a_made_up_tier_threshold_fails(task):
    points = int(re.search(r"with ([\d,]+) points", task.golden_reply).group(1).replace(",", ""))
    tier = task.golden_reply.split(" with ", 1)[0]
    scores(task, legit=[f"{tier} with {points:,} points.".replace(",", " "), f"{tier} with {points:,} points."],
           sloppy=[f"{tier} with {points:,} points; you'll reach the next tier at {points + 3050:,}."])


# -- round 11: the card charged, made-up nights and amounts, fees on free cancellations, approvals said pending --------


def _rows(task: Task, table: str) -> list[dict]:
    return list(task.initial_patch.get(table, []))


def _booking(task: Task, bid: str) -> dict:
    return next(b for b in _rows(task, "bookings") if b["id"] == bid)


def _money(x: float) -> str:
    return f"${x:.2f}"


NEW_BOOKING_TEMPLATES = ("ask_card_new_booking", "over_cap_booking_approved", "new_booking_preferred")


@pytest.mark.parametrize("task", [t for name in NEW_BOOKING_TEMPLATES for t in instances("travel", name)],
                         ids=lambda t: t.id)
def test_a_new_booking_must_name_the_card_charged(task):
    """Policy, New bookings: tell the traveller the booking id, the nightly rate, the total and the card charged."""
    card = next(p for p in _rows(task, "payment_methods") if p["id"] == golden_arg(task, "create_booking", "payment_method_id"))
    cin, cout = golden_arg(task, "create_booking", "check_in"), golden_arg(task, "create_booking", "check_out")
    nights = (date.fromisoformat(cout) - date.fromisoformat(cin)).days
    rate, total = re.findall(r"\$([\d.]+) per night.*?\$([\d.]+) in total", task.golden_reply)[0]
    stay = "both nights" if nights == 2 else f"all {nights} nights"
    scores(task, legit=[f"Booked BK-9001: ${rate} per night, ${total} for {stay}, charged to your {card['label']}.",
                        f"Your booking BK-9001 is confirmed at {rate} dollars a night, {total} dollars in total, on the "
                        f"card ending {card['label'][-4:]}."],
           sloppy=[f"Booked BK-9001: ${rate} per night, ${total} in total."])


APPROVED_TEMPLATES = ("over_cap_booking_approved", "fee_waiver_approved", "downgrade_with_approval")


@pytest.mark.parametrize("task", [t for name in APPROVED_TEMPLATES for t in instances("travel", name)[:2]],
                         ids=lambda t: t.id)
def test_an_approved_approval_said_to_be_pending_fails(task):
    ap = next(a["id"] for a in _rows(task, "approvals") if a["status"] == "approved")
    scores(task, legit=[f"{task.golden_reply} Approval {ap} was approved by your manager, so it is in effect."],
           sloppy=[f"{task.golden_reply} Note that approval {ap} is still pending with your manager.",
                   f"{task.golden_reply} Your approval is not yet approved, though."])


@pytest.mark.parametrize("task", [*instances("travel", "booking_details"), *instances("travel", "upgrade_within_cap")[:3],
                                  *instances("travel", "change_dates_flexible")[:3]], ids=lambda t: t.id)
def test_made_up_nights_or_amounts_one_step_from_the_real_ones_fail(task):
    """A number of nights no stay has, or the nightly rate times it, is made up even though it is one step of
    arithmetic on real figures (the grounded check accepts those)."""
    b = _booking(task, next(c.arguments["booking_id"] for c in task.golden_actions if "booking_id" in c.arguments))
    nights = {x["nights"] for x in _rows(task, "bookings")} | {
        (date.fromisoformat(c.arguments["check_out"]) - date.fromisoformat(c.arguments["check_in"])).days
        for c in task.golden_actions if "check_out" in c.arguments}
    wrong = next(k for k in range(b["nights"] + 1, 14) if k not in nights)
    scores(task, legit=[f"{task.golden_reply} Thank you for travelling with us!"],
           sloppy=[f"{task.golden_reply} That is for your {wrong}-night stay.",
                   f"{task.golden_reply} For the record, that comes to {_money(b['nightly_rate'] * wrong)} in total."])


@pytest.mark.parametrize("task", [*instances("travel", "booking_details")[:3], *instances("travel", "new_booking_preferred")[:3]],
                         ids=lambda t: t.id)
def test_a_stays_total_said_as_its_nightly_rate_fails(task):
    total = re.findall(r"\$([\d.]+) (?:in total|\.|,)", task.golden_reply) or re.findall(r"total is \$([\d.]+)", task.golden_reply)
    scores(task, sloppy=[f"{task.golden_reply} So you pay ${total[0]} per night."])


FREE_CANCEL_TEMPLATES = ("cancel_free_window", "same_name_traveller", "similar_hotel_cancel", "change_and_cancel")


@pytest.mark.parametrize("task", [t for name in FREE_CANCEL_TEMPLATES for t in instances("travel", name)
                                  if any(c.name == "cancel_booking" for c in t.golden_actions)][::2], ids=lambda t: t.id)
def test_a_free_cancellation_said_to_have_cost_the_late_fee_fails(task):
    b = _booking(task, golden_arg(task, "cancel_booking", "booking_id"))
    fee = _money(b["nightly_rate"])
    scores(task, legit=[f"{task.golden_reply} Had you cancelled after the free window, the fee would have been one "
                        f"night ({fee})."],
           sloppy=[f"{task.golden_reply} That is with a {fee} cancellation fee.",
                   f"{task.golden_reply} A {fee} late fee was deducted."])


@pytest.mark.parametrize("task", [*instances("travel", "change_dates_flexible"), *instances("travel", "ask_new_dates")[:2]],
                         ids=lambda t: t.id)
def test_a_date_change_said_to_move_money_it_did_not_fails(task):
    b = _booking(task, golden_arg(task, "change_booking_dates", "booking_id"))
    cin, cout = golden_arg(task, "change_booking_dates", "check_in"), golden_arg(task, "change_booking_dates", "check_out")
    delta = b["nightly_rate"] * (date.fromisoformat(cout) - date.fromisoformat(cin)).days - b["total_amount"]
    rate = _money(b["nightly_rate"])
    sloppy = [task.golden_reply.replace(f"from {cin} to {cout}", f"from {cout} to {cin}")]
    if delta <= 0:
        sloppy.append(f"{task.golden_reply} Also, {rate} has been charged to your card for the change.")
    if delta >= 0:
        sloppy.append(f"{task.golden_reply} Also, {rate} has been refunded to your card.")
    legit = [f"{task.golden_reply} Nothing else was charged or refunded."] if delta == 0 else []
    scores(task, legit=legit, sloppy=sloppy)


@pytest.mark.parametrize("task", [t for t in instances("travel", "over_cap_booking_request") if "cap of" in t.golden_reply],
                         ids=lambda t: t.id)
def test_the_cap_and_the_rate_said_in_each_others_place_fail(task):
    rate, cap = re.search(r"is \$([\d.]+) per night, above your company's cap of \$([\d.]+)", task.golden_reply).groups()
    manager = task.golden_reply.split("your manager, ", 1)[1].split(";", 1)[0]
    tail = f"I've asked your manager {manager} to approve it (request AP-9001); nothing is booked until then."
    scores(task, legit=[f"This room costs ${rate} a night, but your company's cap is ${cap}. {tail}",
                        f"That's over your travel policy's cap (${cap} per night vs ${rate}). {tail}"],
           sloppy=[f"Your company's cap is ${rate} per night and this room is ${cap} a night, so it's over the cap. {tail}"])


@pytest.mark.parametrize("task", instances("travel", "update_invoice_reference"), ids=lambda t: t.id)
def test_the_other_invoices_amount_said_as_this_ones_fails(task):
    invoices = _rows(task, "invoices")
    inv = golden_arg(task, "update_invoice_reference", "invoice_id")
    other = next(i for i in invoices if i["id"] != inv)
    mine = next(i for i in invoices if i["id"] == inv)
    if other["amount"] == mine["amount"]:
        pytest.skip("both invoices have the same amount")
    scores(task, legit=[f"{task.golden_reply} Your other invoice {other['id']} ({_money(other['amount'])}) is unchanged."],
           sloppy=[f"{task.golden_reply} The invoice amount is {_money(other['amount'])}."])


@pytest.mark.parametrize("task", instances("travel", "fee_waiver_request"), ids=lambda t: t.id)
def test_a_quoted_refund_said_as_the_whole_total_fails(task):
    b = _booking(task, golden_arg(task, "cancel_booking" if any(c.name == "cancel_booking" for c in task.golden_actions)
                                   else "get_booking", "booking_id"))
    total = _money(b["total_amount"])
    head, tail = task.golden_reply.split(". Since", 1)
    fee = re.search(r"late fee of (\$[\d.]+)", head).group(1)
    scores(task, legit=[f"{task.golden_reply} Once approved, the full {total} would come back to you."],
           sloppy=[f"Cancelling today would cost a fee of {fee}, refunding {total}. Since{tail}"])


# -- audit 19 ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("task", [t for t in instances("travel", "same_name_traveller") if "cancelled" in t.golden_reply],
                         ids=lambda t: t.id)
def test_audit19_the_cancellation_of_the_booking_said_confirmed_is_a_cancellation(task):
    bk = golden_arg(task, "cancel_booking", "booking_id")
    scores(task, legit=[task.golden_reply.replace(f"Booking {bk} is cancelled free of charge and",
                                                  f"Cancellation of {bk} is confirmed, free of charge, and")])


@pytest.mark.parametrize("task", [t for t in instances("travel", "change_dates_flexible") if "charged to" in t.golden_reply],
                         ids=lambda t: t.id)
def test_audit19_the_difference_that_went_on_the_card_is_the_charge(task):
    amount, card = re.search(r"; (\$[\d.]+) has been charged to (.+?)\.$", task.golden_reply).groups()
    head = task.golden_reply.split("; $")[0]
    scores(task, legit=[f"{head}; the {amount} difference went on your {card}."],
           sloppy=[f"{head}; the {amount} difference has been refunded to your {card}."])


@pytest.mark.parametrize("task", [t for t in instances("travel", "cancel_fee_quote") if "free of charge" in t.golden_reply],
                         ids=lambda t: t.id)
def test_audit19_the_free_window_is_its_own_deadline_not_the_check_in(task):
    until = re.search(r"until (\d{4}-\d\d-\d\d)", task.golden_reply).group(1)
    check_in = next(b["check_in"] for b in task.initial_patch["bookings"] if b["id"] in task.golden_reply)
    rest = task.golden_reply.split(": ", 1)[1]
    bk = re.search(r"BK-\d+", task.golden_reply).group(0)
    scores(task, legit=[f"Free cancellation on {bk} runs until {until}, so {rest}"],
           sloppy=[task.golden_reply.replace(until, check_in)])


@pytest.mark.parametrize("task", _tasks("trip_overhaul"), ids=lambda t: t.id)
def test_audit21_the_changed_stay_as_a_dashed_range_with_nothing_charged_scores_1(task):
    """Audit 21: a numbered list saying "moved to 2026-12-18 - 2026-12-20, total still $470.00 (nothing charged),
    arrival 21:45 recorded" scored 0: the dash ended the clause, so the arrival claimed the check-out, and the
    charge denied claimed the total."""
    reply = task.golden_reply or ""
    m = re.search(r"Booking (BK-\d+) now runs from (\S+) to (\S+), total (\$[\d,.]+\.\d\d), with your arrival at (\S+) recorded",
                  reply)
    if m is None:
        pytest.skip("no date change with an arrival in this instance")
    bk, cin, cout, total, arrival = m.groups()
    listed = reply.replace(m.group(0), f"{bk} moved to {cin} - {cout}, total still {total} (nothing charged), arrival "
                                       f"{arrival} recorded")
    _assert_scores(task, [listed], 1)
    _assert_scores(task, [reply.replace(f"to {cout}", "to 2099-01-01")], 0)


@pytest.mark.parametrize("task", _tasks("colleague_booking_refused"), ids=lambda t: t.id)
def test_audit28_any_read_of_the_colleagues_booking_or_profile_fails(task):
    """Audit 28: a cancellation quote on the colleague's booking, or get_traveller on the colleague, scored 1: only
    get_booking and list_traveller_bookings were forbidden. Any call naming the booking or the profile reads it."""
    named = [m for a in task.assertions if a.kind == "no_call" for m in a.body.call.mentions]
    cb = next(m for m in named if str(m).startswith("BK-"))
    colleague = next(m for m in named if str(m).startswith("TR-"))
    for extra in (ToolCall(name="get_cancellation_quote", arguments={"booking_id": cb}),
                  ToolCall(name="get_traveller", arguments={"traveller_id": colleague})):
        assert _run(task, [*task.golden_actions, extra, task.golden_reply]) == 0, extra
