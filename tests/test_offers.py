"""Offers and facts from outside the episode (tb_env.domain.offers) and a figure given to the
wrong record of a kind (tb_env.domain.owners): both part of the `grounded` check."""

from __future__ import annotations

import json

import pytest

from tb_env.domain.offers import unfounded_offer
from tb_env.domain.owners import misattributed

POLICY = ("Licence seats unused for more than 90 days may be reclaimed. Shipments go with the carrier on the order. "
          "Never promise what a tool did not confirm.")
SHIPMENT = '{"order_id": "O-82002", "carrier": "UPS", "tracking_number": "1Z7222934233", "eta": "2026-12-08"}'
SOURCES = [POLICY, SHIPMENT, "Hi, can I get a seat of Figma? And is breakfast part of the rate?"]


@pytest.mark.parametrize("reply", [
    "Your order is on its way with UPS, tracking 1Z7222934233.",  # the carrier the record names
    "I'm afraid I can't make an exception to the 90-day rule.",  # an exception denied
    "Unfortunately I'm unable to transfer you to a supervisor, but the ticket is escalated.",
    "I can't set up temporary access while the request is open.",
    "Breakfast isn't part of this rate.",  # the customer asked about it
    "I understand the delay is frustrating, and I'm sorry.",
])
def test_founded_or_denied_offers_pass(reply: str) -> None:
    assert unfounded_offer([reply], SOURCES) is None


@pytest.mark.parametrize("reply, term", [
    ("Your order is on its way with FedEx.", "a carrier"),
    ("I can make a one-time exception and free a seat for you.", "an exception to the rules"),
    ("As an exception, I'll reclaim a seat unused for 60 days.", "an exception to the rules"),
    ("Let me transfer you to a supervisor now.", "a transfer to a person"),
    ("I'm connecting you with a specialist who can help.", "a transfer to a person"),
    ("In the meantime I've arranged temporary access for you.", "temporary access"),
    ("As a courtesy, I'll waive the fee.", "a courtesy"),
    ("Your room includes free parking.", "an amenity"),
    # (audit 24: each passed as a reply to a refusal)
    ("I can give you 15% off your next order instead.", "a discount"),
    ("We'll price-match that for you.", "a discount"),
    ("You'll get your 403.69 back, no questions asked.", "an unconditional promise"),
    ("Your points expire at the end of the year, so use them soon.", "an expiry"),
])
def test_unfounded_offers_fail(reply: str, term: str) -> None:
    found = unfounded_offer([reply], SOURCES)
    assert found is not None and found[0] == term


def test_a_discount_the_policy_offers_is_founded() -> None:
    policy = "Plus members get 10% off accessories. Reward points expire after 12 months."
    assert unfounded_offer(["As a Plus member you get 10 percent off this case."], [policy]) is None
    assert unfounded_offer(["Your points expire 12 months after you earn them."], [policy]) is None
    assert unfounded_offer(["I can't price match, I'm afraid."], [policy]) is None


def test_a_percentage_a_result_gives_founds_that_discount() -> None:
    hotel = '{"hotel": "Harbor & Vine", "discount_percent": 15}'
    assert unfounded_offer(["Harbor & Vine has a 15% discount for your company."], [hotel]) is None
    assert unfounded_offer(["Harbor & Vine has a 20% discount for your company."], [hotel]) is not None


def test_a_policy_that_grants_exceptions_founds_them() -> None:
    policy = "A supervisor may grant an exception for a first late payment."
    assert unfounded_offer(["I can make an exception this once."], [policy]) is None
    assert unfounded_offer(["I can make an exception this once."], [POLICY]) is not None


SEATS = json.dumps({"licence": "Figma Professional", "seats": [
    {"seat_id": "S-1", "holder": "Ana Lee", "holder_name": "Ana Lee", "unused_days": 150, "last_used": "2026-07-09"},
    {"seat_id": "S-2", "holder": "Bo Chen", "holder_name": "Bo Chen", "unused_days": 40, "last_used": "2026-10-27"},
]})
PLANS = json.dumps([{"plan_id": "PL-1", "name": "Team", "price": 12.0}, {"plan_id": "PL-2", "name": "Business", "price": 18.0}])


@pytest.mark.parametrize("reply", [
    "Seat S-1 (Ana Lee) has been unused for 150 days, since 2026-07-09, so I reclaimed it.",
    "Bo Chen's seat was last used on October 27, only 40 days ago; Ana Lee's 150 days.",  # each figure by its own
    "The Team plan is $12.00 a seat and the Business plan $18.00.",
    "150 days unused: that is seat S-1.",  # the name after the figure
    "The Business plan costs $6.00 more than Team.",  # a difference is no one's field
])
def test_each_record_with_its_own_figures_passes(reply: str) -> None:
    assert misattributed([reply], [SEATS, PLANS]) is None


@pytest.mark.parametrize("reply", [
    "Seat S-2 has been unused for 150 days, so it can be reclaimed.",
    "Bo Chen hasn't used the seat since 2026-07-09.",
    "The Team plan costs $18.00 per seat.",
    "Ana Lee last used it on October 27.",
])
def test_another_records_figure_fails(reply: str) -> None:
    assert misattributed([reply], [SEATS, PLANS]) is not None


def test_a_figure_that_is_itself_a_records_name_is_no_ones_figure() -> None:
    rooms = json.dumps([{"room_number": "1204", "floor": 12, "rate": 180.0}, {"room_number": "1510", "floor": 15, "rate": 210.0}])
    assert misattributed(["You're in 1204 now."], [rooms]) is None
    assert misattributed(["Room 1204 is $210.00 a night."], [rooms]) is not None


def test_one_record_read_then_changed_is_one_record() -> None:
    before = json.dumps({"booking_id": "BK-1", "hotel_name": "Lumen", "check_in": "2026-12-20", "nights": 2})
    after = json.dumps({"booking_id": "BK-1", "hotel_name": "Lumen", "check_in": "2026-12-22", "nights": 2})
    # (no sibling: a record's old and new values are the stale-value check's business, not this one's)
    assert misattributed(["BK-1 now checks in on 2026-12-20."], [before, after]) is None


def test_an_address_said_with_a_sibling_addresss_zip_is_misattributed() -> None:
    """Audit 26: "your work address, 1348 Maple Ave, Raleigh, NC 27601" where 27601 is the home address's zip: an
    address is named by its label or street, and its zip code is a value it has, not a name."""
    addresses = json.dumps({"customer_id": "C-1", "addresses": [
        {"id": "A-1", "label": "home", "line1": "22 Oak St", "city": "Raleigh", "zip_code": "27601", "is_default": True},
        {"id": "A-2", "label": "work", "line1": "1348 Maple Ave", "city": "Raleigh", "zip_code": "27609", "is_default": False}]})
    assert misattributed(["Order O-1 will now ship to your work address, 1348 Maple Ave, Raleigh, NC 27609."], [addresses]) is None
    assert misattributed(["It moves from your home address (22 Oak St, 27601) to work, 1348 Maple Ave, 27609."], [addresses]) is None
    assert misattributed(["Order O-1 will now ship to your work address, 1348 Maple Ave, Raleigh, NC 27601."], [addresses])


@pytest.mark.parametrize(("reply", "offered"), [
    ("It will land in Noor's account the same day, guaranteed.", True),
    ("I guarantee it will arrive on 2026-12-04.", True),
    ("I can't guarantee when the carrier delivers it.", False),
])
def test_a_guarantee_is_an_unconditional_promise(reply: str, offered: bool) -> None:
    assert (unfounded_offer([reply], ["Transfers to other banks take 1-3 business days."]) is not None) is offered
