"""Translated text at the cost of a dictionary lookup. Flask-Babel finds the context, the
locale and its catalogue again for every string, and a sheet shows hundreds of them: here
the request's catalogue is looked up once and kept, and the templates' ``_`` and
``ngettext`` use it directly. The output is Flask-Babel's and Jinja's, to the character."""

from flask import g
from flask_babel import get_locale, get_translations
from jinja2 import pass_eval_context
from markupsafe import Markup


def translations():
    """The request's catalogue, looked up by Flask-Babel on first use, then kept on ``g``
    (outside a request, Flask-Babel's untranslated text)."""
    try:
        kept = g._get_current_object()
    except RuntimeError:
        return get_translations()
    try:
        return kept.translations
    except AttributeError:
        kept.translations = get_translations()
        return kept.translations


def locale_name() -> str:
    """The request's language, "en" or "de", found once per request."""
    try:
        kept = g._get_current_object()
    except RuntimeError:
        return str(get_locale())
    try:
        return kept.locale_name
    except AttributeError:
        kept.locale_name = str(get_locale())
        return kept.locale_name


def gettext(string: str, **variables) -> str:
    """Flask-Babel's ``gettext``: the translation, formatted with ``variables`` if any."""
    text = translations().ugettext(string)
    return text % variables if variables else text


def ngettext(singular: str, plural: str, num: int, **variables) -> str:
    """Flask-Babel's ``ngettext``: the plural form for ``num``, which it formats as well."""
    variables.setdefault("num", num)
    return translations().ungettext(singular, plural, num) % variables


@pass_eval_context
def template_gettext(eval_ctx, string: str, **variables) -> str:
    """Jinja's new-style ``gettext``: escaped where the template escapes, always formatted
    (``%%`` is a percent sign even without variables)."""
    text = translations().ugettext(string)
    return (Markup(text) if eval_ctx.autoescape else text) % variables


@pass_eval_context
def template_ngettext(eval_ctx, singular: str, plural: str, num: int, **variables) -> str:
    """Jinja's new-style ``ngettext``."""
    variables.setdefault("num", num)
    text = translations().ungettext(singular, plural, num)
    return (Markup(text) if eval_ctx.autoescape else text) % variables


def register(app) -> None:
    """Put the cheap translations in the place of those Flask-Babel installed; ``_`` calls
    ``gettext`` itself rather than looking it up on each call."""
    app.jinja_env.globals.update(_=template_gettext, gettext=template_gettext,
                                 ngettext=template_ngettext)
