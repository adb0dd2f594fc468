"""A club night through its pages (RULES-NOTES B8): the organiser starts it in a form, every
table's sheet is an ordinary tournament match, each pair confirms its table's result with its
code, the organiser confirms for a table or reopens it, and the standings and the next turn
follow from the confirmed results."""

import threading

import pytest
from helpers import GERMAN, HTMX, MATCHES, parsed, shown

import store

PAIRS = ["Anna & Carla", "Bruno & Dario", "Elena & Fabio", "Gina & Hugo"]
# B8, 3 hands: each game 410 to 155 is 765 match points apart over three, the band 655–800.
WON = {"sides": [{"total": 410}, {"total": 155}]}


def start_night(post, pairs=PAIRS, movement="mitchell", turns=2, hands=3, **more):
    answer = post("/events/new", {"title": "Friday", "pairs": "\n".join(pairs),
                                  "movement": movement, "turns": str(turns),
                                  "hands": str(hands), "table": "fibur", "step": "1", **more})
    return answer


def organiser_of(post, **setup) -> str:
    answer = start_night(post, **setup)
    assert answer.status_code == 303, answer.get_data(as_text=True)
    return answer.headers["Location"]


def tables(client, organiser: str) -> list[dict]:
    """The organiser's page as read: each table of the newest turn first, its pairs, state
    and sheet link."""
    page = parsed(client.get(organiser))
    return [{"pairs": [shown(pair) for pair in table.select(".pairs .pair")],
             "state": shown(table.select_one(".state")),
             "sheet": table.select_one(".table-actions a[href^='/m/']")["href"],
             "turn": int(table.find_parent("section")["aria-labelledby"].split("-")[1])}
            for table in page.select(".event-table")]


def codes(client, organiser: str) -> dict[str, str]:
    page = parsed(client.get(organiser))
    return {shown(row.th): shown(row.select_one(".code"))
            for row in page.select(".pair-codes tbody tr")}


def play(client, sheet: str, hand=WON, games: int = 3) -> str:
    token = sheet.rsplit("/", 1)[1]
    for _ in range(games):
        assert client.post(f"{MATCHES}/{token}/hands", json=hand).status_code == 201
    return token


def version(client, sheet: str) -> str:
    return parsed(client.get(sheet)).select_one(".confirm-pair input[name=version]")["value"]


def confirm(post, client, sheet: str, side: int, code: str, **headers):
    return post(f"{sheet}/confirm", {"side": str(side), "code": code,
                                     "version": version(client, sheet)}, headers=headers)


def confirm_table(post, client, organiser: str, table: dict) -> None:
    known = codes(client, organiser)
    for side, pair in enumerate(table["pairs"]):
        assert confirm(post, client, table["sheet"], side, known[pair]).status_code == 303


def standings(client, organiser: str) -> list[tuple[str, str]]:
    page = parsed(client.get(organiser))
    first = page.select_one(".event-standings")
    return [(shown(row.th), shown(row.select_one(".vp"))) for row in first.select("tbody tr")]


def test_the_form_starts_a_night_with_its_first_turn_seated(client, post):
    """B8, Mitchell: "North–South pairs stay, East–West pairs move up one table each turn"."""
    assert client.get("/events/new").status_code == 200
    organiser = organiser_of(post)
    first = tables(client, organiser)
    assert [table["pairs"] for table in first] == [[PAIRS[0], PAIRS[2]], [PAIRS[1], PAIRS[3]]]
    assert {table["state"] for table in first} == {"Not started"}
    # Each table is a tournament match of its four players, partners opposite.
    sheet = client.get(f"{MATCHES}/{first[0]['sheet'].rsplit('/', 1)[1]}").json
    assert sheet["players"] == ["Anna", "Elena", "Carla", "Fabio"]
    assert sheet["options"]["hands"] == 3 and sheet["victory_points_table"] == "FIBUR"
    assert len(codes(client, organiser)) == 4


