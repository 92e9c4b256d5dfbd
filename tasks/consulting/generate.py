"""The consulting tasks (`tasks/<split>/<template>.yaml`), written from templates with `tb_env.kit`.

Run `python -m tb_env.tasks.consulting.generate` to rewrite them (`--check`: are the files
current; `--validate`: run `tb-env validate`'s probes on them); the output is deterministic.

The top of this file is the scene: the firm's shared set-up read from `seed.py`
(departments, systems and their owners, roles, licence pools, catalogue), the split's
ids and names (`DeskPool`: test instances use ids from 5001 and one set of names, train
instances ids from 6001 and another, so the splits never share an entity), and `Desk`,
the builders of the records a scenario adds (people, grants, requests, seats, orders,
leave, tickets). Below it, one template per scenario: given a seeded `Desk`, it states the
caller (who they are, what they ask, what they can tell when asked), the golden calls
and reply, what must hold at the end, and the plausible mistakes that must score 0.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from tb_env.components.ticketing import CLAIMS as TICKET_CLAIMS
from tb_env.kit import (
    Caller,
    Golden,
    Pool,
    Scene,
    TaskSpec,
    Templates,
    append,
    call,
    called,
    drop,
    exists,
    fact,
    grounded,
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

from . import seed
from .tools import LAPTOP_REFRESH_MONTHS, _add_months

HERE = Path(__file__).parent
TODAY = seed.TODAY
COUNTS = {"test": 3, "train": 2}  # instances per template and split

BASE = seed.build()
BASE_EMP = {e["id"]: e for e in BASE["employees"]}
DEPTS = {d["id"]: d for d in BASE["departments"]}
OFFICES = {o["name"]: o for o in BASE["offices"]}
ROLES = {r["id"]: r for r in BASE["system_roles"]}
SYSTEMS = {s["id"]: s for s in BASE["systems"]}
POOLS = {p["id"]: p for p in BASE["licence_pools"]}
POOL_USED = Counter(a["pool_id"] for a in BASE["licence_assignments"] if a["status"] == "active")
PRICES = {c["id"]: c["price"] for c in BASE["catalogue_items"]}
ITEM_NAMES = {c["id"]: c["name"] for c in BASE["catalogue_items"]}
LIMITS = {h["level"]: h["order_limit"] for h in BASE["hardware_limits"]}
HOLIDAYS = {h["day"] for h in BASE["public_holidays"]}

NAMES = {
    "test": (
        ["Amelia", "Bruno", "Chiara", "Dmitri", "Esther", "Felix", "Gemma", "Hugo", "Ines", "Jonah", "Keiko",
         "Lucas", "Marisol", "Nikhil", "Odette", "Pablo", "Renata", "Sanjay", "Tobias", "Uma", "Valentina",
         "Wendell", "Yasmin", "Zoltan", "Alina", "Bastian", "Cosima", "Darius", "Elif", "Florian"],
        ["Achebe", "Bergstrom", "Carvalho", "Dimitriou", "Esposito", "Fontaine", "Gallagher", "Haddad",
         "Ishikawa", "Jovanovic", "Kaczmarek", "Laurent", "Mbeki", "Novak", "Okonkwo", "Petrovic", "Quintana",
         "Rasmussen", "Szabo", "Tanaka", "Vasquez", "Wojcik", "Yilmaz", "Zamora", "Aguilar", "Brandt",
         "Cardenas", "Duarte", "Engstrom", "Ferrante", "Gruber", "Halvorsen", "Iglesias", "Jaramillo"],
    ),
    "train": (
        ["Aubrey", "Bertram", "Clementine", "Desmond", "Eloise", "Fergus", "Greta", "Horace", "Isla", "Jude",
         "Kendall", "Leopold", "Maude", "Nico", "Orla", "Phineas", "Rosalie", "Soren", "Tilda", "Vincent",
         "Winona", "Xavier", "Yara", "Zeke"],
        ["Albright", "Bishop", "Crane", "Dalton", "Ellis", "Forde", "Hale", "Irwin", "Keane", "Lowry", "Marsh",
         "Nash", "Oakes", "Pryce", "Quill", "Rowe", "Sloane", "Tate", "Vance", "Wilde", "Yates", "Ashby",
         "Barlow", "Coates", "Dunmore", "Everly"],
    ),
}
STREETS = ["Juniper St", "Magnolia Ave", "Larkspur Ln", "Orchard Rd", "Beacon St", "Canal St", "Fairview Ave",
           "Granite Way", "Hawthorne Dr", "Ivy Ct", "Kingsley Rd", "Linden Blvd"]
AREA = {"New York": "212", "Chicago": "312", "Boston": "617", "Austin": "512", "San Francisco": "415"}
HOME_ZIPS = {o[0]: o[5] for o in seed.OFFICES}
TITLES = seed.TITLES

# per department: the roles beyond the baseline its leavers hold, and the licences its leavers hold and new hires get
OPTIONAL = {"D-STR": ["SFDC-READ", "DOC-EDIT"], "D-OPS": ["DOC-READ", "JIRA-USER"], "D-TEC": ["GIT-DEV", "AWS-DEV"],
            "D-DAT": ["PBI-PUBLISH", "GIT-REPORTER"], "D-RSK": ["DOC-EDIT", "SAP-GL-VIEW"],
            "D-FIN": ["SAP-GL-VIEW", "SAP-AP-CLERK"], "D-HR": ["WKD-HR-PARTNER", "DOC-READ"],
            "D-IT": ["JIRA-ADMIN", "AWS-READONLY"], "D-MKT": ["SFDC-EDIT", "INTRA-EDITOR"],
            "D-LEG": ["DOC-EDIT", "SFDC-READ"]}
DEPT_POOLS = {"D-STR": ["LP-VISIO", "LP-MIRO"], "D-OPS": ["LP-PROJ", "LP-VISIO"], "D-TEC": ["LP-JETB", "LP-MIRO"],
              "D-DAT": ["LP-TABL", "LP-PBIP"], "D-RSK": ["LP-ACRO", "LP-PBIP"], "D-FIN": ["LP-ACRO", "LP-PBIP"],
              "D-HR": ["LP-ACRO", "LP-ZOOMW"], "D-IT": ["LP-JETB", "LP-VISIO"], "D-MKT": ["LP-ADCC", "LP-FIGM"],
              "D-LEG": ["LP-ACRO", "LP-MIRO"]}


def iso(d: date) -> str:
    return d.isoformat()


def days_ago(n: int) -> str:
    return iso(TODAY - timedelta(days=n))


def days_ahead(n: int) -> str:
    return iso(TODAY + timedelta(days=n))


def working_days(start: str, end: str) -> int:
    return seed.working_days(date.fromisoformat(start), date.fromisoformat(end), HOLIDAYS)


def money(x: float) -> str:
    """How the golden reply writes an amount: 2,748.00."""
    return f"{x:,.2f}"


def name(e: dict[str, Any]) -> str:
    return f"{e['first_name']} {e['last_name']}"


def base_name(employee_id: str) -> str:
    return name(BASE_EMP[employee_id])


def kit_laptop(dept: str, level: str) -> str:
    if level == "analyst":
        return "HW-LAP-STD"
    return "HW-LAP-PRF" if dept in ("D-DAT", "D-TEC") else "HW-LAP-ULT"


# -- the scene -----------------------------------------------------------------------------------


class DeskPool(Pool):
    """A split's ids (from 5001 in test, 6001 in train; asset ids from 50001 / 60001) and
    people, drawn in the order this domain has always drawn them, so every task keeps its
    people across the move onto the kit."""

    def __init__(self, split: str):
        super().__init__(split, bases={"AS": {"test": 50001, "train": 60001}}, default_base={"test": 5001, "train": 6001})
        firsts, lasts = NAMES[split]
        self.people = [(f, last) for last in lasts for f in firsts]
        random.Random(f"names:{split}").shuffle(self.people)

    def name(self) -> tuple[str, str]:
        return self.people.pop(0)


class Desk(Scene):
    """The records one scenario adds to the firm: people and everything they hold."""

    def person(
        self,
        dept: str,
        level: str,
        manager_id: str | None,
        *,
        first_last: tuple[str, str] | None = None,
        baseline: bool = True,
        **kw: Any,
    ) -> dict[str, Any]:
        r = self.rng
        first, last = first_last or self.pool.name()
        eid = self.pool.id("E")
        office = kw.pop("office", r.choice(sorted(OFFICES)))
        mode = kw.pop("work_mode", r.choice(["office", "hybrid", "hybrid", "remote"]))
        if mode == "remote":
            city, state, zip_code = r.choice(seed.REMOTE_PLACES)
        else:
            city, state, zip_code = OFFICES[office]["city"], OFFICES[office]["state"], r.choice(HOME_ZIPS[office])
        years = {"analyst": 2, "consultant": 4, "senior_consultant": 6, "manager": 9, "director": 12, "partner": 15}[level]
        suffix = "" if first_last is None else "2"
        e = {
            "id": eid, "first_name": first, "last_name": last,
            "email": f"{first}.{last}{suffix}@meridianpartners.com".lower(), "department_id": dept,
            "manager_id": manager_id, "title": TITLES[level], "level": level, "status": "active",
            "start_date": days_ago(r.randint(200, 365 * years + 200)), "end_date": None, "office": office,
            "work_mode": mode, "date_of_birth": iso(date(1966, 1, 1) + timedelta(days=r.randint(0, 12500))),
            "mobile_phone": f"{AREA[office]}-555-{r.randint(1000, 9999)}",
            "home_line1": f"{r.randint(10, 9999)} {r.choice(STREETS)}", "home_city": city, "home_state": state,
            "home_zip": zip_code, "account_status": "active",
        }
        e.update(kw)
        self.add("employees", e)
        if baseline and e["status"] in ("active", "on_leave"):
            for role in ("M365-USER", "INTRA-READ", "TIME-USER"):
                self.grant(e, role, e["start_date"])
        return e

    def manager_and_report(
        self, dept: str | None = None, level: str | None = None, **kw: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        dept = dept or self.rng.choice(sorted(DEPTS))
        level = level or self.rng.choice(["analyst", "consultant", "senior_consultant"])
        boss = "director" if level == "manager" else self.rng.choice(["manager", "director"])
        manager = self.person(dept, boss, DEPTS[dept]["head_id"])
        return manager, self.person(dept, level, manager["id"], **kw)

    def colleagues(self, k: int) -> list[dict[str, Any]]:
        """`k` people from `k` different departments, with no access of their own."""
        return [
            self.person(dept, self.rng.choice(["analyst", "consultant", "senior_consultant"]), DEPTS[dept]["head_id"],
                        baseline=False)
            for dept in self.rng.sample(sorted(DEPTS), k)
        ]

    def grant(self, e: dict[str, Any], role: str, granted_on: str, status: str = "active",
              revoked_on: str | None = None, request_id: str | None = None) -> dict[str, Any]:
        return self.add("access_grants", {"id": f"{e['id']}/{role}", "employee_id": e["id"], "role_id": role,
                                          "status": status, "granted_on": granted_on, "revoked_on": revoked_on,
                                          "request_id": request_id})

    def request(self, e: dict[str, Any], role: str, status: str, approver_id: str, decision: str,
                created: str, note: str | None = None, requested_by: str | None = None) -> tuple[str, str]:
        """An access request and its approval; returns their ids."""
        rid, aid = self.pool.id("AR"), self.pool.id("AP")
        self.add("access_requests", {"id": rid, "employee_id": e["id"], "role_id": role,
                                     "requested_by": requested_by or e["id"], "status": status,
                                     "justification": "Needed for my current engagement.",
                                     "created_at": f"{created}T09:30:00Z"})
        self.add("approvals", {"id": aid, "subject_type": "access_request", "subject_id": rid, "employee_id": e["id"],
                               "approver_id": approver_id, "amount": None, "status": decision, "decision_note": note,
                               "decided_on": None if decision == "pending"
                               else iso(date.fromisoformat(created) + timedelta(days=2)),
                               "created_at": f"{created}T09:30:00Z"})
        return rid, aid

    def asset(self, e: dict[str, Any], item: str, assigned_on: str, status: str = "assigned",
              returned_on: str | None = None) -> dict[str, Any]:
        return self.add("assets", {"id": self.pool.id("AS"), "employee_id": e["id"], "item_id": item,
                                   "serial_number": f"SN{self.rng.randint(10**7, 10**8 - 1)}", "status": status,
                                   "assigned_on": assigned_on, "returned_on": returned_on})

    def eligible_laptop(self, e: dict[str, Any]) -> None:
        """A laptop old enough for a refresh, and a monitor."""
        self.asset(e, "HW-LAP-OLD", days_ago(self.rng.randint(1100, 1400)))
        self.asset(e, "HW-MON-27", days_ago(self.rng.randint(400, 900)))

    def leaver(self, e: dict[str, Any], n: int) -> tuple[list[str], list[str], list[str]]:
        """Give a leaver roles, seats and devices (plus some history); returns the active roles,
        pools and device ids."""
        dept = e["department_id"]
        roles = ["INTRA-READ", "M365-USER", "TIME-USER"]
        extra = OPTIONAL[dept][: 1 + n % 2]
        for role in extra:
            self.grant(e, role, days_ago(self.rng.randint(100, 500)))
        self.grant(e, "PBI-VIEW" if "PBI-VIEW" not in extra else "SFDC-READ", days_ago(600), status="revoked",
                   revoked_on=days_ago(300))
        pools = DEPT_POOLS[dept][: 1 + (n + 1) % 2]
        for p in pools:
            self.seat(p, e, days_ago(self.rng.randint(100, 500)), days_ago(self.rng.randint(1, 20)))
        gone = next(p for p in ("LP-MIRO", "LP-ACRO", "LP-ZOOMW") if p not in pools)
        self.seat(gone, e, days_ago(700), days_ago(400), status="reclaimed")
        devices = [self.asset(e, kit_laptop(dept, e["level"]), days_ago(self.rng.randint(200, 800)))["id"]]
        for item in self.rng.sample(["HW-MON-27", "HW-DOCK", "HW-PHN", "HW-HSET"], 1 + n % 2):
            devices.append(self.asset(e, item, days_ago(self.rng.randint(200, 800)))["id"])
        self.asset(e, "HW-LAP-OLD", days_ago(1400), status="returned", returned_on=days_ago(600))
        return sorted(roles + extra), pools, devices

    def seat(self, pool: str, e: dict[str, Any], assigned_on: str, last_used_on: str | None,
             status: str = "active") -> dict[str, Any]:
        return self.add("licence_assignments", {"id": f"{pool}/{e['id']}", "pool_id": pool, "employee_id": e["id"],
                                                "status": status, "cost_centre": DEPTS[e["department_id"]]["cost_centre"],
                                                "assigned_on": assigned_on, "last_used_on": last_used_on,
                                                "reclaimed_on": None if status == "active" else last_used_on})

    def fill_pool(self, pool: str, extra_active: int) -> None:
        """Make a pool exactly full once the task's own seats are counted."""
        self.add("licence_pools", {"id": pool, "total_seats": POOL_USED[pool] + extra_active})

    def order(self, e: dict[str, Any], items: list[str], status: str, placed_on: str, ship_to: str) -> dict[str, Any]:
        oid = self.pool.id("HO")
        shipped = status in ("shipped", "delivered")
        eta = iso(date.fromisoformat(placed_on) + timedelta(days=6))
        o = self.add("hardware_orders", {
            "id": oid, "employee_id": e["id"], "requested_by": e["id"], "status": status,
            "total": round(sum(PRICES[i] for i in items), 2), "ship_to": ship_to,
            "ship_address": ship_address(e, ship_to), "approval_id": None, "placed_on": placed_on,
            "tracking_number": f"1Z{self.rng.randint(10**9, 10**10 - 1)}" if shipped else None,
            "eta": eta if shipped else None, "delivered_on": eta if status == "delivered" else None,
        })
        for item in sorted(set(items)):
            self.add("hardware_order_lines", {"id": f"{oid}/{item}", "order_id": oid, "item_id": item,
                                              "quantity": items.count(item), "unit_price": PRICES[item]})
        return o

    def balances(self, e: dict[str, Any], entitled: int, carried: int) -> None:
        for year, c in ((2026, carried), (2027, 0)):
            self.add("leave_balances", {"id": f"{e['id']}/{year}/annual", "employee_id": e["id"], "year": year,
                                        "leave_type": "annual", "entitled_days": entitled, "carried_over_days": c})
            self.add("leave_balances", {"id": f"{e['id']}/{year}/wellbeing", "employee_id": e["id"], "year": year,
                                        "leave_type": "wellbeing", "entitled_days": 2, "carried_over_days": 0})

    def leave(self, e: dict[str, Any], start: str, end: str, status: str, leave_type: str = "annual") -> dict[str, Any]:
        return self.add("leave_requests", {"id": self.pool.id("LR"), "employee_id": e["id"], "leave_type": leave_type,
                                           "start_date": start, "end_date": end, "days": working_days(start, end),
                                           "status": status, "approver_id": e["manager_id"],
                                           "created_at": f"{days_ago(40)}T10:00:00Z"})

    def past_leave(self, e: dict[str, Any], total: int, year: int = 2026) -> None:
        """Approved leave in a year adding up to `total` working days (weeks without holidays):
        taken in 2026, booked ahead in 2027."""
        mondays = {2026: ["02-02", "02-16", "03-09", "04-13", "06-08", "08-03", "08-17", "10-05"],
                   2027: ["03-01", "03-15", "04-12", "05-03", "06-07", "07-12", "08-09", "09-13"]}[year]
        for md in mondays:
            if total <= 0:
                break
            k = min(5, total)
            monday = date.fromisoformat(f"{year}-{md}")
            self.leave(e, iso(monday), iso(monday + timedelta(days=k - 1)), "approved")
            total -= k

    def ticket(self, e: dict[str, Any], category: str, subject: str, linked_ref: str | None = None,
               status: str = "open", created: str | None = None) -> dict[str, Any]:
        tid = self.pool.id("T")
        t = self.add("tickets", {"id": tid, "employee_id": e["id"], "category": category, "subject": subject,
                                 "status": status, "priority": "normal", "assigned_team": "service_desk",
                                 "linked_ref": linked_ref,
                                 "created_at": f"{created or days_ago(self.rng.randint(1, 6))}T08:45:00Z"})
        self.add("ticket_notes", {"id": f"N-{tid[2:]}", "ticket_id": tid, "author": "employee", "body": subject,
                                  "created_at": t["created_at"]})
        return t


def ship_address(e: dict[str, Any], ship_to: str) -> str:
    if ship_to == "home":
        return f"{name(e)}, {e['home_line1']}, {e['home_city']}, {e['home_state']} {e['home_zip']}"
    o = OFFICES[e["office"]]
    return f"{name(e)} c/o Meridian Partners, {o['line1']}, {o['city']}, {o['state']} {o['zip_code']}"


# -- the caller, the golden path, and the policy's rules as assertions ------------------------------


def identity(e: dict[str, Any]) -> dict[str, Any]:
    """What a caller can tell about themselves when asked: the employee id and both second
    factors (the golden path uses one; either verifies)."""
    return {"employee_id": e["id"], "date_of_birth": e["date_of_birth"], "mobile_last4": e["mobile_phone"][-4:]}


def verify(g: Golden, e: dict[str, Any], method: str) -> int:
    """The identity check, with the second factor the caller gives (`dob` or `mobile`)."""
    if method == "dob":
        return g.add("verify_identity", employee_id=e["id"], date_of_birth=e["date_of_birth"])
    return g.add("verify_identity", employee_id=e["id"], mobile_last4=e["mobile_phone"][-4:])


# the argument that names the record a golden call is about, in order of preference
RECORD_KEYS = ("employee_id", "ticket_id", "request_id", "order_id", "asset_id")
VERIFY_FIRST = "policy: verify the caller before looking up or changing anything about an employee"


def verified_first(s: Desk, g: Golden, caller: dict[str, Any], report: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Policy, Identity verification: nothing about a specific employee (the caller, the
    report a manager calls about, anyone the golden path acts on) is looked up or changed
    before the caller is verified: no call naming any of them, nor a record the golden path
    works on (a ticket, request, order or asset), before a successful `verify_identity`;
    nor the directory search or list of reports that find the report. Call it once the
    golden path is complete."""
    gate = next(i for i, c in enumerate(g.calls) if c["name"] == "verify_identity")
    people = [caller["id"]] + ([report["id"]] if report else [])
    people += [c["arguments"]["employee_id"] for c in g.calls[gate + 1:] if "employee_id" in c["arguments"]]
    held = {row["id"] for rows in s.patch().values() for row in rows if "id" in row}
    records = [args[k] for c in g.calls[gate + 1:] for k in RECORD_KEYS[1:] if (args := c["arguments"]).get(k) in held]
    rules = [no_call(mentions=[x], before="verify_identity", why=VERIFY_FIRST) for x in dict.fromkeys([*people, *records])]
    if report:
        rules.append(no_call("list_direct_reports", before="verify_identity", why=VERIFY_FIRST, manager_id=caller["id"]))
    for c in g.calls[gate + 1:]:
        if c["name"] == "find_employee":
            names = {k: c["arguments"][k] for k in ("first_name", "last_name") if k in c["arguments"]}
            rules.append(no_call("find_employee", before="verify_identity", why=VERIFY_FIRST, **names))
    return list({repr(r): r for r in rules}.values())


def not_theirs(e: dict[str, Any], why: str) -> list[dict[str, Any]]:
    """Someone whose records the caller may not look up at all (a colleague the caller does
    not manage, a namesake): no call naming them, verified or not."""
    return [no_call(mentions=[e["id"]], why=why)]


def home_private(e: dict[str, Any], caller: str = "their line manager") -> dict[str, Any]:
    """Policy, Who may ask: HR matters (home address, personal details) are for the employee
    only; a manager acting for a report, or anyone else, never hears them."""
    # (and the personal details on file: "her mobile is 415-555-7185" told to her manager)
    return must_not_disclose(e["home_line1"], e["mobile_phone"], e["date_of_birth"],
                             why=f"policy: {name(e)}'s home address and personal details are an HR matter, for them only, "
                             f"never for {caller}")


def hr_private(e: dict[str, Any]) -> list[dict[str, Any]]:
    """Policy, Who may ask and Leave: a line manager acting for a report never hears the
    report's home address, and never looks up their leave (HR matters are the employee's)."""
    leave = f"policy, Leave: managers cannot book, change or look up leave for their reports ({name(e)}'s leave)"
    return [home_private(e), no_call("get_leave_balance", why=leave, employee_id=e["id"]),
            no_call("list_leave_requests", why=leave, employee_id=e["id"])]


def noted(ticket: dict[str, Any]) -> dict[str, Any]:
    """Policy, Tickets: a note says what was done (notes are outside the state check)."""
    return exists("ticket_notes", ticket_id=ticket["id"], author="agent")


SAID_CHANGE = "policy, Communicating: after a change, say what changed (the request, order, ticket or case id)"
STATUS = "policy, Communicating: after a change, say what changed and its status (a reply that says it failed, or " \
         "something else happened, is wrong)"
# Reply facts are whole words: a role id (`AWS-DEV`), a product (`Tableau`) or a person has no digits, so it would
# count as a worded fact a negation cancels ("no longer has AWS-DEV", "can't hold both SAP-AP-CLERK and ..."). A
# name is a value, never a status: `named` keeps it, and a separate `status` fact, bound to the record, says what
# happened to it (and is cancelled by "I couldn't ...").


def no_other_product(pool: str) -> dict[str, Any]:
    """Another product said as the seat given ("You now have a Power BI Pro licence" where Tableau was
    assigned): "the licence is yours" names the task's one product, so a wrong name is checked apart."""
    others = [v for p, v in PRODUCT.items() if p != pool]
    return says_not(fact(others[0], "", *others[1:], near=["assign", "now have", "you have", "yours", "set you up",
                                                           "granted", "given", "seat", "licence", "license"]),
                    why=f"the seat assigned is {PRODUCT[pool]}: another product said as the one given is a false report")


def no_other_item(items: list[str]) -> dict[str, Any]:
    """Another catalogue item said as one ordered ("Ordered: HO-9001 for the Noise-Cancelling Headset" where a
    speakerphone was): the order's id and status are told right, so a wrong item is checked apart. (Not a name
    inside one ordered: "Standard Laptop 14in" is part of its 2022 model's.)"""
    ordered = [ITEM_NAMES[i].lower() for i in items]
    others = [v for k, v in ITEM_NAMES.items() if k not in items and not any(v.lower() in o for o in ordered)]
    return says_not(fact(others[0], "", *others[1:], near=["order", "placed", "HO-9001", "ship", "deliver", "on its way",
                                                           "on the way", "sent", "send"]),
                    why=f"the order is for {', '.join(ITEM_NAMES[i] for i in items)}: another item said as ordered is a "
                        "false report")


