"""The text normaliser behind reply facts: a fact matches however a competent agent writes it.

Rules, applied in this order to both the agent's text and the fact:
1. Unicode dashes become `-`, curly quotes straight ones, non-breaking spaces spaces;
   `*`, `_` and backticks (markdown emphasis) are removed; everything is lower-cased.
2. Dates become ISO `YYYY-MM-DD`: `December 4, 2026`, `Friday, Dec. 4th 2026`, ranges
   (`January 22-24, 2027` -> both dates),
   `4 December 2026`, `the 4th of December, 2026`, `2026/12/04` and US numeric
   `12/04/2026` (month first). A date written without its year (`December 4th`, `12/4`)
   becomes `MM-DD`, and a full-date fact matches it.
3. North American phone numbers become `503-555-0199`, however written, and others
   `+` and their digits (`+33 (0)1 42 68 46 46` -> `+33142684646`); `/yr`, `p.a.` and
   `per annum` become `a year`, `/mo` `a month`; clock times
   become 24-hour `HH:MM` (`11:15pm` -> `23:15`, `9 a.m.` -> `09:00`).
4. Number words become digits: `four` -> 4, `twenty-five` -> 25, `one hundred and
   twenty` -> 120, `two thousand` -> 2000 (not `a`, `once` or ordinals).
5. Money and percentages: `$10k` and `10 thousand` -> `10000`, `45 dollars and 50
   cents` -> `45.50`; currency symbols and codes (`$ € £`, `USD`, `dollars`, `EUR`,
   `euros`) are removed; `%`, `per cent` and `pct` become ` percent`.
6. Numbers lose thousands separators and trailing decimal zeros: `1,250.00` -> `1250`,
   `25.50` -> `25.5`. Leading zeros stay (`04` in a date, `007` in an id). A number said
   twice, in words and digits as contracts write it, is said once (`thirty (30) days` -> `30 day`).
7. Dates, phone numbers and ids stay one token (`2026-11-30` -> `2026_11_30`, `O-82055`
   -> `o_82055`), so a small number never matches inside them (`30` is not stated by a
   date); any other hyphen between two words or numbers becomes a space (`30-day` ->
   `30 day`, `non-refundable` -> `non refundable`, `5-10 days` -> `5 10 day`).
8. British spellings become American (`licence` -> `license`, `cancelled` -> `canceled`);
   contractions are written out (`isn't` -> `is not`, `can't` and `cannot` -> `can not`,
   `won't` -> `will not`, `I've` -> `i have`, `we'll` -> `we will`), so `is not covered`
   matches `isn't covered`; `'s` and `'d` stay (`it's` is "it is" or "it has").
9. Plurals are folded: a word of four letters or more ending in a single `s` loses it
   (`days` -> `day`), so `30 days` matches `a 30-day window`. Not for a fact that is a
   proper name (two or more capitalised words: `Marco Okafor`): a name is compared
   letter for letter on both sides, so the look-alike `Marcos Okafor` does not state it.
10. Runs of whitespace become one space.

A fact matches when its normalised form occurs in the normalised text and is not part
of a longer word or number (`125` does not match `1250`; `25` matches `25.`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable


@functools.lru_cache(maxsize=1 << 15)
def rx(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled, kept. Python's own cache holds 512 patterns, and checking one reply
    builds thousands (one per fact, cue and record name), so without this most of a check's
    time went to compiling the same patterns again."""
    return re.compile(pattern)

_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sept", "sep"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for m in names
}
_MONTH = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_RANGE = r"\s*(?:-|to|through|until|till|and|&)\s*"
# "January 22-24, 2027", "22-24 January 2027", "December 3 and 5": both ends are dates
_MDDY = re.compile(rf"\b{_MONTH}\s+{_DAY}{_RANGE}{_DAY},?\s+(\d{{4}})\b")
_DDMY = re.compile(rf"\b{_DAY}{_RANGE}{_DAY}\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b")
_MDD = re.compile(rf"\b{_MONTH}\s+{_DAY}{_RANGE}{_DAY}\b(?!,?\s*\d{{4}})")
_DDM = re.compile(rf"\b{_DAY}{_RANGE}{_DAY}\s+(?:of\s+)?{_MONTH}(?![a-z])(?!,?\s*\d{{4}})")
_MDY = re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+(\d{{4}})\b")
_DMY = re.compile(rf"\b(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b")
_MD = re.compile(rf"\b{_MONTH}\s+(?:the\s+)?{_DAY}\b(?!,?\s*\d{{4}})")
_DM = re.compile(rf"\b(?:the\s+)?{_DAY}\s+(?:of\s+)?{_MONTH}(?![a-z])(?!,?\s*\d{{4}})")
_US = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_YMD_SLASH = re.compile(r"\b(\d{4})/(\d{1,2})/(\d{1,2})\b")
_US_MD = re.compile(r"(?<![\d/.$])\b(1[0-2]|0?[1-9])/(3[01]|[12]\d|0?[1-9])\b(?![/\d])")
# a number said twice, in words and in digits, as contracts do: "thirty (30) days"
_RESTATED = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?) \((\1)\)")
_NUMBER = re.compile(r"(?<![\d.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d]|\.\d)")
_DASHES = re.compile("[\u2010-\u2015\u2212]")
_PHONE = re.compile(r"\((\d{3})\)\s*(\d{3})[-.\s](\d{4})\b|\b(\d{3})[.\s](\d{3})[.\s](\d{4})\b")
# an international number however grouped ("+33 1 42 68 46 46", "+33 (0)1.42.68.46.46") -> "+33142684646";
# North American ones (+1) are left to the rule below
_INTL_PHONE = re.compile(r"\+(?!1\b|1[\s.-])\d{1,3}(?:[\s.-]*(?:\(0\))?[\s.-]*\(?\d{1,4}\)?){2,6}")
# "/yr", "p.a.", "per annum" -> "a year"; "/mo" -> "a month"
_PER_YEAR = re.compile(r"(/\s*yr|/\s*mo|\bp\.a\.|\bper annum\b|\byrs?\b)(?![a-z])")
_PER_UNIT = {"/mo": " a month", "yr": "year", "yrs": "years"}  # the rest ("/yr", "p.a.", "per annum"): " a year"
_SIGNED = re.compile(r"(?<![\w])-[$€£](?=\d)")
_CURRENCY = re.compile(r"[$€£]|\b(?:usd|us dollars?|dollars?|eur|euros?|gbp)\b")
# "$10k", "10 thousand", "2.5 million": the number they stand for
_SCALED = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(k|thousand|million)\b|(?<=[$€£])(\d+(?:\.\d+)?)\s*(m)\b")
_CENTS = re.compile(r"\b(\d+)\s*(?:dollars?|usd|euros?|pounds?)?\s*(?:and\s+)?(\d{1,2})\s*cents?\b")
_PERCENT = re.compile(r"\s*(?:%|\bper\s*cent\b|\bpct\b)")
_HYPHEN = re.compile(r"(?<=[0-9a-z])-(?=[0-9a-z])")
# dates, phone numbers and ids stay one token ("2026-11-30" -> "2026_11_30"), so "30" is not in them
_JOINED = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{3}-\d{3}-\d{4}\b|\b[a-z]{1,6}(?:-[a-z0-9]*\d[a-z0-9]*)+\b")
_PLURAL = re.compile(r"\b([a-z]{2,}[^s\W\d])s\b")
_SPACE = re.compile(r"\s+")
_LINE_BREAK = re.compile(r"(?<!:)[ \t]*\n\s*")
_HOURS = re.compile(r"\b(\d+)\s*(?:hrs?|h)\b")  # ("within 24h")
# "i.e." and "e.g." end no sentence: "allowed only after 36 months, i.e. from 2028-06-05"
_ABBREVIATION = re.compile(r"\b(?:i\.e|e\.g)\.(?=\s|,)")
# "payment 1 of $209.90": the first payment, of $209.90 (not a count of 1, nor "1 of 209.90")
_ORDINAL_OF = re.compile(r"\b([a-z]*[a-rt-z])\s+(?:#|no\.\s*)?([1-9]|1[0-2])\s+of\s+(?=[$€£]\s?\d|\d+\.\d\d\b)")
_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "eleventh",
             "twelfth"]
