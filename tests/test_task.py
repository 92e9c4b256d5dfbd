"""Task files: schema errors name the file, the task and the field."""

from __future__ import annotations

import textwrap

import pytest

from tb_env.domain.task import load_task_dir, load_task_file
from tb_env.errors import TaskFileError

GOOD = """
id: demo/one
split: train
user: {persona: p, goal: g, first_message: hi}
golden_actions: [{name: t, arguments: {d: 2026-12-04}}]
wrong_paths: [{tag: missing_step, drop: [0]}]
"""


def _write(tmp_path, text, name="t.yaml"):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


def test_a_valid_file_loads_and_dates_stay_strings(tmp_path):
    (task,) = load_task_file(_write(tmp_path, GOOD))
    assert task.id == "demo/one" and task.domain == "demo" and task.name == "one"
    assert task.golden_actions[0].arguments == {"d": "2026-12-04"}


@pytest.mark.parametrize(
    ("edit", "field", "message"),
    [
        (("split: train", "split: dev"), "split", "train"),
        (("wrong_paths: [{tag: missing_step, drop: [0]}]", "wrong_paths: []"), "wrong_paths", "at least 1"),
        (("drop: [0]", "drop: [5]"), None, "outside 0..0"),
        (("tag: missing_step", "tag: oops"), "wrong_paths.0.tag", ""),
        (("tag: missing_step, drop: [0]", "tag: missing_step, drop: [0], reply: x"), "wrong_paths.0", "exactly one mutation"),
        (("user: {persona: p, goal: g, first_message: hi}", "user: {persona: p, goal: g}"), "user.first_message", "required"),
        (("id: demo/one", "id: noslash"), "id", "<domain>/<name>"),
        (("split: train", "split: train\nsurprise: 1"), "surprise", "Extra inputs"),
    ],
)
def test_schema_errors_name_file_task_and_field(tmp_path, edit, field, message):
    path = _write(tmp_path, GOOD.replace(*edit))
    with pytest.raises(TaskFileError) as err:
        load_task_file(path)
    text = str(err.value)
    assert str(path) in text
    if field:
        assert f"field {field!r}" in text or err.value.field.startswith(field)
    assert message in text


def test_bad_yaml_and_duplicate_ids_are_reported(tmp_path):
    with pytest.raises(TaskFileError, match="not valid YAML"):
        load_task_file(_write(tmp_path, "id: [unclosed", "bad.yaml"))
    (tmp_path / "bad.yaml").unlink()
    _write(tmp_path, GOOD, "a.yaml")
    _write(tmp_path, GOOD, "b.yaml")
    with pytest.raises(TaskFileError, match="duplicate task id"):
        load_task_dir(tmp_path)


def test_a_task_outside_its_domain_is_rejected(tmp_path):
    with pytest.raises(TaskFileError, match="must start with 'other/'"):
        load_task_file(_write(tmp_path, GOOD), domain="other")


def test_assertions_need_exactly_one_kind(tmp_path):
    path = _write(tmp_path, GOOD + "assertions: [{row_exists: {table: x, where: {}}, row_absent: {table: x, where: {}}}]\n")
    with pytest.raises(TaskFileError, match="exactly one kind"):
        load_task_file(path)