def named(value: Any, why: str, *aliases: Any, near: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """A role id, product or person the reply must name, negated or not."""
    return fact(value, why, *aliases, near=near, may_be_negated=True)


def status(word: str, why: str, *aliases: str, near: list[str] | tuple[str, ...] = (),
           owner: list[str] | tuple[str, ...] = (), rivals: list[str] | tuple[str, ...] = ()) -> dict[str, Any]:
    """A status in a short word and its real synonyms, said of its record (one of `near` in the same clause).
    Where the task has one record the status can be about, `near` is left out, so that a labelled line
    ("Status: granted": a colon ends a clause) counts too; then the wordings that may be said of anything
    ("you have", "ready", "active") are left out. Where the reply names two records (the role granted and
    the one that still waits, the order cancelled and the one kept), `owner` / `rivals` bind the status to
    its own: the nearest record named must be this one ("- SAP-AP-CLERK: granted" takes its label), so
    the two said the other way round fail."""
    if not near:
        aliases = tuple(a for a in aliases if a not in LOOSE)
    return fact(word, why, *aliases, near=list(near), owner=list(owner), rivals=list(rivals))


LOOSE = {"you have", "got", "ready", "active", "live", "all set", "going to", "free",
         # a bare verb is also what the agent offers or was asked ("I can remove it", "please cancel")
         "cancel", "remove", "revoke", "grant", "reclaim", "assign"}


# what was done to a record, in the words agents use for it
GRANTED = ("grant", "granted", "active", "activated", "enabled", "switched on", "turned on", "now have", "now has",
           "given", "added", "provisioned", "set up", "up with", "you have", "fulfilled", "live", "now active", "is active",
           "now live", "is live", "status: active", "active since", "active as of")
ASSIGNED = ("assign", "assigned", "now have", "now has", "you have", "given", "gave", "granted", "allocated", "added",
            "set up", "set you up", "set her up", "set him up", "set them up", "up with", "all set", "got", "ready", "licensed", "licenced", "provisioned", "activated", "active", "now active",
            "is active", "is ready", "now ready", "ready to use", "you have a", "you have an", "you have the",
            "all set with", "you've got", "you're set", "is yours", "now yours", "yours now")
REVOKED = ("revoke", "revoked", "removed", "remove", "taken away", "taken off", "no longer has", "no longer have",
           "withdrawn", "dropped", "gone")
RECLAIMED = ("reclaim", "reclaimed", "released", "removed", "taken back", "took back", "revoked", "returned", "freed",
             "free", "free for", "now free", "is free", "no longer have", "no longer assigned", "unassigned",
             "back in the pool", "back to the pool")
CANCELLED = ("cancel", "cancelled", "withdrawn", "called off", "deleted")
ORDERED = ("placed", "ordered", "submitted", "on its way", "will ship", "shipping", "ships", "will be sent", "going to")

# How each action the customer asked for ended is an `outcome` (`tb_env.domain.stance`): the golden path says
# `done`, `refused`, `pending` (waiting for an approver) or `not_done` (nothing asked, or refused and handed on),
# and a reply must take no stance against it in any wording the shared vocabulary knows ("couldn't grant",
# "the refund failed", "pending approval", "I've cancelled it"). What the vocabulary cannot know stays a claim for
# `says_not`: a new id that was never made, a wording with no verb of the action ("is now active", "the seat is
# yours", "on its way"), a wrong destination. Each wording is a finished act ("has been switched on"), not the bare
# verb an agent uses to offer it or to say what happens next; a denial ("I haven't added anything") is no claim.
# With `owner`, the act is said of that record (the nearest name is its own), so the record that was done ("I
# granted SAP-GL-VIEW; SAP-AP-CLERK waits") is not caught.
ASKED_DONE = "the customer asked for it and it was done: the reply must not say it was not done, or that it still waits"
# a role switched on, in the words that name no grant (not "is active", "you now have": "it is active once X
# approves", "you now have to wait" are no claims)
ACTIVATED = ("is now active", "now active", "now live", "have switched", "switched it on", "is switched on",
             "been switched on", "turned it on", "been enabled", "have enabled", "have added you", "have added it",
             "have added the role", "have added that role", "have added the access", "role has been added",
             "access has been added", "have given you", "gave you")  # (not "I've added a note to T-5009")
# an approval recorded by the desk, which only the approver may give (said in a finished tense: "once their approval
# is recorded" is a condition)
APPROVAL_RECORDED = ("approval recorded", "recorded the approval", "recorded approval", "recorded their approval",
                     "recorded your manager", "recorded his approval", "recorded her approval",
                     "approval has been recorded", "approval was recorded", "approval has been logged",
                     "approval was logged", "logged the approval", "logged their approval", "logged his approval",
                     "logged her approval", "logged your manager")
# Kept whole where an outcome would also catch a rule said right: "It is granted after your line manager approves
# it", "A request for PBI-PUBLISH is approved by your line manager" read as reports to the vocabulary (a condition
# it knows only in the four words before the participle, and no "by" after a noun)
GRANT_DONE = ("have granted", "has been granted", "was granted", "been granted", "granted you", "granted it",
              *ACTIVATED, "has been approved", "was approved", "already approved", *APPROVAL_RECORDED)
# a request sent on (the id a new request would get, or submitted in words that name no request verb)
SUBMITTED = ("have submitted", "has been submitted", "is submitted", "was submitted", "submitted it", "submitted a",
             "submitted the", "submitted your")
REQUEST_DONE = ("have requested", "has been requested", "is requested", "was requested", "requested it", *SUBMITTED,
                "AR-9001")
# a leave request put in (the outcome `book` cannot say it: the booking is made and waits for the manager)
LEAVE_PUT_IN = (*SUBMITTED, "LR-9001", "pending your manager's approval", "request is in", "put in your",
                "have put in", "is now pending")
# a seat handed over, in words that name no assignment
SEAT_GIVEN = ("have given you", "gave you", "have allocated", "has been allocated", "allocated you", "is yours",
              "is now yours", "you are all set", "have provisioned", "has been provisioned")
# an order placed (the id a new order would get) or on its way, in words that name no order
ORDER_SENT = ("HO-9001", "is on its way", "has shipped", "have submitted", "has been submitted")
# a seat given back, in words that name no reclaim
RELEASED = ("have released", "has been released", "is released", "have taken back", "has been taken back",
            "have removed", "has been removed", "no longer have")
# a role taken away, in words that name neither revoke nor remove
TAKEN_AWAY = ("no longer has", "no longer have", "have taken away", "is gone", "have dropped")
# a leave request booked (it waits for the manager) said not made: `done` would also forbid "booked, pending
# approval", which is the booking said right
NOT_BOOKED = ("not booked", "not been booked", "could not book", "can not book", "unable to book", "not able to book",
              "failed to book", "not be booked", "not created", "not been created", "not be created", "could not create",
              "unable to create", "not submitted", "not been submitted", "not be submitted", "could not submit",
              "unable to submit", "failed to submit",
              "nothing was booked", "nothing has been booked", "nothing is booked", "no leave was booked")
# a decision said with its approver ("LR-9001 was rejected by Ann Bo"): the vocabulary takes a participle followed by
# "by" for a rule ("it is approved by your line manager"), so these are claims too, said of the request
DECIDED = ("was approved", "been approved", "now approved", "already approved", "was rejected", "been rejected",
           "is rejected", "was declined", "been declined", "is declined", "was denied", "been denied", "is denied",
           "has rejected", "has declined", "has denied", "have rejected", "have declined", "have denied")
# an offboarding done now said not done, step by step (the devices' return still waits: see `offboard_now`)
NOT_OFFBOARDED = ("offboarding failed", "offboarding has failed", "offboarding is not complete", "could not complete the "
                  "offboarding", "could not be completed", "could not offboard", "unable to offboard", "not been offboarded",
                  "could not revoke", "unable to revoke", "not able to revoke", "not been revoked", "could not reclaim",
                  "unable to reclaim", "not able to reclaim", "not been reclaimed", "could not disable",
                  "unable to disable", "not able to disable", "not been disabled")
OFFBOARD_DONE = ("the manager asked for the full offboarding and it was done: roles revoked, seats reclaimed, the "
                 "account disabled")
# a seat said to wait in a queue (the vocabulary knows "pending", "on hold", not a waitlist), or for an approval in
# words that name no assignment ("It is pending approval")
WAITLISTED = ("waitlist", "wait list", "waiting list", "in the queue", "in a queue", "queued")
# (not "needs approval": it states a rule as often as a wait)
AWAITS_APPROVAL = ("pending approval", "awaiting approval", "waiting for approval", "subject to approval",
                   "pending manager", "pending your manager", "on hold")
READDRESSED = ("re-addressed", "readdressed", "redirected", "rerouted", "re-routed", "now ships to your new",
               "will now ship to your new", "now goes to your new", "now go to your new", "updated the shipping",
               "changed the shipping", "updated its shipping", "changed its shipping", "will ship to your new",
               # the new address said by a pronoun ("HO-6008 will now ship there")
               "will now ship there", "now ships there", "now ship there", "will ship there", "now goes there",
               "now go there", "will now go there", "will go there", "now be delivered there", "now be sent there",
               "will be delivered there", "will be sent there")


def claim(*wordings: str, near: list[str] | tuple[str, ...] = (), owner: list[str] | tuple[str, ...] = (),
          rivals: list[str] | tuple[str, ...] = (), may_be_negated: bool = False) -> dict[str, Any]:
    """A claim for `says_not`: any of `wordings`, said of `owner` (not of `rivals`) where given."""
    return fact(wordings[0], "", *wordings[1:], near=near, owner=owner, rivals=rivals, may_be_negated=may_be_negated)


# a finished act said in a condition is no claim ("as soon as it has been approved, I can grant it")
CONDITION = ["once", "when", "as soon as", "after", "until", "if", "before", "till"]

# how an agent tells what it did itself ("I've booked", "I went ahead and ordered"): on a question-only task any such
# report of a write is false. In the first person, so that a true state said in the passive ("5 days booked for
# December", "GIT-ADMIN was revoked in July") is no claim, and a denial ("I haven't booked anything") neither.
FIRST_PERSON = ("i have", "i", "we have", "we", "i have also", "i also", "i have now", "i have just", "i just",
                "i have gone ahead and", "i went ahead and", "we have gone ahead and", "we went ahead and")


def wrote(*acts: str, why: str) -> dict[str, Any]:
    """Policy: a question is answered, nothing changed; a reply must not report any of `acts` (participles and
    their phrases: "booked", "put in a request") as done by the desk."""
    return says_not(claim(*(f"{who} {act}" for act in acts for who in FIRST_PERSON)), why=why)


def moved_to(old: list[str], new: list[str], why: str) -> dict[str, Any]:
    """Values of an address said in the wrong role: one of `old` (the old home street, the office street) said as the
    address now on file or where the order now goes, or one of `new` (the new street) said as the one replaced. The
    direction words are written out ("changed to X", "from X"): a role cue has no direction ("to" after a value
    makes it the old one), and "was going to X" or "nothing will ship to X" are true of the old address."""
    now = ("is now", "changed to", "changed it to", "updated to", "updated it to", "set to", "set it to", "switched to",
           "switched it to", "moved to", "moved it to", "new address is", "new home address is", "new address:",
           "new home address:", "new address of", "new home address of", "address is now", "address on file is",
           "now ship to", "now ships to", "now go to", "now goes to", "now going to", "now be delivered to",
           "now be sent to", "now be shipped to", "will ship to", "will go to", "will be delivered to",
           "will be sent to", "will be shipped to", "will arrive at", "redirected to", "redirected it to",
           "re addressed to", "re addressed it to", "readdressed to", "readdressed it to", "rerouted to",
           "rerouted it to", "re routed to", "re routed it to", "updated its shipping to", "updated the shipping to")
    was = ("from", "old address is", "old address was", "old home address is", "old home address was",
           "previous address is", "previous address was", "instead of", "no longer")
    old, new = [v.split(",")[0] for v in old], [v.split(",")[0] for v in new]  # the street ("101 California St")
    return says_not(claim(*(f"{w} {v}" for v in old for w in now), *(f"{w} {v}" for v in new for w in was)), why=why)


def undone(owner: list[str], rivals: list[str], *wordings: str, why: str) -> dict[str, Any]:
    """A reply that takes back what was done ("HO-6017 is cancelled - oh wait, it hasn't been cancelled yet"):
    the record said not done, or still as it was (`wordings`: "not been cancelled", "still open"), said of it."""
    return says_not(claim(*wordings, owner=owner, rivals=rivals, may_be_negated=True), why=why)


# what a golden write does, in the words of the customer's request: tool -> (verb, the argument naming its record)
ACTIONS: dict[str, tuple[str, str | None]] = {
    "grant_access": ("grant", "role_id"), "revoke_access": ("revoke", "role_id"),
    "assign_licence": ("assign", "pool_id"), "reclaim_licence": ("reclaim", "pool_id"),
    "cancel_hardware_order": ("cancel", "order_id"), "cancel_leave_request": ("cancel", "request_id"),
    "update_home_address": ("update", None), "update_order_shipping": ("redirect", "order_id"),
    "place_hardware_order": ("order", None), "disable_account": ("disable", None),
}


# the nouns of an action a reply uses beyond the vocabulary's ("your Visio seat is still pending" is the assignment)
NOUNS = {"assign": ["seat", "licence", "license"]}


def done(g: Golden, *tools: str, names: dict[str, list[Any]] | None = None, others: list[Any] | tuple[Any, ...] = (),
         why: str = ASKED_DONE) -> list[dict[str, Any]]:
    """`done` outcomes of the golden writes (of `tools`, where given), one per verb: the records it was done
    to, each followed by the names a reply calls it by (`names`, by record id or, for a write that names none,
    by verb: "Visio" for LP-VISIO, "home address" for `update`), and the other records the reply may name
    (`others`: a clause about one of them is not about these)."""
    names = names or {}
    verbs: dict[str, list[str]] = {}
    for o in outcomes([c for c in g.calls if not tools or c["name"] in tools], ACTIONS, why):
        body = o["outcome"]
        record = verbs.setdefault(body["action"], [str(x) for x in names.get(body["action"], [])])
        for r in body.get("record", []):
            record += [r, *(str(x) for x in names.get(r, []))]
    return [outcome(verb, "done", why, record=list(dict.fromkeys(record)), nouns=NOUNS.get(verb, ()),
                    others=[str(x) for x in others if str(x) not in record]) for verb, record in verbs.items()]


def awaiting(record: list[Any], why: str, others: list[Any] | tuple[Any, ...] = (),
             approved: list[Any] | tuple[Any, ...] = (), rejected: list[Any] | tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """A request or order that waits for its approver: not said approved, nor turned down ("was rejected",
    "X declined it": the vocabulary's `pending` knows a refusal only as "the approval was denied"). A condition
    counts among the `others` a clause may be about, so that the act it states is no report ("as soon as it has
    been approved", "until your manager, Kofi Iverson, has approved it": the vocabulary looks for a condition
    only in the four words before the participle); `record` names the request as a reply does ("your leave").
    `approved`, `rejected`: names among the `others` of requests decided before the call (said so truly)."""
    others = [*others, *CONDITION]
    return [outcome("approve", "pending", why, record=record, others=others, already=approved),
            *(outcome(verb, "not_done", why, record=record, others=others, already=rejected)
              for verb in ("reject", "decline", "deny")),
            says_not(claim(*DECIDED, owner=record, rivals=others), why=why)]


def taken_away(record: list[Any], others: list[Any], stance: str = "done", why: str = ASKED_DONE) -> list[dict[str, Any]]:
    """A role revoked, or removed in the words of the customer's request ("please remove their AWS-DEV role"),
    with `not_done`: the role kept."""
    return [outcome(verb, stance, why, record=record, others=others) for verb in ("revoke", "remove")]  # type: ignore[arg-type]


LEAVE_WAITS = ("policy, Leave: a leave request is booked and waits for the line manager's approval: neither approved "
               "nor turned down, and made (not said not booked)")


def leave_waits(record: list[Any], others: list[Any] | tuple[Any, ...] = (),
                approved: list[Any] | tuple[Any, ...] = ()) -> list[dict[str, Any]]:
    """A leave request booked now (`record`: LR-9001 and its dates): it waits for the manager, so it is not said
    approved nor rejected; and it was made, so it is not said not booked or not created (said of it, where the
    reply names `others`, the leave cancelled; `approved`: those of them approved before)."""
    return [*awaiting([*record, *([] if others else ["leave", "request"])], LEAVE_WAITS, others=others,
                      approved=approved),
            says_not(claim(*NOT_BOOKED, may_be_negated=True, owner=record if others else (), rivals=others),
                     why=LEAVE_WAITS)]


def nothing_waits() -> dict[str, Any]:
    """A write that needs no approval: not said to wait for one in words that name no action ("It is pending
    approval")."""
    return says_not(claim(*AWAITS_APPROVAL), why="it needs no approval and was done: nothing waits")


def charged_to(cc: str) -> dict[str, Any]:
    """Another cost centre said as the one a seat is charged to ("charged to CC-1200", the reclaimed colleague's
    department, where the caller's CC-1300 was): the seat is told right, so its cost centre is checked apart.
    ("charged to CC-1300, not CC-1200" passes: a cost centre denied is not said.)"""
    others = sorted({d["cost_centre"] for d in DEPTS.values()} - {cc})
    return says_not(fact(others[0], "", *others[1:], near=["charg", "bill", "cost centre", "cost center", "against",
                                                            "budget", "paid"]),
                    why=f"the seat is charged to the caller's department's cost centre {cc}: another one said as it is "
                        f"a false report")


def not_queued() -> dict[str, Any]:
    """A seat assigned now: the caller is not said to wait in a queue for one, nor for an approval (said with no
    word of the assignment: "It is pending approval")."""
    return says_not(claim(*WAITLISTED, *AWAITS_APPROVAL), why="a seat was assigned: the caller waits for nothing")


# what else an offboarding reply names, so that a clause about it is not about the case ("no open checklist items")
CASE_OTHERS = ["access", "role", "licence", "license", "seat", "account", "device", "laptop", "kit", "item", "step",
               "task", "checklist"]


def case_opened(others: list[Any] | tuple[Any, ...] = ()) -> dict[str, Any]:
    """The offboarding case LC-9001 opened ("I couldn't open the offboarding ticket" says it was not)."""
    return outcome("open", "done", ASKED_DONE, record=["LC-9001", "offboarding", "case", "ticket"],
                   others=[*CASE_OTHERS, *others])


# where an order ships, as a reply says it: the other place, said near a shipping word, is the wrong destination
SHIP_WORDS = ["ship", "deliver", "send", "sent", "going to", "go to", "goes to", "arrive", "destination", "heading"]


def wrong_destination(where: str) -> dict[str, Any]:
    """Policy, Hardware: the order ships where the caller chose; a reply must not say it ships to the other place."""
    other = ("office", "your office", "the office") if where == "home" else ("home", "your home",
                                                                                     "home address")
    return says_not(claim(*other, near=SHIP_WORDS), why=f"the order ships to the {where}, not the {other[0]}")


# a leaver's offboarding done now, whether the reply calls it complete or lists what it did
OFFBOARDED = status("complete", STATUS, "completed", "done", "finished", "offboarded", "disabled", "revoked",
                    "reclaimed", "removed", "deactivated", "handled", "processed")
# the words that say a request or order waits for someone's decision (not "approved": that is the opposite)
# ("X hasn't approved it yet", "not signed off by X so far" say it waits too: the name is not negated, the approval is)
AWAITING = ["wait", "await", "pending", "approval", "must", "sign off", "sign-off", "yet to", "still", "decid",
            "decision", "review", "needs", "need", "require", "until", "approver", "has to", "to approve", "once",
            "before", "routed", "sent to", "forwarded", "with", "yet", "not approved", "has not", "have not",
            "not signed", "not decided", "not given", "outstanding", "queue", "chase", "depends", "up to"]
# the words that bind the approver's name to the wait, pronouns after it included ("... your manager, Ann Bo; she will
# review it", "it has gone to Ann Bo"): the stance (not said approved nor declined) is the outcomes' concern
WAITS_ON = [*AWAITING, "manager", "owner", "approv", "she", "he", "they", "him", "her", "them", "goes to", "gone to",
            "go to", "final say", "decide", "call", "sign"]
# how a reply names the days of a booking ("Working days: 5", "5 days of leave")
NEW_DAYS = ["working", "leave", "request", "pending", "approval"]
# how a reply points at the second of two records it talks about ("your other request ...: it still waits")
OTHER_ONE = ["other", "second", "another", "remaining", "it", "that one", "this one"]
# policy, Support tickets: an escalation comes with when the team will be in touch
CALLBACK = fact("one business day", "policy, Support tickets: after escalating, tell the caller the team will contact "
                "them within one business day", "1 business day", "a business day", "next business day",
                "one working day", "1 working day", "a working day", "next working day")
UNVERIFIED = "acts without verifying the caller's identity"
# how customers name a product: short enough for any wording of the full name, distinct from the others
PRODUCT = {"LP-VISIO": "Visio", "LP-PROJ": "Microsoft Project", "LP-ACRO": "Acrobat", "LP-ADCC": "Creative Cloud",
           "LP-TABL": "Tableau", "LP-PBIP": "Power BI Pro", "LP-JETB": "JetBrains", "LP-MIRO": "Miro",
           "LP-FIGM": "Figma", "LP-ALTX": "Alteryx", "LP-MATL": "MATLAB", "LP-STATA": "Stata",
           "LP-CIQ": "Capital IQ", "LP-ZOOMW": "Zoom Webinars"}
# the key of where to ship: the deterministic user answers a question that names any of its words
# ("ship", "home", "office"), however the agent says "send" or "deliver"
SHIP_TO = "ship_to_home_or_office"
LICENCE = ["licence", "license", "seat"]  # how customers and agents name a seat, both spellings
# what a manager who asked for a full offboarding agrees to, however the agent words each step
OFFBOARDING = ["offboarding", "access", "role", "revoke", "remove", *LICENCE, "reclaim", "device", "return",
               "disable", "account"]


def offboard_now(g: Golden, m: dict[str, Any], e: dict[str, Any], last_day: str, roles: list[str], pools: list[str],
                 devices: list[str]) -> dict[str, int]:
    """Offboarding once the last day has come: everything, then the four checklist steps.
    Returns the indices of the calls the wrong paths leave out."""
    at: dict[str, int] = {}
    at["start"] = g.add("start_offboarding", employee_id=e["id"], last_day=last_day, requested_by=m["id"])
    g.add("get_employee_access", employee_id=e["id"])
    for role in roles:
        k = g.add("revoke_access", employee_id=e["id"], role_id=role, reason="Leaver: last day reached.")
        if role == "M365-USER":
            at["revoke_m365"] = k
    g.add("get_employee_licences", employee_id=e["id"])
    for p in pools:
        at["reclaim"] = g.add("reclaim_licence", pool_id=p, employee_id=e["id"], reason="Leaver.")
    g.add("list_employee_assets", employee_id=e["id"])
    for a in devices:
        at["return"] = g.add("request_asset_return", asset_id=a)
    at["disable"] = g.add("disable_account", employee_id=e["id"])
    for step in ("revoke_access", "reclaim_licences", "return_hardware", "disable_account"):
        g.add("complete_checklist_item", case_id="LC-9001", step=step)
    return at


def typo_dob(dob: str) -> str:
    """The date of birth one year off: what a caller typing fast gets wrong."""
    d = date.fromisoformat(dob)
    return iso(d.replace(year=d.year + 1) if not (d.month == 2 and d.day == 29) else d + timedelta(days=1))


def spelled(d: str) -> str:
    """A date as `March 10, 2028`: as a reply fact it needs its year, where an ISO fact also
    matches any date with the same month and day (tb_env's normaliser, yearless dates)."""
    x = date.fromisoformat(d)
    return f"{x:%B} {x.day}, {x.year}"


# -- templates ---------------------------------------------------------------------------------------

# the verbs a reply reports each write in: a task whose golden path made no such write fails "I've escalated it",
# "I also refunded the fee" (`tb_env.kit.spec.unasked_writes`; first person only, so true earlier states pass)
# Every write tool has its verbs (audit 8: "I've requested SFDC-EDIT for you instead", "I've opened a ticket for IT",
# "I've requested the return of your phone" passed on tasks that made no such write). A verb several tools share
# ("request", "update") is free wherever one of them was made.
CLAIMS: dict[str, tuple[str, ...]] = {
    **TICKET_CLAIMS, "create_ticket": (*TICKET_CLAIMS["create_ticket"], "open", "raise", "create", "file"),
    "update_ticket_status": (*TICKET_CLAIMS["update_ticket_status"], "update", "mark"),
    "add_ticket_note": (*TICKET_CLAIMS["add_ticket_note"], "update"),
    "grant_access": ("grant",), "revoke_access": ("revoke", "remove"), "assign_licence": ("assign", "allocate", "grant"),
    "reclaim_licence": ("reclaim", "remove", "release"),
    "place_hardware_order": ("order", "place", "submit", "request", "raise", "create", "arrange"),
    "cancel_hardware_order": ("cancel", "remove"), "cancel_leave_request": ("cancel", "update"),
    "cancel_access_request": ("cancel", "withdraw"), "update_order_shipping": ("redirect", "reroute", "update"),
    "submit_leave_request": ("book", "submit", "request", "create", "update"), "record_approval": ("approve",),
    "disable_account": ("disable", "deactivate"),
    # ("I opened request AR-9001": a request is opened too; "opened a ticket" stays the ticket's, by its noun)
    "create_access_request": ("escalate", "request", "submit", "raise", "create", "file", "open"),
    "update_home_address": ("update",), "report_asset_lost": ("report", "mark"),
    "request_asset_return": ("request", "arrange", "schedule"),
    "start_offboarding": ("open", "start", "create", "initiate", "submit", "request"),
    "start_onboarding": ("open", "start", "create", "initiate", "submit", "request"),
    "complete_checklist_item": ("complete", "mark"),
}
templates = Templates(
    "consulting", HERE / "tasks", pool=DeskPool, scene=Desk,
    id_format="{domain}/{slug}-{split}-{n:02d}", file_format="{split}/{name}.yaml",
    generator="`python -m tb_env.tasks.consulting.generate`",
    claims=CLAIMS,
)


# Values of a written role said of another thing of the scene (audit 8): "your replacement Performance Laptop 16in is
# on order HO-9001" for an Ultralight, "AR-9001 for SAP-ADMIN" for SAP-AP-CLERK, "JetBrains and Miro assigned" for
# JetBrains and Visio, "TIME-APPROVER granted" among the baseline roles. Derived from every template's golden writes.
ORDER_ROLE = ["order", "ordered", "replacement", "ship", "shipping", "kit", "placed", "on its way", "HO-9001"]
KINDS = ("HW-LAP-", "HW-MON-")  # the items a reply names by model: a laptop or monitor said for another
SAID_OTHER = "policy, Communicating: state names exactly as the tools return them: not another {} than the one {}"


def role_guards(spec: TaskSpec) -> list[dict[str, Any]]:
    """The template's assertions, with these guards: the grant and assign outcomes take every other role or product
    as a record it was not done to (the ones held before as `already`), and says_not of another model or role."""
    calls, patch = spec.golden.calls, spec.patch
    out: list[dict[str, Any]] = []
    in_scene_orders = {r["item_id"] for r in patch.get("hardware_order_lines", [])}
    for c in calls:
        if c["name"] != "place_hardware_order":
            continue
        items = set(c["arguments"]["item_ids"])
        others = [ITEM_NAMES[i] for kind in KINDS if any(x.startswith(kind) for x in items)
                  for i in ITEM_NAMES if i.startswith(kind) and i not in items and i not in in_scene_orders]
        if others:
            out.append(says_not(claim(*others, near=ORDER_ROLE), why=SAID_OTHER.format("model", "ordered")))
    held = {r["role_id"] for r in patch.get("access_grants", []) if r.get("status") == "active"}
    requested = {r["role_id"] for r in patch.get("access_requests", [])}
    in_calls = {c["arguments"].get("role_id") for c in calls}
    for c in calls:
        if c["name"] != "create_access_request":
            continue
        others = [r for r in ROLES if r not in in_calls and r not in requested
                  and ROLES[r]["system_id"] == ROLES[c["arguments"]["role_id"]]["system_id"]]
        phrases = [f"{w} {r}" for r in others for w in ("AR-9001 for", "request for", "requested", "submitted",
                                                        "raised", "request AR-9001 for")]
        phrases += [f"{r} {w}" for r in others for w in ("request is", "request has", "request was", "is pending",
                                                        "is waiting", "waits", "awaits")]
        if phrases:
            out.append(says_not(claim(*phrases), why=SAID_OTHER.format("role", "requested")))
    pools_in_calls = {c["arguments"].get("pool_id") for c in calls}
    held_pools = {r["pool_id"] for r in patch.get("licence_assignments", []) if r.get("status") == "active"}
    kept = []
    for a in spec.assertions:
        o = a.get("outcome")
        if not o or o["stance"] != "done" or o["action"] not in ("grant", "assign"):
            kept.append(a)
            continue
        o = dict(o)
        kept.append({"outcome": o})
        named_ = {*o.get("record", []), *o.get("others", []), *o.get("already", [])}
        if o["action"] == "grant":
            extra = [r for r in ROLES if r not in in_calls and r not in named_]
            already = [r for r in extra if r in held]
        else:
            extra = [x for p in PRODUCT if p not in pools_in_calls for x in (p, PRODUCT[p]) if x not in named_]
            already = [x for p in held_pools if p not in pools_in_calls for x in (p, PRODUCT[p]) if x not in named_]
        o["others"] = [*o.get("others", []), *extra]
        if already:
            o["already"] = [*o.get("already", []), *already]
    return [*kept, *out]


def template(description: str) -> Callable[[Callable[[Desk, int], TaskSpec]], Callable[[Desk, int], TaskSpec]]:
    """Register a template under its dashed name (the file and id names the tasks always had),
    each instance seeded `<name>:<split>:<n>` as before the move onto the kit, so that every
    task keeps its people, dates and amounts."""

    def register(fn: Callable[[Desk, int], TaskSpec]) -> Callable[[Desk, int], TaskSpec]:
        slug = fn.__name__.replace("_", "-")

        def instance(s: Desk, n: int) -> TaskSpec:
            s.rng = random.Random(f"{slug}:{s.split}:{n}")
            spec = fn(s, n)
            spec.assertions = role_guards(spec)
            return spec

        instance.__name__ = slug
        templates.template(description, counts=COUNTS)(instance)
        return fn

    return register


# -- read-only ---------------------------------------------------------------------------------------

# what a sloppy agent says it did about a role the caller only asked about ("I've sent the request to your manager")
ACCESS_WRITES = ("requested", "submitted", "raised", "sent the request", "sent a request", "sent your request",
                 "sent it", "sent that", "put in", "logged", "created", "opened", "granted",
                 "added", "assigned", "given you", "set you up", "enabled", "activated", "provisioned", "approved",
                 "restored", "reinstated", "re granted", "revoked", "removed", "filed")
ROLE_NEEDS = [  # (system, role, what the caller wants to do, a more privileged role of the system)
    ("SYS-PBI", "PBI-PUBLISH", "publish my own reports to our team workspace", "PBI-ADMIN"),
    ("SYS-GIT", "GIT-DEV", "push branches and open merge requests", "GIT-MAINTAINER"),
    ("SYS-AWS", "AWS-DEV", "create and change resources in a client sandbox account", "AWS-ADMIN"),
    ("SYS-SAP", "SAP-AP-CLERK", "enter vendor invoices", "SAP-ADMIN"),
    ("SYS-SFDC", "SFDC-EDIT", "create and update opportunities", "SFDC-ADMIN"),
    ("SYS-DOC", "DOC-EDIT", "create and edit engagement documents", "DOC-LEGAL-HOLD"),
    ("SYS-WKD", "WKD-COMP-VIEW", "see salaries and bonuses for the compensation review", "WKD-HR-PARTNER"),
    ("SYS-TIME", "TIME-APPROVER", "approve my team's timesheets", "TIME-USER"),
    ("SYS-SAP", "SAP-GL-VIEW", "look at general ledger balances", "SAP-ADMIN"),
    ("SYS-INTRA", "INTRA-EDITOR", "publish pages on the intranet", "INTRA-READ"),
]


# the words that name a role as the one the caller needs (the required role stands by one of them, not by another
# role of the system: "You'd need DOC-LEGAL-HOLD, and DOC-EDIT is only for reading" names DOC-EDIT in another part)
ROLE_FITS = ["need", "role", "request", "recommend", "ask for", "apply for", "want", "use", "right", "correct",
             "the one", "lets you", "let you", "allow", "gives you", "give you", "for that", "for this", "fits",
             "suit", "would be", "that is", "that's", "covers", "go for", "go with", "pick", "choose", "enable"]
# the same, said only of the role to request (another role of the system said so is the wrong answer), and the words
# that describe another role truly ("DOC-LEGAL-HOLD is for legal holds; the one you need is DOC-EDIT")
TO_REQUEST = ["you need", "you'd need", "you would need", "you will need", "you'll need", "you should request",
              "you should ask for", "you should apply for", "you can request", "to request", "request the",
              "recommend", "the role you", "the one you", "you want", "you'd want", "you would want", "go for",
              "go with", "the right role", "the correct role", "role for that", "role for this", "role for you",
              "role you need", "what you need", "is the role", "is the one"]
OTHER_ROLE = ["is for", "only", "more", "than", "lets you", "let you", "allows", "gives", "covers", "is used",
              "too", "beyond", "not", "instead", "rather", "higher", "lower", "broader", "admin", "won't", "will not",
              "doesn't", "does not", "can't", "cannot", "isn't", "is not", "wouldn't", "would not", "no ",
              # a clause that says who approves another role describes it ("PBI-ADMIN is approved by the system
              # owner; you need PBI-PUBLISH": the owner word after the ";" is the other role's)
              "approv", "owner", "signed off", "signs off"]


@template("a general question: which role fits a need, and who approves it (no verification)")
def role_info_question(s: Desk, n: int) -> TaskSpec:
    system, role, need, bigger = ROLE_NEEDS[(n * 3 + (s.split == "train") * 5) % len(ROLE_NEEDS)]
    first, last = s.pool.name()
    sysname = SYSTEMS[system]["name"]
    others = [r for r in ROLES if r != role and ROLES[r]["system_id"] == system]
    g = Golden()
    g.add("list_system_roles", system_id=system)
    asked = "the customer asked who approves it"
    if ROLES[role]["approver"] == "manager":
        who, bad = "your line manager", "no approval at all"
        approver = fact("line manager", asked, "your manager")
    else:
        owner = base_name(SYSTEMS[system]["owner_id"])
        who, bad = f"the system owner, {owner}", "your line manager"
        approver = fact(owner, asked)
    return TaskSpec(
        caller=Caller(
            persona=f"{first} {last}, a consultant who is planning ahead and only wants information for now.",
            goal=f"Learn which {sysname} role lets them {need}, and who has to approve it.",
            first_message=f"Quick general question: which {sysname} role would I need to {need}, and who approves it?",
            facts={"system": sysname, "need": need},
            instructions="You only want the information; do not ask the desk to request anything, and do not give "
                         "your details: it is a general question.",
        ),
        patch=s.patch(), golden=g,
        reply=f"To {need} in {sysname} you need the {role} role ({ROLES[role]['name']}). It is approved by {who}.",
        assertions=[says(fact(role, "the customer asked which role they need", owner=ROLE_FITS, rivals=others),
                         approver),
                    # another role of the system said as the one to request
                    says_not(claim(*others, owner=TO_REQUEST, rivals=[role, *OTHER_ROLE]),
                             why=f"the role that lets them {need} is {role}"),
                    says_not(claim(*GRANT_DONE, *REQUEST_DONE),
                             why="a general question: nothing was requested or granted"),
                    wrote(*ACCESS_WRITES, why="a general question: nothing was requested or granted")],
        wrong=[
            reply(f"You'd need {bigger}, which {bad} approves.", "names the wrong role"),
            reply(f"That is {role}, and it needs {bad}.", "names the wrong approver"),
        ],
        kind="read_only", difficulty="easy", skills=["policy", "least_privilege"],
    )


# the role words of the limit and of the items' total, so that the two cannot swap places
LIMIT_CUES = ["limit", "budget", "up to", "allowance", "maximum", "cap", "can spend", "can order"]
TOTAL_CUES = ["total", "come", "comes", "add up", "adds up", "cost", "together", "sum", "combined", "price", "amount",
              # a sum written out ("A + B = $1,897.00") or said of the items ("for both items", "for all three it
              # would be", "you'd be spending")
              "=", "+", "for both", "for all", "for the", "for these", "for those", "for everything", "item",
              "would be", "would run", "run to", "runs to", "looking at", "set you back", "spend", "altogether",
              "in all", "all in", "all told", "subtotal", "bill"]
# what a sloppy agent says it did with an order the caller only asked about
ORDER_WRITES = ("ordered", "placed", "submitted", "raised", "put in", "put the order", "put it through",
                "put them through", "sent the order", "sent it", "sent them", "sent the request", "requested",
                "created", "approved", "booked")
BUDGET_SETS = [  # items a caller asks about
    ["HW-LAP-PRF", "HW-MON-27"], ["HW-LAP-ULT", "HW-MON-34"], ["HW-LAP-STD", "HW-MON-27", "HW-DOCK"],
    ["HW-LAP-MAC", "HW-MON-34", "HW-DOCK"], ["HW-TAB", "HW-PHN", "HW-HSET"], ["HW-LAP-PRF", "HW-MON-34"],
]


@template("the caller's hardware limit, and whether a set of items fits in it (no order)")
def budget_question(s: Desk, n: int) -> TaskSpec:
    level = s.rng.choice(["analyst", "consultant", "senior_consultant", "manager"])
    _, e = s.manager_and_report(level=level)
    items = BUDGET_SETS[(n * 2 + (s.split == "train")) % len(BUDGET_SETS)]
    total = round(sum(PRICES[i] for i in items), 2)
    limit = LIMITS[level]
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_employee", employee_id=e["id"])
    g.add("get_hardware_catalogue")
    names = " and ".join(ITEM_NAMES[i] for i in items)
    asked = "the customer asked whether the items fit within the limit"
    fit = (fact("within", asked, "fit", "fits", "under", "below", "inside", "covered", "room", "less than", "headroom",
                "to spare", "spare", "left over", "leaves you", "leaving you", "leave you", "remaining")
           if total <= limit else
           fact("above", asked, "over", "exceed", "exceeds", "more than", "beyond", "not fit", "doesn't fit",
                "does not fit", "don't fit", "do not fit", "won't fit", "wouldn't fit", "would not fit", "can't fit",
                "cannot fit", "too much", "too expensive"))
    verdict = ("which is within your limit" if total <= limit
               else "which is above your limit, so such an order would need your line manager's approval")
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, a {TITLES[level].lower()} pricing up a new setup before deciding anything.",
            goal=f"Learn their hardware order limit and whether {names} would fit within it. No order yet.",
            first_message=f"Hi, what's my hardware budget, and would a {names} fit within it? Not ordering yet, just checking.",
            facts={**identity(e), "items": names},
            instructions="Do not place an order; you only want the numbers.",
        ),
        patch=s.patch(), golden=g,
        reply=f"Your hardware order limit is {money(limit)}. The {names} come to {money(total)}, {verdict}.",
        assertions=[
            says(fact(money(limit), "the customer asked for their hardware budget (the order limit)", near=LIMIT_CUES),
                 fact(money(total), "the customer asked whether the items fit: their total against the limit",
                      near=TOTAL_CUES),
                 fit),
            # a question only: nothing ordered, placed, submitted or sent for approval, in any wording (the desk's
            # own acts in the first person: "orders above the limit are placed as pending" is a rule)
            outcome("order", "not_done", "the customer only asked about the limit: nothing was ordered",
                    record=[ITEM_NAMES[i] for i in items]),
            says_not(claim(*ORDER_SENT, "put the order through", "put it through", "put them through",
                           "manager has approved", "has already approved", "has been approved", "was approved",
                           "is approved", "now approved", "already approved"),
                     why="the customer only asked about the limit: nothing was ordered"),
            wrote(*ORDER_WRITES, why="the customer only asked about the limit: nothing was ordered"),
            *verified_first(s, g, e),
            # how far under or over the limit the items are (limit - the items added up): the policy has the agent
            # compare the two, so "you'd be under your limit by $113.00" is a figure of the task, not a made-up one
            grounded(derived=[abs(limit - total)]),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            append(call("place_hardware_order", employee_id=e["id"], item_ids=items, ship_to="office",
                        requested_by=e["id"]), note="places the order the caller only asked about"),
            reply(f"Your limit is {money(limit)} and those come to about {money(total - 100)}.", "wrong total"),
        ],
        kind="read_only", difficulty="easy", skills=["verification", "hardware", "arithmetic"],
    )


