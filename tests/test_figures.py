"""The `grounded` check: figures a reply states must come from the episode (tb_env.domain.figures),
and a value the golden path replaced is not the new one (tb_env.core.check)."""

from __future__ import annotations

import pytest

from tb_env.domain.figures import stated, ungrounded

RESULT = ('{"order_id": "O-82055", "total": 74.99, "shipping": 5.99, "nightly_rate": 149.0, "check_in": "2026-03-03", '
          '"check_out": "2026-03-06", "phone": "503-555-0199", "points": 2500, "discount_percent": 10}')
POLICY = "A cancellation within 24 hours of booking is free; after that the fee is $35. Refunds post in 5-10 business days."
SOURCES = [RESULT, POLICY, "Hi, I want to cancel order O-82055. My zip is 97201."]


@pytest.mark.parametrize("reply", [
    "Order O-82055 is cancelled and the full $74.99 is refunded.",
    "You'll get 74.99 back plus the 5.99 shipping: $80.98 in all.",  # a sum
    "That is 3 nights at $149.00, so $447.00 for the stay.",  # the nights between the dates, a multiple
    "Your stay runs March 3 to March 6, 2026.",
    "The fee is $35.00, so you get $39.99 back.",  # the policy's fee, a difference
    "With your 10% discount that comes to 67.49.",  # a percentage off
    "You have 2,500 points.",
    "It should post within 5-10 business days, by 2026-03-13.",  # a date a counted span from a known one
    "Call us on 503-555-0199.",  # a phone number is no figure
    "About $75 was refunded.",  # a rounded amount
])
def test_figures_the_episode_gave_pass(reply: str) -> None:
    assert ungrounded([reply], SOURCES) == []


@pytest.mark.parametrize("reply, kind", [
    ("Order O-82055 is cancelled and the full $79.99 is refunded.", "money"),
    ("The nightly rate is $52.00/day.", "money"),
    ("Your rental is authorised for 30 rental days.", "count"),
    ("Your stay runs March 4 to March 7, 2026.", "date"),
    ("I've added 3,000 goodwill points.", "count"),
    ("The refund is 71.00 each.", "money"),
])
def test_made_up_figures_fail(reply: str, kind: str) -> None:
    made_up = ungrounded([reply], SOURCES)
    assert made_up and made_up[0].kind == kind, made_up


def test_what_counts_as_a_figure() -> None:
    kinds = [(f.kind, f.value) for f in stated("Order O-82055 (item 2 of 3) ships 2026-03-03; 15% off $40; 7 nights")]
    assert ("money", 40.0) in kinds and ("count", 7.0) in kinds and ("date", "2026-03-03") in kinds
    assert not any(v in (82055.0, 15.0, 2.0) for _, v in kinds)  # ids, percentages and bare numbers are none


@pytest.mark.parametrize("reply", [
    "The nightly rate is $71 (rounded).",  # 70.50 a night: a rounded amount without cents
    "Together they come to $320.50.",  # three known amounts added up
])
def test_rounding_and_three_items(reply: str) -> None:
    assert ungrounded([reply], ['{"a": 70.50, "b": 100.00, "c": 150.00}']) == []
    assert ungrounded(["The nightly rate is $71.00."], ['{"a": 70.50, "b": 100.00, "c": 150.00}'])  # cents are exact


def _graded(task_id: str, reply: str) -> tuple[float | None, list[str]]:
    """The golden calls and `reply`, on the task with a `grounded` assertion added."""
    import asyncio

    import tb_env
    from tb_env.core.episode import run_episode
    from tb_env.domain.task import Assertion
    from tb_env.kit.probes import ScriptPolicy

    task = tb_env.get_task(task_id)
    task = task.model_copy(update={"assertions": [a for a in task.assertions if a.kind != "grounded"]
                                   + [Assertion(grounded={"why": "policy: never invent amounts"})]})
    r = asyncio.run(run_episode(task, ScriptPolicy([*task.golden_actions, reply]), max_turns=len(task.golden_actions) + 12))
    return r.reward, r.check["failed"] if r.check else []


def test_the_value_before_a_change_is_not_the_new_one() -> None:
    """travel/ask-new-dates-test-01 moves a stay from 3 nights ($987.00) to 4 ($1316.00)."""
    golden = ("Booking BK-5161 at Harbor & Vine Zurich Downtown now runs from 2027-01-18 to 2027-01-22 (4 nights), "
              "new total $1316.00; $329.00 has been charged to Mastercard Corporate ending 2856.")
    assert _graded("travel/ask-new-dates-test-01", golden)[0] == 1
    assert _graded("travel/ask-new-dates-test-01", golden + " Your old total was $987.00.")[0] == 1
    assert _graded("travel/ask-new-dates-test-01", golden + " (previously $987.00)")[0] == 1
    reward, failed = _graded("travel/ask-new-dates-test-01", golden + " The total is now $987.00.")
    assert reward == 0 and any("before the change" in f for f in failed), failed
    reward, failed = _graded("travel/ask-new-dates-test-01", golden + " The taxes come to $13.17.")
    assert reward == 0 and any("grounded" in f and "13.17" in f for f in failed), failed


