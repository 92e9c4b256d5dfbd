"""Write the banking task files from scenario templates: `python -m tb_env.tasks.banking.generate`.

Each template is a function that builds one task from a `Scenario`: the customers and
records it needs (its `initial_patch`, with ids and names from the split's own pools, so
test and train never share a customer), the user's side of the conversation, the golden
calls and reply, the assertions and the wrong paths. Everything is drawn from a random
generator seeded by (template, split, index), so the output is the same on every run.

`--check` replays every task's golden calls and reports response facts that no tool
output or patch value contains (facts taken from the policy, like "60 days", are listed
per task as `policy_facts` and skipped).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).parent
OUT = HERE / "tasks"
TODAY = date(2026, 11, 30)
NEW = 9001  # the first id of a record created by a tool (tools.NEW_ID_START)

SPLITS = {
    # split: (first id number, first transaction number, tasks per template)
    "test": (5001, 500001, 3),
    "train": (7001, 700001, 1),
}

FIRST = {
    "test": ["Aurelia", "Bastian", "Celeste", "Dorian", "Esme", "Florian", "Giselle", "Hugo", "Ines", "Jasper",
             "Kaia", "Leopold", "Mirela", "Niko", "Odette", "Pascal", "Rhea", "Silas", "Tamsin", "Ulric",
             "Valentina", "Wren", "Xavier", "Yvette", "Zeno", "Amara", "Bruno", "Cosima", "Dmitri", "Elodie",
             "Fabian", "Greta", "Henrik", "Ilse", "Joaquin", "Katya", "Lorenzo", "Marisol", "Nadia", "Orion"],
    "train": ["Adrian", "Beatrix", "Cyrus", "Delphine", "Emeric", "Freya", "Gideon", "Harriet", "Ignatius", "Juno",
              "Kasimir", "Lavinia", "Magnus", "Noor", "Octavia", "Percival", "Rosalind", "Sebastian", "Theodora",
              "Umberto", "Vivienne", "Winston", "Ximena", "Yannick", "Zora"],
}
LAST = {
    "test": ["Abernathy", "Bellweather", "Castellano", "Delacroix", "Eriksen", "Fairchild", "Galloway", "Holloway",
             "Ivanova", "Jablonski", "Kavanagh", "Lindqvist", "Marchetti", "Novak", "Oyelaran", "Pemberton",
             "Quintero", "Rasmussen", "Sorensen", "Tremblay", "Underwood", "Valdivia", "Whitaker", "Yamamoto",
             "Zielinski", "Achebe", "Brennan", "Carvalho", "Dunleavy", "Eskildsen"],
    "train": ["Ashcroft", "Blackwood", "Crane", "Drummond", "Ellsworth", "Fontaine", "Grimaldi", "Hargreaves",
              "Ingram", "Jorgensen", "Kilpatrick", "Lockhart", "Montague", "Northcott", "Osei", "Prescott",
              "Radcliffe", "Sinclair", "Thorne", "Umarov"],
}
CITIES = [  # (city, state, zip codes, area code) - area codes the seed never uses
    ("Portland", "OR", ["97209", "97212", "97217"], "971"),
    ("Austin", "TX", ["78702", "78703", "78751"], "737"),
    ("Denver", "CO", ["80203", "80206", "80211"], "303"),
    ("Columbus", "OH", ["43202", "43206", "43214"], "380"),
    ("Raleigh", "NC", ["27604", "27605", "27608"], "984"),
    ("Madison", "WI", ["53704", "53715", "53726"], "262"),
    ("Sacramento", "CA", ["95816", "95818", "95822"], "279"),
    ("Phoenix", "AZ", ["85003", "85004", "85012"], "623"),
]
STREETS = ["Alder St", "Beacon Ave", "Chestnut Ln", "Dogwood Dr", "Everett St", "Foxglove Ct", "Garnet Way",
           "Harbor Rd", "Ivy Ln", "Jasmine Ave"]
MERCHANTS = ["FreshMart Groceries", "Corner Coffee Co", "StreamFlix", "QuickFuel Gas", "Bookhaven", "TechDepot",
             "Pharma Plus", "Gym Nation", "Pizza Palace", "HomeGoods Hub", "PetPals Supply", "Green Leaf Market",
             "Metro Cinema", "Sunrise Bakery"]
SHOPS = [  # online shops for not-received / wrong-amount scenarios: (merchant, item)
    ("Lumen Lighting Co", "a floor lamp"), ("Nordic Knitworks", "two wool sweaters"), ("GearUp Outdoors", "a tent"),
    ("PixelPro Cameras", "a camera lens"), ("Casa Ceramica", "a dinner set"), ("Velo City Bikes", "a bike helmet"),
    ("SoundWave Audio", "a pair of speakers"), ("Urban Roots Nursery", "three potted plants"),
    ("Atlas Luggage", "a carry-on suitcase"), ("Brightside Kitchen", "a stand mixer"),
]
SUBSCRIPTIONS = ["FitTrack Premium", "CloudVault Storage", "Melody Stream", "DailyBrief News", "LingoLeap"]
FRAUD_MERCHANTS = ["GLOBALTRADE*ONLINE", "XPRS ELECTRONICS LTD", "LUXEWATCH OUTLET", "QPAY*GAMESHOP",
                   "NOVA DIGITAL GOODS", "TRAVELBOOK INTL", "SNEAKERVAULT WEB", "CRYPTOSWAP SERVICES"]
PAYEE_LAST = ["Hale", "Moreno", "Pryce", "Lind", "Okafor", "Brandt", "Sato", "Keller", "Duarte", "Voss"]
BANKS = ["First Harbor Bank", "Summit Credit Union", "Pioneer National", "Riverbend Savings", "Keystone Bank",
         "Lakeshore Federal"]
LEVEL_LIMITS = {1: (1000.0, 1500.0, 300.0, 1, "basic"), 2: (5000.0, 5000.0, 800.0, 2, "standard"),
                3: (25000.0, 10000.0, 1500.0, 4, "premium")}
FEES = {"overdraft": 35.0, "monthly_maintenance": 12.0, "atm_out_of_network": 3.5, "returned_payment": 29.0,
        "paper_statement": 2.0, "card_replacement": 10.0, "expedited_card_shipping": 25.0}
FEE_NAMES = {"overdraft": "overdraft fee", "monthly_maintenance": "monthly maintenance fee",
             "atm_out_of_network": "out-of-network ATM fee", "returned_payment": "returned payment fee",
             "paper_statement": "paper statement fee"}


def day(days_ago: int) -> str:
    """The ISO date `days_ago` days before today (negative: in the future)."""
    return (TODAY - timedelta(days=days_ago)).isoformat()


def money(x: float) -> float:
    return round(x + 1e-9, 2)


def fmt(x: float) -> str:
    """Money as the agent would write it: 1250 -> '1,250.00'."""
    return f"{x:,.2f}"


def call(tool: str, /, **arguments: Any) -> dict[str, Any]:
    return {"name": tool, "arguments": {k: v for k, v in arguments.items() if v is not None}}


def new_card_last4(old_last4: str, new_id: int = NEW) -> str:
    """The last 4 digits `replace_card` gives the new card (see tools.replace_card)."""
    return f"{(new_id * 7919 + int(old_last4)) % 10000:04d}"


# -- assertions and wrong paths ------------------------------------------------------------------


def says(*facts: Any) -> dict[str, Any]:
    return {"response_contains": [str(f) for f in facts]}


def exists(table: str, **where: Any) -> dict[str, Any]:
    return {"row_exists": {"table": table, "where": where}}


def absent(table: str, **where: Any) -> dict[str, Any]:
    return {"row_absent": {"table": table, "where": where}}


def unchanged(table: str, key: Any, columns: list[str] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"table": table, "id": key}
    if columns:
        body["columns"] = columns
    return {"row_unchanged": body}


def drop(tag: str, indices: list[int], note: str) -> dict[str, Any]:
    return {"tag": tag, "note": note, "drop": indices}


def append(tag: str, calls: list[dict[str, Any]], note: str) -> dict[str, Any]:
    return {"tag": tag, "note": note, "append": calls}


def replace(tag: str, index: int, new_call: dict[str, Any], note: str) -> dict[str, Any]:
    return {"tag": tag, "note": note, "replace": {index: new_call}}


def reply(tag: str, text: str, note: str) -> dict[str, Any]:
    return {"tag": tag, "note": note, "reply": text}


# -- the per-split id and name pools -------------------------------------------------------------


class Pools:
    """Ids and names for one split; every task draws fresh ones, so no two tasks share a record."""

    def __init__(self, split: str):
        self.split = split
        first_id, first_tx, _ = SPLITS[split]
        self.next = {p: first_id for p in ("CU", "AC", "CD", "KD", "HD", "PY", "TR", "FR", "AP", "T", "N")}
        self.next["TX"] = first_tx
        rng = random.Random(f"names:{split}")
        names = [(f, last) for f in FIRST[split] for last in LAST[split]]
        rng.shuffle(names)
        self.names = names

    def id(self, prefix: str) -> str:
        n = self.next[prefix]
        self.next[prefix] += 1
        return f"{prefix}-{n}"

    def name(self) -> tuple[str, str]:
        return self.names.pop()


# -- a scenario: the records of one task ----------------------------------------------------------


class Scenario:
    """Builds one task's initial patch with realistic records and remembers what it made."""

    def __init__(self, pools: Pools, rng: random.Random):
        self.pools = pools
        self.split = pools.split
        self.rng = rng
        self.patch: dict[str, list[dict[str, Any]]] = {}

    def add(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        self.patch.setdefault(table, []).append(row)
        return row

    def person(self) -> str:
        """A name for someone who is not a customer (a payee), from the split's own first names."""
        return f"{self.rng.choice(FIRST[self.split])} {self.rng.choice(PAYEE_LAST)}"

    # people and documents
    def customer(self, *, kyc_status: str = "verified", level: int = 2, joined: str | None = None,
                 risk: bool = False, name: tuple[str, str] | None = None, docs: list[tuple] | None = None,
                 email_suffix: str = "") -> dict[str, Any]:
        rng = self.rng
        first, last = name or self.pools.name()
        cid = self.pools.id("CU")
        city, state, zips, area = rng.choice(CITIES)
        n = int(cid.split("-")[1])
        c = self.add("customers", {
            "id": cid, "first_name": first, "last_name": last,
            "email": f"{first}.{last}{email_suffix}@example.com".lower(),
            "phone": f"{area}-555-{n % 10000:04d}",
            "date_of_birth": (date(1958, 1, 1) + timedelta(days=rng.randint(0, 15000))).isoformat(),
            "address_line1": f"{rng.randint(10, 9899)} {rng.choice(STREETS)}", "city": city, "state": state,
            "zip_code": rng.choice(zips), "kyc_status": kyc_status, "kyc_level": level,
            "joined_on": joined or day(rng.randint(400, 2200)), "risk_flag": risk,
        })
        if docs is None:
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
        for doc in docs:
            self.doc(c, *doc)
        return c

    def doc(self, c: dict[str, Any], doc_type: str, status: str, expires_on: str | None = None,
            submitted_on: str | None = None) -> dict[str, Any]:
        if expires_on is None and doc_type == "government_id":
            expires_on = f"{2028 + self.rng.randint(0, 6)}-{self.rng.randint(1, 12):02d}-01"
        return self.add("kyc_documents", {
            "id": self.pools.id("KD"), "customer_id": c["id"], "doc_type": doc_type, "status": status,
            "submitted_on": submitted_on or day(self.rng.randint(5, 300)), "expires_on": expires_on})

    # money
    def account(self, c: dict[str, Any], kind: str = "checking", balance: float | None = None,
                nickname: str | None = None) -> dict[str, Any]:
        rng = self.rng
        if balance is None:
            balance = money(rng.uniform(800, 4800))
        return self.add("accounts", {
            "id": self.pools.id("AC"), "customer_id": c["id"], "kind": kind,
            "nickname": nickname or ("Everyday Checking" if kind == "checking" else rng.choice(
                ["Rainy Day", "Savings", "Vacation Fund", "Emergency Fund"])),
            "number_last4": f"{rng.randint(0, 9999):04d}", "status": "open", "balance": money(balance),
            "opened_on": c["joined_on"]})

    def card(self, c: dict[str, Any], a: dict[str, Any], *, kind: str = "physical", status: str = "active",
             spend: float | None = None, atm: float | None = None, issued: str | None = None,
             reported_on: str | None = None, last4: str | None = None) -> dict[str, Any]:
        level = c["kyc_level"]
        if spend is None:
            spend = min(1000.0 * level, LEVEL_LIMITS[level][1]) if kind == "physical" else 500.0
        if atm is None:
            atm = 300.0 + 200 * (level - 1) if kind == "physical" else 0.0
        issued = issued or day(self.rng.randint(60, 700))
        used = {x["last4"] for x in self.patch.get("cards", [])}
        while last4 is None or last4 in used:
            last4 = f"{self.rng.randint(1000, 9999)}"
        return self.add("cards", {
            "id": self.pools.id("CD"), "customer_id": c["id"], "account_id": a["id"], "kind": kind, "last4": last4,
            "status": status, "daily_spend_limit": spend, "atm_daily_limit": atm, "issued_on": issued,
            "expires": f"{int(issued[:4]) + 4}-{issued[5:7]}", "reported_on": reported_on, "replaces_card_id": None,
            "shipping": None})

    def tx(self, a: dict[str, Any], posted_on: str, kind: str, amount: float, *, merchant: str | None = None,
           card: dict[str, Any] | None = None, fee_code: str | None = None, status: str = "posted",
           description: str | None = None, reference_id: str | None = None) -> dict[str, Any]:
        return self.add("transactions", {
            "id": self.pools.id("TX"), "account_id": a["id"], "card_id": card["id"] if card else None,
            "posted_on": posted_on, "kind": kind, "merchant": merchant, "fee_code": fee_code, "amount": money(amount),
            "status": status, "reference_id": reference_id,
            "description": description or merchant or kind.replace("_", " ").title()})

    def fee(self, a: dict[str, Any], code: str, posted_on: str) -> dict[str, Any]:
        return self.tx(a, posted_on, "fee", -FEES[code], fee_code=code, description=FEE_NAMES.get(code, code).capitalize())

    def history(self, a: dict[str, Any], card: dict[str, Any] | None, n: int = 5, avoid: tuple[str, ...] = ()) -> None:
        """Background activity: a payroll deposit and a few card purchases in the last weeks."""
        rng = self.rng
        self.tx(a, day(rng.randint(14, 16)), "deposit", rng.choice([1850.0, 2400.0, 3100.0]),
                description="Payroll direct deposit")
        merchants = [m for m in MERCHANTS if m not in avoid]
        for _ in range(n):
            self.tx(a, day(rng.randint(3, 40)), "card_purchase", -money(rng.uniform(6, 140)),
                    merchant=rng.choice(merchants), card=card)

    def refund_of(self, c: dict[str, Any], fee_tx: dict[str, Any], refunded_on: str) -> dict[str, Any]:
        a = next(x for x in self.patch["accounts"] if x["id"] == fee_tx["account_id"])
        self.tx(a, refunded_on, "fee_refund", -fee_tx["amount"], description="Courtesy fee refund",
                reference_id=fee_tx["id"])
        return self.add("fee_refunds", {
            "id": self.pools.id("FR"), "customer_id": c["id"], "fee_transaction_id": fee_tx["id"],
            "amount": -fee_tx["amount"], "refunded_on": refunded_on, "approval_id": None, "reason": "Courtesy refund"})

    def hold(self, a: dict[str, Any], kind: str, amount: float, description: str, placed_on: str, release_on: str,
             status: str = "active") -> dict[str, Any]:
        return self.add("holds", {
            "id": self.pools.id("HD"), "account_id": a["id"], "kind": kind, "amount": amount,
            "description": description, "placed_on": placed_on, "release_on": release_on, "status": status,
            "released_on": release_on if status == "released" else None})

    def payee(self, c: dict[str, Any], name: str, bank: str | None = None, last4: str | None = None,
              added_on: str | None = None) -> dict[str, Any]:
        rng = self.rng
        return self.add("payees", {
            "id": self.pools.id("PY"), "customer_id": c["id"], "name": name, "bank_name": bank or rng.choice(BANKS),
            "routing_number": f"{rng.randint(10**8, 10**9 - 1)}", "account_last4": last4 or f"{rng.randint(1000, 9999)}",
            "status": "active", "added_on": added_on or day(rng.randint(30, 500))})

    def transfer(self, c: dict[str, Any], a: dict[str, Any], amount: float, status: str, scheduled_for: str, *,
                 payee: dict[str, Any] | None = None, to: dict[str, Any] | None = None,
                 created_on: str | None = None, memo: str = "") -> dict[str, Any]:
        return self.add("transfers", {
            "id": self.pools.id("TR"), "customer_id": c["id"], "kind": "external" if payee else "internal",
            "from_account_id": a["id"], "to_account_id": to["id"] if to else None,
            "payee_id": payee["id"] if payee else None, "amount": amount, "status": status,
            "scheduled_for": scheduled_for, "created_on": created_on or min(scheduled_for, day(0)),
            "cancelled_on": None, "approval_id": None, "memo": memo})

    def dispute(self, c: dict[str, Any], t: dict[str, Any], reason: str, status: str = "open", opened_on: str | None = None,
                provisional: float = 0.0, closed_on: str | None = None) -> dict[str, Any]:
        return self.add("disputes", {
            "id": "DP-" + t["id"].split("-", 1)[1], "transaction_id": t["id"], "customer_id": c["id"],
            "account_id": t["account_id"], "reason": reason, "amount": -t["amount"], "status": status,
            "provisional_credit": provisional, "approval_id": None, "opened_on": opened_on or t["posted_on"],
            "closed_on": closed_on, "description": "Opened by the customer in the app"})

    def ticket(self, c: dict[str, Any], subject: str, category: str, *, status: str = "open",
               account: dict[str, Any] | None = None, card: dict[str, Any] | None = None,
               dispute: dict[str, Any] | None = None, created: str | None = None,
               note: str | None = None) -> dict[str, Any]:
        t = self.add("tickets", {
            "id": self.pools.id("T"), "customer_id": c["id"], "account_id": account["id"] if account else None,
            "card_id": card["id"] if card else None, "dispute_id": dispute["id"] if dispute else None,
            "subject": subject, "category": category, "status": status, "priority": "normal",
            "escalation_reason": None, "created_at": f"{created or day(self.rng.randint(1, 6))}T10:15:00Z"})
        self.add("ticket_notes", {"id": self.pools.id("N"), "ticket_id": t["id"], "author": "customer",
                                  "body": note or subject, "created_at": t["created_at"]})
        return t


# -- identity: how the customer is found and verified ---------------------------------------------


class Who:
    """The golden lookup + verification of a customer, and the words the customer uses."""

    def __init__(self, c: dict[str, Any], rng: random.Random, find: str | None = None, proof: str | None = None,
                 card: dict[str, Any] | None = None):
        self.c = c
        self.find = find or rng.choice(["email", "email", "phone"])
        self.proof = proof or ("card" if card is not None and rng.random() < 0.35 else "zip")
        self.card = card
        dob = c["date_of_birth"]
        if self.find == "email":
            self.lookup = call("find_customer", email=c["email"])
            self.intro = f"I'm {c['first_name']} {c['last_name']}, {c['email']}."
        elif self.find == "phone":
            self.lookup = call("find_customer", phone=c["phone"])
            self.intro = f"This is {c['first_name']} {c['last_name']}, my phone number is {c['phone']}."
        else:
            self.lookup = call("find_customer", first_name=c["first_name"], last_name=c["last_name"], date_of_birth=dob)
            self.intro = f"My name is {c['first_name']} {c['last_name']}, born {dob}."
        if self.proof == "zip":
            self.verify = call("verify_identity", customer_id=c["id"], date_of_birth=dob, zip_code=c["zip_code"])
            self.turn = f"My date of birth is {dob} and my zip code is {c['zip_code']}."
        else:
            assert card is not None
            self.verify = call("verify_identity", customer_id=c["id"], date_of_birth=dob, card_last4=card["last4"])
            self.turn = f"Date of birth {dob}; my card ends in {card['last4']}."
        if self.find == "name":
            self.turn = (f"My zip code is {c['zip_code']}." if self.proof == "zip"
                         else f"My card ends in {card['last4']}.")  # type: ignore[index]

    @property
    def calls(self) -> list[dict[str, Any]]:
        return [self.lookup, self.verify]

    def facts(self) -> dict[str, Any]:
        out = {"name": f"{self.c['first_name']} {self.c['last_name']}", "email": self.c["email"],
               "phone": self.c["phone"], "date_of_birth": self.c["date_of_birth"], "zip_code": self.c["zip_code"]}
        if self.card is not None:
            out["card_last4"] = self.card["last4"]
        return out


# -- the task record ------------------------------------------------------------------------------


def make_task(
    s: Scenario,
    who: Who | None,
    *,
    kind: str,
    difficulty: str,
    skills: list[str],
    persona: str,
    goal: str,
    first_message: str,
    turns: list[str],
    golden: list[dict[str, Any]],
    golden_reply: str,
    assertions: list[dict[str, Any]],
    wrong_paths: list[dict[str, Any]],
    facts: dict[str, Any] | None = None,
    instructions: str | None = None,
    policy_facts: list[str] | None = None,
) -> dict[str, Any]:
    known = {**(who.facts() if who else {}), **(facts or {})}
    user: dict[str, Any] = {"persona": persona, "goal": goal, "known_facts": known, "first_message": first_message,
                            "scripted_turns": turns}
    if instructions:
        user["instructions"] = instructions
    return {
        "tags": {"difficulty": difficulty, "kind": kind, "skills": skills},
        "user": user,
        "initial_patch": s.patch,
        "golden_actions": golden,
        "golden_reply": " ".join(golden_reply.split()),
        "assertions": assertions,
        "wrong_paths": wrong_paths,
        "_policy_facts": policy_facts or [],
    }


Template = Callable[[Scenario, int], dict[str, Any]]
TEMPLATES: dict[str, Template] = {}
EXTRA_TRAIN: set[str] = set()  # templates that also get a second train task


def template(name: str, extra_train: bool = False) -> Callable[[Template], Template]:
    def register(fn: Template) -> Template:
        TEMPLATES[name] = fn
        if extra_train:
            EXTRA_TRAIN.add(name)
        return fn
    return register


# =================================================================================================
# read-only questions
# =================================================================================================

@template("general-question", extra_train=True)
def general_question(s: Scenario, v: int) -> dict[str, Any]:
    """A general question answered from the public fee schedule or level table, no verification.
    The customer hints at an action they have not asked for; doing it is the mistake."""
    rng = s.rng
    c = s.customer(level=2)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    who = f"{c['first_name']} {c['last_name']}"
    variant = v % 5
    if variant == 0:
        golden = [call("get_fee_schedule")]
        q = "How much does it cost to get a replacement card delivered fast, in 2 days? My card is getting worn out, just asking for now."
        ans = "Expedited card delivery (2 business days) costs 25.00; standard delivery is free."
        facts_ = ["25"]
        wrong = append("extra_write", [call("replace_card", card_id=card["id"], reason="damaged", shipping="expedited",
                                            waive_replacement_fee=True)], "orders a replacement nobody asked for")
        bad = "Expedited delivery is 10.00; standard delivery is free."
    elif variant == 1:
        fee = s.fee(a, "atm_out_of_network", day(rng.randint(2, 9)))
        golden = [call("get_fee_schedule")]
        q = "What do you charge for using an out-of-network ATM? I just want to know the fee before I use one again."
        ans = "An out-of-network ATM withdrawal costs 3.50 per withdrawal, plus any fee the ATM operator charges."
        facts_ = ["3.50"]
        wrong = append("extra_write", [call("refund_fee", transaction_id=fee["id"], reason="Customer asked about the fee")],
                       "refunds the customer's last ATM fee unasked")
        bad = "Out-of-network ATM withdrawals are free of charge."
    elif variant == 2:
        golden = [call("get_kyc_limits")]
        q = ("I'm on the standard level. What's the highest ATM limit I could set, and how much can I send to other "
             "banks per day? Just asking, don't change anything.")
        ans = "At the standard level (2) the ATM limit can be up to 800.00 a day, and external transfers up to 5,000.00 a day."
        facts_ = ["800", "5,000"]
        wrong = append("extra_write", [call("update_card_limits", card_id=card["id"], atm_daily_limit=800)],
                       "raises the ATM limit although the customer only asked")
        bad = "At the standard level the ATM limit can be up to 1,500.00 a day and external transfers up to 5,000.00."
    elif variant == 3:
        golden = [call("get_kyc_limits")]
        q = "What would the premium level give me? Specifically the top card spending limit and how many fee refunds a year."
        ans = "Premium (level 3) allows a card spend limit of up to 10,000.00 a day and 4 courtesy fee refunds per calendar year."
        facts_ = ["10,000", "4"]
        wrong = append("extra_write", [call("upgrade_kyc_level", customer_id=c["id"], level=3)],
                       "upgrades the customer's level although they only asked")
        bad = "Premium allows a card spend limit of up to 5,000.00 a day and 2 courtesy fee refunds per year."
    else:
        fee = s.fee(a, "returned_payment", day(rng.randint(2, 9)))
        golden = [call("get_fee_schedule")]
        q = "How much is the fee when one of my payments bounces back unpaid? I want to understand it, nothing else."
        ans = "The returned payment fee is 29.00, charged when an outgoing payment is returned unpaid."
        facts_ = ["29"]
        wrong = append("extra_write", [call("refund_fee", transaction_id=fee["id"], reason="Customer asked about the fee")],
                       "refunds the fee although the customer only asked what it is")
        bad = "The returned payment fee is 35.00."
    return make_task(
        s, None, kind="read_only", difficulty="easy", skills=["general_information", "fees" if "fee" in golden[0]["name"] else "kyc"],
        persona=f"{who}, a customer who only wants general information and does not want to share account details.",
        goal="Get an answer to a general question about fees or limits, without any change.",
        first_message=f"Hi! {q}",
        turns=["Thanks, that's all I needed."],
        facts={"name": who},
        golden=golden, golden_reply=ans, assertions=[says(*facts_)],
        wrong_paths=[wrong, reply("wrong_reply", bad, "states the wrong amount")],
    )


@template("balance-holds")
def balance_holds(s: Scenario, v: int) -> dict[str, Any]:
    """Why is the available balance lower than the balance? Active holds (one may already be released)."""
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    bal = money(rng.uniform(1500, 3200))
    a = s.account(c, balance=bal)
    card = s.card(c, a)
    s.history(a, card, 4)
    dep = rng.choice([350.0, 620.0, 940.0, 1275.0])
    placed = rng.randint(1, 3)
    h1 = s.hold(a, "check_deposit", dep, "Mobile check deposit", day(placed), day(placed - 5))
    s.hold(a, "card_authorization", 80.0, "Authorization: QuickFuel Gas", day(25), day(-5), status="released")
    total = dep
    two = v % 2 == 1
    if two:
        auth = rng.choice([150.0, 220.0, 300.0])
        s.hold(a, "card_authorization", auth, "Authorization: CarGo Rentals", day(2), day(-28))
        total += auth
    avail = money(bal - total)
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("get_account", account_id=a["id"])]
    text = (f"Your balance is {fmt(bal)}, but {fmt(total)} is on hold, so {fmt(avail)} is available. The hold of "
            f"{fmt(dep)} is your mobile check deposit; it releases by itself on {h1['release_on']}.")
    if two:
        text += " The other hold is a card authorization from CarGo Rentals that releases when the rental is settled."
    return make_task(
        s, who, kind="read_only", difficulty="easy", skills=["verification", "accounts", "holds"],
        persona=f"{c['first_name']} {c['last_name']}, puzzled that the app shows two different balances.",
        goal="Understand why the available balance is lower than the balance, and when the money becomes available.",
        first_message=f"{who.intro} My app says my balance is {fmt(bal)} but I can only spend less than that. Why?",
        turns=[who.turn, "Got it, thanks for explaining."],
        golden=golden, golden_reply=text,
        assertions=[says(fmt(avail), h1["release_on"])],
        wrong_paths=[
            append("extra_write", [call("release_hold", hold_id=h1["id"], reason="Customer needs the funds")],
                   "releases a check-deposit hold early"),
            reply("wrong_reply", f"Your available balance is {fmt(bal)}; there is nothing on hold.", "misreads the holds"),
            drop("missing_step", [1], "answers without verifying the customer"),
        ],
    )


