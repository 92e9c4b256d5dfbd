"""The SkyRL adapter: a real `skyrl_gym` env, driven the way SkyRL's generator drives it."""

from __future__ import annotations

import asyncio

import pytest

import tb_env
from tb_env.errors import ConfigError, EvalOnlyTaskError, SimulatorError, ToolServerError, UnknownTaskError
from tb_env.parties.interpret import render_tool_call
from tb_env.training.export import export
from tb_env.training.grpo import Accounting

from ..tiny_tokenizer import build_tokenizer
from .skyrl_qwen3 import QWEN3_TOOLS_TEMPLATE

skyrl_gym = pytest.importorskip("skyrl_gym")
sky = pytest.importorskip("tb_env.adapters.skyrl")  # importing it registers "tb_env"

DEPOSIT = "mini/deposit-001"  # eval-only (test split)
REFUSE = "mini/refuse-close-001"  # train split


def call(name: str, **args) -> str:
    return render_tool_call(tb_env.ToolCall(name=name, arguments=args))


GOLDEN = [
    "<think>Deposit first, then tell them the balance.</think>" + call("deposit", account_id="A-001", amount=100),
    "Done, your balance is now $350.00.",
    call("end_conversation"),
]
WRONG = [call("deposit", account_id="A-002", amount=100), *GOLDEN[1:]]
REFUSE_GOLDEN = [
    call("get_account", account_id="A-003"),
    call("add_note", account_id="A-003", text="Close requested; positive balance, refused."),
    "I can't close A-003 while it has a positive balance of 40.",
    call("end_conversation"),
]


def make(task_id: str = DEPOSIT, env_config: dict | None = None, **extras):
    extras.setdefault("task_id", task_id)
    if task_id == DEPOSIT:
        extras.setdefault("allow_eval_only", True)
    return skyrl_gym.make("tb_env", env_config=env_config or {}, extras=extras)


def play(env, turns: list[str]) -> list[dict]:
    """SkyRL's agent loop, minus the model: init, then step until done."""
    env.init([{"role": "user", "content": "(the dataset prompt)"}])
    outs = []
    for text in turns:
        out = env.step(text)
        outs.append(out)
        if out["done"]:
            break
    metrics = env.get_metrics()
    env.close()
    return [*outs, metrics]


def test_importing_the_adapter_registers_tb_env_with_skyrl_gym(mini):
    assert "tb_env" in skyrl_gym.registry
    env = make()
    assert isinstance(env, sky.BaseTextEnv) and isinstance(env, sky.TBTextEnv)
    assert env.max_turns == 50 and env.spec.id == "tb_env"


def test_init_renders_the_policy_tool_schemas_and_first_user_message(mini):
    env = make()
    chat, meta = env.init([{"role": "user", "content": "ignored"}])
    assert [m["role"] for m in chat] == ["system", "user"]
    assert chat[0]["content"].startswith(tb_env.get_domain("mini").policy + "\n\n# Tools\n")
    assert '"name": "deposit"' in chat[0]["content"] and '"name": "end_conversation"' in chat[0]["content"]
    assert chat[1] == {"role": "user", "content": "Please deposit 100 into account A-001."}
    assert meta["task_id"] == DEPOSIT and {t["function"]["name"] for t in meta["tools"]} >= {"deposit"}
    env.close()


def test_the_system_prompt_is_what_qwen3s_template_writes_for_tools(mini):
    tok = build_tokenizer()
    tok.chat_template = QWEN3_TOOLS_TEMPLATE
    env = make()
    chat, meta = env.init()
    native = [{"role": "system", "content": tb_env.get_domain("mini").policy}, chat[1]]
    with_tools = tok.apply_chat_template(native, tools=meta["tools"], add_generation_prompt=True, tokenize=False)
    from_env = tok.apply_chat_template(chat, add_generation_prompt=True, tokenize=False)
    assert from_env == with_tools
    env.close()


