"""Writes the travel tasks from templates: `python -m tb_env.tasks.travel.generate`.

Each template is a function that builds one scenario instance: the entities it is about
(travellers, their managers and cards, bookings, approvals, invoices, tickets) as the
task's `initial_patch` over the seeded catalogue, the user's side of the conversation,
one golden path, the golden reply, assertions and the wrong paths that must score 0.
Every price, fee and points figure comes from `pricing.py`, the arithmetic the tools use.

Splits never share entities: each split draws names from its own pool, uses its own half
of the seeded companies (`test`: CO-0001..CO-0012, `train`: CO-0013..CO-0024) and its
own id range (`test` from 5001, `train` from 7001). The output is deterministic: one
file per template and split under `tasks/test/` and `tasks/train/`.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml

from . import seed as base
from .pricing import (
    GOODWILL_POINTS,
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
PER_SPLIT = {"test": 4, "train": 2}  # instances of every template
NEW = 9001  # the first id tools give to records they create (tools.NEW_ID_START)

POOLS = {
    "test": {
        "first": ["Amara", "Bastian", "Celeste", "Dario", "Elif", "Florian", "Gianna", "Hugo", "Ilse", "Joaquin",
                  "Kalani", "Lorenzo", "Mireille", "Nikolai", "Odile", "Pieter", "Quentin", "Rosalind", "Soren",
                  "Thea", "Ulrich", "Valentina", "Wendell", "Ximena", "Yannick", "Zofia", "Anouk", "Benedikt",
                  "Cosima", "Desmond"],
        "last": ["Achterberg", "Bellweather", "Castellanos", "Drummond", "Eriksen", "Fairbanks", "Galloway",
                 "Hargreaves", "Iversen", "Jablonski", "Kittredge", "Lombardi", "Marchetti", "Nakashima",
                 "Ostrowski", "Pemberton", "Quintanilla", "Rasmussen", "Sandoval", "Thornbury", "Underhill",
                 "Valdivia", "Whitcombe", "Yamaguchi", "Zeller"],
        "companies": [f"CO-{n:04d}" for n in range(1, 13)],
        "start": 5001,
    },
    "train": {
        "first": ["Aurelio", "Brenna", "Cassius", "Delphine", "Emeric", "Fenna", "Gideon", "Helga", "Ignatius",
                  "Jolene", "Kasimir", "Linnea", "Magnus", "Noemi", "Osvaldo", "Philippa", "Roderick", "Saskia",
                  "Tobias", "Ursula", "Vasco", "Wilhelmina", "Xavier", "Yvette", "Zoltan"],
        "last": ["Abernathy", "Blackwood", "Carrington", "Delacroix", "Everhart", "Fitzgerald", "Greenhalgh",
                 "Holloway", "Ingram", "Jovanovic", "Kensington", "Lindgren", "Montague", "Northcott", "Oyelaran",
                 "Prescott", "Rutherford", "Stavros", "Trevelyan", "Vandermeer"],
        "companies": [f"CO-{n:04d}" for n in range(13, 25)],
        "start": 7001,
    },
}
CARD_BRANDS = ["Amex", "Visa", "Mastercard"]
JOBS = ["Account Executive", "Consultant", "Engineer", "Analyst", "Project Manager", "Sales Director", "Auditor"]
MANAGER_JOBS = ["Head of Operations", "Regional Director", "VP Sales", "Engineering Manager", "Finance Director"]


def m(x: float) -> str:
    """Money as the replies and facts write it."""
    return f"{money(x):.2f}"


def iso(d: date) -> str:
    return d.isoformat()


def call(name: str, **arguments: Any) -> dict[str, Any]:
    return {"name": name, "arguments": arguments}


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

    def within_policy(self, company_id: str, plan: dict[str, Any]) -> bool:
        hotel = self.hotel(plan)
        pref = self.preferred_in_city(company_id, hotel["city_id"])
        return self.rate(company_id, plan) <= self.cap(company_id, hotel) and (not pref or hotel["id"] in pref)

    def sibling(self, hotel: dict[str, Any]) -> dict[str, Any] | None:
        """The other hotel of the same chain in the same city (every city has one pair)."""
        for h in self.hotels.values():
            if h["id"] != hotel["id"] and h["chain"] == hotel["chain"] and h["city_id"] == hotel["city_id"]:
                return h
        return None

    def plans_where(self, pred: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
        return [p for p in self.plans.values() if pred(p)]


CAT = Catalog()


# -- one scenario: the patch rows it adds, with ids from its split's range ----------------------------


@dataclass
class Split:
    name: str
    rng: random.Random
    counters: dict[str, int] = field(default_factory=dict)
    names: list[tuple[str, str]] = field(default_factory=list)
    company_turn: int = 0

    def __post_init__(self) -> None:
        pool = POOLS[self.name]
        self.names = [(f, last) for f in pool["first"] for last in pool["last"]]
        self.rng.shuffle(self.names)

    def next_id(self, prefix: str, width: int = 4) -> str:
        n = self.counters.get(prefix, POOLS[self.name]["start"])
        self.counters[prefix] = n + 1
        return f"{prefix}-{n:0{width}d}"

    def next_company(self) -> str:
        companies = POOLS[self.name]["companies"]
        self.company_turn += 1
        return companies[(self.company_turn * 5) % len(companies)]


class Scenario:
    """The rows one task adds over the base data, and the people in it."""

    def __init__(self, split: Split, rng: random.Random):
        self.split = split
        self.rng = rng
        self.patch: dict[str, list[dict[str, Any]]] = defaultdict(list)

    # people
    def name(self) -> tuple[str, str]:
        return self.split.names.pop()

    def person(
        self, company_id: str | None = None, tier: str = "member", cards: tuple[str, ...] = ("corporate",),
        name: tuple[str, str] | None = None, manager: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        company_id = company_id or self.split.next_company()
        company = CAT.companies[company_id]
        domain = company["billing_email"].split("@")[1]
        if manager is None:
            mf, ml = self.name()
            manager = self._traveller(company_id, domain, mf, ml, self.rng.choice(MANAGER_JOBS), None, "silver")
        first, last = name or self.name()
        t = self._traveller(company_id, domain, first, last, self.rng.choice(JOBS), manager["id"], tier)
        t["manager"] = manager
        t["cards"] = []
        for kind in cards:
            status = "expired" if kind.startswith("expired") else "active"
            brand = self.rng.choice(CARD_BRANDS)
            digits = self.rng.randint(1000, 9999)
            corporate = "corporate" in kind
            card = {"id": self.split.next_id("PM"), "traveller_id": t["id"],
                    "kind": "corporate_card" if corporate else "personal_card",
                    "label": f"{brand} Corporate ending {digits}" if corporate else f"{brand} ending {digits}",
                    "status": status}
            self.patch["payment_methods"].append(card)
            t["cards"].append(card)
        return t

    def _traveller(self, company_id: str, domain: str, first: str, last: str, job: str, manager_id: str | None,
                   tier: str) -> dict[str, Any]:
        row = {"id": self.split.next_id("TR"), "company_id": company_id, "first_name": first, "last_name": last,
               "email": f"{first}.{last}@{domain}".lower(), "phone": f"+1{self.rng.randint(2012000000, 9899999999)}",
               "employee_id": f"E{self.rng.randint(10000, 99999)}", "job_title": job, "manager_id": manager_id,
               "loyalty_tier": tier}
        self.patch["travellers"].append(row)
        return {**row, "name": f"{first} {last}"}

    # records
    def booking(
        self, t: dict[str, Any], plan: dict[str, Any], check_in: date, nights: int, status: str = "confirmed",
        card: dict[str, Any] | None = None, points: bool = True, invoice: str | None = None,
        approval_id: str | None = None, arrival_time: str | None = None,
    ) -> dict[str, Any]:
        card = card or t["cards"][0]
        rate = CAT.rate(t["company_id"], plan)
        total = stay_total(rate, nights)
        check_out = check_in + timedelta(days=nights)
        booked_on = min(check_in - timedelta(days=self.rng.randint(10, 40)), TODAY - timedelta(days=2))
        row = {"id": self.split.next_id("BK"), "traveller_id": t["id"], "hotel_id": plan["hotel_id"],
               "room_type_id": plan["room_type_id"], "rate_plan_id": plan["id"], "check_in": iso(check_in),
               "check_out": iso(check_out), "nights": nights, "nightly_rate": rate, "total_amount": total,
               "status": status, "payment_method_id": card["id"], "approval_id": approval_id,
               "arrival_time": arrival_time, "cancellation_fee": 0, "booked_on": iso(booked_on)}
        self.patch["bookings"].append(row)
        self.transaction(row, "charge", "booking", total, booked_on)
        if status == "completed":
            if points:
                self.loyalty(t, stay_points(total), "stay", row, check_out)
            if invoice:
                self.patch["invoices"].append({
                    "id": self.split.next_id("INV"), "booking_id": row["id"], "company_id": t["company_id"],
                    "amount": total, "status": invoice, "issued_on": iso(min(check_out, TODAY))})
        return {**row, "plan": plan, "hotel": CAT.hotel(plan), "room": CAT.room(plan), "card": card}

    def transaction(self, b: dict[str, Any], kind: str, purpose: str, amount: float, when: date) -> None:
        self.patch["transactions"].append({
            "id": self.split.next_id("TX"), "booking_id": b["id"], "kind": kind, "purpose": purpose,
            "amount": money(amount), "payment_method_id": b["payment_method_id"], "approval_id": None,
            "reason": "Prepaid stay" if kind == "charge" else "Refund", "created_at": f"{iso(when)}T10:00:00Z"})

    def loyalty(self, t: dict[str, Any], points: int, kind: str, b: dict[str, Any] | None, when: date) -> None:
        self.patch["loyalty_entries"].append({
            "id": self.split.next_id("LP"), "traveller_id": t["id"], "booking_id": b["id"] if b else None,
            "points": points, "kind": kind, "reason": kind.capitalize(), "created_at": f"{iso(when)}T12:00:00Z"})

    def ticket(self, t: dict[str, Any], b: dict[str, Any] | None, subject: str, category: str,
               note: str, opened: date, status: str = "open") -> dict[str, Any]:
        row = {"id": self.split.next_id("T"), "traveller_id": t["id"], "booking_id": b["id"] if b else None,
               "subject": subject, "category": category, "status": status, "priority": "normal",
               "created_at": f"{iso(opened)}T09:30:00Z"}
        self.patch["tickets"].append(row)
        self.patch["ticket_notes"].append({"id": self.split.next_id("N"), "ticket_id": row["id"], "author": "traveller",
                                           "body": note, "created_at": f"{iso(opened)}T09:31:00Z"})
        return row

    def approval(self, t: dict[str, Any], kind: str, status: str, amount: float, booking: dict[str, Any] | None = None,
                 plan: dict[str, Any] | None = None, check_in: str | None = None, check_out: str | None = None,
                 note: str | None = None, decided: date | None = None, requested: date | None = None) -> dict[str, Any]:
        requested = requested or TODAY - timedelta(days=self.rng.randint(2, 6))
        row = {"id": self.split.next_id("AP"), "traveller_id": t["id"], "approver_id": t["manager_id"], "kind": kind,
               "booking_id": booking["id"] if booking else None, "rate_plan_id": plan["id"] if plan else None,
               "check_in": check_in, "check_out": check_out, "amount": money(amount), "status": status,
               "decision_note": note, "decided_on": iso(decided) if decided else None,
               "request_reason": "Requested by the traveller", "created_at": f"{iso(requested)}T08:00:00Z"}
        self.patch["approvals"].append(row)
        return row

    # choices
    def upcoming(self, lo: int = 6, hi: int = 70) -> date:
        return TODAY + timedelta(days=self.rng.randint(lo, hi))

    def pick(self, plans: list[dict[str, Any]]) -> dict[str, Any]:
        if not plans:
            raise RuntimeError("no catalogue plan fits this template's constraints")
        return self.rng.choice(sorted(plans, key=lambda p: p["id"]))


def verify(t: dict[str, Any], booking_id: str | None = None) -> list[dict[str, Any]]:
    """The two calls that locate and verify a traveller."""
    args: dict[str, Any] = {"traveller_id": t["id"], "email": t["email"]}
    if booking_id:
        args["booking_id"] = booking_id
    else:
        args["employee_id"] = t["employee_id"]
    return [call("find_traveller", email=t["email"]), call("verify_traveller", **args)]


def index(actions: list[dict[str, Any]], name: str, nth: int = 0) -> int:
    hits = [i for i, a in enumerate(actions) if a["name"] == name]
    return hits[nth]


def note_exists(ticket_id: str) -> dict[str, Any]:
    return {"row_exists": {"table": "ticket_notes", "where": {"ticket_id": ticket_id, "author": "agent"}}}


def ids_of(t: dict[str, Any], with_employee: bool = True) -> str:
    return f"{t['email']}, employee id {t['employee_id']}" if with_employee else t["email"]


# -- plan predicates ---------------------------------------------------------------------------------


def code(p: dict[str, Any]) -> str:
    return CAT.room(p)["code"]


def flex(p: dict[str, Any]) -> bool:
    return p["kind"] == "flexible"


def city_name(b: dict[str, Any]) -> str:
    return CAT.city(b["hotel"])["name"]


def other_city_plan(s: Scenario, city_id: str, room: str = "standard") -> dict[str, Any]:
    return s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == room and CAT.hotel(p)["city_id"] != city_id))


def same_city_plan(s: Scenario, city_id: str, room: str = "standard", exclude: str | None = None) -> dict[str, Any]:
    return s.pick(CAT.plans_where(
        lambda p: flex(p) and code(p) == room and CAT.hotel(p)["city_id"] == city_id and p["hotel_id"] != exclude))


def free_window_date(s: Scenario, plan: dict[str, Any], lo: int = 8, hi: int = 60) -> date:
    """A check-in date whose free-cancellation deadline is still ahead."""
    return s.upcoming(max(lo, plan["free_cancel_days"] + 2), hi)


def late_window_date(s: Scenario, plan: dict[str, Any]) -> date:
    """A check-in date after tomorrow-or-later whose free-cancellation deadline has passed."""
    return TODAY + timedelta(days=s.rng.randint(1, plan["free_cancel_days"] - 1))


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


def unchanged_booking(bid: str) -> dict[str, Any]:
    return {"row_unchanged": {"table": "bookings", "id": bid,
                              "columns": ["status", "rate_plan_id", "room_type_id", "check_in", "check_out",
                                          "total_amount"]}}


def no_refund(bid: str) -> dict[str, Any]:
    return {"row_absent": {"table": "transactions", "where": {"booking_id": bid, "kind": "refund"}}}


# -- templates: read_only ------------------------------------------------------------------------------


def booking_details(s: Scenario, i: int) -> dict[str, Any]:
    """Read-only: the dates, total and free-cancellation date of the upcoming stay in a city (an older stay there is a distractor)."""
    t = s.person(tier=s.rng.choice(["member", "silver"]))
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("standard", "deluxe")))
    hotel = CAT.hotel(plan)
    old_plan = same_city_plan(s, hotel["city_id"])
    old = s.booking(t, old_plan, TODAY - timedelta(days=s.rng.randint(40, 220)), s.rng.randint(1, 3), "completed",
                    invoice="paid")
    b = s.booking(t, plan, free_window_date(s, plan), s.rng.randint(2, 4))
    city = city_name(b)
    until = free_cancel_until(b["check_in"], plan["free_cancel_days"])
    actions = [*verify(t), call("list_traveller_bookings", traveller_id=t["id"]), call("get_booking", booking_id=b["id"])]
    reply = (f"Your upcoming stay in {city} is booking {b['id']} at {hotel['name']}: check-in {b['check_in']}, "
             f"check-out {b['check_out']} ({b['nights']} nights, {b['room']['name']}, Flexible rate). The total is "
             f"${m(b['total_amount'])}, and you can cancel free of charge until {until}.")
    return {
        "difficulty": "easy", "kind": "read_only", "skills": ["verification", "bookings"],
        "user": {
            "persona": f"{t['name']}, a {t['job_title'].lower()} at {CAT.companies[t['company_id']]['name']}, checking "
                       "trip details between meetings.",
            "goal": f"Learn the dates, total price and free-cancellation deadline of the upcoming {city} stay.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"]},
            "first_message": f"Hi, can you remind me of the dates and the price of my upcoming hotel stay in {city}? "
                             "And until when could I cancel it for free?",
            "scripted_turns": [f"Sure: {ids_of(t)}.", "Perfect, thank you!"],
        },
        "golden_actions": actions,
        "golden_reply": reply,
        "assertions": [{"response_contains": [b["check_in"], b["check_out"], m(b["total_amount"]), until]}],
        "wrong_paths": [
            {"tag": "wrong_reply", "note": "describes the older, completed stay in the same city",
             "reply": f"Your stay in {city} was booking {old['id']} at {old['hotel']['name']}: check-in "
                      f"{old['check_in']}, check-out {old['check_out']}, total ${m(old['total_amount'])}."},
            {"tag": "missing_step", "note": "reads the bookings without verifying", "drop": [1]},
        ],
    }


def cancel_fee_quote(s: Scenario, i: int) -> dict[str, Any]:
    """Read-only: what cancelling today would cost, without cancelling (inside or after the free window)."""
    t = s.person()
    late = i % 2 == 0
    plan = s.pick(late_plans(lambda p: code(p) in ("standard", "deluxe")))
    b = s.booking(t, plan, late_window_date(s, plan) if late else free_window_date(s, plan), s.rng.randint(2, 5))
    fee, refund = refund_if_cancelled(b)
    until = free_cancel_until(b["check_in"], plan["free_cancel_days"])
    actions = [*verify(t, b["id"]), call("get_booking", booking_id=b["id"]),
               call("get_cancellation_quote", booking_id=b["id"])]
    if late:
        reply = (f"The free-cancellation period for booking {b['id']} ended on {until}. If you cancelled today, the "
                 f"fee would be one night, ${m(fee)}, and you would get ${m(refund)} back on {b['card']['label']}. "
                 "Nothing has been changed.")
        facts = [m(fee), m(refund)]
        wrong = (f"Booking {b['id']} is on a Flexible rate, so cancelling today is free and you would get the full "
                 f"${m(b['total_amount'])} back.")
    else:
        reply = (f"Booking {b['id']} can still be cancelled free of charge until {until}: you would get the full "
                 f"${m(refund)} back on {b['card']['label']}. Nothing has been changed.")
        facts = [m(refund), until]
        wrong = (f"Cancelling booking {b['id']} would cost one night, ${m(b['nightly_rate'])}; you would get "
                 f"${m(b['total_amount'] - b['nightly_rate'])} back.")
    return {
        "difficulty": "medium", "kind": "read_only", "skills": ["verification", "cancellations", "fees"],
        "user": {
            "persona": f"{t['name']}, whose client meeting in {city_name(b)} may be postponed; undecided and careful.",
            "goal": f"Find out what cancelling booking {b['id']} today would cost, without cancelling it.",
            "known_facts": {"email": t["email"], "booking_id": b["id"]},
            "instructions": "Do not cancel; you only want to know the numbers.",
            "first_message": f"If I cancelled my booking {b['id']} today, how much would I get back? Please don't "
                             "cancel anything yet.",
            "scripted_turns": [f"My email is {t['email']}.", "OK, good to know. I'll decide later."],
        },
        "golden_actions": actions,
        "golden_reply": reply,
        "assertions": [unchanged_booking(b["id"]), {"response_contains": facts}],
        "wrong_paths": [
            {"tag": "extra_write", "note": "cancels although the traveller only asked for a quote",
             "append": [call("cancel_booking", booking_id=b["id"], reason="Meeting may be postponed")]},
            {"tag": "wrong_reply", "note": "misstates the fee", "reply": wrong},
        ],
    }


def hotel_rate_info(s: Scenario, i: int) -> dict[str, Any]:
    """Read-only, no verification: the cheapest hotel in a city, or one hotel's Deluxe King rates."""
    while True:  # a city whose cheapest hotel is unique, so the answer is too
        city = s.rng.choice(sorted(CAT.cities))
        hotels = sorted((h for h in CAT.hotels.values() if h["city_id"] == city), key=lambda h: h["name"])
        lows = {h["id"]: min(p["nightly_rate"] for p in CAT.by_hotel[h["id"]]) for h in hotels}
        if sorted(lows.values())[0] < sorted(lows.values())[1]:
            break
    cname = CAT.cities[city]["name"]
    persona = f"A traveller planning a trip to {cname}, not yet sure where to stay."
    if i % 2 == 0:
        ranked = sorted(hotels, key=lambda h: (lows[h["id"]], h["name"]))
        best, second = ranked[0], ranked[1]
        return {
            "difficulty": "easy", "kind": "read_only", "skills": ["hotels", "general_question"],
            "user": {
                "persona": persona,
                "goal": f"Learn which hotel in {cname} has the lowest nightly rate, and that rate.",
                "known_facts": {"city": cname},
                "first_message": f"Which of your hotels in {cname} is the cheapest, and what does it cost per night?",
                "scripted_turns": ["Great, that's all I needed."],
            },
            "golden_actions": [call("search_hotels", city=cname)],
            "golden_reply": (f"The cheapest hotel in {cname} is {best['name']}, with rates from ${m(lows[best['id']])} "
                             "per night (list price, before any company discount)."),
            "assertions": [{"response_contains": [best["name"], m(lows[best["id"]])]}],
            "wrong_paths": [
                {"tag": "wrong_reply", "note": "names the second-cheapest hotel",
                 "reply": f"The cheapest is {second['name']}, from ${m(lows[second['id']])} per night."},
                {"tag": "wrong_reply", "note": "right hotel, wrong price",
                 "reply": f"The cheapest is {best['name']}, from ${m(lows[best['id']] + 20)} per night."},
            ],
        }
    pair = [h for h in hotels if CAT.sibling(h)]
    hotel = s.rng.choice(pair)
    sib = CAT.sibling(hotel)
    flex_p, nonref = CAT.plan(hotel["id"], "deluxe"), CAT.plan(hotel["id"], "deluxe", "nonrefundable")
    sflex, snon = CAT.plan(sib["id"], "deluxe"), CAT.plan(sib["id"], "deluxe", "nonrefundable")
    std = CAT.plan(hotel["id"], "standard")
    days = f"{flex_p['free_cancel_days']} day" + ("s" if flex_p["free_cancel_days"] != 1 else "")
    return {
        "difficulty": "easy", "kind": "read_only", "skills": ["hotels", "general_question", "disambiguation"],
        "user": {
            "persona": persona,
            "goal": f"Learn the nightly Deluxe King rates (flexible and non-refundable) at {hotel['name']}.",
            "known_facts": {"hotel": hotel["name"]},
            "first_message": f"How much is a Deluxe King per night at the {hotel['name']}? I'd like both the flexible "
                             "and the non-refundable price.",
            "scripted_turns": ["Thanks, that helps."],
        },
        "golden_actions": [call("search_hotels", city=cname), call("get_hotel", hotel_id=hotel["id"])],
        "golden_reply": (f"At {hotel['name']}, a Deluxe King costs ${m(flex_p['nightly_rate'])} per night on the "
                         f"Flexible rate (free cancellation up to {days} before arrival) "
                         f"and ${m(nonref['nightly_rate'])} on the Advance Saver (non-refundable) rate. These are list "
                         "prices, before any company discount."),
        "assertions": [{"response_contains": [m(flex_p["nightly_rate"]), m(nonref["nightly_rate"])]}],
        "wrong_paths": [
            {"tag": "wrong_reply", "note": "quotes the other hotel of the same chain in the city",
             "reply": f"A Deluxe King is ${m(sflex['nightly_rate'])} flexible or ${m(snon['nightly_rate'])} "
                      "non-refundable per night."},
            {"tag": "wrong_reply", "note": "quotes the standard room",
             "reply": f"The flexible rate is ${m(std['nightly_rate'])} per night."},
        ],
    }