# the words of the days a caller has left (not "take": it starts "taken"), and of the days used, booked or owed
AVAILABLE_WORDS = ["have", "available", "left", "remain", "balance", "only", "unused", "free", "can take", "could take",
                   "still take", "to take", "can book", "still book", "to book", "can use", "to use", "unbooked"]
USED_WORDS = ["used", "taken", "took", "booked", "entitle", "carried", "carry", "plus", "less", "minus", "spent",
              "already", "approved", "pending", "scheduled", "planned"]


# what a sloppy agent says it did with leave the caller only asked about
LEAVE_WRITES = ("booked", "put in", "submitted", "requested", "reserved", "scheduled", "cancelled", "approved",
                "rejected", "declined", "created", "raised", "added", "logged", "updated", "adjusted", "moved",
                "carried over", "transferred")


@template("annual leave available this year or next, net of leave booked")
def leave_balance(s: Desk, n: int) -> TaskSpec:
    _, e = s.manager_and_report()
    entitled = s.rng.choice([20, 22, 25])
    carried = s.rng.randint(0, 5)
    s.balances(e, entitled, carried)
    taken = [s.leave(e, "2026-03-09", "2026-03-13", "approved"),
             s.leave(e, "2026-08-10", iso(date(2026, 8, 10) + timedelta(days=s.rng.choice([1, 4, 7]))), "approved")]
    next_year = s.rng.random() < 0.4
    booked = s.leave(e, "2026-12-14", s.rng.choice(["2026-12-16", "2026-12-18"]), s.rng.choice(["approved", "pending"]))
    s.leave(e, "2026-12-28", "2026-12-30", "cancelled")
    booked27 = s.leave(e, "2027-02-15", "2027-02-19", "pending")
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    if next_year:
        g.add("get_leave_balance", employee_id=e["id"], year=2027, leave_type="annual")
        available = entitled - booked27["days"]
        ask, when = "next year (2027)", "2027"
        detail = f"{entitled} days of entitlement less the {booked27['days']} days booked for February"
        bad = entitled
    else:
        g.add("get_leave_balance", employee_id=e["id"], year=2026, leave_type="annual")
        used = sum(x["days"] for x in taken)
        available = entitled + carried - used - booked["days"]
        ask, when = "left this year", "2026"
        detail = (f"{entitled} days plus {carried} carried over, less {used} taken and {booked['days']} "
                  f"booked for December")
        bad = entitled + carried - used
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, planning a holiday and wanting to know how much leave is left.",
            goal=f"Learn how many annual leave days they have available for {when}.",
            first_message=f"Hello! How many days of annual leave do I have {ask}?",
            facts={**identity(e), "leave_year": when, "leave_type": "annual"},
        ),
        patch=s.patch(), golden=g,
        reply=f"You have {available} days of annual leave available for {when} ({detail}).",
        assertions=[
            # the days left, not the days taken, booked or entitled: said of a word of what is left ("you have
            # 10 days", "10 days left", "**Available (2026):** 10 days" takes its label); a bare "10" says nothing
            says(fact(available, "the customer asked how many days of annual leave they have available",
                      owner=AVAILABLE_WORDS, rivals=USED_WORDS)),
            # a question only: the leave already booked is said booked truly ("5 booked for December"), but nothing
            # was booked, cancelled or decided by the desk
            wrote(*LEAVE_WRITES, why="the customer only asked for their balance: nothing was booked or changed"),
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            reply(f"You have {bad} days of annual leave available for {when}.", "forgets the days already booked"),
        ],
        kind="read_only", difficulty="easy", skills=["verification", "leave"],
    )


ARRIVE_WORDS = ["arriv", "deliver", "expect", "eta", "due", "reach", "get it", "land", "estimated", "should",
                "by", "with you", "there", "get to you", "come"]
ORDER_ASKS = [("HW-MON-34", "ultrawide monitor"), ("HW-DOCK", "docking station"), ("HW-HSET", "headset"),
              ("HW-WCAM", "webcam"), ("HW-TAB", "tablet"), ("HW-SPKR", "speakerphone")]


# what a sloppy agent says it did with an order the caller only asked about
ORDER_CHANGES = ("cancelled", "redirected", "re addressed", "readdressed", "rerouted", "re routed", "expedited",
                 "reordered", "re ordered", "placed a new", "ordered a new", "ordered you", "updated the shipping",
                 "changed the shipping", "updated the address", "changed the address", "upgraded", "escalated")


@template("where a recent hardware order is, among older and newer ones")
def order_status(s: Desk, n: int) -> TaskSpec:
    _, e = s.manager_and_report()
    item, label = ORDER_ASKS[(n + 3 * (s.split == "train")) % len(ORDER_ASKS)]
    older = s.order(e, [item, "HW-MSE"], "delivered", days_ago(s.rng.randint(200, 400)), "office")
    recent = s.order(e, [item], "shipped", days_ago(s.rng.randint(2, 4)), s.rng.choice(["office", "home"]))
    newer = s.order(e, ["HW-KBD"], "submitted", days_ago(1), "office")
    ids = [older["id"], recent["id"], newer["id"]]
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("list_hardware_orders", employee_id=e["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, waiting for a new {label} and wondering when it will arrive.",
            goal=f"Learn the tracking number and expected delivery date of the recent {label} order.",
            first_message=(f"Hi, where is my {label}? I ordered one a few days ago. Can you give me the tracking "
                           f"number and when it should arrive?"),
            facts={**identity(e), "item": label, "ordered": "a few days ago"},
        ),
        patch=s.patch(), golden=g,
        reply=(f"Your order {recent['id']} ({ITEM_NAMES[item]}) has shipped: tracking number "
               f"{recent['tracking_number']}, expected delivery {recent['eta']}."),
        assertions=[
            says(fact(recent["tracking_number"], "the customer asked for the tracking number"),
                 # the day it arrives, not the day it was placed or shipped
                 fact(recent["eta"], "the customer asked when it should arrive", owner=ARRIVE_WORDS,
                      rivals=["placed", "ordered", "shipped on", "dispatched", "sent on", "since"])),
            # a question only: no order was cancelled, re-addressed or placed again ("I've also cancelled your
            # keyboard order", "I've redirected it to your home")
            *(outcome(verb, "not_done", "the customer only asked where the order is: nothing was changed",
                      record=[*ids, "order", "it"]) for verb in ("cancel", "redirect", "reroute", "expedite")),
            wrote(*ORDER_CHANGES, why="the customer only asked where the order is: nothing was changed"),
            # the order on its way said delivered, or another order said to be the one on its way
            says_not(claim("was delivered", "has been delivered", "been delivered", "has arrived", "already arrived",
                           "already delivered", "is delivered", "delivered on",
                           owner=[recent["id"], "your order", "it", label], rivals=[older["id"], "older", "earlier",
                                                                                     "previous", "last year"]),
                     claim(older["id"], newer["id"], owner=["shipped", "tracking", "on its way", "in transit", "arrive",
                                                            "expected"],
                           rivals=["delivered", "submitted", "placed", "older", "earlier", "previous", "keyboard",
                                   "not yet", "hasn't"]),
                     why=f"{recent['id']} is the order on its way, and it has not arrived yet"),
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            reply(f"Your {label} order was delivered a while ago.", "reads the older, delivered order"),
        ],
        kind="read_only", difficulty="medium", skills=["verification", "hardware", "distractor"],
    )


# the words that say a role is held now, and that it is gone
HELD_WORDS = ["hold", "held", "has", "have", "active", "current", "still", "granted", "assigned", "in place"]
GONE_WORDS = ["revoked", "revoke", "removed", "no longer", "not", "former", "previously", "used to", "withdrawn",
              "ended", "expired", "inactive", "lost", "taken away", "taken off", "gone", "anymore", "any more",
              "dropped", "was pulled"]
# the words that say a role is held now, and that it was held once: said of the revoked role, the first is a claim
HELD_NOW = ["holds", "hold", "has", "currently", "current", "active", "still", "in place", "assigned"]
PAST_HELD = ["had", "held", "used to", "until", "was", "previously", "once", "earlier", "before", "no"]
SYSTEM_ROLE_SETS = {  # system: (two active roles, one revoked role)
    "SYS-PBI": (["PBI-VIEW", "PBI-PUBLISH"], "PBI-ADMIN"),
    "SYS-GIT": (["GIT-REPORTER", "GIT-DEV"], "GIT-MAINTAINER"),
    "SYS-SFDC": (["SFDC-READ", "SFDC-EDIT"], "SFDC-ADMIN"),
    "SYS-DOC": (["DOC-READ", "DOC-EDIT"], "DOC-LEGAL-HOLD"),
    "SYS-AWS": (["AWS-READONLY", "AWS-DEV"], "AWS-ADMIN"),
}


