"""The retail tools: what a support agent can look up and change.

Which rules live where (policy.md states all of them to the agent):
- Enforced here (the tool refuses with a `ToolError`): records must exist and belong
  together; cancellations and address changes only before shipping; promotion codes
  (one per order, expiry, minimum); refunds never above what was paid and, above
  `APPROVAL_LIMIT`, only with an approved, unused manager approval.
- Left to the agent, and caught by the state check: identity verification, return
  windows, when a refund is due and where it goes, goodwill amounts, when to add notes,
  close or escalate tickets.

SQL is written here with named parameters; agent values only travel as parameters.
Every timestamp and date comes from `db.now`, the domain clock.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Literal

from tb_env.components import identity
from tb_env.components.contact import update_phone_tool
from tb_env.domain.database import Database
from tb_env.domain.tool import read, write
from tb_env.errors import ToolError

APPROVAL_LIMIT = 200.00  # refunds above this need an approved manager approval
STORE_CREDIT_CAP = 50.00  # the most a single goodwill credit may be, whatever the policy allows
# Records created during an episode are numbered from here (R-9001, AP-9001, T-9001...), so
# the ids in tasks' golden calls do not depend on how many rows the seed generates.
NEW_ID_START = 9001
NOT_SHIPPED = ("pending", "processing")


# -- helpers -----------------------------------------------------------------------------------


def _money(value: Any) -> float:
    return round(float(value or 0) + 1e-9, 2)


async def _new_id(db: Database, table: str, prefix: str) -> str:
    return await db.next_id(table, prefix, start=NEW_ID_START)


def _today(db: Database) -> str:
    return db.now[:10]


def _days_after(db: Database, days: int) -> str:
    return (date.fromisoformat(_today(db)) + timedelta(days=days)).isoformat()


async def _customer(db: Database, customer_id: str) -> dict[str, Any]:
    row = await db.get("customers", customer_id.strip())
    if row is None:
        raise ToolError(f"No customer with id {customer_id!r}. Use find_customer to look up the id.")
    return row


async def _order(db: Database, order_id: str) -> dict[str, Any]:
    row = await db.get("orders", order_id.strip())
    if row is None:
        raise ToolError(f"No order with id {order_id!r}. Order ids look like 'O-1001'.")
    return row



async def _refunded(db: Database, order_id: str) -> float:
    """Money already returned for an order (price adjustments are already netted out of its total)."""
    total = await db.scalar(
        "SELECT COALESCE(SUM(amount), 0) FROM refunds WHERE order_id = :o AND kind <> 'price_adjustment'",
        o=order_id,
    )
    return _money(total)


async def _payment_label(db: Database, payment_method_id: str | None) -> str | None:
    if payment_method_id is None:
        return None
    pm = await db.get("payment_methods", payment_method_id)
    return pm["label"] if pm else None


async def _item_refund_amounts(db: Database, order: dict[str, Any], item_ids: list[str]) -> list[dict[str, Any]]:
    """What the customer paid for each order line: price x quantity less its share of the discount."""
    share = 1 - _money(order["discount"]) / _money(order["subtotal"]) if _money(order["subtotal"]) else 1
    out = []
    for item_id in sorted(set(i.strip() for i in item_ids)):
        item = await db.get("order_items", item_id)
        if item is None or item["order_id"] != order["id"]:
            raise ToolError(f"Order {order['id']} has no item {item_id!r}; get_order lists its item ids.")
        paid = _money(_money(item["unit_price"]) * item["quantity"] * share)
        out.append({"item_id": item_id, "product_name": item["product_name"], "quantity": item["quantity"], "amount": paid})
    if not out:
        raise ToolError("Name at least one order item id.")
    return out


def _shipment_view(s: dict[str, Any]) -> dict[str, Any]:
    return {
        "shipment_id": s["id"],
        "order_id": s["order_id"],
        "carrier": s["carrier"],
        "tracking_number": s["tracking_number"],
        "status": s["status"],
        "exception_reason": s["exception_reason"],
        "shipped_on": s["shipped_on"],
        "eta": s["eta"],
        "delivered_on": s["delivered_on"],
        "replaces_shipment_id": s["replaces_shipment_id"],
    }


def _refund_view(r: dict[str, Any], payment_label: str | None) -> dict[str, Any]:
    return {
        "refund_id": r["id"],
        "order_id": r["order_id"],
        "amount": _money(r["amount"]),
        "kind": r["kind"],
        "destination": r["destination"],
        "payment_method": payment_label,
        "return_id": r["return_id"],
        "approval_id": r["approval_id"],
        "created_at": r["created_at"],
    }



# -- customers and identity --------------------------------------------------------------------


@read
async def find_customer(
    db: Database,
    email: str | None = None,
    first_name: str | None = None,
    last_name: str | None = None,
    zip_code: str | None = None,
) -> list[dict[str, Any]]:
    """Look up customer accounts by email, or by name (and zip code). Returns ids and names only.

    Use it to get the customer id that `verify_identity` needs. Give either `email`, or
    `last_name` with `first_name` and/or `zip_code`. Several customers can share a name:
    add the zip code to narrow the search.

    Args:
        email: The email address on the account.
        first_name: The customer's first name.
        last_name: The customer's last name.
        zip_code: The customer's billing zip code.
    """
    if email:
        rows = await db.all(
            "SELECT id, first_name, last_name FROM customers WHERE LOWER(email) = LOWER(:email) ORDER BY id",
            email=email.strip(),
        )
    elif last_name and (first_name or zip_code):
        where, params = identity.name_filter(last_name, first_name)
        sql = f"SELECT id, first_name, last_name FROM customers WHERE {where}"
        if zip_code:
            sql += " AND zip_code = :zip"
            params["zip"] = zip_code.strip()
        rows = await db.all(sql + " ORDER BY id", **params)
    else:
        raise ToolError("Give an email, or a last name together with a first name and/or zip code.")
    return [{"customer_id": r["id"], "first_name": r["first_name"], "last_name": r["last_name"]} for r in rows]


@write
async def verify_identity(
    db: Database, customer_id: str, email: str, zip_code: str | None = None, order_id: str | None = None
) -> dict[str, Any]:
    """Verify that the person you are talking to owns a customer account, and record it.

    Needs the email on the account plus either the billing zip code or the id of one of the
    customer's orders, all as given by the customer. Fails if any given detail does not
    match. Verifying the same customer again is harmless.

    Args:
        customer_id: The account to verify, from find_customer (like "C-0042").
        email: The email address the customer gave.
        zip_code: The billing zip code the customer gave.
        order_id: The id of one of the customer's orders, as the customer gave it.
    """
    customer = await _customer(db, customer_id)
    if not zip_code and not order_id:
        raise ToolError("Verification needs the zip code or an order id, together with the email.")
    matches = email.strip().lower() == customer["email"].lower()
    if zip_code:
        matches = matches and zip_code.strip() == customer["zip_code"]
    if order_id:
        order = await db.get("orders", order_id.strip())
        matches = matches and order is not None and order["customer_id"] == customer["id"]
    identity.check(matches)
    await identity.record_verification(db, "customer_id", customer["id"], "email_zip" if zip_code else "email_order",
                                       start=NEW_ID_START)
    return {
        "customer_id": customer["id"],
        "name": f"{customer['first_name']} {customer['last_name']}",
        "verified": True,
    }


@read
async def get_customer(db: Database, customer_id: str) -> dict[str, Any]:
    """A verified customer's profile: contact details, membership, saved addresses, payment
    methods and store-credit balance (with its entries).

    Args:
        customer_id: The customer id, like "C-0042".
    """
    c = await _customer(db, customer_id)
    addresses = await db.all(
        "SELECT id, label, line1, city, state, zip_code, is_default FROM addresses WHERE customer_id = :c ORDER BY id",
        c=c["id"],
    )
    methods = await db.all(
        "SELECT id, kind, label, status FROM payment_methods WHERE customer_id = :c ORDER BY id", c=c["id"]
    )
    credits = await db.all(
        "SELECT id, order_id, amount, kind, created_at FROM store_credits WHERE customer_id = :c ORDER BY id",
        c=c["id"],
    )
    return {
        "customer_id": c["id"],
        "first_name": c["first_name"],
        "last_name": c["last_name"],
        "email": c["email"],
        "phone": c["phone"],
        "zip_code": c["zip_code"],
        "membership": c["membership"],
        "member_since": c["member_since"],
        "addresses": [
            {"address_id": a["id"], "label": a["label"], "line1": a["line1"], "city": a["city"],
             "state": a["state"], "zip_code": a["zip_code"], "is_default": bool(a["is_default"])}
            for a in addresses
        ],
        "payment_methods": [
            {"payment_method_id": m["id"], "kind": m["kind"], "label": m["label"], "status": m["status"]}
            for m in methods
        ],
        "store_credit_balance": _money(sum(_money(x["amount"]) for x in credits)),
        "store_credits": [
            {"credit_id": x["id"], "order_id": x["order_id"], "amount": _money(x["amount"]), "kind": x["kind"],
             "created_at": x["created_at"]}
            for x in credits
        ],
    }


update_customer_phone = update_phone_tool(
    table="customers", id_param="customer_id", noun="customer", example="C-0042", lookup=_customer
)


# -- orders --------------------------------------------------------------------------------------


@read
async def list_customer_orders(db: Database, customer_id: str) -> list[dict[str, Any]]:
    """A verified customer's orders, newest first, with status, total and item names.

    Args:
        customer_id: The customer id, like "C-0042".
    """
    c = await _customer(db, customer_id)
    orders = await db.all(
        "SELECT id, status, placed_on, total FROM orders WHERE customer_id = :c ORDER BY placed_on DESC, id DESC",
        c=c["id"],
    )
    out = []
    for o in orders:
        names = await db.all("SELECT product_name FROM order_items WHERE order_id = :o ORDER BY id", o=o["id"])
        out.append({
            "order_id": o["id"],
            "placed_on": o["placed_on"],
            "status": o["status"],
            "total": _money(o["total"]),
            "items": [n["product_name"] for n in names],
        })
    return out


@read
async def get_order(db: Database, order_id: str) -> dict[str, Any]:
    """Everything about one order: items (with item ids), amounts, payment method, shipping
    address, shipments, returns, refunds and what is still refundable.

    Args:
        order_id: The order id, like "O-1001".
    """
    o = await _order(db, order_id)
    items = await db.all(
        "SELECT id, product_id, product_name, quantity, unit_price FROM order_items WHERE order_id = :o ORDER BY id",
        o=o["id"],
    )
    returned = {
        r["order_item_id"]: r["return_id"]
        for r in await db.all(
            "SELECT ri.order_item_id, ri.return_id FROM return_items ri JOIN returns r ON r.id = ri.return_id "
            "WHERE r.order_id = :o",
            o=o["id"],
        )
    }
    address = await db.get("addresses", o["address_id"])
    pm = await db.get("payment_methods", o["payment_method_id"])
    shipments = await db.all("SELECT * FROM shipments WHERE order_id = :o ORDER BY id", o=o["id"])
    returns = await db.all("SELECT id, status, created_at FROM returns WHERE order_id = :o ORDER BY id", o=o["id"])
    refunds = await db.all("SELECT * FROM refunds WHERE order_id = :o ORDER BY id", o=o["id"])
    refunded = await _refunded(db, o["id"])
    return {
        "order_id": o["id"],
        "customer_id": o["customer_id"],
        "status": o["status"],
        "placed_on": o["placed_on"],
        "items": [
            {"item_id": i["id"], "product_id": i["product_id"], "product_name": i["product_name"],
             "quantity": i["quantity"], "unit_price": _money(i["unit_price"]),
             "line_total": _money(_money(i["unit_price"]) * i["quantity"]), "return_id": returned.get(i["id"])}
            for i in items
        ],
        "subtotal": _money(o["subtotal"]),
        "promo_code": o["promo_code"],
        "discount": _money(o["discount"]),
        "shipping_fee": _money(o["shipping_fee"]),
        "total": _money(o["total"]),
        "payment_method": {"payment_method_id": pm["id"], "label": pm["label"], "status": pm["status"]} if pm else None,
        "shipping_address": {"address_id": address["id"], "label": address["label"], "line1": address["line1"],
                             "city": address["city"], "state": address["state"], "zip_code": address["zip_code"]}
        if address else None,
        "shipments": [_shipment_view(s) for s in shipments],
        "returns": [{"return_id": r["id"], "status": r["status"], "created_at": r["created_at"]} for r in returns],
        "refunds": [_refund_view(r, await _payment_label(db, r["payment_method_id"])) for r in refunds],
        "refunded_total": refunded,
        "refundable_remaining": _money(_money(o["total"]) - refunded),
    }


@write
async def cancel_order(db: Database, order_id: str, reason: str) -> dict[str, Any]:
    """Cancel an order that has not shipped yet (status pending or processing).

    The full amount charged is refunded to the original payment method automatically.

    Args:
        order_id: The order id, like "O-1001".
        reason: Why the customer cancels, in a few words.
    """
    o = await _order(db, order_id)
    if o["status"] not in NOT_SHIPPED:
        raise ToolError(
            f"Order {o['id']} is {o['status']}; only pending or processing orders can be cancelled."
        )
    amount = _money(_money(o["total"]) - await _refunded(db, o["id"]))
    await db.update("orders", o["id"], status="cancelled", cancel_reason=reason)
    refund = None
    if amount > 0:
        refund = await db.insert(
            "refunds",
            id=await _new_id(db, "refunds", "RF"),
            order_id=o["id"],
            amount=amount,
            kind="cancellation",
            destination="original_payment_method",
            payment_method_id=o["payment_method_id"],
            reason=f"Order cancelled: {reason}",
            created_at=db.now,
        )
    label = await _payment_label(db, o["payment_method_id"])
    return {
        "order_id": o["id"],
        "status": "cancelled",
        "refund": _refund_view(refund, label) if refund else None,
    }


@write
async def update_shipping_address(db: Database, order_id: str, address_id: str) -> dict[str, Any]:
    """Ship a not-yet-shipped order to another of the customer's saved addresses.

    Args:
        order_id: The order id, like "O-1001".
        address_id: One of the customer's saved addresses (get_customer lists them), like "A-0042".
    """
    o = await _order(db, order_id)
    if o["status"] not in NOT_SHIPPED:
        raise ToolError(f"Order {o['id']} is {o['status']}; the address can only change before it ships.")
    address = await db.get("addresses", address_id.strip())
    if address is None or address["customer_id"] != o["customer_id"]:
        raise ToolError(f"{address_id!r} is not a saved address of this order's customer.")
    await db.update("orders", o["id"], address_id=address["id"])
    return {
        "order_id": o["id"],
        "shipping_address": {"address_id": address["id"], "line1": address["line1"], "city": address["city"],
                             "state": address["state"], "zip_code": address["zip_code"]},
    }


# -- shipments -----------------------------------------------------------------------------------


@read
async def get_shipment(db: Database, order_id: str) -> list[dict[str, Any]]:
    """The shipments of an order: carrier, tracking number, status, exception reason and
    estimated delivery date (eta). Status `exception` means an open shipping exception.

    Args:
        order_id: The order id, like "O-1001".
    """
    o = await _order(db, order_id)
    rows = await db.all("SELECT * FROM shipments WHERE order_id = :o ORDER BY id", o=o["id"])
    return [_shipment_view(s) for s in rows]


@write
async def resolve_address_exception(db: Database, shipment_id: str, address_id: str) -> dict[str, Any]:
    """Redirect a shipment stuck with an `address_issue` exception to a saved address of the
    customer; the parcel goes back in transit with a new estimated delivery date.

    Args:
        shipment_id: The shipment in exception, like "S-10042".
        address_id: The customer's saved address to deliver to, like "A-0042".
    """
    s = await db.get("shipments", shipment_id.strip())
    if s is None:
        raise ToolError(f"No shipment with id {shipment_id!r}; get_shipment lists an order's shipments.")
    if s["status"] != "exception" or s["exception_reason"] != "address_issue":
        raise ToolError(f"Shipment {s['id']} has no open address_issue exception (status {s['status']}).")
    o = await _order(db, s["order_id"])
    address = await db.get("addresses", address_id.strip())
    if address is None or address["customer_id"] != o["customer_id"]:
        raise ToolError(f"{address_id!r} is not a saved address of this order's customer.")
    eta = _days_after(db, 3)
    await db.update("orders", o["id"], address_id=address["id"])
    await db.update("shipments", s["id"], status="in_transit", eta=eta)
    return {"shipment_id": s["id"], "order_id": o["id"], "status": "in_transit", "eta": eta,
            "address_id": address["id"]}


@write
async def reship_order(db: Database, order_id: str, shipment_id: str) -> dict[str, Any]:
    """Send a free replacement for a shipment that is `lost` or `damaged_in_transit`.

    Creates a new shipment of the same items and closes the old shipment's exception
    (status `replaced`).

    Args:
        order_id: The order id, like "O-1001".
        shipment_id: The lost or damaged shipment, like "S-10042".
    """
    o = await _order(db, order_id)
    s = await db.get("shipments", shipment_id.strip())
    if s is None or s["order_id"] != o["id"]:
        raise ToolError(f"Order {o['id']} has no shipment {shipment_id!r}.")
    if s["status"] != "exception" or s["exception_reason"] not in ("lost", "damaged_in_transit"):
        raise ToolError(
            f"Shipment {s['id']} is not lost or damaged in transit (status {s['status']}, "
            f"exception {s['exception_reason']}); only those can be reshipped."
        )
    if await _refunded(db, o["id"]) >= _money(o["total"]):
        raise ToolError(f"Order {o['id']} has been refunded in full; it cannot also be reshipped.")
    new_id = await _new_id(db, "shipments", "S")
    eta = _days_after(db, 5)
    new = await db.insert(
        "shipments",
        id=new_id,
        order_id=o["id"],
        carrier=s["carrier"],
        tracking_number=f"{s['carrier'][:2].upper()}R{new_id[2:]}",
        status="label_created",
        eta=eta,
        replaces_shipment_id=s["id"],
    )
    await db.update("shipments", s["id"], status="replaced")
    return {"replaced_shipment_id": s["id"], "new_shipment": _shipment_view(new)}


# -- products and promotions ---------------------------------------------------------------------


@read
async def get_product(db: Database, product_id: str) -> dict[str, Any]:
    """A product's name, category, current price and units in stock.

    Args:
        product_id: The product id, like "P-1004".
    """
    p = await db.get("products", product_id.strip())
    if p is None:
        raise ToolError(f"No product with id {product_id!r}; search_products finds ids by name.")
    return {"product_id": p["id"], "name": p["name"], "category": p["category"], "price": _money(p["price"]),
            "stock": p["stock"], "in_stock": p["stock"] > 0, "active": bool(p["active"])}


@read
async def search_products(db: Database, query: str, category: str | None = None) -> list[dict[str, Any]]:
    """Find products whose name contains the query (case-insensitive); at most 20 results.

    Args:
        query: Words from the product name, like "blender".
        category: Optionally one of kitchen, electronics, sports, apparel, home, toys, garden.
    """
    sql = "SELECT * FROM products WHERE LOWER(name) LIKE :q AND active = :yes"
    params: dict[str, Any] = {"q": f"%{query.strip().lower()}%", "yes": True}
    if category:
        sql += " AND LOWER(category) = LOWER(:cat)"
        params["cat"] = category.strip()
    rows = await db.all(sql + " ORDER BY id LIMIT 20", **params)
    return [{"product_id": p["id"], "name": p["name"], "category": p["category"], "price": _money(p["price"]),
             "stock": p["stock"], "in_stock": p["stock"] > 0} for p in rows]


@read
async def get_promotion(db: Database, code: str) -> dict[str, Any]:
    """The public terms of a promotion code: discount, minimum subtotal, expiry and whether
    it can be used today. Needs no verification.

    Args:
        code: The promotion code, like "SAVE20".
    """
    p = await db.get("promotions", code.strip().upper())
    if p is None:
        raise ToolError(f"No promotion code {code!r}.")
    if not p["active"]:
        usable = "inactive"
    elif p["expires_on"] < _today(db):
        usable = "expired"
    else:
        usable = "valid"
    return {"code": p["code"], "description": p["description"], "kind": p["kind"], "value": _money(p["value"]),
            "min_subtotal": _money(p["min_subtotal"]), "expires_on": p["expires_on"], "status": usable}


@write
async def apply_promo_code(db: Database, order_id: str, code: str) -> dict[str, Any]:
    """Apply a promotion code to an order that has not shipped yet; the discount is refunded
    to the order's original payment method. One code per order.

    Args:
        order_id: The order id, like "O-1001".
        code: The promotion code, like "SAVE20".
    """
    o = await _order(db, order_id)
    p = await db.get("promotions", code.strip().upper())
    if p is None:
        raise ToolError(f"No promotion code {code!r}.")
    if o["status"] not in NOT_SHIPPED:
        raise ToolError(f"Order {o['id']} is {o['status']}; codes can only be applied before an order ships.")
    if o["promo_code"]:
        raise ToolError(f"Order {o['id']} already uses code {o['promo_code']}; only one code per order.")
    if not p["active"]:
        raise ToolError(f"Code {p['code']} is no longer active.")
    if p["expires_on"] < _today(db):
        raise ToolError(f"Code {p['code']} expired on {p['expires_on']}.")
    subtotal = _money(o["subtotal"])
    if subtotal < _money(p["min_subtotal"]):
        raise ToolError(
            f"Code {p['code']} needs a subtotal of at least {_money(p['min_subtotal']):.2f}; "
            f"order {o['id']} has {subtotal:.2f}."
        )
    if p["kind"] == "percent":
        discount = _money(subtotal * _money(p["value"]) / 100)
    else:
        discount = min(_money(p["value"]), subtotal)
    total = _money(_money(o["total"]) - discount)
    await db.update("orders", o["id"], promo_code=p["code"], discount=discount, total=total)
    refund = await db.insert(
        "refunds",
        id=await _new_id(db, "refunds", "RF"),
        order_id=o["id"],
        amount=discount,
        kind="price_adjustment",
        destination="original_payment_method",
        payment_method_id=o["payment_method_id"],
        reason=f"Promotion {p['code']} applied after checkout",
        created_at=db.now,
    )
    return {"order_id": o["id"], "promo_code": p["code"], "discount": discount, "new_total": total,
            "refund": _refund_view(refund, await _payment_label(db, o["payment_method_id"]))}


# -- returns and refunds -------------------------------------------------------------------------


@read
async def calculate_refund_amount(db: Database, order_id: str, item_ids: list[str]) -> dict[str, Any]:
    """What the customer paid for some items of an order: unit price x quantity, less the
    items' share of the order discount. Shipping is not included.

    Args:
        order_id: The order id, like "O-1001".
        item_ids: Order item ids from get_order, like ["O-1001-2"].
    """
    o = await _order(db, order_id)
    items = await _item_refund_amounts(db, o, item_ids)
    return {"order_id": o["id"], "items": items, "total": _money(sum(i["amount"] for i in items))}


@write
async def create_return(db: Database, order_id: str, item_ids: list[str], reason: str) -> dict[str, Any]:
    """Open a return for whole lines of a delivered order. Does not refund anything by itself.

    Args:
        order_id: The order id, like "O-1001".
        item_ids: The order item ids to return (get_order lists them), like ["O-1001-2"].
        reason: Why the customer returns the items, in their words.
    """
    o = await _order(db, order_id)
    if o["status"] != "delivered":
        raise ToolError(f"Order {o['id']} is {o['status']}; only delivered orders can be returned.")
    items = await _item_refund_amounts(db, o, item_ids)
    for item in items:
        taken = await db.scalar("SELECT return_id FROM return_items WHERE order_item_id = :i", i=item["item_id"])
        if taken:
            raise ToolError(f"Item {item['item_id']} is already in return {taken}.")
    return_id = await _new_id(db, "returns", "R")
    await db.insert("returns", id=return_id, order_id=o["id"], status="requested", reason=reason, created_at=db.now)
    for item in items:
        await db.insert("return_items", id=f"{return_id}/{item['item_id']}", return_id=return_id,
                        order_item_id=item["item_id"], quantity=item["quantity"])
    return {"return_id": return_id, "order_id": o["id"], "status": "requested", "items": items,
            "refund_amount": _money(sum(i["amount"] for i in items))}


@read
async def get_return(db: Database, return_id: str) -> dict[str, Any]:
    """A return's status, items and any refunds issued for it.

    Args:
        return_id: The return id, like "R-0042".
    """
    r = await db.get("returns", return_id.strip())
    if r is None:
        raise ToolError(f"No return with id {return_id!r}.")
    items = await db.all(
        "SELECT ri.order_item_id, ri.quantity, oi.product_name, oi.unit_price FROM return_items ri "
        "JOIN order_items oi ON oi.id = ri.order_item_id WHERE ri.return_id = :r ORDER BY ri.order_item_id",
        r=r["id"],
    )
    refunds = await db.all("SELECT * FROM refunds WHERE return_id = :r ORDER BY id", r=r["id"])
    return {
        "return_id": r["id"],
        "order_id": r["order_id"],
        "status": r["status"],
        "reason": r["reason"],
        "created_at": r["created_at"],
        "items": [{"item_id": i["order_item_id"], "product_name": i["product_name"], "quantity": i["quantity"],
                   "unit_price": _money(i["unit_price"])} for i in items],
        "refunds": [_refund_view(f, await _payment_label(db, f["payment_method_id"])) for f in refunds],
    }


@read
async def get_refund(db: Database, refund_id: str) -> dict[str, Any]:
    """One refund: amount, kind, where the money went, and the return or approval behind it.

    Args:
        refund_id: The refund id, like "RF-0042".
    """
    r = await db.get("refunds", refund_id.strip())
    if r is None:
        raise ToolError(f"No refund with id {refund_id!r}.")
    return _refund_view(r, await _payment_label(db, r["payment_method_id"]))


@write
async def request_manager_approval(db: Database, order_id: str, amount: float, reason: str) -> dict[str, Any]:
    """Ask a manager to approve a refund above $200.00. The decision comes back at once:
    `approved` (pass the approval_id to issue_refund) or `denied` (do not refund).

    Asking again for the same order and amount returns the existing decision.

    Args:
        order_id: The order id, like "O-1001".
        amount: The exact refund amount to approve, in dollars.
        reason: Why the refund is due, in a sentence.
    """
    o = await _order(db, order_id)
    amount = _money(amount)
    if amount <= APPROVAL_LIMIT:
        raise ToolError(f"Refunds of {APPROVAL_LIMIT:.2f} or less need no approval; call issue_refund directly.")
    remaining = _money(_money(o["total"]) - await _refunded(db, o["id"]))
    if amount > remaining:
        raise ToolError(f"Order {o['id']} has only {remaining:.2f} left to refund.")
    existing = await db.one(
        "SELECT a.* FROM approvals a WHERE a.order_id = :o AND a.amount = :amount "
        "AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.approval_id = a.id) ORDER BY a.id",
        o=o["id"],
        amount=amount,
    )
    if existing is None:
        customer = await _customer(db, o["customer_id"])
        lost = await db.scalar(
            "SELECT COUNT(*) FROM shipments WHERE order_id = :o AND status = 'exception' "
            "AND exception_reason IN ('lost', 'damaged_in_transit')",
            o=o["id"],
        )
        if customer["risk_hold"]:
            status, note = "denied", "Denied: this account needs review by the account team before any refund."
        elif o["status"] != "delivered" and not lost:
            status, note = "denied", f"Denied: order is {o['status']} and nothing was delivered, lost or damaged."
        else:
            status, note = "approved", "Approved: within refund policy."
        existing = await db.insert(
            "approvals",
            id=await _new_id(db, "approvals", "AP"),
            order_id=o["id"],
            amount=amount,
            status=status,
            decision_note=note,
            request_reason=reason,
            created_at=db.now,
        )
    return {"approval_id": existing["id"], "order_id": o["id"], "amount": _money(existing["amount"]),
            "status": existing["status"], "decision_note": existing["decision_note"]}


@read
async def get_approval(db: Database, approval_id: str) -> dict[str, Any]:
    """A manager approval: order, amount, decision, and whether a refund already used it.

    Args:
        approval_id: The approval id, like "AP-0042".
    """
    a = await db.get("approvals", approval_id.strip())
    if a is None:
        raise ToolError(f"No approval with id {approval_id!r}.")
    used = await db.scalar("SELECT id FROM refunds WHERE approval_id = :a", a=a["id"])
    return {"approval_id": a["id"], "order_id": a["order_id"], "amount": _money(a["amount"]),
            "status": a["status"], "decision_note": a["decision_note"], "used_by_refund": used}


@write
async def issue_refund(
    db: Database,
    order_id: str,
    amount: float,
    reason: str,
    destination: Literal["original_payment_method", "store_credit"] = "original_payment_method",
    return_id: str | None = None,
    approval_id: str | None = None,
) -> dict[str, Any]:
    """Refund money for a shipped or delivered order. Refunds above $200.00 need the id of an
    approved manager approval for this order and at least this amount. Passing a return id
    marks that return refunded.

    Args:
        order_id: The order id, like "O-1001".
        amount: The amount to refund, in dollars.
        reason: Why the refund is issued, in a sentence.
        destination: Where the money goes: the order's original payment method, or store credit.
        return_id: The return this refund settles, if any, like "R-0042".
        approval_id: The manager approval, required above $200.00, like "AP-0042".
    """
    o = await _order(db, order_id)
    if o["status"] in NOT_SHIPPED:
        raise ToolError(f"Order {o['id']} has not shipped; cancel it (cancel_order) instead of refunding.")
    if o["status"] == "cancelled":
        raise ToolError(f"Order {o['id']} is cancelled and was refunded when it was cancelled.")
    amount = _money(amount)
    if amount <= 0:
        raise ToolError("The refund amount must be positive.")
    remaining = _money(_money(o["total"]) - await _refunded(db, o["id"]))
    if amount > remaining:
        raise ToolError(f"Order {o['id']} has only {remaining:.2f} left to refund; {amount:.2f} is too much.")
    approval = None
    if approval_id:
        approval = await db.get("approvals", approval_id.strip())
        if approval is None or approval["order_id"] != o["id"]:
            raise ToolError(f"{approval_id!r} is not an approval for order {o['id']}.")
        if approval["status"] != "approved":
            raise ToolError(f"Approval {approval['id']} was {approval['status']}; this refund cannot be issued.")
        if amount > _money(approval["amount"]):
            raise ToolError(f"Approval {approval['id']} covers {_money(approval['amount']):.2f}, less than {amount:.2f}.")
        if await db.scalar("SELECT id FROM refunds WHERE approval_id = :a", a=approval["id"]):
            raise ToolError(f"Approval {approval['id']} was already used by another refund.")
    elif amount > APPROVAL_LIMIT:
        raise ToolError(
            f"Refunds above {APPROVAL_LIMIT:.2f} need a manager approval: call request_manager_approval first."
        )
    ret = None
    if return_id:
        ret = await db.get("returns", return_id.strip())
        if ret is None or ret["order_id"] != o["id"]:
            raise ToolError(f"{return_id!r} is not a return of order {o['id']}.")
        if ret["status"] == "refunded":
            raise ToolError(f"Return {ret['id']} has already been refunded.")
        await db.update("returns", ret["id"], status="refunded")
    refund = await db.insert(
        "refunds",
        id=await _new_id(db, "refunds", "RF"),
        order_id=o["id"],
        amount=amount,
        kind="refund",
        destination=destination,
        payment_method_id=o["payment_method_id"] if destination == "original_payment_method" else None,
        return_id=ret["id"] if ret else None,
        approval_id=approval["id"] if approval else None,
        reason=reason,
        created_at=db.now,
    )
    if destination == "store_credit":
        await db.insert("store_credits", id=await _new_id(db, "store_credits", "SC"), customer_id=o["customer_id"],
                        order_id=o["id"], amount=amount, kind="refund", reason=reason, created_at=db.now)
    label = await _payment_label(db, refund["payment_method_id"])
    return _refund_view(refund, label if destination == "original_payment_method" else "store credit")


@write
async def issue_store_credit(db: Database, customer_id: str, order_id: str, amount: float, reason: str) -> dict[str, Any]:
    """Give a verified customer a goodwill store credit for trouble with one of their orders
    (at most $50.00 per credit).

    Args:
        customer_id: The customer id, like "C-0042".
        order_id: The order the credit is for, like "O-1001".
        amount: The credit in dollars.
        reason: Why the credit is given, in a sentence.
    """
    c = await _customer(db, customer_id)
    o = await _order(db, order_id)
    if o["customer_id"] != c["id"]:
        raise ToolError(f"Order {o['id']} does not belong to customer {c['id']}.")
    amount = _money(amount)
    if not 0 < amount <= STORE_CREDIT_CAP:
        raise ToolError(f"A goodwill credit must be between 0.01 and {STORE_CREDIT_CAP:.2f}.")
    credit = await db.insert("store_credits", id=await _new_id(db, "store_credits", "SC"), customer_id=c["id"],
                             order_id=o["id"], amount=amount, kind="goodwill", reason=reason, created_at=db.now)
    balance = await db.scalar("SELECT COALESCE(SUM(amount), 0) FROM store_credits WHERE customer_id = :c", c=c["id"])
    return {"credit_id": credit["id"], "customer_id": c["id"], "order_id": o["id"], "amount": amount,
            "store_credit_balance": _money(balance)}
