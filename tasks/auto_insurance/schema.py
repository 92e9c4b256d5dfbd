"""The auto-insurance backend's tables: policyholders, their policies and everything a
service desk touches (drivers, vehicles, coverages, billing, claims, underwriting, tickets).

Conventions the tools and the state check rely on:
- Ids are readable strings with a prefix (`PH-0001`, `POL-10001`, `CLM-10001`, `T-2041`);
  records that tools create get theirs from `Database.next_id`, numbered from 9001, so a
  replay and an agent that create the same records get the same ids. A coverage's id is
  `<policy id>/<coverage type>` (`POL-10001/collision`).
- Money is `Numeric(10, 2)`; dates are ISO `YYYY-MM-DD` strings; timestamps are the
  domain clock's ISO string.
- Columns the state check ignores carry `info={"volatile": True}`: free text written by
  the agent (descriptions, reasons, subjects), creation timestamps, and the ids of created
  rows that no other row refers to (payments, extensions, endorsements, verifications), so
  the order in which an agent creates them does not matter. Ticket notes are left out of
  the check altogether.
- Reference tables that play the part of outside systems (the VIN decoder, the state
  motor-vehicle records) are plain tables the tools only read.
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


class Policyholder(Base):
    """The named insured: the only person who may change a policy."""

    __tablename__ = "policyholders"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # PH-0001
    first_name: Mapped[str] = mapped_column(String(64))
    last_name: Mapped[str] = mapped_column(String(64))
    email: Mapped[str] = mapped_column(String(128), unique=True)
    phone: Mapped[str] = mapped_column(String(32))
    date_of_birth: Mapped[str] = mapped_column(String(10))  # used for verification
    street: Mapped[str] = mapped_column(String(128))
    city: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(2))
    zip_code: Mapped[str] = mapped_column(String(10))  # mailing zip, used for verification
    customer_since: Mapped[str] = mapped_column(String(10))


class PaymentMethod(Base):
    __tablename__ = "payment_methods"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # PM-0001
    policyholder_id: Mapped[str] = mapped_column(ForeignKey("policyholders.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # card | bank_account
    label: Mapped[str] = mapped_column(String(64))  # "Visa ending 4242", "Checking ending 1234"
    status: Mapped[str] = mapped_column(String(16), server_default=text("'active'"))  # active | expired | closed


class Policy(Base):
    __tablename__ = "policies"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # POL-10001
    policyholder_id: Mapped[str] = mapped_column(ForeignKey("policyholders.id"), index=True)
    status: Mapped[str] = mapped_column(String(16))  # active | expired | cancelled
    state: Mapped[str] = mapped_column(String(2))  # where the vehicles are garaged (rating, adjusters)
    effective_date: Mapped[str] = mapped_column(String(10))
    expiration_date: Mapped[str] = mapped_column(String(10))  # the renewal date; terms are 12 months
    annual_premium: Mapped[float] = mapped_column(Money)
    renewal_premium: Mapped[float | None] = mapped_column(Money, nullable=True)  # offered for the next term
    billing_plan: Mapped[str] = mapped_column(String(16))  # monthly | pay_in_full
    autopay: Mapped[bool] = mapped_column(Boolean, server_default=false())
    autopay_payment_method_id: Mapped[str | None] = mapped_column(ForeignKey("payment_methods.id"), nullable=True)
    cancelled_on: Mapped[str | None] = mapped_column(String(10), nullable=True)


class Coverage(Base):
    """One coverage of a policy. Which of limit_code / deductible / daily_limit applies
    depends on the type (see tools.COVERAGE_OPTIONS)."""

    __tablename__ = "coverages"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)  # POL-10001/collision
    policy_id: Mapped[str] = mapped_column(ForeignKey("policies.id"), index=True)
    # liability | uninsured_motorist | medical_payments | collision | comprehensive |
    # rental_reimbursement | roadside_assistance
    coverage_type: Mapped[str] = mapped_column(String(24))
    limit_code: Mapped[str | None] = mapped_column(String(16), nullable=True)  # "100/300"; medical: "5000"
    deductible: Mapped[int | None] = mapped_column(Integer, nullable=True)
    daily_limit: Mapped[float | None] = mapped_column(Money, nullable=True)  # rental reimbursement
    max_days: Mapped[int | None] = mapped_column(Integer, nullable=True)  # rental reimbursement
    annual_premium: Mapped[float] = mapped_column(Money)
    status: Mapped[str] = mapped_column(String(16), server_default=text("'active'"))  # active | removed
    effective_date: Mapped[str] = mapped_column(String(10))  # when this coverage started
    removed_on: Mapped[str | None] = mapped_column(String(10), nullable=True)


class MvrRecord(Base):
    """The state motor-vehicle record of a licence (an outside system, read-only)."""

    __tablename__ = "mvr_records"

    license_number: Mapped[str] = mapped_column(String(24), primary_key=True)
    license_state: Mapped[str] = mapped_column(String(2))
    first_name: Mapped[str] = mapped_column(String(64))
    last_name: Mapped[str] = mapped_column(String(64))
    date_of_birth: Mapped[str] = mapped_column(String(10))
    license_status: Mapped[str] = mapped_column(String(16))  # valid | suspended | expired | permit
    first_licensed: Mapped[str] = mapped_column(String(10))
    violations_3y: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    at_fault_accidents_3y: Mapped[int] = mapped_column(Integer, server_default=text("0"))


class Driver(Base):
    __tablename__ = "drivers"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # DRV-10001
    policy_id: Mapped[str] = mapped_column(ForeignKey("policies.id"), index=True)
    first_name: Mapped[str] = mapped_column(String(64))
    last_name: Mapped[str] = mapped_column(String(64))
    date_of_birth: Mapped[str] = mapped_column(String(10))
    license_number: Mapped[str] = mapped_column(String(24))
    license_state: Mapped[str] = mapped_column(String(2))
    relationship: Mapped[str] = mapped_column(String(24))  # named_insured | spouse | child | parent | sibling | other_household
    status: Mapped[str] = mapped_column(String(16), server_default=text("'active'"))  # active | removed
    added_on: Mapped[str] = mapped_column(String(10))
    removed_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    annual_premium: Mapped[float] = mapped_column(Money)  # this driver's share of the premium


class VinRecord(Base):
    """The VIN decoder's catalogue (an outside system, read-only)."""

    __tablename__ = "vin_records"

    vin: Mapped[str] = mapped_column(String(17), primary_key=True)
    year: Mapped[int] = mapped_column(Integer)
    make: Mapped[str] = mapped_column(String(32))
    model: Mapped[str] = mapped_column(String(48))
    body_style: Mapped[str] = mapped_column(String(24))
    market_value: Mapped[float] = mapped_column(Money)


