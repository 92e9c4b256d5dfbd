"""The flat module paths of tb-env before its modules moved into concern folders.

Packs, scripts and notebooks written against `tb_env.tool`, `tb_env.task`, `tb_env.env`,
`tb_env.episode`, ... keep working: importing an old path returns the module at its new
place (the same object, so patches and `isinstance` checks agree). Several of these paths
are the documented public API (`tb_env.interpret`, `tb_env.rollout`, `tb_env.grpo`,
`tb_env.pettingzoo`, `tb_env.distributed`). Nothing inside tb-env imports an old path.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from types import ModuleType

MOVED: dict[str, str] = {
    "tb_env.tool": "tb_env.domain.tool",
    "tb_env.task": "tb_env.domain.task",
    "tb_env.database": "tb_env.domain.database",
    "tb_env.registry": "tb_env.domain.registry",
    "tb_env.normalize": "tb_env.domain.normalize",
    "tb_env.user": "tb_env.parties.user",
    "tb_env.judge": "tb_env.parties.judge",
    "tb_env.policy": "tb_env.parties.policy",
    "tb_env.endpoint": "tb_env.parties.endpoint",
    "tb_env.interpret": "tb_env.parties.interpret",
    "tb_env.toolserver": "tb_env.core.toolserver",
    "tb_env.check": "tb_env.core.check",
    "tb_env.episode": "tb_env.core.episode",
    "tb_env.env": "tb_env.core.env",
    "tb_env.loop": "tb_env.core.loop",
    "tb_env.pettingzoo": "tb_env.core.pettingzoo",
    "tb_env.campaign": "tb_env.evaluation.campaign",
    "tb_env.results": "tb_env.evaluation.results",
    "tb_env.metrics": "tb_env.evaluation.metrics",
    "tb_env.report": "tb_env.evaluation.report",
    "tb_env.pricing": "tb_env.evaluation.pricing",
    "tb_env.plots": "tb_env.evaluation.plots",
    "tb_env.rollout": "tb_env.training.rollout",
    "tb_env.grpo": "tb_env.training.grpo",
    "tb_env.export": "tb_env.training.export",
    "tb_env.pool": "tb_env.training.pool",
    "tb_env.service": "tb_env.serving.service",
    "tb_env.remote": "tb_env.serving.remote",
    "tb_env.taskserver": "tb_env.serving.taskserver",
    "tb_env.distributed": "tb_env.serving.distributed",
    "tb_env.demo": "tb_env.cli.demo",
    "tb_env.show": "tb_env.cli.show",
    "tb_env.play": "tb_env.cli.play",
    "tb_env.scaffold": "tb_env.cli.scaffold",
    "tb_env.validate": "tb_env.kit.validate",
    "tb_env.bench": "tb_env.cli.bench",
}
# `tb_env.domain` and `tb_env.cli` are packages now; their `__init__` keeps the old names.


class _MovedLoader(importlib.abc.Loader):
    def __init__(self, target: str):
        self.target = target
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import system stamped the old name's spec on the module: give its own back
        module.__spec__ = self.spec


class MovedModuleFinder(importlib.abc.MetaPathFinder):
    """Answers old module paths with the module at its new place."""

    def find_spec(self, fullname: str, path: object, target: object = None) -> importlib.machinery.ModuleSpec | None:
        new = MOVED.get(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _MovedLoader(new))


def install() -> None:
    if not any(isinstance(f, MovedModuleFinder) for f in sys.meta_path):
        sys.meta_path.append(MovedModuleFinder())
