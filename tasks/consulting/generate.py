"""Writes the consulting tasks (`tasks/test/*.yaml`, `tasks/train/*.yaml`) from templates.

Run it as `python -m tb_env.tasks.consulting.generate`; the output is deterministic, so
re-running it on unchanged code leaves the files unchanged.

Each template is a function that builds one scenario instance: it creates the people
the scenario is about (and their records) in the task's `initial_patch`, writes the
golden tool calls, the golden reply, the assertions and the wrong paths. Instances
differ in their people, systems, products, dates and amounts, drawn from a random
generator seeded by (template, split, index). The two splits never share an entity:
test instances use ids 5001-5999 and one set of name pools, train instances ids
6001-6999 and another. The firm's shared set-up (departments, systems and their owners,
roles, licence pools, catalogue) comes from `seed.py`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml

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
SOD = [(c["role_a"], c["role_b"]) for c in BASE["sod_conflicts"]]

NAME_POOLS = {
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
ID_BASE = {"test": 5000, "train": 6000}
STREETS = ["Juniper St", "Magnolia Ave", "Larkspur Ln", "Orchard Rd", "Beacon St", "Canal St", "Fairview Ave",
           "Granite Way", "Hawthorne Dr", "Ivy Ct", "Kingsley Rd", "Linden Blvd"]
AREA = {"New York": "212", "Chicago": "312", "Boston": "617", "Austin": "512", "San Francisco": "415"}
HOME_ZIPS = {o[0]: o[5] for o in seed.OFFICES}
TITLES = seed.TITLES
LAPTOP_BY = {"HW-LAP-STD", "HW-LAP-ULT", "HW-LAP-PRF", "HW-LAP-MAC", "HW-LAP-OLD"}


def iso(d: date) -> str:
    return d.isoformat()


def days_ago(n: int) -> str:
    return iso(TODAY - timedelta(days=n))


def days_ahead(n: int) -> str:
    return iso(TODAY + timedelta(days=n))


def working_days(start: str, end: str) -> int:
    return seed.working_days(date.fromisoformat(start), date.fromisoformat(end), HOLIDAYS)


def add_months(d: str, months: int) -> str:
    x = date.fromisoformat(d)
    y, m = divmod(x.month - 1 + months, 12)
    return iso(date(x.year + y, m + 1, min(x.day, 28)))


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


# -- the split-wide allocator: ids and names never repeat within a split ---------------------------


class Split:
    def __init__(self, split: str):
        self.split = split
        self.counters: Counter[str] = Counter()
        firsts, lasts = NAME_POOLS[split]
        combos = [(f, last) for last in lasts for f in firsts]
        random.Random(f"names:{split}").shuffle(combos)
        self.names = combos

    def next(self, prefix: str, width: int = 4) -> str:
        self.counters[prefix] += 1
        base = ID_BASE[self.split] * (10 if width == 5 else 1)
        return f"{prefix}-{base + self.counters[prefix]}"

    def new_name(self) -> tuple[str, str]:
        return self.names.pop(0)


# -- one task under construction ---------------------------------------------------------------


class Flow(dict):
    """A mapping written in YAML flow style (one line)."""


class FlowList(list):
    pass


class Task:
    def __init__(self, sp: Split, template: str, index: int):
        self.sp = sp
        self.template = template
        self.index = index
        self.rng = random.Random(f"{template}:{sp.split}:{index}")
        self.patch: dict[str, list[dict[str, Any]]] = {}
        self.calls: list[dict[str, Any]] = []

    # records -------------------------------------------------------------------------------
    def row(self, table: str, **values: Any) -> dict[str, Any]:
        self.patch.setdefault(table, []).append(values)
        return values

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
        first, last = first_last or self.sp.new_name()
        eid = self.sp.next("E")
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
        self.row("employees", **e)
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

    def grant(self, e: dict[str, Any], role: str, granted_on: str, status: str = "active",
              revoked_on: str | None = None, request_id: str | None = None) -> dict[str, Any]:
        return self.row("access_grants", id=f"{e['id']}/{role}", employee_id=e["id"], role_id=role, status=status,
                        granted_on=granted_on, revoked_on=revoked_on, request_id=request_id)

    def request(self, e: dict[str, Any], role: str, status: str, approver_id: str, decision: str,
                created: str, note: str | None = None, requested_by: str | None = None) -> tuple[str, str]:
        rid, aid = self.sp.next("AR"), self.sp.next("AP")
        self.row("access_requests", id=rid, employee_id=e["id"], role_id=role, requested_by=requested_by or e["id"],
                 status=status, justification="Needed for my current engagement.", created_at=f"{created}T09:30:00Z")
        self.row("approvals", id=aid, subject_type="access_request", subject_id=rid, employee_id=e["id"],
                 approver_id=approver_id, amount=None, status=decision, decision_note=note,
                 decided_on=None if decision == "pending" else iso(date.fromisoformat(created) + timedelta(days=2)),
                 created_at=f"{created}T09:30:00Z")
        return rid, aid

    def asset(self, e: dict[str, Any], item: str, assigned_on: str, status: str = "assigned",
              returned_on: str | None = None) -> dict[str, Any]:
        return self.row("assets", id=self.sp.next("AS", 5), employee_id=e["id"], item_id=item,
                        serial_number=f"SN{self.rng.randint(10**7, 10**8 - 1)}", status=status,
                        assigned_on=assigned_on, returned_on=returned_on)

    def seat(self, pool: str, e: dict[str, Any], assigned_on: str, last_used_on: str | None,
             status: str = "active") -> dict[str, Any]:
        return self.row("licence_assignments", id=f"{pool}/{e['id']}", pool_id=pool, employee_id=e["id"],
                        status=status, cost_centre=DEPTS[e["department_id"]]["cost_centre"],
                        assigned_on=assigned_on, last_used_on=last_used_on,
                        reclaimed_on=None if status == "active" else last_used_on)

    def fill_pool(self, pool: str, extra_active: int) -> None:
        """Make a pool exactly full once the task's own seats are counted."""
        self.row("licence_pools", id=pool, total_seats=POOL_USED[pool] + extra_active)

    def ship_address(self, e: dict[str, Any], ship_to: str) -> str:
        if ship_to == "home":
            return f"{name(e)}, {e['home_line1']}, {e['home_city']}, {e['home_state']} {e['home_zip']}"
        o = OFFICES[e["office"]]
        return f"{name(e)} c/o Meridian Partners, {o['line1']}, {o['city']}, {o['state']} {o['zip_code']}"

    def order(self, e: dict[str, Any], items: list[str], status: str, placed_on: str, ship_to: str) -> dict[str, Any]:
        oid = self.sp.next("HO")
        shipped = status in ("shipped", "delivered")
        eta = iso(date.fromisoformat(placed_on) + timedelta(days=6))
        o = self.row("hardware_orders", id=oid, employee_id=e["id"], requested_by=e["id"], status=status,
                     total=round(sum(PRICES[i] for i in items), 2), ship_to=ship_to,
                     ship_address=self.ship_address(e, ship_to), approval_id=None, placed_on=placed_on,
                     tracking_number=f"1Z{self.rng.randint(10**9, 10**10 - 1)}" if shipped else None,
                     eta=eta if shipped else None, delivered_on=eta if status == "delivered" else None)
        for item in sorted(set(items)):
            self.row("hardware_order_lines", id=f"{oid}/{item}", order_id=oid, item_id=item,
                     quantity=items.count(item), unit_price=PRICES[item])
        return o

    def balances(self, e: dict[str, Any], entitled: int, carried: int) -> None:
        for year, c in ((2026, carried), (2027, 0)):
            self.row("leave_balances", id=f"{e['id']}/{year}/annual", employee_id=e["id"], year=year,
                     leave_type="annual", entitled_days=entitled, carried_over_days=c)
            self.row("leave_balances", id=f"{e['id']}/{year}/wellbeing", employee_id=e["id"], year=year,
                     leave_type="wellbeing", entitled_days=2, carried_over_days=0)

    def leave(self, e: dict[str, Any], start: str, end: str, status: str, leave_type: str = "annual") -> dict[str, Any]:
        return self.row("leave_requests", id=self.sp.next("LR"), employee_id=e["id"], leave_type=leave_type,
                        start_date=start, end_date=end, days=working_days(start, end), status=status,
                        approver_id=e["manager_id"], created_at=f"{days_ago(40)}T10:00:00Z")

    def ticket(self, e: dict[str, Any], category: str, subject: str, linked_ref: str | None = None,
               status: str = "open", created: str | None = None) -> dict[str, Any]:
        tid = self.sp.next("T")
        t = self.row("tickets", id=tid, employee_id=e["id"], category=category, subject=subject, status=status,
                     priority="normal", assigned_team="service_desk", linked_ref=linked_ref,
                     created_at=f"{created or days_ago(self.rng.randint(1, 6))}T08:45:00Z")
        self.row("ticket_notes", id=f"N-{tid[2:]}", ticket_id=tid, author="employee", body=subject,
                 created_at=t["created_at"])
        return t

    # golden path -----------------------------------------------------------------------------
    def call(self, name_: str, **arguments: Any) -> int:
        self.calls.append({"name": name_, "arguments": arguments})
        return len(self.calls) - 1

    def verify(self, e: dict[str, Any], method: str | None = None) -> int:
        method = method or self.rng.choice(["dob", "mobile"])
        if method == "dob":
            return self.call("verify_identity", employee_id=e["id"], date_of_birth=e["date_of_birth"])
        return self.call("verify_identity", employee_id=e["id"], mobile_last4=e["mobile_phone"][-4:])

    @staticmethod
    def factor(e: dict[str, Any], method: str) -> str:
        if method == "dob":
            return f"my date of birth is {e['date_of_birth']}"
        return f"my mobile ends in {e['mobile_phone'][-4:]}"

    @staticmethod
    def facts_of(e: dict[str, Any], method: str) -> dict[str, Any]:
        if method == "dob":
            return {"employee_id": e["id"], "date_of_birth": e["date_of_birth"]}
        return {"employee_id": e["id"], "mobile_last4": e["mobile_phone"][-4:]}

    # the task ------------------------------------------------------------------------------------
    def build(
        self,
        *,
        kind: str,
        difficulty: str,
        skills: list[str],
        persona: str,
        goal: str,
        known_facts: dict[str, Any],
        first_message: str,
        scripted_turns: list[str],
        reply: str,
        assertions: list[dict[str, Any]],
        wrong_paths: list[dict[str, Any]],
        instructions: str | None = None,
    ) -> dict[str, Any]:
        split = self.sp.split
        user: dict[str, Any] = {"persona": persona, "goal": goal, "known_facts": Flow(known_facts),
                                "first_message": first_message, "scripted_turns": scripted_turns}
        if instructions:
            user["instructions"] = instructions
        return {
            "id": f"consulting/{self.template}-{split}-{self.index + 1:02d}",
            "split": split,
            "eval_only": split == "test",
            "tags": Flow(difficulty=difficulty, kind=kind, skills=FlowList(skills), template=self.template),
            "user": user,
            "initial_patch": {t: [Flow(r) for r in rows] for t, rows in self.patch.items()},
            "golden_actions": [Flow(name=c["name"], arguments=Flow(c["arguments"])) for c in self.calls],
            "golden_reply": reply,
            "assertions": [_flow_assertion(a) for a in assertions],
            "wrong_paths": [_flow_wrong(w) for w in wrong_paths],
        }


def _flow_assertion(a: dict[str, Any]) -> dict[str, Any]:
    ((kind, body),) = a.items()
    if kind == "response_contains":
        return {kind: FlowList(body)}
    return {kind: Flow(body)}


def _flow_wrong(w: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"tag": w["tag"]}
    if "note" in w:
        out["note"] = w["note"]
    for key in ("append", "drop", "replace", "reply"):
        if key not in w:
            continue
        v = w[key]
        if key == "append":
            out[key] = [Flow(name=c["name"], arguments=Flow(c["arguments"])) for c in v]
        elif key == "replace":
            out[key] = {i: Flow(name=c["name"], arguments=Flow(c["arguments"])) for i, c in v.items()}
        elif key == "drop":
            out[key] = FlowList(v)
        else:
            out[key] = v
    return out


def C(name_: str, **arguments: Any) -> dict[str, Any]:
    """A tool call, for wrong paths."""
    return {"name": name_, "arguments": arguments}


def drop(tag: str, *indices: int, note: str) -> dict[str, Any]:
    return {"tag": tag, "note": note, "drop": list(indices)}


def append(tag: str, *calls: dict[str, Any], note: str) -> dict[str, Any]:
    return {"tag": tag, "note": note, "append": list(calls)}


def replace(tag: str, index: int, call: dict[str, Any], note: str) -> dict[str, Any]:
    return {"tag": tag, "note": note, "replace": {index: call}}


def wrong_reply(text: str, note: str) -> dict[str, Any]:
    return {"tag": "wrong_reply", "note": note, "reply": text}


def no_verify(index: int = 0) -> dict[str, Any]:
    return drop("missing_step", index, note="acts without verifying the caller's identity")


# == templates ====================================================================================
# Each takes the task under construction and returns the finished task mapping.

TEMPLATES: dict[str, Callable[[Task], dict[str, Any]]] = {}


def template(fn: Callable[[Task], dict[str, Any]]) -> Callable[[Task], dict[str, Any]]:
    TEMPLATES[fn.__name__.replace("_", "-")] = fn
    return fn


def thanks(t: Task) -> str:
    return t.rng.choice(["Great, thanks.", "Perfect, thank you.", "Thanks, that's all I needed.", "OK, thanks."])


# -- read-only ---------------------------------------------------------------------------------------

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


