"""`tb-env report`, `compare` and `filter`, checked figure by figure on synthetic results."""

from __future__ import annotations

import json
import subprocess
import sys
from math import comb

import pytest

from tb_env.evaluation.report import build_report, compare
from tb_env.evaluation.results import read_lines, repair_tail


def _lines(model: str, outcomes: dict[str, list[int | None]], cost: float = 0.5, **extra) -> list[dict]:
    out = []
    for task, rewards in outcomes.items():
        for k, r in enumerate(rewards):
            line = {"task_id": task, "trial": k, "reward": None if r is None else float(r), "model": model, "cost_usd": cost}
            if r is None:
                line["infra_error"] = "policy_endpoint: 500"
            out.append({**line, **extra})
    return out


# four tasks x 4 trials with known success counts 4, 3, 1, 0 (+ one infra error on c)
OUTCOMES = {
    "retail/a": [1, 1, 1, 1],
    "retail/b": [1, 1, 0, 1],
    "travel/c": [0, 1, 0, 0, None],
    "travel/d": [0, 0, 0, 0],
}


def test_every_figure_of_the_json_report_matches_hand_computation(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps(ln) + "\n" for ln in _lines("m1", OUTCOMES)))
    out = subprocess.run(
        [sys.executable, "-m", "tb_env.cli.commands", "report", str(path), "--json"], capture_output=True, text=True, check=True
    )
    m = json.loads(out.stdout)["models"]["m1"]
    counts = [4, 3, 1, 0]
    assert m["n_tasks"] == 4 and m["trials_per_task"] == 4
    assert m["pass_at_1"] == pytest.approx(sum(c / 4 for c in counts) / 4)  # 0.5
    for k in (1, 2, 3, 4):
        assert m["pass_hat_k"][str(k)] == pytest.approx(sum(comb(c, k) / comb(4, k) for c in counts) / 4)
        assert m["pass_at_k"][str(k)] == pytest.approx(sum(1 - comb(4 - c, k) / comb(4, k) for c in counts) / 4)
    assert m["pass_hat_k"]["4"] == 0.25  # k = n: the share of tasks solved every time
    assert m["pass_hat_k"]["1"] == m["pass_at_1"]
    assert m["tasks_all_trials"] == 1 and m["tasks_any_trial"] == 3
    assert m["infra_errors"] == 1 and m["infra_error_tasks"] == ["travel/c"]
    # cost covers all 17 lines (the infra-failed one spent money too)
    assert m["cost"]["total_usd"] == pytest.approx(8.5)
    assert m["cost"]["per_trial_usd"] == pytest.approx(8.5 / 17)
    assert m["cost"]["per_success_usd"] == pytest.approx(8.5 / 8)
    assert m["cost"]["per_consistent_task_usd"] == pytest.approx(8.5)
    lo, hi = m["ci95"]["pass_at_1"]
    assert 0 <= lo <= m["pass_at_1"] <= hi <= 1
    retail, travel = m["domains"]["retail"], m["domains"]["travel"]
    assert retail["pass_at_1"] == pytest.approx((1 + 0.75) / 2)
    assert travel["pass_hat_k"]["2"] == pytest.approx((0 + 0) / 2)
    assert travel["infra_errors"] == 1 and retail["infra_errors"] == 0


def test_foreign_lines_with_only_the_basic_fields_are_accepted():
    lines = [{"task_id": "x/1", "trial": k, "reward": r} for k, r in enumerate([1, 0, 1])]
    rep = build_report(lines)
    m = rep["models"]["unknown"]
    assert m["pass_at_1"] == pytest.approx(2 / 3) and m["domains"]["x"]["n_tasks"] == 1
    assert m["cost"]["total_usd"] == 0


