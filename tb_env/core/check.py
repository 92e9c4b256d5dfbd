"""Where the reward is computed: the agent's final rows against the golden final rows.

The golden final state is what replaying the task's `golden_actions` on a fresh copy
produces. The check compares the two over the domain's checked tables after
canonicalisation: volatile columns (free text, timestamps) are left out, floats are
rounded to 6 places (and `25 == 25.0`), row order is irrelevant. On top of that come
the task's assertions (row exists / absent / unchanged / count; response contains the
facts). Reward 1 only if everything passes; a task with rubrics and no judge is not
scored at all (`reward=None`, `skipped="no_judge"`).

The golden outcome of each task is computed once and cached as the final rows of the
keys it touched. Backends that log which rows an episode changed (SQLite, with
triggers) let the check read only those rows; otherwise full snapshots are compared by
an order-independent digest, and replayed for a row-level diff only when they differ.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

import numpy as np
import sqlalchemy as sa

from tb_env.backends.base import Backend
from tb_env.core.toolserver import invoke_tool
from tb_env.domain.claims import unfounded_actions
from tb_env.domain.database import Database
from tb_env.domain.figures import Known, endings_said, misdated, misroled, ungrounded
from tb_env.domain.ids import misbranded_card, mislabeled_id
from tb_env.domain.normalize import contains_fact, cue_starts, normalize
from tb_env.domain.offers import unfounded_offer
from tb_env.domain.owners import misattributed
from tb_env.domain.pack import Domain
from tb_env.domain.stance import (
    Action,
    contradiction,
    misreported_decision,
    misreported_status,
    unfounded_wait,
)
from tb_env.domain.task import (
    Called,
    Grounded,
    NoCall,
    Outcome,
    RowCount,
    RowExists,
    RowUnchanged,
    Task,
    ToolCall,
)
from tb_env.domain.transcript import ENV_NAME, agent_texts, customer_lines, matches, requests, tool_trace
from tb_env.errors import TaskValidationError, ToolServerError
from tb_env.parties.interpret import coerce_arguments

Snapshot = dict[str, list[tuple[Any, ...]]]
INITIAL_CACHE_ENTRIES = 200_000  # initial rows kept by key per checker (a few MB at most)


@dataclass
class AssertionResult:
    kind: str
    passed: bool
    detail: str


@dataclass
class CheckResult:
    """The outcome of grading one final state. `reward` is 1.0, 0.0 or None (not graded)."""

    reward: float | None
    state_match: bool
    diff: list[str] = field(default_factory=list)
    assertions: list[AssertionResult] = field(default_factory=list)
    skipped: str | None = None

    @property
    def failed(self) -> list[str]:
        out = ["final state differs from the golden state"] if not self.state_match else []
        return out + [f"{a.kind}: {a.detail}" for a in self.assertions if not a.passed]

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "failed": self.failed}


class Judge(Protocol):
    async def grade(self, task: Task, messages: list[dict[str, Any]]) -> list[bool]: ...


# --- reading rows the way the check compares them ------------------------------------------


@dataclass(frozen=True)
class _TablePlan:
    name: str
    key: str  # the primary key column
    columns: list[str]  # the compared (non-volatile) columns
    key_index: int | None  # position of the key among `columns`; None if the key is volatile
    select: str  # "SELECT <canonical columns> FROM <table>"
    keyed_select: str  # the same with the key first, whether compared or not
    text: list[str] = field(default_factory=list)  # volatile columns a write may edit on an existing row
    text_select: str = ""  # "SELECT <key>, <text columns> FROM <table>"


_STAMP = re.compile(r"(?:_at|_on|_date)$")  # (set when a row is made, never edited)


def _plans(domain: Domain, dialect: str = "sqlite") -> list[_TablePlan]:
    cache = domain.__dict__.setdefault("_check_plans", {})
    if dialect in cache:
        return cache[dialect]
    # floats are compared at 6 decimal places, rounded by the database in one pass
    fmt = "ROUND(CAST({} AS NUMERIC), 6)" if dialect == "postgresql" else "ROUND({}, 6)"
    plans = []
    for table in domain.checked_tables():
        cols = [c for c in table.c if not c.info.get("volatile")]
        names = [c.name for c in cols]
        exprs = [
            f"{fmt.format(c.name)} AS {c.name}" if isinstance(c.type, sa.Float | sa.Numeric) else c.name for c in cols
        ] or ["1"]
        key = next(iter(table.primary_key.columns)).name
        # free text is any wording where the golden path writes it, but no edit where it leaves it: an
        # unasked rewrite of a claim's description is a change the customer never asked for
        text = [c.name for c in table.c if c.info.get("volatile") and c.name != key and not _STAMP.search(c.name)]
        plans.append(
            _TablePlan(
                table.name, key, names, names.index(key) if key in names else None,
                f"SELECT {', '.join(exprs)} FROM {table.name}",
                f"SELECT {key} AS _tb_key, {', '.join(exprs)} FROM {table.name}",
                text if key in names else [],
                f"SELECT {key} AS _tb_key, {', '.join(text)} FROM {table.name}" if text else "",
            )
        )
    cache[dialect] = plans
    return plans


async def snapshot(domain: Domain, db: Database) -> Snapshot:
    """Every checked table's rows, volatile columns left out, floats canonicalised."""
    return {plan.name: await db.rows(plan.select) for plan in _plans(domain, db.dialect)}


