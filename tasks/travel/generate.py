"""The travel task templates: `python -m tb_env.tasks.travel.generate` writes `tasks/`.

Each template (registered with `@template`, in the order the files were first written)
builds one scenario from a `TravelScene`: the travellers, cards, bookings, approvals,
invoices and tickets it is about (the task's `initial_patch` over the seeded catalogue),
the caller and what they can tell when asked, the golden calls and reply, the assertions
and the wrong paths that must score 0. Every price, fee and points figure comes from
`pricing.py`, the arithmetic the tools use. `--check` says whether the files are current,
`--validate` runs `tb-env validate`'s probes on them (see `tb_env.kit`).

Splits never share entities: each split draws names from its own pool, uses its own half
of the seeded companies (`test`: CO-0001..CO-0012, `train`: CO-0013..CO-0024) and its
own id range (`test` from 5001, `train` from 7001).

Reply facts follow docs/adding-a-domain.md: each is required because the customer asked
for it or a policy rule demands it (the `why`), and a refusal requires its reason in
phrases specific to it (never one generic word such as "limit" or "verify"). After a
change the policy says to tell what changed, so the changed value is required even where
the customer gave it (a PO number, an arrival time, a phone number): an agent that makes
the write and says "All done." scores 0. Two facts the reply must tell apart (a fee and a
refund, a nightly rate and a total) never share a value in the scene. Every record the
golden path reads after verifying the caller is also forbidden before that verification
(`verified_first`), and a namesake's or colleague's records are never read at all.

`wants` name the records and actions a customer agrees to ("Shall I cancel it?" needs
"cancel": the kit's default reads only ids and tool-name nouns). The scripted user
refuses any proposal naming one of `declines` (by default the ids and amounts of the
wrong paths), even "INV-5057, not INV-5056"; templates whose distractor a careful agent
names while confirming the right record set `declines=[]`: an agent that proposes the
wrong record alone is caught by the state check.
"""

from __future__ import annotations

import functools
import random
import re
from collections import defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from tb_env.components.ticketing import CLAIMS as TICKET_CLAIMS
from tb_env.domain.normalize import normalize
from tb_env.kit import (
    Caller,
    Golden,
    Pool,
    Scene,
    TaskSpec,
    Templates,
    absent,
    append,
    call,
    called,
    drop,
    exists,
    fact,
    must_not_disclose,
    no_call,
    outcome,
    outcomes,
    replace,
    reply,
    says,
    says_not,
    unchanged,
)

from . import seed as base
from .pricing import (
    GOODWILL_POINTS,
    MAX_NIGHTS,
    cancellation_fee,
    discounted,
    free_cancel_until,
    money,
    stay_points,
    stay_total,
)

HERE = Path(__file__).parent
TODAY = date(2026, 11, 30)
NOW = "2026-11-30"
NEW = 9001  # the first id tools give to records they create (tools.NEW_ID_START)

NAMES = {
    "test": (["Amara", "Bastian", "Celeste", "Dario", "Elif", "Florian", "Gianna", "Hugo", "Ilse", "Joaquin",
              "Kalani", "Lorenzo", "Mireille", "Nikolai", "Odile", "Pieter", "Quentin", "Rosalind", "Soren",
              "Thea", "Ulrich", "Valentina", "Wendell", "Ximena", "Yannick", "Zofia", "Anouk", "Benedikt",
              "Cosima", "Desmond"],
             ["Achterberg", "Bellweather", "Castellanos", "Drummond", "Eriksen", "Fairbanks", "Galloway",
              "Hargreaves", "Iversen", "Jablonski", "Kittredge", "Lombardi", "Marchetti", "Nakashima",
              "Ostrowski", "Pemberton", "Quintanilla", "Rasmussen", "Sandoval", "Thornbury", "Underhill",
              "Valdivia", "Whitcombe", "Yamaguchi", "Zeller"]),
    "train": (["Aurelio", "Brenna", "Cassius", "Delphine", "Emeric", "Fenna", "Gideon", "Helga", "Ignatius",
               "Jolene", "Kasimir", "Linnea", "Magnus", "Noemi", "Osvaldo", "Philippa", "Roderick", "Saskia",
               "Tobias", "Ursula", "Vasco", "Wilhelmina", "Xavier", "Yvette", "Zoltan"],
              ["Abernathy", "Blackwood", "Carrington", "Delacroix", "Everhart", "Fitzgerald", "Greenhalgh",
               "Holloway", "Ingram", "Jovanovic", "Kensington", "Lindgren", "Montague", "Northcott", "Oyelaran",
               "Prescott", "Rutherford", "Stavros", "Trevelyan", "Vandermeer"]),
}
COMPANIES = {"test": [f"CO-{n:04d}" for n in range(1, 13)], "train": [f"CO-{n:04d}" for n in range(13, 25)]}
CARD_BRANDS = ["Amex", "Visa", "Mastercard"]
JOBS = ["Account Executive", "Consultant", "Engineer", "Analyst", "Project Manager", "Sales Director", "Auditor"]
MANAGER_JOBS = ["Head of Operations", "Regional Director", "VP Sales", "Engineering Manager", "Finance Director"]
TABLES = ("travellers", "payment_methods", "bookings", "approvals", "transactions", "loyalty_entries", "invoices",
          "tickets", "ticket_notes")

# Why a reply fact is required: the policy rules that make the agent state something.
CANCELLED = "policy, Cancellations and fees: after cancelling, tell the traveller the fee (if any) and the refund"
DATES_CHANGED = "policy, Date changes: tell the traveller the new dates, the new total and the amount charged or refunded"
BOOKED = "policy, New bookings: tell the traveller the booking id, the nightly rate and the total"
MANAGER_ASKED = "policy, Approvals (none on file): tell the traveller that their manager, by name, has been asked"
DECLINED = "policy, Communicating: when you decline a request, say why, citing the rule"
CHANGED = "policy, Communicating: after a change, say what changed"
VERIFY_FIRST = "policy, Identity verification: a traveller's records need a verified identity first"

# The tools that read a traveller's profile or records: none before the identity check succeeds.
RECORD_READS = ("get_traveller", "list_traveller_bookings", "get_booking", "get_cancellation_quote", "list_approvals",
                "get_approval", "get_loyalty_account", "list_traveller_invoices", "get_invoice", "get_ticket",
                "list_traveller_tickets")


def m(x: float) -> str:
    """Money as the replies and facts write it."""
    return f"{money(x):.2f}"


def iso(d: date) -> str:
    return d.isoformat()


def nice_time(hhmm: str) -> str:
    h, mi = (int(x) for x in hhmm.split(":"))
    suffix = "am" if h < 12 else "pm"
    return f"{(h - 1) % 12 + 1}:{mi:02d} {suffix}" if mi else f"{(h - 1) % 12 + 1} {suffix}"


# -- the seeded catalogue ---------------------------------------------------------------------------


