"""Reading a request's JSON: once per request, within limits no honest client comes near.

Flask's own parser recurses into nested arrays until Python's stack runs out, and hands on
text that UTF-8 cannot store (a lone surrogate, ``"\\ud800"``); both would reach the rules
and the database. Here a body is refused before either: deeper than ``MAX_DEPTH``, not
JSON, or holding such text. The body's size is the app's ``MAX_CONTENT_LENGTH``.
"""

import json
import re
from itertools import accumulate

from flask import g, request
from flask_babel import gettext as _

# A match document, the deepest JSON the app takes, is five levels deep.
MAX_DEPTH = 32
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}


class BadRequest(Exception):
    """The request's JSON is not what the endpoint takes; the message says why."""


def depth(text: str) -> int:
    """How deeply a JSON text nests its arrays and objects, counted without parsing it.

    >>> depth('{"a": [1, "]]"]}'), depth("[[[]]]"), depth("7")
    (2, 3, 0)
    """
    brackets = (_NESTING.get(char, 0) for char in _STRINGS.sub("", text))
    return max(accumulate(brackets, initial=0))


def _verify_text(value) -> None:
    """Every string (and key) is text UTF-8 can store: no lone surrogate."""
    if isinstance(value, dict):
        for key, item in value.items():
            _verify_text(key)
            _verify_text(item)
    elif isinstance(value, list):
        for item in value:
            _verify_text(item)
    elif isinstance(value, str):
        try:
            value.encode()
        except UnicodeEncodeError:
            raise BadRequest(_("The request holds text that is not valid Unicode (such as "
                               "a lone \\ud800); nothing was saved.")) from None


def not_json() -> BadRequest:
    """The refusal of a body that is not the JSON an endpoint takes."""
    return BadRequest(_("Send a JSON object with the header Content-Type: application/json."))


def parse_json(raw: bytes):
    """The JSON document in ``raw``; ``BadRequest`` if it is not JSON, nests deeper than
    ``MAX_DEPTH`` or holds text that is not valid Unicode."""
    try:
        text = raw.decode()
    except UnicodeDecodeError:
        raise not_json() from None
    if depth(text) > MAX_DEPTH:
        raise BadRequest(_("The JSON is nested more than %(num)s levels deep.", num=MAX_DEPTH))
    try:
        document = json.loads(text)
    except ValueError:
        # Also a number of more digits than Python turns into an int.
        raise not_json() from None
    _verify_text(document)
    return document


def json_body():
    """The request's JSON, parsed once per request; None when it sent none."""
    if "json_body" not in g:
        g.json_body = parse_json(request.get_data()) if request.get_data() else None
    return g.json_body
