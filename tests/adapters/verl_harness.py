"""What a verl rollout worker gives an agent loop, built on the CPU without Ray or a GPU.

`ScriptedServer` implements verl's server-manager interface (`LLMServerClient.generate`)
and answers with fixed model text; `instantiate` builds the registered `tb_env` agent
loop the way `AgentLoopWorker._run_agent_loop` does (hydra from the registry entry)."""

from __future__ import annotations

from typing import Any

import hydra
from omegaconf import OmegaConf
from verl.experimental.agent_loop.agent_loop import DictConfigWrap, ToolListWrap, _agent_loop_registry
from verl.utils.dataset.rl_dataset import RLHFDataset
from verl.workers.rollout.replica import TokenOutput

import tb_env
from tb_env.parties.interpret import render_tool_call

from ..tiny_tokenizer import CHAT_TEMPLATE, build_tokenizer

LOGPROB = -0.5

# The tiny template with Qwen3's thinking rule: an assistant turn shows its thinking block
# when it has reasoning or is the conversation's last message, so an empty block appears at
# the end and disappears once more messages follow. Appending messages then changes earlier
# text; only a builder that renders each new message on its own (verl's) can continue it.
THINKING_TEMPLATE = CHAT_TEMPLATE.replace(
    "<|im_start|>assistant\n{{ message.content or '' }}",
    "<|im_start|>assistant\n{% if loop.last or message.reasoning_content %}"
    "<think>\n{{ message.reasoning_content or '' }}\n</think>\n\n{% endif %}{{ message.content or '' }}",
)
assert THINKING_TEMPLATE != CHAT_TEMPLATE


def call(name: str, **args: Any) -> str:
    return render_tool_call(tb_env.ToolCall(name=name, arguments=args))


class ScriptedServer:
    """verl's `generate(request_id, *, prompt_ids, sampling_params, ...) -> TokenOutput`, saying
    fixed turns: one script per episode (a new `request_id` starts the next script)."""

    def __init__(self, tokenizer: Any, scripts: list[list[str]], eos: bool = True):
        self.tok = tokenizer
        self.scripts = scripts
        self.eos = eos
        self.calls: list[dict[str, Any]] = []  # request_id, prompt_ids, sampling_params, token_ids
        self._turn: dict[str, tuple[int, int]] = {}  # request_id -> (script, turn)

    async def generate(
        self,
        request_id: str,
        *,
        prompt_ids: list[int],
        sampling_params: dict[str, Any],
        image_data: list[Any] | None = None,
        video_data: list[Any] | None = None,
        audio_data: list[Any] | None = None,
        mm_processor_kwargs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> TokenOutput:
        script, turn = self._turn.get(request_id, (len(self._turn), 0))
        self._turn[request_id] = (script, turn + 1)
        turns = self.scripts[min(script, len(self.scripts) - 1)]
        text = turns[min(turn, len(turns) - 1)]
        budget = sampling_params["max_tokens"]
        ids = self.tok.encode(text, add_special_tokens=False)
        ids = [*ids[: budget - 1], self.tok.eos_token_id] if self.eos else ids[:budget]
        self.calls.append(
            {"request_id": request_id, "prompt_ids": list(prompt_ids), "sampling_params": dict(sampling_params),
             "token_ids": ids}
        )
        return TokenOutput(token_ids=ids, log_probs=[LOGPROB] * len(ids), stop_reason="completed",
                           extra_fields={"global_steps": 7})


def trainer_config(prompt_length: int = 4096, response_length: int = 4096) -> Any:
    """The parts of verl's trainer config an agent loop reads."""
    return OmegaConf.create(
        {
            "actor_rollout_ref": {"rollout": {"prompt_length": prompt_length, "response_length": response_length,
                                              "calculate_log_probs": True}},
            "data": {"apply_chat_template_kwargs": {}, "mm_processor_kwargs": {}},
        }
    )


def instantiate(server: ScriptedServer, config: Any = None, name: str = "tb_env", **overrides: Any) -> Any:
    """The agent loop named `name`, built as verl's `AgentLoopWorker._run_agent_loop` builds it.

    Call from a running event loop (verl builds agent loops inside its worker's loop)."""
    config = config or trainer_config()
    entry = OmegaConf.merge(OmegaConf.create(dict(_agent_loop_registry[name])), overrides)
    return hydra.utils.instantiate(
        config=entry,
        trainer_config=DictConfigWrap(config=config),
        server_manager=server,
        tokenizer=server.tok,
        processor=None,
        hf_model_type="qwen3",
        dataset_cls=RLHFDataset,
        data_config=DictConfigWrap(config.data),
        tools=ToolListWrap([]),
    )


def row(task_id: str) -> dict[str, Any]:
    """The dataset fields verl passes to `run` for a row of `tb-env export --format verl`."""
    from tb_env.training.export import rows

    (r,) = rows([task_id], "verl")
    return {"raw_prompt": r["prompt"], "extra_info": r["extra_info"], "reward_model": r["reward_model"],
            "data_source": r["data_source"], "index": 0}


def sampling() -> dict[str, Any]:
    """What verl's worker passes (`AgentLoopWorker.generate_sequences`)."""
    return {"temperature": 1.0, "top_p": 1.0, "top_k": -1, "repetition_penalty": 1.0, "logprobs": True}


__all__ = ["LOGPROB", "THINKING_TEMPLATE", "ScriptedServer", "build_tokenizer", "call", "instantiate", "row",
           "sampling", "trainer_config"]
