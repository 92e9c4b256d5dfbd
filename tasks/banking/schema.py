"""The banking backend's tables: a neobank's customers, their money and everything support touches.

Conventions the tools and the state check rely on:
- Ids are readable strings with a prefix (`CU-0001`, `AC-0001`, `CD-0001`, `TX-00001`,
  `T-1001`). Records that tools create get theirs from `Database.next_id` (numbered from
  9001), so a replay and an agent that create the same records get the same ids. A
  dispute's id is derived from its transaction's (`TX-50123` -> `DP-50123`): one dispute
  per transaction, and two disputes opened in either order get the same ids.
- Money is `Numeric(12, 2)`; a transaction's `amount` is signed (negative = money out of
  the account) and `accounts.balance` is updated with it. Dates are ISO `YYYY-MM-DD`
  strings; timestamps are the domain clock's ISO string.
- Columns the state check ignores carry `info={"volatile": True}`: free text written by
  the agent (reasons, memos, subjects), creation timestamps, and the ids of created rows
  that no other row refers to (transactions, transfers, fee refunds, evidence,
  verifications), so the order in which an agent creates them does not matter. Ticket
  notes are left out of the check altogether (tasks that need one assert it).
- Defaults that tools rely on are `server_default`s, because tools insert with SQL.
"""

from __future__ import annotations

from sqlalchemy import Boolean, ForeignKey, Index, Integer, Numeric, String, Text, false, func, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from tb_env.components import identity

from .tickets import TICKETING

VOLATILE = {"volatile": True}
Money = Numeric(12, 2)


class Base(DeclarativeBase):
    pass


class KycLimit(Base):
    """What each KYC level allows (reference data, the same for every customer)."""

    __tablename__ = "kyc_limits"

    level: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1 basic | 2 standard | 3 premium
    name: Mapped[str] = mapped_column(String(16))
    external_daily_limit: Mapped[float] = mapped_column(Money)  # external transfers per calendar day
    card_daily_spend_max: Mapped[float] = mapped_column(Money)  # highest card spend limit allowed
    atm_daily_max: Mapped[float] = mapped_column(Money)  # highest ATM withdrawal limit allowed
    courtesy_fee_refunds: Mapped[int] = mapped_column(Integer)  # fee refunds per calendar year without approval


class Fee(Base):
    """The public fee schedule."""

    __tablename__ = "fee_schedule"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)  # overdraft, card_replacement, ...
    description: Mapped[str] = mapped_column(String(128))
    amount: Mapped[float] = mapped_column(Money)  # 0 for fees that are a percentage
    notes: Mapped[str] = mapped_column(String(256), server_default=text("''"))


class Customer(Base):
    __tablename__ = "customers"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # CU-0001
    first_name: Mapped[str] = mapped_column(String(64))
    last_name: Mapped[str] = mapped_column(String(64))
    email: Mapped[str] = mapped_column(String(128), unique=True)
    phone: Mapped[str] = mapped_column(String(32))
    date_of_birth: Mapped[str] = mapped_column(String(10))  # used for verification
    address_line1: Mapped[str] = mapped_column(String(128))
    city: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(2))
    zip_code: Mapped[str] = mapped_column(String(10))  # used for verification; cards ship here
    # unverified | pending (documents under review) | verified | rejected
    kyc_status: Mapped[str] = mapped_column(String(16))
    kyc_level: Mapped[int] = mapped_column(Integer, server_default=text("1"))
    joined_on: Mapped[str] = mapped_column(String(10))
    # Set by the risk team; agents never see it, the supervisor desk acts on it.
    risk_flag: Mapped[bool] = mapped_column(Boolean, server_default=false())