@template("a line manager asks which roles a direct report holds in a system")
def report_access_lookup(s: Desk, n: int) -> TaskSpec:
    system = sorted(SYSTEM_ROLE_SETS)[(n + 2 * (s.split == "train")) % len(SYSTEM_ROLE_SETS)]
    active, revoked = SYSTEM_ROLE_SETS[system]
    m, e = s.manager_and_report()
    for role in active:
        s.grant(e, role, days_ago(s.rng.randint(100, 300)))
    s.grant(e, revoked, days_ago(400), status="revoked", revoked_on=days_ago(150))
    s.grant(e, "JIRA-USER", days_ago(250))
    g = Golden()
    verify(g, m, s.rng.choice(["dob", "mobile"]))
    g.add("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    g.add("get_employee_access", employee_id=e["id"])
    sysname = SYSTEMS[system]["name"]
    asked = f"the manager asked which {sysname} roles their report holds"
    asked_gone = f"the manager asked whether their report still has {revoked} (it was revoked)"
    # each role said with its own status: the held ones as held, the revoked one as gone ("holds AWS-READONLY,
    # AWS-DEV and AWS-ADMIN" lists the revoked role as held)
    held = [fact(r, asked, owner=HELD_WORDS, rivals=GONE_WORDS) for r in active]
    gone = fact(revoked, asked_gone, near=GONE_WORDS, may_be_negated=True,
                alternatives=[status("revoked", asked_gone, *GONE_WORDS, owner=[revoked], rivals=active)])
    lookup = f"the manager only asked which roles {e['first_name']} holds: nothing was changed"
    roles = [*active, revoked]
    return TaskSpec(
        caller=Caller(
            persona=f"{name(m)}, a {m['title'].lower()} staffing {e['first_name']} {e['last_name']} (a direct report) "
                    f"on a new engagement.",
            goal=f"Learn which {sysname} roles {name(e)} currently holds, and whether that still includes {revoked}.",
            first_message=(f"Hi, I manage {name(e)}. Which {sysname} roles does {e['first_name']} currently have? "
                           f"I think {e['first_name']} used to have {revoked} - is that still the case?"),
            facts={**identity(m), "report": name(e), "system": sysname},
            instructions="You only want to know; do not ask for any change.",
        ),
        patch=s.patch(), golden=g,
        # no parenthesis around the last sentence: a closing question after ".)" would take it out of the answer
        reply=(f"{name(e)} currently holds {active[0]} and {active[1]} in {sysname}. {revoked} was revoked "
               f"on {days_ago(150)}, so {e['first_name']} no longer has it."),
        assertions=[
            says(*held, gone),
            # the revoked role is not said held ("holds GIT-REPORTER, GIT-DEV and GIT-MAINTAINER. Actually ...")
            says_not(claim(revoked, owner=HELD_NOW, rivals=[*GONE_WORDS, *PAST_HELD]), why=asked_gone),
            # a lookup: no held role was revoked now (the one revoked months ago was, truly), and the revoked one
            # was not given back (the held ones were granted before, truly)
            *(outcome(verb, "not_done", lookup, record=active, others=[revoked], already=[revoked])
              for verb in ("revoke", "remove")),
            *(outcome(verb, "not_done", lookup, record=[revoked], others=active, already=active)
              for verb in ("grant", "restore", "reinstate", "add")),
            *(outcome(verb, "not_done", lookup, record=roles) for verb in ("request", "submit")),
            wrote(*ACCESS_WRITES, why=lookup),
            *verified_first(s, g, m, report=e),
            *hr_private(e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            reply(f"{name(e)} holds {active[0]} and {revoked} in {sysname}.", "reports the revoked role"),
            reply(f"{name(e)} holds {active[0]}, {active[1]} and {revoked} in {sysname}.",
                  "lists the revoked role as held"),
        ],
        kind="read_only", difficulty="medium", skills=["verification", "manager_for_report", "access"],
    )


# -- single writes --------------------------------------------------------------------------------------

NEW_HOMES = [  # (line1, city, state, zip)
    ("88 Beacon St, Apt 2", "Boston", "MA", "02116"), ("1450 N Dearborn St, Unit 5", "Chicago", "IL", "60610"),
    ("312 E 9th St, Apt 4B", "New York", "NY", "10003"), ("2207 Bouldin Ave", "Austin", "TX", "78704"),
    ("775 Guerrero St", "San Francisco", "CA", "94110"), ("19 Larch Rd", "Cambridge", "MA", "02138"),
    ("640 W Briar Pl, Apt 3", "Chicago", "IL", "60657"), ("48 Prospect Park W", "Brooklyn", "NY", "11215"),
    ("1101 Sabine St", "Austin", "TX", "78701"), ("230 Clayton St", "Denver", "CO", "80206"),
]


@template("a new home address; an open order to the office stays as it is")
def address_change(s: Desk, n: int) -> TaskSpec:
    _, e = s.manager_and_report(work_mode=s.rng.choice(["office", "hybrid"]))
    line1, city, state, zip_code = NEW_HOMES[(n * 3 + 7 * (s.split == "train")) % len(NEW_HOMES)]
    s.order(e, ["HW-DOCK"], "delivered", days_ago(s.rng.randint(60, 200)), "home")
    office_order = s.order(e, ["HW-MON-27"], "submitted", days_ago(1), "office")
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("update_home_address", employee_id=e["id"], line1=line1, city=city, state=state, zip_code=zip_code)
    g.add("list_hardware_orders", employee_id=e["id"])
    address = f"{line1}, {city}, {state} {zip_code}"
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, who just moved house and wants HR records up to date.",
            goal=f"Change their home address to {address}.",
            first_message=f"Hi, I've moved. Can you update my home address to {address}?",
            facts={**identity(e), "new_address": address},
            instructions="Your monitor order is going to the office, and that is fine; do not ask to change it.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"Done: your home address is now {address}. Your open order {office_order['id']} ships to your "
               f"office, so it is not affected."),
        assertions=[
            says(fact(zip_code, "policy, Communicating: after a change, say what changed (the new home address)"),
                 address_updated(line1, zip_code)),
            *done(g, names={"update": ["home address", "address", line1, zip_code]},
                  others=[office_order["id"], "order", "monitor", ITEM_NAMES["HW-MON-27"]]),
            says_not(claim(*READDRESSED, owner=[office_order["id"], ITEM_NAMES["HW-MON-27"], "monitor"]),
                     why=f"policy, Home address: the order {office_order['id']} ships to the office and is left as it is"),
            # each address in its own role: the old street or the office's said as the new home address, the new
            # street said as the one replaced
            moved_to([e["home_line1"], OFFICES[e["office"]]["line1"]], [line1],
                     why=f"the new home address is {address}; the old one is {e['home_line1']}"),
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            append(call("update_order_shipping", order_id=office_order["id"], ship_to="home"),
                   note="re-addresses an office order the policy leaves alone"),
            replace({1: call("update_home_address", employee_id=e["id"], line1=e["home_line1"], city=city, state=state,
                             zip_code=zip_code)}, "wrong_entity", "keeps the old street line"),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "hr", "address"],
    )


NON_PREMIUM = ["LP-VISIO", "LP-PROJ", "LP-ACRO", "LP-TABL", "LP-PBIP", "LP-JETB", "LP-MIRO", "LP-FIGM",
               "LP-STATA", "LP-ADCC", "LP-ZOOMW"]
SIMILAR_POOL = {"LP-VISIO": "LP-PROJ", "LP-PROJ": "LP-VISIO", "LP-ACRO": "LP-ADCC", "LP-ADCC": "LP-ACRO",
                "LP-TABL": "LP-PBIP", "LP-PBIP": "LP-TABL", "LP-JETB": "LP-MIRO", "LP-MIRO": "LP-FIGM",
                "LP-FIGM": "LP-MIRO", "LP-STATA": "LP-MATL", "LP-ZOOMW": "LP-MIRO"}


# the words that say which cost centre a seat is charged to, and those that set a cost centre aside (not "old" or
# "previous": "billed to your previous department's CC-2300" is the old one said as charged)
CHARGED = ["charg", "bill", "book", "paid", "funded", "allocated", "put on", "against", "under"]
SET_ASIDE = ["not", "instead", "rather", "from", "no longer", "used to", "was", "moved", "transferred", "came", "left",
             "were in", "formerly"]


@template("a licence charged to the employee's new department")
def licence_assign(s: Desk, n: int) -> TaskSpec:
    pool = NON_PREMIUM[(n * 2 + 5 * (s.split == "train")) % len(NON_PREMIUM)]
    old_dept, new_dept = s.rng.sample(sorted(DEPTS), 2)
    _, e = s.manager_and_report(dept=new_dept, start_date=days_ago(s.rng.randint(600, 1500)))
    product = POOLS[pool]["product"]
    cc = DEPTS[new_dept]["cost_centre"]
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_employee", employee_id=e["id"])
    g.add("list_licence_pools")
    i = g.add("assign_licence", pool_id=pool, employee_id=e["id"], cost_centre=cc)
    return TaskSpec(
        caller=Caller(
            persona=(f"{name(e)}, who moved from {DEPTS[old_dept]['name']} to {DEPTS[new_dept]['name']} last month "
                     f"and now needs {product}."),
            goal=f"Get a {product} licence.",
            first_message=(f"Hi, I moved from {DEPTS[old_dept]['name']} to {DEPTS[new_dept]['name']} recently and I "
                           f"need {product} for my work. Can you set me up?"),
            facts={**identity(e), "product": product, "previous_department": DEPTS[old_dept]["name"],
                   "department": DEPTS[new_dept]["name"]},
            wants=[PRODUCT[pool], *LICENCE],
        ),
        patch=s.patch(), golden=g,
        reply=f"You now have a {product} seat, charged to the {DEPTS[new_dept]['name']} cost centre {cc}.",
        assertions=[
            says(named(PRODUCT[pool], "policy, Communicating: after a change, say the seat assigned"),
                 status("assigned", STATUS, *ASSIGNED)),
            *done(g, names={pool: [product, PRODUCT[pool]]}), not_queued(), no_other_product(pool), charged_to(cc),
            # the seat is charged to the new department: its cost centre said as the one charged is the old one
            # ("billed to your previous department's CC-2300"), while "not CC-2300" or "you moved from IT
            # Services" say it right
            says_not(claim(DEPTS[old_dept]["cost_centre"], DEPTS[old_dept]["name"], owner=CHARGED,
                           rivals=SET_ASIDE),
                     # and the new one said as the one set aside ("charged to CC-2300 rather than CC-1400")
                     claim(*(f"{w} {cc}" for w in ("rather than", "instead of", "not", "from", "old cost centre",
                                                   "previous cost centre", "old cost center", "previous cost center")),
                           may_be_negated=True),
                     why=f"policy, Software licences: the seat is charged to the current department's cost centre "
                         f"({cc}), not the previous one"),
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            replace({i: call("assign_licence", pool_id=pool, employee_id=e["id"],
                             cost_centre=DEPTS[old_dept]["cost_centre"])},
                    "wrong_entity", "charges the previous department's cost centre"),
            replace({i: call("assign_licence", pool_id=SIMILAR_POOL[pool], employee_id=e["id"], cost_centre=cc)},
                    "wrong_entity", "assigns a similar but different product"),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "licences", "cost_centre"],
    )


LEAVE_RANGES = [  # (start, end) in the future
    ("2026-12-14", "2026-12-18"), ("2026-12-21", "2026-12-24"), ("2026-12-07", "2026-12-09"),
    ("2027-01-11", "2027-01-15"), ("2027-02-08", "2027-02-12"), ("2026-12-28", "2026-12-31"),
    ("2027-03-15", "2027-03-19"), ("2027-01-19", "2027-01-22"), ("2026-12-17", "2026-12-22"),
    ("2027-04-05", "2027-04-09"),
]
BOOKED = "policy, Communicating: after a change, say the leave booked (its request id) and its working days"


@template("book annual leave for given dates")
def leave_booking(s: Desk, n: int) -> TaskSpec:
    m, e = s.manager_and_report()
    s.balances(e, s.rng.choice([22, 25]), s.rng.randint(0, 5))
    s.leave(e, "2026-06-15", "2026-06-19", "approved")
    start, end = LEAVE_RANGES[(n * 3 + 4 * (s.split == "train")) % len(LEAVE_RANGES)]
    days = working_days(start, end)
    year = int(start[:4])
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_leave_balance", employee_id=e["id"], year=year, leave_type="annual")
    i = g.add("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=start, end_date=end)
    g.add("get_employee", employee_id=e["id"])  # (the line manager the reply names as approver: a read, not a guess)
    later = iso(date.fromisoformat(end) + timedelta(days=1 if date.fromisoformat(end).weekday() < 4 else 3))
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, booking a break.",
            goal=f"Book annual leave from {start} to {end}.",
            first_message=f"Hi, I'd like to book annual leave from {start} to {end}, please.",
            facts={**identity(e), "leave_type": "annual", "start_date": start, "end_date": end},
        ),
        patch=s.patch(), golden=g,
        reply=(f"Booked: leave request LR-9001 for {start} to {end}, {days} working days, is pending approval "
               f"by your manager {name(m)}."),
        assertions=[
            says(fact("LR-9001", BOOKED), fact(days, BOOKED)),
            *leave_waits(["LR-9001", start, end]),
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            replace({i: call("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=start,
                             end_date=later)}, "wrong_amount", "books one working day too many"),
        ],
        kind="single_write", difficulty="medium", skills=["verification", "leave", "dates"],
    )


READ_NEEDS = [  # (system, role with approver none, need, a more privileged role)
    ("SYS-PBI", "PBI-VIEW", "look at the dashboards in Power BI", "PBI-PUBLISH"),
    ("SYS-SFDC", "SFDC-READ", "look up client accounts in Salesforce", "SFDC-EDIT"),
    ("SYS-GIT", "GIT-REPORTER", "read the code and issues in GitLab", "GIT-DEV"),
    ("SYS-DOC", "DOC-READ", "read the engagement documents in iManage", "DOC-EDIT"),
    ("SYS-WKD", "WKD-SELF", "see my own payslips in Workday", "WKD-HR-PARTNER"),
    ("SYS-JIRA", "JIRA-USER", "create and work on issues in Jira", "JIRA-ADMIN"),
]


@template("grant the least-privileged role that needs no approval")
def self_service_role(s: Desk, n: int) -> TaskSpec:
    system, role, need, bigger = READ_NEEDS[(n * 2 + 3 * (s.split == "train")) % len(READ_NEEDS)]
    _, e = s.manager_and_report()
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("list_system_roles", system_id=system)
    i = g.add("grant_access", employee_id=e["id"], role_id=role)
    sysname = SYSTEMS[system]["name"]
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, joining a new engagement and needing {sysname}.",
            goal=f"Get access to {need}.",
            first_message=f"Hi! I need access so I can {need}. Can you give me whatever access that needs?",
            facts={**identity(e), "need": need, "system": sysname},
            wants=[role, "access", "role"],
        ),
        patch=s.patch(), golden=g,
        # the role's display name is left out: "Jira User" would say JIRA-USER a second time
        reply=f"Done: you now have the {role} role in {sysname}, which lets you {need}.",
        assertions=[
            says(named(role, "policy, Communicating: after a change, name the role granted by its role id"),
                 status("granted", STATUS, *GRANTED)),
            *done(g), nothing_waits(),
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            replace({i: call("create_access_request", employee_id=e["id"], role_id=bigger, requested_by=e["id"],
                             justification=f"Needs to {need}.")},
                    "wrong_entity", "requests a more privileged role than the need"),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "access", "least_privilege"],
    )


@template("give back one licence, keep the other")
def licence_release(s: Desk, n: int) -> TaskSpec:
    pools = s.rng.sample(["LP-FIGM", "LP-MIRO", "LP-VISIO", "LP-ACRO", "LP-JETB", "LP-TABL"], 2)
    _, e = s.manager_and_report()
    for p in pools:
        s.seat(p, e, days_ago(s.rng.randint(100, 400)), days_ago(s.rng.randint(1, 30)))
    product = POOLS[pools[0]]["product"]
    kept = [pools[1], PRODUCT[pools[1]], POOLS[pools[1]]["product"]]
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_employee_licences", employee_id=e["id"])
    i = g.add("reclaim_licence", pool_id=pools[0], employee_id=e["id"], reason="No longer needed by the employee.")
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, tidying up software they no longer use.",
            goal=f"Give back their {product} licence (keep {POOLS[pools[1]]['product']}).",
            first_message=f"Hi, I don't use {product} anymore - please take the licence back so someone else can have it.",
            facts={**identity(e), "product": product, "keep": POOLS[pools[1]]["product"]},
            wants=[PRODUCT[pools[0]], *LICENCE],
        ),
        patch=s.patch(), golden=g,
        reply=f"Done: your {product} seat has been reclaimed as of {iso(TODAY)}.",
        assertions=[
            says(named(PRODUCT[pools[0]], "policy, Communicating: after a change, say what changed (the seat reclaimed)"),
                 # the seat given back, not the one kept ("I released your Miro seat; you keep Figma" swaps them)
                 status("reclaimed", STATUS, *RECLAIMED, owner=[PRODUCT[pools[0]], product],
                        rivals=[PRODUCT[pools[1]], POOLS[pools[1]]["product"]])),
            *done(g, names={pools[0]: [product, PRODUCT[pools[0]]]}, others=kept),
            outcome("reclaim", "not_done", f"the caller keeps {POOLS[pools[1]]['product']}: it was not reclaimed",
                    record=kept, others=[pools[0], product, PRODUCT[pools[0]]]),
            says_not(claim(*RELEASED, owner=kept[1:], rivals=[PRODUCT[pools[0]], product]),
                     why=f"the caller keeps {POOLS[pools[1]]['product']}: it was not reclaimed"),
            *not_all(RECLAIMED, f"the caller keeps {POOLS[pools[1]]['product']}: only {product} was reclaimed"),
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            replace({i: call("reclaim_licence", pool_id=pools[1], employee_id=e["id"], reason="No longer needed.")},
                    "wrong_entity", "reclaims the other product"),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "licences"],
    )


# a sweeping act said where only one of several records was done ("I've revoked all of Elif's roles", "HO-5025 is
# cancelled, along with your other order"): a quantifier said of the act, not of what stays ("every other role stays")
ALL_OF = ("all of", "all your", "all their", "all his", "all her", "all the", "all roles", "all access", "all seats",
          "all licences", "all licenses", "all orders", "all other", "all of them", "them all", "every", "everything",
          # (not "fully", "completely", "entirely": a degree of the one act, "the seat has been fully returned")
          "each of", "the rest", "in full", "across the board", "any roles", "any access", "any licences", "any licenses", "any seats",
          "any orders", "any other",
          # (another record added, not one item of the record listed with another: "the tablet along with the backpack")
          *(f"{w} {det}{x}" for w in ("along with", "together with", "as well as")
            for det in ("", "the ", "your ", "his ", "her ", "their ", "its ")
            for x in ("other", "rest", "order", "orders", "role", "roles", "licence", "licences", "license", "licenses",
                      "seat", "seats", "access")))
# ... or said as what is left ("Elif no longer has any roles"): a denial is the claim here
NONE_LEFT = ("no longer has any roles", "no longer have any roles", "no longer has any access",
             "no longer have any access", "no longer holds any", "no longer hold any", "has no roles", "have no roles",
             "has no access", "have no access", "no roles left", "no access left", "no licences left",
             "no licenses left", "no seats left", "no orders left", "no open orders", "nothing left", "lost all",
             *(f"no longer {v} any {x}" for v in ("has", "have", "hold", "holds") for x in ("licences", "licenses", "seats")),
             "no other orders", "no orders open")
STAYS = ["stay", "keep", "kept", "remain", "unchanged", "untouched", "in place", "still", "retain", "leave", "left",
         "is fine", "are fine", "not", "no change", "as is", "as it is", "as they are", "continue", "carry on", "only",
         # a courtesy or a summary is no act ("Everything is done: AWS-DEV revoked", "thanks for all of your patience")
         "done", "set", "sorted", "handled", "taken care", "thank", "help", "question", "need"]


def not_all(acts: list[str] | tuple[str, ...], why: str) -> list[dict[str, Any]]:
    """Policy: do only what the caller asked: where one record of several was `acts` (revoked, reclaimed,
    cancelled), the reply must not say all of them were (a quantifier said of the act, not of what stays)."""
    return [says_not(claim(*ALL_OF, owner=list(acts), rivals=STAYS), why=why),
            says_not(claim(*NONE_LEFT, may_be_negated=True), why=why)]


REVOKE_SETS = [("AWS-DEV", "AWS-READONLY"), ("SFDC-EDIT", "SFDC-READ"), ("DOC-EDIT", "DOC-READ"),
               ("GIT-DEV", "GIT-REPORTER"), ("PBI-PUBLISH", "PBI-VIEW"), ("SAP-GL-VIEW", "PBI-VIEW")]


@template("a line manager removes one role from a direct report")
def access_revoke_report(s: Desk, n: int) -> TaskSpec:
    target, other = REVOKE_SETS[(n * 2 + 3 * (s.split == "train")) % len(REVOKE_SETS)]
    m, e = s.manager_and_report()
    s.grant(e, target, days_ago(s.rng.randint(100, 300)))
    s.grant(e, other, days_ago(s.rng.randint(300, 500)))
    g = Golden()
    verify(g, m, s.rng.choice(["dob", "mobile"]))
    g.add("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    g.add("get_employee_access", employee_id=e["id"])
    i = g.add("revoke_access", employee_id=e["id"], role_id=target, reason="Engagement ended; requested by manager.")
    return TaskSpec(
        caller=Caller(
            persona=f"{name(m)}, a manager cleaning up access after an engagement ended.",
            goal=f"Remove {target} from their direct report {name(e)} (keep {other}).",
            first_message=(f"Hello, the engagement {e['first_name']} {e['last_name']} was on has ended. Please remove "
                           f"their {target} role; they keep everything else."),
            facts={**identity(m), "report": name(e), "role_to_remove": target},
            wants=[target, "access", "revoke", "remove"],
        ),
        patch=s.patch(), golden=g,
        reply=f"Done: {target} has been revoked from {name(e)} as of {iso(TODAY)}; {other} stays in place.",
        assertions=[
            says(named(target, "policy, Communicating: after a change, say what changed (the role revoked, by id)",
                       ROLES[target]["name"]),
                 # the role revoked, not the one kept ("I revoked PBI-VIEW; SAP-GL-VIEW stays" says them swapped)
                 status("revoked", STATUS, *REVOKED, owner=[target, ROLES[target]["name"]],
                        rivals=[other, ROLES[other]["name"]])),
            # the role removed (the manager's word) and revoked, and the one kept neither
            *taken_away([target, ROLES[target]["name"]], [other, ROLES[other]["name"]]),
            *taken_away([other, ROLES[other]["name"]], [target, ROLES[target]["name"]], "not_done",
                        f"the manager asked to keep {other}: it was not revoked"),
            says_not(claim(*TAKEN_AWAY, owner=[other, ROLES[other]["name"]], rivals=[target, ROLES[target]["name"]]),
                     why=f"the manager asked to keep {other}: it was not revoked"),
            undone([target, ROLES[target]["name"]], [other, ROLES[other]["name"]], "still has", "still have",
                   why=f"{target} was revoked: a reply that takes it back says it was not"),
            *not_all(REVOKED, f"the manager asked to keep {other}: only {target} was revoked"),
            *verified_first(s, g, m, report=e),
            *hr_private(e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            replace({i: call("revoke_access", employee_id=e["id"], role_id=other, reason="Engagement ended.")},
                    "wrong_entity", "revokes the wrong role"),
            append(call("revoke_access", employee_id=e["id"], role_id=other, reason="Engagement ended."),
                   note="revokes a role the manager wanted kept"),
        ],
        kind="single_write", difficulty="medium", skills=["verification", "manager_for_report", "access"],
    )


# -- multi-step workflows -----------------------------------------------------------------------------




# the words of an order's destination changing ("I've re-addressed HO-5022 to your office")
REDIRECT_WORDS = ["redirect", "re address", "readdress", "reroute", "re rout", "switch", "updat", "chang", "mov", "now"]


def resolved(ticket: dict[str, Any]) -> list[dict[str, Any]]:
    """A ticket resolved on the call: not said unresolved or still open (the vocabulary knows "still open" only for
    actions that undo: resolving is not one)."""
    why = f"the customer's request was done and ticket {ticket['id']} resolved"
    return [outcome("resolve", "done", why, record=[ticket["id"], "ticket"]),
            undone([ticket["id"], "ticket"], [], "still open", "remains open", "stays open", "is open", "left open",
                   "left it open", "keep it open", "kept open", "still pending", "not resolved", "not been resolved",
                   "not yet resolved", "unresolved", why=why)]


def address_updated(line1: str, zip_code: str) -> dict[str, Any]:
    """The home address changed, said of the address (or next to the new one: "New address: 88 Beacon St ...")."""
    return status("updated", STATUS, "update", "changed", "change", "is now", "new home address", "new address",
                  "new home address:", "new address:", "set", "recorded", "saved", "on file",
                  near=["address", "it", line1.split()[0], zip_code])


@template("a new home address re-addresses the open home order (and resolves the ticket)")
def address_redirect(s: Desk, n: int) -> TaskSpec:
    _, e = s.manager_and_report(work_mode=s.rng.choice(["remote", "hybrid"]))
    line1, city, state, zip_code = NEW_HOMES[(n * 3 + 2 + 5 * (s.split == "train")) % len(NEW_HOMES)]
    address = f"{line1}, {city}, {state} {zip_code}"
    s.order(e, ["HW-HSET"], "delivered", days_ago(s.rng.randint(90, 300)), "home")
    items = s.rng.choice([["HW-MON-27", "HW-KBD"], ["HW-DOCK", "HW-MSE"], ["HW-WCAM"], ["HW-MON-34"]])
    target = s.order(e, items, "submitted", days_ago(1), "home")
    office = s.order(e, ["HW-BAG"], "submitted", days_ago(2), "office") if n % 2 == 0 else None
    ticket = s.ticket(e, "hr", "Moving house on Saturday - please update my address") if n % 2 == 1 else None
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    if ticket:
        g.add("get_ticket", ticket_id=ticket["id"])
    g.add("update_home_address", employee_id=e["id"], line1=line1, city=city, state=state, zip_code=zip_code)
    g.add("list_hardware_orders", employee_id=e["id"])
    i = g.add("update_order_shipping", order_id=target["id"], ship_to="home")
    wrong = [drop(i, note="leaves the open home order going to the old address")]
    home_order = [target["id"], *(ITEM_NAMES[x] for x in items), "home order"]
    office_order = [office["id"], ITEM_NAMES["HW-BAG"], "backpack", "office"] if office else []
    assertions = [
        *done(g, names={"update": ["home address", "address", line1, zip_code, *home_order], target["id"]: home_order[1:]},
              others=office_order),
        says(fact(target["id"], "policy, Home address: open home orders are re-addressed; say what changed (the order)"),
             fact(zip_code, "policy, Communicating: after a change, say what changed (the new home address)"),
             address_updated(line1, zip_code),
             status("re-addressed", STATUS, "readdressed", "redirected", "re-routed", "rerouted", "updated", "changed",
                    "switched", "now ship", "now ships", "will ship there", "now go", "now goes", "now going",
                    "to your new", "to the new", "now be delivered", "now be sent", "now be shipped", "will be delivered there",
                    "will be sent there", "will be shipped there", "ships there", "goes there", "go there", "deliver there",
                    "delivered there", "new address", "new home",
                    near=[target["id"], "order", "it", "shipping", "delivery"],
                    # with an office order too, the one re-addressed is the home order, not the office one
                    **({"owner": [target["id"], *(ITEM_NAMES[x] for x in items), "home"],
                        "rivals": [office["id"], ITEM_NAMES["HW-BAG"], "backpack", "office"]} if office else {}))),
    ]
    office_line = OFFICES[e["office"]]["line1"].split(",")[0]
    assertions += [
        # each address in its own role: the old home street or the office said as the new address or as where the
        # home order now goes, the new street said as the one replaced
        moved_to([e["home_line1"], office_line], [line1],
                 why=f"the new home address is {address}; the old one is {e['home_line1']}, the office {office_line}"),
        # the home order re-addressed to the new home, not to the office ("I've re-addressed HO-5022 to your office")
        says_not(claim("office", "your office", "the office", office_line, near=[*SHIP_WORDS, *REDIRECT_WORDS],
                       owner=home_order, rivals=office_order[:3]),
                 why=f"policy, Home address: the home order {target['id']} goes to the new home address"),
    ]
    if ticket:
        g.add("add_ticket_note", ticket_id=ticket["id"],
              note=f"Home address updated to {address}; order {target['id']} re-addressed.")
        j = g.add("update_ticket_status", ticket_id=ticket["id"], status="resolved")
        wrong.append(drop(j, note="leaves the ticket open"))
        assertions += [noted(ticket), *resolved(ticket)]
    if office:
        # the office order is left as it is: not said re-addressed to the new home ("HO-5023 now ships to your new
        # home too")
        assertions.append(says_not(claim(*READDRESSED, "now ships to your new", "now goes to your new",
                                         "ships to your new", "goes to your new", "to your new home", "to the new address",
                                         "to your new address", owner=office_order[:3], rivals=home_order),
                                   why=f"policy, Home address: the office order {office['id']} is left as it is"))
        wrong.append(append(call("update_order_shipping", order_id=office["id"], ship_to="home"),
                            note="re-addresses the order that ships to the office"))
        wrong.append(reply(f"Your home address is now {address}. I re-addressed order {office['id']} to the new "
                           f"address; order {target['id']} is unchanged.", "says the office order re-addressed"))
    wrong.append(drop(0, note=UNVERIFIED))
    mention = f" I raised ticket {ticket['id']} about it." if ticket else ""
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, moving house this weekend with some equipment on order.",
            goal=f"Change their home address to {address} and make sure nothing goes to the old one.",
            first_message=f"Hi, I'm moving this weekend. My new address is {address}.{mention}",
            facts={**identity(e), "new_address": address, **({"ticket_id": ticket["id"]} if ticket else {})},
        ),
        patch=s.patch(), golden=g,
        reply=(f"Your home address is now {address}. Your open order {target['id']} was going to your old home "
               f"address, so I re-addressed it to the new one." + (f" Ticket {ticket['id']} is resolved." if ticket else "")),
        assertions=[*assertions, *verified_first(s, g, e)], wrong=wrong,
        kind="multi_step", difficulty="medium",
        skills=["verification", "hr", "address", "hardware"] + (["tickets"] if ticket else []),
    )