def test_a_golden_solution_written_as_model_text_scores_one(mini):
    *steps, metrics = play(make(), GOLDEN)
    assert [s["done"] for s in steps] == [False, True]  # the customer leaves once it heard its balance
    assert [s["reward"] for s in steps] == [0.0, 1.0]
    tool_obs = steps[0]["observations"]
    assert [m["role"] for m in tool_obs] == ["tool"] and '"balance": 350.0' in tool_obs[0]["content"]
    assert [m["role"] for m in steps[1]["observations"]] == ["user"]
    assert steps[-1]["metadata"]["check"]["reward"] == 1.0
    assert metrics["turns"] == 2 and metrics["tool_calls"] == 1 and metrics["context_truncated"] == 0.0


def test_a_wrong_solution_scores_zero(mini):
    *steps, _ = play(make(), WRONG)
    assert steps[-1]["done"] and steps[-1]["reward"] == 0.0
    assert all(s["reward"] == 0.0 for s in steps)


def test_malformed_tool_calls_become_an_observation_not_a_crash(mini):
    env = make()
    env.init()
    out = env.step("<tool_call>{broken</tool_call>")
    assert not out["done"] and out["reward"] == 0.0
    assert out["observations"][0]["role"] == "user" and "malformed" in out["observations"][0]["content"]
    assert out["metadata"]["parse_errors"] == 1
    env.close()


# the balance told, then one more look-up: the conversation is not over when the turns run out
TOLD_THEN_READ = [GOLDEN[0], "Your balance is now $350.00. " + call("get_account", account_id="A-001")]


def test_max_turns_truncates_and_grades_the_final_state(mini):
    *steps, metrics = play(make(max_turns=2), TOLD_THEN_READ)
    assert len(steps) == 2 and steps[-1]["done"]
    assert steps[-1]["reward"] == 1.0  # deposit made and balance told: the state check passes
    assert metrics["max_turns_truncated"] == 1.0


