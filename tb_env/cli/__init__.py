"""The `tb-env` command line, one module per command that needs more than a few lines.

- `commands`: the argument parser and dispatch (`tb-env` is `tb_env.cli:main`);
- `validate`: `tb-env validate`, the executable contract every task must meet;
- `show`, `play`, `probe`: a task laid out for a human; be the agent in the terminal; grade
  one alternative reply or path in one line;
- `scaffold`: `tb-env new-domain`; `demo`: `make demo`; `bench`: `tb-env bench`.

The top layer: may import every other folder; nothing imports it.
"""

from tb_env.cli.commands import main

__all__ = ["main"]
