"""meldtour: Rummikub tournaments under the official rules.

The pure core (``meldtour.core``) referees games; ``solver``, ``players`` and
``tournament`` build on it; ``cli`` (and later ``store``, ``live``, ``web``) are
adapters around them. Dependencies point one way: nothing imports an adapter.
"""

__version__ = "0.1.0"