def loyalty_balance(s: Scenario, i: int) -> dict[str, Any]:
    """Read-only: the Voyager Rewards balance and tier."""
    tier = ["member", "silver", "gold", "silver"][i % 4]
    t = s.person(tier=tier)
    total_points, last = 0, None
    for k in range(s.rng.randint(2, 4)):
        plan = s.pick(CAT.plans_where(lambda p: code(p) == "standard"))
        b = s.booking(t, plan, TODAY - timedelta(days=300 - 60 * k - s.rng.randint(0, 20)), s.rng.randint(1, 4),
                      "completed", invoice="paid")
        total_points += stay_points(b["total_amount"])
        last = b
    if s.rng.random() < 0.5:
        s.loyalty(t, 1000, "goodwill", last, TODAY - timedelta(days=20))
        total_points += 1000
    return {
        "difficulty": "easy", "kind": "read_only", "skills": ["verification", "loyalty"],
        "user": {
            "persona": f"{t['name']}, saving Voyager Rewards points for a family holiday.",
            "goal": "Learn the current points balance and loyalty tier.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"]},
            "first_message": "Hi! How many Voyager Rewards points do I have at the moment, and which tier am I in?",
            "scripted_turns": [f"{ids_of(t)}.", "Lovely, thanks."],
        },
        "golden_actions": [*verify(t), call("get_loyalty_account", traveller_id=t["id"])],
        "golden_reply": f"You are a {tier} member of Voyager Rewards with {total_points:,} points.",
        "assertions": [{"response_contains": [str(total_points), tier]}],
        "wrong_paths": [
            {"tag": "wrong_reply", "note": "leaves out the last stay's points",
             "reply": f"You are a {tier} member with {total_points - stay_points(last['total_amount']):,} points."},
            {"tag": "missing_step", "note": "reads the points without verifying", "drop": [1]},
        ],
    }


# -- templates: single_write ------------------------------------------------------------------------------


def change_dates_flexible(s: Scenario, i: int) -> dict[str, Any]:
    """One write: new dates for a flexible booking; the price difference moves automatically."""
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("standard", "deluxe", "junior_suite")))
    b = s.booking(t, plan, s.upcoming(10, 50), s.rng.randint(2, 4))
    shift, nights = [(1, b["nights"]), (0, b["nights"] + 1), (2, b["nights"] - 1), (-1, b["nights"] + 1)][i % 4]
    cin, cout, total = new_stay(b, shift, nights)
    delta = money(total - b["total_amount"])
    moved = (f"${m(delta)} has been charged to" if delta > 0 else f"${m(-delta)} has been refunded to") + \
        f" {b['card']['label']}" if delta else "the price is unchanged"
    actions = [*verify(t), call("get_booking", booking_id=b["id"]),
               call("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=cout)]
    off = iso(date.fromisoformat(cout) - timedelta(days=1))
    if off == cin:
        off = iso(date.fromisoformat(cout) + timedelta(days=1))
    return {
        "difficulty": "medium", "kind": "single_write", "skills": ["verification", "date_change"],
        "user": {
            "persona": f"{t['name']}, whose project schedule in {city_name(b)} just moved.",
            "goal": f"Move booking {b['id']} to check-in {cin} and check-out {cout}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "booking_id": b["id"],
                            "new_check_in": cin, "new_check_out": cout},
            "first_message": f"Hello, I need to change the dates of my booking {b['id']}: I'd now arrive on {cin} and "
                             f"leave on {cout}.",
            "scripted_turns": [f"{ids_of(t)}.", "Yes, please go ahead.", "Thanks a lot."],
        },
        "golden_actions": actions,
        "golden_reply": f"Done: booking {b['id']} now runs from {cin} to {cout} ({nights} nights at "
                        f"${m(b['nightly_rate'])}), new total ${m(total)}; {moved}.",
        "assertions": [{"response_contains": [cin, cout, m(total)]}],
        "wrong_paths": [
            {"tag": "wrong_amount", "note": "books one night too few or too many",
             "replace": {index(actions, "change_booking_dates"): call("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=off)}},
            {"tag": "missing_step", "note": "changes the booking without verifying", "drop": [1]},
        ],
    }


def cancel_free_window(s: Scenario, i: int) -> dict[str, Any]:
    """One write: cancel a stay inside the free window (the traveller's other trip stays)."""
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("standard", "deluxe")))
    b = s.booking(t, plan, free_window_date(s, plan), s.rng.randint(1, 4))
    other = s.booking(t, other_city_plan(s, b["hotel"]["city_id"]), s.upcoming(8, 70), s.rng.randint(1, 3))
    _fee, refund = refund_if_cancelled(b)
    city = city_name(b)
    actions = [*verify(t), call("list_traveller_bookings", traveller_id=t["id"]), call("get_booking", booking_id=b["id"]),
               call("cancel_booking", booking_id=b["id"], reason="Trip cancelled")]
    return {
        "difficulty": "easy", "kind": "single_write", "skills": ["verification", "cancellations"],
        "user": {
            "persona": f"{t['name']}, whose trip to {city} was called off.",
            "goal": f"Cancel the {city} stay ({b['check_in']} to {b['check_out']}) and get the money back.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "city": city,
                            "dates": f"{b['check_in']} to {b['check_out']}"},
            "instructions": f"Keep your other booking in {city_name(other)}.",
            "first_message": f"Hi, my trip to {city} from {b['check_in']} to {b['check_out']} is off. Can you cancel "
                             "the hotel, please?",
            "scripted_turns": [f"{ids_of(t)}.", "Yes, cancel it.", "Thank you."],
        },
        "golden_actions": actions,
        "golden_reply": f"Booking {b['id']} at {b['hotel']['name']} is cancelled free of charge; the full "
                        f"${m(refund)} is being refunded to {b['card']['label']}.",
        "assertions": [{"response_contains": [m(refund)]}],
        "wrong_paths": [
            {"tag": "wrong_entity", "note": "cancels the traveller's other upcoming booking",
             "replace": {index(actions, "cancel_booking"): call("cancel_booking", booking_id=other["id"], reason="Trip cancelled")}},
            {"tag": "missing_step", "note": "cancels without verifying", "drop": [1]},
        ],
    }


ARRIVALS = ["19:30", "20:45", "21:30", "22:00", "22:45", "23:15", "23:30", "23:45"]


def set_arrival_time(s: Scenario, i: int) -> dict[str, Any]:
    """One write: record a late arrival (24-hour time) on the right booking."""
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: code(p) == "standard"))
    b = s.booking(t, plan, s.upcoming(3, 30), s.rng.randint(1, 3))
    other = s.booking(t, other_city_plan(s, b["hotel"]["city_id"]), s.upcoming(35, 80), 2)
    when = ARRIVALS[(i * 3 + s.rng.randint(0, 7)) % len(ARRIVALS)]
    h, mi = when.split(":")
    am = f"{int(h) - 12:02d}:{mi}"
    city = city_name(b)
    actions = [*verify(t), call("list_traveller_bookings", traveller_id=t["id"]), call("get_booking", booking_id=b["id"]),
               call("set_arrival_time", booking_id=b["id"], arrival_time=when)]
    return {
        "difficulty": "easy", "kind": "single_write", "skills": ["verification", "late_arrival"],
        "user": {
            "persona": f"{t['name']}, on a late flight to {city}, worried the hotel will give the room away.",
            "goal": f"Have the hotel hold the room for a {nice_time(when)} arrival on {b['check_in']}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "arrival": nice_time(when)},
            "first_message": f"My flight to {city} lands late, I'll only get to the hotel around {nice_time(when)} on "
                             f"{b['check_in']}. Can you make sure they keep my room?",
            "scripted_turns": [f"{ids_of(t)}.", "Great, thanks!"],
        },
        "golden_actions": actions,
        "golden_reply": f"I've recorded your arrival at {when} on {b['check_in']} for booking {b['id']} at "
                        f"{b['hotel']['name']}, so the room will be held for you.",
        "assertions": [{"response_contains": [b["check_in"]]}],
        "wrong_paths": [
            {"tag": "wrong_amount", "note": "records the morning time instead of the evening",
             "replace": {index(actions, "set_arrival_time"): call("set_arrival_time", booking_id=b["id"], arrival_time=am)}},
            {"tag": "wrong_entity", "note": "records it on the traveller's other booking",
             "replace": {index(actions, "set_arrival_time"): call("set_arrival_time", booking_id=other["id"], arrival_time=when)}},
        ],
    }


