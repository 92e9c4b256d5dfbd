"""tb-env: RL environments where a tool-using agent serves a simulated customer.

    import gymnasium as gym
    import tb_env  # registers tb_env/Retail-v0, ..., tb_env/Bench-v0

    env = gym.make("tb_env/Retail-v0", split="test")
    obs, info = env.reset(seed=0)

The folders are the layers, lowest first (`tests/test_layout.py` keeps it so):
- `errors`      the three failure families; every layer imports it
- `domain/`     what a domain is made of and how it plugs in: Domain, tools, tasks, registry
- `components/` blocks a domain pack composes instead of rewriting them (ticketing)
- `backends/`   a private database copy per episode (SQLite, PostgreSQL)
- `parties/`    the agent's policies and the interpreter of model text, users, the judge
- `core/`       one episode: the gym env, where a tool call goes (`toolserver`), where the
                reward is computed (`check`)
- `kit/`        writing tasks and proving them right (templates, `tb-env validate`)
- `evaluation/` campaigns, results, metrics, reports;  `training/` rollouts and GRPO
                helpers for the adapters;  `serving/` HTTP/MCP service and Ray;
                `thinkingbox/` ThinkingBox-Bench
- `cli/`        the `tb-env` command
Old flat paths (`tb_env.interpret`, `tb_env.rollout`, ...) still import: `tb_env.compat`.
"""

from tb_env import compat
from tb_env.core.check import Checker, CheckResult
from tb_env.core.env import TBEnv
from tb_env.core.episode import Episode, EpisodeResult, run_episode
from tb_env.domain.database import Database
from tb_env.domain.pack import Domain, collect_tools
from tb_env.domain.registry import (
    get_domain,
    get_task,
    list_domains,
    list_tasks,
    register_builtins,
    register_domain,
)
from tb_env.domain.task import Task, ToolCall
from tb_env.domain.tool import read, write
from tb_env.parties.judge import Judge
from tb_env.parties.policy import NoisyOraclePolicy, OpenAIPolicy, OraclePolicy, PolicyReply, Usage
from tb_env.parties.user import LLMUser, ScriptedUser
from tb_env.serving.remote import RemoteEnv
from tb_env.version import __version__

compat.install()
register_builtins()

__all__ = [
    "CheckResult",
    "Checker",
    "Database",
    "Domain",
    "Episode",
    "EpisodeResult",
    "Judge",
    "LLMUser",
    "NoisyOraclePolicy",
    "OpenAIPolicy",
    "OraclePolicy",
    "PolicyReply",
    "RemoteEnv",
    "ScriptedUser",
    "TBEnv",
    "Task",
    "ToolCall",
    "Usage",
    "__version__",
    "collect_tools",
    "get_domain",
    "get_task",
    "list_domains",
    "list_tasks",
    "read",
    "register_domain",
    "run_episode",
    "write",
]
