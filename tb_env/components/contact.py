"""Contact details a service desk keeps: a person's US phone number, written one way.

Retail and banking customers both change their phone number through the same rule (ten
digits, any punctuation, an optional leading 1, stored as `503-555-0142`); a pack that
includes this writes that tool in one line, in its own words (which table, which id).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from tb_env.domain.database import Database
from tb_env.domain.tool import Param, Tool, compose_tool
from tb_env.errors import ToolError


def us_phone(text: str) -> str:
    """`(503) 555-0142`, `1 503 555 0142`, `5035550142` -> `503-555-0142`; anything else
    is refused with a message the agent can act on."""
    digits = re.sub(r"\D", "", text)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) != 10:
        raise ToolError(f"{text!r} is not a 10-digit US phone number.")
    return f"{digits[:3]}-{digits[3:6]}-{digits[6:]}"


def update_phone_tool(
    *,
    table: str,
    id_param: str,
    noun: str,
    example: str,
    lookup: Callable[[Database, str], Awaitable[dict[str, Any]]],
) -> Tool:
    """`update_<noun>_phone(<id_param>, phone)`: the verified person's number, normalised.

    `lookup(db, id)` is the pack's own row finder, so an unknown id fails with the pack's
    own message."""

    async def run(db: Database, **arguments: Any) -> dict[str, Any]:
        row = await lookup(db, arguments[id_param])
        formatted = us_phone(arguments["phone"])
        await db.update(table, row["id"], phone=formatted)
        return {id_param: row["id"], "phone": formatted}

    return compose_tool(
        "write",
        f"update_{noun}_phone",
        f"Change a verified {noun}'s phone number (US, 10 digits; any punctuation is fine).",
        [Param(id_param, str, f'The {noun} id, like "{example}".'),
         Param("phone", str, 'The new phone number, like "503-555-0142".')],
        run,
    )
