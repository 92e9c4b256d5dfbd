"""`tb-env tools DOMAIN`: a domain's tools and tables, as a task author needs them.

A template's golden calls must name each tool's arguments exactly, with values of the
types the tool declares, and its rows must fill the columns the schema has. The policy
shows neither; this command shows both, from the same `Tool` objects the agent is served
and the same SQLAlchemy metadata the episode database is built from (shared components,
such as the ticket tools, included).
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

from tb_env.domain.registry import get_domain


def _type(prop: dict[str, Any]) -> str:
    if "enum" in prop:
        return " | ".join(json.dumps(v) for v in prop["enum"])
    if "anyOf" in prop:
        return " | ".join(_type(p) for p in prop["anyOf"])
    if prop.get("type") == "array":
        return f"list[{_type(prop.get('items', {}))}]"
    return str(prop.get("type", "any"))


def _column(col: sa.Column[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": col.name, "type": str(col.type)}
    if col.primary_key:
        out["primary_key"] = True
    if col.nullable and not col.primary_key:
        out["nullable"] = True
    if col.server_default is not None:
        out["default"] = str(getattr(col.server_default, "arg", col.server_default))
    if col.foreign_keys:
        out["references"] = sorted(fk.target_fullname for fk in col.foreign_keys)
    if col.info.get("volatile"):
        out["volatile"] = True
    return out


def describe(domain_name: str) -> dict[str, Any]:
    """The tools (name, read or write, description, arguments) and the tables (columns)."""
    domain = get_domain(domain_name)
    tools = []
    for t in domain.tools:
        schema = t.input_schema
        required = set(schema.get("required", []))
        args = [{"name": name, "type": _type(prop), "required": name in required,
                 **({"default": prop["default"]} if "default" in prop else {}),
                 **({"description": prop["description"]} if prop.get("description") else {})}
                for name, prop in schema.get("properties", {}).items()]
        tools.append({"name": t.name, "kind": t.kind, "description": t.description, "arguments": args})
    tables = [{"name": table.name, "checked": table.info.get("checked", True),
               "columns": [_column(c) for c in table.columns]} for table in domain.metadata.sorted_tables]
    return {"domain": domain.name, "tools": tools, "tables": tables}


def render(info: dict[str, Any]) -> str:
    out = [f"# {info['domain']}: {len(info['tools'])} tools, {len(info['tables'])} tables", "", "## tools"]
    for t in info["tools"]:
        sig = ", ".join(f"{a['name']}: {a['type']}" + ("" if a["required"] else f" = {json.dumps(a.get('default'))}")
                        for a in t["arguments"])
        out.append(f"{t['name']}({sig})  [{t['kind']}]")
        out += [f"    {line}" for line in t["description"].splitlines() if line.strip()]
        out += [f"    - {a['name']}: {a['description']}" for a in t["arguments"] if a.get("description")]
    out += ["", "## tables (the check compares the checked ones; volatile columns are ignored)"]
    for table in info["tables"]:
        cols = []
        for c in table["columns"]:
            marks = [m for m, on in (("pk", c.get("primary_key")), ("null", c.get("nullable")),
                                     ("volatile", c.get("volatile"))) if on]
            if "default" in c:
                marks.append(f"default {c['default']}")
            if "references" in c:
                marks.append("-> " + ", ".join(c["references"]))
            cols.append(f"    {c['name']}: {c['type']}" + (f"  ({'; '.join(marks)})" if marks else ""))
        out.append(f"{table['name']}" + ("" if table["checked"] else "  (not checked)"))
        out += cols
    return "\n".join(out) + "\n"


def main(domain_name: str, as_json: bool = False) -> int:
    info = describe(domain_name)
    print(json.dumps(info, indent=2) if as_json else render(info), end="" if not as_json else "\n")
    return 0
