"""meldtour: Rummikub tournaments under the official rules.

The pure core (``meldtour.core``) referees games; ``solver``, ``players`` and
``tournament`` build on it; ``store``, ``live``, ``web`` and ``cli`` are adapters
around them. Dependencies point one way, in the layer order declared in
:mod:`meldtour.layers`: nothing imports an adapter from below, and no module imports
itself round a cycle.
"""

__version__ = "0.1.0"
