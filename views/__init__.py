"""The web layer: blueprints that parse input, ask ``scoring``, use ``store`` and render.

The page blueprints sit at the top (home, matches, live, share, transfer, checkers, rules,
offline, events, event_transfer) beside the helpers they share; ``api/`` is the JSON API and ``games/`` each game's
own part of the web. This face holds what every page asks: page or fragment."""

from flask import render_template, request
from jinja2_fragments.flask import render_block


def is_fragment_request() -> bool:
    """htmx asked for part of a page. A boosted request, and a page the browser's history
    must restore, still want the whole page."""
    return (request.headers.get("HX-Request") == "true" and "HX-Boosted" not in request.headers
            and "HX-History-Restore-Request" not in request.headers)


def vary_on(response, *names: str) -> None:
    """Add to the answer's Vary the ``names`` it lacks, in one write: ``response.vary``
    reads the header into a set and writes it back for every change."""
    present = response.headers.get("Vary", "")
    known = {name.strip().lower() for name in present.split(",")}
    missing = [name for name in names if name.lower() not in known]
    if missing:
        response.headers["Vary"] = ", ".join([present, *missing] if present else missing)


def render(template: str, block: str, status: int = 200, **context):
    """One URL, page or fragment: the whole template, or only ``block`` for htmx."""
    if is_fragment_request():
        return render_block(template, block, **context), status
    return render_template(template, **context), status
