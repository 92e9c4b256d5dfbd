"""The banking tools: what a neobank support agent can look up and change.

Which rules live where (policy.md states all of them to the agent):
- Enforced here (the tool refuses with a `ToolError`): records must exist and belong
  together; money never leaves a frozen or closed account or goes beyond the available
  balance; savings accounts allow six outgoing transfers a month; external transfers
  above the KYC level's daily limit need an approved supervisor approval; card limits
  never exceed the level's maximum; lost or stolen cards stay blocked; one dispute per
  transaction and one provisional credit per dispute, above $500 only with an approval;
  a fee is refunded at most once; only scheduled transfers can be cancelled.
- Left to the agent, and caught by the state check: identity verification, which
  actions need a verified KYC status, dispute windows and reasons, which disputes get a
  provisional credit, fee-refund allowances and when to ask a supervisor, replacement-fee
  waivers, which holds may be released, KYC upgrade requirements, ticket notes,
  escalations and closing rules.

SQL is written here with named parameters; agent values only travel as parameters.
Every timestamp and date comes from `db.now`, the domain clock.
"""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any, Literal

from tb_env.components import identity
from tb_env.components.contact import update_phone_tool
from tb_env.domain.database import Database
from tb_env.domain.tool import read, write
from tb_env.errors import ToolError

# Records created during an episode are numbered from here (CD-9001, AP-9001, T-9001...), so
# the ids in tasks' golden calls do not depend on how many rows the seed generates.
NEW_ID_START = 9001
PROVISIONAL_CREDIT_LIMIT = 500.00  # provisional credits above this need a supervisor approval
SAVINGS_MONTHLY_WITHDRAWALS = 6  # outgoing transfers per calendar month from a savings account
REPLACEMENT_FEE = "card_replacement"
EXPEDITED_FEE = "expedited_card_shipping"
DISPUTABLE = ("card_purchase", "atm_withdrawal")

CardStatus = Literal["active", "frozen", "lost", "stolen", "closed", "pending_activation"]
DisputeReason = Literal["unauthorized", "duplicate_charge", "wrong_amount", "not_received", "cancelled_subscription"]
EvidenceKind = Literal["receipt", "merchant_correspondence", "cancellation_confirmation", "tracking", "police_report"]
ApprovalKind = Literal["transfer_limit", "fee_refund", "provisional_credit"]


# -- helpers -----------------------------------------------------------------------------------


def _money(value: Any) -> float:
    return round(float(value or 0) + 1e-9, 2)


def _today(db: Database) -> str:
    return db.now[:10]


def _days_after(db: Database, days: int) -> str:
    return (date.fromisoformat(_today(db)) + timedelta(days=days)).isoformat()


def _date_arg(value: str, what: str) -> str:
    try:
        return date.fromisoformat(value.strip()).isoformat()
    except ValueError:
        raise ToolError(f"{what} must be a date written YYYY-MM-DD, not {value!r}.") from None


async def _new_id(db: Database, table: str, prefix: str) -> str:
    return await db.next_id(table, prefix, start=NEW_ID_START)


async def _get(db: Database, table: str, key: str, what: str, example: str) -> dict[str, Any]:
    row = await db.get(table, key.strip())
    if row is None:
        raise ToolError(f"No {what} with id {key!r}. {what.capitalize()} ids look like '{example}'.")
    return row


async def _customer(db: Database, customer_id: str) -> dict[str, Any]:
    return await _get(db, "customers", customer_id, "customer", "CU-0042")


async def _account(db: Database, account_id: str) -> dict[str, Any]:
    return await _get(db, "accounts", account_id, "account", "AC-0042")


async def _card(db: Database, card_id: str) -> dict[str, Any]:
    return await _get(db, "cards", card_id, "card", "CD-0042")


async def _transaction(db: Database, transaction_id: str) -> dict[str, Any]:
    return await _get(db, "transactions", transaction_id, "transaction", "TX-00042")


async def _dispute(db: Database, dispute_id: str) -> dict[str, Any]:
    return await _get(db, "disputes", dispute_id, "dispute", "DP-00042")



async def _limits(db: Database, level: int) -> dict[str, Any]:
    row = await db.get("kyc_limits", int(level))
    assert row is not None, f"kyc_limits has no level {level}"
    return row


async def _fee_amount(db: Database, code: str) -> float:
    return _money(await db.scalar("SELECT amount FROM fee_schedule WHERE code = :c", c=code))


async def _holds_total(db: Database, account_id: str) -> float:
    total = await db.scalar(
        "SELECT COALESCE(SUM(amount), 0) FROM holds WHERE account_id = :a AND status = 'active'", a=account_id
    )
    return _money(total)


async def _post(
    db: Database,
    account: dict[str, Any],
    kind: str,
    amount: float,
    description: str,
    *,
    status: str = "posted",
    fee_code: str | None = None,
    reference_id: str | None = None,
    card_id: str | None = None,
) -> dict[str, Any]:
    """Book a signed amount on an account: a transaction row and the new ledger balance."""
    amount = _money(amount)
    current = await db.get("accounts", account["id"])
    assert current is not None
    await db.update("accounts", account["id"], balance=_money(_money(current["balance"]) + amount))
    return await db.insert(
        "transactions",
        id=await _new_id(db, "transactions", "TX"),
        account_id=account["id"],
        card_id=card_id,
        posted_on=_today(db),
        kind=kind,
        merchant=None,
        fee_code=fee_code,
        amount=amount,
        status=status,
        reference_id=reference_id,
        description=description,
    )


async def _external_used(db: Database, customer_id: str, day: str) -> float:
    """External transfers of a customer that move money on `day` (sent, scheduled or done)."""
    total = await db.scalar(
        "SELECT COALESCE(SUM(amount), 0) FROM transfers WHERE customer_id = :c AND kind = 'external' "
        "AND scheduled_for = :d AND status IN ('scheduled', 'pending', 'completed')",
        c=customer_id,
        d=day,
    )
    return _money(total)


async def _fee_refunds_this_year(db: Database, customer_id: str, today: str) -> int:
    n = await db.scalar(
        "SELECT COUNT(*) FROM fee_refunds WHERE customer_id = :c AND refunded_on >= :start AND refunded_on <= :end",
        c=customer_id,
        start=f"{today[:4]}-01-01",
        end=f"{today[:4]}-12-31",
    )
    return int(n or 0)


async def _approval_for(
    db: Database, approval_id: str, customer_id: str, kind: str, reference_id: str, amount: float
) -> dict[str, Any]:
    """An approval that may be used for this request, or a ToolError saying why not."""
    a = await db.get("approvals", approval_id.strip())
    if a is None or a["customer_id"] != customer_id or a["kind"] != kind or a["reference_id"] != reference_id:
        raise ToolError(f"{approval_id!r} is not a {kind} approval for {reference_id}.")
    if a["status"] != "approved":
        raise ToolError(f"Approval {a['id']} was {a['status']}; the request cannot go ahead.")
    if _money(amount) > _money(a["amount"]):
        raise ToolError(f"Approval {a['id']} covers {_money(a['amount']):.2f}, less than {_money(amount):.2f}.")
    return a


