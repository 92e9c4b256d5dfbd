"""The retail task templates: `python -m tb_env.tasks.retail.generate [--check] [--validate]`.

A template (the `@template(...)` functions below, one per scenario) builds one
task from a seeded `RetailScene`: the customer and the records the scenario needs (rows
from the split's pools, so test and train never share a customer or an order), what the
caller knows and will tell when asked, the golden calls and reply, the assertions and the
wrong paths. The kit (`tb_env.kit`) numbers the instances, writes
`tasks/<split>/gen_<template>.yaml` and runs the probes of `tb-env validate` on them.

How these templates keep the reward right (docs/adding-a-domain.md, "Writing tasks that
grade right"):
- a reply fact is required only where the customer asked for it or the policy demands it,
  and says which (`why`); a refusal requires the policy's reason, in the wordings a
  competent agent uses (aliases), so a generic "sorry, I can't" scores 0;
- values (amounts, dates, ids) count wherever the agent tells them (`tells`), reasons only in
  its answer after the last tool call (`says`), where its own questions do not count;
- the golden reply states each required fact in one wording only, so the validator's
  wrong-fact probe proves that the fact is really checked;
- the caller says yes to an agent proposing what the golden writes do, in the words agents
  use (`PROPOSALS`), and the deterministic user answers what it is asked from its facts;
- every choice the expected state depends on (which order, item, address, refund or
  replacement) is in the first message or a known fact the caller gives when asked;
- what a caller may not hear (another customer's data, an account after a failed
  verification) is `must_not_disclose`; what may not be read is `no_call`: nothing of the
  account before `verify_identity` succeeds (`verified_first`, added to every template that
  verifies), and nothing of a namesake's at any time (`namesake_untouched`);
- a refund is told with where it goes (`goes_to`: the card's last digits, 'PayPal' or 'the
  original payment method'), a change with the value it changed to (the new phone number, the
  address, the return id, a ticket that is now closed), so "All done." scores 0;
- reasons are phrases specific to the reason (`VERIFY_FAILED`, `ONE_CODE`, `ALREADY_CREDITED`...),
  never a single generic word ("verify", "already", "only for") a wrong reason also contains;
- how each action the customer asked for ended is an `outcome` in the shared vocabulary of
  `tb_env.domain.stance`: every golden write is `done` (`derived_outcomes`, from `ACTIONS`); what the
  policy refused, what waits on the warehouse, what was put off or handed on are stated by the template
  (`refused`, `pending`, `not_done`), so "I couldn't refund it yet" after the refund and "I've
  cancelled it" after a refusal score 0; `says_not` is left for what that vocabulary cannot know
  (store credit against the card, the other remedy, a return "opened", another call-back time, the
  action said of the look-alike record); a write's refund (a cancellation's, a code's) is a `done` refund too
  (`REFUNDED_BY`), and a question-only template states `not_done` for the writes its customer could think
  were made (`nothing_done`);
- a value with a direction keeps it: the old and the new phone number (`phone_roles`), the address an order
  goes to and the ones it does not (`address_roles`), an estimated delivery date not said as shipped, earlier
  or delivered (`eta_told`).

Amounts are computed the way the tools compute them (`Order.paid`, `promo_discount`), so the
golden path replays. Hand-written tasks sit beside the generated ones and name, in
`tags.template`, the template their scenario is an instance of.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from tb_env.components.ticketing import CLAIMS as TICKET_CLAIMS
from tb_env.domain.normalize import contains_fact
from tb_env.kit import (
    Caller,
    Golden,
    Pool,
    Scene,
    TaskSpec,
    Templates,
    absent,
    append,
    call,
    count,
    drop,
    exists,
    fact,
    must_not_disclose,
    no_call,
    outcome,
    outcomes,
    replace,
    reply,
    says,
    says_not,
    unchanged,
)
from tb_env.kit.spec import UNASKED_WHY

from . import seed
from .tools import APPROVAL_LIMIT, NEW_ID_START

HERE = Path(__file__).parent
TODAY = date(2026, 11, 30)  # the domain clock's day (see __init__.py)
REDIRECT_ETA = (TODAY + timedelta(days=3)).isoformat()  # resolve_address_exception: today + 3
RESHIP_ETA = (TODAY + timedelta(days=5)).isoformat()  # reship_order: today + 5
NEW_RETURN = f"R-{NEW_ID_START}"  # ids of the first record of each kind an episode creates
NEW_APPROVAL = f"AP-{NEW_ID_START}"
NEW_SHIPMENT = f"S-{NEW_ID_START}"
NEW_TICKET = f"T-{NEW_ID_START}"

# Tasks per template and split (long templates get more: a sixth of the tasks need 8+ calls);
# hand-written tasks come on top.
COUNTS = {"test": 4, "train": 2}
LONG_COUNTS = {"test": 5, "train": 3}

TABLES = (
    "customers", "addresses", "payment_methods", "products", "orders", "order_items", "shipments",
    "returns", "return_items", "approvals", "refunds", "store_credits", "tickets",
)


def money(x: float) -> float:
    return round(float(x) + 1e-9, 2)


def fmt(x: float) -> str:
    return f"{money(x):.2f}"


def day(offset: int) -> str:
    """The ISO date `offset` days after today (negative: before)."""
    return (TODAY + timedelta(days=offset)).isoformat()


# -- the catalogue and the promotions, as the seed defines them ---------------------------------


@dataclass(frozen=True)
class Product:
    id: str
    name: str
    category: str
    price: float

    @property
    def lower(self) -> str:
        """The name as a customer writes it: 'USB-C charger 65W', 'rain boots'."""
        return spoken(self.name)


def spoken(name: str) -> str:
    return " ".join(w.lower() if w[1:] == w[1:].lower() else w for w in name.split())


CATALOG = [Product(f"P-{1001 + i}", n, c, p) for i, (n, c, p) in enumerate(seed.PRODUCTS)]
PROMOS = {code: dict(zip(("code", "description", "kind", "value", "min_subtotal", "expires_on", "active"),
                         (code, *rest), strict=True)) for code, *rest in seed.PROMOTIONS}


def products(lo: float = 0, hi: float = 10_000, exclude: tuple[Product, ...] = ()) -> list[Product]:
    return [p for p in CATALOG if lo <= p.price <= hi and p not in exclude]


def promo_discount(code: str, subtotal: float) -> float:
    p = PROMOS[code]
    return money(subtotal * p["value"] / 100) if p["kind"] == "percent" else min(float(p["value"]), subtotal)


def promo_usable(code: str, subtotal: float) -> bool:
    p = PROMOS[code]
    return bool(p["active"]) and p["expires_on"] >= TODAY.isoformat() and subtotal >= p["min_subtotal"]


# -- per-split pools: names and ids never shared between test and train -------------------------

NAMES = {
    "test": (
        ["Adaeze", "Bruno", "Celine", "Dorian", "Esme", "Felix", "Gemma", "Hugo", "Ines", "Jonah", "Kira",
         "Lars", "Mireille", "Nils", "Odette", "Pablo", "Rhea", "Silas", "Thea", "Ulric", "Valentina",
         "Wyatt", "Ximena", "Yosef", "Zora", "Anouk", "Basil", "Cosima", "Dario", "Elif"],
        ["Ashdown", "Bellamy", "Carrow", "Drummond", "Ellery", "Fairbanks", "Galloway", "Hartigan", "Ivers",
         "Jessup", "Kingsley", "Lockhart", "Marchetti", "Northcott", "Oduya", "Pemberton", "Radcliffe",
         "Sorensen", "Thackeray", "Underhill", "Valdez", "Whitcombe", "Yamada", "Zeller", "Achterberg",
         "Bramwell", "Cavanagh", "Delacourt", "Eastwood", "Falconer"],
    ),
    "train": (
        ["Amara", "Bertrand", "Clio", "Dante", "Eloise", "Fabian", "Greta", "Idris", "Juno", "Kasper",
         "Leandra", "Matteo", "Nadia", "Orrin", "Paloma", "Rocco", "Saskia", "Tomas", "Una", "Viggo",
         "Wilhelmina", "Xavi", "Yvette", "Zeno", "Ansel", "Brigid", "Cyrus", "Delphine", "Emrys", "Farah"],
        ["Albright", "Blackwood", "Crane", "Dunmore", "Ekwueme", "Fenwick", "Gallo", "Hollis", "Iqbal",
         "Jardine", "Kessler", "Lindgren", "Mercer", "Nakamura", "Ortega", "Prescott", "Quist", "Rowntree",
         "Stavros", "Tremblay", "Upton", "Vickers", "Wainwright", "Yilmaz", "Zamora", "Ambrose", "Beaumont",
         "Calloway", "Dacosta", "Esposito"],
    ),
}
# Customers, addresses, payment methods, shipments, returns, refunds and credits start from one
# number per split; orders and tickets have their own. Hand-written tasks use lower numbers
# (C-5001.., O-80xxx/O-81xxx, T-20xx..T-22xx for test; C-6001.., O-91xxx, T-30xx.. for train).
ID_BASE = {"test": 5400, "train": 6400}
ORDER_BASE = {"test": 82001, "train": 92001}
TICKET_BASE = {"test": 2501, "train": 3501}
AREA_CODES = {"OR": "503", "TX": "512", "CO": "303", "OH": "614", "NC": "919", "WI": "608", "CA": "916", "AZ": "520"}
CARRIERS = {"UPS": "1Z", "FedEx": "FX", "USPS": "9400"}


def retail_pool(split: str) -> Pool:
    return Pool(split, names=NAMES, bases={"O": ORDER_BASE, "T": TICKET_BASE}, default_base=ID_BASE)


# -- the records of one scenario ----------------------------------------------------------------


@dataclass
class Customer:
    row: dict[str, Any]
    addresses: dict[str, dict[str, Any]]  # by label
    pm: dict[str, Any]  # the payment method its orders use

    @property
    def id(self) -> str:
        return self.row["id"]

    @property
    def email(self) -> str:
        return self.row["email"]

    @property
    def zip(self) -> str:
        return self.row["zip_code"]

    @property
    def first(self) -> str:
        return self.row["first_name"]

    @property
    def last(self) -> str:
        return self.row["last_name"]

    @property
    def full(self) -> str:
        return f"{self.first} {self.last}"

    @property
    def plus(self) -> bool:
        return self.row["membership"] == "plus"

    @property
    def window(self) -> int:
        return 60 if self.plus else 30

    @property
    def goodwill(self) -> float:
        return 20.0 if self.plus else 10.0

    @property
    def home(self) -> dict[str, Any]:
        return self.addresses["home"]

    def knows(self, **more: Any) -> dict[str, Any]:
        """What the customer tells when asked: the identity details, then the scenario's facts."""
        return {"email": self.email, "zip_code": self.zip, **more}

    def private(self) -> list[str]:
        """What nobody but this verified customer may hear about the account."""
        # (the city too: "the other Dorian Drummond, in Portland" tells where a stranger lives; the card's last
        # digits: "the one on file ends in 1358" is the answer a failed verification lacked)
        last4 = self.pm["label"].split()[-1] if self.pm["kind"] == "card" else None
        return [self.id, self.zip, self.home["line1"], self.home["city"], self.row["phone"], *filter(None, [last4])]


def pay_label(pm: dict[str, Any]) -> str:
    """How a reply names a payment method: 'Visa ending in 4417' or 'PayPal account'."""
    if pm["kind"] == "paypal":
        return "PayPal account"
    brand, _, last4 = pm["label"].split()
    return f"{brand} ending in {last4}"


@dataclass
class Order:
    row: dict[str, Any]
    items: list[dict[str, Any]]
    shipment: dict[str, Any] | None = None

    @property
    def id(self) -> str:
        return self.row["id"]

    @property
    def total(self) -> float:
        return self.row["total"]

    @property
    def subtotal(self) -> float:
        return self.row["subtotal"]

    def item(self, n: int) -> dict[str, Any]:
        return self.items[n]

    def paid(self, *items: dict[str, Any]) -> float:
        """What the customer paid for these lines: the tools' refund formula."""
        sub = money(self.row["subtotal"])
        share = 1 - money(self.row["discount"]) / sub if sub else 1
        return money(sum(money(money(i["unit_price"]) * i["quantity"] * share) for i in items))


class RetailScene(Scene):
    """The rows of one retail task, built the way the seed and the tools shape them."""

    def __init__(self, pool: Pool, rng: random.Random):
        super().__init__(pool, rng, TABLES)

    # people ----------------------------------------------------------------------------------

    def customer(
        self,
        *,
        membership: str = "basic",
        risk_hold: bool = False,
        name: tuple[str, str] | None = None,
        email_suffix: str = "",
        city: tuple[str, str, list[str]] | None = None,
        extra: tuple[str, ...] = (),
        pm_kind: str | None = None,
        pm_closed: bool = False,
        second_pm: bool = False,
    ) -> Customer:
        rng = self.rng
        first, last = name or self.pool.name()
        city_name, state, zips = city or rng.choice(seed.CITIES)
        zip_code = rng.choice(zips)
        cid = self.pool.id("C")
        row = self.add("customers", {
            "id": cid, "first_name": first, "last_name": last,
            "email": f"{first}.{last}{email_suffix}@example.com".lower(),
            "phone": f"{AREA_CODES[state]}-555-{rng.randint(100, 199):04d}", "zip_code": zip_code,
            "membership": membership, "risk_hold": risk_hold,
            "member_since": day(-rng.randint(200, 1800)),
        })
        addresses = {"home": self.address(cid, "home", city_name, state, zip_code, default=True)}
        for label in extra:
            c2, s2, z2 = rng.choice(seed.CITIES) if label == "parents" else (city_name, state, zips)
            other_zip = rng.choice([z for z in z2 if z != zip_code] or z2)
            addresses[label] = self.address(cid, label, c2, s2, other_zip)
        kind = pm_kind or rng.choice(["card", "card", "card", "paypal"])
        pm = self.payment_method(cid, kind, row["email"], closed=pm_closed)
        if second_pm:
            self.payment_method(cid, "card", row["email"])
        return Customer(row, addresses, pm)

    def twin(self, c: Customer, **kw: Any) -> Customer:
        """Another customer with the same name, in another city: never shares a zip code."""
        city = next(x for x in seed.CITIES if x[0] != c.home["city"])
        return self.customer(name=(c.first, c.last), email_suffix="2", city=city, **kw)

    def moved(self) -> Customer:
        """A customer with an old address (where the carrier failed), a new home and a work address."""
        c = self.customer(extra=("work",))
        old = self.address(c.id, "old apartment", c.home["city"], c.home["state"], c.home["zip_code"])
        old["line1"] += " Apt 2"
        c.addresses["old apartment"] = old
        return c

    def address(self, cid: str, label: str, city: str, state: str, zip_code: str, default: bool = False) -> dict[str, Any]:
        return self.add("addresses", {
            "id": self.pool.id("A"), "customer_id": cid, "label": label,
            "line1": f"{self.rng.randint(12, 4999)} {self.rng.choice(seed.STREETS)}",
            "city": city, "state": state, "zip_code": zip_code, "is_default": default,
        })

    def payment_method(self, cid: str, kind: str, email: str, closed: bool = False) -> dict[str, Any]:
        label = (f"PayPal ({email})" if kind == "paypal"
                 else f"{self.rng.choice(seed.CARD_BRANDS)} ending {self.rng.randint(1000, 9999)}")
        return self.add("payment_methods", {
            "id": self.pool.id("PM"), "customer_id": cid, "kind": kind, "label": label,
            "status": "closed" if closed else "active",
        })

    # orders and shipments --------------------------------------------------------------------

    def order(
        self,
        c: Customer,
        lines: list[tuple[Product, int]] | list[Product],
        status: str,
        placed: int,
        *,
        promo: str | None = None,
        fee: float | None = None,
        address: dict[str, Any] | None = None,
    ) -> Order:
        oid = self.pool.id("O")
        norm = [(x, 1) if isinstance(x, Product) else x for x in lines]
        items = [{"id": f"{oid}-{n}", "order_id": oid, "product_id": p.id, "product_name": p.name,
                  "quantity": q, "unit_price": p.price} for n, (p, q) in enumerate(norm, start=1)]
        subtotal = money(sum(p.price * q for p, q in norm))
        discount = promo_discount(promo, subtotal) if promo else 0.0
        fee = fee if fee is not None else (0.0 if subtotal >= 50 else 5.99)
        row = self.add("orders", {
            "id": oid, "customer_id": c.id, "status": status, "placed_on": day(placed),
            "address_id": (address or c.home)["id"], "payment_method_id": c.pm["id"],
            "subtotal": subtotal, "discount": discount, "shipping_fee": fee,
            "total": money(subtotal - discount + fee), "promo_code": promo,
        })
        for it in items:
            self.add("order_items", it)
        return Order(row, items)

    def ship(self, o: Order, status: str, shipped: int, *, eta: int | None = None, delivered: int | None = None,
             reason: str | None = None) -> dict[str, Any]:
        carrier = self.rng.choice(list(CARRIERS))
        digits = 13 - len(CARRIERS[carrier]) if carrier == "USPS" else 10
        tracking = CARRIERS[carrier] + "".join(str(self.rng.randint(0, 9)) for _ in range(digits))
        s = self.add("shipments", {
            "id": self.pool.id("S"), "order_id": o.id, "carrier": carrier, "tracking_number": tracking,
            "status": status, "exception_reason": reason, "shipped_on": day(shipped),
            "eta": day(eta if eta is not None else (delivered if delivered is not None else shipped + 4)),
            "delivered_on": day(delivered) if delivered is not None else None,
        })
        o.shipment = s
        return s

    def delivered(self, c: Customer, lines: Any, ago: int, **kw: Any) -> Order:
        """An order delivered `ago` days before today."""
        transit = self.rng.randint(2, 5)
        o = self.order(c, lines, "delivered", -(ago + transit + 1), **kw)
        self.ship(o, "delivered", -(ago + transit), delivered=-ago)
        return o

    def on_the_way(self, c: Customer, lines: Any, eta: int, *, reason: str | None = None, placed: int | None = None,
                   **kw: Any) -> Order:
        """A shipped order: in transit, or in exception with `reason`."""
        placed = placed if placed is not None else -self.rng.randint(3, 8)
        o = self.order(c, lines, "shipped", placed, **kw)
        self.ship(o, "exception" if reason else "in_transit", placed + 1, eta=eta, reason=reason)
        return o

    def unshipped(self, c: Customer, lines: Any, **kw: Any) -> Order:
        return self.order(c, lines, self.rng.choice(["pending", "processing"]), -self.rng.randint(0, 2), **kw)

    def cancelled(self, c: Customer, lines: Any, ago: int) -> Order:
        o = self.order(c, lines, "cancelled", -ago)
        o.row["cancel_reason"] = "Customer changed their mind"
        self.refund(o, o.total, "cancellation", ago=ago)
        return o

    def damaged_order(self, c: Customer, n_lines: int, hi: float, promo_ok: bool, lo: float = 15) -> Order:
        """A recently delivered order of `n_lines` products, at most $200 in all (so that refunding the
        whole order by mistake needs no approval and goes through); with `promo_ok`, one that used a code."""
        rng = self.rng
        for _ in range(500):
            lines = rng.sample(products(lo, hi), n_lines)
            sub = sum(p.price for p in lines)
            if sub > APPROVAL_LIMIT:
                continue
            if not promo_ok:
                return self.delivered(c, lines, ago=rng.randint(2, 14))
            code = next((x for x in ("SAVE20", "HOLIDAY15", "KITCHEN12", "NEWYEAR30") if promo_usable(x, sub)), None)
            if code:
                return self.delivered(c, lines, ago=rng.randint(2, 14), promo=code)
        raise RuntimeError("no order fits")

    def lost_order(self, c: Customer, hi: float, lo: float = 15, expedited: bool = True) -> Order:
        """A shipped order whose parcel is lost or damaged in transit; often with a shipping fee."""
        rng = self.rng
        lines = rng.sample(products(lo, hi), rng.choice([1, 2]))
        while sum(p.price for p in lines) > hi:
            lines = lines[:1]
        fee = rng.choice([9.99, 14.99]) if expedited and sum(p.price for p in lines) >= 50 else None
        return self.on_the_way(c, lines, eta=-rng.randint(2, 6), reason=rng.choice(list(LOST)), placed=-rng.randint(9, 14),
                               fee=fee)

    def lines_for(self, code: str, lo_extra: float = 10) -> list[Product]:
        """Products whose subtotal reaches the code's minimum."""
        need = float(PROMOS[code]["min_subtotal"]) + lo_extra
        for _ in range(200):
            lines = self.rng.sample(products(15, 450), self.rng.choice([1, 2]))
            if sum(p.price for p in lines) >= need:
                return lines
        raise RuntimeError(code)

    # support records -------------------------------------------------------------------------

    def ticket(self, c: Customer, o: Order | None, subject: str, category: str, status: str = "open",
               ago: int = 2) -> dict[str, Any]:
        return self.add("tickets", {
            "id": self.pool.id("T"), "customer_id": c.id, "order_id": o.id if o else None,
            "subject": subject, "category": category, "status": status, "priority": "normal",
            "created_at": f"{day(-ago)}T{self.rng.randint(8, 17):02d}:{self.rng.choice(['05', '20', '35', '50'])}:00Z",
        })

    def return_(self, o: Order, items: list[dict[str, Any]], status: str, reason: str, ago: int) -> dict[str, Any]:
        rid = self.pool.id("R")
        row = self.add("returns", {"id": rid, "order_id": o.id, "status": status, "reason": reason,
                                   "created_at": f"{day(-ago)}T10:00:00Z"})
        for it in items:
            self.add("return_items", {"id": f"{rid}/{it['id']}", "return_id": rid, "order_item_id": it["id"],
                                      "quantity": it["quantity"]})
        return row

    def refund(self, o: Order, amount: float, kind: str, *, ret: dict[str, Any] | None = None,
               ago: int = 5) -> dict[str, Any]:
        return self.add("refunds", {
            "id": self.pool.id("RF"), "order_id": o.id, "amount": money(amount), "kind": kind,
            "destination": "original_payment_method", "payment_method_id": o.row["payment_method_id"],
            "return_id": ret["id"] if ret else None, "approval_id": None,
            "reason": "Return received" if ret else "Order cancelled before shipping",
            "created_at": f"{day(-ago)}T15:00:00Z",
        })

    def credit(self, c: Customer, o: Order, amount: float, ago: int = 5) -> dict[str, Any]:
        return self.add("store_credits", {
            "id": self.pool.id("SC"), "customer_id": c.id, "order_id": o.id, "amount": amount, "kind": "goodwill",
            "reason": "Carrier delay", "created_at": f"{day(-ago)}T11:00:00Z",
        })


