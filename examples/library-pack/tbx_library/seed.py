"""Deterministic base rows."""

import random

TITLES = ["Dune", "Emma", "Ulysses", "Beloved", "Middlemarch", "Kindred", "Solaris", "Rebecca"]


def build() -> dict[str, list[dict]]:
    rng = random.Random(99)
    members = [{"id": f"M-{i:03d}", "name": f"Member {i}", "card_pin": f"{1000 + i}", "fines_due": 0} for i in range(1, 41)]
    books = [{"id": f"B-{i:03d}", "title": f"{TITLES[i % len(TITLES)]} ({i})", "holds": rng.choice([0, 0, 1])} for i in range(1, 61)]
    loans = [
        {"id": f"L-{i:03d}", "member_id": f"M-{1 + i % 40:03d}", "book_id": f"B-{i:03d}", "due_on": "2026-12-10", "renewals": 0}
        for i in range(1, 31)
    ]
    return {"members": members, "books": books, "loans": loans}