class Vehicle(Base):
    __tablename__ = "vehicles"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # VEH-10001
    policy_id: Mapped[str] = mapped_column(ForeignKey("policies.id"), index=True)
    vin: Mapped[str] = mapped_column(String(17))
    year: Mapped[int] = mapped_column(Integer)
    make: Mapped[str] = mapped_column(String(32))
    model: Mapped[str] = mapped_column(String(48))
    market_value: Mapped[float] = mapped_column(Money)
    usage: Mapped[str] = mapped_column(String(16))  # pleasure | commute
    annual_mileage: Mapped[int] = mapped_column(Integer)
    lienholder: Mapped[str | None] = mapped_column(String(64), nullable=True)  # lender or lessor, if financed
    status: Mapped[str] = mapped_column(String(16), server_default=text("'active'"))  # active | removed | replaced
    added_on: Mapped[str] = mapped_column(String(10))
    removed_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    replaced_by_vehicle_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    annual_premium: Mapped[float] = mapped_column(Money)  # this vehicle's share of the premium


class UnderwritingApproval(Base):
    """An underwriter's decision on a request outside the agent's authority."""

    __tablename__ = "underwriting_approvals"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # UW-0001
    policy_id: Mapped[str] = mapped_column(ForeignKey("policies.id"), index=True)
    request_type: Mapped[str] = mapped_column(String(24))  # add_driver | add_vehicle | liability_limit
    subject: Mapped[str] = mapped_column(String(32))  # licence number, VIN, or requested limit code
    status: Mapped[str] = mapped_column(String(16))  # approved | denied
    decision_note: Mapped[str] = mapped_column(String(256))
    request_reason: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class Endorsement(Base):
    """A change to a policy mid-term, with its effective date and premium effect."""

    __tablename__ = "endorsements"

    # No row refers to an endorsement: its id is left out of the check, so two changes
    # made in another order than the golden path's compare equal.
    id: Mapped[str] = mapped_column(String(16), primary_key=True, info=VOLATILE)  # END-0001
    policy_id: Mapped[str] = mapped_column(ForeignKey("policies.id"), index=True)
    # add_driver | remove_driver | add_vehicle | replace_vehicle | remove_vehicle |
    # change_coverage | add_coverage | remove_coverage
    kind: Mapped[str] = mapped_column(String(24))
    subject_id: Mapped[str] = mapped_column(String(40))  # the driver, vehicle or coverage changed
    effective_date: Mapped[str] = mapped_column(String(10))
    annual_premium_change: Mapped[float] = mapped_column(Money)
    prorated_change: Mapped[float] = mapped_column(Money)  # billed (or credited) for the rest of the term
    approval_id: Mapped[str | None] = mapped_column(ForeignKey("underwriting_approvals.id"), nullable=True)
    description: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class PaymentArrangement(Base):
    """A past-due balance split into monthly instalments."""

    __tablename__ = "payment_arrangements"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # PA-0001
    policy_id: Mapped[str] = mapped_column(ForeignKey("policies.id"), index=True)
    total_amount: Mapped[float] = mapped_column(Money)
    installments: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))  # active | completed | defaulted
    created_on: Mapped[str] = mapped_column(String(10))


