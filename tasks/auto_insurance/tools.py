"""The auto-insurance tools: what a service agent can look up and change.

Which rules live where (policy.md states all of them to the agent):
- Enforced here (the tool refuses with a `ToolError`): records must exist and belong
  together; effective dates are never in the past, at most 30 days ahead and inside the
  term; VINs must decode; a driver must match their motor-vehicle record, hold a valid
  licence and, when the rating rules say so, have an approved underwriting approval;
  one extension per invoice and never past 30 days; arrangements of 2 to 4 instalments,
  one active at a time; payments never above the balance; adjusters only in the policy's
  state and under their capacity; rental days within the coverage's maximum and only
  for a loss the rental coverage was in force for.
- Left to the agent, and caught by the state check: identity verification; underwriting
  approvals for vehicles and liability limits; the lienholder rule on deductibles and
  physical-damage coverage; what may change on a claim once an adjuster is assigned;
  which adjuster gets a claim; whether a loss is covered; billing-extension and
  late-fee-waiver limits per 12 months; arrangement eligibility; when to note, close
  or escalate tickets.

Premiums: every driver, vehicle and coverage carries its share of the annual premium
(`driver_rate`, `vehicle_rate`, `COVERAGE_PREMIUM`); a change moves the policy's annual
premium by the difference, and the rest of the term is billed pro rata (`prorate`) on
the next open instalment, or on a new invoice when there is none.

SQL is written here with named parameters; agent values only travel as parameters.
Every timestamp and date comes from `db.now`, the domain clock.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Literal

from tb_env.components import identity
from tb_env.components.contact import us_phone
from tb_env.domain.database import Database
from tb_env.domain.tool import read, write
from tb_env.errors import ToolError

# Records created during an episode are numbered from here (CLM-9001, UW-9001, T-9001...),
# so the ids in tasks' golden calls do not depend on how many rows the seed generates.
NEW_ID_START = 9001
MAX_EFFECTIVE_DAYS_AHEAD = 30
MAX_DRIVERS = 6
MAX_VEHICLES = 4
LATE_FEE = 15.00
EXTENSION_SYSTEM_MAX_DAYS = 30  # the billing system's hard limit; policy.md sets a lower one
ARRANGEMENT_FIRST_DUE_DAYS = 14
ARRANGEMENT_SPACING_DAYS = 30
ENDORSEMENT_INVOICE_DUE_DAYS = 20
OPEN_CLAIM = ("reported", "assigned")

CoverageType = Literal[
    "liability", "uninsured_motorist", "medical_payments", "collision", "comprehensive",
    "rental_reimbursement", "roadside_assistance",
]
Relationship = Literal["spouse", "child", "parent", "sibling", "other_household"]
Usage = Literal["pleasure", "commute"]
LossType = Literal["collision", "comprehensive", "liability"]
Specialty = Literal["collision", "comprehensive", "liability", "injury"]

# Annual premium of each coverage option, per policy. The key is the option: a limit code,
# a deductible, a rental daily limit, or None for a coverage without options.
COVERAGE_PREMIUM: dict[str, dict[Any, float]] = {
    "liability": {"25/50": 310.0, "50/100": 360.0, "100/300": 430.0, "250/500": 520.0, "500/1000": 640.0},
    "uninsured_motorist": {"25/50": 60.0, "50/100": 75.0, "100/300": 95.0, "250/500": 120.0},
    "medical_payments": {"1000": 30.0, "5000": 55.0, "10000": 80.0},
    "collision": {250: 520.0, 500: 440.0, 1000: 360.0, 2000: 290.0},
    "comprehensive": {100: 220.0, 250: 180.0, 500: 150.0, 1000: 120.0},
    "rental_reimbursement": {30: 36.0, 40: 48.0, 50: 60.0},
    "roadside_assistance": {None: 24.0},
}
OPTION_FIELD = {  # which argument/column holds a coverage's option
    "liability": "limit_code", "uninsured_motorist": "limit_code", "medical_payments": "limit_code",
    "collision": "deductible", "comprehensive": "deductible", "rental_reimbursement": "daily_limit",
    "roadside_assistance": None,
}
RENTAL_MAX_DAYS = 30
APPROVAL_LIABILITY_LIMIT = "500/1000"  # liability limits that need an underwriter
VEHICLE_APPROVAL_VALUE = 80_000.00  # vehicles worth more need an underwriter
VEHICLE_APPROVAL_MAX_AGE = 25  # model years this old or older need an underwriter
VIN_PATTERN = re.compile(r"^[A-HJ-NPR-Z0-9]{17}$")


# -- rating (pure functions, shared with the seed and the task generator) --------------------


def money(value: Any) -> float:
    return round(float(value or 0) + 1e-9, 2)


def age_on(date_of_birth: str, on: str) -> int:
    b, d = date.fromisoformat(date_of_birth), date.fromisoformat(on)
    return d.year - b.year - ((d.month, d.day) < (b.month, b.day))


def driver_rate(age: int, violations: int, accidents: int) -> float:
    """A driver's annual premium share: base, age surcharge, and each incident in 3 years."""
    surcharge = 820.0 if age < 21 else 410.0 if age < 25 else 90.0 if age >= 70 else 0.0
    return money(380.0 + surcharge + 180.0 * violations + 320.0 * accidents)


def vehicle_rate(market_value: float, usage: str) -> float:
    """A vehicle's annual premium share: base plus 2.5% of its value; commuting adds 10%."""
    base = 260.0 + 0.025 * float(market_value)
    return money(base * (1.10 if usage == "commute" else 1.0))


def coverage_rate(coverage_type: str, option: Any) -> float:
    return COVERAGE_PREMIUM[coverage_type][option]


def prorate(annual_change: float, effective_date: str, expiration_date: str) -> float:
    """The part of an annual premium change that falls in the rest of the term."""
    days = (date.fromisoformat(expiration_date) - date.fromisoformat(effective_date)).days
    return money(annual_change * days / 365)


def driver_needs_approval(age: int, violations: int, accidents: int) -> bool:
    return age < 21 or violations + accidents >= 2


def vehicle_needs_approval(year: int, market_value: float, today: str) -> bool:
    return float(market_value) > VEHICLE_APPROVAL_VALUE or int(today[:4]) - year >= VEHICLE_APPROVAL_MAX_AGE


# -- helpers -----------------------------------------------------------------------------------


async def _new_id(db: Database, table: str, prefix: str) -> str:
    return await db.next_id(table, prefix, start=NEW_ID_START)


def _today(db: Database) -> str:
    return db.now[:10]


def _plus_days(day: str, days: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=days)).isoformat()


def _date(value: str, what: str) -> str:
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise ToolError(f"{what} {value!r} is not a date; use YYYY-MM-DD.") from None


async def _policyholder(db: Database, policyholder_id: str) -> dict[str, Any]:
    row = await db.get("policyholders", policyholder_id.strip())
    if row is None:
        raise ToolError(f"No policyholder with id {policyholder_id!r}. Use find_policyholder to look up the id.")
    return row


async def _policy(db: Database, policy_id: str) -> dict[str, Any]:
    row = await db.get("policies", policy_id.strip().upper())
    if row is None:
        raise ToolError(f"No policy with id {policy_id!r}. Policy ids look like 'POL-10001'.")
    return row


async def _active_policy(db: Database, policy_id: str) -> dict[str, Any]:
    p = await _policy(db, policy_id)
    if p["status"] != "active":
        raise ToolError(f"Policy {p['id']} is {p['status']}; only active policies can be changed.")
    return p


async def _claim(db: Database, claim_id: str) -> dict[str, Any]:
    row = await db.get("claims", claim_id.strip().upper())
    if row is None:
        raise ToolError(f"No claim with id {claim_id!r}. Claim ids look like 'CLM-10001'.")
    return row


async def _invoice(db: Database, invoice_id: str) -> dict[str, Any]:
    row = await db.get("invoices", invoice_id.strip().upper())
    if row is None:
        raise ToolError(f"No invoice with id {invoice_id!r}. list_invoices shows a policy's invoices.")
    return row



def _effective(db: Database, policy: dict[str, Any], effective_date: str) -> str:
    """A change's effective date: today or later, at most 30 days ahead, inside the term."""
    eff = _date(effective_date, "Effective date")
    today = _today(db)
    if eff < today:
        raise ToolError(f"Changes cannot be backdated: {eff} is before today ({today}).")
    if eff > _plus_days(today, MAX_EFFECTIVE_DAYS_AHEAD):
        raise ToolError(f"Changes can be scheduled at most {MAX_EFFECTIVE_DAYS_AHEAD} days ahead ({eff} is too far).")
    if eff >= policy["expiration_date"]:
        raise ToolError(f"{eff} is not before the end of the term ({policy['expiration_date']}); "
                        "changes for the next term are made at renewal.")
    return eff


def _balance(inv: dict[str, Any]) -> float:
    fee = 0.0 if inv["late_fee_waived"] else money(inv["late_fee"])
    return money(money(inv["amount"]) + fee - money(inv["amount_paid"]))


def _invoice_view(inv: dict[str, Any]) -> dict[str, Any]:
    return {
        "invoice_id": inv["id"],
        "policy_id": inv["policy_id"],
        "kind": inv["kind"],
        "amount": money(inv["amount"]),
        "late_fee": money(inv["late_fee"]),
        "late_fee_waived": bool(inv["late_fee_waived"]),
        "amount_paid": money(inv["amount_paid"]),
        "balance": _balance(inv) if inv["status"] in ("open", "past_due") else 0.0,
        "original_due_date": inv["original_due_date"],
        "due_date": inv["due_date"],
        "status": inv["status"],
        "arrangement_id": inv["arrangement_id"],
    }


