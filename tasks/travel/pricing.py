"""The travel desk's arithmetic, in one place: the tools, the seed and the task generator
all price stays, fees and points with these functions, so they cannot disagree.

Every rule here is also stated in policy.md, in words.
"""

from __future__ import annotations

from datetime import date, timedelta

POINTS_PER_DOLLAR = 10  # Voyager Rewards stay points
GOODWILL_POINTS = {"member": 1000, "silver": 2500, "gold": 5000}  # service-failure compensation
LATE_ARRIVAL_HOLD = "18:00"  # rooms are held until this time unless an arrival time is recorded
MAX_NIGHTS = 14


def money(x: float) -> float:
    """Round to cents (half up for the binary-float cases that matter here)."""
    return round(float(x or 0) + 1e-9, 2)


def discounted(rate: float, discount_percent: int) -> float:
    """A rate plan's nightly rate after a company's preferred-hotel discount."""
    return money(float(rate) * (100 - int(discount_percent)) / 100)


def nights_between(check_in: str, check_out: str) -> int:
    return (date.fromisoformat(check_out) - date.fromisoformat(check_in)).days


def stay_total(nightly_rate: float, nights: int) -> float:
    return money(money(nightly_rate) * nights)


def stay_points(total: float) -> int:
    """Stay points: 10 per dollar of the stay's total, rounded down."""
    return round(float(total) * 100) * POINTS_PER_DOLLAR // 100


def free_cancel_until(check_in: str, free_cancel_days: int) -> str:
    """The last day a flexible booking can be cancelled free of charge."""
    return (date.fromisoformat(check_in) - timedelta(days=int(free_cancel_days))).isoformat()


def cancellation_fee(kind: str, check_in: str, free_cancel_days: int, nightly_rate: float, paid: float,
                     today: str) -> float:
    """What a cancellation today keeps back: nothing inside the free window; one night's rate
    after it (flexible plans); everything paid (non-refundable plans)."""
    if kind == "nonrefundable":
        return money(paid)
    if today <= free_cancel_until(check_in, free_cancel_days):
        return 0.0
    return money(min(money(nightly_rate), money(paid)))
