"""tb-env: RL environments where a tool-using agent serves a simulated customer.

    import gymnasium as gym
    import tb_env  # registers tb_env/Retail-v0, ..., tb_env/Bench-v0

    env = gym.make("tb_env/Retail-v0", split="test")
    obs, info = env.reset(seed=0)

Where things live: `env.py` (the gym env) wraps `episode.py` (one conversation);
tool calls go through `toolserver.py` (MCP) to the domain's tools; the reward is
computed in `check.py`; domains plug in through `registry.py`.
"""

from tb_env.check import Checker, CheckResult
from tb_env.database import Database
from tb_env.domain import Domain, collect_tools
from tb_env.env import TBEnv
from tb_env.episode import Episode, EpisodeResult, run_episode
from tb_env.judge import Judge
from tb_env.policy import NoisyOraclePolicy, OpenAIPolicy, OraclePolicy, PolicyReply, Usage
from tb_env.registry import get_domain, get_task, list_domains, list_tasks, register_builtins, register_domain
from tb_env.remote import RemoteEnv
from tb_env.task import Task, ToolCall
from tb_env.tool import read, write
from tb_env.user import LLMUser, ScriptedUser

__version__ = "0.1.0"

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