def _coverage_view(c: dict[str, Any]) -> dict[str, Any]:
    return {
        "coverage_type": c["coverage_type"],
        "limit_code": c["limit_code"],
        "deductible": c["deductible"],
        "daily_limit": money(c["daily_limit"]) if c["daily_limit"] is not None else None,
        "max_days": c["max_days"],
        "annual_premium": money(c["annual_premium"]),
        "status": c["status"],
        "effective_date": c["effective_date"],
        "removed_on": c["removed_on"],
    }


def _driver_view(d: dict[str, Any]) -> dict[str, Any]:
    return {
        "driver_id": d["id"],
        "first_name": d["first_name"],
        "last_name": d["last_name"],
        "date_of_birth": d["date_of_birth"],
        "relationship": d["relationship"],
        "license_number": d["license_number"],
        "license_state": d["license_state"],
        "status": d["status"],
        "added_on": d["added_on"],
        "removed_on": d["removed_on"],
        "annual_premium": money(d["annual_premium"]),
    }


def _vehicle_view(v: dict[str, Any]) -> dict[str, Any]:
    return {
        "vehicle_id": v["id"],
        "vin": v["vin"],
        "year": v["year"],
        "make": v["make"],
        "model": v["model"],
        "market_value": money(v["market_value"]),
        "usage": v["usage"],
        "annual_mileage": v["annual_mileage"],
        "lienholder": v["lienholder"],
        "status": v["status"],
        "added_on": v["added_on"],
        "removed_on": v["removed_on"],
        "replaced_by_vehicle_id": v["replaced_by_vehicle_id"],
        "annual_premium": money(v["annual_premium"]),
    }



async def _bill_change(db: Database, policy: dict[str, Any], amount: float) -> dict[str, Any] | None:
    """Bill (or credit) a prorated premium change: on the next open instalment, netted with
    whatever is already billed there (a large credit can take it below zero), otherwise on
    a new invoice. Netting leaves the same invoices whatever order a conversation's
    changes come in."""
    amount = money(amount)
    if amount == 0:
        return None
    today = _today(db)
    nxt = await db.one(
        "SELECT * FROM invoices WHERE policy_id = :p AND status = 'open' AND kind = 'installment' "
        "AND due_date >= :today ORDER BY due_date, id",
        p=policy["id"], today=today,
    )
    if nxt is not None:
        new_amount = money(money(nxt["amount"]) + amount)
        await db.update("invoices", nxt["id"], amount=new_amount)
        how = "added to the next instalment" if amount > 0 else "credited on the next instalment"
        return {"invoice_id": nxt["id"], "how": how, "due_date": nxt["due_date"],
                "invoice_amount": new_amount}
    inv_id = await _new_id(db, "invoices", "INV")
    due = _plus_days(today, ENDORSEMENT_INVOICE_DUE_DAYS)
    await db.insert("invoices", id=inv_id, policy_id=policy["id"], kind="endorsement", amount=amount, late_fee=0,
                    late_fee_waived=False, amount_paid=0, original_due_date=due, due_date=due,
                    status="open" if amount > 0 else "credit")
    return {"invoice_id": inv_id, "how": "new invoice" if amount > 0 else "credit on the account",
            "due_date": due if amount > 0 else None, "invoice_amount": amount}


async def _endorse(
    db: Database, policy: dict[str, Any], kind: str, subject_id: str, effective_date: str,
    annual_change: float, description: str, approval_id: str | None = None,
) -> dict[str, Any]:
    """Record a mid-term change: endorsement row, new annual premium, prorated billing."""
    annual_change = money(annual_change)
    prorated = prorate(annual_change, effective_date, policy["expiration_date"])
    new_premium = money(money(policy["annual_premium"]) + annual_change)
    await db.update("policies", policy["id"], annual_premium=new_premium)
    policy["annual_premium"] = new_premium
    await db.insert("endorsements", id=await _new_id(db, "endorsements", "END"), policy_id=policy["id"], kind=kind,
                    subject_id=subject_id, effective_date=effective_date, annual_premium_change=annual_change,
                    prorated_change=prorated, approval_id=approval_id, description=description, created_at=db.now)
    billed = await _bill_change(db, policy, prorated)
    return {"effective_date": effective_date, "annual_premium_change": annual_change, "prorated_change": prorated,
            "new_annual_premium": new_premium, "billing": billed}


async def _use_approval(
    db: Database, policy_id: str, approval_id: str, request_type: str, subject: str
) -> dict[str, Any]:
    a = await db.get("underwriting_approvals", approval_id.strip().upper())
    if a is None or a["policy_id"] != policy_id or a["request_type"] != request_type:
        raise ToolError(f"{approval_id!r} is not a {request_type} approval for policy {policy_id}.")
    if a["subject"] != subject:
        raise ToolError(f"Approval {a['id']} is for {a['subject']}, not {subject}.")
    if a["status"] != "approved":
        raise ToolError(f"Approval {a['id']} was {a['status']}; the change cannot be made.")
    used = await db.scalar("SELECT id FROM endorsements WHERE approval_id = :a", a=a["id"])
    if used:
        raise ToolError(f"Approval {a['id']} was already used for another change.")
    return a


async def _mvr(db: Database, license_number: str, license_state: str) -> dict[str, Any]:
    row = await db.get("mvr_records", license_number.strip().upper())
    if row is None or row["license_state"] != license_state.strip().upper():
        raise ToolError(f"No motor-vehicle record for licence {license_number!r} in {license_state!r}.")
    return row


async def _vin(db: Database, vin: str) -> dict[str, Any]:
    v = vin.strip().upper()
    if not VIN_PATTERN.match(v):
        raise ToolError(f"{vin!r} is not a valid VIN: 17 letters and digits, never I, O or Q.")
    row = await db.get("vin_records", v)
    if row is None:
        raise ToolError(f"VIN {v} does not decode; ask the customer to read it again from the registration.")
    return row


def _coverage_option(coverage_type: str, limit_code: str | None, deductible: int | None,
                     daily_limit: float | None) -> Any:
    """The option a coverage change asks for, checked against the coverage's menu."""
    fld = OPTION_FIELD[coverage_type]
    given = {"limit_code": limit_code, "deductible": deductible, "daily_limit": daily_limit}
    extra = [k for k, v in given.items() if v is not None and k != fld]
    if extra:
        raise ToolError(f"{coverage_type} has no {', '.join(extra)}; it takes {fld or 'no option'}.")
    if fld is None:
        return None
    value = given[fld]
    if value is None:
        raise ToolError(f"Give the {fld} for {coverage_type}.")
    if fld == "daily_limit":
        value = round(float(value))
    elif fld == "limit_code":
        value = str(value).strip()
    menu = COVERAGE_PREMIUM[coverage_type]
    if value not in menu:
        raise ToolError(f"{value!r} is not offered for {coverage_type}; choose one of {list(menu)}.")
    return value


async def _claim_view(db: Database, c: dict[str, Any]) -> dict[str, Any]:
    adj = await db.get("adjusters", c["adjuster_id"]) if c["adjuster_id"] else None
    veh = await db.get("vehicles", c["vehicle_id"])
    drv = await db.get("drivers", c["driver_id"]) if c["driver_id"] else None
    return {
        "claim_id": c["id"],
        "policy_id": c["policy_id"],
        "status": c["status"],
        "loss_date": c["loss_date"],
        "reported_on": c["reported_on"],
        "loss_type": c["loss_type"],
        "injuries": bool(c["injuries"]),
        "description": c["description"],
        "vehicle": {"vehicle_id": veh["id"], "year": veh["year"], "make": veh["make"], "model": veh["model"]}
        if veh else None,
        "driver": {"driver_id": drv["id"], "name": f"{drv['first_name']} {drv['last_name']}"} if drv else None,
        "adjuster": {"adjuster_id": adj["id"], "name": f"{adj['first_name']} {adj['last_name']}", "phone": adj["phone"]}
        if adj else None,
        "deductible": c["deductible"],
        "contact_phone": c["contact_phone"],
        "at_fault": None if c["at_fault"] is None else bool(c["at_fault"]),
        "rental_days_authorized": c["rental_days"],
        "rental_daily_limit": money(c["rental_daily_limit"]) if c["rental_daily_limit"] is not None else None,
        "paid_amount": money(c["paid_amount"]),
        "closed_on": c["closed_on"],
    }


# -- policyholders and identity ------------------------------------------------------------------


@read
async def find_policyholder(
    db: Database,
    email: str | None = None,
    policy_id: str | None = None,
    first_name: str | None = None,
    last_name: str | None = None,
    zip_code: str | None = None,
) -> list[dict[str, Any]]:
    """Look up policyholders by email, by policy number, or by name (and zip code). Returns
    ids and names only.

    Use it to get the policyholder id that `verify_identity` needs. Give `email`, or
    `policy_id`, or `last_name` with `first_name` and/or `zip_code`. Several people can
    share a name: add the zip code to narrow the search.

    Args:
        email: The email address on file.
        policy_id: A policy number, like "POL-10001".
        first_name: The policyholder's first name.
        last_name: The policyholder's last name.
        zip_code: The policyholder's mailing zip code.
    """
    if email:
        rows = await db.all(
            "SELECT id, first_name, last_name FROM policyholders WHERE LOWER(email) = LOWER(:e) ORDER BY id",
            e=email.strip(),
        )
    elif policy_id:
        rows = await db.all(
            "SELECT h.id, h.first_name, h.last_name FROM policyholders h JOIN policies p ON p.policyholder_id = h.id "
            "WHERE p.id = :p ORDER BY h.id",
            p=policy_id.strip().upper(),
        )
    elif last_name and (first_name or zip_code):
        where, params = identity.name_filter(last_name, first_name)
        sql = f"SELECT id, first_name, last_name FROM policyholders WHERE {where}"
        if zip_code:
            sql += " AND zip_code = :zip"
            params["zip"] = zip_code.strip()
        rows = await db.all(sql + " ORDER BY id", **params)
    else:
        raise ToolError("Give an email, a policy number, or a last name with a first name and/or zip code.")
    return [{"policyholder_id": r["id"], "first_name": r["first_name"], "last_name": r["last_name"]} for r in rows]


