"""Writes the auto-insurance task files from templates: `python -m tb_env.tasks.auto_insurance.generate`.

Each template is a function that builds one scenario on a `World`:
1. it creates the household the scenario is about (policyholder, policy, drivers,
   vehicles, coverages, invoices, claims, tickets) as the task's `initial_patch`, with
   ids and names drawn from the split's own pools (test: ids 5001-6999, train: ids
   7001-8999; disjoint name lists), so no customer appears in both splits;
2. it runs the golden calls, one by one, on a private copy of the database through the
   domain's real tools, and reads their results, so every id, amount and date in the
   golden reply comes from what the tools answered, not from a second computation;
3. it states the reply, the assertions and the wrong paths (the golden path with one
   plausible mistake each).

Everything is seeded (`SEED`, the template name, the split and the index), so running
the generator twice writes the same files.
"""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import yaml

import tb_env
from tb_env.backends.sqlite import SQLiteBackend
from tb_env.domain.database import SQLiteDatabase
from tb_env.domain.task import Task

from . import seed as base
from . import tools as T

HERE = Path(__file__).parent
OUT = HERE / "tasks"
DOMAIN = "auto_insurance"
SEED = 7_2026_11_30
TODAY = date(2026, 11, 30)

NAMES = {  # (first names, last names) per split: disjoint from each other and from the seed's
    "test": (
        ["Adrian", "Beatriz", "Cyrus", "Delphine", "Emeka", "Freya", "Gideon", "Hana", "Ivan", "Jolene",
         "Kofi", "Lucia", "Mateo", "Nadia", "Orson", "Paloma", "Rahul", "Selin", "Tobias", "Uma",
         "Viktor", "Wren", "Ximena", "Yosef", "Zara", "Anders", "Beatrice", "Callum", "Dmitri", "Esme"],
        ["Abernathy", "Bergstrom", "Cavanaugh", "Delacroix", "Eriksen", "Fairbanks", "Galloway", "Halvorsen",
         "Iwasaki", "Jablonski", "Kessler", "Lindqvist", "Montague", "Nakashima", "Oyelowo", "Pellegrino",
         "Quintana", "Rasmussen", "Sorensen", "Thibodeaux", "Underwood", "Valdivia", "Whitcombe", "Yamamoto",
         "Zielinski", "Ashworth", "Blackwood", "Castellano", "Drummond", "Esposito"],
    ),
    "train": (
        ["Amara", "Bastian", "Celeste", "Darius", "Eloise", "Fabian", "Gemma", "Hugo", "Ines", "Jasper",
         "Keira", "Leon", "Mira", "Nico", "Odette", "Pascal", "Rhea", "Silas", "Thea", "Ulric",
         "Vivian", "Wesley", "Yvonne", "Zane"],
        ["Albrecht", "Brennan", "Corrigan", "Dunmore", "Ellsworth", "Fitzgerald", "Gallagher", "Hartmann",
         "Ingram", "Jorgensen", "Kilbride", "Lachance", "Mortensen", "Novak", "Prescott", "Radcliffe",
         "Stanhope", "Tremblay", "Vasquez", "Wakefield", "Yardley", "Zeller", "Ashby", "Beaumont"],
    ),
}
ID_START = {"test": 5001, "train": 7001}
PERSONAS = [
    "polite and precise", "in a hurry, answers in short sentences", "friendly and chatty",
    "a little anxious about costs", "calm and methodical", "direct and businesslike",
    "tired after a long day", "cheerful", "skeptical of insurance companies", "patient",
]
OCCUPATIONS = [
    "a nurse", "a retired teacher", "a software developer", "a small-business owner", "a graduate student",
    "an electrician", "a real-estate agent", "a restaurant manager", "a pharmacist", "a truck dispatcher",
    "a high-school coach", "a freelance designer",
]
LUXURY = [("BMW", "X7", "SUV", 96000), ("Porsche", "Cayenne", "SUV", 118000), ("Mercedes-Benz", "GLS 580", "SUV", 112000),
          ("Land Rover", "Range Rover", "SUV", 128000), ("Lexus", "LX 600", "SUV", 104000),
          ("Cadillac", "Escalade", "SUV", 99000)]
EXOTIC = [("Ferrari", "Roma", "coupe", 247000), ("Lamborghini", "Urus", "SUV", 238000),
          ("Rolls-Royce", "Cullinan", "SUV", 355000), ("McLaren", "Artura", "coupe", 241000)]
CLASSIC_OK = [("Toyota", "Land Cruiser", "SUV", 1998, 24000), ("Mazda", "MX-5 Miata", "convertible", 1997, 11000),
              ("Jeep", "Cherokee XJ", "SUV", 2000, 9500), ("Honda", "Prelude", "coupe", 1999, 12500),
              ("Chevrolet", "Corvette", "coupe", 1996, 21000)]
CLASSIC_OLD = [("Ford", "Mustang", "coupe", 1968, 48000), ("Chevrolet", "Camaro", "coupe", 1972, 41000),
               ("Volkswagen", "Beetle", "coupe", 1974, 16000), ("Toyota", "FJ40 Land Cruiser", "SUV", 1979, 52000)]
REPAIR_DAYS = [5, 7, 8, 9, 10, 12, 14, 16]


def iso(d: date) -> str:
    return d.isoformat()


def day(offset: int) -> str:
    """The ISO date `offset` days from today (negative: in the past)."""
    return iso(TODAY + timedelta(days=offset))


def spoken(iso_date: str) -> str:
    """A date the way a caller says it: "December 5, 2026"."""
    d = date.fromisoformat(iso_date)
    return f"{d.strftime('%B')} {d.day}, {d.year}"


def when(iso_date: str) -> str:
    """An effective date in a caller's words: "today", or the spoken date."""
    return "today" if iso_date == day(0) else spoken(iso_date)


def dollars(x: float) -> str:
    return f"${abs(T.money(x)):,.2f}"


class GenerationError(RuntimeError):
    """A template built a golden call that the tools refuse: the template is wrong."""


# -- the world a template builds ------------------------------------------------------------------


@dataclass
class Household:
    holder: dict[str, Any]
    methods: list[dict[str, Any]]
    policy: dict[str, Any]
    drivers: list[dict[str, Any]]
    vehicles: list[dict[str, Any]]
    coverages: dict[str, dict[str, Any]]
    invoices: list[dict[str, Any]]

    @property
    def id(self) -> str:
        return self.holder["id"]

    @property
    def pol(self) -> str:
        return self.policy["id"]

    @property
    def name(self) -> str:
        return f"{self.holder['first_name']} {self.holder['last_name']}"

    @property
    def first(self) -> str:
        return self.holder["first_name"]

    @property
    def email(self) -> str:
        return self.holder["email"]

    @property
    def dob(self) -> str:
        return self.holder["date_of_birth"]

    @property
    def zip(self) -> str:
        return self.holder["zip_code"]

    @property
    def state(self) -> str:
        return self.policy["state"]

    @property
    def days_in_force(self) -> int:
        return (TODAY - date.fromisoformat(self.policy["effective_date"])).days

    def car(self, v: dict[str, Any]) -> str:
        return f"{v['year']} {v['make']} {v['model']}"

    def next_open(self) -> dict[str, Any]:
        return next(i for i in self.invoices if i["status"] == "open")


class Generator:
    """Shared state of one run: id counters and name pools per split, the seed's rows."""

    def __init__(self) -> None:
        self.domain = tb_env.get_domain(DOMAIN)
        self.backend = SQLiteBackend(cache_size=4)
        self.loop = asyncio.new_event_loop()
        self.counters: dict[str, dict[str, int]] = {s: defaultdict(lambda s=s: ID_START[s]) for s in ID_START}
        self.used_names: set[tuple[str, str]] = set()
        self.used_emails: set[str] = set()
        rows = base.build()
        self.adjusters = rows["adjusters"]
        self.seed_vins = {v["vin"] for v in rows["vin_records"]}
        self.used_vins: set[str] = set()
        self.n = 0


