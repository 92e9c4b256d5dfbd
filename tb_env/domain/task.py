"""Tasks are data: typed models loaded from YAML or JSON files beside the domain.

A task file holds one task (a mapping) or several (a list, or a mapping with a `tasks`
list). Field names are contracts (DESIGN.md, the core issue): `id`, `split`,
`eval_only`, `user`, `initial_patch`, `golden_actions`, `golden_reply`, `assertions`,
`wrong_paths`, `rubrics`, `tags`. Schema errors name the file, the task and the field.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tb_env.domain.normalize import contains_fact
from tb_env.domain.stance import Action, is_cue, same_action, shown_pending
from tb_env.errors import TaskFileError

WRONG_PATH_TAGS = ("wrong_entity", "skipped_approval", "extra_write", "wrong_amount", "missing_step", "wrong_reply")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolCall(_Model):
    """One call of a tool by name, with JSON arguments."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class UserScenario(_Model):
    """What the simulated customer knows and wants: facts and goals, not lines to say.

    `known_facts` are what the customer can tell when asked (identity details, which
    order or booking, dates, amounts, preferences); a choice the expected state depends
    on must be one of them, or the check must accept every choice the policy allows.
    `wants` and `declines` steer the deterministic user's answers to proposals: terms
    (ids, amounts, action words) of what it asked for and of what it does not want. Left
    empty, they are read off the golden writes and the wrong paths."""

    persona: str
    goal: str
    known_facts: dict[str, Any] = Field(default_factory=dict)
    first_message: str
    wants: list[str] | None = None
    declines: list[str] | None = None
    # lines for the old fixed-order user (`user="lines"`); the default user ignores them
    scripted_turns: list[str] = Field(default_factory=list)
    instructions: str | None = None  # extra guidance for an LLM user (what to insist on)


# -- assertions: each is a one-key mapping in the file, e.g. {row_exists: {...}} ----------


class RowExists(_Model):
    """A row matching `where` exists (and, with `count`, exactly that many)."""

    table: str
    where: dict[str, Any]


class RowAbsent(_Model):
    """No row matches `where`."""

    table: str
    where: dict[str, Any]


class RowUnchanged(_Model):
    """The row keeps its initial values (all columns, or the listed ones)."""

    table: str
    id: Any
    columns: list[str] | None = None


class RowCount(_Model):
    table: str
    where: dict[str, Any] = Field(default_factory=dict)
    count: int


class Fact(_Model):
    """One thing the agent must tell the customer, matched however it is written.

    `fact` and each of `aliases` are compared after normalisation (`tb_env.domain.normalize`:
    number words, money and date formats, hyphens, plurals), so aliases are only for
    wordings that really differ ("escalated" / "passed to a specialist"). `why` names the
    policy rule or the customer's question that makes the fact required."""

    fact: str
    aliases: list[str] = Field(default_factory=list)
    why: str | None = None
    # words of the fact's role, one of which must stand near it in the same clause
    # ("refund", "back" for the amount refunded), where two facts could swap places
    near: list[str] = Field(default_factory=list)
    # a fact right after a negation ("couldn't close", "not approved", "couldn't set
    # 22:00") does not count, unless it names what is missing or refused ("doesn't
    # include collision coverage", "can't waive the $25"): then set this
    may_be_negated: bool = False
    # where a reply lists several things (two products, a check-in and a check-out date), the
    # names of the thing this value belongs to, and of the others: the nearest name must be its own
    owner: list[str] = Field(default_factory=list)
    rivals: list[str] = Field(default_factory=list)
    # other values that state the same thing, each in its own role: the new annual premium
    # "near" premium, or the prorated change "near" charge / refund. Unlike an alias, each
    # keeps its own `near` / `owner`, so one amount said in another's role still fails
    alternatives: list[Fact] = Field(default_factory=list)
    # names that must not stand in the same text for it to count: a bare answer that names only
    # this one of several ("Harbor Inn, $129 a night" answers which hotel is cheapest; a list does not)
    alone: list[str] = Field(default_factory=list)

    @field_validator("fact", mode="before")
    @classmethod
    def _text(cls, v: Any) -> Any:
        return str(v) if isinstance(v, int | float) and not isinstance(v, bool) else v

    @field_validator("aliases", mode="before")
    @classmethod
    def _texts(cls, v: Any) -> Any:
        return [str(a) if isinstance(a, int | float) and not isinstance(a, bool) else a for a in v] if isinstance(v, list) else v

    @property
    def wordings(self) -> list[str]:
        return [self.fact, *self.aliases]

    @property
    def every_wording(self) -> list[str]:
        """Its wordings and its alternatives': all the ways a reply may state it."""
        return [*self.wordings, *(w for alt in self.alternatives for w in alt.every_wording)]

    def stated_in(self, texts: list[str]) -> bool:
        """Whether any of `texts` states this fact: one of its wordings in its role, or one of
        its alternatives in theirs (said of its owner, or in a sentence that names nothing after
        one that named its owner last: "I found your JetBrains seat. It has been released.")."""
        return self.wording_in(texts, carry=True) is not None

    def wording_in(self, texts: list[str], carry: bool = False) -> str | None:
        """The first of its wordings (or its alternatives') that one of `texts` states: what a
        failure names, so a forbidden claim is reported as it was said."""
        texts = [t for t in texts if not any(contains_fact(t, other) for other in self.alone)]
        for w in self.wordings:
            if any(contains_fact(t, w, self.near, affirmed=not self.may_be_negated, owner=self.owner, rivals=self.rivals,
                                 carry=carry)
                   for t in texts):
                return w
        return next((found for alt in self.alternatives if (found := alt.wording_in(texts, carry)) is not None), None)