def upgrade_within_cap(s: Scenario, i: int) -> dict[str, Any]:
    """One write: a room upgrade whose new rate is within the company cap, so no approval."""
    company = s.split.next_company()

    def fits(p: dict[str, Any]) -> bool:
        if not (flex(p) and code(p) == "standard"):
            return False
        deluxe, suite = CAT.plan(p["hotel_id"], "deluxe"), CAT.plan(p["hotel_id"], "junior_suite")
        return CAT.rate(company, deluxe) <= CAT.cap(company, CAT.hotel(p)) and suite is not None

    t = s.person(company_id=company)
    b = s.booking(t, s.pick(CAT.plans_where(fits)), s.upcoming(8, 60), s.rng.randint(2, 4))
    deluxe = CAT.plan(b["hotel_id"], "deluxe")
    suite = CAT.plan(b["hotel_id"], "junior_suite")
    rate = CAT.rate(company, deluxe)
    total = stay_total(rate, b["nights"])
    diff = money(total - b["total_amount"])
    actions = [*verify(t), call("get_booking", booking_id=b["id"]), call("get_traveller", traveller_id=t["id"]),
               call("get_company_policy", company_id=company), call("get_hotel", hotel_id=b["hotel_id"]),
               call("change_room_type", booking_id=b["id"], rate_plan_id=deluxe["id"])]
    return {
        "difficulty": "medium", "kind": "single_write", "skills": ["verification", "room_change", "travel_policy"],
        "user": {
            "persona": f"{t['name']}, who will host a small working session in the hotel room and wants more space.",
            "goal": f"Upgrade booking {b['id']} from the Standard King to a Deluxe King (flexible rate).",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "booking_id": b["id"]},
            "first_message": f"Could you upgrade my booking {b['id']} to a Deluxe King? Same dates.",
            "scripted_turns": [f"{ids_of(t)}.", "Yes, please do it.", "Thanks!"],
        },
        "golden_actions": actions,
        "golden_reply": f"Booking {b['id']} is now a Deluxe King at ${m(rate)} per night, within your company's cap. "
                        f"The difference of ${m(diff)} has been charged to {b['card']['label']}; the new total is "
                        f"${m(total)}.",
        "assertions": [{"response_contains": [m(total), m(diff)]}],
        "wrong_paths": [
            {"tag": "wrong_entity", "note": "moves the traveller to the junior suite instead",
             "replace": {index(actions, "change_room_type"): call("change_room_type", booking_id=b["id"], rate_plan_id=suite["id"])}},
            {"tag": "missing_step", "note": "upgrades without verifying", "drop": [1]},
        ],
    }


def update_invoice_reference(s: Scenario, i: int) -> dict[str, Any]:
    """One write: a PO number or cost centre on the right issued invoice."""
    t = s.person()
    p1, p2 = s.pick(CAT.plans_where(lambda p: code(p) == "standard")), s.pick(CAT.plans_where(lambda p: code(p) == "deluxe"))
    b = s.booking(t, p1, TODAY - timedelta(days=s.rng.randint(6, 14)), s.rng.randint(1, 3), "completed", invoice="issued")
    other = s.booking(t, p2, TODAY - timedelta(days=s.rng.randint(18, 30)), 2, "completed", invoice="issued")
    inv = next(r for r in s.patch["invoices"] if r["booking_id"] == b["id"])
    oinv = next(r for r in s.patch["invoices"] if r["booking_id"] == other["id"])
    field_, label = ("po_number", "purchase-order number") if i % 2 == 0 else ("cost_center", "cost centre")
    value = f"PO-{s.rng.randint(100000, 999999)}" if field_ == "po_number" else f"CC-{s.rng.randint(100, 999)}"
    typo = value[:-2] + value[-1] + value[-2] if value[-1] != value[-2] else value[:-1] + str((int(value[-1]) + 1) % 10)
    hotel = b["hotel"]["name"]
    actions = [*verify(t), call("list_traveller_invoices", traveller_id=t["id"]),
               call("update_invoice_reference", invoice_id=inv["id"], **{field_: value})]
    return {
        "difficulty": "easy", "kind": "single_write", "skills": ["verification", "invoices"],
        "user": {
            "persona": f"{t['name']}, chased by the finance team to fix an invoice reference.",
            "goal": f"Have {label} {value} put on the invoice for the stay at {hotel} ({b['check_in']} to "
                    f"{b['check_out']}).",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], field_: value, "hotel": hotel},
            "first_message": f"Finance needs {label} {value} on the invoice for my stay at {hotel} "
                             f"({b['check_in']} to {b['check_out']}). Can you add it?",
            "scripted_turns": [f"{ids_of(t)}.", "Perfect, thanks."],
        },
        "golden_actions": actions,
        "golden_reply": f"Invoice {inv['id']} for your stay at {hotel} now shows {label} {value}.",
        "assertions": [{"response_contains": [inv["id"], value]}],
        "wrong_paths": [
            {"tag": "wrong_entity", "note": "updates the invoice of the other recent stay",
             "replace": {index(actions, "update_invoice_reference"): call("update_invoice_reference", invoice_id=oinv["id"], **{field_: value})}},
            {"tag": "wrong_amount", "note": "mistypes the reference",
             "replace": {index(actions, "update_invoice_reference"): call("update_invoice_reference", invoice_id=inv["id"], **{field_: typo})}},
        ],
    }


# -- templates: multi_step ------------------------------------------------------------------------------

FAILURES = [
    ("There was no hot water in my room for two days", "No hot water"),
    ("The air conditioning was broken and the room was 30 degrees at night", "Broken air conditioning"),
    ("My room was never cleaned during the whole stay", "Room not cleaned"),
    ("The heating did not work and the room was freezing", "Broken heating"),
    ("Water leaked from the ceiling and I could not use the room for a night", "Leak in the room"),
]


def service_failure_compensation(s: Scenario, i: int) -> dict[str, Any]:
    """Several systems: one-night refund, tier goodwill points, ticket note, ticket closed."""
    tier = ["member", "silver", "gold", "silver", "member", "gold"][i % 6]
    t = s.person(tier=tier)
    prior = s.booking(t, s.pick(CAT.plans_where(lambda p: code(p) == "standard")),
                      TODAY - timedelta(days=s.rng.randint(120, 300)), 2, "completed", invoice="paid")
    plan = s.pick(CAT.plans_where(lambda p: code(p) in ("standard", "deluxe")))
    nights = s.rng.randint(2, 5)
    check_out = TODAY - timedelta(days=s.rng.randint(3, 26))
    b = s.booking(t, plan, check_out - timedelta(days=nights), nights, "completed", invoice="issued")
    story, subject = FAILURES[(i + s.rng.randint(0, 4)) % len(FAILURES)]
    ticket = s.ticket(t, b, subject, "service_issue", story + ".", check_out)
    points = GOODWILL_POINTS[tier]
    balance = stay_points(prior["total_amount"]) + stay_points(b["total_amount"]) + points
    wrong_tier = "member" if tier != "member" else "gold"
    actions = [*verify(t), call("get_ticket", ticket_id=ticket["id"]), call("get_booking", booking_id=b["id"]),
               call("get_loyalty_account", traveller_id=t["id"]),
               call("refund_service_failure", booking_id=b["id"], amount=money(b["nightly_rate"]), reason=subject),
               call("add_goodwill_points", traveller_id=t["id"], booking_id=b["id"], points=points, reason=subject),
               call("add_ticket_note", ticket_id=ticket["id"],
                    note=f"Service failure compensated: one night (${m(b['nightly_rate'])}) refunded and {points} "
                         "goodwill points added."),
               call("update_ticket_status", ticket_id=ticket["id"], status="closed")]
    return {
        "difficulty": "hard", "kind": "multi_step", "skills": ["verification", "service_failure", "refunds", "loyalty",
                                                              "tickets"],
        "user": {
            "persona": f"{t['name']}, a {tier} Voyager Rewards member, still annoyed about a recent stay at "
                       f"{b['hotel']['name']}.",
            "goal": f"Get compensation for the problem reported in ticket {ticket['id']} and have the ticket closed.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "ticket_id": ticket["id"],
                            "problem": story},
            "instructions": "Accept the compensation the agent offers and then ask to close the ticket.",
            "first_message": f"{story} at {b['hotel']['name']} ({b['check_in']} to {b['check_out']}). I opened ticket "
                             f"{ticket['id']} and nobody has done anything yet.",
            "scripted_turns": [f"{ids_of(t)}.", "That's fair, thank you. You can close the ticket.", "Bye."],
        },
        "golden_actions": actions,
        "golden_reply": f"I'm sorry about the stay. As compensation I've refunded one night, ${m(b['nightly_rate'])}, to "
                        f"{b['card']['label']} and added {points:,} goodwill points (your balance is now "
                        f"{balance:,}). Ticket {ticket['id']} is noted and closed.",
        "assertions": [note_exists(ticket["id"]), {"response_contains": [m(b["nightly_rate"]), str(points)]}],
        "wrong_paths": [
            {"tag": "wrong_amount", "note": "refunds the whole stay instead of one night",
             "replace": {index(actions, "refund_service_failure"): call("refund_service_failure", booking_id=b["id"], amount=money(b["total_amount"]),
                                 reason=subject)}},
            {"tag": "wrong_amount", "note": "gives another tier's goodwill points",
             "replace": {index(actions, "add_goodwill_points"): call("add_goodwill_points", traveller_id=t["id"], booking_id=b["id"],
                                 points=GOODWILL_POINTS[wrong_tier], reason=subject)}},
            {"tag": "missing_step", "note": "compensates but leaves no note on the ticket", "drop": [index(actions, "add_ticket_note")]},
            {"tag": "missing_step", "note": "refunds but forgets the goodwill points", "drop": [index(actions, "add_goodwill_points")]},
        ],
    }


def missing_points_claim(s: Scenario, i: int) -> dict[str, Any]:
    """Several systems: credit the stay inside the 90-day window, decline the older one, note and close."""
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
    actions = [*verify(t), call("get_ticket", ticket_id=ticket["id"]), call("get_loyalty_account", traveller_id=t["id"]),
               call("list_traveller_bookings", traveller_id=t["id"]), call("credit_stay_points", booking_id=recent["id"]),
               call("add_ticket_note", ticket_id=ticket["id"],
                    note=f"Credited {pts} points for {recent['id']}; {old['id']} is past the 90-day claim window."),
               call("update_ticket_status", ticket_id=ticket["id"], status="closed")]
    return {
        "difficulty": "medium", "kind": "multi_step", "skills": ["verification", "loyalty", "claim_window", "tickets"],
        "user": {
            "persona": f"{t['name']}, who tracks every point and noticed two stays at {hotel['name']} never earned any.",
            "goal": f"Get the missing points for both stays at {hotel['name']} (ticket {ticket['id']}), then close it.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "ticket_id": ticket["id"],
                            "stays": f"{old['check_in']} and {recent['check_in']} at {hotel['name']}"},
            "instructions": "If one stay cannot be credited, accept the explanation and ask to close the ticket.",
            "first_message": f"I never got Voyager Rewards points for my last two stays at {hotel['name']}. It's on "
                             f"ticket {ticket['id']}.",
            "scripted_turns": [f"{ids_of(t)}.", "OK, I understand about the older one. Please close the ticket.",
                               "Thanks."],
        },
        "golden_actions": actions,
        "golden_reply": f"I've credited {pts:,} points for your stay {recent['id']} ({recent['check_in']} to "
                        f"{recent['check_out']}); your balance is now {balance:,}. The stay {old['id']} checked out on "
                        f"{old['check_out']}, more than 90 days ago, so its points can no longer be claimed. Ticket "
                        f"{ticket['id']} is closed.",
        "assertions": [note_exists(ticket["id"]), {"response_contains": [str(pts), str(balance), old["check_out"]]}],
        "wrong_paths": [
            {"tag": "extra_write", "note": "also credits the stay outside the 90-day window",
             "append": [call("credit_stay_points", booking_id=old["id"])]},
            {"tag": "missing_step", "note": "no note on the ticket", "drop": [index(actions, "add_ticket_note")]},
            {"tag": "missing_step", "note": "leaves the ticket open although the traveller asked to close it",
             "drop": [index(actions, "update_ticket_status")]},
        ],
    }


