"""The opening prompt's budget: lean tool schemas, measured, and checked at export."""

from __future__ import annotations

import json

import pytest

import tb_env
from tb_env.domain.tool import MAX_STRING_ARG
from tb_env.errors import ToolArgumentError
from tb_env.training.budget import TokenCounter, measure, opening_prompt
from tb_env.training.export import export, too_long

from .tiny_tokenizer import build_tokenizer


def _tool(domain: str, name: str):
    return next(t for t in tb_env.get_domain(domain).tools if t.name == name)


def test_published_schemas_keep_the_information_and_drop_the_noise():
    tool = _tool("auto_insurance", "verify_identity")
    props = tool.input_schema["properties"]
    text = json.dumps(tool.input_schema)
    assert "anyOf" not in text and "maxLength" not in text and "null" not in text and "additionalProperties" not in text
    assert props["zip_code"]["type"] == "string" and props["zip_code"]["description"]
    assert "zip_code" not in tool.input_schema["required"] and "policyholder_id" in tool.input_schema["required"]
    # what the schema no longer says is still enforced
    with pytest.raises(ToolArgumentError, match="zip"):
        tool.validate({"policyholder_id": "PH-1", "date_of_birth": "1990-01-01", "zip": "97205"})
    with pytest.raises(ToolArgumentError, match="at most"):
        tool.validate({"policyholder_id": "x" * (MAX_STRING_ARG + 1), "date_of_birth": "1990-01-01"})
    assert tool.validate({"policyholder_id": "PH-1", "date_of_birth": "1990-01-01", "zip_code": None})["zip_code"] is None


def test_every_domain_opening_prompt_is_smaller_than_with_verbose_schemas():
    count = TokenCounter()
    for name in tb_env.list_domains():
        size = measure(tb_env.get_domain(name), count)
        assert size.tokens < 0.9 * size.verbose_tokens, size


def test_the_estimate_is_close_to_a_real_byte_level_tokenizer_on_prose_and_json(tmp_path):
    build_tokenizer(tmp_path / "tok")
    exact = TokenCounter(str(tmp_path / "tok"))
    text = opening_prompt(tb_env.get_domain("retail"))
    assert exact.exact and exact.unit == "tokens"
    # the tiny tokenizer knows few merges, so it needs more tokens than the estimate: a floor
    assert exact(text) >= TokenCounter()(text) * 0.9


def test_export_warns_per_domain_over_the_prompt_budget(tmp_path):
    retail = next(t.id for t in tb_env.list_tasks(domain="retail", split="train"))
    auto = next(t.id for t in tb_env.list_tasks(domain="auto_insurance", split="train"))
    count = TokenCounter()
    sizes = {d: measure(tb_env.get_domain(d), count).tokens for d in ("retail", "auto_insurance")}
    budget = (sizes["retail"] + sizes["auto_insurance"]) // 2 + 200
    warnings = too_long([retail, auto], budget)
    assert len(warnings) == 1 and "auto_insurance" in warnings[0] and str(budget) in warnings[0]
    assert not too_long([retail, auto], sizes["auto_insurance"] + 2000)
    pool = tmp_path / "pool.txt"
    pool.write_text(f"{retail}\n{auto}\n")
    said: list[str] = []
    written = export(pool, "trl", tmp_path / "out", max_prompt_length=budget, warn=said.append)
    assert said == warnings and written  # a warning, not a refusal: the rows are still written