@pytest.mark.parametrize("reply, sources", [
    ("It is worth more than $150,000.", ["The note says: value above 150,000."]),  # a number the source states without $
    ("Done: -$253.00/yr.", ['{"annual_change": -253.0}']),  # a rate is no count of years
    ("In all, $6.52 is charged for the rest of the term.", ['{"a": 1.10, "b": 2.20, "c": 1.01, "d": 2.21, "e": 9.99}']),
])
def test_figures_found_in_audits(reply: str, sources: list[str]) -> None:
    assert ungrounded([reply], sources) == []


def test_a_bare_figure_grouped_in_thousands_is_a_count_to_ground() -> None:
    """Audit 9: "you'll reach Gold at 20,000" named a threshold nobody gave; "16,950" is the balance."""
    sources = ['{"points_balance": 16950, "tier": "Silver"}', "Gold needs 25,000 points in a year."]
    assert ungrounded(["You have 16,950 points; Gold is at 25,000, so 8,050 to go."], sources) == []
    made_up = ungrounded(["You have 16,950 points and you'll reach Gold at 20,000."], sources)
    assert [(f.kind, f.value) for f in made_up] == [("count", 20000.0)]


def test_a_records_date_must_be_one_the_episode_gave() -> None:
    """Audit 11: a loss date, hold date or leave date shifted by days the policy counts passed, because any
    known date plus any counted span was taken as given; only words that count a date make one new."""
    sources = ['{"loss_date": "2026-03-03", "reported_at": "2026-03-05T10:00:00Z"}', "Claims must be reported within 30 days."]
    assert ungrounded(["Your claim's loss date is 2026-03-03, reported 2026-03-05."], sources) == []
    assert ungrounded(["You have until 2026-04-02 to report it (within 30 days)."], sources) == []
    made_up = ungrounded(["Your claim's loss date is 2026-04-02."], sources)  # 30 days on, said as the record's date
    assert [(f.kind, f.value) for f in made_up] == [("date", "2026-04-02")]
    assert ungrounded(["The loss happened on April 2."], sources)  # a date without its year, too
    assert ungrounded(["It was reported on March 5."], sources) == []  # the timestamp's date


def test_business_days_count_forward_only() -> None:
    """A refund posts 5-10 business days after it is issued, never before."""
    sources = ['{"refunded_on": "2026-03-13"}', "Refunds post in 5-10 business days."]
    assert ungrounded(["It should reach your card by 2026-03-20."], sources) == []
    assert ungrounded(["It was refunded on 2026-03-13 and should post by 2026-03-06."], sources)
    # audit 12: not a deadline a few days off a known date (the span counts what arrives, not what ends)
    assert ungrounded(["You have until 2026-03-20 to send it back."], sources)
    assert ungrounded(["You have until 2026-03-20 to send it back (within 5 business days)."],
                      [*sources, "Send items back within 5 business days."]) == []


def test_a_window_said_to_end_in_any_wording_is_a_counted_date() -> None:
    """Audit 17: "the window ran through 2026-11-29", "it lapsed on 2026-11-29" and "the last day you could
    return it was 2026-11-29" failed a correct refusal: only "by", "until" or "ends" made a date a counted one,
    so 30 days after the delivery was read as a record's made-up date."""
    sources = ['{"delivered_on": "2026-10-30"}', "Items may be returned within 30 days of delivery."]
    for reply in ("Your return window ran through 2026-11-29.", "The return window ended November 29.",
                  "Your return window lapsed on 2026-11-29.", "The last day you could return it was 2026-11-29.",
                  "The cut-off was 2026-11-29.", "Returns were accepted thru 2026-11-29."):
        assert ungrounded([reply], sources) == [], reply
    # a day the count does not reach is still made up, however it is worded
    for reply in ("Your return window ran through 2026-12-02.", "The last day you could return it was 2026-12-02."):
        assert [f.value for f in ungrounded([reply], sources)] == ["2026-12-02"], reply


def test_a_card_named_by_digits_nobody_gave_is_made_up() -> None:
    """Audit 11: "refunded to your Visa ending 1234" when the booking was paid with the card ending 4242."""
    sources = ['{"card": "Visa ending 4242", "card_number": "4111111111114242"}']
    for reply in ("Refunded to your Visa ending 4242.", "Refunded to the card ending in 4242.", "Card ****4242 was credited."):
        assert ungrounded([reply], sources) == [], reply
    for reply in ("Refunded to your Visa ending 1234.", "It went to the card with last four digits 9999.", "Card ****1234."):
        made_up = ungrounded([reply], sources)
        assert [f.kind for f in made_up] == ["card"], (reply, made_up)
    assert ungrounded(["Your cover is in force until the term ending 2026-12-31."], ['{"term_end": "2026-12-31"}']) == []


