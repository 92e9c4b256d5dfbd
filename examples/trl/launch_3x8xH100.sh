#!/usr/bin/env bash
# The paper's recipe on 3 nodes x 8 H100. Run this script on every node with:
#   NODE_RANK   0, 1: trainer nodes (16 processes, ZeRO-3); 2: the vLLM server node
#   MASTER_ADDR address of node 0;  VLLM_HOST address of node 2
#   OPENAI_BASE_URL, OPENAI_API_KEY  the user simulator's endpoint (TB_USER_MODEL is in the recipe)
# Prepare data/pool.txt first (README.md).
set -euo pipefail
: "${NODE_RANK:?}" "${MASTER_ADDR:?}" "${VLLM_HOST:?}"
MODEL=Qwen/Qwen3-32B
cd "$(dirname "$0")/../.."

if [ "$NODE_RANK" = 2 ]; then
  # 4 replicas x tensor parallel 2; prefix caching reuses each episode's context between turns
  exec trl vllm-serve --model "$MODEL" --tensor_parallel_size 2 --data_parallel_size 4 \
    --max_model_len 32768 --enable_prefix_caching true --host 0.0.0.0 --port 8000
fi

export TRL_EXPERIMENTAL_SILENCE=1  # rollout_func is marked experimental in TRL
exec accelerate launch --config_file examples/trl/accelerate_2x8_zero3.yaml \
  --machine_rank "$NODE_RANK" --main_process_ip "$MASTER_ADDR" --main_process_port 29500 \
  examples/trl/train_grpo.py --config examples/trl/recipe_3x8xH100.yaml \
  --model_name_or_path "$MODEL" --vllm_server_base_url "http://$VLLM_HOST:8000"
