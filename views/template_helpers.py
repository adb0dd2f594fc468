"""Filters and globals the templates share: cards in the reader's language, languages."""

import hashlib
import os
from functools import lru_cache
from urllib.parse import urlsplit

from flask import current_app, request
from babel.numbers import format_decimal
from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from scoring.cards import Card, Rank

from . import i18n
from .i18n import locale_name
from .chart import chart_of
from .kept import Kept
from .kept_pages import entry_key
from .presets import preset_of, presets_of
from .rule_search import why_url

# German tables call jack and queen Bube and Dame (seed 000: "K D B 7 6 5 4 3 2 A").
_GERMAN_RANKS = {Rank.JACK: "B", Rank.QUEEN: "D"}


def rank_label(rank: Rank) -> str:
    """``B`` for a German reader, ``J`` for an English one."""
    if locale_name() == "de":
        return _GERMAN_RANKS.get(rank, rank.value)
    return rank.value


def card_label(card: Card) -> str:
    """``B♥`` for a German reader, ``J♥`` for an English one."""
    if card.is_joker:
        return "Joker"
    return rank_label(card.rank) + card.suit.symbol


def card_or_rank(value) -> Markup:
    """What a wildcard stands for: a card in a sequence (red suits red), a rank in a set."""
    return card_html(value) if isinstance(value, Card) else Markup.escape(rank_label(value))


def card_html(card: Card) -> Markup:
    """A card as a span, red suits red."""
    colour = "red" if card.suit and card.suit.is_red else "black"
    return Markup('<span class="card {}">{}</span>').format(colour, card_label(card))


TAP_LABELS = {"joker": "Joker", "two": "2", "ace": "A", "high": "K–8", "low": "7–3",
              # Buraco's classes, by the cards they hold (seed 004 and the Brazilian values).
              "ace_two": "A 2", "king_ten": "K–10", "nine_four": "9–4", "black_three": "3♠♣",
              "king_eight": "K–8", "seven_three": "7–3"}


def tap_label(name: str) -> str:
    """The tap counter's button for a value class."""
    return TAP_LABELS[name]


COMBINATION_NAMES = {
    "bura": _l("Bura (three trumps)"), "three_aces": _l("Three aces"),
    "little_moscow": _l("Little Moscow"), "molodka": _l("Molodka (three of one non-trump suit)"),
    "none": _l("No special hand"),
}


OUTCOME_NAMES = {
    "right_claim": _l("Right claim"), "wrong_claim": _l("Wrong claim"),
    "bura": _l("Bura shown"), "moscow": _l("Moscow shown"),
    "three_aces": _l("Three aces shown"), "no_claim": _l("Nobody claimed"), "claim": _l("Claim"),
}
VARIANT_NAMES = {
    "three_aces_win": _l("Three aces win"), "moscow": _l("Moscow"),
    "little_moscow": _l("Little Moscow"), "claim_on_turn": _l("Claim only on your turn"),
    "redeal": _l("Redeal after a special hand"),
}


# "Other readings" name the kind the way the verdict does: clean, not "pulito".
BURRACO_KINDS = {
    "pulito": _l("clean"), "semipulito": _l("semi-clean"), "sporco": _l("dirty"),
    "nobile": _l("nobile"), "reale": _l("reale"),
}


def burraco_kind(name: str) -> str:
    """A burraco's kind in the reader's words: "clean", in German "rein"."""
    return str(BURRACO_KINDS[name])


def outcome_name(name: str) -> str:
    return str(OUTCOME_NAMES[name])


def variant_name(name: str) -> str:
    return str(VARIANT_NAMES[name])


def combination_name(name: str) -> str:
    return str(COMBINATION_NAMES[name])


MINUS = "\u2212"  # the typographic minus: "−35" reads better than "-35"


def points(value) -> str:
    """A total as the reader writes numbers: 77.5 in English, 77,5 in German, −35."""
    return _formatted(value, "0.#", locale_name())


def number(value: int) -> str:
    """A whole number in a sentence, grouped as the reader writes it: 10.000 in German,
    10,000 in English."""
    return _formatted(value, None, locale_name())


# A sheet writes the same few totals and gains again and again, in one of two languages.
@lru_cache(maxsize=4096, typed=True)
def _formatted(value, pattern: str | None, locale: str) -> str:
    return format_decimal(value, format=pattern, locale=locale).replace("-", MINUS)


def signed(value) -> str:
    """A change with its sign: +410, −35, ±0 shown as +0."""
    return ("+" if value >= 0 else "") + points(value)


def unit_labels(units, players) -> list[str]:
    """Each unit named by its players: "Anna", or partners "Anna & Carla"."""
    return [" & ".join(players[seat] for seat in seats) for seats in units]


