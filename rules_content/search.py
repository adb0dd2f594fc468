"""Searching the rules as players ask: the words of a question that carry meaning, the ways
the documents may say them, and which sections answer best. Pure functions over the index's
rows; the index itself is the store's."""

import math
import re
import tomllib
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from . import ALL_GAMES, GAMES, ROOT, SUMMARIES, load_document


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
STOP_WORDS_PATH = ROOT / "stopwords.txt"
PLURAL_ENDING = 2  # a group's word with up to two more letters: "jokers", "Trumpf", "Folgen"
# What a word may add and still be the same word: "tricks", "Karten", "Stiche", "toten".
_ENDINGS = ("ern", "en", "er", "es", "e", "n", "s")
_INFLECTION = r"(?:" + "|".join(_ENDINGS) + r")?"


@cache
def game_homes() -> dict[str, tuple[str, str]]:
    """Where an exact game name leads: its overview, or for a game without a document of its
    own the section of the document that holds it as a variant."""
    homes = {game: (game, "overview") for game in GAMES}
    for game in set(ALL_GAMES) - set(GAMES):
        held = (document for document in GAMES
                if load_document(document, "en").section(f"variant-{game}"))
        homes[game] = (next(held), f"variant-{game}")
    return homes


@cache
def stop_words() -> dict[str, frozenset[str]]:
    """Each language's words of a question that carry no meaning of their own ("how",
    "much"; "wie", "ist"), folded as the search folds what is typed."""
    listed, lang = {}, None
    for line in STOP_WORDS_PATH.read_text(encoding="utf-8").splitlines():
        if line.startswith("["):
            lang = line.strip("[] ")
        elif line.strip() and not line.startswith("#"):
            listed.setdefault(lang, set()).update(fold(word) for word in line.split())
    return {lang: frozenset(found) for lang, found in listed.items()}


def _any_stop_word() -> frozenset[str]:
    return frozenset().union(*stop_words().values())


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
            for spelling in (each for entry in by_game for each in spellings(fold(entry))):
                groups[spelling] = words
                if game != "any":
                    games[spelling] = game
    phrases = sorted((word for word in groups if " " in word), key=len, reverse=True)
    return Synonyms(groups, games, re.compile(
        r"\b(?:" + "|".join(map(re.escape, phrases)) + rf")\w{{0,{PLURAL_ENDING}}}\b"))


def search_terms(query: str) -> list[str]:
    """The terms of a query, folded, longest first, at most 8: the phrases of the synonyms
    file, then words of three letters or more, shorter ones with a digit, leaving out the
    words that carry no meaning — unless nothing else was typed.

    >>> search_terms('Pozzetto "OR" *Stäpel* a NOT 31')
    ['pozzetto', 'stapel', 'not', '31']
    >>> search_terms("Toter-Stapel?"), search_terms("how much is a joker worth")
    (['toter stapel'], ['joker', 'worth'])
    """
    text = " ".join(re.findall(r"\w+", fold(query)))
    phrases = synonyms().phrases
    words = {word for word in phrases.sub(" ", text).split()
             if len(word) >= MIN_TERM or _SHORT_TERM.fullmatch(word)}
    found = set(phrases.findall(text))
    meaningful = (words - _any_stop_word()) | found
    terms = meaningful or words
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
    """A term of a query, and the phrases of the documents that find it: first the ways to
    write the word typed, then its synonyms."""
    typed: str
    phrases: tuple[str, ...]
    game: str | None = None  # the game whose players say the word: its sections rank first
    corrected: str | None = None  # the documents' word searched in place of a misspelt one
    own: int = 1  # how many of the phrases write the word itself (the rest are synonyms)

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


def stem(word: str) -> str:
    """A word without its ending, where three letters or more stay.

    >>> stem("toter"), stem("toten"), stem("tricks"), stem("set")
    ('tot', 'tot', 'trick', 'set')
    """
    for ending in _ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= MIN_TERM:
            return word[:-len(ending)]
    return word