@template
def role_info_question(t: Task) -> dict[str, Any]:
    system, role, need, bigger = ROLE_NEEDS[(t.index * 3 + (t.sp.split == "train") * 5) % len(ROLE_NEEDS)]
    first, last = t.sp.new_name()
    sysname = SYSTEMS[system]["name"]
    t.call("list_system_roles", system_id=system)
    approver = ROLES[role]["approver"]
    if approver == "manager":
        who, fact, bad = "your line manager", "manager", "no approval at all"
    else:
        owner = base_name(SYSTEMS[system]["owner_id"])
        who, fact, bad = f"the system owner, {owner}", owner, "your line manager"
    return t.build(
        kind="read_only", difficulty="easy", skills=["policy", "least_privilege"],
        persona=f"{first} {last}, a consultant who is planning ahead and only wants information for now.",
        goal=f"Learn which {sysname} role lets them {need}, and who has to approve it.",
        known_facts={"system": sysname, "need": need},
        first_message=f"Quick general question: which {sysname} role would I need to {need}, and who approves it?",
        scripted_turns=["I'd rather not give my details, it's just a general question.", thanks(t)],
        instructions="You only want the information; do not ask the desk to request anything.",
        reply=f"To {need} in {sysname} you need the {role} role ({ROLES[role]['name']}). It is approved by {who}.",
        assertions=[{"response_contains": [role, fact]}],
        wrong_paths=[
            wrong_reply(f"You'd need {bigger}, which {bad} approves.", "names the wrong role"),
            wrong_reply(f"That is {role}, and it needs {bad}.", "names the wrong approver"),
        ],
    )


BUDGET_SETS = [  # items a caller asks about
    ["HW-LAP-PRF", "HW-MON-27"], ["HW-LAP-ULT", "HW-MON-34"], ["HW-LAP-STD", "HW-MON-27", "HW-DOCK"],
    ["HW-LAP-MAC", "HW-MON-34", "HW-DOCK"], ["HW-TAB", "HW-PHN", "HW-HSET"], ["HW-LAP-PRF", "HW-MON-34"],
]


@template
def budget_question(t: Task) -> dict[str, Any]:
    level = t.rng.choice(["analyst", "consultant", "senior_consultant", "manager"])
    _, e = t.manager_and_report(level=level)
    items = BUDGET_SETS[(t.index * 2 + (t.sp.split == "train")) % len(BUDGET_SETS)]
    total = round(sum(PRICES[i] for i in items), 2)
    limit = LIMITS[level]
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_employee", employee_id=e["id"])
    t.call("get_hardware_catalogue")
    names = " and ".join(ITEM_NAMES[i] for i in items)
    verdict = ("which is within your limit" if total <= limit
               else "which is above your limit, so such an order would need your line manager's approval")
    return t.build(
        kind="read_only", difficulty="easy", skills=["verification", "hardware", "arithmetic"],
        persona=f"{name(e)}, a {TITLES[level].lower()} pricing up a new setup before deciding anything.",
        goal=f"Learn their hardware order limit and whether {names} would fit within it. No order yet.",
        known_facts=t.facts_of(e, method),
        first_message=f"Hi, what's my hardware budget, and would a {names} fit within it? Not ordering yet, just checking.",
        scripted_turns=[f"Sure: {e['id']}, {t.factor(e, method)}.", thanks(t)],
        instructions="Do not place an order; you only want the numbers.",
        reply=(f"Your hardware order limit is {money(limit)}. The {names} come to {money(total)}, {verdict}."),
        assertions=[{"response_contains": [money(limit), money(total)]}],
        wrong_paths=[
            no_verify(),
            append("extra_write", C("place_hardware_order", employee_id=e["id"], item_ids=items, ship_to="office",
                                    requested_by=e["id"]), note="places the order the caller only asked about"),
            wrong_reply(f"Your limit is {money(limit)} and those come to about {money(total - 100)}.", "wrong total"),
        ],
    )


@template
def leave_balance(t: Task) -> dict[str, Any]:
    _, e = t.manager_and_report()
    entitled = t.rng.choice([20, 22, 25])
    carried = t.rng.randint(0, 5)
    t.balances(e, entitled, carried)
    taken = [t.leave(e, "2026-03-09", "2026-03-13", "approved"),
             t.leave(e, "2026-08-10", iso(date(2026, 8, 10) + timedelta(days=t.rng.choice([1, 4, 7]))), "approved")]
    next_year = t.rng.random() < 0.4
    booked = t.leave(e, "2026-12-14", t.rng.choice(["2026-12-16", "2026-12-18"]), t.rng.choice(["approved", "pending"]))
    t.leave(e, "2026-12-28", "2026-12-30", "cancelled")
    booked27 = t.leave(e, "2027-02-15", "2027-02-19", "pending")
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    if next_year:
        t.call("get_leave_balance", employee_id=e["id"], year=2027, leave_type="annual")
        available = entitled - booked27["days"]
        ask, when = "next year (2027)", "2027"
        detail = f"{entitled} days of entitlement less the {booked27['days']} days booked for February"
        bad = entitled
    else:
        t.call("get_leave_balance", employee_id=e["id"], year=2026, leave_type="annual")
        used = sum(x["days"] for x in taken)
        available = entitled + carried - used - booked["days"]
        ask, when = "left this year", "2026"
        detail = (f"{entitled} days plus {carried} carried over, less {used} taken and {booked['days']} "
                  f"booked for December")
        bad = entitled + carried - used
    return t.build(
        kind="read_only", difficulty="easy", skills=["verification", "leave"],
        persona=f"{name(e)}, planning a holiday and wanting to know how much leave is left.",
        goal=f"Learn how many annual leave days they have available for {when}.",
        known_facts=t.facts_of(e, method),
        first_message=f"Hello! How many days of annual leave do I have {ask}?",
        scripted_turns=[f"{e['id']}, and {t.factor(e, method)}.", thanks(t)],
        reply=f"You have {available} days of annual leave available for {when} ({detail}).",
        assertions=[{"response_contains": [str(available)]}],
        wrong_paths=[
            no_verify(),
            wrong_reply(f"You have {bad} days of annual leave available for {when}.",
                        "forgets the days already booked"),
        ],
    )


ORDER_ASKS = [("HW-MON-34", "ultrawide monitor"), ("HW-DOCK", "docking station"), ("HW-HSET", "headset"),
              ("HW-WCAM", "webcam"), ("HW-TAB", "tablet"), ("HW-SPKR", "speakerphone")]


@template
def order_status(t: Task) -> dict[str, Any]:
    _, e = t.manager_and_report()
    item, label = ORDER_ASKS[(t.index + 3 * (t.sp.split == "train")) % len(ORDER_ASKS)]
    t.order(e, [item, "HW-MSE"], "delivered", days_ago(t.rng.randint(200, 400)), "office")
    recent = t.order(e, [item], "shipped", days_ago(t.rng.randint(2, 4)), t.rng.choice(["office", "home"]))
    t.order(e, ["HW-KBD"], "submitted", days_ago(1), "office")
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("list_hardware_orders", employee_id=e["id"])
    return t.build(
        kind="read_only", difficulty="medium", skills=["verification", "hardware", "distractor"],
        persona=f"{name(e)}, waiting for a new {label} and wondering when it will arrive.",
        goal=f"Learn the status, tracking number and expected delivery date of the recent {label} order.",
        known_facts=t.facts_of(e, method),
        first_message=f"Hi, where is my {label}? I ordered one a few days ago.",
        scripted_turns=[f"{e['id']}; {t.factor(e, method)}.", thanks(t)],
        reply=(f"Your order {recent['id']} ({ITEM_NAMES[item]}) has shipped: tracking number "
               f"{recent['tracking_number']}, expected delivery {recent['eta']}."),
        assertions=[{"response_contains": [recent["tracking_number"], recent["eta"]]}],
        wrong_paths=[
            no_verify(),
            wrong_reply(f"Your {label} order was delivered a while ago.", "reads the older, delivered order"),
        ],
    )


SYSTEM_ROLE_SETS = {  # system: (two active roles, one revoked role)
    "SYS-PBI": (["PBI-VIEW", "PBI-PUBLISH"], "PBI-ADMIN"),
    "SYS-GIT": (["GIT-REPORTER", "GIT-DEV"], "GIT-MAINTAINER"),
    "SYS-SFDC": (["SFDC-READ", "SFDC-EDIT"], "SFDC-ADMIN"),
    "SYS-DOC": (["DOC-READ", "DOC-EDIT"], "DOC-LEGAL-HOLD"),
    "SYS-AWS": (["AWS-READONLY", "AWS-DEV"], "AWS-ADMIN"),
}


