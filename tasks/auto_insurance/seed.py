"""The auto-insurance base data: a book of a few hundred households, built deterministically.

`build()` depends on nothing but the fixed seed below (no network, no wall clock), so
every process builds the same rows. Dates run up to the domain clock, 2026-11-30.
Natural distractors come for free: several policyholders share a first or last name,
many have an expired policy from the previous term, replaced vehicles, removed drivers
and closed claims.

Tasks never depend on a particular generated row: each task's `initial_patch` adds the
households its scenario is about, with ids in ranges this file never uses (5000-6999
for the test split, 7000-8999 for the train split). Records that tools create are
numbered from 9001 (see `tools.NEW_ID_START`), so the ids in golden calls do not depend
on this file either. Adjusters are shared: their open-claim counts come from this file
plus whatever a task adds.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from .tools import COVERAGE_PREMIUM, age_on, driver_rate, money, vehicle_rate

SEED = 20261130
TODAY = date(2026, 11, 30)
N_POLICYHOLDERS = 220

FIRST_NAMES = [
    "Alice", "Ben", "Carla", "David", "Elena", "Frank", "Grace", "Hector", "Irene", "Jamal",
    "Karen", "Liam", "Maya", "Noah", "Olivia", "Pedro", "Quinn", "Rosa", "Samuel", "Tara",
    "Umar", "Vera", "Walter", "Xena", "Yusuf", "Zoe", "Aaron", "Bianca", "Caleb", "Diana",
    "Ethan", "Fiona", "George", "Hannah", "Isaac", "Julia", "Kevin", "Laura", "Marcus", "Nina",
]
LAST_NAMES = [
    "Anderson", "Brooks", "Chen", "Diaz", "Evans", "Foster", "Gupta", "Hughes", "Ibrahim", "Jensen",
    "Kowalski", "Lopez", "Morgan", "Nguyen", "Okafor", "Patel", "Quinlan", "Reyes", "Santos", "Turner",
    "Ueda", "Vargas", "Walsh", "Young", "Zimmerman", "Bauer", "Castillo", "Dubois", "Ferreira", "Greene",
]
STATES = {  # state: (city, zip codes, area code)
    "OR": ("Portland", ["97201", "97205", "97214"], "503"),
    "TX": ("Austin", ["78701", "78704", "78745"], "512"),
    "CO": ("Denver", ["80202", "80205", "80220"], "303"),
    "OH": ("Columbus", ["43201", "43215", "43220"], "614"),
    "NC": ("Raleigh", ["27601", "27603", "27609"], "919"),
    "WI": ("Madison", ["53703", "53705", "53711"], "608"),
    "CA": ("Sacramento", ["95811", "95814", "95819"], "916"),
    "AZ": ("Tucson", ["85701", "85705", "85719"], "520"),
}
STREETS = ["Maple Ave", "Oak St", "Cedar Ln", "Pine St", "Elm St", "Birch Rd", "Lakeview Dr", "Hillcrest Blvd",
           "River Rd", "Sunset Way"]
CARD_BRANDS = ["Visa", "Mastercard", "Amex", "Discover"]
BANKS = ["Checking", "Savings"]
LENDERS = ["Ally Financial", "Toyota Financial Services", "Honda Financial Services", "Capital One Auto",
           "Chase Auto", "Ford Credit", "Wells Fargo Auto"]

MODELS = [  # (make, model, body style, new price)
    ("Toyota", "Camry", "sedan", 28000), ("Toyota", "RAV4", "SUV", 31000), ("Toyota", "Corolla", "sedan", 22000),
    ("Toyota", "Tacoma", "pickup", 34000), ("Honda", "Civic", "sedan", 24000), ("Honda", "CR-V", "SUV", 32000),
    ("Honda", "Accord", "sedan", 29000), ("Honda", "Odyssey", "minivan", 39000), ("Ford", "F-150", "pickup", 45000),
    ("Ford", "Escape", "SUV", 29000), ("Ford", "Mustang", "coupe", 38000), ("Chevrolet", "Malibu", "sedan", 25000),
    ("Chevrolet", "Equinox", "SUV", 28000), ("Chevrolet", "Silverado", "pickup", 44000),
    ("Nissan", "Altima", "sedan", 26000), ("Nissan", "Rogue", "SUV", 29000), ("Subaru", "Outback", "wagon", 31000),
    ("Subaru", "Forester", "SUV", 30000), ("Hyundai", "Elantra", "sedan", 21000), ("Hyundai", "Tucson", "SUV", 28000),
    ("Kia", "Soul", "hatchback", 20000), ("Kia", "Telluride", "SUV", 38000), ("Mazda", "CX-5", "SUV", 30000),
    ("Mazda", "Mazda3", "sedan", 23000), ("Volkswagen", "Jetta", "sedan", 22000), ("Jeep", "Wrangler", "SUV", 36000),
    ("Tesla", "Model 3", "sedan", 42000), ("Tesla", "Model Y", "SUV", 48000), ("BMW", "X5", "SUV", 65000),
    ("Lexus", "RX 350", "SUV", 52000),
]
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"
ADJUSTER_SPECIALTIES = ["collision", "comprehensive", "liability", "injury"]


def _iso(d: date) -> str:
    return d.isoformat()


def make_vin(rng: random.Random) -> str:
    """A well-formed 17-character VIN (no I, O or Q)."""
    return "".join(rng.choice(VIN_CHARS) for _ in range(17))


def market_value(new_price: float, year: int) -> float:
    """A rough depreciation curve: 12% a year, never under 15% of the new price."""
    age = max(0, TODAY.year - year)
    return float(round(max(new_price * 0.15, new_price * (0.88 ** age)) / 50) * 50)


def add_months(d: date, n: int) -> date:
    month = d.month - 1 + n
    year = d.year + month // 12
    month = month % 12 + 1
    day = min(d.day, 28)
    return date(year, month, day)


def build() -> dict[str, list[dict[str, Any]]]:
    """All base rows, by table."""
    rng = random.Random(SEED)
    rows: dict[str, list[dict[str, Any]]] = {
        name: [] for name in (
            "policyholders", "payment_methods", "policies", "coverages", "mvr_records", "drivers", "vin_records",
            "vehicles", "underwriting_approvals", "endorsements", "payment_arrangements", "invoices", "payments",
            "billing_extensions", "adjusters", "claims", "tickets", "ticket_notes",
        )
    }
    counters = {k: 1001 for k in ("POL", "DRV", "VEH", "INV", "CLM", "T")}
    counters.update({"PAY": 1, "N": 1, "EXT": 1, "END": 1, "UW": 1, "PA": 1})
    used_vins: set[str] = set()
    used_licenses: set[str] = set()

    def next_id(prefix: str, width: int = 4) -> str:
        n = counters[prefix]
        counters[prefix] += 1
        return f"{prefix}-{n:0{width}d}"

    def new_vin() -> str:
        v = make_vin(rng)
        while v in used_vins:
            v = make_vin(rng)
        used_vins.add(v)
        return v

    def new_license(state: str) -> str:
        lic = f"{state[0]}{rng.randint(1000000, 9999999)}"
        while lic in used_licenses:
            lic = f"{state[0]}{rng.randint(1000000, 9999999)}"
        used_licenses.add(lic)
        return lic

    # -- adjusters: 2 or 3 per state and specialty, a few inactive ---------------------------------
    adjusters: dict[tuple[str, str], list[dict[str, Any]]] = {}
    n_adj = 101
    for state in STATES:
        for spec in ADJUSTER_SPECIALTIES:
            for _ in range(rng.choice([2, 3])):
                adj = {"id": f"ADJ-{n_adj}", "first_name": rng.choice(FIRST_NAMES), "last_name": rng.choice(LAST_NAMES),
                       "specialty": spec, "state": state, "max_open_claims": rng.choice([8, 10, 12]),
                       "active": rng.random() > 0.08,
                       "phone": f"800-555-{1000 + n_adj}"}
                n_adj += 1
                rows["adjusters"].append(adj)
                adjusters.setdefault((state, spec), []).append(adj)
    adj_load: dict[str, int] = {}

    # spare VINs the decoder knows but no policy uses (cars people may buy)
    for _ in range(120):
        make, model, body, price = rng.choice(MODELS)
        year = rng.randint(2012, 2027)
        rows["vin_records"].append({"vin": new_vin(), "year": year, "make": make, "model": model,
                                    "body_style": body, "market_value": market_value(price, year)})

    emails: set[str] = set()
    for n in range(1, N_POLICYHOLDERS + 1):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        local = f"{first}.{last}".lower()
        email, k = f"{local}@example.com", 2
        while email in emails:
            email, k = f"{local}{k}@example.com", k + 1
        emails.add(email)
        state = rng.choice(list(STATES))
        city, zips, area = STATES[state]
        dob = date(1950, 1, 1) + timedelta(days=rng.randint(0, 365 * 52))
        phid = f"PH-{n:04d}"
        holder = {"id": phid, "first_name": first, "last_name": last, "email": email,
                  "phone": f"{area}-555-{rng.randint(1000, 9999)}", "date_of_birth": _iso(dob),
                  "street": f"{rng.randint(10, 9999)} {rng.choice(STREETS)}", "city": city, "state": state,
                  "zip_code": rng.choice(zips),
                  "customer_since": _iso(date(2016, 1, 1) + timedelta(days=rng.randint(0, 3000)))}
        rows["policyholders"].append(holder)
        methods = []
        for j in range(rng.choice([1, 1, 2, 2, 3])):
            if j > 0 and rng.random() < 0.4:
                pm = {"kind": "bank_account", "label": f"{rng.choice(BANKS)} ending {rng.randint(1000, 9999)}"}
            else:
                pm = {"kind": "card", "label": f"{rng.choice(CARD_BRANDS)} ending {rng.randint(1000, 9999)}"}
            pm.update(id=f"PM-{len(rows['payment_methods']) + 1:04d}", policyholder_id=phid,
                      status="expired" if rng.random() < 0.08 else "active")
            rows["payment_methods"].append(pm)
            methods.append(pm)
        active_methods = [m for m in methods if m["status"] == "active"] or methods

        # the household: the named insured plus maybe a spouse and a child
        people = [(first, last, dob, "named_insured")]
        if rng.random() < 0.45:
            sdob = dob + timedelta(days=rng.randint(-1500, 1500))
            people.append((rng.choice(FIRST_NAMES), last, sdob, "spouse"))
        if dob.year < 1985 and rng.random() < 0.25:
            cdob = date(rng.randint(2000, 2009), rng.randint(1, 12), rng.randint(1, 28))
            people.append((rng.choice(FIRST_NAMES), last, cdob, "child"))
        mvrs = []
        for pf, pl, pd, rel in people:
            lic = new_license(state)
            viol = rng.choice([0, 0, 0, 0, 1, 1, 2])
            acc = rng.choice([0, 0, 0, 0, 0, 1])
            mvr = {"license_number": lic, "license_state": state, "first_name": pf, "last_name": pl,
                   "date_of_birth": _iso(pd), "license_status": "valid" if rng.random() > 0.03 else "suspended",
                   "first_licensed": _iso(date(pd.year + 16, pd.month, min(pd.day, 28))), "violations_3y": viol,
                   "at_fault_accidents_3y": acc}
            rows["mvr_records"].append(mvr)
            mvrs.append((mvr, rel))

        cars = []
        for _ in range(rng.choice([1, 1, 2, 2, 3])):
            make, model, body, price = rng.choice(MODELS)
            year = rng.randint(2008, 2026)
            vin_row = {"vin": new_vin(), "year": year, "make": make, "model": model, "body_style": body,
                       "market_value": market_value(price, year)}
            rows["vin_records"].append(vin_row)
            cars.append(vin_row)

        # terms: maybe an expired previous term, then the current one (active or cancelled)
        start = TODAY - timedelta(days=rng.randint(5, 360))
        terms = []
        if rng.random() < 0.35:
            terms.append(("expired", start - timedelta(days=365)))
        terms.append(("cancelled" if rng.random() < 0.05 else "active", start))
        for status, eff in terms:
            exp = eff + timedelta(days=365)
            pol_id = next_id("POL")
            plan = "monthly" if rng.random() < 0.7 else "pay_in_full"
            premium = 0.0
            cov_rows = []
            picks = {"liability": rng.choice(["25/50", "50/100", "100/300", "100/300", "250/500"])}
            if rng.random() < 0.7:
                picks["uninsured_motorist"] = rng.choice(["25/50", "50/100", "100/300"])
            if rng.random() < 0.5:
                picks["medical_payments"] = rng.choice(["1000", "5000", "10000"])
            if rng.random() < 0.8:
                picks["collision"] = rng.choice([250, 500, 500, 1000, 2000])
            if rng.random() < 0.85:
                picks["comprehensive"] = rng.choice([100, 250, 500, 500, 1000])
            if rng.random() < 0.4:
                picks["rental_reimbursement"] = rng.choice([30, 40, 50])
            if rng.random() < 0.35:
                picks["roadside_assistance"] = None
            for ctype, option in picks.items():
                cov = {"id": f"{pol_id}/{ctype}", "policy_id": pol_id, "coverage_type": ctype, "limit_code": None,
                       "deductible": None, "daily_limit": None, "max_days": None,
                       "annual_premium": COVERAGE_PREMIUM[ctype][option], "status": "active",
                       "effective_date": _iso(eff), "removed_on": None}
                if ctype in ("liability", "uninsured_motorist", "medical_payments"):
                    cov["limit_code"] = option
                elif ctype in ("collision", "comprehensive"):
                    cov["deductible"] = option
                elif ctype == "rental_reimbursement":
                    cov.update(daily_limit=option, max_days=30)
                cov_rows.append(cov)
                premium += cov["annual_premium"]
            rows["coverages"].extend(cov_rows)
            drivers = []
            for mvr, rel in mvrs:
                age = age_on(mvr["date_of_birth"], _iso(eff))
                if age < 16:
                    continue
                d = {"id": next_id("DRV"), "policy_id": pol_id, "first_name": mvr["first_name"],
                     "last_name": mvr["last_name"], "date_of_birth": mvr["date_of_birth"],
                     "license_number": mvr["license_number"], "license_state": state, "relationship": rel,
                     "status": "active", "added_on": _iso(eff), "removed_on": None,
                     "annual_premium": driver_rate(age, mvr["violations_3y"], mvr["at_fault_accidents_3y"])}
                if rel == "child" and age < 21:  # young drivers were approved by an underwriter
                    rows["underwriting_approvals"].append({
                        "id": next_id("UW"), "policy_id": pol_id, "request_type": "add_driver",
                        "subject": mvr["license_number"], "status": "approved",
                        "decision_note": "Approved: driver accepted with standard surcharges.",
                        "request_reason": "Young driver in the household", "created_at": f"{_iso(eff)}T09:00:00Z"})
                if rel == "child" and status == "active" and rng.random() < 0.25:  # moved out
                    d.update(status="removed", removed_on=_iso(eff + timedelta(days=rng.randint(1, 120))))
                else:
                    premium += d["annual_premium"]
                drivers.append(d)
            rows["drivers"].extend(drivers)
            vehicles = []
            for car in cars:
                usage = rng.choice(["pleasure", "commute", "commute"])
                v = {"id": next_id("VEH"), "policy_id": pol_id, "vin": car["vin"], "year": car["year"],
                     "make": car["make"], "model": car["model"], "market_value": car["market_value"], "usage": usage,
                     "annual_mileage": rng.choice([6000, 8000, 10000, 12000, 15000]),
                     "lienholder": rng.choice(LENDERS) if car["year"] >= 2022 and rng.random() < 0.6 else None,
                     "status": "active", "added_on": _iso(eff), "removed_on": None, "replaced_by_vehicle_id": None,
                     "annual_premium": vehicle_rate(car["market_value"], usage)}
                premium += v["annual_premium"]
                vehicles.append(v)
            if status == "expired" and rng.random() < 0.4:  # a car they had last term, sold since
                make, model, body, price = rng.choice(MODELS)
                year = rng.randint(2005, 2018)
                vin_row = {"vin": new_vin(), "year": year, "make": make, "model": model, "body_style": body,
                           "market_value": market_value(price, year)}
                rows["vin_records"].append(vin_row)
                old = {"id": next_id("VEH"), "policy_id": pol_id, "vin": vin_row["vin"], "year": year, "make": make,
                       "model": model, "market_value": vin_row["market_value"], "usage": "commute",
                       "annual_mileage": 12000, "lienholder": None, "status": "removed", "added_on": _iso(eff),
                       "removed_on": _iso(eff + timedelta(days=rng.randint(30, 300))), "replaced_by_vehicle_id": None,
                       "annual_premium": vehicle_rate(vin_row["market_value"], "commute")}
                vehicles.append(old)
            rows["vehicles"].extend(vehicles)
            premium = money(premium)
            cancelled_on = None
            if status == "cancelled":
                cancelled_on = _iso(min(TODAY - timedelta(days=1), eff + timedelta(days=rng.randint(20, 200))))
            renewal = money(premium * rng.choice([1.0, 1.03, 1.05, 1.08])) if status == "active" and (exp - TODAY).days <= 45 else None
            policy = {"id": pol_id, "policyholder_id": phid, "status": status, "state": state,
                      "effective_date": _iso(eff), "expiration_date": _iso(exp), "annual_premium": premium,
                      "renewal_premium": renewal, "billing_plan": plan, "autopay": False,
                      "autopay_payment_method_id": None, "cancelled_on": cancelled_on}
            if status == "active" and rng.random() < 0.45:
                policy.update(autopay=True, autopay_payment_method_id=rng.choice(active_methods)["id"])
            rows["policies"].append(policy)

            # -- invoices: monthly instalments (or one) up to the next one due -----------------
            if status != "cancelled":
                dues = [eff] if plan == "pay_in_full" else [add_months(eff, m) for m in range(12)]
                monthly = money(premium / (1 if plan == "pay_in_full" else 12))
                late_left = 1 if status == "active" and plan == "monthly" and rng.random() < 0.15 else 0
                waived_once = False
                for due in dues:
                    if due > TODAY + timedelta(days=31):
                        break
                    inv = {"id": next_id("INV"), "policy_id": pol_id, "kind": "installment", "amount": monthly,
                           "late_fee": 0.0, "late_fee_waived": False, "amount_paid": 0.0,
                           "original_due_date": _iso(due), "due_date": _iso(due), "status": "open",
                           "arrangement_id": None}
                    if due < TODAY:
                        if late_left and (TODAY - due).days <= 40:
                            inv["status"] = "past_due"
                            if (TODAY - due).days > 10:
                                inv["late_fee"] = 15.0
                            late_left = 0
                        else:
                            inv.update(status="paid", amount_paid=monthly)
                            if rng.random() < 0.04 and not waived_once and status == "active":
                                inv.update(late_fee=15.0, late_fee_waived=True)
                                waived_once = True
                            if (TODAY - due).days < 100:
                                rows["payments"].append({
                                    "id": next_id("PAY"), "invoice_id": inv["id"], "amount": monthly,
                                    "payment_method_id": policy["autopay_payment_method_id"] or rng.choice(methods)["id"],
                                    "paid_on": _iso(due)})
                    rows["invoices"].append(inv)
                    if status == "active" and inv["status"] == "paid" and rng.random() < 0.03:
                        rows["billing_extensions"].append({
                            "id": next_id("EXT"), "invoice_id": inv["id"], "policy_id": pol_id,
                            "previous_due_date": _iso(due - timedelta(days=10)), "new_due_date": _iso(due),
                            "granted_on": _iso(due - timedelta(days=12)), "reason": "Paycheck timing"})

            if status == "expired" and plan == "monthly" and rng.random() < 0.15:  # an old, finished arrangement
                rows["payment_arrangements"].append({
                    "id": next_id("PA"), "policy_id": pol_id, "total_amount": money(monthly * 2), "installments": 2,
                    "status": "completed", "created_on": _iso(eff + timedelta(days=rng.randint(60, 200)))})

            # -- claims: mostly closed history, a few open ones with adjusters -----------------
            active_vehicles = [v for v in vehicles if v["status"] == "active"] or vehicles
            for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
                span = (min(TODAY, exp) - eff).days
                if span < 3:
                    break
                loss = eff + timedelta(days=rng.randint(1, span - 1))
                if loss > TODAY - timedelta(days=2):
                    continue
                vehicle = rng.choice(active_vehicles)
                driver = rng.choice(drivers) if drivers else None
                loss_type = rng.choice(["collision", "collision", "comprehensive", "liability"])
                if loss_type != "liability" and loss_type not in picks:
                    loss_type = "liability"
                injuries = loss_type != "comprehensive" and rng.random() < 0.15
                spec = "injury" if injuries else loss_type
                pool = [a for a in adjusters[(state, spec)] if a["active"]] or adjusters[(state, spec)]
                adj = rng.choice(pool)
                is_open = status == "active" and (TODAY - loss).days < 60 and rng.random() < 0.6 \
                    and adj_load.get(adj["id"], 0) < adj["max_open_claims"] - 2 and adj["active"]
                claim = {"id": next_id("CLM"), "policy_id": pol_id, "vehicle_id": vehicle["id"],
                         "driver_id": driver["id"] if driver else None, "loss_date": _iso(loss),
                         "reported_on": _iso(loss + timedelta(days=rng.randint(0, 2))), "loss_type": loss_type,
                         "injuries": injuries,
                         "description": {"collision": "Rear-ended at a stop light",
                                         "comprehensive": "Windshield cracked by road debris",
                                         "liability": "Backed into a parked car"}[loss_type],
                         "status": "assigned" if is_open else "closed", "adjuster_id": adj["id"],
                         "deductible": picks.get(loss_type) if loss_type != "liability" else None,
                         "contact_phone": holder["phone"],
                         "at_fault": None if is_open else (loss_type != "comprehensive" and rng.random() < 0.5),
                         "rental_days": 0, "rental_daily_limit": None,
                         "paid_amount": 0.0 if is_open else float(rng.randint(4, 60) * 100),
                         "closed_on": None if is_open else _iso(min(TODAY, loss + timedelta(days=rng.randint(15, 60)))),
                         "withdraw_reason": None}
                if is_open:
                    adj_load[adj["id"]] = adj_load.get(adj["id"], 0) + 1
                rows["claims"].append(claim)
                if rng.random() < 0.5:
                    tid = next_id("T")
                    rows["tickets"].append({
                        "id": tid, "policyholder_id": phid, "policy_id": pol_id, "claim_id": claim["id"],
                        "subject": f"Claim {claim['id']} follow-up", "category": "claim",
                        "status": "open" if is_open else "closed", "priority": "normal",
                        "created_at": f"{claim['reported_on']}T10:00:00Z"})
                    for author, body in [("customer", "Asked for an update on the claim."),
                                         ("adjuster", "Inspection scheduled.")][: rng.randint(1, 2)]:
                        rows["ticket_notes"].append({"id": next_id("N"), "ticket_id": tid, "author": author,
                                                     "body": body, "created_at": f"{claim['reported_on']}T11:00:00Z"})

            # -- a few billing and policy-change tickets ------------------------------------------
            if status == "active" and rng.random() < 0.12:
                tid = next_id("T")
                opened = TODAY - timedelta(days=rng.randint(1, 90))
                rows["tickets"].append({
                    "id": tid, "policyholder_id": phid, "policy_id": pol_id, "claim_id": None,
                    "subject": rng.choice(["Question about my bill", "Premium went up", "Proof of insurance request"]),
                    "category": rng.choice(["billing", "policy_change", "other"]),
                    "status": "closed" if rng.random() < 0.7 else "open", "priority": "normal",
                    "created_at": f"{_iso(opened)}T09:30:00Z"})
                rows["ticket_notes"].append({"id": next_id("N"), "ticket_id": tid, "author": "customer",
                                             "body": "Customer called with a question.",
                                             "created_at": f"{_iso(opened)}T09:30:00Z"})

            # -- history of mid-term changes ------------------------------------------------------
            if status == "active" and rng.random() < 0.1 and "collision" in picks:
                when = eff + timedelta(days=rng.randint(1, max(1, (TODAY - eff).days)))
                if when < TODAY:
                    rows["endorsements"].append({
                        "id": next_id("END"), "policy_id": pol_id, "kind": "change_coverage",
                        "subject_id": f"{pol_id}/collision", "effective_date": _iso(when),
                        "annual_premium_change": 0.0, "prorated_change": 0.0, "approval_id": None,
                        "description": "Deductible reviewed, no change in premium",
                        "created_at": f"{_iso(when)}T12:00:00Z"})
    return rows