@lru_cache(maxsize=256)
def _word_pattern(phrase: str) -> re.Pattern:
    """The phrase as whole words, each inflected or not: "trick" in "tricks", not in
    "trickle"; "toter Stapel" in "toten Stapel"."""
    return re.compile(r"(?<!\w)" + r"\s+".join(
        rf"(?:{re.escape(word)}|{re.escape(stem(word))}){_INFLECTION}" for word in phrase.split())
        + r"(?!\w)")


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
    """A term with every way the documents may say it: the word written apart ("deadpile":
    "dead pile"), its synonyms, their other German spelling. A term the documents hardly
    hold is searched as their nearest word ("pozetto": "pozzetto") — never a word the
    synonyms file knows in any language ("tris")."""
    known = synonyms()
    words = [term, *vocabulary.apart(term)]
    own = tuple(dict.fromkeys(spelling for word in words for spelling in spellings(word)))
    group_words = list(filter(None, map(known.word_of, words)))
    related = [synonym for word in group_words for synonym in known.groups[word]]
    phrases = tuple(dict.fromkeys([*own, *(spelling for word in related
                                           for spelling in spellings(word))]))
    if not group_words and vocabulary.finds_little(term, phrases):
        nearest = vocabulary.nearest(term)
        if nearest:
            return replace(expand(nearest, vocabulary), typed=term, corrected=nearest)
    game = next(filter(None, map(known.games.get, group_words)), None)
    return Term(term, phrases, game, own=len(own))


def corrected_query(query: str, corrections: dict[str, str]) -> str:
    """The query with each misspelt word replaced by the word searched in its place.

    >>> corrected_query("Moskow rules", {"moskow": "moscow"})
    'moscow rules'
    """
    return re.sub(r"\w+", lambda word: corrections.get(fold(word[0]), word[0]), query)


def fts_query(terms: list[Term]) -> str:
    """Each term's phrases as quoted FTS5 strings, any of them finding a section: user text
    never reaches MATCH as syntax. A phrase too short for the trigram index is looked for
    with a space on one side.

    >>> fts_query([Term("stapel", ("stapel",)), Term("31", ("31",))])
    '"stapel" OR " 31" OR "31 "'
    """
    def options(phrase: str) -> list[str]:
        return [phrase] if len(phrase) >= MIN_TERM else [" " + phrase, phrase + " "]

    return " OR ".join('"' + option.replace('"', '""') + '"'
                       for term in terms for phrase in term.phrases
                       for option in options(phrase))


# --- Which sections answer best ------------------------------------------------------------

# Where a phrase stands counts: where the section defines it (its title, its words in bold,
# its first sentence), as a whole word of the text, or as a part of a longer word ("Stapel"
# in "Ablagestapel"); a synonym counts a little less than the word typed.
TITLE, BOLD, FIRST_SENTENCE, WHOLE, PART = 5.0, 3.5, 2.5, 1.0, 0.5
SYNONYM = 0.8
# A variant's section answers for the main rules less well than the main rules do, and a
# summary less well than the full rule it restates.
VARIANT, SUMMARY = 0.6, 0.5


def _found(phrase: str, text: str) -> float:
    """How well the phrase stands in the text: whole word, part of one, or not at all.

    >>> _found("stapel", "toten stapel"), _found("stapel", "ablagestapel"), _found("x1", "x")
    (1.0, 0.5, 0.0)
    >>> _found("joker", "jokers 120"), _found("toter stapel", "den toten stapel")
    (1.0, 1.0)
    """
    if _whole_word_only(phrase):
        return WHOLE if phrases_pattern((phrase,)).search(text) else 0.0
    if _word_pattern(phrase).search(text):
        return WHOLE
    return PART if phrase in text else 0.0


def _defined(phrase: str, lead: str) -> float:
    """Whether the section defines the phrase: in its title, in bold, in its first sentence
    (the lines of the index's defining text)."""
    title, first, bold = (lead.split("\n") + [""] * 3)[:3]
    for weight, line in ((TITLE, title), (BOLD, bold), (FIRST_SENTENCE, first)):
        if _found(phrase, line) == WHOLE:
            return weight
    return 0.0