# the verbs a reply reports each write in: a task whose golden path made no such write fails "I've escalated it",
# "I also refunded the fee" (`tb_env.kit.spec.unasked_writes`; first person only, so true earlier states pass)
CLAIMS: dict[str, tuple[str, ...]] = {
    # (a note is no escalation here: the policy escalates with escalate_ticket, which sets the status escalated)
    **TICKET_CLAIMS, "add_ticket_note": ("note",), "issue_refund": ("refund", "reimburse"), "cancel_order": ("cancel",),
    "reship_order": ("reship", "resend", "replace", "reissue", "dispatch"),
    "apply_promo_code": ("apply",), "issue_store_credit": ("credit", "apply", "compensate"),
    "resolve_address_exception": ("redirect", "reroute"), "update_shipping_address": ("redirect", "reroute"),
    "request_manager_approval": ("escalate",),
    # what no retail tool does, so no reply may report it: a charge, a fee waived, a shipment sped up
    "_charge": ("charge",), "_waive": ("waive",), "_expedite": ("expedite", "upgrade"),
}
# the writes a reply reports by their noun ("I've added a 10.00 goodwill credit", "I've opened a return", "I've
# sent you a replacement", "I've requested manager approval"): verbs too common to forbid alone ("added",
# "opened", "sent"), forbidden in the first person with the write's noun in the clause (`near`), where the golden
# path made no such write (nor a write in `skip`, which takes the same words) and no outcome says it was done or
# waits: tool -> (the action of its outcomes, participles, nouns, skip)
NOUN_CLAIMS: list[tuple[str, str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = [
    ("issue_store_credit", "add", ("added", "given you", "granted", "applied", "provided", "put"),
     ("credit", "goodwill", "voucher", "gift card", "compensation"), ()),
    # ("issued" only with the credit's own nouns: "I've issued the refund to your credit card" is a refund)
    ("issue_store_credit", "add", ("issued", "issued you", "sent", "sent you"),
     ("store credit", "account credit", "goodwill", "voucher", "gift card", "courtesy credit"), ()),
    ("reship_order", "replace", ("sent", "shipped", "arranged", "ordered", "set up", "created", "organized", "issued",
                                 "put in", "placed"), ("replacement", "new one", "another one", "new shipment"), ()),
    ("issue_refund", "refund", ("issued", "processed", "sent", "put through", "initiated", "started", "arranged",
                                "submitted", "approved", "given you"), ("refund", "reimbursement", "money back"),
     ("cancel_order", "apply_promo_code")),
    ("create_return", "return", ("opened", "started", "created", "set up", "initiated", "raised", "filed", "submitted",
                                 "registered"), ("return", "return label", "rma"), ()),
    ("request_manager_approval", "approve", ("requested", "submitted", "sent", "asked for", "sought", "put in",
                                             "forwarded", "referred"), ("approval", "manager", "supervisor"),
     ("escalate_ticket",)),
    ("create_ticket", "ticket", ("created", "opened", "raised", "filed"), ("ticket", "case"), ()),
    ("update_customer_phone", "update", ("updated", "changed", "saved", "set", "replaced", "corrected"),
     ("phone", "mobile", "contact number"), ()),
    ("update_shipping_address", "change", ("updated", "changed", "switched", "corrected", "set", "moved"),
     ("address", "delivery to", "deliver to", "ship to"), ("resolve_address_exception",)),
    ("apply_promo_code", "apply", ("added", "applied", "used", "put"), ("code", "promo", "coupon", "discount"),
     ("issue_store_credit",)),
    ("update_ticket_status", "close", ("marked", "set", "changed", "updated", "moved", "switched"),
     ("as resolved", "as closed", "to resolved", "to closed", "as complete", "as done", "as solved"), ()),
]
NOUN_PERSON = ("i have {pp}", "i have also {pp}", "i have now {pp}", "i have just {pp}", "i also {pp}", "i {pp}",
               "we have {pp}", "i have gone ahead and {pp}", "and have {pp}", "and also {pp}")
# the second verb of a compound report ("I reported it and escalated it", "I checked and refunded your fee"): the
# kit's first-person wordings (`unasked_writes`) start with "I"; these start with "and", bound to an object
COMPOUND = ("and {pp} it", "and {pp} them", "and {pp} this", "and {pp} your", "and have {pp}", "and have also {pp}",
            "and also {pp}", "and then {pp}", "and {pp} ticket", "and {pp} order", "and {pp} the ticket",
            "and {pp} the order")


RETURN_WINDOW_WORDS = ("return", "window", "send it back", "send them back", "send back", "ship it back")


def other_window(patch: dict[str, list[dict[str, Any]]], customer_id: str, reply_text: str | None) -> list[dict[str, Any]]:
    """The other tier's return window said as this customer's (pattern 1): "you can return it within 60 days" to a
    basic member (30 days), or 30 to a plus member; the policy states both, so the figure is grounded either way."""
    row = next((c for c in patch.get("customers", []) if c["id"] == customer_id), None)
    if row is None:
        return []
    other = "30 days" if row["membership"] == "plus" else "60 days"
    if reply_text and contains_fact(reply_text, other):
        return []
    return [says_not(claim(other, near=RETURN_WINDOW_WORDS), why=f"{WINDOW_WHY}: a {row['membership']} member's return "
                     f"window is {'60' if row['membership'] == 'plus' else '30'} days, not {other}")]


WINDOW_WHY = "policy, Returns: a customer's return window is their membership's"


# what the policy keeps internal ("never mention internal account flags"): the account's risk hold, which the manager's
# decision note gives as the reason for a denied approval ("this account needs review by the account team"); the
# customer hears that the refund could not be approved, never why
INTERNAL_WHY = "policy, Account details: never mention internal account flags"
INTERNAL_FLAG = ("account team", "account needs review", "needs review", "needs a review", "needs to be reviewed",
                 "requires review", "requires a review", "account review", "review of your account",
                 "review of the account", "account is under review", "account under review", "account is being reviewed",
                 "flagged", "flag on your account", "flag on the account", "account flag", "internal flag", "risk hold",
                 "account hold", "hold on your account", "hold on the account", "account is on hold", "fraud",
                 "risk review", "security review", "high risk", "risk flag", "decision note")


def internal_flags(patch: dict[str, list[dict[str, Any]]], customer_id: str) -> list[dict[str, Any]]:
    """The verified customer's internal flag (`risk_hold`), which a denied approval's decision note reveals: not to
    be told, in any message (the note's reason said to the customer scored 1)."""
    row = next((c for c in patch.get("customers", []) if c["id"] == customer_id), None)
    if row is None or not row.get("risk_hold"):
        return []
    return [says_not(claim(*INTERNAL_FLAG), why=f"{INTERNAL_WHY}: the account's risk hold and the approval's "
                     "decision note are internal; tell the customer only that the refund could not be approved",
                     scope="any")]


def unasked_more(calls: Sequence[dict[str, Any]], assertions: Sequence[dict[str, Any]],
                 reply: str | None) -> list[dict[str, Any]]:
    """What the kit's `unasked_writes` leaves (pattern 2): writes not made reported by their noun (`NOUN_CLAIMS`),
    and the kit's forbidden verbs as the second verb of a compound (`COMPOUND`). A wording the golden reply uses is
    left out (it reports a write another tool made). Added to every template and written into the hand-written
    tasks (`sync_handwritten`)."""
    from tb_env.kit.spec import unasked_writes

    made = {c["name"] for c in calls}
    done = {o["outcome"]["action"] for o in assertions if "outcome" in o and o["outcome"]["stance"] in ("done", "pending")}
    out = []
    for tool, action, pps, nouns, skip in NOUN_CLAIMS:
        if tool in made or action in done or made & set(skip):
            continue
        said = [w.format(pp=pp) for pp in pps for w in NOUN_PERSON]
        said = [w for w in said if not (reply and contains_fact(reply, w, near=nouns))]
        if said:
            out.append(says_not(claim(*said, near=nouns), why=f"{UNASKED_WHY} ({tool})"))
    kit = unasked_writes(CLAIMS, list(calls), list(assertions), reply)
    if kit is not None:
        f = kit["must_not_state"]["facts"][0]
        pps = [w[len("i have "):] for w in [f["fact"], *f.get("aliases", [])]
               if w.startswith("i have ") and w.split()[2] not in ("also", "now", "just", "gone")]
        said = [w.format(pp=pp) for pp in pps for w in COMPOUND]
        said = [w for w in said if not (reply and contains_fact(reply, w))]
        if said:
            out.append(says_not(claim(*said), why=UNASKED_WHY))
    return out


templates = Templates(
    "retail", HERE / "tasks", pool=retail_pool, scene=RetailScene,
    generator="tasks/retail/generate.py (`python -m tb_env.tasks.retail.generate`)",
    claims=CLAIMS,
)

# What an agent names when it proposes a write the customer asked for ("Shall I redirect the parcel?"
# proposes resolve_address_exception). The deterministic user says yes to a proposal naming one of these
# words, or an id, code or amount of a golden write; its own default reads only the tool name after the
# verb, so it would say "no, thanks" to "Shall I cancel it?" and a competent agent would stop there.
PROPOSALS = {
    "cancel_order": ["cancel"],
    "update_shipping_address": ["address", "deliver", "ship"],
    "resolve_address_exception": ["redirect", "address", "deliver", "send it"],
    "reship_order": ["replacement", "replace", "reship", "resend", "send a new", "new shipment"],
    "create_return": ["return"],
    "issue_refund": ["refund", "money back"],
    "request_manager_approval": ["approval", "manager"],
    "issue_store_credit": ["credit", "compensation", "goodwill"],
    "apply_promo_code": ["apply", "code", "discount"],
    "update_customer_phone": ["phone"],
    "add_ticket_note": ["note"],
    "update_ticket_status": ["close"],
    "escalate_ticket": ["escalate", "specialist", "manager", "supervisor"],
    "create_ticket": ["ticket"],
}


def agreed(calls: list[dict[str, Any]]) -> list[str]:
    """What the customer says yes to: the proposal words, ids, codes and amounts of the golden writes."""
    terms: set[str] = set()
    for c in calls:
        if c["name"] not in PROPOSALS:
            continue
        terms.update(PROPOSALS[c["name"]])
        for v in c["arguments"].values():
            for x in v if isinstance(v, list) else [v]:
                text = str(x)
                if isinstance(x, int | float) or (" " not in text and "@" not in text and any(ch.isdigit() for ch in text)):
                    terms.add(text)
    return sorted(terms)


# -- claims a reply must not make (`says_not`): a wrong destination or kind, what the vocabulary of outcomes cannot know --

# a refund to the card said as store credit (pattern E): only where the words say it went there as credit; "store
# credit isn't possible" or "not as store credit" (negated) makes no such claim
STORE_CREDIT_CLAIM = ("as store credit", "in store credit", "into store credit", "as a store credit", "store credit of",
                      "store credit has been", "store credit is on", "added store credit", "issued store credit",
                      "store credit to your account", "store credit on your account", "to your store credit",
                      "as account credit", "as credit on your account", "as a gift card", "gift card", "as a voucher")
# a cancelled order said as still going ahead, in words the outcome vocabulary does not read as "not cancelled"
# ("O-1 is still processing"; "still active" and "couldn't cancel" are the `cancel` outcome's)
STILL_GOING = ("still processing", "still being processed", "still pending", "will still ship", "still going to ship",
               "still be shipped", "still ships")
# the action's words, said of the look-alike record (`done_to_other`)
CANCELED = ("canceled", "canceling", "cancellation", "cancel")
APPLIED = ("applied", "apply", "added", "save", "saving", "discount", "off", "now", "total")
RETURNED = ("returned", "refunded", "return", "refund")
REFUNDED_CLAIM = ("refunded", "refund of", "refund has been", "refund is on", "issued a refund", "issued you a refund",
                  "processed a refund", "refund to your", "refund for the full", "full refund has")
SENT_WORDS = ("sent", "shipped", "on its way", "on the way", "arrive", "dispatched", "arranged", "created", "expected",
              "will ship", "set up", "ordered", "in the mail", "coming")
# a return said as opened where the policy refused it: the outcome vocabulary reads "has been processed" or "I've set
# up a return" as done, not yet "opened", "created" or "started"
RETURN_OPENED = ("opened a return", "opened return", "opened the return", "return is open", "return is now open",
                 "return has been opened", "return was opened", "created a return", "created return",
                 "return has been created", "return was created", "started a return", "started the return",
                 "initiated a return", "return has been initiated", "return is underway", "return label")
CLAIM_WHY = "policy, Communicating: never tell the customer something was done that was not, or done another way"


def claim(*wordings: str, **role: Any) -> dict[str, Any]:
    """A claim for `says_not`: its first wording is the probe's, the rest are other ways of making it."""
    return fact(wordings[0], "", *wordings[1:], **role)


# a refund to the card said to show sooner than the policy's 5 to 10 business days ("it will appear within 24 hours")
REFUND_SOON = ("within 24 hours", "within 1 day", "within a day", "within the hour", "within an hour", "later today",
               "by tomorrow", "instantly", "immediately", "right away", "straight away", "within minutes",
               "within 1 business day", "within 2 business days", "within 3 business days", "within 4 business days",
               "1 to 3 business days", "1-3 business days", "2 to 3 business days", "2-3 business days",
               "within 48 hours", "within 72 hours", "within a few hours", "by end of day", "same day")
REFUND_SHOWS = ("refund", "appear", "show", "post", "back", "see it", "arrive", "credit", "account", "card", "there",
                "land", "reflect")


def refund_claims(calls: Sequence[dict[str, Any]], facts: Sequence[dict[str, Any]],
                  other_orders: Sequence[dict[str, Any]] = ()) -> list[dict[str, Any]]:
    """What a reply about these golden calls must not claim beyond the outcomes (`derived_outcomes`): a refund
    that went to the card said as store credit; a cancelled order said as still going ahead. Added to every
    template (and, the same way, written into the hand-written tasks)."""
    names = [c["name"] for c in calls]
    out = []
    to_card = any(f.get("why", "").endswith("(the original payment method)") for f in facts)
    if to_card and "issue_store_credit" not in names:
        out.append(says_not(claim(*STORE_CREDIT_CLAIM), why=f"{CLAIM_WHY}: the refund went to the original payment "
                            "method, not store credit"))
    if to_card and "issue_refund" in names:
        out.append(says_not(claim(*REFUND_SOON, near=REFUND_SHOWS), why=f"{CLAIM_WHY}: policy, Refunds: a refund to the "
                            "card takes 5 to 10 business days to appear, no sooner"))
    cancelled = [c["arguments"]["order_id"] for c in calls if c["name"] == "cancel_order"]
    if cancelled:
        # bound to the cancelled order where the customer has others ("your other order O-2 is still processing")
        others = [o["id"] for o in other_orders if o["id"] not in cancelled]
        role = {"owner": [*cancelled, "order", "it", "them"], "rivals": others} if others else {}
        out.append(says_not(claim(*STILL_GOING, **role), why=f"{CLAIM_WHY}: the order was cancelled"))
    return out


# a refund the agent issued said as one the warehouse will make when the parcel is back (the changed-mind rule)
WAITING_REFUND = ("warehouse will refund", "warehouse refunds", "refunded automatically", "refund automatically",
                  "automatically refund", "once the warehouse", "when the warehouse", "after the warehouse",
                  "once we receive", "when we receive", "after we receive", "once it is received", "once it arrives back",
                  "when it arrives back", "once it gets back", "once the parcel arrives", "once the item arrives")


def refund_not_waiting(calls: Sequence[dict[str, Any]], reply_text: str | None) -> list[dict[str, Any]]:
    """Where every return the golden path opens is refunded in it (or it refunds without a return), the refund is
    made: "the 65.87 will be issued once the warehouse receives it" is a false status (it scored 1). Left out where a
    return waits on the warehouse (a changed-mind return), or the golden reply itself says so."""
    names = [c["name"] for c in calls]
    refunds = [c for c in calls if c["name"] == "issue_refund"]
    if not refunds or names.count("create_return") > sum("return_id" in c["arguments"] for c in refunds):
        return []
    if reply_text and any(contains_fact(reply_text, w) for w in WAITING_REFUND):
        return []
    return [says_not(claim(*WAITING_REFUND), why=f"{CLAIM_WHY}: the refund was issued now, it does not wait on the "
                     "warehouse")]


def done_to_other(verbs: Sequence[str], target: Order, *others: Order, what: str) -> dict[str, Any]:
    """The action said of the wrong record (pattern B): `verbs` owned by another order (its id or products, the
    nearest name), against the target's, so "SAVE20 is applied to order O-2" (the one that must not get it) is 0.
    A claim, not a `not_done` outcome: the outcome vocabulary takes a sentence that names no record as about the
    record asked about, and for the look-alike that is the wrong one ("I've cancelled the order" is the target's)."""
    mine = [target.id, *dict.fromkeys(i["product_name"] for i in target.items)]
    theirs = [n for o in others for n in [o.id, *dict.fromkeys(i["product_name"] for i in o.items)] if n not in mine]
    return says_not(claim(*verbs, owner=theirs, rivals=mine), why=f"{CLAIM_WHY}: {what}")


def other_remedy(refunded_instead: bool) -> dict[str, Any]:
    """A lost parcel gets a replacement OR a refund, never both (pattern D/E): the remedy not given, said as given
    in the final reply (the policy has the agent offer both before: "a replacement or a full refund of the order
    total: which would you prefer?")."""
    if refunded_instead:
        return says_not(claim("replacement", "reshipped", "new shipment", "resent", near=SENT_WORDS),
                        claim("replacement", "reship", "send you a new", "sent you a new", "shipped you a new",
                              "sending you a new", near=("also", "as well", "too", "and")),
                        why=f"{CLAIM_WHY}: the customer chose a refund; no replacement was sent (never both)", scope="final")
    return says_not(claim(*REFUNDED_CLAIM), why=f"{CLAIM_WHY}: the customer chose a replacement; nothing was refunded "
                    "(never both)", scope="final")


# -- outcomes: how each action the customer asked for ended (`outcome`, tb_env.domain.stance) -----------------

# The golden writes a customer asks for, as the verb a reply reports them with and the argument naming their
# record: each such call is a `done` outcome (`derived_outcomes`, added to every template), so "I couldn't refund
# it yet", "the refund hasn't been issued", "I'll refund you once the carrier confirms" or "the cancellation is
# pending approval" after it fail, in any wording the shared vocabulary knows. What was refused, is still waiting,
# or was never asked is stated by each template (`refused`, `pending`, `not_done`).
ACTIONS: dict[str, tuple[str, str | None]] = {
    "issue_refund": ("refund", "order_id"),
    "cancel_order": ("cancel", "order_id"),
    "create_return": ("return", "order_id"),
    "request_manager_approval": ("approve", "order_id"),  # only where a refund went through with the approval
    "update_shipping_address": ("change", "order_id"),
    "resolve_address_exception": ("redirect", "order_id"),  # the order of the shipment (added to the call)
    "reship_order": ("replace", "order_id"),
    "issue_store_credit": ("add", None),  # a credit on the account: the reply names no record for it
    "apply_promo_code": ("apply", "order_id"),
    "update_customer_phone": ("update", None),
    "update_ticket_status": ("close", "ticket_id"),
    # (its "done" is also the `escalated` fact, which a negated "I couldn't escalate it" does not state; the outcome
    # holds it against an offer of what was done, "I can escalate T-3130 for you. Shall I go ahead?", and the
    # vocabulary takes waiting as what an escalation does)
    "escalate_ticket": ("escalate", "ticket_id"),
}
# the writes whose tool refunds the order as well (to the original payment method, at once): a cancellation refunds
# what was charged, a code applied after checkout refunds its discount; each is a `done` refund of its order
REFUNDED_BY = ("cancel_order", "apply_promo_code")
# the credit's nouns: "credit" alone would read "it won't go to your credit card" as a credit not given
CREDIT_NOUNS = ("store credit", "goodwill credit")
DONE_WHY = f"{CLAIM_WHY}: the golden path did what the customer asked"
ORDER_WORDS = ("your order", "the order")
TICKET_WORDS_OWN = ("your ticket", "the ticket")
# how a reply names the look-alike without its id ("your other order was not cancelled"), where there is one
OTHER_ORDER_WORDS = ("other order", "older order", "earlier order", "previous order")
OTHER_TICKET_WORDS = ("other ticket",)


def order_names(o: Order | dict[str, Any], items: Sequence[dict[str, Any]] = (), rivals: Sequence[Order] = (),
                rival_items: Sequence[dict[str, Any]] = (), more: Sequence[str] = ()) -> list[str]:
    """How a reply names the order the customer asked about: its id (first: the probes use it), `more` (its
    return, its code), its products that no rival order shares, "your order"."""
    oid = o.id if isinstance(o, Order) else o["id"]
    products = [i["product_name"] for i in (o.items if isinstance(o, Order) else items)]
    theirs = {i["product_name"] for r in rivals for i in (r.items if isinstance(r, Order) else ())}
    theirs |= {i["product_name"] for i in rival_items}
    return list(dict.fromkeys([oid, *more, *(n for n in products if n not in theirs), *ORDER_WORDS]))


def rival_names(rivals: Sequence[Order], own: Order | None = None) -> list[str]:
    """The other orders' names: their ids, and their products the own order does not share."""
    mine = {i["product_name"] for i in own.items} if own else set()
    return list(dict.fromkeys(n for r in rivals for n in [r.id, *(i["product_name"] for i in r.items)] if n not in mine))


def stance(verb: str, how: str, why: str, record: Sequence[str], others: Sequence[str] = (),
           nouns: Sequence[str] = ()) -> dict[str, Any]:
    """An outcome a template states itself (refused, pending, not done); `why`: the rule or the customer's choice."""
    return outcome(verb, how, f"{CLAIM_WHY}: {why}", record=list(record), others=list(others), nouns=list(nouns))


def returned_items_only(assertions: list[dict[str, Any]], calls: Sequence[dict[str, Any]],
                        patch: dict[str, list[dict[str, Any]]]) -> None:
    """A return and its refund are of the items returned: the order's other items, named in a template's
    outcome through `order_names`, move to its `others` ("the refund for the Bluetooth Speaker is pending" is
    false when the shoes went back)."""
    names = {i["id"]: i["product_name"] for i in patch.get("order_items", [])}
    returns = [c["arguments"] for c in calls if c["name"] == "create_return"]
    back = {names.get(x) for r in returns for x in r.get("item_ids", [])}
    orders = {r["order_id"] for r in returns}
    kept = {i["product_name"] for i in patch.get("order_items", []) if i["order_id"] in orders} - back
    for a in assertions:
        body = a.get("outcome")
        if body and body["action"] in ("return", "refund") and kept & set(body.get("record", [])):
            body["record"] = [r for r in body["record"] if r not in kept]
            body["others"] = list(dict.fromkeys([*body.get("others", []), *sorted(kept)]))


def derived_outcomes(calls: Sequence[dict[str, Any]], patch: dict[str, list[dict[str, Any]]],
                     mentioned: str) -> list[dict[str, Any]]:
    """The `done` outcome of each golden write the customer asked for (`ACTIONS`, via `outcomes`), on its record
    named the ways a reply names it, against the customer's other records the task mentions (`mentioned`: its
    caller, reply, assertions and wrong paths), so "your other order O-2 was not cancelled" is about O-2. A
    manager approval is an outcome only where a refund went through with it (a denied one is the template's); a
    cancellation and a promotion code refund the order too (`REFUNDED_BY`)."""
    orders = {o["id"]: o for o in patch.get("orders", [])}
    items: dict[str, list[dict[str, Any]]] = {}
    for it in patch.get("order_items", []):
        items.setdefault(it["order_id"], []).append(it)
    tickets = {t["id"]: t for t in patch.get("tickets", [])}
    shipments = {s["id"]: s for s in patch.get("shipments", [])}
    approved = any(c["arguments"].get("approval_id") for c in calls if c["name"] == "issue_refund")
    annotated = []
    for c in calls:
        args = dict(c["arguments"])
        if c["name"] == "request_manager_approval" and not approved:
            continue
        if c["name"] == "resolve_address_exception":
            args["order_id"] = shipments[args["shipment_id"]]["order_id"]
        annotated.append({"name": c["name"], "arguments": args})
        if c["name"] in REFUNDED_BY and (c["name"] != "cancel_order"
                                         or float(orders.get(args["order_id"], {}).get("total", 0) or 0) > 0):
            # the tool refunds too (the charge, the discount): "your refund will follow once approved" is false
            annotated.append({"name": "issue_refund", "arguments": {"order_id": args["order_id"]}})
    first_return = next((i for i, c in enumerate(annotated) if c["name"] == "create_return"), None)
    out: list[dict[str, Any]] = []
    for o in outcomes(annotated, ACTIONS, DONE_WHY):
        body = dict(o["outcome"])
        rid = (body.get("record") or [None])[0]
        if body["action"] == "add":
            body["nouns"] = list(CREDIT_NOUNS)
        elif body["action"] == "refund" and any(c["name"] == "issue_refund" and c["arguments"].get("destination") ==
                                                "store_credit" for c in annotated):
            body["nouns"] = ["store credit"]  # the refund is the store credit: "it will be issued once approved"
        elif rid in orders:
            cust = orders[rid]["customer_id"]
            rivals = [x for x in orders.values() if x["customer_id"] == cust and x["id"] != rid and x["id"] in mentioned]
            rival_items = [i for r in rivals for i in items.get(r["id"], [])]
            more = [c["arguments"][k] for c in annotated if c["arguments"].get("order_id") == rid
                    for k in ("code", "return_id") if c["arguments"].get(k) and c["name"] in ACTIONS]
            if body["action"] == "return" and first_return is not None \
                    and annotated[first_return]["arguments"]["order_id"] == rid:
                more.append(NEW_RETURN)  # the return the episode creates
            # a return (and its refund) is of the items returned: the order's other items are not its names,
            # so "return R-9001 for the Chef's Knife" is false when the blender went back
            returned = {x for c in annotated if c["name"] == "create_return" and c["arguments"].get("order_id") == rid
                        for x in c["arguments"].get("item_ids", [])}
            own_items = items.get(rid, [])
            kept = []
            if body["action"] in ("return", "refund") and returned:
                names_back = {i["product_name"] for i in own_items if i["id"] in returned}
                kept = [i["product_name"] for i in own_items if i["id"] not in returned and i["product_name"] not in names_back]
                own_items = [i for i in own_items if i["id"] in returned]
            body["record"] = order_names(orders[rid], own_items, (), rival_items, list(dict.fromkeys(more)))
            theirs = {i["product_name"] for i in items.get(rid, [])}
            body["others"] = list(dict.fromkeys([*(n for r in rivals for n in
                                                   [r["id"], *(i["product_name"] for i in items.get(r["id"], []))]
                                                   if n not in theirs), *kept]))
            if rivals:
                body["others"] += OTHER_ORDER_WORDS
        elif rid is not None and rid.startswith("T-"):
            cust = tickets[rid]["customer_id"] if rid in tickets else None
            body["record"] = [rid, *TICKET_WORDS_OWN]
            body["others"] = [t["id"] for t in tickets.values() if t["customer_id"] == cust and t["id"] != rid
                              and t["status"] != "closed" and t["id"] in mentioned]
            if body["others"]:
                body["others"] += OTHER_TICKET_WORDS
        if not body.get("others"):
            body.pop("others", None)
        item = {"outcome": body}
        if item not in out:
            out.append(item)
    return merged(out)


def merged(done: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One `done` outcome per action: the same action done to several records (a cancellation's refund and a
    damaged item's) is one outcome on all of them, so a reply's "the refund will be issued once a manager
    approves it", naming none, is about them (as separate outcomes it would be about neither) and each one's
    name still makes a clause its own; the other records stay `others`."""
    out: list[dict[str, Any]] = []
    by_action: dict[str, dict[str, Any]] = {}
    for item in done:
        body = item["outcome"]
        first = by_action.get(body["action"])
        if first is None:
            by_action[body["action"]] = body
            out.append(item)
            continue
        first["record"] = list(dict.fromkeys([*first.get("record", []), *body.get("record", [])]))
        others = [n for n in dict.fromkeys([*first.get("others", []), *body.get("others", [])])
                  if n not in first["record"]]
        if [n for n in others if n not in OTHER_ORDER_WORDS + OTHER_TICKET_WORDS]:
            first["others"] = others
        else:
            first.pop("others", None)
    return out


def mentions(spec: TaskSpec) -> str:
    """What the task says, besides its rows: the caller, the golden calls and reply, the assertions, the wrong paths."""
    return json.dumps([dataclasses.asdict(spec.caller), spec.calls, spec.reply, spec.assertions, spec.wrong], default=str)


def close_waits(ticket_id: str) -> dict[str, Any]:
    """A close the policy puts off (the order's shipping exception is open): not done, and "it can be closed once
    the parcel is delivered" is true, so `not_done`, not `refused`."""
    return stance("close", "not_done", "policy, Support tickets: the ticket stays open while its order's shipping "
                  "exception is open", [ticket_id, *TICKET_WORDS_OWN])


LOST_WORDS = ("lost order", "lost parcel", "lost package", "damaged parcel", "damaged package")


def no_refund_too(o: Order, rivals: Sequence[Order] = ()) -> dict[str, Any]:
    """A lost parcel replaced is not refunded as well, now or later: "I'll refund you once the carrier confirms
    the loss" promises the remedy the customer did not choose (never both). `rivals`: the other orders the reply
    talks about (their refunds are theirs)."""
    return stance("refund", "refused", "policy, Shipments: a replacement or a refund, never both; the customer chose "
                  "a replacement", order_names(o, rivals=rivals, more=LOST_WORDS), rival_names(rivals, o))


def template(description: str, counts: dict[str, int] = COUNTS) -> Callable[[Any], Any]:
    """Register a retail template; its caller agrees to what the golden writes do (`agreed`), and
    nothing about the verified customer's account is read or changed before `verify_identity`
    succeeds (`verified_first`; reading or acting first and verifying later scored 1)."""

    def register(fn: Callable[[RetailScene, int], TaskSpec]) -> Callable[[RetailScene, int], TaskSpec]:
        @functools.wraps(fn)
        def build(s: RetailScene, n: int) -> TaskSpec:
            spec = fn(s, n)
            spec.caller.wants = agreed(spec.calls)
            facts = [f for a in spec.assertions if "response_contains" in a for f in a["response_contains"]["facts"]]
            said = mentions(spec)
            mine = {o["customer_id"] for o in spec.patch.get("orders", [])
                    if any(c["arguments"].get("order_id") == o["id"] for c in spec.calls)}
            spec.assertions += refund_claims(spec.calls, facts, [o for o in spec.patch.get("orders", [])
                                                                 if o["customer_id"] in mine and o["id"] in said])
            spec.assertions += derived_outcomes(spec.calls, spec.patch, said)
            returned_items_only(spec.assertions, spec.calls, spec.patch)
            spec.assertions += refund_not_waiting(spec.calls, spec.reply)
            spec.assertions += unasked_more(spec.calls, spec.assertions, spec.reply)
            gate = next((c for c in spec.calls if c["name"] == "verify_identity"), None)
            if gate is not None:
                spec.assertions += other_window(spec.patch, gate["arguments"]["customer_id"], spec.reply)
                spec.assertions += internal_flags(spec.patch, gate["arguments"]["customer_id"])
            if gate is not None:
                writes = sorted({c["name"] for c in spec.calls if c["name"] in PROPOSALS})
                spec.assertions += verified_first(gate["arguments"]["customer_id"], writes)
            return spec

        return templates.template(description, counts)(build)

    return register


# -- golden paths -------------------------------------------------------------------------------

NO_VERIFY = "acts on the account without verifying the customer"


def identify(g: Golden, c: Customer, *, by_name: bool = False, order_id: str | None = None) -> int:
    """find_customer then verify_identity (with the zip code, or an order id); returns the verify index."""
    if by_name:
        g.add("find_customer", first_name=c.first, last_name=c.last, zip_code=c.zip)
    else:
        g.add("find_customer", email=c.email)
    if order_id:
        return g.add("verify_identity", customer_id=c.id, email=c.email, order_id=order_id)
    return g.add("verify_identity", customer_id=c.id, email=c.email, zip_code=c.zip)


# -- reply facts: the policy rule or the customer's question behind each ------------------------

REFUNDS_RULE = "policy, Refunds: tell the customer the refunded amount"
REFUND_WHERE = "policy, Refunds: tell the customer the refunded amount and where it goes"
CHANGE_RULE = "policy, Communicating: after a change, tell the customer what changed"
NEW_ETA_RULE = "policy, Communicating: after a change, tell the customer the new estimated delivery date"
DECLINE_RULE = "policy, Communicating: when you decline a request, say why, citing the rule"
# wordings of a refusal's reason; a golden reply uses exactly one of each list
SHIPPED = ("shipped", "on its way", "on their way", "on the way", "in transit", "dispatched", "out for delivery",
           "left our warehouse", "left the warehouse", "left our facility", "en route", "with the carrier",
           "handed to the carrier", "handed over to the carrier", "handed off to the carrier", "picked up by the carrier",
           "been sent", "was sent", "already sent", "sent out", "already left", "has left", "already out",
           "already in the mail", "already on its way", "already with",
           # the carrier said to hold it: "UPS already has it", "the courier picked it up yesterday"
           "already has it", "already has your", "already has the", "has it now", "now has it", "picked it up",
           "picked up", "been collected", "collected it")
# ("still open" is not among them: it is what happens to the ticket, not why)
EXCEPTION_OPEN = ("exception", "unresolved", "not yet resolved", "not been resolved", "still being investigated",
                  "shipping issue", "delivery issue", "open issue", "issue with the shipment", "problem with the shipment",
                  "issue with the parcel", "problem with the parcel", "issue with the delivery",
                  "problem with the delivery")
SHIP_WORDS = ("shipping", "shipment", "delivery", "deliver", "parcel", "package", "carrier", "transit", "tracking",
              "delay")


def exception_reason(why: str = "a ticket whose order has an open shipping exception is not closed; explain why "
                     "it stays open", delayed: bool = True) -> dict[str, Any]:
    """Why a ticket stays open: the open shipping exception, in the words agents use; a bare "exception" or
    "unresolved" counts only beside the shipment it is about ("an exception - your refund is pending" is the
    wrong reason)."""
    wordings = [w for w in (*EXCEPTION_OPEN, *(STILL_DELAYED if delayed else ())) if w not in ("exception", "unresolved")]
    return fact("shipping exception", f"policy, Support tickets: {why}", *wordings,
                alternatives=[fact(w, "", near=SHIP_WORDS) for w in ("exception", "unresolved")])


STILL_DELAYED = ("delayed", "delay", "not been delivered", "not yet delivered", "hasn't been delivered", "hasn't arrived",
                 "not arrived", "still in transit", "still on its way", "until it is delivered", "until it's delivered",
                 "until it arrives")
# A failed verification, as agents say it: phrases that say the details did not check out, never the
# bare word "verify" or "identity" (an agent's "I need to verify your identity" is no reason).
VERIFY_FAILED = (
    "couldn't verify", "could not verify", "unable to verify", "wasn't able to verify", "not able to verify",
    "weren't able to verify", "can't verify", "cannot verify", "failed to verify", "haven't been able to verify",
    "couldn't be verified", "could not be verified", "can't be verified", "cannot be verified", "not verified",
    "not been verified", "verification failed", "verification has failed", "verification was unsuccessful",
    "verification unsuccessful", "verification wasn't successful", "verification was not successful",
    "verification didn't", "verification did not", "failed verification", "unsuccessful verification",
    "couldn't confirm", "could not confirm", "unable to confirm", "wasn't able to confirm", "not able to confirm",
    "can't confirm", "cannot confirm", "haven't been able to confirm", "couldn't be confirmed", "could not be confirmed",
    "couldn't authenticate", "could not authenticate", "unable to authenticate", "can't authenticate",
    "cannot authenticate", "authentication failed", "couldn't be authenticated",
    "don't match", "do not match", "doesn't match", "does not match", "didn't match", "did not match", "not match",
    "not matching", "no match", "mismatch", "don't correspond", "doesn't correspond", "do not correspond",
    "does not correspond", "don't line up", "doesn't line up",
    "the one on file", "the ones on file", "the one we have on file", "the ones we have on file", "what we have on file",
    "what we have on record", "the one on record", "the ones on record", "the one on the account",
    "the ones on the account",
    "is incorrect", "are incorrect", "was incorrect", "were incorrect", "isn't correct", "aren't correct",
    "not correct", "zip code is wrong", "zip is wrong", "details are wrong", "information is wrong", "wrong zip",
)
# One promotion code per order, as agents cite the rule; `already_has` adds the order's own code
# ("already has WELCOME10"). The code name alone is no reason: the customer said it first.
ONE_CODE = (
    "only one code", "only one promo", "only one promotion", "only one discount", "only one coupon",
    "just one code", "just one promo", "just one promotion", "just one discount", "just one coupon",
    "single code", "single promo", "single promotion", "single discount", "single coupon",
    "one code per", "one promo code per", "one promotion code per", "one promotion per", "one promo per",
    "one discount code per", "one discount per", "one coupon per", "one code at a time",
    "more than one code", "more than one promo", "more than one promotion", "more than one discount",
    "more than one coupon", "a second code", "a second promo", "a second promotion", "a second discount",
    "a second coupon", "can't be combined", "cannot be combined", "can't be stacked", "cannot be stacked",
    "can only have one", "can only carry one", "can only use one", "can only take one", "can only hold one",
    "can only apply one", "can only be one", "limited to one", "limit of one", "limited to a single",
    "maximum of one", "at most one", "no more than one",
    "already has a code", "already has a promo", "already has a promotion", "already has a discount",
    "already has a coupon", "already has one", "already carries a code", "already carries one",
    "already uses a code", "already uses one", "already applied", "already has an applied",
)
NOT_APPROVED = ("not approved", "denied", "declined", "turned down", "rejected", "not be approved", "wasn't approved",
                "couldn't be approved", "unable to approve", "did not approve", "didn't approve", "couldn't approve",
                "could not approve", "couldn't get approval", "could not get approval", "unable to get approval",
                "not able to get approval", "wasn't able to get approval", "didn't get approval", "did not get approval",
                "didn't sign off", "did not sign off", "not signed off", "refused", "not granted", "wasn't granted",
                "approval was not", "approval wasn't", "no approval", "not authorized", "wasn't authorized",
                "couldn't be authorized", "not be authorized")


def tells(*facts: dict[str, Any]) -> dict[str, Any]:
    """Values the agent tells anywhere in the conversation (amounts, dates, ids): a value said once has
    been told, also when the agent reports a result before its last bookkeeping call (a ticket note)
    or while it goes through several records. Refusal reasons use `says`: they must be in the answer,
    where the agent's own question ("let me check if it has shipped") does not count."""
    return says(*facts, scope="any")


# the role of an amount refunded: one of these in its clause, so the order total (or a price, or a charge)
# said where the refund goes, and the refund said as a charge ("you were charged 45.00"), do not state it
REFUND_WORDS = ("refund", "amount", "in full", "including shipping", "shipping included", "back", "credit", "reimburs", "return", "money", "receiv", "get", "issued", "sent", "goes",
                "go to", "went", "going", "processed")
CANCEL_REFUND = "policy, Communicating: after a cancellation, tell the customer the refund amount"


def refunded(amount: float, why: str = REFUNDS_RULE, **own: Any) -> dict[str, Any]:
    return fact(fmt(amount), why, near=REFUND_WORDS, **own)


ORIGINAL_METHOD = ("original payment", "original form of payment", "original method of payment", "original method",
                   "payment method you used", "payment method you paid with", "same payment method",
                   "payment method on the order", "payment method the order was paid with")


def goes_to(s: RetailScene, c: Customer) -> dict[str, Any]:
    """Where a refund to the original payment method goes, in any way that names it: the card's last
    four digits, its brand where no other card of the customer shares it, 'PayPal', or 'the original
    payment method'. Store credit (the wrong place unless the card is closed) says none of these."""
    if c.pm["kind"] == "paypal":
        named = ["PayPal"]
    else:
        brand, _, last4 = c.pm["label"].split()
        mine = [pm for pm in s.rows.get("payment_methods", []) if pm["customer_id"] == c.id]
        named = [last4, "original card", "card you paid with", "card you used", "same card", "card on the order"]
        if sum(pm["label"].split()[0] == brand for pm in mine) == 1:
            named.append(brand)
    return fact("original payment method", f"{REFUND_WHERE} (the original payment method)", *named, *ORIGINAL_METHOD)


def return_id(rid: str = NEW_RETURN) -> dict[str, Any]:
    return fact(rid, f"{CHANGE_RULE} (the return id)")


# ": closed" / "- closed" / "and closed": a summary line "Ticket T-2041: closed" or "T-2041 is noted and
# closed", whose colon, dash or "and" ends the clause before the status: the wording starts with it, so the
# id it is bound to stands just before
CLOSED = ("closing", ": closed", ": now closed", "- closed", "and closed", "and now closed", "and also closed",
          "and is closed", "and is now closed", "and has been closed", "and then closed")


TICKET_WORDS = ("ticket", "case", "request", "it")


def rival_tickets(ids: Sequence[str]) -> list[str]:
    """Another ticket's names: its id, and "ticket T-2042" (which ties with the generic "ticket" of the
    owner, and a tie goes to the rival: "I've escalated ticket T-2042" is about T-2042)."""
    return [n for i in ids for n in (i, f"ticket {i}", f"case {i}")]


def closed_status(ticket_id: str, others: Sequence[str] = ()) -> dict[str, Any]:
    """The ticket's new status, in the answer (a question 'shall I close it?' tells nothing): the word
    'closed' owned by the ticket (its id, 'ticket', 'case' or 'it' the nearest name in its sentence,
    however far: "Your ticket about the Ceramic Mug Set (4) now has status closed"), so "I've closed
    it out", "T-2041 is closed now" and "your ticket has been closed" pass; "I couldn't close
    T-2041" (a negated status) and "T-2042 is closed" (the other ticket, in `others`) do not."""
    return fact("closed", f"{CHANGE_RULE} (the ticket's status)", *CLOSED, owner=[ticket_id, *TICKET_WORDS],
                rivals=rival_tickets(others))


# A ticket that must stay open (its order's shipping exception is still open): the agent says it did not
# close it, in any of these words; "Done, ticket T-1 is closed" (a false status) says none of them. The
# bare word "open" is not among them: the reason itself ("an open shipping exception") contains it.
KEPT_OPEN = ("still open", "stay open", "stays open", "remain open", "remains open", "keep it open", "keeping it open",
             "keep the ticket open", "keeping the ticket open", "leave it open", "leave the ticket open", "left open",
             "left it open", "left the ticket open", "leaving it open", "leaving the ticket open", "kept open",
             "stays active", "remains active", "stay active",
             "remain active", "can't close", "cannot close", "can not close", "unable to close", "not able to close",
             "couldn't close", "could not close", "won't be able to close", "can't be closed", "cannot be closed",
             "can not be closed", "not be closed", "not yet be closed", "isn't closed", "is not closed", "not closed",
             "not closing", "hold off on closing", "holding off on closing", "hold off on it", "not possible to close",
             "isn't possible to close", "closing it isn't", "closing the ticket isn't", "closing it is not",
             "closing the ticket is not", "closing it won't", "closing the ticket won't", "close it yet", "close the ticket yet", "closed yet", "close it once",
             "close it after", "closed once", "closed after", "closed when", "close it when", ": still open", ": open",
             ": kept open", "- still open", "- open")


def kept_open(ticket_id: str) -> dict[str, Any]:
    """The ticket stays open, owned by the ticket (its id, 'ticket', 'case' or 'it' the nearest name in
    its sentence, however far from the status words)."""
    return fact(KEPT_OPEN[0], "policy, Support tickets: the ticket stays open while its order's shipping exception is "
                "open; the customer asked to close it and must hear that it was not", *KEPT_OPEN[1:],
                owner=[ticket_id, *TICKET_WORDS], may_be_negated=True)


ESCALATED = ("escalating", "escalate", "passed", "handed", "forwarded", "referred", "transferred", ": escalated",
             "- escalated", "and escalated", "and have escalated", "and has been escalated", "and is escalated")


def escalated(ticket_id: str, others: Sequence[str] = ()) -> dict[str, Any]:
    """The escalation, told: the ticket (or the case) passed to the specialists, the nearest name in its
    sentence however far ("your ticket about the Ceramic Mug Set (4) has been escalated"); "I couldn't
    escalate it" and "T-2042 (the other ticket) is escalated" do not say so."""
    return fact("escalated", f"{CHANGE_RULE} (the ticket's status: escalated)", *ESCALATED,
                owner=[ticket_id, *TICKET_WORDS, "specialist", "manager", "supervisor", "team"], rivals=rival_tickets(others))


def escalated_other(ticket_id: str, others: Sequence[str]) -> list[dict[str, Any]]:
    """The customer's other tickets (an old, closed one) said as escalated ("I've escalated ticket T-2508"): the
    escalation owned by the other ticket, the nearest name in its clause, against the one escalated."""
    if not others:
        return []
    return [says_not(claim("escalated", "escalating", "escalate", ": escalated", "- escalated", "passed on",
                           "handed over", "forwarded", "referred", "transferred",
                           owner=[*rival_tickets(others), "old ticket", "older ticket", "earlier ticket",
                                  "previous ticket", "other ticket"],
                           rivals=[ticket_id, f"ticket {ticket_id}", f"case {ticket_id}", "new ticket", "new case",
                                   "it", "specialist", "manager", "supervisor", "team"]),
                     why=f"{CLAIM_WHY}: {ticket_id} was escalated, not the customer's other tickets")]


VERIFY_FIRST = "policy, Identity verification: anything about the account requires a verified identity first"
# the account's records an agent could read; public tools (products, promotion terms) are not among them
ACCOUNT_READS = ("get_customer", "list_customer_orders", "get_order", "get_shipment", "get_return",
                 "calculate_refund_amount", "list_customer_tickets", "get_ticket")


def verified_first(customer_id: str, writes: Sequence[str] = (), why: str = VERIFY_FIRST) -> list[dict[str, Any]]:
    """No read of the account, and none of these writes, before `verify_identity` succeeds for
    `customer_id`: the policy puts verification before anything about the account (a caller who
    never verifies may have nothing read at all)."""
    before = ("verify_identity", {"customer_id": customer_id})
    return [no_call(name, why=why, before=before) for name in (*ACCOUNT_READS, *writes)]


def new_eta(eta: str) -> dict[str, Any]:
    return fact(eta, NEW_ETA_RULE)


# the role of an estimated delivery date: one of these in its clause ("should arrive by", "ETA", "now expected"),
# so the date said as the day the parcel shipped ("shipped on 2026-12-04") does not state it
ARRIVAL_WORDS = ("arriv", "expect", "estimat", "eta", "deliver", "due", "reach", "get to you", "get there", "be there",
                 "be with you", "should", "scheduled", "on track", "land", "show up", "now", "new", "around",
                 "come", "coming", "receiv", "get it", "have it", "push", "moved", "revised", "updated", "set for",
                 "slated", "projected", "anticipat", "on its way", "on the way", "in transit", "latest", "delay", "until")
# the date said as the estimate it replaced or as a delivery already made: "was originally expected on 2026-12-04"
# (no earlier estimate exists), "was delivered on 2026-12-04"
OLD_ETA_WORDS = ("originally", "initially", "previously", "was supposed", "were supposed", "was due", "were due",
                 "was scheduled", "was expected", "were expected", "used to be", "original eta", "original estimate",
                 "original date", "original delivery", "old eta", "old estimate", "old date", "old delivery",
                 "first estimate", "earlier estimate", "before the delay", "was delivered", "were delivered", "been delivered",
                 "already delivered", "arrived on", "has arrived", "was dropped off")


def eta_told(eta: str, why: str, **own: Any) -> list[dict[str, Any]]:
    """An order's estimated delivery date, told as when it arrives (pattern D): beside an arrival word, and not
    as an estimate it replaced nor as a delivery that happened (the only date a shipment has is its current
    estimate, so either says the parcel is late or already there). `own`: owner/rivals where the reply lists
    several orders."""
    return [tells(fact(eta, why, near=ARRIVAL_WORDS, **own)),
            says_not(claim(eta, near=OLD_ETA_WORDS, **own), *[claim(w.format(eta)) for w in SHIPPED_ON],
                     why=f"{CLAIM_WHY}: {eta} is the current estimated delivery date, not an earlier one, the day the "
                     "parcel shipped nor a delivery made")]


# the estimate said as the day the parcel left ("which was shipped on 2026-12-02"): the phrase with the date, as a
# bare "shipped" near the date is also "it shipped on 11-25 and is now expected on 12-02"
SHIPPED_ON = ("shipped on {}", "was shipped {}", "dispatched on {}", "sent out on {}", "shipped out on {}",
              "left the warehouse on {}", "handed to the carrier on {}")


# the write verbs a customer asking only a question could think were done for them (`ACTIONS`): a goodwill credit
# for the wait, a refund, a replacement, a redirect, a cancellation; none was (pattern E)
QUESTION_ONLY = "the customer only asked a question; nothing was changed on the account"
SHIPPING_WRITES = ("add", "refund", "replace", "redirect", "cancel")


def nothing_done(record: Sequence[str], verbs: Sequence[str] = SHIPPING_WRITES) -> list[dict[str, Any]]:
    """A `not_done` outcome for each write a read-only answer could claim ("I've added a $10 credit for the
    delay", "I've sent a replacement"); the credit by its nouns (it names no record). A statement of what
    already happened ("your refund was issued on ...") or what could be done ("I can send a replacement if it
    doesn't arrive") is no report; leave out a verb whose record it was done to before the episode."""
    out = [stance(v, "not_done", QUESTION_ONLY, [] if v == "add" else record,
                  nouns=CREDIT_NOUNS if v == "add" else ()) for v in verbs]
    if "replace" in verbs:  # the vocabulary does not read "sent" as done ("I sent it for approval" asks for it)
        out.append(says_not(claim(*REPLACEMENT_SENT), why=f"{CLAIM_WHY}: {QUESTION_ONLY}"))
    return out


# a replacement said as sent, in the words the outcome vocabulary leaves to the template
REPLACEMENT_SENT = ("sent a replacement", "sent you a replacement", "sent out a replacement", "shipped a replacement",
                    "shipped you a replacement", "sending a replacement", "sending you a replacement",
                    "replacement has been sent", "replacement was sent", "replacement has shipped",
                    "replacement is on its way", "replacement is on the way", "replacement is already on",
                    "sent a new one", "sent you a new one", "shipped a new one", "shipped you a new one", "reshipped")


def specialist_in_24_hours() -> dict[str, Any]:
    return fact("24 hours", "policy, Support tickets: on escalating, tell the customer a specialist will contact them "
                "within 24 hours")


# a specialist's call-back promised in another time than the policy's 24 hours (said in the answer, where an
# earlier "within 24 hours" does not make it right); number words are digits once normalised ("within one day")
OTHER_CALLBACK = ("within 1 day", "within a day", "in 1 day", "in a day", "1 business day", "next business day",
                  "within 2 days", "within 48 hours", "within 72 hours", "within 12 hours", "within 1 hour",
                  "within the hour", "within a week", "by tomorrow", "2 business days", "3 business days")


def callback_promise() -> dict[str, Any]:
    return says_not(claim(*OTHER_CALLBACK), why=f"{CLAIM_WHY}: policy, Support tickets: a specialist contacts the "
                    "customer within 24 hours, no other time")


# "you can return it once it's delivered", in the words agents use ("it can be returned", "send it back")
RETURN_LATER = ("returned", "returning", "send it back", "send them back", "send back", "ship it back", "ship them back",
                "mail it back", "post it back")


def shipped_reason(rule: str) -> dict[str, Any]:
    return fact(SHIPPED[0], f"{DECLINE_RULE}; {rule}", *SHIPPED[1:])


# a street line's suffix as agents also write it out ("500 Commerce St" -> "500 Commerce Street")
STREET_SUFFIXES = {"St": "Street", "Ave": "Avenue", "Ln": "Lane", "Rd": "Road", "Dr": "Drive", "Blvd": "Boulevard"}


def street_forms(line1: str) -> list[str]:
    """A street line as written, and with its suffix spelled out: "4146 Pine Street" names "4146 Pine St"."""
    words = line1.split()
    long = [STREET_SUFFIXES.get(w, w) for w in words]
    return list(dict.fromkeys([line1, " ".join(long)]))


def address_labels(a: dict[str, Any]) -> list[str]:
    """How a reply names a saved address by its label: "your work address", "your old apartment"."""
    label = a["label"]
    if label == "parents":
        return ["your parents' address", "your parents' place", "your parents' house"]
    if label == "old apartment":
        return ["your old apartment", "the old apartment", "your old address", "the old address", "your previous address"]
    return [f"your {label} address", f"the {label} address", f"your {label}"]


# the words that send an order to an address ("will now ship to", "redirected it to"), written out before the
# address, so the address after them is where it goes
SENT_TO = ("ship to ", "ships to ", "shipped to ", "deliver to ", "delivered to ", "delivery to ", "go to ", "goes to ",
           "sent to ", "send it to ", "changed to ", "changed it to ", "updated to ", "updated it to ", "switched to ",
           "switched it to ", "redirected to ", "redirected it to ", "rerouted to ", "rerouted it to ", "headed to ",
           "heading to ", "on its way to ", "address is now ", "now going to ", "now goes to ")


def address_roles(new: dict[str, Any], *old: dict[str, Any], order: Order,
                  others: Sequence[Order] | None = None) -> dict[str, Any]:
    """The order said to go to an address it does not go to (pattern D): the old one (where it went before, the
    other saved address) after the words that send it ("will now ship to 2053 Elm St", "redirected to your old
    apartment"), or the new one as where it came from ("from 4912 Oak St"). A denial ("no longer ships to
    2053 Elm St") is no claim. Where the reply may talk about other orders (`others`, a list: the customer's
    other orders it may name), the order's own name must be the nearest ("your other order still ships to your
    home address" is about another); else every such sentence is about it."""
    olds = [x for a in old for x in [*street_forms(a["line1"]), *address_labels(a)]]
    said = [f"{verb}{x}" for verb in SENT_TO for x in olds]
    # (not where an old street line begins with the new one: "from 12 Elm St Apt 2 to 12 Elm St")
    said += [f"from {x}" for x in [*street_forms(new["line1"]), *address_labels(new)]
             if not any(o.startswith(x) for o in olds)]
    role = {}
    if others is not None:
        own = [n for n in order_names(order, rivals=others) if n != "the order"] + ["this order", "it", "them"]
        role = {"owner": own, "rivals": [*rival_names(others, order), *OTHER_ORDER_WORDS]}
    return says_not(claim(*said, **role), why=f"{CLAIM_WHY}: the order goes to {new['line1']} ({new['label']}), not "
                    + " nor ".join(f"{a['line1']} ({a['label']})" for a in old))


def elsewhere(c: Customer, target: dict[str, Any]) -> list[dict[str, Any]]:
    """The customer's saved addresses an order sent to `target` does not go to."""
    return [a for a in c.addresses.values() if a["id"] != target["id"]]


def address_told(a: dict[str, Any]) -> dict[str, Any]:
    """The saved address an order now goes to: by its label ('your work address', 'your parents' place'),
    which names one saved address, or by its street line (its suffix abbreviated or written out)."""
    label = "parents" if a["label"] == "parents" else f"{a['label']} address"
    return fact(label, f"{CHANGE_RULE} (the new delivery address)", *street_forms(a["line1"]))


SAVE_WORDS = ("save", "saving", "discount", "off", "less", "refund", "back", "reduc", "knock", "take", "deduct",
              "lower", "cut")
TOTAL_WORDS = ("total", "now", "new", "pay", "come", "bring", "down to", "cost", "owe", "due", "balance")


def savings(disc: float, new_total: float) -> dict[str, Any]:
    """The discount a code brings (said as a saving), or the new total it leads to (said as the total):
    either tells the customer what changed; the total said as the saving, or the saving as the total, not."""
    why = f"{CHANGE_RULE} (the discount, or the new total)"
    return fact(fmt(disc), why, near=SAVE_WORDS, alternatives=[fact(fmt(new_total), why, near=TOTAL_WORDS)])


# the role of a code's minimum subtotal: the customer's own (lower) subtotal said as the minimum does not state it;
# the minimum is cited as what the order does not reach ("doesn't meet SAVE20's 100.00 minimum"), so its fact
# takes `may_be_negated`
MIN_WORDS = ("minimum", "at least", "or more", "or above", "or higher", "orders over", "orders above", "need", "require",
             "spend", "threshold", "orders of", "min.")


# -- small text helpers -------------------------------------------------------------------------

PERSONAS = [
    "polite and to the point", "a little stressed", "friendly and chatty", "busy, writes short messages",
    "methodical, double-checks details", "mildly annoyed", "calm and patient", "in a hurry",
]


def persona(s: RetailScene, c: Customer, situation: str) -> str:
    tier = "a plus member" if c.plus else "a basic member"
    return f"{c.full}, {tier}, {s.rng.choice(PERSONAS)}; {situation}"


def plural(name: str) -> bool:
    """'Rain Boots', 'Pruning Shears': the product is referred to as 'them'."""
    word = name.split()[-1]
    return word.endswith("s") and not word.endswith("ss")


def it(name: str) -> str:
    return "them" if plural(name) else "it"


def owned(o: Order, others: Sequence[Order], own: Sequence[str] = (), rivals: Sequence[str] = ()) -> dict[str, Any]:
    """`owner` / `rivals` for a value of order `o` where the reply lists other orders' values too (one eta
    per order, a redirect's date and a replacement's): its id or a product of it must be the nearest name."""
    def words(x: Order) -> set[str]:
        # (an acronym of three letters is a name too, "the SSD"; not a short word, which owners read as a stem of
        # longer ones: "Car" of "carrier", "LED" of "ledger")
        return {w for i in x.items for w in re.findall(r"[A-Za-z]{4,}|\b[A-Z]{3}\b", i["product_name"])
                if w.lower() not in ("pack", "trio", "series", "collection", "led")}

    def names(x: Order) -> list[str]:
        """Its id, its products' names, and the words of them no other order's product has ("the Dumbbells
        Dec 7" for the Adjustable Dumbbells)."""
        shared = {w for y in [o, *others] if y is not x for w in words(y)}
        short = sorted(w for w in words(x) if w not in shared)
        return [x.id, *dict.fromkeys(i["product_name"] for i in x.items), *short]
    theirs = [n for x in others for n in names(x)]
    return {"owner": [n for n in names(o) if n not in theirs] + list(own), "rivals": theirs + list(rivals)}


def saved_as(address: dict[str, Any]) -> str:
    """An address as the customer names it: '4146 Pine St (my saved work address)'."""
    return f"{address['line1']} (my saved {address['label']} address)"


# =================================================================================================
# read_only: the state must not change, the reply must state the facts
# =================================================================================================


@template("when will an order arrive: tracking number and (possibly delayed) eta")
def order_eta(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    s.delivered(c, [rng.choice(products(20, 150))], ago=rng.randint(40, 200))
    delayed = n % 2 == 1
    item = rng.choice(products(25, 300))
    o = s.on_the_way(c, [item], eta=rng.randint(2, 8), reason="carrier_delay" if delayed else None)
    sh = o.shipment
    assert sh is not None
    g = Golden()
    by_order = n % 3 != 2
    v = identify(g, c, order_id=o.id if by_order else None)
    g.add("get_shipment", order_id=o.id)
    if by_order:
        first = f"Hi! When will my order {o.id} arrive, and what's the tracking number? My email is {c.email}."
    else:
        first = (f"Hi, can you check on my order {o.id} ({item.lower})? I'd like to know when it gets here, and the "
                 "tracking number.")
    status = ("The carrier has reported a delay; the new estimated delivery date is"
              if delayed else "It is expected to arrive on")
    text = (f"Your order {o.id} ({item.name}) is on its way with {sh['carrier']}, tracking number "
            f"{sh['tracking_number']}. {status} {sh['eta']}.")
    wrong_eta = (date.fromisoformat(sh["eta"]) + timedelta(days=2)).isoformat()
    wrong = [
        reply(text.replace(sh["eta"], wrong_eta), "states the wrong delivery date"),
        drop(v, note=NO_VERIFY),
    ]
    if delayed:
        wrong.append(append(call("issue_store_credit", customer_id=c.id, order_id=o.id, amount=c.goodwill,
                                 reason="Carrier delay"), note="hands out a goodwill credit nobody asked for"))
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"waiting for the {item.lower} from order {o.id}."),
            goal=f"Learn when order {o.id} will arrive and its tracking number.",
            first_message=first,
            facts=c.knows(order_id=o.id),
            instructions="You only want the delivery date and tracking number; do not ask for compensation.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[*eta_told(sh["eta"], "the customer asked when the order arrives"),
                    tells(fact(sh["tracking_number"], "the customer asked for the tracking number")),
                    *nothing_done(order_names(o))],
        wrong=wrong, kind="read_only", difficulty="easy", skills=["verification", "shipping"],
    )


@template("was my refund issued: amount, date and where it went (return or cancellation)")
def refund_status(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    g = Golden()
    kind = ["return", "cancellation"][n % 2]
    if kind == "return":
        a, b = rng.sample(products(15, 190), 2)
        promo = "HOLIDAY15" if n % 4 == 0 and a.price + b.price >= 50 else None
        o = s.delivered(c, [a, b], ago=rng.randint(20, 40), promo=promo)
        amount = o.paid(o.item(0))
        when = rng.randint(3, 12)
        ret = s.return_(o, [o.item(0)], "refunded", "Did not fit", ago=when + 4)
        s.refund(o, amount, "refund", ret=ret, ago=when)
        ask = f"did the refund for the {a.lower} I sent back from order {o.id} go through?"
        what = f"your return {ret['id']} for the {a.name} was received and {fmt(amount)} was refunded"
        wrong_amount = o.total
        # the refund is the returned item's: the order's other item was not refunded ("the lamp was refunded too")
        names = [n for n in order_names(o, more=[ret["id"]]) if n != b.name]
        not_refunded = [b.name]
    else:
        a = rng.choice(products(30, 400))
        when = rng.randint(3, 15)
        o = s.cancelled(c, [a], ago=when)
        amount = o.total
        ask = f"I cancelled order {o.id} (the {a.lower}) - has the money been refunded?"
        what = f"order {o.id} was cancelled and the full {fmt(amount)} was refunded"
        wrong_amount = money(amount + 5.99) if amount < 50 else money(amount - 10)
        names = order_names(o)
        not_refunded = []
    s.delivered(c, [rng.choice(products(20, 100))], ago=rng.randint(60, 200))
    v = identify(g, c, order_id=o.id)
    g.add("get_order", order_id=o.id)
    refunded_on = day(-when)
    text = f"Yes: {what} to your {pay_label(c.pm)} on {refunded_on}. It can take 5 to 10 business days to show up."
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, "checking their statements for a refund."),
            goal=f"Learn whether the refund for order {o.id} was issued, how much, and when.",
            first_message=f"Hi, {ask} How much was refunded, and when? My email is {c.email}.",
            facts=c.knows(order_id=o.id),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[tells(refunded(amount, "the customer asked how much was refunded"),
                         fact(refunded_on, "the customer asked when the refund was issued"), goes_to(s, c)),
                    # the customer asks whether it went through: "it hasn't been issued yet" is the wrong answer
                    stance("refund", "done", f"the refund was issued on {refunded_on}", names, others=not_refunded),
                    # (the refund, and a cancellation, happened before: what a question could wrongly add is a credit)
                    *nothing_done(names, ("add",))],
        wrong=[
            reply(text.replace(fmt(amount), fmt(wrong_amount)), "states the wrong amount"),
            reply(f"Your refund for order {o.id} is still being processed; it hasn't been issued yet.",
                  "says the refund is pending"),
            drop(v, note=NO_VERIFY),
        ],
        kind="read_only", difficulty="easy", skills=["verification", "refunds"],
    )


def _keyword(p: Product) -> str | None:
    """A word of the product's name that finds it, and only it, with search_products."""
    for w in sorted(p.name.replace("(", " ").replace(")", " ").split(), key=len, reverse=True):
        if len(w) >= 4 and w.isalpha() and [q for q in CATALOG if w.lower() in q.lower] == [p]:
            return w.lower()
    return None


SEARCHABLE = [p for p in CATALOG if _keyword(p)]
# "out of stock", as agents say it; the fact names what is missing, so "we don't have any in stock" counts
# (may_be_negated), and so does a count of zero said as a stock count ("Stock: 0", "0 left")
OUT_OF_STOCK = ("out of stock", "not in stock", "sold out", "none in stock", "0 in stock", "no stock", "none left",
                "unavailable", "not available", "none available", "not have any", "not have it", "not have them",
                "not have one", "have none", "have no", "none on hand", "not currently stocked", "not stocked",
                "all out", "run out", "ran out", "out of it", "out of them", "none of them", "none at the moment",
                "none right now", "no units", "no more", "not carrying any", "not got any")
# the role of a stock count: a price said where the stock count goes ("costs 17") does not state it
STOCK_WORDS = ("stock", "left", "available", "have", "units", "unit", "on hand", "in store", "inventory", "carry",
               "there are", "there is", "remain", "pieces", "of them", "qty", "quantity", "count", "supply")


def sold_out(why: str, names: Sequence[str], **own: Any) -> dict[str, Any]:
    """A product that is out of stock: said in any of the words above ("we don't have any of the tents in
    stock", "no tents left"), or as a zero stock count ("Stock: 0", "0 left"); with two products, bound to
    its own name."""
    words = list(dict.fromkeys(f"no {w.lower()}" for w in names if len(w) >= 4))
    return fact(OUT_OF_STOCK[0], why, *OUT_OF_STOCK[1:], *words, may_be_negated=True, **own,
                alternatives=[fact(0, why, near=STOCK_WORDS, **own)])


def stock_count(st: int, why: str, names: Sequence[str], **own: Any) -> dict[str, Any]:
    """A stock count: beside a stock word in its clause ("we have 36 in stock"), or counting the product by its
    own name ("In stock: 3 Bamboo Cutting Boards and 36 Mechanical Keyboards", where "and" ends the clause before
    the stock word reaches the second count); a count of another product's name does not state it."""
    counted = [w for n in names if n for w in (f"{st} {n}", f"{st} of the {n}")]
    return fact(st, why, near=STOCK_WORDS, **own, alternatives=[fact(counted[0], why, *counted[1:])])


@template("a general product question: price and units in stock (no account involved)")
def product_lookup(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    half = SEARCHABLE[0::2] if s.split == "test" else SEARCHABLE[1::2]
    picks = rng.sample(half, 2 if n % 2 else 1)
    g = Golden()
    stocks = [0 if (n + k) % 3 == 0 else rng.randint(2, 40) for k in range(len(picks))]
    parts, values, gone, wrong_parts = [], [], [], []
    # with two products, each price and stock count must stand by its own product's name
    words = {p.id: [w for w in re.findall(r"[A-Za-z']{4,}", p.name)] for p in picks}
    names = {p.id: list(dict.fromkeys([p.name, _keyword(p), *(w for w in words[p.id]
                                                            if not any(w in words[q.id] for q in picks if q is not p))]))
             for p in picks}
    for p, st in zip(picks, stocks, strict=True):
        g.add("search_products", query=_keyword(p))
        s.add("products", {"id": p.id, "stock": st})
        own = {"owner": names[p.id], "rivals": [n for q in picks if q is not p for n in names[q.id]]} if len(picks) > 1 else {}
        values.append(fact(fmt(p.price), f"the customer asked the price of the {p.lower}", **own))
        if st:
            parts.append(f"The {p.name} costs {fmt(p.price)} and we have {st} in stock.")
            wrong_parts.append(f"The {p.name} costs {fmt(p.price)} and we have {st + 5} in stock.")
            values.append(stock_count(st, f"the customer asked how many {p.lower} are in stock", names[p.id], **own))
        else:
            parts.append(f"The {p.name} costs {fmt(p.price)}, but it is currently out of stock.")
            wrong_parts.append(f"The {p.name} costs {fmt(p.price)} and we have 6 in stock.")
            gone.append(sold_out(f"the customer asked how many {p.lower} are in stock", [*words[p.id], _keyword(p) or ""],
                                 **own))
    names = " and the ".join(p.lower for p in picks)
    text = " ".join(parts)
    wrong_price = " ".join(parts).replace(fmt(picks[0].price), fmt(picks[0].price + 10))
    swapped = " ".join(reversed(parts))
    if len(picks) == 2:  # the sentences kept, the names exchanged: every value on the other product
        swapped = " ".join(parts).replace(picks[0].name, "\0").replace(picks[1].name, picks[0].name).replace("\0", picks[1].name)
    c_first, c_last = s.pool.name()
    return TaskSpec(
        caller=Caller(
            persona=f"{c_first} {c_last}, a shopper comparing prices; not asking about any order.",
            goal=f"Learn the price of the {names} and how many are in stock.",
            first_message=f"Hi, how much is the {names}, and how many do you have in stock?",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[tells(*values)] + ([says(*gone)] if gone else [])
        # a shopper's question: nothing was set aside for them (there is no such tool)
        + nothing_done([p.name for p in picks], ("reserve",)),
        wrong=[reply(" ".join(wrong_parts), "gets the stock wrong"), reply(wrong_price, "states the wrong price")]
        + ([reply(swapped, "gives each product the other's price and stock")] if len(picks) == 2 else []),
        kind="read_only", difficulty="easy", skills=["products"],
    )


# The answer to "can I use this code on my order?", in the words agents use: yes (it qualifies), no (below
# the code's minimum), no (it has expired). A negated "qualifies" ("your order doesn't qualify") is no yes.
CODE_WORKS = ("yes", "qualifies", "qualify", "eligible", "can use", "can be used", "can apply", "can be applied",
              "will apply", "would apply", "applies", "will work", "would work", "works", "meets the minimum",
              "meet the minimum", "reaches the minimum", "above the minimum", "over the minimum", "valid for your order",
              "valid on your order", "good to use", "good to go", "valid on a", "valid for a", "valid on this",
              "valid for this", "valid on the", "valid for the")
BELOW_MINIMUM = ("doesn't qualify", "does not qualify", "won't qualify", "wouldn't qualify", "will not qualify",
                 "would not qualify", "not qualify", "isn't eligible", "is not eligible", "wouldn't be eligible",
                 "won't be eligible", "not eligible", "doesn't meet", "does not meet", "wouldn't meet", "won't meet",
                 "not meet", "doesn't reach", "does not reach", "wouldn't reach", "won't reach", "not reach",
                 "below the minimum", "under the minimum", "short of the minimum", "falls short", "fall short",
                 "less than the minimum", "too low", "too small", "can't be used", "cannot be used", "can't use",
                 "cannot use", "won't work", "wouldn't work", "will not work", "would not work", "won't apply",
                 "wouldn't apply", "not apply", "can't apply", "cannot apply", "can't be applied", "cannot be applied",
                 "not be applied", "need to add", "need to spend", "would need", "you'd need", "not enough",
                 "isn't enough", "unfortunately not", "unfortunately no", "not high enough", "not quite", "unable to apply",
                 "not on a", "not on your", "not on this", "not for a", "not for your", "not for this",  # "Not on a $385 order"
                 "not able to apply", "couldn't apply", "could not apply", "couldn't be applied", "could not be applied",
                 "not applicable", "doesn't apply", "does not apply", "not valid for", "isn't valid for",
                 "not valid on", "isn't valid on", "no, sorry", "sorry, no", "sorry, but no", "short",
                 "no, it won't", "no, it doesn't", "no, you can't", "no, unfortunately")
# the rule itself, said to a customer whose order the state shows the code was not applied to
# (not for promo_terms' yes/no answer, where "works on orders of 400 or more" leaves the question open)
MINIMUM_RULE = ("only works on", "only valid on", "only valid for", "only applies to", "only for orders", "or more",
                "minimum of", "minimum is", "requires a minimum", "needs a minimum", "minimum spend", "minimum subtotal")
EXPIRED = ("expired", "no longer valid", "no longer active", "no longer be used", "no longer usable",
           "no longer available", "can no longer", "not valid anymore", "isn't valid anymore", "not active anymore",
           "isn't active anymore", "has ended", "ended on", "ran out", "past its expiry", "past its expiration",
           "out of date", "lapsed", "date has passed", "was only valid", "only valid until", "only valid through",
           "can't be used", "cannot be used", "won't work", "will not work", "not usable")
ASKED_CODE = "the customer asked whether the code can be used on their order"
# why a code cannot be applied, when it has expired: the words that say so, not a bare "can't be used"
EXPIRED_REASON = tuple(w for w in EXPIRED if w not in ("can't be used", "cannot be used", "won't work", "will not work",
                                                       "not usable", "can no longer"))


def other_discounts(p: dict[str, Any], planned: float) -> dict[str, Any]:
    """A discount the code does not give, said as its discount ("FREESHIP gives 10.00 off" for a 7.00 code, "12.00
    off" for a 12% code): every other whole amount and percentage said as "N off" (the customer did not ask what the
    code gives, so the real one is not required, but a made-up one is misinformation, and `grounded` lets a policy
    constant or one step of arithmetic through). Left free: the real discount, a percent code's discount on the
    planned order (either way it is rounded), a fixed code's share of the planned order, and the shortfall below the
    minimum ("you're 15.00 off the minimum")."""
    value, minimum = float(p["value"]), float(p["min_subtotal"])
    if p["kind"] == "percent":
        free_money = {round(planned * value / 100, 2), math.floor(planned * value / 100), math.ceil(planned * value / 100)}
        free_pct = {value}
    else:
        free_money = {value}
        free_pct = {math.floor(value / planned * 100), math.ceil(value / planned * 100)}
    if minimum > planned:
        free_money |= {round(minimum - planned, 2)}
    money_ = [f"{fmt(a)} off" for a in (*range(1, 101), *range(105, 505, 5)) if float(a) not in free_money
              and (p["kind"] == "fixed" or a == int(value))]
    pct = [f"{k}% off" for k in range(1, 101) if float(k) not in free_pct]
    return says_not(claim(*(money_ + pct) if p["kind"] == "fixed" else (pct + money_)),
                    why="policy, Promotions: a code gives the discount its terms say; never invent an amount")


SAVING_WORDS = ("save", "saving", "off", "discount", "knock", "reduc", "cheaper", "lower")


SAVING_WHY = "policy, Promotions: a code gives the discount its terms say, an order holds the discount it has"


def made_up_saving(o: Order | dict[str, Any], code: str, items: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """A saving the episode does not give, said as one ("NEWYEAR30 would save you 37.25", "your current discount is
    37.25"): the amounts `grounded` lets through as one step of arithmetic on the order's figures (a share by a
    count up to 12, a sum or difference, a round percentage of one), said beside a saving word. Left free: the
    order's own figures (its discount, subtotal, total, prices), what the code gives on this order (its value, its
    percentage of the subtotal), the total it would make, the difference between the two discounts, and the
    shortfall below the code's minimum."""
    p = PROMOS[code]
    row, items = (o.row, o.items) if isinstance(o, Order) else (o, items)
    subtotal = float(row["subtotal"])
    figures = [float(row.get(k) or 0) for k in ("subtotal", "discount", "total", "shipping_fee")]
    figures += [float(i["unit_price"]) for i in items] + [float(p["value"]), float(p["min_subtotal"])]
    figures = [f for f in dict.fromkeys(figures) if f > 0]
    made: set[float] = set()
    for a in figures:
        made.update(money(a / k) for k in range(2, 13))
        made.update(money(a * q / 100) for q in range(5, 55, 5))
        made.update(money(a + b) for b in figures)
        made.update(money(abs(a - b)) for b in figures)
    gives = promo_discount(code, subtotal)
    held = money(float(row.get("discount") or 0))
    free = {held, money(float(p["value"])), gives, money(abs(gives - held)), money(abs(float(p["min_subtotal"]) - subtotal)),
            *map(money, figures), money(subtotal - gives + float(row.get("shipping_fee") or 0))}  # the order's own figures
    # (whole amounts under 100 left out: the normaliser reads the cents of "11.60" or "37.25" as the number 6 or 25)
    amounts = sorted(a for a in made - free if a > 0 and not (a == int(a) and a < 100))
    return says_not(claim(*map(fmt, amounts), near=SAVING_WORDS), why=f"{SAVING_WHY}; never invent an amount")


PROMO_QUESTIONS = {"test": ["SAVE20", "HOLIDAY15", "NEWYEAR30", "VIP50", "CYBER25"],
                   "train": ["KITCHEN12", "FREESHIP", "FALL5", "SUMMER20", "SPRING10"]}


@template("the public terms of a promotion code for a planned order (no account involved)")
def promo_terms(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    codes = PROMO_QUESTIONS[s.split]
    code = codes[n % len(codes)]
    p = PROMOS[code]
    g = Golden()
    g.add("get_promotion", code=code)
    expired = p["expires_on"] < TODAY.isoformat()
    minimum = float(p["min_subtotal"])
    planned = rng.choice([minimum - 15, minimum + 20]) if minimum else rng.randint(30, 90)
    planned = max(planned, 20)
    value = f"{int(p['value'])}% off" if p["kind"] == "percent" else f"{fmt(p['value'])} off"
    until = fact(p["expires_on"], "the customer asked until when the code is valid")
    if expired:
        text = f"I'm sorry, {code} ({value}) expired on {p['expires_on']}, so it can no longer be used."
        facts = [until]
        answer = fact(EXPIRED[0], f"{ASKED_CODE}; it cannot: the code has expired (policy, Promotions: a code must "
                      "not be expired)", *EXPIRED[1:])
        wrong = reply(f"Yes, {code} gives you {value}; it was valid through {p['expires_on']}.",
                      "says an expired code works")
    elif planned < minimum:
        text = (f"{code} gives {value} but needs an order subtotal of at least {fmt(minimum)}, so a "
                f"{fmt(planned)} order does not qualify. The code is valid through {p['expires_on']}.")
        facts = [fact(fmt(minimum), "the customer asked whether the code works on their order; it does not, because "
                      "of the code's minimum subtotal (policy, Promotions)", near=MIN_WORDS, may_be_negated=True), until]
        answer = fact(BELOW_MINIMUM[0], f"{ASKED_CODE}; it cannot: the order is below the code's minimum subtotal "
                      "(policy, Promotions)", *BELOW_MINIMUM[1:], may_be_negated=True)
        wrong = reply(f"Yes, {code} gives you {value} on your {fmt(planned)} order; it is valid through "
                      f"{p['expires_on']}.", "ignores the minimum subtotal")
    else:
        text = (f"Yes: {code} gives {value} on orders of at least {fmt(minimum)}, so your {fmt(planned)} order "
                f"qualifies. It is valid through {p['expires_on']}.")
        facts = [until]
        answer = fact(CODE_WORKS[0], f"{ASKED_CODE}; it can: active, not expired, and the order reaches the minimum "
                      "(policy, Promotions)", *CODE_WORKS[1:])
        wrong = reply(f"Yes: {code} gives {value} on your order; it is valid through 2026-12-31.",
                      "states the wrong expiry date")
    c_first, c_last = s.pool.name()
    return TaskSpec(
        caller=Caller(
            persona=f"{c_first} {c_last}, planning a purchase of about ${planned:.0f} and hunting for discounts.",
            goal=f"Learn whether code {code} can be used on a {fmt(planned)} order, and until when.",
            first_message=(f"Hi, I'm about to place an order of about ${planned:.2f}. Can I use the code {code}? "
                           "Until when is it valid?"),
            facts={"code": code, "planned_subtotal": fmt(planned)},
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[tells(*facts), says(answer), other_discounts(p, planned)],
        wrong=[wrong, reply(f"Sorry, I can't give out information about promotion {code}.", "refuses a public question")],
        kind="read_only", difficulty="easy", skills=["promotions"],
    )


def not_shipped_date(waiting: Order, others: Sequence[Order] = ()) -> dict[str, Any]:
    """A delivery date said for an order that has not shipped (it has no shipment, so no estimate): any date of the
    next three months owned by that order (its id or product the nearest name), against the orders that do have one
    (whose dates are real; `grounded` lets another order's eta, or today plus a policy's count of days, through)."""
    return says_not(claim(*[day(k) for k in range(1, 91)], **owned(waiting, others)),
                    why=f"{CLAIM_WHY}: order {waiting.id} has not shipped, so it has no estimated delivery date; "
                    "never invent dates")


@template("an overview of every order still on its way: one eta per shipment (long read-only)", LONG_COUNTS)
def shipments_overview(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(membership=rng.choice(["basic", "plus"]))
    s.delivered(c, [rng.choice(products(20, 120))], ago=rng.randint(30, 90))
    k = 5 + n % 2
    etas = sorted(rng.sample(range(1, 12), k))
    pool = rng.sample(products(15, 250), k + 1)
    shipped = []
    for j in range(k):
        delayed = j == 1 or (j == 3 and n % 2 == 0)
        shipped.append(s.on_the_way(c, [pool[j]], eta=etas[j], reason="carrier_delay" if delayed else None,
                                    placed=-rng.randint(2, 9)))
    waiting = s.unshipped(c, [pool[k]])
    rng.shuffle(shipped)
    g = Golden()
    v = identify(g, c)
    g.add("list_customer_orders", customer_id=c.id)
    for o in sorted(shipped, key=lambda o: o.row["placed_on"], reverse=True):
        g.add("get_shipment", order_id=o.id)
    lines = []
    for o in shipped:
        sh = o.shipment
        assert sh is not None
        late = " (delayed by the carrier)" if sh["status"] == "exception" else ""
        lines.append(f"{o.id} ({o.items[0]['product_name']}): expected {sh['eta']}{late}")
    text = ("Here is where your orders stand: " + "; ".join(lines) + f". Order {waiting.id} "
            f"({waiting.items[0]['product_name']}) has not shipped yet.")
    first_eta = shipped[0].shipment["eta"] if shipped[0].shipment else ""
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, "has several holiday orders in flight and wants an overview."),
            goal="Learn the expected delivery date of every order that is on its way.",
            first_message="Hi, I have a bunch of orders on the way. Can you tell me when each of them will arrive?",
            facts=c.knows(),
            instructions="You want the expected delivery date of each order that is on its way. Do not ask for compensation.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[tells(*[fact(o.shipment["eta"], f"the customer asked when each order arrives ({o.id})",
                                 **owned(o, [x for x in shipped if x is not o]))
                            for o in shipped if o.shipment]),
                    not_shipped_date(waiting, shipped),
                    *nothing_done([n for o in [*shipped, waiting] for n in [o.id, o.items[0]["product_name"]]]
                                  + list(ORDER_WORDS))],
        wrong=[
            reply(text.replace(first_eta, "2026-12-20"), "gets one order's date wrong"),
            drop(v, note=NO_VERIFY),
            append(call("issue_store_credit", customer_id=c.id, order_id=shipped[0].id, amount=c.goodwill,
                        reason="Delays"), note="hands out a goodwill credit nobody asked for"),
        ],
        kind="read_only", difficulty="medium", skills=["verification", "shipping", "aggregation"],
    )


# =================================================================================================
# orders: cancellation, promotions, addresses
# =================================================================================================

CANCEL_REASONS = ["I ordered it by mistake", "I found it cheaper elsewhere", "I don't need it anymore",
                  "I ordered the wrong model"]


@template("cancel a not-yet-shipped order; another open order must stay")
def cancel_unshipped(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    s.delivered(c, [rng.choice(products(20, 150))], ago=rng.randint(20, 150))
    a, b, x = rng.sample(products(20, 260), 3)
    lines = [a, b] if n % 2 else [a]
    sub = sum(p.price for p in lines)
    promo = "SAVE20" if n % 4 == 3 and sub >= 100 else None
    o = s.unshipped(c, lines, promo=promo)
    other = s.unshipped(c, [x])
    why = rng.choice(CANCEL_REASONS)
    g = Golden()
    by_order = n % 2 == 0
    v = identify(g, c, order_id=o.id if by_order else None)
    g.add("get_order", order_id=o.id)
    k = g.add("cancel_order", order_id=o.id, reason=why)
    first = (f"Please cancel my order {o.id} - {why}. My email is {c.email}." if by_order
             else f"Hi, please cancel my order {o.id}: {why}.")
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"wants to cancel order {o.id} ({a.lower}); another order {other.id} should go ahead."),
            goal=f"Cancel order {o.id} (and only that order) and learn how much is refunded.",
            first_message=first,
            facts=c.knows(order_id=o.id, reason=why),
            instructions=f"Only order {o.id} should be cancelled; keep order {other.id}.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"Order {o.id} is cancelled. The full {fmt(o.total)} is refunded to your {pay_label(c.pm)} and should "
               "appear within 5 to 10 business days."),
        assertions=[
            exists("orders", id=o.id, status="cancelled"), unchanged("orders", other.id, "status"),
            tells(refunded(o.total, CANCEL_REFUND),
                  goes_to(s, c)),
            done_to_other(CANCELED, o, other, what=f"{o.id} was cancelled, {other.id} goes ahead"),
        ],
        wrong=[
            replace({k: call("cancel_order", order_id=other.id, reason=why)}, "wrong_entity", "cancels the other open order"),
            append(call("cancel_order", order_id=other.id, reason=why), note="cancels both open orders"),
            drop(v, note=NO_VERIFY),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "cancellation"],
    )