async def _rows_by_key(db: Database, plan: _TablePlan, keys: set[Any]) -> dict[Any, tuple[Any, ...]]:
    """The compared columns of the rows with these keys, by key (the key may be volatile)."""
    return await _keyed(db, plan.keyed_select, plan.key, keys)


async def _keyed(db: Database, select: str, key: str, keys: set[Any]) -> dict[Any, tuple[Any, ...]]:
    """`select` (its first column the key) of the rows with these keys: by key, the other columns."""
    out: dict[Any, tuple[Any, ...]] = {}
    ordered = sorted(keys, key=repr)
    for i in range(0, len(ordered), 500):
        chunk = ordered[i : i + 500]
        marks = ", ".join(f":k{j}" for j in range(len(chunk)))
        rows = await db.all(f"{select} WHERE {key} IN ({marks})", **{f"k{j}": k for j, k in enumerate(chunk)})
        for r in rows:
            t = tuple(r.values())
            out[t[0]] = t[1:]
    return out


_M1, _M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


def _table_digest(rows: list[tuple[Any, ...]]) -> tuple[int, int]:
    """(row count, sum of mixed row hashes mod 2**64): equal multisets, equal digests.

    Python's tuple hash is nearly additive across rows that differ in the same column
    (two rows each moved by +/-100 can cancel out in a plain sum), so each row hash goes
    through the splitmix64 finaliser first; after that, distinct multisets collide with
    probability about 2**-64. `25` and `25.0` hash alike, as the check requires."""
    h = np.fromiter(map(hash, rows), dtype=np.int64, count=len(rows)).view(np.uint64)
    with np.errstate(over="ignore"):
        h ^= h >> _S30
        h *= _M1
        h ^= h >> _S27
        h *= _M2
        h ^= h >> _S31
    return len(rows), int(h.sum(dtype=np.uint64))


def digest(snap: Snapshot) -> dict[str, tuple[int, int]]:
    """Order-independent digest of each table's rows (see `_table_digest`)."""
    return {name: _table_digest(rows) for name, rows in snap.items()}


def _row_line(plan: _TablePlan, key: Any, actual: tuple[Any, ...] | None, expected: tuple[Any, ...] | None) -> str:
    cols = plan.columns
    if actual is None:
        return f"{plan.name}[{key}]: missing row (expected {dict(zip(cols, expected or (), strict=False))})"
    if expected is None:
        return f"{plan.name}[{key}]: unexpected row {dict(zip(cols, actual, strict=False))}"
    changes = [f"{c}={a!r} (expected {e!r})" for c, a, e in zip(cols, actual, expected, strict=True) if a != e]
    return f"{plan.name}[{key}]: " + ", ".join(changes)


def _table_diff(plan: _TablePlan, agent: list[tuple[Any, ...]], golden: list[tuple[Any, ...]]) -> list[str]:
    if _table_digest(agent) == _table_digest(golden):
        return []
    if plan.key_index is not None:
        k = plan.key_index
        a_by, g_by = {r[k]: r for r in agent}, {r[k]: r for r in golden}
        return [
            _row_line(plan, key, a_by.get(key), g_by.get(key))
            for key in sorted(set(a_by) | set(g_by), key=repr)
            if a_by.get(key) != g_by.get(key)
        ]
    ca, cg = Counter(agent), Counter(golden)
    cols = plan.columns
    return [f"{plan.name}: missing row {dict(zip(cols, r, strict=True))}" for r in (cg - ca).elements()] + [
        f"{plan.name}: unexpected row {dict(zip(cols, r, strict=True))}" for r in (ca - cg).elements()
    ]


def diff_states(domain: Domain, agent: Snapshot, golden: Snapshot) -> list[str]:
    """Readable row-level differences between two full snapshots (agent vs golden)."""
    return [
        line for plan in _plans(domain) for line in _table_diff(plan, agent.get(plan.name, []), golden.get(plan.name, []))
    ]


# --- golden replay -----------------------------------------------------------------------------


