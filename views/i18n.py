"""The reader's language, as the pages and the API ask for it."""

from flask_babel import get_locale


def locale_name() -> str:
    """The request's language, "en" or "de"."""
    return str(get_locale())
