"""Report figures (matplotlib, headless) and the self-contained HTML report."""

from __future__ import annotations

import base64
import html
import io
from typing import Any

from tb_env.evaluation.report import render_text


def _figure_png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return buf.getvalue()


def figures(report: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, bytes]:
    """PNG bytes by name: pass^k / pass@k curves, success-count histogram, per-domain bars."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    models = report["models"]
    out: dict[str, bytes] = {}

    fig, ax = plt.subplots(figsize=(6.4, 4))
    for name, s in models.items():
        ks = sorted(int(k) for k in s["pass_hat_k"])
        ax.plot(ks, [s["pass_hat_k"][k] for k in ks], marker="o", label=f"{name} pass^k")
        ax.plot(ks, [s["pass_at_k"][k] for k in ks], linestyle="--", marker=".", label=f"{name} pass@k")
    ax.set_xlabel("k")
    ax.set_ylabel("rate")
    ax.set_ylim(0, 1.02)
    ax.set_title("Consistency (pass^k) and coverage (pass@k)")
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    out["pass_k_curves"] = _figure_png(fig)

    fig, ax = plt.subplots(figsize=(6.4, 4))
    for name in models:
        counts: dict[str, list[int]] = {}
        for ln in lines:
            if str(ln.get("model") or "unknown") != name or ln.get("reward") is None or ln.get("infra_error") or ln.get("skipped"):
                continue
            c = counts.setdefault(str(ln["task_id"]), [0, 0])
            c[0] += 1
            c[1] += float(ln["reward"]) >= 1.0
        n = models[name]["trials_per_task"]
        ax.hist([c for _, c in counts.values()], bins=range(0, n + 2), alpha=0.6, label=name, align="left")
    ax.set_xlabel("successful trials per task")
    ax.set_ylabel("tasks")
    ax.set_title("Per-task success counts")
    ax.legend(fontsize=7)
    out["success_histogram"] = _figure_png(fig)

    domains = sorted({d for s in models.values() for d in s["domains"]})
    fig, ax = plt.subplots(figsize=(max(6.4, 1.2 * len(domains) + 2), 4))
    width = 0.8 / max(1, 2 * len(models))
    for i, (name, s) in enumerate(models.items()):
        n = s["trials_per_task"]
        p1 = [s["domains"].get(d, {}).get("pass_at_1") or 0 for d in domains]
        pn = [s["domains"].get(d, {}).get("pass_hat_k", {}).get(n) or 0 for d in domains]
        xs = range(len(domains))
        ax.bar([x + (2 * i) * width for x in xs], p1, width, label=f"{name} pass@1")
        ax.bar([x + (2 * i + 1) * width for x in xs], pn, width, label=f"{name} pass^{n}")
    ax.set_xticks([x + 0.4 - width / 2 for x in range(len(domains))], domains, rotation=20)
    ax.set_ylim(0, 1.02)
    ax.set_title("Per domain: average (pass@1) vs full consistency (pass^n)")
    ax.legend(fontsize=7)
    out["domain_bars"] = _figure_png(fig)
    return out


def render_html(report: dict[str, Any], lines: list[dict[str, Any]], title: str = "tb-env report") -> str:
    imgs = figures(report, lines)
    parts = [
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
        "<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto}"
        "pre{background:#f6f8fa;padding:1em;overflow-x:auto}img{max-width:100%}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        "<p>pass^k uses the unbiased estimator C(c,k)/C(n,k); infrastructure errors and skipped "
        "trials are not graded and are listed apart.</p>",
        f"<pre>{html.escape(render_text(report))}</pre>",
    ]
    for name, png in imgs.items():
        data = base64.b64encode(png).decode()
        parts.append(f"<h2>{html.escape(name.replace('_', ' '))}</h2><img alt='{name}' src='data:image/png;base64,{data}'>")
    parts.append("</body></html>")
    return "\n".join(parts)