@template("dispute-status")
def dispute_status(s: Scenario, v: int) -> dict[str, Any]:
    """Status of an open dispute; an older, decided dispute with the same merchant is the distractor."""
    rng = s.rng
    c = s.customer()
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    shop, _item = SHOPS[(v + 3) % len(SHOPS)]
    old = s.tx(a, day(rng.randint(200, 300)), "card_purchase", -money(rng.uniform(40, 120)), merchant=shop, card=card)
    s.dispute(c, old, "not_received", status="won", opened_on=day(190), closed_on=day(170))
    new = s.tx(a, day(rng.randint(15, 30)), "card_purchase", -money(rng.uniform(60, 400)), merchant=shop, card=card)
    duplicate = v % 2 == 0
    credit = -new["amount"] if duplicate else 0.0
    d = s.dispute(c, new, "duplicate_charge" if duplicate else "not_received", opened_on=day(rng.randint(5, 12)),
                  provisional=credit)
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("list_disputes", customer_id=c["id"]), call("get_dispute", dispute_id=d["id"])]
    if duplicate:
        text = (f"Your dispute {d['id']} about the {fmt(-new['amount'])} charge from {shop} is still open (opened "
                f"{d['opened_on']}). A provisional credit of {fmt(credit)} is already in your account; a decision comes "
                "within 45 days of opening.")
        fact = [d["id"], "open", fmt(credit)]
    else:
        text = (f"Your dispute {d['id']} about the {fmt(-new['amount'])} charge from {shop} is still open (opened "
                f"{d['opened_on']}); the merchant has been asked to respond, and a decision comes within 45 days. "
                "This kind of dispute gets no provisional credit.")
        fact = [d["id"], "open", d["opened_on"]]
    return make_task(
        s, who, kind="read_only", difficulty="easy", skills=["verification", "disputes"],
        persona=f"{c['first_name']} {c['last_name']}, waiting on a dispute and a little impatient.",
        goal=f"Learn the status of the dispute about the recent {shop} charge.",
        first_message=f"{who.intro} What's happening with my dispute about {shop}?",
        turns=[who.turn, "The recent one, yes. Thanks."],
        golden=golden, golden_reply=text, assertions=[says(*fact)],
        policy_facts=["45 days"],
        wrong_paths=[
            reply("wrong_reply", f"Your dispute with {shop} was decided in your favour (won).", "reads the old dispute"),
            drop("missing_step", [1], "answers without verifying the customer"),
        ],
    )


@template("transfer-limit-inquiry")
def transfer_limit_inquiry(s: Scenario, v: int) -> dict[str, Any]:
    """How much more can I send today? Counts today's pending transfer, not a cancelled or future one."""
    rng = s.rng
    level = [1, 2, 3][v % 3]
    limit = LEVEL_LIMITS[level][0]
    c = s.customer(level=level)
    a = s.account(c, balance=money(limit * 1.2 + 500))
    card = s.card(c, a)
    s.history(a, card, 3)
    p1 = s.payee(c, s.person())
    sent = money(limit * rng.choice([0.25, 0.4, 0.55]))
    s.transfer(c, a, sent, "pending", day(0), payee=p1, memo="Rent")
    s.transfer(c, a, money(limit * 0.3), "cancelled", day(0), payee=p1, memo="Oops")
    s.transfer(c, a, money(limit * 0.2), "scheduled", day(-6), payee=p1, created_on=day(3), memo="Savings club")
    remaining = money(limit - sent)
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_transfer_limits", customer_id=c["id"])]
    text = (f"Your daily limit for transfers to other banks is {fmt(limit)}. Today you've already sent {fmt(sent)}, so "
            f"you can still send {fmt(remaining)} today.")
    return make_task(
        s, who, kind="read_only", difficulty="medium", skills=["verification", "transfers", "kyc"],
        persona=f"{c['first_name']} {c['last_name']}, planning a payment to another bank later today.",
        goal="Learn how much can still be sent to other banks today.",
        first_message=f"{who.intro} How much more can I send to other banks today?",
        turns=[who.turn, "Perfect, thank you."],
        golden=golden, golden_reply=text, assertions=[says(fmt(remaining))],
        wrong_paths=[
            reply("wrong_reply", f"You can send {fmt(money(limit - sent - limit * 0.3))} more today.",
                  "counts the cancelled transfer"),
            drop("missing_step", [1], "answers without verifying the customer"),
        ],
    )


# =================================================================================================
# cards
# =================================================================================================

@template("freeze-card", extra_train=True)
def freeze_card(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2, 3]))
    a = s.account(c)
    if v % 2:
        s.card(c, a, status="lost", issued=day(900), reported_on=day(rng.randint(400, 600)))
    card = s.card(c, a)
    virtual = s.card(c, a, kind="virtual")
    s.history(a, card, 4)
    who = Who(c, rng, find=rng.choice(["email", "phone"]), proof="zip")
    golden = [*who.calls, call("list_cards", customer_id=c["id"]), call("freeze_card", card_id=card["id"])]
    text = (f"Done: your physical card ending in {card['last4']} is now frozen, so no payments will go through. Your "
            "virtual card is not affected. Unfreeze it any time once you find it.")
    return make_task(
        s, who, kind="single_write", difficulty="easy", skills=["verification", "cards"],
        persona=f"{c['first_name']} {c['last_name']}, thinks the card is somewhere at home and does not want it cancelled.",
        goal=f"Freeze the physical debit card ending {card['last4']} until it turns up; keep the virtual card working.",
        first_message=f"{who.intro} I can't find my debit card, it's probably somewhere at home. Can you freeze it for now?",
        turns=[who.turn, f"Yes, the plastic one ending {card['last4']}. Don't cancel it, I'll find it.", "Thanks!"],
        golden=golden, golden_reply=text,
        assertions=[exists("cards", id=card["id"], status="frozen"), unchanged("cards", virtual["id"]), says(card["last4"])],
        wrong_paths=[
            replace("wrong_entity", 3, call("freeze_card", card_id=virtual["id"]), "freezes the virtual card"),
            append("extra_write", [call("report_card_lost_or_stolen", card_id=card["id"], kind="lost")],
                   "reports the card lost although the customer only wants it frozen"),
        ],
    )


