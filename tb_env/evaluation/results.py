"""Results files: one JSON line per finished trial, written so that nothing is lost.

A line is appended with a single `write(2)` of the whole encoded line on a file opened
with O_APPEND, so a process killed at any moment (SIGKILL included) leaves either the
complete line or none of it, except for a torn tail if the machine itself dies; on
resume a last line without its newline is cut off before anything is appended.

The line's fields are a contract that other tools read (the evaluation issue names
them); `Trial` is the typed model of a line that tb-env writes. Readers accept foreign
or older lines carrying only some fields (`task_id`, `trial`, `reward` at least).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tb_env.errors import ConfigError


class Sampling(BaseModel):
    temperature: float | None = None
    top_p: float | None = None
    max_tokens: int | None = None


class Trial(BaseModel):
    """One finished trial (a results line)."""

    model_config = ConfigDict(extra="allow")

    task_id: str
    domain: str
    split: str | None = None
    trial: int
    reward: float | None
    infra_error: str | None = None
    skipped: str | None = None
    check: dict[str, Any] | None = None
    turns: int = 0
    tool_calls: int = 0
    parse_errors: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    model: str
    user_model: str | None = None
    seed: int | None = None
    sampling: Sampling = Field(default_factory=Sampling)
    config_hash: str
    tb_env_version: str
    started_at: str
    end_reason: str | None = None
    user_tokens_in: int = 0
    user_tokens_out: int = 0
    user_anomalies: list[str] = Field(default_factory=list)
    attempts: int = 1


def read_lines(path: str | Path, strict: bool = False) -> list[dict[str, Any]]:
    """The parsed lines of a results file. A torn last line (no newline) is skipped;
    any other line that is not a JSON object is an error naming the line number."""
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"No results file at {path}.")
    out: list[dict[str, Any]] = []
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    complete = lines[:-1] if not raw.endswith(b"\n") else lines
    for n, line in enumerate(complete, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{path}:{n}: not a JSON line ({exc}).") from None
        if not isinstance(obj, dict) or "task_id" not in obj or "trial" not in obj:
            if strict:
                raise ConfigError(f"{path}:{n}: a results line needs at least 'task_id' and 'trial'.")
            continue
        out.append(obj)
    return out


def repair_tail(path: str | Path) -> int:
    """Cut a torn last line (left by a crash mid-write); returns the bytes removed."""
    path = Path(path)
    if not path.exists():
        return 0
    with open(path, "rb+") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        if size == 0:
            return 0
        f.seek(-1, os.SEEK_END)
        if f.read(1) == b"\n":
            return 0
        # find the last newline and truncate after it
        pos = size - 1
        chunk = 4096
        while pos > 0:
            start = max(0, pos - chunk)
            f.seek(start)
            data = f.read(pos - start)
            i = data.rfind(b"\n")
            if i >= 0:
                keep = start + i + 1
                f.truncate(keep)
                return size - keep
            pos = start
        f.truncate(0)
        return size


class ResultsWriter:
    """Appends lines atomically (one `os.write` per line) and fsyncs each one."""

    def __init__(self, path: str | Path, fsync: bool = True):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        repair_tail(self.path)
        self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        self.fsync = fsync

    def write(self, record: Trial | dict[str, Any]) -> None:
        obj = record.model_dump(mode="json") if isinstance(record, BaseModel) else record
        text = json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n"
        try:
            data = text.encode()
        except UnicodeEncodeError:  # a lone surrogate (from a model or a tool): escape it, keep the line
            data = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
        size = os.fstat(self.fd).st_size
        try:
            written = os.write(self.fd, data)
            if written != len(data):  # only a full disk (or a file-size limit) gets here
                raise OSError(errno.ENOSPC, f"short write to {self.path}: {written} of {len(data)} bytes")
        except OSError:
            # cut the torn piece at once: a later line must not be glued onto it
            with contextlib.suppress(OSError):
                os.ftruncate(self.fd, size)
            raise
        if self.fsync:
            os.fsync(self.fd)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
