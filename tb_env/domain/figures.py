"""Figures a reply states, and whether the episode gave them: the check behind `grounded`.

A reply can state every required fact and still tell the customer a figure nobody gave
it: "$50.00 a day" when the rate was $45.00, "30 rental days" for a three-day rental,
"your new total is 213.99" when 213.99 was the total before the change. No `says_not`
can list every wrong number, but the episode knows every right one: each figure an agent
may state came from a tool result, the customer or the policy, or is one step of
arithmetic on those (a refund plus shipping, a balance after a payment, three nights at a
rate, a share of a percentage, the nights between two dates). So a money amount, a count
of days / nights / points / ..., a card's last four digits or a date that is none of these
was made up. A date may be one counted from a known date ("refundable until", "within 30
days of") only where the words just before it count it (`_BOUND_BEFORE`); a record's own date (the
loss date, the hold date) must be one the episode gave.

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
import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, fields

from tb_env.domain.normalize import normalize
from tb_env.domain.transcript import NOT_JSON, json_value

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
# words that make a date one counted from another ("refundable until", "arrives by", "within 30 days
# of"), standing just before it: only there may a reply state a date that no source states; elsewhere
# a date is a record's date (the loss date, the hold date, "covered from", "effective") and must be one
# the episode gave
_BOUND_BEFORE = re.compile(
    r"\b(?:by|until|till|through|thru|before|after|within|latest|earliest|deadline|cut ?off|expir\w*|laps\w*|"
    r"end(?:s|ed|ing)?|due|clos(?:e|ed|es|ing)|no later than|arriv\w*|deliver\w*|expected|estimated|eta|renew\w*)"
    r"(?: (?:on|at|is|was|of|the|around|about|approximately|roughly|date|day|by|until|in|it|will|be|\w+ days?)){0,4} $"
    # ("the last day you could return it was 2026-11-29": the words between say what the day is the last of)
    r"|\blast (?:day|date)(?: [\w']+){0,6} $"
)
# a card named by its last four digits: "Visa ending 4242", "ending in 4242", "card ****4242", "last four 4242"
_CARD = re.compile(r"(?:\bending(?:\s+in)?|\bends\s+in|\blast\s+(?:four|4)(?:\s+digits)?(?:\s+(?:of|are|is))?:?|[*•xX]{2,}[-\s]?)"
                   r"\s*(\d{4})(?!\d|[-/.,]\d)")
# an id or reference a reply names, in the normaliser's form: a joined id ("HO-6001" is ho_6001, "CC-1500"
# cc_1500) or a code of letters and six or more digits ("1Z1568326927"; not "1000pc"); and, raw, a bare run of five or
# more digits ("your reference number is 48213"): a wrong or made-up one names a record nobody gave
_ID_TOKEN = re.compile(r"(?<![\w])(?:[a-z]+_[a-z0-9_]*\d[a-z0-9_]*|(?=[a-z0-9]*[a-z])[a-z0-9]*\d{6,}[a-z0-9]*)(?![\w])")
_DIGIT_RUN = re.compile(r"(?<![\w$€£.,-])\d{5,}(?![\w]|[.,]\d|\s?(?:dollars?|usd|eur|euros?|gbp)\b)", re.IGNORECASE)
# a street address's number and name ("5821 Jasmine Ave"): one a reply names is one a source gives, not a digit off
_STREET = re.compile(r"\b(\d{1,6})\s+((?:[A-Z][a-z]+\s+){1,3}?)(St|Street|Ave|Avenue|Way|Dr|Drive|Rd|Road|Blvd|Boulevard|"
                     r"Ln|Lane|Ct|Court|Pl|Place|Ter|Terrace|Pkwy|Parkway|Hwy|Highway|Cir|Circle|Loop|Trl|Trail)\b")
# a person named in a role ("pending approval by your manager Fergus Yates", "sent to Dana Okafor"): one the sources
# name, each word of it (a result may give the first and last name apart)
_PERSON = re.compile(r"\b(?:manager|approver|supervisor|adjuster|colleague|specialist|handler|(?:approval|approved|reviewed|"
                     r"signed off|decided|handled) by|(?:sent|forwarded|routed|assigned|escalated|referred)(?:\s+[\w-]+){0,3}?\s+to)(?:,)?\s+(?:(?:is|was|will be|:)\s+)?((?:your |the )?(?:manager |approver )?)"
                     r"([A-Z][a-z]+(?:[-' ][A-Z][a-z]+){1,2})\b")
# a phone number ("415-555-7185", "(415) 555 7185", "+14155557185"): read out, it is one a tool or the customer gave
_PHONE = re.compile(r"(?<![\w+])(?:\+?1[\s.-]?)?\(?(\d{3})\)?[\s.-]?(\d{3})[\s.-]?(\d{4})(?![\w]|[.,]\d)")
_MAX_SUMMED = 60  # known amounts up to which any three may be added up
_MAX_SUMMED_4 = 25
_SPAN_UNITS = {"day", "week", "month", "hour"}  # a count in these must be a span the episode counts (`Known.spans`)
_MIN_WINDOW = 14  # days: a span the sources count that a reply may count a date by without saying it
_MAX_MULTIPLIER = 400  # a count an amount is multiplied or divided by: nights, items, payments


@dataclass(frozen=True)
class Figure:
    """One figure of a reply: its value, what it is (`money`, `count`, `date`) and the words around it."""

    kind: str
    value: float | str
    text: str
    rounded: bool = False  # money written without cents ("about $1,200"), which may round
    counted: bool = False  # a date a bound word counts ("refundable until 2026-12-01"), which may be derived
    unit: str = ""  # a count's unit ("day" of "within 45 days")
    # a count of days said as how long something takes or lasts ("within 5 working days", "a 10-day grace period"):
    # `held` where only a record or the sources' prose said of the same thing may give it
    process: str = ""


# how long something takes or how long one has: the words before a count of days ("within", "takes up to", "in 1-3")
# or after it ("10-day grace period", "5 working days' notice")
_PROCESS_BEFORE = re.compile(r"\b(?:within|takes?|taking|took|allow|expect|up to|in|next)\s+(?:(?:about|around|roughly|"
                             r"approximately|up to|another|a further|the next|only)\s+)?(?:\d+\s+(?:to\s+|or\s+)?)?$")
_PROCESS_AFTER = re.compile(r"\s*(?:s\b|s')?\s*(?:[a-z]+\s+)?(?:grace|window|period|notice|deadline|cooling|turnaround)\b")


# how long something takes, in words: "within a week", "in a couple of days" (a number word is a digit to the normaliser)
_SPAN_IN_WORDS = re.compile(r"\b(?:within|in|takes?|taking|up to|over)\s+(?:about |around |roughly |the next |just |only )?"
                            r"(a couple of|a couple|a)\s+(day|week)s?\b")
# a time later today or tomorrow that someone will act by ("will call you this afternoon", "back by tomorrow morning"):
# one the sources give in those words, or tomorrow where tomorrow is a date the episode knows
_WHEN = re.compile(r"\b(?:later today|this? (?:afternoon|evening)|tonight|tomorrow|end of (?:the )?day|within the hour|"
                   r"in the next hour|before \d{1,2}(?:_\d\d)? ?(?:am|pm)|by \d{1,2}(?:_\d\d)? ?(?:am|pm))\b")
_WHEN_DENIED = re.compile(r"\b(?:not|never|no|cannot|can ?t|won ?t|don ?t|isn ?t|unable)\b|n't")
# something said to happen by itself ("will be drafted automatically", "it'll unfreeze automatically after 30 days"): a
# process the sources describe as automatic for the same thing, not one the reply makes up
_AUTOMATIC = re.compile(r"\bautomatic(?:ally)?\b|\bauto[- ](?:renew|charg|pay|unfreez|cancel|appl|refund)")
_BY_ITSELF = re.compile(r"automatic|by itself|on its own")
_AUTO_GENERIC = frozenset({"autom", "card", "accou", "order", "booki", "polic", "custo", "trave", "payme", "amoun", "there",
                           "statu", "name", "type", "label", "total", "creat", "updat", "curre", "last", "first"})
_TODAY = re.compile(r"\btoday is\W{0,4}(\d{4})-(\d{2})-(\d{2})", re.IGNORECASE)


def _process(norm: str, m: re.Match[str]) -> str:
    """`window` for a count of days said as a period one has ("a 10-day grace period"), `working` for working or
    business days said as how long something takes, `calendar` for calendar days said so; else ""."""
    if m.group(2) != "day":
        return ""
    if _PROCESS_AFTER.match(norm, m.end()):
        return "window"
    if not _PROCESS_BEFORE.search(norm, 0, m.start()):
        return ""
    return "working" if re.search(r"\b(?:business|working)\b", norm[m.start() : m.end()]) else "calendar"


@functools.lru_cache(maxsize=64)
def stated(text: str) -> tuple[Figure, ...]:
    """The money amounts, unit counts and dates `text` states. Money is a number written
    with a currency (sign or word) or with two decimals ("213.99"), read sentence by
    sentence so that "3 nights" in one does not make a money figure of another. (Kept for the
    last few texts: a grounded check reads each reply text for its figures, roles and dates.)"""
    out: list[Figure] = []
    # (a line is a piece of its own: "- Premium: $2,382.47\n- Deductible: $250.00" gives no deductible of 2,382.47)
    for piece in re.split(r"(?<=[.!?;:\n])\s+|\s*\n\s*|\s+(?:and|but|or)\s+|,\s+", text):
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
            out.append(Figure("count", float(m.group(1)), piece.strip(), unit=m.group(2), process=_process(norm, m)))
        for m in _SPAN_IN_WORDS.finditer(norm):  # "within a week": 7 days, said in words
            days = (7 if m.group(2) == "week" else 1) * (2 if m.group(1).startswith("a couple") else 1)
            out.append(Figure("count", float(days), piece.strip(), unit="day", process="words"))
        out.extend(Figure("when", m.group(0), piece.strip()) for m in _WHEN.finditer(norm) if not _WHEN_DENIED.search(norm))
        if (auto := _AUTOMATIC.search(norm)) and not _WHEN_DENIED.search(" ".join(norm[: auto.start()].split()[-4:])):
            out.append(Figure("auto", "automatically", piece.strip()))
        counted = {f.value for f in out if f.text == piece.strip()}
        for m in _GROUPED.finditer(piece):  # a bare figure with thousands separators ("Gold at 20,000"): a count
            if float(m.group(0).replace(",", "")) not in counted:
                out.append(Figure("count", float(m.group(0).replace(",", "")), piece.strip()))
        out.extend(Figure("card", m.group(1), piece.strip()) for m in _CARD.finditer(piece))
        out.extend(Figure("street", _street(m), piece.strip()) for m in _STREET.finditer(piece))
        out.extend(Figure("person", m.group(2), piece.strip()) for m in _PERSON.finditer(piece))
        out.extend(Figure("phone", "".join(m.groups()), piece.strip()) for m in _PHONE.finditer(piece)
                   if not re.fullmatch(r"\d+", m.group(0)))  # (a bare run of ten digits is an id's business)
        out.extend(Figure("id", m.group(0), piece.strip()) for m in _ID_TOKEN.finditer(norm))
        out.extend(Figure("id", m.group(0), piece.strip()) for m in _DIGIT_RUN.finditer(piece)
                   if not _after_unit(piece.lower(), m.end()))
        for m in _ISO.finditer(norm):
            out.append(Figure("date", f"{m.group(1)}-{m.group(2)}-{m.group(3)}", piece.strip(),
                              counted=bool(_BOUND_BEFORE.search(norm, 0, m.start()))))
        for m in _MONTH_DAY.finditer(norm):
            if 1 <= int(m.group(1)) <= 12 and 1 <= int(m.group(2)) <= 31:
                out.append(Figure("date", f"{m.group(1)}-{m.group(2)}", piece.strip(),
                                  counted=bool(_BOUND_BEFORE.search(norm, 0, m.start()))))
    return tuple(out)


# what something arriving does ("should post / reach your card / show up by ..."): a date a business-day span may count to
_ARRIVAL = re.compile(r"\b(?:post|posts|posted|reach|reaches|arrive|arrives|appear|appears|land|lands|show|shows|see|"
                      r"receive|deliver|delivered|credited)\b")
_UNIT_AFTER = re.compile(rf"\s+(?:[a-z]+\s+)?{_UNITS}|\s+percent\b")
# a number grouped in thousands, with no currency before or after it
_GROUPED = re.compile(r"(?<![\d.,$€£])(?<![$€£] )\d{1,3}(?:,\d{3})+(?![\d,]|\.\d)(?!\s?(?:dollars?|usd|eur|euros?|gbp)\b)",
                      re.IGNORECASE)


def _street(m: re.Match[str]) -> str:
    """A street's number and name words, its suffix left out ("St" and "Street" alike): "5821 jasmine"."""
    return f"{m.group(1)} {' '.join(m.group(2).lower().split())}"


