"""The consulting firm's internal service desk: the tables behind IT and HR support.

Employees sit in departments under a line manager. The desk looks after their access to
systems (roles, access requests, approvals, segregation-of-duties rules), software
licences (seat pools charged to cost centres), hardware (catalogue, per-level order
limits, orders, assets), on- and offboarding checklists, leave and home addresses, and
the shared ticket system.

Conventions the tools and the state check rely on:
- Ids are readable strings with a prefix (`E-1042`, `AR-1007`, `HO-1210`, `T-1033`).
  Records that tools create get theirs from `Database.next_id` (from 9001), so a replay
  and an agent that create the same records get the same ids. Rows that exist once per
  pair of records are keyed by the pair, so the order in which an agent creates them
  does not matter: access grants `<employee>/<role>`, licence seats `<pool>/<employee>`,
  order lines `<order>/<catalogue item>`, checklist items `<case>/<step>`.
- Money is `Numeric(10, 2)` (US dollars); dates are ISO `YYYY-MM-DD` strings;
  timestamps are the domain clock's ISO string.
- Columns the state check ignores carry `info={"volatile": True}`: free text written by
  the agent (justifications, reasons, subjects), creation timestamps, and the ids of
  created rows that no other row refers to. Ticket notes are left out of the check.
- Defaults that tools rely on are `server_default`s, because tools insert with SQL.
"""

from __future__ import annotations

from sqlalchemy import Boolean, ForeignKey, Index, Integer, Numeric, String, Text, false, func, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from tb_env.components import identity

from .tickets import TICKETING

VOLATILE = {"volatile": True}
Money = Numeric(10, 2)


class Base(DeclarativeBase):
    pass


# -- people ---------------------------------------------------------------------------------


class Department(Base):
    __tablename__ = "departments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # D-STR
    name: Mapped[str] = mapped_column(String(64))
    cost_centre: Mapped[str] = mapped_column(String(16))  # CC-1100: licences are charged here
    head_id: Mapped[str | None] = mapped_column(String(16), nullable=True)  # an employee id


class Office(Base):
    __tablename__ = "offices"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)  # New York
    line1: Mapped[str] = mapped_column(String(128))
    city: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(2))
    zip_code: Mapped[str] = mapped_column(String(10))


class Employee(Base):
    __tablename__ = "employees"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # E-1001
    first_name: Mapped[str] = mapped_column(String(64))
    last_name: Mapped[str] = mapped_column(String(64))
    email: Mapped[str] = mapped_column(String(128))
    department_id: Mapped[str] = mapped_column(ForeignKey("departments.id"), index=True)
    manager_id: Mapped[str | None] = mapped_column(String(16), nullable=True, index=True)  # line manager
    title: Mapped[str] = mapped_column(String(64))
    # analyst | consultant | senior_consultant | manager | director | partner: sets the hardware limit
    level: Mapped[str] = mapped_column(String(24))
    # active | on_leave | pending_start (hired, not started yet) | terminated
    status: Mapped[str] = mapped_column(String(16), server_default=text("'active'"))
    start_date: Mapped[str] = mapped_column(String(10))
    end_date: Mapped[str | None] = mapped_column(String(10), nullable=True)  # last working day, once known
    office: Mapped[str] = mapped_column(ForeignKey("offices.name"))  # the office the employee belongs to
    work_mode: Mapped[str] = mapped_column(String(8))  # office | hybrid | remote
    # identity verification: the employee id plus one of these two
    date_of_birth: Mapped[str] = mapped_column(String(10))
    mobile_phone: Mapped[str] = mapped_column(String(16))
    home_line1: Mapped[str] = mapped_column(String(128))
    home_city: Mapped[str] = mapped_column(String(64))
    home_state: Mapped[str] = mapped_column(String(2))
    home_zip: Mapped[str] = mapped_column(String(10))
    account_status: Mapped[str] = mapped_column(String(16), server_default=text("'active'"))  # active | disabled


class PublicHoliday(Base):
    """Firm-wide holidays: not working days, so leave requests do not count them."""

    __tablename__ = "public_holidays"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))


# -- access to systems ----------------------------------------------------------------------


class System(Base):
    __tablename__ = "systems"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # SYS-SAP
    name: Mapped[str] = mapped_column(String(64))
    owner_id: Mapped[str] = mapped_column(String(16))  # the employee who approves owner-approved roles
    sensitivity: Mapped[str] = mapped_column(String(16))  # standard | restricted | confidential
    description: Mapped[str] = mapped_column(String(256))