async def replay(domain: Domain, backend: Backend, task: Task, actions: list[ToolCall]) -> Database:
    """A fresh copy with `actions` applied through the same path the MCP handler uses.

    Raises `TaskValidationError` if a tool refuses a call: a golden path that errors is a
    broken task, never a silent pass. A call that fails for infrastructure reasons (the
    tool crashed, the database failed) raises `ToolServerError`: the environment failed,
    not the task, so trainers re-run the episode instead of stopping on a config error."""
    db = await backend.open_scratch(domain, task)
    try:
        for i, call in enumerate(actions):
            tool = domain.tools_by_name.get(call.name)
            args = coerce_arguments(call.arguments, tool.input_schema) if tool else call.arguments
            outcome = await invoke_tool(domain, db, call.name, args)
            if outcome.infra_error:
                raise ToolServerError(f"{task.id}: replaying golden call {i} ({call.name}): {outcome.infra_error}")
            if outcome.is_error:
                raise TaskValidationError(f"{task.id}: golden call {i} ({call.name}) failed: {outcome.text}")
    except BaseException:
        await backend.close(db)
        raise
    return db


@dataclass
class Golden:
    """What the golden path leaves behind, kept small enough to cache for every task.

    `rows`: for each table with a stable key, the final row (or None: deleted) of every
    key the golden path touched. `moved`: for each table with a volatile key that the
    golden path touched, the rows it left (`final`) and the rows those keys held at the
    start (`initial`), as multisets. `full`: whole-table digests, only for backends that
    cannot say which rows changed."""

    rows: dict[str, dict[Any, tuple[Any, ...] | None]]
    moved: dict[str, tuple[Counter[tuple[Any, ...]], Counter[tuple[Any, ...]]]]
    full: dict[str, tuple[int, int]]
    edited: dict[str, dict[Any, frozenset[str]]] = field(default_factory=dict)  # free text it rewrote, by row


async def _golden(domain: Domain, db: Database, initial: Database) -> Golden:
    changed = await db.changed_keys()
    if changed is None:  # (no change log: every row's free text, compared with the start's)
        edited = {plan.name: _edits(plan, await _texts(initial, plan, None), await _texts(db, plan, None))
                  for plan in _plans(domain, db.dialect) if plan.text}
        return Golden({}, {}, digest(await snapshot(domain, db)), edited)
    rows: dict[str, dict[Any, tuple[Any, ...] | None]] = {}
    moved: dict[str, tuple[Counter[tuple[Any, ...]], Counter[tuple[Any, ...]]]] = {}
    edited: dict[str, dict[Any, frozenset[str]]] = {}
    for plan in _plans(domain, db.dialect):
        keys = changed.get(plan.name)
        if not keys:
            continue
        if plan.key_index is not None:
            found = await _rows_by_key(db, plan, keys)
            rows[plan.name] = {k: found.get(k) for k in keys}
            if plan.text:
                edited[plan.name] = _edits(plan, await _texts(initial, plan, keys), await _texts(db, plan, keys))
        else:
            moved[plan.name] = (
                Counter((await _rows_by_key(db, plan, keys)).values()),
                Counter((await _rows_by_key(initial, plan, keys)).values()),
            )
    return Golden(rows, moved, {}, edited)


async def _texts(db: Database, plan: _TablePlan, keys: set[Any] | None) -> dict[Any, tuple[Any, ...]]:
    """The free-text columns of the rows with these keys (None: of every row), by key."""
    if keys is None:
        return {r["_tb_key"]: tuple(r[c] for c in plan.text) for r in await db.all(plan.text_select)}
    return await _keyed(db, plan.text_select, plan.key, keys)


def _extra_edits(plan: _TablePlan, edits: dict[Any, frozenset[str]], golden: dict[Any, frozenset[str]]) -> list[str]:
    return [f"{plan.name}[{k}]: {', '.join(sorted(extra))} rewritten, which the golden path leaves as it was"
            for k in sorted(edits, key=repr) if (extra := edits[k] - golden.get(k, frozenset()))]


def _edits(plan: _TablePlan, before: dict[Any, tuple[Any, ...]], after: dict[Any, tuple[Any, ...]]) -> dict[Any, frozenset[str]]:
    """The free-text columns each row that existed before has rewritten."""
    return {k: frozenset(c for c, a, b in zip(plan.text, old, after.get(k, old), strict=True) if a != b)
            for k, old in before.items()}