# lines under a bare label ("New address:\n12 Oak St\nSpringfield, IL 62701"): one value, until a blank line or a
# line that is a sentence, a label or a list item
_LABEL_BLOCK = re.compile(r"(?m)^([^\n]*:[ \t]*\n)((?:[ \t]*(?![-*\u2022]\s|\d+[.)]\s)[^\n:]{1,60}(?<![.!?])[ \t]*(?:\n|$))+)")
_PHONE_FACT = re.compile(r"^\d{3}_\d{3}_\d{4}$")
_CLOCK_12 = re.compile(r"\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?\s?m\b\.?")
_CLOCK_24 = re.compile(r"\b(\d{1,2}):(\d{2})\b")
_ISO_FACT = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
# British and American spellings that agents and task authors mix
_SPELLINGS = {
    "licence": "license", "licences": "licenses", "cancelled": "canceled", "cancelling": "canceling",
    "travelled": "traveled", "travelling": "traveling", "centre": "center", "colour": "color",
    "authorise": "authorize", "authorised": "authorized", "authorisation": "authorization",
    "organisation": "organization", "cheque": "check", "favour": "favor", "programme": "program",
}
_SPELLING = re.compile(r"\b(" + "|".join(_SPELLINGS) + r")\b")
_CONTRACTIONS = {"can't": "can not", "cannot": "can not", "won't": "will not", "shan't": "shall not", "ain't": "is not"}
_CONTRACTION = re.compile(r"\b(can't|cannot|won't|shan't|ain't)\b")
_NOT = re.compile(r"\b([a-z]+)n't\b")
_PRONOUN_VERB = re.compile(
    r"\b(i|you|we|they|he|she|it|that|there|here|what|who)'(ve|ll|re|m)\b"
)  # not 's or 'd: "it's" is "it is" or "it has", so it stays as written
_VERBS = {"ve": "have", "ll": "will", "re": "are", "m": "am"}

_UNITS = {
    w: i
    for i, w in enumerate(
        ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    )
}
_TENS = {w: 10 * (i + 2) for i, w in enumerate(["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"])}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_NUMBER_WORD = "|".join([*_UNITS, *_TENS, *_SCALES])
_WORD_RUN = re.compile(rf"\b(?:{_NUMBER_WORD})(?:(?:\s+and\s+|[\s-]+)(?:{_NUMBER_WORD}))*\b")


def _iso(year: str, month: int, day: str) -> str:
    return f"{int(year):04d}-{month:02d}-{int(day):02d}"


def _month_day(month: int, day: str) -> str:
    return f"{month:02d}_{int(day):02d}" if 1 <= int(day) <= 31 else f"{month} {day}"


def _us_date(m: re.Match[str]) -> str:
    """`12/04/2026` is month first; `15/01/2027` can only be day first."""
    first, second = int(m.group(1)), int(m.group(2))
    if first > 12 >= second:
        return _iso(m.group(3), second, m.group(1))
    return _iso(m.group(3), first, m.group(2))


def _clock(m: re.Match[str]) -> str:
    """`11:15pm` -> `23:15`, `9 a.m.` -> `09:00`."""
    hour, minute = int(m.group(1)) % 12, m.group(2) or "00"
    return f"{hour + (12 if m.group(3) == 'p' else 0):02d}:{minute}"


def _scaled(m: re.Match[str]) -> str:
    number, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    value = round(float(number) * (1000 if unit in ("k", "thousand") else 1_000_000), 2)
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _number(m: re.Match[str]) -> str:
    whole = m.group(1).replace(",", "")
    frac = (m.group(2) or "").rstrip("0")
    return whole + ("" if frac == "." else frac)


def _words_to_number(m: re.Match[str]) -> str:
    """`twenty-five` -> `25`; a run that does not read as one number is left alone."""
    words = [w for w in re.split(r"[\s-]+", m.group(0)) if w != "and"]
    if words[0] in _SCALES:  # "hundred of them": not a number on its own
        return m.group(0)
    total = current = 0
    last: str | None = None
    for w in words:
        if w in _UNITS or w in _TENS:
            value = _UNITS.get(w, _TENS.get(w, 0))
            # "twenty five" joins, "five five" or "five twenty" do not
            if last is not None and not (last in _TENS and w in _UNITS and _UNITS[w] < 10) and last not in _SCALES:
                return m.group(0)
            current += value
        else:
            scale = _SCALES[w]
            if scale == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * scale
                current = 0
        last = w
    return str(total + current)


def _label_block(m: re.Match[str]) -> str:
    """A bare label's lines as one value: "New address:\n12 Oak St\nSpringfield" -> "New address: 12 Oak St, Springfield"
    (a blank line ends it; short lines only, with no sentence end, colon or list mark)."""
    lines = [x.strip() for x in m.group(2).split("\n") if x.strip()]
    if not lines or len(lines) > 4 or any(len(x.split()) > 8 for x in lines):
        return m.group(0)
    return m.group(1).rstrip() + " " + ", ".join(lines) + ("\n" if m.group(2).endswith("\n") else "")


