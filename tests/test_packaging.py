"""The wheel: built from this tree, installed into a fresh venv, runs an episode there."""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import asyncio, json, os
import gymnasium as gym
import tb_env, tb_env.adapters, tb_env.tasks.retail
env = gym.make("tb_env/Retail-v0", split="test")
obs, info = env.reset(seed=0)
env.close()
task = tb_env.get_task("retail/ticket-close-open-exception-001")
result = asyncio.run(tb_env.run_episode(task, tb_env.OraclePolicy()))
print(json.dumps({
    "tb_env": tb_env.__file__, "tasks": tb_env.tasks.retail.__file__, "adapters": tb_env.adapters.__file__,
    "n_tasks": len(tb_env.list_tasks("retail")), "reward": result.reward, "tools": len(info["tools"]),
}))
"""


@pytest.mark.slow
def test_wheel_installs_in_a_fresh_venv_and_runs_an_episode(tmp_path):
    dist = tmp_path / "dist"
    # build from a clean copy: setuptools reuses ./build, which can hold files deleted since
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", "results", "__pycache__"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(src)],
        check=True, timeout=600, capture_output=True,
    )
    (wheel,) = dist.glob("tb_env-*.whl")
    names = subprocess.run(
        [sys.executable, "-m", "zipfile", "-l", str(wheel)], capture_output=True, text=True, check=True
    ).stdout
    assert "tb_env/tasks/retail/policy.md" in names and "tb_env/adapters/__init__.py" in names
    assert not any(line.startswith(("tasks/", "adapters/", "tests/")) for line in names.split())

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)], check=True, timeout=900, capture_output=True)
    run = subprocess.run([str(py), "-c", SCRIPT], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    import json

    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["reward"] == 1.0
    assert str(env_dir) in out["tb_env"] and str(env_dir) in out["tasks"] and str(env_dir) in out["adapters"]
    assert out["n_tasks"] >= 25 and out["tools"] >= 21
    # (the reply probes are test_validate's business: here the packaged tasks and checks run at all)
    cli = subprocess.run([str(env_dir / "bin" / "tb-env"), "validate", "--domain", "retail", "--no-probes"],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert cli.returncode == 0 and "OK: every task validated" in cli.stdout, cli.stdout + cli.stderr
