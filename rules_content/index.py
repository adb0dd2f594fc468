"""The rules' search index: every section of every document in a SQLite file of its own, with
a full-text index of trigrams, built from the documents whenever they change.

The rules are content, not what players entered: each server builds its own index beside its
database, and nothing but a build ever writes it. A build writes a new file beside the old one
and renames it into place, so that a reader sees either index whole.
"""

import os
import sqlite3
import threading
import urllib.parse
from contextlib import closing

from . import defining_text, documents_digest, load_all, plain_text
from .search import fold

_SCHEMA = (
    "CREATE TABLE built (digest TEXT NOT NULL)",
    "CREATE TABLE rule_sections (id INTEGER PRIMARY KEY, game TEXT, lang TEXT, section TEXT, "
    "title TEXT, level INTEGER, position INTEGER, text TEXT, folded_title TEXT, "
    "folded_text TEXT, folded_lead TEXT)",
    # Trigram: any part of a word from three letters on matches ("stapel" in Ablagestapel).
    "CREATE VIRTUAL TABLE rule_sections_fts USING fts5 (folded_title, folded_text, "
    "content=rule_sections, content_rowid=id, tokenize=trigram)",
)


def _rows():
    for document in load_all():
        for position, section in enumerate(document.sections):
            text = plain_text(section.markdown)
            yield {"game": document.game, "lang": document.lang, "section": section.id,
                   "title": section.title, "level": section.level, "position": position,
                   "text": text, "folded_title": fold(section.title),
                   "folded_text": fold(text), "folded_lead": fold(defining_text(section))}


class RulesIndex:
    """The index in the file at ``path``."""

    def __init__(self, path: str):
        self.path = path

    def _open(self) -> sqlite3.Connection:
        # Immutable: a build never changes this file, it puts a new one in its place.
        db = sqlite3.connect(f"file:{urllib.parse.quote(self.path)}?immutable=1", uri=True,
                             check_same_thread=False)
        db.row_factory = sqlite3.Row
        return db

    def digest(self) -> str | None:
        """The fingerprint of the documents the index was built from; None while there is
        no index to read."""
        if not os.path.exists(self.path):
            return None
        try:
            with closing(self._open()) as db:
                return db.execute("SELECT digest FROM built").fetchone()[0]
        except sqlite3.DatabaseError:
            return None

    def build(self) -> bool:
        """Build the index unless it holds the documents as they are; True if it was built."""
        digest = documents_digest()
        if self.digest() == digest:
            return False
        draft = f"{self.path}.{os.getpid()}-{threading.get_ident()}"
        try:
            with closing(sqlite3.connect(draft)) as db, db:
                for statement in _SCHEMA:
                    db.execute(statement)
                db.executemany(
                    "INSERT INTO rule_sections (game, lang, section, title, level, position, "
                    "text, folded_title, folded_text, folded_lead) VALUES (:game, :lang, "
                    ":section, :title, :level, :position, :text, :folded_title, :folded_text, "
                    ":folded_lead)", _rows())
                db.execute("INSERT INTO rule_sections_fts (rule_sections_fts) VALUES ('rebuild')")
                db.execute("INSERT INTO built (digest) VALUES (?)", [digest])
            os.replace(draft, self.path)
        finally:
            if os.path.exists(draft):
                os.remove(draft)
        return True

    def search(self, match: str, game: str | None = None,
               lang: str | None = None) -> list[dict]:
        """Every section matching an FTS query (already quoted), in bm25's order: title words
        count five times, as the search's own ranking then weighs them."""
        where, params = _narrowed(game, lang)
        return self._select(
            "SELECT s.*, bm25(rule_sections_fts, 5.0, 1.0) AS rank "
            "FROM rule_sections_fts JOIN rule_sections s ON s.id = rule_sections_fts.rowid "
            f"WHERE {' AND '.join(['rule_sections_fts MATCH :match', *where])} "
            "ORDER BY rank", {**params, "match": match})

    def sections(self, game: str | None = None, lang: str | None = None) -> list[dict]:
        """Every indexed section, in the documents' order."""
        where, params = _narrowed(game, lang)
        return self._select("SELECT s.* FROM rule_sections s "
                            f"WHERE {' AND '.join(where) or '1'} ORDER BY s.id", params)

    def _select(self, sql: str, params: dict) -> list[dict]:
        with closing(self._open()) as db:
            return [dict(row) for row in db.execute(sql, params)]


def _narrowed(game: str | None, lang: str | None) -> tuple[list[str], dict]:
    where, params = [], {}
    for column, value in (("game", game), ("lang", lang)):
        if value:
            where.append(f"s.{column} = :{column}")
            params[column] = value
    return where, params
