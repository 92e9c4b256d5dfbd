"""Domains plug in by object, by folder, or by entry point, and get a gym id."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import gymnasium as gym
import pytest

import tb_env
from tb_env.domain.pack import gym_name
from tb_env.errors import DomainError

PACK = Path(__file__).parent / "packs" / "mini"


def test_gym_names_are_camel_case():
    assert gym_name("auto_insurance") == "AutoInsurance"
    assert gym_name("retail") == "Retail"


def test_registering_a_folder_adds_the_domain_its_tasks_and_its_gym_id(mini):
    assert "mini" in tb_env.list_domains()
    assert {t.id for t in tb_env.list_tasks("mini", split="train")} == {"mini/refuse-close-001"}
    assert "tb_env/Mini-v0" in gym.registry
    assert tb_env.get_task("mini/deposit-001").split == "test"


def test_registering_a_second_domain_with_the_same_name_needs_replace(mini):
    with pytest.raises(DomainError, match="already registered"):
        tb_env.register_domain(tb_env.domain.pack.load_domain_path(PACK))


def test_a_folder_without_a_domain_is_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(DomainError, match=r"no __init__\.py"):
        tb_env.register_domain(tmp_path / "empty")
    (tmp_path / "empty" / "__init__.py").write_text("x = 1\n")
    with pytest.raises(DomainError, match=r"must define `domain = tb_env\.Domain"):
        tb_env.register_domain(tmp_path / "empty")
    (tmp_path / "empty" / "__init__.py").write_text("raise ValueError('broken pack')\n")
    with pytest.raises(DomainError, match="broken pack"):
        tb_env.register_domain(tmp_path / "empty")


def test_entry_point_packs_are_found_at_import(tmp_path):
    """A distribution that declares `tb_env.domains` works with gym.make after `import tb_env`."""
    site = tmp_path / "site"
    (site / "mini_pack_dist").mkdir(parents=True)
    dist = site / "mini_pack_dist-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mini-pack-dist\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[tb_env.domains]\nmini = mini_pack_dist:load\n")
    (site / "mini_pack_dist" / "__init__.py").write_text(
        textwrap.dedent(
            f"""
            def load():
                from tb_env.domain.pack import load_domain_path
                return load_domain_path({str(PACK)!r})
            """
        )
    )
    code = (
        f"import sys; sys.path.insert(0, {str(site)!r})\n"
        "import gymnasium as gym, tb_env\n"
        "env = gym.make('tb_env/Mini-v0')\n"
        "obs, info = env.reset(options={'task_id': 'mini/deposit-001'})\n"
        "print(info['domain'], len(tb_env.list_tasks('mini')))\n"
        "env.close()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["mini", "2"], out.stderr
