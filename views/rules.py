"""The rules reference: the four games in German and English, and search across them."""

from flask import Blueprint, abort, request

import rules_content
from rules_content import search as words

from . import render
from .i18n import locale_name
from .rule_search import other_language, search, search_filters

bp = Blueprint("rules", __name__, url_prefix="/rules")
# The search form offers the games that have a document of their own.
bp.add_app_template_global(rules_content.GAMES, "rule_documents")


@bp.get("")
def index():
    """The four games' rules, and the search field."""
    documents = [rules_content.load_document(game, locale_name())
                 for game in rules_content.GAMES]
    return render("rules/index.html", "main", documents=documents, query="", hits=[],
                  game=None, lang=None)


@bp.get("/search")
def results():
    """Search results: a page without JavaScript, the results block for htmx."""
    query, game, lang = search_filters()
    # A question in German lists the German sections; English ones when asked for, or when
    # no German one answers it.
    both = lang is None and request.args.get("lang") == "both"
    found = search(query, locale_name(), game, lang, one_language=lang is None and not both)

    grouped = {}  # games in the order of their best hit
    for hit in found.hits:
        grouped.setdefault(hit["game"], []).append(hit)
    showing_for = found.corrected and words.corrected_query(query, found.corrected)
    return render("rules/search.html", "results", query=query, hits=found.hits,
                  grouped=grouped, showing_for=showing_for, game=game,
                  lang="both" if both else lang,
                  nearest=found.nearest, searched=bool(words.search_terms(query)))


@bp.get("/<game>")
def show(game):
    """One game's rules in the reader's language (or the one asked for), with contents."""
    if game not in rules_content.GAMES:
        abort(404)
    lang = request.args.get("lang")
    if lang not in rules_content.LANGUAGES:
        lang = locale_name()
    document = rules_content.load_document(game, lang)
    other = other_language(lang)
    return render("rules/show.html", "main", document=document, other=other,
                  contents=contents(document.sections))


def contents(sections) -> list[tuple]:
    """The table of contents: each section with the sub-sections under it, so that they
    are numbered within it (13.1, 13.2) and not on with the sections."""
    parts = []
    for section in sections:
        if section.level > 2 and parts:
            parts[-1][1].append(section)
        else:
            parts.append((section, []))
    return parts
