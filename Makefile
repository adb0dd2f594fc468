# Two commands: `make run` serves the app, `make test` runs every test; both set up what they need.
# `make check` is the fast lane of the tests, `make lint` the linter.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Every interface, so the phones at the table reach it; HOST=127.0.0.1 keeps it to this machine.
HOST ?= 0.0.0.0
PORT ?= 5000
CATALOGS := $(wildcard translations/*/LC_MESSAGES/messages.po)

.PHONY: run test check lint fuzz bench translations extract-messages init-db clean

$(BIN)/.installed: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $@

$(BIN)/.test-installed: requirements-test.txt $(BIN)/.installed
	$(BIN)/python -m pip install --quiet -r requirements-test.txt
	touch $@

translations: $(BIN)/.installed $(CATALOGS:.po=.mo)

%.mo: %.po
	$(BIN)/pybabel compile --statistics -i $< -o $@

# First the address the phones open, with its QR code (views/reach.py); then gunicorn, not
# Flask's development server: threads and timeouts in gunicorn.conf.py.
run: $(BIN)/.installed translations
	@$(BIN)/python -m views.reach $(HOST) $(PORT)
	$(BIN)/gunicorn --config gunicorn.conf.py --bind $(HOST):$(PORT) 'app:create_app()'

# Two workers, one per core, each taking whole files: a file's server or browser starts once,
# and the browser lane's waits overlap the other lanes' work.
test: $(BIN)/.test-installed translations
	$(BIN)/python -m pytest --numprocesses 2 --dist loadfile

# The fast lane: the rules, the pages through Flask's test client, and the code's doctests;
# no browser and no real server (tests/browser/, tests/ops/).
check: $(BIN)/.test-installed translations
	$(BIN)/python -m pytest tests/scoring tests/web scoring rules_content store views

# The fuzz test at length: a thousand requests a route, some 58,000 in all (ten minutes or so).
fuzz: $(BIN)/.test-installed translations
	FUZZ_EXAMPLES=1000 $(BIN)/python -m pytest tests/web/test_fuzz.py -k no_input

# Pyflakes, import order, bugbear and pyupgrade, as ruff.toml selects them.
lint: $(BIN)/.test-installed
	$(BIN)/ruff check .

# Speed over HTTP, served as `make run` serves, against a bare Flask app served the same way.
# BACKEND=postgres: the night once more, on two servers sharing a throwaway PostgreSQL.
BACKEND ?= sqlite
bench: $(BIN)/.test-installed translations
	BENCH_BACKEND=$(BACKEND) $(BIN)/python -m benchmarks.bench

init-db: $(BIN)/.installed
	$(BIN)/flask --app app init-db

# After changing user-facing text: collect it and merge it into every catalogue.
extract-messages: $(BIN)/.installed
	$(BIN)/pybabel extract -F babel.cfg -k lazy_gettext -k _l -o translations/messages.pot --no-location --omit-header app.py views templates
	$(BIN)/pybabel update -i translations/messages.pot -d translations --no-fuzzy-matching --ignore-obsolete

clean:
	rm -rf $(VENV) translations/*/LC_MESSAGES/*.mo
