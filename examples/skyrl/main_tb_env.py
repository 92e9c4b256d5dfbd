"""Train on tb-env with SkyRL's GRPO: `python examples/skyrl/main_tb_env.py --config FILE [key=value ...]`.

SkyRL's own entrypoint (`skyrl.train.entrypoints.main_base`) with three additions:
- `tb_env` is registered with skyrl_gym inside the Ray task that runs the generator
  (importing `tb_env.adapters.skyrl` does it), and the config gains
  `environment.skyrl_gym.tb_env.*` (`SkyRLEnvConfig`: user simulator, backend, format);
- `TBEnvGenerator` re-runs a trajectory that hit an infrastructure error (fresh env,
  fresh generation; `tb_env.training.grpo.refill`) instead of failing the step, grades episodes
  SkyRL stopped at the context limit, and allows evaluation-only tasks in SkyRL's eval
  phase only;
- `--config FILE` (repeatable) loads YAML overrides, so the recipe is a commented file.
Needs `pip install 'skyrl[fsdp]' tb-env` (Python >= 3.12, Linux with GPUs).
"""

import copy
import os
import sys
from dataclasses import dataclass, field
from typing import Any

import ray
import yaml
from skyrl.backends.skyrl_train.inference_servers.utils import resolve_policy_model_name
from skyrl.train.config import EnvironmentConfig, SkyRLGymConfig, SkyRLTrainConfig
from skyrl.train.config.config import overrides_dict_to_dotlist
from skyrl.train.entrypoints.main_base import BasePPOExp
from skyrl.train.generators.skyrl_gym_generator import SkyRLGymGenerator, TrajectoryOutput
from skyrl.train.utils import initialize_ray, validate_cfg

from tb_env.adapters.skyrl import ENV_ID, SkyRLEnvConfig, rerun_on_infra_error
from tb_env.training.grpo import Accounting

MAX_INFRA_RERUNS = 3  # attempts after the first, per trajectory, before the step fails
FORWARDED_ENV = ("TB_USER_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY")  # the LLM user's endpoint


@dataclass
class TBEnvSkyRLGymConfig(SkyRLGymConfig):
    tb_env: SkyRLEnvConfig = field(default_factory=SkyRLEnvConfig)


@dataclass
class TBEnvEnvironmentConfig(EnvironmentConfig):
    skyrl_gym: TBEnvSkyRLGymConfig = field(default_factory=TBEnvSkyRLGymConfig)


@dataclass
class TBEnvTrainConfig(SkyRLTrainConfig):
    environment: TBEnvEnvironmentConfig = field(default_factory=TBEnvEnvironmentConfig)


class TBEnvGenerator(SkyRLGymGenerator):
    """SkyRL's multi-turn generator with tb-env's training contract (see the module docstring)."""

    async def generate(self, input_batch: dict, disable_tqdm: bool = False) -> dict:
        meta = input_batch.get("batch_metadata")
        if meta is not None and meta.training_phase == "eval":
            for extras in input_batch.get("env_extras") or []:
                extras.setdefault("allow_eval_only", True)  # scored, never trained on
        self.acct = Accounting()
        output = await super().generate(input_batch, disable_tqdm)
        output["rollout_metrics"] = {**(output.get("rollout_metrics") or {}), **self.acct.as_metrics()}
        return output

    async def agent_loop(self, prompt: Any, env_class: str, env_extras: dict, *args: Any, **kwargs: Any) -> Any:
        parent = super()
        if env_class != ENV_ID:
            return await parent.agent_loop(prompt, env_class, env_extras, *args, **kwargs)
        return await rerun_on_infra_error(
            lambda: parent.agent_loop(copy.deepcopy(prompt), env_class, copy.deepcopy(env_extras), *args, **kwargs),
            MAX_INFRA_RERUNS,
            self.acct,
        )

    def _post_process_agent_loop_output(self, output: Any, env_extras: dict, trajectory_id: Any) -> Any:
        # SkyRL stops at generator.max_input_length without a last env.step; the env graded
        # the final state in get_metrics, and the reward goes on the trajectory's last token.
        truncated = output.env_metrics.get("context_truncated_reward") if isinstance(output, TrajectoryOutput) else None
        if truncated is not None:
            if isinstance(output.reward, list):
                if output.reward:
                    output.reward[-1] += truncated
            else:
                output.reward = truncated
        return super()._post_process_agent_loop_output(output, env_extras, trajectory_id)


class TBEnvExp(BasePPOExp):
    def get_generator(self, cfg, tokenizer, inference_engine_client):
        return TBEnvGenerator(
            generator_cfg=cfg.generator,
            skyrl_gym_cfg=cfg.environment.skyrl_gym,
            inference_engine_client=inference_engine_client,
            tokenizer=tokenizer,
            policy_model_name=resolve_policy_model_name(cfg),
        )


@ray.remote(num_cpus=1)
def skyrl_entrypoint(cfg: TBEnvTrainConfig) -> None:
    import tb_env.adapters.skyrl  # noqa: F401  registers "tb_env" in this process, where the envs run

    TBEnvExp(cfg).run()


def _flatten(tree: dict, prefix: str = "") -> dict:
    out: dict = {}
    for key, value in tree.items():
        if isinstance(value, dict) and value:
            out.update(_flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def parse_args(argv: list[str]) -> TBEnvTrainConfig:
    dotlist: list[str] = []
    cli: list[str] = []
    it = iter(argv)
    for arg in it:
        if arg == "--config" or arg.startswith("--config="):
            path = arg.split("=", 1)[1] if "=" in arg else next(it)
            with open(path) as f:
                dotlist += overrides_dict_to_dotlist(_flatten(yaml.safe_load(f) or {}))
        else:
            cli.append(arg)
    return TBEnvTrainConfig.from_cli_overrides(dotlist + cli)  # later entries win


def main() -> None:
    cfg = parse_args(sys.argv[1:])
    validate_cfg(cfg)
    initialize_ray(cfg)
    env_vars = {k: os.environ[k] for k in FORWARDED_ENV if os.environ.get(k)}
    ray.get(skyrl_entrypoint.options(runtime_env={"env_vars": env_vars}).remote(cfg))


if __name__ == "__main__":
    main()