@pytest.mark.parametrize("setup, message", [
    ({"pairs": PAIRS[:1]}, "A club night needs"),
    ({"pairs": [*PAIRS[:2], PAIRS[0]]}, "Two pairs have the same name"),
    ({"pairs": PAIRS[:3] + ["Ivo & Jan", "Kai & Lea", "Max & Nina"]},
     "A Mitchell movement needs an even number of tables"),
    ({"movement": "swiss"}, "Choose a movement"),
    ({"hands": 2}, "No Victory Points table ships for 2 hands"),
    ({"table": "club", "table_name": "Circolo", "bands": "0–50 10–10\nlots 20–0"},
     "Line 2, “lots 20–0”, is not a band"),
    ({"pairs": [*PAIRS[:3], "Gina\u202e & Hugo"]}, "The name of pair 4 holds a control"),
    ({"title": "x" * 61}, "A title has at most 60 characters."),
])
def test_a_setup_that_breaks_a_rule_is_refused_and_kept(client, post, setup, message):
    answer = start_night(post, **setup)
    assert answer.status_code == 422
    page = parsed(answer)
    assert message in shown(page.select_one(".error"))
    # What was typed comes back as it was.
    assert page.select_one("textarea[name=pairs]").text.strip().splitlines()[0] == \
        setup.get("pairs", PAIRS)[0]


def test_a_clubs_own_table_from_its_lines_scores_the_night(client, post):
    organiser = organiser_of(post, hands=2, table="club", table_name="Circolo Roma",
                             bands="0–100 10–10\n105+ 16–4")
    first = tables(client, organiser)[0]
    sheet = client.get(f"{MATCHES}/{first['sheet'].rsplit('/', 1)[1]}").json
    assert sheet["victory_points_table"] == "Circolo Roma"


def test_a_pair_confirms_with_its_code_and_a_wrong_code_changes_nothing(client, post):
    organiser = organiser_of(post)
    table = tables(client, organiser)[0]
    play(client, table["sheet"])
    sheet = parsed(client.get(table["sheet"]))
    assert [shown(button) for button in sheet.select(".confirm-pair button")] == [
        f"Confirm for {PAIRS[0]}", f"Confirm for {PAIRS[2]}"]
    wrong = confirm(post, client, table["sheet"], 0, "ZZZZ")
    assert wrong.status_code == 422
    assert shown(parsed(wrong).select_one(".error")) == (
        f"That is not the code of {PAIRS[0]}. The organiser has it.")
    assert tables(client, organiser)[0]["state"] == "Waiting for confirmation"
    # A code as typed on a phone: small letters, a space.
    code = codes(client, organiser)[PAIRS[0]]
    assert confirm(post, client, table["sheet"], 0, f" {code.lower()[:2]} {code[2:]}").status_code == 303
    assert tables(client, organiser)[0]["state"] == f"Waiting for confirmation · {PAIRS[0]} confirmed"
    assert standings(client, organiser)[0][1] == "0"  # not yet counted
    # The other pair's code does not confirm for this one.
    assert confirm(post, client, table["sheet"], 1, code).status_code == 422


def test_a_result_confirmed_by_both_pairs_counts_and_locks_the_sheet(client, post):
    organiser = organiser_of(post)
    table = tables(client, organiser)[0]
    token = play(client, table["sheet"])
    confirm_table(post, client, organiser, table)
    assert tables(client, organiser)[0]["state"] == "Confirmed"
    # B8, 3 hands: 765 apart, "655–800 | 16–4"; the other table's result does not count yet.
    assert standings(client, organiser)[0] == (PAIRS[0], "16")
    assert dict(standings(client, organiser))[PAIRS[2]] == "4"
    sheet = parsed(client.get(table["sheet"]))
    assert "Result confirmed" in shown(sheet.select_one(".confirm-result"))
    # The table's phones can no longer change a game: the sheet and the API say why.
    refused = post(f"{table['sheet']}/hands/1", {"version": str(client.get(
        f"{MATCHES}/{token}").json["version"]), "s0_mode": "total", "s0_total": "100",
        "s1_mode": "total", "s1_total": "100"})
    assert refused.status_code == 409
    assert "Only the organiser can reopen it" in shown(parsed(refused).select_one(".error"))
    api = client.put(f"{MATCHES}/{token}/hands/1", json=WON)
    assert api.status_code == 409 and api.json["code"] == "result_confirmed"


