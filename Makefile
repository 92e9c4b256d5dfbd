# Two verbs do all the set-up on a fresh clone: `make demo` and `make test`.
# Each creates .venv (Python 3.11+) if missing and installs what it needs.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
HASH := $(shell cat pyproject.toml setup.py | cksum | cut -d' ' -f1)
BASE_STAMP := $(VENV)/.base-$(HASH)
TEST_STAMP := $(VENV)/.test-$(HASH)
# verl pins transformers < 5.11, TRL needs >= 5.13: verl's tests get a venv of their own
VERL_VENV := .venv-verl
# bump the suffix when the verl venv's own packages change (they are not in pyproject.toml)
VERL_STAMP := $(VERL_VENV)/.verl-$(HASH)-v2k
# skyrl 0.4 (its generator, which the SkyRL adapter's example subclasses) needs Python >= 3.12: the
# machine image's pyenv has one; its tests get a venv of their own. vllm: SkyRL's entry point imports
# it at module level (it pulls a CUDA torch build, ~11 GB in all; the tests run on the CPU). Not in `make test`
# yet: its first build (~15 min, 11 GB) would push a fresh machine's run past the 45-minute budget: `make test-skyrl` runs them
PY312 ?= $(firstword $(wildcard $(HOME)/.pyenv/versions/3.12*/bin/python3.12) python3.12)
SKYRL_VENV := .venv-skyrl
SKYRL_STAMP := $(SKYRL_VENV)/.skyrl-$(HASH)-v1
PYTEST := -q -p no:cacheprovider --durations=12
# `long` tests (tests/faults' 10k-episode and many-kill variants) run only under `make test-long`
NOT_LONG := -m "not long"

.PHONY: demo test test-fast test-faults test-long test-verl test-skyrl lint bench validate clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(BASE_STAMP): $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

# torch first, pinned: the CPU wheel on disk (an unpinned torch pulls a multi-GB CUDA build)
$(TEST_STAMP): $(BIN)/python
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[dev,postgres,ray,trl,skyrl]'
	touch $(BASE_STAMP) $@

$(VERL_STAMP):
	$(PY) -m venv $(VERL_VENV)
	$(VERL_VENV)/bin/python -m pip install -q --upgrade pip
	$(VERL_VENV)/bin/python -m pip install -q torch==2.13.0
	$(VERL_VENV)/bin/python -m pip install -q -e '.[dev]'
	$(VERL_VENV)/bin/python -m pip install -q --no-deps 'verl==0.9.1'
	# kernels: '.[dev]' pulled the newest transformers, whose kernels breaks 5.10's import; pin 5.10's own range
	$(VERL_VENV)/bin/python -m pip install -q 'transformers>=5.5.3,<5.11,!=5.6.0' 'kernels>=0.12,<0.13' 'ray>=2.41' hydra-core \
		'tensordict>=0.8,<=0.10,!=0.9.0' datasets codetiming cachetools fastapi
	# verl's v1 trainer path (trainer.use_v1, the 0.9 default): its agent-loop worker over TransferQueue
	$(VERL_VENV)/bin/python -m pip install -q 'transferqueue==0.1.11' 'tensordict==0.10.0' torchdata peft
	touch $@

$(SKYRL_STAMP):
	$(PY312) -m venv $(SKYRL_VENV)
	$(SKYRL_VENV)/bin/python -m pip install -q --upgrade pip
	$(SKYRL_VENV)/bin/python -m pip install -q 'vllm==0.33.0'
	# skyrl's own deps name flash-attn, nixl and vllm-router (CUDA builds): its skyrl-train extra by hand, without them
	$(SKYRL_VENV)/bin/python -m pip install -q --no-deps 'skyrl==0.4.0'
	$(SKYRL_VENV)/bin/python -m pip install -q 'skyrl-gym>=0.4,<0.5' 'ray==2.57.0' 'hydra-core==1.3.4' 'peft==0.18.1' \
		'transformers>=5.13,<=5.16.1' 'datasets>=4.0.0' loguru tqdm omegaconf accelerate torchdata tensordict jaxtyping \
		polars fastapi uvicorn 'orjson>=3.11.9' 'pybase64>=1.4.2' safetensors tokenizers typer rich pillow \
		cloudpathlib zstandard xxhash func_timeout hf_transfer aiohttp pyarrow
	$(SKYRL_VENV)/bin/python -m pip install -q -e '.[dev,skyrl]'
	touch $@

demo: $(BASE_STAMP)  ## the main job: an evaluation campaign on the embedded SQLite backend
	$(BIN)/tb-env demo

# `make test` runs two streams on the two cores: the whole-task-set runs (validate, bench, packaging) and
# every test of the shared PostgreSQL server in one, serially; the rest and verl's venv beside it
HEAVY := tests/test_validate.py tests/test_postgres.py tests/test_bench.py tests/test_packaging.py \
	tests/faults/test_isolation.py tests/faults/test_injection.py tests/faults/test_database.py

test: $(TEST_STAMP) $(VERL_STAMP)  ## every test CI runs (pytest's "no tests" exit 5 counts as success)
	@log=$$(mktemp); echo "make test: $(HEAVY) run beside the rest; their output follows it"; \
	$(BIN)/python -m pytest $(PYTEST) $(NOT_LONG) $(HEAVY) > $$log 2>&1 & heavy=$$!; \
	$(BIN)/python -m pytest $(PYTEST) $(NOT_LONG) $(addprefix --ignore=,$(HEAVY)); rc=$$?; [ $$rc -eq 5 ] && rc=0; \
	$(VERL_VENV)/bin/python -m pytest $(PYTEST) tests/adapters/test_verl.py; rv=$$?; [ $$rv -eq 5 ] && rv=0; \
	wait $$heavy; rh=$$?; [ $$rh -eq 5 ] && rh=0; echo "== $(HEAVY)"; cat $$log; rm -f $$log; \
	echo "make test: rest $$rc, verl $$rv, heavy $$rh"; [ $$rc -eq 0 ] && [ $$rv -eq 0 ] && [ $$rh -eq 0 ]

test-fast: $(TEST_STAMP)  ## the inner loop: skips tests marked slow
	$(BIN)/python -m pytest $(PYTEST) -x -m "not slow and not long"; rc=$$?; [ $$rc -eq 5 ] && rc=0; exit $$rc

test-faults: $(TEST_STAMP)  ## faults, bad input, isolation and security (tests/faults), without the long variants
	$(BIN)/python -m pytest $(PYTEST) $(NOT_LONG) tests/faults

test-long: $(TEST_STAMP)  ## the long variants alone: 10,000 episodes, many more kills and examples
	$(BIN)/python -m pytest $(PYTEST) -m long tests/faults

test-verl: $(VERL_STAMP)  ## only the verl adapter's tests, in their own venv
	$(VERL_VENV)/bin/python -m pytest $(PYTEST) tests/adapters/test_verl.py

test-skyrl: $(SKYRL_STAMP)  ## the SkyRL adapter's tests with skyrl's own generator, on Python 3.12
	$(SKYRL_VENV)/bin/python -m pytest $(PYTEST) tests/adapters/test_skyrl.py

lint: $(TEST_STAMP)
	$(BIN)/ruff check .

bench: $(BASE_STAMP)
	$(BIN)/tb-env bench

validate: $(BASE_STAMP)
	$(BIN)/tb-env validate --workers 2

clean:
	rm -rf $(VENV) $(VERL_VENV) $(SKYRL_VENV) build dist *.egg-info