# an old value and its new one, as agents write them in lists ("- ATM limit: 700.00 -> 1,400.00", "limit 700 → 1400"):
# the value after the label (or the one word) before the arrow, the arrow, what follows
_ARROW_LABELLED = re.compile(r"(?<=[a-z)])(?P<pre>:[ \t]*)(?P<old>[^:\n\u00b6]{1,40}?)\s*(?:->|\u2192|=>)\s*")
_ARROW = re.compile(r"(?P<pre>)(?P<old>\S+)\s*(?:->|\u2192|=>)\s*")
_ARROW_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\b|\d{2}_\d{2}\b")


def _arrow(m: re.Match[str]) -> str:
    """"was OLD now ", so the value before the arrow reads as the one replaced and the one after as the
    new one; but two dates joined by an arrow are a span ("Stay: 2027-01-18 -> 2027-01-20": from, to),
    unless the label names one date ("Loss date: 2026-11-28 -> 2026-11-27")."""
    label = re.split(r"[\n\u00b6]", m.string[: m.start()])[-1]
    rest = m.string[m.end():]
    if _ARROW_DATE.search(m.group("old")) and _ARROW_DATE.match(rest) and not re.search(r"\bdate\W*$", label):
        return f"{m.group('pre')}{m.group('old')} to "
    return f"{m.group('pre')}was {m.group('old')}, now "  # (the comma: "now" is not the old value's nearest word)


# thousands grouped by spaces ("16 950 points", as many languages write them): one number
_SPACED_THOUSANDS = re.compile(r"(?<![\d.,_-])\d{1,3}(?:[ \u202f\u2009]\d{3})+(?![\d_-]|[.,]\d)")


# an id set off by commas after the noun it names: "its ticket, T-5008, is closed"
_APPOSITIVE_ID = re.compile(r"(?<=[a-z]),\s+([a-z]+_[a-z0-9_]*\d[a-z0-9_]*),\s+(?=(?:is|are|was|were|has|have|had|now|will)\b)")


# a markdown table's row ("| Denim Jeans | R-9001 | $69.50 |") and the rule under its header ("|---|:--:|")
_TABLE_ROW = re.compile(r"^\s*\|(.+)\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")


def _tables(text: str) -> str:
    """Each row of a markdown table as a label line: its first cell (what the row is about) the label, each other
    cell after its column's header: "| Item | Return | Refund |" over "| Denim Jeans | R-9001 | $69.50 |" ->
    "Denim Jeans: return R-9001, refund $69.50", so a value stands by the words naming it."""
    if "|" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    header: list[str] | None = None
    for i, line in enumerate(lines):
        row = _TABLE_ROW.match(line)
        if row is None:
            header = None
            out.append(line)
            continue
        if _TABLE_RULE.match(line):
            continue
        cells = [c.strip() for c in row.group(1).split("|")]
        if header is None and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]):
            header = cells
            continue
        if header is not None and len(header) == len(cells):
            rest = ", ".join(f"{h} {c}".strip() for h, c in zip(header[1:], cells[1:], strict=True) if c)
            out.append(f"{cells[0]}: {rest}." if cells[0] and rest else f"{cells[0] or rest}.")
        else:
            out.append(", ".join(cells))
    return "\n".join(out)


@functools.lru_cache(maxsize=65536)  # a message is checked against many facts, turn after turn
def normalize(text: str, plurals: bool = True) -> str:
    """`text` in the one form facts are compared in (the rules above). With `plurals`
    False, rule 9 is skipped: a person's name is compared letter for letter, so "Marcos
    Okafor" does not state "Marco Okafor"."""
    text = _tables(text)
    # a line break ends a clause and a sentence (as "\u00b6"): "- O-1: cancelled\n- O-2: ...";
    # not after a label ("Refund:\n$35")
    text = _LABEL_BLOCK.sub(_label_block, text)
    text = _LINE_BREAK.sub(" \u00b6 ", text)
    text = _DASHES.sub("-", text).replace("\u00a0", " ").replace("\u2019", "'").replace("\u2018", "'")
    text = text.replace("\u201c", '"').replace("\u201d", '"')
    text = re.sub(r"[*`]|(?<!\w)_|_(?!\w)", "", text).lower()
    text = _ABBREVIATION.sub(lambda m: m.group(0).replace(".", ""), text)
    text = _MDDY.sub(lambda m: f"{_iso(m.group(4), _MONTHS[m.group(1)], m.group(2))} to {_iso(m.group(4), _MONTHS[m.group(1)], m.group(3))}", text)
    text = _DDMY.sub(lambda m: f"{_iso(m.group(4), _MONTHS[m.group(3)], m.group(1))} to {_iso(m.group(4), _MONTHS[m.group(3)], m.group(2))}", text)
    text = _MDY.sub(lambda m: _iso(m.group(3), _MONTHS[m.group(1)], m.group(2)), text)
    text = _MDD.sub(lambda m: f"{_month_day(_MONTHS[m.group(1)], m.group(2))} to {_month_day(_MONTHS[m.group(1)], m.group(3))}", text)
    text = _DDM.sub(lambda m: f"{_month_day(_MONTHS[m.group(3)], m.group(1))} to {_month_day(_MONTHS[m.group(3)], m.group(2))}", text)
    text = _DMY.sub(lambda m: _iso(m.group(3), _MONTHS[m.group(2)], m.group(1)), text)
    text = _YMD_SLASH.sub(lambda m: _iso(m.group(1), int(m.group(2)), m.group(3)), text)
    text = _US.sub(_us_date, text)
    text = _US_MD.sub(lambda m: _month_day(int(m.group(1)), m.group(2)), text)
    text = _MD.sub(lambda m: _month_day(_MONTHS[m.group(1)], m.group(2)), text)
    text = _DM.sub(lambda m: _month_day(_MONTHS[m.group(2)], m.group(1)), text)
    text = _ARROW_LABELLED.sub(_arrow, text)  # (after the dates, which may be written with spaces)
    text = _ARROW.sub(_arrow, text)
    text = _INTL_PHONE.sub(lambda m: "+" + re.sub(r"\(0\)|\D", "", m.group(0)), text)
    text = _PHONE.sub(lambda m: "-".join(g for g in m.groups() if g), text)
    text = _HOURS.sub(r"\1 hours", text)
    text = _ORDINAL_OF.sub(lambda m: f"{_ORDINALS[int(m.group(2)) - 1]} {m.group(1)} of ", text)
    text = _PER_YEAR.sub(lambda m: _PER_UNIT.get(re.sub(r"\s", "", m.group(1)), " a year"), text)
    text = _CLOCK_12.sub(_clock, text)
    text = _CLOCK_24.sub(lambda m: f"{int(m.group(1)):02d}:{m.group(2)}", text)
    text = _WORD_RUN.sub(_words_to_number, text)
    text = _SCALED.sub(_scaled, text)
    text = _CENTS.sub(lambda m: f"{m.group(1)}.{int(m.group(2)):02d}", text)
    text = _SIGNED.sub("-", text)  # "-$1,367.50": a negative amount, not a dash
    text = _CURRENCY.sub(" ", text)
    text = _PERCENT.sub(" percent", text)
    text = _SPACED_THOUSANDS.sub(lambda m: re.sub(r"\D", "", m.group(0)), text)
    text = _NUMBER.sub(_number, text)
    text = _RESTATED.sub(r"\1", text)
    text = _JOINED.sub(lambda m: m.group(0).replace("-", "_"), text)
    text = _APPOSITIVE_ID.sub(r" \1 ", text)  # "its ticket, t_5008, is closed": the id names the ticket
    text = _HYPHEN.sub(" ", text)
    text = _SPELLING.sub(lambda m: _SPELLINGS[m.group(0)], text)
    text = _CONTRACTION.sub(lambda m: _CONTRACTIONS[m.group(0)], text)
    text = _NOT.sub(r"\1 not", text)
    text = _PRONOUN_VERB.sub(lambda m: f"{m.group(1)} {_VERBS[m.group(2)]}", text)
    if plurals:
        text = _PLURAL.sub(r"\1", text)
    return _SPACE.sub(" ", text).strip()