@dataclass
class World:
    gen: Generator
    split: str
    template: str
    index: int
    rng: random.Random = field(init=False)
    patch: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    calls: list[dict[str, Any]] = field(default_factory=list)
    results: list[Any] = field(default_factory=list)
    reply: str = ""
    assertions: list[dict[str, Any]] = field(default_factory=list)
    wrong_paths: list[dict[str, Any]] = field(default_factory=list)
    user: dict[str, Any] = field(default_factory=dict)
    db: SQLiteDatabase | None = None

    def __post_init__(self) -> None:
        self.rng = random.Random(f"{SEED}:{self.template}:{self.split}:{self.index}")

    # ids and names ---------------------------------------------------------------------------
    def new_id(self, prefix: str, width: int = 4) -> str:
        c = self.gen.counters[self.split]
        n = c[prefix]
        c[prefix] += 1
        limit = 6999 if self.split == "test" else 8999
        if n > limit:
            raise GenerationError(f"id range for {prefix} exhausted in split {self.split}")
        return f"{prefix}-{n:0{width}d}"

    def person(self, last: str | None = None) -> tuple[str, str]:
        firsts, lasts = NAMES[self.split]
        for _ in range(10_000):
            f, la = self.rng.choice(firsts), last or self.rng.choice(lasts)
            if (f, la) not in self.gen.used_names:
                self.gen.used_names.add((f, la))
                return f, la
        raise GenerationError("name pool exhausted")

    def vin(self) -> str:
        while True:
            v = base.make_vin(self.rng)
            if v not in self.gen.seed_vins and v not in self.gen.used_vins:
                self.gen.used_vins.add(v)
                return v

    def license(self, state: str) -> str:
        digit = "5" if self.split == "test" else "7"
        return f"{state[0]}{digit}{self.rng.randint(1000000, 9999999)}"

    def add(self, table: str, **row: Any) -> dict[str, Any]:
        self.patch[table].append(row)
        return row

    # building blocks -------------------------------------------------------------------------
    def vin_record(self, make: str, model: str, body: str, year: int, value: float) -> dict[str, Any]:
        return self.add("vin_records", vin=self.vin(), year=year, make=make, model=model, body_style=body,
                        market_value=float(value))

    def new_car(self, *, min_year: int = 2019, max_year: int = 2027, models: list[Any] | None = None) -> dict[str, Any]:
        make, model, body, price = self.rng.choice(models or base.MODELS)
        year = self.rng.randint(min_year, max_year)
        return self.vin_record(make, model, body, year, base.market_value(price, year))

    def mvr(self, first: str, last: str, dob: str, state: str, *, status: str = "valid", violations: int = 0,
            accidents: int = 0) -> dict[str, Any]:
        d = date.fromisoformat(dob)
        return self.add("mvr_records", license_number=self.license(state), license_state=state, first_name=first,
                        last_name=last, date_of_birth=dob, license_status=status,
                        first_licensed=iso(date(d.year + 16, d.month, min(d.day, 28))), violations_3y=violations,
                        at_fault_accidents_3y=accidents)

    def dob(self, age_min: int, age_max: int) -> str:
        return iso(TODAY - timedelta(days=self.rng.randint(age_min * 365 + 20, age_max * 365 + 300)))

    def household(
        self,
        *,
        state: str | None = None,
        last: str | None = None,
        first: str | None = None,
        spouse: bool = False,
        children: int = 0,
        cars: int = 1,
        car_models: list[Any] | None = None,
        coverages: dict[str, Any] | None = None,
        plan: str = "monthly",
        lien: list[str | None] | None = None,
        methods: list[tuple[str, str]] | None = None,
        autopay: bool = False,
        eff_days_ago: int | None = None,
        renewal: bool = False,
        last_due_days_ago: int | None = None,
        min_car_year: int = 2014,
    ) -> Household:
        """A policyholder with an active 12-month policy, its drivers, vehicles, coverages
        and the recent instalments (paid, plus the next one open)."""
        rng = self.rng
        state = state or rng.choice(list(base.STATES))
        city, zips, area = base.STATES[state]
        if first and last:
            self.gen.used_names.add((first, last))
            f, la = first, last
        else:
            f, la = self.person(last)
        email = f"{f}.{la}".lower() + "@example.com"
        k = 2
        while email in self.gen.used_emails:
            email = f"{f}.{la}{k}".lower() + "@example.com"
            k += 1
        self.gen.used_emails.add(email)
        holder = self.add(
            "policyholders", id=self.new_id("PH"), first_name=f, last_name=la, email=email,
            phone=f"{area}-555-{rng.randint(1000, 9999)}", date_of_birth=self.dob(34, 66),
            street=f"{rng.randint(10, 9999)} {rng.choice(base.STREETS)}", city=city, state=state,
            zip_code=rng.choice(zips), customer_since=iso(date(2015, 1, 1) + timedelta(days=rng.randint(0, 3000))),
        )
        pms = []
        for kind, brand in methods or [("card", rng.choice(base.CARD_BRANDS))]:
            label = f"{brand} ending {rng.randint(1000, 9999)}"
            pms.append(self.add("payment_methods", id=self.new_id("PM"), policyholder_id=holder["id"],
                                kind="bank_account" if kind == "bank" else "card", label=label,
                                status="expired" if kind == "expired" else "active"))
        if renewal:
            eff = TODAY - timedelta(days=rng.randint(325, 355))
        elif last_due_days_ago is not None:  # the latest instalment fell due that many days ago
            anchor = TODAY - timedelta(days=last_due_days_ago)
            if anchor.day > 28:
                anchor -= timedelta(days=anchor.day - 28)
            eff = base.add_months(anchor, -rng.randint(3, 9))
        else:
            eff = TODAY - timedelta(days=eff_days_ago if eff_days_ago is not None else rng.randint(40, 300))
        exp = eff + timedelta(days=365)
        pol_id = self.new_id("POL")
        covs = coverages if coverages is not None else {
            "liability": rng.choice(["50/100", "100/300", "100/300", "250/500"]),
            "uninsured_motorist": rng.choice(["50/100", "100/300"]),
            "collision": rng.choice([500, 500, 1000]),
            "comprehensive": rng.choice([250, 500]),
        }
        premium = 0.0
        cov_rows: dict[str, dict[str, Any]] = {}
        for ctype, option in covs.items():
            row = {"id": f"{pol_id}/{ctype}", "policy_id": pol_id, "coverage_type": ctype, "limit_code": None,
                   "deductible": None, "daily_limit": None, "max_days": None,
                   "annual_premium": T.coverage_rate(ctype, option), "status": "active",
                   "effective_date": iso(eff), "removed_on": None}
            fld = T.OPTION_FIELD[ctype]
            if fld:
                row[fld] = option
            if ctype == "rental_reimbursement":
                row["max_days"] = T.RENTAL_MAX_DAYS
            cov_rows[ctype] = self.add("coverages", **row)
            premium += row["annual_premium"]
        drivers = []
        people = [(f, la, holder["date_of_birth"], "named_insured", 0, 0)]
        if spouse:
            sf, _ = self.person(la)
            people.append((sf, la, self.dob(32, 64), "spouse", 0, 0))
        for _ in range(children):
            cf, _ = self.person(la)
            people.append((cf, la, self.dob(22, 27), "child", 0, 0))
        for pf, pl, pdob, rel, viol, acc in people:
            m = self.mvr(pf, pl, pdob, state, violations=viol, accidents=acc)
            age = T.age_on(pdob, iso(eff))
            d = self.add("drivers", id=self.new_id("DRV"), policy_id=pol_id, first_name=pf, last_name=pl,
                         date_of_birth=pdob, license_number=m["license_number"], license_state=state,
                         relationship=rel, status="active", added_on=iso(eff), removed_on=None,
                         annual_premium=T.driver_rate(age, viol, acc))
            premium += d["annual_premium"]
            drivers.append(d)
        vehicles = []
        lien = lien or [None] * cars
        if car_models is None and cars > 1:
            makes: dict[str, Any] = {}
            for m in rng.sample(base.MODELS, len(base.MODELS)):
                makes.setdefault(m[0], m)
            car_models = rng.sample(list(makes.values()), cars)
        for i in range(cars):
            first_year = min_car_year if lien[i] is None else max(min_car_year, 2022)  # financed cars are recent
            if car_models and len(car_models) == cars:  # one given model per car
                car = self.new_car(min_year=first_year, max_year=2026, models=[car_models[i]])
            else:
                car = self.new_car(min_year=first_year, max_year=2026, models=car_models)
            usage = rng.choice(["commute", "pleasure"])
            v = self.add("vehicles", id=self.new_id("VEH"), policy_id=pol_id, vin=car["vin"], year=car["year"],
                         make=car["make"], model=car["model"], market_value=car["market_value"], usage=usage,
                         annual_mileage=rng.choice([6000, 8000, 10000, 12000, 14000]), lienholder=lien[i],
                         status="active", added_on=iso(eff), removed_on=None, replaced_by_vehicle_id=None,
                         annual_premium=T.vehicle_rate(car["market_value"], usage))
            premium += v["annual_premium"]
            vehicles.append(v)
        premium = T.money(premium)
        active_pms = [p for p in pms if p["status"] == "active"]
        policy = self.add(
            "policies", id=pol_id, policyholder_id=holder["id"], status="active", state=state,
            effective_date=iso(eff), expiration_date=iso(exp), annual_premium=premium,
            renewal_premium=T.money(premium * rng.choice([1.02, 1.04, 1.06, 1.09])) if renewal else None,
            billing_plan=plan, autopay=autopay, autopay_payment_method_id=active_pms[0]["id"] if autopay else None,
            cancelled_on=None,
        )
        invoices = []
        if plan == "monthly":
            monthly = T.money(premium / 12)
            dues = [base.add_months(eff, m) for m in range(12)]
            past = [d for d in dues if d < TODAY][-3:]
            upcoming = [d for d in dues if d >= TODAY][:1]
            for due in past + upcoming:
                paid = due < TODAY
                invoices.append(self.add(
                    "invoices", id=self.new_id("INV"), policy_id=pol_id, kind="installment", amount=monthly,
                    late_fee=0.0, late_fee_waived=False, amount_paid=monthly if paid else 0.0,
                    original_due_date=iso(due), due_date=iso(due), status="paid" if paid else "open",
                    arrangement_id=None))
        else:
            invoices.append(self.add(
                "invoices", id=self.new_id("INV"), policy_id=pol_id, kind="installment", amount=premium, late_fee=0.0,
                late_fee_waived=False, amount_paid=premium, original_due_date=iso(eff), due_date=iso(eff),
                status="paid", arrangement_id=None))
        return Household(holder, pms, policy, drivers, vehicles, cov_rows, invoices)

    def unpay(self, inv: dict[str, Any]) -> None:
        """Turn a paid instalment into an unpaid, past-due one (late fee after 10 days)."""
        late = (TODAY - date.fromisoformat(inv["due_date"])).days
        assert late > 0, inv
        inv.update(amount_paid=0.0, status="past_due", late_fee=T.LATE_FEE if late > 10 else 0.0)

    def claim(self, h: Household, *, status: str, loss_type: str, vehicle: dict[str, Any],
              driver: dict[str, Any] | None, loss_days_ago: int, adjuster: dict[str, Any] | None = None,
              at_fault: bool | None = None, injuries: bool = False, paid: float = 0.0,
              description: str | None = None) -> dict[str, Any]:
        loss = day(-loss_days_ago)
        closed = status in ("closed", "withdrawn")
        deductible = None
        if loss_type in ("collision", "comprehensive") and loss_type in h.coverages:
            deductible = h.coverages[loss_type]["deductible"]
        return self.add(
            "claims", id=self.new_id("CLM"), policy_id=h.pol, vehicle_id=vehicle["id"],
            driver_id=driver["id"] if driver else None, loss_date=loss, reported_on=day(-loss_days_ago + 1),
            loss_type=loss_type, injuries=injuries,
            description=description or {"collision": "Hit another car in a parking lot",
                                        "comprehensive": "Hail damage to the hood and roof",
                                        "liability": "Scraped a neighbour's fence"}[loss_type],
            status=status, adjuster_id=adjuster["id"] if adjuster else None, deductible=deductible,
            contact_phone=h.holder["phone"], at_fault=at_fault, rental_days=0, rental_daily_limit=None,
            paid_amount=paid, closed_on=day(-loss_days_ago + 30) if closed else None, withdraw_reason=None)

    def ticket(self, h: Household, *, subject: str, category: str, status: str = "open",
               claim: dict[str, Any] | None = None, days_ago: int = 5, note: str | None = None) -> dict[str, Any]:
        t = self.add("tickets", id=self.new_id("T"), policyholder_id=h.id, policy_id=h.pol,
                     claim_id=claim["id"] if claim else None, subject=subject, category=category, status=status,
                     priority="normal", escalation_reason=None, created_at=f"{day(-days_ago)}T10:15:00Z")
        self.add("ticket_notes", id=self.new_id("N"), ticket_id=t["id"], author="customer",
                 body=note or subject, created_at=f"{day(-days_ago)}T10:15:00Z")
        return t

    def adjuster(self, state: str, specialty: str) -> dict[str, Any]:
        """A seed adjuster (active, with room) to hang an existing open claim on."""
        pool = [a for a in self.gen.adjusters if a["state"] == state and a["specialty"] == specialty and a["active"]]
        return self.rng.choice(pool)

    def states_with_choice(self, specialty: str) -> list[str]:
        """States with at least two active adjusters of a specialty (so the choice matters)."""
        out = []
        for s in base.STATES:
            n = sum(1 for a in self.gen.adjusters if a["state"] == s and a["specialty"] == specialty and a["active"])
            if n >= 2:
                out.append(s)
        return out

    # the golden path ---------------------------------------------------------------------------
    def _ensure_db(self) -> SQLiteDatabase:
        if self.db is None:
            self.gen.n += 1
            task = Task.model_validate({
                "id": f"{DOMAIN}/_generating-{self.gen.n}", "split": self.split,
                "user": {"persona": "-", "goal": "-", "first_message": "-"},
                "initial_patch": {k: v for k, v in self.patch.items() if v},
                "wrong_paths": [{"tag": "wrong_reply", "reply": "-"}],
            })
            conn = self.gen.backend.connect(self.gen.domain, task)
            self.db = SQLiteDatabase(conn, self.gen.domain.metadata, self.gen.domain.now)
        return self.db

    def call(self, name: str, **arguments: Any) -> Any:
        """Run one golden call on the task's copy and record it; returns the tool's result."""
        db = self._ensure_db()
        tool = self.gen.domain.tools_by_name[name]
        arguments = {k: v for k, v in arguments.items() if v is not None}

        async def run() -> Any:
            if tool.writes:
                async with db.transaction():
                    return await tool(db, arguments)
            return await tool(db, arguments)

        try:
            result = self.gen.loop.run_until_complete(run())
        except tb_env.errors.AgentError as exc:
            raise GenerationError(f"{self.template}[{self.split} {self.index}]: golden call {name}({arguments}) "
                                  f"was refused: {exc}") from None
        self.calls.append({"name": name, "arguments": arguments})
        self.results.append(result)
        return result

    def peek(self, name: str, **arguments: Any) -> Any:
        """Run a read tool without recording it (to decide what the golden path should do)."""
        db = self._ensure_db()
        tool = self.gen.domain.tools_by_name[name]
        assert not tool.writes
        return self.gen.loop.run_until_complete(tool(db, {k: v for k, v in arguments.items() if v is not None}))

    def at(self, name: str, nth: int = 0) -> int:
        """The index of the nth golden call of a tool."""
        found = [i for i, c in enumerate(self.calls) if c["name"] == name]
        return found[nth]

    def identify(self, h: Household, how: str = "email") -> None:
        """The usual opening: look the caller up and verify them."""
        if how == "email":
            self.call("find_policyholder", email=h.email)
            self.call("verify_identity", policyholder_id=h.id, date_of_birth=h.dob, zip_code=h.zip)
        elif how == "policy":
            self.call("find_policyholder", policy_id=h.pol)
            self.call("verify_identity", policyholder_id=h.id, date_of_birth=h.dob, policy_id=h.pol)
        else:
            self.call("find_policyholder", first_name=h.first, last_name=h.holder["last_name"], zip_code=h.zip)
            self.call("verify_identity", policyholder_id=h.id, date_of_birth=h.dob, zip_code=h.zip)

    def verify_line(self, h: Household, how: str = "email") -> str:
        """What the caller says when asked to verify."""
        if how == "policy":
            return f"My date of birth is {spoken(h.dob)} and the policy number is {h.pol}."
        return self.rng.choice([
            f"Sure: born {spoken(h.dob)}, zip code {h.zip}.",
            f"My date of birth is {h.dob} and my zip is {h.zip}.",
            f"DOB {spoken(h.dob)}, and I'm in {h.zip}.",
        ])

    def persona(self, h: Household, extra: str = "") -> str:
        return f"{h.name}, {self.rng.choice(OCCUPATIONS)}; {self.rng.choice(PERSONAS)}.{(' ' + extra) if extra else ''}"

    def facts(self, *facts: Any) -> None:
        self.assertions.append({"response_contains": [str(f) for f in facts]})

    def exists(self, table: str, **where: Any) -> None:
        self.assertions.append({"row_exists": {"table": table, "where": where}})

    def absent(self, table: str, **where: Any) -> None:
        self.assertions.append({"row_absent": {"table": table, "where": where}})

    def unchanged(self, table: str, key: Any, columns: list[str] | None = None) -> None:
        body: dict[str, Any] = {"table": table, "id": key}
        if columns:
            body["columns"] = columns
        self.assertions.append({"row_unchanged": body})

    def wrong(self, tag: str, note: str, **mutation: Any) -> None:
        wp: dict[str, Any] = {"tag": tag, "note": note}
        for kind, value in mutation.items():
            if kind == "append":
                value = [{"name": n, "arguments": {k: v for k, v in a.items() if v is not None}} for n, a in value]
            elif kind == "replace":
                value = {i: {"name": n, "arguments": {k: v for k, v in a.items() if v is not None}}
                         for i, (n, a) in value.items()}
            wp[kind] = value
        self.wrong_paths.append(wp)

    def no_verify(self) -> None:
        self.wrong("missing_step", "acts on the account without verifying the caller's identity",
                   drop=[self.at("verify_identity")])

    def close(self) -> None:
        if self.db is not None:
            self.gen.loop.run_until_complete(self.db.close())
            self.db = None


@dataclass(frozen=True)
class Template:
    name: str
    kind: str
    difficulty: str
    skills: tuple[str, ...]
    build: Callable[[World], None]
    test: int = 3
    train: int = 1


TEMPLATES: list[Template] = []


def template(kind: str, difficulty: str, skills: list[str], test: int = 3, train: int = 1):
    def register(fn: Callable[[World], None]) -> Callable[[World], None]:
        TEMPLATES.append(Template(fn.__name__, kind, difficulty, tuple(skills), fn, test, train))
        return fn
    return register


# -- templates: read-only -------------------------------------------------------------------------


@template("read_only", "easy", ["verification", "claims", "disambiguation"])
def claim_status_read(w: World) -> None:
    h = w.household(coverages={"liability": "100/300", "collision": w.rng.choice([500, 1000]),
                               "comprehensive": w.rng.choice([250, 500])}, eff_days_ago=w.rng.randint(150, 300))
    veh, drv = h.vehicles[0], h.drivers[0]
    old_adj = w.adjuster(h.state, "collision")
    new_adj = w.adjuster(h.state, "comprehensive")
    w.claim(h, status="closed", loss_type="collision", vehicle=veh, driver=drv,
            loss_days_ago=h.days_in_force - 20, adjuster=old_adj, at_fault=False, paid=1850.0)
    cause = w.rng.choice(["hail damage", "a cracked windshield", "a break-in", "a fallen tree branch"])
    c = w.claim(h, status="assigned", loss_type="comprehensive", vehicle=veh, driver=None,
                loss_days_ago=w.rng.randint(4, 20), adjuster=new_adj, description=f"Comprehensive loss: {cause}")
    w.identify(h)
    claims = w.call("list_claims", policy_id=h.pol)
    mine = next(x for x in claims if x["claim_id"] == c["id"])
    adj = mine["adjuster"]
    w.user = {
        "persona": w.persona(h),
        "goal": f"Find out who is handling the claim for {cause} on the {h.car(veh)} and what the deductible is.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "claim_about": cause},
        "first_message": f"Hi, I filed a claim a little while ago for {cause} on my {veh['make']}. "
                         f"Who is handling it, and what will my deductible be? I'm {h.email}.",
        "scripted_turns": [w.verify_line(h), "Great, thank you."],
    }
    w.reply = (f"Your claim {c['id']} for the {cause} (loss date {c['loss_date']}) is assigned to adjuster "
               f"{adj['name']}, phone {adj['phone']}. The comprehensive deductible on it is "
               f"{dollars(mine['deductible'])}.")
    w.facts(adj["name"], mine["deductible"])
    w.wrong("wrong_reply", "reports the older, closed collision claim instead",
            reply=f"Your claim is handled by adjuster {old_adj['first_name']} {old_adj['last_name']}; the deductible "
                  f"is {dollars(h.coverages['collision']['deductible'])}.")
    w.no_verify()


@template("read_only", "easy", ["verification", "billing"])
def billing_balance_read(w: World) -> None:
    h = w.household(last_due_days_ago=w.rng.randint(12, 26))
    past = [i for i in h.invoices if i["status"] == "paid"][-1]
    w.unpay(past)
    w.identify(h, "policy")
    acct = w.call("get_billing_account", policy_id=h.pol)
    nxt = acct["next_due"]
    w.user = {
        "persona": w.persona(h, "Thinks they may have missed a payment."),
        "goal": "Learn how much is overdue on the policy and when the next payment is due, and how much it is.",
        "known_facts": {"policy_id": h.pol, "date_of_birth": h.dob},
        "instructions": "Only ask; do not pay anything in this conversation.",
        "first_message": f"Hello, I think I missed a payment on policy {h.pol}. How much do I owe right now, and "
                         "when is the next one due?",
        "scripted_turns": [w.verify_line(h, "policy"), "Got it. I'll sort it out this week, thanks."],
    }
    w.reply = (f"Invoice {past['id']} (due {past['due_date']}) is past due: {dollars(acct['past_due_balance'])}, "
               f"which includes a {dollars(T.LATE_FEE)} late fee. Your next instalment, {nxt['invoice_id']}, is "
               f"{dollars(nxt['balance'])} due on {nxt['due_date']}.")
    w.facts(acct["past_due_balance"], nxt["due_date"])
    w.wrong("wrong_reply", "forgets the late fee in the overdue amount",
            reply=f"You owe {dollars(past['amount'])} on invoice {past['id']}; the next instalment is due "
                  f"{nxt['due_date']}.")
    w.wrong("extra_write", "charges the overdue balance although the caller only asked",
            append=[("make_payment", {"invoice_id": past["id"], "amount": acct["past_due_balance"],
                                      "payment_method_id": h.methods[0]["id"]})])
    w.no_verify()


@template("read_only", "easy", ["verification", "policy", "renewal", "disambiguation"])
def renewal_read(w: World) -> None:
    h = w.household(renewal=True)
    old_eff = date.fromisoformat(h.policy["effective_date"]) - timedelta(days=365)
    old_id = w.new_id("POL")
    w.add("policies", id=old_id, policyholder_id=h.id, status="expired", state=h.state, effective_date=iso(old_eff),
          expiration_date=h.policy["effective_date"], annual_premium=T.money(h.policy["annual_premium"] * 0.93),
          renewal_premium=None, billing_plan=h.policy["billing_plan"], autopay=False, autopay_payment_method_id=None,
          cancelled_on=None)
    ctype = w.rng.choice(["collision", "comprehensive"])
    old_ded = 250 if h.coverages[ctype]["deductible"] != 250 else 1000
    w.add("coverages", id=f"{old_id}/{ctype}", policy_id=old_id, coverage_type=ctype, limit_code=None,
          deductible=old_ded, daily_limit=None, max_days=None, annual_premium=T.coverage_rate(ctype, old_ded),
          status="active", effective_date=iso(old_eff), removed_on=None)
    w.identify(h)
    w.call("get_policyholder", policyholder_id=h.id)
    pol = w.call("get_policy", policy_id=h.pol)
    ded = next(c for c in pol["coverages"] if c["coverage_type"] == ctype)["deductible"]
    w.user = {
        "persona": w.persona(h, "Budgeting for next year."),
        "goal": f"Learn the renewal date and renewal premium of the current policy, and the {ctype} deductible.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip},
        "first_message": f"Hi! When does my car insurance renew, and what will it cost next year? Also, what's my "
                         f"{ctype} deductible right now? My email is {h.email}.",
        "scripted_turns": [w.verify_line(h), "Perfect, that's all I needed."],
    }
    w.reply = (f"Your policy {h.pol} renews on {pol['expiration_date']}. The renewal premium offered for the next "
               f"term is {dollars(pol['renewal_premium'])} (currently {dollars(pol['annual_premium'])} a year). Your "
               f"{ctype} deductible is {dollars(ded)}.")
    w.facts(pol["expiration_date"], pol["renewal_premium"], ded)
    w.wrong("wrong_reply", "reads the expired previous term",
            reply=f"Your policy {old_id} renewed on {h.policy['effective_date']}; your {ctype} deductible is "
                  f"{dollars(old_ded)}.")
    w.no_verify()