def test_an_amount_is_a_multiple_only_of_a_count_the_episode_gave() -> None:
    """Any known amount times 1 to 12 used to pass: "$100.00 in fees" for one $25.00 fee."""
    sources = ['{"fee": 25.00, "nights": 2}']
    assert ungrounded(["Two fees of $25.00 come to $50.00."], sources) == []
    assert [f.value for f in ungrounded(["That is $175.00 in fees."], sources)] == [175.0]


def test_the_cents_of_an_amount_state_no_other_amount() -> None:
    from tb_env.domain.normalize import contains_fact

    assert not contains_fact("a refund of $37.25", "25.00")
    assert contains_fact("a refund of $25.00", "25.00") and contains_fact("a refund of $1,025.00", "1025.00")


def test_a_counting_word_counts_only_the_date_just_after_it() -> None:
    """Audit 12: "removed ... from 2026-12-08" and "born 2001-06-20, removed from the policy" passed: a bound word
    anywhere in the sentence made any record date a counted one; "from" and "effective" name a record's date."""
    sources = ['{"dob": "2001-06-19", "effective": "2026-12-05"}', "Changes take effect within 3 days."]
    assert ungrounded(["Removed from the policy, effective 2026-12-05; he was born 2001-06-19."], sources) == []
    assert ungrounded(["The change takes up to 3 days: you can expect it by 2026-12-08."], sources) == []  # counted: 3 days on
    # a span the policy counts but the reply does not: only the task's own golden date
    assert [f.value for f in ungrounded(["You can expect it by 2026-12-08."], sources)] == ["2026-12-08"]
    assert ungrounded(["You can expect it by 2026-12-08."], sources, ["Expect it by 2026-12-08."]) == []
    assert [f.value for f in ungrounded(["Removed from the policy from 2026-12-08."], sources)] == ["2026-12-08"]
    assert [f.value for f in ungrounded(["Your son, born 2001-06-20, was removed until further notice."], sources)] \
        == ["2001-06-20"]


def test_an_id_or_reference_nobody_gave_is_made_up() -> None:
    """Audit 12: "Your reference number is 48213." passed 50/50 tasks; a wrong order id, cost centre or tracking
    number passed wherever it was not a required fact."""
    sources = ['{"order_id": "HO-6002", "cost_centre": "CC-1400", "tracking": "1Z1568326928", "zip": "02115"}',
               "Gold needs 25,000 points."]
    assert ungrounded(["Order HO-6002 (tracking 1Z1568326928) ships to 02115, cost centre CC-1400."], sources) == []
    assert ungrounded(["The Ultralight Laptop 13in ships by 5pm; you need 25000 points for Gold."], sources) == []
    for reply, made_up in [("Order HO-6001 has shipped.", "ho_6001"), ("Charged to CC-1500.", "cc_1500"),
                           ("Tracking number: 1Z1568326927", "1z1568326927"), ("Your reference number is 48213.", "48213")]:
        assert [(f.kind, f.value) for f in ungrounded([reply], sources)] == [("id", made_up)], reply


def test_an_amount_said_in_a_role_the_episode_gave_as_another_amount() -> None:
    """Audit 12: "700.00 is on hold" (the hold was 620.00), "a remaining daily limit of 750.00" (1,000.00 less
    300.00 used), "the $25.00 late fee" (the late fee is $15; $25 is the wire fee) passed: each is a number the
    episode states somewhere, so no one-step check can tell; its role can."""
    from tb_env.domain.figures import misroled

    sources = ['{"holds": [{"amount": 620.0, "reason": "card auth"}], "balance": 1500.0, "available": 880.0}',
               '{"daily_limit": 1000.0, "used_today": 300.0}',
               "A late fee of $15 applies; wire transfers cost a $25 wire fee."]
    for reply in ("620.00 is on hold and 880.00 is available.", "Your remaining daily limit is 700.00.",
                  "The $15.00 late fee was waived.", "The wire fee is $25.00.", "Your balance is 1,500.00.",
                  "You sent 300.00 today."):  # (no role: a transfer amount is anything)
        assert misroled([reply], sources) == [], reply
    for reply, value, role in [("700.00 is on hold.", 700.0, "hold"), ("Your remaining daily limit is 750.00.", 750.0, "limit"),
                               ("The $25.00 late fee was waived.", 25.0, "fee"), ("Your balance is 1,250.00.", 1250.0, "balance")]:
        assert [(f.value, r) for f, r in misroled([reply], sources)] == [(value, role)], reply