@template
def report_access_lookup(t: Task) -> dict[str, Any]:
    system = sorted(SYSTEM_ROLE_SETS)[(t.index + 2 * (t.sp.split == "train")) % len(SYSTEM_ROLE_SETS)]
    active, revoked = SYSTEM_ROLE_SETS[system]
    m, e = t.manager_and_report()
    for role in active:
        t.grant(e, role, days_ago(t.rng.randint(100, 300)))
    t.grant(e, revoked, days_ago(400), status="revoked", revoked_on=days_ago(150))
    t.grant(e, "JIRA-USER", days_ago(250))
    method = t.rng.choice(["dob", "mobile"])
    t.verify(m, method)
    t.call("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    t.call("get_employee_access", employee_id=e["id"])
    sysname = SYSTEMS[system]["name"]
    return t.build(
        kind="read_only", difficulty="medium", skills=["verification", "manager_for_report", "access"],
        persona=f"{name(m)}, a {m['title'].lower()} staffing {e['first_name']} {e['last_name']} (a direct report) "
                f"on a new engagement.",
        goal=f"Learn which {sysname} roles {name(e)} currently holds.",
        known_facts={**t.facts_of(m, method), "report": name(e)},
        first_message=f"Hi, I manage {name(e)}. Which {sysname} roles does {e['first_name']} currently have?",
        scripted_turns=[f"I'm {m['id']}, {t.factor(m, method)}.", thanks(t)],
        instructions="You only want to know; do not ask for any change.",
        reply=(f"{name(e)} currently holds {active[0]} and {active[1]} in {sysname}. ({revoked} was revoked "
               f"on {days_ago(150)}.)"),
        assertions=[{"response_contains": active}],
        wrong_paths=[
            no_verify(),
            wrong_reply(f"{name(e)} holds {active[0]} and {revoked} in {sysname}.", "reports the revoked role"),
        ],
    )


# -- single writes --------------------------------------------------------------------------------------

NEW_HOMES = [  # (line1, city, state, zip)
    ("88 Beacon St, Apt 2", "Boston", "MA", "02116"), ("1450 N Dearborn St, Unit 5", "Chicago", "IL", "60610"),
    ("312 E 9th St, Apt 4B", "New York", "NY", "10003"), ("2207 Bouldin Ave", "Austin", "TX", "78704"),
    ("775 Guerrero St", "San Francisco", "CA", "94110"), ("19 Larch Rd", "Cambridge", "MA", "02138"),
    ("640 W Briar Pl, Apt 3", "Chicago", "IL", "60657"), ("48 Prospect Park W", "Brooklyn", "NY", "11215"),
    ("1101 Sabine St", "Austin", "TX", "78701"), ("230 Clayton St", "Denver", "CO", "80206"),
]


@template
def address_change(t: Task) -> dict[str, Any]:
    _, e = t.manager_and_report(work_mode=t.rng.choice(["office", "hybrid"]))
    line1, city, state, zip_code = NEW_HOMES[(t.index * 3 + 7 * (t.sp.split == "train")) % len(NEW_HOMES)]
    t.order(e, ["HW-DOCK"], "delivered", days_ago(t.rng.randint(60, 200)), "home")
    office_order = t.order(e, ["HW-MON-27"], "submitted", days_ago(1), "office")
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("update_home_address", employee_id=e["id"], line1=line1, city=city, state=state, zip_code=zip_code)
    t.call("list_hardware_orders", employee_id=e["id"])
    address = f"{line1}, {city}, {state} {zip_code}"
    return t.build(
        kind="single_write", difficulty="easy", skills=["verification", "hr", "address"],
        persona=f"{name(e)}, who just moved house and wants HR records up to date.",
        goal=f"Change their home address to {address}.",
        known_facts={**t.facts_of(e, method), "new_address": address},
        first_message=f"Hi, I've moved. Can you update my home address to {address}?",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", thanks(t)],
        instructions="Your monitor order is going to the office, and that is fine; do not ask to change it.",
        reply=(f"Done: your home address is now {address}. Your open order {office_order['id']} ships to your "
               f"office, so it is not affected."),
        assertions=[{"response_contains": [zip_code]}],
        wrong_paths=[
            no_verify(),
            append("extra_write", C("update_order_shipping", order_id=office_order["id"], ship_to="home"),
                   note="re-addresses an office order the policy leaves alone"),
            replace("wrong_entity", 1, C("update_home_address", employee_id=e["id"], line1=e["home_line1"], city=city,
                                         state=state, zip_code=zip_code), note="keeps the old street line"),
        ],
    )


NON_PREMIUM = ["LP-VISIO", "LP-PROJ", "LP-ACRO", "LP-TABL", "LP-PBIP", "LP-JETB", "LP-MIRO", "LP-FIGM",
               "LP-STATA", "LP-ADCC", "LP-ZOOMW"]
SIMILAR_POOL = {"LP-VISIO": "LP-PROJ", "LP-PROJ": "LP-VISIO", "LP-ACRO": "LP-ADCC", "LP-ADCC": "LP-ACRO",
                "LP-TABL": "LP-PBIP", "LP-PBIP": "LP-TABL", "LP-JETB": "LP-MIRO", "LP-MIRO": "LP-FIGM",
                "LP-FIGM": "LP-MIRO", "LP-STATA": "LP-MATL", "LP-ZOOMW": "LP-MIRO"}


@template
def licence_assign(t: Task) -> dict[str, Any]:
    pool = NON_PREMIUM[(t.index * 2 + 5 * (t.sp.split == "train")) % len(NON_PREMIUM)]
    old_dept, new_dept = t.rng.sample(sorted(DEPTS), 2)
    _, e = t.manager_and_report(dept=new_dept, start_date=days_ago(t.rng.randint(600, 1500)))
    product = POOLS[pool]["product"]
    cc = DEPTS[new_dept]["cost_centre"]
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_employee", employee_id=e["id"])
    t.call("list_licence_pools")
    i = t.call("assign_licence", pool_id=pool, employee_id=e["id"], cost_centre=cc)
    return t.build(
        kind="single_write", difficulty="easy", skills=["verification", "licences", "cost_centre"],
        persona=(f"{name(e)}, who moved from {DEPTS[old_dept]['name']} to {DEPTS[new_dept]['name']} last month "
                 f"and now needs {product}."),
        goal=f"Get a {product} licence.",
        known_facts={**t.facts_of(e, method), "product": product, "previous_department": DEPTS[old_dept]["name"]},
        first_message=(f"Hi, I moved from {DEPTS[old_dept]['name']} to {DEPTS[new_dept]['name']} recently and I "
                       f"need {product} for my work. Can you set me up?"),
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", thanks(t)],
        reply=f"You now have a {product} seat, charged to the {DEPTS[new_dept]['name']} cost centre {cc}.",
        assertions=[{"response_contains": [product]}],
        wrong_paths=[
            no_verify(),
            replace("wrong_entity", i, C("assign_licence", pool_id=pool, employee_id=e["id"],
                                         cost_centre=DEPTS[old_dept]["cost_centre"]),
                    note="charges the previous department's cost centre"),
            replace("wrong_entity", i, C("assign_licence", pool_id=SIMILAR_POOL[pool], employee_id=e["id"],
                                         cost_centre=cc), note="assigns a similar but different product"),
        ],
    )


LEAVE_RANGES = [  # (start, end) in the future
    ("2026-12-14", "2026-12-18"), ("2026-12-21", "2026-12-24"), ("2026-12-07", "2026-12-09"),
    ("2027-01-11", "2027-01-15"), ("2027-02-08", "2027-02-12"), ("2026-12-28", "2026-12-31"),
    ("2027-03-15", "2027-03-19"), ("2027-01-19", "2027-01-22"), ("2026-12-17", "2026-12-22"),
    ("2027-04-05", "2027-04-09"),
]


@template
def leave_booking(t: Task) -> dict[str, Any]:
    m, e = t.manager_and_report()
    t.balances(e, t.rng.choice([22, 25]), t.rng.randint(0, 5))
    t.leave(e, "2026-06-15", "2026-06-19", "approved")
    start, end = LEAVE_RANGES[(t.index * 3 + 4 * (t.sp.split == "train")) % len(LEAVE_RANGES)]
    days = working_days(start, end)
    year = int(start[:4])
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_leave_balance", employee_id=e["id"], year=year, leave_type="annual")
    i = t.call("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=start, end_date=end)
    later = iso(date.fromisoformat(end) + timedelta(days=1 if date.fromisoformat(end).weekday() < 4 else 3))
    return t.build(
        kind="single_write", difficulty="medium", skills=["verification", "leave", "dates"],
        persona=f"{name(e)}, booking a break.",
        goal=f"Book annual leave from {start} to {end}.",
        known_facts={**t.facts_of(e, method), "start_date": start, "end_date": end},
        first_message=f"Hi, I'd like to book annual leave from {start} to {end}, please.",
        scripted_turns=[f"{e['id']}; {t.factor(e, method)}.", thanks(t)],
        reply=(f"Booked: leave request LR-9001 for {start} to {end}, {days} working days, is pending approval "
               f"by your manager {name(m)}."),
        assertions=[{"response_contains": ["LR-9001", str(days)]}],
        wrong_paths=[
            no_verify(),
            replace("wrong_amount", i, C("submit_leave_request", employee_id=e["id"], leave_type="annual",
                                         start_date=start, end_date=later), note="books one working day too many"),
        ],
    )


READ_NEEDS = [  # (system, role with approver none, need, a more privileged role)
    ("SYS-PBI", "PBI-VIEW", "look at the dashboards in Power BI", "PBI-PUBLISH"),
    ("SYS-SFDC", "SFDC-READ", "look up client accounts in Salesforce", "SFDC-EDIT"),
    ("SYS-GIT", "GIT-REPORTER", "read the code and issues in GitLab", "GIT-DEV"),
    ("SYS-DOC", "DOC-READ", "read the engagement documents in iManage", "DOC-EDIT"),
    ("SYS-WKD", "WKD-SELF", "see my own payslips in Workday", "WKD-HR-PARTNER"),
    ("SYS-JIRA", "JIRA-USER", "create and work on issues in Jira", "JIRA-ADMIN"),
]


@template
def self_service_role(t: Task) -> dict[str, Any]:
    system, role, need, bigger = READ_NEEDS[(t.index * 2 + 3 * (t.sp.split == "train")) % len(READ_NEEDS)]
    _, e = t.manager_and_report()
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("list_system_roles", system_id=system)
    i = t.call("grant_access", employee_id=e["id"], role_id=role)
    sysname = SYSTEMS[system]["name"]
    return t.build(
        kind="single_write", difficulty="easy", skills=["verification", "access", "least_privilege"],
        persona=f"{name(e)}, joining a new engagement and needing {sysname}.",
        goal=f"Get access to {need}.",
        known_facts={**t.facts_of(e, method), "need": need},
        first_message=f"Hi! I need access so I can {need}. Can you give me whatever access that needs?",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "That's all I need to do, yes.", thanks(t)],
        reply=f"Done: you now have the {role} role ({ROLES[role]['name']}) in {sysname}, which lets you {need}.",
        assertions=[{"response_contains": [role]}],
        wrong_paths=[
            no_verify(),
            replace("wrong_entity", i, C("create_access_request", employee_id=e["id"], role_id=bigger,
                                         requested_by=e["id"], justification=f"Needs to {need}."),
                    note="requests a more privileged role than the need"),
        ],
    )


@template
def licence_release(t: Task) -> dict[str, Any]:
    pools = t.rng.sample(["LP-FIGM", "LP-MIRO", "LP-VISIO", "LP-ACRO", "LP-JETB", "LP-TABL"], 2)
    _, e = t.manager_and_report()
    for p in pools:
        t.seat(p, e, days_ago(t.rng.randint(100, 400)), days_ago(t.rng.randint(1, 30)))
    product = POOLS[pools[0]]["product"]
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_employee_licences", employee_id=e["id"])
    i = t.call("reclaim_licence", pool_id=pools[0], employee_id=e["id"], reason="No longer needed by the employee.")
    return t.build(
        kind="single_write", difficulty="easy", skills=["verification", "licences"],
        persona=f"{name(e)}, tidying up software they no longer use.",
        goal=f"Give back their {product} licence (keep {POOLS[pools[1]]['product']}).",
        known_facts={**t.facts_of(e, method), "product": product},
        first_message=f"Hi, I don't use {product} anymore - please take the licence back so someone else can have it.",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", thanks(t)],
        reply=f"Done: your {product} seat has been reclaimed as of {iso(TODAY)}.",
        assertions=[{"response_contains": [product]}],
        wrong_paths=[
            no_verify(),
            replace("wrong_entity", i, C("reclaim_licence", pool_id=pools[1], employee_id=e["id"],
                                         reason="No longer needed."), note="reclaims the other product"),
        ],
    )


REVOKE_SETS = [("AWS-DEV", "AWS-READONLY"), ("SFDC-EDIT", "SFDC-READ"), ("DOC-EDIT", "DOC-READ"),
               ("GIT-DEV", "GIT-REPORTER"), ("PBI-PUBLISH", "PBI-VIEW"), ("SAP-GL-VIEW", "PBI-VIEW")]


@template
def access_revoke_report(t: Task) -> dict[str, Any]:
    target, other = REVOKE_SETS[(t.index * 2 + 3 * (t.sp.split == "train")) % len(REVOKE_SETS)]
    m, e = t.manager_and_report()
    t.grant(e, target, days_ago(t.rng.randint(100, 300)))
    t.grant(e, other, days_ago(t.rng.randint(300, 500)))
    method = t.rng.choice(["dob", "mobile"])
    t.verify(m, method)
    t.call("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    t.call("get_employee_access", employee_id=e["id"])
    i = t.call("revoke_access", employee_id=e["id"], role_id=target, reason="Engagement ended; requested by manager.")
    return t.build(
        kind="single_write", difficulty="medium", skills=["verification", "manager_for_report", "access"],
        persona=f"{name(m)}, a manager cleaning up access after an engagement ended.",
        goal=f"Remove {target} from their direct report {name(e)} (keep {other}).",
        known_facts={**t.facts_of(m, method), "report": name(e), "role": target},
        first_message=(f"Hello, the engagement {e['first_name']} {e['last_name']} was on has ended. Please remove "
                       f"their {target} role; they keep everything else."),
        scripted_turns=[f"{m['id']}, {t.factor(m, method)}. {e['first_name']} reports to me.", thanks(t)],
        reply=f"Done: {target} has been revoked from {name(e)} as of {iso(TODAY)}; {other} stays in place.",
        assertions=[{"response_contains": [target]}],
        wrong_paths=[
            no_verify(),
            replace("wrong_entity", i, C("revoke_access", employee_id=e["id"], role_id=other, reason="Engagement ended."),
                    note="revokes the wrong role"),
            append("extra_write", C("revoke_access", employee_id=e["id"], role_id=other, reason="Engagement ended."),
                   note="revokes a role the manager wanted kept"),
        ],
    )


# -- multi-step workflows -----------------------------------------------------------------------------


@template
def address_redirect(t: Task) -> dict[str, Any]:
    _, e = t.manager_and_report(work_mode=t.rng.choice(["remote", "hybrid"]))
    line1, city, state, zip_code = NEW_HOMES[(t.index * 3 + 2 + 5 * (t.sp.split == "train")) % len(NEW_HOMES)]
    address = f"{line1}, {city}, {state} {zip_code}"
    t.order(e, ["HW-HSET"], "delivered", days_ago(t.rng.randint(90, 300)), "home")
    items = t.rng.choice([["HW-MON-27", "HW-KBD"], ["HW-DOCK", "HW-MSE"], ["HW-WCAM"], ["HW-MON-34"]])
    target = t.order(e, items, "submitted", days_ago(1), "home")
    office = t.order(e, ["HW-BAG"], "submitted", days_ago(2), "office") if t.index % 2 == 0 else None
    ticket = t.ticket(e, "hr", "Moving house on Saturday - please update my address") if t.index % 2 == 1 else None
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    if ticket:
        t.call("get_ticket", ticket_id=ticket["id"])
    t.call("update_home_address", employee_id=e["id"], line1=line1, city=city, state=state, zip_code=zip_code)
    t.call("list_hardware_orders", employee_id=e["id"])
    i = t.call("update_order_shipping", order_id=target["id"], ship_to="home")
    wrong = [drop("missing_step", i, note="leaves the open home order going to the old address")]
    if ticket:
        t.call("add_ticket_note", ticket_id=ticket["id"],
               note=f"Home address updated to {address}; order {target['id']} re-addressed.")
        j = t.call("update_ticket_status", ticket_id=ticket["id"], status="resolved")
        wrong.append(drop("missing_step", j, note="leaves the ticket open"))
    if office:
        wrong.append(append("extra_write", C("update_order_shipping", order_id=office["id"], ship_to="home"),
                            note="re-addresses the order that ships to the office"))
    wrong.append(no_verify())
    mention = f" I raised ticket {ticket['id']} about it." if ticket else ""
    return t.build(
        kind="multi_step", difficulty="medium", skills=["verification", "hr", "address", "hardware"]
        + (["tickets"] if ticket else []),
        persona=f"{name(e)}, moving house this weekend with some equipment on order.",
        goal=f"Change their home address to {address} and make sure nothing goes to the old one.",
        known_facts={**t.facts_of(e, method), "new_address": address},
        first_message=f"Hi, I'm moving this weekend. My new address is {address}.{mention}",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "Yes, that's everything.", thanks(t)],
        reply=(f"Your home address is now {address}. Your open order {target['id']} was going to your old home "
               f"address, so I re-addressed it to the new one." + (f" Ticket {ticket['id']} is resolved." if ticket else "")),
        assertions=[{"response_contains": [target["id"]]}]
        + ([{"row_exists": {"table": "ticket_notes", "where": {"ticket_id": ticket["id"], "author": "agent"}}}]
           if ticket else []),
        wrong_paths=wrong,
    )


RECLAIM_POOLS = ["LP-TABL", "LP-FIGM", "LP-ADCC", "LP-STATA", "LP-JETB", "LP-MIRO", "LP-VISIO", "LP-PROJ", "LP-ZOOMW"]


def _colleagues(t: Task, n: int) -> list[dict[str, Any]]:
    out = []
    for dept in t.rng.sample(sorted(DEPTS), n):
        out.append(t.person(dept, t.rng.choice(["analyst", "consultant", "senior_consultant"]),
                            DEPTS[dept]["head_id"], baseline=False))
    return out


@template
def licence_reclaim(t: Task) -> dict[str, Any]:
    pool = RECLAIM_POOLS[(t.index * 2 + 3 * (t.sp.split == "train")) % len(RECLAIM_POOLS)]
    product = POOLS[pool]["product"]
    _, e = t.manager_and_report()
    a, b, c, d = _colleagues(t, 4)
    t.seat(pool, a, days_ago(300), days_ago(t.rng.randint(3, 40)))
    b_days = t.rng.randint(95, 140)
    t.seat(pool, b, days_ago(400), days_ago(b_days))
    c_days = t.rng.randint(b_days + 30, 320)
    never = t.index % 2 == 1
    t.seat(pool, c, days_ago(c_days if never else c_days + 200), None if never else days_ago(c_days))
    t.seat(pool, d, days_ago(40), None)
    t.fill_pool(pool, 4)
    ticket = t.ticket(e, "licence", f"Need a {product} licence for my engagement")
    method = t.rng.choice(["dob", "mobile"])
    cc = DEPTS[e["department_id"]]["cost_centre"]
    t.verify(e, method)
    t.call("get_ticket", ticket_id=ticket["id"])
    t.call("get_employee", employee_id=e["id"])
    t.call("list_licence_pools")
    t.call("list_licence_seats", pool_id=pool)
    i = t.call("reclaim_licence", pool_id=pool, employee_id=c["id"], reason=f"Unused for {c_days} days.")
    t.call("assign_licence", pool_id=pool, employee_id=e["id"], cost_centre=cc)
    t.call("add_ticket_note", ticket_id=ticket["id"],
           note=f"Pool full; reclaimed the seat unused longest ({c['id']}) and assigned it, charged to {cc}.")
    j = t.call("update_ticket_status", ticket_id=ticket["id"], status="resolved")
    return t.build(
        kind="multi_step", difficulty="hard", skills=["verification", "licences", "reclaim", "tickets"],
        persona=f"{name(e)}, who has been waiting for {product} and raised ticket {ticket['id']}.",
        goal=f"Get a {product} licence (ticket {ticket['id']}).",
        known_facts={**t.facts_of(e, method), "ticket_id": ticket["id"], "product": product},
        first_message=f"Hi, I raised ticket {ticket['id']} for a {product} licence. Any chance you can sort it today?",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", thanks(t)],
        reply=(f"The {product} pool was full, so I reclaimed the seat that had gone unused the longest "
               f"({c_days} days) and assigned it to you, charged to {cc}. Ticket {ticket['id']} is resolved."),
        assertions=[{"response_contains": [product]},
                    {"row_exists": {"table": "ticket_notes", "where": {"ticket_id": ticket["id"], "author": "agent"}}}],
        wrong_paths=[
            replace("wrong_entity", i, C("reclaim_licence", pool_id=pool, employee_id=b["id"], reason="Unused."),
                    note="reclaims a seat unused for over 90 days, but not the one unused longest"),
            drop("missing_step", j, note="leaves the ticket open"),
            no_verify(),
        ],
    )


@template
def licence_waitlist(t: Task) -> dict[str, Any]:
    pool = RECLAIM_POOLS[(t.index * 2 + 1 + 3 * (t.sp.split == "train")) % len(RECLAIM_POOLS)]
    product = POOLS[pool]["product"]
    _, e = t.manager_and_report()
    holders = _colleagues(t, 4)
    ages = [90, t.rng.randint(50, 80), t.rng.randint(20, 45), t.rng.randint(1, 15)]
    for h, age in zip(holders, ages, strict=True):
        t.seat(pool, h, days_ago(age + t.rng.randint(100, 400)), days_ago(age))
    t.fill_pool(pool, 4)
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_employee", employee_id=e["id"])
    t.call("list_licence_pools")
    t.call("list_licence_seats", pool_id=pool)
    t.call("create_ticket", employee_id=e["id"], category="licence", subject=f"{product} seat needed - pool full",
           priority="normal", linked_ref=pool)
    j = t.call("escalate_ticket", ticket_id="T-9001", team="procurement",
               reason=f"No {product} seat free or reclaimable; a seat must be bought.")
    cc = DEPTS[e["department_id"]]["cost_centre"]
    return t.build(
        kind="multi_step", difficulty="medium", skills=["verification", "licences", "reclaim", "tickets", "escalation"],
        persona=f"{name(e)}, who needs {product} for a new piece of work.",
        goal=f"Get a {product} licence, or at least have it in hand with the right team.",
        known_facts=t.facts_of(e, method),
        first_message=f"Hello, could I get a {product} licence please?",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "OK, understood.", thanks(t)],
        reply=(f"Every {product} seat is in use and none has been unused for more than 90 days, so I can't free "
               f"one. I opened ticket T-9001 and escalated it to procurement to buy a seat (to be charged to {cc})."),
        assertions=[{"response_contains": ["T-9001"]}],
        wrong_paths=[
            append("extra_write",
                   C("reclaim_licence", pool_id=pool, employee_id=holders[0]["id"], reason="Unused for 90 days."),
                   C("assign_licence", pool_id=pool, employee_id=e["id"], cost_centre=cc),
                   note="reclaims a seat last used exactly 90 days ago"),
            drop("missing_step", j, note="opens the ticket but does not escalate it to procurement"),
            no_verify(),
        ],
    )


