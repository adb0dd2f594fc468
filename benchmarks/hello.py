"""The baseline of `make bench`: a bare Flask app that answers "hello", served the way
Tablemate is, so that the ratios measure Tablemate and not gunicorn or the machine."""

from flask import Flask


def create_app() -> Flask:
    """A Flask app with one route and nothing else."""
    app = Flask(__name__)

    @app.get("/")
    def hello():
        return "hello"

    return app
