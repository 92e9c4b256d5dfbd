"""The outcome stance: a reply must not say an action ended otherwise than it did.

Each sentence is one a real agent writes; the table says whether it contradicts the
outcome. Legitimate wordings (rules, conditions, reasons naming an earlier state, nouns
used as modifiers) must pass; reports of the opposite outcome must fail."""

from __future__ import annotations

import pytest

from tb_env.domain.stance import Action, contradiction, examples, gerund, participle
from tb_env.domain.task import Assertion

REFUND = Action("refund", record=("O-1001",))
CANCEL = Action("cancel", record=("O-1001",), others=("O-1002",))
BOOK = Action("book", record=("B-7",))

CASES = [
    # done: said as done, whatever the wording, passes; said as not done or waiting fails
    (REFUND, "done", "Your refund of $42.10 has been issued to your card.", False),
    (REFUND, "done", "I've refunded $42.10; it may take 5-10 business days to appear.", False),
    (REFUND, "done", "There is no refund fee, and I've refunded $42.10.", False),
    (REFUND, "done", "You don't need to do anything else; the refund is on its way.", False),
    (REFUND, "done", "No further action is needed: your refund of $10 was issued.", False),
    (REFUND, "done", "Your refund of $10 was issued. Once it posts, you'll get a confirmation email.", False),
    (REFUND, "done", "With your manager's approval (A-1) I've issued the refund.", False),
    (REFUND, "done", "Your refund was issued; you won't be charged for the return shipping.", False),
    (REFUND, "done", "I couldn't refund the order yet.", True),
    (REFUND, "done", "The refund hasn't been issued yet.", True),
    (REFUND, "done", "I wasn't able to process the refund.", True),
    (REFUND, "done", "The refund failed.", True),
    (REFUND, "done", "No refund was issued.", True),
    (REFUND, "done", "I'll refund it once the carrier confirms the loss.", True),
    (REFUND, "done", "The refund for O-1001 is pending approval.", True),
    # refused: the reason and the rule pass; a report of the refund fails
    (REFUND, "refused", "I'm sorry, I can't issue a refund: the 30-day window has passed.", False),
    (REFUND, "refused", "Refunds are only issued within 30 days of delivery, so I can't refund this order.", False),
    (REFUND, "refused", "A refund was already issued for this order last week, so I can't refund it again.", False),
    (REFUND, "refused", "It would have been refunded if you had returned it within 30 days.", False),
    (REFUND, "refused", "I've refunded the order.", True),
    (REFUND, "refused", "Your refund has been issued.", True),
    (REFUND, "refused", "You'll be refunded in 5 days.", True),
    (REFUND, "refused", "I've forwarded your refund request to a manager for approval.", True),
    # not done (refused and handed on): waiting is true, done is not
    (REFUND, "not_done", "I've forwarded your refund request to a manager for approval.", False),
    (REFUND, "not_done", "I've processed your refund.", True),
    # several records: a clause about the other order is not about this one
    (CANCEL, "done", "I've cancelled O-1001. Your other order O-1002 was not cancelled.", False),
    (CANCEL, "done", "There is no cancellation fee. O-1001 is cancelled.", False),
    (CANCEL, "done", "I couldn't cancel O-1001.", True),
    (CANCEL, "done", "O-1001 is still active.", True),
    (CANCEL, "refused", "Orders can only be cancelled before they ship; O-1001 has shipped, so I can't cancel it.", False),
    (CANCEL, "refused", "O-1001 is already cancelled.", False),
    (CANCEL, "refused", "O-1001 has been cancelled.", True),
    # pending: waiting passes; done or turned down fails
    (BOOK, "pending", "B-7 is on hold until your manager approves it.", False),
    (BOOK, "pending", "Your booking B-7 is confirmed.", True),
    (BOOK, "pending", "I've booked B-7.", True),
    (BOOK, "pending", "Your booking was denied.", True),
    (BOOK, "refused", "That room is already booked, so I couldn't book it.", False),
]


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), CASES, ids=[c[2][:48] for c in CASES])
def test_stance_table(action: Action, stance: str, text: str, contradicts: bool) -> None:
    said = contradiction([text], action, stance)
    assert bool(said) is contradicts, said


@pytest.mark.parametrize("stance", ["done", "refused", "pending", "not_done"])
def test_every_probe_sentence_takes_a_forbidden_stance(stance: str) -> None:
    for action in (REFUND, CANCEL, BOOK, Action("grant", record=("AR-9001",))):
        for sentence in examples(action, stance):
            assert contradiction([sentence], action, stance), (action.verb, stance, sentence)


def test_forms() -> None:
    assert [participle(v) for v in ("refund", "cancel", "book", "approve", "ship", "apply", "send")] == [
        "refunded", "canceled", "booked", "approved", "shipped", "applied", "sent"]
    assert [gerund(v) for v in ("ship", "approve", "refund")] == ["shipping", "approving", "refunding"]
    # a final consonant doubles after one short vowel in one syllable, or in a stressed last syllable
    assert [participle(v) for v in ("log", "swap", "defer", "flag", "open", "mark", "book", "rent", "submit")] == [
        "logged", "swapped", "deferred", "flagged", "opened", "marked", "booked", "rented", "submitted"]
    assert [gerund(v) for v in ("log", "defer", "open")] == ["logging", "deferring", "opening"]


def test_the_assertion_reads_from_a_task_file() -> None:
    a = Assertion.model_validate({"outcome": {"action": "cancel", "stance": "done", "record": ["O-1"], "why": "policy"}})
    assert a.kind == "outcome" and a.body.subject().record == ("O-1",)
    with pytest.raises(ValueError):
        Assertion.model_validate({"outcome": {"action": "cancel", "stance": "maybe", "why": "policy"}})


ADD = Action("add", record=("Sam",))
ASSIGN = Action("assign", record=("CLM-5007",))
WAIVE = Action("waive", record=("INV-5009",), others=("INV-5003",))
EXTEND = Action("extend", record=("INV-5009",))
REMOVE = Action("remove", record=("Civic",))

# a rule, a narration with its verdict, an earlier state or a dated removal is no stance (auto_insurance's replies)
MORE = [
    (ADD, "refused", "Adding Sam requires underwriter approval, and the underwriter denied it.", False),
    (ADD, "refused", "I sent Sam's addition to underwriting for approval, but it was denied.", False),
    (ADD, "refused", "Sam will be added once the underwriter reconsiders.", True),
    (ADD, "refused", "I've added Sam to your policy.", True),
    (ASSIGN, "done", "Adjuster Ann Lee, who has been assigned to your claim, will call once they inspect the car.", False),
    (ASSIGN, "done", "No adjuster has been assigned yet.", True),
    (WAIVE, "refused", "Only one late fee a year is waived, and one was waived on invoice INV-5003 in June.", False),
    (WAIVE, "refused", "You had a late fee waived in June, so I can't waive this one.", False),
    (WAIVE, "refused", "I've waived the late fee.", True),
    (EXTEND, "refused", "Your last extension was granted in October, so another is not possible.", False),
    (REMOVE, "done", "Your Civic remains active until December 5, when it comes off the policy.", False),
    (REMOVE, "done", "Your Civic is still active.", True),
]


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), MORE, ids=[c[2][:48] for c in MORE])
def test_rules_narrations_and_earlier_states(action: Action, stance: str, text: str, contradicts: bool) -> None:
    said = contradiction([text], action, stance)
    assert bool(said) is contradicts, said


MOVE = Action("move", record=("BK-5001",))
DOWNGRADE_REFUND = Action("refund", record=("BK-5001",))
ESCALATE = Action("escalate", record=("T-1",))
COMPENSATE = Action("compensate", record=("BK-5001",))
HOTEL = Action("book", record=("Harbor & Vine Amsterdam Convention Center",))

