"""Serving and scale: episodes behind a network service, and placed by Ray.

- `service`: `tb-env serve`, the HTTP env API and MCP over streamable HTTP;
- `remote`: `RemoteEnv`, the `TBEnv` interface over that service;
- `taskserver`: `tb-env mcp`, one episode's tools as a stdio MCP server;
- `distributed`: `RayEnvPool`, env workers placed as Ray actors.

Imports the episode core and below; nothing from evaluation, training or the CLI.
"""
