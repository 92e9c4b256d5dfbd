from typing import Literal

from tb_env.domain.database import Database
from tb_env.domain.tool import read, write
from tb_env.errors import ToolError


@read
async def get_account(db: Database, account_id: str) -> dict:
    """Look up an account.

    Args:
        account_id: The account id, like "A-001".
    """
    row = await db.get("accounts", account_id)
    if row is None:
        raise ToolError(f"No account {account_id}.")
    return row


@write
async def deposit(db: Database, account_id: str, amount: float) -> dict:
    """Deposit money into an account.

    Args:
        account_id: The account id.
        amount: Amount in dollars, positive, at most 1000.
    """
    if amount <= 0 or amount > 1000:
        raise ToolError("Deposits must be between 0 and 1000.")
    row = await db.get("accounts", account_id)
    if row is None:
        raise ToolError(f"No account {account_id}.")
    await db.update("accounts", account_id, balance=round(row["balance"] + amount, 2))
    await db.insert("audit_log", entry=f"deposit {account_id} {amount}")
    return await db.get("accounts", account_id)


@write
async def set_status(db: Database, account_id: str, status: Literal["open", "frozen", "closed"]) -> dict:
    """Change an account's status.

    Args:
        account_id: The account id.
        status: The new status.
    """
    if not await db.update("accounts", account_id, status=status):
        raise ToolError(f"No account {account_id}.")
    return await db.get("accounts", account_id)


@write
async def add_note(db: Database, account_id: str, text: str) -> dict:
    """Attach a note to an account.

    Args:
        account_id: The account id.
        text: The note.
    """
    note_id = await db.next_id("notes", "N")
    return await db.insert("notes", id=note_id, account_id=account_id, text=text, created_at=db.now)


@write
async def crash(db: Database) -> dict:
    """A tool with a bug (tests use it to prove a crash is an infra error)."""
    raise RuntimeError("boom")
