"""ThinkingBox-Bench v1.0 as tb-env tasks, read from a `thinkingbox-data` checkout.

The release keeps each task as a Python test function whose first statement is a YAML
string beginning with `!` (query, user_context, init.<server>.data_patch,
init.<server>.golden_test_case.tool_interactions, rubrics_yesno); a module-level
`! scenario: X` string names the scenario, `dataset/scenario/<X>.yaml`, whose
`world_state` the test's `init` is merged into (dicts updated, lists concatenated).
Those files are parsed with `ast` and YAML and never imported or executed: they import
the reference harness, and running benchmark code to read data would be a liability.

Each test becomes a `Task` with id `thinkingbox_<scenario>/<file stem>:<test name>`,
`split="test"` and `eval_only=True` (the benchmark is licensed for evaluation only),
its golden tool calls as `golden_actions` and its yes/no rubrics as `rubrics`. The
server's `__reserved__init` config (the merged world state minus `sources`) stays in
the domain, keyed by task id; `sources` feed the local policy search instead.
"""

from __future__ import annotations

import ast
import copy
import inspect
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tb_env.domain.task import Task, ToolCall, UserScenario, WrongPath
from tb_env.errors import ThinkingBoxDataError
from tb_env.thinkingbox.domain import DOMAIN_PREFIX, ThinkingBoxDomain

RELEASE_TAG = "thinkingbox-bench-v1.0"
TESTLIST = "releases/thinkingbox_bench_v1/testlist_thinkingbox_bench_v1.yaml"
GET_DATA = (
    f"clone it with `git clone --branch {RELEASE_TAG} https://github.com/microsoft/thinkingbox-data` "
    "and pass the checkout's folder"
)


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """Safe YAML (the C parser when present: the release is ~4 MB of YAML) without implicit
    timestamps, so dates stay the strings the servers store (as in `tb_env.domain.task`)."""


_Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in rs if tag != "tag:yaml.org,2002:timestamp"]
    for ch, rs in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def is_thinkingbox_id(task_id: str) -> bool:
    """True for ThinkingBox-Bench task ids, registered or not (they are evaluation only)."""
    return task_id.startswith(DOMAIN_PREFIX) and "/" in task_id


def deep_merge(base: Any, patch: Any) -> Any:
    """The release's merge of a test's `init` into a scenario's `world_state`:
    mappings merge key by key, lists concatenate, anything else is replaced."""
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for k, v in patch.items():
            out[k] = deep_merge(base[k], v) if k in base else copy.deepcopy(v)
        return out
    if isinstance(base, list) and isinstance(patch, list):
        return [*base, *copy.deepcopy(patch)]
    return copy.deepcopy(patch)


def _yaml(text: str, where: str) -> Any:
    try:
        return yaml.load(text, Loader=_Loader)  # dates stay the strings the servers store
    except yaml.YAMLError as exc:
        raise ThinkingBoxDataError(f"{where}: not valid YAML: {exc}") from None


def _bang_yaml(node: ast.AST | None, where: str) -> dict[str, Any] | None:
    """The YAML of a `!`-prefixed string statement, or None if `node` is not one."""
    if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)):
        return None
    text = node.value.value.lstrip()
    if not text.startswith("!"):
        return None
    data = _yaml(inspect.cleandoc(text[1:]), where)
    if not isinstance(data, dict):
        raise ThinkingBoxDataError(f"{where}: the `!` block must be a YAML mapping")
    return data


@dataclass
class TestFile:
    path: Path
    scenario: str
    tests: dict[str, dict[str, Any]]