def _card_view(c: dict[str, Any]) -> dict[str, Any]:
    return {
        "card_id": c["id"],
        "account_id": c["account_id"],
        "kind": c["kind"],
        "last4": c["last4"],
        "status": c["status"],
        "daily_spend_limit": _money(c["daily_spend_limit"]),
        "atm_daily_limit": _money(c["atm_daily_limit"]),
        "issued_on": c["issued_on"],
        "expires": c["expires"],
        "reported_on": c["reported_on"],
        "replaces_card_id": c["replaces_card_id"],
        "shipping": c["shipping"],
    }


def _tx_view(t: dict[str, Any], card_last4: str | None = None) -> dict[str, Any]:
    return {
        "transaction_id": t["id"],
        "account_id": t["account_id"],
        "posted_on": t["posted_on"],
        "kind": t["kind"],
        "merchant": t["merchant"],
        "fee_code": t["fee_code"],
        "amount": _money(t["amount"]),
        "status": t["status"],
        "card_last4": card_last4,
        "reference_id": t["reference_id"],
        "description": t["description"],
    }


def _dispute_view(d: dict[str, Any]) -> dict[str, Any]:
    return {
        "dispute_id": d["id"],
        "transaction_id": d["transaction_id"],
        "account_id": d["account_id"],
        "reason": d["reason"],
        "amount": _money(d["amount"]),
        "status": d["status"],
        "provisional_credit": _money(d["provisional_credit"]),
        "approval_id": d["approval_id"],
        "opened_on": d["opened_on"],
        "closed_on": d["closed_on"],
        "description": d["description"],
    }


def _transfer_view(t: dict[str, Any]) -> dict[str, Any]:
    return {
        "transfer_id": t["id"],
        "kind": t["kind"],
        "from_account_id": t["from_account_id"],
        "to_account_id": t["to_account_id"],
        "payee_id": t["payee_id"],
        "amount": _money(t["amount"]),
        "status": t["status"],
        "scheduled_for": t["scheduled_for"],
        "created_on": t["created_on"],
        "cancelled_on": t["cancelled_on"],
        "approval_id": t["approval_id"],
        "memo": t["memo"],
    }



def _approval_view(a: dict[str, Any]) -> dict[str, Any]:
    return {
        "approval_id": a["id"],
        "customer_id": a["customer_id"],
        "kind": a["kind"],
        "reference_id": a["reference_id"],
        "amount": _money(a["amount"]),
        "status": a["status"],
        "decision_note": a["decision_note"],
    }


# -- general information (no verification needed) ----------------------------------------------


@read
async def get_fee_schedule(db: Database) -> list[dict[str, Any]]:
    """The public fee schedule: every fee code, what it is for, its amount and notes.
    General information; needs no verification."""
    rows = await db.all("SELECT * FROM fee_schedule ORDER BY code")
    return [{"code": f["code"], "description": f["description"], "amount": _money(f["amount"]), "notes": f["notes"]}
            for f in rows]


@read
async def get_kyc_limits(db: Database) -> list[dict[str, Any]]:
    """What each KYC level allows: external transfers per day, the highest card spend and ATM
    limits, and courtesy fee refunds per calendar year. General information; needs no
    verification."""
    rows = await db.all("SELECT * FROM kyc_limits ORDER BY level")
    return [{"level": r["level"], "name": r["name"], "external_daily_limit": _money(r["external_daily_limit"]),
             "card_daily_spend_max": _money(r["card_daily_spend_max"]), "atm_daily_max": _money(r["atm_daily_max"]),
             "courtesy_fee_refunds_per_year": r["courtesy_fee_refunds"]} for r in rows]


# -- customers and identity --------------------------------------------------------------------


@read
async def find_customer(
    db: Database,
    email: str | None = None,
    phone: str | None = None,
    first_name: str | None = None,
    last_name: str | None = None,
    date_of_birth: str | None = None,
) -> list[dict[str, Any]]:
    """Look up customers by email, by phone, or by name. Returns ids and names only.

    Use it to get the customer id that `verify_identity` needs. Give `email`, or `phone`,
    or `last_name` with `first_name` and/or `date_of_birth`. Several customers can share a
    name: add the date of birth to narrow the search.

    Args:
        email: The email address on the profile.
        phone: The phone number on the profile (any punctuation).
        first_name: The customer's first name.
        last_name: The customer's last name.
        date_of_birth: The customer's date of birth, YYYY-MM-DD.
    """
    if email:
        rows = await db.all(
            "SELECT id, first_name, last_name FROM customers WHERE LOWER(email) = LOWER(:e) ORDER BY id", e=email.strip()
        )
    elif phone:
        digits = re.sub(r"\D", "", phone)[-10:]
        formatted = f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"
        rows = await db.all("SELECT id, first_name, last_name FROM customers WHERE phone = :p ORDER BY id", p=formatted)
    elif last_name and (first_name or date_of_birth):
        where, params = identity.name_filter(last_name, first_name)
        sql = f"SELECT id, first_name, last_name FROM customers WHERE {where}"
        if date_of_birth:
            sql += " AND date_of_birth = :dob"
            params["dob"] = _date_arg(date_of_birth, "date_of_birth")
        rows = await db.all(sql + " ORDER BY id", **params)
    else:
        raise ToolError("Give an email, a phone number, or a last name with a first name and/or date of birth.")
    return [{"customer_id": r["id"], "first_name": r["first_name"], "last_name": r["last_name"]} for r in rows]


@write
async def verify_identity(
    db: Database, customer_id: str, date_of_birth: str, zip_code: str | None = None, card_last4: str | None = None
) -> dict[str, Any]:
    """Verify that the person you are talking to owns a customer profile, and record it.

    Needs the date of birth plus either the zip code of the mailing address or the last 4
    digits of one of the customer's cards, all as given by the customer. Fails if any
    given detail does not match. Verifying the same customer again is harmless.

    Args:
        customer_id: The profile to verify, from find_customer (like "CU-0042").
        date_of_birth: The date of birth the customer gave, YYYY-MM-DD.
        zip_code: The mailing-address zip code the customer gave.
        card_last4: The last 4 digits of one of their cards, as the customer gave them.
    """
    c = await _customer(db, customer_id)
    if not zip_code and not card_last4:
        raise ToolError("Verification needs the zip code or a card's last 4 digits, together with the date of birth.")
    ok = _date_arg(date_of_birth, "date_of_birth") == c["date_of_birth"]
    if zip_code:
        ok = ok and zip_code.strip() == c["zip_code"]
    if card_last4:
        found = await db.scalar(
            "SELECT id FROM cards WHERE customer_id = :c AND last4 = :l", c=c["id"], l=card_last4.strip()[-4:]
        )
        ok = ok and found is not None
    identity.check(ok)
    await identity.record_verification(db, "customer_id", c["id"], "dob_zip" if zip_code else "dob_card",
                                       start=NEW_ID_START)
    return {"customer_id": c["id"], "name": f"{c['first_name']} {c['last_name']}", "verified": True}


