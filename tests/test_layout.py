"""The tree is the architecture: which folder of `tb_env` may import which, and no circles.

The table below is the contract `tb_env/__init__.py` describes. Imports are read from the
source (module level and inside functions alike; only `if TYPE_CHECKING:` blocks, which
never run, are left out), so a lazy import cannot hide a dependency.
"""

from __future__ import annotations

import ast
import importlib
from collections import defaultdict
from pathlib import Path

import pytest

import tb_env
from tb_env.compat import MOVED

ROOT = Path(tb_env.__file__).parent
REPO = ROOT.parent
FOUNDATION = {"errors", "version"}
# unit -> the units it may import (besides itself); a unit is a folder or a root module
MAY_IMPORT: dict[str, set[str]] = {
    "errors": set(),
    "version": set(),
    "compat": set(),
    "domain": {"errors"},
    "components": {"errors", "domain"},
    "backends": {"errors", "domain"},
    "parties": {"errors", "domain"},
    "core": {"errors", "domain", "backends", "parties"},
    "thinkingbox": {"errors", "domain", "backends", "parties", "core"},
    "kit": {"errors", "domain", "backends", "parties", "core"},
    "serving": {*FOUNDATION, "domain", "backends", "parties", "core"},
    "training": {"errors", "domain", "backends", "parties", "core", "thinkingbox"},
    "evaluation": {*FOUNDATION, "domain", "backends", "parties", "core", "serving"},
    "cli": {*FOUNDATION, "domain", "backends", "parties", "core", "kit", "thinkingbox", "serving", "training", "evaluation"},
    # the public facade: re-exports from the layers, imported by nothing inside tb_env
    "api": {*FOUNDATION, "compat", "domain", "backends", "parties", "core", "serving"},
}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, package: str) -> set[str]:
    """Absolute names of everything imported where the code runs (not under TYPE_CHECKING)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join([*base, node.module] if node.module else base)
            else:
                mod = node.module or ""
            found.add(mod)
            found.update(f"{mod}.{a.name}" for a in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _modules(root: Path, prefix: str) -> dict[str, Path]:
    out = {}
    for path in root.rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        name = ".".join((prefix, *parts))
        out[name.removesuffix(".__init__")] = path
    return out


MODULES = _modules(ROOT, "tb_env")


def _graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        names = _imports(ast.parse(path.read_text(), str(path)), package)
        # `from tb_env.x import y`: y is a module when it is one, else a name in x
        graph[name] = {n for n in names if n in MODULES and n != name}
    return graph


GRAPH = _graph(MODULES)


def unit(module: str) -> str:
    parts = module.split(".")
    if len(parts) == 1:
        return "api"
    return parts[1]


def test_every_folder_and_root_module_has_a_row_in_the_table():
    units = {unit(m) for m in MODULES}
    assert units == set(MAY_IMPORT), f"units without a row: {units - set(MAY_IMPORT)}; rows without a unit: {set(MAY_IMPORT) - units}"


def test_no_folder_imports_a_folder_above_it():
    wrong = []
    for module, targets in GRAPH.items():
        for target in targets:
            src, dst = unit(module), unit(target)
            if src != dst and dst not in MAY_IMPORT[src]:
                wrong.append(f"{module} imports {target} ({src} may import only {sorted(MAY_IMPORT[src])})")
    assert not wrong, "\n".join(sorted(wrong))


def test_the_table_itself_has_no_circle():
    seen: dict[str, int] = {}

    def depth(u: str, path: tuple[str, ...] = ()) -> int:
        assert u not in path, f"circle in the table: {' -> '.join((*path, u))}"
        if u not in seen:
            seen[u] = 1 + max((depth(v, (*path, u)) for v in MAY_IMPORT[u]), default=0)
        return seen[u]

    for u in MAY_IMPORT:
        depth(u)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in graph:
        if v not in index:
            connect(v)
    return out


def test_no_module_import_circles():
    # a package's __init__ that re-exports from its own modules is not a circle: the
    # modules never import their package back (checked here too)
    assert _cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_circle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_nothing_inside_imports_the_package_root():
    wrong = [m for m, targets in GRAPH.items() if "tb_env" in targets and m != "tb_env"]
    assert not wrong, f"these import the public facade `tb_env` (import from its layer instead): {wrong}"


def test_each_folder_opens_with_what_it_holds_and_may_import():
    for init in sorted(ROOT.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        assert len(doc) > 80, f"{init.relative_to(REPO)}: say what the folder holds and what it may import"
        assert "import" in doc.lower(), f"{init.relative_to(REPO)}: its docstring does not say what it may import"


def test_domain_packs_use_only_the_domain_layer_at_run_time():
    """A built-in pack's runtime files (not its task generator) need only `tb_env.domain`,
    `tb_env.errors` and the shared `tb_env.components`: what a team's pack needs, nothing more."""
    wrong = []
    for path in sorted((REPO / "tasks").glob("*/*.py")):
        if path.name == "generate.py":
            continue
        for name in _imports(ast.parse(path.read_text()), "tb_env.tasks"):
            if name.startswith("tb_env") and unit(name) not in {"domain", "components", "errors", "tasks"}:
                wrong.append(f"{path.relative_to(REPO)} imports {name}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_flat_module_paths_import_the_moved_module(old):
    module = importlib.import_module(old)
    assert module is importlib.import_module(MOVED[old])
    assert module.__spec__.name == MOVED[old], "the moved module must keep its own spec"


def test_public_api_named_in_the_readme_still_works():
    import gymnasium as gym

    from tb_env import errors, grpo, interpret, rollout
    from tb_env.distributed import RayEnvPool
    from tb_env.pettingzoo import env as aec_env

    for name in ("TBEnv", "run_episode", "OraclePolicy", "list_tasks", "register_domain", "RemoteEnv"):
        assert callable(getattr(tb_env, name)), name
    assert issubclass(errors.InfraError, errors.TBEnvError)
    assert callable(interpret.parse) and callable(rollout.rollout) and callable(grpo.refill)
    assert RayEnvPool.__module__ == "tb_env.serving.distributed" and callable(aec_env)
    from tb_env.cli import main
    from tb_env.domain import Domain

    assert Domain is tb_env.Domain
    with pytest.raises(SystemExit) as shown:
        main(["--help"])
    assert shown.value.code == 0
    env = gym.make("tb_env/Retail-v0")
    try:
        obs, info = env.reset(seed=0)
        assert info["task_id"].startswith("retail/") and obs
    finally:
        env.close()


def test_every_moved_path_is_named_in_the_alias_table():
    """Every module that used to sit flat in tb_env/ is still importable by its old name."""
    flat = {
        "bench", "campaign", "check", "database", "demo", "distributed", "endpoint", "env", "episode",
        "export", "grpo", "interpret", "judge", "loop", "metrics", "normalize", "pettingzoo", "play",
        "plots", "policy", "pool", "pricing", "registry", "remote", "report", "results", "rollout",
        "scaffold", "service", "show", "task", "taskserver", "tool", "toolserver", "user", "validate",
    }
    kept = {"domain", "cli", "errors"}  # a package or a module that keeps its old name
    assert {m.removeprefix("tb_env.") for m in MOVED} == flat
    for name in kept:
        assert importlib.import_module(f"tb_env.{name}")


def test_a_moved_module_is_one_object_under_both_names():
    by_new: dict[str, list[str]] = defaultdict(list)
    for old, new in MOVED.items():
        by_new[new].append(old)
    assert all(len(v) == 1 for v in by_new.values())
    assert all(new in MODULES for new in by_new), "an alias points to a module that does not exist"
