"""What differs between the games' score sheets, in one place: how a posted form becomes
a hand, the panel's half-entered state between taps (a draft), and the extra values each
sheet's template needs."""

from collections.abc import Callable
from dataclasses import dataclass

from . import bura_sheet, burkosel_sheet, burraco_panel, burraco_sheet


def _no_context(match, options, standings, number, draft) -> dict:
    return {}


def _burraco_draft(form):
    draft = burraco_panel.draft_from_form(form)
    burraco_panel.press(draft, form.get("press", ""))
    return draft


@dataclass(frozen=True)
class Sheet:
    hand_from_form: Callable
    context: Callable = _no_context
    draft_from_form: Callable | None = None
    # The sides a refusal names ("Anna & Carla: …"), where a game has sides.
    side_names: Callable = lambda match, form: None
    # Whether the sheet counts games (Burraco's and Bura's rules say "Spiel"), not hands.
    says_game: bool = True


SHEETS = {
    "burro": Sheet(hand_from_form=lambda form, players: form, says_game=False),
    "burraco": Sheet(
        hand_from_form=lambda form, players: burraco_panel.hand_from_draft(
            burraco_panel.draft_from_form(form), players),
        context=burraco_sheet.context, draft_from_form=_burraco_draft,
        side_names=lambda match, form: burraco_sheet.side_names(
            match, burraco_panel.draft_from_form(form))),
    "bura": Sheet(bura_sheet.hand_from_form, bura_sheet.context, bura_sheet.draft_from_form),
    "burkosel": Sheet(burkosel_sheet.hand_from_form, burkosel_sheet.context,
                      burkosel_sheet.draft_from_form, side_names=burkosel_sheet.side_names),
}