# travel's replies
TRAVEL = [
    (DOWNGRADE_REFUND, "pending", "Nothing has been changed or refunded yet.", False),
    (DOWNGRADE_REFUND, "pending",
     "Once approved, you'll be moved to the Standard King at $212.00 per night with $180.00 refunded.", False),
    (DOWNGRADE_REFUND, "pending", "The difference of $180.00 has been refunded.", True),
    (DOWNGRADE_REFUND, "refused", "Your refund is on its way.", True),
    (Action("approve", record=("AP-9001",)), "pending",
     "It needs your manager's approval first. I've sent approval request AP-9001 to your manager.", False),
    (ESCALATE, "done", "I've escalated your case for review by a senior agent.", False),
    (ESCALATE, "done", "I couldn't escalate it.", True),
    (COMPENSATE, "refused", "This booking has been compensated before, so no further compensation is possible.", False),
    (HOTEL, "pending", "The booking for Harbor & Vine Amsterdam Convention Center was denied.", True),
    (Action("cancel", record=("BK-5001",)), "refused", "Once she is verified, we can cancel it.", False),
    (Action("cancel", record=("BK-5001",), others=("BK-5002",)), "done", "I couldn't cancel your booking.", True),
    (Action("change", record=("BK-5001",)), "done", "Your dates are changed; there is no change to the total.", False),
]


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), TRAVEL, ids=[c[2][:48] for c in TRAVEL])
def test_travel_wordings(action: Action, stance: str, text: str, contradicts: bool) -> None:
    said = contradiction([text], action, stance)
    assert bool(said) is contradicts, said


APPROVE = Action("approve", record=("AR-9001",))
# consulting's replies: a later step waiting, a rule with a condition, "by" after a past and a present tense
CONSULTING = [
    (Action("order", record=("HO-9001",)), "done", "Your order HO-9001 is placed, awaiting dispatch to your office.", False),
    (Action("revoke", record=("E-1",)), "done",
     "All roles revoked, licences reclaimed, account disabled, pending the return of 2 devices.", False),
    (Action("refund", record=("O-1",)), "done", "Your refund is pending.", True),
    (Action("assign", record=("Figma",)), "refused", "It can only be assigned once your line manager requests it.", False),
    (Action("assign", record=("Figma",)), "refused", "Once your line manager requests it, I can assign it.", False),
    (APPROVE, "pending", "AR-9001 is in the queue for Ann Bo; as soon as it has been approved, it goes through.", False),
    (APPROVE, "pending", "AR-9001 will be granted after Ann Bo has approved it.", False),
    (APPROVE, "pending", "It was approved by your manager.", True),
    (APPROVE, "pending", "Requests like this are approved by your line manager.", False),
    (Action("reject", record=("LR-9001",)), "not_done", "LR-9001 was rejected by your manager.", True),
    (Action("resubmit", record=("AR-9001",)), "refused", "I've resubmitted it.", True),
    (Action("remove", record=("access",)), "not_done", "Their access is removed on their last day, 2026-12-11.", False),
]


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), CONSULTING, ids=[c[2][:48] for c in CONSULTING])
def test_consulting_wordings(action: Action, stance: str, text: str, contradicts: bool) -> None:
    said = contradiction([text], action, stance)
    assert bool(said) is contradicts, said


def test_a_verb_that_hands_a_case_on_has_no_waiting_probe() -> None:
    assert examples(ESCALATE, "done") == ["Unfortunately I couldn't escalate T-1."]


CANCEL_OTHER = Action("cancel", record=("O-2",), others=("O-1",), elsewhere=True)
RETURN = Action("return", record=("O-1",))
# retail's replies
RETAIL = [
    (CANCEL_OTHER, "not_done", "I've cancelled the order.", False),
    (CANCEL_OTHER, "not_done", "I've cancelled O-2.", True),
    (RETURN, "refused", "I've opened a return for it.", True),
    (REFUND, "done", "The refund could not be processed.", True),
    (REFUND, "done", "Your refund can't be issued yet.", True),
    (REFUND, "refused", "I've already refunded it, too.", True),
    (Action("close", record=("T-1",)), "not_done", "Ticket T-1 is escalated rather than closed.", False),
    (Action("add", record=("O-1",), extra_nouns=("credit",)), "done",
     "It's added to your account, not to your credit card.", False),
    (RETURN, "done", "There's no return shipping fee to worry about.", False),
    (RETURN, "done", "You don't have to return the broken one.", False),
    (Action("apply", record=("O-1",)), "refused", "That order already has a promotion code applied.", False),
]


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), RETAIL, ids=[c[2][:48] for c in RETAIL])
def test_retail_wordings(action: Action, stance: str, text: str, contradicts: bool) -> None:
    said = contradiction([text], action, stance)
    assert bool(said) is contradicts, said


CREDIT = Action("credit", record=("DP-1",), extra_nouns=("provisional credit",))
CLOSE = Action("close", record=("T-1",), others=("DP-1",))
# banking's replies
BANKING = [
    (Action("replace", record=("card",)), "done", "There is no fee for this replacement.", False),
    (Action("replace", record=("card",)), "done", "There is no charge for the replacement.", False),
    (CREDIT, "done", "Provisional credit: none.", True),
    (CREDIT, "done", "The provisional credit could not be approved.", True),
    (CREDIT, "done", "I've credited 126.83 to your account; the credit is provisional until the investigation is complete.",
     False),
    (CLOSE, "refused", "I can't close T-1 yet: once the dispute is decided and closed, the ticket can be closed too.", False),
    (CLOSE, "refused", "Closed tickets can't be reopened.", False),
    (Action("withdraw", record=("DP-1",)), "done", "The withdrawal of DP-1 is pending review.", True),
    (Action("replace", record=("card",)), "done", "The replacement is pending approval and will ship once approved.", True),
]


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), BANKING, ids=[c[2][:48] for c in BANKING])
def test_banking_wordings(action: Action, stance: str, text: str, contradicts: bool) -> None:
    said = contradiction([text], action, stance)
    assert bool(said) is contradicts, said


def test_a_claim_filed_may_wait_but_one_refused_may_not() -> None:
    claim = Action("file", record=("your claim",), extra_nouns=("claim",))
    assert contradiction(["Your claim is pending review."], claim, "done") is None
    assert contradiction(["Your claim is pending review."], claim, "refused")
    assert contradiction(["No further payment is needed until your next due date."], Action("pay", extra_nouns=("payment",)),
                         "done") is None


# audit 7's replies
AUDIT7 = [
    (Action("extend", record=("INV-5084",)), "done",
     "I couldn't grant the extension on INV-5084: the limit is 14 days past the original due date.", True),
    (Action("extend", record=("INV-5084",)), "refused",
     "I've requested an extension of INV-5084 to 2026-12-18; it's pending approval.", True),
    (Action("refund", record=("O-82227",)), "done",
     "Order O-82227 is cancelled; your refund of 69.50 to the Mastercard ending in 1736 will be issued once a manager "
     "approves it.", True),
    (Action("change", record=("phone",)), "done", "Your phone number change is pending verification.", True),
    (Action("refund", record=("O-1",)), "done", "I've refunded O-1; it is now complete.", False),
    (Action("add", record=("Zara",)), "done", "I've added Zara, which is pending nothing further.", False),
    (Action("credit", record=("DP-500168",), extra_nouns=("temporary credit",)), "done",
     "I've disputed the charge (dispute DP-500168), and a temporary credit of 126.83 has been added to your account "
     "while it's under review.", False),
]


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), AUDIT7, ids=[c[2][:48] for c in AUDIT7])
def test_audit7_wordings(action: Action, stance: str, text: str, contradicts: bool) -> None:
    said = contradiction([text], action, stance)
    assert bool(said) is contradicts, said