RECLAIM_POOLS = ["LP-TABL", "LP-FIGM", "LP-ADCC", "LP-STATA", "LP-JETB", "LP-MIRO", "LP-VISIO", "LP-PROJ", "LP-ZOOMW"]


@template("a full pool: reclaim the seat unused longest, assign it, resolve the ticket")
def licence_reclaim(s: Desk, n: int) -> TaskSpec:
    pool = RECLAIM_POOLS[(n * 2 + 3 * (s.split == "train")) % len(RECLAIM_POOLS)]
    product = POOLS[pool]["product"]
    _, e = s.manager_and_report()
    a, b, c, d = s.colleagues(4)
    s.seat(pool, a, days_ago(300), days_ago(s.rng.randint(3, 40)))
    b_days = s.rng.randint(95, 140)
    s.seat(pool, b, days_ago(400), days_ago(b_days))
    c_days = s.rng.randint(b_days + 30, 320)
    never = n % 2 == 1
    s.seat(pool, c, days_ago(c_days if never else c_days + 200), None if never else days_ago(c_days))
    s.seat(pool, d, days_ago(40), None)
    s.fill_pool(pool, 4)
    ticket = s.ticket(e, "licence", f"Need a {product} licence for my engagement")
    method = s.rng.choice(["dob", "mobile"])
    cc = DEPTS[e["department_id"]]["cost_centre"]
    g = Golden()
    verify(g, e, method)
    g.add("get_ticket", ticket_id=ticket["id"])
    g.add("get_employee", employee_id=e["id"])
    g.add("list_licence_pools")
    g.add("list_licence_seats", pool_id=pool)
    i = g.add("reclaim_licence", pool_id=pool, employee_id=c["id"], reason=f"Unused for {c_days} days.")
    g.add("assign_licence", pool_id=pool, employee_id=e["id"], cost_centre=cc)
    g.add("add_ticket_note", ticket_id=ticket["id"],
          note=f"Pool full; reclaimed the seat unused longest ({c['id']}) and assigned it, charged to {cc}.")
    j = g.add("update_ticket_status", ticket_id=ticket["id"], status="resolved")
    first = [c["first_name"]] if all(h["first_name"] != c["first_name"] for h in (a, b, d, e)) else []
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, who has been waiting for {product} and raised ticket {ticket['id']}.",
            goal=f"Get a {product} licence (ticket {ticket['id']}).",
            first_message=f"Hi, I raised ticket {ticket['id']} for a {product} licence. Any chance you can sort it today?",
            facts={**identity(e), "ticket_id": ticket["id"], "product": product},
            wants=[PRODUCT[pool], *LICENCE, ticket["id"]],
        ),
        patch=s.patch(), golden=g,
        reply=(f"The {product} pool was full, so I reclaimed the seat that had gone unused the longest "
               f"({c_days} days) and assigned it to you, charged to {cc}. Ticket {ticket['id']} is resolved."),
        assertions=[
            # one product in the conversation (the ticket's): "the licence is yours now" names it too
            says(named(PRODUCT[pool], "policy, Communicating: after a change, say the seat assigned", *LICENCE),
                 # assigned to the caller, not to the colleague whose seat was reclaimed ("the licence has been
                 # assigned to E-5083" names the wrong person)
                 fact("assigned", STATUS, *ASSIGNED, "gave it", "given it", "given to you", "passed it",
                      owner=["you", e["id"], name(e)], rivals=[c["id"], name(c), *first],
                      # wordings that name the caller themselves ("the licence is now yours", "set you up with")
                      alternatives=[fact("is yours", STATUS, "now yours", "set you up", "you now have", "you have a",
                                         "assigned you", "given you", "gave you", "you are all set", "you are set")])),
            # the seat was reclaimed from its idle holder and assigned to the caller: neither not done nor waiting
            # (by first name too, unless a colleague shares it: "Marisol" is then no name of either)
            outcome("reclaim", "done", ASKED_DONE, record=[c["id"], name(c), *first, "unused"],
                    others=[x for h in (a, b, d) for x in (h["id"], name(h))]),
            # (the colleagues' seats were assigned to them before: "all seats are assigned" is true)
            outcome("assign", "done", ASKED_DONE, record=[product, PRODUCT[pool], "you", e["id"], name(e)],
                    others=[x for h in (a, b, c, d) for x in (h["id"], name(h))], nouns=NOUNS["assign"],
                    already=[x for h in (a, b, c, d) for x in (h["id"], name(h))]),
            *resolved(ticket), not_queued(), no_other_product(pool), charged_to(cc),
            noted(ticket),
            *verified_first(s, g, e),
        ],
        wrong=[
            replace({i: call("reclaim_licence", pool_id=pool, employee_id=b["id"], reason="Unused.")},
                    "wrong_entity", "reclaims a seat unused for over 90 days, but not the one unused longest"),
            drop(j, note="leaves the ticket open"),
            drop(0, note=UNVERIFIED),
        ],
        kind="multi_step", difficulty="hard", skills=["verification", "licences", "reclaim", "tickets"],
    )


@template("a full pool with no seat to reclaim: ticket escalated to procurement")
def licence_waitlist(s: Desk, n: int) -> TaskSpec:
    pool = RECLAIM_POOLS[(n * 2 + 1 + 3 * (s.split == "train")) % len(RECLAIM_POOLS)]
    product = POOLS[pool]["product"]
    _, e = s.manager_and_report()
    holders = s.colleagues(4)
    ages = [90, s.rng.randint(50, 80), s.rng.randint(20, 45), s.rng.randint(1, 15)]
    for h, age in zip(holders, ages, strict=True):
        s.seat(pool, h, days_ago(age + s.rng.randint(100, 400)), days_ago(age))
    s.fill_pool(pool, 4)
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_employee", employee_id=e["id"])
    g.add("list_licence_pools")
    g.add("list_licence_seats", pool_id=pool)
    g.add("create_ticket", employee_id=e["id"], category="licence", subject=f"{product} seat needed - pool full",
          priority="normal", linked_ref=pool)
    j = g.add("escalate_ticket", ticket_id="T-9001", team="procurement",
              reason=f"No {product} seat free or reclaimable; a seat must be bought.")
    cc = DEPTS[e["department_id"]]["cost_centre"]
    # the seats' holders, as a reply names them ("all" alone would be a word of "JetBrains All Products Pack")
    taken = ["colleague", "someone", "other", "every", "each", "all seats", "all the", "all of", *(h["id"] for h in holders)]
    why = "policy, Software licences: with no seat to reclaim, open a ticket, escalate it to procurement; tell the caller"
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, who needs {product} for a new piece of work.",
            goal=f"Get a {product} licence, or at least have it in hand with the right team.",
            first_message=f"Hello, could I get a {product} licence please?",
            facts={**identity(e), "product": product},
            wants=["ticket", "escalate", "procurement"],
        ),
        patch=s.patch(), golden=g,
        reply=(f"Every {product} seat is in use and none has been unused for more than 90 days, so I can't free "
               f"one. I opened ticket T-9001 and escalated it to procurement to buy a seat (to be charged to {cc}); "
               f"they will contact you within one business day."),
        assertions=[
            says(fact("T-9001", why), fact("procurement", why, "purchasing"), CALLBACK),
            # no seat was free: a reply that says one was assigned to the caller claims what was not done (the
            # request waits for procurement: "pending" is true)
            outcome("assign", "not_done", "no seat was free or reclaimable: none was assigned; the ticket waits for "
                    "procurement", record=[product, PRODUCT[pool], "you", e["id"], name(e)], nouns=NOUNS["assign"],
                    others=taken, already=taken),
            says_not(claim(*SEAT_GIVEN, owner=["you", e["id"], name(e)], rivals=taken),
                     why="no seat was free or reclaimable: none was assigned; the ticket waits for procurement"),
            says_not(claim("is yours", "is now yours", "assigned you", "allocated you", "gave you a", "given you a",
                           "you now have a seat", "you now have a license"),
                     why="no seat was free or reclaimable: none is the caller's yet"),
            *verified_first(s, g, e),
        ],
        wrong=[
            append(call("reclaim_licence", pool_id=pool, employee_id=holders[0]["id"], reason="Unused for 90 days."),
                   call("assign_licence", pool_id=pool, employee_id=e["id"], cost_centre=cc),
                   note="reclaims a seat last used exactly 90 days ago"),
            drop(j, note="opens the ticket but does not escalate it to procurement"),
            drop(0, note=UNVERIFIED),
        ],
        kind="multi_step", difficulty="medium",
        skills=["verification", "licences", "reclaim", "tickets", "escalation"],
    )


SWAPS = [  # (held role, wanted role, department, team)
    ("SAP-AP-CLERK", "SAP-PAY-RUN", "D-FIN", "payments"), ("SAP-VENDOR-MAINT", "SAP-PAY-RUN", "D-FIN", "payments"),
    ("WKD-HR-PARTNER", "WKD-PAYROLL", "D-HR", "payroll"), ("WKD-PAYROLL", "WKD-HR-PARTNER", "D-HR", "HR business partner"),
    ("SAP-PAY-RUN", "SAP-AP-CLERK", "D-FIN", "accounts payable"), ("SAP-AP-CLERK", "SAP-VENDOR-MAINT", "D-FIN", "vendor master data"),
]
WAITING = "policy, Access: when a request waits for the approver, tell the caller the request id and who must approve it"


@template("give up a conflicting role, request the new one, ticket pending")
def sod_swap(s: Desk, n: int) -> TaskSpec:
    held, wanted, dept, team = SWAPS[(n * 2 + 1 * (s.split == "train")) % len(SWAPS)]
    _, e = s.manager_and_report(dept=dept)
    s.grant(e, held, days_ago(s.rng.randint(200, 600)))
    s.grant(e, "SAP-GL-VIEW" if dept == "D-FIN" else "WKD-SELF", days_ago(s.rng.randint(300, 700)))
    ticket = s.ticket(e, "access", f"Moving to the {team} team - access change")
    system = ROLES[wanted]["system_id"]
    owner_id = SYSTEMS[system]["owner_id"]
    owner = base_name(owner_id)
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_ticket", ticket_id=ticket["id"])
    g.add("get_employee_access", employee_id=e["id"])
    g.add("check_sod_conflicts", employee_id=e["id"], role_id=wanted)
    i = g.add("revoke_access", employee_id=e["id"], role_id=held, reason=f"Moving to the {team} team; SoD with {wanted}.")
    g.add("create_access_request", employee_id=e["id"], role_id=wanted, requested_by=e["id"],
          justification=f"Joining the {team} team.")
    g.add("add_ticket_note", ticket_id=ticket["id"], note=f"Revoked {held}; requested {wanted} (AR-9001), waiting for {owner}.")
    j = g.add("update_ticket_status", ticket_id=ticket["id"], status="pending")
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, moving to the {team} team next week.",
            goal=f"Give up {held} and get {wanted} (ticket {ticket['id']}).",
            first_message=(f"Hi, I'm moving to the {team} team (ticket {ticket['id']}). Please remove my {held} role - "
                           f"I won't need it any more - and give me {wanted}."),
            facts={**identity(e), "ticket_id": ticket["id"], "role_to_give_up": held, "role_wanted": wanted},
            wants=[held, wanted, "access", "request", "remove", "revoke", ticket["id"]],
        ),
        patch=s.patch(), golden=g,
        reply=(f"I removed {held} (it conflicts with {wanted}) and submitted request AR-9001 for {wanted}. It needs "
               f"approval from the system owner, {owner}; ticket {ticket['id']} is pending until then."),
        assertions=[says(fact("AR-9001", WAITING), named(owner, WAITING, near=WAITS_ON),
                         named(held, "the customer asked to remove it; policy, Communicating: after a change, say what "
                               "changed (the role revoked)", ROLES[held]["name"]),
                         # the role given up is the one removed; the wanted one is requested, not removed
                         status("removed", STATUS, *REVOKED, "no longer", "took away", "took off", "taken out",
                                owner=[held, ROLES[held]["name"]],
                                rivals=[wanted, ROLES[wanted]["name"], "AR-9001"])),
                    *taken_away([held, ROLES[held]["name"]], [wanted, ROLES[wanted]["name"], "AR-9001"]),
                    outcome("grant", "pending", f"{wanted} is requested and waits for {owner}: not granted",
                            record=[wanted, ROLES[wanted]["name"], "AR-9001", "request"],
                            others=[held, ROLES[held]["name"], *CONDITION]),
                    *awaiting(["AR-9001", wanted, ROLES[wanted]["name"], "request"], f"AR-9001 waits for {owner}",
                              others=[held, ROLES[held]["name"]]),
                    says_not(claim(*ACTIVATED, *APPROVAL_RECORDED, owner=[wanted, ROLES[wanted]["name"], "AR-9001"],
                                   rivals=[held, ROLES[held]["name"]]),
                             why=f"{wanted} is requested and waits for {owner}: not granted"),
                    noted(ticket), *verified_first(s, g, e)],
        wrong=[
            drop(i, note="requests the new role while keeping the conflicting one"),
            append(call("record_approval", approval_id="AP-9001", approver_id=owner_id, decision="approved",
                        note="Owner is expected to approve."),
                   call("grant_access", employee_id=e["id"], role_id=wanted, request_id="AR-9001"),
                   tag="skipped_approval", note="records the owner's approval without the owner and grants the role"),
            replace({j: call("update_ticket_status", ticket_id=ticket["id"], status="resolved")}, "extra_write",
                    "resolves the ticket while the request waits for approval"),
        ],
        kind="multi_step", difficulty="hard", skills=["verification", "access", "segregation_of_duties", "tickets"],
    )


@template("a stolen laptop: record it, security ticket escalated, same model replaced")
def lost_laptop(s: Desk, n: int) -> TaskSpec:
    level = s.rng.choice(["analyst", "consultant", "senior_consultant", "manager"])
    dept = s.rng.choice(sorted(DEPTS))
    _, e = s.manager_and_report(dept=dept, level=level)
    model = kit_laptop(dept, level)
    old = n % 3 == 2 and level in ("analyst", "consultant")
    if old:
        model = "HW-LAP-OLD"
    laptop = s.asset(e, model, days_ago(s.rng.randint(300, 1000)))
    s.asset(e, "HW-PHN", days_ago(s.rng.randint(100, 600)))
    s.asset(e, "HW-LAP-STD", days_ago(1500), status="returned", returned_on=days_ago(s.rng.randint(300, 900)))
    replacement = "HW-LAP-STD" if old else model
    where = s.rng.choice(["home", "office"])
    story = s.rng.choice(["was stolen from my car last night", "was taken from my bag on the train this morning",
                          "was stolen at the airport yesterday"])
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("list_employee_assets", employee_id=e["id"])
    i = g.add("report_asset_lost", asset_id=laptop["id"], circumstances=f"Laptop {story}.")
    g.add("create_ticket", employee_id=e["id"], category="security", subject=f"Stolen laptop {laptop['id']}",
          priority="high", linked_ref=laptop["id"])
    j = g.add("escalate_ticket", ticket_id="T-9001", team="security", reason="Stolen laptop; possible data exposure.")
    g.add("get_employee", employee_id=e["id"])
    g.add("get_hardware_catalogue")
    k = g.add("place_hardware_order", employee_id=e["id"], item_ids=[replacement], ship_to=where, requested_by=e["id"])
    other = "HW-LAP-PRF" if replacement != "HW-LAP-PRF" else "HW-LAP-ULT"
    where_text = "your home address" if where == "home" else "your office"
    my_where = "my home address" if where == "home" else "my office"
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, whose laptop {story}; worried and in a hurry.",
            goal=f"Report the stolen laptop and get a replacement shipped to {where_text}.",
            first_message=f"Hi, my work laptop {story}. I need a replacement as soon as possible, sent to {my_where}.",
            # an old model is no longer sold: "the current model of the same size" could also read as the
            # MacBook Pro 14in, so the customer says which
            facts={**identity(e), "laptop_model": ITEM_NAMES[model], SHIP_TO: where,
                   **({"replacement_model": f"the current {ITEM_NAMES[replacement]}"} if old else {})},
            wants=["stolen", "lost", "ticket", "escalate", "security", "order", "replacement", "laptop"],
        ),
        patch=s.patch(), golden=g,
        reply=(f"I've recorded laptop {laptop['id']} as stolen, opened security ticket T-9001 and escalated it to the "
               f"security team, who will contact you within one business day. Your replacement "
               f"{ITEM_NAMES[replacement]} is on order HO-9001 ({money(PRICES[replacement])}), shipping to {where_text}."),
        assertions=[
            says(fact("T-9001", SAID_CHANGE), fact("HO-9001", SAID_CHANGE), CALLBACK),
            *done(g, "place_hardware_order", names={"order": ["HO-9001", ITEM_NAMES[replacement], "replacement"]}),
            wrong_destination(where),
            # another device of the caller's said reported stolen (the phone, the laptop returned long ago)
            says_not(claim(*(a["id"] for a in s.patch()["assets"] if a["id"] != laptop["id"]),
                           near=[*STOLEN_WORDS, "requested", "arranged", "scheduled", "collect"]),
                     why=f"the laptop reported stolen is {laptop['id']}, not another device"),
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(j, note="does not escalate the stolen device to security"),
            replace({k: call("place_hardware_order", employee_id=e["id"], item_ids=[other], ship_to=where,
                             requested_by=e["id"])}, "wrong_entity", "orders a different model as the replacement"),
            drop(i, note="replaces the laptop without recording it as stolen"),
        ],
        kind="multi_step", difficulty="hard", skills=["verification", "hardware", "security", "tickets", "escalation"],
    )


STOLEN_WORDS = ["stolen", "lost", "report", "record", "logged", "missing", "theft", "security"]


def miscounted(why: str, **counts: tuple[int, tuple[str, ...]]) -> dict[str, Any]:
    """`says_not`: so many of each thing said as another number ("4 roles revoked" where 5 were, "return kits
    for 3 devices" for 2): `counts` maps a thing to its real count and the nouns it is said by."""
    said = [f"{k} {noun}" for n, nouns in counts.values() for noun in nouns for k in range(0, 13) if k != n]
    return says_not(claim(*said), why=why)


