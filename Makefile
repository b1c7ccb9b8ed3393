# tapeline: `make demo` and `make test` each work from a fresh clone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tapeline replay scenarios/examples/showcase.yaml
	$(BIN)/tapeline render scenarios/examples/showcase.yaml -o showcase.svg
	@echo "picture written to showcase.svg"

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	PYTHONPATH=. $(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
