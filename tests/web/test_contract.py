"""The API as a contract (issue #13): every route in the OpenAPI document with examples of what
it is sent and answers, bodies of the wrong shape refused by field in the reader's language, the
examples of docs/api.md in the document, and schemathesis driving every operation of the live
app."""

import json
import re
import tempfile
import threading
from pathlib import Path

import pytest
import requests
import schemathesis
from helpers import EVENTS, GERMAN, HANDS, MATCHES, ROOT
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import positive_data_acceptance
from werkzeug.serving import make_server

from app import create_app

API_DOCS = (ROOT / "docs" / "api.md").read_text()
DOCUMENT = "/api/v1/openapi.json"
# The document and its viewer describe the API; they are not operations of it.
ABOUT_THE_API = {"/api/v1/openapi.json", "/api/v1/docs"}


def test_the_document_is_openapi_3_1(client):
    document = client.get(DOCUMENT).json
    assert document["openapi"] == "3.1.0"
    assert document["info"]["title"] == "Tablemate API"


def _success_schema(document: dict, operation: dict) -> dict:
    """The component schema of an operation's 2xx answer."""
    answered = next(answer for status, answer in operation["responses"].items()
                    if status.startswith("2"))
    name = answered["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    return document["components"]["schemas"][name]


def test_every_api_route_is_an_operation_of_the_document_with_examples(app, client):
    """The reference is the document: every route is in it, with an example of what it
    answers and, where it takes a body, of what it is sent."""
    document = client.get(DOCUMENT).json
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or rule.rule in ABOUT_THE_API:
            continue
        path = re.sub(r"<(?:[^:>]+:)?(\w+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            operation = document["paths"].get(path, {}).get(method.lower())
            assert operation, f"{method} {path} is not documented"
            assert _success_schema(document, operation).get("examples"), \
                f"{method} {path} has no example of its answer"
            body = operation.get("requestBody")
            if body:
                name = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
                assert document["components"]["schemas"][name].get("examples"), \
                    f"{method} {path} has no example of its body"


def _shape(value):
    """What a JSON value holds, without its values: an object's keys with their shapes, a
    list's first item's shape (None: an empty list or a plain value)."""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shape(value[0])] if value else None
    return None


def _alike(example, real) -> bool:
    """The same keys all the way down; an empty list or a null matches any shape."""
    if example is None or real is None:
        return True
    if isinstance(example, dict) and isinstance(real, dict):
        return example.keys() == real.keys() and all(
            _alike(example[key], real[key]) for key in example)
    if isinstance(example, list) and isinstance(real, list):
        return _alike(example[0], real[0])
    return False


def _real_answers(client, document: dict):
    """(method, path, answer) for an answer of every operation, each asked with the
    document's own example of its body."""
    def sent(method: str, path: str):
        body = document["paths"][path][method].get("requestBody")
        if body is None:
            return None
        name = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
        return document["components"]["schemas"][name]["examples"][0]

    for path, operations in document["paths"].items():
        if "{" not in path and "post" in operations and path != f"{MATCHES}/import":
            yield "post", path, client.post(path, json=sent("post", path)).json
    started = client.post(MATCHES, json=sent("post", MATCHES)).json
    match = f"{MATCHES}/{started['token']}"
    yield "post", f"{MATCHES}/{{token}}/hands", client.post(f"{match}/hands", json={"burro": 1}).json
    yield "put", f"{MATCHES}/{{token}}/hands/{{number}}", client.put(f"{match}/hands/1",
                                                                    json={"burro": 1}).json
    yield "get", f"{MATCHES}/{{token}}", client.get(match).json
    exported = client.get(f"{match}/export").json
    yield "get", f"{MATCHES}/{{token}}/export", exported
    yield "post", f"{MATCHES}/import", client.post(f"{MATCHES}/import", json=exported).json
    yield "delete", f"{MATCHES}/{{token}}/hands/last", client.delete(f"{match}/hands/last").json
    yield "get", "/api/v1/rules/search", client.get("/api/v1/rules/search?q=pozzetto").json
    yield from _real_night_answers(client, sent("post", EVENTS))
    night = client.post("/api/v1/events/import", json=sent("post", "/api/v1/events/import")).json
    yield "get", "/api/v1/events/{token}/export", client.get(
        f"/api/v1/events/{night['token']}/export").json


def _real_night_answers(client, setup: dict):
    """A club night read and its first table played, confirmed by a pair and by the
    organiser, and reopened."""
    night = client.post(EVENTS, json=setup).json
    event = f"{EVENTS}/{night['token']}"
    yield "get", f"{EVENTS}/{{token}}", client.get(event).json
    yield "get", f"{EVENTS}/{{token}}/turns/{{turn}}", client.get(f"{event}/turns/1").json
    yield "get", f"{EVENTS}/{{token}}/standings", client.get(f"{event}/standings").json
    table = night["turns"][0]["tables"][0]
    for _hand in range(night["setup"]["hands"]):
        played = client.post(f"{MATCHES}/{table['token']}/hands", json=HANDS["burraco"]).json
    confirmed = client.post(f"{MATCHES}/{table['token']}/confirm", json={
        "side": 0, "code": night["pairs"][0]["code"], "version": played["version"]})
    yield "post", f"{MATCHES}/{{token}}/confirm", confirmed.json
    at_table = f"{event}/turns/1/tables/1"
    yield ("post", f"{EVENTS}/{{token}}/turns/{{turn}}/tables/{{table}}/confirm",
           client.post(f"{at_table}/confirm", json={}).json)
    yield ("post", f"{EVENTS}/{{token}}/turns/{{turn}}/tables/{{table}}/reopen",
           client.post(f"{at_table}/reopen", json={}).json)


def test_every_example_of_an_answer_has_the_shape_of_a_real_one(client):
    """An example that a client copies must hold the keys a real answer holds, no more."""
    document = client.get(DOCUMENT).json
    answered = set()
    for method, path, answer in _real_answers(client, document):
        operation = document["paths"][path][method]
        for example in _success_schema(document, operation)["examples"]:
            assert _alike(_shape(example), _shape(answer)), (method, path, example, answer)
        answered.add((method, path))
    assert answered == {(method, path) for path, operations in document["paths"].items()
                        for method in operations}


def _readme_examples():
    """(method, path, body) of every ``curl -d`` in docs/api.md."""
    for section in re.split(r"^## ", API_DOCS, flags=re.M):
        heading = re.match(r"`(POST|PUT) (/api/\S+)`", section)
        for body in re.findall(r"-d '(.*?)'", section, re.S) if heading else ():
            path = re.sub(r"<(\w+)>", r"{\1}", heading.group(2))
            yield heading.group(1), path, body


@pytest.mark.parametrize("method, path, body", list(_readme_examples()))
def test_the_worked_examples_are_the_documents(client, method, path, body):
    document = client.get(DOCUMENT).json
    request = document["paths"][path][method.lower()]["requestBody"]
    name = request["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert json.loads(body) in document["components"]["schemas"][name]["examples"]


def test_a_body_of_the_wrong_shape_is_refused_by_its_fields(client):
    response = client.post("/api/v1/burraco/hand", json={
        "sides": [{"table_points": "many", "pozzetto": "taken"}, {"totl": -35}]})
    assert response.status_code == 400
    assert response.json["code"] == "invalid_field"
    refused = {field["path"]: field["error"] for field in response.json["fields"]}
    assert refused == {
        "sides.0.table_points": "The field “sides.0.table_points” is of the wrong type.",
        "sides.1.totl": "There is no field “sides.1.totl” in this request."}
    assert response.json["error"] == refused["sides.0.table_points"]


def test_a_refused_field_is_named_in_the_readers_language(client):
    response = client.post(MATCHES, json={"game": "skat", "players": ["A", "B"]},
                           headers=GERMAN)
    assert response.status_code == 400
    assert response.json["fields"][0]["path"] == "game"
    assert response.json["error"].startswith("Das Feld „game“ muss")
    assert "'burro'" in response.json["error"] and " oder " in response.json["error"]


def test_a_number_beyond_nine_digits_is_refused_with_its_bound(client):
    response = client.post("/api/v1/bura/claim", json={"cards": ["AS"], "pot": 10**12})
    assert response.status_code == 400
    assert response.json["fields"][0] == {
        "path": "pot", "error": "The field “pot” must be at most 999,999,999."}


def test_a_refused_shape_stores_nothing(client):
    token = client.post(MATCHES, json={"game": "burro",
                                                 "players": ["A", "B"]}).json["token"]
    refused = client.post(f"{MATCHES}/{token}/hands", json={"burro": "1"})
    assert refused.status_code == 400 and refused.json["fields"][0]["path"] == "burro"
    assert client.get(f"{MATCHES}/{token}").json["hands"] == []


# --- schemathesis over every operation of the live app -----------------------------------------

def _serve(app) -> str:
    """The app served on a free local port in a thread, for as long as the tests run."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


# Served over HTTP, as a client meets it (compressed answers included), on a database of its
# own. schemathesis reads the document when this module loads, before any fixture exists. It
# starts and imports far more matches a minute than any client may (test_quotas.py).
LIVE = create_app({"TESTING": True, "SECRET_KEY": "contract", "RATELIMIT_ENABLED": False,
                   "DATABASE": str(Path(tempfile.mkdtemp()) / "tablemate.sqlite")})
ADDRESS = _serve(LIVE)
# A body beyond the app's 64 KB (a document of more than 5,000 entries) is refused by its
# size, before its shape: 413 refuses it as well as a 400.
REFUSALS = {"checks": {"negative_data_rejection": {
    "expected-statuses": ["400", "403", "404", "405", "409", "410", "413"]}}}
schema = schemathesis.openapi.from_url(ADDRESS + DOCUMENT,
                                       config=SchemathesisConfig.from_dict(REFUSALS))
STARTED = requests.post(f"{ADDRESS}/api/v1/matches", timeout=10,
                        json={"game": "burro", "players": ["A", "B"]}).json()
NIGHT = requests.post(f"{ADDRESS}{EVENTS}", timeout=10, json={
    "pairs": ["A", "B", "C", "D"], "movement": "mitchell", "turns": 2, "hands": 2,
    "victory_points": {"name": "Club", "bands": [{"from": 0, "to": None, "vp": [10, 10]}]}}
                      ).json()
# Generated requests reach a real match and a real club night too, by either of their
# links, not only unknown ones.
LINKS = (STARTED["token"], STARTED["view_token"])
NIGHT_LINKS = (NIGHT["token"], NIGHT["view_token"])


@schema.parametrize()
@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_every_operation_keeps_its_contract(case):
    """No 5xx, and every answer has a documented status and matches its schema. A body of
    the right shape may still break a rule (a card twice, a hand after the end): that is a
    400 with its code, so a right shape is not required to be accepted."""
    token = (case.path_parameters or {}).get("token")
    if token is not None and len(token) % 3:
        links = NIGHT_LINKS if case.path.startswith(EVENTS) else LINKS
        case.path_parameters["token"] = links[len(token) % 3 - 1]
    case.call_and_validate(excluded_checks=[positive_data_acceptance])
