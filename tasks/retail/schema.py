"""The retail backend's tables: customers, their orders and everything support touches.

Conventions the tools and the state check rely on:
- Ids are readable strings with a prefix (`C-0001`, `O-1001`, `T-2041`); records that
  tools create get theirs from `Database.next_id`, so a replay and an agent that create
  the same records get the same ids. Order lines are `<order id>-<n>` (`O-1001-2`).
- Money is `Numeric(10, 2)`; dates are ISO `YYYY-MM-DD` strings; timestamps are the
  domain clock's ISO string.
- Columns the state check ignores carry `info={"volatile": True}`: free text written by
  the agent (reasons, subjects), creation timestamps, and the ids of created rows that no
  other row refers to (refunds, credits, verifications), so the order in which an agent
  creates them does not matter. Ticket notes are left out of the check altogether.
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


class Customer(Base):
    __tablename__ = "customers"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # C-0001
    first_name: Mapped[str] = mapped_column(String(64))
    last_name: Mapped[str] = mapped_column(String(64))
    email: Mapped[str] = mapped_column(String(128), unique=True)
    phone: Mapped[str] = mapped_column(String(32))
    zip_code: Mapped[str] = mapped_column(String(10))  # billing zip, used for verification
    membership: Mapped[str] = mapped_column(String(16), server_default=text("'basic'"))  # basic | plus
    # Set by the fraud team; agents never see it, the approval desk acts on it.
    risk_hold: Mapped[bool] = mapped_column(Boolean, server_default=false())
    member_since: Mapped[str] = mapped_column(String(10))


class Address(Base):
    __tablename__ = "addresses"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # A-0001
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    label: Mapped[str] = mapped_column(String(32))  # home, work, ...
    line1: Mapped[str] = mapped_column(String(128))
    city: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(2))
    zip_code: Mapped[str] = mapped_column(String(10))
    is_default: Mapped[bool] = mapped_column(Boolean, server_default=false())


class PaymentMethod(Base):
    __tablename__ = "payment_methods"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # PM-0001
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))  # card | paypal | gift_card
    label: Mapped[str] = mapped_column(String(64))  # "Visa ending 4242"
    status: Mapped[str] = mapped_column(String(16), server_default=text("'active'"))  # active | closed


class Product(Base):
    __tablename__ = "products"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # P-1001
    name: Mapped[str] = mapped_column(String(128))
    category: Mapped[str] = mapped_column(String(32))
    price: Mapped[float] = mapped_column(Money)
    stock: Mapped[int] = mapped_column(Integer)
    active: Mapped[bool] = mapped_column(Boolean, server_default=true())


class Promotion(Base):
    __tablename__ = "promotions"

    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    description: Mapped[str] = mapped_column(String(256))
    kind: Mapped[str] = mapped_column(String(16))  # percent | fixed
    value: Mapped[float] = mapped_column(Money)
    min_subtotal: Mapped[float] = mapped_column(Money, server_default=text("0"))
    expires_on: Mapped[str] = mapped_column(String(10))
    active: Mapped[bool] = mapped_column(Boolean, server_default=true())


class Order(Base):
    __tablename__ = "orders"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # O-1001
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    # pending | processing (not shipped yet) | shipped | delivered | cancelled
    status: Mapped[str] = mapped_column(String(16))
    placed_on: Mapped[str] = mapped_column(String(10))
    address_id: Mapped[str] = mapped_column(ForeignKey("addresses.id"))
    payment_method_id: Mapped[str] = mapped_column(ForeignKey("payment_methods.id"))
    subtotal: Mapped[float] = mapped_column(Money)
    discount: Mapped[float] = mapped_column(Money, server_default=text("0"))
    shipping_fee: Mapped[float] = mapped_column(Money, server_default=text("0"))
    total: Mapped[float] = mapped_column(Money)  # subtotal - discount + shipping_fee: what was charged
    promo_code: Mapped[str | None] = mapped_column(ForeignKey("promotions.code"), nullable=True)
    cancel_reason: Mapped[str | None] = mapped_column(Text, nullable=True, info=VOLATILE)


class OrderItem(Base):
    __tablename__ = "order_items"

    id: Mapped[str] = mapped_column(String(24), primary_key=True)  # O-1001-1
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    product_id: Mapped[str] = mapped_column(ForeignKey("products.id"))
    product_name: Mapped[str] = mapped_column(String(128))  # as sold
    quantity: Mapped[int] = mapped_column(Integer)
    unit_price: Mapped[float] = mapped_column(Money)  # as sold


class Shipment(Base):
    __tablename__ = "shipments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # S-10001
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    carrier: Mapped[str] = mapped_column(String(32))
    tracking_number: Mapped[str] = mapped_column(String(32))
    # label_created | in_transit | delivered | exception (open) | replaced | cancelled
    status: Mapped[str] = mapped_column(String(16))
    exception_reason: Mapped[str | None] = mapped_column(String(32), nullable=True)  # carrier_delay | address_issue | lost | damaged_in_transit
    shipped_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    eta: Mapped[str | None] = mapped_column(String(10), nullable=True)
    delivered_on: Mapped[str | None] = mapped_column(String(10), nullable=True)
    replaces_shipment_id: Mapped[str | None] = mapped_column(String(16), nullable=True)


class Return(Base):
    __tablename__ = "returns"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # R-0001
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    status: Mapped[str] = mapped_column(String(16), server_default=text("'requested'"))  # requested | received | refunded
    reason: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class ReturnItem(Base):
    __tablename__ = "return_items"

    id: Mapped[str] = mapped_column(String(48), primary_key=True)  # <return id>/<order item id>
    return_id: Mapped[str] = mapped_column(ForeignKey("returns.id"), index=True)
    order_item_id: Mapped[str] = mapped_column(ForeignKey("order_items.id"))
    quantity: Mapped[int] = mapped_column(Integer)


class Approval(Base):
    """A manager's decision on a refund above the limit; the refund tool requires one."""

    __tablename__ = "approvals"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # AP-0001
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    amount: Mapped[float] = mapped_column(Money)
    status: Mapped[str] = mapped_column(String(16))  # approved | denied
    decision_note: Mapped[str] = mapped_column(String(256))
    request_reason: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class Refund(Base):
    __tablename__ = "refunds"

    # No row refers to a refund, so its id is left out of the check: an agent that makes
    # the same refunds in another order (cancel first, or return first) gets the same state.
    id: Mapped[str] = mapped_column(String(16), primary_key=True, info=VOLATILE)  # RF-0001
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), index=True)
    amount: Mapped[float] = mapped_column(Money)
    kind: Mapped[str] = mapped_column(String(24))  # refund | cancellation | price_adjustment
    destination: Mapped[str] = mapped_column(String(32))  # original_payment_method | store_credit
    payment_method_id: Mapped[str | None] = mapped_column(ForeignKey("payment_methods.id"), nullable=True)
    return_id: Mapped[str | None] = mapped_column(ForeignKey("returns.id"), nullable=True)
    approval_id: Mapped[str | None] = mapped_column(ForeignKey("approvals.id"), nullable=True)
    reason: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


class StoreCredit(Base):
    """The store-credit ledger; a customer's balance is the sum of their rows."""

    __tablename__ = "store_credits"

    id: Mapped[str] = mapped_column(String(16), primary_key=True, info=VOLATILE)  # SC-0001, unreferenced
    customer_id: Mapped[str] = mapped_column(ForeignKey("customers.id"), index=True)
    order_id: Mapped[str | None] = mapped_column(ForeignKey("orders.id"), nullable=True)
    amount: Mapped[float] = mapped_column(Money)
    kind: Mapped[str] = mapped_column(String(16))  # goodwill | refund
    reason: Mapped[str] = mapped_column(Text, info=VOLATILE)
    created_at: Mapped[str] = mapped_column(String(32), info=VOLATILE)


TICKETING.declare(Base.metadata)  # tickets, ticket_notes: see tickets.py


identity.declare(Base.metadata, "customer_id", "customers.id")  # identity_verifications


# the identity look-ups compare case-insensitively: without these they scan the table
Index("ix_customers_email_lower", func.lower(Customer.email))
Index("ix_customers_last_name_lower", func.lower(Customer.last_name))

metadata = Base.metadata