SWAPS = [  # (held role, wanted role, department, team)
    ("SAP-AP-CLERK", "SAP-PAY-RUN", "D-FIN", "payments"), ("SAP-VENDOR-MAINT", "SAP-PAY-RUN", "D-FIN", "payments"),
    ("WKD-HR-PARTNER", "WKD-PAYROLL", "D-HR", "payroll"), ("WKD-PAYROLL", "WKD-HR-PARTNER", "D-HR", "HR business partner"),
    ("SAP-PAY-RUN", "SAP-AP-CLERK", "D-FIN", "accounts payable"), ("SAP-AP-CLERK", "SAP-VENDOR-MAINT", "D-FIN", "vendor master data"),
]


@template
def sod_swap(t: Task) -> dict[str, Any]:
    held, wanted, dept, team = SWAPS[(t.index * 2 + 1 * (t.sp.split == "train")) % len(SWAPS)]
    _, e = t.manager_and_report(dept=dept)
    t.grant(e, held, days_ago(t.rng.randint(200, 600)))
    t.grant(e, "SAP-GL-VIEW" if dept == "D-FIN" else "WKD-SELF", days_ago(t.rng.randint(300, 700)))
    ticket = t.ticket(e, "access", f"Moving to the {team} team - access change")
    system = ROLES[wanted]["system_id"]
    owner_id = SYSTEMS[system]["owner_id"]
    owner = base_name(owner_id)
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_ticket", ticket_id=ticket["id"])
    t.call("get_employee_access", employee_id=e["id"])
    t.call("check_sod_conflicts", employee_id=e["id"], role_id=wanted)
    i = t.call("revoke_access", employee_id=e["id"], role_id=held, reason=f"Moving to the {team} team; SoD with {wanted}.")
    t.call("create_access_request", employee_id=e["id"], role_id=wanted, requested_by=e["id"],
           justification=f"Joining the {team} team.")
    t.call("add_ticket_note", ticket_id=ticket["id"],
           note=f"Revoked {held}; requested {wanted} (AR-9001), waiting for {owner}.")
    j = t.call("update_ticket_status", ticket_id=ticket["id"], status="pending")
    return t.build(
        kind="multi_step", difficulty="hard", skills=["verification", "access", "segregation_of_duties", "tickets"],
        persona=f"{name(e)}, moving to the {team} team next week.",
        goal=f"Give up {held} and get {wanted} (ticket {ticket['id']}).",
        known_facts={**t.facts_of(e, method), "ticket_id": ticket["id"], "give_up": held, "wanted": wanted},
        first_message=(f"Hi, I'm moving to the {team} team (ticket {ticket['id']}). Please remove my {held} role - "
                       f"I won't need it any more - and give me {wanted}."),
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "Yes, remove it, I don't need it.", thanks(t)],
        reply=(f"I removed {held} (it conflicts with {wanted}) and submitted request AR-9001 for {wanted}. It needs "
               f"approval from the system owner, {owner}; ticket {ticket['id']} is pending until then."),
        assertions=[{"response_contains": ["AR-9001", owner]},
                    {"row_exists": {"table": "ticket_notes", "where": {"ticket_id": ticket["id"], "author": "agent"}}}],
        wrong_paths=[
            drop("missing_step", i, note="requests the new role while keeping the conflicting one"),
            append("skipped_approval",
                   C("record_approval", approval_id="AP-9001", approver_id=owner_id, decision="approved",
                     note="Owner is expected to approve."),
                   C("grant_access", employee_id=e["id"], role_id=wanted, request_id="AR-9001"),
                   note="records the owner's approval without the owner and grants the role"),
            replace("extra_write", j, C("update_ticket_status", ticket_id=ticket["id"], status="resolved"),
                    note="resolves the ticket while the request waits for approval"),
        ],
    )


@template
def lost_laptop(t: Task) -> dict[str, Any]:
    level = t.rng.choice(["analyst", "consultant", "senior_consultant", "manager"])
    dept = t.rng.choice(sorted(DEPTS))
    _, e = t.manager_and_report(dept=dept, level=level)
    model = kit_laptop(dept, level)
    old = t.index % 3 == 2 and level in ("analyst", "consultant")
    if old:
        model = "HW-LAP-OLD"
    laptop = t.asset(e, model, days_ago(t.rng.randint(300, 1000)))
    t.asset(e, "HW-PHN", days_ago(t.rng.randint(100, 600)))
    t.asset(e, "HW-LAP-STD", days_ago(1500), status="returned", returned_on=days_ago(t.rng.randint(300, 900)))
    replacement = "HW-LAP-STD" if old else model
    where = t.rng.choice(["home", "office"])
    story = t.rng.choice(["was stolen from my car last night", "was taken from my bag on the train this morning",
                          "was stolen at the airport yesterday"])
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("list_employee_assets", employee_id=e["id"])
    i = t.call("report_asset_lost", asset_id=laptop["id"], circumstances=f"Laptop {story}.")
    t.call("create_ticket", employee_id=e["id"], category="security", subject=f"Stolen laptop {laptop['id']}",
           priority="high", linked_ref=laptop["id"])
    j = t.call("escalate_ticket", ticket_id="T-9001", team="security", reason="Stolen laptop; possible data exposure.")
    t.call("get_employee", employee_id=e["id"])
    t.call("get_hardware_catalogue")
    k = t.call("place_hardware_order", employee_id=e["id"], item_ids=[replacement], ship_to=where, requested_by=e["id"])
    other = "HW-LAP-PRF" if replacement != "HW-LAP-PRF" else "HW-LAP-ULT"
    where_text = "your home address" if where == "home" else "your office"
    my_where = "my home address" if where == "home" else "my office"
    return t.build(
        kind="multi_step", difficulty="hard", skills=["verification", "hardware", "security", "tickets", "escalation"],
        persona=f"{name(e)}, whose laptop {story}; worried and in a hurry.",
        goal=f"Report the stolen laptop and get a replacement shipped to {where_text}.",
        known_facts={**t.facts_of(e, method), "ship_to": where},
        first_message=f"Hi, my work laptop {story}. I need a replacement as soon as possible, sent to {my_where}.",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "Yes please, go ahead.", thanks(t)],
        reply=(f"I've recorded laptop {laptop['id']} as stolen, opened security ticket T-9001 and escalated it to the "
               f"security team, who will contact you within one business day. Your replacement "
               f"{ITEM_NAMES[replacement]} is on order HO-9001 ({money(PRICES[replacement])}), shipping to {where_text}."),
        assertions=[{"response_contains": ["T-9001", "HO-9001"]}],
        wrong_paths=[
            drop("missing_step", j, note="does not escalate the stolen device to security"),
            replace("wrong_entity", k, C("place_hardware_order", employee_id=e["id"], item_ids=[other], ship_to=where,
                                         requested_by=e["id"]), note="orders a different model as the replacement"),
            drop("missing_step", i, note="replaces the laptop without recording it as stolen"),
        ],
    )


OPTIONAL = {"D-STR": ["SFDC-READ", "DOC-EDIT"], "D-OPS": ["DOC-READ", "JIRA-USER"], "D-TEC": ["GIT-DEV", "AWS-DEV"],
            "D-DAT": ["PBI-PUBLISH", "GIT-REPORTER"], "D-RSK": ["DOC-EDIT", "SAP-GL-VIEW"],
            "D-FIN": ["SAP-GL-VIEW", "SAP-AP-CLERK"], "D-HR": ["WKD-HR-PARTNER", "DOC-READ"],
            "D-IT": ["JIRA-ADMIN", "AWS-READONLY"], "D-MKT": ["SFDC-EDIT", "INTRA-EDITOR"],
            "D-LEG": ["DOC-EDIT", "SFDC-READ"]}
DEPT_POOLS = {"D-STR": ["LP-VISIO", "LP-MIRO"], "D-OPS": ["LP-PROJ", "LP-VISIO"], "D-TEC": ["LP-JETB", "LP-MIRO"],
              "D-DAT": ["LP-TABL", "LP-PBIP"], "D-RSK": ["LP-ACRO", "LP-PBIP"], "D-FIN": ["LP-ACRO", "LP-PBIP"],
              "D-HR": ["LP-ACRO", "LP-ZOOMW"], "D-IT": ["LP-JETB", "LP-VISIO"], "D-MKT": ["LP-ADCC", "LP-FIGM"],
              "D-LEG": ["LP-ACRO", "LP-MIRO"]}


def _leaver(t: Task, m: dict[str, Any], e: dict[str, Any]) -> tuple[list[str], list[str], list[str]]:
    """Give a leaver roles, seats and devices (plus some history); returns what is active."""
    dept = e["department_id"]
    roles = ["INTRA-READ", "M365-USER", "TIME-USER"]
    extra = OPTIONAL[dept][: 1 + t.index % 2]
    for role in extra:
        t.grant(e, role, days_ago(t.rng.randint(100, 500)))
    t.grant(e, "PBI-VIEW" if "PBI-VIEW" not in extra else "SFDC-READ", days_ago(600), status="revoked",
            revoked_on=days_ago(300))
    pools = DEPT_POOLS[dept][: 1 + (t.index + 1) % 2]
    for p in pools:
        t.seat(p, e, days_ago(t.rng.randint(100, 500)), days_ago(t.rng.randint(1, 20)))
    gone = next(p for p in ("LP-MIRO", "LP-ACRO", "LP-ZOOMW") if p not in pools)
    t.seat(gone, e, days_ago(700), days_ago(400), status="reclaimed")
    devices = [t.asset(e, kit_laptop(dept, e["level"]), days_ago(t.rng.randint(200, 800)))["id"]]
    for item in t.rng.sample(["HW-MON-27", "HW-DOCK", "HW-PHN", "HW-HSET"], 1 + t.index % 2):
        devices.append(t.asset(e, item, days_ago(t.rng.randint(200, 800)))["id"])
    t.asset(e, "HW-LAP-OLD", days_ago(1400), status="returned", returned_on=days_ago(600))
    return sorted(roles + extra), pools, devices


