"""Where a tool call goes: one long-lived MCP server per domain, episodes bound by id.

Every tool call of an episode travels through the official `mcp` SDK: the env's MCP
client sends `tools/call` with the episode id in the request `_meta`, and this server's
call-tool handler looks up that episode's database and runs the tool. Binding episodes
by id instead of starting a server (and paying a handshake) per episode is what keeps
a tool call under half a millisecond in-process; the same server can be exposed over
stdio or streamable HTTP unchanged.

`invoke_tool` is the one function that runs a tool on a database; the MCP handler and
the golden replay both call it, so they cannot disagree.
"""

from __future__ import annotations

import asyncio
import json
import os
import weakref
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
from mcp import Client
from mcp.server.lowlevel import Server

from tb_env.domain.database import Database
from tb_env.domain.pack import Domain
from tb_env.domain.task import Task
from tb_env.domain.tool import END_CONVERSATION, END_CONVERSATION_SCHEMA
from tb_env.errors import AgentError, InfraError, ToolServerError, UnknownToolError

EPISODE_META_KEY = "tb_env/episode"
INFRA_META_KEY = "tb_env/infra_error"


@dataclass
class ToolOutcome:
    """What one tool call produced: the text the agent sees, and how to count it."""

    text: str
    is_error: bool = False
    infra_error: str | None = None


def to_text(result: Any) -> str:
    return result if isinstance(result, str) else json.dumps(result, ensure_ascii=False, default=str)


async def invoke_tool(domain: Domain, db: Database, name: str, arguments: dict[str, Any]) -> ToolOutcome:
    """Run one domain tool atomically on `db`; classify failures (agent vs infra)."""
    tool = domain.tools_by_name.get(name)
    try:
        if tool is None:
            raise UnknownToolError(name, [*domain.tools_by_name, END_CONVERSATION])
        if tool.writes:
            async with db.transaction():  # all or nothing: a refused call leaves no write behind
                result = await tool(db, arguments)
        else:
            result = await tool(db, arguments)
    except AgentError as exc:
        return ToolOutcome(f"Error: {exc}", is_error=True)
    except InfraError as exc:
        return ToolOutcome(f"Error: the system failed ({exc}).", is_error=True, infra_error=f"{exc.cause}: {exc}")
    except Exception as exc:  # a bug in the tool is the environment's failure, not the agent's
        return ToolOutcome(
            "Error: internal tool failure.", is_error=True, infra_error=f"tool_crash: {name}: {type(exc).__name__}: {exc}"
        )
    text = to_text(result)
    try:
        text.encode("utf-8")  # what no transport can carry must fail here, the same in-process and remote
    except UnicodeEncodeError as exc:
        return ToolOutcome("Error: internal tool failure.", True, f"tool_crash: {name}: malformed result text: {exc}")
    return ToolOutcome(text)


@dataclass
class Binding:
    """One episode's seat on the server: its database and what reached the handler."""

    db: Database
    calls: int = 0
    ended: bool = False
    infra_error: str | None = None  # the first infrastructure failure of a call (never graded)
    in_flight: int = 0  # calls running now: a state graded under a running call is not final