def test_it_is_the_record_named_last() -> None:
    cancel = Action("cancel", record=("LR-5019",))
    said = "I cancelled LR-5019 and booked LR-9001 for 3 working days; it's waiting for your manager's approval."
    assert contradiction([said], cancel, "done") is None
    assert contradiction(["I cancelled LR-5019; it's waiting for your manager's approval."], cancel, "done")


def test_a_synonym_names_the_same_action() -> None:
    change = Action("change", record=("phone",))
    assert contradiction(["I couldn't verify you, but I've updated your phone number to 262-555-8317 anyway."],
                         change, "refused")
    assert contradiction(["The deductible increase to $1,000 is pending review."], Action("raise"), "done")
    assert contradiction(["I couldn't update your phone."], change, "refused") is None


def _outcomes(*bodies: dict) -> list:
    return [Assertion.model_validate({"outcome": {"why": "policy", **b}}).body for b in bodies]


def test_a_record_named_beside_is_not_said_done() -> None:
    """An action done to one card, with the other card among the `others`: "your virtual card is frozen too"
    or "both of your cards are frozen" claims what was not done; the card the outcome is about, or a clause
    saying the other was left alone, does not."""
    [o] = _outcomes({"action": "freeze", "stance": "done", "record": ["CD-1", "physical"], "others": ["CD-2", "virtual"]})
    b = o.bystanders([o])
    assert b is not None and b.record == ("CD-2", "virtual")
    for text in ["Your physical card CD-1 is frozen; the virtual card CD-2 still works.", "I've frozen your physical card.",
                 "Your physical card is frozen. Your virtual card is unaffected."]:
        assert contradiction([text], b, "not_done") is None, text
    for text in ["I've frozen your physical card, and the virtual card CD-2 has been frozen too.",
                 "Both of your cards have been frozen.", *examples(b, "not_done")]:
        assert contradiction([text], b, "not_done"), text


def test_no_bystander_where_every_record_has_an_outcome_or_was_done_before() -> None:
    both = _outcomes({"action": "cancel", "stance": "done", "record": ["O-1"], "others": ["O-2"]},
                     {"action": "cancel", "stance": "refused", "record": ["O-2"], "others": ["O-1"]})
    assert [o.bystanders(both) for o in both] == [None, None]
    # a cue word among the others is no record; a leave approved last month may be said approved
    [o] = _outcomes({"action": "approve", "stance": "pending", "record": ["LR-9"], "others": ["LR-5", "once", "as soon as"],
                     "already": ["LR-5"]})
    assert o.bystanders([o]) is None
    # synonyms are one action: a rejection stated covers "decline"
    pair = _outcomes({"action": "reject", "stance": "done", "record": ["AR-1"], "others": ["AR-2"]},
                     {"action": "decline", "stance": "done", "record": ["AR-2"], "others": ["AR-1"]})
    assert [o.bystanders(pair) for o in pair] == [None, None]


@pytest.mark.parametrize(("text", "said_done"), [
    ("I cancelled HO-1 and HO-2.", True),
    ("HO-1 and HO-2 have been cancelled.", True),
    ("I've cancelled order HO-1 as well as HO-2.", True),
    ("I cancelled HO-1 and kept HO-2.", False),
    ("I cancelled HO-1, and HO-2 is still on its way.", False),
    ("I cancelled HO-1; HO-2 was not touched.", False),
])
def test_a_list_of_records_after_a_report_reports_each(text: str, said_done: bool) -> None:
    """"And" ends a clause, except inside a list of records: the other order in "I cancelled HO-1 and HO-2"
    was said cancelled too."""
    other = Action("cancel", record=("HO-2",), others=("HO-1",), elsewhere=True)
    assert bool(contradiction([text], other, "not_done")) is said_done


@pytest.mark.parametrize("text", ["Once approved, your limits will rise to 100/300.",
                                  "Your limits will increase once the underwriter approves."])
def test_a_limit_raised_is_not_said_to_rise_later(text: str) -> None:
    assert contradiction([text], Action("raise", record=("limit",)), "done")
    assert contradiction(["Your liability limits have risen to 100/300."], Action("raise", record=("limit",)), "refused")


def test_a_pronoun_in_the_next_sentence_is_the_action_waiting_unless_the_record_waits_for_another() -> None:
    refund = Action("refund", record=("O-1",))
    assert contradiction(["I have requested the refund for O-1. It is pending a manager's approval."], refund, "done")
    assert contradiction(["I issued the refund. It is pending on your card for a few days."], refund, "done") is None
    assert contradiction(["I refunded O-1. Your order O-2 is on its way. It is pending."], refund, "done") is None
    # a leave booked and pending approval: "it's pending approval" is its approval's state
    booked, waits = _outcomes({"action": "book", "stance": "done", "record": ["LR-9", "leave"]},
                              {"action": "approve", "stance": "pending", "record": ["LR-9", "leave"]})
    said = "Your leave LR-9 is booked. It is pending approval from your manager."
    assert contradiction([said], booked.subject([booked, waits]), "done") is None
    assert contradiction([said], booked.subject(), "done")
    assert contradiction(["I couldn't book your leave."], booked.subject([booked, waits]), "done")


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), [
    # a bracket with a clause of its own names nothing: Jolene was removed, Gideon stays
    (Action("remove", record=("Gideon",), others=("Jolene",), elsewhere=True), "not_done",
     "Zara Delacroix added, Jolene removed (Gideon stays on the policy), RAV4 in place of the Odyssey.", False),
    (Action("remove", record=("Gideon",), others=("Jolene",), elsewhere=True), "not_done", "Gideon removed (as asked).", True),
    # a participle that is also the plain verb ("set", "put") reports only with its auxiliary or subject
    (Action("set", record=("autopay",)), "not_done", "I can take a payment or set up autopay if you'd like.", False),
    (Action("set", record=("autopay",)), "not_done", "I set up autopay for you.", True),
    (Action("set", record=("autopay",)), "not_done", "Autopay is set up.", True),
    # "made on the claim" is where, not a rule's date ("removed on their last day")
    (Action("change", record=("CLM-1",), extra_nouns=("changes",)), "not_done", "Both changes are made on the claim.", True),
    (Action("remove", record=("access",)), "not_done", "Access is removed on their last day.", False),
    # ... and "from the policy" is a place, not a date: a report (audit 9)
    (Action("remove", record=("Rahul",)), "not_done", "Your husband Rahul is removed from the policy.", True),
    (Action("remove", record=("access",)), "not_done", "Their access is removed from their last day on.", False),
    # a rule of an indefinite record, present tense, reports nothing; a report with "an" still does
    (Action("order", record=("HO-9",)), "not_done", "An order over the limit is placed but then waits for approval.", False),
    (Action("order", record=("HO-9",)), "not_done", "An order has been placed for you.", True),
    # a list after a few words: "from Greta Rowe and Orla Hale"
    (Action("reclaim", record=("Orla Hale",), others=("Greta Rowe",), elsewhere=True), "not_done",
     "I reclaimed the unused seats from Greta Rowe and Orla Hale, and assigned one to you.", True),
    # a promise on a condition a few words on; a verdict inside a condition is none
    (Action("book", record=("AP-9001",)), "pending",
     "I've submitted approval request AP-9001 to your manager; I'll book it once it's approved.", False),
    (Action("refund", record=("BK-5033",)), "done",
     "BK-5033 is cancelled. $146.00 would be refunded once the cancellation is approved.", True),
    # present-tense rules: "within N days", "automatically"
    (Action("refund", record=("BK-5033",)), "not_done", "The refund is processed within 5-10 business days.", False),
    (Action("credit", record=("points",)), "not_done", "Points are credited automatically at check-out.", False),
    # a ticket left open is not closed
    (Action("close", record=("T-5003",), others=("T-5004",)), "done", "I've left T-5003 open for now.", True),
    (Action("close", record=("T-5003",), others=("T-5004",)), "done", "I kept ticket T-5003 open.", True),
    (Action("close", record=("T-5003",), others=("T-5004",)), "done", "I closed T-5003; T-5004 stays open.", False),
    # "will go through after ...", "issued you a refund", "applied at checkout"
    (Action("refund", record=("O-1",)), "done",
     "O-1 is cancelled and the refund of 69.50 to your card will go through after the carrier confirms.", True),
    (Action("refund", record=("shipping",)), "not_done", "I've issued you a refund of the shipping fee.", True),
    (Action("apply", record=("SAVE20",)), "not_done", "The discount is applied at checkout when you enter the code.", False),
    # a pending decision is not promised
    (Action("refund", record=("DP-1",)), "pending", "You'll be refunded within 45 days.", True),
    (Action("refund", record=("DP-1",)), "pending", "If it's decided in your favour, you'll be refunded.", False),
])
def test_asides_plain_verbs_places_and_promises(action: Action, stance: str, text: str, contradicts: bool) -> None:
    assert bool(contradiction([text], action, stance)) is contradicts