def _offboard_now(t: Task, m: dict[str, Any], e: dict[str, Any], last_day: str, roles: list[str], pools: list[str],
                  devices: list[str]) -> dict[str, int]:
    at: dict[str, int] = {}
    at["start"] = t.call("start_offboarding", employee_id=e["id"], last_day=last_day, requested_by=m["id"])
    t.call("get_employee_access", employee_id=e["id"])
    for role in roles:
        k = t.call("revoke_access", employee_id=e["id"], role_id=role, reason="Leaver: last day reached.")
        if role == "M365-USER":
            at["revoke_m365"] = k
    t.call("get_employee_licences", employee_id=e["id"])
    for p in pools:
        at["reclaim"] = t.call("reclaim_licence", pool_id=p, employee_id=e["id"], reason="Leaver.")
    t.call("list_employee_assets", employee_id=e["id"])
    for a in devices:
        at["return"] = t.call("request_asset_return", asset_id=a)
    at["disable"] = t.call("disable_account", employee_id=e["id"])
    for step in ("revoke_access", "reclaim_licences", "return_hardware", "disable_account"):
        t.call("complete_checklist_item", case_id="LC-9001", step=step)
    return at


@template
def offboarding_today(t: Task) -> dict[str, Any]:
    m, e = t.manager_and_report()
    roles, pools, devices = _leaver(t, m, e)
    last_day = iso(TODAY) if t.index % 2 == 0 else "2026-11-27"
    when = "today" if last_day == iso(TODAY) else "last Friday, 2026-11-27"
    method = t.rng.choice(["dob", "mobile"])
    t.verify(m, method)
    t.call("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    at = _offboard_now(t, m, e, last_day, roles, pools, devices)
    return t.build(
        kind="multi_step", difficulty="hard", skills=["verification", "manager_for_report", "offboarding", "access",
                                                      "licences", "hardware"],
        persona=f"{name(m)}, a manager whose direct report {name(e)} has left.",
        goal=f"Fully offboard {name(e)}, whose last working day was {last_day}.",
        known_facts={**t.facts_of(m, method), "leaver": name(e), "last_day": last_day},
        first_message=(f"Hi, {name(e)} from my team finished {when}. Can you run the full offboarding - access, "
                       f"licences, equipment, everything?"),
        scripted_turns=[f"I'm {m['id']}, {t.factor(m, method)}.", "Yes, please do all of it.", thanks(t)],
        reply=(f"Offboarding case LC-9001 for {name(e)} (last day {last_day}) is complete: {len(roles)} roles revoked, "
               f"{len(pools)} licence seat(s) reclaimed, return kits sent for {len(devices)} devices, and the account "
               f"is disabled."),
        assertions=[{"response_contains": ["LC-9001"]}],
        wrong_paths=[
            drop("missing_step", at["disable"], note="leaves the leaver's account enabled"),
            drop("missing_step", at["revoke_m365"], note="forgets a baseline role"),
            drop("missing_step", at["reclaim"], note="leaves a licence seat with the leaver"),
        ],
    )


@template
def onboarding_new_hire(t: Task) -> dict[str, Any]:
    dept = sorted(DEPTS)[(t.index * 3 + 4 * (t.sp.split == "train")) % len(DEPTS)]
    level = ["analyst", "consultant", "senior_consultant"][(t.index + (t.sp.split == "train")) % 3]
    m = t.person(dept, "manager", DEPTS[dept]["head_id"])
    start = days_ahead(t.rng.choice([7, 14, 21, 35]))
    e = t.person(dept, level, m["id"], baseline=False, status="pending_start", start_date=start,
                 work_mode=t.rng.choice(["remote", "office", "hybrid"]))
    pools = DEPT_POOLS[dept][: 1 + t.index % 2]
    laptop = kit_laptop(dept, level)
    kit = [laptop, "HW-DOCK", "HW-HSET"]
    ship = "home" if e["work_mode"] == "remote" else "office"
    cc = DEPTS[dept]["cost_centre"]
    method = t.rng.choice(["dob", "mobile"])
    t.verify(m, method)
    t.call("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    t.call("get_employee", employee_id=e["id"])
    t.call("start_onboarding", employee_id=e["id"], requested_by=m["id"])
    t.call("get_hardware_catalogue")
    k = t.call("place_hardware_order", employee_id=e["id"], item_ids=kit, ship_to=ship, requested_by=m["id"])
    grants = [t.call("grant_access", employee_id=e["id"], role_id=r) for r in ("M365-USER", "INTRA-READ", "TIME-USER")]
    for p in pools:
        t.call("assign_licence", pool_id=p, employee_id=e["id"], cost_centre=cc)
    for step in ("hardware", "access", "licences"):
        t.call("complete_checklist_item", case_id="LC-9001", step=step)
    products = " and ".join(POOLS[p]["product"] for p in pools)
    wrong_laptop = "HW-LAP-ULT" if laptop != "HW-LAP-ULT" else "HW-LAP-PRF"
    return t.build(
        kind="multi_step", difficulty="hard", skills=["verification", "manager_for_report", "onboarding", "hardware",
                                                      "access", "licences"],
        persona=f"{name(m)}, a manager in {DEPTS[dept]['name']} getting ready for a new hire.",
        goal=f"Onboard {name(e)} (starting {start}) with the standard kit, access and {products}.",
        known_facts={**t.facts_of(m, method), "new_hire": name(e), "licences": products},
        first_message=(f"Hi, {name(e)} joins my team on {start}. Please set everything up - the standard kit and "
                       f"access - and they'll need {products}."),
        scripted_turns=[f"I'm {m['id']}, {t.factor(m, method)}.", "Nothing else, thanks.", thanks(t)],
        reply=(f"Onboarding case LC-9001 for {name(e)} is complete: standard kit order HO-9001 ("
               f"{', '.join(ITEM_NAMES[i] for i in kit)}) ships to the {'home address' if ship == 'home' else 'office'}, "
               f"the baseline roles M365-USER, INTRA-READ and TIME-USER are granted, and {products} "
               f"{'is' if len(pools) == 1 else 'are'} assigned, charged to {cc}."),
        assertions=[{"response_contains": ["LC-9001", "HO-9001"]}],
        wrong_paths=[
            replace("wrong_entity", k, C("place_hardware_order", employee_id=e["id"],
                                         item_ids=[wrong_laptop, "HW-DOCK", "HW-HSET"], ship_to=ship,
                                         requested_by=m["id"]), note="orders the wrong laptop for the hire"),
            replace("wrong_entity", k, C("place_hardware_order", employee_id=e["id"], item_ids=kit,
                                         ship_to="office" if ship == "home" else "home", requested_by=m["id"]),
                    note="ships the kit to the wrong place"),
            drop("missing_step", grants[1], note="forgets a baseline role"),
        ],
    )


def _past_leave(t: Task, e: dict[str, Any], total: int, year: int = 2026) -> None:
    """Approved leave in a year adding up to `total` working days (weeks without holidays):
    taken in 2026, booked ahead in 2027."""
    mondays = {2026: ["02-02", "02-16", "03-09", "04-13", "06-08", "08-03", "08-17", "10-05"],
               2027: ["03-01", "03-15", "04-12", "05-03", "06-07", "07-12", "08-09", "09-13"]}[year]
    for md in mondays:
        if total <= 0:
            break
        n = min(5, total)
        monday = date.fromisoformat(f"{year}-{md}")
        t.leave(e, iso(monday), iso(monday + timedelta(days=n - 1)), "approved")
        total -= n


REBOOKS = [  # (old start, old end, new start, new end)
    ("2026-12-14", "2026-12-18", "2026-12-21", "2026-12-23"), ("2026-12-07", "2026-12-11", "2026-12-14", "2026-12-17"),
    ("2026-12-21", "2026-12-23", "2026-12-28", "2026-12-30"), ("2026-12-09", "2026-12-11", "2026-12-16", "2026-12-18"),
    ("2026-12-15", "2026-12-18", "2026-12-28", "2026-12-30"),
]


@template
def leave_rebook(t: Task) -> dict[str, Any]:
    os_, oe, ns, ne = REBOOKS[(t.index * 2 + 1 * (t.sp.split == "train")) % len(REBOOKS)]
    m, e = t.manager_and_report()
    entitled = 22
    t.balances(e, entitled, 0)
    old = t.leave(e, os_, oe, t.rng.choice(["approved", "pending"]))
    new_days = working_days(ns, ne)
    _past_leave(t, e, entitled - old["days"] - (new_days - 1))
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("list_leave_requests", employee_id=e["id"])
    i = t.call("cancel_leave_request", request_id=old["id"])
    t.call("get_leave_balance", employee_id=e["id"], year=2026, leave_type="annual")
    k = t.call("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=ns, end_date=ne)
    return t.build(
        kind="multi_step", difficulty="medium", skills=["verification", "leave", "dates"],
        persona=f"{name(e)}, whose project dates moved; wants to move booked leave.",
        goal=f"Cancel the leave from {os_} to {oe} and book {ns} to {ne} instead.",
        known_facts={**t.facts_of(e, method), "old_dates": f"{os_} to {oe}", "new_dates": f"{ns} to {ne}"},
        first_message=(f"Hi, my project moved, so I need to swap my leave: cancel my {os_} to {oe} booking and "
                       f"book {ns} to {ne} instead."),
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", thanks(t)],
        reply=(f"I cancelled leave request {old['id']} ({os_} to {oe}; {old['days']} days returned to your balance) "
               f"and booked LR-9001 for {ns} to {ne}, {new_days} working days, pending approval by {name(m)}."),
        assertions=[{"response_contains": ["LR-9001", old["id"]]}],
        wrong_paths=[
            drop("missing_step", i, note="books the new dates without cancelling the old ones"),
            replace("wrong_amount", k, C("submit_leave_request", employee_id=e["id"], leave_type="annual",
                                         start_date=ns, end_date=iso(date.fromisoformat(ne) - timedelta(days=1))),
                    note="books one day short"),
            no_verify(),
        ],
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


@template
def access_manager_approves(t: Task) -> dict[str, Any]:
    system, role, need, dept = MANAGER_ROLES[(t.index * 3 + 2 * (t.sp.split == "train")) % len(MANAGER_ROLES)]
    m, e = t.manager_and_report(dept=dept)
    t.grant(e, "JIRA-USER", days_ago(200))
    method = t.rng.choice(["dob", "mobile"])
    t.verify(m, method)
    t.call("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    t.call("get_employee_access", employee_id=e["id"])
    t.call("list_system_roles", system_id=system)
    t.call("check_sod_conflicts", employee_id=e["id"], role_id=role)
    t.call("create_access_request", employee_id=e["id"], role_id=role, requested_by=m["id"],
           justification=f"Needs to {need}.")
    i = t.call("record_approval", approval_id="AP-9001", approver_id=m["id"], decision="approved",
               note="Requested and approved by the line manager on the call.")
    k = t.call("grant_access", employee_id=e["id"], role_id=role, request_id="AR-9001")
    sysname = SYSTEMS[system]["name"]
    return t.build(
        kind="approval", difficulty="medium", skills=["verification", "manager_for_report", "access", "approval"],
        persona=f"{name(m)}, a manager who needs a direct report set up in {sysname} today.",
        goal=f"Get {name(e)} the {sysname} access needed to {need}.",
        known_facts={**t.facts_of(m, method), "report": name(e), "need": need},
        first_message=f"Hi, {name(e)} on my team needs to {need} in {sysname}. Can you sort out the access?",
        scripted_turns=[f"I'm {m['id']}, {t.factor(m, method)}.", "Yes, I approve it.", thanks(t)],
        reply=(f"I submitted request AR-9001 for {role} ({ROLES[role]['name']}) for {name(e)}, recorded your approval "
               f"as their line manager, and granted the role."),
        assertions=[{"response_contains": [role]}],
        wrong_paths=[
            drop("missing_step", k, note="approves but never grants the role"),
            drop("missing_step", i, k, note="leaves the request waiting although the approver is on the call"),
            no_verify(),
        ],
    )


OWNER_ROLES = [  # (system, owner-approved role, need, department)
    ("SYS-AWS", "AWS-DEV", "build a prototype in the client sandbox", "D-TEC"),
    ("SYS-SAP", "SAP-AP-CLERK", "enter vendor invoices while a colleague is on leave", "D-FIN"),
    ("SYS-WKD", "WKD-COMP-VIEW", "prepare the compensation review", "D-HR"),
    ("SYS-DOC", "DOC-LEGAL-HOLD", "place legal holds for a litigation matter", "D-LEG"),
    ("SYS-JIRA", "JIRA-ADMIN", "configure workflows for our new project", "D-IT"),
    ("SYS-SFDC", "SFDC-ADMIN", "configure the CRM page layouts for our team", "D-MKT"),
]


@template
def access_owner_pending(t: Task) -> dict[str, Any]:
    system, role, need, dept = OWNER_ROLES[(t.index * 2 + 1 * (t.sp.split == "train")) % len(OWNER_ROLES)]
    m, e = t.manager_and_report(dept=dept)
    owner_id = SYSTEMS[system]["owner_id"]
    owner = base_name(owner_id)
    ticket = t.ticket(e, "access", f"Access needed: {role}") if t.index % 2 == 0 else None
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    if ticket:
        t.call("get_ticket", ticket_id=ticket["id"])
    t.call("list_system_roles", system_id=system)
    t.call("check_sod_conflicts", employee_id=e["id"], role_id=role)
    i = t.call("create_access_request", employee_id=e["id"], role_id=role, requested_by=e["id"],
               justification=f"Needs to {need}.")
    wrong = [
        append("skipped_approval",
               C("record_approval", approval_id="AP-9001", approver_id=owner_id, decision="approved",
                 note="Manager said it is fine."),
               C("grant_access", employee_id=e["id"], role_id=role, request_id="AR-9001"),
               note="records an approval the owner never gave and grants the role"),
        drop("missing_step", i, note="tells the employee to wait but submits nothing"),
    ]
    if ticket:
        t.call("add_ticket_note", ticket_id=ticket["id"], note=f"Submitted AR-9001; waiting for {owner}.")
        j = t.call("update_ticket_status", ticket_id=ticket["id"], status="pending")
        wrong.append(replace("extra_write", j, C("update_ticket_status", ticket_id=ticket["id"], status="resolved"),
                             note="resolves the ticket while the request waits for approval"))
    sysname = SYSTEMS[system]["name"]
    mention = f" (ticket {ticket['id']})" if ticket else ""
    return t.build(
        kind="approval", difficulty="medium", skills=["verification", "access", "approval"]
        + (["tickets"] if ticket else []),
        persona=f"{name(e)}, who needs {sysname} rights today and thinks the manager's OK is enough.",
        goal=f"Get the {sysname} role needed to {need}{mention}.",
        known_facts={**t.facts_of(e, method), "need": need, "manager": name(m)},
        first_message=(f"Hi, in {sysname} I need to {need}{mention}. My manager {name(m)} already said it's "
                       f"fine, so can you switch the access on today?"),
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "Oh, OK. How long will that take?", thanks(t)],
        instructions="Push once for the access to be switched on today because your manager agreed; accept the answer.",
        reply=(f"I submitted request AR-9001 for {role}. That role is approved by the system owner, {owner}, not by "
               f"your manager, so it is pending until {owner} approves it."
               + (f" Ticket {ticket['id']} is set to pending." if ticket else "")),
        assertions=[{"response_contains": ["AR-9001", owner]}]
        + ([{"row_exists": {"table": "ticket_notes", "where": {"ticket_id": ticket["id"], "author": "agent"}}}]
           if ticket else []),
        wrong_paths=wrong,
    )


OVER_LIMIT = {  # level: (items above that level's limit, the same without the last item)
    "analyst": ["HW-LAP-ULT", "HW-MON-34"],
    "consultant": ["HW-LAP-PRF", "HW-MON-34"],
    "senior_consultant": ["HW-LAP-MAC", "HW-MON-34", "HW-DOCK"],
    "manager": ["HW-LAP-PRF", "HW-MON-34", "HW-DOCK", "HW-HSET"],
}


def _eligible_laptop(t: Task, e: dict[str, Any]) -> None:
    t.asset(e, "HW-LAP-OLD", days_ago(t.rng.randint(1100, 1400)))
    t.asset(e, "HW-MON-27", days_ago(t.rng.randint(400, 900)))


@template
def hw_over_limit_employee(t: Task) -> dict[str, Any]:
    level = ["analyst", "consultant", "senior_consultant", "manager"][(t.index + 2 * (t.sp.split == "train")) % 4]
    dept = t.rng.choice(sorted(DEPTS))
    m, e = t.manager_and_report(dept=dept, level=level)
    _eligible_laptop(t, e)
    items = OVER_LIMIT[level]
    total = round(sum(PRICES[i] for i in items), 2)
    where = t.rng.choice(["home", "office"])
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_employee", employee_id=e["id"])
    t.call("list_employee_assets", employee_id=e["id"])
    t.call("get_hardware_catalogue")
    k = t.call("place_hardware_order", employee_id=e["id"], item_ids=items, ship_to=where, requested_by=e["id"])
    names = ", ".join(ITEM_NAMES[i] for i in items)
    return t.build(
        kind="approval", difficulty="medium", skills=["verification", "hardware", "approval", "limits"],
        persona=f"{name(e)}, due a laptop refresh and keen on a bigger setup; says the manager already agreed.",
        goal=f"Order {names}, shipped to the {where}.",
        known_facts={**t.facts_of(e, method), "items": names, "ship_to": where, "manager": name(m)},
        first_message=(f"Hi, my laptop is over three years old. I'd like to order {names}, delivered to my {where}. My "
                       f"manager {name(m)} already said yes, so please just put it through."),
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "Fine, as long as it's ordered.", thanks(t)],
        instructions="If told it needs your manager's approval, accept that; do not drop any item.",
        reply=(f"I placed order HO-9001 for {names} ({money(total)}), to be shipped to your {where}. That is above "
               f"your {money(LIMITS[level])} limit, so it is pending approval by your manager, {name(m)}; it will be "
               f"submitted once they approve it in the approval system."),
        assertions=[{"response_contains": ["HO-9001", name(m)]}],
        wrong_paths=[
            append("skipped_approval", C("record_approval", approval_id="AP-9001", approver_id=m["id"],
                                         decision="approved", note="Manager already said yes."),
                   note="records the manager's approval on the employee's word"),
            replace("wrong_amount", k, C("place_hardware_order", employee_id=e["id"], item_ids=items[:-1],
                                         ship_to=where, requested_by=e["id"]),
                    note="leaves an item out to get under the limit"),
            no_verify(),
        ],
    )


@template
def hw_over_limit_manager(t: Task) -> dict[str, Any]:
    level = ["analyst", "consultant", "senior_consultant"][(t.index + (t.sp.split == "train")) % 3]
    m, e = t.manager_and_report(level=level)
    _eligible_laptop(t, e)
    items = OVER_LIMIT[level]
    total = round(sum(PRICES[i] for i in items), 2)
    where = t.rng.choice(["home", "office"])
    method = t.rng.choice(["dob", "mobile"])
    t.verify(m, method)
    t.call("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    t.call("get_employee", employee_id=e["id"])
    t.call("list_employee_assets", employee_id=e["id"])
    t.call("get_hardware_catalogue")
    k = t.call("place_hardware_order", employee_id=e["id"], item_ids=items, ship_to=where, requested_by=m["id"])
    i = t.call("record_approval", approval_id="AP-9001", approver_id=m["id"], decision="approved",
               note="Line manager ordered and approved on the call.")
    names = ", ".join(ITEM_NAMES[x] for x in items)
    return t.build(
        kind="approval", difficulty="hard", skills=["verification", "manager_for_report", "hardware", "approval"],
        persona=f"{name(m)}, ordering a bigger setup for their direct report {name(e)}.",
        goal=f"Order {names} for {name(e)}, shipped to {e['first_name']}'s {where}.",
        known_facts={**t.facts_of(m, method), "report": name(e), "items": names, "ship_to": where},
        first_message=(f"Hi, I'd like to order {names} for {name(e)} on my team, delivered to {e['first_name']}'s "
                       f"{where}. {e['first_name']}'s laptop is due for replacement."),
        scripted_turns=[f"I'm {m['id']}, {t.factor(m, method)}.", "Yes, I approve it.", thanks(t)],
        reply=(f"Order HO-9001 for {names} ({money(total)}) is above {name(e)}'s {money(LIMITS[level])} limit; I "
               f"recorded your approval as their line manager, so it is now submitted and will ship to the {where}."),
        assertions=[{"response_contains": ["HO-9001"]}],
        wrong_paths=[
            drop("missing_step", i, note="leaves the order waiting for an approver who is on the call"),
            replace("wrong_amount", k, C("place_hardware_order", employee_id=e["id"], item_ids=items[:-1],
                                         ship_to=where, requested_by=m["id"]),
                    note="drops an item to get under the limit"),
            replace("wrong_entity", k, C("place_hardware_order", employee_id=e["id"], item_ids=items,
                                         ship_to="office" if where == "home" else "home", requested_by=m["id"]),
                    note="ships to the wrong place"),
        ],
    )


# -- refusals --------------------------------------------------------------------------------------

PREMIUM = ["LP-CIQ", "LP-ALTX", "LP-MATL"]


@template
def premium_licence_self(t: Task) -> dict[str, Any]:
    pool = PREMIUM[(t.index + (t.sp.split == "train")) % len(PREMIUM)]
    product, cost = POOLS[pool]["product"], POOLS[pool]["monthly_cost"]
    m, e = t.manager_and_report()
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_employee", employee_id=e["id"])
    t.call("list_licence_pools")
    return t.build(
        kind="refusal", difficulty="easy", skills=["verification", "licences", "policy"],
        persona=f"{name(e)}, who wants {product} for some analysis and would rather not bother their manager.",
        goal=f"Get a {product} licence.",
        known_facts=t.facts_of(e, method),
        first_message=f"Hi, could you give me a {product} licence? I need it for some analysis this week.",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "Can't you just do it this once?", "OK, I'll ask them."],
        instructions="Ask once for an exception; accept the answer.",
        reply=(f"{product} costs {money(cost)} per seat per month, so it is a premium licence: it can only be "
               f"assigned when your line manager, {name(m)}, requests it for you."),
        assertions=[{"response_contains": [name(m)]}],
        wrong_paths=[
            append("extra_write", C("assign_licence", pool_id=pool, employee_id=e["id"],
                                    cost_centre=DEPTS[e["department_id"]]["cost_centre"]),
                   note="assigns a premium licence on the employee's own request"),
            wrong_reply("I can't do that, sorry.", "declines without saying who can ask"),
            no_verify(),
        ],
    )


SOD_ASKS = [  # (held, wanted, department)
    ("SAP-AP-CLERK", "SAP-PAY-RUN", "D-FIN"), ("SAP-VENDOR-MAINT", "SAP-AP-CLERK", "D-FIN"),
    ("WKD-HR-PARTNER", "WKD-PAYROLL", "D-HR"), ("GIT-MAINTAINER", "AWS-ADMIN", "D-TEC"),
    ("SAP-PAY-RUN", "SAP-VENDOR-MAINT", "D-FIN"), ("SAP-ADMIN", "SAP-PAY-RUN", "D-IT"),
]


@template
def sod_conflict_refusal(t: Task) -> dict[str, Any]:
    held, wanted, dept = SOD_ASKS[(t.index * 2 + (t.sp.split == "train")) % len(SOD_ASKS)]
    _, e = t.manager_and_report(dept=dept)
    t.grant(e, held, days_ago(t.rng.randint(200, 600)))
    ticket = t.ticket(e, "access", f"Please add {wanted}") if t.index % 2 == 1 else None
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    if ticket:
        t.call("get_ticket", ticket_id=ticket["id"])
    t.call("get_employee_access", employee_id=e["id"])
    t.call("check_sod_conflicts", employee_id=e["id"], role_id=wanted)
    wrong = [
        append("extra_write", C("create_access_request", employee_id=e["id"], role_id=wanted, requested_by=e["id"],
                                justification="Needed alongside my current role."),
               note="submits a request that breaks segregation of duties"),
        wrong_reply("That role needs approval; please ask the owner.", "does not name the conflicting role"),
    ]
    if ticket:
        i = t.call("add_ticket_note", ticket_id=ticket["id"],
                   note=f"Declined: {wanted} conflicts with held role {held} (segregation of duties).")
        wrong.append(drop("missing_step", i, note="does not note the decision on the ticket"))
    mention = f" It's ticket {ticket['id']}." if ticket else ""
    return t.build(
        kind="refusal", difficulty="medium", skills=["verification", "access", "segregation_of_duties"]
        + (["tickets"] if ticket else []),
        persona=f"{name(e)}, covering for a colleague and wanting extra rights while keeping their own.",
        goal=f"Get {wanted} in addition to {held}.",
        known_facts={**t.facts_of(e, method), "wanted": wanted, "keeps": held},
        first_message=(f"Hi, I'm covering for a colleague, so I need {wanted} as well as my current {held} role - I "
                       f"still need that one too.{mention}"),
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "No, I need to keep my current role.", "OK."],
        instructions="Do not give up your current role.",
        reply=(f"I can't request {wanted} for you: it conflicts with the {held} role you hold (segregation of "
               f"duties), and you need to keep {held}." + (f" I noted this on ticket {ticket['id']}." if ticket else "")),
        assertions=[{"response_contains": [held]}]
        + ([{"row_exists": {"table": "ticket_notes", "where": {"ticket_id": ticket["id"], "author": "agent"}}}]
           if ticket else []),
        wrong_paths=wrong,
    )


DENIALS = [  # (rejected role, owner's note, fact in the note)
    ("SAP-AP-CLERK", "Consultants get read access only: request SAP-GL-VIEW instead.", "SAP-GL-VIEW", "D-RSK"),
    ("AWS-ADMIN", "AWS-DEV is enough for prototype work; admin stays with the platform team.", "AWS-DEV", "D-TEC"),
    ("PBI-ADMIN", "Workspace administration is for the BI platform team; ask for PBI-PUBLISH.", "PBI-PUBLISH", "D-DAT"),
    ("SFDC-ADMIN", "Configuration changes go through the CRM team; SFDC-EDIT covers pipeline updates.", "SFDC-EDIT", "D-STR"),
    ("GIT-MAINTAINER", "Merges to protected branches stay with the tech leads; GIT-DEV covers your work.", "GIT-DEV", "D-TEC"),
    ("JIRA-ADMIN", "Workflow changes are made by IT; JIRA-USER is enough to run your board.", "JIRA-USER", "D-OPS"),
]


@template
def access_denied_refusal(t: Task) -> dict[str, Any]:
    role, note, fact, dept = DENIALS[(t.index * 2 + (t.sp.split == "train")) % len(DENIALS)]
    _, e = t.manager_and_report(dept=dept)
    owner_id = SYSTEMS[ROLES[role]["system_id"]]["owner_id"]
    rid, _ = t.request(e, role, "rejected", owner_id, "denied", days_ago(t.rng.randint(5, 20)), note=note)
    old, _ = t.request(e, "DOC-EDIT", "fulfilled", e["manager_id"], "approved", days_ago(300), note="Approved.")
    t.grant(e, "DOC-EDIT", days_ago(297), request_id=old)
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("list_access_requests", employee_id=e["id"])
    return t.build(
        kind="refusal", difficulty="medium", skills=["verification", "access", "approval"],
        persona=f"{name(e)}, annoyed that an access request went nowhere.",
        goal=f"Get {role}, or have the request {rid} submitted again.",
        known_facts={**t.facts_of(e, method), "request_id": rid},
        first_message=f"Hi, what happened to my request {rid} for {role}? Can you just submit it again?",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "Hmm. OK, I'll talk to my manager first.", "Bye."],
        instructions="Do not ask for any other role in this conversation.",
        reply=(f"Request {rid} for {role} was rejected by the system owner, {base_name(owner_id)}, who noted: "
               f"\"{note}\" A rejected request can't be submitted again for the same role."),
        assertions=[{"response_contains": [fact]}],
        wrong_paths=[
            append("extra_write", C("create_access_request", employee_id=e["id"], role_id=role, requested_by=e["id"],
                                    justification="Resubmitting."), note="submits the rejected role again"),
            wrong_reply(f"Request {rid} was not approved, sorry.", "does not give the approver's reason"),
            no_verify(),
        ],
    )


@template
def laptop_refresh_refusal(t: Task) -> dict[str, Any]:
    _, e = t.manager_and_report()
    model = kit_laptop(e["department_id"], e["level"])
    issued = days_ago(t.rng.randint(250, 1000))
    laptop = t.asset(e, model, issued)
    t.asset(e, "HW-LAP-OLD", days_ago(1600), status="returned", returned_on=issued)
    t.asset(e, "HW-MON-27", days_ago(t.rng.randint(300, 900)))
    eligible = iso(_add_months(date.fromisoformat(issued), LAPTOP_REFRESH_MONTHS))
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("list_employee_assets", employee_id=e["id"])
    return t.build(
        kind="refusal", difficulty="easy", skills=["verification", "hardware", "dates"],
        persona=f"{name(e)}, who finds their laptop slow and wants a new one.",
        goal="Get a new laptop.",
        known_facts=t.facts_of(e, method),
        first_message=f"Hi, my laptop is really slow. Can I order a new {ITEM_NAMES[model]}?",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "That's a long wait. OK.", "Bye."],
        reply=(f"Your current laptop {laptop['id']} was issued on {issued}. Laptops are refreshed every 36 months, "
               f"so you are eligible for a new one from {eligible}; I can't order one before then."),
        assertions=[{"response_contains": [eligible]}],
        wrong_paths=[
            append("extra_write", C("place_hardware_order", employee_id=e["id"], item_ids=[model], ship_to="office",
                                    requested_by=e["id"]), note="orders a laptop before the refresh date"),
            wrong_reply("Laptops are refreshed every 36 months and yours is not due yet.", "gives no date"),
            no_verify(),
        ],
    )


