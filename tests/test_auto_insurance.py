"""The auto-insurance pack: what its tasks' grading relies on in its tools."""

from __future__ import annotations

import asyncio
import itertools

import tb_env
from tb_env.backends.sqlite import SQLiteBackend
from tb_env.core.check import replay, snapshot

PREMIUM_CHANGES = ("add_driver", "remove_driver", "replace_vehicle", "change_coverage")


def test_premium_changes_in_any_order_leave_the_same_invoices():
    """household_update makes four premium changes; a credit larger than the next instalment
    used to go on a new invoice or not depending on the order, so a correct agent could fail."""
    domain = tb_env.get_domain("auto_insurance")
    task = domain.tasks["auto_insurance/household-update-test-003"]
    writes = [c for c in task.golden_actions if domain.tools_by_name[c.name].writes]
    at = [i for i, c in enumerate(writes) if c.name in PREMIUM_CHANGES]
    backend = SQLiteBackend(cache_size=2)

    async def invoices(order: tuple[int, ...]) -> list[tuple]:
        calls = list(writes)
        for i, j in zip(at, order, strict=True):
            calls[i] = writes[j]
        db = await replay(domain, backend, task, calls)
        try:
            return sorted((await snapshot(domain, db))["invoices"])
        finally:
            await backend.close(db)

    outcomes = {tuple(asyncio.run(invoices(order))) for order in itertools.permutations(at)}
    assert len(at) == 4 and len(outcomes) == 1