@read
async def get_customer(db: Database, customer_id: str) -> dict[str, Any]:
    """A verified customer's profile: contact details, mailing address, KYC status and level,
    and their accounts (with balances) and cards.

    Args:
        customer_id: The customer id, like "CU-0042".
    """
    c = await _customer(db, customer_id)
    accounts = await db.all("SELECT * FROM accounts WHERE customer_id = :c ORDER BY id", c=c["id"])
    cards = await db.all("SELECT * FROM cards WHERE customer_id = :c ORDER BY id", c=c["id"])
    out_accounts = []
    for a in accounts:
        holds = await _holds_total(db, a["id"])
        out_accounts.append({"account_id": a["id"], "kind": a["kind"], "nickname": a["nickname"],
                             "number_last4": a["number_last4"], "status": a["status"],
                             "balance": _money(a["balance"]), "available_balance": _money(_money(a["balance"]) - holds)})
    limits = await _limits(db, c["kyc_level"])
    return {
        "customer_id": c["id"],
        "first_name": c["first_name"],
        "last_name": c["last_name"],
        "email": c["email"],
        "phone": c["phone"],
        "date_of_birth": c["date_of_birth"],
        "mailing_address": {"line1": c["address_line1"], "city": c["city"], "state": c["state"], "zip_code": c["zip_code"]},
        "kyc_status": c["kyc_status"],
        "kyc_level": c["kyc_level"],
        "kyc_level_name": limits["name"],
        "joined_on": c["joined_on"],
        "accounts": out_accounts,
        "cards": [_card_view(x) for x in cards],
    }


update_customer_phone = update_phone_tool(
    table="customers", id_param="customer_id", noun="customer", example="CU-0042", lookup=_customer
)


@write
async def update_mailing_address(
    db: Database, customer_id: str, address_line1: str, city: str, state: str, zip_code: str
) -> dict[str, Any]:
    """Change a verified customer's mailing address (cards are shipped there).

    Args:
        customer_id: The customer id, like "CU-0042".
        address_line1: Street and number, like "12 Oak St".
        city: The city.
        state: The two-letter state code, like "OR".
        zip_code: The 5-digit zip code.
    """
    c = await _customer(db, customer_id)
    if not re.fullmatch(r"\d{5}", zip_code.strip()):
        raise ToolError(f"{zip_code!r} is not a 5-digit zip code.")
    if not re.fullmatch(r"[A-Za-z]{2}", state.strip()):
        raise ToolError(f"{state!r} is not a two-letter state code.")
    values = {"address_line1": address_line1.strip(), "city": city.strip(), "state": state.strip().upper(),
              "zip_code": zip_code.strip()}
    await db.update("customers", c["id"], **values)
    return {"customer_id": c["id"], "mailing_address": values}


# -- KYC -----------------------------------------------------------------------------------------


@read
async def get_kyc_status(db: Database, customer_id: str) -> dict[str, Any]:
    """A verified customer's KYC status and level, what that level allows, and their
    identity documents (type, review status, expiry).

    Args:
        customer_id: The customer id, like "CU-0042".
    """
    c = await _customer(db, customer_id)
    limits = await _limits(db, c["kyc_level"])
    docs = await db.all("SELECT * FROM kyc_documents WHERE customer_id = :c ORDER BY id", c=c["id"])
    return {
        "customer_id": c["id"],
        "kyc_status": c["kyc_status"],
        "kyc_level": c["kyc_level"],
        "kyc_level_name": limits["name"],
        "joined_on": c["joined_on"],
        "limits": {"external_daily_limit": _money(limits["external_daily_limit"]),
                   "card_daily_spend_max": _money(limits["card_daily_spend_max"]),
                   "atm_daily_max": _money(limits["atm_daily_max"]),
                   "courtesy_fee_refunds_per_year": limits["courtesy_fee_refunds"]},
        "documents": [{"document_id": d["id"], "doc_type": d["doc_type"], "status": d["status"],
                       "submitted_on": d["submitted_on"], "expires_on": d["expires_on"]} for d in docs],
    }


@write
async def upgrade_kyc_level(db: Database, customer_id: str, level: int) -> dict[str, Any]:
    """Raise a customer's KYC level (2 standard, 3 premium) once the policy's requirements
    for that level are met. Levels are never lowered here.

    Args:
        customer_id: The customer id, like "CU-0042".
        level: The new level, 2 or 3.
    """
    c = await _customer(db, customer_id)
    if level not in (2, 3):
        raise ToolError("The new level must be 2 or 3.")
    if level <= c["kyc_level"]:
        raise ToolError(f"Customer {c['id']} is already at level {c['kyc_level']}.")
    await db.update("customers", c["id"], kyc_level=level)
    limits = await _limits(db, level)
    return {"customer_id": c["id"], "kyc_level": level, "kyc_level_name": limits["name"],
            "external_daily_limit": _money(limits["external_daily_limit"])}


# -- accounts, holds and transactions ------------------------------------------------------------


@read
async def get_account(db: Database, account_id: str) -> dict[str, Any]:
    """One account: kind, status, ledger balance, available balance (balance less active
    holds) and its holds (active and released).

    Args:
        account_id: The account id, like "AC-0042".
    """
    a = await _account(db, account_id)
    holds = await db.all("SELECT * FROM holds WHERE account_id = :a ORDER BY placed_on DESC, id DESC", a=a["id"])
    active = _money(sum(_money(h["amount"]) for h in holds if h["status"] == "active"))
    return {
        "account_id": a["id"],
        "customer_id": a["customer_id"],
        "kind": a["kind"],
        "nickname": a["nickname"],
        "number_last4": a["number_last4"],
        "status": a["status"],
        "opened_on": a["opened_on"],
        "balance": _money(a["balance"]),
        "active_holds_total": active,
        "available_balance": _money(_money(a["balance"]) - active),
        "holds": [{"hold_id": h["id"], "kind": h["kind"], "amount": _money(h["amount"]), "description": h["description"],
                   "placed_on": h["placed_on"], "release_on": h["release_on"], "status": h["status"],
                   "released_on": h["released_on"]} for h in holds],
    }


@write
async def release_hold(db: Database, hold_id: str, reason: str) -> dict[str, Any]:
    """Release an active hold early, making its amount available again.

    Args:
        hold_id: The hold id from get_account, like "HD-0042".
        reason: Why it is released, in a sentence.
    """
    h = await _get(db, "holds", hold_id, "hold", "HD-0042")
    if h["status"] != "active":
        raise ToolError(f"Hold {h['id']} is already {h['status']}.")
    await db.update("holds", h["id"], status="released", released_on=_today(db))
    a = await _account(db, h["account_id"])
    holds = await _holds_total(db, a["id"])
    return {"hold_id": h["id"], "status": "released", "amount": _money(h["amount"]), "account_id": a["id"],
            "available_balance": _money(_money(a["balance"]) - holds)}


