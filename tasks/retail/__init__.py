"""Retail: an online store's customer support desk (orders, shipments, returns, refunds,
promotions, tickets). The first built-in domain, and the template for the others:

- `schema.py`  the tables (SQLAlchemy models)
- `seed.py`    the base data, deterministic
- `policy.md`  the rules, given to the agent as its system prompt
- `tools.py`   what the agent can look up and change
- `tickets.py` its support tickets: the shared ticketing component, in this domain's words
- `tasks/`     the scenarios, as YAML: hand-written files, and the `gen_*.yaml` files that
               `generate.py` writes from scenario templates
               (`python -m tb_env.tasks.retail.generate`; `--check` says whether they are current)
"""

from __future__ import annotations

from pathlib import Path

from tb_env.domain import Domain, collect_tools

from . import seed, tools
from .schema import metadata
from .tickets import TICKETING

HERE = Path(__file__).parent

domain = Domain(
    name="retail",
    metadata=metadata,
    seed=seed.build,
    policy=TICKETING.into_policy((HERE / "policy.md").read_text(encoding="utf-8")),
    tools=[*collect_tools(tools), *TICKETING.tools],
    tasks_dir=HERE / "tasks",
    now="2026-11-30T12:00:00Z",
)