class Catalog:
    """The hotels, rate plans and companies of the seed, indexed for the templates."""

    def __init__(self) -> None:
        rows = base.build()
        self.cities = {c["id"]: c for c in rows["cities"]}
        self.companies = {c["id"]: c for c in rows["companies"]}
        self.hotels = {h["id"]: h for h in rows["hotels"]}
        self.rooms = {r["id"]: r for r in rows["room_types"]}
        self.plans = {p["id"]: p for p in rows["rate_plans"]}
        self.discounts = {(p["company_id"], p["hotel_id"]): p["discount_percent"] for p in rows["preferred_hotels"]}
        self.by_hotel: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for p in rows["rate_plans"]:
            self.by_hotel[p["hotel_id"]].append(p)

    def plan(self, hotel_id: str, room_code: str, kind: str = "flexible") -> dict[str, Any] | None:
        for p in self.by_hotel[hotel_id]:
            if self.rooms[p["room_type_id"]]["code"] == room_code and p["kind"] == kind:
                return p
        return None

    def room(self, plan: dict[str, Any]) -> dict[str, Any]:
        return self.rooms[plan["room_type_id"]]

    def hotel(self, plan_or_id: dict[str, Any] | str) -> dict[str, Any]:
        hid = plan_or_id if isinstance(plan_or_id, str) else plan_or_id["hotel_id"]
        return self.hotels[hid]

    def city(self, hotel: dict[str, Any]) -> dict[str, Any]:
        return self.cities[hotel["city_id"]]

    def discount(self, company_id: str, hotel_id: str) -> int:
        return self.discounts.get((company_id, hotel_id), 0)

    def rate(self, company_id: str, plan: dict[str, Any]) -> float:
        return discounted(plan["nightly_rate"], self.discount(company_id, plan["hotel_id"]))

    def cap(self, company_id: str, hotel: dict[str, Any]) -> float:
        return float(self.companies[company_id][f"cap_tier{self.city(hotel)['tier']}"])

    def preferred_in_city(self, company_id: str, city_id: str) -> list[str]:
        return sorted(h for (c, h) in self.discounts if c == company_id and self.hotels[h]["city_id"] == city_id)

    def sibling(self, hotel: dict[str, Any]) -> dict[str, Any] | None:
        """The other hotel of the same chain in the same city (every city has one pair)."""
        for h in self.hotels.values():
            if h["id"] != hotel["id"] and h["chain"] == hotel["chain"] and h["city_id"] == hotel["city_id"]:
                return h
        return None

    def plans_where(self, pred: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        return [p for p in self.plans.values() if pred(p)]


CAT = Catalog()


def code(p: dict[str, Any]) -> str:
    return CAT.room(p)["code"]


def flex(p: dict[str, Any]) -> bool:
    return p["kind"] == "flexible"


# -- the pool and the scene: one task's rows, with ids from its split's range ---------------------------


class TravelPool(Pool):
    """The kit's pool with the travel names and companies: names are dealt from the end of
    a list shuffled once per split, companies in a fixed rotation, so every task keeps the
    people it was first generated with."""

    def __init__(self, split: str):
        super().__init__(split, default_base={"test": 5001, "train": 7001})
        firsts, lasts = NAMES[split]
        self.names = [(f, last) for f in firsts for last in lasts]
        random.Random(f"travel-names:{split}").shuffle(self.names)

    def name(self) -> tuple[str, str]:
        return self.names.pop()

    def company(self) -> str:
        companies = COMPANIES[self.split]
        return companies[(self.next("company", start=1) * 5) % len(companies)]


class TravelScene(Scene):
    """The rows one task adds over the base data, and the people in it."""

    pool: TravelPool

    def __init__(self, pool: TravelPool, rng: random.Random):
        super().__init__(pool, rng, TABLES)

    def id(self, prefix: str) -> str:
        return self.pool.id(prefix, 4)

    # people

    def person(
        self, company_id: str | None = None, tier: str = "member", cards: tuple[str, ...] = ("corporate",),
        name: tuple[str, str] | None = None, manager: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A traveller with a manager (a new one unless given) and cards (`expired_` ones are expired)."""
        company_id = company_id or self.pool.company()
        domain = CAT.companies[company_id]["billing_email"].split("@")[1]
        if manager is None:
            mf, ml = self.pool.name()
            manager = self._traveller(company_id, domain, mf, ml, self.rng.choice(MANAGER_JOBS), None, "silver")
        first, last = name or self.pool.name()
        t = self._traveller(company_id, domain, first, last, self.rng.choice(JOBS), manager["id"], tier)
        t["manager"] = manager
        t["cards"] = []
        for kind in cards:
            brand = self.rng.choice(CARD_BRANDS)
            digits = self.rng.randint(1000, 9999)
            corporate = "corporate" in kind
            t["cards"].append(self.add("payment_methods", {
                "id": self.id("PM"), "traveller_id": t["id"], "kind": "corporate_card" if corporate else "personal_card",
                "label": f"{brand} Corporate ending {digits}" if corporate else f"{brand} ending {digits}",
                "status": "expired" if kind.startswith("expired") else "active"}))
        return t

    def _traveller(self, company_id: str, domain: str, first: str, last: str, job: str, manager_id: str | None,
                   tier: str) -> dict[str, Any]:
        row = self.add("travellers", {
            "id": self.id("TR"), "company_id": company_id, "first_name": first, "last_name": last,
            "email": f"{first}.{last}@{domain}".lower(), "phone": f"+1{self.rng.randint(2012000000, 9899999999)}",
            "employee_id": f"E{self.rng.randint(10000, 99999)}", "job_title": job, "manager_id": manager_id,
            "loyalty_tier": tier})
        return {**row, "name": f"{first} {last}", "company": CAT.companies[company_id]["name"]}

    # records

    def booking(
        self, t: dict[str, Any], plan: dict[str, Any], check_in: date, nights: int, status: str = "confirmed",
        card: dict[str, Any] | None = None, points: bool = True, invoice: str | None = None,
        approval_id: str | None = None, arrival_time: str | None = None,
    ) -> dict[str, Any]:
        """A prepaid stay with its charge; a completed one also gets its stay points and an invoice."""
        card = card or t["cards"][0]
        rate = CAT.rate(t["company_id"], plan)
        total = stay_total(rate, nights)
        check_out = check_in + timedelta(days=nights)
        booked_on = min(check_in - timedelta(days=self.rng.randint(10, 40)), TODAY - timedelta(days=2))
        row = self.add("bookings", {
            "id": self.id("BK"), "traveller_id": t["id"], "hotel_id": plan["hotel_id"],
            "room_type_id": plan["room_type_id"], "rate_plan_id": plan["id"], "check_in": iso(check_in),
            "check_out": iso(check_out), "nights": nights, "nightly_rate": rate, "total_amount": total,
            "status": status, "payment_method_id": card["id"], "approval_id": approval_id,
            "arrival_time": arrival_time, "cancellation_fee": 0, "booked_on": iso(booked_on)})
        self.transaction(row, "charge", "booking", total, booked_on)
        if status == "completed":
            if points:
                self.loyalty(t, stay_points(total), "stay", row, check_out)
            if invoice:
                self.add("invoices", {
                    "id": self.id("INV"), "booking_id": row["id"], "company_id": t["company_id"], "amount": total,
                    "status": invoice, "issued_on": iso(min(check_out, TODAY))})
        return {**row, "plan": plan, "hotel": CAT.hotel(plan), "room": CAT.room(plan), "card": card,
                "city": CAT.city(CAT.hotel(plan))["name"]}

    def invoice_of(self, b: dict[str, Any]) -> dict[str, Any]:
        return next(r for r in self.rows["invoices"] if r["booking_id"] == b["id"])

    def transaction(self, b: dict[str, Any], kind: str, purpose: str, amount: float, when: date) -> None:
        self.add("transactions", {
            "id": self.id("TX"), "booking_id": b["id"], "kind": kind, "purpose": purpose,
            "amount": money(amount), "payment_method_id": b["payment_method_id"], "approval_id": None,
            "reason": "Prepaid stay" if kind == "charge" else "Refund", "created_at": f"{iso(when)}T10:00:00Z"})

    def loyalty(self, t: dict[str, Any], points: int, kind: str, b: dict[str, Any] | None, when: date) -> None:
        self.add("loyalty_entries", {
            "id": self.id("LP"), "traveller_id": t["id"], "booking_id": b["id"] if b else None,
            "points": points, "kind": kind, "reason": kind.capitalize(), "created_at": f"{iso(when)}T12:00:00Z"})

    def ticket(self, t: dict[str, Any], b: dict[str, Any] | None, subject: str, category: str,
               note: str, opened: date, status: str = "open") -> dict[str, Any]:
        """An open ticket with the traveller's first note."""
        row = self.add("tickets", {
            "id": self.id("T"), "traveller_id": t["id"], "booking_id": b["id"] if b else None,
            "subject": subject, "category": category, "status": status, "priority": "normal",
            "created_at": f"{iso(opened)}T09:30:00Z"})
        self.add("ticket_notes", {"id": self.id("N"), "ticket_id": row["id"], "author": "traveller", "body": note,
                                  "created_at": f"{iso(opened)}T09:31:00Z"})
        return row

    def approval(self, t: dict[str, Any], kind: str, status: str, amount: float, booking: dict[str, Any] | None = None,
                 plan: dict[str, Any] | None = None, check_in: str | None = None, check_out: str | None = None,
                 note: str | None = None, decided: date | None = None, requested: date | None = None) -> dict[str, Any]:
        requested = requested or TODAY - timedelta(days=self.rng.randint(2, 6))
        return self.add("approvals", {
            "id": self.id("AP"), "traveller_id": t["id"], "approver_id": t["manager_id"], "kind": kind,
            "booking_id": booking["id"] if booking else None, "rate_plan_id": plan["id"] if plan else None,
            "check_in": check_in, "check_out": check_out, "amount": money(amount), "status": status,
            "decision_note": note, "decided_on": iso(decided) if decided else None,
            "request_reason": "Requested by the traveller", "created_at": f"{iso(requested)}T08:00:00Z"})

    # choices

    def upcoming(self, lo: int = 6, hi: int = 70) -> date:
        return TODAY + timedelta(days=self.rng.randint(lo, hi))

    def pick(self, plans: list[dict[str, Any]]) -> dict[str, Any]:
        if not plans:
            raise RuntimeError("no catalogue plan fits this template's constraints")
        return self.rng.choice(sorted(plans, key=lambda p: p["id"]))

    def other_city_plan(self, city_id: str, room: str = "standard") -> dict[str, Any]:
        return self.pick(CAT.plans_where(lambda p: flex(p) and code(p) == room and CAT.hotel(p)["city_id"] != city_id))

    def same_city_plan(self, city_id: str, room: str = "standard", exclude: str | None = None) -> dict[str, Any]:
        return self.pick(CAT.plans_where(
            lambda p: flex(p) and code(p) == room and CAT.hotel(p)["city_id"] == city_id and p["hotel_id"] != exclude))

    def free_window_date(self, plan: dict[str, Any], lo: int = 8, hi: int = 60) -> date:
        """A check-in date whose free-cancellation deadline is still ahead."""
        return self.upcoming(max(lo, plan["free_cancel_days"] + 2), hi)

    def late_window_date(self, plan: dict[str, Any]) -> date:
        """A check-in date (tomorrow or later) whose free-cancellation deadline has passed."""
        return TODAY + timedelta(days=self.rng.randint(1, plan["free_cancel_days"] - 1))


def identity(t: dict[str, Any]) -> dict[str, Any]:
    """What a traveller can tell to be found and verified (the policy's identity details)."""
    return {"name": t["name"], "company": t["company"], "email": t["email"], "employee_id": t["employee_id"]}


def verify(g: Golden, t: dict[str, Any], booking_id: str | None = None) -> int:
    """Locate the caller by work email and verify them with their employee id (or a booking
    id); returns the verify call's index, for the wrong path that skips it."""
    g.add("find_traveller", email=t["email"])
    proof = {"booking_id": booking_id} if booking_id else {"employee_id": t["employee_id"]}
    return g.add("verify_traveller", traveller_id=t["id"], email=t["email"], **proof)


def late_plans(extra: Callable[[dict[str, Any]], bool] = lambda p: True) -> list[dict[str, Any]]:
    return CAT.plans_where(lambda p: flex(p) and p["free_cancel_days"] >= 2 and extra(p))


def refund_if_cancelled(b: dict[str, Any]) -> tuple[float, float]:
    """(fee, refund) of cancelling booking `b` today."""
    fee = cancellation_fee(b["plan"]["kind"], b["check_in"], b["plan"]["free_cancel_days"], b["nightly_rate"],
                           b["total_amount"], NOW)
    return fee, money(b["total_amount"] - fee)


def new_stay(b: dict[str, Any], shift: int, nights: int) -> tuple[str, str, float]:
    cin = date.fromisoformat(b["check_in"]) + timedelta(days=shift)
    return iso(cin), iso(cin + timedelta(days=nights)), stay_total(b["nightly_rate"], nights)


def slipped_check_out(b: dict[str, Any], cin: str, cout: str) -> str:
    """The check-out of a plausible slip on a date change: the old length of stay from the
    new check-in, or one night short or long, whichever is neither the stay asked for nor
    the stay as booked (the tool would refuse that one, and a refusal proves nothing)."""
    start, end = date.fromisoformat(cin), date.fromisoformat(cout)
    for out in (start + timedelta(days=b["nights"]), end - timedelta(days=1), end + timedelta(days=1)):
        if out > start and iso(out) != cout and (cin, iso(out)) != (b["check_in"], b["check_out"]):
            return iso(out)
    raise AssertionError("unreachable: one night long is always a new stay")


def stay_dates(cin: str, cout: str, why: str, changed: bool = False, names: list[str] = ()) -> list[dict[str, Any]]:
    """A stay's check-in and check-out, each bound to its own words (and, after a date change,
    to the new dates rather than the old), so that the two said in each other's place fail.
    `names` name the stay too ("BK-5002: Dec 24-27, 2026")."""
    if changed:  # "from" / "to" would bind the old dates too ("originally it was X to Y"): the stay and "now" do
        start, end, old = [*CHECKIN_WORDS[:3], "start", "begin", *NEW_WORDS], CHECKOUT_WORDS + NEW_WORDS, OLD_WORDS
    else:
        start, end, old = CHECKIN_WORDS, CHECKOUT_WORDS + TO_WORDS, []
    return [fact(cin, why, owner=start + STAY_WORDS + list(names), rivals=CHECKOUT_WORDS + old),
            fact(cout, why, owner=end + STAY_WORDS + list(names), rivals=["check in", "checkin", "arriv", *old])]


def dates_swapped(cin: str, cout: str, why: str) -> dict[str, Any]:
    """`says_not`: a stay told the wrong way round, "your stay runs from 12-29 to 12-26" for 12-26 to 12-29. The
    owner words of the two dates ("stay", "runs", "from ... to") fit either date in a range, so the check-out
    before the check-in as a range fails here: with or without the year on either date, in any separator."""
    i, o = date.fromisoformat(cin), date.fromisoformat(cout)
    short_in, short_out = f"{MONTHS[i.month - 1]} {i.day}", f"{MONTHS[o.month - 1]} {o.day}"
    phrases = [f"{a} {sep}{z}" for a in (cout, short_out) for z in (cin, short_in)
               for sep in ("to ", "- ", "through ", "thru ", "until ", "till ", "and ")]
    return says_not(claims(why, *phrases), why=why)


def refund_fact(amount: float, why: str) -> dict[str, Any]:
    """An amount refunded: by refund words, a fee word nearer fails ("a $530.00 cancellation fee")."""
    return fact(m(amount), why + " (the amount refunded)", owner=REFUND_WORDS, rivals=FEE_WORDS)


def fee_fact(amount: float, why: str) -> dict[str, Any]:
    """A fee kept: by fee words, a refund word nearer fails ("$66.00 back to your card")."""
    return fact(m(amount), why + " (the fee)", owner=FEE_WORDS, rivals=REFUND_WORDS)


def booked_amounts(rate: float, total: float, nights: int) -> list[dict[str, Any]]:
    """A new booking's nightly rate and total, each by its own words ("Total: $668.10 (nightly
    rate $334.05)" passes, the two swapped fail); "$668.10 for 2 nights" names the total."""
    stay = [f"for {nights} night", f"{nights} night", *STAY_TOTAL_WORDS]
    # ("3 nights x $113.90 = $341.70": the rate is what the nights are multiplied by)
    times = [f"{nights} night {op}" for op in ("x", "times", "at")] + ["x", "times"]
    return [fact(m(rate), BOOKED + " (the nightly rate)", owner=RATE_WORDS + times, rivals=TOTAL_WORDS + stay),
            fact(m(total), BOOKED + " (the total)", owner=TOTAL_WORDS + stay, rivals=RATE_WORDS)]


def dates_changed(b: dict[str, Any], cin: str, cout: str, total: float) -> list[dict[str, Any]]:
    """The facts a date change must report (policy, Date changes): the new dates (not the old),
    the new total (not the amount moved) and the amount charged or refunded, with its direction,
    so "$X refunded" for a charge, or the total and the difference swapped, do not pass."""
    delta = money(total - b["total_amount"])
    nights = (date.fromisoformat(cout) - date.fromisoformat(cin)).days
    stay = [f"for {nights} night", f"{nights} night", *STAY_TOTAL_WORDS]
    out = [*stay_dates(cin, cout, DATES_CHANGED + " (the new dates)", changed=True),
           fact(m(total), DATES_CHANGED + " (the new total)", owner=CHANGE_TOTAL_WORDS + stay, rivals=MOVED_WORDS)]
    if not delta:
        return out
    up = delta > 0
    # ("the $192.00 difference went on your card": the amount moved is the difference, whichever way it went)
    return [*out, fact(m(abs(delta)), DATES_CHANGED + (" (the amount charged)" if up else " (the amount refunded)"),
                       owner=[*([*CHARGE_WORDS, "went on", "goes on", "put on", "placed on"] if up
                                else REFUND_WORDS + REDUCE_WORDS), "difference"],
                       rivals=(REFUND_WORDS + REDUCE_WORDS if up else CHARGE_WORDS) + ["total", "new price"])]


MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


def old_start_not_new(s: TravelScene, b: dict[str, Any], cin: str, cout: str) -> dict[str, Any]:
    """`says_not`: the move told the wrong way round, "I've moved BK-5163 from Dec 24-26 to Dec 27-29",
    where the old stay is said as where it went ("to 12-27 - 12-29"). The new dates there stand after a
    move word, so their own facts cannot tell; a right reply never has the old stay after "to". The old
    check-in alone after "to" only where no date of the scene ends there (a new stay, another booking)."""
    old_in, old_out = b["check_in"], b["check_out"]
    i, o = date.fromisoformat(old_in), date.fromisoformat(old_out)
    short = (f"{MONTHS[i.month - 1]} {i.day}", f"{MONTHS[o.month - 1]} {o.day}")
    # a range as the normaliser writes it: "Jan 11-14" and "January 11 to January 14" with a separator,
    # "January 11–January 14, 2027" without one and the year on its last date only
    phrases = [f"to {a} {sep}{z}" for a in (old_in, short[0]) for z in (old_out, short[1])
               for sep in ("- ", "to ", "through ", "until ", "")] + [f"to {short[0]}\u2013{short[1]}, {o.year}"]
    ends = {cin, cout} | {r["check_out"] for r in s.rows["bookings"] if r["id"] != b["id"]}
    if old_in not in ends:
        phrases += [f"to {old_in}", f"to {short[0]}"]
    why = DATES_CHANGED + " (the new dates, not the old ones, are where the stay was moved to)"
    return says_not(claims(why, *phrases), why=why)


def dates_not_on_others(b: dict[str, Any], cin: str, cout: str, rest: list[dict[str, Any]]) -> dict[str, Any]:
    """`says_not`: the new dates of `b` said of another of the traveller's stays ("BK-5162 now runs from
    12-24 to 12-26"), which the move vocabulary does not read as a move; each date bound by the nearest
    stay named, so the moved stay named with them passes."""
    everyone = [b, *rest]
    mine = stay_label(b, rest)
    theirs = [n for o in rest for n in stay_label(o, [x for x in everyone if x is not o])]
    why = DATES_CHANGED + " (the stay moved is the one asked for, not another)"
    return says_not(claims(why, cin, owner=theirs, rivals=mine), claims(why, cout, owner=theirs, rivals=mine), why=why)


def refunded_by_move(b: dict[str, Any], total: float) -> tuple[str, ...]:
    """The booking, where moving it to a stay of this total refunds the difference (for `asked_done`)."""
    return (b["id"],) if money(total - b["total_amount"]) < 0 else ()


def moved_money(b: dict[str, Any], total: float) -> str:
    """How the golden reply says what a date change did to the payment."""
    delta = money(total - b["total_amount"])
    if not delta:
        return "the price is unchanged"
    return f"${m(abs(delta))} has been {'charged' if delta > 0 else 'refunded'} to {b['card']['label']}"


MOVED_NOTHING = ("policy, Date changes: the price difference is charged or refunded automatically; this change {}, "
                 "so the reply must not say otherwise")


def money_not_moved(b: dict[str, Any], total: float, refund: bool = True) -> list[dict[str, Any]]:
    """The way a date change did not move money, as outcomes on the booking: a stay whose price is unchanged said to
    have been charged or refunded ("$233.00 has been refunded to your card", "$191.00 has been charged for the extra
    night"), a charge said as a refund and back. `refund=False` where the reply also reports another stay's refund
    (a cancellation in the same conversation), which the booking's refund outcome could not tell apart."""
    delta = money(total - b["total_amount"])
    out = []
    if delta <= 0:
        out.append(outcome("charge", "not_done", MOVED_NOTHING.format("charged nothing"), record=[b["id"]]))
    if delta >= 0 and refund:
        out.append(outcome("refund", "not_done", MOVED_NOTHING.format("refunded nothing"), record=[b["id"]]))
    return out


def reports(*facts: dict[str, Any]) -> dict[str, Any]:
    """Reply facts about what the agent's writes did (amounts moved, new ids and dates, whom
    it asked, the rule behind a partial refusal), checked in every message: a competent
    agent may tell them and then make its last call (a ticket note, closing the ticket),
    which the default scope, after the last call, would not see."""
    return says(*facts, scope="any")


def manager_asked(t: dict[str, Any]) -> dict[str, Any]:
    """The manager named, as the policy wants: by last name, or in full where the traveller
    shares it (else addressing the traveller would say it)."""
    manager = t["manager"]
    return fact(manager["name"] if manager["last_name"] == t["last_name"] else manager["last_name"], MANAGER_ASKED)


def unchanged_booking(bid: str) -> dict[str, Any]:
    return unchanged("bookings", bid, "status", "rate_plan_id", "room_type_id", "check_in", "check_out", "total_amount")


def no_refund(bid: str) -> dict[str, Any]:
    return absent("transactions", booking_id=bid, kind="refund")


def note_on(ticket_id: str) -> dict[str, Any]:
    return exists("ticket_notes", ticket_id=ticket_id, author="agent")


def ticket_closed(tid: str) -> list[dict[str, Any]]:
    """A ticket the agent closed (its `close` outcome comes from `asked_done`) said to stay open ("I've left
    T-5003 open in case you need anything", "the ticket stays open for now"), which the close vocabulary
    reads only as "still open", or said to be handed on ("I've escalated T-5003 to a supervisor")."""
    phrases = [f"{verb} {x} open" for verb in ("left", "kept", "keep", "leave", "leaving", "keeping")
               for x in ("ticket", "the ticket", "your ticket", tid, f"ticket {tid}", "it", "this", "the case")]
    phrases += [f"{x} {state}" for x in ("ticket", tid) for state in (
        "open for", "is open", "is still open", "still open", "stays open", "remains open", "will stay open",
        "will remain open", "will be kept open", "is being kept open")]
    why = "the customer asked to close the ticket and it was closed: the reply must not say it stays open"
    return [says_not(claims(why, *phrases), why=why),
            outcome("escalate", "not_done", "the ticket was closed, not handed on", record=[tid])]


def arrival_recorded(when: str) -> dict[str, Any]:
    """The arrival time now on the booking, as 22:45 or 10:45 pm (the normaliser reads both)."""
    return fact(when, CHANGED + " (the arrival time recorded on the booking)")


def booking_facts(b: dict[str, Any]) -> list[str]:
    """What another person's booking would give away if read out: hotel, dates, price."""
    return [b["hotel"]["name"], b["check_in"], b["check_out"], m(b["total_amount"])]


# Role words (prefixes: "refund" covers "refunded") that bind an amount to what it is, so that a
# reply giving the fee as the refund (or a charge as a refund) does not pass.
FEE_WORDS = ["fee", "cost", "charg", "penalty", "one night", "pay", "lose", "keep", "retain", "forfeit", "deduct"]
REFUND_WORDS = ["back", "refund", "return", "receiv", "get", "credit", "reimburs"]
REDUCE_WORDS = ["less", "lower", "reduc", "decreas", "sav", "cheaper"]
# a new booking's nightly rate and its total, each bound to its own words so they cannot swap
RATE_WORDS = ["night", "per", "rate", "each", "a day", "daily"]
TOTAL_WORDS = ["total", "in all", "altogether", "overall", "come to", "comes to", "whole", "entire", "all in",
               "grand total", "charged", "charge", "for the stay", "for all"]
# the whole stay's price said by its nights: "$269.28 for both nights"
STAY_TOTAL_WORDS = ["both night", "for both"]
DEADLINE_WORDS = ["up to", "including", "cancel", "free", "deadline", "refund", "charge", "penalty", "fee", "until", "by", "before"]
CHARGE_WORDS = ["charg", "additional", "extra", "more", "pay", "owe", "debit", "bill", "add", "increase", "higher"]
# a stay's first and last night, each bound to its own words ("check-in 12-13, check-out 12-10" fails); a range
# ("December 10-13", "from ... to ...") binds by "from" / "to" and the stay it names
CHECKIN_WORDS = ["check in", "checkin", "arriv", "from", "start", "begin"]
CHECKOUT_WORDS = ["check out", "checkout", "depart", "leav"]
STAY_WORDS = ["stay", "booking", "dates", "runs", "booked", "reservation", "nights"]
TO_WORDS = ["to", "until", "till", "through", "thru"]
# after a date change: the new dates against the old ones ("your stay was 12-11 to 12-14, now 12-10 to 12-13" fails).
# Not "was" (a prefix of Washington) nor "instead of" (said after the new dates as often as before the old ones)
NEW_WORDS = ["now", "new", "moved", "changed", "updated", "rescheduled", "shifted", "pushed", "modified"]
OLD_WORDS = ["old", "previous", "original", "formerly", "prior", "used to", "had been", "no longer"]
# a date change's new total against the amount it moved: "extra", "additional" and "more" are not rivals of the total,
# since "new total $X (an extra $Y)" names the difference after the total
CHANGE_TOTAL_WORDS = ["total", "in all", "altogether", "overall", "come to", "comes to", "whole", "entire", "grand total",
                      "now cost", "new price", "price is now", "for the stay", "for all", "for"]  # ("runs ... for $666.00")
MOVED_WORDS = ["differen", "refund", "back", "charg", "credit", "return", "owe", "debit", "reimburs"]
# the points a claim or a goodwill gesture adds against the balance they bring
ADDED_POINTS_WORDS = ["credit", "added", "add", "award", "earn", "posted", "goodwill", "bonus", "gave", "give", "receiv",
                      "compensat", "missing", "for your stay", "for the stay", "for stay", "for booking",
                      "has its", "have its", "got its", "gets its"]  # "BK-5078 now has its 3,780 points"
# (not a bare "now": "your stay now has its 3780 points" is the credit, said of the stay)
BALANCE_WORDS = ["balance", "total", "now have", "in all", "bring", "now stand", "now at"]
# "Cancelling today costs nothing": said as a phrase that states the price (never "free" alone,
# which "the free-cancellation window has passed" also says)
NO_FEE_WORDINGS = [
    "free of charge", "for free", "be free", "is free", "it's free", "that's free", "still free", "completely free",
    # the window said open ("free cancellation on BK-5012 runs until ...", "you're still within free cancellation")
    "free cancellation runs", "free cancellation until", "free cancellation on", "free cancellation is open", "free cancellation applies",
    "free cancellation still", "within the free cancellation", "within free cancellation", "inside the free cancellation",
    "in the free cancellation", "free cancellation window runs", "free cancellation period runs",
    "entirely free", "totally free", "free to cancel", "cancel free", "cancelled free", "canceled free", "no fee", "no charge",
    "no cost", "no cancellation fee", "no cancellation charge", "no penalty", "without charge", "without a fee",
    "without any fee", "without any charge", "without a charge", "without penalty", "without any penalty",
    "won't cost", "wouldn't cost", "will not cost", "would not cost", "doesn't cost", "does not cost",
    "cost nothing", "costs nothing", "cost you nothing", "pay nothing", "nothing to pay", "zero", "0.00",
    "full refund", "fully refund", "in full", "everything back", "all your money back", "all of your money back",
    "every cent", "100 percent", "no cancellation penalty",
]


# the hotel named as the answer: a word for "cheapest", or the answer's own frame ("That would be X")
CHEAPEST_WORDS = ["cheapest", "lowest", "least expensive", "least costly", "most affordable", "cheaper", "best price",
                  "best rate", "most economical", "most budget", "budget friendly", "best value", "inexpensive",
                  "that's", "that is", "that would be", "that'd be", "it's", "it is", "it would be", "answer",
                  "best bet", "best option", "best choice", "winner", "go with", "recommend"]
# "refundable" alone is also in "non-refundable": only in phrases the other plan's name does not contain
FLEX_WORDS = ["flex", "free cancellation", "fully refundable", "the refundable", "a refundable", "cancellable",
              "cancelable", "changeable", "cancel for free", "free to cancel", "refundable rate", "refundable price"]
NONREF_WORDS = ["non refundable", "nonrefundable", "not refundable", "advance", "saver", "prepaid", "pre paid",
                "no refund", "non refundable rate", "non refundable price"]


def cancelled(why: str = CANCELLED) -> dict[str, Any]:
    """The booking's new status, as the customer asked: "I've cancelled it", "BK-1 is now
    cancelled", "the cancellation is done"; "I couldn't cancel it" does not say it."""
    return fact("cancelled", why + " (the customer asked to cancel it: say that it is cancelled)", "canceled",
                "cancellation is confirmed", "cancellation confirmed", "cancellation has been", "cancellation is complete",
                "cancellation is done", "cancellation went through", "cancellation is processed",
                "processed the cancellation", "processed your cancellation", "cancellation is now", "cancellation is all",
                "cancellation done", "cancellation complete", "cancellation successful", "cancellation was successful",
                "cancellation has gone through", "cancellation is through", "has been called off", "is called off",
                "called off your", "called off the", "voided",
                # the record named between: "(the) cancellation of (booking) BK-5155 is confirmed" (a failure said so
                # is the outcome's to catch: "the cancellation of booking BK-5155 failed")
                "cancellation of", "cancellation for")


def place(h: dict[str, Any]) -> str:
    """Where in its city a hotel is ("Riverside" of "Lumen Residences New York Riverside")."""
    return h["name"].removeprefix(h["chain"]).strip().removeprefix(CAT.cities[h["city_id"]]["name"]).strip()


def others_than(h: dict[str, Any], hotels: list[dict[str, Any]]) -> list[str]:
    """Every name of the other `hotels` that is not also a name of `h` (a shared chain word is neither's)."""
    own = [normalize(n) for n in [h["name"], *hotel_names(h)]]
    return [n for o in hotels if o["id"] != h["id"] for n in [o["name"], *hotel_names(o)]
            if not any(normalize(n) in w for w in own)]


def hotel_names(h: dict[str, Any]) -> list[str]:
    """What an agent may call a hotel besides its full name, where the city has no other hotel
    it could mean: the chain with the location ("Atlas Hotel Airport", "the Atlas Airport"), and
    the chain alone or with the city where no other hotel of the chain is in that city."""
    city = CAT.cities[h["city_id"]]["name"]
    chain, where = h["chain"], place(h)
    brand = chain.split()[0]
    names = [h["id"], f"{chain} {where}", f"{brand} {where}", f"{brand} {city} {where}", f"{chain}, {where}",
             f"{chain} at {where}", f"{chain} at the {where}", f"{chain} near the {where}", f"{chain} by the {where}",
             f"{where} {chain}", f"{where} {brand}"]
    if not CAT.sibling(h):
        names += [chain, brand, f"{chain} {city}", f"{brand} {city}", f"{chain} in {city}"]
    names += [n.replace("&", "and") for n in [h["name"], *names] if "&" in n]  # "Harbor and Vine"
    return list(dict.fromkeys(n for n in names if n != h["name"]))


# -- claims a reply must not make (`says_not`): a refused or pending request said to be done, the wrong record
# named as the one acted on, a value in a role it does not have. Phrases, never a bare word a refusal also says
# ("can be cancelled once approved"); a claim after a negation ("nothing has been booked") is none. Where an
# `outcome` covers every phrase of a list (cancelled, waived, booked), the list is gone; these name claims
# the shared vocabulary does not know ("signed off", "the refund is on its way", "the dates are now ...").
REFUND_DONE = ["has been refunded", "have refunded", "is refunded", "was refunded", "is being refunded", "i refunded",
               "refund has been issued", "refund is on its way", "refund has been processed"]
APPROVED_DONE = ["has been approved", "was approved", "has approved", "have approved", "already approved",
                 "approved your request", "approved the request", "got approval", "been signed off",
                 "has signed off", "signed off on it"]
CHANGED_DONE = ["has been changed", "has been moved", "have been changed", "have been moved", "has been updated", "have moved", "has been downgraded", "have downgraded",
                "downgraded your", "downgraded you", "have switched", "has been switched", "switched you",
                "moved you to", "dates are now", "now runs from"]
# a refund reported as made where only a quote was asked for. Phrases, not the `refund` outcome: its
# vocabulary reads the rule "the refund is processed within 5-10 business days" as a refund made
REFUNDED_NOW = ["has been refunded", "have been refunded", "have refunded", "was refunded", "is being refunded",
                "i refunded", "refund has been issued", "refund has been processed", "refund is on its way",
                "issued the refund", "processed the refund", "issued a refund", "processed a refund",
                "issued your refund", "processed your refund"]
ARRIVAL_DONE = ["have recorded", "has been recorded", "is recorded", "recorded the", "recorded an arrival",
                "recorded your", "arrival is set", "set the arrival", "arrival time is set", "noted the arrival",
                "have noted the arrival", "have set"]
VERIFIED_DONE = ["you're verified", "you are verified", "have verified you", "verified you", "you've been verified",
                 "you have been verified", "verification is complete", "verification succeeded",
                 "verification was successful", "successfully verified", "identity is confirmed",
                 "identity has been confirmed", "confirmed your identity"]


def now_in(room: str) -> list[str]:
    """A room change that waits (or was refused) said to be in effect: "you're now in the Standard King"."""
    return [f"{w} {a} {room}" for w in ("now", "now in", "now on", "now booked in", "now booked as", "now have",
                                        "now has", "now staying in") for a in ("a", "the")]


def rooms_said_as_target(why: str, *rooms: str, never: tuple[str, ...] = (), promised: bool = False) -> dict[str, Any]:
    """`says_not`: a room the change did not go to said as where it went ("BK-5102 is now a Junior Suite", "once
    approved we'll move you to the Deluxe King"): the old room, or another room of the hotel. "from the Junior
    Suite to the Standard King" passes: the old room stands after "from", not after "to". `never`: rooms the
    booking was never in, also said as its room ("your Deluxe King stays as it is" of a Junior Suite). `promised`:
    the change waits, so the room it goes to is said under a condition ("once approved we'll move you to the Junior
    Suite"), which the reply reader takes for no statement: there "to" / "into" a wrong room counts all the same."""
    if promised:
        target = [f"{v} {a} {r}" for r in rooms for v in ("to", "into") for a in ("a", "an", "the", "your")]
        return says_not(claims(why, *target, may_be_negated=True),
                        *rooms_said_as_target(why, *rooms, never=never)["must_not_state"]["facts"], why=why)
    phrases = [p for r in rooms for p in (*now_in(r), *(f"{v} {a} {r}" for v in ("to", "into", "is now", "now is")
                                                     for a in ("a", "an", "the", "your")))]
    phrases += [f"{w} {r}" for r in never for w in ("your", "your current", "current", "booked", "booked in the",
                                                     "booked in a", "still in the", "still in a", "stay in the")]
    return says_not(claims(why, *phrases), why=why)


def other_rooms(b: dict[str, Any], *keep: str) -> list[str]:
    """The room types of booking `b`'s hotel other than those named in `keep` (the booked and the asked-for room)."""
    names = {CAT.rooms[p["room_type_id"]]["name"] for p in CAT.by_hotel[b["hotel_id"]]}
    return sorted(names - set(keep))


def off_by_one(why: str, s: TravelScene, *days: str, keep: tuple[str, ...] = ()) -> dict[str, Any] | None:
    """`says_not`: a stay's date said a day early or late ("booked 2026-12-19 to 2026-12-23" for 12-19 to 12-22),
    where no date of the scene (a booking's dates, a deadline in `keep`) is that day."""
    seen = {r[k] for t in ("bookings", "approvals") for r in s.rows[t] for k in ("check_in", "check_out") if r[k]}
    seen |= set(days) | set(keep)
    wrong = sorted({iso(date.fromisoformat(d) + timedelta(days=k)) for d in days for k in (-1, 1)} - seen)
    return says_not(claims(why, *wrong), why=why) if wrong else None


# a flexible stay's plan said as the other one ("it's on a non-refundable Advance Saver rate")
NONREF_PLAN_CLAIMS = ["advance saver", "non refundable rate", "nonrefundable rate", "non refundable plan",
                      "non refundable booking", "non refundable reservation", "on a non refundable", "saver rate"]


# an approval request that waits said to be turned down
REJECTED = ["request was rejected", "request has been rejected", "request was denied", "request has been denied",
            "request was declined", "request has been declined", "request was turned down",
            "request has been turned down", "rejected your request", "denied your request", "declined your request",
            "turned down your request", "turned it down", "rejected the request", "denied the request",
            "declined the request", "turned down the request"]
# a stay left alone said to be cancelled, or a cancelled one said to be still on
STILL_ON = ["not cancelled", "not yet cancelled", "not been cancelled", "once cancelled", "once it's cancelled",
            "once it is cancelled", "if cancelled", "if you cancel", "would be refunded", "still active",
            "still confirmed", "still booked", "remains active", "remains confirmed", "stays active"]
# the words that name "this stay" in a reply that names no record ("your booking hasn't been cancelled")
THIS_STAY = ["your booking", "your reservation", "your stay", "your hotel", "the booking", "the reservation",
             "this booking", "that booking", "it"]


def claims(why: str, *phrases: str, **where: Any) -> dict[str, Any]:
    """One claim the reply must not make, in any of these phrases (bound as `where` says)."""
    return fact(phrases[0], "", *phrases[1:], **where) | {"why": why}


def not_done(why: str, *phrase_lists: list[str]) -> dict[str, Any]:
    """`says_not`: none of these claims of a thing done (a refusal or a pending request said to be done)."""
    return says_not(*[claims(why, *ps) for ps in phrase_lists], why=why)


def stay_names(b: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """What names booking `b` and not `other` in a reply: its id, its check-in, its hotel (and the booking's own
    `aliases`) and city where they differ."""
    names = [b["id"], b["check_in"]]
    if b["hotel_id"] != other["hotel_id"]:
        names += [b["hotel"]["name"], *hotel_names(b["hotel"]), *b.get("aliases", [])]
    if b["city"] != other["city"]:
        names.append(b["city"])
    theirs = [other["id"], other["check_in"]]
    if b["hotel_id"] != other["hotel_id"]:
        theirs += [other["hotel"]["name"], *hotel_names(other["hotel"]), *other.get("aliases", [])]
    if b["city"] != other["city"]:
        theirs.append(other["city"])
    return [n for n in names if not any(n.lower() in x.lower() or x.lower() in n.lower() for x in theirs)]


def right_stay_cancelled(target: dict[str, Any], keep: dict[str, Any]) -> dict[str, Any]:
    """`says_not`: the stay that stays said to be cancelled ("BK-7056 is cancelled and $828.00 is refunded"), or
    the cancelled one said to be still on ("BK-5140 hasn't been cancelled; $392.00 would be refunded once cancelled")."""
    mine, theirs = stay_names(target, keep), stay_names(keep, target)
    c = cancelled()
    why = "the customer asked to cancel one stay and keep the other: the reply names the cancelled one as such"
    return says_not(fact(c["fact"], "", *c["aliases"], owner=theirs, rivals=mine),
                    fact(STILL_ON[0], "", *STILL_ON[1:], owner=mine + THIS_STAY, rivals=[*theirs, "other"]), why=why)


# -- outcomes: how each action the customer asked for ended (`tb_env.domain.stance`) ------------------------
# One shared vocabulary fails a reply that says the opposite ("I couldn't cancel BK-7 yet" after the
# cancellation, "BK-7 is on hold pending approval" after the booking, "your room has been downgraded"
# while the request waits for the manager). The `says_not` lists above stay where they name claims
# the vocabulary does not know ("signed off", "the refund is on its way", "the dates are now ...").

# the writes a customer asks for, by tool: the verb of the request and the argument naming the record.
# A date change is "move": "change" is also the noun of "no change in price", which a reply says of a
# stay whose total stays the same. Not here: what the policy makes the agent do on its own (a ticket
# note, an approval request, an escalation's ticket).
ACTIONS: dict[str, tuple[str, str | None]] = {
    "cancel_booking": ("cancel", "booking_id"), "change_booking_dates": ("move", "booking_id"),
    "set_arrival_time": ("record", "booking_id"), "update_invoice_reference": ("add", "invoice_id"),
    "refund_service_failure": ("refund", "booking_id"), "add_goodwill_points": ("add", "booking_id"),
    "credit_stay_points": ("credit", "booking_id"), "update_ticket_status": ("close", "ticket_id"),
    "create_booking": ("book", None), "update_traveller_phone": ("update", "traveller_id"),
}
ASKED_DONE = "the customer asked for it and it was done: the reply must not say it was not done or still waits"


def stay_label(b: dict[str, Any], rest: list[dict[str, Any]]) -> list[str]:
    """What names booking `b` and none of `rest` in a reply (id first): its id, check-in, hotel (and the booking's
    own `aliases`) and city."""
    def every(x: dict[str, Any]) -> list[str]:
        return [x["id"], x["check_in"], x["hotel"]["name"], *hotel_names(x["hotel"]), *x.get("aliases", []), x["city"]]

    mine = every(b)
    # a name both share (the city of two stays there) tells nothing apart: it leaves out neither's longer names
    theirs = [n.lower() for o in rest for n in every(o) if n not in mine]
    return [n for n in dict.fromkeys(mine) if not any(n.lower() in x or x in n.lower() for x in theirs)]


def asked_done(g: Golden, why: str = ASKED_DONE, *, verbs: dict[str, tuple[str, str | None]] | None = None,
               stays: list[dict[str, Any]] = (), rivals: dict[str, list[str]] | None = None,
               refunded: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """A `done` outcome for each golden write the customer asked for (`ACTIONS`, `verbs`: this
    template's words for a tool). A booking among `stays` (the traveller's bookings the reply may
    name) is known by its names, the others' names are its `others`; any other record has
    `rivals[id]` (the other invoice); the new booking a `create_booking` makes is BK-{NEW}.

    A cancellation refunds the stay's prepaid total less the fee in the same call, so the refund
    is done too: "the refund of $146.00 will be issued once the hotel confirms" or "hasn't been
    issued yet" after it fails, and so does a refund said of a stay among the `others` unless
    another write refunded it as well (`refunded`: the ids of stays a date change refunded)."""
    def names(rid: str) -> tuple[list[str], list[str]]:
        stay = next((b for b in stays if b["id"] == rid), None)
        if not stay:
            return [rid] if rid else [], (rivals or {}).get(rid, [])
        rest = [b for b in stays if b is not stay]
        return stay_label(stay, rest), [n for b in rest for n in stay_label(b, [x for x in stays if x is not b])]

    out, refunds = [], []
    for o in outcomes(g.calls, {**ACTIONS, **(verbs or {})}, why):
        body = o["outcome"]
        rid = (body.get("record") or [f"BK-{NEW}" if body["action"] == "book" else ""])[0]
        record, others = names(rid)
        out.append(outcome(body["action"], "done", why, record=record, others=others))
        if body["action"] == "cancel":
            refunds.append(rid)
    for rid in dict.fromkeys([*refunds, *refunded]):
        record, others = names(rid)
        out.append(outcome("refund", "done", why + " (the cancellation or date change refunds it in the same step)",
                           record=record, others=others))
    # policy, New bookings: a booking's rate, total and cap are seen (`quote_stay`) before it is made; one made blind is
    # right by luck
    quoted = {c["arguments"].get("rate_plan_id") for c in g.calls if c["name"] == "quote_stay"}
    out += [called("quote_stay", why=QUOTE_FIRST, before=("create_booking", {"rate_plan_id": c["arguments"]["rate_plan_id"]}),
                   rate_plan_id=c["arguments"]["rate_plan_id"])
            for c in g.calls if c["name"] == "create_booking" and c["arguments"].get("rate_plan_id") in quoted]
    # a stay booked on a flexible plan said to be on the other one ("it's non-refundable")
    if any(c["name"] == "create_booking" and CAT.plans.get(c["arguments"].get("rate_plan_id"), {}).get("kind") == "flexible"
           for c in g.calls):
        out.append(says_not(claims(FLEX_BOOKED, *NONREF_PLAN_CLAIMS, *NONREF_SAID), why=FLEX_BOOKED))
    return out


QUOTE_FIRST = "policy, New bookings: use quote_stay to see the rate, total and cap before booking"
FLEX_BOOKED = "policy, Communicating: the stay was booked on the flexible plan; it may not be said to be non-refundable"
NONREF_SAID = ["it's non refundable", "it is non refundable", "is non refundable", "is nonrefundable", "is not refundable",
               "isn't refundable", "won't be refunded if you cancel", "no refund if you cancel", "cannot be cancelled",
               "can't be cancelled"]


# -- the registry ----------------------------------------------------------------------------------------

# the verbs a reply reports each write in: a task whose golden path made no such write fails "I've escalated it",
# "I also refunded the fee" (`tb_env.kit.spec.unasked_writes`; first person only, so true earlier states pass)
# ("update" is said of every change a tool makes to a record, so each such tool has it: "I've updated your phone
# number" fails where nothing was updated, "I've updated the booking to the new dates" passes after a move).
CLAIMS: dict[str, tuple[str, ...]] = {
    **TICKET_CLAIMS, "cancel_booking": ("cancel",), "change_booking_dates": ("move", "reschedule", "rebook", "update"),
    "change_room_type": ("upgrade", "downgrade", "switch", "update", "move"), "create_booking": ("book", "reserve"),
    "refund_service_failure": ("refund", "reimburse"), "credit_stay_points": ("credit", "add", "award"),
    "add_goodwill_points": ("credit", "add", "award", "grant"), "request_approval": ("escalate", "request", "submit"),
    "set_arrival_time": ("record", "update", "add"), "update_invoice_reference": ("update", "add"),
    # (a note records too: "I've recorded your request on ticket T-5022"; "record" is set_arrival_time's as well)
    "update_traveller_phone": ("update",), "add_ticket_note": (*TICKET_CLAIMS["add_ticket_note"], "add", "update", "record"),
    "update_ticket_status": (*TICKET_CLAIMS["update_ticket_status"], "update"),
    # a case handed on is also "submitted" ("I've submitted your appeal to the senior team")
    **{tool: (*TICKET_CLAIMS[tool], "submit") for tool in ("escalate_ticket", "create_ticket")},
    # a fee waived is a `cancel_booking` under a fee_waiver approval, not a tool of its own: only a `waive`
    # outcome (done, or pending on the manager) lets a reply say "I've waived the fee"
    "cancel_booking (with a fee_waiver approval)": ("waive",),
}
templates = Templates(
    "travel", HERE / "tasks", pool=TravelPool, scene=TravelScene,
    id_format="{domain}/{slug}-{split}-{n:02d}", file_format="{split}/{name}.yaml",
    generator="`python -m tb_env.tasks.travel.generate`",
    claims=CLAIMS,
)


def verified_first(spec: TaskSpec) -> TaskSpec:
    """Where the golden path verifies the caller, each record it reads afterwards gets a
    `no_call` before that verification succeeds (policy, Identity verification: records need a
    verified identity first), so an agent that reads them first and verifies later scores 0.
    Calls a template already forbids are not repeated."""
    calls = spec.calls
    k = next((i for i, c in enumerate(calls) if c["name"] == "verify_traveller"), None)
    if k is None:
        return spec
    gate = ("verify_traveller", {"traveller_id": calls[k]["arguments"]["traveller_id"]})
    forbidden = [a["no_call"]["call"] for a in spec.assertions if "no_call" in a]
    for c in calls[k + 1:]:
        if c["name"] in RECORD_READS and c not in forbidden:
            spec.assertions.append(no_call(c["name"], why=VERIFY_FIRST, before=gate, **c["arguments"]))
            forbidden.append(c)
    return spec


MADE_UP_STAY = ("policy, General: never invent amounts or details: a stay's nights, nightly rate and total are the "
                "booking's (or the quote's), not one step of arithmetic on them with another number of nights")
_NIGHTS_SAID = re.compile(r"\b(\d+)[ -]nights?\b")


def made_up_stay_figures(s: TravelScene, spec: TaskSpec) -> list[dict[str, Any]]:
    """`says_not`, for every task with a stay in it: a number of nights no stay of the scene has ("your 4-night stay"
    of a 3-night booking), and a stay's nightly rate times, or its total divided by, such a number of nights ("new
    total $496.00" for 3 nights at $248.00, "$499.50 per night" of a $999.00 stay of 3 nights). The grounded check
    takes those for one step of arithmetic on real figures; they are made up. A figure that is real anywhere in the
    scene (a row, the catalogue of the cities in play, the golden reply, a refund after a one-night fee, a
    difference of two totals, a cap) is never forbidden, so a legitimate reply mentioning it still passes."""
    company = {r["id"]: r["company_id"] for r in s.rows.get("travellers", [])}
    rows = {b["id"]: b for b in s.rows.get("bookings", [])}
    stays: dict[str, tuple[set[float], set[float], set[int]]] = {
        bid: ({b["nightly_rate"]}, {b["total_amount"]}, {b["nights"]}) for bid, b in rows.items()}
    cities = {CAT.hotels[b["hotel_id"]]["city_id"] for b in rows.values()}

    def span(a: dict[str, Any]) -> int:
        return (date.fromisoformat(a["check_out"]) - date.fromisoformat(a["check_in"])).days

    def new_stay(key: str, a: dict[str, Any]) -> None:
        plan = CAT.plans[a["rate_plan_id"]]
        rate = CAT.rate(company.get(a.get("traveller_id"), ""), plan)
        cities.add(CAT.hotel(plan)["city_id"])
        stays[key] = ({rate, plan["nightly_rate"]}, {stay_total(rate, span(a))}, {span(a)})

    for i, c in enumerate(spec.calls):
        a = c["arguments"]
        if c["name"] == "change_booking_dates" and a.get("booking_id") in stays:
            rates, totals, nights = stays[a["booking_id"]]
            nights.add(span(a))
            totals.update(stay_total(r, span(a)) for r in rates)
        elif c["name"] == "change_room_type" and a.get("booking_id") in stays:
            b = rows[a["booking_id"]]
            rate = CAT.rate(company.get(b["traveller_id"], ""), CAT.plans[a["rate_plan_id"]])
            stays[b["id"]][0].add(rate)
            stays[b["id"]][1].add(stay_total(rate, b["nights"]))
        elif c["name"] == "search_hotels":
            cities.update(ci for ci, city in CAT.cities.items() if city["name"] == a.get("city"))
        elif {"rate_plan_id", "check_in", "check_out"} <= set(a) and a["rate_plan_id"] in CAT.plans:
            new_stay(f"call{i}", a)
    for r in s.rows.get("approvals", []):
        if r.get("rate_plan_id") and r.get("check_in") and r.get("check_out"):
            new_stay(r["id"], {**r, "traveller_id": r["traveller_id"]})
    if not stays:
        return []
    nights_real = {1, MAX_NIGHTS} | {k for _, _, ns in stays.values() for k in ns}
    nights_real |= {int(k) for k in _NIGHTS_SAID.findall(f"{spec.reply or ''} {spec.caller.first_message}")}
    wrong_nights = [k for k in range(2, MAX_NIGHTS) if k not in nights_real]

    keep: set[float] = set()
    for table in s.rows.values():
        for row in table:
            keep.update(money(v) for v in row.values() if isinstance(v, (int, float)) and not isinstance(v, bool))
    keep.update(money(float(x.replace(",", ""))) for x in re.findall(r"\d[\d,]*\.\d\d", spec.reply or ""))
    companies = set(company.values())
    cat_rates: set[float] = set()  # the nightly rates of every room in play (a total that is another room's rate)
    for plan in CAT.plans.values():
        if CAT.hotel(plan)["city_id"] in cities:
            cat_rates.add(plan["nightly_rate"])
            cat_rates.update(CAT.rate(co, plan) for co in companies)
    keep |= cat_rates
    caps = {CAT.companies[co][f"cap_tier{tier}"] for co in companies for tier in (1, 2, 3)
            if f"cap_tier{tier}" in CAT.companies[co]}
    cancelling = any(c["name"] in ("cancel_booking", "get_cancellation_quote") for c in spec.calls)
    for rates, totals, nights in stays.values():
        keep.update(totals | rates)
        if cancelling:  # the refund of a cancellation after its one-night fee
            keep.update(money(t - r) for t in totals for r in rates)
        keep.update(money(abs(t1 - t2)) for t1 in totals for t2 in totals)
        keep.update(money(abs(r1 - r2) * k) for r1 in rates for r2 in rates for k in nights)
        keep.update(money(float(c) * k) for c in caps for k in nights)
        keep.update(money(abs(float(c) - r)) for c in caps for r in rates)
    made_up: set[float] = set()
    for rates, totals, nights in stays.values():
        for k in range(2, MAX_NIGHTS + 1):
            if k in nights:
                continue
            made_up.update(money(r * k) for r in rates)
            made_up.update(money(t / k) for t in totals if abs(money(t / k) * k - t) < 0.005)
    # (small amounts are left out: "22.00" would be read in a time, a day or a count, "arrival at 22:30")
    made_up = {x for x in made_up - keep if x >= 50}
    # (not a stay that was moved: "from 12-27 - 12-31 to 12-27 - 01-01" has "12-31 to 12-27" in it, and
    # "from 12-31 - 01-03 to 12-30 - 01-03" has "01-03 to 12-30"; `old_start_not_new` covers moves)
    moved = {c["arguments"].get("booking_id") for c in spec.calls if c["name"] == "change_booking_dates"}
    out = [dates_swapped(a["check_in"], a["check_out"], MADE_UP_STAY) for a in
           [*(r for r in rows.values() if r["id"] not in moved),
            *(c["arguments"] for c in spec.calls
              if {"check_in", "check_out"} <= set(c["arguments"]) and c["name"] != "change_booking_dates")]]
    for c in spec.calls:  # a moved stay's new dates the wrong way round, said as its span ("now runs from 12-14 to 12-12")
        if c["name"] == "change_booking_dates":
            i, o = c["arguments"]["check_in"], c["arguments"]["check_out"]
            out.append(says_not(claims(MADE_UP_STAY, *(f"{w} {o} {sep}{i}" for w in ("from", "runs", "now")
                                                       for sep in ("to ", "- ", "through ", "until "))), why=MADE_UP_STAY))
    all_rates = {r for rates, _, _ in stays.values() for r in rates}
    all_totals = {t for _, totals, _ in stays.values() for t in totals}
    # the amount a change moved (one night more: the rate is charged, "$217.00 has been charged; new total $1,085.00")
    moved_by = {money(abs(t1 - t2)) for _, totals, _ in stays.values() for t1 in totals for t2 in totals}
    for rates, totals, nights in stays.values():
        if 1 in nights:
            continue
        roles = [claims(MADE_UP_STAY, m(t), owner=PER_NIGHT_WORDS, rivals=[*TOTAL_WORDS, *STAY_TOTAL_WORDS, "for "])
                 for t in sorted(totals - all_rates - cat_rates)]
        roles += [claims(MADE_UP_STAY, m(r), owner=WHOLE_STAY_WORDS, rivals=[*RATE_WORDS, "x", "times"])
                  for r in sorted(rates - all_totals - moved_by) if not cancelling]
        if roles:
            out.append(says_not(*roles, why=MADE_UP_STAY))
    if wrong_nights:
        out.append(says_not(claims(MADE_UP_STAY, *(f"{k} night" for k in wrong_nights)), why=MADE_UP_STAY))
    if made_up:
        out.append(says_not(claims(MADE_UP_STAY, *(m(x) for x in sorted(made_up))), why=MADE_UP_STAY))
    return out


# the words that make an amount a nightly rate, and those that make it a whole stay's price
PER_NIGHT_WORDS = ["per night", "a night", "nightly", "each night", "night rate", "every night", "per-night"]
WHOLE_STAY_WORDS = ["total", "in all", "altogether", "overall", "grand total", "for the stay", "whole stay",
                    "entire stay", "for the whole", "for all"]


def template(description: str) -> Callable[[Callable[[TravelScene, int], TaskSpec]], Any]:
    """Register a template with the kit, 4 test and 2 train instances. Each instance draws
    from the seed the travel tasks were first generated with (`<template>:<split>:<n>`),
    so moving onto the kit kept every task's rows as they were; `verified_first` adds the
    policy's verify-before-reading rule to every template that verifies the caller."""

    def register(fn: Callable[[TravelScene, int], TaskSpec]) -> Any:
        @functools.wraps(fn)
        def seeded(s: TravelScene, n: int) -> TaskSpec:
            s.rng.seed(f"{fn.__name__}:{s.split}:{n}")
            spec = verified_first(fn(s, n))
            spec.assertions.extend(made_up_stay_figures(s, spec))
            return spec

        return templates.template(description)(seeded)

    return register


# -- templates: read_only ------------------------------------------------------------------------------


QUESTION_ONLY = "the customer only asked a question: nothing was done ({}), and the reply must not say it was"


def nothing_done(record: list[str], *verbs: str) -> list[dict[str, Any]]:
    """`not_done` outcomes for the writes a customer asking a question could think were made on
    their behalf ("I've gone ahead and cancelled it for you", "I've booked a room there for you")."""
    return [outcome(v, "not_done", QUESTION_ONLY.format(v), record=record) for v in verbs]


ASK_RULE = ("policy, General: ask when something you need is missing or ambiguous (which booking, which card); "
            "never guess")

DETAILS_WRONG = ("policy, General: never invent details: the stay is on a Flexible rate in the room booked, not "
                 "another plan or room")


@template("read-only: the dates, total and free-cancellation date of the upcoming stay in a city (an older stay there is a distractor)")
def booking_details(s: TravelScene, n: int) -> TaskSpec:
    t = s.person(tier=s.rng.choice(["member", "silver"]))
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("standard", "deluxe")))
    hotel = CAT.hotel(plan)
    old = s.booking(t, s.same_city_plan(hotel["city_id"]), TODAY - timedelta(days=s.rng.randint(40, 220)),
                    s.rng.randint(1, 3), "completed", invoice="paid")
    b = s.booking(t, plan, s.free_window_date(plan), s.rng.randint(2, 4))
    until = free_cancel_until(b["check_in"], plan["free_cancel_days"])
    g = Golden()
    v = verify(g, t)
    g.add("list_traveller_bookings", traveller_id=t["id"])
    g.add("get_booking", booking_id=b["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, a {t['job_title'].lower()} at {t['company']}, checking trip details between meetings.",
            goal=f"Learn the dates, total price and free-cancellation deadline of the upcoming {b['city']} stay.",
            first_message=f"Hi, can you remind me of the dates and the price of my upcoming hotel stay in {b['city']}? "
                          "And until when could I cancel it for free?",
            facts=identity(t),
        ),
        patch=s.patch(), golden=g,
        reply=f"Your upcoming stay in {b['city']} is booking {b['id']} at {hotel['name']}: check-in {b['check_in']}, "
              f"check-out {b['check_out']} ({b['nights']} nights, {b['room']['name']}, Flexible rate). The total is "
              f"${m(b['total_amount'])}, and you can cancel free of charge until {until}.",
        # the deadline is a bound after a word that denies the fee, not the date ("cancel at no charge until
        # 12-22", "without a fee until 12-22"): said after a negation it still counts
        assertions=[says(*stay_dates(b["check_in"], b["check_out"], "the customer asked for the dates", names=[b["id"]]),
                         fact(m(b["total_amount"]), "the customer asked for the price"),
                         fact(until, "the customer asked until when cancelling is free", near=DEADLINE_WORDS,
                              owner=DEADLINE_WORDS, rivals=["check in", "checkin", "arriv", *CHECKOUT_WORDS],
                              may_be_negated=True)),
                    dates_swapped(b["check_in"], b["check_out"], "the customer asked for the dates: the check-in "
                                  "comes first, the check-out last"),
                    *nothing_done([b["id"]], "cancel", "move"), not_done(QUESTION_ONLY.format("refund"), REFUNDED_NOW),
                    says_not(claims(DETAILS_WRONG, *NONREF_PLAN_CLAIMS),
                             *([claims(DETAILS_WRONG, *rooms)] if (rooms := other_rooms(b, b["room"]["name"], old["room"]["name"])) else []),
                             why=DETAILS_WRONG)],
        wrong=[reply(f"Your stay in {b['city']} was booking {old['id']} at {old['hotel']['name']}: check-in "
                     f"{old['check_in']}, check-out {old['check_out']}, total ${m(old['total_amount'])}.",
                     note="describes the older, completed stay in the same city"),
               drop(v, note="reads the bookings without verifying")],
        kind="read_only", difficulty="easy", skills=["verification", "bookings"],
    )


@template("read-only: what cancelling today would cost, without cancelling (inside or after the free window)")
def cancel_fee_quote(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    late = n % 2 == 0
    plan = s.pick(late_plans(lambda p: code(p) in ("standard", "deluxe")))
    check_in = s.late_window_date(plan) if late else s.free_window_date(plan)
    nights = s.rng.randint(2, 5)
    if late:  # the fee is one night: with two nights the refund would equal it, and a reply could swap them
        nights = max(nights, 3)
    b = s.booking(t, plan, check_in, nights)
    fee, refund = refund_if_cancelled(b)
    until = free_cancel_until(b["check_in"], plan["free_cancel_days"])
    g = Golden()
    verify(g, t, b["id"])
    g.add("get_booking", booking_id=b["id"])
    g.add("get_cancellation_quote", booking_id=b["id"])
    # roles: a reply that swaps the fee and the refund must fail, so each stands by its own words
    back = fact(m(refund), "the customer asked how much they would get back", owner=REFUND_WORDS, rivals=FEE_WORDS)
    if late:
        answer = (f"The free-cancellation period for booking {b['id']} ended on {until}. If you cancelled today, the "
                  f"fee would be one night, ${m(fee)}, and you would get ${m(refund)} back on {b['card']['label']}. "
                  "Nothing has been changed.")
        facts = [fact(m(fee), "the customer asked what cancelling would cost", owner=FEE_WORDS, rivals=REFUND_WORDS),
                 back]
        wrong = (f"Booking {b['id']} is on a Flexible rate, so cancelling today is free and you would get the full "
                 f"${m(b['total_amount'])} back.")
    else:
        # a full refund answers "what would it cost" as well: nothing
        answer = (f"Booking {b['id']} can still be cancelled free of charge until {until}: you would get the full "
                  f"${m(refund)} back on {b['card']['label']}. Nothing has been changed.")
        facts = [fact("free of charge", "the customer asked what cancelling would cost: nothing, inside the free window",
                      aliases=NO_FEE_WORDINGS), back]
        wrong = (f"Cancelling booking {b['id']} would cost one night, ${m(b['nightly_rate'])}; you would get "
                 f"${m(b['total_amount'] - b['nightly_rate'])} back.")
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, whose client meeting in {b['city']} may be postponed; undecided and careful.",
            goal=f"Find out what cancelling booking {b['id']} today would cost, without cancelling it.",
            first_message=f"If I cancelled my booking {b['id']} today, what would it cost me and how much would I get "
                          "back? Please don't cancel anything yet.",
            facts={**identity(t), "booking_id": b["id"]},
            instructions="Do not cancel; you only want to know the numbers.",
        ),
        patch=s.patch(), golden=g, reply=answer,
        assertions=[unchanged_booking(b["id"]), says(*facts),
                    outcome("cancel", "not_done", "the customer asked for a quote and not to cancel: nothing is cancelled",
                            record=[b["id"]]),
                    *nothing_done([b["id"]], "waive"), not_done(QUESTION_ONLY.format("refund"), REFUNDED_NOW)],
        wrong=[append(call("cancel_booking", booking_id=b["id"], reason="Meeting may be postponed"),
                      note="cancels although the traveller only asked for a quote"),
               reply(wrong, note="misstates the fee")] + ([] if late else [
                   reply(f"Cancelling booking {b['id']} today would cost a ${m(b['nightly_rate'])} fee; you would get "
                         f"${m(refund)} back.", note="right refund, but quotes a fee where cancelling is free")]),
        kind="read_only", difficulty="medium", skills=["verification", "cancellations", "fees"],
    )


@template("read-only, no verification: the cheapest hotel in a city, or one hotel's Deluxe King rates")
def hotel_rate_info(s: TravelScene, n: int) -> TaskSpec:
    while True:  # a city whose cheapest hotel is unique, so the answer is too
        city = s.rng.choice(sorted(CAT.cities))
        hotels = sorted((h for h in CAT.hotels.values() if h["city_id"] == city), key=lambda h: h["name"])
        lows = {h["id"]: min(p["nightly_rate"] for p in CAT.by_hotel[h["id"]]) for h in hotels}
        if sorted(lows.values())[0] < sorted(lows.values())[1]:
            break
    cname = CAT.cities[city]["name"]
    persona = f"A traveller planning a trip to {cname}, not yet sure where to stay."
    if n % 2 == 0:
        best, second = sorted(hotels, key=lambda h: (lows[h["id"]], h["name"]))[:2]
        return TaskSpec(
            caller=Caller(
                persona=persona, goal=f"Learn which hotel in {cname} has the lowest nightly rate, and that rate.",
                first_message=f"Which of your hotels in {cname} is the cheapest, and what does it cost per night?",
                facts={"city": cname},
            ),
            patch=s.patch(), golden=[call("search_hotels", city=cname)],
            reply=f"The cheapest hotel in {cname} is {best['name']}, with rates from ${m(lows[best['id']])} per night "
                  "(list price, before any company discount).",
            # the hotel named as the cheapest one (a list of every hotel and its rate does not answer
            # which one is cheapest, and "X is cheapest; Y from $..." must not pass for Y)
            assertions=[says(fact(best["name"], "the customer asked which hotel is the cheapest",
                                  aliases=hotel_names(best), near=CHEAPEST_WORDS,
                                  # or named alone with its rate: "Harbor Inn, $129 a night" answers which
                                  alternatives=[fact(best["name"], "", aliases=hotel_names(best),
                                                     alone=others_than(best, hotels))]),
                             fact(m(lows[best["id"]]), "the customer asked what it costs per night")),
                        *nothing_done([best["name"]], "book", "reserve")],
            wrong=[reply(f"The cheapest is {second['name']}, from ${m(lows[second['id']])} per night.",
                         note="names the second-cheapest hotel"),
                   reply(f"The cheapest is {second['name']}, from ${m(lows[best['id']])} per night; {best['name']} "
                         f"starts at ${m(lows[second['id']])}.", note="names the wrong hotel as the cheapest"),
                   reply(f"The cheapest is {best['name']}, from ${m(lows[best['id']] + 20)} per night.",
                         note="right hotel, wrong price")],
            kind="read_only", difficulty="easy", skills=["hotels", "general_question"],
        )
    hotel = s.rng.choice([h for h in hotels if CAT.sibling(h)])
    sib = CAT.sibling(hotel)
    flex_p, nonref = CAT.plan(hotel["id"], "deluxe"), CAT.plan(hotel["id"], "deluxe", "nonrefundable")
    sflex, snon = CAT.plan(sib["id"], "deluxe"), CAT.plan(sib["id"], "deluxe", "nonrefundable")
    std = CAT.plan(hotel["id"], "standard")
    days = f"{flex_p['free_cancel_days']} day" + ("s" if flex_p["free_cancel_days"] != 1 else "")
    return TaskSpec(
        caller=Caller(
            persona=persona, goal=f"Learn the nightly Deluxe King rates (flexible and non-refundable) at {hotel['name']}.",
            first_message=f"How much is a Deluxe King per night at the {hotel['name']}? I'd like both the flexible "
                          "and the non-refundable price.",
            facts={"hotel": hotel["name"]},
        ),
        patch=s.patch(), golden=[call("search_hotels", city=cname), call("get_hotel", hotel_id=hotel["id"])],
        reply=f"At {hotel['name']}, a Deluxe King costs ${m(flex_p['nightly_rate'])} per night on the Flexible rate "
              f"(free cancellation up to {days} before arrival) and ${m(nonref['nightly_rate'])} on the Advance Saver "
              "(non-refundable) rate. These are list prices, before any company discount.",
        # each rate bound to its plan's name, so that a reply giving them the other way round fails
        # (the plan nearest each rate names it: "refundable rate $345.00, non-refundable rate $293.00")
        assertions=[says(fact(m(flex_p["nightly_rate"]), "the customer asked for the flexible price", owner=FLEX_WORDS,
                              rivals=NONREF_WORDS),
                         fact(m(nonref["nightly_rate"]), "the customer asked for the non-refundable price",
                              owner=NONREF_WORDS, rivals=FLEX_WORDS)),
                    *nothing_done([hotel["name"]], "book", "reserve")],
        wrong=[reply(f"A Deluxe King is ${m(nonref['nightly_rate'])} per night on the flexible rate and "
                     f"${m(flex_p['nightly_rate'])} per night non-refundable.", note="gives the two rates the other way round"),
               reply(f"A Deluxe King is ${m(sflex['nightly_rate'])} flexible or ${m(snon['nightly_rate'])} "
                     "non-refundable per night.", note="quotes the other hotel of the same chain in the city"),
               reply(f"The flexible rate is ${m(std['nightly_rate'])} per night.", note="quotes the standard room")],
        kind="read_only", difficulty="easy", skills=["hotels", "general_question", "disambiguation"],
    )


MEMBER_TIER = ["member level", "tier is member", "tier: member", "tier member", "tier - member", "level: member",
               "level is member", "status: member", "status is member", "tier is currently member", "tier is the member",
               "tier is voyager rewards member", "tier is the base", "base tier", "entry tier", "entry level tier",
               "first tier", "basic tier", "standard tier", "starting tier", "lowest tier", "base level", "entry level"]


@template("read-only: the Voyager Rewards balance and tier")
def loyalty_balance(s: TravelScene, n: int) -> TaskSpec:
    tier = ["member", "silver", "gold", "silver"][n % 4]
    t = s.person(tier=tier)
    total_points, last = 0, None
    for k in range(s.rng.randint(2, 4)):
        plan = s.pick(CAT.plans_where(lambda p: code(p) == "standard"))
        last = s.booking(t, plan, TODAY - timedelta(days=300 - 60 * k - s.rng.randint(0, 20)), s.rng.randint(1, 4),
                         "completed", invoice="paid")
        total_points += stay_points(last["total_amount"])
    if s.rng.random() < 0.5:
        s.loyalty(t, 1000, "goodwill", last, TODAY - timedelta(days=20))
        total_points += 1000
    g = Golden()
    v = verify(g, t)
    g.add("get_loyalty_account", traveller_id=t["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, saving Voyager Rewards points for a family holiday.",
            goal="Learn the current points balance and loyalty tier.",
            first_message="Hi! How many Voyager Rewards points do I have at the moment, and which tier am I in?",
            facts=identity(t),
        ),
        patch=s.patch(), golden=g,
        reply=(f"You are in the Member tier of Voyager Rewards with {total_points:,} points." if tier == "member" else
               f"You are a {tier} member of Voyager Rewards with {total_points:,} points."),
        # the base tier is called "member", which "you're a Silver member" also says: there it is
        # said as a tier ("Member tier", "your tier is Member", "Tier: Member", "the entry tier")
        assertions=[says(fact(total_points, "the customer asked for the points balance"),
                         fact("member tier", "the customer asked for the tier", aliases=MEMBER_TIER) if tier == "member"
                         else fact(tier, "the customer asked for the tier"))],
        wrong=[reply(f"You are a {tier} member with {total_points - stay_points(last['total_amount']):,} points.",
                     note="leaves out the last stay's points"),
               reply(f"You are a {'silver' if tier == 'gold' else 'gold'} member with {total_points:,} points.",
                     note="names the wrong tier"),
               drop(v, note="reads the points without verifying")],
        kind="read_only", difficulty="easy", skills=["verification", "loyalty"],
    )


# -- templates: single_write ------------------------------------------------------------------------------


@template("one write: new dates for a flexible booking; the price difference moves automatically")
def change_dates_flexible(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("standard", "deluxe", "junior_suite")))
    b = s.booking(t, plan, s.upcoming(10, 50), s.rng.randint(2, 4))
    shift, nights = [(1, b["nights"]), (0, b["nights"] + 1), (2, b["nights"] - 1), (-1, b["nights"] + 1)][n % 4]
    cin, cout, total = new_stay(b, shift, nights)
    g = Golden()
    v = verify(g, t)
    g.add("get_booking", booking_id=b["id"])
    k = g.add("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=cout)
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, whose project schedule in {b['city']} just moved.",
            goal=f"Move booking {b['id']} to check-in {cin} and check-out {cout}.",
            first_message=f"Hello, I need to change the dates of my booking {b['id']}: I'd now arrive on {cin} and "
                          f"leave on {cout}.",
            facts={**identity(t), "booking_id": b["id"], "new_check_in": cin, "new_check_out": cout},
            wants=[b["id"], "change", "move", "dates", cin, cout],
        ),
        patch=s.patch(), golden=g,
        reply=f"Done: booking {b['id']} now runs from {cin} to {cout} ({nights} nights at ${m(b['nightly_rate'])}), "
              f"new total ${m(total)}; {moved_money(b, total)}.",
        assertions=[reports(*dates_changed(b, cin, cout, total)), old_start_not_new(s, b, cin, cout),
                    *asked_done(g, refunded=refunded_by_move(b, total)), *money_not_moved(b, total)],
        wrong=[replace({k: call("change_booking_dates", booking_id=b["id"], check_in=cin,
                                check_out=slipped_check_out(b, cin, cout))},
                       tag="wrong_amount", note="books one night too few or too many"),
               drop(v, note="changes the booking without verifying")],
        kind="single_write", difficulty="medium", skills=["verification", "date_change"],
    )


