"""German and English throughout: every user-facing string has its German translation."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "translations" / "de" / "LC_MESSAGES" / "messages.po"
KEYWORDS = {"_": None, "_l": None, "gettext": None, "ngettext": (1, 2), "lazy_gettext": None}
METHODS = [("**.py", "python"), ("**.html", "jinja2")]
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def source_messages() -> set[str]:
    found = set()
    for folder in ("views", "templates"):
        for _file, _line, message, _comments, _context in extract_from_dir(
                ROOT / folder, METHODS, keywords={**KEYWORDS}):
            found.add(message if isinstance(message, str) else message[0])
    return found


@pytest.fixture(scope="module")
def catalog():
    with CATALOG.open("rb") as file:
        return read_po(file, locale="de")


def test_every_message_in_the_code_has_a_german_translation(catalog):
    missing = [message for message in source_messages()
               if not catalog.get(message) or not catalog.get(message).string
               or (isinstance(catalog.get(message).string, tuple)
                   and not all(catalog.get(message).string))]
    assert not missing, "run `make extract-messages` and translate: " + "; ".join(missing)


def test_no_translation_is_marked_fuzzy(catalog):
    assert not [message.id for message in catalog if message.id and message.fuzzy]


def test_translations_keep_every_placeholder(catalog):
    for message in catalog:
        if not message.id:
            continue
        source = message.id if isinstance(message.id, str) else message.id[1]
        targets = message.string if isinstance(message.string, tuple) else (message.string,)
        for target in targets:
            assert set(PLACEHOLDER.findall(target)) <= set(PLACEHOLDER.findall(source)), \
                message.id
            assert set(PLACEHOLDER.findall(source)) - {"%(num)s"} <= \
                set(PLACEHOLDER.findall(target)), message.id