def test_rows_written_by_export_are_read_from_extra_info(mini, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    pool = tmp_path / "pool.txt"
    pool.write_text(f"{REFUSE}\n")
    (path,) = export(pool, "skyrl", tmp_path / "data")
    (row,) = pq.read_table(path).to_pylist()
    assert row["env_class"] == "tb_env" and row["extra_info"]["task_id"] == REFUSE
    # what SkyRL's PromptDataset and generator hand to skyrl_gym.make
    extras = {k: v for k, v in row.items() if k not in ("prompt", "env_class")}
    extras["max_turns"] = 50
    env = skyrl_gym.make(row["env_class"], env_config={}, extras=extras)
    chat, _ = env.init(row["prompt"])
    assert chat[1:] == row["prompt"][1:] and chat[0]["content"].startswith(row["prompt"][0]["content"])
    rewards = []
    for text in REFUSE_GOLDEN:
        out = env.step(text)
        rewards.append(out["reward"])
        if out["done"]:
            break
    env.close()
    assert rewards[-1] == 1.0


def test_extra_info_fields_and_env_config_are_fallbacks(mini):
    env = skyrl_gym.make(
        "tb_env",
        env_config={"allow_eval_only": True},
        extras={"extra_info": {"task_id": DEPOSIT, "max_turns": 7}},
    )
    assert env.task.id == DEPOSIT and env.max_turns == 7
    env = skyrl_gym.make("tb_env", extras={"max_turns": 3, "extra_info": {"task_id": REFUSE, "max_turns": 7}})
    assert env.max_turns == 3  # the generator's extras["max_turns"] wins over the row's


def test_eval_only_tasks_are_refused_unless_allowed(mini):
    with pytest.raises(EvalOnlyTaskError, match="mini/deposit-001"):
        skyrl_gym.make("tb_env", extras={"extra_info": {"task_id": DEPOSIT}})
    assert make(allow_eval_only=True).task.id == DEPOSIT
    assert skyrl_gym.make("tb_env", extras={"extra_info": {"task_id": DEPOSIT, "allow_eval_only": True}})


def test_configuration_mistakes_fail_at_make(mini):
    with pytest.raises(ConfigError, match="task_id"):
        skyrl_gym.make("tb_env", extras={"extra_info": {"index": 0}})
    with pytest.raises(UnknownTaskError):
        skyrl_gym.make("tb_env", extras={"task_id": "mini/nope"})
    with pytest.raises(ConfigError, match="user_modle"):
        make(env_config={"user_modle": "x"})
    with pytest.raises(ConfigError, match="format"):
        make(env_config={"format": "openai"})  # SkyRL's actions are text
    with pytest.raises(EvalOnlyTaskError):
        make(allow_eval_only="false")


def test_rubric_tasks_need_a_judge_rather_than_an_ungraded_reward(mini, monkeypatch):
    rubric = tb_env.get_task(DEPOSIT).model_copy(update={"rubrics": ["Did the agent confirm the new balance?"]})
    monkeypatch.setattr(sky, "get_task", lambda task_id: rubric)
    with pytest.raises(ConfigError, match="judge"):
        make()
    assert make(env_config={"judge_model": "judge"}).task.rubrics


def test_a_crashing_tool_raises_an_infra_error_never_a_reward(mini):
    env = make()
    env.init()
    with pytest.raises(ToolServerError, match="tool_crash"):
        env.step(call("crash"))
    assert env.episode.db is None  # the episode's database was released before raising
    env.close()


def test_a_failing_user_simulator_raises_an_infra_error(mini, monkeypatch):
    class DownUser:
        async def reply(self, task, messages, seed=None):
            raise SimulatorError("endpoint down")

    monkeypatch.setattr(sky, "_user", lambda cfg: DownUser())
    env = make()
    env.init()
    env.step(GOLDEN[0])
    with pytest.raises(SimulatorError, match="endpoint down"):
        env.step(GOLDEN[1])
    assert env.episode.db is None


def test_an_infra_fault_reruns_the_trajectory_and_is_never_scored(mini):
    attempts: list[str] = []
    acct = Accounting()

    async def trajectory() -> float:
        first = not attempts
        attempts.append("crash" if first else "golden")
        env = make()
        turns = [call("crash")] if first else GOLDEN
        *steps, _ = await asyncio.to_thread(play, env, turns)  # SkyRL runs env methods in a thread pool
        return steps[-1]["reward"]

    reward = asyncio.run(sky.rerun_on_infra_error(trajectory, max_reruns=2, acct=acct))
    assert reward == 1.0 and attempts == ["crash", "golden"]
    assert acct.infra_reruns == 1 and acct.causes == {"tool_server": 1} and acct.infra_unrecovered == 0


def test_an_unrecoverable_infra_fault_raises_after_the_reruns(mini):
    acct = Accounting()
    runs = []

    async def trajectory() -> float:
        runs.append(1)
        *steps, _ = await asyncio.to_thread(play, make(), [call("crash")])
        return steps[-1]["reward"]

    with pytest.raises(ToolServerError):
        asyncio.run(sky.rerun_on_infra_error(trajectory, max_reruns=2, acct=acct))
    assert len(runs) == 3 and acct.infra_unrecovered == 1


def test_an_episode_skyrl_stops_early_is_graded_on_its_final_state(mini):
    env = make()
    env.init()
    env.step(TOLD_THEN_READ[0])
    env.step(TOLD_THEN_READ[1])  # SkyRL now hits max_input_length and stops without another step
    metrics = env.get_metrics()
    env.close()
    assert metrics["context_truncated"] == 1.0 and metrics["context_truncated_reward"] == 1.0


def test_the_tools_prompt_shows_the_call_syntax_the_interpreter_parses():
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {}}}}]
    for fmt in ("qwen3_coder", "mistral"):
        text = sky.tools_prompt("Policy.", tools, fmt)
        example = text.rsplit("format:\n", 1)[1]
        parsed = tb_env.parties.interpret.parse(example, fmt)
        assert [c.name for c in parsed.tool_calls] == ["function_name"]