@template("one write: cancel a stay inside the free window (the traveller's other trip stays)")
def cancel_free_window(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("standard", "deluxe")))
    b = s.booking(t, plan, s.free_window_date(plan), s.rng.randint(1, 4))
    other = s.booking(t, s.other_city_plan(b["hotel"]["city_id"]), s.upcoming(8, 70), s.rng.randint(1, 3))
    _fee, refund = refund_if_cancelled(b)
    g = Golden()
    v = verify(g, t)
    g.add("list_traveller_bookings", traveller_id=t["id"])
    g.add("get_booking", booking_id=b["id"])
    k = g.add("cancel_booking", booking_id=b["id"], reason="Trip cancelled")
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, whose trip to {b['city']} was called off.",
            goal=f"Cancel the {b['city']} stay ({b['check_in']} to {b['check_out']}) and get the money back.",
            first_message=f"Hi, my trip to {b['city']} from {b['check_in']} to {b['check_out']} is off. Can you cancel "
                          "the hotel, please?",
            facts={**identity(t), "booking_id": b["id"], "city": b["city"],
                   "dates": f"{b['check_in']} to {b['check_out']}"},
            wants=[b["id"], "cancel", "cancellation", "refund"],
            declines=[],
            instructions=f"Keep your other booking in {other['city']}.",
        ),
        patch=s.patch(), golden=g,
        reply=f"Booking {b['id']} at {b['hotel']['name']} is cancelled free of charge; the full ${m(refund)} is being "
              f"refunded to {b['card']['label']}.",
        assertions=[reports(cancelled(), refund_fact(refund, CANCELLED)), right_stay_cancelled(b, other),
                    *filter(None, [free_cancel_fee(b)]),
                    *asked_done(g, stays=[b, other])],
        wrong=[replace({k: call("cancel_booking", booking_id=other["id"], reason="Trip cancelled")},
                       tag="wrong_entity", note="cancels the traveller's other upcoming booking"),
               drop(v, note="cancels without verifying")],
        kind="single_write", difficulty="easy", skills=["verification", "cancellations"],
    )