class SystemRole(Base):
    __tablename__ = "system_roles"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)  # SAP-AP-CLERK
    system_id: Mapped[str] = mapped_column(ForeignKey("systems.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))
    privilege: Mapped[str] = mapped_column(String(8))  # read | write | admin
    approver: Mapped[str] = mapped_column(String(8))  # none | manager | owner
    baseline: Mapped[bool] = mapped_column(Boolean, server_default=false())  # every employee holds it
    description: Mapped[str] = mapped_column(String(256))


class SodConflict(Base):
    """Two roles one person must never hold together (segregation of duties)."""

    __tablename__ = "sod_conflicts"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # SOD-01
    role_a: Mapped[str] = mapped_column(ForeignKey("system_roles.id"))
    role_b: Mapped[str] = mapped_column(ForeignKey("system_roles.id"))
    risk: Mapped[str] = mapped_column(String(256))


class AccessRequest(Base):
    __tablename__ = "access_requests"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # AR-1001
    employee_id: Mapped[str] = mapped_column(ForeignKey("employees.id"), index=True)
    role_id: Mapped[str] = mapped_column(ForeignKey("system_roles.id"))
    requested_by: Mapped[str] = mapped_column(String(16))  # the employee who asked (self or manager)
    # pending_approval | approved | rejected | fulfilled | cancelled
    status: Mapped[str] = mapped_column(String(16))
    justification: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class AccessGrant(Base):
    """Who holds which role. One row per employee and role; revoking keeps the row."""

    __tablename__ = "access_grants"

    id: Mapped[str] = mapped_column(String(48), primary_key=True)  # <employee id>/<role id>
    employee_id: Mapped[str] = mapped_column(ForeignKey("employees.id"), index=True)
    role_id: Mapped[str] = mapped_column(ForeignKey("system_roles.id"))
    status: Mapped[str] = mapped_column(String(8))  # active | revoked
    granted_on: Mapped[str] = mapped_column(String(10))
    revoked_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    request_id: Mapped[str | None] = mapped_column(String(16), nullable=True)  # the request it fulfilled


class Approval(Base):
    """An approver's decision on an access request or a hardware order above the limit.

    Created `pending` by the system when a request needs one; the approver decides later,
    or at once when the approver is the caller and the desk records the decision."""

    __tablename__ = "approvals"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # AP-1001
    subject_type: Mapped[str] = mapped_column(String(16))  # access_request | hardware_order
    subject_id: Mapped[str] = mapped_column(String(16), index=True)  # AR-... or HO-...
    employee_id: Mapped[str] = mapped_column(ForeignKey("employees.id"), index=True)  # for whom
    approver_id: Mapped[str] = mapped_column(String(16))
    amount: Mapped[float | None] = mapped_column(Money, nullable=True)  # hardware orders only
    status: Mapped[str] = mapped_column(String(16))  # pending | approved | denied
    decision_note: Mapped[str | None] = mapped_column(Text, nullable=True, info=VOLATILE)
    decided_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


# -- software licences ----------------------------------------------------------------------


class LicencePool(Base):
    __tablename__ = "licence_pools"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # LP-VISIO
    product: Mapped[str] = mapped_column(String(64))
    vendor: Mapped[str] = mapped_column(String(32))
    monthly_cost: Mapped[float] = mapped_column(Money)  # per seat
    total_seats: Mapped[int] = mapped_column(Integer)


class LicenceAssignment(Base):
    """A seat of a pool held by an employee. One row per pool and employee."""

    __tablename__ = "licence_assignments"

    id: Mapped[str] = mapped_column(String(48), primary_key=True)  # <pool id>/<employee id>
    pool_id: Mapped[str] = mapped_column(ForeignKey("licence_pools.id"), index=True)
    employee_id: Mapped[str] = mapped_column(ForeignKey("employees.id"), index=True)
    status: Mapped[str] = mapped_column(String(16))  # active | reclaimed
    cost_centre: Mapped[str] = mapped_column(String(16))
    assigned_on: Mapped[str] = mapped_column(String(10))
    last_used_on: Mapped[str | None] = mapped_column(String(10), nullable=True)  # None: never used
    reclaimed_on: Mapped[str | None] = mapped_column(String(10), nullable=True)


# -- hardware ---------------------------------------------------------------------------------


class CatalogueItem(Base):
    __tablename__ = "catalogue_items"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # HW-LAP-STD
    name: Mapped[str] = mapped_column(String(64))
    category: Mapped[str] = mapped_column(String(16))  # laptop | monitor | dock | audio | phone | tablet | accessory
    price: Mapped[float] = mapped_column(Money)
    active: Mapped[bool] = mapped_column(Boolean)


class HardwareLimit(Base):
    """The most one hardware order may cost without the line manager's approval, by level."""

    __tablename__ = "hardware_limits"

    level: Mapped[str] = mapped_column(String(24), primary_key=True)
    order_limit: Mapped[float] = mapped_column(Money)


class HardwareOrder(Base):
    __tablename__ = "hardware_orders"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # HO-1001
    employee_id: Mapped[str] = mapped_column(ForeignKey("employees.id"), index=True)  # the recipient
    requested_by: Mapped[str] = mapped_column(String(16))
    # pending_approval | submitted (approved or within the limit) | shipped | delivered | cancelled
    status: Mapped[str] = mapped_column(String(16))
    total: Mapped[float] = mapped_column(Money)
    ship_to: Mapped[str] = mapped_column(String(8))  # office | home
    ship_address: Mapped[str] = mapped_column(String(256))  # as it will be printed on the parcel
    approval_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    placed_on: Mapped[str] = mapped_column(String(10))
    tracking_number: Mapped[str | None] = mapped_column(String(32), nullable=True)
    eta: Mapped[str | None] = mapped_column(String(10), nullable=True)
    delivered_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    cancel_reason: Mapped[str | None] = mapped_column(Text, nullable=True, info=VOLATILE)


class HardwareOrderLine(Base):
    __tablename__ = "hardware_order_lines"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)  # <order id>/<catalogue item id>
    order_id: Mapped[str] = mapped_column(ForeignKey("hardware_orders.id"), index=True)
    item_id: Mapped[str] = mapped_column(ForeignKey("catalogue_items.id"))
    quantity: Mapped[int] = mapped_column(Integer)
    unit_price: Mapped[float] = mapped_column(Money)


class Asset(Base):
    """A device issued to an employee."""

    __tablename__ = "assets"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # AS-10001
    employee_id: Mapped[str] = mapped_column(ForeignKey("employees.id"), index=True)
    item_id: Mapped[str] = mapped_column(ForeignKey("catalogue_items.id"))
    serial_number: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16))  # assigned | return_requested | returned | lost
    assigned_on: Mapped[str] = mapped_column(String(10))
    returned_on: Mapped[str | None] = mapped_column(String(10), nullable=True)