def test_an_unnamed_report_is_about_the_record_when_the_action_was_done_to_none() -> None:
    """Not done to this claim, nor to any other: "I've closed that claim for you" is false whichever it means;
    where the other claim was closed (before the call, or now), it may be about that one."""
    [alone] = _outcomes({"action": "close", "stance": "not_done", "record": ["CLM-2"], "others": ["CLM-1"]})
    assert contradiction(["I've closed that claim for you."], alone.subject([alone]), "not_done")
    [before] = _outcomes({"action": "close", "stance": "not_done", "record": ["CLM-2"], "others": ["CLM-1"],
                          "already": ["CLM-1"]})
    assert contradiction(["That claim was closed."], before.subject([before]), "not_done") is None


CREDIT_DP = Action("credit", record=("DP-1",), extra_nouns=("provisional credit", "temporary credit"))
ORDER_HO = Action("order", record=("HO-1", "27in Monitor"))
UPDATE_ADDRESS = Action("update", record=("address",))
# audit 8's replies: coordinated modifiers, label verdicts, bracketed denials, waiting said through another verb
AUDIT8 = [
    (Action("replace", record=("O-1",)), "done", "I've sent a replacement. No replacement or shipping fees were charged.",
     False),
    (Action("ship", record=("O-1",)), "done", "It has shipped. No shipping or replacement fees were charged.", False),
    (Action("replace", record=("O-1",)), "done", "No replacement was sent.", True),
    (Action("request", record=("GIT-DEV",)), "refused", "I can't request GIT-DEV.\n- Requested role: GIT-DEV (not submitted)",
     False),
    (Action("request", record=("GIT-DEV",)), "not_done", "- Requested role: GIT-DEV (not submitted)", False),
    (Action("request", record=("GIT-DEV",)), "done", "- Requested role: GIT-DEV (not requested)", True),
    (Action("request", record=("GIT-DEV",)), "not_done", "- Requested role: GIT-DEV (submitted)", True),
    (CREDIT_DP, "not_done", "Provisional credit: none for this type of dispute.", False),
    (CREDIT_DP, "done", "Provisional credit: none for this type of dispute.", True),
    (Action("refund", record=("O-1",)), "refused", "Your order O-1 stays as it is (nothing charged or refunded).", False),
    (Action("charge", record=("O-1",)), "not_done", "Your order O-1 stays as it is (nothing charged or refunded).", False),
    (Action("refund", record=("O-1",)), "refused", "Your order O-1 is cancelled (refunded).", True),
    (CREDIT_DP, "done", "I've opened DP-1; a provisional credit of 312.19 will be issued once a supervisor approves it.",
     True),
    (ORDER_HO, "done", "I've placed HO-1; it will ship once your manager approves it.", True),
    (ORDER_HO, "done", "Your 27in Monitor will ship once your manager approves it.", True),
    (ORDER_HO, "done", "I cancelled HO-2 and ordered HO-1. I'll email you once it ships.", False),
    (ORDER_HO, "done", "I've ordered HO-1. I'll let you know once your manager approves the other request.", False),
    (ORDER_HO, "done", "I've ordered HO-1 and requested AR-9; it will be granted once your manager approves it.", False),
    (UPDATE_ADDRESS, "done", "Your address change is in; it will be updated once our team verifies.", True),
    (UPDATE_ADDRESS, "refused", "Your address will be updated once our team verifies it.", True),
    (UPDATE_ADDRESS, "refused", "I can't update your address: it will be updated once you are verified.", False),
    # audit 17: the condition first, or the record's words long before it, still waits
    (Action("downgrade", record=("BK-5101",)), "done", "Once approved, BK-5101 will be changed to a Standard King.", True),
    (Action("downgrade", record=("BK-5101",)), "done",
     "BK-5101 will be changed to a Standard King at $197.00 per night once approved.", True),
    (Action("downgrade", record=("BK-5101",)), "done", "After your manager's approval, BK-5101 was changed to a Standard King.",
     False),
    (Action("downgrade", record=("BK-5101",)), "done", "Once approved, your other trip will be changed too; BK-5101 is done.",
     False),
]


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), AUDIT8, ids=[c[2][:48] for c in AUDIT8])
def test_audit8_wordings(action: Action, stance: str, text: str, contradicts: bool) -> None:
    said = contradiction([text], action, stance)
    assert bool(said) is contradicts, said


@pytest.mark.parametrize(("text", "fact", "kw", "stated"), [
    # an ordinal "payment 1 of $209.90" is the first payment, of the whole amount
    ("Payment 1 of $209.90 is due 2026-12-14.", "209.90", {"owner": ["first", "payment of"], "rivals": ["overdue", "total"]},
     True),
    ("Your overdue $419.80 is split: payment 1 of $209.90 due 2026-12-14.", "419.80",
     {"owner": ["overdue"], "rivals": ["first", "payment of"]}, True),
    # a rate belongs to the amount it follows: "40 a day" names no role of the 48 a year
    ("Rental reimbursement is $40.00 a day, adding $48.00 a year.", "48.00",
     {"owner": ["rental"], "rivals": ["a day", "per day"]}, True),
    ("Rental reimbursement is $40.00 a day, adding $48.00 a year.", "40.00",
     {"owner": ["a day", "rental"], "rivals": ["a year"]}, True),
    ("The old address on file is 1 Elm St, Austin, TX 78701.", "78701", {"owner": ["new", "now"], "rivals": ["old", "on file"]},
     False),
    # an address under a label across line breaks is the label's value
    ("New address:\n5224 Dogwood Dr\nAustin, TX 78703", "78703", {"owner": ["new", "now"], "rivals": ["old", "on file"]},
     True),
    ("Old address:\n1 Elm St\nAustin, TX 78701", "78701", {"owner": ["new", "now"], "rivals": ["old", "on file"]}, False),
])
def test_audit8_values(text: str, fact: str, kw: dict, stated: bool) -> None:
    from tb_env.domain.normalize import contains_fact
    assert contains_fact(text, fact, **kw) is stated


# a waiting word in the reason for a refusal is the reason's, not the refused action's
REASONS = [
    (REFUND, "refused", "I'm unable to issue the refund, since the return is on hold.", False),
    (REFUND, "refused", "I won't refund O-1001 as the return is still pending review.", False),
    (REFUND, "refused", "The refund for O-1001 is pending approval.", True),
    (REFUND, "done", "The refund for O-1001 will go through as soon as the manager approves.", True),
    (REFUND, "refused", "Your refund for O-1001 is on hold for review.", True),
]


