"""verl adapter: the `tb_env` agent loop, driven by a scripted server-manager `generate`.

verl pins transformers < 5.11, so these tests run in their own venv (`.venv-verl`, see
examples/verl/README.md); where verl is not importable they are skipped."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# skip only where verl is absent: an installed verl whose agent-loop modules fail to import is an error
pytest.importorskip(
    "verl", reason="verl is not installed here: the verl adapter is tested in .venv-verl (examples/verl/README.md)"
)

from omegaconf import OmegaConf
from verl.experimental.agent_loop.agent_loop import AgentLoopBase, AgentLoopWorker, _agent_loop_registry
from verl.utils.dataset.rl_dataset import RLHFDataset

from tb_env.adapters.verl import TBEnvAgentLoop
from tb_env.errors import ConfigError, EvalOnlyTaskError, InfraError
from tb_env.parties.user import LLMUser

from .verl_harness import (
    LOGPROB,
    THINKING_TEMPLATE,
    ScriptedServer,
    build_tokenizer,
    call,
    instantiate,
    row,
    sampling,
    trainer_config,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "verl"
TASK = "mini/refuse-close-001"  # train split: refuse to close A-003 (balance 40), leave a note
NOTE = "Close requested; positive balance, refused."
GOLDEN = [
    call("get_account", account_id="A-003"),
    call("add_note", account_id="A-003", text=NOTE),
    "I can't close A-003 while it has a positive balance of 40.",
    call("end_conversation"),
]
WRONG = [
    call("get_account", account_id="A-003"),
    call("set_status", account_id="A-003", status="closed"),
    "Done: A-003 is closed and the 40 will be mailed to you.",
    call("end_conversation"),
]


def play(scripts, tok=None, config=None, task=TASK, eos=True, **overrides):
    tok = tok or build_tokenizer()
    server = ScriptedServer(tok, scripts, eos=eos)

    async def main():
        # the fixed-lines user: its "Fine." is part of the token-exact transcript the tests pin
        loop = instantiate(server, config, user="lines", **overrides)
        return loop, await loop.run(sampling(), **row(task))

    loop, out = asyncio.run(main())
    return server, loop, out


def env_segments(tok, out) -> list[str]:
    """The decoded runs of response tokens with mask 0 (what the environment said)."""
    return [
        tok.decode([t for t, _ in run])
        for masked, run in itertools.groupby(zip(out.response_ids, out.response_mask, strict=True), lambda x: x[1])
        if masked == 0
    ]


def test_importing_the_adapter_keeps_the_yaml_entry_verl_loaded_first():
    """verl's worker loads agent_loop.yaml into its registry, then imports the adapter when it
    builds the first loop: every later trajectory must still get the YAML's settings. A
    fresh interpreter, as in a rollout worker."""
    code = (
        "from omegaconf import OmegaConf\n"
        "from verl.experimental.agent_loop.agent_loop import _agent_loop_registry as reg\n"
        f"for c in OmegaConf.load({str(EXAMPLES / 'agent_loop.yaml')!r}): reg[c.name] = c\n"
        "import tb_env.adapters.verl\n"
        "print(reg['tb_env']['max_turns'], reg['tb_env']['user'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.stdout.split() == ["50", "llm"], out.stderr[-2000:]


def test_the_agent_loop_is_registered_with_verl_under_tb_env(mini):
    assert _agent_loop_registry["tb_env"] == {"_target_": "tb_env.adapters.verl.TBEnvAgentLoop"}
    assert issubclass(TBEnvAgentLoop, AgentLoopBase)
    _, loop, _ = play([GOLDEN])
    assert type(loop) is TBEnvAgentLoop


def test_golden_text_scores_one_and_masks_exactly_the_tool_and_user_tokens(mini):
    tok = build_tokenizer()
    server, _, out = play([GOLDEN], tok)
    assert out.reward_score == 1.0
    assert out.num_turns == 1 + 4 + 3  # the prompt, 4 model turns, 2 tool results and 1 user reply
    assert len(out.response_ids) == len(out.response_mask) == len(out.response_logprobs)
    # mask 1 is exactly what the server generated, in order, with its logprobs
    model = [t for t, m in zip(out.response_ids, out.response_mask, strict=True) if m == 1]
    assert model == [t for c in server.calls for t in c["token_ids"]]
    assert {lp for lp, m in zip(out.response_logprobs, out.response_mask, strict=True) if m == 1} == {LOGPROB}
    assert {lp for lp, m in zip(out.response_logprobs, out.response_mask, strict=True) if m == 0} == {0.0}
    # mask 0 is exactly the environment: two tool results and the user's reply, each opening the next turn
    tool1, tool2, user = env_segments(tok, out)
    assert tool1.startswith("\n<|im_start|>user\n<tool_response>\n") and '"id": "A-003"' in tool1
    assert tool2.startswith("\n<|im_start|>user\n<tool_response>\n") and NOTE in tool2
    assert tool1.endswith("</tool_response><|im_end|>\n<|im_start|>assistant\n")
    assert user == "\n<|im_start|>user\nFine.<|im_end|>\n<|im_start|>assistant\n"
    # continuous tokens: every call extends the previous context, nothing is re-encoded
    assert server.calls[0]["prompt_ids"] == out.prompt_ids
    for a, b in itertools.pairwise(server.calls):
        assert b["prompt_ids"][: len(a["prompt_ids"]) + len(a["token_ids"])] == a["prompt_ids"] + a["token_ids"]
    assert out.prompt_ids + out.response_ids == server.calls[-1]["prompt_ids"] + server.calls[-1]["token_ids"]
    prompt = tok.decode(out.prompt_ids)
    assert prompt.endswith("Close my account A-003 now.<|im_end|>\n<|im_start|>assistant\n")
    assert '"name": "add_note"' in prompt  # the MCP tool schemas reach the prompt
    # verl's sampling parameters reach the server, with the turn's token budget
    assert all(c["sampling_params"]["temperature"] == 1.0 for c in server.calls)
    assert server.calls[0]["sampling_params"]["max_tokens"] == 4096
    assert out.extra_fields["reward_extra_info"]["tb_env_infra_reruns"] == 0
    assert out.extra_fields["global_steps"] == 7  # the server's fields ride along, as verl's loops do


def test_a_wrong_solution_scores_zero(mini):
    _, _, out = play([WRONG])
    assert out.reward_score == 0.0 and out.num_turns == 8


def test_a_template_that_rewrites_the_last_assistant_turn_still_masks_right(mini):
    """Qwen3's template renders the final assistant turn with a thinking block that it drops
    once more messages follow; verl's continuous-token builder renders each new message alone."""
    tok = build_tokenizer()
    tok.chat_template = THINKING_TEMPLATE
    _, _, out = play([GOLDEN], tok)
    assert out.reward_score == 1.0
    assert env_segments(tok, out)[-1] == "\n<|im_start|>user\nFine.<|im_end|>\n<|im_start|>assistant\n"