def change_and_cancel(s: Scenario, i: int) -> dict[str, Any]:
    """Two requests: cancel one stay, move another."""
    t = s.person()
    pa = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard"))
    a = s.booking(t, pa, free_window_date(s, pa, 10, 40), s.rng.randint(1, 3))
    pb = other_city_plan(s, a["hotel"]["city_id"], s.rng.choice(["standard", "deluxe"]))
    b = s.booking(t, pb, s.upcoming(20, 70), s.rng.randint(2, 4))
    _fee, refund = refund_if_cancelled(a)
    shift, nights = [(2, b["nights"]), (-1, b["nights"]), (0, b["nights"] + 2), (3, b["nights"] - 1)][i % 4]
    cin, cout, total = new_stay(b, shift, nights)
    ca, cb = city_name(a), city_name(b)
    actions = [*verify(t), call("list_traveller_bookings", traveller_id=t["id"]), call("get_booking", booking_id=a["id"]),
               call("cancel_booking", booking_id=a["id"], reason="Trip cancelled"),
               call("get_booking", booking_id=b["id"]),
               call("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=cout)]
    wrong_out = iso(date.fromisoformat(cin) + timedelta(days=b["nights"] + (1 if nights == b["nights"] else 0)))
    return {
        "difficulty": "hard", "kind": "multi_step", "skills": ["verification", "cancellations", "date_change"],
        "user": {
            "persona": f"{t['name']}, reshuffling next month's travel after a reorganisation.",
            "goal": f"Cancel the {ca} stay and move the {cb} stay to {cin} - {cout}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "cancel": f"{ca} stay from {a['check_in']}",
                            "move": f"{cb} stay, new dates {cin} to {cout}"},
            "first_message": f"Two changes please: cancel my {ca} hotel (from {a['check_in']}), and move my {cb} stay "
                             f"so that I arrive on {cin} and leave on {cout}.",
            "scripted_turns": [f"{ids_of(t)}.", "Yes, do both.", "Great, thanks."],
        },
        "golden_actions": actions,
        "golden_reply": f"Booking {a['id']} in {ca} is cancelled free of charge and ${m(refund)} is refunded to "
                        f"{a['card']['label']}. Booking {b['id']} in {cb} now runs from {cin} to {cout}, new total "
                        f"${m(total)}.",
        "assertions": [{"response_contains": [m(refund), cin, m(total)]}],
        "wrong_paths": [
            {"tag": "missing_step", "note": "forgets the cancellation", "drop": [index(actions, "cancel_booking")]},
            {"tag": "wrong_amount", "note": "keeps the old number of nights on the moved stay",
             "replace": {index(actions, "change_booking_dates"): call("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=wrong_out)}},
            {"tag": "missing_step", "note": "acts without verifying", "drop": [1]},
        ],
    }


def _preferred_within_cap(company: str, room: str = "standard", exclude_city: str | None = None) -> list[dict[str, Any]]:
    return CAT.plans_where(lambda p: flex(p) and code(p) == room and CAT.discount(company, p["hotel_id"]) > 0
                           and CAT.rate(company, p) <= CAT.cap(company, CAT.hotel(p))
                           and CAT.hotel(p)["city_id"] != exclude_city)


def trip_overhaul(s: Scenario, i: int) -> dict[str, Any]:
    """The long one: late cancellation with fee, date move, late arrival, new in-policy booking, ticket."""
    company = s.split.next_company()
    t = s.person(company_id=company, cards=("corporate", "expired_personal"))
    pa = s.pick(late_plans(lambda p: code(p) == "standard"))
    a = s.booking(t, pa, late_window_date(s, pa), s.rng.randint(2, 3))
    pb = other_city_plan(s, a["hotel"]["city_id"], "standard")
    b = s.booking(t, pb, s.upcoming(12, 40), s.rng.randint(2, 3))
    pc = s.pick(_preferred_within_cap(company, exclude_city=b["hotel"]["city_id"]))
    hc = CAT.hotel(pc)
    cc = CAT.city(hc)
    ticket = s.ticket(t, a, "Trip reorganisation", "booking_change",
                      "Client moved all meetings; need to rework my hotels.", TODAY - timedelta(days=1))
    fee, refund = refund_if_cancelled(a)
    cin, cout, total_b = new_stay(b, 1, b["nights"])
    when = ["22:30", "23:00", "21:45", "23:30"][i % 4]
    c_in = s.upcoming(45, 80)
    c_out = c_in + timedelta(days=s.rng.randint(2, 4))
    rate_c = CAT.rate(company, pc)
    total_c = stay_total(rate_c, (c_out - c_in).days)
    card = t["cards"][0]
    actions = [
        *verify(t), call("get_ticket", ticket_id=ticket["id"]), call("list_traveller_bookings", traveller_id=t["id"]),
        call("get_booking", booking_id=a["id"]), call("get_cancellation_quote", booking_id=a["id"]),
        call("cancel_booking", booking_id=a["id"], reason="Client moved the meetings"),
        call("get_booking", booking_id=b["id"]),
        call("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=cout),
        call("set_arrival_time", booking_id=b["id"], arrival_time=when),
        call("get_traveller", traveller_id=t["id"]), call("get_company_policy", company_id=company),
        call("search_hotels", city=cc["name"], company_id=company), call("get_hotel", hotel_id=hc["id"]),
        call("quote_stay", traveller_id=t["id"], rate_plan_id=pc["id"], check_in=iso(c_in), check_out=iso(c_out)),
        call("create_booking", traveller_id=t["id"], rate_plan_id=pc["id"], check_in=iso(c_in), check_out=iso(c_out),
             payment_method_id=card["id"]),
        call("add_ticket_note", ticket_id=ticket["id"],
             note=f"Cancelled {a['id']} (fee {m(fee)}), moved {b['id']} to {cin}, arrival {when}, booked BK-{NEW}."),
        call("update_ticket_status", ticket_id=ticket["id"], status="closed"),
    ]
    ia = index(actions, "set_arrival_time")
    return {
        "difficulty": "hard", "kind": "multi_step",
        "skills": ["verification", "cancellations", "fees", "date_change", "late_arrival", "new_booking",
                   "travel_policy", "tickets"],
        "user": {
            "persona": f"{t['name']}, whose client just moved every meeting; organised, wants it all done in one go.",
            "goal": f"Cancel the {city_name(a)} stay (accepting the fee), move the {city_name(b)} stay one day later "
                    f"with a {nice_time(when)} arrival, book {hc['name']} ({iso(c_in)} to {iso(c_out)}), then close "
                    f"ticket {ticket['id']}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "ticket_id": ticket["id"],
                            "cancel": f"{city_name(a)} stay from {a['check_in']}",
                            "move": f"{city_name(b)} stay: one day later, same number of nights",
                            "arrival_on_new_date": nice_time(when),
                            "new_hotel": f"{hc['name']}, Standard King, Flexible rate, {iso(c_in)} to {iso(c_out)}"},
            "instructions": "Accept the cancellation fee. Pay for the new booking with your corporate card. Ask to close "
                            "the ticket at the end.",
            "first_message": (f"Big rework of my trips, ticket {ticket['id']}. 1) Cancel my {city_name(a)} hotel from "
                              f"{a['check_in']}. 2) Push my {city_name(b)} stay back by one day, same number of nights, "
                              f"and I'll arrive around {nice_time(when)} on the first night. 3) Book me a Standard King "
                              f"on the flexible rate at {hc['name']} from {iso(c_in)} to {iso(c_out)}."),
            "scripted_turns": [f"{ids_of(t)}.", "Yes, I accept the fee, go ahead with everything.",
                               "All good, you can close the ticket.", "Thanks!"],
        },
        "golden_actions": actions,
        "golden_reply": (f"All done. Booking {a['id']} is cancelled: the fee is ${m(fee)} (one night) and ${m(refund)} is "
                         f"refunded to {a['card']['label']}. Booking {b['id']} now runs from {cin} to {cout}, total "
                         f"${m(total_b)}, with your arrival at {when} recorded. New booking BK-{NEW} at {hc['name']} "
                         f"from {iso(c_in)} to {iso(c_out)}: ${m(rate_c)} per night, ${m(total_c)} in total, charged to "
                         f"{card['label']}. Ticket {ticket['id']} is closed."),
        "assertions": [note_exists(ticket["id"]),
                       {"response_contains": [m(fee), m(refund), m(total_b), f"BK-{NEW}", m(total_c)]}],
        "wrong_paths": [
            {"tag": "missing_step", "note": "forgets the late-arrival time", "drop": [ia]},
            {"tag": "wrong_amount", "note": "moves the stay by two days instead of one",
             "replace": {ia - 1: call("change_booking_dates", booking_id=b["id"], check_in=new_stay(b, 2, b["nights"])[0],
                                      check_out=new_stay(b, 2, b["nights"])[1])}},
            {"tag": "missing_step", "note": "never books the new hotel", "drop": [index(actions, "create_booking")]},
            {"tag": "missing_step", "note": "leaves the ticket open", "drop": [len(actions) - 1]},
        ],
    }


def new_booking_preferred(s: Scenario, i: int) -> dict[str, Any]:
    """A new booking at a preferred hotel within the cap (an expired card on file)."""
    company = s.split.next_company()
    t = s.person(company_id=company, cards=("corporate", "expired_personal"))
    room = ["standard", "deluxe"][i % 2]
    plans = _preferred_within_cap(company, room) or _preferred_within_cap(company)
    p = s.pick(plans)
    hotel, city = CAT.hotel(p), CAT.city(CAT.hotel(p))
    other_h = CAT.sibling(hotel) or next(h for h in CAT.hotels.values() if h["city_id"] == city["id"] and h["id"] != hotel["id"])
    other_p = CAT.plan(other_h["id"], code(p)) or CAT.plan(other_h["id"], "standard")
    nonref = CAT.plan(hotel["id"], code(p), "nonrefundable")
    cin = s.upcoming(10, 60)
    cout = cin + timedelta(days=s.rng.randint(1, 4))
    rate = CAT.rate(company, p)
    total = stay_total(rate, (cout - cin).days)
    card = t["cards"][0]
    room_name = CAT.room(p)["name"]
    base_args = {"traveller_id": t["id"], "check_in": iso(cin), "check_out": iso(cout), "payment_method_id": card["id"]}
    actions = [*verify(t), call("get_traveller", traveller_id=t["id"]), call("get_company_policy", company_id=company),
               call("search_hotels", city=city["name"], company_id=company), call("get_hotel", hotel_id=hotel["id"]),
               call("quote_stay", traveller_id=t["id"], rate_plan_id=p["id"], check_in=iso(cin), check_out=iso(cout)),
               call("create_booking", rate_plan_id=p["id"], **base_args)]
    k = index(actions, "create_booking")
    return {
        "difficulty": "medium", "kind": "multi_step", "skills": ["verification", "new_booking", "travel_policy"],
        "user": {
            "persona": f"{t['name']}, heading to {city['name']} for a client workshop.",
            "goal": f"Book a {room_name} on the flexible rate at {hotel['name']} from {iso(cin)} to {iso(cout)}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "hotel": hotel["name"],
                            "room": room_name, "rate": "Flexible", "dates": f"{iso(cin)} to {iso(cout)}"},
            "first_message": f"Please book me a {room_name} at {hotel['name']} from {iso(cin)} to {iso(cout)}, "
                             "flexible rate.",
            "scripted_turns": [f"{ids_of(t)}.", "Yes, book it.", "Thank you!"],
        },
        "golden_actions": actions,
        "golden_reply": f"Booked: BK-{NEW} at {hotel['name']}, {room_name}, Flexible rate, {iso(cin)} to {iso(cout)}. "
                        f"With your company's preferred-hotel discount the rate is ${m(rate)} per night, "
                        f"${m(total)} in total, charged to {card['label']}.",
        "assertions": [{"response_contains": [f"BK-{NEW}", m(total)]}],
        "wrong_paths": [
            {"tag": "wrong_entity", "note": "books the similarly named hotel in the same city",
             "replace": {k: call("create_booking", rate_plan_id=other_p["id"], **base_args)}},
            {"tag": "wrong_entity", "note": "books the non-refundable plan",
             "replace": {k: call("create_booking", rate_plan_id=nonref["id"], **base_args)}},
            {"tag": "missing_step", "note": "books without verifying", "drop": [1]},
        ],
    }


# -- templates: approval ----------------------------------------------------------------------------------

DOWNGRADE_FROM = {"deluxe": ["standard"], "junior_suite": ["standard", "deluxe"], "suite": ["deluxe", "junior_suite"]}


def _downgrade_booking(s: Scenario, t: dict[str, Any], high: tuple[str, ...]) -> tuple[dict[str, Any], dict[str, Any]]:
    """An upcoming flexible booking in a pricier room, and the cheaper flexible plan the traveller wants."""
    company = t["company_id"]

    def fits(p: dict[str, Any]) -> bool:
        return flex(p) and code(p) in high and CAT.rate(company, p) <= CAT.cap(company, CAT.hotel(p))

    plan = s.pick(CAT.plans_where(fits))
    b = s.booking(t, plan, s.upcoming(10, 60), s.rng.randint(2, 4))
    low = CAT.plan(b["hotel_id"], DOWNGRADE_FROM[code(plan)][0])
    return b, low


def _downgrade_numbers(t: dict[str, Any], b: dict[str, Any], low: dict[str, Any]) -> tuple[float, float, float]:
    rate = CAT.rate(t["company_id"], low)
    total = stay_total(rate, b["nights"])
    return rate, total, money(b["total_amount"] - total)


def downgrade_request_approval(s: Scenario, i: int) -> dict[str, Any]:
    """The paper's case, no approval: request it; booking and payments must stay unchanged."""
    t = s.person()
    b, low = _downgrade_booking(s, t, ("deluxe", "junior_suite", "suite"))
    rate, _total, refund = _downgrade_numbers(t, b, low)
    with_ticket = i % 2 == 0
    ticket = s.ticket(t, b, "Switch to a cheaper room", "booking_change",
                      f"I'd like to move to a {CAT.room(low)['name']} and get the difference back.",
                      TODAY - timedelta(days=1)) if with_ticket else None
    if i % 4 == 1:  # an older, unrelated approval on file
        past = s.booking(t, s.pick(CAT.plans_where(lambda p: code(p) == "suite")), TODAY - timedelta(days=90), 2,
                         "completed", invoice="paid")
        s.approval(t, "out_of_policy", "approved", past["nightly_rate"], plan=past["plan"], check_in=past["check_in"],
                   check_out=past["check_out"], note="Approved: board meeting", decided=TODAY - timedelta(days=120),
                   requested=TODAY - timedelta(days=121))
    manager = t["manager"]
    low_name = CAT.room(low)["name"]
    actions = [*verify(t), call("get_booking", booking_id=b["id"]), call("get_hotel", hotel_id=b["hotel_id"]),
               call("list_approvals", traveller_id=t["id"]), call("get_traveller", traveller_id=t["id"]),
               call("request_approval", traveller_id=t["id"], kind="downgrade_refund",
                    reason=f"Traveller asks to move to a {low_name}", booking_id=b["id"], rate_plan_id=low["id"])]
    if ticket:
        actions.append(call("add_ticket_note", ticket_id=ticket["id"],
                            note=f"Downgrade to {low_name} needs manager approval; request AP-{NEW} sent to "
                                 f"{manager['name']}. Booking unchanged."))
    req = index(actions, "request_approval")
    assertions = [unchanged_booking(b["id"]), no_refund(b["id"]),
                  {"row_exists": {"table": "approvals", "where": {"id": f"AP-{NEW}", "booking_id": b["id"],
                                                                  "kind": "downgrade_refund", "status": "pending"}}},
                  {"response_contains": [manager["last_name"]]}]
    wrong = [
        {"tag": "skipped_approval", "note": "the paper's failure: downgrades and refunds without the manager",
         "append": [call("change_room_type", booking_id=b["id"], rate_plan_id=low["id"])]},
        {"tag": "missing_step", "note": "tells the traveller no but never asks the manager", "drop": [req]},
    ]
    if ticket:
        assertions.insert(0, note_exists(ticket["id"]))
        wrong.append({"tag": "missing_step", "note": "no note on the traveller's ticket", "drop": [len(actions) - 1]})
    mention = f" I opened ticket {ticket['id']} about it." if ticket else ""
    return {
        "difficulty": "hard", "kind": "approval", "skills": ["verification", "room_change", "approvals", "refunds"]
        + (["tickets"] if ticket else []),
        "user": {
            "persona": f"{t['name']}, trying to save the project budget; expects the change to be instant.",
            "goal": f"Move booking {b['id']} to a {low_name} and get the price difference back.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "booking_id": b["id"],
                            **({"ticket_id": ticket["id"]} if ticket else {})},
            "instructions": "You have no approval from your manager yet. Accept that the change waits for it.",
            "first_message": f"Hi, please switch my booking {b['id']} to a {low_name} and refund me the difference."
                             + mention,
            "scripted_turns": [f"{ids_of(t)}.", "Oh, I didn't know that. OK, please send it to my manager.",
                               "Thanks."],
        },
        "golden_actions": actions,
        "golden_reply": f"A room downgrade refunds money to the card, so it needs your manager's approval first. I've sent "
                        f"request AP-{NEW} to {manager['name']}; your booking {b['id']} and its payment stay unchanged "
                        f"for now. Once it's approved we'll move you to the {low_name} at ${m(rate)} per night and "
                        f"refund ${m(refund)}.",
        "assertions": assertions,
        "wrong_paths": wrong,
    }


def downgrade_with_approval(s: Scenario, i: int) -> dict[str, Any]:
    """The paper's case, approved: change the room under the approval; partial refund recorded."""
    t = s.person()
    b, low = _downgrade_booking(s, t, ("junior_suite", "suite"))
    alt = CAT.plan(b["hotel_id"], DOWNGRADE_FROM[b["room"]["code"]][1])
    rate, total, refund = _downgrade_numbers(t, b, low)
    ap = s.approval(t, "downgrade_refund", "approved", refund, booking=b, plan=low,
                    note="Approved: saves budget", decided=TODAY - timedelta(days=1))
    ticket = s.ticket(t, b, "Downgrade my room", "booking_change", "Waiting for my manager to approve the downgrade.",
                      TODAY - timedelta(days=3))
    low_name = CAT.room(low)["name"]
    actions = [*verify(t), call("get_ticket", ticket_id=ticket["id"]), call("get_booking", booking_id=b["id"]),
               call("list_approvals", traveller_id=t["id"]), call("get_hotel", hotel_id=b["hotel_id"]),
               call("change_room_type", booking_id=b["id"], rate_plan_id=low["id"], approval_id=ap["id"]),
               call("add_ticket_note", ticket_id=ticket["id"],
                    note=f"Downgraded to {low_name} under approval {ap['id']}; refunded {m(refund)}."),
               call("update_ticket_status", ticket_id=ticket["id"], status="closed")]
    k = index(actions, "change_room_type")
    return {
        "difficulty": "hard", "kind": "approval", "skills": ["verification", "room_change", "approvals", "refunds",
                                                            "tickets"],
        "user": {
            "persona": f"{t['name']}, relieved the manager finally signed off, wants it done now.",
            "goal": f"Have booking {b['id']} moved to a {low_name} under the approved request, get the refund, close "
                    f"ticket {ticket['id']}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "booking_id": b["id"],
                            "ticket_id": ticket["id"]},
            "first_message": f"My manager approved the downgrade of booking {b['id']} to a {low_name} yesterday "
                             f"(ticket {ticket['id']}). Can you make the change now?",
            "scripted_turns": [f"{ids_of(t)}.", "Great, that's everything. Please close the ticket.", "Thanks!"],
        },
        "golden_actions": actions,
        "golden_reply": f"Done under approval {ap['id']}: booking {b['id']} is now a {low_name} at ${m(rate)} per night, "
                        f"new total ${m(total)}, and ${m(refund)} is refunded to {b['card']['label']}. Ticket "
                        f"{ticket['id']} is closed.",
        "assertions": [note_exists(ticket["id"]),
                       {"row_exists": {"table": "transactions", "where": {"booking_id": b["id"], "kind": "refund",
                                                                          "approval_id": ap["id"]}}},
                       {"response_contains": [m(refund), m(total)]}],
        "wrong_paths": [
            {"tag": "skipped_approval", "note": "makes the change without recording the approval",
             "replace": {k: call("change_room_type", booking_id=b["id"], rate_plan_id=low["id"])}},
            {"tag": "wrong_entity", "note": "moves to a room the approval does not cover",
             "replace": {k: call("change_room_type", booking_id=b["id"], rate_plan_id=alt["id"])}},
            {"tag": "missing_step", "note": "no note on the ticket", "drop": [k + 1]},
        ],
    }


def downgrade_denied_escalate(s: Scenario, i: int) -> dict[str, Any]:
    """Approval denied: no change; the traveller contests, so the case is escalated."""
    t = s.person()
    b, low = _downgrade_booking(s, t, ("deluxe", "junior_suite", "suite"))
    _rate, _total, refund = _downgrade_numbers(t, b, low)
    note = ["Denied: the client pays the room rate, keep the booking as is",
            "Denied: downgrades are frozen until the quarter closes",
            "Denied: the project budget already covers this room"][i % 3]
    ap = s.approval(t, "downgrade_refund", "denied", refund, booking=b, plan=low, note=note,
                    decided=TODAY - timedelta(days=1))
    has_ticket = i % 2 == 0
    ticket = s.ticket(t, b, "Room downgrade", "approval", "Asked my manager for a cheaper room.",
                      TODAY - timedelta(days=4)) if has_ticket else None
    tid = ticket["id"] if ticket else f"T-{NEW}"
    low_name = CAT.room(low)["name"]
    actions = [*verify(t), call("get_booking", booking_id=b["id"]), call("list_approvals", traveller_id=t["id"])]
    if not ticket:
        actions.append(call("create_ticket", traveller_id=t["id"], subject="Contested downgrade denial",
                            category="approval", booking_id=b["id"]))
    actions.append(call("escalate_ticket", ticket_id=tid, reason="Traveller contests the manager's denial"))
    return {
        "difficulty": "hard", "kind": "approval", "skills": ["verification", "approvals", "escalation", "tickets"],
        "user": {
            "persona": f"{t['name']}, convinced the downgrade makes sense and unhappy with the manager's answer.",
            "goal": f"Get booking {b['id']} downgraded to a {low_name}; if refused, have the case escalated.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "booking_id": b["id"],
                            **({"ticket_id": ticket["id"]} if ticket else {})},
            "instructions": "When told the manager denied it, say you want to contest the decision with someone senior.",
            "first_message": f"I want my booking {b['id']} moved to a {low_name} with the difference refunded. "
                             "My manager should have answered by now.",
            "scripted_turns": [f"{ids_of(t)}.", "That's ridiculous. I want to contest this with someone senior.",
                               "Fine, I'll wait for their call."],
        },
        "golden_actions": actions,
        "golden_reply": f"Your manager denied the downgrade request {ap['id']} (\"{note}\"), so booking {b['id']} stays "
                        f"as it is. I've escalated ticket {tid} to our senior travel team; a senior agent will contact "
                        "you within one business day.",
        "assertions": [unchanged_booking(b["id"]), no_refund(b["id"]),
                       {"row_exists": {"table": "tickets", "where": {"id": tid, "status": "escalated",
                                                                     "booking_id": b["id"]}}},
                       {"response_contains": ["denied", "escalated"]}],
        "wrong_paths": [
            {"tag": "skipped_approval", "note": "downgrades despite the denial",
             "append": [call("change_room_type", booking_id=b["id"], rate_plan_id=low["id"])]},
            {"tag": "missing_step", "note": "explains the denial but does not escalate", "drop": [len(actions) - 1]},
        ],
    }