@write
async def verify_identity(
    db: Database, policyholder_id: str, date_of_birth: str, zip_code: str | None = None, policy_id: str | None = None
) -> dict[str, Any]:
    """Verify that the caller is the policyholder, and record it.

    Needs the date of birth plus either the mailing zip code or one of the policyholder's
    policy numbers, all as given by the caller. Fails if any given detail does not match.
    Verifying the same policyholder again is harmless.

    Args:
        policyholder_id: The policyholder to verify, from find_policyholder (like "PH-0042").
        date_of_birth: The date of birth the caller gave, YYYY-MM-DD.
        zip_code: The mailing zip code the caller gave.
        policy_id: A policy number the caller gave, like "POL-10001".
    """
    h = await _policyholder(db, policyholder_id)
    if not zip_code and not policy_id:
        raise ToolError("Verification needs the zip code or a policy number, together with the date of birth.")
    try:
        matches = date.fromisoformat(date_of_birth.strip()).isoformat() == h["date_of_birth"]
    except ValueError:
        matches = False
    if zip_code:
        matches = matches and zip_code.strip() == h["zip_code"]
    if policy_id:
        p = await db.get("policies", policy_id.strip().upper())
        matches = matches and p is not None and p["policyholder_id"] == h["id"]
    identity.check(matches)
    await identity.record_verification(db, "policyholder_id", h["id"], "dob_zip" if zip_code else "dob_policy",
                                       start=NEW_ID_START)
    return {"policyholder_id": h["id"], "name": f"{h['first_name']} {h['last_name']}", "verified": True}


@read
async def get_policyholder(db: Database, policyholder_id: str) -> dict[str, Any]:
    """A verified policyholder's profile: contact details, payment methods on file and
    their policies (current and past).

    Args:
        policyholder_id: The policyholder id, like "PH-0042".
    """
    h = await _policyholder(db, policyholder_id)
    methods = await db.all(
        "SELECT id, kind, label, status FROM payment_methods WHERE policyholder_id = :h ORDER BY id", h=h["id"]
    )
    policies = await db.all(
        "SELECT id, status, effective_date, expiration_date, annual_premium FROM policies "
        "WHERE policyholder_id = :h ORDER BY effective_date DESC, id DESC",
        h=h["id"],
    )
    return {
        "policyholder_id": h["id"],
        "first_name": h["first_name"],
        "last_name": h["last_name"],
        "email": h["email"],
        "phone": h["phone"],
        "mailing_address": {"street": h["street"], "city": h["city"], "state": h["state"], "zip_code": h["zip_code"]},
        "customer_since": h["customer_since"],
        "payment_methods": [
            {"payment_method_id": m["id"], "kind": m["kind"], "label": m["label"], "status": m["status"]}
            for m in methods
        ],
        "policies": [
            {"policy_id": p["id"], "status": p["status"], "effective_date": p["effective_date"],
             "expiration_date": p["expiration_date"], "annual_premium": money(p["annual_premium"])}
            for p in policies
        ],
    }


@write
async def update_contact_info(
    db: Database, policyholder_id: str, phone: str | None = None, email: str | None = None
) -> dict[str, Any]:
    """Change a verified policyholder's phone number and/or email address.

    Args:
        policyholder_id: The policyholder id, like "PH-0042".
        phone: The new phone number (US, 10 digits; any punctuation), like "503-555-0142".
        email: The new email address.
    """
    h = await _policyholder(db, policyholder_id)
    changes: dict[str, Any] = {}
    if phone:
        changes["phone"] = us_phone(phone)
    if email:
        e = email.strip().lower()
        if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", e):
            raise ToolError(f"{email!r} is not an email address.")
        taken = await db.scalar("SELECT id FROM policyholders WHERE LOWER(email) = :e AND id <> :h", e=e, h=h["id"])
        if taken:
            raise ToolError("That email address is already used by another account.")
        changes["email"] = e
    if not changes:
        raise ToolError("Give a new phone number and/or email address.")
    await db.update("policyholders", h["id"], **changes)
    return {"policyholder_id": h["id"], **{k: v for k, v in changes.items()}}


# -- policies, drivers, vehicles, coverages ---------------------------------------------------------


@read
async def get_policy(db: Database, policy_id: str) -> dict[str, Any]:
    """Everything about one policy: status, term and renewal date, premium (current and
    renewal offer), billing plan and autopay, coverages with limits and deductibles,
    drivers and vehicles (current and past).

    Args:
        policy_id: The policy number, like "POL-10001".
    """
    p = await _policy(db, policy_id)
    coverages = await db.all("SELECT * FROM coverages WHERE policy_id = :p ORDER BY id", p=p["id"])
    drivers = await db.all("SELECT * FROM drivers WHERE policy_id = :p ORDER BY id", p=p["id"])
    vehicles = await db.all("SELECT * FROM vehicles WHERE policy_id = :p ORDER BY id", p=p["id"])
    method = await db.get("payment_methods", p["autopay_payment_method_id"]) if p["autopay_payment_method_id"] else None
    return {
        "policy_id": p["id"],
        "policyholder_id": p["policyholder_id"],
        "status": p["status"],
        "state": p["state"],
        "effective_date": p["effective_date"],
        "expiration_date": p["expiration_date"],
        "annual_premium": money(p["annual_premium"]),
        "renewal_premium": money(p["renewal_premium"]) if p["renewal_premium"] is not None else None,
        "billing_plan": p["billing_plan"],
        "autopay": bool(p["autopay"]),
        "autopay_payment_method": {"payment_method_id": method["id"], "label": method["label"]} if method else None,
        "cancelled_on": p["cancelled_on"],
        "coverages": [_coverage_view(c) for c in coverages],
        "drivers": [_driver_view(d) for d in drivers],
        "vehicles": [_vehicle_view(v) for v in vehicles],
    }


@read
async def lookup_mvr(db: Database, license_number: str, license_state: str) -> dict[str, Any]:
    """A driver's motor-vehicle record from the state: name, date of birth, licence status,
    and violations and at-fault accidents in the last 3 years.

    Args:
        license_number: The driver's licence number.
        license_state: The two-letter state that issued the licence, like "OR".
    """
    m = await _mvr(db, license_number, license_state)
    return {
        "license_number": m["license_number"],
        "license_state": m["license_state"],
        "first_name": m["first_name"],
        "last_name": m["last_name"],
        "date_of_birth": m["date_of_birth"],
        "age": age_on(m["date_of_birth"], _today(db)),
        "license_status": m["license_status"],
        "first_licensed": m["first_licensed"],
        "violations_3y": m["violations_3y"],
        "at_fault_accidents_3y": m["at_fault_accidents_3y"],
    }


@read
async def decode_vin(db: Database, vin: str) -> dict[str, Any]:
    """Decode a VIN: model year, make, model, body style and market value.

    Args:
        vin: The 17-character vehicle identification number.
    """
    v = await _vin(db, vin)
    return {"vin": v["vin"], "year": v["year"], "make": v["make"], "model": v["model"],
            "body_style": v["body_style"], "market_value": money(v["market_value"])}


