import random


def build() -> dict[str, list[dict]]:
    rng = random.Random(7)
    accounts = [
        {"id": f"A-{i:03d}", "owner": f"owner{i}", "balance": float(rng.randint(0, 500)), "status": "open"}
        for i in range(1, 51)
    ]
    return {"accounts": accounts, "notes": [], "audit_log": []}
