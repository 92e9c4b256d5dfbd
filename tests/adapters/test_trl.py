"""TRL adapter: a real GRPOTrainer trains on tb-env episodes, rewarded by the state check.

Everything runs offline on the CPU: a tiny Qwen3 built from a config, a byte-level
tokenizer trained in-process, scripted generation (see trl_scripts)."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib.util
import json
import math
import os
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("trl")

import torch
import yaml
from transformers.utils import get_json_schema
from trl import GRPOConfig

from tb_env.adapters import trl as adapter
from tb_env.errors import ConfigError, EvalOnlyTaskError, InfraError

from .trl_scripts import (
    ASSISTANT,
    CHECK,
    ENV_BLOCK,
    FACTORY_SCRIPTS,
    REFUSAL,
    ROLLOUT_SCRIPTS,
    TASK,
    Scripted,
    call,
    recording_trainer,
    runs,
    tiny_model,
    tokenizer,
)

os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
GROUP = 4


def config(tmp_path, **kw) -> GRPOConfig:
    """Two optimizer steps of 2 prompts x 4 episodes; no KL (beta 0), as in the paper."""
    base = dict(
        output_dir=str(tmp_path), per_device_train_batch_size=2 * GROUP, num_generations=GROUP, max_steps=2,
        learning_rate=1e-3, beta=0.0, logging_steps=1, report_to="none", save_strategy="no", use_cpu=True,
        max_completion_length=4096, seed=0, disable_tqdm=True, dataloader_num_workers=0,
    )
    return GRPOConfig(**{**base, **kw})


def step_logs(trainer) -> list[dict]:
    return [h for h in trainer.state.log_history if "reward" in h]


def nanmean(values) -> float:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept)


def assert_masks_cover_environment_tokens(tok, batches) -> None:
    """In what TRL trained on, the masked (0) runs are exactly the environment's text
    (tool results, user messages, the next turn's header) and the rest is model text."""
    for batch in batches:
        for ids, live, tool in zip(batch["completion_ids"], batch["completion_mask"], batch["tool_mask"], strict=True):
            n = int(live.sum())
            if not tool[:n].any():  # an episode that could not be scored: nothing of it is trained
                continue
            for value, run in runs(ids[:n].tolist(), tool[:n].tolist()):
                text = tok.decode(run)
                if value == 0:
                    assert ENV_BLOCK.fullmatch(text), text
                else:
                    assert "<tool_response>" not in text and "<|im_start|>user" not in text, text


# --- the dataset -------------------------------------------------------------------------------------


def test_prompt_dataset_from_a_task_list_or_pool_file_refuses_eval_only_tasks(mini, tmp_path):
    ds = adapter.prompt_dataset([TASK, TASK])
    assert ds.num_rows == 2 and set(ds.column_names) >= {"prompt", "task_id", "environment"}
    row = ds[0]
    assert row["task_id"] == TASK and row["environment"] == "mini"
    assert [m["role"] for m in row["prompt"]] == ["system", "user"]
    assert row["prompt"][1]["content"] == "Close my account A-003 now."
    pool = tmp_path / "pool.txt"
    pool.write_text(f"# kept by tb-env filter\n{TASK}\n")
    assert adapter.prompt_dataset(pool)["task_id"] == [TASK]
    with pytest.raises(EvalOnlyTaskError, match="mini/deposit-001"):
        adapter.prompt_dataset(["mini/deposit-001"])
    assert adapter.prompt_dataset(["mini/deposit-001"], allow_eval_only=True).num_rows == 1


# --- (a) environment_factory -------------------------------------------------------------------------


def test_environment_tools_are_typed_methods_that_get_json_schema_accepts(mini):
    env = adapter.environment_factory([TASK], user="lines")()
    schema = get_json_schema(env.set_status)["function"]
    assert schema["parameters"]["required"] == ["account_id", "status"]
    assert schema["parameters"]["properties"]["status"]["enum"] == ["open", "frozen", "closed"]
    assert get_json_schema(env.deposit)["function"]["parameters"]["properties"]["amount"]["type"] == "number"
    assert get_json_schema(env.respond_to_user)["function"]["parameters"]["required"] == ["message"]
    retail = adapter.environment_class("retail")()
    names = [n for n in dir(type(retail)) if not n.startswith("_") and callable(getattr(retail, n))]
    schemas = [get_json_schema(getattr(retail, n)) for n in names if n not in ("reset", "get_reward")]
    assert len(schemas) > 10 and all(s["function"]["description"] for s in schemas)


def test_environment_episode_rewards_the_state_and_refuses_eval_only_tasks(mini):
    env = adapter.environment_factory([TASK], user="lines")()
    env.reset(task_id=TASK, prompt=[])
    assert json.loads(env.get_account(account_id="A-003"))["balance"] == 40.0
    env.add_note(account_id="A-003", text="refused")
    assert env.respond_to_user(message=REFUSAL) == "Fine."
    assert env.get_reward() == 1.0
    env.reset(task_id=TASK)
    env.set_status(account_id="A-003", status="closed")
    assert env.get_reward() == 0.0
    env.reset(task_id=TASK)
    assert "will not be scored" in env.crash()
    assert env.get_reward() is None  # an infrastructure failure: excluded by TRL, never 0
    with pytest.raises(EvalOnlyTaskError):
        env.reset(task_id="mini/deposit-001")


def test_grpo_trainer_trains_with_the_environment_factory(mini, tmp_path):
    tok = tokenizer()
    step1 = ["solve", "fail", "solve", "fail", "solve", "crash", "fail", "solve"]
    step2 = ["fail", "solve", "solve", "fail", "fail", "solve", "solve", "fail"]
    script = Scripted(tok, FACTORY_SCRIPTS, step1 + step2)
    checks: list[float | None] = []

    class Env(adapter.environment_factory([TASK], user="lines")):
        def get_reward(self):
            checks.append(super().get_reward())
            return checks[-1]

    model = tiny_model(tok)
    before = [p.detach().clone() for p in model.parameters()]
    trainer = recording_trainer(script)(
        model=model, args=config(tmp_path), train_dataset=adapter.prompt_dataset([TASK] * 4),
        processing_class=tok, environment_factory=Env,
    )
    trainer.train()

    assert script.handed == step1 + step2
    assert checks == [CHECK[s] for s in step1 + step2]
    logs = step_logs(trainer)
    assert [h["reward"] for h in logs] == pytest.approx([nanmean(checks[:8]), nanmean(checks[8:])])
    assert logs[0]["reward"] == pytest.approx(4 / 7)  # the crashed episode is left out, not scored 0
    assert all(h["grad_norm"] > 0 for h in logs)
    assert any(not torch.equal(a, b) for a, b in zip(before, model.parameters(), strict=True))
    assert_masks_cover_environment_tokens(tok, trainer.batches)
    # the user's reply came back as a (masked) tool result
    decoded = [tok.decode(ids[mask == 0]) for b in trainer.batches for ids, mask in zip(b["completion_ids"], b["tool_mask"], strict=True)]
    assert any("Fine." in d for d in decoded)


# --- (b) rollout_func ---------------------------------------------------------------------------------


class Recorder(adapter.RolloutFunc):
    """Keeps what each call returned."""

    def __call__(self, prompts, trainer):
        out = super().__call__(prompts, trainer)
        self.outputs = [*getattr(self, "outputs", []), out]
        return out


def test_grpo_trainer_trains_with_the_rollout_func_and_refills_infra_faults(mini, tmp_path):
    from transformers import TrainerCallback

    tok = tokenizer()
    # step 1: a crash, re-run by refill (9 episodes played, 8 trained on); step 2: refill is
    # off, so the crashed episode stays unscored (None) and TRL leaves it out
    step1 = ["crash", "solve", "fail", "solve", "fail", "solve", "fail", "solve", "fail"]
    step2 = ["crash", "solve", "solve", "fail", "solve", "fail", "solve", "fail"]
    script = Scripted(tok, ROLLOUT_SCRIPTS, step1 + step2)
    rollout_func = Recorder(generate=script.generate, max_reruns=1, user="lines")

    class NoRefillAfterStepOne(TrainerCallback):
        def on_step_end(self, args, state, control, **kwargs):
            rollout_func.max_reruns = 0

    model = tiny_model(tok)
    trainer = recording_trainer()(
        model=model, args=config(tmp_path), train_dataset=adapter.prompt_dataset([TASK] * 4),
        processing_class=tok, reward_funcs=[adapter.tb_env_reward], rollout_func=rollout_func,
        callbacks=[NoRefillAfterStepOne()],
    )
    trainer.train()

    assert sorted(script.handed) == sorted(step1 + step2)
    rewards = [out["env_reward"] for out in rollout_func.outputs]
    assert sorted(rewards[0]) == [0.0] * 4 + [1.0] * 4  # the crash was re-run, never scored 0
    assert rewards[1].count(None) == 1 and sorted(r for r in rewards[1] if r is not None) == [0.0] * 3 + [1.0] * 4
    logs = step_logs(trainer)
    assert [h["reward"] for h in logs] == pytest.approx([nanmean(rewards[0]), nanmean(rewards[1])])
    assert logs[1]["reward"] == pytest.approx(4 / 7)  # not 4 / 8: the unscored episode is excluded
    assert [h["tb_env/infra_reruns"] for h in logs] == [1.0, 0.0]
    assert [h["tb_env/infra_unrecovered"] for h in logs] == [0.0, 1.0]
    assert all(h["grad_norm"] > 0 for h in logs)
    # the unscored episode keeps no trainable token
    out = rollout_func.outputs[1]
    assert sum(out["env_mask"][out["env_reward"].index(None)]) == 0
    # env_mask zeros are exactly the tool results and user replies, in what TRL trained on
    for out in rollout_func.outputs:
        for ids, mask, reward in zip(out["completion_ids"], out["env_mask"], out["env_reward"], strict=True):
            if reward is None:
                continue
            parts = runs(ids, mask)
            model_text = [tok.decode(r) for v, r in parts if v == 1]
            env_text = [tok.decode(r) for v, r in parts if v == 0]
            assert all(ENV_BLOCK.fullmatch(t) for t in env_text), env_text
            script_turns = next(s for s in ROLLOUT_SCRIPTS.values() if model_text[0].startswith(s[0]))
            assert model_text == [t + "<|im_end|>" for t in script_turns]
            assert "<tool_response>" in env_text[0] and env_text[-1].startswith("\n<|im_start|>user\nFine.")
    assert_masks_cover_environment_tokens(tok, trainer.batches)


def fake_trainer(tok, task_ids, training=True):
    """What RolloutFunc reads of a GRPOTrainer (one process)."""
    from datasets import Dataset

    return SimpleNamespace(
        accelerator=SimpleNamespace(process_index=0, num_processes=1),
        model=SimpleNamespace(training=training), num_generations=GROUP, num_generations_eval=2,
        processing_class=tok, train_dataset=Dataset.from_dict({"task_id": task_ids}), use_vllm=False,
    )


def test_dynamic_sampling_replaces_a_zero_variance_group_with_another_task(mini):
    tok = tokenizer()
    solve_deposit = [call("deposit", account_id="A-001", amount=100), "Your balance is $350.00.", call("end_conversation")]
    scripts = {**ROLLOUT_SCRIPTS, "deposit": solve_deposit}
    # the first group (refuse-close) fails 4 times: zero variance, replaced by deposit-001, half solved
    script = Scripted(tok, scripts, ["fail"] * 4 + ["deposit", "fail", "deposit", "fail"])
    pool = [TASK, "mini/deposit-001"]
    func = adapter.RolloutFunc(pool, generate=script.generate, allow_eval_only=True, user="lines")
    prompts = list(adapter.prompt_dataset([TASK] * GROUP)["prompt"])
    out = func(prompts, fake_trainer(tok, pool))
    assert out["task_id"] == ["mini/deposit-001"] * GROUP
    assert sorted(out["env_reward"]) == [0.0, 0.0, 1.0, 1.0]
    assert out["tb_env_metrics"]["tb_env/groups_zero_variance"] == 1.0
    assert out["tb_env_metrics"]["tb_env/groups_kept"] == 1.0
    assert tok.decode(out["prompt_ids"][0]).endswith("Please deposit 100 into account A-001.<|im_end|>\n<|im_start|>assistant\n")


def test_rollout_func_refuses_eval_only_tasks_and_prompts_without_a_task(mini):
    tok = tokenizer()
    script = Scripted(tok, ROLLOUT_SCRIPTS, ["solve"] * 8)
    with pytest.raises(EvalOnlyTaskError):
        adapter.RolloutFunc(["mini/deposit-001"], generate=script.generate)
    func = adapter.RolloutFunc([TASK], generate=script.generate)
    eval_prompts = list(adapter.prompt_dataset(["mini/deposit-001"] * GROUP, allow_eval_only=True)["prompt"])
    with pytest.raises(EvalOnlyTaskError):
        func(eval_prompts, fake_trainer(tok, [TASK]))
    with pytest.raises(ConfigError, match="prompt_dataset"):
        func([[{"role": "user", "content": "hi"}]] * GROUP, fake_trainer(tok, [TASK]))
    with pytest.raises(ConfigError, match="use_vllm"):
        adapter.RolloutFunc([TASK])(list(adapter.prompt_dataset([TASK] * GROUP)["prompt"]), fake_trainer(tok, [TASK]))


def test_batcher_serves_concurrent_episodes_in_batches(mini):
    """With vLLM, the episodes' turns reach the engine as batched calls from the trainer's thread."""
    tok = tokenizer()
    script = Scripted(tok, ROLLOUT_SCRIPTS, ["solve", "fail"] * 2)
    calls: list[int] = []

    def engine(prompts, max_tokens):
        calls.append(len(prompts))
        return [asyncio.run(script.generate(p, {"max_tokens": cap})) for p, cap in zip(prompts, max_tokens, strict=True)]

    func = adapter.RolloutFunc([TASK], user="lines")
    func._backend = engine
    out = func(list(adapter.prompt_dataset([TASK] * GROUP)["prompt"]), fake_trainer(tok, [TASK]))
    assert sorted(out["env_reward"]) == [0.0, 0.0, 1.0, 1.0]
    assert sum(calls) == sum(len(ROLLOUT_SCRIPTS[s]) for s in ["solve", "fail"] * 2)
    assert max(calls) > 1  # turns of different episodes shared an engine call
    assert all(math.isfinite(lp) for lps in out["logprobs"] for lp in lps)


def on_two_ranks(monkeypatch, prompts, make_func, trainer_tasks=(TASK,)) -> dict[int, dict]:
    """Each of two ranks (threads, with accelerate's gather_object between them) calls its own
    RolloutFunc on its half of `prompts`, as two GPUs' processes do; their outputs by rank."""
    import threading

    import accelerate.utils

    barrier = threading.Barrier(2)
    board: dict[int, list] = {}

    def gather_object(obj):  # accelerate's all-gather of python lists, between two threads
        rank = int(threading.current_thread().name)
        barrier.wait()
        board[rank] = list(obj)
        barrier.wait()
        out = board[0] + board[1]
        barrier.wait()
        return out

    monkeypatch.setattr(accelerate.utils, "gather_object", gather_object)
    half = len(prompts) // 2
    results: dict[int, dict] = {}

    def rank(r: int) -> None:
        trainer = fake_trainer(tokenizer(), list(trainer_tasks))
        trainer.accelerator = SimpleNamespace(process_index=r, num_processes=2)
        results[r] = make_func(r)(prompts[half * r : half * (r + 1)], trainer)

    threads = [threading.Thread(target=rank, args=(r,), name=str(r)) for r in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def test_groups_are_run_whole_across_processes_and_each_gets_its_own_slice(mini, monkeypatch):
    """Two ranks, 3 groups of 4: a group straddles the ranks' slices; rank 0 runs groups 0
    and 2, rank 1 group 1, and each gets back the rows of its own prompts."""
    tok = tokenizer()
    deposit = [call("deposit", account_id="A-001", amount=100), "Your balance is $350.00.", call("end_conversation")]

    async def generate(prompt_ids, sampling):
        text = tok.decode(prompt_ids)
        script = deposit if "Please deposit" in text else ROLLOUT_SCRIPTS["solve"]
        ids = [*tok.encode(script[text.count(ASSISTANT) - 1], add_special_tokens=False), tok.eos_token_id]
        return ids, [-0.5] * len(ids)

    tasks = [TASK] * GROUP + ["mini/deposit-001"] * GROUP + [TASK] * GROUP
    prompts = list(adapter.prompt_dataset(tasks, allow_eval_only=True)["prompt"])
    results = on_two_ranks(monkeypatch, prompts, lambda r: adapter.RolloutFunc(
        generate=generate, dynamic_sampling=False, allow_eval_only=True))
    assert results[0]["task_id"] == tasks[:6] and results[1]["task_id"] == tasks[6:]
    assert results[0]["env_reward"] == results[1]["env_reward"] == [1.0] * 6
    assert tok.decode(results[1]["prompt_ids"][0]).endswith("Please deposit 100 into account A-001.<|im_end|>\n" + ASSISTANT)
    assert results[0]["tb_env_metrics"] == results[1]["tb_env_metrics"]
    assert results[0]["tb_env_metrics"]["tb_env/episodes"] == 12.0


def test_a_replacement_never_repeats_a_task_another_process_runs(mini, monkeypatch):
    """Rank 0's group (refuse-close) always fails; rank 1 runs deposit-001, the pool's only
    other task. Rank 0 sees only its own group run, yet it may not take deposit-001: that
    would train one prompt twice in the step. With no spare task left, its group is kept
    and trains no token."""
    tok = tokenizer()
    deposit = [call("deposit", account_id="A-001", amount=100), "Your balance is $350.00.", call("end_conversation")]
    scripts = {**ROLLOUT_SCRIPTS, "deposit": deposit}
    patterns = {0: ["fail"] * (GROUP * 4), 1: ["deposit", "fail"] * (GROUP * 2)}
    pool = [TASK, "mini/deposit-001"]
    prompts = list(adapter.prompt_dataset([TASK] * GROUP + ["mini/deposit-001"] * GROUP, allow_eval_only=True)["prompt"])
    results = on_two_ranks(monkeypatch, prompts, lambda r: adapter.RolloutFunc(
        pool, generate=Scripted(tok, scripts, patterns[r]).generate, allow_eval_only=True, user="lines"))
    assert results[0]["task_id"] == [TASK] * GROUP  # not deposit-001, which rank 1 runs
    assert all(sum(m) == 0 for m in results[0]["env_mask"])
    assert results[1]["task_id"] == ["mini/deposit-001"] * GROUP and sorted(results[1]["env_reward"]) == [0, 0, 1, 1]
    assert results[0]["tb_env_metrics"]["tb_env/groups_untrained"] == 1.0


def test_spare_tasks_are_outside_the_batch_and_dealt_once_among_processes():
    pool = [f"t{i}" for i in range(10)]
    batch = ["t0", "t3", "t3", "t7"]
    dealt = [adapter.spare_tasks(pool, batch, rank, 3) for rank in range(3)]
    flat = [t for share in dealt for t in share]
    assert sorted(flat) == sorted(set(pool) - set(batch)) and len(flat) == len(set(flat))
    assert adapter.spare_tasks(pool, batch, 0, 1) == sorted(set(pool) - set(batch))


# --- the examples -------------------------------------------------------------------------------------

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "trl"


def load_train_script():
    spec = importlib.util.spec_from_file_location("tb_env_trl_train_grpo", EXAMPLES / "train_grpo.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses resolve the annotations through it
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("recipe", "processes"), [("recipe_1xH100.yaml", 1), ("recipe_1x8xH100.yaml", 6),
                                                   ("recipe_3x8xH100.yaml", 16)])
def test_example_recipes_are_the_papers_and_comment_every_change_from_trl(recipe, processes, monkeypatch):
    from trl import ModelConfig, TrlParser

    module = load_train_script()
    monkeypatch.setenv("TB_USER_MODEL", "unset")  # the recipe's `env:` block writes it
    monkeypatch.setattr(GRPOConfig, "world_size", property(lambda self: processes))
    env_args, args, model_args = TrlParser((module.TBEnvArguments, GRPOConfig, ModelConfig)).parse_args_and_config(
        ["--config", str(EXAMPLES / recipe), "--use_cpu", "true", "--bf16", "false"]
    )
    # one optimizer step per 18 prompts x 8 episodes; lr 1e-6, AdamW, no weight decay, 50 steps, no KL
    assert args.num_generations == 8 and args.generation_batch_size == 144
    assert args.per_device_train_batch_size * processes * args.gradient_accumulation_steps == 144
    assert (args.learning_rate, args.weight_decay, args.beta, args.max_steps) == (1e-6, 0.0, 0.0, 50)
    assert args.optim.value.startswith("adamw") and args.use_vllm and model_args.model_name_or_path.startswith("Qwen/Qwen3")
    assert env_args.mode == "rollout_func" and env_args.dynamic_sampling and env_args.user == "llm"
    assert env_args.max_reruns > 0 and not env_args.allow_eval_only
    if processes > 1:  # the launch script's accelerate config runs exactly these processes beside a vLLM server
        assert args.vllm_mode == "server"
        launch = (EXAMPLES / recipe.replace("recipe_", "launch_").replace(".yaml", ".sh")).read_text()
        (accelerate,) = re.findall(r"--config_file examples/trl/(\S+)", launch)
        assert yaml.safe_load((EXAMPLES / accelerate).read_text())["num_processes"] == processes
        assert f"--config examples/trl/{recipe}" in launch and "trl vllm-serve" in launch
        placed = re.findall(r"CUDA_VISIBLE_DEVICES=([\d,]+) (\w+)", launch)  # one node: the server's GPUs, the trainers'
        if placed:
            gpus = {cmd: devices.split(",") for devices, cmd in placed}
            assert len(gpus["accelerate"]) == processes and not set(gpus["accelerate"]) & set(gpus["setsid"])
            assert len(gpus["accelerate"]) + len(gpus["setsid"]) == 8
    # every TRL key says why when it departs from TRL's default, and says so when it keeps it
    defaults = {f.name: f.default for cls in (GRPOConfig, ModelConfig) for f in dataclasses.fields(cls)}
    for line in (EXAMPLES / recipe).read_text().splitlines():
        if not line or line[0] in "# " or ":" not in line:
            continue
        key, rest = line.split(":", 1)
        value, _, comment = rest.partition(" #")
        if key not in defaults or key in ("output_dir", "model_name_or_path"):
            continue
        default = getattr(defaults[key], "value", defaults[key])
        comment = comment.strip()
        if yaml.safe_load(value) == default:
            assert comment.startswith("TRL default"), line
        else:
            assert comment.startswith("default") and len(comment) > 20, line


# --- the vLLM glue (engine and server faked: vLLM needs a GPU) ----------------------------------------


def vllm_trainer(tok, mode, engine, max_model_len=None, **vg):
    """A fake trainer whose `vllm_generation` answers with `engine(prompt_ids, max_tokens)`. With
    `max_model_len`, a request in which any prompt + max_tokens is too long fails whole, as vLLM's does."""
    trainer = fake_trainer(tok, [TASK])
    trainer.use_vllm = True
    sampling = dict(temperature=1.0, top_p=1.0, top_k=0, min_p=None, repetition_penalty=1.0, generation_kwargs={})
    base = dict(mode=mode, tensor_parallel_size=1, enable_sleep_mode=False, **sampling)
    trainer.vllm_generation = SimpleNamespace(**{**base, **vg})
    if mode == "server":
        def generate(prompts, n, max_tokens, logprobs, generation_kwargs, **sampling):
            if max_model_len and any(len(p) + max_tokens > max_model_len for p in prompts):
                raise RuntimeError("400: a prompt plus max_tokens exceeds max_model_len")
            outs = [engine(p, max_tokens) for p in prompts]
            return {"completion_ids": [ids for ids, _ in outs], "logprobs": [[[lp] for lp in lps] for _, lps in outs]}

        trainer.vllm_generation.vllm_client = SimpleNamespace(generate=generate)
    else:
        def llm_generate(requests, sampling_params, use_tqdm):
            outs = []
            for r, params in zip(requests, sampling_params, strict=True):
                assert params.kwargs["n"] == 1 and params.kwargs["logprobs"] == 0
                if max_model_len and len(r["prompt_token_ids"]) + params.kwargs["max_tokens"] > max_model_len:
                    raise RuntimeError("a prompt plus max_tokens exceeds max_model_len")
                ids, lps = engine(r["prompt_token_ids"], params.kwargs["max_tokens"])
                logprobs = [{t: SimpleNamespace(logprob=lp)} for t, lp in zip(ids, lps, strict=True)]
                outs.append(SimpleNamespace(outputs=[SimpleNamespace(token_ids=ids, logprobs=logprobs)]))
            return outs

        trainer.vllm_generation.llm = SimpleNamespace(generate=llm_generate)
    return trainer


@pytest.mark.parametrize("mode", ["server", "colocate"])
def test_rollout_func_generates_on_trls_vllm_engine_or_server(mini, monkeypatch, mode):
    class SamplingParams:
        def __init__(self, **kwargs):
            self.kwargs = kwargs

    monkeypatch.setitem(sys.modules, "vllm", SimpleNamespace(SamplingParams=SamplingParams))
    tok = tokenizer()
    script = Scripted(tok, ROLLOUT_SCRIPTS, ["solve", "fail"] * 2)
    def engine(prompt_ids, max_tokens):
        ids, _ = asyncio.run(script.generate(prompt_ids, {"max_tokens": max_tokens}))
        return ids, [-0.25] * len(ids)

    out = adapter.RolloutFunc([TASK])(list(adapter.prompt_dataset([TASK] * GROUP)["prompt"]), vllm_trainer(tok, mode, engine))
    assert sorted(out["env_reward"]) == [0.0, 0.0, 1.0, 1.0]
    for lps, mask in zip(out["logprobs"], out["env_mask"], strict=True):
        assert all(lp == (-0.25 if m else 0.0) for lp, m in zip(lps, mask, strict=True))


@pytest.mark.parametrize("mode", ["server", "colocate"])
def test_each_episode_of_a_batch_gets_its_own_token_cap(mini, monkeypatch, mode):
    """One episode near its budget must not make vLLM reject the whole batch (issue 14, item 4)."""
    class SamplingParams:
        def __init__(self, **kwargs):
            self.kwargs = kwargs

    monkeypatch.setitem(sys.modules, "vllm", SimpleNamespace(SamplingParams=SamplingParams))
    seen: list[tuple[int, int]] = []

    def engine(prompt_ids, max_tokens):
        seen.append((len(prompt_ids), max_tokens))
        return [7] * max_tokens, [-0.5] * max_tokens

    call = adapter._vllm_backend(vllm_trainer(tokenizer(), mode, engine, max_model_len=60))
    long_prompt, short_prompt = [1] * 50, [1] * 10
    outs = call([long_prompt, short_prompt], [10, 40])  # a single cap of 40 would overflow the long one
    assert [len(ids) for ids, _ in outs] == [10, 40] and sorted(seen) == [(10, 40), (50, 10)]


def test_rollout_func_refuses_colocated_engines_it_cannot_drive(mini):
    tok = tokenizer()
    prompts = list(adapter.prompt_dataset([TASK] * GROUP)["prompt"])
    for bad in ({"tensor_parallel_size": 2}, {"enable_sleep_mode": True}):
        with pytest.raises(ConfigError, match="vllm_mode='server'"):
            adapter.RolloutFunc([TASK])(prompts, vllm_trainer(tok, "colocate", None, **bad))


def test_an_episode_whose_database_never_opened_is_excluded_not_scored(mini):
    """An infra failure before the first turn, with no re-run left: the row keeps its
    group's prompt, one masked token and reward None."""
    from tb_env.backends import SQLiteBackend
    from tb_env.errors import DatabaseError

    class Flaky(SQLiteBackend):
        def __init__(self, failures):
            super().__init__()
            self.failures = failures

        async def open(self, domain, task):
            if self.failures > 0:
                self.failures -= 1
                raise DatabaseError("database is locked")
            return await super().open(domain, task)

    tok = tokenizer()
    script = Scripted(tok, ROLLOUT_SCRIPTS, ["solve", "fail"])
    func = adapter.RolloutFunc([TASK], generate=script.generate, backend=Flaky(2), max_reruns=0)
    out = func(list(adapter.prompt_dataset([TASK] * GROUP)["prompt"]), fake_trainer(tok, [TASK]))
    assert sorted(out["env_reward"], key=str) == [0.0, 1.0, None, None]
    assert out["tb_env_metrics"]["tb_env/infra_unrecovered"] == 2.0
    for ids, mask, reward, prompt in zip(out["completion_ids"], out["env_mask"], out["env_reward"], out["prompt_ids"], strict=True):
        assert prompt == out["prompt_ids"][0]
        if reward is None:
            assert ids == [tok.eos_token_id] and mask == [0]
    with pytest.raises(InfraError, match="no episode of this batch could be scored"):
        adapter.RolloutFunc([TASK], generate=script.generate, backend=Flaky(99), max_reruns=1)(
            list(adapter.prompt_dataset([TASK] * GROUP)["prompt"]), fake_trainer(tok, [TASK])
        )


def test_a_replacement_never_repeats_a_task_of_the_batch_and_a_hopeless_group_trains_no_token(mini):
    tok = tokenizer()
    # two groups (refuse-close, deposit) that always fail, in a pool of just those two: the only
    # replacement left for either is the other's task, which would sample it twice in the batch
    script = Scripted(tok, ROLLOUT_SCRIPTS, ["fail"] * (GROUP * 8))
    pool = [TASK, "mini/deposit-001"]
    func = adapter.RolloutFunc(pool, generate=script.generate, allow_eval_only=True, user="lines", max_resamples=3)
    prompts = list(adapter.prompt_dataset([TASK] * GROUP + ["mini/deposit-001"] * GROUP, allow_eval_only=True)["prompt"])
    out = func(prompts, fake_trainer(tok, pool))
    assert out["task_id"] == [TASK] * GROUP + ["mini/deposit-001"] * GROUP
    assert out["tb_env_metrics"]["tb_env/groups_untrained"] == 2.0
    assert all(r == 0.0 for r in out["env_reward"])  # scored and logged ...
    assert all(sum(m) == 0 for m in out["env_mask"])  # ... never trained
