"""Each domain's committed tasks are what its generator writes: the YAML cannot drift."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOMAINS = sorted(p.parent.name for p in (ROOT / "tasks").glob("*/generate.py"))


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.slow
@pytest.mark.parametrize("domain", DOMAINS)
def test_generator_output_matches_the_committed_tasks(domain):
    folder = ROOT / "tasks" / domain / "tasks"
    before = _snapshot(folder)
    try:
        run = subprocess.run([sys.executable, "-m", f"tb_env.tasks.{domain}.generate"], capture_output=True,
                             text=True, timeout=900, cwd=ROOT)
        assert run.returncode == 0, run.stderr[-2000:]
        after = _snapshot(folder)
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        assert changed == [], f"{domain}: generator output differs from the committed files: {changed[:10]}"
    finally:
        # never lose work: put back exactly what was there (uncommitted edits included)
        for p in folder.rglob("*"):
            if p.is_file() and str(p.relative_to(folder)) not in before:
                p.unlink()
        for rel, data in before.items():
            (folder / rel).write_bytes(data)


def test_every_domain_with_a_generator_is_covered():
    assert set(DOMAINS) >= {"retail", "travel", "auto_insurance", "banking", "consulting"}