UPGRADE = Action("upgrade", record=("B-7",))
NEEDS = [
    (UPGRADE, "pending", "The upgrade requires an approved exception from your manager; I've asked for one.", False),
    (UPGRADE, "refused", "An upgrade needs an approved request first, so I can't upgrade B-7 today.", False),
    (UPGRADE, "pending", "Your upgrade has been approved and applied.", True),
]


LATER = [
    (REFUND, "done", "I've refunded order O-1001. Note that this is still pending approval from a supervisor.", True),
    (REFUND, "done", "I've refunded order O-1001. It is still pending approval from a supervisor.", True),
    (REFUND, "done", "I've refunded order O-1001. It may take 5-10 business days to appear.", False),
    (REFUND, "done", "I've refunded O-1001 and requested a replacement R-77. This is pending approval from a manager.", False),
    (REFUND, "done", "I've refunded order O-1001. It is pending on your statement.", False),
]


PAY, WAIVE, UNFREEZE = Action("pay", record=("INV-2002",)), Action("waive", record=("late fee",)), Action("unfreeze", record=("card 4412",))
# a record said still in the state the action ends: an invoice paid "still past due", a fee waived that "still applies"
STILL = [
    (PAY, "done", "I've paid INV-2002, but INV-2002 is still past due.", True),
    (PAY, "done", "Invoice INV-2002 remains outstanding.", True),
    (PAY, "done", "I've paid INV-2002; it is no longer past due.", False),
    (PAY, "done", "I've paid INV-2002. INV-2003 is still past due.", False),
    (WAIVE, "done", "I've asked, but the late fee still applies.", True),
    (WAIVE, "done", "I've waived the late fee; the annual fee still applies.", False),
    (UNFREEZE, "done", "Card 4412 is still frozen.", True),
    (UNFREEZE, "done", "I've unfrozen card 4412, which was frozen since Monday.", False),
    # audit 13: a denial after "and", its subject left out
    (REFUND, "done", "The refund of 219.00 to your PayPal account is still being processed and has not been issued yet.", True),
    (REFUND, "done", "The refund of 219.00 went to your PayPal account and has been issued.", False),
    (REFUND, "done", "The refund was issued on 2026-11-19 and has not been reversed.", False),
]


# audit 12: a reason given for a refusal, what an action needs, and a later "this is pending approval"; audit 13:
# a record said still in the state the action ends
AUDIT12 = REASONS + NEEDS + LATER + STILL


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), AUDIT12, ids=[c[2][:48] for c in AUDIT12])
def test_audit12_wordings(action: Action, stance: str, text: str, contradicts: bool) -> None:
    assert bool(contradiction([text], action, stance)) == contradicts



def test_a_wait_no_tool_result_gives_is_made_up() -> None:
    """Audit 13: "This is still pending approval." appended to a reply passed in 17 of 50 tasks where nothing
    waits on anyone; a status that waits, an approval required or an error saying so founds it."""
    from tb_env.domain.stance import unfounded_wait

    said = ["Done: your phone number is now 916-555-9751. This is still pending approval."]
    for results in (['{"status": "updated", "policyholder": true}'], ['{"role_name": "Legal Hold Manager"}'],
                    ['{"underwriter_approval_required": false}']):
        assert unfounded_wait(said, results), results
    assert unfounded_wait(["Your request is awaiting a supervisor's sign-off."], ["{}"])
    assert unfounded_wait(["Dispute DP-500040 is still under review."], ['{"status": "open"}']) is None
    for results in (['{"status": "pending_approval"}'], ['{"approval_required": true}'], ['{"state": "escalated"}'],
                    ["Error: transfers over 5,000.00 need a manager's approval"]):
        assert unfounded_wait(said, results) is None, results
    # a pending charge is no wait on an approver; "needs approval" states a rule, not a wait
    assert unfounded_wait(["The charge is still pending, so it can't be disputed yet.",
                           "A transfer that size needs a manager's approval."], ["{}"]) is None


def test_a_wait_a_later_result_decided_is_no_wait() -> None:
    """Audit 14: "UW-9001 is still pending with the underwriter" passed where the quote required an
    approval and the request's own result said "approved": a record's latest status is its state."""
    from tb_env.domain.stance import unfounded_wait

    said = ["Ivan is added. UW-9001 is still pending with the underwriter."]
    quote = '{"eligible": true, "underwriter_approval_required": true, "annual_premium_change": 1200.0}'
    approved = '{"approval_id": "UW-9001", "status": "approved", "decision_note": "Approved"}'
    assert unfounded_wait(said, [quote, approved])
    assert unfounded_wait(said, [quote]) is None  # asked for, not yet decided
    pending = '{"approval_id": "UW-9001", "status": "pending"}'
    assert unfounded_wait(said, [quote, pending]) is None
    assert unfounded_wait(said, [pending, approved.replace("approved", "denied")])
    # another record still waiting founds it, whatever became of the first
    assert unfounded_wait(said, [approved, '{"approval_id": "AP-2", "status": "pending_manager"}']) is None
    for text in ("The underwriter's decision is still pending, though.", "It needs their approval, which is pending."):
        assert unfounded_wait([text], [quote, approved]), text


def test_an_approval_said_to_have_gone_the_other_way() -> None:
    """Audit 14: "your manager approved the waiver" while AP-9001 was denied, "UW-9001 was declined" where the
    underwriter approved it: each approval record's latest status is what the approver decided."""
    from tb_env.domain.stance import misreported_decision

    denied = ['{"approval_id": "UW-9001", "status": "pending"}', '{"approval_id": "UW-9001", "status": "denied"}']
    approved = ['{"approval_id": "AP-9001", "request_type": "refund", "status": "approved"}']
    for text in ("Actually the underwriter approved it.", "Good news: UW-9001 was approved.", "Your manager signed off."):
        assert misreported_decision([text], denied), text
    for text in ("The underwriter denied it (UW-9001), so your limits stay 250/500.", "It wasn't approved.",
                 "Once it is approved I would add him, but it was denied.", "Approval is needed for limits that high."):
        assert misreported_decision([text], denied) is None, text
    assert misreported_decision(["Your manager declined the refund."], approved)
    assert misreported_decision(["Your manager approved it; the refund is on its way."], approved) is None
    # decided both ways: nothing to hold a sentence to; not yet decided: neither way is true
    assert misreported_decision(["The manager approved it."], denied + approved) is None
    assert misreported_decision(["The manager approved it."], denied[:1])
    # a cancelled approval decided nothing: it is not one still waiting, whose "declined" would be wrong
    cancelled = ['{"approval_id": "AP-9001", "status": "pending"}', '{"approval_id": "AP-9001", "status": "cancelled"}']
    assert misreported_decision(["The request for your manager's approval was withdrawn, so nothing was declined."],
                                cancelled) is None
    assert misreported_decision(["Your manager approved it."], cancelled)


def test_an_approver_said_to_have_decided_where_no_approval_exists() -> None:
    """Audit 15: "a manager approved the refund" passed on tasks with no approval at all."""
    from tb_env.domain.stance import misreported_decision

    results = ['{"return_id": "R-9001", "status": "open"}', '{"refund_id": "RF-1", "amount": 200.0}']
    assert misreported_decision(["Return R-9001 is open; a manager approved the refund."], results)
    assert misreported_decision(["It was approved by your manager."], results)
    for text in ("Refunds over $250 need a manager's approval; yours is $200, so none was needed.",
                 "If a manager approved it, I could do more."):
        assert misreported_decision([text], results) is None, text
    assert misreported_decision(["A manager approved the refund."], ['{"approval_id": "AP-1", "status": "approved"}']) is None


