"""A figure said of one record that the tools give as another's of the same kind.

"Seat S-2 has been unused for 150 days" where the licence list gives S-2 40 days and S-5
150, "the Team plan costs $18.00 a seat" where $18.00 is the Business plan's price, "your
booking BK-1 checks in on 2026-12-20" where that is BK-2's check-in: every figure is real,
so `figures` (which asks only whether the episode gave a figure) passes it, yet the customer
hears the wrong record's value. The tools say which value is whose: records of one kind
come back as JSON objects with the same keys, each named by its ids and names. A figure
whose nearest named record (before it in its sentence, else after) has another value under
a key where a sibling record has this one, and which that record has under no key, was
taken from the sibling.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from tb_env.domain.normalize import normalize
from tb_env.domain.transcript import NOT_JSON, json_dicts, json_value, sentences

# the keys whose values name a record (an address by its label or street; a zip code is a value the record has)
_NAME_KEY = re.compile(r"(?:^|_)(?:id|name|title|number|sku|label|line1)$|(?<!zip)(?<!postal)(?:^|_)code$")
_ISO_VALUE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[T ].*)?$")
_NUMBER_VALUE = re.compile(r"^-?\d+(?:\.\d+)?$")
# a figure of a reply, in the normaliser's form: a date (full or month and day) or a number
_FIGURE = re.compile(r"(?<![\w.])(?:(\d{4})_(\d{2})_(\d{2})|(\d{2})_(\d{2})|(-?\d+(?:\.\d+)?))(?![\w]|\.\d)")


@dataclass
class _Record:
    names: set[str] = field(default_factory=set)  # normalised ids and names
    fields: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # key -> figure values

    held: set[str] = field(default_factory=set)  # the figures of the records it holds

    def values(self) -> set[str]:
        return {v for vs in self.fields.values() for v in vs} | self.held


def _figures_of(value: object) -> set[str]:
    """A record's value as the figures a reply may state it in (a date also as its month and day)."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, (int, float)):
        return {_number(float(value))}
    text = str(value).strip()
    m = _ISO_VALUE.match(text)
    if m:
        return {f"{m[1]}_{m[2]}_{m[3]}", f"{m[2]}_{m[3]}"}
    return {_number(float(text))} if _NUMBER_VALUE.match(text) else set()


def _number(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _significant(figure: str) -> bool:
    """A figure that tells records apart: a date, a decimal, or a whole number from 10 (not a count of 2)."""
    return "_" in figure or "." in figure or abs(float(figure)) >= 10


def _kinds(results: list[str]) -> list[list[_Record]]:
    """The records of each kind (JSON objects with the same keys) that two or more records share, one
    `_Record` per record however often it came back (read, then changed)."""
    by_kind: dict[frozenset[str], dict[str, _Record]] = defaultdict(dict)
    for r in results:
        value = json_value(r)
        if value is NOT_JSON:
            continue
        for d in json_dicts(value):
            names = {normalize(str(v)) for k, v in d.items() if _NAME_KEY.search(k) and isinstance(v, str) and len(v) >= 3}
            if not names:
                continue
            rec = by_kind[frozenset(d)].setdefault(" ".join(sorted(names)), _Record())
            rec.names |= names
            for k, v in d.items():
                if not _NAME_KEY.search(k):
                    rec.fields[k] |= _figures_of(v)
            # (what the record holds is its too: an order's items' prices are the order's figures)
            rec.held |= {f for inner in d.values() if isinstance(inner, (dict, list)) for dd in json_dicts(inner)
                         for v in dd.values() for f in _figures_of(v)}
    # (one record may come back in other shapes too, a change's own result: its figures there are its own as well)
    everywhere: dict[str, set[str]] = defaultdict(set)
    for recs in by_kind.values():
        for rec in recs.values():
            for n in rec.names:
                everywhere[n] |= rec.values()
    kinds = [list(recs.values()) for recs in by_kind.values() if len(recs) >= 2]
    for recs in kinds:
        for rec in recs:
            rec.held |= {f for n in rec.names for f in everywhere[n]}
    return kinds


def _unique_names(records: list[_Record]) -> dict[str, int]:
    """Each name only one record of the kind has, with that record's index."""
    owners: dict[str, set[int]] = defaultdict(set)
    for i, rec in enumerate(records):
        for n in rec.names:
            owners[n].add(i)
    return {n: next(iter(idx)) for n, idx in owners.items() if len(idx) == 1 and n}


def _positions(sentence: str, names: dict[str, int]) -> list[tuple[int, int]]:
    """(where a record's name stands, the record's index), for the names only one record of the kind has."""
    return sorted((m.start(), i) for n, i in names.items()
                  for m in re.finditer(rf"(?<![\w]){re.escape(n)}(?![\w])", sentence))


def misattributed(texts: list[str], results: list[str]) -> str | None:
    """The first sentence of `texts` that gives a record a figure the tools give as another record's of the same kind."""
    kinds = _kinds(results)
    if not kinds:
        return None
    names = [_unique_names(records) for records in kinds]
    for text in texts:
        for sentence in sentences(text):
            for clause in _CLAUSE.split(normalize(sentence)):
                found = _misattributed_in(clause, kinds, names)
                if found:
                    return sentence
    return None


# where one record's words end and another's may begin: "order O-1 is cancelled and 40.98 refunded; R-9001 ..."
_CLAUSE = re.compile(r"[;()\u00b6]|:(?!\d)|\b(?:and|but|while|whereas|so|then)\b")


def _misattributed_in(clause: str, kinds: list[list[_Record]], names: list[dict[str, int]]) -> bool:
    """Whether a figure of `clause` follows the name of a record (the nearest before it, of any kind) that holds
    another value under a key where a sibling holds this one."""
    if not clause.strip():
        return False
    named_all = [(at, k, i) for k in range(len(kinds)) for at, i in _positions(clause, names[k])]
    for m in _FIGURE.finditer(clause):
        figure = (f"{m[1]}_{m[2]}_{m[3]}" if m[1] else f"{m[4]}_{m[5]}" if m[4] else _number(float(m[6])))
        if not _significant(figure):
            continue
        before = sorted((at, k, i) for at, k, i in named_all if at < m.start())
        if not before:
            continue  # no record named before it in its clause: whose it is, the words do not say
        _, k, i = before[-1]
        records = kinds[k]
        owner = records[i]
        if figure in owner.values():
            continue
        for key, mine in owner.fields.items():
            if mine and figure not in mine and any(figure in r.fields.get(key, ()) for r in records if r is not owner):
                return True
    return False