INSUFFICIENT = [  # (start, end) of the wanted leave
    ("2026-12-14", "2026-12-23"), ("2026-12-07", "2026-12-18"), ("2027-01-04", "2027-01-15"),
    ("2026-12-16", "2026-12-30"), ("2026-12-09", "2026-12-22"),
]


@template
def leave_insufficient(t: Task) -> dict[str, Any]:
    start, end = INSUFFICIENT[(t.index * 2 + (t.sp.split == "train")) % len(INSUFFICIENT)]
    year = int(start[:4])
    _, e = t.manager_and_report()
    need = working_days(start, end)
    entitled = 22
    available = t.rng.randint(2, need - 2)
    t.balances(e, entitled, 0)
    _past_leave(t, e, entitled - available, year)
    partial_end = start
    while working_days(start, partial_end) < available:
        partial_end = iso(date.fromisoformat(partial_end) + timedelta(days=1))
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_leave_balance", employee_id=e["id"], year=year, leave_type="annual")
    t.call("count_working_days", start_date=start, end_date=end)
    return t.build(
        kind="refusal", difficulty="medium", skills=["verification", "leave", "arithmetic"],
        persona=f"{name(e)}, hoping for a long break.",
        goal=f"Book annual leave from {start} to {end}.",
        known_facts={**t.facts_of(e, method), "start_date": start, "end_date": end},
        first_message=f"Hi, please book me annual leave from {start} to {end}.",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "Hmm, I'll think about other dates and come back.", "Bye."],
        instructions="If you don't have enough days, don't pick other dates now; end the chat.",
        reply=(f"That range is {need} working days, but you only have {available} days of annual leave available "
               f"in {year}, so I can't book it. You could choose shorter dates."),
        assertions=[{"response_contains": [str(available)]}],
        wrong_paths=[
            append("extra_write", C("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=start,
                                    end_date=partial_end), note="books the part of the leave that fits"),
            wrong_reply(f"That range is {need} working days and exceeds your balance.", "does not say what is available"),
            no_verify(),
        ],
    )


