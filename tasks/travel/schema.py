"""The travel backend's tables: a corporate travel agency's hotel desk.

Companies contract the agency; their employees (travellers) book hotel stays under the
company's travel policy (nightly caps per city tier, preferred hotels). Support touches
bookings, the money moved for them, managers' approvals, loyalty points, invoices and
tickets.

Conventions the tools and the state check rely on:
- Ids are readable strings with a prefix (`TR-0001`, `BK-1001`, `T-1001`); records that
  tools create get theirs from `Database.next_id`, numbered from 9001, so a replay and an
  agent that create the same records get the same ids.
- Money is `Numeric(10, 2)`; dates are ISO `YYYY-MM-DD` strings; timestamps are the
  domain clock's ISO string.
- Columns the state check ignores carry `info={"volatile": True}`: free text written by
  the agent (reasons, subjects), creation timestamps, and the ids of created rows that no
  other row refers to (transactions, loyalty entries, verifications), so the order in
  which an agent creates them does not matter. Ticket notes are left out of the check.
- Defaults that tools rely on are `server_default`s, because tools insert with SQL.
"""

from __future__ import annotations

from sqlalchemy import Boolean, ForeignKey, Index, Integer, Numeric, String, Text, false, func, text, true
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from tb_env.components import identity

from .tickets import TICKETING

VOLATILE = {"volatile": True}
Money = Numeric(10, 2)


class Base(DeclarativeBase):
    pass


class City(Base):
    """A destination. Its tier (1 = most expensive) selects the company's nightly cap."""

    __tablename__ = "cities"

    id: Mapped[str] = mapped_column(String(8), primary_key=True)  # CHI
    name: Mapped[str] = mapped_column(String(64))
    country: Mapped[str] = mapped_column(String(64))
    tier: Mapped[int] = mapped_column(Integer)  # 1 | 2 | 3


class Company(Base):
    """A corporate client and its travel policy: the most a traveller may pay per night."""

    __tablename__ = "companies"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # CO-0001
    name: Mapped[str] = mapped_column(String(128))
    billing_email: Mapped[str] = mapped_column(String(128))
    cap_tier1: Mapped[float] = mapped_column(Money)
    cap_tier2: Mapped[float] = mapped_column(Money)
    cap_tier3: Mapped[float] = mapped_column(Money)
    active: Mapped[bool] = mapped_column(Boolean, server_default=true())


class Hotel(Base):
    __tablename__ = "hotels"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # H-0001
    name: Mapped[str] = mapped_column(String(128))
    chain: Mapped[str] = mapped_column(String(64))
    city_id: Mapped[str] = mapped_column(ForeignKey("cities.id"), index=True)
    address: Mapped[str] = mapped_column(String(128))
    stars: Mapped[int] = mapped_column(Integer)
    check_in_time: Mapped[str] = mapped_column(String(5))  # "15:00"
    active: Mapped[bool] = mapped_column(Boolean, server_default=true())


class PreferredHotel(Base):
    """A company's negotiated hotel: bookings there get the discount automatically."""

    __tablename__ = "preferred_hotels"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # PH-0001
    company_id: Mapped[str] = mapped_column(ForeignKey("companies.id"), index=True)
    hotel_id: Mapped[str] = mapped_column(ForeignKey("hotels.id"), index=True)
    discount_percent: Mapped[int] = mapped_column(Integer)


class RoomType(Base):
    __tablename__ = "room_types"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # RT-0001
    hotel_id: Mapped[str] = mapped_column(ForeignKey("hotels.id"), index=True)
    code: Mapped[str] = mapped_column(String(16))  # standard | deluxe | junior_suite | suite
    name: Mapped[str] = mapped_column(String(64))  # "Standard King"
    max_guests: Mapped[int] = mapped_column(Integer)


class RatePlan(Base):
    """A bookable price for one room type. `flexible` plans can be changed and cancelled
    free of charge until `free_cancel_days` before check-in; `nonrefundable` ones cannot."""

    __tablename__ = "rate_plans"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # RP-0001
    hotel_id: Mapped[str] = mapped_column(ForeignKey("hotels.id"), index=True)
    room_type_id: Mapped[str] = mapped_column(ForeignKey("room_types.id"), index=True)
    name: Mapped[str] = mapped_column(String(64))  # "Flexible", "Advance Saver (non-refundable)"
    kind: Mapped[str] = mapped_column(String(16))  # flexible | nonrefundable
    nightly_rate: Mapped[float] = mapped_column(Money)  # before any company discount
    breakfast_included: Mapped[bool] = mapped_column(Boolean, server_default=false())
    free_cancel_days: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    active: Mapped[bool] = mapped_column(Boolean, server_default=true())


class Traveller(Base):
    __tablename__ = "travellers"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # TR-0001
    company_id: Mapped[str] = mapped_column(ForeignKey("companies.id"), index=True)
    first_name: Mapped[str] = mapped_column(String(64))
    last_name: Mapped[str] = mapped_column(String(64))
    email: Mapped[str] = mapped_column(String(128), unique=True)
    phone: Mapped[str] = mapped_column(String(32))
    employee_id: Mapped[str] = mapped_column(String(16))  # the company's staff number, used for verification
    job_title: Mapped[str] = mapped_column(String(64))
    # who approves this traveller's out-of-policy requests (another traveller of the company)
    manager_id: Mapped[str | None] = mapped_column(ForeignKey("travellers.id"), nullable=True)
    loyalty_tier: Mapped[str] = mapped_column(String(16), server_default=text("'member'"))  # member | silver | gold
    active: Mapped[bool] = mapped_column(Boolean, server_default=true())


