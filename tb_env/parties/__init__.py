"""The parties around an episode, and how their words are read.

- `policy`: the agent under evaluation (an OpenAI-compatible chat model, a raw-text
  completions model, the oracle and the noisy oracle);
- `interpret`: the one place that turns model text into (thinking, message, tool calls)
  with typed arguments, shared by the env, the policies and the trainers;
- `user`: the simulated customer (scripted from the task, or an LLM);
- `judge`: the LLM judge of a task's yes/no rubric;
- `endpoint`: chat calls to OpenAI-compatible endpoints, with retries classified once.

Imports `tb_env.domain` and `tb_env.errors` only: a party knows tasks and tools, never
the episode that hosts it.
"""