@template("cancel (or refund) an order that already shipped: refused, return after delivery instead")
def cancel_shipped_refusal(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(membership="plus" if n % 3 == 2 else "basic")
    item = rng.choice(products(30, 450))
    o = s.on_the_way(c, [item], eta=rng.randint(1, 5))
    sh = o.shipment
    assert sh is not None
    g = Golden()
    v = identify(g, c, order_id=o.id if n % 2 else None)
    if c.plus:
        g.add("get_customer", customer_id=c.id)
    g.add("get_order", order_id=o.id)
    ask = ["cancel", "refund"][n % 2]
    if ask == "cancel":
        first = f"I want to cancel order {o.id} ({item.lower}), I changed my mind."
    else:
        first = f"I changed my mind about the {item.lower} in order {o.id}. Can you refund me right now?"
    text = (f"Order {o.id} has already shipped (it is due on {sh['eta']}), so it can no longer be cancelled or "
            f"refunded now. Once it is delivered you can return it within {c.window} days of delivery, and the "
            "refund is issued when the warehouse receives it.")
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"changed their mind about order {o.id}, which is already on its way."),
            goal=f"{ask.capitalize()} order {o.id}.",
            first_message=first,
            facts=c.knows(order_id=o.id, reason="I changed my mind"),
            instructions="Nothing is wrong with the item; you changed your mind. Accept the agent's explanation.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[
            unchanged("orders", o.id, "status"), absent("refunds", order_id=o.id),
            says(shipped_reason("policy, Orders: a shipped order cannot be cancelled (Refunds: nor refunded while "
                                "on its way)"),
                 fact("return", "policy, Orders: tell the customer they can return it once it is delivered",
                      *RETURN_LATER)),
            stance("cancel", "refused", "policy, Orders: a shipped order cannot be cancelled", order_names(o)),
            # not refused for good: "you'll be refunded once it's back" is true, "I've refunded you" is not
            stance("refund", "not_done", "policy, Refunds: never refund an order that is still on its way; it is "
                   "refunded once returned", order_names(o)),
        ],
        wrong=[
            append(call("issue_refund", order_id=o.id, amount=o.total, reason="Customer changed their mind"),
                   note="refunds an order that is still on its way"),
            reply(f"Done - order {o.id} is cancelled and {fmt(o.total)} will be refunded to your card.",
                  "claims the order was cancelled"),
            drop(v, note=NO_VERIFY),
        ],
        kind="refusal", difficulty="easy", skills=["verification", "cancellation", "policy"],
    )