def _pattern(needle: str) -> str:
    """The needle as a whole word or number: no word character glued to either end (an end
    that is not a word character itself, as in "'s open", needs no boundary)."""
    # (and no "37." before a number: the 25 of "37.25" is not stated)
    left = r"(?<![0-9a-z_])(?<!\d\.)" if needle[:1].isalnum() or needle[:1] == "_" else ""
    right = r"(?![0-9a-z_]|\.\d)" if needle[-1:].isalnum() or needle[-1:] == "_" else ""
    return left + re.escape(needle) + right


# a proper name: two or more capitalised words ("Marco Okafor", "Atlas Hotel Dublin Airport")
_NAME = re.compile(r"^[A-Z][a-z'’]+(?:[ -][A-Z][a-z'’]+)+$")
_MONEY_FACT = re.compile(r"[$€£]|\b(?:usd|dollars?|eur|euros?|gbp)\b", re.IGNORECASE)
# a number followed by one of these counts something else: "30 days" does not state $30
_COUNT_UNITS = r"(?:day|week|month|year|hour|minute|night|mile|percent|time|point|item|guest|people|person)"
# (one word may stand between, "30 rental days", but not a rate's "a", "per" or "each": "$45 a day" is money)
_UNIT_AFTER = re.compile(rf" (?:(?!a |an |per |each |every )[a-z]+ )?{_COUNT_UNITS}\b")
# a count under its unit's label: the 10 of "Days: 10" states no $10
_UNIT_LABEL = re.compile(rf"\b{_COUNT_UNITS}: $")
NEAR_WINDOW = 8  # words either side of a fact in which its role word must stand
# (a dash between two numbers is a range, "2026_12_18 - 2026_12_20", not a clause's end)
_DASH = r"(?:(?<!\d)\s-\s|\s-\s(?!\d))"
# (a time's colon ends nothing: "your arrival at 23:30 on 2026-12-27 for booking BK-5046")
CLAUSE_END = re.compile(r"[;!?\u00b6]|:(?!\d)|\.(?!\d)|" + _DASH + r"|\b(and|but|while|whereas|or|so|though|although)\b")
NEGATION_WINDOW = 6  # words before a fact in which a negation cancels it
# a negation reaches across "or" ("can't cancel or return it") but not across a comma
# ("Don't worry, it's closed"), another clause or its reason ("can't be removed because of an open claim")
NEGATION_END = re.compile(r"[;!?,\u00b6]|:(?!\d)|\.(?!\d)|" + _DASH + r"|\b(?:and|but|while|whereas|so|though|although|because|since|due to|given that)\b")
_NEGATION = re.compile(
    r"^(?:not|no|none|non|never|nothing|cannot|unable|without|nor|neither|longer|\w+n't"
    r"|(?:do|does|did|ca|could|wo|would|should|is|was|are|were|has|have|had)nt)$"
)


# a bracket holding a worded value: "(currently 2608.50)", "(originally 2026_12_04)"; not "(4)" in "mug set (4)"
_ASIDE = re.compile(r"\((?=[^()]*[a-z]{3})(?=[^()]*(?:\d|\b(?:is|are|was|were|stays?|remains?|keeps?|will|has|have|had)\b))[^()]*\)?")


# a clause after a value that says what it leads to, or a part of it: its words are the result's ("9,120 points,
# bringing your balance to 11,980"; "issued on 2025-06-05, which makes you eligible from 2028-06-05"; "2,400.90, of
# which 1,820.90 is available")
_RESULT = re.compile(r",\s*(?:of which|(?:which|that|this)\s+(?:\w+\s+)?(?:makes?|made|brings?|brought|leaves?|left|means?|puts?|"
                     r"takes?|gives?)|bringing|leaving|making|putting|taking)\b")


def _own_words_after(after: str) -> str:
    """The words after a value that may name it: up to a bracket holding a value or a clause
    of its own ("$2,712.84 (currently $2,608.50)": "currently" is the bracketed amount's word;
    "Jolene removed (Gideon stays on the policy)"), while a bracket without one still names
    it ("$530 (refund)"); and up to a clause saying what it leads to (`_RESULT`)."""
    aside = _ASIDE.search(after)
    if aside and aside.group(0).endswith(")") and _predicate_starts(after[aside.end() :]):
        # an aside between a subject and its predicate names nothing: "the fee of 35.00 (TX-700201, posted
        # 2026-11-20) has been refunded"
        after = after[: aside.start()] + " " + after[aside.end() :]
        aside = _ASIDE.search(after)
    cuts = [m.start() for m in (aside, _RESULT.search(after)) if m]
    return after[: min(cuts)] if cuts else after


def _label(haystack: str, ends: list[re.Match[str]]) -> str:
    """The clause before the last of `ends` (a colon): the label of what follows it."""
    return haystack[ends[-2].end() if len(ends) > 1 else 0 : ends[-1].start()]