ARRIVALS = ["19:30", "20:45", "21:30", "22:00", "22:45", "23:15", "23:30", "23:45"]


@template("one write: record a late arrival (24-hour time) on the right booking")
def set_arrival_time(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    b = s.booking(t, s.pick(CAT.plans_where(lambda p: code(p) == "standard")), s.upcoming(3, 30), s.rng.randint(1, 3))
    other = s.booking(t, s.other_city_plan(b["hotel"]["city_id"]), s.upcoming(35, 80), 2)
    when = ARRIVALS[(n * 3 + s.rng.randint(0, 7)) % len(ARRIVALS)]
    h, mi = when.split(":")
    g = Golden()
    verify(g, t)
    g.add("list_traveller_bookings", traveller_id=t["id"])
    g.add("get_booking", booking_id=b["id"])
    k = g.add("set_arrival_time", booking_id=b["id"], arrival_time=when)
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, on a late flight to {b['city']}, worried the hotel will give the room away.",
            goal=f"Have the hotel hold the room for a {nice_time(when)} arrival on {b['check_in']}.",
            first_message=f"My flight to {b['city']} lands late, I'll only get to the hotel around {nice_time(when)} on "
                          f"{b['check_in']}. Can you make sure they keep my room?",
            facts={**identity(t), "booking_id": b["id"], "arrival": nice_time(when), "check_in_date": b["check_in"]},
            wants=[b["id"], "arrival", "record", "note", "hold", "keep", when, nice_time(when)],
            declines=[],
        ),
        patch=s.patch(), golden=g,
        reply=f"I've recorded your arrival at {when} on {b['check_in']} for booking {b['id']} at {b['hotel']['name']}, "
              "so the room will be held for you.",
        assertions=[reports(arrival_recorded(when)), *asked_done(g, stays=[b, other]),
                    said_of_other(when, CHANGED + " (the arrival time is on the stay it is for, not the other one)",
                                  stay_label(b, [other]), stay_label(other, [b])),
                    arrival_day_not(b, when)],
        wrong=[replace({k: call("set_arrival_time", booking_id=b["id"], arrival_time=f"{int(h) - 12:02d}:{mi}")},
                       tag="wrong_amount", note="records the morning time instead of the evening"),
               replace({k: call("set_arrival_time", booking_id=other["id"], arrival_time=when)},
                       tag="wrong_entity", note="records it on the traveller's other booking")],
        kind="single_write", difficulty="easy", skills=["verification", "late_arrival"],
    )


def arrival_day_not(b: dict[str, Any], when: str) -> dict[str, Any]:
    """`says_not`: the arrival recorded for another day than the check-in ("arriving at 22:00 on 2026-12-18"): the
    check-out or a day either side, bound to the arrival's words (the check-out said as such passes)."""
    cin = date.fromisoformat(b["check_in"])
    days = [b["check_out"], *(iso(cin + timedelta(days=k)) for k in (-1, 1) if iso(cin + timedelta(days=k)) != b["check_out"])]
    why = CHANGED + " (the arrival is on the check-in date, not another day)"
    arrive = ["arriv", "land", "get there", "get to", "expect", "late", when, nice_time(when), "hold", "held", "keep"]
    # (not "to" as a rival: a prefix of "Old Town", "tomorrow")
    return says_not(*[claims(why, d, owner=arrive, rivals=[*CHECKOUT_WORDS, "until", "through", "till"]) for d in days],
                    why=why)


@template("one write: a room upgrade whose new rate is within the company cap, so no approval")
def upgrade_within_cap(s: TravelScene, n: int) -> TaskSpec:
    company = s.pool.company()

    def fits(p: dict[str, Any]) -> bool:
        if not (flex(p) and code(p) == "standard"):
            return False
        deluxe, suite = CAT.plan(p["hotel_id"], "deluxe"), CAT.plan(p["hotel_id"], "junior_suite")
        return CAT.rate(company, deluxe) <= CAT.cap(company, CAT.hotel(p)) and suite is not None

    t = s.person(company_id=company)
    b = s.booking(t, s.pick(CAT.plans_where(fits)), s.upcoming(8, 60), s.rng.randint(2, 4))
    deluxe, suite = CAT.plan(b["hotel_id"], "deluxe"), CAT.plan(b["hotel_id"], "junior_suite")
    rate = CAT.rate(company, deluxe)
    total = stay_total(rate, b["nights"])
    diff = money(total - b["total_amount"])
    g = Golden()
    v = verify(g, t)
    g.add("get_booking", booking_id=b["id"])
    g.add("get_traveller", traveller_id=t["id"])
    g.add("get_company_policy", company_id=company)
    g.add("get_hotel", hotel_id=b["hotel_id"])
    k = g.add("change_room_type", booking_id=b["id"], rate_plan_id=deluxe["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, who will host a small working session in the hotel room and wants more space.",
            goal=f"Upgrade booking {b['id']} from the Standard King to a Deluxe King (flexible rate).",
            first_message=f"Could you upgrade my booking {b['id']} to a Deluxe King? Same dates.",
            facts={**identity(t), "booking_id": b["id"], "room": "Deluxe King"},
            wants=[b["id"], "upgrade", "deluxe", "change", "room"],
        ),
        patch=s.patch(), golden=g,
        reply=f"Booking {b['id']} is now a Deluxe King at ${m(rate)} per night, within your company's cap. The "
              f"difference of ${m(diff)} has been charged to {b['card']['label']}; the new total is ${m(total)}.",
        assertions=[reports(fact(m(diff), CHANGED + " (the amount charged for the upgrade)",
                                 owner=[*CHARGE_WORDS, "cost", "upgrade"],
                                 rivals=REFUND_WORDS + REDUCE_WORDS + ["total", "new price", "per night", "a night",
                                                                      "nightly", "rate"])),
                    *asked_done(g, verbs={"change_room_type": ("upgrade", "booking_id")}),
                    rooms_said_as_target(CHANGED + " (the room the booking moved to, not the old one or another)",
                                         b["room"]["name"], *other_rooms(b, b["room"]["name"], "Deluxe King"),
                                         never=tuple(other_rooms(b, b["room"]["name"], "Deluxe King"))),
                    says_not(fact(m(b["total_amount"]), "", owner=["new total", "total is now", "now", "new price",
                                                                   "total now"],
                                  rivals=["was", "from", "previous", "old", "original", "up from", "instead of"]),
                             why=CHANGED + " (the new total, not the old one)")],
        wrong=[replace({k: call("change_room_type", booking_id=b["id"], rate_plan_id=suite["id"])},
                       tag="wrong_entity", note="moves the traveller to the junior suite instead"),
               drop(v, note="upgrades without verifying")],
        kind="single_write", difficulty="medium", skills=["verification", "room_change", "travel_policy"],
    )


# the words that name an invoice reference's kind ("PO-730714 added as the cost centre" files it wrongly)
REF_WORDS = {"po_number": ["po number", "po ", "p.o.", "purchase order", "purchase-order", "order number"],
             "cost_center": ["cost center", "cost centre", "cost code", "cost-center", "cost-centre"]}


def said_of_other(value: str, why: str, mine: list[str], theirs: list[str]) -> dict[str, Any]:
    """`says_not`: the value written said of the other record ("Invoice INV-5024 now shows PO-500916",
    "your Tokyo booking now has a 22:00 arrival"), which no verb of the write's outcome says: bound by
    the nearest record named, so the right one named with it passes."""
    return says_not(claims(why, value, owner=theirs, rivals=mine), why=why)


def reference_not_on(value: str, inv: dict[str, Any], b: dict[str, Any], oinv: dict[str, Any],
                     other: dict[str, Any]) -> dict[str, Any]:
    """The reference said to be on the other invoice, by its id or its stay's names."""
    why = CHANGED + " (the reference is on the invoice of the stay the customer named, not the other one)"
    return said_of_other(value, why, [inv["id"], *stay_label(b, [other])], [oinv["id"], *stay_label(other, [b])])


def amount_not_of(inv: dict[str, Any], b: dict[str, Any], oinv: dict[str, Any],
                  other: dict[str, Any]) -> dict[str, Any] | None:
    """`says_not`: the other invoice's amount said as this invoice's ("INV-5019, amount $638.00, now shows PO-240130"),
    bound by the nearest record named (or an amount word), so the other invoice named with its amount passes."""
    if money(oinv["amount"]) == money(inv["amount"]):
        return None
    why = "policy, General: never invent amounts: the invoice's amount is its own, not the other stay's"
    mine = [inv["id"], *stay_label(b, [other]), "invoice", "amount", "total", "your stay", "this stay"]
    return says_not(claims(why, m(oinv["amount"]), owner=mine, rivals=[oinv["id"], *stay_label(other, [b]), "other"]),
                    why=why)


@template("one write: a PO number or cost centre on the right issued invoice")
def update_invoice_reference(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    p1, p2 = s.pick(CAT.plans_where(lambda p: code(p) == "standard")), s.pick(CAT.plans_where(lambda p: code(p) == "deluxe"))
    b = s.booking(t, p1, TODAY - timedelta(days=s.rng.randint(6, 14)), s.rng.randint(1, 3), "completed", invoice="issued")
    other = s.booking(t, p2, TODAY - timedelta(days=s.rng.randint(18, 30)), 2, "completed", invoice="issued")
    inv, oinv = s.invoice_of(b), s.invoice_of(other)
    field_, label = ("po_number", "purchase-order number") if n % 2 == 0 else ("cost_center", "cost centre")
    other_field = "cost_center" if field_ == "po_number" else "po_number"
    value = f"PO-{s.rng.randint(100000, 999999)}" if field_ == "po_number" else f"CC-{s.rng.randint(100, 999)}"
    typo = value[:-2] + value[-1] + value[-2] if value[-1] != value[-2] else value[:-1] + str((int(value[-1]) + 1) % 10)
    hotel = b["hotel"]["name"]
    g = Golden()
    verify(g, t)
    g.add("list_traveller_invoices", traveller_id=t["id"])
    k = g.add("update_invoice_reference", invoice_id=inv["id"], **{field_: value})
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, chased by the finance team to fix an invoice reference.",
            goal=f"Have {label} {value} put on the invoice for the stay at {hotel} ({b['check_in']} to {b['check_out']}).",
            first_message=f"Finance needs {label} {value} on the invoice for my stay at {hotel} "
                          f"({b['check_in']} to {b['check_out']}). Can you add it?",
            facts={**identity(t), field_: value, "hotel": hotel, "stay": f"{b['check_in']} to {b['check_out']}"},
            wants=[inv["id"], value, "invoice", "add", "update"],
            declines=[],
        ),
        patch=s.patch(), golden=g,
        reply=f"Invoice {inv['id']} for your stay at {hotel} now shows {label} {value}.",
        assertions=[reports(fact(value, CHANGED + f" (the {label} now on the invoice)")),
                    says_not(claims("", value, owner=REF_WORDS[other_field], rivals=REF_WORDS[field_]),
                             why=f"the customer gave a {label}: the reply must not file it as the other reference"),
                    reference_not_on(value, inv, b, oinv, other), *asked_done(g, rivals={inv["id"]: [oinv["id"]]}),
                    *filter(None, [amount_not_of(inv, b, oinv, other)])],
        wrong=[replace({k: call("update_invoice_reference", invoice_id=oinv["id"], **{field_: value})},
                       tag="wrong_entity", note="updates the invoice of the other recent stay"),
               replace({k: call("update_invoice_reference", invoice_id=inv["id"], **{field_: typo})},
                       tag="wrong_amount", note="mistypes the reference")],
        kind="single_write", difficulty="easy", skills=["verification", "invoices"],
    )


# -- templates: multi_step ------------------------------------------------------------------------------

FAILURES = [
    ("There was no hot water in my room for two days", "No hot water"),
    ("The air conditioning was broken and the room was 30 degrees at night", "Broken air conditioning"),
    ("My room was never cleaned during the whole stay", "Room not cleaned"),
    ("The heating did not work and the room was freezing", "Broken heating"),
    ("Water leaked from the ceiling and I could not use the room for a night", "Leak in the room"),
]


ONE_NIGHT = "policy, After the stay: service failures: the refund is one night at the nightly rate, not the stay"
# the one night refunded said as the whole stay ("I've refunded the full stay of $134.00")
WHOLE_STAY_REFUNDED = ["full refund", "refunded in full", "fully refunded", "refunded the full", "refunded the whole",
                       "refunded the entire", "refunded your full", "refunded your whole", "refunded your entire",
                       "refund for the whole", "refund for the entire", "refund for the full", "refund of the full",
                       "refund of the whole", "refund of the entire"]


@template("several systems: one-night refund, tier goodwill points, ticket note, ticket closed on request")
def service_failure_compensation(s: TravelScene, n: int) -> TaskSpec:
    tier = ["member", "silver", "gold", "silver", "member", "gold"][n % 6]
    t = s.person(tier=tier)
    prior = s.booking(t, s.pick(CAT.plans_where(lambda p: code(p) == "standard")),
                      TODAY - timedelta(days=s.rng.randint(120, 300)), 2, "completed", invoice="paid")
    plan = s.pick(CAT.plans_where(lambda p: code(p) in ("standard", "deluxe")))
    nights = s.rng.randint(2, 5)
    check_out = TODAY - timedelta(days=s.rng.randint(3, 26))
    b = s.booking(t, plan, check_out - timedelta(days=nights), nights, "completed", invoice="issued")
    story, subject = FAILURES[(n + s.rng.randint(0, 4)) % len(FAILURES)]
    ticket = s.ticket(t, b, subject, "service_issue", story + ".", check_out)
    points = GOODWILL_POINTS[tier]
    balance = stay_points(prior["total_amount"]) + stay_points(b["total_amount"]) + points
    wrong_tier = "member" if tier != "member" else "gold"
    g = Golden()
    verify(g, t)
    g.add("get_ticket", ticket_id=ticket["id"])
    g.add("get_booking", booking_id=b["id"])
    g.add("get_loyalty_account", traveller_id=t["id"])
    k_refund = g.add("refund_service_failure", booking_id=b["id"], amount=money(b["nightly_rate"]), reason=subject)
    k_points = g.add("add_goodwill_points", traveller_id=t["id"], booking_id=b["id"], points=points, reason=subject)
    k_note = g.add("add_ticket_note", ticket_id=ticket["id"],
                   note=f"Service failure compensated: one night (${m(b['nightly_rate'])}) refunded and {points} "
                        "goodwill points added.")
    g.add("update_ticket_status", ticket_id=ticket["id"], status="closed")
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, a {tier} Voyager Rewards member, still annoyed about a recent stay at "
                    f"{b['hotel']['name']}.",
            goal=f"Get compensation for the problem reported in ticket {ticket['id']} and have the ticket closed.",
            first_message=f"{story} at {b['hotel']['name']} ({b['check_in']} to {b['check_out']}). I opened ticket "
                          f"{ticket['id']} and nobody has done anything yet. Please sort out what I'm owed and then "
                          "close the ticket.",
            facts={**identity(t), "ticket_id": ticket["id"], "booking_id": b["id"], "problem": story,
                   "close_ticket": "yes, once I'm compensated"},
            wants=[ticket["id"], b["id"], "refund", "points", "compensation", "close", "note"],
            declines=[],
            instructions="Accept the compensation the agent offers.",
        ),
        patch=s.patch(), golden=g,
        reply=f"I'm sorry about the stay. As compensation I've refunded one night, ${m(b['nightly_rate'])}, to "
              f"{b['card']['label']} and added {points:,} goodwill points (your balance is now {balance:,}). Ticket "
              f"{ticket['id']} is noted and closed.",
        assertions=[note_on(ticket["id"]),
                    reports(fact(m(b["nightly_rate"]), CHANGED + " (the refund given as compensation)",
                                 owner=REFUND_WORDS, rivals=["charg", "fee", "cost", "balance", "total"]),
                            fact(points, CHANGED + " (the goodwill points given as compensation)",
                                 owner=ADDED_POINTS_WORDS, rivals=BALANCE_WORDS)),
                    *ticket_closed(ticket["id"]), *asked_done(g, stays=[b, prior]),
                    says_not(claims(ONE_NIGHT, *WHOLE_STAY_REFUNDED),
                             fact(m(b["total_amount"]), "", owner=REFUND_WORDS,
                                  rivals=["total", "paid", "cost", "charg", "of your", "out of", "fee"]), why=ONE_NIGHT)],
        wrong=[replace({k_refund: call("refund_service_failure", booking_id=b["id"], amount=money(b["total_amount"]),
                                       reason=subject)},
                       tag="wrong_amount", note="refunds the whole stay instead of one night"),
               replace({k_points: call("add_goodwill_points", traveller_id=t["id"], booking_id=b["id"],
                                       points=GOODWILL_POINTS[wrong_tier], reason=subject)},
                       tag="wrong_amount", note="gives another tier's goodwill points"),
               drop(k_note, note="compensates but leaves no note on the ticket"),
               drop(k_points, note="refunds but forgets the goodwill points")],
        kind="multi_step", difficulty="hard",
        skills=["verification", "service_failure", "refunds", "loyalty", "tickets"],
    )