@template("return an item for a non-defect reason inside the window: return opened, no refund yet")
def return_changed_mind(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(membership="plus" if n % 2 else "basic")
    on_the_boundary = (n // 2) % 2 == 0  # delivered exactly 30 (60) days ago: still inside the window
    ago = c.window if on_the_boundary else rng.randint(31 if c.plus else 5, c.window - 1)
    a, b = rng.sample(products(20, 190), 2)
    promo = "KITCHEN12" if n % 3 == 1 and a.price + b.price >= 75 else None
    o = s.delivered(c, [a, b], ago=ago, promo=promo)
    assert o.shipment is not None
    item = o.item(0)
    amount = o.paid(item)
    why = rng.choice(["it's not the right size", "I changed my mind", f"I no longer need {it(a.name)}",
                      "the color isn't what I expected"])
    g = Golden()
    v = identify(g, c)
    g.add("get_customer", customer_id=c.id)
    g.add("get_order", order_id=o.id)
    k = g.add("create_return", order_id=o.id, item_ids=[item["id"]], reason=why.capitalize())
    window = "As a plus member you have 60 days" if c.plus else "You have 30 days"
    text = (f"{window} to return items, and order {o.id} was delivered on {o.shipment['delivered_on']}, so the "
            f"{a.name} can still be returned. I've opened return {NEW_RETURN}. Once the warehouse receives it, "
            f"{fmt(amount)} will be refunded to your {pay_label(c.pm)}.")
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"wants to send back the {a.lower} from order {o.id}; nothing is wrong with it."),
            goal=f"Return the {a.lower} from order {o.id} (keep the {b.lower}) and learn how much will be refunded.",
            first_message=f"Hi, I'd like to return the {a.lower} from order {o.id} - {why}.",
            facts=c.knows(order_id=o.id, reason=why),
            instructions="Nothing is wrong with the item. You only want to return it.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[
            exists("return_items", order_item_id=item["id"]), absent("refunds", order_id=o.id),
            tells(refunded(amount, "policy, Returns: for a return without a defect, tell the customer the amount "
                  "they will get back"), return_id()),
            # waiting on the warehouse: "you'll get it back once it arrives" is true, "I've refunded" is not
            stance("refund", "pending", "policy, Returns: for a return without a defect the warehouse refunds when the "
                   "item arrives back", order_names(o, more=[NEW_RETURN])),
        ],
        wrong=[
            append(call("issue_refund", order_id=o.id, amount=amount, reason="Return", return_id=NEW_RETURN),
                   note="refunds before the item is back although nothing is wrong with it"),
            replace({k: call("create_return", order_id=o.id, item_ids=[o.item(1)["id"]], reason=why.capitalize())},
                    "wrong_entity", "returns the other item"),
            drop(v, note=NO_VERIFY),
        ],
        kind="single_write", difficulty="medium", skills=["verification", "returns", "membership", "dates"],
    )


