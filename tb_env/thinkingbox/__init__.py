"""ThinkingBox-Bench v1.0 inside tb-env: its tasks as tb-env tasks, its MCP servers as the tools.

- `importer`: the release's test files and scenarios (read with `ast` and YAML, never
  imported) -> `Task` objects and per-task server configs.
- `domain`: `ThinkingBoxDomain`, a domain whose tools and reward come from an external
  MCP server, with local replacements for tools that need outside services.
- `episode`: `ThinkingBoxEpisode`, the episode that drives that server's reserved tools.
- `servers`, `forkserver`, `client`: a fresh server process per episode, forked from one
  that has already imported the server module.
- `env`: `ThinkingBoxEnv`, registered as `tb_env/ThinkingBox-v0`.
- `bench`: `tb-env bench --thinkingbox DIR`: oracle / no-op on every task, fork vs. spawn.

Built on the episode core (`ThinkingBoxEpisode` is an `Episode`): imports `tb_env.core`
and below; training imports it to refuse its evaluation-only tasks.
"""

from tb_env.thinkingbox.importer import is_thinkingbox_id, load_release, register_thinkingbox

__all__ = ["is_thinkingbox_id", "load_release", "register_thinkingbox"]