@read
async def list_transactions(
    db: Database,
    account_id: str,
    kind: str | None = None,
    merchant: str | None = None,
    start_date: str | None = None,
    end_date: str | None = None,
) -> list[dict[str, Any]]:
    """An account's transactions, newest first (at most 100), optionally filtered. Amounts are
    signed: negative means money out. Each row says whether it is disputed (dispute_id) and,
    for fees, whether it was refunded (refunded).

    Args:
        account_id: The account id, like "AC-0042".
        kind: Only this kind: card_purchase, atm_withdrawal, deposit, transfer_in, transfer_out,
            fee, fee_refund, provisional_credit, provisional_credit_reversal, interest, merchant_refund.
        merchant: Only merchants whose name contains this text (case-insensitive).
        start_date: Only transactions posted on or after this date, YYYY-MM-DD.
        end_date: Only transactions posted on or before this date, YYYY-MM-DD.
    """
    a = await _account(db, account_id)
    sql = "SELECT * FROM transactions WHERE account_id = :a"
    params: dict[str, Any] = {"a": a["id"]}
    if kind:
        sql += " AND kind = :k"
        params["k"] = kind.strip()
    if merchant:
        sql += " AND LOWER(merchant) LIKE :m"
        params["m"] = f"%{merchant.strip().lower()}%"
    if start_date:
        sql += " AND posted_on >= :s"
        params["s"] = _date_arg(start_date, "start_date")
    if end_date:
        sql += " AND posted_on <= :e"
        params["e"] = _date_arg(end_date, "end_date")
    rows = await db.all(sql + " ORDER BY posted_on DESC, id DESC LIMIT 100", **params)
    cards = {c["id"]: c["last4"] for c in await db.all("SELECT id, last4 FROM cards WHERE account_id = :a", a=a["id"])}
    disputes = {d["transaction_id"]: d["id"] for d in await db.all(
        "SELECT id, transaction_id FROM disputes WHERE account_id = :a", a=a["id"])}
    refunded = {r["fee_transaction_id"] for r in await db.all(
        "SELECT fr.fee_transaction_id FROM fee_refunds fr JOIN transactions t ON t.id = fr.fee_transaction_id "
        "WHERE t.account_id = :a", a=a["id"])}
    out = []
    for t in rows:
        view = _tx_view(t, cards.get(t["card_id"]))
        view["dispute_id"] = disputes.get(t["id"])
        if t["kind"] == "fee":
            view["refunded"] = t["id"] in refunded
        out.append(view)
    return out


@read
async def get_transaction(db: Database, transaction_id: str) -> dict[str, Any]:
    """One transaction, with its card, any dispute on it and, for a fee, its refund.

    Args:
        transaction_id: The transaction id, like "TX-00042".
    """
    t = await _transaction(db, transaction_id)
    card = await db.get("cards", t["card_id"]) if t["card_id"] else None
    view = _tx_view(t, card["last4"] if card else None)
    view["dispute_id"] = await db.scalar("SELECT id FROM disputes WHERE transaction_id = :t", t=t["id"])
    if t["kind"] == "fee":
        refund = await db.one("SELECT * FROM fee_refunds WHERE fee_transaction_id = :t", t=t["id"])
        view["refunded"] = refund is not None
        view["refunded_on"] = refund["refunded_on"] if refund else None
    return view


# -- cards ---------------------------------------------------------------------------------------


@read
async def list_cards(db: Database, customer_id: str) -> list[dict[str, Any]]:
    """All of a verified customer's cards, old ones included: status (active, frozen, lost,
    stolen, closed, pending_activation), limits, the date a card was reported lost or
    stolen, and which card a replacement replaces.

    Args:
        customer_id: The customer id, like "CU-0042".
    """
    c = await _customer(db, customer_id)
    rows = await db.all("SELECT * FROM cards WHERE customer_id = :c ORDER BY issued_on, id", c=c["id"])
    return [_card_view(x) for x in rows]


@write
async def freeze_card(db: Database, card_id: str) -> dict[str, Any]:
    """Temporarily freeze an active card: it declines every payment until it is unfrozen.

    Args:
        card_id: The card id, like "CD-0042".
    """
    c = await _card(db, card_id)
    if c["status"] == "frozen":
        return {"card_id": c["id"], "last4": c["last4"], "status": "frozen"}
    if c["status"] != "active":
        raise ToolError(f"Card {c['id']} is {c['status']}; only an active card can be frozen.")
    await db.update("cards", c["id"], status="frozen")
    return {"card_id": c["id"], "last4": c["last4"], "status": "frozen"}


@write
async def unfreeze_card(db: Database, card_id: str) -> dict[str, Any]:
    """Unfreeze a frozen card so it works again. Cards reported lost or stolen can never be
    unfrozen.

    Args:
        card_id: The card id, like "CD-0042".
    """
    c = await _card(db, card_id)
    if c["status"] in ("lost", "stolen"):
        raise ToolError(f"Card {c['id']} was reported {c['status']} and is permanently blocked; it cannot be unfrozen.")
    if c["status"] == "active":
        return {"card_id": c["id"], "last4": c["last4"], "status": "active"}
    if c["status"] != "frozen":
        raise ToolError(f"Card {c['id']} is {c['status']}; only a frozen card can be unfrozen.")
    await db.update("cards", c["id"], status="active")
    return {"card_id": c["id"], "last4": c["last4"], "status": "active"}


@write
async def report_card_lost_or_stolen(db: Database, card_id: str, kind: Literal["lost", "stolen"]) -> dict[str, Any]:
    """Block a card for good because it is lost, or stolen (which includes a card whose
    number is being used by someone else). This cannot be undone; a replacement is ordered
    separately with replace_card.

    Args:
        card_id: The card id, like "CD-0042".
        kind: lost, or stolen (also for a compromised card number).
    """
    c = await _card(db, card_id)
    if c["status"] not in ("active", "frozen", "pending_activation"):
        raise ToolError(f"Card {c['id']} is already {c['status']}.")
    await db.update("cards", c["id"], status=kind, reported_on=_today(db))
    return {"card_id": c["id"], "last4": c["last4"], "status": kind, "reported_on": _today(db)}


