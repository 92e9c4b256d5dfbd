"""Where domains are found: the built-in packs, entry points, and `register_domain`.

Each registered domain also gets a gymnasium id, `tb_env/<Name>-v0`, so a third-party
pack works with `gym.make`, `tb-env validate` and every adapter without changing tb-env.
Domains load lazily: importing `tb_env` registers ids, not schemas or tasks.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import gymnasium as gym

from tb_env.domain.pack import Domain, gym_name, load_domain_import, load_domain_module, load_domain_path
from tb_env.domain.task import Task
from tb_env.errors import DomainError, UnknownDomainError, UnknownTaskError

BUILTIN_DOMAINS = {
    name: f"tb_env.tasks.{name}" for name in ("retail", "travel", "auto_insurance", "banking", "consulting")
}
ENTRY_POINT_GROUP = "tb_env.domains"
BENCH_ID = "tb_env/Bench-v0"
THINKINGBOX_ID = "tb_env/ThinkingBox-v0"  # ThinkingBox-Bench v1.0 from a data folder (eval only)
ENV_ENTRY_POINT = "tb_env.core.env:TBEnv"

_lock = threading.RLock()
_loaders: dict[str, Callable[[], Domain]] = {}
_loaded: dict[str, Domain] = {}
_entry_points_scanned = False


def _register_gym_id(name: str, title: str | None = None) -> None:
    gym_id = f"tb_env/{title or gym_name(name)}-v0"
    if gym_id not in gym.registry:
        gym.register(id=gym_id, entry_point=ENV_ENTRY_POINT, kwargs={"domain": name}, disable_env_checker=False)


def _register_loader(name: str, loader: Callable[[], Domain], title: str | None = None) -> None:
    with _lock:
        _loaders[name] = loader
        _loaded.pop(name, None)
    _register_gym_id(name, title)


def _scan_entry_points() -> None:
    """Third-party packs: `[project.entry-points."tb_env.domains"] name = "module"`."""
    global _entry_points_scanned
    with _lock:
        if _entry_points_scanned:
            return
        _entry_points_scanned = True
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            if ep.name in _loaders:
                continue

            def load(ep: Any = ep) -> Domain:
                obj = ep.load()
                if isinstance(obj, Domain):
                    return obj
                if callable(obj) and not hasattr(obj, "__path__"):
                    obj = obj()
                    if isinstance(obj, Domain):
                        return obj
                return load_domain_module(obj)

            _register_loader(ep.name, load)


def register_domain(pack: str | Path | Domain, *, replace: bool = False) -> Domain:
    """Register a domain pack: a `Domain` object, a folder path, or an importable module name.

    Loads it at once (so a broken pack fails here, with the reason), registers its gym
    id and returns it."""
    if isinstance(pack, Domain):
        domain = pack
    elif isinstance(pack, Path) or (isinstance(pack, str) and ("/" in pack or Path(pack).is_dir())):
        domain = load_domain_path(pack)
    elif isinstance(pack, str):
        domain = load_domain_import(pack)
    else:
        raise DomainError(f"register_domain takes a Domain, a folder path or a module name, not {type(pack).__name__}")
    domain.tasks  # noqa: B018 - a malformed task file fails here, before anything is registered
    with _lock:
        existing = _loaded.get(domain.name)
        if existing is not None and existing is not domain and not replace:
            raise DomainError(
                f"a domain named {domain.name!r} is already registered; pass replace=True to replace it"
            )
        _loaders[domain.name] = lambda: domain
        _loaded[domain.name] = domain
    _register_gym_id(domain.name, domain.title)
    return domain


def list_domains() -> list[str]:
    _scan_entry_points()
    with _lock:
        return sorted(_loaders)


def get_domain(name: str) -> Domain:
    _scan_entry_points()
    with _lock:
        if name in _loaded:
            return _loaded[name]
        loader = _loaders.get(name)
        if loader is None:
            raise UnknownDomainError(name, list(_loaders))
        domain = loader()
        if domain.name != name:
            raise DomainError(f"the pack registered as {name!r} defines a domain named {domain.name!r}")
        _loaded[name] = domain
        return domain


def list_tasks(domain: str | None = None, split: str | None = None) -> list[Task]:
    """Tasks of one domain (or all), optionally of one split, in a stable order."""
    if split not in (None, "train", "test"):
        raise UnknownTaskError(f"split={split!r}", "split must be 'train', 'test' or None (all).")
    names = [domain] if domain else list_domains()
    out = []
    for name in names:
        out += [t for t in get_domain(name).tasks.values() if split is None or t.split == split]
    return out


def get_task(task_id: str) -> Task:
    if "/" not in task_id:
        raise UnknownTaskError(task_id, "Task ids have the form '<domain>/<name>'.")
    name = task_id.split("/", 1)[0]
    if name not in list_domains():
        raise UnknownTaskError(task_id, f"No domain {name!r}; registered: {', '.join(list_domains())}.")
    return get_domain(name).task(task_id)


def register_builtins() -> None:
    for name, module in BUILTIN_DOMAINS.items():
        # a pack missing from this install (a trimmed wheel, a checkout mid-change) is skipped
        if name not in _loaders and importlib.util.find_spec(module) is not None:
            _register_loader(name, lambda module=module: load_domain_import(module))
    _scan_entry_points()  # third-party packs get their gym ids at `import tb_env`
    if BENCH_ID not in gym.registry:
        gym.register(id=BENCH_ID, entry_point=ENV_ENTRY_POINT, kwargs={"domain": None, "split": "test"})
    if THINKINGBOX_ID not in gym.registry:
        gym.register(id=THINKINGBOX_ID, entry_point="tb_env.thinkingbox.env:ThinkingBoxEnv")