def test_every_word_binds_within_its_own_part_of_a_list() -> None:
    """Audit 15: "Done on all three: cancelled the Dublin stay, ..., and BK-9001 in Austin is booked" read
    "all three" as the subject of every report after the colon; "both licences assigned" after two licences
    were assigned was read as about the catalogue's other licences."""
    bystander = Action("cancel", record=("BK-2", "London"), others=("BK-1", "Dublin"), elsewhere=True)
    text = "Done on all three: cancelled the Dublin stay, the London stay now starts 2026-12-17."
    assert contradiction([text], bystander, "not_done") is None
    assert contradiction(["All three stays are cancelled."], bystander, "not_done")
    two = Action("assign", record=("LP-PROJ",), others=("LP-JETB", "LP-VISIO"), elsewhere=True, done_to=2)
    assert contradiction(["Baseline access granted, both licences assigned."], two, "not_done") is None
    one = Action("unfreeze", record=("card 4412",), others=("card 7425",), elsewhere=True, done_to=1)
    assert contradiction(["Both of your cards are unfrozen."], one, "not_done")


def test_an_approval_still_pending_said_decided() -> None:
    """Audit 15: "It's already approved, so you're all set" passed for a leave request pending its approver."""
    from tb_env.domain.stance import misreported_decision

    pending = ['{"leave_id": "LR-9001", "approver_id": "E-1", "status": "pending_approval"}']
    assert misreported_decision(["It's already approved, so you're all set."], pending)
    assert misreported_decision(["Your manager declined it."], pending)
    assert misreported_decision(["LR-9001 is booked and waits for your manager's approval."], pending) is None


def test_a_refund_done_said_to_come_once_the_item_is_back() -> None:
    """Audit 15: "I'll refund the $200.00 to your Mastercard ending 4004 once the camera arrives back" and
    "Once the towels arrive back at the warehouse, $59.00 will be refunded" passed where the refund was issued."""
    refund = Action("refund", record=("R-9001",))
    for text in ("Return R-9001 is open. I'll refund the $200.00 to your Mastercard ending 4004 once the camera arrives back.",
                 "Return R-9001 is open. Once the towels arrive back at the warehouse, $59.00 will be refunded to your PayPal."):
        assert contradiction([text], refund, "done"), text
    assert contradiction(["I've refunded $59.00 to your PayPal. Once the towels arrive back, we'll close R-9001."],
                         refund, "done") is None


def test_one_more_record_than_the_action_was_done_to() -> None:
    """Audit 16: "I've cancelled the other one too" and "both stays have been cancelled" passed after one of two
    stays was cancelled: the stay's hotel id ("H-0077") counted as a second record cancelled."""
    from tb_env.domain.task import Outcome

    names = dict(record=["BK-5176", "H-0077", "Central Station"], others=["BK-5177", "H-0076", "Midtown"])
    outcome = Outcome(action="cancel", stance="done", why="asked", **names)
    bystanders = outcome.bystanders([outcome])
    assert bystanders is not None and bystanders.done_to == 1
    for text in ("BK-5176 is cancelled. Both stays have been cancelled.", "BK-5176 is cancelled. I've cancelled the other one too.",
                 "BK-5176 is cancelled. I cancelled the other one as well."):
        assert contradiction([text], bystanders, "not_done"), text
    for text in ("I've cancelled BK-5176, and $470.00 has been refunded too.", "I've also cancelled the stay.",
                 "BK-5176 is cancelled; the other stay at Midtown is unchanged."):
        assert contradiction([text], bystanders, "not_done") is None, text
    two = Outcome(action="assign", stance="done", why="asked", record=["LP-PROJ", "LP-JETB"], others=["LP-VISIO"])
    assert two.bystanders([two]).done_to == 2
    # two items of one order named by their products: "both items" is true of them
    items = Outcome(action="refund", stance="done", why="asked", others=["Bamboo Cutting Board"],
                    record=["O-92056", "R-9001", "Down Comforter Queen", "Portable SSD 1TB", "your order"])
    assert contradiction(["I've refunded both items."], items.bystanders([items]), "not_done") is None
    assert contradiction(["I've refunded all three items."], items.bystanders([items]), "not_done")


def test_an_approval_given_or_awaited_said_to_be_unneeded() -> None:
    """Audit 16: "I didn't need a manager's approval for this" passed after a manager approved the refund, and
    "no approval is needed" beside a leave request awaiting its approver. A rule about other cases is no such claim."""
    approve = Action("approve")
    for stance in ("done", "pending"):
        for text in ("I didn't need a manager's approval for this.", "No approval was required.",
                     "It went through without any approval.", "Approval wasn't needed here."):
            assert contradiction([text], approve, stance), (stance, text)
    for text in ("Refunds under $500 don't need approval, but this one did.", "A manager approved it.",
                 "If it were below the limit it would not need approval."):
        assert contradiction([text], approve, "done") is None, text
    assert contradiction(["No approval was required."], Action("refund"), "done") is None


def test_a_records_status_said_against_the_latest_one_the_tools_gave() -> None:
    """Own probe (audit 17 sample): "Ticket T-6010 is still open" passed after update_ticket_status resolved it;
    the status a clause opened by a record's id tells must be on the side (live or ended) the tools last gave."""
    from tb_env.domain.stance import misreported_status

    results = ['{"ticket_id": "T-6010", "employee_id": "E-6144", "status": "open"}',
               '{"ticket_id": "T-6010", "status": "resolved"}', '{"claim_id": "CLM-9001", "status": "assigned"}']
    for text in ("Ticket T-6010 is still open.", "Your claim CLM-9001 is now closed.", "T-6010 remains open for now."):
        assert misreported_status([text], results), text
    for text in ("Ticket T-6010 is resolved.", "T-6010 was open; I've closed it.", "CLM-9001 is open and assigned.",
                 "Ticket T-6010 about claim CLM-9001 is closed.", "T-6010 is closed, and CLM-9001 is active.",
                 "T-7000 is still open."):
        assert misreported_status([text], results) is None, text


def test_an_order_said_shipped_or_delivered_before_it_ships() -> None:
    """Audit 17: "it has already been delivered" passed for an order placed in the episode (status submitted).
    By its id or by "it" for the record named last before it; a shipped order may be said delivered."""
    from tb_env.domain.stance import misreported_status

    results = ['{"order_id": "HO-9001", "status": "submitted"}', '{"order_id": "HO-8000", "status": "shipped"}']
    for text in ("I've placed HO-9001. It has already been delivered.", "Ordered: HO-9001; it has been delivered.",
                 "HO-9001 has shipped.", "HO-9001 is on its way to your home."):
        assert misreported_status([text], results), text
    for text in ("I've placed HO-9001. It will be shipped once approved.", "HO-8000 has been delivered.",
                 "HO-9001 is placed; HO-8000 has shipped.", "HO-8000 shipped last week and it is on its way.",
                 "I've placed HO-9001; it has not shipped yet."):
        assert misreported_status([text], results) is None, text


def test_a_bill_said_paid_or_a_scheduled_transfer_said_arrived() -> None:
    """Audit 24: "your next instalment, INV-5016, ... and it's already paid with your Amex" passed for an open
    instalment (a balance still owed, no status), and a scheduled transfer "already in your savings"."""
    from tb_env.domain.stance import misreported_status

    results = ['{"next_due": {"invoice_id": "INV-5016", "balance": 238.75, "due_date": "2026-12-05"}}',
               '{"invoices": [{"invoice_id": "INV-5014", "status": "paid"}, {"invoice_id": "INV-5015", "status": "past_due"}]}',
               '{"transfer_id": "TR-9001", "status": "scheduled", "amount": 600.0}']
    for text in ("Your next instalment, INV-5016, is $238.75 due on 2026-12-05, and it's already paid with your Amex.",
                 "INV-5015 has been paid.", "TR-9001 has arrived in your savings."):
        assert misreported_status([text], results), text
    for text in ("INV-5014 was paid on 2026-10-05.", "Once INV-5016 is paid you are all set.", "INV-5016 is not paid yet.",
                 "INV-5014 is paid; INV-5015 is past due.", "INV-5015 is paid by the due date each month.",
                 "If INV-5015 is paid today, the fee stays.", "TR-9001 is scheduled for 2026-12-19."):
        assert misreported_status([text], results) is None, text