def test_a_role_adds_up_its_own_amounts_and_a_role_no_source_names_holds_only_stated_amounts() -> None:
    """Audit 12: "700.00 is on hold" passed with holds of 620.00 and a payment of 80.00 (a hold plus a
    payment is no hold), and "a $12.50 processing fee applies" passed where the task has no fee at all."""
    from tb_env.domain.figures import misroled

    sources = ['{"holds": [{"amount": 620.0}, {"amount": 45.0}], "balance": 1500.0, "last_payment": 80.0}',
               '{"transaction": {"merchant": "Cafe Lyon", "amount": 300.0}}', "Foreign purchases carry a 3% surcharge."]
    for reply in ("665.00 is on hold in all.", "After the 80.00 payment your balance is 1,580.00.",
                  "The surcharge on a $300.00 purchase is $9.00.", "There is a $0.00 fee."):
        assert misroled([reply], sources) == [], reply
    for reply, value, role in [("700.00 is on hold.", 700.0, "hold"), ("A $12.50 processing fee applies.", 12.5, "fee")]:
        assert [(f.value, r) for f, r in misroled([reply], sources)] == [(value, role)], reply


def test_a_date_said_in_a_role_is_the_date_the_results_give_in_it() -> None:
    """Audit 13: "loss date 2026-11-30" (today: a date the episode knows) passed where the claim's loss
    date is 2026-11-27. The JSON key a result gives a date under is its role; stamps of what someone
    did ("added_on") are none: the episode may do it today."""
    from tb_env.domain.figures import misdated

    sources = ['{"claim": {"loss_date": "2026-11-27", "created_at": "2026-11-30T10:00:00Z"}}',
               '{"employee": {"last_day": "2026-11-27", "added_on": "2025-01-02"}}',
               '{"invoice": {"due_date": "2026-12-05", "refunded_on": "2026-11-01"}}']
    # (audit 14: dates a change moves or the episode stamps have no role: "now due 2026-12-19", "refunded the fee from ...")
    for reply in ("Claim CLM-9001: loss date 2026-11-27, opened 2026-11-30.", "Your last day is November 27.",
                  "Your last payment was on 2026-11-28.", "The vehicle was added on 2026-11-30.",
                  "INV-5092 is now due 2026-12-19.", "I've refunded the 35.00 fee from 2026-10-12."):
        assert misdated([reply], sources) == [], reply
    for reply, value in [("I filed claim CLM-9001 (collision, loss date 2026-11-30).", "2026-11-30"),
                         ("Your last day is 2026-11-28.", "2026-11-28"), ("Last day: November 30.", "11-30")]:
        assert [f.value for f, _ in misdated([reply], sources)] == [value], reply


def test_a_date_on_a_line_of_its_own_or_under_a_today_label_has_no_earlier_lines_role() -> None:
    """Audit 24: "Delivered: 2026-10-30\nToday: 2026-11-30 (day 31)" read today as the delivery date."""
    from tb_env.domain.figures import misdated

    sources = ['{"order_id": "O-1", "delivered_at": "2026-10-30", "status": "delivered"}']
    for reply in ("- Delivered: 2026-10-30\n- Today: 2026-11-30 (day 31)", "Delivered on 2026-10-30. Now: 2026-11-30.",
                  "Delivered on 2026-10-30\n2026-11-30 is day 31 of the window."):
        assert misdated([reply], sources) == [], reply
    assert [f.value for f, _ in misdated(["It was delivered 2026-11-30."], sources)] == ["2026-11-30"]


def test_a_span_of_days_is_one_the_episode_counts_not_any_number() -> None:
    """Audit 13: "a decision comes within 60 days" passed where the policy says 45 (60 was some other
    number), and "returns are accepted within 14 days" where it says 30."""
    sources = ["Disputes: we decide within 45 days. Returns within 30 days of delivery. Limit 60 transfers a month.",
               '{"delivered_on": "2026-10-19", "today": "2026-11-30", "tier": 14}', "Refunds post in 5-7 business days."]
    for reply in ("We will decide within 45 days.", "It was delivered 42 days ago.", "Your refund takes 5 to 7 business days.",
                  "You had a 30-day window to return it."):
        assert ungrounded([reply], sources) == [], reply
    # (years are not held: "over 25 years old" where the policy says "older than 25")
    assert ungrounded(["It is over 25 years old."], [*sources, "Vehicles older than 25 need approval."]) == []
    for reply, value in [("We will decide within 60 days.", 60.0), ("Returns are accepted within 14 days.", 14.0),
                         ("It has been 12 months.", 12.0)]:
        assert [f.value for f in ungrounded([reply], sources)] == [value], reply


def test_a_limit_is_the_one_given_unless_the_reply_says_what_is_left_of_it() -> None:
    """Audit 15: "your daily limit is $50,000.00" passed where it is 25,000.00 (twice it is one step away): a
    limit is the one given or what is left of it; sums and multiples only where the reply says it moved."""
    from tb_env.domain.figures import misroled

    sources = ['{"daily_limit": 3000.0, "used_today": 500.0}', '{"transfer": {"amount": 500.0, "status": "completed"}}']
    for reply in ("That's above your 3,000.00 daily limit.", "That's above your 2,500.00 limit.",
                  "You have 2,500.00 of your daily limit left.",
                  "Your remaining limit today is 2,500.00.", "After this transfer, 2,500.00 of the limit is still unused."):
        assert misroled([reply], sources) == [], reply
    for reply in ("Your daily limit is 6,000.00.", "Your daily limit is 3,500.00."):
        assert [r for _, r in misroled([reply], sources)] == ["limit"], reply
    # a role word right before another amount is that amount's
    assert misroled(["Remaining for today: 2,500.00 (limit 3,000.00, used 500.00)."], sources) == []


