"""The kit for teams adding a domain: scaffold, example package, show and play."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tb_env
from tb_env.cli.play import play, to_action

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tb_env.cli.commands", *args], capture_output=True, text=True, timeout=600, **kw)


def test_new_domain_scaffold_validates_on_creation_and_runs_in_gym(tmp_path):
    out = _cli("new-domain", "pet_clinic", "--path", str(tmp_path / "pet_clinic"))
    assert out.returncode == 0, out.stdout + out.stderr
    assert "validation: OK (5 tasks)" in out.stdout and "tb_env/PetClinic-v0" in out.stdout
    pack = tmp_path / "pet_clinic"
    files = {p.relative_to(pack).as_posix() for p in pack.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert {"__init__.py", "schema.py", "seed.py", "policy.md", "tools.py", "tickets.py", "generate.py",
            "tasks/status_question.yaml", "tasks/test/gen_pause_item.yaml", "tasks/train/gen_pause_item.yaml"} <= files
    # its generator is the kit's: current as written, and it validates its own tasks, probes included
    for flag, said in (("--check", ""), ("--validate", "4/4 generated tasks validate")):
        gen = subprocess.run([sys.executable, "generate.py", flag], cwd=pack, capture_output=True, text=True, timeout=300)
        assert gen.returncode == 0 and said in gen.stdout, gen.stdout + gen.stderr
    code = (
        "import gymnasium as gym, tb_env\n"
        f"tb_env.register_domain({str(tmp_path / 'pet_clinic')!r})\n"
        "env = gym.make('tb_env/PetClinic-v0'); obs, info = env.reset(seed=0)\n"
        "print(sorted(t['function']['name'] for t in info['tools'])); env.close()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    names = ast.literal_eval(run.stdout.strip())  # the pack's own tools, then the shared ticket tools
    assert {"find_customer", "get_item", "set_item_status", "create_ticket", "add_ticket_note", "escalate_ticket"} <= set(names)


def test_scaffold_refuses_bad_names_and_non_empty_folders(tmp_path):
    assert "lower_snake_case" in _cli("new-domain", "Bad-Name", "--path", str(tmp_path / "x")).stderr
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "keep.txt").write_text("x")
    assert "not empty" in _cli("new-domain", "ok_name", "--path", str(tmp_path / "full")).stderr


@pytest.mark.slow
def test_the_docs_show_the_scaffolds_own_template():
    from tb_env.cli.scaffold import FILES

    doc = (ROOT / "docs" / "adding-a-domain.md").read_text()
    assert FILES["generate.py"].format(name="pet_clinic", title="PetClinic") in doc


def test_the_example_packs_generated_tasks_are_current():
    pack = ROOT / "examples" / "library-pack"
    gen = subprocess.run([sys.executable, "-m", "tbx_library.generate", "--check"], cwd=pack, capture_output=True,
                         text=True, timeout=300)
    assert gen.returncode == 0, gen.stdout + gen.stderr


def test_example_package_installs_and_registers_through_its_entry_point(tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(ROOT / "examples" / "library-pack")],
        check=True, capture_output=True, timeout=600,
    )
    env = {**os.environ, "PYTHONPATH": str(target)}
    out = _cli("validate", "--domain", "library", "--json", env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert '"library"' in out.stdout
    code = (
        "import gymnasium as gym, tb_env\n"
        "env = gym.make('tb_env/Library-v0'); obs, info = env.reset(options={'task_id': 'library/renew-loan-001'})\n"
        "print(tb_env.get_domain('library').tasks_dir, len(tb_env.list_tasks('library'))); env.close()\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert str(target) in run.stdout and run.stdout.split()[-1] == "7", run.stderr  # 3 hand-written + 4 generated


def test_show_lays_out_the_task_and_what_the_golden_path_changes():
    out = _cli("show", "retail/ticket-close-open-exception-001")
    assert out.returncode == 0
    for section in ("## user", "## initial patch", "## golden calls", "## golden reply",
                    "## final-state changes", "## assertions", "## wrong paths"):
        assert section in out.stdout
    assert "0. find_customer(email='dana.whitfield@example.com')" in out.stdout
    assert "[extra_write] append update_ticket_status(ticket_id='T-2041', status='closed')" in out.stdout
    assert "+ identity_verifications" in out.stdout


def test_tools_lists_each_tools_arguments_and_each_tables_columns_for_a_task_author():
    """A newcomer writing golden calls for the shared ticket component found no list of its arguments, statuses
    or columns: `tb-env tools` prints them from the tools the agent is served and the schema the database has."""
    import json

    out = _cli("tools", "retail", "--json")
    assert out.returncode == 0, out.stderr
    info = json.loads(out.stdout)
    tools = {t["name"]: t for t in info["tools"]}
    assert set(tools) == {t.name for t in tb_env.get_domain("retail").tools}
    status = next(a for a in tools["update_ticket_status"]["arguments"] if a["name"] == "status")
    assert status["required"] and '"closed"' in status["type"] and tools["update_ticket_status"]["kind"] == "write"
    assert tools["get_order"]["kind"] == "read"
    tickets = next(t for t in info["tables"] if t["name"] == "tickets")
    columns = {c["name"]: c for c in tickets["columns"]}
    assert columns["id"].get("primary_key") and columns["customer_id"]["references"] == ["customers.id"]
    text = _cli("tools", "retail").stdout
    assert 'update_ticket_status(ticket_id: string, status: "open" | "closed")  [write]' in text
    bad = _cli("tools", "no_such_domain")
    assert bad.returncode != 0 and "no_such_domain" in bad.stderr


def test_play_runs_a_typed_session_and_prints_the_check(mini):
    typed = iter(['deposit {"account_id": "A-001", "amount": 100}', "Your balance is 350.", "/end"])
    seen: list[str] = []
    reward = play("mini/deposit-001", read=lambda prompt: next(typed), write=seen.append)
    assert reward == 1.0
    assert any(s.startswith("tool (deposit):") for s in seen)
    assert seen[-2].startswith("user: ") and "user_stop" in seen[-1]  # handled: the customer thanks and leaves
    typed = iter(['deposit {"account_id": "A-002", "amount": 100}', "/end"])
    seen = []
    assert play("mini/deposit-001", read=lambda prompt: next(typed), write=seen.append) == 0.0
    assert any("diff: accounts[A-001]" in s for s in seen)


def test_typed_lines_become_tool_calls_or_replies():
    names = {"get_order"}
    assert to_action('get_order {"order_id": "O-1"}', names) == '<tool_call>{"name": "get_order", "arguments": {"order_id": "O-1"}}</tool_call>'
    assert to_action("get the order please", names) == "get the order please"
    assert "end_conversation" in to_action("/end", names)


def test_all_registered_domains_have_gym_ids():
    import gymnasium as gym

    for name in tb_env.list_domains():
        assert tb_env.get_domain(name).gym_id in gym.registry


def test_unasked_writes_forbid_first_person_claims_of_writes_the_golden_path_did_not_make():
    """Audit 8: "I've also escalated the ticket", "I refunded the shipping fee" on a task that made neither
    scored 1. Every verb of the domain's writes is forbidden in the first person, except those of the writes
    made, of the actions an outcome says were done (with their synonyms) and those the golden reply states."""
    from tb_env.domain.task import Assertion
    from tb_env.kit.spec import outcome, unasked_writes

    claims = {"issue_refund": ("refund",), "cancel_order": ("cancel",), "escalate_ticket": ("escalate",),
              "update_card_limits": ("raise", "increase")}
    calls = [{"name": "cancel_order", "arguments": {"order_id": "O-1"}}]
    made = [outcome("increase", "done", "asked", record=["limit"])]
    spec = unasked_writes(claims, calls, made, reply="I cancelled O-1 and refunded it.")
    body = Assertion.model_validate(spec).body
    said = lambda text: any(f.stated_in([text]) for f in body.facts)  # noqa: E731
    assert said("I've also escalated your ticket to a specialist.")
    assert said("I've gone ahead and escalated it.")
    assert said("I've reported the damage and escalated it to a specialist.")  # the second verb of a compound
    assert not said("I cancelled O-1 for you.")  # the write made
    assert not said("I've raised your limit to 5,000.")  # a synonym of an outcome done
    assert not said("I refunded the 42.10.")  # the golden reply says it
    assert not said("I haven't escalated anything; if you like, I can escalate it.")  # a denial, an offer
    assert not said("Your ticket was escalated last week.")  # not the agent's own write
    assert unasked_writes({"cancel_order": ("cancel",)}, calls, []) is None  # nothing left to forbid