# -- templates: single writes ---------------------------------------------------------------------


@template("single_write", "easy", ["verification", "account"])
def update_contact(w: World) -> None:
    h = w.household()
    how = w.rng.choice(["email", "policy"])
    area = base.STATES[h.state][2]
    formatted = f"{area}-555-{w.rng.randint(1000, 9999)}"
    new_phone = formatted if w.rng.random() < 0.7 else f"({area}) 555-{formatted[-4:]}"
    change_email = w.rng.random() < 0.4
    new_email = f"{h.first.lower()}.{w.rng.choice(['home', 'mail', 'inbox'])}{w.rng.randint(10, 99)}@example.net"
    w.identify(h, how)
    args: dict[str, Any] = {"policyholder_id": h.id, "phone": new_phone}
    if change_email:
        args["email"] = new_email
    w.call("update_contact_info", **args)
    ask = f"my new phone number {new_phone}" + (f" and my new email {new_email}" if change_email else "")
    who = f"My email is {h.email}." if how == "email" else f"Policy {h.pol}."
    w.user = {
        "persona": w.persona(h),
        "goal": f"Update the contact details on file: phone {new_phone}" + (f", email {new_email}" if change_email else "") + ".",
        "known_facts": {"email": h.email, "policy_id": h.pol, "date_of_birth": h.dob, "zip_code": h.zip,
                        "new_phone": new_phone, **({"new_email": new_email} if change_email else {})},
        "first_message": f"Hi, please update {ask}. {who}",
        "scripted_turns": [w.verify_line(h, how), "Thanks, that's it."],
    }
    w.reply = f"Done: your phone number is now {formatted}" + (f" and your email is {new_email}." if change_email else ".")
    w.facts(formatted[-8:], *([new_email] if change_email else []))
    typo = f"({area}) 555-{new_phone[-4:][::-1]}" if new_phone[-4:][::-1] != new_phone[-4:] else f"({area}) 555-0000"
    w.wrong("wrong_entity", "a mistyped phone number", replace={w.at("update_contact_info"): (
        "update_contact_info", {**args, "phone": typo})})
    w.no_verify()


@template("single_write", "easy", ["verification", "billing", "autopay", "disambiguation"])
def autopay_enroll(w: World) -> None:
    h = w.household(methods=[("card", "Visa"), ("expired", "Visa"), ("bank", "Checking")])
    target = w.rng.choice([h.methods[0], h.methods[2]])
    other = h.methods[2] if target is h.methods[0] else h.methods[0]
    w.identify(h)
    w.call("get_policyholder", policyholder_id=h.id)
    w.call("set_autopay", policy_id=h.pol, enabled=True, payment_method_id=target["id"])
    nxt = h.next_open()
    what = "checking account" if target["kind"] == "bank_account" else "Visa card"
    w.user = {
        "persona": w.persona(h, "Keeps forgetting due dates."),
        "goal": f"Turn on autopay for the policy, charged to the {what} ({target['label']}).",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "autopay_method": target["label"]},
        "first_message": f"Hi, I'd like to set up autopay on my car insurance using my {what} ending "
                         f"{target['label'][-4:]}. Email is {h.email}.",
        "scripted_turns": [w.verify_line(h), "Yes, that one. Thanks!"],
    }
    w.reply = (f"Autopay is now on for policy {h.pol}, charged to your {target['label']}. Your next instalment, "
               f"{dollars(nxt['amount'])} due {nxt['due_date']}, will be charged automatically.")
    w.facts(target["label"][-4:])
    w.wrong("wrong_entity", "sets up autopay on the other payment method",
            replace={w.at("set_autopay"): ("set_autopay", {"policy_id": h.pol, "enabled": True,
                                                            "payment_method_id": other["id"]})})
    w.no_verify()


@template("single_write", "medium", ["verification", "coverage", "premium", "effective_date"])
def deductible_change(w: World) -> None:
    ctype = w.rng.choice(["collision", "comprehensive"])
    cur = 500 if ctype == "collision" else w.rng.choice([250, 500])
    new = 1000 if ctype == "collision" else (500 if cur == 250 else 1000)
    covs = {"liability": "100/300", "collision": 500, "comprehensive": 250}
    covs[ctype] = cur
    h = w.household(coverages=covs, cars=w.rng.choice([1, 2]))
    eff = day(w.rng.choice([0, 0, 1, 3, 5, 7, 14]))
    start = "starting today" if eff == day(0) else f"starting {spoken(eff)}"
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("quote_coverage_change", policy_id=h.pol, coverage_type=ctype, effective_date=eff, deductible=new)
    res = w.call("change_coverage", policy_id=h.pol, coverage_type=ctype, effective_date=eff, deductible=new)
    w.user = {
        "persona": w.persona(h, "Wants a lower premium and can afford a higher deductible."),
        "goal": f"Raise the {ctype} deductible from ${cur} to ${new}, effective {eff}, and learn the savings.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "effective_date": eff},
        "first_message": f"Hi, I'd like to raise my {ctype} deductible to ${new:,} {start}. How much will that save "
                         f"me? I'm {h.email}.",
        "scripted_turns": [w.verify_line(h), "Sounds good, please go ahead.", "Thanks!"],
    }
    b = res["billing"]
    w.reply = (f"Your {ctype} deductible is now {dollars(new)} from {eff}. That lowers your annual premium by "
               f"{dollars(res['annual_premium_change'])} to {dollars(res['new_annual_premium'])}; the "
               f"{dollars(res['prorated_change'])} credit for the rest of this term is applied to invoice "
               f"{b['invoice_id']}.")
    w.facts(abs(res["prorated_change"]))
    w.wrong("wrong_amount", "sets a different deductible than asked", replace={w.at("change_coverage"): (
        "change_coverage", {"policy_id": h.pol, "coverage_type": ctype, "effective_date": eff, "deductible": 2000
                            if ctype == "collision" else (1000 if new != 1000 else 250)})})
    other = "comprehensive" if ctype == "collision" else "collision"
    w.wrong("wrong_entity", "changes the other physical-damage coverage", replace={w.at("change_coverage"): (
        "change_coverage", {"policy_id": h.pol, "coverage_type": other, "effective_date": eff, "deductible": 1000})})
    w.no_verify()


@template("single_write", "medium", ["verification", "coverage", "premium", "effective_date"])
def add_optional_coverage(w: World) -> None:
    h = w.household()
    kind = w.rng.choice(["rental_reimbursement", "rental_reimbursement", "roadside_assistance", "medical_payments"])
    eff = day(w.rng.choice([0, 1, 2, 5, 10]))
    start = "today" if eff == day(0) else f"on {spoken(eff)}"
    opt: dict[str, Any] = {}
    if kind == "rental_reimbursement":
        opt = {"daily_limit": w.rng.choice([30, 40, 50])}
        what = f"rental car coverage at ${opt['daily_limit']} a day"
    elif kind == "medical_payments":
        opt = {"limit_code": w.rng.choice(["5000", "10000"])}
        what = f"medical payments coverage with a ${int(opt['limit_code']):,} limit"
    else:
        what = "roadside assistance"
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("quote_coverage_change", policy_id=h.pol, coverage_type=kind, effective_date=eff, **opt)
    res = w.call("add_coverage", policy_id=h.pol, coverage_type=kind, effective_date=eff, **opt)
    w.user = {
        "persona": w.persona(h),
        "goal": f"Add {what} to the policy starting {eff}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "effective_date": eff},
        "first_message": f"Hello, I want to add {what} to my policy, starting {start}. What will it cost? "
                         f"My email is {h.email}.",
        "scripted_turns": [w.verify_line(h), "OK, add it please.", "Thank you."],
    }
    b = res["billing"]
    w.reply = (f"{what[0].upper() + what[1:]} is added from {eff}. It costs {dollars(res['annual_premium_change'])} a "
               f"year; {dollars(res['prorated_change'])} for the rest of this term is added to invoice "
               f"{b['invoice_id']} due {b['due_date']}.")
    w.facts(res["prorated_change"])
    if kind == "rental_reimbursement":
        alt = {"daily_limit": 50 if opt["daily_limit"] != 50 else 30}
    elif kind == "medical_payments":
        alt = {"limit_code": "10000" if opt["limit_code"] == "5000" else "5000"}
    else:
        alt = None
    if alt:
        w.wrong("wrong_amount", "adds the coverage with another option", replace={w.at("add_coverage"): (
            "add_coverage", {"policy_id": h.pol, "coverage_type": kind, "effective_date": eff, **alt})})
    else:
        w.wrong("extra_write", "also adds rental coverage nobody asked for", append=[(
            "add_coverage", {"policy_id": h.pol, "coverage_type": "rental_reimbursement", "effective_date": eff,
                             "daily_limit": 30})])
    w.wrong("wrong_amount", "starts the coverage today instead of on the requested date" if eff != day(0)
            else "starts the coverage a week late", replace={w.at("add_coverage"): (
                "add_coverage", {"policy_id": h.pol, "coverage_type": kind,
                                 "effective_date": day(0) if eff != day(0) else day(7), **opt})})
    w.no_verify()


@template("single_write", "medium", ["verification", "billing", "extension", "policy_limits"])
def billing_extension(w: World) -> None:
    h = w.household(last_due_days_ago=w.rng.randint(20, 26))
    nxt = h.next_open()
    orig = nxt["original_due_date"]
    if w.rng.random() < 0.5:  # one earlier extension this year: still within the limit of 2
        paid = next(i for i in h.invoices if i["status"] == "paid")
        w.add("billing_extensions", id=w.new_id("EXT"), invoice_id=paid["id"], policy_id=h.pol,
              previous_due_date=paid["due_date"], new_due_date=iso(date.fromisoformat(paid["due_date"]) + timedelta(days=7)),
              granted_on=iso(date.fromisoformat(paid["due_date"]) - timedelta(days=2)), reason="Paycheck timing")
    too_long = w.rng.random() < 0.5
    limit = iso(date.fromisoformat(orig) + timedelta(days=14))
    asked = iso(date.fromisoformat(orig) + timedelta(days=w.rng.randint(17, 24) if too_long else w.rng.randint(5, 12)))
    new = limit if too_long else asked
    w.identify(h)
    w.call("get_billing_account", policy_id=h.pol)
    res = w.call("grant_billing_extension", invoice_id=nxt["id"], new_due_date=new,
                 reason="Customer needs more time before payday")
    turns = [w.verify_line(h)]
    if too_long:
        turns.append(f"Hmm, OK. Then please move it to the latest date you can, {spoken(limit)}.")
    turns.append("Thanks a lot.")
    w.user = {
        "persona": w.persona(h, "Payday is later than usual this month."),
        "goal": f"Move the payment due {orig} to {asked}" + (" (or the latest date allowed)." if too_long else "."),
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "wanted_due_date": asked},
        "instructions": "If the agent says your date is too late, accept the latest date they can offer." if too_long else None,
        "first_message": f"Hi, my car insurance payment is due {spoken(orig)} but I get paid late this month. Can you "
                         f"push it to {spoken(asked)}? {h.email}",
        "scripted_turns": turns,
    }
    if not too_long:
        del w.user["instructions"]
    w.reply = ((f"Extensions can move a due date at most 14 days past the original due date, so the latest "
                f"possible is {limit}. " if too_long else "")
               + f"Invoice {nxt['id']} ({dollars(res['balance'])}) is now due on {res['new_due_date']}.")
    w.facts(new)
    w.wrong("wrong_amount", "grants the date asked for, past the 14-day limit" if too_long
            else "moves the due date to the 14-day maximum instead of the date asked for",
            replace={w.at("grant_billing_extension"): ("grant_billing_extension", {
                "invoice_id": nxt["id"], "new_due_date": asked if too_long else limit,
                "reason": "Customer needs more time before payday"})})
    w.no_verify()


@template("single_write", "medium", ["verification", "billing", "payments", "late_fee"])
def pay_invoice(w: World) -> None:
    h = w.household(last_due_days_ago=w.rng.randint(12, 27),
                    methods=[("card", "Mastercard"), ("card", w.rng.choice(["Visa", "Amex", "Discover"]))])
    past = [i for i in h.invoices if i["status"] == "paid"][-1]
    w.unpay(past)
    card = w.rng.choice(h.methods)
    other = h.methods[1] if card is h.methods[0] else h.methods[0]
    w.identify(h)
    acct = w.call("get_billing_account", policy_id=h.pol)
    w.call("get_policyholder", policyholder_id=h.id)
    bal = acct["past_due_balance"]
    res = w.call("make_payment", invoice_id=past["id"], amount=bal, payment_method_id=card["id"])
    w.user = {
        "persona": w.persona(h, "Embarrassed about the missed payment."),
        "goal": f"Pay the overdue amount in full with the {card['label']}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "card": card["label"]},
        "instructions": "Pay only what is overdue, not the upcoming instalment. Do not ask for the fee to be waived.",
        "first_message": f"Hi, I missed a payment. I'd like to pay whatever is overdue with my {card['label']}. "
                         f"Email: {h.email}",
        "scripted_turns": [w.verify_line(h), "Yes, charge it.", "Thanks."],
    }
    w.reply = (f"I charged {dollars(res['charged'])} to your {card['label']} for invoice {past['id']} (the "
               f"instalment plus the {dollars(T.LATE_FEE)} late fee). That invoice is now paid.")
    w.facts(bal)
    w.wrong("wrong_amount", "charges the instalment without the late fee, leaving the invoice past due",
            replace={w.at("make_payment"): ("make_payment", {"invoice_id": past["id"], "amount": past["amount"],
                                                             "payment_method_id": card["id"]})})
    w.wrong("wrong_entity", "charges the other card", replace={w.at("make_payment"): (
        "make_payment", {"invoice_id": past["id"], "amount": bal, "payment_method_id": other["id"]})})
    w.no_verify()


@template("single_write", "medium", ["verification", "claims", "disambiguation"])
def withdraw_claim_request(w: World) -> None:
    h = w.household(cars=2, coverages={"liability": "100/300", "collision": 500, "comprehensive": 500},
                    eff_days_ago=w.rng.randint(90, 300))
    v1, v2 = h.vehicles
    glass = w.claim(h, status="reported", loss_type="comprehensive", vehicle=v1, driver=None,
                    loss_days_ago=w.rng.randint(2, 6), description="Chip in the windshield")
    adj = w.adjuster(h.state, "collision")
    other = w.claim(h, status="assigned", loss_type="collision", vehicle=v2, driver=h.drivers[0],
                    loss_days_ago=w.rng.randint(8, 30), adjuster=adj)
    w.identify(h)
    w.call("list_claims", policy_id=h.pol)
    w.call("withdraw_claim", claim_id=glass["id"], reason="Customer will pay for the windshield repair")
    w.user = {
        "persona": w.persona(h, "Decided the repair is cheaper than the deductible."),
        "goal": f"Withdraw the windshield claim on the {h.car(v1)}; keep the other claim open.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip},
        "instructions": f"Only the windshield claim on the {v1['make']} {v1['model']}; the collision claim on the "
                        f"{v2['make']} {v2['model']} must stay open.",
        "first_message": f"Hi, I reported a windshield chip on my {v1['make']} {v1['model']} a few days ago, but I'll "
                         f"just pay for it myself. Can you cancel that claim? {h.email}",
        "scripted_turns": [w.verify_line(h), "Yes, only that one. Thanks."],
    }
    w.reply = f"Your windshield claim {glass['id']} is withdrawn. Your collision claim {other['id']} stays open."
    w.facts(glass["id"])
    w.unchanged("claims", other["id"], ["status"])
    w.wrong("wrong_entity", "withdraws the open collision claim instead", replace={w.at("withdraw_claim"): (
        "withdraw_claim", {"claim_id": other["id"], "reason": "Customer will pay for the repair"})})
    w.no_verify()


