"""The MCP client side of an external tool server: one session per episode, over a stream.

ThinkingBox's servers speak MCP over stdio (newline-delimited JSON-RPC). tb-env reaches
them either through a forked child whose stdio *is* a Unix socket (`ForkServer`, the
fast path) or through a process spawned per episode (`spawn`, the reference path the
benchmark compares against). Both give an asyncio stream pair, so one small client
serves both: the four requests an episode needs (initialize, tools/list, tools/call,
and the notification after initialize) do not justify an SDK session with its own task
group per episode, and a plain stream client works identically on whichever asyncio
loop the episode runs (TBEnv's loop thread, `asyncio.run` in a campaign).

Any failure of the connection (EOF, a dead child, a time-out, an unparsable line) is a
`ToolServerError`: an infrastructure error, never a reward of 0.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from typing import Any

from tb_env.errors import ToolServerError

PROTOCOL_VERSION = "2025-06-18"
STREAM_LIMIT = 1 << 28  # `__reserved__geteffects` returns whole database states on one line
CONNECT_TIMEOUT_S = 30.0


class MCPConnection:
    """One MCP session on a stream pair, with the process behind it (killed at close)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        pid: int | None = None,
        process: asyncio.subprocess.Process | None = None,
        label: str = "mcp server",
    ):
        self.reader, self.writer = reader, writer
        self.pid, self.process, self.label = pid, process, label
        self._ids = 0
        self._lock = asyncio.Lock()
        self.closed = False

    # -- opening --------------------------------------------------------------------------
    @classmethod
    async def over_socket(cls, path: str, label: str) -> MCPConnection:
        """Connect to a fork server: it answers `PID <n>` and the child serves MCP."""
        try:
            async with asyncio.timeout(CONNECT_TIMEOUT_S):
                reader, writer = await asyncio.open_unix_connection(path, limit=STREAM_LIMIT)
                head = (await reader.readline()).decode().split()
        except (OSError, TimeoutError) as exc:
            raise ToolServerError(f"{label}: cannot reach the fork server at {path}: {exc!r}") from None
        if len(head) != 2 or head[0] != "PID":
            raise ToolServerError(f"{label}: the fork server did not fork a child (said {head!r})")
        conn = cls(reader, writer, pid=int(head[1]), label=label)
        await conn.initialize()
        return conn

    @classmethod
    async def spawn(cls, python: str, module: str, env: dict[str, str], label: str) -> MCPConnection:
        """Start `python -m module` for this episode alone (what the reference harness does)."""
        try:
            proc = await asyncio.create_subprocess_exec(
                python, "-m", module,
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL, env=env, limit=STREAM_LIMIT,
            )
        except OSError as exc:
            raise ToolServerError(f"{label}: cannot start {python} -m {module}: {exc}") from None
        assert proc.stdin is not None and proc.stdout is not None
        conn = cls(proc.stdout, proc.stdin, pid=proc.pid, process=proc, label=label)  # type: ignore[arg-type]
        await conn.initialize(timeout_s=120.0)  # a cold start imports the whole server
        return conn

    # -- JSON-RPC -------------------------------------------------------------------------
    async def _send(self, message: dict[str, Any]) -> None:
        try:
            self.writer.write(json.dumps(message, ensure_ascii=False, default=str).encode() + b"\n")
            await self.writer.drain()
        except (OSError, RuntimeError) as exc:
            raise ToolServerError(f"{self.label}: the server connection broke ({exc!r})") from None

    async def request(self, method: str, params: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        if self.closed:
            raise ToolServerError(f"{self.label}: the connection is closed")
        async with self._lock:
            self._ids += 1
            rid = self._ids
            try:
                async with asyncio.timeout(timeout_s):
                    await self._send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
                    while True:
                        line = await self.reader.readline()
                        if not line:
                            raise ToolServerError(f"{self.label}: the server exited during {method}")
                        msg = json.loads(line)
                        if msg.get("id") == rid and ("result" in msg or "error" in msg):
                            break
                        if "method" in msg and "id" in msg:  # a request from the server (ping, ...)
                            await self._send({"jsonrpc": "2.0", "id": msg["id"], "result": {}})
            except TimeoutError:
                raise ToolServerError(f"{self.label}: {method} timed out after {timeout_s}s") from None
            except (ValueError, OSError, asyncio.LimitOverrunError) as exc:
                raise ToolServerError(f"{self.label}: bad reply to {method}: {exc!r}") from None
        if "error" in msg:
            raise ToolServerError(f"{self.label}: {method} failed: {msg['error']}")
        return msg["result"]

    async def initialize(self, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        await self.request(
            "initialize",
            {"protocolVersion": PROTOCOL_VERSION, "capabilities": {},
             "clientInfo": {"name": "tb-env", "version": "1"}},
            timeout_s,
        )
        await self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    async def list_tools(self, timeout_s: float = CONNECT_TIMEOUT_S) -> list[dict[str, Any]]:
        tools: list[dict[str, Any]] = []
        params: dict[str, Any] = {}
        while True:
            page = await self.request("tools/list", params, timeout_s)
            tools += page.get("tools", [])
            if not page.get("nextCursor"):
                return tools
            params = {"cursor": page["nextCursor"]}

    async def call_tool(self, name: str, arguments: dict[str, Any], timeout_s: float) -> tuple[str, bool]:
        """(text, is_error) of one tool call; a tool's own failure is `is_error`, not an exception."""
        result = await self.request("tools/call", {"name": name, "arguments": arguments}, timeout_s)
        parts = [c.get("text", "") for c in result.get("content", []) if c.get("type") == "text"]
        text = "\n".join(parts)
        if not parts and result.get("structuredContent") is not None:
            text = json.dumps(result["structuredContent"], ensure_ascii=False)
        return text, bool(result.get("isError"))

    # -- closing --------------------------------------------------------------------------
    async def close(self) -> None:
        """Close the stream and kill the episode's process: it must never serve again."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.close()
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            with contextlib.suppress(Exception):
                await self.process.wait()
        elif self.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.pid, signal.SIGKILL)