@template("a leaver whose last day has come: revoke, reclaim, return, disable")
def offboarding_today(s: Desk, n: int) -> TaskSpec:
    m, e = s.manager_and_report()
    roles, pools, devices = s.leaver(e, n)
    last_day = iso(TODAY) if n % 2 == 0 else "2026-11-27"
    when = "today" if last_day == iso(TODAY) else "last Friday, 2026-11-27"
    g = Golden()
    verify(g, m, s.rng.choice(["dob", "mobile"]))
    g.add("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    at = offboard_now(g, m, e, last_day, roles, pools, devices)
    return TaskSpec(
        caller=Caller(
            persona=f"{name(m)}, a manager whose direct report {name(e)} has left.",
            goal=f"Fully offboard {name(e)}, whose last working day was {last_day}.",
            first_message=(f"Hi, {name(e)} from my team finished {when}. Can you run the full offboarding - access, "
                           f"licences, equipment, everything?"),
            facts={**identity(m), "leaver": name(e), "leavers_last_day": last_day},
            wants=OFFBOARDING,
        ),
        patch=s.patch(), golden=g,
        reply=(f"Offboarding case LC-9001 for {name(e)} (last day {last_day}) is complete: {len(roles)} roles revoked, "
               f"{len(pools)} licence seat(s) reclaimed, return kits sent for {len(devices)} devices, and the account "
               f"is disabled."),
        assertions=[
            says(fact("LC-9001", "policy, Communicating: after a change, say the case id"), OFFBOARDED),
            # the case opened, and the steps said not done; not as `done` outcomes: they also forbid waiting, and
            # "account disabled, pending the return of 2 devices" is the offboarding said right
            case_opened(), says_not(claim(*NOT_OFFBOARDED, may_be_negated=True), why=OFFBOARD_DONE), nothing_waits(),
            miscounted("policy, Communicating: the roles, seats and devices are the ones the tools returned: another "
                       "count is made up", roles=(len(roles), ("role", "access role")),
                       seats=(len(pools), ("licence seat", "license seat", "seat", "licence", "license")),
                       devices=(len(devices), ("device", "return kit", "item of equipment"))),
            *verified_first(s, g, m, report=e),
            *hr_private(e),
        ],
        wrong=[
            drop(at["disable"], note="leaves the leaver's account enabled"),
            drop(at["revoke_m365"], note="forgets a baseline role"),
            drop(at["reclaim"], note="leaves a licence seat with the leaver"),
        ],
        kind="multi_step", difficulty="hard",
        skills=["verification", "manager_for_report", "offboarding", "access", "licences", "hardware"],
    )


@template("a new hire: case, standard kit, baseline roles, named licences")
def onboarding_new_hire(s: Desk, n: int) -> TaskSpec:
    dept = sorted(DEPTS)[(n * 3 + 4 * (s.split == "train")) % len(DEPTS)]
    level = ["analyst", "consultant", "senior_consultant"][(n + (s.split == "train")) % 3]
    m = s.person(dept, "manager", DEPTS[dept]["head_id"])
    start = days_ahead(s.rng.choice([7, 14, 21, 35]))
    e = s.person(dept, level, m["id"], baseline=False, status="pending_start", start_date=start,
                 work_mode=s.rng.choice(["remote", "office", "hybrid"]))
    pools = DEPT_POOLS[dept][: 1 + n % 2]
    laptop = kit_laptop(dept, level)
    kit = [laptop, "HW-DOCK", "HW-HSET"]
    ship = "home" if e["work_mode"] == "remote" else "office"
    cc = DEPTS[dept]["cost_centre"]
    g = Golden()
    verify(g, m, s.rng.choice(["dob", "mobile"]))
    g.add("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    g.add("get_employee", employee_id=e["id"])
    g.add("start_onboarding", employee_id=e["id"], requested_by=m["id"])
    g.add("get_hardware_catalogue")
    k = g.add("place_hardware_order", employee_id=e["id"], item_ids=kit, ship_to=ship, requested_by=m["id"])
    grants = [g.add("grant_access", employee_id=e["id"], role_id=r) for r in ("M365-USER", "INTRA-READ", "TIME-USER")]
    for p in pools:
        g.add("assign_licence", pool_id=p, employee_id=e["id"], cost_centre=cc)
    for step in ("hardware", "access", "licences"):
        g.add("complete_checklist_item", case_id="LC-9001", step=step)
    products = " and ".join(POOLS[p]["product"] for p in pools)
    wrong_laptop = "HW-LAP-ULT" if laptop != "HW-LAP-ULT" else "HW-LAP-PRF"
    return TaskSpec(
        caller=Caller(
            persona=f"{name(m)}, a manager in {DEPTS[dept]['name']} getting ready for a new hire.",
            goal=f"Onboard {name(e)} (starting {start}) with the standard kit, access and {products}.",
            first_message=(f"Hi, {name(e)} joins my team on {start}. Please set everything up - the standard kit and "
                           f"access - and they'll need {products}."),
            facts={**identity(m), "new_hire": name(e), "new_hires_start_date": start, "licences": products},
            wants=["onboarding", "order", "kit", "access", "role", "grant", *LICENCE, "assign"],
        ),
        patch=s.patch(), golden=g,
        reply=(f"Onboarding case LC-9001 for {name(e)} is complete: standard kit order HO-9001 ("
               f"{', '.join(ITEM_NAMES[i] for i in kit)}) ships to the {'home address' if ship == 'home' else 'office'}, "
               f"the baseline roles M365-USER, INTRA-READ and TIME-USER are granted, and {products} "
               f"{'is' if len(pools) == 1 else 'are'} assigned, charged to {cc}."),
        assertions=[
            says(fact("LC-9001", SAID_CHANGE), fact("HO-9001", SAID_CHANGE)),
            *done(g, names={"order": ["HO-9001", "kit", *(ITEM_NAMES[i] for i in kit)],
                            **{p: [POOLS[p]["product"], PRODUCT[p]] for p in pools}}),
            wrong_destination(ship),
            *verified_first(s, g, m, report=e),
            *hr_private(e),
        ],
        wrong=[
            replace({k: call("place_hardware_order", employee_id=e["id"], item_ids=[wrong_laptop, "HW-DOCK", "HW-HSET"],
                             ship_to=ship, requested_by=m["id"])}, "wrong_entity", "orders the wrong laptop for the hire"),
            replace({k: call("place_hardware_order", employee_id=e["id"], item_ids=kit,
                             ship_to="office" if ship == "home" else "home", requested_by=m["id"])},
                    "wrong_entity", "ships the kit to the wrong place"),
            drop(grants[1], note="forgets a baseline role"),
        ],
        kind="multi_step", difficulty="hard",
        skills=["verification", "manager_for_report", "onboarding", "hardware", "access", "licences"],
    )


REBOOKS = [  # (old start, old end, new start, new end)
    ("2026-12-14", "2026-12-18", "2026-12-21", "2026-12-23"), ("2026-12-07", "2026-12-11", "2026-12-14", "2026-12-17"),
    ("2026-12-21", "2026-12-23", "2026-12-28", "2026-12-30"), ("2026-12-09", "2026-12-11", "2026-12-16", "2026-12-18"),
    ("2026-12-15", "2026-12-18", "2026-12-28", "2026-12-30"),
]


@template("cancel booked leave and book other dates")
def leave_rebook(s: Desk, n: int) -> TaskSpec:
    os_, oe, ns, ne = REBOOKS[(n * 2 + 1 * (s.split == "train")) % len(REBOOKS)]
    m, e = s.manager_and_report()
    entitled = 22
    s.balances(e, entitled, 0)
    old = s.leave(e, os_, oe, s.rng.choice(["approved", "pending"]))
    new_days = working_days(ns, ne)
    s.past_leave(e, entitled - old["days"] - (new_days - 1))
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("list_leave_requests", employee_id=e["id"])
    i = g.add("cancel_leave_request", request_id=old["id"])
    g.add("get_leave_balance", employee_id=e["id"], year=2026, leave_type="annual")
    k = g.add("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=ns, end_date=ne)
    g.add("get_employee", employee_id=e["id"])  # (the line manager the reply names as approver: a read, not a guess)
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, whose project dates moved; wants to move booked leave.",
            goal=f"Cancel the leave from {os_} to {oe} and book {ns} to {ne} instead.",
            first_message=(f"Hi, my project moved, so I need to swap my leave: cancel my {os_} to {oe} booking and "
                           f"book {ns} to {ne} instead."),
            facts={**identity(e), "leave_type": "annual", "dates_to_cancel": f"{os_} to {oe}",
                   "new_dates": f"{ns} to {ne}"},
        ),
        patch=s.patch(), golden=g,
        reply=(f"I cancelled leave request {old['id']} ({os_} to {oe}; {old['days']} days returned to your balance) "
               f"and booked LR-9001 for {ns} to {ne}, {new_days} working days, pending approval by {name(m)}."),
        assertions=[
            # the old request is the one cancelled, LR-9001 the one booked, and its working days are the new
            # booking's, not the days returned from the old one
            says(fact("LR-9001", BOOKED),
                 fact(new_days, BOOKED, owner=["LR-9001", "book", "new", "submit", ns, ne, *NEW_DAYS],
                      rivals=[old["id"], "cancel", "return", "back", "refund", "freed", "credit", os_, oe]),
                 fact(old["id"], "policy, Communicating: after a change, say what changed (the request cancelled)"),
                 status("cancelled", STATUS, *CANCELLED, "replaced", "swapped", owner=[old["id"], os_, oe, "old"],
                        rivals=["LR-9001", ns, ne, "new"])),
            *done(g, "cancel_leave_request", names={old["id"]: [os_, oe, "old"]}, others=["LR-9001", ns, ne, "new"]),
            *leave_waits(["LR-9001", ns, ne, "new"], others=[old["id"], os_, oe, "old"],
                         approved=[old["id"], os_, oe, "old"] if old["status"] == "approved" else ()),
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(i, note="books the new dates without cancelling the old ones"),
            reply(f"I cancelled leave request LR-9001 and booked {old['id']} for {ns} to {ne}, {new_days} working days.",
                  "says the two requests the other way round"),
            replace({k: call("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=ns,
                             end_date=iso(date.fromisoformat(ne) - timedelta(days=1)))},
                    "wrong_amount", "books one day short"),
            drop(0, note=UNVERIFIED),
        ],
        kind="multi_step", difficulty="medium", skills=["verification", "leave", "dates"],
    )


# -- approvals --------------------------------------------------------------------------------------

MANAGER_ROLES = [  # (system, role approved by the line manager, what the report will do, department)
    ("SYS-PBI", "PBI-PUBLISH", "publish reports to the client workspace", "D-DAT"),
    ("SYS-GIT", "GIT-DEV", "push code for the client prototype", "D-TEC"),
    ("SYS-SFDC", "SFDC-EDIT", "keep the opportunity pipeline up to date", "D-STR"),
    ("SYS-DOC", "DOC-EDIT", "edit the engagement documents", "D-RSK"),
    ("SYS-TIME", "TIME-APPROVER", "approve the team's timesheets while I'm on holiday", "D-OPS"),
    ("SYS-AWS", "AWS-READONLY", "look at the resources in the client sandbox", "D-TEC"),
    ("SYS-SAP", "SAP-GL-VIEW", "review general ledger balances for the audit", "D-RSK"),
    ("SYS-INTRA", "INTRA-EDITOR", "maintain our practice's intranet pages", "D-MKT"),
]


@template("a line manager requests a role they approve: approve on the call and grant")
def access_manager_approves(s: Desk, n: int) -> TaskSpec:
    system, role, need, dept = MANAGER_ROLES[(n * 3 + 2 * (s.split == "train")) % len(MANAGER_ROLES)]
    m, e = s.manager_and_report(dept=dept)
    s.grant(e, "JIRA-USER", days_ago(200))
    g = Golden()
    verify(g, m, s.rng.choice(["dob", "mobile"]))
    g.add("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    g.add("get_employee_access", employee_id=e["id"])
    g.add("list_system_roles", system_id=system)
    g.add("check_sod_conflicts", employee_id=e["id"], role_id=role)
    g.add("create_access_request", employee_id=e["id"], role_id=role, requested_by=m["id"],
          justification=f"Needs to {need}.")
    i = g.add("record_approval", approval_id="AP-9001", approver_id=m["id"], decision="approved",
              note="Requested and approved by the line manager on the call.")
    k = g.add("grant_access", employee_id=e["id"], role_id=role, request_id="AR-9001")
    sysname = SYSTEMS[system]["name"]
    others = [w for r in ROLES.values() if r["system_id"] == system and r["id"] != role for w in (r["id"], r["name"])
              if w != ROLES[role]["name"]]
    return TaskSpec(
        caller=Caller(
            persona=f"{name(m)}, a manager who needs a direct report set up in {sysname} today.",
            goal=f"Get {name(e)} the {sysname} access needed to {need}.",
            first_message=f"Hi, {name(e)} on my team needs to {need} in {sysname}. Can you sort out the access?",
            facts={**identity(m), "report": name(e), "need": need, "system": sysname,
                   "approval_as_line_manager": "yes, I approve it"},
            wants=[role, "access", "request", "approve", "approval", "grant"],
        ),
        patch=s.patch(), golden=g,
        reply=(f"I submitted request AR-9001 for {role} ({ROLES[role]['name']}) for {name(e)}, recorded your approval "
               f"as their line manager, and granted the role."),
        assertions=[
            says(named(role, "policy, Communicating: after a change, name the role granted by its role id",
                       ROLES[role]["name"]),
                 # this role, to the report: not another role of the system, nor "granted to you" (the manager)
                 status("granted", STATUS, *GRANTED, owner=[role, ROLES[role]["name"], "AR-9001", "the role"],
                        rivals=[*others, "to you", "you now have", m["id"], name(m)])),
            # approved on the call and granted: neither not done nor still waiting for anyone
            *done(g, "grant_access", names={role: [ROLES[role]["name"], "AR-9001"]}, others=others),
            outcome("approve", "done", "the manager approved on the call",
                    record=["AR-9001", role, ROLES[role]["name"], "approval"], others=others),
            # waiting said with no word of the grant or the approval ("AR-9001 is still pending")
            says_not(claim("still needs", "awaiting", "waiting for", "waits for", "pending",
                           may_be_negated=True, owner=[role, ROLES[role]["name"], "AR-9001"], rivals=others),
                     why="the manager approved on the call and the role was granted: nothing waits"),
            *verified_first(s, g, m, report=e),
            *hr_private(e),
        ],
        wrong=[
            drop(k, note="approves but never grants the role"),
            drop(i, k, note="leaves the request waiting although the approver is on the call"),
            drop(0, note=UNVERIFIED),
        ],
        kind="approval", difficulty="medium", skills=["verification", "manager_for_report", "access", "approval"],
    )


OWNER_ROLES = [  # (system, owner-approved role, need, department)
    ("SYS-AWS", "AWS-DEV", "build a prototype in the client sandbox", "D-TEC"),
    ("SYS-SAP", "SAP-AP-CLERK", "enter vendor invoices while a colleague is on leave", "D-FIN"),
    ("SYS-WKD", "WKD-COMP-VIEW", "prepare the compensation review", "D-HR"),
    ("SYS-DOC", "DOC-LEGAL-HOLD", "place legal holds for a litigation matter", "D-LEG"),
    ("SYS-JIRA", "JIRA-ADMIN", "configure workflows for our new project", "D-IT"),
    ("SYS-SFDC", "SFDC-ADMIN", "configure the CRM page layouts for our team", "D-MKT"),
]


@template("a role the system owner approves: request it and say who decides")
def access_owner_pending(s: Desk, n: int) -> TaskSpec:
    system, role, need, dept = OWNER_ROLES[(n * 2 + 1 * (s.split == "train")) % len(OWNER_ROLES)]
    m, e = s.manager_and_report(dept=dept)
    owner_id = SYSTEMS[system]["owner_id"]
    owner = base_name(owner_id)
    ticket = s.ticket(e, "access", f"Access needed: {role}") if n % 2 == 0 else None
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    if ticket:
        g.add("get_ticket", ticket_id=ticket["id"])
    g.add("list_system_roles", system_id=system)
    g.add("check_sod_conflicts", employee_id=e["id"], role_id=role)
    i = g.add("create_access_request", employee_id=e["id"], role_id=role, requested_by=e["id"],
              justification=f"Needs to {need}.")
    wrong = [
        append(call("record_approval", approval_id="AP-9001", approver_id=owner_id, decision="approved",
                    note="Manager said it is fine."),
               call("grant_access", employee_id=e["id"], role_id=role, request_id="AR-9001"),
               tag="skipped_approval", note="records an approval the owner never gave and grants the role"),
        drop(i, note="tells the employee to wait but submits nothing"),
    ]
    waits = f"the request waits for {owner}: nothing is granted or approved yet"
    assertions = [says(fact("AR-9001", WAITING), named(owner, WAITING, near=WAITS_ON)),
                  outcome("grant", "pending", waits, record=["AR-9001", role, ROLES[role]["name"], "request", "access"],
                          others=CONDITION),
                  *awaiting(["AR-9001", role, ROLES[role]["name"], "request", "access"], waits),
                  says_not(claim(*ACTIVATED, *APPROVAL_RECORDED,
                                 owner=["AR-9001", role, ROLES[role]["name"], "request", "access"], rivals=CONDITION),
                           why=waits)]
    if ticket:
        g.add("add_ticket_note", ticket_id=ticket["id"], note=f"Submitted AR-9001; waiting for {owner}.")
        j = g.add("update_ticket_status", ticket_id=ticket["id"], status="pending")
        wrong.append(replace({j: call("update_ticket_status", ticket_id=ticket["id"], status="resolved")},
                             "extra_write", "resolves the ticket while the request waits for approval"))
        assertions.append(noted(ticket))
        # the ticket set to pending, said closed ("I've closed ticket T-6006", "T-6006 has been resolved")
        assertions += [outcome(verb, "not_done", f"ticket {ticket['id']} is set to pending while the request waits",
                               record=[ticket["id"], "ticket"], others=["AR-9001", role, "request"])
                       for verb in ("close", "resolve")]
    # the caller's manager said to be the approver, or their word recorded as an approval
    assertions.append(says_not(claim(*(f"{w} {name(m)}" for w in MANAGER_AS_APPROVER)),
                               why=f"{role} is approved by the system owner, {owner}, not by {name(m)}"))
    assertions += verified_first(s, g, e)
    sysname = SYSTEMS[system]["name"]
    mention = f" (ticket {ticket['id']})" if ticket else ""
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, who needs {sysname} rights today and thinks the manager's OK is enough.",
            goal=f"Get the {sysname} role needed to {need}{mention}.",
            first_message=(f"Hi, in {sysname} I need to {need}{mention}. My manager {name(m)} already said it's "
                           f"fine, so can you switch the access on today?"),
            facts={**identity(e), "need": need, "system": sysname, "manager": name(m),
                   **({"ticket_id": ticket["id"]} if ticket else {})},
            wants=[role, "access", "request", *([ticket["id"]] if ticket else [])],
            instructions="Push once for the access to be switched on today because your manager agreed; accept the answer.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"I submitted request AR-9001 for {role}. That role is approved by the system owner, {owner}, not by "
               f"your manager, so it is pending until {owner} approves it."
               + (f" Ticket {ticket['id']} is set to pending." if ticket else "")),
        assertions=assertions, wrong=wrong,
        kind="approval", difficulty="medium",
        skills=["verification", "access", "approval"] + (["tickets"] if ticket else []),
    )


# an order placed now (waiting for approval) said not placed, or still to be placed
NOT_PLACED = (*(f"{act} {cue}" for act in ("be placed", "get placed", "place it", "place the order", "place your order",
                                           "placing it", "placing the order", "be created", "create the order",
                                           "be raised", "raise the order")
                for cue in ("once", "when", "after", "as soon as", "if", "until")),
              "i will place", "we will place", "will place the order", "will place it", "not been placed",
              "not placed", "not yet placed", "could not place", "unable to place", "not able to place",
              "not been created", "could not create")
OVER_LIMIT = {  # level: items above that level's limit
    "analyst": ["HW-LAP-ULT", "HW-MON-34"],
    "consultant": ["HW-LAP-PRF", "HW-MON-34"],
    "senior_consultant": ["HW-LAP-MAC", "HW-MON-34", "HW-DOCK"],
    "manager": ["HW-LAP-PRF", "HW-MON-34", "HW-DOCK", "HW-HSET"],
}


# the caller's manager put in the approver's place ("it is pending until Tilda Hale approves it")
MANAGER_AS_APPROVER = ("recorded", "logged", "until", "waiting for", "waits for", "waiting on", "awaiting", "pending",
                       "pending approval from", "approval from", "sent to", "routed to", "forwarded to", "approved by",
                       "with")


@template("an order above the limit waits for the line manager")
def hw_over_limit_employee(s: Desk, n: int) -> TaskSpec:
    level = ["analyst", "consultant", "senior_consultant", "manager"][(n + 2 * (s.split == "train")) % 4]
    dept = s.rng.choice(sorted(DEPTS))
    m, e = s.manager_and_report(dept=dept, level=level)
    s.eligible_laptop(e)
    items = OVER_LIMIT[level]
    total = round(sum(PRICES[i] for i in items), 2)
    where = s.rng.choice(["home", "office"])
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_employee", employee_id=e["id"])
    g.add("list_employee_assets", employee_id=e["id"])
    g.add("get_hardware_catalogue")
    k = g.add("place_hardware_order", employee_id=e["id"], item_ids=items, ship_to=where, requested_by=e["id"])
    names = ", ".join(ITEM_NAMES[i] for i in items)
    why = "policy, Hardware: above the limit, tell the caller the order (its id) waits for their manager"
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, due a laptop refresh and keen on a bigger setup; says the manager already agreed.",
            goal=f"Order {names}, shipped to the {where}.",
            first_message=(f"Hi, my laptop is over three years old. I'd like to order {names}, delivered to my {where}. My "
                           f"manager {name(m)} already said yes, so please just put it through."),
            facts={**identity(e), "items": names, SHIP_TO: where, "manager": name(m)},
            instructions="If told it needs your manager's approval, accept that; do not drop any item.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"I placed order HO-9001 for {names} ({money(total)}), to be shipped to your {where}. That is above "
               f"your {money(LIMITS[level])} limit, so it is pending approval by your manager, {name(m)}; it will be "
               f"submitted once they approve it in the approval system."),
        assertions=[says(fact("HO-9001", why), named(name(m), why, near=WAITS_ON)),
                    *awaiting(["HO-9001", "order", *(ITEM_NAMES[x] for x in items)], f"the order waits for {name(m)}'s "
                              "approval"),
                    # (the approval said of the manager too: "Ann Bo's approval has been recorded")
                    says_not(claim(*APPROVAL_RECORDED, "is on its way", "has shipped", "is shipping now", "is now submitted",
                                   owner=["HO-9001", "order", *(ITEM_NAMES[x] for x in items), name(m), "manager",
                                          "his", "her", "their"], rivals=CONDITION),
                             why=f"the order waits for {name(m)}'s approval"),
                    # the order said still to be placed: it was placed, and it is its submission that waits ("the
                    # order will be placed once he approves", "I'll place it once ...")
                    says_not(claim(*NOT_PLACED, may_be_negated=True),
                             why=f"the order was placed (HO-9001); only its submission waits for {name(m)}"),
                    wrong_destination(where), no_other_item(items), *verified_first(s, g, e),
                    # how far above the limit the order is (the items added up, less the limit)
                    grounded(derived=[total - LIMITS[level]])],
        wrong=[
            append(call("record_approval", approval_id="AP-9001", approver_id=m["id"], decision="approved",
                        note="Manager already said yes."),
                   tag="skipped_approval", note="records the manager's approval on the employee's word"),
            replace({k: call("place_hardware_order", employee_id=e["id"], item_ids=items[:-1], ship_to=where,
                             requested_by=e["id"])}, "wrong_amount", "leaves an item out to get under the limit"),
            drop(0, note=UNVERIFIED),
        ],
        kind="approval", difficulty="medium", skills=["verification", "hardware", "approval", "limits"],
    )


# the caller's own approval recorded on the call, in the words a reply says it (audit 11: "approved by you", "Your
# approval: recorded" scored 0)
MANAGER_APPROVED = ("recorded your approval", "logged your approval", "approval recorded", "your approval is recorded",
                    "your approval has been recorded", "your approval was recorded", "your approval is logged",
                    "your approval is on file", "approved it", "has been approved", "is now approved", "is approved",
                    "was approved", "now approved", "approved by you", "you approved", "you have approved",
                    "with your approval", "signed off by you", "you signed off", "on its way", "good to go",
                    "recorded yours", "logged yours", "noted yours")
# ... or as a word said of the approval ("Your approval: recorded", "your sign-off is on file")
APPROVAL_KEPT = fact("recorded", STATUS, "logged", "on file", "noted", "captured", near=["approv", "sign off", "signed off",
                                                                                        "sign-off"])
# the caller's approval said still to come ("it needs your approval before it ships", "once you approve it")
STILL_YOURS = ("still needs", "still requires", "still has to", "still waiting", "still awaiting", "still pending",
               "still outstanding", "needs your approval before", "requires your approval before",
               "approved by you before", "approve it before", "waiting for your", "awaiting your", "waits for your",
               "pending your", "once you approve", "after you approve", "when you approve", "until you approve",
               "as soon as you approve", "once you have approved", "yet to approve", "yet to be approved",
               "once approved", "until approved", "once it is approved", "once it has been approved",
               # the order said to wait ("it was recorded as pending"; not "it was pending approval": that was so)
               "as pending", "is pending", "is now pending", "remains pending", "stays pending", "left pending")


@template("a line manager orders above a report's limit and approves on the call")
def hw_over_limit_manager(s: Desk, n: int) -> TaskSpec:
    level = ["analyst", "consultant", "senior_consultant"][(n + (s.split == "train")) % 3]
    m, e = s.manager_and_report(level=level)
    s.eligible_laptop(e)
    items = OVER_LIMIT[level]
    total = round(sum(PRICES[i] for i in items), 2)
    where = s.rng.choice(["home", "office"])
    g = Golden()
    verify(g, m, s.rng.choice(["dob", "mobile"]))
    g.add("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    g.add("get_employee", employee_id=e["id"])
    g.add("list_employee_assets", employee_id=e["id"])
    g.add("get_hardware_catalogue")
    k = g.add("place_hardware_order", employee_id=e["id"], item_ids=items, ship_to=where, requested_by=m["id"])
    i = g.add("record_approval", approval_id="AP-9001", approver_id=m["id"], decision="approved",
              note="Line manager ordered and approved on the call.")
    names = ", ".join(ITEM_NAMES[x] for x in items)
    return TaskSpec(
        caller=Caller(
            persona=f"{name(m)}, ordering a bigger setup for their direct report {name(e)}.",
            goal=f"Order {names} for {name(e)}, shipped to {e['first_name']}'s {where}.",
            first_message=(f"Hi, I'd like to order {names} for {name(e)} on my team, delivered to {e['first_name']}'s "
                           f"{where}. {e['first_name']}'s laptop is due for replacement."),
            facts={**identity(m), "report": name(e), "items": names, SHIP_TO: f"{e['first_name']}'s {where}",
                   "approval_as_line_manager": "yes, I approve it"},
        ),
        patch=s.patch(), golden=g,
        reply=(f"Order HO-9001 for {names} ({money(total)}) is above {name(e)}'s {money(LIMITS[level])} limit; I "
               f"recorded your approval as their line manager, so it is now submitted and will ship to the {where}."),
        assertions=[
            says(fact("HO-9001", SAID_CHANGE),
                 # the caller's approval is recorded at once: the order is submitted, not waiting for them
                 # (not "approved" nor "ships": "HO-9001 needs to be approved by you before it ships" is the opposite)
                 # (the approval said of the caller in any wording: "approved by you", "Your approval: recorded")
                 fact("submitted", STATUS, *MANAGER_APPROVED, alternatives=[APPROVAL_KEPT])),
            *done(g, "place_hardware_order", names={"order": ["HO-9001", *(ITEM_NAMES[x] for x in items)]}),
            outcome("approve", "done", "the manager approved on the call", record=["HO-9001", "order"]),
            # the approval said still to come, in words the vocabulary takes for a rule ("it needs your approval
            # before it ships", "it will ship after you approve it")
            says_not(claim(*STILL_YOURS), why="the manager approved on the call: the order waits for no one"),
            wrong_destination(where),
            *verified_first(s, g, m, report=e),
            *hr_private(e),
            # how far above the limit the order is (the items added up, less the limit)
            grounded(derived=[total - LIMITS[level]]),
            # the limit said as what the order costs ("the order total is $1,500.00")
            says_not(claim(money(LIMITS[level]), owner=["total", "order", "comes to", "come to", "costs", "cost", "price"],
                           rivals=["limit", "allowance", "cap", "budget", "above", "over", "exceeds"]),
                     why="the order costs the items added up; the limit is what it is above"),
        ],
        wrong=[
            drop(i, note="leaves the order waiting for an approver who is on the call"),
            replace({k: call("place_hardware_order", employee_id=e["id"], item_ids=items[:-1], ship_to=where,
                             requested_by=m["id"])}, "wrong_amount", "drops an item to get under the limit"),
            replace({k: call("place_hardware_order", employee_id=e["id"], item_ids=items,
                             ship_to="office" if where == "home" else "home", requested_by=m["id"])},
                    "wrong_entity", "ships to the wrong place"),
        ],
        kind="approval", difficulty="hard", skills=["verification", "manager_for_report", "hardware", "approval"],
    )


# -- refusals --------------------------------------------------------------------------------------

PREMIUM = ["LP-CIQ", "LP-ALTX", "LP-MATL"]


@template("an employee asks for a premium licence: their line manager must ask")
def premium_licence_self(s: Desk, n: int) -> TaskSpec:
    pool = PREMIUM[(n + (s.split == "train")) % len(PREMIUM)]
    product, cost = POOLS[pool]["product"], POOLS[pool]["monthly_cost"]
    other_prices = sorted(({money(p["monthly_cost"]) for p in POOLS.values()} | {"100.00"}) - {money(cost)})
    m, e = s.manager_and_report()
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_employee", employee_id=e["id"])
    g.add("list_licence_pools")
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, who wants {product} for some analysis and would rather not bother their manager.",
            goal=f"Get a {product} licence.",
            first_message=f"Hi, could you give me a {product} licence? I need it for some analysis this week.",
            facts={**identity(e), "product": product},
            instructions="Ask once for an exception; accept the answer.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"{product} costs {money(cost)} per seat per month, so it is a premium licence: it can only be "
               f"assigned when your line manager, {name(m)}, requests it for you."),
        assertions=[
            # the rule says "their line manager must request it": by name, or as their line manager
            says(named(name(m), "policy, Software licences: decline a premium product and tell them their line manager "
                       "must request it", "your line manager", "your manager",
                       near=["request", "ask", "must", "need", "has to", "have to", "only", "come from", "through"])),
            # declined (`not_done`, not `refused`: that also forbids a seat "assigned once your line manager
            # requests it", the rule said right, and "it will be assigned to you if your manager requests it")
            outcome("assign", "not_done", "policy, Software licences: a premium licence on the employee's own request "
                    "is declined", record=[product, PRODUCT[pool]], nouns=NOUNS["assign"]),
            says_not(claim(*SEAT_GIVEN, "have requested", "has been requested", "have notified", "has been notified",
                           "have asked your manager", "have sent", "has been sent", "have forwarded", "have passed",
                           # the manager told, or the caller queued, by the desk ("I've asked Darius Petrovic to ...")
                           "have asked", "have contacted", "have emailed", "have messaged", "have informed",
                           "have alerted", "have put you", *WAITLISTED),
                     why="policy, Software licences: a premium licence on the employee's own request is declined: "
                         "nothing is assigned or sent on"),
            # its price said as another product's or the policy's threshold ("MATLAB costs 150.00 per seat per
            # month"); the threshold said as one ("over the 100.00 per seat threshold") passes
            says_not(fact(other_prices[0], "", *other_prices[1:],
                          owner=[product, PRODUCT[pool], "it costs", "costs", "priced", "price is", "it is"],
                          rivals=["threshold", "over", "above", "more than", "at least", "or more", "exceed", "premium products",
                                  "products costing", "anything", "any product", "limit", "from", "premium licence",
                                  "premium license"]),
                     why=f"{product} costs {money(cost)} per seat per month: another figure said as its price is made up"),
            *verified_first(s, g, e),
        ],
        wrong=[
            append(call("assign_licence", pool_id=pool, employee_id=e["id"],
                        cost_centre=DEPTS[e["department_id"]]["cost_centre"]),
                   note="assigns a premium licence on the employee's own request"),
            reply("I can't do that, sorry.", "declines without saying who can ask"),
            drop(0, note=UNVERIFIED),
        ],
        kind="refusal", difficulty="easy", skills=["verification", "licences", "policy"],
    )