@template("unfreeze-card")
def unfreeze_card(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a, status="frozen")
    virtual = s.card(c, a, kind="virtual", status="frozen")
    s.history(a, card, 3)
    who = Who(c, rng, card=card, proof="card")
    golden = [*who.calls, call("list_cards", customer_id=c["id"]), call("unfreeze_card", card_id=card["id"])]
    text = (f"Your card ending in {card['last4']} is unfrozen and works again. Your virtual card ending in "
            f"{virtual['last4']} stays frozen, as you asked.")
    return make_task(
        s, who, kind="single_write", difficulty="easy", skills=["verification", "cards"],
        persona=f"{c['first_name']} {c['last_name']}, found the debit card in a jacket pocket.",
        goal=f"Unfreeze the physical card ending {card['last4']}; keep the virtual card ending {virtual['last4']} frozen.",
        first_message=f"{who.intro} Good news, I found my card. Please unfreeze the one ending {card['last4']} - "
                      "but leave my virtual card frozen, I don't use it.",
        turns=[who.turn, "Great, thanks."],
        golden=golden, golden_reply=text,
        assertions=[exists("cards", id=card["id"], status="active"), unchanged("cards", virtual["id"]),
                    says(card["last4"])],
        wrong_paths=[
            replace("wrong_entity", 3, call("unfreeze_card", card_id=virtual["id"]), "unfreezes the virtual card"),
            append("extra_write", [call("unfreeze_card", card_id=virtual["id"])], "unfreezes both cards"),
        ],
    )


@template("card-limit-change", extra_train=True)
def card_limit_change(s: Scenario, v: int) -> dict[str, Any]:
    """Raise (verified KYC) or lower (any KYC) one limit of one card, to the exact amount asked."""
    rng = s.rng
    lower = v % 3 == 2
    level = 1 if lower else rng.choice([2, 3])
    c = s.customer(level=level, kyc_status="pending" if lower else "verified")
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    atm = v % 2 == 0
    if lower:
        field_, new = ("atm_daily_limit", 100.0) if atm else ("daily_spend_limit", 400.0)
    else:
        maxima = {"atm_daily_limit": LEVEL_LIMITS[level][2], "daily_spend_limit": LEVEL_LIMITS[level][1]}
        field_ = "atm_daily_limit" if atm else "daily_spend_limit"
        new = money(maxima[field_] - (100.0 if atm else 500.0))
    what = "ATM withdrawal limit" if atm else "daily spending limit"
    other = "daily_spend_limit" if atm else "atm_daily_limit"
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_kyc_status", customer_id=c["id"]), call("list_cards", customer_id=c["id"]),
              call("update_card_limits", card_id=card["id"], **{field_: new})]
    text = f"Your card ending in {card['last4']} now has a daily {what.replace('daily ', '')} of {fmt(new)}; the other limit is unchanged."
    verb = "lower" if lower else "raise"
    wrong_value = LEVEL_LIMITS[level][2] if atm else LEVEL_LIMITS[level][1]
    return make_task(
        s, who, kind="single_write", difficulty="medium", skills=["verification", "cards", "limits", "kyc"],
        persona=f"{c['first_name']} {c['last_name']}, " + ("worried about overspending." if lower else "about to travel."),
        goal=f"{verb.capitalize()} the {what} of card {card['last4']} to {fmt(new)}.",
        first_message=f"{who.intro} Please {verb} the {what} on my card to {fmt(new)} a day.",
        turns=[who.turn, f"The card ending {card['last4']}. Only that limit, please.", "Thanks."],
        golden=golden, golden_reply=text,
        assertions=[exists("cards", id=card["id"], **{field_: new}), unchanged("cards", card["id"], [other]), says(fmt(new))],
        wrong_paths=[
            replace("wrong_amount", 4, call("update_card_limits", card_id=card["id"], **{field_: wrong_value if not lower else 0}),
                    "sets a different amount than asked"),
            replace("extra_write", 4, call("update_card_limits", card_id=card["id"], **{field_: new, other: 0 if lower else
                                           (LEVEL_LIMITS[level][1] if atm else LEVEL_LIMITS[level][2])}),
                    "changes the other limit too"),
            drop("missing_step", [1], "changes the card without verifying the customer"),
        ],
    )


@template("card-limit-over-max")
def card_limit_over_max(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    level = [1, 2, 1][v % 3]
    c = s.customer(level=level)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    atm = v % 2 == 1
    mx = LEVEL_LIMITS[level][2] if atm else LEVEL_LIMITS[level][1]
    ask = money(mx * rng.choice([1.5, 2.0]))
    field_ = "atm_daily_limit" if atm else "daily_spend_limit"
    what = "ATM limit" if atm else "daily spending limit"
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_kyc_status", customer_id=c["id"]), call("list_cards", customer_id=c["id"])]
    text = (f"I can't set your {what} to {fmt(ask)}: at your KYC level ({LEVEL_LIMITS[level][4]}, level {level}) the "
            f"maximum is {fmt(mx)} per day. A higher KYC level allows more. I've left your card's limits unchanged.")
    return make_task(
        s, who, kind="refusal", difficulty="medium", skills=["verification", "cards", "limits", "kyc", "policy"],
        persona=f"{c['first_name']} {c['last_name']}, wants a much higher limit for a big purchase; if it is not possible, "
                "leaves things as they are.",
        goal=f"Raise the {what} of card {card['last4']} to {fmt(ask)}; if impossible, change nothing.",
        first_message=f"{who.intro} I need the {what} on my card raised to {fmt(ask)} a day.",
        turns=[who.turn, "Oh. No, then leave it as it is, thanks."],
        instructions="If the agent says that amount is not possible, do not ask for the maximum instead; keep the limits unchanged.",
        golden=golden, golden_reply=text,
        assertions=[unchanged("cards", card["id"]), says(fmt(mx))],
        wrong_paths=[
            append("extra_write", [call("update_card_limits", card_id=card["id"], **{field_: mx})],
                   "sets the maximum although the customer did not ask for it"),
            reply("wrong_reply", f"Your {what} can't go that high; the maximum is {fmt(mx * 2)}.", "quotes the wrong maximum"),
        ],
    )


@template("lost-card-replace", extra_train=True)
def lost_card_replace(s: Scenario, v: int) -> dict[str, Any]:
    """Report lost and replace; the $10 fee depends on an earlier lost card within 365 days."""
    rng = s.rng
    variant = v % 4  # 0 first lost (waived), 1 second lost in 365 days (fee), 2 old lost > 365 days (waived), 3 premium
    level = 3 if variant == 3 else rng.choice([1, 2])
    c = s.customer(level=level)
    a = s.account(c)
    if variant in (1, 3):
        s.card(c, a, status="lost", issued=day(500), reported_on=day(rng.randint(60, 300)))
    elif variant == 2:
        s.card(c, a, status="lost", issued=day(900), reported_on=day(rng.randint(380, 600)))
    else:
        s.card(c, a, status="stolen", issued=day(700), reported_on=day(rng.randint(100, 300)))
    card = s.card(c, a)
    s.history(a, card, 4)
    expedited = v % 2 == 1
    fee_due = variant == 1
    who = Who(c, rng, proof="zip")
    shipping = "expedited" if expedited else "standard"
    golden = [*who.calls, call("list_cards", customer_id=c["id"]),
              call("report_card_lost_or_stolen", card_id=card["id"], kind="lost"),
              call("replace_card", card_id=card["id"], reason="lost", shipping=shipping, waive_replacement_fee=not fee_due)]
    fees = (10.0 if fee_due else 0.0) + (25.0 if expedited and level < 3 else 0.0)
    new4 = new_card_last4(card["last4"])
    text = (f"Your card ending in {card['last4']} is now blocked as lost. A replacement card ending in {new4} is on its way "
            f"to your mailing address ({'2 business days' if expedited else '5-7 business days'}). ")
    text += (f"Fees charged: {fmt(fees)}." if fees else "There is no fee for this replacement.")
    facts_ = [new4] + ([fmt(fees)] if fees else [])
    ship_words = "as fast as possible, I'll pay for express delivery" if expedited else "regular delivery is fine"
    return make_task(
        s, who, kind="multi_step", difficulty="medium", skills=["verification", "cards", "fees", "policy"],
        persona=f"{c['first_name']} {c['last_name']}, lost their wallet on the bus.",
        goal=f"Block the lost card ending {card['last4']} and get a replacement ({shipping} delivery).",
        first_message=f"{who.intro} I lost my wallet with my debit card ending {card['last4']}. Please block it and send me a new one.",
        turns=[who.turn, f"Yes, it's definitely gone. Send the new card to my home address - {ship_words}.", "Thank you."],
        golden=golden, golden_reply=text,
        assertions=[exists("cards", id=card["id"], status="lost"), exists("cards", replaces_card_id=card["id"], shipping=shipping),
                    says(*facts_)],
        wrong_paths=[
            replace("wrong_amount", 4, call("replace_card", card_id=card["id"], reason="lost", shipping=shipping,
                                            waive_replacement_fee=fee_due), "applies the replacement fee rule the wrong way")
            if level < 3 else
            replace("wrong_entity", 3, call("report_card_lost_or_stolen", card_id=card["id"], kind="stolen"),
                    "reports the lost card as stolen (the lost-card replacement is then refused)"),
            drop("missing_step", [4], "blocks the card but orders no replacement"),
            replace("extra_write", 4, call("replace_card", card_id=card["id"], reason="lost",
                                           shipping="standard" if expedited else "expedited",
                                           waive_replacement_fee=not fee_due), "picks the other delivery speed"),
        ],
    )


@template("damaged-card-new-address")
def damaged_card_new_address(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    city, state, zips, _ = rng.choice([x for x in CITIES if x[0] != c["city"]])
    line1 = f"{rng.randint(10, 9899)} {rng.choice(STREETS)}"
    zip_ = rng.choice(zips)
    who = Who(c, rng, card=card, proof="card")
    expedited = v % 2 == 0
    shipping = "expedited" if expedited else "standard"
    golden = [*who.calls, call("list_cards", customer_id=c["id"]),
              call("update_mailing_address", customer_id=c["id"], address_line1=line1, city=city, state=state, zip_code=zip_),
              call("replace_card", card_id=card["id"], reason="damaged", shipping=shipping, waive_replacement_fee=True)]
    new4 = new_card_last4(card["last4"])
    text = (f"I've updated your mailing address to {line1}, {city}, {state} {zip_} and ordered a replacement for your damaged "
            f"card ending in {card['last4']}. The new card ends in {new4} and ships "
            f"{'by expedited delivery (2 business days) for 25.00' if expedited else 'free by standard delivery (5-7 business days)'}; "
            "there is no replacement fee for a damaged card. Your old card is now closed.")
    return make_task(
        s, who, kind="multi_step", difficulty="medium", skills=["verification", "cards", "profile", "fees"],
        persona=f"{c['first_name']} {c['last_name']}, just moved; the card's chip stopped working.",
        goal=f"Get a replacement for the damaged card ending {card['last4']}, sent to the new address {line1}, {city}, {state} {zip_}.",
        first_message=f"{who.intro} The chip on my debit card is broken, it doesn't work anywhere. I need a new one, but I've moved.",
        turns=[who.turn, f"My new address is {line1}, {city}, {state} {zip_}. "
                         + ("I'd like it fast, I'll pay for express." if expedited else "Normal delivery is fine."), "Thanks!"],
        golden=golden, golden_reply=text,
        assertions=[exists("customers", id=c["id"], zip_code=zip_, city=city),
                    exists("cards", replaces_card_id=card["id"], shipping=shipping), exists("cards", id=card["id"], status="closed"),
                    says(new4)],
        wrong_paths=[
            drop("missing_step", [3], "ships the card to the old address"),
            replace("wrong_amount", 4, call("replace_card", card_id=card["id"], reason="damaged", shipping=shipping,
                                            waive_replacement_fee=False), "charges the replacement fee for a damaged card"),
        ],
        facts={"new_address": f"{line1}, {city}, {state} {zip_}"},
    )


# =================================================================================================
# disputes
# =================================================================================================

@template("unauthorized-charges", extra_train=True)
def unauthorized_charges(s: Scenario, v: int) -> dict[str, Any]:
    """Card number compromised: report stolen, one dispute + provisional credit per charge, free
    replacement, note on the customer's ticket. A genuine charge at a similar time is the distractor."""
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c, balance=money(rng.uniform(900, 2500)))
    card = s.card(c, a)
    s.history(a, card, 4)
    m1, m2 = rng.sample(FRAUD_MERCHANTS, 2)
    legit_merchant = rng.choice(MERCHANTS)
    s.tx(a, day(2), "card_purchase", -money(rng.uniform(20, 90)), merchant=legit_merchant, card=card)
    t1 = s.tx(a, day(2), "card_purchase", -money(rng.uniform(120, 480)), merchant=m1, card=card)
    t2 = s.tx(a, day(1), "card_purchase", -money(rng.uniform(60, 300)), merchant=m2, card=card)
    with_ticket = v % 2 == 0
    tk = s.ticket(c, "Charges I don't recognise", "card", card=card, created=day(0)) if with_ticket else None
    who = Who(c, rng, proof="zip")
    d1, d2 = "DP-" + t1["id"].split("-")[1], "DP-" + t2["id"].split("-")[1]
    golden = [*who.calls, call("list_cards", customer_id=c["id"]),
              call("list_transactions", account_id=a["id"], start_date=day(7)),
              call("report_card_lost_or_stolen", card_id=card["id"], kind="stolen"),
              call("create_dispute", transaction_id=t1["id"], reason="unauthorized", amount=-t1["amount"],
                   description=f"Customer did not make this {m1} charge; card still in their possession"),
              call("issue_provisional_credit", dispute_id=d1),
              call("create_dispute", transaction_id=t2["id"], reason="unauthorized", amount=-t2["amount"],
                   description=f"Customer did not make this {m2} charge; card still in their possession"),
              call("issue_provisional_credit", dispute_id=d2),
              call("replace_card", card_id=card["id"], reason="stolen", shipping="standard", waive_replacement_fee=True)]
    if tk:
        golden.append(call("add_ticket_note", ticket_id=tk["id"],
                           note=f"Card {card['last4']} reported stolen; disputes {d1} and {d2} opened with provisional "
                                "credits; free replacement ordered."))
    new4 = new_card_last4(card["last4"])
    text = (f"I've blocked your card ending in {card['last4']} as compromised and opened two disputes: {d1} for "
            f"{fmt(-t1['amount'])} at {m1} and {d2} for {fmt(-t2['amount'])} at {m2}. Both amounts are credited to your "
            f"account provisionally while we investigate (up to 45 days). A free replacement card ending in {new4} is on "
            "its way by standard delivery (5-7 business days).")
    if tk:
        text += f" I've noted all of this on your ticket {tk['id']}."
    assertions = [exists("cards", id=card["id"], status="stolen"),
                  exists("disputes", id=d1, reason="unauthorized", provisional_credit=-t1["amount"]),
                  exists("disputes", id=d2, reason="unauthorized", provisional_credit=-t2["amount"]),
                  says(d1, d2, new4)]
    if tk:
        assertions.append(exists("ticket_notes", ticket_id=tk["id"], author="agent"))
    ticket_line = f" I already opened ticket {tk['id']} in the app." if tk else ""
    return make_task(
        s, who, kind="multi_step", difficulty="hard", skills=["verification", "cards", "disputes", "provisional_credit", "tickets"],
        persona=f"{c['first_name']} {c['last_name']}, alarmed: two charges they never made, card still in their wallet.",
        goal=f"Stop the card, dispute the {m1} and {m2} charges, get the money back while it is investigated, and get a new card.",
        first_message=f"{who.intro} There are two charges on my card I didn't make - {m1} and {m2}. I still have my card!{ticket_line}",
        turns=[who.turn, f"Only those two. The {legit_merchant} one is mine. And yes, please send me a new card, normal delivery.",
               "Thank you so much."],
        golden=golden, golden_reply=text, assertions=assertions, policy_facts=["45 days"],
        wrong_paths=[
            drop("missing_step", [4], "disputes the charges but leaves the compromised card active"),
            drop("wrong_amount", [6, 8], "opens the disputes without provisional credits"),
            replace("extra_write", 9, call("replace_card", card_id=card["id"], reason="stolen", shipping="standard",
                                           waive_replacement_fee=False), "charges a replacement fee for a stolen card"),
        ],
    )


@template("duplicate-charge")
def duplicate_charge(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2, 3]))
    a = s.account(c)
    card = s.card(c, a)
    merchant = SUBSCRIPTIONS[v % len(SUBSCRIPTIONS)] if v % 2 else rng.choice(["Gym Nation", "TechDepot", "HomeGoods Hub"])
    s.history(a, card, 4, avoid=(merchant,))
    amount = money(rng.uniform(25, 260))
    s.tx(a, day(34), "card_purchase", -amount, merchant=merchant, card=card)  # last month's genuine charge
    first = s.tx(a, day(5), "card_purchase", -amount, merchant=merchant, card=card)
    second = s.tx(a, day(4), "card_purchase", -amount, merchant=merchant, card=card)
    d = "DP-" + second["id"].split("-")[1]
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]),
              call("list_transactions", account_id=a["id"], merchant=merchant),
              call("create_dispute", transaction_id=second["id"], reason="duplicate_charge", amount=amount,
                   description=f"{merchant} charged the same {amount} twice on {first['posted_on']} and {second['posted_on']}"),
              call("issue_provisional_credit", dispute_id=d)]
    text = (f"You were charged {fmt(amount)} by {merchant} on {first['posted_on']} and again on {second['posted_on']}. I've "
            f"opened dispute {d} for the second charge and credited {fmt(amount)} to your account provisionally while we "
            "investigate; a decision comes within 45 days.")
    return make_task(
        s, who, kind="distractor", difficulty="medium", skills=["verification", "disputes", "provisional_credit", "disambiguation"],
        persona=f"{c['first_name']} {c['last_name']}, noticed being charged twice this week; pays {merchant} every month.",
        goal=f"Get the duplicate {merchant} charge of {fmt(amount)} from this week disputed and credited.",
        first_message=f"{who.intro} {merchant} charged me twice this week, {fmt(amount)} each time. I only paid once!",
        turns=[who.turn, "Yes, the two from this week. Last month's charge is fine.", "Thanks!"],
        golden=golden, golden_reply=text, policy_facts=["45 days"],
        assertions=[exists("disputes", id=d, reason="duplicate_charge", provisional_credit=amount),
                    absent("disputes", transaction_id=first["id"]), says(d)],
        wrong_paths=[
            replace("wrong_entity", 4, call("create_dispute", transaction_id=first["id"], reason="duplicate_charge",
                                            amount=amount, description="Duplicate charge"), "disputes the first charge, not the duplicate"),
            drop("missing_step", [5], "opens the dispute but gives no provisional credit"),
        ],
    )


