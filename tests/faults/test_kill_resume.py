"""SIGKILL during `tb-env eval` at random points, many times: on resume every (task,
trial) appears exactly once and every line parses.

Each run is a real `tb-env eval` process killed with SIGKILL. To pay Python's start-up
once rather than per kill, the runs are forked from a process that has already imported
tb-env (a small fork server); each fork then runs `tb_env.cli.commands.main` from the start."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections import Counter

import pytest

import tb_env
from tb_env.evaluation.results import read_lines

from .conftest import MINI, ROOT, env

FORK_SERVER = textwrap.dedent("""
    import json, os, sys
    import tb_env.cli.commands
    for line in sys.stdin:
        cmd = json.loads(line)
        if "wait" in cmd:
            _, status = os.waitpid(cmd["wait"], 0)
            print(json.dumps({"status": status}), flush=True)
            continue
        pid = os.fork()
        if pid == 0:
            try:
                rc = tb_env.cli.commands.main(cmd["argv"])
            except BaseException:
                rc = 3
            os._exit(rc)
        print(json.dumps({"pid": pid}), flush=True)
""")


class ForkServer:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", FORK_SERVER], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env(), cwd=ROOT)

    def ask(self, cmd: dict) -> dict:
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def start(self, argv: list[str]) -> int:
        return self.ask({"argv": argv})["pid"]

    def wait(self, pid: int) -> int:
        return self.ask({"wait": pid})["status"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _lines(path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def kill_and_resume(tmp_path, rounds: int, trials: int, seed: int) -> None:
    out = tmp_path / "r.jsonl"
    argv = ["--pack", str(MINI), "eval", "--policy", "noisy-oracle", "--noise", "0.3", "--domains", "mini",
            "--split", "all", "--trials", str(trials), "--concurrency", "8", "--quiet", "--out", str(out)]
    total = len(tb_env.list_tasks("mini")) * trials
    rng = random.Random(seed)
    server = ForkServer()
    kills = 0
    try:
        for _ in range(rounds):
            before = _lines(out)
            pid = server.start(argv)
            wanted = before + rng.randint(0, 12)  # 0: killed while it starts, reads or repairs the file
            deadline = time.monotonic() + 60
            while _lines(out) < wanted and time.monotonic() < deadline:
                time.sleep(0.001)
            time.sleep(rng.random() * 0.02)
            os.kill(pid, signal.SIGKILL)
            status = server.wait(pid)
            kills += os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
            lines = read_lines(out) if out.exists() else []  # every complete line parses
            pairs = Counter((ln["task_id"], ln["trial"]) for ln in lines)
            assert not pairs or max(pairs.values()) == 1, "a trial was written twice"
        assert _lines(out) < total, "the campaign finished before the kills were done: raise the trials"
        assert kills >= rounds - 2, f"only {kills} of {rounds} runs died by SIGKILL (the rest had finished)"
        pid = server.start(argv)
        assert server.wait(pid) == 0
    finally:
        server.close()
    lines = read_lines(out, strict=True)
    pairs = Counter((ln["task_id"], ln["trial"]) for ln in lines)
    assert len(lines) == total == len(pairs), (len(lines), total, len(pairs))
    assert out.read_bytes().endswith(b"\n")
    for raw in out.read_bytes().splitlines():
        json.loads(raw)


def test_twenty_sigkills_at_random_points_lose_and_duplicate_nothing(tmp_path, mini):
    kill_and_resume(tmp_path, rounds=20, trials=500, seed=1)  # enough that 20 kills come before the end


@pytest.mark.long
def test_two_hundred_sigkills_at_random_points_lose_and_duplicate_nothing(tmp_path, mini):
    kill_and_resume(tmp_path, rounds=200, trials=1500, seed=2)
