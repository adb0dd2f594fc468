"""The API's contract: each operation's models checked on the way in, and the OpenAPI 3.1
document at ``/api/v1/openapi.json`` generated from those models and the routes (spectree).

A body of the wrong shape is refused with a 400 that names each field by its path, in the
request's language, before the view runs; what a view receives is the model's checked value.
"""

from flask import Blueprint, current_app, jsonify, request
from flask_babel import format_decimal
from flask_babel import gettext as _
from pydantic import ValidationError
from spectree import Response, SpecTree

import store
from scoring.cards import Card, Rank, parse_card, parse_cards
from scoring.errors import ScoringError

from ..json_bodies import BadRequest, json_body, not_json
from ..refusals import confirmed_result, describe, match_full
from .models import BeyondQuota, Refusal

PREFIX = "/api/v1"
# Every body may be refused (400) or be beyond the app's limit (413); a match's link may
# only read (403), be unknown (404) or be of a deleted match (410).
REFUSED = (400, 413)
BY_LINK = (*REFUSED, 403, 404, 410)
# Starting and importing a match count against the client's quotas.
COUNTED = {"HTTP_429": (BeyondQuota, "Beyond the client's quota of starts or imports: "
                                     "`Retry-After` says when to send it again.")}
RETRY_AFTER = {"Retry-After": {"description": "Seconds until the quota has room again.",
                               "schema": {"type": "integer", "minimum": 1}}}

DESCRIPTION = """Keep score of Burro, Burraco, Buraco and Bura matches, and check melds,
claims and tricks by the rules. Requests and answers are JSON; every refusal is a
`Refusal` in the request's language (`Accept-Language`: English or German). A match's
`token` is its write key and its `view_token` only reads."""


def _refuse_in_reader_language(_request, response, error, _instance, _adapter) -> None:
    """Replace the library's English error list with a ``Refusal``."""
    if error is not None:
        response.set_data(current_app.json.dumps(refusal_of(error)))


# ``path`` is where the document is served (views/api/docs.py): spectree leaves it out of itself.
api = SpecTree("flask", title="Tablemate API", version="1", description=DESCRIPTION,
               path="api/v1/openapi.json", mode="strict", annotations=False, page_templates={},
               validation_error_status=400, validation_error_model=Refusal,
               before=_refuse_in_reader_language,
               # Each model under its own name: they are unique, and a client generator
               # turns them into its class names.
               naming_strategy=lambda model: model.__name__,
               nested_naming_strategy=lambda _parent, child: child)


class Answers(Response):
    """An operation's documented answers. They are checked against their models only where
    ``CHECK_API_ANSWERS`` is set (the tests): at a table, a slip in an answer's shape must
    not turn a stored hand into an error."""

    def find_model(self, code: int):
        return super().find_model(code) if current_app.config["CHECK_API_ANSWERS"] else None

    def generate_spec(self, *args, **kwargs) -> dict:
        """The answers as the library documents them, a 429's with its ``Retry-After``."""
        answers = super().generate_spec(*args, **kwargs)
        if "429" in answers:
            answers["429"]["headers"] = RETRY_AFTER
        return answers


def refused(*codes: int, **models) -> Answers:
    """The answers of an operation that may also refuse with ``codes`` (each a ``Refusal``)."""
    return Answers(**models, **{f"HTTP_{code}": Refusal for code in codes})


def refusal_of(error: ValidationError) -> dict:
    """A validation error as the API refuses: every field with its path and the reason in
    the request's language, the first of them as the ``error``."""
    fields = [{"path": _path(detail), "error": _field_message(detail)}
              for detail in error.errors()]
    return {"error": fields[0]["error"], "code": "invalid_field", "fields": fields}


def _path(detail) -> str:
    return ".".join(str(step) for step in detail["loc"])