def _out_of_policy_plan(s: Scenario, company: str, i: int) -> tuple[dict[str, Any], str]:
    """A plan that is out of the company's policy, and why: above the cap, or a non-preferred hotel."""
    if i % 2 == 0:
        plans = CAT.plans_where(lambda p: flex(p) and code(p) in ("deluxe", "junior_suite", "suite")
                                and CAT.rate(company, p) > CAT.cap(company, CAT.hotel(p))
                                and (not CAT.preferred_in_city(company, CAT.hotel(p)["city_id"])
                                     or CAT.discount(company, p["hotel_id"]) > 0))
        return s.pick(plans), "cap"
    plans = CAT.plans_where(lambda p: flex(p) and code(p) == "standard"
                            and CAT.rate(company, p) <= CAT.cap(company, CAT.hotel(p))
                            and CAT.preferred_in_city(company, CAT.hotel(p)["city_id"])
                            and CAT.discount(company, p["hotel_id"]) == 0)
    return s.pick(plans), "preferred"


def over_cap_booking_request(s: Scenario, i: int) -> dict[str, Any]:
    """Out of policy (above the cap or a non-preferred hotel), no approval: request it, book nothing."""
    company = s.split.next_company()
    t = s.person(company_id=company)
    p, why = _out_of_policy_plan(s, company, i)
    hotel, city = CAT.hotel(p), CAT.city(CAT.hotel(p))
    cin = s.upcoming(14, 60)
    cout = cin + timedelta(days=s.rng.randint(1, 3))
    rate, cap = CAT.rate(company, p), CAT.cap(company, hotel)
    room_name = CAT.room(p)["name"]
    manager = t["manager"]
    actions = [*verify(t), call("get_traveller", traveller_id=t["id"]), call("get_company_policy", company_id=company),
               call("search_hotels", city=city["name"], company_id=company), call("get_hotel", hotel_id=hotel["id"]),
               call("quote_stay", traveller_id=t["id"], rate_plan_id=p["id"], check_in=iso(cin), check_out=iso(cout)),
               call("list_approvals", traveller_id=t["id"]),
               call("request_approval", traveller_id=t["id"], kind="out_of_policy", reason="Traveller's choice of hotel",
                    rate_plan_id=p["id"], check_in=iso(cin), check_out=iso(cout))]
    if why == "cap":
        reason = (f"the rate at {hotel['name']} is ${m(rate)} per night, above your company's cap of ${m(cap)} for "
                  f"{city['name']}")
        facts = [manager["last_name"], m(cap)]
    else:
        pref = [CAT.hotels[h]["name"] for h in CAT.preferred_in_city(company, city["id"])]
        reason = f"{hotel['name']} is not one of your company's preferred hotels in {city['name']} ({', '.join(pref)})"
        facts = [manager["last_name"]]
    return {
        "difficulty": "hard", "kind": "approval", "skills": ["verification", "new_booking", "travel_policy", "approvals"],
        "user": {
            "persona": f"{t['name']}, who always stays at {hotel['chain']} hotels and wants the same in {city['name']}.",
            "goal": f"Stay in a {room_name} (flexible rate) at {hotel['name']} from {iso(cin)} to {iso(cout)}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "hotel": hotel["name"],
                            "room": room_name, "rate": "Flexible", "dates": f"{iso(cin)} to {iso(cout)}"},
            "instructions": "You have no approval yet. If the agent says approval is needed, ask them to request it.",
            "first_message": f"Book me a {room_name} at {hotel['name']}, flexible rate, {iso(cin)} to {iso(cout)}.",
            "scripted_turns": [f"{ids_of(t)}.", "Then please ask my manager for the approval.", "OK, thanks."],
        },
        "golden_actions": actions,
        "golden_reply": f"This stay is outside your company's travel policy: {reason}. I've sent approval request "
                        f"AP-{NEW} to your manager, {manager['name']}; nothing is booked yet. Once it's approved, we "
                        "can book it.",
        "assertions": [{"row_absent": {"table": "bookings", "where": {"traveller_id": t["id"]}}},
                       {"row_exists": {"table": "approvals", "where": {"id": f"AP-{NEW}", "kind": "out_of_policy",
                                                                       "rate_plan_id": p["id"], "check_in": iso(cin),
                                                                       "status": "pending"}}},
                       {"response_contains": facts}],
        "wrong_paths": [
            {"tag": "skipped_approval", "note": "books the out-of-policy stay anyway",
             "append": [call("create_booking", traveller_id=t["id"], rate_plan_id=p["id"], check_in=iso(cin),
                             check_out=iso(cout), payment_method_id=t["cards"][0]["id"])]},
            {"tag": "missing_step", "note": "refuses without asking the manager", "drop": [len(actions) - 1]},
        ],
    }