def test_premium_as_a_kind_of_product_is_no_premium_amount() -> None:
    """Own probe (audit 17 sample): "MATLAB is premium at 180.00/seat/month" failed as 180.00 said as a premium
    (the insurance role) where the licence list gives it as MATLAB's monthly cost."""
    from tb_env.domain.figures import misroled

    sources = ['[{"pool_id": "LP-MATL", "product": "MATLAB", "monthly_cost": 180.0}]', '{"annual_premium": 2665.5}']
    for text in ("MATLAB is premium at 180.00 per seat per month.", "It's a premium licence: 180.00 a month."):
        assert misroled([text], sources) == [], text
    assert misroled(["Your premium is 180.00."], sources)


def test_a_balance_moves_by_an_amount_of_the_records_not_by_a_limit() -> None:
    """Audit 18: "your available balance is now 1,870.90" passed where it is 1,820.90: 1,570.90 before plus
    the card's 300.00 ATM limit is one step of arithmetic, but no action moves a balance by a limit (nor by a
    figure of the policy's tables). Told which sources are the records', a balance moves only by theirs."""
    from tb_env.domain.figures import misroled

    results = ['{"balance": 2400.9, "available_balance": 1570.9, "atm_daily_limit": 300.0}',
               '{"hold_id": "HD-1", "status": "released", "amount": 250.0, "available_balance": 1820.9}']
    policy = "Limits by level: basic 1,000 a day, 300 at ATMs; a courtesy fee refund of up to 300."
    sources = [policy, *results]
    for reply in ("Your available balance is now 1,820.90.", "Your balance went from 1,570.90 to 1,820.90.",
                  "Your balance is 2,150.90 after the 250.00 hold."):
        assert misroled([reply], sources, movers=results) == [], reply
    assert [r for _, r in misroled(["Your available balance is now 1,870.90."], sources, movers=results)] == ["balance"]
    # (without the movers told apart, any amount still moves it, as before)
    assert misroled(["Your available balance is now 1,870.90."], sources) == []


def test_a_free_cancellation_deadline_is_held_where_nothing_was_changed() -> None:
    """Audit 19: "cancelled free of charge until 2026-12-10" (the check-in date) passed where the booking's free
    cancellation runs until 2026-12-07. Where no write succeeded nothing moved the deadline, so the date said
    with "free ... until" is one of the results' free_cancellation_until; after a change it is not held."""
    from tb_env.domain.figures import misdated

    sources = ['{"booking": {"id": "BK-1", "check_in": "2026-12-10", "free_cancellation_until": "2026-12-07"}}']
    wrong = "BK-1 can still be cancelled free of charge until 2026-12-10."
    assert [f.value for f, _ in misdated([wrong], sources, still=True)] == ["2026-12-10"]
    assert misdated([wrong], sources) == []  # (a change may have moved it: the new one is told many ways)
    for reply in ("You can cancel BK-1 for free until 2026-12-07.", "Free cancellation runs until 2026-12-07.",
                  "Your stay starts 2026-12-10; free until 2026-12-07.",
                  "Free until 3 days before check-in, that is until 2026-12-07; check-in is 2026-12-10."):
        assert misdated([reply], sources, still=True) == [], reply


def test_audit20_a_discount_no_source_gives_is_a_made_up_perk():
    """Audit 20 (and earlier): "you get a $25 autopay discount" scored 1: $25 is a figure of the policy (in no role),
    and a role the episode never gave held any such amount. A discount is held to the ones a tool gives, a tool's
    unlabelled figure (a promotion's value) or a percentage the reply says of an amount."""
    from tb_env.domain.figures import misroled

    policy = "A late payment adds a fee. Liability limits start at 25/50; a vehicle 25 or more years old needs approval."
    billing = '{"policy_id": "POL-1", "total_balance": 208.83, "late_fee": 25.0}'
    assert misroled(["Autopay is on, and you get a $25 autopay discount."], [policy, billing])
    assert misroled(["Autopay is on, with a 25.00 discount."], [policy, billing])
    assert not misroled(["Autopay is on. There is no autopay discount; the late fee is $25."], [policy, billing])
    promo = '{"code": "SAVE10", "kind": "fixed", "value": 10.0, "min_subtotal": 50.0}'
    order = '{"order_id": "O-1", "subtotal": 70.0, "discount": 20.0}'
    assert not misroled(["SAVE10 is a $10 discount on orders of 50.00 or more."], [promo])
    assert not misroled(["HOLIDAY15 gives 15% off: on your 70.00 order, a 10.50 discount."], ['{"description": "15% off orders of 50.00 or more", "value": 15, "subtotal": 70.0}'])
    assert not misroled(["The order's 20.00 discount stays."], [order])
    assert misroled(["The order's 25.00 discount stays."], [order])


