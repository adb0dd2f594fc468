"""Filters and globals the templates share: cards in the reader's language, languages."""

from urllib.parse import urlsplit

from babel.numbers import format_decimal
from flask import current_app, request
from markupsafe import Markup

from scoring.cards import Card, Rank
from store.news import news_id

from . import forms
from .chart import chart_of
from .i18n import locale_name
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


MINUS = "\u2212"  # the typographic minus: "−35" reads better than "-35"


def points(value) -> str:
    """A total as the reader writes numbers: 77.5 in English, 77,5 in German, −35."""
    return _formatted(value, "0.#", locale_name())


def number(value: int) -> str:
    """A whole number in a sentence, grouped as the reader writes it: 10.000 in German,
    10,000 in English."""
    return _formatted(value, None, locale_name())


def _formatted(value, pattern: str | None, locale: str) -> str:
    return format_decimal(value, format=pattern, locale=locale).replace("-", MINUS)


def signed(value) -> str:
    """A change with its sign: +410, −35, ±0 shown as +0."""
    return ("+" if value >= 0 else "") + points(value)


def unit_labels(units, players) -> list[str]:
    """Each unit named by its players: "Anna", or partners "Anna & Carla"."""
    return [" & ".join(players[seat] for seat in seats) for seats in units]


# How many characters a side's name keeps on the scoreboard of a 360 px phone, by how many
# cards share its row (more than four sides go on two rows, a short name beside each total).
BOARD_NAME_CHARS = {1: 30, 2: 16, 3: 10, 4: 6, 5: 6, 6: 6}
SHORT_NAME_CHARS = 4


def board_labels(units, players) -> list[tuple[str, str]]:
    """Each unit's name on the scoreboard, as (shown, full): whole where it fits, else cut
    with a dot, partners as "Alexandra & C.".

    >>> board_labels([(0, 2), (1, 3)], ["Alexandra", "Ben", "Christoph", "Dan"])
    [('Alexandra & C.', 'Alexandra & Christoph'), ('Ben & Dan', 'Ben & Dan')]
    >>> [shown for shown, _ in board_labels([(0,), (1,), (2,), (3,), (4,)],
    ...                                    ["Anna", "Alexandra", "Alexander", "Ben", "Bo"])]
    ['Anna', 'Alexa.', 'Alexa.', 'Ben', 'Bo']
    """
    full = unit_labels(units, players)
    chars = BOARD_NAME_CHARS.get(len(units), SHORT_NAME_CHARS)
    labels = []
    for seats, label in zip(units, full, strict=True):
        initials = [_initial(players[seat]) for seat in seats[1:]]
        room = chars - sum(len(" & ") + len(initial) for initial in initials)
        shown = label if len(label) <= chars else " & ".join(
            [_cut(players[seats[0]], max(room, 3))] + initials)
        labels.append((shown, label))
    return labels


def _initial(name: str) -> str:
    return name.strip()[:1] + "."


def _cut(name: str, chars: int) -> str:
    """A name in at most ``chars`` characters, cut with a dot."""
    name = name.strip()
    return name if len(name) <= chars else name[:chars - 1] + "."


def contains(collection, item) -> bool:
    return item in collection


def seat_names(seats, players) -> str:
    """Players named by their seats: ``(0, 2)`` → ``Anna, Carla``."""
    return ", ".join(players[seat] for seat in seats)


def register(app) -> None:
    forms.register(app)
    app.add_template_global(news_id)
    app.add_template_global(why_url)
    app.add_template_global(chart_of)
    app.add_template_global(tap_label)
    app.add_template_global(presets_of)
    app.add_template_global(preset_of)
    app.add_template_filter(points, "points")
    app.add_template_filter(signed, "signed")
    app.add_template_filter(seat_names, "names")
    app.add_template_filter(unit_labels, "unit_labels")
    app.add_template_filter(board_labels, "board_labels")
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