@template("single_write", "medium", ["verification", "claims", "claim_rules"])
def claim_correction_reported(w: World) -> None:
    h = w.household(cars=2, coverages={"liability": "100/300", "collision": 500, "comprehensive": 500},
                    eff_days_ago=w.rng.randint(60, 300))
    v1, v2 = h.vehicles
    wrong_loss = w.rng.randint(2, 5)
    c = w.claim(h, status="reported", loss_type="collision", vehicle=v1, driver=h.drivers[0],
                loss_days_ago=wrong_loss, description="Backed into a bollard")
    real = day(-wrong_loss - w.rng.randint(1, 3))
    w.identify(h)
    w.call("get_claim", claim_id=c["id"])
    w.call("update_claim", claim_id=c["id"], loss_date=real, vehicle_id=v2["id"])
    w.user = {
        "persona": w.persona(h, "Filed the claim online in a rush."),
        "goal": f"Correct claim {c['id']}: the loss was on {real} and it was the {h.car(v2)}, not the {h.car(v1)}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "claim_id": c["id"],
                        "real_loss_date": real, "real_vehicle": h.car(v2)},
        "first_message": f"I made two mistakes on claim {c['id']}: it happened on {spoken(real)}, and it was my "
                         f"{v2['make']} {v2['model']}, not the {v1['make']}. Can you fix it? I'm {h.email}.",
        "scripted_turns": [w.verify_line(h), "Great, thanks."],
    }
    w.reply = (f"Claim {c['id']} is corrected: loss date {real}, vehicle {h.car(v2)}. No adjuster has been assigned "
               "yet, so the adjuster will see the corrected details.")
    w.wrong("wrong_entity", "fixes the date but leaves the wrong vehicle on the claim",
            replace={w.at("update_claim"): ("update_claim", {"claim_id": c["id"], "loss_date": real})})
    w.wrong("missing_step", "does not correct the claim", drop=[w.at("update_claim")])
    w.no_verify()


# -- templates: multi-step workflows --------------------------------------------------------------


COLLISIONS = [
    ("I was rear-ended at a red light", "Rear-ended at a red light"),
    ("I slid into a guardrail on an icy off-ramp", "Slid into a guardrail on ice"),
    ("someone ran a stop sign and hit my front bumper", "Other driver ran a stop sign and hit the front bumper"),
    ("I backed into a concrete pillar in a parking garage", "Backed into a pillar in a parking garage"),
    ("I hit a car that stopped short in traffic", "Hit a car that stopped short in traffic"),
]


def _best(adjusters: list[dict[str, Any]]) -> dict[str, Any]:
    """Policy: fewest open claims among those with capacity; ties to the lowest id."""
    return min((a for a in adjusters if a["has_capacity"]), key=lambda a: (a["open_claims"], a["adjuster_id"]))


def _runner_up(adjusters: list[dict[str, Any]], best: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in adjusters if a["has_capacity"] and a["adjuster_id"] != best["adjuster_id"])


@template("multi_step", "hard", ["verification", "claims", "fnol", "adjusters", "rental"], test=3, train=2)
def fnol_assign(w: World) -> None:
    state = w.rng.choice(w.states_with_choice("collision"))
    h = w.household(state=state, spouse=w.rng.random() < 0.5, cars=w.rng.choice([1, 2]),
                    coverages={"liability": "100/300", "collision": w.rng.choice([500, 1000]),
                               "comprehensive": 500, "rental_reimbursement": w.rng.choice([30, 40, 50])},
                    eff_days_ago=w.rng.randint(60, 300))
    veh = w.rng.choice(h.vehicles)
    drv = w.rng.choice(h.drivers)
    said, desc = w.rng.choice(COLLISIONS)
    loss = day(-w.rng.randint(0, 4))
    days = w.rng.choice(REPAIR_DAYS)
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("list_claims", policy_id=h.pol)
    claim = w.call("file_claim", policy_id=h.pol, vehicle_id=veh["id"], loss_date=loss, loss_type="collision",
                   description=desc, driver_id=drv["id"], injuries=False)
    adjs = w.call("find_adjusters", state=state, specialty="collision")
    best, other = _best(adjs), None
    other = _runner_up(adjs, best)
    w.call("assign_adjuster", claim_id=claim["claim_id"], adjuster_id=best["adjuster_id"])
    rental = w.call("authorize_rental", claim_id=claim["claim_id"], days=days)
    who = "I was driving" if drv["relationship"] == "named_insured" else f"my {drv['relationship']} {drv['first_name']} was driving"
    w.user = {
        "persona": w.persona(h, "Shaken but unhurt; the car is at a body shop."),
        "goal": f"Report the collision of {loss} with the {h.car(veh)}, get an adjuster, and get a rental car "
                f"for the {days} days the shop estimated.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "loss_date": loss,
                        "vehicle": h.car(veh), "driver": f"{drv['first_name']} {drv['last_name']}",
                        "injuries": "nobody was hurt", "repair_estimate_days": days},
        "first_message": f"Hi, I need to report an accident: on {spoken(loss)} {said} in my {veh['make']} "
                         f"{veh['model']}. {who[0].upper() + who[1:]}, and nobody was hurt. The shop says repairs "
                         f"take {days} days, so I'll need a rental. My email is {h.email}.",
        "scripted_turns": [w.verify_line(h), "Yes, that's everything. Thank you."],
    }
    w.reply = (f"Your claim {claim['claim_id']} is filed (collision, loss date {loss}, deductible "
               f"{dollars(claim['deductible'])}). Adjuster {best['name']} ({best['phone']}) is assigned and will "
               f"contact you. I've authorised {days} rental days at up to {dollars(rental['daily_limit'])} a day.")
    w.facts(claim["claim_id"], best["name"])
    w.wrong("wrong_entity", "assigns an adjuster with more open claims",
            replace={w.at("assign_adjuster"): ("assign_adjuster", {"claim_id": claim["claim_id"],
                                                                    "adjuster_id": other["adjuster_id"]})})
    w.wrong("wrong_amount", "authorises the 30-day maximum instead of the shop's estimate",
            replace={w.at("authorize_rental"): ("authorize_rental", {"claim_id": claim["claim_id"], "days": 30})})
    w.wrong("missing_step", "files the claim but assigns no adjuster", drop=[w.at("assign_adjuster")])


@template("multi_step", "hard", ["verification", "claims", "fnol", "adjusters", "injury", "tickets", "escalation"])
def fnol_injury(w: World) -> None:
    state = w.rng.choice([s for s in w.states_with_choice("injury") if s in w.states_with_choice("collision")])
    h = w.household(state=state, spouse=True, coverages={
        "liability": "100/300", "collision": 500, "comprehensive": 500, "medical_payments": "5000"},
        eff_days_ago=w.rng.randint(60, 300))
    veh = h.vehicles[0]
    drv = w.rng.choice(h.drivers)
    said, desc = w.rng.choice(COLLISIONS)
    hurt = w.rng.choice(["my passenger hurt her wrist", "I have whiplash", "the other driver hurt his shoulder",
                         "my spouse bruised some ribs"])
    loss = day(-w.rng.randint(0, 3))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("list_claims", policy_id=h.pol)
    claim = w.call("file_claim", policy_id=h.pol, vehicle_id=veh["id"], loss_date=loss, loss_type="collision",
                   description=f"{desc}; injuries: {hurt}", driver_id=drv["id"], injuries=True)
    adjs = w.call("find_adjusters", state=state, specialty="injury")
    best = _best(adjs)
    w.call("assign_adjuster", claim_id=claim["claim_id"], adjuster_id=best["adjuster_id"])
    t = w.call("create_ticket", policyholder_id=h.id, subject=f"Injury claim {claim['claim_id']}", category="claim",
               policy_id=h.pol, claim_id=claim["claim_id"])
    w.call("escalate_ticket", ticket_id=t["ticket_id"], reason="Claim involves injuries")
    collision_adj = _best(w.peek("find_adjusters", state=state, specialty="collision"))
    who = "I was driving" if drv["relationship"] == "named_insured" else f"my {drv['relationship']} {drv['first_name']} was driving"
    w.user = {
        "persona": w.persona(h, "Stressed; wants to know someone senior is on it."),
        "goal": f"Report the accident of {loss} with the {h.car(veh)} in which someone was hurt, and get it handled.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "loss_date": loss,
                        "vehicle": h.car(veh), "driver": f"{drv['first_name']} {drv['last_name']}", "injuries": hurt},
        "first_message": f"I need to report an accident from {spoken(loss)}: {said} in our {veh['make']} "
                         f"{veh['model']}, and {hurt}. {who[0].upper() + who[1:]}. I'm {h.email}.",
        "scripted_turns": [w.verify_line(h), "Thank you, I appreciate it."],
    }
    w.reply = (f"I've filed claim {claim['claim_id']} (collision with injuries, loss date {loss}) and assigned "
               f"injury adjuster {best['name']} ({best['phone']}). I also opened ticket {t['ticket_id']} and "
               "escalated it, so a supervisor will contact you within one business day.")
    w.facts(claim["claim_id"], best["name"])
    w.wrong("wrong_entity", "assigns a collision adjuster although someone was hurt",
            replace={w.at("assign_adjuster"): ("assign_adjuster", {"claim_id": claim["claim_id"],
                                                                    "adjuster_id": collision_adj["adjuster_id"]})})
    w.wrong("missing_step", "opens the ticket but does not escalate it", drop=[w.at("escalate_ticket")])
    w.no_verify()


@template("multi_step", "hard", ["verification", "billing", "late_fee", "payments", "tickets"])
def waive_and_pay(w: World) -> None:
    h = w.household(last_due_days_ago=w.rng.randint(12, 27),
                    methods=[("card", w.rng.choice(["Visa", "Mastercard"])), ("bank", "Checking")])
    past = [i for i in h.invoices if i["status"] == "paid"][-1]
    w.unpay(past)
    t = w.ticket(h, subject="Late fee on my last bill", category="billing", days_ago=w.rng.randint(1, 6),
                 note="Customer says the payment reminder never arrived and asks about the late fee.")
    pm = w.rng.choice(h.methods)
    other = h.methods[1] if pm is h.methods[0] else h.methods[0]
    w.identify(h)
    w.call("get_billing_account", policy_id=h.pol)
    w.call("list_invoices", policy_id=h.pol)
    waived = w.call("waive_late_fee", invoice_id=past["id"], reason="First late fee; reminder not received")
    w.call("get_policyholder", policyholder_id=h.id)
    paid = w.call("make_payment", invoice_id=past["id"], amount=waived["new_balance"], payment_method_id=pm["id"])
    w.call("get_ticket", ticket_id=t["id"])
    w.call("add_ticket_note", ticket_id=t["id"], note=f"Late fee waived on {past['id']}; balance paid in full.")
    w.user = {
        "persona": w.persona(h, "Never got the payment reminder."),
        "goal": f"Get the late fee on the overdue bill waived, pay the rest with the {pm['label']}, and have "
                f"ticket {t['id']} updated.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "ticket_id": t["id"],
                        "pay_with": pm["label"]},
        "first_message": f"Hi, about my ticket {t['id']}: I missed a payment because the reminder never came. Could "
                         f"you waive the late fee? Then I'll pay the rest right away with my {pm['label']}. "
                         f"Email {h.email}.",
        "scripted_turns": [w.verify_line(h), "Yes please, go ahead.", "Thanks so much."],
    }
    w.reply = (f"I've waived the {dollars(T.LATE_FEE)} late fee on invoice {past['id']} and charged "
               f"{dollars(paid['charged'])} to your {pm['label']}; the invoice is now paid. I've noted this on "
               f"ticket {t['id']}.")
    w.facts(paid["charged"])
    w.exists("ticket_notes", ticket_id=t["id"], author="agent")
    w.wrong("missing_step", "takes the payment without waiving the fee (the fee stays owed)",
            drop=[w.at("waive_late_fee")])
    w.wrong("wrong_entity", "charges the other payment method", replace={w.at("make_payment"): (
        "make_payment", {"invoice_id": past["id"], "amount": waived["new_balance"], "payment_method_id": other["id"]})})
    w.wrong("missing_step", "does not note the ticket the caller mentioned", drop=[w.at("add_ticket_note")])


@template("multi_step", "hard", ["verification", "billing", "arrangement", "late_fee", "tickets"], test=3, train=2)
def arrangement_with_waiver(w: World) -> None:
    h = w.household(last_due_days_ago=w.rng.randint(3, 9))
    paid = [i for i in h.invoices if i["status"] == "paid"]
    older, newer = paid[-2], paid[-1]
    w.unpay(older)
    w.unpay(newer)
    n = w.rng.choice([2, 3, 4])
    t = w.ticket(h, subject="Can't pay the full balance", category="billing", days_ago=w.rng.randint(1, 4),
                 note="Customer lost hours at work and asks about paying in parts.")
    w.identify(h)
    acct = w.call("get_billing_account", policy_id=h.pol)
    w.call("list_invoices", policy_id=h.pol)
    w.call("waive_late_fee", invoice_id=older["id"], reason="Hardship; first waiver this year")
    arr = w.call("create_payment_arrangement", policy_id=h.pol, installments=n)
    w.call("get_ticket", ticket_id=t["id"])
    w.call("add_ticket_note", ticket_id=t["id"],
           note=f"Late fee on {older['id']} waived; arrangement {arr['arrangement_id']} in {n} instalments.")
    first = arr["schedule"][0]
    w.user = {
        "persona": w.persona(h, "Lost hours at work; wants to keep the policy active."),
        "goal": f"Have the late fee waived and split the overdue balance into {n} monthly payments; update ticket {t['id']}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "ticket_id": t["id"],
                        "installments_wanted": n},
        "first_message": f"Hi, I'm behind on two car insurance payments (ticket {t['id']}). Is there any way to waive "
                         f"the late fee and split what I owe into {n} payments? {h.email}",
        "scripted_turns": [w.verify_line(h), "Yes, that works for me.", "Thank you!"],
    }
    w.reply = (f"I've waived the {dollars(T.LATE_FEE)} late fee on invoice {older['id']} and set up payment "
               f"arrangement {arr['arrangement_id']}: your overdue {dollars(arr['total_amount'])} is split into {n} "
               f"payments, the first {dollars(first['amount'])} due {first['due_date']}, then every 30 days. I've "
               f"noted ticket {t['id']}.")
    w.facts(first["amount"], first["due_date"])
    w.exists("ticket_notes", ticket_id=t["id"], author="agent")
    w.wrong("wrong_amount", "sets up a different number of instalments", replace={
        w.at("create_payment_arrangement"): ("create_payment_arrangement",
                                             {"policy_id": h.pol, "installments": n + 1 if n < 4 else 2})})
    w.wrong("missing_step", "splits the balance without waiving the late fee first", drop=[w.at("waive_late_fee")])
    w.wrong("missing_step", "does not note the ticket", drop=[w.at("add_ticket_note")])
    assert acct["past_due_balance"] >= 100


LENDER_CHOICES = ["Ally Financial", "Toyota Financial Services", "Chase Auto", "Capital One Auto", "Honda Financial Services"]