# a label that names no role ("Amount: 29.99"): the labels of the lines above it name it
_GENERIC_LABEL = re.compile(r"^[\s\u00b6,-]*(?:the |a |an )?(?:amount|sum|value|figure)\s*$")


def _block_labels(haystack: str, label_start: int) -> str:
    """The labels of up to two lines above a generic one, in a block of label lines
    ("Refund status: processed \u00b6 Amount: 29.99", "Refund details: Amount: 29.99"): a
    line of prose (a sentence end) stops the block."""
    out: list[str] = []
    for line in reversed(re.split(r"\u00b6", haystack[:label_start])[-2:]):
        if re.search(r"[!?]|\.(?!\d)", line):
            break
        if ":" in line:
            out.insert(0, line.split(":")[0])
    return " ".join(out)


_BRACKET = re.compile(r"\([^()]*\)")
# a block's status line: "- fee: atm fee, 3.50 \u00b6 - status: refunded as a courtesy"
_STATUS_LINE = re.compile(r"^\s*(?:[-*\u2022]\s*)?(?:statu|status|outcome|result)\s*:\s*([^\u00b6]*)")  # ("statu": "status" normalised)


def _status_block(haystack: str, start: int) -> str:
    """The label lines above a status line the value stands on (four at most, up to a line of prose), or ""."""
    line_start = haystack.rfind("\u00b6", 0, start) + 1
    if not _STATUS_LINE.match(haystack[line_start:start] + " "):
        return ""
    out = []
    for line in reversed(haystack[:line_start].split("\u00b6")[-5:-1]):
        if ":" not in line or re.search(r"[!?]|\.(?!\d)", line.split(":", 1)[0]):
            break
        out.insert(0, line)
    return " ".join(out)


def _status_below(haystack: str, end: int) -> str:
    """The status a block's label line takes from a status line just below it (two lines at most,
    no line of prose between): "- Fee: ATM fee, 3.50 / - Status: refunded" says the 3.50 was refunded."""
    for line in haystack[end:].split("\u00b6")[1:3]:
        m = _STATUS_LINE.match(line)
        if m:
            return m.group(1)
        if ":" not in line or re.search(r"[!?]|\.(?!\d)", line.split(":", 1)[0]):
            return ""
    return ""



def _role_window(haystack: str, start: int, end: int) -> str:
    """The words around a value in its clause, where its role word must stand.

    A labelled value ("refund: $353.60", a list of "fee: ..., refund: ...") takes its
    label, the clause before the colon, as the words before it; and the words after a value
    that run into the next label after a comma ("$353.60, refund: ...") belong to that
    label, not to it."""
    # (an aside in brackets ends no clause: "HO-5017 (dock and mouse) now ships to your new home")
    asides = [b.span() for b in _BRACKET.finditer(haystack) if not b.start() <= start < b.end()]
    # (nor does the "and" of a list said "respectively": "we have 3 and 36 respectively")
    asides += [r.span(1) for r in _RESPECTIVELY.finditer(haystack)]
    ends = [m for m in CLAUSE_END.finditer(haystack) if not any(a < m.start() < b for a, b in asides)]
    prev = [m for m in ends if m.end() <= start]
    nxt = next((m for m in ends if m.start() >= end), None)
    before = haystack[prev[-1].end() if prev else 0 : start]
    if prev and prev[-1].group(0) == ":" and "(" not in before:
        label = _label(haystack, prev)
        if _GENERIC_LABEL.match(label):
            label = f"{_block_labels(haystack, prev[-2].end() if len(prev) > 1 else 0)} {label}"
        # "refund: $353.60" takes its label; so does each item of a list under one ("prices: a 19.99, b 109")
        before = label if not before.strip(" ,-") else f"{label.split(',')[-1]} {before}"
    subject = ""
    if prev and prev[-1].group(0) in ("and", "but") and _ELIDED.match(before) and not re.search(r"\d", haystack[start:end]):
        # a verb whose subject the clause before gives: "HO-5022 was going to your old address and now ships to Austin"
        subject = " ".join(haystack[prev[-2].end() if len(prev) > 1 else 0 : prev[-1].start()].split()[:_SUBJECT_WORDS])
    after = _own_words_after(haystack[end : nxt.start() if nxt else len(haystack)])
    if nxt is not None and nxt.group(0) == ":" and "," in after:
        after = after.rsplit(",", 1)[0]  # "..., refund:" is the next value's label
    elif nxt is not None and nxt.group(0).strip() in (":", "-") and not after.strip():
        # the value ends a line's label and its status follows: "- overdraft fee of 35.00: refunded to your checking",
        # "3. Overdraft fee of 35.00 - refunded."
        stop = next((m.start() for m in ends if m.start() > nxt.end()), len(haystack))
        after = haystack[nxt.end() : stop]
    inside = next((b for b in _BRACKET.finditer(haystack) if b.start() <= start < b.end()), None)
    if inside is not None and _predicate_starts(haystack[inside.end() :]):
        # an aside on the subject: the predicate after it is the value's ("the overdraft fee you asked about (35.00,
        # posted on 2026-11-18) has now been refunded")
        after = f"{haystack[inside.end() :]} {after}"
    # (a long aside counts no words: "HO-5022 (Wireless Keyboard and 27in Monitor, status submitted) will now ship")
    before, after = _BRACKET.sub(_short_aside, before), _BRACKET.sub(_short_aside, after)
    status = _status_below(haystack, end) if prev and prev[-1].group(0) == ":" else ""
    return f" {subject} {status} " + " ".join(before.split()[-NEAR_WINDOW:] + after.split()[:NEAR_WINDOW])


# a clause after "and" that starts with its verb ("... and now ships to Austin") has the subject of the clause before
_ELIDED = re.compile(r"\s*(?:(?:now|then|also|just|already)\s+)*(?:(?:has|have|had|is|was|were|will|would|should|can|could)\b|$)")
_SUBJECT_WORDS = 4  # the first words of the clause before: its subject


def _short_aside(m: re.Match[str]) -> str:
    """A bracket of a word or two as it is ("order (HO-5022)"), a longer one as nothing."""
    return m.group(0) if len(m.group(0).split()) <= 2 else " "