class KycDocument(Base):
    __tablename__ = "kyc_documents"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # KD-0001
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    doc_type: Mapped[str] = mapped_column(String(24))  # government_id | proof_of_address | income_verification
    status: Mapped[str] = mapped_column(String(16))  # approved | pending_review | rejected
    submitted_on: Mapped[str] = mapped_column(String(10))
    expires_on: Mapped[str | None] = mapped_column(String(10), nullable=True)


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # AC-0001
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # checking | savings
    nickname: Mapped[str] = mapped_column(String(64))
    number_last4: Mapped[str] = mapped_column(String(4))
    status: Mapped[str] = mapped_column(String(16), server_default=text("'open'"))  # open | frozen | closed
    balance: Mapped[float] = mapped_column(Money)  # ledger balance; available = balance - active holds
    opened_on: Mapped[str] = mapped_column(String(10))


class Hold(Base):
    __tablename__ = "holds"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # HD-0001
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[str] = mapped_column(String(24))  # check_deposit | card_authorization
    amount: Mapped[float] = mapped_column(Money)
    description: Mapped[str] = mapped_column(String(128))
    placed_on: Mapped[str] = mapped_column(String(10))
    release_on: Mapped[str] = mapped_column(String(10))  # when it releases by itself
    status: Mapped[str] = mapped_column(String(16), server_default=text("'active'"))  # active | released
    released_on: Mapped[str | None] = mapped_column(String(10), nullable=True)


class Card(Base):
    __tablename__ = "cards"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # CD-0001
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # physical | virtual
    last4: Mapped[str] = mapped_column(String(4))
    # active | frozen | lost | stolen | closed | pending_activation
    status: Mapped[str] = mapped_column(String(24))
    daily_spend_limit: Mapped[float] = mapped_column(Money)
    atm_daily_limit: Mapped[float] = mapped_column(Money)
    issued_on: Mapped[str] = mapped_column(String(10))
    expires: Mapped[str] = mapped_column(String(7))  # YYYY-MM
    reported_on: Mapped[str | None] = mapped_column(String(10), nullable=True)  # reported lost or stolen
    replaces_card_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    shipping: Mapped[str | None] = mapped_column(String(16), nullable=True)  # standard | expedited (replacements)


class Transaction(Base):
    __tablename__ = "transactions"

    # No other row refers to a transaction created by a tool (fee charges, refunds,
    # credits, transfer legs), so its id is left out of the check.
    id: Mapped[str] = mapped_column(String(24), primary_key=True, info=VOLATILE)  # TX-00001
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    card_id: Mapped[str | None] = mapped_column(ForeignKey("cards.id"), nullable=True)
    posted_on: Mapped[str] = mapped_column(String(10))
    # card_purchase | atm_withdrawal | deposit | transfer_in | transfer_out | fee | fee_refund |
    # provisional_credit | provisional_credit_reversal | interest | merchant_refund
    kind: Mapped[str] = mapped_column(String(32))
    merchant: Mapped[str | None] = mapped_column(String(64), nullable=True)
    fee_code: Mapped[str | None] = mapped_column(String(32), nullable=True)
    amount: Mapped[float] = mapped_column(Money)  # signed: negative = money out
    status: Mapped[str] = mapped_column(String(16), server_default=text("'posted'"))  # pending | posted
    reference_id: Mapped[str | None] = mapped_column(String(24), nullable=True)  # the fee or dispute behind it
    description: Mapped[str] = mapped_column(String(256), info=VOLATILE)


