# tapeline: `make demo` and `make test` each work from a fresh clone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench fuzz mutate clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@echo "installing tapeline and its test tools into $(VENV) (log: $(VENV)/install.log)"
	@$(BIN)/python -m pip install --upgrade pip > $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; false)
	@$(BIN)/python -m pip install -e '.[test]' >> $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; false)
	@touch $(STAMP)

# The HTML viewer's end-to-end test drives a real headless Chromium: Debian's package, installed
# here when it is missing and this is root on a Debian-like machine (Playwright's own browser
# download is not used). Tried once per environment; without a browser only that test is skipped.
BROWSER_STAMP := $(VENV)/.browser
$(BROWSER_STAMP): $(STAMP)
	@if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then :; \
	elif command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	  echo "installing chromium for the HTML viewer test (log: $(VENV)/apt.log)"; \
	  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; } > $(VENV)/apt.log 2>&1 \
	    || echo "chromium could not be installed: the viewer's browser test will be skipped"; \
	else echo "no chromium and no way to install it: the viewer's browser test will be skipped"; fi
	@touch $(BROWSER_STAMP)

SHOW := scenarios/examples/showcase.yaml

demo: $(STAMP)
	$(BIN)/tapeline replay $(SHOW)
	@echo
	$(BIN)/tapeline los $(SHOW) a6 za5
	@echo
	$(BIN)/tapeline los $(SHOW) c2 zb1
	@echo
	$(BIN)/tapeline attack $(SHOW) --unit marines-alpha --weapon c-14-rifle --target zerglings-a
	@echo
	$(BIN)/tapeline charge $(SHOW) --unit roaches --target marines-bravo
	@echo
	$(BIN)/tapeline template scenarios/examples/template-40k-blast.yaml --shape blast --at 12,12
	@echo
	$(BIN)/tapeline fight scenarios/examples/assault-heresy.yaml --unit tac --after 0
	@echo
	$(BIN)/tapeline render $(SHOW) --los c2 zb1 -o showcase.svg
	@echo "picture written to showcase.svg"
	@echo
	@echo "tapeline is installed in $(VENV): run '. $(VENV)/bin/activate' to type tapeline as the README does"
	@echo "(or call $(BIN)/tapeline), e.g. tapeline shell $(SHOW)"

# The suite runs on every core (pytest-xdist): about 4.5 minutes on 2 cores, 9.5 on one.
# TEST_JOBS=1 runs it in one process.
TEST_JOBS ?= auto
test: $(STAMP) $(BROWSER_STAMP)
	$(BIN)/python -m pytest -n $(TEST_JOBS)

# The benchmarks run in their own environment with the `bench` extra (the real path-finding
# peers): extremitypathfinder pins numpy < 2, which must not leak into the test environment.
# The whole-command sections (start-up, the session, check and replay at scale) time tapeline as a
# user installs it: a regular `pip install .` into .venv-bench/user (benchmarks/install.py).
# `make test` runs every section's quick profile (`python -m benchmarks --quick`,
# tests/test_benchmarks.py), which writes nothing. The sections that time in this process run with
# one BLAS thread, as a `tapeline` process does (scenarios/guards.py): numpy's spinning threads
# would add their CPU time to every method alike; the whole commands get the user's environment.
BENCH_VENV := .venv-bench
BENCH_STAMP := $(BENCH_VENV)/.installed
$(BENCH_STAMP): pyproject.toml
	test -x $(BENCH_VENV)/bin/python || $(PY) -m venv $(BENCH_VENV)
	@echo "installing tapeline and the benchmark peers into $(BENCH_VENV) (log: $(BENCH_VENV)/install.log)"
	@$(BENCH_VENV)/bin/python -m pip install --upgrade pip > $(BENCH_VENV)/install.log 2>&1 || (cat $(BENCH_VENV)/install.log; false)
	@$(BENCH_VENV)/bin/python -m pip install -e '.[bench]' >> $(BENCH_VENV)/install.log 2>&1 || (cat $(BENCH_VENV)/install.log; false)
	@touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	OPENBLAS_NUM_THREADS=1 PYTHONPATH=. $(BENCH_VENV)/bin/python -m benchmarks

# The fuzzing suite's long profile (tests/scenarios/test_fuzz.py; make test runs the fast one).
fuzz: $(STAMP)
	TAPELINE_FUZZ=long $(BIN)/python -m pytest tests/scenarios/test_fuzz.py -p no:cacheprovider

# Mutation testing of the core geometry and odds modules (tests/mutate.py): the score per
# module, written to docs/mutation.md. MUTATE_ARGS="--module board/measure.py --sample 60".
mutate: $(STAMP)
	PYTHONPATH=. $(BIN)/python -m tests.mutate $(MUTATE_ARGS)

clean:
	rm -rf $(VENV) $(BENCH_VENV) build *.egg-info
