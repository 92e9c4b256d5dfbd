"""The `tb-env` command: validate, demo, bench (more verbs arrive with later issues)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from tb_env.errors import ConfigError


def _validate(args: argparse.Namespace) -> int:
    from tb_env.validate import validate

    domains = [d for d in (args.domain or "").split(",") if d] or None
    report = asyncio.run(validate(domains, backend=args.backend, progress=not args.json))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name, d in report["domains"].items():
            print(f"{name}: {d['tasks']} tasks {d['splits']}, {d['failures']} failing")
        for f in report["failures"]:
            print(f"FAIL {f['task_id']}")
            for p in f["problems"]:
                print(f"    {p}")
        print("OK: every task validated" if report["ok"] else f"{len(report['failures'])} task(s) failed validation")
    return 0 if report["ok"] else 1


def _demo(args: argparse.Namespace) -> int:
    from tb_env.demo import main

    return main(trials=args.trials, domain=args.domain)


def _bench(args: argparse.Namespace) -> int:
    from tb_env.bench import main

    return main(as_json=args.json, samples=args.samples)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tb-env", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    v = sub.add_parser("validate", help="oracle scores 1, doing nothing 0, every wrong path 0, for every task")
    v.add_argument("--domain", help="comma-separated domain names (default: all)")
    v.add_argument("--backend", default="sqlite")
    v.add_argument("--json", action="store_true", help="print the report as JSON")
    v.set_defaults(fn=_validate)

    d = sub.add_parser("demo", help="a small evaluation campaign: oracle and noisy oracle, k trials per task")
    d.add_argument("--trials", type=int, default=5)
    d.add_argument("--domain", default=None)
    d.set_defaults(fn=_demo)

    b = sub.add_parser("bench", help="latency of reset, a tool call, the check and an episode, with baselines")
    b.add_argument("--json", action="store_true")
    b.add_argument("--samples", type=int, default=300)
    b.set_defaults(fn=_bench)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.fn(args)
    except ConfigError as exc:
        print(f"tb-env: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