@read
async def quote_add_driver(
    db: Database, policy_id: str, license_number: str, license_state: str, effective_date: str
) -> dict[str, Any]:
    """Quote adding a driver: eligibility from their motor-vehicle record, whether an
    underwriter must approve, and the premium change (annual and for the rest of the term).

    Args:
        policy_id: The policy number, like "POL-10001".
        license_number: The new driver's licence number.
        license_state: The two-letter state that issued the licence.
        effective_date: When the driver would be covered from, YYYY-MM-DD.
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    m = await _mvr(db, license_number, license_state)
    age = age_on(m["date_of_birth"], eff)
    annual = driver_rate(age, m["violations_3y"], m["at_fault_accidents_3y"])
    eligible = m["license_status"] == "valid" and age >= 16
    return {
        "policy_id": p["id"],
        "driver": f"{m['first_name']} {m['last_name']}",
        "age_on_effective_date": age,
        "license_status": m["license_status"],
        "violations_3y": m["violations_3y"],
        "at_fault_accidents_3y": m["at_fault_accidents_3y"],
        "eligible": eligible,
        "underwriter_approval_required": eligible and driver_needs_approval(
            age, m["violations_3y"], m["at_fault_accidents_3y"]),
        "annual_premium_change": annual if eligible else None,
        "prorated_change": prorate(annual, eff, p["expiration_date"]) if eligible else None,
    }


@write
async def add_driver(
    db: Database,
    policy_id: str,
    first_name: str,
    last_name: str,
    date_of_birth: str,
    license_number: str,
    license_state: str,
    relationship: Relationship,
    effective_date: str,
    approval_id: str | None = None,
) -> dict[str, Any]:
    """Add a driver to an active policy from an effective date. The driver must match their
    motor-vehicle record and hold a valid licence. Drivers under 21, or with 2 or more
    violations and at-fault accidents in 3 years, need an approved underwriting approval
    (request_underwriter_approval) whose id is passed here. The premium change is billed
    pro rata.

    Args:
        policy_id: The policy number, like "POL-10001".
        first_name: The driver's first name, as on the licence.
        last_name: The driver's last name, as on the licence.
        date_of_birth: The driver's date of birth, YYYY-MM-DD.
        license_number: The driver's licence number.
        license_state: The two-letter state that issued the licence.
        relationship: The driver's relationship to the policyholder.
        effective_date: When the driver is covered from, YYYY-MM-DD (today or up to 30 days ahead).
        approval_id: The approved underwriting approval, when one is required, like "UW-0042".
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    m = await _mvr(db, license_number, license_state)
    dob = _date(date_of_birth, "Date of birth")
    if (m["first_name"].lower(), m["last_name"].lower(), m["date_of_birth"]) != (
        first_name.strip().lower(), last_name.strip().lower(), dob
    ):
        raise ToolError("The name or date of birth does not match the motor-vehicle record of that licence.")
    if m["license_status"] != "valid":
        raise ToolError(f"The licence is {m['license_status']}; only drivers with a valid licence can be added.")
    age = age_on(dob, eff)
    if age < 16:
        raise ToolError("Drivers must be at least 16 years old.")
    if await db.scalar(
        "SELECT id FROM drivers WHERE policy_id = :p AND license_number = :l AND status = 'active'",
        p=p["id"], l=m["license_number"],
    ):
        raise ToolError("That driver is already on the policy.")
    count = await db.scalar("SELECT COUNT(*) FROM drivers WHERE policy_id = :p AND status = 'active'", p=p["id"])
    if count >= MAX_DRIVERS:
        raise ToolError(f"A policy can list at most {MAX_DRIVERS} drivers.")
    approval = None
    if driver_needs_approval(age, m["violations_3y"], m["at_fault_accidents_3y"]) and not approval_id:
        raise ToolError("This driver needs an approved underwriting approval: call request_underwriter_approval "
                            "(request_type add_driver, subject the licence number) first.")
    if approval_id:
        approval = await _use_approval(db, p["id"], approval_id, "add_driver", m["license_number"])
    annual = driver_rate(age, m["violations_3y"], m["at_fault_accidents_3y"])
    driver_id = await _new_id(db, "drivers", "DRV")
    await db.insert("drivers", id=driver_id, policy_id=p["id"], first_name=m["first_name"], last_name=m["last_name"],
                    date_of_birth=dob, license_number=m["license_number"], license_state=m["license_state"],
                    relationship=relationship, status="active", added_on=eff, annual_premium=annual)
    change = await _endorse(db, p, "add_driver", driver_id, eff, annual,
                            f"Added driver {m['first_name']} {m['last_name']}",
                            approval["id"] if approval else None)
    return {"driver_id": driver_id, "name": f"{m['first_name']} {m['last_name']}", **change}


@write
async def remove_driver(db: Database, policy_id: str, driver_id: str, effective_date: str, reason: str) -> dict[str, Any]:
    """Remove a driver (not the policyholder) from a policy from an effective date; their
    premium share is credited pro rata.

    Args:
        policy_id: The policy number, like "POL-10001".
        driver_id: The driver to remove, like "DRV-10042" (get_policy lists them).
        effective_date: When the driver stops being covered, YYYY-MM-DD.
        reason: Why, in the customer's words.
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    d = await db.get("drivers", driver_id.strip().upper())
    if d is None or d["policy_id"] != p["id"]:
        raise ToolError(f"Policy {p['id']} has no driver {driver_id!r}.")
    if d["status"] != "active":
        raise ToolError(f"Driver {d['id']} is already {d['status']}.")
    if d["relationship"] == "named_insured":
        raise ToolError("The policyholder cannot be removed from their own policy.")
    await db.update("drivers", d["id"], status="removed", removed_on=eff)
    change = await _endorse(db, p, "remove_driver", d["id"], eff, -money(d["annual_premium"]),
                            f"Removed driver: {reason}")
    return {"driver_id": d["id"], "status": "removed", **change}


@read
async def quote_vehicle(
    db: Database, policy_id: str, vin: str, usage: Usage, effective_date: str, replaces_vehicle_id: str | None = None
) -> dict[str, Any]:
    """Quote adding a vehicle, or replacing one: the decoded vehicle, whether an underwriter
    must approve it, and the premium change (annual and for the rest of the term).

    Args:
        policy_id: The policy number, like "POL-10001".
        vin: The new vehicle's VIN.
        usage: How the vehicle is mainly used.
        effective_date: When the vehicle would be covered from, YYYY-MM-DD.
        replaces_vehicle_id: The vehicle it replaces, if any, like "VEH-10042".
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    v = await _vin(db, vin)
    annual = vehicle_rate(v["market_value"], usage)
    change = annual
    if replaces_vehicle_id:
        old = await db.get("vehicles", replaces_vehicle_id.strip().upper())
        if old is None or old["policy_id"] != p["id"] or old["status"] != "active":
            raise ToolError(f"Policy {p['id']} has no active vehicle {replaces_vehicle_id!r}.")
        change = money(annual - money(old["annual_premium"]))
    return {
        "vehicle": {"vin": v["vin"], "year": v["year"], "make": v["make"], "model": v["model"],
                    "market_value": money(v["market_value"])},
        "underwriter_approval_required": vehicle_needs_approval(v["year"], v["market_value"], _today(db)),
        "vehicle_annual_premium": annual,
        "annual_premium_change": change,
        "prorated_change": prorate(change, eff, p["expiration_date"]),
    }


async def _vehicle_row(
    db: Database, p: dict[str, Any], vin: str, usage: str, annual_mileage: int, eff: str,
    lienholder: str | None, approval_id: str | None,
) -> tuple[dict[str, Any], str | None]:
    v = await _vin(db, vin)
    if await db.scalar(
        "SELECT id FROM vehicles WHERE policy_id = :p AND vin = :v AND status = 'active'", p=p["id"], v=v["vin"]
    ):
        raise ToolError(f"VIN {v['vin']} is already on policy {p['id']}.")
    if not 0 < annual_mileage <= 100_000:
        raise ToolError("Annual mileage must be between 1 and 100,000.")
    approval = await _use_approval(db, p["id"], approval_id, "add_vehicle", v["vin"]) if approval_id else None
    row = {"id": await _new_id(db, "vehicles", "VEH"), "policy_id": p["id"], "vin": v["vin"], "year": v["year"],
           "make": v["make"], "model": v["model"], "market_value": money(v["market_value"]), "usage": usage,
           "annual_mileage": annual_mileage, "lienholder": lienholder.strip() if lienholder else None,
           "status": "active", "added_on": eff, "annual_premium": vehicle_rate(v["market_value"], usage)}
    return row, approval["id"] if approval else None


@write
async def add_vehicle(
    db: Database,
    policy_id: str,
    vin: str,
    usage: Usage,
    annual_mileage: int,
    effective_date: str,
    lienholder: str | None = None,
    approval_id: str | None = None,
) -> dict[str, Any]:
    """Add a vehicle to an active policy from an effective date (at most 4 vehicles). The
    VIN must decode. The policy's coverages apply to it; the premium change is billed pro
    rata.

    Args:
        policy_id: The policy number, like "POL-10001".
        vin: The vehicle's 17-character VIN.
        usage: How the vehicle is mainly used: pleasure, or commute (to work or school).
        annual_mileage: Miles driven per year, as the customer estimates.
        effective_date: When the vehicle is covered from, YYYY-MM-DD (today or up to 30 days ahead).
        lienholder: The lender or lessor, if the vehicle is financed or leased.
        approval_id: The approved underwriting approval, when the vehicle needs one, like "UW-0042".
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    count = await db.scalar("SELECT COUNT(*) FROM vehicles WHERE policy_id = :p AND status = 'active'", p=p["id"])
    if count >= MAX_VEHICLES:
        raise ToolError(f"A policy can cover at most {MAX_VEHICLES} vehicles.")
    row, approval = await _vehicle_row(db, p, vin, usage, annual_mileage, eff, lienholder, approval_id)
    await db.insert("vehicles", **row)
    change = await _endorse(db, p, "add_vehicle", row["id"], eff, row["annual_premium"],
                            f"Added {row['year']} {row['make']} {row['model']}", approval)
    return {"vehicle_id": row["id"], "vehicle": f"{row['year']} {row['make']} {row['model']}", **change}


@write
async def replace_vehicle(
    db: Database,
    policy_id: str,
    vehicle_id: str,
    vin: str,
    usage: Usage,
    annual_mileage: int,
    effective_date: str,
    lienholder: str | None = None,
    approval_id: str | None = None,
) -> dict[str, Any]:
    """Replace a vehicle on a policy with a new one from an effective date (the old one is
    marked replaced). The premium difference is billed or credited pro rata.

    Args:
        policy_id: The policy number, like "POL-10001".
        vehicle_id: The vehicle being replaced, like "VEH-10042".
        vin: The new vehicle's 17-character VIN.
        usage: How the new vehicle is mainly used: pleasure or commute.
        annual_mileage: Miles driven per year in the new vehicle.
        effective_date: When the new vehicle is covered from, YYYY-MM-DD.
        lienholder: The lender or lessor of the new vehicle, if financed or leased.
        approval_id: The approved underwriting approval, when the new vehicle needs one.
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    old = await db.get("vehicles", vehicle_id.strip().upper())
    if old is None or old["policy_id"] != p["id"] or old["status"] != "active":
        raise ToolError(f"Policy {p['id']} has no active vehicle {vehicle_id!r}.")
    row, approval = await _vehicle_row(db, p, vin, usage, annual_mileage, eff, lienholder, approval_id)
    await db.insert("vehicles", **row)
    await db.update("vehicles", old["id"], status="replaced", removed_on=eff, replaced_by_vehicle_id=row["id"])
    change = await _endorse(db, p, "replace_vehicle", row["id"], eff,
                            money(row["annual_premium"] - money(old["annual_premium"])),
                            f"Replaced {old['year']} {old['make']} {old['model']}", approval)
    return {"vehicle_id": row["id"], "vehicle": f"{row['year']} {row['make']} {row['model']}",
            "replaced_vehicle_id": old["id"], **change}