@template("several systems: credit the stay inside the 90-day window, decline the older one, note and close")
def missing_points_claim(s: TravelScene, n: int) -> TaskSpec:
    t = s.person(tier=s.rng.choice(["member", "silver"]))
    plan = s.pick(CAT.plans_where(lambda p: code(p) == "standard"))
    hotel = CAT.hotel(plan)
    credited = s.booking(t, s.pick(CAT.plans_where(lambda p: code(p) == "deluxe")),
                         TODAY - timedelta(days=s.rng.randint(200, 320)), 2, "completed", invoice="paid")
    old = s.booking(t, plan, TODAY - timedelta(days=s.rng.randint(105, 170)), s.rng.randint(1, 3), "completed",
                    points=False, invoice="paid")
    recent = s.booking(t, plan, TODAY - timedelta(days=s.rng.randint(20, 75)), s.rng.randint(2, 4), "completed",
                       points=False, invoice="issued")
    ticket = s.ticket(t, recent, "Points missing for my stays", "loyalty",
                      f"No points for my last two stays at {hotel['name']}.", TODAY - timedelta(days=3))
    pts = stay_points(recent["total_amount"])
    balance = stay_points(credited["total_amount"]) + pts
    g = Golden()
    verify(g, t)
    g.add("get_ticket", ticket_id=ticket["id"])
    g.add("get_loyalty_account", traveller_id=t["id"])
    g.add("list_traveller_bookings", traveller_id=t["id"])
    g.add("credit_stay_points", booking_id=recent["id"])
    k_note = g.add("add_ticket_note", ticket_id=ticket["id"],
                   note=f"Credited {pts} points for {recent['id']}; {old['id']} is past the 90-day claim window.")
    k_close = g.add("update_ticket_status", ticket_id=ticket["id"], status="closed")
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, who tracks every point and noticed two stays at {hotel['name']} never earned any.",
            goal=f"Get the missing points for both stays at {hotel['name']} (ticket {ticket['id']}), then close it.",
            first_message=f"I never got Voyager Rewards points for my last two stays at {hotel['name']}. It's on "
                          f"ticket {ticket['id']}; please sort it out and close the ticket afterwards.",
            facts={**identity(t), "ticket_id": ticket["id"],
                   "stays": f"{old['check_in']} and {recent['check_in']} at {hotel['name']}",
                   "close_ticket": "yes, once it is sorted out"},
            wants=[ticket["id"], recent["id"], "points", "credit", "close", "note"],
            declines=[],
            instructions="If one stay cannot be credited, accept the explanation.",
        ),
        patch=s.patch(), golden=g,
        reply=f"I've credited {pts:,} points for your stay {recent['id']} ({recent['check_in']} to "
              f"{recent['check_out']}); your balance is now {balance:,}. The stay {old['id']} checked out on "
              f"{old['check_out']}, more than 90 days ago, so its points can no longer be claimed. Ticket "
              f"{ticket['id']} is closed.",
        assertions=[note_on(ticket["id"]),
                    reports(fact(pts, "policy, Voyager Rewards: tell the traveller the points credited",
                                 owner=ADDED_POINTS_WORDS, rivals=BALANCE_WORDS),
                            fact(balance, "policy, Voyager Rewards: tell the traveller their new balance",
                                 owner=BALANCE_WORDS, rivals=ADDED_POINTS_WORDS),
                         fact("90 days", DECLINED + " (stay points are claimed within 90 days of check-out)",
                              "three months")),
                    says_not(claims("", "both", "all your stays", "each stay", "both stays", "either stay", "both of",
                                    near=["credit", "point", "added", "award", "earn"]),
                             why=DECLINED + " (only the stay inside the 90-day window is credited)"),
                    *asked_done(g, stays=[recent, old]), *ticket_closed(ticket["id"]),
                    outcome("credit", "refused", DECLINED + " (the older stay is past the 90-day claim window)",
                            record=stay_label(old, [recent]), others=stay_label(recent, [old]))],
        wrong=[append(call("credit_stay_points", booking_id=old["id"]),
                      note="also credits the stay outside the 90-day window"),
               drop(k_note, note="no note on the ticket"),
               drop(k_close, note="leaves the ticket open although the traveller asked to close it")],
        kind="multi_step", difficulty="medium", skills=["verification", "loyalty", "claim_window", "tickets"],
    )


@template("two requests: cancel one stay, move another")
def change_and_cancel(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    pa = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard"))
    a = s.booking(t, pa, s.free_window_date(pa, 10, 40), s.rng.randint(1, 3))
    b = s.booking(t, s.other_city_plan(a["hotel"]["city_id"], s.rng.choice(["standard", "deluxe"])),
                  s.upcoming(20, 70), s.rng.randint(2, 4))
    _fee, refund = refund_if_cancelled(a)
    shift, nights = [(2, b["nights"]), (-1, b["nights"]), (0, b["nights"] + 2), (3, b["nights"] - 1)][n % 4]
    cin, cout, total = new_stay(b, shift, nights)
    g = Golden()
    v = verify(g, t)
    g.add("list_traveller_bookings", traveller_id=t["id"])
    g.add("get_booking", booking_id=a["id"])
    k_cancel = g.add("cancel_booking", booking_id=a["id"], reason="Trip cancelled")
    g.add("get_booking", booking_id=b["id"])
    k_move = g.add("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=cout)
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, reshuffling next month's travel after a reorganisation.",
            goal=f"Cancel the {a['city']} stay and move the {b['city']} stay to {cin} - {cout}.",
            first_message=f"Two changes please: cancel my {a['city']} hotel (from {a['check_in']}), and move my "
                          f"{b['city']} stay so that I arrive on {cin} and leave on {cout}.",
            facts={**identity(t), "stay_to_cancel": f"the {a['city']} stay from {a['check_in']}",
                   "stay_to_move": f"the {b['city']} stay from {b['check_in']}", "new_check_in": cin,
                   "new_check_out": cout},
            wants=[a["id"], b["id"], "cancel", "cancellation", "change", "move", "dates", cin, cout],
        ),
        patch=s.patch(), golden=g,
        reply=f"Booking {a['id']} in {a['city']} is cancelled free of charge and ${m(refund)} is refunded to "
              f"{a['card']['label']}. Booking {b['id']} in {b['city']} now runs from {cin} to {cout}, new total "
              f"${m(total)}; {moved_money(b, total)}.",
        assertions=[reports(cancelled(), refund_fact(refund, CANCELLED), *dates_changed(b, cin, cout, total)),
                    right_stay_cancelled(a, b), dates_not_on_others(b, cin, cout, [a]), old_start_not_new(s, b, cin, cout),
                    *filter(None, [free_cancel_fee(a)]), *money_not_moved(b, total, refund=False),
                    *asked_done(g, stays=[a, b], refunded=refunded_by_move(b, total))],
        wrong=[drop(k_cancel, note="forgets the cancellation"),
               replace({k_move: call("change_booking_dates", booking_id=b["id"], check_in=cin,
                                     check_out=slipped_check_out(b, cin, cout))},
                       tag="wrong_amount", note="gets the length of the moved stay wrong"),
               drop(v, note="acts without verifying")],
        kind="multi_step", difficulty="hard", skills=["verification", "cancellations", "date_change"],
    )


def preferred_within_cap(company: str, room: str = "standard", exclude_city: str | None = None) -> list[dict[str, Any]]:
    """Flexible plans of the company's preferred hotels whose discounted rate is within its cap."""
    return CAT.plans_where(lambda p: flex(p) and code(p) == room and CAT.discount(company, p["hotel_id"]) > 0
                           and CAT.rate(company, p) <= CAT.cap(company, CAT.hotel(p))
                           and CAT.hotel(p)["city_id"] != exclude_city)


@template("the long one: late cancellation with fee, date move, late arrival, new in-policy booking, ticket")
def trip_overhaul(s: TravelScene, n: int) -> TaskSpec:
    company = s.pool.company()
    t = s.person(company_id=company, cards=("corporate", "expired_personal"))
    pa = s.pick(late_plans(lambda p: code(p) == "standard"))
    # three nights: the late fee is one night, and with two the refund would equal it (a reply
    # could swap them); the draw stays so the rest of the scene keeps its seed
    a = s.booking(t, pa, s.late_window_date(pa), max(3, s.rng.randint(2, 3)))
    b = s.booking(t, s.other_city_plan(a["hotel"]["city_id"], "standard"), s.upcoming(12, 40), s.rng.randint(2, 3))
    pc = s.pick(preferred_within_cap(company, exclude_city=b["hotel"]["city_id"]))
    hc = CAT.hotel(pc)
    cc = CAT.city(hc)
    ticket = s.ticket(t, a, "Trip reorganisation", "booking_change",
                      "Client moved all meetings; need to rework my hotels.", TODAY - timedelta(days=1))
    fee, refund = refund_if_cancelled(a)
    cin, cout, total_b = new_stay(b, 1, b["nights"])
    when = ["22:30", "23:00", "21:45", "23:30"][n % 4]
    c_in = s.upcoming(45, 80)
    c_out = c_in + timedelta(days=s.rng.randint(2, 4))
    rate_c = CAT.rate(company, pc)
    total_c = stay_total(rate_c, (c_out - c_in).days)
    card = t["cards"][0]
    new_c = {"traveller_id": t["id"], "rate_plan_id": pc["id"], "check_in": iso(c_in), "check_out": iso(c_out)}
    g = Golden()
    verify(g, t)
    g.add("get_ticket", ticket_id=ticket["id"])
    g.add("list_traveller_bookings", traveller_id=t["id"])
    g.add("get_booking", booking_id=a["id"])
    g.add("get_cancellation_quote", booking_id=a["id"])
    g.add("cancel_booking", booking_id=a["id"], reason="Client moved the meetings")
    g.add("get_booking", booking_id=b["id"])
    k_move = g.add("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=cout)
    k_arrival = g.add("set_arrival_time", booking_id=b["id"], arrival_time=when)
    g.add("get_traveller", traveller_id=t["id"])
    g.add("get_company_policy", company_id=company)
    g.add("search_hotels", city=cc["name"], company_id=company)
    g.add("get_hotel", hotel_id=hc["id"])
    g.add("quote_stay", **new_c)
    k_book = g.add("create_booking", **new_c, payment_method_id=card["id"])
    g.add("add_ticket_note", ticket_id=ticket["id"],
          note=f"Cancelled {a['id']} (fee {m(fee)}), moved {b['id']} to {cin}, arrival {when}, booked BK-{NEW}.")
    k_close = g.add("update_ticket_status", ticket_id=ticket["id"], status="closed")
    two_days_later = new_stay(b, 2, b["nights"])
    booked = {"id": f"BK-{NEW}", "check_in": iso(c_in), "hotel": hc, "city": cc["name"]}
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, whose client just moved every meeting; organised, wants it all done in one go.",
            goal=f"Cancel the {a['city']} stay (accepting the fee), move the {b['city']} stay one day later with a "
                 f"{nice_time(when)} arrival, book {hc['name']} ({iso(c_in)} to {iso(c_out)}), then close ticket "
                 f"{ticket['id']}.",
            first_message=(f"Big rework of my trips, ticket {ticket['id']}. 1) Cancel my {a['city']} hotel from "
                           f"{a['check_in']}; I know it's late, so I accept the cancellation fee. 2) Push my "
                           f"{b['city']} stay back by one day, same number of nights, and I'll arrive around "
                           f"{nice_time(when)} on the first night. 3) Book me a Standard King on the flexible rate at "
                           f"{hc['name']} from {iso(c_in)} to {iso(c_out)}. Then please close the ticket."),
            facts={**identity(t), "ticket_id": ticket["id"], "stay_to_cancel": f"the {a['city']} stay from {a['check_in']}",
                   "cancellation_fee": "I accept it", "stay_to_move": f"the {b['city']} stay: one day later, same number of nights",
                   "arrival_time_first_night": nice_time(when),
                   "new_booking": f"{hc['name']}, Standard King, Flexible rate, {iso(c_in)} to {iso(c_out)}",
                   "card_to_use": card["label"], "close_ticket": "yes, once everything is done"},
            wants=[ticket["id"], a["id"], b["id"], hc["name"], "cancel", "fee", "change", "dates", "move", "push",
                   "arrival", "book", "booking", "close", "note"],
            instructions="Pay for the new booking with your corporate card.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"All done. Booking {a['id']} is cancelled: the fee is ${m(fee)} (one night) and ${m(refund)} is "
               f"refunded to {a['card']['label']}. Booking {b['id']} now runs from {cin} to {cout}, total "
               f"${m(total_b)}, with your arrival at {when} recorded. New booking BK-{NEW} at {hc['name']} from "
               f"{iso(c_in)} to {iso(c_out)}: ${m(rate_c)} per night, ${m(total_c)} in total, charged to "
               f"{card['label']}. Ticket {ticket['id']} is closed."),
        assertions=[note_on(ticket["id"]),
                    reports(cancelled(), fee_fact(fee, CANCELLED), refund_fact(refund, CANCELLED),
                            *dates_changed(b, cin, cout, total_b),
                         fact(f"BK-{NEW}", BOOKED), *booked_amounts(rate_c, total_c, (c_out - c_in).days),
                            card_said(t, card)),
                    right_stay_cancelled(a, b), dates_not_on_others(b, cin, cout, [a, booked]),
                    old_start_not_new(s, b, cin, cout),
                    *ticket_closed(ticket["id"]),
                    *asked_done(g, stays=[a, b, booked])],
        wrong=[drop(k_arrival, note="forgets the late-arrival time"),
               replace({k_move: call("change_booking_dates", booking_id=b["id"], check_in=two_days_later[0],
                                     check_out=two_days_later[1])},
                       tag="wrong_amount", note="moves the stay by two days instead of one"),
               drop(k_book, note="never books the new hotel"),
               drop(k_close, note="leaves the ticket open")],
        kind="multi_step", difficulty="hard",
        skills=["verification", "cancellations", "fees", "date_change", "late_arrival", "new_booking",
                "travel_policy", "tickets"],
    )


CARD_CHARGED = "policy, New bookings: tell the traveller the card charged: the one the booking was paid with, not another"
CHARGE_CUES = ["charg", "paid", "pay ", "paying", "billed", "bill ", "debit", "put on", "put it on", "went on",
               "goes on", "placed on", "booked on", "booked with", "booked using", "using your", "using the", "with your"]
# what says another card was not the one: "your Visa ending 4699 has expired, so I used the Amex"
NOT_CHARGED_CUES = ["not", "instead", "rather", "expired", "inactive", "on file", "also have", "other", "declin",
                    "no longer", "isn't", "cannot", "can't", "couldn't", "unusable", "invalid", "stays", "remains",
                    "unchanged", "untouched", "kept", "unused", "wasn't", "was not"]


def other_card_charged(t: dict[str, Any], used: dict[str, Any]) -> dict[str, Any]:
    """`says_not`: one of the traveller's other cards said as the card charged ("charged to your Visa Corporate ending
    4699" when the Amex ending 5461 paid, or the expired card): its last four digits, or its kind (corporate,
    personal) and brand where the card used has another, bound by a charge word nearer than a word that sets it
    aside ("not", "instead", "expired"). Naming it as the card not used passes."""
    def kind(card: dict[str, Any]) -> str:
        return "corporate" if card["kind"] == "corporate_card" else "personal"

    brand = used["label"].split()[0]
    said: list[str] = []
    for card in t["cards"]:
        if card["id"] == used["id"]:
            continue
        said.append(card["label"].rsplit(" ", 1)[1])
        if kind(card) != kind(used):
            said += [f"{kind(card)} card", f"{kind(card)} {card['label'].split()[0]}"]
        if card["label"].split()[0] != brand:
            said.append(card["label"].split()[0])
    return says_not(*[claims(CARD_CHARGED, x, owner=CHARGE_CUES, rivals=NOT_CHARGED_CUES) for x in dict.fromkeys(said)],
                    why=CARD_CHARGED)


def card_said(t: dict[str, Any], used: dict[str, Any]) -> dict[str, Any]:
    """The card a new booking was charged to, as the policy has the agent tell it: its last four digits or its label,
    or its brand or kind (corporate, personal) where no other card of the traveller shares them ("charged to your
    corporate Visa"). That another card is not said as the one charged, `other_card_charged` checks."""
    brand, digits = used["label"].split()[0], used["label"].rsplit(" ", 1)[1]
    kind = "corporate" if used["kind"] == "corporate_card" else "personal"
    rest = [c for c in t["cards"] if c["id"] != used["id"]]
    aliases = [used["label"], f"{brand} ending {digits}"]
    if all(c["kind"] != used["kind"] for c in rest):
        aliases += [f"{kind} card", f"{kind} {brand}", f"{brand} {kind}"]
    if all(c["label"].split()[0] != brand for c in rest):
        aliases += [f"your {brand}", f"{brand} card"]
    return fact(digits, CARD_CHARGED, *dict.fromkeys(aliases))


@template("a new booking at a preferred hotel within the cap (an expired card on file)")
def new_booking_preferred(s: TravelScene, n: int) -> TaskSpec:
    company = s.pool.company()
    t = s.person(company_id=company, cards=("corporate", "expired_personal"))
    room = ["standard", "deluxe"][n % 2]
    p = s.pick(preferred_within_cap(company, room) or preferred_within_cap(company))
    hotel, city = CAT.hotel(p), CAT.city(CAT.hotel(p))
    other_h = CAT.sibling(hotel) or next(h for h in CAT.hotels.values() if h["city_id"] == city["id"] and h["id"] != hotel["id"])
    other_p = CAT.plan(other_h["id"], code(p)) or CAT.plan(other_h["id"], "standard")
    nonref = CAT.plan(hotel["id"], code(p), "nonrefundable")
    cin = s.upcoming(10, 60)
    # at least two nights: with one, the nightly rate would equal the total and a reply could swap them
    cout = cin + timedelta(days=max(2, s.rng.randint(1, 4)))
    rate = CAT.rate(company, p)
    total = stay_total(rate, (cout - cin).days)
    card = t["cards"][0]
    room_name = CAT.room(p)["name"]
    stay = {"traveller_id": t["id"], "check_in": iso(cin), "check_out": iso(cout), "payment_method_id": card["id"]}
    g = Golden()
    v = verify(g, t)
    g.add("get_traveller", traveller_id=t["id"])
    g.add("get_company_policy", company_id=company)
    g.add("search_hotels", city=city["name"], company_id=company)
    g.add("get_hotel", hotel_id=hotel["id"])
    g.add("quote_stay", traveller_id=t["id"], rate_plan_id=p["id"], check_in=iso(cin), check_out=iso(cout))
    k = g.add("create_booking", rate_plan_id=p["id"], **stay)
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, heading to {city['name']} for a client workshop.",
            goal=f"Book a {room_name} on the flexible rate at {hotel['name']} from {iso(cin)} to {iso(cout)}.",
            first_message=f"Please book me a {room_name} at {hotel['name']} from {iso(cin)} to {iso(cout)}, "
                          "flexible rate.",
            facts={**identity(t), "hotel": hotel["name"], "room": room_name, "rate": "Flexible",
                   "dates": f"{iso(cin)} to {iso(cout)}", "card_to_use": card["label"]},
            wants=[hotel["name"], room_name, "book", "booking", iso(cin), iso(cout)],
        ),
        patch=s.patch(), golden=g,
        reply=f"Booked: BK-{NEW} at {hotel['name']}, {room_name}, Flexible rate, {iso(cin)} to {iso(cout)}. With your "
              f"company's preferred-hotel discount the rate is ${m(rate)} per night, ${m(total)} in total, charged to "
              f"{card['label']}.",
        assertions=[reports(fact(f"BK-{NEW}", BOOKED), *booked_amounts(rate, total, (cout - cin).days), card_said(t, card)),
                    *asked_done(g), other_card_charged(t, card)],
        wrong=[replace({k: call("create_booking", rate_plan_id=other_p["id"], **stay)},
                       tag="wrong_entity", note="books the similarly named hotel in the same city"),
               replace({k: call("create_booking", rate_plan_id=nonref["id"], **stay)},
                       tag="wrong_entity", note="books the non-refundable plan"),
               drop(v, note="books without verifying")],
        kind="multi_step", difficulty="medium", skills=["verification", "new_booking", "travel_policy"],
    )


# -- templates: approval ----------------------------------------------------------------------------------

DOWNGRADE_FROM = {"deluxe": ["standard"], "junior_suite": ["standard", "deluxe"], "suite": ["deluxe", "junior_suite"]}


def downgrade_booking(s: TravelScene, t: dict[str, Any], high: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """An upcoming flexible booking in a pricier room, and the cheaper flexible plan the traveller wants."""
    company = t["company_id"]

    def fits(p: dict[str, Any]) -> bool:
        return flex(p) and code(p) in high and CAT.rate(company, p) <= CAT.cap(company, CAT.hotel(p))

    b = s.booking(t, s.pick(CAT.plans_where(fits)), s.upcoming(10, 60), s.rng.randint(2, 4))
    return b, CAT.plan(b["hotel_id"], DOWNGRADE_FROM[b["room"]["code"]][0])


def downgrade_numbers(t: dict[str, Any], b: dict[str, Any], low: dict[str, Any]) -> tuple[float, float, float]:
    """(new nightly rate, new total, refund) of moving booking `b` to plan `low`."""
    rate = CAT.rate(t["company_id"], low)
    total = stay_total(rate, b["nights"])
    return rate, total, money(b["total_amount"] - total)


WAITS_DOWNGRADE = ("policy, Approvals: the downgrade waits for the manager's approval, so nothing is changed or "
                   "refunded yet, and nothing is turned down")


@template("a downgrade with no approval on file: request it; booking and payments must stay unchanged")
def downgrade_request_approval(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    b, low = downgrade_booking(s, t, ("deluxe", "junior_suite", "suite"))
    rate, _total, refund = downgrade_numbers(t, b, low)
    low_name = CAT.room(low)["name"]
    ticket = s.ticket(t, b, "Switch to a cheaper room", "booking_change",
                      f"I'd like to move to a {low_name} and get the difference back.",
                      TODAY - timedelta(days=1)) if n % 2 == 0 else None
    if n % 4 == 1:  # an older, unrelated approval on file
        past = s.booking(t, s.pick(CAT.plans_where(lambda p: code(p) == "suite")), TODAY - timedelta(days=90), 2,
                         "completed", invoice="paid")
        s.approval(t, "out_of_policy", "approved", past["nightly_rate"], plan=past["plan"], check_in=past["check_in"],
                   check_out=past["check_out"], note="Approved: board meeting", decided=TODAY - timedelta(days=120),
                   requested=TODAY - timedelta(days=121))
    manager = t["manager"]
    g = Golden()
    verify(g, t)
    g.add("get_booking", booking_id=b["id"])
    g.add("get_hotel", hotel_id=b["hotel_id"])
    g.add("list_approvals", traveller_id=t["id"])
    g.add("get_traveller", traveller_id=t["id"])
    k_request = g.add("request_approval", traveller_id=t["id"], kind="downgrade_refund",
                      reason=f"Traveller asks to move to a {low_name}", booking_id=b["id"], rate_plan_id=low["id"])
    assertions = [unchanged_booking(b["id"]), no_refund(b["id"]),
                  exists("approvals", id=f"AP-{NEW}", booking_id=b["id"], kind="downgrade_refund", status="pending"),
                  reports(manager_asked(t)),
                  # the switch and its refund wait for the manager: not done ("refunded", "you're now in the
                  # Standard King"), not refused ("the request was rejected")
                  *[outcome(v, "pending", WAITS_DOWNGRADE, record=[b["id"]]) for v in ("downgrade", "switch", "change",
                                                                                       "refund")],
                  not_done(WAITS_DOWNGRADE, REFUND_DONE, CHANGED_DONE, APPROVED_DONE),
                  says_not(claims("", *now_in(low_name)), claims("", *REJECTED), why=WAITS_DOWNGRADE),
                  says_not(fact(m(refund), "", owner=CHARGE_WORDS, rivals=REFUND_WORDS + REDUCE_WORDS),
                           why=WAITS_DOWNGRADE + " (the difference comes back to the card, it is not charged)"),
                  rooms_said_as_target(WAITS_DOWNGRADE + " (the room asked for, not the booked one or another)",
                                       b["room"]["name"], *other_rooms(b, b["room"]["name"], low_name),
                                       never=tuple(other_rooms(b, b["room"]["name"], low_name)), promised=True)]
    wrong = [append(call("change_room_type", booking_id=b["id"], rate_plan_id=low["id"]), tag="skipped_approval",
                    note="downgrades and refunds without the manager"),
             drop(k_request, note="tells the traveller no but never asks the manager")]
    if ticket:
        k_note = g.add("add_ticket_note", ticket_id=ticket["id"],
                       note=f"Downgrade to {low_name} needs manager approval; request AP-{NEW} sent to "
                            f"{manager['name']}. Booking unchanged.")
        assertions.insert(0, note_on(ticket["id"]))
        wrong.append(drop(k_note, note="no note on the traveller's ticket"))
    mention = f" I opened ticket {ticket['id']} about it." if ticket else ""
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, trying to save the project budget; expects the change to be instant.",
            goal=f"Move booking {b['id']} to a {low_name} and get the price difference back.",
            first_message=f"Hi, please switch my booking {b['id']} to a {low_name} and refund me the difference."
                          + mention,
            facts={**identity(t), "booking_id": b["id"], "new_room": low_name,
                   **({"ticket_id": ticket["id"]} if ticket else {})},
            wants=[b["id"], low_name, "approval", "request", "manager", manager["last_name"], "downgrade", "note"],
            instructions="You have no approval from your manager yet. Accept that the change waits for it.",
        ),
        patch=s.patch(), golden=g,
        reply=f"A room downgrade refunds money to the card, so it needs your manager's approval first. I've sent "
              f"request AP-{NEW} to {manager['name']}; your booking {b['id']} and its payment stay unchanged for now. "
              f"Once it's approved we'll move you to the {low_name} at ${m(rate)} per night and refund ${m(refund)}.",
        assertions=assertions, wrong=wrong,
        kind="approval", difficulty="hard",
        skills=["verification", "room_change", "approvals", "refunds"] + (["tickets"] if ticket else []),
    )