def test_the_organiser_reopens_a_result_the_table_corrects_and_the_log_shows_it(client, post):
    organiser = organiser_of(post)
    table = tables(client, organiser)[0]
    token = play(client, table["sheet"])
    confirm_table(post, client, organiser, table)
    assert post(f"{organiser}/turns/1/tables/1/reopen").status_code == 303
    assert tables(client, organiser)[0]["state"] == "Waiting for confirmation"
    lost = {"sides": [{"total": 155}, {"total": 410}]}
    assert client.put(f"{MATCHES}/{token}/hands/1", json=lost).status_code == 200
    assert post(f"{organiser}/turns/1/tables/1/confirm", {"version": version(
        client, table["sheet"])}).status_code == 303
    assert tables(client, organiser)[0]["state"] == "Confirmed by the organiser"
    # 410·2 + 155 = 975 against 155·2 + 410 = 720: B8, 3 hands, "255–350 | 13–7".
    assert standings(client, organiser)[0] == (PAIRS[0], "13")
    log = [shown(line) for line in parsed(client.get(organiser)).select(".event-log li")]
    assert [line.split(" ", 1)[1] for line in log] == [
        "Turn 1, table 1: the organiser confirmed the result.",
        "Turn 1, table 1: game 1 corrected.",
        "Turn 1, table 1: the organiser reopened the result.",
        f"Turn 1, table 1: {PAIRS[2]} confirmed the result.",
        f"Turn 1, table 1: {PAIRS[0]} confirmed the result.",
    ]


def test_the_organiser_confirms_only_a_finished_table(client, post):
    organiser = organiser_of(post)
    table = tables(client, organiser)[0]
    play(client, table["sheet"], games=2)
    assert tables(client, organiser)[0]["state"] == "Playing: game 3 of 3"
    refused = post(f"{organiser}/turns/1/tables/1/confirm", {})
    assert refused.status_code == 422
    assert shown(parsed(refused).select_one(".error")) == (
        "Table 1 has not played its last game yet.")
    assert post(f"{organiser}/turns/3/tables/1/confirm", {}).status_code == 404


def test_a_confirmation_of_a_result_changed_meanwhile_is_refused(client, post):
    organiser = organiser_of(post)
    table = tables(client, organiser)[0]
    token = play(client, table["sheet"])
    shown_at = version(client, table["sheet"])
    client.put(f"{MATCHES}/{token}/hands/2", json={"sides": [{"total": 155}, {"total": 410}]})
    code = codes(client, organiser)[PAIRS[0]]
    stale = post(f"{table['sheet']}/confirm", {"side": "0", "code": code, "version": shown_at})
    assert stale.status_code == 409
    assert "check it and confirm again" in shown(parsed(stale).select_one(".error"))


def test_a_confirmation_before_a_change_no_longer_counts(client, post):
    """One pair confirmed, then a game changed: that pair confirms again what it now sees."""
    organiser = organiser_of(post)
    table = tables(client, organiser)[0]
    token = play(client, table["sheet"])
    known = codes(client, organiser)
    confirm(post, client, table["sheet"], 0, known[PAIRS[0]])
    client.put(f"{MATCHES}/{token}/hands/2", json={"sides": [{"total": 155}, {"total": 410}]})
    confirm(post, client, table["sheet"], 1, known[PAIRS[2]])
    assert tables(client, organiser)[0]["state"] == f"Waiting for confirmation · {PAIRS[2]} confirmed"