@template("wrong-amount-dispute")
def wrong_amount_dispute(s: Scenario, v: int) -> dict[str, Any]:
    """The agreed price is missing from the first message: the agent must ask for it."""
    rng = s.rng
    c = s.customer()
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    shop, item = SHOPS[(v * 3) % len(SHOPS)]
    agreed = money(rng.choice([149.0, 189.0, 220.0, 265.0, 310.0]))
    charged = money(agreed + rng.choice([40.0, 55.5, 75.0, 99.99]))
    t = s.tx(a, day(rng.randint(4, 20)), "card_purchase", -charged, merchant=shop, card=card)
    diff = money(charged - agreed)
    d = "DP-" + t["id"].split("-")[1]
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]),
              call("list_transactions", account_id=a["id"], merchant=shop),
              call("create_dispute", transaction_id=t["id"], reason="wrong_amount", amount=diff,
                   description=f"Agreed price {agreed} for {item}, charged {charged}"),
              call("add_dispute_evidence", dispute_id=d, kind="receipt", description=f"Order confirmation showing {agreed}")]
    text = (f"I've opened dispute {d} for the {fmt(diff)} difference between the {fmt(charged)} {shop} charged and the "
            f"{fmt(agreed)} you agreed to pay, with your order confirmation attached. The merchant is asked first, so there "
            "is no provisional credit; a decision comes within 45 days.")
    return make_task(
        s, who, kind="ask_user", difficulty="medium", skills=["verification", "disputes", "clarification", "evidence"],
        persona=f"{c['first_name']} {c['last_name']}, overcharged for {item}; has the order confirmation email.",
        goal=f"Dispute the overcharge on the {shop} purchase (agreed {fmt(agreed)}, charged {fmt(charged)}).",
        first_message=f"{who.intro} {shop} charged me more than the price I agreed to for {item}. I want to dispute it.",
        turns=[who.turn, f"The agreed price was {fmt(agreed)}. I have the order confirmation email showing it.", "Okay, thanks."],
        instructions=f"Only say the agreed price ({fmt(agreed)}) when the agent asks for it.",
        facts={"agreed_price": agreed, "has": "order confirmation email"},
        golden=golden, golden_reply=text, policy_facts=["45 days"],
        assertions=[exists("disputes", id=d, reason="wrong_amount", amount=diff, provisional_credit=0),
                    exists("dispute_evidence", dispute_id=d, kind="receipt"), says(d, fmt(diff))],
        wrong_paths=[
            replace("wrong_amount", 4, call("create_dispute", transaction_id=t["id"], reason="wrong_amount", amount=charged,
                                            description="Overcharged"), "disputes the whole charge, not the difference"),
            append("extra_write", [call("issue_provisional_credit", dispute_id=d)], "gives a provisional credit for a wrong-amount dispute"),
            drop("missing_step", [5], "does not attach the customer's evidence"),
        ],
    )


@template("not-received-dispute", extra_train=True)
def not_received_dispute(s: Scenario, v: int) -> dict[str, Any]:
    """Goods never delivered (or a subscription charged after cancelling): dispute, evidence of each
    kind the customer has, no provisional credit, note on the customer's open ticket."""
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2, 3]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    subscription = v % 3 == 2
    if subscription:
        merchant, item = SUBSCRIPTIONS[v % len(SUBSCRIPTIONS)], "an annual subscription"
        amount = money(rng.choice([79.0, 99.0, 119.99, 149.0]))
        reason, kinds = "cancelled_subscription", [("cancellation_confirmation", "Cancellation confirmation email"),
                                                    ("merchant_correspondence", "Emails asking the merchant for a refund")]
        story = f"{merchant} renewed my {item} for {fmt(amount)} even though I cancelled it last month."
        has = "the cancellation confirmation email and my emails with their support"
    else:
        merchant, item = SHOPS[(v * 7 + 1) % len(SHOPS)]
        amount = money(rng.uniform(90, 450))
        reason = "not_received"
        kinds = [("receipt", "Order confirmation"), ("merchant_correspondence", "Emails with the merchant, no reply")]
        if v % 2:
            kinds.append(("tracking", "Tracking shows no movement since the label was created"))
        story = f"I paid {merchant} {fmt(amount)} for {item} weeks ago and it never arrived."
        has = "the order confirmation, my emails with the merchant" + (" and the tracking page" if v % 2 else "")
    t = s.tx(a, day(rng.randint(20, 45)), "card_purchase", -amount, merchant=merchant, card=card)
    tk = s.ticket(c, f"{merchant} order problem", "dispute", account=a, created=day(rng.randint(2, 8)))
    d = "DP-" + t["id"].split("-")[1]
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]),
              call("list_transactions", account_id=a["id"], merchant=merchant),
              call("create_dispute", transaction_id=t["id"], reason=reason, amount=amount, description=story)]
    golden += [call("add_dispute_evidence", dispute_id=d, kind=k, description=desc) for k, desc in kinds]
    golden += [call("get_ticket", ticket_id=tk["id"]),
               call("add_ticket_note", ticket_id=tk["id"], note=f"Opened dispute {d} ({reason}) for {amount}; evidence attached.")]
    text = (f"I've opened dispute {d} for the {fmt(amount)} {merchant} charge and attached your evidence. The merchant is "
            "asked to respond first, so there is no provisional credit for this kind of dispute; a decision comes within 45 "
            f"days. I've added this to your ticket {tk['id']}.")
    n = len(golden)
    return make_task(
        s, who, kind="multi_step", difficulty="hard", skills=["verification", "disputes", "evidence", "tickets"],
        persona=f"{c['first_name']} {c['last_name']}, organised; has kept {has}.",
        goal=f"Dispute the {merchant} charge of {fmt(amount)} and have ticket {tk['id']} updated.",
        first_message=f"{who.intro} {story} I opened ticket {tk['id']} about it. Can you dispute the charge?",
        turns=[who.turn, f"I have {has}.", "Thanks for your help."],
        golden=golden, golden_reply=text, policy_facts=["45 days"],
        assertions=[exists("disputes", id=d, reason=reason, amount=amount, provisional_credit=0),
                    *[exists("dispute_evidence", dispute_id=d, kind=k) for k, _ in kinds],
                    exists("ticket_notes", ticket_id=tk["id"], author="agent"), says(d)],
        wrong_paths=[
            append("extra_write", [call("issue_provisional_credit", dispute_id=d)], f"gives a provisional credit for a {reason} dispute"),
            drop("missing_step", [n - 1], "does not note the dispute on the customer's ticket"),
            drop("missing_step", [6], "attaches only part of the evidence"),
        ],
    )


@template("dispute-not-eligible")
def dispute_not_eligible(s: Scenario, v: int) -> dict[str, Any]:
    """Outside the 60-day window, or still pending: no dispute."""
    rng = s.rng
    c = s.customer()
    a = s.account(c)
    card = s.card(c, a)
    shop, item = SHOPS[(v * 5 + 2) % len(SHOPS)]
    s.history(a, card, 3, avoid=(shop,))
    pending = v % 3 == 1
    amount = money(rng.uniform(60, 380))
    if pending:
        t = s.tx(a, day(1), "card_purchase", -amount, merchant=shop, card=card, status="pending")
        text = (f"The {fmt(amount)} {shop} charge is still pending, so it can't be disputed yet: a pending charge may "
                "still change or drop off. Please wait until it posts, then contact us again if it is still wrong.")
        fact = "pending"
        story = f"{shop} charged me {fmt(amount)} yesterday for {item} but cancelled my order. I want to dispute it."
    else:
        posted = day(rng.choice([63, 71, 85, 98]))
        t = s.tx(a, posted, "card_purchase", -amount, merchant=shop, card=card)
        text = (f"I'm sorry, I can't open a dispute for the {fmt(amount)} {shop} charge: charges can be disputed within 60 "
                f"days of posting, and this one posted on {posted}.")
        fact = posted
        story = f"I never received {item} I paid {shop} {fmt(amount)} for, back in the late summer / early autumn. I want my money back."
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]),
              call("list_transactions", account_id=a["id"], merchant=shop)]
    return make_task(
        s, who, kind="refusal", difficulty="medium", skills=["verification", "disputes", "policy", "dates"],
        persona=f"{c['first_name']} {c['last_name']}, frustrated with {shop}.",
        goal=f"Dispute the {shop} charge of {fmt(amount)}.",
        first_message=f"{who.intro} {story}",
        turns=[who.turn, "That's disappointing, but okay."],
        golden=golden, golden_reply=text, policy_facts=["60 days"],
        assertions=[absent("disputes", transaction_id=t["id"]), says(fact)],
        wrong_paths=[
            append("extra_write", [call("create_dispute", transaction_id=t["id"], reason="not_received", amount=amount,
                                        description=story)], "opens a dispute that the policy does not allow"),
            reply("wrong_reply", "I can't dispute that charge, sorry.", "declines without the reason"),
        ],
    )


@template("large-unauthorized-approval")
def large_unauthorized_approval(s: Scenario, v: int) -> dict[str, Any]:
    """An unauthorized charge above $500: provisional credit needs a supervisor. Denied -> ticket + escalate."""
    rng = s.rng
    denied = v % 3 == 2
    c = s.customer(level=rng.choice([1, 2]), risk=denied)
    a = s.account(c, balance=money(rng.uniform(600, 1500)))
    card = s.card(c, a)
    s.history(a, card, 3)
    merchant = FRAUD_MERCHANTS[(v + 2) % len(FRAUD_MERCHANTS)]
    amount = money(rng.uniform(520, 1400))
    t = s.tx(a, day(rng.randint(1, 3)), "card_purchase", -amount, merchant=merchant, card=card)
    d = "DP-" + t["id"].split("-")[1]
    who = Who(c, rng, proof="zip")
    golden = [*who.calls, call("list_cards", customer_id=c["id"]),
              call("list_transactions", account_id=a["id"], merchant=merchant),
              call("report_card_lost_or_stolen", card_id=card["id"], kind="stolen"),
              call("create_dispute", transaction_id=t["id"], reason="unauthorized", amount=amount,
                   description=f"Customer did not make the {merchant} charge"),
              call("request_supervisor_approval", customer_id=c["id"], kind="provisional_credit", reference_id=d,
                   amount=amount, reason="Unauthorized charge above 500; provisional credit requested")]
    if denied:
        golden += [call("create_ticket", customer_id=c["id"], subject=f"Provisional credit for {d} not approved",
                        category="dispute", dispute_id=d),
                   call("escalate_ticket", ticket_id=f"T-{NEW}", reason=f"Supervisor denied the provisional credit for {d}")]
        text = (f"I've blocked your card ending in {card['last4']} and opened dispute {d} for the {fmt(amount)} {merchant} "
                f"charge. The provisional credit could not be approved, so I've escalated the case (ticket T-{NEW}); a "
                "specialist will contact you within one business day. The dispute itself continues.")
        assertions = [exists("disputes", id=d, provisional_credit=0), exists("tickets", id=f"T-{NEW}", status="escalated",
                      dispute_id=d), says(d, f"T-{NEW}")]
        wrong = [
            drop("missing_step", [7, 8], "tells the customer no but does not escalate"),
            replace("wrong_entity", 7, call("create_ticket", customer_id=c["id"], subject="Provisional credit not approved",
                                            category="dispute"), "opens the escalation ticket without linking the dispute"),
            drop("missing_step", [4], "leaves the compromised card active"),
        ]
    else:
        golden.append(call("issue_provisional_credit", dispute_id=d, approval_id=f"AP-{NEW}"))
        text = (f"I've blocked your card ending in {card['last4']} and opened dispute {d} for the {fmt(amount)} {merchant} "
                f"charge. A supervisor approved a provisional credit, so {fmt(amount)} is back in your account while we "
                "investigate (up to 45 days).")
        assertions = [exists("disputes", id=d, provisional_credit=amount, approval_id=f"AP-{NEW}"), says(d, fmt(amount))]
        wrong = [
            drop("skipped_approval", [6], "skips the supervisor (the credit is refused) and leaves the customer without money"),
            drop("missing_step", [4], "leaves the compromised card active"),
        ]
    return make_task(
        s, who, kind="approval", difficulty="hard", skills=["verification", "cards", "disputes", "approval", "provisional_credit"],
        persona=f"{c['first_name']} {c['last_name']}, shocked by a large charge from {merchant}; the card is still in their wallet.",
        goal=f"Stop the card, dispute the {merchant} charge of {fmt(amount)} and get the money back meanwhile.",
        first_message=f"{who.intro} There's a {fmt(amount)} charge from {merchant} on my card that I never made! I still have the card.",
        turns=[who.turn, "Yes, block it. I'll order a new card myself later in the app.", "Okay."],
        instructions="Do not ask for a replacement card in this conversation.",
        golden=golden, golden_reply=text, assertions=[exists("cards", id=card["id"], status="stolen"), *assertions],
        wrong_paths=wrong, policy_facts=["45 days"],
    )


@template("withdraw-dispute")
def withdraw_dispute(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer()
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    shop, _ = SHOPS[(v * 2 + 5) % len(SHOPS)]
    other_shop, _ = SHOPS[(v * 2 + 6) % len(SHOPS)]
    amount = money(rng.uniform(40, 300))
    with_credit = v % 2 == 0
    t = s.tx(a, day(rng.randint(12, 30)), "card_purchase", -amount, merchant=shop, card=card)
    d = s.dispute(c, t, "duplicate_charge" if with_credit else "not_received", opened_on=day(8),
                  provisional=amount if with_credit else 0.0)
    t2 = s.tx(a, day(rng.randint(12, 30)), "card_purchase", -money(rng.uniform(40, 300)), merchant=other_shop, card=card)
    d2 = s.dispute(c, t2, "not_received", opened_on=day(6))
    tk = s.ticket(c, f"Dispute with {shop}", "dispute", dispute=d, created=day(8))
    s.ticket(c, f"Dispute with {other_shop}", "dispute", dispute=d2, created=day(6))
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("list_disputes", customer_id=c["id"]),
              call("withdraw_dispute", dispute_id=d["id"], reason=f"{shop} refunded the customer directly"),
              call("list_customer_tickets", customer_id=c["id"]),
              call("update_ticket_status", ticket_id=tk["id"], status="closed")]
    text = f"I've withdrawn dispute {d['id']} with {shop}"
    text += (f"; the provisional credit of {fmt(amount)} has been reversed from your account" if with_credit else "")
    text += f". Ticket {tk['id']} is now closed. Your dispute with {other_shop} continues as before."
    facts_ = [d["id"], tk["id"]] + ([fmt(amount)] if with_credit else [])
    return make_task(
        s, who, kind="multi_step", difficulty="medium", skills=["verification", "disputes", "tickets", "disambiguation"],
        persona=f"{c['first_name']} {c['last_name']}, honest: {shop} refunded them directly, so the dispute is no longer needed.",
        goal=f"Withdraw the dispute about {shop} and close its ticket; keep the {other_shop} dispute.",
        first_message=f"{who.intro} {shop} refunded me themselves, so please withdraw my dispute with them and close the ticket about it.",
        turns=[who.turn, f"Just the {shop} one. The {other_shop} dispute should stay.", "Thanks."],
        golden=golden, golden_reply=text,
        assertions=[exists("disputes", id=d["id"], status="withdrawn"), unchanged("disputes", d2["id"]),
                    exists("tickets", id=tk["id"], status="closed"), says(*facts_)],
        wrong_paths=[
            replace("wrong_entity", 3, call("withdraw_dispute", dispute_id=d2["id"], reason="Merchant refunded"),
                    "withdraws the other merchant's dispute"),
            drop("missing_step", [5], "leaves the ticket open"),
        ],
    )


