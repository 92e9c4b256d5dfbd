"""`tb-env export`: a training pool written in the format each trainer reads.

Rows carry the opening of the conversation (system policy + the user's first message),
the task id, and the name under which the trainer finds tb-env: the verl agent loop
`tb_env`, the SkyRL env class `tb_env`. verl and SkyRL read parquet; TRL reads any
`datasets` source, so it gets JSON lines (and parquet when pyarrow is installed).
Evaluation-only tasks are refused unless explicitly allowed (see `tb_env.training.grpo`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tb_env.domain.registry import get_domain, get_task
from tb_env.errors import ConfigError
from tb_env.training.grpo import check_trainable

FORMATS = ("trl", "verl", "skyrl")
AGENT_NAME = "tb_env"


def _warn(line: str) -> None:
    import sys

    print(f"tb-env export: warning: {line}", file=sys.stderr)


def read_pool(path: str | Path) -> list[str]:
    p = Path(path)
    if not p.exists():
        raise ConfigError(f"no pool file at {p}")
    return [line.split("#", 1)[0].strip() for line in p.read_text().splitlines() if line.split("#", 1)[0].strip()]


def prompt_messages(task_id: str) -> list[dict[str, str]]:
    task = get_task(task_id)
    return [
        {"role": "system", "content": get_domain(task.domain).policy},
        {"role": "user", "content": task.user.first_message},
    ]


def rows(task_ids: list[str], fmt: str) -> list[dict[str, Any]]:
    if fmt not in FORMATS:
        raise ConfigError(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    out = []
    for i, tid in enumerate(task_ids):
        task = get_task(tid)
        base = {"prompt": prompt_messages(tid), "data_source": f"tb_env/{task.domain}"}
        extra = {"task_id": tid, "index": i, "split": task.split}
        if fmt == "trl":
            out.append({**base, "task_id": tid})
        elif fmt == "verl":
            out.append({**base, "agent_name": AGENT_NAME, "ability": "tool_use",
                        "reward_model": {"style": "rule", "ground_truth": tid}, "extra_info": extra})
        else:
            out.append({**base, "env_class": AGENT_NAME, "extra_info": extra})
    return out


def too_long(task_ids: list[str], max_prompt_length: int, tokenizer: str | None = None) -> list[str]:
    """A warning per domain whose longest opening prompt (policy, tool schemas, first
    message) exceeds the trainer's prompt budget: verl drops such a prompt's group and
    vLLM refuses the request, so those tasks would silently never train."""
    from tb_env.training.budget import TokenCounter, opening_prompt

    count = TokenCounter(tokenizer)
    longest: dict[str, tuple[int, str]] = {}
    for tid in task_ids:
        task = get_task(tid)
        n = count(opening_prompt(get_domain(task.domain), task.user.first_message))
        if n > longest.get(task.domain, (0, ""))[0]:
            longest[task.domain] = (n, tid)
    return [
        f"domain {d}: the opening prompt of {tid} is {n} {count.unit}, over the trainer's prompt length "
        f"{max_prompt_length}; raise it (verl: data.max_prompt_length) or leave the domain out"
        for d, (n, tid) in sorted(longest.items()) if n > max_prompt_length
    ]


def export(
    pool: str | Path,
    fmt: str,
    out_dir: str | Path,
    allow_eval_only: bool = False,
    max_prompt_length: int | None = None,
    tokenizer: str | None = None,
    warn: Any = None,
) -> list[Path]:
    ids = read_pool(pool)
    if not ids:
        raise ConfigError(f"the pool {pool} lists no tasks")
    check_trainable(ids, allow_eval_only)
    if max_prompt_length is not None:
        for line in too_long(ids, max_prompt_length, tokenizer):
            (warn or _warn)(line)
    data = rows(ids, fmt)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq

        path = out / "train.parquet"
        pq.write_table(pa.Table.from_pylist(data), path)
        written.append(path)
    except ImportError:
        if fmt != "trl":
            raise ConfigError(f"--format {fmt} writes parquet, which needs pyarrow: pip install 'tb-env[{fmt}]'") from None
    if fmt == "trl":
        path = out / "train.jsonl"
        path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in data))
        written.append(path)
    return written