class Checker:
    """Grades final states on one backend; caches each task's golden outcome.

    Where the backend logs which rows changed (SQLite does, with triggers), only the
    rows touched by the agent or by the golden path are compared, so the check costs
    microseconds whatever the size of the database; elsewhere it compares full
    snapshots."""

    def __init__(self, backend: Backend, judge: Judge | None = None):
        self.backend = backend
        self.judge = judge
        self._golden: dict[tuple[int, str], Golden] = {}
        self._locks: dict[tuple[int, str], asyncio.Lock] = {}
        self._initial: dict[tuple[int, str, str, Any], dict[str, Any] | None] = {}
        self._initial_by_key: dict[tuple[int, str, str], dict[Any, tuple[Any, ...] | None]] = {}
        self._initial_entries = 0
        self._stale: dict[tuple[int, str], list[str]] = {}
        self._initial_text: dict[tuple[int, str], dict[str, dict[Any, tuple[Any, ...]]]] = {}  # every row's, full path
        self._embedded: Checker | None = None  # for `stale_values` where the backend keeps no change log

    async def golden(self, domain: Domain, task: Task) -> Golden:
        key = (id(domain), task.id)
        cached = self._golden.get(key)
        if cached is None:
            async with self._locks.setdefault(key, asyncio.Lock()):
                cached = self._golden.get(key)
                if cached is None:
                    db = await replay(domain, self.backend, task, task.golden_actions)
                    initial = await self.backend.open_scratch(domain, task)
                    try:
                        cached = self._golden[key] = await _golden(domain, db, initial)
                    finally:
                        await self.backend.close(db)
                        await self.backend.close(initial)
        return cached

    async def golden_snapshot(self, domain: Domain, task: Task) -> Snapshot:
        db = await replay(domain, self.backend, task, task.golden_actions)
        try:
            return await snapshot(domain, db)
        finally:
            await self.backend.close(db)

    async def state_diff(self, domain: Domain, task: Task, db: Database) -> list[str]:
        """Row-level differences between `db` and the golden final state ([] = equal)."""
        golden = await self.golden(domain, task)
        changed = await db.changed_keys()
        if changed is None:
            agent = await snapshot(domain, db)
            if digest(agent) != golden.full:
                return diff_states(domain, agent, await self.golden_snapshot(domain, task))
            lines = []
            texts = [plan for plan in _plans(domain, db.dialect) if plan.text]
            key = (id(domain), task.id)
            if texts and key not in self._initial_text:  # (the start's free text, read once per task)
                initial = await self.backend.open_scratch(domain, task)
                try:
                    self._initial_text[key] = {plan.name: await _texts(initial, plan, None) for plan in texts}
                finally:
                    await self.backend.close(initial)
            for plan in texts:
                edits = _edits(plan, self._initial_text[key][plan.name], await _texts(db, plan, None))
                lines += _extra_edits(plan, edits, golden.edited.get(plan.name, {}))
            return lines
        lines: list[str] = []
        for plan in _plans(domain, db.dialect):
            g_rows = golden.rows.get(plan.name, {})
            a_keys = changed.get(plan.name, set())
            if plan.key_index is None:
                # volatile keys: compare what each side moved, as multisets of rows. The
                # tables are equal iff agent_final + golden_initial == golden_final + agent_initial
                g_final, g_initial = golden.moved.get(plan.name, (Counter(), Counter()))
                if not a_keys and not g_final and not g_initial:
                    continue
                a_final = Counter((await _rows_by_key(db, plan, a_keys)).values()) if a_keys else Counter()
                a_initial: Counter[tuple[Any, ...]] = Counter()
                if a_keys:
                    before = await self.initial_rows(domain, task, plan, a_keys)
                    a_initial = Counter(r for r in before.values() if r is not None)
                have, want = a_final + g_initial, g_final + a_initial
                if have != want:
                    cols = plan.columns
                    lines += [f"{plan.name}: missing row {dict(zip(cols, r, strict=False))}" for r in (want - have).elements()]
                    lines += [f"{plan.name}: unexpected row {dict(zip(cols, r, strict=False))}" for r in (have - want).elements()]
                continue
            keys = a_keys | g_rows.keys()
            if not keys:
                continue
            actual = await _rows_by_key(db, plan, keys)
            untouched_by_golden = a_keys - g_rows.keys()
            expected_initial: dict[Any, tuple[Any, ...] | None] = {}
            if untouched_by_golden:
                expected_initial = await self.initial_rows(domain, task, plan, untouched_by_golden)
            for k in sorted(keys, key=repr):
                expected = g_rows[k] if k in g_rows else expected_initial.get(k)
                if actual.get(k) != expected:
                    lines.append(_row_line(plan, k, actual.get(k), expected))
            if plan.text and a_keys:
                lines += await self._text_edits(domain, task, db, plan, a_keys, golden.edited.get(plan.name, {}))
        return lines

    async def _text_edits(self, domain: Domain, task: Task, db: Database, plan: _TablePlan, keys: set[Any],
                          golden: dict[Any, frozenset[str]]) -> list[str]:
        """Free text the agent rewrote on an existing row where the golden path left it as it was."""
        start = await self._initial_cached(domain, task, f"{plan.name} text", keys, lambda db_, ks: _texts(db_, plan, ks))
        before = {k: v for k, v in start.items() if v is not None}
        if not before:
            return []
        return _extra_edits(plan, _edits(plan, before, await _texts(db, plan, set(before))), golden)

    async def initial_rows(
        self, domain: Domain, task: Task, plan: _TablePlan, keys: set[Any]
    ) -> dict[Any, tuple[Any, ...] | None]:
        """The compared columns of these keys' rows as the task starts (None: no such row).

        Cached per key: a task's initial state never changes, and an episode's changes
        mostly repeat across its trials, so most checks open no copy of the start."""
        return await self._initial_cached(domain, task, plan.name, keys, lambda db, ks: _rows_by_key(db, plan, ks))

    async def _initial_cached(self, domain: Domain, task: Task, name: str, keys: set[Any],
                              fetch: Callable[[Database, set[Any]], Awaitable[dict[Any, tuple[Any, ...]]]],
                              ) -> dict[Any, tuple[Any, ...] | None]:
        """`fetch` of these keys on the task's start (None: no such row), cached per key under `name`."""
        key = (id(domain), task.id, name)
        cached = self._initial_by_key.setdefault(key, {})
        missing = keys - cached.keys()
        known = {k: cached[k] for k in keys - missing}
        if not missing:
            return known
        initial = await self.backend.open_scratch(domain, task)
        try:
            found = await fetch(initial, missing)
        finally:
            await self.backend.close(initial)
        fresh = {k: found.get(k) for k in missing}
        if self._initial_entries + len(fresh) > INITIAL_CACHE_ENTRIES:  # an agent creating rows without end
            self._initial_by_key.clear()
            cached = self._initial_by_key[key] = dict(known)
            self._initial_entries = len(known)
        cached.update(fresh)
        self._initial_entries += len(fresh)
        return known | fresh

    async def check(
        self, domain: Domain, task: Task, db: Database, messages: list[dict[str, Any]]
    ) -> CheckResult:
        diff = await self.state_diff(domain, task, db)
        state_match = not diff
        results = [await self._assert(domain, task, db, a.kind, a.body, messages) for a in task.assertions]
        passed = state_match and all(r.passed for r in results)
        if task.rubrics:
            if self.judge is None:
                return CheckResult(None, state_match, diff, results, skipped="no_judge")
            verdicts = await self.judge.grade(task, messages)
            for q, ok in zip(task.rubrics, verdicts, strict=True):
                results.append(AssertionResult("rubric", ok, q))
            passed = passed and all(verdicts)
        return CheckResult(1.0 if passed else 0.0, state_match, diff, results)

    async def _assert(
        self, domain: Domain, task: Task, db: Database, kind: str, body: Any, messages: list[dict[str, Any]]
    ) -> AssertionResult:
        if kind == "response_contains":
            texts = agent_texts(messages, body.scope)
            missing = [f.fact for f in body.facts if not f.stated_in(texts)]
            stated = [f.fact for f in body.facts]
            return AssertionResult(
                kind, not missing, f"facts not stated in the {body.scope}: {missing}" if missing else f"stated {stated}"
            )
        if kind == "must_not_state":  # (what a question asking leave to act says would happen is no claim)
            texts = agent_texts(messages, body.scope, proposed=False)
            claimed = [w for f in body.facts if (w := f.wording_in(texts)) is not None]
            return AssertionResult(
                kind, not claimed, f"stated {claimed} ({body.why})" if claimed else "no false claim"
            )
        if kind == "outcome":
            siblings = [a.body for a in task.assertions if a.kind == "outcome"]
            texts = agent_texts(messages, body.scope, proposed=False)
            results = [m.get("content") or "" for m in messages if m.get("role") == "tool"]
            said = contradiction(texts, body.subject(siblings, results), body.stance)
            bystanders = body.bystanders(siblings)
            if said is None and bystanders is not None:  # nor say it was done to a record it was not
                said = contradiction(texts, bystanders, "not_done")
                if said:
                    return AssertionResult(kind, False, f"{said}, but it was not done to {list(bystanders.record)} ({body.why})")
            rows = _other_rows(task, body, siblings)
            if said is None and rows:  # nor to another row of its table, named ("order O-82016 was refunded")
                naming = [s for t in texts for s in re.split(r"(?<=[.!?])\s+", t) if any(r.lower() in s.lower() for r in rows)]
                covered = tuple(dict.fromkeys(n for o in siblings for n in [*o.record, *o.already]))
                said = contradiction(naming, Action(body.action, tuple(rows), covered, tuple(body.nouns), elsewhere=True),
                                     "not_done")
                if said:
                    return AssertionResult(kind, False, f"{said}, but it was not done to {rows} ({body.why})")
            return AssertionResult(
                kind, said is None, f"{said}, but it is {body.stance} ({body.why})" if said else f"no stance against {body.stance}"
            )
        if kind == "grounded":
            return await self._grounded(domain, task, body, messages)
        if kind == "must_not_disclose":
            said = messages
            if body.before is not None:
                b = body.before
                cut = next((c.index for c in tool_trace(messages) if c.ok and matches(c, b.name, b.arguments, b.mentions)), None)
                said = messages if cut is None else messages[: cut + 1]
            texts, heard = agent_texts(said), customer_lines(messages)
            # repeating what the customer said themselves discloses nothing to them
            leaked = [v for v in body.values if any(_discloses(t, v) for t in texts) and not any(contains_fact(h, v) for h in heard)]
            return AssertionResult(
                kind, not leaked, f"disclosed {leaked} ({body.why})" if leaked else "nothing protected disclosed"
            )
        if kind == "no_call":
            return _no_call(body, messages)
        if kind == "called":
            return _called(body, messages)
        if kind == "row_unchanged":
            return await self._unchanged(domain, task, db, body)
        count = await _count(db, body.table, body.where)
        if kind == "row_exists":
            assert isinstance(body, RowExists)
            return AssertionResult(kind, count >= 1, f"{body.table} where {body.where}: {count} row(s)")
        if kind == "row_absent":
            return AssertionResult(kind, count == 0, f"{body.table} where {body.where}: {count} row(s), expected 0")
        assert isinstance(body, RowCount)
        return AssertionResult(kind, count == body.count, f"{body.table} where {body.where}: {count}, expected {body.count}")

    async def _grounded(self, domain: Domain, task: Task, body: Grounded, messages: list[dict[str, Any]]) -> AssertionResult:
        # (ids and cards may also be the task's own rows': true, though no call of this episode read them)
        texts = agent_texts(messages, body.scope)
        sources = [m.get("content") or "" for m in messages if m.get("role") in ("system", "tool")]
        sources += customer_lines(messages) + [t.description or "" for t in domain.tools]
        sources += [f"${v:.2f}" for v in body.derived]
        known = Known.of(sources)
        # (a card only from the results or the customer: the policy's examples name none of theirs)
        cards = [m.get("content") or "" for m in messages if m.get("role") == "tool"] + customer_lines(messages)
        made_up = ungrounded(texts, sources, [task.golden_reply or ""], [_records_text(task)], known=known, cards=cards)
        if made_up:
            f = made_up[0]
            return AssertionResult("grounded", False, f"stated {f.kind} {f.value} that no tool, customer or policy gave "
                                   f"({f.text!r}; {body.why})")
        results = [m.get("content") or "" for m in messages if m.get("role") == "tool"]
        for f, role in misroled(texts, sources, known=known, movers=[*results, *customer_lines(messages), *(f"${v:.2f}" for v in body.derived)]):
            return AssertionResult("grounded", False, f"stated {f.value:.2f} as the {role}, which the tools, customer and "
                                   f"policy give as other amounts ({f.text!r}; {body.why})")
        # (a verification's record is no change of the customer's records)
        still = not any(c.ok and c.name in domain.write_tools and not c.name.startswith("verify")
                        for c in tool_trace(messages))
        for f, role in misdated(texts, results, still=still):
            return AssertionResult("grounded", False, f"stated {f.value} as the {role} date, which the tools give as "
                                   f"another ({f.text!r}; {body.why})")
        theirs = misattributed(texts, results)
        if theirs is not None:
            return AssertionResult("grounded", False, f"gave a record a figure the tools give as another's of the same kind "
                                   f"({theirs!r}; {body.why})")
        waits = unfounded_wait(texts, results)
        if waits:
            return AssertionResult("grounded", False, f"said {waits!r}, but nothing the tools returned waits on anyone "
                                   f"({body.why})")
        decision = misreported_decision(texts, results)
        if decision:
            return AssertionResult("grounded", False, f"said {decision!r}, but the approvals the tools returned went the "
                                   f"other way, or none was asked for ({body.why})")
        swapped = mislabeled_id(texts, results) or misbranded_card(texts, results)
        if swapped:
            return AssertionResult("grounded", False, f"said {swapped!r}, but the tools give that id or card as another "
                                   f"kind of record or brand ({body.why})")
        status = misreported_status(texts, results)
        if status:
            return AssertionResult("grounded", False, f"said {status!r}, but the tools last gave that record another "
                                   f"status ({body.why})")
        claim = unfounded_actions(texts, tool_trace(messages), domain.write_tools, results)
        if claim is not None:
            return AssertionResult("grounded", False, f"said it {claim.verb} ({claim.family or 'a change'}), but no call of "
                                   f"this episode did ({claim.text!r}; {body.why})")
        offer = unfounded_offer(texts, sources)
        if offer is not None:
            return AssertionResult("grounded", False, f"offered or stated {offer[0]} ({offer[1]!r}), which no tool, customer "
                                   f"or policy gave ({body.why})")
        if any(cue_starts(normalize(t), _NEW_CUES) for t in texts):
            # (a replaced value the change's own result also reports, as a charge or a refund, has a role of its own)
            current = {_field_text(v) for c in tool_trace(messages) if c.name in domain.write_tools
                       for k, v in _FIELD.findall(c.result) if not _OLD_KEY.search(k)}
            for old in await self.stale_values(domain, task):
                if old in current:
                    continue
                said = next((t for t in texts if contains_fact(t, old, NEW_WORDS, affirmed=True, owner=NEW_WORDS,
                                                           rivals=OLD_WORDS)), None)
                if said is not None:
                    return AssertionResult("grounded", False, f"stated {old}, the value before the change, as the new one "
                                           f"({said!r}; {body.why})")
        return AssertionResult("grounded", True, "every figure stated was given")

    async def stale_values(self, domain: Domain, task: Task) -> list[str]:
        """The values the golden path replaced (a balance before a payment, the dates before a
        change), as text: those no reply may give as the new ones. Numbers of 10 and more or
        with decimals, and dates; not a value the change also leaves somewhere (old check-out,
        new check-in)."""
        key = (id(domain), task.id)
        if key in self._stale:
            return self._stale[key]
        golden = await self.golden(domain, task)
        if golden.full:  # a backend that cannot say which rows changed: the embedded one can, on the same data
            if self._embedded is None:
                from tb_env.backends.sqlite import SQLiteBackend

                self._embedded = Checker(SQLiteBackend())
            self._stale[key] = await self._embedded.stale_values(domain, task)
            return self._stale[key]
        pairs: list[tuple[Any, Any]] = []
        for plan in _plans(domain):
            rows = golden.rows.get(plan.name)
            if not rows or plan.key_index is None:
                continue
            initial = await self.initial_rows(domain, task, plan, set(rows))
            for k, r in rows.items():
                o = initial.get(k)
                if o is not None and r is not None and o != r:
                    pairs += list(zip(o, r, strict=True))
        new = {_canon_any(n) for _, n in pairs}
        out = [v for v in dict.fromkeys(_stale_text(o) for o, n in pairs if o != n and _canon_any(o) not in new) if v]
        self._stale[key] = out
        return out

    async def _initial_row(self, domain: Domain, task: Task, table: str, key: Any) -> dict[str, Any] | None:
        """A row as the task starts (cached: the initial state never changes)."""
        cache_key = (id(domain), task.id, table, key)
        if cache_key not in self._initial:
            initial_db = await self.backend.open_scratch(domain, task)
            try:
                self._initial[cache_key] = await initial_db.get(table, key)
            finally:
                await self.backend.close(initial_db)
        return self._initial[cache_key]

    async def _unchanged(self, domain: Domain, task: Task, db: Database, body: RowUnchanged) -> AssertionResult:
        before = await self._initial_row(domain, task, body.table, body.id)
        after = await db.get(body.table, body.id)
        if before is None:
            return AssertionResult("row_unchanged", False, f"{body.table}[{body.id}] does not exist initially")
        cols = body.columns or list(before)
        changed = [c for c in cols if after is None or _canon_any(after.get(c)) != _canon_any(before.get(c))]
        return AssertionResult(
            "row_unchanged",
            not changed,
            f"{body.table}[{body.id}] changed {changed}" if changed else f"{body.table}[{body.id}] unchanged",
        )