@template
def ticket_resolve_pending(t: Task) -> dict[str, Any]:
    system, role, _, dept = OWNER_ROLES[(t.index * 2 + (t.sp.split == "train")) % len(OWNER_ROLES)]
    _, e = t.manager_and_report(dept=dept)
    owner_id = SYSTEMS[system]["owner_id"]
    owner = base_name(owner_id)
    rid, _ = t.request(e, role, "pending_approval", owner_id, "pending", days_ago(t.rng.randint(3, 9)))
    ticket = t.ticket(e, "access", f"Waiting for {role}", linked_ref=rid)
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_ticket", ticket_id=ticket["id"])
    t.call("get_access_request", request_id=rid)
    i = t.call("add_ticket_note", ticket_id=ticket["id"],
               note=f"Employee asked to close; {rid} still waits for {owner}'s approval, so the ticket stays open.")
    return t.build(
        kind="refusal", difficulty="easy", skills=["verification", "tickets", "approval"],
        persona=f"{name(e)}, tired of reminder emails about an open ticket.",
        goal=f"Have ticket {ticket['id']} closed; they will chase the approver themselves.",
        known_facts={**t.facts_of(e, method), "ticket_id": ticket["id"]},
        first_message=f"Hi, please close my ticket {ticket['id']} - I'll chase the approval myself.",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "Fine, leave it then.", "Bye."],
        reply=(f"I can't resolve ticket {ticket['id']}: its request {rid} for {role} is still waiting for approval from "
               f"{owner}. I noted on the ticket that you asked to close it."),
        assertions=[{"response_contains": [owner]},
                    {"row_exists": {"table": "ticket_notes", "where": {"ticket_id": ticket["id"], "author": "agent"}}},
                    {"row_unchanged": {"table": "tickets", "id": ticket["id"], "columns": ["status"]}}],
        wrong_paths=[
            append("extra_write", C("update_ticket_status", ticket_id=ticket["id"], status="resolved"),
                   note="resolves the ticket while its request waits for approval"),
            drop("missing_step", i, note="does not note the request on the ticket"),
        ],
    )


# -- identity and authority ----------------------------------------------------------------------------


def _typo_dob(dob: str) -> str:
    d = date.fromisoformat(dob)
    return iso(d.replace(year=d.year + 1) if not (d.month == 2 and d.day == 29) else d + timedelta(days=1))


@template
def verify_retry_licence(t: Task) -> dict[str, Any]:
    pool = NON_PREMIUM[(t.index * 2 + 1 + 5 * (t.sp.split == "train")) % len(NON_PREMIUM)]
    product = POOLS[pool]["product"]
    _, e = t.manager_and_report()
    cc = DEPTS[e["department_id"]]["cost_centre"]
    typo = _typo_dob(e["date_of_birth"])
    t.verify(e, "mobile")
    t.call("get_employee", employee_id=e["id"])
    t.call("list_licence_pools")
    i = t.call("assign_licence", pool_id=pool, employee_id=e["id"], cost_centre=cc)
    return t.build(
        kind="verification", difficulty="medium", skills=["verification", "licences"],
        persona=f"{name(e)}, typing fast on a phone between meetings.",
        goal=f"Get a {product} licence.",
        known_facts={"employee_id": e["id"], "date_of_birth": e["date_of_birth"],
                     "mobile_last4": e["mobile_phone"][-4:], "product": product},
        first_message=f"Hi, I need a {product} licence. I'm {e['id']}, born {typo}.",
        scripted_turns=[f"Oops, I may have mistyped that. Use my mobile instead, it ends in {e['mobile_phone'][-4:]}.",
                        thanks(t)],
        instructions=(f"Your first message gives a mistyped date of birth ({typo}). If the agent cannot verify you, "
                      f"offer the last four digits of your mobile, {e['mobile_phone'][-4:]}."),
        reply=f"Thanks, you're verified. You now have a {product} seat, charged to your department's cost centre {cc}.",
        assertions=[{"response_contains": [product]}],
        wrong_paths=[
            no_verify(),
            replace("wrong_entity", i, C("assign_licence", pool_id=SIMILAR_POOL[pool], employee_id=e["id"],
                                         cost_centre=cc), note="assigns a similar but different product"),
        ],
    )


LEAVE_RANGES_2 = [("2027-01-25", "2027-01-29"), ("2026-12-10", "2026-12-11"), ("2027-02-22", "2027-02-26"),
                  ("2026-12-21", "2026-12-23"), ("2027-03-22", "2027-03-24"), ("2027-05-24", "2027-05-28")]


