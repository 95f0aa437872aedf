# The commands people type. `make demo` and `make test` work on a fresh machine with only python3.
#
#   make demo                 set up .venv, migrate, build the demo bakeoff, serve on 127.0.0.1:8000
#                             (make demo DEMO_ADDRESS=127.0.0.1:8001 where that port is taken)
#   make check                the quick loop: the suite on SQLite without the slow experiments (Perl
#                             parity, the PKU committee) and the production path, in two xdist
#                             workers; 94 to 202 s on the 2-core machines measured (README)
#   make test                 the whole suite on SQLite, then the platform suite on PostgreSQL + Redis
#   make token USER=name      print a new API token for a user
#   make lint                 ruff check, ruff format --check, mypy (strict, everything), lint-imports,
#                             and no untranslated or fuzzy entry in either Chinese catalogue
#   make bench                the benchmarks (`make test` runs each in its smoke mode only)
#   make fuzz                 the API fuzz with 25 cases per operation (`make test` tries 5)
#   make migrations-check     fail if a model change has no migration
#   make messages             build the translation catalogues (.mo: gettext's msgfmt, else polib)
#   make makemessages         gather the strings to translate into locale/*/LC_MESSAGES/django.po
#   make install / make dev   runtime / development requirements into .venv (dev: and axe-core for
#                             the browser tests, from npm where npm is installed)
#   make clean                remove caches and the embedded database (keeps .venv)

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PYTEST := $(PY) -m pytest -p no:cacheprovider

# pytest-xdist workers. The SQLite pass of make test (PYTEST_WORKERS) runs in one process: it runs
# beside the PostgreSQL pass (PRODUCTION_WORKERS below), and its Perl parity tests score on two
# threads in one session fixture, whose report, printed at the end of the session, is lost under
# xdist. make check (CHECK_WORKERS) leaves those out and runs in two: on two cores that took it
# from 3:48 to under 2 minutes. Whole files go to a worker (loadfile): a module's world
# (tests/module_world.py) is built once. 0 runs in one process.
PYTEST_WORKERS ?= 0
CHECK_WORKERS ?= 2
PYTEST_ARGS ?=
xdist = $(if $(filter-out 0,$(1)),-n $(1) --dist loadfile,)
SQLITE_XDIST := $(call xdist,$(PYTEST_WORKERS))

# The production path, as .ci/run and docker-compose.yml set it up.
# A database of this checkout's own (pytest-django creates test_<name> and drops it after), so
# that two checkouts on one machine never drop each other's; the broker's queues are named per
# session (tests/production/conftest.py), so the Redis database may be shared.
CHECKOUT_ID := $(shell printf '%s' "$(CURDIR)" | sha256sum | cut -c1-8)
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/bakeoff_$(CHECKOUT_ID)
TEST_CELERY_BROKER_URL ?= redis://127.0.0.1:6379/5
# Outside the embedded mode the server refuses to start without a real secret key; the test run
# has one of its own, and serves plain HTTP on 127.0.0.1 (no redirect to HTTPS).
TEST_SECRET_KEY ?= production-test-run-only-$(shell printf '%s' "$(CURDIR)" | sha256sum | cut -c1-40)
# The order of the folders decides little: pytest-django runs the transactional tests (most of
# tests/production) after the others, and pytest-xdist hands out the files with the most tests
# first. Neither matters here: the two passes keep both cores busy (96 % of a make test's time on
# 2026-11-26), and handing the files out in this order instead (--no-loadscope-reorder) took the
# same time (567 s against 562 and 573 s).
PRODUCTION_TESTS ?= tests/production tests/operations tests/bakeoff tests/leaderboard tests/analysis tests/psychometric tests/accounts tests/notifications
PRODUCTION_TESTS_FOUND = $(wildcard $(PRODUCTION_TESTS))

# Embedded mode: no database URL, no broker, whatever the calling shell exports.
EMBEDDED := env -u DATABASE_URL -u CELERY_BROKER_URL

# A stamp per requirements checksum: installing again is skipped until a requirements file changes.
sum = $(firstword $(shell cat $(1) | sha256sum))
RUNTIME_STAMP := $(VENV)/.installed-runtime-$(call sum,requirements.txt)
DEV_STAMP := $(VENV)/.installed-dev-$(call sum,requirements.txt requirements-dev.txt)

PIP := $(PY) -m pip --disable-pip-version-check