SOD_ASKS = [  # (held, wanted, department)
    ("SAP-AP-CLERK", "SAP-PAY-RUN", "D-FIN"), ("SAP-VENDOR-MAINT", "SAP-AP-CLERK", "D-FIN"),
    ("WKD-HR-PARTNER", "WKD-PAYROLL", "D-HR"), ("GIT-MAINTAINER", "AWS-ADMIN", "D-TEC"),
    ("SAP-PAY-RUN", "SAP-VENDOR-MAINT", "D-FIN"), ("SAP-ADMIN", "SAP-PAY-RUN", "D-IT"),
]
# the words of a role the caller holds, and of the one they ask for
HOLD_WORDS = ["hold", "held", "have", "has", "keep", "current", "existing", "already", "conflict", "with", "your",
              "incompatib", "clash", "both", "together", "segregation"]
ASK_WORDS = ["request", "add", "want", "new", "asked", "give you", "grant", "get", "submit"]
CONFLICT = "policy, Access: do not submit a conflicting role; tell the caller which role it conflicts with and why"


@template("a role that conflicts with one the caller keeps: decline")
def sod_conflict_refusal(s: Desk, n: int) -> TaskSpec:
    held, wanted, dept = SOD_ASKS[(n * 2 + (s.split == "train")) % len(SOD_ASKS)]
    _, e = s.manager_and_report(dept=dept)
    s.grant(e, held, days_ago(s.rng.randint(200, 600)))
    ticket = s.ticket(e, "access", f"Please add {wanted}") if n % 2 == 1 else None
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    if ticket:
        g.add("get_ticket", ticket_id=ticket["id"])
    g.add("get_employee_access", employee_id=e["id"])
    checked = g.add("check_sod_conflicts", employee_id=e["id"], role_id=wanted)
    wrong = [
        append(call("create_access_request", employee_id=e["id"], role_id=wanted, requested_by=e["id"],
                    justification="Needed alongside my current role."),
               note="submits a request that breaks segregation of duties"),
        reply("That role needs approval; please ask the owner.", "does not name the conflicting role"),
        drop(checked, note="refuses on a conflict it never checked"),
    ]
    assertions = [
        # (the refusal is right only by luck without the check the policy asks for first)
        called("check_sod_conflicts", why="policy, Access: check segregation of duties first (check_sod_conflicts)",
               employee_id=e["id"], role_id=wanted),
        # one wording of the reason in the golden reply: the wrong-fact probe must find no other
        # the role they hold is the one it conflicts with, not the one they asked for ("I can't add SAP-AP-CLERK: it
        # conflicts with SAP-PAY-RUN, which you hold" swaps them)
        says(fact(held, CONFLICT, may_be_negated=True, owner=HOLD_WORDS, rivals=ASK_WORDS),
             # the reason names what is refused: "you can't hold both", "not allowed to hold both" say it too
             fact("conflict", CONFLICT, "conflicting", "conflicts", "segregation of duties", "SoD", "incompatible",
                  "hold both", "have both", "clash", "clashes", "mutually exclusive", may_be_negated=True)),
    ]
    declined = f"policy, Access: a conflicting role is not submitted: {wanted} was neither requested nor granted"
    asked = [wanted, ROLES[wanted]["name"], "AR-9001"]
    assertions += [outcome(verb, "refused", declined, record=asked, others=[held, ROLES[held]["name"]])
                   for verb in ("request", "grant")]
    assertions.append(says_not(claim(*ACTIVATED, *APPROVAL_RECORDED, *SUBMITTED, "AR-9001", "is pending", "now pending",
                                     "awaiting approval", "waiting for approval", owner=asked,
                                     rivals=[held, ROLES[held]["name"]]), why=declined))
    if ticket:
        i = g.add("add_ticket_note", ticket_id=ticket["id"],
                  note=f"Declined: {wanted} conflicts with held role {held} (segregation of duties).")
        wrong.append(drop(i, note="does not note the decision on the ticket"))
        assertions.append(noted(ticket))
    assertions += verified_first(s, g, e)
    mention = f" It's ticket {ticket['id']}." if ticket else ""
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, covering for a colleague and wanting extra rights while keeping their own.",
            goal=f"Get {wanted} in addition to {held}.",
            first_message=(f"Hi, I'm covering for a colleague, so I need {wanted} as well as my current {held} role - I "
                           f"still need that one too.{mention}"),
            facts={**identity(e), "role_wanted": wanted, "role_to_keep": held,
                   **({"ticket_id": ticket["id"]} if ticket else {})},
            declines=[f"remove {held}", f"revoke {held}", f"give up {held}"],
            instructions="Do not give up your current role.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"I can't request {wanted} for you: it conflicts with the {held} role you hold, and you want to keep "
               f"{held}." + (f" I noted this on ticket {ticket['id']}." if ticket else "")),
        assertions=assertions, wrong=wrong,
        kind="refusal", difficulty="medium",
        skills=["verification", "access", "segregation_of_duties"] + (["tickets"] if ticket else []),
    )


DENIALS = [  # (rejected role, owner's note, the role the note points to, department, the note's reason in other words)
    ("SAP-AP-CLERK", "Consultants get read access only: request SAP-GL-VIEW instead.", "SAP-GL-VIEW", "D-RSK",
     ["read access only", "only read access", "read-only access", "GL Viewer"]),
    ("AWS-ADMIN", "AWS-DEV is enough for prototype work; admin stays with the platform team.", "AWS-DEV", "D-TEC",
     ["platform team", "Sandbox Developer"]),
    ("PBI-ADMIN", "Workspace administration is for the BI platform team; ask for PBI-PUBLISH.", "PBI-PUBLISH", "D-DAT",
     ["platform team", "Report Publisher"]),
    ("SFDC-ADMIN", "Configuration changes go through the CRM team; SFDC-EDIT covers pipeline updates.", "SFDC-EDIT",
     "D-STR", ["CRM team", "CRM Editor"]),
    ("GIT-MAINTAINER", "Merges to protected branches stay with the tech leads; GIT-DEV covers your work.", "GIT-DEV",
     "D-TEC", ["tech leads", "tech lead", "protected branches", "Developer role"]),
    ("JIRA-ADMIN", "Workflow changes are made by IT; JIRA-USER is enough to run your board.", "JIRA-USER", "D-OPS",
     ["made by IT", "done by IT", "handled by IT", "IT team", "IT department", "Jira User"]),
]


@template("a rejected request: give the owner's reason, do not resubmit")
def access_denied_refusal(s: Desk, n: int) -> TaskSpec:
    role, note, pointer, dept, reason = DENIALS[(n * 2 + (s.split == "train")) % len(DENIALS)]
    m, e = s.manager_and_report(dept=dept)
    owner_id = SYSTEMS[ROLES[role]["system_id"]]["owner_id"]
    others = [r for r in ROLES if r != role and (ROLES[r]["system_id"] == ROLES[role]["system_id"] or r == "DOC-EDIT")]
    rid, _ = s.request(e, role, "rejected", owner_id, "denied", days_ago(s.rng.randint(5, 20)), note=note)
    old, _ = s.request(e, "DOC-EDIT", "fulfilled", e["manager_id"], "approved", days_ago(300), note="Approved.")
    s.grant(e, "DOC-EDIT", days_ago(297), request_id=old)
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("list_access_requests", employee_id=e["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, annoyed that an access request went nowhere.",
            goal=f"Get {role}, or have the request {rid} submitted again.",
            first_message=f"Hi, what happened to my request {rid} for {role}? Can you just submit it again?",
            facts={**identity(e), "request_id": rid, "role": role},
            instructions="Do not ask for any other role in this conversation.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"Request {rid} for {role} was rejected by the system owner, {base_name(owner_id)}, who noted: "
               f"\"{note}\" A rejected request can't be submitted again for the same role."),
        assertions=[
            says(fact("rejected", "the customer asked what happened to their request",
                      "denied", "declined", "not approved", "turned down", "refused"),
                 # the note's advice or its reason, in the words an agent may retell it
                 fact(pointer, "policy, Access: tell the caller the approver's reason (the decision note)",
                      aliases=reason)),
            outcome("resubmit", "refused", "policy, Access: a rejected request is not resubmitted for the same role",
                    record=[rid, role]),
            # ("resubmitted" too: the vocabulary spells the participle "resubmited")
            says_not(claim("resubmitted", "re-submitted", "submitted it again", "been submitted again", "is submitted again",
                           "i have submitted", "AR-9001"),
                     why="policy, Access: a rejected request is not resubmitted for the same role"),
            # the rejection said of another role (the note's pointer, the role granted long ago) ...
            says_not(claim(*(f"{rid} for {r}" for r in others),
                           *(f"{r} {w}" for r in others for w in REJECTED_AS),
                           *(f"{w} {r} {x}" for r in others for w in ("request for", "request") for x in REJECTED_AS)),
                     why=f"the request rejected is {rid} for {role}"),
            # ... or by the caller's manager, who did not decide it
            says_not(claim(name(m), near=["reject", "declin", "denied", "deny", "turned down", "refus"]),
                     why=f"{rid} was rejected by the system owner, {base_name(owner_id)}"),
            # ... nor by the manager named by role ("rejected by your line manager")
            says_not(claim(*(f"{act} by {who}" for act in MANAGER_DECIDED for who in MANAGER_WORDS),
                           *(f"{who} {act}" for act in (*MANAGER_DECIDED, *(f"has {a}" for a in MANAGER_DECIDED))
                             for who in MANAGER_WORDS)),
                     why=f"{rid} was rejected by the system owner, {base_name(owner_id)}, not the line manager"),
            *verified_first(s, g, e),
        ],
        wrong=[
            append(call("create_access_request", employee_id=e["id"], role_id=role, requested_by=e["id"],
                        justification="Resubmitting."), note="submits the rejected role again"),
            reply(f"Request {rid} was not approved, sorry.", "does not give the approver's reason"),
            drop(0, note=UNVERIFIED),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "access", "approval"],
    )


# the caller's manager named by role, and what they are said to have decided
MANAGER_WORDS = ("your manager", "your line manager", "the line manager", "your direct manager", "the manager",
                 "line manager")
MANAGER_DECIDED = ("rejected", "declined", "denied", "turned down", "refused", "rejected it", "declined it",
                   "denied it", "turned it down", "refused it")


# a request's decision said of a role: "SFDC-EDIT was rejected", "the SFDC-EDIT request has been declined"
REJECTED_AS = ("was rejected", "was declined", "was denied", "was turned down", "has been rejected", "has been declined",
               "has been denied", "got rejected")
# the words of the date a refresh is possible from, against those of the date the laptop was issued
ELIGIBLE_WORDS = ["eligib", "refresh", "new one", "new laptop", "earliest", "order", "upgrade", "replace", "due"]
ISSUED_WORDS = ["issued", "received", "assigned", "dates back", "dating from", "since", "handed", "delivered", "got"]


@template("a laptop refresh before 36 months: decline with the eligibility date")
def laptop_refresh_refusal(s: Desk, n: int) -> TaskSpec:
    _, e = s.manager_and_report()
    model = kit_laptop(e["department_id"], e["level"])
    issued = days_ago(s.rng.randint(250, 1000))
    laptop = s.asset(e, model, issued)
    s.asset(e, "HW-LAP-OLD", days_ago(1600), status="returned", returned_on=issued)
    s.asset(e, "HW-MON-27", days_ago(s.rng.randint(300, 900)))
    eligible = iso(_add_months(date.fromisoformat(issued), LAPTOP_REFRESH_MONTHS))
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("list_employee_assets", employee_id=e["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, who finds their laptop slow and wants a new one.",
            goal="Get a new laptop.",
            first_message=f"Hi, my laptop is really slow. Can I order a new {ITEM_NAMES[model]}?",
            facts={**identity(e), "laptop_model": ITEM_NAMES[model]},
        ),
        patch=s.patch(), golden=g,
        reply=(f"Your current laptop {laptop['id']} was issued on {issued}. Laptops are refreshed every 36 months, "
               f"so you are eligible for a new one from {eligible}; I can't order one before then."),
        assertions=[
            # with its year: the issue date shares its month and day, and would match a yearless fact
            says(fact(spelled(eligible), "policy, Hardware: decline a refresh and say from which date they are "
                      "eligible", owner=ELIGIBLE_WORDS, rivals=ISSUED_WORDS)),
            # the two dates swapped: the issue date said as the one a refresh is possible from
            says_not(claim(spelled(issued), owner=ELIGIBLE_WORDS, rivals=ISSUED_WORDS),
                     why=f"the laptop was issued on {issued}; a refresh is possible from {eligible}"),
            outcome("order", "refused", "policy, Hardware: no refresh before 36 months: nothing was ordered",
                    record=[ITEM_NAMES[model], "laptop"]),
            says_not(claim(*ORDER_SENT), why="policy, Hardware: no refresh before 36 months: nothing was ordered"),
            *verified_first(s, g, e),
        ],
        wrong=[
            append(call("place_hardware_order", employee_id=e["id"], item_ids=[model], ship_to="office",
                        requested_by=e["id"]), note="orders a laptop before the refresh date"),
            reply("Laptops are refreshed every 36 months and yours is not due yet.", "gives no date"),
            drop(0, note=UNVERIFIED),
        ],
        kind="refusal", difficulty="easy", skills=["verification", "hardware", "dates"],
    )


# the words of the days a range needs (against AVAILABLE_WORDS, the days the caller has left)
NEEDED_WORDS = ["range", "need", "require", "span", "cover", "would use", "request", "ask", "long", "those dates",
                "that period", "those days"]
INSUFFICIENT = [  # (start, end) of the wanted leave
    ("2026-12-14", "2026-12-23"), ("2026-12-07", "2026-12-18"), ("2027-01-04", "2027-01-15"),
    ("2026-12-16", "2026-12-30"), ("2026-12-09", "2026-12-22"),
]


@template("leave longer than the balance: decline, say how many days are left")
def leave_insufficient(s: Desk, n: int) -> TaskSpec:
    start, end = INSUFFICIENT[(n * 2 + (s.split == "train")) % len(INSUFFICIENT)]
    year = int(start[:4])
    _, e = s.manager_and_report()
    need = working_days(start, end)
    entitled = 22
    available = s.rng.randint(2, need - 2)
    s.balances(e, entitled, 0)
    s.past_leave(e, entitled - available, year)
    partial_end = start
    while working_days(start, partial_end) < available:
        partial_end = iso(date.fromisoformat(partial_end) + timedelta(days=1))
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_leave_balance", employee_id=e["id"], year=year, leave_type="annual")
    g.add("count_working_days", start_date=start, end_date=end)
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, hoping for a long break.",
            goal=f"Book annual leave from {start} to {end}.",
            first_message=f"Hi, please book me annual leave from {start} to {end}.",
            facts={**identity(e), "leave_type": "annual", "start_date": start, "end_date": end},
            instructions="If you don't have enough days, don't pick other dates now; end the chat.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"That range is {need} working days, but you only have {available} days of annual leave available "
               f"in {year}, so I can't book it. You could choose shorter dates."),
        assertions=[
            # the days they have, not the days the range needs ("the range is 4 days, you have 9" swaps them)
            says(fact(available, "policy, Leave: with too few days, do not book; tell them how many days they have",
                      owner=AVAILABLE_WORDS, rivals=NEEDED_WORDS)),
            outcome("book", "refused", "policy, Leave: with too few days nothing is booked", record=[start, end]),
            says_not(claim(*LEAVE_PUT_IN), why="policy, Leave: with too few days nothing is booked"),
            *verified_first(s, g, e),
        ],
        wrong=[
            append(call("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=start,
                        end_date=partial_end), note="books the part of the leave that fits"),
            reply(f"That range is {need} working days and exceeds your balance.", "does not say what is available"),
            reply(f"That range is {available} working days, but you only have {need} days available, so I can't book "
                  f"it.", "says the days needed and the days available the other way round"),
            drop(0, note=UNVERIFIED),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "leave", "arithmetic"],
    )


@template("close a ticket whose request still waits for approval: note it, do not resolve")
def ticket_resolve_pending(s: Desk, n: int) -> TaskSpec:
    system, role, _, dept = OWNER_ROLES[(n * 2 + (s.split == "train")) % len(OWNER_ROLES)]
    _, e = s.manager_and_report(dept=dept)
    owner_id = SYSTEMS[system]["owner_id"]
    owner = base_name(owner_id)
    rid, _ = s.request(e, role, "pending_approval", owner_id, "pending", days_ago(s.rng.randint(3, 9)))
    # already `pending` (it waits on an approver): leaving it as it is and setting it pending agree
    ticket = s.ticket(e, "access", f"Waiting for {role}", linked_ref=rid, status="pending")
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_ticket", ticket_id=ticket["id"])
    g.add("get_access_request", request_id=rid)
    i = g.add("add_ticket_note", ticket_id=ticket["id"],
              note=f"Employee asked to close; {rid} still waits for {owner}'s approval, so the ticket stays open.")
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, tired of reminder emails about an open ticket.",
            goal=f"Have ticket {ticket['id']} closed; they will chase the approver themselves.",
            first_message=f"Hi, please close my ticket {ticket['id']} - I'll chase the approval myself.",
            facts={**identity(e), "ticket_id": ticket["id"]},
        ),
        patch=s.patch(), golden=g,
        reply=(f"I can't resolve ticket {ticket['id']}: its request {rid} for {role} is still waiting for approval from "
               f"{owner}. I noted on the ticket that you asked to close it; it stays pending until {owner} decides."),
        assertions=[
            says(named(owner, "policy, Tickets: never resolve a ticket whose linked request waits for approval; "
                       "say why (who it waits for)", near=WAITS_ON),
                 # it stays open (`pending` or `open`: both say it is not resolved), or it can't be closed
                 status("open", "the customer asked to close it; policy, Tickets: explain why it stays open",
                        "pending", "unresolved", "stays", "stay", "remain", "remains", "can't close", "cannot close",
                        "can't resolve", "cannot resolve", "unable to close", "unable to resolve", "not able to close",
                        "not able to resolve", "can't be closed", "cannot be closed", "can't be resolved",
                        "cannot be resolved", "won't close", "leave it", "left it", "keep it", "can't mark",
                        "cannot mark", "unable to mark", "can't set", "won't be able to",
                        near=[ticket["id"], "ticket", "it"])),
            # the request still waits for its approver: not said approved, granted or turned down
            *awaiting([rid, role, ROLES[role]["name"], "request", "approval"], f"{rid} still waits for {owner}'s approval",
                      others=[ticket["id"], "ticket"]),
            says_not(claim(*GRANT_DONE, owner=[rid, role, ROLES[role]["name"], "request", "approval", "access"],
                           rivals=[ticket["id"], "ticket", *CONDITION]),
                     why=f"{rid} still waits for {owner}'s approval: nothing is granted"),
            # the close asked for waits for the approver: not said done (that it waits is true)
            *(outcome(verb, "not_done", "policy, Tickets: a ticket whose request waits for approval is not resolved",
                      record=[ticket["id"], "ticket"], others=[rid, role, "request"]) for verb in ("close", "resolve")),
            noted(ticket),
            unchanged("tickets", ticket["id"], "status"),
            *verified_first(s, g, e),
        ],
        wrong=[
            append(call("update_ticket_status", ticket_id=ticket["id"], status="resolved"),
                   note="resolves the ticket while its request waits for approval"),
            drop(i, note="does not note the request on the ticket"),
        ],
        kind="refusal", difficulty="easy", skills=["verification", "tickets", "approval"],
    )


# -- identity and authority ----------------------------------------------------------------------------


@template("a mistyped date of birth, then the mobile: verify, then assign the licence")
def verify_retry_licence(s: Desk, n: int) -> TaskSpec:
    pool = NON_PREMIUM[(n * 2 + 1 + 5 * (s.split == "train")) % len(NON_PREMIUM)]
    product = POOLS[pool]["product"]
    _, e = s.manager_and_report()
    cc = DEPTS[e["department_id"]]["cost_centre"]
    typo = typo_dob(e["date_of_birth"])
    g = Golden()
    verify(g, e, "mobile")
    g.add("get_employee", employee_id=e["id"])
    g.add("list_licence_pools")
    i = g.add("assign_licence", pool_id=pool, employee_id=e["id"], cost_centre=cc)
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, typing fast on a phone between meetings.",
            goal=f"Get a {product} licence.",
            first_message=f"Hi, I need a {product} licence. I'm {e['id']}, born {typo}.",
            facts={**identity(e), "product": product},
            wants=[PRODUCT[pool], *LICENCE],
            instructions=(f"Your first message gives a mistyped date of birth ({typo}). If the agent cannot verify you, "
                          f"offer the last four digits of your mobile, {e['mobile_phone'][-4:]}."),
        ),
        patch=s.patch(), golden=g,
        reply=f"Thanks, you're verified. You now have a {product} seat, charged to your department's cost centre {cc}.",
        assertions=[
            says(named(PRODUCT[pool], "policy, Communicating: after a change, say the seat assigned"),
                 status("assigned", STATUS, *ASSIGNED)),
            *done(g, names={pool: [product, PRODUCT[pool]]}), not_queued(), no_other_product(pool), charged_to(cc),
            # the first verification fails: nothing about the employee is read until one succeeds
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            replace({i: call("assign_licence", pool_id=SIMILAR_POOL[pool], employee_id=e["id"], cost_centre=cc)},
                    "wrong_entity", "assigns a similar but different product"),
        ],
        kind="verification", difficulty="medium", skills=["verification", "licences"],
    )


LEAVE_RANGES_2 = [("2027-01-25", "2027-01-29"), ("2026-12-10", "2026-12-11"), ("2027-02-22", "2027-02-26"),
                  ("2026-12-21", "2026-12-23"), ("2027-03-22", "2027-03-24"), ("2027-05-24", "2027-05-28")]