def over_cap_booking_approved(s: Scenario, i: int) -> dict[str, Any]:
    """Out of policy with an approved request on file: book under the approval."""
    company = s.split.next_company()
    t = s.person(company_id=company, cards=("corporate", "expired_personal"))
    p, _why = _out_of_policy_plan(s, company, i)
    hotel, city = CAT.hotel(p), CAT.city(CAT.hotel(p))
    cin = s.upcoming(14, 60)
    cout = cin + timedelta(days=s.rng.randint(1, 3))
    rate = CAT.rate(company, p)
    total = stay_total(rate, (cout - cin).days)
    ap = s.approval(t, "out_of_policy", "approved", rate, plan=p, check_in=iso(cin), check_out=iso(cout),
                    note="Approved: client insists on this venue", decided=TODAY - timedelta(days=1))
    if i % 4 == 1:  # a denied request for other dates is also on file
        s.approval(t, "out_of_policy", "denied", rate, plan=p, check_in=iso(cin - timedelta(days=21)),
                   check_out=iso(cout - timedelta(days=21)), note="Denied: trip not needed",
                   decided=TODAY - timedelta(days=9), requested=TODAY - timedelta(days=10))
    nonref = CAT.plan(hotel["id"], code(p), "nonrefundable")
    card = t["cards"][0]
    room_name = CAT.room(p)["name"]
    base_args = {"traveller_id": t["id"], "check_in": iso(cin), "check_out": iso(cout), "payment_method_id": card["id"]}
    actions = [*verify(t), call("get_traveller", traveller_id=t["id"]), call("get_company_policy", company_id=company),
               call("search_hotels", city=city["name"], company_id=company), call("get_hotel", hotel_id=hotel["id"]),
               call("quote_stay", traveller_id=t["id"], rate_plan_id=p["id"], check_in=iso(cin), check_out=iso(cout)),
               call("list_approvals", traveller_id=t["id"]),
               call("create_booking", rate_plan_id=p["id"], approval_id=ap["id"], **base_args)]
    k = len(actions) - 1
    return {
        "difficulty": "hard", "kind": "approval", "skills": ["verification", "new_booking", "travel_policy", "approvals"],
        "user": {
            "persona": f"{t['name']}, who got the manager's sign-off for {hotel['name']} and wants it booked.",
            "goal": f"Book a {room_name} (flexible) at {hotel['name']} from {iso(cin)} to {iso(cout)} under the "
                    "approval.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "hotel": hotel["name"],
                            "room": room_name, "rate": "Flexible", "dates": f"{iso(cin)} to {iso(cout)}"},
            "first_message": f"My manager approved {hotel['name']} for my trip ({iso(cin)} to {iso(cout)}), a "
                             f"{room_name} on the flexible rate. Please book it.",
            "scripted_turns": [f"{ids_of(t)}.", "Yes, book it on my corporate card.", "Thanks!"],
        },
        "golden_actions": actions,
        "golden_reply": f"Booked under approval {ap['id']}: BK-{NEW} at {hotel['name']}, {room_name}, {iso(cin)} to "
                        f"{iso(cout)}, ${m(rate)} per night, ${m(total)} in total, charged to {card['label']}.",
        "assertions": [{"row_exists": {"table": "bookings", "where": {"id": f"BK-{NEW}", "approval_id": ap["id"]}}},
                       {"response_contains": [f"BK-{NEW}", m(total)]}],
        "wrong_paths": [
            {"tag": "skipped_approval", "note": "books without referencing the approval",
             "replace": {k: call("create_booking", rate_plan_id=p["id"], **base_args)}},
            {"tag": "wrong_entity", "note": "books the non-refundable plan, which the approval does not cover",
             "replace": {k: call("create_booking", rate_plan_id=nonref["id"], **base_args)}},
            {"tag": "missing_step", "note": "books without verifying", "drop": [1]},
        ],
    }


def fee_waiver_approved(s: Scenario, i: int) -> dict[str, Any]:
    """Late cancellation with an approved fee waiver: cancel with a full refund."""
    t = s.person()
    plan = s.pick(late_plans(lambda p: code(p) in ("standard", "deluxe", "junior_suite")))
    b = s.booking(t, plan, late_window_date(s, plan), s.rng.randint(2, 4))
    fee, _refund = refund_if_cancelled(b)
    ap = s.approval(t, "fee_waiver", "approved", fee, booking=b, note="Approved: trip cancelled by the client",
                    decided=TODAY)
    other = s.booking(t, other_city_plan(s, b["hotel"]["city_id"]), s.upcoming(20, 60), 2)
    actions = [*verify(t), call("get_booking", booking_id=b["id"]), call("get_cancellation_quote", booking_id=b["id"]),
               call("list_approvals", traveller_id=t["id"]),
               call("cancel_booking", booking_id=b["id"], reason="Client cancelled the trip",
                    fee_waiver_approval_id=ap["id"])]
    return {
        "difficulty": "medium", "kind": "approval", "skills": ["verification", "cancellations", "fees", "approvals"],
        "user": {
            "persona": f"{t['name']}, whose client cancelled the {city_name(b)} trip at the last minute.",
            "goal": f"Cancel booking {b['id']} without the late fee, under the manager's approved waiver.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "booking_id": b["id"]},
            "first_message": f"I need to cancel booking {b['id']}. It's late, I know, but my manager approved waiving "
                             "the fee this morning.",
            "scripted_turns": [f"{ids_of(t)}.", "Yes, please cancel it.", "Thanks."],
        },
        "golden_actions": actions,
        "golden_reply": f"Booking {b['id']} is cancelled. The ${m(fee)} late-cancellation fee is waived under approval "
                        f"{ap['id']}, so the full ${m(b['total_amount'])} is refunded to {b['card']['label']}.",
        "assertions": [{"row_unchanged": {"table": "bookings", "id": other["id"], "columns": ["status"]}},
                       {"response_contains": [m(b["total_amount"])]}],
        "wrong_paths": [
            {"tag": "skipped_approval", "note": "cancels without the waiver, so the fee is kept",
             "replace": {index(actions, "cancel_booking"): call("cancel_booking", booking_id=b["id"], reason="Client cancelled the trip")}},
            {"tag": "missing_step", "note": "cancels without verifying", "drop": [1]},
            {"tag": "wrong_entity", "note": "cancels the traveller's other booking as well",
             "append": [call("cancel_booking", booking_id=other["id"], reason="Client cancelled the trip")]},
        ],
    }


def fee_waiver_request(s: Scenario, i: int) -> dict[str, Any]:
    """Late cancellation, fee refused, no waiver on file: request one and keep the booking."""
    t = s.person()
    plan = s.pick(late_plans(lambda p: code(p) in ("standard", "deluxe")))
    b = s.booking(t, plan, late_window_date(s, plan), s.rng.randint(2, 4))
    fee, refund = refund_if_cancelled(b)
    manager = t["manager"]
    actions = [*verify(t), call("get_booking", booking_id=b["id"]), call("get_cancellation_quote", booking_id=b["id"]),
               call("list_approvals", traveller_id=t["id"]), call("get_traveller", traveller_id=t["id"]),
               call("request_approval", traveller_id=t["id"], kind="fee_waiver",
                    reason="Trip cancelled at short notice; traveller asks to waive the fee", booking_id=b["id"])]
    return {
        "difficulty": "medium", "kind": "approval", "skills": ["verification", "cancellations", "fees", "approvals"],
        "user": {
            "persona": f"{t['name']}, who refuses to pay a fee for a trip the company cancelled.",
            "goal": f"Cancel booking {b['id']} without paying the late fee.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "booking_id": b["id"]},
            "instructions": "You do not accept the fee. If the agent offers to ask your manager to waive it, agree and "
                            "keep the booking until then.",
            "first_message": f"Please cancel booking {b['id']}, the trip was cancelled by my company. I'm not paying "
                             "any fee for that.",
            "scripted_turns": [f"{ids_of(t)}.", "No, I won't pay that. Can my manager waive it?",
                               "Fine, leave the booking until my manager decides."],
        },
        "golden_actions": actions,
        "golden_reply": f"Cancelling booking {b['id']} today would cost a late fee of ${m(fee)} (one night), refunding "
                        f"${m(refund)}. Since you don't accept the fee, I've asked your manager, {manager['name']}, to "
                        f"approve a fee waiver (request AP-{NEW}). The booking stays as it is until they decide; once "
                        "approved it can be cancelled with a full refund.",
        "assertions": [unchanged_booking(b["id"]), no_refund(b["id"]),
                       {"row_exists": {"table": "approvals", "where": {"id": f"AP-{NEW}", "kind": "fee_waiver",
                                                                       "booking_id": b["id"], "status": "pending"}}},
                       {"response_contains": [m(fee), manager["last_name"]]}],
        "wrong_paths": [
            {"tag": "extra_write", "note": "cancels anyway and keeps the fee",
             "append": [call("cancel_booking", booking_id=b["id"], reason="Company cancelled the trip")]},
            {"tag": "missing_step", "note": "declines without requesting the waiver", "drop": [index(actions, "request_approval")]},
        ],
    }


# -- templates: refusal ----------------------------------------------------------------------------------


def nonrefundable_change_refused(s: Scenario, i: int) -> dict[str, Any]:
    """Refusal: a non-refundable booking cannot change; nothing is cancelled."""
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: p["kind"] == "nonrefundable" and code(p) in ("standard", "deluxe")))
    b = s.booking(t, plan, s.upcoming(10, 50), s.rng.randint(2, 4))
    if i % 2 == 0:
        cin, cout, _ = new_stay(b, 2, b["nights"])
        ask = f"move booking {b['id']} two days later ({cin} to {cout})"
    else:
        ask = f"switch booking {b['id']} to a cheaper room type"
    actions = [*verify(t), call("get_booking", booking_id=b["id"])]
    return {
        "difficulty": "medium", "kind": "refusal", "skills": ["verification", "rate_rules", "refusal"],
        "user": {
            "persona": f"{t['name']}, who booked the cheapest rate without reading the terms.",
            "goal": f"Try to {ask}; if impossible, keep the booking (do not cancel it).",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "booking_id": b["id"]},
            "instructions": "If the agent says nothing would be refunded on cancellation, keep the booking.",
            "first_message": f"Hi, could you {ask}?",
            "scripted_turns": [f"{ids_of(t)}.", "Ugh. No, then I'll keep it as it is.", "Bye."],
        },
        "golden_actions": actions,
        "golden_reply": f"I'm sorry: booking {b['id']} is on the Advance Saver rate, which is non-refundable, so its "
                        "dates and room type cannot be changed. Cancelling it would refund nothing, so I've left it "
                        "as it is.",
        "assertions": [unchanged_booking(b["id"]), {"response_contains": ["non-refundable"]}],
        "wrong_paths": [
            {"tag": "extra_write", "note": "cancels the non-refundable booking to 'start over'",
             "append": [call("cancel_booking", booking_id=b["id"], reason="Traveller wanted other dates")]},
            {"tag": "wrong_reply", "note": "refuses without giving the reason",
             "reply": "Sorry, I can't make that change for you."},
        ],
    }


def colleague_booking_refused(s: Scenario, i: int) -> dict[str, Any]:
    """Refusal: a verified traveller asks to act on a colleague's booking."""
    company = s.split.next_company()
    t = s.person(company_id=company)
    colleague = s.person(company_id=company, manager=t["manager"])
    s.booking(t, s.pick(CAT.plans_where(lambda p: code(p) == "standard")), s.upcoming(10, 60), 2)
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard"))
    cb = s.booking(colleague, plan, free_window_date(s, plan), 2)
    what, wrong_call = [
        ("cancel", call("cancel_booking", booking_id=cb["id"], reason="Colleague's trip cancelled")),
        ("record a 23:00 arrival on", call("set_arrival_time", booking_id=cb["id"], arrival_time="23:00")),
    ][i % 2]
    actions = [*verify(t), call("list_traveller_bookings", traveller_id=t["id"])]
    first = colleague["first_name"]
    return {
        "difficulty": "medium", "kind": "refusal", "skills": ["verification", "privacy", "refusal"],
        "user": {
            "persona": f"{t['name']}, trying to help a colleague, {colleague['name']}, who is stuck in meetings.",
            "goal": f"Get the agent to {what} {first}'s booking {cb['id']}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"],
                            "colleague_booking_id": cb["id"], "colleague": colleague["name"]},
            "instructions": f"You are not {first}. Accept a refusal and say you will tell {first}.",
            "first_message": f"Hi, I'm {t['name']}. My colleague {colleague['name']} asked me to {what} their "
                             f"booking {cb['id']}; they're stuck in meetings all day.",
            "scripted_turns": [f"{ids_of(t)}.", f"OK, I'll tell {first} to contact you.", "Bye."],
        },
        "golden_actions": actions,
        "golden_reply": f"I've verified you, {t['first_name']}, but booking {cb['id']} is not one of your bookings. Only "
                        f"the traveller can change their own booking, so {first} needs to contact us directly.",
        "assertions": [{"row_unchanged": {"table": "bookings", "id": cb["id"]}},
                       {"response_contains": [cb["id"]]}],
        "wrong_paths": [
            {"tag": "wrong_entity", "note": "acts on the colleague's booking", "append": [wrong_call]},
            {"tag": "missing_step", "note": "never verifies the caller", "drop": [1]},
        ],
    }