@template("multi_step", "hard", ["verification", "vehicles", "vin", "lienholder", "coverage", "premium"])
def replace_vehicle_bundle(w: World) -> None:
    makes = w.rng.sample(base.MODELS[:28], 2)
    while makes[0][0] == makes[1][0]:
        makes = w.rng.sample(base.MODELS[:28], 2)
    h = w.household(cars=2, car_models=makes, coverages={"liability": "100/300", "collision": w.rng.choice([500, 1000]),
                                                          "comprehensive": w.rng.choice([250, 500])})
    old, keep = w.rng.sample(h.vehicles, 2)
    new = w.new_car(min_year=2025, max_year=2027)
    lender = w.rng.choice(LENDER_CHOICES)
    usage = w.rng.choice(["commute", "pleasure"])
    miles = w.rng.choice([8000, 10000, 12000, 15000])
    eff = day(w.rng.choice([0, 1, 2, 4, 7]))
    daily = w.rng.choice([30, 40, 50])
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("decode_vin", vin=new["vin"])
    w.call("quote_vehicle", policy_id=h.pol, vin=new["vin"], usage=usage, effective_date=eff, replaces_vehicle_id=old["id"])
    rep = w.call("replace_vehicle", policy_id=h.pol, vehicle_id=old["id"], vin=new["vin"], usage=usage,
                 annual_mileage=miles, effective_date=eff, lienholder=lender)
    w.call("quote_coverage_change", policy_id=h.pol, coverage_type="rental_reimbursement", effective_date=eff,
           daily_limit=daily)
    ren = w.call("add_coverage", policy_id=h.pol, coverage_type="rental_reimbursement", effective_date=eff,
                 daily_limit=daily)
    use_words = "I'll drive it to work every day" if usage == "commute" else "it's just for weekends and errands"
    w.user = {
        "persona": w.persona(h, "Just traded in a car at the dealership."),
        "goal": f"Replace the {h.car(old)} with the new {h.car(new)} (financed by {lender}) from {eff}, and add "
                f"rental reimbursement at ${daily}/day.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "new_vin": new["vin"],
                        "lienholder": lender, "usage": usage, "annual_mileage": miles, "effective_date": eff,
                        "rental_daily_limit": daily},
        "first_message": f"Hi! I traded in my {old['make']} {old['model']} for a new {new['make']} {new['model']}, "
                         f"financed through {lender}. VIN {new['vin']}. Please swap it on my policy from "
                         f"{when(eff)}; {use_words}, about {miles:,} miles a year. And while we're at it, add "
                         f"rental car coverage at ${daily} a day. I'm {h.email}.",
        "scripted_turns": [w.verify_line(h), "Yes, go ahead with both.", "Great, thanks."],
    }
    w.reply = (f"Done. From {eff} your {h.car(new)} ({rep['vehicle_id']}, lienholder {lender}) replaces the "
               f"{h.car(old)}: {'+' if rep['annual_premium_change'] >= 0 else '-'}{dollars(rep['annual_premium_change'])} "
               f"a year, {dollars(rep['prorated_change'])} for the rest of the term. Rental reimbursement at "
               f"{dollars(daily)} a day is added: {dollars(ren['annual_premium_change'])} a year, "
               f"{dollars(ren['prorated_change'])} for the rest of the term.")
    w.facts(abs(rep["prorated_change"]), ren["prorated_change"])
    w.wrong("wrong_entity", "replaces the other car", replace={w.at("replace_vehicle"): (
        "replace_vehicle", {"policy_id": h.pol, "vehicle_id": keep["id"], "vin": new["vin"], "usage": usage,
                            "annual_mileage": miles, "effective_date": eff, "lienholder": lender})})
    w.wrong("missing_step", "leaves out the lienholder the caller mentioned", replace={w.at("replace_vehicle"): (
        "replace_vehicle", {"policy_id": h.pol, "vehicle_id": old["id"], "vin": new["vin"], "usage": usage,
                            "annual_mileage": miles, "effective_date": eff})})
    w.wrong("wrong_amount", "adds rental coverage at another daily limit", replace={w.at("add_coverage"): (
        "add_coverage", {"policy_id": h.pol, "coverage_type": "rental_reimbursement", "effective_date": eff,
                         "daily_limit": 50 if daily != 50 else 30})})


@template("multi_step", "hard", ["verification", "drivers", "vehicles", "coverage", "account", "autopay", "tickets"],
          test=3, train=2)
def household_update(w: World) -> None:
    h = w.household(children=2, cars=1, methods=[("card", "Visa"), ("bank", "Checking")],
                    coverages={"liability": "100/300", "uninsured_motorist": "100/300", "collision": 500,
                               "comprehensive": 500})
    leaving, staying = h.drivers[1], h.drivers[2]
    pf, _ = w.person(h.holder["last_name"])
    pdob = w.dob(30, 60)
    partner = w.mvr(pf, h.holder["last_name"], pdob, h.state)
    old = h.vehicles[0]
    new = w.new_car(min_year=2021, max_year=2026)
    eff = day(w.rng.randint(2, 10))
    usage = w.rng.choice(["commute", "pleasure"])
    miles = w.rng.choice([9000, 11000, 13000])
    new_email = f"{h.first.lower()}.{h.holder['last_name'].lower()}@example.org"
    bank = h.methods[1]
    t = w.ticket(h, subject="Household changes after the wedding", category="policy_change", days_ago=2,
                 note="Customer will call to make several changes.")
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("lookup_mvr", license_number=partner["license_number"], license_state=h.state)
    w.call("quote_add_driver", policy_id=h.pol, license_number=partner["license_number"], license_state=h.state,
           effective_date=eff)
    added = w.call("add_driver", policy_id=h.pol, first_name=pf, last_name=h.holder["last_name"], date_of_birth=pdob,
                   license_number=partner["license_number"], license_state=h.state, relationship="spouse",
                   effective_date=eff)
    w.call("remove_driver", policy_id=h.pol, driver_id=leaving["id"], effective_date=eff,
           reason="Moved out and has own insurance")
    w.call("decode_vin", vin=new["vin"])
    w.call("quote_vehicle", policy_id=h.pol, vin=new["vin"], usage=usage, effective_date=eff, replaces_vehicle_id=old["id"])
    rep = w.call("replace_vehicle", policy_id=h.pol, vehicle_id=old["id"], vin=new["vin"], usage=usage,
                 annual_mileage=miles, effective_date=eff)
    w.call("quote_coverage_change", policy_id=h.pol, coverage_type="collision", effective_date=eff, deductible=1000)
    w.call("change_coverage", policy_id=h.pol, coverage_type="collision", effective_date=eff, deductible=1000)
    w.call("update_contact_info", policyholder_id=h.id, email=new_email)
    w.call("get_policyholder", policyholder_id=h.id)
    w.call("set_autopay", policy_id=h.pol, enabled=True, payment_method_id=bank["id"])
    final = w.peek("get_policy", policy_id=h.pol)
    w.call("add_ticket_note", ticket_id=t["id"], note="Added spouse, removed child, replaced vehicle, collision "
                                                       "deductible 1000, new email, autopay on checking.")
    w.user = {
        "persona": w.persona(h, "Just married; wants everything updated in one call."),
        "goal": (f"From {eff}: add spouse {pf} {h.holder['last_name']}, remove {leaving['first_name']} (moved out), "
                 f"replace the {h.car(old)} with the {h.car(new)}, raise the collision deductible to $1,000; also "
                 f"change the email to {new_email} and put autopay on the checking account. Ticket {t['id']}."),
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "ticket_id": t["id"],
                        "effective_date": eff, "spouse_name": f"{pf} {h.holder['last_name']}",
                        "spouse_date_of_birth": pdob, "spouse_license": f"{partner['license_number']} ({h.state})",
                        "child_moving_out": leaving["first_name"], "new_vin": new["vin"], "usage": usage,
                        "annual_mileage": miles, "lienholder": "none, paid cash", "new_email": new_email,
                        "autopay_account": bank["label"]},
        "instructions": f"{staying['first_name']} stays on the policy. Give details when asked.",
        "first_message": f"Hi, lots of changes after our wedding (ticket {t['id']}), all from {when(eff)}, please: "
                         f"add my spouse {pf} ({spoken(pdob)}, {h.state} licence {partner['license_number']}), take "
                         f"{leaving['first_name']} off since they moved out, swap my {old['make']} {old['model']} for "
                         f"the {new['year']} {new['make']} {new['model']} we bought (VIN {new['vin']}, paid cash, "
                         f"{'commuting' if usage == 'commute' else 'weekend use'}, ~{miles:,} miles a year), raise the "
                         f"collision deductible to $1,000, change my email to {new_email}, and set up autopay from my "
                         f"checking account. My current email is {h.email}.",
        "scripted_turns": [w.verify_line(h), "Yes, all of that.", "Thank you for your patience!"],
    }
    w.reply = (f"All done, effective {eff}: {pf} is added as a driver ({added['driver_id']}), "
               f"{leaving['first_name']} is removed, your {h.car(new)} replaces the {h.car(old)} "
               f"({rep['vehicle_id']}), and the collision deductible is $1,000. Your new annual premium is "
               f"{dollars(final['annual_premium'])}. Your email is now {new_email}, autopay is on with your "
               f"{bank['label']}, and I've noted everything on ticket {t['id']}.")
    w.facts(new_email)
    w.exists("ticket_notes", ticket_id=t["id"], author="agent")
    w.wrong("wrong_entity", "removes the child who is staying", replace={w.at("remove_driver"): (
        "remove_driver", {"policy_id": h.pol, "driver_id": staying["id"], "effective_date": eff,
                          "reason": "Moved out and has own insurance"})})
    w.wrong("wrong_amount", "sets the collision deductible to $2,000", replace={w.at("change_coverage"): (
        "change_coverage", {"policy_id": h.pol, "coverage_type": "collision", "effective_date": eff, "deductible": 2000})})
    w.wrong("missing_step", "forgets the autopay request", drop=[w.at("set_autopay")])
    w.wrong("missing_step", "does not note the ticket", drop=[w.at("add_ticket_note")])


# -- templates: underwriting approvals ------------------------------------------------------------


def _new_driver(w: World, h: Household, *, young: bool, violations: int, accidents: int) -> tuple[dict[str, Any], str]:
    """An MVR for a driver joining the household; returns (record, relationship)."""
    if young:
        rel = "child"
        dob = iso(TODAY - timedelta(days=w.rng.randint(16 * 365 + 30, 20 * 365 + 200)))
    else:
        rel = w.rng.choice(["spouse", "sibling", "other_household"])
        dob = w.dob(24, 55)
    f, _ = w.person(h.holder["last_name"] if rel != "other_household" else None)
    last = h.holder["last_name"] if rel != "other_household" else w.person()[1]
    m = w.mvr(f, last, dob, h.state, violations=violations, accidents=accidents)
    return m, rel


REL_WORDS = {"child": "my kid", "spouse": "my spouse", "sibling": "my brother", "other_household": "my housemate"}


@template("approval", "hard", ["verification", "drivers", "mvr", "underwriting", "premium"])
def driver_approval_granted(w: World) -> None:
    h = w.household(spouse=w.rng.random() < 0.5)
    young = w.index % 2 == 0
    m, rel = _new_driver(w, h, young=young, violations=0 if young else 1, accidents=0 if young else 1)
    eff = day(w.rng.choice([0, 1, 3, 5, 10]))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("lookup_mvr", license_number=m["license_number"], license_state=h.state)
    w.call("quote_add_driver", policy_id=h.pol, license_number=m["license_number"], license_state=h.state,
           effective_date=eff)
    ap = w.call("request_underwriter_approval", policy_id=h.pol, request_type="add_driver",
                subject=m["license_number"], reason="Young driver" if young else "Two incidents in three years")
    res = w.call("add_driver", policy_id=h.pol, first_name=m["first_name"], last_name=m["last_name"],
                 date_of_birth=m["date_of_birth"], license_number=m["license_number"], license_state=h.state,
                 relationship=rel, effective_date=eff, approval_id=ap["approval_id"])
    who = REL_WORDS[rel] if rel != "child" else w.rng.choice(["my son", "my daughter"])
    w.user = {
        "persona": w.persona(h, "Adding a family member who just started driving." if young else ""),
        "goal": f"Add {m['first_name']} {m['last_name']} as a driver from {eff}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "effective_date": eff,
                        "driver_name": f"{m['first_name']} {m['last_name']}", "driver_date_of_birth": m["date_of_birth"],
                        "driver_license": m["license_number"], "license_state": h.state, "relationship": rel},
        "instructions": None if young else "If asked, admit to one speeding ticket and one fender-bender in the last three years.",
        "first_message": f"Hi, I need to add {who} {m['first_name']} to my car insurance starting {when(eff)}. "
                         f"{m['first_name']} {m['last_name']}, born {spoken(m['date_of_birth'])}, {h.state} licence "
                         f"{m['license_number']}. I'm {h.email}.",
        "scripted_turns": [w.verify_line(h), "OK, please go ahead.", "Thanks!"],
    }
    if young:
        del w.user["instructions"]
    w.reply = (f"The underwriter approved it ({ap['approval_id']}), and {m['first_name']} is on your policy from "
               f"{eff} as driver {res['driver_id']}. Your annual premium goes up by "
               f"{dollars(res['annual_premium_change'])}; {dollars(res['prorated_change'])} for the rest of this term "
               f"is added to invoice {res['billing']['invoice_id']}.")
    w.facts(res["prorated_change"])
    w.wrong("skipped_approval", "adds the driver without asking an underwriter (the tool refuses: no driver added)",
            drop=[w.at("request_underwriter_approval")])
    w.wrong("wrong_reply", "tells the caller the wrong amount", reply=(
        f"{m['first_name']} is added from {eff}; your premium goes up by {dollars(res['annual_premium_change'] / 12)} "
        "a month."))
    w.no_verify()


@template("approval", "medium", ["verification", "drivers", "mvr", "underwriting", "refusal"])
def driver_approval_denied(w: World) -> None:
    h = w.household()
    young = w.index % 2 == 1
    m, rel = _new_driver(w, h, young=young, violations=1 if young else 2, accidents=1 if young else w.rng.choice([1, 2]))
    eff = day(w.rng.choice([0, 2, 7]))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("lookup_mvr", license_number=m["license_number"], license_state=h.state)
    w.call("quote_add_driver", policy_id=h.pol, license_number=m["license_number"], license_state=h.state,
           effective_date=eff)
    ap = w.call("request_underwriter_approval", policy_id=h.pol, request_type="add_driver",
                subject=m["license_number"], reason="Driver with incidents in the last three years")
    assert ap["status"] == "denied"
    who = REL_WORDS[rel] if rel != "child" else "my son"
    w.user = {
        "persona": w.persona(h),
        "goal": f"Add {m['first_name']} {m['last_name']} as a driver from {eff}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "effective_date": eff,
                        "driver_name": f"{m['first_name']} {m['last_name']}", "driver_date_of_birth": m["date_of_birth"],
                        "driver_license": m["license_number"], "license_state": h.state, "relationship": rel},
        "instructions": "If the request is denied, accept it and ask nothing further.",
        "first_message": f"I'd like to add {who} {m['first_name']} {m['last_name']} to my policy from {when(eff)}. "
                         f"Born {spoken(m['date_of_birth'])}, {h.state} licence {m['license_number']}. Email {h.email}.",
        "scripted_turns": [w.verify_line(h), "That's disappointing, but I understand."],
    }
    w.reply = (f"I asked an underwriter, and the request was denied ({ap['approval_id']}): {ap['decision_note']} "
               f"So I can't add {m['first_name']} to the policy; nothing has changed.")
    w.absent("drivers", license_number=m["license_number"])
    w.wrong("missing_step", "tells the caller no without asking an underwriter", drop=[w.at("request_underwriter_approval")])
    w.wrong("extra_write", "opens a ticket nobody needs", append=[(
        "create_ticket", {"policyholder_id": h.id, "subject": "Driver add denied", "category": "underwriting",
                          "policy_id": h.pol})])
    w.no_verify()


