"""A domain whose tools and reward live in an external MCP server (ThinkingBox's).

`ThinkingBoxDomain` is a `Domain` with no SQL schema: an episode gets a fresh server
process (see `servers`), initialises it with the task's config, offers the agent the
scenario's whitelisted tools (with the scenario's description overrides), and takes the
reward from the server's `__reserved__geteffects` (see `episode`).

`local_tools` lets a domain replace a server tool with one tb-env runs itself, for tools
that need an outside service the benchmark run should not depend on. ThinkingBox's
`knowledge_base_search_policy` needs a Typesense server; no golden solution calls it,
and it only searches the scenario's `sources` snippets, so tb-env serves it from a small
local keyword index over the same snippets (`PolicySearch`).
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from tb_env.domain.pack import Domain

if TYPE_CHECKING:
    from tb_env.thinkingbox.importer import ImportedTask, Scenario
    from tb_env.thinkingbox.servers import ServerLauncher

DOMAIN_PREFIX = "thinkingbox_"  # every ThinkingBox domain and task id starts with it

LocalFn = Callable[[dict[str, Any], dict[str, Any]], Awaitable[str]]  # (task context, arguments) -> text


@dataclass(frozen=True)
class LocalTool:
    """A tool served by tb-env in place of the external server's tool of the same name."""

    name: str
    description: str
    input_schema: dict[str, Any]
    run: LocalFn


_WORD = re.compile(r"[a-z0-9]+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


class PolicySearch:
    """BM25 over policy snippets: a stand-in for the release's Typesense index (same
    snippets, keyword rather than semantic ranking), with the same output shape."""

    def __init__(self, sources: list[dict[str, Any]]):
        self.docs = [
            (str(src.get("name", "")), str(snippet))
            for src in sources for snippet in src.get("snippets") or []
        ]
        self.tf = [Counter(_words(text)) for _, text in self.docs]
        self.avg = sum(sum(c.values()) for c in self.tf) / max(len(self.tf), 1)
        df = Counter(w for c in self.tf for w in c)
        n = len(self.docs)
        self.idf = {w: math.log(1 + (n - d + 0.5) / (d + 0.5)) for w, d in df.items()}

    def search(self, query: str, k: int = 3) -> list[dict[str, Any]]:
        terms = _words(query)
        scored = []
        for i, tf in enumerate(self.tf):
            length = sum(tf.values())
            s = sum(
                self.idf.get(t, 0.0) * tf[t] * 2.2 / (tf[t] + 1.2 * (0.25 + 0.75 * length / max(self.avg, 1)))
                for t in terms if t in tf
            )
            if s > 0:
                scored.append((s, i))
        scored.sort(key=lambda x: -x[0])
        return [{"source": self.docs[i][0], "text": self.docs[i][1], "score": round(s, 4)} for s, i in scored[:k]]


_indexes: dict[int, tuple[list[dict[str, Any]], PolicySearch]] = {}


async def search_policy(ctx: dict[str, Any], args: dict[str, Any]) -> str:
    sources = ctx.get("sources") or []
    hit = _indexes.get(id(sources))
    if hit is None or hit[0] is not sources:
        hit = _indexes[id(sources)] = (sources, PolicySearch(sources))
    try:
        k = int(args.get("max_results") or 3)
    except (TypeError, ValueError):
        k = 3
    return json.dumps({"snippets": hit[1].search(str(args.get("query") or ""), min(max(k, 1), 10))},
                      ensure_ascii=False)


# the scenarios call the policy search `knowledge_base_search_policy`; retail calls it `search_policy`
SEARCH_POLICY_NAMES = ("knowledge_base_search_policy", "search_policy")
SEARCH_POLICY_DESCRIPTION = (
    "Search Policy Knowledge Base using natural language queries. Returns the policy "
    "snippets that best match the query, with their source document and relevance score."
)
SEARCH_POLICY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "description": "Natural language search query"},
        "max_results": {"type": "integer", "description": "Maximum number of snippets (default 3, max 10)",
                        "default": 3},
    },
    "required": ["query"],
}


def search_policy_tool(name: str) -> LocalTool:
    return LocalTool(name=name, description=SEARCH_POLICY_DESCRIPTION, input_schema=SEARCH_POLICY_SCHEMA,
                     run=search_policy)


@dataclass(eq=False)
class ThinkingBoxDomain(Domain):
    """One ThinkingBox scenario as a tb-env domain (its tasks are evaluation only)."""

    scenario: str = ""
    server: str = ""
    launcher: ServerLauncher | None = None
    whitelist: list[str] = field(default_factory=list)  # tools the agent may see, in order
    descriptions: dict[str, str] = field(default_factory=dict)  # the scenario's overrides
    local_tools: dict[str, LocalTool] = field(default_factory=dict)
    configs: dict[str, dict[str, Any]] = field(default_factory=dict)  # task id -> init config
    sources: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # task id -> snippets
    # the server's tools/list, kept from the first episode: every fresh process lists the
    # same tools (they are registered at import), so later episodes skip the round trip
    listed_tools: dict[str, dict[str, Any]] | None = field(default=None, repr=False)

    def episode_type(self) -> type:
        from tb_env.thinkingbox.episode import ThinkingBoxEpisode

        return ThinkingBoxEpisode

    @classmethod
    def from_scenario(
        cls, scenario: Scenario, tasks: list[ImportedTask], launcher: ServerLauncher
    ) -> ThinkingBoxDomain:
        whitelist = [str(t["name"]) for t in scenario.tools if isinstance(t, dict) and t.get("name")]
        return cls(
            name=f"{DOMAIN_PREFIX}{scenario.name}",
            metadata=sa.MetaData(),
            seed=dict,
            policy=scenario.policy or f"You are a customer-support agent ({scenario.name}).",
            tools=[],
            title=f"ThinkingBox{''.join(p.title() for p in scenario.name.split('_'))}",
            extra_tasks=[t.task for t in tasks],
            scenario=scenario.name,
            server=scenario.server,
            launcher=launcher,
            whitelist=whitelist,
            descriptions={str(t["name"]): str(t["description"]) for t in scenario.tools
                          if isinstance(t, dict) and t.get("description")},
            local_tools={n: search_policy_tool(n) for n in SEARCH_POLICY_NAMES if n in whitelist},
            configs={t.task.id: t.config for t in tasks},
            sources={t.task.id: t.sources for t in tasks},
        )
