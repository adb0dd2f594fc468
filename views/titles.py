"""A match's title: checked as a player typed it, and shown on every phone."""

import unicodedata
from datetime import datetime

from flask_babel import format_date
from flask_babel import gettext as _

import store
from scoring.players import hides_characters

TITLE_LIMIT = 60


class TitleRefused(ValueError):
    """A title that cannot be shown as typed; the message says why."""


def verify_title(text) -> str:
    """The title as every phone will show it (NFKC, spaces collapsed), or ``TitleRefused``."""
    if not isinstance(text, str):
        raise TitleRefused(_("A title is text."))
    text = unicodedata.normalize("NFKC", text)
    # Control, invisible and direction-changing characters make titles that look alike.
    if hides_characters(text):
        raise TitleRefused(_("A title cannot hold control or invisible characters."))
    title = " ".join(text.split())
    if not title:
        raise TitleRefused(_("Give the match a title."))
    if len(title) > TITLE_LIMIT:
        raise TitleRefused(_("A title has at most %(num)s characters.", num=TITLE_LIMIT))
    return title


def day_of(moment: str) -> str:
    """The day of a stored time, in the reader's language ("May 3, 2025", "03.05.2025")."""
    return format_date(datetime.fromisoformat(moment), "medium")


def match_title(match: store.Match) -> str:
    """The match's title; without one, its game and the day it began ("Burro · May 3,
    2025")."""
    return match.title or f"{match.game.capitalize()} · {day_of(match.created_at)}"