@dataclass(eq=False)
class ToolServer:
    """The MCP server of one domain. Process-wide; episodes bind and unbind."""

    domain: Domain
    bindings: dict[str, Binding] = field(default_factory=dict)
    calls_handled: int = 0
    # for a server that serves one episode to outside MCP clients (stdio, HTTP): calls
    # without an episode id in `_meta` go to this one, and the task is offered as a prompt
    default_episode: str | None = None
    task: Task | None = None

    def __post_init__(self) -> None:
        prompts: dict[str, Any] = {}
        if self.task is not None:
            prompts = {"on_list_prompts": self._list_prompts, "on_get_prompt": self._get_prompt}
        self.server = Server(
            f"tb-env-{self.domain.name}",
            version="1",
            instructions=f"Tools of the tb-env {self.domain.name!r} domain.",
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
            **prompts,
        )
        # The SDK wraps every request in an OpenTelemetry span by default; at a few
        # hundred microseconds per call budget, tracing is opt-in (TB_MCP_OTEL=1).
        if os.environ.get("TB_MCP_OTEL") != "1":
            self.server.middleware = []
        self._tools = [
            types.Tool(
                name=t.name,
                description=t.description,
                input_schema=t.input_schema,
                annotations=types.ToolAnnotations(read_only_hint=not t.writes, destructive_hint=t.writes),
            )
            for t in self.domain.tools
        ]
        self._tools.append(
            types.Tool(**END_CONVERSATION_SCHEMA, annotations=types.ToolAnnotations(read_only_hint=True))
        )

    def bind(self, episode_id: str, db: Database) -> Binding:
        binding = self.bindings[episode_id] = Binding(db)
        return binding

    def unbind(self, episode_id: str) -> None:
        self.bindings.pop(episode_id, None)

    async def _list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._tools)

    async def _call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        episode_id = (ctx.meta or {}).get(EPISODE_META_KEY, self.default_episode)
        return await self.handle(episode_id, params.name, params.arguments or {})

    async def handle(self, episode_id: Any, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        """One tool call of one episode: every MCP face (in-process, stdio, HTTP) ends here."""
        self.calls_handled += 1
        binding = self.bindings.get(episode_id) if isinstance(episode_id, str) else None
        if binding is None:
            return _result(ToolOutcome("Error: no such episode.", True, f"tool_server: unknown episode {episode_id!r}"))
        binding.calls += 1
        if name == END_CONVERSATION:
            binding.ended = True
            return _result(ToolOutcome("The conversation has ended."))
        binding.in_flight += 1
        try:
            outcome = await invoke_tool(self.domain, binding.db, name, arguments)
        finally:
            binding.in_flight -= 1
        if outcome.infra_error and binding.infra_error is None:
            binding.infra_error = outcome.infra_error
        return _result(outcome)


    async def _list_prompts(self, ctx: Any, params: Any) -> types.ListPromptsResult:
        assert self.task is not None
        return types.ListPromptsResult(
            prompts=[types.Prompt(name="task", description=f"The policy and the customer's first message of {self.task.id}")]
        )

    async def _get_prompt(self, ctx: Any, params: Any) -> types.GetPromptResult:
        assert self.task is not None
        return types.GetPromptResult(
            description=f"tb-env task {self.task.id}: follow the policy, serve the customer with the tools.",
            messages=[
                types.PromptMessage(role="user", content=types.TextContent(type="text", text=self.domain.policy)),
                types.PromptMessage(
                    role="user",
                    content=types.TextContent(type="text", text=f"Customer: {self.task.user.first_message}"),
                ),
            ],
        )


def _result(outcome: ToolOutcome) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=outcome.text)],
        is_error=outcome.is_error,
        _meta={INFRA_META_KEY: outcome.infra_error} if outcome.infra_error else None,
    )


_servers: dict[int, ToolServer] = {}


def tool_server(domain: Domain) -> ToolServer:
    server = _servers.get(id(domain))
    if server is None or server.domain is not domain:
        server = _servers[id(domain)] = ToolServer(domain)
    return server


# --- the client side: one MCP session per (server, event loop) ------------------------------


class _Session:
    """An MCP client held open by a keeper task on one loop (anyio scopes are task-bound)."""

    def __init__(self, server: ToolServer):
        self.server = server
        self.ready: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
        self.tools: list[dict[str, Any]] = []
        self.schemas: dict[str, dict[str, Any]] = {}
        self.task = asyncio.get_running_loop().create_task(self._keep(), name=f"tb-env-mcp-{server.domain.name}")

    async def _keep(self) -> None:
        try:
            async with Client(self.server.server, cache=None) as client:
                listed = await client.list_tools()
                self.tools = [
                    {
                        "type": "function",
                        "function": {"name": t.name, "description": t.description or "", "parameters": t.input_schema},
                    }
                    for t in listed.tools
                ]
                self.schemas = {t.name: t.input_schema for t in listed.tools}
                self.ready.set_result(client)
                await asyncio.Event().wait()  # held until the loop cancels it at shutdown
        except BaseException as exc:
            if not self.ready.done():
                self.ready.set_exception(ToolServerError(f"MCP session failed to start: {exc!r}"))
            raise


_sessions: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, _Session]] = weakref.WeakKeyDictionary()


async def session(server: ToolServer) -> _Session:
    """The open MCP session to `server` on the running loop (created on first use)."""
    loop = asyncio.get_running_loop()
    per_loop = _sessions.setdefault(loop, {})
    s = per_loop.get(id(server))
    if s is None or s.server is not server or (s.task.done() and s.ready.done()):
        s = per_loop[id(server)] = _Session(server)
    if not s.ready.done():
        await asyncio.shield(s.ready)  # several episodes may wait on one session's start
    s.ready.result()  # re-raises a failed start
    return s


async def call_tool(server: ToolServer, episode_id: str, name: str, arguments: dict[str, Any]) -> ToolOutcome:
    """Send one tool call over MCP for an episode; a protocol failure is an infra error."""
    s = await session(server)
    client = s.ready.result()
    try:
        # the session's call, not `Client.call_tool`: tb-env's server needs none of the
        # client-side input-required / header-mismatch loops, and skipping them saves ~20%
        result = await client.session.call_tool(name, arguments, meta={EPISODE_META_KEY: episode_id})
        if not isinstance(result, types.CallToolResult):
            raise ToolServerError(f"MCP call {name!r} returned {type(result).__name__}, not a tool result")
    except Exception as exc:
        raise ToolServerError(f"MCP call {name!r} failed: {type(exc).__name__}: {exc}") from exc
    text = "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))
    infra = (result.meta or {}).get(INFRA_META_KEY)
    return ToolOutcome(text, bool(result.is_error), infra)
