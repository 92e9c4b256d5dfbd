"""A domain whose tools fail on purpose: real tools that raise, hang, or return garbage.

The fault suite serves it in-process, through `tb-env serve` and through `tb-env mcp`,
so every failure travels the same path a buggy third-party tool's would."""

from pathlib import Path

from tb_env.domain.pack import Domain, collect_tools

from . import schema, seed, tools

HERE = Path(__file__).parent

domain = Domain(
    name="faulty",
    metadata=schema.Base.metadata,
    seed=seed.build,
    policy=(HERE / "policy.md").read_text(),
    tools=collect_tools(tools),
    tasks_dir=HERE / "tasks",
)