@write
async def replace_card(
    db: Database,
    card_id: str,
    reason: Literal["lost", "stolen", "damaged"],
    shipping: Literal["standard", "expedited"] = "standard",
    waive_replacement_fee: bool = False,
) -> dict[str, Any]:
    """Order a replacement for a physical card, shipped to the customer's mailing address.

    A lost or stolen card must be reported first (report_card_lost_or_stolen); a damaged
    card is closed when its replacement is ordered. The new card has a new number and the
    old card's limits, and arrives inactive (status pending_activation). Fees are charged to
    the card's account: the replacement fee ($10) unless `waive_replacement_fee` is true, and
    expedited delivery ($25) when chosen. Premium (level 3) customers are never charged.

    Args:
        card_id: The card being replaced, like "CD-0042".
        reason: lost, stolen or damaged.
        shipping: standard (5-7 business days) or expedited (2 business days).
        waive_replacement_fee: True when the policy waives the replacement fee.
    """
    c = await _card(db, card_id)
    if c["kind"] != "physical":
        raise ToolError(f"Card {c['id']} is a virtual card; virtual cards are not replaced.")
    if reason in ("lost", "stolen") and c["status"] != reason:
        raise ToolError(f"Card {c['id']} is {c['status']}; report it {reason} with report_card_lost_or_stolen first.")
    if reason == "damaged" and c["status"] not in ("active", "frozen"):
        raise ToolError(f"Card {c['id']} is {c['status']}; only an active or frozen card can be replaced as damaged.")
    if await db.scalar("SELECT id FROM cards WHERE replaces_card_id = :c", c=c["id"]):
        raise ToolError(f"Card {c['id']} has already been replaced.")
    customer = await _customer(db, c["customer_id"])
    account = await _account(db, c["account_id"])
    new_id = await _new_id(db, "cards", "CD")
    today = date.fromisoformat(_today(db))
    new = await db.insert(
        "cards",
        id=new_id,
        customer_id=c["customer_id"],
        account_id=c["account_id"],
        kind="physical",
        last4=f"{(int(new_id.split('-')[1]) * 7919 + int(c['last4'])) % 10000:04d}",
        status="pending_activation",
        daily_spend_limit=c["daily_spend_limit"],
        atm_daily_limit=c["atm_daily_limit"],
        issued_on=today.isoformat(),
        expires=f"{today.year + 4}-{today.month:02d}",
        replaces_card_id=c["id"],
        shipping=shipping,
    )
    if reason == "damaged":
        await db.update("cards", c["id"], status="closed")
    premium = customer["kyc_level"] >= 3
    fees = []
    if not waive_replacement_fee and not premium:
        fees.append((REPLACEMENT_FEE, "Replacement card fee"))
    if shipping == "expedited" and not premium:
        fees.append((EXPEDITED_FEE, "Expedited card delivery"))
    charged = []
    for code, label in fees:
        amount = await _fee_amount(db, code)
        await _post(db, account, "fee", -amount, label, fee_code=code, card_id=c["id"])
        charged.append({"fee_code": code, "amount": amount})
    return {
        "new_card": _card_view(new),
        "replaced_card_id": c["id"],
        "replaced_card_status": "closed" if reason == "damaged" else c["status"],
        "ships_to": f"{customer['address_line1']}, {customer['city']}, {customer['state']} {customer['zip_code']}",
        "delivery": "2 business days" if shipping == "expedited" else "5-7 business days",
        "fees_charged": charged,
        "total_fees": _money(sum(f["amount"] for f in charged)),
    }


@write
async def update_card_limits(
    db: Database, card_id: str, daily_spend_limit: float | None = None, atm_daily_limit: float | None = None
) -> dict[str, Any]:
    """Change a card's daily spend limit and/or daily ATM withdrawal limit. Neither may exceed
    the maximum of the customer's KYC level (get_kyc_limits). Give only the limit(s) to change.

    Args:
        card_id: The card id, like "CD-0042".
        daily_spend_limit: The new daily card spend limit in dollars.
        atm_daily_limit: The new daily ATM withdrawal limit in dollars.
    """
    c = await _card(db, card_id)
    if daily_spend_limit is None and atm_daily_limit is None:
        raise ToolError("Give daily_spend_limit and/or atm_daily_limit.")
    if c["status"] not in ("active", "frozen", "pending_activation"):
        raise ToolError(f"Card {c['id']} is {c['status']}; its limits cannot change.")
    customer = await _customer(db, c["customer_id"])
    limits = await _limits(db, customer["kyc_level"])
    values: dict[str, float] = {}
    if daily_spend_limit is not None:
        spend = _money(daily_spend_limit)
        if not 0 <= spend <= _money(limits["card_daily_spend_max"]):
            raise ToolError(f"The daily spend limit must be between 0 and {_money(limits['card_daily_spend_max']):.2f} "
                            f"at KYC level {customer['kyc_level']}.")
        values["daily_spend_limit"] = spend
    if atm_daily_limit is not None:
        atm = _money(atm_daily_limit)
        if c["kind"] == "virtual" and atm > 0:
            raise ToolError("Virtual cards cannot withdraw cash; their ATM limit stays 0.")
        if not 0 <= atm <= _money(limits["atm_daily_max"]):
            raise ToolError(f"The ATM limit must be between 0 and {_money(limits['atm_daily_max']):.2f} "
                            f"at KYC level {customer['kyc_level']}.")
        values["atm_daily_limit"] = atm
    await db.update("cards", c["id"], **values)
    return _card_view({**c, **values})


# -- disputes ------------------------------------------------------------------------------------


@read
async def list_disputes(db: Database, customer_id: str) -> list[dict[str, Any]]:
    """A verified customer's disputes, newest first.

    Args:
        customer_id: The customer id, like "CU-0042".
    """
    c = await _customer(db, customer_id)
    rows = await db.all("SELECT * FROM disputes WHERE customer_id = :c ORDER BY opened_on DESC, id DESC", c=c["id"])
    return [_dispute_view(d) for d in rows]


@read
async def get_dispute(db: Database, dispute_id: str) -> dict[str, Any]:
    """One dispute with its transaction, provisional credit and evidence.

    Args:
        dispute_id: The dispute id, like "DP-00042".
    """
    d = await _dispute(db, dispute_id)
    t = await db.get("transactions", d["transaction_id"])
    evidence = await db.all("SELECT * FROM dispute_evidence WHERE dispute_id = :d ORDER BY added_on, id", d=d["id"])
    return {**_dispute_view(d),
            "transaction": _tx_view(t) if t else None,
            "evidence": [{"kind": e["kind"], "description": e["description"], "added_on": e["added_on"]} for e in evidence]}


@write
async def create_dispute(
    db: Database, transaction_id: str, reason: DisputeReason, amount: float, description: str
) -> dict[str, Any]:
    """Open a dispute on a card purchase or ATM withdrawal. The dispute id is derived from the
    transaction id (TX-50123 -> DP-50123). Does not credit anything by itself.

    Args:
        transaction_id: The disputed transaction, like "TX-00042".
        reason: unauthorized, duplicate_charge, wrong_amount, not_received or cancelled_subscription.
        amount: The disputed amount in dollars (positive); at most the transaction amount.
        description: What happened, in the customer's words.
    """
    t = await _transaction(db, transaction_id)
    if t["kind"] not in DISPUTABLE:
        raise ToolError(f"Transaction {t['id']} is a {t['kind']}; only card purchases and ATM withdrawals can be disputed.")
    existing = await db.scalar("SELECT id FROM disputes WHERE transaction_id = :t", t=t["id"])
    if existing:
        raise ToolError(f"Transaction {t['id']} is already disputed in {existing}.")
    amount = _money(amount)
    if not 0 < amount <= _money(-_money(t["amount"])):
        raise ToolError(f"The disputed amount must be positive and at most {_money(-_money(t['amount'])):.2f}.")
    account = await _account(db, t["account_id"])
    d = await db.insert(
        "disputes",
        id="DP-" + t["id"].split("-", 1)[1],
        transaction_id=t["id"],
        customer_id=account["customer_id"],
        account_id=account["id"],
        reason=reason,
        amount=amount,
        status="open",
        provisional_credit=0,
        opened_on=_today(db),
        description=description,
    )
    return _dispute_view(d)


