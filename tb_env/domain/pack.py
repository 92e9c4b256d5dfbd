"""A domain: the backend an agent works on, as one folder you can read top to bottom.

A domain pack is a Python package folder (`tasks/<name>/` for the built-ins) whose
`__init__.py` defines `domain = Domain(...)` from its parts:

- `schema.py`: SQLAlchemy 2 declarative models. Column `info={"volatile": True}` marks a
  column the state check ignores (free text, timestamps); table `info={"checked": False}`
  leaves a whole table out of the check (logs, caches). A volatile *primary key* (ids
  generated in call order) makes that table compare as an unordered multiset of rows.
- `seed.py`: a deterministic function returning the base rows, `{table: [row, ...]}`.
- `policy.md`: the rules the agent must follow; it is the system prompt.
- `tools.py`: the tools, `@read` / `@write` async functions (see `tb_env.domain.tool`).
- `tasks/`: the tasks, as YAML or JSON files (see `tb_env.domain.task`).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import sqlalchemy as sa

from tb_env.domain.task import Task, load_task_dir
from tb_env.domain.tool import END_CONVERSATION, Tool
from tb_env.errors import ConfigError, DomainError, UnknownTaskError

Rows = dict[str, list[dict[str, Any]]]


def gym_name(domain: str) -> str:
    """`auto_insurance` -> `AutoInsurance` (the `tb_env/<Name>-v0` part of the gym id)."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[_\-\s]+", domain) if part)


@dataclass(eq=False)
class Domain:
    """Everything tb-env needs to run episodes of one business domain."""

    name: str
    metadata: sa.MetaData
    seed: Callable[[], Rows]
    policy: str
    tools: list[Tool]
    tasks_dir: Path | None = None
    now: str = "2026-11-30T12:00:00Z"  # the domain clock, fixed so replays agree
    title: str | None = None
    extra_tasks: list[Task] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9_]*", self.name):
            raise DomainError(f"domain name {self.name!r} must be lower_snake_case (letters, digits, _)")
        names = [t.name for t in self.tools]
        dupes = {n for n in names if names.count(n) > 1}
        if dupes:
            raise DomainError(f"domain {self.name!r} defines tool(s) {sorted(dupes)} twice")
        if END_CONVERSATION in names:
            raise DomainError(f"domain {self.name!r}: {END_CONVERSATION!r} is built in; do not define it")
        if not self.policy.strip():
            raise DomainError(f"domain {self.name!r} has an empty policy document")
        for table in self.metadata.sorted_tables:
            if len(table.primary_key.columns) != 1:
                raise DomainError(f"domain {self.name!r}: table {table.name!r} needs a single-column primary key")
        self.tools_by_name = {t.name: t for t in self.tools}
        self.write_tools = frozenset(t.name for t in self.tools if t.writes)  # the tools that change state

    @property
    def gym_id(self) -> str:
        return f"tb_env/{self.title or gym_name(self.name)}-v0"

    @functools.cached_property
    def tasks(self) -> dict[str, Task]:
        """The domain's tasks by id, loaded (and schema-checked) on first use."""
        loaded = load_task_dir(self.tasks_dir, self.name) if self.tasks_dir else []
        out: dict[str, Task] = {}
        for t in [*loaded, *self.extra_tasks]:
            if t.id in out:
                raise DomainError(f"domain {self.name!r}: duplicate task id {t.id!r}")
            out[t.id] = t
        return out

    def task(self, task_id: str) -> Task:
        try:
            return self.tasks[task_id]
        except KeyError:
            close = [t for t in self.tasks if task_id.split("/")[-1] in t]
            hint = f"Did you mean {close[0]!r}?" if close else f"Domain {self.name!r} has {len(self.tasks)} tasks."
            raise UnknownTaskError(task_id, hint) from None

    def episode_type(self) -> type | None:
        """The `Episode` class that runs this domain's episodes, for a domain whose tools and
        reward live in an external server (`tb_env.thinkingbox.domain.ThinkingBoxDomain`).
        None means the core's own, over a database copy and in-process tools: the core
        resolves it (`tb_env.core.episode.episode_class`), so this layer never imports it."""
        return None

    def checked_tables(self) -> list[sa.Table]:
        return [t for t in self.metadata.sorted_tables if t.info.get("checked", True)]


def collect_tools(namespace: dict[str, Any] | ModuleType) -> list[Tool]:
    """The `Tool` objects of a module, in definition order."""
    items: Iterable[Any] = (vars(namespace) if isinstance(namespace, ModuleType) else namespace).values()
    return [v for v in items if isinstance(v, Tool)]


def load_domain_module(module: ModuleType) -> Domain:
    dom = getattr(module, "domain", None) or getattr(module, "DOMAIN", None)
    if callable(dom) and not isinstance(dom, Domain):
        dom = dom()
    if not isinstance(dom, Domain):
        raise DomainError(
            f"domain pack {module.__name__!r} ({getattr(module, '__file__', '?')}) must define "
            "`domain = tb_env.Domain(...)` in its __init__.py"
        )
    return dom


def load_domain_path(path: str | Path) -> Domain:
    """Import a domain pack from a folder (its `__init__.py`), wherever it lives."""
    folder = Path(path).resolve()
    init = folder / "__init__.py"
    if not init.is_file():
        raise DomainError(f"{folder} is not a domain pack: it has no __init__.py defining `domain = Domain(...)`")
    modname = f"tb_env_packs.{re.sub(r'[^0-9a-zA-Z_]', '_', folder.name)}"
    if "tb_env_packs" not in sys.modules:
        sys.modules["tb_env_packs"] = ModuleType("tb_env_packs")
    spec = importlib.util.spec_from_file_location(modname, init, submodule_search_locations=[str(folder)])
    if spec is None or spec.loader is None:  # pragma: no cover
        raise DomainError(f"cannot import a domain pack from {folder}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    try:
        spec.loader.exec_module(module)
        domain = load_domain_module(module)
        domain.tasks  # noqa: B018 - a malformed task file fails the load, not a later reset
        return domain
    except Exception as exc:
        # nothing half-registered: the pack's modules leave sys.modules with it
        for name in [m for m in sys.modules if m == modname or m.startswith(modname + ".")]:
            sys.modules.pop(name, None)
        if isinstance(exc, ConfigError):
            raise
        raise DomainError(f"importing the domain pack at {folder} failed: {type(exc).__name__}: {exc}") from exc


def load_domain_import(name: str) -> Domain:
    """Import a domain pack by module name (`tb_env.tasks.retail`, `my_pack`)."""
    try:
        module = importlib.import_module(name)
    except ImportError as exc:
        raise DomainError(f"cannot import domain pack module {name!r}: {exc}") from exc
    return load_domain_module(module)
