"""The web app's routes, one module per job; the director's are under
:mod:`meldtour.web.director.routes`. :mod:`meldtour.web.assemble` adds them to the app."""