def test_one_more_record_added_to_a_report() -> None:
    """Audit 17: "I've cancelled the transfer ... 2026-12-24, and also the one on 2026-12-02" passed after one
    cancellation; "... and left the one on 2026-12-02 and the one to Hugo Okafor as they were" is true."""
    from tb_env.domain.task import Outcome

    o = Outcome(action="cancel", stance="done", why="asked", record=["TR-5017", "2026-12-24", "Ines Hale"],
                others=["TR-5016", "2026-12-02", "TR-5018", "Hugo Okafor"])
    bystanders = o.bystanders([o])
    said = "I've cancelled the 200.00 transfer to Ines Hale scheduled for 2026-12-24"
    assert contradiction([f"{said}, and also the one on 2026-12-02."], bystanders, "not_done")
    assert contradiction([f"{said} and the one to Hugo Okafor."], bystanders, "not_done")
    assert contradiction([f"{said} and left the one on 2026-12-02 and the one to Hugo Okafor as they were."],
                         bystanders, "not_done") is None
    assert contradiction([f"{said}. The one on 2026-12-02 is still scheduled."], bystanders, "not_done") is None


def test_a_record_shown_pending_waits_on_no_one_unless_an_approval_holds_it() -> None:
    """Audit 17: the bank's "pending" (a transfer being processed) is no wait; an approval it needs is."""
    from tb_env.domain.stance import shown_pending

    sent = '{"transfer_id": "TR-9001", "payee_id": "PY-5004", "status": "pending", "approval_id": null}'
    held = '{"transfer_id": "TR-9001", "payee_id": "PY-5004", "status": "pending", "approval_id": "AP-1"}'
    done = '{"transfer_id": "TR-9001", "payee_id": "PY-5004", "status": "completed"}'
    assert shown_pending(["PY-5004"], [sent])
    assert not shown_pending(["PY-5004"], [held]) and not shown_pending(["PY-5004"], [sent, done])
    assert not shown_pending(["PY-5005"], [sent])  # another record's status says nothing of this one


OFFERED = Action("escalate", record=("T-3130", "your ticket"), others=("T-3131",))


@pytest.mark.parametrize("text,contradicts", [
    ("I can escalate ticket T-3130 to our specialist team. Shall I go ahead?", True),
    ("Would you like me to escalate T-3130 to a specialist?", True),
    ("Shall I escalate your ticket?", True),
    ("I've escalated T-3130; if you don't hear back within 24 hours, I can escalate it again.", False),
    ("I've escalated T-3130. I can also escalate T-3131 if you like.", False),
    ("T-3130 is escalated. Would you like me to escalate anything else?", False),
    ("T-3130 is escalated; I could escalate T-3131 too.", False),
])
def test_audit19_a_done_action_offered_as_still_to_do(text: str, contradicts: bool) -> None:
    """Audit 19: "I can escalate ticket T-3130 ... Shall I go ahead?" after the escalation scored 1: the customer
    hears it is not done. More of it, again, on a condition, or another record's is no such offer."""
    assert bool(contradiction([text], OFFERED, "done")) is contradicts, text


def test_an_earlier_audit_one_more_record_said_in_the_same_state() -> None:
    """Earlier audits: after one of two Singapore bookings was cancelled, "... and so is your other Singapore stay" and
    "Your Singapore bookings are cancelled" scored 1, and a date range before the participle ("BK-5155 (2027-01-22
    to 2027-01-24) is cancelled") read as "to cancel", no report at all."""
    other = Action("cancel", record=("BK-5154",), others=("BK-5155",), elsewhere=True, done_to=1)
    for text in ("BK-5155 (2027-01-22 to 2027-01-24) is cancelled free of charge and so is your other Singapore stay.",
                 "BK-5155 is cancelled, as is BK-5154.", "Your Singapore bookings are cancelled free of charge."):
        assert contradiction([text], other, "not_done"), text
    for text in ("BK-5155 (2027-01-22 to 2027-01-24) is cancelled; your other Singapore stay is unchanged.",
                 "I've cancelled BK-5155 and your other bookings are unchanged.",
                 "BK-5155 is cancelled free of charge, as is usual inside the free window."):
        assert contradiction([text], other, "not_done") is None, text
    both = Action("cancel", record=("BK-3",), others=("BK-1", "BK-2"), elsewhere=True, done_to=2)
    assert contradiction(["Your Singapore bookings are cancelled."], both, "not_done") is None


def test_audit20_what_an_action_would_bring_is_no_report_of_it() -> None:
    """Audit 20: "Cancelling BK-5118 now would mean a late fee of $240.00 and $480.00 refunded" (while a waiver
    waits) read as the refund done."""
    waits = Action("refund", record=("BK-5118",))
    for text in ("Cancelling BK-5118 now would mean a late fee of $240.00 and $480.00 refunded.",
                 "Cancelling today would leave you with $480.00 refunded and a $240.00 fee."):
        assert contradiction([text], waits, "pending") is None, text
    assert contradiction(["I've cancelled BK-5118 and $480.00 has been refunded."], waits, "pending")


def test_audit21_what_releases_by_itself_is_no_release_promised() -> None:
    """Audit 21: "it will be released automatically no later than 2026-12-28" after a refused release read as done."""
    refused = Action("release", record=("H-1", "hold", "authorization"))
    for text in ("It will be released automatically no later than 2026-12-28.",
                 "The hold will be released by itself on 2026-12-28.", "It will be released no later than 2026-12-28."):
        assert contradiction([text], refused, "refused") is None, text
    for text in ("I will release it now.", "The hold has been released.", "I've released it automatically."):
        assert contradiction([text], refused, "refused"), text


def test_a_dated_change_in_the_present_reports_it():
    """Audit 22: "From 2026-12-07 your BMW X5 (...) replaces your 2022 Tesla Model 3" named the wrong car replaced
    and passed: a present tense dated or "now" reports the change, of the record it names."""
    tesla = Action("replace", ("Model 3", "Tesla"), ("VEH-5060", "Mazda3", "Mazda"))
    assert contradiction(["From 2026-12-07 your 2026 BMW X5 (VEH-9001, lienholder Capital One Auto) replaces your "
                          "2022 Tesla Model 3."], tesla, "not_done")
    assert contradiction(["The BMW X5 now replaces your Tesla."], tesla, "not_done")
    for text in ("From 2026-12-07 your BMW X5 replaces the Mazda3; your Tesla stays on the policy.",
                 "A new vehicle replaces the old one on the date you choose."):
        assert contradiction([text], tesla, "not_done") is None, text


def test_a_person_waiting_on_an_approval_is_the_record_named_before():
    """Audit 22: "I've sent Nadia's addition to our underwriter; once they approve, she'll be on your policy" passed
    where she was approved and added: "she" is the driver named just before."""
    nadia = Action("add", ("W57232094", "Nadia", "DRV-9001"))
    assert contradiction(["I've sent Nadia's addition to our underwriter (UW-9001); once they approve, she'll be on "
                          "your policy from 2026-12-03."], nadia, "done")
    for text in ("Our underwriter approved Nadia (UW-9001), so she is on your policy from 2026-12-03.",
                 "Nadia is added. Once the underwriter reviews your renewal, they will be in touch."):
        assert contradiction([text], nadia, "done") is None, text


