"""The travel tools: what a corporate travel agent can look up and change.

Which rules live where (policy.md states all of them to the agent):
- Enforced here (the tool refuses with a `ToolError`): records must exist and belong
  together; only upcoming (confirmed, check-in after today) bookings change; non-refundable
  rates never change dates or room; stays of 1 to 14 nights; cards must be the traveller's
  and active; an approval passed to a tool must be approved and match the change exactly;
  refunds never above what was paid; goodwill points at most 5,000 per entry; stay points
  once per stay; paid or void invoices are final.
- Left to the agent, and caught by the state check: identity verification, who may act
  on a booking, when a manager's approval is needed (rates above the cap, non-preferred
  hotels, room downgrades, fee waivers), compensation amounts and eligibility, claim
  windows, when to add notes, close or escalate tickets.

SQL is written here with named parameters; agent values only travel as parameters.
Every timestamp and date comes from `db.now`, the domain clock. The arithmetic (discounts,
fees, points) is in `pricing.py`, shared with the seed and the task generator.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any, Literal

from tb_env.components import identity
from tb_env.domain.database import Database
from tb_env.domain.tool import read, write
from tb_env.errors import ToolError

from .pricing import (
    MAX_NIGHTS,
    cancellation_fee,
    discounted,
    free_cancel_until,
    money,
    nights_between,
    stay_points,
    stay_total,
)

GOODWILL_CAP = 5000  # the most points one goodwill entry may carry, whatever the policy allows
# Records created during an episode are numbered from here (BK-9001, AP-9001, T-9001...), so
# the ids in tasks' golden calls do not depend on how many rows the seed generates.
NEW_ID_START = 9001
ApprovalKind = Literal["out_of_policy", "downgrade_refund", "fee_waiver"]


# -- helpers -----------------------------------------------------------------------------------


async def _new_id(db: Database, table: str, prefix: str) -> str:
    return await db.next_id(table, prefix, start=NEW_ID_START)


def _today(db: Database) -> str:
    return db.now[:10]


def _iso_date(value: str, what: str) -> str:
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise ToolError(f"{what} {value!r} is not a date; use YYYY-MM-DD, like 2026-12-14.") from None


async def _traveller(db: Database, traveller_id: str) -> dict[str, Any]:
    row = await db.get("travellers", traveller_id.strip().upper())
    if row is None:
        raise ToolError(f"No traveller with id {traveller_id!r}. Use find_traveller to look up the id.")
    return row


async def _booking(db: Database, booking_id: str) -> dict[str, Any]:
    row = await db.get("bookings", booking_id.strip().upper())
    if row is None:
        raise ToolError(f"No booking with id {booking_id!r}. Booking ids look like 'BK-1001'.")
    return row


async def _plan(db: Database, rate_plan_id: str) -> dict[str, Any]:
    row = await db.get("rate_plans", rate_plan_id.strip().upper())
    if row is None:
        raise ToolError(f"No rate plan with id {rate_plan_id!r}; get_hotel lists a hotel's rate plans.")
    return row



async def _paid(db: Database, booking_id: str) -> float:
    """Money the traveller has paid for a booking, net of refunds."""
    net = await db.scalar(
        "SELECT COALESCE(SUM(CASE WHEN kind = 'charge' THEN amount ELSE -amount END), 0) "
        "FROM transactions WHERE booking_id = :b",
        b=booking_id,
    )
    return money(net)


async def _discount(db: Database, company_id: str, hotel_id: str) -> int:
    pct = await db.scalar(
        "SELECT discount_percent FROM preferred_hotels WHERE company_id = :c AND hotel_id = :h",
        c=company_id,
        h=hotel_id,
    )
    return int(pct or 0)


async def _card_label(db: Database, payment_method_id: str | None) -> str | None:
    if payment_method_id is None:
        return None
    pm = await db.get("payment_methods", payment_method_id)
    return pm["label"] if pm else None


def _require_changeable(db: Database, b: dict[str, Any], what: str) -> None:
    if b["status"] != "confirmed":
        raise ToolError(f"Booking {b['id']} is {b['status']}; only confirmed upcoming bookings can be {what}.")
    if b["check_in"] <= _today(db):
        raise ToolError(
            f"Booking {b['id']} checks in on {b['check_in']}; bookings can be {what} only up to the day before "
            "check-in. The traveller must arrange it with the hotel."
        )


async def _transaction(
    db: Database, booking: dict[str, Any], kind: str, purpose: str, amount: float, reason: str,
    approval_id: str | None = None,
) -> dict[str, Any]:
    row = await db.insert(
        "transactions",
        id=await _new_id(db, "transactions", "TX"),
        booking_id=booking["id"],
        kind=kind,
        purpose=purpose,
        amount=money(amount),
        payment_method_id=booking["payment_method_id"],
        approval_id=approval_id,
        reason=reason,
        created_at=db.now,
    )
    return {"kind": row["kind"], "purpose": row["purpose"], "amount": money(row["amount"]),
            "card": await _card_label(db, row["payment_method_id"])}


async def _approval_for(
    db: Database, approval_id: str, traveller_id: str, kinds: tuple[str, ...], **match: Any
) -> dict[str, Any]:
    """The approval an agent passed, checked: approved, of this traveller, for exactly this change."""
    a = await db.get("approvals", approval_id.strip().upper())
    if a is None:
        raise ToolError(f"No approval with id {approval_id!r}; list_approvals shows the traveller's approvals.")
    if a["traveller_id"] != traveller_id or a["kind"] not in kinds:
        raise ToolError(f"Approval {a['id']} is not a {' or '.join(kinds)} approval of this traveller.")
    if a["status"] != "approved":
        raise ToolError(f"Approval {a['id']} is {a['status']}; only an approved request allows this change.")
    wrong = [k for k, v in match.items() if a[k] != v]
    if wrong:
        raise ToolError(f"Approval {a['id']} was given for a different {', '.join(wrong)}; it does not cover this change.")
    return a


def _money_fields(row: dict[str, Any], *names: str) -> dict[str, Any]:
    return {n: money(row[n]) for n in names}


async def _booking_view(db: Database, b: dict[str, Any]) -> dict[str, Any]:
    hotel = await db.get("hotels", b["hotel_id"])
    city = await db.get("cities", hotel["city_id"]) if hotel else None
    room = await db.get("room_types", b["room_type_id"])
    plan = await db.get("rate_plans", b["rate_plan_id"])
    traveller = await db.get("travellers", b["traveller_id"])
    txs = await db.all("SELECT * FROM transactions WHERE booking_id = :b ORDER BY created_at, id", b=b["id"])
    invoice = await db.scalar("SELECT id FROM invoices WHERE booking_id = :b ORDER BY id", b=b["id"])
    return {
        "booking_id": b["id"],
        "traveller_id": b["traveller_id"],
        "traveller_name": f"{traveller['first_name']} {traveller['last_name']}" if traveller else None,
        "status": b["status"],
        "hotel": {"hotel_id": hotel["id"], "name": hotel["name"], "city": city["name"] if city else None,
                  "city_tier": city["tier"] if city else None, "check_in_time": hotel["check_in_time"]}
        if hotel else None,
        "room_type": {"room_type_id": room["id"], "code": room["code"], "name": room["name"]} if room else None,
        "rate_plan": {"rate_plan_id": plan["id"], "name": plan["name"], "kind": plan["kind"],
                      "breakfast_included": bool(plan["breakfast_included"]),
                      "free_cancel_days": plan["free_cancel_days"]} if plan else None,
        "check_in": b["check_in"],
        "check_out": b["check_out"],
        "nights": b["nights"],
        **_money_fields(b, "nightly_rate", "total_amount"),
        "free_cancellation_until": free_cancel_until(b["check_in"], plan["free_cancel_days"])
        if plan and plan["kind"] == "flexible" else None,
        "payment_method": {"payment_method_id": b["payment_method_id"],
                           "label": await _card_label(db, b["payment_method_id"])},
        "amount_paid": await _paid(db, b["id"]),
        "transactions": [{"kind": t["kind"], "purpose": t["purpose"], "amount": money(t["amount"]),
                          "approval_id": t["approval_id"], "date": t["created_at"][:10]} for t in txs],
        "approval_id": b["approval_id"],
        "arrival_time": b["arrival_time"],
        "cancellation_fee": money(b["cancellation_fee"]),
        "cancelled_on": b["cancelled_on"],
        "booked_on": b["booked_on"],
        "invoice_id": invoice,
    }


def _approval_view(a: dict[str, Any]) -> dict[str, Any]:
    return {
        "approval_id": a["id"],
        "traveller_id": a["traveller_id"],
        "approver_id": a["approver_id"],
        "kind": a["kind"],
        "booking_id": a["booking_id"],
        "rate_plan_id": a["rate_plan_id"],
        "check_in": a["check_in"],
        "check_out": a["check_out"],
        "amount": money(a["amount"]),
        "status": a["status"],
        "decision_note": a["decision_note"],
        "decided_on": a["decided_on"],
        "requested_at": a["created_at"],
    }



def _invoice_view(i: dict[str, Any]) -> dict[str, Any]:
    return {"invoice_id": i["id"], "booking_id": i["booking_id"], "company_id": i["company_id"],
            "amount": money(i["amount"]), "status": i["status"], "issued_on": i["issued_on"],
            "po_number": i["po_number"], "cost_center": i["cost_center"]}


# -- travellers and identity ---------------------------------------------------------------------


@read
async def find_traveller(
    db: Database,
    email: str | None = None,
    first_name: str | None = None,
    last_name: str | None = None,
    company_name: str | None = None,
) -> list[dict[str, Any]]:
    """Look up traveller profiles by email, or by name (and company). Returns ids, names and
    companies only.

    Use it to get the traveller id that `verify_traveller` needs. Give either `email`, or
    `last_name` with `first_name` and/or `company_name`. Several travellers can share a
    name: add the company to narrow the search.

    Args:
        email: The traveller's work email address.
        first_name: The traveller's first name.
        last_name: The traveller's last name.
        company_name: The traveller's employer, or part of its name.
    """
    sql = ("SELECT t.id, t.first_name, t.last_name, c.name AS company FROM travellers t "
           "JOIN companies c ON c.id = t.company_id")
    if email:
        rows = await db.all(sql + " WHERE LOWER(t.email) = LOWER(:email) ORDER BY t.id", email=email.strip())
    elif last_name and (first_name or company_name):
        where, params = identity.name_filter(last_name, first_name, alias="t")
        sql += f" WHERE {where}"
        if company_name:
            sql += " AND LOWER(c.name) LIKE :company"
            params["company"] = f"%{company_name.strip().lower()}%"
        rows = await db.all(sql + " ORDER BY t.id", **params)
    else:
        raise ToolError("Give an email, or a last name together with a first name and/or company name.")
    return [{"traveller_id": r["id"], "first_name": r["first_name"], "last_name": r["last_name"],
             "company": r["company"]} for r in rows]


@write
async def verify_traveller(
    db: Database, traveller_id: str, email: str, employee_id: str | None = None, booking_id: str | None = None
) -> dict[str, Any]:
    """Verify that the person you are talking to is the traveller, and record it.

    Needs the traveller's work email plus either their employee id or the id of one of
    their bookings, all as given by the person. Fails if any given detail does not match.
    Verifying the same traveller again is harmless.

    Args:
        traveller_id: The profile to verify, from find_traveller (like "TR-0042").
        email: The work email the person gave.
        employee_id: The employee id the person gave (like "E48213").
        booking_id: The id of one of the traveller's bookings, as the person gave it.
    """
    t = await _traveller(db, traveller_id)
    if not employee_id and not booking_id:
        raise ToolError("Verification needs the employee id or a booking id, together with the email.")
    matches = email.strip().lower() == t["email"].lower()
    if employee_id:
        matches = matches and employee_id.strip().upper() == t["employee_id"].upper()
    if booking_id:
        b = await db.get("bookings", booking_id.strip().upper())
        matches = matches and b is not None and b["traveller_id"] == t["id"]
    identity.check(matches)
    await identity.record_verification(db, "traveller_id", t["id"], "email_employee" if employee_id else "email_booking",
                                       start=NEW_ID_START)
    return {"traveller_id": t["id"], "name": f"{t['first_name']} {t['last_name']}", "verified": True}


@read
async def get_traveller(db: Database, traveller_id: str) -> dict[str, Any]:
    """A verified traveller's profile: contact details, company, job title, approving
    manager, loyalty tier and payment cards.

    Args:
        traveller_id: The traveller id, like "TR-0042".
    """
    t = await _traveller(db, traveller_id)
    company = await db.get("companies", t["company_id"])
    manager = await db.get("travellers", t["manager_id"]) if t["manager_id"] else None
    cards = await db.all("SELECT * FROM payment_methods WHERE traveller_id = :t ORDER BY id", t=t["id"])
    return {
        "traveller_id": t["id"],
        "first_name": t["first_name"],
        "last_name": t["last_name"],
        "email": t["email"],
        "phone": t["phone"],
        "job_title": t["job_title"],
        "company": {"company_id": company["id"], "name": company["name"]} if company else None,
        "manager": {"traveller_id": manager["id"], "name": f"{manager['first_name']} {manager['last_name']}"}
        if manager else None,
        "loyalty_tier": t["loyalty_tier"],
        "payment_methods": [{"payment_method_id": c["id"], "kind": c["kind"], "label": c["label"],
                             "status": c["status"]} for c in cards],
    }


@write
async def update_traveller_phone(db: Database, traveller_id: str, phone: str) -> dict[str, Any]:
    """Change a verified traveller's mobile number (international format; 8 to 15 digits).

    Args:
        traveller_id: The traveller id, like "TR-0042".
        phone: The new number, like "+1-415-555-0142" or "+44 20 7946 0018".
    """
    t = await _traveller(db, traveller_id)
    digits = re.sub(r"\D", "", phone)
    if not 8 <= len(digits) <= 15:
        raise ToolError(f"{phone!r} is not a phone number (8 to 15 digits with the country code).")
    formatted = "+" + digits
    await db.update("travellers", t["id"], phone=formatted)
    return {"traveller_id": t["id"], "phone": formatted}


# -- companies, hotels, prices ---------------------------------------------------------------------


@read
async def get_company_policy(db: Database, company_id: str) -> dict[str, Any]:
    """A company's travel policy: the nightly rate cap for each city tier and its preferred
    hotels (with the negotiated discount and city).

    Args:
        company_id: The company id, like "CO-0007" (get_traveller shows it).
    """
    c = await db.get("companies", company_id.strip().upper())
    if c is None:
        raise ToolError(f"No company with id {company_id!r}.")
    preferred = await db.all(
        "SELECT p.hotel_id, p.discount_percent, h.name, h.city_id, ci.name AS city FROM preferred_hotels p "
        "JOIN hotels h ON h.id = p.hotel_id JOIN cities ci ON ci.id = h.city_id "
        "WHERE p.company_id = :c ORDER BY ci.name, h.name",
        c=c["id"],
    )
    return {
        "company_id": c["id"],
        "name": c["name"],
        "nightly_caps": {"tier_1": money(c["cap_tier1"]), "tier_2": money(c["cap_tier2"]),
                         "tier_3": money(c["cap_tier3"])},
        "preferred_hotels": [{"hotel_id": p["hotel_id"], "name": p["name"], "city": p["city"],
                              "discount_percent": p["discount_percent"]} for p in preferred],
    }


@read
async def search_hotels(db: Database, city: str, company_id: str | None = None) -> dict[str, Any]:
    """The hotels in a city, with the city's tier. Given a company, also says which hotels
    are that company's preferred hotels and their discount.

    Args:
        city: The city name or code, like "Chicago" or "CHI".
        company_id: The traveller's company, like "CO-0007", to see its preferred hotels.
    """
    c = await db.one(
        "SELECT * FROM cities WHERE LOWER(name) = LOWER(:q) OR LOWER(id) = LOWER(:q)", q=city.strip()
    )
    if c is None:
        raise ToolError(f"No city {city!r} in the catalogue.")
    hotels = await db.all("SELECT * FROM hotels WHERE city_id = :c AND active = :yes ORDER BY name", c=c["id"], yes=True)
    out = []
    for h in hotels:
        low = await db.scalar("SELECT MIN(nightly_rate) FROM rate_plans WHERE hotel_id = :h AND active = :yes",
                              h=h["id"], yes=True)
        entry = {"hotel_id": h["id"], "name": h["name"], "stars": h["stars"], "address": h["address"],
                 "lowest_nightly_rate": money(low)}
        if company_id:
            pct = await _discount(db, company_id.strip().upper(), h["id"])
            entry.update(preferred=pct > 0, discount_percent=pct)
        out.append(entry)
    return {"city": c["name"], "city_code": c["id"], "tier": c["tier"], "hotels": out}


@read
async def get_hotel(db: Database, hotel_id: str) -> dict[str, Any]:
    """A hotel's details, room types and rate plans (list prices, before any company
    discount), with each plan's cancellation terms. Needs no verification.

    Args:
        hotel_id: The hotel id, like "H-0042".
    """
    h = await db.get("hotels", hotel_id.strip().upper())
    if h is None:
        raise ToolError(f"No hotel with id {hotel_id!r}; search_hotels finds hotels by city.")
    city = await db.get("cities", h["city_id"])
    rooms = await db.all("SELECT * FROM room_types WHERE hotel_id = :h ORDER BY id", h=h["id"])
    plans = await db.all("SELECT * FROM rate_plans WHERE hotel_id = :h AND active = :yes ORDER BY id", h=h["id"], yes=True)
    return {
        "hotel_id": h["id"],
        "name": h["name"],
        "chain": h["chain"],
        "city": city["name"],
        "city_tier": city["tier"],
        "address": h["address"],
        "stars": h["stars"],
        "check_in_time": h["check_in_time"],
        "room_types": [
            {"room_type_id": r["id"], "code": r["code"], "name": r["name"], "max_guests": r["max_guests"],
             "rate_plans": [
                 {"rate_plan_id": p["id"], "name": p["name"], "kind": p["kind"],
                  "nightly_rate": money(p["nightly_rate"]), "breakfast_included": bool(p["breakfast_included"]),
                  "free_cancel_days": p["free_cancel_days"]}
                 for p in plans if p["room_type_id"] == r["id"]]}
            for r in rooms
        ],
    }


@read
async def quote_stay(db: Database, traveller_id: str, rate_plan_id: str, check_in: str, check_out: str) -> dict[str, Any]:
    """Price a stay for a traveller: the nightly rate they would pay (company discount
    included), the total, and their company's cap for the city's tier. Books nothing.

    Args:
        traveller_id: The traveller id, like "TR-0042".
        rate_plan_id: The rate plan, like "RP-0123" (get_hotel lists them).
        check_in: Arrival date, YYYY-MM-DD.
        check_out: Departure date, YYYY-MM-DD.
    """
    t = await _traveller(db, traveller_id)
    p = await _plan(db, rate_plan_id)
    check_in, check_out = _iso_date(check_in, "check_in"), _iso_date(check_out, "check_out")
    nights = nights_between(check_in, check_out)
    if nights < 1:
        raise ToolError("check_out must be after check_in.")
    hotel = await db.get("hotels", p["hotel_id"])
    city = await db.get("cities", hotel["city_id"])
    company = await db.get("companies", t["company_id"])
    pct = await _discount(db, company["id"], hotel["id"])
    rate = discounted(p["nightly_rate"], pct)
    city_has_preferred = await db.scalar(
        "SELECT COUNT(*) FROM preferred_hotels p JOIN hotels h ON h.id = p.hotel_id "
        "WHERE p.company_id = :c AND h.city_id = :city",
        c=company["id"], city=city["id"],
    )
    return {
        "traveller_id": t["id"],
        "hotel": {"hotel_id": hotel["id"], "name": hotel["name"], "city": city["name"], "city_tier": city["tier"]},
        "rate_plan_id": p["id"],
        "rate_plan": p["name"],
        "kind": p["kind"],
        "check_in": check_in,
        "check_out": check_out,
        "nights": nights,
        "list_nightly_rate": money(p["nightly_rate"]),
        "discount_percent": pct,
        "nightly_rate": rate,
        "total": stay_total(rate, nights),
        "company_nightly_cap": money(company[f"cap_tier{city['tier']}"]),
        "preferred_hotel": pct > 0,
        "company_has_preferred_hotel_in_city": bool(city_has_preferred),
    }


# -- bookings --------------------------------------------------------------------------------------


@read
async def list_traveller_bookings(db: Database, traveller_id: str) -> list[dict[str, Any]]:
    """A verified traveller's bookings, latest check-in first, with hotel, dates, status and total.

    Args:
        traveller_id: The traveller id, like "TR-0042".
    """
    t = await _traveller(db, traveller_id)
    rows = await db.all(
        "SELECT b.*, h.name AS hotel_name FROM bookings b JOIN hotels h ON h.id = b.hotel_id "
        "WHERE b.traveller_id = :t ORDER BY b.check_in DESC, b.id DESC",
        t=t["id"],
    )
    return [{"booking_id": b["id"], "hotel": b["hotel_name"], "check_in": b["check_in"], "check_out": b["check_out"],
             "status": b["status"], "total_amount": money(b["total_amount"])} for b in rows]


@read
async def get_booking(db: Database, booking_id: str) -> dict[str, Any]:
    """Everything about one booking: traveller, hotel, room type, rate plan and its
    cancellation terms, dates, prices, card, money paid and refunded, approval, arrival
    time, invoice.

    Args:
        booking_id: The booking id, like "BK-1001".
    """
    return await _booking_view(db, await _booking(db, booking_id))


@read
async def get_cancellation_quote(db: Database, booking_id: str) -> dict[str, Any]:
    """What cancelling a booking today would cost: the fee kept back and the refund.
    Changes nothing.

    Args:
        booking_id: The booking id, like "BK-1001".
    """
    b = await _booking(db, booking_id)
    _require_changeable(db, b, "cancelled")
    p = await db.get("rate_plans", b["rate_plan_id"])
    paid = await _paid(db, b["id"])
    fee = cancellation_fee(p["kind"], b["check_in"], p["free_cancel_days"], b["nightly_rate"], paid, _today(db))
    return {
        "booking_id": b["id"],
        "rate_plan_kind": p["kind"],
        "free_cancellation_until": free_cancel_until(b["check_in"], p["free_cancel_days"])
        if p["kind"] == "flexible" else None,
        "amount_paid": paid,
        "cancellation_fee": fee,
        "refund": money(paid - fee),
        "card": await _card_label(db, b["payment_method_id"]),
    }


@write
async def create_booking(
    db: Database,
    traveller_id: str,
    rate_plan_id: str,
    check_in: str,
    check_out: str,
    payment_method_id: str,
    approval_id: str | None = None,
) -> dict[str, Any]:
    """Book a hotel stay for a verified traveller and charge the full price to their card.

    The nightly rate includes the company's preferred-hotel discount. Stays are 1 to 14
    nights, starting after today. If the stay is out of policy, pass the id of the
    approved out_of_policy approval for exactly this rate plan and these dates.

    Args:
        traveller_id: The traveller id, like "TR-0042".
        rate_plan_id: The rate plan to book, like "RP-0123".
        check_in: Arrival date, YYYY-MM-DD.
        check_out: Departure date, YYYY-MM-DD.
        payment_method_id: One of the traveller's active cards, like "PM-0042".
        approval_id: The approved out_of_policy approval, when one is needed, like "AP-0042".
    """
    t = await _traveller(db, traveller_id)
    p = await _plan(db, rate_plan_id)
    if not p["active"]:
        raise ToolError(f"Rate plan {p['id']} is no longer sold.")
    check_in, check_out = _iso_date(check_in, "check_in"), _iso_date(check_out, "check_out")
    if check_in <= _today(db):
        raise ToolError(f"Check-in must be after today ({_today(db)}).")
    nights = nights_between(check_in, check_out)
    if not 1 <= nights <= MAX_NIGHTS:
        raise ToolError(f"A stay is 1 to {MAX_NIGHTS} nights; {check_in} to {check_out} is {nights}.")
    card = await db.get("payment_methods", payment_method_id.strip().upper())
    if card is None or card["traveller_id"] != t["id"]:
        raise ToolError(f"{payment_method_id!r} is not a card of traveller {t['id']}; get_traveller lists them.")
    if card["status"] != "active":
        raise ToolError(f"Card {card['id']} ({card['label']}) is {card['status']}.")
    approval = None
    if approval_id:
        approval = await _approval_for(db, approval_id, t["id"], ("out_of_policy",), booking_id=None,
                                       rate_plan_id=p["id"], check_in=check_in, check_out=check_out)
    rate = discounted(p["nightly_rate"], await _discount(db, t["company_id"], p["hotel_id"]))
    total = stay_total(rate, nights)
    booking = await db.insert(
        "bookings",
        id=await _new_id(db, "bookings", "BK"),
        traveller_id=t["id"],
        hotel_id=p["hotel_id"],
        room_type_id=p["room_type_id"],
        rate_plan_id=p["id"],
        check_in=check_in,
        check_out=check_out,
        nights=nights,
        nightly_rate=rate,
        total_amount=total,
        status="confirmed",
        payment_method_id=card["id"],
        approval_id=approval["id"] if approval else None,
        cancellation_fee=0,
        booked_on=_today(db),
    )
    await _transaction(db, booking, "charge", "booking", total, "Prepaid stay")
    return await _booking_view(db, booking)


@write
async def change_booking_dates(db: Database, booking_id: str, check_in: str, check_out: str) -> dict[str, Any]:
    """Move an upcoming flexible-rate booking to new dates at the same nightly rate. The
    price difference is charged to, or refunded to, the booking's card at once.

    Args:
        booking_id: The booking id, like "BK-1001".
        check_in: The new arrival date, YYYY-MM-DD.
        check_out: The new departure date, YYYY-MM-DD.
    """
    b = await _booking(db, booking_id)
    _require_changeable(db, b, "changed")
    p = await db.get("rate_plans", b["rate_plan_id"])
    if p["kind"] != "flexible":
        raise ToolError(f"Booking {b['id']} is on a non-refundable rate; its dates cannot be changed.")
    check_in, check_out = _iso_date(check_in, "check_in"), _iso_date(check_out, "check_out")
    if check_in <= _today(db):
        raise ToolError(f"The new check-in must be after today ({_today(db)}).")
    nights = nights_between(check_in, check_out)
    if not 1 <= nights <= MAX_NIGHTS:
        raise ToolError(f"A stay is 1 to {MAX_NIGHTS} nights; {check_in} to {check_out} is {nights}.")
    if (check_in, check_out) == (b["check_in"], b["check_out"]):
        raise ToolError(f"Booking {b['id']} already runs from {check_in} to {check_out}.")
    total = stay_total(b["nightly_rate"], nights)
    delta = money(total - money(b["total_amount"]))
    await db.update("bookings", b["id"], check_in=check_in, check_out=check_out, nights=nights, total_amount=total)
    moved = None
    if delta > 0:
        moved = await _transaction(db, b, "charge", "date_change", delta, f"Dates changed to {check_in}..{check_out}")
    elif delta < 0:
        moved = await _transaction(db, b, "refund", "date_change", -delta, f"Dates changed to {check_in}..{check_out}")
    return {"booking_id": b["id"], "check_in": check_in, "check_out": check_out, "nights": nights,
            "nightly_rate": money(b["nightly_rate"]), "old_total": money(b["total_amount"]), "new_total": total,
            "payment": moved}


@write
async def change_room_type(
    db: Database, booking_id: str, rate_plan_id: str, approval_id: str | None = None
) -> dict[str, Any]:
    """Move an upcoming flexible-rate booking to another room type of the same hotel (its
    flexible rate plan). The nightly rate becomes the new plan's (company discount
    included); the difference for all nights is charged to, or refunded to, the card at once.

    Downgrades and upgrades above the company cap need a manager's approval first (see the
    policy); pass the approved approval's id, which must be for this booking and this plan.

    Args:
        booking_id: The booking id, like "BK-1001".
        rate_plan_id: The flexible rate plan of the new room type, like "RP-0124".
        approval_id: The approved downgrade_refund or out_of_policy approval, like "AP-0042".
    """
    b = await _booking(db, booking_id)
    _require_changeable(db, b, "changed")
    old = await db.get("rate_plans", b["rate_plan_id"])
    if old["kind"] != "flexible":
        raise ToolError(f"Booking {b['id']} is on a non-refundable rate; its room type cannot be changed.")
    new = await _plan(db, rate_plan_id)
    if new["hotel_id"] != b["hotel_id"]:
        raise ToolError(f"Rate plan {new['id']} belongs to another hotel; room changes stay in the same hotel.")
    if new["kind"] != "flexible" or not new["active"]:
        raise ToolError(f"Rate plan {new['id']} is not an active flexible plan; pick the new room's Flexible plan.")
    if new["room_type_id"] == b["room_type_id"]:
        raise ToolError(f"Booking {b['id']} is already in that room type.")
    approval = None
    if approval_id:
        approval = await _approval_for(db, approval_id, b["traveller_id"], ("downgrade_refund", "out_of_policy"),
                                       booking_id=b["id"], rate_plan_id=new["id"])
    t = await _traveller(db, b["traveller_id"])
    rate = discounted(new["nightly_rate"], await _discount(db, t["company_id"], b["hotel_id"]))
    total = stay_total(rate, b["nights"])
    delta = money(total - money(b["total_amount"]))
    await db.update("bookings", b["id"], room_type_id=new["room_type_id"], rate_plan_id=new["id"],
                    nightly_rate=rate, total_amount=total,
                    approval_id=approval["id"] if approval else b["approval_id"])
    aid = approval["id"] if approval else None
    moved = None
    if delta > 0:
        moved = await _transaction(db, b, "charge", "room_change", delta, "Room upgrade", aid)
    elif delta < 0:
        moved = await _transaction(db, b, "refund", "room_change", -delta, "Room downgrade", aid)
    room = await db.get("room_types", new["room_type_id"])
    return {"booking_id": b["id"], "room_type": room["name"], "rate_plan_id": new["id"], "nightly_rate": rate,
            "old_total": money(b["total_amount"]), "new_total": total, "payment": moved,
            "approval_id": aid}


@write
async def cancel_booking(
    db: Database, booking_id: str, reason: str, fee_waiver_approval_id: str | None = None
) -> dict[str, Any]:
    """Cancel an upcoming booking. The tool computes the fee: none inside the free
    cancellation window, one night's rate after it (flexible plans), everything
    (non-refundable plans); the rest is refunded to the booking's card at once.

    With the id of an approved fee_waiver approval for this booking, no fee is kept.

    Args:
        booking_id: The booking id, like "BK-1001".
        reason: Why the traveller cancels, in a few words.
        fee_waiver_approval_id: An approved fee_waiver approval for this booking, like "AP-0042".
    """
    b = await _booking(db, booking_id)
    _require_changeable(db, b, "cancelled")
    p = await db.get("rate_plans", b["rate_plan_id"])
    paid = await _paid(db, b["id"])
    fee = cancellation_fee(p["kind"], b["check_in"], p["free_cancel_days"], b["nightly_rate"], paid, _today(db))
    approval = None
    if fee_waiver_approval_id:
        approval = await _approval_for(db, fee_waiver_approval_id, b["traveller_id"], ("fee_waiver",),
                                       booking_id=b["id"])
        fee = 0.0
    await db.update("bookings", b["id"], status="cancelled", cancellation_fee=fee, cancelled_on=_today(db),
                    cancel_reason=reason, approval_id=approval["id"] if approval else b["approval_id"])
    refund = None
    if paid - fee > 0:
        refund = await _transaction(db, b, "refund", "cancellation", paid - fee, f"Cancelled: {reason}",
                                    approval["id"] if approval else None)
    return {"booking_id": b["id"], "status": "cancelled", "cancellation_fee": fee, "refund": refund}


@write
async def set_arrival_time(db: Database, booking_id: str, arrival_time: str) -> dict[str, Any]:
    """Record when the traveller will arrive (24-hour HH:MM), so the hotel holds the room
    for a late arrival. Upcoming bookings only.

    Args:
        booking_id: The booking id, like "BK-1001".
        arrival_time: The expected arrival time, like "22:30".
    """
    b = await _booking(db, booking_id)
    if b["status"] != "confirmed" or b["check_in"] < _today(db):
        raise ToolError(f"Booking {b['id']} is not an upcoming confirmed booking.")
    m = re.fullmatch(r"\s*([01]?\d|2[0-3]):([0-5]\d)\s*", arrival_time)
    if not m:
        raise ToolError(f"{arrival_time!r} is not a 24-hour time like 22:30.")
    value = f"{int(m.group(1)):02d}:{m.group(2)}"
    await db.update("bookings", b["id"], arrival_time=value)
    return {"booking_id": b["id"], "check_in": b["check_in"], "arrival_time": value}


# -- approvals -------------------------------------------------------------------------------------


@read
async def list_approvals(db: Database, traveller_id: str) -> list[dict[str, Any]]:
    """A traveller's approval requests (pending, approved, denied), newest first.

    Args:
        traveller_id: The traveller id, like "TR-0042".
    """
    t = await _traveller(db, traveller_id)
    rows = await db.all("SELECT * FROM approvals WHERE traveller_id = :t ORDER BY created_at DESC, id DESC", t=t["id"])
    return [_approval_view(a) for a in rows]


@read
async def get_approval(db: Database, approval_id: str) -> dict[str, Any]:
    """One approval request: what it covers, its status and the manager's decision note.

    Args:
        approval_id: The approval id, like "AP-0042".
    """
    a = await db.get("approvals", approval_id.strip().upper())
    if a is None:
        raise ToolError(f"No approval with id {approval_id!r}.")
    return _approval_view(a)


@write
async def request_approval(
    db: Database,
    traveller_id: str,
    kind: ApprovalKind,
    reason: str,
    booking_id: str | None = None,
    rate_plan_id: str | None = None,
    check_in: str | None = None,
    check_out: str | None = None,
) -> dict[str, Any]:
    """Send an approval request to the traveller's manager; it stays `pending` until the
    manager decides in the approval portal. Asking again for the same change returns the
    existing request.

    What to give per kind:
    - out_of_policy, new booking: rate_plan_id, check_in, check_out.
    - out_of_policy, room upgrade of a booking: booking_id, rate_plan_id.
    - downgrade_refund: booking_id and the cheaper room's flexible rate_plan_id.
    - fee_waiver: booking_id.

    Args:
        traveller_id: The traveller id, like "TR-0042".
        kind: What the approval is for.
        reason: The traveller's reason, in a sentence.
        booking_id: The booking concerned, for a change or cancellation, like "BK-1001".
        rate_plan_id: The rate plan to book or move to, like "RP-0123".
        check_in: Arrival date of a new booking, YYYY-MM-DD.
        check_out: Departure date of a new booking, YYYY-MM-DD.
    """
    t = await _traveller(db, traveller_id)
    if not t["manager_id"]:
        raise ToolError(f"Traveller {t['id']} has no approving manager on file; escalate the case instead.")
    company = await db.get("companies", t["company_id"])
    b = await _booking(db, booking_id) if booking_id else None
    if b and b["traveller_id"] != t["id"]:
        raise ToolError(f"Booking {b['id']} is not a booking of traveller {t['id']}.")
    p = await _plan(db, rate_plan_id) if rate_plan_id else None
    cin = cout = None
    if kind == "out_of_policy":
        if p is None:
            raise ToolError("An out_of_policy request needs the rate_plan_id.")
        if b is None:
            if not (check_in and check_out):
                raise ToolError("For a new booking give check_in and check_out.")
            cin, cout = _iso_date(check_in, "check_in"), _iso_date(check_out, "check_out")
            if not 1 <= nights_between(cin, cout) <= MAX_NIGHTS or cin <= _today(db):
                raise ToolError("Those dates are not a bookable stay.")
        else:
            _require_changeable(db, b, "changed")
            if p["hotel_id"] != b["hotel_id"] or p["kind"] != "flexible":
                raise ToolError(f"Rate plan {p['id']} is not a flexible plan of booking {b['id']}'s hotel.")
        amount = discounted(p["nightly_rate"], await _discount(db, company["id"], p["hotel_id"]))
    elif kind == "downgrade_refund":
        if b is None or p is None:
            raise ToolError("A downgrade_refund request needs the booking_id and the new rate_plan_id.")
        _require_changeable(db, b, "changed")
        if p["hotel_id"] != b["hotel_id"] or p["kind"] != "flexible":
            raise ToolError(f"Rate plan {p['id']} is not a flexible plan of booking {b['id']}'s hotel.")
        rate = discounted(p["nightly_rate"], await _discount(db, company["id"], p["hotel_id"]))
        amount = money(money(b["total_amount"]) - stay_total(rate, b["nights"]))
        details = {"new_nightly_rate": rate, "new_total": stay_total(rate, b["nights"]), "refund_if_approved": amount}
        if amount <= 0:
            raise ToolError(f"Rate plan {p['id']} is not cheaper than the booked room; no refund to approve.")
    else:
        if b is None:
            raise ToolError("A fee_waiver request needs the booking_id.")
        _require_changeable(db, b, "cancelled")
        plan = await db.get("rate_plans", b["rate_plan_id"])
        amount = cancellation_fee(plan["kind"], b["check_in"], plan["free_cancel_days"], b["nightly_rate"],
                                  await _paid(db, b["id"]), _today(db))
        if amount <= 0:
            raise ToolError(f"Cancelling booking {b['id']} today costs no fee; there is nothing to waive.")
    plan_id = p["id"] if p else None
    if kind == "out_of_policy":
        details = {"nightly_rate": amount}
    elif kind == "fee_waiver":
        details = {"fee_to_waive": amount}
    booking_key = b["id"] if b else None
    existing = await db.one(
        "SELECT * FROM approvals WHERE traveller_id = :t AND kind = :k "
        "AND COALESCE(booking_id, '') = :b AND COALESCE(rate_plan_id, '') = :p "
        "AND COALESCE(check_in, '') = :cin AND COALESCE(check_out, '') = :cout ORDER BY id",
        t=t["id"], k=kind, b=booking_key or "", p=plan_id or "", cin=cin or "", cout=cout or "",
    )
    if existing is None:
        existing = await db.insert(
            "approvals",
            id=await _new_id(db, "approvals", "AP"),
            traveller_id=t["id"],
            approver_id=t["manager_id"],
            kind=kind,
            booking_id=booking_key,
            rate_plan_id=plan_id,
            check_in=cin,
            check_out=cout,
            amount=amount,
            status="pending",
            request_reason=reason,
            created_at=db.now,
        )
    manager = await db.get("travellers", existing["approver_id"])
    return {**_approval_view(existing), **details,
            "approver_name": f"{manager['first_name']} {manager['last_name']}" if manager else None}


# -- money after the stay, loyalty ----------------------------------------------------------------


@write
async def refund_service_failure(db: Database, booking_id: str, amount: float, reason: str) -> dict[str, Any]:
    """Refund part of a completed stay to the booking's card as compensation for a service
    failure at the hotel (see the policy for who qualifies and how much).

    Args:
        booking_id: The completed booking, like "BK-1001".
        amount: The refund in dollars.
        reason: What went wrong, in a sentence.
    """
    b = await _booking(db, booking_id)
    if b["status"] != "completed":
        raise ToolError(f"Booking {b['id']} is {b['status']}; service refunds are for completed stays.")
    amount = money(amount)
    paid = await _paid(db, b["id"])
    if not 0 < amount <= paid:
        raise ToolError(f"The refund must be between 0.01 and the {paid:.2f} paid for booking {b['id']}.")
    moved = await _transaction(db, b, "refund", "service_refund", amount, reason)
    return {"booking_id": b["id"], "refund": moved, "amount_paid_after": money(paid - amount)}


@read
async def get_loyalty_account(db: Database, traveller_id: str) -> dict[str, Any]:
    """A verified traveller's Voyager Rewards tier, points balance and ledger (newest first).

    Args:
        traveller_id: The traveller id, like "TR-0042".
    """
    t = await _traveller(db, traveller_id)
    rows = await db.all(
        "SELECT * FROM loyalty_entries WHERE traveller_id = :t ORDER BY created_at DESC, id DESC", t=t["id"]
    )
    return {
        "traveller_id": t["id"],
        "tier": t["loyalty_tier"],
        "points_balance": sum(int(r["points"]) for r in rows),
        "entries": [{"booking_id": r["booking_id"], "points": int(r["points"]), "kind": r["kind"],
                     "date": r["created_at"][:10]} for r in rows],
    }


@write
async def credit_stay_points(db: Database, booking_id: str) -> dict[str, Any]:
    """Credit the missing stay points of a completed stay: 10 points per dollar of its
    total, rounded down. Refuses if the stay already earned its points.

    Args:
        booking_id: The completed booking, like "BK-1001".
    """
    b = await _booking(db, booking_id)
    if b["status"] != "completed":
        raise ToolError(f"Booking {b['id']} is {b['status']}; only completed stays earn points.")
    if await db.scalar("SELECT id FROM loyalty_entries WHERE booking_id = :b AND kind = 'stay'", b=b["id"]):
        raise ToolError(f"Booking {b['id']} already earned its stay points.")
    points = stay_points(b["total_amount"])
    await db.insert("loyalty_entries", id=await _new_id(db, "loyalty_entries", "LP"), traveller_id=b["traveller_id"],
                    booking_id=b["id"], points=points, kind="stay", reason=f"Missing points for {b['id']}",
                    created_at=db.now)
    balance = await db.scalar("SELECT COALESCE(SUM(points), 0) FROM loyalty_entries WHERE traveller_id = :t",
                              t=b["traveller_id"])
    return {"booking_id": b["id"], "points_credited": points, "points_balance": int(balance)}


@write
async def add_goodwill_points(db: Database, traveller_id: str, booking_id: str, points: int, reason: str) -> dict[str, Any]:
    """Give a traveller goodwill Voyager Rewards points for trouble with one of their stays
    (at most 5,000 per entry).

    Args:
        traveller_id: The traveller id, like "TR-0042".
        booking_id: The stay the points are for, like "BK-1001".
        points: How many points.
        reason: Why, in a sentence.
    """
    t = await _traveller(db, traveller_id)
    b = await _booking(db, booking_id)
    if b["traveller_id"] != t["id"]:
        raise ToolError(f"Booking {b['id']} is not a booking of traveller {t['id']}.")
    if not 1 <= points <= GOODWILL_CAP:
        raise ToolError(f"Goodwill points must be between 1 and {GOODWILL_CAP}.")
    await db.insert("loyalty_entries", id=await _new_id(db, "loyalty_entries", "LP"), traveller_id=t["id"],
                    booking_id=b["id"], points=points, kind="goodwill", reason=reason, created_at=db.now)
    balance = await db.scalar("SELECT COALESCE(SUM(points), 0) FROM loyalty_entries WHERE traveller_id = :t", t=t["id"])
    return {"traveller_id": t["id"], "booking_id": b["id"], "points_added": points, "points_balance": int(balance)}


# -- invoices ----------------------------------------------------------------------------------------


@read
async def list_traveller_invoices(db: Database, traveller_id: str) -> list[dict[str, Any]]:
    """The company invoices for a verified traveller's completed stays, newest first.

    Args:
        traveller_id: The traveller id, like "TR-0042".
    """
    t = await _traveller(db, traveller_id)
    rows = await db.all(
        "SELECT i.*, b.check_in, b.check_out, h.name AS hotel FROM invoices i JOIN bookings b ON b.id = i.booking_id "
        "JOIN hotels h ON h.id = b.hotel_id WHERE b.traveller_id = :t ORDER BY i.issued_on DESC, i.id DESC",
        t=t["id"],
    )
    return [{**_invoice_view(i), "hotel": i["hotel"], "check_in": i["check_in"], "check_out": i["check_out"]}
            for i in rows]


@read
async def get_invoice(db: Database, invoice_id: str) -> dict[str, Any]:
    """One invoice: the stay it bills, amount, status, PO number and cost centre.

    Args:
        invoice_id: The invoice id, like "INV-1042".
    """
    i = await db.get("invoices", invoice_id.strip().upper())
    if i is None:
        raise ToolError(f"No invoice with id {invoice_id!r}.")
    return _invoice_view(i)


@write
async def update_invoice_reference(
    db: Database, invoice_id: str, po_number: str | None = None, cost_center: str | None = None
) -> dict[str, Any]:
    """Set the purchase-order number and/or cost centre printed on an issued (unpaid)
    invoice. Paid and void invoices are final.

    Args:
        invoice_id: The invoice id, like "INV-1042".
        po_number: The purchase-order number, like "PO-448120".
        cost_center: The cost centre, like "CC-310".
    """
    i = await db.get("invoices", invoice_id.strip().upper())
    if i is None:
        raise ToolError(f"No invoice with id {invoice_id!r}.")
    if i["status"] != "issued":
        raise ToolError(f"Invoice {i['id']} is {i['status']}; it can no longer be changed.")
    values = {}
    if po_number:
        values["po_number"] = po_number.strip().upper()
    if cost_center:
        values["cost_center"] = cost_center.strip().upper()
    if not values:
        raise ToolError("Give a po_number, a cost_center, or both.")
    await db.update("invoices", i["id"], **values)
    return _invoice_view({**i, **values})
