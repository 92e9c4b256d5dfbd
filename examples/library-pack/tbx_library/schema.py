"""Members, books and loans; and the support tickets of the shared ticketing component."""

from sqlalchemy import Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from .tickets import TICKETING


class Base(DeclarativeBase):
    pass


class Member(Base):
    __tablename__ = "members"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    card_pin: Mapped[str] = mapped_column(String)
    fines_due: Mapped[int] = mapped_column(Integer, server_default="0")  # cents


class Book(Base):
    __tablename__ = "books"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    title: Mapped[str] = mapped_column(String)
    holds: Mapped[int] = mapped_column(Integer, server_default="0")


class Loan(Base):
    __tablename__ = "loans"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    member_id: Mapped[str] = mapped_column(String)
    book_id: Mapped[str] = mapped_column(String)
    due_on: Mapped[str] = mapped_column(String)
    renewals: Mapped[int] = mapped_column(Integer, server_default="0")


TICKETING.declare(Base.metadata)  # tickets, ticket_notes