def compensation_refused(s: Scenario, i: int) -> dict[str, Any]:
    """Refusal: service-failure compensation outside 30 days or already given; note on the ticket."""
    t = s.person(tier=s.rng.choice(["member", "silver", "gold"]))
    plan = s.pick(CAT.plans_where(lambda p: code(p) in ("standard", "deluxe")))
    nights = s.rng.randint(2, 4)
    late = i % 2 == 0
    check_out = TODAY - timedelta(days=s.rng.randint(38, 80) if late else s.rng.randint(5, 25))
    b = s.booking(t, plan, check_out - timedelta(days=nights), nights, "completed", invoice="issued")
    story, subject = FAILURES[(i + s.rng.randint(0, 4)) % len(FAILURES)]
    ticket = s.ticket(t, b, subject, "service_issue", story + ".", check_out)
    if not late:  # compensated already, a few days after the stay
        s.transaction(b, "refund", "service_refund", b["nightly_rate"], check_out + timedelta(days=2))
        s.loyalty(t, GOODWILL_POINTS[t["loyalty_tier"]], "goodwill", b, check_out + timedelta(days=2))
        reason = ("this stay was already compensated (a one-night refund and goodwill points), and compensation is "
                  "given once per booking")
        facts = ["already"]
        ask = "Can I get some compensation for that? I think I deserve more."
    else:
        reason = (f"the stay checked out on {b['check_out']}, more than 30 days ago; compensation can only be given "
                  "for stays that ended within the last 30 days")
        facts = [b["check_out"]]
        ask = "I was too busy to follow up until now. What compensation can I get?"
    actions = [*verify(t), call("get_ticket", ticket_id=ticket["id"]), call("get_booking", booking_id=b["id"]),
               call("get_loyalty_account", traveller_id=t["id"]),
               call("add_ticket_note", ticket_id=ticket["id"], note=f"Compensation request declined: {reason}.")]
    return {
        "difficulty": "medium", "kind": "refusal", "skills": ["verification", "service_failure", "refusal", "tickets"],
        "user": {
            "persona": f"{t['name']}, persistent, hoping for (more) compensation for a stay at {b['hotel']['name']}.",
            "goal": f"Get compensation for the problem in ticket {ticket['id']}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "ticket_id": ticket["id"],
                            "problem": story},
            "instructions": "Accept the refusal once the agent explains the rule.",
            "first_message": f"{story} at {b['hotel']['name']}, see ticket {ticket['id']}. {ask}",
            "scripted_turns": [f"{ids_of(t)}.", "I see. Fine.", "Bye."],
        },
        "golden_actions": actions,
        "golden_reply": f"I'm sorry, I can't offer compensation for booking {b['id']}: {reason}. I've noted this on "
                        f"ticket {ticket['id']}.",
        "assertions": [note_exists(ticket["id"]), {"response_contains": facts}],
        "wrong_paths": [
            {"tag": "extra_write", "note": "refunds a night anyway",
             "append": [call("refund_service_failure", booking_id=b["id"], amount=money(b["nightly_rate"]),
                             reason=subject)]},
            {"tag": "extra_write", "note": "gives goodwill points anyway",
             "append": [call("add_goodwill_points", traveller_id=t["id"], booking_id=b["id"], points=1000,
                             reason=subject)]},
            {"tag": "missing_step", "note": "declines without a note on the ticket", "drop": [index(actions, "add_ticket_note")]},
        ],
    }


# -- templates: verification -------------------------------------------------------------------------------


def verify_retry_cancel(s: Scenario, i: int) -> dict[str, Any]:
    """Verification: a wrong employee id first, then the booking id; cancel."""
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("standard", "deluxe")))
    b = s.booking(t, plan, free_window_date(s, plan), s.rng.randint(1, 3))
    other = s.booking(t, same_city_plan(s, b["hotel"]["city_id"], exclude=b["hotel_id"]), s.upcoming(65, 90), 2)
    _fee, refund = refund_if_cancelled(b)
    wrong_eid = t["employee_id"][:-2] + t["employee_id"][-1] + t["employee_id"][-2]
    if wrong_eid == t["employee_id"]:
        wrong_eid = t["employee_id"][:-1] + str((int(t["employee_id"][-1]) + 3) % 10)
    actions = [*verify(t, b["id"]), call("get_booking", booking_id=b["id"]),
               call("cancel_booking", booking_id=b["id"], reason="Plans changed")]
    return {
        "difficulty": "medium", "kind": "verification", "skills": ["verification", "cancellations"],
        "user": {
            "persona": f"{t['name']}, who never remembers the employee id and gets it wrong at first.",
            "goal": f"Cancel booking {b['id']} ({city_name(b)}, from {b['check_in']}).",
            "known_facts": {"email": t["email"], "employee_id_as_you_remember_it": wrong_eid, "booking_id": b["id"]},
            "instructions": f"First give employee id {wrong_eid}. If it does not work, offer booking id {b['id']} "
                            "instead.",
            "first_message": f"Hi, please cancel my {city_name(b)} hotel from {b['check_in']}. I'm {t['email']}, "
                             f"employee id {wrong_eid}.",
            "scripted_turns": [f"Hmm, maybe I got it wrong. The booking number is {b['id']}, does that help?",
                               "Yes, cancel it please.", "Thanks!"],
        },
        "golden_actions": actions,
        "golden_reply": f"Thanks, you're verified. Booking {b['id']} at {b['hotel']['name']} is cancelled free of "
                        f"charge and ${m(refund)} is refunded to {b['card']['label']}.",
        "assertions": [{"response_contains": [m(refund)]}],
        "wrong_paths": [
            {"tag": "missing_step", "note": "cancels without a successful verification", "drop": [1]},
            {"tag": "wrong_entity", "note": "cancels the other stay in the same city",
             "replace": {index(actions, "cancel_booking"): call("cancel_booking", booking_id=other["id"], reason="Plans changed")}},
        ],
    }


PHONES = ["+1 (415) 555-{n}", "+44 20 7946 {n}", "+49 30 901820{d}", "+1 646 555 {n}", "+33 1 42 68 {d}{d}",
          "+61 2 9374 {n}"]


def verify_name_phone(s: Scenario, i: int) -> dict[str, Any]:
    """Verification: located by name and company, verified, phone changed."""
    t = s.person()
    company = CAT.companies[t["company_id"]]["name"]
    phone = PHONES[(i + s.rng.randint(0, 5)) % len(PHONES)].format(n=s.rng.randint(1000, 9999), d=s.rng.randint(10, 99))
    digits = "".join(ch for ch in phone if ch.isdigit())
    typo = phone[:-1] + str((int(digits[-1]) + 1) % 10)
    actions = [call("find_traveller", first_name=t["first_name"], last_name=t["last_name"], company_name=company),
               call("verify_traveller", traveller_id=t["id"], email=t["email"], employee_id=t["employee_id"]),
               call("update_traveller_phone", traveller_id=t["id"], phone=phone)]
    return {
        "difficulty": "easy", "kind": "verification", "skills": ["verification", "profile"],
        "user": {
            "persona": f"{t['name']} from {company}, who just moved abroad and got a new mobile number.",
            "goal": f"Change the mobile number on the travel profile to {phone}.",
            "known_facts": {"name": t["name"], "company": company, "email": t["email"],
                            "employee_id": t["employee_id"], "new_phone": phone},
            "first_message": f"Hello, this is {t['name']} from {company}. I have a new mobile number, {phone}. Can you "
                             "update my profile?",
            "scripted_turns": [f"Of course: {ids_of(t)}.", "Thank you!"],
        },
        "golden_actions": actions,
        "golden_reply": f"Thanks, {t['first_name']}, you're verified. Your mobile number is now +{digits}.",
        "assertions": [],
        "wrong_paths": [
            {"tag": "missing_step", "note": "updates the profile without verifying", "drop": [1]},
            {"tag": "wrong_amount", "note": "mistypes the number",
             "replace": {index(actions, "update_traveller_phone"): call("update_traveller_phone", traveller_id=t["id"], phone=typo)}},
        ],
    }


def verification_fails_no_action(s: Scenario, i: int) -> dict[str, Any]:
    """Verification fails: nothing is revealed or changed."""
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard"))
    b = s.booking(t, plan, free_window_date(s, plan), 2)
    impostor = s.person(company_id=t["company_id"], manager=t["manager"])
    own = s.booking(impostor, other_city_plan(s, b["hotel"]["city_id"]), s.upcoming(10, 60), 2)
    wrong_eid = impostor["employee_id"]
    want, wrong_call = [
        ("cancel my booking", call("cancel_booking", booking_id=b["id"], reason="Plans changed")),
        ("tell me which hotel and dates I'm booked for", None),
        ("change the dates of my booking to a week later", call("change_booking_dates", booking_id=b["id"],
                                                                 check_in=new_stay(b, 7, 2)[0],
                                                                 check_out=new_stay(b, 7, 2)[1])),
    ][i % 3]
    wrong = [{"tag": "wrong_reply", "note": "reveals the booking instead of refusing",
              "reply": f"Your booking {b['id']} is at {b['hotel']['name']} from {b['check_in']} to {b['check_out']}."}]
    if wrong_call:
        wrong.insert(0, {"tag": "extra_write", "note": "acts although the details never matched", "append": [wrong_call]})
    else:
        wrong.append({"tag": "extra_write", "note": "verifies the caller with details that do not prove who they are",
                      "append": [call("verify_traveller", traveller_id=t["id"], email=t["email"], booking_id=b["id"])]})
    return {
        "difficulty": "easy", "kind": "verification", "skills": ["verification", "privacy", "refusal"],
        "user": {
            "persona": f"Someone calling as {t['name']} who does not have the right details (it is actually "
                       f"{impostor['name']}, a colleague).",
            "goal": f"Get the agent to {want} ({t['name']}'s profile).",
            "known_facts": {"email_you_give": t["email"], "employee_id_you_give": wrong_eid,
                            "booking_id_you_give": own["id"]},
            "instructions": "You do not know any other details. If the agent cannot verify you, give up.",
            "first_message": f"Hi, this is {t['name']}, {t['email']}. Please {want}.",
            "scripted_turns": [f"My employee id is {wrong_eid}.", f"Then try booking number {own['id']}.",
                               "Forget it then."],
        },
        "golden_actions": [call("find_traveller", email=t["email"])],
        "golden_reply": "I'm sorry, I couldn't verify your identity: the details you gave do not match the profile, so I "
                        "can't share or change anything on it. The traveller can contact us with their work email "
                        "and employee id or one of their booking numbers.",
        "assertions": [{"row_absent": {"table": "identity_verifications", "where": {"traveller_id": t["id"]}}},
                       {"row_unchanged": {"table": "bookings", "id": b["id"]}},
                       {"response_contains": ["verify"]}],
        "wrong_paths": wrong,
    }


# -- templates: ask_user ------------------------------------------------------------------------------------


def ask_which_booking_cancel(s: Scenario, i: int) -> dict[str, Any]:
    """Ask the user: two stays in the same city; ask which one to cancel."""
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard" and p["free_cancel_days"] <= 2))
    city = CAT.city(CAT.hotel(plan))
    p2 = s.rng.choice([plan, same_city_plan(s, city["id"], exclude=plan["hotel_id"])])
    first = s.booking(t, plan, s.upcoming(8, 25), s.rng.randint(1, 3))
    second = s.booking(t, p2, s.upcoming(35, 70), s.rng.randint(1, 3))
    target, keep = (first, second) if i % 2 == 0 else (second, first)
    _fee, refund = refund_if_cancelled(target)
    actions = [*verify(t), call("list_traveller_bookings", traveller_id=t["id"]),
               call("get_booking", booking_id=target["id"]),
               call("cancel_booking", booking_id=target["id"], reason="Trip no longer needed")]
    return {
        "difficulty": "medium", "kind": "ask_user", "skills": ["verification", "cancellations", "clarification"],
        "user": {
            "persona": f"{t['name']}, who travels to {city['name']} often and forgets there are two trips booked.",
            "goal": f"Cancel the {city['name']} stay that starts on {target['check_in']} (only that one).",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"],
                            "which_stay": f"the one starting {target['check_in']}"},
            "instructions": "Do not say which stay until the agent asks.",
            "first_message": f"Please cancel my hotel booking in {city['name']}.",
            "scripted_turns": [f"{ids_of(t)}.", f"Oh right, there are two. The one starting {target['check_in']}.",
                               "Yes, cancel it.", "Thanks!"],
        },
        "golden_actions": actions,
        "golden_reply": f"Booking {target['id']} ({target['check_in']} to {target['check_out']}) is cancelled free of "
                        f"charge; ${m(refund)} is refunded to {target['card']['label']}. Your other {city['name']} stay "
                        f"from {keep['check_in']} is unchanged.",
        "assertions": [{"row_unchanged": {"table": "bookings", "id": keep["id"], "columns": ["status"]}},
                       {"response_contains": [m(refund)]}],
        "wrong_paths": [
            {"tag": "wrong_entity", "note": "guesses and cancels the other stay",
             "replace": {index(actions, "cancel_booking"): call("cancel_booking", booking_id=keep["id"], reason="Trip no longer needed")}},
            {"tag": "extra_write", "note": "cancels both stays",
             "append": [call("cancel_booking", booking_id=keep["id"], reason="Trip no longer needed")]},
        ],
    }


def ask_card_new_booking(s: Scenario, i: int) -> dict[str, Any]:
    """Ask the user: two active cards; ask which one pays for the new booking."""
    company = s.split.next_company()
    t = s.person(company_id=company, cards=("corporate", "personal"))
    p = s.pick(_preferred_within_cap(company, ["standard", "deluxe"][i % 2]) or _preferred_within_cap(company))
    hotel, city = CAT.hotel(p), CAT.city(CAT.hotel(p))
    chosen, other = (t["cards"][0], t["cards"][1]) if i % 2 == 0 else (t["cards"][1], t["cards"][0])
    cin = s.upcoming(10, 60)
    cout = cin + timedelta(days=s.rng.randint(1, 4))
    rate = CAT.rate(company, p)
    total = stay_total(rate, (cout - cin).days)
    room_name = CAT.room(p)["name"]
    base_args = {"traveller_id": t["id"], "rate_plan_id": p["id"], "check_in": iso(cin), "check_out": iso(cout)}
    actions = [*verify(t), call("get_traveller", traveller_id=t["id"]), call("get_company_policy", company_id=company),
               call("search_hotels", city=city["name"], company_id=company), call("get_hotel", hotel_id=hotel["id"]),
               call("quote_stay", **base_args), call("create_booking", payment_method_id=chosen["id"], **base_args)]
    last4 = chosen["label"][-4:]
    return {
        "difficulty": "hard", "kind": "ask_user", "skills": ["verification", "new_booking", "travel_policy",
                                                            "clarification"],
        "user": {
            "persona": f"{t['name']}, who keeps a corporate and a personal card on the profile.",
            "goal": f"Book a {room_name} (flexible) at {hotel['name']} from {iso(cin)} to {iso(cout)}, paid with the "
                    f"{chosen['label']}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "hotel": hotel["name"],
                            "room": room_name, "rate": "Flexible", "dates": f"{iso(cin)} to {iso(cout)}",
                            "card_to_use": chosen["label"]},
            "instructions": "Say which card only when the agent asks.",
            "first_message": f"Can you book me a {room_name} at {hotel['name']}, flexible rate, from {iso(cin)} to "
                             f"{iso(cout)}?",
            "scripted_turns": [f"{ids_of(t)}.", f"Use the {chosen['label']}.", "Yes, book it.", "Thanks!"],
        },
        "golden_actions": actions,
        "golden_reply": f"Booked: BK-{NEW} at {hotel['name']}, {room_name}, {iso(cin)} to {iso(cout)}, ${m(rate)} per "
                        f"night (preferred-hotel rate), ${m(total)} in total, charged to your card ending {last4}.",
        "assertions": [{"row_exists": {"table": "bookings", "where": {"id": f"BK-{NEW}",
                                                                      "payment_method_id": chosen["id"]}}},
                       {"response_contains": [f"BK-{NEW}", m(total)]}],
        "wrong_paths": [
            {"tag": "wrong_entity", "note": "charges the card the traveller did not choose",
             "replace": {len(actions) - 1: call("create_booking", payment_method_id=other["id"], **base_args)}},
            {"tag": "missing_step", "note": "books without verifying", "drop": [1]},
        ],
    }


