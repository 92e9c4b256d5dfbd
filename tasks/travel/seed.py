"""The travel base data: a hotel catalogue and a few hundred corporate travellers with their
stays, built deterministically.

`build()` depends on nothing but the fixed seed below (no network, no wall clock), so
every process builds the same rows. Dates run around the domain clock, 2026-11-30: most
stays are in the past (completed, invoiced, points credited), some are upcoming.
Natural distractors come for free: hotels of one chain in the same city ("Parkside
Suites Chicago Downtown" and "... O'Hare"), travellers who share a name, and travellers
with older stays at the hotel they are booked in again.

Tasks never depend on a particular generated traveller or booking: each task's
`initial_patch` adds the travellers, bookings, approvals, invoices and tickets its
scenario is about, with ids in ranges this file never uses (5001-6999 for the test
split, 7001-8999 for the train split). Records that tools create are numbered from 9001
(see `tools.NEW_ID_START`). The catalogue (cities, hotels, room types, rate plans) and
the companies are shared: tasks book real hotels of this file.
"""

from __future__ import annotations

import random
from datetime import date, timedelta
from typing import Any

from .pricing import discounted, money, stay_points

SEED = 20261130
TODAY = date(2026, 11, 30)
N_TRAVELLERS = 320

CITIES = [  # (code, name, country, tier)
    ("NYC", "New York", "United States", 1), ("LON", "London", "United Kingdom", 1),
    ("SFO", "San Francisco", "United States", 1), ("TYO", "Tokyo", "Japan", 1),
    ("PAR", "Paris", "France", 1), ("ZRH", "Zurich", "Switzerland", 1),
    ("SIN", "Singapore", "Singapore", 1), ("BOS", "Boston", "United States", 1),
    ("CHI", "Chicago", "United States", 2), ("SEA", "Seattle", "United States", 2),
    ("YTO", "Toronto", "Canada", 2), ("BER", "Berlin", "Germany", 2),
    ("AMS", "Amsterdam", "Netherlands", 2), ("WAS", "Washington", "United States", 2),
    ("LAX", "Los Angeles", "United States", 2), ("SYD", "Sydney", "Australia", 2),
    ("MAD", "Madrid", "Spain", 2), ("DUB", "Dublin", "Ireland", 2),
    ("DEN", "Denver", "United States", 3), ("AUS", "Austin", "United States", 3),
    ("ATL", "Atlanta", "United States", 3), ("DFW", "Dallas", "United States", 3),
    ("PHX", "Phoenix", "United States", 3), ("MSP", "Minneapolis", "United States", 3),
    ("LIS", "Lisbon", "Portugal", 3), ("PRG", "Prague", "Czech Republic", 3),
    ("CMH", "Columbus", "United States", 3), ("RDU", "Raleigh", "United States", 3),
    ("BNA", "Nashville", "United States", 3), ("PIT", "Pittsburgh", "United States", 3),
]

CHAINS = [  # (chain, stars, price factor, check-in time)
    ("Meridian Grand", 5, 1.45, "15:00"), ("Parkside Suites", 4, 1.10, "15:00"),
    ("Atlas Hotel", 4, 1.00, "14:00"), ("Harbor & Vine", 4, 1.18, "16:00"),
    ("Northgate Inn", 3, 0.78, "15:00"), ("Cityline Express", 3, 0.70, "14:00"),
    ("Lumen Residences", 4, 1.05, "15:00"),
]
AREAS = ["Downtown", "Airport", "Riverside", "Midtown", "Old Town", "Convention Center", "Central Station"]
STREETS = ["Market St", "King St", "Harbour Rd", "Station Sq", "Park Ave", "Bridge St", "Elm Ave", "Canal Walk"]
TIER_BASE = {1: 265.0, 2: 195.0, 3: 140.0}  # a 4-star standard room's flexible rate
ROOMS = [  # (code, name, price factor, max guests)
    ("standard", "Standard King", 1.00, 2), ("deluxe", "Deluxe King", 1.28, 2),
    ("junior_suite", "Junior Suite", 1.62, 3), ("suite", "Executive Suite", 2.10, 4),
]

