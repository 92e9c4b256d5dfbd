"""Domain tools: typed async functions whose signature and docstring are the schema.

A tool is written once, as a plain coroutine over the episode's database::

    @write
    async def cancel_order(db: Database, order_id: str, reason: str) -> dict:
        '''Cancel an order that has not shipped yet.

        Args:
            order_id: The order id, like "O-1001".
            reason: Why the customer cancels, in their words.
        '''

The first parameter is always the database; the others become the JSON schema that the
MCP server lists and that arguments are validated against (pydantic, lax mode, so the
schema's own coercions apply). `@read` / `@write` mark whether the tool changes state;
the mark is published as MCP's `readOnlyHint`.

A shared component (`tb_env.components`) writes its tools once for every domain that
includes it, in that domain's words (`customer_id` or `traveller_id`, its statuses): it
composes the signature and docstring with `compose_tool`, and the schema is then built
the same way as for a function written by hand.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal, get_type_hints

import pydantic

from tb_env.errors import ToolArgumentError

ToolFn = Callable[..., Awaitable[Any]]
MAX_STRING_ARG = 20_000  # characters; a longer argument is a malformed call, not a record

_ARGS_HEADER = re.compile(r"^\s*(Args|Arguments|Parameters):\s*$")
_ARG_LINE = re.compile(r"^\s+(\*{0,2}\w+)\s*(\([^)]*\))?:\s*(.*)$")


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into the description and per-argument texts."""
    lines = inspect.cleandoc(doc or "").splitlines()
    description: list[str] = []
    args: dict[str, str] = {}
    current: str | None = None
    in_args = False
    for line in lines:
        if _ARGS_HEADER.match(line):
            in_args = True
            continue
        if in_args:
            if line and not line[0].isspace():
                in_args = False  # another section (Returns:, Raises:) ends the argument list
                current = None
            else:
                m = _ARG_LINE.match(line)
                if m and (len(line) - len(line.lstrip())) <= 4:
                    current = m.group(1)
                    args[current] = m.group(3).strip()
                elif current and line.strip():
                    args[current] += " " + line.strip()
                continue
        if not in_args and not re.match(r"^\s*(Returns|Raises|Yields):\s*$", line):
            description.append(line)
        elif not in_args:
            break
    return "\n".join(description).strip(), args


