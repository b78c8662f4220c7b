"""The web app: FastAPI routes, Jinja2 templates and the ko/ja/en catalogs.

An adapter like the CLI: it imports the packages below it, and nothing imports it.
"""
