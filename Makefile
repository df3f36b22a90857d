# The review desk: one command to run the demo, one to run every check.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
PG_URL ?= $(REVIEWER_APP_TEST_PG_URL)
# pytest's processes (pytest-xdist): one per core, at most TEST_MAX_WORKERS (each may run a
# test's multi-process server on PostgreSQL, whose connections are 100 by default);
# TEST_WORKERS=0 runs the tests in one
TEST_WORKERS ?= auto
TEST_MAX_WORKERS ?= 4

.PHONY: demo test lint typecheck imports openapi bench soak package package-check wheel-check clean

$(VENV)/.app: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.dev: pyproject.toml $(VENV)/.app
	$(PY) -m pip install --quiet -e '.[dev,postgres]'
	touch $@

## Set up and run the app on its embedded demo server.
demo: $(VENV)/.app
	$(VENV)/bin/reviewer-app --demo

## Set up and run the whole test suite with lint, type and boundary checks.
test: $(VENV)/.dev lint imports typecheck
	$(PY) -m pytest -n $(TEST_WORKERS) --maxprocesses $(TEST_MAX_WORKERS) --dist worksteal

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

imports: $(VENV)/.dev
	$(VENV)/bin/lint-imports

typecheck: $(VENV)/.dev
	$(VENV)/bin/mypy

## Regenerate the committed OpenAPI document after changing the contract.
openapi: $(VENV)/.dev
	$(PY) -m reviewer_app.server.http.openapi

## Claim/decide benchmark (SQLite; pass ARGS="--database-url postgresql://..." for PostgreSQL).
bench: $(VENV)/.dev
	$(PY) benchmarks/claim_decide.py $(ARGS)

## A long shift: 30,000 decisions through the real window with sync running (tests run 3,000).
soak: $(VENV)/.dev
	REVIEWER_APP_SOAK_DECISIONS=30000 REVIEWER_APP_SOAK_STRICT=1 $(PY) -m pytest tests/soak -s

## The desktop bundle: dist/reviewer-app/ (PyInstaller one-folder, packaging/reviewer-app.spec).
package: $(VENV)/.dev
	$(VENV)/bin/pyinstaller --noconfirm --clean --log-level WARN \
		--distpath dist --workpath build/pyinstaller packaging/reviewer-app.spec
	@echo "bundle dist/reviewer-app: $$(du -sh dist/reviewer-app | cut -f1)" \
		"($$(find dist/reviewer-app -type f | wc -l) files)"

## Build the bundle, then run it: --version, --self-test, the demo until its first post
## is painted (offscreen; the demo's service is the bundle's own executable in a process of
## its own), the service's demo seed and the statements export (package data); no
## PostgreSQL driver, no broken links, and the third-party notices beside the executable.
package-check: package
	dist/reviewer-app/reviewer-app --version
	QT_QPA_PLATFORM=offscreen dist/reviewer-app/reviewer-app --self-test
	rm -rf build/package-check && env -u DISPLAY -u WAYLAND_DISPLAY \
		QT_QPA_PLATFORM=offscreen REVIEWER_APP_STARTUP_PROBE=1 \
		REVIEWER_APP_DATA_DIR=$(CURDIR)/build/package-check/data \
		XDG_CONFIG_HOME=$(CURDIR)/build/package-check/config \
		dist/reviewer-app/reviewer-app --demo | grep '^first-post-painted'
	REVIEWER_SERVER_DATABASE_URL=sqlite:///$(CURDIR)/build/package-check/demo.db \
		dist/reviewer-app/reviewer-app server seed --demo
	REVIEWER_SERVER_DATABASE_URL=sqlite:///$(CURDIR)/build/package-check/demo.db \
		dist/reviewer-app/reviewer-app server sor export --since 2000-01-01T00:00:00Z \
		--until 2100-01-01T00:00:00Z -o $(CURDIR)/build/package-check/statements.jsonl
	@found="$$(find dist/reviewer-app -iname '*psycopg*')"; \
		if [ -n "$$found" ]; then echo "the bundle holds psycopg: $$found"; exit 1; fi
	@broken="$$(find dist/reviewer-app -xtype l)"; \
		if [ -n "$$broken" ]; then echo "broken links in the bundle: $$broken"; exit 1; fi
	grep -q "GNU LESSER GENERAL PUBLIC LICENSE" dist/reviewer-app/THIRD-PARTY-NOTICES.txt
	@echo "bundle dist/reviewer-app: $$(du -sh dist/reviewer-app | cut -f1), no psycopg"

