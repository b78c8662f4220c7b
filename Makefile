# meldtour — `make run` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: install run test lint typecheck bench soak clean

NATIVE := src/meldtour/solver/_native/__init__.built
SOLVER_SOURCES := $(addprefix src/meldtour/solver/,tables.py dp.py build.py exact.py)

install: $(STAMP) $(NATIVE)

$(STAMP): pyproject.toml
	@# System packages: CJK fonts for the PDFs, poppler to render them in tests, zbar to
	@# decode the printed QR codes in tests.
	@[ -d /usr/share/fonts/opentype/noto ] && command -v pdftoppm >/dev/null && \
	  command -v zbarimg >/dev/null || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	   fonts-noto-cjk poppler-utils zbar-tools)
	command -v chromium >/dev/null || (apt-get update && apt-get install -y chromium fonts-noto-cjk)
	@# A C compiler and OpenSSL's headers: the seed-recovery test builds its search.
	@command -v cc >/dev/null && [ -f /usr/include/openssl/sha.h ] || \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
	   gcc libc6-dev libssl-dev)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

$(NATIVE): $(STAMP) $(SOLVER_SOURCES) tools/build_solver.py
	@# The solver's compiled core (mypyc, ~15 s); when it fails the pure solver runs.
	$(PY) tools/build_solver.py && touch $(NATIVE) || true

run: install
	$(PY) -m meldtour.web --port 8000

lint: install
	$(VENV)/bin/ruff check src tests bench tools
	$(VENV)/bin/ruff format --check src tests bench tools

typecheck: install
	$(VENV)/bin/mypy --strict src

test: install lint typecheck
	$(VENV)/bin/pytest -n 2 -p no:cacheprovider

bench: install
	$(PY) bench/engine.py

soak: install
	$(PY) bench/soak.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