@write
async def remove_vehicle(db: Database, policy_id: str, vehicle_id: str, effective_date: str, reason: str) -> dict[str, Any]:
    """Remove a vehicle from a policy from an effective date (sold, totalled, no longer
    driven). A policy keeps at least one vehicle. Its premium share is credited pro rata.

    Args:
        policy_id: The policy number, like "POL-10001".
        vehicle_id: The vehicle to remove, like "VEH-10042".
        effective_date: When coverage for it ends, YYYY-MM-DD.
        reason: Why, in the customer's words.
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    v = await db.get("vehicles", vehicle_id.strip().upper())
    if v is None or v["policy_id"] != p["id"] or v["status"] != "active":
        raise ToolError(f"Policy {p['id']} has no active vehicle {vehicle_id!r}.")
    count = await db.scalar("SELECT COUNT(*) FROM vehicles WHERE policy_id = :p AND status = 'active'", p=p["id"])
    if count <= 1:
        raise ToolError("A policy must keep at least one vehicle; to end coverage entirely the policy is cancelled.")
    await db.update("vehicles", v["id"], status="removed", removed_on=eff)
    change = await _endorse(db, p, "remove_vehicle", v["id"], eff, -money(v["annual_premium"]),
                            f"Removed vehicle: {reason}")
    return {"vehicle_id": v["id"], "status": "removed", **change}


@read
async def quote_coverage_change(
    db: Database,
    policy_id: str,
    coverage_type: CoverageType,
    effective_date: str,
    limit_code: str | None = None,
    deductible: int | None = None,
    daily_limit: float | None = None,
    remove: bool = False,
) -> dict[str, Any]:
    """Quote changing, adding or removing a coverage: the premium change (annual and for the
    rest of the term) and whether an underwriter must approve. Give the one option the
    coverage takes: limit_code (liability, uninsured_motorist, medical_payments), deductible
    (collision, comprehensive) or daily_limit (rental_reimbursement); none for
    roadside_assistance or when removing.

    Args:
        policy_id: The policy number, like "POL-10001".
        coverage_type: The coverage.
        effective_date: When the change would take effect, YYYY-MM-DD.
        limit_code: Liability/uninsured limits ("25/50", "50/100", "100/300", "250/500", "500/1000") or medical payments ("1000", "5000", "10000").
        deductible: Collision (250, 500, 1000, 2000) or comprehensive (100, 250, 500, 1000) deductible.
        daily_limit: Rental reimbursement per day (30, 40 or 50).
        remove: True to quote removing the coverage.
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    cur = await db.one("SELECT * FROM coverages WHERE policy_id = :p AND coverage_type = :t AND status = 'active'",
                       p=p["id"], t=coverage_type)
    if remove:
        if cur is None:
            raise ToolError(f"Policy {p['id']} has no {coverage_type} coverage to remove.")
        change = -money(cur["annual_premium"])
        new_premium = 0.0
    else:
        option = _coverage_option(coverage_type, limit_code, deductible, daily_limit)
        new_premium = coverage_rate(coverage_type, option)
        change = money(new_premium - (money(cur["annual_premium"]) if cur else 0.0))
    return {
        "policy_id": p["id"],
        "coverage_type": coverage_type,
        "current": _coverage_view(cur) if cur else None,
        "new_coverage_annual_premium": new_premium,
        "underwriter_approval_required": coverage_type == "liability" and limit_code == APPROVAL_LIABILITY_LIMIT,
        "annual_premium_change": money(change),
        "prorated_change": prorate(change, eff, p["expiration_date"]),
    }


@write
async def change_coverage(
    db: Database,
    policy_id: str,
    coverage_type: CoverageType,
    effective_date: str,
    limit_code: str | None = None,
    deductible: int | None = None,
    daily_limit: float | None = None,
    approval_id: str | None = None,
) -> dict[str, Any]:
    """Change the limit, deductible or daily limit of a coverage the policy already has,
    from an effective date; the premium change is billed or credited pro rata. Give the one
    option the coverage takes (see quote_coverage_change).

    Args:
        policy_id: The policy number, like "POL-10001".
        coverage_type: The coverage to change.
        effective_date: When the change takes effect, YYYY-MM-DD.
        limit_code: New limits for liability, uninsured_motorist or medical_payments.
        deductible: New deductible for collision or comprehensive.
        daily_limit: New daily limit for rental_reimbursement.
        approval_id: The approved underwriting approval, when the change needs one, like "UW-0042".
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    cur = await db.one("SELECT * FROM coverages WHERE policy_id = :p AND coverage_type = :t AND status = 'active'",
                       p=p["id"], t=coverage_type)
    if cur is None:
        raise ToolError(f"Policy {p['id']} has no {coverage_type} coverage; use add_coverage.")
    option = _coverage_option(coverage_type, limit_code, deductible, daily_limit)
    fld = OPTION_FIELD[coverage_type]
    if fld is None:
        raise ToolError(f"{coverage_type} has no options to change.")
    current = cur[fld] if fld != "daily_limit" else round(money(cur[fld]))
    if current == option:
        raise ToolError(f"The {coverage_type} {fld} is already {option}.")
    approval = None
    if approval_id:
        approval = await _use_approval(db, p["id"], approval_id, "liability_limit", str(option))
    new_premium = coverage_rate(coverage_type, option)
    await db.update("coverages", cur["id"], **{fld: option}, annual_premium=new_premium)
    change = await _endorse(db, p, "change_coverage", cur["id"], eff, money(new_premium - money(cur["annual_premium"])),
                            f"{coverage_type} {fld} {current} -> {option}", approval["id"] if approval else None)
    return {"coverage_type": coverage_type, fld: option, "previous": current, **change}


@write
async def add_coverage(
    db: Database,
    policy_id: str,
    coverage_type: CoverageType,
    effective_date: str,
    limit_code: str | None = None,
    deductible: int | None = None,
    daily_limit: float | None = None,
) -> dict[str, Any]:
    """Add a coverage the policy does not have, from an effective date; the premium is billed
    pro rata. Rental reimbursement covers up to 30 days per claim at the chosen daily limit.

    Args:
        policy_id: The policy number, like "POL-10001".
        coverage_type: The coverage to add.
        effective_date: When it starts, YYYY-MM-DD (a loss before this date is not covered by it).
        limit_code: Limits for uninsured_motorist or medical_payments.
        deductible: Deductible for collision or comprehensive.
        daily_limit: Daily limit for rental_reimbursement (30, 40 or 50).
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    cov_id = f"{p['id']}/{coverage_type}"
    cur = await db.get("coverages", cov_id)
    if cur is not None and cur["status"] == "active":
        raise ToolError(f"Policy {p['id']} already has {coverage_type}; use change_coverage.")
    option = _coverage_option(coverage_type, limit_code, deductible, daily_limit)
    fld = OPTION_FIELD[coverage_type]
    premium = coverage_rate(coverage_type, option)
    values: dict[str, Any] = {"limit_code": None, "deductible": None, "daily_limit": None, "max_days": None}
    if fld:
        values[fld] = option
    if coverage_type == "rental_reimbursement":
        values["max_days"] = RENTAL_MAX_DAYS
    values.update(annual_premium=premium, status="active", effective_date=eff, removed_on=None)
    if cur is None:
        await db.insert("coverages", id=cov_id, policy_id=p["id"], coverage_type=coverage_type, **values)
    else:
        await db.update("coverages", cov_id, **values)
    change = await _endorse(db, p, "add_coverage", cov_id, eff, premium, f"Added {coverage_type}")
    return {"coverage_type": coverage_type, "option": option, **change}


@write
async def remove_coverage(
    db: Database, policy_id: str, coverage_type: CoverageType, effective_date: str, reason: str
) -> dict[str, Any]:
    """Remove an optional coverage from an effective date (liability is required and cannot
    be removed); its premium is credited pro rata.

    Args:
        policy_id: The policy number, like "POL-10001".
        coverage_type: The coverage to remove.
        effective_date: When it ends, YYYY-MM-DD.
        reason: Why, in the customer's words.
    """
    p = await _active_policy(db, policy_id)
    eff = _effective(db, p, effective_date)
    if coverage_type == "liability":
        raise ToolError("Liability coverage is required by law and cannot be removed.")
    cur = await db.one("SELECT * FROM coverages WHERE policy_id = :p AND coverage_type = :t AND status = 'active'",
                       p=p["id"], t=coverage_type)
    if cur is None:
        raise ToolError(f"Policy {p['id']} has no {coverage_type} coverage.")
    await db.update("coverages", cur["id"], status="removed", removed_on=eff)
    change = await _endorse(db, p, "remove_coverage", cur["id"], eff, -money(cur["annual_premium"]),
                            f"Removed {coverage_type}: {reason}")
    return {"coverage_type": coverage_type, "status": "removed", **change}


@read
async def list_endorsements(db: Database, policy_id: str) -> list[dict[str, Any]]:
    """The changes made to a policy this term, newest first, with their premium effect.

    Args:
        policy_id: The policy number, like "POL-10001".
    """
    p = await _policy(db, policy_id)
    rows = await db.all(
        "SELECT * FROM endorsements WHERE policy_id = :p ORDER BY created_at DESC, id DESC", p=p["id"]
    )
    return [{"endorsement_id": e["id"], "kind": e["kind"], "subject_id": e["subject_id"],
             "effective_date": e["effective_date"], "annual_premium_change": money(e["annual_premium_change"]),
             "prorated_change": money(e["prorated_change"]), "approval_id": e["approval_id"],
             "description": e["description"]} for e in rows]