_WHICH = re.compile(r"\bwhich (?:one|of)\b")  # "which one should I cancel?": a clarifying question whatever the topic


def _asked_at(topics: list[str], messages: list[dict[str, Any]]) -> int:
    """The index of the first customer answer to a question of the agent's naming one of
    `topics` (len(messages) if none)."""
    cues = [normalize(t) for t in topics]
    asked = False
    for i, m in enumerate(messages):
        role = m.get("role")
        if role == "assistant" and not asked:
            asked = any(cue_starts(normalize(q), cues) or _WHICH.search(q.lower()) for q in requests(m.get("content") or ""))
        elif role == "user" and asked and m.get("name") != ENV_NAME:
            return i
    return len(messages)


_STARTS_WITH = r"\b(?:starts?|begins?|beginning|starting)\s+with\W{0,3}"


def _discloses(text: str, value: str) -> bool:
    """Whether `text` states a protected value, or the part of it that gives it away: a phone number's last four, the
    first characters of a code or number said as how it starts ("the one on file starts with E913")."""
    if contains_fact(text, value):
        return True
    digits = re.sub(r"\D", "", value)
    if len(digits) >= 7 and not re.search(r"[A-Za-z]", value) and digits[-4:] in endings_said(text):
        return True  # "we can call you on the number ending 7265"
    code = value.strip().lstrip("+")
    return (re.fullmatch(r"[A-Za-z]*\d[\w-]{3,}", code) is not None
            and re.search(_STARTS_WITH + re.escape(code[:3]), text, re.IGNORECASE) is not None)


