from sqlalchemy import Float, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Account(Base):
    __tablename__ = "accounts"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    owner: Mapped[str] = mapped_column(String)
    balance: Mapped[float] = mapped_column(Float, server_default="0")
    status: Mapped[str] = mapped_column(String, server_default="open")


class Note(Base):
    __tablename__ = "notes"
    id: Mapped[str] = mapped_column(String, primary_key=True)
    account_id: Mapped[str] = mapped_column(String)
    text: Mapped[str] = mapped_column(Text, info={"volatile": True})
    created_at: Mapped[str] = mapped_column(String, info={"volatile": True})


class AuditLog(Base):
    __tablename__ = "audit_log"
    __table_args__ = {"info": {"checked": False}}
    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    entry: Mapped[str] = mapped_column(String)