@write
async def add_dispute_evidence(db: Database, dispute_id: str, kind: EvidenceKind, description: str) -> dict[str, Any]:
    """Attach a piece of the customer's evidence to an open dispute.

    Args:
        dispute_id: The dispute id, like "DP-00042".
        kind: receipt, merchant_correspondence, cancellation_confirmation, tracking or police_report.
        description: What the evidence shows, in a sentence.
    """
    d = await _dispute(db, dispute_id)
    if d["status"] != "open":
        raise ToolError(f"Dispute {d['id']} is {d['status']}; evidence can only be added to an open dispute.")
    await db.insert("dispute_evidence", id=await _new_id(db, "dispute_evidence", "EV"), dispute_id=d["id"], kind=kind,
                    description=description, added_on=_today(db))
    n = await db.scalar("SELECT COUNT(*) FROM dispute_evidence WHERE dispute_id = :d", d=d["id"])
    return {"dispute_id": d["id"], "kind": kind, "evidence_count": int(n or 0)}


@write
async def issue_provisional_credit(db: Database, dispute_id: str, approval_id: str | None = None) -> dict[str, Any]:
    """Credit the disputed amount to the account while an open dispute is investigated. At most
    one provisional credit per dispute; above $500.00 it needs an approved supervisor
    approval of kind provisional_credit for this dispute.

    Args:
        dispute_id: The dispute id, like "DP-00042".
        approval_id: The supervisor approval, required above $500.00, like "AP-0042".
    """
    d = await _dispute(db, dispute_id)
    if d["status"] != "open":
        raise ToolError(f"Dispute {d['id']} is {d['status']}; only an open dispute gets a provisional credit.")
    if _money(d["provisional_credit"]) > 0:
        raise ToolError(f"Dispute {d['id']} already has a provisional credit of {_money(d['provisional_credit']):.2f}.")
    amount = _money(d["amount"])
    approval = None
    if approval_id:
        approval = await _approval_for(db, approval_id, d["customer_id"], "provisional_credit", d["id"], amount)
    elif amount > PROVISIONAL_CREDIT_LIMIT:
        raise ToolError(f"Provisional credits above {PROVISIONAL_CREDIT_LIMIT:.2f} need a supervisor approval: "
                        "call request_supervisor_approval first.")
    account = await _account(db, d["account_id"])
    await _post(db, account, "provisional_credit", amount, f"Provisional credit for dispute {d['id']}",
                reference_id=d["id"])
    await db.update("disputes", d["id"], provisional_credit=amount, approval_id=approval["id"] if approval else None)
    return {"dispute_id": d["id"], "provisional_credit": amount, "account_id": account["id"],
            "approval_id": approval["id"] if approval else None}


@write
async def withdraw_dispute(db: Database, dispute_id: str, reason: str) -> dict[str, Any]:
    """Withdraw an open dispute at the customer's request. Any provisional credit is reversed
    (debited from the account) automatically.

    Args:
        dispute_id: The dispute id, like "DP-00042".
        reason: Why the customer withdraws it, in a sentence.
    """
    d = await _dispute(db, dispute_id)
    if d["status"] != "open":
        raise ToolError(f"Dispute {d['id']} is {d['status']}; only an open dispute can be withdrawn.")
    await db.update("disputes", d["id"], status="withdrawn", closed_on=_today(db))
    reversed_amount = 0.0
    if _money(d["provisional_credit"]) > 0:
        account = await _account(db, d["account_id"])
        reversed_amount = _money(d["provisional_credit"])
        await _post(db, account, "provisional_credit_reversal", -reversed_amount,
                    f"Reversal of provisional credit, dispute {d['id']} withdrawn: {reason}", reference_id=d["id"])
    return {"dispute_id": d["id"], "status": "withdrawn", "provisional_credit_reversed": reversed_amount}


# -- payees and transfers ------------------------------------------------------------------------


@read
async def list_payees(db: Database, customer_id: str) -> list[dict[str, Any]]:
    """A verified customer's saved external payees.

    Args:
        customer_id: The customer id, like "CU-0042".
    """
    c = await _customer(db, customer_id)
    rows = await db.all("SELECT * FROM payees WHERE customer_id = :c ORDER BY id", c=c["id"])
    return [{"payee_id": p["id"], "name": p["name"], "bank_name": p["bank_name"], "account_last4": p["account_last4"],
             "status": p["status"], "added_on": p["added_on"]} for p in rows]


@write
async def add_payee(
    db: Database, customer_id: str, name: str, bank_name: str, routing_number: str, account_number: str
) -> dict[str, Any]:
    """Save a new external payee (someone else's bank account, or the customer's own at another
    bank) so that transfers can be sent to it.

    Args:
        customer_id: The customer id, like "CU-0042".
        name: The account holder's name.
        bank_name: The receiving bank's name.
        routing_number: The 9-digit routing number.
        account_number: The account number (4 to 17 digits).
    """
    c = await _customer(db, customer_id)
    routing = re.sub(r"\D", "", routing_number)
    number = re.sub(r"\D", "", account_number)
    if len(routing) != 9:
        raise ToolError(f"{routing_number!r} is not a 9-digit routing number.")
    if not 4 <= len(number) <= 17:
        raise ToolError("The account number must have 4 to 17 digits.")
    existing = await db.scalar(
        "SELECT id FROM payees WHERE customer_id = :c AND routing_number = :r AND account_last4 = :l AND status = 'active'",
        c=c["id"], r=routing, l=number[-4:],
    )
    if existing:
        raise ToolError(f"That account is already saved as payee {existing}.")
    p = await db.insert("payees", id=await _new_id(db, "payees", "PY"), customer_id=c["id"], name=name.strip(),
                        bank_name=bank_name.strip(), routing_number=routing, account_last4=number[-4:],
                        status="active", added_on=_today(db))
    return {"payee_id": p["id"], "name": p["name"], "bank_name": p["bank_name"], "account_last4": p["account_last4"],
            "status": p["status"]}