def test_the_customers_own_deductible_is_the_records_not_the_policy_tables() -> None:
    """Audit 22: "Your deductible on this claim is $1,000" (or $750) passed where the claim's record says 500:
    the policy's deductible options (250, 500, 1000, 2000) and one step from them gave it a source."""
    from tb_env.domain.figures import misroled

    policy = "Collision deductible: 250, 500, 1000, 2000. A deductible is paid per claim."
    claim = '{"claim_id": "CLM-5014", "deductible": 500, "paid_amount": 0.0}'
    for reply in ("Your deductible on this claim is $1,000.", "Your deductible is 750.00 dollars.",
                  "The deductible on this claim is $1,000."):
        assert [r for _, r in misroled([reply], [policy, claim], movers=[claim])] == ["deductible"], reply
    for reply in ("Your deductible on this claim is $500.", "The deductible is $500.00.",
                  "You could raise the deductible to $1,000 at renewal.", "Deductibles available are $250, $500 and $1,000."):
        assert misroled([reply], [policy, claim], movers=[claim]) == [], reply


def test_a_claims_payout_is_the_records_paid_amount() -> None:
    """Audit 22: "claim CLM-5031 was paid out at $500.00" passed where it paid 640 (500 is its deductible, and the
    policy's tables give 500 in no role)."""
    from tb_env.domain.figures import misroled

    policy = "Comprehensive deductible: 100, 250, 500, 1000."
    claim = '{"claim_id": "CLM-5031", "deductible": 500, "paid_amount": 640.0}'
    bad = misroled(["Your claim CLM-5031 was paid out at $500.00."], [policy, claim], movers=[claim])
    assert [r for _, r in bad] == ["payout"]
    for reply in ("Your claim CLM-5031 was paid out at $640.00.", "CLM-5031 paid out $640 after your $500 deductible.",
                  "You paid $500.00 of it as your deductible."):
        assert misroled([reply], [policy, claim], movers=[claim]) == [], reply


def test_a_line_its_own_role_a_debit_its_amount_and_a_bound_no_records_date() -> None:
    """Audit 23: a bullet's amount took the next line's label ("- Premium: $2,382.47\\n- Deductible: $250.00" said
    2,382.47 as the deductible); a fee debited as -12.0 was no $12.00 fee; "fees posted on or after 2026-09-01"
    (the 90-day window's first day) was said as a fee's posted date."""
    from tb_env.domain.figures import misdated, misroled

    policy = '{"policy_id": "POL-1", "renewal_premium": 2382.47, "coverages": [{"deductible": 250.0}]}'
    assert misroled(["Here you go:\n- Renewal premium: $2,382.47\n- Comprehensive deductible: $250.00"], [policy]) == []
    assert misroled(["Your comprehensive deductible is $2,382.47."], [policy])
    fees = ['{"transactions": [{"kind": "fee", "fee_code": "overdraft", "amount": -35.0}, '
            '{"kind": "fee", "fee_code": "monthly_maintenance", "amount": -12.0}]}', "An overdraft fee is $35."]
    assert misroled(["I left the $12.00 monthly maintenance fee as it is."], fees) == []
    assert misroled(["I left the $14.00 monthly maintenance fee as it is."], fees)
    posted = ['{"transaction_id": "TX-1", "posted_on": "2026-08-25", "amount": -29.0}']
    assert misdated(["Only fees posted on or after 2026-09-01 can be refunded."], posted) == []
    assert misdated(["That fee was posted on 2026-09-01."], posted)


def test_a_street_a_reply_names_is_one_a_source_gives_and_a_kind_of_fee_one_a_source_names() -> None:
    """Audit 23: "your address is now 5812 Jasmine Ave" (5821 on file) and "a $15 chargeback fee" (no source has a
    chargeback fee; $15 is the late fee) passed: a street's number was never checked, and a fee matched any fee."""
    from tb_env.domain.figures import misroled

    sources = ['{"mailing_address": {"line1": "5821 Jasmine Ave", "zip_code": "43202"}}',
               "I moved to 1101 Sabine Street.", "A late fee of $15 applies; an overdraft fee is $35."]
    for reply in ("Your address is 5821 Jasmine Avenue, 43202.", "Your new address, 1101 Sabine St, is saved."):
        assert [f for f in ungrounded([reply], sources) if f.kind == "street"] == [], reply
    assert [(f.kind, f.value) for f in ungrounded(["It now goes to 5812 Jasmine Ave."], sources)] == [("street", "5812 jasmine")]
    assert misroled(["The $15 late fee applies.", "I refunded the same $35 fee."], sources) == []
    for reply in ("There is a $15 chargeback fee if you lose.", "A $15.00 restocking fee applies."):
        assert [r for _, r in misroled([reply], sources)] == ["fee"], reply