# -- HR: leave ----------------------------------------------------------------------------------


class LeaveBalance(Base):
    """A year's leave entitlement; what is used comes from the leave requests."""

    __tablename__ = "leave_balances"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)  # <employee id>/<year>/<leave type>
    employee_id: Mapped[str] = mapped_column(ForeignKey("employees.id"), index=True)
    year: Mapped[int] = mapped_column(Integer)
    leave_type: Mapped[str] = mapped_column(String(16))  # annual | wellbeing
    entitled_days: Mapped[int] = mapped_column(Integer)
    carried_over_days: Mapped[int] = mapped_column(Integer, server_default=text("0"))


class LeaveRequest(Base):
    __tablename__ = "leave_requests"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # LR-1001
    employee_id: Mapped[str] = mapped_column(ForeignKey("employees.id"), index=True)
    leave_type: Mapped[str] = mapped_column(String(16))
    start_date: Mapped[str] = mapped_column(String(10))
    end_date: Mapped[str] = mapped_column(String(10))
    days: Mapped[int] = mapped_column(Integer)  # working days
    status: Mapped[str] = mapped_column(String(16))  # pending | approved | rejected | cancelled
    approver_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


# -- on- and offboarding ------------------------------------------------------------------------


class LifecycleCase(Base):
    __tablename__ = "lifecycle_cases"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # LC-1001
    employee_id: Mapped[str] = mapped_column(ForeignKey("employees.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # onboarding | offboarding
    effective_date: Mapped[str] = mapped_column(String(10))  # start date, or last working day
    requested_by: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16))  # open | completed
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class ChecklistItem(Base):
    __tablename__ = "checklist_items"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)  # <case id>/<step>
    case_id: Mapped[str] = mapped_column(ForeignKey("lifecycle_cases.id"), index=True)
    step: Mapped[str] = mapped_column(String(24))
    status: Mapped[str] = mapped_column(String(8))  # pending | done
    done_on: Mapped[str | None] = mapped_column(String(10), nullable=True)


# -- the ticket system and identity ---------------------------------------------------------------


TICKETING.declare(Base.metadata)  # tickets, ticket_notes: see tickets.py


identity.declare(Base.metadata, "employee_id", "employees.id")  # identity_verifications


# the identity look-ups compare case-insensitively: without these they scan the table
Index("ix_employees_email_lower", func.lower(Employee.email))
Index("ix_employees_last_name_lower", func.lower(Employee.last_name))

metadata = Base.metadata