# --- SkyRL's own generator (skyrl 0.4 needs Python >= 3.12: `make test-skyrl`; skipped where it is absent) ---


class ScriptedEngine:
    """SkyRL's inference-engine client interface, answering from scripts instead of a model.

    `scripts(repetition, attempt)` gives the turns of one trajectory; `attempt` counts the
    times SkyRL finished that session (a re-run trajectory starts again at turn 0)."""

    def __init__(self, tok, scripts):
        self.tok, self.scripts = tok, scripts
        self.turn: dict[str, int] = {}
        self.attempt: dict[str, int] = {}
        self.input_lengths: dict[str, list[int]] = {}
        self.model_tokens = 0

    async def generate(self, engine_input, model=None):
        session = engine_input["session_ids"][0]
        rep = int(session.rsplit("_", 1)[1])
        turns = self.scripts(rep, self.attempt.get(session, 0))
        i = self.turn.get(session, 0)
        self.turn[session] = i + 1
        self.input_lengths.setdefault(session, []).append(len(engine_input["prompt_token_ids"][0]))
        text = turns[min(i, len(turns) - 1)]
        ids = [*self.tok.encode(text, add_special_tokens=False), self.tok.eos_token_id]
        self.model_tokens += len(ids)
        return {"responses": [text], "response_ids": [ids], "stop_reasons": ["stop"], "response_logprobs": [[-0.5] * len(ids)]}

    async def finish_session(self, session_id):
        self.turn[session_id] = 0
        self.attempt[session_id] = self.attempt.get(session_id, 0) + 1


