"""The rules' search for other clients: the sections that answer a question, best first."""

from flask import jsonify, request

from .. import rule_search
from ..games import all_games
from ..i18n import locale_name
from . import models
from .contract import REFUSED, api, json_blueprint, refused

bp = json_blueprint("api_rules", __name__)
HITS = models.with_examples(models.SearchHits, all_games().values())


@bp.get("/rules/search")
@api.validate(query=models.SearchQuery, resp=refused(*REFUSED, HTTP_200=HITS),
              tags=["rules"])
def search_rules():
    """Search the rules

    Rules sections for ``q``, best first, the sections in ``lang`` (or the reader's
    language) ahead; ``game`` narrows to one game. ``corrected`` maps each misspelt word to
    the word searched in its place."""
    asked = request.context.query
    found = rule_search.search(asked.q[:rule_search.MAX_QUERY], asked.lang or locale_name(),
                               asked.game, detect_language=asked.lang is None)
    return jsonify(hits=[
        {**hit, "snippet": "".join(piece for piece, _marked in hit["snippet"]),
         "marks": _mark_offsets(hit["snippet"])} for hit in found.hits],
        corrected=found.corrected, nearest=found.nearest)


def _mark_offsets(pieces) -> list[list[int]]:
    """Where the snippet's matches are, as [start, end] character offsets."""
    offsets, position = [], 0
    for piece, marked in pieces:
        if marked:
            offsets.append([position, position + len(piece)])
        position += len(piece)
    return offsets