Scope = Literal["answer", "final", "any"]


class ResponseContains(_Model):
    """Facts the agent must state to the customer.

    `scope` says where: `answer` (the default) is what the agent states once it has
    started working (from its first tool call on), its questions left out, so a word in
    a question ("can you verify ...?") is not an answer while a result reported along
    the way is; `final` is the last assistant message only; `any` is every assistant
    message. A fact written as a list is a fact with aliases."""

    facts: list[Fact]
    scope: Scope = "answer"

    @model_validator(mode="before")
    @classmethod
    def _shorthands(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if "final_only" in data:  # the old flag
            data["scope"] = "final" if data.pop("final_only") else data.get("scope", "any")
        facts = data.get("facts")
        if isinstance(facts, list):
            data["facts"] = [
                {"fact": f[0], "aliases": f[1:]} if isinstance(f, list) and f else {"fact": f} if not isinstance(f, dict) else f
                for f in facts
            ]
        return data


class MustNotDisclose(_Model):
    """Values the agent must never say to this caller: another person's data, an
    account's details before its owner was verified. Checked over every assistant
    message, each value in any wording the normaliser folds together; with `before`, only
    over those up to the first successful call matching it (a value that is the caller's
    own once verified: "the zip on file is 85004" to a caller who has not proved it yet)."""

    values: list[str]
    why: str
    before: CallPattern | None = None

    @field_validator("values", mode="before")
    @classmethod
    def _texts(cls, v: Any) -> Any:
        return [str(x) for x in v] if isinstance(v, list) else v


class MustNotState(_Model):
    """Claims the agent must not make: that something was done which was not (a leave
    booked when the balance was short, a refund issued that awaits approval), or a value in
    a role it does not have (a revoked role as held). Each fact is matched as in
    `response_contains` (its wordings, `near`, `owner`/`rivals`, and never after a
    negation, so "I couldn't book it" is not the claim), in `scope`."""

    facts: list[Fact]
    why: str
    scope: Scope = "answer"

    def example(self) -> str:
        """A sentence making the first claim, for the `claim` probe."""
        f = self.facts[0]
        return " ".join([*f.owner[:1], *f.near[:1], f.fact]).strip() + "."


_RECORD_ID = re.compile(r"^[A-Z][A-Z0-9]*-[A-Z0-9][A-Z0-9-]*$")


def _records_named(names: list[str]) -> int:
    """How many records an outcome's names stand for, at least one: its ids of one kind (two licences
    "LP-PROJ", "LP-JETB"; a booking's hotel id, "BK-5176" and "H-0077", is the same stay), or its proper names
    that share no word (two products, "Down Comforter Queen" and "Portable SSD 1TB"; not one hotel's aliases,
    "Harbor & Vine Central Station" and "Central Station")."""
    kinds = Counter(n.split("-")[0] for n in names if _RECORD_ID.match(n))
    groups: list[set[str]] = []
    for n in names:
        if _RECORD_ID.match(n) or not re.search(r"[A-Z]", n):
            continue  # an id, or a generic word ("your order")
        words = {w for w in re.findall(r"[a-z0-9]{3,}", n.lower()) if not w.isdigit()}
        joined = [g for g in groups if g & words]
        groups = [g for g in groups if not g & words] + [words.union(*joined)]
    return max(1, *kinds.values(), len([g for g in groups if g]))


_ISO = re.compile(r"\b\d{4}-(\d{2})-\d{2}\b")
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december")


def _with_months(names: list[str], mine: list[str]) -> list[str]:
    """`names` and the month of each date among them that no date of `mine` shares ("the late fee on
    your September instalment was waived" names the invoice due 2026-09-12, not this one)."""
    own = {m.group(1) for n in mine for m in _ISO.finditer(n)}
    if not own:
        return names  # (this record's month unknown: a month named may be its own)
    months = [_MONTH_NAMES[int(m.group(1)) - 1] for n in names for m in _ISO.finditer(n) if m.group(1) not in own]
    return [*names, *dict.fromkeys(m for m in months if m != "may")]  # ("may" is a verb too)


class Outcome(_Model):
    """How one action the customer asked for ended, from the golden path: `done`, `refused`,
    `pending` (waiting on someone: a manager's approval, the carrier) or `not_done` (nothing
    was asked, or it was refused and handed on). The reply must take no stance the outcome
    contradicts (`tb_env.domain.stance`): a refund issued said as "couldn't refund" or
    "pending approval", a cancellation refused said as "I've cancelled it". `record`: the
    names of the record it was done to; `others`: those of other records the reply may name
    ("your other order O-2 was not cancelled" is about O-2); `nouns`: more nouns of the action
    than the vocabulary knows ("reservation" for "book" is known)."""

    action: str
    stance: Literal["done", "refused", "pending", "not_done"]
    record: list[str] = Field(default_factory=list)
    others: list[str] = Field(default_factory=list)
    nouns: list[str] = Field(default_factory=list)
    # names among `others` of what this action was done to apart from this outcome: before the
    # episode (a leave approved last month, a seat a colleague holds) or by a write no outcome
    # covers (a note added beside a refused car): the reply may say so
    already: list[str] = Field(default_factory=list)
    why: str
    scope: Scope = "answer"

    @field_validator("record", "others", "already", mode="before")
    @classmethod
    def _names(cls, v: Any) -> Any:
        return [str(x) for x in v] if isinstance(v, list) else v

    def subject(self, siblings: list[Outcome] | tuple[()] = (), results: list[str] | tuple[()] = ()) -> Action:
        """The action as the matcher sees it. A sentence that names no record is about this
        one, unless it could be about another: where the same action has another outcome on
        another record among `siblings` (one stay credited, the other refused), or where this one was
        not done to it because it was done to another (`not_done` with `others`, and the action
        done to one of them now or before the call: "I've closed the claim" may be about the
        other claim then, and is false when nothing was closed). Where another
        action on the same record (its id first) is `pending`, this one done may be said waiting
        ("LR-9001 is booked; it's pending approval")."""
        ambiguous = any(o.action == self.action and o.record != self.record and o.stance != self.stance for o in siblings)
        # not done to this record: an unnamed report may be about another it was done to (now or before)
        done_to_another = bool(self.already) or any(
            o is not self and same_action(o.action, self.action) and o.stance in ("done", "pending") for o in siblings)
        waits = any(o.stance == "pending" and o.action != self.action and o.record[:1] == self.record[:1] != []
                    for o in siblings)
        return Action(self.action, tuple(self.record), tuple(_with_months(self.others, self.record)), tuple(self.nouns),
                      elsewhere=ambiguous or (self.stance == "not_done" and bool(self.others) and done_to_another),
                      waits=waits, others_wait=any(o is not self and o.stance == "pending" for o in siblings),
                      shown_pending=self.stance == "done" and shown_pending(self.record, list(results)))

    def bystanders(self, siblings: list[Outcome]) -> Action | None:
        """The other records the reply may name that this action was done to by no outcome
        (nor `already`, before the episode): it was not done to them, so "Gideon has been
        removed too" or "both of your cards are unfrozen" is false whatever the outcome on this
        record says. Given once per action (on its first outcome among `siblings`), None where
        every record named has an outcome; cue words among the `others` ("once") are no records."""
        same = [o for o in siblings if same_action(o.action, self.action)]
        if same and same[0] is not self:
            return None
        covered = {n for o in same or [self] for n in [*o.record, *o.already]}
        rest = tuple(dict.fromkeys(n for o in same or [self] for n in o.others if n not in covered and not is_cue(n)))
        if not rest:
            return None
        done_to = sum(_records_named(o.record) for o in same or [self])
        return Action(self.action, rest, tuple(covered), tuple(self.nouns), elsewhere=True, done_to=done_to)


class Grounded(_Model):
    """Every figure the agent states came from the episode (`tb_env.domain.figures`): each
    money amount, count of days / nights / points / ... and date of its answer is one a tool
    returned, the customer said or the policy states, or one step of arithmetic on those (a
    sum, a difference, a multiple by a count, a percentage, the nights between two dates).
    "$50.00 a day" when the rate was $45.00 and "30 rental days" for three are made up.
    And no value the golden path changed is said, in its old form, to be the new one ("your
    balance is now 3,715.50" when that was the balance before the payment)."""

    why: str
    scope: Scope = "answer"
    # amounts the policy has the agent work out in more than one step (a budget's headroom:
    # limit - spent - price), which the one-step arithmetic would call made up
    derived: list[float] = []


class CallPattern(_Model):
    """A tool call: of `name` (any tool when left out), whose arguments include `arguments`
    and, among their values, every one of `mentions` (all compared as trimmed, case-folded
    text). `{mentions: [E-1042]}` is any call about employee E-1042, whatever the tool."""

    name: str | None = None
    arguments: dict[str, Any] = Field(default_factory=dict)
    mentions: list[str] = Field(default_factory=list)

    @property
    def label(self) -> str:
        what = self.name or "a call"
        return what + (f"{self.arguments}" if self.arguments else "") + (f" naming {self.mentions}" if self.mentions else "")


class NoCall(_Model):
    """The agent made no call matching `call`, or none before the first successful call
    matching `before`. Only where the policy makes an order or a precondition matter
    (reading a protected record before a successful verification). A call the tool
    refused still counts: the attempt to read what the caller may not see is the breach.

    `until_asked` (topic words, "address"): no such call before the agent has asked the
    customer a question naming one of them and heard the answer, for a choice the policy
    says to ask about rather than guess (which saved address, which booking). "Shall I
    send it to your work address?" is such a question (the customer confirms or corrects),
    and so is "which one?" or "which of them?" (after the agent listed them)."""

    call: CallPattern
    before: CallPattern | None = None
    until_asked: list[str] = Field(default_factory=list)
    # what the oracle asks to meet `until_asked` (default: "which <first topic> ...?")
    ask: str | None = None
    why: str

    def question(self) -> str:
        return self.ask or f"Before I go ahead: which {self.until_asked[0]} would you like?"


class Called(_Model):
    """The agent made a successful call matching `call` (before its first call matching
    `before`, where given): the read a policy requires before a decision ("check segregation
    of duties first", "use quote_stay to see the rate and cap before booking"). A refusal or
    a booking that happens to be right, made without it, shows the agent never looked."""

    call: CallPattern
    before: CallPattern | None = None
    why: str


class Assertion(_Model):
    row_exists: RowExists | None = None
    row_absent: RowAbsent | None = None
    row_unchanged: RowUnchanged | None = None
    row_count: RowCount | None = None
    response_contains: ResponseContains | None = None
    must_not_disclose: MustNotDisclose | None = None
    must_not_state: MustNotState | None = None
    outcome: Outcome | None = None
    grounded: Grounded | None = None
    no_call: NoCall | None = None
    called: Called | None = None

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: Any) -> Any:
        # `response_contains: [a, b]` is short for `{facts: [a, b]}`
        if isinstance(data, dict) and isinstance(data.get("response_contains"), list):
            data = {**data, "response_contains": {"facts": data["response_contains"]}}
        return data

    @model_validator(mode="after")
    def _exactly_one(self) -> Assertion:
        set_ = [k for k in type(self).model_fields if getattr(self, k) is not None]
        if len(set_) != 1:
            raise ValueError(f"an assertion has exactly one kind, got {set_ or 'none'}")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in type(self).model_fields if getattr(self, k) is not None)

    @property
    def body(self) -> Any:
        return getattr(self, self.kind)


