"""A tiny ThinkingBox-style MCP server for tests: state in module globals, like the real ones.

`__reserved__init` *adds* the task's rows to the module's database and never resets it,
exactly the property that makes a process per episode necessary: reuse a process and
the previous episode's rows and writes are still there.
"""

import copy
import hashlib
import json

from mcp.server.mcpserver import MCPServer

server = mcp = MCPServer("fake_shop")

BASE = {"orders": {"O-BASE": {"id": "O-BASE", "status": "open", "total": 10}}}
DB = copy.deepcopy(BASE)  # the live database: module state, set once at import
CONFIG: dict = {}


def _apply_patch(db: dict, patch: dict) -> None:
    for table, rows in (patch or {}).items():
        for row in rows:
            db.setdefault(table, {})[row["id"]] = dict(row)


def _get_order(db: dict, order_id: str) -> dict:
    order = db["orders"].get(order_id)
    return order if order else {"error": f"order {order_id} not found"}


def _cancel_order(db: dict, order_id: str, reason: str = "") -> dict:
    order = db["orders"].get(order_id)
    if not order:
        return {"error": f"order {order_id} not found"}
    if order["status"] != "open":
        return {"error": f"order {order_id} is {order['status']}"}
    order["status"] = "cancelled"
    order["cancel_reason"] = reason
    return order


TOOLS = {"get_order": _get_order, "cancel_order": _cancel_order}


def _hash(db: dict) -> str:
    return hashlib.sha256(json.dumps(db, sort_keys=True).encode()).hexdigest()


@mcp.tool(name="__reserved__init")
def reserved_init(config: dict) -> str:
    """Apply the task's data patch (on top of whatever the module holds)."""
    if config.get("fail_init"):  # the real servers answer so when a data patch does not apply
        return json.dumps({"status": "error", "message": "data patch failed"})
    CONFIG.clear()
    CONFIG.update(config)
    _apply_patch(DB, config.get("data_patch") or {})
    return json.dumps({})


@mcp.tool(name="__reserved__geteffects")
def reserved_geteffects() -> str:
    """Result hash vs. the hash of a fresh database with the patch and the golden calls."""
    golden = copy.deepcopy(BASE)
    _apply_patch(golden, CONFIG.get("data_patch") or {})
    for call in (CONFIG.get("golden_test_case") or {}).get("tool_interactions") or []:
        TOOLS[call["tool"]](golden, **(call.get("parameters") or {}))
    diff = [
        {"path": f"orders.{k}", "type": "changed", "result": DB["orders"].get(k), "golden": golden["orders"].get(k)}
        for k in sorted(set(DB["orders"]) | set(golden["orders"]))
        if DB["orders"].get(k) != golden["orders"].get(k)
    ]
    return json.dumps({
        "result_db_hash": _hash(DB), "golden_db_hash": _hash(golden), "diff": diff,
        "rubrics_yesno": CONFIG.get("rubrics_yesno") or [],
    })


@mcp.tool(name="__reserved__teardown")
def reserved_teardown() -> str:
    return json.dumps({"status": "ok"})


@mcp.tool()
def get_order(order_id: str) -> str:
    """Look up an order by id."""
    return json.dumps(_get_order(DB, order_id))


@mcp.tool()
def cancel_order(order_id: str, reason: str = "") -> str:
    """Cancel an open order."""
    return json.dumps(_cancel_order(DB, order_id, reason))


@mcp.tool()
def list_orders() -> str:
    """The ids of every order in the database."""
    return json.dumps(sorted(DB["orders"]))


@mcp.tool()
def knowledge_base_search_policy(query: str, max_results: int = 3) -> str:
    """Search the policy (needs Typesense, which tests do not have)."""
    raise RuntimeError("Typesense is not available")


@mcp.tool()
def internal_admin_reset() -> str:
    """Not in the scenario's whitelist: the agent must never see it."""
    DB.clear()
    return "reset"


if __name__ == "__main__":
    mcp.run(transport="stdio")
