"""The pictures in docs/ are what the renderer draws now (docs/pictures.py draws them again)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_docs_pictures_are_up_to_date():
    r = subprocess.run([sys.executable, str(ROOT / "docs" / "pictures.py"), "--check"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