@template("approval", "hard", ["verification", "vehicles", "vin", "underwriting", "premium"])
def vehicle_approval_granted(w: World) -> None:
    h = w.household()
    if w.index % 2 == 0:
        make, model, body, price = w.rng.choice(LUXURY)
        car = w.vin_record(make, model, body, 2026, price)
        why = "high-value vehicle"
    else:
        make, model, body, year, value = w.rng.choice(CLASSIC_OK)
        car = w.vin_record(make, model, body, year, value)
        why = "vehicle 25+ years old"
    usage = w.rng.choice(["pleasure", "commute"])
    miles = w.rng.choice([3000, 5000, 8000, 12000])
    eff = day(w.rng.choice([0, 1, 4, 8]))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("decode_vin", vin=car["vin"])
    w.call("quote_vehicle", policy_id=h.pol, vin=car["vin"], usage=usage, effective_date=eff)
    ap = w.call("request_underwriter_approval", policy_id=h.pol, request_type="add_vehicle", subject=car["vin"],
                reason=why)
    res = w.call("add_vehicle", policy_id=h.pol, vin=car["vin"], usage=usage, annual_mileage=miles, effective_date=eff,
                 approval_id=ap["approval_id"])
    w.user = {
        "persona": w.persona(h, "Proud of the new car."),
        "goal": f"Add the {h.car(car)} to the policy from {eff}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "vin": car["vin"],
                        "usage": usage, "annual_mileage": miles, "effective_date": eff, "lienholder": "none"},
        "first_message": f"Hi, I just bought a {car['year']} {make} {model} and want it on my policy from "
                         f"{when(eff)}. VIN {car['vin']}, {'driven to work' if usage == 'commute' else 'weekend drives only'}, "
                         f"maybe {miles:,} miles a year, no loan on it. I'm {h.email}.",
        "scripted_turns": [w.verify_line(h), "Sure, go ahead.", "Excellent, thanks."],
    }
    w.reply = (f"Because it's a {why}, an underwriter had to approve it, and they did ({ap['approval_id']}). Your "
               f"{h.car(car)} is covered from {eff} ({res['vehicle_id']}): {dollars(res['annual_premium_change'])} a "
               f"year, {dollars(res['prorated_change'])} for the rest of this term.")
    w.facts(res["prorated_change"])
    w.wrong("skipped_approval", "adds the vehicle without an underwriter's approval",
            replace={w.at("request_underwriter_approval"): ("add_vehicle", {
                "policy_id": h.pol, "vin": car["vin"], "usage": usage, "annual_mileage": miles, "effective_date": eff})})
    w.wrong("wrong_amount", "records the wrong usage (rated differently)", replace={w.at("add_vehicle"): (
        "add_vehicle", {"policy_id": h.pol, "vin": car["vin"], "usage": "commute" if usage == "pleasure" else "pleasure",
                        "annual_mileage": miles, "effective_date": eff, "approval_id": ap["approval_id"]})})
    w.no_verify()


@template("approval", "medium", ["verification", "vehicles", "vin", "underwriting", "refusal"])
def vehicle_approval_denied(w: World) -> None:
    h = w.household()
    if w.index % 2 == 0:
        make, model, body, price = w.rng.choice(EXOTIC)
        car = w.vin_record(make, model, body, 2026, price)
    else:
        make, model, body, year, value = w.rng.choice(CLASSIC_OLD)
        car = w.vin_record(make, model, body, year, value)
    eff = day(w.rng.choice([0, 2, 6]))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("decode_vin", vin=car["vin"])
    w.call("quote_vehicle", policy_id=h.pol, vin=car["vin"], usage="pleasure", effective_date=eff)
    ap = w.call("request_underwriter_approval", policy_id=h.pol, request_type="add_vehicle", subject=car["vin"],
                reason="Vehicle outside standard guidelines")
    assert ap["status"] == "denied"
    w.user = {
        "persona": w.persona(h, "A car enthusiast."),
        "goal": f"Add the {h.car(car)} to the policy from {eff}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "vin": car["vin"],
                        "usage": "pleasure", "annual_mileage": 2000, "effective_date": eff, "lienholder": "none"},
        "instructions": "If it cannot be added, accept the answer.",
        "first_message": f"Hello, I'd like to add my {car['year']} {make} {model} to my policy from {when(eff)}. "
                         f"VIN {car['vin']}. It's only for weekend drives, about 2,000 miles a year. Email {h.email}.",
        "scripted_turns": [w.verify_line(h), "Oh well. Thanks for checking."],
    }
    w.reply = (f"A vehicle like this needs an underwriter's approval, and the underwriter denied it "
               f"({ap['approval_id']}): {ap['decision_note']} I can't add the {h.car(car)} to your policy.")
    w.absent("vehicles", vin=car["vin"])
    w.wrong("extra_write", "adds the vehicle anyway", append=[("add_vehicle", {
        "policy_id": h.pol, "vin": car["vin"], "usage": "pleasure", "annual_mileage": 2000, "effective_date": eff})])
    w.wrong("missing_step", "declines without asking an underwriter", drop=[w.at("request_underwriter_approval")])


@template("approval", "medium", ["verification", "coverage", "underwriting", "claims_history"], test=3, train=2)
def liability_limit_approval(w: World) -> None:
    h = w.household(coverages={"liability": "250/500", "uninsured_motorist": "100/300", "collision": 500,
                               "comprehensive": 500}, eff_days_ago=w.rng.randint(120, 300))
    approved = w.index % 2 == 0
    if not approved:
        adj = w.adjuster(h.state, "collision")
        w.claim(h, status="closed", loss_type="collision", vehicle=h.vehicles[0], driver=h.drivers[0],
                loss_days_ago=h.days_in_force - 30, adjuster=adj, at_fault=True, paid=3200.0)
    eff = day(w.rng.choice([0, 1, 5]))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("quote_coverage_change", policy_id=h.pol, coverage_type="liability", effective_date=eff, limit_code="500/1000")
    ap = w.call("request_underwriter_approval", policy_id=h.pol, request_type="liability_limit", subject="500/1000",
                reason="Customer wants higher liability limits")
    res = None
    if approved:
        res = w.call("change_coverage", policy_id=h.pol, coverage_type="liability", effective_date=eff,
                     limit_code="500/1000", approval_id=ap["approval_id"])
    w.user = {
        "persona": w.persona(h, "Recently bought a house and wants more protection."),
        "goal": f"Raise liability limits to 500/1000 from {eff} if possible.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "effective_date": eff},
        "instructions": "If it can't be done, keep the current limits; do not ask for anything else.",
        "first_message": f"Hi, I just bought a house and want the highest liability limits you offer, 500/1000, "
                         f"starting {when(eff)}. Can you do that? {h.email}",
        "scripted_turns": [w.verify_line(h), "OK." if not approved else "Yes, please do it.", "Thanks."],
    }
    if approved:
        w.reply = (f"An underwriter approved the higher limits ({ap['approval_id']}). Your liability limits are "
                   f"500/1000 from {eff}: {dollars(res['annual_premium_change'])} more a year, "
                   f"{dollars(res['prorated_change'])} for the rest of this term.")
        w.facts(res["prorated_change"])
        w.wrong("skipped_approval", "raises the limits without asking an underwriter",
                replace={w.at("request_underwriter_approval"): ("change_coverage", {
                    "policy_id": h.pol, "coverage_type": "liability", "effective_date": eff, "limit_code": "500/1000"})})
        w.wrong("wrong_amount", "sets other limits than asked", replace={w.at("change_coverage"): (
            "change_coverage", {"policy_id": h.pol, "coverage_type": "liability", "effective_date": eff,
                                "limit_code": "100/300"})})
        w.no_verify()
    else:
        w.reply = (f"Limits of 500/1000 need an underwriter's approval, and it was denied ({ap['approval_id']}): "
                   f"{ap['decision_note']} Your liability limits stay at 250/500.")
        w.unchanged("coverages", f"{h.pol}/liability", ["limit_code"])
        w.wrong("extra_write", "raises the limits anyway", append=[("change_coverage", {
            "policy_id": h.pol, "coverage_type": "liability", "effective_date": eff, "limit_code": "500/1000"})])
        w.wrong("missing_step", "declines without asking an underwriter", drop=[w.at("request_underwriter_approval")])


# -- templates: refusals ---------------------------------------------------------------------------


@template("refusal", "medium", ["verification", "drivers", "claims", "claim_rules"])
def remove_driver_open_claim(w: World) -> None:
    h = w.household(spouse=w.index % 2 == 0, children=0 if w.index % 2 == 0 else 1, eff_days_ago=w.rng.randint(90, 300))
    d = h.drivers[1]
    adj = w.adjuster(h.state, "collision")
    c = w.claim(h, status="assigned", loss_type="collision", vehicle=h.vehicles[0], driver=d,
                loss_days_ago=w.rng.randint(6, 40), adjuster=adj)
    eff = day(w.rng.choice([0, 1, 5]))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("list_claims", policy_id=h.pol)
    who = "my spouse" if d["relationship"] == "spouse" else "my son"
    w.user = {
        "persona": w.persona(h),
        "goal": f"Remove {d['first_name']} from the policy from {eff} ({d['first_name']} got their own insurance).",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "effective_date": eff},
        "instructions": "If the agent can't do it yet, accept and say you'll call back later.",
        "first_message": f"Hi, please take {who} {d['first_name']} off my policy from {when(eff)}; they have their "
                         f"own insurance now. {h.email}",
        "scripted_turns": [w.verify_line(h), "Ah, I see. I'll call back once that's settled."],
    }
    w.reply = (f"I can't remove {d['first_name']} yet: they are the driver on claim {c['id']}, which is still open "
               f"with adjuster {adj['first_name']} {adj['last_name']}. Once that claim is closed, we can take them off "
               "the policy.")
    w.facts("open")
    w.unchanged("drivers", d["id"], ["status"])
    w.wrong("extra_write", "removes the driver anyway", append=[("remove_driver", {
        "policy_id": h.pol, "driver_id": d["id"], "effective_date": eff, "reason": "Has own insurance"})])
    w.wrong("wrong_reply", "says it is done", reply=f"Done, {d['first_name']} is off your policy from {eff}.")
    w.no_verify()


@template("refusal", "medium", ["verification", "coverage", "lienholder"])
def lienholder_deductible(w: World) -> None:
    lender = w.rng.choice(LENDER_CHOICES)
    cars = w.rng.choice([1, 2])
    h = w.household(cars=cars, lien=[lender] + [None] * (cars - 1), coverages={
        "liability": "100/300", "collision": 500, "comprehensive": 500})
    raise_it = w.index % 2 == 0
    eff = day(w.rng.choice([0, 3]))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    veh = h.vehicles[0]
    if raise_it:
        ask = f"raise my collision deductible to $2,000 starting {when(eff)}"
        goal = f"Raise the collision deductible to $2,000 from {eff}."
        w.reply = (f"I can't: your {h.car(veh)} is financed through {lender}, and while a vehicle has a lienholder "
                   "the collision and comprehensive deductibles can be at most $1,000.")
        w.wrong("extra_write", "raises the deductible anyway", append=[("change_coverage", {
            "policy_id": h.pol, "coverage_type": "collision", "effective_date": eff, "deductible": 2000})])
        w.wrong("extra_write", "substitutes a $1,000 deductible the caller did not ask for", append=[("change_coverage", {
            "policy_id": h.pol, "coverage_type": "collision", "effective_date": eff, "deductible": 1000})])
    else:
        ask = f"drop comprehensive coverage starting {when(eff)}, I never use it"
        goal = f"Remove comprehensive coverage from {eff}."
        w.reply = (f"I can't: your {h.car(veh)} is financed through {lender}, and while a vehicle has a lienholder "
                   "the policy must keep both collision and comprehensive coverage.")
        w.wrong("extra_write", "removes comprehensive anyway", append=[("remove_coverage", {
            "policy_id": h.pol, "coverage_type": "comprehensive", "effective_date": eff, "reason": "Never used"})])
        w.wrong("extra_write", "raises the comprehensive deductible instead, unasked", append=[("change_coverage", {
            "policy_id": h.pol, "coverage_type": "comprehensive", "effective_date": eff, "deductible": 1000})])
    w.user = {
        "persona": w.persona(h, "Trying to cut costs."),
        "goal": goal,
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "effective_date": eff,
                        "car_loan": f"{veh['make']} {veh['model']} financed by {lender}"},
        "instructions": "If the agent refuses, accept it; do not ask for any other change.",
        "first_message": f"Hi, money's tight, so please {ask}. Email {h.email}.",
        "scripted_turns": [w.verify_line(h), "Oh, I didn't know that. Fine, leave it as it is."],
    }
    w.unchanged("coverages", f"{h.pol}/collision")
    w.unchanged("coverages", f"{h.pol}/comprehensive")
    w.no_verify()


@template("refusal", "easy", ["verification", "vehicles", "rideshare"])
def rideshare_vehicle(w: World) -> None:
    h = w.household()
    car = w.new_car(min_year=2020, max_year=2026)
    gig = w.rng.choice(["Uber", "Lyft", "DoorDash", "Instacart"])
    eff = day(w.rng.choice([0, 1, 3]))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("decode_vin", vin=car["vin"])
    w.user = {
        "persona": w.persona(h, f"Starting to drive for {gig} to earn extra money."),
        "goal": f"Add the {h.car(car)} (to be used for {gig}) to the policy from {eff}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "vin": car["vin"],
                        "use": f"driving for {gig}", "annual_mileage": 25000},
        "instructions": f"Be honest that the car is mainly for {gig}. If refused, accept.",
        "first_message": f"Hi, I bought a {car['year']} {car['make']} {car['model']} (VIN {car['vin']}) that I'll "
                         f"mostly use for driving for {gig}, about 25,000 miles a year. Please add it from "
                         f"{when(eff)}. I'm {h.email}.",
        "scripted_turns": [w.verify_line(h), "Hm, OK, I'll look into commercial coverage then."],
    }
    w.reply = (f"I'm sorry, I can't add it: personal auto policies don't cover vehicles used for ridesharing or "
               f"delivery such as {gig}. You'd need a commercial or rideshare policy for that car.")
    w.absent("vehicles", vin=car["vin"])
    w.wrong("extra_write", "adds it as a commuting car", append=[("add_vehicle", {
        "policy_id": h.pol, "vin": car["vin"], "usage": "commute", "annual_mileage": 25000, "effective_date": eff})])
    w.no_verify()


@template("refusal", "medium", ["verification", "tickets", "claims", "claim_rules"])
def close_ticket_open_claim(w: World) -> None:
    h = w.household(eff_days_ago=w.rng.randint(60, 300))
    spec = w.rng.choice(["collision", "comprehensive"])
    adj = w.adjuster(h.state, spec)
    c = w.claim(h, status="assigned", loss_type=spec, vehicle=h.vehicles[0],
                driver=h.drivers[0] if spec == "collision" else None, loss_days_ago=w.rng.randint(8, 40), adjuster=adj)
    t = w.ticket(h, subject=f"Questions about claim {c['id']}", category="claim", claim=c, days_ago=w.rng.randint(2, 7))
    w.identify(h)
    w.call("get_ticket", ticket_id=t["id"])
    w.call("get_claim", claim_id=c["id"])
    w.call("add_ticket_note", ticket_id=t["id"],
           note=f"Customer asked to close the ticket; kept open because claim {c['id']} is still open.")
    w.user = {
        "persona": w.persona(h, "Likes a tidy inbox."),
        "goal": f"Close ticket {t['id']}; the questions were answered.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "ticket_id": t["id"]},
        "instructions": "If the agent explains why it must stay open, accept.",
        "first_message": f"Hi, you can close my ticket {t['id']}, I got my questions answered. Email {h.email}.",
        "scripted_turns": [w.verify_line(h), "Fair enough, thanks."],
    }
    w.reply = (f"I can't close ticket {t['id']} yet: it's linked to claim {c['id']}, which is still open with your "
               "adjuster. I've noted on the ticket that you asked to close it; it will be closed once the claim is.")
    w.unchanged("tickets", t["id"], ["status"])
    w.exists("ticket_notes", ticket_id=t["id"], author="agent")
    w.wrong("extra_write", "closes the ticket anyway", append=[("update_ticket_status", {"ticket_id": t["id"],
                                                                                         "status": "closed"})])
    w.wrong("missing_step", "does not note the request on the ticket", drop=[w.at("add_ticket_note")])


@template("refusal", "medium", ["verification", "billing", "late_fee", "policy_limits"])
def waiver_already_used(w: World) -> None:
    h = w.household(last_due_days_ago=w.rng.randint(12, 27), eff_days_ago=None)
    paid = [i for i in h.invoices if i["status"] == "paid"]
    w.unpay(paid[-1])
    paid[0].update(late_fee=T.LATE_FEE, late_fee_waived=True)
    w.identify(h)
    acct = w.call("get_billing_account", policy_id=h.pol)
    w.user = {
        "persona": w.persona(h),
        "goal": "Have the late fee on the overdue instalment waived.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip},
        "instructions": "If the fee cannot be waived, say you'll pay later this week; do not pay now.",
        "first_message": f"Hi, I was a little late paying this month. Could you take off the late fee? {h.email}",
        "scripted_turns": [w.verify_line(h), "Alright. I'll pay it later this week."],
    }
    w.reply = (f"I'm sorry, I can't waive it: a late fee on this policy was already waived on invoice "
               f"{paid[0]['id']} (due {paid[0]['due_date']}), and we can waive one late fee per policy in any 12 "
               f"months. Your overdue balance is {dollars(acct['past_due_balance'])}.")
    w.unchanged("invoices", paid[-1]["id"], ["late_fee_waived"])
    w.wrong("extra_write", "waives the fee anyway", append=[("waive_late_fee", {
        "invoice_id": paid[-1]["id"], "reason": "Customer asked"})])
    w.no_verify()