class WrongPath(_Model):
    """The golden path with exactly one tagged mutation; it must score 0."""

    tag: Literal[WRONG_PATH_TAGS]  # type: ignore[valid-type]
    append: list[ToolCall] | None = None  # calls added after the golden ones
    drop: list[int] | None = None  # indices of golden calls left out
    replace: dict[int, ToolCall] | None = None  # index -> the call made instead
    reply: str | None = None  # a final reply said instead of the golden one
    note: str | None = None

    @model_validator(mode="after")
    def _one_mutation(self) -> WrongPath:
        kinds = [k for k in ("append", "drop", "replace", "reply") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError(f"a wrong path has exactly one mutation (append, drop, replace or reply), got {kinds}")
        return self

    def actions(self, golden: list[ToolCall]) -> list[ToolCall]:
        calls = list(golden)
        if self.replace:
            for i, call in self.replace.items():
                calls[i] = call
        if self.drop:
            calls = [c for i, c in enumerate(calls) if i not in set(self.drop)]
        if self.append:
            calls += self.append
        return calls


class Task(_Model):
    """One scenario of a domain: who the user is, where the data starts, what must end true."""

    id: str
    split: Literal["train", "test"]
    eval_only: bool = False
    user: UserScenario
    initial_patch: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    golden_actions: list[ToolCall] = Field(default_factory=list)
    golden_reply: str | None = None
    assertions: list[Assertion] = Field(default_factory=list)
    wrong_paths: list[WrongPath] = Field(min_length=1)
    rubrics: list[str] = Field(default_factory=list)
    tags: dict[str, Any] = Field(default_factory=dict)
    source: str | None = Field(default=None, exclude=True)  # the file it came from

    @field_validator("id")
    @classmethod
    def _id_form(cls, v: str) -> str:
        if v.count("/") < 1 or not v.split("/", 1)[0] or not v.split("/", 1)[1]:
            raise ValueError("task ids have the form '<domain>/<name>'")
        return v

    @model_validator(mode="after")
    def _indices_in_range(self) -> Task:
        n = len(self.golden_actions)
        for wp in self.wrong_paths:
            bad = [i for i in [*(wp.drop or []), *(wp.replace or {})] if not 0 <= i < n]
            if bad:
                raise ValueError(f"wrong path {wp.tag!r} names golden call indices {bad} outside 0..{n - 1}")
        return self

    @property
    def domain(self) -> str:
        return self.id.split("/", 1)[0]

    @property
    def name(self) -> str:
        return self.id.split("/", 1)[1]


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's parser: 15 MB of tasks load ~10x faster
    """Safe YAML without implicit timestamps: `2026-12-04` stays the string the
    database stores, not a `datetime.date` that tools and checks would disagree on."""


_Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in rs if tag != "tag:yaml.org,2002:timestamp"]
    for ch, rs in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _read(path: Path) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TaskFileError(str(path), None, None, f"not UTF-8 text: {exc}") from None
    try:
        return json.loads(text) if path.suffix == ".json" else yaml.load(text, Loader=_Loader)
    except (yaml.YAMLError, json.JSONDecodeError) as exc:
        raise TaskFileError(str(path), None, None, f"not valid {path.suffix[1:].upper()}: {exc}") from None


