"""The rules' search index and the addresses of their sections, for the pages and the API
alike (no view of its own)."""

from functools import lru_cache
from typing import NamedTuple

from flask import request, url_for

import rules_content
import store
from rules_content.why import why

# Far more than anyone types; what is longer is cut, never refused.
MAX_QUERY = 2000


def index_rules(db) -> bool:
    """Load the documents into the search index when they changed; True if it was rebuilt."""
    digest = rules_content.documents_digest()
    if store.rules_index_digest(db) == digest:
        return False
    rows = []
    for document in rules_content.load_all():
        for position, section in enumerate(document.sections):
            text = rules_content.plain_text(section.markdown)
            rows.append({
                "game": document.game, "lang": document.lang, "section": section.id,
                "title": section.title, "level": section.level, "position": position,
                "text": text, "folded_title": rules_content.fold(section.title),
                "folded_text": rules_content.fold(text),
            })
    store.replace_rules_index(db, digest, rows)
    return True


def other_language(lang: str) -> str:
    return next(other for other in rules_content.LANGUAGES if other != lang)


def section_url(game: str, section: str, lang: str | None = None) -> str:
    """The address of a section: its game's page, in a language, at the section."""
    return url_for("rules.show", game=game, lang=lang, _anchor=section)


def why_url(game: str, code: str) -> str | None:
    """The "why?" link for a verdict or refusal, in the reader's language."""
    target = why(game, code)
    return target and section_url(*target)


class Found(NamedTuple):
    """What a search found: the hits, and each misspelt word with the word searched instead;
    the digest of the index searched (None: there was nothing to search for). Found ones are
    kept and handed to every reader asking the same: never change them."""
    hits: tuple[dict, ...]
    corrected: dict[str, str]
    digest: str | None = None


# The words of the indexed sections, for each version of the index this process has seen.
_vocabularies: dict[str, rules_content.Vocabulary] = {}


def vocabulary(db) -> rules_content.Vocabulary:
    """The words of the search index, read once for each version of it, not per search."""
    digest = store.rules_index_digest(db)
    if digest not in _vocabularies:
        sections = db["rule_sections"].rows_where(select="folded_title, folded_text")
        _vocabularies[digest] = rules_content.Vocabulary(
            f"{section['folded_title']}\n{section['folded_text']}" for section in sections)
    return _vocabularies[digest]


# Searches remembered: a few hundred words cover what the tables look up.
REMEMBERED_SEARCHES = 256


def search(query: str, lang_first: str, game: str | None = None,
           lang: str | None = None) -> Found:
    """Hits for a query, best first, ``lang_first`` ahead, each with its snippet. Within a
    language, the game whose own word was typed comes first ("morto": Buraco). The same
    terms asked again of the same index are answered from memory."""
    typed = rules_content.search_terms(query[:MAX_QUERY])
    if not typed:
        return Found((), {})
    db = store.get_db()
    digest = store.rules_index_digest(db)
    if digest is None:
        # A database the app created anew while it ran (its file deleted) has no index yet.
        index_rules(db)
        digest = store.rules_index_digest(db)
    return _search(digest, tuple(typed), lang_first, game, lang, request.script_root)


@lru_cache(maxsize=REMEMBERED_SEARCHES)
def _search(digest: str, typed: tuple[str, ...], lang_first: str, game: str | None,
            lang: str | None, script_root: str) -> Found:
    """``search`` itself; the index's ``digest`` and the ``script_root`` the links are built
    on are part of what is remembered, so a rebuilt index or another prefix searches anew."""
    db = store.get_db()
    terms = [rules_content.expand(term, vocabulary(db)) for term in typed]
    rows = store.search_rules(db, rules_content.fts_query(terms),
                              lang_first=lang_first, game=game, lang=lang)
    # The trigram index finds "31" only beside a space, so also in "310": keep whole ones.
    whole = [term for term in terms if term.whole_words_only]
    rows = [row for row in rows if all(term.pattern.search(row["folded_title"])
                                       or term.pattern.search(row["folded_text"])
                                       for term in whole)]
    games = {term.game for term in terms}
    rows.sort(key=lambda row: (row["lang"] != lang_first, row["game"] not in games))
    phrases = [phrase for term in terms for phrase in term.phrases]
    return Found(
        tuple({"game": row["game"], "lang": row["lang"], "section": row["section"],
               "title": row["title"],
               "snippet": rules_content.snippet(row["text"], phrases,
                                                folded=row["folded_text"]),
               "url": section_url(row["game"], row["section"], row["lang"])} for row in rows),
        {term.typed: term.corrected for term in terms if term.corrected}, digest)


def search_filters() -> tuple[str, str | None, str | None]:
    """The query, and the game and language asked for (None for any, or one we lack)."""
    query = request.args.get("q", "")[:MAX_QUERY]
    game = request.args.get("game") if request.args.get("game") in rules_content.GAMES else None
    lang = request.args.get("lang") if request.args.get("lang") in rules_content.LANGUAGES \
        else None
    return query, game, lang
