"""The banking base data: a few hundred neobank customers with accounts, cards and a few
months of history, built deterministically.

`build()` depends on nothing but the fixed seed below (no network, no wall clock), so
every process builds the same rows. Dates run up to the domain clock, 2026-11-30.
Natural distractors come for free: several customers share a first or last name, most
have older fees, disputes and transfers, and some have old lost or replaced cards.

Tasks never depend on a particular generated row: each task's `initial_patch` adds the
customers and records its scenario is about, with ids in ranges this file never uses
(5001-6999 for the test split, 7001-8999 for train; transactions 500001 and up).
Records that tools create are numbered from 9001 (see `tools.NEW_ID_START`), so the ids
in golden calls do not depend on this file either.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

SEED = 20261130
TODAY = date(2026, 11, 30)
N_CUSTOMERS = 240

# level: (name, external transfers per day, card spend max, ATM max, courtesy fee refunds per year)
KYC_LIMITS = {
    1: ("basic", 1000.00, 1500.00, 300.00, 1),
    2: ("standard", 5000.00, 5000.00, 800.00, 2),
    3: ("premium", 25000.00, 10000.00, 1500.00, 4),
}

FEES = [  # (code, description, amount, notes)
    ("monthly_maintenance", "Monthly maintenance fee (checking)", 12.00, "Charged on the 1st of each month."),
    ("overdraft", "Overdraft fee", 35.00, "Charged when a payment takes the balance below zero."),
    ("atm_out_of_network", "Out-of-network ATM withdrawal", 3.50, "Per withdrawal, plus any operator fee."),
    ("foreign_transaction", "Foreign transaction fee", 0.00, "3% of each purchase made in a foreign currency."),
    ("card_replacement", "Replacement card", 10.00, "Waived for stolen or damaged cards, the first lost card in 365 days, and premium (level 3) customers."),
    ("expedited_card_shipping", "Expedited card delivery (2 business days)", 25.00, "Waived for premium (level 3) customers."),
    ("returned_payment", "Returned payment", 29.00, "Charged when an outgoing payment is returned unpaid."),
    ("paper_statement", "Paper statement", 2.00, "Per mailed statement."),
]

FIRST_NAMES = [
    "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "William", "Elizabeth",
    "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
    "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Sandra", "Steven", "Ashley",
    "Paul", "Kimberly", "Andrew", "Emily", "Joshua", "Donna", "Kenneth", "Michelle", "Kevin", "Carol",
]
LAST_NAMES = [
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
    "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
    "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson",
]
CITIES = [  # (city, state, zip codes, area code)
    ("Portland", "OR", ["97201", "97205", "97214"], "503"),
    ("Austin", "TX", ["78701", "78704", "78745"], "512"),
    ("Denver", "CO", ["80202", "80205", "80220"], "720"),
    ("Columbus", "OH", ["43201", "43215", "43220"], "614"),
    ("Raleigh", "NC", ["27601", "27603", "27609"], "919"),
    ("Madison", "WI", ["53703", "53705", "53711"], "608"),
    ("Sacramento", "CA", ["95811", "95814", "95819"], "916"),
    ("Tucson", "AZ", ["85701", "85705", "85719"], "520"),
    ("Boise", "ID", ["83702", "83705", "83706"], "208"),
    ("Richmond", "VA", ["23219", "23220", "23225"], "804"),
]
STREETS = ["Maple Ave", "Oak St", "Cedar Ln", "Pine St", "Elm St", "Birch Rd", "Lakeview Dr", "Hillcrest Blvd",
           "River Rd", "Sunset Way", "Willow Ct", "Juniper St"]
MERCHANTS = [  # (merchant, typical amount)
    ("FreshMart Groceries", 64.0), ("Corner Coffee Co", 6.5), ("CityRide Transit", 2.75), ("StreamFlix", 15.99),
    ("PowerGrid Utilities", 92.0), ("QuickFuel Gas", 48.0), ("Bookhaven", 23.0), ("Urban Outfitters Co", 74.0),
    ("TechDepot", 129.0), ("Pharma Plus", 18.4), ("Gym Nation", 39.99), ("Pizza Palace", 27.5),
    ("SkyHigh Airlines", 310.0), ("HomeGoods Hub", 58.0), ("PetPals Supply", 44.0), ("CloudStore Online", 36.0),
    ("Green Leaf Market", 52.0), ("Metro Cinema", 24.0), ("Sunrise Bakery", 11.25), ("AutoCare Garage", 185.0),
]
BANKS = ["First Harbor Bank", "Summit Credit Union", "Pioneer National", "Riverbend Savings", "Keystone Bank",
         "Lakeshore Federal"]
TICKET_SUBJECTS = {
    "card": "Card not working at checkout",
    "dispute": "Question about a charge",
    "transfer": "Where is my transfer?",
    "fee": "Why was I charged a fee?",
    "account": "Update my account details",
    "kyc": "Status of my ID documents",
}


def _money(x: float) -> float:
    return round(x + 1e-9, 2)


def _iso(d: date) -> str:
    return d.isoformat()


def build() -> dict[str, list[dict[str, Any]]]:
    """All base rows, by table."""
    rng = random.Random(SEED)
    rows: dict[str, list[dict[str, Any]]] = {
        name: [] for name in (
            "kyc_limits", "fee_schedule", "customers", "kyc_documents", "accounts", "holds", "cards",
            "transactions", "approvals", "disputes", "dispute_evidence", "payees", "transfers", "fee_refunds",
            "tickets", "ticket_notes",
        )
    }
    for level, (name, ext, spend, atm, courtesy) in KYC_LIMITS.items():
        rows["kyc_limits"].append({"level": level, "name": name, "external_daily_limit": ext,
                                   "card_daily_spend_max": spend, "atm_daily_max": atm,
                                   "courtesy_fee_refunds": courtesy})
    for code, desc, amount, notes in FEES:
        rows["fee_schedule"].append({"code": code, "description": desc, "amount": amount, "notes": notes})

    counters = {k: 0 for k in ("KD", "AC", "HD", "CD", "TX", "DP", "EV", "PY", "TR", "FR", "T", "N", "AP")}

    def nid(prefix: str, width: int = 4) -> str:
        counters[prefix] += 1
        start = 1000 if prefix == "T" else 0
        return f"{prefix}-{start + counters[prefix]:0{width}d}"

    emails: set[str] = set()
    for n in range(1, N_CUSTOMERS + 1):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        local = f"{first}.{last}".lower()
        email, k = f"{local}@example.com", 2
        while email in emails:
            email, k = f"{local}{k}@example.com", k + 1
        emails.add(email)
        city, state, zips, area = rng.choice(CITIES)
        cid = f"CU-{n:04d}"
        joined = date(2019, 3, 1) + timedelta(days=rng.randint(0, 2700))
        kyc_status = rng.choices(["verified", "pending", "unverified", "rejected"], [80, 8, 7, 5])[0]
        level = rng.choices([1, 2, 3], [35, 45, 20])[0] if kyc_status == "verified" else 1
        customer = {
            "id": cid, "first_name": first, "last_name": last, "email": email,
            "phone": f"{area}-555-{rng.randint(1000, 9999)}",
            "date_of_birth": _iso(date(1950, 1, 1) + timedelta(days=rng.randint(0, 18000))),
            "address_line1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)}", "city": city, "state": state,
            "zip_code": rng.choice(zips), "kyc_status": kyc_status, "kyc_level": level, "joined_on": _iso(joined),
            "risk_flag": rng.random() < 0.03,
        }
        rows["customers"].append(customer)

        # -- KYC documents ----------------------------------------------------------------
        docs = []
        if kyc_status == "verified":
            docs.append(("government_id", "approved"))
            if level >= 2:
                docs.append(("proof_of_address", "approved"))
            if level == 3:
                docs.append(("income_verification", "approved"))
        elif kyc_status == "pending":
            docs.append(("government_id", "pending_review"))
        elif kyc_status == "rejected":
            docs.append(("government_id", "rejected"))
        for doc_type, status in docs:
            submitted = min(joined + timedelta(days=rng.randint(0, 30)), TODAY)
            rows["kyc_documents"].append({
                "id": nid("KD"), "customer_id": cid, "doc_type": doc_type, "status": status,
                "submitted_on": _iso(submitted),
                "expires_on": _iso(date(2027 + rng.randint(0, 8), rng.randint(1, 12), 1)) if doc_type == "government_id" else None,
            })

        # -- accounts ---------------------------------------------------------------------
        checking = {"id": nid("AC"), "customer_id": cid, "kind": "checking", "nickname": "Everyday Checking",
                    "number_last4": f"{rng.randint(0, 9999):04d}", "status": "open", "balance": 0.0,
                    "opened_on": _iso(joined)}
        accounts = [checking]
        if rng.random() < 0.6:
            accounts.append({"id": nid("AC"), "customer_id": cid, "kind": "savings",
                             "nickname": rng.choice(["Rainy Day", "Savings", "Vacation Fund", "Emergency Fund"]),
                             "number_last4": f"{rng.randint(0, 9999):04d}", "status": "open", "balance": 0.0,
                             "opened_on": _iso(joined + timedelta(days=rng.randint(0, 200)))})
        if rng.random() < 0.02:
            checking["status"] = "frozen"
        rows["accounts"].extend(accounts)

        # -- cards ------------------------------------------------------------------------
        spend_max, atm_max = KYC_LIMITS[level][2], KYC_LIMITS[level][3]
        spend, atm = min(1000.0 * level, spend_max), min(300.0 + 200 * (level - 1), atm_max)
        cards = []
        if rng.random() < 0.15:  # an old card, lost and replaced
            old_issued = max(joined, TODAY - timedelta(days=rng.randint(400, 900)))
            reported = old_issued + timedelta(days=rng.randint(30, 300))
            cards.append({"id": nid("CD"), "customer_id": cid, "account_id": checking["id"], "kind": "physical",
                          "last4": f"{rng.randint(0, 9999):04d}", "status": rng.choice(["lost", "stolen"]),
                          "daily_spend_limit": spend, "atm_daily_limit": atm, "issued_on": _iso(old_issued),
                          "expires": f"{old_issued.year + 4}-{old_issued.month:02d}", "reported_on": _iso(reported),
                          "replaces_card_id": None, "shipping": None})
        issued = max(joined, TODAY - timedelta(days=rng.randint(30, 1000)))
        main_card = {"id": nid("CD"), "customer_id": cid, "account_id": checking["id"], "kind": "physical",
                     "last4": f"{rng.randint(0, 9999):04d}",
                     "status": rng.choices(["active", "frozen"], [92, 8])[0],
                     "daily_spend_limit": spend, "atm_daily_limit": atm, "issued_on": _iso(issued),
                     "expires": f"{issued.year + 4}-{issued.month:02d}", "reported_on": None,
                     "replaces_card_id": cards[0]["id"] if cards else None, "shipping": "standard" if cards else None}
        cards.append(main_card)
        if rng.random() < 0.3:
            cards.append({"id": nid("CD"), "customer_id": cid, "account_id": checking["id"], "kind": "virtual",
                          "last4": f"{rng.randint(0, 9999):04d}", "status": "active", "daily_spend_limit": min(500.0, spend),
                          "atm_daily_limit": 0.0, "issued_on": _iso(issued + timedelta(days=3)),
                          "expires": f"{issued.year + 3}-{issued.month:02d}", "reported_on": None,
                          "replaces_card_id": None, "shipping": None})
        rows["cards"].extend(cards)

        # -- transactions over the last 150 days ------------------------------------------
        balance = {a["id"]: 0.0 for a in accounts}

        def tx(account: dict[str, Any], day: date, kind: str, amount: float, merchant: str | None = None,
               card: dict[str, Any] | None = None, fee_code: str | None = None, status: str = "posted",
               desc: str = "", balance: dict[str, float] = balance) -> dict[str, Any]:
            row = {"id": nid("TX", 5), "account_id": account["id"], "card_id": card["id"] if card else None,
                   "posted_on": _iso(day), "kind": kind, "merchant": merchant, "fee_code": fee_code,
                   "amount": _money(amount), "status": status, "reference_id": None,
                   "description": desc or merchant or kind.replace("_", " ").title()}
            rows["transactions"].append(row)
            balance[account["id"]] = _money(balance[account["id"]] + amount)
            return row

        start = max(joined, TODAY - timedelta(days=150))
        tx(checking, start, "deposit", rng.choice([1500, 2200, 3100, 4800]), desc="Opening balance")
        day = start
        while True:
            day += timedelta(days=rng.randint(3, 12))
            if day >= TODAY:
                break
            roll = rng.random()
            if roll < 0.2:
                tx(checking, day, "deposit", rng.choice([1200, 1850, 2400, 3300]), desc="Payroll direct deposit")
            elif roll < 0.27:
                tx(checking, day, "atm_withdrawal", -rng.choice([40, 60, 100, 200]), card=main_card,
                   merchant="ATM withdrawal")
            elif roll < 0.33:
                code = rng.choice(["monthly_maintenance", "overdraft", "atm_out_of_network", "paper_statement"])
                amount = next(f[2] for f in FEES if f[0] == code)
                fee = tx(checking, day, "fee", -amount, fee_code=code, desc=next(f[1] for f in FEES if f[0] == code))
                if rng.random() < 0.3:
                    refunded = day + timedelta(days=rng.randint(1, 5))
                    if refunded < TODAY:
                        ref = tx(checking, refunded, "fee_refund", amount, desc="Courtesy fee refund")
                        ref["reference_id"] = fee["id"]
                        rows["fee_refunds"].append({"id": nid("FR"), "customer_id": cid, "fee_transaction_id": fee["id"],
                                                    "amount": amount, "refunded_on": _iso(refunded), "approval_id": None,
                                                    "reason": "Courtesy refund"})
            elif roll < 0.4 and len(accounts) > 1:
                amount = rng.choice([50, 100, 200, 250, 500])
                tr = {"id": nid("TR"), "customer_id": cid, "kind": "internal", "from_account_id": checking["id"],
                      "to_account_id": accounts[1]["id"], "payee_id": None, "amount": amount, "status": "completed",
                      "scheduled_for": _iso(day), "created_on": _iso(day), "cancelled_on": None,
                      "approval_id": None, "memo": "Savings"}
                rows["transfers"].append(tr)
                tx(checking, day, "transfer_out", -amount, desc=f"Transfer to {accounts[1]['nickname']}")
                tx(accounts[1], day, "transfer_in", amount, desc="Transfer from Everyday Checking")
            else:
                merchant, typical = rng.choice(MERCHANTS)
                pending = (TODAY - day).days <= 2 and rng.random() < 0.5
                tx(checking, day, "card_purchase", -_money(typical * rng.uniform(0.6, 1.5)), merchant=merchant,
                   card=main_card, status="pending" if pending else "posted")
        for a in accounts:
            if a["kind"] == "savings":
                tx(a, date(2026, 11, 1), "interest", _money(rng.uniform(0.5, 12.0)), desc="Monthly interest")
        for a in accounts:
            a["balance"] = balance[a["id"]]

        # -- holds ------------------------------------------------------------------------
        if rng.random() < 0.15:
            placed = TODAY - timedelta(days=rng.randint(1, 12))
            if rng.random() < 0.5:
                rows["holds"].append({"id": nid("HD"), "account_id": checking["id"], "kind": "check_deposit",
                                      "amount": rng.choice([250.0, 480.0, 1200.0]), "description": "Mobile check deposit",
                                      "placed_on": _iso(placed), "release_on": _iso(placed + timedelta(days=5)),
                                      "status": "active" if placed + timedelta(days=5) > TODAY else "released",
                                      "released_on": None if placed + timedelta(days=5) > TODAY else _iso(placed + timedelta(days=5))})
            else:
                merchant = rng.choice(["Grand Plaza Hotel", "CarGo Rentals", "QuickFuel Gas"])
                rows["holds"].append({"id": nid("HD"), "account_id": checking["id"], "kind": "card_authorization",
                                      "amount": rng.choice([75.0, 150.0, 300.0]), "description": f"Authorization: {merchant}",
                                      "placed_on": _iso(placed), "release_on": _iso(placed + timedelta(days=30)),
                                      "status": "active", "released_on": None})

        # -- payees and external transfers ------------------------------------------------
        payees = []
        for _ in range(rng.choice([0, 0, 1, 1, 2])):
            pf, pl = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
            payees.append({"id": nid("PY"), "customer_id": cid, "name": f"{pf} {pl}", "bank_name": rng.choice(BANKS),
                           "routing_number": f"{rng.randint(10**8, 10**9 - 1)}",
                           "account_last4": f"{rng.randint(0, 9999):04d}", "status": "active",
                           "added_on": _iso(max(joined, TODAY - timedelta(days=rng.randint(20, 600))))})
        rows["payees"].extend(payees)
        if payees and kyc_status == "verified" and rng.random() < 0.5:
            p = rng.choice(payees)
            when = TODAY - timedelta(days=rng.randint(5, 60))
            amount = rng.choice([100.0, 250.0, 400.0, 750.0])
            rows["transfers"].append({"id": nid("TR"), "customer_id": cid, "kind": "external",
                                      "from_account_id": checking["id"], "to_account_id": None, "payee_id": p["id"],
                                      "amount": amount, "status": "completed", "scheduled_for": _iso(when),
                                      "created_on": _iso(when), "cancelled_on": None, "approval_id": None, "memo": "Rent share"})
            tx(checking, when, "transfer_out", -amount, desc=f"Transfer to {p['name']}")
            checking["balance"] = balance[checking["id"]]
            if rng.random() < 0.3:
                later = TODAY + timedelta(days=rng.randint(2, 25))
                rows["transfers"].append({"id": nid("TR"), "customer_id": cid, "kind": "external",
                                          "from_account_id": checking["id"], "to_account_id": None, "payee_id": p["id"],
                                          "amount": amount, "status": "scheduled", "scheduled_for": _iso(later),
                                          "created_on": _iso(TODAY - timedelta(days=3)), "cancelled_on": None,
                                          "approval_id": None, "memo": "Rent share"})

        # -- an older dispute and a support ticket ----------------------------------------
        purchases = [t for t in rows["transactions"] if t["account_id"] == checking["id"] and t["kind"] == "card_purchase"
                     and t["status"] == "posted"]
        dispute = None
        if purchases and rng.random() < 0.08:
            t = rng.choice(purchases)
            opened = date.fromisoformat(t["posted_on"]) + timedelta(days=rng.randint(1, 10))
            if opened < TODAY:
                status = rng.choice(["won", "lost", "open"])
                dispute = {"id": "DP-" + t["id"].split("-", 1)[1], "transaction_id": t["id"], "customer_id": cid,
                           "account_id": checking["id"], "reason": rng.choice(["not_received", "wrong_amount", "duplicate_charge"]),
                           "amount": -t["amount"], "status": status, "provisional_credit": 0.0, "approval_id": None,
                           "opened_on": _iso(opened), "closed_on": None if status == "open" else _iso(min(opened + timedelta(days=20), TODAY)),
                           "description": "Customer disputes the charge"}
                rows["disputes"].append(dispute)
                rows["dispute_evidence"].append({"id": nid("EV"), "dispute_id": dispute["id"], "kind": "receipt",
                                                 "description": "Receipt uploaded in the app", "added_on": _iso(opened)})
        if rng.random() < 0.2:
            category = "dispute" if dispute else rng.choice(list(TICKET_SUBJECTS))
            opened = TODAY - timedelta(days=rng.randint(1, 120))
            tid = nid("T")
            rows["tickets"].append({
                "id": tid, "customer_id": cid, "account_id": checking["id"],
                "card_id": main_card["id"] if category == "card" else None,
                "dispute_id": dispute["id"] if dispute else None, "subject": TICKET_SUBJECTS[category],
                "category": category, "status": "open" if (dispute and dispute["status"] == "open") or rng.random() < 0.15 else "closed",
                "priority": "normal", "escalation_reason": None, "created_at": f"{_iso(opened)}T09:30:00Z"})
            for author in ["customer", "agent"][: rng.randint(1, 2)]:
                rows["ticket_notes"].append({
                    "id": nid("N"), "ticket_id": tid, "author": author,
                    "body": "Customer asked for an update." if author == "customer" else "Replied with the status.",
                    "created_at": f"{_iso(opened)}T10:00:00Z"})
    return rows
