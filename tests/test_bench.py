"""`tb-env bench --scale` runs end to end and writes the JSON its users read.

No figure is asserted (speed is what a benchmark reports, not what a test checks); what
is asserted is that every episode it ran was graded 1, that each face and baseline is
there, and that the isolation probe finds what it exists to show: one transaction per
episode on a shared schema makes a second episode of the same task wait."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.test_postgres import _pg_reachable


@pytest.mark.parametrize("postgres", [False, True], ids=["sqlite", "postgres"])
def test_bench_scale_writes_every_face_with_its_baselines(tmp_path, postgres):
    if postgres and not _pg_reachable():
        pytest.skip(f"no PostgreSQL at {os.environ.get('TB_PG_DSN', 'the default DSN')} (or asyncpg missing)")
    out = tmp_path / "scale.json"
    args = ["--levels", "1", "--no-service", "--out", str(out)] + ([] if postgres else ["--no-postgres"])
    run = subprocess.run(
        [sys.executable, "-m", "tb_env.cli.commands", "bench", "--scale", *args], capture_output=True, text=True, timeout=900
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "episodes/s" in run.stdout and "two processes" in run.stdout
    figures = json.loads(out.read_text())
    sqlite = figures["sqlite_inprocess"]
    assert [lv["concurrency"] for lv in sqlite["levels"]] == [1]
    assert all(lv["all_rewards_1"] and lv["episodes"] >= figures["tasks"] for lv in sqlite["levels"])
    assert sqlite["two_processes_episodes_per_s"] > 0 and sqlite["idle_episode_mb"] > 0 and sqlite["raw_copy_ms_p50"] > 0
    assert "service_loopback" not in figures
    if not postgres:
        assert "postgres" not in figures
        return
    pg = figures["postgres"]
    assert "skipped" not in pg, pg
    for key in ("reset_warm_pool_ms_p50", "schema_copy_cold_ms", "create_database_bare_ms",
                "create_database_template_wal_log_ms", "create_database_template_file_copy_ms",
                "transaction_rollback_ms_p50"):
        assert pg[key] > 0, key
    assert pg["transaction_second_episode_blocked"] is True
    assert all(lv["all_rewards_1"] for lv in pg["levels"])
    assert "not isolated" in run.stdout
