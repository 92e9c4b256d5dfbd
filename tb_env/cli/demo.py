"""`tb-env demo` (`make demo`): an evaluation campaign on the embedded SQLite backend.

It runs the same commands a user would, and prints them: `tb-env eval` for the oracle
and a noisy oracle (or, when `TB_MODEL` and `OPENAI_BASE_URL` are set, for that model,
with an LLM user if `TB_USER_MODEL` is set), then `tb-env report` over the results. The
point of the paper, in a minute and without a GPU: one average (pass@1) hides how often
a policy fails the same task (pass^k). Rerunning resumes: finished trials are kept.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path


def main(run: Callable[[list[str]], int], trials: int = 5, out_dir: str = "results/demo", split: str = "test") -> int:
    """`run` is the CLI's own entry point (`tb_env.cli.commands.main`), passed in so the demo
    executes exactly the commands it prints without importing the CLI back."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    common = ["--split", split, "--trials", str(trials)]
    runs: list[list[str]]
    if os.environ.get("TB_MODEL") and os.environ.get("OPENAI_BASE_URL"):
        model = os.environ["TB_MODEL"]
        extra = ["--user-model", os.environ["TB_USER_MODEL"]] if os.environ.get("TB_USER_MODEL") else []
        runs = [["eval", "--model", model, *extra, *common, "--out", str(out / f"{model.replace('/', '_')}.jsonl")]]
    else:
        runs = [
            ["eval", "--policy", "oracle", *common, "--out", str(out / "oracle.jsonl")],
            ["eval", "--policy", "noisy-oracle", "--noise", "0.15", *common, "--out", str(out / "noisy-oracle.jsonl")],
        ]
    for argv in runs:
        print(f"$ tb-env {shlex.join(argv)}", flush=True)
        rc = run(argv)
        if rc:
            return rc
    files = [argv[-1] for argv in runs]
    report = ["report", *files, "--html", str(out / "report.html")]
    print(f"$ tb-env {shlex.join(report)}\n", flush=True)
    return run(report)
