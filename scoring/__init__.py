"""Pure card-game rules: values in, values out; no Flask, no database."""
