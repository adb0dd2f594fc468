"""The API's documentation page: the OpenAPI document in Swagger UI, served from here, so it
works on a table's wifi without internet."""

from flask import Blueprint, render_template, url_for

# Swagger UI as published on npm (swagger-ui-dist), its licence beside it.
VIEWER = "vendor/swagger-ui-5.35.0"

bp = Blueprint("api_docs", __name__)


@bp.get("/api/v1/docs")
def show():
    """Every operation of the API, each one to try against this server."""
    return render_template("api/docs.html", viewer=VIEWER,
                           document=url_for("api.openapi_document"))
