"""Loan desk tools."""

import datetime as dt

from tb_env.domain.database import Database
from tb_env.domain.tool import read, write
from tb_env.errors import ToolError


async def _member(db: Database, member_id: str, card_pin: str) -> dict:
    member = await db.get("members", member_id)
    if member is None or member["card_pin"] != card_pin:
        raise ToolError("Member id and PIN do not match.")
    return member


@read
async def list_loans(db: Database, member_id: str, card_pin: str) -> list:
    """The member's current loans, with book titles, due dates and renewals used.

    Args:
        member_id: The member id, like "M-007".
        card_pin: The member's card PIN (identity check).
    """
    await _member(db, member_id, card_pin)
    return await db.all(
        "SELECT l.id AS loan_id, b.title, l.due_on, l.renewals, b.holds FROM loans l "
        "JOIN books b ON b.id = l.book_id WHERE l.member_id = :m ORDER BY l.id",
        m=member_id,
    )


@write
async def renew_loan(db: Database, member_id: str, card_pin: str, loan_id: str) -> dict:
    """Renew a loan for 14 days from its due date (at most twice; not if the book is on hold or fines are due).

    Args:
        member_id: The member id.
        card_pin: The member's card PIN.
        loan_id: The loan to renew, like "L-012".
    """
    member = await _member(db, member_id, card_pin)
    loan = await db.get("loans", loan_id)
    if loan is None or loan["member_id"] != member_id:
        raise ToolError(f"No loan {loan_id} for this member.")
    book = await db.get("books", loan["book_id"])
    if book["holds"] > 0:
        raise ToolError("Another member holds this book; it cannot be renewed.")
    if member["fines_due"] > 0:
        raise ToolError("The member owes fines; loans cannot be renewed.")
    if loan["renewals"] >= 2:
        raise ToolError("This loan has already been renewed twice.")
    due = dt.date.fromisoformat(loan["due_on"]) + dt.timedelta(days=14)
    await db.update("loans", loan_id, due_on=due.isoformat(), renewals=loan["renewals"] + 1)
    return await db.get("loans", loan_id)
