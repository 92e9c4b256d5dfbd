"""The consistency metrics, as pure functions of per-task success counts.

For a task tried n times with c successes:
- pass@1 = c / n (mean success);
- pass^k = C(c, k) / C(n, k): the probability that k trials drawn without replacement
  from the n all succeed (unbiased; the reference harness's (c/n)^k is biased upward for
  k > 1);
- pass@k = 1 - C(n - c, k) / C(n, k): the probability that at least one of k succeeds.
Benchmark figures are the mean over tasks. pass^n is the share of tasks solved in all
n trials.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb


def _check(n: int, c: int, k: int) -> None:
    if not (0 <= c <= n) or n < 1:
        raise ValueError(f"need 0 <= c <= n and n >= 1, got n={n}, c={c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must be in 1..n={n}, got {k}")


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Probability that k of the n trials, drawn without replacement, all succeed."""
    _check(n, c, k)
    return comb(c, k) / comb(n, k)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Probability that at least one of k trials drawn from the n succeeds."""
    _check(n, c, k)
    return 1.0 - comb(n - c, k) / comb(n, k)


def mean_over_tasks(counts: Iterable[tuple[int, int]], k: int, metric: str = "pass_hat") -> float:
    """Mean of pass^k ("pass_hat") or pass@k ("pass_at") over (n, c) pairs, one per task."""
    fn = pass_hat_k if metric == "pass_hat" else pass_at_k
    values = [fn(n, c, k) for n, c in counts]
    if not values:
        raise ValueError("no tasks")
    return sum(values) / len(values)


def pass_at_1(counts: Iterable[tuple[int, int]]) -> float:
    return mean_over_tasks(counts, 1, "pass_hat")
