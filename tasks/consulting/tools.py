"""The service-desk tools: what a desk agent can look up and change.

Which rules live where (policy.md states all of them to the agent):
- Enforced here (the tool refuses with a `ToolError`): records must exist and belong
  together; roles that need an approval are only granted against an approved request;
  an approval is recorded only for the approver it is addressed to; licence pools never
  go above their seats; hardware orders above the recipient's limit wait for the line
  manager's approval; leave never exceeds the balance, never overlaps and never starts
  in the past; an account is disabled only from its owner's last day; checklist items
  are marked done only when their work is done.
- Left to the agent, and caught by the state check: identity verification, who may
  act for whom, least privilege, segregation of duties, which licence seat to reclaim,
  premium licences, the laptop refresh cycle, never splitting orders, when to revoke
  on offboarding, where to ship, and what to do with tickets.

SQL is written here with named parameters; agent values only travel as parameters.
Every timestamp and date comes from `db.now`, the domain clock.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Literal

from tb_env.components import identity
from tb_env.domain.database import Database
from tb_env.domain.tool import read, write
from tb_env.errors import ToolError

# Records created during an episode are numbered from here (AR-9001, HO-9001, T-9001...), so
# the ids in tasks' golden calls do not depend on how many rows the seed generates.
NEW_ID_START = 9001
RECLAIM_AFTER_DAYS = 90  # a licence seat unused for more than this may be reclaimed
PREMIUM_LICENCE_COST = 100.00  # monthly cost per seat from which the line manager must ask
LAPTOP_REFRESH_MONTHS = 36
OPEN_ORDER = ("pending_approval", "submitted")
OPEN_REQUEST = ("pending_approval", "approved")
OFFBOARDING_STEPS = ("revoke_access", "reclaim_licences", "return_hardware", "disable_account")
ONBOARDING_STEPS = ("hardware", "access", "licences")


# -- helpers -----------------------------------------------------------------------------------


def _money(value: Any) -> float:
    return round(float(value or 0) + 1e-9, 2)


async def _new_id(db: Database, table: str, prefix: str) -> str:
    return await db.next_id(table, prefix, start=NEW_ID_START)


def _today(db: Database) -> str:
    return db.now[:10]


def _date(value: str, what: str) -> date:
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise ToolError(f"{what} {value!r} is not a date; write it as YYYY-MM-DD.") from None


def _add_months(d: date, months: int) -> date:
    y, m = divmod(d.month - 1 + months, 12)
    day = min(d.day, [31, 29 if (d.year + y) % 4 == 0 else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m])
    return date(d.year + y, m + 1, day)


def _name(e: dict[str, Any] | None) -> str | None:
    return f"{e['first_name']} {e['last_name']}" if e else None


async def _employee(db: Database, employee_id: str) -> dict[str, Any]:
    row = await db.get("employees", employee_id.strip().upper())
    if row is None:
        raise ToolError(f"No employee with id {employee_id!r}. Employee ids look like 'E-1042'.")
    return row


async def _serviceable(db: Database, employee_id: str) -> dict[str, Any]:
    """An employee the desk may still provision things for (not a leaver)."""
    e = await _employee(db, employee_id)
    if e["status"] == "terminated" or e["account_status"] == "disabled":
        raise ToolError(f"{e['id']} has left the firm (account disabled); nothing can be provisioned.")
    return e


async def _role(db: Database, role_id: str) -> dict[str, Any]:
    row = await db.get("system_roles", role_id.strip().upper())
    if row is None:
        raise ToolError(f"No role {role_id!r}. list_system_roles shows a system's role ids.")
    return row


async def _pool(db: Database, pool_id: str) -> dict[str, Any]:
    row = await db.get("licence_pools", pool_id.strip().upper())
    if row is None:
        raise ToolError(f"No licence pool {pool_id!r}. list_licence_pools shows the pool ids.")
    return row



async def _order(db: Database, order_id: str) -> dict[str, Any]:
    row = await db.get("hardware_orders", order_id.strip().upper())
    if row is None:
        raise ToolError(f"No hardware order with id {order_id!r}. Order ids look like 'HO-1042'.")
    return row


async def _holidays(db: Database) -> set[str]:
    return {r["day"] for r in await db.all("SELECT day FROM public_holidays")}


async def _working_days(db: Database, start: date, end: date) -> int:
    holidays = await _holidays(db)
    n, d = 0, start
    while d <= end:
        if d.weekday() < 5 and d.isoformat() not in holidays:
            n += 1
        d += timedelta(days=1)
    return n


async def _limit(db: Database, level: str) -> float:
    return _money(await db.scalar("SELECT order_limit FROM hardware_limits WHERE level = :l", l=level))


async def _ship_address(db: Database, e: dict[str, Any], ship_to: str) -> str:
    if ship_to == "home":
        return f"{_name(e)}, {e['home_line1']}, {e['home_city']}, {e['home_state']} {e['home_zip']}"
    o = await db.get("offices", e["office"])
    return f"{_name(e)} c/o Meridian Partners, {o['line1']}, {o['city']}, {o['state']} {o['zip_code']}"


async def _people(db: Database, ids: set[str | None]) -> dict[str, dict[str, Any]]:
    out = {}
    for i in sorted(x for x in ids if x):
        row = await db.get("employees", i)
        if row:
            out[i] = row
    return out



# -- directory and identity ----------------------------------------------------------------------


@read
async def find_employee(
    db: Database, first_name: str | None = None, last_name: str | None = None, email: str | None = None
) -> list[dict[str, Any]]:
    """Search the staff directory by name or work email. Returns ids, names, department,
    title, line manager and employment status of every match.

    Several people can share a name: use the department and the line manager to tell them
    apart. Give `email`, or `last_name` (with `first_name` to narrow it down).

    Args:
        first_name: First name, like "Maya".
        last_name: Last name, like "Okafor".
        email: Work email address, like "maya.okafor@meridianpartners.com".
    """
    if email:
        rows = await db.all(
            "SELECT * FROM employees WHERE LOWER(email) = LOWER(:email) ORDER BY id", email=email.strip()
        )
    elif last_name:
        where, params = identity.name_filter(last_name, first_name)
        rows = await db.all(f"SELECT * FROM employees WHERE {where} ORDER BY id", **params)
    else:
        raise ToolError("Give a work email, or a last name (optionally with a first name).")
    depts = {d["id"]: d["name"] for d in await db.all("SELECT id, name FROM departments")}
    managers = await _people(db, {r["manager_id"] for r in rows})
    return [
        {"employee_id": r["id"], "name": _name(r), "department": depts.get(r["department_id"]), "title": r["title"],
         "manager_id": r["manager_id"], "manager_name": _name(managers.get(r["manager_id"])), "status": r["status"]}
        for r in rows
    ]


@write
async def verify_identity(
    db: Database, employee_id: str, date_of_birth: str | None = None, mobile_last4: str | None = None
) -> dict[str, Any]:
    """Verify that the caller is the employee they say they are, and record it.

    Needs the employee id plus one second factor, as the caller gave them: the date of
    birth (YYYY-MM-DD) or the last four digits of the mobile number on file. Fails if a
    given detail does not match. Verifying the same employee again is harmless.

    Args:
        employee_id: The caller's employee id, like "E-1042".
        date_of_birth: The caller's date of birth, YYYY-MM-DD.
        mobile_last4: The last four digits of the caller's mobile number.
    """
    e = await _employee(db, employee_id)
    if not date_of_birth and not mobile_last4:
        raise ToolError("Verification needs a second factor: the date of birth or the mobile number's last 4 digits.")
    ok = True
    if date_of_birth:
        ok = ok and date_of_birth.strip() == e["date_of_birth"]
    if mobile_last4:
        ok = ok and mobile_last4.strip()[-4:] == e["mobile_phone"][-4:] and len(mobile_last4.strip()) >= 4
    identity.check(ok)
    if e["account_status"] == "disabled":
        raise ToolError(f"{e['id']}'s account is disabled (the employee has left); the desk cannot serve it.")
    await identity.record_verification(db, "employee_id", e["id"], "date_of_birth" if date_of_birth else "mobile_phone",
                                       start=NEW_ID_START)
    return {"employee_id": e["id"], "name": _name(e), "verified": True}


@read
async def get_employee(db: Database, employee_id: str) -> dict[str, Any]:
    """An employee's record: department and cost centre, line manager, title and level,
    hardware order limit, employment status and dates, office, work mode, home address
    and account status.

    Args:
        employee_id: The employee id, like "E-1042".
    """
    e = await _employee(db, employee_id)
    dept = await db.get("departments", e["department_id"])
    manager = await db.get("employees", e["manager_id"]) if e["manager_id"] else None
    return {
        "employee_id": e["id"],
        "name": _name(e),
        "email": e["email"],
        "department_id": e["department_id"],
        "department": dept["name"],
        "cost_centre": dept["cost_centre"],
        "manager_id": e["manager_id"],
        "manager_name": _name(manager),
        "title": e["title"],
        "level": e["level"],
        "hardware_order_limit": await _limit(db, e["level"]),
        "status": e["status"],
        "start_date": e["start_date"],
        "end_date": e["end_date"],
        "office": e["office"],
        "work_mode": e["work_mode"],
        "home_address": {"line1": e["home_line1"], "city": e["home_city"], "state": e["home_state"],
                         "zip_code": e["home_zip"]},
        "account_status": e["account_status"],
    }


@read
async def list_direct_reports(db: Database, manager_id: str) -> list[dict[str, Any]]:
    """The employees whose line manager is the given employee, with title and status.

    Args:
        manager_id: The manager's employee id, like "E-1042".
    """
    m = await _employee(db, manager_id)
    rows = await db.all("SELECT * FROM employees WHERE manager_id = :m ORDER BY id", m=m["id"])
    return [{"employee_id": r["id"], "name": _name(r), "title": r["title"], "status": r["status"],
             "start_date": r["start_date"], "end_date": r["end_date"]} for r in rows]


@write
async def update_home_address(
    db: Database, employee_id: str, line1: str, city: str, state: str, zip_code: str
) -> dict[str, Any]:
    """Change an employee's home address in the HR record (used for home deliveries).

    Args:
        employee_id: The employee id, like "E-1042".
        line1: Street address, like "42 Elm St, Apt 3".
        city: City.
        state: Two-letter US state code, like "IL".
        zip_code: Five-digit ZIP code.
    """
    e = await _employee(db, employee_id)
    state, zip_code = state.strip().upper(), zip_code.strip()
    if len(state) != 2 or not state.isalpha():
        raise ToolError(f"{state!r} is not a two-letter state code.")
    if len(zip_code) != 5 or not zip_code.isdigit():
        raise ToolError(f"{zip_code!r} is not a five-digit ZIP code.")
    await db.update("employees", e["id"], home_line1=line1.strip(), home_city=city.strip(), home_state=state,
                    home_zip=zip_code)
    return {"employee_id": e["id"], "home_address": {"line1": line1.strip(), "city": city.strip(), "state": state,
                                                       "zip_code": zip_code}}


# -- systems and access --------------------------------------------------------------------------


@read
async def list_systems(db: Database) -> list[dict[str, Any]]:
    """Every system the desk manages access to, with its owner (who approves owner-approved
    roles) and sensitivity. General information: no verification needed."""
    rows = await db.all("SELECT * FROM systems ORDER BY id")
    owners = await _people(db, {r["owner_id"] for r in rows})
    return [{"system_id": r["id"], "name": r["name"], "owner_id": r["owner_id"],
             "owner_name": _name(owners.get(r["owner_id"])), "sensitivity": r["sensitivity"],
             "description": r["description"]} for r in rows]


@read
async def list_system_roles(db: Database, system_id: str) -> list[dict[str, Any]]:
    """The roles of one system, least privileged first: privilege (read < write < admin),
    who approves a request for it (none, the employee's line manager, or the system
    owner), whether every employee holds it, and the roles it must never be combined with.
    General information: no verification needed.

    Args:
        system_id: The system id, like "SYS-PBI" (list_systems shows them).
    """
    s = await db.get("systems", system_id.strip().upper())
    if s is None:
        raise ToolError(f"No system {system_id!r}. list_systems shows the system ids.")
    owner = await db.get("employees", s["owner_id"])
    rank = {"read": 0, "write": 1, "admin": 2}
    rows = sorted(await db.all("SELECT * FROM system_roles WHERE system_id = :s", s=s["id"]),
                  key=lambda r: (rank[r["privilege"]], r["id"]))
    sod = await db.all("SELECT * FROM sod_conflicts ORDER BY id")
    out = []
    for r in rows:
        conflicts = [c["role_b"] if c["role_a"] == r["id"] else c["role_a"] for c in sod if r["id"] in (c["role_a"], c["role_b"])]
        out.append({
            "role_id": r["id"], "name": r["name"], "privilege": r["privilege"], "approver": r["approver"],
            "approver_name": _name(owner) if r["approver"] == "owner" else None,
            "baseline": bool(r["baseline"]), "description": r["description"], "conflicts_with": conflicts,
        })
    return out


@read
async def get_employee_access(db: Database, employee_id: str) -> list[dict[str, Any]]:
    """The roles an employee holds or held (active first), with system and dates.

    Args:
        employee_id: The employee id, like "E-1042".
    """
    e = await _employee(db, employee_id)
    rows = await db.all(
        "SELECT g.*, r.name AS role_name, r.system_id, r.privilege FROM access_grants g "
        "JOIN system_roles r ON r.id = g.role_id WHERE g.employee_id = :e ORDER BY g.role_id",
        e=e["id"],
    )
    rows.sort(key=lambda g: (g["status"] != "active", g["role_id"]))
    return [{"role_id": g["role_id"], "role_name": g["role_name"], "system_id": g["system_id"],
             "privilege": g["privilege"], "status": g["status"], "granted_on": g["granted_on"],
             "revoked_on": g["revoked_on"], "request_id": g["request_id"]} for g in rows]


@read
async def check_sod_conflicts(db: Database, employee_id: str, role_id: str) -> dict[str, Any]:
    """Whether giving a role to an employee would break a segregation-of-duties rule: the
    employee's active roles that conflict with it, and the risk.

    Args:
        employee_id: The employee id, like "E-1042".
        role_id: The role being considered, like "SAP-PAY-RUN".
    """
    e = await _employee(db, employee_id)
    r = await _role(db, role_id)
    rows = await db.all(
        "SELECT c.*, g.role_id AS held FROM sod_conflicts c JOIN access_grants g "
        "ON g.employee_id = :e AND g.status = 'active' AND (g.role_id = c.role_a OR g.role_id = c.role_b) "
        "WHERE (c.role_a = :r OR c.role_b = :r) AND g.role_id <> :r ORDER BY c.id",
        e=e["id"], r=r["id"],
    )
    return {"employee_id": e["id"], "role_id": r["id"], "conflict": bool(rows),
            "conflicts": [{"rule_id": c["id"], "held_role_id": c["held"], "risk": c["risk"]} for c in rows]}


async def _request_view(db: Database, req: dict[str, Any]) -> dict[str, Any]:
    role = await db.get("system_roles", req["role_id"])
    approval = await db.one(
        "SELECT * FROM approvals WHERE subject_type = 'access_request' AND subject_id = :s ORDER BY id DESC",
        s=req["id"],
    )
    approver = await db.get("employees", approval["approver_id"]) if approval else None
    return {
        "request_id": req["id"], "employee_id": req["employee_id"], "role_id": req["role_id"],
        "role_name": role["name"] if role else None, "requested_by": req["requested_by"], "status": req["status"],
        "justification": req["justification"], "created_at": req["created_at"],
        "approval": None if approval is None else {
            "approval_id": approval["id"], "approver_id": approval["approver_id"], "approver_name": _name(approver),
            "status": approval["status"], "decision_note": approval["decision_note"],
            "decided_on": approval["decided_on"]},
    }


@read
async def list_access_requests(db: Database, employee_id: str) -> list[dict[str, Any]]:
    """An employee's access requests, newest first, with their approval and its decision.

    Args:
        employee_id: The employee id, like "E-1042".
    """
    e = await _employee(db, employee_id)
    rows = await db.all("SELECT * FROM access_requests WHERE employee_id = :e ORDER BY created_at DESC, id DESC",
                        e=e["id"])
    return [await _request_view(db, r) for r in rows]


@read
async def get_access_request(db: Database, request_id: str) -> dict[str, Any]:
    """One access request with its approval: approver, decision and the approver's note.

    Args:
        request_id: The request id, like "AR-1042".
    """
    req = await db.get("access_requests", request_id.strip().upper())
    if req is None:
        raise ToolError(f"No access request {request_id!r}. Request ids look like 'AR-1042'.")
    return await _request_view(db, req)


@write
async def create_access_request(
    db: Database, employee_id: str, role_id: str, requested_by: str, justification: str
) -> dict[str, Any]:
    """Submit a request for a role that needs approval. The system routes it at once to the
    approver (the employee's line manager or the system owner, as the role says): the
    request and its approval start as pending. Roles that need no approval are granted
    directly with grant_access instead.

    Args:
        employee_id: Who will hold the role, like "E-1042".
        role_id: The role, like "PBI-PUBLISH".
        requested_by: The employee id of the person asking (the employee, or their line manager).
        justification: What the employee needs the role for, in a sentence.
    """
    e = await _serviceable(db, employee_id)
    requester = await _employee(db, requested_by)
    r = await _role(db, role_id)
    if r["approver"] == "none":
        raise ToolError(f"{r['id']} needs no approval: grant it directly with grant_access.")
    held = await db.one("SELECT status FROM access_grants WHERE id = :id", id=f"{e['id']}/{r['id']}")
    if held and held["status"] == "active":
        raise ToolError(f"{e['id']} already holds {r['id']}.")
    open_req = await db.scalar(
        "SELECT id FROM access_requests WHERE employee_id = :e AND role_id = :r "
        "AND status IN ('pending_approval', 'approved') ORDER BY id",
        e=e["id"], r=r["id"],
    )
    if open_req:
        raise ToolError(f"{e['id']} already has open request {open_req} for {r['id']}.")
    if r["approver"] == "manager":
        approver_id = e["manager_id"]
    else:
        approver_id = await db.scalar("SELECT owner_id FROM systems WHERE id = :s", s=r["system_id"])
    if not approver_id:
        raise ToolError(f"{e['id']} has no line manager on record to approve this request.")
    request_id = await _new_id(db, "access_requests", "AR")
    await db.insert("access_requests", id=request_id, employee_id=e["id"], role_id=r["id"],
                    requested_by=requester["id"], status="pending_approval", justification=justification,
                    created_at=db.now)
    approval_id = await _new_id(db, "approvals", "AP")
    await db.insert("approvals", id=approval_id, subject_type="access_request", subject_id=request_id,
                    employee_id=e["id"], approver_id=approver_id, amount=None, status="pending",
                    decision_note=None, decided_on=None, created_at=db.now)
    approver = await db.get("employees", approver_id)
    sod = await check_sod_conflicts.fn(db, e["id"], r["id"])
    return {"request_id": request_id, "employee_id": e["id"], "role_id": r["id"], "status": "pending_approval",
            "approval_id": approval_id, "approver_id": approver_id, "approver_name": _name(approver),
            "approver_kind": r["approver"], "sod_conflicts": sod["conflicts"]}


@write
async def cancel_access_request(db: Database, request_id: str, reason: str) -> dict[str, Any]:
    """Withdraw an access request that is still pending approval or approved but not yet
    granted; its pending approval is withdrawn too.

    Args:
        request_id: The request id, like "AR-1042".
        reason: Why it is withdrawn, in a sentence.
    """
    req = await db.get("access_requests", request_id.strip().upper())
    if req is None:
        raise ToolError(f"No access request {request_id!r}.")
    if req["status"] not in OPEN_REQUEST:
        raise ToolError(f"Request {req['id']} is {req['status']}; only open requests can be cancelled.")
    await db.update("access_requests", req["id"], status="cancelled")
    await db.execute(
        "UPDATE approvals SET status = 'cancelled', decided_on = :d, decision_note = :n "
        "WHERE subject_type = 'access_request' AND subject_id = :s AND status = 'pending'",
        d=_today(db), n=reason, s=req["id"],
    )
    return {"request_id": req["id"], "status": "cancelled"}


@write
async def record_approval(
    db: Database, approval_id: str, approver_id: str, decision: Literal["approved", "denied"], note: str
) -> dict[str, Any]:
    """Record the decision an approver gives you in this conversation on a pending
    approval (an access request or a hardware order above the limit). Only the approver
    the approval is addressed to can decide it. Approving moves an access request to
    `approved` (then grant it with grant_access) and a hardware order to `submitted`;
    denying rejects the request or cancels the order.

    Args:
        approval_id: The approval id, like "AP-1042".
        approver_id: The employee id of the approver who decided.
        decision: The approver's decision.
        note: The approver's words, in a sentence.
    """
    a = await db.get("approvals", approval_id.strip().upper())
    if a is None:
        raise ToolError(f"No approval {approval_id!r}. Approval ids look like 'AP-1042'.")
    if a["status"] != "pending":
        raise ToolError(f"Approval {a['id']} is already {a['status']}.")
    if approver_id.strip().upper() != a["approver_id"]:
        raise ToolError(f"Approval {a['id']} is addressed to {a['approver_id']}; only they can decide it.")
    await db.update("approvals", a["id"], status=decision, decision_note=note, decided_on=_today(db))
    if a["subject_type"] == "access_request":
        subject_status = "approved" if decision == "approved" else "rejected"
        await db.update("access_requests", a["subject_id"], status=subject_status)
    else:
        subject_status = "submitted" if decision == "approved" else "cancelled"
        await db.update("hardware_orders", a["subject_id"], status=subject_status)
    return {"approval_id": a["id"], "status": decision, "subject_id": a["subject_id"], "subject_status": subject_status}


@write
async def grant_access(db: Database, employee_id: str, role_id: str, request_id: str | None = None) -> dict[str, Any]:
    """Give an employee a role. Roles that need approval are granted only against their
    approved access request (pass its id), which is then marked fulfilled; roles that need
    none (approver `none`) are granted directly.

    Args:
        employee_id: The employee id, like "E-1042".
        role_id: The role, like "PBI-VIEW".
        request_id: The approved access request, like "AR-1042" (required when the role needs approval).
    """
    e = await _serviceable(db, employee_id)
    r = await _role(db, role_id)
    key = f"{e['id']}/{r['id']}"
    held = await db.get("access_grants", key)
    if held and held["status"] == "active":
        raise ToolError(f"{e['id']} already holds {r['id']}.")
    req = None
    if r["approver"] != "none":
        if not request_id:
            raise ToolError(f"{r['id']} needs an approved access request (create_access_request first).")
        req = await db.get("access_requests", request_id.strip().upper())
        if req is None or req["employee_id"] != e["id"] or req["role_id"] != r["id"]:
            raise ToolError(f"{request_id!r} is not a request for {r['id']} for {e['id']}.")
        if req["status"] != "approved":
            raise ToolError(f"Request {req['id']} is {req['status']}; only an approved request can be granted.")
        await db.update("access_requests", req["id"], status="fulfilled")
    values = {"status": "active", "granted_on": _today(db), "revoked_on": None, "request_id": req["id"] if req else None}
    if held:
        await db.update("access_grants", key, **values)
    else:
        await db.insert("access_grants", id=key, employee_id=e["id"], role_id=r["id"], **values)
    return {"employee_id": e["id"], "role_id": r["id"], "status": "active", "granted_on": _today(db),
            "request_id": values["request_id"]}


@write
async def revoke_access(db: Database, employee_id: str, role_id: str, reason: str) -> dict[str, Any]:
    """Remove a role from an employee, effective today.

    Args:
        employee_id: The employee id, like "E-1042".
        role_id: The role, like "SAP-AP-CLERK".
        reason: Why it is removed, in a sentence.
    """
    e = await _employee(db, employee_id)
    r = await _role(db, role_id)
    g = await db.get("access_grants", f"{e['id']}/{r['id']}")
    if g is None or g["status"] != "active":
        raise ToolError(f"{e['id']} does not hold {r['id']}.")
    await db.update("access_grants", g["id"], status="revoked", revoked_on=_today(db))
    return {"employee_id": e["id"], "role_id": r["id"], "status": "revoked", "revoked_on": _today(db)}


# -- software licences --------------------------------------------------------------------------


async def _used(db: Database, pool_id: str) -> int:
    return int(await db.scalar(
        "SELECT COUNT(*) FROM licence_assignments WHERE pool_id = :p AND status = 'active'", p=pool_id) or 0)


@read
async def list_licence_pools(db: Database) -> list[dict[str, Any]]:
    """Every software product the firm licenses: monthly cost per seat, seats in the pool,
    seats in use and seats free. General information: no verification needed."""
    out = []
    for p in await db.all("SELECT * FROM licence_pools ORDER BY id"):
        used = await _used(db, p["id"])
        out.append({"pool_id": p["id"], "product": p["product"], "vendor": p["vendor"],
                    "monthly_cost": _money(p["monthly_cost"]), "total_seats": p["total_seats"],
                    "used_seats": used, "free_seats": p["total_seats"] - used})
    return out


@read
async def list_licence_seats(db: Database, pool_id: str) -> list[dict[str, Any]]:
    """The active seats of one licence pool, least recently used first (never-used seats
    count from their assignment date): holder, assignment date, last use and days since.

    Args:
        pool_id: The pool id, like "LP-TABL".
    """
    p = await _pool(db, pool_id)
    rows = await db.all("SELECT * FROM licence_assignments WHERE pool_id = :p AND status = 'active'", p=p["id"])
    people = await _people(db, {r["employee_id"] for r in rows})
    today = date.fromisoformat(_today(db))
    out = []
    for r in rows:
        last = r["last_used_on"] or r["assigned_on"]
        out.append({"employee_id": r["employee_id"], "name": _name(people.get(r["employee_id"])),
                    "assigned_on": r["assigned_on"], "last_used_on": r["last_used_on"],
                    "days_since_used": (today - date.fromisoformat(last)).days, "cost_centre": r["cost_centre"]})
    out.sort(key=lambda s: (-s["days_since_used"], s["employee_id"]))
    return out


@read
async def get_employee_licences(db: Database, employee_id: str) -> list[dict[str, Any]]:
    """The licence seats an employee holds or held, with product, cost centre and dates.

    Args:
        employee_id: The employee id, like "E-1042".
    """
    e = await _employee(db, employee_id)
    rows = await db.all(
        "SELECT a.*, p.product FROM licence_assignments a JOIN licence_pools p ON p.id = a.pool_id "
        "WHERE a.employee_id = :e ORDER BY a.pool_id", e=e["id"])
    rows.sort(key=lambda a: (a["status"] != "active", a["pool_id"]))
    return [{"pool_id": a["pool_id"], "product": a["product"], "status": a["status"], "cost_centre": a["cost_centre"],
             "assigned_on": a["assigned_on"], "last_used_on": a["last_used_on"], "reclaimed_on": a["reclaimed_on"]}
            for a in rows]


@write
async def assign_licence(db: Database, pool_id: str, employee_id: str, cost_centre: str) -> dict[str, Any]:
    """Give an employee a seat from a licence pool, charged to a cost centre. Refuses when
    the pool has no free seat (reclaim one first, as the policy allows) or the employee
    already holds a seat of it.

    Args:
        pool_id: The pool id, like "LP-VISIO".
        employee_id: The employee id, like "E-1042".
        cost_centre: The cost centre to charge, like "CC-1100".
    """
    p = await _pool(db, pool_id)
    e = await _serviceable(db, employee_id)
    cc = cost_centre.strip().upper()
    if not await db.scalar("SELECT id FROM departments WHERE cost_centre = :c", c=cc):
        raise ToolError(f"{cost_centre!r} is not a cost centre (get_employee shows the employee's).")
    key = f"{p['id']}/{e['id']}"
    seat = await db.get("licence_assignments", key)
    if seat and seat["status"] == "active":
        raise ToolError(f"{e['id']} already holds a {p['product']} seat.")
    used = await _used(db, p["id"])
    if used >= p["total_seats"]:
        raise ToolError(f"{p['product']} has no free seat ({used} of {p['total_seats']} in use).")
    values = {"status": "active", "cost_centre": cc, "assigned_on": _today(db), "last_used_on": None,
              "reclaimed_on": None}
    if seat:
        await db.update("licence_assignments", key, **values)
    else:
        await db.insert("licence_assignments", id=key, pool_id=p["id"], employee_id=e["id"], **values)
    return {"pool_id": p["id"], "product": p["product"], "employee_id": e["id"], "cost_centre": cc,
            "monthly_cost": _money(p["monthly_cost"]), "free_seats_left": p["total_seats"] - used - 1}


@write
async def reclaim_licence(db: Database, pool_id: str, employee_id: str, reason: str) -> dict[str, Any]:
    """Take back an employee's seat of a licence pool, effective today; the seat becomes free.

    Args:
        pool_id: The pool id, like "LP-TABL".
        employee_id: The seat holder's employee id, like "E-1042".
        reason: Why the seat is reclaimed, in a sentence.
    """
    p = await _pool(db, pool_id)
    e = await _employee(db, employee_id)
    seat = await db.get("licence_assignments", f"{p['id']}/{e['id']}")
    if seat is None or seat["status"] != "active":
        raise ToolError(f"{e['id']} holds no active {p['product']} seat.")
    await db.update("licence_assignments", seat["id"], status="reclaimed", reclaimed_on=_today(db))
    return {"pool_id": p["id"], "employee_id": e["id"], "status": "reclaimed", "reclaimed_on": _today(db)}


# -- hardware ---------------------------------------------------------------------------------


@read
async def get_hardware_catalogue(db: Database) -> dict[str, Any]:
    """The hardware that can be ordered, with prices, and the order limit of each level
    (an order above the recipient's limit needs their line manager's approval). General
    information: no verification needed."""
    items = await db.all("SELECT * FROM catalogue_items WHERE active = :a ORDER BY category, price", a=True)
    limits = await db.all("SELECT * FROM hardware_limits ORDER BY order_limit")
    return {
        "items": [{"item_id": i["id"], "name": i["name"], "category": i["category"], "price": _money(i["price"])}
                  for i in items],
        "order_limits": {row["level"]: _money(row["order_limit"]) for row in limits},
    }


async def _order_view(db: Database, o: dict[str, Any]) -> dict[str, Any]:
    lines = await db.all(
        "SELECT l.*, c.name FROM hardware_order_lines l JOIN catalogue_items c ON c.id = l.item_id "
        "WHERE l.order_id = :o ORDER BY l.id", o=o["id"])
    approval = await db.get("approvals", o["approval_id"]) if o["approval_id"] else None
    return {
        "order_id": o["id"], "employee_id": o["employee_id"], "requested_by": o["requested_by"],
        "status": o["status"], "placed_on": o["placed_on"],
        "items": [{"item_id": line["item_id"], "name": line["name"], "quantity": line["quantity"],
                   "unit_price": _money(line["unit_price"])} for line in lines],
        "total": _money(o["total"]), "ship_to": o["ship_to"], "ship_address": o["ship_address"],
        "tracking_number": o["tracking_number"], "eta": o["eta"], "delivered_on": o["delivered_on"],
        "approval": None if approval is None else {
            "approval_id": approval["id"], "approver_id": approval["approver_id"], "status": approval["status"],
            "amount": _money(approval["amount"])},
    }


@read
async def list_hardware_orders(db: Database, employee_id: str) -> list[dict[str, Any]]:
    """An employee's hardware orders, newest first, with items, status and tracking.

    Args:
        employee_id: The recipient's employee id, like "E-1042".
    """
    e = await _employee(db, employee_id)
    rows = await db.all("SELECT * FROM hardware_orders WHERE employee_id = :e ORDER BY placed_on DESC, id DESC",
                        e=e["id"])
    return [await _order_view(db, o) for o in rows]


@read
async def get_hardware_order(db: Database, order_id: str) -> dict[str, Any]:
    """One hardware order: items, total, status, shipping address, tracking and approval.

    Args:
        order_id: The order id, like "HO-1042".
    """
    return await _order_view(db, await _order(db, order_id))


@write
async def place_hardware_order(
    db: Database, employee_id: str, item_ids: list[str], ship_to: Literal["office", "home"], requested_by: str
) -> dict[str, Any]:
    """Order catalogue hardware for an employee, shipped to their office or to the home
    address on file. List an item id twice to order two. Within the recipient's order
    limit the order is `submitted` at once; above it, it waits as `pending_approval` and an
    approval request goes to the recipient's line manager.

    Args:
        employee_id: Who receives the hardware, like "E-1042".
        item_ids: Catalogue item ids, like ["HW-LAP-STD", "HW-DOCK"].
        ship_to: Ship to the recipient's office or to their home address on file.
        requested_by: The employee id of the person asking (the recipient, or their line manager).
    """
    e = await _serviceable(db, employee_id)
    requester = await _employee(db, requested_by)
    if not item_ids:
        raise ToolError("Name at least one catalogue item id.")
    wanted = [i.strip().upper() for i in item_ids]
    items = {}
    for item_id in sorted(set(wanted)):
        item = await db.get("catalogue_items", item_id)
        if item is None or not item["active"]:
            raise ToolError(f"{item_id!r} is not an orderable catalogue item (get_hardware_catalogue lists them).")
        items[item_id] = item
    total = _money(sum(_money(items[i]["price"]) for i in wanted))
    limit = await _limit(db, e["level"])
    order_id = await _new_id(db, "hardware_orders", "HO")
    approval_id = None
    status = "submitted"
    if total > limit:
        if not e["manager_id"]:
            raise ToolError(f"{e['id']} has no line manager on record to approve an order above {limit:.2f}.")
        status = "pending_approval"
        approval_id = await _new_id(db, "approvals", "AP")
        await db.insert("approvals", id=approval_id, subject_type="hardware_order", subject_id=order_id,
                        employee_id=e["id"], approver_id=e["manager_id"], amount=total, status="pending",
                        decision_note=None, decided_on=None, created_at=db.now)
    await db.insert("hardware_orders", id=order_id, employee_id=e["id"], requested_by=requester["id"],
                    status=status, total=total, ship_to=ship_to, ship_address=await _ship_address(db, e, ship_to),
                    approval_id=approval_id, placed_on=_today(db), tracking_number=None, eta=None,
                    delivered_on=None, cancel_reason=None)
    for item_id, item in items.items():
        await db.insert("hardware_order_lines", id=f"{order_id}/{item_id}", order_id=order_id, item_id=item_id,
                        quantity=wanted.count(item_id), unit_price=_money(item["price"]))
    view = await _order_view(db, await _order(db, order_id))
    view["order_limit"] = limit
    if approval_id:
        manager = await db.get("employees", e["manager_id"])
        view["approval"]["approver_name"] = _name(manager)
    return view


@write
async def cancel_hardware_order(db: Database, order_id: str, reason: str) -> dict[str, Any]:
    """Cancel a hardware order that has not shipped (pending approval or submitted); a
    pending approval for it is withdrawn.

    Args:
        order_id: The order id, like "HO-1042".
        reason: Why it is cancelled, in a sentence.
    """
    o = await _order(db, order_id)
    if o["status"] not in OPEN_ORDER:
        raise ToolError(f"Order {o['id']} is {o['status']}; only orders that have not shipped can be cancelled.")
    await db.update("hardware_orders", o["id"], status="cancelled", cancel_reason=reason)
    await db.execute(
        "UPDATE approvals SET status = 'cancelled', decided_on = :d "
        "WHERE subject_type = 'hardware_order' AND subject_id = :s AND status = 'pending'",
        d=_today(db), s=o["id"],
    )
    return {"order_id": o["id"], "status": "cancelled"}


@write
async def update_order_shipping(db: Database, order_id: str, ship_to: Literal["office", "home"]) -> dict[str, Any]:
    """Re-address a hardware order that has not shipped: to the recipient's office, or to
    the home address now on file (use it after a home address change).

    Args:
        order_id: The order id, like "HO-1042".
        ship_to: Ship to the recipient's office or home address.
    """
    o = await _order(db, order_id)
    if o["status"] not in OPEN_ORDER:
        raise ToolError(f"Order {o['id']} is {o['status']}; its shipping can no longer be changed.")
    e = await _employee(db, o["employee_id"])
    address = await _ship_address(db, e, ship_to)
    await db.update("hardware_orders", o["id"], ship_to=ship_to, ship_address=address)
    return {"order_id": o["id"], "ship_to": ship_to, "ship_address": address}


@read
async def list_employee_assets(db: Database, employee_id: str) -> list[dict[str, Any]]:
    """The devices issued to an employee (current first), with model, serial number,
    status and dates. Laptops show the date from which a refresh may be ordered.

    Args:
        employee_id: The employee id, like "E-1042".
    """
    e = await _employee(db, employee_id)
    rows = await db.all(
        "SELECT a.*, c.name, c.category FROM assets a JOIN catalogue_items c ON c.id = a.item_id "
        "WHERE a.employee_id = :e ORDER BY a.assigned_on DESC, a.id", e=e["id"])
    rows.sort(key=lambda a: a["status"] != "assigned")
    return [{"asset_id": a["id"], "item_id": a["item_id"], "name": a["name"], "category": a["category"],
             "serial_number": a["serial_number"], "status": a["status"], "assigned_on": a["assigned_on"],
             "returned_on": a["returned_on"],
             "refresh_eligible_on": _add_months(date.fromisoformat(a["assigned_on"]), LAPTOP_REFRESH_MONTHS).isoformat()
             if a["category"] == "laptop" else None} for a in rows]


async def _asset(db: Database, asset_id: str) -> dict[str, Any]:
    a = await db.get("assets", asset_id.strip().upper())
    if a is None:
        raise ToolError(f"No asset {asset_id!r}. Asset ids look like 'AS-10042'.")
    return a


@write
async def report_asset_lost(db: Database, asset_id: str, circumstances: str) -> dict[str, Any]:
    """Record a device as lost or stolen (it stays on the employee's record as `lost`).

    Args:
        asset_id: The asset id, like "AS-10042".
        circumstances: What happened, where and when, in a sentence.
    """
    a = await _asset(db, asset_id)
    if a["status"] != "assigned":
        raise ToolError(f"Asset {a['id']} is {a['status']}, not assigned to anyone.")
    await db.update("assets", a["id"], status="lost")
    return {"asset_id": a["id"], "status": "lost"}


@write
async def request_asset_return(db: Database, asset_id: str) -> dict[str, Any]:
    """Send a prepaid return kit for a device to the holder's home address; the device is
    marked `return_requested` until the warehouse receives it.

    Args:
        asset_id: The asset id, like "AS-10042".
    """
    a = await _asset(db, asset_id)
    if a["status"] != "assigned":
        raise ToolError(f"Asset {a['id']} is {a['status']}; only assigned devices can be returned.")
    await db.update("assets", a["id"], status="return_requested")
    return {"asset_id": a["id"], "status": "return_requested"}


# -- leave ------------------------------------------------------------------------------------


async def _balance(db: Database, employee_id: str, year: int, leave_type: str) -> dict[str, Any]:
    b = await db.get("leave_balances", f"{employee_id}/{year}/{leave_type}")
    if b is None:
        raise ToolError(f"No {leave_type} leave entitlement for {employee_id} in {year}.")
    reqs = await db.all(
        "SELECT start_date, days FROM leave_requests WHERE employee_id = :e AND leave_type = :t "
        "AND status IN ('pending', 'approved') AND start_date >= :y0 AND start_date <= :y1",
        e=employee_id, t=leave_type, y0=f"{year}-01-01", y1=f"{year}-12-31",
    )
    today = _today(db)
    taken = sum(r["days"] for r in reqs if r["start_date"] <= today)
    booked = sum(r["days"] for r in reqs if r["start_date"] > today)
    return {"employee_id": employee_id, "year": year, "leave_type": leave_type,
            "entitled_days": b["entitled_days"], "carried_over_days": b["carried_over_days"],
            "taken_days": taken, "booked_days": booked,
            "available_days": b["entitled_days"] + b["carried_over_days"] - taken - booked}


@read
async def get_leave_balance(
    db: Database, employee_id: str, year: int = 2026, leave_type: Literal["annual", "wellbeing"] = "annual"
) -> dict[str, Any]:
    """An employee's leave for one calendar year: entitlement, days carried over, days
    taken, days booked ahead (pending or approved) and days still available.

    Args:
        employee_id: The employee id, like "E-1042".
        year: The leave year (a calendar year).
        leave_type: Annual leave, or the two wellbeing days each year.
    """
    e = await _employee(db, employee_id)
    return await _balance(db, e["id"], year, leave_type)


@read
async def list_leave_requests(db: Database, employee_id: str) -> list[dict[str, Any]]:
    """An employee's leave requests, latest start first, with working days and status.

    Args:
        employee_id: The employee id, like "E-1042".
    """
    e = await _employee(db, employee_id)
    rows = await db.all("SELECT * FROM leave_requests WHERE employee_id = :e ORDER BY start_date DESC, id DESC",
                        e=e["id"])
    return [{"request_id": r["id"], "leave_type": r["leave_type"], "start_date": r["start_date"],
             "end_date": r["end_date"], "days": r["days"], "status": r["status"], "approver_id": r["approver_id"]}
            for r in rows]


@read
async def count_working_days(db: Database, start_date: str, end_date: str) -> dict[str, Any]:
    """How many working days (Monday to Friday, firm holidays excluded) a date range holds,
    both ends included, and which firm holidays fall in it.

    Args:
        start_date: First day, YYYY-MM-DD.
        end_date: Last day, YYYY-MM-DD.
    """
    start, end = _date(start_date, "start_date"), _date(end_date, "end_date")
    if end < start:
        raise ToolError("end_date is before start_date.")
    holidays = await db.all("SELECT * FROM public_holidays WHERE day >= :a AND day <= :b ORDER BY day",
                            a=start.isoformat(), b=end.isoformat())
    return {"start_date": start.isoformat(), "end_date": end.isoformat(),
            "working_days": await _working_days(db, start, end),
            "holidays": [{"day": h["day"], "name": h["name"]} for h in holidays]}


@write
async def submit_leave_request(
    db: Database, employee_id: str, leave_type: Literal["annual", "wellbeing"], start_date: str, end_date: str
) -> dict[str, Any]:
    """Book leave for an employee; it goes to their line manager as `pending`. The working
    days are counted for you (weekends and firm holidays are free). Refuses leave that
    starts today or earlier, spans two calendar years, overlaps other leave, or is more
    than the days available.

    Args:
        employee_id: The employee id, like "E-1042".
        leave_type: Annual leave, or a wellbeing day.
        start_date: First day of leave, YYYY-MM-DD.
        end_date: Last day of leave, YYYY-MM-DD.
    """
    e = await _serviceable(db, employee_id)
    start, end = _date(start_date, "start_date"), _date(end_date, "end_date")
    if start.isoformat() <= _today(db):
        raise ToolError("Leave must start after today; past or same-day absence is recorded by the manager.")
    if end < start:
        raise ToolError("end_date is before start_date.")
    if start.year != end.year:
        raise ToolError("Leave cannot span two leave years; book it as two requests, one per year.")
    days = await _working_days(db, start, end)
    if days == 0:
        raise ToolError("That range holds no working days.")
    overlap = await db.scalar(
        "SELECT id FROM leave_requests WHERE employee_id = :e AND status IN ('pending', 'approved') "
        "AND start_date <= :end AND end_date >= :start ORDER BY id",
        e=e["id"], start=start.isoformat(), end=end.isoformat(),
    )
    if overlap:
        raise ToolError(f"It overlaps leave request {overlap}.")
    balance = await _balance(db, e["id"], start.year, leave_type)
    if days > balance["available_days"]:
        raise ToolError(f"{days} working days requested but only {balance['available_days']} available in {start.year}.")
    request_id = await _new_id(db, "leave_requests", "LR")
    await db.insert("leave_requests", id=request_id, employee_id=e["id"], leave_type=leave_type,
                    start_date=start.isoformat(), end_date=end.isoformat(), days=days, status="pending",
                    approver_id=e["manager_id"], created_at=db.now)
    return {"request_id": request_id, "leave_type": leave_type, "start_date": start.isoformat(),
            "end_date": end.isoformat(), "days": days, "status": "pending", "approver_id": e["manager_id"],
            "available_days_after": balance["available_days"] - days}


@write
async def cancel_leave_request(db: Database, request_id: str) -> dict[str, Any]:
    """Cancel a pending or approved leave request that has not started yet; its days go
    back to the balance.

    Args:
        request_id: The leave request id, like "LR-1042".
    """
    r = await db.get("leave_requests", request_id.strip().upper())
    if r is None:
        raise ToolError(f"No leave request {request_id!r}.")
    if r["status"] not in ("pending", "approved"):
        raise ToolError(f"Leave request {r['id']} is {r['status']}.")
    if r["start_date"] <= _today(db):
        raise ToolError(f"Leave request {r['id']} has already started; it cannot be cancelled here.")
    await db.update("leave_requests", r["id"], status="cancelled")
    return {"request_id": r["id"], "status": "cancelled", "days_returned": r["days"]}


# -- on- and offboarding --------------------------------------------------------------------------


async def _case(db: Database, case_id: str) -> dict[str, Any]:
    c = await db.get("lifecycle_cases", case_id.strip().upper())
    if c is None:
        raise ToolError(f"No onboarding or offboarding case {case_id!r}.")
    return c


async def _case_view(db: Database, c: dict[str, Any]) -> dict[str, Any]:
    items = await db.all("SELECT * FROM checklist_items WHERE case_id = :c ORDER BY id", c=c["id"])
    return {"case_id": c["id"], "employee_id": c["employee_id"], "kind": c["kind"],
            "effective_date": c["effective_date"], "requested_by": c["requested_by"], "status": c["status"],
            "checklist": [{"step": i["step"], "status": i["status"], "done_on": i["done_on"]} for i in items]}


@read
async def list_lifecycle_cases(db: Database, employee_id: str) -> list[dict[str, Any]]:
    """An employee's onboarding and offboarding cases with their checklists.

    Args:
        employee_id: The employee id, like "E-1042".
    """
    e = await _employee(db, employee_id)
    rows = await db.all("SELECT * FROM lifecycle_cases WHERE employee_id = :e ORDER BY id", e=e["id"])
    return [await _case_view(db, c) for c in rows]


@write
async def start_offboarding(db: Database, employee_id: str, last_day: str, requested_by: str) -> dict[str, Any]:
    """Open a leaver's offboarding case: records the last working day on the employee and
    creates the checklist (revoke_access, reclaim_licences, return_hardware,
    disable_account). Refuses if an offboarding case is already open.

    Args:
        employee_id: The leaver, like "E-1042".
        last_day: The last working day, YYYY-MM-DD.
        requested_by: The employee id of the person asking (the leaver's line manager).
    """
    e = await _serviceable(db, employee_id)
    requester = await _employee(db, requested_by)
    last = _date(last_day, "last_day")
    if last < date.fromisoformat(_today(db)) - timedelta(days=30):
        raise ToolError("A last day more than 30 days ago cannot be offboarded here; HR handles it.")
    if e["status"] == "pending_start":
        raise ToolError(f"{e['id']} has not started yet; HR withdraws the offer instead.")
    existing = await db.scalar(
        "SELECT id FROM lifecycle_cases WHERE employee_id = :e AND kind = 'offboarding' AND status = 'open'", e=e["id"])
    if existing:
        raise ToolError(f"{e['id']} already has open offboarding case {existing}.")
    case_id = await _new_id(db, "lifecycle_cases", "LC")
    await db.insert("lifecycle_cases", id=case_id, employee_id=e["id"], kind="offboarding",
                    effective_date=last.isoformat(), requested_by=requester["id"], status="open", created_at=db.now)
    for step in OFFBOARDING_STEPS:
        await db.insert("checklist_items", id=f"{case_id}/{step}", case_id=case_id, step=step, status="pending",
                        done_on=None)
    await db.update("employees", e["id"], end_date=last.isoformat())
    return await _case_view(db, await _case(db, case_id))


@write
async def start_onboarding(db: Database, employee_id: str, requested_by: str) -> dict[str, Any]:
    """Open a new hire's onboarding case with its checklist (hardware, access, licences).
    Only for hires who have not started yet.

    Args:
        employee_id: The new hire, like "E-1042".
        requested_by: The employee id of the person asking (the hire's line manager).
    """
    e = await _employee(db, employee_id)
    requester = await _employee(db, requested_by)
    if e["status"] != "pending_start":
        raise ToolError(f"{e['id']} is {e['status']}; onboarding is only for hires who have not started.")
    existing = await db.scalar(
        "SELECT id FROM lifecycle_cases WHERE employee_id = :e AND kind = 'onboarding' AND status = 'open'", e=e["id"])
    if existing:
        raise ToolError(f"{e['id']} already has open onboarding case {existing}.")
    case_id = await _new_id(db, "lifecycle_cases", "LC")
    await db.insert("lifecycle_cases", id=case_id, employee_id=e["id"], kind="onboarding",
                    effective_date=e["start_date"], requested_by=requester["id"], status="open", created_at=db.now)
    for step in ONBOARDING_STEPS:
        await db.insert("checklist_items", id=f"{case_id}/{step}", case_id=case_id, step=step, status="pending",
                        done_on=None)
    return await _case_view(db, await _case(db, case_id))


@write
async def disable_account(db: Database, employee_id: str) -> dict[str, Any]:
    """Disable a leaver's login on or after their last working day; the employee is then
    recorded as terminated. Refuses before the last day.

    Args:
        employee_id: The leaver, like "E-1042".
    """
    e = await _employee(db, employee_id)
    if e["account_status"] == "disabled":
        raise ToolError(f"{e['id']}'s account is already disabled.")
    if not e["end_date"] or e["end_date"] > _today(db):
        raise ToolError(f"{e['id']}'s last day ({e['end_date'] or 'not set'}) has not come; the account stays active.")
    await db.update("employees", e["id"], account_status="disabled", status="terminated")
    return {"employee_id": e["id"], "account_status": "disabled", "status": "terminated"}


@write
async def complete_checklist_item(
    db: Database,
    case_id: str,
    step: Literal["revoke_access", "reclaim_licences", "return_hardware", "disable_account", "hardware", "access", "licences"],
) -> dict[str, Any]:
    """Mark a checklist step of an onboarding or offboarding case done, once its work is
    done (the tool checks: no active roles, no active seats, no device still assigned,
    account disabled; for onboarding, an open hardware order and the baseline roles).
    The case completes when every step is done.

    Args:
        case_id: The case id, like "LC-1042".
        step: The checklist step.
    """
    c = await _case(db, case_id)
    item = await db.get("checklist_items", f"{c['id']}/{step}")
    if item is None:
        raise ToolError(f"Case {c['id']} ({c['kind']}) has no step {step!r}.")
    if item["status"] == "done":
        raise ToolError(f"Step {step} of case {c['id']} is already done.")
    e = await _employee(db, c["employee_id"])
    left: Any = None
    if step == "revoke_access":
        left = await db.scalar("SELECT COUNT(*) FROM access_grants WHERE employee_id = :e AND status = 'active'", e=e["id"])
    elif step == "reclaim_licences":
        left = await db.scalar(
            "SELECT COUNT(*) FROM licence_assignments WHERE employee_id = :e AND status = 'active'", e=e["id"])
    elif step == "return_hardware":
        left = await db.scalar("SELECT COUNT(*) FROM assets WHERE employee_id = :e AND status = 'assigned'", e=e["id"])
    elif step == "disable_account":
        left = 0 if e["account_status"] == "disabled" else 1
    elif step == "hardware":
        left = 0 if await db.scalar(
            "SELECT COUNT(*) FROM hardware_orders WHERE employee_id = :e AND status <> 'cancelled'", e=e["id"]) else 1
    elif step == "access":
        left = await db.scalar(
            "SELECT COUNT(*) FROM system_roles r WHERE r.baseline = :t AND NOT EXISTS (SELECT 1 FROM access_grants g "
            "WHERE g.employee_id = :e AND g.role_id = r.id AND g.status = 'active')", t=True, e=e["id"])
    if left:
        raise ToolError(f"Step {step} is not done yet for {e['id']} ({left} item(s) outstanding).")
    await db.update("checklist_items", item["id"], status="done", done_on=_today(db))
    pending = await db.scalar("SELECT COUNT(*) FROM checklist_items WHERE case_id = :c AND status <> 'done'", c=c["id"])
    if not pending:
        await db.update("lifecycle_cases", c["id"], status="completed")
    return await _case_view(db, await _case(db, c["id"]))
