"""Every "… while {during}" reads right in German and Spanish.

``messages.describe(err, during=translate(ctx, "loading the users"))`` puts a phrase into a
sentence: "Something went wrong while loading the users." The templates take one form of
the phrase in each language (German "beim {during}" with a nominalised infinitive, "beim
Laden der Benutzer"; Spanish "al {during}" with an infinitive, "al cargar los usuarios"),
so every phrase passed as ``during`` must be translated in that form. Translated one by
one they were not: "während beim Laden der verknüpften Konten", "während Suchen", "al al
cargar las cuentas vinculadas", "al buscando", and the admin tabs' phrases, translated
from a variable lupdate cannot read, stayed English ("während loading the users").

The phrases are found in the source: every ``translate`` call given as ``during=``,
assigned to ``during``, or passed to a function's ``during`` parameter (the admin tabs'
``_failed``). Each is put into every template that takes ``{during}`` and that into every
sentence that takes ``{where}``, with the real catalogues installed, and the result read.
"""

from __future__ import annotations

import ast
import itertools
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from reviewer_app.ui import i18n

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "reviewer_app" / "ui"
TS_DIR = ROOT / "resources" / "translations"
LANGUAGES = ("de", "es")

#: the admin tabs' phrases: once translated from a variable, so lupdate never saw them
ADMIN_PIECES = (
    "loading the queue file",
    "loading the API keys",
    "creating the API key",
    "revoking the API key",
    "loading the users",
    "adding the user",
    "changing the role",
    "setting the password",
    "ending the access",
)

TRANSLATE_NAMES = {"translate", "QT_TRANSLATE_NOOP"}

# German: a preposition never follows a preposition, a contracted one ("beim" = "bei dem")
# takes no article, and "während" takes the genitive's article ("während des Ladens").
DE_PREPOSITIONS = {"während", "beim", "bei", "im", "in", "zum", "zur", "am", "an", "vom"}
DE_CONTRACTED = {"beim", "im", "zum", "zur", "am", "vom"}
DE_ARTICLES = {"der", "die", "das", "des", "dem", "den"}
# Spanish: "al" (= "a el") takes an infinitive: no article, no preposition, no gerund.
ES_PREPOSITIONS = {"al", "a", "en", "de", "del", "durante", "mientras", "para", "por", "con"}
ES_ARTICLES = {"el", "la", "los", "las", "un", "una", "unos", "unas"}
ES_GERUND = re.compile(r"\bal \w+(?:ando|iendo|yendo)\b", re.IGNORECASE)
ES_INFINITIVE = re.compile(r"^\w+(?:ar|er|ir|ír)(?:se|lo|la|los|las|le|les)?$", re.IGNORECASE)
DOUBLED = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)
WORD = re.compile(r"\w+")


# --- the phrases, from the source --------------------------------------------------------


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _during_parameters(trees: list[ast.Module]) -> dict[str, int | None]:
    """Functions with a ``during`` parameter: its position in a call (``self`` not
    counted), or None when it can only be given by keyword."""
    found: dict[str, int | None] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            names = [a.arg for a in node.args.posonlyargs + node.args.args]
            if names and names[0] in ("self", "cls"):
                names = names[1:]
            if "during" in names:
                found[node.name] = names.index("during")
            elif any(a.arg == "during" for a in node.args.kwonlyargs):
                found.setdefault(node.name, None)
    return found


def _given_as_during(tree: ast.Module, params: dict[str, int | None]) -> Iterator[ast.expr]:
    """Every expression a ``during`` phrase is taken from."""
    for node in ast.walk(tree):
        given = isinstance(node, ast.keyword) and node.arg == "during"
        assigned = isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "during" for t in node.targets
        )
        if isinstance(node, (ast.keyword, ast.Assign)) and (given or assigned):
            yield node.value
        elif isinstance(node, ast.Call):
            position = params.get(_name(node.func) or "")
            if position is not None and len(node.args) > position:
                yield node.args[position]


def during_pieces() -> tuple[set[tuple[str, str]], list[str]]:
    """The (context, source) of every phrase given as ``during``, and where one is given
    in a form lupdate cannot extract (a variable or a bare string translated later)."""
    files = sorted(UI.rglob("*.py"))
    trees = [ast.parse(path.read_text(encoding="utf-8")) for path in files]
    params = _during_parameters(trees)
    pieces: set[tuple[str, str]] = set()
    hidden: list[str] = []
    for path, tree in zip(files, trees, strict=True):
        for value in _given_as_during(tree, params):
            where = f"{path.relative_to(ROOT)}:{value.lineno}: {ast.unparse(value)}"
            if isinstance(value, ast.Name):
                continue  # passed on: its own source is found where it is made
            if isinstance(value, ast.Call) and _name(value.func) in TRANSLATE_NAMES:
                args = [a.value for a in value.args if isinstance(a, ast.Constant)]
                if (
                    len(value.args) == 2
                    and len(args) == 2
                    and all(isinstance(a, str) for a in args)
                ):
                    pieces.add((str(args[0]), str(args[1])))
                    continue
            hidden.append(where)
    return pieces, hidden


# --- the catalogues ----------------------------------------------------------------------


def catalogue(language: str) -> dict[tuple[str, str], ET.Element]:
    found: dict[tuple[str, str], ET.Element] = {}
    for context in ET.parse(TS_DIR / f"reviewer_app_{language}.ts").getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            found[(name, message.findtext("source") or "")] = message
    return found


def templates(language: str, slot: str) -> list[tuple[str, str]]:
    """Every message of the Messages context whose source takes ``{slot}``."""
    return sorted(
        key for key in catalogue(language) if key[0] == "Messages" and f"{{{slot}}}" in key[1]
    )


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    installed = i18n.install_translators(qapp, request.param)
    assert installed, f"no catalogue loaded for {request.param}"
    try:
        yield request.param
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