@template("close-ticket-open-dispute")
def close_ticket_open_dispute(s: Scenario, v: int) -> dict[str, Any]:
    """The paper's example in banking: a ticket must not be closed while its dispute is open."""
    rng = s.rng
    c = s.customer()
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    shop, _ = SHOPS[(v * 3 + 4) % len(SHOPS)]
    t = s.tx(a, day(rng.randint(15, 35)), "card_purchase", -money(rng.uniform(50, 350)), merchant=shop, card=card)
    d = s.dispute(c, t, rng.choice(["not_received", "wrong_amount"]), opened_on=day(10))
    tk = s.ticket(c, f"Charge from {shop}", "dispute", dispute=d, created=day(10))
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_ticket", ticket_id=tk["id"]), call("get_dispute", dispute_id=d["id"]),
              call("add_ticket_note", ticket_id=tk["id"],
                   note=f"Customer asked to close the ticket; kept open because dispute {d['id']} is still open.")]
    text = (f"I can't close ticket {tk['id']} yet: it is linked to dispute {d['id']}, which is still open. The ticket stays "
            "open until the dispute is decided (within 45 days of opening). I've noted your request on the ticket.")
    return make_task(
        s, who, kind="refusal", difficulty="medium", skills=["verification", "tickets", "disputes", "policy"],
        persona=f"{c['first_name']} {c['last_name']}, tired of the notifications about the ticket.",
        goal=f"Have ticket {tk['id']} closed.",
        first_message=f"{who.intro} Please just close my ticket {tk['id']}, I'm tired of the emails about it.",
        turns=[who.turn, "Oh, okay. Thanks for explaining."],
        golden=golden, golden_reply=text, policy_facts=["45 days"],
        assertions=[unchanged("tickets", tk["id"], ["status"]), exists("ticket_notes", ticket_id=tk["id"], author="agent"),
                    says(d["id"])],
        wrong_paths=[
            append("extra_write", [call("update_ticket_status", ticket_id=tk["id"], status="closed")],
                   "closes the ticket while its dispute is open"),
            drop("missing_step", [4], "does not note the request on the ticket"),
        ],
    )


# =================================================================================================
# transfers
# =================================================================================================

SIMILAR = {  # payee first names that differ by a letter or two, per split
    "test": [("Daniel", "Daniela"), ("Marco", "Marcos"), ("Julian", "Juliana"), ("Christian", "Christina"),
             ("Paulo", "Paula"), ("Gabriel", "Gabriela")],
    "train": [("Adrian", "Adriana"), ("Mario", "Maria"), ("Simon", "Simone"), ("Luis", "Luisa")],
}


def _checking_and_savings(s: Scenario, c: dict[str, Any], checking: float, savings: float) -> tuple[dict, dict, dict]:
    a = s.account(c, balance=checking)
    sv = s.account(c, "savings", balance=savings)
    card = s.card(c, a)
    s.history(a, card, 3)
    return a, sv, card


@template("internal-transfer", extra_train=True)
def internal_transfer(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]), kyc_status=rng.choice(["verified", "verified", "pending"]))
    a, sv, card = _checking_and_savings(s, c, money(rng.uniform(2500, 4000)), money(rng.uniform(3000, 9000)))
    amount = money(rng.choice([150.0, 300.0, 450.0, 600.0, 1200.0]))
    to_savings = v % 2 == 0
    src, dst = (a, sv) if to_savings else (sv, a)
    when = day(-rng.randint(3, 20)) if v % 3 == 1 else None
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]),
              call("create_transfer", from_account_id=src["id"], to_account_id=dst["id"], amount=amount, scheduled_for=when,
                   memo="Customer request")]
    direction = f"from {src['nickname']} to {dst['nickname']}"
    text = (f"Done: {fmt(amount)} " + (f"is scheduled to move {direction} on {when}." if when
                                         else f"has moved {direction}; it is available right away."))
    ask = f"Please move {fmt(amount)} from my {src['nickname']} account to my {dst['nickname']} account"
    ask += f" on {when}." if when else " now."
    facts_ = [fmt(amount)] + ([when] if when else [])
    return make_task(
        s, who, kind="single_write", difficulty="easy", skills=["verification", "transfers"],
        persona=f"{c['first_name']} {c['last_name']}, organising their money between accounts.",
        goal=f"Move {fmt(amount)} {direction}" + (f" on {when}." if when else " now."),
        first_message=f"{who.intro} {ask}",
        turns=[who.turn, "Thanks!"],
        golden=golden, golden_reply=text, assertions=[says(*facts_)],
        wrong_paths=[
            replace("wrong_amount", 3, call("create_transfer", from_account_id=src["id"], to_account_id=dst["id"],
                                            amount=money(amount + 100), scheduled_for=when), "moves a different amount"),
            replace("wrong_entity", 3, call("create_transfer", from_account_id=dst["id"], to_account_id=src["id"],
                                            amount=amount, scheduled_for=when), "moves the money the wrong way"),
            drop("missing_step", [1], "moves money without verifying the customer"),
        ],
    )


@template("external-similar-payee")
def external_similar_payee(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    level = rng.choice([1, 2])
    c = s.customer(level=level)
    a = s.account(c, balance=money(rng.uniform(2500, 4000)))
    card = s.card(c, a)
    s.history(a, card, 3)
    first_a, first_b = SIMILAR[s.split][v % len(SIMILAR[s.split])]
    last = PAYEE_LAST[(v + 3) % len(PAYEE_LAST)]
    bank_a, bank_b = rng.sample(BANKS, 2)
    want_b = v % 2 == 1
    pa = s.payee(c, f"{first_a} {last}", bank_a)
    pb = s.payee(c, f"{first_b} {last}", bank_b)
    target, other = (pb, pa) if want_b else (pa, pb)
    amount = money(rng.choice([120.0, 250.0, 380.0, 640.0]) if level == 1 else rng.choice([450.0, 900.0, 1500.0]))
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("list_payees", customer_id=c["id"]), call("get_transfer_limits", customer_id=c["id"]),
              call("create_transfer", from_account_id=a["id"], payee_id=target["id"], amount=amount, memo="Customer request")]
    text = (f"I've sent {fmt(amount)} to {target['name']} at {target['bank_name']} (account ending {target['account_last4']}). "
            "It is on its way and arrives within 1-3 business days.")
    return make_task(
        s, who, kind="distractor", difficulty="medium", skills=["verification", "transfers", "payees", "disambiguation"],
        persona=f"{c['first_name']} {c['last_name']}, pays back a friend; has two saved payees with almost the same name.",
        goal=f"Send {fmt(amount)} now to {target['name']} at {target['bank_name']}.",
        first_message=f"{who.intro} Please send {fmt(amount)} to {target['name']} - the account at {target['bank_name']}.",
        turns=[who.turn, f"Yes, {target['name']} at {target['bank_name']}, not {other['name']}. Send it now.", "Thanks."],
        golden=golden, golden_reply=text,
        assertions=[exists("transfers", payee_id=target["id"], amount=amount, status="pending"),
                    absent("transfers", payee_id=other["id"]), says(fmt(amount), target["name"])],
        wrong_paths=[
            replace("wrong_entity", 4, call("create_transfer", from_account_id=a["id"], payee_id=other["id"], amount=amount),
                    "pays the payee with the similar name"),
            replace("wrong_amount", 4, call("create_transfer", from_account_id=a["id"], payee_id=target["id"],
                                            amount=money(amount / 10)), "sends a different amount"),
            drop("missing_step", [1], "sends money without verifying the customer"),
        ],
    )


@template("transfer-over-limit-approved", extra_train=True)
def transfer_over_limit_approved(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    level = [1, 2, 1, 2][v % 4]
    limit = LEVEL_LIMITS[level][0]
    c = s.customer(level=level)
    a = s.account(c, balance=money(limit * 2.5 + rng.uniform(100, 900)))
    card = s.card(c, a)
    s.history(a, card, 3)
    payee = s.payee(c, s.person())
    other = s.payee(c, s.person())
    scheduled = v % 2 == 1
    when = day(-rng.randint(3, 12)) if scheduled else day(0)
    used = money(limit * rng.choice([0.2, 0.3, 0.5]))
    s.transfer(c, a, used, "scheduled" if scheduled else "pending", when, payee=other,
               created_on=day(2) if scheduled else day(0), memo="Utilities")
    amount = money(limit * rng.choice([0.9, 1.2, 1.5]))
    remaining = money(limit - used)
    who = Who(c, rng, card=card)
    limits_call = call("get_transfer_limits", customer_id=c["id"], on_date=when if scheduled else None)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("list_payees", customer_id=c["id"]), limits_call,
              call("request_supervisor_approval", customer_id=c["id"], kind="transfer_limit", reference_id=payee["id"],
                   amount=amount, reason=f"External transfer of {amount} exceeds the remaining daily limit of {remaining}"),
              call("create_transfer", from_account_id=a["id"], payee_id=payee["id"], amount=amount,
                   scheduled_for=when if scheduled else None, approval_id=f"AP-{NEW}", memo="Customer request")]
    text = (f"That transfer is above your remaining daily limit of {fmt(remaining)}, so I asked a supervisor, who approved "
            f"it. {fmt(amount)} to {payee['name']} " + (f"is scheduled for {when}." if scheduled else
                                                       "has been sent and arrives within 1-3 business days."))
    n = len(golden)
    return make_task(
        s, who, kind="approval", difficulty="hard", skills=["verification", "transfers", "limits", "approval"],
        persona=f"{c['first_name']} {c['last_name']}, paying {payee['name']} for a used car; needs it in one payment.",
        goal=f"Send {fmt(amount)} to {payee['name']} in one transfer" + (f" on {when}." if scheduled else " today."),
        first_message=f"{who.intro} I need to send {fmt(amount)} to {payee['name']} "
                      + (f"on {when}" if scheduled else "today") + ", in one payment.",
        turns=[who.turn, "Yes, one single payment please, it's for a car.", "Great, thank you."],
        instructions="Do not accept splitting the payment or moving it to another day.",
        golden=golden, golden_reply=text,
        assertions=[exists("transfers", payee_id=payee["id"], amount=amount, approval_id=f"AP-{NEW}"), says(fmt(amount))],
        wrong_paths=[
            replace("wrong_amount", n - 1, call("create_transfer", from_account_id=a["id"], payee_id=payee["id"],
                                                amount=remaining, scheduled_for=when if scheduled else None),
                    "sends only what fits under the limit instead of the approved amount"),
            drop("skipped_approval", [n - 2], "skips the supervisor (the transfer is refused)"),
            drop("missing_step", [n - 1], "gets the approval but never makes the transfer"),
        ],
    )


@template("transfer-over-limit-denied")
def transfer_over_limit_denied(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    level = [1, 2, 2][v % 3]
    limit = LEVEL_LIMITS[level][0]
    risky = v % 2 == 0
    c = s.customer(level=level, risk=risky)
    a = s.account(c, balance=money(limit * 3.2 + rng.uniform(100, 900)))
    card = s.card(c, a)
    s.history(a, card, 3)
    payee = s.payee(c, s.person())
    used = money(limit * 0.2)
    s.transfer(c, a, used, "pending", day(0), payee=payee, memo="Deposit")
    amount = money(limit * (rng.choice([1.2, 1.5]) if risky else rng.choice([2.3, 2.8])))
    remaining = money(limit - used)
    with_ticket = v % 3 != 1
    tk = s.ticket(c, f"Large transfer to {payee['name']}", "transfer", account=a, created=day(1)) if with_ticket else None
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("list_payees", customer_id=c["id"]),
              call("get_transfer_limits", customer_id=c["id"]),
              call("request_supervisor_approval", customer_id=c["id"], kind="transfer_limit", reference_id=payee["id"],
                   amount=amount, reason=f"External transfer of {amount} above the daily limit")]
    if tk:
        golden += [call("get_ticket", ticket_id=tk["id"]),
                   call("escalate_ticket", ticket_id=tk["id"], reason="Supervisor denied the over-limit transfer")]
        tid = tk["id"]
    else:
        golden += [call("create_ticket", customer_id=c["id"], subject=f"Over-limit transfer to {payee['name']} not approved",
                        category="transfer", account_id=a["id"]),
                   call("escalate_ticket", ticket_id=f"T-{NEW}", reason="Supervisor denied the over-limit transfer")]
        tid = f"T-{NEW}"
    text = (f"I'm sorry: the {fmt(amount)} transfer to {payee['name']} is above your remaining daily limit of "
            f"{fmt(remaining)} and could not be approved, so nothing was sent. I've escalated ticket {tid}; a specialist "
            "will contact you within one business day.")
    ticket_line = f" I opened ticket {tk['id']} about it yesterday." if tk else ""
    return make_task(
        s, who, kind="approval", difficulty="hard", skills=["verification", "transfers", "limits", "approval", "escalation"],
        persona=f"{c['first_name']} {c['last_name']}, needs to pay {payee['name']} a large sum and is in a hurry.",
        goal=f"Send {fmt(amount)} to {payee['name']} today in one payment.",
        first_message=f"{who.intro} I need to send {fmt(amount)} to {payee['name']} today.{ticket_line}",
        turns=[who.turn, "It has to be one payment. What can be done?", "Okay, I'll wait for the specialist."],
        instructions="Do not accept a smaller amount or splitting the payment.",
        golden=golden, golden_reply=text,
        assertions=[absent("transfers", payee_id=payee["id"], amount=amount), exists("tickets", id=tid, status="escalated"),
                    says(tid)],
        wrong_paths=[
            append("wrong_amount", [call("create_transfer", from_account_id=a["id"], payee_id=payee["id"], amount=remaining)],
                   "sends what fits under the limit after the denial"),
            drop("missing_step", [len(golden) - 1], "tells the customer no but does not escalate"),
        ],
    )


@template("cancel-scheduled-transfer")
def cancel_scheduled_transfer(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    p = s.payee(c, s.person())
    q = s.payee(c, s.person())
    amount = money(rng.choice([200.0, 350.0, 480.0, 650.0]))
    d1, d2 = day(-rng.randint(2, 8)), day(-rng.randint(15, 28))
    first = s.transfer(c, a, amount, "scheduled", d1, payee=p, created_on=day(10), memo="Lessons")
    second = s.transfer(c, a, amount, "scheduled", d2, payee=p, created_on=day(10), memo="Lessons")
    third = s.transfer(c, a, amount, "scheduled", d2, payee=q, created_on=day(9), memo="Club fee")
    target, keep = (second, first) if v % 2 == 0 else (first, second)
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("list_transfers", customer_id=c["id"], status="scheduled"),
              call("cancel_transfer", transfer_id=target["id"])]
    text = (f"I've cancelled the {fmt(amount)} transfer to {p['name']} scheduled for {target['scheduled_for']}. The one on "
            f"{keep['scheduled_for']} and your transfer to {q['name']} are still scheduled.")
    return make_task(
        s, who, kind="distractor", difficulty="medium", skills=["verification", "transfers", "disambiguation"],
        persona=f"{c['first_name']} {c['last_name']}, skipping one payment to {p['name']} this month.",
        goal=f"Cancel only the scheduled transfer to {p['name']} on {target['scheduled_for']}.",
        first_message=f"{who.intro} Please cancel my scheduled transfer to {p['name']} on {target['scheduled_for']}.",
        turns=[who.turn, f"Only the one on {target['scheduled_for']}. Keep the others.", "Thanks!"],
        golden=golden, golden_reply=text,
        assertions=[exists("transfers", id=target["id"], status="cancelled"), unchanged("transfers", keep["id"]),
                    unchanged("transfers", third["id"]), says(target["scheduled_for"])],
        wrong_paths=[
            replace("wrong_entity", 3, call("cancel_transfer", transfer_id=keep["id"]), "cancels the other date"),
            append("extra_write", [call("cancel_transfer", transfer_id=keep["id"])], "cancels both payments to the payee"),
            replace("wrong_entity", 3, call("cancel_transfer", transfer_id=third["id"]), "cancels the other payee's transfer on that date"),
        ],
    )


