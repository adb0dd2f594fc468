"""The rules of the four games, in German and English: Markdown documents cut into sections.

A document is ``<lang>/<game>.md``. Its first line is ``# Title``; every section starts with
``## Title {#id}`` (or ``### Title {#id}`` for a part of the section above, such as one
variant). Ids are English slugs and the same in both languages, so a link can switch
language and land on the same section. Text before the first section is not allowed.
"""

import hashlib
import re
import tomllib
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path

from markdown_it import MarkdownIt
from rapidfuzz import process
from rapidfuzz.distance import OSA

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
MAX_TERMS = 8
# Two characters count when one is a digit, as table talk has them: "31", "2s".
_SHORT_TERM = re.compile(r"\w\d|\d\w")
SYNONYMS_PATH = ROOT / "synonyms.toml"
PLURAL_ENDING = 2  # a group's word with up to two more letters: "jokers", "Trumpf", "Folgen"


@dataclass(frozen=True)
class Synonyms:
    groups: dict[str, tuple[str, ...]]  # each word → every word of its group
    games: dict[str, str]  # a word → the game whose players say it
    phrases: re.Pattern  # the groups' phrases of several words, to keep them whole

    def word_of(self, term: str) -> str | None:
        """The group's word a term is, perhaps with a plural ending ("wild cards")."""
        return next((term[:end] for end in range(len(term), len(term) - PLURAL_ENDING - 1, -1)
                     if term[:end] in self.groups), None)


@cache
def synonyms() -> Synonyms:
    """The synonyms file, folded as the search folds what is typed."""
    with SYNONYMS_PATH.open("rb") as file:
        listed = tomllib.load(file)["group"]
    groups, games = {}, {}
    for group in listed:
        words = tuple(fold(word) for by_game in group.values() for word in by_game)
        for game, by_game in group.items():
            for word in (spelling for word in by_game for spelling in spellings(fold(word))):
                groups[word] = words
                if game != "any":
                    games[word] = game
    phrases = sorted((word for word in groups if " " in word), key=len, reverse=True)
    return Synonyms(groups, games, re.compile(
        r"\b(?:" + "|".join(map(re.escape, phrases)) + rf")\w{{0,{PLURAL_ENDING}}}\b"))


def search_terms(query: str) -> list[str]:
    """The terms of a query, folded, longest first, at most 8: words of three letters or
    more, shorter ones with a digit, and the phrases of the synonyms file.

    >>> search_terms('Pozzetto "OR" *Stäpel* a NOT 31')
    ['pozzetto', 'stapel', 'not', '31']
    >>> search_terms("Toter-Stapel?")
    ['toter stapel']
    """
    text = " ".join(re.findall(r"\w+", fold(query)))
    phrases = synonyms().phrases
    words = {word for word in phrases.sub(" ", text).split()
             if len(word) >= MIN_TERM or _SHORT_TERM.fullmatch(word)}
    terms = words | set(phrases.findall(text))
    return sorted(terms, key=lambda term: (-len(term), term))[:MAX_TERMS]


def spellings(term: str) -> list[str]:
    """A term and its other German spelling: "schliessen" also finds "schließen".

    >>> spellings("schliessen"), spellings("stapel")
    (['schliessen', 'schließen'], ['stapel'])
    """
    return sorted({term, term.replace("ss", "ß"), term.replace("ß", "ss")}, key=len,
                  reverse=True)


@dataclass(frozen=True)
class Term:
    """A term of a query, and the phrases of the documents that find it."""
    typed: str
    phrases: tuple[str, ...]
    game: str | None = None  # the game whose players say the word: its sections rank first
    corrected: str | None = None  # the documents' word searched in place of a misspelt one

    @property
    def pattern(self) -> re.Pattern:
        return phrases_pattern(self.phrases)

    @property
    def whole_words_only(self) -> bool:
        """Numbers and short words are found only as whole words: "31" is not in "310"."""
        return any(map(_whole_word_only, self.phrases))


def _whole_word_only(phrase: str) -> bool:
    return len(phrase) < MIN_TERM or phrase.isdigit()


@lru_cache(maxsize=256)
def phrases_pattern(phrases: tuple[str, ...]) -> re.Pattern:
    """One expression that finds any of the phrases in folded text, the longest first.

    >>> phrases_pattern(("31", "dead pile")).findall("31 or 310 in the dead piles")
    ['31', 'dead pile']
    """
    return re.compile("|".join(
        rf"(?<!\w){re.escape(phrase)}(?!\w)" if _whole_word_only(phrase) else re.escape(phrase)
        for phrase in sorted(set(phrases), key=len, reverse=True)))