# --- what is read ------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def junction_problems(language: str, before: str, piece: str) -> list[str]:
    """What is wrong where the template's last word meets the phrase's first."""
    if not before or not piece:
        return []
    left, right = before.lower(), piece.lower()
    if language == "de":
        if left in DE_PREPOSITIONS and right in DE_PREPOSITIONS:
            return [f"two prepositions: {before} {piece}"]
        if left in DE_CONTRACTED and right in DE_ARTICLES:
            return [f"an article after '{before}': {before} {piece}"]
        if left == "während" and right not in DE_ARTICLES:
            return [f"'während' without the genitive: {before} {piece}"]
        if left == "beim" and not (piece[:1].isupper() and right.endswith("n")):
            return [f"'beim' takes a nominalised infinitive: {before} {piece}"]
    if language == "es" and left == "al":
        if right in ES_PREPOSITIONS or right in ES_ARTICLES:
            return [f"'al' before a preposition or article: {before} {piece}"]
        if not ES_INFINITIVE.match(right):
            return [f"'al' takes an infinitive: {before} {piece}"]
    return []


def sentence_problems(language: str, sentence: str) -> list[str]:
    problems = [f"doubled word '{m.group(1)}'" for m in DOUBLED.finditer(sentence)]
    words = _words(sentence)
    prepositions = DE_PREPOSITIONS if language == "de" else ES_PREPOSITIONS
    for left, right in itertools.pairwise(words):
        if left in prepositions and right in prepositions and left != right:
            problems.append(f"two prepositions: {left} {right}")
    if language == "es":
        problems += [f"a gerund after 'al': {m.group()}" for m in ES_GERUND.finditer(sentence)]
    return problems


def render(language: str, pieces: set[tuple[str, str]]) -> list[str]:
    """What reads wrong, per phrase: every template with ``{during}``, put into every
    sentence with ``{where}``, one example sentence per kind of problem."""
    during_templates = templates(language, "during")
    where_templates = templates(language, "where")
    assert during_templates and where_templates, "no {during}/{where} template found"
    wrong: list[str] = []
    for context, source in sorted(pieces):
        said = i18n.translate(context, source)
        found: dict[str, str] = {}  # problem: an example sentence
        if not said.strip() or said == source:
            found["not translated"] = ""
        first = (WORD.findall(said) or [""])[0]
        for template_key in during_templates:
            template = i18n.translate(*template_key)
            before = (_words(template.split("{during}")[0]) or [""])[-1]
            where = " " + template.format(during=said)
            for problem in junction_problems(language, before, first):
                found.setdefault(problem, where.strip())
            for sentence_key in where_templates:
                sentence = i18n.translate(*sentence_key).format(where=where)
                for problem in sentence_problems(language, sentence):
                    found.setdefault(problem, sentence)
        wrong += [
            f"{context}: {source!r} -> {said!r}: {problem}" + (f" ({example!r})" if example else "")
            for problem, example in found.items()
        ]
    return wrong


# --- the tests ---------------------------------------------------------------------------


def test_every_during_phrase_is_given_in_a_form_lupdate_extracts() -> None:
    pieces, hidden = during_pieces()
    assert not hidden, (
        "a 'during' phrase lupdate cannot extract: pass translate(ctx, '...') with both "
        "arguments literal:\n" + "\n".join(hidden)
    )
    assert len(pieces) >= 30, sorted(pieces)  # the scan still finds them
    assert {("LeadAdmin", text) for text in ADMIN_PIECES} <= pieces


def test_every_during_phrase_is_a_finished_translation_in_the_catalogues() -> None:
    pieces, _hidden = during_pieces()
    wanted = pieces | {("LeadAdmin", text) for text in ADMIN_PIECES}
    for language in LANGUAGES:
        found = catalogue(language)
        missing = []
        for key in sorted(wanted):
            message = found.get(key)
            translation = None if message is None else message.find("translation")
            if (
                translation is None
                or translation.get("type") in ("unfinished", "obsolete", "vanished")
                or not (translation.text or "").strip()
                or translation.text == key[1]
            ):
                missing.append(f"{key[0]}: {key[1]!r}")
        assert not missing, f"{language}: not translated in the catalogue:\n" + "\n".join(missing)


def test_every_during_phrase_reads_right_in_every_template(language: str) -> None:
    pieces, _hidden = during_pieces()
    pieces |= {("LeadAdmin", text) for text in ADMIN_PIECES}
    wrong = render(language, pieces)
    assert not wrong, f"{language}: {len(wrong)} problem(s):\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("lang", "before", "piece", "wrong"),
    [
        ("de", "während", "beim", True),
        ("de", "beim", "beim", True),
        ("de", "während", "Suchen", True),
        ("de", "beim", "des", True),
        ("de", "beim", "Anmeldung", True),
        ("de", "beim", "laden", True),
        ("de", "beim", "Suchen", False),
        ("de", "während", "des", False),
        ("es", "al", "al", True),
        ("es", "al", "buscando", True),
        ("es", "al", "cargando", True),
        ("es", "al", "el", True),
        ("es", "al", "cargar", False),
        ("es", "al", "añadir", False),
    ],
)
def test_the_reading_catches_what_the_probe_found(
    lang: str, before: str, piece: str, wrong: bool
) -> None:
    assert bool(junction_problems(lang, before, piece)) is wrong
    sentence = f"… {before} {piece} …"
    if before == piece or piece.endswith("ando"):
        assert sentence_problems(lang, sentence)