@read
async def list_transfers(db: Database, customer_id: str, status: str | None = None) -> list[dict[str, Any]]:
    """A verified customer's transfers (internal and external), latest date first, with the
    payee's name for external ones.

    Args:
        customer_id: The customer id, like "CU-0042".
        status: Only this status: scheduled, pending, completed or cancelled.
    """
    c = await _customer(db, customer_id)
    sql = "SELECT * FROM transfers WHERE customer_id = :c"
    params: dict[str, Any] = {"c": c["id"]}
    if status:
        sql += " AND status = :s"
        params["s"] = status.strip()
    rows = await db.all(sql + " ORDER BY scheduled_for DESC, id DESC", **params)
    names = {p["id"]: p["name"] for p in await db.all("SELECT id, name FROM payees WHERE customer_id = :c", c=c["id"])}
    return [{**_transfer_view(t), "payee_name": names.get(t["payee_id"])} for t in rows]


@read
async def get_transfer_limits(db: Database, customer_id: str, on_date: str | None = None) -> dict[str, Any]:
    """A verified customer's external-transfer limit for one day (today by default): the KYC
    level's daily limit, what is already sent or scheduled for that day, and what remains.

    Args:
        customer_id: The customer id, like "CU-0042".
        on_date: The day to check, YYYY-MM-DD; today if omitted.
    """
    c = await _customer(db, customer_id)
    day = _date_arg(on_date, "on_date") if on_date else _today(db)
    limits = await _limits(db, c["kyc_level"])
    used = await _external_used(db, c["id"], day)
    limit = _money(limits["external_daily_limit"])
    return {"customer_id": c["id"], "date": day, "kyc_level": c["kyc_level"], "kyc_status": c["kyc_status"],
            "external_daily_limit": limit, "used": used, "remaining": _money(max(limit - used, 0))}


@write
async def create_transfer(
    db: Database,
    from_account_id: str,
    amount: float,
    to_account_id: str | None = None,
    payee_id: str | None = None,
    scheduled_for: str | None = None,
    memo: str = "",
    approval_id: str | None = None,
) -> dict[str, Any]:
    """Move money from one of the customer's accounts: to another of their own accounts
    (internal, give to_account_id) or to a saved payee (external, give payee_id).

    Without `scheduled_for` (or with today's date) it goes now: internal transfers complete
    at once, external ones are sent (status pending, 1-3 business days) and both need the
    available balance. A future date schedules it (status scheduled). External transfers
    that take the customer's external total for that day above their KYC level's daily
    limit need an approved transfer_limit approval for this payee and amount. Savings
    accounts allow 6 outgoing transfers per calendar month.

    Args:
        from_account_id: The account the money leaves, like "AC-0042".
        amount: The amount in dollars.
        to_account_id: For an internal transfer: the customer's receiving account.
        payee_id: For an external transfer: the saved payee, like "PY-0042".
        scheduled_for: The day the money should move, YYYY-MM-DD; today if omitted.
        memo: A short note shown on the transfer.
        approval_id: A supervisor approval for an over-limit external transfer, like "AP-0042".
    """
    src = await _account(db, from_account_id)
    if src["status"] != "open":
        raise ToolError(f"Account {src['id']} is {src['status']}; no money can leave it.")
    if bool(to_account_id) == bool(payee_id):
        raise ToolError("Give either to_account_id (internal transfer) or payee_id (external transfer), not both.")
    amount = _money(amount)
    if amount <= 0:
        raise ToolError("The amount must be positive.")
    today = _today(db)
    day = _date_arg(scheduled_for, "scheduled_for") if scheduled_for else today
    if day < today:
        raise ToolError(f"{day} is in the past; transfers can be made today or scheduled for a later date.")
    if day > _days_after(db, 365):
        raise ToolError("Transfers can be scheduled at most one year ahead.")
    dst = payee = approval = None
    if to_account_id:
        dst = await _account(db, to_account_id)
        if dst["customer_id"] != src["customer_id"] or dst["id"] == src["id"]:
            raise ToolError(f"{dst['id']} is not another account of the same customer; use a payee for other people.")
        if dst["status"] != "open":
            raise ToolError(f"Account {dst['id']} is {dst['status']}; it cannot receive transfers.")
    else:
        assert payee_id is not None
        payee = await _get(db, "payees", payee_id, "payee", "PY-0042")
        if payee["customer_id"] != src["customer_id"] or payee["status"] != "active":
            raise ToolError(f"{payee['id']} is not an active payee of this customer.")
    if src["kind"] == "savings":
        n = await db.scalar(
            "SELECT COUNT(*) FROM transfers WHERE from_account_id = :a AND status <> 'cancelled' "
            "AND scheduled_for >= :s AND scheduled_for <= :e",
            a=src["id"], s=day[:7] + "-01", e=day[:7] + "-31",
        )
        if int(n or 0) >= SAVINGS_MONTHLY_WITHDRAWALS:
            raise ToolError(f"Savings account {src['id']} already has {SAVINGS_MONTHLY_WITHDRAWALS} outgoing transfers "
                            f"in {day[:7]}, the monthly maximum.")
    if payee is not None:
        customer = await _customer(db, src["customer_id"])
        limit = _money((await _limits(db, customer["kyc_level"]))["external_daily_limit"])
        used = await _external_used(db, customer["id"], day)
        if approval_id:
            approval = await _approval_for(db, approval_id, customer["id"], "transfer_limit", payee["id"], amount)
            if await db.scalar("SELECT id FROM transfers WHERE approval_id = :a", a=approval["id"]):
                raise ToolError(f"Approval {approval['id']} was already used by another transfer.")
        elif _money(used + amount) > limit:
            raise ToolError(
                f"This transfer would bring external transfers on {day} to {_money(used + amount):.2f}, above the "
                f"daily limit of {limit:.2f} (already {used:.2f}). It needs a supervisor approval (transfer_limit)."
            )
    if day == today:
        available = _money(_money(src["balance"]) - await _holds_total(db, src["id"]))
        if amount > available:
            raise ToolError(f"Account {src['id']} has only {available:.2f} available.")
        status = "completed" if dst else "pending"
    else:
        status = "scheduled"
    transfer = await db.insert(
        "transfers",
        id=await _new_id(db, "transfers", "TR"),
        customer_id=src["customer_id"],
        kind="internal" if dst else "external",
        from_account_id=src["id"],
        to_account_id=dst["id"] if dst else None,
        payee_id=payee["id"] if payee else None,
        amount=amount,
        status=status,
        scheduled_for=day,
        created_on=today,
        approval_id=approval["id"] if approval else None,
        memo=memo,
    )
    if status == "completed":
        assert dst is not None
        await _post(db, src, "transfer_out", -amount, f"Transfer to {dst['nickname']}")
        await _post(db, dst, "transfer_in", amount, f"Transfer from {src['nickname']}")
    elif status == "pending":
        assert payee is not None
        await _post(db, src, "transfer_out", -amount, f"Transfer to {payee['name']}", status="pending")
    return {**_transfer_view(transfer), "payee_name": payee["name"] if payee else None,
            "to_account_nickname": dst["nickname"] if dst else None}


