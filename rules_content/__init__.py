"""The rules of the four games, in German and English: Markdown documents cut into sections.

A document is ``<lang>/<game>.md``. Its first line is ``# Title``; every section starts with
``## Title {#id}`` (or ``### Title {#id}`` for a part of the section above, such as one
variant). Ids are English slugs and the same in both languages, so a link can switch
language and land on the same section. Text before the first section is not allowed.
"""

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

from scoring.games import GAMES as ALL_GAMES

LANGUAGES = ("de", "en")
ROOT = Path(__file__).resolve().parent
# The games with a document of their own, in the rules' order; a variant (Burkosel) lives in
# its parent's document as the section ``variant-<game>``.
GAMES = tuple(game for game in ALL_GAMES if (ROOT / "en" / f"{game}.md").exists())

_HEADING = re.compile(r"^(#{2,3}) (.+?) \{#([a-z0-9-]+)\}\s*$")
# Raw HTML off: the documents are edited by people, and rendered into our pages.
_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
_RED_CARD = re.compile(r"((?:10|[2-9AKQJDB])?[♥♦])")


class DocumentError(ValueError):
    """A rules document does not follow the format above."""


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    level: int
    markdown: str

    @property
    def html(self) -> str:
        return render_markdown(self.markdown)


@dataclass(frozen=True)
class Document:
    game: str
    lang: str
    title: str
    sections: tuple[Section, ...]

    def section(self, section_id: str) -> Section | None:
        return next((s for s in self.sections if s.id == section_id), None)


def parse_document(text: str, game: str, lang: str) -> Document:
    """Cut a document into its sections, checking the format."""
    lines = text.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise DocumentError(f"{lang}/{game}.md must start with '# Title'")
    sections, current, body = [], None, []

    def close():
        if current is not None:
            sections.append(Section(*current, "\n".join(body).strip()))

    for number, line in enumerate(lines[1:], start=2):
        heading = _HEADING.match(line)
        if heading:
            close()
            current, body = (heading[3], heading[2], len(heading[1])), []
        elif line.startswith("#"):
            raise DocumentError(f"{lang}/{game}.md:{number}: heading without an {{#id}}")
        elif current is None and line.strip():
            raise DocumentError(f"{lang}/{game}.md:{number}: text before the first section")
        else:
            body.append(line)
    close()
    ids = [section.id for section in sections]
    if len(ids) != len(set(ids)):
        raise DocumentError(f"{lang}/{game}.md: a section id is used twice")
    return Document(game, lang, lines[0][2:].strip(), tuple(sections))


def document_path(game: str, lang: str) -> Path:
    return ROOT / lang / f"{game}.md"


@cache
def _load(game: str, lang: str, version: tuple) -> Document:
    return parse_document(document_path(game, lang).read_text(encoding="utf-8"), game, lang)


def load_document(game: str, lang: str) -> Document:
    """The document as it is on disk now: read again when its file changes."""
    stat = document_path(game, lang).stat()
    return _load(game, lang, (stat.st_mtime_ns, stat.st_size))


def load_all() -> list[Document]:
    return [load_document(game, lang) for game in GAMES for lang in LANGUAGES]


# What the search index holds of a section; a new format rebuilds the index as a change of
# the documents does.
INDEX_FORMAT = b"sections with their defining text"


def documents_digest() -> str:
    """A fingerprint of every document: the search index is rebuilt when it changes."""
    digest = hashlib.sha256(INDEX_FORMAT)
    for game in GAMES:
        for lang in LANGUAGES:
            path = document_path(game, lang)
            digest.update(path.name.encode() + lang.encode())
            digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()


def render_markdown(markdown: str) -> str:
    """Markdown to HTML, with red suits (and their rank) marked for colouring.

    >>> render_markdown("Ben plays the J♥ and **wins**.")
    '<p>Ben plays the <span class="red">J♥</span> and <strong>wins</strong>.</p>\\n'
    """
    # The suit symbols never occur inside tags, so marking them in the output is safe.
    return _RED_CARD.sub(r'<span class="red">\1</span>', _MARKDOWN.render(markdown))


def plain_text(markdown: str) -> str:
    """The words of a section as a reader sees them, for the search index and snippets.

    >>> plain_text("bei den [Sonderregeln](#variant-two-or-three) und **fett**")
    'bei den Sonderregeln und fett'
    """
    # A link reads as its words; where it points is no word of the text.
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"^\s*(?:[-*•]|\d+\.)\s+", "", text, flags=re.M)
    text = re.sub(r"^\s*\|?\s*:?-{3,}.*$", "", text, flags=re.M)
    text = re.sub(r"[*_`>#|]", " ", text)
    return " ".join(text.split())


_BOLD = re.compile(r"\*\*(.+?)\*\*")
# A first sentence ends at its full stop, or at the colon before a list; a label in bold
# ("Deal:") runs on into the words it labels.
_SENTENCE = re.compile(r"(.{30,}?[.!?:])(?:\s|$)")
# Sections that restate the rules in short: a search prefers the full rule to them.
SUMMARIES = frozenset({"summary", "quick-rules", "cheat-sheet"})


def defining_text(section: Section) -> str:
    """What a section defines, a line each: its title, its first sentence, and its words in
    bold (a term is set in bold where the documents define it).

    >>> defining_text(Section("x", "Tricks", 2, "A **trick** is won by the highest card. More."))
    'Tricks\\nA trick is won by the highest card.\\ntrick'
    """
    text = plain_text(section.markdown)
    first = _SENTENCE.match(text)
    opening = first[1] if first else text
    bold = " · ".join(plain_text(words) for words in _BOLD.findall(section.markdown))
    return "\n".join([section.title, opening, bold])