class PaymentMethod(Base):
    __tablename__ = "payment_methods"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # PM-0001
    traveller_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # corporate_card | personal_card
    label: Mapped[str] = mapped_column(String(64))  # "Amex Corporate ending 4242"
    status: Mapped[str] = mapped_column(String(16), server_default=text("'active'"))  # active | expired


class Booking(Base):
    """A prepaid hotel stay. `total_amount` is the current price of the stay (nights x
    nightly rate); the money actually moved is in `transactions`."""

    __tablename__ = "bookings"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # BK-1001
    traveller_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"), index=True)
    hotel_id: Mapped[str] = mapped_column(ForeignKey("hotels.id"), index=True)
    room_type_id: Mapped[str] = mapped_column(ForeignKey("room_types.id"))
    rate_plan_id: Mapped[str] = mapped_column(ForeignKey("rate_plans.id"))
    check_in: Mapped[str] = mapped_column(String(10))
    check_out: Mapped[str] = mapped_column(String(10))
    nights: Mapped[int] = mapped_column(Integer)
    nightly_rate: Mapped[float] = mapped_column(Money)  # what the traveller pays, discount included
    total_amount: Mapped[float] = mapped_column(Money)
    # confirmed (upcoming) | completed (stayed) | cancelled
    status: Mapped[str] = mapped_column(String(16), server_default=text("'confirmed'"))
    payment_method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"))
    # the approval this booking (or its last change) was made under; no FK: approvals point at bookings
    approval_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    arrival_time: Mapped[str | None] = mapped_column(String(5), nullable=True)  # "22:30", for late arrivals
    cancellation_fee: Mapped[float] = mapped_column(Money, server_default=text("0"))
    cancelled_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    booked_on: Mapped[str] = mapped_column(String(10))
    cancel_reason: Mapped[str | None] = mapped_column(Text, nullable=True, info=VOLATILE)


class Approval(Base):
    """A manager's decision on something the travel policy does not allow by itself:
    `out_of_policy` (a rate above the cap, or a non-preferred hotel where the company has a
    preferred one), `downgrade_refund` (a cheaper room type, refunding the difference) or
    `fee_waiver` (cancelling late without the fee). Agents submit requests; the manager
    decides in the company's approval portal."""

    __tablename__ = "approvals"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # AP-0001
    traveller_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"), index=True)
    approver_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"))
    kind: Mapped[str] = mapped_column(String(24))  # out_of_policy | downgrade_refund | fee_waiver
    booking_id: Mapped[str | None] = mapped_column(ForeignKey("bookings.id"), nullable=True)  # null: a new booking
    rate_plan_id: Mapped[str | None] = mapped_column(ForeignKey("rate_plans.id"), nullable=True)
    check_in: Mapped[str | None] = mapped_column(String(10), nullable=True)
    check_out: Mapped[str | None] = mapped_column(String(10), nullable=True)
    amount: Mapped[float] = mapped_column(Money)  # the nightly rate, refund or fee at stake
    status: Mapped[str] = mapped_column(String(16), server_default=text("'pending'"))  # pending | approved | denied
    decision_note: Mapped[str | None] = mapped_column(String(256), nullable=True)
    decided_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    request_reason: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class Transaction(Base):
    """Money moved for a booking: `charge` (to the card) or `refund` (back to it)."""

    __tablename__ = "transactions"

    # No row refers to a transaction: its id is left out of the check, so an agent that
    # makes the same changes in another order gets the same state.
    id: Mapped[str] = mapped_column(String(16), primary_key=True, info=VOLATILE)  # TX-0001
    booking_id: Mapped[str] = mapped_column(ForeignKey("bookings.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # charge | refund
    # booking | date_change | room_change | cancellation | service_refund
    purpose: Mapped[str] = mapped_column(String(24))
    amount: Mapped[float] = mapped_column(Money)
    payment_method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"))
    approval_id: Mapped[str | None] = mapped_column(ForeignKey("approvals.id"), nullable=True)
    reason: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class LoyaltyEntry(Base):
    """The Voyager Rewards points ledger; a traveller's balance is the sum of their rows."""

    __tablename__ = "loyalty_entries"

    id: Mapped[str] = mapped_column(String(16), primary_key=True, info=VOLATILE)  # LP-0001, unreferenced
    traveller_id: Mapped[str] = mapped_column(ForeignKey("travellers.id"), index=True)
    booking_id: Mapped[str | None] = mapped_column(ForeignKey("bookings.id"), nullable=True)
    points: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))  # stay | goodwill | redemption | expiry
    reason: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class Invoice(Base):
    """The company's invoice for a completed stay."""

    __tablename__ = "invoices"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # INV-1001
    booking_id: Mapped[str] = mapped_column(ForeignKey("bookings.id"), index=True)
    company_id: Mapped[str] = mapped_column(ForeignKey("companies.id"), index=True)
    amount: Mapped[float] = mapped_column(Money)
    status: Mapped[str] = mapped_column(String(16))  # issued | paid | void
    issued_on: Mapped[str] = mapped_column(String(10))
    po_number: Mapped[str | None] = mapped_column(String(32), nullable=True)
    cost_center: Mapped[str | None] = mapped_column(String(32), nullable=True)


TICKETING.declare(Base.metadata)  # tickets, ticket_notes: see tickets.py


identity.declare(Base.metadata, "traveller_id", "travellers.id")  # identity_verifications


# the identity look-ups compare case-insensitively: without these they scan the table
Index("ix_travellers_email_lower", func.lower(Traveller.email))
Index("ix_travellers_last_name_lower", func.lower(Traveller.last_name))

metadata = Base.metadata
