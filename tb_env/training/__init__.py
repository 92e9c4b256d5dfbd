"""Training: what every trainer adapter shares (`tb_env.adapters.*` builds on this).

- `rollout`: token-in/token-out episodes, the model's tokens kept exactly, others masked;
- `grpo`: group statistics, zero-variance filtering, infra refill, the eval-only guard;
- `export`: task datasets in each trainer's format (`tb-env export`);
- `pool`: the offline difficulty filter over base-policy success (`tb-env filter`);
- `budget`: the opening prompt in tokens, checked against a trainer's prompt length at export.

Imports the episode core and below, and `tb_env.thinkingbox` (its tasks are evaluation only).
"""