def _no_call(body: NoCall, messages: list[dict[str, Any]]) -> AssertionResult:
    trace = tool_trace(messages)
    if body.until_asked:
        answered = _asked_at(body.until_asked, messages)
        early = [c for c in trace if c.index < answered and matches(c, body.call.name, body.call.arguments, body.call.mentions)]
        if early:
            return AssertionResult("no_call", False, f"{early[0].name}{early[0].arguments} called before asking the "
                                   f"customer about {' / '.join(body.until_asked)} ({body.why})")
        return AssertionResult("no_call", True, f"asked about {' / '.join(body.until_asked)} before {body.call.label}")
    if body.before is not None:
        b = body.before
        cut = next((i for i, c in enumerate(trace) if c.ok and matches(c, b.name, b.arguments, b.mentions)), len(trace))
        trace = trace[:cut]
    gate = body.before.name if body.before else None  # a verification attempt is never the forbidden call
    made = [c for c in trace if c.name != gate and matches(c, body.call.name, body.call.arguments, body.call.mentions)]
    when = f" before a successful {body.before.label}" if body.before else ""
    if made:
        return AssertionResult("no_call", False, f"{made[0].name}{made[0].arguments} called{when} ({body.why})")
    return AssertionResult("no_call", True, f"no {body.call.label}{when}")


