"""The headless browser of the end-to-end tests (the replay viewer, the web table, its maps).

The browser is the system's Chromium (``/usr/bin/chromium``, or the path in
``TAPELINE_CHROMIUM``), driven by Playwright; where there is none, or Playwright is missing, or it
cannot start, the browser tests are skipped, saying why. ``make test`` installs Debian's Chromium
when it is missing and it can (root, apt-get).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

#: Chromium's flags for a closed network: no background connections, no first-run work.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_path() -> str:
    """The Chromium binary to drive, or "" when there is none."""
    path = os.environ.get("TAPELINE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    return path if os.path.exists(path) else ""


def launch(what: str) -> Iterator[Any]:
    """A headless Chromium for the test of ``what`` (closed afterwards), or the test skipped."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip(f"{what}'s browser test needs the playwright package (pip install -e '.[test]')")
    exe = chromium_path()
    if not exe:
        pytest.skip(f"{what}'s browser test needs Chromium: apt-get install chromium "
                    "(or set TAPELINE_CHROMIUM to a Chromium binary)")
    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=exe, args=CHROMIUM_FLAGS, timeout=60_000)
        except Exception as e:  # a browser that cannot start here: say so, do not fail the suite
            pytest.skip(f"Chromium at {exe} did not start: {str(e).splitlines()[0]}")
        yield b
        b.close()