def _skyrl_main():
    pytest.importorskip("skyrl.train.generators.skyrl_gym_generator")
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "examples" / "skyrl" / "main_tb_env.py"
    spec = importlib.util.spec_from_file_location("tb_env_skyrl_main", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path.parent


def _batch(rows, n, phase="train"):
    from skyrl.train.generators.utils import prepare_generator_input

    prompts = [  # what SkyRL's PromptDataset yields for each parquet row
        {"prompt": r["prompt"], "env_class": r["env_class"], "uid": str(i),
         "env_extras": {k: v for k, v in r.items() if k not in ("prompt", "env_class")}}
        for i, r in enumerate(rows)
    ]
    batch, _ = prepare_generator_input(prompts, n, None, "tb_env", phase, 0)
    return batch


def test_skyrl_generator_trains_on_state_checks_and_reruns_infra_faults(mini, tmp_path):
    main, examples = _skyrl_main()
    from tb_env.training.export import rows

    cfg = main.parse_args([
        "--config", str(examples / "grpo_tb_env.yaml"), "--config", str(examples / "grpo_tb_env_1gpu.yaml"),
        "environment.skyrl_gym.tb_env.user=scripted", "generator.n_samples_per_prompt=4",
    ])
    assert cfg.generator.n_samples_per_prompt == 4 and cfg.trainer.train_batch_size == 18
    assert cfg.trainer.algorithm.dynamic_sampling.type == "filter" and not cfg.trainer.algorithm.use_kl_loss
    assert cfg.trainer.policy.optimizer_config.weight_decay == 0.0 and cfg.generator.max_turns == 50
    assert cfg.environment.skyrl_gym.tb_env == sky.SkyRLEnvConfig(user="scripted")

    wrong = [REFUSE_GOLDEN[0], call("set_status", account_id="A-003", status="closed"), "Closed.", call("end_conversation")]

    def scripts(rep, attempt):
        if rep == 2 and attempt == 0:
            return [call("crash")]
        return wrong if rep == 1 else REFUSE_GOLDEN

    tok = build_tokenizer()
    engine = ScriptedEngine(tok, scripts)
    gen = main.TBEnvGenerator(cfg.generator, cfg.environment.skyrl_gym, engine, tok)
    out = asyncio.run(gen.generate(_batch(rows([REFUSE], "skyrl"), 4), disable_tqdm=True))
    assert [sum(r) for r in out["rewards"]] == [1.0, 0.0, 1.0, 1.0]
    assert out["rollout_metrics"]["tb_env/infra_reruns"] == 1.0
    assert out["rollout_metrics"]["tb_env/infra_unrecovered"] == 0.0
    # the loss covers the model's tokens only: tool results and user replies are masked
    kept = sum(sum(m) for m in out["loss_masks"])
    crash_tokens = len(tok.encode(call("crash"), add_special_tokens=False)) + 1
    assert kept == engine.model_tokens - crash_tokens
    assert all(len(m) == len(r) for m, r in zip(out["loss_masks"], out["response_ids"], strict=True))

    # SkyRL stops at max_input_length without a last step: the final state is still graded.
    # The scripted customer ends the conversation at the refusal, so here the refusal is said
    # beside one more read, and the turn after it is the one cut.
    refuse_then_read = [*REFUSE_GOLDEN[:2], REFUSE_GOLDEN[2] + "\n" + REFUSE_GOLDEN[0], "Anything else?"]
    engine = ScriptedEngine(tok, lambda rep, attempt: refuse_then_read)
    gen = main.TBEnvGenerator(cfg.generator, cfg.environment.skyrl_gym, engine, tok)
    asyncio.run(gen.generate(_batch(rows([REFUSE], "skyrl"), 1), disable_tqdm=True))
    lengths = engine.input_lengths["0_0"]
    assert len(lengths) >= 4, lengths
    cfg.generator.max_input_length = lengths[3] - 1  # room for three turns, not the fourth
    engine = ScriptedEngine(tok, lambda rep, attempt: refuse_then_read)
    gen = main.TBEnvGenerator(cfg.generator, cfg.environment.skyrl_gym, engine, tok)
    out = asyncio.run(gen.generate(_batch(rows([REFUSE], "skyrl"), 1), disable_tqdm=True))
    assert out["stop_reasons"] == ["length"] and sum(out["rewards"][0]) == 1.0
    assert out["rewards"][0][-1] == 1.0


# --- the recipe configs: grpo_tb_env.yaml alone (3 x 8 H100) or with a hardware file loaded after it ---

RECIPES = [(None, 24, "Qwen/Qwen3-32B"), ("grpo_tb_env_1x8xh100.yaml", 8, "Qwen/Qwen3-8B"),
           ("grpo_tb_env_1gpu.yaml", 1, "Qwen/Qwen3-1.7B")]


def _recipe_dotlist(variant: str | None) -> dict:
    """The dotted keys main_tb_env.py's `--config grpo_tb_env.yaml [--config VARIANT]` sets (later files win)."""
    from pathlib import Path

    import yaml

    def flatten(tree: dict, prefix: str = "") -> dict:
        out: dict = {}
        for key, value in tree.items():
            if isinstance(value, dict) and value:
                out.update(flatten(value, f"{prefix}{key}."))
            else:
                out[f"{prefix}{key}"] = value
        return out

    examples = Path(__file__).parents[2] / "examples" / "skyrl"
    flat = flatten(yaml.safe_load((examples / "grpo_tb_env.yaml").read_text()))
    if variant:
        flat.update(flatten(yaml.safe_load((examples / variant).read_text())))
    return flat


@pytest.mark.parametrize(("variant", "gpus", "model"), RECIPES)
def test_the_recipe_configs_keep_the_papers_recipe_and_their_batch_arithmetic(variant, gpus, model):
    """Runs without skyrl: the YAML values, with SkyRL's defaults for what a file leaves unset."""
    cfg = _recipe_dotlist(variant)
    get = cfg.get  # get(key, SkyRL's default where the files leave it unset)
    prompts, group = get("trainer.train_batch_size"), get("generator.n_samples_per_prompt")
    assert (prompts, group) == (18, 8) and prompts * group == 144
    assert get("trainer.policy_mini_batch_size") == prompts  # one optimizer step per 144 episodes
    assert get("trainer.max_training_steps") == 50 and get("trainer.policy.optimizer_config.lr", 1e-6) == 1e-6
    assert get("trainer.policy.optimizer_config.weight_decay") == 0.0
    assert get("trainer.policy.optimizer_config.scheduler", "constant_with_warmup") == "constant_with_warmup"
    assert get("trainer.policy.optimizer_config.num_warmup_steps", 0) == 0  # a constant lr
    assert get("trainer.algorithm.use_kl_loss") is False and not get("trainer.algorithm.use_kl_in_reward", False)
    assert get("trainer.algorithm.advantage_estimator", "grpo") == "grpo"
    assert get("trainer.algorithm.dynamic_sampling.type") == "filter"
    assert get("generator.max_turns") == 50 and get("environment.skyrl_gym.tb_env.user") == "llm"
    assert get("environment.skyrl_gym.max_env_workers") >= 144  # one pool thread per concurrent episode
    assert get("trainer.policy.model.path") == model
    # placement: the policy's GPUs; colocated, vLLM's engines x TP are those same GPUs
    world = get("trainer.placement.policy_num_nodes", 1) * get("trainer.placement.policy_num_gpus_per_node", 1)
    assert world == gpus and get("trainer.placement.colocate_all", True)
    assert get("generator.inference_engine.num_engines", 1) * get("generator.inference_engine.tensor_parallel_size", 1) == gpus
    # SkyRL's validate_batch_sizes: whole mini-batches (and micro-batches of 1) per data-parallel rank
    sp = get("trainer.policy.sequence_parallel_size", 1)
    assert gpus % sp == 0
    dp = gpus // sp
    assert (prompts * group) % dp == 0 and (prompts * group) // dp % get("trainer.micro_train_batch_size_per_gpu", 1) == 0
    # the context: prompt + the turns SkyRL generates fit the model's 32k, and a whole turn fits
    assert get("generator.max_input_length") + get("generator.sampling_params.max_generate_length") <= 32768


@pytest.mark.parametrize(("variant", "gpus", "model"), RECIPES)
def test_the_recipe_configs_load_into_skyrls_config_and_pass_its_batch_checks(variant, gpus, model):
    main, examples = _skyrl_main()
    from skyrl.train.utils.utils import validate_batch_sizes

    argv = ["--config", str(examples / "grpo_tb_env.yaml")] + (["--config", str(examples / variant)] if variant else [])
    cfg = main.parse_args(argv)
    assert cfg.trainer.policy.model.path == model and cfg.trainer.train_batch_size * cfg.generator.n_samples_per_prompt == 144
    placement, engines = cfg.trainer.placement, cfg.generator.inference_engine
    assert placement.policy_num_nodes * placement.policy_num_gpus_per_node == gpus and placement.colocate_all
    assert engines.num_engines * engines.tensor_parallel_size == gpus
    assert cfg.environment.skyrl_gym.tb_env == sky.SkyRLEnvConfig(user="llm")
    assert cfg.trainer.flash_attn  # SkyRL's default, kept: skyrl[fsdp] installs flash-attn
    validate_batch_sizes(cfg)


def test_skyrl_generator_allows_eval_only_tasks_in_the_eval_phase_only(mini):
    main, examples = _skyrl_main()
    from tb_env.training.export import rows

    cfg = main.parse_args(["--config", str(examples / "grpo_tb_env.yaml"), "environment.skyrl_gym.tb_env.user=scripted"])
    tok = build_tokenizer()
    gen = main.TBEnvGenerator(cfg.generator, cfg.environment.skyrl_gym, ScriptedEngine(tok, lambda r, a: GOLDEN), tok)
    eval_rows = rows([DEPOSIT], "skyrl")
    out = asyncio.run(gen.generate(_batch(eval_rows, 1, "eval"), disable_tqdm=True))
    assert sum(out["rewards"][0]) == 1.0
    with pytest.raises(EvalOnlyTaskError):
        asyncio.run(gen.generate(_batch(eval_rows, 1, "train"), disable_tqdm=True))