def test_an_unrecoverable_infra_fault_raises_after_the_reruns(mini):
    tok = build_tokenizer()
    server = ScriptedServer(tok, [[call("crash")]])

    async def main():
        loop = instantiate(server, user="lines", max_reruns=2)
        await loop.run(sampling(), **row(TASK))

    with pytest.raises(InfraError, match=r"infrastructure reasons 3 times \(last: tool_server"):
        asyncio.run(main())
    assert len({c["request_id"] for c in server.calls}) == 3  # the first try and 2 reruns, never a score


def test_a_transient_infra_fault_is_rerun_not_scored(mini):
    server, _, out = play([[call("crash")], GOLDEN])
    assert out.reward_score == 1.0
    assert out.extra_fields["reward_extra_info"]["tb_env_infra_reruns"] == 1
    assert len({c["request_id"] for c in server.calls}) == 2


def test_evaluation_only_tasks_are_refused_unless_overridden(mini):
    deposit = [call("deposit", account_id="A-001", amount=100), "Your balance is now $350.00.",
               call("end_conversation")]
    with pytest.raises(EvalOnlyTaskError, match="mini/deposit-001"):
        play([deposit], task="mini/deposit-001", stop_on_config_error=False)
    _, _, out = play([deposit], task="mini/deposit-001", allow_eval_only=True)
    assert out.reward_score == 1.0


def test_an_opening_prompt_over_verls_prompt_length_is_a_config_error_not_cut(mini):
    with pytest.raises(ConfigError, match=r"over rollout\.prompt_length=64"):
        play([GOLDEN], config=trainer_config(prompt_length=64), stop_on_config_error=False)


