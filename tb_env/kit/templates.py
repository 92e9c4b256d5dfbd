"""A domain's task templates: register them, generate k instances each, write the YAML, validate.

    templates = Templates("retail", HERE / "tasks", pool=make_pool)

    @templates.template("cancel a not-yet-shipped order; another open order must stay")
    def cancel_unshipped(s: RetailScene, n: int) -> TaskSpec:
        ...

    if __name__ == "__main__":
        raise SystemExit(templates.main())

`main` writes `tasks/<split>/gen_<template>.yaml` (deterministic: each instance gets
`random.Random("<template>/<split>/<n>")`, ids come from the split's `Pool`), `--check`
reports whether the committed files are current, `--validate` runs `tb-env validate`'s
contract and metamorphic probes on the generated tasks. Hand-written YAML files beside
the generated ones are left alone.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tb_env.domain.task import Task
from tb_env.kit.scene import Pool, Scene
from tb_env.kit.spec import TaskSpec

SPLITS = ("test", "train")
DEFAULT_COUNTS = {"test": 4, "train": 2}


@dataclass
class Template:
    name: str
    fn: Callable[[Any, int], TaskSpec]
    description: str
    counts: dict[str, int]


class _Dumper(yaml.SafeDumper):
    """Block style for a task's structure, one flow line per row, call and assertion; no anchors."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


class _Flow(dict):  # type: ignore[type-arg]
    """A mapping written on one line."""


class _FlowList(list):  # type: ignore[type-arg]
    """A list written on one line."""


_Dumper.add_representer(_FlowList, lambda d, data: d.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True))
_Dumper.add_representer(_Flow, lambda d, data: d.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True))


def _flow_wrong(w: dict[str, Any]) -> dict[str, Any]:
    out = dict(w)
    if "append" in out:
        out["append"] = [_Flow(x) for x in out["append"]]
    if "replace" in out:
        out["replace"] = _Flow(out["replace"])
    if "drop" in out:
        out["drop"] = _FlowList(out["drop"])
    return out


def _flow_user(user: dict[str, Any]) -> dict[str, Any]:
    out = dict(user)
    out["known_facts"] = _Flow(out["known_facts"])
    for key in ("wants", "declines"):
        if key in out:
            out[key] = _FlowList(out[key])
    return out


