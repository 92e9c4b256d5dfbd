"""Auto insurance: a carrier's customer-service desk (policies, coverages, drivers,
vehicles, billing, claims, underwriting approvals, support tickets). Reads top to bottom:

- `schema.py`    the tables (SQLAlchemy models)
- `seed.py`      the base data, deterministic
- `policy.md`    the rules, given to the agent as its system prompt
- `tools.py`     what the agent can look up and change
- `tickets.py`   its support tickets: the shared ticketing component, in this domain's words
- `generate.py`  writes the task files from templates (`python -m tb_env.tasks.auto_insurance.generate`)
- `tasks/`       the scenarios, as YAML
"""

from __future__ import annotations

from pathlib import Path

from tb_env.domain import Domain, collect_tools

from . import seed, tools
from .schema import metadata
from .tickets import TICKETING

HERE = Path(__file__).parent

domain = Domain(
    name="auto_insurance",
    metadata=metadata,
    seed=seed.build,
    policy=TICKETING.into_policy((HERE / "policy.md").read_text(encoding="utf-8")),
    tools=[*collect_tools(tools), *TICKETING.tools],
    tasks_dir=HERE / "tasks",
    now="2026-11-30T12:00:00Z",
)
