#!/usr/bin/env bash
# The recipe on one H100: training and a colocated vLLM engine on the same GPU.
#   OPENAI_BASE_URL, OPENAI_API_KEY  the user simulator's endpoint (TB_USER_MODEL is in the recipe)
# Prepare data/pool.txt first (README.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
export TRL_EXPERIMENTAL_SILENCE=1  # rollout_func is marked experimental in TRL
exec accelerate launch --num_processes 1 --mixed_precision bf16 \
  examples/trl/train_grpo.py --config examples/trl/recipe_1xH100.yaml "$@"