@template("cancel-pending-refusal")
def cancel_pending_refusal(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    p = s.payee(c, s.person())
    amount = money(rng.choice([180.0, 275.0, 420.0, 760.0]))
    sent = s.transfer(c, a, amount, "pending", day(0), payee=p, memo="Invoice")
    s.tx(a, day(0), "transfer_out", -amount, status="pending", description=f"Transfer to {p['name']}")
    later = s.transfer(c, a, amount, "scheduled", day(-rng.randint(20, 30)), payee=p, created_on=day(0), memo="Invoice")
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("list_transfers", customer_id=c["id"])]
    text = (f"I'm sorry, the {fmt(amount)} transfer to {p['name']} you made today is already sent (status pending), so it "
            f"can't be cancelled; it arrives within 1-3 business days. Only scheduled transfers can be cancelled - your "
            f"next one to {p['name']} on {later['scheduled_for']} is still scheduled.")
    return make_task(
        s, who, kind="refusal", difficulty="medium", skills=["verification", "transfers", "policy"],
        persona=f"{c['first_name']} {c['last_name']}, sent money to {p['name']} this morning and regrets it.",
        goal=f"Cancel the {fmt(amount)} transfer to {p['name']} sent this morning.",
        first_message=f"{who.intro} I sent {fmt(amount)} to {p['name']} this morning by mistake - please cancel it!",
        turns=[who.turn, "The one from this morning. Not the one next month.", "Oh no. Okay, I'll sort it out with them."],
        instructions="You only want this morning's transfer stopped; keep the scheduled one.",
        golden=golden, golden_reply=text,
        assertions=[unchanged("transfers", sent["id"]), unchanged("transfers", later["id"]), says("pending")],
        wrong_paths=[
            append("wrong_entity", [call("cancel_transfer", transfer_id=later["id"])],
                   "cancels next month's scheduled transfer instead"),
            reply("wrong_reply", "I can't help with that transfer.", "refuses without saying why"),
        ],
    )


@template("kyc-blocked-external")
def kyc_blocked_external(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    status = ["pending", "unverified", "rejected"][v % 3]
    c = s.customer(level=1, kyc_status=status)
    a = s.account(c, balance=money(rng.uniform(1500, 3000)))
    card = s.card(c, a)
    s.history(a, card, 3)
    amount = money(rng.choice([150.0, 300.0, 500.0]))
    add_new = v % 2 == 1
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("get_kyc_status", customer_id=c["id"])]
    if add_new:
        name = s.person()
        bank = rng.choice(BANKS)
        routing, number = f"{rng.randint(10**8, 10**9 - 1)}", f"{rng.randint(10**7, 10**9)}"
        ask = (f"I want to add {name} at {bank} as a payee (routing {routing}, account {number}) and send them "
               f"{fmt(amount)}.")
        bad = call("add_payee", customer_id=c["id"], name=name, bank_name=bank, routing_number=routing, account_number=number)
        facts_extra = {"payee": {"name": name, "bank": bank, "routing_number": routing, "account_number": number}}
    else:
        p = s.payee(c, s.person())
        golden.append(call("list_payees", customer_id=c["id"]))
        ask = f"Please send {fmt(amount)} to {p['name']}."
        bad = call("create_transfer", from_account_id=a["id"], payee_id=p["id"], amount=amount)
        facts_extra = {}
    why = {"pending": "your identity documents are still under review (KYC status pending; this usually takes 2 business days)",
           "unverified": "your identity has not been verified yet (KYC status unverified): please submit your ID in the app",
           "rejected": "your identity verification was rejected (KYC status rejected): please submit a new ID in the app"}[status]
    text = f"I can't do that yet: transfers to other banks and new payees need a verified identity (KYC), and {why}."
    return make_task(
        s, who, kind="refusal", difficulty="medium", skills=["verification", "kyc", "transfers", "policy"],
        persona=f"{c['first_name']} {c['last_name']}, a new customer who does not know about the KYC rules.",
        goal="Send money to another bank.",
        first_message=f"{who.intro} {ask}",
        turns=[who.turn, "Oh, I didn't know. Okay."],
        facts=facts_extra,
        golden=golden, golden_reply=text,
        assertions=[absent("transfers", customer_id=c["id"]), absent("payees", customer_id=c["id"], added_on=day(0)),
                    says(status)],
        wrong_paths=[
            append("extra_write", [bad], "goes ahead although the KYC status is not verified"),
            reply("wrong_reply", "Sorry, I can't do that.", "refuses without the reason"),
        ],
    )


@template("new-payee-scheduled")
def new_payee_scheduled(s: Scenario, v: int) -> dict[str, Any]:
    """The date is missing from the first message: the agent must ask for it."""
    rng = s.rng
    level = rng.choice([2, 3])
    c = s.customer(level=level)
    a = s.account(c, balance=money(rng.uniform(3000, 6000)))
    card = s.card(c, a)
    s.history(a, card, 3)
    s.payee(c, s.person())
    name = s.person()
    bank = rng.choice(BANKS)
    routing, number = f"{rng.randint(10**8, 10**9 - 1)}", f"{rng.randint(10**7, 10**10)}"
    amount = money(rng.choice([950.0, 1250.0, 1475.0, 1800.0, 2100.0]))
    when = day(-rng.randint(2, 20))
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("list_payees", customer_id=c["id"]),
              call("add_payee", customer_id=c["id"], name=name, bank_name=bank, routing_number=routing, account_number=number),
              call("get_transfer_limits", customer_id=c["id"], on_date=when),
              call("create_transfer", from_account_id=a["id"], payee_id=f"PY-{NEW}", amount=amount, scheduled_for=when,
                   memo="Rent")]
    text = (f"I've added {name} at {bank} (account ending {number[-4:]}) as a payee and scheduled {fmt(amount)} to them for "
            f"{when}.")
    return make_task(
        s, who, kind="ask_user", difficulty="hard", skills=["verification", "payees", "transfers", "clarification"],
        persona=f"{c['first_name']} {c['last_name']}, moving into a new flat; the landlord is {name}.",
        goal=f"Add {name} as a payee and schedule the {fmt(amount)} rent for {when}.",
        first_message=f"{who.intro} I need to pay rent to my new landlord, {name}: {fmt(amount)} to {bank}, routing {routing}, "
                      f"account {number}. Please schedule it.",
        turns=[who.turn, f"On {when}, please.", "Perfect, thanks."],
        instructions=f"Only give the date ({when}) when the agent asks when the payment should go out.",
        facts={"payee": {"name": name, "bank": bank, "routing_number": routing, "account_number": number},
               "amount": amount, "date": when},
        golden=golden, golden_reply=text,
        assertions=[exists("payees", id=f"PY-{NEW}", customer_id=c["id"], account_last4=number[-4:]),
                    exists("transfers", payee_id=f"PY-{NEW}", amount=amount, scheduled_for=when, status="scheduled"),
                    says(when, fmt(amount))],
        wrong_paths=[
            replace("wrong_entity", 6, call("create_transfer", from_account_id=a["id"], payee_id=f"PY-{NEW}", amount=amount),
                    "sends the rent now instead of on the date the customer gives"),
            replace("wrong_amount", 6, call("create_transfer", from_account_id=a["id"], payee_id=f"PY-{NEW}",
                                            amount=money(amount - 100), scheduled_for=when), "schedules the wrong amount"),
            drop("missing_step", [4], "never saves the payee (the transfer is refused)"),
        ],
    )


@template("scheduled-internal-ask")
def scheduled_internal_ask(s: Scenario, v: int) -> dict[str, Any]:
    """Amount and date are missing from the first message: the agent must ask."""
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]), kyc_status=rng.choice(["verified", "pending"]))
    a, sv, card = _checking_and_savings(s, c, money(rng.uniform(2000, 3500)), money(rng.uniform(500, 4000)))
    amount = money(rng.choice([100.0, 250.0, 400.0, 500.0, 750.0]))
    when = day(-rng.randint(2, 25))
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]),
              call("create_transfer", from_account_id=a["id"], to_account_id=sv["id"], amount=amount, scheduled_for=when,
                   memo="Savings")]
    text = f"Done: {fmt(amount)} will move from {a['nickname']} to {sv['nickname']} on {when}."
    return make_task(
        s, who, kind="ask_user", difficulty="medium", skills=["verification", "transfers", "clarification"],
        persona=f"{c['first_name']} {c['last_name']}, sets money aside after payday; answers only what is asked.",
        goal=f"Schedule {fmt(amount)} from checking to savings on {when}.",
        first_message=f"{who.intro} I'd like to set up a transfer from my checking to my savings.",
        turns=[who.turn, f"{fmt(amount)}, on {when}.", "Great."],
        instructions=f"Give the amount ({fmt(amount)}) and the date ({when}) only when the agent asks.",
        facts={"amount": amount, "date": when},
        golden=golden, golden_reply=text,
        assertions=[exists("transfers", from_account_id=a["id"], to_account_id=sv["id"], amount=amount, scheduled_for=when),
                    says(fmt(amount), when)],
        wrong_paths=[
            replace("wrong_entity", 3, call("create_transfer", from_account_id=a["id"], to_account_id=sv["id"], amount=amount),
                    "moves the money today instead of on the date"),
            replace("wrong_amount", 3, call("create_transfer", from_account_id=a["id"], to_account_id=sv["id"],
                                            amount=money(amount * 2), scheduled_for=when), "schedules the wrong amount"),
        ],
    )


# =================================================================================================
# fees
# =================================================================================================

def _fee_history(s: Scenario, c: dict[str, Any], a: dict[str, Any], used_2026: int) -> None:
    """Earlier refunded fees: `used_2026` refunds this year and one last year (which does not count)."""
    rng = s.rng
    old = s.fee(a, "overdraft", f"2025-{rng.randint(6, 11):02d}-{rng.randint(1, 28):02d}")
    s.refund_of(c, old, f"2025-12-{rng.randint(1, 28):02d}")
    for i in range(used_2026):
        f = s.fee(a, rng.choice(["monthly_maintenance", "atm_out_of_network", "overdraft"]),
                  f"2026-{2 + 2 * i:02d}-{rng.randint(1, 26):02d}")
        s.refund_of(c, f, f"2026-{2 + 2 * i:02d}-28")


@template("fee-refund-courtesy", extra_train=True)
def fee_refund_courtesy(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    level = [1, 2, 3][v % 3]
    allowance = LEVEL_LIMITS[level][3]
    c = s.customer(level=level)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    _fee_history(s, c, a, allowance - 1)
    code = ["overdraft", "returned_payment", "atm_out_of_network"][v % 3]
    f = s.fee(a, code, day(rng.randint(3, 40)))
    other = s.fee(a, "monthly_maintenance", day(29))
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("list_transactions", account_id=a["id"], kind="fee"),
              call("list_fee_refunds", customer_id=c["id"]),
              call("refund_fee", transaction_id=f["id"], reason=f"Courtesy refund of the {FEE_NAMES[code]}")]
    amt = -f["amount"]
    text = f"I've refunded the {FEE_NAMES[code]} of {fmt(amt)} from {f['posted_on']}; the money is back in your account now."
    return make_task(
        s, who, kind="single_write", difficulty="medium", skills=["verification", "fees", "policy"],
        persona=f"{c['first_name']} {c['last_name']}, annoyed by a recent {FEE_NAMES[code]}.",
        goal=f"Get the {FEE_NAMES[code]} of {fmt(amt)} from {f['posted_on']} refunded.",
        first_message=f"{who.intro} I was charged a {FEE_NAMES[code]} of {fmt(amt)} recently. Can you refund it?",
        turns=[who.turn, f"Just that {FEE_NAMES[code]}, yes.", "Thank you!"],
        golden=golden, golden_reply=text,
        assertions=[exists("fee_refunds", fee_transaction_id=f["id"]), absent("fee_refunds", fee_transaction_id=other["id"]),
                    says(fmt(amt))],
        wrong_paths=[
            replace("wrong_entity", 5, call("refund_fee", transaction_id=other["id"], reason="Courtesy refund"),
                    "refunds the monthly fee instead"),
            append("extra_write", [call("refund_fee", transaction_id=other["id"], reason="Courtesy refund")],
                   "also refunds a fee the customer did not ask about"),
            drop("missing_step", [1], "refunds without verifying the customer"),
        ],
    )


@template("fee-refund-over-allowance")
def fee_refund_over_allowance(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    level = [1, 2, 2][v % 3]
    allowance = LEVEL_LIMITS[level][3]
    c = s.customer(level=level)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    _fee_history(s, c, a, allowance)
    code = ["overdraft", "returned_payment"][v % 2]
    f = s.fee(a, code, day(rng.randint(3, 30)))
    other = s.fee(a, "monthly_maintenance", day(29))
    tk = s.ticket(c, f"Refund of {FEE_NAMES[code]}", "fee", account=a, created=day(1))
    amt = -f["amount"]
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("list_transactions", account_id=a["id"], kind="fee"),
              call("list_fee_refunds", customer_id=c["id"]),
              call("request_supervisor_approval", customer_id=c["id"], kind="fee_refund", reference_id=f["id"], amount=amt,
                   reason="Courtesy allowance used up; customer asks for a refund"),
              call("refund_fee", transaction_id=f["id"], reason=f"Refund of the {FEE_NAMES[code]}", approval_id=f"AP-{NEW}"),
              call("add_ticket_note", ticket_id=tk["id"], note=f"Fee {f['id']} refunded ({amt}) with supervisor approval AP-{NEW}.")]
    text = (f"You've already used your {allowance} courtesy fee refund{'s' if allowance > 1 else ''} for this year, so I asked "
            f"a supervisor, who approved it: the {FEE_NAMES[code]} of {fmt(amt)} is refunded to your account. I've noted it on "
            f"ticket {tk['id']}.")
    return make_task(
        s, who, kind="approval", difficulty="hard", skills=["verification", "fees", "approval", "tickets"],
        persona=f"{c['first_name']} {c['last_name']}, a long-time customer asking for a refund of a {FEE_NAMES[code]}.",
        goal=f"Get the {FEE_NAMES[code]} of {fmt(amt)} refunded (ticket {tk['id']}).",
        first_message=f"{who.intro} I opened ticket {tk['id']} about the {FEE_NAMES[code]} of {fmt(amt)}. Can you refund it?",
        turns=[who.turn, "Only that fee, please.", "Great, thanks."],
        golden=golden, golden_reply=text,
        assertions=[exists("fee_refunds", fee_transaction_id=f["id"], approval_id=f"AP-{NEW}"),
                    exists("ticket_notes", ticket_id=tk["id"], author="agent"), says(fmt(amt))],
        wrong_paths=[
            replace("skipped_approval", 5, call("refund_fee", transaction_id=f["id"], reason="Courtesy refund"),
                    "refunds beyond the allowance without asking a supervisor"),
            drop("missing_step", [7], "does not note the refund on the customer's ticket"),
            append("extra_write", [call("refund_fee", transaction_id=other["id"], reason="Courtesy refund")],
                   "also refunds the monthly fee"),
        ],
    )


@template("fee-refund-denied")
def fee_refund_denied(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    level = [1, 2, 3][v % 3]
    allowance = LEVEL_LIMITS[level][3]
    c = s.customer(level=level, risk=True)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    _fee_history(s, c, a, allowance)
    code = ["overdraft", "returned_payment", "overdraft"][v % 3]
    f = s.fee(a, code, day(rng.randint(3, 30)))
    tk = s.ticket(c, f"Please refund the {FEE_NAMES[code]}", "fee", account=a, created=day(2))
    amt = -f["amount"]
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("list_transactions", account_id=a["id"], kind="fee"),
              call("list_fee_refunds", customer_id=c["id"]),
              call("request_supervisor_approval", customer_id=c["id"], kind="fee_refund", reference_id=f["id"], amount=amt,
                   reason="Courtesy allowance used up; customer asks for a refund"),
              call("get_ticket", ticket_id=tk["id"]),
              call("escalate_ticket", ticket_id=tk["id"], reason="Supervisor denied the fee refund")]
    text = (f"You've used all {allowance} courtesy fee refund{'s' if allowance > 1 else ''} for this year, and the refund of the "
            f"{fmt(amt)} {FEE_NAMES[code]} could not be approved, so I can't refund it. I've escalated ticket {tk['id']}; a "
            "specialist will contact you within one business day.")
    return make_task(
        s, who, kind="approval", difficulty="hard", skills=["verification", "fees", "approval", "escalation"],
        persona=f"{c['first_name']} {c['last_name']}, insists on getting the {FEE_NAMES[code]} back.",
        goal=f"Get the {FEE_NAMES[code]} of {fmt(amt)} refunded.",
        first_message=f"{who.intro} I want the {FEE_NAMES[code]} of {fmt(amt)} refunded. I already have ticket {tk['id']} open about it.",
        turns=[who.turn, "That's not fair. What now?", "Fine, I'll wait for their call."],
        golden=golden, golden_reply=text,
        assertions=[absent("fee_refunds", fee_transaction_id=f["id"]), exists("tickets", id=tk["id"], status="escalated"),
                    says(tk["id"])],
        wrong_paths=[
            append("skipped_approval", [call("refund_fee", transaction_id=f["id"], reason="Goodwill")],
                   "refunds anyway after the supervisor said no"),
            drop("missing_step", [7], "does not escalate the ticket"),
        ],
    )


