"""The `library` domain: members, books and loans at a public library's loan desk, with
the support tickets of tb-env's shared ticketing component (`tickets.py`)."""

from pathlib import Path

from tb_env.domain import Domain, collect_tools

from . import schema, seed, tools
from .tickets import TICKETING

HERE = Path(__file__).parent

domain = Domain(
    name="library",
    metadata=schema.Base.metadata,
    seed=seed.build,
    policy=TICKETING.into_policy((HERE / "policy.md").read_text()),
    tools=[*collect_tools(tools), *TICKETING.tools],
    tasks_dir=HERE / "tasks",
    now="2026-11-30T12:00:00Z",
)