def load_task_file(path: str | Path, domain: str | None = None) -> list[Task]:
    """All tasks in one file, each checked against the schema (errors name the field)."""
    path = Path(path)
    data = _read(path)
    if isinstance(data, dict) and "tasks" in data and "id" not in data:
        data = data["tasks"]
    items = data if isinstance(data, list) else [data]
    tasks = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise TaskFileError(str(path), None, f"[{i}]", "each task must be a mapping")
        tid = item.get("id") if isinstance(item.get("id"), str) else None
        try:
            task = Task.model_validate({**item, "source": str(path)})
        except ValidationError as exc:
            err = exc.errors(include_url=False)[0]
            loc = ".".join(str(p) for p in err["loc"])
            raise TaskFileError(str(path), tid, loc or None, err["msg"]) from None
        if domain is not None and task.domain != domain:
            raise TaskFileError(str(path), task.id, "id", f"task id must start with '{domain}/'")
        tasks.append(task)
    return tasks


def load_task_dir(directory: str | Path, domain: str | None = None) -> list[Task]:
    """Every task under a folder (recursively, *.yaml / *.yml / *.json, in name order)."""
    directory = Path(directory)
    files = sorted(p for ext in ("*.yaml", "*.yml", "*.json") for p in directory.rglob(ext))
    tasks: list[Task] = []
    seen: dict[str, str] = {}
    for f in files:
        for t in load_task_file(f, domain):
            if t.id in seen:
                raise TaskFileError(str(f), t.id, "id", f"duplicate task id (also in {seen[t.id]})")
            seen[t.id] = str(f)
            tasks.append(t)
    return tasks