def _called(body: Called, messages: list[dict[str, Any]]) -> AssertionResult:
    trace = tool_trace(messages)
    if body.before is not None:
        b = body.before
        trace = trace[: next((i for i, c in enumerate(trace) if matches(c, b.name, b.arguments, b.mentions)), len(trace))]
    when = f" before {body.before.label}" if body.before else ""
    if any(c.ok and matches(c, body.call.name, body.call.arguments, body.call.mentions) for c in trace):
        return AssertionResult("called", True, f"{body.call.label} called{when}")
    return AssertionResult("called", False, f"no successful {body.call.label}{when} ({body.why})")


# words that give a value as the one that holds now ("your new balance", "is now", "updated to"),
# and those that give it as the one before ("was", "previously", "from")
NEW_WORDS = ["new", "now", "updated", "changed to", "moved to", "raised to", "lowered to", "reduced to", "increased to",
             "going forward", "from now on"]
OLD_WORDS = ["was", "were", "previous", "previously", "old", "before", "from", "originally", "prior", "used to", "had been",
             "replacing", "replaces", "instead of", "in place of"]
_NEW_CUES = [normalize(w) for w in NEW_WORDS]
_ISO_VALUE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CODE = re.compile(r"^(?=[^ ]*\d)[\w/.-]{3,12}$")


