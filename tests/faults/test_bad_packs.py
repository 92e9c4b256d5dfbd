"""Malformed task files and domain packs: a typed error that names the file, the task
and the field; nothing half-registered (no domain, no gym id, no task)."""

from __future__ import annotations

import itertools
import shutil
import sys

import gymnasium as gym
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tb_env
from tb_env.errors import ConfigError, DomainError, TaskFileError

from .conftest import FAULTY

_names = itertools.count(1)
TASK = yaml.safe_load((FAULTY / "tasks" / "deposit.yaml").read_text())[0]


@pytest.fixture(autouse=True, scope="module")
def _forget_broken_packs():
    """The packs these tests register are gone afterwards: later tests see the usual domains."""
    yield
    from tb_env.domain import registry

    for name in [n for n in list(registry._loaders) if n.startswith("broken")]:
        registry._loaders.pop(name, None)
        registry._loaded.pop(name, None)
        gym.registry.pop(f"tb_env/{name.capitalize()}-v0", None)
    for mod in [m for m in sys.modules if m.startswith("tb_env_packs.broken")]:
        sys.modules.pop(mod, None)


def make_pack(tmp_path, task_text: str | bytes | None = None, init_extra: str = "") -> tuple:
    """A copy of the faulty pack under a fresh domain name, with the given task file."""
    name = f"broken{next(_names)}"
    folder = tmp_path / name
    shutil.copytree(FAULTY, folder, ignore=shutil.ignore_patterns("__pycache__"))
    init = folder / "__init__.py"
    init.write_text(init.read_text().replace('name="faulty"', f'name="{name}"') + init_extra)
    if task_text is not None:
        path = folder / "tasks" / "deposit.yaml"
        if isinstance(task_text, str):
            task_text = task_text.replace("faulty/", f"{name}/")
            path.write_text(task_text)
        else:
            path.write_bytes(task_text)
    return name, folder


def assert_nothing_registered(name: str) -> None:
    assert name not in tb_env.list_domains()
    assert f"tb_env/{name.capitalize()}-v0" not in gym.registry
    assert not [m for m in sys.modules if m.startswith(f"tb_env_packs.{name}")]
    with pytest.raises(ConfigError):
        tb_env.get_task(f"{name}/deposit-001")


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda t: t["user"].update(first_message=5), "user.first_message"),
        (lambda t: t["user"].pop("goal"), "user.goal"),
        (lambda t: t.update(split="validation"), "split"),
        (lambda t: t.update(wrong_paths=[]), "wrong_paths"),
        (lambda t: t.update(surprise=1), "surprise"),
        (lambda t: t["golden_actions"][0].update(arguments="F-001"), "golden_actions.0.arguments"),
        (lambda t: t["wrong_paths"][0].update(tag="creative"), "wrong_paths.0.tag"),
        (lambda t: t["wrong_paths"][0].update(drop=[7]), None),
    ],
    ids=["wrong-type", "missing", "bad-enum", "empty-list", "unknown-field", "nested", "bad-tag", "index"],
)
def test_a_malformed_task_names_file_task_and_field_and_registers_nothing(tmp_path, mutate, field):
    task = yaml.safe_load(yaml.safe_dump(TASK))
    mutate(task)
    name, folder = make_pack(tmp_path, yaml.safe_dump([task]))
    with pytest.raises(TaskFileError) as err:
        tb_env.register_domain(folder)
    exc = err.value
    assert exc.path.endswith("deposit.yaml") and exc.task_id == f"{name}/deposit-001"
    assert str(folder) in str(exc) and f"{name}/deposit-001" in str(exc)
    if field:
        assert exc.field == field and repr(field) in str(exc)
    assert_nothing_registered(name)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"- id: x/y\n  split: [unclosed\n", "not valid YAML"),
        (b"\xff\xfe\x00 not utf-8 \xc3\x28", "not UTF-8"),
        ("- 5\n- id: faulty/a\n", "each task must be a mapping"),
        ("- id: no-slash\n  split: test\n", "task ids have the form"),
        ("- id: other/x\n  split: test\n  user: {persona: a, goal: b, first_message: c}\n  wrong_paths: [{tag: wrong_amount, reply: x}]\n",
         "must start with"),
    ],
    ids=["yaml", "utf8", "not-mapping", "id-form", "foreign-id"],
)
def test_an_unreadable_task_file_is_a_typed_error(tmp_path, content, problem):
    name, folder = make_pack(tmp_path, content)
    with pytest.raises(TaskFileError, match=problem) as err:
        tb_env.register_domain(folder)
    assert "deposit.yaml" in str(err.value)
    assert_nothing_registered(name)


