"""`tb-env serve`: environments as a network service for remote rollout workers.

Two faces on one server (Starlette under uvicorn):
- a small HTTP API for the episode life-cycle, described by the OpenAPI document the
  server publishes at `/openapi.json`: create (`POST /episodes`), step
  (`POST /episodes/{id}/step`), state (`GET /episodes/{id}`), close
  (`DELETE /episodes/{id}`), health (`GET /health`);
- MCP over streamable HTTP at `/mcp`, so any MCP client can use an episode's tools:
  it names the episode in the `X-TB-Episode` header (or `?episode=` in the URL).
Both reach the same episodes, and every tool call lands in the domain's MCP handler
(`ToolServer.handle`), as in-process calls do.

The server binds to loopback unless told otherwise. With `--token` (repeatable: one
per client), every request needs `Authorization: Bearer <token>`. An episode belongs to
the token that created it: another client gets 404 for it, as for an id that does not
exist; episode ids are also 128-bit random, so they cannot be guessed. Idle episodes
are closed after `--idle-timeout` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import time
from typing import Any, Literal

import mcp_types as types
from mcp.server.lowlevel import Server
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tb_env.backends import get_backend
from tb_env.core.episode import DEFAULT_TOOL_TIMEOUT_S, Episode, EpisodeEndedError, checker_for
from tb_env.domain.registry import get_domain, get_task
from tb_env.errors import ConfigError, InfraError, TBEnvError, UnknownTaskError
from tb_env.parties.user import make_user
from tb_env.version import __version__

EPISODE_HEADER = "x-tb-episode"


# --- the API's typed boundary --------------------------------------------------------------------


class CreateEpisode(BaseModel):
    model_config = ConfigDict(extra="forbid")
    task_id: str = Field(description="Task id, '<domain>/<name>'.", min_length=3, max_length=300)
    seed: int | None = Field(default=None, ge=0, le=2**31 - 1)
    max_turns: int = Field(default=50, ge=1, le=1000)
    backend: Literal["sqlite", "postgres"] = "sqlite"
    format: Literal["hermes", "qwen3_coder", "mistral", "openai"] = "hermes"


class StepRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str | dict[str, Any] = Field(
        description="The model's raw completion text, or an OpenAI assistant message object."
    )


class EpisodeView(BaseModel):
    episode_id: str
    observation: str
    info: dict[str, Any]


class StepView(BaseModel):
    observation: str
    reward: float | None
    terminated: bool
    truncated: bool
    info: dict[str, Any]


class StateView(BaseModel):
    episode_id: str
    task_id: str
    turn: int
    done: bool
    end_reason: str | None
    messages: list[dict[str, Any]]


class ErrorView(BaseModel):
    error: str
    detail: str


class Health(BaseModel):
    status: Literal["ok"]
    version: str
    episodes: int


def openapi() -> dict[str, Any]:
    """The OpenAPI 3.1 document of the HTTP face (schemas from the pydantic models)."""
    defs: dict[str, Any] = {}
    for m in (CreateEpisode, StepRequest, EpisodeView, StepView, StateView, ErrorView, Health):
        schema = m.model_json_schema(ref_template="#/components/schemas/{model}")
        defs.update(schema.pop("$defs", {}))
        defs[m.__name__] = schema

    def ref(name: str) -> dict[str, Any]:
        return {"$ref": f"#/components/schemas/{name}"}

    def body(name: str) -> dict[str, Any]:
        return {"required": True, "content": {"application/json": {"schema": ref(name)}}}

    def resp(code: str, name: str, what: str) -> dict[str, Any]:
        return {code: {"description": what, "content": {"application/json": {"schema": ref(name)}}}}

    errors = {
        **resp("400", "ErrorView", "bad input"),
        **resp("401", "ErrorView", "missing or wrong token"),
        **resp("404", "ErrorView", "unknown episode or task"),
    }
    episode_param = [{"name": "episode_id", "in": "path", "required": True, "schema": {"type": "string"}}]
    return {
        "openapi": "3.1.0",
        "info": {"title": "tb-env service", "version": __version__},
        "paths": {
            "/health": {"get": {"operationId": "health", "responses": resp("200", "Health", "alive")}},
            "/episodes": {
                "post": {
                    "operationId": "createEpisode",
                    "requestBody": body("CreateEpisode"),
                    "responses": {**resp("201", "EpisodeView", "episode started"), **errors,
                                  **resp("503", "ErrorView", "infrastructure failure")},
                }
            },
            "/episodes/{episode_id}": {
                "get": {"operationId": "getEpisode", "parameters": episode_param,
                        "responses": {**resp("200", "StateView", "episode state"), **errors}},
                "delete": {"operationId": "closeEpisode", "parameters": episode_param,
                           "responses": {"204": {"description": "closed"}, **errors}},
            },
            "/episodes/{episode_id}/step": {
                "post": {
                    "operationId": "stepEpisode",
                    "parameters": episode_param,
                    "requestBody": body("StepRequest"),
                    "responses": {**resp("200", "StepView", "one turn"), **errors,
                                  **resp("409", "ErrorView", "the episode has ended")},
                }
            },
        },
        "components": {
            "schemas": defs,
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearer": []}, {}],
    }


def _error(status: int, kind: str, detail: str) -> JSONResponse:
    return JSONResponse({"error": kind, "detail": detail}, status_code=status)


# --- the service ----------------------------------------------------------------------------------


class Service:
    def __init__(self, token: str | list[str] | None = None, idle_timeout_s: float = 3600.0, user: str = "scripted",
                 tool_timeout_s: float = DEFAULT_TOOL_TIMEOUT_S):
        self.tokens = [token] if isinstance(token, str) else list(token or [])
        self.idle_timeout_s = idle_timeout_s
        self.tool_timeout_s = tool_timeout_s
        self.user = make_user(user)
        self.episodes: dict[str, Episode] = {}
        self.owners: dict[str, str | None] = {}  # episode id -> the token that created it
        self.last_used: dict[str, float] = {}
        self.mcp = Server("tb-env-service", version=__version__,
                          on_list_tools=self._mcp_list_tools, on_call_tool=self._mcp_call_tool)
        self.mcp.middleware = []

    # -- episode life-cycle ------------------------------------------------------------------
    async def create(self, req: CreateEpisode, owner: str | None = None) -> tuple[str, str, dict[str, Any]]:
        task = get_task(req.task_id)
        backend = get_backend(req.backend)
        ep = Episode(
            domain=get_domain(task.domain), task=task, backend=backend, user=self.user,
            checker=checker_for(backend), max_turns=req.max_turns, seed=req.seed, format=req.format,
            tool_timeout_s=self.tool_timeout_s,
        )
        obs, info = await ep.start()
        episode_id = secrets.token_hex(16)
        self.episodes[episode_id] = ep
        self.owners[episode_id] = owner
        self.last_used[episode_id] = time.monotonic()
        return episode_id, obs, info

    def get(self, episode_id: str, owner: str | None = None) -> Episode:
        """The open episode of that id, if `owner` created it (else KeyError: not yours, not
        there, the same answer)."""
        ep = self.episodes.get(episode_id)
        if ep is None or self.owners.get(episode_id) != owner:
            raise KeyError(episode_id)
        self.last_used[episode_id] = time.monotonic()
        return ep

    async def close(self, episode_id: str, owner: str | None = None) -> None:
        self.get(episode_id, owner)
        ep = self.episodes.pop(episode_id)
        self.owners.pop(episode_id, None)
        self.last_used.pop(episode_id, None)
        await ep.close()

    async def reap(self) -> None:
        """Close episodes idle for longer than the timeout (their clients are gone)."""
        while True:
            await asyncio.sleep(min(60.0, self.idle_timeout_s / 2))
            now = time.monotonic()
            for eid in [e for e, t in self.last_used.items() if now - t > self.idle_timeout_s]:
                with contextlib.suppress(KeyError):
                    await self.close(eid, self.owners.get(eid))

    # -- MCP face ------------------------------------------------------------------------------
    def _episode_of(self, ctx: Any) -> Episode | None:
        request = getattr(ctx, "request", None)
        eid = None
        if request is not None:
            eid = request.headers.get(EPISODE_HEADER) or request.query_params.get("episode")
        eid = eid or (ctx.meta or {}).get("tb_env/episode")
        if not isinstance(eid, str):
            return None
        owner = request.scope.get(CLIENT_SCOPE_KEY) if request is not None else None
        try:
            return self.get(eid, owner)
        except KeyError:
            return None

    async def _mcp_list_tools(self, ctx: Any, params: Any) -> types.ListToolsResult:
        ep = self._episode_of(ctx)
        if ep is None:
            return types.ListToolsResult(tools=[])
        return await ep.server._list_tools(ctx, params)

    async def _mcp_call_tool(self, ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        ep = self._episode_of(ctx)
        if ep is None:
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=f"Error: name an open episode in the {EPISODE_HEADER} header.")],
                is_error=True,
            )
        return await ep.server.handle(ep.id, params.name, params.arguments or {})

    # -- HTTP face -----------------------------------------------------------------------------
    async def h_health(self, request: Request) -> Response:
        return JSONResponse({"status": "ok", "version": __version__, "episodes": len(self.episodes)})

    async def h_openapi(self, request: Request) -> Response:
        return JSONResponse(openapi())

    async def _json(self, request: Request, model: type[BaseModel]) -> BaseModel:
        try:
            data = await request.json()
        except ValueError:
            raise ValueError("the body is not valid JSON") from None
        return model.model_validate(data)

    async def h_create(self, request: Request) -> Response:
        try:
            req = await self._json(request, CreateEpisode)
            assert isinstance(req, CreateEpisode)
            eid, obs, info = await self.create(req, _client(request))
        except (ValidationError, ValueError) as exc:
            return _error(400, "bad_request", str(exc))
        except UnknownTaskError as exc:
            return _error(404, "unknown_task", str(exc))
        except InfraError as exc:
            return _error(503, "infra_error", str(exc))
        except TBEnvError as exc:
            return _error(400, "bad_request", str(exc))
        return JSONResponse({"episode_id": eid, "observation": obs, "info": info}, status_code=201)

    async def h_step(self, request: Request) -> Response:
        eid = request.path_params["episode_id"]
        try:
            ep = self.get(eid, _client(request))
            req = await self._json(request, StepRequest)
            assert isinstance(req, StepRequest)
            obs, reward, terminated, truncated, info = await ep.step(req.action)
        except KeyError:
            return _error(404, "unknown_episode", f"no open episode {eid!r}")
        except (ValidationError, ValueError) as exc:
            return _error(400, "bad_request", str(exc))
        except EpisodeEndedError as exc:
            return _error(409, "episode_ended", str(exc))
        except ConfigError as exc:
            return _error(400, "bad_request", str(exc))
        return JSONResponse(
            {"observation": obs, "reward": reward, "terminated": terminated, "truncated": truncated, "info": info}
        )

    async def h_state(self, request: Request) -> Response:
        eid = request.path_params["episode_id"]
        try:
            ep = self.get(eid, _client(request))
        except KeyError:
            return _error(404, "unknown_episode", f"no open episode {eid!r}")
        return JSONResponse({"episode_id": eid, "task_id": ep.task.id, "turn": ep.turn, "done": ep.done,
                             "end_reason": ep.end_reason, "messages": ep.messages})

    async def h_close(self, request: Request) -> Response:
        eid = request.path_params["episode_id"]
        try:
            await self.close(eid, _client(request))
        except KeyError:
            return _error(404, "unknown_episode", f"no open episode {eid!r}")
        return Response(status_code=204)

    def app(self, host: str = "127.0.0.1") -> Any:
        routes = [
            Route("/health", self.h_health, methods=["GET"]),
            Route("/openapi.json", self.h_openapi, methods=["GET"]),
            Route("/episodes", self.h_create, methods=["POST"]),
            Route("/episodes/{episode_id}", self.h_state, methods=["GET"]),
            Route("/episodes/{episode_id}", self.h_close, methods=["DELETE"]),
            Route("/episodes/{episode_id}/step", self.h_step, methods=["POST"]),
        ]
        inner = self.mcp.streamable_http_app(
            streamable_http_path="/mcp", stateless_http=True, json_response=True, host=host,
            custom_starlette_routes=routes, max_sessions=None,
        )
        return _Auth(inner, self.tokens)


CLIENT_SCOPE_KEY = "tb_env.client"  # the ASGI scope entry naming the request's token


def _client(request: Request) -> str | None:
    return request.scope.get(CLIENT_SCOPE_KEY)


class _Auth:
    """ASGI middleware: with tokens, every HTTP request must carry one (constant-time
    check); the matching token names the client in the scope, for the owner checks."""

    def __init__(self, app: Any, tokens: list[str]):
        self.app = app
        self.tokens = tokens

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.tokens:
            headers = dict(scope.get("headers") or [])
            given = headers.get(b"authorization", b"").decode("latin-1")
            match = None
            for token in self.tokens:  # compare with every token: the time says nothing about which
                if hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                    match = token
            if match is None:
                await _error(401, "unauthorized", "this server needs 'Authorization: Bearer <token>'")(scope, receive, send)
                return
            scope[CLIENT_SCOPE_KEY] = match
        await self.app(scope, receive, send)


def serve(host: str = "127.0.0.1", port: int = 8700, token: str | list[str] | None = None, idle_timeout_s: float = 3600.0,
          user: str = "scripted", tool_timeout_s: float = DEFAULT_TOOL_TIMEOUT_S) -> None:
    import uvicorn

    service = Service(token=token, idle_timeout_s=idle_timeout_s, user=user, tool_timeout_s=tool_timeout_s)
    app = service.app(host)

    async def main() -> None:
        reaper = asyncio.create_task(service.reap())
        config = uvicorn.Config(app, host=host, port=port, log_level="warning", limit_concurrency=None,
                                backlog=4096, timeout_keep_alive=75)
        try:
            await uvicorn.Server(config).serve()
        finally:
            reaper.cancel()
            for eid in list(service.episodes):
                with contextlib.suppress(Exception):
                    await service.close(eid)

    asyncio.run(main())