@dataclass
class Templates:
    """The templates of one domain, and where their tasks go.

    `pool(split)` makes the split's id and name pool; `scene(pool, rng)` makes a task's
    scene (a domain's own `Scene` subclass). `id_format` and `file_format` keep a
    domain's existing ids and file names stable."""

    domain: str
    tasks_dir: Path
    pool: Callable[[str], Pool] = field(default=lambda split: Pool(split))
    scene: Callable[[Pool, random.Random], Scene] = Scene
    id_format: str = "{domain}/gen-{slug}-{split}-{n:02d}"
    file_format: str = "{split}/gen_{name}.yaml"
    generator: str = ""  # shown in the files' header: how to regenerate them
    registry: dict[str, Template] = field(default_factory=dict)

    def template(self, description: str, counts: dict[str, int] | None = None) -> Callable[[Any], Any]:
        """Register a template: `fn(scene, n) -> TaskSpec`, `n` the instance number in its split."""

        def register(fn: Callable[[Any, int], TaskSpec]) -> Callable[[Any, int], TaskSpec]:
            if fn.__name__ in self.registry:
                raise ValueError(f"template {fn.__name__!r} is registered twice")
            self.registry[fn.__name__] = Template(fn.__name__, fn, description, dict(counts or DEFAULT_COUNTS))
            return fn

        return register

    # -- building ------------------------------------------------------------------------------

    def task_id(self, name: str, split: str, n: int) -> str:
        return self.id_format.format(domain=self.domain, slug=name.replace("_", "-"), name=name, split=split, n=n + 1)

    def data(self, spec: TaskSpec, name: str, split: str, n: int) -> dict[str, Any]:
        """One task in the task file format, ready to dump."""
        return {
            "id": self.task_id(name, split, n),
            "split": split,
            "eval_only": split == "test",
            "tags": _Flow({"difficulty": spec.difficulty, "kind": spec.kind, "skills": spec.skills, "template": name, **spec.tags}),
            "user": _flow_user(spec.caller.to_data()),
            "initial_patch": {t: [_Flow(r) for r in rows] for t, rows in spec.patch.items() if rows},
            "golden_actions": [_Flow(x) for x in spec.calls],
            "golden_reply": spec.reply,
            "assertions": [_Flow(x) for x in spec.assertions],
            "wrong_paths": [_flow_wrong(w) for w in spec.wrong],
            "rubrics": list(spec.rubrics),
        }

    def build(self, split: str, only: set[str] | None = None) -> dict[str, list[dict[str, Any]]]:
        """Every generated task of a split, by template name, in registration order.

        Every template runs even when `only` is given, so the pool's counters (and so the
        ids) are the same as in a full build."""
        pool = self.pool(split)
        out: dict[str, list[dict[str, Any]]] = {}
        for name, t in self.registry.items():
            tasks = []
            for n in range(t.counts.get(split, 0)):
                spec = t.fn(self.scene(pool, random.Random(f"{name}/{split}/{n}")), n)
                tasks.append(self.data(spec, name, split, n))
            if only is None or name in only:
                out[name] = tasks
        return out

    def tasks(self, only: set[str] | None = None) -> list[Task]:
        """The generated tasks as `Task` objects (checked against the schema)."""
        return [Task.model_validate(item) for split in SPLITS for items in self.build(split, only).values() for item in items]

    # -- files -----------------------------------------------------------------------------------

    def render(self, name: str, tasks: list[dict[str, Any]]) -> str:
        how = self.generator or f"the `{self.domain}` pack's generate.py"
        head = (
            f"# Generated by {how}, template `{name}`: {self.registry[name].description}.\n"
            "# Do not edit by hand: change the template and regenerate.\n\n"
        )
        body = yaml.dump(tasks, Dumper=_Dumper, sort_keys=False, default_flow_style=False, width=10_000, allow_unicode=True)
        return head + body.replace("\n- id: ", "\n\n- id: ")

    def files(self) -> dict[Path, str]:
        return {
            self.tasks_dir / self.file_format.format(split=split, name=name): self.render(name, tasks)
            for split in SPLITS
            for name, tasks in self.build(split).items()
            if tasks
        }

    def main(self, argv: list[str] | None = None) -> int:
        """`generate.py [--check] [--validate] [--template NAME]`."""
        argv = sys.argv[1:] if argv is None else argv
        wanted = self.files()
        generated = {p for split in SPLITS for p in (self.tasks_dir / split).glob(Path(self.file_format).name.replace("{name}", "*"))}
        stale = sorted(p for p in generated if p not in wanted)
        changed = [p for p, text in wanted.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
        if "--check" in argv:
            for p in changed + stale:
                print(f"out of date: {p}")
            return 1 if changed or stale else 0
        if "--validate" in argv:
            only = {argv[argv.index("--template") + 1]} if "--template" in argv else None
            return self.validate(only)
        for p in stale:
            p.unlink()
        for p, text in wanted.items():
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8")
        total = sum(len(tasks) for split in SPLITS for tasks in self.build(split).values())
        print(f"wrote {len(wanted)} files, {total} tasks ({len(self.registry)} templates)")
        return 0

    def validate(self, only: set[str] | None = None, backend: str = "sqlite") -> int:
        """Run the contract and the metamorphic probes on freshly generated tasks (the domain
        must be registered: a built-in pack, or one passed to `tb_env.register_domain`)."""
        from tb_env.kit.validate import validate_task

        async def run() -> list[Any]:
            sem = asyncio.Semaphore(16)

            async def one(task: Task) -> Any:
                async with sem:
                    return await validate_task(task, backend)

            return await asyncio.gather(*(one(t) for t in self.tasks(only)))

        reports = asyncio.run(run())
        bad = [r for r in reports if not r.ok]
        for r in bad:
            print(f"FAIL {r.task_id}")
            for p in r.problems:
                print(f"    {p}")
        print(f"{len(reports) - len(bad)}/{len(reports)} generated tasks validate")
        return 1 if bad else 0
