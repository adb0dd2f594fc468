"""The app's commands (``flask --app app <command>``): the database, its backups, the move to
another database, the rules' index and the purge of deleted matches."""

import click
from flask import current_app
from flask.cli import AppGroup

import store

from .rule_search import rules_index

# Each command runs inside the app's context (AppGroup), as ``app.cli``'s own would.
COMMANDS = AppGroup("tablemate")


@COMMANDS.command("init-db")
def init_db():
    """Create the database or bring its schema up to date."""
    database = current_app.config["DATABASE"]
    store.connect(database).close()
    click.echo(f"Schema version {store.schema_steps(database)} ready.")


@COMMANDS.command("index-rules")
def index_rules():
    """Build the rules' search index if the documents changed."""
    rebuilt = rules_index().build()
    click.echo("Rules index rebuilt." if rebuilt else "Rules index is up to date.")


@COMMANDS.command("backup")
@click.argument("path", type=click.Path(dir_okay=False))
def backup(path):
    """Copy the database to PATH, consistent also while the app runs."""
    try:
        matches = store.backup(current_app.config["DATABASE"], path)
    except store.Unavailable as error:
        raise click.ClickException(f"No backup written: {error}") from error
    click.echo(f"Backup of {matches} matches written to {path}.")


@COMMANDS.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def restore(path):
    """Put the backup at PATH in place of the database; a running app may stay up."""
    try:
        matches = store.restore(current_app.config["DATABASE"], path)
    except (store.BadBackup, store.Unavailable) as error:
        raise click.ClickException(f"Nothing restored from {path}: {error}") from error
    click.echo(f"Restored {matches} matches from {path}.")


@COMMANDS.command("migrate-to")
@click.argument("url")
def migrate_to(url):
    """Copy every match, with its links, hands, history and device lists, and every club
    night into the database at URL (postgresql://user@host/database); running it again
    brings over what changed since and duplicates nothing."""
    try:
        source, target = store.connect(current_app.config["DATABASE"], create=False), None
        try:
            target = store.connect(url)
            matches, nights = store.copy_matches(source, target)
        finally:
            source.close()
            if target is not None:
                target.close()
    except store.Unavailable as error:
        raise click.ClickException(f"Nothing copied: {error}") from error
    click.echo(f"{_counted(matches, 'match', 'matches')} and "
               f"{_counted(nights, 'club night', 'club nights')} copied to {url.split('@')[-1]}.")


def _counted(count: int, one: str, many: str) -> str:
    """>>> _counted(1, "match", "matches"), _counted(4, "match", "matches")
    ('1 match', '4 matches')
    """
    return f"{count} {one if count == 1 else many}"


@COMMANDS.command("purge-deleted")
def purge_deleted():
    """Remove for good the matches deleted longer ago than can be undone (30 days)."""
    count = store.purge_deleted(store.get_db())
    click.echo(f"{count} deleted matches removed for good.")


def register(app) -> None:
    for command in COMMANDS.commands.values():
        app.cli.add_command(command)
