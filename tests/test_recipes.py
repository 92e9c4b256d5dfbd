"""The three trainer recipes are one recipe: the same schedule, episode length and customer,
and a difficulty prefilter that sees the base model as training does."""

from __future__ import annotations

import math
import re
from pathlib import Path

import yaml

from tb_env.training.pool import select_pool

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _yaml(path: Path):
    return yaml.safe_load(path.read_text())


def _env_default(value: str) -> tuple[str, str]:
    """`${oc.env:VAR,default}` -> (VAR, default)."""
    m = re.fullmatch(r"\$\{oc\.env:(\w+),([^}]*)\}", value)
    assert m, value
    return m.group(1), m.group(2)


def test_every_recipe_keeps_the_learning_rate_constant():
    for path in sorted((EXAMPLES / "trl").glob("recipe_*.yaml")):
        cfg = _yaml(path)
        assert cfg["learning_rate"] == 1e-6 and cfg["lr_scheduler_type"] == "constant", path.name


def test_every_recipe_has_the_same_episode_length_and_customer():
    verl = next(c for c in _yaml(EXAMPLES / "verl" / "agent_loop.yaml") if c["name"] == "tb_env")
    turns = {"verl": verl["max_turns"]}
    users = {"verl": (_env_default(verl["user_model"]), _env_default(verl["user_base_url"])[0])}
    for path in sorted((EXAMPLES / "trl").glob("recipe_*.yaml")):
        cfg = _yaml(path)
        turns[path.name] = cfg["max_turns"]
        assert cfg["user"] == "llm"
        users[path.name] = (("TB_USER_MODEL", cfg["env"]["TB_USER_MODEL"]), "OPENAI_BASE_URL")
    skyrl = _yaml(EXAMPLES / "skyrl" / "grpo_tb_env.yaml")
    turns["skyrl"] = skyrl["generator"]["max_turns"]
    assert set(turns.values()) == {50}, turns
    assert set(users.values()) == {(("TB_USER_MODEL", "gpt-5-chat"), "OPENAI_BASE_URL")}, users
    forwarded = (EXAMPLES / "skyrl" / "main_tb_env.py").read_text()
    assert '"TB_USER_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY"' in forwarded


def test_every_documented_prefilter_samples_as_training_does():
    blocks = 0
    for doc in [ROOT / "README.md", *sorted(EXAMPLES.glob("*/README.md"))]:
        for block in re.findall(r"```bash\n(.*?)```", doc.read_text(), flags=re.S):
            if "tb-env filter" not in block:
                continue
            read = re.findall(r"tb-env filter (\S+)", block)
            evals = [c for c in re.findall(r"tb-env eval (?:[^\n]*\\\n)*[^\n]*", block)
                     if any(f"--out {f}" in c for f in read)]  # the eval whose results the filter reads
            for command in evals:
                blocks += 1
                assert "--temperature 1.0" in command, f"{doc}: {command}"
    assert blocks >= 4  # the README's and each trainer's


def _trials(temperature, model="qwen3"):
    return [{"task_id": "retail/account-test-001", "model": model, "reward": float(i % 2), "trial": i,
             "sampling": {"temperature": temperature}} for i in range(4)]


def test_filter_warns_when_the_base_model_was_sampled_greedily():
    assert "temperature 0" in select_pool(_trials(None), 0.1, 0.9).warnings[0]
    assert select_pool(_trials(0.0), 0.1, 0.9).warnings
    assert not select_pool(_trials(1.0), 0.1, 0.9).warnings
    assert not select_pool(_trials(None, model="noisy-oracle(p=0.3)"), 0.1, 0.9).warnings


def _merged(*paths: Path) -> dict:
    """Later YAMLs over earlier ones, key by key (how verl's defaults list and SkyRL's
    repeated --config compose them)."""
    def merge(a, b):
        if isinstance(a, dict) and isinstance(b, dict):
            return {**a, **{k: merge(a.get(k), v) for k, v in b.items()}}
        return b
    out: dict = {}
    for p in paths:
        out = merge(out, _yaml(p) or {})
    return out


def test_every_recipes_prompt_budget_fits_every_domains_opening_prompt():
    """Issue 14, item 2: verl dropped the groups of every domain whose opening prompt (policy,
    tool schemas, first message) was over data.max_prompt_length (10240 < auto_insurance's
    ~11.7k), and a TRL or SkyRL episode over its budget ends before the model's first turn.
    The estimate is within a few percent of Qwen's BPE; 512 tokens cover the first message."""
    import tb_env
    from tb_env.training.budget import TokenCounter, opening_prompt

    count = TokenCounter()
    domains = {d: count(opening_prompt(tb_env.get_domain(d))) for d in tb_env.list_domains()}
    need = max(math.ceil(n * 1.05) + 512 for n in domains.values())  # the largest opening prompt, with margin
    policy = max(count(tb_env.get_domain(d).policy) for d in domains) + 512  # a dataset row: policy + first message
    assert set(domains) >= {"retail", "travel", "consulting", "banking", "auto_insurance"}

    verl = EXAMPLES / "verl" / "config"
    budgets = set()
    for path in sorted(verl.glob("grpo_*.yaml")):
        cfg = _merged(verl / "tb_env_grpo.yaml", path)
        budgets.add(cfg["data"]["max_prompt_length"])
        assert cfg["data"]["max_prompt_length"] >= need, (path.name, cfg["data"]["max_prompt_length"], need)
    # the export command the verl README shows warns against the configs' own budget
    said = re.findall(r"--max-prompt-length (\d+)", (EXAMPLES / "verl" / "README.md").read_text())
    assert said and {int(n) for n in said} == budgets

    for path in sorted((EXAMPLES / "trl").glob("recipe_*.yaml")):
        cfg = _yaml(path)
        # the opening prompt leaves the episode at least one full turn
        assert cfg["max_total_tokens"] - need >= cfg["max_tokens_per_turn"], path.name
        if cfg.get("vllm_mode") == "server":
            launch = (EXAMPLES / "trl" / path.name.replace("recipe_", "launch_").replace(".yaml", ".sh")).read_text()
            served = int(re.search(r"--max_model_len (\d+)", launch).group(1))
        else:
            served = cfg["vllm_max_model_length"]
        assert cfg["max_total_tokens"] <= served, path.name  # vLLM refuses a request past its model length

    skyrl = EXAMPLES / "skyrl"
    for variant in sorted(skyrl.glob("grpo_tb_env_*.yaml")):
        cfg = _merged(skyrl / "grpo_tb_env.yaml", variant)
        assert cfg["trainer"]["max_prompt_length"] >= policy, variant.name  # longer dataset rows are dropped at load
        room = cfg["generator"]["max_input_length"] - need
        assert room >= cfg["generator"]["sampling_params"]["max_generate_length"], variant.name