@template("a downgrade with an approved request: change the room under the approval; partial refund recorded")
def downgrade_with_approval(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    b, low = downgrade_booking(s, t, ("junior_suite", "suite"))
    alt = CAT.plan(b["hotel_id"], DOWNGRADE_FROM[b["room"]["code"]][1])
    rate, total, refund = downgrade_numbers(t, b, low)
    ap = s.approval(t, "downgrade_refund", "approved", refund, booking=b, plan=low,
                    note="Approved: saves budget", decided=TODAY - timedelta(days=1))
    ticket = s.ticket(t, b, "Downgrade my room", "booking_change", "Waiting for my manager to approve the downgrade.",
                      TODAY - timedelta(days=3))
    low_name = CAT.room(low)["name"]
    g = Golden()
    verify(g, t)
    g.add("get_ticket", ticket_id=ticket["id"])
    g.add("get_booking", booking_id=b["id"])
    g.add("list_approvals", traveller_id=t["id"])
    g.add("get_hotel", hotel_id=b["hotel_id"])
    k = g.add("change_room_type", booking_id=b["id"], rate_plan_id=low["id"], approval_id=ap["id"])
    k_note = g.add("add_ticket_note", ticket_id=ticket["id"],
                   note=f"Downgraded to {low_name} under approval {ap['id']}; refunded {m(refund)}.")
    g.add("update_ticket_status", ticket_id=ticket["id"], status="closed")
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, relieved the manager finally signed off, wants it done now.",
            goal=f"Have booking {b['id']} moved to a {low_name} under the approved request, get the refund, close "
                 f"ticket {ticket['id']}.",
            first_message=f"My manager approved the downgrade of booking {b['id']} to a {low_name} yesterday "
                          f"(ticket {ticket['id']}). Can you make the change now, and then close the ticket?",
            facts={**identity(t), "booking_id": b["id"], "ticket_id": ticket["id"], "new_room": low_name,
                   "close_ticket": "yes, once the change is made"},
            wants=[b["id"], ticket["id"], low_name, "downgrade", "change", "move", "close", "note"],
        ),
        patch=s.patch(), golden=g,
        reply=f"Done under approval {ap['id']}: booking {b['id']} is now a {low_name} at ${m(rate)} per night, new total "
              f"${m(total)}, and ${m(refund)} is refunded to {b['card']['label']}. Ticket {ticket['id']} is closed.",
        assertions=[note_on(ticket["id"]),
                    exists("transactions", booking_id=b["id"], kind="refund", approval_id=ap["id"]),
                    reports(fact(m(refund), CHANGED + " (the amount refunded for the downgrade)",
                                 owner=REFUND_WORDS + REDUCE_WORDS,
                                 rivals=[*CHARGE_WORDS, "total", "per night", "a night", "nightly", "rate"])),
                    # made under the approval now: not "I couldn't apply it yet", "still waiting for approval"
                    *asked_done(g, verbs={"change_room_type": ("downgrade", "booking_id")}),
                    *ticket_closed(ticket["id"]),
                    outcome("refund", "done", ASKED_DONE, record=[b["id"]]),
                    outcome("apply", "done", ASKED_DONE, record=[ap["id"], b["id"]]), approved_said_pending(ap["id"]),
                    rooms_said_as_target(CHANGED + " (the room the booking moved to, not the old one or another)",
                                         b["room"]["name"], *other_rooms(b, b["room"]["name"], low_name),
                                         never=tuple(other_rooms(b, b["room"]["name"], low_name)))],
        wrong=[replace({k: call("change_room_type", booking_id=b["id"], rate_plan_id=low["id"])},
                       tag="skipped_approval", note="makes the change without recording the approval"),
               replace({k: call("change_room_type", booking_id=b["id"], rate_plan_id=alt["id"])},
                       tag="wrong_entity", note="moves to a room the approval does not cover"),
               drop(k_note, note="no note on the ticket")],
        kind="approval", difficulty="hard", skills=["verification", "room_change", "approvals", "refunds", "tickets"],
    )


# the manager's decision notes, and the word of each that a paraphrase of it keeps
DENIALS = [("Denied: the client pays the room rate, keep the booking as is", "client"),
           ("Denied: downgrades are frozen until the quarter closes", "quarter"),
           ("Denied: the project budget already covers this room", "budget")]


DENIED_DOWNGRADE = ("policy, Approvals (denied): the manager denied the downgrade, so nothing is changed or refunded; "
                    "the contest is with the senior team")


# a senior agent's call-back promised in another time than the ticket desk's one business day (number words are
# digits once normalised: "within three business days"); "24 hours" and "the next business day" say the same
OTHER_CALLBACK = (*(f"{k} {unit}" for k in range(2, 11) for unit in ("business days", "working days")),
                  *(f"{w} {k} days" for k in range(2, 11) for w in ("within", "in")),
                  "within 48 hours", "within 72 hours", "within 12 hours", "within 1 hour", "within 2 hours",
                  "within the hour", "within a week", "within 1 week", "within 2 weeks", "within a few days",
                  "in a few days", "within a couple of days", "in a couple of days", "within several days")
CALLBACK_WHY = ("policy, Support tickets: after escalating, a senior agent contacts the traveller within one business "
                "day, no other time")


APPROVED_SAID_PENDING = [
    "still pending", "is pending", "pending approval", "pending your manager", "pending manager", "awaiting approval",
    "awaiting your manager", "awaiting a decision", "waiting for approval", "waiting for your manager",
    "waiting on your manager", "not yet approved", "not been approved", "yet to be approved", "has not approved",
    "has not yet approved", "yet to approve", "not yet decided", "no decision yet", "still with your manager",
    "still under review", "is under review"]


def approved_said_pending(ap_id: str) -> dict[str, Any]:
    """`says_not`: the approval on file, already approved, said to be still waiting for the manager ("your approval
    AP-5010 is still pending, so ..."), which the done outcome of the write made under it does not read."""
    why = f"policy, Approvals: {ap_id} is approved (the manager decided), not pending"
    return says_not(claims(why, *APPROVED_SAID_PENDING), why=why)


def denied_said_pending(t: dict[str, Any]) -> dict[str, Any]:
    """`says_not`: a denied approval said to be still with the manager ("your downgrade request is still pending
    with your manager"); the case now waits on the senior team, which a reply may say."""
    manager = t["manager"]
    who = ["your manager", manager["last_name"], manager["name"], f"{manager['first_name']}"]
    phrases = [f"{x} is {p}pending" for x in ("request", "downgrade", "approval", "downgrade request",
                                               "approval request") for p in ("", "still ", "currently ")]
    phrases += [f"{verb} {w}" for w in who for verb in (
        "pending with", "still with", "pending", "awaiting", "waiting for", "waiting on", "awaiting a decision from",
        "awaiting an answer from", "awaiting a response from", "waiting to hear from", "not yet heard from",
        "not heard back from")]
    phrases += [f"{w} {verb}" for w in who for verb in (
        "has not decided", "has not yet decided", "has yet to decide", "has not responded", "has not yet responded",
        "has yet to respond", "is still reviewing", "is reviewing", "is still deciding", "has not answered",
        "has not yet answered", "has not replied", "has not yet replied")]
    phrases += ["pending approval", "awaiting approval", "still pending", "no decision yet", "not yet been decided",
                "not been decided", "yet to be decided", "not decided yet", "decision is pending", "still undecided"]
    return says_not(claims(DENIED_DOWNGRADE + " (the manager has already decided)", *phrases), why=DENIED_DOWNGRADE)


@template("approval denied: no change; the traveller contests the denial, so the case is escalated")
def downgrade_denied_escalate(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    b, low = downgrade_booking(s, t, ("deluxe", "junior_suite", "suite"))
    _rate, _total, refund = downgrade_numbers(t, b, low)
    note, gist = DENIALS[n % 3]
    ap = s.approval(t, "downgrade_refund", "denied", refund, booking=b, plan=low, note=note,
                    decided=TODAY - timedelta(days=1))
    ticket = s.ticket(t, b, "Room downgrade", "approval", "Asked my manager for a cheaper room.",
                      TODAY - timedelta(days=4)) if n % 2 == 0 else None
    tid = ticket["id"] if ticket else f"T-{NEW}"
    low_name = CAT.room(low)["name"]
    g = Golden()
    verify(g, t)
    g.add("get_booking", booking_id=b["id"])
    g.add("list_approvals", traveller_id=t["id"])
    if not ticket:
        g.add("create_ticket", traveller_id=t["id"], subject="Contested downgrade denial", category="approval",
              booking_id=b["id"])
    k_escalate = g.add("escalate_ticket", ticket_id=tid, reason="Traveller contests the manager's denial")
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, convinced the downgrade makes sense and unhappy with the manager's answer.",
            goal=f"Get booking {b['id']} downgraded to a {low_name}; if refused, have the case escalated.",
            first_message=f"I want my booking {b['id']} moved to a {low_name} with the difference refunded. My "
                          "manager should have answered by now. If they turned it down, I want to contest that "
                          "decision with someone senior.",
            facts={**identity(t), "booking_id": b["id"], "new_room": low_name,
                   "contest_a_denial": "yes, with someone senior", **({"ticket_id": ticket["id"]} if ticket else {})},
            wants=[b["id"], tid, "escalate", "escalation", "senior", "supervisor", "contest", "ticket"],
        ),
        patch=s.patch(), golden=g,
        reply=f"Your manager turned down the downgrade request {ap['id']} (\"{note.removeprefix('Denied: ')}\"), so "
              f"booking {b['id']} stays as it is. I've passed ticket {tid} to our senior travel team; a senior agent "
              "will contact you within one business day.",
        assertions=[unchanged_booking(b["id"]), no_refund(b["id"]),
                    exists("tickets", id=tid, status="escalated", booking_id=b["id"]),
                    reports(fact(gist, "policy, Approvals (denied): tell the traveller the manager's decision note",
                                 may_be_negated=True),
                         fact("business day", "policy, Support tickets: after escalating, tell the traveller a senior "
                                              "agent will contact them within one business day", "working day",
                              "24 hours")),
                    # denied and handed on to the senior team: not done ("waiting" on the senior team is true)
                    *[outcome(v, "not_done", DENIED_DOWNGRADE, record=[b["id"]])
                      for v in ("downgrade", "move", "switch", "change", "refund")],
                    not_done(DENIED_DOWNGRADE, REFUND_DONE, CHANGED_DONE, APPROVED_DONE),
                    says_not(claims("", *now_in(low_name)), why=DENIED_DOWNGRADE),
                    denied_said_pending(t), says_not(claims(CALLBACK_WHY, *OTHER_CALLBACK), why=CALLBACK_WHY)],
        wrong=[append(call("change_room_type", booking_id=b["id"], rate_plan_id=low["id"]), tag="skipped_approval",
                      note="downgrades despite the denial"),
               drop(k_escalate, note="explains the denial but does not escalate")],
        kind="approval", difficulty="hard", skills=["verification", "approvals", "escalation", "tickets"],
    )


# How an agent says which condition of "within policy" a stay fails: phrases, never "limit" or
# "maximum" alone (a stay's length and an extension have limits too).
OVER_CAP_WORDINGS = [
    "ceiling", "nightly limit", "per night limit", "night limit", "rate limit", "price limit", "spending limit",
    "company limit", "company's limit", "policy limit", "limit for", "over the limit", "above the limit",
    "exceeds the limit", "exceed the limit", "beyond the limit", "maximum nightly", "nightly maximum", "maximum rate",
    "maximum allowed", "allowed maximum", "maximum per night", "over the maximum", "above the maximum",
    "exceeds the maximum", "allows up to", "allowed up to", "over budget", "above budget", "travel budget",
    "more per night than", "more than your travel policy allows", "more than your policy allows",
    "more than the policy allows", "more than your company allows", "limit", "exceed",
]
# the reasons a sloppy reply gives for an out-of-policy stay that are not its own
WITHIN_CAP_CLAIMS = ["within your cap", "within the cap", "within your company's cap", "under the cap", "under your cap",
                     "below the cap", "below your cap", "within the limit", "within your limit", "under the limit"]
WITHIN_POLICY_CLAIMS = ["within policy", "within your policy", "within the policy", "within your travel policy",
                        "within your company's policy", "in policy", "complies with", "is in line with your policy"]
OVER_CAP_CLAIMS = ["above the cap", "above your cap", "over the cap", "over your cap", "exceeds the cap",
                   "exceeds your cap", "exceed your cap", "above your company's cap", "over your company's cap",
                   "over the limit", "above the limit", "exceeds the limit", "exceeds your limit", "too expensive"]
NOT_PREFERRED_CLAIMS = ["not a preferred", "not one of your company's preferred", "not one of the preferred",
                        "not on the preferred", "non preferred", "not preferred", "not among the preferred",
                        "not on your company's preferred", "isn't a preferred", "is not a preferred"]
IS_PREFERRED_CLAIMS = ["is a preferred hotel", "is one of your company's preferred", "is on the preferred",
                       "is one of the preferred"]
NOT_PREFERRED_WORDINGS = [
    "negotiated", "approved hotel", "approved list", "hotel list", "partner hotel", "contracted", "designated hotel",
]


def out_of_policy_plan(s: TravelScene, company: str, n: int) -> tuple[dict[str, Any], str]:
    """A plan that is out of the company's policy, and why: above the cap, or a non-preferred hotel."""
    if n % 2 == 0:
        return s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("deluxe", "junior_suite", "suite")
                                      and CAT.rate(company, p) > CAT.cap(company, CAT.hotel(p))
                                      and (not CAT.preferred_in_city(company, CAT.hotel(p)["city_id"])
                                           or CAT.discount(company, p["hotel_id"]) > 0))), "cap"
    return s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard"
                                  and CAT.rate(company, p) <= CAT.cap(company, CAT.hotel(p))
                                  and CAT.preferred_in_city(company, CAT.hotel(p)["city_id"])
                                  and CAT.discount(company, p["hotel_id"]) == 0)), "preferred"


CAP_WORDS = ["cap", "limit", "maximum", "ceiling", "allows up to", "allowed up to", "budget", "policy allows"]
STAY_RATE_WORDS = ["rate", "cost", "price", "priced", "charges", "room", "suite", "king", "queen", "twin", "above", "over",
                   "exceed", "more than", "higher", "vs", "versus", "compared", "against", "while", "whereas", "but"]


def cap_and_rate_swapped(rate: float, cap: float, room: str) -> dict[str, Any]:
    """`says_not`: the company's cap and the stay's nightly rate said in each other's place ("your cap is $371.00 and
    this room is $240.00 a night"), each bound by the nearest of the cap's words and the stay's."""
    why = DECLINED + " (the stay's rate is above the company's cap: the two amounts in their own roles)"
    stay = [*STAY_RATE_WORDS, room.lower()]
    above = ["above", "over", "exceed", "more than", "higher"]
    return says_not(claims(why, m(rate), owner=CAP_WORDS, rivals=stay),
                    claims(why, m(cap), owner=[w for w in stay if w not in above], rivals=[*CAP_WORDS, *above]), why=why)


WAITS_BOOKING = "policy, Approvals (none on file): nothing is booked until the manager approves"
ASKED_AS = ("policy, Approvals: an approval covers exactly the rate plan and dates asked for: the request is for the "
            "room, plan and dates the traveller gave, not others")


def asked_for(names: list[str]) -> list[str]:
    """A room or plan said as what the approval request is for ("asked her to approve the Standard King", "a
    request for the Advance Saver rate"); an alternative offered ("the Standard King would be within the cap") is
    none."""
    return [f"{v} {a} {x}" for x in names for v in ("approve", "approval for", "approval of", "request for",
                                                    "requested", "requesting", "asked for", "approving")
            for a in ("a", "an", "the", "your", "my", "this")]


@template("out of policy (above the cap or a non-preferred hotel), no approval: request it, book nothing")
def over_cap_booking_request(s: TravelScene, n: int) -> TaskSpec:
    company = s.pool.company()
    t = s.person(company_id=company)
    p, why = out_of_policy_plan(s, company, n)
    hotel, city = CAT.hotel(p), CAT.city(CAT.hotel(p))
    cin = s.upcoming(14, 60)
    cout = cin + timedelta(days=s.rng.randint(1, 3))
    rate, cap = CAT.rate(company, p), CAT.cap(company, hotel)
    room_name = CAT.room(p)["name"]
    others = other_rooms({"hotel_id": hotel["id"]}, room_name)
    manager = t["manager"]
    g = Golden()
    verify(g, t)
    g.add("get_traveller", traveller_id=t["id"])
    g.add("get_company_policy", company_id=company)
    g.add("search_hotels", city=city["name"], company_id=company)
    g.add("get_hotel", hotel_id=hotel["id"])
    g.add("quote_stay", traveller_id=t["id"], rate_plan_id=p["id"], check_in=iso(cin), check_out=iso(cout))
    g.add("list_approvals", traveller_id=t["id"])
    k_request = g.add("request_approval", traveller_id=t["id"], kind="out_of_policy", reason="Traveller's choice of hotel",
                      rate_plan_id=p["id"], check_in=iso(cin), check_out=iso(cout))
    # The reply must say which of the two conditions of "within policy" fails (policy, New
    # bookings), as the policy's own example of a refusal names its condition: "outside the
    # travel policy" alone does not tell the traveller what to change, and the other condition
    # named instead is a wrong reason.
    if why == "cap":
        reason = (f"the rate at {hotel['name']} is ${m(rate)} per night, above your company's cap of ${m(cap)} for "
                  f"{city['name']}")
        rule = fact("cap", DECLINED + " (the rate is above the company's nightly cap)", aliases=OVER_CAP_WORDINGS,
                    may_be_negated=True)
        wrong_reason = [*WITHIN_CAP_CLAIMS, *WITHIN_POLICY_CLAIMS, *NOT_PREFERRED_CLAIMS]
        swapped = [cap_and_rate_swapped(rate, cap, room_name)]
    else:
        swapped = []
        pref = [CAT.hotels[h]["name"] for h in CAT.preferred_in_city(company, city["id"])]
        reason = f"{hotel['name']} is not one of your company's preferred hotels in {city['name']} ({', '.join(pref)})"
        rule = fact("preferred", DECLINED + " (the company has preferred hotels in the city and this is not one)",
                    aliases=NOT_PREFERRED_WORDINGS, may_be_negated=True)
        wrong_reason = [*OVER_CAP_CLAIMS, *WITHIN_POLICY_CLAIMS, *IS_PREFERRED_CLAIMS]
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, who always stays at {hotel['chain']} hotels and wants the same in {city['name']}.",
            goal=f"Stay in a {room_name} (flexible rate) at {hotel['name']} from {iso(cin)} to {iso(cout)}.",
            first_message=f"Book me a {room_name} at {hotel['name']}, flexible rate, {iso(cin)} to {iso(cout)}.",
            facts={**identity(t), "hotel": hotel["name"], "room": room_name, "rate": "Flexible",
                   "dates": f"{iso(cin)} to {iso(cout)}"},
            wants=[hotel["name"], "approval", "request", "manager", manager["last_name"], "book", "booking"],
            instructions="You have no approval yet. If the agent says approval is needed, ask them to request it.",
        ),
        patch=s.patch(), golden=g,
        reply=f"This stay is outside your company's travel policy: {reason}. I've sent approval request AP-{NEW} to your "
              f"manager, {manager['name']}; nothing is booked yet. Once it's approved, we can book it.",
        assertions=[absent("bookings", traveller_id=t["id"]),
                    exists("approvals", id=f"AP-{NEW}", kind="out_of_policy", rate_plan_id=p["id"], check_in=iso(cin),
                           status="pending"),
                    reports(manager_asked(t), rule),
                    # waits for the manager: not booked ("I've booked it", "your reservation is confirmed"), not
                    # turned down. No "approve" outcome: the vocabulary reads "I've sent approval request AP-9001"
                    # as the approval done, so APPROVED_DONE stays
                    *[outcome(v, "pending", WAITS_BOOKING, record=["the stay"]) for v in ("book", "reserve")],
                    not_done(WAITS_BOOKING, APPROVED_DONE),
                    # of the stay asked for: an alternative offered ("the Standard King would be within the cap",
                    # "Lumen Riverside is one of your preferred hotels") is not its condition
                    says_not(claims("", *wrong_reason,
                                    owner=[room_name, *hotel_names(hotel), hotel["name"], "rate", "stay", "it", "this",
                                           "price", "request", "booking"],
                                    rivals=[*others, *(n for h in CAT.hotels.values() if h["city_id"] == city["id"]
                                                       and h["id"] != hotel["id"] for n in (h["name"], *hotel_names(h))),
                                            "alternative", "instead", "other", "cheaper"]),
                             why=DECLINED + " (the condition of the policy the stay fails, not the one it meets)"),
                    says_not(claims(ASKED_AS, *asked_for([*others, "advance saver", "non refundable", "nonrefundable"])),
                             why=ASKED_AS),
                    *filter(None, [off_by_one(ASKED_AS, s, iso(cin), iso(cout))]), *swapped],
        wrong=[append(call("create_booking", traveller_id=t["id"], rate_plan_id=p["id"], check_in=iso(cin),
                           check_out=iso(cout), payment_method_id=t["cards"][0]["id"]),
                      tag="skipped_approval", note="books the out-of-policy stay anyway"),
               drop(k_request, note="refuses without asking the manager")],
        kind="approval", difficulty="hard", skills=["verification", "new_booking", "travel_policy", "approvals"],
    )


@template("out of policy with an approved request on file: book under the approval")
def over_cap_booking_approved(s: TravelScene, n: int) -> TaskSpec:
    company = s.pool.company()
    t = s.person(company_id=company, cards=("corporate", "expired_personal"))
    p, _why = out_of_policy_plan(s, company, n)
    hotel, city = CAT.hotel(p), CAT.city(CAT.hotel(p))
    cin = s.upcoming(14, 60)
    # at least two nights: with one, the nightly rate would equal the total and a reply could swap them
    cout = cin + timedelta(days=max(2, s.rng.randint(1, 3)))
    rate = CAT.rate(company, p)
    total = stay_total(rate, (cout - cin).days)
    ap = s.approval(t, "out_of_policy", "approved", rate, plan=p, check_in=iso(cin), check_out=iso(cout),
                    note="Approved: client insists on this venue", decided=TODAY - timedelta(days=1))
    if n % 4 == 1:  # a denied request for other dates is also on file
        s.approval(t, "out_of_policy", "denied", rate, plan=p, check_in=iso(cin - timedelta(days=21)),
                   check_out=iso(cout - timedelta(days=21)), note="Denied: trip not needed",
                   decided=TODAY - timedelta(days=9), requested=TODAY - timedelta(days=10))
    nonref = CAT.plan(hotel["id"], code(p), "nonrefundable")
    card = t["cards"][0]
    room_name = CAT.room(p)["name"]
    stay = {"traveller_id": t["id"], "check_in": iso(cin), "check_out": iso(cout), "payment_method_id": card["id"]}
    g = Golden()
    v = verify(g, t)
    g.add("get_traveller", traveller_id=t["id"])
    g.add("get_company_policy", company_id=company)
    g.add("search_hotels", city=city["name"], company_id=company)
    g.add("get_hotel", hotel_id=hotel["id"])
    g.add("quote_stay", traveller_id=t["id"], rate_plan_id=p["id"], check_in=iso(cin), check_out=iso(cout))
    g.add("list_approvals", traveller_id=t["id"])
    k = g.add("create_booking", rate_plan_id=p["id"], approval_id=ap["id"], **stay)
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, who got the manager's sign-off for {hotel['name']} and wants it booked.",
            goal=f"Book a {room_name} (flexible) at {hotel['name']} from {iso(cin)} to {iso(cout)} under the approval.",
            first_message=f"My manager approved {hotel['name']} for my trip ({iso(cin)} to {iso(cout)}), a "
                          f"{room_name} on the flexible rate. Please book it.",
            facts={**identity(t), "hotel": hotel["name"], "room": room_name, "rate": "Flexible",
                   "dates": f"{iso(cin)} to {iso(cout)}", "card_to_use": card["label"]},
            wants=[hotel["name"], room_name, ap["id"], "book", "booking", iso(cin), iso(cout)],
        ),
        patch=s.patch(), golden=g,
        reply=f"Booked under approval {ap['id']}: BK-{NEW} at {hotel['name']}, {room_name}, {iso(cin)} to {iso(cout)}, "
              f"${m(rate)} per night, ${m(total)} in total, charged to {card['label']}.",
        assertions=[exists("bookings", id=f"BK-{NEW}", approval_id=ap["id"]),
                    reports(fact(f"BK-{NEW}", BOOKED), *booked_amounts(rate, total, (cout - cin).days), card_said(t, card)),
                    # the approval is on file, so the stay is booked now: not "on hold" nor "awaiting approval"
                    *asked_done(g), other_card_charged(t, card), approved_said_pending(ap["id"])],
        wrong=[replace({k: call("create_booking", rate_plan_id=p["id"], **stay)},
                       tag="skipped_approval", note="books without referencing the approval"),
               replace({k: call("create_booking", rate_plan_id=nonref["id"], **stay)},
                       tag="wrong_entity", note="books the non-refundable plan, which the approval does not cover"),
               drop(v, note="books without verifying")],
        kind="approval", difficulty="hard", skills=["verification", "new_booking", "travel_policy", "approvals"],
    )