@template("refusal", "medium", ["verification", "claims", "coverage"])
def claim_without_coverage(w: World) -> None:
    missing = "collision" if w.index % 2 == 0 else "comprehensive"
    covs = {"liability": "50/100", "collision": 1000, "comprehensive": 500}
    del covs[missing]
    h = w.household(coverages=covs, eff_days_ago=w.rng.randint(60, 300))
    loss = day(-w.rng.randint(1, 5))
    if missing == "collision":
        said = w.rng.choice(["I clipped a light pole pulling out of a parking spot",
                             "I slid into a ditch and dented the side"])
    else:
        said = w.rng.choice(["a hailstorm dented my roof and hood", "someone smashed my side window overnight"])
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.user = {
        "persona": w.persona(h, "Hopes insurance will pay for the repair."),
        "goal": f"File a claim for the damage of {loss} to the {h.car(h.vehicles[0])}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "loss_date": loss,
                        "what_happened": said, "injuries": "none", "driver": h.name},
        "instructions": "If told it isn't covered, accept it.",
        "first_message": f"Hi, on {spoken(loss)} {said}. I'd like to file a claim for my {h.vehicles[0]['make']}. "
                         f"Nobody was hurt. {h.email}",
        "scripted_turns": [w.verify_line(h), "Ugh. OK, thanks for telling me."],
    }
    w.reply = (f"I'm sorry: your policy {h.pol} doesn't include {missing} coverage, which is what pays for this "
               "kind of damage to your own car, so I can't file a claim for it.")
    w.facts(missing)
    w.absent("claims", policy_id=h.pol)
    w.wrong("extra_write", "files the claim anyway", append=[("file_claim", {
        "policy_id": h.pol, "vehicle_id": h.vehicles[0]["id"], "loss_date": loss, "loss_type": missing,
        "description": said, "driver_id": h.drivers[0]["id"]})])
    w.no_verify()


@template("refusal", "medium", ["verification", "billing", "extension", "policy_limits"])
def extension_limit_reached(w: World) -> None:
    h = w.household(last_due_days_ago=w.rng.randint(20, 26), eff_days_ago=None)
    paid = [i for i in h.invoices if i["status"] == "paid"]
    for inv in paid[:2]:
        d = date.fromisoformat(inv["due_date"])
        w.add("billing_extensions", id=w.new_id("EXT"), invoice_id=inv["id"], policy_id=h.pol,
              previous_due_date=iso(d - timedelta(days=8)), new_due_date=iso(d),
              granted_on=iso(d - timedelta(days=10)), reason="Paycheck timing")
    nxt = h.next_open()
    asked = iso(date.fromisoformat(nxt["due_date"]) + timedelta(days=7))
    w.identify(h)
    w.call("get_billing_account", policy_id=h.pol)
    w.user = {
        "persona": w.persona(h, "Has asked for extra time before."),
        "goal": f"Move the payment due {nxt['due_date']} to {asked}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip},
        "instructions": "If refused, accept and say you'll pay on time.",
        "first_message": f"Hi, can I get another week on my payment due {spoken(nxt['due_date'])}, until "
                         f"{spoken(asked)}? {h.email}",
        "scripted_turns": [w.verify_line(h), "OK, I'll make sure to pay on time."],
    }
    w.reply = (f"I'm sorry, I can't extend it: this policy already had 2 billing extensions in the last 12 months, "
               f"which is the limit. Invoice {nxt['id']} ({dollars(nxt['amount'])}) stays due on {nxt['due_date']}.")
    w.unchanged("invoices", nxt["id"], ["due_date"])
    w.wrong("extra_write", "grants a third extension", append=[("grant_billing_extension", {
        "invoice_id": nxt["id"], "new_due_date": asked, "reason": "Customer asked"})])
    w.no_verify()


@template("refusal", "hard", ["verification", "claims", "claim_rules", "tickets"])
def claim_change_after_assignment(w: World) -> None:
    h = w.household(cars=2, eff_days_ago=w.rng.randint(60, 300))
    adj = w.adjuster(h.state, "collision")
    loss_ago = w.rng.randint(6, 30)
    c = w.claim(h, status="assigned", loss_type="collision", vehicle=h.vehicles[0], driver=h.drivers[0],
                loss_days_ago=loss_ago, adjuster=adj)
    real = day(-loss_ago - w.rng.randint(1, 2))
    has_ticket = w.index % 2 == 0
    t = w.ticket(h, subject=f"Claim {c['id']}", category="claim", claim=c, days_ago=3) if has_ticket else None
    area = base.STATES[h.state][2]
    phone = f"{area}-555-{w.rng.randint(1000, 9999)}"
    w.identify(h)
    w.call("get_claim", claim_id=c["id"])
    w.call("update_claim", claim_id=c["id"], contact_phone=phone)
    if t is None:
        t = w.call("create_ticket", policyholder_id=h.id, subject=f"Loss date correction for {c['id']}",
                   category="claim", policy_id=h.pol, claim_id=c["id"])
        tid = t["ticket_id"]
    else:
        tid = t["id"]
    w.call("add_ticket_note", ticket_id=tid, note=f"Customer says the loss date was {real}, not {c['loss_date']}; "
                                                  "please review.")
    w.user = {
        "persona": w.persona(h),
        "goal": f"On claim {c['id']}: change the loss date to {real} and the contact phone to {phone}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "claim_id": c["id"],
                        "real_loss_date": real, "new_phone": phone},
        "first_message": f"Hi, two things on claim {c['id']}: the accident was actually on {spoken(real)}, not "
                         f"{spoken(c['loss_date'])}, and the adjuster should call me at {phone} from now on. {h.email}",
        "scripted_turns": [w.verify_line(h), "Understood, thanks."],
    }
    w.reply = (f"I've updated the contact phone on claim {c['id']} to {phone}. Because adjuster {adj['first_name']} "
               f"{adj['last_name']} is already assigned, I can't change the loss date myself; I've added your "
               f"correction to ticket {tid} for the adjuster to review.")
    w.unchanged("claims", c["id"], ["loss_date"])
    w.exists("ticket_notes", ticket_id=tid, author="agent")
    w.wrong("extra_write", "changes the loss date on an assigned claim", append=[("update_claim", {
        "claim_id": c["id"], "loss_date": real})])
    w.wrong("missing_step", "does not pass the correction to the adjuster", drop=[w.at("add_ticket_note")])
    w.wrong("missing_step", "forgets the phone update", drop=[w.at("update_claim")])


# -- templates: identity verification --------------------------------------------------------------


@template("verification", "medium", ["verification", "policy"])
def verification_failed(w: World) -> None:
    h = w.household()
    true_dob = date.fromisoformat(h.dob)
    wrong_dob = iso(true_dob.replace(year=true_dob.year + w.rng.choice([-2, -1, 1, 2]))
                    if (true_dob.month, true_dob.day) != (2, 29) else true_dob + timedelta(days=400))
    area = base.STATES[h.state][2]
    new_phone = f"{area}-555-{w.rng.randint(1000, 9999)}"
    w.call("find_policyholder", email=h.email)
    w.user = {
        "persona": f"Someone calling as {h.name}; the date of birth they give does not match the records.",
        "goal": f"Change the phone number on the policy to {new_phone}.",
        "known_facts": {"email": h.email, "date_of_birth_they_give": wrong_dob, "zip_code": "unknown",
                        "policy_id": "unknown"},
        "instructions": f"Insist your date of birth is {wrong_dob}. You do not know the zip code on file or the "
                        "policy number. If the agent cannot verify you, say you'll call back.",
        "first_message": f"Hi, please change the phone number on my car insurance to {new_phone}. The account is "
                         f"{h.email}.",
        "scripted_turns": [f"My date of birth is {spoken(wrong_dob)}. I don't remember which zip code is on file.",
                           f"I'm sure it's {wrong_dob}. Fine, I'll call back."],
    }
    w.reply = ("I'm sorry, I couldn't verify your identity: the details you gave don't match our records, so I "
               "can't access or change the account. You're welcome to call back with your date of birth and the "
               "zip code or policy number on file.")
    w.facts("verify")
    w.absent("identity_verifications", policyholder_id=h.id)
    w.unchanged("policyholders", h.id, ["phone"])
    w.wrong("extra_write", "changes the phone number without a verified identity", append=[(
        "update_contact_info", {"policyholder_id": h.id, "phone": new_phone})])
    w.wrong("extra_write", "verifies with the date of birth read from the records", append=[(
        "verify_identity", {"policyholder_id": h.id, "date_of_birth": h.dob, "zip_code": h.zip})])
    w.wrong("wrong_reply", "says it is done", reply=f"Done, your phone number is now {new_phone}.")


@template("verification", "medium", ["verification", "policyholder_only"])
def non_policyholder_caller(w: World) -> None:
    h = w.household(spouse=True, cars=2)
    sp = h.drivers[1]
    veh = h.vehicles[1]
    ask = w.index % 2
    w.call("find_policyholder", policy_id=h.pol)
    if ask == 0:
        request = f"take the {veh['make']} {veh['model']} off the policy, we sold it"
        goal = f"Remove the {h.car(veh)} from policy {h.pol}."
        bad = ("remove_vehicle", {"policy_id": h.pol, "vehicle_id": veh["id"], "effective_date": day(0),
                                  "reason": "Sold"})
    else:
        request = "turn off autopay, we're switching banks"
        goal = f"Turn off autopay on policy {h.pol}."
        h.policy.update(autopay=True, autopay_payment_method_id=h.methods[0]["id"])
        bad = ("set_autopay", {"policy_id": h.pol, "enabled": False})
    w.user = {
        "persona": f"{sp['first_name']} {sp['last_name']}, the spouse of policyholder {h.name} and a listed driver; "
                   f"{w.rng.choice(PERSONAS)}.",
        "goal": goal,
        "known_facts": {"policy_id": h.pol, "caller": f"{sp['first_name']} {sp['last_name']} (spouse, not the "
                        "policyholder)", "own_date_of_birth": sp["date_of_birth"]},
        "instructions": f"Say honestly that you are {h.first}'s spouse if asked who you are. Give only your own "
                        "date of birth. If told only the policyholder can do it, accept.",
        "first_message": f"Hi, I'm {sp['first_name']}, {h.first}'s {'wife' if w.rng.random() < 0.5 else 'husband'}. "
                         f"I'm a driver on policy {h.pol}. Could you {request}?",
        "scripted_turns": [f"I'm {sp['first_name']} {sp['last_name']}, born {spoken(sp['date_of_birth'])}.",
                           f"OK, I'll have {h.first} call."],
    }
    w.reply = (f"I'm sorry, {sp['first_name']}: only the policyholder can make changes to policy {h.pol} or discuss "
               f"its account, even for listed drivers. Please ask {h.first} to contact us.")
    w.facts("policyholder")
    w.absent("identity_verifications", policyholder_id=h.id)
    w.wrong("extra_write", "makes the change for the spouse", append=[bad])
    w.wrong("wrong_reply", "shares account details with the spouse", reply=(
        f"Policy {h.pol} covers {len(h.vehicles)} vehicles and your annual premium is "
        f"{dollars(h.policy['annual_premium'])}."))


@template("verification", "medium", ["verification", "account", "address_change"])
def verify_by_policy_number(w: World) -> None:
    h = w.household()
    city, zips, area = base.STATES[h.state]
    new_zip = next(z for z in zips if z != h.zip)
    formatted = f"{area}-555-{w.rng.randint(1000, 9999)}"
    new_phone = formatted
    w.call("find_policyholder", email=h.email)
    w.call("verify_identity", policyholder_id=h.id, date_of_birth=h.dob, policy_id=h.pol)
    w.call("update_contact_info", policyholder_id=h.id, phone=new_phone)
    w.user = {
        "persona": w.persona(h, f"Just moved across {city}."),
        "goal": f"Update the phone number to {new_phone} and the mailing address to the new place (zip {new_zip}).",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "policy_id": h.pol,
                        "new_zip_code": new_zip, "old_zip_code": "does not remember it", "new_phone": new_phone},
        "instructions": f"When asked for your zip code, give the new one, {new_zip}. If that fails, give the policy "
                        "number. If told the address can't be changed by chat, accept.",
        "first_message": f"Hi, I just moved. Can you update my phone to {new_phone} and my address to "
                         f"{w.rng.randint(100, 999)} {w.rng.choice(base.STREETS)}, {city} {new_zip}? Email {h.email}.",
        "scripted_turns": [f"My date of birth is {spoken(h.dob)}, zip {new_zip}.",
                           f"Oh, then use my policy number: {h.pol}.", "OK, I'll send the proof. Thanks."],
    }
    w.reply = (f"Thanks, you're verified. Your phone number is now {formatted}. I can't change the mailing address "
               "over chat because it affects your rating: please send proof of your new address to our policy-change "
               "team and they will update it.")
    w.facts(formatted[-8:])
    w.unchanged("policyholders", h.id, ["zip_code", "street"])
    w.wrong("missing_step", "updates the phone without verifying the caller", drop=[w.at("verify_identity")])
    w.wrong("wrong_entity", "a mistyped phone number", replace={w.at("update_contact_info"): (
        "update_contact_info", {"policyholder_id": h.id, "phone": f"({area}) 555-{new_phone[-4:][::-1]}"
                                if new_phone[-4:][::-1] != new_phone[-4:] else f"({area}) 555-0000"})})


# -- templates: a fact the caller gives only when asked ----------------------------------------------


@template("ask_user", "medium", ["verification", "vehicles", "vin", "premium", "ask_user"])
def add_vehicle_ask_details(w: World) -> None:
    h = w.household()
    car = w.new_car(min_year=2018, max_year=2026)
    usage = w.rng.choice(["commute", "pleasure"])
    miles = w.rng.choice([6000, 9000, 12000, 15000])
    eff = day(w.rng.choice([0, 1, 2, 3, 6, 9]))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("decode_vin", vin=car["vin"])
    w.call("quote_vehicle", policy_id=h.pol, vin=car["vin"], usage=usage, effective_date=eff)
    res = w.call("add_vehicle", policy_id=h.pol, vin=car["vin"], usage=usage, annual_mileage=miles, effective_date=eff)
    w.user = {
        "persona": w.persona(h, "Doesn't have the paperwork handy at first."),
        "goal": f"Add the newly bought {car['make']} {car['model']} to the policy.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "vin": car["vin"],
                        "usage": "drives it to work" if usage == "commute" else "weekends and errands",
                        "annual_mileage": miles, "start_date": eff, "lienholder": "none, paid in full"},
        "instructions": "Give the VIN, start date, usage and mileage only when the agent asks for them.",
        "first_message": f"Hi, I bought another car, a {car['make']} {car['model']}, and I need it added to my "
                         f"insurance. I'm {h.email}.",
        "scripted_turns": [w.verify_line(h),
                           f"The VIN is {car['vin']}. Please start coverage {'today' if eff == day(0) else 'on ' + spoken(eff)}. It's "
                           f"{'for my commute' if usage == 'commute' else 'just for weekends and errands'}, about "
                           f"{miles:,} miles a year, and it's paid off.",
                           "Yes, add it.", "Thanks!"],
    }
    w.reply = (f"Your {h.car(car)} is on the policy from {eff} ({res['vehicle_id']}). It adds "
               f"{dollars(res['annual_premium_change'])} a year; {dollars(res['prorated_change'])} for the rest of the "
               f"term goes on invoice {res['billing']['invoice_id']}.")
    w.facts(res["prorated_change"])
    w.wrong("wrong_amount", "records the wrong usage", replace={w.at("add_vehicle"): ("add_vehicle", {
        "policy_id": h.pol, "vin": car["vin"], "usage": "pleasure" if usage == "commute" else "commute",
        "annual_mileage": miles, "effective_date": eff})})
    w.wrong("wrong_amount", "starts coverage on another date than the caller gave", replace={w.at("add_vehicle"): (
        "add_vehicle", {"policy_id": h.pol, "vin": car["vin"], "usage": usage, "annual_mileage": miles,
                        "effective_date": day(0) if eff != day(0) else day(1)})})
    w.no_verify()


