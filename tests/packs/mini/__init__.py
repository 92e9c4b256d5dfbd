"""A two-table domain for the core's own tests: small enough to reason about exactly."""

from pathlib import Path

from tb_env.domain.pack import Domain, collect_tools

from . import schema, seed, tools

HERE = Path(__file__).parent

domain = Domain(
    name="mini",
    metadata=schema.Base.metadata,
    seed=seed.build,
    policy=(HERE / "policy.md").read_text(),
    tools=collect_tools(tools),
    tasks_dir=HERE / "tasks",
)
