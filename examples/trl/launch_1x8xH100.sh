#!/usr/bin/env bash
# The paper's recipe on one node of 8 H100, Qwen3-8B. Run it once, on that node:
#   GPUs 0-1  `trl vllm-serve` (2 replicas x tensor parallel 1), started here in the background
#   GPUs 2-7  6 training processes, DeepSpeed ZeRO-3 (accelerate_1x8_zero3.yaml)
#   OPENAI_BASE_URL, OPENAI_API_KEY  the user simulator's endpoint, off these 8 GPUs
#                                    (TB_USER_MODEL is in the recipe)
# Prepare data/pool.txt first (README.md). Needs flash-attn (the recipe's flash_attention_2).
set -euo pipefail
MODEL=Qwen/Qwen3-8B
cd "$(dirname "$0")/../.."

# 2 replicas x tensor parallel 1: 16 GB of bf16 weights leave each GPU ~55 GB of KV cache;
# prefix caching reuses each episode's context between turns
CUDA_VISIBLE_DEVICES=0,1 setsid trl vllm-serve --model "$MODEL" --tensor_parallel_size 1 --data_parallel_size 2 \
  --max_model_len 32768 --enable_prefix_caching true --host 127.0.0.1 --port 8000 &
server=$!  # setsid: the server and the vLLM processes it starts form one process group
trap 'kill -- "-$server" 2>/dev/null || true' EXIT  # which goes when training ends or fails

# the trainer waits for the server (vllm_server_timeout in the recipe)
export TRL_EXPERIMENTAL_SILENCE=1  # rollout_func is marked experimental in TRL
CUDA_VISIBLE_DEVICES=2,3,4,5,6,7 accelerate launch --config_file examples/trl/accelerate_1x8_zero3.yaml \
  --main_process_port 29500 \
  examples/trl/train_grpo.py --config examples/trl/recipe_1x8xH100.yaml \
  --model_name_or_path "$MODEL" --vllm_server_base_url "http://127.0.0.1:8000" "$@"