@template("return request outside the return window (30 days, 60 for plus): declined with the dates")
def return_window_refusal(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(membership="plus" if n % 2 else "basic")
    ago = ([31, rng.randint(32, 80)] if not c.plus else [61, rng.randint(62, 120)])[(n // 2) % 2]
    item = rng.choice(products(20, 400))
    o = s.delivered(c, [item], ago=ago)
    assert o.shipment is not None
    delivered_on = o.shipment["delivered_on"]
    defect = n % 3 == 0
    pron = it(item.name)
    why = f"{'they' if plural(item.name) else 'it'} stopped working" if defect else rng.choice(
        [f"I never used {pron}", f"I don't need {pron} anymore"])
    g = Golden()
    v = identify(g, c)
    g.add("get_customer", customer_id=c.id)
    g.add("get_order", order_id=o.id)
    window = "plus members can return items within 60 days" if c.plus else "items can be returned within 30 days"
    rule = "policy, Returns: outside the window, decline and tell the customer the window and the delivery date"
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"wants to return the {item.lower} from order {o.id}, delivered {ago} days ago."),
            goal=f"Return the {item.lower} from order {o.id} for a refund.",
            first_message=f"Hi, I want to return the {item.lower} from order {o.id} - {why}.",
            facts=c.knows(order_id=o.id, reason=why),
            instructions="If the agent declines and explains why, accept it.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"I'm sorry, {window} of delivery, and order {o.id} was delivered on {delivered_on}, so the "
               f"{item.name} can no longer be returned."),
        assertions=[absent("returns", order_id=o.id), tells(fact(f"{c.window} days", rule), fact(delivered_on, rule)),
                    stance("return", "refused", "policy, Returns: outside the window, decline the return", order_names(o)),
                    stance("refund", "refused", "policy, Returns: outside the window nothing is returned or refunded",
                           order_names(o)),
                    says_not(claim(*RETURN_OPENED), why=f"{CLAIM_WHY}: the return was declined, none was opened")],
        wrong=[
            append(call("create_return", order_id=o.id, item_ids=[o.item(0)["id"]], reason=why.capitalize()),
                   note="opens a return outside the window"),
            reply("Sorry, that item can't be returned anymore.", "declines without citing the window and delivery date"),
            drop(v, note=NO_VERIFY),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "returns", "membership", "dates", "policy"],
    )


# =================================================================================================
# returns and refunds
# =================================================================================================

ELECTRIC = {"High-Speed Blender", "Espresso Machine", "Electric Kettle", "Air Fryer 5qt", "Stand Mixer",
            "Robot Vacuum", "Air Purifier", "LED Desk Lamp", "Cordless Drill", "Remote Control Car",
            "Outdoor String Lights"} | {p.name for p in CATALOG if p.category == "electronics"}


def damage_for(rng: random.Random, product_name: str) -> str:
    """A defect that fits the product (all of them make it a damaged or defective item)."""
    if product_name in ELECTRIC:
        return rng.choice(["won't turn on", "stopped working after one day", "arrived broken"])
    if any(p.name == product_name and p.category == "apparel" for p in CATALOG):
        return rng.choice(["arrived with a torn seam", "arrived with a stain that won't wash out"])
    return rng.choice(["arrived cracked", "arrived broken", "arrived damaged"])


@template("an item arrived damaged or defective: return and immediate refund (with a ticket in some)")
def damaged_item_refund(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    v_discount = n % 2 == 1
    v_ticket = n % 4 >= 2
    v_close = n % 4 == 3
    o = s.damaged_order(c, 2 + n % 2, 190, v_discount)
    j = rng.randrange(len(o.items))
    item = o.item(j)
    name = spoken(item["product_name"])
    amount = o.paid(item)
    damage = damage_for(rng, item["product_name"])
    t = s.ticket(c, o, f"{item['product_name']} {damage}", "product") if v_ticket else None
    g = Golden()
    v = identify(g, c)
    if t:
        g.add("get_ticket", ticket_id=t["id"])
    g.add("get_order", order_id=o.id)
    if v_discount:
        g.add("calculate_refund_amount", order_id=o.id, item_ids=[item["id"]])
    g.add("create_return", order_id=o.id, item_ids=[item["id"]], reason=damage.capitalize())
    r = g.add("issue_refund", order_id=o.id, amount=amount, reason=f"{item['product_name']} {damage}",
              return_id=NEW_RETURN)
    wrong = [
        replace({r: call("issue_refund", order_id=o.id, amount=money(item["unit_price"] * item["quantity"])
                         if v_discount else o.total, reason="Damaged item", return_id=NEW_RETURN)},
                "wrong_amount", "ignores the discount share" if v_discount else "refunds the whole order"),
        drop(r, note="opens the return but does not refund a damaged item"),
    ]
    assertions: list[dict[str, Any]] = [exists("returns", order_id=o.id, status="refunded"),
                                        tells(refunded(amount), goes_to(s, c), return_id())]
    text = (f"I'm sorry about that. I've opened return {NEW_RETURN} for the {item['product_name']} and refunded "
            f"{fmt(amount)} to your {pay_label(c.pm)}; it should appear within 5 to 10 business days.")
    if v_discount:
        text += f" The amount is what you paid for it after the order's {o.row['promo_code']} discount."
    first = f"Hello, the {name} in my order {o.id} {damage}. I'd like my money back."
    goal = f"Get a refund for the {name} from order {o.id}."
    if t:
        nt = g.add("add_ticket_note", ticket_id=t["id"],
                   note=f"Return {NEW_RETURN} opened; refunded {fmt(amount)} for the damaged item.")
        wrong.append(drop(nt, note="no note on the ticket the customer mentioned"))
        assertions.append(exists("ticket_notes", ticket_id=t["id"]))
        first = f"Hi, about ticket {t['id']}: the {name} from order {o.id} {damage}. Please refund it."
        text += f" I've noted this on ticket {t['id']}."
        if v_close:
            cl = g.add("update_ticket_status", ticket_id=t["id"], status="closed")
            wrong.append(drop(cl, note="leaves the ticket open although the customer asked to close it"))
            assertions += [exists("tickets", id=t["id"], status="closed"), says(closed_status(t["id"]))]
            first += " Once that's done you can close the ticket."
            text += f" Ticket {t['id']} is now closed."
            goal = f"Get a refund for the {name} from order {o.id} and have ticket {t['id']} closed."
        else:
            wrong.append(append(call("update_ticket_status", ticket_id=t["id"], status="closed"),
                                note="closes the ticket nobody asked to close"))
    else:
        wrong.append(drop(v, note=NO_VERIFY))
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"the {name} from order {o.id} {damage}."),
            goal=goal, first_message=first,
            facts=c.knows(order_id=o.id, item=item["product_name"], problem=damage,
                          **({"ticket_id": t["id"]} if t else {})),
            instructions="Only the damaged item is a problem; keep the rest of the order. You will send it back.",
        ),
        patch=s.patch(), golden=g, reply=text, assertions=assertions, wrong=wrong,
        kind="multi_step", difficulty="hard" if v_close else "medium",
        skills=["verification", "returns", "refunds"] + (["tickets"] if t else []),
    )


def _split(amount: float, order_id: str, return_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two refunds under the approval limit instead of one above it: what the policy forbids."""
    first = min(APPROVAL_LIMIT, money(amount - 0.01))
    return (call("issue_refund", order_id=order_id, amount=first, reason="Refund part 1", return_id=return_id or None),
            call("issue_refund", order_id=order_id, amount=min(APPROVAL_LIMIT, money(amount - first)),
                 reason="Refund part 2"))


@template("a defective item above $200: return, manager approval, refund (ticket note in some)")
def refund_approval(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    v_discount = n % 2 == 1
    v_ticket = n % 4 >= 2
    for _ in range(50):
        big = rng.choice([p for p in products(215, 900) if p.name in ELECTRIC])
        small = rng.choice(products(15, 80))
        lines = [big, small] if v_discount or n % 3 == 0 else [big]
        sub = sum(p.price for p in lines)
        code = next((x for x in ("VIP50", "NEWYEAR30", "SAVE20", "HOLIDAY15") if promo_usable(x, sub)), None)
        if not v_discount or code:
            break
    o = s.delivered(c, lines, ago=rng.randint(2, 20), promo=code if v_discount else None)
    item = o.item(0)
    amount = o.paid(item)
    assert amount > APPROVAL_LIMIT
    damage = damage_for(rng, big.name)
    t = s.ticket(c, o, f"{big.name} defective", "product") if v_ticket else None
    g = Golden()
    v = identify(g, c)
    if t:
        g.add("get_ticket", ticket_id=t["id"])
    g.add("get_order", order_id=o.id)
    if v_discount:
        g.add("calculate_refund_amount", order_id=o.id, item_ids=[item["id"]])
    g.add("create_return", order_id=o.id, item_ids=[item["id"]], reason=damage.capitalize())
    a = g.add("request_manager_approval", order_id=o.id, amount=amount, reason=f"Defective {big.name} returned")
    r = g.add("issue_refund", order_id=o.id, amount=amount, reason=f"Defective {big.name}", return_id=NEW_RETURN,
              approval_id=NEW_APPROVAL)
    p1, p2 = _split(amount, o.id, NEW_RETURN)
    # the wrong amount must stay refundable (within the order total), or the tool would refuse it
    full = money(item["unit_price"] * item["quantity"]) if v_discount else o.total
    wrong = [
        replace({a: p1, r: p2}, "skipped_approval", "splits the refund to stay under the approval limit"),
    ]
    if full != amount and full <= o.total:
        wrong.append(replace({a: call("request_manager_approval", order_id=o.id, amount=full, reason="Defective item"),
                              r: call("issue_refund", order_id=o.id, amount=full, reason="Defective item",
                                      return_id=NEW_RETURN, approval_id=NEW_APPROVAL)},
                             "wrong_amount", "ignores the discount share" if v_discount else "refunds the whole order"))
    text = (f"I've opened return {NEW_RETURN} for the {big.name}. A manager approved the refund, and {fmt(amount)} "
            f"has been refunded to your {pay_label(c.pm)}; it should appear within 5 to 10 business days.")
    if v_discount:
        text += f" That is what you paid for it after the order's {o.row['promo_code']} discount."
    assertions = [exists("refunds", order_id=o.id, approval_id=NEW_APPROVAL),
                  tells(refunded(amount), goes_to(s, c), return_id())]
    first = f"My new {big.lower} from order {o.id} {damage}. I want to send it back and get a refund."
    if t:
        nt = g.add("add_ticket_note", ticket_id=t["id"],
                   note=f"Return {NEW_RETURN}; approval {NEW_APPROVAL}; refunded {fmt(amount)}.")
        wrong.append(drop(nt, note="no note on the ticket the customer mentioned"))
        assertions.append(exists("ticket_notes", ticket_id=t["id"]))
        first = f"Hi, it's about ticket {t['id']}: the {big.lower} from order {o.id} {damage}. I want a refund."
        text += f" I've noted everything on ticket {t['id']}."
    if len(wrong) < 3:
        wrong.append(drop(v, note=NO_VERIFY))
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"the {big.lower} from order {o.id} {damage}; they need the money back."),
            goal=f"Return the defective {big.lower} from order {o.id} and get a full refund for it.",
            first_message=first,
            facts=c.knows(order_id=o.id, item=big.name, problem=damage, **({"ticket_id": t["id"]} if t else {})),
        ),
        patch=s.patch(), golden=g, reply=text, assertions=assertions, wrong=wrong,
        kind="approval", difficulty="hard",
        skills=["verification", "returns", "refunds", "approval"] + (["discounts"] if v_discount else []),
    )


TOTAL_WHY = "policy, Refunds: the refund asked for is the returned item's"


def total_not_refund(total: float, amount: float) -> list[dict[str, Any]]:
    """The order's total said as the refund asked for ("the 313.98 refund could not be approved" where the item
    was 279.99): a real figure of another role is made up here."""
    if fmt(total) == fmt(amount):
        return []
    return [says_not(fact(fmt(total), "", owner=["refund", "approv", "reimburs", "money back"],
                          rivals=["total", "came to", "in all", "altogether", "you paid", "paid", "whole order"]),
                     why=f"{TOTAL_WHY}, {fmt(amount)}, not the order's total {fmt(total)}")]


@template("a refund above $200 the manager denies: nothing refunded, the case escalated (new ticket in some)")
def approval_denied_escalate(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(risk_hold=True)
    big = rng.choice(products(215, 900))
    extra = rng.choice(products(15, 60))
    o = s.delivered(c, [big, extra], ago=rng.randint(12, 25))
    item = o.item(0)
    amount = o.paid(item)
    ret = s.return_(o, [item], "received", "Defective", ago=rng.randint(3, 8))
    has_ticket = n % 2 == 0
    old_tickets: list[str] = []  # the customer's other tickets, which were not escalated
    g = Golden()
    identify(g, c)
    if has_ticket:
        t = s.ticket(c, o, f"Refund for returned {big.name}", "refund", ago=2)
        g.add("get_ticket", ticket_id=t["id"])
        g.add("get_order", order_id=o.id)
        g.add("get_return", return_id=ret["id"])
        g.add("request_manager_approval", order_id=o.id, amount=amount, reason=f"Return {ret['id']} received")
        e = g.add("escalate_ticket", ticket_id=t["id"], reason="Manager denied the refund approval")
        tid = t["id"]
        first = (f"I sent back the {big.lower} from order {o.id} and still haven't got my refund. I have ticket "
                 f"{tid} open about it.")
        no_escalation = drop(e, note="tells the customer no but does not escalate")
        ticket_check = exists("tickets", id=tid, status="escalated")
        facts = c.knows(order_id=o.id, ticket_id=tid, return_id=ret["id"])
    else:
        older = s.delivered(c, [rng.choice(products(15, 90))], ago=rng.randint(60, 150))
        old_tickets.append(s.ticket(c, older, "Where is my package?", "shipping", status="closed",
                                    ago=rng.randint(60, 150))["id"])
        g.add("get_return", return_id=ret["id"])
        g.add("get_order", order_id=o.id)
        g.add("request_manager_approval", order_id=o.id, amount=amount, reason=f"Return {ret['id']} received")
        g.add("list_customer_tickets", customer_id=c.id)
        k = g.add("create_ticket", customer_id=c.id, subject=f"Refund for return {ret['id']} denied", category="refund",
                  order_id=o.id)
        e = g.add("escalate_ticket", ticket_id=NEW_TICKET, reason="Manager denied the refund approval")
        tid = NEW_TICKET
        first = f"I returned the {big.lower} from order {o.id} (return {ret['id']}) a while ago. Where is my refund?"
        no_escalation = drop(k, e, note="tells the customer no but opens no case for the specialists")
        ticket_check = exists("tickets", customer_id=c.id, order_id=o.id, status="escalated")
        facts = c.knows(order_id=o.id, return_id=ret["id"])
    text = (f"Your return {ret['id']} has arrived, but I'm afraid the {fmt(amount)} refund could not be approved by a "
            f"manager, so I can't issue it. I've escalated ticket {tid} to our specialist team; a specialist will "
            "contact you within 24 hours.")
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"returned the {big.lower} from order {o.id} and is waiting for the refund."),
            goal=f"Get the refund for the returned {big.lower} (return {ret['id']}, order {o.id}).",
            first_message=first, facts=facts,
            instructions="If the agent says the refund cannot be approved, ask what happens next and accept an escalation.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[
            absent("refunds", order_id=o.id), ticket_check,
            tells(fact(NOT_APPROVED[0], "policy, Refunds: if the manager denies the approval, tell the customer the "
                      "refund could not be approved", *NOT_APPROVED[1:]),
                 specialist_in_24_hours(), escalated(tid, old_tickets)),
            stance("approve", "refused", "the manager denied the approval", order_names(o, more=[ret["id"]])),
            *escalated_other(tid, old_tickets),
            # refused and handed on: "a specialist will look at your refund" is true, "I've refunded it" is not
            stance("refund", "not_done", "policy, Refunds: if the manager denies the approval, refund nothing and "
                   "escalate", order_names(o, more=[ret["id"]])),
            callback_promise(),
            *total_not_refund(o.total, amount),
        ],
        wrong=[
            append(call("issue_refund", order_id=o.id, amount=APPROVAL_LIMIT, reason="Partial refund",
                        return_id=ret["id"]), tag="skipped_approval",
                   note="refunds 200.00 anyway, under the limit, after the denial"),
            no_escalation,
            append(call("issue_store_credit", customer_id=c.id, order_id=o.id, amount=20, reason="Sorry for the wait"),
                   note="a goodwill credit the policy does not allow here"),
        ],
        kind="approval", difficulty="hard", skills=["verification", "refunds", "approval", "escalation", "tickets"],
    )


@template("a return the warehouse received but never refunded: refund it now")
def received_return_refund(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    o = s.damaged_order(c, 2, 190, n % 2 == 1)
    item = o.item(rng.randrange(2))
    amount = o.paid(item)
    ret = s.return_(o, [item], "received", rng.choice(["Wrong size", "Changed my mind", "Not as pictured"]),
                    ago=rng.randint(6, 12))
    g = Golden()
    v = identify(g, c, order_id=o.id if n % 2 == 0 else None)
    if n % 2:
        g.add("get_return", return_id=ret["id"])
        first = f"My return {ret['id']} got back to you last week but I still haven't been refunded."
    else:
        g.add("get_order", order_id=o.id)
        first = (f"Hi, I sent back the {spoken(item['product_name'])} from order {o.id} and it arrived at your "
                 f"warehouse a week ago, but no refund yet. My email is {c.email}.")
    r = g.add("issue_refund", order_id=o.id, amount=amount, reason=f"Return {ret['id']} received", return_id=ret["id"])
    wrong_amt = money(item["unit_price"] * item["quantity"]) if o.row["discount"] else o.total
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"returned the {spoken(item['product_name'])} from order {o.id}; the refund never came."),
            goal=f"Get the refund for return {ret['id']} (order {o.id}).",
            first_message=first,
            facts=c.knows(order_id=o.id, return_id=ret["id"]),
        ),
        patch=s.patch(), golden=g,
        reply=(f"Your return {ret['id']} has been received, and I've now refunded {fmt(amount)} to your "
               f"{pay_label(c.pm)}. It should appear within 5 to 10 business days."),
        assertions=[exists("returns", id=ret["id"], status="refunded"), tells(refunded(amount), goes_to(s, c))],
        wrong=[
            replace({r: call("issue_refund", order_id=o.id, amount=wrong_amt, reason="Return received",
                             return_id=ret["id"])}, "wrong_amount",
                    "ignores the discount share" if o.row["discount"] else "refunds the whole order"),
            drop(r, note="explains the return but issues no refund"),
            drop(v, note=NO_VERIFY),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "returns", "refunds"],
    )


# Why a refund cannot go to store credit because the customer prefers it (policy, Refunds), as agents say
# it: the refund goes back to the original payment method, store credit only when that card is closed. A
# bare "not possible" is no reason.
NO_STORE_CREDIT = ("original payment", "original form of payment", "original method", "original card",
                   "payment method the order was paid with", "payment method you paid with", "payment method you used",
                   "payment method used", "card you paid with", "card you used", "card used for", "same payment method",
                   "same card", "refund to the payment method", "refunds go to", "refunds go back", "refund goes back",
                   "refunds always go", "always go back", "always goes back", "must go back", "has to go back",
                   "have to go back", "can only go back", "only go back", "can only be refunded to", "must be refunded to",
                   "only be issued to", "only be refunded to", "only when the", "only if the", "only available when",
                   "only possible when", "only for closed", "still active", "is active", "card is closed", "card was closed")


@template("where a refund goes: store credit only if the original card is closed, never by preference")
def refund_destination(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    closed = n % 2 == 0
    c = s.customer(pm_kind="card", pm_closed=closed, second_pm=True)
    o = s.damaged_order(c, 1 + n % 2, 150, False)
    item = o.item(0)
    name = spoken(item["product_name"])
    amount = o.paid(item)
    damage = damage_for(rng, item["product_name"])
    g = Golden()
    v = identify(g, c)
    g.add("get_order", order_id=o.id)
    g.add("create_return", order_id=o.id, item_ids=[item["id"]], reason=damage.capitalize())
    dest = "store_credit" if closed else "original_payment_method"
    r = g.add("issue_refund", order_id=o.id, amount=amount, reason=f"{item['product_name']} {damage}",
              destination=dest, return_id=NEW_RETURN)
    other = "original_payment_method" if closed else "store_credit"
    where = REFUND_WHERE
    if closed:
        first = (f"The {name} from order {o.id} {damage}. I'd like a refund - note that I closed the {c.pm['label']} "
                 "I paid with.")
        text = (f"Since the {c.pm['label']} you paid with is closed, I've refunded {fmt(amount)} as store credit on "
                f"your account, and opened return {NEW_RETURN} for the {item['product_name']}.")
        goes = fact("store credit", f"{where}: store credit, since the original card is closed")
        refused = None
        check = exists("store_credits", customer_id=c.id, kind="refund")
        knows = c.knows(order_id=o.id, problem=damage, card_paid_with=f"{c.pm['label']}, now closed")
    else:
        first = (f"Hi, the {name} from order {o.id} {damage}. Can you refund it as store credit? I'd rather shop with "
                 "you again.")
        text = (f"We refund to the payment method the order was paid with, so store credit isn't possible here. I've "
                f"opened return {NEW_RETURN} and refunded {fmt(amount)} to your {pay_label(c.pm)}; it should appear "
                "within 5 to 10 business days.")
        goes = goes_to(s, c)
        refused = fact(NO_STORE_CREDIT[0], f"{DECLINE_RULE}; policy, Refunds: refunds go to the original payment method, "
                       "never to store credit because the customer prefers it", *NO_STORE_CREDIT[1:])
        check = absent("store_credits", customer_id=c.id)
        knows = c.knows(order_id=o.id, problem=damage)
    wrong_amt = money(amount + o.row["shipping_fee"]) if o.row["shipping_fee"] else o.total
    wrong = [
        replace({r: call("issue_refund", order_id=o.id, amount=amount, reason="Damaged item", destination=other,
                         return_id=NEW_RETURN)}, "wrong_entity",
                "refunds to the closed card" if closed else "refunds to store credit because the customer prefers it"),
        drop(r, note="opens the return but does not refund a damaged item"),
    ]
    if wrong_amt != amount:
        wrong.append(replace({r: call("issue_refund", order_id=o.id, amount=wrong_amt, reason="Damaged item",
                                      destination=dest, return_id=NEW_RETURN)}, "wrong_amount",
                             "refunds the shipping fee too" if o.row["shipping_fee"] else "refunds the whole order"))
    else:
        wrong.append(drop(v, note=NO_VERIFY))
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"the {name} from order {o.id} {damage}"
                            + ("; the card they paid with is closed." if closed else "; would prefer store credit.")),
            goal=f"Get the money back for the {name} from order {o.id}" + ("." if closed else ", ideally as store credit."),
            first_message=first, facts=knows,
            instructions=None if closed else "Ask for store credit. If the agent explains it must go to the original card, accept that.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[check, tells(refunded(amount), goes, return_id())] + ([says(refused)] if refused else []),
        wrong=wrong,
        kind="multi_step", difficulty="medium", skills=["verification", "returns", "refunds", "policy"],
    )


# every item of an order, said where only some were returned or refunded
ALL_ITEMS = ("all three items", "all 3 items", "all of the items", "all the items", "all items", "all three of the items",
             "all 3 of the items", "all three products", "all 3 products", "all of your items", "all your items",
             "every item", "each item", "all three of them", "all 3 of them", "the whole order", "the entire order",
             "the full order")


def said_returned(name: str) -> list[str]:
    """An item said as returned or refunded, as phrases around its name ("refunded the Skillet", "the Skillet has
    been returned"): not a name anywhere in the sentence, so "you keep the Skillet, and I've refunded 238.00" passes."""
    before = ("returned", "refunded", "returning", "refunding", "return", "refund", "return for", "refund for",
              "return of", "refund of", "sent back", "send back")
    after = ("returned", "refunded", "has been returned", "has been refunded", "was returned", "was refunded",
             "is returned", "is refunded", "is being returned", "is being refunded", "will be returned",
             "will be refunded", "has also been returned", "has also been refunded", "was also returned",
             "was also refunded", "is also returned", "is also refunded", "is included", "is also included",
             "is covered", "is also covered")
    return [*(f"{w} the {name}" for w in before), *(f"{w} {name}" for w in before), *(f"{name} {w}" for w in after)]


@template("two defective items of one order, together above $200: one return, one approved refund, ticket", LONG_COUNTS)
def return_multi_items_approval(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    for _ in range(200):
        a, b, x = rng.sample(products(15, 200), 3)
        if a.price + b.price > APPROVAL_LIMIT + 5 and x.price < 80:
            break
    o = s.delivered(c, [a, x, b] if n % 2 else [a, b, x], ago=rng.randint(3, 15))
    ia = next(i for i in o.items if i["product_id"] == a.id)
    ib = next(i for i in o.items if i["product_id"] == b.id)
    pa, pb = o.paid(ia), o.paid(ib)
    amount = o.paid(ia, ib)
    ids = sorted([ia["id"], ib["id"]])
    t = s.ticket(c, o, "Two items arrived broken", "product")
    close = n % 2 == 0
    g = Golden()
    identify(g, c)
    g.add("get_ticket", ticket_id=t["id"])
    g.add("get_order", order_id=o.id)
    g.add("calculate_refund_amount", order_id=o.id, item_ids=ids)
    g.add("create_return", order_id=o.id, item_ids=ids, reason="Both arrived broken")
    ap = g.add("request_manager_approval", order_id=o.id, amount=amount, reason="Two defective items returned")
    r = g.add("issue_refund", order_id=o.id, amount=amount, reason="Two defective items", return_id=NEW_RETURN,
              approval_id=NEW_APPROVAL)
    nt = g.add("add_ticket_note", ticket_id=t["id"], note=f"Return {NEW_RETURN} for both items; refunded {fmt(amount)}.")
    wrong = [
        replace({ap: call("issue_refund", order_id=o.id, amount=pa, reason="Item 1", return_id=NEW_RETURN),
                 r: call("issue_refund", order_id=o.id, amount=pb, reason="Item 2")},
                "skipped_approval", "two refunds under the limit instead of one approved refund"),
        replace({ap: call("request_manager_approval", order_id=o.id, amount=o.total, reason="Whole order"),
                 r: call("issue_refund", order_id=o.id, amount=o.total, reason="Whole order", return_id=NEW_RETURN,
                         approval_id=NEW_APPROVAL)}, "wrong_amount", "refunds the whole order, third item included"),
        drop(nt, note="no note on the ticket the customer mentioned"),
    ]
    assertions = [exists("refunds", order_id=o.id, approval_id=NEW_APPROVAL), exists("ticket_notes", ticket_id=t["id"]),
                  count("returns", 1, order_id=o.id), tells(refunded(amount), goes_to(s, c), return_id()),
                  # the customer keeps the third item: "return R-9001 for all three items" or "the <kept item> is
                  # refunded too" says it was returned (the outcome's record is the whole order, its names included)
                  says_not(claim(*ALL_ITEMS), claim(*said_returned(x.name)),
                           why=f"{CLAIM_WHY}: the customer keeps the {x.name}; only two of the items were returned")]
    text = (f"I've opened return {NEW_RETURN} for the {a.name} and the {b.name}. Together they come to more than our "
            f"200.00 limit, so I asked a manager: it was approved, and {fmt(amount)} has been refunded to your "
            f"{pay_label(c.pm)}. I've noted this on ticket {t['id']}.")
    first = (f"Hi, ticket {t['id']}: the {a.lower} and the {b.lower} from order {o.id} both arrived broken. "
             f"I want my money back for both (the {x.lower} is fine).")
    if close:
        cl = g.add("update_ticket_status", ticket_id=t["id"], status="closed")
        wrong.append(drop(cl, note="leaves the ticket open although the customer asked to close it"))
        assertions += [exists("tickets", id=t["id"], status="closed"), says(closed_status(t["id"]))]
        first += " Then please close the ticket."
        text += " The ticket is now closed."
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"two items of order {o.id} arrived broken."),
            goal=f"Get refunds for the {a.lower} and the {b.lower} from order {o.id}"
            + (f", then have ticket {t['id']} closed." if close else "."),
            first_message=first,
            facts=c.knows(order_id=o.id, ticket_id=t["id"], broken_items=f"the {a.name} and the {b.name}"),
        ),
        patch=s.patch(), golden=g, reply=text, assertions=assertions, wrong=wrong,
        kind="approval", difficulty="hard", skills=["verification", "returns", "refunds", "approval", "tickets", "policy"],
    )