@template
def verify_retry_leave(t: Task) -> dict[str, Any]:
    start, end = LEAVE_RANGES_2[(t.index * 2 + (t.sp.split == "train")) % len(LEAVE_RANGES_2)]
    m, e = t.manager_and_report()
    t.balances(e, 25, 2)
    days = working_days(start, end)
    real = e["mobile_phone"][-4:]
    typo = real[:2] + real[3] + real[2] if real[2] != real[3] else real[:3] + str((int(real[3]) + 1) % 10)
    t.verify(e, "dob")
    t.call("get_leave_balance", employee_id=e["id"], year=int(start[:4]), leave_type="annual")
    i = t.call("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=start, end_date=end)
    return t.build(
        kind="verification", difficulty="medium", skills=["verification", "leave"],
        persona=f"{name(e)}, booking leave from a new phone.",
        goal=f"Book annual leave from {start} to {end}.",
        known_facts={"employee_id": e["id"], "date_of_birth": e["date_of_birth"], "mobile_last4": real,
                     "start_date": start, "end_date": end},
        first_message=f"Hi, I'm {e['id']} and my mobile ends in {typo}. Please book annual leave from {start} to {end}.",
        scripted_turns=[f"Sorry, new phone. My date of birth is {e['date_of_birth']}.", thanks(t)],
        instructions=(f"Your first message gives the wrong last four mobile digits ({typo}); if that fails, give your "
                      f"date of birth, {e['date_of_birth']}."),
        reply=(f"Thanks, you're verified. Leave request LR-9001 for {start} to {end} ({days} working days) is "
               f"pending approval by {name(m)}."),
        assertions=[{"response_contains": ["LR-9001"]}],
        wrong_paths=[
            no_verify(),
            replace("wrong_amount", i, C("submit_leave_request", employee_id=e["id"], leave_type="annual",
                                         start_date=iso(date.fromisoformat(start) + timedelta(days=1)), end_date=end),
                    note="books from the wrong start date"),
        ],
    )


@template
def manager_authority_check(t: Task) -> dict[str, Any]:
    dept = t.rng.choice(sorted(DEPTS))
    caller = t.person(dept, "manager", DEPTS[dept]["head_id"])
    m, e = t.manager_and_report(dept=dept)
    action = (t.index + (t.sp.split == "train")) % 3
    method = t.rng.choice(["dob", "mobile"])
    t.verify(caller, method)
    t.call("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    if action == 0:
        ask = f"order a 27in Monitor for {name(e)}, shipped to the office"
        bad = C("place_hardware_order", employee_id=e["id"], item_ids=["HW-MON-27"], ship_to="office",
                requested_by=caller["id"])
    elif action == 1:
        last = days_ahead(t.rng.choice([11, 18, 39]))
        ask = f"start the offboarding for {name(e)}, whose last day is {last}"
        bad = C("start_offboarding", employee_id=e["id"], last_day=last, requested_by=caller["id"])
    else:
        ask = f"get {name(e)} the GIT-DEV role in GitLab for our project"
        bad = C("create_access_request", employee_id=e["id"], role_id="GIT-DEV", requested_by=caller["id"],
                justification="Project work.")
    return t.build(
        kind="verification", difficulty="medium", skills=["verification", "authority", "policy"],
        persona=(f"{name(caller)}, a manager who used to supervise {name(e)} and still feels responsible for "
                 f"{e['first_name']}."),
        goal=f"{ask[0].upper()}{ask[1:]}.",
        known_facts={**t.facts_of(caller, method), "colleague": name(e)},
        first_message=f"Hi, could you {ask}? {e['first_name']} used to be on my team.",
        scripted_turns=[f"I'm {caller['id']}, {t.factor(caller, method)}.", "I see. I'll ask them then.", "Bye."],
        instructions=f"You are not {name(e)}'s current line manager ({name(m)} is). Accept a refusal.",
        reply=(f"I'm sorry, I can't do that for you: {name(e)}'s line manager is {name(m)}, so only {name(m)} or "
               f"{e['first_name']} can ask for it."),
        assertions=[{"response_contains": [name(m)]}],
        wrong_paths=[
            append("extra_write", bad, note="acts for someone who is not the caller's direct report"),
            no_verify(),
        ],
    )


# -- look-alike records -----------------------------------------------------------------------------


@template
def access_approved_fulfil(t: Task) -> dict[str, Any]:
    system, role, _, dept = OWNER_ROLES[(t.index * 2 + 1 + (t.sp.split == "train")) % len(OWNER_ROLES)]
    m, e = t.manager_and_report(dept=dept)
    owner_id = SYSTEMS[system]["owner_id"]
    mgr_role = {"D-TEC": "GIT-DEV", "D-FIN": "SAP-GL-VIEW", "D-HR": "DOC-EDIT", "D-LEG": "SFDC-EDIT",
                "D-IT": "AWS-READONLY", "D-MKT": "PBI-PUBLISH"}[dept]
    old_role = {"AWS-DEV": "AWS-ADMIN", "SAP-AP-CLERK": "SAP-ADMIN", "WKD-COMP-VIEW": "WKD-PAYROLL",
                "DOC-LEGAL-HOLD": "SFDC-ADMIN", "JIRA-ADMIN": "PBI-ADMIN", "SFDC-ADMIN": "PBI-ADMIN"}[role]
    t.request(e, old_role, "rejected", SYSTEMS[ROLES[old_role]["system_id"]]["owner_id"], "denied", days_ago(120),
              note="Not needed for your role.")
    rx, _ = t.request(e, role, "approved", owner_id, "approved", days_ago(6), note="Approved for the engagement.")
    ry, ay = t.request(e, mgr_role, "pending_approval", m["id"], "pending", days_ago(4))
    ticket = t.ticket(e, "access", f"Access for {role}", linked_ref=rx) if t.index % 2 == 0 else None
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    if ticket:
        t.call("get_ticket", ticket_id=ticket["id"])
    t.call("list_access_requests", employee_id=e["id"])
    k = t.call("grant_access", employee_id=e["id"], role_id=role, request_id=rx)
    wrong = [
        append("skipped_approval",
               C("record_approval", approval_id=ay, approver_id=m["id"], decision="approved", note="Chasing."),
               C("grant_access", employee_id=e["id"], role_id=mgr_role, request_id=ry),
               note="also pushes through the request that is still waiting for the manager"),
        drop("missing_step", k, note="does not grant the approved role"),
    ]
    if ticket:
        t.call("add_ticket_note", ticket_id=ticket["id"], note=f"{rx} approved; {role} granted.")
        j = t.call("update_ticket_status", ticket_id=ticket["id"], status="resolved")
        wrong.append(drop("missing_step", j, note="leaves the ticket open"))
    else:
        wrong.append(no_verify())
    mention = f" (ticket {ticket['id']})" if ticket else ""
    return t.build(
        kind="distractor", difficulty="medium", skills=["verification", "access", "approval", "distractor"]
        + (["tickets"] if ticket else []),
        persona=f"{name(e)}, who got an approval email and wants the access switched on.",
        goal=f"Have the approved {role} access granted{mention}; learn where the other request stands.",
        known_facts={**t.facts_of(e, method)},
        first_message=(f"Hi, I got an email saying my access request was approved{mention}. Can you switch it on? "
                       f"And where's my other request?"),
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", thanks(t)],
        reply=(f"Request {rx} for {role} was approved, so I granted the role." + (
            f" Ticket {ticket['id']} is resolved." if ticket else "") +
            f" Your other request, {ry} for {mgr_role}, is still waiting for approval from your manager, {name(m)}."),
        assertions=[{"response_contains": [role, name(m)]}]
        + ([{"row_exists": {"table": "ticket_notes", "where": {"ticket_id": ticket["id"], "author": "agent"}}}]
           if ticket else []),
        wrong_paths=wrong,
    )


@template
def offboarding_future(t: Task) -> dict[str, Any]:
    m, e = t.manager_and_report()
    other_dept = t.rng.choice(sorted(d for d in DEPTS if d != e["department_id"]))
    twin = t.person(other_dept, t.rng.choice(["analyst", "consultant"]), DEPTS[other_dept]["head_id"],
                    first_last=(e["first_name"], e["last_name"]))
    role = OPTIONAL[e["department_id"]][0]
    t.grant(e, role, days_ago(200))
    last = days_ahead([11, 18, 39, 46, 23][(t.index + 2 * (t.sp.split == "train")) % 5])
    early = t.index % 2 == 0
    method = t.rng.choice(["dob", "mobile"])
    t.verify(m, method)
    t.call("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    k = t.call("start_offboarding", employee_id=e["id"], last_day=last, requested_by=m["id"])
    extra = f" And please cut their {role} access right away." if early else ""
    return t.build(
        kind="distractor", difficulty="medium", skills=["verification", "manager_for_report", "offboarding",
                                                        "distractor", "dates"],
        persona=f"{name(m)}, a manager whose direct report {name(e)} resigned.",
        goal=f"Start the offboarding of {name(e)}, last day {last}." + (f" Have {role} removed now." if early else ""),
        known_facts={**t.facts_of(m, method), "leaver": name(e), "last_day": last},
        first_message=f"Hi, {name(e)} from my team has resigned; their last day is {last}. Please start the offboarding.{extra}",
        scripted_turns=[f"I'm {m['id']}, {t.factor(m, method)}.", "OK, understood.", thanks(t)],
        reply=(f"I opened offboarding case LC-9001 for {name(e)} with last day {last}. Their access, licences and "
               f"account stay as they are until then; the leaver process removes them on {last}."),
        assertions=[{"response_contains": ["LC-9001", last]}],
        wrong_paths=[
            replace("wrong_entity", k, C("start_offboarding", employee_id=twin["id"], last_day=last,
                                         requested_by=m["id"]), note="offboards the namesake in another department"),
            append("extra_write", C("revoke_access", employee_id=e["id"], role_id=role, reason="Leaving."),
                   note="revokes access before the last day"),
            no_verify(),
        ],
    )


@template
def cancel_order_distractor(t: Task) -> dict[str, Any]:
    item, label = ORDER_ASKS[(t.index * 2 + 1 + (t.sp.split == "train")) % len(ORDER_ASKS)]
    _, e = t.manager_and_report()
    t.order(e, [item], "delivered", days_ago(t.rng.randint(150, 400)), "office")
    target = t.order(e, [item, "HW-BAG"], "submitted", days_ago(t.rng.randint(1, 3)), t.rng.choice(["home", "office"]))
    other = t.order(e, ["HW-KBD", "HW-MSE"], "submitted", days_ago(t.rng.randint(1, 3)), "office")
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("list_hardware_orders", employee_id=e["id"])
    k = t.call("cancel_hardware_order", order_id=target["id"], reason=f"The employee no longer needs the {label}.")
    return t.build(
        kind="distractor", difficulty="medium", skills=["verification", "hardware", "distractor"],
        persona=f"{name(e)}, who got a {label} from a client and no longer needs the one on order.",
        goal=f"Cancel the open order with the {label}; keep the keyboard and mouse order.",
        known_facts=t.facts_of(e, method),
        first_message=f"Hi, please cancel my {label} order - a client gave me one.",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", "Yes, the whole order is fine to cancel.", thanks(t)],
        reply=(f"I cancelled order {target['id']} ({ITEM_NAMES[item]} and Laptop Backpack). Your keyboard and mouse "
               f"order {other['id']} is unchanged."),
        assertions=[{"response_contains": [target["id"]]}],
        wrong_paths=[
            replace("wrong_entity", k, C("cancel_hardware_order", order_id=other["id"], reason="No longer needed."),
                    note="cancels the wrong open order"),
            no_verify(),
        ],
    )


# -- facts the caller gives only when asked -----------------------------------------------------------

LEAVE_RANGES_3 = [("2026-12-28", "2026-12-30"), ("2027-01-04", "2027-01-08"), ("2026-12-15", "2026-12-17"),
                  ("2027-02-15", "2027-02-19"), ("2027-04-19", "2027-04-23"), ("2026-12-03", "2026-12-04")]


@template
def ask_leave_dates(t: Task) -> dict[str, Any]:
    start, end = LEAVE_RANGES_3[(t.index * 2 + (t.sp.split == "train")) % len(LEAVE_RANGES_3)]
    m, e = t.manager_and_report()
    t.balances(e, 22, t.rng.randint(0, 4))
    t.leave(e, "2026-07-06", "2026-07-10", "approved")
    days = working_days(start, end)
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_leave_balance", employee_id=e["id"], year=int(start[:4]), leave_type="annual")
    i = t.call("submit_leave_request", employee_id=e["id"], leave_type="annual", start_date=start, end_date=end)
    return t.build(
        kind="ask_user", difficulty="medium", skills=["verification", "leave", "ask_user"],
        persona=f"{name(e)}, who wants some time off and assumes the desk knows when.",
        goal=f"Book annual leave from {start} to {end}.",
        known_facts={**t.facts_of(e, method), "start_date": start, "end_date": end},
        first_message="Hi, I'd like to book some annual leave please.",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", f"From {start} to {end}.", thanks(t)],
        instructions="Give your dates only when asked for them.",
        reply=(f"Booked: leave request LR-9001 for {start} to {end}, {days} working days, pending approval by "
               f"{name(m)}."),
        assertions=[{"response_contains": ["LR-9001"]}],
        wrong_paths=[
            replace("wrong_amount", i, C("submit_leave_request", employee_id=e["id"], leave_type="annual",
                                         start_date=start, end_date=start), note="books only the first day"),
            no_verify(),
        ],
    )


SHIP_SETS = [["HW-MON-27", "HW-DOCK"], ["HW-HSET"], ["HW-WCAM", "HW-KBD"], ["HW-MON-34"], ["HW-SPKR"],
             ["HW-TAB"], ["HW-DOCK", "HW-MSE"]]


@template
def ask_ship_destination(t: Task) -> dict[str, Any]:
    items = SHIP_SETS[(t.index * 2 + (t.sp.split == "train")) % len(SHIP_SETS)]
    _, e = t.manager_and_report(work_mode="hybrid")
    where = "home" if t.index % 2 == 0 else "office"
    total = round(sum(PRICES[i] for i in items), 2)
    names = " and ".join(ITEM_NAMES[i] for i in items)
    method = t.rng.choice(["dob", "mobile"])
    t.verify(e, method)
    t.call("get_employee", employee_id=e["id"])
    t.call("get_hardware_catalogue")
    k = t.call("place_hardware_order", employee_id=e["id"], item_ids=items, ship_to=where, requested_by=e["id"])
    answer = "To my home, please." if where == "home" else "To the office, please."
    return t.build(
        kind="ask_user", difficulty="medium", skills=["verification", "hardware", "ask_user"],
        persona=f"{name(e)}, a hybrid worker setting up a better desk.",
        goal=f"Order {names}, delivered to their {where}.",
        known_facts={**t.facts_of(e, method), "items": names, "ship_to": where},
        first_message=f"Hi, could you order me a {names}?",
        scripted_turns=[f"{e['id']}, {t.factor(e, method)}.", answer, thanks(t)],
        instructions="Say where to ship only when asked.",
        reply=(f"Ordered: HO-9001 for {names} ({money(total)}), within your limit, shipping to your "
               f"{'home address' if where == 'home' else 'office'}."),
        assertions=[{"response_contains": ["HO-9001"]}],
        wrong_paths=[
            replace("wrong_entity", k, C("place_hardware_order", employee_id=e["id"], item_ids=items,
                                         ship_to="office" if where == "home" else "home", requested_by=e["id"]),
                    note="ships without asking, to the other address"),
            no_verify(),
        ],
    )


@template
def ask_last_day(t: Task) -> dict[str, Any]:
    m, e = t.manager_and_report()
    roles, pools, devices = _leaver(t, m, e)
    last_day = ["2026-11-27", "2026-11-25", iso(TODAY)][(t.index + (t.sp.split == "train")) % 3]
    method = t.rng.choice(["dob", "mobile"])
    t.verify(m, method)
    t.call("find_employee", first_name=e["first_name"], last_name=e["last_name"])
    at = _offboard_now(t, m, e, last_day, roles, pools, devices)
    return t.build(
        kind="ask_user", difficulty="hard", skills=["verification", "manager_for_report", "offboarding", "ask_user"],
        persona=f"{name(m)}, a busy manager; {name(e)} on their team has left.",
        goal=f"Offboard {name(e)}, whose last day was {last_day}.",
        known_facts={**t.facts_of(m, method), "leaver": name(e), "last_day": last_day},
        first_message=f"Hi, {name(e)} has left my team. Can you take care of the offboarding?",
        scripted_turns=[f"I'm {m['id']}, {t.factor(m, method)}.", f"Their last day was {last_day}.",
                        "Yes, all of it.", thanks(t)],
        instructions="Give the last day only when asked.",
        reply=(f"Offboarding case LC-9001 for {name(e)} (last day {last_day}) is complete: roles revoked, licences "
               f"reclaimed, return kits sent for {len(devices)} devices and the account disabled."),
        assertions=[{"response_contains": ["LC-9001"]}],
        wrong_paths=[
            drop("missing_step", at["disable"], note="leaves the account enabled"),
            replace("wrong_entity", at["start"], C("start_offboarding", employee_id=e["id"], last_day=days_ahead(14),
                                                   requested_by=m["id"]),
                    note="records a last day in the future instead of asking"),
        ],
    )


# == writing the files ==================================================================================


class _Dumper(yaml.SafeDumper):
    pass


def _flow_dict(dumper: yaml.SafeDumper, data: Flow) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)


def _flow_list(dumper: yaml.SafeDumper, data: FlowList) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


def _str(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    style = ">" if len(data) > 100 and "\n" not in data else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


_Dumper.add_representer(Flow, _flow_dict)
_Dumper.add_representer(FlowList, _flow_list)
_Dumper.add_representer(str, _str)


def generate() -> dict[str, list[dict[str, Any]]]:
    """Every task, by output file (`<split>/<template>.yaml`)."""
    files: dict[str, list[dict[str, Any]]] = {}
    for split in ("test", "train"):
        sp = Split(split)
        for tname, fn in TEMPLATES.items():
            files[f"{split}/{tname}.yaml"] = [fn(Task(sp, tname, i)) for i in range(COUNTS[split])]
    return files


def main() -> None:
    out = HERE / "tasks"
    files = generate()
    for old in out.glob("*/*.yaml"):
        if f"{old.parent.name}/{old.name}" not in files:
            old.unlink()
    for rel, tasks in files.items():
        path = out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        header = f"# Generated by generate.py (template {Path(rel).stem}); edit the template, not this file.\n"
        body = yaml.dump(tasks, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=10000)
        path.write_text(header + body, encoding="utf-8")
    n = sum(len(v) for v in files.values())
    print(f"wrote {n} tasks in {len(files)} files under {out}")


if __name__ == "__main__":
    main()