def test_a_configuration_error_stops_the_run_instead_of_failing_groups_forever(mini):
    """verl's v1 trainer logs an exception from a loop and drops the group, every step: a
    benchmark task in the pool (or any wrong setting) must end the worker, with its message."""
    code = (
        "import asyncio\n"
        "from tests.conftest import PACKS\n"
        "import tb_env, tb_env.adapters.verl\n"
        "tb_env.register_domain(PACKS / 'mini')\n"
        "from tests.adapters.verl_harness import ScriptedServer, build_tokenizer, instantiate, row, sampling\n"
        "async def main():\n"
        "    loop = instantiate(ScriptedServer(build_tokenizer(), []), user='lines')\n"
        "    await loop.run(sampling(), **row('mini/deposit-001'))\n"
        "asyncio.run(main())\n"
        "print('trained on')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         cwd=EXAMPLES.parents[1])
    assert out.returncode == 78, out.stderr[-2000:]
    assert "stopping the run: EvalOnlyTaskError" in out.stderr and "mini/deposit-001" in out.stderr
    assert "trained on" not in out.stdout


def test_the_response_budget_truncates_and_the_state_is_graded(mini):
    _, _, out = play([GOLDEN], config=trainer_config(response_length=60))
    assert len(out.response_ids) == len(out.response_mask) <= 60
    assert out.reward_score == 0.0  # graded on the final rows: the note was never written
    assert out.extra_fields["tb_env"]["truncated_by"] == "response_length"
    assert out.extra_fields["reward_extra_info"]["tb_env_truncated"] == 1


def test_a_turn_cut_at_its_token_cap_truncates_the_episode(mini):
    server, _, out = play([GOLDEN], eos=False, max_tokens_per_turn=12)
    assert [c["sampling_params"]["max_tokens"] for c in server.calls] == [12]
    assert out.response_mask == [1] * 12
    assert out.extra_fields["tb_env"]["truncated_by"] == "max_tokens_per_turn" and out.reward_score == 0.0


def test_a_server_that_strips_the_end_of_turn_token_gets_it_back_masked(mini):
    tok = build_tokenizer()
    server, _, out = play([GOLDEN], tok, eos=False)
    assert out.reward_score == 1.0
    model = [t for t, m in zip(out.response_ids, out.response_mask, strict=True) if m == 1]
    assert model == [t for c in server.calls for t in c["token_ids"]]
    assert all(seg.startswith("<|im_end|>\n<|im_start|>user\n") for seg in env_segments(tok, out))


def test_verls_worker_pads_the_output_and_puts_the_check_on_the_last_token(mini, monkeypatch):
    """`AgentLoopWorker._run_agent_loop` + `_postprocess`, as verl runs them, without Ray."""
    tok = build_tokenizer()
    server = ScriptedServer(tok, [GOLDEN, WRONG])
    config = trainer_config(prompt_length=2048, response_length=1024)
    monkeypatch.setitem(_agent_loop_registry, "tb_env_scripted",
                        {"_target_": "tb_env.adapters.verl.TBEnvAgentLoop", "user": "lines"})
    worker = AgentLoopWorker.__new__(AgentLoopWorker)
    vars(worker).update(
        config=config, llm_client=server, tokenizer=tok, processor=None, hf_model_type="qwen3",
        dataset_cls=RLHFDataset, tools=[], rollout_config=config.actor_rollout_ref.rollout,
        reward_loop_worker_handles=None, distillation_enabled=False, mm_processor_kwargs={},
    )

    async def main():
        outs = []
        for i in range(2):
            trajectory = {"step": 0, "sample_index": 0, "rollout_n": i, "validate": False}
            outs.append(await worker._run_agent_loop(sampling(), trajectory, agent_name="tb_env_scripted",
                                                     trace=False, **row(TASK)))
        return worker._postprocess(outs)

    batch = asyncio.run(main())
    assert batch.batch["responses"].shape == (2, 1024) and batch.batch["prompts"].shape == (2, 2048)
    assert batch.batch["rm_scores"].sum(dim=1).tolist() == [1.0, 0.0]
    lengths = batch.batch["attention_mask"][:, 2048:].sum(dim=1)
    last = batch.batch["rm_scores"][0].nonzero().flatten().tolist()
    assert last == [int(lengths[0]) - 1]  # the reward sits on the trajectory's last token
    assert batch.batch["response_mask"][0, lengths[0]:].sum() == 0  # padding is masked
    assert batch.non_tensor_batch["__num_turns__"].tolist() == [8, 8]


WORKER_OVER_TRAJECTORIES = """
import asyncio, json, sys
sys.path.insert(0, {repo!r})
from omegaconf import OmegaConf
from verl.experimental.agent_loop.agent_loop import AgentLoopWorker, _agent_loop_registry as registry
for entry in OmegaConf.load({yaml!r}):  # what verl's worker does before it builds any loop
    entry.user_model = "yaml-customer"  # a setting the loop's defaults (TB_USER_MODEL) do not have
    registry[entry.name] = entry
import tb_env
from tests.conftest import PACKS
from tests.adapters.verl_harness import ScriptedServer, build_tokenizer, row, sampling, trainer_config
from verl.utils.dataset.rl_dataset import RLHFDataset
tb_env.register_domain(PACKS / "mini")
tok = build_tokenizer()
config = trainer_config(prompt_length=2048, response_length=1024)
worker = AgentLoopWorker.__new__(AgentLoopWorker)
vars(worker).update(
    config=config, llm_client=ScriptedServer(tok, [{golden!r}] * 3), tokenizer=tok, processor=None,
    hf_model_type="qwen3", dataset_cls=RLHFDataset, tools=[], rollout_config=config.actor_rollout_ref.rollout,
    reward_loop_worker_handles=None, distillation_enabled=False, mm_processor_kwargs={{}},
)

async def main():
    outs = []
    for i in range(3):  # the adapter module is imported while the first loop is built, as in a real run
        trajectory = {{"step": 0, "sample_index": 0, "rollout_n": i, "validate": False}}
        outs.append(await worker._run_agent_loop(sampling(), trajectory, agent_name="tb_env", trace=False,
                                                 **row({task!r})))
    return worker._postprocess(outs)

batch = asyncio.run(main())
print(json.dumps(batch.batch["rm_scores"].sum(dim=1).tolist()))
"""


def test_verls_worker_gives_every_trajectory_the_example_yamls_settings(tmp_path):
    """Item 1 of the training issue, as a run meets it: verl's worker fills its registry from
    agent_loop.yaml, imports the adapter while building the first loop, then builds a loop per
    trajectory. Each of three trajectories must talk to the YAML's customer, not to the loop's
    defaults. A fresh interpreter, so the adapter is imported late."""
    from tests.openai_server import FakeOpenAI

    golden = [GOLDEN[0], GOLDEN[1], GOLDEN[2]]  # the customer's "ok ###STOP###" ends each episode
    code = WORKER_OVER_TRAJECTORIES.format(repo=str(EXAMPLES.parents[1]), yaml=str(EXAMPLES / "agent_loop.yaml"),
                                           golden=golden, task=TASK)
    with FakeOpenAI() as user:
        env = {**os.environ, "OPENAI_BASE_URL": user.url, "TB_USER_MODEL": "default-customer", "OPENAI_API_KEY": "x"}
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, env=env,
                             cwd=tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [1.0, 1.0, 1.0]
    assert [r["model"] for r in user.requests] == ["yaml-customer"] * 3  # one customer turn per trajectory


def test_the_example_agent_loop_yaml_builds_the_loop_with_an_llm_user(mini):
    (entry,) = [c for c in OmegaConf.load(EXAMPLES / "agent_loop.yaml") if c.name == "tb_env"]
    assert entry._target_ == "tb_env.adapters.verl.TBEnvAgentLoop"
    server = ScriptedServer(build_tokenizer(), [GOLDEN])

    async def main():
        import hydra
        from verl.experimental.agent_loop.agent_loop import DictConfigWrap, ToolListWrap

        config = trainer_config()
        return hydra.utils.instantiate(
            config=entry, trainer_config=DictConfigWrap(config), server_manager=server, tokenizer=server.tok,
            processor=None, hf_model_type="qwen3", dataset_cls=RLHFDataset,
            data_config=DictConfigWrap(config.data), tools=ToolListWrap([]),
        )

    loop = asyncio.run(main())
    assert isinstance(loop, TBEnvAgentLoop) and isinstance(loop.user, LLMUser)
    assert loop.user.model and loop.max_reruns >= 1 and not loop.allow_eval_only


@pytest.mark.filterwarnings("ignore:Disabled critic")
@pytest.mark.parametrize(("config", "gpus", "model"), [("grpo_3x8xh100", 24, "Qwen/Qwen3-32B"),
                                                        ("grpo_1x8xh100", 8, "Qwen/Qwen3-8B"),
                                                        ("grpo_1xh100", 1, "Qwen/Qwen3-1.7B")])
def test_the_grpo_configs_compose_on_verls_defaults_with_the_papers_recipe(config, gpus, model):
    """verl's own entry point composes each config (hydra, `--cfg job`) and its checks pass."""
    import os
    import subprocess
    import sys

    from verl.trainer.main_ppo import need_critic, need_reference_policy
    from verl.utils.config import validate_config

    env = {k: v for k, v in os.environ.items() if not k.startswith("TB_")}
    proc = subprocess.run(
        [sys.executable, "-m", "verl.trainer.main_ppo", f"--config-path={EXAMPLES / 'config'}",
         f"--config-name={config}", "--cfg", "job", "--resolve"],
        cwd=EXAMPLES.parents[1], env=env, capture_output=True, text=True, timeout=300, check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    cfg = OmegaConf.create(proc.stdout)
    actor, rollout = cfg.actor_rollout_ref.actor, cfg.actor_rollout_ref.rollout
    assert cfg.data.train_batch_size * rollout.n == 144 and rollout.n == 8
    assert actor.optim.optimizer == "AdamW" and actor.optim.lr == 1e-6 and actor.optim.weight_decay == 0.0
    assert actor.ppo_mini_batch_size == cfg.data.train_batch_size and actor.ppo_epochs == 1  # one update per step
    assert cfg.trainer.total_training_steps == 50
    assert cfg.algorithm.adv_estimator == "grpo"
    assert not actor.use_kl_loss and not cfg.algorithm.use_kl_in_reward and not need_reference_policy(cfg)
    assert cfg.algorithm.filter_groups.enable and cfg.algorithm.filter_groups.metric == "reward"
    assert cfg.trainer.use_v1 and cfg.trainer.v1.sampler.sync_refill_failed_groups
    assert rollout.name == "vllm" and rollout.agent.default_agent_loop == "tb_env"
    agent_yaml = EXAMPLES.parents[1] / rollout.agent.agent_loop_config_path
    assert [c.name for c in OmegaConf.load(agent_yaml)] == ["tb_env"]
    assert cfg.trainer.nnodes * cfg.trainer.n_gpus_per_node == gpus and cfg.actor_rollout_ref.model.path == model
    assert gpus % rollout.tensor_model_parallel_size == 0  # hybrid engine: vLLM replicas tile the actor's GPUs
    forwarded = cfg.ray_kwargs.ray_init.runtime_env.env_vars
    assert set(forwarded) == {"TB_USER_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"}
    # the workers resolve agent_loop.yaml's ${oc.env:...} with exactly what the driver forwards
    (entry,) = [c for c in OmegaConf.load(agent_yaml) if c.name == "tb_env"]
    raw = OmegaConf.to_container(entry, resolve=False)
    used = {v.split(":", 1)[1].split(",")[0] for v in raw.values() if isinstance(v, str) and v.startswith("${oc.env:")}
    assert used == set(forwarded) and forwarded["TB_USER_MODEL"] == "gpt-5-chat"
    assert rollout.prompt_length == cfg.data.max_prompt_length
    # a full-length episode fits one micro-batch (verl refuses a longer sequence) and Qwen3's 32k
    episode = cfg.data.max_prompt_length + cfg.data.max_response_length
    assert episode <= actor.ppo_max_token_len_per_gpu and episode <= 32768
    validate_config(cfg, use_reference_policy=False, use_critic=need_critic(cfg))


def test_verls_v1_worker_path_is_installed_and_loads_the_yaml_as_the_adapter_expects():
    """The path a 0.9 run takes (trainer.use_v1): AgentLoopWorkerTQ over TransferQueue. Its
    worker is verl's AgentLoopWorker, whose constructor fills the registry from the YAML
    before any loop (and so this adapter) is built: the order the registration guard keeps."""
    import inspect

    import transfer_queue  # noqa: F401
    from verl.experimental.agent_loop.agent_loop import AgentLoopWorker
    from verl.trainer.ppo.v1 import agent_loop_tq

    worker = agent_loop_tq.AgentLoopWorkerTQ.__ray_metadata__.modified_class
    assert issubclass(worker, AgentLoopWorker)
    init = inspect.getsource(AgentLoopWorker.__init__)
    assert "agent_loop_config_path" in init and "_agent_loop_registry[agent_loop_config.name] = agent_loop_config" in init