def contains(collection, item) -> bool:
    return item in collection


def seat_names(seats, players) -> str:
    """Players named by their seats: ``(0, 2)`` → ``Anna, Carla``."""
    return ", ".join(players[seat] for seat in seats)


# The phones at a table each ask for the sheet after every change: what they all see alike
# (the history of one version of a match, in one language) is rendered once. At a table
# night a hundred matches change within one 3 s poll: each version's parts (history, chart,
# panel sides) must still be there when the last of its four phones asks.
_kept_html = Kept(1024)


def kept_html(key: tuple | None, caller) -> Markup:
    """What a ``{% call kept_html(key) %}`` block renders, kept by ``key``, the reader's
    language and the address the app is served under; with no key, rendered afresh."""
    if key is None:
        return caller()
    return _kept_block(_full_key(key), caller)


def _full_key(key: tuple) -> tuple:
    return *key, locale_name(), request.script_root


def _kept_block(full_key: tuple, caller) -> Markup:
    return _kept_html.get(full_key, lambda: Markup(caller()))


# What a page is rendered from, under the app's folder: code, templates, translations, the
# rules texts and the static files whose names pages link to.
RENDERED_FROM = ("app.py", "store.py", "scoring", "views", "templates", "translations",
                 "rules_content", "static")


@lru_cache(maxsize=4)
def release_fingerprint(root: str) -> str:
    """A digest of every file a page is rendered from under ``root``: the same in every
    process of one release, another after any change to them. Taken once per process."""
    digest = hashlib.sha256()
    for top in RENDERED_FROM:
        start = os.path.join(root, top)
        walked = os.walk(start) if os.path.isdir(start) else [(root, [], [top])]
        for folder, folders, files in walked:
            folders[:] = sorted(name for name in folders if name != "__pycache__")
            for name in sorted(files):
                path = os.path.join(folder, name)
                if os.path.isfile(path):
                    digest.update(os.path.relpath(path, root).encode() + b"\0")
                    with open(path, "rb") as file:
                        digest.update(hashlib.sha256(file.read()).digest())
    return digest.hexdigest()


def _sides_digest(full_key: tuple) -> str:
    """The name of the sides a key renders: a key renders the same sides for the life of a
    release (``_kept_html`` relies on it too), so every process of it knows the name
    without rendering them, the other server process and one restarted alike."""
    named = f"{release_fingerprint(current_app.root_path)}{full_key!r}"
    return hashlib.sha256(named.encode()).hexdigest()[:16]


def kept_sides(key: tuple | None, held: str | None, caller) -> Markup:
    """A panel's sides as ``kept_html`` renders them, in a wrapper naming their digest. A
    phone asking for news says which sides it holds (``held``, views.matches.since): when
    they are these, the wrapper comes empty and the phone keeps its own (panel.js), so
    the sides are neither rendered nor sent again. Without a key, only the sides."""
    if key is None:
        return caller()
    full_key = _full_key(key)
    digest = _sides_digest(full_key)
    if held == digest:
        return Markup('<div class="sides" data-sides-held="%s"></div>') % held
    sides = _kept_block(full_key, caller)
    return Markup('<div class="sides" data-sides="%s">%s</div>') % (digest, sides)


def register(app) -> None:
    i18n.register(app)
    # Taken while starting (some 20 ms), not on a phone's first sheet.
    release_fingerprint(app.root_path)
    app.add_template_global(entry_key)
    app.add_template_global(kept_html)
    app.add_template_global(kept_sides)
    app.add_template_global(why_url)
    app.add_template_global(chart_of)
    app.add_template_global(tap_label)
    app.add_template_global(combination_name)
    app.add_template_global(outcome_name)
    app.add_template_global(variant_name)
    app.add_template_global(burraco_kind)
    app.add_template_global(presets_of)
    app.add_template_global(preset_of)
    app.add_template_filter(points, "points")
    app.add_template_filter(signed, "signed")
    app.add_template_filter(seat_names, "names")
    app.add_template_filter(unit_labels, "unit_labels")
    app.add_template_filter(contains, "contains")
    app.add_template_filter(rank_label, "rank_label")
    app.add_template_filter(card_label, "card_label")
    app.add_template_filter(card_or_rank, "card_or_rank")
    app.add_template_filter(card_html, "card")

    @app.context_processor
    def languages():
        return {"languages": current_app.config["LANGUAGES"], "locale": locale_name(),
                "here": _page_address()}


def _page_address() -> str:
    """Where the language switch returns to: this page, or for a refused form the page
    the form was on (the form's own address only takes POST)."""
    if request.method == "GET":
        return request.full_path.rstrip("?")
    return urlsplit(request.referrer or "/").path or "/"
