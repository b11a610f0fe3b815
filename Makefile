# The two commands a newcomer needs: `make demo` and `make test`. Each builds .venv on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PYTEST_ARGS ?=

CHROMIUM ?= /usr/bin/chromium

.PHONY: demo test typecheck bench venv clean browser broker

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

# The venue tests run a real Mosquitto broker (and mosquitto_passwd), from Debian's packages.
broker:
	@if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian's mosquitto for the venue tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto mosquitto-clients >/dev/null; \
	  else \
	    echo "mosquitto is missing: run 'sudo apt-get install mosquitto mosquitto-clients' for the venue tests"; \
	  fi; \
	fi

test: $(STAMP) browser broker
	$(VENV)/bin/mypy
	$(PY) -m pytest $(PYTEST_ARGS)

typecheck: $(STAMP)
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache
