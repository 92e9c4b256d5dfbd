"""`tb-env report` and `tb-env compare`: every figure rebuilt from the results lines alone.

Per model (the `model` field of the lines) and per domain: pass@1, pass^k with the
unbiased estimator C(c,k)/C(n,k), pass@k, the tasks solved in all n trials and in at
least one, bootstrap 95% intervals over tasks, cost per trial / per success / per fully
consistent task. Trials with `infra_error` or `skipped` are not graded: they are counted
and listed apart, never as failures. Lines from other tools that carry only `task_id`,
`trial` and `reward` (plus whatever else a figure needs) are accepted.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import numpy as np

from tb_env.evaluation.metrics import pass_at_k, pass_hat_k

BOOTSTRAP_SAMPLES = 2000


def _graded(line: dict[str, Any]) -> bool:
    return line.get("reward") is not None and not line.get("infra_error") and not line.get("skipped")


def _domain(line: dict[str, Any]) -> str:
    return str(line.get("domain") or str(line["task_id"]).split("/", 1)[0])


def _ci(values: np.ndarray, rng: np.random.Generator) -> list[float] | None:
    if len(values) < 2:
        return None
    idx = rng.integers(0, len(values), size=(BOOTSTRAP_SAMPLES, len(values)))
    means = values[idx].mean(axis=1)
    return [round(float(np.quantile(means, 0.025)), 6), round(float(np.quantile(means, 0.975)), 6)]


def _div(a: float, b: float) -> float | None:
    return round(a / b, 6) if b else None


def summarize(lines: list[dict[str, Any]], ks: list[int] | None = None, seed: int = 0) -> dict[str, Any]:
    """All figures for one set of lines (one model, or one domain of it)."""
    rng = np.random.default_rng(seed)
    counts: dict[str, list[int]] = {}  # task -> [n graded, c successes]
    for ln in lines:
        if _graded(ln):
            n_c = counts.setdefault(str(ln["task_id"]), [0, 0])
            n_c[0] += 1
            n_c[1] += float(ln["reward"]) >= 1.0
    trial_counts = Counter(n for n, _ in counts.values())
    n_min = min(trial_counts, default=0)
    n_max = max(trial_counts, default=0)
    ks_all = [k for k in (ks or range(1, n_max + 1)) if 1 <= k <= n_max]
    pairs = list(counts.values())
    out: dict[str, Any] = {
        "n_tasks": len(counts),
        "trials_per_task": n_max,
        "trials_per_task_min": n_min,
        "unequal_trials": n_min != n_max,
        "graded_trials": sum(n for n, _ in pairs),
        "successes": sum(c for _, c in pairs),
    }
    p1 = np.array([c / n for n, c in pairs]) if pairs else np.array([])
    out["pass_at_1"] = round(float(p1.mean()), 6) if len(p1) else None
    out["pass_hat_k"], out["pass_at_k"] = {}, {}
    ci: dict[str, Any] = {"pass_at_1": _ci(p1, rng), "pass_hat_k": {}, "pass_at_k": {}}
    for k in ks_all:
        eligible = [(n, c) for n, c in pairs if n >= k]  # tasks with fewer trials cannot say
        hat = np.array([pass_hat_k(n, c, k) for n, c in eligible])
        at = np.array([pass_at_k(n, c, k) for n, c in eligible])
        out["pass_hat_k"][k] = round(float(hat.mean()), 6)
        out["pass_at_k"][k] = round(float(at.mean()), 6)
        ci["pass_hat_k"][k] = _ci(hat, rng)
        ci["pass_at_k"][k] = _ci(at, rng)
    out["ci95"] = ci
    out["tasks_all_trials"] = sum(1 for n, c in pairs if c == n)
    out["tasks_any_trial"] = sum(1 for _, c in pairs if c > 0)
    infra = [ln for ln in lines if ln.get("infra_error")]
    skipped = [ln for ln in lines if ln.get("skipped") and not ln.get("infra_error")]
    out["infra_errors"] = len(infra)
    out["infra_error_tasks"] = sorted({str(ln["task_id"]) for ln in infra})
    out["infra_error_causes"] = dict(Counter(str(ln["infra_error"]).split(":", 1)[0] for ln in infra))
    out["skipped"] = len(skipped)
    out["skipped_reasons"] = dict(Counter(str(ln["skipped"]) for ln in skipped))
    out["skipped_tasks"] = sorted({str(ln["task_id"]) for ln in skipped})
    anomalies = Counter(a for ln in lines for a in (ln.get("user_anomalies") or []))
    out["user_anomalies"] = dict(anomalies)
    # graded failures in which the simulated user misbehaved: counted apart, as they may
    # be the simulator's failure rather than the agent's
    out["failures_with_user_anomalies"] = sum(
        1 for ln in lines if ln.get("reward") == 0.0 and not ln.get("infra_error") and ln.get("user_anomalies")
    )
    total = float(sum(float(ln.get("cost_usd") or 0.0) for ln in lines))
    out["cost"] = {
        "total_usd": round(total, 6),
        "per_trial_usd": _div(total, len(lines)),
        "per_success_usd": _div(total, out["successes"]),
        "per_consistent_task_usd": _div(total, out["tasks_all_trials"]),
    }
    out["tokens"] = {
        "in": int(sum(int(ln.get("tokens_in") or 0) for ln in lines)),
        "out": int(sum(int(ln.get("tokens_out") or 0) for ln in lines)),
    }
    return out


def build_report(lines: list[dict[str, Any]], ks: list[int] | None = None) -> dict[str, Any]:
    """The JSON report: `models` -> per model the figures and the same per domain."""
    by_model: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for ln in lines:
        by_model[str(ln.get("model") or "unknown")].append(ln)
    models: dict[str, Any] = {}
    warnings: list[str] = []
    for model, mine in by_model.items():
        summary = summarize(mine, ks)
        by_domain: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for ln in mine:
            by_domain[_domain(ln)].append(ln)
        summary["domains"] = {d: summarize(ls, ks) for d, ls in sorted(by_domain.items())}
        models[model] = summary
        if summary["unequal_trials"]:
            warnings.append(
                f"{model}: tasks have unequal numbers of graded trials ({summary['trials_per_task_min']} to "
                f"{summary['trials_per_task']}); pass^k and pass@k use only the tasks with at least k trials."
            )
        dupes = [key for key, n in Counter((ln["task_id"], ln["trial"]) for ln in mine).items() if n > 1]
        if dupes:
            warnings.append(f"{model}: {len(dupes)} (task, trial) pairs appear more than once, e.g. {dupes[0]}")
    return {"models": models, "warnings": warnings}


# --- text ------------------------------------------------------------------------------------


def _pct(v: float | None) -> str:
    return "   -  " if v is None else f"{100 * v:6.2f}"


def _usd(v: float | None) -> str:
    return "-" if v is None else f"${v:,.4f}" if v < 1 else f"${v:,.2f}"


def render_text(report: dict[str, Any]) -> str:
    out: list[str] = []
    models = report["models"]
    for model, s in models.items():
        n = s["trials_per_task"]
        ks = [k for k in sorted({2, 4, 8, n} & set(map(int, s["pass_hat_k"]))) if 1 < k <= n]
        out.append(f"== {model}: {s['n_tasks']} tasks x {n} trials ({s['graded_trials']} graded) ==")
        w = max([18, *(len(name) + 2 for name in s["domains"])])  # long names (thinkingbox_*) stay aligned
        head = f"{'domain':<{w}}{'tasks':>6}{'pass@1':>8}" + "".join(f"{'pass^' + str(k):>9}" for k in ks)
        head += f"{'pass@' + str(n):>9}{str(n) + '/' + str(n):>8}{'>=1':>6}{'infra':>7}{'cost':>12}"
        out.append(head)
        out.append("-" * len(head))
        rows = [*s["domains"].items(), ("ALL", s)]
        for name, d in rows:
            line = f"{name:<{w}}{d['n_tasks']:>6}{_pct(d['pass_at_1']):>8}"
            line += "".join(f"{_pct(d['pass_hat_k'].get(k)):>9}" for k in ks)
            line += f"{_pct(d['pass_at_k'].get(n)):>9}{d['tasks_all_trials']:>8}{d['tasks_any_trial']:>6}"
            line += f"{d['infra_errors']:>7}{_usd(d['cost']['total_usd']):>12}"
            out.append(line)
        ci = s["ci95"]["pass_at_1"]
        if ci:
            out.append(f"pass@1 95% CI (bootstrap over tasks): {100 * ci[0]:.2f} - {100 * ci[1]:.2f}")
        c = s["cost"]
        out.append(
            f"cost: total {_usd(c['total_usd'])}, per trial {_usd(c['per_trial_usd'])}, per success "
            f"{_usd(c['per_success_usd'])}, per fully consistent task {_usd(c['per_consistent_task_usd'])}"
        )
        if s["infra_errors"]:
            out.append(
                f"infra errors (not graded): {s['infra_errors']} trials on {len(s['infra_error_tasks'])} tasks, "
                f"causes {s['infra_error_causes']}"
            )
        if s["skipped"]:
            out.append(f"skipped (not graded): {s['skipped']} trials {s['skipped_reasons']} on {len(s['skipped_tasks'])} tasks")
        if s["user_anomalies"]:
            out.append(f"user-simulator anomalies (not the agent's fault): {s['user_anomalies']}; "
                       f"{s['failures_with_user_anomalies']} failed trial(s) had one")
        out.append("")
    if len(models) > 1:
        out.append(render_side_by_side(report))
    for w in report["warnings"]:
        out.append(f"WARNING: {w}")
    return "\n".join(out).rstrip() + "\n"


def render_side_by_side(report: dict[str, Any]) -> str:
    """One column per model, pass@1 and pass^n per domain, with deltas against the first."""
    models = list(report["models"].items())
    base_name, base = models[0]
    domains = sorted({d for _, s in models for d in s["domains"]})
    out = ["== side by side: pass@1 / pass^n (delta vs " + base_name + ") =="]
    head = f"{'domain':<18}" + "".join(f"{name[:24]:>30}" for name, _ in models)
    out.append(head)
    for d in [*domains, "ALL"]:
        cells = []
        for i, (_, s) in enumerate(models):
            x = s if d == "ALL" else s["domains"].get(d)
            b = base if d == "ALL" else base["domains"].get(d)
            if x is None:
                cells.append(f"{'-':>30}")
                continue
            n = x["trials_per_task"]
            p1, pn = x["pass_at_1"], x["pass_hat_k"].get(n)
            cell = f"{_pct(p1).strip()} / {_pct(pn).strip()}"
            if i and b is not None and p1 is not None and b["pass_at_1"] is not None:
                cell += f" ({100 * (p1 - b['pass_at_1']):+.1f})"
            cells.append(f"{cell:>30}")
        out.append(f"{d:<18}" + "".join(cells))
    return "\n".join(out)


# --- compare -------------------------------------------------------------------------------------


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]], samples: int = 20000, seed: int = 0) -> dict[str, Any]:
    """Which of two campaigns is better, per task and per domain, under Beta(1+c, 1+n-c) posteriors."""

    def counts(lines: list[dict[str, Any]]) -> dict[str, tuple[int, int]]:
        out: dict[str, list[int]] = {}
        for ln in lines:
            if _graded(ln):
                n_c = out.setdefault(str(ln["task_id"]), [0, 0])
                n_c[0] += 1
                n_c[1] += float(ln["reward"]) >= 1.0
        return {k: (v[0], v[1]) for k, v in out.items()}

    ca, cb = counts(a), counts(b)
    common = sorted(set(ca) & set(cb))
    rng = np.random.default_rng(seed)
    draws_a = {t: rng.beta(1 + ca[t][1], 1 + ca[t][0] - ca[t][1], samples) for t in common}
    draws_b = {t: rng.beta(1 + cb[t][1], 1 + cb[t][0] - cb[t][1], samples) for t in common}
    tasks = {}
    flipped = []
    for t in common:
        p = float((draws_a[t] > draws_b[t]).mean())
        ra, rb = ca[t][1] / ca[t][0], cb[t][1] / cb[t][0]
        tasks[t] = {"a": list(ca[t]), "b": list(cb[t]), "p_a_better": round(p, 4)}
        if (ra >= 0.5) != (rb >= 0.5):
            flipped.append({"task_id": t, "a_rate": round(ra, 4), "b_rate": round(rb, 4), "better": "a" if ra > rb else "b"})
    domains: dict[str, Any] = {}
    for d in sorted({t.split("/", 1)[0] for t in common}):
        ts = [t for t in common if t.split("/", 1)[0] == d]
        mean_a = np.mean([draws_a[t] for t in ts], axis=0)
        mean_b = np.mean([draws_b[t] for t in ts], axis=0)
        domains[d] = {
            "tasks": len(ts),
            "a_rate": round(float(np.mean([ca[t][1] / ca[t][0] for t in ts])), 4),
            "b_rate": round(float(np.mean([cb[t][1] / cb[t][0] for t in ts])), 4),
            "p_a_better": round(float((mean_a > mean_b).mean()), 4),
        }
    model = {
        "a": str(next((ln.get("model") for ln in a if ln.get("model")), "A")),
        "b": str(next((ln.get("model") for ln in b if ln.get("model")), "B")),
    }
    return {
        "models": model,
        "common_tasks": len(common),
        "only_a": sorted(set(ca) - set(cb)),
        "only_b": sorted(set(cb) - set(ca)),
        "domains": domains,
        "tasks": tasks,
        "flipped": flipped,
    }


def render_compare(c: dict[str, Any]) -> str:
    a, b = c["models"]["a"], c["models"]["b"]
    out = [f"A = {a}   B = {b}   ({c['common_tasks']} tasks in both)", ""]
    out.append(f"{'domain':<18}{'tasks':>6}{'A pass@1':>10}{'B pass@1':>10}{'P(A>B)':>9}  verdict")
    for d, r in c["domains"].items():
        p = r["p_a_better"]
        verdict = "A better" if p >= 0.95 else "B better" if p <= 0.05 else "no clear difference"
        out.append(f"{d:<18}{r['tasks']:>6}{100 * r['a_rate']:>10.2f}{100 * r['b_rate']:>10.2f}{p:>9.3f}  {verdict}")
    out.append("")
    out.append(f"tasks that flipped (solved in most trials by one model only): {len(c['flipped'])}")
    for f in c["flipped"]:
        out.append(f"  {f['task_id']}: A {100 * f['a_rate']:.0f}%  B {100 * f['b_rate']:.0f}%  -> {f['better'].upper()}")
    if c["only_a"] or c["only_b"]:
        out.append(f"tasks in only one file: A {len(c['only_a'])}, B {len(c['only_b'])}")
    return "\n".join(out) + "\n"
