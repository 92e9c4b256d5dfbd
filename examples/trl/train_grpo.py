"""GRPO on tb-env with TRL: the paper's recipe, one YAML config away (see README.md).

    accelerate launch [--config_file ...] examples/trl/train_grpo.py --config examples/trl/recipe_1xH100.yaml

The config holds three sets of keys: `TBEnvArguments` below (the pool and the episodes),
TRL's `ModelConfig` (the model) and `GRPOConfig` (the optimisation); any key can be
overridden on the command line (`--max_steps 10`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trl import GRPOConfig, GRPOTrainer, ModelConfig, TrlParser


@dataclass
class TBEnvArguments:
    pool: str = field(metadata={"help": "`tb-env filter` pool file, or a `tb-env export --format trl` folder"})
    mode: str = field(
        default="rollout_func",
        metadata={"help": "rollout_func (tb_env.training.rollout on vLLM, refill, dynamic sampling) or environment_factory "
                  "(TRL's own tool loop; the user is reached through the respond_to_user tool)"},
    )
    user: str = field(default="llm", metadata={"help": "llm (LLMUser on an OpenAI-compatible endpoint) or scripted"})
    user_model: str | None = field(default=None, metadata={"help": "user simulator model (default: $TB_USER_MODEL)"})
    user_base_url: str | None = field(default=None, metadata={"help": "its endpoint (default: $OPENAI_BASE_URL)"})
    backend: str = field(default="sqlite", metadata={"help": "per-episode database backend (tb_env.backends.get_backend)"})
    max_turns: int = 50
    max_tokens_per_turn: int = 2048
    max_total_tokens: int = 32768
    max_reruns: int = field(default=3, metadata={"help": "re-runs of an episode that failed for infrastructure reasons"})
    dynamic_sampling: bool = field(default=True, metadata={"help": "replace zero-variance groups (DAPO)"})
    max_resamples: int = 3
    allow_eval_only: bool = False


def main() -> None:
    env_args, training_args, model_args = TrlParser((TBEnvArguments, GRPOConfig, ModelConfig)).parse_args_and_config()
    import tb_env
    from tb_env.adapters import trl as tb

    training_args.model_init_kwargs = training_args.model_init_kwargs or {
        k: v for k, v in {"dtype": model_args.dtype, "attn_implementation": model_args.attn_implementation}.items() if v
    }
    user = tb_env.LLMUser(model=env_args.user_model, base_url=env_args.user_base_url) if env_args.user == "llm" else env_args.user
    dataset = tb.prompt_dataset(env_args.pool, allow_eval_only=env_args.allow_eval_only)
    common = dict(model=model_args.model_name_or_path, args=training_args, train_dataset=dataset)
    if env_args.mode == "rollout_func":
        rollout_func = tb.RolloutFunc(
            env_args.pool, user=user, backend=env_args.backend, max_turns=env_args.max_turns,
            max_tokens_per_turn=env_args.max_tokens_per_turn, max_total_tokens=env_args.max_total_tokens,
            max_reruns=env_args.max_reruns, dynamic_sampling=env_args.dynamic_sampling,
            max_resamples=env_args.max_resamples, allow_eval_only=env_args.allow_eval_only,
        )
        trainer = GRPOTrainer(**common, reward_funcs=[tb.tb_env_reward], rollout_func=rollout_func)
    elif env_args.mode == "environment_factory":
        factory = tb.environment_factory(
            env_args.pool, user=user, backend=env_args.backend, max_turns=env_args.max_turns,
            allow_eval_only=env_args.allow_eval_only,
        )
        trainer = GRPOTrainer(**common, environment_factory=factory)
    else:
        raise SystemExit(f"--mode must be rollout_func or environment_factory, not {env_args.mode!r}")
    trainer.train()
    trainer.save_model(training_args.output_dir)


if __name__ == "__main__":
    main()
