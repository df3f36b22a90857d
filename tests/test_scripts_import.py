"""The scripts beside the package (benchmarks/, packaging/) import what they name from it:
no test runs them, and a name moved or removed in the package would otherwise only fail
the next time someone takes the README's screenshots or runs a benchmark."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted(p for folder in ("benchmarks", "packaging") for p in (ROOT / folder).glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_script_imports(script: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(script.parent))  # its neighbours (benchmarks/common.py)
    spec = importlib.util.spec_from_file_location(f"_script_{script.stem}", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)  # module level only: each runs under __main__
