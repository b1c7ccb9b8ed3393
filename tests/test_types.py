"""The package is type-checked with mypy in strict mode as part of the test suite
(tests/typecheck.py: every source file under the module name pyproject.toml gives it;
``[tool.mypy]`` holds the configuration)."""

from __future__ import annotations

import pytest



def test_the_package_passes_mypy_strict():
    pytest.importorskip("mypy", reason="mypy is in the test extra: pip install -e '.[test]'")
    from tests.typecheck import check

    errors = [line for line in check([]) if ": error:" in line]
    assert not errors, "\n".join(errors)
