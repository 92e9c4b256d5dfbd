"""The authoring kit's `Templates`: generate instances, write and check the YAML, validate them."""

from __future__ import annotations

import pytest

from tb_env.domain.task import load_task_dir
from tb_env.kit import (
    Caller,
    Golden,
    Pool,
    Scene,
    TaskSpec,
    Templates,
    call,
    drop,
    exists,
    fact,
    replace,
    says,
)


def _templates(tmp_path, **kw) -> Templates:
    templates = Templates(
        "mini", tmp_path / "tasks", pool=lambda split: Pool(split, bases={"A": {"test": 100, "train": 500}}), **kw
    )

    @templates.template("deposit into a new account", counts={"test": 2, "train": 1})
    def deposit(s: Scene, n: int) -> TaskSpec:
        account = s.add("accounts", {"id": s.pool.id("A"), "owner": f"owner-{s.rng.randint(1, 999)}", "balance": 250.0})
        amount = 100 + 10 * n
        g = Golden()
        k = g.add("deposit", account_id=account["id"], amount=amount)
        return TaskSpec(
            caller=Caller(
                persona=f"Owner of {account['id']}.", goal=f"Deposit {amount} and hear the new balance.",
                first_message=f"Please deposit {amount} into {account['id']}.", facts={"account_id": account["id"]},
            ),
            patch=s.patch(), golden=g, reply=f"Done: your balance is now {250 + amount:.2f}.",
            assertions=[says(fact(250 + amount, why="the customer asked for the new balance"))],
            wrong=[drop(k), replace({k: call("deposit", account_id=account["id"], amount=1)}, "wrong_amount")],
            kind="single_write", difficulty="easy",
        )

    return templates


def test_instances_are_deterministic_with_split_disjoint_ids(tmp_path):
    t = _templates(tmp_path)
    first, again = t.build("test"), t.build("test")
    assert first == again
    ids = [item["id"] for item in first["deposit"]]
    assert ids == ["mini/gen-deposit-test-01", "mini/gen-deposit-test-02"]
    assert [r["id"] for item in first["deposit"] for r in item["initial_patch"]["accounts"]] == ["A-100", "A-101"]
    assert t.build("train")["deposit"][0]["initial_patch"]["accounts"][0]["id"] == "A-500"


def test_main_writes_checks_and_never_deletes_hand_written_files(tmp_path, capsys):
    t = _templates(tmp_path)
    hand = tmp_path / "tasks" / "test" / "gen_hand_written.yaml"
    hand.parent.mkdir(parents=True)
    hand.write_text("# a task written by hand\n[]\n")
    assert t.main([]) == 0 and "wrote 2 files, 3 tasks (1 templates)" in capsys.readouterr().out
    assert t.main(["--check"]) == 0
    loaded = load_task_dir(tmp_path / "tasks", "mini")
    assert [task.id for task in loaded] == ["mini/gen-deposit-test-01", "mini/gen-deposit-test-02", "mini/gen-deposit-train-01"]
    assert loaded[0].assertions[0].body.facts[0].why == "the customer asked for the new balance"
    assert not loaded[0].user.scripted_turns
    (tmp_path / "tasks" / "test" / "gen_deposit.yaml").write_text("stale")
    assert t.main(["--check"]) == 1 and "out of date" in capsys.readouterr().out
    assert t.main([]) == 0 and hand.exists()


def test_formats_keep_an_existing_domains_ids_files_and_seeds(tmp_path):
    t = _templates(tmp_path, id_format="{domain}/{slug}-{split}-{n:03d}", file_format="{split}/{slug}.yaml",
                   seed_format="{slug}:{split}:{n}")
    files = t.files()
    assert {p.relative_to(tmp_path / "tasks").as_posix() for p in files} == {"test/deposit.yaml", "train/deposit.yaml"}
    assert t.build("test")["deposit"][0]["id"] == "mini/deposit-test-001"
    other_seed = _templates(tmp_path).build("test")["deposit"][0]["initial_patch"]["accounts"][0]["owner"]
    assert t.build("test")["deposit"][0]["initial_patch"]["accounts"][0]["owner"] != other_seed


def test_generated_tasks_run_the_contract_and_the_probes(tmp_path, mini, capsys):
    assert _templates(tmp_path).validate() == 0
    assert "3/3 generated tasks validate" in capsys.readouterr().out


def test_a_tool_argument_may_be_called_name():
    assert call("add_payee", name="Ana")["arguments"] == {"name": "Ana"}
    g = Golden()
    g.add("add_payee", name="Ana", nickname=None)
    assert g.calls == [{"name": "add_payee", "arguments": {"name": "Ana"}}]


def test_a_fact_needs_a_why():
    with pytest.raises(ValueError, match="give each fact a why"):
        says("350")
    assert says("350", why="asked")["response_contains"]["facts"] == [{"fact": "350", "why": "asked"}]
    assert exists("accounts", id="A-1") == {"row_exists": {"table": "accounts", "where": {"id": "A-1"}}}