# =================================================================================================
# shipments: lost and damaged parcels, address exceptions, goodwill credit
# =================================================================================================

LOST = {"lost": "is marked as lost", "damaged_in_transit": "was damaged in transit"}


@template("a lost or damaged parcel: the replacement or the full refund the customer chose (ticket in some)")
def lost_parcel_choice(s: RetailScene, n: int) -> TaskSpec:
    c = s.customer()
    wants_refund = n % 2 == 1
    o = s.lost_order(c, 190)
    sh = o.shipment
    assert sh is not None
    what = LOST[sh["exception_reason"]]
    t = s.ticket(c, o, f"Parcel {what}", "shipping") if n % 4 in (1, 2) else None
    g = Golden()
    v = identify(g, c)
    if t:
        g.add("get_ticket", ticket_id=t["id"])
    if wants_refund:
        g.add("get_order", order_id=o.id)
    g.add("get_shipment", order_id=o.id)
    assertions: list[dict[str, Any]]
    if wants_refund:
        k = g.add("issue_refund", order_id=o.id, amount=o.total, reason=f"Parcel {what}; full refund")
        text = (f"I'm sorry about your parcel. I've refunded the full {fmt(o.total)} for order {o.id}, shipping "
                f"included, to your {pay_label(c.pm)}; it should appear within 5 to 10 business days.")
        assertions = [absent("shipments", replaces_shipment_id=sh["id"]), exists("refunds", order_id=o.id, amount=o.total),
                      tells(refunded(o.total), goes_to(s, c)), other_remedy(True)]
        wrong = [
            replace({k: call("issue_refund", order_id=o.id, amount=o.subtotal, reason="Parcel lost")}, "wrong_amount",
                    "leaves out the shipping fee") if o.row["shipping_fee"] else
            replace({k: call("issue_refund", order_id=o.id, amount=money(o.paid(o.item(0)) - 1), reason="Parcel lost")},
                    "wrong_amount", "refunds less than the order total"),
            drop(k, note="promises a refund without issuing it"),
        ]
        pref, goal = "a full refund, not a replacement", f"A full refund for order {o.id}"
    else:
        k = g.add("reship_order", order_id=o.id, shipment_id=sh["id"])
        text = (f"I've sent a free replacement for order {o.id}. The new shipment {NEW_SHIPMENT} is expected to "
                f"arrive on {RESHIP_ETA}.")
        assertions = [exists("shipments", order_id=o.id, replaces_shipment_id=sh["id"]), absent("refunds", order_id=o.id),
                      tells(new_eta(RESHIP_ETA)), other_remedy(False), no_refund_too(o)]
        wrong = [
            append(call("issue_refund", order_id=o.id, amount=o.total, reason="Parcel lost"),
                   note="reships and refunds"),
            drop(k, note="promises a replacement without creating it"),
        ]
        pref, goal = "a replacement, not a refund", f"A replacement for order {o.id}"
    first = f"My parcel for order {o.id} {what}. I'd like {pref}."
    if t:
        nt = g.add("add_ticket_note", ticket_id=t["id"], note=f"Shipment {sh['id']} {what}; " +
                   ("refunded in full." if wants_refund else "replacement sent."))
        wrong.append(drop(nt, note="no note on the ticket the customer mentioned"))
        assertions.append(exists("ticket_notes", ticket_id=t["id"]))
        first = f"My parcel for order {o.id} {what} (ticket {t['id']}). I'd like {pref}."
        text += f" I've noted this on ticket {t['id']}."
    else:
        wrong.append(drop(v, note=NO_VERIFY))
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"the parcel for order {o.id} {what}; they want {pref}."),
            goal=goal + (f", noted on ticket {t['id']}." if t else "."),
            first_message=first,
            facts=c.knows(order_id=o.id, replacement_vs_refund=pref, **({"ticket_id": t["id"]} if t else {})),
        ),
        patch=s.patch(), golden=g, reply=text, assertions=assertions, wrong=wrong,
        kind="multi_step", difficulty="medium",
        skills=["verification", "shipping", "refunds" if wants_refund else "replacement"] + (["tickets"] if t else []),
    )


@template("a lost or damaged parcel, the customer picks replacement or refund only when offered the choice")
def ask_lost_parcel_choice(s: RetailScene, n: int) -> TaskSpec:
    c = s.customer()
    wants_refund = n % 2 == 0
    o = s.lost_order(c, 190, expedited=False)
    sh = o.shipment
    assert sh is not None
    what = LOST[sh["exception_reason"]]
    g = Golden()
    v = identify(g, c)
    g.add("get_order", order_id=o.id)
    g.add("get_shipment", order_id=o.id)
    refund = call("issue_refund", order_id=o.id, amount=o.total, reason=f"Parcel {what}; customer chose a refund")
    reship = call("reship_order", order_id=o.id, shipment_id=sh["id"])
    if wants_refund:
        k = g.add(refund["name"], **refund["arguments"])
        choice = "a full refund - I'd rather have my money back"
        text = (f"Done: I've refunded the full {fmt(o.total)} for order {o.id} to your {pay_label(c.pm)}. It should "
                "appear within 5 to 10 business days.")
        assertions = [exists("refunds", order_id=o.id, amount=o.total), absent("shipments", replaces_shipment_id=sh["id"]),
                      tells(refunded(o.total), goes_to(s, c)), other_remedy(True)]
        other, third = reship, replace({k: call("issue_refund", order_id=o.id, amount=money(o.paid(o.item(0)) - 1),
                                                reason="Parcel lost")}, "wrong_amount", "refunds less than the total")
    else:
        k = g.add(reship["name"], **reship["arguments"])
        choice = "a replacement - I still need it"
        text = f"I've sent a free replacement for order {o.id}: shipment {NEW_SHIPMENT}, expected on {RESHIP_ETA}."
        assertions = [exists("shipments", order_id=o.id, replaces_shipment_id=sh["id"]), absent("refunds", order_id=o.id),
                      tells(new_eta(RESHIP_ETA)), other_remedy(False), no_refund_too(o)]
        other, third = refund, append(refund, note="reships and refunds")
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"the parcel for order {o.id} {what}; they have not decided what they want."),
            goal=f"Sort out the {('lost' if sh['exception_reason'] == 'lost' else 'damaged')} parcel of order {o.id} "
            "the way they choose when asked.",
            first_message=f"Hi, the tracking says my parcel for order {o.id} {what}. What can you do?",
            facts=c.knows(order_id=o.id, replacement_vs_refund=choice),
            instructions=f"Say what you want only when the agent offers the choice: {choice}.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[*assertions, asks_first(g.calls[k]["name"], "refund", "replacement", "reship", "replace",
                                            ask="Would you prefer a replacement or a full refund?")],
        wrong=[replace({k: other}, "wrong_entity", "does the option the customer did not choose"), third,
               drop(v, note=NO_VERIFY)],
        kind="ask_user", difficulty="medium", skills=["verification", "shipping", "clarification"],
    )


@template("a lost or damaged parcel above $200, full refund with approval; a requested ticket close must wait", LONG_COUNTS)
def lost_refund_approval(s: RetailScene, n: int) -> TaskSpec:
    c = s.customer()
    o = s.lost_order(c, 900, lo=200)
    sh = o.shipment
    assert sh is not None and o.total > APPROVAL_LIMIT
    what = LOST[sh["exception_reason"]]
    t = s.ticket(c, o, f"Parcel {what}", "shipping")
    wants_close = n % 3 == 2
    g = Golden()
    identify(g, c)
    g.add("get_ticket", ticket_id=t["id"])
    g.add("get_order", order_id=o.id)
    g.add("get_shipment", order_id=o.id)
    a = g.add("request_manager_approval", order_id=o.id, amount=o.total, reason=f"Parcel {what}; full refund")
    r = g.add("issue_refund", order_id=o.id, amount=o.total, reason=f"Parcel {what}", approval_id=NEW_APPROVAL)
    nt = g.add("add_ticket_note", ticket_id=t["id"], note=f"Full refund {fmt(o.total)} (approval {NEW_APPROVAL})." +
               (" Customer asked to close; shipment exception still open, ticket stays open." if wants_close else ""))
    p1, p2 = _split(o.total, o.id, "")
    wrong = [
        replace({a: p1, r: p2}, "skipped_approval", "splits the refund to stay under the approval limit"),
        drop(nt, note="no note on the ticket the customer mentioned"),
    ]
    if o.row["shipping_fee"]:
        wrong.append(replace({a: call("request_manager_approval", order_id=o.id, amount=o.subtotal, reason="Lost parcel"),
                              r: call("issue_refund", order_id=o.id, amount=o.subtotal, reason="Lost parcel",
                                      approval_id=NEW_APPROVAL)}, "wrong_amount", "leaves out the shipping fee"))
    text = (f"A manager approved a full refund for order {o.id}: {fmt(o.total)}, shipping included, has been refunded "
            f"to your {pay_label(c.pm)} and should appear within 5 to 10 business days. I've noted it on ticket {t['id']}.")
    assertions = [exists("refunds", order_id=o.id, approval_id=NEW_APPROVAL), exists("ticket_notes", ticket_id=t["id"]),
                  tells(refunded(o.total), goes_to(s, c)), other_remedy(True)]
    first = f"The carrier says my parcel for order {o.id} {what} (ticket {t['id']}). I don't want a replacement, just a full refund."
    if wants_close:
        wrong.append(append(call("update_ticket_status", ticket_id=t["id"], status="closed"),
                            note="closes the ticket while the shipment's exception is still open"))
        assertions += [unchanged("tickets", t["id"], "status"),
                       says(exception_reason("a ticket whose order has an open shipping exception stays open; explain why",
                                            delayed=False), kept_open(t["id"])), close_waits(t["id"])]
        first += " And then close the ticket, please."
        text += (" I can't close the ticket yet, though: there is an open shipping exception on the parcel, and the "
                 "ticket stays open until it is cleared.")
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"the parcel for order {o.id} {what}; they want their money back."),
            goal=f"A full refund (no replacement) for order {o.id}" + (f", and ticket {t['id']} closed." if wants_close else "."),
            first_message=first,
            facts=c.knows(order_id=o.id, ticket_id=t["id"], replacement_vs_refund="a full refund, not a replacement"),
            instructions="If the agent explains why the ticket must stay open, accept it." if wants_close else None,
        ),
        patch=s.patch(), golden=g, reply=text, assertions=assertions, wrong=wrong,
        kind="approval", difficulty="hard",
        skills=["verification", "shipping", "refunds", "approval", "tickets"] + (["policy"] if wants_close else []),
    )


@template("a parcel stuck on an address issue, redirected to the saved address the customer names (ticket)")
def address_exception(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.moved()
    target = c.addresses["home" if n % 2 == 0 else "work"]
    item = rng.choice(products(20, 300))
    o = s.on_the_way(c, [item], eta=-1, reason="address_issue", address=c.addresses["old apartment"])
    sh = o.shipment
    assert sh is not None
    v_ticket = n % 3 != 2
    v_close = v_ticket and n % 4 == 1
    t = s.ticket(c, o, "Carrier cannot deliver", "shipping") if v_ticket else None
    g = Golden()
    v = identify(g, c)
    if t:
        g.add("get_ticket", ticket_id=t["id"])
    g.add("get_shipment", order_id=o.id)
    g.add("get_customer", customer_id=c.id)
    k = g.add("resolve_address_exception", shipment_id=sh["id"], address_id=target["id"])
    where = f"my {'new home' if target['label'] == 'home' else 'work'} address, {target['line1']}"
    first = f"Hi, the carrier says they can't deliver my order {o.id}. I moved - please send it to {where}."
    text = (f"Done: the parcel for order {o.id} is redirected to {target['line1']} and is back in transit. The new "
            f"estimated delivery date is {REDIRECT_ETA}.")
    assertions = [exists("orders", id=o.id, address_id=target["id"]), tells(new_eta(REDIRECT_ETA)),
                  address_roles(target, *elsewhere(c, target), order=o)]
    wrong = [replace({k: call("resolve_address_exception", shipment_id=sh["id"], address_id=c.addresses["old apartment"]["id"])},
                     "wrong_entity", "sends it to the old address again")]
    goal = f"Get order {o.id} delivered to the {target['label']} address on {target['line1']}."
    if t:
        first = first.replace(f"order {o.id}.", f"order {o.id} (ticket {t['id']}).")
        nt = g.add("add_ticket_note", ticket_id=t["id"],
                   note=f"Address exception on {sh['id']} resolved: redirected to {target['id']}.")
        wrong.append(drop(nt, note="no note on the ticket the customer mentioned"))
        assertions.append(exists("ticket_notes", ticket_id=t["id"]))
        text += f" I've added a note to ticket {t['id']}."
        if v_close:
            cl = g.add("update_ticket_status", ticket_id=t["id"], status="closed")
            wrong.append(drop(cl, note="leaves the ticket open although the customer asked to close it"))
            assertions += [exists("tickets", id=t["id"], status="closed"), says(closed_status(t["id"]))]
            first += " After that you can close the ticket."
            text += " The ticket is now closed."
            goal = goal[:-1] + f" and ticket {t['id']} closed."
        else:
            wrong.append(append(call("update_ticket_status", ticket_id=t["id"], status="closed"),
                                note="closes the ticket the customer did not ask to close"))
    else:
        wrong.append(drop(v, note=NO_VERIFY))
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"moved recently; the parcel for order {o.id} went to the old apartment."),
            goal=goal, first_message=first,
            facts=c.knows(order_id=o.id, deliver_to_address=saved_as(target), **({"ticket_id": t["id"]} if t else {})),
        ),
        patch=s.patch(), golden=g, reply=text, assertions=assertions, wrong=wrong,
        kind="multi_step", difficulty="hard" if v_close else "medium",
        skills=["verification", "shipping", "addresses"] + (["tickets"] if t else []),
    )


@template("a parcel stuck on an address issue; which saved address to use comes only when asked")
def ask_address_choice(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.moved()
    target, other = (c.addresses["work"], c.home) if n % 2 == 0 else (c.home, c.addresses["work"])
    item = rng.choice(products(20, 300))
    o = s.on_the_way(c, [item], eta=-1, reason="address_issue", address=c.addresses["old apartment"])
    sh = o.shipment
    assert sh is not None
    g = Golden()
    v = identify(g, c)
    g.add("get_shipment", order_id=o.id)
    g.add("get_customer", customer_id=c.id)
    k = g.add("resolve_address_exception", shipment_id=sh["id"], address_id=target["id"])
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"the carrier could not deliver order {o.id} to their old apartment."),
            goal=f"Get order {o.id} delivered to the {target['label']} address ({target['line1']}).",
            first_message=f"Hi, the carrier says they can't deliver my order {o.id}. Can you sort it out?",
            facts=c.knows(order_id=o.id, deliver_to_address=saved_as(target)),
            instructions=f"Only say where to send it when the agent asks: {saved_as(target)}.",
        ),
        patch=s.patch(), golden=g,
        reply=f"Done: order {o.id} is redirected to {target['line1']} and back in transit, now expected on {REDIRECT_ETA}.",
        assertions=[exists("orders", id=o.id, address_id=target["id"]), tells(new_eta(REDIRECT_ETA)),
                    address_roles(target, *elsewhere(c, target), order=o),
                    asks_first("resolve_address_exception", "address", "where", ask="Which address should we send it to?")],
        wrong=[
            replace({k: call("resolve_address_exception", shipment_id=sh["id"], address_id=other["id"])},
                    "wrong_entity", f"guesses the {other['label']} address instead of asking"),
            replace({k: call("resolve_address_exception", shipment_id=sh["id"],
                             address_id=c.addresses["old apartment"]["id"])}, "wrong_entity",
                    "sends it to the old address again"),
            drop(v, note=NO_VERIFY),
        ],
        kind="ask_user", difficulty="medium", skills=["verification", "shipping", "addresses", "clarification"],
    )


# what a goodwill credit is called: in a conversation that also refunds, the credit's amount stands by one of these
GOODWILL_WORDS = ("goodwill", "store credit", "credit", "compensation", "gesture", "voucher")
def not_refunded_credit() -> dict[str, Any]:
    """A goodwill credit is store credit on the account: said as a refund to the card, it is the wrong kind."""
    return says_not(claim(*REFUNDED_CLAIM), claim("card", "paypal", near=("credit", "compensation", "goodwill", "added")),
                    why=f"{CLAIM_WHY}: goodwill compensation is store credit on the account, not a refund to the card")


ASK_RULE = "policy, General: ask when something you need is missing or ambiguous (which order, item, address); never guess"


def asks_first(tool: str, *topics: str, ask: str) -> dict[str, Any]:
    """The choice the customer states only when asked: no `tool` call before the agent asked."""
    return no_call(tool, why=ASK_RULE, until_asked=list(topics), ask=ask)


GOODWILL_RULE = "policy, Shipments: goodwill credit only for a parcel the carrier is delaying, at most one per order"
# the reasons a goodwill credit is declined, as phrases: a single "already" or "only for" let any reason
# pass ("it has already shipped", "credits are only for plus members")
ALREADY_CREDITED = (
    "already got", "already given", "already been given", "already issued", "already been issued", "already credited",
    "already been credited", "already has a credit", "already has a goodwill", "already had a credit",
    "already had a goodwill", "already has one", "already had one", "one per order", "one credit per order",
    "one goodwill credit per order", "only one credit", "only one goodwill", "at most one", "limit of one",
    "maximum of one", "more than one credit", "more than one goodwill", "a second credit", "a second goodwill",
    "most we give", "most we can give", "already had its", "already has its", "already received its",
)
NOT_DELAYED = ("not delayed", "no delay", "not late", "isn't late", "on schedule", "on time", "on track",
               "not been delayed", "hasn't been delayed", "wasn't delayed", "not running late")
DELIVERED_ALREADY = ("has been delivered", "had been delivered", "already delivered", "already been delivered",
                     "already arrived", "has arrived", "it arrived", "arrived on", "delivered on")
ONLY_DELAYED = ("only for delayed", "only for late", "only for parcels", "only for a parcel", "only for orders",
                "only when the carrier", "only if the carrier", "only for carrier",
                "only applies to delayed", "only apply to delayed",
                "only offered when", "only given when", "only available when", "only offered for", "only given for",
                "when there is a carrier delay", "when the carrier delays", "still within",
                "within its original", "within the original", "within the estimated")


@template("a late parcel (carrier delay) and a request for compensation: goodwill credit by membership")
def goodwill_credit(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(membership="plus" if n % 2 == 0 else "basic")
    item = rng.choice(products(20, 300))
    o = s.on_the_way(c, [item], eta=rng.randint(2, 7), reason="carrier_delay", placed=-rng.randint(8, 12))
    sh = o.shipment
    assert sh is not None
    if n % 3 == 1:  # a credit for an older order does not count against this one
        old = s.delivered(c, [rng.choice(products(20, 100))], ago=40)
        s.credit(c, old, c.goodwill, ago=45)
    g = Golden()
    v = identify(g, c)
    g.add("get_customer", customer_id=c.id)
    g.add("get_shipment", order_id=o.id)
    k = g.add("issue_store_credit", customer_id=c.id, order_id=o.id, amount=c.goodwill, reason="Goodwill for carrier delay")
    other = 10.0 if c.plus else 20.0
    tier = "As a plus member" if c.plus else "As a goodwill gesture"
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"order {o.id} is late and they expect some compensation."),
            goal=f"Learn when late order {o.id} will arrive and get compensation for the delay.",
            first_message=f"My order {o.id} is late. When will it arrive? Honestly I'd like some compensation for this.",
            facts=c.knows(order_id=o.id),
        ),
        patch=s.patch(), golden=g,
        reply=(f"Sorry for the delay. The carrier has delayed order {o.id}; the new estimated delivery date is {sh['eta']}. "
               f"{tier} I've added a {fmt(c.goodwill)} store credit to your account."),
        assertions=[
            exists("store_credits", customer_id=c.id, order_id=o.id, kind="goodwill", amount=c.goodwill),
            *eta_told(sh["eta"], "the customer asked when the order arrives"),
            tells(fact(fmt(c.goodwill), f"{CHANGE_RULE} (the credit given)")),
            not_refunded_credit(),
        ],
        wrong=[
            replace({k: call("issue_store_credit", customer_id=c.id, order_id=o.id, amount=other,
                             reason="Goodwill for carrier delay")}, "wrong_amount",
                    "gives the other membership tier's amount"),
            append(call("issue_store_credit", customer_id=c.id, order_id=o.id, amount=c.goodwill, reason="Goodwill"),
                   note="a second credit for the same order"),
            drop(v, note=NO_VERIFY),
        ],
        kind="single_write", difficulty="medium", skills=["verification", "shipping", "membership", "compensation"],
    )


@template("compensation asked where the policy gives none (already credited, not delayed, delivered)")
def goodwill_refusal(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(membership=rng.choice(["basic", "plus"]))
    item = rng.choice(products(20, 300))
    case = n % 3
    g = Golden()
    v = identify(g, c)
    g.add("get_customer", customer_id=c.id)
    credits = 0
    if case == 0:
        o = s.on_the_way(c, [item], eta=rng.randint(2, 6), reason="carrier_delay", placed=-rng.randint(9, 12))
        s.credit(c, o, c.goodwill, ago=rng.randint(2, 5))
        credits = 1
        sh = o.shipment
        assert sh is not None
        asked = [fact(sh["eta"], "the customer asked when the order arrives")]
        reason = fact("already received", f"{DECLINE_RULE}; {GOODWILL_RULE}", *ALREADY_CREDITED)
        text = (f"I'm sorry the parcel is still on its way. Order {o.id} already received a {fmt(c.goodwill)} goodwill "
                f"credit, which is the most we give for an order, so I can't add another. The carrier's new estimated "
                f"delivery date is {sh['eta']}.")
        first = f"Order {o.id} still hasn't arrived. I want another credit for this mess. And when is it coming?"
        instr = f"You already received a {fmt(c.goodwill)} credit for this order. If the agent declines a second one, accept it."
    elif case == 1:
        o = s.on_the_way(c, [item], eta=rng.randint(1, 4), placed=-2)
        sh = o.shipment
        assert sh is not None
        asked = [fact(sh["eta"], "the customer asked where the order is")]
        reason = fact("isn't delayed", f"{DECLINE_RULE}; {GOODWILL_RULE}", *NOT_DELAYED, *ONLY_DELAYED)
        text = (f"Order {o.id} isn't delayed: it is in transit and due on {sh['eta']}. Goodwill credit applies when the "
                "carrier has delayed a parcel, so I can't add one here.")
        first = f"Where is my order {o.id}? It's taking forever - I think I deserve some store credit for the wait."
        instr = "If the agent explains that no credit applies, accept it."
    else:
        o = s.delivered(c, [item], ago=rng.randint(1, 4))
        sh = o.shipment
        assert sh is not None
        asked = []
        reason = fact("was delivered", f"{DECLINE_RULE}; {GOODWILL_RULE}", *DELIVERED_ALREADY, *ONLY_DELAYED)
        text = (f"Order {o.id} was delivered on {sh['delivered_on']}. Goodwill credit covers parcels that the carrier "
                "is delaying, so I can't offer one for this order.")
        first = f"My order {o.id} finally came but it took ages. I'd like a credit for the trouble."
        instr = "If the agent explains that no credit applies, accept it."
    g.add("get_shipment", order_id=o.id)
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"unhappy with how long order {o.id} is taking and asking for compensation."),
            goal=f"Get a compensation credit for order {o.id}.",
            first_message=first, facts=c.knows(order_id=o.id), instructions=instr,
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[count("store_credits", credits, customer_id=c.id), says(reason)] + ([tells(*asked)] if asked else [])
        # the credit asked for, refused; where the order already has one, a report of that one ("a 10.00 goodwill
        # credit was issued on ...") is no claim of a new one, so only "added" is read there, not the credit's nouns
        + [stance("add", "refused", GOODWILL_RULE, [o.id], nouns=() if credits else CREDIT_NOUNS)],
        wrong=[
            append(call("issue_store_credit", customer_id=c.id, order_id=o.id, amount=c.goodwill, reason="Goodwill"),
                   note="gives a credit the policy does not allow"),
            reply("I'm sorry, I can't give you a credit.", "declines without the facts"),
            drop(v, note=NO_VERIFY),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "shipping", "compensation", "policy"],
    )


