"""The Burkosel sheet's panel: each side's card points and tricks, or who won at once."""

from scoring import burkosel


def hand_from_form(form, players: int) -> dict:
    units = len(burkosel.units_of(players))
    if form.get("instant_win", "") != "":
        return {"instant_win": form["instant_win"]}
    return {"card_points": [form.get(f"u{unit}_points", "") for unit in range(units)],
            "tricks": [form.get(f"u{unit}_tricks", "") for unit in range(units)]}


def context(match, options, standings, number, draft) -> dict:
    entered = match.hands[number - 1] if number and number <= len(match.hands) else {}
    return {"entered": entered, "all_points": burkosel.ALL_POINTS,
            "losing_total": burkosel.LOSING_TOTAL}
