"""The director's web app: accounts, check-in, rounds, awards, audit, score entry per
table, printing and exports (:mod:`.routes`), and what they depend on (:mod:`.deps`:
the session, CSRF, the store). :mod:`meldtour.web.assemble` adds the routes to the app;
the public tournament pages are :mod:`meldtour.web.routes.public`.
"""
