"""Tasks are data: typed models loaded from YAML or JSON files beside the domain.

A task file holds one task (a mapping) or several (a list, or a mapping with a `tasks`
list). Field names are contracts (DESIGN.md, the core issue): `id`, `split`,
`eval_only`, `user`, `initial_patch`, `golden_actions`, `golden_reply`, `assertions`,
`wrong_paths`, `rubrics`, `tags`. Schema errors name the file, the task and the field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from tb_env.errors import TaskFileError

WRONG_PATH_TAGS = ("wrong_entity", "skipped_approval", "extra_write", "wrong_amount", "missing_step", "wrong_reply")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolCall(_Model):
    """One call of a tool by name, with JSON arguments."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class UserScenario(_Model):
    """What the simulated customer knows and wants."""

    persona: str
    goal: str
    known_facts: dict[str, Any] = Field(default_factory=dict)
    first_message: str
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


class ResponseContains(_Model):
    """Facts the agent must state to the user (normalised, case-insensitive).

    A fact may be a list of alternative wordings (`[non-refundable, nonrefundable]`):
    any one of them counts."""

    facts: list[str | list[str]]
    final_only: bool = False  # only the last assistant message counts


class Assertion(_Model):
    row_exists: RowExists | None = None
    row_absent: RowAbsent | None = None
    row_unchanged: RowUnchanged | None = None
    row_count: RowCount | None = None
    response_contains: ResponseContains | None = None

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


class _Loader(yaml.SafeLoader):
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