class Approval(Base):
    """A supervisor's decision on an over-limit request; the decision comes back at once."""

    __tablename__ = "approvals"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # AP-0001
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    kind: Mapped[str] = mapped_column(String(24))  # transfer_limit | fee_refund | provisional_credit
    reference_id: Mapped[str] = mapped_column(String(24))  # payee, fee transaction or dispute
    amount: Mapped[float] = mapped_column(Money)
    status: Mapped[str] = mapped_column(String(16))  # approved | denied
    decision_note: Mapped[str] = mapped_column(String(256))
    request_reason: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class Dispute(Base):
    __tablename__ = "disputes"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)  # DP-<transaction number>
    transaction_id: Mapped[str] = mapped_column(String(24), unique=True)
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"))
    # unauthorized | duplicate_charge | wrong_amount | not_received | cancelled_subscription
    reason: Mapped[str] = mapped_column(String(32))
    amount: Mapped[float] = mapped_column(Money)  # the disputed amount (positive)
    status: Mapped[str] = mapped_column(String(16), server_default=text("'open'"))  # open | won | lost | withdrawn
    provisional_credit: Mapped[float] = mapped_column(Money, server_default=text("0"))
    approval_id: Mapped[str | None] = mapped_column(ForeignKey("approvals.id"), nullable=True)
    opened_on: Mapped[str] = mapped_column(String(10))
    closed_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    description: Mapped[str] = mapped_column(Text, info=VOLATILE)


class DisputeEvidence(Base):
    __tablename__ = "dispute_evidence"

    id: Mapped[str] = mapped_column(String(16), primary_key=True, info=VOLATILE)  # EV-0001, unreferenced
    dispute_id: Mapped[str] = mapped_column(ForeignKey("disputes.id"), index=True)
    # receipt | merchant_correspondence | cancellation_confirmation | tracking | police_report
    kind: Mapped[str] = mapped_column(String(32))
    description: Mapped[str] = mapped_column(Text, info=VOLATILE)
    added_on: Mapped[str] = mapped_column(String(10), info=VOLATILE)


class Payee(Base):
    """An external account a customer may send money to."""

    __tablename__ = "payees"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # PY-0001
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    name: Mapped[str] = mapped_column(String(96))
    bank_name: Mapped[str] = mapped_column(String(64))
    routing_number: Mapped[str] = mapped_column(String(9))
    account_last4: Mapped[str] = mapped_column(String(4))
    status: Mapped[str] = mapped_column(String(16), server_default=text("'active'"))  # active | removed
    added_on: Mapped[str] = mapped_column(String(10))


class Transfer(Base):
    __tablename__ = "transfers"

    # No row refers to a transfer, so its id is left out of the check.
    id: Mapped[str] = mapped_column(String(16), primary_key=True, info=VOLATILE)  # TR-0001
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # internal | external
    from_account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    to_account_id: Mapped[str | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)  # internal
    payee_id: Mapped[str | None] = mapped_column(ForeignKey("payees.id"), nullable=True)  # external
    amount: Mapped[float] = mapped_column(Money)
    # scheduled (future date) | pending (sent, external) | completed | cancelled
    status: Mapped[str] = mapped_column(String(16))
    scheduled_for: Mapped[str] = mapped_column(String(10))  # the day the money moves
    created_on: Mapped[str] = mapped_column(String(10))
    cancelled_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    approval_id: Mapped[str | None] = mapped_column(ForeignKey("approvals.id"), nullable=True)
    memo: Mapped[str] = mapped_column(String(256), server_default=text("''"), info=VOLATILE)


class FeeRefund(Base):
    __tablename__ = "fee_refunds"

    id: Mapped[str] = mapped_column(String(16), primary_key=True, info=VOLATILE)  # FR-0001, unreferenced
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    fee_transaction_id: Mapped[str] = mapped_column(String(24), unique=True)
    amount: Mapped[float] = mapped_column(Money)
    refunded_on: Mapped[str] = mapped_column(String(10))  # counts toward that calendar year's allowance
    approval_id: Mapped[str | None] = mapped_column(ForeignKey("approvals.id"), nullable=True)
    reason: Mapped[str] = mapped_column(Text, info=VOLATILE)


TICKETING.declare(Base.metadata)  # tickets, ticket_notes: see tickets.py


identity.declare(Base.metadata, "customer_id", "customers.id")  # identity_verifications


# the identity look-ups compare case-insensitively: without these they scan the table
Index("ix_customers_email_lower", func.lower(Customer.email))
Index("ix_customers_last_name_lower", func.lower(Customer.last_name))

metadata = Base.metadata