# a value said as its sentence's subject takes its role from the predicate, however long the words that
# describe it: "The 74.99 you paid with your Visa ending in 8538 has been fully refunded", "The order
# total of 74.99, charged to your Visa, has been refunded". Only a bare noun phrase may stand before it
# ("You were charged 74.99, which has been refunded" is no subject), and no other amount or clause between.
_SUBJECT_BEFORE = re.compile(
    r"(?:^|[,\u00b6]|[!?;:]|\.(?!\d))\s*(?:(?:the|your|this|that|full|entire|whole|original|order|purchase|"
    r"total|amount|sum|price|payment|of|all|\w+'s)\s+)*$"
)
_PREDICATE = re.compile(r" (?:has|have|had|was|were|is|are|will be|would be)(?: (?:been|now|already|just|also|\w+ly))* ")
_SUBJECT_SPAN = 14  # words a subject's description may run to before its predicate


def _predicate_starts(text: str) -> bool:
    """Whether `text` (what follows an aside) opens with a predicate: "... (TX-700201, posted 2026-11-20) has been refunded"."""
    return _PREDICATE.match(" " + text.lstrip(" ,")) is not None


def _subject_cue(haystack: str, start: int, end: int, cues: list[str]) -> bool:
    """Whether the value at `start:end` is its sentence's subject and its predicate starts with a cue."""
    if not _SUBJECT_BEFORE.search(haystack, 0, start):
        return False
    stop = SENTENCE_END.search(haystack, end)
    rest = haystack[end : stop.start() if stop else len(haystack)]
    verb = _PREDICATE.search(rest)
    if verb is None or len(rest[: verb.start()].split()) > _SUBJECT_SPAN:
        return False
    between = rest[: verb.start()]
    if CLAUSE_END.search(between) or re.search(r"\d[.,]\d\d\b|[$\u20ac\u00a3]", between):
        return False
    return 0 in cue_starts(rest[verb.end():], cues)


# a line is a sentence ("- O-1: cancelled; 179.00 refunded" names O-1 for 179.00), so ";" is not an end here
SENTENCE_END = re.compile(r"[!?\u00b6]|\.(?!\d)")
RIVAL_WINDOW = 14  # words either side of a value in which its owner or a rival is looked for


def _cue_spans(text: str, cues: list[str]) -> list[tuple[int, int]]:
    # (a cue after "non" is its opposite: "non refundable rate" is no "refundable rate")
    return [m.span() for c in cues for m in rx(rf"(?<![0-9a-z_])(?<!\bnon ){re.escape(c)}").finditer(text)]


def cue_starts(text: str, cues: list[str]) -> list[int]:
    """Where each of `cues` (normalised words or stems: "refund" also finds "refunded")
    starts in normalised `text`, at the start of a word."""
    return [start for start, _ in _cue_spans(text, cues)]


# a rate said after an amount: "40 a day" is that amount's, not a word about the next one ("40 a day, adding 48 a year")
_RATE = re.compile(r"(?<=\d )(?:a|per|each|every|/) ?(?:day|night|week|month|year)\b|(?<=\d )(?:daily|nightly|weekly|monthly|yearly|annually)\b")


def _other_rates(haystack: str, start: int, end: int) -> str:
    """`haystack` with the rate words of other amounts blanked (same length): only the value's own rate names it."""
    return _RATE.sub(lambda m: m.group(0) if m.start() == end + 1 else " " * len(m.group(0)), haystack)


def _unshadowed(cues: list[str], longer: list[str]) -> Callable[[str], list[int]]:
    """`cue_starts` for `cues` but not where one stands inside a longer name of `longer`: "our network"
    is no owner inside the rival "outside our network"."""
    def starts(text: str) -> list[int]:
        shadows = _cue_spans(text, longer)
        return [s for s, e in _cue_spans(text, cues) if not any(a <= s and e <= b and b - a > e - s for a, b in shadows)]
    return starts


# a list of values paired with the names said before it: "... the keyboard is 109; we have 3 and 36 respectively"
_RESPECTIVELY = re.compile(r"(\d[\d.,_]*(?:\s*,\s*\d[\d.,_]*)*,?\s+and\s+\d[\d.,_]*)(?:\s+[a-z]+){0,3}?\s+respectively\b")
_VALUE = re.compile(r"\d[\d_]*(?:[.,]\d+)*")


def _respectively(haystack: str, start: int, mine_in: Callable[[str], list[int]],
                  theirs_in: Callable[[str], list[int]]) -> bool | None:
    """Whether the value at `start`, one of a list said "respectively", pairs with its own name: the names
    said before the list, in their order, one per value; None where no such list holds it."""
    m = next((m for m in _RESPECTIVELY.finditer(haystack) if m.start(1) <= start < m.end(1)), None)
    if m is None:
        return None
    values = [v.start() + m.start(1) for v in _VALUE.finditer(m.group(1))]
    at = next((i for i, v in enumerate(values) if v <= start < v + 12 and not any(v < w <= start for w in values)), None)
    sentences = [e.end() for e in SENTENCE_END.finditer(haystack, 0, m.start())]
    before = haystack[(sentences[-2] if len(sentences) > 1 else 0) : m.start()]
    names = sorted([(p, True) for p in mine_in(before)] + [(p, False) for p in theirs_in(before)])
    order = [mine for i, (_, mine) in enumerate(names) if i == 0 or names[i - 1][1] != mine]
    if at is None or len(order) != len(values):
        return None
    return order[at]


# (a quantity denied, "nothing charged", "no refund"; not a verb refused, "can't add X" still names X's role)
_DENIED_BEFORE = re.compile(r"\b(?:nothing|no|none|zero)\s+(?:(?:was|were|is|been|has|have)\s+)?$")


