#!/usr/bin/env bash
# GRPO on tb-env with verl 0.9 (README.md beside this file).
#   examples/verl/train_grpo.sh [grpo_3x8xh100 | grpo_1x8xh100 | grpo_1xh100] [hydra overrides...]
# Run from the repository root (agent_loop.yaml is found relative to it). For 3 nodes,
# start Ray first (`ray start --head` here, `ray start --address=HEAD:6379` on the other two
# nodes, the same venv and checkout on each) and run this on the head node.
set -euo pipefail

config="${1:-grpo_3x8xh100}"
shift $(( $# > 0 ? 1 : 0 ))

# the training pool, written by `tb-env export --format verl`
export TB_POOL_DIR="${TB_POOL_DIR:-data/tb_env_pool}"
# the simulated customer (as in the TRL and SkyRL recipes): any OpenAI-compatible endpoint
# reachable from every node; the paper's is GPT-5 Chat
export TB_USER_MODEL="${TB_USER_MODEL:-gpt-5-chat}"
export OPENAI_BASE_URL="${OPENAI_BASE_URL:-https://api.openai.com/v1}"
export OPENAI_API_KEY="${OPENAI_API_KEY:-EMPTY}"

if [[ ! -f examples/verl/agent_loop.yaml ]]; then
    echo "run this from the tb-env repository root" >&2
    exit 2
fi
if [[ ! -f "$TB_POOL_DIR/train.parquet" ]]; then
    echo "no $TB_POOL_DIR/train.parquet: run tb-env filter, then" \
         "tb-env export --pool pool.txt --format verl --out $TB_POOL_DIR" >&2
    exit 2
fi

exec python3 -m verl.trainer.main_ppo \
    --config-path="$(pwd)/examples/verl/config" --config-name="$config" "$@"