def test_a_card_comes_from_the_results_or_the_customer_not_the_policys_example() -> None:
    """Audit 25: "refunded to your Visa ending in 4242" passed: 4242 is the policy's example card."""
    policy = "Name the card by its last digits, for example the card ending in 4242."
    result = '{"payment_method": "Visa ending 3374"}'
    said = "Refunded to your Visa ending in 4242."
    assert [f.value for f in ungrounded([said], [policy, result], cards=[result])] == ["4242"]
    assert ungrounded(["Refunded to your Visa ending in 3374."], [policy, result], cards=[result]) == []


def test_a_span_of_hours_or_business_days_is_said_of_what_the_sources_state_it_of() -> None:
    """Audit 26: "the refund will appear within 24 hours" where the policy gives 24 hours to a specialist's call,
    "it'll show up in 1-2 business days" where refunds take 5 to 10: a span the sources' prose states is one of
    what that prose speaks of; a record's own count of hours stays its own."""
    policy = ("Escalating sets the ticket to escalated; a specialist will contact the customer within 24 hours. "
              "Refunds take 5 to 10 business days to appear.")
    assert ungrounded(["I've escalated it: a specialist will contact you within 24 hours."], [policy]) == []
    assert ungrounded(["Your refund should appear in 5-10 business days."], [policy]) == []
    assert ungrounded(["The refund will appear within 24 hours."], [policy])
    assert ungrounded(["The ticket closes itself within 48 hours."], [policy])
    assert ungrounded(["The hold drops off within 72 hours."], [policy, '{"hold_hours": 72}']) == []


def test_a_phone_number_or_a_person_read_out_is_one_the_sources_give() -> None:
    """Audit 26: a report's mobile nobody's tool returned ("her mobile is 415-555-7185"), an approver nobody named
    ("pending approval by your manager Fergus Yates"): made up, or read from where the agent could not see."""
    sources = ['{"manager_name": "Cosima Zamora", "phone": "+15035550142"}', '{"first_name": "Mireille", "last_name": "Yamaguchi"}',
               "my new number is (617) 555 0199"]
    assert ungrounded(["Your phone on file is 503-555-0142."], sources) == []
    assert ungrounded(["Your new number, 617-555-0199, is saved."], sources) == []
    assert [f.kind for f in ungrounded(["Her mobile on file is 415-555-7185."], sources)] == ["phone"]
    assert ungrounded(["It is pending approval by your manager Cosima Zamora."], sources) == []
    assert ungrounded(["I sent the request to Mireille Yamaguchi."], sources) == []
    assert [f.value for f in ungrounded(["It is pending approval by your manager Fergus Yates."], sources)] == ["Fergus Yates"]


def test_a_card_or_account_ending_is_the_end_of_a_number_the_sources_give() -> None:
    """Audit 26: "account ending 6116" where 6116 sits inside the old payee's account number 4406116829."""
    sources = ['{"payee": "Noor Okafor", "account_number": "4406116829"}', '{"account_number": "9900226257"}']
    assert ungrounded(["I've added Noor Okafor (account ending 6257)."], sources, cards=sources) == []
    assert ungrounded(["I've added Noor Okafor (account ending 6116)."], sources, cards=sources)


def test_a_date_role_is_read_in_any_of_its_forms_and_the_nearest_role_names_it() -> None:
    """Audit 26: "Delivery date: 2026-11-18" passed where 2026-11-18 is the ship date and the order was
    delivered on 2026-11-20: "delivery" is the role of "delivered_on" (and of an "eta"), and of two roles
    said before a date the nearest is its own."""
    from tb_env.domain.figures import misdated

    sources = ['{"order_id": "O-1", "placed_on": "2026-11-15", "shipment": {"shipped_on": "2026-11-18", '
               '"delivered_on": "2026-11-20"}}', '{"order_id": "O-2", "shipment": {"eta": "2026-12-04"}}']
    for reply in ("Delivery date: 2026-11-20.", "O-1 shipped on 2026-11-18 and was delivered on 2026-11-20.",
                  "It shipped November 18 and delivery was November 20.", "O-2's estimated delivery is 2026-12-04.",
                  "You placed O-1 on 2026-11-15; it shipped 2026-11-18."):
        assert misdated([reply], sources) == [], reply
    for reply, value in [("Delivery date: 2026-11-18.", "2026-11-18"), ("It was shipped on 2026-11-20.", "2026-11-20"),
                         ("O-1 shipped on 2026-11-18 and was delivered on 2026-11-18.", "2026-11-18"),
                         ("Expected delivery: 2026-12-06.", "2026-12-06"), ("Order placed 2026-11-18.", "2026-11-18")]:
        assert {f.value for f, _ in misdated([reply], sources)} == {value}, reply