# Python writes the bytecode of what it compiles, whatever the calling shell says: the suite starts
# the project's modules in every pytest worker and in each process it runs (celery workers,
# gunicorn, manage.py), and compiling them again each time cost seconds per process.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: demo install dev browser-tools check test token lint bench fuzz migrations-check clean messages makemessages

$(PY):
	@$(PYTHON) -m venv $(VENV) || { \
	  echo "'$(PYTHON) -m venv' failed: on Debian/Ubuntu run 'apt-get install python3-venv'" >&2; \
	  rm -rf $(VENV); exit 1; }

$(RUNTIME_STAMP): | $(PY)
	@echo "Installing requirements.txt into $(VENV) (the first time takes a few minutes)"
	$(PIP) install -q -r requirements.txt
	@rm -f $(VENV)/.installed-runtime-*
	@touch $@

$(DEV_STAMP): | $(PY)
	@echo "Installing requirements-dev.txt into $(VENV) (the first time takes a few minutes)"
	$(PIP) install -q -r requirements-dev.txt
	@rm -f $(VENV)/.installed-dev-* $(VENV)/.installed-runtime-*
	@touch $@ $(RUNTIME_STAMP)

install: $(RUNTIME_STAMP)

dev: $(DEV_STAMP) browser-tools

# axe-core, which the browser tests run on every page they visit (tests/browser/__init__.py), from
# npm as tests/browser/package-lock.json pins it. Without npm the browser tests skip, saying so
# (or fail where BAKEOFF_REQUIRE_TOOLS=1, as .ci/run sets, which installs npm).
AXE := tests/browser/node_modules/axe-core/axe.min.js

$(AXE): tests/browser/package.json tests/browser/package-lock.json
	cd tests/browser && npm ci --no-audit --no-fund
	@touch $@

browser-tools:
	@if command -v npm >/dev/null; then $(MAKE) --no-print-directory $(AXE); \
	else echo "npm is not installed: the browser tests will skip (apt-get install npm)"; fi

# The interface in English, 简体中文 (zh_Hans) and 繁體中文 (zh_Hant): the .po files are
# committed, the .mo files built (gettext's msgfmt where installed, else polib: config/catalogues.py).
CHINESE := -l zh_Hans -l zh_Hant
I18N_IGNORE := --ignore=.venv --ignore=var --ignore=staticfiles --ignore=tests --ignore=benchmarks --ignore=scoring

messages: $(RUNTIME_STAMP)
	$(EMBEDDED) $(PY) -m config.catalogues compile

makemessages: $(RUNTIME_STAMP)
	$(EMBEDDED) $(PY) manage.py makemessages $(CHINESE) $(I18N_IGNORE) --no-obsolete \
	  --add-location=file -e html,txt,py
	$(PY) -m config.catalogues count

# Where the demo serves; another port when 8000 is taken: make demo DEMO_ADDRESS=127.0.0.1:8001.
# SITE_URL follows it, so that the printed address and the links in mail lead to this server.
DEMO_ADDRESS ?= 127.0.0.1:8000
DEMO_ENV = $(EMBEDDED) SITE_URL=http://$(DEMO_ADDRESS)

demo: $(RUNTIME_STAMP) messages
	$(EMBEDDED) $(PY) manage.py migrate --noinput
	$(DEMO_ENV) $(PY) manage.py setup_demo
	@echo '$(DEMO_ENV) $(PY) manage.py runserver $(DEMO_ADDRESS)'
	@$(DEMO_ENV) $(PY) manage.py runserver $(DEMO_ADDRESS) || { \
	  echo "The demo could not serve on $(DEMO_ADDRESS); if that port is taken, choose another:" \
	    "make demo DEMO_ADDRESS=127.0.0.1:8001" >&2; exit 1; }

# Both runs always run (a CI cycle is long: report everything at once), at the same time: the
# SQLite pass mostly trains a committee and, the first time on a machine, waits for the Perl
# reference runs (their answers are kept after: tests/scoring/perl.py), the PostgreSQL pass
# mostly waits for its real services, and together they fill the machine's two cores. The SQLite
# pass's output is held in a file and printed once it ends. The target fails if either does,
# including pytest's exit status 5 (no tests collected).
# Each test runs once: the platform's tests that touch the database run in the PostgreSQL pass
# (the production path), but those marked embedded, which run on SQLite too; the SQLite pass runs
# the rest (the library, the docs, the template text, make demo). The PostgreSQL pass leaves out
# the tests that touch no database (tests/conftest.py), and runs in three pytest-xdist workers,
# each with a test database, a worker's queues and a media root of its own (whole files to a
# worker). Three, not two: while one waits on its real services (a 45 s outage, a lease running
# out), the others fill the core; make test took 556 s with three against 610 s with two.
# `make check` runs everything on SQLite.
SQLITE_RUN = $(EMBEDDED) $(PYTEST) $(SQLITE_XDIST) $(if $(strip $(PRODUCTION_TESTS_FOUND)),--platform-database-tests-elsewhere,) $(PYTEST_ARGS)
PRODUCTION_WORKERS ?= 3
PRODUCTION_XDIST := $(call xdist,$(PRODUCTION_WORKERS))
PRODUCTION_ENV = DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_CELERY_BROKER_URL) \
  SECRET_KEY=$(TEST_SECRET_KEY) SECURE_SSL_REDIRECT=0