def owned(haystack: str, start: int, end: int, own: list[str], rivals: list[str], carry: bool = False) -> bool:
    """Whether the nearest name is the value's own: in its clause, the nearest either side
    ("and 17 Insulated Jackets"); else in its sentence, the nearest before it ("Stand Mixer:
    429.00, stock 4"), then the nearest after it."""
    haystack = _other_rates(haystack, start, end)
    mine_in, rival_in = _unshadowed(own, rivals), _unshadowed(rivals, own)

    def theirs_in(text: str) -> list[int]:
        # (a rival denied names nothing: "total still 470 (nothing charged)")
        return [h for h in rival_in(text) if not _DENIED_BEFORE.search(text[:h])]

    paired = _respectively(haystack, start, mine_in, theirs_in)
    if paired is not None:
        return paired
    block = _status_block(haystack, start)
    if block:  # a block's status line is its record's: "- role: aws_readonly \u00b6 - status: granted to xavier marsh"
        mine, theirs = bool(mine_in(block)), bool(theirs_in(block))
        if mine != theirs:
            return mine
    ends = list(CLAUSE_END.finditer(haystack))
    prev = [m for m in ends if m.end() <= start]
    if prev and prev[-1].group(0) == ":" and not haystack[prev[-1].end() : start].strip(" ,-"):
        # a labelled value ("total: $668.10 (nightly rate $334.05)"): its label names it, whatever follows
        label = _label(haystack, prev).split(",")[-1]
        mine, theirs = max(mine_in(label), default=-1), max(theirs_in(label), default=-1)
        if mine >= 0 or theirs >= 0:
            return mine > theirs
    c_left = max((m.end() for m in ends if m.end() <= start), default=0)
    c_right = min((m.start() for m in ends if m.start() >= end), default=len(haystack))
    clause_before, clause_after = haystack[c_left:start], _own_words_after(haystack[end:c_right])
    role = _range_role(haystack, start, end)
    opened = haystack.rfind("(", 0, start)
    if role and opened > max(haystack.rfind(")", 0, start), c_left - 1) and (mine_in(role) or theirs_in(role)):
        # a range in brackets is the dates of what it follows, whatever the clause said before the bracket: "your
        # arrival time of 23:15 is now on BK-5041 (2026-12-26 to 2026-12-29)"
        return bool(mine_in(role)) and not theirs_in(role)
    # in a list ("stock: mixer 4, jacket 17") the name in the value's own item decides
    item_before, item_after = clause_before.rsplit(",", 1)[-1], clause_after.split(",", 1)[0]
    mine = bool(mine_in(item_before) or mine_in(item_after))
    theirs = bool(theirs_in(item_before) or theirs_in(item_after))
    if mine != theirs:
        return mine

    role = _range_role(haystack, start, end)
    if role and not mine_in(clause_before) and not theirs_in(clause_before) and (mine_in(role) or theirs_in(role)):
        # no name before it in its clause: a bare date range ("BK-5027: 2026-12-12 to 2026-12-14") says which
        # end is which, whatever the clause goes on to name ("..., arrival 9:45 pm noted" is no check-in)
        return bool(mine_in(role)) and not theirs_in(role)

    def distances(text: str, starts: Callable[[str], list[int]], reverse: bool) -> list[int]:
        return [len(text) - h if reverse else h for h in starts(text)]

    if clause_before.rstrip().endswith("="):
        # the result of a sum ("2 nights at 396 each = 792"): the names before it are its terms', and
        # the first of them says what is counted
        mine_at, theirs_at = mine_in(clause_before), theirs_in(clause_before)
        if mine_at or theirs_at:
            return min(mine_at, default=10**9) < min(theirs_at, default=10**9)
    near_own = distances(clause_before, mine_in, True) + distances(clause_after, mine_in, False)
    near_rival = distances(clause_before, theirs_in, True) + distances(clause_after, theirs_in, False)
    if near_own or near_rival:
        return min(near_own, default=10**9) < min(near_rival, default=10**9)
    left = max((m.end() for m in SENTENCE_END.finditer(haystack, 0, start)), default=0)
    right = next((m.start() for m in SENTENCE_END.finditer(haystack, end)), len(haystack))
    before = " " + " ".join(haystack[left:start].split()[-RIVAL_WINDOW:]) + " "
    after = " " + " ".join(_own_words_after(haystack[end:right]).split()[:RIVAL_WINDOW]) + " "

    mine, theirs = max(mine_in(before), default=-1), max(theirs_in(before), default=-1)
    if mine >= 0 or theirs >= 0:
        return mine > theirs
    if mine_in(after) or theirs_in(after):
        return min(mine_in(after), default=len(after) + 1) < min(theirs_in(after), default=len(after) + 1)
    heading = _list_heading(haystack, left)
    mine, theirs = max(mine_in(heading), default=-1), max(theirs_in(heading), default=-1)
    if carry and mine < 0 and theirs < 0 and left > 0:
        # a sentence that names nothing speaks of the last thing the one before it named: "I found your JetBrains
        # seat. It has now been released back to the pool." (`carry`: for a fact that must be stated; a claim that
        # must not be made needs its record named: "Your booking now runs ..." after another booking is no claim of it)
        prev = next((p for p in reversed(SENTENCE_END.split(haystack[:left])) if p.strip()), "")
        mine, theirs = max(mine_in(prev), default=-1), max(theirs_in(prev), default=-1)
    return mine > theirs


# a list's item line: an optional bullet, a short label, a colon ("- city/state/zip: austin, tx 78751")
_ITEM_LINE = re.compile(r"^\s*(?:[-*\u2022]\s*|\d+[.)]\s*)?[^:.!?]{1,40}:\s")
# the line that opens a list: its heading, a colon, the first item ("your address has been updated: - street: ...")
_HEADED_LINE = re.compile(r"^(?P<heading>[^:]*):\s*(?:[-*\u2022]\s*)?[^:.!?]{1,40}:\s")
_LIST_REACH = 6  # item lines a heading may stand above


def _list_heading(haystack: str, line_start: int) -> str:
    """The last clause of the heading a list item's line stands under, or "": a value in an item whose own
    line names nothing ("- City/State/ZIP: Austin, TX 78751") is what the heading above says it is
    ("Your mailing address has been updated:")."""
    if not _ITEM_LINE.match(haystack[line_start:]):
        return ""
    for line in reversed(re.split("\u00b6", haystack[:line_start])[-_LIST_REACH - 1 : -1] or [""]):
        head = _HEADED_LINE.match(line.strip())
        if head:
            return re.split(r"[.!?]\s", head.group("heading"))[-1]
        if not _ITEM_LINE.match(line):
            return ""
    return ""


def _range_role(haystack: str, start: int, end: int) -> str:
    """The words the value stands for as one end of a date range ("2026_12_12 to 2026_12_14"), or ""."""
    if _RANGE_NEXT.match(haystack, end) or haystack[:start].rstrip().endswith("between"):
        return _RANGE_ROLE["start"]
    return _RANGE_ROLE["end"] if _RANGE_PREV.search(haystack[:start]) else ""


# a range of two dates, normalised ("2026_12_12 to 2026_12_14", "12_12 - 12_14"), and the words each end stands for
_DATE_TOKEN = r"(?:\d{4}_)?\d{1,2}_\d{1,2}"
_RANGE_NEXT = re.compile(rf"\s*(?:to|through|thru|until|till|-|\u2013)\s*{_DATE_TOKEN}\b")
_RANGE_PREV = re.compile(rf"(?:\bbetween\s+{_DATE_TOKEN}\s+and|\b{_DATE_TOKEN}\s*(?:to|through|thru|until|till|-|\u2013))\s*$")
_RANGE_ROLE = {"start": " from start begin check in arrive ", "end": " to until end check out depart leave "}