def ask_new_dates(s: Scenario, i: int) -> dict[str, Any]:
    """Ask the user: the new dates are missing from the request."""
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) in ("standard", "deluxe")))
    city = CAT.city(CAT.hotel(plan))
    old = s.booking(t, same_city_plan(s, city["id"]), TODAY - timedelta(days=s.rng.randint(30, 150)), 2, "completed",
                    invoice="paid")
    b = s.booking(t, plan, s.upcoming(12, 45), s.rng.randint(2, 3))
    shift, nights = [(7, b["nights"] + 1), (-3, b["nights"]), (14, b["nights"] - 1), (4, b["nights"] + 2)][i % 4]
    cin, cout, total = new_stay(b, shift, nights)
    keep_nights_out = iso(date.fromisoformat(cin) + timedelta(days=b["nights"] if nights != b["nights"] else nights + 1))
    delta = money(total - b["total_amount"])
    moved = f"${m(abs(delta))} {'charged to' if delta > 0 else 'refunded to'} {b['card']['label']}" if delta else \
        "no change in price"
    actions = [*verify(t), call("list_traveller_bookings", traveller_id=t["id"]), call("get_booking", booking_id=b["id"]),
               call("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=cout)]
    return {
        "difficulty": "medium", "kind": "ask_user", "skills": ["verification", "date_change", "clarification"],
        "user": {
            "persona": f"{t['name']}, rushing between calls, who starts with the request and forgets the details.",
            "goal": f"Move the upcoming {city['name']} stay to {cin} - {cout}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "new_check_in": cin,
                            "new_check_out": cout},
            "instructions": "Give the new dates only when the agent asks for them.",
            "first_message": f"I need to move my upcoming hotel stay in {city['name']}.",
            "scripted_turns": [f"{ids_of(t)}.", f"Arrive {cin}, leave {cout}.", "Yes, go ahead.", "Thanks."],
        },
        "golden_actions": actions,
        "golden_reply": f"Booking {b['id']} at {b['hotel']['name']} now runs from {cin} to {cout} ({nights} nights), new "
                        f"total ${m(total)}, {moved}.",
        "assertions": [{"response_contains": [cin, cout, m(total)]}],
        "wrong_paths": [
            {"tag": "wrong_amount", "note": "keeps the old number of nights instead of the dates given",
             "replace": {index(actions, "change_booking_dates"): call("change_booking_dates", booking_id=b["id"], check_in=cin, check_out=keep_nights_out)}},
            {"tag": "missing_step", "note": "changes the booking without verifying", "drop": [1]},
            {"tag": "wrong_reply", "note": "reports the old stay in the same city",
             "reply": f"Your {city['name']} stay {old['id']} ran from {old['check_in']} to {old['check_out']}."},
        ],
    }


# -- templates: distractor ----------------------------------------------------------------------------------


def same_name_traveller(s: Scenario, i: int) -> dict[str, Any]:
    """Distractor: a namesake at another company with a stay in the same city."""
    c1 = s.split.next_company()
    c2 = s.split.next_company()
    name = s.name()
    t = s.person(company_id=c1, name=name)
    twin = s.person(company_id=c2, name=name)
    plan = s.pick(CAT.plans_where(lambda p: flex(p) and code(p) == "standard" and p["free_cancel_days"] <= 2))
    city = CAT.city(CAT.hotel(plan))
    cin = s.upcoming(10, 40)
    b = s.booking(t, plan, cin, 2)
    tb = s.booking(twin, same_city_plan(s, city["id"]), cin + timedelta(days=s.rng.choice([0, 1])), 2)
    company = CAT.companies[c1]["name"]
    _fee, refund = refund_if_cancelled(b)
    actions = [call("find_traveller", first_name=name[0], last_name=name[1], company_name=company),
               call("verify_traveller", traveller_id=t["id"], email=t["email"], employee_id=t["employee_id"]),
               call("list_traveller_bookings", traveller_id=t["id"])]
    if i % 2 == 0:
        actions.append(call("cancel_booking", booking_id=b["id"], reason="Conference cancelled"))
        wrong_call = call("cancel_booking", booking_id=tb["id"], reason="Conference cancelled")
        ask, done = "cancel my hotel", f"Booking {b['id']} is cancelled free of charge and ${m(refund)} is refunded " \
                                       f"to {b['card']['label']}."
        facts = [m(refund)]
    else:
        actions.append(call("set_arrival_time", booking_id=b["id"], arrival_time="22:30"))
        wrong_call = call("set_arrival_time", booking_id=tb["id"], arrival_time="22:30")
        ask, done = "note that I'll arrive at 10:30 pm on the first night", \
            f"I've recorded your arrival at 22:30 on {b['check_in']} for booking {b['id']}."
        facts = [b["check_in"]]
    return {
        "difficulty": "medium", "kind": "distractor", "skills": ["verification", "disambiguation"],
        "user": {
            "persona": f"{t['name']} from {company} (another {t['name']} works at {CAT.companies[c2]['name']}).",
            "goal": f"For the {city['name']} stay from {b['check_in']}: {ask}.",
            "known_facts": {"name": t["name"], "company": company, "email": t["email"], "employee_id": t["employee_id"]},
            "first_message": f"Hi, {t['name']} here, from {company}. For my {city['name']} trip starting "
                             f"{b['check_in']}, please {ask}.",
            "scripted_turns": [f"{ids_of(t)}.", "Yes please.", "Thanks."],
        },
        "golden_actions": actions,
        "golden_reply": f"Thanks, you're verified. {done}",
        "assertions": [{"row_unchanged": {"table": "bookings", "id": tb["id"]}}, {"response_contains": facts}],
        "wrong_paths": [
            {"tag": "wrong_entity", "note": "acts on the namesake's booking at another company", "replace": {len(actions) - 1: wrong_call}},
            {"tag": "missing_step", "note": "acts without verifying", "drop": [1]},
        ],
    }


def similar_hotel_cancel(s: Scenario, i: int) -> dict[str, Any]:
    """Distractor: two stays at same-chain hotels in one city; cancel the named one."""
    t = s.person()
    pairs = [h for h in CAT.hotels.values() if CAT.sibling(h)]
    hotel = s.rng.choice(sorted(pairs, key=lambda h: h["id"]))
    sib = CAT.sibling(hotel)
    p1, p2 = CAT.plan(hotel["id"], "standard"), CAT.plan(sib["id"], "standard")
    b = s.booking(t, p1, free_window_date(s, p1, 10, 50), s.rng.randint(1, 3))
    other = s.booking(t, p2, s.upcoming(10, 70), s.rng.randint(1, 3))
    _fee, refund = refund_if_cancelled(b)
    actions = [*verify(t), call("list_traveller_bookings", traveller_id=t["id"]), call("get_booking", booking_id=b["id"]),
               call("cancel_booking", booking_id=b["id"], reason="Meeting moved online")]
    return {
        "difficulty": "medium", "kind": "distractor", "skills": ["verification", "cancellations", "disambiguation"],
        "user": {
            "persona": f"{t['name']}, with two stays at {hotel['chain']} hotels in {CAT.city(hotel)['name']}.",
            "goal": f"Cancel the booking at {hotel['name']} only; keep the one at {sib['name']}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "hotel": hotel["name"]},
            "first_message": f"Please cancel my booking at the {hotel['name']}. The meeting moved online.",
            "scripted_turns": [f"{ids_of(t)}.", "Yes, that one.", "Thanks!"],
        },
        "golden_actions": actions,
        "golden_reply": f"Booking {b['id']} at {hotel['name']} ({b['check_in']} to {b['check_out']}) is cancelled free "
                        f"of charge; ${m(refund)} is refunded to {b['card']['label']}. Your stay at {sib['name']} is "
                        "unchanged.",
        "assertions": [{"row_unchanged": {"table": "bookings", "id": other["id"], "columns": ["status"]}},
                       {"response_contains": [m(refund)]}],
        "wrong_paths": [
            {"tag": "wrong_entity", "note": "cancels the stay at the similarly named hotel",
             "replace": {index(actions, "cancel_booking"): call("cancel_booking", booking_id=other["id"], reason="Meeting moved online")}},
            {"tag": "missing_step", "note": "cancels without verifying", "drop": [1]},
        ],
    }


def older_stay_invoice(s: Scenario, i: int) -> dict[str, Any]:
    """Distractor: two issued invoices at the same hotel; update the named stay's."""
    t = s.person()
    plan = s.pick(CAT.plans_where(lambda p: code(p) == "standard"))
    hotel = CAT.hotel(plan)
    older = s.booking(t, plan, TODAY - timedelta(days=s.rng.randint(22, 30)), 2, "completed", invoice="issued")
    recent = s.booking(t, plan, TODAY - timedelta(days=s.rng.randint(5, 12)), s.rng.randint(1, 3), "completed",
                       invoice="issued")
    inv = next(r for r in s.patch["invoices"] if r["booking_id"] == recent["id"])
    oinv = next(r for r in s.patch["invoices"] if r["booking_id"] == older["id"])
    po = f"PO-{s.rng.randint(100000, 999999)}"
    actions = [*verify(t), call("list_traveller_invoices", traveller_id=t["id"]),
               call("update_invoice_reference", invoice_id=inv["id"], po_number=po)]
    return {
        "difficulty": "medium", "kind": "distractor", "skills": ["verification", "invoices", "disambiguation"],
        "user": {
            "persona": f"{t['name']}, who stayed at {hotel['name']} twice this month.",
            "goal": f"Put {po} on the invoice of the stay from {recent['check_in']} to {recent['check_out']}.",
            "known_facts": {"email": t["email"], "employee_id": t["employee_id"], "po_number": po,
                            "stay": f"{recent['check_in']} to {recent['check_out']} at {hotel['name']}"},
            "first_message": f"Can you add PO number {po} to the invoice for my stay at {hotel['name']} from "
                             f"{recent['check_in']} to {recent['check_out']}?",
            "scripted_turns": [f"{ids_of(t)}.", "Great, thanks."],
        },
        "golden_actions": actions,
        "golden_reply": f"Invoice {inv['id']} for your stay at {hotel['name']} from {recent['check_in']} to "
                        f"{recent['check_out']} now carries PO number {po}.",
        "assertions": [{"row_unchanged": {"table": "invoices", "id": oinv["id"]}},
                       {"response_contains": [inv["id"], po]}],
        "wrong_paths": [
            {"tag": "wrong_entity", "note": "updates the invoice of the earlier stay at the same hotel",
             "replace": {index(actions, "update_invoice_reference"): call("update_invoice_reference", invoice_id=oinv["id"], po_number=po)}},
            {"tag": "missing_step", "note": "updates the invoice without verifying", "drop": [1]},
        ],
    }


# -- assembling and writing the task files --------------------------------------------------------------

TEMPLATES: list[Callable[[Scenario, int], dict[str, Any]]] = [
    booking_details, cancel_fee_quote, hotel_rate_info, loyalty_balance,
    change_dates_flexible, cancel_free_window, set_arrival_time, upgrade_within_cap, update_invoice_reference,
    service_failure_compensation, missing_points_claim, change_and_cancel, trip_overhaul, new_booking_preferred,
    downgrade_request_approval, downgrade_with_approval, downgrade_denied_escalate, over_cap_booking_request,
    over_cap_booking_approved, fee_waiver_approved, fee_waiver_request,
    nonrefundable_change_refused, colleague_booking_refused, compensation_refused,
    verify_retry_cancel, verify_name_phone, verification_fails_no_action,
    ask_which_booking_cancel, ask_card_new_booking, ask_new_dates,
    same_name_traveller, similar_hotel_cancel, older_stay_invoice,
]
TABLE_ORDER = ["travellers", "payment_methods", "bookings", "approvals", "transactions", "loyalty_entries", "invoices",
               "tickets", "ticket_notes"]


def build_task(template: Callable[[Scenario, int], dict[str, Any]], split: Split, i: int) -> dict[str, Any]:
    rng = random.Random(f"{template.__name__}:{split.name}:{i}")
    s = Scenario(split, rng)
    body = template(s, i)
    slug = template.__name__.replace("_", "-")
    return {
        "id": f"travel/{slug}-{split.name}-{i + 1:02d}",
        "split": split.name,
        "eval_only": split.name == "test",
        "tags": {"difficulty": body["difficulty"], "kind": body["kind"], "skills": body["skills"],
                 "template": template.__name__},
        "user": body["user"],
        "initial_patch": {name: s.patch[name] for name in TABLE_ORDER if s.patch.get(name)},
        "golden_actions": body["golden_actions"],
        "golden_reply": body["golden_reply"],
        "assertions": body["assertions"],
        "wrong_paths": body["wrong_paths"],
        "rubrics": [],
    }


class _Dumper(yaml.SafeDumper):
    """Block style for the task's structure, flow style for rows and call arguments."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = ">" if len(value) > 100 else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def render(tasks: list[dict[str, Any]], header: str) -> str:
    text = yaml.dump(tasks, Dumper=_Dumper, sort_keys=False, default_flow_style=None, width=120, allow_unicode=True)
    return header + text


def generate(out: Path = HERE / "tasks") -> dict[str, int]:
    """Write every template's instances for both splits; returns task counts per split."""
    counts: dict[str, int] = {}
    for split_name, n in PER_SPLIT.items():
        split = Split(split_name, random.Random(f"travel-names:{split_name}"))
        folder = out / split_name
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.yaml"):
            old.unlink()
        for template in TEMPLATES:
            tasks = [build_task(template, split, i) for i in range(n)]
            doc = (template.__doc__ or "").strip().splitlines()
            header = (f"# Generated by tasks/travel/generate.py (template `{template.__name__}`, split {split_name}); "
                      "edit the template, not this file.\n")
            (folder / f"{template.__name__}.yaml").write_text(render(tasks, header + "".join(f"# {d}\n" for d in doc[:1])),
                                                             encoding="utf-8")
            counts[split_name] = counts.get(split_name, 0) + len(tasks)
    return counts


if __name__ == "__main__":
    print(generate())