def term_weight(term: Term, row: Mapping) -> tuple[float, bool]:
    """How well a section holds the term, and whether it holds the word as typed."""
    best, own = 0.0, False
    for index, phrase in enumerate(term.phrases):
        found = _found(phrase, row["folded_text"]) or _found(phrase, row["folded_title"])
        if not found:
            continue
        found = max(found, _defined(phrase, row["folded_lead"]))
        mine = index < term.own
        own = own or mine
        best = max(best, found if mine else found * SYNONYM)
    return best, own


def _meant(term: Term) -> str:
    return term.corrected or term.typed


@dataclass(frozen=True)
class Ranked:
    """A section as the ranking sees it."""
    row: Mapping
    covered: int     # how many of the query's terms it holds
    own: int         # how many as the words were typed
    weight: float
    home: bool       # the overview of the game the query names, and nothing else
    their_game: bool  # a game named, or whose own word was typed


def rank(rows: Sequence[Mapping], terms: Sequence[Term]) -> list[Ranked]:
    """The sections that hold any term, best first: the most terms held, and of those the
    most as they were typed (not as a synonym), then a game's overview when its name alone
    was typed, then the game named or whose word it is, then where the terms stand (a
    definition above a mention in passing, a rare word above a common one), then the index's
    own order (bm25)."""
    homes_of = game_homes()
    named = {term: homes_of[_meant(term)] for term in terms if _meant(term) in homes_of}
    homes = set(named.values()) if len(terms) == 1 else set()
    games = {term.game for term in terms} | {home[0] for home in named.values()}
    weighed = []
    for row in rows:
        # Every section of a game's page is about the game its name names.
        weighed.append([(WHOLE, True) if term in named and named[term][0] == row["game"]
                        and len(terms) > 1 else term_weight(term, row) for term in terms])
    # A word few sections hold tells more than one most of them hold ("joker", "worth").
    holding = [sum(weights[index][0] > 0 for weights in weighed) for index in range(len(terms))]
    rarity = [math.log(1 + len(rows) / held) if held else 0.0 for held in holding]
    ranked = []
    for position, (row, weights) in enumerate(zip(rows, weighed)):
        covered = sum(weight > 0 for weight, _own in weights)
        if not covered:
            continue
        weight = sum(weight * rare for (weight, _own), rare in zip(weights, rarity))
        if row["section"] in SUMMARIES:
            weight *= SUMMARY
        elif row["section"].startswith("variant-"):
            weight *= VARIANT
        ranked.append((position, Ranked(
            row, covered, sum(own for _weight, own in weights), weight,
            (row["game"], row["section"]) in homes, row["game"] in games)))
    ranked.sort(key=lambda item: (-item[1].covered, not item[1].home,
                                  not item[1].their_game, -item[1].weight, item[0]))
    return [item for _position, item in ranked]


def language_of(query: str, vocabularies: Mapping[str, Vocabulary], asked: str) -> str:
    """The language a question is asked in: the one more of its words belong to alone (its
    documents' words and its little words: "wer fängt an" is German); ``asked`` where the
    words do not tell.

    >>> language_of("wer fangt an", {"de": Vocabulary(["fangt"]), "en": Vocabulary([])}, "en")
    'de'
    """
    counts = Counter()
    for word in re.findall(r"\w+", fold(query)):
        holders = [lang for lang, vocabulary in vocabularies.items()
                   if word in vocabulary.sections_with
                   or word in stop_words().get(lang, frozenset())]
        if len(holders) == 1:
            counts[holders[0]] += 1
    best = counts.most_common(2)
    if not best or (len(best) == 2 and best[0][1] == best[1][1]):
        return asked
    return best[0][0]


def nearest_sections(query: str, sections: Sequence[Mapping], limit: int = 3) -> list[Mapping]:
    """When nothing holds a word of the query: the sections whose defining text is most like
    it, so a question never ends on an empty page.

    >>> rows = [{"folded_lead": "the pozzetti"}, {"folded_lead": "tricks"}]
    >>> nearest_sections("pozzeti", rows, 1) == [rows[0]]
    True
    """
    leads = [section["folded_lead"] for section in sections]
    found = process.extract(fold(query), leads, scorer=fuzz.partial_ratio, limit=limit)
    return [sections[index] for _lead, _score, index in found]


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