def _clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema the model reads, without what carries no information to it.

    Every tool's schema is in every opening prompt, so noise costs tokens on every
    episode: pydantic's auto titles repeat the names; `anyOf: [X, null]` with
    `default: null` says no more than leaving the argument out of `required`; the
    `maxLength` guard against runaway arguments and the refusal of unknown arguments
    (`additionalProperties: false`) are enforced by validation (`Tool.validate`), not
    worth telling the model on every tool."""
    schema.pop("title", None)
    schema.pop("additionalProperties", None)
    for name, prop in list(schema.get("properties", {}).items()):
        schema["properties"][name] = _clean_property(prop)
    for sub in schema.get("$defs", {}).values():
        _clean_schema(sub)
    schema.setdefault("properties", {})
    return schema


def _clean_property(prop: dict[str, Any]) -> dict[str, Any]:
    prop.pop("title", None)
    if prop.get("maxLength") == MAX_STRING_ARG:
        del prop["maxLength"]
    alts = prop.get("anyOf")
    if alts:
        prop["anyOf"] = alts = [_clean_property(a) for a in alts]
        kept = [a for a in alts if a.get("type") != "null"]
        if "default" in prop and prop["default"] is None and len(kept) == 1 and len(alts) == 2:
            # Optional[X] = None: an optional argument, as `required` already says
            rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
            prop = {**kept[0], **rest}
    if isinstance(prop.get("items"), dict):
        prop["items"] = _clean_property(prop["items"])
    return prop


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple | set):
        return any(_has_nul(v) for v in value)
    return False


@dataclass(frozen=True)
class Tool:
    """One domain tool: its function, its published schema and its read/write mark."""

    name: str
    fn: ToolFn
    kind: Literal["read", "write"]
    description: str
    input_schema: dict[str, Any]
    args_model: type[pydantic.BaseModel] = field(repr=False)

    @property
    def writes(self) -> bool:
        return self.kind == "write"

    def validate(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """Arguments checked and converted to the declared Python types.

        Raises `ToolArgumentError` with a message the agent can act on."""
        if not isinstance(arguments, dict):
            raise ToolArgumentError(f"{self.name}: arguments must be a JSON object, got {type(arguments).__name__}.")
        try:
            parsed = self.args_model.model_validate(arguments)
        except pydantic.ValidationError as exc:
            problems = []
            for err in exc.errors(include_url=False):
                loc = ".".join(str(p) for p in err["loc"]) or "(arguments)"
                problems.append(f"{loc}: {err['msg']}")
            raise ToolArgumentError(f"Invalid arguments for {self.name}: " + "; ".join(problems)) from None
        values = {name: getattr(parsed, name) for name in self.args_model.model_fields}
        if _has_nul(values):  # PostgreSQL cannot store it: refused the same way on every backend
            raise ToolArgumentError(f"Invalid arguments for {self.name}: text may not contain the NUL character.")
        return values

    async def __call__(self, db: Any, arguments: dict[str, Any]) -> Any:
        return await self.fn(db, **self.validate(arguments))

    def openai_schema(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.input_schema},
        }


def make_tool(fn: ToolFn, kind: Literal["read", "write"], name: str | None = None) -> Tool:
    """Build a `Tool` from an async function whose first parameter is the database."""
    if not inspect.iscoroutinefunction(fn):
        raise TypeError(f"tool {fn.__qualname__} must be an async function")
    params = list(inspect.signature(fn).parameters.values())
    if not params:
        raise TypeError(f"tool {fn.__qualname__} must take the database as its first parameter")
    hints = get_type_hints(fn)
    description, arg_docs = _parse_docstring(fn.__doc__ or "")
    if not description:
        raise TypeError(f"tool {fn.__qualname__} needs a docstring: it is the description the model reads")
    fields: dict[str, Any] = {}
    for p in params[1:]:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise TypeError(f"tool {fn.__qualname__}: *args/**kwargs cannot be described to a model")
        if p.name not in hints:
            raise TypeError(f"tool {fn.__qualname__}: parameter {p.name!r} needs a type annotation")
        default = ... if p.default is inspect.Parameter.empty else p.default
        fields[p.name] = (hints[p.name], pydantic.Field(default, description=arg_docs.get(p.name)))
    # NaN/Infinity are refused: a NaN passes every `<`/`>` rule check and then breaks the
    # database (SQLite stores it as NULL), turning an agent's bad argument into a crash
    config = pydantic.ConfigDict(extra="forbid", str_max_length=MAX_STRING_ARG, allow_inf_nan=False)
    model = pydantic.create_model(f"{fn.__name__}_args", __config__=config, **fields)
    return Tool(
        name=name or fn.__name__,
        fn=fn,
        kind=kind,
        description=description,
        input_schema=_clean_schema(model.model_json_schema()),
        args_model=model,
    )


@dataclass(frozen=True)
class Param:
    """One argument of a composed tool: its name, type, `Args:` text and default (if any)."""

    name: str
    type: Any
    doc: str
    default: Any = inspect.Parameter.empty


def compose_tool(
    kind: Literal["read", "write"], name: str, description: str, params: list[Param], fn: ToolFn
) -> Tool:
    """A tool named `name` whose signature and docstring are composed, not written.

    `fn(db, **arguments)` does the work. The function published carries the composed
    `__signature__`, annotations and Google-style docstring, so `make_tool` (and `help()`)
    read it exactly as they read a hand-written tool."""

    async def tool(db: Any, **arguments: Any) -> Any:
        return await fn(db, **arguments)

    args = "\n".join(f"    {p.name}: {p.doc}" for p in params)
    tool.__name__ = tool.__qualname__ = name
    tool.__doc__ = f"{description}\n\nArgs:\n{args}\n" if params else description
    tool.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("db", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
        + [inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default, annotation=p.type) for p in params]
    )
    tool.__annotations__ = {p.name: p.type for p in params}
    return make_tool(tool, kind)


def read(fn: ToolFn) -> Tool:
    """Mark an async function as a tool that only reads the database."""
    return make_tool(fn, "read")


def write(fn: ToolFn) -> Tool:
    """Mark an async function as a tool that may change the database."""
    return make_tool(fn, "write")


END_CONVERSATION = "end_conversation"
END_CONVERSATION_SCHEMA: dict[str, Any] = {
    "name": END_CONVERSATION,
    "description": (
        "End the conversation with the customer. Call it once the customer's requests are "
        "resolved (or cannot be), after your final reply."
    ),
    "input_schema": {"type": "object", "properties": {}},
}