ifneq ($(strip $(PRODUCTION_TESTS_FOUND)),)
PRODUCTION_RUN = $(PRODUCTION_ENV) \
  $(PYTEST) --database-tests-only $(PRODUCTION_XDIST) $(PYTEST_ARGS) $(PRODUCTION_TESTS_FOUND)
else
PRODUCTION_RUN = echo "WARNING: none of $(PRODUCTION_TESTS) exists: no production run" >&2
endif
SQLITE_LOG := test-artifacts/sqlite-pass.log

# One run per checkout at a time (a second would drop the first's test database, named after the
# checkout): where flock(1) is installed, a second `make test` here stops at once and says why.
TEST_LOCK := $(dir $(SQLITE_LOG)).make-test.lock

test: $(DEV_STAMP) messages
	@mkdir -p $(dir $(SQLITE_LOG)); exec 9> $(TEST_LOCK); \
	if command -v flock > /dev/null && ! flock -n 9; then \
	  echo "another make test runs in $(CURDIR); wait for it to end" >&2; exit 1; fi; \
	echo '$(SQLITE_RUN) > $(SQLITE_LOG)'; echo '$(PRODUCTION_RUN)'; \
	{ $(SQLITE_RUN) > $(SQLITE_LOG) 2>&1; echo $$? > $(SQLITE_LOG).status; } & \
	status=0; $(PRODUCTION_RUN) || status=$$?; wait; \
	echo '== the SQLite pass ($(SQLITE_RUN))'; cat $(SQLITE_LOG); \
	sqlite=$$(cat $(SQLITE_LOG).status); [ "$$sqlite" = 0 ] || status=$$sqlite; \
	exit $$status

# What `make check` leaves out: tests marked slow (minutes each, see pyproject.toml), those of the
# production path (they skip on SQLite anyway) and the benchmarks' smoke runs (make test runs them).
# It fails on any pytest exit status but 0, 5 included.
CHECK_MARKERS ?= not slow and not production and not benchmark
CHECK_RUN = $(EMBEDDED) $(PYTEST) $(call xdist,$(CHECK_WORKERS)) -m "$(CHECK_MARKERS)" $(PYTEST_ARGS)

check: $(DEV_STAMP) messages
	$(CHECK_RUN)

token: $(RUNTIME_STAMP)
	@test "$(origin USER)" = "command line" || { echo "usage: make token USER=name" >&2; exit 2; }
	@$(PY) manage.py make_token $(USER)

lint: $(DEV_STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports --no-cache --no-logo
	$(PY) -m config.catalogues check

# make bench BENCH_ARGS=--smoke: every benchmark in its smoke mode (seconds each), as the suite runs them.
BENCH_ARGS ?=
bench: $(DEV_STAMP)
	@set -e; for script in benchmarks/*.py; do \
	  case "$$script" in */__init__.py|*/smoke.py) continue;; esac; \
	  test -e "$$script" || continue; echo "== $$script"; $(PY) $$script $(BENCH_ARGS); done

# The API fuzz at full strength: make test's run tries BAKEOFF_FUZZ_EXAMPLES=5 cases per operation
# (tests/production/test_api_fuzz.py), this one 25 (make fuzz FUZZ_EXAMPLES=100 for more).
FUZZ_EXAMPLES ?= 25
fuzz: $(DEV_STAMP) messages
	BAKEOFF_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PRODUCTION_ENV) \
	  $(PYTEST) --database-tests-only -s $(PYTEST_ARGS) tests/production/test_api_fuzz.py

migrations-check: $(RUNTIME_STAMP)
	$(EMBEDDED) $(PY) manage.py makemigrations --check --dry-run

clean:
	rm -rf var staticfiles test-artifacts .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