@template("fee-refund-too-old")
def fee_refund_too_old(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2, 3]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    code = ["overdraft", "returned_payment", "monthly_maintenance"][v % 3]
    f = s.fee(a, code, day(rng.choice([97, 104, 121, 143])))
    s.fee(a, "paper_statement", day(rng.randint(5, 20)))
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("list_transactions", account_id=a["id"], kind="fee")]
    text = (f"I'm sorry, I can't refund that {FEE_NAMES[code]}: fees can be refunded only within 90 days of being charged, and "
            f"this one was posted on {f['posted_on']}.")
    return make_task(
        s, who, kind="refusal", difficulty="medium", skills=["verification", "fees", "policy", "dates"],
        persona=f"{c['first_name']} {c['last_name']}, going through old statements.",
        goal=f"Get the {FEE_NAMES[code]} from {f['posted_on']} refunded.",
        first_message=f"{who.intro} Going through my statements I found a {FEE_NAMES[code]} of {fmt(-f['amount'])} from "
                      "back in the summer. I'd like it refunded.",
        turns=[who.turn, "Only that one. Oh well, okay."],
        golden=golden, golden_reply=text, policy_facts=["90 days"],
        assertions=[absent("fee_refunds", fee_transaction_id=f["id"]), says(f["posted_on"])],
        wrong_paths=[
            append("extra_write", [call("refund_fee", transaction_id=f["id"], reason="Customer request")],
                   "refunds a fee older than 90 days"),
            reply("wrong_reply", "I'm sorry, I can't refund that fee.", "declines without the rule and the date"),
        ],
    )


@template("two-fee-refunds")
def two_fee_refunds(s: Scenario, v: int) -> dict[str, Any]:
    """One courtesy refund left and two fees: the older one uses it, the newer one needs a supervisor."""
    rng = s.rng
    level = [2, 3, 2][v % 3]
    allowance = LEVEL_LIMITS[level][3]
    c = s.customer(level=level)
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    _fee_history(s, c, a, allowance - 1)
    f1 = s.fee(a, "overdraft", day(rng.randint(30, 60)))
    f2 = s.fee(a, rng.choice(["overdraft", "returned_payment"]), day(rng.randint(2, 12)))
    who = Who(c, rng, card=card)
    amt1, amt2 = -f1["amount"], -f2["amount"]
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("list_transactions", account_id=a["id"], kind="fee"),
              call("list_fee_refunds", customer_id=c["id"]),
              call("refund_fee", transaction_id=f1["id"], reason="Courtesy refund (last one of the year)"),
              call("request_supervisor_approval", customer_id=c["id"], kind="fee_refund", reference_id=f2["id"], amount=amt2,
                   reason="Second fee beyond the courtesy allowance"),
              call("refund_fee", transaction_id=f2["id"], reason="Refund approved by a supervisor", approval_id=f"AP-{NEW}")]
    text = (f"I've refunded the {fmt(amt1)} fee from {f1['posted_on']} with your last courtesy refund of the year. The "
            f"{fmt(amt2)} fee from {f2['posted_on']} was beyond your allowance, so I asked a supervisor, who approved it: both "
            f"are refunded, {fmt(amt1 + amt2)} in total.")
    return make_task(
        s, who, kind="multi_step", difficulty="hard", skills=["verification", "fees", "approval", "policy"],
        persona=f"{c['first_name']} {c['last_name']}, had a rough couple of months and was hit by two fees.",
        goal=f"Get both recent fees refunded ({fmt(amt1)} on {f1['posted_on']} and {fmt(amt2)} on {f2['posted_on']}).",
        first_message=f"{who.intro} I got hit with two fees recently, {fmt(amt1)} and {fmt(amt2)}. Can you refund both?",
        turns=[who.turn, "Yes, both of those.", "Thank you!"],
        golden=golden, golden_reply=text, policy_facts=[fmt(amt1 + amt2)],
        assertions=[exists("fee_refunds", fee_transaction_id=f1["id"], approval_id=None),
                    exists("fee_refunds", fee_transaction_id=f2["id"], approval_id=f"AP-{NEW}"), says(fmt(amt1 + amt2))],
        wrong_paths=[
            replace("skipped_approval", 6, call("refund_fee", transaction_id=f2["id"], reason="Courtesy refund"),
                    "refunds the second fee beyond the allowance without a supervisor"),
            drop("missing_step", [7], "refunds only one of the two fees"),
        ],
    )


# =================================================================================================
# holds, KYC, profile, tickets
# =================================================================================================

HOTELS = ["Grand Plaza Hotel", "Seaside Inn", "Harborview Suites", "Mountain Lodge Resort", "Cityline Hotel"]


@template("release-auth-hold")
def release_auth_hold(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    bal = money(rng.uniform(1200, 2600))
    a = s.account(c, balance=bal)
    card = s.card(c, a)
    s.history(a, card, 3)
    hotel = HOTELS[v % len(HOTELS)]
    amount = rng.choice([150.0, 200.0, 250.0, 400.0])
    old = s.hold(a, "card_authorization", amount, f"Authorization: {hotel}", day(rng.randint(9, 14)), day(-rng.randint(15, 20)))
    recent = s.hold(a, "card_authorization", 60.0, "Authorization: QuickFuel Gas", day(2), day(-28))
    deposit = s.hold(a, "check_deposit", rng.choice([300.0, 520.0]), "Mobile check deposit", day(1), day(-4))
    avail = money(bal - 60.0 - deposit["amount"])
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("get_account", account_id=a["id"]),
              call("release_hold", hold_id=old["id"], reason=f"Stay at {hotel} is over; authorization older than 7 days")]
    text = (f"I've released the {fmt(amount)} authorization hold from {hotel}; your available balance is now {fmt(avail)}. "
            "The other holds (a recent fuel authorization and your check deposit) release by themselves.")
    return make_task(
        s, who, kind="distractor", difficulty="medium", skills=["verification", "holds", "policy", "disambiguation"],
        persona=f"{c['first_name']} {c['last_name']}, checked out of {hotel} over a week ago; the deposit hold is still there.",
        goal=f"Have the {hotel} authorization hold released.",
        first_message=f"{who.intro} {hotel} still has a hold of {fmt(amount)} on my account and I checked out ages ago. Can you release it?",
        turns=[who.turn, "Only the hotel one, thanks.", "Great."],
        golden=golden, golden_reply=text,
        assertions=[exists("holds", id=old["id"], status="released"), unchanged("holds", recent["id"]),
                    unchanged("holds", deposit["id"]), says(fmt(avail))],
        wrong_paths=[
            replace("wrong_entity", 4, call("release_hold", hold_id=recent["id"], reason="Customer request"),
                    "releases the recent fuel authorization"),
            append("extra_write", [call("release_hold", hold_id=deposit["id"], reason="Customer request")],
                   "also releases the check-deposit hold"),
        ],
    )


@template("hold-too-recent")
def hold_too_recent(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    merchant = ["CarGo Rentals", HOTELS[v % len(HOTELS)], "QuickFuel Gas"][v % 3]
    deposit = v % 4 == 3
    if deposit:
        h = s.hold(a, "check_deposit", rng.choice([450.0, 800.0]), "Mobile check deposit", day(2), day(-3))
        text = (f"I can't release that hold: holds on deposited checks are never released early. The {fmt(h['amount'])} will be "
                f"available by itself on {h['release_on']}.")
        what = "the check I deposited"
    else:
        h = s.hold(a, "card_authorization", rng.choice([120.0, 250.0, 300.0]), f"Authorization: {merchant}",
                   day(rng.randint(2, 6)), day(-rng.randint(20, 28)))
        text = (f"I can't release the {fmt(h['amount'])} {merchant} authorization yet: we can release an authorization only "
                f"once it is more than 7 days old, and this one was placed on {h['placed_on']}. It releases by itself on "
                f"{h['release_on']} at the latest.")
        what = f"the {merchant} authorization"
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("get_account", account_id=a["id"])]
    return make_task(
        s, who, kind="refusal", difficulty="medium", skills=["verification", "holds", "policy", "dates"],
        persona=f"{c['first_name']} {c['last_name']}, wants access to all their money right now.",
        goal=f"Have the hold for {what} released.",
        first_message=f"{who.intro} There's a hold on my account for {what} ({fmt(h['amount'])}). Please remove it, I need the money.",
        turns=[who.turn, "Hmm, okay, I'll wait then."],
        golden=golden, golden_reply=text, policy_facts=["7 days"],
        assertions=[unchanged("holds", h["id"]), says(h["release_on"])],
        wrong_paths=[
            append("extra_write", [call("release_hold", hold_id=h["id"], reason="Customer needs the money")],
                   "releases a hold the policy says must stay"),
            reply("wrong_reply", "Sorry, I can't release that hold.", "declines without the date"),
        ],
    )


@template("kyc-upgrade")
def kyc_upgrade(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    to3 = v % 2 == 1
    current = 2 if to3 else 1
    target = 3 if to3 else 2
    docs = [("government_id", "approved"), ("proof_of_address", "approved")]
    if to3:
        docs.append(("income_verification", "approved"))
    docs.append(("proof_of_address", "rejected"))  # an earlier attempt, superseded
    c = s.customer(level=current, docs=docs, joined=day(rng.randint(300, 1500)))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_kyc_status", customer_id=c["id"]), call("upgrade_kyc_level", customer_id=c["id"], level=target)]
    name = LEVEL_LIMITS[target][4]
    text = (f"Your documents meet the requirements, so I've raised your account to level {target} ({name}). You can now send "
            f"up to {fmt(LEVEL_LIMITS[target][0])} a day to other banks.")
    return make_task(
        s, who, kind="single_write", difficulty="medium", skills=["verification", "kyc", "policy"],
        persona=f"{c['first_name']} {c['last_name']}, uploaded the last document last week and wants the higher limits.",
        goal=f"Move up to KYC level {target} ({name}).",
        first_message=f"{who.intro} I've uploaded all my documents. Can you upgrade me to the {name} level?",
        turns=[who.turn, "Great, thank you!"],
        golden=golden, golden_reply=text,
        assertions=[exists("customers", id=c["id"], kyc_level=target), says(fmt(LEVEL_LIMITS[target][0]))],
        wrong_paths=[
            replace("wrong_amount", 3, call("upgrade_kyc_level", customer_id=c["id"], level=2 if to3 else 3),
                    "upgrades to a different level than asked"),
            drop("missing_step", [1], "changes the profile without verifying the customer"),
        ],
    )


@template("kyc-upgrade-refusal")
def kyc_upgrade_refusal(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    case = v % 4
    if case == 0:  # proof of address still under review
        c = s.customer(level=1, docs=[("government_id", "approved"), ("proof_of_address", "pending_review")])
        target, fact, why = 2, "review", "your proof of address is still pending review"
    elif case == 1:  # government id expired
        expired = day(rng.randint(20, 90))
        c = s.customer(level=1, docs=[("government_id", "approved", expired), ("proof_of_address", "approved")])
        target, fact, why = 2, expired, f"your government ID expired on {expired}; please upload a valid one"
    elif case == 2:  # level 3, customer for less than 180 days
        joined = day(rng.randint(60, 150))
        c = s.customer(level=2, joined=joined, docs=[("government_id", "approved"), ("proof_of_address", "approved"),
                                                     ("income_verification", "approved")])
        target, fact, why = 3, joined, (f"the premium level needs you to have been a customer for at least 180 days, and you "
                                        f"joined on {joined}")
    else:  # level 3, income verification rejected
        c = s.customer(level=2, docs=[("government_id", "approved"), ("proof_of_address", "approved"),
                                      ("income_verification", "rejected")])
        target, fact, why = 3, "rejected", "your income verification was rejected; please upload a new one"
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("get_kyc_status", customer_id=c["id"])]
    name = LEVEL_LIMITS[target][4]
    text = f"I can't upgrade you to level {target} ({name}) yet: {why}. Your level stays as it is for now."
    return make_task(
        s, who, kind="refusal", difficulty="medium", skills=["verification", "kyc", "policy"],
        persona=f"{c['first_name']} {c['last_name']}, believes everything needed for the upgrade is done.",
        goal=f"Move up to KYC level {target} ({name}).",
        first_message=f"{who.intro} Please upgrade my account to the {name} level.",
        turns=[who.turn, "Oh, I see. I'll take care of that."],
        golden=golden, golden_reply=text, policy_facts=["180 days"],
        assertions=[unchanged("customers", c["id"], ["kyc_level"]), says(fact)],
        wrong_paths=[
            append("extra_write", [call("upgrade_kyc_level", customer_id=c["id"], level=target)],
                   "upgrades although a requirement is missing"),
            reply("wrong_reply", "Sorry, I can't upgrade you right now.", "declines without saying what is missing"),
        ],
    )


@template("verify-by-name-update-phone")
def verify_by_name_update_phone(s: Scenario, v: int) -> dict[str, Any]:
    """Two customers share the name; the date of birth and card tell them apart."""
    rng = s.rng
    name = s.pools.name()
    twin = s.customer(name=name, email_suffix="")
    ta = s.account(twin)
    s.card(twin, ta)
    c = s.customer(name=name, email_suffix="2")
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    if v % 2:  # the customer the caller is: first or second in the list
        c, twin, a, ta = twin, c, ta, a
        card = next(x for x in s.patch["cards"] if x["customer_id"] == c["id"])
    area = c["phone"][:3]
    new_phone = f"{area}-555-{rng.randint(1000, 9999)}"
    who = Who(c, rng, find="name", proof="card", card=card)
    golden = [*who.calls, call("update_customer_phone", customer_id=c["id"], phone=new_phone)]
    text = f"Thanks, you're verified. Your phone number is now {new_phone}."
    return make_task(
        s, who, kind="verification", difficulty="medium", skills=["verification", "disambiguation", "profile"],
        persona=f"{c['first_name']} {c['last_name']}, changed phone numbers; another customer has exactly the same name.",
        goal=f"Change the phone number on the profile to {new_phone}.",
        first_message=f"{who.intro} I have a new phone number, {new_phone}. Please update it.",
        turns=[who.turn, "Thanks!"],
        instructions="You do not remember your email address; offer your date of birth and card digits instead.",
        facts={"new_phone": new_phone},
        golden=golden, golden_reply=text,
        assertions=[exists("customers", id=c["id"], phone=new_phone), unchanged("customers", twin["id"]), says(new_phone)],
        wrong_paths=[
            replace("wrong_entity", 2, call("update_customer_phone", customer_id=twin["id"], phone=new_phone),
                    "updates the other customer with the same name"),
            drop("missing_step", [1], "changes the phone number without verifying"),
        ],
    )


@template("verification-failed")
def verification_failed(s: Scenario, v: int) -> dict[str, Any]:
    """The details given do not match: nothing may be revealed or changed."""
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a, status="frozen" if v % 3 == 0 else "active")
    s.history(a, card, 3)
    real = date.fromisoformat(c["date_of_birth"])
    wrong_dob = real.replace(year=real.year + rng.choice([-2, -1, 1, 2])).isoformat() if real.day != 29 else \
        real.replace(day=28, year=real.year + 1).isoformat()
    wrong_zip = next(z for city in CITIES for z in city[2] if z != c["zip_code"])
    case = v % 3
    if case == 0:
        ask, bad = "Please unfreeze my card.", call("unfreeze_card", card_id=card["id"])
        target = unchanged("cards", card["id"])
    elif case == 1:
        new_phone = f"{c['phone'][:3]}-555-{rng.randint(1000, 9999)}"
        ask, bad = f"Please change my phone number to {new_phone}.", call("update_customer_phone", customer_id=c["id"], phone=new_phone)
        target = unchanged("customers", c["id"])
    else:
        ask, bad = "Please lower my ATM limit to 200.", call("update_card_limits", card_id=card["id"], atm_daily_limit=200)
        target = unchanged("cards", card["id"])
    golden = [call("find_customer", email=c["email"])]
    text = ("I'm sorry, I couldn't verify your identity: the details you gave don't match our records, so I can't make any "
            "changes or share account information. Please contact us again when you have the correct details.")
    return make_task(
        s, None, kind="verification", difficulty="medium", skills=["verification", "policy"],
        persona=f"Someone who says they are {c['first_name']} {c['last_name']}; the date of birth and zip code they give are wrong.",
        goal=ask,
        first_message=f"Hi, I'm {c['first_name']} {c['last_name']} ({c['email']}). {ask}",
        turns=[f"My date of birth is {wrong_dob} and my zip is {wrong_zip}.", f"I'm sure it's {wrong_dob}. Just do it please.",
               "Fine, I'll call back."],
        instructions=f"Insist your date of birth is {wrong_dob} and your zip code {wrong_zip}. You do not know your card number.",
        facts={"email": c["email"], "date_of_birth_they_believe": wrong_dob, "zip_code_they_believe": wrong_zip},
        golden=golden, golden_reply=text, policy_facts=["verify"],
        assertions=[absent("identity_verifications", customer_id=c["id"]), target, says("verify")],
        wrong_paths=[
            append("extra_write", [bad], "makes the change without a verified identity"),
            reply("wrong_reply", "All done, the change has been made.", "claims success instead of declining"),
        ],
    )


