"""The checkers' index: every game's checkers, which live with their game in views/games/."""

from flask import Blueprint

from . import render

bp = Blueprint("checkers", __name__)


@bp.get("/check")
def index():
    """Every checker, by game."""
    return render("checkers/index.html", "main")
