"""pass@k and pass^k against hand-computed values."""

from __future__ import annotations

import pytest

from tb_env.evaluation.metrics import mean_over_tasks, pass_at_1, pass_at_k, pass_hat_k


def test_pass_hat_k_is_the_unbiased_estimator():
    # n=5, c=3, k=2: C(3,2)/C(5,2) = 3/10 (the biased (c/n)^k would give 0.36)
    assert pass_hat_k(5, 3, 2) == pytest.approx(0.3)
    assert pass_hat_k(20, 19, 20) == 0.0
    assert pass_hat_k(20, 20, 20) == 1.0
    assert pass_hat_k(4, 2, 1) == 0.5


def test_pass_at_k():
    # n=5, c=1, k=2: 1 - C(4,2)/C(5,2) = 1 - 6/10
    assert pass_at_k(5, 1, 2) == pytest.approx(0.4)
    assert pass_at_k(5, 0, 5) == 0.0
    assert pass_at_k(5, 1, 5) == 1.0


def test_pass_hat_n_is_the_share_of_tasks_solved_every_time_and_k1_is_the_mean():
    counts = [(4, 4), (4, 3), (4, 0), (4, 4)]
    assert mean_over_tasks(counts, 4, "pass_hat") == 0.5
    assert pass_at_1(counts) == pytest.approx((1 + 0.75 + 0 + 1) / 4)
    assert mean_over_tasks(counts, 4, "pass_at") == 0.75


def test_bad_counts_are_rejected():
    with pytest.raises(ValueError):
        pass_hat_k(3, 4, 1)
    with pytest.raises(ValueError):
        pass_at_k(3, 1, 4)
    with pytest.raises(ValueError):
        mean_over_tasks([], 1)
