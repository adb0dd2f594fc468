"""The API's description: the OpenAPI document, and a page showing it in Swagger UI, served
from here, so it works on a table's wifi without internet."""

from flask import Blueprint, jsonify, render_template, url_for

from .contract import PREFIX, api

# Swagger UI as published on npm (swagger-ui-dist), its licence beside it.
VIEWER = "vendor/swagger-ui-5.35.0"

bp = Blueprint("api_docs", __name__)


@bp.get(f"{PREFIX}/docs")
def show():
    """Every operation of the API, each one to try against this server."""
    return render_template("api/docs.html", viewer=VIEWER,
                           document=url_for("api_docs.openapi_document"))


@bp.get(f"{PREFIX}/openapi.json")
def openapi_document():
    """This API as an OpenAPI 3.1 document, generated from its models and routes."""
    return jsonify(api.spec)
