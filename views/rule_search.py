"""The rules' search index and the addresses of their sections, for the pages and the API
alike (no view of its own)."""

import sqlite3
from functools import lru_cache
from typing import NamedTuple

from flask import abort, current_app, request, url_for

import rules_content
from rules_content import search as words
from rules_content.index import RulesIndex

from .games import all_games

# Far more than anyone types; what is longer is cut, never refused.
MAX_QUERY = 2000


def rules_index() -> RulesIndex:
    """This server's index of the rules (``RULES_INDEX``)."""
    return RulesIndex(current_app.config["RULES_INDEX"])


def other_language(lang: str) -> str:
    return next(other for other in rules_content.LANGUAGES if other != lang)


def section_url(game: str, section: str, lang: str | None = None) -> str:
    """The address of a section: its game's page, in a language, at the section."""
    return url_for("rules.show", game=game, lang=lang, _anchor=section)


def why(game: str, code: str) -> tuple[str, str] | None:
    """The document and section that explain ``code`` in ``game``, if a rule stands
    behind it."""
    known = all_games()[game]
    section = known.why.get(code)
    return section and (known.document, section)


def why_url(game: str, code: str) -> str | None:
    """The "why?" link for a verdict or refusal, in the reader's language."""
    target = why(game, code)
    return target and section_url(*target)


class Found(NamedTuple):
    """What a search found: the hits, and each misspelt word with the word searched instead;
    the digest of the index searched (None: there was nothing to search for); ``nearest``
    when no section held a word of the query and these are the ones most like it. Found
    ones are kept and handed to every reader asking the same: never change them."""
    hits: tuple[dict, ...]
    corrected: dict[str, str]
    digest: str | None = None
    nearest: bool = False


# The words of the indexed sections, all and by language, for each version of the index this
# process has seen.
_vocabularies: dict[tuple[str, str | None], words.Vocabulary] = {}


def vocabulary(index: RulesIndex, digest: str, lang: str | None = None) -> words.Vocabulary:
    """The words of the search index (of one language's sections), read once for each
    version of it, not per search."""
    key = (digest, lang)
    if key not in _vocabularies:
        _vocabularies[key] = words.Vocabulary(
            f"{section['folded_title']}\n{section['folded_text']}"
            for section in index.sections(lang=lang))
    return _vocabularies[key]


# Searches remembered: a few hundred words cover what the tables look up.
REMEMBERED_SEARCHES = 256
# A page of hits: more than anyone reads, fewer than every section.
MAX_HITS = 40


def search(query: str, lang_first: str, game: str | None = None,
           lang: str | None = None, detect_language: bool = True,
           one_language: bool = False) -> Found:
    """Hits for a query, best first: the sections holding the most of its meaningful words,
    a definition above a mention. The language the question is asked in comes first
    (``lang_first`` where its words do not tell, or always when not ``detect_language``);
    ``one_language``: only that language's sections, unless it has none. The same terms
    asked again of the same index are answered from memory."""
    typed = words.search_terms(query[:MAX_QUERY])
    if not typed:
        return Found((), {})
    index = rules_index()
    try:
        digest = index.digest()
        if digest is None:
            # An index file deleted while the app runs is built again.
            index.build()
            digest = index.digest()
        if detect_language:
            lang_first = words.language_of(query[:MAX_QUERY], {
                other: vocabulary(index, digest, other) for other in rules_content.LANGUAGES},
                lang_first)
        found = _search(index.path, digest, tuple(typed), lang_first, game, lang,
                        request.script_root)
    except (OSError, sqlite3.Error):
        current_app.logger.exception("The rules index cannot be read")
        abort(503)
    own = tuple(hit for hit in found.hits if hit["lang"] == lang_first)
    return found._replace(hits=own) if one_language and own else found


@lru_cache(maxsize=REMEMBERED_SEARCHES)
def _search(path: str, digest: str, typed: tuple[str, ...], first: str, game: str | None,
            lang: str | None, script_root: str) -> Found:
    """``search`` itself; the index's ``digest`` and the ``script_root`` the links are built
    on are part of what is remembered, so a rebuilt index or another prefix searches anew."""
    index = RulesIndex(path)
    terms = [words.expand(term, vocabulary(index, digest)) for term in typed]
    ranked = words.rank(index.search(words.fts_query(terms), game=game, lang=lang), terms)
    rows = [item.row for item in sorted(ranked, key=lambda item: item.row["lang"] != first)]
    nearest = not rows
    if nearest:
        rows = words.nearest_sections(" ".join(typed), index.sections(game, lang or first))
    phrases = [phrase for term in terms for phrase in term.phrases]
    return Found(
        tuple({"game": row["game"], "lang": row["lang"], "section": row["section"],
               "title": row["title"],
               "snippet": words.snippet(row["text"], phrases, folded=row["folded_text"]),
               "url": section_url(row["game"], row["section"], row["lang"])}
              for row in rows[:MAX_HITS]),
        {term.typed: term.corrected for term in terms if term.corrected}, digest, nearest)


def search_filters() -> tuple[str, str | None, str | None]:
    """The query, and the game and language asked for (None for any, or one we lack)."""
    query = request.args.get("q", "")[:MAX_QUERY]
    game = request.args.get("game") if request.args.get("game") in rules_content.GAMES else None
    lang = request.args.get("lang") if request.args.get("lang") in rules_content.LANGUAGES \
        else None
    return query, game, lang