# -- underwriting --------------------------------------------------------------------------------


@write
async def request_underwriter_approval(
    db: Database,
    policy_id: str,
    request_type: Literal["add_driver", "add_vehicle", "liability_limit"],
    subject: str,
    reason: str,
) -> dict[str, Any]:
    """Ask an underwriter to approve a request outside standard guidelines. The decision
    comes back at once: `approved` (pass the approval_id to the change) or `denied` (do not
    make the change). Asking again for the same subject returns the existing decision.

    Args:
        policy_id: The policy number, like "POL-10001".
        request_type: add_driver (a young or high-risk driver), add_vehicle (a high-value or
            25+ year-old vehicle, also when it replaces another), or liability_limit (500/1000).
        subject: add_driver: the licence number; add_vehicle: the VIN; liability_limit: the limit code.
        reason: The request, in a sentence.
    """
    p = await _active_policy(db, policy_id)
    today = _today(db)
    subj = subject.strip().upper()
    if request_type == "add_driver":
        m = await db.get("mvr_records", subj)
        if m is None:
            raise ToolError(f"No motor-vehicle record for licence {subject!r}.")
        age = age_on(m["date_of_birth"], today)
        incidents = m["violations_3y"] + m["at_fault_accidents_3y"]
        if not driver_needs_approval(age, m["violations_3y"], m["at_fault_accidents_3y"]):
            raise ToolError("This driver meets standard guidelines; no approval is needed.")
        if m["license_status"] != "valid":
            decision = ("denied", f"Denied: the licence is {m['license_status']}.")
        elif incidents >= 3 or (age < 21 and incidents >= 1):
            decision = ("denied", f"Denied: {m['violations_3y']} violation(s) and {m['at_fault_accidents_3y']} "
                                  f"at-fault accident(s) in 3 years exceed guidelines for this driver.")
        else:
            decision = ("approved", "Approved: driver accepted with standard surcharges.")
    elif request_type == "add_vehicle":
        v = await _vin(db, subj)
        if not vehicle_needs_approval(v["year"], v["market_value"], today):
            raise ToolError("This vehicle meets standard guidelines; no approval is needed.")
        if money(v["market_value"]) > 150_000 or v["year"] < 1995:
            decision = ("denied", "Denied: the vehicle is outside what a personal auto policy can insure "
                                  "(value above 150,000 or model year before 1995).")
        else:
            decision = ("approved", "Approved: vehicle accepted at standard rates.")
    else:
        subj = subject.strip()
        if subj not in COVERAGE_PREMIUM["liability"]:
            raise ToolError(f"{subject!r} is not a liability limit code.")
        if subj != APPROVAL_LIABILITY_LIMIT:
            raise ToolError("Liability limits up to 250/500 need no approval.")
        since = (date.fromisoformat(today) - timedelta(days=3 * 365)).isoformat()
        at_fault = await db.scalar(
            "SELECT COUNT(*) FROM claims c JOIN policies p ON p.id = c.policy_id "
            "WHERE p.policyholder_id = :h AND c.at_fault = :yes AND c.loss_date >= :since",
            h=p["policyholder_id"], yes=True, since=since,
        )
        if at_fault:
            decision = ("denied", "Denied: the household has an at-fault claim in the last 3 years.")
        else:
            decision = ("approved", "Approved: clean claims history.")
    existing = await db.one(
        "SELECT * FROM underwriting_approvals WHERE policy_id = :p AND request_type = :t AND subject = :s ORDER BY id",
        p=p["id"], t=request_type, s=subj,
    )
    if existing is None:
        existing = await db.insert(
            "underwriting_approvals", id=await _new_id(db, "underwriting_approvals", "UW"), policy_id=p["id"],
            request_type=request_type, subject=subj, status=decision[0], decision_note=decision[1],
            request_reason=reason, created_at=db.now,
        )
    return {"approval_id": existing["id"], "policy_id": p["id"], "request_type": request_type,
            "subject": existing["subject"], "status": existing["status"], "decision_note": existing["decision_note"]}


@read
async def get_approval(db: Database, approval_id: str) -> dict[str, Any]:
    """An underwriting approval: request, decision, and whether a change already used it.

    Args:
        approval_id: The approval id, like "UW-0042".
    """
    a = await db.get("underwriting_approvals", approval_id.strip().upper())
    if a is None:
        raise ToolError(f"No approval with id {approval_id!r}.")
    used = await db.scalar("SELECT id FROM endorsements WHERE approval_id = :a", a=a["id"])
    return {"approval_id": a["id"], "policy_id": a["policy_id"], "request_type": a["request_type"],
            "subject": a["subject"], "status": a["status"], "decision_note": a["decision_note"],
            "used": bool(used)}


# -- billing -------------------------------------------------------------------------------------


@read
async def list_invoices(db: Database, policy_id: str) -> list[dict[str, Any]]:
    """A policy's invoices, oldest due date first: amount, late fee (and whether it was
    waived), amount paid, balance, original and current due date, status.

    Statuses: open (not yet due or due today), past_due, paid, in_arrangement (moved into a
    payment arrangement), credit (a credit on the account).

    Args:
        policy_id: The policy number, like "POL-10001".
    """
    p = await _policy(db, policy_id)
    rows = await db.all("SELECT * FROM invoices WHERE policy_id = :p ORDER BY due_date, id", p=p["id"])
    return [_invoice_view(i) for i in rows]


@read
async def get_invoice(db: Database, invoice_id: str) -> dict[str, Any]:
    """One invoice with its payments and any billing extension.

    Args:
        invoice_id: The invoice id, like "INV-1042".
    """
    inv = await _invoice(db, invoice_id)
    payments = await db.all("SELECT * FROM payments WHERE invoice_id = :i ORDER BY paid_on, id", i=inv["id"])
    exts = await db.all("SELECT * FROM billing_extensions WHERE invoice_id = :i ORDER BY granted_on", i=inv["id"])
    out = _invoice_view(inv)
    out["payments"] = []
    for pay in payments:
        pm = await db.get("payment_methods", pay["payment_method_id"])
        out["payments"].append({"amount": money(pay["amount"]), "paid_on": pay["paid_on"],
                                "payment_method": pm["label"] if pm else None})
    out["extensions"] = [{"previous_due_date": e["previous_due_date"], "new_due_date": e["new_due_date"],
                          "granted_on": e["granted_on"]} for e in exts]
    return out


@read
async def get_billing_account(db: Database, policy_id: str) -> dict[str, Any]:
    """A policy's billing summary: plan, autopay, total and past-due balance, the next
    amount due, and the history the billing rules look at: billing extensions, late-fee
    waivers and payment arrangements (with dates).

    Args:
        policy_id: The policy number, like "POL-10001".
    """
    p = await _policy(db, policy_id)
    invoices = await db.all("SELECT * FROM invoices WHERE policy_id = :p ORDER BY due_date, id", p=p["id"])
    unpaid = [i for i in invoices if i["status"] in ("open", "past_due")]
    past_due = [i for i in unpaid if i["status"] == "past_due"]
    upcoming = [i for i in unpaid if i["status"] == "open"]
    method = await db.get("payment_methods", p["autopay_payment_method_id"]) if p["autopay_payment_method_id"] else None
    exts = await db.all("SELECT * FROM billing_extensions WHERE policy_id = :p ORDER BY granted_on, invoice_id", p=p["id"])
    arrangements = await db.all("SELECT * FROM payment_arrangements WHERE policy_id = :p ORDER BY created_on, id",
                                p=p["id"])
    return {
        "policy_id": p["id"],
        "billing_plan": p["billing_plan"],
        "autopay": bool(p["autopay"]),
        "autopay_payment_method": method["label"] if method else None,
        "total_balance": money(sum(_balance(i) for i in unpaid)),
        "past_due_balance": money(sum(_balance(i) for i in past_due)),
        "past_due_invoices": [i["id"] for i in past_due],
        "next_due": {"invoice_id": upcoming[0]["id"], "due_date": upcoming[0]["due_date"],
                     "balance": _balance(upcoming[0])} if upcoming else None,
        "billing_extensions": [{"invoice_id": e["invoice_id"], "granted_on": e["granted_on"],
                                "previous_due_date": e["previous_due_date"], "new_due_date": e["new_due_date"]}
                               for e in exts],
        "late_fee_waivers": [{"invoice_id": i["id"], "due_date": i["original_due_date"], "late_fee": money(i["late_fee"])}
                             for i in invoices if i["late_fee_waived"]],
        "payment_arrangements": [{"arrangement_id": a["id"], "created_on": a["created_on"],
                                  "total_amount": money(a["total_amount"]), "installments": a["installments"],
                                  "status": a["status"]} for a in arrangements],
    }


