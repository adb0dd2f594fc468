"""The phones' question every few seconds, "anything new since version N?", answered from
the match's version alone before Flask makes a request of it: at a table night nine
answers in ten are "nothing". Every other answer (news, an unknown link, a host the app
does not serve, a database that cannot be read) is Flask's, as before."""

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from werkzeug.exceptions import SecurityError
from werkzeug.http import parse_etags
from werkzeug.wsgi import get_host

import store

from .api import etag_header, etag_of


def _same_number(environ, asked: re.Match, current: int) -> bool:
    # Written as Flask writes the number: "07" is Flask's to read.
    return asked[2] == str(current)


def _same_etag(environ, asked: re.Match, current: int) -> bool:
    return parse_etags(environ.get("HTTP_IF_NONE_MATCH")).contains_weak(etag_of(current))


@dataclass(frozen=True)
class Question:
    """A poll: its address (the link in the first group), the version of the match behind
    a link as its view reads it, and whether the asker has that version."""
    path: re.Pattern
    version_of_link: Callable
    unchanged: Callable[[dict, re.Match, int], bool]


QUESTIONS = (
    # The sheet's and the read-only sheet's poll (views.matches.since, views.share.view_since).
    Question(re.compile(r"/m/([A-Za-z0-9_-]+)/since/([0-9]+)"), store.match_version,
             _same_number),
    Question(re.compile(r"/v/([A-Za-z0-9_-]+)/since/([0-9]+)"), store.match_version,
             _same_number),
    # The match API asked again with the ETag it has (views.api.show_match).
    Question(re.compile(r"/api/v1/matches/([A-Za-z0-9_-]+)"), store.shown_version, _same_etag),
)

# Flask's answer when nothing is new: the sheets' 204, the API's 304.
NOTHING_NEW = ("204 ", "304 ")


class UnchangedPolls:
    """WSGI middleware in front of the Flask app ``app``, whose WSGI callable is
    ``wsgi_app``. An early answer is Flask's last "nothing new" to the same question, its
    status and very headers (the security headers, no-store), the API's with the ETag of
    the version as it stands. Until Flask has given one, and for a question whose answer
    set a cookie, every poll goes to Flask."""

    def __init__(self, app, wsgi_app):
        self.app, self.wsgi_app = app, wsgi_app
        self.answers: dict[Question, tuple[str, list[tuple[str, str]]]] = {}

    def __call__(self, environ, start_response):
        question, asked = self._question(environ)
        if question is None:
            return self.wsgi_app(environ, start_response)
        answer = self.answers.get(question)
        current = answer and self._version(environ, question, asked[1])
        if current is not None and question.unchanged(environ, asked, current):
            status, headers = answer
            start_response(status, [(name, etag_header(current) if name == "ETag" else value)
                                    for name, value in headers])
            return []
        return self.wsgi_app(environ, self._learning(question, start_response))

    @staticmethod
    def _question(environ) -> tuple[Question | None, re.Match | None]:
        if environ.get("REQUEST_METHOD") == "GET":
            for question in QUESTIONS:
                asked = question.path.fullmatch(environ.get("PATH_INFO", ""))
                if asked is not None:
                    return question, asked
        return None, None

    def _version(self, environ, question: Question, link: str) -> int | None:
        """The version of the match behind ``link``, asked for a host the app serves; None
        when there is none or Flask is to say why."""
        trusted = self.app.config["TRUSTED_HOSTS"]
        try:
            if trusted:
                get_host(environ, trusted)
            return question.version_of_link(
                store.thread_connection(self.app.config["DATABASE"]), link)
        except (SecurityError, store.Unavailable, sqlite3.Error):
            return None

    def _learning(self, question: Question, start_response):
        def learn(status: str, headers, *args):
            if status.startswith(NOTHING_NEW):
                if any(name.lower() == "set-cookie" for name, _value in headers):
                    self.answers.pop(question, None)
                else:
                    self.answers[question] = status, list(headers)
            return start_response(status, headers, *args)
        return learn