# a bound, not a denial: "no later than 2026-12-05", "no more than $612", "at no extra cost"
_BOUND = re.compile(r"\b(?:no|not) (?:later|earlier|more|less|sooner|fewer|longer than)\b|\bno (?:extra|additional)\b")


_ASK_US_AND = re.compile(r"\b(?:(?:contact|call|tell|ask|message|email|phone|write to|let) us(?: know)?(?: again)?|reach out"
                         r"(?: again)?|get in touch|get back to us|come back to us) and (?:\S+ ){0,2}$")
_MAIN_CLAUSE = {"will", "then", "would", "shall", "can", "could", "may", "might", "should", "must"}  # (its verb starts the main clause)


def _negated(haystack: str, start: int) -> bool:
    """Whether the words just before `start`, in its clause, deny it ("couldn't close",
    "is not closed", "no longer frozen")."""
    clause = NEGATION_END.split(haystack[:start])[-1]
    # a bracket worded of its own is a clause of its own: "isn't delivered yet (new estimated delivery 12_07)";
    # a bracket holding only the value is still the negated clause's: "couldn't cancel the order (o_1)"
    bracket = clause.rfind("(")
    if bracket >= 0 and ")" not in clause[bracket:] and clause[bracket + 1 :].strip():
        clause = clause[bracket + 1 :]
    before = _BOUND.sub(" ", clause).split()[-NEGATION_WINDOW:]
    # a condition is no statement either: "once BK-5114 is cancelled, ..." ("at once" is no condition); but
    # its main clause is one: "once approved we will move you to the Junior Suite" promises the suite
    conditional = any(w == "once" and (i == 0 or before[i - 1] != "at") and not _MAIN_CLAUSE & set(before[i + 1:])
                      for i, w in enumerate(before))
    # the customer asking first makes it a condition too: "contact us and we will open a dispute"
    conditional = conditional or bool(_ASK_US_AND.search(haystack, max(0, start - 80), start))
    # ("non" denies only the word it prefixes: "non refundable" is no denial of the rate after it)
    return conditional or any(_NEGATION.match(w) and (w != "non" or i == len(before) - 1) for i, w in enumerate(before))


def contains_fact(
    text: str,
    fact: object,
    near: tuple[str, ...] | list[str] = (),
    *,
    affirmed: bool = False,
    owner: tuple[str, ...] | list[str] = (),
    rivals: tuple[str, ...] | list[str] = (),
    carry: bool = False,
) -> bool:
    """Whether `fact` is stated in `text` (both normalised; word/number boundaries kept).

    With `owner` (the names of the thing the value belongs to) and `rivals` (the names of
    the other things the reply lists), the nearest name in the value's sentence must be its
    owner's: the nearest before it, else the nearest after it, so "the Mixer costs 429.00
    and we have 4" binds 4 to the Mixer while two stock counts said the other way round fail.
    A money fact (`$30`) is not stated by the same number counting something else (`30
    days`, `a 30-day window`, `30 percent`).
    A full date (`2026-12-04`) also matches the same month and day written without a
    year (`December 4th`): an agent talking about this week need not name the year.
    With `near`, one of those words must stand in the same clause, within a few words of
    the fact: its role ("refund" or "back" for the amount refunded, "fee" for the fee), so
    two amounts said in each other's place do not pass. With `affirmed`, a fact does not count where a
    negation stands just before it in its clause: "I couldn't close the ticket" does not
    say it is closed, "I couldn't set an arrival time of 22:00" does not state 22:00; a
    bound ("no later than", "no more than") is not a negation. With `carry`, a value in a sentence that
    names neither its owner nor a rival belongs to the last one the sentence before it named."""
    raw = str(fact).strip()
    # a person's name, as the fact or as whose it is, is compared letter for letter (Marco is not Marcos)
    plurals = not any(_NAME.match(str(w).strip()) for w in (raw, *owner, *rivals))
    needle = normalize(raw, plurals)
    if not needle:
        return True
    haystack = normalize(text, plurals)
    spans = [m.span() for m in rx(_pattern(needle)).finditer(haystack)]
    if _PHONE_FACT.match(needle):  # a phone number also as its bare digits ("6145550747")
        spans += [m.span() for m in rx(_pattern(needle.replace("_", ""))).finditer(haystack)]
    iso = _ISO_FACT.match(raw)
    if iso:  # only a date written without its year: "March 10" of another year must not match
        spans += [m.span() for m in rx(_pattern(f"{iso.group(2)}_{iso.group(3)}")).finditer(haystack)]
    if _MONEY_FACT.search(raw):  # an amount of money is not a count of days
        spans = [(start, end) for start, end in spans
                 if not _UNIT_AFTER.match(haystack, end) and not _UNIT_LABEL.search(haystack, 0, start)]
    if owner or rivals:  # a word inside a record's own name states nothing ("Noise-Cancelling Headphones" is not cancelled)
        names = [m.span() for w in (*owner, *rivals) if (n := normalize(w, plurals)) and n != needle
                 for m in rx(_pattern(n)).finditer(haystack)]
        spans = [(start, end) for start, end in spans if not any(a <= start and end <= b for a, b in names)]
    if owner and not any(re.search(r"\d", w) and rx(_pattern(normalize(w, plurals))).search(needle) for w in owner):
        # the value belongs to one of several things the reply lists: it must stand by its own
        # (a wording that names its owner's id itself, "DP-4 has been closed", needs no more)
        own, others = [normalize(w, plurals) for w in owner], [normalize(w, plurals) for w in rivals]
        spans = [(start, end) for start, end in spans if owned(haystack, start, end, own, others, carry)]
    if affirmed:
        spans = [(start, end) for start, end in spans if not _negated(haystack, start)]
    if not near:
        return bool(spans)
    cues = [normalize(w) for w in near]
    for start, end in spans:
        window = _role_window(haystack, start, end)
        if _chosen_cues(window, cues) or _subject_cue(haystack, start, end, cues):
            return True
    return False


# the other choice is no role of the fact: "I sent a new shipment instead of a refund" sent no refund
_OTHER_CHOICE = re.compile(r"(?:(?:\binstead of|\brather than|\bin place of)(?: a| an| the| any| your)?|\bnot(?: a| an| the| any)) $")


def _chosen_cues(window: str, cues: list[str]) -> list[int]:
    """`cue_starts`, less the cues said as the choice not made."""
    return [at for at in cue_starts(window, cues) if not _OTHER_CHOICE.search(window, 0, at)]
