"""Every failure tb-env raises, in three families that decide how it is scored.

- `AgentError`: the agent did something wrong (unknown tool, bad arguments, a request the
  tool refuses under the domain's rules). It becomes an observation for the agent; the
  episode goes on and is graded as usual.
- `InfraError`: the environment, not the agent, failed (a time-out, a crashed server, a
  database fault, a simulator API failure). The episode is marked `infra_error` and is
  never scored 0: evaluation reports it apart, training re-runs it.
- `ConfigError`: the caller asked for something that does not exist or a file is
  malformed. Raised at once, with a message that says what to fix.
"""

from __future__ import annotations


class TBEnvError(Exception):
    """Base class of all tb-env errors."""


# --- agent errors: become observations -------------------------------------------------


class AgentError(TBEnvError):
    """A mistake by the agent; shown to it as a tool error, never fatal to the episode."""


class UnknownToolError(AgentError):
    def __init__(self, name: str, available: list[str]):
        self.name = name
        self.available = available
        super().__init__(f"Unknown tool {name!r}. Available tools: {', '.join(sorted(available))}.")


class ToolArgumentError(AgentError):
    """Arguments that do not match the tool's JSON schema."""


class ToolError(AgentError):
    """A tool refused the call: the record does not exist, or a business rule forbids it.

    Domain tools raise this; the message is what the agent sees."""


# --- infrastructure errors: never scored --------------------------------------------------


class InfraError(TBEnvError):
    """The environment failed; the episode must not be scored (reported, or re-run)."""

    cause = "infra"


class ToolServerError(InfraError):
    """The MCP tool server failed or returned something that is not a tool result."""

    cause = "tool_server"


class DatabaseError(InfraError):
    """The episode's database failed (locked, disk full, connection lost)."""

    cause = "database"


class SimulatorError(InfraError):
    """The user simulator's model endpoint failed after retries."""

    cause = "user_simulator"


class PolicyError(InfraError):
    """The evaluated model's endpoint failed after retries (not a wrong answer)."""

    cause = "policy_endpoint"


class JudgeError(InfraError):
    """The rubric judge's endpoint failed after retries."""

    cause = "judge"


# --- configuration errors: fail fast ----------------------------------------------------------


class ConfigError(TBEnvError):
    """Bad configuration or input files; the message says what to fix."""


class UnknownDomainError(ConfigError):
    def __init__(self, name: str, available: list[str]):
        self.name = name
        super().__init__(
            f"Unknown domain {name!r}. Registered domains: {', '.join(sorted(available)) or 'none'}. "
            "Register a pack with tb_env.register_domain(path) or the 'tb_env.domains' entry-point group."
        )


class UnknownTaskError(ConfigError):
    def __init__(self, task_id: str, hint: str = ""):
        self.task_id = task_id
        super().__init__(f"Unknown task {task_id!r}. {hint}".strip())


class TaskFileError(ConfigError):
    """A task file that does not match the task schema; names the file, task and field."""

    def __init__(self, path: str, task_id: str | None, field: str | None, problem: str):
        self.path = path
        self.task_id = task_id
        self.field = field
        where = path + (f", task {task_id!r}" if task_id else "") + (f", field {field!r}" if field else "")
        super().__init__(f"{where}: {problem}")


class DomainError(ConfigError):
    """A domain pack that cannot be loaded or is inconsistent (schema, tools, policy)."""


class TaskValidationError(ConfigError):
    """A task whose golden path cannot be replayed or whose checks are wrong."""


class EvalOnlyTaskError(ConfigError):
    """Training was asked to use tasks licensed or reserved for evaluation only."""


class ThinkingBoxDataError(ConfigError):
    """A ThinkingBox-Bench data folder that is missing or not laid out like the release."""


class ServerPackageError(ConfigError):
    """The interpreter given for external MCP servers cannot import them (not installed)."""
