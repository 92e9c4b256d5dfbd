"""The `tb-env` command: eval, report, compare, filter, validate, demo, bench."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from tb_env.errors import ConfigError


def _validate(args: argparse.Namespace) -> int:
    from tb_env.kit.validate import validate, validate_in_processes

    domains = [d for d in (args.domain or "").split(",") if d] or None
    if args.workers < 1:
        raise ConfigError(f"--workers must be at least 1, got {args.workers}")
    if args.workers > 1:
        report = validate_in_processes(domains, args.backend, args.workers, progress=not args.json, probes=not args.no_probes)
    else:
        report = asyncio.run(validate(domains, backend=args.backend, progress=not args.json, probes=not args.no_probes))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name, d in report["domains"].items():
            print(f"{name}: {d['tasks']} tasks {d['splits']}, {d['failures']} failing")
        for kind, s in report["variants"].items():
            print(f"  {kind:<20} must score {s['expected']:g}: {s['met']}/{s['runs']} runs did")
        if report["warnings"]:
            print(f"{len(report['warnings'])} task(s) have warnings (see --json 'warnings')")
        for f in report["failures"]:
            print(f"FAIL {f['task_id']}")
            for p in f["problems"]:
                print(f"    {p}")
        print("OK: every task validated" if report["ok"] else f"{len(report['failures'])} task(s) failed validation")
    return 0 if report["ok"] else 1


def _demo(args: argparse.Namespace) -> int:
    from tb_env.cli.demo import main as run_demo

    return run_demo(run=main, trials=args.trials, out_dir=args.out_dir, split=args.split)


def _eval(args: argparse.Namespace) -> int:
    from tb_env.evaluation.campaign import Campaign, EvalConfig

    cfg = EvalConfig(
        out=args.out,
        policy=args.policy or ("chat" if args.model else "oracle"),
        model=args.model,
        base_url=args.base_url,
        api_key_env=args.api_key_env,
        user_model=args.user_model,
        user_base_url=args.user_base_url,
        domains=[d for d in (args.domains or "").split(",") if d] or args.thinkingbox_domains,
        split=None if args.split == "all" else args.split,
        tasks_file=args.tasks,
        trials=args.trials,
        concurrency=args.concurrency,
        seed=args.seed,
        temperature=args.temperature,
        top_p=args.top_p,
        max_tokens=args.max_tokens,
        max_turns=args.max_turns,
        format=args.format,
        tokenizer=args.tokenizer,
        noise=args.noise,
        retries=args.retries,
        max_infra_errors=args.max_infra_errors,
        max_cost_usd=args.max_cost_usd,
        price_in=args.price_in,
        price_out=args.price_out,
        prices_file=args.prices,
        save_trajectories=args.save_trajectories,
        user_cache=args.user_cache,
        judge_model=args.judge_model,
        judge_base_url=args.judge_base_url,
        judge_cache=args.judge_cache,
        ray=args.ray,
        ray_workers=args.ray_workers,
        packs=args.pack,
    )
    if cfg.ray and args.thinkingbox:
        raise ConfigError("--thinkingbox does not run on --ray workers yet: run it without --ray.")
    campaign = Campaign(cfg, progress=not args.quiet)
    stats = asyncio.run(campaign.run())
    print(
        f"{stats.done} trials run ({stats.graded} graded, {stats.passed} passed, {stats.infra} infra errors), "
        f"${stats.spend:.4f} spent -> {cfg.out}",
        file=sys.stderr,
    )
    if campaign.stats.unknown_price and cfg.policy in ("chat", "completions"):
        print(f"note: no price known for {cfg.model_name!r}; costs are 0 (use --price-in/--price-out).", file=sys.stderr)
    if stats.stop_reason:
        print(f"tb-env eval: {stats.stop_reason}", file=sys.stderr)
        return 3 if stats.stop_reason.startswith("aborted") else 0
    return 0


def _read_all(files: list[str]) -> list[dict]:
    from tb_env.evaluation.results import read_lines

    return [ln for f in files for ln in read_lines(f)]


def _report(args: argparse.Namespace) -> int:
    from tb_env.evaluation.report import build_report, render_text

    lines = _read_all(args.files)
    ks = [int(k) for k in args.k.split(",")] if args.k else None
    report = build_report(lines, ks)
    if args.html:
        from tb_env.evaluation.plots import render_html

        with open(args.html, "w") as f:
            f.write(render_html(report, lines, title=f"tb-env report: {', '.join(args.files)}"))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(render_text(report), end="")
        if args.html:
            print(f"HTML report with plots: {args.html}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from tb_env.evaluation.report import compare, render_compare
    from tb_env.evaluation.results import read_lines

    result = compare(read_lines(args.a), read_lines(args.b))
    print(json.dumps(result, indent=2) if args.json else render_compare(result), end="" if not args.json else "\n")
    return 0


def _filter(args: argparse.Namespace) -> int:
    from tb_env.training.pool import render_pool, select_pool

    result = select_pool(_read_all(args.files), args.min_rate, args.max_rate, args.min_trials, args.allow_eval_only)
    with open(args.out, "w") as f:
        f.write("".join(f"{t}\n" for t in result.kept))
    print(render_pool(result), end="")
    print(f"pool written to {args.out}")
    return 0


def _bench(args: argparse.Namespace) -> int:
    if args.thinkingbox:
        from tb_env.thinkingbox.bench import main as main_tb

        return main_tb(args.thinkingbox, args.server_python, episodes=args.episodes, check_all=args.faithfulness,
                       concurrency=args.concurrency, as_json=args.json, out_path=args.out)
    if args.scale:
        from tb_env.cli.bench import main_scale

        levels = [int(x) for x in args.levels.split(",")] if args.levels else None
        return main_scale(as_json=args.json, levels=levels, out_path=args.out, pg=not args.no_postgres,
                          service=not args.no_service)
    if args.prompt:
        from tb_env.cli.bench import main_prompt

        return main_prompt(as_json=args.json, tokenizer=args.tokenizer)
    from tb_env.cli.bench import main

    return main(as_json=args.json, samples=args.samples)


def _new_domain(args: argparse.Namespace) -> int:
    from tb_env.cli.scaffold import scaffold
    from tb_env.domain.registry import register_domain
    from tb_env.kit.validate import validate

    folder = scaffold(args.name, args.path)
    domain = register_domain(folder)
    report = asyncio.run(validate([domain.name], progress=False))
    print(f"created domain pack {domain.name!r} in {folder}/ (gym id {domain.gym_id})")
    print(f"validation: {'OK' if report['ok'] else 'FAILED'} ({report['tasks']} tasks)")
    print(f"next: edit {folder}/schema.py, tools.py, policy.md and tasks/; then tb_env.register_domain({str(folder)!r})")
    return 0 if report["ok"] else 1


def _show(args: argparse.Namespace) -> int:
    from tb_env.cli.show import describe

    print(asyncio.run(describe(args.task_id)), end="")
    return 0


def _tools(args: argparse.Namespace) -> int:
    from tb_env.cli.tools import main

    return main(args.domain, args.json)


def _play(args: argparse.Namespace) -> int:
    from tb_env.cli.play import main

    return main(args.task_id)


def _probe(args: argparse.Namespace) -> int:
    from tb_env.cli.probe import main

    return main(args.task_id, args.reply, args.calls, args.upto, args.json, args.show)


def _export(args: argparse.Namespace) -> int:
    from tb_env.training.export import export

    for path in export(args.pool, args.format, args.out, args.allow_eval_only, args.max_prompt_length, args.tokenizer):
        print(f"wrote {path}")
    return 0


def _pg_clean(args: argparse.Namespace) -> int:
    from tb_env.backends.postgres import pg_clean

    dropped = asyncio.run(pg_clean(args.dsn, everything=args.all))
    print(f"dropped {len(dropped)} schema(s)" + (": " + ", ".join(dropped) if dropped else ""))
    return 0


def _mcp(args: argparse.Namespace) -> int:
    from tb_env.serving.taskserver import main

    return main(args.task, args.backend, args.result)


def _serve(args: argparse.Namespace) -> int:
    from tb_env.serving.service import serve

    if args.host not in ("127.0.0.1", "localhost", "::1") and not args.token:
        print(f"warning: serving on {args.host} without --token: anyone who can reach it can run episodes",
              file=sys.stderr)
    print(f"tb-env service on http://{args.host}:{args.port} (OpenAPI: /openapi.json, MCP: /mcp)", file=sys.stderr)
    serve(args.host, args.port, args.token, args.idle_timeout, args.user, args.tool_timeout)
    return 0


def _register_packs(paths: list[str] | None) -> None:
    from tb_env.domain.registry import register_domain

    for p in paths or []:
        register_domain(p)


def _register_thinkingbox(args: argparse.Namespace) -> None:
    """`--thinkingbox DIR`: ThinkingBox-Bench v1.0's scenarios become domains (eval only)."""
    args.thinkingbox_domains = None
    if getattr(args, "thinkingbox", None) and args.command != "bench":
        from tb_env.thinkingbox import register_thinkingbox

        release = register_thinkingbox(args.thinkingbox, args.server_python)
        args.thinkingbox_domains = sorted({t.task.domain for t in release.tasks})