@template("late cancellation with an approved fee waiver: cancel with a full refund")
def fee_waiver_approved(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    plan = s.pick(late_plans(lambda p: code(p) in ("standard", "deluxe", "junior_suite")))
    b = s.booking(t, plan, s.late_window_date(plan), s.rng.randint(2, 4))
    fee, _refund = refund_if_cancelled(b)
    ap = s.approval(t, "fee_waiver", "approved", fee, booking=b, note="Approved: trip cancelled by the client",
                    decided=TODAY)
    other = s.booking(t, s.other_city_plan(b["hotel"]["city_id"]), s.upcoming(20, 60), 2)
    g = Golden()
    v = verify(g, t)
    g.add("get_booking", booking_id=b["id"])
    g.add("get_cancellation_quote", booking_id=b["id"])
    g.add("list_approvals", traveller_id=t["id"])
    k = g.add("cancel_booking", booking_id=b["id"], reason="Client cancelled the trip", fee_waiver_approval_id=ap["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, whose client cancelled the {b['city']} trip at the last minute.",
            goal=f"Cancel booking {b['id']} without the late fee, under the manager's approved waiver.",
            first_message=f"I need to cancel booking {b['id']}. It's late, I know, but my manager approved waiving "
                          "the fee this morning.",
            facts={**identity(t), "booking_id": b["id"]},
            wants=[b["id"], ap["id"], "cancel", "cancellation", "waiver", "refund"],
            declines=[],
        ),
        patch=s.patch(), golden=g,
        reply=f"Booking {b['id']} is cancelled. The ${m(fee)} late-cancellation fee is waived under approval {ap['id']}, "
              f"so the full ${m(b['total_amount'])} is refunded to {b['card']['label']}.",
        assertions=[unchanged("bookings", other["id"], "status"),
                    reports(cancelled(), refund_fact(b["total_amount"], CANCELLED)), right_stay_cancelled(b, other),
                    *asked_done(g, stays=[b, other]),
                    outcome("waive", "done", ASKED_DONE, record=[b["id"], ap["id"]]),
                    waived_fee_charged(fee, "policy, Cancellations and fees: under an approved waiver the fee is "
                                            "waived, not charged: the traveller gets the full total back"),
                    approved_said_pending(ap["id"])],
        wrong=[replace({k: call("cancel_booking", booking_id=b["id"], reason="Client cancelled the trip")},
                       tag="skipped_approval", note="cancels without the waiver, so the fee is kept"),
               drop(v, note="cancels without verifying"),
               append(call("cancel_booking", booking_id=other["id"], reason="Client cancelled the trip"),
                      tag="wrong_entity", note="cancels the traveller's other booking as well")],
        kind="approval", difficulty="medium", skills=["verification", "cancellations", "fees", "approvals"],
    )


FEE_NAMES = ("fee", "cancellation fee", "late cancellation fee", "late fee", "cancellation charge", "late charge",
             "penalty", "cancellation penalty", "late cancellation penalty")


def waived_fee_charged(fee: float, why: str, free: bool = False) -> dict[str, Any]:
    """`says_not`: a waived fee said as charged or paid, in the passive ("a $245.00 cancellation fee was charged",
    "$245.00 has been deducted") and by the traveller or the agent ("you paid a $245.00 fee", "I charged the
    $245.00 late fee"). Phrases, not role words: "the $245.00 fee that would have been charged is waived" passes,
    and so does a denial ("you were not charged the $245.00 fee")."""
    amount = f"${m(fee)}"
    said = [amount, *(f"{amount} {name}" for name in FEE_NAMES), *(f"{name} of {amount}" for name in FEE_NAMES)]
    passive = [f"{x} {verb}" for x in said for verb in (
        "was charged", "has been charged", "is charged", "will be charged", "was kept", "has been kept", "is kept",
        "was deducted", "has been deducted", "is deducted", "was withheld", "has been withheld", "was retained",
        "has been retained", "applied", "applies", "was applied", "has been applied", "is applied", "was paid",
        "has been paid", "is payable", "still applies")]
    # (a phrase is matched inside the reply: "you paid a $245.00" also says "you paid a $245.00 cancellation fee")
    active = [f"{who} {verb} {a}{amount}" for who in ("you", "i", "we") for verb in (
        "paid", "have paid", "had to pay", "pay", "will pay", "were charged", "have been charged", "charged",
        "have charged", "charged you", "have charged you", "kept", "have kept", "deducted", "have deducted",
        "withheld", "retained") for a in ("", "a ", "the ")]
    if free:  # no fee at all: the amount taken off the refund ("cancelled, with a $265.00 fee", "minus a $265.00 fee")
        active += [f"{pre} {amount}" for pre in ("with a", "minus a", "minus the", "minus", "less a", "less the",
                                                 "after deducting", "after deducting a", "deducting", "deducting a",
                                                 "incurred a", "incurring a", "incurs a", "subject to a")]
    return says_not(claims(why, *passive, *active), why=why)


FREE_CANCEL = ("policy, Cancellations and fees: the booking was cancelled within its free-cancellation window: no fee "
               "was charged (one night's rate is the fee only after the window)")


def free_cancel_fee(b: dict[str, Any]) -> dict[str, Any] | None:
    """`says_not`: a cancellation made free said to have cost the late fee (one night at the booking's rate): "cancelled,
    with a $265.00 fee", "$265.00 was deducted"; the rule ("after the window the fee would be $265.00") passes."""
    return None if refund_if_cancelled(b)[0] else waived_fee_charged(b["nightly_rate"], FREE_CANCEL, free=True)


QUOTED_REFUND = ("policy, Cancellations and fees: a cancellation today refunds the total less the one-night fee, not "
                 "the whole total")
WAITS_WAIVER = "policy, Cancellations and fees: the booking stays until the manager decides on the waiver"


@template("late cancellation, fee refused, no waiver on file: request one and keep the booking")
def fee_waiver_request(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    plan = s.pick(late_plans(lambda p: code(p) in ("standard", "deluxe")))
    b = s.booking(t, plan, s.late_window_date(plan), s.rng.randint(2, 4))
    fee, refund = refund_if_cancelled(b)
    manager = t["manager"]
    g = Golden()
    verify(g, t)
    g.add("get_booking", booking_id=b["id"])
    g.add("get_cancellation_quote", booking_id=b["id"])
    g.add("list_approvals", traveller_id=t["id"])
    g.add("get_traveller", traveller_id=t["id"])
    k_request = g.add("request_approval", traveller_id=t["id"], kind="fee_waiver",
                      reason="Trip cancelled at short notice; traveller asks to waive the fee", booking_id=b["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, who refuses to pay a fee for a trip the company cancelled.",
            goal=f"Cancel booking {b['id']} without paying the late fee.",
            first_message=f"Please cancel booking {b['id']}, the trip was cancelled by my company. I'm not paying any "
                          "fee for that: if there is one, ask my manager to waive it and leave the booking until they "
                          "decide.",
            facts={**identity(t), "booking_id": b["id"], "accept_the_fee": "no, ask my manager to waive it"},
            wants=["waive", "waiver", "approval", "request", "manager", manager["last_name"]],
            declines=["pay the fee", "accept the fee", "with the fee", "keep the fee"],
            instructions="Keep the booking until your manager decides.",
        ),
        patch=s.patch(), golden=g,
        reply=f"Cancelling booking {b['id']} today would cost a late fee of ${m(fee)} (one night), refunding "
              f"${m(refund)}. Since you don't accept the fee, I've asked your manager, {manager['name']}, to approve a "
              f"fee waiver (request AP-{NEW}). The booking stays as it is until they decide; once approved it can be "
              "cancelled with a full refund.",
        assertions=[unchanged_booking(b["id"]), no_refund(b["id"]),
                    exists("approvals", id=f"AP-{NEW}", kind="fee_waiver", booking_id=b["id"], status="pending"),
                    reports(fee_fact(fee, "policy, Cancellations and fees: tell the traveller the fee before cancelling"),
                         manager_asked(t)),
                    # the cancellation (and its waiver, its refund) waits for the manager's decision
                    *[outcome(v, "pending", WAITS_WAIVER, record=[b["id"]]) for v in ("cancel", "waive", "refund")],
                    not_done(WAITS_WAIVER, REFUND_DONE, APPROVED_DONE, REJECTED),
                    # the refund of a cancellation today is the total less the fee, not the total (which only a waiver
                    # would give back: "once approved, the full $759.00 comes back" passes)
                    says_not(claims(QUOTED_REFUND, m(b["total_amount"]), owner=["refunding", "would refund", "refund today",
                                                                                "refunded today", "back today"],
                                    rivals=["full", "whole", "entire", "waiv", "approv", "once", "if"]),
                             why=QUOTED_REFUND)],
        wrong=[append(call("cancel_booking", booking_id=b["id"], reason="Company cancelled the trip"),
                      note="cancels anyway and keeps the fee"),
               drop(k_request, note="declines without requesting the waiver")],
        kind="approval", difficulty="medium", skills=["verification", "cancellations", "fees", "approvals"],
    )


# -- templates: refusal ----------------------------------------------------------------------------------


@template("refusal: a non-refundable booking cannot change; nothing is cancelled")
def nonrefundable_change_refused(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: p["kind"] == "nonrefundable" and code(p) in ("standard", "deluxe")))
    b = s.booking(t, plan, s.upcoming(10, 50), s.rng.randint(2, 4))
    if n % 2 == 0:
        cin, cout, _ = new_stay(b, 2, b["nights"])
        ask, wish = f"move booking {b['id']} two days later ({cin} to {cout})", {"new_check_in": cin, "new_check_out": cout}
    else:
        ask, wish = f"switch booking {b['id']} to a cheaper room type", {"new_room": "any cheaper room type"}
    g = Golden()
    verify(g, t)
    g.add("get_booking", booking_id=b["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, who booked the cheapest rate without reading the terms.",
            goal=f"Try to {ask}; if impossible, keep the booking (do not cancel it).",
            first_message=f"Hi, could you {ask}?",
            facts={**identity(t), "booking_id": b["id"], **wish, "cancel_if_impossible": "no, keep the booking"},
            instructions="If the agent says nothing would be refunded on cancellation, keep the booking.",
        ),
        patch=s.patch(), golden=g,
        reply=f"I'm sorry: booking {b['id']} is on a non-refundable rate, so its dates and room type cannot be changed. "
              "Cancelling it would not give you any money back, so I've left it as it is.",
        assertions=[unchanged_booking(b["id"]),
                    # the rule, named after a refusal as often as before it ("I can't change a non-refundable
                    # booking"), so a negation before it does not cancel it
                    says(fact("non-refundable", DECLINED + " (non-refundable rates never change dates or room)",
                              aliases=NONREFUNDABLE_WORDINGS, may_be_negated=True)),
                    *[outcome(v, "refused", DECLINED + " (non-refundable rates never change dates or room)",
                              record=[b["id"]])
                      for v in (("move", "change") if n % 2 == 0 else ("switch", "change", "downgrade"))],
                    outcome("cancel", "not_done", "the traveller asked to keep the booking: nothing is cancelled",
                            record=[b["id"]]),
                    outcome("refund", "not_done", "a non-refundable booking kept as it is: nothing is refunded",
                            record=[b["id"]]),
                    not_done(DECLINED + " (a non-refundable booking is left as it is)", CHANGED_DONE, REFUND_DONE)],
        wrong=[append(call("cancel_booking", booking_id=b["id"], reason="Traveller wanted other dates"),
                      note="cancels the non-refundable booking to 'start over'"),
               reply("Sorry, I can't make that change for you.", note="refuses without giving the reason")],
        kind="refusal", difficulty="medium", skills=["verification", "rate_rules", "refusal"],
    )


# Why a non-refundable booking cannot change: the rate named, or its rule ("this rate doesn't allow
# changes"); never "can't be changed" alone, which a refusal without a reason also says.
NONREFUNDABLE_WORDINGS = [
    "nonrefundable", "non refundable", "not refundable", "isn't refundable", "is not refundable", "no refund",
    "advance saver", "saver rate", "advance purchase", "prepaid rate", "pre paid rate", "non changeable",
    "not changeable", "no changes allowed", "no changes are allowed", "no changes permitted", "allows no changes",
    "allow no changes", "doesn't allow changes", "does not allow changes", "doesn't allow any changes",
    "does not allow any changes", "doesn't permit changes", "does not permit changes", "doesn't allow date changes",
    "does not allow date changes", "doesn't allow modifications", "does not allow modifications",
    "rate doesn't allow", "rate does not allow", "rate doesn't permit", "rate does not permit",
    "rate can't be changed", "rate cannot be changed", "terms don't allow", "terms do not allow",
]

PRIVATE_BOOKING = "policy, Identity verification: only the traveller may act on their own bookings; do not look up or reveal another person's booking"


@template("refusal: a verified traveller asks to act on a colleague's booking")
def colleague_booking_refused(s: TravelScene, n: int) -> TaskSpec:
    company = s.pool.company()
    t = s.person(company_id=company)
    colleague = s.person(company_id=company, manager=t["manager"])
    own = s.booking(t, s.pick(CAT.plans_where(lambda p: code(p) == "standard")), s.upcoming(10, 60), 2)
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard"))
    cb = s.booking(colleague, plan, s.free_window_date(plan), 2)
    what, wrong_call = [
        ("cancel", call("cancel_booking", booking_id=cb["id"], reason="Colleague's trip cancelled")),
        ("record a 23:00 arrival on", call("set_arrival_time", booking_id=cb["id"], arrival_time="23:00")),
    ][n % 2]
    first = colleague["first_name"]
    # what reading the colleague's booking would give away (not what the caller's own booking shares with it)
    private = [v for v in [*booking_facts(cb), colleague["email"], colleague["employee_id"]] if v not in booking_facts(own)]
    # The policy lets the agent refuse at once (only the traveller may act on their booking) or
    # verify the caller first: both are right. The caller's verification is on file from the
    # start, so verifying again records nothing and the final state is the same either way;
    # the rules against reading before verifying still hold (`verified_first`).
    s.add("identity_verifications", {"id": s.id("V"), "traveller_id": t["id"], "method": "email_employee",
                                     "verified_at": f"{NOW}T08:55:00Z"})
    g = Golden()
    verify(g, t)
    g.add("list_traveller_bookings", traveller_id=t["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, trying to help a colleague, {colleague['name']}, who is stuck in meetings.",
            goal=f"Get the agent to {what} {first}'s booking {cb['id']}.",
            first_message=f"Hi, I'm {t['name']}. My colleague {colleague['name']} asked me to {what} their booking "
                          f"{cb['id']}; they're stuck in meetings all day.",
            facts={**identity(t), "colleague_booking_id": cb["id"], "colleague": colleague["name"]},
            instructions=f"You are not {first}. Accept a refusal and say you will tell {first}.",
        ),
        patch=s.patch(), golden=g,
        reply=f"I've verified you, {t['first_name']}, but booking {cb['id']} is not one of your bookings, and only the "
              f"traveller can act on a booking: {first} needs to contact us.",
        assertions=[unchanged("bookings", cb["id"]),
                    says(fact("only the traveller", DECLINED + " (only the traveller may act on their own bookings)",
                              "only the traveler", "themselves", "themself", "himself", "herself", "booking holder",
                              "your own", "in person", "personally", "belongs to", "belong to", "another traveller",
                              "another traveler", "another person", "someone else", "privacy", "colleague's booking",
                              "colleagues booking", "not yours", "isn't yours", "not your booking", "not in your name",
                              "isn't in your name", "not one of your", "on behalf of", "their own", "holder", "holds the booking",
                              "who holds it", "his own", "her own", "only the person", "traveller it's for",
                              "traveler it's for", "traveller it is for", "traveler it is for", "only he can", "only she can",
                              "only they can",
                              may_be_negated=True)),
                    # not "refused": the shared vocabulary reads "she can cancel it once she is verified" as waiting
                    outcome("cancel" if n % 2 == 0 else "record", "not_done", PRIVATE_BOOKING, record=[cb["id"]]),
                    *([] if n % 2 == 0 else [not_done(PRIVATE_BOOKING, ARRIVAL_DONE)]),
                    must_not_disclose(*private, why=PRIVATE_BOOKING),
                    # (any call naming the colleague's booking or profile reads it: a cancellation quote, get_traveller)
                    no_call(why=PRIVATE_BOOKING, mentions=[cb["id"]]),
                    no_call(why=PRIVATE_BOOKING, mentions=[colleague["id"]])],
        wrong=[append(wrong_call, tag="wrong_entity", note="acts on the colleague's booking"),
               reply("I'm sorry, I can't help with that request.", note="refuses without the rule")],
        kind="refusal", difficulty="medium", skills=["verification", "privacy", "refusal"],
    )


@template("refusal: service-failure compensation outside 30 days or already given; note on the ticket")
def compensation_refused(s: TravelScene, n: int) -> TaskSpec:
    t = s.person(tier=s.rng.choice(["member", "silver", "gold"]))
    plan = s.pick(CAT.plans_where(lambda p: code(p) in ("standard", "deluxe")))
    nights = s.rng.randint(2, 4)
    late = n % 2 == 0
    check_out = TODAY - timedelta(days=s.rng.randint(38, 80) if late else s.rng.randint(5, 25))
    b = s.booking(t, plan, check_out - timedelta(days=nights), nights, "completed", invoice="issued")
    story, subject = FAILURES[(n + s.rng.randint(0, 4)) % len(FAILURES)]
    ticket = s.ticket(t, b, subject, "service_issue", story + ".", check_out)
    if late:
        reason = (f"the stay checked out on {b['check_out']}, more than 30 days ago; compensation can only be given "
                  "for stays that ended within the last 30 days")
        rule = fact("30 days", DECLINED + " (compensation only for stays that checked out within the last 30 days)",
                    "30 day", "thirty days", "a month ago", "over a month", "more than a month", "one month")
        ask = "I was too busy to follow up until now. What compensation can I get?"
    else:  # compensated already, a few days after the stay
        s.transaction(b, "refund", "service_refund", b["nightly_rate"], check_out + timedelta(days=2))
        s.loyalty(t, GOODWILL_POINTS[t["loyalty_tier"]], "goodwill", b, check_out + timedelta(days=2))
        reason = "this stay already had its compensation, a one-night refund and goodwill points"
        once = DECLINED + " (a booking is compensated only once)"
        # "already" / "again" alone need a word of the compensation near them; a phrase that names it does not
        rule = fact("already", once, "previously", "a second time", "again", may_be_negated=True,
                    near=["compensat", "refund", "point", "goodwill", "received", "given", "paid", "credited"],
                    alternatives=[fact("been compensated", once, "was compensated", "compensated before",
                                       "already compensated", "received compensation", "compensation was already",
                                       "compensation has already", "once per", "only once")])
        ask = "Can I get some compensation for that? I think I deserve more."
    g = Golden()
    verify(g, t)
    g.add("get_ticket", ticket_id=ticket["id"])
    g.add("get_booking", booking_id=b["id"])
    g.add("get_loyalty_account", traveller_id=t["id"])
    k_note = g.add("add_ticket_note", ticket_id=ticket["id"], note=f"Compensation request declined: {reason}.")
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, persistent, hoping for (more) compensation for a stay at {b['hotel']['name']}.",
            goal=f"Get compensation for the problem in ticket {ticket['id']}.",
            first_message=f"{story} at {b['hotel']['name']}, see ticket {ticket['id']}. {ask}",
            facts={**identity(t), "ticket_id": ticket["id"], "booking_id": b["id"], "problem": story},
            declines=[],
            instructions="Accept the refusal once the agent explains the rule.",
        ),
        patch=s.patch(), golden=g,
        reply=f"I'm sorry, I can't offer compensation for booking {b['id']}: {reason}. I've noted this on ticket "
              f"{ticket['id']}.",
        assertions=[note_on(ticket["id"]), reports(rule),
                    # only past the 30 days: where the stay was compensated already, that is the reason ("it has
                    # been compensated before", "one night was refunded on ..."), which the vocabulary would read
                    # as this request done
                    *([outcome(v, "refused", DECLINED + " (no compensation is given)", record=[b["id"]],
                               nouns=["compensation"] if v == "compensate" else []) for v in ("compensate", "refund")]
                      if late else []),
                    # goodwill points "added anyway"; the note the agent adds to the ticket is no compensation
                    *([outcome("add", "refused", DECLINED + " (no goodwill points are given)", record=[b["id"]],
                               others=[*NOTE_NAMES, ticket["id"]], already=[*NOTE_NAMES, ticket["id"]])]
                      if late else []),
                    # the ticket is noted, not closed nor handed on: "I've closed T-5023", "I've escalated it"
                    *[outcome(v, "not_done", "the ticket gets a note; nobody asked to close or escalate it",
                              record=[ticket["id"]]) for v in ("close", "escalate")],
                    not_done(DECLINED + " (no compensation is given)", COMPENSATION_DONE)],
        wrong=[append(call("refund_service_failure", booking_id=b["id"], amount=money(b["nightly_rate"]), reason=subject),
                      note="refunds a night anyway"),
               append(call("add_goodwill_points", traveller_id=t["id"], booking_id=b["id"], points=1000, reason=subject),
                      note="gives goodwill points anyway"),
               drop(k_note, note="declines without a note on the ticket")],
        kind="refusal", difficulty="medium", skills=["verification", "service_failure", "refusal", "tickets"],
    )


# what a reply calls the note it adds to a ticket ("I've added a note to your ticket")
NOTE_NAMES = ["note", "ticket", "comment", "case", "file", "record"]
COMPENSATION_DONE = ["i have refunded", "i refunded", "i have issued a refund", "i have credited", "i have added goodwill",
                     "i have added points", "i have compensated", "i have given you", "i have now refunded",
                     "i have processed a refund", "i have processed the refund"]


# -- templates: verification -------------------------------------------------------------------------------

@template("verification: a wrong employee id first, then the booking id; cancel")
def verify_retry_cancel(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("standard", "deluxe")))
    b = s.booking(t, plan, s.free_window_date(plan), s.rng.randint(1, 3))
    other = s.booking(t, s.same_city_plan(b["hotel"]["city_id"], exclude=b["hotel_id"]), s.upcoming(65, 90), 2)
    _fee, refund = refund_if_cancelled(b)
    wrong_eid = t["employee_id"][:-2] + t["employee_id"][-1] + t["employee_id"][-2]
    if wrong_eid == t["employee_id"]:
        wrong_eid = t["employee_id"][:-1] + str((int(t["employee_id"][-1]) + 3) % 10)
    g = Golden()
    k_verify = verify(g, t, b["id"])
    g.add("get_booking", booking_id=b["id"])
    k = g.add("cancel_booking", booking_id=b["id"], reason="Plans changed")
    verified = ("verify_traveller", {"traveller_id": t["id"]})
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, who never remembers the employee id and gets it wrong at first.",
            goal=f"Cancel booking {b['id']} ({b['city']}, from {b['check_in']}).",
            first_message=f"Hi, please cancel my {b['city']} hotel from {b['check_in']}. I'm {t['email']}, employee id "
                          f"{wrong_eid}.",
            # the employee id the caller believes is theirs: verification with it fails
            facts={**identity(t), "employee_id": wrong_eid, "booking_id": b["id"]},
            wants=[b["id"], "cancel", "cancellation", "refund"],
            declines=[],
            instructions=f"If employee id {wrong_eid} does not work, offer booking id {b['id']} instead.",
        ),
        patch=s.patch(), golden=g,
        reply=f"Thanks, you're verified. Booking {b['id']} at {b['hotel']['name']} is cancelled free of charge and "
              f"${m(refund)} is refunded to {b['card']['label']}.",
        assertions=[reports(cancelled(), refund_fact(refund, CANCELLED)), right_stay_cancelled(b, other),
                    *asked_done(g, stays=[b, other]),
                    no_call("get_booking", why=VERIFY_FIRST, before=verified, booking_id=b["id"]),
                    *filter(None, [free_cancel_fee(b)]),
                    no_call("list_traveller_bookings", why=VERIFY_FIRST, before=verified, traveller_id=t["id"]),
                    # (the right employee id is the answer to the failed attempt)
                    must_not_disclose(t["employee_id"], t["phone"], why=VERIFY_FIRST, before=verified)],
        wrong=[drop(k_verify, note="cancels without a successful verification"),
               replace({k: call("cancel_booking", booking_id=other["id"], reason="Plans changed")},
                       tag="wrong_entity", note="cancels the other stay in the same city")],
        kind="verification", difficulty="medium", skills=["verification", "cancellations"],
    )


