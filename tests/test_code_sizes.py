"""Sizes of the code: no module over 600 lines, no function over 80 without a reason.

A module that grows past ``MODULE_LINES`` holds several concerns: split it along them. A
function past ``FUNCTION_LINES`` says why in its docstring, on a line that starts with
``Long because`` (a migration's frozen DDL, a form built in one place that reads top to
bottom); otherwise split it. ``KNOWN`` lists what is over today and has not been split yet:
it may only shrink (an entry that no longer applies fails too, so the list stays true).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "reviewer_app"
MODULE_LINES = 600
FUNCTION_LINES = 80
REASON = "Long because"

# What is over the limits and still to be split ("path" for a module, "path:function").
KNOWN: frozenset[str] = frozenset()  # none left: keep it so


def oversized() -> dict[str, str]:
    """Every module and function over its limit, with what it measures."""
    found: dict[str, str] = {}
    for path in sorted(ROOT.rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MODULE_LINES:
            found[name] = f"{lines} lines"
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length <= FUNCTION_LINES:
                continue
            doc = ast.get_docstring(node) or ""
            if any(line.strip().startswith(REASON) for line in doc.splitlines()):
                continue
            found[f"{name}:{node.name}"] = f"{length} lines"
    return found


def test_no_new_module_or_function_over_its_limit() -> None:
    found = oversized()
    new = {key: size for key, size in found.items() if key not in KNOWN}
    assert not new, (
        f"over {MODULE_LINES} lines a module or {FUNCTION_LINES} a function (split it, or "
        f"say '{REASON} ...' in the function's docstring): {new}"
    )


def test_the_known_list_is_true() -> None:
    gone = sorted(KNOWN - oversized().keys())
    assert not gone, f"split or gone: take these out of KNOWN in {__file__}: {gone}"


if __name__ == "__main__":
    for key, size in sorted(oversized().items()):
        print(f"{size:>10}  {key}")