def _field_message(detail) -> str:
    path = _path(detail) or _("the body")
    context = detail.get("ctx", {})
    kind = detail["type"]
    if kind == "missing":
        return _("The field “%(path)s” is missing.", path=path)
    if kind == "extra_forbidden":
        return _("There is no field “%(path)s” in this request.", path=path)
    if kind == "literal_error":
        return _("The field “%(path)s” must be one of %(expected)s.", path=path,
                 expected=_choices(context["expected"]))
    if kind == "greater_than_equal":
        return _("The field “%(path)s” must be at least %(limit)s.", path=path,
                 limit=format_decimal(context["ge"]))
    if kind == "less_than_equal":
        return _("The field “%(path)s” must be at most %(limit)s.", path=path,
                 limit=format_decimal(context["le"]))
    if kind == "too_long":
        return _("The field “%(path)s” holds more than %(num)s entries.", path=path,
                 num=context["max_length"])
    if kind == "string_too_long":
        return _("The field “%(path)s” is longer than %(num)s characters.", path=path,
                 num=context["max_length"])
    if kind == "moment_range":
        return _("The field “%(path)s” must be a time within the years 1 to 9999 in UTC.",
                 path=path)
    if kind.startswith(("datetime", "timezone")):
        return _("The field “%(path)s” must be a time with its time zone.", path=path)
    return _("The field “%(path)s” is of the wrong type.", path=path)


def _choices(expected: str) -> str:
    """pydantic's list of the allowed values, "'a', 'b' or 'c'", in the reader's language."""
    others, _or, last = expected.rpartition(" or ")
    return _("%(others)s or %(last)s", others=others, last=last) if others else expected


# --- A blueprint of the API: JSON in, JSON out, refusals as ``Refusal`` -----------------------

def _refuse_by_rule(error: ScoringError):
    return jsonify(error=describe(error), code=error.code), 400


def _refuse_entry_beyond_limit(_error):
    return jsonify(error=match_full(), code="match_full"), 400


def _refuse_change_of_confirmed_result(_error):
    return jsonify(error=confirmed_result(), code="result_confirmed"), 409


def _refuse_shape(error: BadRequest):
    return jsonify(error=str(error)), 400


def json_blueprint(name: str, import_name: str, files: dict | None = None,
                   file_limit: int | None = None) -> Blueprint:
    """A blueprint under ``/api/v1`` whose refusals are JSON: a body that is not a JSON object
    within the limits (``views.json_bodies``) is refused before its models see it; ``files`` maps
    an endpoint whose body is an uploaded document to the reader that says so as a file, and
    such a body may have ``file_limit`` bytes."""
    blueprint = Blueprint(name, import_name, url_prefix=PREFIX)
    blueprint.register_error_handler(ScoringError, _refuse_by_rule)
    blueprint.register_error_handler(store.MatchFull, _refuse_entry_beyond_limit)
    blueprint.register_error_handler(store.ResultConfirmed, _refuse_change_of_confirmed_result)
    blueprint.register_error_handler(BadRequest, _refuse_shape)
    readers = {f"{name}.{endpoint}": reader for endpoint, reader in (files or {}).items()}

    @blueprint.before_request
    def read_body() -> None:
        if request.method not in ("POST", "PUT"):
            return
        if not request.is_json:
            raise not_json()
        reader = readers.get(request.endpoint)
        if reader and file_limit:
            request.max_content_length = file_limit
        body = reader(request.get_data()) if reader else json_body()
        if not isinstance(body, dict):
            raise not_json()

    return blueprint


def checked():
    """The request's body as its model checked it."""
    return request.context.json


def cards(value: str | list[str]) -> list[Card]:
    """Cards as a list of codes or typed as one string (``"3♥ 4♥ 5♥"``)."""
    return parse_cards(value) if isinstance(value, str) else [parse_card(code) for code in value]


def stands_json(stands: Card | Rank | None) -> str | None:
    """What a wildcard stands for: a card in a sequence, a rank in a set."""
    return None if stands is None else stands.code if isinstance(stands, Card) else stands.value


def side_bodies(asked) -> list[dict]:
    """A counted hand's sides as sent, for the rules to check: a part left out stays out."""
    return [side.model_dump(exclude_unset=True) for side in asked.sides]