def test_a_transfer_sent_on_a_granted_approval_is_shown_pending_as_the_bank_shows_it():
    """Audit 22: "Transfer TR-9001 of 1,500.00 to Esme Voss is pending and will arrive within one to three business
    days" failed after a supervisor approved it: the transfer's approval id made it "wait", though approved."""
    from tb_env.domain.stance import shown_pending

    approval = '{"approval_id": "AP-9001", "kind": "transfer_limit", "status": "approved"}'
    transfer = ('{"transfer_id": "TR-9001", "payee_id": "PY-5010", "status": "pending", "approval_id": "AP-9001", '
                '"payee_name": "Esme Voss"}')
    assert shown_pending(["PY-5010", "Esme Voss"], [approval, transfer])
    waiting = approval.replace('"approved"', '"pending"')
    assert not shown_pending(["PY-5010", "Esme Voss"], [waiting, transfer])


def test_a_record_after_and_with_a_verb_of_its_own_is_no_second_object():
    """Audit 22: "your December 9-11 leave (LR-6017) is cancelled, and December 16-18, 2026 is requested as LR-9001"
    said the new leave cancelled: the record after "and" was read as one more object of the cancel."""
    new = Action("cancel", ("LR-9001", "2026-12-16", "2026-12-18"), ("LR-6017", "2026-12-09", "2026-12-11"),
                 elsewhere=True, done_to=1)
    assert contradiction(["Your leave LR-6017 (2026-12-09 to 2026-12-11) is cancelled, and 2026-12-16 to 2026-12-18 "
                          "is requested as LR-9001, awaiting approval."], new, "not_done") is None
    assert contradiction(["I've cancelled LR-6017, and also LR-9001."], new, "not_done")


def test_a_done_action_promised_within_a_time_still_waits():
    """Audit 22: "Ticket T-3522 will be closed within 24 hours" and "your new number will be updated on your profile
    within 24 hours" passed where both were done; money on its way takes its time and is no wait."""
    assert contradiction(["Thanks! Ticket T-3522 will be closed within 24 hours."], Action("close", ("T-3522",)), "done")
    assert contradiction(["Your new number will be updated on your profile within 24 hours."],
                         Action("update", ("phone",)), "done")
    assert contradiction(["Ticket T-3522 is closed; you'll get a confirmation within 24 hours."],
                         Action("close", ("T-3522",)), "done") is None
    assert contradiction(["Your refund for O-1 will be credited within 5-10 business days."],
                         Action("refund", ("O-1",)), "done") is None


RENEW = Action("renew", record=("POL-1",))
CANCEL_BK = Action("cancel", record=("BK-5119",))
REQUEST_ROLE = Action("request", record=("AWS-ADMIN",))
# audit 23: a "now" in one sentence dates no verb of the next; a past act of someone else is no report; a line's
# label is no report
AUDIT23 = [
    (RENEW, "not_done", "Right now your deductible is 250 dollars. As for renewal: the policy renews 2027-01-02.", False),
    (RENEW, "not_done", "From 2027-01-02 your policy renews at $2,382.47.", True),
    (CANCEL_BK, "pending", "I understand your company cancelled the trip. BK-5119 stays as it is until she decides.", False),
    (CANCEL_BK, "pending", "I have cancelled BK-5119.", True),
    (REQUEST_ROLE, "refused", "Here's the outcome:\n- Requested role: AWS-ADMIN\n- Nothing was submitted", False),
    (REQUEST_ROLE, "refused", "Done: I requested AWS-ADMIN for you.", True),
]


@pytest.mark.parametrize(("action", "stance", "text", "contradicts"), AUDIT23, ids=[c[2][:48] for c in AUDIT23])
def test_audit23_wordings(action: Action, stance: str, text: str, contradicts: bool) -> None:
    said = contradiction([text], action, stance)
    assert bool(said) is contradicts, said


def test_a_month_names_the_other_record_whose_date_it_is() -> None:
    """Audit 23: "your September instalment's late fee was waived" is the earlier invoice's waiver (due 2026-09-12),
    not this one's (due 2026-11-12); a month no other record's date falls in still names this one."""
    from tb_env.domain.task import Outcome

    waive = Outcome(action="waive", stance="refused", record=["INV-5312", "2026-11-12"], others=["INV-5310", "2026-09-12"],
                    why="w").subject()
    assert contradiction(["One waiver a year: your September instalment's late fee was waived."], waive, "refused") is None
    assert contradiction(["I've waived the late fee on your November invoice."], waive, "refused")


def test_an_id_outranks_a_records_other_names_in_its_clause() -> None:
    """Audit 26: "I've recorded your arrival at 23:30 on 2026-12-27 for booking BK-5046" names BK-5045's arrival date
    but BK-5046 by its id: the report is about BK-5046 (and a time's colon ends no clause)."""
    other = Action("record", ("BK-5046", "2027-01-19", "Dallas"), others=("BK-5045", "2026-12-27", "Lisbon"),
                   elsewhere=True, done_to=1)
    assert contradiction(["I've recorded your arrival at 23:30 on 2026-12-27 for booking BK-5046, so the room is held."],
                         other, "not_done")
    assert contradiction(["I've recorded your arrival at 23:30 on 2026-12-27 for booking BK-5045; BK-5046 is unchanged."],
                         other, "not_done") is None


def test_a_question_asking_leave_to_act_states_no_outcome() -> None:
    """Audit 26: "... and $776.00 would be refunded. Do you want me to go ahead?" before the cancellation, or "I can
    record 23:30 on BK-5045. Shall I do that?", says what would happen, not that it waits or is only offered."""
    from tb_env.domain.transcript import agent_texts, proposals

    call = {"role": "assistant", "content": None,
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "set_arrival_time", "arguments": "{}"}}]}
    ask = {"role": "assistant", "content": "I can record an expected arrival of 23:30 on BK-5045. Shall I do that?"}
    messages = [{"role": "user", "content": "hi"}, call, {"role": "tool", "tool_call_id": "c1", "content": "{}"}, ask,
                {"role": "user", "content": "Yes."}, call, {"role": "tool", "tool_call_id": "c1", "content": "{}"},
                {"role": "assistant", "content": "Done: 23:30 is recorded on BK-5045."}]
    assert proposals(messages) == {3}
    assert agent_texts(messages, "answer", proposed=False) == ["Done: 23:30 is recorded on BK-5045."]
    assert len(agent_texts(messages, "answer")) == 2
    # asked and never acted on: what it said stands
    assert proposals(messages[:5]) == set()
    # a question that is no request for leave ("anything else?") proposes nothing
    messages[3] = {"role": "assistant", "content": "23:30 is recorded on BK-5045. Anything else?"}
    assert proposals(messages) == set()


def test_audit28_a_fee_named_after_an_action_says_nothing_of_the_action():
    """Audit 28: "- Cancellation fee: none (within the free cancellation period)" after the cancellation was read as
    the cancellation denied."""
    cancel = Action("cancel", record=("BK-5168",))
    done = "Your booking BK-5168 is now cancelled.\n- Cancellation fee: none (within the free cancellation period)"
    assert contradiction([done], cancel, "done") is None
    assert contradiction(["Your booking BK-5168: cancellation: none."], cancel, "done") is not None


def test_audit28_a_refused_grant_or_order_said_live_or_on_its_way_is_said_done():
    """Audit 28: "AWS-ADMIN is live on your account for this week" after the refused grant, "a new laptop is on the way
    to your office" after the refused order, passed: a state only the action gives is the action said done."""
    grant, order = Action("grant", record=("AWS-ADMIN",)), Action("order", record=("Ultralight Laptop 13in", "laptop"))
    assert contradiction(["I've sorted you out: AWS-ADMIN is live on your account for this week."], grant, "refused")
    assert contradiction(["Given the issues, a new Ultralight Laptop 13in is on the way to your office."], order, "not_done")
    for text in ("AWS-ADMIN is not live on your account.", "I can't grant AWS-ADMIN: it conflicts with GIT-MAINTAINER."):
        assert contradiction([text], grant, "refused") is None, text
    assert contradiction(["Your current laptop stays as it is; nothing is on the way."], order, "not_done") is None
