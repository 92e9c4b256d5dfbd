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