COMPANIES = [
    "Acme Analytics", "Brightwave Energy", "Cobalt Logistics", "Delphi Biotech", "Evergreen Capital",
    "Fjord Software", "Granite Construction Group", "Helix Pharma", "Ironbridge Consulting", "Juniper Retail",
    "Keystone Insurance", "Lighthouse Media", "Monarch Aerospace", "Nimbus Cloud Systems", "Orchard Foods",
    "Pinnacle Legal", "Quarry Mining Co", "Redwood Health", "Summit Engineering", "Tidewater Shipping",
    "Umbra Security", "Vantage Telecom", "Willow Education", "Zenith Motors",
]
CAPS = [  # (tier 1, tier 2, tier 3) nightly caps
    (300, 220, 160), (325, 240, 175), (350, 250, 180), (400, 275, 200), (325, 225, 170), (375, 260, 190),
]

FIRST_NAMES = [
    "Adrian", "Beatrice", "Carlos", "Daniel", "Eleanor", "Felix", "Gabriela", "Henry", "Isabel", "Jonas",
    "Katarina", "Lucas", "Mei", "Nathan", "Olga", "Patrick", "Rania", "Stefan", "Tamara", "Viktor",
    "Wei", "Yasmin", "Andre", "Brigitte", "Chloe", "Dmitri", "Emma", "Farid", "Greta", "Hiroshi",
    "Ingrid", "Javier", "Kofi", "Leila", "Mateo", "Nadia", "Oliver", "Paula", "Rahul", "Sara",
]
LAST_NAMES = [
    "Kim", "Novak", "Schmidt", "Rossi", "Silva", "Dubois", "Tanaka", "Kowalczyk", "Moreau", "Jansen",
    "Larsen", "Fischer", "Costa", "Yilmaz", "Okafor", "Murphy", "Lindqvist", "Horvat", "Petrov", "Alvarez",
    "Chen", "Bauer", "Martin", "Nakamura", "Haddad", "Ferreira", "Walsh", "Berg", "Romero", "Singh",
]
TITLES = ["Account Executive", "Consultant", "Engineer", "Analyst", "Project Manager", "Sales Director",
          "Product Manager", "Auditor", "Field Technician", "Designer"]
MANAGER_TITLES = ["Head of Operations", "Regional Director", "VP Sales", "Engineering Manager"]
CARD_BRANDS = ["Amex", "Visa", "Mastercard"]

TICKET_SUBJECTS = {
    "service_issue": ["Room not cleaned during stay", "Air conditioning broken", "Noisy room, no move offered"],
    "billing": ["Invoice shows the wrong amount", "Need a PO number on my invoice"],
    "loyalty": ["Points missing for my stay"],
    "booking_change": ["Need to change my dates"],
}


def _iso(d: date) -> str:
    return d.isoformat()