def test_the_next_turn_opens_once_every_table_counts(client, post):
    organiser = organiser_of(post)
    first = tables(client, organiser)
    for table in first:
        play(client, table["sheet"])
    confirm_table(post, client, organiser, first[0])
    assert {table["turn"] for table in tables(client, organiser)} == {1}
    confirm_table(post, client, organiser, first[1])
    now = tables(client, organiser)
    # Newest turn first; East–West pairs moved up a table.
    assert [table["pairs"] for table in now if table["turn"] == 2] == [
        [PAIRS[0], PAIRS[3]], [PAIRS[1], PAIRS[2]]]
    page = parsed(client.get(organiser))
    assert shown(page.select_one(".lead")) == "Turn 2 of 2"
    assert [shown(fold.summary) for fold in page.select(".after-turn")] == [
        "Standings after turn 1"]


def test_a_danish_turn_keeps_its_seating_when_turn_one_is_corrected(client, post):
    organiser = organiser_of(post, movement="danish", turns=2)
    first = tables(client, organiser)
    play(client, first[0]["sheet"])
    play(client, first[1]["sheet"], hand={"sides": [{"total": 155}, {"total": 410}]})
    for table in first:
        confirm_table(post, client, organiser, table)
    seated = [table["pairs"] for table in tables(client, organiser) if table["turn"] == 2]
    assert post(f"{organiser}/turns/1/tables/1/reopen").status_code == 303
    token = first[0]["sheet"].rsplit("/", 1)[1]
    for game in (1, 2, 3):
        client.put(f"{MATCHES}/{token}/hands/{game}", json={"sides": [{"total": 155},
                                                                      {"total": 410}]})
    assert [table["pairs"] for table in tables(client, organiser) if table["turn"] == 2] == seated


def test_the_screen_shows_the_standings_and_nothing_to_press(client, post):
    organiser = organiser_of(post)
    link = parsed(client.get(organiser)).select_one(".event-links a")["href"]
    screen = parsed(client.get(link))
    assert not screen.select("form, button, input")
    assert [shown(row.th) for row in screen.select(".event-standings tbody tr")] == PAIRS
    # Nor may its link reach the organiser's page or the codes.
    assert client.get(link.replace("/s/", "/e/")).status_code == 403
    assert "code" not in {cell.get("class", [""])[0] for cell in screen.select("td")}


def test_the_pages_speak_german(client, post):
    organiser = organiser_of(post)
    page = parsed(client.get(organiser, headers=GERMAN))
    assert shown(page.select_one(".lead")) == "Durchgang 1 von 2"
    assert shown(page.select_one(".event-table .state")) == "Noch nicht begonnen"
    assert shown(parsed(client.get("/events/new", headers=GERMAN)).h1) == "Neuer Clubabend"


def test_htmx_gets_the_board_alone(client, post):
    organiser = organiser_of(post)
    board = client.get(organiser, headers=HTMX).get_data(as_text=True)
    assert board.lstrip().startswith('<section id="board"')


def test_a_stream_of_the_night_hears_a_table_move_on(app, client, post):
    """The organiser's page and the screen are sent anew when a table saves a game."""
    organiser = organiser_of(post)
    table = tables(client, organiser)[0]
    heard, first_heard = [], threading.Event()

    def listen():
        with app.test_client() as phone:
            answer = phone.get(f"{organiser}/events", buffered=False)
            for chunk in answer.response:
                heard.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
                boards = sum("event: board" in part for part in heard)
                if boards == 1:
                    first_heard.set()
                if boards == 2:
                    break
            answer.close()

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    assert first_heard.wait(10)
    play(client, table["sheet"], games=1)
    listener.join(10)
    boards = [part for part in heard if "event: board" in part]
    assert len(boards) == 2
    assert "Playing: game 2 of 3" in boards[1]


