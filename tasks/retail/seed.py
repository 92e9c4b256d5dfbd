"""The retail base data: a few hundred customers with order histories, built deterministically.

`build()` depends on nothing but the fixed seed below (no network, no wall clock), so
every process builds the same rows. Dates run up to the domain clock, 2026-11-30.
Natural distractors come for free: several customers share a first or last name, and
most customers have older orders of the same products.

Tasks never depend on a particular generated row: each task's `initial_patch` adds the
customers and orders its scenario is about, with ids in ranges this file never uses
(customers, addresses, payment methods, returns and shipments 5000-6999, tickets
T-2000 to T-3999, orders from O-80000). Records that tools create are numbered from 9001
(see `tools.NEW_ID_START`), so the ids in golden calls do not depend on this file either.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

SEED = 20261130
TODAY = date(2026, 11, 30)
N_CUSTOMERS = 200

FIRST_NAMES = [
    "Alice", "Ben", "Carla", "David", "Elena", "Frank", "Grace", "Hector", "Irene", "Jamal",
    "Karen", "Liam", "Maya", "Noah", "Olivia", "Pedro", "Quinn", "Rosa", "Samuel", "Tara",
    "Umar", "Vera", "Walter", "Xena", "Yusuf", "Zoe", "Aaron", "Bianca", "Caleb", "Diana",
    "Ethan", "Fiona", "George", "Hannah", "Isaac", "Julia", "Kevin", "Laura", "Marcus", "Nina",
    "Oscar", "Priya", "Ravi", "Sofia", "Thomas", "Ursula", "Victor", "Wendy", "Yara", "Zach",
]
LAST_NAMES = [
    "Anderson", "Brooks", "Chen", "Diaz", "Evans", "Foster", "Gupta", "Hughes", "Ibrahim", "Jensen",
    "Kowalski", "Lopez", "Morgan", "Nguyen", "Okafor", "Patel", "Quinlan", "Reyes", "Santos", "Turner",
    "Ueda", "Vargas", "Walsh", "Young", "Zimmerman", "Bauer", "Castillo", "Dubois", "Ferreira", "Greene",
]
CITIES = [  # (city, state, zip codes)
    ("Portland", "OR", ["97201", "97205", "97214"]),
    ("Austin", "TX", ["78701", "78704", "78745"]),
    ("Denver", "CO", ["80202", "80205", "80220"]),
    ("Columbus", "OH", ["43201", "43215", "43220"]),
    ("Raleigh", "NC", ["27601", "27603", "27609"]),
    ("Madison", "WI", ["53703", "53705", "53711"]),
    ("Sacramento", "CA", ["95811", "95814", "95819"]),
    ("Tucson", "AZ", ["85701", "85705", "85719"]),
]
STREETS = ["Maple Ave", "Oak St", "Cedar Ln", "Pine St", "Elm St", "Birch Rd", "Lakeview Dr", "Hillcrest Blvd", "River Rd", "Sunset Way"]
CARD_BRANDS = ["Visa", "Mastercard", "Amex"]
CARRIERS = {"UPS": "1Z", "FedEx": "FX", "USPS": "94"}

PRODUCTS = [  # (name, category, price)
    ("Stainless Steel Water Bottle", "kitchen", 24.99), ("Ceramic Mug Set (4)", "kitchen", 32.00),
    ("Cast Iron Skillet 12in", "kitchen", 45.50), ("High-Speed Blender", "kitchen", 129.99),
    ("Espresso Machine", "kitchen", 349.00), ("Chef's Knife 8in", "kitchen", 79.95),
    ("Bamboo Cutting Board", "kitchen", 19.99), ("Electric Kettle", "kitchen", 39.99),
    ("Air Fryer 5qt", "kitchen", 119.00), ("Stand Mixer", "kitchen", 429.00),
    ("Wireless Earbuds", "electronics", 89.99), ("Noise-Cancelling Headphones", "electronics", 249.00),
    ("Bluetooth Speaker", "electronics", 59.99), ("USB-C Charger 65W", "electronics", 34.99),
    ("Smartwatch Series 5", "electronics", 299.00), ("13in Laptop", "electronics", 849.00),
    ("Mechanical Keyboard", "electronics", 109.00), ("Wireless Mouse", "electronics", 29.99),
    ("27in Monitor", "electronics", 279.99), ("Portable SSD 1TB", "electronics", 119.99),
    ("E-Reader", "electronics", 139.99), ("Action Camera", "electronics", 199.00),
    ("Yoga Mat", "sports", 29.50), ("Adjustable Dumbbells", "sports", 219.00),
    ("Running Shoes", "sports", 120.00), ("Cycling Helmet", "sports", 64.99),
    ("Camping Tent 2-Person", "sports", 189.00), ("Hiking Backpack 40L", "sports", 99.00),
    ("Insulated Jacket", "apparel", 149.00), ("Wool Sweater", "apparel", 85.00),
    ("Rain Boots", "apparel", 55.00), ("Leather Belt", "apparel", 35.00),
    ("Cotton T-Shirt 3-Pack", "apparel", 29.99), ("Denim Jeans", "apparel", 69.50),
    ("Down Comforter Queen", "home", 179.00), ("Linen Sheet Set", "home", 129.00),
    ("Memory Foam Pillow", "home", 49.99), ("Robot Vacuum", "home", 399.00),
    ("LED Desk Lamp", "home", 42.00), ("Air Purifier", "home", 229.00),
    ("Scented Candle Trio", "home", 27.00), ("Bath Towel Set", "home", 59.00),
    ("Board Game Collection", "toys", 44.99), ("Building Blocks 1000pc", "toys", 74.99),
    ("Remote Control Car", "toys", 54.99), ("Jigsaw Puzzle 2000pc", "toys", 24.00),
    ("Garden Hose 50ft", "garden", 38.99), ("Cordless Drill", "garden", 139.00),
    ("Pruning Shears", "garden", 26.50), ("Outdoor String Lights", "garden", 33.99),
]

PROMOTIONS = [  # (code, description, kind, value, min subtotal, expires on, active)
    ("WELCOME10", "10% off a first order", "percent", 10, 0, "2026-12-31", True),
    ("SAVE20", "$20 off orders of $100 or more", "fixed", 20, 100, "2026-12-15", True),
    ("HOLIDAY15", "15% off holiday orders of $50 or more", "percent", 15, 50, "2026-12-24", True),
    ("CYBER25", "25% off, Cyber Monday only", "percent", 25, 0, "2026-11-27", True),
    ("FALL5", "$5 off any order", "fixed", 5, 0, "2026-10-31", True),
    ("FREESHIP", "$7 off (covers standard shipping)", "fixed", 7, 25, "2027-03-31", True),
    ("KITCHEN12", "12% off orders of $75 or more", "percent", 12, 75, "2027-01-15", True),
    ("SPRING10", "10% off spring orders", "percent", 10, 0, "2026-05-31", True),
    ("VIP50", "$50 off orders of $400 or more", "fixed", 50, 400, "2027-06-30", True),
    ("SUMMER20", "20% off summer orders", "percent", 20, 0, "2026-08-31", True),
    ("PRICEMATCH", "Retired price-match code", "fixed", 10, 0, "2026-12-31", False),
    ("NEWYEAR30", "$30 off orders of $150 or more", "fixed", 30, 150, "2027-01-31", True),
]

TICKET_SUBJECTS = {
    "shipping": "Where is my package?",
    "return": "Question about returning an item",
    "refund": "Refund not received yet",
    "order_change": "Need to change my order",
    "product": "Product question",
}


def _money(x: float) -> float:
    return round(x + 1e-9, 2)


def _iso(d: date) -> str:
    return d.isoformat()


def build() -> dict[str, list[dict[str, Any]]]:
    """All base rows, by table."""
    rng = random.Random(SEED)
    rows: dict[str, list[dict[str, Any]]] = {
        name: [] for name in (
            "customers", "addresses", "payment_methods", "products", "promotions", "orders",
            "order_items", "shipments", "returns", "return_items", "approvals", "refunds",
            "store_credits", "tickets", "ticket_notes",
        )
    }

    for i, (name, category, price) in enumerate(PRODUCTS):
        rows["products"].append({
            "id": f"P-{1001 + i}", "name": name, "category": category, "price": price,
            "stock": rng.choice([0, 3, 8, 15, 25, 40, 60, 120]), "active": True,
        })
    promos = {}
    for code, desc, kind, value, min_sub, expires, active in PROMOTIONS:
        promos[code] = {"code": code, "description": desc, "kind": kind, "value": value,
                        "min_subtotal": min_sub, "expires_on": expires, "active": active}
        rows["promotions"].append(promos[code])

    # -- customers, their addresses and payment methods --------------------------------------
    emails: set[str] = set()
    customers = []
    for n in range(1, N_CUSTOMERS + 1):
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        local = f"{first}.{last}".lower()
        email, k = f"{local}@example.com", 2
        while email in emails:
            email, k = f"{local}{k}@example.com", k + 1
        emails.add(email)
        city, state, zips = rng.choice(CITIES)
        zip_code = rng.choice(zips)
        cid = f"C-{n:04d}"
        customer = {
            "id": cid, "first_name": first, "last_name": last, "email": email,
            "phone": f"555-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}", "zip_code": zip_code,
            "membership": "plus" if rng.random() < 0.2 else "basic", "risk_hold": rng.random() < 0.02,
            "member_since": _iso(date(2021, 1, 1) + timedelta(days=rng.randint(0, 1700))),
        }
        rows["customers"].append(customer)
        addresses = [{
            "id": f"A-{len(rows['addresses']) + 1:04d}", "customer_id": cid, "label": "home",
            "line1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)}", "city": city, "state": state,
            "zip_code": zip_code, "is_default": True,
        }]
        rows["addresses"].append(addresses[0])
        if rng.random() < 0.4:
            wcity, wstate, wzips = rng.choice(CITIES)
            addresses.append({
                "id": f"A-{len(rows['addresses']) + 1:04d}", "customer_id": cid, "label": "work",
                "line1": f"{rng.randint(10, 9999)} {rng.choice(STREETS)}", "city": wcity, "state": wstate,
                "zip_code": rng.choice(wzips), "is_default": False,
            })
            rows["addresses"].append(addresses[1])
        methods = []
        for j in range(1 if rng.random() < 0.6 else 2):
            if j == 1 and rng.random() < 0.5:
                pm = {"kind": "paypal", "label": f"PayPal ({email})"}
            else:
                pm = {"kind": "card", "label": f"{rng.choice(CARD_BRANDS)} ending {rng.randint(1000, 9999)}"}
            pm.update(id=f"PM-{len(rows['payment_methods']) + 1:04d}", customer_id=cid,
                      status="closed" if rng.random() < 0.05 else "active")
            rows["payment_methods"].append(pm)
            methods.append(pm)
        customers.append((customer, addresses, methods))

    # -- orders: drawn per customer, numbered in date order -----------------------------------
    drafts = []
    for customer, addresses, methods in customers:
        for _ in range(rng.randint(2, 6)):
            recent = rng.random() < 0.15  # an active shop: some orders are still on their way
            placed = TODAY - timedelta(days=rng.randint(1, 10) if recent else rng.randint(1, 450))
            drafts.append((placed, customer, addresses, methods))
    drafts.sort(key=lambda d: (d[0], d[1]["id"]))

    ticket_n, note_n, refund_n, return_n, approval_n, credit_n = 1001, 1, 1, 1, 1, 1
    for k, (placed, customer, addresses, methods) in enumerate(drafts):
        oid = f"O-{1001 + k}"
        items = []
        for line, product in enumerate(rng.sample(rows["products"], rng.choice([1, 1, 1, 2, 2, 3])), start=1):
            qty = 1 if rng.random() < 0.85 else 2
            items.append({"id": f"{oid}-{line}", "order_id": oid, "product_id": product["id"],
                          "product_name": product["name"], "quantity": qty, "unit_price": product["price"]})
        subtotal = _money(sum(i["unit_price"] * i["quantity"] for i in items))
        shipping = 0.0 if subtotal >= 50 else 5.99
        promo, discount = None, 0.0
        if rng.random() < 0.12:
            usable = [p for p in promos.values()
                      if p["active"] and p["expires_on"] >= _iso(placed) and subtotal >= p["min_subtotal"]]
            if usable:
                p = rng.choice(usable)
                promo = p["code"]
                discount = _money(subtotal * p["value"] / 100) if p["kind"] == "percent" else min(p["value"], subtotal)
        total = _money(subtotal - discount + shipping)
        age = (TODAY - placed).days
        if age <= 2:
            status = rng.choice(["pending", "processing"])
        elif k > 0 and rng.random() < 0.04:  # O-1001 (the docs' example) is a delivered order
            status = "cancelled"
        else:
            status = "delivered"
        address = rng.choice(addresses)
        method = rng.choice(methods)
        order = {"id": oid, "customer_id": customer["id"], "status": status, "placed_on": _iso(placed),
                 "address_id": address["id"], "payment_method_id": method["id"], "subtotal": subtotal,
                 "discount": discount, "shipping_fee": shipping, "total": total, "promo_code": promo,
                 "cancel_reason": "Customer changed their mind" if status == "cancelled" else None}
        rows["orders"].append(order)
        rows["order_items"].extend(items)

        if status == "cancelled":
            rows["refunds"].append({
                "id": f"RF-{refund_n:04d}", "order_id": oid, "amount": total, "kind": "cancellation",
                "destination": "original_payment_method", "payment_method_id": method["id"],
                "reason": "Order cancelled before shipping", "created_at": f"{_iso(placed)}T15:00:00Z"})
            refund_n += 1
            continue
        if status in ("pending", "processing"):
            continue

        # shipped: delivered unless it left recently; a few recent parcels hit an exception
        carrier = rng.choice(list(CARRIERS))
        shipped = placed + timedelta(days=1)
        transit = rng.randint(2, 6)
        shipment = {"id": f"S-{1001 + len(rows['shipments'])}", "order_id": oid, "carrier": carrier,
                    "tracking_number": f"{CARRIERS[carrier]}{rng.randint(10**9, 10**10 - 1)}",
                    "status": "delivered", "exception_reason": None, "shipped_on": _iso(shipped),
                    "eta": _iso(shipped + timedelta(days=transit)), "delivered_on": None,
                    "replaces_shipment_id": None}
        if shipped + timedelta(days=transit) >= TODAY:
            order["status"] = "shipped"
            if rng.random() < 0.25:
                shipment.update(status="exception", exception_reason=rng.choice(["carrier_delay", "address_issue"]),
                                eta=_iso(TODAY + timedelta(days=rng.randint(2, 6))))
            else:
                shipment["status"] = "in_transit"
        else:
            shipment["delivered_on"] = shipment["eta"]
        rows["shipments"].append(shipment)

        # history: some delivered orders were returned and refunded
        if order["status"] == "delivered" and rng.random() < 0.06:
            item = items[0]
            delivered = date.fromisoformat(shipment["delivered_on"])
            when = f"{_iso(delivered + timedelta(days=rng.randint(2, 20)))}T10:00:00Z"
            rid = f"R-{return_n:04d}"
            return_n += 1
            rows["returns"].append({"id": rid, "order_id": oid, "status": "refunded",
                                    "reason": "No longer needed", "created_at": when})
            rows["return_items"].append({"id": f"{rid}/{item['id']}", "return_id": rid,
                                         "order_item_id": item["id"], "quantity": item["quantity"]})
            amount = _money(item["unit_price"] * item["quantity"] * (1 - discount / subtotal))
            approval_id = None
            if amount > 200:
                approval_id = f"AP-{approval_n:04d}"
                approval_n += 1
                rows["approvals"].append({"id": approval_id, "order_id": oid, "amount": amount,
                                          "status": "approved", "decision_note": "Within policy",
                                          "request_reason": "Returned item", "created_at": when})
            rows["refunds"].append({
                "id": f"RF-{refund_n:04d}", "order_id": oid, "amount": amount, "kind": "refund",
                "destination": "original_payment_method", "payment_method_id": method["id"],
                "return_id": rid, "approval_id": approval_id, "reason": "Return received",
                "created_at": when})
            refund_n += 1

        # history: support tickets, mostly closed
        if rng.random() < 0.18:
            category = rng.choice(list(TICKET_SUBJECTS))
            open_now = shipment["status"] == "exception" or rng.random() < 0.1
            tid = f"T-{ticket_n}"
            ticket_n += 1
            opened = placed + timedelta(days=rng.randint(1, 5))
            rows["tickets"].append({
                "id": tid, "customer_id": customer["id"], "order_id": oid, "subject": TICKET_SUBJECTS[category],
                "category": category, "status": "open" if open_now else "closed", "priority": "normal",
                "created_at": f"{_iso(min(opened, TODAY))}T09:30:00Z"})
            for author in ["customer", "agent"][: rng.randint(1, 2)]:
                rows["ticket_notes"].append({
                    "id": f"N-{note_n:04d}", "ticket_id": tid, "author": author,
                    "body": "Customer asked for an update." if author == "customer" else "Replied with the status.",
                    "created_at": f"{_iso(min(opened, TODAY))}T10:00:00Z"})
                note_n += 1
            if category == "shipping" and rng.random() < 0.4:  # a goodwill credit for the trouble
                rows["store_credits"].append({
                    "id": f"SC-{credit_n:04d}", "customer_id": customer["id"], "order_id": oid, "amount": 10,
                    "kind": "goodwill", "reason": "Carrier delay", "created_at": f"{_iso(min(opened, TODAY))}T11:00:00Z"})
                credit_n += 1
    return rows
