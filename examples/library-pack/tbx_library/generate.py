"""The loan desk's task templates, written with tb-env's kit: `python -m tbx_library.generate`
writes tasks/<split>/gen_<template>.yaml (`--check`: are they current; `--validate`: run
`tb-env validate`'s contract and probes on them). Hand-written tasks sit in tasks/*.yaml."""

from datetime import date, timedelta
from pathlib import Path

from tb_env.kit import (
    Caller,
    Golden,
    Pool,
    Scene,
    TaskSpec,
    Templates,
    call,
    drop,
    fact,
    outcome,
    replace,
    says,
)

TITLES = ["Middlemarch", "Kindred", "Solaris", "Beloved", "Persuasion", "Dune", "Emma", "Ulysses"]

templates = Templates(
    "library",
    Path(__file__).parent / "tasks",
    pool=lambda split: Pool(split, bases={p: {"test": 500, "train": 700} for p in ("M", "B", "L")}),
    generator="tbx_library/generate.py",
)


@templates.template("renew one of two loans; the new due date is 14 days after the old one", counts={"test": 2, "train": 2})
def renew_loan(s: Scene, n: int) -> TaskSpec:
    first = s.rng.choice(["Ada", "Ben", "Cleo", "Dev", "Eli", "Fay"])
    pin = f"{s.rng.randint(1000, 9999)}"
    member = s.add("members", {"id": s.pool.id("M"), "name": f"{first} Lane", "card_pin": pin, "fines_due": 0})
    wanted, other = s.rng.sample(TITLES, 2)
    loans = []
    for title in (wanted, other):
        book = s.add("books", {"id": s.pool.id("B"), "title": title, "holds": 0})
        due = date(2026, 12, 1) + timedelta(days=s.rng.randint(1, 9))
        loans.append(s.add("loans", {"id": s.pool.id("L"), "member_id": member["id"], "book_id": book["id"],
                                     "due_on": due.isoformat(), "renewals": 0}))
    loan, other_loan = loans
    new_due = (date.fromisoformat(loan["due_on"]) + timedelta(days=14)).isoformat()
    g = Golden()
    g.add("list_loans", member_id=member["id"], card_pin=pin)
    k = g.add("renew_loan", member_id=member["id"], card_pin=pin, loan_id=loan["id"])
    return TaskSpec(
        caller=Caller(
            persona=f"{member['name']}, member {member['id']}, who has {wanted} and {other} out.",
            goal=f"Renew {wanted} (not {other}) and learn the new due date.",
            first_message=f"Hi, I'd like to renew {wanted}, please. I'm member {member['id']}.",
            facts={"member_id": member["id"], "card_pin": pin, "book": wanted},
        ),
        patch=s.patch(), golden=g,
        reply=f"Done: {wanted} is now due on {new_due}.",
        assertions=[says(fact(new_due, "the member asked for the new due date")),
                    # not "I couldn't renew it", nor "the renewal is pending", about this book (the other one may be named)
                    outcome("renew", "done", "the member asked to renew it, and it was", record=[wanted, loan["id"]],
                            others=[other, other_loan["id"]])],
        wrong=[
            replace({k: call("renew_loan", member_id=member["id"], card_pin=pin, loan_id=other_loan["id"])},
                    "wrong_entity", "renews the other book"),
            drop(k, note="never renews it"),
        ],
        kind="single_write", difficulty="easy", skills=["identity", "renewals"],
    )


if __name__ == "__main__":
    raise SystemExit(templates.main())
