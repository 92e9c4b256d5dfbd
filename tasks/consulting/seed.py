"""The consulting firm's base data: ~330 employees with their access, licences, devices,
leave and ticket history, built deterministically.

`build()` depends on nothing but the fixed seed below (no network, no wall clock), so
every process builds the same rows. Dates run up to the domain clock, 2026-11-30.
Natural distractors come for free: employees share first names, most have older,
fulfilled access requests and delivered hardware orders, and leavers keep their records.

Tasks never depend on a particular generated employee: each task's `initial_patch` adds
the people its scenario is about, with ids in ranges this file never uses (employees
E-5000 to E-6999, and the same numbers for their requests, orders, assets, leave, cases
and tickets). What tasks do use from here is the firm's shared set-up, which is fixed
rather than drawn: departments, offices, systems and roles (and the system owners),
segregation-of-duties rules, licence pools, the hardware catalogue and limits, holidays.
Base licence seats are all in recent use, so only seats a task adds can be reclaimed.
Records that tools create are numbered from 9001 (see `tools.NEW_ID_START`).
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

SEED = 20261130
TODAY = date(2026, 11, 30)

OFFICES = [  # (name, line1, city, state, zip, home zips nearby)
    ("New York", "250 Park Ave, Floor 18", "New York", "NY", "10177", ["10011", "10025", "11215", "11375"]),
    ("Chicago", "233 S Wacker Dr, Suite 4200", "Chicago", "IL", "60606", ["60614", "60622", "60640", "60657"]),
    ("Boston", "100 Federal St, Floor 9", "Boston", "MA", "02110", ["02116", "02130", "02139", "02144"]),
    ("Austin", "500 W 2nd St, Suite 1900", "Austin", "TX", "78701", ["78702", "78704", "78745", "78757"]),
    ("San Francisco", "101 California St, Floor 30", "San Francisco", "CA", "94111", ["94110", "94117", "94122", "94609"]),
]
REMOTE_PLACES = [("Denver", "CO", "80205"), ("Portland", "OR", "97214"), ("Raleigh", "NC", "27603"),
                 ("Madison", "WI", "53703"), ("Tucson", "AZ", "85719"), ("Columbus", "OH", "43215")]
STREETS = ["Maple Ave", "Oak St", "Cedar Ln", "Pine St", "Elm St", "Birch Rd", "Lakeview Dr", "Hillcrest Blvd",
           "River Rd", "Sunset Way", "Willow Ct", "Chestnut St", "Harbor View Rd", "Summit Ave"]
PHONE_AREAS = {"New York": "212", "Chicago": "312", "Boston": "617", "Austin": "512", "San Francisco": "415"}

# (id, name, cost centre, client-facing)
DEPARTMENTS = [
    ("D-STR", "Strategy", "CC-1100", True),
    ("D-OPS", "Operations Consulting", "CC-1200", True),
    ("D-TEC", "Technology Consulting", "CC-1300", True),
    ("D-DAT", "Data & Analytics", "CC-1400", True),
    ("D-RSK", "Risk & Compliance", "CC-1500", True),
    ("D-FIN", "Finance", "CC-2100", False),
    ("D-HR", "People & HR", "CC-2200", False),
    ("D-IT", "IT Services", "CC-2300", False),
    ("D-MKT", "Marketing", "CC-2400", False),
    ("D-LEG", "Legal", "CC-2500", False),
]
LEVELS = ["analyst", "consultant", "senior_consultant", "manager", "director", "partner"]
TITLES = {"analyst": "Analyst", "consultant": "Consultant", "senior_consultant": "Senior Consultant",
          "manager": "Manager", "director": "Director", "partner": "Partner"}
HARDWARE_LIMITS = {"analyst": 2000, "consultant": 3000, "senior_consultant": 3000, "manager": 3500,
                   "director": 4500, "partner": 6000}

FIRST_NAMES = [
    "Adrian", "Beatrice", "Cyrus", "Delia", "Emmett", "Farah", "Gideon", "Helena", "Ivan", "Jasmine",
    "Kofi", "Lena", "Matteo", "Nadia", "Owen", "Paloma", "Quentin", "Rhea", "Silas", "Tamsin",
    "Ulrich", "Vivian", "Wesley", "Ximena", "Yosef", "Zara", "Anders", "Brigid", "Caspian", "Dalia",
    "Elliot", "Freya", "Gareth", "Hollis", "Imogen", "Jasper", "Kira", "Leander", "Mirela", "Nolan",
    "Ophelia", "Percy", "Rosalind", "Stellan", "Thea", "Vaughn", "Willa", "Yvette", "Zane", "Amara",
]
LAST_NAMES = [
    "Abernathy", "Blackwood", "Castellano", "Drummond", "Ellsworth", "Fairbanks", "Galloway", "Hargrove",
    "Iverson", "Jablonski", "Kincaid", "Lindqvist", "Montague", "Northcott", "Oyelaran", "Pembroke",
    "Quarles", "Rutherford", "Sandoval", "Thackeray", "Underhill", "Valverde", "Whitlock", "Yardley",
    "Zelinski", "Ashdown", "Brennan", "Corrigan", "Delacroix", "Eastwood", "Fitzgerald", "Grimaldi",
    "Holloway", "Ingersoll", "Kowalczyk", "Lockhart", "Marchetti", "Nakashima", "Ormsby", "Prescott",
]

HOLIDAYS = [
    ("2026-01-01", "New Year's Day"), ("2026-01-19", "Martin Luther King Jr. Day"), ("2026-05-25", "Memorial Day"),
    ("2026-07-03", "Independence Day (observed)"), ("2026-09-07", "Labor Day"), ("2026-11-26", "Thanksgiving"),
    ("2026-11-27", "Day after Thanksgiving"), ("2026-12-24", "Christmas Eve (firm holiday)"),
    ("2026-12-25", "Christmas Day"), ("2026-12-31", "New Year's Eve (firm holiday)"), ("2027-01-01", "New Year's Day"),
    ("2027-01-18", "Martin Luther King Jr. Day"), ("2027-05-31", "Memorial Day"), ("2027-07-05", "Independence Day (observed)"),
]

# (id, name, owner department, sensitivity, description)
SYSTEMS = [
    ("SYS-M365", "Microsoft 365", "D-IT", "standard", "Email, calendar, Teams and OneDrive."),
    ("SYS-INTRA", "Intranet", "D-MKT", "standard", "The firm's intranet and knowledge pages."),
    ("SYS-TIME", "Chronos Timesheets", "D-FIN", "standard", "Time recording against client engagements."),
    ("SYS-SAP", "SAP Finance", "D-FIN", "confidential", "General ledger, accounts payable and payment runs."),
    ("SYS-WKD", "Workday HR", "D-HR", "confidential", "HR records, payroll and compensation."),
    ("SYS-SFDC", "Salesforce CRM", "D-MKT", "restricted", "Client accounts, opportunities and pipeline."),
    ("SYS-PBI", "Power BI", "D-DAT", "restricted", "Dashboards and reports on firm and client data."),
    ("SYS-GIT", "GitLab", "D-TEC", "restricted", "Source code repositories and CI pipelines."),
    ("SYS-AWS", "AWS Client Sandbox", "D-TEC", "confidential", "Cloud accounts for client prototypes."),
    ("SYS-DOC", "iManage Documents", "D-LEG", "restricted", "Engagement documents and contracts."),
    ("SYS-JIRA", "Jira", "D-IT", "standard", "Project and issue tracking."),
]
# (id, system, name, privilege, approver, baseline, description)
ROLES = [
    ("M365-USER", "SYS-M365", "Microsoft 365 User", "write", "none", True, "Mailbox, calendar, Teams and OneDrive."),
    ("INTRA-READ", "SYS-INTRA", "Intranet Reader", "read", "none", True, "Read intranet pages."),
    ("INTRA-EDITOR", "SYS-INTRA", "Intranet Editor", "write", "manager", False, "Publish and edit intranet pages."),
    ("TIME-USER", "SYS-TIME", "Timesheet User", "write", "none", True, "Record own time."),
    ("TIME-APPROVER", "SYS-TIME", "Timesheet Approver", "write", "manager", False, "Approve team timesheets."),
    ("SAP-GL-VIEW", "SYS-SAP", "GL Viewer", "read", "manager", False, "View general ledger balances and reports."),
    ("SAP-AP-CLERK", "SYS-SAP", "AP Clerk", "write", "owner", False, "Enter and edit vendor invoices."),
    ("SAP-VENDOR-MAINT", "SYS-SAP", "Vendor Master Maintainer", "write", "owner", False, "Create and change vendor bank details."),
    ("SAP-PAY-RUN", "SYS-SAP", "Payment Run Operator", "write", "owner", False, "Execute payment runs to vendors."),
    ("SAP-ADMIN", "SYS-SAP", "SAP Administrator", "admin", "owner", False, "Configure SAP and manage users."),
    ("WKD-SELF", "SYS-WKD", "Workday Self-Service", "read", "none", False, "View own HR record and payslips."),
    ("WKD-HR-PARTNER", "SYS-WKD", "HR Business Partner", "write", "owner", False, "Change employee HR records."),
    ("WKD-PAYROLL", "SYS-WKD", "Payroll Processor", "write", "owner", False, "Run and adjust payroll."),
    ("WKD-COMP-VIEW", "SYS-WKD", "Compensation Viewer", "read", "owner", False, "View salaries and bonuses."),
    ("SFDC-READ", "SYS-SFDC", "CRM Reader", "read", "none", False, "View client accounts and opportunities."),
    ("SFDC-EDIT", "SYS-SFDC", "CRM Editor", "write", "manager", False, "Create and update opportunities."),
    ("SFDC-ADMIN", "SYS-SFDC", "CRM Administrator", "admin", "owner", False, "Configure Salesforce and manage users."),
    ("PBI-VIEW", "SYS-PBI", "Report Viewer", "read", "none", False, "View published dashboards and reports."),
    ("PBI-PUBLISH", "SYS-PBI", "Report Publisher", "write", "manager", False, "Create and publish reports to workspaces."),
    ("PBI-ADMIN", "SYS-PBI", "Power BI Administrator", "admin", "owner", False, "Manage workspaces, gateways and tenant settings."),
    ("GIT-REPORTER", "SYS-GIT", "Repository Reporter", "read", "none", False, "Read code and issues."),
    ("GIT-DEV", "SYS-GIT", "Developer", "write", "manager", False, "Push branches and open merge requests."),
    ("GIT-MAINTAINER", "SYS-GIT", "Maintainer", "admin", "owner", False, "Merge to protected branches and manage repositories."),
    ("AWS-READONLY", "SYS-AWS", "Sandbox Read-Only", "read", "manager", False, "View resources in client sandbox accounts."),
    ("AWS-DEV", "SYS-AWS", "Sandbox Developer", "write", "owner", False, "Create and change resources in sandbox accounts."),
    ("AWS-ADMIN", "SYS-AWS", "Sandbox Administrator", "admin", "owner", False, "Manage sandbox accounts, IAM and billing."),
    ("DOC-READ", "SYS-DOC", "Document Reader", "read", "none", False, "Read engagement documents."),
    ("DOC-EDIT", "SYS-DOC", "Document Editor", "write", "manager", False, "Create and edit engagement documents."),
    ("DOC-LEGAL-HOLD", "SYS-DOC", "Legal Hold Manager", "admin", "owner", False, "Place and release legal holds."),
    ("JIRA-USER", "SYS-JIRA", "Jira User", "write", "none", False, "Create and work on issues."),
    ("JIRA-ADMIN", "SYS-JIRA", "Jira Administrator", "admin", "owner", False, "Configure projects and workflows."),
]
SOD_CONFLICTS = [
    ("SOD-01", "SAP-AP-CLERK", "SAP-PAY-RUN", "One person could enter an invoice and pay it."),
    ("SOD-02", "SAP-VENDOR-MAINT", "SAP-PAY-RUN", "One person could change a vendor's bank details and pay them."),
    ("SOD-03", "SAP-VENDOR-MAINT", "SAP-AP-CLERK", "One person could create a vendor and invoice for it."),
    ("SOD-04", "WKD-HR-PARTNER", "WKD-PAYROLL", "One person could change a salary record and pay it out."),
    ("SOD-05", "GIT-MAINTAINER", "AWS-ADMIN", "One person could merge unreviewed code and deploy it with full cloud rights."),
    ("SOD-06", "SAP-ADMIN", "SAP-PAY-RUN", "An administrator could grant themselves payment rights and pay."),
]
# (id, product, vendor, monthly cost per seat)
LICENCE_POOLS = [
    ("LP-VISIO", "Microsoft Visio Plan 2", "Microsoft", 15.00),
    ("LP-PROJ", "Microsoft Project Plan 3", "Microsoft", 30.00),
    ("LP-ACRO", "Adobe Acrobat Pro", "Adobe", 23.00),
    ("LP-ADCC", "Adobe Creative Cloud All Apps", "Adobe", 85.00),
    ("LP-TABL", "Tableau Creator", "Salesforce", 75.00),
    ("LP-PBIP", "Power BI Pro", "Microsoft", 14.00),
    ("LP-JETB", "JetBrains All Products Pack", "JetBrains", 29.00),
    ("LP-MIRO", "Miro Business", "Miro", 16.00),
    ("LP-FIGM", "Figma Professional", "Figma", 45.00),
    ("LP-ALTX", "Alteryx Designer", "Alteryx", 433.00),
    ("LP-MATL", "MATLAB", "MathWorks", 180.00),
    ("LP-STATA", "Stata/SE", "StataCorp", 70.00),
    ("LP-CIQ", "S&P Capital IQ", "S&P Global", 1000.00),
    ("LP-ZOOMW", "Zoom Webinars", "Zoom", 66.00),
]
# (id, name, category, price, active)
CATALOGUE = [
    ("HW-LAP-STD", "Standard Laptop 14in", "laptop", 1299.00, True),
    ("HW-LAP-ULT", "Ultralight Laptop 13in", "laptop", 1649.00, True),
    ("HW-LAP-PRF", "Performance Laptop 16in", "laptop", 2399.00, True),
    ("HW-LAP-MAC", "MacBook Pro 14in", "laptop", 2199.00, True),
    ("HW-LAP-OLD", "Standard Laptop 14in (2022 model)", "laptop", 1199.00, False),
    ("HW-MON-27", "27in Monitor", "monitor", 349.00, True),
    ("HW-MON-34", "34in Ultrawide Monitor", "monitor", 699.00, True),
    ("HW-DOCK", "USB-C Docking Station", "dock", 249.00, True),
    ("HW-HSET", "Noise-Cancelling Headset", "audio", 189.00, True),
    ("HW-SPKR", "Conference Speakerphone", "audio", 229.00, True),
    ("HW-PHN", "Smartphone", "phone", 899.00, True),
    ("HW-TAB", "Tablet 11in", "tablet", 799.00, True),
    ("HW-WCAM", "4K Webcam", "accessory", 159.00, True),
    ("HW-KBD", "Wireless Keyboard", "accessory", 89.00, True),
    ("HW-MSE", "Wireless Mouse", "accessory", 49.00, True),
    ("HW-BAG", "Laptop Backpack", "accessory", 79.00, True),
]
OPTIONAL_ROLES = {  # non-baseline roles typical per department
    "D-STR": ["SFDC-READ", "PBI-VIEW", "DOC-READ", "DOC-EDIT", "JIRA-USER"],
    "D-OPS": ["SFDC-READ", "PBI-VIEW", "DOC-READ", "DOC-EDIT", "JIRA-USER", "INTRA-EDITOR"],
    "D-TEC": ["GIT-REPORTER", "GIT-DEV", "AWS-READONLY", "AWS-DEV", "JIRA-USER", "DOC-READ"],
    "D-DAT": ["PBI-VIEW", "PBI-PUBLISH", "GIT-REPORTER", "GIT-DEV", "AWS-READONLY", "JIRA-USER"],
    "D-RSK": ["DOC-READ", "DOC-EDIT", "SAP-GL-VIEW", "PBI-VIEW", "JIRA-USER"],
    "D-FIN": ["SAP-GL-VIEW", "SAP-AP-CLERK", "SAP-PAY-RUN", "SAP-VENDOR-MAINT", "PBI-VIEW"],
    "D-HR": ["WKD-HR-PARTNER", "WKD-PAYROLL", "WKD-COMP-VIEW", "DOC-READ"],
    "D-IT": ["JIRA-USER", "JIRA-ADMIN", "GIT-DEV", "AWS-READONLY", "SFDC-READ"],
    "D-MKT": ["SFDC-READ", "SFDC-EDIT", "INTRA-EDITOR", "PBI-VIEW"],
    "D-LEG": ["DOC-READ", "DOC-EDIT", "DOC-LEGAL-HOLD", "SFDC-READ"],
}
TYPICAL_LICENCES = {
    "D-STR": ["LP-VISIO", "LP-MIRO", "LP-CIQ", "LP-ACRO"], "D-OPS": ["LP-VISIO", "LP-PROJ", "LP-MIRO"],
    "D-TEC": ["LP-JETB", "LP-MIRO", "LP-PROJ"], "D-DAT": ["LP-TABL", "LP-PBIP", "LP-ALTX", "LP-MATL", "LP-STATA"],
    "D-RSK": ["LP-ACRO", "LP-PBIP", "LP-VISIO"], "D-FIN": ["LP-ACRO", "LP-PBIP"], "D-HR": ["LP-ACRO", "LP-ZOOMW"],
    "D-IT": ["LP-VISIO", "LP-JETB", "LP-PROJ"], "D-MKT": ["LP-ADCC", "LP-FIGM", "LP-ZOOMW"], "D-LEG": ["LP-ACRO"],
}
TICKET_SUBJECTS = {
    "access": "Access request follow-up", "licence": "Software licence request", "hardware": "Hardware order question",
    "hr": "Leave balance question", "other": "VPN keeps disconnecting", "security": "Suspicious email reported",
}
N_PER_DEPT = 32


def _iso(d: date) -> str:
    return d.isoformat()


def working_days(start: date, end: date, holidays: set[str]) -> int:
    """Mon-Fri between two dates (inclusive) that are not firm holidays."""
    n, d = 0, start
    while d <= end:
        if d.weekday() < 5 and _iso(d) not in holidays:
            n += 1
        d += timedelta(days=1)
    return n


def build() -> dict[str, list[dict[str, Any]]]:
    """All base rows, by table."""
    rng = random.Random(SEED)
    tables = (
        "offices", "departments", "employees", "public_holidays", "systems", "system_roles", "sod_conflicts",
        "access_requests", "access_grants", "approvals", "licence_pools", "licence_assignments",
        "catalogue_items", "hardware_limits", "hardware_orders", "hardware_order_lines", "assets",
        "leave_balances", "leave_requests", "lifecycle_cases", "checklist_items", "tickets", "ticket_notes",
    )
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in tables}
    holidays = {d for d, _ in HOLIDAYS}

    for name, line1, city, state, zip_code, _ in OFFICES:
        rows["offices"].append({"name": name, "line1": line1, "city": city, "state": state, "zip_code": zip_code})
    rows["public_holidays"] = [{"day": d, "name": n} for d, n in HOLIDAYS]
    rows["hardware_limits"] = [{"level": k, "order_limit": v} for k, v in HARDWARE_LIMITS.items()]
    rows["catalogue_items"] = [
        {"id": i, "name": n, "category": c, "price": p, "active": a} for i, n, c, p, a in CATALOGUE
    ]
    prices = {i: p for i, _, _, p, _ in CATALOGUE}

    # -- employees, department by department: a head, managers, staff -----------------------------
    emails: set[str] = set()
    employees: list[dict[str, Any]] = []
    n = 1001

    def person(dept: str, level: str, manager_id: str | None) -> dict[str, Any]:
        nonlocal n
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        local = f"{first}.{last}".lower()
        email, k = f"{local}@meridianpartners.com", 2
        while email in emails:
            email, k = f"{local}{k}@meridianpartners.com", k + 1
        emails.add(email)
        office = rng.choice(OFFICES)
        mode = rng.choices(["office", "hybrid", "remote"], [3, 5, 2])[0]
        if mode == "remote":
            city, state, zip_code = rng.choice(REMOTE_PLACES)
        else:
            city, state, zip_code = office[2], office[3], rng.choice(office[5])
        years = {"analyst": 2, "consultant": 4, "senior_consultant": 6, "manager": 9, "director": 12, "partner": 15}[level]
        start = TODAY - timedelta(days=rng.randint(60, 365 * years))
        emp = {
            "id": f"E-{n}", "first_name": first, "last_name": last, "email": email, "department_id": dept,
            "manager_id": manager_id, "title": TITLES[level], "level": level, "status": "active",
            "start_date": _iso(start), "end_date": None, "office": office[0], "work_mode": mode,
            "date_of_birth": _iso(date(1962, 1, 1) + timedelta(days=rng.randint(0, 14000))),
            "mobile_phone": f"{PHONE_AREAS[office[0]]}-555-{rng.randint(1000, 9999)}",
            "home_line1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)}", "home_city": city,
            "home_state": state, "home_zip": zip_code, "account_status": "active",
        }
        n += 1
        employees.append(emp)
        return emp

    heads: dict[str, dict[str, Any]] = {}
    for dept, dname, cc, client in DEPARTMENTS:
        head = person(dept, "partner" if client else "director", None)
        heads[dept] = head
        rows["departments"].append({"id": dept, "name": dname, "cost_centre": cc, "head_id": head["id"]})
        managers = [person(dept, rng.choice(["manager", "director"]), head["id"]) for _ in range(3)]
        for _ in range(N_PER_DEPT - 4):
            level = rng.choices(LEVELS[:4], [5, 6, 4, 1])[0]
            person(dept, level, rng.choice(managers)["id"])
    for emp in employees:  # the department heads report to the managing partner (the first head)
        if emp["manager_id"] is None and emp["id"] != heads["D-STR"]["id"]:
            emp["manager_id"] = heads["D-STR"]["id"]

    # leavers, people on leave, and hires who have not started yet
    staff = [e for e in employees if e["manager_id"] and e["level"] in LEVELS[:3]]
    for emp in rng.sample(staff, 24):
        end = TODAY - timedelta(days=rng.randint(5, 200))
        emp.update(status="terminated", end_date=_iso(end), account_status="disabled")
    for emp in rng.sample([e for e in staff if e["status"] == "active"], 8):
        emp["status"] = "on_leave"
    for emp in rng.sample([e for e in staff if e["status"] == "active"], 6):
        emp.update(status="pending_start", start_date=_iso(TODAY + timedelta(days=rng.randint(7, 40))))
    rows["employees"] = employees
    by_id = {e["id"]: e for e in employees}

    # -- systems, roles, SoD --------------------------------------------------------------------------
    for sid, name, owner_dept, sens, desc in SYSTEMS:
        rows["systems"].append({"id": sid, "name": name, "owner_id": heads[owner_dept]["id"], "sensitivity": sens,
                                "description": desc})
    owners = {s["id"]: s["owner_id"] for s in rows["systems"]}
    roles = {}
    for rid, sid, name, priv, appr, baseline, desc in ROLES:
        roles[rid] = {"id": rid, "system_id": sid, "name": name, "privilege": priv, "approver": appr,
                      "baseline": baseline, "description": desc}
        rows["system_roles"].append(roles[rid])
    rows["sod_conflicts"] = [{"id": i, "role_a": a, "role_b": b, "risk": r} for i, a, b, r in SOD_CONFLICTS]
    conflicts = {(a, b) for _, a, b, _ in SOD_CONFLICTS} | {(b, a) for _, a, b, _ in SOD_CONFLICTS}

    # -- access: baseline roles for everyone, a few more by department, with the requests behind them ---
    ar_n, ap_n = 1001, 1001
    for emp in employees:
        if emp["status"] == "pending_start":
            continue
        start = date.fromisoformat(emp["start_date"])
        held: list[str] = [r for r in roles if roles[r]["baseline"]]
        for rid in rng.sample(OPTIONAL_ROLES[emp["department_id"]], rng.randint(1, 3)):
            if all((rid, h) not in conflicts for h in held):
                held.append(rid)
        for rid in held:
            granted = start + timedelta(days=0 if roles[rid]["baseline"] else rng.randint(1, 200))
            granted = min(granted, TODAY - timedelta(days=1))
            request_id = None
            if roles[rid]["approver"] != "none":
                request_id = f"AR-{ar_n}"
                ar_n += 1
                approver = emp["manager_id"] if roles[rid]["approver"] == "manager" else owners[roles[rid]["system_id"]]
                if approver in (None, emp["id"]):  # the managing partner, or an owner asking for their own system
                    approver = heads["D-FIN" if emp["id"] == heads["D-STR"]["id"] else "D-STR"]["id"]
                rows["access_requests"].append({
                    "id": request_id, "employee_id": emp["id"], "role_id": rid, "requested_by": emp["id"],
                    "status": "fulfilled", "justification": "Needed for engagement work.",
                    "created_at": f"{_iso(granted - timedelta(days=2))}T09:00:00Z"})
                rows["approvals"].append({
                    "id": f"AP-{ap_n}", "subject_type": "access_request", "subject_id": request_id,
                    "employee_id": emp["id"], "approver_id": approver, "amount": None, "status": "approved",
                    "decision_note": "Approved.", "decided_on": _iso(granted - timedelta(days=1)),
                    "created_at": f"{_iso(granted - timedelta(days=2))}T09:00:00Z"})
                ap_n += 1
            revoked = emp["status"] == "terminated"
            rows["access_grants"].append({
                "id": f"{emp['id']}/{rid}", "employee_id": emp["id"], "role_id": rid,
                "status": "revoked" if revoked else "active", "granted_on": _iso(granted),
                "revoked_on": emp["end_date"] if revoked else None, "request_id": request_id})
        # now and then a request that was turned down
        if emp["status"] == "active" and rng.random() < 0.08:
            rid = rng.choice([r for r in ("SAP-ADMIN", "SFDC-ADMIN", "PBI-ADMIN", "AWS-ADMIN") if r not in held])
            when = TODAY - timedelta(days=rng.randint(20, 300))
            rows["access_requests"].append({
                "id": f"AR-{ar_n}", "employee_id": emp["id"], "role_id": rid, "requested_by": emp["id"],
                "status": "rejected", "justification": "Would like admin rights.",
                "created_at": f"{_iso(when)}T09:00:00Z"})
            rows["approvals"].append({
                "id": f"AP-{ap_n}", "subject_type": "access_request", "subject_id": f"AR-{ar_n}",
                "employee_id": emp["id"], "approver_id": owners[roles[rid]["system_id"]], "amount": None,
                "status": "denied", "decision_note": "Administrator rights are limited to the platform team.",
                "decided_on": _iso(when + timedelta(days=1)), "created_at": f"{_iso(when)}T09:00:00Z"})
            ar_n += 1
            ap_n += 1

    # -- licences: every base seat was used in the last 60 days -----------------------------------------
    dept_cc = {d: cc for d, _, cc, _ in DEPARTMENTS}
    seats: dict[str, int] = {p[0]: 0 for p in LICENCE_POOLS}
    for emp in employees:
        if emp["status"] == "pending_start":
            continue
        for pool in rng.sample(TYPICAL_LICENCES[emp["department_id"]], min(rng.randint(0, 2), len(TYPICAL_LICENCES[emp["department_id"]]))):
            assigned = max(date.fromisoformat(emp["start_date"]), TODAY - timedelta(days=rng.randint(30, 900)))
            gone = emp["status"] == "terminated"
            rows["licence_assignments"].append({
                "id": f"{pool}/{emp['id']}", "pool_id": pool, "employee_id": emp["id"],
                "status": "reclaimed" if gone else "active", "cost_centre": dept_cc[emp["department_id"]],
                "assigned_on": _iso(min(assigned, TODAY - timedelta(days=3))),
                "last_used_on": _iso(TODAY - timedelta(days=rng.randint(0, 60))) if not gone else emp["end_date"],
                "reclaimed_on": emp["end_date"] if gone else None})
            seats[pool] += 0 if gone else 1
    for pid, product, vendor, cost in LICENCE_POOLS:
        rows["licence_pools"].append({"id": pid, "product": product, "vendor": vendor, "monthly_cost": cost,
                                      "total_seats": seats[pid] + rng.randint(2, 6)})

    # -- devices and hardware orders ----------------------------------------------------------------------
    as_n, ho_n = 10001, 1001
    laptop_for = {"analyst": "HW-LAP-STD", "consultant": "HW-LAP-ULT"}

    def order(emp: dict[str, Any], items: list[str], placed: date, status: str) -> None:
        nonlocal ho_n
        oid = f"HO-{ho_n}"
        ho_n += 1
        total = round(sum(prices[i] for i in items), 2)
        home = emp["work_mode"] == "remote"
        office = next(o for o in OFFICES if o[0] == emp["office"])
        address = (f"{emp['first_name']} {emp['last_name']}, {emp['home_line1']}, {emp['home_city']}, "
                   f"{emp['home_state']} {emp['home_zip']}") if home else (
                   f"{emp['first_name']} {emp['last_name']} c/o Meridian Partners, {office[1]}, {office[2]}, "
                   f"{office[3]} {office[4]}")
        shipped = status in ("shipped", "delivered")
        rows["hardware_orders"].append({
            "id": oid, "employee_id": emp["id"], "requested_by": emp["id"], "status": status, "total": total,
            "ship_to": "home" if home else "office", "ship_address": address, "approval_id": None,
            "placed_on": _iso(placed), "tracking_number": f"1Z{rng.randint(10**9, 10**10 - 1)}" if shipped else None,
            "eta": _iso(placed + timedelta(days=6)) if shipped else None,
            "delivered_on": _iso(placed + timedelta(days=6)) if status == "delivered" else None,
            "cancel_reason": None})
        for item in sorted(set(items)):
            rows["hardware_order_lines"].append({"id": f"{oid}/{item}", "order_id": oid, "item_id": item,
                                                 "quantity": items.count(item), "unit_price": prices[item]})

    for emp in employees:
        if emp["status"] == "pending_start":
            continue
        start = date.fromisoformat(emp["start_date"])
        laptop_on = max(start, TODAY - timedelta(days=rng.randint(40, 1500)))
        gone = emp["status"] == "terminated"
        laptop = laptop_for.get(emp["level"], "HW-LAP-PRF" if emp["department_id"] in ("D-DAT", "D-TEC") else "HW-LAP-ULT")
        if laptop_on < date(2024, 6, 1):
            laptop = "HW-LAP-OLD" if emp["level"] in ("analyst", "consultant") else laptop
        kit = [laptop, *rng.sample(["HW-MON-27", "HW-DOCK", "HW-HSET", "HW-PHN"], rng.randint(1, 3))]
        for item in kit:
            rows["assets"].append({
                "id": f"AS-{as_n}", "employee_id": emp["id"], "item_id": item,
                "serial_number": f"SN{rng.randint(10**7, 10**8 - 1)}",
                "status": "returned" if gone else "assigned", "assigned_on": _iso(laptop_on),
                "returned_on": _iso(date.fromisoformat(emp["end_date"]) + timedelta(days=7)) if gone else None})
            as_n += 1
        if laptop_on > date(2024, 6, 1) and laptop_on < TODAY - timedelta(days=10):
            order(emp, kit, laptop_on - timedelta(days=7), "delivered")
        if not gone and rng.random() < 0.12:  # a recent accessory order, some still on their way
            placed = TODAY - timedelta(days=rng.randint(1, 12))
            status = "delivered" if placed < TODAY - timedelta(days=7) else rng.choice(["submitted", "shipped"])
            order(emp, rng.sample(["HW-KBD", "HW-MSE", "HW-WCAM", "HW-BAG", "HW-MON-27"], rng.randint(1, 2)),
                  placed, status)

    # -- leave: entitlements for 2026 and 2027, taken and booked days -------------------------------------
    lr_n = 1001
    for emp in employees:
        if emp["status"] in ("pending_start", "terminated"):
            continue
        entitled = {"analyst": 20, "consultant": 22, "senior_consultant": 25}.get(emp["level"], 27)
        for year, carried in ((2026, rng.randint(0, 5)), (2027, 0)):
            rows["leave_balances"].append({"id": f"{emp['id']}/{year}/annual", "employee_id": emp["id"],
                                           "year": year, "leave_type": "annual", "entitled_days": entitled,
                                           "carried_over_days": carried})
            rows["leave_balances"].append({"id": f"{emp['id']}/{year}/wellbeing", "employee_id": emp["id"],
                                           "year": year, "leave_type": "wellbeing", "entitled_days": 2,
                                           "carried_over_days": 0})
        for _ in range(rng.randint(1, 3)):
            start = date(2026, 1, 5) + timedelta(days=rng.randint(0, 320))
            while start.weekday() >= 5:
                start += timedelta(days=1)
            end = start + timedelta(days=rng.choice([0, 1, 3, 4, 7, 11]))
            days = working_days(start, end, holidays)
            if days == 0 or end.year != 2026:
                continue
            status = "approved" if start <= TODAY or rng.random() < 0.7 else "pending"
            rows["leave_requests"].append({
                "id": f"LR-{lr_n}", "employee_id": emp["id"], "leave_type": "annual", "start_date": _iso(start),
                "end_date": _iso(end), "days": days, "status": status, "approver_id": emp["manager_id"],
                "created_at": f"{_iso(start - timedelta(days=21))}T10:00:00Z"})
            lr_n += 1

    # -- lifecycle cases: leavers' completed offboarding, new hires' open onboarding ---------------------
    lc_n = 1001
    for emp in employees:
        if emp["status"] not in ("terminated", "pending_start"):
            continue
        cid = f"LC-{lc_n}"
        lc_n += 1
        if emp["status"] == "terminated":
            end = emp["end_date"]
            rows["lifecycle_cases"].append({"id": cid, "employee_id": emp["id"], "kind": "offboarding",
                                            "effective_date": end, "requested_by": emp["manager_id"],
                                            "status": "completed", "created_at": f"{end}T08:00:00Z"})
            steps = ["revoke_access", "reclaim_licences", "return_hardware", "disable_account"]
            for step in steps:
                rows["checklist_items"].append({"id": f"{cid}/{step}", "case_id": cid, "step": step,
                                                "status": "done", "done_on": end})
        else:
            rows["lifecycle_cases"].append({"id": cid, "employee_id": emp["id"], "kind": "onboarding",
                                            "effective_date": emp["start_date"], "requested_by": emp["manager_id"],
                                            "status": "open", "created_at": f"{_iso(TODAY - timedelta(days=3))}T08:00:00Z"})
            for step in ["hardware", "access", "licences"]:
                rows["checklist_items"].append({"id": f"{cid}/{step}", "case_id": cid, "step": step,
                                                "status": "pending", "done_on": None})

    # -- tickets: mostly resolved history -------------------------------------------------------------------
    t_n, note_n = 1001, 1
    for emp in employees:
        if emp["status"] == "pending_start" or rng.random() > 0.55:
            continue
        for _ in range(rng.randint(1, 2)):
            category = rng.choice(list(TICKET_SUBJECTS))
            opened = TODAY - timedelta(days=rng.randint(1, 400))
            still_open = opened > TODAY - timedelta(days=10) and rng.random() < 0.5 and emp["status"] != "terminated"
            tid = f"T-{t_n}"
            t_n += 1
            rows["tickets"].append({
                "id": tid, "employee_id": emp["id"], "category": category, "subject": TICKET_SUBJECTS[category],
                "status": "open" if still_open else "resolved", "priority": "normal",
                "assigned_team": "security" if category == "security" else "service_desk", "linked_ref": None,
                "escalation_reason": None, "created_at": f"{_iso(opened)}T09:15:00Z"})
            for author in ["employee", "agent"][: 1 if still_open else 2]:
                rows["ticket_notes"].append({
                    "id": f"N-{note_n:04d}", "ticket_id": tid, "author": author,
                    "body": "Raised by the employee." if author == "employee" else "Handled and resolved.",
                    "created_at": f"{_iso(opened)}T10:00:00Z"})
                note_n += 1
    assert all(by_id[e["manager_id"]] for e in employees if e["manager_id"])
    return rows