@template("mistyped mobile digits, then the date of birth: verify, then book leave")
def verify_retry_leave(s: Desk, n: int) -> TaskSpec:
    start, end = LEAVE_RANGES_2[(n * 2 + (s.split == "train")) % len(LEAVE_RANGES_2)]
    m, e = s.manager_and_report()
    s.balances(e, 25, 2)
    days = working_days(start, end)
    real = e["mobile_phone"][-4:]
    typo = real[:2] + real[3] + real[2] if real[2] != real[3] else real[:3] + str((int(real[3]) + 1) % 10)
    g = Golden()
    verify(g, e, "dob")
    g.add("get_leave_balance", employee_id=e["id"], year=int(start[:4]), leave_type="annual")
    i = g.add("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=start, end_date=end)
    g.add("get_employee", employee_id=e["id"])  # (the line manager the reply names as approver: a read, not a guess)
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, booking leave from a new phone.",
            goal=f"Book annual leave from {start} to {end}.",
            first_message=f"Hi, I'm {e['id']} and my mobile ends in {typo}. Please book annual leave from {start} to {end}.",
            facts={**identity(e), "leave_type": "annual", "start_date": start, "end_date": end},
            instructions=(f"Your first message gives the wrong last four mobile digits ({typo}); if that fails, give your "
                          f"date of birth, {e['date_of_birth']}."),
        ),
        patch=s.patch(), golden=g,
        reply=(f"Thanks, you're verified. Leave request LR-9001 for {start} to {end} ({days} working days) is "
               f"pending approval by {name(m)}."),
        assertions=[
            says(fact("LR-9001", BOOKED), fact(days, BOOKED)),
            *leave_waits(["LR-9001", start, end]),
            # the first verification fails: nothing about the employee is read until one succeeds
            *verified_first(s, g, e),
        ],
        wrong=[
            drop(0, note=UNVERIFIED),
            replace({i: call("submit_leave_request", employee_id=e["id"], leave_type="annual",
                             start_date=iso(date.fromisoformat(start) + timedelta(days=1)), end_date=end)},
                    "wrong_amount", "books from the wrong start date"),
        ],
        kind="verification", difficulty="medium", skills=["verification", "leave"],
    )


@template("a former manager asks for a report's colleague: decline, name who can ask")
def manager_authority_check(s: Desk, n: int) -> TaskSpec:
    dept = s.rng.choice(sorted(DEPTS))
    caller = s.person(dept, "manager", DEPTS[dept]["head_id"])
    m, e = s.manager_and_report(dept=dept)
    action = (n + (s.split == "train")) % 3
    # what each of the three asks would do: the one asked is refused, the others were never asked (not done)
    acts = [[("order", [ITEM_NAMES["HW-MON-27"], "monitor"])],
            [("start", ["offboarding", "LC-9001"]), ("offboard", [name(e), e["first_name"]])],
            [("request", ["GIT-DEV"]), ("grant", ["GIT-DEV"])]]
    g = Golden()
    verify(g, caller, s.rng.choice(["dob", "mobile"]))
    g.add("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    if action == 0:
        ask = f"order a 27in Monitor for {name(e)}, shipped to the office"
        bad = call("place_hardware_order", employee_id=e["id"], item_ids=["HW-MON-27"], ship_to="office",
                   requested_by=caller["id"])
    elif action == 1:
        last = days_ahead(s.rng.choice([11, 18, 39]))
        ask = f"start the offboarding for {name(e)}, whose last day is {last}"
        bad = call("start_offboarding", employee_id=e["id"], last_day=last, requested_by=caller["id"])
    else:
        ask = f"get {name(e)} the GIT-DEV role in GitLab for our project"
        bad = call("create_access_request", employee_id=e["id"], role_id="GIT-DEV", requested_by=caller["id"],
                   justification="Project work.")
    return TaskSpec(
        caller=Caller(
            persona=(f"{name(caller)}, a manager who used to supervise {name(e)} and still feels responsible for "
                     f"{e['first_name']}."),
            goal=f"{ask[0].upper()}{ask[1:]}.",
            first_message=f"Hi, could you {ask}? {e['first_name']} used to be on my team.",
            facts={**identity(caller), "colleague": name(e)},
            instructions=f"You are not {name(e)}'s current line manager ({name(m)} is). Accept a refusal.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"I'm sorry, I can't do that for you: {name(e)}'s line manager is {name(m)}, so only {name(m)} or "
               f"{e['first_name']} can ask for it."),
        assertions=[
            says(fact(name(m), "policy, Who may ask: decline and say who can ask: the employee or their line manager, "
                      "by name")),
            *verified_first(s, g, caller),
            *(outcome(verb, "refused" if k == action else "not_done",
                      f"policy, Who may ask: {name(caller)} may not ask for {name(e)}: nothing was done", record=record)
              for k, group in enumerate(acts) for verb, record in group),
            says_not(claim(*ORDER_SENT, *SUBMITTED, *AWAITS_APPROVAL, "AR-9001", "LC-9001", "have opened", "has been opened",
                           "is pending", "now pending"),
                     why=f"policy, Who may ask: {name(caller)} may not ask for {name(e)}: nothing was done"),
            home_private(e, f"{name(caller)}, who is not their line manager"),
            # the directory search shows who the line manager is; nothing more of the colleague's is theirs to read
            *not_theirs(e, f"policy, Who may ask: {name(caller)} is not {name(e)}'s line manager, so may not look up "
                           f"their records"),
        ],
        wrong=[
            append(bad, note="acts for someone who is not the caller's direct report"),
            reply("I'm sorry, I can't do that: only their current line manager can ask for it.",
                  "does not say who can ask, by name"),
            drop(0, note=UNVERIFIED),
        ],
        kind="verification", difficulty="medium", skills=["verification", "authority", "policy"],
    )


# -- look-alike records -----------------------------------------------------------------------------


@template("grant the approved request; the other one still waits")
def access_approved_fulfil(s: Desk, n: int) -> TaskSpec:
    system, role, _, dept = OWNER_ROLES[(n * 2 + 1 + (s.split == "train")) % len(OWNER_ROLES)]
    m, e = s.manager_and_report(dept=dept)
    owner_id = SYSTEMS[system]["owner_id"]
    mgr_role = {"D-TEC": "GIT-DEV", "D-FIN": "SAP-GL-VIEW", "D-HR": "DOC-EDIT", "D-LEG": "SFDC-EDIT",
                "D-IT": "AWS-READONLY", "D-MKT": "PBI-PUBLISH"}[dept]
    old_role = {"AWS-DEV": "AWS-ADMIN", "SAP-AP-CLERK": "SAP-ADMIN", "WKD-COMP-VIEW": "WKD-PAYROLL",
                "DOC-LEGAL-HOLD": "SFDC-ADMIN", "JIRA-ADMIN": "PBI-ADMIN", "SFDC-ADMIN": "PBI-ADMIN"}[role]
    s.request(e, old_role, "rejected", SYSTEMS[ROLES[old_role]["system_id"]]["owner_id"], "denied", days_ago(120),
              note="Not needed for your role.")
    rx, _ = s.request(e, role, "approved", owner_id, "approved", days_ago(6), note="Approved for the engagement.")
    ry, ay = s.request(e, mgr_role, "pending_approval", m["id"], "pending", days_ago(4))
    ticket = s.ticket(e, "access", f"Access for {role}", linked_ref=rx) if n % 2 == 0 else None
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    if ticket:
        g.add("get_ticket", ticket_id=ticket["id"])
    g.add("list_access_requests", employee_id=e["id"])
    k = g.add("grant_access", employee_id=e["id"], role_id=role, request_id=rx)
    wrong = [
        append(call("record_approval", approval_id=ay, approver_id=m["id"], decision="approved", note="Chasing."),
               call("grant_access", employee_id=e["id"], role_id=mgr_role, request_id=ry),
               tag="skipped_approval", note="also pushes through the request that is still waiting for the manager"),
        drop(k, note="does not grant the approved role"),
    ]
    assertions = [
        # each request keeps its own status: the granted one is said granted, the other one waits for the
        # manager; "SAP-GL-VIEW is granted, SAP-AP-CLERK waits for Zoltan Laurent" says them swapped
        says(named(role, "policy, Communicating: after a change, name the role granted by its role id"),
             status("granted", STATUS, *GRANTED, owner=[role, rx], rivals=[mgr_role, ry]),
             fact(name(m), "the customer asked where their other request stands: who it waits for", near=AWAITING,
                  may_be_negated=True, owner=[mgr_role, ry, *OTHER_ONE], rivals=[role, rx])),
        *done(g, "grant_access", names={role: [ROLES[role]["name"], rx]}, others=[mgr_role, ROLES[mgr_role]["name"], ry]),
        outcome("grant", "pending", f"{ry} for {mgr_role} still waits for {name(m)}: not granted",
                record=[mgr_role, ROLES[mgr_role]["name"], ry, "other request"],
                others=[role, ROLES[role]["name"], rx, *CONDITION]),
        *awaiting([ry, mgr_role, ROLES[mgr_role]["name"], "other request"], f"{ry} for {mgr_role} still waits for {name(m)}",
                  others=[role, ROLES[role]["name"], rx, old_role], approved=[role, ROLES[role]["name"], rx],
                  rejected=[old_role]),
        says_not(claim(*ACTIVATED, *APPROVAL_RECORDED, owner=[mgr_role, ROLES[mgr_role]["name"], ry],
                       rivals=[role, ROLES[role]["name"], rx]),
                 why=f"{ry} for {mgr_role} still waits for {name(m)}: not granted nor approved"),
    ]
    if ticket:
        g.add("add_ticket_note", ticket_id=ticket["id"], note=f"{rx} approved; {role} granted.")
        j = g.add("update_ticket_status", ticket_id=ticket["id"], status="resolved")
        wrong.append(drop(j, note="leaves the ticket open"))
        assertions.append(noted(ticket))
    else:
        wrong.append(drop(0, note=UNVERIFIED))
    assertions += verified_first(s, g, e)
    mention = f" (ticket {ticket['id']})" if ticket else ""
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, who got an approval email and wants the access switched on.",
            goal=f"Have the approved {role} access granted{mention}; learn where the other request stands.",
            first_message=(f"Hi, I got an email saying my access request was approved{mention}. Can you switch it on? "
                           f"And where's my other request?"),
            facts={**identity(e), "approved_request": f"{rx} for {role}", "other_request": f"{ry} for {mgr_role}",
                   **({"ticket_id": ticket["id"]} if ticket else {})},
            wants=[role, rx, "access", "switch", "grant", *([ticket["id"]] if ticket else [])],
        ),
        patch=s.patch(), golden=g,
        reply=(f"Request {rx} for {role} was approved, so I granted the role." + (
            f" Ticket {ticket['id']} is resolved." if ticket else "") +
            f" Your other request, {ry} for {mgr_role}, is still waiting for approval from your manager, {name(m)}."),
        assertions=assertions, wrong=wrong,
        kind="distractor", difficulty="medium",
        skills=["verification", "access", "approval", "distractor"] + (["tickets"] if ticket else []),
    )


# the words of a leaver's access ending by itself on the last day, or staying until then
ACCESS_ENDS = ["access", "revok", "remov", "deactivat", "disabl", "cut", "end", "until", "stay", "remain", "keep",
               "automatic", "leaver process", "in place", "switch", "turn off", "turned off", "terminat", "lose",
               "expire", "shut", "lock"]


@template("a leaver with a future last day: open the case only (a namesake elsewhere)")
def offboarding_future(s: Desk, n: int) -> TaskSpec:
    m, e = s.manager_and_report()
    other_dept = s.rng.choice(sorted(d for d in DEPTS if d != e["department_id"]))
    twin = s.person(other_dept, s.rng.choice(["analyst", "consultant"]), DEPTS[other_dept]["head_id"],
                    first_last=(e["first_name"], e["last_name"]))
    role = OPTIONAL[e["department_id"]][0]
    s.grant(e, role, days_ago(200))
    last = days_ahead([11, 18, 39, 46, 23][(n + 2 * (s.split == "train")) % 5])
    early = n % 2 == 0
    g = Golden()
    verify(g, m, s.rng.choice(["dob", "mobile"]))
    g.add("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    k = g.add("start_offboarding", employee_id=e["id"], last_day=last, requested_by=m["id"])
    told = "policy, Offboarding: with a last day in the future, tell the manager the case id and the last day"
    facts = [fact("LC-9001", told), fact(last, told)]
    # (not "is revoked" nor "no longer has": "their access is revoked on their last day" is the rule said right)
    cut_now = says_not(claim("have revoked", "has been revoked", "was revoked", "have removed", "has been removed",
                             "was removed", "have cut", "has been cut", "have disabled", "has been disabled",
                             "have deactivated", "has been deactivated", "revoked it now", "removed it now"),
                       why="policy, Offboarding: nothing is revoked before the last day")
    if early:
        # the reason: the access ends on the last day (by itself), said as that date (or "their last day",
        # "then") in a clause about the access ending or staying: "access will be revoked on 2026-12-11",
        # "access ends on December 11", "it stays in place until their last day"; a reason without the day
        # ("it stays until HR confirms") or the day without the access ("last day 2026-12-11") is not it
        # (the last day itself is required above, so a wording without the date lets no wrong date through)
        day = ["the last day", "his last day", "her last day", last, "then", "that day", "that date"]
        facts.append(fact("their last day", "the manager asked to cut access now; policy, Offboarding: it stays until "
                          "the last day, and a decline says why", *day, near=ACCESS_ENDS))
    extra = f" And please cut their {role} access right away." if early else ""
    return TaskSpec(
        caller=Caller(
            persona=f"{name(m)}, a manager whose direct report {name(e)} resigned.",
            goal=f"Start the offboarding of {name(e)}, last day {last}." + (f" Have {role} removed now." if early else ""),
            first_message=f"Hi, {name(e)} from my team has resigned; their last day is {last}. Please start the offboarding.{extra}",
            facts={**identity(m), "leaver": name(e), "leavers_department": DEPTS[e["department_id"]]["name"],
                   "leavers_last_day": last},
        ),
        patch=s.patch(), golden=g,
        reply=(f"I opened offboarding case LC-9001 for {name(e)} with last day {last}. "
               + ("I can't cut their access early: " if early else "")
               + f"their access, licences and account are left as they are until {last}, when the leaver process "
               f"removes them."),
        assertions=[
            says(*facts), cut_now, case_opened([role, ROLES[role]["name"]]), nothing_waits(),
            *verified_first(s, g, m, report=e),
            *hr_private(e),
            # the directory search tells the two apart (department, line manager): the namesake is not theirs to read
            *not_theirs(twin, f"policy, Who may ask: the other {name(e)} is not {name(m)}'s report, so their records "
                              f"are not {name(m)}'s to look up"),
        ],
        wrong=[
            replace({k: call("start_offboarding", employee_id=twin["id"], last_day=last, requested_by=m["id"])},
                    "wrong_entity", "offboards the namesake in another department"),
            append(call("revoke_access", employee_id=e["id"], role_id=role, reason="Leaving."),
                   note="revokes access before the last day"),
            drop(0, note=UNVERIFIED),
        ],
        kind="distractor", difficulty="medium",
        skills=["verification", "manager_for_report", "offboarding", "distractor", "dates"],
    )


@template("cancel the open order with the named item; keep the other open order")
def cancel_order_distractor(s: Desk, n: int) -> TaskSpec:
    item, label = ORDER_ASKS[(n * 2 + 1 + (s.split == "train")) % len(ORDER_ASKS)]
    _, e = s.manager_and_report()
    s.order(e, [item], "delivered", days_ago(s.rng.randint(150, 400)), "office")
    target = s.order(e, [item, "HW-BAG"], "submitted", days_ago(s.rng.randint(1, 3)), s.rng.choice(["home", "office"]))
    other = s.order(e, ["HW-KBD", "HW-MSE"], "submitted", days_ago(s.rng.randint(1, 3)), "office")
    kept = [other["id"], "keyboard", "mouse"]
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("list_hardware_orders", employee_id=e["id"])
    k = g.add("cancel_hardware_order", order_id=target["id"], reason=f"The employee no longer needs the {label}.")
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, who got a {label} from a client and no longer needs the one on order.",
            goal=f"Cancel the open order with the {label}; keep the keyboard and mouse order.",
            first_message=f"Hi, please cancel my {label} order - a client gave me one.",
            facts={**identity(e), "order_to_cancel": f"the one with the {label}", "item": label,
                   "backpack": "fine to cancel with the rest of that order",
                   "keyboard": "keep that order, I still need it"},
        ),
        patch=s.patch(), golden=g,
        reply=(f"I cancelled order {target['id']} ({ITEM_NAMES[item]} and Laptop Backpack). Your keyboard and mouse "
               f"order {other['id']} is unchanged."),
        assertions=[
            says(fact(target["id"], "policy, Communicating: after a change, say what changed (the order cancelled)"),
                 # the order cancelled, not the keyboard and mouse order that stays ("I cancelled HO-5012; HO-5011
                 # is unchanged" says them swapped)
                 status("cancelled", STATUS, *CANCELLED, owner=[target["id"], label, ITEM_NAMES[item], "backpack"],
                        rivals=[other["id"], "keyboard", "mouse"])),
            *done(g, names={target["id"]: [label, ITEM_NAMES[item], "backpack"]}, others=kept),
            outcome("cancel", "not_done", f"the keyboard and mouse order {other['id']} was kept", record=kept,
                    others=[target["id"], label, ITEM_NAMES[item], "backpack"]),
            # still as it was, or called off, in words the vocabulary does not know
            undone([target["id"], label, ITEM_NAMES[item], "backpack"], kept, "still pending", "still submitted",
                   "still on order", "still going ahead",
                   why=f"{target['id']} was cancelled: a reply that takes it back says it was not"),
            says_not(claim("is withdrawn", "called off", owner=kept, rivals=[target["id"], label, ITEM_NAMES[item], "backpack"]),
                     why=f"the keyboard and mouse order {other['id']} was kept"),
            *not_all(CANCELLED, f"the keyboard and mouse order {other['id']} was kept: only {target['id']} was cancelled"),
            *verified_first(s, g, e),
        ],
        wrong=[
            reply(f"I cancelled order {other['id']} (keyboard and mouse). Your {label} order {target['id']} is "
                  f"unchanged.", "says the other order cancelled"),
            replace({k: call("cancel_hardware_order", order_id=other["id"], reason="No longer needed.")},
                    "wrong_entity", "cancels the wrong open order"),
            drop(0, note=UNVERIFIED),
        ],
        kind="distractor", difficulty="medium", skills=["verification", "hardware", "distractor"],
    )


# -- facts the caller gives only when asked -----------------------------------------------------------

LEAVE_RANGES_3 = [("2026-12-28", "2026-12-30"), ("2027-01-04", "2027-01-08"), ("2026-12-15", "2026-12-17"),
                  ("2027-02-15", "2027-02-19"), ("2027-04-19", "2027-04-23"), ("2026-12-03", "2026-12-04")]


@template("book leave; the dates come only when asked")
def ask_leave_dates(s: Desk, n: int) -> TaskSpec:
    start, end = LEAVE_RANGES_3[(n * 2 + (s.split == "train")) % len(LEAVE_RANGES_3)]
    m, e = s.manager_and_report()
    s.balances(e, 22, s.rng.randint(0, 4))
    s.leave(e, "2026-07-06", "2026-07-10", "approved")
    days = working_days(start, end)
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_leave_balance", employee_id=e["id"], year=int(start[:4]), leave_type="annual")
    i = g.add("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=start, end_date=end)
    g.add("get_employee", employee_id=e["id"])  # (the line manager the reply names as approver: a read, not a guess)
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, who wants some time off and assumes the desk knows when.",
            goal=f"Book annual leave from {start} to {end}.",
            first_message="Hi, I'd like to book some annual leave please.",
            facts={**identity(e), "leave_type": "annual", "start_date": start, "end_date": end},
            instructions="Give your dates only when asked for them.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"Booked: leave request LR-9001 for {start} to {end}, {days} working days, pending approval by "
               f"{name(m)}."),
        assertions=[
            says(fact("LR-9001", BOOKED), fact(days, BOOKED)),
            *leave_waits(["LR-9001", start, end]),
            *verified_first(s, g, e),
            # the caller never said when: the dates are asked for, not guessed (audit 11: the golden path never asked)
            no_call("submit_leave_request", until_asked=["date", "when", "day", "start", "from", "which"],
                    ask="Which dates would you like to take off?",
                    why="policy, General rules: ask when something you need is missing (which dates); never guess"),
        ],
        wrong=[
            replace({i: call("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=start,
                             end_date=start)}, "wrong_amount", "books only the first day"),
            drop(0, note=UNVERIFIED),
        ],
        kind="ask_user", difficulty="medium", skills=["verification", "leave", "ask_user"],
    )


SHIP_SETS = [["HW-MON-27", "HW-DOCK"], ["HW-HSET"], ["HW-WCAM", "HW-KBD"], ["HW-MON-34"], ["HW-SPKR"],
             ["HW-TAB"], ["HW-DOCK", "HW-MSE"]]


@template("order hardware; where to ship comes only when asked")
def ask_ship_destination(s: Desk, n: int) -> TaskSpec:
    items = SHIP_SETS[(n * 2 + (s.split == "train")) % len(SHIP_SETS)]
    _, e = s.manager_and_report(work_mode="hybrid")
    where = "home" if n % 2 == 0 else "office"
    total = round(sum(PRICES[i] for i in items), 2)
    names = " and ".join(ITEM_NAMES[i] for i in items)
    g = Golden()
    verify(g, e, s.rng.choice(["dob", "mobile"]))
    g.add("get_employee", employee_id=e["id"])
    g.add("get_hardware_catalogue")
    k = g.add("place_hardware_order", employee_id=e["id"], item_ids=items, ship_to=where, requested_by=e["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{name(e)}, a hybrid worker setting up a better desk.",
            goal=f"Order {names}, delivered to their {where}.",
            first_message=f"Hi, could you order me a {names}?",
            facts={**identity(e), "items": names, SHIP_TO: where},
            instructions="Say where to ship only when asked.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"Ordered: HO-9001 for {names} ({money(total)}), within your limit, shipping to your "
               f"{'home address' if where == 'home' else 'office'}."),
        assertions=[says(fact("HO-9001", SAID_CHANGE), status("placed", STATUS, *ORDERED)),
                    *done(g, names={"order": ["HO-9001", *(ITEM_NAMES[i] for i in items)]}),
                    wrong_destination(where), no_other_item(items),
                    *verified_first(s, g, e),
                    no_call("place_hardware_order", until_asked=["ship", "where", "deliver", "address"],
                            ask="Should I ship it to your home or to the office?",
                            why="policy, Hardware: a hybrid worker chooses home or office; if the caller did not say "
                                "which, ask")],
        wrong=[
            replace({k: call("place_hardware_order", employee_id=e["id"], item_ids=items,
                             ship_to="office" if where == "home" else "home", requested_by=e["id"])},
                    "wrong_entity", "ships without asking, to the other address"),
            drop(0, note=UNVERIFIED),
        ],
        kind="ask_user", difficulty="medium", skills=["verification", "hardware", "ask_user"],
    )


@template("offboard a leaver; the last day comes only when asked")
def ask_last_day(s: Desk, n: int) -> TaskSpec:
    m, e = s.manager_and_report()
    roles, pools, devices = s.leaver(e, n)
    last_day = ["2026-11-27", "2026-11-25", iso(TODAY)][(n + (s.split == "train")) % 3]
    g = Golden()
    verify(g, m, s.rng.choice(["dob", "mobile"]))
    g.add("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    at = offboard_now(g, m, e, last_day, roles, pools, devices)
    return TaskSpec(
        caller=Caller(
            persona=f"{name(m)}, a busy manager; {name(e)} on their team has left.",
            goal=f"Offboard {name(e)}, whose last day was {last_day}.",
            first_message=f"Hi, {name(e)} has left my team. Can you take care of the offboarding?",
            facts={**identity(m), "leaver": name(e), "leavers_last_day": last_day},
            wants=OFFBOARDING,
            instructions="Give the last day only when asked.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"Offboarding case LC-9001 for {name(e)} (last day {last_day}) is complete: roles revoked, licences "
               f"reclaimed, return kits sent for {len(devices)} devices and the account disabled."),
        assertions=[
            says(fact("LC-9001", "policy, Communicating: after a change, say the case id"), OFFBOARDED),
            # the case opened, and the steps said not done; not as `done` outcomes: they also forbid waiting, and
            # "account disabled, pending the return of 2 devices" is the offboarding said right
            case_opened(), says_not(claim(*NOT_OFFBOARDED, may_be_negated=True), why=OFFBOARD_DONE), nothing_waits(),
            *verified_first(s, g, m, report=e),
            *hr_private(e),
            # the manager never said when the leaver left: the last day is asked for, not guessed
            no_call("start_offboarding", until_asked=["last day", "last working day", "when", "date", "leave", "left"],
                    ask="What was their last working day?",
                    why="policy, General rules: ask when something you need is missing (the last day); never guess"),
        ],
        wrong=[
            drop(at["disable"], note="leaves the account enabled"),
            replace({at["start"]: call("start_offboarding", employee_id=e["id"], last_day=days_ahead(14),
                                       requested_by=m["id"])},
                    "wrong_entity", "records a last day in the future instead of asking"),
        ],
        kind="ask_user", difficulty="hard", skills=["verification", "manager_for_report", "offboarding", "ask_user"],
    )


if __name__ == "__main__":
    raise SystemExit(templates.main())