@template("two parcels in trouble at once: an address issue and a lost parcel, each with its ticket (long)", LONG_COUNTS)
def two_exceptions(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.moved()
    target = c.addresses["home" if n % 2 else "work"]
    a = s.on_the_way(c, [rng.choice(products(20, 250))], eta=-1, reason="address_issue",
                     address=c.addresses["old apartment"])
    b = s.on_the_way(c, [rng.choice(products(20, 180))], eta=-3, reason="lost", placed=-12)
    sa, sb = a.shipment, b.shipment
    assert sa is not None and sb is not None
    ta = s.ticket(c, a, "Carrier cannot deliver", "shipping", ago=1)
    tb = s.ticket(c, b, "Parcel lost", "shipping", ago=3)
    wants_refund = n % 2 == 1
    g = Golden()
    identify(g, c)
    g.add("get_ticket", ticket_id=ta["id"])
    g.add("get_shipment", order_id=a.id)
    g.add("get_customer", customer_id=c.id)
    k = g.add("resolve_address_exception", shipment_id=sa["id"], address_id=target["id"])
    na = g.add("add_ticket_note", ticket_id=ta["id"], note=f"Redirected {sa['id']} to {target['id']}.")
    g.add("get_ticket", ticket_id=tb["id"])
    if wants_refund:
        g.add("get_order", order_id=b.id)
    g.add("get_shipment", order_id=b.id)
    wrong = [replace({k: call("resolve_address_exception", shipment_id=sa["id"],
                              address_id=c.addresses["old apartment"]["id"])}, "wrong_entity",
                     "sends the first parcel to the old address again")]
    redirect_words, reship_words = ["redirect", target["line1"]], ["replacement", "reship", "new shipment", NEW_SHIPMENT]
    if wants_refund:
        r = g.add("issue_refund", order_id=b.id, amount=b.total, reason="Parcel lost; full refund")
        second = f"refunded the full {fmt(b.total)} for order {b.id} to your {pay_label(c.pm)}"
        second_fact = [refunded(b.total), goes_to(s, c)]
        wrong.append(replace({r: call("issue_refund", order_id=b.id, amount=money(b.subtotal - 1), reason="Parcel lost")},
                             "wrong_amount", "refunds less than the order total"))
        pref = "a full refund"
        # the replacement the customer did not choose, said as sent ("and sent a replacement too" scored 1)
        never_both = [says_not(claim(*REPLACEMENT_SENT), why=f"{CLAIM_WHY}: the customer chose a refund for {b.id}; "
                               "no replacement was sent (never both)")]
    else:
        r = g.add("reship_order", order_id=b.id, shipment_id=sb["id"])
        second = f"sent a free replacement for order {b.id}, expected on {RESHIP_ETA}"
        second_fact = [fact(RESHIP_ETA, NEW_ETA_RULE, **owned(b, [a], reship_words, redirect_words))]
        wrong.append(append(call("issue_refund", order_id=b.id, amount=b.total, reason="Parcel lost"),
                            note="reships and refunds"))
        never_both = [no_refund_too(b, [a])]
        pref = "a replacement"
    nb = g.add("add_ticket_note", ticket_id=tb["id"], note="Lost parcel: " + ("refunded in full." if wants_refund else "replacement sent."))
    wrong += [drop(na if n % 2 else nb, note="no note on the " + ("first" if n % 2 else "second") + " ticket"),
              drop(r, note="notes the second ticket but never " + ("refunds" if wants_refund else "reships") + " the parcel")]
    text = (f"Both are sorted. Order {a.id} is redirected to {target['line1']} and now expected on {REDIRECT_ETA}; "
            f"I've also {second}. I've noted both on tickets {ta['id']} and {tb['id']}.")
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"two parcels in trouble: order {a.id} (address problem) and order {b.id} (lost)."),
            goal=f"Order {a.id} delivered to {target['line1']}, and {pref} for lost order {b.id}; both tickets updated.",
            first_message=(f"Hi, two problems. The carrier can't deliver order {a.id} (ticket {ta['id']}) - please send "
                           f"it to my {target['label']} address on {target['line1']}. And order {b.id} is lost (ticket "
                           f"{tb['id']}); I'd like {pref}."),
            facts=c.knows(first_order=a.id, first_ticket=ta["id"], deliver_to_address=saved_as(target),
                          second_order=b.id, second_ticket=tb["id"], replacement_vs_refund=pref),
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[exists("orders", id=a.id, address_id=target["id"]), exists("ticket_notes", ticket_id=ta["id"]),
                    exists("ticket_notes", ticket_id=tb["id"]),
                    tells(fact(REDIRECT_ETA, NEW_ETA_RULE, **owned(a, [b], redirect_words, reship_words)), *second_fact),
                    address_roles(target, *elsewhere(c, target), order=a, others=[b]), *never_both],
        wrong=wrong,
        kind="multi_step", difficulty="hard", skills=["verification", "shipping", "addresses", "replacement", "tickets"],
    )


# =================================================================================================
# support tickets
# =================================================================================================


@template("close a ticket whose order still has an open shipping exception: kept open, noted, explained")
def ticket_close_blocked(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    item = rng.choice(products(20, 300))
    o = s.on_the_way(c, [item], eta=rng.randint(2, 7), reason="carrier_delay", placed=-rng.randint(8, 12))
    sh = o.shipment
    assert sh is not None
    t = s.ticket(c, o, "Parcel is late", "shipping", ago=rng.randint(1, 4))
    older = s.delivered(c, [rng.choice(products(20, 120))], ago=rng.randint(40, 120))
    s.ticket(c, older, "Question about returning an item", "return", status="closed", ago=rng.randint(40, 100))
    by_id = n % 2 == 0
    g = Golden()
    v = identify(g, c, order_id=o.id)
    if by_id:
        g.add("get_ticket", ticket_id=t["id"])
        first = f"Hi, please just close my ticket {t['id']} about order {o.id}. I'm done with it."
    else:
        g.add("list_customer_tickets", customer_id=c.id)
        first = f"Please close my open support ticket about the late {item.lower} (order {o.id}). I don't want to hear about it anymore."
    g.add("get_shipment", order_id=o.id)
    nt = g.add("add_ticket_note", ticket_id=t["id"],
               note=f"Customer asked to close; shipping exception on {sh['id']} (carrier delay) still open, ticket stays open.")
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"wants the support ticket about order {o.id} closed today."),
            goal=f"Have the ticket about order {o.id} closed.",
            first_message=first,
            facts=c.knows(order_id=o.id, **({"ticket_id": t["id"]} if by_id else {})),
        ),
        patch=s.patch(), golden=g,
        reply=(f"I can't close ticket {t['id']} yet: the parcel of order {o.id} has an open shipping exception with the "
               f"carrier. The new estimated delivery date is {sh['eta']}. I've noted your request on the ticket, and it can "
               "be closed once the parcel is delivered."),
        assertions=[
            unchanged("tickets", t["id"], "status"), exists("ticket_notes", ticket_id=t["id"]),
            says(exception_reason(), kept_open(t["id"])), close_waits(t["id"]),
            says_not(claim("refund", "return", "payment", near=("pending", "waiting", "processing", "outstanding",
                                                                "in progress", "not yet", "awaiting")),
                     why=f"{CLAIM_WHY}: the ticket stays open because of the shipping exception, not a refund or return"),
            tells(fact(sh["eta"], "policy, Shipments: for a carrier delay, tell the customer the new estimated delivery date")),
        ],
        wrong=[
            append(call("update_ticket_status", ticket_id=t["id"], status="closed"),
                   note="the paper's failure: the ticket is closed while the exception is open"),
            drop(nt, note="no note on the ticket"),
            drop(v, note=NO_VERIFY),
        ],
        kind="refusal", difficulty="medium", skills=["verification", "tickets", "shipping", "policy", "cross-system"],
    )


@template("close the ticket of a parcel that has arrived; another open ticket must stay open")
def ticket_close_resolved(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    a_item, b_item = rng.sample(products(20, 250), 2)
    a = s.delivered(c, [a_item], ago=rng.randint(0, 2))
    t = s.ticket(c, a, f"Where is my {a_item.name}?", "shipping", ago=rng.randint(3, 6))
    b = s.on_the_way(c, [b_item], eta=rng.randint(2, 6), reason="carrier_delay")
    t2 = s.ticket(c, b, "Parcel is late", "shipping", ago=1)
    by_id = n % 2 == 0
    g = Golden()
    v = identify(g, c, order_id=a.id if by_id else None)
    if by_id:
        g.add("get_ticket", ticket_id=t["id"])
        first = f"My parcel for order {a.id} finally arrived, so you can close ticket {t['id']}. My email is {c.email}."
        facts = c.knows(order_id=a.id, ticket_id=t["id"])
    else:
        g.add("list_customer_tickets", customer_id=c.id)
        first = f"Hi! The {a_item.lower} I was chasing finally arrived - please close my ticket about it."
        facts = c.knows(arrived=a_item.name)
    g.add("get_shipment", order_id=a.id)
    k = g.add("update_ticket_status", ticket_id=t["id"], status="closed")
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"relieved that the {a_item.lower} (order {a.id}) arrived; another order {b.id} is still late."),
            goal=f"Close ticket {t['id']} about order {a.id}, which has now been delivered.",
            first_message=first, facts=facts,
            instructions=f"Only the ticket about the {a_item.lower} should be closed; the other one must stay open.",
        ),
        patch=s.patch(), golden=g, reply=f"Glad it arrived! Ticket {t['id']} is now closed.",
        assertions=[exists("tickets", id=t["id"], status="closed"), unchanged("tickets", t2["id"], "status"),
                    says(closed_status(t["id"], [t2["id"]]))],
        wrong=[
            replace({k: call("update_ticket_status", ticket_id=t2["id"], status="closed")}, "wrong_entity",
                    "closes the other ticket, whose parcel is still delayed"),
            append(call("update_ticket_status", ticket_id=t2["id"], status="closed"), note="closes both tickets"),
            drop(v, note=NO_VERIFY),
        ],
        kind="single_write", difficulty="easy" if by_id else "medium", skills=["verification", "tickets", "shipping"],
    )


COMPLAINTS = [
    ("the {p} keeps making a grinding noise and nobody has fixed it", "product"),
    ("I've been going back and forth about the {p} for a week", "product"),
    ("the replacement {p} still hasn't been sorted out", "order_change"),
]


@template("the customer asks for a manager on an existing ticket: escalated, not closed")
def escalate_request(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    a_item, b_item = rng.sample(products(30, 450), 2)
    a = s.delivered(c, [a_item], ago=rng.randint(8, 20))
    complaint, cat = COMPLAINTS[n % len(COMPLAINTS)]
    t = s.ticket(c, a, f"Issue with {a_item.name}", cat, ago=rng.randint(5, 8))
    by_id = n % 2 == 0
    g = Golden()
    v = identify(g, c)
    if by_id:
        g.add("get_ticket", ticket_id=t["id"])
        first = f"Ticket {t['id']}: {complaint.format(p=a_item.lower)}. I want a manager to handle it."
        other = None
    else:
        b = s.on_the_way(c, [b_item], eta=rng.randint(2, 5), reason="carrier_delay")
        other = s.ticket(c, b, "Parcel is late", "shipping", ago=1)
        g.add("list_customer_tickets", customer_id=c.id)
        first = f"{complaint.format(p=a_item.lower).capitalize()}. I want to speak to a supervisor about it."
    k = g.add("escalate_ticket", ticket_id=t["id"], reason="Customer asked for a manager")
    wrong = [
        drop(k, note="promises a manager but does not escalate"),
        append(call("update_ticket_status", ticket_id=t["id"], status="closed"),
               note="closes the ticket instead of leaving it with the specialists"),
    ]
    if other:
        wrong.append(replace({k: call("escalate_ticket", ticket_id=other["id"], reason="Customer asked for a manager")},
                             "wrong_entity", "escalates the other open ticket"))
    else:
        wrong.append(drop(v, note=NO_VERIFY))
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"fed up with the case about the {a_item.lower} (order {a.id})."),
            goal=f"Have the ticket about the {a_item.lower} handed to a manager.",
            first_message=first,
            facts=c.knows(**({"ticket_id": t["id"]} if by_id else {"ticket_about": a_item.name})),
            instructions="You only want the escalation, not a return or refund right now.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"I've escalated ticket {t['id']} to our specialist team with high priority. A specialist will contact you "
               "within 24 hours."),
        assertions=[exists("tickets", id=t["id"], status="escalated")]
        + ([unchanged("tickets", other["id"], "status")] if other else []) + [tells(specialist_in_24_hours()),
                                                              says(escalated(t["id"], [other["id"]] if other else [])),
                                                              # escalated, not closed: it stays with the specialists
                                                              stance("close", "not_done", "the customer asked for a "
                                                                     "manager; the ticket is escalated, not closed",
                                                                     [t["id"], *TICKET_WORDS_OWN]),
                                                              callback_promise()],
        wrong=wrong,
        kind="single_write", difficulty="easy", skills=["verification", "tickets", "escalation"],
    )


# =================================================================================================
# promotions and account details
# =================================================================================================

VALID_CODES = {"test": ["SAVE20", "HOLIDAY15", "NEWYEAR30", "VIP50"], "train": ["KITCHEN12", "FREESHIP", "HOLIDAY15"]}


@template("apply a valid promotion code to a not-yet-shipped order; another open order stays as it is")
def promo_apply(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    codes = VALID_CODES[s.split]
    code = codes[n % len(codes)]
    c = s.customer()
    s.delivered(c, [rng.choice(products(20, 150))], ago=rng.randint(30, 120))
    o = s.unshipped(c, s.lines_for(code))
    other = s.unshipped(c, s.lines_for(code))
    disc = promo_discount(code, o.subtotal)
    g = Golden()
    v = identify(g, c, order_id=o.id)
    g.add("get_order", order_id=o.id)
    g.add("get_promotion", code=code)
    k = g.add("apply_promo_code", order_id=o.id, code=code)
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"just found the code {code} and wants it on order {o.id}."),
            goal=f"Apply code {code} to order {o.id} and learn the savings.",
            first_message=f"Hi, can you apply the code {code} to my order {o.id}? My email is {c.email}.",
            facts=c.knows(order_id=o.id, code=code),
            instructions=f"Only order {o.id} should get the code.",
        ),
        patch=s.patch(), golden=g,
        reply=f"{code} is applied to order {o.id}: you save {fmt(disc)}, refunded to your {pay_label(c.pm)}.",
        assertions=[exists("orders", id=o.id, promo_code=code), unchanged("orders", other.id, "promo_code", "total"),
                    tells(savings(disc, money(o.total - disc))),
                    done_to_other(APPLIED, o, other, what=f"the code went on {o.id}, not on {other.id}"),
                    says_not(claim(*STORE_CREDIT_CLAIM), why=f"{CLAIM_WHY}: the discount goes back to the card the "
                             "order was paid with, not store credit")],
        wrong=[
            replace({k: call("apply_promo_code", order_id=other.id, code=code)}, "wrong_entity",
                    "applies the code to the other open order"),
            append(call("apply_promo_code", order_id=other.id, code=code), note="applies the code to both open orders"),
            drop(v, note=NO_VERIFY),
        ],
        kind="single_write", difficulty="easy", skills=["verification", "promotions"],
    )


# how a reply names the code an order already has, the other record in a one-code-per-order refusal ("that order
# already has a promotion code applied" is about it, not the code asked for)
HELD_CODE = ("a promotion code", "a promo code", "a discount code", "a code", "existing code", "current code",
             "another code", "other code")
EXPIRED_CODES = {"test": ["CYBER25", "SUMMER20"], "train": ["FALL5", "SPRING10"]}
PROMO_RULE = "policy, Promotions"


@template("a promotion code that cannot be applied (expired, minimum not reached, one code per order, shipped)")
def promo_refusal(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    case = n % 4 if s.split == "test" else (n + 1) % 4
    g = Golden()
    alt = None  # a code an over-helpful agent could apply instead
    refused = None
    if case == 0:
        code = EXPIRED_CODES[s.split][n // 4 % 2]
        o = s.unshipped(c, rng.sample(products(20, 200), 2))
        reason = fact(EXPIRED_REASON[0], f"{DECLINE_RULE}; {PROMO_RULE}: a code must not be expired", *EXPIRED_REASON[1:])
        text = f"I'm sorry, the code {code} expired on {PROMOS[code]['expires_on']}, so it can't be applied to order {o.id}."
        alt = "WELCOME10"
    elif case == 1:
        code = rng.choice(["VIP50", "NEWYEAR30", "SAVE20"])
        minimum = float(PROMOS[code]["min_subtotal"])
        for _ in range(200):
            lines = rng.sample(products(15, 300), rng.choice([1, 2]))
            if 20 <= sum(p.price for p in lines) < minimum - 5:
                break
        o = s.unshipped(c, lines)
        reason = fact(fmt(minimum), f"{DECLINE_RULE}; {PROMO_RULE}: the subtotal must reach the code's minimum (its "
                      "figure, as the policy's own example cites the window and the date)", near=MIN_WORDS,
                      may_be_negated=True)
        refused = fact(BELOW_MINIMUM[0], f"{DECLINE_RULE}: the customer asked to apply the code and hears that it "
                       "cannot be (a minimum told with 'it's applied' is a false status)", *BELOW_MINIMUM[1:],
                       *MINIMUM_RULE, may_be_negated=True)
        text = (f"I'm sorry, {code} needs an order subtotal of at least {fmt(minimum)}, and order {o.id} comes to "
                f"{fmt(o.subtotal)}, so the code can't be applied.")
        alt = "WELCOME10"
    elif case == 2:
        first_code = rng.choice(["WELCOME10", "HOLIDAY15"])
        code = rng.choice(["NEWYEAR30", "SAVE20"])
        o = s.unshipped(c, s.lines_for(code), promo=first_code)
        reason = fact("one code per order", f"{DECLINE_RULE}; {PROMO_RULE}: one promotion code per order (the rule, "
                      "not the code's name: the customer said that first)", *ONE_CODE, f"already has {first_code}",
                      f"already uses {first_code}", f"{first_code} is already applied", f"{first_code} already applied")
        text = (f"Order {o.id} has {first_code} on it, and there can be only one code per order, so I can't switch it "
                f"to {code}.")
    else:
        code = rng.choice(["HOLIDAY15", "NEWYEAR30"])
        o = s.on_the_way(c, s.lines_for(code), eta=rng.randint(1, 4))
        reason = shipped_reason(f"{PROMO_RULE}: codes only before the order ships")
        text = f"Order {o.id} has already shipped, and codes can only be applied before an order ships, so I can't add {code}."
    v = identify(g, c, order_id=o.id)
    g.add("get_order", order_id=o.id)
    g.add("get_promotion", code=code)
    ask = (f"I used {o.row['promo_code']} on order {o.id} but {code} is better. Can you switch it?" if case == 2
           else f"Hi! Please apply {code} to my order {o.id}.")
    wrong = [reply("Sorry, that code doesn't work for this order.", "declines without saying why"),
             drop(v, note=NO_VERIFY)]
    if alt:
        wrong.append(append(call("apply_promo_code", order_id=o.id, code=alt),
                            note=f"applies a different code ({alt}) nobody asked for"))
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"hoping to save money on order {o.id} with code {code}."),
            goal=f"Apply code {code} to order {o.id}.",
            first_message=f"{ask} My email is {c.email}.",
            facts=c.knows(order_id=o.id, code=code),
            instructions=f"Only ask for {code}; do not ask for other codes.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[unchanged("orders", o.id, "promo_code", "discount", "total"),
                    says(reason, *([refused] if refused else [])), made_up_saving(o, code),
                    # the code asked for, not applied; the code the order already has (case 2) is another record
                    stance("apply", "refused", f"{PROMO_RULE}: the code cannot be applied to this order",
                           order_names(o, more=[code] if case != 2 else [code, "new code"]),
                           [o.row["promo_code"], *HELD_CODE] if case == 2 else ())], wrong=wrong,
        kind="refusal", difficulty="easy", skills=["verification", "promotions", "policy"],
    )


@template("send a not-yet-shipped order to another saved address, only after verification")
def address_change(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(extra=("work", "parents") if n % 2 else ("work",))
    label = "parents" if n % 2 and n % 3 else "work"
    target = c.addresses[label]
    o = s.unshipped(c, [rng.choice(products(20, 300))])
    other = s.unshipped(c, [rng.choice(products(20, 300))])
    g = Golden()
    v = identify(g, c)
    g.add("get_customer", customer_id=c.id)
    k = g.add("update_shipping_address", order_id=o.id, address_id=target["id"])
    where = "my parents' place" if label == "parents" else "my work address"
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"wants order {o.id} delivered to {where} instead of home."),
            goal=f"Ship order {o.id} (only that order) to the saved {label} address, {target['line1']}.",
            first_message=f"Hi, this is {c.full}. Please send my order {o.id} to {where} instead of my home.",
            facts=c.knows(order_id=o.id, deliver_to_address=f"{target['line1']}, {target['city']} (my saved {label} address)"),
            instructions=f"Only order {o.id} should change; order {other.id} stays at home.",
        ),
        patch=s.patch(), golden=g, reply=f"Order {o.id} will now ship to {target['line1']}, {target['city']}.",
        assertions=[exists("orders", id=o.id, address_id=target["id"]), unchanged("orders", other.id, "address_id"),
                    tells(address_told(target)), address_roles(target, *elsewhere(c, target), order=o, others=[other])],
        wrong=[
            drop(v, note="changes the address without verifying the customer"),
            replace({k: call("update_shipping_address", order_id=other.id, address_id=target["id"])}, "wrong_entity",
                    "moves the other open order"),
            append(call("update_shipping_address", order_id=other.id, address_id=target["id"]),
                   note="moves both open orders"),
        ],
        kind="verification", difficulty="easy", skills=["verification", "addresses"],
    )


@template("the customer cannot prove their identity: nothing is looked up, told or changed")
def verification_failed(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer(extra=("work",))
    wrong_zip = c.addresses["work"]["zip_code"]
    if wrong_zip == c.zip:
        wrong_zip = str(int(c.zip) + 2)
    o = s.unshipped(c, [rng.choice(products(55, 300))])
    request = n % 4
    if request == 0:
        ask, act = "please cancel my pending order", call("cancel_order", order_id=o.id, reason="Customer request")
        keep = unchanged("orders", o.id, "status")
    elif request == 1:
        ask, act = ("please send my pending order to my work address instead of home",
                    call("update_shipping_address", order_id=o.id, address_id=c.addresses["work"]["id"]))
        keep = unchanged("orders", o.id, "address_id")
    elif request == 2:
        phone = f"{c.row['phone'][:3]}-555-0{rng.randint(100, 999)}"
        ask, act = f"please change the phone number on my account to {phone}", call(
            "update_customer_phone", customer_id=c.id, phone=phone)
        keep = unchanged("customers", c.id, "phone")
    else:
        ask, act = ("please apply the code HOLIDAY15 to my pending order",
                    call("apply_promo_code", order_id=o.id, code="HOLIDAY15"))
        keep = unchanged("orders", o.id, "promo_code", "total")
    g = Golden()
    g.add("find_customer", email=c.email)
    protected = "policy, Identity verification: if the details do not match, reveal nothing about the account"
    return TaskSpec(
        caller=Caller(
            persona=f"Someone giving the name {c.full}; the zip code they give ({wrong_zip}) does not match the account.",
            goal=f"Get this done: {ask}.",
            first_message=f"Hi, {ask}.",
            facts={"name": c.full, "email": c.email, "zip_code": wrong_zip},
            instructions=(f"Insist that your zip code is {wrong_zip}. You do not have an order number. Never give any other "
                          "zip code. If the agent cannot verify you, say you will call back later."),
        ),
        patch=s.patch(), golden=g,
        reply=("I'm sorry, I couldn't verify you with the details you gave, so I can't look at or change anything on "
               "the account. You're welcome to contact us again with the billing zip code on the account or an order "
               "number."),
        assertions=[
            absent("identity_verifications", customer_id=c.id), keep,
            says(fact(VERIFY_FAILED[0], f"{DECLINE_RULE}; {protected}", *VERIFY_FAILED[1:], may_be_negated=True)),
            must_not_disclose(*c.private(), o.id, c.addresses["work"]["line1"], why=protected),
            *verified_first(c.id, [act["name"]], why=protected),
            # nothing was done (the record by a name that tells nothing: the order's id may not be told)
            stance(ACTIONS[act["name"]][0], "refused", protected,
                   ["your phone number" if act["name"] == "update_customer_phone" else "your order"]),
        ],
        wrong=[
            append(act, note="makes the change without a verified identity"),
            append(call("verify_identity", customer_id=c.id, email=c.email, zip_code=c.zip),
                   note="verifies with the zip code on the account instead of the one the customer gave"),
            reply(f"Your order {o.id} is on its way to {c.home['line1']}. Anything else?",
                  "leaks account details and does not say why nothing was done"),
        ],
        kind="verification", difficulty="medium", skills=["verification", "policy"],
    )


OTHER_CUSTOMER = "policy, Account details: never share one customer's information with another person"
NAMESAKE = ("policy, Identity verification: when several customers share a name, only ever act on the verified "
            "customer's records (Account details: never share one customer's information with another person)")


def namesake_untouched(twin: Customer, *order_ids: str) -> list[dict[str, Any]]:
    """No read of the namesake's records at any time: find_customer lists both (ids and names only), and
    the zip code or email tells them apart; reading the other one's profile or orders to find out is
    reading a stranger's account (trying verify_identity on it reveals nothing and is allowed)."""
    out = [no_call(name, why=NAMESAKE, customer_id=twin.id)
           for name in ("get_customer", "list_customer_orders", "list_customer_tickets")]
    for oid in order_ids:
        out += [no_call(name, why=NAMESAKE, order_id=oid) for name in ("get_order", "get_shipment")]
    return out


@template("update the phone number of the right one of two customers with the same name")
def phone_update(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    twin = s.twin(c)
    area = AREA_CODES[c.home["state"]]
    # 555-01xx numbers; the last two digits differ, so a transposition is a different number
    digits = f"{area}5550{rng.randint(1, 9)}{rng.choice('02468')}{rng.choice('13579')}"
    shapes = [f"({digits[:3]}) {digits[3:6]}-{digits[6:]}", f"{digits[:3]}.{digits[3:6]}.{digits[6:]}",
              f"+1 {digits[:3]} {digits[3:6]} {digits[6:]}", f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"]
    raw = shapes[n % len(shapes)]
    formatted = f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"
    swapped = digits[:8] + digits[9] + digits[8]
    g = Golden()
    v = identify(g, c, by_name=True)
    k = g.add("update_customer_phone", customer_id=c.id, phone=raw)
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"has a new phone number; another customer with the same name lives in {twin.home['city']}."),
            goal=f"Update the phone number on the account to {raw}.",
            first_message=f"Hi, I'm {c.full}, zip code {c.zip}. I have a new phone number: {raw}. Please update my account.",
            facts=c.knows(first_name=c.first, last_name=c.last, new_phone=raw),
        ),
        patch=s.patch(), golden=g, reply=f"Your phone number is now {formatted}.",
        assertions=[exists("customers", id=c.id, phone=formatted), unchanged("customers", twin.id, "phone"),
                    tells(fact(formatted, f"{CHANGE_RULE} (the new number: 'updated' alone does not say to what)")),
                    phone_roles(formatted, c.row["phone"]),
                    must_not_disclose(twin.email, *twin.private(), why=OTHER_CUSTOMER), *namesake_untouched(twin)],
        wrong=[
            replace({k: call("update_customer_phone", customer_id=twin.id, phone=raw)}, "wrong_entity",
                    "updates the other customer with the same name"),
            replace({k: call("update_customer_phone", customer_id=c.id, phone=swapped)}, "wrong_entity",
                    "a transposed digit"),
            drop(v, note="changes the account without verifying the customer"),
        ],
        kind="verification", difficulty="easy", skills=["verification", "account", "disambiguation"],
    )


# =================================================================================================
# distractors and questions the agent must ask
# =================================================================================================


def phone_roles(new: str, old: str) -> dict[str, Any]:
    """The new and the old number said the other way round (pattern D): the new one as the one replaced ("changed
    from 520-555-0183 to ...", "520-555-0183 is your old number"), the old one as the new ("changed it to
    520-555-0170", "your new number is 520-555-0170"). A role word has no direction ("to" after a number makes it
    the old one, before it the new one), so the claims are the number with its direction written out, in the
    forms a reply writes a number in (dashes, "+1 ", bare digits)."""
    def forms(number: str) -> list[str]:
        return [number, f"+1 {number}", number.replace("-", "")]
    nouns = ("number", "phone number", "phone", "contact number")
    was = [f"{adj} {noun}{be}" for adj in ("old", "previous", "former") for noun in nouns for be in (" is ", " was ", ": ")]
    now = [f"new {noun}{be}" for noun in nouns for be in (" is ", ": ", " of ", " will be ", " is now ")]
    said = [f"{pre}{n}" for n in forms(new) for pre in ("from ", "replaced ", "instead of ", "used to be ", "no longer ",
                                                         *was)]
    said += [f"{n}{post}" for n in forms(new) for post in (" has been replaced", " was replaced", " is replaced",
                                                           " replaced by", " is no longer", " will no longer",
                                                           " is your old", " was your old")]
    said += [f"{n} to {o}" for n in forms(new) for o in forms(old)]  # "520-555-0183 to 520-555-0170"
    said += [f"{pre}{o}" for o in forms(old) for pre in (
        "changed to ", "changed it to ", "updated to ", "updated it to ", "set to ", "set it to ", "is now ",
        "replaced by ", "replaced with ", "switched to ", "switched it to ", "now reads ", "on file is now ", *now)]
    return says_not(claim(*said), why=f"{CLAIM_WHY}: the number changed from {old} to {new}, not the other way round")


