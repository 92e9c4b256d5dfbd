"""Figures a reply states, and whether the episode gave them: the check behind `grounded`.

A reply can state every required fact and still tell the customer a figure nobody gave
it: "$50.00 a day" when the rate was $45.00, "30 rental days" for a three-day rental,
"your new total is 213.99" when 213.99 was the total before the change. No `says_not`
can list every wrong number, but the episode knows every right one: each figure an agent
may state came from a tool result, the customer or the policy, or is one step of
arithmetic on those (a refund plus shipping, a balance after a payment, three nights at a
rate, a share of a percentage, the nights between two dates). So a money amount, a count
of days / nights / points / ... or a date that is none of these was made up.

The figures are read in the normaliser's form (`tb_env.domain.normalize`): "$1,250.00",
"1250 dollars" and "one thousand two hundred fifty dollars" are all 1250; ids and dates
are single tokens there, so the 30 in `2026_11_30` or the 82055 in `o_82055` is no figure.

The check bounds invention; it cannot read intent: a made-up figure that happens to be one
step from a known one ($50 where the fee is $25: two fees) passes. A figure in the wrong
role (the old total said as the new) is the role assertions' business (`says_not`, `owner`),
and the old value of a changed record said as the new one is checked beside this
(`tb_env.core.check`, `stale_values`).
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from tb_env.domain.normalize import normalize

_RAW_MONEY = re.compile(
    r"[$€£]\s?\d|\d(?:[\d,]*)\.\d\d(?!\d)(?!\s*(?:%|percent|per ?cent))|\d\s?(?:dollars?|usd|eur|euros?|gbp)\b", re.IGNORECASE
)
_NUM = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w]|\.\d)")
# a count with its unit, one word allowed between: "3 nights", "30 rental days", "2500 goodwill points"
_UNIT_WORDS = "day|night|week|month|year|hour|point|mile|item|unit|seat|license|payment|installment"
_UNITS = rf"({_UNIT_WORDS})s?\b"
# (not a rate: "253 a year", "40 per day")
_COUNT = re.compile(rf"(?<![\w.])(\d+)\s+(?:(?!a\b|an\b|per\b|each\b|every\b)[a-z]+\s+)?{_UNITS}")
_ISO = re.compile(r"\b(\d{4})_(\d{2})_(\d{2})\b")
_MONTH_DAY = re.compile(r"(?<![\w])(\d{2})_(\d{2})(?![\w])")
_PERCENT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?) percent\b")
_BUSINESS = re.compile(rf"(?<![\w.])(\d+)(?:\s+(\d+))?\s+business\s+{_UNITS}")
_MAX_SUMMED = 60  # known amounts up to which any three may be added up
_MAX_SUMMED_4 = 25
_MAX_MULTIPLIER = 400  # a count an amount is multiplied or divided by: nights, items, payments


@dataclass(frozen=True)
class Figure:
    """One figure of a reply: its value, what it is (`money`, `count`, `date`) and the words around it."""

    kind: str
    value: float | str
    text: str
    rounded: bool = False  # money written without cents ("about $1,200"), which may round


def stated(text: str) -> list[Figure]:
    """The money amounts, unit counts and dates `text` states. Money is a number written
    with a currency (sign or word) or with two decimals ("213.99"), read sentence by
    sentence so that "3 nights" in one does not make a money figure of another."""
    out: list[Figure] = []
    for piece in re.split(r"(?<=[.!?;:\n])\s+|\s+(?:and|but|or)\s+|,\s+", text):
        if not piece.strip():
            continue
        norm = normalize(piece)
        if _RAW_MONEY.search(piece):
            for m in _NUM.finditer(norm):
                # only the numbers written as money in the raw piece: with a sign or word, or two decimals
                written = None if _after_unit(norm, m.end()) else _written_as_money(piece, m.group(0))
                if written is not None:
                    out.append(Figure("money", float(m.group(0)), piece.strip(), rounded=not written))
        for m in _COUNT.finditer(norm):
            out.append(Figure("count", float(m.group(1)), piece.strip()))
        counted = {f.value for f in out if f.text == piece.strip()}
        for m in _GROUPED.finditer(piece):  # a bare figure with thousands separators ("Gold at 20,000"): a count
            if float(m.group(0).replace(",", "")) not in counted:
                out.append(Figure("count", float(m.group(0).replace(",", "")), piece.strip()))
        for m in _ISO.finditer(norm):
            out.append(Figure("date", f"{m.group(1)}-{m.group(2)}-{m.group(3)}", piece.strip()))
        for m in _MONTH_DAY.finditer(norm):
            if 1 <= int(m.group(1)) <= 12 and 1 <= int(m.group(2)) <= 31:
                out.append(Figure("date", f"{m.group(1)}-{m.group(2)}", piece.strip()))
    return out


_UNIT_AFTER = re.compile(rf"\s+(?:[a-z]+\s+)?{_UNITS}|\s+percent\b")
# a number grouped in thousands, with no currency before or after it
_GROUPED = re.compile(r"(?<![\d.,$€£])(?<![$€£] )\d{1,3}(?:,\d{3})+(?![\d,]|\.\d)(?!\s?(?:dollars?|usd|eur|euros?|gbp)\b)",
                      re.IGNORECASE)


def _after_unit(norm: str, end: int) -> bool:
    """A number followed by a unit counts something: it is no amount of money."""
    return bool(_UNIT_AFTER.match(norm, end))


def _written_as_money(raw: str, number: str) -> bool | None:
    """Whether `number` (normalised) is written as money in `raw` (after a currency sign,
    before a currency word, or with two decimals): None if not, else whether with cents."""
    value = float(number)
    for m in re.finditer(r"([$€£]\s?)?(\d[\d,]*(?:\.\d+)?)(\s?(?:dollars?|usd|eur|euros?|gbp)\b)?", raw, re.IGNORECASE):
        try:
            v = float(m.group(2).replace(",", ""))
        except ValueError:
            continue
        if abs(v - value) > 1e-9:
            continue
        cents = bool(re.search(r"\.\d\d$", m.group(2)))
        if m.group(1) or m.group(3) or cents:
            return cents
    return None


# a number written as money in a source: "$25", "25 dollars", "74.99" or a JSON float "149.0"
_SOURCE_MONEY = re.compile(r"([$€£]\s?)?(?<![\w.])(\d[\d,]*)(\.\d+)?(?![\w])(\s?(?:dollars?|usd|eur|euros?|gbp)\b)?", re.IGNORECASE)
# a JSON field holding a count or a percentage: "rental_days": 3, "discount_percent": 10
_KEYED = re.compile(rf'"[a-z_]*?(?P<unit>{_UNIT_WORDS})s?(?:_[a-z]+)*"\s*:\s*(?P<n>\d+)')
_FIELD = re.compile(r'"([a-z_]+)"\s*:\s*(-?\d+(?:\.\d+)?)(?![\d"])')
_KEYED_PERCENT = re.compile(r'"[a-z_]*(?:percent|pct)[a-z_]*"\s*:\s*(\d+(?:\.\d+)?)')


@dataclass
class Known:
    """What the episode gave: every number and date of the tool results, the customer's
    words and the policy, and what one step of arithmetic makes of them."""

    numbers: set[float]  # every number
    money: set[float]  # those written as money
    units: set[int]  # those counting days, nights, points, ... ("3 nights", "rental_days": 3)
    percents: set[float]
    dates: set[dt.date]
    month_days: set[str]  # dates the sources write without a year ("December 28"), as "12-28"
    day_offsets: set[int]  # numbers of days the policy or the results count (30 days, 5 business days)
    # every value of each JSON field across the results: "prorated_change" of four changes adds up to what they cost
    by_key: dict[str, list[float]] = field(default_factory=dict)

    @classmethod
    def of(cls, sources: Iterable[str]) -> Known:
        k = cls(set(), set(), set(), set(), set(), set(), {0})
        for source in sources:
            k._read(source)
        return k

    def _read(self, source: str) -> None:
        for m in _SOURCE_MONEY.finditer(source):
            if m.group(1) or m.group(3) or m.group(4):
                self.money.add(float(m.group(2).replace(",", "") + (m.group(3) or "")))
        for m in _FIELD.finditer(source):
            self.by_key.setdefault(m.group(1), []).append(float(m.group(2)))
        for m in _KEYED.finditer(source.lower()):
            self.units.add(int(m.group("n")))
            if m.group("unit") in ("day", "night"):
                self.day_offsets.add(int(m.group("n")))
        self.percents.update(float(m.group(1)) for m in _KEYED_PERCENT.finditer(source.lower()))
        norm = normalize(source)
        for m in _ISO.finditer(norm):
            try:
                self.dates.add(dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3))))
            except ValueError:
                pass
        self.month_days.update(f"{m.group(1)}-{m.group(2)}" for m in _MONTH_DAY.finditer(norm))
        stripped = _MONTH_DAY.sub(" ", _ISO.sub(" ", norm))
        self.numbers.update(float(m.group(0)) for m in _NUM.finditer(stripped))
        self.percents.update(float(m.group(1)) for m in _PERCENT.finditer(stripped))
        for m in _COUNT.finditer(stripped):
            n, unit = int(m.group(1)), m.group(2)
            self.units.add(n)
            self.day_offsets.update({"day": [n], "night": [n], "week": [7 * n], "month": [28 * n, 30 * n, 31 * n],
                                     "year": [365 * n, 366 * n]}.get(unit, []))
        for m in _BUSINESS.finditer(stripped):  # "5-7 business days": a calendar span up to two weekends longer
            lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
            self.units.update((lo, hi))
            self.day_offsets.update(range(lo, hi + 2 * (hi // 5 + 1) + 1))

    def amounts(self) -> set[int]:
        """Every amount (in cents) one step of arithmetic makes of the known money: a sum or
        difference of two, a multiple or share by a count, a percentage of one or off it."""
        money = sorted(self.money)
        counts = {int(n) for n in self.numbers if n == int(n) and 1 <= n <= _MAX_MULTIPLIER} | set(range(1, 13))
        out = set(money)
        for a, b in itertools.combinations_with_replacement(money, 2):
            out.update((a + b, abs(a - b)))
        if len(money) <= _MAX_SUMMED:  # three items of a short list ("the laptop, monitor and dock come to ...")
            out.update(map(sum, itertools.combinations(money, 3)))
        if len(money) <= _MAX_SUMMED_4:  # four prorated changes of one request
            out.update(map(sum, itertools.combinations(money, 4)))
        for a in money:
            out.update(a * n for n in counts)
            out.update(a / n for n in counts)
            out.update(a * p / 100 for p in self.percents)
            out.update(a * (1 - p / 100) for p in self.percents)
        out.update(abs(sum(set(vs))) for vs in self.by_key.values() if len(set(vs)) > 1)
        # and any number a source states, money or not ("value above 150,000")
        return {round(v * 100) for v in out | self.numbers}

    def unit_counts(self) -> set[float]:
        """Counts of days / nights the known dates span (both ends counted or not), the known
        counts and their sums and differences ("3 nights, plus 2 more"), and any number a
        source states (a count may stand in a table or a sentence without its unit)."""
        spans = {abs((a - b).days) for a, b in itertools.combinations(self.dates, 2)}
        sums = {v for a, b in itertools.combinations_with_replacement(self.units, 2) for v in (a + b, abs(a - b))}
        return {float(n) for n in spans | {s + 1 for s in spans} | sums} | self.numbers

    def all_dates(self) -> set[dt.date]:
        """The known dates and those a counted number of days from them ("within 30 days of the purchase")."""
        return {d + dt.timedelta(days=k * sign) for d in self.dates for k in self.day_offsets for sign in (1, -1)}


def ungrounded(reply_texts: Iterable[str], sources: Iterable[str]) -> list[Figure]:
    """The figures of `reply_texts` that `sources` (tool results, the customer's words, the
    policy) neither state nor make in one step of arithmetic."""
    figures = [f for t in reply_texts for f in stated(t)]
    if not figures:
        return []
    known = Known.of(sources)
    kinds = {f.kind for f in figures}
    cents = known.amounts() if "money" in kinds else set()
    dollars = {c // 100 for c in cents} | {c // 100 + 1 for c in cents}  # "about $1,200" for 1,187.50
    counts = known.unit_counts() if "count" in kinds else set()
    dates = known.all_dates() if "date" in kinds else set()
    month_days = {d.strftime("%m-%d") for d in dates} | known.month_days

    def given(f: Figure) -> bool:
        if f.kind == "money":
            value = float(f.value)
            return round(value * 100) in cents or (f.rounded and int(value) in dollars)
        if f.kind == "count":
            return float(f.value) in counts
        value = str(f.value)
        if len(value) == 5:
            return value in month_days
        try:
            return dt.date.fromisoformat(value) in dates
        except ValueError:  # "2026-02-30": no date the reply could mean
            return False

    return [f for f in figures if not given(f)]