def test_unequal_trial_counts_are_warned_and_used_correctly():
    rep = build_report(_lines("m", {"a/1": [1, 1, 1], "a/2": [1, 0]}))
    m = rep["models"]["m"]
    assert any("unequal numbers of graded trials" in w for w in rep["warnings"])
    assert m["pass_hat_k"][3] == 1.0  # only a/1 has 3 trials
    assert m["pass_hat_k"][2] == pytest.approx((1 + 0) / 2)


def test_skipped_trials_are_not_graded():
    lines = [*_lines("m", {"a/1": [1, 1]}), {"task_id": "a/2", "trial": 0, "reward": None, "skipped": "no_judge", "model": "m"}]
    m = build_report(lines)["models"]["m"]
    assert m["n_tasks"] == 1 and m["skipped"] == 1 and m["skipped_reasons"] == {"no_judge": 1}


def test_two_files_side_by_side_with_deltas(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(json.dumps(ln) + "\n" for ln in _lines("base", OUTCOMES)))
    b.write_text("".join(json.dumps(ln) + "\n" for ln in _lines("tuned", {k: [1, 1, 1, 1] for k in OUTCOMES})))
    out = subprocess.run([sys.executable, "-m", "tb_env.cli.commands", "report", str(a), str(b)], capture_output=True, text=True, check=True)
    assert "side by side" in out.stdout and "(+50.0)" in out.stdout
    html = tmp_path / "r.html"
    subprocess.run([sys.executable, "-m", "tb_env.cli.commands", "report", str(a), str(b), "--html", str(html)], check=True, capture_output=True)
    text = html.read_text()
    assert text.count("data:image/png;base64,") == 3


def test_compare_gives_posterior_probabilities_and_flipped_tasks():
    a = _lines("A", {"retail/x": [1] * 10, "retail/y": [0] * 10, "retail/z": [1, 0] * 5})
    b = _lines("B", {"retail/x": [0] * 10, "retail/y": [0] * 10, "retail/z": [1, 0] * 5})
    c = compare(a, b)
    assert c["tasks"]["retail/x"]["p_a_better"] > 0.99
    assert 0.3 < c["tasks"]["retail/y"]["p_a_better"] < 0.7
    assert [f["task_id"] for f in c["flipped"]] == ["retail/x"]
    assert c["domains"]["retail"]["p_a_better"] > 0.9


def test_torn_last_line_is_ignored_on_read_and_cut_on_repair(tmp_path):
    path = tmp_path / "r.jsonl"
    path.write_text('{"task_id": "a/1", "trial": 0, "reward": 1}\n{"task_id": "a/1", "tri')
    assert len(read_lines(path)) == 1
    assert repair_tail(path) > 0
    assert path.read_text().endswith("}\n") and len(read_lines(path)) == 1


def test_filter_keeps_tasks_sometimes_solved_and_excludes_eval_only(tmp_path):
    import tb_env

    train = [t.id for t in tb_env.list_tasks("retail", split="train")][:3]
    test = [t.id for t in tb_env.list_tasks("retail", split="test")][:1]
    outcomes = {train[0]: [1, 0, 1, 0], train[1]: [1, 1, 1, 1], train[2]: [0, 0, 0, 0], test[0]: [1, 0, 1, 0]}
    path = tmp_path / "base.jsonl"
    path.write_text("".join(json.dumps(ln) + "\n" for ln in _lines("base", outcomes)))
    pool = tmp_path / "pool.txt"
    out = subprocess.run(
        [sys.executable, "-m", "tb_env.cli.commands", "filter", str(path), "--min-rate", "0.1", "--max-rate", "0.9", "--out", str(pool)],
        capture_output=True, text=True, check=True,
    )
    assert pool.read_text().split() == [train[0]]
    assert "eval_only" in out.stdout and "always solved" in out.stdout and "never solved" in out.stdout
    subprocess.run(
        [sys.executable, "-m", "tb_env.cli.commands", "filter", str(path), "--allow-eval-only", "--out", str(pool)],
        capture_output=True, text=True, check=True,
    )
    assert sorted(pool.read_text().split()) == sorted([train[0], test[0]])
