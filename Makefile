# tapeline: `make demo` and `make test` each work from a fresh clone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	@echo "installing tapeline and its test tools into $(VENV) (log: $(VENV)/install.log)"
	@$(BIN)/python -m pip install --upgrade pip > $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; false)
	@$(BIN)/python -m pip install -e '.[test]' >> $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; false)
	@touch $(STAMP)

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
	$(BIN)/tapeline render $(SHOW) --los c2 zb1 -o showcase.svg
	@echo "picture written to showcase.svg"

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	PYTHONPATH=. $(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
