"""The rules of the four games, in German and English: Markdown documents cut into sections.

A document is ``<lang>/<game>.md``. Its first line is ``# Title``; every section starts with
``## Title {#id}`` (or ``### Title {#id}`` for a part of the section above, such as one
variant). Ids are English slugs and the same in both languages, so a link can switch
language and land on the same section. Text before the first section is not allowed.
"""

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from markdown_it import MarkdownIt

GAMES = ("burro", "burraco", "bura", "buraco")
LANGUAGES = ("de", "en")
ROOT = Path(__file__).resolve().parent

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


def documents_digest() -> str:
    """A fingerprint of every document: the search index is rebuilt when it changes."""
    digest = hashlib.sha256()
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
    """The words of a section as a reader sees them, for the search index and snippets."""
    text = re.sub(r"^\s*(?:[-*•]|\d+\.)\s+", "", markdown, flags=re.M)
    text = re.sub(r"^\s*\|?\s*:?-{3,}.*$", "", text, flags=re.M)
    text = re.sub(r"[*_`>#|]", " ", text)
    return " ".join(text.split())


# --- Search helpers --------------------------------------------------------------------------

def fold(text: str) -> str:
    """Lower case without accents, one character for one: "Ablagestapel" ~ "ablägestapel".

    Each character folds to exactly one character, so a match found in the folded text
    marks the same place in the original.

    >>> fold("Schließen Où ÄRGER")
    'schließen ou arger'
    """
    folded = []
    for char in text:
        plain = "".join(c for c in unicodedata.normalize("NFD", char)
                        if not unicodedata.combining(c)).lower()
        folded.append(plain if len(plain) == 1 else char)
    return "".join(folded)


MIN_TERM = 3  # the trigram index finds parts of words from three letters on


def search_terms(query: str) -> list[str]:
    """The words of a query that can be searched for, folded, longest first, at most 8.

    >>> search_terms('Pozzetto "OR" *Stäpel* a NOT')
    ['pozzetto', 'stapel', 'not']
    """
    words = {word for word in re.findall(r"\w+", fold(query)) if len(word) >= MIN_TERM}
    return sorted(words, key=lambda word: (-len(word), word))[:8]


def spellings(term: str) -> list[str]:
    """A term and its other German spelling: "schliessen" also finds "schließen".

    >>> spellings("schliessen"), spellings("stapel")
    (['schliessen', 'schließen'], ['stapel'])
    """
    return sorted({term, term.replace("ss", "ß"), term.replace("ß", "ss")}, key=len,
                  reverse=True)


def fts_query(terms: list[str]) -> str:
    """Each term as quoted FTS5 strings: user text never reaches MATCH as syntax.

    >>> fts_query(["stapel", "maß"])
    '"stapel" AND ("mass" OR "maß")'
    """
    def quoted(term: str) -> str:
        options = ['"' + spelling.replace('"', '""') + '"' for spelling in spellings(term)]
        return options[0] if len(options) == 1 else "(" + " OR ".join(options) + ")"
    return " AND ".join(quoted(term) for term in terms)


def snippet(text: str, terms: list[str], width: int = 160) -> list[tuple[str, bool]]:
    """A window of ``text`` around the first match, as (piece, is_match) pairs to escape
    and mark when rendering.

    >>> snippet("Der Ablagestapel liegt offen.", ["stapel"], 40)
    [('Der Ablage', False), ('stapel', True), (' liegt offen.', False)]
    """
    folded = fold(text)
    spans = sorted((match.start(), match.end()) for term in terms
                   for spelling in spellings(term)
                   for match in re.finditer(re.escape(spelling), folded))
    first = spans[0][0] if spans else 0
    start = max(0, first - width // 3)
    if start:
        start = text.find(" ", start) + 1 or start
    end = min(len(text), start + width)
    pieces, position = [], start
    for match_start, match_end in spans:
        if match_start < position or match_end > end:
            continue
        pieces += [(text[position:match_start], False), (text[match_start:match_end], True)]
        position = match_end
    pieces.append((text[position:end], False))
    if start:
        pieces[0] = ("…" + pieces[0][0], False)
    if end < len(text):
        pieces[-1] = (pieces[-1][0] + "…", pieces[-1][1])
    return [piece for piece in pieces if piece[0]]