def test_two_phones_confirming_the_same_table_at_once_count_once(app, client, post):
    organiser = organiser_of(post)
    table = tables(client, organiser)[0]
    play(client, table["sheet"])
    db = store.connect(app.config["DATABASE"])
    try:
        match = store.get_match(db, table["sheet"].rsplit("/", 1)[1])
        made = []

        def confirm_side(side):
            own = store.connect(app.config["DATABASE"])
            try:
                made.append(store.events.confirm(own, match, side, match.version))
            finally:
                own.close()

        phones = [threading.Thread(target=confirm_side, args=(side,)) for side in (0, 1, 0)]
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join(10)
        # Both pairs confirmed once each; the same pair's second tap changed nothing.
        assert sorted(made) == [False, True, True]
        seat = store.events.seat_of(db, store.get_match(db, match.token))
        assert seat.table.confirmed
        assert sorted(found.side for found in seat.table.confirmations) == [0, 1]
    finally:
        db.close()
    assert tables(client, organiser)[0]["state"] == "Confirmed"


def test_a_tables_match_cannot_be_deleted_from_the_night(client, post):
    organiser = organiser_of(post)
    sheet = tables(client, organiser)[0]["sheet"]
    refused = post(f"{sheet}/delete")
    assert refused.status_code == 409
    assert "a table of a club night" in shown(parsed(refused).select_one("main"))
    assert client.get(sheet).status_code == 200


def test_guessing_codes_meets_the_quota(app, client, post, monkeypatch):
    monkeypatch.setitem(app.config, "CONFIRMS_PER_CLIENT", "3 per minute")
    organiser = organiser_of(post)
    table = tables(client, organiser)[0]
    play(client, table["sheet"])
    tries = [confirm(post, client, table["sheet"], 0, guess).status_code
             for guess in ("AAAA", "CCCC", "DDDD", "EEEE")]
    assert tries == [422, 422, 422, 429]
    assert "wrong codes" in shown(parsed(confirm(post, client, table["sheet"], 0, "FFFF")))
    assert tables(client, organiser)[0]["state"] == "Waiting for confirmation"


def test_right_codes_never_meet_the_quota(app, client, post, monkeypatch):
    """A room's tables confirm from the one address of its router."""
    monkeypatch.setitem(app.config, "CONFIRMS_PER_CLIENT", "3 per minute")
    organiser = organiser_of(post, pairs=TWELVE[:8])
    for table in tables(client, organiser):
        play(client, table["sheet"])
        confirm_table(post, client, organiser, table)
    assert {table["state"] for table in tables(client, organiser) if table["turn"] == 1} == {
        "Confirmed"}


def test_the_organisers_phone_finds_its_nights_on_the_home_page(client, post):
    assert shown(parsed(client.get("/")).select_one("a[href='/events/new']")) == (
        "Run a club night (Burraco tournament)")
    organiser = organiser_of(post)
    client.get(organiser)
    listed = parsed(client.get("/")).select(".nights a")
    assert [(link["href"], shown(link.strong)) for link in listed] == [(organiser, "Friday")]
    # Another phone (a table's) does not see it.
    assert not parsed(client.application.test_client().get("/")).select(".nights a")


def test_a_confirmed_sheet_offers_no_correction_until_reopened(client, post):
    organiser = organiser_of(post)
    table = tables(client, organiser)[0]
    play(client, table["sheet"])

    def correction_links():
        page = parsed(client.get(table["sheet"]))
        return [link["href"] for link in page.select(".history a[href*='/hands/']")]

    assert len(correction_links()) == 3
    confirm_table(post, client, organiser, table)
    assert correction_links() == []
    assert not parsed(client.get(table["sheet"])).select("form[action$='/undo']")
    post(f"{organiser}/turns/1/tables/1/reopen")
    assert len(correction_links()) == 3


TWELVE = [f"{first} & {second}" for first, second in zip(
    ("Anna", "Bruno", "Elena", "Gina", "Ivo", "Kai", "Max", "Olga", "Quirin", "Sara", "Udo",
     "Wanda"),
    ("Carla", "Dario", "Fabio", "Hugo", "Jan", "Lea", "Nina", "Paul", "Rita", "Tom", "Vera",
     "Xaver"))]


