"""One episode: the gym env, the conversation, where tool calls go and where the reward is computed.

- `env`: `TBEnv`, the gymnasium face (text observations and actions);
- `episode`: one conversation over a private database copy, the async core `TBEnv` wraps;
- `toolserver`: where a tool call goes (one long-lived MCP server per domain);
- `check`: where the reward is computed (final rows against the golden rows, assertions);
- `pettingzoo`: the same dialogue as a two-agent AEC game;
- `loop`: the private event-loop thread behind the sync API.

Imports `tb_env.domain`, `tb_env.backends`, `tb_env.parties` and `tb_env.errors`;
nothing above it (evaluation, training, serving, the CLI) is imported here.
"""