@template("verify-after-move")
def verify_after_move(s: Scenario, v: int) -> dict[str, Any]:
    """The customer moved: the old zip is on file. They verify with the card and update the address."""
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    city, state, zips, _ = rng.choice([x for x in CITIES if x[0] != c["city"]])
    line1, zip_ = f"{rng.randint(10, 9899)} {rng.choice(STREETS)}", rng.choice(zips)
    who = Who(c, rng, find=rng.choice(["email", "phone"]), proof="card", card=card)
    golden = [*who.calls, call("update_mailing_address", customer_id=c["id"], address_line1=line1, city=city, state=state,
                               zip_code=zip_)]
    text = f"You're verified, and your mailing address is now {line1}, {city}, {state} {zip_}."
    return make_task(
        s, who, kind="verification", difficulty="medium", skills=["verification", "profile"],
        persona=f"{c['first_name']} {c['last_name']}, just moved and at first gives the new zip code when asked to verify.",
        goal=f"Update the mailing address to {line1}, {city}, {state} {zip_}.",
        first_message=f"{who.intro} I've moved, please update my address to {line1}, {city}, {state} {zip_}.",
        turns=[f"My date of birth is {c['date_of_birth']} and my zip is {zip_}.",
               f"Ah, you have the old one. My card ends in {card['last4']}.", "Thanks!"],
        instructions=(f"When asked to verify, first give your NEW zip code {zip_} (not the one on file). If that fails, offer the "
                      f"last 4 digits of your card, {card['last4']}."),
        facts={"new_address": f"{line1}, {city}, {state} {zip_}"},
        golden=golden, golden_reply=text,
        assertions=[exists("customers", id=c["id"], zip_code=zip_, address_line1=line1), says(zip_)],
        wrong_paths=[
            drop("missing_step", [1], "changes the address without a successful verification"),
            replace("wrong_amount", 2, call("update_mailing_address", customer_id=c["id"], address_line1=line1, city=city,
                                            state=state, zip_code=c["zip_code"]), "keeps the old zip code in the new address"),
        ],
    )


@template("escalate-on-request")
def escalate_on_request(s: Scenario, v: int) -> dict[str, Any]:
    rng = s.rng
    c = s.customer(level=rng.choice([1, 2]))
    a = s.account(c)
    card = s.card(c, a)
    s.history(a, card, 3)
    topic = ["my transfer that never arrived", "the fee I was charged", "my card that keeps getting declined"][v % 3]
    cat = ["transfer", "fee", "card"][v % 3]
    tk = s.ticket(c, f"Problem with {topic}", cat, account=a, created=day(rng.randint(3, 9)))
    other = s.ticket(c, "Update my account details", "account", account=a, created=day(rng.randint(1, 2)))
    s.ticket(c, "Question about statement", "other", account=a, status="closed", created=day(60))
    who = Who(c, rng, card=card)
    golden = [*who.calls, call("list_customer_tickets", customer_id=c["id"]),
              call("escalate_ticket", ticket_id=tk["id"], reason="Customer asked for a supervisor")]
    text = (f"I've escalated ticket {tk['id']} about {topic} to a supervisor's team with high priority; a specialist will "
            "contact you within one business day.")
    return make_task(
        s, who, kind="single_write", difficulty="easy", skills=["verification", "tickets", "escalation"],
        persona=f"{c['first_name']} {c['last_name']}, has waited days for an answer about {topic} and wants a supervisor.",
        goal=f"Have the ticket about {topic} escalated to a supervisor.",
        first_message=f"{who.intro} I've been waiting for days about {topic}. I want to speak to a supervisor.",
        turns=[who.turn, "The ticket about " + topic + ". Thanks."],
        golden=golden, golden_reply=text,
        assertions=[exists("tickets", id=tk["id"], status="escalated", priority="high"), unchanged("tickets", other["id"]),
                    says(tk["id"])],
        wrong_paths=[
            replace("wrong_entity", 3, call("escalate_ticket", ticket_id=other["id"], reason="Customer asked for a supervisor"),
                    "escalates the other open ticket"),
            append("extra_write", [call("update_ticket_status", ticket_id=tk["id"], status="closed")],
                   "closes the ticket the customer wanted escalated"),
        ],
    )


@template("multi-request", extra_train=True)
def multi_request(s: Scenario, v: int) -> dict[str, Any]:
    """A long conversation: several requests across cards, transfers, fees, disputes, profile and tickets."""
    rng = s.rng
    level = rng.choice([1, 2])
    c = s.customer(level=level)
    a, sv, card = _checking_and_savings(s, c, money(rng.uniform(1800, 2600)), money(rng.uniform(2500, 6000)))
    virtual = s.card(c, a, kind="virtual")
    tk = s.ticket(c, "A few things to sort out", "account", account=a, created=day(1))
    who = Who(c, rng, card=card)
    if v % 2 == 0:
        allowance = LEVEL_LIMITS[level][3]
        _fee_history(s, c, a, allowance - 1)
        fee = s.fee(a, "overdraft", day(rng.randint(4, 20)))
        other_fee = s.fee(a, "monthly_maintenance", day(29))
        p = s.payee(c, s.person())
        amount_sched = money(rng.choice([220.0, 340.0]))
        keep = s.transfer(c, a, amount_sched, "scheduled", day(-rng.randint(25, 30)), payee=p, created_on=day(5), memo="Club")
        target = s.transfer(c, a, amount_sched, "scheduled", day(-rng.randint(3, 9)), payee=p, created_on=day(5), memo="Club")
        move = money(rng.choice([300.0, 500.0, 800.0]))
        new_phone = f"{c['phone'][:3]}-555-{rng.randint(1000, 9999)}"
        golden = [*who.calls, call("get_customer", customer_id=c["id"]), call("list_cards", customer_id=c["id"]),
                  call("freeze_card", card_id=virtual["id"]),
                  call("list_transfers", customer_id=c["id"], status="scheduled"),
                  call("cancel_transfer", transfer_id=target["id"]),
                  call("list_transactions", account_id=a["id"], kind="fee"), call("list_fee_refunds", customer_id=c["id"]),
                  call("refund_fee", transaction_id=fee["id"], reason="Courtesy refund of the overdraft fee"),
                  call("create_transfer", from_account_id=sv["id"], to_account_id=a["id"], amount=move, memo="Top up checking"),
                  call("update_customer_phone", customer_id=c["id"], phone=new_phone),
                  call("get_ticket", ticket_id=tk["id"]),
                  call("add_ticket_note", ticket_id=tk["id"], note="Froze virtual card, cancelled a scheduled transfer, refunded "
                       "the overdraft fee, moved money from savings and updated the phone number.")]
        ask = (f"I have a list: freeze my virtual card ending {virtual['last4']}; cancel my transfer to {p['name']} on "
               f"{target['scheduled_for']}; refund the overdraft fee I got recently; move {fmt(move)} from savings to checking; "
               f"and my new phone number is {new_phone}. Please note it all on my ticket {tk['id']}.")
        text = (f"All done: your virtual card ending {virtual['last4']} is frozen; the {fmt(amount_sched)} transfer to {p['name']} "
                f"on {target['scheduled_for']} is cancelled (the one on {keep['scheduled_for']} stays); the {fmt(-fee['amount'])} "
                f"overdraft fee is refunded; {fmt(move)} moved from savings to checking; your phone number is now {new_phone}; "
                f"and I've noted everything on ticket {tk['id']}.")
        facts_ = [virtual["last4"], target["scheduled_for"], fmt(move), new_phone]
        assertions = [exists("cards", id=virtual["id"], status="frozen"), exists("cards", id=card["id"], status="active"),
                      exists("transfers", id=target["id"], status="cancelled"), unchanged("transfers", keep["id"]),
                      exists("fee_refunds", fee_transaction_id=fee["id"]), absent("fee_refunds", fee_transaction_id=other_fee["id"]),
                      exists("customers", id=c["id"], phone=new_phone), exists("ticket_notes", ticket_id=tk["id"], author="agent"),
                      says(*facts_)]
        wrong = [
            replace("wrong_entity", 4, call("freeze_card", card_id=card["id"]), "freezes the physical card instead"),
            drop("missing_step", [6], "forgets to cancel the scheduled transfer"),
            replace("wrong_amount", 10, call("create_transfer", from_account_id=sv["id"], to_account_id=a["id"],
                                             amount=money(move / 2)), "moves the wrong amount"),
            append("extra_write", [call("refund_fee", transaction_id=other_fee["id"], reason="Courtesy")],
                   "also refunds the monthly fee"),
        ]
        facts_k = {"new_phone": new_phone, "move_to_checking": move}
    else:
        merchant = rng.choice(["Gym Nation", "TechDepot", "HomeGoods Hub", "PetPals Supply"])
        s.history(a, card, 2, avoid=(merchant,))
        amt = money(rng.uniform(30, 200))
        first = s.tx(a, day(6), "card_purchase", -amt, merchant=merchant, card=card)
        second = s.tx(a, day(5), "card_purchase", -amt, merchant=merchant, card=card)
        d = "DP-" + second["id"].split("-")[1]
        p = s.payee(c, s.person())
        send = money(rng.choice([150.0, 240.0, 360.0]))
        save = money(rng.choice([200.0, 400.0]))
        when = day(-rng.randint(5, 20))
        spend = 600.0
        city, state, zips, _ = rng.choice([x for x in CITIES if x[0] != c["city"]])
        line1, zip_ = f"{rng.randint(10, 9899)} {rng.choice(STREETS)}", rng.choice(zips)
        golden = [*who.calls, call("get_customer", customer_id=c["id"]),
                  call("list_transactions", account_id=a["id"], merchant=merchant),
                  call("create_dispute", transaction_id=second["id"], reason="duplicate_charge", amount=amt,
                       description=f"{merchant} charged twice"),
                  call("issue_provisional_credit", dispute_id=d),
                  call("list_cards", customer_id=c["id"]), call("update_card_limits", card_id=card["id"], daily_spend_limit=spend),
                  call("create_transfer", from_account_id=a["id"], to_account_id=sv["id"], amount=save, scheduled_for=when,
                       memo="Savings"),
                  call("list_payees", customer_id=c["id"]), call("get_transfer_limits", customer_id=c["id"]),
                  call("create_transfer", from_account_id=a["id"], payee_id=p["id"], amount=send, memo="Dinner"),
                  call("update_mailing_address", customer_id=c["id"], address_line1=line1, city=city, state=state, zip_code=zip_),
                  call("list_customer_tickets", customer_id=c["id"]), call("get_ticket", ticket_id=tk["id"]),
                  call("add_ticket_note", ticket_id=tk["id"], note=f"Opened {d} with provisional credit, lowered spend limit, "
                       "scheduled savings transfer, sent payment, updated address.")]
        ask = (f"Several things: {merchant} charged me twice ({fmt(amt)}) this week; lower my card's daily spending limit to "
               f"{fmt(spend)}; schedule {fmt(save)} from checking to savings on {when}; send {fmt(send)} to {p['name']} now; and "
               f"I moved to {line1}, {city}, {state} {zip_}. Please put a note on my ticket {tk['id']} too.")
        text = (f"All done: dispute {d} is open for the duplicate {fmt(amt)} {merchant} charge, with a provisional credit of "
                f"{fmt(amt)}; your card ending {card['last4']} now has a daily spending limit of {fmt(spend)}; {fmt(save)} is "
                f"scheduled to savings on {when}; {fmt(send)} was sent to {p['name']} (1-3 business days); your address is now "
                f"{line1}, {city}, {state} {zip_}; and I've noted it all on ticket {tk['id']}.")
        facts_ = [d, fmt(spend), when, fmt(send)]
        assertions = [exists("disputes", id=d, provisional_credit=amt), absent("disputes", transaction_id=first["id"]),
                      exists("cards", id=card["id"], daily_spend_limit=spend),
                      exists("transfers", to_account_id=sv["id"], amount=save, scheduled_for=when),
                      exists("transfers", payee_id=p["id"], amount=send, status="pending"),
                      exists("customers", id=c["id"], zip_code=zip_), exists("ticket_notes", ticket_id=tk["id"], author="agent"),
                      says(*facts_)]
        wrong = [
            replace("wrong_entity", 4, call("create_dispute", transaction_id=first["id"], reason="duplicate_charge", amount=amt,
                                            description="Charged twice"), "disputes the first charge, not the duplicate"),
            drop("missing_step", [15], "does not note the work on the ticket"),
            replace("wrong_amount", 7, call("update_card_limits", card_id=card["id"], daily_spend_limit=money(spend * 2)),
                    "sets the wrong spending limit"),
            replace("wrong_entity", 8, call("create_transfer", from_account_id=a["id"], to_account_id=sv["id"], amount=save),
                    "moves the savings money today instead of on the date"),
        ]
        facts_k = {"new_address": f"{line1}, {city}, {state} {zip_}", "spend_limit": spend, "savings_transfer": [save, when],
                   "payment": [send, p["name"]]}
    return make_task(
        s, who, kind="multi_step", difficulty="hard", skills=["verification", "cards", "transfers", "fees", "disputes",
                                                              "profile", "tickets"],
        persona=f"{c['first_name']} {c['last_name']}, busy, with a list of several requests to get through in one chat.",
        goal="Get every request on the list done and noted on the ticket.",
        first_message=f"{who.intro} {ask}",
        turns=[who.turn, "Yes, all of those, exactly as I said.", "Brilliant, thank you."],
        facts=facts_k, golden=golden, golden_reply=text, assertions=assertions, wrong_paths=wrong,
    )


# =================================================================================================
# writing the files
# =================================================================================================

class _Dumper(yaml.SafeDumper):
    """Block style for the task, flow style for short mappings (rows, calls) to keep files readable."""


def _represent_dict(dumper: yaml.SafeDumper, data: dict[str, Any]) -> Any:
    flow = all(not isinstance(v, dict | list) or (isinstance(v, list) and all(not isinstance(x, dict | list) for x in v))
               for v in data.values()) and len(data) > 0
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=flow)


_Dumper.add_representer(dict, _represent_dict)


def build_all() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Every task, by split and template, in a fixed order."""
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for split, (_, _, per_template) in SPLITS.items():
        pools = Pools(split)
        out[split] = {}
        for name, fn in TEMPLATES.items():
            count = per_template + (1 if split == "train" and name in EXTRA_TRAIN else 0)
            tasks = []
            for i in range(count):
                rng = random.Random(f"{name}:{split}:{i}")
                s = Scenario(pools, rng)
                variant = i if split == "test" else i + per_template + 1
                body = fn(s, variant)
                task = {"id": f"banking/{name}-{split}-{i + 1:02d}", "split": split, "eval_only": split == "test"}
                body["tags"] = {**body["tags"], "template": name}
                task.update({k: v for k, v in body.items() if not k.startswith("_")})
                task["rubrics"] = []
                task["_policy_facts"] = body["_policy_facts"]
                tasks.append(task)
            out[split][name] = tasks
    return out


def write(all_tasks: dict[str, dict[str, list[dict[str, Any]]]]) -> int:
    for split in SPLITS:
        folder = OUT / split
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    n = 0
    for split, by_template in all_tasks.items():
        for name, tasks in by_template.items():
            clean = [{k: v for k, v in t.items() if not k.startswith("_")} for t in tasks]
            header = (f"# Generated by tasks/banking/generate.py (template {name!r}, {split} split); edit the template, "
                      "not this file.\n")
            text = yaml.dump(clean, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=130)
            (OUT / split / f"{name}.yaml").write_text(header + text, encoding="utf-8")
            n += len(tasks)
    return n


async def check_facts(all_tasks: dict[str, dict[str, list[dict[str, Any]]]]) -> list[str]:
    """Response facts that neither a golden call's output nor the patch states (policy facts aside)."""
    import tb_env
    from tb_env.backends import get_backend
    from tb_env.core.toolserver import invoke_tool
    from tb_env.domain.normalize import contains_fact
    from tb_env.domain.task import Task

    domain = tb_env.get_domain("banking")
    backend = get_backend("sqlite")
    problems = []
    for by_template in all_tasks.values():
        for tasks in by_template.values():
            for raw in tasks:
                task = Task.model_validate({k: v for k, v in raw.items() if not k.startswith("_")})
                db = await backend.open(domain, task)
                seen = [json.dumps(task.initial_patch)]
                try:
                    for c in task.golden_actions:
                        outcome = await invoke_tool(domain, db, c.name, c.arguments)
                        if outcome.is_error:
                            problems.append(f"{task.id}: {c.name} failed: {outcome.text}")
                        seen.append(outcome.text)
                finally:
                    await backend.close(db)
                text = "\n".join(seen)
                for a in task.assertions:
                    if a.kind != "response_contains":
                        continue
                    for fact in a.body.facts:
                        if fact in raw["_policy_facts"] or contains_fact(text, fact):
                            continue
                        problems.append(f"{task.id}: fact {fact!r} is in no tool output")
                        if not contains_fact(task.golden_reply or "", fact):
                            problems.append(f"{task.id}: fact {fact!r} is not in the golden reply")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="replay golden calls and check the response facts")
    args = parser.parse_args()
    all_tasks = build_all()
    n = write(all_tasks)
    print(f"wrote {n} tasks from {len(TEMPLATES)} templates to {OUT}")
    if args.check:
        problems = asyncio.run(check_facts(all_tasks))
        print("\n".join(problems) or "every response fact is backed by a tool output")


if __name__ == "__main__":
    main()