class Invoice(Base):
    __tablename__ = "invoices"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # INV-100001
    policy_id: Mapped[str] = mapped_column(ForeignKey("policies.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # installment | endorsement | arrangement
    amount: Mapped[float] = mapped_column(Money)  # premium billed (negative: a credit)
    late_fee: Mapped[float] = mapped_column(Money, server_default=text("0"))
    late_fee_waived: Mapped[bool] = mapped_column(Boolean, server_default=false())
    amount_paid: Mapped[float] = mapped_column(Money, server_default=text("0"))
    original_due_date: Mapped[str] = mapped_column(String(10))
    due_date: Mapped[str] = mapped_column(String(10))  # differs from the original after an extension
    # open | past_due | paid | in_arrangement (moved into a payment arrangement) | credit
    status: Mapped[str] = mapped_column(String(16))
    arrangement_id: Mapped[str | None] = mapped_column(ForeignKey("payment_arrangements.id"), nullable=True)


class Payment(Base):
    __tablename__ = "payments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True, info=VOLATILE)  # PAY-0001, unreferenced
    invoice_id: Mapped[str] = mapped_column(ForeignKey("invoices.id"), index=True)
    amount: Mapped[float] = mapped_column(Money)
    payment_method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"))
    paid_on: Mapped[str] = mapped_column(String(10))


class BillingExtension(Base):
    __tablename__ = "billing_extensions"

    id: Mapped[str] = mapped_column(String(16), primary_key=True, info=VOLATILE)  # EXT-0001, unreferenced
    invoice_id: Mapped[str] = mapped_column(ForeignKey("invoices.id"), index=True)
    policy_id: Mapped[str] = mapped_column(ForeignKey("policies.id"), index=True)
    previous_due_date: Mapped[str] = mapped_column(String(10))
    new_due_date: Mapped[str] = mapped_column(String(10))
    granted_on: Mapped[str] = mapped_column(String(10))
    reason: Mapped[str] = mapped_column(Text, info=VOLATILE)


class Adjuster(Base):
    __tablename__ = "adjusters"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # ADJ-101
    first_name: Mapped[str] = mapped_column(String(64))
    last_name: Mapped[str] = mapped_column(String(64))
    specialty: Mapped[str] = mapped_column(String(16))  # collision | comprehensive | liability | injury
    state: Mapped[str] = mapped_column(String(2))
    max_open_claims: Mapped[int] = mapped_column(Integer)
    active: Mapped[bool] = mapped_column(Boolean)
    phone: Mapped[str] = mapped_column(String(32))


class Claim(Base):
    __tablename__ = "claims"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # CLM-10001
    policy_id: Mapped[str] = mapped_column(ForeignKey("policies.id"), index=True)
    vehicle_id: Mapped[str] = mapped_column(ForeignKey("vehicles.id"))
    driver_id: Mapped[str | None] = mapped_column(ForeignKey("drivers.id"), nullable=True)
    loss_date: Mapped[str] = mapped_column(String(10))
    reported_on: Mapped[str] = mapped_column(String(10))
    loss_type: Mapped[str] = mapped_column(String(16))  # collision | comprehensive | liability
    injuries: Mapped[bool] = mapped_column(Boolean, server_default=false())
    description: Mapped[str] = mapped_column(Text, info=VOLATILE)
    # reported (no adjuster yet) | assigned | closed | withdrawn
    status: Mapped[str] = mapped_column(String(16), server_default=text("'reported'"))
    adjuster_id: Mapped[str | None] = mapped_column(ForeignKey("adjusters.id"), nullable=True)
    deductible: Mapped[int | None] = mapped_column(Integer, nullable=True)  # fixed when the claim is filed
    contact_phone: Mapped[str] = mapped_column(String(32))
    at_fault: Mapped[bool | None] = mapped_column(Boolean, nullable=True)  # the adjuster's finding
    rental_days: Mapped[int] = mapped_column(Integer, server_default=text("0"))  # authorised so far
    rental_daily_limit: Mapped[float | None] = mapped_column(Money, nullable=True)
    paid_amount: Mapped[float] = mapped_column(Money, server_default=text("0"))
    closed_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    withdraw_reason: Mapped[str | None] = mapped_column(Text, nullable=True, info=VOLATILE)


TICKETING.declare(Base.metadata)  # tickets, ticket_notes: see tickets.py


identity.declare(Base.metadata, "policyholder_id", "policyholders.id")  # identity_verifications


# the identity look-ups compare case-insensitively: without these they scan the table
Index("ix_policyholders_email_lower", func.lower(Policyholder.email))
Index("ix_policyholders_last_name_lower", func.lower(Policyholder.last_name))

metadata = Base.metadata