def test_a_three_turn_night_of_six_tables_runs_to_its_end(client, post):
    """The issue's evening: 12 pairs, Mitchell, three turns of three games; each table enters
    on its own sheet and both pairs confirm; the standings after each turn and at the end."""
    organiser = organiser_of(post, pairs=TWELVE, turns=3)
    for turn in (1, 2, 3):
        seated = [table for table in tables(client, organiser) if table["turn"] == turn]
        assert len(seated) == 6
        # North–South stay; East–West move up a table each turn (B8): table 6's to table 1.
        assert [table["pairs"][0] for table in seated] == TWELVE[:6]
        assert [table["pairs"][1] for table in seated] == [
            TWELVE[6 + (number - turn + 1) % 6] for number in range(6)]
        for number, table in enumerate(seated):
            # Table 1's North–South pair wins by a little more each turn.
            play(client, table["sheet"], hand={"sides": [{"total": 300 + 50 * number},
                                                         {"total": 300}]})
            confirm_table(post, client, organiser, table)
    page = parsed(client.get(organiser))
    assert shown(page.select_one(".lead")) == "The club night is over"
    assert len(page.select(".after-turn")) == 3
    # Three games of 50·n more: 150·n apart each turn. B8, 3 hands: "0–50 | 10–10",
    # "55–150 | 11–9", "255–350 | 13–7", "355–500 | 14–6", "505–650 | 15–5", "655–800 | 16–4".
    final = standings(client, organiser)
    assert final[:6] == [(TWELVE[5], "48"), (TWELVE[4], "45"), (TWELVE[3], "42"),
                         (TWELVE[2], "39"), (TWELVE[1], "33"), (TWELVE[0], "30")]


def test_a_danish_night_of_seven_pairs_gives_a_bye_a_turn(client, post):
    """B8: "the pair without opponents scores 12 VP and 0 MP"; Danish gives it to the
    lowest-placed pair that has not sat out."""
    organiser = organiser_of(post, pairs=TWELVE[:7], movement="danish", turns=2)
    page = parsed(client.get(organiser))
    assert shown(page.select_one(".bye")) == f"Sits out: {TWELVE[6]} (12 VP)"
    for table in tables(client, organiser):
        play(client, table["sheet"])
        confirm_table(post, client, organiser, table)
    assert dict(standings(client, organiser))[TWELVE[6]] == "12"
    second = parsed(client.get(organiser)).select_one(".event-turn .bye")
    assert second is not None and TWELVE[6] not in shown(second)


def test_a_club_changes_what_a_bye_scores_and_the_form_links_its_rules(client, post):
    """B8: "the pair without opponents scores 12 VP and 0 MP" unless the club says otherwise."""
    form = parsed(client.get("/events/new"))
    assert form.select_one("input[name=bye_vp]")["value"] == "12"
    assert {link["href"].split("#")[1] for link in form.select("a.rule-link")} >= {
        "tournament-movements", "tournament-victory-points", "tournament-bye"}
    organiser = organiser_of(post, pairs=TWELVE[:5], movement="round_robin", turns=1,
                             bye_vp="10")
    sits_out = shown(parsed(client.get(organiser)).select_one(".bye"))
    assert sits_out.endswith("(10 VP)")
    refused = start_night(post, pairs=TWELVE[:5], movement="round_robin", turns=1,
                          bye_vp="lots")
    assert refused.status_code == 422
    assert parsed(refused).select_one("input[name=bye_vp]")["value"] == "lots"


def test_a_pair_is_named_everywhere_as_the_rules_read_it(client, post):
    """A pair typed with doubled spaces is one name on the organiser's page, the table's
    confirmation box and the night's log alike."""
    organiser = organiser_of(post, pairs=["Anna  &  Carla", *PAIRS[1:]])
    table = tables(client, organiser)[0]
    assert table["pairs"][0] == PAIRS[0]
    play(client, table["sheet"])
    box = parsed(client.get(table["sheet"])).select_one(".confirm-result")
    assert f"Code of {PAIRS[0]}" in shown(box)
