import asyncio
import os
from pathlib import Path

from tb_env.domain.database import Database
from tb_env.domain.tool import read, write
from tb_env.errors import ToolError


@write
async def deposit(db: Database, account_id: str, amount: float) -> dict:
    """Deposit money into an account.

    Args:
        account_id: The account id, like "F-001".
        amount: Amount in dollars.
    """
    row = await db.get("accounts", account_id)
    if row is None:
        raise ToolError(f"No account {account_id}.")
    await db.update("accounts", account_id, balance=row["balance"] + amount)
    return await db.get("accounts", account_id)


@write
async def add_memo(db: Database, account_id: str, text: str) -> dict:
    """Store a free-text memo on an account (any text, stored as given).

    Args:
        account_id: The account id.
        text: The memo.
    """
    memo_id = await db.next_id("memos", "M")
    return await db.insert("memos", id=memo_id, account_id=account_id, text=text)


@read
async def find_memos(db: Database, text: str) -> list:
    """Memos whose text equals the given text.

    Args:
        text: The text to look for.
    """
    return await db.all("SELECT * FROM memos WHERE text = :text ORDER BY id", text=text)


@write
async def deposit_then_explode(db: Database, account_id: str) -> dict:
    """Writes, then fails with a bug: the write must not survive.

    Args:
        account_id: The account id.
    """
    await db.update("accounts", account_id, balance=0.0)
    raise RuntimeError("tool bug after a write")


@read
async def hang(db: Database) -> dict:
    """Never answers (a tool stuck on a dead upstream)."""
    mark = os.environ.get("TB_FAULTY_HANG_MARK")
    if mark:  # tells a test in another process that the call is in the tool now
        Path(mark).touch()
    await asyncio.sleep(3600)
    return {}


@read
async def garbage(db: Database) -> str:
    """Returns text that no transport can encode (a lone UTF-16 surrogate)."""
    return "balance: \ud800\udfff\ud800 ok"


@read
async def kill_server(db: Database) -> dict:
    """Kills the process serving it (a tool server that dies mid-episode)."""
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)
    return {}