# a field of a tool result ("amount": 554.0, "check_in": "2027-01-18") and the keys that name a value before a change
_FIELD = re.compile(r'"([a-z_]+)"\s*:\s*"?(\d{4}-\d{2}-\d{2}|-?\d+(?:\.\d+)?)')
_OLD_KEY = re.compile(r"old|previous|original|prior|before|was")


def _field_text(v: str) -> str:
    """A result's field value as `_stale_text` writes it."""
    return v if "-" in v[1:] else (_stale_text(float(v)) or v)


def _stale_text(v: Any) -> str | None:
    """A replaced value as a fact a reply could state: a date, or an amount (10 and more, or
    with decimals: a quantity of 2 is said too often to be read as anything)."""
    if isinstance(v, str) and (_ISO_VALUE.match(v.strip()) or _CODE.match(v.strip())):
        return v.strip()  # a date, or a short code with a number in it ("250/500" limits)
    if isinstance(v, bool) or not isinstance(v, int | float):
        return None
    if float(v) == int(v):
        return str(int(v)) if abs(v) >= 10 else None
    return f"{float(v):.2f}"


def _canon_any(v: Any) -> Any:
    if isinstance(v, float | int) and not isinstance(v, bool):
        return round(float(v), 6)
    return v


async def _count(db: Database, table: str, where: dict[str, Any]) -> int:
    t = db.table(table)
    unknown = set(where) - set(t.c.keys())
    if unknown:
        raise TaskValidationError(f"assertion on {table!r} names unknown column(s) {sorted(unknown)}")
    conds, params = [], {}
    for i, (col, val) in enumerate(where.items()):
        if val is None:
            conds.append(f"{col} IS NULL")
        else:
            conds.append(f"{col} = :p{i}")
            params[f"p{i}"] = val
    sql = f"SELECT COUNT(*) AS n FROM {table}" + (" WHERE " + " AND ".join(conds) if conds else "")
    return int(await db.scalar(sql, **params) or 0)


def _other_rows(task: Task, outcome: Outcome, siblings: list[Outcome]) -> list[str]:
    """The ids of the other rows of the outcome's record's table in the task's own rows that no outcome
    names (as its record, its others or done before): a reply naming one as done to is false whether or
    not the task file listed it. Only a sentence naming one is held to it ("both fees are refunded" is
    about the two that were)."""
    tables = [[str(r["id"]) for r in rows if isinstance(r, dict) and "id" in r]
              for rows in (task.initial_patch or {}).values() if isinstance(rows, list)]
    ids = next((t for t in tables if set(outcome.record) & set(t)), [])
    named = {n for o in siblings for n in [*o.record, *o.others, *o.already]}
    return [r for r in ids if r not in named]


def _records_text(task: Task) -> str:
    """The task's own rows as text, where a reply's ids and cards may also come from (`figures` keeps the
    last few texts it read, so a task's rows are parsed again only when other texts pushed them out)."""
    return json.dumps(task.initial_patch or {}, default=str, sort_keys=True)