## Build the wheel, install it into a fresh venv (no checkout on its path) and run, from an
## empty folder, the app's --self-test, the demo (its service in a process of its own, until
## the first post is painted), the service's demo seed and the statements export (its
## schema is package data): what a new user meets.
WHEEL_DIR := build/wheel-check
wheel-check: $(VENV)/.dev
	rm -rf $(WHEEL_DIR) && mkdir -p $(WHEEL_DIR)/run
	$(PY) -m pip wheel --quiet --no-deps --wheel-dir $(WHEEL_DIR) .
	$(PYTHON) -m venv $(WHEEL_DIR)/venv
	$(WHEEL_DIR)/venv/bin/python -m pip install --quiet $(WHEEL_DIR)/reviewer_app-*.whl
	cd $(WHEEL_DIR)/run && env -u PYTHONPATH QT_QPA_PLATFORM=offscreen \
		XDG_DATA_HOME=$(CURDIR)/$(WHEEL_DIR)/run/data \
		$(CURDIR)/$(WHEEL_DIR)/venv/bin/reviewer-app --self-test
	cd $(WHEEL_DIR)/run && env -u PYTHONPATH -u DISPLAY -u WAYLAND_DISPLAY \
		QT_QPA_PLATFORM=offscreen REVIEWER_APP_STARTUP_PROBE=1 \
		REVIEWER_APP_DATA_DIR=$(CURDIR)/$(WHEEL_DIR)/run/demo-data \
		XDG_CONFIG_HOME=$(CURDIR)/$(WHEEL_DIR)/run/config \
		$(CURDIR)/$(WHEEL_DIR)/venv/bin/reviewer-app --demo | grep '^first-post-painted'
	cd $(WHEEL_DIR)/run && env -u PYTHONPATH \
		REVIEWER_SERVER_DATABASE_URL=sqlite:///$(CURDIR)/$(WHEEL_DIR)/run/demo.db \
		$(CURDIR)/$(WHEEL_DIR)/venv/bin/reviewer-app server seed --demo
	cd $(WHEEL_DIR)/run && env -u PYTHONPATH \
		REVIEWER_SERVER_DATABASE_URL=sqlite:///$(CURDIR)/$(WHEEL_DIR)/run/demo.db \
		$(CURDIR)/$(WHEEL_DIR)/venv/bin/reviewer-app server sor export \
		--since 2000-01-01T00:00:00Z --until 2100-01-01T00:00:00Z -o statements.jsonl
	@echo "wheel $$(ls $(WHEEL_DIR)/*.whl): self-test, demo, demo seed and sor export pass from a fresh venv"

clean:
	rm -rf $(VENV) build dist *.egg-info

## Regenerate the translation sources from the UI code, then compile them (commit both).
LUPDATE ?= $(VENV)/bin/pyside6-lupdate
LRELEASE ?= $(VENV)/bin/pyside6-lrelease
TRANSLATIONS := de es
.PHONY: translations
translations: $(VENV)/.app
	for lang in $(TRANSLATIONS); do \
		$(LUPDATE) -extensions py -no-obsolete -locations none reviewer_app/ui -ts resources/translations/reviewer_app_$$lang.ts || exit 1; \
		$(LRELEASE) resources/translations/reviewer_app_$$lang.ts -qm reviewer_app/ui/translations/reviewer_app_$$lang.qm || exit 1; \
	done
