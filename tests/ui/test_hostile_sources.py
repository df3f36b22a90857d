"""The UI embeds wire text in its own words only through ``plain.isolate``: every
``.format(...)`` argument and f-string value in reviewer_app/ui that reads a free-text field
of the wire contract (the fields are found in the protocol's schemas, as the poisoner finds
them) is wrapped in isolate (or a helper built on it, or a tooltip, which is escaped and
shown alone). A new sentence that forgets it fails here, before a hostile queue name turns
the app's words around on screen."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import reviewer_app.ui
from tests.ui.poison import REPLIES, is_free_text

UI = Path(reviewer_app.ui.__file__).parent
#: helpers that isolate (or escape) what they are given
SAFE = {"isolate", "long", "tooltip", "rich_escaped"}
#: ... and the words of a code: a label isolated, a slug (nothing to reorder) in words,
#: anything else isolated (ui/words.py)
SAFE |= {"code_words", "language_words"}
#: ids are the service's own (or checked slugs), shown as ids, never inside words that
#: could be reordered around them; the others are the app's own objects with such names
NOT_WIRE = {"id"}
ALLOWED = {
    ("messages.py", "message.title"),  # the app's own Message, not a reply's field
    ("lead/decisions.py", "target.name"),  # a file name the lead chose
}


def free_text_fields() -> set[str]:
    found: set[str] = set()

    def walk(schema: dict[str, Any], defs: dict[str, Any], seen: frozenset[str]) -> None:
        if "$ref" in schema:
            name = schema["$ref"].rsplit("/", 1)[-1]
            if name not in seen:
                walk(defs[name], defs, seen | {name})
            return
        for key in ("anyOf", "allOf", "oneOf"):
            for inner in schema.get(key, []):
                walk(inner, defs, seen)
        if "items" in schema:
            walk(schema["items"], defs, seen)
        for field, inner in schema.get("properties", {}).items():
            options = [inner, *inner.get("anyOf", [])]
            if any(is_free_text(o) or is_free_text(o.get("items", {})) for o in options):
                found.add(field)
            walk(inner, defs, seen)

    for model in REPLIES:
        schema = model.model_json_schema(mode="serialization")
        walk(schema, schema.get("$defs", {}), frozenset())
    return found


def unisolated(path: Path, fields: set[str], root: Path = UI) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def guarded(node: ast.AST) -> bool:
        above = parents.get(node)
        while above is not None:
            if isinstance(above, ast.Call):
                name = getattr(above.func, "id", None) or getattr(above.func, "attr", None)
                if name in SAFE:
                    return True
            above = parents.get(above)
        return False

    bad = []
    for node in ast.walk(tree):
        values: list[ast.expr] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr == "format":
                values = [k.value for k in node.keywords] + list(node.args)
        elif isinstance(node, ast.JoinedStr):
            values = [v.value for v in node.values if isinstance(v, ast.FormattedValue)]
        for value in values:
            for sub in ast.walk(value):
                if not isinstance(sub, ast.Attribute) or sub.attr not in fields - NOT_WIRE:
                    continue
                parent = parents.get(sub)
                if isinstance(parent, ast.Call) and parent.func is sub:
                    continue  # a method of that name (Qt's .name()), not a field
                where = str(path.relative_to(root))
                if (where, ast.unparse(sub)) in ALLOWED or guarded(sub):
                    continue
                bad.append(f"{where}:{sub.lineno}: {ast.unparse(value)[:100]}")
    return bad


def test_wire_text_enters_the_apps_sentences_only_through_isolate() -> None:
    fields = free_text_fields()
    assert {"name", "label", "display_name", "note", "text", "title"} <= fields, fields
    bad = [line for path in sorted(UI.rglob("*.py")) for line in unisolated(path, fields)]
    assert bad == [], "wire text formatted into the app's words without isolate:\n" + "\n".join(bad)


def test_the_check_finds_a_forgotten_isolate(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "def f(q, translate):\n"
        "    return translate('X', '{queue}: waiting').format(queue=q.name)"
        " + f' {q.label}' + f' {isolate(q.name)}'\n",
        encoding="utf-8",
    )
    found = unisolated(sample, free_text_fields(), root=tmp_path)
    assert len(found) == 2, found