@functools.lru_cache(maxsize=256)
def _streets_of(source: str) -> frozenset[str]:
    return frozenset(_street(m) for m in _STREET.finditer(source.replace("\\n", " ")))


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
    day_offsets: set[int]  # numbers of days the policy or the results count (30 days, 3 nights)
    # calendar spans of business days ("5-7 business days"), counted forward only: a refund lands after it is issued
    forward_offsets: set[int] = field(default_factory=set)
    # every four digits of every digit run the sources write: a card's last four, a year
    digits: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)  # the ids and codes they name, and their runs of five digits or more
    # every value of each JSON field across the results: "prorated_change" of four changes adds up to what they cost
    by_key: dict[str, list[float]] = field(default_factory=dict)
    # counts of hours the sources state ("within 24 hours", "hold_hours": 72): a count of days is no count of hours
    hours: set[int] = field(default_factory=set)

    @classmethod
    def empty(cls) -> Known:
        return cls(set(), set(), set(), set(), set(), set(), {0})

    @classmethod
    def of(cls, sources: Iterable[str]) -> Known:
        k = cls.empty()
        for source in sources:  # (a few recent sources kept read: the policy is in every episode)
            one = _read_one(source)
            for f in fields(cls):
                mine, theirs = getattr(k, f.name), getattr(one, f.name)
                if isinstance(mine, set):
                    mine.update(theirs)
                else:  # by_key
                    for key, values in theirs.items():
                        mine.setdefault(key, []).extend(values)
        return k

    def _read(self, source: str) -> None:
        for run in re.findall(r"\d{4,}", source):
            self.digits.update(run[i : i + 4] for i in range(len(run) - 3))
            self.ids.add(run)
        for m in _SOURCE_MONEY.finditer(source):
            if m.group(1) or m.group(3) or m.group(4):
                self.money.add(float(m.group(2).replace(",", "") + (m.group(3) or "")))
        for m in _FIELD.finditer(source):
            self.by_key.setdefault(m.group(1), []).append(float(m.group(2)))
        for m in _KEYED.finditer(source.lower()):
            self.units.add(int(m.group("n")))
            if m.group("unit") == "hour":
                self.hours.add(int(m.group("n")))
            if m.group("unit") in ("day", "night"):
                self.day_offsets.add(int(m.group("n")))
        self.percents.update(float(m.group(1)) for m in _KEYED_PERCENT.finditer(source.lower()))
        norm = normalize(source)
        self.ids.update(_ID_TOKEN.findall(norm))
        # (a timestamp, "2026-11-21T10:00:00Z", is one token to the normaliser: its date is read raw)
        for m in itertools.chain(_ISO.finditer(norm), re.finditer(r"\b(\d{4})-(\d{2})-(\d{2})T\d", source)):
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
            if unit == "hour":
                self.hours.add(n)
            self.day_offsets.update({"day": [n], "night": [n], "week": [7 * n], "month": [28 * n, 30 * n, 31 * n],
                                     "year": [365 * n, 366 * n], "hour": [n // 24] if n % 24 == 0 else []}.get(unit, []))
        for m in _BUSINESS.finditer(stripped):  # "5-7 business days": a calendar span up to two weekends longer
            lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
            self.units.update((lo, hi))
            self.forward_offsets.update(range(lo, hi + 2 * (hi // 5 + 1) + 1))

    def amounts(self) -> set[int]:
        """Every amount (in cents) one step of arithmetic makes of the known money: a sum or
        difference of two, a multiple or share by a count, a percentage of one or off it."""
        money = sorted(self.money)
        # what an amount may be multiplied or shared by: a number the sources state, or nights between their dates
        counts = {int(n) for n in self.unit_counts() if n == int(n) and 1 <= n <= _MAX_MULTIPLIER}
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

    def date_gaps(self) -> set[int]:
        """The days between any two known dates."""
        return {abs((a - b).days) for a, b in itertools.combinations(self.dates, 2)}

    def spans(self) -> set[float]:
        """Counts of days, weeks or months the episode gives: the counts it states with such a unit
        ("30 days", "rental_days": 3) and the days between its dates (both ends counted or not). Not
        sums of them (5 and 7 business days make no 12 months), nor any number: "a decision within 60
        days" where the policy says 45 is made up even if 60 is some other number."""
        gaps = self.date_gaps()
        return {float(n) for n in gaps | {g + 1 for g in gaps} | self.units | self.day_offsets}

    def unit_counts(self) -> set[float]:
        """Counts of days / nights the known dates span (both ends counted or not), the known
        counts and their sums and differences ("3 nights, plus 2 more"), and any number a
        source states (a count may stand in a table or a sentence without its unit)."""
        gaps = self.date_gaps()
        sums = {v for a, b in itertools.combinations_with_replacement(self.units, 2) for v in (a + b, abs(a - b))}
        return {float(n) for n in gaps | {g + 1 for g in gaps} | sums} | self.numbers


# words that say nothing of what a span is the span of ("the customer ... within 24 hours")
_SPAN_STOP_WORDS = """about after again also always another any anything before being business calendar customer
customers days does each ever every from have hours into just keep least less made make many month months more most
must need night nights only other over same should since some such take takes than that their them then there these
they this those time under until upon usually very week weeks what when where which while will with within would year
years your yours agent agents tell tells says sets asks give gives working"""
_SPAN_STOP = frozenset(_SPAN_STOP_WORDS.split())


def _stems(text: str) -> frozenset[str]:
    """The words of `text` that say what something is, cut to five letters ("refunds", "refunded": "refun"); the
    words for money reaching an account as one ("shows up", "posts", "lands": "appea")."""
    return frozenset(_SAME_STEM.get(w[:5], w[:5]) for w in re.findall(r"[a-z]{4,}", text.lower()) if w not in _SPAN_STOP)


_SAME_STEM = {"shows": "appea", "show": "appea", "post": "appea", "posts": "appea", "poste": "appea", "lands": "appea",
              "land": "appea", "reach": "appea"}


def endings_said(text: str) -> set[str]:
    """The last four digits `text` names a card, account or number by ("Ending 4242", "last four 4242", "****4242")."""
    return {m.group(1) for m in _CARD.finditer(text.lower())}


def _last_fours(texts: Iterable[str]) -> set[str]:
    """The last four digits of every run of four or more digits the texts write."""
    return {run[-4:] for text in texts for run in re.findall(r"\d{4,}", text)}


def _said_with(piece: str, texts: list[str]) -> str:
    """The sentence of `texts` that holds `piece`, with the one before it."""
    for text in texts:
        parts = re.split(r"(?<=[.!?])\s+|\n+", text)
        for i, sentence in enumerate(parts):
            if piece in sentence or sentence in piece:
                return " ".join(parts[max(0, i - 1) : i + 1])
    return piece


def _prose_sentences(source: str) -> list[tuple[str, int]]:
    """(sentence, the number of its paragraph or list item) of a prose source; a block's lines are one text wrapped
    ("usually 2\n  business days")."""
    blocks = re.split(r"\n\s*\n|\n\s*[-*]\s+", source)
    return [(sentence, b) for b, block in enumerate(blocks)
            for sentence in re.split(r"(?<=[.!?])\s+", re.sub(r"\s*\n\s*", " ", block))]


@functools.lru_cache(maxsize=64)
def _prose_spans(source: str) -> tuple[tuple[str, int, frozenset[str]], ...]:
    """(unit, count, the words of its sentence) of each span a prose source states:
    "A specialist contacts the customer within 24 hours" is a span of a specialist's contact, not of a
    refund. JSON results state none here (their spans are a record's own)."""
    if json_value(source) is not NOT_JSON:
        return ()
    out = []
    # (a sentence's context runs on into the next one of its paragraph or list item: "... credit them, but only if it
    # checked out within the last 90 days. Older claims are declined." is a span of a claim)
    sentences = _prose_sentences(source)
    for i, (sentence, b) in enumerate(sentences):
        norm = normalize(sentence)
        after = sentences[i + 1][0] if i + 1 < len(sentences) and sentences[i + 1][1] == b else ""
        if _COUNT.search(normalize(after)):
            after = ""  # (one with a span of its own is about that: "... within 24 hours. Refunds take 5 to 10 days")
        context = _stems(sentence) | _stems(after)
        for m in _COUNT.finditer(norm):
            if re.search(r"\bon\s+$", norm[: m.start()]):
                continue  # a day, not a span: "transfers moving money on one day"
            unit = "business" if re.search(r"\bbusiness\s+\w+$", norm[: m.end()]) else m.group(2)
            out.append((unit, int(m.group(1)), context))
        for m in _BUSINESS.finditer(norm):
            out += [("business", int(n), context) for n in (m.group(1), m.group(2)) if n]
    return tuple(out)


def _record_keys(sources: tuple[str, ...]) -> frozenset[str]:
    """The words of the fields the JSON results give that hold something ("renewal_date", "autopay": true), as stems."""
    words = []
    for source in sources:
        if (value := json_value(source)) is not NOT_JSON:
            words += [w for path, leaf in _leaves(value) if leaf not in (None, False, "", 0) for w in _key_words(path[-1:])]
    return _stems(" ".join(words)) - _AUTO_GENERIC


@functools.lru_cache(maxsize=64)
def _automatic_contexts(source: str) -> tuple[frozenset[str], ...]:
    """The words of each prose sentence of `source` that says something happens automatically (or "by itself")."""
    if json_value(source) is not NOT_JSON or not _BY_ITSELF.search(source.lower()):
        return ()
    return tuple(_stems(sentence) for sentence, _ in _prose_sentences(source) if _BY_ITSELF.search(sentence.lower()))


@functools.lru_cache(maxsize=64)
def _read_one(source: str) -> Known:
    k = Known.empty()
    k._read(source)
    return k


def ungrounded(reply_texts: Iterable[str], sources: Iterable[str], expected: Iterable[str] = (),
               records: Iterable[str] = (), known: Known | None = None, cards: Iterable[str] | None = None) -> list[Figure]:
    """The figures of `reply_texts` that `sources` (tool results, the customer's words, the
    policy) neither state nor make in one step of arithmetic.

    A date counted from a known one ("free of charge until ...") is given where the reply's own
    words count the span ("within 30 days", "5-10 business days"), where it is a business-day span
    forward, or where `expected` (the task's golden reply) gives the same date: the policy and the
    results count so many spans that any date a few days off a known one was otherwise one of them.
    An id or card named may also be one of `records` (the task's own rows: the old zip code, the other
    booking), which are true though no call read them; a made-up one is in neither. `known` is
    `Known.of(sources)` where the caller has it already. `cards`, where given, are the sources a card's last
    four digits may come from (the tool results and the customer's words: not the policy's "for example the
    card ending in 4242")."""
    reply_texts, sources, records = list(reply_texts), list(sources), list(records)
    figures = [f for t in reply_texts for f in stated(t)]
    if not figures:
        return []
    known = known or Known.of(sources)
    said = Known.of(reply_texts)  # the spans the reply itself counts
    rows = Known.of(records)
    # (a card or account "ending 6116" ends a run of digits a source gives: not four digits from inside one)
    card_digits = _last_fours(sources if cards is None else cards) | _last_fours(records)
    # (and a window the sources count, 14 days and longer: "delivered 2026-10-19, so the window closed on 2026-11-18";
    # shorter spans are so many that a date a day or three off a known one was otherwise one of them)
    windows = said.day_offsets | {k for k in known.day_offsets if k >= _MIN_WINDOW}
    counted_dates = ({d + dt.timedelta(days=k * sign) for d in known.dates for k in windows for sign in (1, -1)}
                     | {d + dt.timedelta(days=k) for d in known.dates for k in said.forward_offsets})
    # the sources' business-day spans count only to a date something arrives by ("should post by ..."), not to a
    # deadline ("you have until ..."): those spans reach so many days that a deadline a day late was one of them
    arrivals = {d + dt.timedelta(days=k) for d in known.dates for k in known.forward_offsets}
    arrival_month_days = {d.strftime("%m-%d") for d in arrivals}
    golden = [f for t in expected for f in stated(t) if f.kind == "date"]
    counted_dates |= {dt.date.fromisoformat(str(f.value)) for f in golden if len(str(f.value)) == 10}
    golden_month_days = {str(f.value)[-5:] for f in golden}
    kinds = {f.kind for f in figures}
    cents = known.amounts() if "money" in kinds else set()
    dollars = {c // 100 for c in cents} | {c // 100 + 1 for c in cents}  # "about $1,200" for 1,187.50
    counts = known.unit_counts() if "count" in kinds else set()
    spans = known.spans() if "count" in kinds else set()
    dates = counted_dates | known.dates
    month_days = {d.strftime("%m-%d") for d in dates} | known.month_days | golden_month_days
    exact_month_days = {d.strftime("%m-%d") for d in known.dates} | known.month_days

    everything = "\n".join(sources).lower() if "person" in {f.kind for f in figures} else ""
    # (like an id, a phone may also be one of the task's own rows: true, though no call read it)
    phones = {"".join(m.groups()) for source in [*sources, *records] for m in _PHONE.finditer(source)} if "phone" in {
        f.kind for f in figures} else set()
    prose = [span for source in sources for span in _prose_spans(source)]
    # (a record's own hours: "hold_hours": 72)
    record_hours = {n for source in sources if json_value(source) is not NOT_JSON for n in _read_one(source).hours}

    def said_of_the_same(f: Figure, spans: Callable[[str, int], bool], shared: Callable[[frozenset[str]], int]) -> bool:
        """Whether a span the sources' prose states (`spans(unit, count)`) is said of what the reply says it of: the
        reply's sentence and the one before it share `shared(context)` words with the source's sentence."""
        said_of = _stems(_said_with(f.text, reply_texts))
        return any(len(ctx & said_of) >= shared(ctx) for u, v, ctx in prose if spans(u, v))

    def hours_of_the_same(f: Figure) -> bool:
        """Hours (or whole days: "48 hours" for 2 days) the sources' prose states, said of what they state them of:
        "within 24 hours" of a refund is made up where the policy gives 24 hours to a specialist's call (the reply's
        sentence and the one before it are its context: "I've escalated it. You'll hear back within 24 hours.")."""
        # (a long sentence shares a word with anything: "claim" of "a claim with injuries is escalated ... within 1
        # business day" is no adjuster's call; a short one names its event in a word or two)
        return said_of_the_same(f, lambda u, v: (u == "hour" and v == f.value) or (
            u in ("day", "business") and f.value % 24 == 0 and v == f.value // 24), lambda ctx: 1 if len(ctx) <= 4 else 2)

    # (a record's own counts of days: "rental_days": 3, "working_days": 4)
    record_days = ({n for source in sources if json_value(source) is not NOT_JSON for n in _read_one(source).day_offsets}
                   if any(f.process for f in figures) else set())

    def days_of_the_same(f: Figure) -> bool:
        """Days the sources' prose states, said of what they state them of: "HR sends the final paycheck within 5
        working days" is made up where the policy's 5 working days are another process's."""
        # (one word in common names the same event: days are fewer than hours, and a process is told in few words,
        # "while we investigate (up to 45 days)" after "I've opened two disputes")
        return said_of_the_same(f, lambda u, v: (u in ("day", "business") and v == f.value) or (u == "week" and 7 * v == f.value),
                                lambda ctx: 1)

    today = (next((dt.date(*map(int, m.groups())) for source in sources if (m := _TODAY.search(source))), None)
             if "when" in kinds else None)
    record_keys = _record_keys(tuple(sources)) if "auto" in kinds else frozenset()
    told = " ".join(normalize(source) for source in sources) if "when" in kinds else ""

    def given(f: Figure) -> bool:
        if f.kind == "auto":
            # (a word of the reply's clause, beyond the record's generic nouns, in a source's sentence on what happens
            # automatically: "refunded to your card automatically" where the policy says a change is "charged to, or
            # refunded to, the booking's card automatically"; not "your card will unfreeze automatically")
            # (or a record's own: a date the episode gives, "revoked automatically on 2026-12-11", or a field its results
            # name, "renews automatically" of a policy with a renewal date, "charged automatically" with autopay on)
            own, sentence = _stems(f.text) - _AUTO_GENERIC, _said_with(f.text, reply_texts)
            dated = any(g.kind == "date" and given(g) for g in stated(sentence))
            return (dated or bool((_stems(sentence) - _AUTO_GENERIC) & record_keys)
                    or any(ctx & own for source in sources for ctx in _automatic_contexts(source)))
        if f.kind == "when":
            # a time someone will act by, later today or tomorrow: one the sources give in the same words, or tomorrow
            # where a date the episode knows is tomorrow ("the hold releases tomorrow")
            tomorrow = str(f.value).startswith("tomorrow") and today is not None and today + dt.timedelta(days=1) in known.dates
            return tomorrow or str(f.value) in told
        if f.kind == "count" and f.process:
            # how long something takes or lasts: a record's count, or the sources' prose said of the same thing; a
            # calendar span also the days between two of the episode's dates ("the hold releases in 5 days")
            n = int(f.value)
            gaps = known.date_gaps() if f.process == "calendar" else set()
            return f.value == n and (n in record_days or n in gaps or n - 1 in gaps or days_of_the_same(f))
        if f.kind == "count" and f.unit == "hour":
            # hours a record gives, or the sources' prose gives to the same thing; not a gap between two of their dates
            n = int(f.value)
            return f.value == n and (n in record_hours or hours_of_the_same(f))
        if f.kind == "money":
            value = float(f.value)
            return round(value * 100) in cents or (f.rounded and int(value) in dollars)
        if f.kind == "count":
            if f.unit in _SPAN_UNITS:  # "within 60 days" where the policy says 45: a span the episode counts, not any number
                return float(f.value) in spans
            return float(f.value) in counts
        if f.kind == "card":
            return str(f.value) in card_digits
        if f.kind == "phone":
            return str(f.value) in phones
        if f.kind == "person":
            return all(re.search(rf"(?<![\w]){re.escape(w)}(?![\w])", everything) for w in re.split(r"[-' ]", str(f.value).lower()))
        if f.kind == "street":  # (the customer's words are among the sources: a new address they gave)
            # (like an id, a street may also be one of the task's own rows: the old address said beside the new one)
            return any(f.value in _streets_of(source) for source in [*sources, *records])
        if f.kind == "id":
            return str(f.value) in known.ids | rows.ids or (str(f.value).isdigit() and float(str(f.value)) in known.numbers)
        value = str(f.value)
        counted = f.counted  # a date counted from another may be new
        arriving = counted and bool(_ARRIVAL.search(f.text.lower()))
        if len(value) == 5:
            return value in (month_days if counted else exact_month_days) or (arriving and value in arrival_month_days)
        try:
            day = dt.date.fromisoformat(value)
        except ValueError:  # "2026-02-30": no date the reply could mean
            return False
        return day in (dates if counted else known.dates) or (arriving and day in arrivals)

    return [f for f in figures if not given(f)]


# -- roles: an amount said as one thing that the episode gave as another --------------------------
# Roles whose amounts tools and policies name with the same word a reply uses; an amount said in one of
# them must be one the episode gave in that role, or one step of arithmetic with one ("the remaining
# limit is 700.00": 1,000.00 less 300.00 spent). Amounts like totals and refunds are sums of anything,
# so they have no role here.
_ROLES = {
    "fee": "fee", "fees": "fee", "penalty": "fee", "surcharge": "fee",
    "limit": "limit", "limits": "limit", "cap": "limit", "allowance": "limit", "budget": "limit",
    "hold": "hold", "holds": "hold", "held": "hold", "authorization": "hold", "authorizations": "hold",
    "balance": "balance", "premium": "premium", "deductible": "deductible",
    "goodwill": "goodwill", "rate": "rate", "nightly": "rate", "discount": "discount", "discounts": "discount",
    "payout": "payout", "payouts": "payout",  # (and "paid out": `_merged`; a result's "paid_amount")
    # the part of a yearly change for the rest of a term: the one a change returns, not half the year's ("prorated_change")
    "prorated": "prorated", "prorate": "prorated", "proration": "prorated",
}
# roles an amount may not take where the episode gives none in them: a discount no tool or rule gives is a made-up
# perk ("you get a $25 autopay discount", $25 being the late fee), not a figure merely named
_STRICT_ROLES = {"discount", "payout"}
_ANY_ROLE = set(_ROLES.values())  # an amount a text gives in no role may be said in any (but a strict one)
# a fee may be counted in another role's amounts: "a late fee of one night's rate"
_ROLE_SOURCES = {"fee": {"fee", "rate", "premium"}}
# roles whose amount grows by any other ("a balance of 1,250.00 after the 250.00 deposit"); the others add up
# only amounts of their own role ("holds of 620.00 and 80.00, 700.00 in all"), not a hold and a payment
_ROLE_GROWS = {"balance", "premium", "limit"}
# a limit is the one the episode gives or what is left of it, unless the reply says how it moved ("raised by
# 2,000.00", "after this transfer"): "your daily limit is 50,000.00" (twice 25,000.00) or 3,500.00 (3,000.00 and
# a 500.00 transfer) is made up
_LIMIT_MOVES = {"remaining", "remain", "left", "available", "unused", "room", "headroom", "still", "more", "another",
                "additional", "extra", "by", "increase", "increased", "raise", "raised", "lower", "lowered", "reduce",
                "reduced", "after", "rest", "spare", "use", "used", "spend", "spent"}
# ("now" and "new" say which limit, not how it moved: "your limit is now 25,000.00" after an upgrade to 5,000.00
# is made up)
# roles a record holds its own amount in: "your deductible on this claim is $1,000" is the claim's (500 in its
# record), not one of the policy table's options (250, 500, 1000, 2000) nor one step from one
_RECORD_ROLES = {"deductible", "premium"}
_YOURS = {"your", "this", "thi", "its", "current", "currently"}  # (normalised: "this" is "thi")
_ROLE_REACH = (4, 3)  # words before and after an amount in which its role word stands
_COPULA = {"is", "was", "remains", "stays"}
_COPULA_REACH = 8  # words before "is" in which the subject's role word stands
_TOKEN = re.compile(r"\d+(?:\.\d+)?|[a-z0-9_]+")


# "premium" as a kind, not an amount: "MATLAB is premium at 180.00", "a premium licence", "premium rooms"
_PREMIUM_KIND_BEFORE = {"is", "are", "a", "as", "s", "being"}
_PREMIUM_KIND_AFTER = re.compile(r"^(?:licen[cs]es?|products?|tiers?|plans?|seats?|rooms?|suites?|members?|membership"
                                 r"|software|tools?|apps?|subscriptions?|support|service|level|class|cabin|category)$")


def _role_words(words: list[str]) -> set[str]:
    return {_ROLES[w] for i, w in enumerate(words) if w in _ROLES and not (
        w == "premium" and ((i and words[i - 1] in _PREMIUM_KIND_BEFORE)
                            or (i + 1 < len(words) and _PREMIUM_KIND_AFTER.match(words[i + 1]))))}


def _leaves(value: object, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], object]]:
    """Every scalar of a JSON value with the keys above it (a list's items under the list's key)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaves(v, (*path, str(k)))
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v, path)
    else:
        yield path, value


def _key_words(keys: Iterable[str]) -> list[str]:
    return [w for k in keys for w in re.split(r"[_\W]+", k.lower()) if w]


def _json_amounts(value: object, out: list[tuple[float, set[str], set[str]]]) -> None:
    """(amount, roles, words) of every number of a JSON value, named by the keys above it."""
    for path, leaf in _leaves(value):
        if isinstance(leaf, (int, float)) and not isinstance(leaf, bool):
            words = _key_words(path[-2:])
            # (a claim's "paid_amount" is what it paid out; a reply says so only as "paid out" or "payout")
            # (a debit's amount is said without its sign: "the $12.00 maintenance fee" of an amount of -12.0)
            out.append((abs(float(leaf)), _role_words(words) | ({"payout"} if "paid" in words else set()), set(words)))


_PAID_OUT = re.compile(r"\b(?:paid|pays|pay|paying) out\b")


def _merged(norm: str) -> str:
    """`norm` with "paid out" as the one word of its role ("the claim was paid out at 640")."""
    return _PAID_OUT.sub("payout", norm)


def role_amounts(sources: Iterable[str]) -> list[tuple[float, set[str], set[str]]]:
    """Every amount of the sources with the roles and the words around it: a JSON result's keys
    ("daily_limit", "holds" > "amount"), or a text's words near it ("a late fee of $15")."""
    return [a for source in sources for a in _source_role_amounts(source)]


@functools.lru_cache(maxsize=64)
def _source_role_amounts(source: str) -> tuple[tuple[float, set[str], set[str]], ...]:
    out: list[tuple[float, set[str], set[str]]] = []
    value = json_value(source)
    if value is not NOT_JSON:
        _json_amounts(value, out)
        return tuple(out)
    written = _read_one(source).money  # (its amounts: not "card ending 2764")
    norm = normalize(source)
    for clause in re.split(r"[.;:!?\n]\s+|\n", norm):
        words = _TOKEN.findall(clause)
        for i, w in enumerate(words):
            if _NUM.fullmatch(w) and float(w) in written:
                near = words[max(0, i - 10) : i + 6]
                # (an amount a text gives in no role, "can you make it 2,250?", may be said in any)
                out.append((float(w), _role_words(near) or _ANY_ROLE, set(near)))
    return tuple(out)


def misroled(reply_texts: Iterable[str], sources: Iterable[str], known: Known | None = None,
             movers: Iterable[str] | None = None) -> list[tuple[Figure, str]]:
    """Money a reply says in a role ("a late fee of $25", "700.00 is on hold") that the episode gave in
    that role as other amounts only, and makes of none of them in one step of arithmetic; with the role.
    A role the episode gives no amount in holds only an amount it states (a fee no source names is made up:
    "a $12.50 processing fee" where the task has none). `known` is `Known.of(sources)` where the caller has it.
    `movers` (the tool results and the customer's words, where the caller tells them from the policy) are what
    a balance moves by: an amount of the records or the customer's, never a limit or a figure of the policy's
    tables ("available balance 1,870.90" is 1,570.90 plus the 300.00 ATM limit, a sum no action makes)."""
    reply_texts = list(reply_texts)
    # (money without cents may round: held to a role only where the role is strict and the episode gives none in it)
    figures = [f for t in reply_texts for f in stated(t) if f.kind == "money"]
    if not figures:
        return []
    sources = list(sources)
    amounts_in_roles = role_amounts(sources)
    money = {round(a * 100) for a, _, _ in amounts_in_roles}
    records = [] if movers is None else role_amounts(movers)
    moves = None if movers is None else {round(a * 100) for a, r, _ in records if r != {"limit"}}
    # (a balance after two of the episode's moves: "500.00 moved from savings and the 35.00 fee refunded: 2,455.10")
    moved = None if moves is None else moves | ({a + b for a, b in itertools.combinations(moves, 2)}
                                                if len(moves) <= _MAX_SUMMED else set())
    known = known or Known.of(sources)
    counts = {n for n in known.unit_counts() if n == int(n) and 1 <= n <= _MAX_MULTIPLIER}
    said_percents = {float(m.group(1)) for t in reply_texts for m in _PERCENT.finditer(normalize(t))} & known.percents
    out = []
    for f in figures:
        words = _TOKEN.findall(_merged(normalize(f.text)))
        value = round(float(f.value) * 100)
        at = next((i for i, w in enumerate(words) if _NUM.fullmatch(w) and round(float(w) * 100) == value), None)
        if at is None:
            continue
        before, after = words[max(0, at - _ROLE_REACH[0]) : at], words[at + 1 : at + 1 + _ROLE_REACH[1]]
        if before and before[-1] in _COPULA and not _role_words(before):
            # the subject of "is" may stand further back: "your deductible on this claim is $1,000"
            subject = words[max(0, at - _COPULA_REACH) : at]
            cut = max((i + 1 for i, w in enumerate(subject[:-1]) if _NUM.fullmatch(w)), default=0)
            before = subject[cut:]
        # (a role word right before another amount is that amount's: "11,250.00 (limit 25,000.00, ...)")
        after = [w for i, w in enumerate(after) if not (w in _ROLES and i + 1 < len(after) and _NUM.fullmatch(after[i + 1]))]
        if f.text.rstrip().endswith(":") and f.text.count("(") > f.text.count(")") and at + 1 + len(after) >= len(words):
            # (nor is the label an aside opens and the piece ends with: "3,098.00 (your limit: 3,000.00)")
            while after and after[-1] in _ROLES:
                after.pop()
        window = before + after
        roles = _role_words(window)
        yours = bool(_YOURS & set(before + words[at + 1:]))
        if f.rounded:
            mine = {r for r in roles if r in _RECORD_ROLES and yours}
            # (a kind of fee no source names is made up however it is rounded: "a $15 chargeback fee")
            kinds = _qualifiers(window, "fee")
            mine |= {"fee"} if "fee" in roles and kinds and not kinds & _source_words(sources) else set()
            roles = mine | {r for r in roles if r in _STRICT_ROLES and not any(
                _ROLE_SOURCES.get(r, {r}) & given_roles and given_roles != _ANY_ROLE for _, given_roles, _ in amounts_in_roles)}
        if not roles:
            continue
        # (a percentage makes an amount only where the reply says it beside it: "a 3% surcharge of $9.00")
        percents = {float(m.group(1)) for m in _PERCENT.finditer(normalize(f.text))} & known.percents
        for role in roles:
            qualifiers = _qualifiers(window, role)
            # (a strict role is given only where a source names it, not by an amount a text gives in no role)
            given = [(a, w) for a, r, w in amounts_in_roles if _ROLE_SOURCES.get(role, {role}) & r
                     and not (role in _STRICT_ROLES and r == _ANY_ROLE)]
            if role in _RECORD_ROLES and yours:
                # the customer's own ("your deductible", "on this claim"): the records' amounts, where they give one
                own = [(a, w) for a, r, w in records if role in r and r != _ANY_ROLE]
                if own and f.rounded:  # ("about $1,200" for 1,187.50)
                    if any(abs(value - round(a * 100)) < 100 for a, _ in own):
                        break
                    continue
                given = own or given
            if not given:
                # nothing in this role to hold it to: an amount the episode states, or a percentage of one, may be named so
                # (a strict role takes only a tool's unlabelled figure, a promotion's "value": 10.0, not any amount)
                # (or a percentage the reply says anywhere of an amount: "15% off ... your 70.00 order: a 10.50 discount")
                named = money if role not in _STRICT_ROLES else {round(a * 100) for a, r, _ in amounts_in_roles if not r}
                shares = percents if role not in _STRICT_ROLES else said_percents
                # (or one less a percentage: "with the 8% preferred-hotel discount you pay 292.56 a night", of 318.00)
                if value == 0 or value in named or any(abs(value - m * p / 100) <= 1 or abs(value - m * (1 - p / 100)) <= 1
                                                       for m in money for p in shares):
                    break
                continue
            # a qualifier the reply gives ("late fee") picks that fee out of the others ("wire fee")
            narrow = [a for a, w in given if qualifiers & w]
            amounts = {round(a * 100) for a in (narrow or [a for a, _ in given])}
            if role == "fee":  # a fee is the one named, so many of it, or a percentage the episode states
                # (or, named by no qualifier, any amount the episode states: a fee table's "atm_out_of_network": 3.5;
                # not a kind of fee no source names: "a $15 chargeback fee", "a $30 late check-in fee")
                if qualifiers and not qualifiers & _source_words(sources):
                    continue
                if _a_fee(value, amounts, known, money, percents) or (not narrow and value in money):
                    break
                continue
            if role == "prorated":
                # (the parts of several changes for the rest of the term, added up: what they cost together)
                # (signed, as the results give them: a removal's part is negative)
                totals = {round(sum(f(vs)) * 100) for k, vs in known.by_key.items() if "prorat" in k for f in (list, set)}
                if any(abs(abs(value) - abs(total)) <= 1 for total in totals):
                    break
            if role == "rate":
                # a rate is one the episode gives, the gap between two of them ("50.16 a night less"), one less a
                # percentage, or a total shared by nights; not a rate less any amount ("187.46 a night" for 228.80)
                nights = {n for n in counts if n <= 60}
                if value in amounts or any(abs(value - abs(a - b)) <= 1 for a in amounts for b in amounts) or any(
                        abs(value - m * (1 - p / 100)) <= 1 for m in money for p in known.percents) or any(
                        abs(value * n - m) <= n for m in money for n in nights):
                    break
                continue
            if role == "limit" and not _LIMIT_MOVES & set(words):
                # (or its headroom, the limit less an amount the episode states: "above your 800.00 limit")
                if value in amounts or any(a - value in money for a in amounts):
                    break
                continue
            addends = (moved if role == "balance" and moved is not None else money if role in _ROLE_GROWS
                       else {round(a * 100) for a, _ in given})
            if value in amounts or any(
                value - a in addends or a - value in (moved if role == "balance" and moved is not None else money) or any(abs(value - a * n) <= 1 or abs(value * n - a) <= n
                                                                  for n in counts)
                for a in amounts
            ):
                break
        else:
            out.append((f, sorted(roles)[0]))
    return out


def _qualifiers(window: list[str], role: str) -> set[str]:
    """The words that make an amount one of several of its role ("late fee", "wire fee", "daily limit")."""
    return {q for i, w in enumerate(window) if i and _ROLES.get(w) == role
            for q in [window[i - 1]] if len(q) > 3 and q not in _ROLES and not q[0].isdigit()}


def _source_words(sources: list[str]) -> set[str]:
    """Every word the sources use, and the generic words a kind of fee may be said with ("the same $15 fee")."""
    return {w for source in sources for w in _words_of(source)} | _GENERIC_KINDS


_GENERIC_KINDS = {"same", "this", "that", "your", "their", "full", "whole", "total", "usual", "standard", "normal",
                  "additional", "extra", "single", "entire", "flat", "small", "only", "other", "each", "such", "these",
                  "those", "with", "from", "into", "over", "under", "about", "just", "also", "still", "then", "than",
                  "last", "next", "first", "second", "annual", "monthly", "daily", "yearly", "weekly", "regular",
                  "applicable", "related", "original", "previous", "earlier", "current", "disputed", "charged",
                  "waived", "refunded", "reversed", "posted", "mentioned", "said", "that's", "it's"}


@functools.lru_cache(maxsize=256)
def _words_of(source: str) -> frozenset[str]:
    """The words of a source, its JSON keys and values split at underscores ("monthly_maintenance")."""
    return frozenset(w for w in re.split(r"[_\W]+", normalize(source)) if w)


def _a_fee(value: int, fees: set[int], known: Known, money: set[int], percents: set[float]) -> bool:
    """Whether `value` (cents) is a fee the episode gives: one of `fees`, two of them added, one
    charged so many times as the episode counts ("3 nights at the 25.00 late fee"), or one of `percents`
    (known, and said beside it: "a 3% surcharge on 300.00") of an amount. Not a share or a difference of
    other amounts, nor any known percentage of one: those make any made-up fee ("a $12.50 processing
    fee": 50.00 / 4, 5% of 250.00) one step from something."""
    times = {n for n in known.units | known.date_gaps() | {2} if 1 <= n <= _MAX_MULTIPLIER}
    return (value in fees or any(a + b == value for a in fees for b in fees)
            or any(abs(value - a * n) <= 1 for a in fees for n in times)
            or any(abs(value - m * p / 100) <= 1 for m in money for p in percents))


# -- dated roles: a record's date said as another date the episode knows ------------------------------
# "loss date 2026-11-30" where the claim's loss_date is 2026-11-27 and 2026-11-30 is today: every date the
# reply states is one the episode gave, but not in that role. A date's role is the words of the JSON key it
# stands under ("loss_date": loss; "last_day": last day); a reply's date takes a role where all of them stand
# in the few words before it.
# (and the words that say which of a record's dates it is: "new_eta" is an eta)
_DATE_KEY_STOP = {"date", "on", "at", "dt", "iso", "new", "revised", "updated", "current"}
# the roles held: a record's own date that no action of the episode moves and no policy counts. Not stamps of what
# someone did ("refunded_on": the episode may do it today) nor dates a change moves or a policy counts ("due_date":
# "now due 2026-12-19" is the new one; "the latest possible is ..."): a reply names those many ways
_DATE_ROLES = {frozenset({"loss"}), frozenset({"incident"}), frozenset({"accident"}), frozenset({"birth"}),
               frozenset({"last", "day"}), frozenset({"deliver"}), frozenset({"post"}), frozenset({"hire"}),
               frozenset({"ship"}), frozenset({"place"})}
# a role's forms, in keys and in replies ("delivered_on", "eta": "the delivery date", "delivered on"): one stem each.
# (Not a hold's release: "released on" is also the stamp of a release the episode makes today)
_DATE_STEMS = {"delivered": "deliver", "delivery": "deliver", "delivers": "deliver", "eta": "deliver",
               "shipped": "ship", "ships": "ship", "shipping": "ship", "placed": "place", "posted": "post",
               "posting": "post"}


# (in a reply, an arrival is a delivery: "it has already shipped (it is due on 2026-12-01)"; not in a key: "due_date" is an
# invoice's, which a change may move)
_ARRIVAL_STEMS = {**_DATE_STEMS, "due": "deliver", "arrive": "deliver", "arrives": "deliver", "arriving": "deliver",
                  "arrival": "deliver"}


def _date_stems(words: Iterable[str], stems: dict[str, str] = _DATE_STEMS) -> list[str]:
    return [stems.get(w, w) for w in words]
_ISO_RAW = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:$|T)")
# where no write of the episode succeeded, nothing moved a free-cancellation deadline either: said in those words
# right before it ("free of charge until 2026-12-10", the check-in date), a date is one of that role's ("free until
# 7 days after ..." counts from one: not held). (Not a due date: an invoice's is told from the next one's, a month
# before, where no result names it)
_STILL_ROLES = {frozenset({"free", "cancellation", "until"}): frozenset({"free", "until"})}
_STILL_REACH = 5  # (the last word is the empty one before the date)
_COUNTED_FROM = {"after", "before", "from", "grace", "end", "ends", "ended", "plus", "days", "past", "since", "late",
                 "over", "overdue"}


def _json_dates(value: object, out: list[tuple[frozenset[str], dt.date]]) -> None:
    """(role, date) of every date of a JSON value whose key names one of `_DATE_ROLES`."""
    for path, leaf in _leaves(value):
        if isinstance(leaf, str) and (m := _ISO_RAW.match(leaf)):
            words = frozenset(w for w in _date_stems(_key_words(path[-1:])) if w not in _DATE_KEY_STOP)
            try:
                if words in _DATE_ROLES or words in _STILL_ROLES:
                    out.append((words, dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))))
            except ValueError:
                pass


@functools.lru_cache(maxsize=64)
def _source_dates(source: str) -> tuple[tuple[frozenset[str], dt.date], ...]:
    out: list[tuple[frozenset[str], dt.date]] = []
    value = json_value(source)
    if value is not NOT_JSON:
        _json_dates(value, out)
    return tuple(out)


def misdated(reply_texts: Iterable[str], sources: Iterable[str], still: bool = False) -> list[tuple[Figure, str]]:
    """Dates a reply states in a role ("loss date 2026-11-30", "last day: November 28") that the tool
    results give in that role as other dates only; with the role's words. A date counted from another
    ("last day", "due by") is held to its role too, where a result names one: the new last day a change
    returns is one of them. `still`: no write of the episode succeeded, so due dates and free-cancellation
    deadlines are held too."""
    roles: dict[frozenset[str], set[dt.date]] = {}
    held: dict[frozenset[str], set[dt.date]] = {}
    for source in sources:
        for words, day in _source_dates(source):
            if words in _DATE_ROLES:
                roles.setdefault(words, set()).add(day)
            elif still:
                held.setdefault(_STILL_ROLES[words], set()).add(day)
    if not roles and not held:
        return []
    out: list[tuple[Figure, str]] = []
    for text in reply_texts:
        norm = normalize(text)
        for f in stated(text):
            if f.kind == "date":
                _dated_role(f, norm, roles, out)
                if held and not (out and out[-1][0] is f):
                    _dated_role(f, norm, held, out, reach=_STILL_REACH)
    return out


_BOUND_WORDS = {"after", "before", "since", "until", "till", "than", "later", "earlier"}


def _dated_role(f: Figure, norm: str, roles: dict[frozenset[str], set[dt.date]], out: list[tuple[Figure, str]],
                reach: int = 6) -> None:
    """Append `f` to `out` where the words before it in its sentence ("Last day: November 30") name a role
    whose dates it is not."""
    value = str(f.value)
    for m in re.finditer(rf"(?<![\w]){value.replace('-', '_')}(?![\w])", norm):
        # (a line of its own is a sentence of its own: "Delivery date: ... ¶ Today: 2026-11-30")
        sentence = re.split(r"[.!?\n\u00b6]\s", norm[: m.start()])[-1]
        if re.search(r"\b(?:today|now)\W*$", sentence):
            continue  # the day the reply is written, under a label of its own: "Today: 2026-11-30"
        last = _date_stems(re.split(r"[_\W]+", sentence)[-reach:], _ARRIVAL_STEMS)
        before = set(last)
        if reach < 6 and before & _COUNTED_FROM:
            continue
        if reach >= 6 and set(re.split(r"[_\W]+", sentence)[-3:]) & _BOUND_WORDS:
            continue  # a bound, not the record's own date: "only fees posted on or after 2026-09-01 can be refunded"
        # the nearest role named: "shipped on 2026-11-18, delivered 2026-11-20" gives the second date the delivery's
        near = max(((min(max(i for i, w in enumerate(last) if w == r) for r in words), words, days)
                    for words, days in roles.items() if words <= before), key=lambda t: t[0], default=None)
        if near is not None:
            _, words, days = near
            said = {d.isoformat() if len(value) == 10 else d.strftime("%m-%d") for d in days}
            if value not in said:
                out.append((f, " ".join(sorted(words))))
                return