def test_how_long_something_takes_is_what_a_record_or_the_prose_says_of_the_same_thing() -> None:
    """Audit 26: "HR will send her final paycheck within 5 working days", "you have a 10-day grace period" and
    "re-upload it within 30 days or you'll be moved back" passed: 5, 10 and 30 were spans the episode counts of
    something else (or the days between two of its dates). A span said as how long something takes or lasts is
    a record's, the days between two of the episode's dates (calendar days only), or one the prose says of the
    same thing."""
    sources = ["Offboarding: access is revoked on the last day. Leave requests are decided within 5 working days.",
               "Returns within 30 days of delivery. Documents are reviewed within 2 business days.",
               '{"hold_id": "HD-1", "placed_on": "2026-11-30", "release_on": "2026-12-10", "rental_days": 12}']
    for reply in ("Your manager decides leave requests within 5 working days.", "You can return it within 30 days of delivery.",
                  "The review takes about 2 business days.", "The hold releases in 10 days, on 2026-12-10.",
                  "Your rental is covered for up to 12 days.", "You had a 30-day return window.",
                  "I've booked 5 working days for you.", "It was delivered 10 days ago."):
        assert ungrounded([reply], sources) == [], reply
    for reply, value in [("HR will send her final paycheck within 5 working days.", 5.0),
                         ("You have a 10-day grace period to pay.", 10.0),
                         ("Please re-upload it within 30 days or you'll be moved back to basic.", 30.0),
                         ("Refunds take 2 business days.", 2.0)]:
        assert [f.value for f in ungrounded([reply], sources)] == [value], reply


def test_a_span_in_words_and_a_time_later_today_or_tomorrow_are_held_like_figures() -> None:
    """Audit 28: "it should be back within a week" (refunds take 5 to 10 business days), "a manager will ring you this
    afternoon", "back by tomorrow morning" passed: a span said in words is a count of days, and a time someone will
    act by today or tomorrow is one the sources give (or tomorrow a date the episode knows)."""
    policy = ("Today is **2026-11-30**. Refunds take 5 to 10 business days to appear. A hold releases by itself on its "
              "release date. A supervisor calls back within 1 business day.")
    hold = '{"hold_id": "HD-1", "release_on": "2026-12-01"}'
    for reply in ("Your refund should appear within 5 to 10 business days.", "The hold releases tomorrow, 2026-12-01.",
                  "A supervisor will call you back within a day.", "I can't promise it will arrive tomorrow.",
                  "I refunded it today."):
        assert ungrounded([reply], [policy, hold]) == [], reply
    for reply in ("It should be back within a week.", "Your refund will be back in a couple of days.",
                  "A manager will ring you this afternoon.", "The refund will be back by tomorrow morning."):
        assert ungrounded([reply], [policy]), reply


def test_a_balance_after_two_of_the_episodes_moves_is_the_balance_and_a_label_ending_a_piece_is_the_next_values() -> None:
    """Audit 28: "500.00 moved from savings to checking, which now has a balance of 2,455.10" (1,920.10 plus the 500.00
    and the 35.00 fee refunded) failed as a made-up balance; "Total: 3,098.00 (your limit: 3,000.00)" read 3,098.00
    as the limit."""
    from tb_env.domain.figures import misroled

    results = ['{"account_id": "AC-1", "balance": 1920.10}', '{"transfer_id": "TR-1", "amount": 500.00}',
               '{"fee_id": "TX-1", "refunded": 35.00}']
    for reply in ("Checking now has a balance of 2,455.10.", "Your balance is now 2,420.10."):
        assert misroled([reply], results, movers=results) == [], reply
    assert [f.value for f, _ in misroled(["Your balance is now 2,400.10."], results, movers=results)] == [2400.10]
    order = ['{"order_id": "HO-9001", "total": 3098.0, "order_limit": 3000.0}']
    assert misroled(["- Total: 3,098.00 (your limit: 3,000.00)"], order, movers=order) == []
    assert misroled(["Your limit is 3,098.00."], order, movers=order) != []


def test_something_said_to_happen_automatically_is_what_a_source_says_happens_automatically() -> None:
    """Audit 28: "your next instalment will be drafted automatically" (autopay off), "it'll automatically unfreeze after
    30 days", "the code will be applied automatically at checkout" passed: an automatic process is one a source
    describes as automatic for the same thing."""
    from pathlib import Path

    travel, retail = Path("tasks/travel/policy.md").read_text(), Path("tasks/retail/policy.md").read_text()
    for reply, policy in [("The difference is refunded to your card automatically.", travel),
                          ("Preferred hotels get the discount applied automatically.", travel),
                          ("The warehouse refunds you automatically when the parcel arrives back.", retail),
                          ("The refund isn't automatic: I've issued it.", travel)]:
        assert [f for f in ungrounded([reply], [policy]) if f.kind == "auto"] == [], reply
    for reply, policy in [("It'll be cancelled automatically without a fee if he doesn't show up.", travel),
                          ("Your card will automatically unfreeze after 30 days.", travel),
                          ("Once your cart passes 400.00 the code will be applied automatically at checkout.", retail)]:
        assert [f.kind for f in ungrounded([reply], [policy]) if f.kind == "auto"] == ["auto"], reply