class Vocabulary:
    """The words of the indexed sections: to read a word written together as the two words
    the documents write apart, and to find the word meant by a misspelt one."""

    def __init__(self, sections: Iterable[str]):
        sections = list(sections)  # each section's folded title and text
        self._text = "\n".join(sections)
        self.sections_with = Counter(word for section in sections
                                     for word in set(re.findall(r"\w+", section))
                                     if len(word) >= MIN_TERM and word.isalpha())

    def apart(self, word: str) -> list[str]:
        """The word cut into two words of the documents.

        >>> Vocabulary(["the dead pile"]).apart("deadpile")
        ['dead pile']
        """
        return [f"{word[:cut]} {word[cut:]}" for cut in range(MIN_TERM, len(word) - MIN_TERM + 1)
                if word[:cut] in self.sections_with and word[cut:] in self.sections_with]

    def finds_little(self, term: str, phrases: Iterable[str]) -> bool:
        """The term is no word of the documents, and its phrases occur at most once."""
        if term in self.sections_with:
            return False
        found = 0
        for phrase in phrases:
            found += self._text.count(phrase)
            if found > 1:
                return False
        return True

    def nearest(self, word: str) -> str | None:
        """The documents' word nearest to a misspelt one: one edit away for words of up to
        five letters, two for longer ones (a swap of neighbours is one edit); of two as near,
        the one more sections use.

        >>> Vocabulary(["pozzetto", "pozzetti", "pozzetto"]).nearest("pozetto")
        'pozzetto'
        """
        if not word.isalpha():
            return None
        found = process.extract(word, list(self.sections_with), scorer=OSA.distance,
                                score_cutoff=1 if len(word) <= 5 else 2, limit=None)
        best = min(found, default=None,
                   key=lambda match: (match[1], -self.sections_with[match[0]], match[0]))
        return best and best[0]


def expand(term: str, vocabulary: Vocabulary) -> Term:
    """A term with every way the documents may say it: its synonyms, the word written apart
    ("deadpile": "dead pile"), their other German spelling. A term the documents hardly hold
    is searched as their nearest word ("pozetto": "pozzetto")."""
    known = synonyms()
    words = [term, *vocabulary.apart(term)]
    group_words = list(filter(None, map(known.word_of, words)))
    related = [synonym for word in group_words for synonym in known.groups[word]]
    phrases = tuple(dict.fromkeys(spelling for word in words + related
                                  for spelling in spellings(word)))
    if vocabulary.finds_little(term, phrases):
        nearest = vocabulary.nearest(term)
        if nearest:
            return replace(expand(nearest, vocabulary), typed=term, corrected=nearest)
    return Term(term, phrases, next(filter(None, map(known.games.get, group_words)), None))


def corrected_query(query: str, corrections: dict[str, str]) -> str:
    """The query with each misspelt word replaced by the word searched in its place.

    >>> corrected_query("Moskow rules", {"moskow": "moscow"})
    'moscow rules'
    """
    return re.sub(r"\w+", lambda word: corrections.get(fold(word[0]), word[0]), query)


def fts_query(terms: list[Term]) -> str:
    """Each term's phrases as quoted FTS5 strings: user text never reaches MATCH as syntax.
    A phrase too short for the trigram index is looked for with a space on one side.

    >>> fts_query([Term("stapel", ("stapel",)), Term("31", ("31",))])
    '"stapel" AND (" 31" OR "31 ")'
    """
    def options(phrase: str) -> list[str]:
        return [phrase] if len(phrase) >= MIN_TERM else [" " + phrase, phrase + " "]

    def quoted(term: Term) -> str:
        strings = ['"' + option.replace('"', '""') + '"'
                   for phrase in term.phrases for option in options(phrase)]
        return strings[0] if len(strings) == 1 else "(" + " OR ".join(strings) + ")"
    return " AND ".join(quoted(term) for term in terms)


def snippet(text: str, phrases: Iterable[str], width: int = 160,
            folded: str | None = None) -> list[tuple[str, bool]]:
    """A window of ``text`` around the first phrase found, as (piece, is_match) pairs to
    escape and mark when rendering. ``folded`` is the text folded, if at hand: folding
    costs more than the rest of a search.

    >>> snippet("Der Ablagestapel liegt offen.", ["stapel"], 40)
    [('Der Ablage', False), ('stapel', True), (' liegt offen.', False)]
    """
    spans = [match.span() for match in
             phrases_pattern(tuple(phrases)).finditer(folded or fold(text))]
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