PHONES = ["+1 (415) 555-{n}", "+44 20 7946 {n}", "+49 30 901820{d}", "+1 646 555 {n}", "+33 1 42 68 {d}{d}",
          "+61 2 9374 {n}"]


def phone_wordings(phone: str) -> list[str]:
    """Other ways to write a number than its digits (which `+<digits>`, the tool's form, also
    says): as the caller gave it, with or without the `+`, grouped with hyphens as the tool's
    own example is ("+44-20-7946-0018": the normaliser reads only North American numbers as
    phone numbers), and a North American one as 415-555-0142."""
    digits = "".join(ch for ch in phone if ch.isdigit())
    if phone.startswith("+1 "):
        return [f"{digits[1:4]}-{digits[4:7]}-{digits[7:]}"]
    bare = phone.lstrip("+")
    return [bare, bare.replace(" ", "-")]


def old_phone_not_new(old: str) -> dict[str, Any]:
    """`says_not`: the number on file said as the new one ("updated from +1 415 555 1429 to +13480641290",
    "your mobile is now +13480641290"). The profile's numbers are North American (+1 and ten digits),
    which the normaliser writes as +13480641290, or 348_064_1290 for any grouped form."""
    d = old.removeprefix("+1")
    grouped = f"{d[:3]}-{d[3:6]}-{d[6:]}"
    forms = [old, grouped, f"+1 {grouped}"]
    why = CHANGED + " (the new number, not the one on file, is the mobile now)"
    return says_not(claims(why, *[f"{w} {x}" for w in ("to", "now", "new number", "new mobile", "new phone")
                                  for x in forms]), why=why)


@template("verification: located by name and company, verified, phone changed")
def verify_name_phone(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    phone = PHONES[(n + s.rng.randint(0, 5)) % len(PHONES)].format(n=s.rng.randint(1000, 9999), d=s.rng.randint(10, 99))
    digits = "".join(ch for ch in phone if ch.isdigit())
    typo = phone[:-1] + str((int(digits[-1]) + 1) % 10)
    g = Golden()
    g.add("find_traveller", first_name=t["first_name"], last_name=t["last_name"], company_name=t["company"])
    k_verify = g.add("verify_traveller", traveller_id=t["id"], email=t["email"], employee_id=t["employee_id"])
    k = g.add("update_traveller_phone", traveller_id=t["id"], phone=phone)
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']} from {t['company']}, who just moved abroad and got a new mobile number.",
            goal=f"Change the mobile number on the travel profile to {phone}.",
            first_message=f"Hello, this is {t['name']} from {t['company']}. I have a new mobile number, {phone}. Can "
                          "you update my profile?",
            facts={**identity(t), "new_phone": phone},
            wants=[phone, "phone", "number", "mobile", "update", "change"],
        ),
        patch=s.patch(), golden=g,
        reply=f"Thanks, {t['first_name']}, you're verified. Your mobile number is now +{digits}.",
        assertions=[reports(fact(digits, CHANGED + " (the new mobile number on the profile)", *phone_wordings(phone))),
                    old_phone_not_new(t["phone"]), *asked_done(g)],
        wrong=[drop(k_verify, note="updates the profile without verifying"),
               replace({k: call("update_traveller_phone", traveller_id=t["id"], phone=typo)},
                       tag="wrong_amount", note="mistypes the number")],
        kind="verification", difficulty="easy", skills=["verification", "profile"],
    )


NOT_VERIFIED = "policy, Identity verification: if the details do not match, reveal nothing about the profile"
# How an agent says the caller's details failed (or that nothing happens without them): phrases,
# never "verify" or "verified" alone, which "you're verified, but ..." would also say.
NOT_VERIFIED_WORDINGS = [
    "couldn't be verified", "can't be verified", "cannot be verified",
    "could not verify", "couldn't verify", "can't verify", "cannot verify", "unable to verify", "not able to verify",
    "wasn't able to verify", "was not able to verify", "failed to verify", "not verified",
    "verification failed", "failed verification", "verification was unsuccessful", "verification did not",
    "verification didn't", "unsuccessful verification",
    "could not be confirmed", "couldn't be confirmed", "can't be confirmed", "cannot be confirmed",
    "could not confirm", "couldn't confirm", "can't confirm", "cannot confirm", "unable to confirm",
    "not able to confirm", "wasn't able to confirm", "was not able to confirm", "failed to confirm",
    "do not match", "don't match", "does not match", "doesn't match", "did not match", "didn't match", "not match",
    "no match", "mismatch", "don't line up", "doesn't line up", "do not correspond", "does not correspond",
    "don't correspond", "doesn't correspond",
    "aren't the ones", "are not the ones", "isn't the one", "is not the one", "not the ones on", "not on file",
    "isn't on file", "not what we have", "is incorrect", "are incorrect", "was incorrect", "were incorrect",
    "isn't correct", "aren't correct", "is not correct", "are not correct", "wasn't correct",
    "without verifying", "without verification", "without a successful verification", "until you're verified",
    "until you are verified", "until i can verify", "until we can verify",
]


@template("verification fails: nothing about the profile is read, revealed or changed")
def verification_fails_no_action(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard"))
    b = s.booking(t, plan, s.free_window_date(plan), 2)
    impostor = s.person(company_id=t["company_id"], manager=t["manager"])
    own = s.booking(impostor, s.other_city_plan(b["hotel"]["city_id"]), s.upcoming(10, 60), 2)
    want, wrong_call = [
        ("cancel my booking", call("cancel_booking", booking_id=b["id"], reason="Plans changed")),
        ("tell me which hotel and dates I'm booked for", None),
        ("change the dates of my booking to a week later",
         call("change_booking_dates", booking_id=b["id"], check_in=new_stay(b, 7, 2)[0], check_out=new_stay(b, 7, 2)[1])),
    ][n % 3]
    wrong = [reply(f"Your booking {b['id']} is at {b['hotel']['name']} from {b['check_in']} to {b['check_out']}.",
                   note="reveals the booking instead of refusing")]
    if wrong_call:
        wrong.insert(0, append(wrong_call, note="acts although the details never matched"))
    else:
        wrong.append(append(call("verify_traveller", traveller_id=t["id"], email=t["email"], booking_id=b["id"]),
                            note="verifies the caller with details that do not prove who they are"))
    not_verified = ("verify_traveller", {"traveller_id": t["id"]})
    return TaskSpec(
        caller=Caller(
            persona=f"Someone calling as {t['name']} who does not have the right details (it is actually "
                    f"{impostor['name']}, a colleague).",
            goal=f"Get the agent to {want} ({t['name']}'s profile).",
            first_message=f"Hi, this is {t['name']}, {t['email']}. Please {want}.",
            # what the caller gives as "their" details: the email is right, the rest is the impostor's
            facts={"name": t["name"], "company": t["company"], "email": t["email"],
                   "employee_id": impostor["employee_id"], "booking_id": own["id"]},
            instructions="You do not know any other details. If the agent cannot verify you, give up.",
        ),
        patch=s.patch(), golden=[call("find_traveller", email=t["email"])],
        reply="I'm sorry, the details you gave could not be verified against that profile, so I can't share or change "
              "anything on it. The traveller can contact us with their work email and employee id or one of their "
              "booking numbers.",
        assertions=[absent("identity_verifications", traveller_id=t["id"]), unchanged("bookings", b["id"]),
                    says(fact("could not be verified", "policy, Identity verification: the details did not match, "
                                                       "which is why nothing can be done",
                              aliases=NOT_VERIFIED_WORDINGS, may_be_negated=True)),
                    # nothing is done for a caller who is not verified; not "refused": the vocabulary reads "I can't
                    # cancel it until you are verified" as waiting. Not the booking id (it is protected)
                    *[outcome(v, "not_done", NOT_VERIFIED, record=["your booking"])
                      for v in ("cancel", *(("move", "change") if n % 3 == 2 else ()))],
                    not_done(NOT_VERIFIED, VERIFIED_DONE, CHANGED_DONE),
                    must_not_disclose(b["id"], *booking_facts(b), t["employee_id"], t["phone"], why=NOT_VERIFIED),
                    no_call("get_booking", why=NOT_VERIFIED, before=not_verified, booking_id=b["id"]),
                    no_call("list_traveller_bookings", why=NOT_VERIFIED, before=not_verified, traveller_id=t["id"])],
        wrong=wrong,
        kind="verification", difficulty="easy", skills=["verification", "privacy", "refusal"],
    )


# -- templates: ask_user ------------------------------------------------------------------------------------


@template("ask the user: two stays in the same city; ask which one to cancel")
def ask_which_booking_cancel(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard" and p["free_cancel_days"] <= 2))
    city = CAT.city(CAT.hotel(plan))
    p2 = s.rng.choice([plan, s.same_city_plan(city["id"], exclude=plan["hotel_id"])])
    first = s.booking(t, plan, s.upcoming(8, 25), s.rng.randint(1, 3))
    second = s.booking(t, p2, s.upcoming(35, 70), s.rng.randint(1, 3))
    target, keep = (first, second) if n % 2 == 0 else (second, first)
    _fee, refund = refund_if_cancelled(target)
    g = Golden()
    verify(g, t)
    g.add("list_traveller_bookings", traveller_id=t["id"])
    g.add("get_booking", booking_id=target["id"])
    k = g.add("cancel_booking", booking_id=target["id"], reason="Trip no longer needed")
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, who travels to {city['name']} often and forgets there are two trips booked.",
            goal=f"Cancel the {city['name']} stay that starts on {target['check_in']} (only that one).",
            first_message=f"Please cancel my hotel booking in {city['name']}.",
            facts={**identity(t), "stay_to_cancel": f"the one starting {target['check_in']}"},
            wants=[target["id"], target["check_in"], "cancel", "cancellation", "refund"],
            instructions="Do not say which stay until the agent asks.",
        ),
        patch=s.patch(), golden=g,
        reply=f"Booking {target['id']} ({target['check_in']} to {target['check_out']}) is cancelled free of charge; "
              f"${m(refund)} is refunded to {target['card']['label']}. Your other {city['name']} stay from "
              f"{keep['check_in']} is unchanged.",
        assertions=[unchanged("bookings", keep["id"], "status"), reports(cancelled(), refund_fact(refund, CANCELLED)),
                    right_stay_cancelled(target, keep), *asked_done(g, stays=[target, keep]),
                    *filter(None, [free_cancel_fee(target)]),
                    no_call("cancel_booking", why=ASK_RULE, until_asked=["booking", "stay"],
                            ask=f"You have two stays in {city['name']}: which one should I cancel?")],
        wrong=[replace({k: call("cancel_booking", booking_id=keep["id"], reason="Trip no longer needed")},
                       tag="wrong_entity", note="guesses and cancels the other stay"),
               append(call("cancel_booking", booking_id=keep["id"], reason="Trip no longer needed"),
                      note="cancels both stays")],
        kind="ask_user", difficulty="medium", skills=["verification", "cancellations", "clarification"],
    )


@template("ask the user: two active cards; ask which one pays for the new booking")
def ask_card_new_booking(s: TravelScene, n: int) -> TaskSpec:
    company = s.pool.company()
    t = s.person(company_id=company, cards=("corporate", "personal"))
    p = s.pick(preferred_within_cap(company, ["standard", "deluxe"][n % 2]) or preferred_within_cap(company))
    hotel, city = CAT.hotel(p), CAT.city(CAT.hotel(p))
    chosen, other = (t["cards"][0], t["cards"][1]) if n % 2 == 0 else (t["cards"][1], t["cards"][0])
    cin = s.upcoming(10, 60)
    # at least two nights: with one, the nightly rate would equal the total and a reply could swap them
    cout = cin + timedelta(days=max(2, s.rng.randint(1, 4)))
    rate = CAT.rate(company, p)
    total = stay_total(rate, (cout - cin).days)
    room_name = CAT.room(p)["name"]
    stay = {"traveller_id": t["id"], "rate_plan_id": p["id"], "check_in": iso(cin), "check_out": iso(cout)}
    g = Golden()
    v = verify(g, t)
    g.add("get_traveller", traveller_id=t["id"])
    g.add("get_company_policy", company_id=company)
    g.add("search_hotels", city=city["name"], company_id=company)
    g.add("get_hotel", hotel_id=hotel["id"])
    g.add("quote_stay", **stay)
    k = g.add("create_booking", payment_method_id=chosen["id"], **stay)
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, who keeps a corporate and a personal card on the profile.",
            goal=f"Book a {room_name} (flexible) at {hotel['name']} from {iso(cin)} to {iso(cout)}, paid with the "
                 f"{chosen['label']}.",
            first_message=f"Can you book me a {room_name} at {hotel['name']}, flexible rate, from {iso(cin)} to "
                          f"{iso(cout)}?",
            facts={**identity(t), "hotel": hotel["name"], "room": room_name, "rate": "Flexible",
                   "dates": f"{iso(cin)} to {iso(cout)}", "card_to_use": chosen["label"]},
            wants=[hotel["name"], room_name, chosen["label"][-4:], "book", "booking", iso(cin), iso(cout)],
            declines=[],
            instructions="Say which card only when the agent asks.",
        ),
        patch=s.patch(), golden=g,
        reply=f"Booked: BK-{NEW} at {hotel['name']}, {room_name}, {iso(cin)} to {iso(cout)}, ${m(rate)} per night "
              f"(preferred-hotel rate), ${m(total)} in total, charged to your card ending {chosen['label'][-4:]}.",
        assertions=[exists("bookings", id=f"BK-{NEW}", payment_method_id=chosen["id"]),
                    reports(fact(f"BK-{NEW}", BOOKED), *booked_amounts(rate, total, (cout - cin).days),
                            card_said(t, chosen)),
                    *asked_done(g), other_card_charged(t, chosen),
                    no_call("create_booking", why=ASK_RULE, until_asked=["card", "pay"],
                            ask="You have two cards on file: which card should I charge?")],
        wrong=[replace({k: call("create_booking", payment_method_id=other["id"], **stay)},
                       tag="wrong_entity", note="charges the card the traveller did not choose"),
               drop(v, note="books without verifying")],
        kind="ask_user", difficulty="hard", skills=["verification", "new_booking", "travel_policy", "clarification"],
    )


@template("ask the user: the new dates are missing from the request")
def ask_new_dates(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("standard", "deluxe")))
    city = CAT.city(CAT.hotel(plan))
    old = s.booking(t, s.same_city_plan(city["id"]), TODAY - timedelta(days=s.rng.randint(30, 150)), 2, "completed",
                    invoice="paid")
    b = s.booking(t, plan, s.upcoming(12, 45), s.rng.randint(2, 3))
    shift, nights = [(7, b["nights"] + 1), (-3, b["nights"]), (14, b["nights"] - 1), (4, b["nights"] + 2)][n % 4]
    cin, cout, total = new_stay(b, shift, nights)
    g = Golden()
    v = verify(g, t)
    g.add("list_traveller_bookings", traveller_id=t["id"])
    g.add("get_booking", booking_id=b["id"])
    k = g.add("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=cout)
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, rushing between calls, who starts with the request and forgets the details.",
            goal=f"Move the upcoming {city['name']} stay to {cin} - {cout}.",
            first_message=f"I need to move my upcoming hotel stay in {city['name']}.",
            facts={**identity(t), "new_check_in": cin, "new_check_out": cout},
            wants=[b["id"], "change", "move", "dates", cin, cout],
            instructions="Give the new dates only when the agent asks for them.",
        ),
        patch=s.patch(), golden=g,
        reply=f"Booking {b['id']} at {b['hotel']['name']} now runs from {cin} to {cout} ({nights} nights), new total "
              f"${m(total)}; {moved_money(b, total)}.",
        assertions=[reports(*dates_changed(b, cin, cout, total)), dates_not_on_others(b, cin, cout, [old]),
                    old_start_not_new(s, b, cin, cout), *money_not_moved(b, total),
                    *asked_done(g, stays=[b, old], refunded=refunded_by_move(b, total))],
        wrong=[replace({k: call("change_booking_dates", booking_id=b["id"], check_in=cin,
                                check_out=slipped_check_out(b, cin, cout))},
                       tag="wrong_amount", note="gets the length of the new stay wrong"),
               drop(v, note="changes the booking without verifying"),
               reply(f"Your {city['name']} stay {old['id']} ran from {old['check_in']} to {old['check_out']}.",
                     note="reports the old stay in the same city")],
        kind="ask_user", difficulty="medium", skills=["verification", "date_change", "clarification"],
    )


# -- templates: distractor ----------------------------------------------------------------------------------

NAMESAKE = "policy, Profile details: never share one traveller's information with another person"
NAMESAKE_PROFILE = ("policy, Identity verification: a profile needs a verified identity first, and only the verified "
                    "traveller's records are acted on")


@template("distractor: a namesake at another company with a stay in the same city")
def same_name_traveller(s: TravelScene, n: int) -> TaskSpec:
    c1, c2 = s.pool.company(), s.pool.company()
    name = s.pool.name()
    t = s.person(company_id=c1, name=name)
    twin = s.person(company_id=c2, name=name)
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard" and p["free_cancel_days"] <= 2))
    city = CAT.city(CAT.hotel(plan))
    cin = s.upcoming(10, 40)
    b = s.booking(t, plan, cin, 2)
    tb = s.booking(twin, s.same_city_plan(city["id"]), cin + timedelta(days=s.rng.choice([0, 1])), 2)
    _fee, refund = refund_if_cancelled(b)
    verified = ("verify_traveller", {"traveller_id": t["id"]})
    g = Golden()
    g.add("find_traveller", first_name=name[0], last_name=name[1], company_name=t["company"])
    k_verify = g.add("verify_traveller", traveller_id=t["id"], email=t["email"], employee_id=t["employee_id"])
    g.add("list_traveller_bookings", traveller_id=t["id"])
    if n % 2 == 0:
        k = g.add("cancel_booking", booking_id=b["id"], reason="Conference cancelled")
        wrong_call = call("cancel_booking", booking_id=tb["id"], reason="Conference cancelled")
        ask, done = "cancel my hotel", (f"Booking {b['id']} is cancelled free of charge and ${m(refund)} is refunded "
                                        f"to {b['card']['label']}.")
        told = [reports(cancelled(), refund_fact(refund, CANCELLED)), right_stay_cancelled(b, tb)]
        wants = ["cancel", "cancellation", "refund"]
    else:
        k = g.add("set_arrival_time", booking_id=b["id"], arrival_time="22:30")
        wrong_call = call("set_arrival_time", booking_id=tb["id"], arrival_time="22:30")
        ask, done = ("note that I'll arrive at 10:30 pm on the first night",
                     f"I've recorded your arrival at 22:30 on {b['check_in']} for booking {b['id']}.")
        told = [reports(arrival_recorded("22:30"))]
        wants = ["arrival", "record", "note", "22:30", "10:30"]
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']} from {t['company']} (another {t['name']} works at {twin['company']}).",
            goal=f"For the {city['name']} stay from {b['check_in']}: {ask}.",
            first_message=f"Hi, {t['name']} here, from {t['company']}. For my {city['name']} trip starting "
                          f"{b['check_in']}, please {ask}.",
            facts={**identity(t), "stay": f"the {city['name']} stay from {b['check_in']}"},
            wants=[b["id"], *wants],
        ),
        patch=s.patch(), golden=g, reply=f"Thanks, you're verified. {done}",
        assertions=[unchanged("bookings", tb["id"]), *told, *asked_done(g),
                    must_not_disclose(tb["id"], twin["email"], twin["employee_id"], why=NAMESAKE),
                    # the namesake's profile and bookings are never read, before or after verifying the caller
                    no_call("list_traveller_bookings", why=PRIVATE_BOOKING, traveller_id=twin["id"]),
                    no_call("get_booking", why=PRIVATE_BOOKING, booking_id=tb["id"]),
                    no_call("get_cancellation_quote", why=PRIVATE_BOOKING, booking_id=tb["id"]),
                    no_call("get_traveller", why=NAMESAKE_PROFILE, traveller_id=twin["id"]),
                    # nor the caller's own before the verification that tells the two apart
                    no_call("list_traveller_bookings", why=VERIFY_FIRST, before=verified, traveller_id=t["id"]),
                    *filter(None, [free_cancel_fee(b)]),
                    no_call("get_booking", why=VERIFY_FIRST, before=verified, booking_id=b["id"])],
        wrong=[replace({k: wrong_call}, tag="wrong_entity", note="acts on the namesake's booking at another company"),
               drop(k_verify, note="acts without verifying")],
        kind="distractor", difficulty="medium", skills=["verification", "disambiguation"],
    )


@template("distractor: two stays at same-chain hotels in one city; cancel the named one")
def similar_hotel_cancel(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    hotel = s.rng.choice(sorted((h for h in CAT.hotels.values() if CAT.sibling(h)), key=lambda h: h["id"]))
    sib = CAT.sibling(hotel)
    p1, p2 = CAT.plan(hotel["id"], "standard"), CAT.plan(sib["id"], "standard")
    b = s.booking(t, p1, s.free_window_date(p1, 10, 50), s.rng.randint(1, 3))
    other = s.booking(t, p2, s.upcoming(10, 70), s.rng.randint(1, 3))
    # the two hotels share chain and city: the place alone tells them apart ("the Riverside one is cancelled too")
    b["aliases"], other["aliases"] = [place(hotel)], [place(sib)]
    _fee, refund = refund_if_cancelled(b)
    g = Golden()
    v = verify(g, t)
    g.add("list_traveller_bookings", traveller_id=t["id"])
    g.add("get_booking", booking_id=b["id"])
    k = g.add("cancel_booking", booking_id=b["id"], reason="Meeting moved online")
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, with two stays at {hotel['chain']} hotels in {CAT.city(hotel)['name']}.",
            goal=f"Cancel the booking at {hotel['name']} only; keep the one at {sib['name']}.",
            first_message=f"Please cancel my booking at the {hotel['name']}. The meeting moved online.",
            facts={**identity(t), "hotel": hotel["name"], "booking_id": b["id"]},
            wants=[b["id"], hotel["name"], "cancel", "cancellation", "refund"],
            declines=[],
        ),
        patch=s.patch(), golden=g,
        reply=f"Booking {b['id']} at {hotel['name']} ({b['check_in']} to {b['check_out']}) is cancelled free of charge; "
              f"${m(refund)} is refunded to {b['card']['label']}. Your stay at {sib['name']} is unchanged.",
        assertions=[unchanged("bookings", other["id"], "status"), reports(cancelled(), refund_fact(refund, CANCELLED)),
                    *filter(None, [free_cancel_fee(b)]),
                    right_stay_cancelled(b, other), *asked_done(g, stays=[b, other])],
        wrong=[replace({k: call("cancel_booking", booking_id=other["id"], reason="Meeting moved online")},
                       tag="wrong_entity", note="cancels the stay at the similarly named hotel"),
               drop(v, note="cancels without verifying")],
        kind="distractor", difficulty="medium", skills=["verification", "cancellations", "disambiguation"],
    )


@template("distractor: two issued invoices at the same hotel; update the named stay's")
def older_stay_invoice(s: TravelScene, n: int) -> TaskSpec:
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: code(p) == "standard"))
    hotel = CAT.hotel(plan)
    older = s.booking(t, plan, TODAY - timedelta(days=s.rng.randint(22, 30)), 2, "completed", invoice="issued")
    recent = s.booking(t, plan, TODAY - timedelta(days=s.rng.randint(5, 12)), s.rng.randint(1, 3), "completed",
                       invoice="issued")
    inv, oinv = s.invoice_of(recent), s.invoice_of(older)
    po = f"PO-{s.rng.randint(100000, 999999)}"
    g = Golden()
    v = verify(g, t)
    g.add("list_traveller_invoices", traveller_id=t["id"])
    k = g.add("update_invoice_reference", invoice_id=inv["id"], po_number=po)
    return TaskSpec(
        caller=Caller(
            persona=f"{t['name']}, who stayed at {hotel['name']} twice this month.",
            goal=f"Put {po} on the invoice of the stay from {recent['check_in']} to {recent['check_out']}.",
            first_message=f"Can you add PO number {po} to the invoice for my stay at {hotel['name']} from "
                          f"{recent['check_in']} to {recent['check_out']}?",
            facts={**identity(t), "po_number": po,
                   "stay": f"{recent['check_in']} to {recent['check_out']} at {hotel['name']}"},
            wants=[inv["id"], po, "invoice", "add", "update"],
            declines=[],
        ),
        patch=s.patch(), golden=g,
        reply=f"Invoice {inv['id']} for your stay at {hotel['name']} from {recent['check_in']} to "
              f"{recent['check_out']} now carries PO number {po}.",
        assertions=[unchanged("invoices", oinv["id"]),
                    reports(fact(po, CHANGED + " (the purchase-order number now on the invoice)")),
                    reference_not_on(po, inv, recent, oinv, older), *asked_done(g, rivals={inv["id"]: [oinv["id"]]})],
        wrong=[replace({k: call("update_invoice_reference", invoice_id=oinv["id"], po_number=po)},
                       tag="wrong_entity", note="updates the invoice of the earlier stay at the same hotel"),
               drop(v, note="updates the invoice without verifying")],
        kind="distractor", difficulty="medium", skills=["verification", "invoices", "disambiguation"],
    )


if __name__ == "__main__":
    raise SystemExit(templates.main())
