"""The text normaliser behind response assertions: facts match however they are written.

Rules, applied in this order to both the agent's text and the required fact:
1. Unicode dashes become `-`, non-breaking spaces become spaces, `*` and backticks
   (markdown emphasis) are removed, everything is lower-cased.
2. Dates become ISO `YYYY-MM-DD`: `December 4, 2026`, `Dec. 4th 2026`, `4 December 2026`
   and US numeric `12/04/2026` (month first). A date without a year is left alone.
3. North American phone numbers become `503-555-0199`, however written: `(503) 555-0199`,
   `503.555.0199`, `503 555 0199`.
4. Currency symbols (`$ € £`) are removed.
5. Numbers lose thousands separators and trailing decimal zeros: `1,250.00` -> `1250`,
   `25.50` -> `25.5`. Leading zeros stay (`04` in a date, `007` in an id).
6. Runs of whitespace become one space.

A fact matches when its normalised form occurs in the normalised text and is not part
of a longer word or number (`125` does not match `1250`; `25` matches `25.`).
"""

from __future__ import annotations

import re

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
_MDY = re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+(\d{{4}})\b")
_DMY = re.compile(rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+(\d{{4}})\b")
_US = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
_NUMBER = re.compile(r"(?<![\d.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d]|\.\d)")
_DASHES = re.compile("[\u2010-\u2015\u2212]")
_PHONE = re.compile(r"\((\d{3})\)\s*(\d{3})[-.\s](\d{4})\b|\b(\d{3})[.\s](\d{3})[.\s](\d{4})\b")
_SPACE = re.compile(r"\s+")


def _iso(year: str, month: int, day: str) -> str:
    return f"{int(year):04d}-{month:02d}-{int(day):02d}"


def _number(m: re.Match[str]) -> str:
    whole = m.group(1).replace(",", "")
    frac = (m.group(2) or "").rstrip("0")
    return whole + ("" if frac == "." else frac)


def normalize(text: str) -> str:
    text = _DASHES.sub("-", text).replace("\u00a0", " ").replace("*", "").replace("`", "").lower()
    text = _MDY.sub(lambda m: _iso(m.group(3), _MONTHS[m.group(1)], m.group(2)), text)
    text = _DMY.sub(lambda m: _iso(m.group(3), _MONTHS[m.group(2)], m.group(1)), text)
    text = _US.sub(lambda m: _iso(m.group(3), int(m.group(1)), m.group(2)), text)
    text = _PHONE.sub(lambda m: "-".join(g for g in m.groups() if g), text)
    text = text.replace("$", "").replace("€", "").replace("£", "")
    text = _NUMBER.sub(_number, text)
    return _SPACE.sub(" ", text).strip()


def contains_fact(text: str, fact: str) -> bool:
    """Whether `fact` is stated in `text` (both normalised; word/number boundaries kept)."""
    needle = normalize(str(fact))
    if not needle:
        return True
    pattern = rf"(?<![0-9a-z]){re.escape(needle)}(?![0-9a-z]|\.\d)"
    return re.search(pattern, normalize(text)) is not None