@write
async def make_payment(db: Database, invoice_id: str, amount: float, payment_method_id: str) -> dict[str, Any]:
    """Charge a payment to an invoice with one of the policyholder's active payment methods.
    The amount may not exceed the invoice's balance (premium plus any unwaived late fee,
    less what was paid); a fully paid invoice becomes `paid`.

    Args:
        invoice_id: The invoice id, like "INV-1042".
        amount: The amount to charge, in dollars.
        payment_method_id: The payment method, like "PM-0042" (get_policyholder lists them).
    """
    inv = await _invoice(db, invoice_id)
    if inv["status"] not in ("open", "past_due"):
        raise ToolError(f"Invoice {inv['id']} is {inv['status']}; nothing is payable on it.")
    p = await _policy(db, inv["policy_id"])
    pm = await db.get("payment_methods", payment_method_id.strip().upper())
    if pm is None or pm["policyholder_id"] != p["policyholder_id"]:
        raise ToolError(f"{payment_method_id!r} is not a payment method of this policyholder.")
    if pm["status"] != "active":
        raise ToolError(f"{pm['label']} is {pm['status']} and cannot be charged.")
    amount = money(amount)
    balance = _balance(inv)
    if amount <= 0:
        raise ToolError("The amount must be positive.")
    if amount > balance:
        raise ToolError(f"Invoice {inv['id']} has a balance of {balance:.2f}; {amount:.2f} is more than that.")
    paid = money(money(inv["amount_paid"]) + amount)
    status = "paid" if money(balance - amount) == 0 else inv["status"]
    await db.update("invoices", inv["id"], amount_paid=paid, status=status)
    await db.insert("payments", id=await _new_id(db, "payments", "PAY"), invoice_id=inv["id"], amount=amount,
                    payment_method_id=pm["id"], paid_on=_today(db))
    return {"invoice_id": inv["id"], "charged": amount, "payment_method": pm["label"],
            "remaining_balance": money(balance - amount), "status": status}


@write
async def waive_late_fee(db: Database, invoice_id: str, reason: str) -> dict[str, Any]:
    """Waive the late fee on an unpaid invoice.

    Args:
        invoice_id: The invoice id, like "INV-1042".
        reason: Why, in a sentence.
    """
    inv = await _invoice(db, invoice_id)
    if money(inv["late_fee"]) <= 0:
        raise ToolError(f"Invoice {inv['id']} has no late fee.")
    if inv["late_fee_waived"]:
        raise ToolError(f"The late fee on invoice {inv['id']} was already waived.")
    if inv["status"] not in ("open", "past_due"):
        raise ToolError(f"Invoice {inv['id']} is {inv['status']}; its late fee can no longer be waived.")
    await db.update("invoices", inv["id"], late_fee_waived=True)
    inv["late_fee_waived"] = True
    return {"invoice_id": inv["id"], "late_fee_waived": money(inv["late_fee"]), "new_balance": _balance(inv)}


@write
async def grant_billing_extension(db: Database, invoice_id: str, new_due_date: str, reason: str) -> dict[str, Any]:
    """Move an unpaid invoice's due date later. One extension per invoice; the new date must
    be after the current due date and today, and within 30 days of the original due date.

    Args:
        invoice_id: The invoice id, like "INV-1042".
        new_due_date: The new due date, YYYY-MM-DD.
        reason: Why, in the customer's words.
    """
    inv = await _invoice(db, invoice_id)
    if inv["status"] not in ("open", "past_due"):
        raise ToolError(f"Invoice {inv['id']} is {inv['status']}; only unpaid invoices can be extended.")
    if await db.scalar("SELECT COUNT(*) FROM billing_extensions WHERE invoice_id = :i", i=inv["id"]):
        raise ToolError(f"Invoice {inv['id']} was already extended once.")
    new = _date(new_due_date, "New due date")
    if new <= inv["due_date"] or new <= _today(db):
        raise ToolError(f"The new due date must be after the current due date ({inv['due_date']}) and after today.")
    if new > _plus_days(inv["original_due_date"], EXTENSION_SYSTEM_MAX_DAYS):
        raise ToolError(f"The billing system allows at most {EXTENSION_SYSTEM_MAX_DAYS} days past the original due date.")
    await db.update("invoices", inv["id"], due_date=new, status="open")
    await db.insert("billing_extensions", id=await _new_id(db, "billing_extensions", "EXT"), invoice_id=inv["id"],
                    policy_id=inv["policy_id"], previous_due_date=inv["due_date"], new_due_date=new,
                    granted_on=_today(db), reason=reason)
    return {"invoice_id": inv["id"], "previous_due_date": inv["due_date"], "new_due_date": new,
            "balance": _balance(inv)}


@write
async def create_payment_arrangement(db: Database, policy_id: str, installments: int) -> dict[str, Any]:
    """Split a policy's whole past-due balance (premium and unwaived late fees) into 2 to 4
    equal monthly instalments. The first is due in 14 days, then every 30 days; the past-due
    invoices move into the arrangement. One active arrangement per policy.

    Args:
        policy_id: The policy number, like "POL-10001".
        installments: The number of instalments, 2 to 4.
    """
    p = await _policy(db, policy_id)
    if p["status"] != "active":
        raise ToolError(f"Policy {p['id']} is {p['status']}.")
    if not 2 <= installments <= 4:
        raise ToolError("An arrangement has 2 to 4 instalments.")
    if await db.scalar("SELECT id FROM payment_arrangements WHERE policy_id = :p AND status = 'active'", p=p["id"]):
        raise ToolError(f"Policy {p['id']} already has an active payment arrangement.")
    past_due = await db.all(
        "SELECT * FROM invoices WHERE policy_id = :p AND status = 'past_due' ORDER BY due_date, id", p=p["id"]
    )
    if not past_due:
        raise ToolError(f"Policy {p['id']} has no past-due balance.")
    total = money(sum(_balance(i) for i in past_due))
    arr_id = await _new_id(db, "payment_arrangements", "PA")
    await db.insert("payment_arrangements", id=arr_id, policy_id=p["id"], total_amount=total,
                    installments=installments, status="active", created_on=_today(db))
    for i in past_due:
        await db.update("invoices", i["id"], status="in_arrangement", arrangement_id=arr_id)
    each = money(int(total * 100 / installments) / 100)
    schedule = []
    for k in range(installments):
        amt = each if k < installments - 1 else money(total - each * (installments - 1))
        due = _plus_days(_today(db), ARRANGEMENT_FIRST_DUE_DAYS + ARRANGEMENT_SPACING_DAYS * k)
        inv_id = await _new_id(db, "invoices", "INV")
        await db.insert("invoices", id=inv_id, policy_id=p["id"], kind="arrangement", amount=amt, late_fee=0,
                        late_fee_waived=False, amount_paid=0, original_due_date=due, due_date=due, status="open",
                        arrangement_id=arr_id)
        schedule.append({"invoice_id": inv_id, "amount": amt, "due_date": due})
    return {"arrangement_id": arr_id, "policy_id": p["id"], "total_amount": total,
            "covers_invoices": [i["id"] for i in past_due], "schedule": schedule}


@write
async def set_autopay(db: Database, policy_id: str, enabled: bool, payment_method_id: str | None = None) -> dict[str, Any]:
    """Turn autopay on (with an active payment method of the policyholder) or off.

    Args:
        policy_id: The policy number, like "POL-10001".
        enabled: True to charge invoices automatically on their due date, False to stop.
        payment_method_id: The payment method to charge, required to turn autopay on, like "PM-0042".
    """
    p = await _policy(db, policy_id)
    if p["status"] != "active":
        raise ToolError(f"Policy {p['id']} is {p['status']}.")
    if not enabled:
        await db.update("policies", p["id"], autopay=False, autopay_payment_method_id=None)
        return {"policy_id": p["id"], "autopay": False}
    if not payment_method_id:
        raise ToolError("Name the payment method autopay should charge.")
    pm = await db.get("payment_methods", payment_method_id.strip().upper())
    if pm is None or pm["policyholder_id"] != p["policyholder_id"]:
        raise ToolError(f"{payment_method_id!r} is not a payment method of this policyholder.")
    if pm["status"] != "active":
        raise ToolError(f"{pm['label']} is {pm['status']}; choose an active payment method.")
    await db.update("policies", p["id"], autopay=True, autopay_payment_method_id=pm["id"])
    return {"policy_id": p["id"], "autopay": True, "payment_method": pm["label"]}


# -- claims --------------------------------------------------------------------------------------


@read
async def list_claims(db: Database, policy_id: str) -> list[dict[str, Any]]:
    """A policy's claims, newest loss first, open and closed.

    Args:
        policy_id: The policy number, like "POL-10001".
    """
    p = await _policy(db, policy_id)
    rows = await db.all("SELECT * FROM claims WHERE policy_id = :p ORDER BY loss_date DESC, id DESC", p=p["id"])
    return [await _claim_view(db, c) for c in rows]


@read
async def get_claim(db: Database, claim_id: str) -> dict[str, Any]:
    """One claim: status, loss, vehicle, driver, adjuster, deductible, rental authorised,
    payments, and the tickets linked to it.

    Args:
        claim_id: The claim id, like "CLM-10042".
    """
    c = await _claim(db, claim_id)
    out = await _claim_view(db, c)
    tickets = await db.all("SELECT * FROM tickets WHERE claim_id = :c ORDER BY id", c=c["id"])
    out["tickets"] = [{"ticket_id": t["id"], "status": t["status"]} for t in tickets]
    return out


