"""What a domain is made of, and how it plugs in.

- `pack`: `Domain`, a domain pack (schema, seed data, policy, tools, tasks) loaded from a folder;
- `tool`: a tool is a typed async function, `@read` / `@write`; its docstring is its schema;
- `task`: tasks as typed data (scenario, initial patch, golden actions, assertions);
- `database`: the handle tools receive, parameterised SQL over the episode's copy;
- `normalize`: how facts in replies match however they are written;
- `registry`: where domains are found (built-in packs, entry points, `register_domain`).

The lowest layer: imports only `tb_env.errors` (and each other). Every other folder
builds on it. `Domain` and `collect_tools` are re-exported here because this package
replaced the old `tb_env.domain` module.
"""

from tb_env.domain.pack import Domain, collect_tools

__all__ = ["Domain", "collect_tools"]