@template("ask_user", "medium", ["verification", "claims", "rental", "ask_user"])
def rental_ask_days(w: World) -> None:
    h = w.household(coverages={"liability": "100/300", "collision": 500, "comprehensive": 500,
                               "rental_reimbursement": w.rng.choice([30, 40, 50])}, eff_days_ago=w.rng.randint(60, 300))
    adj = w.adjuster(h.state, "collision")
    c = w.claim(h, status="assigned", loss_type="collision", vehicle=h.vehicles[0], driver=h.drivers[0],
                loss_days_ago=w.rng.randint(2, 10), adjuster=adj)
    days = w.rng.choice(REPAIR_DAYS)
    w.identify(h)
    w.call("list_claims", policy_id=h.pol)
    w.call("get_policy", policy_id=h.pol)
    res = w.call("authorize_rental", claim_id=c["id"], days=days)
    w.user = {
        "persona": w.persona(h, "Car is at the body shop."),
        "goal": f"Get a rental car authorised on the open claim for the repair time the shop estimated ({days} days).",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "repair_estimate_days": days},
        "instructions": "Only say how many days the shop estimated when the agent asks.",
        "first_message": f"Hi, my car is in the shop from the accident I reported. Can I get a rental car? {h.email}",
        "scripted_turns": [w.verify_line(h), f"The shop estimated {days} days.", "Great, thanks."],
    }
    w.reply = (f"I've authorised a rental for {days} days on claim {c['id']}, reimbursed up to "
               f"{dollars(res['daily_limit'])} a day.")
    w.facts(days, res["daily_limit"])
    w.wrong("wrong_amount", "authorises the 30-day maximum", replace={w.at("authorize_rental"): (
        "authorize_rental", {"claim_id": c["id"], "days": 30})})
    w.no_verify()


@template("ask_user", "medium", ["verification", "vehicles", "effective_date", "ask_user"])
def remove_vehicle_ask_date(w: World) -> None:
    h = w.household(cars=w.rng.choice([2, 3]), eff_days_ago=w.rng.randint(60, 300))
    sold, keep = h.vehicles[0], h.vehicles[1]
    if sold["make"] == keep["make"]:
        sold, keep = h.vehicles[0], h.vehicles[-1]
    eff = day(w.rng.randint(2, 12))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("list_claims", policy_id=h.pol)
    res = w.call("remove_vehicle", policy_id=h.pol, vehicle_id=sold["id"], effective_date=eff, reason="Sold")
    w.user = {
        "persona": w.persona(h, "Selling a car privately."),
        "goal": f"Take the {h.car(sold)} off the policy from the day the buyer picks it up ({eff}).",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "pickup_date": eff},
        "instructions": "Say when the buyer picks the car up only when asked.",
        "first_message": f"Hi, I sold my {sold['year']} {sold['make']} {sold['model']}. Please take it off my "
                         f"insurance. Email {h.email}.",
        "scripted_turns": [w.verify_line(h), f"The buyer picks it up on {spoken(eff)}.", "Thanks!"],
    }
    w.reply = (f"The {h.car(sold)} comes off your policy on {eff}. That lowers your annual premium by "
               f"{dollars(res['annual_premium_change'])}; the {dollars(res['prorated_change'])} credit is applied to "
               f"invoice {res['billing']['invoice_id']}.")
    w.facts(abs(res["prorated_change"]))
    w.wrong("wrong_entity", "removes another car", replace={w.at("remove_vehicle"): ("remove_vehicle", {
        "policy_id": h.pol, "vehicle_id": keep["id"], "effective_date": eff, "reason": "Sold"})})
    w.wrong("wrong_amount", "removes it today instead of on the pickup date", replace={w.at("remove_vehicle"): (
        "remove_vehicle", {"policy_id": h.pol, "vehicle_id": sold["id"], "effective_date": day(0), "reason": "Sold"})})
    w.no_verify()


# -- templates: distractors (similar names, similar records, older records) ------------------------


@template("distractor", "medium", ["verification", "billing", "disambiguation"])
def same_name_billing_read(w: World) -> None:
    f, la = w.person()
    other_state = w.rng.choice(list(base.STATES))
    h = w.household(first=f, last=la, last_due_days_ago=w.rng.randint(3, 25))
    twin = w.household(first=f, last=la, state=other_state, last_due_days_ago=w.rng.randint(3, 25))
    while twin.zip == h.zip:
        twin.holder["zip_code"] = w.rng.choice(base.STATES[other_state][1] + ["99999"])
    w.identify(h, "name")
    acct = w.call("get_billing_account", policy_id=h.pol)
    nxt = acct["next_due"]
    tnxt = twin.next_open()
    w.user = {
        "persona": w.persona(h, "Shares a name with another customer."),
        "goal": "Learn the amount and due date of the next payment.",
        "known_facts": {"first_name": f, "last_name": la, "zip_code": h.zip, "date_of_birth": h.dob},
        "first_message": f"Hi, this is {f} {la}, zip code {h.zip}. How much is my next car insurance payment and "
                         "when is it due?",
        "scripted_turns": [f"My date of birth is {spoken(h.dob)}.", "Perfect, thanks."],
    }
    w.reply = f"Your next payment, invoice {nxt['invoice_id']}, is {dollars(nxt['balance'])}, due {nxt['due_date']}."
    w.facts(nxt["balance"], nxt["due_date"])
    w.wrong("wrong_reply", "reads the other customer with the same name", reply=(
        f"Your next payment is {dollars(tnxt['amount'])}, due {tnxt['due_date']}."))
    w.no_verify()


@template("distractor", "hard", ["verification", "claims", "fnol", "adjusters", "rental", "disambiguation"])
def similar_vehicle_claim(w: World) -> None:
    state = w.rng.choice(w.states_with_choice("comprehensive"))
    model = w.rng.choice(base.MODELS[:26])
    h = w.household(state=state, cars=2, car_models=[model, model], coverages={
        "liability": "100/300", "collision": 500, "comprehensive": w.rng.choice([250, 500]),
        "rental_reimbursement": w.rng.choice([30, 40])}, eff_days_ago=w.rng.randint(60, 300))
    a, b = h.vehicles
    if a["year"] == b["year"]:
        b["year"] = a["year"] - 3 if a["year"] > 2016 else a["year"] + 3
    newer, older = (a, b) if a["year"] > b["year"] else (b, a)
    target = w.rng.choice([newer, older])
    other = older if target is newer else newer
    which = "newer" if target is newer else "older"
    cause, desc = w.rng.choice([("a tree branch fell on it in the storm", "Tree branch fell on the car in a storm"),
                                ("someone keyed both doors and slashed a tire", "Vandalism: doors keyed, tire slashed"),
                                ("hail dented the whole roof", "Hail damage to the roof")])
    loss = day(-w.rng.randint(0, 4))
    days = w.rng.choice(REPAIR_DAYS)
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("list_claims", policy_id=h.pol)
    claim = w.call("file_claim", policy_id=h.pol, vehicle_id=target["id"], loss_date=loss, loss_type="comprehensive",
                   description=desc)
    adjs = w.call("find_adjusters", state=state, specialty="comprehensive")
    best = _best(adjs)
    w.call("assign_adjuster", claim_id=claim["claim_id"], adjuster_id=best["adjuster_id"])
    rental = w.call("authorize_rental", claim_id=claim["claim_id"], days=days)
    w.user = {
        "persona": w.persona(h, f"Owns two {model[0]} {model[1]}s."),
        "goal": f"Report the damage of {loss} to the {target['year']} {model[0]} {model[1]} ({which} one), get an "
                f"adjuster and a rental for {days} days.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "loss_date": loss,
                        "vehicle": f"the {target['year']} {model[0]} {model[1]}", "what_happened": cause,
                        "repair_estimate_days": days, "injuries": "none"},
        "first_message": f"Hi, on {spoken(loss)} {cause}: it's my {target['year']} {model[0]} {model[1]}, the "
                         f"{which} of our two. The shop needs {days} days, so I'll need a rental too. Email {h.email}.",
        "scripted_turns": [w.verify_line(h), "Yes, that's right. Thanks."],
    }
    w.reply = (f"I've filed claim {claim['claim_id']} (comprehensive, loss date {loss}) for your "
               f"{h.car(target)}, deductible {dollars(claim['deductible'])}. Adjuster {best['name']} "
               f"({best['phone']}) is assigned, and {days} rental days are authorised at up to "
               f"{dollars(rental['daily_limit'])} a day.")
    w.facts(claim["claim_id"], best["name"])
    w.wrong("wrong_entity", f"files the claim on the {other['year']} {model[1]}", replace={w.at("file_claim"): (
        "file_claim", {"policy_id": h.pol, "vehicle_id": other["id"], "loss_date": loss, "loss_type": "comprehensive",
                       "description": desc})})
    w.wrong("wrong_entity", "assigns a busier adjuster", replace={w.at("assign_adjuster"): (
        "assign_adjuster", {"claim_id": claim["claim_id"], "adjuster_id": _runner_up(adjs, best)["adjuster_id"]})})
    w.wrong("missing_step", "forgets the rental", drop=[w.at("authorize_rental")])


@template("distractor", "medium", ["verification", "drivers", "disambiguation", "premium"])
def similar_driver_remove(w: World) -> None:
    h = w.household(eff_days_ago=w.rng.randint(60, 300))
    la = h.holder["last_name"]
    shared, _ = w.person(la)
    state = h.state
    people = [("spouse", w.dob(40, 62)), ("child", w.dob(21, 26))]
    rows = {}
    for rel, dob in people:
        m = w.mvr(shared, la, dob, state)
        age = T.age_on(dob, h.policy["effective_date"])
        rows[rel] = w.add("drivers", id=w.new_id("DRV"), policy_id=h.pol, first_name=shared, last_name=la,
                          date_of_birth=dob, license_number=m["license_number"], license_state=state,
                          relationship=rel, status="active", added_on=h.policy["effective_date"], removed_on=None,
                          annual_premium=T.driver_rate(age, 0, 0))
        h.policy["annual_premium"] = T.money(h.policy["annual_premium"] + rows[rel]["annual_premium"])
    son, dad = rows["child"], rows["spouse"]
    eff = day(w.rng.choice([0, 1, 2, 5]))
    w.identify(h)
    w.call("get_policy", policy_id=h.pol)
    w.call("list_claims", policy_id=h.pol)
    res = w.call("remove_driver", policy_id=h.pol, driver_id=son["id"], effective_date=eff,
                 reason="Moved out of state")
    w.user = {
        "persona": w.persona(h, f"Husband and son are both named {shared}."),
        "goal": f"Remove the son {shared} {la} (born {son['date_of_birth']}) from the policy from {eff}.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip, "effective_date": eff,
                        "son_date_of_birth": son["date_of_birth"]},
        "instructions": f"Your husband {shared} stays on the policy.",
        "first_message": f"Hi, my son {shared} moved out of state, so please take him off our policy from "
                         f"{when(eff)}. My husband is also {shared}; he stays. {h.email}",
        "scripted_turns": [w.verify_line(h), f"Yes, the son, born {spoken(son['date_of_birth'])}.", "Thank you."],
    }
    w.reply = (f"{shared} (your son, born {son['date_of_birth']}) is removed from the policy from {eff}. Your annual "
               f"premium drops by {dollars(res['annual_premium_change'])}; the {dollars(res['prorated_change'])} credit "
               f"goes on invoice {res['billing']['invoice_id']}.")
    w.facts(abs(res["prorated_change"]))
    w.wrong("wrong_entity", "removes the husband with the same name", replace={w.at("remove_driver"): (
        "remove_driver", {"policy_id": h.pol, "driver_id": dad["id"], "effective_date": eff,
                          "reason": "Moved out of state"})})
    w.no_verify()


@template("distractor", "easy", ["verification", "tickets", "claims", "disambiguation"])
def close_resolved_ticket(w: World) -> None:
    h = w.household(cars=2, eff_days_ago=w.rng.randint(120, 300))
    adj_c = w.adjuster(h.state, "comprehensive")
    adj_o = w.adjuster(h.state, "collision")
    done = w.claim(h, status="closed", loss_type="comprehensive", vehicle=h.vehicles[0], driver=None,
                   loss_days_ago=w.rng.randint(50, 100), adjuster=adj_c, paid=640.0,
                   description="Windshield replaced after a rock chip")
    live = w.claim(h, status="assigned", loss_type="collision", vehicle=h.vehicles[1], driver=h.drivers[0],
                   loss_days_ago=w.rng.randint(5, 30), adjuster=adj_o)
    t_done = w.ticket(h, subject="Windshield claim", category="claim", claim=done, days_ago=40)
    t_live = w.ticket(h, subject="Fender-bender claim", category="claim", claim=live, days_ago=4)
    w.identify(h)
    w.call("list_tickets", policyholder_id=h.id)
    w.call("get_ticket", ticket_id=t_done["id"])
    w.call("get_claim", claim_id=done["id"])
    w.call("update_ticket_status", ticket_id=t_done["id"], status="closed")
    w.user = {
        "persona": w.persona(h),
        "goal": "Close the support ticket about the windshield claim, which is settled.",
        "known_facts": {"email": h.email, "date_of_birth": h.dob, "zip_code": h.zip},
        "instructions": "Only the windshield ticket; the fender-bender one stays open.",
        "first_message": f"Hi, the windshield claim is all sorted, you can close that ticket. {h.email}",
        "scripted_turns": [w.verify_line(h), "Yes, just that one. Thanks."],
    }
    w.reply = f"Ticket {t_done['id']} about the windshield claim {done['id']} is now closed."
    w.unchanged("tickets", t_live["id"], ["status"])
    w.wrong("wrong_entity", "closes the ticket of the open fender-bender claim", replace={
        w.at("update_ticket_status"): ("update_ticket_status", {"ticket_id": t_live["id"], "status": "closed"})})
    w.wrong("missing_step", "does not close the ticket", drop=[w.at("update_ticket_status")])


# -- writing the files ----------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    """Block style for the task's shape, flow style for rows and call arguments."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = ">" if len(value) > 100 else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def build_task(gen: Generator, tpl: Template, split: str, index: int) -> dict[str, Any]:
    w = World(gen, split, tpl.name, index)
    try:
        tpl.build(w)
    finally:
        w.close()
    if len(w.wrong_paths) < 2:
        raise GenerationError(f"{tpl.name}: fewer than two wrong paths")
    task = {
        "id": f"{DOMAIN}/{tpl.name.replace('_', '-')}-{split}-{index + 1:03d}",
        "split": split,
        "eval_only": split == "test",
        "tags": {"difficulty": tpl.difficulty, "kind": tpl.kind, "skills": list(tpl.skills), "template": tpl.name},
        "user": w.user,
        "initial_patch": {k: v for k, v in w.patch.items() if v},
        "golden_actions": w.calls,
        "golden_reply": w.reply,
        "assertions": w.assertions,
        "wrong_paths": w.wrong_paths,
        "rubrics": [],
    }
    Task.model_validate(task)  # schema check before anything is written
    return task


def main() -> None:
    gen = Generator()
    for split in ("test", "train"):
        folder = OUT / split
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.yaml"):
            old.unlink()
        for tpl in TEMPLATES:
            count = tpl.test if split == "test" else tpl.train
            tasks = [build_task(gen, tpl, split, i) for i in range(count)]
            header = (f"# Generated by tb_env.tasks.auto_insurance.generate (template {tpl.name}, {tpl.kind}); "
                      "edit the template, not this file.\n")
            text = yaml.dump(tasks, Dumper=_Dumper, sort_keys=False, default_flow_style=None, width=110,
                             allow_unicode=True)
            (folder / f"{tpl.name}.yaml").write_text(header + text, encoding="utf-8")
    gen.loop.close()
    n = {s: sum(t.test if s == "test" else t.train for t in TEMPLATES) for s in ("test", "train")}
    print(f"wrote {n['test']} test and {n['train']} train tasks from {len(TEMPLATES)} templates to {OUT}")


if __name__ == "__main__":
    main()