@write
async def file_claim(
    db: Database,
    policy_id: str,
    vehicle_id: str,
    loss_date: str,
    loss_type: LossType,
    description: str,
    driver_id: str | None = None,
    injuries: bool = False,
    contact_phone: str | None = None,
) -> dict[str, Any]:
    """Open a claim (first notice of loss). The policy must have been in force on the loss
    date and the vehicle insured on it; a collision claim names the driver. The deductible
    of the matching coverage is fixed on the claim. The claim starts `reported`, without
    an adjuster.

    Args:
        policy_id: The policy number, like "POL-10001".
        vehicle_id: The insured vehicle involved, like "VEH-10042".
        loss_date: The date of the loss, YYYY-MM-DD.
        loss_type: collision (hit another car or object), comprehensive (theft, vandalism,
            glass, weather, fire, animal strike), or liability (only damage or injury to others).
        description: What happened, in the customer's words.
        driver_id: The listed driver who was driving, like "DRV-10042"; none for a parked vehicle.
        injuries: Whether anyone was hurt.
        contact_phone: A phone number for the adjuster, if not the policyholder's.
    """
    p = await _policy(db, policy_id)
    loss = _date(loss_date, "Loss date")
    if loss > _today(db):
        raise ToolError("The loss date cannot be in the future.")
    ended = p["cancelled_on"] or p["expiration_date"]
    if not p["effective_date"] <= loss < ended:
        raise ToolError(f"Policy {p['id']} was not in force on {loss} (term {p['effective_date']} to {ended}).")
    v = await db.get("vehicles", vehicle_id.strip().upper())
    if v is None or v["policy_id"] != p["id"] or not (v["added_on"] <= loss and (v["removed_on"] is None or loss < v["removed_on"])):
        raise ToolError(f"Vehicle {vehicle_id!r} was not insured on policy {p['id']} on {loss}.")
    d = None
    if driver_id:
        d = await db.get("drivers", driver_id.strip().upper())
        if d is None or d["policy_id"] != p["id"]:
            raise ToolError(f"Policy {p['id']} has no driver {driver_id!r}.")
    elif loss_type == "collision":
        raise ToolError("A collision claim names the driver (driver_id).")
    deductible = None
    if loss_type in ("collision", "comprehensive"):
        cov = await db.one(
            "SELECT * FROM coverages WHERE policy_id = :p AND coverage_type = :t AND effective_date <= :d "
            "AND (removed_on IS NULL OR removed_on > :d)",
            p=p["id"], t=loss_type, d=loss,
        )
        deductible = cov["deductible"] if cov else None
    h = await _policyholder(db, p["policyholder_id"])
    claim_id = await _new_id(db, "claims", "CLM")
    row = await db.insert(
        "claims", id=claim_id, policy_id=p["id"], vehicle_id=v["id"], driver_id=d["id"] if d else None,
        loss_date=loss, reported_on=_today(db), loss_type=loss_type, injuries=bool(injuries), description=description,
        status="reported", adjuster_id=None, deductible=deductible,
        contact_phone=us_phone(contact_phone) if contact_phone else h["phone"], at_fault=None, rental_days=0,
        rental_daily_limit=None, paid_amount=0,
    )
    return await _claim_view(db, row)


@read
async def find_adjusters(db: Database, state: str, specialty: Specialty) -> list[dict[str, Any]]:
    """Active adjusters of one specialty in one state, with how many open claims each has
    and their capacity.

    Args:
        state: The two-letter state of the policy, like "OR".
        specialty: collision, comprehensive, liability, or injury (any claim with injuries).
    """
    rows = await db.all(
        "SELECT a.*, (SELECT COUNT(*) FROM claims c WHERE c.adjuster_id = a.id AND c.status = 'assigned') AS open_claims "
        "FROM adjusters a WHERE a.state = :s AND a.specialty = :sp AND a.active = :yes ORDER BY a.id",
        s=state.strip().upper(), sp=specialty, yes=True,
    )
    return [{"adjuster_id": a["id"], "name": f"{a['first_name']} {a['last_name']}", "specialty": a["specialty"],
             "state": a["state"], "open_claims": a["open_claims"], "max_open_claims": a["max_open_claims"],
             "has_capacity": a["open_claims"] < a["max_open_claims"], "phone": a["phone"]} for a in rows]


@write
async def assign_adjuster(db: Database, claim_id: str, adjuster_id: str) -> dict[str, Any]:
    """Assign an adjuster to a newly reported claim (status becomes `assigned`). The adjuster
    must be active, work in the policy's state and have capacity.

    Args:
        claim_id: The claim id, like "CLM-10042".
        adjuster_id: The adjuster, like "ADJ-101" (find_adjusters lists them).
    """
    c = await _claim(db, claim_id)
    if c["status"] != "reported":
        raise ToolError(f"Claim {c['id']} is {c['status']}; only a newly reported claim gets an adjuster.")
    a = await db.get("adjusters", adjuster_id.strip().upper())
    if a is None or not a["active"]:
        raise ToolError(f"No active adjuster {adjuster_id!r}.")
    p = await _policy(db, c["policy_id"])
    if a["state"] != p["state"]:
        raise ToolError(f"Adjuster {a['id']} works in {a['state']}; the policy is in {p['state']}.")
    load = await db.scalar("SELECT COUNT(*) FROM claims WHERE adjuster_id = :a AND status = 'assigned'", a=a["id"])
    if load >= a["max_open_claims"]:
        raise ToolError(f"Adjuster {a['id']} is at capacity ({load} open claims).")
    await db.update("claims", c["id"], adjuster_id=a["id"], status="assigned")
    return {"claim_id": c["id"], "status": "assigned", "adjuster_id": a["id"],
            "adjuster": f"{a['first_name']} {a['last_name']}", "adjuster_phone": a["phone"]}


@write
async def update_claim(
    db: Database,
    claim_id: str,
    contact_phone: str | None = None,
    description: str | None = None,
    loss_date: str | None = None,
    vehicle_id: str | None = None,
    driver_id: str | None = None,
) -> dict[str, Any]:
    """Correct details of an open claim: contact phone, description, loss date, vehicle or
    driver. Give only what changes.

    Args:
        claim_id: The claim id, like "CLM-10042".
        contact_phone: The phone number the adjuster should call.
        description: The updated account of what happened.
        loss_date: The corrected loss date, YYYY-MM-DD.
        vehicle_id: The corrected vehicle, like "VEH-10042".
        driver_id: The corrected driver, like "DRV-10042".
    """
    c = await _claim(db, claim_id)
    if c["status"] not in OPEN_CLAIM:
        raise ToolError(f"Claim {c['id']} is {c['status']}; closed claims cannot be changed.")
    p = await _policy(db, c["policy_id"])
    changes: dict[str, Any] = {}
    if contact_phone:
        changes["contact_phone"] = us_phone(contact_phone)
    if description:
        changes["description"] = description
    loss = _date(loss_date, "Loss date") if loss_date else c["loss_date"]
    if loss_date:
        ended = p["cancelled_on"] or p["expiration_date"]
        if loss > _today(db) or not p["effective_date"] <= loss < ended:
            raise ToolError(f"Policy {p['id']} was not in force on {loss}.")
        changes["loss_date"] = loss
    veh_id = vehicle_id.strip().upper() if vehicle_id else c["vehicle_id"]
    if vehicle_id or loss_date:
        v = await db.get("vehicles", veh_id)
        if v is None or v["policy_id"] != p["id"] or not (
            v["added_on"] <= loss and (v["removed_on"] is None or loss < v["removed_on"])
        ):
            raise ToolError(f"Vehicle {veh_id} was not insured on policy {p['id']} on {loss}.")
        if vehicle_id:
            changes["vehicle_id"] = veh_id
    if driver_id:
        d = await db.get("drivers", driver_id.strip().upper())
        if d is None or d["policy_id"] != p["id"]:
            raise ToolError(f"Policy {p['id']} has no driver {driver_id!r}.")
        changes["driver_id"] = d["id"]
    if not changes:
        raise ToolError("Give at least one detail to change.")
    await db.update("claims", c["id"], **changes)
    return await _claim_view(db, await db.get("claims", c["id"]))


@write
async def authorize_rental(db: Database, claim_id: str, days: int) -> dict[str, Any]:
    """Authorise rental-car reimbursement on an open collision or comprehensive claim, at the
    policy's rental daily limit. The policy must have had rental reimbursement on the loss
    date; days add up to at most the coverage's maximum per claim (30).

    Args:
        claim_id: The claim id, like "CLM-10042".
        days: Rental days to authorise now.
    """
    c = await _claim(db, claim_id)
    if c["status"] not in OPEN_CLAIM:
        raise ToolError(f"Claim {c['id']} is {c['status']}.")
    if c["loss_type"] not in ("collision", "comprehensive"):
        raise ToolError("Rental reimbursement applies to collision and comprehensive claims only.")
    cov = await db.one(
        "SELECT * FROM coverages WHERE policy_id = :p AND coverage_type = 'rental_reimbursement' "
        "AND effective_date <= :d AND (removed_on IS NULL OR removed_on > :d)",
        p=c["policy_id"], d=c["loss_date"],
    )
    if cov is None:
        raise ToolError(f"Policy {c['policy_id']} had no rental reimbursement coverage on the loss date {c['loss_date']}.")
    if days < 1:
        raise ToolError("Authorise at least one day.")
    total = c["rental_days"] + days
    if total > cov["max_days"]:
        raise ToolError(f"Rental is limited to {cov['max_days']} days per claim; {c['rental_days']} already authorised.")
    limit = money(cov["daily_limit"])
    await db.update("claims", c["id"], rental_days=total, rental_daily_limit=limit)
    return {"claim_id": c["id"], "rental_days_authorized": total, "daily_limit": limit,
            "max_reimbursement": money(total * limit)}


@write
async def withdraw_claim(db: Database, claim_id: str, reason: str) -> dict[str, Any]:
    """Withdraw an open claim at the policyholder's request (only if nothing was paid on it).

    Args:
        claim_id: The claim id, like "CLM-10042".
        reason: Why, in the customer's words.
    """
    c = await _claim(db, claim_id)
    if c["status"] not in OPEN_CLAIM:
        raise ToolError(f"Claim {c['id']} is {c['status']}.")
    if money(c["paid_amount"]) > 0:
        raise ToolError(f"Claim {c['id']} has payments; it cannot be withdrawn.")
    await db.update("claims", c["id"], status="withdrawn", closed_on=_today(db), withdraw_reason=reason)
    return {"claim_id": c["id"], "status": "withdrawn", "closed_on": _today(db)}
