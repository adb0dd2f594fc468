"""The API's contract: each operation's models checked on the way in, and the OpenAPI 3.1
document at ``/api/v1/openapi.json`` generated from those models and the routes (spectree).

A body of the wrong shape is refused with a 400 that names each field by its path, in the
request's language, before the view runs; what a view receives is the model's checked value.
"""

from flask import current_app
from flask_babel import format_decimal
from flask_babel import gettext as _
from pydantic import ValidationError
from spectree import Response, SpecTree

from .api_models import Refusal

DESCRIPTION = """Keep score of Burro, Burraco, Buraco and Bura matches, and check melds,
claims and tricks by the rules. Requests and answers are JSON; every refusal is a
`Refusal` in the request's language (`Accept-Language`: English or German). A match's
`token` is its write key and its `view_token` only reads."""


def _refuse_in_reader_language(_request, response, error, _instance, _adapter) -> None:
    """Replace the library's English error list with a ``Refusal``."""
    if error is not None:
        response.set_data(current_app.json.dumps(refusal_of(error)))


# ``path`` is where the document is served (views.api): spectree leaves it out of itself.
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
    if kind.startswith(("datetime", "timezone")):
        return _("The field “%(path)s” must be a time with its time zone.", path=path)
    return _("The field “%(path)s” is of the wrong type.", path=path)


def _choices(expected: str) -> str:
    """pydantic's list of the allowed values, "'a', 'b' or 'c'", in the reader's language."""
    others, _or, last = expected.rpartition(" or ")
    return _("%(others)s or %(last)s", others=others, last=last) if others else expected
