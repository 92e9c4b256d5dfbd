"""Scenes: the rows one task adds to its domain's base data, from split-disjoint pools.

A `Pool` hands out ids and names for one split: counters run across every template of
the split, and test and train draw from different number ranges and name lists, so the
two splits never share a customer, an order or a ticket. A `Scene` collects the rows of
one task (its `initial_patch`) and carries the task's seeded `rng`: everything random in
a template comes from it, so regenerating gives the same files byte for byte.

A domain subclasses `Scene` with builders for its records (`customer()`, `order()`...);
those stay in the domain's pack, next to its templates.
"""

from __future__ import annotations

import random
from typing import Any


class Pool:
    """Ids and names of one split.

    `bases` gives each id prefix its first number per split (`{"C": {"test": 5400,
    "train": 6400}}`); a prefix not listed uses `default_base`. `names` is a pair of
    (first names, last names) lists per split, shuffled once into distinct pairs
    (`shuffle=False` keeps the product order, for a domain whose people must not move)."""

    def __init__(
        self,
        split: str,
        *,
        names: dict[str, tuple[list[str], list[str]]] | None = None,
        bases: dict[str, dict[str, int]] | None = None,
        default_base: dict[str, int] | None = None,
        shuffle: bool = True,
    ):
        self.split = split
        self.counters: dict[str, int] = {}
        self.bases = bases or {}
        self.default_base = default_base or {"test": 1000, "train": 5000}
        firsts, lasts = (names or {}).get(split, ([], []))
        pairs = [(f, last) for f in firsts for last in lasts]
        if shuffle:
            random.Random(f"names/{split}").shuffle(pairs)
        self._names = pairs
        self._name_i = 0

    def next(self, kind: str, start: int | None = None) -> int:
        """The next number of a counter (`start` or the prefix's base on first use)."""
        if kind not in self.counters:
            base = self.bases.get(kind, self.default_base)
            self.counters[kind] = start if start is not None else base[self.split]
        n = self.counters[kind]
        self.counters[kind] = n + 1
        return n

    def id(self, prefix: str, width: int = 0) -> str:
        return f"{prefix}-{self.next(prefix):0{width}d}"

    def name(self) -> tuple[str, str]:
        if self._name_i >= len(self._names):
            raise ValueError(f"the {self.split} name pool is used up ({len(self._names)} pairs): add names")
        self._name_i += 1
        return self._names[self._name_i - 1]


class Scene:
    """The rows of one task, by table: in `tables` order where given (parents before
    children reads best), else in the order tables were first used."""

    def __init__(self, pool: Pool, rng: random.Random, tables: tuple[str, ...] = ()):
        self.pool = pool
        self.rng = rng
        self.rows: dict[str, list[dict[str, Any]]] = {t: [] for t in tables}

    @property
    def split(self) -> str:
        return self.pool.split

    def add(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        self.rows.setdefault(table, []).append(row)
        return row

    def patch(self) -> dict[str, list[dict[str, Any]]]:
        return {t: rows for t, rows in self.rows.items() if rows}