def read_test_file(path: Path) -> TestFile:
    """A release test file's scenario and each test's YAML, by test name (parsed, not run)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError) as exc:
        raise ThinkingBoxDataError(f"cannot parse {path}: {exc}") from None
    scenario = None
    tests: dict[str, dict[str, Any]] = {}
    for node in tree.body:
        head = _bang_yaml(node, str(path))
        if head is not None and "scenario" in head:
            scenario = str(head["scenario"])
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            body = _bang_yaml(node.body[0] if node.body else None, f"{path}:{node.name}")
            if body is not None:
                tests[node.name] = body
    if scenario is None:
        raise ThinkingBoxDataError(f"{path}: no module-level `! scenario: ...` string")
    return TestFile(path, scenario, tests)


@dataclass
class Scenario:
    name: str
    world_state: dict[str, Any]
    tools: list[dict[str, Any]]
    policy: str

    @property
    def server(self) -> str:
        return next(iter(self.world_state))


def read_scenario(data_dir: Path, name: str) -> Scenario:
    path = data_dir / "dataset" / "scenario" / f"{name}.yaml"
    if not path.is_file():
        raise ThinkingBoxDataError(f"scenario {name!r}: no file {path}")
    data = _yaml(path.read_text(encoding="utf-8"), str(path))
    ws = data.get("world_state") or {}
    if len(ws) != 1:
        raise ThinkingBoxDataError(f"{path}: tb-env runs scenarios with exactly one server, this has {list(ws)}")
    policy = data.get("bot_instructions") or ""
    return Scenario(name, ws, list(data.get("tools") or []), policy if isinstance(policy, str) else str(policy))


@dataclass
class ImportedTask:
    task: Task
    config: dict[str, Any]  # the `__reserved__init` config
    sources: list[dict[str, Any]]  # the policy snippets behind `search_policy`


@dataclass
class Release:
    data_dir: Path
    scenarios: dict[str, Scenario] = field(default_factory=dict)
    tasks: list[ImportedTask] = field(default_factory=list)

    @property
    def task_ids(self) -> list[str]:
        return [t.task.id for t in self.tasks]


def _rubrics(cfg: dict[str, Any]) -> list[str]:
    """Yes/no rubric questions (all must be answered yes). Scored rubrics, if a task has
    any, become questions too: the release passes them only when every one is met."""
    out = [str(q) for q in cfg.get("rubrics_yesno") or []]
    scored = cfg.get("rubrics") or {}
    if isinstance(scored, dict):
        out += [f"Does the agent's final message meet this criterion: {r.get('criteria_text', r)}?"
                for r in scored.values()]
    return out


def make_task(scenario: Scenario, file: TestFile, test: str, body: dict[str, Any]) -> ImportedTask:
    tid = f"{DOMAIN_PREFIX}{scenario.name}/{file.path.stem}:{test}"
    merged = deep_merge(scenario.world_state, body.get("init") or {})
    cfg = dict(merged[scenario.server] or {})
    sources = cfg.pop("sources", None) or []
    golden = (cfg.get("golden_test_case") or {}).get("tool_interactions") or []
    actions = [ToolCall(name=str(g["tool"]), arguments=g.get("parameters") or {}) for g in golden]
    query = str(body.get("query") or "").strip()
    if not query:
        raise ThinkingBoxDataError(f"{file.path}:{test}: no `query` (the customer's first message)")
    context = str(body.get("user_context") or "").strip()
    # doing nothing is the one wrong path every task has: it must fail wherever state changes
    noop = (WrongPath(tag="missing_step", drop=list(range(len(actions))), note="do nothing") if actions
            else WrongPath(tag="wrong_reply", reply="", note="do nothing"))
    task = Task(
        id=tid,
        split="test",
        eval_only=True,
        user=UserScenario(persona=context or "A customer.", goal=query, first_message=query),
        golden_actions=actions,
        wrong_paths=[noop],
        rubrics=_rubrics(cfg),
        tags={"thinkingbox": {"scenario": scenario.name, "server": scenario.server,
                              "file": file.path.name, "test": test}},
        source=f"{file.path}:{test}",
    )
    return ImportedTask(task, cfg, sources)


def load_release(data_dir: str | Path, testlist: str | Path | None = None) -> Release:
    """Every task of the release's test list (or of `testlist`), with its scenario."""
    data_dir = Path(data_dir).expanduser()
    if not data_dir.is_dir():
        raise ThinkingBoxDataError(f"ThinkingBox data folder {data_dir} does not exist; {GET_DATA}.")
    listing = Path(testlist) if testlist else data_dir / TESTLIST
    if not listing.is_file():
        raise ThinkingBoxDataError(
            f"{data_dir} is not a thinkingbox-data checkout at {RELEASE_TAG}: no {TESTLIST}; {GET_DATA}."
        )
    entries = _yaml(listing.read_text(encoding="utf-8"), str(listing)) or []
    cases = data_dir / "dataset" / "test_case"
    by_name: dict[str, Path] = {}
    for p in sorted(cases.rglob("*.py")):
        by_name.setdefault(p.name, p)
    release = Release(data_dir)
    files: dict[str, TestFile] = {}
    for entry in entries:
        m = re.fullmatch(r"\s*([^:\s]+\.py):(\w+)\s*", str(entry))
        if m is None:
            raise ThinkingBoxDataError(f"{listing}: entry {entry!r} is not `file.py:test_name`")
        fname, test = m.groups()
        if fname not in by_name:
            raise ThinkingBoxDataError(f"{listing}: {fname} is not under {cases}")
        if fname not in files:
            files[fname] = read_test_file(by_name[fname])
        tf = files[fname]
        if test not in tf.tests:
            raise ThinkingBoxDataError(f"{tf.path}: no test {test!r} with a `!` YAML block")
        if tf.scenario not in release.scenarios:
            release.scenarios[tf.scenario] = read_scenario(data_dir, tf.scenario)
        release.tasks.append(make_task(release.scenarios[tf.scenario], tf, test, tf.tests[test]))
    return release


def register_thinkingbox(data_dir: str | Path, server_python: str | None = None, *,
                         testlist: str | Path | None = None, launcher: Any = None) -> Release:
    """Load the release and register one domain per scenario (`thinkingbox_<scenario>`)."""
    from tb_env.domain.registry import register_domain
    from tb_env.thinkingbox.servers import ServerLauncher, default_python

    release = load_release(data_dir, testlist)
    launcher = launcher or ServerLauncher(python=server_python or default_python())
    for name, scenario in release.scenarios.items():
        mine = [t for t in release.tasks if t.task.tags["thinkingbox"]["scenario"] == name]
        register_domain(ThinkingBoxDomain.from_scenario(scenario, mine, launcher), replace=True)
    return release
