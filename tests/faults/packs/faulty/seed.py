def build() -> dict[str, list[dict]]:
    accounts = [{"id": f"F-{i:03d}", "owner": f"owner{i}", "balance": 100.0 * i} for i in range(1, 11)]
    return {"accounts": accounts, "memos": [{"id": "M-0001", "account_id": "F-001", "text": "seeded"}]}