def build() -> dict[str, list[dict[str, Any]]]:
    """All base rows, by table."""
    rng = random.Random(SEED)
    rows: dict[str, list[dict[str, Any]]] = {
        name: [] for name in (
            "cities", "companies", "hotels", "preferred_hotels", "room_types", "rate_plans", "travellers",
            "payment_methods", "bookings", "approvals", "transactions", "loyalty_entries", "invoices",
            "tickets", "ticket_notes",
        )
    }

    # -- catalogue: cities, hotels, rooms, rate plans --------------------------------------------
    hotels_by_city: dict[str, list[dict[str, Any]]] = {}
    for code, name, country, tier in CITIES:
        rows["cities"].append({"id": code, "name": name, "country": country, "tier": tier})
        chains = rng.sample(CHAINS, 4)
        # one chain appears twice in every city, in two areas: the similar-name distractor
        chains.insert(1, chains[0])
        areas = rng.sample(AREAS, len(chains))
        for k, (chain, stars, factor, check_in_time) in enumerate(chains):
            hid = f"H-{len(rows['hotels']) + 1:04d}"
            hotel = {"id": hid, "name": f"{chain} {name} {areas[k]}", "chain": chain, "city_id": code,
                     "address": f"{rng.randint(1, 400)} {rng.choice(STREETS)}, {name}", "stars": stars,
                     "check_in_time": check_in_time, "active": True}
            rows["hotels"].append(hotel)
            hotels_by_city.setdefault(code, []).append(hotel)
            base = TIER_BASE[tier] * factor * rng.uniform(0.92, 1.08)
            free_days = rng.choice([1, 2, 2, 3])
            for room_code, room_name, room_factor, guests in ROOMS[: 3 if stars == 3 else 4]:
                rid = f"RT-{len(rows['room_types']) + 1:04d}"
                rows["room_types"].append({"id": rid, "hotel_id": hid, "code": room_code, "name": room_name,
                                           "max_guests": guests})
                flex = float(round(base * room_factor))
                rows["rate_plans"].append({
                    "id": f"RP-{len(rows['rate_plans']) + 1:04d}", "hotel_id": hid, "room_type_id": rid,
                    "name": "Flexible", "kind": "flexible", "nightly_rate": flex,
                    "breakfast_included": stars >= 5, "free_cancel_days": free_days, "active": True})
                rows["rate_plans"].append({
                    "id": f"RP-{len(rows['rate_plans']) + 1:04d}", "hotel_id": hid, "room_type_id": rid,
                    "name": "Advance Saver (non-refundable)", "kind": "nonrefundable",
                    "nightly_rate": float(round(flex * 0.85)), "breakfast_included": False,
                    "free_cancel_days": 0, "active": True})

    plans_by_hotel: dict[str, list[dict[str, Any]]] = {}
    for plan in rows["rate_plans"]:
        plans_by_hotel.setdefault(plan["hotel_id"], []).append(plan)

    # -- companies and their preferred hotels ------------------------------------------------------
    preferred: dict[tuple[str, str], int] = {}
    for n, name in enumerate(COMPANIES, start=1):
        cid = f"CO-{n:04d}"
        t1, t2, t3 = CAPS[(n - 1) % len(CAPS)]
        domain = name.lower().replace(" & ", "").replace(" ", "") + ".com"
        rows["companies"].append({"id": cid, "name": name, "billing_email": f"travel-billing@{domain}",
                                  "cap_tier1": t1, "cap_tier2": t2, "cap_tier3": t3, "active": True})
        for code, *_ in rng.sample(CITIES, 12):
            hotel = rng.choice(hotels_by_city[code])
            pct = rng.choice([5, 8, 10, 12, 15])
            preferred[(cid, hotel["id"])] = pct
            rows["preferred_hotels"].append({"id": f"PH-{len(rows['preferred_hotels']) + 1:04d}",
                                             "company_id": cid, "hotel_id": hotel["id"], "discount_percent": pct})

    # -- travellers, their cards --------------------------------------------------------------------
    emails: set[str] = set()
    travellers = []
    for n in range(1, N_TRAVELLERS + 1):
        company = rows["companies"][(n - 1) % len(COMPANIES)]
        first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
        domain = company["billing_email"].split("@")[1]
        local = f"{first}.{last}".lower()
        email, k = f"{local}@{domain}", 2
        while email in emails:
            email, k = f"{local}{k}@{domain}", k + 1
        emails.add(email)
        rank = (n - 1) // len(COMPANIES)  # 0 for each company's first traveller: its manager
        tid = f"TR-{n:04d}"
        traveller = {
            "id": tid, "company_id": company["id"], "first_name": first, "last_name": last, "email": email,
            "phone": f"+1555{rng.randint(1000000, 9999999)}",
            "employee_id": f"E{rng.randint(10000, 99999)}",
            "job_title": rng.choice(MANAGER_TITLES) if rank == 0 else rng.choice(TITLES),
            "manager_id": None if rank == 0 else f"TR-{(n - 1) % len(COMPANIES) + 1:04d}",
            "loyalty_tier": rng.choices(["member", "silver", "gold"], [6, 3, 1])[0], "active": True,
        }
        rows["travellers"].append(traveller)
        cards = [{"id": f"PM-{len(rows['payment_methods']) + 1:04d}", "traveller_id": tid, "kind": "corporate_card",
                  "label": f"{rng.choice(CARD_BRANDS)} Corporate ending {rng.randint(1000, 9999)}", "status": "active"}]
        rows["payment_methods"].append(cards[0])
        if rng.random() < 0.3:
            cards.append({"id": f"PM-{len(rows['payment_methods']) + 1:04d}", "traveller_id": tid,
                          "kind": "personal_card", "label": f"{rng.choice(CARD_BRANDS)} ending {rng.randint(1000, 9999)}",
                          "status": "expired" if rng.random() < 0.2 else "active"})
            rows["payment_methods"].append(cards[1])
        travellers.append((traveller, company, cards))

    # -- stays: drawn per traveller, numbered in check-in order -------------------------------------
    drafts = []
    for traveller, company, cards in travellers:
        for _ in range(rng.randint(2, 7)):
            upcoming = rng.random() < 0.18
            check_in = TODAY + timedelta(days=rng.randint(2, 75)) if upcoming else TODAY - timedelta(days=rng.randint(3, 420))
            drafts.append((check_in, traveller, company, cards))
    drafts.sort(key=lambda d: (d[0], d[1]["id"]))

    tx_n, lp_n, inv_n, ticket_n, note_n, ap_n = 1, 1, 1001, 1001, 1, 1
    balance: dict[str, int] = {}
    for k, (check_in, traveller, company, cards) in enumerate(drafts):
        bid = f"BK-{1001 + k}"
        city = rng.choice(CITIES)
        hotel = rng.choice(hotels_by_city[city[0]])
        plan = rng.choice(plans_by_hotel[hotel["id"]][:4])  # standard or deluxe, either kind
        nights = rng.choice([1, 2, 2, 3, 3, 4, 5])
        check_out = check_in + timedelta(days=nights)
        rate = discounted(plan["nightly_rate"], preferred.get((company["id"], hotel["id"]), 0))
        total = money(rate * nights)
        card = rng.choice([c for c in cards if c["status"] == "active"] or cards)
        booked_on = min(check_in - timedelta(days=rng.randint(3, 40)), TODAY - timedelta(days=1))
        if check_in > TODAY:
            status = "cancelled" if rng.random() < 0.05 else "confirmed"
        else:
            status = "cancelled" if rng.random() < 0.06 else "completed"
        booking = {
            "id": bid, "traveller_id": traveller["id"], "hotel_id": hotel["id"], "room_type_id": plan["room_type_id"],
            "rate_plan_id": plan["id"], "check_in": _iso(check_in), "check_out": _iso(check_out), "nights": nights,
            "nightly_rate": rate, "total_amount": total, "status": status, "payment_method_id": card["id"],
            "approval_id": None, "arrival_time": "21:30" if rng.random() < 0.05 else None, "cancellation_fee": 0,
            "cancelled_on": None, "booked_on": _iso(booked_on), "cancel_reason": None,
        }
        cap = company[f"cap_tier{city[3]}"]
        if rate > cap:  # booked above the cap: a manager approved it beforehand
            ap_id = f"AP-{ap_n:04d}"
            ap_n += 1
            rows["approvals"].append({
                "id": ap_id, "traveller_id": traveller["id"], "approver_id": traveller["manager_id"] or traveller["id"],
                "kind": "out_of_policy", "booking_id": None, "rate_plan_id": plan["id"], "check_in": _iso(check_in),
                "check_out": _iso(check_out), "amount": rate, "status": "approved",
                "decision_note": "Approved: client meeting venue", "decided_on": _iso(booked_on),
                "request_reason": "Rate above cap", "created_at": f"{_iso(booked_on)}T09:00:00Z"})
            booking["approval_id"] = ap_id
        rows["bookings"].append(booking)
        rows["transactions"].append({
            "id": f"TX-{tx_n:04d}", "booking_id": bid, "kind": "charge", "purpose": "booking", "amount": total,
            "payment_method_id": card["id"], "approval_id": None, "reason": "Prepaid stay",
            "created_at": f"{_iso(booked_on)}T10:00:00Z"})
        tx_n += 1
        if status == "cancelled":
            cancelled_on = booked_on + timedelta(days=1)
            booking.update(cancelled_on=_iso(cancelled_on), cancel_reason="Trip cancelled")
            fee = total if plan["kind"] == "nonrefundable" else 0
            booking["cancellation_fee"] = fee
            if total - fee > 0:
                rows["transactions"].append({
                    "id": f"TX-{tx_n:04d}", "booking_id": bid, "kind": "refund", "purpose": "cancellation",
                    "amount": money(total - fee), "payment_method_id": card["id"], "approval_id": None,
                    "reason": "Cancelled in the free window", "created_at": f"{_iso(cancelled_on)}T10:00:00Z"})
                tx_n += 1
            continue
        if status != "completed":
            continue

        # a completed stay: invoiced to the company, points credited (a few are missing)
        paid = check_out < TODAY - timedelta(days=35) or rng.random() < 0.3
        rows["invoices"].append({
            "id": f"INV-{inv_n}", "booking_id": bid, "company_id": company["id"], "amount": total,
            "status": "paid" if paid else "issued", "issued_on": _iso(min(check_out, TODAY)),
            "po_number": f"PO-{rng.randint(100000, 999999)}" if rng.random() < 0.4 else None,
            "cost_center": f"CC-{rng.randint(100, 999)}" if rng.random() < 0.5 else None})
        inv_n += 1
        if rng.random() < 0.95:
            balance[traveller["id"]] = balance.get(traveller["id"], 0) + stay_points(total)
            rows["loyalty_entries"].append({
                "id": f"LP-{lp_n:04d}", "traveller_id": traveller["id"], "booking_id": bid, "points": stay_points(total),
                "kind": "stay", "reason": f"Stay {bid}", "created_at": f"{_iso(check_out)}T12:00:00Z"})
            lp_n += 1
        if rng.random() < 0.1:
            category = rng.choice(list(TICKET_SUBJECTS))
            tid = f"T-{ticket_n}"
            ticket_n += 1
            opened = min(check_out + timedelta(days=rng.randint(0, 4)), TODAY)
            rows["tickets"].append({
                "id": tid, "traveller_id": traveller["id"], "booking_id": bid,
                "subject": rng.choice(TICKET_SUBJECTS[category]), "category": category,
                "status": "closed" if rng.random() < 0.85 else "open", "priority": "normal",
                "escalation_reason": None, "created_at": f"{_iso(opened)}T09:30:00Z"})
            for author in ["traveller", "agent"][: rng.randint(1, 2)]:
                rows["ticket_notes"].append({
                    "id": f"N-{note_n:04d}", "ticket_id": tid, "author": author,
                    "body": "Traveller described the problem." if author == "traveller" else "Replied and resolved.",
                    "created_at": f"{_iso(opened)}T10:00:00Z"})
                note_n += 1
            if category == "service_issue" and rng.random() < 0.5:
                rows["loyalty_entries"].append({
                    "id": f"LP-{lp_n:04d}", "traveller_id": traveller["id"], "booking_id": bid, "points": 1000,
                    "kind": "goodwill", "reason": "Service issue", "created_at": f"{_iso(opened)}T11:00:00Z"})
                lp_n += 1
        if rng.random() < 0.05 and balance.get(traveller["id"], 0) >= 5000:  # a reward night redeemed
            balance[traveller["id"]] -= 5000
            rows["loyalty_entries"].append({
                "id": f"LP-{lp_n:04d}", "traveller_id": traveller["id"], "booking_id": None, "points": -5000,
                "kind": "redemption", "reason": "Reward night", "created_at": f"{_iso(check_out)}T13:00:00Z"})
            lp_n += 1
    return rows