def test_a_duplicate_task_id_across_files_names_both(tmp_path):
    name, folder = make_pack(tmp_path)
    shutil.copy(folder / "tasks" / "deposit.yaml", folder / "tasks" / "again.yaml")
    (folder / "tasks" / "deposit.yaml").write_text((folder / "tasks" / "deposit.yaml").read_text().replace("faulty/", f"{name}/"))
    (folder / "tasks" / "again.yaml").write_text((folder / "tasks" / "again.yaml").read_text().replace("faulty/", f"{name}/"))
    with pytest.raises(TaskFileError, match="duplicate task id") as err:
        tb_env.register_domain(folder)
    assert "again.yaml" in str(err.value) and "deposit.yaml" in str(err.value)
    assert_nothing_registered(name)


@pytest.mark.parametrize(
    ("extra", "problem"),
    [
        ("\nraise RuntimeError('pack bug')\n", "pack bug"),
        ("\ndel domain\n", "must define `domain = tb_env.Domain"),
        ("\nfrom . import missing_module\n", "missing_module"),
        ("\ndomain = Domain(name='Bad Name', metadata=schema.Base.metadata, seed=seed.build, policy='p', tools=[])\n",
         "lower_snake_case"),
        ("\ndomain = Domain(name=domain.name, metadata=schema.Base.metadata, seed=seed.build, policy=' ', tools=[])\n",
         "empty policy"),
    ],
    ids=["raises", "no-domain", "import-error", "bad-name", "empty-policy"],
)
def test_a_broken_pack_is_a_domain_error_and_registers_nothing(tmp_path, extra, problem):
    name, folder = make_pack(tmp_path, init_extra=extra)
    with pytest.raises(DomainError, match=problem) as err:
        tb_env.register_domain(folder)
    assert str(folder) in str(err.value) or "Bad Name" in str(err.value) or name in str(err.value)
    assert_nothing_registered(name)


def test_a_patch_on_an_unknown_table_names_the_field_at_reset(tmp_path):
    task = yaml.safe_load(yaml.safe_dump(TASK))
    task["initial_patch"] = {"nonexistent": [{"id": 1}]}
    name, folder = make_pack(tmp_path, yaml.safe_dump([task]))
    tb_env.register_domain(folder)
    e = tb_env.TBEnv(domain=name)
    with pytest.raises(TaskFileError) as err:
        e.reset(options={"task_id": f"{name}/deposit-001"})
    assert err.value.field == "initial_patch.nonexistent" and err.value.task_id == f"{name}/deposit-001"
    e.close()


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


PATHS = [p for p in _paths(TASK) if p]
junk = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers(), max_size=2),
                 st.dictionaries(st.text(max_size=3), st.integers(), max_size=2), st.just("__delete__"))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.sampled_from(PATHS), value=junk)
def test_any_corrupted_field_is_registered_whole_or_refused_whole(tmp_path_factory, path, value):
    task = yaml.safe_load(yaml.safe_dump(TASK))
    parent = task
    for key in path[:-1]:
        parent = parent[key]
    if value == "__delete__":
        parent.pop(path[-1])
    else:
        parent[path[-1]] = value
    name, folder = make_pack(tmp_path_factory.mktemp("pack"), yaml.safe_dump([task]))
    try:
        domain = tb_env.register_domain(folder)
    except TaskFileError as exc:
        assert exc.path.endswith("deposit.yaml") and "deposit.yaml" in str(exc)
        assert_nothing_registered(name)
    except DomainError:
        assert_nothing_registered(name)
    else:
        assert name in tb_env.list_domains() and len(domain.tasks) == 1