@write
async def cancel_transfer(db: Database, transfer_id: str) -> dict[str, Any]:
    """Cancel a scheduled transfer before its date. Transfers already sent (pending) or
    completed cannot be cancelled.

    Args:
        transfer_id: The transfer id, like "TR-0042".
    """
    t = await _get(db, "transfers", transfer_id, "transfer", "TR-0042")
    if t["status"] != "scheduled":
        raise ToolError(f"Transfer {t['id']} is {t['status']}; only scheduled transfers can be cancelled.")
    await db.update("transfers", t["id"], status="cancelled", cancelled_on=_today(db))
    return {**_transfer_view({**t, "status": "cancelled", "cancelled_on": _today(db)})}


# -- fees ----------------------------------------------------------------------------------------


@read
async def list_fee_refunds(db: Database, customer_id: str) -> dict[str, Any]:
    """A verified customer's fee refunds, and how many courtesy refunds their KYC level allows
    this calendar year and how many are used.

    Args:
        customer_id: The customer id, like "CU-0042".
    """
    c = await _customer(db, customer_id)
    today = _today(db)
    rows = await db.all(
        "SELECT fr.*, t.fee_code, t.posted_on FROM fee_refunds fr JOIN transactions t ON t.id = fr.fee_transaction_id "
        "WHERE fr.customer_id = :c ORDER BY fr.refunded_on DESC", c=c["id"],
    )
    allowance = (await _limits(db, c["kyc_level"]))["courtesy_fee_refunds"]
    used = await _fee_refunds_this_year(db, c["id"], today)
    return {
        "customer_id": c["id"],
        "year": today[:4],
        "courtesy_allowance": allowance,
        "used_this_year": used,
        "remaining_this_year": max(allowance - used, 0),
        "refunds": [{"fee_transaction_id": r["fee_transaction_id"], "fee_code": r["fee_code"], "fee_posted_on": r["posted_on"],
                     "amount": _money(r["amount"]), "refunded_on": r["refunded_on"], "approval_id": r["approval_id"]}
                    for r in rows],
    }


@write
async def refund_fee(db: Database, transaction_id: str, reason: str, approval_id: str | None = None) -> dict[str, Any]:
    """Refund a fee in full to the account it was charged to. A fee can be refunded once.
    Pass the supervisor approval when the policy requires one.

    Args:
        transaction_id: The fee's transaction id, like "TX-00042".
        reason: Why the fee is refunded, in a sentence.
        approval_id: A fee_refund approval for this fee, like "AP-0042", when needed.
    """
    t = await _transaction(db, transaction_id)
    if t["kind"] != "fee":
        raise ToolError(f"Transaction {t['id']} is a {t['kind']}, not a fee.")
    if await db.scalar("SELECT id FROM fee_refunds WHERE fee_transaction_id = :t", t=t["id"]):
        raise ToolError(f"Fee {t['id']} has already been refunded.")
    account = await _account(db, t["account_id"])
    amount = _money(-_money(t["amount"]))
    approval = None
    if approval_id:
        approval = await _approval_for(db, approval_id, account["customer_id"], "fee_refund", t["id"], amount)
    await db.insert("fee_refunds", id=await _new_id(db, "fee_refunds", "FR"), customer_id=account["customer_id"],
                    fee_transaction_id=t["id"], amount=amount, refunded_on=_today(db),
                    approval_id=approval["id"] if approval else None, reason=reason)
    await _post(db, account, "fee_refund", amount, f"Refund of fee: {reason}", reference_id=t["id"])
    return {"fee_transaction_id": t["id"], "fee_code": t["fee_code"], "amount": amount, "account_id": account["id"],
            "approval_id": approval["id"] if approval else None}


# -- supervisor approvals ------------------------------------------------------------------------


@write
async def request_supervisor_approval(
    db: Database, customer_id: str, kind: ApprovalKind, reference_id: str, amount: float, reason: str
) -> dict[str, Any]:
    """Ask a supervisor to approve an over-limit request. The decision comes back at once:
    `approved` (pass the approval_id to the action) or `denied` (do not go ahead).

    Kinds and their reference: transfer_limit (an external transfer above the daily limit;
    reference = the payee id, amount = the transfer amount), fee_refund (a fee refund beyond
    the courtesy allowance; reference = the fee's transaction id), provisional_credit (above
    $500.00; reference = the dispute id). Asking again for the same request returns the
    existing decision.

    Args:
        customer_id: The customer id, like "CU-0042".
        kind: transfer_limit, fee_refund or provisional_credit.
        reference_id: The payee, fee transaction or dispute the request is about.
        amount: The exact amount in dollars.
        reason: Why the request should be approved, in a sentence.
    """
    c = await _customer(db, customer_id)
    ref = reference_id.strip()
    amount = _money(amount)
    if amount <= 0:
        raise ToolError("The amount must be positive.")
    limits = await _limits(db, c["kyc_level"])
    if kind == "transfer_limit":
        payee = await db.get("payees", ref)
        if payee is None or payee["customer_id"] != c["id"]:
            raise ToolError(f"{ref!r} is not a payee of customer {c['id']}.")
    elif kind == "fee_refund":
        t = await db.get("transactions", ref)
        owner = await db.get("accounts", t["account_id"]) if t else None
        if t is None or t["kind"] != "fee" or owner is None or owner["customer_id"] != c["id"]:
            raise ToolError(f"{ref!r} is not a fee charged to customer {c['id']}.")
        if await _fee_refunds_this_year(db, c["id"], _today(db)) < limits["courtesy_fee_refunds"]:
            raise ToolError("This customer still has courtesy fee refunds left this year; no approval is needed.")
    else:
        d = await db.get("disputes", ref)
        if d is None or d["customer_id"] != c["id"]:
            raise ToolError(f"{ref!r} is not a dispute of customer {c['id']}.")
        if _money(d["amount"]) <= PROVISIONAL_CREDIT_LIMIT:
            raise ToolError(f"Provisional credits of {PROVISIONAL_CREDIT_LIMIT:.2f} or less need no approval.")
    existing = await db.one(
        "SELECT * FROM approvals WHERE customer_id = :c AND kind = :k AND reference_id = :r AND amount = :a ORDER BY id",
        c=c["id"], k=kind, r=ref, a=amount,
    )
    if existing is None:
        if c["risk_flag"]:
            status, note = "denied", "Denied: this profile needs a review by the risk team before any exception."
        elif kind == "transfer_limit" and amount > 2 * _money(limits["external_daily_limit"]):
            status, note = "denied", "Denied: more than twice the daily limit of the customer's KYC level."
        else:
            status, note = "approved", "Approved: within the supervisor's authority."
        existing = await db.insert("approvals", id=await _new_id(db, "approvals", "AP"), customer_id=c["id"], kind=kind,
                                   reference_id=ref, amount=amount, status=status, decision_note=note,
                                   request_reason=reason, created_at=db.now)
    return _approval_view(existing)


@read
async def get_approval(db: Database, approval_id: str) -> dict[str, Any]:
    """A supervisor approval: kind, reference, amount and decision.

    Args:
        approval_id: The approval id, like "AP-0042".
    """
    a = await _get(db, "approvals", approval_id, "approval", "AP-0042")
    return _approval_view(a)