def _thinkingbox_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--thinkingbox", metavar="DIR",
                        help="run ThinkingBox-Bench v1.0 from this thinkingbox-data checkout (see docs/thinkingbox.md)")
    parser.add_argument("--server-python", metavar="PATH",
                        help="interpreter with the ThinkingBox servers installed "
                             "(default: $TB_THINKINGBOX_PYTHON, else this one)")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tb-env", description=__doc__)
    p.add_argument("--pack", action="append", metavar="PATH",
                   help="register a domain pack folder first (repeatable); installed packs register themselves")
    sub = p.add_subparsers(dest="command", required=True)

    v = sub.add_parser(
        "validate",
        help="every task: the oracle and legitimate variants score 1; doing nothing, wrong paths and sloppy variants 0",
    )
    v.add_argument("--domain", help="comma-separated domain names (default: all)")
    v.add_argument("--backend", default="sqlite", help="sqlite (default) or postgres")
    v.add_argument("--json", action="store_true", help="print the report as JSON: per task and variant, pass or fail and why")
    v.add_argument("--no-probes", action="store_true", help="only the oracle, doing nothing and the wrong paths (faster)")
    v.add_argument("--workers", type=int, default=1,
                   help="processes to share the tasks among (default 1); the probes are CPU-bound, so one per core")
    v.set_defaults(fn=_validate)

    d = sub.add_parser("demo", help="a small evaluation campaign: oracle and noisy oracle, k trials per task")
    d.add_argument("--trials", type=int, default=5)
    d.add_argument("--split", default="test", choices=["train", "test", "all"])
    d.add_argument("--out-dir", default="results/demo")
    d.set_defaults(fn=_demo)

    e = sub.add_parser("eval", help="run every task k times against a model; one JSON line per trial; resumable")
    e.add_argument("--model", help="model name at the endpoint (required for --policy chat/completions)")
    e.add_argument("--base-url", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL)")
    e.add_argument("--api-key-env", default="OPENAI_API_KEY", help="name of the variable holding the API key")
    e.add_argument("--policy", choices=["chat", "completions", "oracle", "noisy-oracle"],
                   help="chat (default with --model), completions (raw text + local chat template), oracle, noisy-oracle")
    e.add_argument("--tokenizer", help="local tokenizer folder with a chat template (--policy completions)")
    e.add_argument("--format", default="hermes", help="tool-call format of raw text (hermes, qwen3_coder, mistral)")
    e.add_argument("--noise", type=float, default=0.2, help="noisy-oracle: probability of dropping/corrupting a call")
    e.add_argument("--user-model", help="LLM user simulator model (default: the tasks' scripted users)")
    e.add_argument("--user-base-url", help="endpoint of the user simulator (default: --base-url)")
    e.add_argument("--user-cache", help="SQLite file caching user-simulator replies, so reruns replay the same user")
    e.add_argument("--judge-model", help="LLM judge for rubric tasks (without one they are skipped, not scored)")
    e.add_argument("--judge-base-url", help="endpoint of the judge (default: --base-url)")
    e.add_argument("--judge-cache", help="SQLite file caching the judge's verdicts")
    e.add_argument("--ray", metavar="ADDRESS", help="run env workers on Ray ('auto', 'ray://host:10001', or 'local')")
    e.add_argument("--ray-workers", type=int, default=4, help="env worker actors with --ray")
    e.add_argument("--domains", help="comma-separated domains (default: all)")
    e.add_argument("--split", default="test", choices=["train", "test", "all"])
    e.add_argument("--tasks", help="file with one task id per line (e.g. a pool from tb-env filter)")
    e.add_argument("--trials", type=int, default=20)
    e.add_argument("--concurrency", type=int, default=64)
    e.add_argument("--seed", type=int, default=0)
    e.add_argument("--temperature", type=float)
    e.add_argument("--top-p", type=float)
    e.add_argument("--max-tokens", type=int)
    e.add_argument("--max-turns", type=int, default=50)
    e.add_argument("--retries", type=int, default=3, help="re-runs of a trial that hit an infrastructure error")
    e.add_argument("--max-infra-errors", type=int, help="abort the campaign after this many infra-failed trials")
    e.add_argument("--max-cost-usd", type=float, help="stop cleanly once this much has been spent")
    e.add_argument("--price-in", type=float, help="USD per million input tokens")
    e.add_argument("--price-out", type=float, help="USD per million output tokens")
    e.add_argument("--prices", help="YAML/JSON price table {model: {in: X, out: Y}} overriding the built-in one")
    e.add_argument("--save-trajectories", metavar="DIR", help="one JSON file per trial with transcript and check")
    e.add_argument("--quiet", action="store_true", help="no progress bar")
    e.add_argument("--out", required=True, help="results file (JSON lines); rerun with the same --out to resume")
    _thinkingbox_flags(e)
    e.set_defaults(fn=_eval)

    r = sub.add_parser("report", help="pass@1, pass^k, pass@k, cost and plots, from results files alone")
    r.add_argument("files", nargs="+")
    r.add_argument("--json", action="store_true")
    r.add_argument("--html", metavar="OUT", help="write an HTML report with the plots embedded")
    r.add_argument("--k", help="comma-separated k values (default: every k up to the trials per task)")
    r.set_defaults(fn=_report)

    c = sub.add_parser("compare", help="which of two campaigns is better, per task and domain (Beta posterior)")
    c.add_argument("a")
    c.add_argument("b")
    c.add_argument("--json", action="store_true")
    c.set_defaults(fn=_compare)

    f = sub.add_parser("filter", help="keep tasks the base policy sometimes solves: a training pool")
    f.add_argument("files", nargs="+")
    f.add_argument("--min-rate", type=float, default=0.1)
    f.add_argument("--max-rate", type=float, default=0.9)
    f.add_argument("--min-trials", type=int, default=4)
    f.add_argument("--allow-eval-only", action="store_true", help="allow benchmark (eval_only) tasks in the pool")
    f.add_argument("--out", required=True)
    _thinkingbox_flags(f)
    f.set_defaults(fn=_filter)

    x = sub.add_parser("export", help="write a training pool in the format a trainer reads (trl, verl, skyrl)")
    x.add_argument("--pool", required=True, help="file with one task id per line (e.g. from tb-env filter)")
    x.add_argument("--format", required=True, choices=["trl", "verl", "skyrl"])
    x.add_argument("--out", required=True, help="output folder")
    x.add_argument("--allow-eval-only", action="store_true")
    x.add_argument("--max-prompt-length", type=int, help="the trainer's prompt budget in tokens: warn per domain whose "
                   "opening prompt (policy, tool schemas, first message) exceeds it (verl: data.max_prompt_length)")
    x.add_argument("--tokenizer", help="a local tokenizer folder to count with (default: an offline estimate)")
    x.set_defaults(fn=_export)

    sv = sub.add_parser("serve", help="serve environments over HTTP (episode API + MCP) to remote workers")
    sv.add_argument("--host", default="127.0.0.1", help="bind address (default: loopback only)")
    sv.add_argument("--port", type=int, default=8700)
    sv.add_argument("--token", action="append",
                    help="require 'Authorization: Bearer TOKEN' on every request (repeatable: one token per client; "
                         "an episode answers only to the token that created it)")
    sv.add_argument("--idle-timeout", type=float, default=3600.0, help="close episodes idle this many seconds")
    sv.add_argument("--tool-timeout", type=float, default=30.0,
                    help="a tool call running longer ends its episode as an infra error")
    sv.add_argument("--user", default="scripted", choices=["scripted", "llm"], help="user simulator")
    sv.set_defaults(fn=_serve)

    m = sub.add_parser("mcp", help="serve one episode's tools as a stdio MCP server; grade when the client leaves")
    m.add_argument("--task", required=True)
    m.add_argument("--backend", default="sqlite", choices=["sqlite", "postgres"])
    m.add_argument("--result", help="write the check's result (reward, check) here as JSON at the end")
    m.set_defaults(fn=_mcp)

    pc = sub.add_parser("pg-clean", help="drop PostgreSQL schemas left by dead tb-env processes")
    pc.add_argument("--dsn", help="default: $TB_PG_DSN or postgresql://postgres@127.0.0.1:5432/postgres")
    pc.add_argument("--all", action="store_true", help="also drop live processes' schemas and the templates")
    pc.set_defaults(fn=_pg_clean)

    n = sub.add_parser("new-domain", help="scaffold a working domain pack (validated on creation)")
    n.add_argument("name")
    n.add_argument("--path", help="folder to create (default: ./NAME)")
    n.set_defaults(fn=_new_domain)

    s = sub.add_parser("show", help="print a task: scenario, patch, golden calls and results, state changes, wrong paths")
    s.add_argument("task_id")
    s.set_defaults(fn=_show)

    tl = sub.add_parser("tools", help="a domain's tools (arguments, types, read or write) and tables (columns): "
                                      "what a task's golden calls and rows must name")
    tl.add_argument("domain")
    tl.add_argument("--json", action="store_true")
    tl.set_defaults(fn=_tools)

    pl = sub.add_parser("play", help="play the agent on a task in the terminal, then see the check")
    pl.add_argument("task_id")
    pl.set_defaults(fn=_play)

    pr = sub.add_parser("probe", help="grade one alternative agent: the golden calls (or others), then your reply")
    pr.add_argument("task_id")
    pr.add_argument("--reply", action="append", default=[], help="what the agent says after the calls (repeatable: one turn each)")
    pr.add_argument("--calls", default="golden", help="golden (default), none, or a JSON file of calls and replies")
    pr.add_argument("--upto", type=int, help="only the first N of those calls")
    pr.add_argument("--json", action="store_true", help="reward, failures, diff and the conversation as JSON")
    pr.add_argument("--show", action="store_true", help="print the conversation")
    pr.set_defaults(fn=_probe)

    b = sub.add_parser("bench", help="latency of reset, a tool call, the check and an episode, with baselines")
    b.add_argument("--json", action="store_true")
    b.add_argument("--samples", type=int, default=300)
    b.add_argument("--prompt", action="store_true", help="each domain's opening prompt in tokens, against pydantic's verbose schemas")
    b.add_argument("--tokenizer", help="--prompt: a local tokenizer folder to count with (default: an offline estimate)")
    b.add_argument("--scale", action="store_true", help="throughput and latency under concurrency, all backends and faces")
    b.add_argument("--levels", help="--scale concurrency levels (default 1,64,512,2048)")
    b.add_argument("--out", help="--scale: also write the JSON here")
    b.add_argument("--no-postgres", action="store_true")
    b.add_argument("--no-service", action="store_true")
    _thinkingbox_flags(b)
    b.add_argument("--episodes", type=int, default=40, help="--thinkingbox: oracle episodes per server mode")
    b.add_argument("--faithfulness", action="store_true",
                   help="--thinkingbox: also run the oracle and a no-op on every task")
    b.add_argument("--concurrency", type=int, default=2, help="--thinkingbox --faithfulness: episodes at once")
    b.set_defaults(fn=_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        _register_packs(args.pack)
        _register_thinkingbox(args)
        return args.fn(args)
    except ConfigError as exc:
        print(f"tb-env: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a full disk, a lost mount: what was written stays valid; rerun to resume
        print(f"tb-env: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
