"""How gunicorn serves Tablemate, for `make run` and in production (`--config
gunicorn.conf.py`): evented workers, so an open sheet's stream of news costs memory, not a
thread, and a slow or stalled phone holds up nobody; timeouts, so nothing waits for ever.
The address comes from the command line (`--bind`)."""

import gc
import resource

# Each worker holds the streams of the sheets open on it, about 19 KB each, and at most some
# 20,000 open files: two workers carry a table's laptop and a few thousand tables on a
# two-core box; more streams want more workers, not more cores. One that is being replaced
# leaves the other answering.
workers = 2

# gevent: every request and stream is a greenlet; worker.py bounds how long a stalled one lives.
worker_class = "worker.Worker"
# Connections a worker holds at once: four phones a table, each with its sheet's stream.
worker_connections = 9000

# A worker silent this long (stuck, not serving its greenlets) is killed and replaced.
timeout = 30

# On a restart or stop, a save under way gets this long to finish.
graceful_timeout = 10

# A phone's requests between two streams reuse their connection for this long.
keepalive = 5

# No access log: every match address is the secret key to its sheet.
accesslog = None

# Nothing manages Tablemate through gunicorn's control socket, and the default is one path
# per user: a second instance (another table, the tests) would take it over.
control_socket_disable = True

# A worker holding thousands of streams pauses whole for a full garbage collection: what it
# made while starting is kept out of the collector's walks, and so, every few seconds, is
# what lives on (the streams themselves), which cut the pauses from 450-700 ms to 10-80 ms.
# What a freeze caught of requests under way becomes garbage the collector no longer sees:
# everything is walked once more every ten minutes, and as soon as the worker's peak memory
# grew by GROWN_BY since the last walk (many large pages at once), so memory stays bounded.
FREEZE_EVERY = 5  # seconds
WALK_ALL_EVERY = 120  # rounds of FREEZE_EVERY: ten minutes
GROWN_BY = 32 * 1024  # KB of peak resident memory


def peak_memory() -> int:
    """The worker's peak resident memory so far, in KB (as Linux counts it)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def post_worker_init(worker):
    """The templates are compiled first (0.4 s), so that no phone's first page waits for
    them, and the objects made while starting are frozen; then, every few seconds, a
    collection is followed by freezing what survived it."""
    templates = worker.wsgi.jinja_env
    for name in templates.list_templates():
        templates.get_template(name)
    gc.freeze()

    import gevent

    def collect_and_freeze():
        rounds, walked_at = 0, peak_memory()
        while True:
            gevent.sleep(FREEZE_EVERY)
            rounds += 1
            if rounds % WALK_ALL_EVERY == 0 or peak_memory() > walked_at + GROWN_BY:
                gc.unfreeze()
                walked_at = peak_memory()
            gc.collect()
            gc.freeze()

    gevent.spawn(collect_and_freeze)