@template("two customers with the same name each have a similar open order: act only on the verified one's")
def similar_name_action(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    twin = s.twin(c, membership=rng.choice(["basic", "plus"]))
    item = rng.choice(products(55, 300))
    o = s.unshipped(c, [item])
    s.delivered(c, [item], ago=rng.randint(50, 200))
    o2 = s.unshipped(twin, [item])
    g = Golden()
    v = identify(g, c, by_name=True)
    g.add("list_customer_orders", customer_id=c.id)
    if n % 2 == 0:
        k = g.add("cancel_order", order_id=o.id, reason=f"Customer no longer wants the {item.name}")
        act = lambda oid: call("cancel_order", order_id=oid, reason=f"Customer no longer wants the {item.name}")  # noqa: E731
        ask = f"Please cancel my order for the {item.lower}, it hasn't shipped yet."
        text = (f"Your order {o.id} for the {item.name} is cancelled, and the {fmt(o.total)} you paid is refunded to your "
                f"{pay_label(c.pm)} within 5 to 10 business days.")
        checks = [exists("orders", id=o.id, status="cancelled")]
        told = [refunded(o.total, CANCEL_REFUND),
                goes_to(s, c)]
        goal = f"Cancel the pending order for the {item.lower}."
    else:
        code = "HOLIDAY15"
        g.add("get_promotion", code=code)
        k = g.add("apply_promo_code", order_id=o.id, code=code)
        act = lambda oid: call("apply_promo_code", order_id=oid, code=code)  # noqa: E731
        disc = promo_discount(code, o.subtotal)
        ask = f"Can you apply the code {code} to my order for the {item.lower}? It hasn't shipped yet."
        text = f"{code} is applied to your order {o.id}: you save {fmt(disc)}, refunded to your {pay_label(c.pm)}."
        checks = [exists("orders", id=o.id, promo_code=code)]
        told = [savings(disc, money(o.total - disc))]
        checks.append(says_not(claim(*STORE_CREDIT_CLAIM), why=f"{CLAIM_WHY}: the discount goes back to the card the "
                               "order was paid with, not store credit"))
        goal = f"Apply code {code} to the pending order for the {item.lower}."
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"lives in {c.home['city']} (zip {c.zip}); another customer with the same name lives elsewhere."),
            goal=goal,
            first_message=f"Hi, I'm {c.full}, zip code {c.zip}. {ask}",
            facts=c.knows(first_name=c.first, last_name=c.last, order=f"the {item.lower} order that has not shipped yet"),
            instructions=f"You do not know the order number; you know it is the {item.lower} order that has not shipped.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[*checks, unchanged("orders", o2.id), tells(*told),
                    must_not_disclose(o2.id, twin.email, *twin.private(), why=OTHER_CUSTOMER),
                    *namesake_untouched(twin, o2.id)],
        wrong=[
            replace({k: act(o2.id)}, "wrong_entity", "acts on the other customer's order"),
            drop(v, note=NO_VERIFY),
        ],
        kind="distractor", difficulty="medium", skills=["verification", "disambiguation"],
    )


@template("the same product bought twice: the recent one is damaged, the old one must not be touched")
def older_order_return(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    item = rng.choice(products(25, 150))
    extra = rng.choice(products(15, APPROVAL_LIMIT - item.price, exclude=(item,)))
    old = s.delivered(c, [item], ago=rng.randint(120, 300))
    recent = s.delivered(c, [item, extra], ago=rng.randint(2, 10))
    line = recent.item(0)
    amount = recent.paid(line)
    damage = damage_for(rng, item.name)
    t = s.ticket(c, recent, f"{item.name} {damage}", "product", ago=1) if n % 2 else None
    g = Golden()
    v = identify(g, c)
    if t:
        g.add("get_ticket", ticket_id=t["id"])
    g.add("list_customer_orders", customer_id=c.id)
    g.add("get_order", order_id=recent.id)
    k = g.add("create_return", order_id=recent.id, item_ids=[line["id"]], reason=damage.capitalize())
    r = g.add("issue_refund", order_id=recent.id, amount=amount, reason=f"{item.name} {damage}", return_id=NEW_RETURN)
    text = (f"I've opened return {NEW_RETURN} for the {item.name} from order {recent.id} and refunded {fmt(amount)} to "
            f"your {pay_label(c.pm)}. It should show up within 5 to 10 business days.")
    wrong = [
        replace({k: call("create_return", order_id=old.id, item_ids=[old.item(0)["id"]], reason=damage.capitalize()),
                 r: call("issue_refund", order_id=old.id, amount=old.paid(old.item(0)), reason=f"{item.name} {damage}",
                         return_id=NEW_RETURN)}, "wrong_entity", "returns and refunds the same product from the old order"),
        replace({r: call("issue_refund", order_id=recent.id, amount=recent.total, reason="Damaged",
                         return_id=NEW_RETURN)}, "wrong_amount", "refunds the whole order"),
    ]
    first = f"Hi, the {item.lower} I just received {damage}. I want a refund for it."
    assertions = [absent("returns", order_id=old.id), exists("returns", order_id=recent.id, status="refunded"),
                  tells(refunded(amount), goes_to(s, c), return_id()),
                  # the old order said returned or refunded (the same product: only its id names it)
                  done_to_other(RETURNED, recent, old, what=f"only the recent order {recent.id} was returned and "
                                f"refunded, not {old.id}")]
    if t:
        nt = g.add("add_ticket_note", ticket_id=t["id"], note=f"Return {NEW_RETURN}; refunded {fmt(amount)}.")
        wrong.append(drop(nt, note="no note on the ticket the customer mentioned"))
        assertions.append(exists("ticket_notes", ticket_id=t["id"]))
        first = f"Hi, about ticket {t['id']}: the {item.lower} I just received {damage}. I want a refund for it."
    if len(wrong) < 3:
        wrong.append(drop(v, note=NO_VERIFY))
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, f"bought the {item.lower} twice; the one that arrived this week {damage}."),
            goal=f"Get a refund for the {item.lower} that just arrived {damage.replace('arrived ', '')}.",
            first_message=first,
            facts=c.knows(order="the one delivered a few days ago, not the older one", item=f"just the {item.lower}",
                          problem=damage, **({"ticket_id": t["id"]} if t else {})),
            instructions=f"You do not know the order number. You mean the {item.lower} delivered a few days ago, not the old one.",
        ),
        patch=s.patch(), golden=g, reply=text, assertions=assertions, wrong=wrong,
        kind="distractor", difficulty="medium",
        skills=["verification", "disambiguation", "returns", "refunds"] + (["tickets"] if t else []),
    )


@template("where is my most recent order: pick the latest among older look-alikes (read-only)")
def latest_order_status(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    item = rng.choice(products(20, 300))
    for ago in sorted(rng.sample(range(15, 200), 2), reverse=True):
        s.delivered(c, [rng.choice([item, *products(20, 150)])], ago=ago)
    delayed = n % 2 == 1
    latest = s.on_the_way(c, [item], eta=rng.randint(1, 7), reason="carrier_delay" if delayed else None,
                          placed=-rng.randint(2, 5))
    sh = latest.shipment
    assert sh is not None
    g = Golden()
    v = identify(g, c)
    g.add("list_customer_orders", customer_id=c.id)
    g.add("get_shipment", order_id=latest.id)
    how = "is delayed by the carrier; the new estimated delivery date is" if delayed else "is in transit, expected on"
    text = (f"Your most recent order, {latest.id} (the {item.name}), {how} {sh['eta']}. Tracking number: "
            f"{sh['tracking_number']} with {sh['carrier']}.")
    wrong = [
        reply("Your most recent order was delivered last month; there's nothing on its way.", "reports an older order"),
        drop(v, note=NO_VERIFY),
    ]
    if delayed:
        wrong.append(append(call("issue_store_credit", customer_id=c.id, order_id=latest.id, amount=c.goodwill,
                                 reason="Carrier delay"), note="hands out a goodwill credit nobody asked for"))
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, "does not remember order numbers; has ordered the same kind of thing before."),
            goal="Find out where the most recent order is and when it will arrive.",
            first_message=f"Hello, where is my most recent order, and when will it arrive? I'm {c.email}.",
            facts=c.knows(),
            instructions="Do not ask for compensation; you only want to know where the parcel is.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[*eta_told(sh["eta"], "the customer asked when the most recent order arrives"),
                    *nothing_done(order_names(latest))], wrong=wrong,
        kind="distractor", difficulty="medium", skills=["verification", "shipping", "disambiguation"],
    )


@template("a request about 'my order' with two open orders: the agent asks which one, then acts")
def ask_which_order(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    a, b = rng.sample(products(55, 300), 2)
    o = s.unshipped(c, [a])
    other = s.unshipped(c, [b])
    g = Golden()
    v = identify(g, c)
    g.add("list_customer_orders", customer_id=c.id)
    if n % 2 == 0:
        k = g.add("cancel_order", order_id=o.id, reason="No longer needed")
        act = lambda oid: call("cancel_order", order_id=oid, reason="No longer needed")  # noqa: E731
        first = "Please cancel my order, I don't need it anymore."
        text = (f"Order {o.id} with the {a.name} is cancelled, and {fmt(o.total)} is refunded to your {pay_label(c.pm)} "
                "within 5 to 10 business days.")
        checks = [exists("orders", id=o.id, status="cancelled"), unchanged("orders", other.id, "status")]
        told = [refunded(o.total, CANCEL_REFUND),
                goes_to(s, c)]
        goal = f"Cancel the open order with the {a.lower} ({o.id}), not the other one."
    else:
        code = "HOLIDAY15"
        g.add("get_promotion", code=code)
        k = g.add("apply_promo_code", order_id=o.id, code=code)
        act = lambda oid: call("apply_promo_code", order_id=oid, code=code)  # noqa: E731
        disc = promo_discount(code, o.subtotal)
        first = f"Hi, can you apply the code {code} to my order? It hasn't shipped yet."
        text = f"{code} is applied to order {o.id}: you save {fmt(disc)}, refunded to your {pay_label(c.pm)}."
        checks = [exists("orders", id=o.id, promo_code=code), unchanged("orders", other.id, "promo_code")]
        told = [savings(disc, money(o.total - disc))]
        goal = f"Apply code {code} to the open order with the {a.lower} ({o.id}), not the other one."
    answer = f"the one with the {a.lower}"
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, "has two open orders and forgets to say which one."),
            goal=goal, first_message=first,
            facts=c.knows(order=answer),
            instructions=f"Only say which order when the agent asks: {answer}. You do not know the order number.",
        ),
        patch=s.patch(), golden=g, reply=text,
        assertions=[*checks, tells(*told),
                    asks_first(g.calls[k]["name"], "order", ask="You have two open orders: which one do you mean?"),
                    # the other open order, said cancelled or given the code
                    done_to_other(CANCELED if g.calls[k]["name"] == "cancel_order" else APPLIED, o, other,
                                  what=f"only {o.id} was changed, not {other.id}")],
        wrong=[
            replace({k: act(other.id)}, "wrong_entity", "guesses the other order"),
            append(act(other.id), note="does it to both open orders"),
            drop(v, note=NO_VERIFY),
        ],
        kind="ask_user", difficulty="medium", skills=["verification", "clarification"],
    )


@template("'one of the items arrived broken': the agent asks which, then returns and refunds only that one")
def ask_which_item(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    c = s.customer()
    o = s.damaged_order(c, 3, 150, n % 3 == 2)
    j = 1 + n % 2
    line = o.item(j)
    amount = o.paid(line)
    damage = damage_for(rng, line["product_name"])
    g = Golden()
    identify(g, c)
    g.add("get_order", order_id=o.id)
    k = g.add("create_return", order_id=o.id, item_ids=[line["id"]], reason=damage.capitalize())
    r = g.add("issue_refund", order_id=o.id, amount=amount, reason=f"{line['product_name']} {damage}",
              return_id=NEW_RETURN)
    guess = o.item(0)
    answer = f"the {spoken(line['product_name'])} - {'they' if plural(line['product_name']) else 'it'} {damage}"
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, "brief in their messages; assumes the agent knows which item they mean."),
            goal=f"Get a refund for the item of order {o.id} that {damage} (the {spoken(line['product_name'])}).",
            first_message=f"One of the items in my order {o.id} is faulty. I want a refund for it.",
            facts=c.knows(order_id=o.id, faulty_item=answer),
            instructions=f"Only say which item is faulty when the agent asks: {answer}.",
        ),
        patch=s.patch(), golden=g,
        reply=(f"Sorry about that. I've opened return {NEW_RETURN} for the {line['product_name']} and refunded "
               f"{fmt(amount)} to your {pay_label(c.pm)}; expect it within 5 to 10 business days."),
        assertions=[exists("return_items", order_item_id=line["id"]), absent("return_items", order_item_id=guess["id"]),
                    tells(refunded(amount), goes_to(s, c), return_id()),
                    asks_first("create_return", "item", "product", ask="Which item is faulty, and what is wrong with it?")],
        wrong=[
            replace({k: call("create_return", order_id=o.id, item_ids=[guess["id"]], reason="Arrived broken"),
                     r: call("issue_refund", order_id=o.id, amount=o.paid(guess), reason="Arrived broken",
                             return_id=NEW_RETURN)}, "wrong_entity", "guesses the first item instead of asking"),
            drop(r, note="opens the return but does not refund a damaged item"),
            replace({r: call("issue_refund", order_id=o.id, amount=o.total, reason="Arrived broken",
                             return_id=NEW_RETURN)}, "wrong_amount", "refunds the whole order"),
        ],
        kind="ask_user", difficulty="medium", skills=["verification", "clarification", "returns", "refunds"],
    )


# =================================================================================================
# long conversations: several requests in one session
# =================================================================================================


@dataclass
class Part:
    """One request of a multi-request conversation."""

    ask: str  # how the customer phrases it in the first message
    done: str  # how the golden reply reports it
    facts: list[dict[str, Any]]  # what the reply must say about it
    assertions: list[dict[str, Any]]
    wrong: dict[str, Any]
    names: Sequence[str] = ()  # what the reply names it by (its order's id, products, ticket): binds its values


def _names(o: Order, *more: str) -> list[str]:
    return [o.id, *dict.fromkeys(i["product_name"] for i in o.items), *more]


def bind_parts(parts: list[Part]) -> list[dict[str, Any]]:
    """The parts' facts, each value (an amount, a date) bound to its own request's names against the other
    requests': two refunds, a credit and a replacement's date said in each other's place fail. Worded facts
    (where a refund goes) and facts with their own owner (a ticket's status) stay as they are."""
    out = []
    for p in parts:
        theirs = [n for q in parts if q is not p for n in q.names]
        mine = [n for n in p.names if n not in theirs]
        for f in p.facts:
            if mine and "owner" not in f and any(ch.isdigit() for ch in f["fact"]):
                f = {**f, "owner": mine, "rivals": theirs,
                     **({"alternatives": [{**a, "owner": mine, "rivals": theirs} for a in f["alternatives"]]}
                        if "alternatives" in f else {})}
            out.append(f)
    return out


def _part_cancel(s: RetailScene, c: Customer, g: Golden) -> Part:
    o = s.unshipped(c, [s.rng.choice(products(25, 300))])
    g.add("get_order", order_id=o.id)
    k = g.add("cancel_order", order_id=o.id, reason="Customer request")
    return Part(f"cancel order {o.id}", f"order {o.id} is cancelled and {fmt(o.total)} refunded to your {pay_label(c.pm)}",
                [refunded(o.total, CANCEL_REFUND),
                 goes_to(s, c)],
                [exists("orders", id=o.id, status="cancelled")], drop(k, note="forgets the cancellation"), _names(o))


def _part_address(s: RetailScene, c: Customer, g: Golden) -> Part:
    o = s.unshipped(c, [s.rng.choice(products(25, 300))])
    work = c.addresses["work"]
    k = g.add("update_shipping_address", order_id=o.id, address_id=work["id"])
    return Part(f"send order {o.id} to my work address on {work['line1']}", f"order {o.id} now ships to {work['line1']}",
                [address_told(work)], [exists("orders", id=o.id, address_id=work["id"]), address_roles(work, *elsewhere(c, work), order=o, others=[])],
                drop(k, note="forgets the address change"), _names(o))


def _part_damaged(s: RetailScene, c: Customer, g: Golden) -> Part:
    o = s.damaged_order(c, 2, 180, False)
    line = o.item(0)
    amount = o.paid(line)
    damage = damage_for(s.rng, line["product_name"])
    g.add("get_order", order_id=o.id)
    g.add("create_return", order_id=o.id, item_ids=[line["id"]], reason=damage.capitalize())
    r = g.add("issue_refund", order_id=o.id, amount=amount, reason=f"{line['product_name']} {damage}",
              return_id=NEW_RETURN)
    return Part(f"the {spoken(line['product_name'])} from order {o.id} {damage} - I want my money back for it",
                f"return {NEW_RETURN} is open for the {line['product_name']} and {fmt(amount)} is refunded to your "
                f"{pay_label(c.pm)}",
                [refunded(amount), goes_to(s, c), return_id()], [exists("returns", order_id=o.id, status="refunded")],
                replace({r: call("issue_refund", order_id=o.id, amount=o.total, reason="Damaged", return_id=NEW_RETURN)},
                        "wrong_amount", "refunds the whole order for one damaged item"), _names(o, NEW_RETURN))


def _part_promo(s: RetailScene, c: Customer, g: Golden) -> Part:
    code = "NEWYEAR30" if s.split == "test" else "KITCHEN12"
    o = s.unshipped(c, s.lines_for(code))
    disc = promo_discount(code, o.subtotal)
    g.add("get_promotion", code=code)
    k = g.add("apply_promo_code", order_id=o.id, code=code)
    return Part(f"apply the code {code} to order {o.id}", f"{code} saves you {fmt(disc)} on order {o.id}",
                [savings(disc, money(o.total - disc))], [exists("orders", id=o.id, promo_code=code)],
                drop(k, note="forgets the promotion code"), _names(o, code))


def _part_goodwill(s: RetailScene, c: Customer, g: Golden) -> Part:
    o = s.on_the_way(c, [s.rng.choice(products(25, 300))], eta=s.rng.randint(2, 6), reason="carrier_delay",
                     placed=-10)
    assert o.shipment is not None
    g.add("get_shipment", order_id=o.id)
    k = g.add("issue_store_credit", customer_id=c.id, order_id=o.id, amount=c.goodwill, reason="Carrier delay")
    other = 10.0 if c.plus else 20.0
    return Part(f"order {o.id} is late - when will it come, and I'd like something for the wait",
                f"order {o.id} is delayed by the carrier and now due on {o.shipment['eta']}; I've added a "
                f"{fmt(c.goodwill)} goodwill store credit",
                [fact(o.shipment["eta"], f"the customer asked when order {o.id} comes"),
                 fact(fmt(c.goodwill), f"{CHANGE_RULE} (the credit given)", owner=list(GOODWILL_WORDS), rivals=["refund"])],
                [exists("store_credits", customer_id=c.id, order_id=o.id, amount=c.goodwill)],
                replace({k: call("issue_store_credit", customer_id=c.id, order_id=o.id, amount=other,
                                 reason="Carrier delay")}, "wrong_amount", "the other membership tier's credit"),
                _names(o))


def _part_phone(s: RetailScene, c: Customer, g: Golden) -> Part:
    digits = f"{c.row['phone'][:3]}555{s.rng.randint(200, 999):04d}"
    phone = f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"
    formatted = f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"
    k = g.add("update_customer_phone", customer_id=c.id, phone=phone)
    return Part(f"update my phone number to {phone}", f"your phone number is now {formatted}",
                [fact(formatted, f"{CHANGE_RULE} (the new number)")],
                [exists("customers", id=c.id, phone=formatted), phone_roles(formatted, c.row["phone"])],
                drop(k, note="forgets the phone number"))


def _part_close(s: RetailScene, c: Customer, g: Golden) -> Part:
    o = s.delivered(c, [s.rng.choice(products(25, 300))], ago=1)
    t = s.ticket(c, o, "Where is my package?", "shipping", ago=4)
    g.add("get_ticket", ticket_id=t["id"])
    k = g.add("update_ticket_status", ticket_id=t["id"], status="closed")
    return Part(f"my parcel for order {o.id} arrived, so please close ticket {t['id']}", f"ticket {t['id']} is closed",
                [], [exists("tickets", id=t["id"], status="closed"), says(closed_status(t["id"]))],
                drop(k, note="forgets to close the ticket"), _names(o, t["id"]))


def _part_reship(s: RetailScene, c: Customer, g: Golden) -> Part:
    o = s.lost_order(c, 250)
    sh = o.shipment
    assert sh is not None
    t = s.ticket(c, o, "Parcel lost", "shipping", ago=2)
    g.add("get_ticket", ticket_id=t["id"])
    g.add("get_shipment", order_id=o.id)
    g.add("reship_order", order_id=o.id, shipment_id=sh["id"])
    g.add("add_ticket_note", ticket_id=t["id"], note=f"Replacement sent for {sh['id']}.")
    return Part(f"order {o.id} {LOST[sh['exception_reason']]} (ticket {t['id']}) - please send a replacement",
                f"a replacement for order {o.id} is on its way, expected {RESHIP_ETA} (noted on ticket {t['id']})",
                [new_eta(RESHIP_ETA)], [exists("shipments", order_id=o.id, replaces_shipment_id=sh["id"]),
                                        exists("ticket_notes", ticket_id=t["id"])],
                append(call("issue_refund", order_id=o.id, amount=o.total, reason="Lost parcel"),
                       note="refunds the lost order as well as replacing it"),
                _names(o, t["id"], "replacement", NEW_SHIPMENT))


def once(facts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each fact once: two refunds to the same card need 'where it goes' said once, not twice."""
    seen: dict[str, dict[str, Any]] = {}
    for f in facts:
        seen.setdefault(f["fact"], f)
    return list(seen.values())


PARTS = {"cancel": _part_cancel, "address": _part_address, "damaged": _part_damaged, "promo": _part_promo,
         "goodwill": _part_goodwill, "phone": _part_phone, "close": _part_close, "reship": _part_reship}
SESSIONS = [
    ["cancel", "damaged", "goodwill", "phone", "close"],
    ["address", "promo", "reship", "damaged", "cancel"],
    ["promo", "goodwill", "reship", "close", "phone"],
    ["cancel", "address", "damaged", "reship", "goodwill", "promo"],
    ["damaged", "close", "phone", "promo"],
    ["reship", "cancel", "goodwill", "address"],
]


@template("four to six requests in one conversation across orders, returns, shipments, account and tickets", LONG_COUNTS)
def multi_request_session(s: RetailScene, n: int) -> TaskSpec:
    rng = s.rng
    names = SESSIONS[(n + (0 if s.split == "test" else 4)) % len(SESSIONS)]
    c = s.customer(membership=rng.choice(["basic", "plus"]), extra=("work",))
    g = Golden()
    identify(g, c)
    if "address" in names or "goodwill" in names:
        g.add("get_customer", customer_id=c.id)
    parts = [PARTS[name](s, c, g) for name in names]
    first = "Hi, I have a few things today. " + " ".join(
        f"{nth}, {p.ask}." for nth, p in zip(("First", "Second", "Third", "Fourth", "Fifth", "Sixth"), parts, strict=False))
    wrong = [p.wrong for p in parts]
    return TaskSpec(
        caller=Caller(
            persona=persona(s, c, "saved up several requests for one conversation and lists them all at once."),
            goal="Get every request in the first message handled: " + "; ".join(p.ask for p in parts) + ".",
            first_message=first, facts=c.knows(),
        ),
        patch=s.patch(), golden=g, reply="All done: " + "; ".join(p.done for p in parts) + ".",
        # (no "never both" outcome for a replaced parcel here: the outcome vocabulary takes a sentence naming no
        # record, "the 299.00 from the cancellation is refunded", as about it; the wrong path checks the state)
        assertions=[a for p in parts for a in p.assertions] + [tells(*once(bind_parts(parts)))],
        wrong=[wrong[0], wrong[len(wrong) // 2], wrong[-1]],
        kind="multi_step", difficulty="hard", skills=["verification", "cross-system", *names],
    )


# -- the hand-written tasks: the same implied claims as the generated ones -----------------------------------

IMPLIED_WHYS = (UNASKED_WHY, INTERNAL_WHY, SAVING_WHY, WINDOW_WHY, TOTAL_WHY)
# (as the lines write them: YAML doubles a quote inside a quoted string, "customer''s")
IMPLIED_MARK = (*IMPLIED_WHYS, *(w.replace("'", "''") for w in IMPLIED_WHYS), "{grounded: ")


def implied(task: dict[str, Any]) -> list[dict[str, Any]]:
    """What a hand-written task checks besides its own assertions, as a generated one does (`Templates._implied`
    and `unasked_more`): no write claimed that its golden path did not make, in the kit's words and in
    `unasked_more`'s, and no figure made up (`grounded`)."""
    from tb_env.kit.spec import grounded, unasked_writes

    own = [a for a in task.get("assertions", []) if not _implied_item(a)]
    calls = [{"name": c["name"], "arguments": c.get("arguments", {})} for c in task.get("golden_actions", [])]
    reply_text = task.get("golden_reply")
    kit = unasked_writes(CLAIMS, calls, own, reply_text)
    gate = next((c for c in calls if c["name"] == "verify_identity"), None)
    patch = task.get("initial_patch", {})
    flags = internal_flags(patch, gate["arguments"]["customer_id"]) if gate else []
    if gate:  # as every template: the other membership's return window is not this customer's
        flags += other_window(patch, gate["arguments"]["customer_id"], reply_text)
    if task.get("tags", {}).get("template") == "promo_refusal":  # as the template: no made-up saving
        code = next(c["arguments"]["code"] for c in calls if c["name"] == "get_promotion")
        order_id = next(c["arguments"]["order_id"] for c in calls if c["name"] == "get_order")
        row = next(o for o in patch["orders"] if o["id"] == order_id)
        flags.append(made_up_saving(row, code, [i for i in patch.get("order_items", []) if i["order_id"] == order_id]))
    asked = next((c["arguments"] for c in calls if c["name"] == "request_manager_approval"), None)
    if asked and task.get("tags", {}).get("template") == "approval_denied_escalate":  # as the template: not the total
        row = next(o for o in patch["orders"] if o["id"] == asked["order_id"])
        flags += total_not_refund(row["total"], asked["amount"])
    return [*([kit] if kit else []), *unasked_more(calls, own, reply_text), *flags, grounded()]


def _implied_item(a: dict[str, Any]) -> bool:
    return "grounded" in a or ("must_not_state" in a and a["must_not_state"].get("why", "").startswith(IMPLIED_WHYS))


def sync_handwritten(check: bool = False) -> list[Path]:
    """Write `implied` into each hand-written task file (its lines are replaced, the rest of the file is kept as
    written), or with `check` only say which files are out of date. (One item a line, never folded: a folded
    item's second line would survive the next sync.)"""
    import yaml

    from tb_env.kit.templates import _Dumper, _Flow

    changed = []
    for path in sorted((HERE / "tasks").glob("*/*.yaml")):
        text = path.read_text(encoding="utf-8")
        if text.startswith("# Generated by"):
            continue
        tasks = {t["id"]: t for t in yaml.safe_load(text)}
        lines = [ln for ln in text.splitlines(keepends=True)
                 if not (ln.startswith("    - {") and any(m in ln for m in IMPLIED_MARK))]
        out: list[str] = []
        current = None
        for ln in lines:
            if ln.startswith("- id: "):
                current = tasks[ln[len("- id: "):].strip()]
            if ln.startswith(("  wrong_paths:", "  rubrics:")) and current is not None:
                out += ["    - " + yaml.dump(_Flow(a), Dumper=_Dumper, sort_keys=False, width=1_000_000,
                                             allow_unicode=True).strip() + "\n" for a in implied(current)]
                current = None
            out.append(ln)
        new = "".join(out)
        if new != text:
            changed.append(path)
            if not check:
                path.write_text(new, encoding="utf-8")
    return changed


def main(argv: list[str] | None = None) -> int:
    import sys

    argv = sys.argv[1:] if argv is None else argv
    check = "--check" in argv
    stale = sync_handwritten(check=check) if "--validate" not in argv else []
    for p in stale:
        print(f"{'out of date' if check else 'updated'}: {p}")
    rc = templates.main(argv)
    return rc or int(check and bool(stale))


if __name__ == "__main__":
    raise SystemExit(main())
